//! The result of `dpdtol privacy` on Lazy-DP-TS or Hybrid-UCB as a
//! statistical audit ([`crate::privacy::bandit::audit_run`]): simulated,
//! approximate, under the keys of the other privacy reports; a part's
//! report carries its counts, which a merge reads back.

use super::privacy::{bound_decimal, field, number_field, sequence_text};
use super::{
    enclosure, fraction, Decimal, Enclosure, Fraction, Human, NumberKind, SchemaVersion, DIGITS,
};
use crate::bandit::law::params::Scales;
use crate::bandit::policy::dp_ts::BonusRound;
use crate::bandit::policy::{BanditId, Named};
use crate::error::{Error, Result};
use crate::mechanism::Noise;
use crate::num::{format_sig_directed, Dir, Q};
use crate::privacy::bandit::audit_run::{Audit, AuditRun, Given};
use crate::privacy::bandit::exact::units_of;
use crate::privacy::bandit::statistical::{AuditOutcome, AuditSetup, Counts};
use crate::privacy::{Shard, Verdict};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::fmt::Write;

/// What the method is, in the output.
const METHOD: &str = "statistical: simulated pull sequences on an adversarial selection of neighbouring reward tables (rows 3..T constant, each neighbour changing round 1's or 2's seen reward or one later row); per ordered pair the event (a round's arm, or a Neyman-Pearson set of pull sequences) is chosen on the first half of the runs and bounded on the second half with one-sided Clopper-Pearson bounds, Bonferroni across pairs";

/// Why a Hybrid-UCB audit is not certified.
const WHY_NOT_EXACT_HYBRID: &str = "this is the statistical audit (--method statistical); the certified law of the pull sequence is Hybrid-UCB's exact check (--method exact, the default): see the documentation of bandit::law::hybrid_ucb";

/// Why a Lazy-DP-TS audit is not certified.
const WHY_NOT_EXACT_TS: &str = "the Beta parameters of line 4 move continuously with the Laplace noise (no certified incomplete beta with real parameters, and a product over rounds integrated over up to 4 noises): see the documentation of privacy::bandit::statistical::TsParams";

/// What the statistical reports say of `witness.ratio_estimate` (its key is
/// kept for the contract; the note says what it is).
const RATIO_ESTIMATE_NOTE: &str = "witness.ratio_estimate is a point estimate on the test halves of P(E|x)/P(E|x') for the pair and event whose lower bound is the largest over all audited pairs; that pair is chosen on these same test counts, so the estimate is the maximum of many noisy estimates and biased upward; only epsilon_lower (and max_ratio = e^epsilon_lower) carries the confidence level";

/// The most discriminating pair of an audit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AuditWitness {
    /// The first pull sequence of the event (1-based arms).
    pub actions: Vec<u64>,
    /// The event's count in x's test half and in x′'s.
    pub counts: [u64; 2],
    /// The event: its pull sequences (1-based arms, rounds 1..T).
    pub event: Vec<Vec<u64>>,
    /// The reward table x (rows: rounds; columns: arms).
    pub losses: Vec<Vec<Fraction>>,
    /// The neighbour x′.
    pub neighbour: Vec<Vec<Fraction>>,
    /// The Clopper–Pearson lower bound of P(E|x) and upper bound of P(E|x′).
    pub probability_bounds: [f64; 2],
    /// The point estimate of P(E|x)/P(E|x′) on the test halves (biased upward: see note).
    pub ratio_estimate: Decimal,
    /// The reward table x, the same as `losses`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rewards: Option<Vec<Vec<Fraction>>>,
    /// The round (from 1) where x and x′ differ.
    pub round: u64,
    /// Runs of each table's test half.
    pub test_runs: u64,
}

/// What a merge reads: a part's counts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AuditMergeKeys {
    /// Per table of the part's runs (from `first_table` on), the counts of each pull code 0..2^(T−2) (bit t−3: the arm of round t) in the selection and the test halves.
    pub counts: Vec<[Vec<u64>; 2]>,
    /// The table of `counts[0]`.
    pub first_table: u64,
}

