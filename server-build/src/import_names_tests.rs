use super::*;
use wasm_encoder::{
    CodeSection, CustomSection, EntityType, ExportKind, ExportSection, Function, FunctionSection, ImportSection,
    Instruction, Module, TypeSection,
};

const GLUE_MODULE: &str = "./server_bg.js";
const POST: &str = "__wbg_postMessage_408dcc1ee376f42d";
const THROW: &str = "__wbg___wbindgen_throw_4c88d8bf264fd984";

const SNIPPET: &str = "./snippets/crate-0123/js/http.js";

/// A module as wasm-bindgen writes one: functions imported from its glue and from a snippet, a function that calls
/// the imports, an export and a custom section; without `with_imports`, the same with no imports.
fn module() -> Vec<u8> {
    module_with(true)
}

fn module_with(with_imports: bool) -> Vec<u8> {
    let mut module = Module::new();
    let mut types = TypeSection::new();
    types.ty().function([], []);
    module.section(&types);
    let imported = if with_imports { 3 } else { 0 };
    if with_imports {
        let mut imports = ImportSection::new();
        imports.import(GLUE_MODULE, POST, EntityType::Function(0));
        imports.import(SNIPPET, "fetchWith", EntityType::Function(0));
        imports.import(GLUE_MODULE, THROW, EntityType::Function(0));
        module.section(&imports);
    }
    let mut functions = FunctionSection::new();
    functions.function(0);
    module.section(&functions);
    let mut exports = ExportSection::new();
    exports.export("run", ExportKind::Func, imported);
    module.section(&exports);
    let mut code = CodeSection::new();
    let mut body = Function::new([]);
    for called in 0..imported {
        body.instruction(&Instruction::Call(called));
    }
    body.instruction(&Instruction::End);
    code.function(&body);
    module.section(&code);
    module.section(&CustomSection { name: "producers".into(), data: b"\x00".as_slice().into() });
    module.finish()
}

/// Its glue: the snippet imported twice and keyed twice, as wasm-bindgen writes a snippet with two functions.
fn glue() -> String {
    format!(
        "import {{ fetchWith }} from '{SNIPPET}';\nimport * as import1 from \"{SNIPPET}\"\nimport * as import2 from \
         \"{SNIPPET}\"\n\nfunction __wbg_get_imports() {{\n    const import0 = {{\n        __proto__: null,\n        \
         {POST}: function(a, b) {{ a.postMessage(b); }},\n        {THROW}: function(p, l) {{ throw new \
         Error(text(p, l)); }},\n    }};\n    return {{\n        __proto__: null,\n        \"{GLUE_MODULE}\": \
         import0,\n        \"{SNIPPET}\": import1,\n        \"{SNIPPET}\": import2,\n    }};\n}}\nfunction run() \
         {{ wasm.run(); }}\n"
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
    let pair = |module: &str, name: &str| (module.to_owned(), name.to_owned());
    assert_eq!(imports_of(&shortened.wasm), [pair("a", "a"), pair("b", "fetchWith"), pair("a", "b")]);
    assert_eq!(other_sections(&shortened.wasm), other_sections(&wasm), "every other section is copied as it was");
    assert!(shortened.glue.contains("\n        a: function(a, b) { a.postMessage(b); },"), "{}", shortened.glue);
    assert!(shortened.glue.contains("\n        b: function(p, l) {"), "{}", shortened.glue);
    assert!(!shortened.glue.contains(POST) && !shortened.glue.contains(THROW), "{}", shortened.glue);
    assert!(shortened.glue.contains("\n        \"a\": import0,\n        \"b\": import1,\n        \"b\": import2,\n"));
    assert!(
        shortened
            .glue
            .starts_with(&format!("import {{ fetchWith }} from '{SNIPPET}';\nimport * as import1 from \"{SNIPPET}\"")),
        "the import statements keep the snippets' paths: {}",
        shortened.glue
    );
    assert!(shortened.wasm.len() + 2 * (POST.len() - 1) <= wasm.len(), "the module got lighter");
}

#[test]
fn a_module_with_nothing_to_rename_comes_back_byte_for_byte() {
    let wasm = module_with(false);
    wasmparser::validate(&wasm).expect("a valid module");
    let shortened = shorten(&wasm, "no imports here", GLUE_MODULE).unwrap().unwrap();
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
    let elsewhere = format!("{}\nconsole.log(\"{SNIPPET}\");\n", glue());
    assert!(shorten(&wasm, &elsewhere, GLUE_MODULE).unwrap().is_none(), "a module named outside its keys");
    let unkeyed = glue().replace(&format!("\"{GLUE_MODULE}\": import0"), "[GLUE]: import0");
    assert!(shorten(&wasm, &unkeyed, GLUE_MODULE).unwrap().is_none(), "a module with no key");
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
