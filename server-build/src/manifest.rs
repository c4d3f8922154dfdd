//! `manifest.json` next to each server bundle: what a host reads before it starts the server (name, version,
//! title, declared credentials; format in docs/wire-protocol.md).
//!
//! The SDK's `export_server!` exports `mcp_worker_manifest()`, which builds the server with an empty environment
//! and returns its manifest. The build loads the wasm-bindgen glue and wasm in node, calls it and checks the result,
//! which the bundle's assembly writes (and then drops the export: [`crate::build_exports`]).

use std::path::Path;
use std::process::Command;

use serde_json::Value;

use crate::Result;

/// Loads `<bundle>/server.js` and `server_bg.wasm` in node and prints what the export named by the second argument
/// returns (`mcp_worker_manifest`, indented; or `mcp_worker_schemas`, as it is). The glue is an ES module; a copy
/// named `.mjs` loads as one wherever the bundle lives.
const PROBE: &str = r#"
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
const [bundle, exported] = process.argv.slice(1);
const dir = mkdtempSync(join(tmpdir(), "mcp-worker-manifest-"));
try {
  copyFileSync(join(bundle, "server.js"), join(dir, "server.mjs"));
  const glue = await import(pathToFileURL(join(dir, "server.mjs")).href);
  if (typeof glue[exported] !== "function") {
    throw new Error(`server.js exports no ${exported}(): export the server with mcp_worker_sdk::export_server! (of this SDK version)`);
  }
  glue.initSync({ module: readFileSync(join(bundle, "server_bg.wasm")) });
  // Pretty-printed here rather than in the wasm, where a pretty printer would cost every server; by its text, not
  // through JSON.parse, which would change numbers a double cannot hold (2^53 + 1 in a tool's schema).
  const text = glue[exported]();
  process.stdout.write(exported === "mcp_worker_manifest" ? indent(text) : text);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/** Compact JSON text, indented by two spaces per level; strings and numbers are copied as they are. */
function indent(text) {
  let out = "";
  let depth = 0;
  let inString = false;
  const newline = () => "\n" + "  ".repeat(depth);
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      out += c;
      if (c === "\\") out += text[++i];
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (c === "{" || c === "[") {
      const empty = text[i + 1] === (c === "{" ? "}" : "]");
      out += empty ? c + text[++i] : c + (depth++, newline());
    } else if (c === "}" || c === "]") {
      depth--;
      out += newline() + c;
    } else if (c === ",") {
      out += "," + newline();
    } else if (c === ":") {
      out += ": ";
    } else if (c.trim() !== "") {
      out += c;
    }
  }
  return out;
}
"#;

/// The manifest's file in a bundle.
pub const FILE: &str = "manifest.json";

/// The bundle's own `mcp_worker_manifest()`, checked, as the bundle's [`FILE`] holds it.
pub fn read_manifest(bundle: &Path) -> Result<String> {
    let text = run_export(bundle, "mcp_worker_manifest", "the manifest")?;
    check_manifest(&text).map_err(|e| format!("{}: the server's manifest is not valid: {e}", bundle.display()))
}

