//! The reports of the certified bounds on the laws of DP-TS and Lazy-DP-TS
//! ([`crate::bandit::law::beta_sandwich`]): `dpdtol law` on one reward
//! table, and `dpdtol privacy --method bounds` on every neighbouring pair
//! of tables ([`crate::privacy::bandit::sandwich`]).

use super::bandit_oracle::{conventions, pulls_text, BanditGiven};
use super::law::LawCommand;
use super::oracle::Horizon;
use super::privacy::sequence_text;
use super::{bound, counted, fraction, Decimal, Enclosure, Fraction, Human, SchemaVersion};
use crate::bandit::law::dp_ts::PrivateThompson;
use crate::bandit::policy::Named;
use crate::error::{Error, Result};
use crate::num::{format_certain, format_sig_directed, parse_rational, Dir, Real, Q};
use crate::privacy::bandit::sandwich::{BoundsCheck, Pair};
use crate::privacy::Verdict;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::fmt::Write;

/// What the bounds are, in every report.
pub const BOUNDS: &str = "certified bounds, not values: each Beta draw with real parameters is sandwiched between draws with integer parameters over cells of its clipped mean (the atoms 0 and 1 exactly, the intervals (k, k+1)/n between), the cells measured in closed form over the Laplace noises; the true probability lies in probability_interval, whose width does not shrink with precision";

/// `[lo, hi]` as an outward-rounded [`Enclosure`]: the lower end of `lo`'s
/// enclosure and the upper end of `hi`'s.
fn outer<R: Real>(lo: &R, hi: &R) -> Enclosure {
    let (l, _) = lo.enclosure().unwrap_or_default();
    let (_, h) = hi.enclosure().unwrap_or_default();
    Enclosure([bound(&l, Dir::Down), bound(&h, Dir::Up)])
}

/// An upper bound of `x` to [`super::DIGITS`] digits, rounded up.
fn upper<R: Real>(x: &R) -> Decimal {
    bound(&x.enclosure().unwrap_or_default().1, Dir::Up)
}

/// A lower bound of `x`, rounded down.
fn lower<R: Real>(x: &R) -> Decimal {
    bound(&x.enclosure().unwrap_or_default().0, Dir::Down)
}

/// One pull sequence with bounds on its probability.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PullBounds {
    /// Certified bounds `[lo, hi]` on the probability, rounded outward.
    pub probability_interval: Enclosure,
    /// The pulls, one arm a round, numbered from `base`.
    pub pulls: Vec<usize>,
}

impl PullBounds {
    fn new<R: Real>(pulls: &[usize], lo: &R, hi: &R, base: u32) -> PullBounds {
        PullBounds {
            probability_interval: outer(lo, hi),
            pulls: pulls.iter().map(|a| a + base as usize).collect(),
        }
    }
}

/// `dpdtol law` for DP-TS or Lazy-DP-TS: certified bounds on the probability
/// of every pull sequence.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BanditBoundsReport {
    /// The number of arms K.
    #[schemars(range(min = 2))]
    pub arms: usize,
    /// Arms are numbered from this (0 or 1).
    #[schemars(range(max = 1))]
    pub base: u32,
    /// What the bounds are.
    pub bounds: String,
    /// The command.
    pub command: LawCommand,
    /// The index conventions, in words.
    pub conventions: String,
    /// The horizon T.
    pub horizon: Horizon,
    /// Every pull sequence whose first K rounds pull arms 1..K in order, in
    /// lexicographic order, with its bounds; every other sequence has
    /// probability 0.
    pub law: Vec<PullBounds>,
    /// The precision of the certified arithmetic, in bits.
    pub precision_bits: u32,
    /// The bounds of `sequence` (null without one).
    pub probability: Option<PullBounds>,
    /// The version of this report's keys.
    pub schema_version: SchemaVersion,
    /// The target as given.
    pub target: BanditGiven,
    /// Bounds on the law's total, which contain 1.
    pub total_interval: Enclosure,
    /// The largest width `hi − lo` of a sequence's bounds, rounded up.
    pub width: Decimal,
}

