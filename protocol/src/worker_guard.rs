//! The worker guard: the first code of every server worker (`docs/wire-protocol.md`, "The worker guard").
//!
//! It answers the host's heartbeat, says so when the worker closes itself, and reports requests the network policy
//! blocked. The host runs it first in the prelude of every worker it starts from a script of its own; an SDK bundle's
//! bootstrap runs it first too, so that the host can start the bundle from its own URL. It installs itself once per
//! worker and leaves `self[Symbol.for("mcpWorker.guard")] === true`, which the bootstrap's `boot` reports as
//! `guard: true`.

/// The guard's JavaScript: a block statement, valid in a classic script and in a module (`js/worker-guard.js`
/// without its comment lines).
pub const WORKER_GUARD: &str = crate::js_without_comment_lines!(include_str!("../js/worker-guard.js"));

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_guard_is_one_block_that_installs_itself_once() {
        let code: Vec<&str> = WORKER_GUARD.lines().collect();
        assert_eq!(code.first(), Some(&"{"), "the guard declares nothing outside its block");
        assert_eq!(code.last(), Some(&"}"));
        assert!(WORKER_GUARD.contains(r#"Symbol.for("mcpWorker.guard")"#));
        assert!(!WORKER_GUARD.to_ascii_lowercase().contains("</script"), "it is embedded in frame documents' messages");
        assert!(!WORKER_GUARD.contains("\n//"), "its comment lines stay in the source");
    }
}
