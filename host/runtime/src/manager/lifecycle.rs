//! Starting and stopping servers, and what happens when they fail.

use super::health::AfterFailure;
use super::platform::LaunchRequest;
use super::{Discovery, Inner, ManagerEvent, ServerStatus, Slot, StartFuture, unknown};
use crate::config::{Isolation, NetworkPolicy, ServerConfig};
use crate::manifest::BundleManifest;
use crate::{Error, Result};
use futures_channel::oneshot;
use futures_util::FutureExt;
use futures_util::future::LocalBoxFuture;
use mcp_worker_client::Error as ClientError;
use mcp_worker_client::connection::Connection;
use mcp_worker_client::sandbox::BlockedRequest;
use mcp_worker_client::session::ListedTools;
use mcp_worker_client::session::{ClientOptions, McpClient};
use std::rc::Rc;

impl Inner {
    /// The server's running client, starting it if needed. Concurrent callers share one start. `manual` starts
    /// even while an automatic restart is pending.
    pub(super) async fn ensure_connected(self: &Rc<Self>, name: &str, manual: bool) -> Result<Rc<McpClient>> {
        let (start, task) = {
            let mut slots = self.slots.borrow_mut();
            let slot = slots.get_mut(name).ok_or_else(|| unknown(name))?;
            if let Some(client) = &slot.client
                && client.connection().closed_reason().is_none()
            {
                return Ok(client.clone());
            }
            match &slot.starting {
                Some(starting) => (starting.clone(), None),
                None => {
                    if let Some(error) = unavailable(name, slot, manual) {
                        return Err(error);
                    }
                    let (start, task) = self.begin_start(name, slot);
                    (start, Some(task))
                }
            }
        };
        if let Some(task) = task {
            self.emit_status(name);
            self.runtime.spawn(task);
        }
        start.await
    }

    /// Starts a server without waiting for it.
    pub(super) fn start_in_background(self: &Rc<Self>, name: &str) {
        let inner = self.clone();
        let name = name.to_owned();
        self.runtime.spawn(Box::pin(async move {
            let _ = inner.ensure_connected(&name, false).await;
        }));
    }

    /// Registers a lazy server's tools from its bundle's manifest (in the background), so that agents see them
    /// before it starts; calling one starts it, and its own `tools/list` then replaces them. Nothing happens for a
    /// server that starts now or is disabled, a manifest without tools or that cannot be read (its start reports
    /// that), or a server that started or changed meanwhile.
    pub(super) fn preview_tools_in_background(self: &Rc<Self>, name: &str) {
        let Some((config, generation)) = self.slots.borrow().get(name).map(|s| (s.config.clone(), s.generation)) else {
            return;
        };
        if !config.enabled || config.transport.unavailable_reason().is_some() {
            return;
        }
        let inner = self.clone();
        let name = name.to_owned();
        self.runtime.spawn(Box::pin(async move {
            let Ok(Some(manifest)) = inner.launcher.manifest(&name, &config.transport).await else { return };
            if manifest.tools.is_empty() {
                return;
            }
            let idle = inner.current(&name, generation, |slot| slot.client.is_none() && slot.starting.is_none());
            if idle != Some(true) {
                return;
            }
            let registered = inner.registry.replace_server_tools(&name, manifest.tools, config.allow_destructive_tools);
            inner.current(&name, generation, |slot| slot.health.tool_count = registered.registered.len());
            inner.emit_status(&name);
            inner.events.emit(&ManagerEvent::ToolsChanged { server: name.clone(), tools: registered.registered });
        }));
    }

    /// A new start of `slot`: the future its callers await, and the task that runs it (spawned by the caller once
    /// the slots are no longer borrowed). The task runs to the end even if every caller stops waiting.
    fn begin_start(self: &Rc<Self>, name: &str, slot: &mut Slot) -> (StartFuture, LocalBoxFuture<'static, ()>) {
        slot.generation += 1;
        slot.health.connecting();
        slot.discovery = Discovery::default();
        let generation = slot.generation;
        let (tx, rx) = oneshot::channel();
        let server = name.to_owned();
        let reason = "the manager was dropped during start".into();
        let abandoned = Error::from(ClientError::Closed { server: server.clone(), reason });
        let shared = async move { rx.await.unwrap_or(Err(abandoned)) }.boxed_local().shared();
        slot.starting = Some(shared.clone());
        let weak = Rc::downgrade(self);
        let task = Box::pin(async move {
            let Some(inner) = weak.upgrade() else { return };
            let outcome = inner.start(&server, generation).await;
            let _ = tx.send(outcome);
        });
        (shared, task)
    }

