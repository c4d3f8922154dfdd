//! Thrown errors scrubbed like events: a failure's message can be a server's own words (an error it answered, the
//! reason it crashed), and a server can put the credential it was given in them. Every failure crosses into
//! JavaScript through one function ([`crate::convert::JsFailure::into_js`]), which asks the redactors of the runtimes
//! alive in this page to scrub it; a runtime registers its redactor when it is created.

use mcp_worker_runtime::observation::Redactor;
use serde_json::Value;
use std::cell::RefCell;
use std::rc::{Rc, Weak};

thread_local! {
    static REDACTORS: RefCell<Vec<Weak<Redactor>>> = const { RefCell::new(Vec::new()) };
}

/// Scrubs every failure from now on with `redactor`, for as long as it lives.
pub(crate) fn scrub_failures_with(redactor: &Rc<Redactor>) {
    REDACTORS.with_borrow_mut(|redactors| {
        redactors.retain(|weak| weak.strong_count() > 0);
        redactors.push(Rc::downgrade(redactor));
    });
}

/// Scrubs a failure's message and extra fields with every live redactor.
pub(crate) fn scrub_failure(message: &mut String, extra: &mut [(&'static str, Value)]) {
    let live: Vec<Rc<Redactor>> = REDACTORS.with_borrow(|all| all.iter().filter_map(Weak::upgrade).collect());
    for redactor in live.iter().filter(|r| !r.is_empty()) {
        redactor.scrub(message);
        extra.iter_mut().for_each(|(_, value)| redactor.scrub_json(value));
    }
}
