//! Validation against the vendored official MCP 2025-11-25 JSON Schema (`tests/schema/2025-11-25.json`).

use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// The official schema document, parsed once.
fn document() -> &'static Value {
    static DOCUMENT: OnceLock<Value> = OnceLock::new();
    DOCUMENT.get_or_init(|| {
        serde_json::from_str(include_str!("../schema/2025-11-25.json"))
            .unwrap_or_else(|e| panic!("the vendored schema is not JSON: {e}"))
    })
}

/// Whether the 2025-11-25 schema has a definition of this name.
pub(crate) fn has_definition(def: &str) -> bool {
    document()["$defs"].get(def).is_some()
}

/// A validator for one definition: the whole schema document (so every `#/$defs/...` reference resolves) with its
/// root pointed at `#/$defs/<def>`, formats (`uri`, ...) asserted rather than only annotated. Compiled once per
/// definition.
pub(crate) fn validator(def: &str) -> Arc<jsonschema::Validator> {
    static CACHE: OnceLock<Mutex<HashMap<String, Arc<jsonschema::Validator>>>> = OnceLock::new();
    let mut cache = CACHE.get_or_init(Default::default).lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let compiled = cache.entry(def.to_owned()).or_insert_with(|| {
        assert!(has_definition(def), "the 2025-11-25 schema has no definition {def:?}");
        let mut schema = document().clone();
        schema["$ref"] = Value::String(format!("#/$defs/{def}"));
        let compiled = jsonschema::draft202012::options()
            .should_validate_formats(true)
            .build(&schema)
            .unwrap_or_else(|e| panic!("compiling {def}: {e}"));
        Arc::new(compiled)
    });
    Arc::clone(compiled)
}

/// Every validation error of `instance` against `def`, each as `<instance path>: <message>`.
pub(crate) fn errors(def: &str, instance: &Value) -> Vec<String> {
    let validator = validator(def);
    validator
        .iter_errors(instance)
        .map(|e| {
            let path = e.instance_path().to_string();
            format!("{}: {e}", if path.is_empty() { "(root)" } else { &path })
        })
        .collect()
}

/// Panics, listing every error with its instance path, unless `instance` is valid against `def`.
#[track_caller]
pub(crate) fn assert_valid(def: &str, instance: &Value) {
    let errors = errors(def, instance);
    assert!(
        errors.is_empty(),
        "not a valid {def} (MCP 2025-11-25):\n  {}\ninstance: {}",
        errors.join("\n  "),
        serde_json::to_string_pretty(instance).unwrap_or_default()
    );
}
