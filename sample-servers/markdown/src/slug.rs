//! Heading anchors as GitHub makes them, so `#installation` links written for GitHub resolve here too.

use std::collections::HashMap;

/// Gives each heading of a document its anchor: lowercase, punctuation dropped (but `-` and `_` kept), spaces as
/// `-`; a repeated anchor gets `-1`, `-2`… in order.
#[derive(Debug, Default)]
pub(crate) struct Slugger {
    seen: HashMap<String, usize>,
}

impl Slugger {
    pub(crate) fn slug(&mut self, heading: &str) -> String {
        let base: String = heading
            .trim()
            .to_lowercase()
            .chars()
            .filter_map(|c| match c {
                ' ' => Some('-'),
                c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                _ => None,
            })
            .collect();
        let mut slug = base.clone();
        while let Some(count) = self.seen.get_mut(&slug) {
            *count += 1;
            slug = format!("{base}-{count}");
        }
        self.seen.insert(slug.clone(), 0);
        slug
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_follow_github() {
        let mut slugger = Slugger::default();
        assert_eq!(slugger.slug("Getting Started!"), "getting-started");
        assert_eq!(slugger.slug("API: `parse()` & friends"), "api-parse--friends");
        assert_eq!(slugger.slug("Getting Started"), "getting-started-1");
        assert_eq!(slugger.slug("Getting Started"), "getting-started-2");
        assert_eq!(slugger.slug("Éléments_clés"), "éléments_clés");
    }
}
