//! A wasm module and its wasm-bindgen glue, rewritten together in place by the steps that rename what the two share
//! ([`crate::import_names`], [`crate::export_names`]).

use std::fs;
use std::path::Path;

/// Reads `wasm` and `glue`, hands them to `edit`, and writes back the module and glue it returns; `Ok(None)`, both
/// left as they were, when it returns none. `edit`'s error is about the module, and names its file.
pub(crate) fn rewrite<T>(
    wasm: &Path,
    glue: &Path,
    edit: impl FnOnce(&[u8], &str) -> Result<Option<(Vec<u8>, String, T)>, String>,
) -> crate::Result<Option<T>> {
    let bytes = fs::read(wasm).map_err(|e| format!("cannot read {}: {e}", wasm.display()))?;
    let text = fs::read_to_string(glue).map_err(|e| format!("cannot read {}: {e}", glue.display()))?;
    let Some((bytes, text, made)) = edit(&bytes, &text).map_err(|e| format!("{}: {e}", wasm.display()))? else {
        return Ok(None);
    };
    fs::write(wasm, bytes).map_err(|e| format!("cannot write {}: {e}", wasm.display()))?;
    fs::write(glue, text).map_err(|e| format!("cannot write {}: {e}", glue.display()))?;
    Ok(Some(made))
}
