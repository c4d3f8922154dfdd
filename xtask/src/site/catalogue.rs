//! The console's catalogue of servers, `catalogue.json` in the site: the `catalogue.json` of every sample server
//! whose bundle was built, in one document (`{"servers": [...]}`, by id). Each entry says what the server is, what
//! it needs (credentials, network origins) and the config that adds it.

use std::fs;
use std::path::Path;

use serde_json::{Value, json};

use crate::{Result, display, root};

/// The fields every entry must have, and what the console does with them.
const REQUIRED: &[&str] = &["id", "name", "description", "config"];

/// Writes `site/catalogue.json` from the entries of the servers built into `bundles`: a server's own
/// `catalogue.json`, or for a server without one, an entry made from its bundle's manifest, so that every bundle the
/// workspace builds can be added from the console.
pub(crate) fn write(site: &Path, bundles: &Path) -> Result {
    let mut entries = Vec::new();
    let dir = root().join("sample-servers");
    let listing = fs::read_dir(&dir).map_err(|e| format!("cannot list {}: {e}", display(&dir)))?;
    for item in listing {
        let server = item.map_err(|e| format!("cannot list {}: {e}", display(&dir)))?.path();
        let file = server.join("catalogue.json");
        let Some(bundle) = server.file_name().and_then(|name| name.to_str()) else { continue };
        if !bundles.join(bundle).is_dir() {
            continue;
        }
        if file.is_file() {
            entries.push(entry(&file)?);
        } else {
            entries.push(from_manifest(bundle, &bundles.join(bundle).join("manifest.json"))?);
        }
    }
    entries.sort_by(|a, b| a["id"].as_str().cmp(&b["id"].as_str()));
    let out = site.join("catalogue.json");
    let text = serde_json::to_string_pretty(&json!({ "servers": entries })).map_err(|e| e.to_string())?;
    fs::write(&out, text + "\n").map_err(|e| format!("cannot write {}: {e}", display(&out)))?;
    println!("catalogue: {} servers in {}", entries.len(), display(&out));
    Ok(())
}

/// The entry of a bundle whose server has no `catalogue.json`: its name and title from its manifest, what it needs
/// (its declared credentials and network origins), and the config that adds it.
fn from_manifest(bundle: &str, manifest: &Path) -> Result<Value> {
    let text = fs::read_to_string(manifest).map_err(|e| format!("cannot read {}: {e}", display(manifest)))?;
    let manifest: Value = serde_json::from_str(&text).map_err(|e| format!("{} is not JSON: {e}", display(manifest)))?;
    let name = manifest["title"].as_str().or(manifest["name"].as_str()).unwrap_or(bundle);
    let credentials: Vec<&Value> = manifest["credentials"].as_array().map(|c| c.iter().collect()).unwrap_or_default();
    let network: Vec<&Value> = manifest["network"].as_array().map(|n| n.iter().collect()).unwrap_or_default();
    Ok(json!({
        "id": bundle,
        "name": name,
        "description": format!("A server of this workspace (sample-servers/{bundle}). Give it a catalogue.json to describe it here."),
        "tags": ["workspace"],
        "needs": { "credentials": credentials, "network": network },
        "config": { "name": bundle, "workerUrl": format!("./bundles/{bundle}/bootstrap.js") },
    }))
}

/// One entry, checked: a JSON object with the required fields.
fn entry(file: &Path) -> Result<Value> {
    let text = fs::read_to_string(file).map_err(|e| format!("cannot read {}: {e}", display(file)))?;
    let value: Value = serde_json::from_str(&text).map_err(|e| format!("{} is not JSON: {e}", display(file)))?;
    let missing: Vec<&str> = REQUIRED.iter().copied().filter(|key| value.get(key).is_none()).collect();
    if !value.is_object() || !missing.is_empty() {
        return Err(format!(
            "{}: a catalogue entry needs {} (missing: {})",
            display(file),
            REQUIRED.join(", "),
            missing.join(", ")
        ));
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_file(name: &str, text: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("mcp-worker-catalogue-{}-{name}", std::process::id()));
        fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
        let file = dir.join("catalogue.json");
        fs::write(&file, text).unwrap_or_else(|e| panic!("{e}"));
        file
    }

    #[test]
    fn an_entry_needs_its_fields() {
        let good = temp_file("good", r#"{"id":"echo","name":"Echo","description":"d","config":{"name":"echo"}}"#);
        assert_eq!(entry(&good).map(|v| v["id"].clone()), Ok(json!("echo")));
        let missing = temp_file("missing", r#"{"id":"echo","name":"Echo"}"#);
        let error = entry(&missing).err().unwrap_or_default();
        assert!(error.contains("missing: description, config"), "{error}");
        let broken = temp_file("broken", "{");
        assert!(entry(&broken).err().unwrap_or_default().contains("is not JSON"));
    }

    #[test]
    fn a_bundle_without_an_entry_gets_one_from_its_manifest() {
        let file = temp_file(
            "manifest",
            r#"{"name": "weather", "title": "Weather", "credentials": [{"name": "KEY"}], "network": ["https://api.example.com"]}"#,
        );
        let entry = from_manifest("weather", &file).unwrap();
        assert_eq!((entry["id"].as_str(), entry["name"].as_str()), (Some("weather"), Some("Weather")));
        assert_eq!(entry["config"]["workerUrl"], "./bundles/weather/bootstrap.js");
        assert_eq!(entry["needs"], json!({"credentials": [{"name": "KEY"}], "network": ["https://api.example.com"]}));
        assert!(REQUIRED.iter().all(|key| entry.get(key).is_some()));
    }

    /// A server's own entry must be valid; a server without one is listed from its manifest (see above).
    #[test]
    fn every_sample_servers_own_entry_is_valid() {
        let dir = root().join("sample-servers");
        for item in fs::read_dir(&dir).unwrap_or_else(|e| panic!("{e}")) {
            let server = item.unwrap_or_else(|e| panic!("{e}")).path();
            let file = server.join("catalogue.json");
            if server.join("Cargo.toml").is_file() && file.is_file() {
                let value = entry(&file).unwrap_or_else(|e| panic!("{e}"));
                let bundle = server.file_name().and_then(|n| n.to_str()).unwrap_or_default();
                assert_eq!(value["id"], bundle, "{}: the id is the bundle's name", display(&file));
                let worker = format!("./bundles/{bundle}/bootstrap.js");
                assert_eq!(value["config"]["workerUrl"], worker.as_str(), "{}", display(&file));
            }
        }
    }
}
