//! The fixed data of the conformance fixtures.

/// A 1×1 red PNG, base64.
pub(crate) const PNG: &str =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==";

/// A WAV file of silence, base64.
pub(crate) const WAV: &str = "UklGRiQAAABXQVZFZm10IBAAAAABAAEARKwAAIhYAQACABAAZGF0YQAAAAA=";

pub(crate) const SIMPLE_TEXT: &str = "This is a simple text response for testing.";
pub(crate) const EMBEDDED_TEXT: &str = "This is an embedded resource content.";
pub(crate) const ERROR_TEXT: &str = "This tool intentionally returns an error for testing";
pub(crate) const RECONNECTION_TEXT: &str = "Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure.";
pub(crate) const STATIC_TEXT: &str = "This is the content of the static text resource.";

/// The logger name of the log messages the server sends.
pub(crate) const LOGGER: &str = "everything";
