//! Running a compiled filter over inputs, within bounds.
//!
//! jaq has no step budget and runs in the worker's only thread, so the bounds are on what comes out: at most
//! [`MAX_OUTPUTS`] values and [`MAX_OUTPUT_BYTES`] of text. A generator like `repeat(1)` stops at the bound; a
//! filter that computes forever without producing anything (`last(repeat(1))`) holds the worker until the host's
//! call timeout ends it.

use crate::program::{Data, Filter};
use crate::writer::{self, Layout};
use jaq_core::{Ctx, Vars};
use jaq_json::Val;

/// The most values one call returns.
pub(crate) const MAX_OUTPUTS: usize = 1000;

/// The most text the outputs of one call add up to: 1 MiB.
pub(crate) const MAX_OUTPUT_BYTES: usize = 1 << 20;

/// What a run produced.
#[derive(Debug)]
pub(crate) struct Run {
    /// Each output value with its compact JSON text.
    pub(crate) outputs: Vec<(Val, String)>,
    /// Whether a bound (or `halt`) stopped the run before the filter was done, and which.
    pub(crate) stopped: Option<String>,
    /// The run-time error that ended the run, if one did.
    pub(crate) error: Option<String>,
}

/// Runs `filter` on each input in turn, as jq runs on a stream of inputs, until the filter is done, fails, or a
/// bound is reached. `max_outputs` is capped at [`MAX_OUTPUTS`].
pub(crate) fn run(filter: &Filter, inputs: Vec<Val>, max_outputs: usize) -> Run {
    let max_outputs = max_outputs.min(MAX_OUTPUTS);
    let mut run = Run { outputs: Vec::new(), stopped: None, error: None };
    let mut bytes = 0;
    for input in inputs {
        let ctx = Ctx::<Data>::new(&filter.lut, Vars::new([]));
        for output in filter.id.run((ctx, input)) {
            if run.outputs.len() == max_outputs {
                run.stopped = Some(format!("stopped after {max_outputs} outputs (the limit)"));
                return run;
            }
            let value = match output {
                Ok(value) => value,
                Err(exception) => {
                    match exception.get_err() {
                        Ok(error) => run.error = Some(error_text(error.into_val())),
                        Err(exception) => match exception.get_halt() {
                            Ok(code) => run.stopped = Some(format!("the filter called halt({code})")),
                            Err(_) => run.error = Some("the filter stopped on an unexpected control flow".into()),
                        },
                    }
                    return run;
                }
            };
            let text = match writer::to_text(&value, Layout::Compact) {
                Ok(text) => text,
                Err(too_deep) => {
                    run.error = Some(format!("output {} cannot be written: {too_deep}", run.outputs.len() + 1));
                    return run;
                }
            };
            bytes += text.len();
            if bytes > MAX_OUTPUT_BYTES {
                run.stopped = Some(format!("stopped at {MAX_OUTPUT_BYTES} bytes of output (the limit)"));
                return run;
            }
            run.outputs.push((value, text));
        }
    }
    run
}

/// An error's value as jq shows it: a string as it is, anything else as JSON.
fn error_text(value: Val) -> String {
    match value {
        Val::TStr(text) => String::from_utf8_lossy(&text).into_owned(),
        other => writer::to_text(&other, Layout::Compact).unwrap_or_else(|too_deep| too_deep.to_string()),
    }
}
