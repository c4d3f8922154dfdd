//! Every text of what the runtime reports, reachable for the redactor: each field of each event, a server's health,
//! a request waiting for the application, and each string and object key of the JSON they carry.
//!
//! Each implementation takes its struct apart field by field, without `..`: a field added later does not compile
//! until it is scrubbed here (or said to hold no text).

use super::events::{
    AuthorizationRequiredEvent, CredentialsRequiredEvent, EventBody, ListChangedEvent, ProgressEvent,
    ResourceUpdatedEvent, ServerEvent, ServerLogEvent, ServerRequestEvent, ServerRequestSettledEvent,
    ServerRestartingEvent, ServerStatusEvent, ToolsChangedEvent, ToolsHiddenEvent,
};
use super::requests::PendingRequest;
use crate::credentials::{CredentialDecl, IdentityChange, ServerIdentity};
use crate::manager::ServerHealth;
use crate::registry::{ClashedTool, HiddenTool, LimitReport, LimitViolation, NameClash};
use crate::tool_system::{ContentSummary, ExecutionCall, ExecutionFinished, OutputSummary};
use mcp_worker_client::sandbox::BlockedRequest;
use serde_json::Value;

/// Text that may hold a credential value, and what to do with each piece of it.
pub(crate) trait Scrub {
    /// Calls `scrub` on every text in `self`.
    fn scrub(&mut self, scrub: &dyn Fn(&mut String));
}

impl Scrub for String {
    fn scrub(&mut self, scrub: &dyn Fn(&mut String)) {
        scrub(self);
    }
}

impl<T: Scrub> Scrub for Option<T> {
    fn scrub(&mut self, scrub: &dyn Fn(&mut String)) {
        if let Some(inner) = self {
            inner.scrub(scrub);
        }
    }
}

impl<T: Scrub> Scrub for Vec<T> {
    fn scrub(&mut self, scrub: &dyn Fn(&mut String)) {
        self.iter_mut().for_each(|item| item.scrub(scrub));
    }
}

/// Strings, and object keys: a server chooses both.
impl Scrub for Value {
    fn scrub(&mut self, scrub: &dyn Fn(&mut String)) {
        match self {
            Value::String(text) => scrub(text),
            Value::Array(items) => items.scrub(scrub),
            Value::Object(fields) => {
                let taken = std::mem::take(fields);
                for (mut key, mut item) in taken {
                    scrub(&mut key);
                    item.scrub(scrub);
                    fields.insert(key, item);
                }
            }
            Value::Null | Value::Bool(_) | Value::Number(_) => {}
        }
    }
}

impl Scrub for EventBody {
    fn scrub(&mut self, scrub: &dyn Fn(&mut String)) {
        match self {
            Self::ServerStatus(e) => e.scrub(scrub),
            Self::ServerRemoved(e) => e.scrub(scrub),
            Self::CredentialsRequired(e) => e.scrub(scrub),
            Self::AuthorizationRequired(e) => e.scrub(scrub),
            Self::ResourceUpdated(e) => e.scrub(scrub),
            Self::ToolsChanged(e) => e.scrub(scrub),
            Self::ToolsHidden(e) => e.scrub(scrub),
            Self::ListChanged(e) => e.scrub(scrub),
            Self::ToolExecutionStarted(e) => e.scrub(scrub),
            Self::ToolExecutionFinished(e) => e.scrub(scrub),
            Self::ServerLog(e) => e.scrub(scrub),
            Self::Progress(e) => e.scrub(scrub),
            Self::ServerRestarting(e) => e.scrub(scrub),
            Self::ElicitationRequested(e) | Self::SamplingRequested(e) => e.scrub(scrub),
            Self::ServerRequestSettled(e) => e.scrub(scrub),
            Self::ToolNamesClashed(e) => e.scrub(scrub),
            Self::ToolListLimited(e) => e.scrub(scrub),
            Self::NetworkBlocked(e) => e.scrub(scrub),
            Self::ServerThrottled(e) => e.server.scrub(scrub),
        }
    }
}

