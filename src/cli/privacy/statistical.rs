//! `dpdtol privacy --algorithm lazy-dp-ts|hybrid-ucb …`: the **statistical**
//! audit of Lazy-DP-TS and Hybrid-UCB ([`crate::bandit::stat_audit`], which
//! says why no certified law is available for either) under the flags and
//! JSON keys of the other privacy checks, plus `--runs`, `--seed`,
//! `--confidence` and `--bonus` (and Hybrid-UCB's `--tree-scale`). Its
//! numbers are approximate (f64 simulation, Clopper–Pearson bounds) and say
//! so; its verdict is "violated" or "undecided" (no violation detected),
//! never "private".

use super::{bound_decimal, given, parse_count, parse_horizon, Args};
use crate::bandit::stat_audit::{
    audit, runs_needed, AuditOutcome, AuditSetup, Audited, HybridParams, TsParams,
};
use crate::bandit::BanditId;
use crate::cli::report::{self, DIGITS};
use crate::error::{Error, Result};
use crate::num::{format_sig_directed, parse_rational, parse_rational_list, Certified, Dir};
use crate::num::{Precision, Real, Q};
use crate::progress::{with_progress, Task};
use num_traits::ToPrimitive;
use serde_json::{json, Value};
use std::fmt::Write;

/// The default number of runs per table.
pub(super) const DEFAULT_RUNS: u64 = 200_000;

/// What the method is, in the output.
const METHOD: &str = "statistical: simulated pull sequences on an adversarial selection of neighbouring reward tables (rows 3..T constant, each neighbour changing round 1's or 2's seen reward or one later row); per ordered pair the event (a round's arm, or a Neyman-Pearson set of pull sequences) is chosen on the first half of the runs and bounded on the second half with one-sided Clopper-Pearson bounds, Bonferroni across pairs";

fn to_f64(q: &Q) -> f64 {
    ToPrimitive::to_f64(q).unwrap_or(f64::NAN)
}

/// Why this Hybrid-UCB report is not certified.
const WHY_NOT_EXACT_HYBRID: &str = "this is the statistical audit (--method statistical); the certified law of the pull sequence is Hybrid-UCB's exact check (--method exact, the default): see the documentation of bandit::hybrid_law";

/// Whether one of the audit's own flags is given.
pub(super) fn audit_flags_given(args: &Args) -> bool {
    args.runs.is_some()
        || args.seed.is_some()
        || args.confidence.is_some()
        || args.bonus.is_some()
        || args.tree_scale.is_some()
}

/// Whether Hybrid-UCB's statistical audit is asked for rather than its exact
/// check: `--method statistical`, or one of the audit's own flags (`--runs`,
/// `--seed`, `--confidence`) without `--method`.
pub(super) fn chosen(args: &Args) -> Result<bool> {
    let sampling = args.runs.is_some() || args.seed.is_some() || args.confidence.is_some();
    match args.method.as_deref().map(str::trim) {
        None => Ok(sampling),
        Some("statistical") => Ok(true),
        Some("exact") if sampling => Err(Error::InvalidInput(
            "--runs, --seed and --confidence apply to --method statistical, not to hybrid-ucb's exact check".into(),
        )),
        Some("exact") => Ok(false),
        Some(other) => Err(Error::InvalidInput(format!(
            "--method for hybrid-ucb is exact (the default) or statistical, got '{other}'"
        ))),
    }
}

/// The Laplace scales and the bonus of a Lazy-DP-TS or Hybrid-UCB run.
pub(super) struct Scales {
    /// `--noise-scale` (default `1/ε`, Hybrid-UCB's array blocks `2/ε`).
    pub scale: Q,
    /// Hybrid-UCB's per-level tree scale: `--tree-scale`, default the former.
    pub tree_scale: Q,
    /// `--bonus`, default 3.
    pub bonus: Q,
}

