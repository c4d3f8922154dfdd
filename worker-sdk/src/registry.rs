//! What a server offers right now: tools, resources, resource templates and prompts, each in registration order
//! with an index by name (or URI). The session reads it for every list and call; a [`crate::ServerHandle`] changes
//! it while the server runs.

use crate::error::Error;
use crate::prompt::PromptDef;
use crate::resource::{ResourceDef, ResourceTemplateDef};
use crate::tool::{ToolDef, check_tool_name};
use mcp_worker_protocol::NameMap;

/// An item of a registry: its kind (for messages), its key, and its own validity.
pub(crate) trait Item {
    const KIND: &'static str;
    fn key(&self) -> &str;
    fn check(&self) -> Result<(), Error>;
}

impl Item for ToolDef {
    const KIND: &'static str = "tool";
    fn key(&self) -> &str {
        &self.definition.name
    }
    fn check(&self) -> Result<(), Error> {
        check_tool_name(self.key()).map_err(|reason| invalid(Self::KIND, self.key(), reason))
    }
}

impl Item for ResourceDef {
    const KIND: &'static str = "resource";
    fn key(&self) -> &str {
        &self.definition.uri
    }
    fn check(&self) -> Result<(), Error> {
        check_uri(Self::KIND, self.key())
    }
}

impl Item for ResourceTemplateDef {
    const KIND: &'static str = "resource template";
    fn key(&self) -> &str {
        &self.definition.uri_template
    }
    fn check(&self) -> Result<(), Error> {
        check_uri(Self::KIND, self.key())?;
        let template = self.template.as_ref().map_err(|reason| invalid(Self::KIND, self.key(), reason.clone()))?;
        let variables: Vec<&str> = template.variables().collect();
        match self.completers.names().find(|name| !variables.contains(name)) {
            Some(name) => {
                Err(invalid(Self::KIND, self.key(), format!("it completes `{name}`, which it does not have")))
            }
            None => Ok(()),
        }
    }
}

impl Item for PromptDef {
    const KIND: &'static str = "prompt";
    fn key(&self) -> &str {
        &self.definition.name
    }
    fn check(&self) -> Result<(), Error> {
        let name = self.key();
        if name.is_empty() || name.len() > 128 || name.chars().any(|c| c.is_control() || c.is_whitespace()) {
            return Err(invalid(Self::KIND, name, "use 1-128 characters, without spaces".into()));
        }
        let arguments = self.definition.arguments.as_deref().unwrap_or_default();
        match self.completers.names().find(|c| !arguments.iter().any(|a| a.name == *c)) {
            Some(c) => Err(invalid(Self::KIND, name, format!("it completes `{c}`, which is not one of its arguments"))),
            None => Ok(()),
        }
    }
}

fn invalid(kind: &'static str, name: &str, reason: String) -> Error {
    Error::InvalidName { kind, name: name.to_owned(), reason }
}

/// A URI (or URI template) needs a scheme: `scheme:` with a letter first.
fn check_uri(kind: &'static str, uri: &str) -> Result<(), Error> {
    let scheme = uri.split_once(':').map(|(scheme, _)| scheme).unwrap_or_default();
    let valid = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        && !uri.chars().any(char::is_whitespace);
    if valid { Ok(()) } else { Err(invalid(kind, uri, "a URI needs a scheme (`scheme:…`) and no spaces".into())) }
}

/// Items of one kind in registration order, indexed by key.
pub(crate) struct Items<T> {
    list: Vec<T>,
    /// Positions in `list`, sorted by the items' keys.
    index: Vec<usize>,
    /// Counts the changes, so that what is made from the items (a listing) knows when it is stale.
    version: u64,
}

impl<T> Default for Items<T> {
    fn default() -> Self {
        Self { list: Vec::new(), index: Vec::new(), version: 0 }
    }
}

impl<T: Item> Items<T> {
    pub(crate) fn add(&mut self, item: T) -> Result<(), Error> {
        item.check()?;
        let Err(at) = self.find(item.key()) else {
            return Err(Error::Duplicate { kind: T::KIND, name: item.key().to_owned() });
        };
        self.index.insert(at, self.list.len());
        self.list.push(item);
        self.version += 1;
        Ok(())
    }

    pub(crate) fn remove(&mut self, key: &str) -> Option<T> {
        let position = self.index.remove(self.find(key).ok()?);
        let item = self.list.remove(position);
        self.version += 1;
        for i in &mut self.index {
            if *i > position {
                *i -= 1;
            }
        }
        Some(item)
    }

