//! The result of `dpdtol privacy` on a bandit algorithm with an exact
//! (certified) check — Anytime-Lazy-UCB, DP-SE, Hybrid-UCB
//! ([`crate::privacy::bandit::setup`]) — under the keys of the
//! full-information report, and read back as a shard of a run.

use super::privacy::{field, number_field, sequence_text, ExactRatio, VerdictKeys};
use super::{fraction, Fraction, Human, NumberKind, SchemaVersion};
use crate::bandit::law::dp_se::DpSeParams;
use crate::bandit::law::dp_se::DpSeVariant;
use crate::bandit::policy::dp_se::RewardIndex;
use crate::bandit::policy::BanditId;
use crate::bandit::policy::Named;
use crate::error::{Error, Result};
use crate::mechanism::Noise;
use crate::num::Q;
use crate::privacy::bandit::exact::{fold_units, table_pairs, units_of, Outcome, PRECISIONS};
use crate::privacy::bandit::setup::{exact_check_of, is_precision, ratio_of, Decided, Law, Setup};
use crate::privacy::{Method, Problem, Report, Shard};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::fmt::Write;

/// Why Anytime-Lazy-UCB's laws are certified, not exact.
const WHY_NOT_EXACT: &str = "the thresholds √(3 ln t/O) + 3 ln t/(εO) of line 4 are transcendental";

/// Why DP-UCB's laws are certified, not exact.
const WHY_NOT_EXACT_DP_UCB: &str = "the thresholds √(2 ln(t − 1)/n) + Γ/n of Algorithm 1, line 7, Γ = K ln²T · ln(K T ln T/γ)/ε, are transcendental";
const WHY_NOT_EXACT_DP_UCB_BOUND: &str = "the thresholds √(2 ln(t − 1)/n) + ν/n of Algorithm 1, ν = √8 ln(4(t − 1)^4)/ε · (ln n + 1), are transcendental";

/// Why Hybrid-UCB's laws are certified, not exact.
const WHY_NOT_EXACT_HYBRID: &str =
    "the thresholds √(3 ln t/n) + 3 ln t·B(n)/n of index (35) are transcendental";

/// Why DP-SE's laws are certified, not exact.
const WHY_NOT_EXACT_DP_SE: &str =
    "the elimination radius 2c_e = 2√(ln(16e²/β)/(2R_e)) + 2 ln(8e²/β)/(εR_e) is transcendental";

/// What a merge of shards reads beyond the printed keys: the maximum and
/// the witness's ratio with exact bounds, and where the maximum is attained.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BanditMergeKeys {
    /// The index of the witness's numerator law P(pulls | seen rewards).
    pub law: u64,
    /// The maximum ratio's exact bounds.
    pub max_ratio: ExactRatio,
    /// The index, in the alphabet, of the value replacing the witness's seen reward.
    pub replacement: u64,
    /// A shard's only (`I/N`, N > 1): per unit of its numerator laws (at
    /// most 64 contiguous sub-ranges tiling them, unit `j` of `L` laws from
    /// `s` holding `s + ⌊jL/U⌋ ≤ law < s + ⌊(j+1)L/U⌋`), the unit's maximum
    /// ratio's exact bounds (`0` for a unit without a positive numerator
    /// law); `max_ratio` is their fold, and a merge recomputes a sample.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub units: Option<Vec<ExactRatio>>,
    /// The witness's ratio's exact bounds.
    pub witness_ratio: ExactRatio,
}

