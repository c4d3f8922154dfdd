//! The registry's tables: every server's tools as listed, and the index by registry name derived from all of them
//! at once, so that a name never depends on which server came first.

use super::clashes::{self, Claim, NameClash};
use super::{RegistryError, ToolEntry, naming};
use std::collections::BTreeMap;

/// How names are made: the name of a pair, and its name after a clash. Tests pass weak ones to make clashes.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Naming {
    pub(crate) base: fn(&str, &str) -> String,
    pub(crate) clash: fn(&str, &str) -> String,
}

impl Default for Naming {
    fn default() -> Self {
        Self { base: naming::mcp_tool_name, clash: naming::clash_name }
    }
}

/// One tool a server listed. `entry.name` is its registry name while it is registered.
#[derive(Debug)]
pub(super) struct Listed {
    /// Its name unless it clashes.
    pub(super) base: String,
    pub(super) entry: ToolEntry,
    pub(super) registered: bool,
}

/// What a reassignment changed.
#[derive(Debug, Default)]
pub(super) struct Reassigned {
    pub(super) added: Vec<String>,
    pub(super) removed: Vec<String>,
    /// Clashes that were not in force before.
    pub(super) new_clashes: Vec<NameClash>,
    /// Tools left without a name (their clash name clashed too), by server.
    pub(super) unnamed: Vec<(String, RegistryError)>,
}

#[derive(Debug, Default)]
pub(super) struct Table {
    /// Every registered tool, native and MCP, by registry name.
    pub(super) index: BTreeMap<String, ToolEntry>,
    /// Each server's tools, in the order it listed them.
    pub(super) servers: BTreeMap<String, Vec<Listed>>,
    /// The clashes in force.
    clashes: Vec<NameClash>,
}

impl Table {
    /// Names every MCP tool again from the whole set and rebuilds the index. Entries of `replaced` count as removed
    /// and added even when their names stay (their definitions may have changed).
    pub(super) fn reassign(&mut self, naming: Naming, replaced: Option<&str>) -> Reassigned {
        let assignment = {
            let claims: Vec<Claim<'_>> = self
                .servers
                .iter()
                .flat_map(|(server, listed)| {
                    listed.iter().map(move |l| Claim { server, tool: &l.entry.definition.name, base: &l.base })
                })
                .collect();
            clashes::assign(&claims, naming.clash)
        };
        let old = std::mem::take(&mut self.index);
        let mut unnamed = Vec::new();
        self.index = old.iter().filter(|(_, e)| e.server().is_none()).map(|(n, e)| (n.clone(), e.clone())).collect();
        let mut names = assignment.names.into_iter();
        for (server, listed) in &mut self.servers {
            for l in listed.iter_mut() {
                l.registered = false;
                match names.next().flatten() {
                    Some(name) if !self.index.contains_key(&name) => {
                        l.entry.name = name.clone();
                        l.registered = true;
                        self.index.insert(name, l.entry.clone());
                    }
                    Some(name) => {
                        let existing = "a native tool".to_owned();
                        unnamed.push((server.clone(), RegistryError::Duplicate { name, existing }));
                    }
                    None => {
                        let tool = l.entry.definition.name.clone();
                        unnamed.push((server.clone(), RegistryError::Unnamed { server: server.clone(), tool }));
                    }
                }
            }
        }
        let renewed = |entry: &ToolEntry| replaced.is_some_and(|server| entry.server() == Some(server));
        let differs = |name: &String, entry: &ToolEntry, other: &BTreeMap<String, ToolEntry>| {
            renewed(entry) || other.get(name).is_none_or(|o| !same_tool(o, entry))
        };
        let removed = old.iter().filter(|(n, e)| differs(n, e, &self.index)).map(|(n, _)| n.clone()).collect();
        let added = self.index.iter().filter(|(n, e)| differs(n, e, &old)).map(|(n, _)| n.clone()).collect();
        let new_clashes = assignment.clashes.iter().filter(|clash| !self.clashes.contains(clash)).cloned().collect();
        self.clashes = assignment.clashes;
        Reassigned { added, removed, new_clashes, unnamed }
    }

    /// The registry names of a server's registered tools, in the order it listed them.
    pub(super) fn registered_names(&self, server: &str) -> Vec<String> {
        let listed = self.servers.get(server).map(Vec::as_slice).unwrap_or_default();
        listed.iter().filter(|l| l.registered).map(|l| l.entry.name.clone()).collect()
    }
}

/// Whether two entries are the same tool of the same source.
fn same_tool(a: &ToolEntry, b: &ToolEntry) -> bool {
    a.server() == b.server() && a.original_name() == b.original_name()
}
