use super::*;
use crate::credentials::CredentialDecl;
use serde_json::json;

const CLAUDE_DESKTOP: &str = r#"{
  "mcpServers": {
    "filesystem": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem", "/Users/me/Desktop"],
      "env": { "DEBUG": "1" }
    },
    "remote": { "url": "https://example.com/mcp", "headers": { "Authorization": "Bearer sk-123" } },
    "echo": { "type": "wasm", "workerUrl": "/bundles/echo/bootstrap.js", "timeoutMs": 5000,
              "credentials": ["ECHO_KEY"], "autoStart": true, "autoApprove": ["echo"] },
    "old": { "type": "sse", "url": "http://localhost:3000/sse", "disabled": true }
  }
}"#;

fn find<'a>(import: &'a McpServersImport, name: &str) -> &'a ServerConfig {
    import.servers.iter().find(|s| s.name == name).unwrap()
}

#[test]
fn a_claude_desktop_file_imports_every_entry() {
    let import = import_mcp_servers(CLAUDE_DESKTOP).unwrap();
    assert!(import.errors.is_empty(), "{:?}", import.errors);
    assert_eq!(import.servers.len(), 4);

    let fs = find(&import, "filesystem");
    assert_eq!(
        fs.transport,
        TransportConfig::Stdio {
            command: "npx".into(),
            args: vec!["-y".into(), "@modelcontextprotocol/server-filesystem".into(), "/Users/me/Desktop".into()],
        }
    );
    assert_eq!(fs.env.get("DEBUG").map(String::as_str), Some("1"));
    assert!(fs.transport.unavailable_reason().unwrap().contains("browser"));

    let remote = find(&import, "remote");
    assert!(
        matches!(&remote.transport, TransportConfig::Http { url, legacy_sse: false, .. } if url == "https://example.com/mcp")
    );
    assert_eq!(remote.transport.unavailable_reason(), None, "Streamable HTTP runs");

    let echo = find(&import, "echo");
    assert_eq!(
        echo.transport,
        TransportConfig::Wasm { worker_url: "/bundles/echo/bootstrap.js".into(), wasm_url: None }
    );
    assert_eq!(echo.timeout_ms, Some(5000));
    assert_eq!(echo.credentials, [CredentialDecl::required("ECHO_KEY", "")]);
    assert!(echo.auto_start && echo.enabled && !echo.allow_destructive_tools);
    assert!(echo.transport.unavailable_reason().is_none());

    let old = find(&import, "old");
    assert!(!old.enabled, "`disabled: true` as Cline and Cursor write it");
    assert!(matches!(old.transport, TransportConfig::Http { legacy_sse: true, .. }));
    assert_eq!(old.transport.unavailable_reason(), None, "HTTP+SSE runs too");
}

#[test]
fn each_bad_entry_is_reported_with_its_name_and_field_and_the_good_ones_still_import() {
    let text = r#"{"mcpServers": {
        "good": { "workerUrl": "/a.js" },
        "badArgs": { "command": "node", "args": ["x", 3] },
        "badTimeout": { "workerUrl": "/b.js", "timeoutMs": "soon" },
        "noTransport": { "enabled": true },
        "badUrl": { "type": "http", "url": "ftp://x" },
        "badType": { "type": "grpc" },
        "notAnObject": 5,
        "emptyUrl": { "type": "wasm", "workerUrl": "  " },
        "badHeader": { "url": "https://x", "headers": { "Authorization": 1 } },
        "badCredential": { "workerUrl": "/c.js", "credentials": ["API KEY"] },
        "badDeclaration": { "workerUrl": "/d.js", "credentials": [{ "description": "no name", "required": "yes" }] },
        "badReference": { "workerUrl": "/e.js", "env": { "API_KEY": "${API_KEY" } }
    }}"#;
    let import = import_mcp_servers(text).unwrap();
    assert_eq!(import.servers.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), ["good"]);
    let problems: Vec<(String, String)> = import.errors.iter().map(|e| (e.entry.clone(), e.field.clone())).collect();
    for expected in [
        ("badArgs", "args[1]"),
        ("badTimeout", "timeoutMs"),
        ("noTransport", "type"),
        ("badUrl", "url"),
        ("badType", "type"),
        ("notAnObject", ""),
        ("emptyUrl", "workerUrl"),
        ("badHeader", "headers.Authorization"),
        ("badCredential", "credentials[0]"),
        ("badDeclaration", "credentials[0].name"),
        ("badDeclaration", "credentials[0].required"),
        ("badReference", "env.API_KEY"),
    ] {
        assert!(problems.contains(&(expected.0.into(), expected.1.into())), "missing {expected:?} in {problems:?}");
    }
    assert_eq!(import.errors.len(), 12, "{:?}", import.errors);
    let shown = import.errors.iter().find(|e| e.entry == "badArgs").unwrap().to_string();
    assert_eq!(shown, r#"server "badArgs", field args[1]: expected a string, found a number"#);
}

