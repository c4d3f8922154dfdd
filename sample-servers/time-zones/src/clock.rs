//! The current instant, from the platform's clock: `Date.now()` in a worker, the system clock natively.
//!
//! chrono's own `Utc::now()` would pull in its `clock` feature (iana-time-zone, wasm-bindgen bindings of its own);
//! the one number it needs is cheaper to ask for directly.

use chrono::{DateTime, Utc};

/// Milliseconds since the Unix epoch.
#[cfg(target_arch = "wasm32")]
fn epoch_millis() -> i64 {
    // `Date.now()` is an integral number of milliseconds well inside i64.
    #[allow(clippy::cast_possible_truncation, reason = "an integral f64 of about 2^41")]
    let millis = js_sys::Date::now() as i64;
    millis
}

/// Milliseconds since the Unix epoch (0 on a clock set before 1970, which no test machine has).
#[cfg(not(target_arch = "wasm32"))]
fn epoch_millis() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |elapsed| i64::try_from(elapsed.as_millis()).unwrap_or(i64::MAX))
}

/// The current instant in UTC.
pub(crate) fn now() -> DateTime<Utc> {
    DateTime::from_timestamp_millis(epoch_millis()).unwrap_or_default()
}