impl BanditBoundsReport {
    /// The report of `bounds` (one `(pulls, lo, hi)` per sequence, 0-based)
    /// at `bits`, with the bounds of `sequence` when asked (`None` when it
    /// is not listed: probability 0, bounds `[0, 0]`). An error (bad input)
    /// when the sequence has the wrong length or an arm out of range.
    pub fn new<R: Real>(
        given: BanditGiven,
        arms: usize,
        horizon: usize,
        bounds: &[(Vec<usize>, R, R)],
        bits: u32,
        sequence: Option<&[usize]>,
        base: u32,
    ) -> Result<BanditBoundsReport> {
        if let Some(s) = sequence {
            check_sequence(s, arms, horizon, base)?;
        }
        let zero = || Q::from_integer(0.into());
        let (mut total_lo, mut total_hi, mut width) = (zero(), zero(), zero());
        for (_, lo, hi) in bounds {
            let (l, h) = (
                lo.enclosure().unwrap_or_default().0,
                hi.enclosure().unwrap_or_default().1,
            );
            width = width.max(&h - &l);
            total_lo += l;
            total_hi += h;
        }
        let probability = sequence.map(|s| match bounds.iter().find(|(p, _, _)| p == s) {
            Some((p, lo, hi)) => PullBounds::new(p, lo, hi, base),
            None => PullBounds {
                probability_interval: Enclosure([
                    bound(&zero(), Dir::Down),
                    bound(&zero(), Dir::Up),
                ]),
                pulls: s.iter().map(|a| a + base as usize).collect(),
            },
        });
        Ok(BanditBoundsReport {
            arms,
            base,
            bounds: BOUNDS.into(),
            command: LawCommand,
            conventions: conventions(&given),
            horizon: Horizon::of(horizon),
            law: bounds
                .iter()
                .map(|(p, lo, hi)| PullBounds::new(p, lo, hi, base))
                .collect(),
            precision_bits: bits,
            probability,
            schema_version: SchemaVersion,
            target: given,
            total_interval: Enclosure([bound(&total_lo, Dir::Down), bound(&total_hi, Dir::Up)]),
            width: bound(&width, Dir::Up),
        })
    }
}

/// An error unless `pulls` has `horizon` arms below `arms`, naming the
/// first that is not (numbered from `base`).
fn check_sequence(pulls: &[usize], arms: usize, horizon: usize, base: u32) -> Result<()> {
    if pulls.len() != horizon {
        return Err(Error::InvalidInput(format!(
            "--sequence has {} pulls, the reward table {horizon} rounds",
            pulls.len()
        )));
    }
    match pulls.iter().position(|&a| a >= arms) {
        Some(t) => Err(Error::InvalidInput(format!(
            "--sequence pulls arm {} in round {}, but arms are numbered {base}..{}",
            pulls[t] + base as usize,
            t + 1,
            arms - 1 + base as usize
        ))),
        None => Ok(()),
    }
}

/// The digits the text shows.
const SHORT: usize = 10;

/// A decimal of a report to [`SHORT`] digits, rounded in direction `dir`
/// (the decimal itself when it is not a number, as `inf`).
fn short(d: &Decimal, dir: Dir) -> String {
    match parse_rational(&d.0) {
        Ok(q) => format_sig_directed(&q, SHORT, dir),
        Err(_) => d.0.clone(),
    }
}

/// `[lo, hi]` as text, rounded outward to [`SHORT`] digits.
fn interval_text(e: &Enclosure) -> String {
    let Enclosure([lo, hi]) = e;
    format!("[{}, {}]", short(lo, Dir::Down), short(hi, Dir::Up))
}

