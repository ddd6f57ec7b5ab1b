//! The result of `dpdtol privacy` on an online algorithm: the exhaustive
//! check's [`Report`] as it is written, and read back as a shard of a run.
//!
//! The keys every privacy check shares — the verdict, the maximum ratio with
//! its enclosure, e^ε, the witness — are one type, [`VerdictKeys`]; the check
//! of a full-information algorithm adds the problem, the algorithm and what
//! a merge needs ([`PrivacyReport`]).

use super::{
    decimal, enclosure, fraction, Decimal, Enclosure, Fraction, Human, NumberKind, SchemaVersion,
    DIGITS,
};
use crate::algorithm::{Algorithm, AlgorithmId, Config};
use crate::error::{Error, Result};
use crate::mechanism::Noise;
use crate::num::{certain_digits, format_certain, parse_rational, Certified, Kind, Precision, Q};
use crate::privacy::delta::DeltaCheck;
use crate::privacy::{decide, Method, Problem, Ratio, Report, Shard, Verdict, Witness};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::fmt::Write;

/// The fewest certain significant digits that `digits_certain` asks of the
/// decimals `max_ratio` and `bound`.
const MIN_DIGITS: usize = 30;

/// The longest number string read from a shard.
const MAX_NUMBER_CHARS: usize = 20_000;

/// The witness of a maximum: two neighbouring inputs, the actions whose
/// probabilities' ratio is largest, and that ratio.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WitnessKeys {
    /// The actions (pulls), numbered from 1.
    pub actions: Vec<u64>,
    /// The input x: one vector of K values a round.
    pub losses: Vec<Vec<Fraction>>,
    /// Its neighbour x′: x with one round replaced.
    pub neighbour: Vec<Vec<Fraction>>,
    /// P(actions | x) / P(actions | x′), to its certain digits (`inf` when P(actions | x′) = 0).
    pub ratio: Decimal,
    /// An enclosure of the ratio (null when infinite).
    pub ratio_interval: Option<Enclosure>,
    /// The round (from 1) where x and x′ differ.
    pub round: u64,
    /// P(actions | x), to its certain digits (where given).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub probability: Option<Decimal>,
    /// An enclosure of P(actions | x).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub probability_interval: Option<Enclosure>,
    /// P(actions | x′), to its certain digits (where given).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub neighbour_probability: Option<Decimal>,
    /// An enclosure of P(actions | x′).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub neighbour_probability_interval: Option<Enclosure>,
    /// Bandit checks: the reward table x, the same as `losses` (which names
    /// it in every privacy report).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rewards: Option<Vec<Vec<Fraction>>>,
}

impl WitnessKeys {
    /// The witness with the enclosures `[x, x′]` of its two probabilities
    /// P(actions | x) and P(actions | x′) added.
    pub fn with_probabilities(self, [p, q]: &[(Q, Q); 2]) -> WitnessKeys {
        let decimal = |(lo, hi): &(Q, Q)| Decimal(format_certain(lo, hi, DIGITS));
        let interval = |(lo, hi): &(Q, Q)| {
            Enclosure([
                super::bound(lo, crate::num::Dir::Down),
                super::bound(hi, crate::num::Dir::Up),
            ])
        };
        WitnessKeys {
            probability: Some(decimal(p)),
            probability_interval: Some(interval(p)),
            neighbour_probability: Some(decimal(q)),
            neighbour_probability_interval: Some(interval(q)),
            ..self
        }
    }
}

/// The keys every exhaustive privacy check writes: the verdict against e^ε,
/// the maximum ratio, and where it is attained.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct VerdictKeys {
    /// Whether the maximum equals e^ε exactly (then the verdict is private).
    pub attained: bool,
    /// e^ε, to its certain digits.
    pub bound: Decimal,
    /// An enclosure of e^ε.
    pub bound_interval: Option<Enclosure>,
    /// Whether `max_ratio` and `bound` both carry at least 30 certain digits.
    pub digits_certain: bool,
    /// `exact` (rational laws) or `certified` (enclosures).
    pub kind: NumberKind,
    /// The maximum privacy-loss ratio over every ordered neighbour pair, to its certain digits (`inf` when some neighbour gives probability 0 where the other does not).
    pub max_ratio: Decimal,
    /// The maximum as an exact rational, when the laws are exact; else null.
    pub max_ratio_exact: Option<Fraction>,
    /// An enclosure of the maximum (null when infinite).
    pub max_ratio_interval: Option<Enclosure>,
    /// How the maximum was searched: `structural` or `enumeration`.
    pub method: Method,
    /// The number of ordered pairs (or structural candidates) checked; null where it is not counted.
    pub pairs: Option<u64>,
    /// The precision of the certified laws, in bits; null when exact.
    pub precision_bits: Option<u32>,
    /// `private`, `violated` or `undecided` (the enclosures overlap at the largest precision).
    pub verdict: Verdict,
    /// Where the maximum is attained.
    pub witness: WitnessKeys,
    /// With `--delta D` only: the (ε, δ) check from the whole laws.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delta: Option<DeltaKeys>,
}

