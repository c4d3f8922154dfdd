//! The JavaScript API's `McpClient`, driven as a page script would: promises, plain objects, `Error`s with codes.
#![cfg(target_arch = "wasm32")]
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use js_sys::{Array, Function, Object, Promise, Reflect};
use mcp_worker_host::JsMcpClient;
use mcp_worker_tests::{ECHO_URL, JS_SERVER_URL};
use wasm_bindgen::convert::TryFromJsValue;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn object(pairs: &[(&str, JsValue)]) -> JsValue {
    let object = Object::new();
    for (key, value) in pairs {
        Reflect::set(&object, &(*key).into(), value).unwrap();
    }
    object.into()
}

fn get(value: &JsValue, path: &[&str]) -> JsValue {
    path.iter().fold(value.clone(), |v, key| Reflect::get(&v, &(*key).into()).unwrap())
}

async fn spawn(name: &str, url: &str, env: &[(&str, JsValue)]) -> JsMcpClient {
    let options =
        object(&[("name", name.into()), ("workerUrl", url.into()), ("isolation", "page".into()), ("env", object(env))]);
    let client = JsFuture::from(JsMcpClient::spawn(options)).await.unwrap();
    JsMcpClient::try_from_js_value(client).expect("spawn resolves with an McpClient")
}

async fn rejection(promise: Promise) -> (String, String) {
    let error = JsFuture::from(promise).await.expect_err("the promise rejects");
    assert!(error.is_instance_of::<js_sys::Error>(), "an Error object, not a string: {error:?}");
    (get(&error, &["code"]).as_string().unwrap(), get(&error, &["message"]).as_string().unwrap())
}

#[wasm_bindgen_test]
async fn call_tool_resolves_with_the_result_object() {
    let client = spawn("echo", ECHO_URL, &[]).await;
    let args = object(&[("text", "from js".into())]);
    let result = JsFuture::from(client.call_tool("echo".into(), args, JsValue::UNDEFINED)).await.unwrap();
    let content: Array = get(&result, &["content"]).dyn_into().unwrap();
    assert_eq!(get(&content.get(0), &["text"]).as_string().as_deref(), Some("from js"));

    let add = object(&[("a", 2.into()), ("b", 40.into())]);
    let result = JsFuture::from(client.call_tool("add".into(), add, JsValue::UNDEFINED)).await.unwrap();
    assert_eq!(get(&result, &["structuredContent", "sum"]).as_f64(), Some(42.0));

    // A tool error is a result, not a rejection.
    let bad = object(&[("a", "two".into()), ("b", 1.into())]);
    let result = JsFuture::from(client.call_tool("add".into(), bad, JsValue::UNDEFINED)).await.unwrap();
    assert_eq!(get(&result, &["isError"]).as_bool(), Some(true));
    client.close();
}

#[wasm_bindgen_test]
async fn call_tool_rejects_with_stable_codes() {
    let client = spawn("echo", ECHO_URL, &[]).await;
    let (code, message) = rejection(client.call_tool("nope".into(), JsValue::UNDEFINED, JsValue::UNDEFINED)).await;
    assert_eq!(code, "RPC_ERROR");
    assert!(message.contains("Unknown tool: nope"), "{message}");

    let array: JsValue = Array::of1(&1.into()).into();
    let (code, message) = rejection(client.call_tool("echo".into(), array, JsValue::UNDEFINED)).await;
    assert_eq!((code.as_str(), message.as_str()), ("INVALID_INPUT", "tool arguments must be an object"));

    let cyclic = Object::new();
    Reflect::set(&cyclic, &"self".into(), &cyclic).unwrap();
    let (code, _) = rejection(client.call_tool("echo".into(), cyclic.into(), JsValue::UNDEFINED)).await;
    assert_eq!(code, "INVALID_INPUT");

    let (code, _) = rejection(client.call_tool(7.into(), JsValue::UNDEFINED, JsValue::UNDEFINED)).await;
    assert_eq!(code, "INVALID_INPUT");

    // Still serving after all that.
    let ok = object(&[("text", "still".into())]);
    assert!(JsFuture::from(client.call_tool("echo".into(), ok, JsValue::UNDEFINED)).await.is_ok());

    let pending = client.call_tool("blob".into(), object(&[("bytes", 10.into())]), JsValue::UNDEFINED);
    client.close();
    let (code, _) = rejection(pending).await;
    assert_eq!(code, "CLOSED", "a call in flight when the client closes rejects at once");
    let (code, _) = rejection(client.call_tool("echo".into(), JsValue::UNDEFINED, JsValue::UNDEFINED)).await;
    assert_eq!(code, "CLOSED");
}