/// The result of the statistical privacy audit of Lazy-DP-TS or Hybrid-UCB
/// (approximate; its verdict is `violated` or `undecided`, never
/// `private`), or of a part of its runs (counts only).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct StatisticalPrivacyReport {
    /// 2.
    pub actions: u64,
    /// The algorithm's id.
    pub algorithm: String,
    /// Hybrid-UCB: true (its formulas are inferred).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub algorithm_inferred: Option<bool>,
    /// The reward values.
    pub alphabet: Vec<Fraction>,
    /// The bonus constant.
    pub bonus: Fraction,
    /// DP-TS: the round whose ln t its bonus reads, `current` or `last-update` (absent for the others).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bonus_round: Option<String>,
    /// e^ε, to its certain digits.
    pub bound: Decimal,
    /// An enclosure of e^ε.
    pub bound_interval: Option<Enclosure>,
    /// The confidence level of `epsilon_lower`.
    pub confidence: f64,
    /// The ε checked.
    pub epsilon: Fraction,
    /// The lower confidence bound on the actual ε (0 for a part).
    pub epsilon_lower: Decimal,
    /// The horizon T, as a string of the integer.
    pub horizon: String,
    /// `approximate`.
    pub kind: NumberKind,
    /// The one-sided level of each Clopper–Pearson bound (Bonferroni).
    pub level_per_bound: f64,
    /// e^epsilon_lower: the lower confidence bound of the largest ratio, not an enclosure (a part's: 1).
    pub max_ratio: Decimal,
    /// `[max_ratio, "inf"]`.
    pub max_ratio_confidence_interval: [Decimal; 2],
    /// null.
    pub max_ratio_exact: Option<Fraction>,
    /// null.
    pub max_ratio_interval: Option<Enclosure>,
    /// What a merge reads.
    pub merge: AuditMergeKeys,
    /// The method, in words.
    pub method: String,
    /// `laplace`.
    pub noise: Noise,
    /// The Laplace scale (Hybrid-UCB: the array blocks').
    pub noise_scale: Fraction,
    /// What `witness.ratio_estimate` is.
    pub note: String,
    /// The ordered pairs audited.
    pub pairs: u64,
    /// false.
    pub resample: bool,
    /// Runs per table.
    pub runs_per_table: u64,
    /// The version of this report's keys.
    pub schema_version: SchemaVersion,
    /// The master seed.
    pub seed: u64,
    /// Which part of the runs: `I/N` (`1/1` for the whole run).
    pub shard: String,
    /// A merged report only: what the merge re-verified by recomputing
    /// the shards' tables.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spot_check: Option<super::merge::SpotCheck>,
    /// The tables audited.
    pub tables: u64,
    /// Hybrid-UCB: the tree p-sums' Laplace scale per level.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tree_scale: Option<Fraction>,
    /// `violated` or `undecided`.
    pub verdict: Verdict,
    /// The verdict in words.
    pub verdict_text: String,
    /// Why the numbers are not certified.
    pub why_not_certified: String,
    /// The most discriminating pair (null for a part).
    pub witness: Option<AuditWitness>,
}

/// An f64 as a decimal (the exact value of the double, rounded down).
fn f64_decimal(x: f64) -> Decimal {
    Decimal(Q::from_float(x).map_or_else(
        || x.to_string(),
        |q| format_sig_directed(&q, DIGITS, Dir::Down),
    ))
}

/// Table `index` of the audit's selection as exact rewards.
fn table(run: &AuditRun, outcome: &AuditOutcome, index: usize) -> Vec<Vec<Fraction>> {
    outcome.selection.tables[index]
        .iter()
        .map(|row| {
            row.iter()
                .map(|&v| fraction(&run.audit.alphabet[v]))
                .collect()
        })
        .collect()
}

/// The event's pull sequences (1-based arms, rounds 1..T).
fn sequences(run: &AuditRun, outcome: &AuditOutcome) -> Vec<Vec<u64>> {
    let t = run.audit.setup.horizon;
    let codes = 1u64 << t.saturating_sub(2);
    (0..codes)
        .filter(|c| outcome.best.event >> c & 1 == 1)
        .map(|c| {
            (0..t as u64)
                .map(|r| if r < 2 { r + 1 } else { (c >> (r - 2) & 1) + 1 })
                .collect()
        })
        .collect()
}

