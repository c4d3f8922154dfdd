//! serde's words for arguments that do not fit a tool's type, in the words the host's schema check uses for the
//! same mistake (`expected number, got string "two"`, `missing required property "text"`), so that a model reads
//! one wording whichever side found the mistake. A message of another shape is kept as serde wrote it.

/// `message` (a serde_json error's text, without its position) in the host's words.
pub(crate) fn in_host_words(message: &str) -> String {
    if let Some(field) = message.strip_prefix("missing field ") {
        return format!("missing required property {:?}", unquote(field));
    }
    if let Some(rest) = message.strip_prefix("unknown field ") {
        let (field, known) = name_and_expected(rest);
        let listed = if known.is_empty() { String::new() } else { format!(" (known: {})", known.join(", ")) };
        return format!("unexpected property {field:?}{listed}");
    }
    if let Some(rest) = message.strip_prefix("unknown variant ") {
        let (variant, allowed) = name_and_expected(rest);
        let allowed: Vec<String> = allowed.iter().map(|name| format!("{name:?}")).collect();
        return format!("must be one of [{}], got string {variant:?}", allowed.join(","));
    }
    for prefix in ["invalid type: ", "invalid value: "] {
        if let Some(rest) = message.strip_prefix(prefix)
            && let Some((found, expected)) = rest.rsplit_once(", expected ")
        {
            return format!("expected {}, got {}", expected_type(expected), found_value(found));
        }
    }
    message.to_owned()
}

/// serde's `` `name`, expected one of `a`, `b` `` (or `` expected `a` ``, or another ending): the name, and the names
/// expected, without their backticks.
fn name_and_expected(rest: &str) -> (&str, Vec<&str>) {
    let (name, expected) = rest.split_once(", ").unwrap_or((rest, ""));
    let list = expected.strip_prefix("expected one of ").or_else(|| expected.strip_prefix("expected "));
    (unquote(name), list.map(|list| list.split(", ").map(unquote).collect()).unwrap_or_default())
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
            ("something else entirely", "something else entirely"),
        ];
        for (serde, host) in cases {
            assert_eq!(in_host_words(serde), host, "{serde}");
        }
    }
}
