//! `cargo xtask build [--release]`: the sample-server bundles (`target/bundles/<dir>/`) and the host package
//! (`target/pkg/host/`), each through wasm-bindgen `--target web`, and wasm-opt -Os in release. Each bundle also
//! gets the worker entry `bootstrap.js`, the Node entry `serve.mjs` (with `serve-http.mjs` and a `package.json`)
//! and the server's `manifest.json` (see `manifest`).

pub(crate) mod budgets;
mod parallel;

use std::collections::HashMap;
use std::fmt;
use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, PoisonError};

use mcp_worker_build::fingerprint::Fingerprint;
pub(crate) use mcp_worker_build::lockfile::toml_string;
use mcp_worker_build::{WASM_TARGET, bundle, export_names, import_names, lean_std, prebuilt_schemas};

use crate::{Result, cmd, display, root, target_dir};
/// The host's JavaScript binding crate (its package ships as `target/pkg/host/`).
const HOST_CRATE: &str = "host/js";
/// The package's name under `target/pkg/`.
const HOST_DIR: &str = "host";
/// The worker SDK's JavaScript: the worker bootstrap and the Node entry every bundle carries.
const SDK_JS: &str = "worker-sdk/js";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Profile {
    Debug,
    Release,
}

/// What `cargo xtask build` was asked for: a profile, and which crates (all by default).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BuildArgs {
    pub(crate) profile: Profile,
    /// Sample servers (by directory or package name) and `host`; empty: everything.
    pub(crate) only: Vec<String>,
    /// Where a release build also writes each package's optimized wasm with its functions' names kept, as
    /// `bundles/<server>.wasm` and `pkg/<package>.wasm` (`cargo xtask weigh`); a package whose copy is missing is
    /// made again, the same as before.
    pub(crate) named_copies: Option<PathBuf>,
}

impl BuildArgs {
    pub(crate) fn from_args(args: &[String]) -> Result<Self> {
        let mut parsed = Self { profile: Profile::Debug, only: Vec::new(), named_copies: None };
        let mut iter = args.iter();
        while let Some(arg) = iter.next() {
            match arg.as_str() {
                "--release" => parsed.profile = Profile::Release,
                "-p" | "--package" => match iter.next() {
                    Some(name) => parsed.only.push(name.clone()),
                    None => return Err(format!("build: `{arg}` needs a server's name (or `host`)")),
                },
                other => {
                    return Err(format!(
                        "build: unexpected argument `{other}` (expected `[--release] [-p <server> | -p host]...`)"
                    ));
                }
            }
        }
        Ok(parsed)
    }
}

impl Profile {
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
    build_selected(&BuildArgs { profile, only: Vec::new(), named_copies: None })
}

