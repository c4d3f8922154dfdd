//! `pattern` and `patternProperties`: ECMA-262 regular expressions, run by the browser's `RegExp` in wasm and by
//! the `regex` crate natively. Compiled patterns are cached; a pattern that does not compile matches everything
//! (the schema is the server's, and its mistakes must not block calls).

use std::cell::RefCell;
use std::collections::HashMap;

/// Patterns cached at most; beyond it the cache is cleared (tool schemas use few distinct patterns).
const CACHE_LIMIT: usize = 512;

thread_local! {
    static CACHE: RefCell<HashMap<String, Option<engine::Compiled>>> = RefCell::new(HashMap::new());
}

/// Whether `text` matches `pattern` anywhere (JSON Schema patterns are not anchored).
pub(super) fn matches(pattern: &str, text: &str) -> bool {
    CACHE.with(|cache| {
        let mut cache = cache.borrow_mut();
        if cache.len() >= CACHE_LIMIT && !cache.contains_key(pattern) {
            cache.clear();
        }
        let compiled = cache.entry(pattern.to_owned()).or_insert_with(|| engine::compile(pattern));
        compiled.as_ref().is_none_or(|compiled| engine::is_match(compiled, text))
    })
}

#[cfg(target_arch = "wasm32")]
mod engine {
    use wasm_bindgen::prelude::*;

    #[wasm_bindgen]
    extern "C" {
        /// `RegExp`, bound with `catch` so that an invalid pattern is an `Err`, not a thrown exception.
        #[wasm_bindgen(js_name = RegExp)]
        pub(super) type Compiled;
        #[wasm_bindgen(constructor, catch, js_class = "RegExp")]
        fn new(pattern: &str, flags: &str) -> Result<Compiled, JsValue>;
        #[wasm_bindgen(method, js_class = "RegExp")]
        fn test(this: &Compiled, text: &str) -> bool;
    }

    pub(super) fn compile(pattern: &str) -> Option<Compiled> {
        // `u`: code points, as JSON Schema requires.
        Compiled::new(pattern, "u").ok()
    }

    pub(super) fn is_match(compiled: &Compiled, text: &str) -> bool {
        compiled.test(text)
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod engine {
    pub(super) type Compiled = regex::Regex;

    pub(super) fn compile(pattern: &str) -> Option<Compiled> {
        regex::Regex::new(pattern).ok()
    }

    pub(super) fn is_match(compiled: &Compiled, text: &str) -> bool {
        compiled.is_match(text)
    }
}