/// The (ε, δ) check of `--delta D`: δ(ε) = max over ordered neighbour pairs
/// (x, x′) of Σ_a (P(a | x) − e^ε P(a | x′))₊, from the whole law of both
/// inputs, against D.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeltaKeys {
    /// The closed form of δ(ε), Σ c·e^λ over Σ c·e^λ, when it was decided in the exact field Q(e^(1/q)) and is not rational; else null.
    pub closed_form: Option<String>,
    /// δ(ε) as an exact rational, when it is one; else null.
    pub exact: Option<Fraction>,
    /// An enclosure of δ(ε).
    pub interval: Enclosure,
    /// `exact` (every term's sign decided: rational laws, or the exact field) or `certified` (enclosures; a term whose sign is open adds its upper end to the upper bound only).
    pub kind: NumberKind,
    /// The outputs of each law (action, pull or selection sequences).
    pub outputs: u64,
    /// The ordered neighbour pairs compared.
    pub pairs: u64,
    /// The precision of the certified laws, in bits; null when exact.
    pub precision_bits: Option<u32>,
    /// D, the δ checked: the verdict is private iff δ(ε) ≤ D certainly.
    pub target: Fraction,
    /// δ(ε), to its certain digits.
    pub value: Decimal,
    /// `private` (δ(ε) ≤ D), `violated` (δ(ε) > D) or `undecided` (the enclosure straddles D).
    pub verdict: Verdict,
    /// The pair of largest δ.
    pub witness: DeltaWitness,
}

/// The neighbouring pair of largest δ.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeltaWitness {
    /// Σ_a (P(a | x) − e^ε P(a | x′))₊ of the pair, to its certain digits.
    pub delta: Decimal,
    /// An enclosure of the pair's δ.
    pub delta_interval: Enclosure,
    /// The input x: one vector of K values a round.
    pub losses: Vec<Vec<Fraction>>,
    /// Its neighbour x′.
    pub neighbour: Vec<Vec<Fraction>>,
    /// The row (from 1) where x and x′ differ: the round, unless a bandit's
    /// table is read by pull.
    pub round: u64,
    /// The arm (from 1) of the one entry of that row that differs, when
    /// neighbouring tables differ in one entry (a bandit table read by pull,
    /// where a row is no round's data); absent when they differ in a row.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arm: Option<u64>,
}

impl DeltaKeys {
    /// The keys of a check.
    pub fn of(c: &DeltaCheck) -> DeltaKeys {
        let decimal = |lo: &Q, hi: &Q| Decimal(format_certain(lo, hi, DIGITS));
        let interval = |lo: &Q, hi: &Q| {
            Enclosure([
                super::bound(lo, crate::num::Dir::Down),
                super::bound(hi, crate::num::Dir::Up),
            ])
        };
        DeltaKeys {
            closed_form: c.closed_form.clone(),
            exact: c.exact.as_ref().map(fraction),
            interval: interval(&c.lo, &c.hi),
            kind: c.kind.into(),
            outputs: c.outputs,
            pairs: c.pairs,
            precision_bits: c.precision.map(|p| p.0),
            target: fraction(&c.target),
            value: match &c.exact {
                Some(q) => decimal(q, q),
                None => decimal(&c.lo, &c.hi),
            },
            verdict: c.verdict,
            witness: DeltaWitness {
                delta: decimal(&c.witness.0, &c.witness.1),
                delta_interval: interval(&c.witness.0, &c.witness.1),
                losses: vectors(&c.input),
                neighbour: vectors(&c.neighbour),
                round: c.round as u64,
                arm: c.arm.map(|a| a as u64 + 1),
            },
        }
    }

    /// The δ line of a privacy paragraph.
    pub fn line(&self) -> String {
        let verdict = match self.verdict {
            Verdict::Private => "(ε, δ) PRIVATE",
            Verdict::Violated => "(ε, δ) VIOLATED",
            Verdict::Undecided => "(ε, δ) UNDECIDED",
        };
        let relation = match self.verdict {
            Verdict::Private => "<=",
            Verdict::Violated => ">",
            Verdict::Undecided => "~",
        };
        let how = match (&self.exact, &self.closed_form) {
            (Some(q), _) => format!("exact, = {q}"),
            (None, Some(form)) => format!("exact, = {form}"),
            _ => format!(
                "certified at {} bits, in {}",
                self.precision_bits.unwrap_or(0),
                enclosure_text(Some(&self.interval))
            ),
        };
        let w = &self.witness;
        let replaced = match w.arm {
            Some(arm) => format!("row {}, arm {arm}", w.round),
            None => format!("round {}", w.round),
        };
        format!(
            "{verdict}: δ(ε) {} {relation} δ = {} ({how}; {} ordered pairs, {} outputs each)\n  δ witness, {replaced} replaced: {} against {}, δ = {}\n",
            self.value,
            self.target,
            self.pairs,
            self.outputs,
            sequence_text(&w.losses),
            sequence_text(&w.neighbour),
            w.delta
        )
    }
}

