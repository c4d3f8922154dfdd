use super::*;
use crate::test_modules;
use wasm_encoder::ExportKind;

const CONNECT: &str = "mcp_worker_connect";
const INVOKE: &str = "wasm_bindgen_e44edd6d937718a7___convert__closures_____invoke_______true_";

/// A module as wasm-bindgen writes a server's: three functions, a memory and a global, all exported.
fn module() -> Vec<u8> {
    test_modules::module(
        3,
        &[
            ("memory", ExportKind::Memory, 0),
            (CONNECT, ExportKind::Func, 0),
            ("__instance_terminated", ExportKind::Global, 0),
            (INVOKE, ExportKind::Func, 1),
            ("__wbindgen_free", ExportKind::Func, 2),
        ],
    )
}

/// Its glue, as wasm-bindgen writes one that no longer frees strings.
fn glue() -> String {
    format!(
        "export function {CONNECT}(port) {{\n    wasm.{CONNECT}(port);\n}}\nfunction __wbg_get_imports() {{\n    \
         return {{ a: function(arg0, arg1) {{ return makeMutClosure(arg0, arg1, {INVOKE}); }} }};\n}}\nfunction \
         {INVOKE}(arg0, arg1) {{\n    wasm.{INVOKE}(arg0, arg1);\n}}\nfunction view() {{\n    return new \
         Uint8Array(wasm.memory.buffer);\n}}\nfunction __wbg_finalize_init(instance, module) {{\n    wasm = \
         instance.exports;\n    return wasm;\n}}\nexport {{ initSync, __wbg_init as default }};\n"
    )
}

fn exports_of(wasm: &[u8]) -> Vec<(String, u32)> {
    let mut out = Vec::new();
    for payload in Parser::new(0).parse_all(wasm) {
        if let Payload::ExportSection(reader) = payload.unwrap() {
            out.extend(reader.into_iter().map(|export| export.unwrap()).map(|e| (e.name.to_owned(), e.index)));
        }
    }
    out
}

#[test]
fn the_exports_the_glue_reaches_get_short_names_and_the_others_go() {
    let shortened = shorten(&module(), &glue(), &[]).unwrap().expect("the known form");
    wasmparser::validate(&shortened.wasm).expect("still a valid module");
    assert_eq!(shortened.renamed.len(), 3);
    assert_eq!(shortened.dropped, ["__instance_terminated", "__wbindgen_free"]);
    let pair = |name: &str, index: u32| (name.to_owned(), index);
    assert_eq!(exports_of(&shortened.wasm), [pair("a", 0), pair("b", 0), pair("c", 1)], "in the order they came");
    let glue = &shortened.glue;
    assert!(glue.contains("new Uint8Array(wasm.a.buffer)"), "{glue}");
    assert!(glue.contains(&format!("export function {CONNECT}(port) {{\n    wasm.b(port);")), "{glue}");
    assert!(glue.contains("makeMutClosure(arg0, arg1, $c)"), "{glue}");
    assert!(glue.contains("function $c(arg0, arg1) {\n    wasm.c(arg0, arg1);"), "{glue}");
    assert!(!glue.contains(INVOKE), "{glue}");
}

#[test]
fn a_name_that_is_not_only_the_glues_own_function_keeps_it() {
    let keyed = glue().replace("makeMutClosure(arg0, arg1, ", &format!("makeMutClosure({INVOKE}: 1, "));
    let shortened = shorten(&module(), &keyed, &[]).unwrap().unwrap();
    assert!(shortened.glue.contains(&format!("function {INVOKE}(arg0, arg1)")), "{}", shortened.glue);
    assert!(!shortened.glue.contains(&format!("wasm.{INVOKE}")), "the export is renamed still: {}", shortened.glue);
}

#[test]
fn a_glue_of_another_form_is_left_alone() {
    let wasm = module();
    let refused = |glue: String, why: &str| assert!(shorten(&wasm, &glue, &[]).unwrap().is_none(), "{why}: {glue}");
    refused(glue().replace("wasm = instance.exports;", "exports = instance.exports;"), "exports taken otherwise");
    refused(format!("{}const more = instance.exports;\n", glue()), "exports taken twice");
    refused(format!("{}wasm[\"memory\"];\n", glue()), "an export reached by its name as a string");
    refused(format!("{}const $c = 1;\n", glue()), "a short name the glue uses");
}

#[test]
fn bytes_that_are_not_a_module_are_an_error() {
    let error = shorten(b"\0asm\x01\0\0\0\x07\x05\x01", &glue(), &[]).unwrap_err();
    assert!(error.starts_with("the wasm module cannot be read"), "{error}");
}

#[test]
fn an_export_kept_by_name_stays_as_it_is_and_the_others_move_past_it() {
    let shortened = shorten(&module(), &glue(), &["memory", "__instance_terminated"]).unwrap().unwrap();
    wasmparser::validate(&shortened.wasm).expect("still a valid module");
    let pair = |name: &str, index: u32| (name.to_owned(), index);
    assert_eq!(
        exports_of(&shortened.wasm),
        [pair("memory", 0), pair("a", 0), pair("__instance_terminated", 0), pair("b", 1)],
        "kept, even one the glue does not reach"
    );
    assert_eq!(shortened.dropped, ["__wbindgen_free"]);
    assert!(shortened.glue.contains("new Uint8Array(wasm.memory.buffer)"), "{}", shortened.glue);
    assert!(!shortened.renamed.contains_key("memory"));
}

#[test]
fn declarations_name_the_exports_as_the_module_now_does() {
    let renamed = HashMap::from([(CONNECT.to_owned(), "a".to_owned()), (INVOKE.to_owned(), "b".to_owned())]);
    let dropped = ["__wbindgen_free".to_owned()];
    let glue_types = format!(
        "export function {CONNECT}(port: MessagePort): void;\nexport interface InitOutput {{\n    readonly memory: \
         WebAssembly.Memory;\n    readonly {CONNECT}: (a: any) => void;\n    readonly {INVOKE}: (a: number, b: \
         number) => void;\n    readonly __wbindgen_free: (a: number, b: number, c: number) => void;\n}}\n\nexport \
         function initSync(module: SyncInitInput): InitOutput;\n"
    );
    assert_eq!(
        declarations(&glue_types, &renamed, &dropped),
        format!(
            "export function {CONNECT}(port: MessagePort): void;\nexport interface InitOutput {{\n    readonly memory: \
             WebAssembly.Memory;\n    readonly a: (a: any) => void;\n    readonly b: (a: number, b: number) => \
             void;\n}}\n\nexport function initSync(module: SyncInitInput): InitOutput;\n"
        ),
        "the glue's own function of the same name is untouched"
    );
    let module_types = format!(
        "/* tslint:disable */\nexport const memory: WebAssembly.Memory;\nexport const {CONNECT}: (a: any) => \
         void;\nexport const __wbindgen_free: (a: number, b: number, c: number) => void;\n"
    );
    assert_eq!(
        declarations(&module_types, &renamed, &dropped),
        "/* tslint:disable */\nexport const memory: WebAssembly.Memory;\nexport const a: (a: any) => void;\n"
    );
}
