//! The result of `dpdtol privacy … --epsilon-range a..b | --all-epsilon`:
//! the ε-intervals where an algorithm is private, decided exactly for every
//! ε of the range ([`crate::privacy::all_epsilon`]), their ends sharpened
//! to [`DIGITS`] certain digits.

use super::privacy::{sequence_text, vectors};
use super::{
    bound, fraction, Decimal, Enclosure, Fraction, Human, NumberKind, SchemaVersion, DIGITS,
};
use crate::algorithm::AlgorithmId;
use crate::error::Result;
use crate::mechanism::Noise;
use crate::num::{format_certain, Dir, Q};
use crate::privacy::all_epsilon::{AllEpsilon, Bound, EpsPoint, Family};
use crate::privacy::Verdict;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::fmt::Write;

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
    /// P(actions | x′) at ε, to its certain digits.
    pub neighbour_probability: Decimal,
    /// An enclosure of P(actions | x′).
    pub neighbour_probability_interval: Enclosure,
    /// P(actions | x) at ε, to its certain digits.
    pub probability: Decimal,
    /// An enclosure of P(actions | x).
    pub probability_interval: Enclosure,
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

/// An enclosure's certain digits.
fn decimal((lo, hi): &(Q, Q)) -> Decimal {
    Decimal(format_certain(lo, hi, DIGITS))
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
                        neighbour_probability: decimal(&w.probabilities[1]),
                        neighbour_probability_interval: interval(
                            &w.probabilities[1].0,
                            &w.probabilities[1].1,
                        ),
                        probability: decimal(&w.probabilities[0]),
                        probability_interval: interval(
                            &w.probabilities[0].0,
                            &w.probabilities[0].1,
                        ),
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

/// An end in words: a rational end exactly, a root to its certain digits.
fn end_text(end: &End) -> &str {
    end.exact
        .as_ref()
        .map_or(end.value.0.as_str(), |q| q.0.as_str())
}

impl AllEpsilonReport {
    /// The algorithm and its scale (following ε) in words.
    fn describe(&self) -> String {
        let factor = if self.scale_factor.0 == "1" {
            String::new()
        } else {
            format!("{} × ", self.scale_factor)
        };
        if self.algorithm == AlgorithmId::PrefixSoftmax.name() {
            return format!(
                "prefix-softmax (softmax, temperature {factor}2/ε: the paper's for ε <= 1/4)"
            );
        }
        if self.algorithm == AlgorithmId::Hedge.name() {
            return format!("hedge (softmax, temperature {factor}1/ε: η = ε by default)");
        }
        let printed = match self.noise {
            Some(Noise::Exponential) => "1/ε",
            _ => "2/ε",
        };
        let scale = if factor.is_empty() {
            format!("scale {printed} as printed")
        } else {
            format!("scale {factor}{printed}")
        };
        format!(
            "{} ({} noise, {scale}{})",
            self.algorithm,
            self.noise.map_or("laplace", Noise::name),
            if self.resample {
                ", Bernoulli resampling"
            } else {
                ""
            }
        )
    }
}

/// A piece's interval of ε in words: `(0, 1/2]`, `[3, ∞)`.
fn interval_text(piece: &PieceKeys) -> String {
    format!(
        "{}{}, {}{}",
        if piece.lo.closed { "[" } else { "(" },
        if piece.lo.value.0 == "inf" {
            "0"
        } else {
            end_text(&piece.lo)
        },
        if piece.hi.value.0 == "inf" {
            "∞"
        } else {
            end_text(&piece.hi)
        },
        if piece.hi.closed { "]" } else { ")" },
    )
}

/// The range checked in words: `[1/2, 4]` or `(0, ∞)`.
fn range_text(range: &RangeKeys) -> String {
    match &range.hi {
        None => "(0, ∞)".into(),
        Some(hi) => format!("[{}, {hi}]", range.lo),
    }
}

/// A paragraph: the family, how it was decided, then one line per piece
/// of the range (a violated piece with its witness).
impl Human for AllEpsilonReport {
    fn human(&self) -> String {
        let mut out = String::new();
        let alphabet: Vec<&str> = self.alphabet.iter().map(|a| a.0.as_str()).collect();
        let _ = writeln!(
            out,
            "{}, K = {}, horizon {}, alphabet {{{}}}, every ε in {}:",
            self.describe(),
            self.actions,
            self.horizon,
            alphabet.join(", "),
            range_text(&self.epsilon_range)
        );
        let _ = writeln!(
            out,
            "  decided exactly: {} structural candidates, {} distinct conditions (integer polynomials in w = e^(-ε/{}) of degree at most {}), {} in (0, 1); ends certified, every digit printed certain",
            self.candidates,
            self.conditions,
            self.base_denominator(),
            self.max_degree,
            match self.roots {
                1 => "1 root".to_string(),
                n => format!("{n} roots"),
            }
        );
        for piece in &self.pieces {
            let interval = interval_text(piece);
            if piece.verdict == Verdict::Private {
                let equal = if piece.attained_everywhere {
                    " (maximum ratio = e^ε everywhere on it)".to_string()
                } else if piece.attained_at.is_empty() {
                    " (maximum ratio < e^ε)".to_string()
                } else {
                    let points: Vec<&str> = piece
                        .attained_at
                        .iter()
                        .map(|e| e.value.0.as_str())
                        .collect();
                    format!(" (maximum ratio < e^ε, = e^ε at ε = {})", points.join(", "))
                };
                let _ = writeln!(out, "  PRIVATE  for ε in {interval}{equal}");
            } else {
                let _ = writeln!(out, "  VIOLATED for ε in {interval}");
                if let Some(w) = &piece.witness {
                    let _ = writeln!(
                        out,
                        "    witness at ε = {}: x = {}, x' = {} (round {}), actions {}: ratio {} > e^ε = {}",
                        w.epsilon,
                        sequence_text(&w.losses),
                        sequence_text(&w.neighbour),
                        w.round,
                        w.actions.iter().map(u64::to_string).collect::<Vec<_>>().join(","),
                        w.ratio.to_digits(12),
                        w.bound.to_digits(12),
                    );
                }
            }
        }
        out
    }
}
