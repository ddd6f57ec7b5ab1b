//! The results of `dpdtol law`, `sample` and `gof` for a bandit algorithm
//! on a reward table ([`crate::oracle::bandit`]): the law of the pull
//! sequence, reference samples of it, and a goodness-of-fit test against it.

use super::gof::{rare_cells_lines, table_head, tests_table, GofCommand, Verdict};
use super::law::LawCommand;
use super::oracle::{probability, probability_text, Approximate, Horizon, LawHeader};
use super::sample::{SampleCommand, RNG};
use super::{Decimal, Enclosure, Fraction, Human, NumberKind, SchemaVersion};
use crate::bandit::policy::dp_se::{PullOrder, Radius, RewardIndex, Rounding};
use crate::bandit::policy::dp_ts::BonusRound;
use crate::bandit::policy::ucb1::{BonusRound as Ucb1BonusRound, Ties};
use crate::bandit::policy::Named;
use crate::error::Result;
use crate::oracle::bandit::{
    BanditGof, BanditLaw, Explanation, Readings, RefusedReading, VariantFit,
};
use crate::oracle::gof::{ChiSquareTest, Departure, GofOptions, SupportViolation};
use crate::oracle::io::SampleFormat;
use crate::oracle::two_sample::TwoSample;
use crate::oracle::{Enclosed, TargetSpec};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::fmt::{self, Write};
use std::path::Path;

/// The conventions a bandit oracle report states: [`CONVENTIONS`], or
/// with the rewards read by pull (`reward_index` `pull`) the same with
/// row n holding every arm's reward at its n-th pull.
pub fn conventions(target: &BanditGiven) -> String {
    if target.reward_index.as_deref() == Some(RewardIndex::Pull.name()) {
        CONVENTIONS.replace(
            "row t of the reward table holds every arm's reward in round t; the learner pulls a_t and sees only table[t][a_t]",
            "row n of the reward table holds every arm's reward at its n-th pull; the learner pulls a_t and sees only table[n][a_t], a_t's n-th pull",
        )
    } else {
        CONVENTIONS.to_string()
    }
}

/// The conventions every bandit oracle report states.
pub const CONVENTIONS: &str = "rounds are numbered from 1; row t of the reward table holds every arm's reward in round t; the learner pulls a_t and sees only table[t][a_t]; arms are numbered from base in sequences and files";

/// The rule of the bandit goodness-of-fit test.
pub const RULES: &str = "support check first (the first sample whose pull sequence has probability 0 rejects); then one Pearson chi-square over the pull sequences of positive probability, merged in order of increasing expected count into groups of expected count >= 5, a last group below 5 joining the previous; df = groups - 1 (one group of two cells or more: the p-value is the exact two-sided binomial test of the count outside the likeliest cell); p-value from statrs's chi-square survival function (approximate); with three sequences or more, those of expected count < 5 (rare, summed with others by the pooling) also tested on their own: t the smallest exact tail P(Bin(n, p_i) >= o_i) among them, p-value min(1, sum over the rare sequences of the largest P(Bin(n, p_i) >= c) <= t) (discrete Bonferroni, exact); reject when a p-value < alpha / tests (Bonferroni over the chi-square and the rare-cell test)";

/// A bandit algorithm on a reward table, as given on the command line (its
/// numbers as typed; null for a flag not given).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BanditGiven {
    /// The algorithm's id.
    pub algorithm: String,
    /// The bonus constant (anytime-lazy-ucb, hybrid-ucb, dp-ucb-bound).
    pub bonus: Option<String>,
    /// The epoch lengths R_1,R_2,… (dp-se).
    pub epoch_length: Option<String>,
    /// The privacy parameter ε.
    pub epsilon: Option<String>,
    /// The noise scale overriding the paper's.
    pub noise_scale: Option<String>,
    /// The reward table's file.
    pub rewards_file: Option<String>,
    /// The factor on both scales (hybrid-ucb, dp-ucb-bound).
    pub scale_factor: Option<String>,
    /// The tree p-sums' scale (hybrid-ucb, dp-ucb-bound).
    pub tree_scale: Option<String>,
    /// δ, the failure probability β (dp-se; null: 1/T or not dp-se).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub beta: Option<String>,
    /// The pull order inside an epoch (dp-se, default `blocks`; absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pull_order: Option<String>,
    /// The rounding of the epoch lengths (dp-se, default `floor-plus-one`; absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounding: Option<String>,
    /// The `R_e` the elimination radius reads (dp-se, default `integer`; absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub radius: Option<String>,
    /// Which entry of the reward table a pull receives (dp-se, default `round`; absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reward_index: Option<String>,
    /// The binary mechanism's depth L (dp-ucb, default ⌈log₂ T⌉ of the table's T; absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tree_depth: Option<String>,
    /// How ties between maximal indices are broken (ucb1, default `lowest`; absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ties: Option<String>,
    /// The round whose ln the bonus reads (dp-ts, default `current`; ucb1, default `plays`; absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bonus_round: Option<String>,
}

