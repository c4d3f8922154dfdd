//! Which arguments each tool of a server of MCP 2026-07-28 mirrors in headers (`x-mcp-header`), by tool name: a
//! list sorted by name, updated one `tools/list` page at a time.
//!
//! Not a hash map: the standard library's hash seeds are constants on wasm32-unknown-unknown (it has no randomness
//! there), so a server could list tools whose names all fall in one bucket and make each insertion walk past every
//! tool before it, quadratic in a list of hundreds of thousands of tools. Here a page costs a sort of the table's
//! tools and the page's that mirror arguments, whatever the names.

use super::mirrored::HeaderParam;

/// The tools that mirror arguments in headers, sorted by name; tools that mirror none are not kept.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ToolHeaders(Vec<(String, Vec<HeaderParam>)>);

/// One tool of a page: its name, and the arguments it mirrors (`None` when its annotations are invalid, which
/// leaves it none).
pub(crate) type Listed = (String, Option<Vec<HeaderParam>>);

impl ToolHeaders {
    /// The arguments `tool` mirrors (empty for a tool that mirrors none, or that no page listed).
    pub(crate) fn get(&self, tool: &str) -> &[HeaderParam] {
        match self.0.binary_search_by(|(name, _)| name.as_str().cmp(tool)) {
            Ok(at) => &self.0[at].1,
            Err(_) => &[],
        }
    }

    /// Takes in a page: each tool listed now mirrors what the page says (a tool listed twice, what it says last);
    /// tools the page does not list keep what earlier pages said.
    pub(crate) fn update(&mut self, mut page: Vec<Listed>) {
        // Only a tool that mirrors arguments now, or did before, changes the table: a server whose tools mirror
        // none (most) costs no sort.
        page.retain(|(name, params)| params.as_ref().is_some_and(|p| !p.is_empty()) || !self.get(name).is_empty());
        if page.is_empty() {
            return;
        }
        // Every tool of the table, then every tool of the page, by name and then by position: the last of each
        // name is what it mirrors now. The registry sorts the same pairs the same way (its clash groups), so the
        // host links one sort for both.
        let earlier = std::mem::take(&mut self.0);
        let mut said: Vec<Option<Vec<HeaderParam>>> = Vec::with_capacity(earlier.len() + page.len());
        let mut names: Vec<(String, usize)> = Vec::with_capacity(said.capacity());
        for (name, params) in earlier.into_iter().map(|(name, params)| (name, Some(params))).chain(page) {
            names.push((name, said.len()));
            said.push(params);
        }
        names.sort_unstable();
        let mut names = names.into_iter().peekable();
        while let Some((name, mut at)) = names.next() {
            while let Some((_, later)) = names.next_if(|(next, _)| *next == name) {
                at = later;
            }
            if let Some(params) = said[at].take().filter(|params| !params.is_empty()) {
                self.0.push((name, params));
            }
        }
    }
}

#[cfg(test)]
#[path = "tool_headers_tests.rs"]
mod tests;
