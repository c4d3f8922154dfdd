//! `initialize` (version negotiation, capabilities) and `logging/setLevel`.

use super::Session;
use mcp_worker_protocol::jsonrpc::EmptyResult;
use mcp_worker_protocol::{ClientCapabilities, InitializeResult, SetLevelParams, version};
use serde::Deserialize;
use serde::de::IgnoredAny;

/// `initialize` params as a server reads them ([`mcp_worker_protocol::InitializeParams`] without reading the
/// client's name, icons and links, which no handler sees: their reading would weigh 2 KiB of every server's wasm).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct InitializeParams {
    protocol_version: String,
    capabilities: ClientCapabilities,
    /// Required, as the protocol says; what it holds is the client's business.
    #[allow(dead_code)]
    client_info: IgnoredAny,
}

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
