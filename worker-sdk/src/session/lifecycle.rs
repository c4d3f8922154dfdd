//! `initialize` (version negotiation, capabilities) and `logging/setLevel`.

use super::Session;
use mcp_worker_protocol::jsonrpc::EmptyResult;
use mcp_worker_protocol::{InitializeParams, InitializeResult, SetLevelParams, version};

impl Session {
    pub(super) fn initialize(&self, params: InitializeParams) -> InitializeResult {
        let config = &self.state.config;
        // What the client offers decides which server-to-client requests handlers may send.
        self.state.peer.set_capabilities(params.capabilities);
        let mut result = InitializeResult::new(
            version::negotiate(&params.protocol_version),
            config.capabilities.clone(),
            config.info.clone(),
        );
        result.instructions = config.instructions.clone();
        result
    }

    pub(super) fn set_level(&self, params: SetLevelParams) -> EmptyResult {
        self.state.peer.set_log_level(params.level);
        EmptyResult {}
    }
}