/// The result of the exact privacy check of a bandit algorithm on every
/// pair of neighbouring reward tables over a finite alphabet (one shard of
/// it, or the whole run).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct BanditPrivacyReport {
    /// The number of arms K.
    pub actions: u64,
    /// The algorithm's id.
    pub algorithm: String,
    /// Hybrid-UCB: true (its formulas are inferred).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub algorithm_inferred: Option<bool>,
    /// The reward values.
    pub alphabet: Vec<Fraction>,
    /// Hybrid-UCB: the index bonus constant.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bonus: Option<Fraction>,
    /// DP-SE: the epoch lengths R_1, R_2, … (the last repeats), as strings of integers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub epoch_lengths: Option<Vec<String>>,
    /// DP-SE: whether the epoch lengths are the printed ones.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub epoch_lengths_printed: Option<bool>,
    /// DP-SE: δ, its failure probability β, exactly.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub beta: Option<Fraction>,
    /// DP-SE: the pull order inside an epoch (`blocks`, `round-robin`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pull_order: Option<String>,
    /// DP-SE: the rounding of the printed epoch lengths (`floor-plus-one`,
    /// `ceiling`, `floor`, `ceiling-plus-one`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounding: Option<String>,
    /// DP-SE: the `R_e` its elimination radius reads (`integer`, `real`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub radius: Option<String>,
    /// DP-SE: which entry of the reward table a pull receives (`round`,
    /// `pull`). Neighbouring tables replace a row read by round, an entry
    /// read by pull: one reward seen changes either way, so the ratio
    /// verdict is the same under both; the δ check reads the table so.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reward_index: Option<String>,
    /// DP-UCB: the binary mechanism's depth L.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tree_depth: Option<u32>,
    /// The ε checked.
    pub epsilon: Fraction,
    /// The horizon T, as a string of the integer.
    pub horizon: String,
    /// What a merge of shards reads.
    pub merge: BanditMergeKeys,
    /// `laplace`.
    pub noise: Noise,
    /// DP-SE: whether an epoch ends within the horizon (else no noise is consulted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub noise_consulted: Option<bool>,
    /// The Laplace scale (Hybrid-UCB: the array blocks').
    pub noise_scale: Fraction,
    /// DP-SE and Hybrid-UCB: what the parameters are.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The quotients P(pulls | seen)/P(pulls | seen′) compared.
    pub quotients: u64,
    /// false.
    pub resample: bool,
    /// The version of this report's keys.
    pub schema_version: SchemaVersion,
    /// Which part of the numerator laws: `I/N` (`1/1` for the whole run).
    pub shard: String,
    /// A merged report only: what the merge re-verified by checking the
    /// shards' units again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spot_check: Option<super::merge::SpotCheck>,
    /// Hybrid-UCB, DP-UCB-Bound: the tree p-sums' Laplace scale per level.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tree_scale: Option<Fraction>,
    /// The verdict, the maximum and the witness (`pairs`: null for a shard).
    #[serde(flatten)]
    pub verdict: VerdictKeys,
    /// Why the laws are certified, not exact.
    pub why_not_exact: String,
}

/// What DP-SE's output says about its schedule.
fn dp_se_note(params: &DpSeParams, horizon: usize) -> String {
    let which = if params.printed_lengths {
        "printed"
    } else {
        "given"
    };
    let shown: Vec<String> = params
        .lengths
        .iter()
        .take(4)
        .map(ToString::to_string)
        .collect();
    let lengths = format!("{which} epoch lengths R_e = {}", shown.join(", "));
    if params.noise_consulted(horizon) {
        format!("{lengths}: epochs end within the horizon, the noise is exercised")
    } else {
        format!(
            "{lengths}: the first epoch ends at round 2R_1 = {} > T = {horizon}, so no noise is ever consulted and every pull sequence is deterministic: the check is trivial (ratio 1); --epoch-length exercises the noise",
            2 * params.length(1)
        )
    }
}

