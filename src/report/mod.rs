//! The typed results of the commands, and how their numbers are written.
//!
//! A command's result is a type of this module that derives
//! `serde::Serialize` and `schemars::JsonSchema`: its `--json` output is the
//! type serialized (keys in alphabetical order, one object, a
//! `schema_version`), and its JSON schema, `docs/schema/<command>.json`, is
//! generated from the type ([`schemas`]), so that the two cannot drift apart.
//! Its text for people is made here too, from the report alone ([`Human`]);
//! the command line prints one or the other ([`rendered`]) and does nothing
//! else with it.
//!
//! Numbers follow one encoding everywhere:
//! - a real number is a [`Decimal`]: a decimal string with at most [`DIGITS`]
//!   significant digits, every one of them certain (for an enclosure, only
//!   the digits that every point of it rounds to alike);
//! - an exact rational is also given as a [`Fraction`], `"p/q"` (or `"p"`);
//! - a certified value is also given as an [`Enclosure`] `[lo, hi]`, its ends
//!   rounded outward;
//! - a simulated number (f64: a test statistic, a p-value, a confidence
//!   bound) is a JSON number, and the report labels it `approximate`.

pub mod all_epsilon;
pub mod audit;
pub mod bandit;
pub mod bandit_bounds;
pub mod bandit_oracle;
pub mod bandit_privacy;
pub mod gof;
pub mod law;
pub mod mechanism;
pub mod merge;
pub mod one_shot_privacy;
pub mod oracle;
#[cfg(feature = "cli")]
pub mod plot;
pub mod privacy;
pub mod regret;
pub mod sample;
mod schema;
pub mod statistical_privacy;
pub mod verify;

pub use self::schema::schemas;

use crate::num::{
    format_certain, format_sig, format_sig_directed, parse_rational, Dir, Kind, Real, Q,
};
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

impl Decimal {
    /// The decimal to at most `digits` significant digits, for a table: the
    /// decimal itself when it has no more digits than that (or is not a
    /// number), else rounded to nearest. Rounding the certain digits again
    /// gives the value's own rounding unless the digits dropped are a tie
    /// (a 5 followed by zeros to the last digit written) that the value
    /// itself does not have.
    pub fn to_digits(&self, digits: usize) -> String {
        let mantissa = self.0.split('e').next().unwrap_or_default();
        let significant = mantissa
            .chars()
            .filter(char::is_ascii_digit)
            .skip_while(|c| *c == '0')
            .count();
        match parse_rational(&self.0) {
            Ok(q) if significant > digits => format_sig(&q, digits),
            _ => self.0.clone(),
        }
    }
}

/// A simulated (f64, approximate) number, written as its exact binary value
/// rounded to 30 significant digits, `"9.49999999999999955591079014994e-1"`
/// (17 digits already tell any two f64 apart, so the text reads back as the
/// same f64).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Float(pub f64);

impl Serialize for Float {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("{:.29e}", self.0))
    }
}

impl<'de> Deserialize<'de> for Float {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse()
            .map(Float)
            .map_err(|_| serde::de::Error::custom(format!("{text:?} is not a number")))
    }
}

impl JsonSchema for Float {
    fn schema_name() -> Cow<'static, str> {
        "approximate".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "string",
            "pattern": DECIMAL_PATTERN,
            "description": "an f64 value (simulated, approximate) as a decimal string of 30 significant digits"
        })
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

impl From<NumberKind> for Kind {
    fn from(kind: NumberKind) -> Kind {
        match kind {
            NumberKind::Exact => Kind::Exact,
            NumberKind::Certified => Kind::Certified,
            NumberKind::Approximate => Kind::Approximate,
        }
    }
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
    x.enclosure()
        .map(|(lo, hi)| Enclosure([bound(&lo, Dir::Down), bound(&hi, Dir::Up)]))
}

/// A bound of an enclosure: `q` to [`DIGITS`] significant digits, rounded
/// toward −∞ (a lower bound, [`Dir::Down`]) or +∞ ([`Dir::Up`]).
pub fn bound(q: &Q, dir: Dir) -> Decimal {
    Decimal(format_sig_directed(q, DIGITS, dir))
}

/// `n` and its noun, plural unless `n` is 1 (`1 sample`, `2 samples`;
/// `noun` is the singular, made plural with an `s`).
pub fn counted(n: impl std::fmt::Display, noun: &str) -> String {
    let n = n.to_string();
    let plural = if n == "1" { "" } else { "s" };
    format!("{n} {noun}{plural}")
}

/// An exact rational as a [`Fraction`].
pub fn fraction(q: &Q) -> Fraction {
    Fraction(crate::num::exact_text(q))
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

/// A report's rendering for people: the text a command prints without
/// `--json`, made from the report alone so that every front end (the
/// command line, the Python package) prints the same words.
pub trait Human {
    /// The report as lines of text.
    fn human(&self) -> String;
}

/// `report` as one JSON object ([`to_json`]) when `json`, else as text for
/// people ([`Human`]).
pub fn rendered<T: Serialize + Human>(report: &T, json: bool) -> String {
    if json {
        to_json(report)
    } else {
        report.human()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigInt;
    use num_traits::Signed;

    /// A table's short decimal, `to_digits(12)` of the 40-digit decimal, is
    /// the certain decimal of the enclosure itself at 12 digits, except at a
    /// tie of the 40 digits: over enclosures of every width around values
    /// of every magnitude, exact ones among them.
    #[test]
    fn short_decimals_are_the_enclosures_own() {
        let q = |n: i64, d: i64| Q::new(BigInt::from(n), BigInt::from(d));
        let mut compared = 0;
        for (n, d) in [
            (1, 3),
            (2, 7),
            (-5, 11),
            (355, 113),
            (1, 8),
            (641, 1),
            (7, 100_000_000),
            (22, 1),
        ] {
            for scale in [q(1, 1), q(1, 1_000_000), q(1_000_000_000, 1)] {
                let x = q(n, d) * &scale;
                for width in [0, 60, 45, 38, 30, 20, 13, 12, 8, 3] {
                    let half = if width == 0 {
                        q(0, 1)
                    } else {
                        x.abs() * Q::new(BigInt::from(1), BigInt::from(10).pow(width))
                    };
                    let (lo, hi) = (&x - &half, &x + &half);
                    let long = Decimal(format_certain(&lo, &hi, DIGITS));
                    let tie = long
                        .0
                        .trim_start_matches('-')
                        .contains("5000000000000000000000000");
                    if !tie {
                        assert_eq!(
                            long.to_digits(12),
                            format_certain(&lo, &hi, 12),
                            "{x} ± {half}"
                        );
                        compared += 1;
                    }
                }
            }
        }
        assert!(compared > 200, "{compared}");
        // The decimal itself when it has no more digits, or is not a number.
        assert_eq!(Decimal("5.4208".into()).to_digits(12), "5.4208");
        assert_eq!(Decimal("0".into()).to_digits(12), "0");
        assert_eq!(
            Decimal("[0.900, 1.10]".into()).to_digits(12),
            "[0.900, 1.10]"
        );
        assert_eq!(
            Decimal("641.0000000000000000000000000000000000000".into()).to_digits(12),
            "641.000000000"
        );
    }
}
