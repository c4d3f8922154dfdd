//! What the hub listens to: the manager (status, restarts, logs, progress, credentials), the registry (tools
//! added and removed, clashes of names, tool lists past the limits) and the tool system (finished executions).

use super::events::{
    AuthorizationRequiredEvent, CredentialsRequiredEvent, EventBody, ListChangedEvent, ProgressEvent,
    ResourceUpdatedEvent, ServerEvent, ServerLogEvent, ServerRestartingEvent, ServerStatusEvent, ServerThrottledEvent,
    ToolsChangedEvent, ToolsHiddenEvent,
};
use super::hub::{HubInner, ObservationManager};
use crate::manager::{ListKind, ManagerEvent, McpTransportManager};
use crate::registry::{HiddenTool, RegistryChange, ToolFilter, ToolRegistry};
use crate::tool_system::{ExecutionEvent, ToolSystem};
use litemap::LiteMap;
use serde_json::Value;
use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::rc::{Rc, Weak};

/// Subscriptions of the hub to the runtime's parts; dropping it ends them.
#[derive(Default)]
pub struct Watches {
    stops: Vec<Box<dyn FnOnce()>>,
}

impl fmt::Debug for Watches {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Watches").field("count", &self.stops.len()).finish()
    }
}

impl Watches {
    /// None yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds the watches of `other`.
    pub fn extend(&mut self, other: Watches) {
        let mut other = other;
        self.stops.append(&mut other.stops);
    }

    /// A watch that runs `stop` when dropped.
    pub fn on_drop(stop: impl FnOnce() + 'static) -> Self {
        Self { stops: vec![Box::new(stop)] }
    }
}

impl Drop for Watches {
    fn drop(&mut self) {
        for stop in self.stops.drain(..) {
            stop();
        }
    }
}

fn hub(weak: &Weak<HubInner>) -> Option<ObservationManager> {
    weak.upgrade().map(ObservationManager::from_inner)
}

impl ObservationManager {
    /// Publishes the manager's events: `serverStatus`, `credentialsRequired` (when a server cannot start without
    /// credentials: which, with their descriptions from its manifest and config), `serverRemoved`,
    /// `serverRestarting`, `serverLog`, `progress`, `listChanged` for resources and prompts (tool list changes
    /// come from [`Self::watch_registry`]), and `toolsHidden` when a server's tools are registered and some are
    /// hidden from agents.
    pub fn watch_manager(&self, manager: &McpTransportManager) -> Watches {
        let weak = self.downgrade();
        let registry = manager.registry().clone();
        let id = manager.subscribe(Rc::new(move |event: &ManagerEvent| {
            let Some(hub) = hub(&weak) else { return };
            match event {
                ManagerEvent::Status { health } => {
                    hub.emit(EventBody::ServerStatus(ServerStatusEvent::from(health)));
                }
                ManagerEvent::ToolsChanged { server, .. } => {
                    let tools = registry.hidden_of(server);
                    if !tools.is_empty() {
                        hub.emit(EventBody::ToolsHidden(ToolsHiddenEvent { server: Some(server.clone()), tools }));
                    }
                }
                ManagerEvent::CredentialsRequired { server, credentials, locked, reason, identity_change } => {
                    hub.emit(EventBody::CredentialsRequired(CredentialsRequiredEvent {
                        server: server.clone(),
                        credentials: credentials.clone(),
                        locked: *locked,
                        reason: reason.clone(),
                        identity_change: identity_change.clone(),
                    }));
                }
                ManagerEvent::Removed { server } => {
                    hub.redactor().forget_server(server);
                    hub.emit(EventBody::ServerRemoved(ServerEvent { server: server.clone() }));
                }
                ManagerEvent::Restarting { server, attempt, backoff_ms, error } => {
                    hub.emit(EventBody::ServerRestarting(ServerRestartingEvent {
                        server: server.clone(),
                        attempt: *attempt,
                        backoff_ms: *backoff_ms,
                        reason: error.clone(),
                    }));
                }
                ManagerEvent::ResourceUpdated { server, uri } => {
                    hub.emit(EventBody::ResourceUpdated(ResourceUpdatedEvent {
                        server: server.clone(),
                        uri: uri.clone(),
                    }));
                }
                ManagerEvent::AuthorizationRequired { server, required } => {
                    hub.emit(EventBody::AuthorizationRequired(AuthorizationRequiredEvent::new(server, required)));
                }
                ManagerEvent::NetworkBlocked { request } => {
                    hub.emit(EventBody::NetworkBlocked(request.clone()));
                }
                ManagerEvent::Log { server, message } => {
                    hub.emit(EventBody::ServerLog(ServerLogEvent {
                        server: server.clone(),
                        level: message.level,
                        logger: message.logger.clone(),
                        data: message.data.clone(),
                    }));
                }
                ManagerEvent::Progress { server, progress } => {
                    hub.emit(EventBody::Progress(ProgressEvent {
                        server: server.clone(),
                        progress_token: serde_json::to_value(&progress.progress_token).unwrap_or(Value::Null),
                        progress: progress.progress,
                        total: progress.total,
                        message: progress.message.clone(),
                    }));
                }
                ManagerEvent::Throttled { server, report } => {
                    hub.emit(EventBody::ServerThrottled(ServerThrottledEvent {
                        server: server.clone(),
                        report: *report,
                    }));
                }
                ManagerEvent::ListChanged { server, list } if *list != ListKind::Tools => {
                    hub.emit(EventBody::ListChanged(ListChangedEvent { server: server.clone(), list: *list }));
                }
                _ => {}
            }
        }));
        let manager = manager.clone();
        Watches::on_drop(move || {
            manager.unsubscribe(id);
        })
    }

