//! The result of `dpdtol bandit`: the simulated (f64, approximate)
//! pseudo-regret of bandit algorithms ([`crate::bandit::policy::sim`]) at
//! logarithmically spaced checkpoints, averaged over independent runs, with
//! two confidence intervals at each, and the explicit bound of Hu, Huang,
//! Mehta & Hegde's Theorem 3 decided against the empirical-Bernstein one.

use super::{decimal, fraction, Decimal, Float, Fraction, NumberKind, SchemaVersion};
use crate::bandit::policy::bounds::{anytime_lazy_ucb_bound, Verdict};
use crate::bandit::policy::experiment::Plan;
use crate::bandit::policy::sim::{self, RewardLaw, Run, Summary};
use crate::bandit::policy::Named;
use crate::bandit::policy::{BanditConfig, BanditId};
use crate::error::Result;
use crate::num::Q;
use crate::regret::bounds::BoundKind;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::fmt::Write;

/// The output of `dpdtol bandit --json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BanditReport {
    /// The rounds t at which the regret is reported.
    pub checkpoints: Vec<u64>,
    /// `bandit`.
    pub command: String,
    /// The confidence intervals: their level and what they assume.
    pub confidence: Confidence,
    /// The preset (`--experiment`), or null.
    pub experiment: Option<String>,
    /// The horizon T, the exact integer as a string.
    pub horizon: String,
    /// `approximate`: every number is simulated in f64.
    pub kind: NumberKind,
    /// The Bernoulli means as given, each exact value rounded to 40
    /// significant digits (the simulation draws with the nearest f64 of each).
    pub means: Vec<Decimal>,
    /// The Bernoulli means as given, exactly.
    pub means_exact: Vec<Fraction>,
    /// One entry per simulated algorithm and ε.
    pub results: Vec<BanditResult>,
    /// Independent runs per algorithm and ε.
    pub runs: u64,
    /// The version of this report's keys.
    pub schema_version: SchemaVersion,
    /// The master seed.
    pub seed: u64,
    /// `bernoulli`: the rewards of arm j are Bernoulli(μ_j).
    pub setting: String,
}

/// The level of the confidence intervals and what each assumes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Confidence {
    /// What `bernstein_interval` is.
    pub bernstein_interval: String,
    /// The confidence level 1 − α.
    pub level: Float,
    /// What `t_interval` is.
    pub t_interval: String,
}

/// The simulated regret of one algorithm at one ε.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BanditResult {
    /// The algorithm's id.
    pub algorithm: String,
    /// The empirical-Bernstein interval on the mean regret at each checkpoint.
    pub bernstein_interval: Vec<[Float; 2]>,
    /// The explicit bounds of the papers' proofs, decided statistically.
    pub bounds: Vec<BanditBound>,
    /// The privacy parameter; null for a non-private baseline.
    pub epsilon: Option<Float>,
    /// The regret at the horizon.
    #[serde(rename = "final")]
    pub at_horizon: Option<FinalRegret>,
    /// The mean regret over the runs at each checkpoint.
    pub mean: Vec<Float>,
    /// The mean number of pulls of each arm by the horizon.
    pub mean_pulls: Vec<Float>,
    /// dp-se: the order of its pulls inside an epoch (`--pull-order`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pull_order: Option<String>,
    /// dp-se: the rounding of its epoch lengths (`--rounding`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounding: Option<String>,
    /// dp-se: the `R_e` its elimination radius reads (`--radius`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub radius: Option<String>,
    /// dp-ucb: the binary mechanism's depth `L` (`--tree-depth`; default
    /// `⌈log₂ T⌉`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tree_depth: Option<u32>,
    /// ucb1: how it chooses among arms of equal index (`--ties`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ties: Option<String>,
    /// dp-ts: the round whose `ln t` its bonus reads; ucb1: the round
    /// count whose logarithm its bonus reads (`--bonus-round`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bonus_round: Option<String>,
    /// The standard deviation of the runs' regret at each checkpoint.
    pub sd: Vec<Float>,
    /// The Student-t interval on the mean regret at each checkpoint.
    pub t_interval: Vec<[Float; 2]>,
}

