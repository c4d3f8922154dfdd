//! What a bundle's worker entry says of itself (`docs/wire-protocol.md`, "The worker guard").
//!
//! A sandboxed worker lives in an opaque origin, whose requests the browser never caches, so the host's page fetches
//! the bundle's files through its own HTTP cache and hands them to the worker. It may hand the worker the text of the
//! bundle's `bootstrap.js`, which the worker then runs from a `blob:` URL rather than fetching it. That is safe only
//! for a script that imports nothing and finds nothing through its own URL: `mcp-worker build` writes such an entry
//! (the SDK's bootstrap and the wasm-bindgen glue in one module, its wasm's URL taken from the host) and starts it
//! with [`ONE_MODULE_ENTRY`]. Any other script is imported from its URL, as before.

/// The first line of a bundle's `bootstrap.js` when it is one module that imports nothing and finds its wasm through
/// the host. Running, it leaves `self[Symbol.for("mcpWorker.entry")] === true`, so that the host's prelude knows
/// whether a failed import of the text ran any of it (when it did not, as when the page's policy allows no `blob:`
/// scripts, the prelude imports the script's URL instead).
pub const ONE_MODULE_ENTRY: &str = "self[Symbol.for(\"mcpWorker.entry\")] = true; // mcp-worker: one module\n";
