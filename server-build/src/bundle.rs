//! A server's bundle from the wasm cargo built: the one build path of `cargo xtask` and the `mcp-worker` CLI.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::fingerprint::Fingerprint;
use crate::prebuilt_schemas::{self, Recorded};
use crate::{Result, build_exports, command, export_names, import_names, manifest};

/// The worker script a host starts, in the SDK's `js/` directory.
pub const BOOTSTRAP: &str = "bootstrap.js";
/// The Node entry point of every bundle (`node <bundle>/serve.mjs`: stdio, or Streamable HTTP with `--http`) and the
/// modules it loads for HTTP, in the SDK's `js/` directory.
pub const NODE_ENTRY: &[&str] = &["serve.mjs", "serve-http.mjs", "serve-http-modern.mjs"];
/// Written next to them, so that node loads the glue `server.js` as the ES module it is wherever the bundle lives.
const NODE_PACKAGE_JSON: &str = "{\n  \"type\": \"module\"\n}\n";

/// Wasm features rustc 1.95 enables by default for wasm32-unknown-unknown; wasm-opt must accept all of them.
pub const WASM_OPT_FEATURES: &[&str] = &[
    "--enable-reference-types",
    "--enable-multivalue",
    "--enable-bulk-memory",
    "--enable-bulk-memory-opt",
    "--enable-call-indirect-overlong",
    "--enable-sign-ext",
    "--enable-nontrapping-float-to-int",
    "--enable-mutable-globals",
];

/// What to assemble, and with which tools.
#[derive(Debug)]
pub struct Assembly<'a> {
    /// The `.wasm` cargo wrote for the server crate (`target/wasm32-unknown-unknown/<profile>/<lib>.wasm`).
    pub wasm: &'a Path,
    /// The bundle's directory; emptied first.
    pub out_dir: &'a Path,
    /// The `js/` directory of the `mcp-worker-sdk` the crate is built with (see [`crate::project`]).
    pub sdk_js: &'a Path,
    /// The wasm-bindgen CLI, of the version of the crate's `wasm-bindgen` (see [`crate::tools::wasm_bindgen`]).
    pub wasm_bindgen: &'a Path,
    /// wasm-opt, to optimize for size (`-Os`); `None` leaves the module as wasm-bindgen wrote it.
    pub wasm_opt: Option<&'a Path>,
    /// esbuild, to minify `bootstrap.js` (see [`minify`]); `None` leaves it as written.
    pub esbuild: Option<&'a Path>,
    /// What the first build of a crate built with prebuilt schemas recorded ([`prebuilt_schemas::record`]): the
    /// bundle must make the same manifest and schemas ([`prebuilt_schemas::verify`]).
    pub recorded: Option<&'a Recorded>,
    /// Where to write a copy of the optimized wasm that keeps its functions' names, for [`crate::weigh`] (with
    /// `wasm_opt` only). The bundle itself is the same with or without it.
    pub named_copy: Option<&'a Path>,
}

/// The file in a bundle that records what it was assembled from, so that an unchanged bundle is not assembled again.
pub const STAMP: &str = ".assembled-from";