impl VerdictKeys {
    /// The keys of `r`, whose witness's changed round is `round`.
    pub fn of(r: &Report, round: usize) -> VerdictKeys {
        VerdictKeys {
            attained: r.attained,
            bound: bound_decimal(&r.bound),
            bound_interval: enclosure(&r.bound),
            digits_certain: digits_certain(&r.max_ratio, &r.bound),
            kind: r.kind.into(),
            max_ratio: ratio_decimal(&r.max_ratio),
            max_ratio_exact: match &r.max_ratio {
                Ratio::Exact(q) => Some(fraction(q)),
                _ => None,
            },
            max_ratio_interval: ratio_enclosure(&r.max_ratio),
            method: r.method,
            pairs: Some(r.pairs),
            precision_bits: r.precision.map(|p| p.0),
            verdict: r.verdict,
            witness: WitnessKeys {
                actions: r.witness.actions.iter().map(|&a| a as u64 + 1).collect(),
                losses: vectors(&r.witness.losses),
                neighbour: vectors(&r.witness.neighbour),
                ratio: ratio_decimal(&r.witness.ratio),
                ratio_interval: ratio_enclosure(&r.witness.ratio),
                round: round as u64,
                probability: None,
                probability_interval: None,
                neighbour_probability: None,
                neighbour_probability_interval: None,
                rewards: None,
            },
            delta: None,
        }
    }
}

/// Input vectors as exact rationals.
pub fn vectors(rows: &[Vec<Q>]) -> Vec<Vec<Fraction>> {
    rows.iter()
        .map(|v| v.iter().map(fraction).collect())
        .collect()
}

/// A ratio as a decimal (`inf` when infinite): an exact value to [`DIGITS`]
/// significant digits, an enclosure to the digits on which both ends round
/// alike.
pub fn ratio_decimal(ratio: &Ratio) -> Decimal {
    match ratio {
        Ratio::Infinite => Decimal("inf".into()),
        Ratio::Exact(q) => decimal(q),
        Ratio::Certified { lo, hi } => Decimal(format_certain(lo, hi, DIGITS)),
    }
}

/// The enclosure of a ratio, its ends rounded outward (null when infinite).
pub fn ratio_enclosure(ratio: &Ratio) -> Option<Enclosure> {
    let lo = enclosure(ratio.lo()?)?;
    let hi = enclosure(ratio.hi()?)?;
    let [lo, _] = lo.0;
    let [_, hi] = hi.0;
    Some(Enclosure([lo, hi]))
}

/// e^ε to the digits its enclosure certifies.
pub fn bound_decimal(bound: &Certified) -> Decimal {
    use crate::num::Real;
    match bound.enclosure() {
        Some((lo, hi)) => Decimal(format_certain(&lo, &hi, DIGITS)),
        None => decimal(bound),
    }
}

/// Whether the decimals of a maximum ratio and of e^ε carry at least
/// `MIN_DIGITS` digits: every digit printed is certain, but an enclosure
/// may certify fewer.
pub fn digits_certain(max_ratio: &Ratio, bound: &Certified) -> bool {
    use crate::num::Real;
    let agree =
        |lo: &Q, hi: &Q| certain_digits(lo, hi, DIGITS).is_some_and(|(_, d)| d >= MIN_DIGITS);
    let ratio = match max_ratio {
        Ratio::Certified { lo, hi } => agree(lo, hi),
        _ => true,
    };
    ratio && bound.enclosure().is_some_and(|(lo, hi)| agree(&lo, &hi))
}

/// The string `"inf"`: an infinite ratio.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum Infinite {
    /// `"inf"`.
    #[serde(rename = "inf")]
    Inf,
}

/// A ratio with its exact rational bounds: what a merge compares.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged, deny_unknown_fields)]
pub enum ExactRatio {
    /// `"inf"`.
    Infinite(Infinite),
    /// `{"exact": q}`.
    Exact {
        /// The ratio.
        exact: Fraction,
    },
    /// `{"lo": a, "hi": b}`: a ≤ ratio ≤ b.
    Enclosed {
        /// A lower bound.
        lo: Fraction,
        /// An upper bound.
        hi: Fraction,
    },
}

impl ExactRatio {
    /// The bounds of `ratio`.
    pub fn of(ratio: &Ratio) -> ExactRatio {
        match ratio {
            Ratio::Infinite => ExactRatio::Infinite(Infinite::Inf),
            Ratio::Exact(q) => ExactRatio::Exact { exact: fraction(q) },
            Ratio::Certified { lo, hi } => ExactRatio::Enclosed {
                lo: fraction(lo),
                hi: fraction(hi),
            },
        }
    }

    /// The ratio these bounds write, read exactly (`key` names the field in
    /// an error).
    pub fn read(&self, key: &str) -> Result<Ratio> {
        Ok(match self {
            ExactRatio::Infinite(_) => Ratio::Infinite,
            ExactRatio::Exact { exact } => Ratio::Exact(number(key, exact)?),
            ExactRatio::Enclosed { lo, hi } => Ratio::Certified {
                lo: number(key, lo)?,
                hi: number(key, hi)?,
            },
        })
    }
}

