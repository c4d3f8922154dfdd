//! Declared credentials through the manager, against in-memory servers: a bundle manifest's declarations, `${NAME}`
//! references in a config's `env`, and exactly those reaching the server.

use super::super::*;
use crate::config::import_mcp_servers;
use crate::credentials::{CredentialDecl, IdentityChange, ServerIdentity};
use crate::manifest::BundleManifest;
use crate::test_support::{Behaviour, ManualTime, TestLauncher, TestPlatform};
use futures_executor::LocalPool;
use mcp_worker_sdk::Server;

struct World {
    pool: LocalPool,
    launcher: Rc<TestLauncher>,
    manager: McpTransportManager,
    vault: Rc<StaticCredentials>,
    events: Rc<RefCell<Vec<ManagerEvent>>>,
}

fn world() -> World {
    let pool = LocalPool::new();
    let time = ManualTime::default();
    let launcher = Rc::new(TestLauncher::new(pool.spawner(), time.clone()));
    let runtime = Rc::new(TestPlatform { time, spawner: pool.spawner() });
    let manager =
        McpTransportManager::new(runtime, launcher.clone(), Rc::new(ToolRegistry::new()), ManagerOptions::default());
    let vault = Rc::new(StaticCredentials::new());
    manager.set_credential_source(Some(vault.clone()));
    let events = Rc::new(RefCell::new(Vec::new()));
    let log = events.clone();
    manager.subscribe(Rc::new(move |e: &ManagerEvent| log.borrow_mut().push(e.clone())));
    World { pool, launcher, manager, vault, events }
}

impl World {
    fn serve(&self, name: &str) {
        self.launcher.set(name, Behaviour::Serve(Rc::new(|| Server::new("s", "1"))));
    }

    fn connect(&mut self, name: &str) -> Result<()> {
        self.pool.run_until(self.manager.connect(name))
    }

    /// The environment of the latest launch of `name`.
    fn launched_env(&self, name: &str) -> Vec<(String, String)> {
        let envs = self.launcher.envs.borrow();
        envs.iter().rev().find(|(n, _)| n == name).map(|(_, env)| env.clone()).unwrap_or_else(|| panic!("{name}"))
    }

    fn credentials_required(&self) -> Vec<(String, Vec<CredentialDecl>, bool)> {
        let events = self.events.borrow();
        let required = events.iter().filter_map(|e| match e {
            ManagerEvent::CredentialsRequired { server, credentials, locked, .. } => {
                Some((server.clone(), credentials.clone(), *locked))
            }
            _ => None,
        });
        required.collect()
    }
}

fn weather_manifest() -> BundleManifest {
    BundleManifest::parse(
        r#"{"name": "weather", "version": "1", "credentials": [
            {"name": "WEATHER_API_KEY", "description": "Your key from weather.example", "required": true},
            {"name": "REGION", "description": "Region override", "required": false}]}"#,
    )
    .unwrap()
}

fn pairs(env: &[(String, String)]) -> Vec<(&str, &str)> {
    env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect()
}

#[test]
fn a_required_credential_in_the_manifest_holds_the_server_until_it_is_stored() {
    let mut w = world();
    w.serve("weather");
    w.launcher.set_manifest("weather", Ok(Some(weather_manifest())));
    w.manager.add(ServerConfig::wasm("weather", "/bundles/weather/bootstrap.js").env("UNITS", "metric")).unwrap();
    w.vault.set("other", "WEATHER_API_KEY", "another-servers-key");

    let error = w.connect("weather").unwrap_err();
    assert_eq!(error.code(), "NEEDS_CREDENTIALS");
    assert_eq!(w.manager.health("weather").unwrap().status, ServerStatus::NeedsCredentials);
    assert_eq!(w.launcher.launch_count("weather"), 0, "not started without it");
    let needed = [CredentialDecl::required("WEATHER_API_KEY", "Your key from weather.example")];
    assert_eq!(w.credentials_required(), [("weather".to_owned(), needed.to_vec(), false)]);
    assert_eq!(w.manager.credentials_needed("weather").unwrap().credentials, needed);
    let declared = w.pool.run_until(w.manager.declared_credentials("weather")).unwrap();
    assert_eq!(declared, [needed[0].clone(), CredentialDecl::optional("REGION", "Region override")]);

    w.vault.set("weather", "WEATHER_API_KEY", "wk-123");
    w.vault.set("weather", "UNDECLARED", "never-sent");
    w.manager.credentials_changed("weather");
    w.pool.run_until_stalled();
    assert_eq!(w.manager.health("weather").unwrap().status, ServerStatus::Connected);
    assert_eq!(pairs(&w.launched_env("weather")), [("WEATHER_API_KEY", "wk-123"), ("UNITS", "metric")]);
    assert!(w.manager.credentials_needed("weather").is_none());
    let reads = w.launcher.manifest_reads.borrow().iter().filter(|n| *n == "weather").count();
    assert_eq!(reads, 4, "when it was added (for its tools), and before each of its 3 starts");
}

