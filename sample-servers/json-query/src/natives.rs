//! Native filters that replace jaq's own where theirs do not suit a worker: `fromjson` parses with serde_json, whose
//! 128-level nesting limit keeps a hostile string from overflowing the stack (jaq's parser recurses without a
//! limit).

use jaq_core::native::{Fun, bome, v};
use jaq_core::{DataT, Error, Native, RunPtr, ValR};
use jaq_json::Val;

/// The replacements, under the names they replace.
pub(crate) fn replacements<D: for<'a> DataT<V<'a> = Val>>() -> [Fun<D>; 1] {
    let fromjson: RunPtr<D> = |cv| bome(parse_json(&cv.1));
    [("fromjson", v(0), Native::<D>::new(fromjson))]
}

/// The names of jaq's natives that [`replacements`] stand for.
pub(crate) const REPLACED_NATIVES: &[&str] = &["fromjson"];

fn parse_json(value: &Val) -> ValR<Val> {
    match value {
        Val::TStr(text) => mcp_worker_sdk::protocol::json::from_slice::<Val>(text)
            .map_err(|e| Error::str(format!("cannot parse {value} as JSON: {e}"))),
        other => Err(Error::str(format!("cannot parse {other} as JSON: it is not a string"))),
    }
}
