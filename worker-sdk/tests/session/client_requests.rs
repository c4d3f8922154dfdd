//! Requests the server sends to the client (elicitation, sampling, roots): capability checks, answers, errors,
//! timeouts, and a handler that stops waiting.

use crate::harness::{Harness, call, response, text};
use mcp_worker_sdk::protocol::elicitation::ElicitParams;
use mcp_worker_sdk::{CreateMessageParams, Ctx, Elicitation, Error, NoArgs, SamplingMessage, Server, ToolDef};
use serde_json::{Value, json};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Contact {
    /// Your name.
    username: String,
    /// Your email address.
    email: String,
}

fn describe(error: &Error) -> String {
    match error {
        Error::CapabilityMissing { capability, .. } => format!("missing capability {capability}"),
        Error::Timeout { ms, .. } => format!("timed out after {ms}"),
        Error::Rpc { error, .. } => format!("client error {}", error.code),
        Error::InvalidResponse { .. } => format!("invalid response: {error}"),
        other => other.to_string(),
    }
}

fn server() -> Server {
    Server::new("asks", "1")
        .client_request_timeout_ms(5_000)
        .tool(ToolDef::new("elicit", |ctx: Ctx, _: NoArgs| async move {
            let schema =
                json!({"type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"]});
            let params = ElicitParams::form("Say something", schema.as_object().cloned().unwrap_or_default());
            match ctx.elicit(params).await {
                Ok(result) => format!("action={} content={}", result.action, json!(result.content)),
                Err(e) => describe(&e),
            }
        }))
        .tool(ToolDef::new("form", |ctx: Ctx, _: NoArgs| async move {
            match ctx.elicit_form::<Contact>("Who are you?").await {
                Ok(Elicitation::Accepted(c)) => format!("{} <{}>", c.username, c.email),
                Ok(Elicitation::Declined) => "declined".to_owned(),
                Ok(_) => "cancelled".to_owned(),
                Err(e) => describe(&e),
            }
        }))
        .tool(ToolDef::new("sample", |ctx: Ctx, _: NoArgs| async move {
            match ctx.sample(CreateMessageParams::new(vec![SamplingMessage::user("Hello")], 100)).await {
                Ok(result) => format!("LLM response: {}", result.content.text().unwrap_or("none")),
                Err(e) => describe(&e),
            }
        }))
        .tool(ToolDef::new("roots", |ctx: Ctx, _: NoArgs| async move {
            match ctx.list_roots().await {
                Ok(result) => result.roots.iter().map(|r| r.uri.clone()).collect::<Vec<_>>().join(","),
                Err(e) => describe(&e),
            }
        }))
}

/// Calls `tool` and returns the request the server sent to the client.
fn start(h: &mut Harness, id: i64, tool: &str) -> Value {
    let frames = h.exchange(&call(id, tool, json!({})));
    assert_eq!(frames.len(), 1, "{frames:?}");
    assert!(frames[0]["id"].is_i64(), "{frames:?}");
    frames[0].clone()
}

#[test]
fn without_the_capability_the_handler_gets_a_clear_error_and_nothing_is_sent() {
    let mut h = Harness::new(server());
    h.initialize(json!({}));
    for (id, tool, capability) in [(1, "elicit", "elicitation.form"), (2, "sample", "sampling"), (3, "roots", "roots")]
    {
        let r = h.one(&call(id, tool, json!({})));
        assert_eq!(text(&r), format!("missing capability {capability}"));
    }
    // A client that offers only URL-mode elicitation cannot fill in forms.
    let mut h = Harness::new(server());
    h.initialize(json!({"elicitation": {"url": {}}}));
    assert_eq!(text(&h.one(&call(1, "elicit", json!({})))), "missing capability elicitation.form");
}