#[test]
fn a_document_that_is_not_a_map_of_servers_fails_as_a_whole() {
    let empty = import_mcp_servers("{}").unwrap_err();
    assert_eq!((empty.field.as_str(), empty.message.as_str()), ("mcpServers", "lists no servers"));
    assert!(import_mcp_servers("not json").unwrap_err().message.contains("not valid JSON"));
    assert!(import_mcp_servers("[]").unwrap_err().message.contains("expected an object"));
    assert!(import_mcp_servers(r#"{"mcpServers": []}"#).unwrap_err().message.contains("an array"));
}

#[test]
fn a_bare_map_of_servers_and_the_servers_wrapper_import_like_mcp_servers() {
    let entries = r#"{"files": {"command": "npx", "args": ["server-files"], "env": {"ROOT": "/tmp"},
        "metadata": {"allowDestructiveTools": true}},
        "docs": {"url": "https://docs.example/mcp"}}"#;
    let wrapped = import_mcp_servers(&format!(r#"{{"mcpServers": {entries}}}"#)).unwrap();
    for document in [entries.to_owned(), format!(r#"{{"servers": {entries}}}"#)] {
        let import = import_mcp_servers(&document).unwrap();
        assert_eq!(import, wrapped, "{document}");
    }
    let names: Vec<&str> = wrapped.servers.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["docs", "files"]);
    // A bare map may name a server "servers": it is one entry among others.
    let named_servers = import_mcp_servers(r#"{"servers": {"url": "https://s.example"}, "b": {"workerUrl": "/b.js"}}"#);
    assert_eq!(named_servers.unwrap().servers.len(), 2);
}

#[test]
fn metadata_allow_destructive_tools_is_honoured_and_unknown_fields_are_reported() {
    let text = r#"{"assistant": {"url": "https://a.example/mcp", "autoApprove": ["read"],
        "metadata": {"allowDestructiveTools": true, "owner": "ops"}},
        "plain": {"workerUrl": "/p.js"},
        "both": {"workerUrl": "/b.js", "allowDestructiveTools": false, "metadata": {"allowDestructiveTools": true}},
        "wrong": {"workerUrl": "/w.js", "metadata": {"allowDestructiveTools": "yes"}}}"#;
    let import = import_mcp_servers(text).unwrap();
    assert!(find(&import, "assistant").allow_destructive_tools);
    assert!(!find(&import, "plain").allow_destructive_tools);
    assert!(!find(&import, "both").allow_destructive_tools, "the top-level field wins");
    let problem = &import.errors[0];
    assert_eq!((problem.entry.as_str(), problem.field.as_str()), ("wrong", "metadata.allowDestructiveTools"));
    let ignored: Vec<String> = import.ignored.iter().map(ToString::to_string).collect();
    assert_eq!(
        ignored,
        [
            r#"server "assistant", field autoApprove: is not a field this host knows"#,
            r#"server "assistant", field metadata.owner: is not a field this host knows"#,
        ]
    );
}

#[test]
fn a_config_given_directly_refuses_fields_it_does_not_know_and_says_which_was_meant() {
    let typo = json!({"name": "x", "workerUrl": "/x.js", "allowDestructivetools": true,
        "credentials": [{"name": "KEY", "optional": true}]});
    let problems: Vec<String> = ServerConfig::from_input(&typo).unwrap_err().iter().map(ToString::to_string).collect();
    assert_eq!(
        problems,
        [
            r#"server "x", field allowDestructivetools: is not a field this host knows: did you mean `allowDestructiveTools`?"#,
            r#"server "x", field credentials[0].optional: is not a field this host knows"#,
        ]
    );
    // The same entry's other problems are reported with them; a clean config reads as from_json reads it.
    let both = ServerConfig::from_input(&json!({"name": "x", "workerUrl": 3, "colour": "red"})).unwrap_err();
    assert_eq!(both.iter().map(|e| e.field.as_str()).collect::<Vec<_>>(), ["workerUrl", "colour"]);
    let clean = json!({"name": "x", "workerUrl": "/x.js", "metadata": {"allowDestructiveTools": true}});
    assert_eq!(ServerConfig::from_input(&clean).unwrap(), ServerConfig::from_json(&clean).unwrap());
    // What the host writes, it reads back strictly.
    let config = ServerConfig::wasm("echo", "/e.js").credential("TOKEN").timeout_ms(5);
    assert_eq!(ServerConfig::from_input(&config.to_json()).unwrap(), config);
}

#[test]
fn contradicting_enabled_and_disabled_is_an_error() {
    let import =
        import_mcp_servers(r#"{"mcpServers": {"x": {"workerUrl": "/x.js", "enabled": true, "disabled": true}}}"#)
            .unwrap();
    assert_eq!(import.errors[0].field, "disabled");
}

#[test]
fn the_hosts_own_form_round_trips() {
    let config = ServerConfig::wasm("echo", "/bundles/echo/bootstrap.js")
        .wasm_url("/bundles/echo/server_bg.wasm")
        .credential("TOKEN")
        .declare(CredentialDecl::optional("REGION", "Region override"))
        .env("MODE", "fast")
        .env("AUTH", "Bearer ${TOKEN}")
        .timeout_ms(1_000)
        .allow_destructive_tools(true)
        .auto_start(true)
        .enabled(false);
    let json = config.to_json();
    assert_eq!(json["type"], "wasm");
    assert_eq!(json["wasmUrl"], "/bundles/echo/server_bg.wasm");
    assert_eq!(
        json["credentials"],
        json!(["TOKEN", {"name": "REGION", "description": "Region override", "required": false}]),
        "a bare required name is written as people write it"
    );
    assert_eq!(ServerConfig::from_json(&json).unwrap(), config);
    assert!(config.validate().is_ok());

    let http = import_mcp_servers(CLAUDE_DESKTOP).unwrap().servers.into_iter().find(|s| s.name == "old").unwrap();
    assert_eq!(ServerConfig::from_json(&http.to_json()).unwrap(), http);
}

#[test]
fn a_remote_server_may_go_through_a_proxy_whose_url_says_where_the_target_goes() {
    let json =
        json!({"name": "r", "url": "https://mcp.example.com/mcp", "proxy": "http://127.0.0.1:8080/proxy?url={url}"});
    let config = ServerConfig::from_json(&json).unwrap();
    let TransportConfig::Http { proxy, .. } = &config.transport else { panic!("{config:?}") };
    assert_eq!(proxy.as_deref(), Some("http://127.0.0.1:8080/proxy?url={url}"));
    assert_eq!(ServerConfig::from_json(&config.to_json()).unwrap(), config);
    for bad in ["http://127.0.0.1:8080/proxy", "ftp://x/{url}"] {
        let errors = ServerConfig::from_json(&json!({"name": "r", "url": "https://a/mcp", "proxy": bad})).unwrap_err();
        assert!(errors.iter().any(|e| e.to_string().contains("proxy")), "{bad}: {errors:?}");
    }
}

#[test]
fn serde_uses_the_hosts_own_form() {
    let config = ServerConfig::wasm("echo", "/e.js").timeout_ms(5);
    let text = serde_json::to_string(&config).unwrap();
    assert_eq!(serde_json::from_str::<ServerConfig>(&text).unwrap(), config);
    let err = serde_json::from_str::<ServerConfig>(r#"{"name":"x","type":"wasm"}"#).unwrap_err();
    assert!(err.to_string().contains("workerUrl"), "{err}");
}

#[test]
fn the_hosts_own_form_needs_a_name() {
    let errors = ServerConfig::from_json(&json!({"type": "wasm", "workerUrl": "/x.js"})).unwrap_err();
    assert_eq!(errors[0].field, "name");
    let errors = ServerConfig::from_json(&json!({"name": " ", "workerUrl": "/x.js"})).unwrap_err();
    assert_eq!(errors[0].field, "name");
    assert!(ServerConfig::wasm("", "/x.js").validate().is_err());
}

#[test]
fn debug_never_shows_secret_values() {
    let import = import_mcp_servers(CLAUDE_DESKTOP).unwrap();
    let shown = format!("{:?}", import.servers);
    assert!(!shown.contains("sk-123"), "{shown}");
    assert!(shown.contains("Authorization"), "names are shown: {shown}");
    let with_env = ServerConfig::wasm("e", "/e.js").env("TOKEN", "hunter2");
    assert!(!format!("{with_env:?}").contains("hunter2"));
}

#[test]
fn env_references_of_an_imported_entry_become_declared_credentials() {
    let text = r#"{"mcpServers": {
        "search": { "workerUrl": "/s.js",
                    "credentials": [{"name": "API_KEY", "description": "Your search key", "required": true}],
                    "env": { "API_KEY": "${API_KEY}", "AUTH": "Bearer ${TOKEN}", "REGION": "${REGION:-eu}",
                             "MODE": "fast" } },
        "plain": { "workerUrl": "/p.js", "env": { "GITHUB_TOKEN": "ghp_typed_by_hand" } }
    }}"#;
    let import = import_mcp_servers(text).unwrap();
    assert!(import.errors.is_empty(), "{:?}", import.errors);
    assert_eq!(
        find(&import, "search").credentials,
        [
            CredentialDecl::required("API_KEY", "Your search key"),
            CredentialDecl::required("TOKEN", "referenced by env AUTH"),
            CredentialDecl::optional("REGION", "referenced by env REGION"),
        ]
    );
    assert_eq!(
        find(&import, "search").env.get("API_KEY").unwrap(),
        "${API_KEY}",
        "resolved at start, never stored resolved"
    );
    assert!(find(&import, "plain").credentials.is_empty(), "a plain value refers to nothing");
    // The host's own form reads declarations too, and a bad reference is refused with its field.
    let config = ServerConfig::from_json(&json!({
        "name": "s", "workerUrl": "/s.js", "credentials": ["A", {"name": "B", "required": false}]
    }))
    .unwrap();
    assert_eq!(config.credentials, [CredentialDecl::required("A", ""), CredentialDecl::optional("B", "")]);
    let errors = ServerConfig::wasm("s", "/s.js").env("K", "${1BAD}").validate().unwrap_err();
    assert_eq!(errors[0].field, "env.K");
}
