use super::*;
use crate::test_modules;
use wasm_encoder::ExportKind;

/// A module exporting a function under each of `exports`, and its memory.
fn module(exports: &[&str]) -> Vec<u8> {
    let mut listed: Vec<(&str, ExportKind, u32)> =
        (0u32..).zip(exports).map(|(i, name)| (*name, ExportKind::Func, i)).collect();
    listed.push(("memory", ExportKind::Memory, 0));
    test_modules::module(u32::try_from(exports.len()).unwrap(), &listed)
}

const CONNECT: &str = "/**\n * @param {MessagePort} port\n */\nexport function mcp_worker_connect(port) {\n    \
                       wasm.mcp_worker_connect(port);\n}\n\n";

/// A function of the glue as wasm-bindgen writes one that returns a string.
fn string_function(name: &str) -> String {
    format!(
        "/**\n * @returns {{string}}\n */\nexport function {name}() {{\n    let deferred1_0;\n    try {{\n        \
         const ret = wasm.{name}();\n        deferred1_0 = ret[0];\n        return getStringFromWasm0(ret[0], \
         ret[1]);\n    }} finally {{\n        wasm.__wbindgen_free(deferred1_0, 1);\n    }}\n}}\n"
    )
}

/// The glue's beginning as wasm-bindgen writes it for a server.
fn glue() -> String {
    format!(
        "{CONNECT}{}\n{}function __wbg_get_imports() {{\n    return {{}};\n}}\n",
        string_function("mcp_worker_manifest"),
        string_function("mcp_worker_schemas")
    )
}

fn exports_of(wasm: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    for payload in Parser::new(0).parse_all(wasm) {
        if let Payload::ExportSection(reader) = payload.unwrap() {
            out.extend(reader.into_iter().map(|export| export.unwrap().name.to_owned()));
        }
    }
    out
}

#[test]
fn the_build_only_exports_leave_the_module_and_the_glue() {
    let wasm = module(&["mcp_worker_connect", "mcp_worker_manifest", "mcp_worker_schemas"]);
    let (dropped, glue) = drop(&wasm, &glue(), &BUILD_ONLY).unwrap().expect("the known form");
    wasmparser::validate(&dropped).expect("still a valid module");
    assert_eq!(exports_of(&dropped), ["mcp_worker_connect", "memory"]);
    assert_eq!(glue, format!("{CONNECT}\nfunction __wbg_get_imports() {{\n    return {{}};\n}}\n"));
}

#[test]
fn a_function_without_a_doc_comment_goes_alone() {
    let wasm = module(&["mcp_worker_manifest", "mcp_worker_schemas"]);
    let glue = format!(
        "// kept\n{}{}const after = 1;\n",
        string_function("mcp_worker_manifest").replace("/**\n * @returns {string}\n */\n", ""),
        string_function("mcp_worker_schemas")
    );
    let (_, glue) = drop(&wasm, &glue, &BUILD_ONLY).unwrap().unwrap();
    assert_eq!(glue, "// kept\nconst after = 1;\n");
}

#[test]
fn anything_of_another_form_is_left_alone() {
    let wasm = module(&["mcp_worker_connect", "mcp_worker_manifest", "mcp_worker_schemas"]);
    let refused = |glue: &str, why: &str| {
        assert!(drop(&wasm, glue, &BUILD_ONLY).unwrap().is_none(), "{why}: {glue}");
    };
    refused(&glue().replace("export function mcp_worker_schemas", "function mcp_worker_schemas"), "not exported");
    refused(&format!("{}export {{ mcp_worker_manifest as manifest }};\n", glue()), "named elsewhere");
    refused(&glue().replace("\n}\nfunction __wbg", "\n  }\nfunction __wbg"), "never closed at the line's start");
    refused(&format!("{}{}", glue(), string_function("mcp_worker_manifest")), "written twice");
    let without_schemas = module(&["mcp_worker_connect", "mcp_worker_manifest"]);
    assert!(drop(&without_schemas, &glue(), &BUILD_ONLY).unwrap().is_none(), "a module that does not export one");
}

#[test]
fn bytes_that_are_not_a_module_are_an_error() {
    let error = drop(b"\0asm\x01\0\0\0\x07\x05\x01", &glue(), &BUILD_ONLY).unwrap_err();
    assert!(error.starts_with("the wasm module cannot be read"), "{error}");
}