#[test]
fn elicitation_answers_reach_the_handler() {
    let mut h = Harness::new(server());
    h.initialize(json!({"elicitation": {}}));
    let asked = start(&mut h, 1, "elicit");
    assert_eq!(asked["method"], "elicitation/create");
    assert_eq!(asked["params"]["message"], "Say something");
    assert_eq!(h.session.pending_client_requests(), 1);
    let r = h.one(&response(&asked["id"], json!({"action": "accept", "content": {"answer": "hi"}})));
    assert_eq!(text(&r), r#"action=accept content={"answer":"hi"}"#);
    assert_eq!(h.session.pending_client_requests(), 0);

    let asked = start(&mut h, 2, "elicit");
    let r = h.one(&response(&asked["id"], json!({"action": "decline"})));
    assert_eq!(text(&r), "action=decline content=null");
}

#[test]
fn typed_forms_are_sent_as_flat_schemas_and_read_back() {
    let mut h = Harness::new(server());
    h.initialize(json!({"elicitation": {"form": {}}}));
    let asked = start(&mut h, 1, "form");
    assert_eq!(
        asked["params"]["requestedSchema"],
        json!({"type": "object", "required": ["username", "email"], "properties": {
            "username": {"type": "string", "description": "Your name."},
            "email": {"type": "string", "description": "Your email address."}}})
    );
    let r =
        h.one(&response(&asked["id"], json!({"action": "accept", "content": {"username": "ada", "email": "a@b.c"}})));
    assert_eq!(text(&r), "ada <a@b.c>");
    let asked = start(&mut h, 2, "form");
    assert_eq!(text(&h.one(&response(&asked["id"], json!({"action": "cancel"})))), "cancelled");
    let asked = start(&mut h, 3, "form");
    let r = h.one(&response(&asked["id"], json!({"action": "accept", "content": {"username": "ada"}})));
    assert!(text(&r).starts_with("invalid response") && text(&r).contains("email"), "{r}");
}

#[test]
fn sampling_and_roots_answers_reach_the_handler() {
    let mut h = Harness::new(server());
    h.initialize(json!({"sampling": {}, "roots": {"listChanged": true}}));
    let asked = start(&mut h, 1, "sample");
    assert_eq!(asked["method"], "sampling/createMessage");
    assert_eq!(
        asked["params"],
        json!({"messages": [{"role": "user", "content": {"type": "text", "text": "Hello"}}], "maxTokens": 100})
    );
    let answer = json!({"role": "assistant", "content": {"type": "text", "text": "Hi there"}, "model": "m", "stopReason": "endTurn"});
    assert_eq!(text(&h.one(&response(&asked["id"], answer))), "LLM response: Hi there");

    let asked = start(&mut h, 2, "roots");
    assert_eq!(asked["method"], "roots/list");
    assert!(asked.get("params").is_none(), "{asked}");
    let roots = json!({"roots": [{"uri": "file:///a"}, {"uri": "file:///b", "name": "b"}]});
    assert_eq!(text(&h.one(&response(&asked["id"], roots))), "file:///a,file:///b");
}

#[test]
fn client_errors_and_malformed_answers_are_reported_to_the_handler() {
    let mut h = Harness::new(server());
    h.initialize(json!({"sampling": {}}));
    let asked = start(&mut h, 1, "sample");
    let error = json!({"jsonrpc": "2.0", "id": asked["id"], "error": {"code": -32601, "message": "Method not found"}});
    assert_eq!(text(&h.one(&error.to_string())), "client error -32601");
    let asked = start(&mut h, 2, "sample");
    let r = h.one(&response(&asked["id"], json!({"role": "assistant"})));
    assert!(text(&r).starts_with("invalid response"), "{r}");
    // A response to nothing the server asked is ignored.
    assert!(h.exchange(&response(&json!(999), json!({}))).is_empty());
}

#[test]
fn an_unanswered_request_times_out_and_the_client_is_told() {
    let mut h = Harness::new(server());
    h.initialize(json!({"sampling": {}}));
    let asked = start(&mut h, 1, "sample");
    assert!(h.advance(4_999).is_empty());
    let frames = h.advance(1);
    assert_eq!(frames.len(), 2, "{frames:?}");
    assert_eq!(frames[0]["method"], "notifications/cancelled");
    assert_eq!(frames[0]["params"]["requestId"], asked["id"]);
    assert_eq!(frames[0]["params"]["reason"], "timed out after 5000 ms");
    assert_eq!(text(&frames[1]), "timed out after 5000");
    // The late answer is ignored.
    assert!(h.exchange(&response(&asked["id"], json!({"roots": []}))).is_empty());
    assert_eq!(h.session.pending_client_requests(), 0);
}

#[test]
fn a_cancelled_handler_withdraws_its_request_to_the_client() {
    let mut h = Harness::new(server());
    h.initialize(json!({"elicitation": {}}));
    let asked = start(&mut h, 1, "elicit");
    let frames = h.exchange(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#);
    assert_eq!(frames.len(), 1, "only the withdrawal, no response to the cancelled call: {frames:?}");
    assert_eq!(frames[0]["method"], "notifications/cancelled");
    assert_eq!(frames[0]["params"]["requestId"], asked["id"]);
    assert_eq!(h.session.pending_client_requests(), 0);
}