impl BanditPrivacyReport {
    /// The report of `d`.
    pub fn new(d: &Decided) -> BanditPrivacyReport {
        let (s, o) = (&d.setup, &d.outcome);
        let p = &s.problem;
        let max = ratio_of(&o.max_ratio);
        let ratio = ratio_of(&o.witness.ratio);
        let whole = d.shard == Shard::WHOLE;
        // The keys every privacy check shares, from the checker's report of
        // this outcome: certified laws only, so a maximum equal to e^ε is
        // never claimed (it would be undecided), and every observed-reward
        // event is enumerated.
        let shared = Report {
            problem: p.clone(),
            actions: s.actions,
            max_ratio: max.clone(),
            witness: crate::privacy::Witness {
                losses: o.witness.rewards.clone(),
                neighbour: o.witness.neighbour.clone(),
                actions: o.witness.pulls.clone(),
                round: o.witness.round,
                ratio: ratio.clone(),
                sequence: 0,
                neighbour_sequence: 0,
            },
            verdict: d.verdict,
            attained: false,
            method: Method::Enumeration,
            bound: d.bound.clone(),
            pairs: o.pairs,
            kind: crate::num::Kind::Certified,
            precision: Some(crate::num::Precision(d.bits)),
            shard: d.shard,
            why_not_exact: None,
            units: Vec::new(),
            units_precision: None,
        };
        let mut verdict = VerdictKeys::of(&shared, o.witness.round);
        // The ordered pairs of reward tables: covered by the whole run only
        // (a shard covers quotients, not a set of table pairs).
        if !whole {
            verdict.pairs = None;
        }
        // The laws are certified: no maximum is written as exact.
        verdict.max_ratio_exact = None;
        verdict.witness.rewards = Some(verdict.witness.losses.clone());
        if let Some(probabilities) = &o.witness.probabilities {
            verdict.witness = verdict.witness.with_probabilities(probabilities);
        }
        let mut report = BanditPrivacyReport {
            actions: s.actions as u64,
            algorithm: s.id.name().to_string(),
            algorithm_inferred: None,
            alphabet: p.alphabet.iter().map(fraction).collect(),
            bonus: None,
            epoch_lengths: None,
            epoch_lengths_printed: None,
            beta: None,
            pull_order: None,
            rounding: None,
            radius: None,
            reward_index: None,
            tree_depth: None,
            epsilon: fraction(&p.epsilon),
            horizon: p.horizon.to_string(),
            merge: BanditMergeKeys {
                law: o.position.0,
                max_ratio: ExactRatio::of(&max),
                replacement: o.position.2 as u64,
                units: (!whole).then(|| {
                    o.units
                        .iter()
                        .map(|u| ExactRatio::of(&ratio_of(u)))
                        .collect()
                }),
                witness_ratio: ExactRatio::of(&ratio),
            },
            noise: Noise::Laplace,
            noise_consulted: None,
            noise_scale: fraction(d.law.scale()),
            note: None,
            quotients: o.quotients,
            resample: false,
            schema_version: SchemaVersion,
            shard: d.shard.to_string(),
            spot_check: None,
            tree_scale: None,
            verdict,
            why_not_exact: WHY_NOT_EXACT.into(),
        };
        match &d.law {
            Law::DpSe(params) => {
                report.why_not_exact = WHY_NOT_EXACT_DP_SE.into();
                report.note = Some(dp_se_note(params, p.horizon));
                report.epoch_lengths =
                    Some(params.lengths.iter().map(ToString::to_string).collect());
                report.epoch_lengths_printed = Some(params.printed_lengths);
                report.beta = Some(fraction(&params.beta));
                report.pull_order = Some(params.order.name().into());
                report.rounding = Some(params.rounding.name().into());
                report.radius = Some(params.radius.name().into());
                report.reward_index = Some(params.reward_index.name().into());
                report.noise_consulted = Some(params.noise_consulted(p.horizon));
            }
            Law::Hybrid(params) => {
                report.why_not_exact = WHY_NOT_EXACT_HYBRID.into();
                report.note = Some(format!(
                    "the algorithm is the one inferred from the prose of Hu, Huang & Mehta's earlier version, whose text copy lost its formulas (src/bandit/policy/hybrid_ucb.rs): array blocks with Lap({}), tree p-sums with Lap((m+1)·{}), index bonus {}",
                    params.array_scale, params.tree_scale, params.bonus
                ));
                report.tree_scale = Some(fraction(&params.tree_scale));
                report.bonus = Some(fraction(&params.bonus));
                report.algorithm_inferred = Some(true);
            }
            Law::DpUcb(params) => {
                report.why_not_exact = WHY_NOT_EXACT_DP_UCB.into();
                report.tree_depth = Some(params.tree.depth);
                report.note = Some(format!(
                    "DP-UCB (Mishra & Thakurta 2015, Algorithm 1, src/bandit/policy/dp_ucb.rs): a binary mechanism per arm, each node with Lap({}) (a tree of {} levels at ε = {} prints {}), index bonus √({}·ln(t − 1)/n) + Γ/n with γ = {}",
                    params.node_scale,
                    params.tree.depth,
                    params.epsilon,
                    params.tree.node_scale(&params.epsilon),
                    params.bonus,
                    params.gamma
                ));
            }
            Law::DpUcbBound(params) => {
                report.why_not_exact = WHY_NOT_EXACT_DP_UCB_BOUND.into();
                report.note = Some(format!(
                    "DP-UCB-Bound (Tossou & Dimitrakakis 2016, Algorithm 1, src/bandit/policy/dp_ucb_bound.rs, read from a public implementation): a Hybrid mechanism per arm, array blocks with Lap({}), tree p-sums with Lap(m·{}), index bonus √({}·ln(t − 1)/n) + ν/n with ν = √{}·ln(4(t − 1)^4)/ε·(ln n + 1)",
                    params.array_scale, params.tree_scale, params.bonus, params.confidence
                ));
                report.tree_scale = Some(fraction(&params.tree_scale));
                report.bonus = Some(fraction(&params.bonus));
                report.algorithm_inferred = Some(true);
            }
            Law::DpUcbInt(params) => {
                report.why_not_exact = crate::bandit::law::dp_ucb_int::WHY_NOT_EXACT.into();
                report.note = Some(format!(
                    "DP-UCB-INT (Tossou & Dimitrakakis 2016, Algorithm 3, src/bandit/policy/dp_ucb_int.rs, read from a public implementation): round-robin for 2f rounds, f = {}, then an arm whose count n is a multiple of f draws a fresh index every round, its mean plus Lap({}·n^({})) plus √({}·ln t/n) (v = {}), and another keeps its last one",
                    params.interval,
                    params.noise_factor,
                    params.scale_exponent(),
                    params.bonus,
                    params.rate
                ));
                report.bonus = Some(fraction(&params.bonus));
                report.algorithm_inferred = Some(true);
            }
            Law::LazyUcb(_) | Law::LazyUcbArms(_) => {}
        }
        report
    }

