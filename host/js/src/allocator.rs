//! The host package's memory allocator: [talc](https://crates.io/crates/talc) rather than Rust's default for wasm
//! (dlmalloc), as in every server bundle (`mcp_worker_sdk`'s `talc` feature): less code to download, and faster at
//! the small allocations of reading and writing JSON. Freed memory is merged and handed out again, so that the
//! memory a large result took serves the next (`tests/e2e/memory.test.mjs`). The crate's `talc` feature sets it.

#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();
