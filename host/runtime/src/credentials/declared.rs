//! A server's credentials, from every place that declares them, and the environment its worker gets from them.
//!
//! A server declares credentials in its bundle manifest (with descriptions), in its configuration (`credentials`),
//! and by referring to them in its configuration's `env` (`"API_KEY": "${API_KEY}"`, as the `mcpServers` files of
//! desktop clients do) or a remote server's `headers` (`"Authorization": "Bearer ${TOKEN}"`).
//! [`server_declarations`] merges them into the one list that the vault is asked for and the user is told about;
//! [`worker_env`] builds `connect.env` from what the vault returned: exactly the declared credentials, plus the
//! configuration's `env` with its references resolved; [`resolve_headers`] resolves the headers likewise.

use super::env_ref::{EnvTemplate, env_declarations, header_declarations};
use super::error::{CredentialError, CredentialResult};
use super::scope::{CredentialDecl, MissingCredentials, normalize};
use super::secret::Secret;
use litemap::LiteMap;

/// Everything a server declares, one entry per name, in this order: its manifest's credentials, its
/// configuration's, then the names its `env` refers to, then those its `headers` refer to. A name is required if any
/// declaration says so. Its description is the configuration's if it gives one (the application's words for its
/// users), else the manifest's, else the reference's (`referenced by env KEY`).
///
/// A name that the configuration's `env` sets itself is the configuration's to give: it is not asked for (unless
/// a value refers to it, as in `"API_KEY": "${API_KEY}"`, and then as the reference says).
pub fn server_declarations(
    manifest: &[CredentialDecl],
    config: &[CredentialDecl],
    env: &LiteMap<String, String>,
    headers: &LiteMap<String, String>,
) -> CredentialResult<Vec<CredentialDecl>> {
    let pairs = |map: &LiteMap<String, String>| map.iter().map(|(k, v)| (k.clone(), v.clone())).collect::<Vec<_>>();
    let references = env_declarations(&pairs(env))?;
    let header_references = header_declarations(&pairs(headers))?;
    let described = |name: &str| {
        let own = config.iter().chain(manifest).find(|d| d.name == name && !d.description.is_empty());
        own.map(|d| d.description.clone())
    };
    let own = manifest.iter().chain(config).filter(|d| !env.contains_key(&d.name));
    let all: Vec<CredentialDecl> = own
        .chain(&references)
        .chain(&header_references)
        .map(|d| CredentialDecl {
            description: described(&d.name).unwrap_or_else(|| d.description.clone()),
            ..d.clone()
        })
        .collect();
    normalize(&all)
}

/// The environment of `server`'s worker: each declared credential that has a value, under its name, in
/// declaration order; then the configuration's `env`, each value with its `${NAME}` references replaced by the
/// credential `NAME` (or the `${NAME:-fallback}`). Values for names that were not declared are dropped, whoever
/// returned them. A reference that cannot be resolved is [`CredentialError::Missing`], naming the credential.
pub fn worker_env(
    server: &str,
    declared: &[CredentialDecl],
    env: &LiteMap<String, String>,
    values: Vec<(String, Secret)>,
) -> CredentialResult<Vec<(String, Secret)>> {
    let values = declared_values(declared, values);
    let mut out: Vec<(String, Secret)> = declared
        .iter()
        .filter(|d| !env.contains_key(&d.name))
        .filter_map(|d| values.get(&d.name).map(|value| (d.name.clone(), value.clone())))
        .collect();
    out.extend(render_all(server, declared, env, &values, "env")?);
    Ok(out)
}

/// A remote server's `headers` with their `${NAME}` references replaced by the declared credentials' values (or
/// fallbacks), as [`worker_env`] does for `env`.
pub fn resolve_headers(
    server: &str,
    declared: &[CredentialDecl],
    headers: &LiteMap<String, String>,
    values: &[(String, Secret)],
) -> CredentialResult<Vec<(String, Secret)>> {
    let values = declared_values(declared, values.to_vec());
    render_all(server, declared, headers, &values, "header")
}

