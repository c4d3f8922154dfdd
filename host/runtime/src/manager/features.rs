//! A server's resources, prompts, completion and log level, through the manager: each call starts the server if it
//! is not running. Subscriptions and the log level the application asked for are the server's, not a session's:
//! they are asked again of each new session (after a restart, or a remote server's new session), and
//! `notifications/resources/updated` becomes a [`ManagerEvent::ResourceUpdated`].

use super::{Inner, ManagerEvent, McpTransportManager};
use crate::Result;
use litemap::LiteMap;
use mcp_worker_client::McpClient;
use mcp_worker_protocol::NameMap;
use mcp_worker_protocol::completion::{CompletionArgument, CompletionContext};
use mcp_worker_protocol::resources::{ListResourceTemplatesResult, ResourceUpdatedParams};
use mcp_worker_protocol::{
    CompleteResult, CompletionReference, GetPromptResult, ListPromptsResult, ListResourcesResult, LoggingLevel,
    Notification, Prompt, ReadResourceResult, Resource,
};
use std::rc::Rc;

/// What the application asked of a server that outlives its sessions.
#[derive(Debug, Default)]
pub(super) struct Interest {
    /// Resource URIs subscribed to (a set: the values are empty).
    subscriptions: LiteMap<String, ()>,
    /// The log level asked for, if one was.
    log_level: Option<LoggingLevel>,
}

impl McpTransportManager {
    /// The client of `server`, started first if it is not running: for what the manager does not wrap, such as
    /// [`McpClient::read_raw`].
    pub async fn connected(&self, server: &str) -> Result<Rc<McpClient>> {
        self.inner.ensure_connected(server, false).await
    }

    /// One page of `server`'s resources (`cursor`: the previous page's `next_cursor`).
    pub async fn list_resources(&self, server: &str, cursor: Option<String>) -> Result<ListResourcesResult> {
        let client = self.inner.ensure_connected(server, false).await?;
        Ok(client.list_resources_page(cursor).await?)
    }

    /// Every resource of `server`, all pages (at most [`mcp_worker_client::session::MAX_LISTED`]).
    pub async fn all_resources(&self, server: &str) -> Result<Vec<Resource>> {
        let client = self.inner.ensure_connected(server, false).await?;
        Ok(client.list_resources().await?)
    }

    /// One page of `server`'s resource templates.
    pub async fn list_resource_templates(
        &self,
        server: &str,
        cursor: Option<String>,
    ) -> Result<ListResourceTemplatesResult> {
        let client = self.inner.ensure_connected(server, false).await?;
        Ok(client.list_resource_templates_page(cursor).await?)
    }

    /// Reads the resource at `uri` of `server`.
    pub async fn read_resource(&self, server: &str, uri: &str) -> Result<ReadResourceResult> {
        let client = self.inner.ensure_connected(server, false).await?;
        Ok(client.read_resource(uri).await?)
    }

    /// Subscribes to the resource at `uri` of `server`: each change is a [`ManagerEvent::ResourceUpdated`], for as
    /// long as the server is configured (each new session is subscribed again) or until
    /// [`Self::unsubscribe_resource`].
    pub async fn subscribe_resource(&self, server: &str, uri: &str) -> Result<()> {
        let client = self.inner.ensure_connected(server, false).await?;
        client.subscribe_resource(uri).await?;
        self.inner.with_slot(server, |slot| slot.interest.subscriptions.insert(uri.to_owned(), ()))?;
        Ok(())
    }

    /// Ends a subscription of [`Self::subscribe_resource`].
    pub async fn unsubscribe_resource(&self, server: &str, uri: &str) -> Result<()> {
        let subscribed = self.inner.with_slot(server, |slot| slot.interest.subscriptions.remove(uri).is_some())?;
        let client = self.inner.slots.borrow().get(server).and_then(|slot| slot.client.clone());
        match client {
            // A server that is not running has no subscription to end.
            Some(client) if subscribed => Ok(client.unsubscribe_resource(uri).await?),
            _ => Ok(()),
        }
    }

    /// The resource URIs of `server` subscribed to.
    pub fn resource_subscriptions(&self, server: &str) -> Vec<String> {
        let slots = self.inner.slots.borrow();
        slots.get(server).map(|slot| slot.interest.subscriptions.keys().cloned().collect()).unwrap_or_default()
    }

