//! What the reports of the oracle commands (`law`, `sample`, `gof`, `audit`;
//! [`crate::oracle`]) share: the target as it was given, the index
//! conventions, the header of a sequence law, one choice's law, a
//! probability and a range of rounds.

use super::{bound, Decimal, Enclosure, Fraction, NumberKind, DIGITS};
use crate::algorithm::{BestSequenceLaw, Choice};
use crate::num::{format_sig, Dir, Q};
use crate::oracle::{Enclosed, TargetSpec};
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::fmt;
use std::ops::Range;

/// The conventions every oracle report states.
pub const CONVENTIONS: &str = "rounds are numbered from 1 and round ranges are inclusive; choices are numbered from 0 in schedule order; law[a] is the probability of action a + base";

/// A key whose value is one fixed string (the `command` of a report, the
/// `kind` of its simulated numbers): written as that string, and only that
/// string is read.
macro_rules! fixed_string {
    ($(#[$doc:meta])* $name:ident = $value:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct $name;

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
                s.serialize_str($value)
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(
                d: D,
            ) -> std::result::Result<Self, D::Error> {
                let v = <String as serde::Deserialize>::deserialize(d)?;
                if v == $value {
                    Ok($name)
                } else {
                    Err(serde::de::Error::custom(format!(
                        "expected {:?}, got {v:?}",
                        $value
                    )))
                }
            }
        }

        impl schemars::JsonSchema for $name {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                stringify!($name).into()
            }

            fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
                schemars::json_schema!({ "const": $value })
            }
        }
    };
}
pub(crate) use fixed_string;

fixed_string!(
    /// `"approximate"`: the kind of numbers computed in f64 (samples,
    /// test statistics, confidence bounds).
    Approximate = "approximate"
);

/// The target as it was given on the command line, its numbers as typed:
/// an online algorithm on a loss file, or one selection on a loss vector.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum TargetGiven {
    /// An online algorithm on a loss file.
    Algorithm(AlgorithmGiven),
    /// One report-noisy-max selection on a loss vector.
    Mechanism(MechanismGiven),
}

impl TargetGiven {
    /// The target of `spec` as given.
    pub fn of(spec: &TargetSpec) -> TargetGiven {
        if let Some(noise) = &spec.mechanism {
            return TargetGiven::Mechanism(MechanismGiven {
                losses: spec.losses.clone(),
                mechanism: noise.clone(),
                scale: spec.scale.clone(),
            });
        }
        TargetGiven::Algorithm(AlgorithmGiven {
            algorithm: spec.algorithm.clone().unwrap_or_else(|| "?".into()),
            epsilon: spec.epsilon.clone(),
            losses_file: spec.losses_file.as_ref().map(|p| p.display().to_string()),
            noise: spec.noise.clone(),
            noise_scale: spec.noise_scale.clone(),
            resample: spec.resample.clone(),
        })
    }
}

/// An online algorithm on a loss file, as given (null for a flag not given).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AlgorithmGiven {
    /// The algorithm's id.
    pub algorithm: String,
    /// The privacy parameter ε.
    pub epsilon: Option<String>,
    /// The loss file.
    pub losses_file: Option<String>,
    /// The noise (wu-wang).
    pub noise: Option<String>,
    /// The noise scale overriding the paper's.
    pub noise_scale: Option<String>,
    /// Bernoulli resampling of the losses, 0 or 1 (wu-wang).
    pub resample: Option<String>,
}

/// One report-noisy-max selection, as given (null for a flag not given).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MechanismGiven {
    /// The losses, comma-separated.
    pub losses: Option<String>,
    /// The noise.
    pub mechanism: String,
    /// The noise scale β.
    pub scale: Option<String>,
}

/// How a sequence law was computed: the keys every oracle report that
/// computes one states about it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LawHeader {
    /// Whether every printed digit is certain (the enclosure met the
    /// requested width).
    pub digits_certain: bool,
    /// `exact` (rational) or `certified` (enclosures).
    pub kind: NumberKind,
    /// The precision of a certified law, in bits; null for an exact one.
    pub precision_bits: Option<u32>,
    /// Why the law is not exact (null when it is).
    pub why_not_exact: Option<String>,
}

impl LawHeader {
    /// The header of `law`.
    pub fn of(law: &BestSequenceLaw) -> LawHeader {
        match law {
            BestSequenceLaw::Exact(_) => LawHeader {
                digits_certain: true,
                kind: NumberKind::Exact,
                precision_bits: None,
                why_not_exact: None,
            },
            BestSequenceLaw::Certified {
                precision,
                accepted,
                why_not_exact,
                ..
            } => LawHeader {
                digits_certain: *accepted,
                kind: NumberKind::Certified,
                precision_bits: Some(precision.0),
                why_not_exact: Some(why_not_exact.to_string()),
            },
        }
    }

