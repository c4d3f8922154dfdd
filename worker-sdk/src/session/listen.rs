//! `subscriptions/listen` (MCP 2026-07-28): a request that stays open and carries the change notifications the
//! client opted in to, each tagged with the request's id. The server acknowledges what it agrees to carry (what it
//! offers, and resources it has) before anything else; the client ends the stream with `notifications/cancelled`.

use super::{Session, parse_params};
use crate::state::Listener;
use mcp_worker_protocol::modern::{ListenParams, SubscriptionFilter, methods as modern_methods, subscription_meta};
use mcp_worker_protocol::{ErrorObject, Request};

/// Open streams per session: enough for any client, and a bound for one that opens them in a loop.
const MAX_LISTENERS: usize = 64;

impl Session {
    pub(super) fn listen(&self, request: &Request) {
        let peer = &self.state.peer;
        let params: ListenParams = match parse_params(request.params.as_deref()) {
            Ok(params) => params,
            Err(error) => return peer.reply::<()>(&request.id, Err(error)),
        };
        if self.state.listeners.borrow().len() >= MAX_LISTENERS {
            let error = ErrorObject::invalid_request(format!(
                "{MAX_LISTENERS} subscriptions/listen streams are open already; cancel one first"
            ));
            return peer.reply::<()>(&request.id, Err(error));
        }
        let filter = self.agreed(params.notifications);
        let ack = Acknowledged { meta: subscription_meta(&request.id), notifications: &filter };
        peer.notify(modern_methods::SUBSCRIPTIONS_ACKNOWLEDGED, Some(&ack));
        self.state.listeners.borrow_mut().push(Listener { id: request.id.clone(), filter });
    }

    /// What the server agrees to carry of `wanted`: the list changes it announces, and updates of the resources
    /// it has (or its templates name).
    fn agreed(&self, wanted: SubscriptionFilter) -> SubscriptionFilter {
        let offered = &self.state.config.capabilities;
        let both =
            |offers: Option<bool>, asks: Option<bool>| (offers == Some(true) && asks == Some(true)).then_some(true);
        let resources = offered.resources.as_ref();
        // Only a server that offers resources links the lookup of a URI among them (`Offered`).
        let has_resource = self.offered.has_resource.filter(|_| resources.and_then(|r| r.subscribe) == Some(true));
        let registry = self.state.registry.borrow();
        SubscriptionFilter {
            tools_list_changed: both(offered.tools.as_ref().and_then(|t| t.list_changed), wanted.tools_list_changed),
            prompts_list_changed: both(
                offered.prompts.as_ref().and_then(|p| p.list_changed),
                wanted.prompts_list_changed,
            ),
            resources_list_changed: both(resources.and_then(|r| r.list_changed), wanted.resources_list_changed),
            resource_subscriptions: wanted
                .resource_subscriptions
                .zip(has_resource)
                .map(|(uris, has)| uris.into_iter().filter(|uri| has(&registry, uri)).collect::<Vec<_>>())
                .filter(|uris| !uris.is_empty()),
        }
    }
}

/// `notifications/subscriptions/acknowledged`'s params: the stream's `_meta` and what the server agreed to carry.
#[derive(serde::Serialize)]
struct Acknowledged<'a> {
    #[serde(rename = "_meta")]
    meta: mcp_worker_protocol::JsonObject,
    notifications: &'a SubscriptionFilter,
}