impl StatisticalPrivacyReport {
    /// The report of `run`.
    pub fn new(run: &AuditRun) -> StatisticalPrivacyReport {
        let (a, setup) = (&run.audit, &run.audit.setup);
        let outcome = run.outcome.as_ref();
        let lower = outcome.map_or(0.0, |o| o.best.epsilon_lower);
        let witness = outcome.map(|o| {
            let b = &o.best;
            let event = sequences(run, o);
            let losses = table(run, o, b.first);
            AuditWitness {
                actions: event.first().cloned().unwrap_or_default(),
                counts: [b.counts.0, b.counts.1],
                event,
                rewards: Some(losses.clone()),
                losses,
                neighbour: table(run, o, b.second),
                probability_bounds: [b.bounds.0, b.bounds.1],
                ratio_estimate: f64_decimal(b.ratio_estimate),
                round: b.round as u64,
                test_runs: setup.runs - setup.runs / 2,
            }
        });
        let verdict_text = match outcome {
            Some(o) => format!(
                "{} at confidence {}",
                if o.violated {
                    "violated"
                } else {
                    "no violation detected"
                },
                o.confidence
            ),
            None => format!(
                "shard {} of the runs: counts only, no audit until the --json outputs of all {} shards are merged (--merge)",
                run.shard, run.shard.count
            ),
        };
        // The one-sided level of each bound: δ/(2m).
        let level = outcome.map_or_else(
            || (1.0 - setup.confidence) / (2.0 * run.sizes.1.max(1) as f64),
            |o| o.level,
        );
        let hybrid = matches!(a.id, BanditId::HybridUcb | BanditId::DpTs);
        StatisticalPrivacyReport {
            actions: 2,
            algorithm: a.id.name().to_string(),
            algorithm_inferred: hybrid.then_some(true),
            alphabet: a.alphabet.iter().map(fraction).collect(),
            bonus: fraction(&a.bonus),
            bonus_round: (a.id == BanditId::DpTs).then(|| a.bonus_round.name().to_string()),
            bound: bound_decimal(&run.bound),
            bound_interval: enclosure(&run.bound),
            confidence: setup.confidence,
            epsilon: fraction(&a.epsilon),
            epsilon_lower: f64_decimal(lower),
            horizon: setup.horizon.to_string(),
            kind: NumberKind::Approximate,
            level_per_bound: level,
            max_ratio: f64_decimal(lower.exp()),
            max_ratio_confidence_interval: [f64_decimal(lower.exp()), Decimal("inf".into())],
            max_ratio_exact: None,
            max_ratio_interval: None,
            merge: AuditMergeKeys {
                counts: run
                    .counts
                    .iter()
                    .map(|c| [c.selection.clone(), c.test.clone()])
                    .collect(),
                first_table: run.first_table as u64,
            },
            method: METHOD.into(),
            noise: Noise::Laplace,
            noise_scale: fraction(&a.scale),
            note: RATIO_ESTIMATE_NOTE.into(),
            pairs: run.sizes.1 as u64,
            resample: false,
            runs_per_table: setup.runs,
            schema_version: SchemaVersion,
            seed: setup.seed,
            shard: run.shard.to_string(),
            spot_check: None,
            tables: run.sizes.0 as u64,
            tree_scale: hybrid.then(|| fraction(&a.tree_scale)),
            verdict: if run.violated() {
                Verdict::Violated
            } else {
                Verdict::Undecided
            },
            verdict_text,
            why_not_certified: if hybrid {
                WHY_NOT_EXACT_HYBRID
            } else {
                WHY_NOT_EXACT_TS
            }
            .into(),
            witness,
        }
    }
}

impl super::merge::Part for StatisticalPrivacyReport {
    type Content = AuditRun;

    const WRITER: &'static str = "dpdtol privacy";

