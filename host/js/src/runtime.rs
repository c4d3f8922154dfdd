//! `McpRuntime`: the whole host for JavaScript — servers, credentials, the union tool registry, tool execution,
//! the status socket and answers to server requests — in one object.
//!
//! ```js
//! import init, { McpRuntime } from "./pkg/host/mcp_worker_host.js";
//! await init();
//! const runtime = await McpRuntime.create({ elicitation: true });
//! runtime.subscribe((event) => console.log(event.type, event), { replay: true });
//! runtime.addServer({ name: "echo", workerUrl: "/bundles/echo/bootstrap.js" });
//! const result = await runtime.callTool("echo", "echo", { text: "hi" });
//! ```
//!
//! Every method that fails throws (or rejects with) an `Error` whose `code` is stable (`RuntimeErrorCode` in the
//! generated `.d.ts`); nothing throws a string, and no input makes the runtime panic.

mod abort;
mod convert;
#[cfg(feature = "vault")]
mod credentials;
mod events;
mod features;
mod native_tool;
mod options;
#[cfg(feature = "vault")]
mod persist;
mod servers;
mod tools;
mod types;

#[cfg(feature = "vault")]
pub(crate) use credentials::JsCredentials;

use crate::promise::promise;
use convert::JsFailure;
use js_sys::Promise;
use mcp_worker_protocol::methods;
use mcp_worker_runtime::manager::CredentialSource;
use mcp_worker_runtime::observation::Watches;
use mcp_worker_runtime::{ClientFeatures, Runtime};
#[cfg(feature = "vault")]
use mcp_worker_vault::{CredentialsRepository, Database, Persistence, StateManager, Vault};
use options::{Answering, RuntimeOptions};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// What every part of the JavaScript runtime shares.
pub(crate) struct Inner {
    pub(crate) runtime: Runtime,
    #[cfg(feature = "vault")]
    pub(crate) vault: Rc<Vault>,
    /// Saves servers and thread configurations, when the runtime was created with `database`.
    #[cfg(feature = "vault")]
    pub(crate) persistence: RefCell<Option<Persistence>>,
    #[cfg(feature = "vault")]
    pub(crate) database_name: String,
    /// The application's functions that answer elicitation and sampling requests, while subscribed.
    answers: RefCell<Option<Watches>>,
    /// The application's functions that answer the requests it approves (`approveRequest`), by method.
    pub(crate) approved_by: RefCell<Vec<(&'static str, js_sys::Function)>>,
}

impl Inner {
    /// Fails once the runtime is closed.
    pub(crate) fn open(&self) -> Result<(), JsFailure> {
        if self.runtime.is_closed() {
            return Err(JsFailure::new("RUNTIME_CLOSED", "the runtime was closed"));
        }
        Ok(())
    }
}

/// The MCP host runtime for a page.
#[wasm_bindgen(js_name = McpRuntime)]
pub struct JsRuntime {
    pub(crate) inner: Rc<Inner>,
}

impl std::fmt::Debug for JsRuntime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpRuntime").field("manager", &self.inner.runtime.manager()).finish_non_exhaustive()
    }
}

#[wasm_bindgen(js_class = McpRuntime)]
impl JsRuntime {
    /// Creates a runtime: opens the credentials database (locked) and starts no server yet. If IndexedDB cannot be
    /// opened, the runtime still works; credential operations then reject with code `STORAGE`.
    ///
    /// With `database`, the runtime is kept in that database: the servers, their enablement and every thread's
    /// enabled tools saved there are restored now (what could not be read is skipped and listed in
    /// `persistence()`), and every later change is saved. A database that cannot be opened then rejects with
    /// `STORAGE`.
    #[wasm_bindgen(unchecked_return_type = "Promise<McpRuntime>")]
    pub fn create(
        #[wasm_bindgen(unchecked_optional_param_type = "RuntimeOptions")] options: Option<JsValue>,
    ) -> Promise {
        let options = options::read(&options.unwrap_or(JsValue::UNDEFINED));
        promise(async move { Ok(JsRuntime { inner: open(options?).await? }.into()) })
    }

    /// The encrypted credentials: set up, unlock, lock, store and delete values, list names.
    #[cfg(feature = "vault")]
    #[wasm_bindgen(getter)]
    pub fn credentials(&self) -> JsCredentials {
        JsCredentials { inner: self.inner.clone() }
    }

