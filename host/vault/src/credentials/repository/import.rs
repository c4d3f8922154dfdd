//! An imported `mcpServers` document whose literal secrets go into the vault, never into a saved config.

use super::CredentialsRepository;
use mcp_worker_runtime::config::McpServersImport;

impl CredentialsRepository {
    /// Moves every literal `env` value and header of `import`'s servers into the repository, each bound to its
    /// server's identity, and leaves `${NAME}` references in their place
    /// ([`McpServersImport::take_literals`]): add the servers afterwards, and their configs hold no secret.
    ///
    /// Without the key (locked, or not set up) nothing can be stored encrypted: a server with a literal value is then
    /// refused, with an error naming the field and what to do, rather than kept with its secret in the clear. So is
    /// a server whose value cannot be stored. Servers without literals are kept as they are.
    pub async fn store_imported(&self, import: &mut McpServersImport) {
        let taken = import.take_literals();
        let mut refused: Vec<String> = Vec::new();
        for credential in taken {
            if refused.contains(&credential.server) {
                continue;
            }
            let stored = if self.is_unlocked() {
                let (server, identity, name) = (&credential.server, &credential.identity, &credential.name);
                self.set_for(server, identity, name, &credential.value).await.map_err(|e| e.to_string())
            } else {
                Err("a literal value would be saved in the clear: unlock the credentials (or set them up), then \
                     import again, and it is stored encrypted"
                    .to_owned())
            };
            if let Err(message) = stored {
                import.refuse(&credential.server, &credential.field, message);
                refused.push(credential.server);
            }
        }
    }
}
