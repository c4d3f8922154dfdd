//! `prompts/list` and `prompts/get`.

use super::{Session, Work, parse_params};
use crate::context::Modern;
use crate::pagination;
use mcp_worker_protocol::{ErrorObject, GetPromptParams, GetPromptResult, ListPromptsResult, PaginatedParams, Request};

impl Session {
    pub(super) fn list_prompts(&self, params: PaginatedParams) -> Result<ListPromptsResult, ErrorObject> {
        let registry = self.state.registry.borrow();
        let all = registry.prompts.all();
        let (range, next) = pagination::page(all.len(), params.cursor.as_deref(), self.state.config.page_size)?;
        Ok(ListPromptsResult { prompts: all[range].iter().map(|p| p.definition.clone()).collect(), next_cursor: next })
    }

    pub(super) fn get_prompt(
        &self,
        request: &Request,
        modern: Option<Modern>,
    ) -> Result<Work<GetPromptResult>, ErrorObject> {
        let params: GetPromptParams = parse_params(request.params.as_deref())?;
        let get = self.state.registry.borrow().prompts.get(&params.name).map(|p| p.get.clone());
        let Some(get) = get else {
            return Err(ErrorObject::invalid_params(format!("Unknown prompt: {}", params.name))
                .with_data(serde_json::json!({ "prompt": params.name })));
        };
        let (ctx, cancel) = self.context(request, modern);
        Ok((cancel, get(ctx, params.arguments.unwrap_or_default())))
    }
}
