//! The server features beside tools: resources (their templates, reading, subscriptions), prompts, argument
//! completion and the log level. Each is asked only of a server that declared its capability at `initialize`;
//! otherwise the answer is [`Error::Unsupported`], without a request. Listing every page is bounded
//! ([`MAX_LISTED`] entries, and the pages as for tools: [`super::MAX_LIST_PAGES`], no repeated cursor); one page at a
//! time is not.

use super::McpClient;
use crate::error::{Error, Result};
use mcp_worker_protocol::NameMap;
use mcp_worker_protocol::completion::{CompletionArgument, CompletionContext};
use mcp_worker_protocol::jsonrpc::EmptyResult;
use mcp_worker_protocol::resources::{ListResourceTemplatesResult, ResourceParams, ResourceTemplate};
use mcp_worker_protocol::{
    CompleteParams, CompleteResult, CompletionReference, GetPromptParams, GetPromptResult, ListPromptsResult,
    ListResourcesResult, LoggingLevel, PaginatedParams, Prompt, ReadResourceResult, Resource, ServerCapabilities,
    SetLevelParams, methods,
};
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;

/// The most entries the `list_*` methods that follow every page collect; past it they fail with a
/// [`Error::Protocol`] that says to page (`list_*_page`).
pub const MAX_LISTED: usize = 10_000;

/// What a feature needs of the server's capabilities.
#[derive(Clone, Copy)]
pub(super) enum Feature {
    Resources,
    Subscriptions,
    Prompts,
    Completions,
    Logging,
}

impl Feature {
    fn offered(self, capabilities: &ServerCapabilities) -> bool {
        match self {
            Self::Resources => capabilities.resources.is_some(),
            Self::Subscriptions => capabilities.resources.as_ref().is_some_and(|r| r.subscribe == Some(true)),
            Self::Prompts => capabilities.prompts.is_some(),
            Self::Completions => capabilities.completions.is_some(),
            Self::Logging => capabilities.logging.is_some(),
        }
    }

    fn unsupported(self, server: &str) -> Error {
        let (feature, capability) = match self {
            Self::Resources => ("resources", "resources"),
            Self::Subscriptions => ("resource subscriptions", "resources.subscribe"),
            Self::Prompts => ("prompts", "prompts"),
            Self::Completions => ("argument completion", "completions"),
            Self::Logging => ("log levels", "logging"),
        };
        Error::Unsupported { server: server.to_owned(), feature, capability }
    }
}

impl McpClient {
    /// One page of `resources/list`.
    pub async fn list_resources_page(&self, cursor: Option<String>) -> Result<ListResourcesResult> {
        self.offers(Feature::Resources)?;
        self.request(methods::RESOURCES_LIST, Some(&PaginatedParams::new(cursor))).await
    }

    /// Every resource, following `nextCursor` to the end (at most [`MAX_LISTED`]).
    pub async fn list_resources(&self) -> Result<Vec<Resource>> {
        self.offers(Feature::Resources)?;
        self.every_page(methods::RESOURCES_LIST, |page: ListResourcesResult| (page.resources, page.next_cursor)).await
    }

    /// One page of `resources/templates/list`.
    pub async fn list_resource_templates_page(&self, cursor: Option<String>) -> Result<ListResourceTemplatesResult> {
        self.offers(Feature::Resources)?;
        self.request(methods::RESOURCES_TEMPLATES_LIST, Some(&PaginatedParams::new(cursor))).await
    }

    /// Every resource template, following `nextCursor` to the end (at most [`MAX_LISTED`]).
    pub async fn list_resource_templates(&self) -> Result<Vec<ResourceTemplate>> {
        self.offers(Feature::Resources)?;
        self.every_page(methods::RESOURCES_TEMPLATES_LIST, |page: ListResourceTemplatesResult| {
            (page.resource_templates, page.next_cursor)
        })
        .await
    }

    /// Reads the resource at `uri` (text or binary contents; a read may return sub-resources too).
    pub async fn read_resource(&self, uri: &str) -> Result<ReadResourceResult> {
        self.offers(Feature::Resources)?;
        self.request_maybe_input(methods::RESOURCES_READ, &ResourceParams::new(uri)).await
    }

    /// Asks the server for `notifications/resources/updated` when the resource at `uri` changes.
    pub async fn subscribe_resource(&self, uri: &str) -> Result<()> {
        self.offers(Feature::Subscriptions)?;
        if self.listen_to_resource(uri, true) {
            return Ok(());
        }
        let _: EmptyResult = self.request(methods::RESOURCES_SUBSCRIBE, Some(&ResourceParams::new(uri))).await?;
        Ok(())
    }

    /// Stops the updates of [`Self::subscribe_resource`].
    pub async fn unsubscribe_resource(&self, uri: &str) -> Result<()> {
        self.offers(Feature::Subscriptions)?;
        if self.listen_to_resource(uri, false) {
            return Ok(());
        }
        let _: EmptyResult = self.request(methods::RESOURCES_UNSUBSCRIBE, Some(&ResourceParams::new(uri))).await?;
        Ok(())
    }

