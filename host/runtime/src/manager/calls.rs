//! Tool calls through the manager, rediscovery on `list_changed`, and the watch on cancelled calls.

use super::lifecycle::list_tools;
use super::resource_tool::{self, RESOURCE_TOOL};
use super::{Inner, ListKind, ManagerEvent, McpTransportManager};
use crate::tool_system::McpCaller;
use crate::{Error, Result};
use futures_util::future::LocalBoxFuture;
use mcp_worker_client::Error as ClientError;
use mcp_worker_client::McpClient;
use mcp_worker_client::connection::{CancelEvent, FloodReport, ProgressHandler, RequestOptions};
use mcp_worker_client::session::CallOptions;
use mcp_worker_protocol::notifications::ProgressParams;
use mcp_worker_protocol::{Notification, methods};
use serde_json::value::RawValue;
use std::rc::Rc;

impl McpTransportManager {
    /// Calls `tool` (the server's own name for it) on `server`, starting the server first if it is not running.
    /// The timeout is the call's, else the server config's, else the manager's default. Returns the
    /// `CallToolResult` as JSON text; a tool's own failure (`isError: true`) is an `Ok` result.
    pub async fn call_tool(
        &self,
        server: &str,
        tool: &str,
        arguments: Option<&RawValue>,
        options: CallOptions,
    ) -> Result<Box<RawValue>> {
        self.inner.call_tool(server, tool, arguments, options).await
    }
}

impl McpCaller for McpTransportManager {
    fn call_tool(
        &self,
        server: &str,
        tool: &str,
        arguments: Box<RawValue>,
        options: CallOptions,
    ) -> LocalBoxFuture<'static, Result<Box<RawValue>>> {
        let inner = self.inner.clone();
        let (server, tool) = (server.to_owned(), tool.to_owned());
        Box::pin(async move { inner.call_tool(&server, &tool, Some(&arguments), options).await })
    }
}

impl Inner {
    async fn call_tool(
        self: &Rc<Self>,
        server: &str,
        tool: &str,
        arguments: Option<&RawValue>,
        mut options: CallOptions,
    ) -> Result<Box<RawValue>> {
        let client = self.ensure_connected(server, false).await?;
        let resource_tool = self.slots.borrow().get(server).is_some_and(|slot| slot.resource_tool);
        if resource_tool && tool == RESOURCE_TOOL {
            return read_resource_as_tool(&client, arguments).await;
        }
        let configured = self.slots.borrow().get(server).and_then(|slot| slot.config.timeout_ms);
        options.timeout_ms = Some(options.timeout_ms.or(configured).unwrap_or(self.options.default_timeout_ms));
        if self.options.report_progress || options.on_progress.is_some() {
            options.on_progress = Some(self.progress_reporter(server, options.on_progress.take()));
        }
        let outcome = client.call_tool_raw(tool, arguments, options).await.map_err(Error::from);
        let now = self.runtime.now_ms();
        let changed = match &outcome {
            Ok(_) => self.with_slot(server, |slot| slot.health.succeeded(now)).unwrap_or(false),
            Err(error) if error.code() == "ABORTED" => false,
            // A server that went down with the call says so in its own status events.
            Err(_) => self.with_slot(server, |slot| slot.health.call_failed()).unwrap_or(false),
        };
        if changed {
            self.emit_status(server);
        }
        outcome
    }

    /// Reports a call's progress as an event, then to the caller's own handler.
    fn progress_reporter(self: &Rc<Self>, server: &str, caller: Option<ProgressHandler>) -> ProgressHandler {
        let weak = Rc::downgrade(self);
        let server = server.to_owned();
        Rc::new(move |progress: &ProgressParams| {
            if let Some(inner) = weak.upgrade() {
                inner.events.emit(&ManagerEvent::Progress { server: server.clone(), progress: progress.clone() });
            }
            if let Some(caller) = &caller {
                caller(progress);
            }
        })
    }

    /// A notification from a running server.
    /// Reports what a server of this generation sent beyond its limits.
    pub(super) fn throttled(&self, name: &str, generation: u64, report: &FloodReport) {
        if self.current(name, generation, |_| ()).is_some() {
            self.events.emit(&ManagerEvent::Throttled { server: name.to_owned(), report: *report });
        }
    }

    pub(super) fn notified(self: &Rc<Self>, name: &str, generation: u64, notification: &Notification) {
        if notification.method == methods::LOG_MESSAGE {
            let params = notification.params.as_deref().map(|raw| mcp_worker_protocol::json::from_str(raw.get()));
            // A malformed log message is the server's problem; nothing to report.
            if let Some(Ok(message)) = params {
                self.events.emit(&ManagerEvent::Log { server: name.to_owned(), message });
            }
            return;
        }
        if notification.method == methods::RESOURCES_UPDATED {
            self.resource_updated(name, generation, notification);
            return;
        }
        let list = match notification.method.as_str() {
            methods::TOOLS_LIST_CHANGED => ListKind::Tools,
            methods::RESOURCES_LIST_CHANGED => ListKind::Resources,
            methods::PROMPTS_LIST_CHANGED => ListKind::Prompts,
            _ => return,
        };
        if list == ListKind::Tools {
            self.rediscover(name, generation);
        }
        self.events.emit(&ManagerEvent::ListChanged { server: name.to_owned(), list });
    }