#[wasm_bindgen_test]
async fn call_tool_times_out_and_reports_progress() {
    let hanging = spawn("hang", JS_SERVER_URL, &[("FAULT", "hang".into())]).await;
    let options = object(&[("timeoutMs", 200.into())]);
    let (code, message) = rejection(hanging.call_tool("work".into(), JsValue::UNDEFINED, options)).await;
    assert_eq!(code, "TIMEOUT");
    assert!(message.contains("200 ms"), "{message}");
    hanging.close();

    let everything = spawn("everything", "/bundles/everything/bootstrap.js", &[]).await;
    let seen = Array::new();
    let log = seen.clone();
    let on_progress = wasm_bindgen::closure::Closure::<dyn FnMut(JsValue)>::new(move |p: JsValue| {
        log.push(&get(&p, &["progress"]));
    });
    let callback: &Function = on_progress.as_ref().unchecked_ref();
    let options = object(&[("onProgress", callback.clone().into())]);
    let result =
        JsFuture::from(everything.call_tool("test_tool_with_progress".into(), JsValue::UNDEFINED, options)).await;
    assert!(result.is_ok(), "{result:?}");
    let progress: Vec<f64> = seen.iter().filter_map(|v| v.as_f64()).collect();
    assert_eq!(progress, vec![0.0, 50.0, 100.0]);
    everything.close();
}

#[wasm_bindgen_test]
async fn concurrent_js_calls_and_other_requests_share_one_connection() {
    let client = spawn("echo", ECHO_URL, &[]).await;
    // Calls answered from frames parsed in JS, interleaved with pings answered through the Rust path.
    let calls: Vec<Promise> = (0..200)
        .map(|i| {
            let args = object(&[("text", format!("m{i}").into())]);
            if i % 10 == 0 { client.ping() } else { client.call_tool("echo".into(), args, JsValue::UNDEFINED) }
        })
        .collect();
    let settled = JsFuture::from(Promise::all(&calls.iter().collect::<Array>())).await.unwrap();
    let settled: Array = settled.dyn_into().unwrap();
    for i in 0..200 {
        let value = settled.get(i);
        if i % 10 == 0 {
            assert!(value.is_undefined(), "ping {i}");
        } else {
            let text = get(&Array::from(&get(&value, &["content"])).get(0), &["text"]);
            assert_eq!(text.as_string(), Some(format!("m{i}")), "call {i} got its own answer");
        }
    }
    let blob = client.call_tool("blob".into(), object(&[("bytes", (1 << 20).into())]), JsValue::UNDEFINED);
    let blob = JsFuture::from(blob).await.unwrap();
    let text = get(&Array::from(&get(&blob, &["content"])).get(0), &["text"]);
    assert_eq!(text.as_string().map(|t| t.len()), Some(1 << 20));
    client.close();
}

#[wasm_bindgen_test]
async fn a_result_that_is_not_a_call_tool_result_is_a_protocol_error() {
    let client = spawn("bad", JS_SERVER_URL, &[("FAULT", "bad-result".into())]).await;
    let (code, message) = rejection(client.call_tool("work".into(), JsValue::UNDEFINED, JsValue::UNDEFINED)).await;
    assert_eq!(code, "PROTOCOL");
    assert!(message.contains("content is not an array"), "{message}");
    client.close();
}

/// Text with what JSON escapes and what it need not, over the SDK's threshold for detached strings.
fn large_text() -> String {
    "a \"quoted\" \\ line\u{1}, café ✓\n".repeat(4000)
}

#[wasm_bindgen(inline_js = r#"
export function watchPortMessages() {
  const own = Object.getOwnPropertyDescriptor(MessagePort.prototype, "onmessage");
  const seen = [];
  const kind = (data) => typeof data === "string" ? "text"
    : typeof data?.frame !== "string" ? "object"
    : data.strings?.every(([, value]) => value instanceof Uint8Array) ? "detached bytes" : "detached";
  Object.defineProperty(MessagePort.prototype, "onmessage", {
    configurable: true,
    get: own.get,
    set(handler) {
      own.set.call(this, handler && function (event) { seen.push(kind(event.data)); return handler.call(this, event); });
    },
  });
  return () => {
    Object.defineProperty(MessagePort.prototype, "onmessage", own);
    return seen;
  };
}
"#)]
extern "C" {
    /// Records the kind of every message a port handler installed from now on receives ("text", "detached",
    /// "detached bytes" or "object"), until the returned function is called, which returns them.
    #[wasm_bindgen(js_name = watchPortMessages)]
    fn watch_port_messages() -> Function;
}

