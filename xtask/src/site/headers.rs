//! What the site's server says about what it serves, and to whom it answers: a Content-Security-Policy on pages,
//! `nosniff` on everything, CORS on files so sandboxed servers (opaque origins) can load their bundles, and a
//! `Host` check against DNS rebinding.

use mcp_worker_build::policy;

/// The client crate's source, which holds the CSP hash of the sandboxed frame's script (checked by its tests).
const SANDBOX_SOURCE: &str = include_str!("../../../host/client/src/sandbox.rs");

/// The OAuth popup module, which holds the CSP hash of its redirect page's inline script (checked below).
const OAUTH_POPUP_SOURCE: &str = include_str!("../../../host/js/oauth-popup.mjs");

/// The hash source pages must allow in `script-src` so that servers' sandboxed frames can run.
pub(crate) fn frame_script_hash() -> &'static str {
    policy::hash_after(SANDBOX_SOURCE, policy::FRAME_HASH_MARKER)
}

/// The hash source of the OAuth redirect page's inline script (`callbackScriptHash` of `oauth-popup.mjs`).
fn callback_script_hash() -> &'static str {
    policy::hash_after(OAUTH_POPUP_SOURCE, policy::CALLBACK_HASH_MARKER)
}

/// The Content-Security-Policy of the console and bench pages ([`policy::console_page_policy`]).
pub(crate) fn page_policy() -> String {
    policy::console_page_policy(frame_script_hash(), callback_script_hash())
}

/// The headers every file gets, by Content-Type. The pages the end-to-end tests write into the site (`e2e-*.html`)
/// stand in for an application's own page, whose policy is the application's: they get none.
pub(crate) fn for_file(path: &std::path::Path, content_type: &str) -> Vec<(&'static str, String)> {
    let mut headers = vec![
        ("Content-Type", content_type.to_owned()),
        // Sandboxed servers load their bundles from an opaque origin: cross-origin, so with CORS.
        ("Access-Control-Allow-Origin", "*".to_owned()),
    ];
    let test_page = path.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("e2e-"));
    if content_type.starts_with("text/html") && !test_page {
        let policy = if path.starts_with(BOOK_DIR) { BOOK_POLICY.to_owned() } else { page_policy() };
        headers.push(("Content-Security-Policy", policy));
    }
    headers
}

/// Where the site keeps the guides (`cargo xtask demo` serves them at `/book/`).
const BOOK_DIR: &str = "book";

/// The guides' pages: mdBook's pages set their theme and sidebar with inline scripts, and hold no secret and load
/// no server, so inline scripts run there; nothing else is loosened.
const BOOK_POLICY: &str = "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; \
                           img-src 'self' data:; font-src 'self' data:; object-src 'none'; base-uri 'self'; \
                           form-action 'self'; frame-ancestors 'none'";

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn the_frame_hash_is_read_from_the_client() {
        let hash = frame_script_hash();
        assert!(hash.starts_with("sha256-") && hash.len() == 51, "{hash}");
        assert!(page_policy().contains(&format!("'{hash}'")));
    }

    /// The redirect page is one file, its script inline, so that a bundler copying it as an asset copies all of
    /// it; pages allow that script by its hash, which `oauth-popup.mjs` exports for applications' own policies.
    #[test]
    fn the_oauth_redirect_pages_inline_script_is_allowed_by_its_hash() {
        use base64::Engine as _;
        use sha2::Digest as _;
        let page = include_str!("../../../host/js/oauth-callback.html");
        let script = page.split_once("<script>").and_then(|(_, rest)| rest.split_once("</script>")).unwrap().0;
        let digest = sha2::Sha256::digest(script.as_bytes());
        let hash = format!("sha256-{}", base64::engine::general_purpose::STANDARD.encode(digest));
        assert_eq!(callback_script_hash(), hash, "update callbackScriptHash in oauth-popup.mjs after editing the page");
        assert!(page_policy().contains(&format!("'{hash}'")));
        assert!(!page.contains("src="), "the page loads nothing beside it");
    }

    #[test]
    fn the_guides_pages_may_run_their_inline_scripts_and_the_consoles_may_not() {
        let policy = |path: &str| {
            let headers = for_file(Path::new(path), "text/html; charset=utf-8");
            headers.into_iter().find(|(name, _)| *name == "Content-Security-Policy").map(|(_, value)| value).unwrap()
        };
        assert!(policy("book/getting-started.html").contains("script-src 'self' 'unsafe-inline'"));
        assert!(!policy("index.html").contains("script-src 'self' 'unsafe-inline'"), "the console keeps its policy");
        assert!(!policy("bookish.html").contains("script-src 'self' 'unsafe-inline'"));
    }

    #[test]
    fn pages_get_a_policy_and_every_file_nosniff_and_cors() {
        let page = for_file(Path::new("index.html"), "text/html; charset=utf-8");
        assert!(
            page.iter()
                .any(|(name, value)| *name == "Content-Security-Policy" && value.contains("frame-ancestors 'none'"))
        );
        let test_page = for_file(Path::new("e2e-blank.html"), "text/html; charset=utf-8");
        assert!(!test_page.iter().any(|(name, _)| *name == "Content-Security-Policy"));
        let script = for_file(Path::new("server.js"), "text/javascript; charset=utf-8");
        assert!(!script.iter().any(|(name, _)| *name == "Content-Security-Policy"));
        assert!(script.iter().any(|(name, value)| *name == "Access-Control-Allow-Origin" && value == "*"));
    }
}
