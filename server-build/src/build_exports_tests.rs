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

#[test]
fn the_build_only_functions_leave_the_glue_and_then_their_exports_the_module() {
    let wasm = module(&["mcp_worker_connect", "mcp_worker_manifest", "mcp_worker_schemas"]);
    let glue = drop(&glue(), &BUILD_ONLY).expect("the known form");
    assert_eq!(glue, format!("{CONNECT}\nfunction __wbg_get_imports() {{\n    return {{}};\n}}\n"));
    // The export renaming that follows leaves out what the glue no longer reaches.
    let finished = format!(
        "{glue}function __wbg_finalize_init(instance) {{\n    wasm = instance.exports;\n    return \
         wasm.memory;\n}}\n"
    );
    let shortened = crate::export_names::shorten(&wasm, &finished, &[]).unwrap().expect("the known form");
    wasmparser::validate(&shortened.wasm).expect("still a valid module");
    assert_eq!(shortened.dropped, BUILD_ONLY);
    assert_eq!(shortened.renamed.len(), 2, "mcp_worker_connect and the memory stay");
}

#[test]
fn a_function_without_a_doc_comment_goes_alone() {
    let glue = format!(
        "// kept\n{}{}const after = 1;\n",
        string_function("mcp_worker_manifest").replace("/**\n * @returns {string}\n */\n", ""),
        string_function("mcp_worker_schemas")
    );
    let glue = drop(&glue, &BUILD_ONLY).unwrap();
    assert_eq!(glue, "// kept\nconst after = 1;\n");
}

#[test]
fn anything_of_another_form_is_left_alone() {
    let refused = |glue: &str, why: &str| assert!(drop(glue, &BUILD_ONLY).is_none(), "{why}: {glue}");
    refused(&glue().replace("export function mcp_worker_schemas", "function mcp_worker_schemas"), "not exported");
    refused(&format!("{}export {{ mcp_worker_manifest as manifest }};\n", glue()), "named elsewhere");
    refused(&glue().replace("\n}\nfunction __wbg", "\n  }\nfunction __wbg"), "never closed at the line's start");
    refused(&format!("{}{}", glue(), string_function("mcp_worker_manifest")), "written twice");
}