/// The value given, or the default's name.
fn given_or_default<T: Named>(given: &Option<String>) -> String {
    given.clone().unwrap_or_else(|| T::ALL[0].name().into())
}

impl BanditGiven {
    /// The bandit target of `spec` as given.
    pub fn of(spec: &TargetSpec) -> BanditGiven {
        BanditGiven {
            algorithm: spec.algorithm.clone().unwrap_or_else(|| "?".into()),
            bonus: spec.bonus.clone(),
            epoch_length: spec.epoch_length.clone(),
            epsilon: spec.epsilon.clone(),
            noise_scale: spec.noise_scale.clone(),
            rewards_file: spec.rewards_file.as_ref().map(|p| p.display().to_string()),
            scale_factor: spec.scale_factor.clone(),
            tree_scale: spec.tree_scale.clone(),
            beta: spec.beta.clone(),
            pull_order: spec.pull_order.clone(),
            rounding: spec.rounding.clone(),
            radius: spec.radius.clone(),
            reward_index: spec.reward_index.clone(),
            tree_depth: spec.tree_depth.clone(),
            ties: spec.ties.clone(),
            bonus_round: spec.bonus_round.clone(),
        }
        .naming_readings()
    }

    /// The target with DP-SE's readings named (pull order, rounding,
    /// radius, reward index), UCB1's (ties, bonus round) and DP-TS's (bonus
    /// round), the defaults when not given (absent for the other
    /// algorithms).
    pub fn naming_readings(self) -> BanditGiven {
        let dp_se = self.algorithm.trim() == "dp-se";
        let ucb1 = self.algorithm.trim() == "ucb1";
        let dp_ts = self.algorithm.trim() == "dp-ts";
        BanditGiven {
            ties: ucb1.then(|| given_or_default::<Ties>(&self.ties)),
            pull_order: dp_se.then(|| given_or_default::<PullOrder>(&self.pull_order)),
            rounding: dp_se.then(|| given_or_default::<Rounding>(&self.rounding)),
            radius: dp_se.then(|| given_or_default::<Radius>(&self.radius)),
            reward_index: dp_se.then(|| given_or_default::<RewardIndex>(&self.reward_index)),
            bonus_round: if dp_ts {
                Some(given_or_default::<BonusRound>(&self.bonus_round))
            } else if ucb1 {
                Some(given_or_default::<Ucb1BonusRound>(&self.bonus_round))
            } else {
                None
            },
            ..self
        }
    }
}

impl LawHeader {
    /// The header of a bandit law.
    pub fn of_bandit(law: &BanditLaw) -> LawHeader {
        LawHeader {
            digits_certain: law.digits_certain(),
            kind: match law.precision_bits() {
                None => NumberKind::Exact,
                Some(_) => NumberKind::Certified,
            },
            precision_bits: law.precision_bits(),
            why_not_exact: law.why_not_exact().map(str::to_string),
        }
    }
}

/// One pull sequence with its probability.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PullProbability {
    /// The probability, to 40 significant digits.
    pub probability: Decimal,
    /// The probability exactly, when it is rational; else null.
    pub probability_exact: Option<Fraction>,
    /// An enclosure of the probability.
    pub probability_interval: Enclosure,
    /// The pulls, one arm a round, numbered from `base`.
    pub pulls: Vec<usize>,
}

impl PullProbability {
    /// `pulls` (0-based) with probability `p`, arms numbered from `base`.
    fn new(pulls: &[usize], p: &Enclosed, base: u32) -> PullProbability {
        let (probability, probability_exact, probability_interval) = probability(p);
        PullProbability {
            probability,
            probability_exact,
            probability_interval,
            pulls: pulls.iter().map(|a| a + base as usize).collect(),
        }
    }
}