/// The regret at the horizon T.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FinalRegret {
    /// The empirical-Bernstein interval on the mean regret.
    pub bernstein_interval: [Float; 2],
    /// The mean regret over the runs.
    pub regret: Float,
    /// The standard deviation of the runs' regret.
    pub sd: Float,
    /// The Student-t interval on the mean regret.
    pub t_interval: [Float; 2],
}

/// An explicit bound on the regret, its value at each checkpoint and the
/// statistical verdict there.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BanditBound {
    /// The verdict at the horizon; null without checkpoints.
    pub holds: Option<StatisticalVerdict>,
    /// The verdict at each checkpoint.
    pub holds_at_checkpoints: Vec<StatisticalVerdict>,
    /// The bound's id.
    pub id: String,
    /// Upper or lower.
    pub kind: BoundKind,
    /// How the verdicts are decided.
    pub method: String,
    /// Paper, statement and line.
    pub source: String,
    /// The bound at the horizon; null without checkpoints.
    pub value: Option<Float>,
    /// `approximate`: the bound is evaluated in f64.
    pub value_kind: NumberKind,
    /// The bound at each checkpoint.
    pub values: Vec<Float>,
}

/// A bound against a confidence interval on the mean regret.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum StatisticalVerdict {
    /// The interval lies below an upper bound: it holds, at the interval's confidence.
    Holds,
    /// The interval lies above it: it is violated, at the interval's confidence.
    Violated,
    /// The interval straddles the bound.
    Inconclusive,
}

impl StatisticalVerdict {
    /// `holds`, `violated` or `inconclusive`.
    pub fn name(self) -> &'static str {
        match self {
            StatisticalVerdict::Holds => "holds",
            StatisticalVerdict::Violated => "violated",
            StatisticalVerdict::Inconclusive => "inconclusive",
        }
    }
}

impl From<Verdict> for StatisticalVerdict {
    fn from(verdict: Verdict) -> StatisticalVerdict {
        match verdict {
            Verdict::Holds => StatisticalVerdict::Holds,
            Verdict::Violated => StatisticalVerdict::Violated,
            Verdict::Inconclusive => StatisticalVerdict::Inconclusive,
        }
    }
}

/// The bound row's id and source.
const BOUND_ID: &str = "hu-thm3-proof";
const BOUND_SOURCE: &str =
    "Hu, Huang, Mehta & Hegde (journal version), Theorem 3, proof in Appendix B.2.1 ((23)–(28), Lemma 19, L526–L572) with Facts (12), (13)";

/// What was simulated, as given.
#[derive(Clone, Debug)]
pub struct Simulation<'a> {
    /// The preset, as given.
    pub experiment: Option<&'a str>,
    /// The Bernoulli means, exactly.
    pub means: &'a [Q],
    /// The horizon T.
    pub horizon: u64,
    /// Runs per configuration.
    pub runs: u64,
    /// The master seed.
    pub seed: u64,
    /// One minus the confidence level.
    pub alpha: f64,
    /// The checkpoints.
    pub checkpoints: &'a [u64],
}

impl BanditReport {
    /// The report of `results`, simulated as `simulation` says.
    pub fn new(simulation: &Simulation, results: Vec<BanditResult>) -> BanditReport {
        BanditReport {
            checkpoints: simulation.checkpoints.to_vec(),
            command: "bandit".to_string(),
            confidence: Confidence {
                bernstein_interval: "empirical Bernstein (Maurer & Pontil 2009, Thm 4), two-sided, valid for per-run regret in [0, Δmax·t]".to_string(),
                level: Float(1.0 - simulation.alpha),
                t_interval: "Student t on the mean of the runs (assumes normal sample means)".to_string(),
            },
            experiment: simulation.experiment.map(str::to_string),
            horizon: simulation.horizon.to_string(),
            kind: NumberKind::Approximate,
            means: simulation.means.iter().map(decimal).collect(),
            means_exact: simulation.means.iter().map(fraction).collect(),
            results,
            runs: simulation.runs,
            schema_version: SchemaVersion,
            seed: simulation.seed,
            setting: "bernoulli".to_string(),
        }
    }

