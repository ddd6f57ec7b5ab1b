//! How numbers are written for people and for scripts (design guide,
//! "Command line"): decimal strings with at least 30 significant digits,
//! exact values also as `"p/q"`, certified values also as `[lo, hi]` with the
//! ends rounded outward.

use crate::num::{format_certain, Real, Q};
use serde_json::{json, Value};

/// The version of every command's JSON output (the `schema_version` key;
/// the schemas are `docs/schema/<command>.json`). Raised when a key is
/// removed or changes meaning; new keys may appear without it.
pub const SCHEMA_VERSION: &str = "1";

/// `value` with the key `schema_version` added when it is an object.
pub fn versioned(mut value: Value) -> Value {
    if let Some(map) = value.as_object_mut() {
        map.insert("schema_version".into(), json!(SCHEMA_VERSION));
    }
    value
}

/// Significant digits of every decimal in the output.
pub const DIGITS: usize = 40;

/// The value as a decimal: the exact value rounded to [`DIGITS`] significant
/// digits, or, for an enclosure, only the digits (at most [`DIGITS`]) that
/// every point of it rounds to alike — each digit printed is certain
/// ([`format_certain`]; the enclosure itself when not one digit is).
pub fn decimal<R: Real>(x: &R) -> String {
    match x.enclosure() {
        Some((lo, hi)) => format_certain(&lo, &hi, DIGITS),
        None => "nan".to_string(),
    }
}

/// An exact rational as `"p/q"` (or `"p"` for an integer).
pub fn exact(q: &Q) -> Value {
    Value::String(q.to_string())
}