    /// The audit rebuilt from its fields (through [`Audit::new`], the
    /// command line's checks), its part's tables computed and its counts
    /// checked against them ([`Audit::read_part`]). What cannot be seen
    /// short of running the part again: counts that are not the
    /// simulation's.
    fn check(&self) -> Result<AuditRun> {
        let number = |name: &str, x: &Fraction| number_field(name, &x.0);
        let id: BanditId = self.algorithm.parse()?;
        if self.actions != 2 {
            return Err(field("actions"));
        }
        let scale = number("noise_scale", &self.noise_scale)?;
        let tree_scale = match (id, &self.tree_scale) {
            (BanditId::HybridUcb | BanditId::DpTs, Some(t)) => number("tree_scale", t)?,
            (_, None) => scale.clone(),
            _ => return Err(field("tree_scale")),
        };
        let bonus_round = match (id, &self.bonus_round) {
            (BanditId::DpTs, Some(name)) => {
                <BonusRound as Named>::parse(name).map_err(|_| field("bonus_round"))?
            }
            (BanditId::DpTs, None) | (_, Some(_)) => return Err(field("bonus_round")),
            (_, None) => BonusRound::default(),
        };
        let audit = Audit::new(
            id,
            Given {
                epsilon: number("epsilon", &self.epsilon)?,
                alphabet: self
                    .alphabet
                    .iter()
                    .map(|x| number("alphabet", x))
                    .collect::<Result<Vec<Q>>>()?,
                scales: Scales {
                    scale,
                    tree_scale,
                    bonus: number("bonus", &self.bonus)?,
                },
                bonus_round,
            },
            AuditSetup {
                horizon: self.horizon.parse().map_err(|_| field("horizon"))?,
                alphabet: Vec::new(),
                runs: self.runs_per_table,
                seed: self.seed,
                confidence: self.confidence,
                force: false,
            },
        )?;
        let shard: Shard = self.shard.parse().map_err(|_| field("shard"))?;
        let counts = self
            .merge
            .counts
            .iter()
            .map(|[selection, test]| Counts {
                selection: selection.clone(),
                test: test.clone(),
            })
            .collect();
        audit.read_part(shard, self.merge.first_table, counts)
    }

    fn written(run: &AuditRun) -> StatisticalPrivacyReport {
        StatisticalPrivacyReport::new(run)
    }
}

/// The shards of one statistical audit merge by summing their counts and
/// analysing them once ([`crate::privacy::bandit::audit_run::merge`]): what
/// the whole run prints.
impl super::merge::Whole for StatisticalPrivacyReport {
    fn kind(name: &str, value: &serde_json::Value) -> Result<()> {
        if is_report(value) {
            return Ok(());
        }
        Err(Error::InvalidInput(format!(
            "{name} is not the report of a lazy-dp-ts, dp-ts or hybrid-ucb audit, as the other inputs are"
        )))
    }

    fn merge(parts: Vec<(String, AuditRun)>) -> Result<AuditRun> {
        crate::privacy::bandit::audit_run::merge(parts)
    }

    fn with_spot_check(self, spot_check: super::merge::SpotCheck) -> StatisticalPrivacyReport {
        StatisticalPrivacyReport {
            spot_check: Some(spot_check),
            ..self
        }
    }
}

/// A statistical shard's units are groups of the consecutive tables it
/// touches (`merge.counts`, one entry per table from `merge.first_table`
/// on): at most [`MAX_UNITS`](crate::privacy::bandit::exact::MAX_UNITS)
/// groups tiling them ([`units_of`]), one table a unit when the shard has
/// at most that many. Unit `u` is recomputed by simulating its tables'
/// chunks of the shard again, which are deterministic given the seed
/// ([`AuditRun::recount`]).
impl super::merge::Units for AuditRun {
    fn shard(&self) -> Shard {
        self.shard
    }

    fn unit_count(&self) -> u64 {
        units_of(&(0..self.counts.len() as u64)).len() as u64
    }

    fn recompute(&self, unit: u64) -> Result<()> {
        let groups = units_of(&(0..self.counts.len() as u64));
        let tables = groups.get(unit as usize).cloned().unwrap_or(0..0);
        for index in tables {
            let table = self.first_table.saturating_add(index as usize);
            if self.counts.get(index as usize) != Some(&self.recount(table)?) {
                return Err(crate::error::Error::InvalidInput(format!(
                    "unit {unit} (table {table}): field 'merge.counts[{index}]' is not what simulating the table's runs again gives (altered, or not this shard's)"
                )));
            }
        }
        Ok(())
    }
}