    /// The ordered pairs of neighbouring reward tables of the whole check
    /// (a shard's report covers quotients only; the merged shards cover
    /// these).
    pub fn table_pairs(&self) -> u64 {
        let horizon = self.horizon.parse().unwrap_or(0);
        let entry = self
            .setup()
            .and_then(|s| s.law())
            .is_ok_and(|law| law.neighbours_replace_an_entry());
        table_pairs(
            horizon,
            self.alphabet.len(),
            usize::try_from(self.actions).unwrap_or(usize::MAX),
            entry,
        )
    }

    /// The setup this report names, read exactly.
    fn setup(&self) -> Result<Setup> {
        let number = |name: &str, x: &Fraction| number_field(name, &x.0);
        let id: BanditId = self.algorithm.parse()?;
        exact_check_of(id)?;
        let alphabet = self
            .alphabet
            .iter()
            .map(|x| number("alphabet", x))
            .collect::<Result<Vec<Q>>>()?;
        let horizon: usize = self.horizon.parse().map_err(|_| field("horizon"))?;
        let problem = Problem::new(horizon, alphabet, number("epsilon", &self.epsilon)?)?;
        let lengths = match (id, self.epoch_lengths_printed, &self.epoch_lengths) {
            (BanditId::DpSe, Some(true), Some(_)) => None,
            (BanditId::DpSe, Some(false), Some(lengths)) => Some(
                lengths
                    .iter()
                    .map(|r| {
                        r.parse::<u64>()
                            .ok()
                            .filter(|&r| r > 0)
                            .ok_or_else(|| field("epoch_lengths"))
                    })
                    .collect::<Result<Vec<u64>>>()?,
            ),
            (BanditId::DpSe, _, _) | (_, Some(_), _) => return Err(field("epoch_lengths_printed")),
            _ => None,
        };
        // Absent from a report written before the readings were named: the
        // default reading.
        let dp_se = if id == BanditId::DpSe {
            let default_beta = Q::new(1.into(), (horizon.max(2) as i64).into());
            DpSeVariant {
                beta: self
                    .beta
                    .as_ref()
                    .map(|d| number("beta", d))
                    .transpose()?
                    .filter(|d| *d != default_beta),
                order: self
                    .pull_order
                    .as_deref()
                    .map(str::parse)
                    .transpose()
                    .map_err(|_| field("pull_order"))?
                    .unwrap_or_default(),
                rounding: self
                    .rounding
                    .as_deref()
                    .map(str::parse)
                    .transpose()
                    .map_err(|_| field("rounding"))?
                    .unwrap_or_default(),
                radius: self
                    .radius
                    .as_deref()
                    .map(str::parse)
                    .transpose()
                    .map_err(|_| field("radius"))?
                    .unwrap_or_default(),
                reward_index: self
                    .reward_index
                    .as_deref()
                    .map(str::parse)
                    .transpose()
                    .map_err(|_| field("reward_index"))?
                    .unwrap_or_default(),
            }
        } else if self.beta.is_some() || self.pull_order.is_some() || self.rounding.is_some() {
            return Err(field("pull_order"));
        } else if self.radius.is_some() || self.reward_index.is_some() {
            return Err(field("radius"));
        } else {
            DpSeVariant::default()
        };
        // Absent from a report written before the depth was named, and
        // refused for another algorithm; the printed depth reads as none.
        let tree_depth = match (id, self.tree_depth) {
            (BanditId::DpUcb, Some(depth)) => {
                let printed = crate::bandit::policy::dp_ucb::printed_depth(horizon as u64);
                (depth != printed).then_some(depth)
            }
            (_, None) => None,
            (_, Some(_)) => return Err(field("tree_depth")),
        };
        // Hybrid-UCB's and DP-UCB-Bound's tree scale and bonus, resolved,
        // and DP-UCB-INT's bonus: each report names those its law reads.
        let (tree_scale, bonus) = match (id, &self.tree_scale, &self.bonus) {
            (BanditId::HybridUcb | BanditId::DpUcbBound, Some(tree), Some(bonus)) => (
                Some(number("tree_scale", tree)?),
                Some(number("bonus", bonus)?),
            ),
            (BanditId::HybridUcb | BanditId::DpUcbBound, None, _) => {
                return Err(field("tree_scale"))
            }
            (BanditId::HybridUcb | BanditId::DpUcbBound, _, None) => return Err(field("bonus")),
            (BanditId::DpUcbInt, None, Some(bonus)) => (None, Some(number("bonus", bonus)?)),
            (BanditId::DpUcbInt, Some(_), _) => return Err(field("tree_scale")),
            (BanditId::DpUcbInt, None, None) => return Err(field("bonus")),
            (_, Some(_), _) => return Err(field("tree_scale")),
            (_, None, Some(_)) => return Err(field("bonus")),
            (_, None, None) => (None, None),
        };
        Ok(Setup {
            id,
            actions: usize::try_from(self.actions).map_err(|_| field("actions"))?,
            problem,
            scale: Some(number("noise_scale", &self.noise_scale)?),
            tree_scale,
            bonus,
            lengths,
            dp_se,
            tree_depth,
        })
    }
}

