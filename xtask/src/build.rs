//! `cargo xtask build [--release]`: the sample-server bundles (`target/bundles/<dir>/`) and the host package
//! (`target/pkg/host/`), each through wasm-bindgen `--target web`, and wasm-opt -Os in release. Each bundle also
//! gets the worker entry `bootstrap.js`, the Node entry `serve.mjs` (with `serve-http.mjs` and a `package.json`)
//! and the server's `manifest.json` (see `manifest`).

pub(crate) mod budgets;
mod manifest;

use std::fmt;
use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use crate::{Result, cmd, display, root, target_dir};

const WASM_TARGET: &str = "wasm32-unknown-unknown";
/// The host's JavaScript binding crate (its package ships as `target/pkg/host/`).
const HOST_CRATE: &str = "host/js";
/// The package's name under `target/pkg/`.
const HOST_DIR: &str = "host";
const BOOTSTRAP: &str = "worker-sdk/js/bootstrap.js";
/// The Node entry point of every bundle (`node <bundle>/serve.mjs`: stdio, or Streamable HTTP with `--http`) and
/// the module it loads for HTTP.
const NODE_ENTRY: &[&str] =
    &["worker-sdk/js/serve.mjs", "worker-sdk/js/serve-http.mjs", "worker-sdk/js/serve-http-modern.mjs"];
/// Written next to them, so that node loads the glue `server.js` as the ES module it is wherever the bundle lives.
const NODE_PACKAGE_JSON: &str = "{\n  \"type\": \"module\"\n}\n";

/// Wasm features rustc 1.95 enables by default for wasm32-unknown-unknown; wasm-opt must accept all of them.
const WASM_OPT_FEATURES: &[&str] = &[
    "--enable-reference-types",
    "--enable-multivalue",
    "--enable-bulk-memory",
    "--enable-bulk-memory-opt",
    "--enable-call-indirect-overlong",
    "--enable-sign-ext",
    "--enable-nontrapping-float-to-int",
    "--enable-mutable-globals",
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Profile {
    Debug,
    Release,
}

impl Profile {
    pub(crate) fn from_args(args: &[String]) -> Result<Self> {
        match args {
            [] => Ok(Self::Debug),
            [flag] if flag == "--release" => Ok(Self::Release),
            _ => Err(format!("build: unexpected arguments `{}` (expected `[--release]`)", args.join(" "))),
        }
    }

    fn dir(self) -> &'static str {
        match self {
            Self::Debug => "debug",
            Self::Release => "release",
        }
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.dir())
    }
}

/// A crate that compiles to one wasm module.
#[derive(Debug)]
struct WasmCrate {
    /// Directory name under `sample-servers/` (the bundle name), or `host`.
    dir: String,
    package: String,
    /// File stem of the `.wasm` cargo writes: the lib name.
    lib: String,
}

/// What a build produced.
#[derive(Debug, Default)]
pub(crate) struct Outputs {
    /// `target/bundles/<dir>/` per sample server.
    pub(crate) bundles: Vec<PathBuf>,
    /// `target/pkg/host/` if the host crate exists.
    pub(crate) host: Option<PathBuf>,
    /// `target/pkg/host-client/`: the host without its `runtime` feature (`McpClient` only).
    pub(crate) host_client: Option<PathBuf>,
}