/// Writes the bundle: `server.js`, `server_bg.wasm`, `bootstrap.js`, the Node entry and `manifest.json`. A bundle
/// already assembled from the same wasm, SDK files and options is left as it is (wasm-opt takes seconds).
///
/// The manifest (and, for a bundle with prebuilt schemas, its schemas, checked against `recorded`) is read from the
/// module as wasm-bindgen wrote it, whose exports then lose what only the build calls ([`build_exports`]).
pub fn assemble(assembly: &Assembly<'_>) -> Result<PathBuf> {
    let out_dir = assembly.out_dir;
    let stamp = stamp_of(assembly)?;
    let named_present = assembly.named_copy.is_none_or(Path::exists);
    if named_present && fs::read_to_string(out_dir.join(STAMP)).is_ok_and(|recorded| recorded == stamp) {
        println!("unchanged: {}", out_dir.display());
        return Ok(out_dir.to_path_buf());
    }
    remove_dir(out_dir)?;
    command::run(
        Command::new(assembly.wasm_bindgen)
            .args(["--target", "web", "--no-typescript", "--out-name", "server", "--out-dir"])
            .arg(out_dir)
            .arg(assembly.wasm),
    )?;
    shorten_import_names(out_dir)?;
    let manifest = manifest::read_manifest(out_dir)?;
    if let Some(recorded) = assembly.recorded {
        prebuilt_schemas::verify(out_dir, &manifest, recorded)?;
    }
    drop_build_exports(out_dir)?;
    shorten_export_names(out_dir)?;
    for file in std::iter::once(&BOOTSTRAP).chain(NODE_ENTRY) {
        let from = assembly.sdk_js.join(file);
        fs::copy(&from, out_dir.join(file)).map_err(|e| {
            format!("cannot copy {}: {e}\n  the worker SDK ships {file} in its js/ directory", from.display())
        })?;
    }
    let one_module = write_worker_entry(out_dir)?;
    if let Some(esbuild) = assembly.esbuild {
        minify(esbuild, &out_dir.join(BOOTSTRAP))?;
    }
    if one_module {
        mark_one_module(&out_dir.join(BOOTSTRAP))?;
    }
    let package = out_dir.join("package.json");
    fs::write(&package, NODE_PACKAGE_JSON).map_err(|e| format!("cannot write {}: {e}", package.display()))?;
    if let Some(wasm_opt) = assembly.wasm_opt {
        let wasm = out_dir.join("server_bg.wasm");
        if let Some(named) = assembly.named_copy {
            optimize_named(wasm_opt, &wasm, named)?;
        }
        optimize(wasm_opt, &wasm)?;
    }
    let manifest_file = out_dir.join(manifest::FILE);
    fs::write(&manifest_file, manifest).map_err(|e| format!("cannot write {}: {e}", manifest_file.display()))?;
    let stamp_file = out_dir.join(STAMP);
    fs::write(&stamp_file, stamp).map_err(|e| format!("cannot write {}: {e}", stamp_file.display()))?;
    Ok(out_dir.to_path_buf())
}

/// Gives what the wasm imports (the glue's functions, and the modules) short names, in the wasm and its glue (see
/// [`import_names`]); leaves them as they are, and says so, when the glue is not of the form it knows.
fn shorten_import_names(out_dir: &Path) -> Result {
    let renamed = import_names::shorten_files(&out_dir.join("server_bg.wasm"), &out_dir.join("server.js"))?;
    if renamed.is_none() {
        println!(
            "note: {}: the wasm-bindgen glue is not of the form the import renaming knows; the imports keep their \
             long names (a few KiB more to download)",
            out_dir.display()
        );
    }
    Ok(())
}

/// Takes out of the glue the functions of the exports only the build calls (see [`build_exports`]; the export
/// renaming then leaves those out of the module); leaves them, and says so, when the glue is not of the form it knows.
fn drop_build_exports(out_dir: &Path) -> Result {
    if !build_exports::drop_files(&out_dir.join("server.js"), &build_exports::BUILD_ONLY)? {
        println!(
            "note: {}: the wasm-bindgen glue is not of the form the build knows; the bundle keeps \
             mcp_worker_manifest() and mcp_worker_schemas() (about 1 KiB more to download)",
            out_dir.display()
        );
    }
    Ok(())
}

/// Gives what the module exports short names, and leaves out what the glue does not use (see [`export_names`]);
/// leaves them as they are, and says so, when the glue is not of the form it knows.
fn shorten_export_names(out_dir: &Path) -> Result {
    if export_names::shorten_files(&out_dir.join("server_bg.wasm"), &out_dir.join("server.js"), &[])?.is_none() {
        println!(
            "note: {}: the wasm-bindgen glue is not of the form the export renaming knows; the exports keep their \
             long names (about 0.5 KiB more to download)",
            out_dir.display()
        );
    }
    Ok(())
}