    /// One page of `server`'s prompts.
    pub async fn list_prompts(&self, server: &str, cursor: Option<String>) -> Result<ListPromptsResult> {
        let client = self.inner.ensure_connected(server, false).await?;
        Ok(client.list_prompts_page(cursor).await?)
    }

    /// Every prompt of `server`, all pages.
    pub async fn all_prompts(&self, server: &str) -> Result<Vec<Prompt>> {
        let client = self.inner.ensure_connected(server, false).await?;
        Ok(client.list_prompts().await?)
    }

    /// Gets the prompt `name` of `server` with `arguments`.
    pub async fn get_prompt(
        &self,
        server: &str,
        name: &str,
        arguments: Option<NameMap<String>>,
    ) -> Result<GetPromptResult> {
        let client = self.inner.ensure_connected(server, false).await?;
        Ok(client.get_prompt(name, arguments).await?)
    }

    /// Suggestions for an argument of a prompt or resource template of `server`.
    pub async fn complete(
        &self,
        server: &str,
        reference: CompletionReference,
        argument: CompletionArgument,
        context: Option<CompletionContext>,
    ) -> Result<CompleteResult> {
        let client = self.inner.ensure_connected(server, false).await?;
        Ok(client.complete(reference, argument, context).await?)
    }

    /// Sends a notification without params (`notifications/roots/list_changed`, say) to every running server; a
    /// server whose connection just closed is skipped.
    pub fn notify_running(&self, method: &str) {
        let clients: Vec<Rc<McpClient>> =
            self.inner.slots.borrow().values().filter_map(|slot| slot.client.clone()).collect();
        for client in clients {
            let _ = client.connection().notify::<()>(method, None);
        }
    }

    /// Asks `server` for log messages of `level` and more severe, now and in each new session.
    pub async fn set_logging_level(&self, server: &str, level: LoggingLevel) -> Result<()> {
        let client = self.inner.ensure_connected(server, false).await?;
        client.set_logging_level(level).await?;
        self.inner.with_slot(server, |slot| slot.interest.log_level = Some(level))?;
        Ok(())
    }
}

impl Inner {
    /// Asks a new session of `name` for what the application asked of the server before: its log level and its
    /// subscriptions. What the session refuses is the server's last error; the subscriptions stay asked for.
    pub(super) fn renew_interest(self: &Rc<Self>, name: &str, generation: u64, client: Rc<McpClient>) {
        let wanted = self.current(name, generation, |slot| {
            (slot.interest.log_level, slot.interest.subscriptions.keys().cloned().collect::<Vec<_>>())
        });
        let Some((level, subscriptions)) = wanted else { return };
        if level.is_none() && subscriptions.is_empty() {
            return;
        }
        let weak = Rc::downgrade(self);
        let server = name.to_owned();
        self.runtime.spawn(Box::pin(async move {
            let mut refused = Vec::new();
            if let Some(level) = level
                && let Err(error) = client.set_logging_level(level).await
            {
                refused.push(format!("log level {level}: {error}"));
            }
            for uri in subscriptions {
                if let Err(error) = client.subscribe_resource(&uri).await {
                    refused.push(format!("subscription to {uri}: {error}"));
                }
            }
            let Some(inner) = weak.upgrade() else { return };
            if !refused.is_empty() {
                let message = format!("the new session refused {}", refused.join("; "));
                inner.current(&server, generation, |slot| slot.health.last_error = Some(message));
                inner.emit_status(&server);
            }
        }));
    }

    /// `notifications/resources/updated` from a server of this generation.
    pub(super) fn resource_updated(&self, name: &str, generation: u64, notification: &Notification) {
        let params = notification
            .params
            .as_deref()
            .map(|raw| mcp_worker_protocol::json::from_str::<ResourceUpdatedParams>(raw.get()));
        // A malformed notification is the server's problem; nothing to report.
        let Some(Ok(params)) = params else { return };
        if self.current(name, generation, |_| ()).is_some() {
            self.events.emit(&ManagerEvent::ResourceUpdated { server: name.to_owned(), uri: params.uri });
        }
    }
}

#[cfg(test)]
#[path = "features_tests.rs"]
mod tests;
