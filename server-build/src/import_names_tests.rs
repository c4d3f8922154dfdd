use super::*;
use wasm_encoder::{
    CodeSection, CustomSection, EntityType, ExportKind, ExportSection, Function, FunctionSection, ImportSection,
    Instruction, MemoryType, Module, TypeSection,
};

const GLUE_MODULE: &str = "./server_bg.js";
const POST: &str = "__wbg_postMessage_408dcc1ee376f42d";
const THROW: &str = "__wbg___wbindgen_throw_4c88d8bf264fd984";

/// A module as wasm-bindgen writes one: functions imported from its glue and from a snippet, a memory, a function
/// that calls the imports, an export and a custom section.
fn module() -> Vec<u8> {
    let mut module = Module::new();
    let mut types = TypeSection::new();
    types.ty().function([], []);
    module.section(&types);
    let mut imports = ImportSection::new();
    imports.import(GLUE_MODULE, POST, EntityType::Function(0));
    imports.import("./snippets/crate-0123/js/http.js", "fetchWith", EntityType::Function(0));
    imports.import(GLUE_MODULE, THROW, EntityType::Function(0));
    let memory = MemoryType { minimum: 1, maximum: None, memory64: false, shared: false, page_size_log2: None };
    imports.import("env", "memory", EntityType::Memory(memory));
    module.section(&imports);
    let mut functions = FunctionSection::new();
    functions.function(0);
    module.section(&functions);
    let mut exports = ExportSection::new();
    exports.export("run", ExportKind::Func, 3);
    module.section(&exports);
    let mut code = CodeSection::new();
    let mut body = Function::new([]);
    body.instruction(&Instruction::Call(0)).instruction(&Instruction::Call(1)).instruction(&Instruction::Call(2));
    body.instruction(&Instruction::End);
    code.function(&body);
    module.section(&code);
    module.section(&CustomSection { name: "producers".into(), data: b"\x00".as_slice().into() });
    module.finish()
}

fn glue() -> String {
    format!(
        "function __wbg_get_imports() {{\n    const import0 = {{\n        __proto__: null,\n        {POST}: function(a, b) \
         {{ a.postMessage(b); }},\n        {THROW}: function(p, l) {{ throw new Error(text(p, l)); }},\n    }};\n    \
         return {{ \"{GLUE_MODULE}\": import0, \"./snippets/crate-0123/js/http.js\": import1 }};\n}}\nfunction \
         run() {{ wasm.run(); }}\n"
    )
}

/// The module's imports, as (module, name).
fn imports_of(wasm: &[u8]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for payload in Parser::new(0).parse_all(wasm) {
        if let Payload::ImportSection(reader) = payload.unwrap() {
            for import in reader.into_imports() {
                let import = import.unwrap();
                out.push((import.module.to_owned(), import.name.to_owned()));
            }
        }
    }
    out
}

/// Each section but the imports, as (id, bytes).
fn other_sections(wasm: &[u8]) -> Vec<(u8, Vec<u8>)> {
    Parser::new(0)
        .parse_all(wasm)
        .filter_map(|payload| payload.unwrap().as_section())
        .filter(|(id, _)| *id != 2)
        .map(|(id, range)| (id, wasm[range].to_vec()))
        .collect()
}

#[test]
fn the_glues_own_imports_get_short_names_in_the_module_and_the_glue() {
    let wasm = module();
    let shortened = shorten(&wasm, &glue(), GLUE_MODULE).unwrap().expect("the glue is of the known form");
    wasmparser::validate(&shortened.wasm).expect("still a valid module");
    assert_eq!(shortened.renamed, 2);
    assert_eq!(
        imports_of(&shortened.wasm),
        [
            (GLUE_MODULE.to_owned(), "a".to_owned()),
            ("./snippets/crate-0123/js/http.js".to_owned(), "fetchWith".to_owned()),
            (GLUE_MODULE.to_owned(), "b".to_owned()),
            ("env".to_owned(), "memory".to_owned()),
        ]
    );
    assert_eq!(other_sections(&shortened.wasm), other_sections(&wasm), "every other section is copied as it was");
    assert!(shortened.glue.contains("\n        a: function(a, b) { a.postMessage(b); },"), "{}", shortened.glue);
    assert!(shortened.glue.contains("\n        b: function(p, l) {"), "{}", shortened.glue);
    assert!(!shortened.glue.contains(POST) && !shortened.glue.contains(THROW), "{}", shortened.glue);
    assert!(shortened.glue.contains("\"./snippets/crate-0123/js/http.js\": import1"), "snippets keep their names");
    assert!(shortened.wasm.len() + 2 * (POST.len() - 1) <= wasm.len(), "the module got lighter");
}

#[test]
fn a_module_with_nothing_to_rename_comes_back_byte_for_byte() {
    let wasm = module();
    let shortened = shorten(&wasm, "no imports here", "./other_bg.js").unwrap().unwrap();
    assert_eq!(shortened.wasm, wasm);
    assert_eq!(shortened.glue, "no imports here");
    assert_eq!(shortened.renamed, 0);
}

#[test]
fn a_glue_of_another_form_is_left_alone() {
    let wasm = module();
    let twice = format!("{}\n// calls {POST} itself\n", glue());
    assert!(shorten(&wasm, &twice, GLUE_MODULE).unwrap().is_none(), "a name that occurs twice");
    let missing = glue().replace(THROW, "__wbg_something_else_0000000000000000");
    assert!(shorten(&wasm, &missing, GLUE_MODULE).unwrap().is_none(), "a name that does not occur");
    let longer = glue().replace(&format!("{POST}:"), &format!("{POST}_x:"));
    assert!(shorten(&wasm, &longer, GLUE_MODULE).unwrap().is_none(), "a name only inside a longer identifier");
}

#[test]
fn bytes_that_are_not_a_module_are_an_error() {
    let error = shorten(b"\0asm\x01\0\0\0\x02\x05\x01", &glue(), GLUE_MODULE).unwrap_err();
    assert!(error.starts_with("the wasm module cannot be read"), "{error}");
    assert!(shorten(b"not wasm", &glue(), GLUE_MODULE).is_err());
}

#[test]
fn short_names_are_distinct_identifiers_and_never_reserved_words() {
    let names: Vec<String> = short_names().take(5_000).collect();
    assert_eq!(&names[..3], ["a", "b", "c"]);
    assert_eq!(names[51], "Z");
    assert_eq!(names[52], "aa");
    let distinct: std::collections::HashSet<&String> = names.iter().collect();
    assert_eq!(distinct.len(), names.len());
    for name in &names {
        assert!(name.chars().all(|c| c.is_ascii_alphabetic()), "{name}");
        assert!(!["do", "if", "in"].contains(&name.as_str()), "{name}");
    }
}
