//! The `Server` builder: identity, instructions, tools, resources, prompts, declared credentials.

use crate::credentials::{Credential, Manifest};
use crate::env::Env;
use crate::error::Error;
use crate::peer::Outbound;
use crate::prompt::PromptDef;
use crate::registry::Registry;
use crate::resource::{ResourceDef, ResourceTemplateDef};
use crate::session::{Offered, Session, Spawner};
use crate::state::Config;
use crate::tool::ToolDef;
use mcp_worker_protocol::lifecycle::{Icon, ListChangedCapability, ResourcesCapability};
use mcp_worker_protocol::modern::ServerInfoMeta;
use mcp_worker_protocol::{Implementation, JsonObject, ServerCapabilities};

/// The default number of items per page of a list: as many tools as the host registers from one server by
/// default, so that a listing is one round trip (each page is one; a client lists every page before it can offer
/// any tool).
pub const DEFAULT_PAGE_SIZE: usize = 1000;

/// The default time a handler waits for the client to answer a request (elicitation, sampling, roots): 60 s.
pub const DEFAULT_CLIENT_REQUEST_TIMEOUT_MS: u32 = 60_000;

/// How long a client of MCP 2026-07-28 may cache lists and discovery by default (see [`Server::list_ttl_ms`]).
pub const DEFAULT_LIST_TTL_MS: u64 = 60_000;

/// An MCP server: what it is and what it offers. Build one, then serve it with [`crate::export_server!`].
///
/// ```
/// use mcp_worker_sdk::{Credential, Server, ToolDef, NoArgs};
/// let server = Server::new("clock", "1.0.0")
///     .instructions("Tells the time.")
///     .credential(Credential::optional("TZ_API_KEY", "Key for the time-zone service, for local times"))
///     .tool(ToolDef::new("now", |_: NoArgs| async { "12:00" }).description("The current time"));
/// assert_eq!(server.tool_count(), 1);
/// assert_eq!(server.manifest().credentials[0].name, "TZ_API_KEY");
/// ```
#[must_use]
#[derive(Debug)]
pub struct Server {
    info: Implementation,
    instructions: Option<String>,
    registry: Registry,
    credentials: Vec<Credential>,
    page_size: usize,
    client_request_timeout_ms: u32,
    list_ttl_ms: u64,
    /// What serves resources, prompts and completions, set by the methods that offer them; also which of those
    /// capabilities the server declares.
    offered: Offered,
    problems: Vec<String>,
}

impl Server {
    /// A server with a name and a version.
    pub fn new(name: impl Into<String>, version: impl Into<String>) -> Self {
        Self {
            info: Implementation::new(name, version),
            instructions: None,
            registry: Registry::default(),
            credentials: Vec::new(),
            page_size: DEFAULT_PAGE_SIZE,
            client_request_timeout_ms: DEFAULT_CLIENT_REQUEST_TIMEOUT_MS,
            list_ttl_ms: DEFAULT_LIST_TTL_MS,
            offered: Offered::default(),
            problems: Vec::new(),
        }
    }