    /// How the law was computed, for people: `exact`, or `certified` with
    /// its precision and whether every digit shown is certain.
    pub fn how(&self) -> String {
        match self.precision_bits {
            None => "exact".to_string(),
            Some(bits) => format!(
                "certified ({bits} bits; {})",
                if self.digits_certain {
                    "every digit shown is correct to ±1 in the last place"
                } else {
                    "NOT all digits shown are certain: see --json"
                }
            ),
        }
    }
}

/// A probability for people: the decimal, and `= p/q` when exact (and the
/// fraction short enough to read).
pub fn probability_text(decimal: &Decimal, exact: Option<&Fraction>) -> String {
    match exact {
        Some(q) if q.0.len() <= 40 => format!("{} = {}", decimal.0, q.0),
        _ => decimal.0.clone(),
    }
}

/// The target in words: `wu-wang, ε = 1, noise gumbel`, or
/// `report-noisy-max, gumbel noise, scale 1`.
impl fmt::Display for TargetGiven {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let given = |v: &Option<String>| v.clone().unwrap_or_else(|| "?".into());
        match self {
            TargetGiven::Mechanism(m) => write!(
                f,
                "report-noisy-max, {} noise, scale {}",
                m.mechanism,
                given(&m.scale)
            ),
            TargetGiven::Algorithm(a) => {
                write!(f, "{}, ε = {}", a.algorithm, given(&a.epsilon))?;
                for (flag, value) in [
                    ("noise", &a.noise),
                    ("resample", &a.resample),
                    ("noise-scale", &a.noise_scale),
                ] {
                    if let Some(v) = value {
                        write!(f, ", {flag} {v}")?;
                    }
                }
                Ok(())
            }
        }
    }
}

/// An inclusive range of rounds `[first, last]`, rounds numbered from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Rounds(pub [usize; 2]);

impl Rounds {
    /// The rounds of a non-empty half-open range (the rounds a choice plays:
    /// a schedule's `plays` partition the rounds).
    pub fn inclusive(range: &Range<usize>) -> Rounds {
        Rounds([range.start, range.end.saturating_sub(1)])
    }

    /// The rounds of a half-open range; `None` when it is empty.
    pub fn of(range: &Range<usize>) -> Option<Rounds> {
        (!range.is_empty()).then(|| Rounds::inclusive(range))
    }
}

impl JsonSchema for Rounds {
    fn schema_name() -> Cow<'static, str> {
        "rounds".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "array",
            "items": { "type": "integer", "minimum": 1 },
            "minItems": 2,
            "maxItems": 2,
            "description": "an inclusive range of rounds [first, last], rounds numbered from 1"
        })
    }
}

/// A horizon: the exact integer as a decimal string.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Horizon(pub String);

impl Horizon {
    /// The horizon `t`.
    pub fn of(t: usize) -> Horizon {
        Horizon(t.to_string())
    }
}

impl JsonSchema for Horizon {
    fn schema_name() -> Cow<'static, str> {
        "horizon".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "string",
            "pattern": "^[1-9][0-9]*$",
            "description": "the horizon, a string of the exact integer (the same in every command: regret horizons reach 2^100)"
        })
    }
}

/// An enclosed probability as an oracle report writes it: the midpoint of
/// its enclosure to [`DIGITS`] significant digits, the exact rational when
/// there is one, and the enclosure, its ends rounded outward.
pub fn probability(p: &Enclosed) -> (Decimal, Option<Fraction>, Enclosure) {
    let mid = (&p.lo + &p.hi) / Q::from_integer(2.into());
    (
        Decimal(format_sig(&mid, DIGITS)),
        p.exact().map(super::fraction),
        Enclosure([bound(&p.lo, Dir::Down), bound(&p.hi, Dir::Up)]),
    )
}

/// The law of one choice of a schedule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChoiceLaw {
    /// The choice's index in the schedule, from 0.
    pub choice: usize,
    /// `law[a]` = P(the choice selects action a + base), to 40 significant
    /// digits.
    pub law: Vec<Decimal>,
    /// The law as exact rationals, when every probability is exact; else
    /// null.
    pub law_exact: Option<Vec<Fraction>>,
    /// An enclosure of each probability.
    pub law_interval: Vec<Enclosure>,
    /// The rounds the selected action is played on.
    pub plays: Rounds,
    /// The rounds whose losses the choice reads (null: none).
    pub reads: Option<Rounds>,
}

impl ChoiceLaw {
    /// The law `law` of the choice `choice`, the `index`-th of its schedule.
    pub fn new(index: usize, choice: &Choice, law: &[Enclosed]) -> ChoiceLaw {
        let (mut decimals, mut exact, mut intervals) = (Vec::new(), Vec::new(), Vec::new());
        for p in law {
            let (d, e, i) = probability(p);
            decimals.push(d);
            exact.push(e);
            intervals.push(i);
        }
        ChoiceLaw {
            choice: index,
            law: decimals,
            law_exact: exact.into_iter().collect(),
            law_interval: intervals,
            plays: Rounds::inclusive(&choice.plays),
            reads: Rounds::of(&choice.reads),
        }
    }
}
