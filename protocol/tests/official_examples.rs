//! The official examples read into our types and write back unchanged.
//!
//! The examples (`tests/schema/examples/<Definition>/*.json`) come from the MCP specification repository's
//! `schema/2026-07-28/examples/`; 2025-11-25 ships none. Only examples of shapes we model and that are also valid
//! against the 2025-11-25 schema were vendored. Left out, because 2025-11-25 rejects them or they only show
//! 2026-07-28 additions: `Tool/tool-with-array-output-schema.json` (2025-11-25 requires `outputSchema.type: object`),
//! `CallToolResult/result-with-array-structured-content.json` (2025-11-25 requires an object `structuredContent`),
//! `ClientCapabilities/extensions-ui-mime-types.json` and `ServerCapabilities/extensions-tasks.json` (`extensions`
//! is new in 2026-07-28). Each test still checks first that every example is valid against 2025-11-25.

#![allow(clippy::disallowed_methods, reason = "tests read JSON with serde_json itself")]

#[path = "support/schema.rs"]
mod schema;

use mcp_worker_protocol::notifications::{CancelledParams, ProgressParams};
use mcp_worker_protocol::{
    CallToolParams, CallToolResult, ClientCapabilities, ContentBlock, ErrorObject, ListToolsResult, Message,
    PaginatedParams, Resource, ResourceContents, ServerCapabilities, Tool,
};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Reads a value into our type and writes it back.
type RoundTrip = fn(&Value) -> Result<Value, String>;

fn via<T: DeserializeOwned + Serialize>(value: &Value) -> Result<Value, String> {
    let ours: T = serde_json::from_value(value.clone()).map_err(|e| e.to_string())?;
    serde_json::to_value(&ours).map_err(|e| e.to_string())
}

/// A content block of a kind we know: it must not fall back to [`ContentBlock::Other`].
fn block(value: &Value) -> Result<Value, String> {
    match serde_json::from_value(value.clone()).map_err(|e| e.to_string())? {
        ContentBlock::Other(_) => Err("read as an unknown content block".into()),
        known => serde_json::to_value(&known).map_err(|e| e.to_string()),
    }
}

/// Members of 2026-07-28 results that 2025-11-25 does not define: 2025-11-25 allows them (a `Result` is open), we
/// ignore them on reading, so they do not come back.
const NEWER_RESULT_MEMBERS: &[&str] = &["resultType", "ttlMs", "cacheScope"];

struct Case {
    /// The example folder.
    folder: &'static str,
    /// The 2025-11-25 definition each example must satisfy.
    def: &'static str,
    /// Our type.
    round_trip: RoundTrip,
    /// Top-level members we do not model, so that they are expected to be dropped.
    not_modelled: &'static [&'static str],
}

const fn case(folder: &'static str, def: &'static str, round_trip: RoundTrip) -> Case {
    Case { folder, def, round_trip, not_modelled: &[] }
}

/// Examples of payloads: params, results, content, capabilities, error objects.
const PAYLOADS: &[Case] = &[
    case("TextContent", "TextContent", block),
    case("ImageContent", "ImageContent", block),
    case("AudioContent", "AudioContent", block),
    case("ResourceLink", "ResourceLink", block),
    case("EmbeddedResource", "EmbeddedResource", block),
    case("TextResourceContents", "TextResourceContents", via::<ResourceContents>),
    case("BlobResourceContents", "BlobResourceContents", via::<ResourceContents>),
    case("Resource", "Resource", via::<Resource>),
    case("Tool", "Tool", via::<Tool>),
    Case { not_modelled: NEWER_RESULT_MEMBERS, ..case("CallToolResult", "CallToolResult", via::<CallToolResult>) },
    Case { not_modelled: NEWER_RESULT_MEMBERS, ..case("ListToolsResult", "ListToolsResult", via::<ListToolsResult>) },
    case("CallToolRequestParams", "CallToolRequestParams", via::<CallToolParams>),
    case("CancelledNotificationParams", "CancelledNotificationParams", via::<CancelledParams>),
    case("ProgressNotificationParams", "ProgressNotificationParams", via::<ProgressParams>),
    case("ClientCapabilities", "ClientCapabilities", via::<ClientCapabilities>),
    case("ServerCapabilities", "ServerCapabilities", via::<ServerCapabilities>),
    // The named errors are 2026-07-28 definitions; in 2025-11-25 they are all an `Error`.
    case("ParseError", "Error", via::<ErrorObject>),
    case("InvalidParamsError", "Error", via::<ErrorObject>),
    case("MethodNotFoundError", "Error", via::<ErrorObject>),
    case("InternalError", "Error", via::<ErrorObject>),
];

