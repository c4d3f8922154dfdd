//! A server's resources, prompts, completion and log level from JavaScript: each method starts the server if it
//! is not running, and rejects with `UNSUPPORTED` when the server does not offer the feature. Results are the MCP
//! results as the server sent them (a binary resource's `blob` stays base64).

use super::JsRuntime;
use super::convert::{JsFailure, from_js, json_text_to_js, options_from_js};
use crate::promise::promise;
use js_sys::Promise;
use mcp_worker_client::session::FeatureRead;
use mcp_worker_protocol::LoggingLevel;
use mcp_worker_protocol::NameMap;
use mcp_worker_protocol::completion::{CompletionArgument, CompletionContext, CompletionReference};
use mcp_worker_protocol::object_text::with_last_member;
use serde::Deserialize;
use serde_json::{Value, json};
use wasm_bindgen::prelude::*;

/// `{ cursor? }`: the page after the one whose `nextCursor` this is.
#[derive(Deserialize, Default)]
struct Page {
    cursor: Option<String>,
}

/// The cursor of `{ cursor? }` options.
fn cursor(options: Option<JsValue>) -> Result<Option<String>, JsFailure> {
    Ok(options_from_js::<Page>(&options.unwrap_or(JsValue::UNDEFINED), "list options")?.cursor)
}

/// `{ servers? }`: whose resources to export.
#[derive(Deserialize, Default)]
struct ExportOptions {
    servers: Option<Vec<String>>,
}

#[wasm_bindgen(js_class = McpRuntime)]
impl JsRuntime {
    /// One page of a server's resources: `{ resources, nextCursor? }`; pass `{ cursor: nextCursor }` for the next.
    #[wasm_bindgen(js_name = listResources, unchecked_return_type = "Promise<ListResourcesResult>")]
    pub fn list_resources(
        &self,
        server: String,
        #[wasm_bindgen(unchecked_optional_param_type = "{ cursor?: string }")] options: Option<JsValue>,
    ) -> Promise {
        self.read(server, cursor(options).map(FeatureRead::ResourcesPage))
    }

    /// One page of a server's resource templates: `{ resourceTemplates, nextCursor? }`.
    #[wasm_bindgen(js_name = listResourceTemplates, unchecked_return_type = "Promise<ListResourceTemplatesResult>")]
    pub fn list_resource_templates(
        &self,
        server: String,
        #[wasm_bindgen(unchecked_optional_param_type = "{ cursor?: string }")] options: Option<JsValue>,
    ) -> Promise {
        self.read(server, cursor(options).map(FeatureRead::ResourceTemplatesPage))
    }

    /// Reads a resource: `{ contents: [{ uri, mimeType?, text } | { uri, mimeType?, blob }] }` (`blob` is base64).
    #[wasm_bindgen(js_name = readResource, unchecked_return_type = "Promise<ReadResourceResult>")]
    pub fn read_resource(&self, server: String, uri: String) -> Promise {
        self.read(server, Ok(FeatureRead::Resource(uri)))
    }

    /// Subscribes to a resource: each change is a `resourceUpdated` event, for as long as the server is configured
    /// (a restarted server is subscribed again) or until `unsubscribeResource`.
    #[wasm_bindgen(js_name = subscribeResource, unchecked_return_type = "Promise<void>")]
    pub fn subscribe_resource(&self, server: String, uri: String) -> Promise {
        self.feature(move |manager| async move {
            manager.subscribe_resource(&server, &uri).await?;
            Ok(JsValue::UNDEFINED)
        })
    }

    /// Ends a subscription.
    #[wasm_bindgen(js_name = unsubscribeResource, unchecked_return_type = "Promise<void>")]
    pub fn unsubscribe_resource(&self, server: String, uri: String) -> Promise {
        self.feature(move |manager| async move {
            manager.unsubscribe_resource(&server, &uri).await?;
            Ok(JsValue::UNDEFINED)
        })
    }

    /// The resource URIs of a server subscribed to.
    #[wasm_bindgen(js_name = resourceSubscriptions)]
    pub fn resource_subscriptions(&self, server: String) -> Vec<String> {
        self.inner.runtime.manager().resource_subscriptions(&server)
    }