/// [`Scales`] from the flags at `epsilon`: `--scale-factor` multiplies both
/// scales (Hybrid-UCB only, and not with `--tree-scale`).
pub(super) fn scales(args: &Args, epsilon: &Q, id: BanditId) -> Result<Scales> {
    if args.scale_factor.is_some() && args.tree_scale.is_some() {
        return Err(Error::InvalidInput(
            "--scale-factor multiplies both of hybrid-ucb's scales; it excludes --tree-scale"
                .into(),
        ));
    }
    let exact = |text: Option<&str>, default: Q| text.map_or(Ok(default), parse_rational);
    let bonus = exact(args.bonus.as_deref(), Q::from_integer(3.into()))?;
    // The inferred Hybrid-UCB scales are 2/ε, Lazy-DP-TS's printed one 1/ε.
    let numerator = if id == BanditId::HybridUcb { 2 } else { 1 };
    let mut scale = exact(
        args.noise_scale.as_deref(),
        Q::from_integer(numerator.into()) / epsilon,
    )?;
    let mut tree_scale = exact(args.tree_scale.as_deref(), scale.clone())?;
    if let Some(f) = args.scale_factor.as_deref() {
        let f = parse_rational(f)?;
        if !num_traits::Signed::is_positive(&f) {
            return Err(Error::InvalidInput(format!(
                "--scale-factor must be positive, got {f}"
            )));
        }
        scale *= &f;
        tree_scale *= &f;
    }
    Ok(Scales {
        scale,
        tree_scale,
        bonus,
    })
}

/// Run the audit of `id` (Lazy-DP-TS or Hybrid-UCB).
pub(super) fn run(args: &Args, id: BanditId) -> Result<String> {
    for (flag, given) in [
        ("--resample", args.resample.is_some()),
        ("--noise", args.noise.is_some()),
        ("--shard", args.shard.is_some()),
        // Hybrid-UCB's --method was read by [`chosen`].
        (
            "--method",
            args.method.is_some() && id != BanditId::HybridUcb,
        ),
        ("--epoch-length", args.epoch_length.is_some()),
        (
            "--tree-scale",
            args.tree_scale.is_some() && id != BanditId::HybridUcb,
        ),
        (
            "--scale-factor",
            args.scale_factor.is_some() && id != BanditId::HybridUcb,
        ),
    ] {
        if given {
            return Err(Error::InvalidInput(format!(
                "{flag} does not apply to {id} (Laplace noise, a statistical audit)"
            )));
        }
    }
    let actions = parse_count("--actions", given(&args.actions, "--actions")?)?;
    if actions != 2 {
        return Err(Error::InvalidInput(format!(
            "the {id} audit is implemented for K = 2 arms, got --actions {actions}"
        )));
    }
    let horizon = parse_horizon(given(&args.horizon, "--horizon")?)?;
    let epsilon = parse_rational(given(&args.epsilon, "--epsilon")?)?;
    if epsilon <= Q::from_integer(0.into()) {
        return Err(Error::InvalidInput(format!(
            "--epsilon must be positive, got {epsilon}"
        )));
    }
    let alphabet = parse_rational_list(given(&args.alphabet, "--alphabet")?)?;
    let Scales {
        scale,
        tree_scale,
        bonus,
    } = scales(args, &epsilon, id)?;
    let runs = match args.runs.as_deref() {
        Some(r) => parse_count("--runs", r)? as u64,
        None => DEFAULT_RUNS,
    };
    let seed = match args.seed.as_deref() {
        Some(s) => s.trim().parse::<u64>().map_err(|_| {
            Error::Parse(format!("--seed expects a non-negative integer, got '{s}'"))
        })?,
        None => 1,
    };
    let confidence = match args.confidence.as_deref() {
        Some(c) => to_f64(&parse_rational(c)?),
        None => 0.95,
    };
    let setup = AuditSetup {
        horizon,
        alphabet: alphabet.iter().map(to_f64).collect(),
        runs,
        seed,
        confidence,
        force: args.force,
    };
    let pool = super::thread_pool(args.threads.as_deref())?;
    let outcome = if id == BanditId::HybridUcb {
        let params = HybridParams {
            array_scale: to_f64(&scale),
            tree_scale: to_f64(&tree_scale),
            bonus: to_f64(&bonus),
            ..HybridParams::inferred(to_f64(&epsilon))
        };
        audited(&params, &setup, &pool)?
    } else {
        let params = TsParams {
            noise_scale: to_f64(&scale),
            bonus: to_f64(&bonus),
            ..TsParams::printed(to_f64(&epsilon))
        };
        audited(&params, &setup, &pool)?
    };
    let bound = Certified::from_rational(&epsilon, &Precision(256)).exp()?;
    let shown = Shown {
        id,
        epsilon: &epsilon,
        scale: &scale,
        tree_scale: &tree_scale,
        bonus: &bonus,
        alphabet: &alphabet,
        setup: &setup,
        outcome: &outcome,
        bound: &bound,
    };
    Ok(if args.json {
        shown.json().to_string()
    } else {
        shown.paragraph()
    })
}

