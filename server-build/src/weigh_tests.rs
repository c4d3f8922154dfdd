use super::*;
use wasm_encoder::{
    CodeSection, ConstExpr, DataSection, EntityType, Function as Body, FunctionSection, ImportSection, Instruction,
    MemorySection, MemoryType, Module, NameMap, NameSection, TypeSection,
};

/// A module importing one function, defining one per `(name, nops)` (a body of that many `nop`s, unnamed for
/// `None`), with `data` as one data segment.
fn module(functions: &[(Option<&str>, usize)], data: &[u8]) -> Vec<u8> {
    let mut module = Module::new();
    let mut types = TypeSection::new();
    types.ty().function([], []);
    module.section(&types);
    let mut imports = ImportSection::new();
    imports.import("env", "imported", EntityType::Function(0));
    module.section(&imports);
    let mut declared = FunctionSection::new();
    for _ in functions {
        declared.function(0);
    }
    module.section(&declared);
    let mut memories = MemorySection::new();
    memories.memory(MemoryType { minimum: 17, maximum: None, memory64: false, shared: false, page_size_log2: None });
    module.section(&memories);
    let mut code = CodeSection::new();
    for &(_, nops) in functions {
        let mut body = Body::new([]);
        for _ in 0..nops {
            body.instruction(&Instruction::Nop);
        }
        body.instruction(&Instruction::End);
        code.function(&body);
    }
    module.section(&code);
    let mut segments = DataSection::new();
    segments.active(0, &ConstExpr::i32_const(1_048_576), data.iter().copied());
    module.section(&segments);
    let mut names = NameMap::new();
    names.append(0, "imported");
    for (at, (name, _)) in functions.iter().enumerate() {
        if let Some(name) = name {
            names.append(u32::try_from(at).unwrap() + 1, name);
        }
    }
    let mut section = NameSection::new();
    section.functions(&names);
    module.section(&section);
    module.finish()
}

const CLIENT: &str = "<mcp_worker_client[14ba4e11b212b4b5]::connection::Connection>::handle";
const DROP: &str = "core[27cd0353e63fa9bc]::ptr::drop_in_place::<mcp_worker_client[14ba4e11b212b4b5]::Connection>";
const SORT: &str = "core[27cd0353e63fa9bc]::slice::sort::heapsort::<u8>";
const READER: &str = "<serde_json[989af461ed177b]::de::Deserializer<serde_json[989af461ed177b]::read::StrRead>>::\
                      deserialize_map::<mcp_worker_protocol[983d53313f789e9a]::lifecycle::Implementation>";

#[test]
fn each_defined_function_is_weighed_under_its_own_name_the_largest_first() {
    let weighed = weigh(&module(&[(Some(CLIENT), 10), (Some(SORT), 40), (None, 3)], b"static data")).unwrap();
    let names: Vec<&str> = weighed.functions.iter().map(|f| f.name.as_str()).collect();
    // The imported function has index 0: the unnamed third definition is index 3.
    assert_eq!(names, [SORT, CLIENT, "function 3"]);
    // A body is its length, its local declarations and its instructions: one byte a `nop`, one the `end`.
    let bytes: Vec<u64> = weighed.functions.iter().map(|f| f.bytes).collect();
    assert_eq!(bytes, [1 + 1 + 40 + 1, 1 + 1 + 10 + 1, 1 + 1 + 3 + 1]);
    assert_eq!(weighed.code(), 43 + 13 + 6);
    assert!(weighed.data > 11 && weighed.data < 32, "one segment of 11 bytes and its header: {}", weighed.data);
    assert!(weighed.other > 0, "the type, import, function and memory sections");
}

#[test]
fn functions_go_to_their_outermost_crate_beyond_the_standard_library() {
    assert_eq!(crate_of(CLIENT), Some("mcp_worker_client"));
    assert_eq!(crate_of(DROP), Some("mcp_worker_client"));
    assert_eq!(crate_of(SORT), Some("core"));
    assert_eq!(crate_of(READER), Some("serde_json"));
    assert_eq!(crate_of("mcpclient_spawn externref shim"), None);
    assert_eq!(crate_of("[deadbeef]::no_identifier"), None);
    assert_eq!(crate_of("a[xyz]::not_hex"), None);
}

#[test]
fn shares_sum_each_crates_functions() {
    let wasm = module(&[(Some(CLIENT), 10), (Some(DROP), 20), (Some(SORT), 40), (Some("a shim"), 1)], b"");
    let shares = weigh(&wasm).unwrap().by_crate();
    let summary: Vec<(&str, usize, u64)> = shares.iter().map(|s| (s.name.as_str(), s.functions, s.bytes)).collect();
    assert_eq!(summary, [("core", 1, 43), ("mcp_worker_client", 2, 13 + 23), (NO_CRATE, 1, 4)]);
}

#[test]
fn hashes_are_taken_out_of_names_for_reading() {
    assert_eq!(
        without_hashes(DROP),
        "core::ptr::drop_in_place::<mcp_worker_client::Connection>",
        "every crate's hash goes"
    );
    assert_eq!(without_hashes("a[0]b [x]::c"), "a[0]b [x]::c", "brackets that are not a crate's hash stay");
}

#[test]
fn bytes_that_are_not_a_module_are_an_error() {
    let error = weigh(b"\0asm\x01\0\0\0\x0a\x05garbage").unwrap_err();
    assert!(error.starts_with("the wasm module cannot be read"), "{error}");
}

#[test]
fn a_report_lists_the_heaviest_crates_and_functions_and_what_it_left_out() {
    let function = |name: &str, bytes| Function { name: name.to_owned(), bytes };
    let weighed = Weighed {
        functions: vec![
            function("serde_json[1a]::de::parse", 3072),
            function("a[2b]::f", 1024),
            function("b[3c]::g", 512),
        ],
        data: 1024,
        other: 512,
    };
    let text = report("bundles/echo", &weighed, 2);
    assert!(text.contains("bundles/echo: 6.0 KiB of wasm: code 4.5 KiB (75.0%), data 1.0 KiB (16.7%)"), "{text}");
    assert!(text.contains("3.0 KiB  50.0%     1 fn  serde_json\n"), "{text}");
    assert!(text.contains("0.5 KiB   8.3%  in 1 more crates"), "{text}");
    assert!(text.contains("serde_json::de::parse\n"), "hashes taken out: {text}");
    assert!(!text.contains("b::g"), "only the two largest functions: {text}");
}

#[test]
fn long_names_are_elided() {
    assert_eq!(elided("abcdef", 3), "abc…");
    assert_eq!(elided("abc", 3), "abc");
}