pub(crate) fn build(profile: Profile) -> Result<Outputs> {
    println!("== build ({profile})");
    let servers = sample_servers()?;
    let host = host_crate()?;
    if servers.is_empty() {
        println!("note: no sample servers yet (no sample-servers/<dir>/Cargo.toml): no bundles to build");
    }
    if host.is_none() {
        println!("note: no host crate yet ({HOST_CRATE}/Cargo.toml missing): no host package to build");
    }
    if servers.is_empty() && host.is_none() {
        return Ok(Outputs::default());
    }

    let mut cargo = cmd::cargo();
    cargo.args(["build", "--target", WASM_TARGET]);
    for krate in servers.iter().chain(&host) {
        cargo.args(["-p", &krate.package]);
    }
    if profile == Profile::Release {
        cargo.arg("--release");
    }
    cmd::run(&mut cargo)?;

    let wasm_dir = target_dir().join(WASM_TARGET).join(profile.dir());
    let mut outputs = Outputs::default();
    let bundles = target_dir().join("bundles");
    remove_dir(&bundles)?;
    for server in &servers {
        let out_dir = bundles.join(&server.dir);
        let wasm = wasm_dir.join(format!("{}.wasm", server.lib));
        cmd::run(
            cmd::new("wasm-bindgen").args(["--target", "web", "--no-typescript", "--out-name", "server"]).args([
                "--out-dir".as_ref(),
                out_dir.as_os_str(),
                wasm.as_os_str(),
            ]),
        )?;
        copy_file(&root().join(BOOTSTRAP), &out_dir.join("bootstrap.js")).map_err(|e| {
            format!(
                "{e}\n  the worker SDK ships the worker bootstrap at {BOOTSTRAP}; bundles need it next to server.js"
            )
        })?;
        copy_node_entry(&out_dir)?;
        if profile == Profile::Release {
            wasm_opt(&out_dir.join("server_bg.wasm"))?;
        }
        manifest::write_manifest(&out_dir)?;
        outputs.bundles.push(out_dir);
    }
    if let Some(host) = &host {
        let out_dir = target_dir().join("pkg").join(HOST_DIR);
        remove_dir(&out_dir)?;
        let wasm = wasm_dir.join(format!("{}.wasm", host.lib));
        cmd::run(cmd::new("wasm-bindgen").args(["--target", "web", "--out-name", &host.lib]).args([
            "--out-dir".as_ref(),
            out_dir.as_os_str(),
            wasm.as_os_str(),
        ]))?;
        if profile == Profile::Release {
            wasm_opt(&out_dir.join(format!("{}_bg.wasm", host.lib)))?;
        }
        // The host's JavaScript companions (the ART adapter, the OAuth popup and its redirect page, their types) ship
        // beside the package they import.
        for companion in files_in(&root().join(HOST_CRATE))? {
            let name = companion.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            let redirect_page = name.starts_with("oauth-callback.");
            if name.ends_with(".mjs") || name.ends_with(".d.mts") || redirect_page {
                copy_file(&companion, &out_dir.join(&name))?;
            }
        }
        outputs.host = Some(out_dir);
        outputs.host_client = Some(build_host_client(host, profile)?);
    }

    println!("outputs:");
    for dir in outputs.bundles.iter().chain(&outputs.host).chain(&outputs.host_client) {
        let mut files = files_in(dir)?;
        files.sort();
        report_sizes(&files)?;
    }
    if profile == Profile::Release {
        // Shown here; `cargo xtask test` fails on a package over its budget.
        let weighed = budgets::weigh_all(&target_dir())?;
        budgets::print(&weighed);
        if let Err(over) = budgets::verdict(&weighed) {
            println!("warning: {over}");
        }
    }
    Ok(outputs)
}

/// `serve.mjs` and `serve-http.mjs`, and the `package.json` that makes `server.js` an ES module for node.
fn copy_node_entry(out_dir: &Path) -> Result {
    for entry in NODE_ENTRY {
        let name = Path::new(entry).file_name().unwrap_or_default();
        copy_file(&root().join(entry), &out_dir.join(name)).map_err(|e| {
            format!("{e}\n  the worker SDK ships the Node entry point at {entry}; bundles need it next to server.js")
        })?;
    }
    let package = out_dir.join("package.json");
    fs::write(&package, NODE_PACKAGE_JSON).map_err(|e| format!("cannot write {}: {e}", display(&package)))
}

/// The light host package: the same crate without its `runtime` feature, for pages that only need `McpClient`.
/// Built after the full package because both link to the same file name; cargo keeps both builds cached.
fn build_host_client(host: &WasmCrate, profile: Profile) -> Result<PathBuf> {
    let mut cargo = cmd::cargo();
    cargo.args(["build", "--target", WASM_TARGET, "-p", &host.package, "--no-default-features"]);
    if profile == Profile::Release {
        cargo.arg("--release");
    }
    cmd::run(&mut cargo)?;
    let wasm = target_dir().join(WASM_TARGET).join(profile.dir()).join(format!("{}.wasm", host.lib));
    let out_dir = target_dir().join("pkg").join(format!("{HOST_DIR}-client"));
    remove_dir(&out_dir)?;
    cmd::run(cmd::new("wasm-bindgen").args(["--target", "web", "--out-name", &host.lib]).args([
        "--out-dir".as_ref(),
        out_dir.as_os_str(),
        wasm.as_os_str(),
    ]))?;
    if profile == Profile::Release {
        wasm_opt(&out_dir.join(format!("{}_bg.wasm", host.lib)))?;
    }
    Ok(out_dir)
}

fn sample_servers() -> Result<Vec<WasmCrate>> {
    let dir = root().join("sample-servers");
    let Ok(entries) = fs::read_dir(&dir) else { return Ok(Vec::new()) };
    let mut servers = Vec::new();
    for entry in entries {
        let path = entry.map_err(|e| format!("cannot list {}: {e}", display(&dir)))?.path();
        if path.join("Cargo.toml").is_file() {
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            servers.push(wasm_crate(&path, name)?);
        }
    }
    servers.sort_by(|a, b| a.dir.cmp(&b.dir));
    Ok(servers)
}

fn host_crate() -> Result<Option<WasmCrate>> {
    let dir = root().join(HOST_CRATE);
    if dir.join("Cargo.toml").is_file() { wasm_crate(&dir, HOST_DIR.to_owned()).map(Some) } else { Ok(None) }
}