    async fn start(self: &Rc<Self>, name: &str, generation: u64) -> Result<Rc<McpClient>> {
        let config = self.current(name, generation, |slot| slot.config.clone()).ok_or_else(|| stopped(name))?;
        // The manifest is read before each start, so a new bundle's new credentials and origins are the ones used.
        let manifest = match self.launcher.manifest(name, &config.transport).await {
            Ok(manifest) => manifest,
            Err(error) => {
                self.failed(name, generation, &error);
                return Err(error);
            }
        };
        let declared = match Inner::declarations(name, &config, manifest.as_ref()) {
            Ok(declared) => declared,
            Err(error) => {
                self.failed(name, generation, &error);
                return Err(error);
            }
        };
        let released = match self.release(name, &config, &declared).await {
            Ok(released) => released,
            Err(needs) => {
                let reason = needs.reason.clone();
                let waiting = self.current(name, generation, |slot| {
                    slot.starting = None;
                    slot.health.needs_credentials(reason.clone());
                    slot.needs = Some(needs.clone());
                });
                if waiting.is_some() {
                    self.emit_status(name);
                    self.events.emit(&ManagerEvent::CredentialsRequired {
                        server: name.to_owned(),
                        credentials: needs.credentials,
                        locked: needs.locked,
                        reason: needs.reason,
                        identity_change: needs.identity_change.map(|change| *change),
                    });
                }
                return Err(Error::NeedsCredentials { server: name.to_owned(), reason });
            }
        };
        let isolation = isolation_of(&config, manifest.as_ref());
        if let Isolation::Sandboxed(network) = &isolation {
            let origins = network.origins().to_vec();
            self.current(name, generation, |slot| slot.health.network = origins);
        }
        let request = LaunchRequest {
            server: name.to_owned(),
            transport: config.transport.clone(),
            env: released.env,
            headers: released.headers,
            client: self.client_options(&config),
            on_connection: self.connection_hook(name, generation),
            isolation,
            limits: self.options.worker_limits,
            on_blocked: self.blocked_hook(name),
            oauth: self.oauth_setup(name, &config),
            on_authorization_required: self.authorization_hook(name),
        };
        let client = match self.launcher.launch(request).await {
            Ok(client) => Rc::new(client),
            Err(error) if matches!(error.client(), Some(ClientError::Unauthorized { .. })) => {
                self.needs_authorization(name, generation, &error);
                return Err(error);
            }
            Err(error) => {
                self.failed(name, generation, &error);
                return Err(error);
            }
        };
        if self.current(name, generation, |_| ()).is_none() {
            client.close_with(stopped(name));
            return Err(stopped(name).into());
        }
        let (tools, resource_tool) =
            match list_tools(&client, self.registry.limits().max_tools_per_server, &config).await {
                Ok(listed) => listed,
                Err(error) => {
                    client.close_with(error.clone());
                    self.failed(name, generation, &error);
                    return Err(error.into());
                }
            };
        let registered = self.registry.replace_listed_server_tools(name, tools, config.allow_destructive_tools);
        let now = self.runtime.now_ms();
        let attached = self.current(name, generation, |slot| {
            slot.starting = None;
            slot.client = Some(client.clone());
            slot.resource_tool = resource_tool;
            slot.health.connected(registered.registered.len(), now, client.protocol_version());
            if let Some(problems) = registered.problems(name) {
                slot.health.last_error = Some(problems);
            }
        });
        if attached.is_none() {
            self.registry.unregister_server(name);
            client.close_with(stopped(name));
            return Err(stopped(name).into());
        }
        let weak = Rc::downgrade(self);
        let server = name.to_owned();
        client.connection().set_close_handler(Some(Rc::new(move |cause: &ClientError| {
            if let Some(inner) = weak.upgrade() {
                inner.closed(&server, generation, cause);
            }
        })));
        self.emit_status(name);
        self.events.emit(&ManagerEvent::ToolsChanged { server: name.to_owned(), tools: registered.registered });
        self.renew_interest(name, generation, client.clone());
        Ok(client)
    }