/// What a merge of shards needs beyond the printed keys: the maximum and the
/// witness's ratio with exact bounds, and the witness's place in the
/// enumeration (the tie-break between equal maxima).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MergeKeys {
    /// The maximum ratio's exact bounds.
    pub max_ratio: ExactRatio,
    /// The index of the witness's neighbour x′ in the enumeration (0 for the structural method).
    pub neighbour_sequence: u64,
    /// The index of the witness's x in the enumeration, or of its structural candidate.
    pub sequence: u64,
    /// A shard's only (`I/N`, N > 1): per unit of its range of loss
    /// sequences (enumeration) or candidates (structural) — at most 64
    /// contiguous sub-ranges tiling it, unit `j` of `L` items from `s`
    /// holding `s + ⌊jL/U⌋ ≤ index < s + ⌊(j+1)L/U⌋` — the unit's maximum
    /// ratio's exact bounds, in the shard's backend and precision;
    /// `max_ratio` is their fold, and a merge recomputes a sample. For a
    /// shard whose verdict was decided exactly on its witness (attained or
    /// violated in the field Q(e^(1/q))): the units of its last certified
    /// pass, or of the first certified pass above when none completed
    /// before (`units_precision_bits`). A merge refuses a shard without
    /// them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub units: Option<Vec<ExactRatio>>,
    /// Beside `units`, for a shard whose verdict was decided exactly on its
    /// witness after certified passes left it open (an attained maximum, or
    /// a violation): the precision in bits of the last certified pass, which
    /// searched the units. Their fold then encloses `max_ratio` instead of
    /// equalling it, and a merge decides a recomputed unit of a private
    /// shard exactly when its enclosure does not exclude a ratio above e^ε.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub units_precision_bits: Option<u32>,
    /// The witness's ratio's exact bounds.
    pub witness_ratio: ExactRatio,
}

/// The result of the exhaustive privacy check of a full-information online
/// algorithm on every pair of neighbouring loss sequences over a finite
/// alphabet (one shard of it, or the whole run).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PrivacyReport {
    /// The number of actions K.
    pub actions: u64,
    /// The algorithm's id.
    pub algorithm: String,
    /// The values each loss takes.
    pub alphabet: Vec<Fraction>,
    /// The ε checked.
    pub epsilon: Fraction,
    /// The horizon t, as a string of the integer.
    pub horizon: String,
    /// What a merge of shards reads.
    pub merge: MergeKeys,
    /// The noise (null for ftl).
    pub noise: Option<Noise>,
    /// The noise scale in use (for prefix-softmax and hedge, the temperature 1/η; for decreasing-hedge, 1/c in η_t = c·√(ln K / t)); null for ftl.
    pub noise_scale: Option<Fraction>,
    /// wu-wang's Bernoulli resampling.
    pub resample: bool,
    /// The version of this report's keys.
    pub schema_version: SchemaVersion,
    /// Which part of the enumeration: `I/N` (`1/1` for the whole run).
    pub shard: String,
    /// A merged report only: what the merge re-verified by searching the
    /// shards' units again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spot_check: Option<super::merge::SpotCheck>,
    /// The verdict, the maximum and the witness.
    #[serde(flatten)]
    pub verdict: VerdictKeys,
    /// Why the laws are not exact (null when they are).
    pub why_not_exact: Option<String>,
}

/// The algorithm as a privacy report names it: its noise and the scale in
/// use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Described {
    /// The algorithm.
    pub id: AlgorithmId,
    /// Its noise (`None` for ftl).
    pub noise: Option<Noise>,
    /// The noise scale in use (prefix-softmax: the temperature 1/η).
    pub scale: Option<Q>,
    /// wu-wang's Bernoulli resampling.
    pub resample: bool,
}

impl Described {
    /// The algorithm `config` builds, as reports name it.
    pub fn of(config: &Config, algorithm: &Algorithm) -> Described {
        let (noise, scale) = match algorithm {
            Algorithm::Ftl(_) => (None, None),
            Algorithm::EpochRnm(a) => (
                Some(if config.id == AlgorithmId::WuWang {
                    config.noise.unwrap_or(Noise::Laplace)
                } else {
                    Noise::Laplace
                }),
                Some(a.scale().clone()),
            ),
            Algorithm::PrefixSoftmax(a) => (Some(Noise::Gumbel), Some(a.eta().recip())),
            Algorithm::Hedge(a) => (Some(Noise::Gumbel), Some(a.noise_scale().clone())),
        };
        Described {
            id: config.id,
            noise,
            scale,
            resample: config.resample,
        }
    }

    /// The algorithm in words: `wu-wang (gumbel noise, scale 2)`.
    pub fn text(&self) -> String {
        algorithm_text(
            self.id.name(),
            self.noise,
            self.scale.as_ref().map(fraction).as_ref(),
            self.resample,
        )
    }

    /// Rebuild the algorithm this names for `report`'s problem, and check
    /// that it is named so ([`Described::of`]).
    pub fn rebuild(&self, report: &Report) -> Result<Algorithm> {
        let config = Config {
            id: self.id,
            actions: report.actions,
            epsilon: report.problem.epsilon.clone(),
            noise: self.noise.filter(|_| self.id == AlgorithmId::WuWang),
            noise_scale: self.scale.clone(),
            resample: self.resample,
        };
        // Only K's range is checked before the algorithm is built from it (on
        // one round: the structural method's horizons go far past enumeration).
        let one_round = Problem::new(
            1,
            report.problem.alphabet.clone(),
            report.problem.epsilon.clone(),
        )?;
        crate::privacy::Space::powers(report.actions, &one_round)?;
        let algorithm = config.build()?;
        if Described::of(&config, &algorithm) != *self {
            return Err(Error::InvalidInput(format!(
                "the noise and scale named ({}) are not those of {}",
                self.text(),
                self.id
            )));
        }
        Ok(algorithm)
    }
}

