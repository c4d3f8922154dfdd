//! The bundle's `bootstrap.js`: the SDK's bootstrap and the wasm-bindgen glue in one module.
//!
//! The SDK's `js/bootstrap.js` imports the glue from `./server.js`. Started as it is, a worker fetches the bootstrap,
//! then the glue, one after the other; in Chromium each such fetch adds milliseconds to every server's start (in
//! `cargo xtask bench`, a plain JavaScript client starting the echo server took 19.3 ms from `new Worker` to tools
//! listed with two scripts, 13.0 ms with one). The bundle's `bootstrap.js` is therefore the glue with the bootstrap
//! after it, its import replaced by the names the glue defines. `server.js` stays in the bundle for Node
//! (`serve.mjs`) and for pages that import the glue themselves.

/// Names this form of the bundle's worker entry, for the bundle's fingerprint.
pub const FORM: &str =
    "bootstrap.js: glue and bootstrap in one module, the worker guard in the bootstrap, marked as one module";

/// The line of the SDK's bootstrap that the worker guard takes the place of.
const GUARD_SLOT: &str = "// mcp-worker: the worker guard\n";

/// The SDK's bootstrap with the worker guard (`mcp_worker_protocol::worker_guard`) in its slot, so that a host may
/// start the bundle from its own URL; `None` when the bootstrap has no slot (its `boot` then says the guard did not
/// run, and hosts start it through their prelude).
pub fn with_guard(bootstrap: &str) -> Option<String> {
    bootstrap
        .contains(GUARD_SLOT)
        .then(|| bootstrap.replacen(GUARD_SLOT, mcp_worker_protocol::worker_guard::WORKER_GUARD, 1))
}

/// The import of the glue in the SDK's bootstrap, which the one-module form drops.
const GLUE_IMPORT: &str = "import init, { initSync, mcp_worker_connect } from \"./server.js\";\n";

/// What the glue must define for the bootstrap to use it in place: its init function, exported as `default` under
/// this name, its synchronous init function and the server's connect function.
const GLUE_INIT_EXPORT: &str = "__wbg_init as default";
const GLUE_INIT_SYNC: &str = "function initSync(";
const GLUE_CONNECT: &str = "export function mcp_worker_connect(";

/// The bootstrap and the glue as one module, or `None` when either is not of the form this knows (another
/// wasm-bindgen version may name its init function differently): the bundle then ships the bootstrap as it is.
pub fn combine(glue: &str, bootstrap: &str) -> Option<String> {
    if ![GLUE_INIT_EXPORT, GLUE_INIT_SYNC, GLUE_CONNECT].iter().all(|needed| glue.contains(needed)) {
        return None;
    }
    let (before, after) = bootstrap.split_once(GLUE_IMPORT)?;
    let mut entry = String::with_capacity(glue.len() + bootstrap.len() + 64);
    entry.push_str(glue);
    if !glue.ends_with('\n') {
        entry.push('\n');
    }
    entry.push_str(before);
    entry.push_str("// The glue above is this module's own: its init function under the name the bootstrap uses.\n");
    entry.push_str("const init = __wbg_init;\n");
    entry.push_str(after);
    Some(entry)
}

/// The one-module entry with [`mcp_worker_protocol::worker_entry::ONE_MODULE_ENTRY`] as its first line: a host may
/// then run the script's text, fetched through its page's HTTP cache, rather than have a sandboxed worker fetch it.
pub fn mark_one_module(entry: &str) -> String {
    let mark = mcp_worker_protocol::worker_entry::ONE_MODULE_ENTRY;
    if entry.starts_with(mark) { entry.to_owned() } else { format!("{mark}{entry}") }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GLUE: &str = "let wasm;\nexport function mcp_worker_connect(port, env, options) {}\nfunction initSync(m) {}\nasync function __wbg_init(m) {}\nexport { initSync, __wbg_init as default };\n";
    const BOOTSTRAP: &str = "// header\nimport init, { initSync, mcp_worker_connect } from \"./server.js\";\n\nawait init();\nmcp_worker_connect();\n";

    #[test]
    fn the_glue_comes_first_and_the_bootstrap_uses_its_names_without_importing_them() {
        let entry = combine(GLUE, BOOTSTRAP).unwrap();
        assert!(entry.starts_with(GLUE));
        assert!(!entry.contains("from \"./server.js\""));
        assert!(entry.contains("// header\n"));
        let init_bound = entry.find("const init = __wbg_init;").unwrap();
        assert!(init_bound < entry.find("await init();").unwrap());
        assert!(entry.ends_with("mcp_worker_connect();\n"));
    }

    #[test]
    fn a_one_module_entry_is_marked_once_at_its_start() {
        let entry = combine(GLUE, BOOTSTRAP).unwrap();
        let marked = mark_one_module(&entry);
        let mark = mcp_worker_protocol::worker_entry::ONE_MODULE_ENTRY;
        assert_eq!(marked.strip_prefix(mark), Some(entry.as_str()));
        assert_eq!(mark_one_module(&marked), marked);
    }

    #[test]
    fn the_guard_takes_its_slot_once() {
        let bootstrap = format!("// header\n{GUARD_SLOT}{}", &BOOTSTRAP["// header\n".len()..]);
        let guarded = with_guard(&bootstrap).unwrap();
        assert!(!guarded.contains(GUARD_SLOT));
        assert_eq!(guarded.matches(mcp_worker_protocol::worker_guard::WORKER_GUARD).count(), 1);
        assert!(guarded.find("Symbol.for(\"mcpWorker.guard\")").unwrap() < guarded.find("import init").unwrap());
        let entry = combine(GLUE, &guarded).unwrap();
        assert!(entry.find("mcpWorker.guard").unwrap() < entry.find("await init();").unwrap());
        assert_eq!(with_guard(BOOTSTRAP), None);
    }

    #[test]
    fn the_sdk_bootstrap_has_a_guard_slot() {
        let sdk = include_str!("../../worker-sdk/js/bootstrap.js");
        assert!(with_guard(sdk).is_some(), "worker-sdk/js/bootstrap.js lost its line `{}`", GUARD_SLOT.trim_end());
    }

    #[test]
    fn the_sdk_bootstrap_names_the_modern_version_the_sdk_serves() {
        // Hosts send 2026-07-28 requests with the probe to a worker whose `boot` names that version: it must be the
        // one the SDK's sessions answer.
        let sdk = include_str!("../../worker-sdk/js/bootstrap.js");
        let said = format!("modern: \"{}\"", mcp_worker_protocol::modern::MODERN_PROTOCOL_VERSION);
        assert!(sdk.contains(&said), "worker-sdk/js/bootstrap.js does not say `{said}` in its boot");
    }

    #[test]
    fn glue_or_a_bootstrap_of_another_form_is_left_to_the_two_file_form() {
        assert_eq!(combine("export default function init() {}", BOOTSTRAP), None);
        assert_eq!(combine(&GLUE.replace("function initSync(m) {}\n", ""), BOOTSTRAP), None, "initSync is needed");
        assert_eq!(combine(GLUE, "import init from \"./glue.js\";\n"), None);
    }
}
