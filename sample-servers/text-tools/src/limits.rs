//! The bounds every tool checks before it works, so no input can hold the worker for long.

/// The longest text a tool takes: 1 MiB.
pub(crate) const MAX_TEXT_BYTES: usize = 1 << 20;

/// Refuses a text over [`MAX_TEXT_BYTES`], naming the argument it came in.
pub(crate) fn check_text(field: &str, text: &str) -> Result<(), String> {
    check_len(field, text, MAX_TEXT_BYTES)
}

/// Refuses a text over `max` bytes, naming the argument it came in.
pub(crate) fn check_len(field: &str, text: &str, max: usize) -> Result<(), String> {
    if text.len() > max {
        return Err(format!("`{field}` is {} bytes; the limit is {max} bytes", text.len()));
    }
    Ok(())
}