/// An algorithm in words, from the names a report gives: `wu-wang (gumbel
/// noise, scale 2)`, `prefix-softmax (softmax, temperature 1/η = 8)`,
/// `decreasing-hedge (softmax, η_t = c·√(ln K / t), 1/c = 1/2)`, `ftl`.
pub fn algorithm_text(
    id: &str,
    noise: Option<Noise>,
    scale: Option<&Fraction>,
    resample: bool,
) -> String {
    let mut out = id.to_string();
    match (noise, scale) {
        (Some(Noise::Gumbel), Some(s))
            if id == AlgorithmId::PrefixSoftmax.name() || id == AlgorithmId::Hedge.name() =>
        {
            let _ = write!(out, " (softmax, temperature 1/η = {s})");
        }
        (Some(Noise::Gumbel), Some(s)) if id == AlgorithmId::DecreasingHedge.name() => {
            let _ = write!(out, " (softmax, η_t = c·√(ln K / t), 1/c = {s})");
        }
        (Some(noise), Some(s)) => {
            let _ = write!(out, " ({noise} noise, scale {s}");
            if resample {
                out.push_str(", Bernoulli resampling");
            }
            out.push(')');
        }
        _ => {}
    }
    out
}

/// A field of a shard that is malformed.
pub fn field(name: &str) -> Error {
    Error::InvalidInput(format!(
        "field '{name}' is missing or malformed (not the --json output of dpdtol privacy)"
    ))
}

/// A number of a shard (field `name`), at most `MAX_NUMBER_CHARS` long,
/// read exactly.
pub fn number_field(name: &str, text: &str) -> Result<Q> {
    if text.len() > MAX_NUMBER_CHARS {
        return Err(Error::InvalidInput(format!(
            "field '{name}' is a number of {} characters (at most {MAX_NUMBER_CHARS})",
            text.len()
        )));
    }
    parse_rational(text).map_err(|_| field(name))
}

fn number(name: &str, text: &Fraction) -> Result<Q> {
    number_field(name, &text.0)
}

/// Enclosures of the witness's two probabilities P(actions | x) and
/// P(actions | x′) ([`crate::privacy::witness_probabilities`]).
pub type Probabilities = [(Q, Q); 2];

/// A check of a full-information algorithm: the algorithm, the checker's
/// report, and its witness's probabilities.
pub type Checked = (Described, Report, Probabilities);

impl PrivacyReport {
    /// The report of `r`, a check of the algorithm `described` whose
    /// witness has the probabilities `probabilities`.
    pub fn new(described: &Described, r: &Report, probabilities: &Probabilities) -> PrivacyReport {
        let mut verdict = VerdictKeys::of(r, r.witness.round);
        verdict.witness = verdict.witness.with_probabilities(probabilities);
        let shard_units = r.shard != Shard::WHOLE && !r.units.is_empty();
        PrivacyReport {
            actions: r.actions as u64,
            algorithm: described.id.name().to_string(),
            alphabet: r.problem.alphabet.iter().map(fraction).collect(),
            epsilon: fraction(&r.problem.epsilon),
            horizon: r.problem.horizon.to_string(),
            merge: MergeKeys {
                max_ratio: ExactRatio::of(&r.max_ratio),
                neighbour_sequence: r.witness.neighbour_sequence,
                sequence: r.witness.sequence,
                units: shard_units.then(|| r.units.iter().map(ExactRatio::of).collect()),
                units_precision_bits: r.units_precision.filter(|_| shard_units).map(|p| p.0),
                witness_ratio: ExactRatio::of(&r.witness.ratio),
            },
            noise: described.noise,
            noise_scale: described.scale.as_ref().map(fraction),
            resample: described.resample,
            schema_version: SchemaVersion,
            shard: r.shard.to_string(),
            spot_check: None,
            verdict,
            why_not_exact: r.why_not_exact.clone(),
        }
    }