#[wasm_bindgen_test]
async fn a_large_result_arrives_exactly_through_call_tool_with_its_text_detached_as_utf8_bytes() {
    let stop_watching = watch_port_messages();
    let client = spawn("echo", ECHO_URL, &[]).await;
    let text = large_text();
    let args = object(&[("text", text.as_str().into())]);
    let result = JsFuture::from(client.call_tool("echo".into(), args, JsValue::UNDEFINED)).await;
    let seen: Vec<String> =
        Array::from(&stop_watching.call0(&JsValue::NULL).unwrap()).iter().filter_map(|k| k.as_string()).collect();
    let content: Array = get(&result.unwrap(), &["content"]).dyn_into().unwrap();
    let echoed = get(&content.get(0), &["text"]).as_string().unwrap();
    assert_eq!(echoed.len(), text.len());
    assert!(echoed == text, "the echoed text differs from what was sent");
    assert_eq!(seen.iter().filter(|kind| *kind == "detached bytes").count(), 1, "the result came as {seen:?}");
    client.close();
}

#[wasm_bindgen_test]
async fn detached_strings_that_cannot_be_put_back_reject_the_call_and_well_made_ones_resolve_exactly() {
    let client = spawn("hostile", "/fixtures/hostile-server.js", &[("HOSTILE", "detached".into())]).await;
    let (code, message) = rejection(client.call_tool("work".into(), JsValue::UNDEFINED, JsValue::UNDEFINED)).await;
    assert_eq!(code, "PROTOCOL", "{message}");
    assert!(message.contains("detached strings that cannot be put back"), "{message}");
    let (code, message) = rejection(client.call_tool("not-utf8".into(), JsValue::UNDEFINED, JsValue::UNDEFINED)).await;
    assert_eq!(code, "PROTOCOL", "{message}");
    assert!(message.contains("detached string 0 is not UTF-8"), "{message}");
    for tool in ["fits", "fits-bytes"] {
        let result =
            JsFuture::from(client.call_tool(tool.into(), JsValue::UNDEFINED, JsValue::UNDEFINED)).await.unwrap();
        let content: Array = get(&result, &["content"]).dyn_into().unwrap();
        let text = get(&content.get(0), &["text"]).as_string().unwrap();
        assert!(
            text == "a \"quoted\" \\ line\u{1}, café ✓\n".repeat(2000),
            "{tool}: the text differs: {}",
            &text[..60]
        );
    }
    for tool in ["huge", "huge-bytes"] {
        let (code, message) = rejection(client.call_tool(tool.into(), JsValue::UNDEFINED, JsValue::UNDEFINED)).await;
        assert!(message.contains("the limit is"), "{tool}: {code}: {message}");
    }
    client.close();
}

#[wasm_bindgen_test]
async fn list_tools_follows_cursors_to_the_end_and_refuses_pages_that_loop_or_are_not_lists() {
    let client = spawn("pages", "/fixtures/hostile-server.js", &[("HOSTILE", "pages".into())]).await;
    let tools: Array = JsFuture::from(client.list_tools()).await.unwrap().dyn_into().unwrap();
    let names: Vec<String> = tools.iter().map(|tool| get(&tool, &["name"]).as_string().unwrap()).collect();
    assert_eq!(names, ["work", "page_2", "page_3"]);
    let x = get(&tools.get(1), &["inputSchema", "properties", "x"]);
    let numbers = ["minimum", "maximum", "multipleOf"].map(|key| get(&x, &[key]).as_f64().unwrap());
    assert_eq!(numbers, [0.9144, 1e300, 1e-7], "the schema's numbers as the server wrote them");
    client.close();

    for (mode, code, expected) in [
        ("pages-loop", "PROTOCOL", "repeated cursor \"p2\""),
        ("pages-not-array", "PROTOCOL", "tools is not an array"),
        ("pages-bad-cursor", "PROTOCOL", "nextCursor"),
        ("pages-error", "RPC_ERROR", "the second page failed"),
    ] {
        let client = spawn("pages", "/fixtures/hostile-server.js", &[("HOSTILE", mode.into())]).await;
        let (got, message) = rejection(client.list_tools()).await;
        assert_eq!(got, code, "{mode}: {message}");
        assert!(message.contains(expected), "{mode}: {message}");
        // The connection is still good for the next request.
        let result = JsFuture::from(client.call_tool("work".into(), JsValue::UNDEFINED, JsValue::UNDEFINED)).await;
        assert!(result.is_ok(), "{mode}: a call after the failed listing: {result:?}");
        client.close();
    }
}