    pub(crate) fn get(&self, key: &str) -> Option<&T> {
        self.find(key).ok().map(|at| &self.list[self.index[at]])
    }

    /// Where in `index` the item of `key` is, or would go.
    fn find(&self, key: &str) -> Result<usize, usize> {
        self.index.binary_search_by(|&position| self.list[position].key().cmp(key))
    }

    pub(crate) fn all(&self) -> &[T] {
        &self.list
    }

    pub(crate) fn len(&self) -> usize {
        self.list.len()
    }

    /// Changes with every item added or removed.
    pub(crate) fn version(&self) -> u64 {
        self.version
    }
}

/// Everything a server offers.
#[derive(Default)]
pub(crate) struct Registry {
    pub(crate) tools: Items<ToolDef>,
    pub(crate) resources: Items<ResourceDef>,
    pub(crate) templates: Items<ResourceTemplateDef>,
    pub(crate) prompts: Items<PromptDef>,
}

impl Registry {
    /// The template that names `uri`, with the values of its variables (first match in registration order).
    pub(crate) fn match_template(&self, uri: &str) -> Option<(&ResourceTemplateDef, NameMap<String>)> {
        self.templates.all().iter().find_map(|t| {
            let values = t.template.as_ref().ok()?.matches(uri)?;
            Some((t, values))
        })
    }
}

impl std::fmt::Debug for Registry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Registry")
            .field("tools", &self.tools.len())
            .field("resources", &self.resources.len())
            .field("templates", &self.templates.len())
            .field("prompts", &self.prompts.len())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::NoArgs;

    fn tool(name: &str) -> ToolDef {
        ToolDef::new(name, |_: NoArgs| async {})
    }

    #[test]
    fn items_keep_their_order_and_index_through_removals() {
        let mut tools = Items::default();
        for name in ["a", "b", "c", "d"] {
            tools.add(tool(name)).unwrap();
        }
        assert!(tools.remove("b").is_some());
        assert!(tools.remove("b").is_none());
        let names: Vec<&str> = tools.all().iter().map(Item::key).collect();
        assert_eq!(names, ["a", "c", "d"]);
        assert_eq!(tools.get("d").map(Item::key), Some("d"));
        assert_eq!(tools.add(tool("c")), Err(Error::Duplicate { kind: "tool", name: "c".into() }));
        assert!(matches!(tools.add(tool("bad name")), Err(Error::InvalidName { kind: "tool", .. })));
    }

    #[test]
    fn items_added_in_any_order_are_found_by_key_and_listed_in_the_order_they_came() {
        let mut tools = Items::default();
        let names: Vec<String> = (0..200).rev().map(|i| format!("tool_{i:03}")).collect();
        for name in &names {
            tools.add(tool(name)).unwrap();
        }
        for name in &names {
            assert_eq!(tools.get(name).map(Item::key), Some(name.as_str()));
            assert!(matches!(tools.add(tool(name)), Err(Error::Duplicate { .. })));
        }
        assert!(tools.get("tool_200").is_none());
        assert!(tools.remove("tool_100").is_some());
        assert!(tools.get("tool_100").is_none());
        assert_eq!(tools.get("tool_099").map(Item::key), Some("tool_099"), "found after a removal moved it");
        let listed: Vec<&str> = tools.all().iter().map(Item::key).take(2).collect();
        assert_eq!(listed, ["tool_199", "tool_198"]);
    }

    #[test]
    fn resources_need_a_uri_with_a_scheme() {
        let read = |_| async { "" };
        let mut resources = Items::default();
        assert!(resources.add(ResourceDef::new("test://static-text", "t", read)).is_ok());
        for bad in ["no-scheme", "1x://a", "test://with space", ""] {
            assert!(resources.add(ResourceDef::new(bad, "t", read)).is_err(), "{bad}");
        }
        let mut templates = Items::default();
        assert!(templates.add(ResourceTemplateDef::new("test://{id}", "t", read)).is_ok());
        let err = templates.add(ResourceTemplateDef::new("test://{id", "t", read)).unwrap_err();
        assert!(err.to_string().contains("unclosed"), "{err}");
        let typo = ResourceTemplateDef::new("test://x/{id}", "t", read).complete_values("idd", ["1"]);
        assert!(templates.add(typo).unwrap_err().to_string().contains("`idd`"));
    }
}