    /// Stops a server on the application's request.
    pub(super) fn stop(self: &Rc<Self>, name: &str, reason: &str, change: impl FnOnce(&mut Slot)) -> Result<()> {
        let client = self.with_slot(name, |slot| {
            change(slot);
            slot.generation += 1;
            slot.starting = None;
            slot.discovery = Discovery::default();
            slot.watchdog_armed = false;
            slot.health.reset(&slot.config);
            slot.client.take()
        })?;
        if let Some(client) = client {
            client.close_with(ClientError::Closed { server: name.to_owned(), reason: reason.to_owned() });
        }
        self.registry.unregister_server(name);
        self.emit_status(name);
        Ok(())
    }

    /// The running connection closed without the application asking: a crash, a closed port, a termination.
    fn closed(self: &Rc<Self>, name: &str, generation: u64, cause: &ClientError) {
        let was_running = self.current(name, generation, |slot| slot.client.take().is_some());
        if was_running == Some(true) {
            self.failed(name, generation, cause);
        }
    }

    /// Records a failure of the current generation and restarts after the backoff, or gives up.
    fn failed(self: &Rc<Self>, name: &str, generation: u64, error: &dyn std::fmt::Display) {
        let now = self.runtime.now_ms();
        let policy = self.options.failure_policy;
        let after = self.current(name, generation, |slot| {
            slot.starting = None;
            slot.client = None;
            slot.watchdog_armed = false;
            slot.health.failed(error.to_string(), &policy, now)
        });
        let restart = match after {
            None => return,
            Some(AfterFailure::GiveUp) => {
                self.registry.unregister_server(name);
                self.current(name, generation, |slot| slot.health.tool_count = 0);
                None
            }
            Some(AfterFailure::RetryAfter(ms)) => {
                self.restart_after(name, generation, ms);
                Some(ms)
            }
        };
        self.emit_status(name);
        if let Some(backoff_ms) = restart {
            let attempt = self.health_of(name).map_or(0, |health| health.consecutive_failures);
            let error = error.to_string();
            self.events.emit(&ManagerEvent::Restarting { server: name.to_owned(), attempt, backoff_ms, error });
        }
    }

    fn restart_after(self: &Rc<Self>, name: &str, generation: u64, ms: u32) {
        let weak = Rc::downgrade(self);
        let server = name.to_owned();
        let sleep = self.runtime.sleep(ms);
        self.runtime.spawn(Box::pin(async move {
            sleep.await;
            let Some(inner) = weak.upgrade() else { return };
            // Skipped when the application stopped, removed or restarted the server meanwhile.
            let still_waiting = inner.current(&server, generation, |slot| slot.health.restart_pending());
            if still_waiting == Some(true) {
                let _ = inner.ensure_connected(&server, true).await;
            }
        }));
    }

    /// Runs `f` on the slot if the server exists and is still at `generation`.
    pub(super) fn current<R>(&self, name: &str, generation: u64, f: impl FnOnce(&mut Slot) -> R) -> Option<R> {
        let mut slots = self.slots.borrow_mut();
        let slot = slots.get_mut(name).filter(|slot| slot.generation == generation)?;
        Some(f(slot))
    }

    fn client_options(&self, config: &ServerConfig) -> ClientOptions {
        let mut options = self.options.client.clone();
        options.protocol = config.protocol;
        options.request_timeout_ms = self.options.default_timeout_ms;
        if let Some(handlers) = &self.options.server_requests {
            options.capabilities = handlers.declare(options.capabilities);
        }
        options
    }

