//! Completion of prompt arguments and resource-template variables (`completion/complete`).

use futures_util::future::{FutureExt, LocalBoxFuture};
use mcp_worker_protocol::NameMap;
use std::future::Future;
use std::rc::Rc;

/// What the client asks to complete.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct CompletionRequest {
    /// The argument (or template variable) being completed.
    pub argument: String,
    /// What the user has typed so far.
    pub value: String,
    /// The values of the other arguments or variables, when the client sent them.
    pub context: NameMap<String>,
}

/// A function that suggests values for one argument.
pub(crate) type Completer = Rc<dyn Fn(CompletionRequest) -> LocalBoxFuture<'static, Vec<String>>>;

/// The completers of one prompt or template, by argument name. A short list: a map would add code to every
/// server's wasm for a handful of entries.
#[derive(Default)]
pub(crate) struct Completers(Vec<(String, Completer)>);

impl Completers {
    /// Sets the completer of `name`, replacing any earlier one.
    pub(crate) fn set(&mut self, name: String, completer: Completer) {
        self.0.retain(|(n, _)| *n != name);
        self.0.push((name, completer));
    }

    pub(crate) fn get(&self, name: &str) -> Option<Completer> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, c)| c.clone())
    }

    pub(crate) fn names(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|(n, _)| n.as_str())
    }
}

/// A completer from an async function.
pub(crate) fn completer<F, Fut>(f: F) -> Completer
where
    F: Fn(CompletionRequest) -> Fut + 'static,
    Fut: Future<Output = Vec<String>> + 'static,
{
    Rc::new(move |request| f(request).boxed_local())
}

/// A completer that offers the values starting with what was typed (ignoring case), in the given order.
pub(crate) fn from_values(values: Vec<String>) -> Completer {
    Rc::new(move |request: CompletionRequest| {
        let typed = request.value.to_lowercase();
        let matching = values.iter().filter(|v| v.to_lowercase().starts_with(&typed)).cloned().collect();
        futures_util::future::ready(matching).boxed_local()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listed_values_are_filtered_by_prefix_ignoring_case() {
        let complete = from_values(vec!["Alice".into(), "Bob".into(), "alfred".into()]);
        let request =
            |value: &str| CompletionRequest { argument: "name".into(), value: value.into(), context: NameMap::new() };
        assert_eq!(futures_executor::block_on(complete(request("al"))), ["Alice", "alfred"]);
        assert_eq!(futures_executor::block_on(complete(request(""))).len(), 3);
        assert!(futures_executor::block_on(complete(request("z"))).is_empty());
    }
}