    /// The check this report writes, read back: every field's value is
    /// checked for its type and range here; the verdict is decided again
    /// from `merge.max_ratio`. The witness is re-evaluated by
    /// [`crate::privacy::recheck`], and the whole report compared with
    /// [`PrivacyReport::new`] of what is read, by the merge.
    pub fn read(&self) -> Result<(Described, Report)> {
        let epsilon = number("epsilon", &self.epsilon)?;
        let alphabet = self
            .alphabet
            .iter()
            .map(|x| number("alphabet", x))
            .collect::<Result<Vec<Q>>>()?;
        let horizon: usize = self.horizon.parse().map_err(|_| field("horizon"))?;
        let size = |name: &str, n: u64| usize::try_from(n).map_err(|_| field(name));
        let problem = Problem::new(horizon, alphabet, epsilon.clone())?;
        let max_ratio = self.merge.max_ratio.read("merge.max_ratio")?;
        let keys = &self.verdict;
        let precision = keys.precision_bits.map(Precision);
        if let Some(p) = precision.filter(|p| p.0 > crate::privacy::MAX_PRECISION) {
            // Refused before the verdict is decided at that precision.
            return Err(Error::InvalidInput(format!(
                "precision_bits is {}, above the checker's largest precision {}",
                p.0,
                crate::privacy::MAX_PRECISION
            )));
        }
        let (enclosed, bound) = decide(&max_ratio, &epsilon, precision.map_or(0, |p| p.0))?;
        // An exact decision in the field Q(w) (an attained maximum, or a
        // difference the enclosures leave open) may settle what the
        // enclosure does not: `recheck` then decides the witness again,
        // exactly.
        let verdict = match (enclosed, keys.verdict) {
            (v, claimed) if claimed == v => v,
            (Verdict::Undecided, claimed) if claimed != Verdict::Undecided => claimed,
            (v, claimed) => {
                return Err(Error::InvalidInput(format!(
                    "verdict is '{}', but its max_ratio gives '{}'",
                    claimed.name(),
                    v.name()
                )));
            }
        };
        // Certified laws say why they are not exact; exact ones do not.
        let kind = match (keys.kind, &self.why_not_exact) {
            (NumberKind::Exact, None) => Kind::Exact,
            (NumberKind::Certified, Some(_)) => Kind::Certified,
            (NumberKind::Approximate, _) => return Err(field("kind")),
            _ => {
                return Err(Error::InvalidInput(
                    "fields 'kind' and 'why_not_exact' disagree (certified laws say why they are not exact, exact laws do not)".into(),
                ))
            }
        };
        let vectors = |name: &str, rows: &[Vec<Fraction>]| -> Result<Vec<Vec<Q>>> {
            rows.iter()
                .map(|row| row.iter().map(|x| number(name, x)).collect())
                .collect()
        };
        let w = &keys.witness;
        let report = Report {
            problem,
            actions: size("actions", self.actions)?,
            max_ratio,
            witness: Witness {
                losses: vectors("witness.losses", &w.losses)?,
                neighbour: vectors("witness.neighbour", &w.neighbour)?,
                actions: w
                    .actions
                    .iter()
                    .map(|&a| {
                        a.checked_sub(1)
                            .and_then(|a| usize::try_from(a).ok())
                            .ok_or_else(|| field("witness.actions"))
                    })
                    .collect::<Result<_>>()?,
                round: size("witness.round", w.round)?,
                ratio: self.merge.witness_ratio.read("merge.witness_ratio")?,
                sequence: self.merge.sequence,
                neighbour_sequence: self.merge.neighbour_sequence,
            },
            verdict,
            attained: keys.attained,
            method: keys.method,
            bound,
            pairs: keys.pairs.ok_or_else(|| field("pairs"))?,
            kind,
            precision,
            shard: self.shard.parse::<Shard>().map_err(|_| field("shard"))?,
            why_not_exact: self.why_not_exact.clone(),
            units: match &self.merge.units {
                Some(units) => units
                    .iter()
                    .enumerate()
                    .map(|(j, u)| u.read(&format!("merge.units[{j}]")))
                    .collect::<Result<_>>()?,
                None => Vec::new(),
            },
            units_precision: match self.merge.units_precision_bits {
                Some(bits) if bits == 0 || bits > crate::privacy::MAX_PRECISION => {
                    return Err(Error::InvalidInput(format!(
                        "merge.units_precision_bits is {bits}, not a precision of the checker (1 to {})",
                        crate::privacy::MAX_PRECISION
                    )))
                }
                bits => bits.map(Precision),
            },
        };
        let described = Described {
            id: self.algorithm.parse()?,
            noise: self.noise,
            scale: self
                .noise_scale
                .as_ref()
                .map(|s| number("noise_scale", s))
                .transpose()?,
            resample: self.resample,
        };
        Ok((described, report))
    }
}

impl super::merge::Part for PrivacyReport {
    type Content = Checked;

    const WRITER: &'static str = "dpdtol privacy";

    /// [`PrivacyReport::read`], then the algorithm rebuilt from its names,
    /// the units checked to tile the shard with their fold its maximum and
    /// the witness in a unit attaining it, and the witness re-evaluated
    /// ([`crate::privacy::recheck`]) with its two probabilities. A unit that
    /// under-reports its maximum is caught by searching it again
    /// ([`super::merge::Units`]); a forged witness always is.
    fn check(&self) -> Result<Checked> {
        let (described, report) = self.read()?;
        let algorithm = described.rebuild(&report)?;
        crate::privacy::recheck(&algorithm, &report)?;
        let probabilities = crate::privacy::witness_probabilities(&algorithm, &report)?;
        Ok((described, report, probabilities))
    }

    fn written((described, report, probabilities): &Checked) -> PrivacyReport {
        PrivacyReport::new(described, report, probabilities)
    }
}

/// The `algorithm` of a one-shot selection's privacy report
/// (`privacy --mechanism`, [`super::one_shot_privacy`]).
pub const ONE_SHOT_ALGORITHM: &str = "report-noisy-max";

