//! `mcp-worker inspect <bundle>`: what a bundle is and offers, as a host would see it: its manifest, and its tools
//! listed by the server itself, run under Node over stdio (`serve.mjs`).

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use mcp_worker_protocol::Tool;
use mcp_worker_protocol::destructive::why_destructive;
use serde_json::{Value, json};

use crate::Result;
use crate::args::Parsed;

/// How long the server may take to answer.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(20);

pub(crate) fn run(args: &Parsed) -> Result {
    let bundle = Path::new(args.single("the bundle's directory (`mcp-worker inspect bundle`)")?);
    let manifest_path = bundle.join("manifest.json");
    let manifest = std::fs::read_to_string(&manifest_path)
        .map_err(|e| format!("cannot read {}: {e} (is {} a bundle?)", manifest_path.display(), bundle.display()))?;
    let manifest: Value =
        serde_json::from_str(&manifest).map_err(|e| format!("{} is not JSON: {e}", manifest_path.display()))?;
    println!("manifest ({}):", manifest_path.display());
    println!("{}", serde_json::to_string_pretty(&manifest).unwrap_or_default());
    let tools = list_tools(bundle)?;
    println!("\ntools ({}):", tools.len());
    for tool in &tools {
        println!("  {}", describe(tool));
    }
    Ok(())
}

/// One line for a tool: its name, how agents will treat it (by the host's own rule), and its description.
fn describe(tool: &Value) -> String {
    let name = tool["name"].as_str().unwrap_or("?");
    let kind = match serde_json::from_value::<Tool>(tool.clone()) {
        Err(e) => format!("not a tool the host can read: {e}"),
        Ok(read) => match why_destructive(&read) {
            Some(why) => format!("hidden from agents unless the server's config allows destructive tools: {why}"),
            None if tool["annotations"]["readOnlyHint"] == true => "read-only".to_owned(),
            None => "not destructive".to_owned(),
        },
    };
    let description = tool["description"].as_str().unwrap_or("").lines().next().unwrap_or("");
    format!("{name} ({kind}): {description}")
}

/// Starts the bundle under Node on stdio, and lists its tools (every page).
fn list_tools(bundle: &Path) -> Result<Vec<Value>> {
    let serve = bundle.join("serve.mjs");
    let mut child = Command::new("node")
        .arg(&serve)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("node could not start {}: {e} (install Node.js 20 or later)", serve.display()))?;
    let (Some(mut stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        return Err("node's stdio is not available".into());
    };
    let (lines, answers) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    let mut next_id = 0;
    let mut request = |method: &str, params: Value| -> Result<Value> {
        next_id += 1;
        let frame = json!({"jsonrpc": "2.0", "id": next_id, "method": method, "params": params});
        writeln!(stdin, "{frame}").map_err(|e| format!("cannot write to the server: {e}"))?;
        loop {
            let line = answers
                .recv_timeout(ANSWER_TIMEOUT)
                .map_err(|_| format!("the server did not answer {method} within {}s", ANSWER_TIMEOUT.as_secs()))?;
            let Ok(message) = serde_json::from_str::<Value>(&line) else { continue };
            if message["id"] != next_id {
                continue;
            }
            if let Some(error) = message.get("error") {
                return Err(format!("the server refused {method}: {error}"));
            }
            if method == "initialize" {
                let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
                writeln!(stdin, "{initialized}").map_err(|e| format!("cannot write to the server: {e}"))?;
            }
            return Ok(message["result"].clone());
        }
    };
    let listed = (|| {
        let client = json!({"name": "mcp-worker inspect", "version": env!("CARGO_PKG_VERSION")});
        request("initialize", json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": client}))?;
        let mut tools = Vec::new();
        let mut cursor = Value::Null;
        loop {
            let params = if cursor.is_null() { json!({}) } else { json!({ "cursor": cursor }) };
            let page = request("tools/list", params)?;
            tools.extend(page["tools"].as_array().cloned().unwrap_or_default());
            cursor = page["nextCursor"].clone();
            if cursor.is_null() {
                return Ok(tools);
            }
        }
    })();
    let _ = child.kill();
    let _ = child.wait();
    listed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tool_line_says_how_agents_treat_it_by_the_hosts_rule() {
        let schema = json!({"type": "object"});
        let read_only = json!({"name": "greet", "description": "Greets\nmore", "inputSchema": schema,
            "annotations": {"readOnlyHint": true}});
        assert_eq!(describe(&read_only), "greet (read-only): Greets");
        let safe = json!({"name": "update", "inputSchema": schema, "annotations": {"destructiveHint": false}});
        assert_eq!(describe(&safe), "update (not destructive): ");
        let unannotated = json!({"name": "search", "inputSchema": schema});
        assert!(
            describe(&unannotated).contains("hidden from agents") && describe(&unannotated).contains("no annotations")
        );
        // A destructive verb in the name hides a tool whatever its hints say, as the host does.
        let verb = json!({"name": "delete_file", "inputSchema": schema, "annotations": {"readOnlyHint": true}});
        assert!(describe(&verb).contains("destructive verb \"delete\""), "{}", describe(&verb));
        assert!(describe(&json!({"name": "x"})).contains("not a tool the host can read"));
    }
}