    /// Simulate `configs` ([`Plan::configs`]) of `plan` `plan.runs` times
    /// each, seeded by `seed` (run i uses streams 2i and 2i+1), and report
    /// the mean regret at ten checkpoints per decade with its confidence
    /// intervals; `experiment` is the preset's name, `done` is called after
    /// each run (a progress bar). Runs on the current rayon pool.
    pub fn simulate(
        plan: &Plan,
        configs: &[BanditConfig],
        experiment: Option<&str>,
        seed: u64,
        done: &(dyn Fn() + Sync),
    ) -> Result<BanditReport> {
        let marks = sim::checkpoints(plan.horizon, 10);
        let grid = sim::simulate(
            configs,
            &plan.law,
            plan.horizon,
            plan.runs,
            seed,
            &marks,
            done,
        )?;
        let results = configs
            .iter()
            .zip(grid)
            .map(|(config, runs)| BanditResult::new(config, &runs, &marks, &plan.law, plan.alpha))
            .collect();
        let simulation = Simulation {
            experiment,
            means: &plan.means,
            horizon: plan.horizon,
            runs: plan.runs,
            seed,
            alpha: plan.alpha,
            checkpoints: &marks,
        };
        Ok(BanditReport::new(&simulation, results))
    }
}

fn pair(p: (f64, f64)) -> [Float; 2] {
    [Float(p.0), Float(p.1)]
}

impl BanditResult {
    /// The summary of `runs` of `config` at `checkpoints` on the arms of
    /// `law`: the intervals at confidence `1 − alpha`,
    /// the empirical-Bernstein one for a regret in `[0, Δmax·t]`; and, for
    /// Anytime-Lazy-UCB with its default parameters, the bound of Theorem 3's
    /// proof ([`anytime_lazy_ucb_bound`]).
    pub fn new(
        config: &BanditConfig,
        runs: &[Run],
        checkpoints: &[u64],
        law: &RewardLaw,
        alpha: f64,
    ) -> BanditResult {
        let dmax = law.gaps().into_iter().fold(0.0, f64::max);
        let dp_se = config.id == BanditId::DpSe;
        let summaries: Vec<Summary> = checkpoints
            .iter()
            .enumerate()
            .map(|(i, &t)| {
                let samples: Vec<f64> = runs.iter().map(|r| r.regret[i]).collect();
                sim::summarise(&samples, dmax * t as f64, alpha)
            })
            .collect();
        let k = runs.first().map_or(0, |r| r.pulls.len());
        let mean_pulls = (0..k)
            .map(|j| Float(runs.iter().map(|r| r.pulls[j] as f64).sum::<f64>() / runs.len() as f64))
            .collect();
        let bounds = if config.id == BanditId::AnytimeLazyUcb
            && config.noise_scale.is_none()
            && config.bonus.is_none()
        {
            let values = anytime_lazy_ucb_bound(&law.means(), config.epsilon, checkpoints);
            vec![bound(&values, &summaries, 1.0 - alpha)]
        } else {
            Vec::new()
        };
        BanditResult {
            algorithm: config.id.name().to_string(),
            bernstein_interval: summaries.iter().map(|s| pair(s.bernstein)).collect(),
            bounds,
            epsilon: config.id.is_private().then_some(Float(config.epsilon)),
            at_horizon: summaries.last().map(|s| FinalRegret {
                bernstein_interval: pair(s.bernstein),
                regret: Float(s.mean),
                sd: Float(s.sd),
                t_interval: pair(s.t),
            }),
            mean: summaries.iter().map(|s| Float(s.mean)).collect(),
            mean_pulls,
            pull_order: dp_se.then(|| config.pull_order.name().to_string()),
            rounding: dp_se.then(|| config.rounding.name().to_string()),
            radius: dp_se.then(|| config.radius.name().to_string()),
            tree_depth: (config.id == BanditId::DpUcb).then(|| {
                config.tree_depth.unwrap_or_else(|| {
                    // The last checkpoint is the horizon.
                    let horizon = checkpoints.last().copied().unwrap_or(0);
                    crate::bandit::policy::dp_ucb::printed_depth(horizon)
                })
            }),
            ties: (config.id == BanditId::Ucb1).then(|| config.ties.name().to_string()),
            bonus_round: match config.id {
                BanditId::DpTs => Some(config.bonus_round.name().to_string()),
                BanditId::Ucb1 => Some(config.ucb1_bonus_round.name().to_string()),
                _ => None,
            },
            sd: summaries.iter().map(|s| Float(s.sd)).collect(),
            t_interval: summaries.iter().map(|s| pair(s.t)).collect(),
        }
    }
}