/// The shards of one full-information check merge by [`merge`]. A one-shot
/// selection's report (`--mechanism`) is refused by its name: it is never
/// split.
impl super::merge::Whole for PrivacyReport {
    fn kind(name: &str, value: &serde_json::Value) -> Result<()> {
        if value.get("algorithm").and_then(serde_json::Value::as_str) == Some(ONE_SHOT_ALGORITHM) {
            return Err(Error::InvalidInput(format!(
                "{name} is the report of a one-shot selection (--mechanism), which is not split into shards: there is nothing to merge"
            )));
        }
        Ok(())
    }

    fn merge(parts: Vec<(String, Checked)>) -> Result<Checked> {
        merge(parts)
    }

    fn with_spot_check(self, spot_check: super::merge::SpotCheck) -> PrivacyReport {
        PrivacyReport {
            spot_check: Some(spot_check),
            ..self
        }
    }
}

/// A full-information check's units are sub-ranges of its shard's loss
/// sequences or candidates ([`crate::privacy::units_of`]): unit `j` is
/// recomputed by searching its items again with the shard's method, backend
/// and precision ([`crate::privacy::unit_max`]) and comparing the maximum
/// with `merge.units[j]` exactly.
impl super::merge::Units for Checked {
    fn shard(&self) -> Shard {
        self.1.shard
    }

    fn unit_count(&self) -> u64 {
        self.1.units.len() as u64
    }

    fn recompute(&self, unit: u64) -> Result<()> {
        let (described, report, _) = self;
        let algorithm = described.rebuild(report)?;
        let range = usize::try_from(unit)
            .ok()
            .and_then(|j| {
                crate::privacy::unit_ranges(&algorithm, report)
                    .ok()?
                    .get(j)
                    .cloned()
            })
            .ok_or_else(|| Error::InvalidInput(format!("unit {unit}: not a unit of the shard")))?;
        let within = |e: Error| e.within(&format!("unit {unit}"));
        let again = crate::privacy::unit_max(
            &algorithm,
            &report.problem,
            report.method,
            range.clone(),
            report.units_precision.or(report.precision),
        )
        .map_err(within)?;
        let refuse = |what: &str| {
            Error::InvalidInput(format!(
                "unit {unit} ({} {}..{}): {what} (altered, or not this shard's)",
                match report.method {
                    Method::Structural => "candidates",
                    Method::Enumeration => "loss sequences",
                },
                range.start,
                range.end
            ))
        };
        if report.units.get(unit as usize) != Some(&again) {
            return Err(refuse(&format!(
                "field 'merge.units[{unit}]' is not what searching the unit again gives"
            )));
        }
        // A private shard says that no pair exceeds e^ε, which a unit's
        // enclosure may leave open (the shard was then decided in the exact
        // field): decide such a unit exactly, as the check decided the shard.
        if report.verdict == Verdict::Private {
            let bits = report
                .units_precision
                .or(report.precision)
                .unwrap_or(Precision(128));
            let (enclosed, _) = decide(&again, &report.problem.epsilon, bits.0)?;
            let verdict = match enclosed {
                Verdict::Undecided => crate::privacy::unit_decided_exactly(
                    &algorithm,
                    &report.problem,
                    report.method,
                    range.clone(),
                    bits,
                )
                .map_err(within)?,
                decided => decided,
            };
            if verdict == Verdict::Violated {
                return Err(refuse(
                    "a pair of the unit has a ratio above e^ε, where the shard's verdict is private",
                ));
            }
        }
        Ok(())
    }
}

/// The whole run from the checked parts of one run: they must check the
/// same algorithm, problem and K, and cover every shard exactly once
/// ([`crate::privacy::merge`]); the witness's probabilities are those of
/// the part whose witness it is.
pub fn merge(parts: Vec<(String, Checked)>) -> Result<Checked> {
    let mut described: Option<Described> = None;
    let mut reports = Vec::with_capacity(parts.len());
    let mut witnesses = Vec::with_capacity(parts.len());
    for (name, (d, r, p)) in parts {
        match &described {
            Some(first) if *first != d => {
                return Err(Error::InvalidInput(format!(
                    "{name} checks {}, the others {}",
                    d.text(),
                    first.text()
                )));
            }
            Some(_) => {}
            None => described = Some(d),
        }
        witnesses.push((r.witness.clone(), p));
        reports.push(r);
    }
    let merged = crate::privacy::merge(&reports)?;
    let described = described.ok_or_else(|| Error::InvalidInput("nothing to merge".into()))?;
    let probabilities = witnesses
        .into_iter()
        .find(|(w, _)| *w == merged.witness)
        .map(|(_, p)| p)
        .ok_or_else(|| Error::InvalidInput("the merged witness is no part's".into()))?;
    Ok((described, merged, probabilities))
}