    /// Publishes `toolsChanged` for every registry change, one event per server (and one for native tools), then
    /// `toolNamesClashed` for each clash the change began and `toolListLimited` for each server whose list went
    /// past the registry's limits.
    pub fn watch_registry(&self, registry: &Rc<ToolRegistry>) -> Watches {
        // The server of each registered name: a removed entry is gone from the registry when the change arrives.
        let index: RefCell<HashMap<String, Option<String>>> = RefCell::new(
            registry
                .list(&ToolFilter::everything())
                .into_iter()
                .map(|entry| {
                    let server = entry.server().map(str::to_owned);
                    (entry.name, server)
                })
                .collect(),
        );
        let weak = self.downgrade();
        let lookup = Rc::downgrade(registry);
        let id = registry.subscribe(Rc::new(move |change: &RegistryChange| {
            let mut groups: LiteMap<Option<String>, (Vec<String>, Vec<String>)> = LiteMap::new();
            {
                let mut index = index.borrow_mut();
                for name in &change.removed {
                    let server = index.remove(name).flatten();
                    groups.entry(server).or_default().1.push(name.clone());
                }
                let registry = lookup.upgrade();
                for name in &change.added {
                    let server =
                        registry.as_ref().and_then(|r| r.get(name)).and_then(|e| e.server().map(str::to_owned));
                    index.insert(name.clone(), server.clone());
                    groups.entry(server).or_default().0.push(name.clone());
                }
            }
            let Some(hub) = hub(&weak) else { return };
            // Native tools registered hidden (a server's are announced with its status, see `watch_manager`).
            let hidden_natives: Vec<HiddenTool> = match (groups.get(&None), lookup.upgrade()) {
                (Some((added, _)), Some(registry)) if !added.is_empty() => {
                    registry.hidden_of_native().into_iter().filter(|tool| added.contains(&tool.name)).collect()
                }
                _ => Vec::new(),
            };
            for (server, (added, removed)) in groups {
                hub.emit(EventBody::ToolsChanged(ToolsChangedEvent { server, added, removed }));
            }
            if !hidden_natives.is_empty() {
                hub.emit(EventBody::ToolsHidden(ToolsHiddenEvent { server: None, tools: hidden_natives }));
            }
            for clash in &change.clashes {
                hub.emit(EventBody::ToolNamesClashed(clash.clone()));
            }
            for report in &change.limited {
                hub.emit(EventBody::ToolListLimited(report.clone()));
            }
        }));
        let registry = registry.clone();
        Watches::on_drop(move || {
            registry.unsubscribe(id);
        })
    }

    /// Publishes `toolExecutionStarted` and `toolExecutionFinished` for every execution the tool system reports.
    pub fn watch_tool_system(&self, system: &ToolSystem) -> Watches {
        let weak = self.downgrade();
        let id = system.subscribe(Rc::new(move |event: &ExecutionEvent| {
            let Some(hub) = hub(&weak) else { return };
            let body = match event {
                ExecutionEvent::Started(call) => EventBody::ToolExecutionStarted(call.clone()),
                ExecutionEvent::Finished(finished) => EventBody::ToolExecutionFinished(finished.clone()),
            };
            hub.emit(body);
        }));
        let events = system.events_handle();
        Watches::on_drop(move || {
            events.unsubscribe(id);
        })
    }
}

#[cfg(test)]
#[path = "bridge_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "registry_events_tests.rs"]
mod registry_events_tests;
