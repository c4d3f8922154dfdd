use super::*;
use wasm_encoder::{
    ConstExpr, DataSection, EntityType, GlobalSection, GlobalType, ImportSection, MemorySection, MemoryType, Module,
    ValType,
};

const MEMORY: MemoryType =
    MemoryType { minimum: 17, maximum: None, memory64: false, shared: false, page_size_log2: None };

/// A module with its own memory and one active data segment at `offset`.
fn with_data_at(offset: ConstExpr) -> Vec<u8> {
    let mut module = Module::new();
    let mut memories = MemorySection::new();
    memories.memory(MEMORY);
    module.section(&memories);
    let mut globals = GlobalSection::new();
    globals.global(GlobalType { val_type: ValType::I32, mutable: false, shared: false }, &ConstExpr::i32_const(0));
    module.section(&globals);
    let mut data = DataSection::new();
    data.active(0, &offset, *b"static data");
    module.section(&data);
    module.finish()
}

#[test]
fn data_from_one_kibibyte_up_leaves_low_memory_unused() {
    // rustc's layout: the stack first, its static data from 1 MiB.
    assert_eq!(unused(&with_data_at(ConstExpr::i32_const(1_048_576))), Ok(true));
    assert_eq!(unused(&with_data_at(ConstExpr::i32_const(1024))), Ok(true));
}

#[test]
fn data_in_the_lowest_kibibyte_or_placed_at_run_time_uses_it() {
    assert_eq!(unused(&with_data_at(ConstExpr::i32_const(1023))), Ok(false));
    assert_eq!(unused(&with_data_at(ConstExpr::i32_const(0))), Ok(false));
    assert_eq!(unused(&with_data_at(ConstExpr::global_get(0))), Ok(false));
}

#[test]
fn an_imported_memory_or_none_is_left_alone() {
    let mut module = Module::new();
    let mut imports = ImportSection::new();
    imports.import("env", "memory", EntityType::Memory(MEMORY));
    module.section(&imports);
    assert_eq!(unused(&module.finish()), Ok(false));
    assert_eq!(unused(&Module::new().finish()), Ok(false));
}

#[test]
fn a_module_with_memory_and_no_data_leaves_it_unused() {
    let mut module = Module::new();
    let mut memories = MemorySection::new();
    memories.memory(MEMORY);
    module.section(&memories);
    assert_eq!(unused(&module.finish()), Ok(true));
}

#[test]
fn bytes_that_are_not_a_module_are_an_error() {
    let error = unused(b"\0asm\x01\0\0\0\x0b\x05garbage").unwrap_err();
    assert!(error.starts_with("the wasm module cannot be read"), "{error}");
}