impl BanditPrivacyReport {
    /// The units' maxima a part says: a shard's `merge.units`, one per unit
    /// of its laws `part`; the whole run's, not written, its maximum.
    fn units(
        &self,
        shard: Shard,
        part: &std::ops::Range<u64>,
        max_ratio: &Option<(Q, Q)>,
    ) -> Result<Vec<Option<(Q, Q)>>> {
        match (&self.merge.units, shard == Shard::WHOLE) {
            (None, true) => Ok(vec![max_ratio.clone()]),
            (Some(units), false) if units.len() == units_of(part).len() => units
                .iter()
                .enumerate()
                .map(|(j, u)| enclosure_of(u, &format!("merge.units[{j}]")))
                .collect(),
            _ => Err(Error::InvalidInput(format!(
                "field 'merge.units' is not one maximum per unit of shard {shard}'s laws ({} units)",
                if shard == Shard::WHOLE { 0 } else { units_of(part).len() }
            ))),
        }
    }
}

/// An exact bandit check's units are sub-ranges of its numerator laws
/// ([`units_of`]; the whole run is one unit): unit `j` is recomputed by
/// checking its laws again at the part's precision and comparing the
/// maximum with `merge.units[j]` (the whole run's: `merge.max_ratio`).
impl super::merge::Units for Decided {
    fn shard(&self) -> Shard {
        self.shard
    }

