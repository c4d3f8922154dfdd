use super::super::{ServerConfig, import_mcp_servers};
use super::*;
use crate::credentials::{CredentialDecl, server_declarations, worker_env};

fn taken(list: &[ImportedCredential]) -> Vec<(&str, &str, &str, &str)> {
    list.iter().map(|c| (c.server.as_str(), c.name.as_str(), c.field.as_str(), c.value.expose())).collect()
}

fn find<'a>(import: &'a McpServersImport, name: &str) -> &'a ServerConfig {
    import.servers.iter().find(|s| s.name == name).unwrap()
}

#[test]
fn literal_env_values_and_headers_become_references_and_leave_the_config() {
    let mut import = import_mcp_servers(
        r#"{"mcpServers": {
            "github": {"workerUrl": "/bundles/github/bootstrap.js",
                       "env": {"GITHUB_TOKEN": "ghp_secret", "AUTH": "token ${GITHUB_TOKEN}", "EMPTY": ""}},
            "remote": {"url": "https://example.com/mcp",
                       "headers": {"Authorization": "Bearer sk-remote", "X-Trace": "${TRACE:-off}"}}
        }}"#,
    )
    .unwrap();
    let moved = import.take_literals();
    assert_eq!(
        taken(&moved),
        [
            ("github", "GITHUB_TOKEN_2", "env.GITHUB_TOKEN", "ghp_secret"),
            ("remote", "HEADER_AUTHORIZATION", "headers.Authorization", "Bearer sk-remote"),
        ],
        "GITHUB_TOKEN is referred to by AUTH (a stored credential of that name), so the literal gets another name"
    );
    assert_eq!(moved[0].identity, ServerIdentity::bundle("/bundles/github/bootstrap.js", None));
    assert_eq!(moved[1].identity, ServerIdentity::remote("https://example.com/mcp"));

    let github = find(&import, "github");
    assert_eq!(github.env.get("GITHUB_TOKEN").unwrap(), "${GITHUB_TOKEN_2}");
    assert_eq!(github.env.get("AUTH").unwrap(), "token ${GITHUB_TOKEN}", "references stay as written");
    assert_eq!(github.env.get("EMPTY").unwrap(), "", "nothing to hide");
    let TransportConfig::Http { headers, .. } = &find(&import, "remote").transport else { panic!() };
    assert_eq!(headers.get("Authorization").unwrap(), "${HEADER_AUTHORIZATION}");
    assert_eq!(headers.get("X-Trace").unwrap(), "${TRACE:-off}");

    let saved = serde_json::to_string(&import.servers).unwrap();
    assert!(!saved.contains("ghp_secret") && !saved.contains("sk-remote"), "nothing is saved in the clear: {saved}");
    assert!(!format!("{moved:?}").contains("ghp_secret"), "Debug never shows a value");
}

#[test]
fn the_server_gets_the_same_environment_from_the_moved_values() {
    let text = r#"{"mcpServers": {"search": {"workerUrl": "/s.js",
        "env": {"API_KEY": "sk-1", "MODE": "fast", "REGION": "${REGION:-eu}", "1ST": "x"}}}}"#;
    let mut import = import_mcp_servers(text).unwrap();
    let moved = import.take_literals();
    let config = find(&import, "search");
    assert_eq!(config.env.get("1ST").unwrap(), "${ENV_1ST}", "a key that cannot be referred to gets a name that can");
    // Moved literals are declared by their references at start, not added to the config's own `credentials`.
    assert!(config.credentials.iter().all(|d| d.name != "API_KEY"), "{:?}", config.credentials);

    let declared = server_declarations(&[], &config.credentials, &config.env, &litemap::LiteMap::new()).unwrap();
    assert!(declared.contains(&CredentialDecl::required("API_KEY", "referenced by env API_KEY")));
    let values = moved.iter().map(|c| (c.name.clone(), c.value.clone())).collect();
    let env = worker_env("search", &declared, &config.env, values).unwrap();
    let shown: std::collections::BTreeMap<&str, &str> = env.iter().map(|(k, v)| (k.as_str(), v.expose())).collect();
    // As for any reference, the credential itself is given too: under its own name when that is not the env key.
    let expected = [("1ST", "x"), ("API_KEY", "sk-1"), ("ENV_1ST", "x"), ("MODE", "fast"), ("REGION", "eu")];
    assert_eq!(shown, std::collections::BTreeMap::from(expected));
}

#[test]
fn a_header_name_never_takes_a_name_the_entry_uses() {
    let mut import = import_mcp_servers(
        r#"{"mcpServers": {"remote": {"url": "https://x.example/mcp",
            "credentials": ["HEADER_AUTHORIZATION"],
            "headers": {"Authorization": "Bearer a", "authorization-2": "b", "X": "${HEADER_X}"},
            "env": {"HEADER_X_2": "${OTHER}"}}}}"#,
    )
    .unwrap();
    let moved = import.take_literals();
    let names: Vec<(&str, &str)> = moved.iter().map(|c| (c.field.as_str(), c.name.as_str())).collect();
    assert_eq!(
        names,
        [("headers.Authorization", "HEADER_AUTHORIZATION_2"), ("headers.authorization-2", "HEADER_AUTHORIZATION_2_2")]
    );
    assert!(import.take_literals().is_empty(), "a second pass finds only references");
}

#[test]
fn a_server_whose_values_cannot_be_stored_is_refused_with_the_field() {
    let mut import = import_mcp_servers(
        r#"{"mcpServers": {"a": {"workerUrl": "/a.js", "env": {"K": "v"}}, "b": {"workerUrl": "/b.js"}}}"#,
    )
    .unwrap();
    let moved = import.take_literals();
    import.refuse(&moved[0].server, &moved[0].field, "unlock the credentials first");
    assert_eq!(import.servers.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), ["b"]);
    assert_eq!(import.errors[0].to_string(), "server \"a\", field env.K: unlock the credentials first");
}