/// The law of a bandit algorithm's pull sequence on a reward table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BanditLawReport {
    /// The number of arms K (the reward table's width).
    #[schemars(range(min = 2))]
    pub arms: usize,
    /// Arms are numbered from this (0 or 1).
    #[schemars(range(max = 1))]
    pub base: u32,
    /// The command.
    pub command: LawCommand,
    /// The index conventions, in words.
    pub conventions: String,
    /// How the law was computed.
    #[serde(flatten)]
    pub header: LawHeader,
    /// The horizon T (the reward table's rows).
    pub horizon: Horizon,
    /// Every pull sequence of possibly positive probability, in
    /// lexicographic order; every other sequence has probability 0.
    pub law: Vec<PullProbability>,
    /// The probability of `sequence` (null without one).
    pub probability: Option<PullProbability>,
    /// The version of this report's keys.
    pub schema_version: SchemaVersion,
    /// The target as given.
    pub target: BanditGiven,
    /// An enclosure of the law's total, which contains 1.
    pub total_interval: Enclosure,
}

impl BanditLawReport {
    /// The report of `law` (of the target given as `given`) with the
    /// probability of `sequence` (0-based) when asked, arms numbered from
    /// `base`. Errors (bad input) when the sequence has the wrong length or
    /// an arm out of range.
    pub fn new(
        given: BanditGiven,
        law: &BanditLaw,
        sequence: Option<&[usize]>,
        base: u32,
    ) -> Result<BanditLawReport> {
        let probability = sequence
            .map(|s| Ok(PullProbability::new(s, &law.probability(s)?, base)))
            .transpose()?;
        let (lo, hi) = law.total();
        let total = Enclosed {
            kind: crate::num::Kind::Certified,
            lo,
            hi,
        };
        Ok(BanditLawReport {
            arms: law.arms(),
            base,
            command: LawCommand,
            conventions: conventions(&given),
            header: LawHeader::of_bandit(law),
            horizon: Horizon::of(law.horizon()),
            law: law
                .entries()
                .iter()
                .map(|(pulls, p)| PullProbability::new(pulls, p, base))
                .collect(),
            probability,
            schema_version: SchemaVersion,
            target: given,
            total_interval: probability_interval(&total),
        })
    }
}

/// The enclosure of `p`, its ends rounded outward.
fn probability_interval(p: &Enclosed) -> Enclosure {
    probability(p).2
}

/// Reference pull sequences written to a file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BanditSampleReport {
    /// The number of arms K.
    #[schemars(range(min = 2))]
    pub arms: usize,
    /// Arms are numbered from this (0 or 1) in the file.
    #[schemars(range(max = 1))]
    pub base: u32,
    /// The command.
    pub command: SampleCommand,
    /// The index conventions, in words.
    pub conventions: String,
    /// The file's format.
    pub format: SampleFormat,
    /// The horizon T: the length of each sequence.
    pub horizon: Horizon,
    /// How the law sampled from was computed.
    pub law: LawHeader,
    /// The number of sequences.
    pub n: usize,
    /// The file written.
    pub out: String,
    /// How sequence i is drawn from the seed.
    pub rng: String,
    /// The version of this report's keys.
    pub schema_version: SchemaVersion,
    /// The seed.
    pub seed: u64,
    /// The target as given.
    pub target: BanditGiven,
}

impl BanditSampleReport {
    /// The report of `n` sequences of `law` (of the target given as
    /// `given`) drawn from `seed` and written to `out`, arms numbered from
    /// `base`.
    pub fn new(
        given: BanditGiven,
        law: &BanditLaw,
        n: usize,
        seed: u64,
        out: &Path,
        base: u32,
    ) -> BanditSampleReport {
        BanditSampleReport {
            arms: law.arms(),
            base,
            command: SampleCommand,
            conventions: conventions(&given),
            format: SampleFormat::of(out),
            horizon: Horizon::of(law.horizon()),
            law: LawHeader::of_bandit(law),
            n,
            out: out.display().to_string(),
            rng: RNG.to_string(),
            schema_version: SchemaVersion,
            seed,
            target: given,
        }
    }
}

