//! RFC 6570 URI templates, levels 1 and 2: `{var}` (simple), `{+var}` (reserved) and `{#var}` (fragment).
//!
//! A server matches an incoming `resources/read` URI against its templates to find the resource and the values of
//! its variables. A simple variable stands for one percent-encoded segment (no `/`, `?` or `#`); a reserved one may
//! span several segments.

use mcp_worker_protocol::NameMap;
use mcp_worker_protocol::quoted::quoted;

#[derive(Debug, Clone, PartialEq)]
enum Part {
    Literal(String),
    Variable { name: String, reserved: bool },
}

/// A parsed URI template.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct UriTemplate {
    parts: Vec<Part>,
}

impl UriTemplate {
    /// Parses a template, naming what is wrong when it is not a level 1-2 template.
    pub(crate) fn parse(template: &str) -> Result<Self, String> {
        let mut parts = Vec::new();
        let mut rest = template;
        while let Some(open) = rest.find('{') {
            if open > 0 {
                parts.push(Part::Literal(rest[..open].to_owned()));
            }
            let after = &rest[open + 1..];
            let close =
                after.find('}').ok_or_else(|| format!("unclosed `{{` in {template}", template = quoted(template)))?;
            let expression = &after[..close];
            let (operator, name) = match expression.chars().next() {
                Some(op @ ('+' | '#')) => (Some(op), &expression[1..]),
                _ => (None, expression),
            };
            let valid = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.'));
            if !valid {
                return Err(format!(
                    "expression {{{expression}}} in {template} is not supported: use {{name}}, {{+name}} or {{#name}}",
                    template = quoted(template)
                ));
            }
            if operator == Some('#') {
                parts.push(Part::Literal("#".into()));
            }
            parts.push(Part::Variable { name: name.to_owned(), reserved: operator.is_some() });
            rest = &after[close + 1..];
        }
        if rest.contains('}') {
            return Err(format!("unmatched `}}` in {template}", template = quoted(template)));
        }
        if !rest.is_empty() {
            parts.push(Part::Literal(rest.to_owned()));
        }
        Ok(Self { parts })
    }

    /// The variable names, in order.
    pub(crate) fn variables(&self) -> impl Iterator<Item = &str> {
        self.parts.iter().filter_map(|p| match p {
            Part::Variable { name, .. } => Some(name.as_str()),
            Part::Literal(_) => None,
        })
    }

    /// The values of the variables when `uri` is an expansion of this template (percent-decoded).
    pub(crate) fn matches(&self, uri: &str) -> Option<NameMap<String>> {
        let mut values = NameMap::new();
        match_from(&self.parts, uri, &mut values).then_some(values)
    }
}

/// Matches `parts` against all of `uri`, shortest variable values first, backtracking on failure.
fn match_from(parts: &[Part], uri: &str, values: &mut NameMap<String>) -> bool {
    let Some((first, rest)) = parts.split_first() else { return uri.is_empty() };
    match first {
        Part::Literal(literal) => uri.strip_prefix(literal.as_str()).is_some_and(|tail| match_from(rest, tail, values)),
        Part::Variable { name, reserved } => {
            for end in uri.char_indices().skip(1).map(|(i, _)| i).chain([uri.len()]).filter(|&end| end > 0) {
                let value = &uri[..end];
                // A simple variable is one segment: once it would swallow a delimiter, longer values fail too.
                if !reserved && value.contains(['/', '?', '#']) {
                    return false;
                }
                if let Some(decoded) = percent_decode(value) {
                    values.insert(name.clone(), decoded);
                    if match_from(rest, &uri[end..], values) {
                        return true;
                    }
                }
            }
            values.remove(name);
            false
        }
    }
}

/// Decodes `%XX` escapes; `None` when an escape is malformed (RFC 3986: `%` and two hex digits) or the result is
/// not UTF-8.
fn percent_decode(text: &str) -> Option<String> {
    let well_formed =
        text.split('%').skip(1).all(|rest| rest.bytes().take(2).filter(u8::is_ascii_hexdigit).count() == 2);
    well_formed.then(|| percent_encoding::percent_decode_str(text).decode_utf8().ok().map(|s| s.into_owned())).flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(template: &str, uri: &str) -> Option<Vec<(String, String)>> {
        UriTemplate::parse(template).unwrap().matches(uri).map(|m| m.into_iter().collect())
    }

    fn pair(k: &str, v: &str) -> (String, String) {
        (k.to_owned(), v.to_owned())
    }

    #[test]
    fn simple_variables_match_one_segment() {
        assert_eq!(vars("test://template/{id}/data", "test://template/123/data"), Some(vec![pair("id", "123")]));
        assert_eq!(vars("test://template/{id}/data", "test://template/1/2/data"), None);
        assert_eq!(vars("test://template/{id}/data", "test://template//data"), None, "values are not empty");
        assert_eq!(vars("test://template/{id}/data", "test://template/123/data/more"), None);
        assert_eq!(
            vars("weather://{city}/{day}", "weather://Paris/monday"),
            Some(vec![pair("city", "Paris"), pair("day", "monday")])
        );
        assert_eq!(vars("file:///{name}.txt", "file:///a.b.txt"), Some(vec![pair("name", "a.b")]));
    }

    #[test]
    fn values_are_percent_decoded() {
        assert_eq!(vars("notes://{title}", "notes://caf%C3%A9%20au%20lait"), Some(vec![pair("title", "café au lait")]));
        assert_eq!(vars("notes://{title}", "notes://bad%zz"), None);
        assert_eq!(vars("notes://{title}", "notes://%FF"), None, "not UTF-8");
    }

    #[test]
    fn reserved_and_fragment_variables_span_segments() {
        assert_eq!(vars("file://{+path}", "file:///etc/hosts"), Some(vec![pair("path", "/etc/hosts")]));
        assert_eq!(
            vars("docs://{page}{#section}", "docs://intro#setup/linux"),
            Some(vec![pair("page", "intro"), pair("section", "setup/linux")])
        );
    }

    #[test]
    fn unsupported_or_broken_templates_are_rejected_with_a_reason() {
        for bad in ["a://{", "a://}", "a://{}", "a://{x,y}", "a://{?q}", "a://{na me}"] {
            assert!(UriTemplate::parse(bad).is_err(), "{bad}");
        }
        let template = UriTemplate::parse("a://{x}/{+y}").unwrap();
        assert_eq!(template.variables().collect::<Vec<_>>(), ["x", "y"]);
    }
}
