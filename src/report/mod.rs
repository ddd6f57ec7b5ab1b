//! The typed results of the commands, and how their numbers are written.
//!
//! A command's result is a type of this module that derives
//! `serde::Serialize` and `schemars::JsonSchema`: its `--json` output is the
//! type serialized (keys in alphabetical order, one object, a
//! `schema_version`), and its JSON schema, `docs/schema/<command>.json`, is
//! generated from the type ([`schemas`]), so that the two cannot drift apart.
//! The command line renders a report as a table or as JSON and does nothing
//! else with it.
//!
//! Numbers follow one encoding everywhere:
//! - a real number is a [`Decimal`]: a decimal string with at most [`DIGITS`]
//!   significant digits, every one of them certain (for an enclosure, only
//!   the digits that every point of it rounds to alike);
//! - an exact rational is also given as a [`Fraction`], `"p/q"` (or `"p"`);
//! - a certified value is also given as an [`Enclosure`] `[lo, hi]`, its ends
//!   rounded outward.

pub mod mechanism;
pub mod merge;
pub mod privacy;
mod schema;

pub use self::schema::schemas;

use crate::num::{format_certain, format_sig_directed, Dir, Kind, Real, Q};
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// The version of every command's JSON output (the `schema_version` key).
/// Raised when a key is removed or changes meaning; new keys may appear
/// without it.
pub const SCHEMA_VERSION: &str = "1";

/// Significant digits of every decimal in the output.
pub const DIGITS: usize = 40;

/// The `schema_version` key of every report: always [`SCHEMA_VERSION`] when
/// written, and only that value is accepted when read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemaVersion;

impl Serialize for SchemaVersion {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(SCHEMA_VERSION)
    }
}

impl<'de> Deserialize<'de> for SchemaVersion {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = String::deserialize(d)?;
        if v == SCHEMA_VERSION {
            Ok(SchemaVersion)
        } else {
            Err(serde::de::Error::custom(format!(
                "schema_version {v:?}: this dpdtol reads version {SCHEMA_VERSION}"
            )))
        }
    }
}

impl JsonSchema for SchemaVersion {
    fn schema_name() -> Cow<'static, str> {
        "schema_version".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "const": SCHEMA_VERSION,
            "description": "the version of this schema; raised when a key is removed or changes meaning (new keys may appear without it)"
        })
    }
}

/// The pattern of a [`Decimal`].
const DECIMAL_PATTERN: &str = r"^(-?[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)?|nan|inf)$";

/// A real number as a decimal string: `"0.7310585786300048792511592418218362743651"`,
/// `"1e-300"`, `"inf"`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Decimal(pub String);

impl JsonSchema for Decimal {
    fn schema_name() -> Cow<'static, str> {
        "decimal".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "string",
            "pattern": DECIMAL_PATTERN,
            "description": "a real number as a decimal string with at least 30 significant digits"
        })
    }
}

impl std::fmt::Display for Decimal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// An exact rational as `"p/q"`, or `"p"` for an integer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Fraction(pub String);

impl JsonSchema for Fraction {
    fn schema_name() -> Cow<'static, str> {
        "fraction".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "string",
            "pattern": "^-?[0-9]+(/[0-9]+)?$",
            "description": "an exact rational as p/q (or p)"
        })
    }
}

impl std::fmt::Display for Fraction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// An enclosure `[lo, hi]` of a real number: two decimals rounded outward.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Enclosure(pub [Decimal; 2]);

impl JsonSchema for Enclosure {
    fn schema_name() -> Cow<'static, str> {
        "interval".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "array",
            "items": {
                "type": "string",
                "pattern": DECIMAL_PATTERN
            },
            "minItems": 2,
            "maxItems": 2,
            "description": "an enclosure [lo, hi] of a real number, its ends rounded outward"
        })
    }
}

/// How a number was obtained: `exact`, `certified` or `approximate` (the
/// numeric backend's [`Kind`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum NumberKind {
    /// A rational, exactly.
    Exact,
    /// An interval that provably contains the value.
    Certified,
    /// Floating point, no guarantee.
    Approximate,
}

impl From<Kind> for NumberKind {
    fn from(kind: Kind) -> NumberKind {
        match kind {
            Kind::Exact => NumberKind::Exact,
            Kind::Certified => NumberKind::Certified,
            Kind::Approximate => NumberKind::Approximate,
        }
    }
}

/// The value as a [`Decimal`]: the exact value rounded to [`DIGITS`]
/// significant digits, or, for an enclosure, only the digits (at most
/// [`DIGITS`]) that every point of it rounds to alike — each digit printed
/// is certain ([`format_certain`]; the enclosure itself when not one digit
/// is).
pub fn decimal<R: Real>(x: &R) -> Decimal {
    Decimal(match x.enclosure() {
        Some((lo, hi)) => format_certain(&lo, &hi, DIGITS),
        None => "nan".to_string(),
    })
}

/// The value's enclosure as two decimals rounded outward (`None` for a
/// value without one, a NaN).
pub fn enclosure<R: Real>(x: &R) -> Option<Enclosure> {
    x.enclosure().map(|(lo, hi)| {
        Enclosure([
            Decimal(format_sig_directed(&lo, DIGITS, Dir::Down)),
            Decimal(format_sig_directed(&hi, DIGITS, Dir::Up)),
        ])
    })
}

/// An exact rational as a [`Fraction`].
pub fn fraction(q: &Q) -> Fraction {
    Fraction(q.to_string())
}

/// The report as the one JSON object a `--json` run prints: keys in
/// alphabetical order (serde_json's map), compact.
pub fn to_json<T: Serialize>(report: &T) -> String {
    // A report is made of strings, numbers, booleans, arrays and structs: it
    // always serializes.
    serde_json::to_value(report)
        .expect("a report serializes to JSON")
        .to_string()
}
