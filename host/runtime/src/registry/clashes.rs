//! Registry names that coincide: every party gets its clash name, nobody keeps the contested one, and the clash is
//! reported.
//!
//! Names are assigned over every MCP tool at once, from the server and tool names alone, so the same servers and
//! tools get the same names whatever order they were registered in: no first comer keeps a name. [`naming`] makes
//! clashes between servers out of reach; this is what happens if one occurs anyway (a server's own tool named like
//! one of its hashed names, or a hash collision).
//!
//! [`naming`]: super::naming

use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

/// One tool caught in a clash.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[non_exhaustive]
pub struct ClashedTool {
    /// Its server.
    pub server: String,
    /// Its own name (the server's).
    pub tool: String,
    /// The registry name it got instead; `None` when that name clashed too (two SHA-256 hashes equal in 96 bits),
    /// so the tool is not registered.
    pub name: Option<String>,
}

/// Tools that would have had the same registry name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct NameClash {
    /// The name each would have had; none of them has it.
    pub name: String,
    /// The tools, ordered by server and tool name, with the names they got.
    pub tools: Vec<ClashedTool>,
}

/// One MCP tool, as the assignment sees it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Claim<'a> {
    pub(super) server: &'a str,
    pub(super) tool: &'a str,
    /// The name it has unless it clashes.
    pub(super) base: &'a str,
}

/// Every claim's registry name (`None`: not registered), and the clashes.
#[derive(Debug)]
pub(super) struct Assignment {
    pub(super) names: Vec<Option<String>>,
    pub(super) clashes: Vec<NameClash>,
}

/// Names every claim: its base name, or its clash name when another claim has the same base name. A name that is
/// still contested after that is given to nobody. The result depends on the set of claims only (it is the same
/// for any order of `claims`, position for position).
pub(super) fn assign(claims: &[Claim<'_>], clash_name: fn(&str, &str) -> String) -> Assignment {
    let bases: Vec<String> = claims.iter().map(|claim| claim.base.to_owned()).collect();
    let contested = holders_of_shared(&bases);
    let mut names = bases.clone();
    for indexes in contested.values() {
        for &i in indexes {
            names[i] = clash_name(claims[i].server, claims[i].tool);
        }
    }
    let still_contested = holders_of_shared(&names);
    let given: Vec<Option<String>> =
        names.iter().map(|name| (!still_contested.contains_key(name.as_str())).then(|| name.clone())).collect();
    let clashes = contested
        .iter()
        .chain(still_contested.iter())
        .map(|(name, indexes)| {
            let mut tools: Vec<ClashedTool> = indexes
                .iter()
                .map(|&i| ClashedTool {
                    server: claims[i].server.to_owned(),
                    tool: claims[i].tool.to_owned(),
                    name: given[i].clone(),
                })
                .collect();
            tools.sort();
            NameClash { name: (*name).to_owned(), tools }
        })
        .collect();
    Assignment { names: given, clashes }
}

/// The names held more than once, each with its holders.
fn holders_of_shared(names: &[String]) -> BTreeMap<&str, Vec<usize>> {
    let mut holders: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, name) in names.iter().enumerate() {
        holders.entry(name.as_str()).or_default().push(i);
    }
    holders.into_iter().filter(|(_, indexes)| indexes.len() > 1).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claim<'a>(server: &'a str, tool: &'a str, base: &'a str) -> Claim<'a> {
        Claim { server, tool, base }
    }

    fn clash(server: &str, tool: &str) -> String {
        format!("clash-{server}-{tool}")
    }

    #[test]
    fn distinct_names_are_kept_and_nothing_is_reported() {
        let claims = [claim("a", "x", "n1"), claim("b", "x", "n2")];
        let assignment = assign(&claims, clash);
        assert_eq!(assignment.names, [Some("n1".into()), Some("n2".into())]);
        assert!(assignment.clashes.is_empty());
    }

    #[test]
    fn every_party_to_a_clash_gets_its_clash_name_and_nobody_keeps_the_contested_one() {
        let claims = [claim("a", "x", "same"), claim("b", "y", "other"), claim("c", "z", "same")];
        let assignment = assign(&claims, clash);
        assert_eq!(assignment.names, [Some("clash-a-x".into()), Some("other".into()), Some("clash-c-z".into())]);
        assert_eq!(
            assignment.clashes,
            [NameClash {
                name: "same".into(),
                tools: vec![
                    ClashedTool { server: "a".into(), tool: "x".into(), name: Some("clash-a-x".into()) },
                    ClashedTool { server: "c".into(), tool: "z".into(), name: Some("clash-c-z".into()) },
                ],
            }]
        );
    }

    #[test]
    fn the_order_of_the_claims_changes_nothing() {
        let claims = [claim("a", "x", "same"), claim("b", "y", "other"), claim("c", "z", "same")];
        let forward = assign(&claims, clash);
        let mut reversed = claims;
        reversed.reverse();
        let backward = assign(&reversed, clash);
        let mut names = backward.names.clone();
        names.reverse();
        assert_eq!(names, forward.names);
        assert_eq!(backward.clashes, forward.clashes);
    }

    #[test]
    fn a_clash_name_that_clashes_again_is_given_to_nobody() {
        fn constant(_: &str, _: &str) -> String {
            "fallback".into()
        }
        let claims = [claim("a", "x", "same"), claim("b", "y", "same"), claim("c", "z", "fallback")];
        let assignment = assign(&claims, constant);
        assert_eq!(assignment.names, [None, None, None], "no first comer keeps `fallback` either");
        let contested: Vec<&str> = assignment.clashes.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(contested, ["same", "fallback"]);
    }
}