    fn unit_count(&self) -> u64 {
        self.outcome.units.len() as u64
    }

    fn recompute(&self, unit: u64) -> Result<()> {
        let part = self.setup.part(&self.law, self.shard)?;
        let (laws, field) = if self.shard == Shard::WHOLE {
            (part, "merge.max_ratio".to_string())
        } else {
            let index = usize::try_from(unit).unwrap_or(usize::MAX);
            let laws = units_of(&part).get(index).cloned().unwrap_or(0..0);
            (laws, format!("merge.units[{unit}]"))
        };
        let claimed = self.outcome.units.get(unit as usize);
        if claimed != Some(&self.setup.recheck(&self.law, laws.clone(), self.bits)?) {
            return Err(Error::InvalidInput(format!(
                "unit {unit} (laws {}..{}): field '{field}' is not what checking the unit's laws again gives (altered, or not this shard's)",
                laws.start, laws.end
            )));
        }
        Ok(())
    }
}

/// A ratio's exact bounds as the check's enclosure (`None`: infinite),
/// refused unless it is an ordered interval of non-negative numbers (`key`
/// names the field).
fn enclosure_of(ratio: &ExactRatio, key: &str) -> Result<Option<(Q, Q)>> {
    use crate::privacy::Ratio;
    let ends = match ratio.read(key)? {
        Ratio::Infinite => return Ok(None),
        Ratio::Exact(q) => (q.clone(), q),
        Ratio::Certified { lo, hi } => (lo, hi),
    };
    if num_traits::Signed::is_negative(&ends.0) || ends.0 > ends.1 {
        return Err(Error::InvalidInput(format!(
            "field '{key}' [{}, {}] is not an ordered interval of non-negative numbers",
            ends.0, ends.1
        )));
    }
    Ok(Some(ends))
}

impl super::merge::Part for BanditPrivacyReport {
    type Content = Decided;

    const WRITER: &'static str = "dpdtol privacy";

