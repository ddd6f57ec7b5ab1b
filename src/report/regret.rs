//! The result of `dpdtol regret`: the pseudo-regret of one or several
//! algorithms on one instance ([`crate::regret::certify`]), with the papers'
//! bounds and rates evaluated beside it; and the regret at every epoch
//! boundary, the data of `--curve` and `--plot`.

use super::{
    decimal, enclosure, fraction, Decimal, Enclosure, Fraction, Human, NumberKind, SchemaVersion,
};
use crate::error::Result;
use crate::mechanism::Noise;
use crate::num::Certified;
use crate::num::Real;
use crate::regret::bounds::{Bound, BoundKind, Evaluation, NotEvaluated, Rate};
use crate::regret::certify::CertifiedRegret;
use crate::regret::{Instance, Plan, Round, Setting};
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::fmt::Write;

/// The output of `dpdtol regret --json`: one algorithm's regret as one
/// object, or several as `{"results": [...]}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum RegretReport {
    /// One algorithm (its `schema_version` present).
    One(Box<AlgorithmRegret>),
    /// Several algorithms, in the order given.
    Several(SeveralRegrets),
}

/// One algorithm's object with its `schema_version` required, or several.
impl JsonSchema for RegretReport {
    fn schema_name() -> Cow<'static, str> {
        "RegretReport".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let one = generator.subschema_for::<AlgorithmRegret>();
        let several = generator.subschema_for::<SeveralRegrets>();
        json_schema!({
            "anyOf": [
                {
                    "allOf": [one, { "required": ["schema_version"] }],
                    "description": "One algorithm: the whole output, with its schema_version."
                },
                several
            ]
        })
    }
}

/// The regrets of several algorithms on one instance.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SeveralRegrets {
    /// One entry per algorithm (without `schema_version`).
    pub results: Vec<AlgorithmRegret>,
    /// The version of this report's keys.
    pub schema_version: SchemaVersion,
}

/// The pseudo-regret of one algorithm with the papers' bounds and rates.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AlgorithmRegret {
    /// The algorithm's id.
    pub algorithm: String,
    /// The explicit bounds of the papers, evaluated on the instance.
    pub bounds: Vec<BoundRow>,
    /// The bounds that this run does not evaluate, and why.
    pub bounds_not_evaluated: Vec<NotEvaluatedRow>,
    /// The file `--curve` wrote, or null.
    pub curve: Option<String>,
    /// Whether every requested digit of `regret` is certain and every bound decided.
    pub digits_certain: bool,
    /// Why not (null when they are).
    pub digits_reason: Option<String>,
    /// The significant digits asked for (`--digits`).
    pub digits_requested: u32,
    /// The privacy parameter ε, exactly.
    pub epsilon: Fraction,
    /// The horizon T, the exact integer as a string.
    pub horizon: String,
    /// `exact` (a rational) or `certified` (an enclosure).
    pub kind: NumberKind,
    /// The algorithm with its noise (wu-wang: `wu-wang (gumbel)`, `, B=1` with resampling).
    pub label: String,
    /// The loss means μ_1..μ_K, exactly.
    pub means: Vec<Fraction>,
    /// The noise of an epoch algorithm; null otherwise.
    pub noise: Option<Noise>,
    /// The noise scale β (prefix-softmax: the temperature 1/η), exactly; null for FTL.
    pub noise_scale: Option<Fraction>,
    /// The file `--plot` drew, or null.
    pub plot: Option<String>,
    /// The precision of the certified regret, in bits; null for an exact one.
    pub precision_bits: Option<u32>,
    /// The papers' rates without constants, and the constant they imply.
    pub rates: Vec<RateRow>,
    /// `Reg_T`, every digit certain.
    pub regret: Decimal,
    /// `Reg_T` exactly, when it is rational and computed exactly; else null.
    pub regret_exact: Option<Fraction>,
    /// An enclosure of `Reg_T`.
    pub regret_interval: Option<Enclosure>,
    /// Whether the losses are resampled (wu-wang's B = 1).
    pub resample: bool,
    /// The version of the keys: present when this object is the whole
    /// output (one algorithm), absent inside `results`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schema_version: Option<SchemaVersion>,
    /// `deterministic` or `bernoulli`.
    pub setting: String,
}

