//! Whether a module leaves its lowest kilobyte of memory to nothing but the bottom of its stack, so that wasm-opt may
//! assume it is unused (`--low-memory-unused`).
//!
//! With that assumption wasm-opt folds a constant added to an address into the offset of the load or store that uses
//! it (`load(p + 8)` becomes `load offset=8 (p)`): one instruction less at each field of a struct read through a
//! pointer, 1.9 KB of the echo server's wasm. The two differ only where `p + C` wraps past 2^32, and since C is below
//! 1024, the wrapped address would lie in the lowest kilobyte: there the fold traps where the original would have
//! read or written. Rust's wasm linker lays memory out so that no such access happens in a program that runs: its
//! static data starts at 1 MiB, above the stack (`--stack-first`, rustc's default for wasm), or at 1 KiB without
//! it (wasm-ld's `--global-base`). What lies below 1 KiB is then the deepest kilobyte of the stack, which a frame
//! reaches only with the whole stack in use, and through a wrapping address only in a frame that has already run
//! past its end (whose other accesses trap in either build). A module whose data starts lower, or is placed at run
//! time, or whose memory is imported (shared with threads), is optimized without the assumption.

use wasmparser::{DataKind, Operator, Parser, Payload};

/// The bytes wasm-opt assumes unused (binaryen's `--low-memory-bound`, 1024 by default).
pub const BOUND: u64 = 1024;

/// The flag [`unused`] allows.
pub const FLAG: &str = "--low-memory-unused";

/// Whether `wasm` defines its memory and places all its static data, at fixed addresses, at [`BOUND`] or above.
/// `Err` when `wasm` cannot be read as a module.
pub fn unused(wasm: &[u8]) -> Result<bool, String> {
    let unreadable = |e: wasmparser::BinaryReaderError| format!("the wasm module cannot be read: {e}");
    let mut defines_memory = false;
    for payload in Parser::new(0).parse_all(wasm) {
        match payload.map_err(unreadable)? {
            Payload::ImportSection(imports) => {
                for import in imports.into_imports() {
                    if matches!(import.map_err(unreadable)?.ty, wasmparser::TypeRef::Memory(_)) {
                        return Ok(false);
                    }
                }
            }
            Payload::MemorySection(memories) => defines_memory = memories.count() > 0,
            Payload::DataSection(segments) => {
                for segment in segments {
                    match segment.map_err(unreadable)?.kind {
                        DataKind::Passive => return Ok(false),
                        DataKind::Active { offset_expr, .. } => {
                            let mut reader = offset_expr.get_operators_reader();
                            let offset = match reader.read().map_err(unreadable)? {
                                Operator::I32Const { value } => u64::from(value as u32),
                                Operator::I64Const { value } => value as u64,
                                _ => return Ok(false),
                            };
                            if offset < BOUND {
                                return Ok(false);
                            }
                        }
                    }
                }
            }
            _ => {}
        }
    }
    Ok(defines_memory)
}

#[cfg(test)]
#[path = "low_memory_tests.rs"]
mod tests;
