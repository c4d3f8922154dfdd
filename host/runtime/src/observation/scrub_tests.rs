//! Every field of every event, a server's health and a waiting request: a credential value in any of them (or in an
//! object key of their JSON) is scrubbed.

use super::*;
use crate::credentials::Secret;
use crate::manager::{ListKind, ServerStatus};
use crate::observation::events::{ServerStatusEvent, Settlement};
use crate::observation::{ObservationManager, ServerRequests};
use crate::tool_system::{ToolOrigin, ToolStatus};
use mcp_worker_client::server_requests::ServerRequest;
use mcp_worker_protocol::LoggingLevel;
use serde_json::json;
use std::rc::Rc;

const SECRET: &str = "sk-live-0123456789";

fn s() -> String {
    format!("<{SECRET}>")
}

fn call() -> ExecutionCall {
    ExecutionCall {
        call_id: s(),
        tool_name: s(),
        tool: Some(s()),
        server: Some(s()),
        origin: Some(ToolOrigin::Mcp),
        thread_id: s(),
        trace_id: Some(s()),
    }
}

fn json_with_secret() -> Value {
    json!({ SECRET: [s(), {"nested": s()}] })
}

/// One event of each kind, with the secret in every text.
fn every_event() -> Vec<EventBody> {
    let request = || ServerRequestEvent { request_id: 1, server: s(), method: s(), params: json_with_secret() };
    let identity = || ServerIdentity::Bundle { worker_url: s(), wasm_url: Some(s()) };
    vec![
        EventBody::ServerStatus(ServerStatusEvent {
            server: s(),
            status: ServerStatus::Error,
            transport: "wasm",
            tool_count: 0,
            last_error: Some(s()),
            last_connected_ms: None,
            protocol_version: None,
            consecutive_failures: 1,
            last_success_ms: None,
            consecutive_call_failures: 2,
            next_retry_ms: None,
            isolation: "sandbox",
            network: vec![s()],
            blocked_requests: 1,
            last_blocked_origin: Some(s()),
        }),
        EventBody::ServerRemoved(ServerEvent { server: s() }),
        EventBody::CredentialsRequired(CredentialsRequiredEvent {
            server: s(),
            credentials: vec![CredentialDecl::required(s(), s())],
            locked: false,
            reason: s(),
            identity_change: Some(IdentityChange::new(s(), vec![s()], Some(identity()), identity())),
        }),
        EventBody::ToolsChanged(ToolsChangedEvent { server: Some(s()), added: vec![s()], removed: vec![s()] }),
        EventBody::ToolsHidden(ToolsHiddenEvent {
            server: Some(s()),
            tools: vec![crate::registry::HiddenTool { name: s(), server: s(), tool: s(), reason: s() }],
        }),
        EventBody::ListChanged(ListChangedEvent { server: s(), list: ListKind::Prompts }),
        EventBody::ToolExecutionStarted(call()),
        EventBody::ToolExecutionFinished(ExecutionFinished {
            call: call(),
            status: ToolStatus::Error,
            error: Some(s()),
            error_code: Some(s()),
            duration_ms: 1.0,
            output: OutputSummary { content: vec![ContentSummary { kind: s(), bytes: 3 }], structured_bytes: None },
        }),
        EventBody::ServerLog(ServerLogEvent {
            server: s(),
            level: LoggingLevel::Info,
            logger: Some(s()),
            data: json_with_secret(),
        }),
        EventBody::Progress(ProgressEvent {
            server: s(),
            progress_token: json_with_secret(),
            progress: 1.0,
            total: None,
            message: Some(s()),
        }),
        EventBody::ServerRestarting(ServerRestartingEvent { server: s(), attempt: 1, backoff_ms: 1, reason: s() }),
        EventBody::ElicitationRequested(request()),
        EventBody::SamplingRequested(request()),
        EventBody::ServerRequestSettled(ServerRequestSettledEvent {
            request_id: 1,
            server: s(),
            method: s(),
            outcome: Settlement::Cancelled,
        }),
    ]
}

fn hub() -> ObservationManager {
    let hub = ObservationManager::new(Rc::new(|| 0.0), "t", 64);
    hub.redactor().set_server("any", [("API_KEY".to_owned(), Secret::new(SECRET))]);
    hub
}

#[test]
fn no_field_or_object_key_of_any_event_keeps_a_value() {
    let hub = hub();
    let events = every_event();
    assert_eq!(events.len(), 14, "one of each kind");
    for body in events {
        let kind = body.kind();
        hub.emit(body);
        let shown = serde_json::to_string(&hub.history(&crate::observation::EventFilter::all(), Some(1))).unwrap();
        assert!(!shown.contains(SECRET), "{kind:?}: {shown}");
        assert!(shown.contains("[credential API_KEY]"), "{kind:?}: {shown}");
    }
}

#[test]
fn a_servers_health_and_a_waiting_request_keep_no_value() {
    let hub = hub();
    let mut health = ServerHealth::new(&crate::config::ServerConfig::wasm(s(), "/x.js"));
    health.last_error = Some(s());
    hub.redactor().scrub_health(&mut health);
    let shown = serde_json::to_string(&health).unwrap();
    assert!(!shown.contains(SECRET) && shown.contains("[credential API_KEY]"), "{shown}");

    let requests = ServerRequests::new(hub.clone());
    let _waiting = (requests.handler())(ServerRequest::new("a", "elicitation/create", json_with_secret()));
    let pending = serde_json::to_string(&requests.pending()).unwrap();
    assert!(!pending.contains(SECRET) && pending.contains("[credential API_KEY]"), "{pending}");
}
