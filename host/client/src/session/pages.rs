//! Following `nextCursor` through a list's pages, with the limits every reader of a list keeps: a cursor seen before
//! (a loop) and more than [`MAX_LIST_PAGES`] pages are the server's fault.

use super::MAX_LIST_PAGES;
use mcp_worker_protocol::PaginatedParams;
use mcp_worker_protocol::quoted::quoted;

/// Where a read of the list `method` is: the cursor to ask for next, and the cursors seen.
pub(crate) struct Pages<'a> {
    method: &'a str,
    cursor: Option<String>,
    /// The cursors seen, sorted.
    seen: Vec<String>,
    requested: usize,
}

impl<'a> Pages<'a> {
    pub(crate) fn new(method: &'a str) -> Self {
        Self { method, cursor: None, seen: Vec::new(), requested: 0 }
    }

    /// The params of the next page to request; an error once [`MAX_LIST_PAGES`] pages have been requested.
    pub(crate) fn next_params(&mut self) -> Result<PaginatedParams, String> {
        if self.requested == MAX_LIST_PAGES {
            return Err(format!("{} did not end within {MAX_LIST_PAGES} pages", self.method));
        }
        self.requested += 1;
        Ok(PaginatedParams::new(self.cursor.take()))
    }

    /// Takes the cursor a page named (`None`: it was the last): whether there is another page to request.
    pub(crate) fn follow(&mut self, next: Option<String>) -> Result<bool, String> {
        let Some(next) = next else { return Ok(false) };
        match self.seen.binary_search(&next) {
            Ok(_) => return Err(format!("{} repeated cursor {}", self.method, quoted(&next))),
            Err(at) => self.seen.insert(at, next.clone()),
        }
        self.cursor = Some(next);
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cursor(params: &PaginatedParams) -> Option<String> {
        serde_json::to_value(params).unwrap()["cursor"].as_str().map(str::to_owned)
    }

    #[test]
    fn pages_follow_each_cursor_once_then_end() {
        let mut pages = Pages::new("tools/list");
        assert_eq!(cursor(&pages.next_params().unwrap()), None);
        assert_eq!(pages.follow(Some("p2".into())), Ok(true));
        assert_eq!(cursor(&pages.next_params().unwrap()), Some("p2".into()));
        assert_eq!(pages.follow(None), Ok(false));
    }

    #[test]
    fn a_repeated_cursor_is_a_loop() {
        let mut pages = Pages::new("tools/list");
        pages.next_params().unwrap();
        assert_eq!(pages.follow(Some("a".into())), Ok(true));
        pages.next_params().unwrap();
        assert_eq!(pages.follow(Some("a".into())), Err("tools/list repeated cursor \"a\"".into()));
    }

    #[test]
    fn a_list_ends_within_the_page_limit() {
        let mut pages = Pages::new("prompts/list");
        for page in 0..MAX_LIST_PAGES {
            pages.next_params().unwrap();
            assert_eq!(pages.follow(Some(format!("c{page}"))), Ok(true));
        }
        let error = pages.next_params().unwrap_err();
        assert_eq!(error, format!("prompts/list did not end within {MAX_LIST_PAGES} pages"));
    }
}
