//! `prompts/list` and `prompts/get`.

use super::{Session, parse_params};
use crate::pagination;
use mcp_worker_protocol::{ErrorObject, GetPromptParams, ListPromptsResult, PaginatedParams, Request};

impl Session {
    pub(super) fn list_prompts(&self, params: PaginatedParams) -> Result<ListPromptsResult, ErrorObject> {
        let registry = self.state.registry.borrow();
        let all = registry.prompts.all();
        let (range, next) = pagination::page(all.len(), params.cursor.as_deref(), self.state.config.page_size)?;
        Ok(ListPromptsResult { prompts: all[range].iter().map(|p| p.definition.clone()).collect(), next_cursor: next })
    }

    pub(super) fn get_prompt(&self, request: Request) {
        let params: GetPromptParams = match parse_params(request.params.as_deref()) {
            Ok(p) => p,
            Err(error) => return self.state.peer.reply::<()>(&request.id, Err(error)),
        };
        let get = self.state.registry.borrow().prompts.get(&params.name).map(|p| p.get.clone());
        let Some(get) = get else {
            let error = ErrorObject::invalid_params(format!("Unknown prompt: {}", params.name))
                .with_data(serde_json::json!({ "prompt": params.name }));
            return self.state.peer.reply::<()>(&request.id, Err(error));
        };
        let (ctx, cancel) = self.context(&request);
        let work = get(ctx, params.arguments.unwrap_or_default());
        self.spawn_request(request.id, cancel, work);
    }
}
