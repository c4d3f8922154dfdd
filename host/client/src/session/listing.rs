//! Reading a `tools/list` page while decoding at most a given number of tools: the rest are skipped by the parser
//! (no allocation, no schema values) and only counted.

use mcp_worker_protocol::Tool;
use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// Tools a server listed: the first ones decoded, and how many it listed in all.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct ListedTools {
    /// The tools decoded, in the server's order (at most the number asked for).
    pub tools: Vec<Tool>,
    /// How many the server listed, decoded or not.
    pub total: usize,
}

/// Adds one page's `tools` array to `listed`, decoding while fewer than `max` are kept.
pub(super) struct Upto<'a> {
    pub(super) listed: &'a mut ListedTools,
    pub(super) max: usize,
}

impl ListedTools {
    /// Tools of which all were decoded.
    pub fn all(tools: Vec<Tool>) -> Self {
        let total = tools.len();
        Self { tools, total }
    }
}

/// Reads one `tools/list` result (`{"tools": [...], "nextCursor": ...}`) in one pass: its tools as [`Upto`] does,
/// and its cursor, which it returns.
pub(super) struct PageUpto<'a> {
    pub(super) listed: &'a mut ListedTools,
    pub(super) max: usize,
}

impl<'de> DeserializeSeed<'de> for PageUpto<'_> {
    type Value = Option<String>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Option<String>, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for PageUpto<'_> {
    type Value = Option<String>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a tools/list result object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Option<String>, A::Error> {
        let mut cursor = None;
        let mut tools = false;
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            match key.as_ref() {
                "tools" if !tools => {
                    map.next_value_seed(Upto { listed: &mut *self.listed, max: self.max })?;
                    tools = true;
                }
                "nextCursor" => cursor = map.next_value::<Option<String>>()?,
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        if !tools {
            return Err(serde::de::Error::missing_field("tools"));
        }
        Ok(cursor)
    }
}

impl<'de> DeserializeSeed<'de> for Upto<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Upto<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of tools")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        loop {
            let more = if self.listed.tools.len() < self.max {
                match seq.next_element::<Tool>()? {
                    Some(tool) => {
                        self.listed.tools.push(tool);
                        true
                    }
                    None => false,
                }
            } else {
                seq.next_element::<IgnoredAny>()?.is_some()
            };
            if !more {
                return Ok(());
            }
            self.listed.total += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(page: &str, listed: &mut ListedTools, max: usize) -> serde_json::Result<()> {
        let mut reader = serde_json::Deserializer::from_str(page);
        Upto { listed, max }.deserialize(&mut reader)?;
        reader.end()
    }

    #[test]
    fn only_the_first_are_decoded_and_all_are_counted_across_pages() {
        let tool = |name: &str| format!(r#"{{"name":"{name}","inputSchema":{{"type":"object"}}}}"#);
        let mut listed = ListedTools::default();
        read(&format!("[{},{}]", tool("a"), tool("b")), &mut listed, 3).unwrap();
        // Past the bound, an element is only skipped: even one that is not a tool.
        read(&format!("[{},{},42]", tool("c"), tool("d")), &mut listed, 3).unwrap();
        let names: Vec<&str> = listed.tools.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["a", "b", "c"]);
        assert_eq!(listed.total, 5);
    }

    #[test]
    fn a_page_is_read_in_one_pass_with_its_cursor() {
        let mut listed = ListedTools::default();
        let page = r#"{"_meta": {"x": [1]}, "tools": [{"name": "a", "inputSchema": {}}, 7], "nextCursor": "p2"}"#;
        let mut reader = serde_json::Deserializer::from_str(page);
        let cursor = PageUpto { listed: &mut listed, max: 1 }.deserialize(&mut reader).unwrap();
        assert_eq!(cursor.as_deref(), Some("p2"));
        assert_eq!((listed.tools.len(), listed.total), (1, 2));
        let mut reader = serde_json::Deserializer::from_str(r#"{"nextCursor": null}"#);
        assert!(PageUpto { listed: &mut listed, max: 1 }.deserialize(&mut reader).is_err(), "tools is required");
    }

    #[test]
    fn a_tool_that_does_not_decode_within_the_bound_is_an_error() {
        let mut listed = ListedTools::default();
        assert!(read(r#"[{"name": 5}]"#, &mut listed, 3).is_err());
        assert!(read(r#"{"not": "an array"}"#, &mut listed, 3).is_err());
    }
}
