//! How numbers are written for people and for scripts (design guide,
//! "Command line"): decimal strings with at least 30 significant digits,
//! exact values also as `"p/q"`, certified values also as `[lo, hi]` with the
//! ends rounded outward.

use crate::num::{format_sig, format_sig_directed, Dir, Real, Q};
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

/// The value as a decimal: the exact value, or the midpoint of the enclosure,
/// rounded to [`DIGITS`] significant digits.
pub fn decimal<R: Real>(x: &R) -> String {
    match x.enclosure() {
        Some((lo, hi)) => format_sig(&((lo + hi) / Q::from_integer(2.into())), DIGITS),
        None => "nan".to_string(),
    }
}

/// The enclosure `[lo, hi]` as two decimals rounded outward.
pub fn interval<R: Real>(x: &R) -> Value {
    match x.enclosure() {
        Some((lo, hi)) => json!([
            format_sig_directed(&lo, DIGITS, Dir::Down),
            format_sig_directed(&hi, DIGITS, Dir::Up)
        ]),
        None => Value::Null,
    }
}

/// An exact rational as `"p/q"` (or `"p"` for an integer).
pub fn exact(q: &Q) -> Value {
    Value::String(q.to_string())
}