    /// The problem and parameters it names are rebuilt, its shard's
    /// numerator laws counted, its units' maxima read (one per unit of its
    /// laws, their fold its maximum), its witness position checked to lie
    /// in them and in a unit attaining the maximum, and the witness
    /// **evaluated again** from the laws at the report's precision (the
    /// numerator must be positive, the maximum's lower end the witness's).
    /// A unit that under-reports its maximum is caught by recomputing it
    /// ([`super::merge::Units`]); a forged witness always is.
    fn check(&self) -> Result<Decided> {
        let setup = self.setup()?;
        let shard: Shard = self.shard.parse().map_err(|_| field("shard"))?;
        let bits = self
            .verdict
            .precision_bits
            .filter(|&b| is_precision(b))
            .ok_or_else(|| {
                Error::InvalidInput(format!(
                    "field 'precision_bits' is not one of the check's precisions ({} doubled up to {} bits)",
                    PRECISIONS.0, PRECISIONS.1
                ))
            })?;
        if self.verdict.kind != NumberKind::Certified {
            return Err(field("kind"));
        }
        let max_ratio = enclosure_of(&self.merge.max_ratio, "merge.max_ratio")?;
        let claimed = enclosure_of(&self.merge.witness_ratio, "merge.witness_ratio")?;
        let round =
            usize::try_from(self.verdict.witness.round).map_err(|_| field("witness.round"))?;
        let replacement =
            usize::try_from(self.merge.replacement).map_err(|_| field("merge.replacement"))?;
        let law = setup.law()?;
        let p = &setup.problem;
        let pairs = table_pairs(
            p.horizon,
            p.alphabet.len(),
            setup.actions,
            law.neighbours_replace_an_entry(),
        );
        let part = setup.part(&law, shard)?;
        let quotients = setup.quotients(&part);
        let units = self.units(shard, &part, &max_ratio)?;
        if fold_units(&units) != max_ratio {
            return Err(Error::InvalidInput(
                "field 'merge.max_ratio' is not the fold of 'merge.units' (the largest lower and upper ends)".into(),
            ));
        }
        if round == 0 {
            // A shard without a positive numerator law (`Outcome::empty`):
            // what it says is written again and compared.
            let outcome = Outcome::empty(part.start, pairs, quotients, units);
            return setup.decided(law, outcome, shard, bits);
        }
        let position = (self.merge.law, round - 1, replacement);
        if !part.contains(&position.0) {
            return Err(Error::InvalidInput(format!(
                "the witness's law {} is not in shard {shard}, whose laws are {} to {} (from 0)",
                position.0,
                part.start,
                part.end.saturating_sub(1)
            )));
        }
        let attains = |(range, unit): (std::ops::Range<u64>, &Option<(Q, Q)>)| {
            range.contains(&position.0)
                && unit.as_ref().map(|u| &u.0) == max_ratio.as_ref().map(|m| &m.0)
        };
        if shard != Shard::WHOLE && !units_of(&part).into_iter().zip(&units).any(attains) {
            return Err(Error::InvalidInput(format!(
                "the witness's law {} is not in a unit of 'merge.units' attaining the maximum",
                position.0
            )));
        }
        let (witness, positive) = setup.witness(&law, position, bits)?;
        if !positive {
            return Err(Error::InvalidInput(
                "the witness's pulls have probability 0 on its reward table".into(),
            ));
        }
        let consistent = match (&max_ratio, &witness.ratio, &claimed) {
            (None, None, None) => true,
            (Some((lo, hi)), Some((wlo, whi)), Some(c)) => {
                lo == wlo && hi >= whi && c == &(wlo.clone(), whi.clone())
            }
            _ => false,
        };
        if !consistent {
            return Err(Error::InvalidInput(
                "the witness's ratio, evaluated again, is not the one claimed, or the maximum does not start at it".into(),
            ));
        }
        let outcome = Outcome {
            max_ratio,
            witness,
            pairs,
            position,
            quotients,
            units,
        };
        setup.decided(law, outcome, shard, bits)
    }

    fn written(decided: &Decided) -> BanditPrivacyReport {
        BanditPrivacyReport::new(decided)
    }
}

/// The shards of one exact bandit check merge into the whole run's report
/// ([`crate::privacy::bandit::setup::merge`]): what the whole run prints
/// when every shard settled at the precision the whole run settles at (the
/// merge decides at the largest precision of its shards).
impl super::merge::Whole for BanditPrivacyReport {
    fn kind(name: &str, value: &serde_json::Value) -> Result<()> {
        if is_report(value) {
            return Ok(());
        }
        Err(Error::InvalidInput(format!(
            "{name} is not the report of an exact anytime-lazy-ucb, dp-se or hybrid-ucb check, as the other inputs are"
        )))
    }

