//! The era a session settles on: the `server/discover` probe against a real SDK server and against scripted
//! servers of the handshake era that answer it in the ways such servers do.

use super::super::tests::pipe;
use super::*;
use crate::connection::SendError;
use futures_channel::mpsc;
use futures_executor::LocalPool;
use futures_util::StreamExt;
use futures_util::task::LocalSpawnExt;
use serde_json::json;

/// A server that answers each request with what `script` returns for its method (`None`: no answer).
fn scripted(script: fn(&str) -> Option<Value>) -> (LocalPool, Connection, Rc<RefCell<Vec<String>>>) {
    let pool = LocalPool::new();
    let (to_server, mut inbox) = mpsc::unbounded::<String>();
    let connection = Connection::new(
        "scripted",
        Box::new(move |frame| to_server.unbounded_send(frame.to_owned()).map_err(|e| SendError::new(e.to_string()))),
        Rc::new(|| 0.0),
    );
    let methods = Rc::new(RefCell::new(Vec::new()));
    let (seen, host) = (methods.clone(), connection.clone());
    pool.spawner()
        .spawn_local(async move {
            while let Some(frame) = inbox.next().await {
                let request: Value = serde_json::from_str(&frame).unwrap_or_default();
                let method = request["method"].as_str().unwrap_or_default().to_owned();
                seen.borrow_mut().push(method.clone());
                if let (Some(id), Some(answer)) = (request.get("id"), script(&method)) {
                    let mut response = answer;
                    response["jsonrpc"] = json!("2.0");
                    response["id"] = id.clone();
                    host.receive(&response.to_string());
                }
            }
        })
        .unwrap_or_else(|e| panic!("{e}"));
    (pool, connection, methods)
}

fn initialize_result() -> Value {
    json!({"result": {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "old", "version": "1"}}})
}

fn connect(script: fn(&str) -> Option<Value>, protocol: Protocol) -> (Result<McpClient>, Vec<String>) {
    let (mut pool, connection, methods) = scripted(script);
    let options = ClientOptions { protocol, ..ClientOptions::default() };
    let outcome = pool.run_until(McpClient::connect(connection, &options, None));
    pool.run_until_stalled();
    let seen = methods.borrow().clone();
    (outcome, seen)
}

#[test]
fn an_sdk_server_is_spoken_to_in_2026_07_28() {
    let mut pipe = pipe(echo_server::server(&mcp_worker_sdk::Env::default()));
    let options = ClientOptions::default();
    let init = McpClient::connect(pipe.connection.clone(), &options, None);
    let client = pipe.pool.run_until(init).unwrap_or_else(|e| panic!("{e}"));
    assert!(client.is_modern());
    assert_eq!(client.protocol_version(), "2026-07-28");
    assert_eq!(client.server_info().server_info.name, "echo");
    let tools = pipe.pool.run_until(client.list_tools()).unwrap_or_else(|e| panic!("{e}"));
    assert!(tools.iter().any(|t| t.name == "echo"));
    assert!(!pipe.session.is_initialized(), "no handshake happened");
}

#[test]
fn servers_of_the_handshake_era_get_initialize_however_they_answer_the_probe() {
    let scripts: [fn(&str) -> Option<Value>; 4] = [
        // Method not found, as most do.
        |method| match method {
            "initialize" => Some(initialize_result()),
            _ => Some(json!({"error": {"code": -32601, "message": "Method not found"}})),
        },
        // An empty result for anything it does not know (as the conformance suite's mock servers).
        |method| match method {
            "initialize" => Some(initialize_result()),
            _ => Some(json!({"result": {}})),
        },
        // A modern error naming only versions of the handshake.
        |method| match method {
            "initialize" => Some(initialize_result()),
            _ => Some(
                json!({"error": {"code": -32022, "message": "Unsupported", "data": {"supported": ["2025-11-25"], "requested": "2026-07-28"}}}),
            ),
        },
        // "Not initialized".
        |method| match method {
            "initialize" => Some(initialize_result()),
            _ => Some(json!({"error": {"code": -32600, "message": "Server not initialized"}})),
        },
    ];
    for script in scripts {
        let (client, methods) = connect(script, Protocol::Auto);
        let client = client.unwrap_or_else(|e| panic!("{e}"));
        assert!(!client.is_modern());
        assert_eq!(client.protocol_version(), "2025-11-25");
        assert_eq!(methods[..2], ["server/discover", "initialize"]);
    }
}