/// Pull sequences from any implementation tested against the law. The
/// exit status is 1 when `reject` is true.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BanditGofReport {
    /// The level α of the test.
    pub alpha: f64,
    /// Arms are numbered from this (0 or 1) in the sample file.
    #[schemars(range(max = 1))]
    pub base: u32,
    /// The command.
    pub command: GofCommand,
    /// The index conventions, in words.
    pub conventions: String,
    /// How the law tested against was computed.
    pub law: LawHeader,
    /// The number of samples.
    #[schemars(range(min = 1))]
    pub n: usize,
    /// The power at which `n_for_tv` detects the distance `tv`.
    pub power: f64,
    /// Whether the samples are rejected at level α.
    pub reject: bool,
    /// The support check and the test, in words.
    pub rules: String,
    /// The sample file.
    pub samples: String,
    /// The version of this report's keys.
    pub schema_version: SchemaVersion,
    /// The statistics and p-values are f64.
    pub statistics_kind: Approximate,
    /// The first sample outside the law's support (null: none).
    pub support_violation: Option<SupportViolation>,
    /// The target as given.
    pub target: BanditGiven,
    /// The chi-square test over the pull sequences (null after a support
    /// violation).
    pub test: Option<ChiSquareTest>,
    /// The total-variation distance whose detecting sample size is
    /// reported (null: none asked for).
    pub tv: Option<f64>,
    /// `rejected` or `consistent`, as `reject` says.
    pub verdict: Verdict,
    /// Where the samples depart first from the law, arms numbered from
    /// `base` (null: no samples to compare).
    #[serde(default)]
    pub departure: Option<Departure>,
    /// The number m of tests: the chi-square, and its rare-cell test when
    /// pooling hides a rare sequence.
    pub tests: usize,
    /// The level of each test: α / tests (Bonferroni).
    pub per_test_alpha: f64,
    /// With `--explain`: the test against every named reading of the
    /// algorithm's open choices on a small grid (absent otherwise; empty
    /// for an algorithm without named readings).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explain: Option<Vec<VariantFit>>,
    /// With `--explain`: the readings of the grid not tested, their law
    /// over the work limit without `--force` (absent when none was).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explain_refused: Option<Vec<RefusedReading>>,
}

impl BanditGofReport {
    /// The report with what `--explain` found.
    pub fn with_explain(self, explanation: Explanation) -> BanditGofReport {
        let refused = explanation.refused;
        BanditGofReport {
            explain: Some(explanation.fits),
            explain_refused: (!refused.is_empty()).then_some(refused),
            ..self
        }
    }

    /// The report of `outcome`, the test under `options` of the samples in
    /// the file `samples` (arms numbered from `base`) against `law`.
    pub fn new(
        given: BanditGiven,
        law: &BanditLaw,
        samples: &Path,
        base: u32,
        options: &GofOptions,
        outcome: &BanditGof,
    ) -> BanditGofReport {
        BanditGofReport {
            alpha: options.alpha,
            base,
            command: GofCommand,
            conventions: conventions(&given),
            law: LawHeader::of_bandit(law),
            n: outcome.n,
            power: options.power,
            reject: outcome.reject,
            rules: RULES.to_string(),
            samples: samples.display().to_string(),
            schema_version: SchemaVersion,
            statistics_kind: Approximate,
            support_violation: outcome.support_violation.clone(),
            target: given,
            test: outcome.test.clone(),
            tv: options.tv,
            verdict: Verdict::of(outcome.reject),
            departure: outcome.departure.clone().map(|d| d.based(base)),
            tests: outcome.tests,
            per_test_alpha: outcome.per_test_alpha,
            explain: None,
            explain_refused: None,
        }
    }
}

/// How the two-sample test of an algorithm without a law works, in words.
pub const TWO_SAMPLE_METHOD: &str = "two-sample test, not a test against a law (none exact or certified exists for this algorithm): the samples against as many pull sequences simulated by dpdtol's own f64 policy from --seed (sequence i from ChaCha8Rng::seed_from_u64(seed) with set_stream(i)); Pearson chi-square of homogeneity over the distinct sequences, merged in order of increasing combined count into groups with expected counts >= 5 in both samples; df = groups - 1; p-value approximate; reject when p < alpha. A rejection says the two samplers differ, not which is wrong; n_for_tv is the size of each sample that detects the distance tv with the stated power (noncentrality >= 2 n tv^2)";