    fn merge(parts: Vec<(String, Decided)>) -> Result<Decided> {
        crate::privacy::bandit::setup::merge(parts)
    }

    fn with_spot_check(self, spot_check: super::merge::SpotCheck) -> BanditPrivacyReport {
        BanditPrivacyReport {
            spot_check: Some(spot_check),
            ..self
        }
    }
}

/// Whether `value` is the report of an exact bandit check (its `algorithm`
/// names anytime-lazy-ucb, dp-se or hybrid-ucb, and it is certified:
/// hybrid-ucb's statistical audit is not this check).
pub fn is_report(value: &serde_json::Value) -> bool {
    value
        .get("algorithm")
        .and_then(serde_json::Value::as_str)
        .and_then(|a| a.parse::<BanditId>().ok())
        .is_some_and(|id| exact_check_of(id).is_ok())
        && value.get("kind").and_then(serde_json::Value::as_str) == Some("certified")
}

/// A paragraph: the problem, the verdict, the witness (pull sequences and
/// reward tables) and what was covered.
impl Human for BanditPrivacyReport {
    fn human(&self) -> String {
        let v = &self.verdict;
        let whole = self.shard == Shard::WHOLE.to_string();
        let alphabet: Vec<&str> = self.alphabet.iter().map(|a| a.0.as_str()).collect();
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{} (Laplace noise, scale {}), K = {}, horizon {}, rewards {{{}}}, ε = {}{}:",
            self.algorithm,
            self.noise_scale,
            self.actions,
            self.horizon,
            alphabet.join(", "),
            self.epsilon,
            if whole {
                String::new()
            } else {
                format!(", shard {}", self.shard)
            }
        );
        out.push_str(&v.line());
        let bits = v.precision_bits.unwrap_or(0);
        if let (ExactRatio::Enclosed { .. }, Some(i)) =
            (&self.merge.max_ratio, &v.max_ratio_interval)
        {
            let [lo, hi] = &i.0;
            let _ = writeln!(out, "  max ratio certified at {bits} bits, in [{lo}, {hi}]");
        }
        let w = &v.witness;
        if w.round == 0 {
            let _ = writeln!(
                out,
                "  no pull sequence of this shard's laws has positive probability: nothing to compare"
            );
        } else {
            let arms: Vec<String> = (1..=self.actions).map(|j| format!("arm {j}")).collect();
            let _ = writeln!(
                out,
                "  witness, round {} replaced (rows: {}):",
                w.round,
                arms.join(", ")
            );
            let _ = writeln!(out, "    rewards   {}", sequence_text(&w.losses));
            let _ = writeln!(out, "    neighbour {}", sequence_text(&w.neighbour));
            let pulls: Vec<String> = w.actions.iter().map(u64::to_string).collect();
            let _ = writeln!(
                out,
                "    pulls     {}   P(pulls | rewards) / P(pulls | neighbour) = {}",
                pulls.join(" "),
                w.ratio
            );
        }
        if let Some(note) = &self.note {
            let _ = writeln!(out, "  {note}");
        }
        if self.reward_index.as_deref() == Some(RewardIndex::Pull.name()) {
            let _ = writeln!(
                out,
                "  rewards read by pull: arm a's n-th pull receives row n's entry of arm a, neighbouring tables differ in one entry, and a witness's round is the round whose reward seen changes"
            );
        }
        let covered = if whole {
            format!(
                "{} ordered neighbour pairs of reward tables covered",
                v.pairs.unwrap_or(0)
            )
        } else {
            format!(
                "{} quotients P(pulls|seen)/P(pulls|seen') of shard {} checked (the merged shards cover {} ordered neighbour pairs of reward tables)",
                self.quotients,
                self.shard,
                self.table_pairs()
            )
        };
        let _ = write!(
            out,
            "  {covered}, certified laws at {bits} bits ({})",
            self.why_not_exact
        );
        if let Some(spot) = &self.spot_check {
            let _ = write!(out, "\n  {}", spot.line());
        }
        out
    }
}