/// Makes `bootstrap.js` one module with the glue (see [`crate::worker_entry`]); leaves the SDK's two-file form, and
/// says so, when the glue is not of the form it knows. Whether it made one module.
fn write_worker_entry(out_dir: &Path) -> Result<bool> {
    let read = |path: PathBuf| fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.display()));
    let (glue, bootstrap) = (read(out_dir.join("server.js"))?, read(out_dir.join(BOOTSTRAP))?);
    let bootstrap = crate::worker_entry::with_guard(&bootstrap).unwrap_or_else(|| {
        println!(
            "note: {}: the SDK's bootstrap.js has no place for the worker guard; hosts start the bundle through \
             their prelude (a few milliseconds more at each worker start)",
            out_dir.display()
        );
        bootstrap
    });
    let combined = crate::worker_entry::combine(&glue, &bootstrap);
    if combined.is_none() {
        println!(
            "note: {}: the wasm-bindgen glue is not of the form the one-module bootstrap knows; bootstrap.js \
             imports server.js (one more fetch at each worker start)",
            out_dir.display()
        );
    }
    let one_module = combined.is_some();
    let path = out_dir.join(BOOTSTRAP);
    fs::write(&path, combined.unwrap_or(bootstrap)).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(one_module)
}

/// Starts the one-module `bootstrap.js` with the line that says it is one (see
/// [`mcp_worker_protocol::worker_entry`]), once it is minified (which would rewrite the line).
fn mark_one_module(path: &Path) -> Result {
    let entry = fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let marked = crate::worker_entry::mark_one_module(&entry);
    fs::write(path, marked).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// What a bundle is made from: the wasm's bytes, the SDK's files, and whether it is optimized (by which wasm-opt).
fn stamp_of(assembly: &Assembly<'_>) -> Result<String> {
    let wasm = fs::read(assembly.wasm).map_err(|e| {
        format!("cannot read {}: {e} (did cargo build the crate for {}?)", assembly.wasm.display(), crate::WASM_TARGET)
    })?;
    let mut fingerprint = Fingerprint::default();
    fingerprint.add(&wasm);
    for file in std::iter::once(&BOOTSTRAP).chain(NODE_ENTRY) {
        fingerprint.add_file(&assembly.sdk_js.join(file));
    }
    fingerprint.add(assembly.wasm_bindgen.as_os_str().as_encoded_bytes());
    // How the bundle is laid out: a change in it reassembles bundles made the old way.
    fingerprint.add(crate::worker_entry::FORM.as_bytes());
    fingerprint.add(import_names::FORM.as_bytes());
    fingerprint.add(build_exports::FORM.as_bytes()).add(export_names::FORM.as_bytes());
    if let Some(recorded) = assembly.recorded {
        fingerprint.add(recorded.schemas.as_bytes()).add(recorded.manifest.as_bytes());
    }
    fingerprint.add(mcp_worker_protocol::worker_guard::WORKER_GUARD.as_bytes());
    fingerprint.add(mcp_worker_protocol::worker_entry::ONE_MODULE_ENTRY.as_bytes());
    fingerprint.add(assembly.wasm_opt.map(|p| p.as_os_str().as_encoded_bytes()).unwrap_or_default());
    fingerprint.add(assembly.esbuild.map(|p| p.as_os_str().as_encoded_bytes()).unwrap_or_default());
    fingerprint.add(MINIFY.join(" ").as_bytes());
    fingerprint.add(OPTIMIZE.join(" ").as_bytes()).add(OPTIMIZE_FORM.as_bytes());
    Ok(format!("{}\n", fingerprint.hex()))
}

/// How [`optimize`] runs wasm-opt: for size; with the functions in the order of their names (wasm-bindgen keeps the
/// names until here), which puts each module's functions side by side, where gzip finds more of what one repeats of
/// another (the full host 549.1 -> 537.8 KiB of gzip, json-query 556.7 -> 541.6, echo 97.6 -> 97.5); and without the
/// two custom sections no browser reads (the toolchain's name and version, and the features it enabled: 0.2 KiB).
pub const OPTIMIZE: [&str; 4] = ["-Os", "--reorder-functions-by-name", "--strip-producers", "--strip-target-features"];

/// What else [`optimize`] does, for the fingerprints: the lowest kilobyte of memory assumed unused where the module
/// leaves it to the stack ([`crate::low_memory`]).
pub const OPTIMIZE_FORM: &str = "--low-memory-unused where low_memory::unused";

/// wasm-opt on `wasm` (see [`OPTIMIZE`] and [`OPTIMIZE_FORM`]), in place.
pub fn optimize(wasm_opt: &Path, wasm: &Path) -> Result {
    let optimized = wasm.with_extension("opt.wasm");
    optimize_into(wasm_opt, wasm, &optimized, false)?;
    fs::rename(&optimized, wasm).map_err(|e| format!("cannot replace {} with its optimized build: {e}", wasm.display()))
}

/// Writes `named`: `wasm` optimized as [`optimize`] does, with its functions' names kept (wasm-opt's `--debuginfo`),
/// for [`crate::weigh`]. Its code is that of the optimized module within a few hundred bytes (the passes read the
/// same names; the copy keeps what its name section refers to).
pub fn optimize_named(wasm_opt: &Path, wasm: &Path, named: &Path) -> Result {
    if let Some(dir) = named.parent() {
        fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    optimize_into(wasm_opt, wasm, named, true)
}

fn optimize_into(wasm_opt: &Path, wasm: &Path, out: &Path, keep_names: bool) -> Result {
    let bytes = fs::read(wasm).map_err(|e| format!("cannot read {}: {e}", wasm.display()))?;
    let low_memory = crate::low_memory::unused(&bytes).map_err(|e| format!("{}: {e}", wasm.display()))?;
    let mut command = Command::new(wasm_opt);
    command.args(OPTIMIZE).args(low_memory.then_some(crate::low_memory::FLAG)).args(WASM_OPT_FEATURES);
    command::run(command.args(keep_names.then_some("--debuginfo")).arg(wasm).arg("-o").arg(out))
}

/// How [`minify`] shrinks a script: whitespace and syntax only. Names stay as written, so that stack traces,
/// `constructor.name` and the DevTools read as in the source. The echo bundle's `bootstrap.js` went from 6.2 to 4.5
/// KiB of gzip, the full host's glue from 19.2 to 11.1 (renaming identifiers too would save 1.1 KiB more of it).
pub const MINIFY: [&str; 4] = ["--minify-whitespace", "--minify-syntax", "--format=esm", "--log-level=error"];

/// Minifies the ES module `script` in place with esbuild (see [`MINIFY`]).
pub fn minify(esbuild: &Path, script: &Path) -> Result {
    let minified = script.with_extension("min.js");
    command::run(Command::new(esbuild).arg(script).args(MINIFY).arg(format!("--outfile={}", minified.display())))?;
    fs::rename(&minified, script)
        .map_err(|e| format!("cannot replace {} with its minified form: {e}", script.display()))
}

/// Removes a directory and everything in it; a directory that is not there is fine.
pub fn remove_dir(dir: &Path) -> Result {
    match fs::remove_dir_all(dir) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(format!("cannot remove {}: {e}", dir.display())),
    }
}

/// Copies the contents of `from` into `to` (created if missing), recursively.
pub fn copy_dir(from: &Path, to: &Path) -> Result {
    fs::create_dir_all(to).map_err(|e| format!("cannot create {}: {e}", to.display()))?;
    let entries = fs::read_dir(from).map_err(|e| format!("cannot list {}: {e}", from.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("cannot list {}: {e}", from.display()))?;
        let (source, dest) = (entry.path(), to.join(entry.file_name()));
        if source.is_dir() {
            copy_dir(&source, &dest)?;
        } else {
            fs::copy(&source, &dest)
                .map_err(|e| format!("cannot copy {} to {}: {e}", source.display(), dest.display()))?;
        }
    }
    Ok(())
}