impl Human for BanditBoundsReport {
    fn human(&self) -> String {
        let mut out = String::new();
        let Horizon(horizon) = &self.horizon;
        let _ = writeln!(
            out,
            "{}: K = {}, T = {horizon}, {}; certified bounds (not values), widest {}, at {} bits",
            self.target,
            self.arms,
            counted(self.law.len(), "pull sequence"),
            short(&self.width, Dir::Up),
            self.precision_bits
        );
        let _ = writeln!(out, "({}; base {})", self.conventions, self.base);
        for p in &self.law {
            let _ = writeln!(
                out,
                "  {}  {}",
                pulls_text(&p.pulls),
                interval_text(&p.probability_interval)
            );
        }
        if let Some(p) = &self.probability {
            let _ = writeln!(
                out,
                "P({}) in {}",
                pulls_text(&p.pulls),
                interval_text(&p.probability_interval)
            );
        }
        out.trim_end().to_string()
    }
}

/// A pair of laws of the check: the pulls and the two vectors of rewards
/// seen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BoundsWitness {
    /// The pull sequence, numbered from 1.
    pub actions: Vec<usize>,
    /// The rewards seen in the neighbour x′.
    pub neighbour_seen: Vec<Fraction>,
    /// The ratio's certified bound (a lower bound of P(a | x)/P(a | x′) for
    /// `max_ratio_lower`, an upper bound for `max_ratio_upper`).
    pub ratio: Decimal,
    /// The rewards seen in x (one per round).
    pub seen: Vec<Fraction>,
}

impl BoundsWitness {
    fn new(pair: &Pair, ratio: Decimal) -> BoundsWitness {
        let seen = |v: &[Q]| v.iter().map(fraction).collect();
        BoundsWitness {
            actions: pair.pulls.iter().map(|a| a + 1).collect(),
            neighbour_seen: seen(&pair.neighbour),
            ratio,
            seen: seen(&pair.seen),
        }
    }
}

/// `dpdtol privacy --method bounds` for DP-TS or Lazy-DP-TS: the certified
/// verdict from bounds on every law.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BoundsPrivacyReport {
    /// The number of arms K.
    pub actions: u64,
    /// `dp-ts` or `lazy-dp-ts`.
    pub algorithm: String,
    /// The reward values.
    pub alphabet: Vec<Fraction>,
    /// The bonus constant.
    pub bonus: Fraction,
    /// DP-TS: the round its bonus reads (null for Lazy-DP-TS).
    pub bonus_round: Option<String>,
    /// e^ε, to its certain digits.
    pub bound: Decimal,
    /// What the bounds are.
    pub bounds: String,
    /// Bounds on δ(ε) = max over neighbouring tables of Σ_a (P(a | x) − e^ε P(a | x′))₊ (null past the size limit of the table pairs).
    pub delta_interval: Option<Enclosure>,
    /// ε.
    pub epsilon: Fraction,
    /// The horizon T.
    pub horizon: String,
    /// The laws bounded (pull sequences × vectors of rewards seen).
    pub laws: u64,
    /// A certified lower bound on the largest ratio P(a | x)/P(a | x′): the largest lo/hi′.
    pub max_ratio_lower: BoundsWitness,
    /// A certified upper bound on it, the largest hi/lo′ (null when some lo′ is 0).
    pub max_ratio_upper: Option<BoundsWitness>,
    /// `bounds`.
    pub method: String,
    /// The noise scale (DP-TS: the array blocks').
    pub noise_scale: Fraction,
    /// The precision of the certified arithmetic, in bits.
    pub precision_bits: u32,
    /// The version of this report's keys.
    pub schema_version: SchemaVersion,
    /// DP-TS: the tree p-sums' per-level scale (null for Lazy-DP-TS).
    pub tree_scale: Option<Fraction>,
    /// `private` (every hi ≤ e^ε lo′), `violated` (some lo > e^ε hi′) or `undecided` (the bounds are too wide to tell).
    pub verdict: Verdict,
    /// The largest width hi − lo of a law's bounds, rounded up.
    pub width: Decimal,
}