/// The bound row of `values` (the bound at each checkpoint): the verdict
/// against the empirical-Bernstein interval (valid for bounded regret) at
/// every checkpoint.
fn bound(values: &[f64], summaries: &[Summary], level: f64) -> BanditBound {
    let verdicts: Vec<StatisticalVerdict> = summaries
        .iter()
        .zip(values)
        .map(|(s, b)| Verdict::decide(s.bernstein, *b).into())
        .collect();
    BanditBound {
        holds: verdicts.last().copied(),
        holds_at_checkpoints: verdicts,
        id: BOUND_ID.to_string(),
        kind: BoundKind::Upper,
        method: format!(
            "statistical: empirical-Bernstein interval on the mean regret at confidence {level}"
        ),
        source: BOUND_SOURCE.to_string(),
        value: values.last().copied().map(Float),
        value_kind: NumberKind::Approximate,
        values: values.iter().copied().map(Float).collect(),
    }
}

impl BanditReport {
    /// Every checkpoint of every algorithm as CSV (`--csv`): the mean
    /// regret, its standard deviation and both intervals.
    pub fn csv(&self) -> String {
        let mut text =
            String::from("algorithm,epsilon,t,mean,sd,t_lo,t_hi,bernstein_lo,bernstein_hi\n");
        for r in &self.results {
            let eps = r.epsilon.map_or(String::new(), |e| e.0.to_string());
            for (i, t) in self.checkpoints.iter().enumerate() {
                let [t_lo, t_hi] = r.t_interval[i];
                let [b_lo, b_hi] = r.bernstein_interval[i];
                let _ = writeln!(
                    text,
                    "{},{eps},{t},{},{},{},{},{},{}",
                    r.algorithm, r.mean[i].0, r.sd[i].0, t_lo.0, t_hi.0, b_lo.0, b_hi.0
                );
            }
        }
        text
    }