    /// Stops every server and ends every subscription to the runtime's parts. Later calls fail with
    /// `RUNTIME_CLOSED`.
    pub fn close(&self) {
        if self.inner.runtime.is_closed() {
            return;
        }
        self.inner.runtime.close();
        // Closing is not removing: what is saved stays for the next runtime on this database.
        #[cfg(feature = "vault")]
        self.inner.persistence.borrow_mut().take();
        self.inner.answers.borrow_mut().take();
    }
}

/// The runtime with its vault: the credentials of its database (locked), and with `database`, its saved state.
#[cfg(feature = "vault")]
async fn open(options: RuntimeOptions) -> Result<Rc<Inner>, JsFailure> {
    let db = Database::open(&options.database_name).await;
    let repository = |db: &Database| match options.max_pbkdf2_iterations {
        Some(iterations) => CredentialsRepository::new(db).with_max_pbkdf2_iterations(iterations),
        None => CredentialsRepository::new(db),
    };
    let vault = Vault::new(db.as_ref().map(repository).map_err(Clone::clone));
    let persist = options.persist;
    let database_name = options.database_name.clone();
    let (runtime, answers) = build(options, Some(vault.clone()));
    let inner = Rc::new(Inner {
        runtime,
        vault,
        persistence: RefCell::new(None),
        database_name,
        answers: RefCell::new(None),
        approved_by: RefCell::default(),
    });
    if persist {
        let db = db.map_err(|e| JsFailure::from(mcp_worker_vault::CredentialError::Storage(e)))?;
        let persistence = Persistence::attach(&StateManager::new(&db), inner.runtime.manager()).await;
        inner.persistence.replace(Some(persistence.map_err(JsFailure::from)?));
    }
    answer(&inner, answers);
    Ok(inner)
}

/// The runtime without a vault: no credentials, nothing saved.
#[cfg(not(feature = "vault"))]
async fn open(options: RuntimeOptions) -> Result<Rc<Inner>, JsFailure> {
    if options.persist {
        return Err(JsFailure::invalid("`database` needs the vault, and this build of the package has none"));
    }
    let (runtime, answers) = build(options, None);
    let inner = Rc::new(Inner { runtime, answers: RefCell::new(None), approved_by: RefCell::default() });
    answer(&inner, answers);
    Ok(inner)
}

/// The runtime, and how the application answers elicitation and sampling.
fn build(
    options: RuntimeOptions,
    credentials: Option<Rc<dyn CredentialSource>>,
) -> (Runtime, [(&'static str, Answering); 2]) {
    let RuntimeOptions { history_size, manager, tool_limits, roots, elicitation, sampling, .. } = options;
    let mut features = ClientFeatures::default();
    features.elicitation = elicitation.enabled();
    features.sampling = sampling.enabled();
    features.roots = roots;
    let mut builder = Runtime::browser()
        .options(manager)
        .tool_limits(tool_limits)
        .history(history_size)
        .id_prefix(runtime_id())
        .features(features);
    if let Some(credentials) = credentials {
        builder = builder.credentials(credentials);
    }
    let runtime = builder.build();
    crate::redaction::scrub_failures_with(runtime.observations().redactor());
    (runtime, [(methods::ELICITATION_CREATE, elicitation), (methods::SAMPLING_CREATE_MESSAGE, sampling)])
}

/// Subscribes the application's answering functions.
fn answer(inner: &Rc<Inner>, answers: [(&'static str, Answering); 2]) {
    let mut watches = Watches::new();
    for (method, answering) in answers {
        match answering {
            Answering::ByFunction { function, auto_approve: true } => {
                watches.extend(events::answer_with(inner, method, function));
            }
            Answering::ByFunction { function, auto_approve: false } => {
                inner.approved_by.borrow_mut().push((method, function));
            }
            Answering::No | Answering::ByEvents => {}
        }
    }
    inner.answers.replace(Some(watches));
}

/// A random id for this runtime's events, so that observation ids stay unique across page loads.
fn runtime_id() -> String {
    let mut bytes = [0_u8; 8];
    if getrandom::fill(&mut bytes).is_err() {
        // No randomness: fall back on the clock, which is unique enough per page load. Its whole milliseconds,
        // as an integer: `f64`'s `Display` would link the standard library's float formatting for this alone.
        #[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "a clock in milliseconds")]
        return format!("mcpw-{}", js_sys::Date::now() as u64);
    }
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!("mcpw-{hex}")
}
