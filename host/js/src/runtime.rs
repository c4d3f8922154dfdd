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
mod credentials;
mod events;
mod native_tool;
mod options;
mod persist;
mod servers;
mod tools;
mod types;
mod vault;

pub(crate) use credentials::JsCredentials;

use convert::JsFailure;
use js_sys::Promise;
use mcp_worker_runtime::observation::Watches;
use mcp_worker_runtime::{ClientFeatures, Runtime};
use mcp_worker_vault::credentials::CredentialsRepository;
use mcp_worker_vault::state::{Database, Persistence, StateManager};
use options::{Answering, RuntimeOptions};
use std::cell::RefCell;
use std::rc::Rc;
use vault::Vault;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

/// What every part of the JavaScript runtime shares.
pub(crate) struct Inner {
    pub(crate) runtime: Runtime,
    pub(crate) vault: Rc<Vault>,
    /// Saves servers and thread configurations, when the runtime was created with `database`.
    pub(crate) persistence: RefCell<Option<Persistence>>,
    pub(crate) database_name: String,
    /// The application's functions that answer elicitation and sampling requests, while subscribed.
    answers: RefCell<Option<Watches>>,
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
        future_to_promise(async move {
            let options = options?;
            let persist = options.persist;
            let db = Database::open(&options.database_name).await;
            let repository = db.as_ref().map(CredentialsRepository::new).map_err(Clone::clone);
            let inner = build(options, repository)?;
            if persist {
                let db = db.map_err(|e| JsFailure::from(mcp_worker_vault::credentials::CredentialError::Storage(e)))?;
                let persistence = Persistence::attach(&StateManager::new(&db), inner.runtime.manager()).await;
                inner.persistence.replace(Some(persistence.map_err(JsFailure::from)?));
            }
            Ok(JsRuntime { inner }.into())
        })
    }

    /// The encrypted credentials: set up, unlock, lock, store and delete values, list names.
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
        self.inner.persistence.borrow_mut().take();
        self.inner.answers.borrow_mut().take();
    }
}

fn build(
    options: RuntimeOptions,
    repository: Result<CredentialsRepository, mcp_worker_vault::state::StorageError>,
) -> Result<Rc<Inner>, JsFailure> {
    let RuntimeOptions { history_size, manager, roots, elicitation, sampling, database_name, .. } = options;
    let vault = Vault::new(repository);
    let mut features = ClientFeatures::default();
    features.elicitation = elicitation.enabled();
    features.sampling = sampling.enabled();
    features.roots = roots;
    let runtime = Runtime::browser()
        .options(manager)
        .history(history_size)
        .id_prefix(runtime_id())
        .features(features)
        .credentials(vault.clone())
        .build();
    let inner =
        Rc::new(Inner { runtime, vault, persistence: RefCell::new(None), database_name, answers: RefCell::new(None) });
    let mut answers = Watches::new();
    for (kind, answering) in [("elicitation", elicitation), ("sampling", sampling)] {
        if let Answering::ByFunction(function) = answering {
            answers.extend(events::answer_with(&inner, kind, function));
        }
    }
    inner.answers.replace(Some(answers));
    Ok(inner)
}

/// A random id for this runtime's events, so that observation ids stay unique across page loads.
fn runtime_id() -> String {
    let mut bytes = [0_u8; 8];
    if getrandom::fill(&mut bytes).is_err() {
        // No randomness: fall back on the clock, which is unique enough per page load.
        return format!("mcpw-{}", js_sys::Date::now());
    }
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!("mcpw-{hex}")
}
