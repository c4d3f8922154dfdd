use super::*;
use std::collections::HashSet;

/// The naming of earlier versions, kept here to show what it allowed: `mcp__{server}__{tool}` cut to 55
/// characters, then `_` and 32 bits of FNV-1a.
pub(crate) fn old_name(server: &str, tool: &str) -> String {
    let lossless = server_fits(server) && is_plain(tool);
    let name = format!("{PREFIX}{}{SEPARATOR}{}", sanitize(server), sanitize(tool));
    if lossless && name.len() <= MAX_TOOL_NAME_LEN {
        return name;
    }
    let mut kept: String = name.chars().take(MAX_TOOL_NAME_LEN - 9).collect();
    kept.push('_');
    kept.push_str(&format!("{:08x}", old_hash(server, tool)));
    kept
}

fn old_hash(server: &str, tool: &str) -> u32 {
    let state = fnv(fnv(fnv(FNV_OFFSET, server.as_bytes()), &[0xff]), tool.as_bytes());
    fold(state)
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

fn fnv(mut state: u64, bytes: &[u8]) -> u64 {
    for byte in bytes {
        state ^= u64::from(*byte);
        state = state.wrapping_mul(FNV_PRIME);
    }
    state
}

fn fold(state: u64) -> u32 {
    (state ^ (state >> 32)) as u32
}

/// A server's tool, and a crafted server and tool whose old name was the same: the crafted server name
/// makes the visible part equal (the old name kept the first 55 characters), and the six letters of the tool name
/// were searched for the same 32-bit hash (see `crafting_an_old_collision_takes_seconds`).
pub(crate) const VICTIM: (&str, &str) = ("github", "list_all_repositories_for_the_authenticated_user_with_pagination");
pub(crate) const CRAFTED: (&str, &str) = ("github__list_all_repositories_for_the_authenticated", "ellnnh");

#[test]
fn a_plain_pair_keeps_its_readable_name() {
    assert_eq!(mcp_tool_name("github", "create_issue"), "mcp__github__create_issue");
    assert_eq!(mcp_tool_name("my-server", "get-user"), "mcp__my-server__get-user");
    assert_eq!(mcp_tool_name("my_server", "x"), "mcp__my_server__x");
    let exactly_64 = format!("mcp__s__{}", "t".repeat(56));
    assert_eq!(mcp_tool_name("s", &"t".repeat(56)), exactly_64, "a name of exactly 64 is kept");
}

#[test]
fn a_crafted_name_took_another_servers_name_under_the_old_naming_and_no_longer_does() {
    let (victim, crafted) = (old_name(VICTIM.0, VICTIM.1), old_name(CRAFTED.0, CRAFTED.1));
    assert_eq!(victim, crafted, "the old naming gave both the same name");
    assert!(crafted.starts_with("mcp__github__"), "and the crafted one matched `mcp__github__*`");

    let (victim, crafted) = (mcp_tool_name(VICTIM.0, VICTIM.1), mcp_tool_name(CRAFTED.0, CRAFTED.1));
    assert_ne!(victim, crafted);
    assert!(victim.starts_with("mcp__github__list_all_repositories_"), "{victim}");
    assert!(!crafted.starts_with("mcp__github__"), "{crafted}: a server whose name is not plain has no prefix");
    assert!(is_valid_tool_name(&victim) && is_valid_tool_name(&crafted));
    assert_ne!(clash_name(VICTIM.0, VICTIM.1), clash_name(CRAFTED.0, CRAFTED.1));
}

#[test]
fn copying_a_hashed_name_as_a_plain_one_no_longer_takes_it() {
    // Old: "My Server"'s tool was `mcp__My_Server__get_user_8bb942a4`, which server `My_Server` could list as is.
    assert_eq!(old_name("My Server", "get.user"), "mcp__My_Server__get_user_8bb942a4");
    assert_eq!(old_name("My_Server", "get_user_8bb942a4"), old_name("My Server", "get.user"));
    let hashed = mcp_tool_name("My Server", "get.user");
    assert_eq!(hashed, "mcp__My_Server_get_user_e79118479b26d646");
    let copy = hashed.strip_prefix("mcp__My_Server_").unwrap();
    assert_ne!(mcp_tool_name("My_Server", copy), hashed);
    assert_ne!(mcp_tool_name("My", &format!("Server_{copy}")), hashed);
}

#[test]
fn characters_llm_apis_reject_are_replaced_and_the_name_gets_a_hash() {
    let name = mcp_tool_name("My Server", "files/read.v2");
    assert!(name.starts_with("mcp__My_Server_files_read_v2_"), "{name}");
    let name = mcp_tool_name("github", "files/read");
    assert!(name.starts_with("mcp__github__files_read_"), "a plain server keeps its prefix: {name}");
    assert_eq!(name.len(), "mcp__github__files_read_".len() + 16);
    for (server, tool) in [("服务器", "工具"), ("", ""), ("_", "_"), ("a\u{7}", "\n"), ("__", "__")] {
        assert!(is_valid_tool_name(&mcp_tool_name(server, tool)), "{server:?} {tool:?}");
        assert!(is_valid_tool_name(&clash_name(server, tool)), "{server:?} {tool:?}");
    }
}

#[test]
fn long_names_are_cut_to_64_with_a_hash_and_stay_distinct() {
    let server = "a-server-with-a-rather-long-descriptive-name";
    let a = mcp_tool_name(server, "list_all_repositories_for_the_authenticated_user_v1");
    let b = mcp_tool_name(server, "list_all_repositories_for_the_authenticated_user_v2");
    assert_eq!((a.len(), b.len()), (64, 64));
    assert_ne!(a, b);
    assert!(a.starts_with("mcp__a-server-with-a-rather-long"), "{a}");
    assert_eq!(mcp_tool_name("s", &"t".repeat(57)).len(), 64);
    let long_server = "s".repeat(200);
    assert_eq!(mcp_tool_name(&long_server, "t").len(), 64);
    assert_eq!(clash_name(&long_server, "t").len(), 64);
}

#[test]
fn the_forms_never_meet() {
    let servers = ["github", "git hub", "git_hub", "github__x", "gh_", "_gh", "g-h", "", "_", &"s".repeat(40)];
    let tools = ["a", "a_b", "a__b", "a.b", "a b", "", "_", "x_0123456789abcdef", &"t".repeat(70)];
    let mut seen = HashSet::new();
    for server in servers {
        for tool in tools {
            let (name, clashed) = (mcp_tool_name(server, tool), clash_name(server, tool));
            assert!(is_valid_tool_name(&name) && is_valid_tool_name(&clashed), "{server:?} {tool:?}");
            let rest = clashed.strip_prefix(PREFIX).unwrap();
            assert!(!rest.contains(SEPARATOR), "{clashed}");
            let marker = clashed.as_bytes()[clashed.len() - HASH_DIGITS - 1];
            assert!(marker.is_ascii_hexdigit(), "{clashed}: where a hashed name has `_`");
            // Under a server's prefix (`mcp__github__`) only that server's names; the others have no `__`.
            let under_own_prefix = name.starts_with(&format!("{PREFIX}{server}{SEPARATOR}"));
            let flat = !name[PREFIX.len()..].contains(SEPARATOR);
            assert!(if server_fits(server) { under_own_prefix || flat } else { flat }, "{name}");
            for other in servers.iter().filter(|other| **other != server && server_fits(other)) {
                assert!(!name.starts_with(&format!("{PREFIX}{other}{SEPARATOR}")), "{name} under {other}");
            }
            assert!(seen.insert(name.clone()), "{name} given twice");
            assert!(seen.insert(clashed.clone()), "{clashed} given twice");
        }
    }
}

#[test]
fn names_are_deterministic() {
    // Fixed values: a change here renames tools for every user. The hashes are SHA-256 of the label, then
    // each name after its length as 8 big-endian bytes.
    assert_eq!(mcp_tool_name("My Server", "get.user"), "mcp__My_Server_get_user_e79118479b26d646");
    assert_eq!(clash_name("My Server", "get.user"), "mcp__My_Server_get_user-0f2c173228e940c5d43ed58e");
    assert_ne!(mcp_tool_name("ab", "c."), mcp_tool_name("a", "bc."));
}

#[test]
fn the_name_pattern_is_enforced() {
    assert!(is_valid_tool_name("get_weather-v2"));
    assert!(!is_valid_tool_name(""));
    assert!(!is_valid_tool_name("a.b"));
    assert!(!is_valid_tool_name(&"x".repeat(65)));
    assert!(is_mcp_name("mcp__x__y") && !is_mcp_name("search"));
}

/// How `CRAFTED` was found: run with
/// `cargo test -p mcp-worker-runtime --release -- --ignored crafting_an_old_collision`.
#[test]
#[ignore = "a brute-force search of a few seconds in release builds"]
fn crafting_an_old_collision_takes_seconds() {
    let target = old_hash(VICTIM.0, VICTIM.1);
    let start = fnv(fnv(FNV_OFFSET, CRAFTED.0.as_bytes()), &[0xff]);
    let letters: Vec<u8> = (b'a'..=b'z').chain(b'A'..=b'Z').chain(b'0'..=b'9').collect();
    let clock = std::time::Instant::now();
    let mut tries = 0_u64;
    let mut tool = [0_u8; 6];
    // Six letters, each step from the state of the letters before it: one multiplication per try.
    'search: for &a in &letters {
        let sa = fnv(start, &[a]);
        for &b in &letters {
            let sb = fnv(sa, &[b]);
            for &c in &letters {
                let sc = fnv(sb, &[c]);
                for &d in &letters {
                    let sd = fnv(sc, &[d]);
                    for &e in &letters {
                        let se = fnv(sd, &[e]);
                        for &f in &letters {
                            tries += 1;
                            if fold(fnv(se, &[f])) == target {
                                tool = [a, b, c, d, e, f];
                                break 'search;
                            }
                        }
                    }
                }
            }
        }
    }
    let tool = String::from_utf8(tool.to_vec()).unwrap();
    println!("found {tool:?} after {tries} tries in {:?}", clock.elapsed());
    assert_eq!(old_name(CRAFTED.0, &tool), old_name(VICTIM.0, VICTIM.1));
}
