//! The time of day, for the deadlines of sealed request state.

/// Milliseconds since the Unix epoch.
#[cfg(target_arch = "wasm32")]
pub(crate) fn now_ms() -> u64 {
    js_sys::Date::now() as u64
}

/// Milliseconds since the Unix epoch.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn now_ms() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}