#[test]
fn a_server_without_a_manifest_or_with_optional_credentials_only_starts_without_a_source() {
    let mut w = world();
    w.manager.set_credential_source(None);
    w.serve("plain");
    w.manager.add(ServerConfig::wasm("plain", "/fixtures/plain.js")).unwrap();
    w.connect("plain").unwrap();
    w.serve("everything");
    let manifest = BundleManifest::parse(
        r#"{"name": "everything", "version": "1", "credentials": [{"name": "K", "description": "", "required": false}]}"#,
    )
    .unwrap();
    w.launcher.set_manifest("everything", Ok(Some(manifest)));
    w.manager.add(ServerConfig::wasm("everything", "/bundles/everything/bootstrap.js")).unwrap();
    w.connect("everything").unwrap();
    assert!(w.launched_env("everything").is_empty());
}

#[test]
fn env_references_of_an_imported_config_resolve_at_start() {
    let mut w = world();
    w.serve("search");
    let import = import_mcp_servers(
        r#"{"mcpServers": {"search": {"workerUrl": "/s.js",
            "env": {"API_KEY": "${API_KEY}", "AUTH": "Key ${API_KEY}", "REGION": "${REGION:-eu}", "MODE": "fast"}}}}"#,
    )
    .unwrap();
    w.manager.add(import.servers[0].clone()).unwrap();

    let error = w.connect("search").unwrap_err();
    assert!(!error.to_string().contains("${"), "{error}");
    let required = w.credentials_required();
    assert_eq!(required[0].1, [CredentialDecl::required("API_KEY", "referenced by env API_KEY")]);
    assert_eq!(w.launcher.launch_count("search"), 0, "a literal reference never reaches the server");

    w.vault.set("search", "API_KEY", "sk-search-1");
    w.connect("search").unwrap();
    assert_eq!(
        pairs(&w.launched_env("search")),
        [("API_KEY", "sk-search-1"), ("AUTH", "Key sk-search-1"), ("MODE", "fast"), ("REGION", "eu")]
    );
    let shown = format!("{:?} {:?}", w.events.borrow(), w.manager.health("search"));
    assert!(!shown.contains("sk-search-1"), "no resolved secret in an event or the health");
}

#[test]
fn a_malformed_manifest_fails_the_start_naming_the_server() {
    let mut w = world();
    w.serve("broken");
    let invalid = Error::InvalidManifest {
        server: "broken".into(),
        url: "/bundles/broken/manifest.json".into(),
        reason: "not JSON: expected value at line 1 column 1".into(),
    };
    w.launcher.set_manifest("broken", Err(invalid));
    w.manager.add(ServerConfig::wasm("broken", "/bundles/broken/bootstrap.js")).unwrap();
    let error = w.connect("broken").unwrap_err();
    assert_eq!(error.code(), "INVALID_MANIFEST");
    assert_eq!(
        error.to_string(),
        "server broken: invalid manifest /bundles/broken/manifest.json: not JSON: expected value at line 1 column 1"
    );
    let health = w.manager.health("broken").unwrap();
    assert!(health.last_error.unwrap().contains("invalid manifest"));
    assert_eq!(w.launcher.launch_count("broken"), 0);
}

fn weather_bundle() -> ServerIdentity {
    ServerIdentity::bundle("/bundles/weather/bootstrap.js", None)
}

