//! Registry names of MCP tools: `mcp__{server}__{tool}`, always within `^[a-zA-Z0-9_-]{1,64}$` (what OpenAI and
//! Anthropic accept), the same for the same server and tool whatever else is registered, and distinct for
//! distinct pairs.
//!
//! A pair that fits as it is keeps its readable name. When a character has to be replaced or the name is too long,
//! information is lost, so the name gets a short hash of the original pair: `mcp__my_server__get_user_1a2b3c4d`.
//! The server part of an unhashed name never contains `__` nor ends in `_`, so the name reads back to one pair only.

/// The longest name LLM APIs accept.
pub const MAX_TOOL_NAME_LEN: usize = 64;

const PREFIX: &str = "mcp__";
const SEPARATOR: &str = "__";
/// `_` and 8 hex digits.
const HASH_SUFFIX_LEN: usize = 9;

/// Whether `name` matches `^[a-zA-Z0-9_-]{1,64}$`.
pub fn is_valid_tool_name(name: &str) -> bool {
    !name.is_empty() && name.len() <= MAX_TOOL_NAME_LEN && name.bytes().all(is_name_byte)
}

/// The registry name of `tool` from `server`. Deterministic: it depends on these two strings only.
pub fn mcp_tool_name(server: &str, tool: &str) -> String {
    let lossless = server_fits(server) && !tool.is_empty() && tool.bytes().all(is_name_byte);
    let name = format!("{PREFIX}{}{SEPARATOR}{}", sanitize(server), sanitize(tool));
    if lossless && name.len() <= MAX_TOOL_NAME_LEN {
        return name;
    }
    let mut kept: String = name.chars().take(MAX_TOOL_NAME_LEN - HASH_SUFFIX_LEN).collect();
    kept.push('_');
    kept.push_str(&short_hash(server, tool));
    kept
}

/// Whether a name is reserved for MCP tools (natively registered tools may not use it).
pub fn is_mcp_name(name: &str) -> bool {
    name.starts_with(PREFIX)
}

fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

/// A server part that cannot be mistaken for another split of the name.
fn server_fits(server: &str) -> bool {
    !server.is_empty() && server.bytes().all(is_name_byte) && !server.contains(SEPARATOR) && !server.ends_with('_')
}

/// Each character outside `[a-zA-Z0-9_-]` becomes `_`; an empty part becomes `_`.
fn sanitize(part: &str) -> String {
    if part.is_empty() {
        return "_".into();
    }
    part.chars().map(|c| if c.is_ascii() && is_name_byte(c as u8) { c } else { '_' }).collect()
}

/// 32 bits of FNV-1a over both parts (separated by a byte UTF-8 never contains), as 8 hex digits.
/// FNV is used because its output is fixed by its definition: names stay the same across versions and platforms.
fn short_hash(server: &str, tool: &str) -> String {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut hash = OFFSET;
    for byte in server.bytes().chain([0xff]).chain(tool.bytes()) {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(PRIME);
    }
    let folded = (hash ^ (hash >> 32)) as u32;
    format!("{folded:08x}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn a_plain_pair_keeps_its_readable_name() {
        assert_eq!(mcp_tool_name("github", "create_issue"), "mcp__github__create_issue");
        assert_eq!(mcp_tool_name("my-server", "get-user"), "mcp__my-server__get-user");
        assert_eq!(mcp_tool_name("my_server", "x"), "mcp__my_server__x");
    }

    #[test]
    fn characters_llm_apis_reject_are_replaced_and_the_name_gets_a_hash() {
        let name = mcp_tool_name("My Server", "files/read.v2");
        assert!(name.starts_with("mcp__My_Server__files_read_v2_"), "{name}");
        assert!(is_valid_tool_name(&name), "{name}");
        assert!(is_valid_tool_name(&mcp_tool_name("服务器", "工具")));
        assert!(is_valid_tool_name(&mcp_tool_name("", "")));
    }

    #[test]
    fn names_that_would_sanitize_alike_stay_distinct() {
        let pairs = [
            ("a", "b.c"),
            ("a", "b_c"),
            ("a", "b c"),
            ("a", "b/c"),
            ("a.b", "c"),
            ("a_b", "c"),
            ("a__b", "c"),
            ("a", "b__c"),
            ("a_", "_b"),
            ("a", "__b"),
            ("", "a"),
            ("_", "a"),
        ];
        let names: HashSet<String> = pairs.iter().map(|(s, t)| mcp_tool_name(s, t)).collect();
        assert_eq!(names.len(), pairs.len(), "{names:?}");
        assert!(names.iter().all(|n| is_valid_tool_name(n)), "{names:?}");
    }

    #[test]
    fn long_names_are_truncated_to_64_with_a_hash_and_stay_distinct() {
        let server = "a-server-with-a-rather-long-descriptive-name";
        let a = mcp_tool_name(server, "list_all_repositories_for_the_authenticated_user_v1");
        let b = mcp_tool_name(server, "list_all_repositories_for_the_authenticated_user_v2");
        assert_eq!(a.len(), 64);
        assert_eq!(b.len(), 64);
        assert_ne!(a, b);
        assert!(a.starts_with("mcp__a-server-with-a-rather-long"), "{a}");
        assert!(is_valid_tool_name(&a) && is_valid_tool_name(&b));
        let exactly_64 = format!("mcp__s__{}", "t".repeat(56));
        assert_eq!(mcp_tool_name("s", &"t".repeat(56)), exactly_64, "a name of exactly 64 is kept");
        assert_eq!(mcp_tool_name("s", &"t".repeat(57)).len(), 64);
    }

    #[test]
    fn names_are_deterministic() {
        // Fixed values: a change here renames every hashed tool for every user.
        assert_eq!(mcp_tool_name("My Server", "x"), "mcp__My_Server__x_40f786e0");
        assert_ne!(short_hash("ab", "c"), short_hash("a", "bc"));
        assert_eq!(short_hash("a", "b").len(), 8);
    }

    #[test]
    fn the_name_pattern_is_enforced() {
        assert!(is_valid_tool_name("get_weather-v2"));
        assert!(!is_valid_tool_name(""));
        assert!(!is_valid_tool_name("a.b"));
        assert!(!is_valid_tool_name(&"x".repeat(65)));
        assert!(is_mcp_name("mcp__x__y") && !is_mcp_name("search"));
    }
}