/// What the export `exported` of the bundle's glue returns, run in node (`what` names it in messages).
pub fn run_export(bundle: &Path, exported: &str, what: &str) -> Result<String> {
    let mut node = Command::new("node");
    node.args(["--input-type=module", "-e", PROBE]).arg(bundle).arg(exported);
    println!("$ node (read {what} of {})", bundle.display());
    let output = node.output().map_err(|e| format!("node could not start: {e} (install Node.js 20 or later)"))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        return Err(format!("reading {what} of {} failed ({}):\n{}", bundle.display(), output.status, stderr.trim()));
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// Checks a manifest against the documented format and returns it as the server wrote it (its members in the
/// documented order), ending in a newline.
pub fn check_manifest(text: &str) -> Result<String> {
    let value: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let object = value.as_object().ok_or("not a JSON object")?;
    let string = |key: &str| object.get(key).and_then(Value::as_str).filter(|s| !s.is_empty());
    string("name").ok_or("`name` must be a non-empty string")?;
    string("version").ok_or("`version` must be a non-empty string")?;
    if object.get("title").is_some_and(|t| !t.is_string()) {
        return Err("`title`, when present, must be a string".into());
    }
    let credentials = object.get("credentials").and_then(Value::as_array).ok_or("`credentials` must be an array")?;
    let mut names = Vec::new();
    for (i, credential) in credentials.iter().enumerate() {
        let name = credential.get("name").and_then(Value::as_str).filter(|n| !n.is_empty());
        let name = name.ok_or_else(|| format!("credentials[{i}].name must be a non-empty string"))?;
        if credential.get("description").and_then(Value::as_str).is_none() {
            return Err(format!("credentials[{i}] ({name}) needs a `description` string"));
        }
        if credential.get("required").and_then(Value::as_bool).is_none() {
            return Err(format!("credentials[{i}] ({name}) needs `required`: true or false"));
        }
        if names.contains(&name) {
            return Err(format!("credential {name} is declared twice"));
        }
        names.push(name);
    }
    Ok(format!("{}\n", text.trim_end()))
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;

    #[test]
    fn valid_manifests_pass_unchanged() {
        let text = r#"{"name":"everything","version":"0.1.0","title":"Everything",
            "credentials":[{"name":"API_KEY","description":"A key","required":false}]}"#;
        assert_eq!(check_manifest(text).unwrap(), format!("{text}\n"));
        assert!(check_manifest(r#"{"name":"echo","version":"1","credentials":[]}"#).is_ok());
    }

    #[test]
    fn invalid_manifests_say_what_is_wrong() {
        let cases = [
            ("[]", "object"),
            (r#"{"version":"1","credentials":[]}"#, "`name`"),
            (r#"{"name":"x","credentials":[]}"#, "`version`"),
            (r#"{"name":"x","version":"1"}"#, "`credentials`"),
            (r#"{"name":"x","version":"1","title":3,"credentials":[]}"#, "`title`"),
            (r#"{"name":"x","version":"1","credentials":[{"description":"d","required":true}]}"#, "name"),
            (r#"{"name":"x","version":"1","credentials":[{"name":"K","required":true}]}"#, "description"),
            (r#"{"name":"x","version":"1","credentials":[{"name":"K","description":"d"}]}"#, "required"),
            (
                r#"{"name":"x","version":"1","credentials":[{"name":"K","description":"d","required":true},
                   {"name":"K","description":"d","required":false}]}"#,
                "twice",
            ),
        ];
        for (text, expected) in cases {
            let err = check_manifest(text).unwrap_err();
            assert!(err.contains(expected), "{text}: {err}");
        }
    }

    /// The probe end to end on a stand-in bundle whose glue exports what wasm-bindgen's does.
    #[test]
    fn the_manifest_is_read_from_the_bundle_in_node() {
        let bundle = std::env::temp_dir().join(format!("mcp-worker-manifest-test-{}", std::process::id()));
        fs::create_dir_all(&bundle).unwrap();
        let glue = r#"let ready = false;
            export function initSync({ module }) { ready = module.length === 4; }
            export function mcp_worker_manifest() {
                if (!ready) throw new Error("initSync was not called with the wasm");
                return '{"name":"stand-in","version":"1.0.0","credentials":[{"name":"TOKEN",' +
                    '"description":"A \\"quoted\\", {token}: [x]","required":true}],"tools":[{"name":"t",' +
                    '"inputSchema":{"type":"object","properties":{},"maximum":9007199254740993,' +
                    '"multipleOf":117.63331139400017}}]}';
            }"#;
        fs::write(bundle.join("server.js"), glue).unwrap();
        fs::write(bundle.join("server_bg.wasm"), b"\0asm").unwrap();
        let written = read_manifest(&bundle);
        let without_export = fs::write(bundle.join("server.js"), "export function initSync() {}")
            .map_err(|e| e.to_string())
            .and_then(|()| read_manifest(&bundle));
        let _ = fs::remove_dir_all(&bundle);
        let written = written.unwrap();
        let manifest: Value = serde_json::from_str(&written).unwrap();
        assert_eq!(manifest["credentials"][0]["name"], "TOKEN");
        assert_eq!(manifest["credentials"][0]["description"], "A \"quoted\", {token}: [x]");
        assert!(written.contains("\n  \"credentials\": [\n    {\n      \"name\": \"TOKEN\","), "{written}");
        assert!(written.contains("\"properties\": {},"), "an empty object stays one: {written}");
        // Numbers as the server wrote them, not as a double reads them.
        assert!(written.contains("9007199254740993") && written.contains("117.63331139400017"), "{written}");
        let err = without_export.unwrap_err();
        assert!(err.contains("export_server!"), "{err}");
    }
}
