//! Release bundles whose schemas are made at build time, so that the worker carries neither schemars nor each
//! argument type's schema code (the SDK's `prebuilt-schemas` feature; `worker-sdk/src/schema_table.rs`):
//!
//! 1. the crate is built as usual, for debug (the schemas are the same, and a build of its own does not make cargo
//!    link the release build again each time), and its wasm run once in node: `mcp_worker_schemas()` returns the
//!    schemas the server makes, by type name ([`record`]), written where the second build reads them;
//! 2. the crate is built for release with [`FEATURE`], and [`DIR_VAR`] naming that directory ([`second_build`]):
//!    its `export_server!` embeds the table;
//! 3. the bundle is assembled from the second build, which is checked as it is ([`verify`]): the same manifest, and
//!    the same schemas, as the first build's.
//!
//! Saves 6-23 KiB of gzip per sample server. An elicitation form's schema is still generated in the worker.

use std::fs;
use std::path::Path;
use std::process::Command;

use crate::{Result, command, manifest};

/// The feature of the SDK that reads the table, as `cargo build --features` takes it from a server crate.
pub const FEATURE: &str = "mcp-worker-sdk/prebuilt-schemas";
/// The variable that names the directory of the tables, `<package>.json` each.
pub const DIR_VAR: &str = "MCP_WORKER_SCHEMAS_DIR";

/// What the first build's wasm says of itself: the table of schemas and the manifest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recorded {
    /// The table, as `mcp_worker_schemas()` returns it.
    pub schemas: String,
    /// The manifest, as `manifest.json` holds it.
    pub manifest: String,
}

/// Runs the first build's `wasm` (of the crate `package`) in node and writes its table to `<dir>/<package>.json`:
/// only when it changed, so that cargo builds the crate again only then. `scratch` is emptied and used for the
/// wasm-bindgen glue.
pub fn record(wasm_bindgen: &Path, wasm: &Path, scratch: &Path, dir: &Path, package: &str) -> Result<Recorded> {
    crate::bundle::remove_dir(scratch)?;
    command::run(
        Command::new(wasm_bindgen)
            .args(["--target", "web", "--no-typescript", "--out-name", "server", "--out-dir"])
            .arg(scratch)
            .arg(wasm),
    )?;
    let recorded = read(scratch)?;
    crate::bundle::remove_dir(scratch)?;
    fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    write_if_changed(&dir.join(format!("{package}.json")), &recorded.schemas)?;
    Ok(recorded)
}

/// Writes `text` to `path` unless it holds it already (cargo builds a crate again when a file it read is newer).
fn write_if_changed(path: &Path, text: &str) -> Result {
    if fs::read_to_string(path).ok().as_deref() != Some(text) {
        fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

/// The table and manifest of the bundle (or wasm-bindgen output) in `dir`.
fn read(dir: &Path) -> Result<Recorded> {
    let schemas = manifest::run_export(dir, "mcp_worker_schemas", "the schemas")?;
    let manifest = manifest::read_manifest(dir)?;
    Ok(Recorded { schemas, manifest })
}

/// Adds to a `cargo build` of server crates what makes it the second build: the feature, and where the tables are.
pub fn second_build(cargo: &mut Command, dir: &Path) {
    cargo.args(["--features", FEATURE]).env(DIR_VAR, dir);
}

/// Checks the second build's module, as wasm-bindgen wrote it into `bundle` (with `manifest`, read from it), against
/// the first build's `recorded` table and manifest: a server that makes other schemas with its embedded table than
/// without it is refused. [`crate::bundle::assemble`] calls it before the module loses the exports it reads.
pub fn verify(bundle: &Path, manifest: &str, recorded: &Recorded) -> Result {
    let schemas = manifest::run_export(bundle, "mcp_worker_schemas", "the schemas")?;
    let embedded = Recorded { schemas, manifest: manifest.to_owned() };
    if embedded.manifest != recorded.manifest {
        return Err(format!(
            "{}: the manifest of the bundle built with prebuilt schemas differs from the one its first build made: \
             build it without them (`{FEATURE}`)",
            bundle.display()
        ));
    }
    if embedded.schemas != recorded.schemas {
        return Err(format!(
            "{}: the bundle built with prebuilt schemas makes other schemas than its first build did: build it \
             without them (`{FEATURE}`)",
            bundle.display()
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stand-in for wasm-bindgen's output of a server built with `export_server!`, named `name`.
    fn stand_in(dir: &Path, name: &str, schemas: &str) {
        fs::create_dir_all(dir).unwrap();
        let glue = format!(
            "export function initSync() {{}}
            export function mcp_worker_manifest() {{ return '{{\"name\":\"{name}\",\"version\":\"1\",\"credentials\":[]}}'; }}
            export function mcp_worker_schemas() {{ return '{schemas}'; }}"
        );
        fs::write(dir.join("server.js"), glue).unwrap();
        fs::write(dir.join("server_bg.wasm"), b"\0asm").unwrap();
    }

    #[test]
    fn a_bundle_is_checked_against_what_its_first_build_recorded() {
        let root = std::env::temp_dir().join(format!("mcp-worker-prebuilt-test-{}", std::process::id()));
        let [first, same, other, renamed] = ["first", "same", "other", "renamed"].map(|dir| root.join(dir));
        stand_in(&first, "s", r#"{"a::Args":{"type":"object"}}"#);
        stand_in(&same, "s", r#"{"a::Args":{"type":"object"}}"#);
        stand_in(&other, "s", r#"{"a::Args":{"type":"string"}}"#);
        stand_in(&renamed, "t", r#"{"a::Args":{"type":"object"}}"#);
        let recorded = read(&first);
        let check = |dir: &Path| {
            let recorded = recorded.as_ref().map_err(Clone::clone)?;
            verify(dir, &manifest::read_manifest(dir)?, recorded)
        };
        let (same, other, renamed) = (check(&same), check(&other), check(&renamed));
        let _ = fs::remove_dir_all(&root);
        let recorded = recorded.unwrap();
        assert_eq!(recorded.schemas, r#"{"a::Args":{"type":"object"}}"#);
        assert!(recorded.manifest.contains("\"name\": \"s\""), "{}", recorded.manifest);
        assert_eq!(same, Ok(()));
        let refused = other.unwrap_err();
        assert!(refused.contains("makes other schemas than its first build did"), "{refused}");
        let refused = renamed.unwrap_err();
        assert!(refused.contains("the manifest of the bundle built with prebuilt schemas differs"), "{refused}");
    }

    #[test]
    fn a_table_is_written_only_when_it_changed() {
        let root = std::env::temp_dir().join(format!("mcp-worker-prebuilt-write-{}", std::process::id()));
        fs::create_dir_all(&root).unwrap();
        let table = root.join("echo.json");
        write_if_changed(&table, "{}").unwrap();
        let written = fs::metadata(&table).unwrap().modified().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(20));
        write_if_changed(&table, "{}").unwrap();
        let kept = fs::metadata(&table).unwrap().modified().unwrap();
        write_if_changed(&table, r#"{"a":{}}"#).unwrap();
        let text = fs::read_to_string(&table).unwrap();
        let _ = fs::remove_dir_all(&root);
        assert_eq!(written, kept, "the same table is not written again");
        assert_eq!(text, r#"{"a":{}}"#);
    }
}