    /// Reports a request the browser blocked: in the server's health and as [`ManagerEvent::NetworkBlocked`].
    fn blocked_hook(self: &Rc<Self>, name: &str) -> Rc<dyn Fn(BlockedRequest)> {
        let weak = Rc::downgrade(self);
        let server = name.to_owned();
        Rc::new(move |request: BlockedRequest| {
            let Some(inner) = weak.upgrade() else { return };
            let known = inner.with_slot(&server, |slot| {
                slot.health.blocked_requests = slot.health.blocked_requests.saturating_add(1);
                slot.health.last_blocked_origin = Some(request.origin.clone());
            });
            if known.is_ok() {
                inner.emit_status(&server);
                inner.events.emit(&ManagerEvent::NetworkBlocked { request });
            }
        })
    }

    /// Installed on each new connection before `initialize`: server requests, notifications, cancellation watch.
    fn connection_hook(self: &Rc<Self>, name: &str, generation: u64) -> Rc<dyn Fn(&Connection)> {
        let weak = Rc::downgrade(self);
        let server = name.to_owned();
        let handlers = self.options.server_requests.clone();
        Rc::new(move |connection: &Connection| {
            connection.set_server_request_handlers(handlers.clone());
            let (w, s) = (weak.clone(), server.clone());
            connection.set_notification_handler(Some(Rc::new(move |notification| {
                if let Some(inner) = w.upgrade() {
                    inner.notified(&s, generation, notification);
                }
            })));
            let (w, s) = (weak.clone(), server.clone());
            connection.set_flood_handler(Some(Rc::new(move |report| {
                if let Some(inner) = w.upgrade() {
                    inner.throttled(&s, generation, report);
                }
            })));
            let (w, s) = (weak.clone(), server.clone());
            connection.set_cancel_handler(Some(Rc::new(move |event| {
                if let Some(inner) = w.upgrade() {
                    inner.cancel_event(&s, generation, event);
                }
            })));
        })
    }
}

/// Why a server cannot start now, if it cannot.
fn unavailable(name: &str, slot: &Slot, manual: bool) -> Option<Error> {
    let error =
        |status: ServerStatus, reason: String| Some(Error::Unavailable { server: name.to_owned(), status, reason });
    let last = slot.health.last_error.clone().unwrap_or_default();
    if !slot.config.enabled {
        return error(ServerStatus::Disabled, "it is disabled in its configuration".into());
    }
    if let Some(reason) = slot.config.transport.unavailable_reason() {
        return error(ServerStatus::Error, reason.into());
    }
    match slot.health.status {
        ServerStatus::Error => error(
            ServerStatus::Error,
            format!(
                "it failed {} times in a row (last: {last}); reconnect it to try again",
                slot.health.consecutive_failures
            ),
        ),
        _ if slot.health.restart_pending() && !manual => {
            error(ServerStatus::Connecting, format!("it is restarting after a failure ({last})"))
        }
        _ => None,
    }
}

/// Where `config`'s server runs: sandboxed with the origins of its config and of its bundle's manifest, or on the
/// page's origin when its config says so.
fn isolation_of(config: &ServerConfig, manifest: Option<&BundleManifest>) -> Isolation {
    match (&config.isolation, manifest) {
        (Isolation::Sandboxed(network), Some(manifest)) => {
            let origins = network.origins().iter().chain(manifest.network.origins());
            // Both lists were normalised when read: they are origins.
            Isolation::Sandboxed(NetworkPolicy::allow(origins).unwrap_or_default())
        }
        (isolation, _) => isolation.clone(),
    }
}

fn stopped(name: &str) -> ClientError {
    ClientError::Closed { server: name.to_owned(), reason: "the server was stopped during its start".into() }
}

/// The tools of a server that offers tools: the first `max` decoded, the rest counted.
/// The server's tools (at most `max` decoded), with the `read_resource` tool when its config asks for it (and
/// whether it was added).
pub(super) async fn list_tools(
    client: &McpClient,
    max: usize,
    config: &ServerConfig,
) -> mcp_worker_client::Result<(ListedTools, bool)> {
    let mut listed = match client.server_info().capabilities.tools {
        Some(_) => client.list_tools_upto(max).await?,
        None => ListedTools::default(),
    };
    let added = config.resource_tool && super::resource_tool::add_resource_tool(&mut listed, client, &config.name);
    Ok((listed, added))
}
