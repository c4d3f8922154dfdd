//! Which tools each thread may use (`enabledTools` per thread id, as ART's thread configs have them).
//!
//! Fails closed: a thread nobody configured has no tools, and a tool is usable only when a thread's list names it.
//! (ART's registry returns every tool when a thread's config is missing; this one does not.)
//! An entry ending in `*` enables every name that starts with what precedes it, e.g. `mcp__github__*` for the tools
//! of server `github`, including tools it adds later, and of no other server ([`super::naming`]; a server whose name
//! is not plain has no such prefix, and a tool whose name clashed has none either).

use litemap::LiteMap;

/// The enabled tool names of each thread.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ThreadEnablement {
    /// Each thread's entries, sorted and without repeats. A sorted list rather than a set type: it is sorted with
    /// the sort of `String`s the host links anyway, where a set built from an iterator compiled a stable sort of
    /// its own for each kind of entry.
    threads: LiteMap<String, Vec<String>>,
}

impl ThreadEnablement {
    /// No thread configured: nothing is enabled anywhere.
    pub fn new() -> Self {
        Self::default()
    }

    /// Replaces a thread's enabled tools.
    pub fn set(&mut self, thread_id: &str, tools: impl IntoIterator<Item = impl Into<String>>) {
        let mut enabled: Vec<String> = tools.into_iter().map(Into::into).collect();
        sort_entries(&mut enabled);
        self.threads.insert(thread_id.to_owned(), enabled);
    }

    /// Adds tools to a thread (configuring it if it was not).
    pub fn enable(&mut self, thread_id: &str, tools: impl IntoIterator<Item = impl Into<String>>) {
        let enabled = self.threads.entry(thread_id.to_owned()).or_default();
        enabled.extend(tools.into_iter().map(Into::into));
        sort_entries(enabled);
    }

    /// Removes tools from a thread. Removing `mcp__x__*` removes that entry, not names it matched.
    pub fn disable<'a>(&mut self, thread_id: &str, tools: impl IntoIterator<Item = &'a str>) {
        if let Some(enabled) = self.threads.get_mut(thread_id) {
            for tool in tools {
                if let Ok(at) = enabled.binary_search_by(|entry| entry.as_str().cmp(tool)) {
                    enabled.remove(at);
                }
            }
        }
    }

    /// Forgets a thread: it has no tools again.
    pub fn forget(&mut self, thread_id: &str) {
        self.threads.remove(thread_id);
    }

    /// The entries of a thread's list, in order, or `None` when the thread is not configured.
    pub fn enabled(&self, thread_id: &str) -> Option<Vec<&str>> {
        self.threads.get(thread_id).map(|enabled| enabled.iter().map(String::as_str).collect())
    }

    /// Whether `tool` may be used in `thread_id`. False for a thread that is not configured.
    pub fn is_enabled(&self, thread_id: &str, tool: &str) -> bool {
        self.threads.get(thread_id).is_some_and(|enabled| lists(enabled, tool))
    }
}

/// A thread's entries sorted, each once.
fn sort_entries(entries: &mut Vec<String>) {
    entries.sort_unstable();
    entries.dedup();
}

/// Whether a tool list (names, and prefixes ending in `*`) lists `tool`.
pub fn lists<S: AsRef<str>>(entries: impl IntoIterator<Item = S>, tool: &str) -> bool {
    entries.into_iter().any(|entry| {
        let entry = entry.as_ref();
        entry == tool || entry.strip_suffix('*').is_some_and(|prefix| tool.starts_with(prefix))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_thread_gets_nothing() {
        let mut enablement = ThreadEnablement::new();
        enablement.set("t1", ["search"]);
        assert!(!enablement.is_enabled("t2", "search"), "fails closed");
        assert!(enablement.enabled("t2").is_none());
        assert!(enablement.is_enabled("t1", "search"));
        assert!(!enablement.is_enabled("t1", "delete"));
    }

    #[test]
    fn enable_disable_set_and_forget() {
        let mut enablement = ThreadEnablement::new();
        enablement.enable("t", ["a", "b"]);
        enablement.disable("t", ["a"]);
        assert!(!enablement.is_enabled("t", "a") && enablement.is_enabled("t", "b"));
        enablement.set("t", ["c"]);
        assert!(!enablement.is_enabled("t", "b") && enablement.is_enabled("t", "c"));
        enablement.set("t", Vec::<String>::new());
        assert!(!enablement.is_enabled("t", "c"), "an empty list enables nothing");
        enablement.forget("t");
        assert!(enablement.enabled("t").is_none());
    }

    #[test]
    fn a_list_reads_back_sorted_and_each_entry_once() {
        let mut enablement = ThreadEnablement::new();
        enablement.set("t", ["b", "a", "b"]);
        assert_eq!(enablement.enabled("t"), Some(vec!["a", "b"]));
        enablement.enable("t", ["c", "a"]);
        assert_eq!(enablement.enabled("t"), Some(vec!["a", "b", "c"]));
        enablement.disable("t", ["b", "x"]);
        assert_eq!(enablement.enabled("t"), Some(vec!["a", "c"]));
    }

    #[test]
    fn a_trailing_star_enables_a_prefix() {
        let mut enablement = ThreadEnablement::new();
        enablement.set("t", ["mcp__github__*"]);
        assert!(enablement.is_enabled("t", "mcp__github__create_issue"));
        assert!(!enablement.is_enabled("t", "mcp__gitlab__create_issue"));
        assert!(!enablement.is_enabled("t", "mcp__github_"), "the whole prefix must match");
    }
}