/// Examples of whole frames: `round_trip` applies to their `params` or `result`.
const FRAMES: &[Case] = &[
    case("CallToolRequest", "CallToolRequest", via::<CallToolParams>),
    // PaginatedParams has no `_meta`: the example's request metadata is dropped.
    Case { not_modelled: &["_meta"], ..case("ListToolsRequest", "ListToolsRequest", via::<PaginatedParams>) },
    case("CancelledNotification", "CancelledNotification", via::<CancelledParams>),
    case("ProgressNotification", "ProgressNotification", via::<ProgressParams>),
    // 2025-11-25 has no per-method response definitions.
    Case {
        not_modelled: NEWER_RESULT_MEMBERS,
        ..case("CallToolResultResponse", "JSONRPCResultResponse", via::<CallToolResult>)
    },
    Case {
        not_modelled: NEWER_RESULT_MEMBERS,
        ..case("ListToolsResultResponse", "JSONRPCResultResponse", via::<ListToolsResult>)
    },
];

fn examples_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schema/examples")
}

/// The entries of a directory, sorted.
fn entries(dir: &Path) -> Vec<PathBuf> {
    let read = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let mut paths: Vec<PathBuf> =
        read.map(|entry| entry.map(|e| e.path())).collect::<Result<_, _>>().unwrap_or_else(|e| panic!("{e}"));
    paths.sort();
    paths
}

fn file_name(path: &Path) -> String {
    path.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default()
}

/// Every example of a folder, as (name, text, JSON).
fn examples(folder: &str) -> Vec<(String, String, Value)> {
    let files = entries(&examples_dir().join(folder));
    assert!(!files.is_empty(), "no examples in {folder}");
    files
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            (format!("{folder}/{}", file_name(&path)), text, value)
        })
        .collect()
}

/// JSON with every number as a float, so that `50` and the `50.0` an `f64` field writes back compare equal.
fn numbers_as_floats(value: Value) -> Value {
    match value {
        Value::Number(n) => n.as_f64().and_then(serde_json::Number::from_f64).map_or(Value::Number(n), Value::Number),
        Value::Array(items) => Value::Array(items.into_iter().map(numbers_as_floats).collect()),
        Value::Object(map) => Value::Object(map.into_iter().map(|(k, v)| (k, numbers_as_floats(v))).collect()),
        other => other,
    }
}

#[track_caller]
fn assert_round_trips(name: &str, case: &Case, payload: &Value) {
    let written = (case.round_trip)(payload).unwrap_or_else(|e| panic!("{name} does not read into our type: {e}"));
    let mut expected = payload.clone();
    if let Value::Object(members) = &mut expected {
        members.retain(|key, _| !case.not_modelled.contains(&key.as_str()));
    }
    assert_eq!(numbers_as_floats(written), numbers_as_floats(expected), "{name} does not write back unchanged");
}

#[test]
fn official_payload_examples_read_into_our_types_and_write_back_unchanged() {
    for case in PAYLOADS {
        for (name, _, example) in examples(case.folder) {
            schema::assert_valid(case.def, &example);
            assert_round_trips(&name, case, &example);
        }
    }
}

#[test]
fn official_frame_examples_parse_and_their_payloads_round_trip() {
    for case in FRAMES {
        for (name, text, example) in examples(case.folder) {
            schema::assert_valid(case.def, &example);
            schema::assert_valid("JSONRPCMessage", &example);
            let payload = match Message::parse(&text) {
                Ok(Message::Request(r)) => r.params,
                Ok(Message::Notification(n)) => n.params,
                Ok(Message::Response(r)) => r.outcome.ok(),
                Ok(other) => panic!("{name} parsed as {other:?}"),
                Err(e) => panic!("{name} does not parse: {e}"),
            };
            let payload = payload.unwrap_or_else(|| panic!("{name} lost its params or result"));
            assert_round_trips(&name, case, &serde_json::from_str(payload.get()).unwrap());
        }
    }
}

#[test]
fn every_vendored_example_is_checked() {
    let mut checked: Vec<&str> = PAYLOADS.iter().chain(FRAMES).map(|c| c.folder).collect();
    checked.sort_unstable();
    let vendored: Vec<String> = entries(&examples_dir()).iter().map(|path| file_name(path)).collect();
    assert_eq!(vendored, checked);
}
