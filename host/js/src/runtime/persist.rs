//! What the runtime saved and restored, from JavaScript (for a runtime created with `database`).

use super::JsRuntime;
use super::convert::to_js;
use crate::promise::promise;
use js_sys::Promise;
use mcp_worker_vault::state::Persistence;
use serde_json::json;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(js_class = McpRuntime)]
impl JsRuntime {
    /// What the runtime restored from its database at creation (servers, threads), what it skipped (unreadable
    /// records, each with why), and the saves that failed since; `null` for a runtime created without `database`.
    #[wasm_bindgen(unchecked_return_type = "PersistenceReport | null")]
    pub fn persistence(&self) -> Result<JsValue, JsValue> {
        let persistence = self.inner.persistence.borrow();
        let Some(persistence) = persistence.as_ref() else { return Ok(JsValue::NULL) };
        let report = persistence.report();
        Ok(to_js(&json!({
            "database": self.inner.database_name,
            "servers": report.servers,
            "threads": report.threads,
            "problems": report.problems,
            "writeErrors": persistence.write_errors(),
        }))?)
    }

    /// Resolves once every change made so far is saved (or its save failed: see `persistence().writeErrors`).
    /// Changes are saved in the background anyway; this is for the moments that must not lose one (before
    /// `location.reload()`, in tests).
    #[wasm_bindgen(js_name = flushState, unchecked_return_type = "Promise<void>")]
    pub fn flush_state(&self) -> Promise {
        let inner = self.inner.clone();
        promise(async move {
            let flushing = {
                let persistence = inner.persistence.borrow();
                persistence.as_ref().map(Persistence::flush)
            };
            if let Some(flush) = flushing {
                flush.await;
            }
            Ok(JsValue::UNDEFINED)
        })
    }
}
