//! The result of `dpdtol privacy … --epsilon-range a..b | --all-epsilon`:
//! the ε-intervals where an algorithm is private, decided exactly for every
//! ε of the range ([`crate::privacy::all_epsilon`]), their ends sharpened
//! to [`DIGITS`] certain digits.

use super::privacy::vectors;
use super::{bound, fraction, Decimal, Enclosure, Fraction, NumberKind, SchemaVersion, DIGITS};
use crate::error::Result;
use crate::mechanism::Noise;
use crate::num::{format_certain, Dir, Q};
use crate::privacy::all_epsilon::{AllEpsilon, Bound, EpsPoint, Family};
use crate::privacy::Verdict;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// An end of a piece.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct End {
    /// Whether the end belongs to the piece.
    pub closed: bool,
    /// The end exactly, when rational; else null.
    pub exact: Option<Fraction>,
    /// An enclosure of the end (null for ∞).
    pub interval: Option<Enclosure>,
    /// The end to its certain digits (`inf` for ∞).
    pub value: Decimal,
}

/// An ε where the maximum ratio equals e^ε.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Point {
    /// An enclosure of it.
    pub interval: Enclosure,
    /// It, to its certain digits.
    pub value: Decimal,
}

/// A violation at one rational ε of a violated piece.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RangeWitnessKeys {
    /// The actions, numbered from 1.
    pub actions: Vec<u64>,
    /// e^ε, to its certain digits.
    pub bound: Decimal,
    /// An enclosure of e^ε.
    pub bound_interval: Enclosure,
    /// The ε of the witness.
    pub epsilon: Fraction,
    /// x.
    pub losses: Vec<Vec<Fraction>>,
    /// x′, x with one round replaced.
    pub neighbour: Vec<Vec<Fraction>>,
    /// P(actions | x)/P(actions | x′) at ε, to its certain digits.
    pub ratio: Decimal,
    /// An enclosure of the ratio.
    pub ratio_interval: Enclosure,
    /// The round (from 1) where x and x′ differ.
    pub round: u64,
}

/// A maximal interval of ε with one verdict.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PieceKeys {
    /// Private pieces: the isolated ε where the maximum ratio equals e^ε.
    pub attained_at: Vec<Point>,
    /// Whether the maximum ratio equals e^ε everywhere on the piece.
    pub attained_everywhere: bool,
    /// The upper end.
    pub hi: End,
    /// The lower end.
    pub lo: End,
    /// `private` or `violated`.
    pub verdict: Verdict,
    /// Violated pieces: a witness; else null.
    pub witness: Option<RangeWitnessKeys>,
}

/// The range of ε examined.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RangeKeys {
    /// The upper end (null: ∞).
    pub hi: Option<Fraction>,
    /// The lower end (0: open).
    pub lo: Fraction,
}

/// The verdict of an algorithm for every ε of a range.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct AllEpsilonReport {
    /// The number of actions K.
    pub actions: u64,
    /// The algorithm's id.
    pub algorithm: String,
    /// The loss values.
    pub alphabet: Vec<Fraction>,
    /// The variable of the conditions, `e^(-epsilon/q)`.
    pub base: String,
    /// The structural candidates examined.
    pub candidates: u64,
    /// The distinct sign conditions (integer polynomials in the base).
    pub conditions: u64,
    /// The range examined.
    pub epsilon_range: RangeKeys,
    /// The horizon t, as a string of the integer.
    pub horizon: String,
    /// `certified`.
    pub kind: NumberKind,
    /// The largest degree of a condition.
    pub max_degree: u64,
    /// `all-epsilon`.
    pub method: String,
    /// wu-wang's noise (null: the default, or another algorithm).
    pub noise: Option<Noise>,
    /// The pieces, in increasing ε, covering the range.
    pub pieces: Vec<PieceKeys>,
    /// wu-wang's Bernoulli resampling.
    pub resample: bool,
    /// The roots in (0, 1) of all conditions.
    pub roots: u64,
    /// The multiplier of the paper's scale.
    pub scale_factor: Fraction,
    /// The version of this report's keys.
    pub schema_version: SchemaVersion,
}