impl BoundsPrivacyReport {
    /// The report of `check` on `law` at ε over `alphabet` and `horizon`
    /// rounds, at `bits`.
    pub fn new<R: Real>(
        law: &PrivateThompson,
        epsilon: &Q,
        alphabet: &[Q],
        horizon: usize,
        check: &BoundsCheck<R>,
        bits: u32,
    ) -> BoundsPrivacyReport {
        use crate::bandit::law::dp_ts::SandwichLaw;
        let (scale, tree, bonus, round) = law.parameters();
        let e = R::from_rational(epsilon, &check.width.context())
            .exp()
            .ok()
            .and_then(|b| b.enclosure())
            .unwrap_or_default();
        BoundsPrivacyReport {
            actions: law.arms() as u64,
            algorithm: law.name().into(),
            alphabet: alphabet.iter().map(fraction).collect(),
            bonus: fraction(bonus),
            bonus_round: matches!(law, PrivateThompson::DpTs(_)).then(|| round.name().into()),
            bound: Decimal(format_certain(&e.0, &e.1, super::DIGITS)),
            bounds: BOUNDS.into(),
            delta_interval: check.delta.as_ref().map(|(lo, hi)| {
                let one = Q::from_integer(1.into());
                let (l, _) = lo.enclosure().unwrap_or_default();
                let (_, h) = hi.enclosure().unwrap_or_default();
                let zero = Q::from_integer(0.into());
                Enclosure([bound(&l.max(zero), Dir::Down), bound(&h.min(one), Dir::Up)])
            }),
            epsilon: fraction(epsilon),
            horizon: horizon.to_string(),
            laws: check.laws,
            max_ratio_lower: BoundsWitness::new(&check.ratio_lower.1, lower(&check.ratio_lower.0)),
            max_ratio_upper: check
                .ratio_upper
                .as_ref()
                .map(|(r, pair)| BoundsWitness::new(pair, upper(r))),
            method: "bounds".into(),
            noise_scale: fraction(scale),
            precision_bits: bits,
            schema_version: SchemaVersion,
            tree_scale: tree.map(fraction),
            verdict: check.verdict,
            width: upper(&check.width),
        }
    }
}

impl Human for BoundsPrivacyReport {
    fn human(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{}: {} at ε = {} on {} rounds over {{{}}}: {} laws bounded (certified bounds, widest {}, at {} bits)",
            self.algorithm,
            self.verdict.name().to_uppercase(),
            self.epsilon,
            self.horizon,
            self.alphabet.iter().map(|a| a.0.clone()).collect::<Vec<_>>().join(", "),
            self.laws,
            short(&self.width, Dir::Up),
            self.precision_bits
        );
        let witness = |w: &BoundsWitness| {
            format!(
                "pulls {} with rewards seen {} against {}",
                sequence_text(std::slice::from_ref(&w.actions)),
                sequence_text(std::slice::from_ref(&w.seen)),
                sequence_text(std::slice::from_ref(&w.neighbour_seen))
            )
        };
        let _ = writeln!(
            out,
            "  largest ratio ≥ {} ({})",
            short(&self.max_ratio_lower.ratio, Dir::Down),
            witness(&self.max_ratio_lower)
        );
        match &self.max_ratio_upper {
            Some(w) => {
                let _ = writeln!(
                    out,
                    "  largest ratio ≤ {} ({})",
                    short(&w.ratio, Dir::Up),
                    witness(w)
                );
            }
            None => {
                let _ = writeln!(
                    out,
                    "  largest ratio: no finite upper bound (a lower bound is 0)"
                );
            }
        }
        let _ = writeln!(
            out,
            "  e^ε = {}",
            &self.bound.0[..self.bound.0.len().min(SHORT + 1)]
        );
        if let Some(d) = &self.delta_interval {
            let _ = writeln!(out, "  δ(ε) in {}", interval_text(d));
        }
        out.trim_end().to_string()
    }
}