impl World {
    fn identity_changes(&self) -> Vec<IdentityChange> {
        let events = self.events.borrow();
        let changes = events.iter().filter_map(|e| match e {
            ManagerEvent::CredentialsRequired { identity_change, .. } => identity_change.clone(),
            _ => None,
        });
        changes.collect()
    }
}

#[test]
fn credentials_follow_the_bundle_they_were_stored_for_not_the_name() {
    let mut w = world();
    w.serve("weather");
    w.launcher.set_manifest("weather", Ok(Some(weather_manifest())));
    w.vault.set_bound("weather", &weather_bundle(), "WEATHER_API_KEY", "wk-123");
    // The config of "weather" was rewritten to point at another bundle.
    let elsewhere = "https://elsewhere.example/bootstrap.js";
    w.manager.add(ServerConfig::wasm("weather", elsewhere)).unwrap();

    let error = w.connect("weather").unwrap_err();
    assert_eq!(error.code(), "NEEDS_CREDENTIALS");
    assert_eq!(w.launcher.launch_count("weather"), 0, "the other bundle never gets the key");
    let health = w.manager.health("weather").unwrap();
    assert_eq!(health.status, ServerStatus::NeedsCredentials);
    let shown = health.last_error.unwrap();
    assert!(shown.contains("bundle /bundles/weather/bootstrap.js") && shown.contains(elsewhere), "{shown}");
    let change = IdentityChange {
        server: "weather".into(),
        credentials: vec!["WEATHER_API_KEY".into()],
        stored_for: Some(weather_bundle()),
        current: ServerIdentity::bundle(elsewhere, None),
    };
    assert_eq!(w.identity_changes(), std::slice::from_ref(&change));
    let needs = w.manager.credentials_needed("weather").unwrap();
    assert_eq!(needs.identity_change.as_deref(), Some(&change));
    assert!(!needs.locked);
    // A retry without the confirmation changes nothing.
    w.manager.credentials_changed("weather");
    w.pool.run_until_stalled();
    assert_eq!(w.launcher.launch_count("weather"), 0);

    // The application asked its user, who agreed: the credentials are bound to the new bundle and the server starts.
    w.pool.run_until(w.manager.confirm_credential_identity("weather")).unwrap();
    w.pool.run_until_stalled();
    assert_eq!(w.manager.health("weather").unwrap().status, ServerStatus::Connected);
    assert_eq!(pairs(&w.launched_env("weather")), [("WEATHER_API_KEY", "wk-123")]);
}

#[test]
fn stored_optional_credentials_of_other_code_hold_the_server_too() {
    let mut w = world();
    w.serve("weather");
    let manifest = r#"{"name": "weather", "version": "1", "credentials": [{"name": "REGION", "required": false}]}"#;
    w.launcher.set_manifest("weather", Ok(Some(BundleManifest::parse(manifest).unwrap())));
    w.vault.set_bound("weather", &weather_bundle(), "REGION", "eu-west");
    w.manager.add(ServerConfig::wasm("weather", "/bundles/weather/v2/bootstrap.js")).unwrap();
    assert_eq!(w.connect("weather").unwrap_err().code(), "NEEDS_CREDENTIALS");
    assert_eq!(w.identity_changes().len(), 1, "the user is asked rather than the server started without them");
    assert!(w.pool.run_until(w.manager.confirm_credential_identity("nobody")).is_err());
}

#[test]
fn a_removed_server_takes_its_credentials_with_it() {
    let mut w = world();
    w.serve("weather");
    w.launcher.set_manifest("weather", Ok(Some(weather_manifest())));
    w.vault.set_bound("weather", &weather_bundle(), "WEATHER_API_KEY", "wk-123");
    w.manager.add(ServerConfig::wasm("weather", "/bundles/weather/bootstrap.js")).unwrap();
    w.connect("weather").unwrap();
    w.manager.remove("weather").unwrap();
    w.pool.run_until_stalled();

    // A later server of that name, even of the same bundle, starts from nothing.
    w.manager.add(ServerConfig::wasm("weather", "/bundles/weather/bootstrap.js")).unwrap();
    let error = w.connect("weather").unwrap_err();
    assert_eq!(error.code(), "NEEDS_CREDENTIALS");
    assert!(error.to_string().contains("missing WEATHER_API_KEY"), "{error}");
    assert_eq!(w.launcher.launch_count("weather"), 1);
}