    /// A display name.
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.info.title = Some(title.into());
        self
    }

    /// What the server is, in a sentence (`serverInfo.description`).
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.info.description = Some(description.into());
        self
    }

    /// An icon for display.
    pub fn icon(mut self, icon: Icon) -> Self {
        self.info.icons.get_or_insert_with(Vec::new).push(icon);
        self
    }

    /// How to use this server, for the model (`instructions` in the `initialize` result).
    pub fn instructions(mut self, instructions: impl Into<String>) -> Self {
        self.instructions = Some(instructions.into());
        self
    }

    /// Items per page of every list (at least 1).
    pub fn page_size(mut self, page_size: usize) -> Self {
        self.page_size = page_size.max(1);
        self
    }

    /// How long a handler waits for the client to answer an elicitation, sampling or roots request, unless the
    /// request says otherwise (at least 1 ms).
    pub fn client_request_timeout_ms(mut self, ms: u32) -> Self {
        self.client_request_timeout_ms = ms.max(1);
        self
    }

    /// How long a client of MCP 2026-07-28 may cache the server's lists and its `server/discover` result (their
    /// `ttlMs`; scope `public`, since they are the same for every user). A server whose lists change while it runs
    /// tells listening clients at once, so this bounds only what a client that does not listen may miss. Resource
    /// reads are `private` and stale at once: a resource's handler decides what it is.
    pub fn list_ttl_ms(mut self, ms: u64) -> Self {
        self.list_ttl_ms = ms;
        self
    }

    fn record(mut self, outcome: Result<(), Error>) -> Self {
        if let Err(problem) = outcome {
            self.problems.push(problem.to_string());
        }
        self
    }

    /// Adds a tool. An invalid or duplicate name is reported when the server starts, as a fatal error the host
    /// shows, rather than a tool that silently goes missing.
    pub fn tool(mut self, tool: ToolDef) -> Self {
        let outcome = self.registry.tools.add(tool);
        self.record(outcome)
    }

    /// Adds a resource with a fixed URI.
    pub fn resource(mut self, resource: ResourceDef) -> Self {
        self.offered.offer_resources();
        let outcome = self.registry.resources.add(resource);
        self.record(outcome)
    }

    /// Adds a family of resources named by a URI template.
    pub fn resource_template(mut self, template: ResourceTemplateDef) -> Self {
        self.offered.offer_resources();
        let outcome = self.registry.templates.add(template);
        self.record(outcome)
    }

    /// Adds a prompt.
    pub fn prompt(mut self, prompt: PromptDef) -> Self {
        self.offered.offer_prompts();
        let outcome = self.registry.prompts.add(prompt);
        self.record(outcome)
    }

    /// Declares a secret the server needs. It is listed in the bundle's `manifest.json`, the host asks the user
    /// for it and hands it over, and handlers read it with [`crate::Ctx::credential`].
    pub fn credential(mut self, credential: Credential) -> Self {
        let outcome = credential.check().and_then(|()| {
            if self.credentials.iter().any(|c| c.name == credential.name) {
                Err(Error::Duplicate { kind: "credential", name: credential.name.clone() })
            } else {
                Ok(())
            }
        });
        if outcome.is_ok() {
            self.credentials.push(credential);
        }
        self.record(outcome)
    }

    /// Declares the resources capability even though the server starts without resources, because it will add
    /// some while it runs ([`crate::ServerHandle::add_resource`]).
    pub fn enable_resources(mut self) -> Self {
        self.offered.offer_resources();
        self
    }

    /// Declares the prompts capability even though the server starts without prompts, because it will add some
    /// while it runs ([`crate::ServerHandle::add_prompt`]).
    pub fn enable_prompts(mut self) -> Self {
        self.offered.offer_prompts();
        self
    }

    /// How many tools are registered.
    pub fn tool_count(&self) -> usize {
        self.registry.tools.len()
    }

    /// What a host needs to know before starting the server: name, version, title, declared credentials, and the
    /// tools it lists.
    pub fn manifest(&self) -> Manifest {
        Manifest {
            name: self.info.name.clone(),
            version: self.info.version.clone(),
            title: self.info.title.clone(),
            credentials: self.credentials.clone(),
            tools: self.registry.tools.all().iter().map(|tool| tool.definition().clone()).collect(),
        }
    }

    /// The capabilities the server declares: tools and logging always; resources (with subscriptions) and prompts
    /// when it offers them (has some, or enabled them); completions with either. Lists may change while it runs.
    fn capabilities(&self) -> ServerCapabilities {
        let resources = self.offered.resources.is_some();
        let prompts = self.offered.prompts.is_some();
        ServerCapabilities {
            tools: Some(ListChangedCapability::new(true)),
            logging: Some(JsonObject::new()),
            resources: resources.then_some(ResourcesCapability { subscribe: Some(true), list_changed: Some(true) }),
            prompts: prompts.then_some(ListChangedCapability::new(true)),
            completions: self.offered.completions.is_some().then(JsonObject::new),
            ..ServerCapabilities::default()
        }
    }

    /// Starts a session that writes frames to `out` and runs handlers with `spawn`.
    ///
    /// Fails when the server was built with problems (invalid or duplicate names, templates that do not parse).
    pub fn into_session(self, env: Env, out: Outbound, spawn: Spawner) -> Result<Session, Error> {
        if !self.problems.is_empty() {
            return Err(Error::InvalidServer { server: self.info.name, problems: self.problems });
        }
        let info_meta = match ServerInfoMeta::new(&self.info) {
            Ok(info_meta) => info_meta,
            Err(e) => {
                let problems = vec![format!("its name, version or icons cannot be written as JSON: {e}")];
                return Err(Error::InvalidServer { server: self.info.name, problems });
            }
        };
        let config = Config {
            capabilities: self.capabilities(),
            info: self.info,
            info_meta,
            instructions: self.instructions,
            page_size: self.page_size,
            credentials: self.credentials,
            client_request_timeout_ms: self.client_request_timeout_ms,
            list_ttl_ms: self.list_ttl_ms,
        };
        Ok(Session::new(config, self.registry, env, out, spawn, self.offered))
    }
}