    /// Lists the server's tools again and updates the registry; one run at a time, and one more if another
    /// notification came during it.
    fn rediscover(self: &Rc<Self>, name: &str, generation: u64) {
        let start = self.current(name, generation, |slot| {
            if slot.discovery.running {
                slot.discovery.again = true;
                false
            } else {
                slot.discovery.running = true;
                true
            }
        });
        if start != Some(true) {
            return;
        }
        let weak = Rc::downgrade(self);
        let server = name.to_owned();
        self.runtime.spawn(Box::pin(async move {
            loop {
                let Some(inner) = weak.upgrade() else { return };
                let found = inner.current(&server, generation, |slot| (slot.client.clone(), slot.config.clone()));
                let Some((Some(client), config)) = found else { return };
                match list_tools(&client, inner.registry.limits().max_tools_per_server, &config).await {
                    Ok((tools, resource_tool)) => {
                        let allow_destructive = config.allow_destructive_tools;
                        let registered = inner.registry.replace_listed_server_tools(&server, tools, allow_destructive);
                        inner.current(&server, generation, |slot| {
                            slot.resource_tool = resource_tool;
                            slot.health.tool_count = registered.registered.len();
                            if let Some(problems) = registered.problems(&server) {
                                slot.health.last_error = Some(problems);
                            }
                        });
                        inner.emit_status(&server);
                        inner
                            .events
                            .emit(&ManagerEvent::ToolsChanged { server: server.clone(), tools: registered.registered });
                    }
                    Err(error) => {
                        inner.current(&server, generation, |slot| {
                            slot.health.last_error = Some(format!("rediscovery failed: {error}"));
                        });
                        inner.emit_status(&server);
                    }
                }
                let again = inner.current(&server, generation, |slot| {
                    let again = std::mem::take(&mut slot.discovery.again);
                    slot.discovery.running = again;
                    again
                });
                if again != Some(true) {
                    return;
                }
            }
        }));
    }

    /// The host cancelled a call on this server (timeout or abort), or the server reported progress on one.
    pub(super) fn cancel_event(self: &Rc<Self>, name: &str, generation: u64, event: &CancelEvent) {
        let grace = self.options.cancel_grace_ms;
        match *event {
            CancelEvent::ProgressAfterCancel { since_ms, .. } if since_ms > f64::from(grace) => {
                // Whole milliseconds, as an integer: `f64`'s `Display` links the standard library's float
                // formatting, and nothing else in the host needs it.
                #[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "more than the grace")]
                let since_ms = since_ms.round() as u64;
                let reason = format!(
                    "it kept working on a cancelled request ({since_ms} ms after the cancellation; grace {grace} ms)"
                );
                self.terminate(name, generation, reason);
            }
            CancelEvent::Sent { .. } => self.watch_after_cancel(name, generation),
            _ => {}
        }
    }

    /// After the grace period, checks that the server still answers `ping`; one that does not is wedged (a busy
    /// loop ignoring the cancellation, say) and is terminated. One watch at a time per server.
    fn watch_after_cancel(self: &Rc<Self>, name: &str, generation: u64) {
        let armed = self.current(name, generation, |slot| !std::mem::replace(&mut slot.watchdog_armed, true));
        if armed != Some(true) {
            return;
        }
        let grace = self.options.cancel_grace_ms;
        let weak = Rc::downgrade(self);
        let server = name.to_owned();
        let sleep = self.runtime.sleep(grace);
        self.runtime.spawn(Box::pin(async move {
            sleep.await;
            let Some(inner) = weak.upgrade() else { return };
            let Some(Some(client)) = inner.current(&server, generation, |slot| slot.client.clone()) else { return };
            drop(inner);
            let probe = client.connection().request(methods::PING, None::<&()>, RequestOptions::timeout(grace));
            let outcome = probe.await;
            let Some(inner) = weak.upgrade() else { return };
            inner.current(&server, generation, |slot| slot.watchdog_armed = false);
            if let Err(ClientError::Timeout { .. }) = outcome {
                let reason = format!("it did not answer ping within {grace} ms after a cancelled request");
                inner.terminate(&server, generation, reason);
            }
        }));
    }

    /// Terminates the worker (its pending calls fail with [`Error::Terminated`]); the close counts as a failure and
    /// the server restarts after the backoff.
    fn terminate(self: &Rc<Self>, name: &str, generation: u64, reason: String) {
        let client = self.current(name, generation, |slot| slot.client.clone()).flatten();
        if let Some(client) = client {
            client.close_with(ClientError::Terminated { server: name.to_owned(), reason });
        }
    }
}

/// A call of the `read_resource` tool the manager added: the read as a tool result (a refused read included, for
/// the model to read); only a connection failure is an error.
async fn read_resource_as_tool(client: &McpClient, arguments: Option<&RawValue>) -> Result<Box<RawValue>> {
    let result = match resource_tool::uri_argument(arguments) {
        Err(message) => resource_tool::refusal_as_tool_result(&message),
        Ok(uri) => match client.read_resource(&uri).await {
            Ok(read) => resource_tool::read_as_tool_result(&read),
            Err(error) if error.is_fatal() => return Err(error.into()),
            Err(error) => resource_tool::refusal_as_tool_result(&format!("reading {uri} failed: {error}")),
        },
    };
    serde_json::value::to_raw_value(&result).map_err(|e| Error::invalid(e.to_string()))
}