/// The audit of `params` on `pool`, with a progress bar.
fn audited<A: Audited>(
    params: &A,
    setup: &AuditSetup,
    pool: &rayon::ThreadPool,
) -> Result<AuditOutcome> {
    let total = runs_needed(setup.horizon, setup.alphabet.len(), setup.runs).unwrap_or(0);
    let task = Task {
        name: "privacy audit",
        unit: "runs",
    };
    with_progress(true, task, total, |progress| {
        pool.install(|| audit(params, setup, &|n| progress.add(n)))
    })
}

struct Shown<'a> {
    id: BanditId,
    epsilon: &'a Q,
    tree_scale: &'a Q,
    scale: &'a Q,
    bonus: &'a Q,
    alphabet: &'a [Q],
    setup: &'a AuditSetup,
    outcome: &'a AuditOutcome,
    bound: &'a Certified,
}

/// An f64 as a decimal (the exact value of the double, rounded down).
fn f64_decimal(x: f64) -> String {
    Q::from_float(x).map_or_else(
        || x.to_string(),
        |q| format_sig_directed(&q, DIGITS, Dir::Down),
    )
}

impl Shown<'_> {
    fn table(&self, index: usize) -> Vec<Vec<Value>> {
        self.outcome.selection.tables[index]
            .iter()
            .map(|row| {
                row.iter()
                    .map(|&v| report::exact(&self.alphabet[v]))
                    .collect()
            })
            .collect()
    }

    /// The event's pull sequences (1-based arms, rounds 1..T).
    fn sequences(&self) -> Vec<Vec<usize>> {
        let t = self.setup.horizon;
        let codes = 1usize << t.saturating_sub(2);
        (0..codes)
            .filter(|c| self.outcome.best.event >> c & 1 == 1)
            .map(|c| {
                (0..t)
                    .map(|r| if r < 2 { r + 1 } else { (c >> (r - 2) & 1) + 1 })
                    .collect()
            })
            .collect()
    }

    fn verdict_text(&self) -> String {
        format!(
            "{} at confidence {}",
            if self.outcome.violated {
                "violated"
            } else {
                "no violation detected"
            },
            self.outcome.confidence
        )
    }

    fn json(&self) -> Value {
        let (o, b) = (self.outcome, &self.outcome.best);
        let lower = b.epsilon_lower.exp();
        let sequences = self.sequences();
        let mut v = json!({
            "schema_version": report::SCHEMA_VERSION,
            "algorithm": self.id.name(),
            "actions": 2,
            "horizon": self.setup.horizon.to_string(),
            "alphabet": self.alphabet.iter().map(report::exact).collect::<Vec<_>>(),
            "epsilon": report::exact(self.epsilon),
            "noise": "laplace",
            "noise_scale": report::exact(self.scale),
            "bonus": report::exact(self.bonus),
            "resample": false,
            "bound": bound_decimal(self.bound),
            "bound_interval": report::interval(self.bound),
            // The lower confidence bound of the largest ratio, not an enclosure.
            "max_ratio": f64_decimal(lower),
            "max_ratio_interval": Value::Null,
            "max_ratio_exact": Value::Null,
            "max_ratio_confidence_interval": [f64_decimal(lower), "inf"],
            "epsilon_lower": f64_decimal(b.epsilon_lower),
            "confidence": o.confidence,
            "level_per_bound": o.level,
            "verdict": if o.violated { "violated" } else { "undecided" },
            "verdict_text": self.verdict_text(),
            "witness": {
                "losses": self.table(b.first),
                "neighbour": self.table(b.second),
                "actions": sequences.first().cloned().unwrap_or_default(),
                "round": b.round,
                "event": sequences,
                "counts": [b.counts.0, b.counts.1],
                "test_runs": self.setup.runs - self.setup.runs / 2,
                "probability_bounds": [b.bounds.0, b.bounds.1],
                "ratio_estimate": f64_decimal(b.ratio_estimate),
            },
            "pairs": o.selection.pairs.len(),
            "tables": o.selection.tables.len(),
            "runs_per_table": self.setup.runs,
            "seed": self.setup.seed,
            "kind": "approximate",
            "method": METHOD,
            "why_not_certified": if self.id == BanditId::HybridUcb {
                WHY_NOT_EXACT_HYBRID
            } else {
                "the Beta parameters of line 4 move continuously with the Laplace noise (no certified incomplete beta with real parameters, and a product over rounds integrated over up to 4 noises): see the documentation of bandit::stat_audit::TsParams"
            },
        });
        if self.id == BanditId::HybridUcb {
            // `noise_scale` is the array blocks' scale; the tree's per level:
            v["tree_scale"] = report::exact(self.tree_scale);
            v["algorithm_inferred"] = true.into();
        }
        v
    }

    fn paragraph(&self) -> String {
        let (o, b) = (self.outcome, &self.outcome.best);
        let alphabet: Vec<String> = self.alphabet.iter().map(ToString::to_string).collect();
        let mut out = String::new();
        let scales = if self.id == BanditId::HybridUcb {
            format!(
                "array scale {}, tree scale {} per level, inferred algorithm",
                self.scale, self.tree_scale
            )
        } else {
            format!("scale {}", self.scale)
        };
        let _ = writeln!(
            out,
            "{} (Laplace noise, {scales}, bonus {}), K = 2, horizon {}, rewards {{{}}}, ε = {}: STATISTICAL AUDIT (approximate)",
            self.id,
            self.bonus,
            self.setup.horizon,
            alphabet.join(", "),
            self.epsilon
        );
        let _ = writeln!(
            out,
            "{}: ε_actual ≥ {:.4} (ratio ≥ {:.4}) vs ε = {} (e^ε = {})",
            self.verdict_text().to_uppercase(),
            b.epsilon_lower,
            b.epsilon_lower.exp(),
            self.epsilon,
            bound_decimal(self.bound)
        );
        let rows = |i: usize| -> String {
            self.table(i)
                .iter()
                .map(|r| {
                    let r: Vec<String> = r
                        .iter()
                        .map(|v| v.as_str().unwrap_or("?").to_string())
                        .collect();
                    format!("({})", r.join(","))
                })
                .collect::<Vec<_>>()
                .join(" ")
        };
        let _ = writeln!(
            out,
            "  most discriminating pair (round {} replaced; rows (arm 1, arm 2)):",
            b.round
        );
        let _ = writeln!(out, "    rewards   {}", rows(b.first));
        let _ = writeln!(out, "    neighbour {}", rows(b.second));
        let seqs: Vec<String> = self
            .sequences()
            .iter()
            .map(|s| s.iter().map(ToString::to_string).collect::<String>())
            .collect();
        let test = self.setup.runs - self.setup.runs / 2;
        let _ = writeln!(
            out,
            "    event: pulls in {{{}}}; test counts {}/{test} vs {}/{test}, estimated ratio {:.4}",
            seqs.join(", "),
            b.counts.0,
            b.counts.1,
            b.ratio_estimate
        );
        let _ = write!(
            out,
            "  {} ordered pairs of {} tables, {} runs per table (seed {}); each Clopper–Pearson bound one-sided at {:.3e} (Bonferroni); not a proof of privacy",
            o.selection.pairs.len(),
            o.selection.tables.len(),
            self.setup.runs,
            self.setup.seed,
            o.level
        );
        out
    }
}
