use super::*;
use serde_json::json;
use serde_json::value::RawValue;

fn members() -> String {
    let info = Implementation::new("host", "1");
    envelope(MODERN_PROTOCOL_VERSION, &info, &ClientCapabilities::default(), Some(LoggingLevel::Info))
        .unwrap_or_else(|e| panic!("{e}"))
}

fn merged(params: Option<&str>) -> serde_json::Value {
    let raw = params.map(|p| RawValue::from_string(p.to_owned()).unwrap_or_else(|e| panic!("{e}")));
    let out = with_meta(raw.as_deref(), &members()).unwrap_or_else(|e| panic!("{e}"));
    serde_json::from_str(out.get()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn the_envelope_names_version_identity_capabilities_and_level() {
    let value = merged(None);
    assert_eq!(
        value,
        json!({"_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "host", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/logLevel": "info"
        }})
    );
}

#[test]
fn meta_is_added_beside_params_and_beside_a_progress_token() {
    let value = merged(Some(r#"{"name":"add","arguments":{"a":1,"_meta":"not mine"}}"#));
    assert_eq!(value["arguments"], json!({"a": 1, "_meta": "not mine"}), "only the top level is touched");
    assert_eq!(value["_meta"]["io.modelcontextprotocol/protocolVersion"], "2026-07-28");
    let value = merged(Some(r#"{"name":"add","_meta":{"progressToken":7}}"#));
    assert_eq!(value["_meta"]["progressToken"], 7);
    assert_eq!(value["_meta"]["io.modelcontextprotocol/clientCapabilities"], json!({}));
    assert_eq!(merged(Some(r#"{"_meta":{}}"#))["_meta"]["io.modelcontextprotocol/logLevel"], "info");
    assert_eq!(merged(Some("null"))["_meta"]["io.modelcontextprotocol/clientInfo"]["name"], "host");
}

#[test]
fn params_that_are_not_an_object_are_refused() {
    for bad in ["[1,2]", "3", r#"{"_meta":[1]}"#] {
        let raw = RawValue::from_string(bad.to_owned()).unwrap_or_else(|e| panic!("{e}"));
        assert!(with_meta(Some(&raw), &members()).is_err(), "{bad}");
    }
}

#[test]
fn result_kinds() {
    assert_eq!(result_kind(r#"{"content":[]}"#), Ok(ResultKind::Complete));
    assert_eq!(result_kind(r#"{"resultType":"complete","content":[]}"#), Ok(ResultKind::Complete));
    assert_eq!(result_kind(r#"{"resultType":"input_required"}"#), Ok(ResultKind::InputRequired));
    assert!(result_kind(r#"{"resultType":"task"}"#).is_err());
    assert!(result_kind("[]").is_err());
}

#[test]
fn a_request_s_era_is_read_from_its_meta() {
    let era = |value: serde_json::Value| {
        let text = value.to_string();
        serde_json::from_str::<RequestMeta<'_>>(&text).unwrap_or_default().era(&all_versions())
    };
    assert_eq!(era(json!({})), Ok(Era::Handshake { progress_token: None }));
    assert_eq!(
        era(json!({"io.modelcontextprotocol/protocolVersion": "2025-11-25", "progressToken": "p-1"})),
        Ok(Era::Handshake { progress_token: Some(ProgressToken::String("p-1".into())) }),
        "a handshake-era request keeps its progress token"
    );
    let modern = era(json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                           "io.modelcontextprotocol/clientCapabilities": {"sampling": {}}}));
    let Ok(Era::Modern(checked)) = modern else { panic!("not modern") };
    assert!(checked.capabilities.sampling.is_some());
    let unknown = era(json!({"io.modelcontextprotocol/protocolVersion": "1999-01-01"}));
    assert_eq!(unknown.map_err(|e| e.code), Err(codes::UNSUPPORTED_PROTOCOL_VERSION));
    let no_caps = era(json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28"}));
    let not_text = era(json!({"io.modelcontextprotocol/protocolVersion": 20260728}));
    assert_eq!(
        not_text.map_err(|e| e.message),
        Err("_meta[\"io.modelcontextprotocol/protocolVersion\"] must be a string".into())
    );
    assert_eq!(no_caps.map_err(|e| e.code), Err(crate::ErrorCode::INVALID_PARAMS));
}

#[test]
fn a_complete_result_says_its_type_first_and_names_the_server() {
    let info = ServerInfoMeta::new(&Implementation::new("srv", "2")).unwrap_or_else(|e| panic!("{e}"));
    let hint = Some(CacheHint { ttl_ms: 5, cache_scope: CacheScope::Public });
    let text = complete_result(&json!({"tools": []}), &info, hint).unwrap_or_else(|e| panic!("{e}"));
    assert!(text.starts_with(r#"{"resultType":"complete","#), "{text}");
    assert_eq!(result_kind(&text), Ok(ResultKind::Complete));
    let value: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
    assert_eq!(value["tools"], json!([]));
    assert_eq!((value["ttlMs"].clone(), value["cacheScope"].clone()), (json!(5), json!("public")));
    assert_eq!(value["_meta"][meta::SERVER_INFO]["name"], "srv");

    // A result with a _meta of its own keeps it, with the server's identity added.
    let own =
        complete_result(&json!({"content": [], "_meta": {"x": 1}}), &info, None).unwrap_or_else(|e| panic!("{e}"));
    let value: serde_json::Value = serde_json::from_str(&own).unwrap_or_default();
    assert!(own.starts_with(r#"{"resultType":"complete""#));
    assert_eq!(
        (value["_meta"]["x"].clone(), value["_meta"][meta::SERVER_INFO]["version"].clone()),
        (json!(1), json!("2"))
    );
    // A unit result is an object with the fields alone.
    let unit = complete_result(&(), &info, None).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(serde_json::from_str::<serde_json::Value>(&unit).unwrap_or_default()["resultType"], "complete");

    let asked = input_required_result(&InputRequiredResult::default(), &info).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(result_kind(&asked), Ok(ResultKind::InputRequired));
}

#[test]
fn a_written_result_is_json_whatever_the_result_serializes_to() {
    // The text is not read again before it is sent: every shape a result may serialize to must make JSON.
    let info = ServerInfoMeta::new(&Implementation::new("s\"rv", "1")).unwrap_or_else(|e| panic!("{e}"));
    let hint = Some(CacheHint { ttl_ms: 1, cache_scope: CacheScope::Private });
    let shapes = [
        json!({}),
        json!({"content": [{"type": "text", "text": "}{\"_meta\""}]}),
        json!({"_meta": "not an object"}),
        json!(null),
        json!([1, 2]),
        json!("text"),
    ];
    for shape in shapes {
        for cache in [None, hint] {
            let text = complete_result(&shape, &info, cache).unwrap_or_else(|e| panic!("{e}"));
            let value: serde_json::Value =
                serde_json::from_str(&text).unwrap_or_else(|e| panic!("{shape}: {e}: {text}"));
            assert_eq!(value["resultType"], "complete", "{text}");
            assert_eq!(value["_meta"][meta::SERVER_INFO]["name"], "s\"rv", "{text}");
        }
    }
}

#[test]
fn members_keep_their_order_and_a_name_given_twice_keeps_its_last_value() {
    let raw = RawValue::from_string(r#"{"b":1,"a":[2],"_meta":{"x":1},"b":3,"_meta":{"y":2}}"#.to_owned())
        .unwrap_or_else(|e| panic!("{e}"));
    let out = with_meta(Some(&raw), r#""z":3"#).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.get(), r#"{"b":3,"a":[2],"_meta":{"y":2,"z":3}}"#);
}

#[test]
fn a_modern_request_s_capabilities_and_log_level_are_checked() {
    let era = |text: &str| serde_json::from_str::<RequestMeta<'_>>(text).unwrap_or_default().era(&all_versions());
    let modern = r#"{"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                     "io.modelcontextprotocol/clientCapabilities": {"roots": {"listChanged": true}},
                     "io.modelcontextprotocol/logLevel": "warning", "progressToken": 7}"#;
    let Ok(Era::Modern(checked)) = era(modern) else { panic!("not modern") };
    assert_eq!(checked.capabilities.roots.and_then(|r| r.list_changed), Some(true));
    assert_eq!(checked.log_level, Some(LoggingLevel::Warning));
    assert_eq!(checked.progress_token, Some(ProgressToken::Number(7)));

    let refused = |text: &str| era(text).err().map(|e| e.message).unwrap_or_default();
    let not_object = refused(
        r#"{"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": []}"#,
    );
    assert!(not_object.contains("must be an object"), "{not_object}");
    let invalid = refused(
        r#"{"io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {"roots": {"listChanged": "yes"}}}"#,
    );
    assert!(invalid.contains("is not valid"), "{invalid}");
    let level = refused(
        r#"{"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/logLevel": "loud"}"#,
    );
    assert!(level.contains("is not a log level"), "{level}");
}

#[test]
fn a_meta_named_with_escapes_is_read_like_any_other() {
    let params = |text: &str| RawValue::from_string(text.to_owned()).unwrap_or_else(|e| panic!("{e}"));
    let plain = params(r#"{"name":"t","_meta":{"progressToken":3}}"#);
    let escaped = params(r#"{"name":"t","\u005fmeta":{"progressToken":3}}"#);
    let none = params(r#"{"name":"t","arguments":{"meta":"_meta"}}"#);
    for (params, token) in
        [(&plain, Some(ProgressToken::Number(3))), (&escaped, Some(ProgressToken::Number(3))), (&none, None)]
    {
        assert_eq!(request_meta(Some(params)).progress_token, token, "{}", params.get());
    }
}
