//! `tools/list` and `tools/call`.

use super::{Session, Work};
use crate::context::Carried;
use crate::pagination;
use crate::state::ToolsPage;
use mcp_worker_protocol::{CallToolResult, ErrorObject, ListToolsResult, PaginatedParams, Request};
use serde::Deserialize;
use serde_json::value::RawValue;
use std::rc::Rc;

/// `tools/call` params, with the arguments left raw so they deserialize straight into the tool's type.
#[derive(Deserialize)]
struct CallParams<'a> {
    name: String,
    #[serde(borrow, default)]
    arguments: Option<&'a RawValue>,
}

impl Session {
    /// A `tools/list` result: `complete` makes a page into the era's result (the modern one, with its caching hint,
    /// or the page as it is). The first page's result is kept until the tools change: most servers list all their
    /// tools in one page, and every client asks for it again after each change notification. The same `Rc` stands
    /// for the same kept text, which a transport may rely on ([`crate::KeptFrame`]).
    pub(super) fn tools_list_result(
        &self,
        params: PaginatedParams,
        modern: bool,
        complete: impl FnOnce(ListToolsResult) -> Result<String, ErrorObject>,
    ) -> Result<Rc<str>, ErrorObject> {
        let first = params.cursor.is_none();
        let version = self.state.registry.borrow().tools.version();
        if first
            && let Some(page) = &*self.state.first_tools_page.borrow()
            && page.version == version
            && page.modern == modern
        {
            return Ok(page.result.clone());
        }
        let result: Rc<str> = Rc::from(complete(self.list_tools(params)?)?);
        if first {
            *self.state.first_tools_page.borrow_mut() = Some(ToolsPage { version, modern, result: result.clone() });
        }
        Ok(result)
    }

    fn list_tools(&self, params: PaginatedParams) -> Result<ListToolsResult, ErrorObject> {
        let registry = self.state.registry.borrow();
        let all = registry.tools.all();
        let (range, next) = pagination::page(all.len(), params.cursor.as_deref(), self.state.config.page_size)?;
        Ok(ListToolsResult::new(all[range].iter().map(|t| t.definition.clone()).collect(), next))
    }

    pub(super) fn call_tool(&self, request: &Request, carried: Carried) -> Result<Work<CallToolResult>, ErrorObject> {
        let text = request.params.as_deref().map_or("null", RawValue::get);
        let params: CallParams<'_> = mcp_worker_protocol::json::from_str(text)
            .map_err(|e| ErrorObject::invalid_params(format!("invalid params: {e}")))?;
        // The handler is cloned out so that the registry is free while it runs (it may add or remove tools).
        let handler = self.state.registry.borrow().tools.get(&params.name).map(|t| t.handler.clone());
        let Some(handler) = handler else {
            return Err(ErrorObject::invalid_params(format!("Unknown tool: {}", params.name))
                .with_data(mcp_worker_protocol::members::object([("tool", params.name.into())])));
        };
        let (ctx, cancel) = self.context(request, carried);
        let work = handler(ctx, params.arguments);
        let (state, id) = (self.state.clone(), request.id.clone());
        Ok((
            cancel,
            Box::pin(async move {
                let mut result = work.await;
                if let Some(detacher) = state.peer.detacher() {
                    detacher.detach_call_result(&id, &mut result);
                }
                Ok(result)
            }),
        ))
    }
}