/// One explicit bound of a paper, evaluated, and whether it holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BoundRow {
    /// Whether the run meets the statement's hypotheses.
    pub applies: bool,
    /// Whether the bound holds for `Reg_T` (or for its own quantity); null when undecided.
    pub holds: Option<bool>,
    /// The bound's id (`cc-thm1-eq1`, …).
    pub id: String,
    /// Upper or lower.
    pub kind: BoundKind,
    /// What the reader should know (hypotheses not met, flags), or null.
    pub note: Option<String>,
    /// The bounded quantity when it is not `Reg_T` itself, or null.
    pub quantity: Option<String>,
    /// Its value, or null.
    pub quantity_value: Option<Decimal>,
    /// Paper, statement and line.
    pub source: String,
    /// The formula.
    pub statement: String,
    /// The bound's value.
    pub value: Decimal,
    /// An enclosure of it.
    pub value_interval: Option<Enclosure>,
}

/// A rate of a paper without its constant, and the constant `Reg_T / rate`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RateRow {
    /// The rate expression inside `O(·)`.
    pub expression: String,
    /// The rate's id.
    pub id: String,
    /// `Reg_T / rate`.
    pub implied_constant: Decimal,
    /// An enclosure of it.
    pub implied_constant_interval: Option<Enclosure>,
    /// The rate's value on the instance.
    pub rate: Decimal,
    /// Paper, statement and line.
    pub source: String,
}

/// A bound that this run does not evaluate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NotEvaluatedRow {
    /// The bound's id.
    pub id: String,
    /// Why it is not evaluated.
    pub reason: String,
    /// Paper, statement and line.
    pub source: String,
}

impl RegretReport {
    /// The report of `results`, one per algorithm (at least one).
    pub fn new(mut results: Vec<AlgorithmRegret>) -> RegretReport {
        if results.len() == 1 {
            let mut one = results.remove(0);
            one.schema_version = Some(SchemaVersion);
            RegretReport::One(Box::new(one))
        } else {
            RegretReport::Several(SeveralRegrets {
                results,
                schema_version: SchemaVersion,
            })
        }
    }

    /// The algorithms' regrets, in order.
    pub fn results(&self) -> &[AlgorithmRegret] {
        match self {
            RegretReport::One(one) => std::slice::from_ref(one.as_ref()),
            RegretReport::Several(several) => &several.results,
        }
    }
}

/// The files named on the command line, recorded in the report.
#[derive(Clone, Debug, Default)]
pub struct OutputFiles {
    /// `--curve`.
    pub curve: Option<String>,
    /// `--plot`.
    pub plot: Option<String>,
}

impl AlgorithmRegret {
    /// The report of `regret`, the regret of the algorithm named `label` on
    /// `inst` over `horizon` rounds, computed to `digits` digits.
    pub fn new(
        label: &str,
        regret: &CertifiedRegret,
        inst: &Instance,
        setting: Setting,
        horizon: Round,
        digits: u32,
        files: &OutputFiles,
    ) -> AlgorithmRegret {
        let exact_total = regret.exact.as_ref().map(|e| e.total(&()));
        let (bounds, rates, bounds_not_evaluated) = match &regret.evaluation {
            Some(e) => rows(e, &regret.total),
            None => (Vec::new(), Vec::new(), Vec::new()),
        };
        let (noise, noise_scale) = match Plan::of(&regret.config).ok() {
            Some(Plan::Epoch { noise, scale, .. }) => (Some(noise), Some(fraction(&scale))),
            Some(Plan::Prefix { eta }) => (None, Some(fraction(&eta.recip()))),
            _ => (None, None),
        };
        AlgorithmRegret {
            algorithm: regret.config.id.name().to_string(),
            bounds,
            bounds_not_evaluated,
            curve: files.curve.clone(),
            digits_certain: regret.accepted,
            digits_reason: regret.why_uncertain.clone(),
            digits_requested: digits,
            epsilon: fraction(&regret.config.epsilon),
            horizon: horizon.to_string(),
            kind: if exact_total.is_some() {
                NumberKind::Exact
            } else {
                NumberKind::Certified
            },
            label: label.to_string(),
            means: inst.means().iter().map(fraction).collect(),
            noise,
            noise_scale,
            plot: files.plot.clone(),
            precision_bits: regret.precision.map(|p| p.0),
            rates,
            regret: match &exact_total {
                Some(q) => decimal(q),
                None => decimal(&regret.total),
            },
            regret_exact: exact_total.as_ref().map(fraction),
            regret_interval: enclosure(&regret.total),
            resample: regret.config.resample,
            schema_version: None,
            setting: setting.name().to_string(),
        }
    }
}