fn wasm_crate(dir: &Path, name: String) -> Result<WasmCrate> {
    let manifest_path = dir.join("Cargo.toml");
    let manifest =
        fs::read_to_string(&manifest_path).map_err(|e| format!("cannot read {}: {e}", display(&manifest_path)))?;
    let package = toml_string(&manifest, "package", "name")
        .ok_or_else(|| format!("{} has no [package] name = \"…\"", display(&manifest_path)))?;
    let lib = toml_string(&manifest, "lib", "name").unwrap_or_else(|| package.replace('-', "_"));
    Ok(WasmCrate { dir: name, package, lib })
}

/// The string value of `key = "…"` in the `[section]` of a TOML manifest (enough for Cargo.toml names).
pub(crate) fn toml_string(manifest: &str, section: &str, key: &str) -> Option<String> {
    let mut current = String::new();
    for line in manifest.lines() {
        let line = line.trim();
        if let Some(header) = line.strip_prefix('[') {
            current = header.trim_end_matches(']').trim().to_owned();
            continue;
        }
        if current != section {
            continue;
        }
        let Some((k, value)) = line.split_once('=') else { continue };
        if k.trim() != key {
            continue;
        }
        let value = value.trim();
        let value = value.strip_prefix('"')?;
        return value.split_once('"').map(|(text, _)| text.to_owned());
    }
    None
}

fn wasm_opt(wasm: &Path) -> Result {
    let optimized = wasm.with_extension("opt.wasm");
    let mut command = cmd::npm_bin("wasm-opt")?;
    command.arg("-Os").args(WASM_OPT_FEATURES).arg(wasm).arg("-o").arg(&optimized);
    cmd::run(&mut command)?;
    fs::rename(&optimized, wasm).map_err(|e| format!("cannot replace {} with its optimized build: {e}", display(wasm)))
}

/// Prints `raw  gzip  path` for each file.
pub(crate) fn report_sizes(files: &[PathBuf]) -> Result {
    for file in files {
        let bytes = fs::read(file).map_err(|e| format!("cannot read {}: {e}", display(file)))?;
        let gzip = gzip_len(&bytes)?;
        println!("  {:>10}  {:>10} gzip  {}", human(bytes.len()), human(gzip), display(file));
    }
    Ok(())
}

pub(crate) fn gzip_len(bytes: &[u8]) -> Result<usize> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(bytes).and_then(|()| encoder.finish()).map(|gz| gz.len()).map_err(|e| format!("gzip: {e}"))
}

fn human(bytes: usize) -> String {
    if bytes < 1024 { format!("{bytes} B") } else { format!("{:.1} KiB", bytes as f64 / 1024.0) }
}

pub(crate) fn files_in(dir: &Path) -> Result<Vec<PathBuf>> {
    let entries = fs::read_dir(dir).map_err(|e| format!("cannot list {}: {e}", display(dir)))?;
    let mut files = Vec::new();
    for entry in entries {
        let path = entry.map_err(|e| format!("cannot list {}: {e}", display(dir)))?.path();
        if path.is_file() {
            files.push(path);
        }
    }
    Ok(files)
}

pub(crate) fn remove_dir(dir: &Path) -> Result {
    match fs::remove_dir_all(dir) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(format!("cannot remove {}: {e}", display(dir))),
    }
}

fn copy_file(from: &Path, to: &Path) -> Result {
    fs::copy(from, to).map(drop).map_err(|e| format!("cannot copy {} to {}: {e}", display(from), display(to)))
}

/// Copies the contents of `from` into `to` (created if missing), recursively.
pub(crate) fn copy_dir(from: &Path, to: &Path) -> Result {
    fs::create_dir_all(to).map_err(|e| format!("cannot create {}: {e}", display(to)))?;
    let entries = fs::read_dir(from).map_err(|e| format!("cannot list {}: {e}", display(from)))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("cannot list {}: {e}", display(from)))?;
        let (source, dest) = (entry.path(), to.join(entry.file_name()));
        if source.is_dir() { copy_dir(&source, &dest)? } else { copy_file(&source, &dest)? }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const MANIFEST: &str = r#"
[package]
name = "echo-server" # the sample
version.workspace = true

[lib]
crate-type = ["cdylib"]

[dependencies]
name = "not-this"
"#;

    #[test]
    fn manifest_names() {
        assert_eq!(toml_string(MANIFEST, "package", "name").as_deref(), Some("echo-server"));
        assert_eq!(toml_string(MANIFEST, "lib", "name"), None);
        assert_eq!(toml_string(MANIFEST, "dependencies", "name").as_deref(), Some("not-this"));
        assert_eq!(toml_string("[package]\nname = 'x'\n", "package", "name"), None);
    }

    #[test]
    fn profile_arguments() {
        assert_eq!(Profile::from_args(&[]), Ok(Profile::Debug));
        assert_eq!(Profile::from_args(&["--release".to_owned()]), Ok(Profile::Release));
        assert!(Profile::from_args(&["--fast".to_owned()]).is_err());
    }

    #[test]
    fn gzip_shrinks_repetitive_input() {
        let input = vec![b'a'; 10_000];
        let len = gzip_len(&input).unwrap();
        assert!(len > 18 && len < 200, "{len}");
    }
}
