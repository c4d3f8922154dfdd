//! Reading a tool's or prompt's arguments into its type, and, where they do not fit, saying what is wrong in the
//! words the host's schema check uses for the same mistake (`expected number, got string "two"`, `missing required
//! property "text"`), so that a model reads one wording whichever side found the mistake, and where, as a JSON
//! pointer into the arguments (`/items/0/name`), never as a position in JSON text the model did not write. A
//! message of another shape is kept as serde wrote it.
//!
//! The pointer comes from where serde_json stopped reading
//! ([`mcp_worker_protocol::invalid_arguments::pointer_at`]) rather than from a deserializer that tracks the path
//! as it reads: that one compiled a second layer around every argument type's reader, 1.3-9.1 KiB of each bundle.

use mcp_worker_protocol::quoted::quoted;
use mcp_worker_protocol::substring::{contains, rsplit_once, split, split_once};
use serde::de::DeserializeOwned;

/// `A` read from the arguments' JSON `text`, or the pointer of the value at fault and what is wrong with it.
pub(crate) fn read<A: DeserializeOwned>(text: &str) -> Result<A, (String, String)> {
    let mut reader = serde_json::Deserializer::from_str(text);
    A::deserialize(mcp_worker_protocol::json::Objects::new(&mut reader)).map_err(|error| problem(text, &error))
}

/// Where and what: compiled once, not once per argument type.
#[inline(never)]
fn problem(text: &str, error: &serde_json::Error) -> (String, String) {
    let pointer = mcp_worker_protocol::invalid_arguments::pointer_at(text, error.line(), error.column());
    (pointer, in_host_words(&without_position(error)))
}

/// A serde_json error's message without the "at line 1 column 26" it ends with.
fn without_position(error: &serde_json::Error) -> String {
    let text = error.to_string();
    let position = format!(" at line {} column {}", error.line(), error.column());
    match text.strip_suffix(&position) {
        Some(message) if error.line() > 0 => message.to_owned(),
        _ => text,
    }
}

/// `message` (a serde_json error's text, without its position) in the host's words.
pub(crate) fn in_host_words(message: &str) -> String {
    if let Some(field) = message.strip_prefix("missing field ") {
        return format!("missing required property {}", quoted(unquote(field)));
    }
    if let Some(rest) = message.strip_prefix("unknown field ") {
        let (field, known) = name_and_expected(rest);
        let listed = if known.is_empty() { String::new() } else { format!(" (known: {})", list(&known, ", ", false)) };
        return format!("unexpected property {}{listed}", quoted(field));
    }
    if let Some(rest) = message.strip_prefix("unknown variant ") {
        let (variant, allowed) = name_and_expected(rest);
        return format!("must be one of [{}], got string {}", list(&allowed, ",", true), quoted(variant));
    }
    for prefix in ["invalid type: ", "invalid value: "] {
        if let Some(rest) = message.strip_prefix(prefix)
            && let Some((found, expected)) = rsplit_once(rest, ", expected ")
        {
            return format!("expected {}, got {}", expected_type(expected), found_value(found));
        }
    }
    message.to_owned()
}

/// serde's `` `name`, expected one of `a`, `b`, `c` `` (or `` expected `a` or `b` ``, or `` expected `a` ``, or another
/// ending): the name, and the names expected, without their backticks.
fn name_and_expected(rest: &str) -> (&str, Vec<&str>) {
    let (name, expected) = split_once(rest, ", ").unwrap_or((rest, ""));
    let names = match expected.strip_prefix("expected one of ") {
        Some(list) => split(list, ", ").map(unquote).collect(),
        None => match expected.strip_prefix("expected ") {
            Some(pair) if contains(pair, "` or `") => split(pair, " or ").map(unquote).collect(),
            Some(one) => vec![unquote(one)],
            None => Vec::new(),
        },
    };
    (unquote(name), names)
}

/// `names` one after the other, `separator` between them, each quoted as JSON quotes a string if `quote` says so.
fn list(names: &[&str], separator: &str, quote: bool) -> String {
    let mut listed = String::new();
    for (i, name) in names.iter().enumerate() {
        if i > 0 {
            listed.push_str(separator);
        }
        if quote {
            listed.push_str(&quoted(name));
        } else {
            listed.push_str(name);
        }
    }
    listed
}

/// serde's name of what a type expects, as a JSON Schema type where there is one.
fn expected_type(expected: &str) -> &str {
    match expected {
        "f32" | "f64" => "number",
        "i8" | "i16" | "i32" | "i64" | "i128" | "isize" | "u8" | "u16" | "u32" | "u64" | "u128" | "usize" => "integer",
        "a string" | "a borrowed string" | "a character" | "char" => "string",
        "a boolean" => "boolean",
        "a tuple" => "array",
        "unit" => "null",
        _ if expected.starts_with("struct ") || expected.starts_with("a map") => "object",
        _ if expected.starts_with("a sequence")
            || expected.starts_with("an array")
            || expected.starts_with("tuple") =>
        {
            "array"
        }
        other => other,
    }
}

/// serde's description of the value it found (`string "two"`, ``integer `5` ``, `map`), as the host shows one.
fn found_value(found: &str) -> String {
    let value = |prefix: &str| found.strip_prefix(prefix).map(unquote);
    if let Some(number) = value("integer ").or_else(|| value("floating point ")) {
        return format!("number {number}");
    }
    if let Some(boolean) = value("boolean ") {
        return format!("boolean {boolean}");
    }
    match found {
        "map" => "an object".to_owned(),
        "sequence" => "an array".to_owned(),
        "unit value" | "null" | "Option value" => "null".to_owned(),
        other => other.to_owned(),
    }
}

/// A name serde quotes with backticks, without them.
fn unquote(text: &str) -> &str {
    text.strip_prefix('`').and_then(|t| t.strip_suffix('`')).unwrap_or(text)
}

#[cfg(test)]
mod tests {
    use super::in_host_words;

    #[test]
    fn serdes_messages_read_as_the_hosts() {
        let cases = [
            ("invalid type: string \"two\", expected f64", "expected number, got string \"two\""),
            ("invalid type: integer `5`, expected a string", "expected string, got number 5"),
            ("invalid type: floating point `1.5`, expected u32", "expected integer, got number 1.5"),
            ("invalid type: boolean `true`, expected struct Point", "expected object, got boolean true"),
            ("invalid type: map, expected a sequence", "expected array, got an object"),
            ("invalid type: null, expected a boolean", "expected boolean, got null"),
            ("invalid value: integer `-1`, expected u32", "expected integer, got number -1"),
            ("missing field `text`", "missing required property \"text\""),
            (
                "unknown field `colour`, expected one of `x`, `label`",
                "unexpected property \"colour\" (known: x, label)",
            ),
            ("unknown field `x`, there are no fields", "unexpected property \"x\""),
            (
                "unknown variant `huge`, expected one of `small`, `large`",
                "must be one of [\"small\",\"large\"], got string \"huge\"",
            ),
            ("unknown variant `b`, expected `a`", "must be one of [\"a\"], got string \"b\""),
            ("unknown field `y`, expected `x` or `kind`", "unexpected property \"y\" (known: x, kind)"),
            ("unknown variant `c`, expected `a` or `b`", "must be one of [\"a\",\"b\"], got string \"c\""),
            ("something else entirely", "something else entirely"),
        ];
        for (serde, host) in cases {
            assert_eq!(in_host_words(serde), host, "{serde}");
        }
    }
}