/// Builds what `args` asks for: every sample server's bundle and the host packages, or only those named.
pub(crate) fn build_selected(args: &BuildArgs) -> Result<Outputs> {
    let profile = args.profile;
    println!("== build ({profile})");
    let all_servers = sample_servers()?;
    let host = host_crate()?.filter(|_| args.only.is_empty() || args.only.iter().any(|name| name == HOST_DIR));
    let servers: Vec<WasmCrate> = if args.only.is_empty() {
        all_servers
    } else {
        let known: Vec<String> = all_servers.iter().map(|s| s.dir.clone()).collect();
        for name in &args.only {
            let found = name == HOST_DIR || all_servers.iter().any(|s| &s.dir == name || &s.package == name);
            if !found {
                return Err(format!("build: no server `{name}` (the sample servers: {}; or `host`)", known.join(", ")));
            }
        }
        all_servers.into_iter().filter(|s| args.only.iter().any(|n| n == &s.dir || n == &s.package)).collect()
    };
    if servers.is_empty() {
        println!("note: no sample servers yet (no sample-servers/<dir>/Cargo.toml): no bundles to build");
    }
    if host.is_none() {
        println!("note: no host crate yet ({HOST_CRATE}/Cargo.toml missing): no host package to build");
    }
    if servers.is_empty() && host.is_none() {
        return Ok(Outputs::default());
    }

    // First the wasm. The servers and the host in separate builds: a build unifies its packages' features, and a
    // feature the host's runtime needs (serde_json's float_roundtrip, about 12 KiB of gzip) must not reach every
    // server's bundle. Then the host, and the `McpClient`-only host.
    let servers_build = |profile: Profile| {
        let mut cargo = cmd::cargo();
        cargo.args(["build", "--target", WASM_TARGET]);
        for krate in &servers {
            cargo.args(["-p", &krate.package]);
        }
        if profile == Profile::Release {
            cargo.arg("--release");
        }
        cargo
    };
    let wasm_dir = target_dir().join(WASM_TARGET).join(profile.dir());
    let mut recorded = HashMap::new();
    if !servers.is_empty() {
        // A release bundle's schemas are made at build time: recorded from the debug build (the schemas are the
        // same, and the two builds are kept apart: two release builds, with and without the feature, would write
        // the same file, and link every server again on every build), embedded by the release build.
        cmd::run(&mut servers_build(Profile::Debug))?;
        if profile == Profile::Release {
            let debug_wasm = target_dir().join(WASM_TARGET).join(Profile::Debug.dir());
            recorded = record_schemas(&servers, &debug_wasm)?;
            let release = || {
                let mut cargo = servers_build(Profile::Release);
                prebuilt_schemas::second_build(&mut cargo, &schemas_dir());
                cargo
            };
            lean_release_build("the servers' bundles", lean_std::Panics::Reported, release)?;
        }
    }
    let host_wasm = match &host {
        Some(host) => Some((
            build_host_wasm(host, HostVariant::Full, profile)?,
            build_host_wasm(host, HostVariant::ClientOnly, profile)?,
        )),
        None => None,
    };

    // Then each package from its wasm, all at once: wasm-opt takes most of a release build's time, on one thread.
    let bundles = target_dir().join("bundles");
    if args.only.is_empty() {
        remove_stale_bundles(&bundles, &servers)?;
    }
    let sdk_js = root().join(SDK_JS);
    let wasm_opt_path = root().join("node_modules/.bin/wasm-opt");
    let esbuild_path = root().join("node_modules/.bin/esbuild");
    let (sdk_js, wasm_opt_path, esbuild_path) = (&sdk_js, &wasm_opt_path, &esbuild_path);
    let mut outputs = Outputs::default();
    let mut jobs: Vec<(u64, parallel::Job<'_>)> = Vec::new();
    for server in &servers {
        let out_dir = bundles.join(&server.dir);
        let wasm = wasm_dir.join(format!("{}.wasm", server.lib));
        outputs.bundles.push(out_dir.clone());
        let recorded = recorded.remove(&server.package);
        let named_copy = named_copy(args, "bundles", &server.dir);
        jobs.push((
            file_len(&wasm),
            Box::new(move || {
                bundle::assemble(&bundle::Assembly {
                    wasm: &wasm,
                    out_dir: &out_dir,
                    sdk_js,
                    wasm_bindgen: Path::new("wasm-bindgen"),
                    wasm_opt: (profile == Profile::Release).then_some(wasm_opt_path.as_path()),
                    esbuild: (profile == Profile::Release).then_some(esbuild_path.as_path()),
                    recorded: recorded.as_ref(),
                    named_copy: named_copy.as_deref(),
                })?;
                Ok(())
            }),
        ));
    }
    if let (Some(host), Some((wasm, client_wasm))) = (&host, host_wasm) {
        let out_dir = target_dir().join("pkg").join(HOST_DIR);
        outputs.host = Some(out_dir.clone());
        let named = named_copy(args, "pkg", HOST_DIR);
        jobs.push((
            file_len(&wasm),
            Box::new(move || {
                host_package(host, &wasm, &out_dir, (profile, named.as_deref()))?;
                // The host's JavaScript companions (the ART adapter, the OAuth popup and its redirect page, their
                // types) ship beside the package they import.
                for companion in files_in(&root().join(HOST_CRATE))? {
                    let name = companion.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                    let redirect_page = name.starts_with("oauth-callback.");
                    if name.ends_with(".mjs") || name.ends_with(".d.mts") || redirect_page {
                        copy_file(&companion, &out_dir.join(&name))?;
                    }
                }
                Ok(())
            }),
        ));
        let out_dir = target_dir().join("pkg").join(format!("{HOST_DIR}-client"));
        outputs.host_client = Some(out_dir.clone());
        let named = named_copy(args, "pkg", &format!("{HOST_DIR}-client"));
        let len = file_len(&client_wasm);
        jobs.push((len, Box::new(move || host_package(host, &client_wasm, &out_dir, (profile, named.as_deref())))));
    }
    // The largest modules first: wasm-opt's time grows with the module.
    jobs.sort_by_key(|(len, _)| std::cmp::Reverse(*len));
    parallel::run_all(jobs.into_iter().map(|(_, job)| job).collect())?;

    println!("outputs:");
    for dir in outputs.bundles.iter().chain(&outputs.host).chain(&outputs.host_client) {
        let mut files = files_in(dir)?;
        files.sort();
        report_sizes(&files)?;
    }
    if profile == Profile::Release {
        // Shown here; `cargo xtask test` fails on a package over its budget.
        let built: Vec<PathBuf> =
            outputs.bundles.iter().chain(&outputs.host).chain(&outputs.host_client).cloned().collect();
        let weighed = budgets::weigh_built(&target_dir(), &built)?;
        budgets::print(&weighed);
        if let Err(over) = budgets::verdict(&weighed) {
            println!("warning: {over}");
        }
    }
    Ok(outputs)
}

/// Where `args` asks for the named copy of the package `name` of `kind` (`bundles` or `pkg`), if it does.
fn named_copy(args: &BuildArgs, kind: &str, name: &str) -> Option<PathBuf> {
    let dir = args.named_copies.as_ref().filter(|_| args.profile == Profile::Release)?;
    Some(dir.join(kind).join(format!("{name}.wasm")))
}

/// Where the release build keeps each server's table of schemas (see [`prebuilt_schemas`]).
fn schemas_dir() -> PathBuf {
    target_dir().join("prebuilt-schemas")
}

/// The schemas (and manifest) of each server's debug build, by package, its table written for the release build.
fn record_schemas(servers: &[WasmCrate], wasm_dir: &Path) -> Result<HashMap<String, prebuilt_schemas::Recorded>> {
    let (dir, recorded) = (schemas_dir(), Mutex::new(HashMap::new()));
    let (dir, recorded_ref) = (&dir, &recorded);
    let jobs: Vec<parallel::Job<'_>> = servers
        .iter()
        .map(|server| -> parallel::Job<'_> {
            Box::new(move || {
                let wasm = wasm_dir.join(format!("{}.wasm", server.lib));
                let scratch = dir.join(format!("{}.glue", server.package));
                let table = prebuilt_schemas::record(Path::new("wasm-bindgen"), &wasm, &scratch, dir, &server.package)?;
                recorded_ref.lock().unwrap_or_else(PoisonError::into_inner).insert(server.package.clone(), table);
                Ok(())
            })
        })
        .collect();
    parallel::run_all(jobs)?;
    Ok(recorded.into_inner().unwrap_or_else(PoisonError::into_inner))
}

