//! The registry's tables: every server's tools as listed, and the index by registry name derived from all of them
//! at once, so that a name never depends on which server came first.

use super::clashes::{self, Claim, Given, NameClash};
use super::{RegistryError, ToolEntry, naming};
use litemap::LiteMap;
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

/// What a change to the tables did.
#[derive(Debug, Default)]
pub(super) struct Reassigned {
    /// Registry names given.
    pub(super) added: Vec<String>,
    /// Registry names taken back.
    pub(super) removed: Vec<String>,
    /// Clashes that were not in force before.
    pub(super) new_clashes: Vec<NameClash>,
    /// Tools left without a name, by server.
    pub(super) unnamed: Vec<(String, RegistryError)>,
}

#[derive(Debug, Default)]
pub(super) struct Table {
    /// Every registered tool, native and MCP, by registry name.
    pub(super) index: BTreeMap<String, ToolEntry>,
    /// Each server's tools, in the order it listed them.
    servers: LiteMap<String, Vec<Listed>>,
    /// The clashes in force.
    clashes: Vec<NameClash>,
}

impl Table {
    /// Replaces a server's tools. Its old tools count as removed and its new ones as added, even under the same
    /// names (their definitions may differ); other servers' tools are renamed where a clash began or ended.
    pub(super) fn replace_server(&mut self, server: &str, listed: Vec<Listed>, naming: Naming) -> Reassigned {
        let old = if listed.is_empty() {
            self.servers.remove(server)
        } else {
            self.servers.insert(server.to_owned(), listed)
        };
        let mut change = Reassigned::default();
        for gone in old.unwrap_or_default().into_iter().filter(|l| l.registered) {
            self.index.remove(&gone.entry.name);
            change.removed.push(gone.entry.name);
        }
        self.rename(naming, &mut change);
        change
    }

    /// Removes the registered tools `predicate` selects; how many, and what changed (other servers' tools may be
    /// renamed: a clash ended).
    pub(super) fn remove_where(
        &mut self,
        predicate: impl Fn(&ToolEntry) -> bool,
        naming: Naming,
    ) -> (usize, Reassigned) {
        let mut change = Reassigned::default();
        let natives: Vec<String> =
            self.index.values().filter(|e| e.server().is_none() && predicate(e)).map(|e| e.name.clone()).collect();
        for name in natives {
            self.index.remove(&name);
            change.removed.push(name);
        }
        for (_, listed) in self.servers.iter_mut() {
            let (gone, kept): (Vec<Listed>, Vec<Listed>) =
                std::mem::take(listed).into_iter().partition(|l| l.registered && predicate(&l.entry));
            *listed = kept;
            for gone in gone {
                self.index.remove(&gone.entry.name);
                change.removed.push(gone.entry.name);
            }
        }
        self.servers.retain(|_, listed| !listed.is_empty());
        let count = change.removed.len();
        if count > 0 {
            self.rename(naming, &mut change);
        }
        (count, change)
    }

    /// Shows a server's destructive tools to agents, or hides them; returns the registry names whose visibility
    /// changed.
    pub(super) fn expose_destructive(&mut self, server: &str, allow: bool) -> Vec<String> {
        let mut changed = Vec::new();
        for listed in self.servers.get_mut(server).map(Vec::as_mut_slice).unwrap_or_default() {
            if !listed.entry.destructive || listed.entry.exposed == allow {
                continue;
            }
            listed.entry.exposed = allow;
            if listed.registered
                && let Some(entry) = self.index.get_mut(&listed.entry.name)
            {
                entry.exposed = allow;
                changed.push(listed.entry.name.clone());
            }
        }
        changed
    }

    /// The registry names of a server's registered tools, in the order it listed them.
    pub(super) fn registered_names(&self, server: &str) -> Vec<String> {
        let listed = self.servers.get(server).map(Vec::as_slice).unwrap_or_default();
        listed.iter().filter(|l| l.registered).map(|l| l.entry.name.clone()).collect()
    }

    /// Names every MCP tool again from the whole set, and updates the index where a name changed.
    fn rename(&mut self, naming: Naming, change: &mut Reassigned) {
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
        let mut targets: Vec<(&mut Listed, Option<String>)> = Vec::new();
        let listed = self.servers.iter_mut().flat_map(|(server, listed)| listed.iter_mut().map(move |l| (server, l)));
        for ((server, l), given) in listed.zip(assignment.given) {
            let target = match given {
                Given::Base if l.registered && l.entry.name == l.base => continue,
                Given::Clash(name) if l.registered && l.entry.name == name => continue,
                Given::Base => Some(l.base.clone()),
                Given::Clash(name) => Some(name),
                Given::Nobody => {
                    let tool = l.entry.definition.name.clone();
                    change.unnamed.push((server.clone(), RegistryError::Unnamed { server: server.clone(), tool }));
                    None
                }
            };
            if l.registered {
                l.registered = false;
                self.index.remove(&l.entry.name);
                change.removed.push(l.entry.name.clone());
            }
            targets.push((l, target));
        }
        for (l, target) in targets {
            let Some(name) = target else { continue };
            if self.index.contains_key(&name) {
                let existing = "a native tool".to_owned();
                change.unnamed.push((
                    l.entry.server().unwrap_or_default().to_owned(),
                    RegistryError::Duplicate { name, existing },
                ));
                continue;
            }
            l.entry.name = name.clone();
            l.registered = true;
            self.index.insert(name.clone(), l.entry.clone());
            change.added.push(name);
        }
        change.new_clashes = assignment.clashes.iter().filter(|clash| !self.clashes.contains(clash)).cloned().collect();
        self.clashes = assignment.clashes;
    }
}