/// Input vectors in words: `(0,1) (1/2,0)`.
pub fn sequence_text<T: std::fmt::Display>(rows: &[Vec<T>]) -> String {
    rows.iter()
        .map(|v| {
            format!(
                "({})",
                v.iter().map(T::to_string).collect::<Vec<_>>().join(",")
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

impl VerdictKeys {
    /// The verdict's line of a privacy paragraph: the verdict, the maximum
    /// ratio and its relation to e^ε.
    pub fn line(&self) -> String {
        let (verdict, relation) = match self.verdict {
            Verdict::Private if self.attained => ("PRIVATE (maximum attained)", "="),
            Verdict::Private => ("PRIVATE", "<="),
            Verdict::Violated => ("VIOLATED", ">"),
            Verdict::Undecided => ("UNDECIDED", "~"),
        };
        let mut line = format!(
            "{verdict}: max privacy-loss ratio {} {relation} e^ε = {}\n",
            self.max_ratio, self.bound
        );
        if let Some(delta) = &self.delta {
            line.push_str(&delta.line());
        }
        line
    }
}

/// An enclosure in words, `[lo, hi]` (`[?, ?]` when there is none).
fn enclosure_text(e: Option<&Enclosure>) -> String {
    match e {
        Some(Enclosure([lo, hi])) => format!("[{lo}, {hi}]"),
        None => "[?, ?]".into(),
    }
}

/// A paragraph: the problem, the verdict, the maximum ratio, the witness
/// and what was checked.
impl Human for PrivacyReport {
    fn human(&self) -> String {
        let mut out = String::new();
        let alphabet: Vec<&str> = self.alphabet.iter().map(|a| a.0.as_str()).collect();
        let _ = writeln!(
            out,
            "{}, K = {}, horizon {}, alphabet {{{}}}, ε = {}{}:",
            algorithm_text(
                &self.algorithm,
                self.noise,
                self.noise_scale.as_ref(),
                self.resample
            ),
            self.actions,
            self.horizon,
            alphabet.join(", "),
            self.epsilon,
            if self.shard == Shard::WHOLE.to_string() {
                String::new()
            } else {
                format!(", shard {}", self.shard)
            }
        );
        let v = &self.verdict;
        let precision = v.precision_bits.unwrap_or(0);
        let how = match (&self.merge.max_ratio, &v.max_ratio_exact) {
            (ExactRatio::Infinite(_), _) => {
                "infinite: a neighbour gives probability 0 where the sequence does not".to_string()
            }
            (_, Some(q)) => format!("exact, = {q}"),
            _ => format!(
                "certified at {precision} bits, in {}",
                enclosure_text(v.max_ratio_interval.as_ref())
            ),
        };
        out.push_str(&v.line());
        let _ = writeln!(out, "  max ratio {how}");
        if v.verdict == Verdict::Undecided {
            let _ = writeln!(
                out,
                "  e^ε in {}: the enclosures overlap at the largest precision tried",
                enclosure_text(v.bound_interval.as_ref())
            );
        }
        let w = &v.witness;
        let _ = writeln!(out, "  witness, round {} replaced:", w.round);
        let _ = writeln!(out, "    losses    {}", sequence_text(&w.losses));
        let _ = writeln!(out, "    neighbour {}", sequence_text(&w.neighbour));
        let actions: Vec<String> = w.actions.iter().map(u64::to_string).collect();
        let _ = writeln!(
            out,
            "    actions   {}   P(actions | losses) / P(actions | neighbour) = {}",
            actions.join(" "),
            w.ratio
        );
        let _ = write!(
            out,
            "  {} {} checked, {}",
            v.pairs.unwrap_or(0),
            match v.method {
                Method::Structural => "structural candidates (classes of ordered neighbour pairs)",
                Method::Enumeration => "ordered neighbour pairs",
            },
            match v.kind {
                NumberKind::Exact => "exact laws".to_string(),
                _ => format!(
                    "certified laws at {precision} bits (the laws involve transcendental numbers; why_not_exact in --json)"
                ),
            }
        );
        if let Some(spot) = &self.spot_check {
            let _ = write!(out, "\n  {}", spot.line());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::{ExactRatio, Ratio};
    use serde::Deserialize;

    /// The three forms of a ratio with exact bounds are read, and an object
    /// with any other key is refused.
    #[test]
    fn exact_ratios_read_their_three_forms_only() {
        let read = |text: &str| {
            let v: serde_json::Value = serde_json::from_str(text).unwrap();
            ExactRatio::deserialize(&v).ok().map(|r| r.read("r"))
        };
        let half = crate::num::Q::new(1.into(), 2.into());
        assert_eq!(read(r#""inf""#).unwrap().unwrap(), Ratio::Infinite);
        assert_eq!(
            read(r#"{"exact":"1/2"}"#).unwrap().unwrap(),
            Ratio::Exact(half.clone())
        );
        assert_eq!(
            read(r#"{"lo":"1/2","hi":"1"}"#).unwrap().unwrap(),
            Ratio::Certified {
                lo: half,
                hi: crate::num::Q::from_integer(1.into())
            }
        );
        for bad in [
            r#"{"exact":"1","x":1}"#,
            r#"{"lo":"1","hi":"2","x":1}"#,
            r#"{"a":"1","b":"2"}"#,
            r#""nan""#,
            "1",
        ] {
            assert!(read(bad).is_none(), "{bad}");
        }
        assert!(read(r#"{"exact":"x"}"#).unwrap().is_err());
    }
}