/// Which of the host's two packages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum HostVariant {
    /// `pkg/host/`: the crate's default features.
    Full,
    /// `pkg/host-client/`: the same crate without its `runtime` feature (its allocator, `talc`, kept), for pages that
    /// only need `McpClient`.
    ClientOnly,
}

/// The wasm of one of the host's packages. Each variant in a target directory of its own, but for the full host's
/// debug build, which shares the workspace's: both link to the same file name, and in one directory each would make
/// cargo build the other again; and a release build compiles the standard library with flags of its own
/// ([`lean_std`]), which would rebuild every crate it shares with the servers' builds.
fn build_host_wasm(host: &WasmCrate, variant: HostVariant, profile: Profile) -> Result<PathBuf> {
    let target = match (variant, profile) {
        (HostVariant::Full, Profile::Debug) => target_dir(),
        (HostVariant::Full, Profile::Release) => target_dir().join("host-full"),
        (HostVariant::ClientOnly, _) => target_dir().join("host-client"),
    };
    let command = || {
        let mut cargo = cmd::cargo();
        cargo.args(["build", "--target", WASM_TARGET, "-p", &host.package, "--target-dir"]).arg(&target);
        if variant == HostVariant::ClientOnly {
            cargo.args(["--no-default-features", "--features", "talc"]);
        }
        if profile == Profile::Release {
            cargo.arg("--release");
        }
        cargo
    };
    if profile == Profile::Release {
        lean_release_build("the host's wasm", lean_std::Panics::Trap, command)?;
    } else {
        cmd::run(&mut command())?;
    }
    Ok(target.join(WASM_TARGET).join(profile.dir()).join(format!("{}.wasm", host.lib)))
}

