//! How much work one validation may do. The schema comes from an untrusted server and the value from a model, and
//! validation runs on the page's main thread: every cost is counted, and a validation that would go over a limit
//! stops and fails closed ([`Error::TooCostly`](crate::Error::TooCostly)).

/// The limits of one validation. [`Limits::default`] keeps one validation under about 50 ms of a browser's main
/// thread whatever the schema, while a typical tool call uses well under 1% of it.
///
/// ```
/// let limits = mcp_worker_json_schema::Limits::default().steps(5_000_000);
/// assert_eq!(limits.max_steps, 5_000_000);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Steps of work one validation may take; a step is at most about 25 ns of work natively, whatever its kind.
    /// A schema visited at one place in the value costs 12 (and one more per 64 keys it has), a `$ref` followed 6,
    /// a branch of `anyOf`/`oneOf`/`not`/`if`/`contains`/`propertyNames` evaluated 12, a violation written 32, a
    /// pair of values compared (`enum`, `const`, `uniqueItems`) or a name read (`type`, `required`, members) 1, and
    /// 64 bytes of text read 1; a pattern match costs 8 plus its compiled size times the text's length over 64
    /// (the engine's worst case for its size), and compiling one is paid once per validation. Default: 1,000,000,
    /// measured at 23 ms natively and 33 ms in V8's wasm for the costliest schemas. A call with a few dozen values
    /// takes a few thousand steps; 250 rows of five fields, one with a pattern, about 160,000.
    pub max_steps: u64,
    /// How deeply checks may nest (each `$ref`, subschema and member of the value is a level). A `$ref` that comes
    /// back to the same schema at the same place in the value is a cycle and ends there without counting. Default: 128.
    pub max_depth: usize,
    /// The longest `pattern` or `patternProperties` regular expression, in bytes, that is checked; a longer one
    /// is not (as if it matched). Default: 4096 (tool schemas' patterns are rarely over a few hundred).
    pub max_pattern_length: usize,
    /// The largest compiled size, in bytes, of a regular expression that is checked; a larger one is not (as if it
    /// matched). Default: 128 KiB (`^.{0,1000}$` compiles to about 88 KiB; most patterns to under 2 KiB).
    pub max_pattern_size: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self { max_steps: 1_000_000, max_depth: 128, max_pattern_length: 4096, max_pattern_size: 128 * 1024 }
    }
}

impl Limits {
    /// At most `steps` steps of work (see [`Limits::max_steps`]).
    #[must_use]
    pub fn steps(mut self, steps: u64) -> Self {
        self.max_steps = steps;
        self
    }

    /// Checks nest at most `depth` levels (see [`Limits::max_depth`]).
    #[must_use]
    pub fn depth(mut self, depth: usize) -> Self {
        self.max_depth = depth;
        self
    }

    /// Patterns of at most `bytes` are checked (see [`Limits::max_pattern_length`]).
    #[must_use]
    pub fn pattern_length(mut self, bytes: usize) -> Self {
        self.max_pattern_length = bytes;
        self
    }

    /// Patterns that compile to at most `bytes` are checked (see [`Limits::max_pattern_size`]).
    #[must_use]
    pub fn pattern_size(mut self, bytes: usize) -> Self {
        self.max_pattern_size = bytes;
        self
    }
}