/// Whether `value` is the report of a statistical audit (`kind`
/// approximate, `algorithm` lazy-dp-ts, dp-ts or hybrid-ucb).
pub fn is_report(value: &serde_json::Value) -> bool {
    value.get("kind").and_then(serde_json::Value::as_str) == Some("approximate")
        && value
            .get("algorithm")
            .and_then(serde_json::Value::as_str)
            .and_then(|a| a.parse::<BanditId>().ok())
            .is_some_and(|id| {
                matches!(
                    id,
                    BanditId::LazyDpTs | BanditId::DpTs | BanditId::HybridUcb
                )
            })
}

/// An f64 written by the report, read back (the same double: 40 digits of
/// its exact value).
fn float(d: &Decimal) -> f64 {
    d.0.parse().unwrap_or(f64::NAN)
}

/// A paragraph labelled as a statistical audit: the lower bound on ε and
/// the most discriminating pair, or for a shard its counts only.
impl Human for StatisticalPrivacyReport {
    fn human(&self) -> String {
        let alphabet: Vec<&str> = self.alphabet.iter().map(|a| a.0.as_str()).collect();
        let mut out = String::new();
        let scales = match &self.tree_scale {
            Some(tree) => format!(
                "array scale {}, tree scale {tree} per level, inferred algorithm",
                self.noise_scale
            ),
            None => format!("scale {}", self.noise_scale),
        };
        let bonus_round = self
            .bonus_round
            .as_ref()
            .map_or_else(String::new, |r| format!(", bonus round {r}"));
        let _ = writeln!(
            out,
            "{} (Laplace noise, {scales}, bonus {}{bonus_round}), K = 2, horizon {}, rewards {{{}}}, ε = {}: STATISTICAL AUDIT (approximate)",
            self.algorithm,
            self.bonus,
            self.horizon,
            alphabet.join(", "),
            self.epsilon
        );
        let Some(w) = &self.witness else {
            let runs: u64 = self
                .merge
                .counts
                .iter()
                .map(|[selection, test]| selection.iter().chain(test).sum::<u64>())
                .sum();
            let _ = write!(
                out,
                "SHARD {}: {runs} runs of tables {}..{} of {} simulated ({} runs per table, seed {}); counts only: the audit is made by --merge of the --json outputs of all {} shards",
                self.shard,
                self.merge.first_table,
                self.merge.first_table + self.merge.counts.len() as u64,
                self.tables,
                self.runs_per_table,
                self.seed,
                self.shard.parse::<Shard>().map_or(0, |s| s.count)
            );
            return out;
        };
        let lower = float(&self.epsilon_lower);
        let _ = writeln!(
            out,
            "{}: ε_actual ≥ {:.4} (ratio ≥ {:.4}) vs ε = {} (e^ε = {})",
            self.verdict_text.to_uppercase(),
            lower,
            lower.exp(),
            self.epsilon,
            self.bound
        );
        let _ = writeln!(
            out,
            "  most discriminating pair (round {} replaced; rows (arm 1, arm 2)):",
            w.round
        );
        let _ = writeln!(out, "    rewards   {}", sequence_text(&w.losses));
        let _ = writeln!(out, "    neighbour {}", sequence_text(&w.neighbour));
        let seqs: Vec<String> = w
            .event
            .iter()
            .map(|s| s.iter().map(ToString::to_string).collect::<String>())
            .collect();
        let test = w.test_runs;
        let _ = writeln!(
            out,
            "    event: pulls in {{{}}}; test counts {}/{test} vs {}/{test}, estimated ratio {:.4} (biased upward: the largest of the pairs' estimates)",
            seqs.join(", "),
            w.counts[0],
            w.counts[1],
            float(&w.ratio_estimate)
        );
        let _ = write!(
            out,
            "  {} ordered pairs of {} tables, {} runs per table (seed {}); each Clopper–Pearson bound one-sided at {:.3e} (Bonferroni); not a proof of privacy",
            self.pairs, self.tables, self.runs_per_table, self.seed, self.level_per_bound
        );
        if let Some(spot) = &self.spot_check {
            let _ = write!(out, "\n  {}", spot.line());
        }
        out
    }
}