/// Runs the release build `command` makes with the standard library compiled for size ([`lean_std`]), its panics
/// keeping what `panics` says; with the prebuilt one, and a warning that says why, when the toolchain has no sources
/// for it or no longer takes its unstable flags (the packages are then heavier than their budgets allow).
fn lean_release_build(what: &str, panics: lean_std::Panics, command: impl Fn() -> Command) -> Result {
    if !lean_std::sources_present() {
        println!(
            "warning: {what}: the toolchain has no rust-src; built with the prebuilt standard library, heavier \
             than the budgets allow (the full host by about 36 KiB of gzip, each server's bundle by 3-12; `rustup \
             component add rust-src`, or `cargo xtask setup`)"
        );
        return cmd::run(&mut command());
    }
    if let Some(error) = lean_std::run_or_fall_back(panics, command)? {
        println!(
            "warning: {what}: the build with the standard library compiled for size failed ({error}); built again \
             with the prebuilt one, heavier than the budgets allow. This toolchain may have renamed an unstable \
             flag of server-build/src/lean_std.rs"
        );
    }
    Ok(())
}

/// The size of a file, 0 if it cannot be read (its job then says why).
fn file_len(path: &Path) -> u64 {
    fs::metadata(path).map_or(0, |m| m.len())
}

/// Removes the bundles of servers that are no longer in the workspace.
fn remove_stale_bundles(bundles: &Path, servers: &[WasmCrate]) -> Result {
    let Ok(entries) = fs::read_dir(bundles) else { return Ok(()) };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if entry.path().is_dir() && !servers.iter().any(|server| server.dir == name) {
            remove_dir(&entry.path())?;
        }
    }
    Ok(())
}

/// The TypeScript library the declarations need beyond a bundler app's default `lib` (ES2022 and the DOM): wasm-bindgen
/// declares `[Symbol.dispose]()` on every class.
const DECLARATIONS_LIB: &str = "/// <reference lib=\"esnext.disposable\" />\n";

/// The line of wasm-bindgen's glue that declares the instance's exports, undefined until `init()`.
const GLUE_EXPORTS: &str = "let wasmModule, wasmInstance, wasm;\n";