    /// The means as given, exactly: `3/4, 5/8, 1/2`.
    pub fn exact_means(&self) -> String {
        self.means_exact
            .iter()
            .map(|m| m.0.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The results of one ε panel: the private ones at ε and every
    /// non-private one.
    pub fn panel(&self, eps: f64) -> impl Iterator<Item = &BanditResult> {
        self.results
            .iter()
            .filter(move |r| r.epsilon.is_none_or(|e| e.0 == eps))
    }

    /// The confidence level in percent, rounded.
    pub fn percent(&self) -> f64 {
        (100.0 * self.confidence.level.0).round()
    }

    /// The report as tables, one panel per ε of `epsilons` (those
    /// simulated): the mean regret at the decades of t and at T, then the
    /// final regret with both intervals and the bound's verdict.
    pub fn tables(&self, epsilons: &[f64]) -> String {
        let level = self.percent();
        let marks = &self.checkpoints;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "Bernoulli means {} (exact; the simulation draws with their nearest f64), T = {}, {} runs per algorithm — simulated, approximate (f64).",
            self.exact_means(),
            self.horizon,
            self.runs
        );
        let _ = writeln!(
            out,
            "Intervals at {level}%: t = Student t (assumes normal means); EB = empirical Bernstein (Maurer & Pontil 2009), valid for regret in [0, Δmax·t].\n"
        );
        for &eps in epsilons {
            let rows: Vec<&BanditResult> = self.panel(eps).collect();
            let _ = writeln!(out, "ε = {eps}: mean regret at checkpoints");
            let _ = write!(out, "{:>9}", "t");
            for r in &rows {
                let _ = write!(out, " {:>17}", r.algorithm);
            }
            out.push('\n');
            let decades = marks
                .iter()
                .enumerate()
                .filter(|(i, t)| (**t as f64).log10().fract() == 0.0 || *i + 1 == marks.len());
            for (i, t) in decades {
                let _ = write!(out, "{t:>9}");
                for r in &rows {
                    let _ = write!(out, " {:>17.1}", r.mean[i].0);
                }
                out.push('\n');
            }
            let _ = writeln!(out, "\nε = {eps}: final regret at T = {}", self.horizon);
            let _ = writeln!(
                out,
                "{:<18} {:>11} {:>9} {:>25} {:>25}",
                "algorithm",
                "mean",
                "sd",
                format!("{level}% t-interval"),
                format!("{level}% EB interval")
            );
            let interval = |[lo, hi]: [Float; 2]| format!("[{:.1}, {:.1}]", lo.0, hi.0);
            for r in &rows {
                if let Some(f) = &r.at_horizon {
                    let _ = writeln!(
                        out,
                        "{:<18} {:>11.1} {:>9.1} {:>25} {:>25}",
                        r.algorithm,
                        f.regret.0,
                        f.sd.0,
                        interval(f.t_interval),
                        interval(f.bernstein_interval)
                    );
                }
            }
            for note in degenerate(&rows, self.runs, level) {
                let _ = writeln!(out, "note: {note}");
            }
            for r in &rows {
                for b in &r.bounds {
                    let Some(verdict) = b.holds else {
                        continue;
                    };
                    let value = b.value.map_or(f64::NAN, |v| v.0);
                    let decided = b
                        .holds_at_checkpoints
                        .iter()
                        .filter(|v| **v == StatisticalVerdict::Holds)
                        .count();
                    let _ = writeln!(
                        out,
                        "bound {} ({}) on {}: {value:.1} at T; {} against the {level}% EB interval (statistical); holds at {decided} of {} checkpoints",
                        b.id,
                        b.source,
                        r.algorithm,
                        verdict.name(),
                        marks.len()
                    );
                }
            }
            out.push('\n');
        }
        out.trim_end().to_string()
    }
}

/// Why the final rows may look wrong and are not: the algorithms whose
/// standard deviation is 0 (every run had the same regret), and those whose
/// empirical-Bernstein interval is too wide to say anything (at least ten
/// times their t-interval); one note each.
fn degenerate(rows: &[&BanditResult], runs: u64, level: f64) -> Vec<String> {
    let width = |[lo, hi]: [Float; 2]| hi.0 - lo.0;
    let names = |keep: &dyn Fn(&FinalRegret) -> bool| -> String {
        rows.iter()
            .filter(|r| r.at_horizon.as_ref().is_some_and(keep))
            .map(|r| r.algorithm.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut notes = Vec::new();
    let constant = names(&|f| f.sd.0 == 0.0);
    if !constant.is_empty() {
        notes.push(format!(
            "sd 0 ({constant}): the same regret in all {runs} runs, its pulls did not depend on the draws at this T and ε; the t-interval is then a single point"
        ));
    }
    let wide = names(&|f| {
        let (t, eb) = (width(f.t_interval), width(f.bernstein_interval));
        eb > 0.0 && eb >= 10.0 * t
    });
    if !wide.is_empty() {
        notes.push(format!(
            "uninformative {level}% EB intervals ({wide}): empirical Bernstein holds for any law of the regret in [0, Δmax·t], so with {runs} runs it can be as wide as that range; the t-interval is narrower because it assumes normal means"
        ));
    }
    notes
}