    /// One page of `prompts/list`.
    pub async fn list_prompts_page(&self, cursor: Option<String>) -> Result<ListPromptsResult> {
        self.offers(Feature::Prompts)?;
        self.request(methods::PROMPTS_LIST, Some(&PaginatedParams::new(cursor))).await
    }

    /// Every prompt, following `nextCursor` to the end (at most [`MAX_LISTED`]).
    pub async fn list_prompts(&self) -> Result<Vec<Prompt>> {
        self.offers(Feature::Prompts)?;
        self.every_page(methods::PROMPTS_LIST, |page: ListPromptsResult| (page.prompts, page.next_cursor)).await
    }

    /// Gets the prompt `name` filled with `arguments` (values are strings, as the spec has them).
    pub async fn get_prompt(&self, name: &str, arguments: Option<NameMap<String>>) -> Result<GetPromptResult> {
        self.offers(Feature::Prompts)?;
        self.request_maybe_input(methods::PROMPTS_GET, &GetPromptParams::new(name, arguments)).await
    }

    /// Suggestions for the value of `argument` of a prompt or resource template (`reference`), given the values
    /// of its other arguments (`context`).
    pub async fn complete(
        &self,
        reference: CompletionReference,
        argument: CompletionArgument,
        context: Option<CompletionContext>,
    ) -> Result<CompleteResult> {
        self.offers(Feature::Completions)?;
        let params = CompleteParams { reference, argument, context, meta: None };
        self.request(methods::COMPLETION_COMPLETE, Some(&params)).await
    }

    /// Asks the server for log messages of `level` and more severe (`logging/setLevel`).
    pub async fn set_logging_level(&self, level: LoggingLevel) -> Result<()> {
        self.offers(Feature::Logging)?;
        if self.set_modern_log_level(level) {
            return Ok(());
        }
        let _: EmptyResult = self.request(methods::LOGGING_SET_LEVEL, Some(&SetLevelParams::new(level))).await?;
        Ok(())
    }

    /// Every resource, as [`Self::list_resources`] lists them, each as the server sent it: for a caller that hands
    /// them on as JSON (the JavaScript host). Each is checked to be an object.
    pub async fn list_resources_raw(&self) -> Result<Vec<Box<RawValue>>> {
        #[derive(serde::Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Page {
            resources: Vec<Box<RawValue>>,
            next_cursor: Option<String>,
        }
        self.offers(Feature::Resources)?;
        let resources =
            self.every_page(methods::RESOURCES_LIST, |page: Page| (page.resources, page.next_cursor)).await?;
        match resources.iter().position(|resource| !resource.get().starts_with('{')) {
            Some(at) => {
                Err(self.protocol_error(format!("{} result resources[{at}] is not an object", methods::RESOURCES_LIST)))
            }
            None => Ok(resources),
        }
    }

    /// Whether the server offers resources.
    pub fn offers_resources(&self) -> bool {
        Feature::Resources.offered(&self.server_info().capabilities)
    }

    /// Whether the server offers resource subscriptions.
    pub fn offers_resource_subscriptions(&self) -> bool {
        Feature::Subscriptions.offered(&self.server_info().capabilities)
    }

    /// A request that may come back `input_required` in MCP 2026-07-28 (its rounds within the client's timeout
    /// each), and a plain request otherwise.
    async fn request_maybe_input<P: serde::Serialize, R: DeserializeOwned>(
        &self,
        method: &str,
        params: &P,
    ) -> Result<R> {
        if !self.is_modern() {
            return self.request(method, Some(params)).await;
        }
        let options = super::CallOptions::default().timeout(Some(self.request_timeout_ms()));
        let raw = self.request_with_input(method, super::modern::params_object(params)?, options).await?;
        super::decode(self.connection(), method, &raw)
    }

    pub(super) fn offers(&self, feature: Feature) -> Result<()> {
        if feature.offered(&self.server_info().capabilities) {
            Ok(())
        } else {
            Err(feature.unsupported(self.connection().server()))
        }
    }

    /// Every entry of a paginated list, at most [`MAX_LISTED`]: `split` gives a page's entries and its next cursor.
    async fn every_page<P: DeserializeOwned, T>(
        &self,
        method: &str,
        split: impl Fn(P) -> (Vec<T>, Option<String>),
    ) -> Result<Vec<T>> {
        let mut all = Vec::new();
        self.each_page(method, |raw| {
            let page = mcp_worker_protocol::json::from_str(raw.get())
                .map_err(|e| format!("unreadable {method} result: {e}"))?;
            let (entries, next) = split(page);
            all.extend(entries);
            if all.len() > MAX_LISTED {
                return Err(format!("{method} listed more than {MAX_LISTED} entries: page through them instead"));
            }
            Ok(next)
        })
        .await?;
        Ok(all)
    }
}

#[cfg(test)]
#[path = "features_tests.rs"]
mod tests;
