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
use std::collections::HashMap;

/// One tool caught in a clash.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
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
    /// The tools, by server name, then in the order each server listed them, with the names they got.
    pub tools: Vec<ClashedTool>,
}

/// One MCP tool, as the assignment sees it. Claims come by server name, then in the order each server listed them.
#[derive(Debug, Clone, Copy)]
pub(super) struct Claim<'a> {
    pub(super) server: &'a str,
    pub(super) tool: &'a str,
    /// The name it has unless it clashes.
    pub(super) base: &'a str,
}

/// What a claim is named.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Given {
    /// Its base name.
    Base,
    /// Its clash name.
    Clash(String),
    /// Nothing: even its clash name is contested.
    Nobody,
}

/// Every claim's name, position for position, and the clashes.
#[derive(Debug)]
pub(super) struct Assignment {
    pub(super) given: Vec<Given>,
    pub(super) clashes: Vec<NameClash>,
}

/// Names every claim: its base name, or its clash name when another claim has the same base name. A name that is
/// still contested after that is given to nobody. The result depends on the set of claims only (it is the same
/// for any order of `claims`, position for position). Linear in the claims when nothing clashes.
pub(super) fn assign(claims: &[Claim<'_>], clash_name: fn(&str, &str) -> String) -> Assignment {
    let mut holders: HashMap<&str, usize> = HashMap::with_capacity(claims.len());
    for claim in claims {
        *holders.entry(claim.base).or_default() += 1;
    }
    let mut given = vec![Given::Base; claims.len()];
    let mut contested: Vec<(String, usize)> = Vec::new();
    for (i, claim) in claims.iter().enumerate() {
        if holders[claim.base] > 1 {
            contested.push((claim.base.to_owned(), i));
            given[i] = Given::Clash(clash_name(claim.server, claim.tool));
        }
    }
    let contested = grouped(contested);
    // A clash name is contested again when two claims got it, or a claim keeps it as its base name.
    let mut clash_holders: HashMap<String, usize> = HashMap::new();
    for name in given.iter().filter_map(clash_of) {
        *clash_holders.entry(name.to_owned()).or_default() += 1;
    }
    let again: Vec<(String, Vec<usize>)> =
        if clash_holders.iter().any(|(name, count)| *count > 1 || holders.get(name.as_str()) == Some(&1)) {
            let mut again: Vec<(String, usize)> = Vec::new();
            for (i, claim) in claims.iter().enumerate() {
                let name = clash_of(&given[i]).unwrap_or(claim.base);
                let kept_base = holders.get(name) == Some(&1);
                if clash_holders.get(name).is_some_and(|count| count + usize::from(kept_base) > 1) {
                    again.push((name.to_owned(), i));
                }
            }
            for &(_, i) in &again {
                given[i] = Given::Nobody;
            }
            grouped(again)
        } else {
            Vec::new()
        };
    let report = |name: &str, indexes: &[usize]| {
        let tools: Vec<ClashedTool> = indexes
            .iter()
            .map(|&i| ClashedTool {
                server: claims[i].server.to_owned(),
                tool: claims[i].tool.to_owned(),
                name: match &given[i] {
                    Given::Base => Some(claims[i].base.to_owned()),
                    Given::Clash(name) => Some(name.clone()),
                    Given::Nobody => None,
                },
            })
            .collect();
        NameClash { name: name.to_owned(), tools }
    };
    let mut clashes: Vec<NameClash> = contested.iter().map(|(name, indexes)| report(name, indexes)).collect();
    clashes.extend(again.iter().map(|(name, indexes)| report(name, indexes)));
    Assignment { given, clashes }
}

/// `(name, claim)` pairs grouped by name, in name order, each group's claims in their order: a sort rather than a
/// map, so that many contested names cost O(n log n).
fn grouped(mut pairs: Vec<(String, usize)>) -> Vec<(String, Vec<usize>)> {
    // By name, then by claim: the claims of a name keep their order.
    pairs.sort_unstable();
    let mut groups: Vec<(String, Vec<usize>)> = Vec::new();
    for (name, i) in pairs {
        match groups.last_mut() {
            Some((last, indexes)) if *last == name => indexes.push(i),
            _ => groups.push((name, vec![i])),
        }
    }
    groups
}

fn clash_of(given: &Given) -> Option<&str> {
    match given {
        Given::Clash(name) => Some(name),
        _ => None,
    }
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
        assert_eq!(assignment.given, [Given::Base, Given::Base]);
        assert!(assignment.clashes.is_empty());
    }

    #[test]
    fn every_party_to_a_clash_gets_its_clash_name_and_nobody_keeps_the_contested_one() {
        let claims = [claim("a", "x", "same"), claim("b", "y", "other"), claim("c", "z", "same")];
        let assignment = assign(&claims, clash);
        assert_eq!(assignment.given, [Given::Clash("clash-a-x".into()), Given::Base, Given::Clash("clash-c-z".into())]);
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
        let mut given = backward.given.clone();
        given.reverse();
        assert_eq!(given, forward.given);
        let parties = |assignment: &Assignment| {
            let mut parties: Vec<(String, String, Option<String>)> = assignment.clashes[0]
                .tools
                .iter()
                .map(|t| (t.server.clone(), t.tool.clone(), t.name.clone()))
                .collect();
            parties.sort();
            parties
        };
        assert_eq!(parties(&backward), parties(&forward), "the same parties (the table gives claims in one order)");
    }

    #[test]
    fn a_clash_name_that_clashes_again_is_given_to_nobody() {
        fn constant(_: &str, _: &str) -> String {
            "fallback".into()
        }
        let claims = [claim("a", "x", "same"), claim("b", "y", "same"), claim("c", "z", "fallback")];
        let assignment = assign(&claims, constant);
        assert_eq!(assignment.given, [Given::Nobody, Given::Nobody, Given::Nobody], "no first comer keeps it");
        let contested: Vec<&str> = assignment.clashes.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(contested, ["same", "fallback"]);
    }
}