#[test]
fn a_client_that_requires_2026_07_28_refuses_a_server_of_the_handshake_era() {
    let (client, methods) = connect(
        |method| match method {
            "initialize" => Some(initialize_result()),
            _ => Some(json!({"error": {"code": -32601, "message": "Method not found"}})),
        },
        Protocol::Modern,
    );
    let error = client.err().map(|e| e.to_string()).unwrap_or_default();
    assert!(error.contains("does not speak MCP 2026-07-28"), "{error}");
    assert_eq!(methods, ["server/discover"], "no initialize");
}

#[test]
fn a_client_pinned_to_the_handshake_sends_no_probe() {
    let (client, methods) = connect(|_| Some(initialize_result()), Protocol::Handshake);
    assert!(client.is_ok());
    assert_eq!(methods, ["initialize", "notifications/initialized"]);
}

#[test]
fn a_modern_server_is_named_by_its_server_info_or_by_the_host_when_that_is_malformed() {
    fn discovered(info: Value) -> Value {
        json!({"result": {
            "supportedVersions": ["2026-07-28"],
            "capabilities": {"tools": {}},
            "_meta": {"io.modelcontextprotocol/serverInfo": info},
        }})
    }
    let named = |script: fn(&str) -> Option<Value>| {
        let (client, _) = connect(script, Protocol::Auto);
        let client = client.unwrap_or_else(|e| panic!("{e}"));
        assert!(client.is_modern());
        let info = &client.server_info().server_info;
        (info.name.clone(), info.version.clone(), info.icons.as_ref().map_or(0, Vec::len))
    };
    let with_icons = |_: &str| {
        Some(discovered(json!({"name": "srv", "version": "2.1", "icons": [{"src": "https://example.com/a.png"}]})))
    };
    assert_eq!(named(with_icons), ("srv".into(), "2.1".into(), 1));
    let malformed = |_: &str| Some(discovered(json!({"name": 7})));
    assert_eq!(named(malformed), ("scripted".into(), "unknown".into(), 0));
}

/// A server of 2026-07-28 that lists one tool.
fn modern_lister(method: &str) -> Option<Value> {
    match method {
        "server/discover" => {
            Some(json!({"result": {"supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}}}}))
        }
        "tools/list" => Some(json!({"result": {"tools": [{"name": "t", "inputSchema": {"type": "object"}}]}})),
        _ => Some(json!({"result": {}})),
    }
}

/// Connects to `modern_lister` asking for the first page of tools right after `server/discover`, as a worker's start
/// does; `changed` has the server say its tools changed before the client lists them.
fn listings_after_a_start(changed: bool) -> Vec<usize> {
    let (mut pool, connection, methods) = scripted(modern_lister);
    let options = ClientOptions::default();
    let first = RefCell::new(None);
    let connecting = McpClient::connect(connection.clone(), &options, None);
    let asking = async { *first.borrow_mut() = Some(super::super::first_tools::ask_as_text(&connection, 1_000)) };
    let (client, ()) = pool.run_until(futures_util::future::join(connecting, asking));
    let client = client.unwrap_or_else(|e| panic!("{e}"));
    client.keep_first_tools(first.take().unwrap_or_else(|| panic!("asked")));
    pool.run_until_stalled();
    if changed {
        connection.receive(r#"{"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}"#);
    }
    let asked = || methods.borrow().iter().filter(|m| *m == "tools/list").count();
    let mut counts = vec![asked()];
    for _ in 0..2 {
        let tools = pool.run_until(client.list_tools()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(tools.len(), 1);
        counts.push(asked());
    }
    assert_eq!(methods.borrow()[..2], ["server/discover", "tools/list"], "the page is asked for right after the probe");
    counts
}

#[test]
fn the_first_listing_after_a_start_is_the_page_asked_for_with_the_probe() {
    // tools/list requests sent: after the start, after the first listing, after the second.
    assert_eq!(listings_after_a_start(false), [1, 1, 2]);
}

#[test]
fn a_listing_after_the_tools_changed_asks_again() {
    assert_eq!(listings_after_a_start(true), [1, 2, 3]);
}