impl Scrub for NameClash {
    fn scrub(&mut self, scrub: &dyn Fn(&mut String)) {
        let Self { name, tools } = self;
        name.scrub(scrub);
        for ClashedTool { server, tool, name } in tools {
            server.scrub(scrub);
            tool.scrub(scrub);
            name.scrub(scrub);
        }
    }
}

impl Scrub for LimitReport {
    fn scrub(&mut self, scrub: &dyn Fn(&mut String)) {
        let Self { server, violations, message } = self;
        server.scrub(scrub);
        message.scrub(scrub);
        for violation in violations {
            match violation {
                LimitViolation::Truncated { tool, .. } | LimitViolation::ControlCharacters { tool, .. } => {
                    tool.scrub(scrub);
                }
                // Counts only.
                _ => {}
            }
        }
    }
}

impl Scrub for BlockedRequest {
    fn scrub(&mut self, scrub: &dyn Fn(&mut String)) {
        let Self { server, origin, directive, .. } = self;
        server.scrub(scrub);
        origin.scrub(scrub);
        directive.scrub(scrub);
    }
}

impl Scrub for ServerStatusEvent {
    fn scrub(&mut self, scrub: &dyn Fn(&mut String)) {
        let Self {
            server,
            status: _,
            transport: _, // a constant of this crate
            tool_count: _,
            last_error,
            last_connected_ms: _,
            protocol_version: _, // a version string the client checked
            consecutive_failures: _,
            last_success_ms: _,
            consecutive_call_failures: _,
            next_retry_ms: _,
            isolation: _, // a constant of this crate
            network,
            blocked_requests: _,
            last_blocked_origin,
        } = self;
        server.scrub(scrub);
        last_error.scrub(scrub);
        network.scrub(scrub);
        last_blocked_origin.scrub(scrub);
    }
}

impl Scrub for ServerHealth {
    fn scrub(&mut self, scrub: &dyn Fn(&mut String)) {
        let Self {
            name,
            status: _,
            transport: _,
            tool_count: _,
            last_error,
            last_connected_ms: _,
            protocol_version: _, // a version string the client checked
            consecutive_failures: _,
            last_success_ms: _,
            consecutive_call_failures: _,
            next_retry_ms: _,
            isolation: _,
            network,
            blocked_requests: _,
            last_blocked_origin,
        } = self;
        name.scrub(scrub);
        last_error.scrub(scrub);
        network.scrub(scrub);
        last_blocked_origin.scrub(scrub);
    }
}

impl Scrub for ServerEvent {
    fn scrub(&mut self, scrub: &dyn Fn(&mut String)) {
        let Self { server } = self;
        server.scrub(scrub);
    }
}

impl Scrub for CredentialsRequiredEvent {
    fn scrub(&mut self, scrub: &dyn Fn(&mut String)) {
        let Self { server, credentials, locked: _, reason, identity_change } = self;
        server.scrub(scrub);
        credentials.scrub(scrub);
        reason.scrub(scrub);
        identity_change.scrub(scrub);
    }
}

impl Scrub for ResourceUpdatedEvent {
    fn scrub(&mut self, scrub: &dyn Fn(&mut String)) {
        let Self { server, uri } = self;
        server.scrub(scrub);
        uri.scrub(scrub);
    }
}

impl Scrub for AuthorizationRequiredEvent {
    fn scrub(&mut self, scrub: &dyn Fn(&mut String)) {
        let Self { server, required } = self;
        server.scrub(scrub);
        required.url.scrub(scrub);
        required.authorization_server.scrub(scrub);
        required.scope.scrub(scrub);
    }
}

/// A manifest's description is the bundle's text.
impl Scrub for CredentialDecl {
    fn scrub(&mut self, scrub: &dyn Fn(&mut String)) {
        let Self { name, description, required: _ } = self;
        name.scrub(scrub);
        description.scrub(scrub);
    }
}

impl Scrub for IdentityChange {
    fn scrub(&mut self, scrub: &dyn Fn(&mut String)) {
        let Self { server, credentials, stored_for, current } = self;
        server.scrub(scrub);
        credentials.scrub(scrub);
        stored_for.scrub(scrub);
        current.scrub(scrub);
    }
}

