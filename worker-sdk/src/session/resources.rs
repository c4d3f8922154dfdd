//! `resources/list`, `resources/templates/list`, `resources/read`, `resources/subscribe` and `unsubscribe`.

use super::{RequestEra, Session, Work, parse_optional_params, parse_params};
use crate::context::Carried;
use crate::pagination;
use crate::resource::ResourceRequest;
use mcp_worker_protocol::jsonrpc::EmptyResult;
use mcp_worker_protocol::modern::{CacheHint, CacheScope};
use mcp_worker_protocol::{
    ErrorObject, ListResourceTemplatesResult, ListResourcesResult, PaginatedParams, ReadResourceResult, Request,
    ResourceParams, methods,
};

/// Resource reads may hold what only this user may see, and change at any time.
const READ_CACHE: CacheHint = CacheHint { ttl_ms: 0, cache_scope: CacheScope::Private };

/// Whether `registry` has a resource of `uri`, or a template that names it.
pub(super) fn has_resource(registry: &crate::registry::Registry, uri: &str) -> bool {
    registry.resources.get(uri).is_some() || registry.match_template(uri).is_some()
}

/// Serves the resources capability's requests ([`super::ServeCapability`]). MCP 2026-07-28 removed `subscribe` and
/// `unsubscribe` (its clients listen with `subscriptions/listen`).
pub(super) fn serve(session: &Session, request: &Request, era: RequestEra<'_>) -> bool {
    let id = &request.id;
    let params = request.params.as_deref();
    match (request.method.as_str(), era) {
        (methods::RESOURCES_LIST, _) => {
            let listed = parse_optional_params(params).and_then(|p| session.list_resources(p));
            session.reply_list(id, era.modern(), listed);
        }
        (methods::RESOURCES_TEMPLATES_LIST, _) => {
            let listed = parse_optional_params(params).and_then(|p| session.list_resource_templates(p));
            session.reply_list(id, era.modern(), listed);
        }
        (methods::RESOURCES_READ, RequestEra::Handshake(token)) => {
            session.serve(id, session.read_resource(request, Carried::Handshake(token.cloned())));
        }
        (methods::RESOURCES_READ, RequestEra::Modern(meta)) => {
            let read = |m| session.read_resource(request, Carried::Modern(m));
            session.serve_rounds(request, meta, Some(READ_CACHE), read);
        }
        (methods::RESOURCES_SUBSCRIBE, RequestEra::Handshake(_)) => {
            session.state.peer.reply(id, parse_params(params).and_then(|p| session.subscribe(p)));
        }
        (methods::RESOURCES_UNSUBSCRIBE, RequestEra::Handshake(_)) => {
            session.state.peer.reply(id, parse_params(params).map(|p| session.unsubscribe(p)));
        }
        _ => return false,
    }
    true
}

impl Session {
    pub(super) fn list_resources(&self, params: PaginatedParams) -> Result<ListResourcesResult, ErrorObject> {
        let registry = self.state.registry.borrow();
        let all = registry.resources.all();
        let (range, next) = pagination::page(all.len(), params.cursor.as_deref(), self.state.config.page_size)?;
        let resources = all[range].iter().map(|r| r.definition.clone()).collect();
        Ok(ListResourcesResult { resources, next_cursor: next })
    }

    pub(super) fn list_resource_templates(
        &self,
        params: PaginatedParams,
    ) -> Result<ListResourceTemplatesResult, ErrorObject> {
        let registry = self.state.registry.borrow();
        let all = registry.templates.all();
        let (range, next) = pagination::page(all.len(), params.cursor.as_deref(), self.state.config.page_size)?;
        let resource_templates = all[range].iter().map(|t| t.definition.clone()).collect();
        Ok(ListResourceTemplatesResult { resource_templates, next_cursor: next })
    }

    pub(super) fn read_resource(
        &self,
        request: &Request,
        carried: Carried,
    ) -> Result<Work<ReadResourceResult>, ErrorObject> {
        let params: ResourceParams = parse_params(request.params.as_deref())?;
        // A static resource first, then the first template that matches; cloned out so the registry is free.
        let found = {
            let registry = self.state.registry.borrow();
            match registry.resources.get(&params.uri) {
                Some(r) => Some((r.read.clone(), r.definition.mime_type.clone(), Default::default())),
                None => registry
                    .match_template(&params.uri)
                    .map(|(t, values)| (t.read.clone(), t.definition.mime_type.clone(), values)),
            }
        };
        let Some((read, mime_type, variables)) = found else {
            return Err(ErrorObject::resource_not_found(&params.uri));
        };
        let (ctx, cancel) = self.context(request, carried);
        let work = read(ResourceRequest::new(params.uri, variables, ctx), mime_type);
        let (state, id) = (self.state.clone(), request.id.clone());
        Ok((
            cancel,
            Box::pin(async move {
                let mut result = work.await?;
                if let Some(detacher) = state.peer.detacher() {
                    detacher.detach_read_result(&id, &mut result);
                }
                Ok(result)
            }),
        ))
    }

    /// Subscribes to a resource the server has (or a URI one of its templates names), so that
    /// [`crate::ServerHandle::resource_updated`] reaches the client.
    pub(super) fn subscribe(&self, params: ResourceParams) -> Result<EmptyResult, ErrorObject> {
        if !has_resource(&self.state.registry.borrow(), &params.uri) {
            return Err(ErrorObject::resource_not_found(&params.uri));
        }
        let mut subscriptions = self.state.subscriptions.borrow_mut();
        if !subscriptions.contains(&params.uri) {
            subscriptions.push(params.uri);
        }
        Ok(EmptyResult {})
    }

    pub(super) fn unsubscribe(&self, params: ResourceParams) -> EmptyResult {
        self.state.subscriptions.borrow_mut().retain(|uri| *uri != params.uri);
        EmptyResult {}
    }
}