    /// Every resource of the named servers (started if needed), or of every connected server that offers
    /// resources, for a picker: `{ resources: [{ server, uri, name, … }], errors: [{ server, code, message }] }`. A
    /// server that fails is reported in `errors`, never hiding the others' resources.
    #[wasm_bindgen(js_name = exportResources, unchecked_return_type = "Promise<ResourceExport>")]
    pub fn export_resources(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "{ servers?: string[] }")] options: Option<JsValue>,
    ) -> Promise {
        let chosen = options_from_js::<ExportOptions>(&options.unwrap_or(JsValue::UNDEFINED), "export options");
        self.feature(move |manager| async move {
            let servers = match chosen?.servers {
                Some(servers) => servers,
                None => manager
                    .health_all()
                    .into_iter()
                    .filter(|health| manager.client(&health.name).is_some_and(|c| c.offers_resources()))
                    .map(|health| health.name)
                    .collect(),
            };
            let (mut resources, mut errors) = (Vec::new(), Vec::new());
            for server in servers {
                let listed = match manager.connected(&server).await {
                    Ok(client) => client.list_resources_raw().await.map_err(mcp_worker_runtime::Error::from),
                    Err(error) => Err(error),
                };
                match listed {
                    Ok(listed) => {
                        // `server` last: it wins over a member of that name of the server's own.
                        let name = serde_json::to_string(&server).unwrap_or_default();
                        let entries = listed.iter().filter_map(|entry| with_last_member(entry.get(), "server", &name));
                        resources.extend(entries);
                    }
                    Err(error) => {
                        errors.push(json!({"server": server, "code": error.code(), "message": error.to_string()}));
                    }
                }
            }
            let errors = serde_json::to_string(&errors).map_err(|e| JsFailure::new("INTERNAL", e.to_string()))?;
            json_text_to_js(&format!("{{\"resources\":[{}],\"errors\":{errors}}}", resources.join(",")))
        })
    }

    /// One page of a server's prompts: `{ prompts, nextCursor? }`.
    #[wasm_bindgen(js_name = listPrompts, unchecked_return_type = "Promise<ListPromptsResult>")]
    pub fn list_prompts(
        &self,
        server: String,
        #[wasm_bindgen(unchecked_optional_param_type = "{ cursor?: string }")] options: Option<JsValue>,
    ) -> Promise {
        self.read(server, cursor(options).map(FeatureRead::PromptsPage))
    }

    /// Gets a prompt with its arguments (values are strings): `{ description?, messages }`.
    #[wasm_bindgen(js_name = getPrompt, unchecked_return_type = "Promise<GetPromptResult>")]
    pub fn get_prompt(
        &self,
        server: String,
        name: String,
        #[wasm_bindgen(unchecked_optional_param_type = "Record<string, string>")] args: Option<JsValue>,
    ) -> Promise {
        let args = args.filter(|a| !a.is_undefined() && !a.is_null());
        let arguments = args.map(|a| from_js::<NameMap<String>>(&a, "prompt arguments")).transpose();
        self.read(server, arguments.map(|arguments| FeatureRead::Prompt(name, arguments)))
    }

    /// Suggestions for an argument of a prompt (`{ type: "ref/prompt", name }`) or a resource template
    /// (`{ type: "ref/resource", uri }`): `{ completion: { values, total?, hasMore? } }`.
    #[wasm_bindgen(unchecked_return_type = "Promise<CompleteResult>")]
    pub fn complete(
        &self,
        server: String,
        #[wasm_bindgen(unchecked_param_type = "CompletionReference")] reference: JsValue,
        #[wasm_bindgen(unchecked_param_type = "{ name: string; value: string }")] argument: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "{ arguments?: Record<string, string> }")] context: Option<
            JsValue,
        >,
    ) -> Promise {
        let reference = from_js::<CompletionReference>(&reference, "completion reference");
        let argument = from_js::<CompletionArgument>(&argument, "completion argument");
        let context = context
            .filter(|c| !c.is_undefined() && !c.is_null())
            .map(|c| from_js::<CompletionContext>(&c, "completion context"))
            .transpose();
        let read = (|| Ok(FeatureRead::Completion(reference?, argument?, context?)))();
        self.read(server, read)
    }

    /// Asks a server for log messages of `level` and more severe (`serverLog` events), now and after restarts.
    #[wasm_bindgen(js_name = setLogLevel, unchecked_return_type = "Promise<void>")]
    pub fn set_log_level(
        &self,
        server: String,
        #[wasm_bindgen(unchecked_param_type = "LoggingLevel")] level: JsValue,
    ) -> Promise {
        let level = from_js::<LoggingLevel>(&level, "log level");
        self.feature(move |manager| async move {
            manager.set_logging_level(&server, level?).await?;
            Ok(JsValue::UNDEFINED)
        })
    }

    /// Replaces the roots servers are answered (`roots/list`) and tells every running server they changed. Throws
    /// `INVALID_INPUT` for a root that is not `{ uri, name? }`, or when the runtime was created without `roots`.
    #[wasm_bindgen(js_name = setRoots)]
    pub fn set_roots(
        &self,
        #[wasm_bindgen(unchecked_param_type = "{ uri: string; name?: string }[]")] roots: JsValue,
    ) -> Result<(), JsValue> {
        self.inner.open()?;
        let roots: Vec<Value> = from_js(&roots, "roots")?;
        self.inner.runtime.set_roots(roots).map_err(JsFailure::from)?;
        Ok(())
    }
}

impl JsRuntime {
    /// Reads a feature of `server` (started if it is not running), as a promise of the MCP result as the server sent
    /// it ([`mcp_worker_client::session::McpClient::read_raw`]), parsed by the engine.
    fn read(&self, server: String, read: Result<FeatureRead, JsFailure>) -> Promise {
        self.feature(move |manager| async move {
            let read = read?;
            let answer = manager.connected(&server).await?.read_raw(read).await?;
            json_text_to_js(answer.get())
        })
    }

    /// Runs `f` with the manager once the runtime is known to be open, as a promise.
    fn feature<F, Fut>(&self, f: F) -> Promise
    where
        F: FnOnce(mcp_worker_runtime::manager::McpTransportManager) -> Fut + 'static,
        Fut: std::future::Future<Output = Result<JsValue, JsFailure>> + 'static,
    {
        let inner = self.inner.clone();
        promise(async move {
            inner.open()?;
            Ok(f(inner.runtime.manager().clone()).await?)
        })
    }
}