/// Pull sequences of an algorithm without a law (Lazy-DP-TS) tested
/// against dpdtol's own simulation ([`crate::oracle::two_sample`]). The
/// exit status is 1 when `reject` is true.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BanditTwoSampleReport {
    /// The level α of the test.
    pub alpha: f64,
    /// Arms are numbered from this (0 or 1) in the sample file.
    #[schemars(range(max = 1))]
    pub base: u32,
    /// The command.
    pub command: GofCommand,
    /// The index conventions, in words.
    pub conventions: String,
    /// What is tested and how, in words: a two-sample test.
    pub method: String,
    /// The number of samples in the file.
    #[schemars(range(min = 1))]
    pub n: usize,
    /// The number of reference sequences simulated.
    pub n_reference: usize,
    /// The power at which `n_for_tv` detects the distance `tv`.
    pub power: f64,
    /// Whether the two samples are rejected as draws of one law.
    pub reject: bool,
    /// The sample file.
    pub samples: String,
    /// The version of this report's keys.
    pub schema_version: SchemaVersion,
    /// The seed of the reference simulation.
    pub seed: u64,
    /// The statistics, the p-value and the reference are f64.
    pub statistics_kind: Approximate,
    /// The target as given.
    pub target: BanditGiven,
    /// The chi-square test of homogeneity.
    pub test: ChiSquareTest,
    /// The total-variation distance whose detecting sample size is
    /// reported (null: none asked for).
    pub tv: Option<f64>,
    /// `rejected` or `consistent`, as `reject` says.
    pub verdict: Verdict,
}

impl BanditTwoSampleReport {
    /// The report of `outcome`, the test under `options` of the samples in
    /// the file `samples` (arms numbered from `base`) against a simulation
    /// seeded by `seed`.
    pub fn new(
        given: BanditGiven,
        samples: &Path,
        base: u32,
        seed: u64,
        options: &GofOptions,
        outcome: &TwoSample,
    ) -> BanditTwoSampleReport {
        BanditTwoSampleReport {
            alpha: options.alpha,
            base,
            command: GofCommand,
            conventions: CONVENTIONS.to_string(),
            method: TWO_SAMPLE_METHOD.to_string(),
            n: outcome.n,
            n_reference: outcome.n_reference,
            power: options.power,
            reject: outcome.reject,
            samples: samples.display().to_string(),
            schema_version: SchemaVersion,
            seed,
            statistics_kind: Approximate,
            target: given,
            test: outcome.test.clone(),
            tv: options.tv,
            verdict: Verdict::of(outcome.reject),
        }
    }
}

/// The target in words: the algorithm, its parameters as given and the
/// reward file.
impl fmt::Display for BanditGiven {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.algorithm)?;
        if let Some(e) = &self.epsilon {
            write!(f, ", ε = {e}")?;
        }
        for (flag, value) in [
            ("noise-scale", &self.noise_scale),
            ("epoch-length", &self.epoch_length),
            ("tree-scale", &self.tree_scale),
            ("scale-factor", &self.scale_factor),
            ("bonus", &self.bonus),
            ("beta", &self.beta),
            ("pull-order", &self.pull_order),
            ("rounding", &self.rounding),
            ("radius", &self.radius),
            ("reward-index", &self.reward_index),
            ("tree-depth", &self.tree_depth),
            ("ties", &self.ties),
            ("bonus-round", &self.bonus_round),
        ] {
            if let Some(v) = value {
                write!(f, ", {flag} {v}")?;
            }
        }
        if self.pull_order.as_deref() == Some(PullOrder::Any.name()) {
            f.write_str(" (tested on the per-epoch pull counts)")?;
        }
        if let Some(file) = &self.rewards_file {
            write!(f, ", rewards {file}")?;
        }
        Ok(())
    }
}