/// What the exports are until `init()` replaces them: any use throws an error that says what to do, with a code,
/// instead of "Cannot read properties of undefined".
const GLUE_EXPORTS_BEFORE_INIT: &str = "\
/** Until `init()` has run, any use of the package throws this error, saying what to do. */
const notInitialized = new Proxy({}, {
    get(_, name) {
        if (typeof name === \"symbol\") return undefined;
        const error = new Error(\"mcp-worker is not initialized: `await init()` (the package's default export) \
before using it\");
        error.code = \"NOT_INITIALIZED\";
        throw error;
    },
});
let wasmModule, wasmInstance, wasm = notInitialized;
";

/// How `init()` and `initSync()` tell that they already ran, and the same with the guard in place.
const GLUE_INIT_CHECK: &str = "if (wasm !== undefined) return wasm;";
const GLUE_INIT_CHECK_GUARDED: &str = "if (wasm !== notInitialized) return wasm;";

/// Makes the glue's exports throw `NOT_INITIALIZED` until `init()` has run.
fn guard_before_init(glue: &Path) -> Result {
    let text = fs::read_to_string(glue).map_err(|e| format!("cannot read {}: {e}", display(glue)))?;
    if text.contains(GLUE_EXPORTS_BEFORE_INIT) {
        return Ok(());
    }
    if !text.contains(GLUE_EXPORTS) {
        return Err(format!(
            "{} has no `{}`: this wasm-bindgen writes its glue differently; update GLUE_EXPORTS in xtask/src/build.rs",
            display(glue),
            GLUE_EXPORTS.trim()
        ));
    }
    let checks = text.matches(GLUE_INIT_CHECK).count();
    if checks != 2 {
        return Err(format!(
            "{} has {checks} `{GLUE_INIT_CHECK}` (expected 2, in initSync and init): this wasm-bindgen writes its glue \
             differently; update GLUE_INIT_CHECK in xtask/src/build.rs",
            display(glue)
        ));
    }
    let text =
        text.replacen(GLUE_EXPORTS, GLUE_EXPORTS_BEFORE_INIT, 1).replace(GLUE_INIT_CHECK, GLUE_INIT_CHECK_GUARDED);
    fs::write(glue, text).map_err(|e| format!("cannot write {}: {e}", display(glue)))
}

/// wasm-bindgen's ES module of the host crate in `out_dir`, optimized and its glue minified in release, its
/// declarations self-sufficient;
/// left as it is when it was made from the same wasm in the same way (wasm-opt takes half a minute on it).
/// With `named_copy`, a release build also writes the optimized wasm with its names kept there (`cargo xtask weigh`).
fn host_package(
    host: &WasmCrate,
    wasm: &Path,
    out_dir: &Path,
    (profile, named_copy): (Profile, Option<&Path>),
) -> Result {
    let mut fingerprint = Fingerprint::default();
    let bytes = fs::read(wasm).map_err(|e| format!("cannot read {}: {e}", display(wasm)))?;
    fingerprint.add(&bytes).add(profile.dir().as_bytes()).add(GLUE_EXPORTS_BEFORE_INIT.as_bytes());
    fingerprint.add(bundle::MINIFY.join(" ").as_bytes()).add(b"snippets minified, unimported ones dropped");
    fingerprint.add(import_names::FORM.as_bytes()).add(bundle::OPTIMIZE.join(" ").as_bytes());
    fingerprint
        .add(bundle::OPTIMIZE_FORM.as_bytes())
        .add(export_names::FORM.as_bytes())
        .add(HOST_KEPT_EXPORT.as_bytes());
    let stamp = format!("{}\n", fingerprint.hex());
    let stamp_file = out_dir.join(bundle::STAMP);
    let named_present = named_copy.is_none_or(Path::exists);
    if named_present && fs::read_to_string(&stamp_file).is_ok_and(|recorded| recorded == stamp) {
        println!("unchanged: {}", display(out_dir));
        return Ok(());
    }
    remove_dir(out_dir)?;
    cmd::run(cmd::new("wasm-bindgen").args(["--target", "web", "--out-name", &host.lib]).args([
        "--out-dir".as_ref(),
        out_dir.as_os_str(),
        wasm.as_os_str(),
    ]))?;
    let glue = out_dir.join(format!("{}.js", host.lib));
    let module = out_dir.join(format!("{}_bg.wasm", host.lib));
    if import_names::shorten_files(&module, &glue)?.is_none() {
        return Err(format!(
            "{}: the wasm-bindgen glue is not of the form the import renaming knows (server-build/src/import_names.rs)",
            display(&glue)
        ));
    }
    shorten_host_exports(out_dir, &host.lib)?;
    if profile == Profile::Release {
        let wasm_opt = root().join("node_modules/.bin/wasm-opt");
        if let Some(named) = named_copy {
            bundle::optimize_named(&wasm_opt, &module, named)?;
        }
        bundle::optimize(&wasm_opt, &module)?;
    }
    guard_before_init(&glue)?;
    drop_unimported_snippets(out_dir, &glue)?;
    if profile == Profile::Release {
        // The Rust doc comments wasm-bindgen copies into the glue stay in the declarations (`.d.ts`). The snippets
        // (the JavaScript the crates ship beside their Rust) load with the glue.
        let esbuild = root().join("node_modules/.bin/esbuild");
        bundle::minify(&esbuild, &glue)?;
        let snippets = out_dir.join("snippets");
        for snippet in if snippets.is_dir() { files_under(&snippets, "js")? } else { Vec::new() } {
            bundle::minify(&esbuild, &snippet)?;
        }
    }
    let declarations = out_dir.join(format!("{}.d.ts", host.lib));
    let text = fs::read_to_string(&declarations).map_err(|e| format!("cannot read {}: {e}", display(&declarations)))?;
    if !text.contains(DECLARATIONS_LIB) {
        fs::write(&declarations, format!("{DECLARATIONS_LIB}{text}"))
            .map_err(|e| format!("cannot write {}: {e}", display(&declarations)))?;
    }
    fs::write(&stamp_file, stamp).map_err(|e| format!("cannot write {}: {e}", display(&stamp_file)))
}

/// The one export of a host package that keeps its name: `init()` hands the exports to the page, as `InitOutput`,
/// and the memory is the one a page has a use for (how much the host holds). The others are raw functions of
/// wasm-bindgen's calling convention, which only the glue calls.
const HOST_KEPT_EXPORT: &str = "memory";

/// Gives the host package's exports short names and leaves out those its glue does not use (see
/// [`export_names`]), its memory kept, and names them so in its declarations (`InitOutput`, and the module's own).
fn shorten_host_exports(out_dir: &Path, lib: &str) -> Result {
    let glue = out_dir.join(format!("{lib}.js"));
    let module = out_dir.join(format!("{lib}_bg.wasm"));
    let Some((renamed, dropped)) = export_names::shorten_files(&module, &glue, &[HOST_KEPT_EXPORT])? else {
        return Err(format!(
            "{}: the wasm-bindgen glue is not of the form the export renaming knows (server-build/src/export_names.rs)",
            display(&glue)
        ));
    };
    for declarations in [out_dir.join(format!("{lib}.d.ts")), out_dir.join(format!("{lib}_bg.wasm.d.ts"))] {
        let text =
            fs::read_to_string(&declarations).map_err(|e| format!("cannot read {}: {e}", display(&declarations)))?;
        fs::write(&declarations, export_names::declarations(&text, &renamed, &dropped))
            .map_err(|e| format!("cannot write {}: {e}", display(&declarations)))?;
    }
    Ok(())
}

/// Removes the snippets under `out_dir` that neither the glue nor another snippet imports. wasm-bindgen writes every
/// JavaScript module a linked crate declares, also those whose imports the package's features left unused (the
/// `McpClient`-only package has no remote-server transport, so nothing loads its `js/http.js`): no page would fetch
/// them, and the package need not carry them.
fn drop_unimported_snippets(out_dir: &Path, glue: &Path) -> Result {
    let snippets = out_dir.join("snippets");
    if !snippets.is_dir() {
        return Ok(());
    }
    let read = |path: &Path| fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", display(path)));
    let files = files_under(&snippets, "js")?;
    let texts = files.iter().map(|file| read(file)).collect::<Result<Vec<_>>>()?;
    let glue_text = read(glue)?;
    for (at, file) in files.iter().enumerate() {
        let leaf = file.file_name().map(|leaf| leaf.to_string_lossy().into_owned()).unwrap_or_default();
        // An import names the module by a path that ends in its file name, quoted either way (kept when in doubt).
        let names = |text: &str| text.contains(&format!("/{leaf}\"")) || text.contains(&format!("/{leaf}'"));
        let imported = names(&glue_text) || texts.iter().enumerate().any(|(other, text)| other != at && names(text));
        if !imported {
            fs::remove_file(file).map_err(|e| format!("cannot remove {}: {e}", display(file)))?;
        }
    }
    Ok(())
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

/// The files under `dir` whose extension is `extension`, at any depth.
pub(crate) fn files_under(dir: &Path, extension: &str) -> Result<Vec<PathBuf>> {
    let entries = fs::read_dir(dir).map_err(|e| format!("cannot list {}: {e}", display(dir)))?;
    let mut files = Vec::new();
    for entry in entries {
        let path = entry.map_err(|e| format!("cannot list {}: {e}", display(dir)))?.path();
        if path.is_dir() {
            files.extend(files_under(&path, extension)?);
        } else if path.extension().is_some_and(|ext| ext == extension) {
            files.push(path);
        }
    }
    Ok(files)
}

pub(crate) use mcp_worker_build::bundle::remove_dir;

fn copy_file(from: &Path, to: &Path) -> Result {
    fs::copy(from, to).map(drop).map_err(|e| format!("cannot copy {} to {}: {e}", display(from), display(to)))
}

pub(crate) use mcp_worker_build::bundle::copy_dir;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn build_arguments() {
        let parse = |args: &[&str]| BuildArgs::from_args(&args.iter().map(|a| (*a).to_owned()).collect::<Vec<_>>());
        assert_eq!(parse(&[]), Ok(BuildArgs { profile: Profile::Debug, only: vec![], named_copies: None }));
        assert_eq!(
            parse(&["--release", "-p", "echo", "--package", "host"]),
            Ok(BuildArgs { profile: Profile::Release, only: vec!["echo".into(), "host".into()], named_copies: None })
        );
        assert!(parse(&["--fast"]).is_err());
        assert!(parse(&["-p"]).unwrap_err().contains("needs a server's name"));
    }

    #[test]
    fn a_package_keeps_only_the_snippets_something_imports() {
        let dir = std::env::temp_dir().join(format!("mcp-worker-snippets-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let write = |path: &str, text: &str| {
            let path = dir.join(path);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
        };
        write(
            "glue.js",
            "import { a } from './snippets/client-1/js/frames.js';\nimport * as b from \"./snippets/host-2/inline0.js\";",
        );
        write("snippets/client-1/js/frames.js", "import { c } from './helpers.js'; export const a = c;");
        write("snippets/client-1/js/helpers.js", "export const c = 1;");
        write("snippets/client-1/js/http.js", "export function fetchWith() {}");
        write("snippets/host-2/inline0.js", "export const b = 2;");
        drop_unimported_snippets(&dir, &dir.join("glue.js")).unwrap();
        let mut left: Vec<String> = files_under(&dir.join("snippets"), "js")
            .unwrap()
            .iter()
            .map(|file| file.strip_prefix(&dir).unwrap().to_string_lossy().replace('\\', "/"))
            .collect();
        left.sort();
        assert_eq!(
            left,
            ["snippets/client-1/js/frames.js", "snippets/client-1/js/helpers.js", "snippets/host-2/inline0.js"]
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn gzip_shrinks_repetitive_input() {
        let input = vec![b'a'; 10_000];
        let len = gzip_len(&input).unwrap();
        assert!(len > 18 && len < 200, "{len}");
    }
}