impl Scrub for ServerIdentity {
    fn scrub(&mut self, scrub: &dyn Fn(&mut String)) {
        match self {
            Self::Bundle { worker_url, wasm_url } => {
                worker_url.scrub(scrub);
                wasm_url.scrub(scrub);
            }
            Self::Remote { url } => url.scrub(scrub),
            Self::Command { command, args } => {
                command.scrub(scrub);
                args.scrub(scrub);
            }
        }
    }
}

impl Scrub for ToolsHiddenEvent {
    fn scrub(&mut self, scrub: &dyn Fn(&mut String)) {
        let Self { server, tools } = self;
        server.scrub(scrub);
        for HiddenTool { name, server, tool, reason } in tools {
            for text in [name, server, tool, reason] {
                text.scrub(scrub);
            }
        }
    }
}

impl Scrub for ToolsChangedEvent {
    fn scrub(&mut self, scrub: &dyn Fn(&mut String)) {
        let Self { server, added, removed } = self;
        server.scrub(scrub);
        added.scrub(scrub);
        removed.scrub(scrub);
    }
}

impl Scrub for ListChangedEvent {
    fn scrub(&mut self, scrub: &dyn Fn(&mut String)) {
        let Self { server, list: _ } = self;
        server.scrub(scrub);
    }
}

impl Scrub for ExecutionCall {
    fn scrub(&mut self, scrub: &dyn Fn(&mut String)) {
        let Self { call_id, tool_name, tool, server, origin: _, thread_id, trace_id } = self;
        call_id.scrub(scrub);
        tool_name.scrub(scrub);
        tool.scrub(scrub);
        server.scrub(scrub);
        thread_id.scrub(scrub);
        trace_id.scrub(scrub);
    }
}

impl Scrub for ExecutionFinished {
    fn scrub(&mut self, scrub: &dyn Fn(&mut String)) {
        let Self { call, status: _, error, error_code, duration_ms: _, output } = self;
        call.scrub(scrub);
        error.scrub(scrub);
        error_code.scrub(scrub);
        output.scrub(scrub);
    }
}

impl Scrub for OutputSummary {
    fn scrub(&mut self, scrub: &dyn Fn(&mut String)) {
        let Self { content, structured_bytes: _ } = self;
        content.scrub(scrub);
    }
}

/// A block's `type` is the server's text.
impl Scrub for ContentSummary {
    fn scrub(&mut self, scrub: &dyn Fn(&mut String)) {
        let Self { kind, bytes: _ } = self;
        kind.scrub(scrub);
    }
}

impl Scrub for ServerLogEvent {
    fn scrub(&mut self, scrub: &dyn Fn(&mut String)) {
        let Self { server, level: _, logger, data } = self;
        server.scrub(scrub);
        logger.scrub(scrub);
        data.scrub(scrub);
    }
}

impl Scrub for ProgressEvent {
    fn scrub(&mut self, scrub: &dyn Fn(&mut String)) {
        let Self { server, progress_token, progress: _, total: _, message } = self;
        server.scrub(scrub);
        progress_token.scrub(scrub);
        message.scrub(scrub);
    }
}

impl Scrub for ServerRestartingEvent {
    fn scrub(&mut self, scrub: &dyn Fn(&mut String)) {
        let Self { server, attempt: _, backoff_ms: _, reason } = self;
        server.scrub(scrub);
        reason.scrub(scrub);
    }
}

impl Scrub for ServerRequestEvent {
    fn scrub(&mut self, scrub: &dyn Fn(&mut String)) {
        let Self { request_id: _, server, method, params } = self;
        server.scrub(scrub);
        method.scrub(scrub);
        params.scrub(scrub);
    }
}

impl Scrub for PendingRequest {
    fn scrub(&mut self, scrub: &dyn Fn(&mut String)) {
        let Self { request_id: _, server, method, params } = self;
        server.scrub(scrub);
        method.scrub(scrub);
        params.scrub(scrub);
    }
}

impl Scrub for ServerRequestSettledEvent {
    fn scrub(&mut self, scrub: &dyn Fn(&mut String)) {
        let Self { request_id: _, server, method, outcome: _ } = self;
        server.scrub(scrub);
        method.scrub(scrub);
    }
}

#[cfg(test)]
#[path = "scrub_tests.rs"]
mod tests;
