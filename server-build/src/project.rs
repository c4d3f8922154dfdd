//! What a build needs to know of a server crate, from `cargo metadata`: its library name, cargo's target
//! directory, where the `mcp-worker-sdk` it depends on keeps its JavaScript, and the `wasm-bindgen` version its lock
//! resolved.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::{Result, command};

/// The SDK crate a server depends on.
pub const SDK_PACKAGE: &str = "mcp-worker-sdk";

/// A server crate as cargo resolved it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Project {
    /// The package name (`greeter`).
    pub package: String,
    /// The library target's name: the stem of the `.wasm` cargo writes (`greeter`).
    pub lib: String,
    /// The directory of the crate's `Cargo.toml`.
    pub dir: PathBuf,
    /// Cargo's target directory.
    pub target_dir: PathBuf,
    /// The `js/` directory of the `mcp-worker-sdk` in the crate's dependency graph.
    pub sdk_js: PathBuf,
    /// The resolved version of `wasm-bindgen`.
    pub wasm_bindgen: String,
}

impl Project {
    /// Reads the crate of `manifest_path` with `cargo metadata` (which resolves, and writes a `Cargo.lock` if
    /// there is none).
    pub fn load(manifest_path: &Path) -> Result<Self> {
        let mut cargo = command::cargo();
        cargo.args(["metadata", "--format-version", "1", "--manifest-path"]).arg(manifest_path);
        let output = cargo.output().map_err(|e| format!("cargo could not start: {e}"))?;
        if !output.status.success() {
            return Err(format!(
                "`cargo metadata` failed for {}:\n{}",
                manifest_path.display(),
                String::from_utf8_lossy(&output.stderr).trim()
            ));
        }
        let metadata: Value =
            serde_json::from_slice(&output.stdout).map_err(|e| format!("cargo metadata printed no JSON: {e}"))?;
        Self::from_metadata(&metadata, manifest_path)
    }

    /// The project of `manifest_path` in `cargo metadata` output.
    pub fn from_metadata(metadata: &Value, manifest_path: &Path) -> Result<Self> {
        let packages = metadata["packages"].as_array().ok_or("cargo metadata lists no packages")?;
        let wanted = manifest_path.canonicalize().unwrap_or_else(|_| manifest_path.to_path_buf());
        let package = packages
            .iter()
            .find(|p| p["manifest_path"].as_str().is_some_and(|m| Path::new(m) == wanted))
            .ok_or_else(|| format!("{} is not a package (a virtual workspace manifest?)", manifest_path.display()))?;
        let name = package["name"].as_str().unwrap_or_default().to_owned();
        let lib = package["targets"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|t| t["crate_types"].as_array().is_some_and(|kinds| kinds.iter().any(|k| k == "cdylib")))
            .and_then(|t| t["name"].as_str())
            .ok_or_else(|| {
                format!(
                    "{name} has no cdylib library: add `[lib] crate-type = [\"cdylib\", \"rlib\"]` to its Cargo.toml"
                )
            })?
            .replace('-', "_");
        let find = |wanted: &str| packages.iter().find(|p| p["name"] == wanted);
        let sdk = find(SDK_PACKAGE).ok_or_else(|| format!("{name} does not depend on {SDK_PACKAGE}"))?;
        let sdk_js = Path::new(sdk["manifest_path"].as_str().unwrap_or_default()).with_file_name("js");
        let wasm_bindgen = find("wasm-bindgen")
            .and_then(|p| p["version"].as_str())
            .ok_or_else(|| format!("{name}'s dependencies resolve no wasm-bindgen"))?
            .to_owned();
        Ok(Self {
            package: name,
            lib,
            dir: wanted.parent().map(Path::to_path_buf).unwrap_or_default(),
            target_dir: PathBuf::from(metadata["target_directory"].as_str().unwrap_or("target")),
            sdk_js,
            wasm_bindgen,
        })
    }

    /// The `.wasm` cargo writes for this crate in `profile` (`debug` or `release`).
    pub fn wasm(&self, profile: &str) -> PathBuf {
        self.target_dir.join(crate::WASM_TARGET).join(profile).join(format!("{}.wasm", self.lib))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn metadata(lib_kinds: &[&str]) -> Value {
        json!({
            "target_directory": "/w/target",
            "packages": [
                {"name": "greeter", "version": "0.1.0", "manifest_path": "/w/greeter/Cargo.toml",
                 "targets": [{"name": "greeter", "crate_types": lib_kinds}]},
                {"name": "mcp-worker-sdk", "version": "0.1.0", "manifest_path": "/sdk/worker-sdk/Cargo.toml",
                 "targets": []},
                {"name": "wasm-bindgen", "version": "0.2.130", "manifest_path": "/r/wasm-bindgen/Cargo.toml",
                 "targets": []}
            ]
        })
    }

    #[test]
    fn a_server_crate_is_read_from_metadata() {
        let project = Project::from_metadata(&metadata(&["cdylib", "rlib"]), Path::new("/w/greeter/Cargo.toml"));
        let project = project.unwrap();
        assert_eq!(project.lib, "greeter");
        assert_eq!(project.sdk_js, Path::new("/sdk/worker-sdk/js"));
        assert_eq!(project.wasm_bindgen, "0.2.130");
        assert_eq!(project.wasm("release"), Path::new("/w/target/wasm32-unknown-unknown/release/greeter.wasm"));
    }

    #[test]
    fn a_crate_without_a_cdylib_is_told_how_to_fix_it() {
        let err = Project::from_metadata(&metadata(&["rlib"]), Path::new("/w/greeter/Cargo.toml")).unwrap_err();
        assert!(err.contains("crate-type"), "{err}");
    }

    #[test]
    fn this_crate_is_not_a_server() {
        let err = Project::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml")).unwrap_err();
        assert!(err.contains("cdylib"), "{err}");
    }
}