/// An enclosure `[lo, hi]`, rounded outward.
fn interval(lo: &Q, hi: &Q) -> Enclosure {
    Enclosure([bound(lo, Dir::Down), bound(hi, Dir::Up)])
}

/// A root sharpened to [`DIGITS`] certain digits.
fn point(p: &mut EpsPoint) -> Result<Point> {
    let (lo, hi) = p.sharpen(DIGITS)?;
    Ok(Point {
        value: Decimal(format_certain(&lo, &hi, DIGITS)),
        interval: interval(&lo, &hi),
    })
}

/// An end of a piece, sharpened.
fn end(b: &mut Bound, closed: bool) -> Result<End> {
    Ok(match b {
        Bound::Rational(q) => End {
            closed,
            exact: Some(fraction(q)),
            interval: Some(interval(q, q)),
            value: Decimal(format_certain(q, q, DIGITS)),
        },
        Bound::Point(p) => {
            let Point { interval, value } = point(p)?;
            End {
                closed,
                exact: None,
                interval: Some(interval),
                value,
            }
        }
        Bound::Infinity => End {
            closed: false,
            exact: None,
            interval: None,
            value: Decimal("inf".into()),
        },
    })
}

impl AllEpsilonReport {
    /// The report of `r`, the check of `family` at `horizon` on `alphabet`
    /// (the roots are sharpened to [`DIGITS`] certain digits).
    pub fn new(
        family: &Family,
        horizon: usize,
        alphabet: &[Q],
        r: &mut AllEpsilon,
    ) -> Result<AllEpsilonReport> {
        let everywhere = r.attained_everywhere;
        let pieces = r
            .pieces
            .iter_mut()
            .map(|piece| {
                Ok(PieceKeys {
                    attained_at: piece
                        .attained_at
                        .iter_mut()
                        .map(point)
                        .collect::<Result<_>>()?,
                    attained_everywhere: piece.private && everywhere,
                    hi: end(&mut piece.hi.0, piece.hi.1)?,
                    lo: end(&mut piece.lo.0, piece.lo.1)?,
                    verdict: if piece.private {
                        Verdict::Private
                    } else {
                        Verdict::Violated
                    },
                    witness: piece.witness.as_ref().map(|w| RangeWitnessKeys {
                        actions: w.actions.iter().map(|&a| a as u64 + 1).collect(),
                        bound: Decimal(format_certain(&w.bound.0, &w.bound.1, DIGITS)),
                        bound_interval: interval(&w.bound.0, &w.bound.1),
                        epsilon: fraction(&w.epsilon),
                        losses: vectors(&w.losses),
                        neighbour: vectors(&w.neighbour),
                        ratio: Decimal(format_certain(&w.ratio.0, &w.ratio.1, DIGITS)),
                        ratio_interval: interval(&w.ratio.0, &w.ratio.1),
                        round: w.round as u64,
                    }),
                })
            })
            .collect::<Result<_>>()?;
        Ok(AllEpsilonReport {
            actions: family.config.actions as u64,
            algorithm: family.config.id.name().to_string(),
            alphabet: alphabet.iter().map(fraction).collect(),
            base: format!("e^(-epsilon/{})", r.q),
            candidates: r.candidates,
            conditions: r.conditions as u64,
            epsilon_range: RangeKeys {
                hi: r.range.hi.as_ref().map(fraction),
                lo: fraction(&r.range.lo),
            },
            horizon: horizon.to_string(),
            kind: NumberKind::Certified,
            max_degree: r.max_degree as u64,
            method: "all-epsilon".into(),
            noise: family.config.noise,
            pieces,
            resample: family.config.resample,
            roots: r.roots as u64,
            scale_factor: fraction(&family.factor),
            schema_version: SchemaVersion,
        })
    }

    /// `q` of the base `e^(-epsilon/q)`.
    pub fn base_denominator(&self) -> &str {
        self.base
            .strip_prefix("e^(-epsilon/")
            .and_then(|rest| rest.strip_suffix(')'))
            .unwrap_or(&self.base)
    }

    /// Whether some ε of the range is violated.
    pub fn violated(&self) -> bool {
        self.pieces.iter().any(|p| p.verdict == Verdict::Violated)
    }
}