/// Pulls for people, comma-separated.
pub(super) fn pulls_text(pulls: &[usize]) -> String {
    pulls
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// A table: a line of description, the conventions, then one line per
/// pull sequence of possibly positive probability.
impl Human for BanditLawReport {
    fn human(&self) -> String {
        let mut out = String::new();
        let Horizon(horizon) = &self.horizon;
        let _ = writeln!(
            out,
            "{}: K = {}, T = {horizon}, {} pull sequence{} of positive probability, law {}",
            self.target,
            self.arms,
            self.law.len(),
            if self.law.len() == 1 { "" } else { "s" },
            self.header.how()
        );
        let _ = writeln!(out, "({}; base {})", self.conventions, self.base);
        for p in &self.law {
            let _ = writeln!(
                out,
                "  {}  {}",
                pulls_text(&p.pulls),
                probability_text(&p.probability, p.probability_exact.as_ref())
            );
        }
        if let Some(p) = &self.probability {
            let _ = writeln!(
                out,
                "P({}) = {}",
                pulls_text(&p.pulls),
                probability_text(&p.probability, p.probability_exact.as_ref())
            );
        }
        out.trim_end().to_string()
    }
}

/// One line: what was written where.
impl Human for BanditSampleReport {
    fn human(&self) -> String {
        format!(
            "{}: wrote {} of {} ({}, arms from {}, seed {}) to {}",
            self.target,
            super::counted(self.n, "pull sequence"),
            super::counted(&self.horizon.0, "round"),
            self.format.name(),
            self.base,
            self.seed,
            self.out
        )
    }
}

/// A table: the joint test, then the rule and the verdict.
impl Human for BanditGofReport {
    fn human(&self) -> String {
        let mut out = table_head(
            &self.target.to_string(),
            self.n,
            "pull sequence",
            self.support_violation.as_ref(),
        );
        let tests: Vec<(String, _)> = self.test.iter().map(|t| ("joint".to_string(), t)).collect();
        out.push_str(&tests_table(&tests, self.tv.is_some()));
        out.push_str(&rare_cells_lines(&tests, self.per_test_alpha));
        let level = match self.tests {
            1 => String::new(),
            m => format!(": {m} tests, each at {:.3e}", self.per_test_alpha),
        };
        let _ = writeln!(
            out,
            "rule: {}\n{}{level} (alpha {})",
            self.rules,
            self.verdict.against_law(),
            self.alpha
        );
        if let (Some(departure), true) = (&self.departure, self.reject) {
            let _ = writeln!(out, "{departure}");
        }
        if let Some(fits) = &self.explain {
            let refused = self.explain_refused.as_deref().unwrap_or_default();
            if fits.is_empty() && refused.is_empty() {
                // DP-UCB's one reading, its tree depth, is not tried when
                // `--noise-scale` fixes the node scale the depth would set.
                let why = if self.target.algorithm == "dp-ucb" && self.target.noise_scale.is_some()
                {
                    ": its tree depth sets nothing once --noise-scale is given"
                } else {
                    ""
                };
                let _ = writeln!(
                    out,
                    "explain: {} has no named readings to try{why}",
                    self.target.algorithm
                );
            }
            let fitting: Vec<&VariantFit> = fits.iter().filter(|f| !f.reject).collect();
            if !fits.is_empty() && fitting.is_empty() {
                let _ = writeln!(
                    out,
                    "explain: the samples fit none of the {} readings tried",
                    fits.len()
                );
            }
            for fit in fitting {
                let _ = writeln!(
                    out,
                    "explain: fits {} (p = {})",
                    named(&fit.readings),
                    fit.p_value
                        .map_or_else(|| "1".to_string(), |p| format!("{p:.4}"))
                );
            }
            for reading in refused {
                let _ = writeln!(
                    out,
                    "explain: not tried {}: {}",
                    named(&reading.readings),
                    reading.reason
                );
            }
        }
        out.trim_end().to_string()
    }
}

/// A reading in words: `ties uniform`, `beta 1/T, pull-order blocks, …`.
fn named(readings: &Readings) -> String {
    let pairs: Vec<String> = readings.iter().map(|(k, v)| format!("{k} {v}")).collect();
    pairs.join(", ")
}

/// A table, labelled as a two-sample test.
impl Human for BanditTwoSampleReport {
    fn human(&self) -> String {
        let mut out = format!(
            "{}: {} pull sequences against {} simulated by dpdtol (seed {}): a TWO-SAMPLE test, this algorithm has no exact or certified law\n",
            self.target,
            self.n,
            self.n_reference,
            self.seed
        );
        out.push_str(&tests_table(
            &[("2-sample".to_string(), &self.test)],
            self.tv.is_some(),
        ));
        let _ = writeln!(
            out,
            "rule: {}\n{} (alpha {})",
            self.method,
            match self.verdict {
                Verdict::Rejected => "REJECTED: the two samplers differ",
                Verdict::Consistent => "consistent with dpdtol's simulation",
            },
            self.alpha
        );
        out.trim_end().to_string()
    }
}