/// The values of declared names only.
fn declared_values(declared: &[CredentialDecl], values: Vec<(String, Secret)>) -> LiteMap<String, Secret> {
    // Inserted one by one (a server declares a few credentials): a map collected from an iterator compiles a stable
    // sort of its own.
    let mut kept = LiteMap::new();
    for (name, value) in values {
        if declared.iter().any(|d| d.name == name) {
            kept.insert(name, value);
        }
    }
    kept
}

/// Every template of `templates` rendered, or every credential they lack without a fallback.
fn render_all(
    server: &str,
    declared: &[CredentialDecl],
    templates: &LiteMap<String, String>,
    values: &LiteMap<String, Secret>,
    what: &str,
) -> CredentialResult<Vec<(String, Secret)>> {
    let mut out = Vec::with_capacity(templates.len());
    let mut missing: Vec<CredentialDecl> = Vec::new();
    for (key, value) in templates {
        let template = EnvTemplate::parse(value)?;
        match template.render(|name| values.get(name)) {
            Some(rendered) => out.push((key.clone(), rendered)),
            None => {
                let unresolved = template.references().filter(|(name, has_fallback)| {
                    !has_fallback && !values.contains_key(*name) && !missing.iter().any(|d| d.name == *name)
                });
                let unresolved: Vec<CredentialDecl> = unresolved
                    .map(|(name, _)| {
                        let known = declared.iter().find(|d| d.name == name);
                        let description =
                            known.map_or_else(|| format!("referenced by {what} {key}"), |d| d.description.clone());
                        CredentialDecl::required(name, description)
                    })
                    .collect();
                missing.extend(unresolved);
            }
        }
    }
    if missing.is_empty() {
        Ok(out)
    } else {
        Err(CredentialError::Missing(MissingCredentials { server: server.to_owned(), missing }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> LiteMap<String, String> {
        pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
    }

    fn none() -> LiteMap<String, String> {
        LiteMap::new()
    }

    fn values(pairs: &[(&str, &str)]) -> Vec<(String, Secret)> {
        pairs.iter().map(|(k, v)| ((*k).to_owned(), Secret::new(*v))).collect()
    }

    fn shown(env: &[(String, Secret)]) -> Vec<(&str, &str)> {
        env.iter().map(|(k, v)| (k.as_str(), v.expose())).collect()
    }

    #[test]
    fn manifest_config_and_env_references_merge_into_one_list() {
        let manifest = [
            CredentialDecl::required("API_KEY", "Your key from weather.example"),
            CredentialDecl::optional("REGION", "Region override"),
        ];
        let config = [CredentialDecl::required("REGION", ""), CredentialDecl::required("EXTRA", "")];
        let declared = server_declarations(
            &manifest,
            &config,
            &env(&[("AUTH", "Bearer ${TOKEN}"), ("KEY_AGAIN", "${API_KEY}"), ("UNITS", "${UNITS:-metric}")]),
            &none(),
        )
        .unwrap();
        assert_eq!(
            declared,
            [
                CredentialDecl::required("API_KEY", "Your key from weather.example"),
                CredentialDecl::required("REGION", "Region override"),
                CredentialDecl::required("EXTRA", ""),
                CredentialDecl::required("TOKEN", "referenced by env AUTH"),
                CredentialDecl::optional("UNITS", "referenced by env UNITS"),
            ],
            "the config makes REGION required; a reference borrows the manifest's description"
        );
        assert!(server_declarations(&[], &[], &env(&[("MODE", "fast")]), &none()).unwrap().is_empty());
        let app = [CredentialDecl::required("API_KEY", "The key our admin gave you")];
        let declared = server_declarations(&manifest[..1], &app, &none(), &none()).unwrap();
        assert_eq!(declared, app, "the application's description wins over the bundle's");
    }

    #[test]
    fn a_name_the_config_env_sets_is_not_asked_for() {
        let manifest = [CredentialDecl::required("API_KEY", "Your key"), CredentialDecl::required("TOKEN", "")];
        let declared =
            server_declarations(&manifest, &[], &env(&[("API_KEY", "sk-from-the-config")]), &none()).unwrap();
        assert_eq!(declared, [CredentialDecl::required("TOKEN", "")]);
        // With a fallback, the env gives a value either way: the reference is optional, the manifest's text stays.
        let declared =
            server_declarations(&manifest[..1], &[], &env(&[("API_KEY", "${API_KEY:-demo}")]), &none()).unwrap();
        assert_eq!(declared, [CredentialDecl::optional("API_KEY", "Your key")]);
        let error = server_declarations(&[], &[], &env(&[("A", "${oops")]), &none()).unwrap_err();
        assert_eq!(error.code(), "INVALID_INPUT");
    }

    #[test]
    fn the_worker_gets_exactly_its_declared_credentials_and_its_env_resolved() {
        let declared = [
            CredentialDecl::required("API_KEY", ""),
            CredentialDecl::optional("REGION", ""),
            CredentialDecl::required("TOKEN", "referenced by env AUTH"),
        ];
        let config_env = env(&[("AUTH", "Bearer ${TOKEN}"), ("MODE", "fast"), ("UNITS", "${UNITS:-metric}")]);
        let got = worker_env(
            "weather",
            &declared,
            &config_env,
            values(&[("TOKEN", "tok-1"), ("API_KEY", "k-1"), ("OTHER_SERVERS_KEY", "never")]),
        )
        .unwrap();
        assert_eq!(
            shown(&got),
            [("API_KEY", "k-1"), ("TOKEN", "tok-1"), ("AUTH", "Bearer tok-1"), ("MODE", "fast"), ("UNITS", "metric"),],
            "an optional credential without a value is left out; an undeclared value never gets in"
        );
    }

    #[test]
    fn an_env_key_wins_over_a_credential_of_the_same_name() {
        let declared = [CredentialDecl::required("API_KEY", "")];
        let got = worker_env("s", &declared, &env(&[("API_KEY", "${API_KEY}")]), values(&[("API_KEY", "k")]));
        assert_eq!(shown(&got.unwrap()), [("API_KEY", "k")], "once, from the env template");
    }

    #[test]
    fn an_unresolvable_reference_names_the_missing_credential() {
        let declared = [CredentialDecl::required("API_KEY", "Your key")];
        let error = worker_env("search", &declared, &env(&[("K", "${API_KEY}"), ("K2", "x${API_KEY}")]), Vec::new())
            .unwrap_err();
        let CredentialError::Missing(missing) = &error else { panic!("{error:?}") };
        assert_eq!(missing.server, "search");
        assert_eq!(missing.missing, [CredentialDecl::required("API_KEY", "Your key")], "named once");
        assert!(!error.to_string().contains("${"), "{error}");
    }

    #[test]
    fn header_references_are_declared_and_resolved_like_env_ones() {
        let headers = env(&[("Authorization", "Bearer ${TOKEN}"), ("X-Region", "${REGION:-eu}"), ("Accept", "json")]);
        let declared =
            server_declarations(&[], &[CredentialDecl::required("TOKEN", "Your token")], &none(), &headers).unwrap();
        assert_eq!(
            declared,
            [
                CredentialDecl::required("TOKEN", "Your token"),
                CredentialDecl::optional("REGION", "referenced by header X-Region")
            ]
        );
        let got =
            resolve_headers("remote", &declared, &headers, &values(&[("TOKEN", "t-1"), ("OTHER", "never")])).unwrap();
        assert_eq!(shown(&got), [("Accept", "json"), ("Authorization", "Bearer t-1"), ("X-Region", "eu")]);
        let error = resolve_headers("remote", &declared, &headers, &[]).unwrap_err();
        let CredentialError::Missing(missing) = &error else { panic!("{error:?}") };
        assert_eq!(missing.missing, [CredentialDecl::required("TOKEN", "Your token")]);
    }
}
