//! `cargo xtask package`: the host as an npm package (`target/npm/mcp-worker-<version>.tgz`).
//!
//! The package holds the release builds of `target/pkg/host/` (the full runtime, at the package root) and
//! `target/pkg/host-client/` (under `client/`), the JavaScript companions (ART adapter, OAuth popup and its redirect
//! page) and a `package.json` whose `exports` name each entry with its TypeScript declarations. Every file the code
//! loads at run time is found relative to `import.meta.url` (the wasm, the redirect page), which Vite and webpack 5
//! follow; for bundlers that do not (esbuild), the wasm files are exports of their own (`mcp-worker/wasm`).

use std::fs;
use std::path::{Path, PathBuf};

use crate::build::{self, Profile};
use crate::{Result, cmd, display, root, target_dir};

/// The package's name on npm.
pub(crate) const PACKAGE_NAME: &str = "mcp-worker";
/// The app developer's guide, shipped as the package's README.
const GUIDE: &str = "host/js/npm/README.md";
/// The texts of the licenses the package declares, shipped in it.
const LICENSES: &[&str] = &["LICENSE-MIT", "LICENSE-APACHE"];
/// The declaration of a `*/wasm` export: a bundler's file loader turns the import into the file's URL.
const WASM_URL_TYPES: &str = "/** The URL of the package's WebAssembly module, for `init({ module_or_path })` \
                              under a bundler that does not follow `new URL(…, import.meta.url)`. */\n\
                              declare const url: string;\nexport default url;\n";

/// `cargo xtask package`: builds the host in release mode and packs it; returns the tarball's path.
pub(crate) fn package() -> Result<PathBuf> {
    let outputs = build::build(Profile::Release)?;
    let (Some(host), Some(client)) = (outputs.host, outputs.host_client) else {
        return Err("the host crate was not built: nothing to package".into());
    };
    pack(&host, &client)
}

/// Packs the release builds already in `host` (`target/pkg/host/`) and `client` (`target/pkg/host-client/`).
pub(crate) fn pack(host: &Path, client: &Path) -> Result<PathBuf> {
    let out = target_dir().join("npm");
    let dir = out.join(PACKAGE_NAME);
    if dir.exists() {
        fs::remove_dir_all(&dir).map_err(|e| format!("cannot empty {}: {e}", display(&dir)))?;
    }
    build::copy_dir(host, &dir)?;
    build::copy_dir(client, &dir.join("client"))?;
    for wasm_dir in [&dir, &dir.join("client")] {
        write(&wasm_dir.join("wasm.d.ts"), WASM_URL_TYPES)?;
    }
    let guide = root().join(GUIDE);
    fs::copy(&guide, dir.join("README.md")).map_err(|e| format!("cannot copy {}: {e}", display(&guide)))?;
    for license in LICENSES {
        let text = root().join(license);
        fs::copy(&text, dir.join(license)).map_err(|e| format!("cannot copy {}: {e}", display(&text)))?;
    }
    write(&dir.join("package.json"), &package_json(&workspace_version()?))?;

    let mut pack = cmd::new("npm");
    pack.args(["pack", "--silent", "--pack-destination"]).arg(&out).current_dir(&dir);
    let name = cmd::probe(&mut pack)
        .and_then(|printed| printed.lines().last().map(str::to_owned))
        .ok_or_else(|| format!("`npm pack` failed in {}", display(&dir)))?;
    let tarball = out.join(name);
    let bytes = fs::metadata(&tarball).map(|m| m.len()).unwrap_or(0);
    println!("npm package: {} ({:.1} KiB)", display(&tarball), bytes as f64 / 1024.0);
    Ok(tarball)
}

fn package_json(version: &str) -> String {
    let entry = |types: &str, js: &str| serde_json::json!({ "types": types, "default": js });
    let manifest = serde_json::json!({
        "name": PACKAGE_NAME,
        "version": version,
        "description": "Run MCP servers compiled to WebAssembly in Web Workers, and remote MCP servers, from the page: \
                        one tool registry for browser AI agents",
        "keywords": ["mcp", "model-context-protocol", "webassembly", "web-worker", "ai-agent", "tools"],
        "license": "MIT OR Apache-2.0",
        "type": "module",
        "sideEffects": false,
        // What the package ships: code, declarations, wasm, the redirect page, the licenses (build stamps stay out).
        "files": ["**/*.js", "**/*.mjs", "**/*.d.ts", "**/*.d.mts", "**/*.wasm", "oauth-callback.html", "LICENSE-*"],
        "main": "./mcp_worker_host.js",
        "types": "./mcp_worker_host.d.ts",
        "exports": {
            ".": entry("./mcp_worker_host.d.ts", "./mcp_worker_host.js"),
            "./wasm": entry("./wasm.d.ts", "./mcp_worker_host_bg.wasm"),
            "./client": entry("./client/mcp_worker_host.d.ts", "./client/mcp_worker_host.js"),
            "./client/wasm": entry("./client/wasm.d.ts", "./client/mcp_worker_host_bg.wasm"),
            "./art": entry("./art-adapter.d.mts", "./art-adapter.mjs"),
            "./oauth-popup": entry("./oauth-popup.d.mts", "./oauth-popup.mjs"),
            "./oauth-callback.html": "./oauth-callback.html",
            "./package.json": "./package.json",
        },
    });
    format!("{}\n", serde_json::to_string_pretty(&manifest).unwrap_or_default())
}

fn workspace_version() -> Result<String> {
    let manifest_path = root().join("Cargo.toml");
    let manifest =
        fs::read_to_string(&manifest_path).map_err(|e| format!("cannot read {}: {e}", display(&manifest_path)))?;
    build::toml_string(&manifest, "workspace.package", "version")
        .ok_or_else(|| format!("{} has no [workspace.package] version", display(&manifest_path)))
}

fn write(path: &Path, text: &str) -> Result {
    fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", display(path)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_export_names_a_file_the_package_ships() {
        let manifest: serde_json::Value = serde_json::from_str(&package_json("1.2.3")).unwrap();
        assert_eq!(manifest["version"], "1.2.3");
        let shipped = [
            "./mcp_worker_host.js",
            "./mcp_worker_host.d.ts",
            "./mcp_worker_host_bg.wasm",
            "./wasm.d.ts",
            "./client/mcp_worker_host.js",
            "./client/mcp_worker_host.d.ts",
            "./client/mcp_worker_host_bg.wasm",
            "./client/wasm.d.ts",
            "./art-adapter.mjs",
            "./art-adapter.d.mts",
            "./oauth-popup.mjs",
            "./oauth-popup.d.mts",
            "./oauth-callback.html",
            "./package.json",
        ];
        for (name, target) in manifest["exports"].as_object().unwrap() {
            let files: Vec<&str> = match target {
                serde_json::Value::String(file) => vec![file],
                other => other.as_object().unwrap().values().map(|v| v.as_str().unwrap()).collect(),
            };
            for file in files {
                assert!(shipped.contains(&file), "export {name} names {file}, which the package does not ship");
            }
        }
    }

    #[test]
    fn the_workspace_has_a_version_and_a_guide() {
        assert!(!workspace_version().unwrap().is_empty());
        assert!(root().join(GUIDE).is_file());
    }
}
