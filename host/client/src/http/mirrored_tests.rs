use super::*;
use serde_json::json;

#[test]
fn a_modern_call_mirrors_version_method_and_name() {
    let frame = r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"Oslo"},
        "_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#;
    let peek = ModernPeek::of(frame);
    assert_eq!(
        peek.headers(true),
        [
            ("MCP-Protocol-Version".to_owned(), "2026-07-28".to_owned()),
            ("Mcp-Method".to_owned(), "tools/call".to_owned()),
            ("Mcp-Name".to_owned(), "get_weather".to_owned()),
        ]
    );
    let read = ModernPeek::of(
        r#"{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"file:///a b.txt","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#,
    );
    assert_eq!(read.headers(true)[2], ("Mcp-Name".to_owned(), "file:///a b.txt".to_owned()));
    let list = ModernPeek::of(
        r#"{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#,
    );
    assert_eq!(list.headers(true).len(), 2, "no name for a list");
}

#[test]
fn a_frame_of_the_handshake_era_mirrors_nothing() {
    let frame = r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_weather"}}"#;
    assert!(ModernPeek::of(frame).headers(true).is_empty());
    assert!(ModernPeek::of("not json").headers(true).is_empty());
}

#[test]
fn values_that_are_not_plain_ascii_go_as_base64() {
    assert_eq!(header_value("us-west1"), "us-west1");
    assert_eq!(header_value("São Paulo"), "=?base64?U8OjbyBQYXVsbw==?=");
    assert_eq!(header_value(" padded"), "=?base64?IHBhZGRlZA==?=");
    assert_eq!(header_value("line\nbreak"), "=?base64?bGluZQpicmVhaw==?=");
    assert_eq!(header_value("=?base64?SGk=?="), "=?base64?PT9iYXNlNjQ/U0drPT89?=", "a literal that looks encoded");
}

#[test]
fn annotated_arguments_are_found_and_mirrored() {
    let schema = json!({"type": "object", "properties": {
        "region": {"type": "string", "x-mcp-header": "Region"},
        "target": {"type": "object", "properties": {"id": {"type": "integer", "x-mcp-header": "Target-Id"}}},
        "dry": {"type": "boolean", "x-mcp-header": "Dry-Run"},
        "note": {"type": "string"}
    }});
    let params = header_params(&schema).unwrap();
    assert_eq!(params.len(), 3);
    let headers = param_headers(&params, &json!({"region": "São Paulo", "target": {"id": 42}, "dry": false}));
    assert!(headers.contains(&("Mcp-Param-Region".to_owned(), "=?base64?U8OjbyBQYXVsbw==?=".to_owned())));
    assert!(headers.contains(&("Mcp-Param-Target-Id".to_owned(), "42".to_owned())));
    assert!(headers.contains(&("Mcp-Param-Dry-Run".to_owned(), "false".to_owned())));
    assert!(param_headers(&params, &json!({"region": null})).is_empty(), "absent or null: no header");
}

#[test]
fn a_tool_whose_annotations_break_the_rules_is_invalid() {
    let bad = [
        json!({"type": "object", "properties": {"a": {"type": "string", "x-mcp-header": ""}}}),
        json!({"type": "object", "properties": {"a": {"type": "string", "x-mcp-header": "Bad Name"}}}),
        json!({"type": "object", "properties": {"a": {"type": "number", "x-mcp-header": "A"}}}),
        json!({"type": "object", "properties": {"a": {"type": "string", "x-mcp-header": "A"}, "b": {"type": "string", "x-mcp-header": "a"}}}),
        json!({"type": "object", "properties": {"a": {"type": "array", "items": {"type": "string", "x-mcp-header": "A"}}}}),
        json!({"type": "object", "anyOf": [{"properties": {"a": {"type": "string", "x-mcp-header": "A"}}}]}),
        json!({"type": "object", "$defs": {"d": {"type": "string", "x-mcp-header": "A"}}}),
        json!({"type": "object", "x-mcp-header": "Root"}),
    ];
    for schema in bad {
        assert!(header_params(&schema).is_err(), "accepted {schema}");
    }
    assert_eq!(header_params(&json!({"type": "object"})), Ok(Vec::new()));
}
