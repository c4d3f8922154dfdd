//! `tools/list` and `tools/call`.

use super::Session;
use crate::pagination;
use mcp_worker_protocol::{ErrorObject, ListToolsResult, PaginatedParams, Request};
use serde::Deserialize;
use serde_json::value::RawValue;

/// `tools/call` params, with the arguments left raw so they deserialize straight into the tool's type.
#[derive(Deserialize)]
struct CallParams<'a> {
    name: String,
    #[serde(borrow, default)]
    arguments: Option<&'a RawValue>,
}

impl Session {
    pub(super) fn list_tools(&self, params: PaginatedParams) -> Result<ListToolsResult, ErrorObject> {
        let registry = self.state.registry.borrow();
        let all = registry.tools.all();
        let (range, next) = pagination::page(all.len(), params.cursor.as_deref(), self.state.config.page_size)?;
        Ok(ListToolsResult::new(all[range].iter().map(|t| t.definition.clone()).collect(), next))
    }

    pub(super) fn call_tool(&self, request: Request) {
        let text = request.params.as_deref().map_or("null", RawValue::get);
        let params: CallParams<'_> = match serde_json::from_str(text) {
            Ok(p) => p,
            Err(e) => {
                let error = ErrorObject::invalid_params(format!("invalid params: {e}"));
                return self.state.peer.reply::<()>(&request.id, Err(error));
            }
        };
        // The handler is cloned out so that the registry is free while it runs (it may add or remove tools).
        let handler = self.state.registry.borrow().tools.get(&params.name).map(|t| t.handler.clone());
        let Some(handler) = handler else {
            let error = ErrorObject::invalid_params(format!("Unknown tool: {}", params.name))
                .with_data(serde_json::json!({ "tool": params.name }));
            return self.state.peer.reply::<()>(&request.id, Err(error));
        };
        let (ctx, cancel) = self.context(&request);
        let work = handler(ctx, params.arguments);
        self.spawn_request(request.id, cancel, async move { Ok::<_, ErrorObject>(work.await) });
    }
}
