//! Registry names of MCP tools: always within `^[a-zA-Z0-9_-]{1,64}$` (what OpenAI and Anthropic accept), and a
//! function of the server's configured name and the tool's name alone.
//!
//! | form | when | example |
//! |---|---|---|
//! | plain | the server name is plain (`[a-zA-Z0-9_-]`, no `__`, not ending in `_`), the tool name is of those characters, and the whole fits in 64 | `mcp__github__create_issue` |
//! | hashed, under its server | the server name is plain and short enough, the tool name is not plain or too long | `mcp__github__files_read_d28c558e3e5166de` |
//! | hashed | the server name is not plain, or too long | `mcp__My_Server_get_user_e79118479b26d646` |
//! | clash name | only when names coincide ([`super::clashes`]) | `mcp__github_files_read-63d04031ca430f68e83d0c48` |
//!
//! The forms never meet, so no server can choose names that take another server's:
//! - After `mcp__`, a plain server name runs up to the first `__` (it has none and does not end in `_`), so a name
//!   that starts `mcp__{server}__` belongs to that server alone (server names are unique). The enablement pattern
//!   `mcp__github__*` therefore means the server `github`, and no other.
//! - Hashed names of servers whose names are not plain, and clash names, have no `__` after `mcp__`, so no name of
//!   a plain server equals them; a clash name has a hex digit where a hashed name has its last `_`.
//! - Hashes are SHA-256 of both names (length-prefixed, each form under its own label): 64 bits in a hashed name,
//!   96 in a clash name. Finding a pair with the hash of a given pair takes about 2^64 tries.
//!
//! Names can still coincide in two ways: a server can list a tool named like one of its own hashed names
//! (`files_read_d28c558e3e5166de` beside `files/read`), or two pairs can share a hash. The registry then gives every
//! party its clash name, so that nobody keeps the contested one, and reports the clash. Clash names have no server
//! prefix, so `mcp__github__*` no longer enables those tools: enable them by name.

use sha2::{Digest, Sha256};

/// The longest name LLM APIs accept.
pub const MAX_TOOL_NAME_LEN: usize = 64;

const PREFIX: &str = "mcp__";
const SEPARATOR: &str = "__";
/// Hex digits of the hash in a hashed name (64 bits).
const HASH_DIGITS: usize = 16;
/// Hex digits of the hash in a clash name (96 bits).
const CLASH_HASH_DIGITS: usize = 24;
/// What a hashed name's hash is the hash of, so that the same pair hashes differently in each form.
const HASH_LABEL: &str = "mcp-worker registry name";
const CLASH_LABEL: &str = "mcp-worker registry name after a clash";

/// Whether `name` matches `^[a-zA-Z0-9_-]{1,64}$`.
pub fn is_valid_tool_name(name: &str) -> bool {
    !name.is_empty() && name.len() <= MAX_TOOL_NAME_LEN && name.bytes().all(is_name_byte)
}

/// The registry name of `tool` from `server` (unless it clashes, see [`clash_name`]).
pub fn mcp_tool_name(server: &str, tool: &str) -> String {
    let plain_server = server_fits(server);
    if plain_server && is_plain(tool) {
        let name = format!("{PREFIX}{server}{SEPARATOR}{tool}");
        if name.len() <= MAX_TOOL_NAME_LEN {
            return name;
        }
    }
    let hash = hex_hash(HASH_LABEL, server, tool, HASH_DIGITS);
    let under_server = PREFIX.len() + server.len() + SEPARATOR.len();
    let room = MAX_TOOL_NAME_LEN.saturating_sub(under_server + 1 + HASH_DIGITS);
    if plain_server && room > 0 {
        let stem: String = sanitize(tool).chars().take(room).collect();
        return format!("{PREFIX}{server}{SEPARATOR}{stem}_{hash}");
    }
    with_stem(&flat_stem(server, tool, MAX_TOOL_NAME_LEN - PREFIX.len() - 1 - HASH_DIGITS), '_', &hash)
}

/// The name of `tool` from `server` when its registry name coincides with another tool's: unlike any name
/// [`mcp_tool_name`] gives, and as distinct between pairs as 96 bits of SHA-256.
pub fn clash_name(server: &str, tool: &str) -> String {
    let hash = hex_hash(CLASH_LABEL, server, tool, CLASH_HASH_DIGITS);
    with_stem(&flat_stem(server, tool, MAX_TOOL_NAME_LEN - PREFIX.len() - 1 - CLASH_HASH_DIGITS), '-', &hash)
}

/// Whether a name is reserved for MCP tools (natively registered tools may not use it).
pub fn is_mcp_name(name: &str) -> bool {
    name.starts_with(PREFIX)
}

fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

fn is_plain(part: &str) -> bool {
    !part.is_empty() && part.bytes().all(is_name_byte)
}

/// A server part that cannot be mistaken for another split of the name.
fn server_fits(server: &str) -> bool {
    is_plain(server) && !server.contains(SEPARATOR) && !server.ends_with('_')
}

/// Each character outside `[a-zA-Z0-9_-]` becomes `_`; an empty part becomes `_`.
fn sanitize(part: &str) -> String {
    if part.is_empty() {
        return "_".into();
    }
    part.chars().map(|c| if c.is_ascii() && is_name_byte(c as u8) { c } else { '_' }).collect()
}

/// Both names, sanitized, joined by `_`, without `__` anywhere and without `_` at either end, at most `max` long.
fn flat_stem(server: &str, tool: &str, max: usize) -> String {
    let mut stem = String::new();
    for c in sanitize(server).chars().chain(['_']).chain(sanitize(tool).chars()) {
        let repeated = c == '_' && (stem.is_empty() || stem.ends_with('_'));
        if !repeated {
            stem.push(c);
        }
        if stem.len() == max {
            break;
        }
    }
    stem.trim_end_matches('_').to_owned()
}

fn with_stem(stem: &str, separator: char, hash: &str) -> String {
    if stem.is_empty() { format!("{PREFIX}{hash}") } else { format!("{PREFIX}{stem}{separator}{hash}") }
}

/// The first `digits` hex digits of SHA-256 over `label`, then each name preceded by its length: no two pairs
/// share an input. SHA-256 is fixed by its definition: names stay the same across versions and platforms.
fn hex_hash(label: &str, server: &str, tool: &str, digits: usize) -> String {
    let mut hasher = Sha256::new();
    hasher.update(label.as_bytes());
    for part in [server, tool] {
        hasher.update((part.len() as u64).to_be_bytes());
        hasher.update(part.as_bytes());
    }
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let digest = hasher.finalize();
    let nibbles = digest.iter().flat_map(|byte| [byte >> 4, byte & 0xf]);
    nibbles.take(digits).map(|nibble| char::from(HEX[usize::from(nibble)])).collect()
}

#[cfg(test)]
#[path = "naming_tests.rs"]
pub(crate) mod tests;
