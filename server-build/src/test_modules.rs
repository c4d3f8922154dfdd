//! Modules for the tests of the steps that rewrite a bundle's wasm.

use wasm_encoder::{
    CodeSection, ConstExpr, ExportKind, ExportSection, Function, FunctionSection, GlobalSection, GlobalType,
    Instruction, MemorySection, MemoryType, Module, TypeSection, ValType,
};

/// A module of `functions` empty functions, a memory and a global (indexes 0), and `exports` (name, kind, index).
pub(crate) fn module(functions: u32, exports: &[(&str, ExportKind, u32)]) -> Vec<u8> {
    let mut module = Module::new();
    let mut types = TypeSection::new();
    types.ty().function([], []);
    module.section(&types);
    let (mut declared, mut code) = (FunctionSection::new(), CodeSection::new());
    for _ in 0..functions {
        declared.function(0);
        let mut body = Function::new([]);
        body.instruction(&Instruction::End);
        code.function(&body);
    }
    module.section(&declared);
    let mut memories = MemorySection::new();
    memories.memory(MemoryType { minimum: 1, maximum: None, memory64: false, shared: false, page_size_log2: None });
    module.section(&memories);
    let mut globals = GlobalSection::new();
    globals.global(GlobalType { val_type: ValType::I32, mutable: true, shared: false }, &ConstExpr::i32_const(0));
    module.section(&globals);
    let mut section = ExportSection::new();
    for &(name, kind, index) in exports {
        section.export(name, kind, index);
    }
    module.section(&section);
    module.section(&code);
    module.finish()
}
