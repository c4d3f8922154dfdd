//! Credential values scrubbed from events.
//!
//! A server receives its credentials in its environment, and nothing stops it from echoing one in a log message, a
//! tool result or an error. Events go to UIs and into agents' observation stores, so before an event is kept or
//! delivered, every credential value handed to any server is replaced by `[credential NAME]`.

use crate::credentials::{CredentialDecl, Secret, ServerIdentity};
use crate::manager::{CredentialSource, CredentialsNeeded};
use futures_util::future::LocalBoxFuture;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt;
use std::rc::Rc;

/// Values shorter than this are not scrubbed: replacing every "a" or "42" would wreck the text and hide nothing
/// worth hiding.
pub const MIN_SCRUBBED_LEN: usize = 4;

/// The credential values given to each server, to scrub from events.
#[derive(Default)]
pub struct Redactor {
    by_server: RefCell<BTreeMap<String, Vec<(String, Secret)>>>,
}

impl fmt::Debug for Redactor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let servers: Vec<String> = self.by_server.borrow().keys().cloned().collect();
        f.debug_struct("Redactor").field("servers", &servers).finish()
    }
}

impl Redactor {
    /// Nothing to scrub yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records the credentials `server` was just given (replacing what it was given before).
    pub fn set_server(&self, server: &str, values: impl IntoIterator<Item = (String, Secret)>) {
        let kept: Vec<(String, Secret)> =
            values.into_iter().filter(|(_, value)| value.expose().len() >= MIN_SCRUBBED_LEN).collect();
        let mut by_server = self.by_server.borrow_mut();
        if kept.is_empty() {
            by_server.remove(server);
        } else {
            by_server.insert(server.to_owned(), kept);
        }
    }

    /// Forgets a server's values (it was removed).
    pub fn forget_server(&self, server: &str) {
        self.by_server.borrow_mut().remove(server);
    }

    /// Whether there is anything to scrub.
    pub fn is_empty(&self) -> bool {
        self.by_server.borrow().is_empty()
    }

    /// Replaces every known value in `text` by `[credential NAME]`.
    pub fn scrub(&self, text: &mut String) {
        for values in self.by_server.borrow().values() {
            for (name, value) in values {
                let value = value.expose();
                if text.contains(value) {
                    *text = text.replace(value, &format!("[credential {name}]"));
                }
            }
        }
    }
}

/// A credential source that tells the redactor what each server was given.
pub struct RedactingCredentials {
    source: Rc<dyn CredentialSource>,
    redactor: Rc<Redactor>,
}

impl fmt::Debug for RedactingCredentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RedactingCredentials").field("redactor", &self.redactor).finish_non_exhaustive()
    }
}

impl RedactingCredentials {
    /// Wraps `source`; values it hands out are scrubbed by `redactor` from then on.
    pub fn new(source: Rc<dyn CredentialSource>, redactor: Rc<Redactor>) -> Self {
        Self { source, redactor }
    }
}

impl CredentialSource for RedactingCredentials {
    fn credentials(
        &self,
        server: &str,
        identity: &ServerIdentity,
        declared: &[CredentialDecl],
    ) -> LocalBoxFuture<'static, Result<Vec<(String, Secret)>, CredentialsNeeded>> {
        let values = self.source.credentials(server, identity, declared);
        let redactor = self.redactor.clone();
        let server = server.to_owned();
        Box::pin(async move {
            let values = values.await?;
            redactor.set_server(&server, values.iter().cloned());
            Ok(values)
        })
    }

    fn confirm_identity(&self, server: &str, identity: &ServerIdentity) -> LocalBoxFuture<'static, Result<(), String>> {
        self.source.confirm_identity(server, identity)
    }

    fn forget_server(&self, server: &str) -> LocalBoxFuture<'static, Result<(), String>> {
        self.source.forget_server(server)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_of_every_server_are_replaced_by_their_names() {
        let redactor = Redactor::new();
        redactor.set_server("a", [("TOKEN".to_owned(), Secret::new("s3cr3t-value"))]);
        redactor.set_server("b", [("KEY".to_owned(), Secret::new("other-key")), ("PIN".to_owned(), Secret::new("42"))]);
        let mut text = "got s3cr3t-value and other-key and 42".to_owned();
        redactor.scrub(&mut text);
        assert_eq!(text, "got [credential TOKEN] and [credential KEY] and 42", "short values are left alone");
        redactor.forget_server("a");
        let mut again = "s3cr3t-value".to_owned();
        redactor.scrub(&mut again);
        assert_eq!(again, "s3cr3t-value");
        redactor.set_server("b", []);
        assert!(redactor.is_empty());
    }

    #[test]
    fn debug_shows_servers_never_values() {
        let redactor = Redactor::new();
        redactor.set_server("a", [("TOKEN".to_owned(), Secret::new("s3cr3t-value"))]);
        let shown = format!("{redactor:?}");
        assert!(shown.contains('a') && !shown.contains("s3cr3t"));
    }
}
