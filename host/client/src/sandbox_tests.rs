use super::*;
use base64::Engine as _;
use sha2::Digest as _;

#[test]
fn frame_script_hash_is_the_hash_of_the_frame_script() {
    let digest = sha2::Sha256::digest(FRAME_SCRIPT.as_bytes());
    let hash = format!("sha256-{}", base64::engine::general_purpose::STANDARD.encode(digest));
    assert_eq!(FRAME_SCRIPT_HASH, hash, "update FRAME_SCRIPT_HASH after editing sandbox/frame.js");
}

#[test]
fn scripts_cannot_end_the_frame_document_early() {
    assert!(!FRAME_SCRIPT.to_ascii_lowercase().contains("</script"));
    assert!(!worker_prelude(None).contains("entry ="), "the prelude uses `entry`, it does not define it");
    assert!(!worker_prelude(None).to_ascii_lowercase().contains("</script"));
}

#[test]
fn the_prelude_runs_the_pages_text_of_a_bootstrap_only_when_the_build_marked_it_one_module() {
    let mark = mcp_worker_protocol::worker_entry::ONE_MODULE_ENTRY;
    let prelude = worker_prelude(Some("https://cdn.example/s/server_bg.wasm"));
    assert!(prelude.contains(&format!("const ONE_MODULE_ENTRY = {};", js_string_literal(mark))), "{prelude}");
    assert!(prelude.contains("text.startsWith(ONE_MODULE_ENTRY)"), "{prelude}");
    // What the marked entry sets as it runs is what the prelude reads to know whether a failed import ran any of it.
    let symbol = r#"self[Symbol.for("mcpWorker.entry")] === true"#;
    assert!(mark.starts_with(&symbol.replace(" === ", " = ")), "{mark}");
    assert!(prelude.contains(symbol), "{prelude}");
}

#[test]
fn origins_are_normalised() {
    let policy = NetworkPolicy::allow([
        "https://API.GitHub.com/",
        "http://127.0.0.1:8080",
        "https://*.example.com",
        "wss://[::1]:9000",
        "https://api.github.com",
    ])
    .unwrap();
    assert_eq!(
        policy.origins(),
        ["https://api.github.com", "http://127.0.0.1:8080", "https://*.example.com", "wss://[::1]:9000"]
    );
    assert_eq!(
        policy.to_string(),
        "https://api.github.com http://127.0.0.1:8080 https://*.example.com wss://[::1]:9000"
    );
    assert_eq!(NetworkPolicy::none().to_string(), "no network");
}

#[test]
fn what_is_not_an_origin_is_refused_with_the_reason() {
    for (entry, reason) in [
        ("api.github.com", "no scheme"),
        ("file:///etc/passwd", "only http"),
        ("javascript://x", "only http"),
        ("https://x.com/path", "no path"),
        ("https://x.com?q", "no path"),
        ("https://user@x.com", "no path"),
        ("https://x.com:0", "port"),
        ("https://x.com:99999", "port"),
        ("https://x.com:http", "port"),
        ("https://", "host"),
        ("https://a..b", "host"),
        ("https://x.com; script-src *", "host"),
        ("https://x com", "host"),
        ("https://*", "host"),
        ("https://*.[::1]", "port"),
        ("*", "no scheme"),
    ] {
        let error = NetworkPolicy::allow([entry]).unwrap_err();
        assert_eq!(error.entry, entry);
        assert!(error.reason.contains(reason), "{entry}: {}", error.reason);
        assert!(error.to_string().contains("is not a network origin"), "{error}");
    }
}

#[test]
fn the_frame_policy_allows_the_bundle_its_wasm_and_the_declared_origins_only() {
    let network = NetworkPolicy::allow(["https://api.github.com"]).unwrap();
    let policy = FramePolicy {
        entry_url: "http://127.0.0.1:8080/servers/echo/bootstrap.js",
        wasm_url: Some("http://127.0.0.1:8080/servers/echo/server_bg.wasm"),
        network: &network,
    };
    let csp = policy.content_security_policy();
    assert!(csp.starts_with("default-src 'none'; "), "{csp}");
    assert!(
        csp.contains(&format!(
            "script-src '{FRAME_SCRIPT_HASH}' 'wasm-unsafe-eval' blob: http://127.0.0.1:8080/servers/echo/;"
        )),
        "{csp}"
    );
    assert!(csp.contains("worker-src blob:;"), "{csp}");
    assert!(
        csp.contains("connect-src http://127.0.0.1:8080/servers/echo/server_bg.wasm https://api.github.com;"),
        "{csp}"
    );
}

#[test]
fn no_network_is_connect_src_none() {
    let none = NetworkPolicy::none();
    let policy = FramePolicy { entry_url: "https://cdn.example/s/bootstrap.js", wasm_url: None, network: &none };
    assert!(policy.content_security_policy().contains("connect-src 'none';"));
}

#[test]
fn urls_cannot_add_directives_or_leave_the_attribute() {
    let none = NetworkPolicy::none();
    let policy = FramePolicy {
        entry_url: "https://cdn.example/a;b,c d'e\"<f>&/bootstrap.js",
        wasm_url: Some("https://cdn.example/x;connect-src *"),
        network: &none,
    };
    let csp = policy.content_security_policy();
    assert!(csp.contains("https://cdn.example/a%3Bb%2Cc%20d%27e%22%3Cf%3E%26/;"), "{csp}");
    assert!(csp.contains("connect-src https://cdn.example/x%3Bconnect-src%20*;"), "{csp}");
    assert_eq!(csp.matches(';').count(), 5, "{csp}");
    let document = policy.document();
    let attribute = document.split("content=\"").nth(1).unwrap().split('"').next().unwrap();
    assert_eq!(attribute, csp);
    assert!(document.ends_with("</script>"));
}

#[test]
fn sandboxed_with_no_network_is_the_default() {
    assert_eq!(Isolation::default(), Isolation::Sandboxed(NetworkPolicy::none()));
    assert_eq!(Isolation::default().label(), "sandbox");
    assert_eq!(Isolation::PageOrigin.label(), "page");
}

#[test]
fn a_spare_frame_runs_the_frame_script_and_leaves_scripts_and_network_to_the_servers_policy() {
    let spare = spare_frame_policy();
    assert!(spare.starts_with("default-src 'none'; "), "{spare}");
    assert!(
        spare.contains(&format!("script-src '{FRAME_SCRIPT_HASH}' 'wasm-unsafe-eval' blob: http: https:;")),
        "{spare}"
    );
    assert!(spare.contains("worker-src blob:;"), "{spare}");
    assert!(spare.contains("connect-src http: https: ws: wss:;"), "{spare}");
    let document = spare_frame_document();
    let attribute = document.split("content=\"").nth(1).unwrap().split('"').next().unwrap();
    assert_eq!(attribute, spare);
    assert!(document.ends_with(&format!("<script>{FRAME_SCRIPT}</script>")));
    // The frame script adds the server's policy, from the host's first message, before it starts the worker.
    let adds_policy = FRAME_SCRIPT.find("init.policy").unwrap();
    assert!(adds_policy < FRAME_SCRIPT.find("new Worker").unwrap());
}
