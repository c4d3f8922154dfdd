use super::*;
use crate::{NameMap, Tool};
use serde_json::value::RawValue;
use serde_json::{Value, json};

#[derive(Debug, PartialEq, Deserialize)]
struct Inner {
    name: String,
}

#[derive(Debug, Deserialize)]
struct Outer {
    inner: Inner,
    list: Vec<Inner>,
    maybe: Option<Inner>,
    named: NameMap<Inner>,
    raw: Box<RawValue>,
    any: Value,
    #[serde(default)]
    absent: Option<u64>,
}

const OUTER: &str = r#"{"inner":{"name":"a"},"list":[{"name":"b"}],"maybe":{"name":"c"},
    "named":{"d":{"name":"e"}},"raw":[1, {"x":2}],"any":{"y":[3]}}"#;

#[test]
fn structs_read_from_objects_at_any_depth() {
    let outer: Outer = from_str(OUTER).unwrap();
    assert_eq!(outer.inner, Inner { name: "a".into() });
    assert_eq!(outer.list, [Inner { name: "b".into() }]);
    assert_eq!(outer.maybe, Some(Inner { name: "c".into() }));
    assert_eq!(outer.named.get("d"), Some(&Inner { name: "e".into() }));
    assert_eq!(outer.raw.get(), r#"[1, {"x":2}]"#);
    assert_eq!(outer.any, json!({"y": [3]}));
    assert_eq!(outer.absent, None);
}

#[test]
fn the_same_from_a_value() {
    let outer: Outer = from_value(serde_json::from_str(OUTER).unwrap()).unwrap();
    assert_eq!(outer.list, [Inner { name: "b".into() }]);
    assert_eq!(outer.raw.get(), r#"[1,{"x":2}]"#);
}

#[test]
fn a_struct_written_as_an_array_is_refused_where_serde_json_takes_it() {
    assert_eq!(serde_json::from_str::<Inner>(r#"["a"]"#).unwrap(), Inner { name: "a".into() });
    let error = from_str::<Inner>(r#"["a"]"#).unwrap_err().to_string();
    assert!(error.contains("invalid type: sequence, expected struct Inner"), "{error}");
    assert!(from_value::<Inner>(json!(["a"])).is_err());
}

#[test]
fn a_nested_struct_written_as_an_array_is_refused_wherever_it_sits() {
    let cases = [
        r#"{"inner":["a"],"list":[],"maybe":null,"named":{},"raw":1,"any":1}"#,
        r#"{"inner":{"name":"a"},"list":[["b"]],"maybe":null,"named":{},"raw":1,"any":1}"#,
        r#"{"inner":{"name":"a"},"list":[],"maybe":["c"],"named":{},"raw":1,"any":1}"#,
        r#"{"inner":{"name":"a"},"list":[],"maybe":null,"named":{"d":["e"]},"raw":1,"any":1}"#,
    ];
    for case in cases {
        let error = from_str::<Outer>(case).unwrap_err().to_string();
        assert!(error.contains("expected struct Inner"), "{case}: {error}");
        let error = from_value::<Outer>(serde_json::from_str(case).unwrap()).unwrap_err().to_string();
        assert!(error.contains("expected struct Inner"), "{case}: {error}");
    }
}

#[test]
fn errors_and_their_positions_are_serde_jsons() {
    let text = r#"{"name": 5}"#;
    assert_eq!(
        from_str::<Inner>(text).unwrap_err().to_string(),
        serde_json::from_str::<Inner>(text).unwrap_err().to_string()
    );
    let error = from_str::<Inner>(r#"{"name":"a"} x"#).unwrap_err();
    assert_eq!(error.to_string(), "trailing characters at line 1 column 14");
    assert!(from_str::<Inner>(r#"{"name":"a"}  "#).is_ok());
}

#[test]
fn a_wire_type_reads_as_before() {
    let text = r#"{"name":"echo","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true},
        "icons":[{"src":"https://example.com/i.png"}],"_meta":{"k":1}}"#;
    let ours: Tool = from_str(text).unwrap();
    let theirs: Tool = serde_json::from_str(text).unwrap();
    assert_eq!(serde_json::to_value(&ours).unwrap(), serde_json::to_value(&theirs).unwrap());
}

#[test]
fn member_names_read_as_serde_json_reads_them_escaped_or_not() {
    let inner: Inner = from_str(r#"{"na\u006de":"a","other":1}"#).unwrap();
    assert_eq!(inner, Inner { name: "a".into() });
    let named: NameMap<u8> = from_str(r#"{"plain":1,"esc\"aped":2}"#).unwrap();
    assert_eq!((named.get("plain"), named.get("esc\"aped")), (Some(&1), Some(&2)));
    let error = from_str::<Inner>(r#"{"name":"a","name":"b"}"#).unwrap_err().to_string();
    assert_eq!(error, serde_json::from_str::<Inner>(r#"{"name":"a","name":"b"}"#).unwrap_err().to_string());
    let from_value: Inner = super::from_value(json!({"name": "v"})).unwrap();
    assert_eq!(from_value, Inner { name: "v".into() });
}

/// The workspace's serde_core is the patched copy in `vendor/` (vendor/README.md): serde's own message for an
/// unexpected float does not format it, so that no package links the standard library's float formatting for it.
/// serde_json's messages still say which float they met.
#[test]
fn a_float_in_the_wrong_place_is_named_without_std_float_formatting() {
    assert_eq!(
        de::Unexpected::Float(1.5).to_string(),
        "floating point",
        "serde_core is not the patched copy in vendor/: is [patch.crates-io] in Cargo.toml still used?"
    );
    let error = from_str::<Inner>(r#"{"name": 1.5}"#).unwrap_err().to_string();
    assert!(error.starts_with("invalid type: floating point `1.5`, expected a string"), "{error}");
}

#[test]
fn a_string_in_the_wrong_place_is_quoted_as_json_quotes_it() {
    // Rust's `{:?}` would write `"tab\there \"é\" \u{1}"`, and link the standard library's Unicode tables.
    assert_eq!(
        de::Unexpected::Str("tab\there \"é\" \u{1}").to_string(),
        r#"string "tab\there \"é\" \u0001""#,
        "serde_core is not the patched copy in vendor/: is [patch.crates-io] in Cargo.toml still used?"
    );
    let error = from_str::<f64>(r#""two""#).unwrap_err().to_string();
    assert!(error.starts_with(r#"invalid type: string "two", expected f64"#), "{error}");
}
