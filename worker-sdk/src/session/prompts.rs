//! `prompts/list` and `prompts/get`.

use super::{RequestEra, Session, Work, parse_optional_params, parse_params};
use crate::context::Carried;
use crate::pagination;
use mcp_worker_protocol::{
    ErrorObject, GetPromptParams, GetPromptResult, ListPromptsResult, PaginatedParams, Request, methods,
};

/// Serves the prompts capability's requests ([`super::ServeCapability`]).
pub(super) fn serve(session: &Session, request: &Request, era: RequestEra<'_>) -> bool {
    let id = &request.id;
    let params = request.params.as_deref();
    match (request.method.as_str(), era) {
        (methods::PROMPTS_LIST, _) => {
            let listed = parse_optional_params(params).and_then(|p| session.list_prompts(p));
            session.reply_list(id, era.modern(), listed);
        }
        (methods::PROMPTS_GET, RequestEra::Handshake(token)) => {
            session.serve(id, session.get_prompt(request, Carried::Handshake(token.cloned())));
        }
        (methods::PROMPTS_GET, RequestEra::Modern(meta)) => {
            session.serve_rounds(request, meta, None, |m| session.get_prompt(request, Carried::Modern(m)));
        }
        _ => return false,
    }
    true
}

impl Session {
    pub(super) fn list_prompts(&self, params: PaginatedParams) -> Result<ListPromptsResult, ErrorObject> {
        let registry = self.state.registry.borrow();
        let all = registry.prompts.all();
        let (range, next) = pagination::page(all.len(), params.cursor.as_deref(), self.state.config.page_size)?;
        Ok(ListPromptsResult { prompts: all[range].iter().map(|p| p.definition.clone()).collect(), next_cursor: next })
    }

    pub(super) fn get_prompt(&self, request: &Request, carried: Carried) -> Result<Work<GetPromptResult>, ErrorObject> {
        let params: GetPromptParams = parse_params(request.params.as_deref())?;
        let get = self.state.registry.borrow().prompts.get(&params.name).map(|p| p.get.clone());
        let Some(get) = get else {
            return Err(ErrorObject::invalid_params(format!("Unknown prompt: {}", params.name))
                .with_data(mcp_worker_protocol::members::object([("prompt", params.name.into())])));
        };
        let (ctx, cancel) = self.context(request, carried);
        Ok((cancel, get(ctx, params.arguments.unwrap_or_default())))
    }
}
