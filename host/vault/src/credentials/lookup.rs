//! What a vault lookup means for a server's start.

use super::error::CredentialError;
use mcp_worker_runtime::credentials::{CredentialDecl, Secret};
use mcp_worker_runtime::manager::CredentialsNeeded;

/// What a vault lookup of a server's `declared` credentials means for its start: the values, or what to ask the
/// user for. A vault that is locked, not set up or unreadable holds back only a server that has a required
/// credential; one with optional credentials only starts without them. Credentials stored for other code hold
/// back any server, until the application confirms the change.
pub fn lookup_outcome(
    declared: &[CredentialDecl],
    outcome: Result<Vec<(String, Secret)>, CredentialError>,
) -> Result<Vec<(String, Secret)>, CredentialsNeeded> {
    let required = || declared.iter().filter(|d| d.required).cloned().collect::<Vec<_>>();
    match outcome {
        Ok(values) => Ok(values),
        Err(CredentialError::Missing(missing)) => {
            let reason = missing.to_string();
            Err(CredentialsNeeded::new(missing.missing, reason))
        }
        // Optional ones too: the user is asked, rather than the server started without what it was given before.
        Err(CredentialError::IdentityChanged(change)) => {
            let held = declared.iter().filter(|d| change.credentials.contains(&d.name)).cloned().collect();
            Err(CredentialsNeeded::identity_changed(held, *change))
        }
        Err(_) if required().is_empty() => Ok(Vec::new()),
        Err(error @ CredentialError::Locked) => Err(CredentialsNeeded::new(required(), error.to_string()).locked()),
        Err(error) => Err(CredentialsNeeded::new(required(), error.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_worker_runtime::credentials::{IdentityChange, MissingCredentials, ServerIdentity};

    fn values(pairs: &[(&str, &str)]) -> Vec<(String, Secret)> {
        pairs.iter().map(|(k, v)| ((*k).to_owned(), Secret::new(*v))).collect()
    }

    fn shown(values: &[(String, Secret)]) -> Vec<(&str, &str)> {
        values.iter().map(|(k, v)| (k.as_str(), v.expose())).collect()
    }

    #[test]
    fn a_locked_vault_holds_back_only_servers_with_a_required_credential() {
        let declared = [CredentialDecl::required("API_KEY", "Your key"), CredentialDecl::optional("REGION", "")];
        let needs = lookup_outcome(&declared, Err(CredentialError::Locked)).unwrap_err();
        assert_eq!(needs.credentials, [CredentialDecl::required("API_KEY", "Your key")]);
        assert!(needs.locked, "unlocking is what helps");
        let needs = lookup_outcome(&declared, Err(CredentialError::NotSetUp)).unwrap_err();
        assert!(!needs.locked && needs.reason.contains("no key is set up"), "{needs:?}");
        let missing = MissingCredentials::new("w", declared[..1].to_vec());
        let needs = lookup_outcome(&declared, Err(CredentialError::Missing(missing))).unwrap_err();
        assert_eq!((needs.credentials.len(), needs.locked), (1, false));
        assert_eq!(needs.reason, "server \"w\" needs credentials: API_KEY (Your key)");

        let optional = [CredentialDecl::optional("REGION", "")];
        assert!(lookup_outcome(&optional, Err(CredentialError::Locked)).unwrap().is_empty(), "starts without");
        let got = lookup_outcome(&optional, Ok(values(&[("REGION", "eu")]))).unwrap();
        assert_eq!(shown(&got), [("REGION", "eu")]);
    }

    #[test]
    fn credentials_of_other_code_hold_back_even_a_server_with_optional_ones_only() {
        let optional = [CredentialDecl::optional("REGION", "Region"), CredentialDecl::optional("UNITS", "")];
        let current = ServerIdentity::bundle("/w/bootstrap.js", None);
        let change = IdentityChange::new("w", vec!["REGION".into()], None, current);
        let needs =
            lookup_outcome(&optional, Err(CredentialError::IdentityChanged(Box::new(change.clone())))).unwrap_err();
        assert_eq!(needs.credentials, [CredentialDecl::optional("REGION", "Region")]);
        assert_eq!(needs.reason, change.to_string());
        assert_eq!(needs.identity_change.as_deref(), Some(&change));
        assert!(!needs.locked, "unlocking does not help: confirming does");
    }
}