/// The rows of an evaluation against the regret `total`.
fn rows(
    e: &Evaluation<Certified>,
    total: &Certified,
) -> (Vec<BoundRow>, Vec<RateRow>, Vec<NotEvaluatedRow>) {
    let bound = |b: &Bound<Certified>| BoundRow {
        applies: b.applies,
        holds: b.holds(total),
        id: b.id.to_string(),
        kind: b.kind,
        note: b.note.clone(),
        quantity: b.quantity.as_ref().map(|(n, _)| n.clone()),
        quantity_value: b.quantity.as_ref().map(|(_, v)| decimal(v)),
        source: b.source.to_string(),
        statement: b.statement.clone(),
        value: decimal(&b.value),
        value_interval: enclosure(&b.value),
    };
    let rate = |r: &Rate<Certified>| {
        let constant = total.clone() / &r.value;
        RateRow {
            expression: r.expression.to_string(),
            id: r.id.to_string(),
            implied_constant: decimal(&constant),
            implied_constant_interval: enclosure(&constant),
            rate: decimal(&r.value),
            source: r.source.to_string(),
        }
    };
    let skipped = |n: &NotEvaluated| NotEvaluatedRow {
        id: n.id.to_string(),
        reason: n.reason.clone(),
        source: n.source.to_string(),
    };
    (
        e.bounds.iter().map(bound).collect(),
        e.rates.iter().map(rate).collect(),
        e.not_evaluated.iter().map(skipped).collect(),
    )
}

/// The regret of one algorithm at every epoch boundary `2^b − 1 < T` and at
/// `T`, and the bounds on `Reg_t` there: what `--curve` writes and `--plot`
/// draws (not part of the JSON).
#[derive(Clone, Debug)]
pub struct Trajectory {
    /// The algorithm's label.
    pub label: String,
    /// `Reg_t` at each boundary.
    pub points: Vec<TrajectoryPoint>,
    /// The bounds on the regret itself at each boundary (with the lower
    /// bound `ww-thm3`); empty without bounds.
    pub bounds: Vec<BoundLine>,
}

/// `Reg_t` at one boundary `t`.
#[derive(Clone, Debug)]
pub struct TrajectoryPoint {
    /// The round t.
    pub t: Round,
    /// `Reg_t`, every digit certain.
    pub regret: Decimal,
    /// An enclosure of it.
    pub interval: Option<Enclosure>,
    /// `Reg_t` as an f64, for drawing.
    pub approximate: f64,
}

/// One bound of the papers at every boundary, as f64 for drawing.
#[derive(Clone, Debug)]
pub struct BoundLine {
    /// The bound's id.
    pub id: String,
    /// Upper or lower.
    pub kind: BoundKind,
    /// Whether it fails at the horizon T.
    pub fails: bool,
    /// `(t, value)` at each boundary where the bound is evaluated.
    pub points: Vec<(f64, f64)>,
}

impl Trajectory {
    /// The trajectory of `regret`, labelled `label`; the bounds at every
    /// boundary only when `with_bounds` (each costs one evaluation).
    pub fn new(label: &str, regret: &CertifiedRegret, with_bounds: bool) -> Result<Trajectory> {
        let boundaries = regret.boundaries();
        let mut bounds: Vec<BoundLine> = Vec::new();
        if let (true, Some(evaluator)) = (with_bounds, &regret.evaluator) {
            for (t, _) in &boundaries {
                let evaluation = evaluator.at(*t, &regret.curve)?;
                // Bound rows on the regret itself (lemma rows bound other quantities).
                for b in evaluation
                    .bounds
                    .iter()
                    .filter(|b| b.quantity.is_none() || b.id == "ww-thm3")
                {
                    let point = (*t as f64, b.value.to_f64());
                    match bounds.iter_mut().find(|l| l.id == b.id && l.kind == b.kind) {
                        Some(line) => line.points.push(point),
                        None => bounds.push(BoundLine {
                            id: b.id.to_string(),
                            kind: b.kind,
                            fails: regret.evaluation.as_ref().is_some_and(|e| {
                                e.bounds
                                    .iter()
                                    .any(|f| f.id == b.id && f.holds(&regret.total) == Some(false))
                            }),
                            points: vec![point],
                        }),
                    }
                }
            }
        }
        Ok(Trajectory {
            label: label.to_string(),
            points: boundaries
                .iter()
                .map(|(t, v)| TrajectoryPoint {
                    t: *t,
                    regret: decimal(v),
                    interval: enclosure(v),
                    approximate: v.to_f64(),
                })
                .collect(),
            bounds,
        })
    }
}

