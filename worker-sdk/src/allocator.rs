//! The worker's memory allocator: [talc](https://crates.io/crates/talc) rather than Rust's default for wasm
//! (dlmalloc). Its code is a fraction of dlmalloc's, and it serves the many small allocations of reading and writing
//! JSON faster. It takes memory from the browser as dlmalloc does (`memory.grow`, as little as an allocation needs),
//! merges what is freed, and hands it out again: a large result's memory is reused by the next.
//!
//! The SDK's default feature `talc` sets it; a server that sets a `#[global_allocator]` of its own turns the SDK's
//! default features off. Only a worker without shared memory (no `atomics`) uses it: that is every bundle the SDK
//! builds.

#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();