/// Significant digits of the numbers in the tables (the full digits are in `--json`).
const SHORT: usize = 12;

impl Trajectory {
    /// The regret at every boundary of every algorithm of `trajectories`,
    /// as CSV (`--curve`).
    pub fn csv(trajectories: &[Trajectory]) -> String {
        let mut text = String::from("algorithm,T,regret,regret_lo,regret_hi\n");
        for c in trajectories {
            for p in &c.points {
                let [lo, hi] = p
                    .interval
                    .as_ref()
                    .map_or(["", ""], |i| [i.0[0].0.as_str(), i.0[1].0.as_str()]);
                let _ = writeln!(
                    text,
                    "{},{},{},{lo},{hi}",
                    c.label.replace(',', ";"),
                    p.t,
                    p.regret.0
                );
            }
        }
        text
    }
}

impl AlgorithmRegret {
    /// The means exactly, `1/5, 1/2`.
    pub fn means_text(&self) -> String {
        self.means
            .iter()
            .map(|n| n.0.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// A line for the instance, then for each algorithm its regret (exact, or
/// certified and to how many digits), its bounds and its rates.
impl Human for RegretReport {
    fn human(&self) -> String {
        let mut out = String::new();
        let first = &self.results()[0];
        let _ = writeln!(
            out,
            "pseudo-regret on μ = ({}), K = {}, {} setting, T = {}, ε = {}",
            first.means_text(),
            first.means.len(),
            first.setting,
            first.horizon,
            first.epsilon.0
        );
        for r in self.results() {
            let _ = writeln!(out);
            let how = match (&r.regret_exact, r.precision_bits) {
                (Some(exact), _) => format!("exact = {}", exact.0),
                (None, Some(bits)) => format!(
                    "certified, {bits} bits{}",
                    match &r.digits_reason {
                        None => "; every digit shown is certain".to_string(),
                        Some(why) => format!(
                            "; only the digits shown are certain, fewer than requested: {why}"
                        ),
                    }
                ),
                _ => String::new(),
            };
            let _ = writeln!(out, "{}: Reg_T = {}  ({how})", r.label, r.regret.0);
            if !r.bounds.is_empty() {
                let _ = writeln!(
                    out,
                    "  {:<18} {:<6} {:>18} {:>18}  {:<5}  source",
                    "bound", "kind", "value", "bounded quantity", "holds"
                );
                for b in &r.bounds {
                    let quantity = match &b.quantity_value {
                        Some(v) => v.to_digits(SHORT),
                        None => "Reg_T".to_string(),
                    };
                    let holds = match b.holds {
                        Some(true) => "yes",
                        Some(false) => "NO",
                        None => "?",
                    };
                    let applies = if b.applies {
                        ""
                    } else {
                        " [hypotheses not met]"
                    };
                    let _ = writeln!(
                        out,
                        "  {:<18} {:<6} {:>18} {:>18}  {:<5}  {}{applies}",
                        b.id,
                        b.kind.name(),
                        b.value.to_digits(SHORT),
                        quantity,
                        holds,
                        b.source
                    );
                }
            }
            if !r.rates.is_empty() {
                let _ = writeln!(
                    out,
                    "  {:<18} {:>18} {:>18}  expression",
                    "rate (no constant)", "rate", "Reg_T / rate"
                );
                for rate in &r.rates {
                    let _ = writeln!(
                        out,
                        "  {:<18} {:>18} {:>18}  O({})  [{}]",
                        rate.id,
                        rate.rate.to_digits(SHORT),
                        rate.implied_constant.to_digits(SHORT),
                        rate.expression,
                        rate.source
                    );
                }
            }
            for n in &r.bounds_not_evaluated {
                let _ = writeln!(out, "  not evaluated: {} — {}", n.id, n.reason);
            }
        }
        out.trim_end().to_string()
    }
}
