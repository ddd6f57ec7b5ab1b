//! `dpdtol privacy --algorithm lazy-dp-ts|hybrid-ucb …`: the **statistical**
//! audit of Lazy-DP-TS and Hybrid-UCB ([`crate::privacy::bandit::statistical`], which
//! says why no certified law is available for Lazy-DP-TS; Hybrid-UCB's is
//! its exact check, the default, and this audit `--method statistical`) under the flags and
//! JSON keys of the other privacy checks, plus `--runs`, `--seed`,
//! `--confidence` and `--bonus` (and Hybrid-UCB's `--tree-scale`). Its
//! numbers are approximate (f64 simulation, Clopper–Pearson bounds) and say
//! so; its verdict is "violated" or "undecided" (no violation detected),
//! never "private".

use super::{
    bound_decimal, field, given, in_file, number, parse_count, parse_horizon, same_report, Args,
};
use crate::bandit::policy::BanditId;
use crate::cli::report::{self, DIGITS};
use crate::error::{Error, Result};
use crate::num::{format_sig_directed, parse_rational, parse_rational_list, Certified, Dir};
use crate::num::{Precision, Real, Q};
use crate::privacy::bandit::statistical::{
    analyse, check_part_size, runs_in, runs_of, sample_part, selection, tables_of, units,
    AuditOutcome, AuditSetup, Counts, HybridParams, Selection, TsParams,
};
use crate::privacy::Shard;
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
const WHY_NOT_EXACT_HYBRID: &str = "this is the statistical audit (--method statistical); the certified law of the pull sequence is Hybrid-UCB's exact check (--method exact, the default): see the documentation of bandit::law::hybrid_ucb";

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

/// Run the audit of `id` (Lazy-DP-TS or Hybrid-UCB), or the part
/// `--shard I/N` of its runs.
pub(super) fn run(args: &Args, id: BanditId) -> Result<(String, bool)> {
    for (flag, given) in [
        ("--resample", args.resample.is_some()),
        ("--noise", args.noise.is_some()),
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
    let alphabet = parse_rational_list(given(&args.alphabet, "--alphabet")?)?;
    Audit::default_scale(id, &epsilon)?;
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
    let audit = Audit::new(
        id,
        Given {
            epsilon,
            alphabet,
            scale: Some(scale),
            tree_scale: Some(tree_scale),
            bonus: Some(bonus),
        },
        AuditSetup {
            horizon,
            alphabet: Vec::new(),
            runs,
            seed,
            confidence,
            force: args.force,
        },
    )?;
    let shard = super::shard_flag(args)?;
    let part = audit.part(shard)?;
    check_part_size(&audit.setup, &part)?;
    let selection = selection(horizon, audit.setup.alphabet.len())?;
    let pool = super::thread_pool(args.threads.as_deref())?;
    let counts = audit.sampled(&selection, &part, &pool)?;
    let tables = tables_of(&audit.setup, &part);
    let sizes = (selection.tables.len(), selection.pairs.len());
    let outcome = if shard == Shard::WHOLE {
        Some(
            pool.install(|| on_params!(audit, p => analyse(&p, &audit.setup, selection, &counts)))?,
        )
    } else {
        None
    };
    let shown = audit.shown(shard, tables.start, &counts, outcome.as_ref(), sizes)?;
    Ok(shown.rendered(args.json))
}

/// `$body` with `$p` bound to the audited algorithm's parameters.
macro_rules! on_params {
    ($audit:expr, $p:ident => $body:expr) => {
        match $audit.params() {
            Params::Ts($p) => $body,
            Params::Hybrid($p) => $body,
        }
    };
}
use on_params;

/// The parameters of the algorithm audited.
enum Params {
    Ts(TsParams),
    Hybrid(HybridParams),
}

/// The exact parameters as given (`None`: the default).
struct Given {
    epsilon: Q,
    alphabet: Vec<Q>,
    scale: Option<Q>,
    tree_scale: Option<Q>,
    bonus: Option<Q>,
}

/// What an audit is of: the algorithm, its exact parameters (defaults
/// filled in) and the setup. Two shards of one audit have equal ones.
#[derive(Debug, PartialEq)]
struct Audit {
    id: BanditId,
    epsilon: Q,
    scale: Q,
    tree_scale: Q,
    bonus: Q,
    alphabet: Vec<Q>,
    setup: AuditSetup,
}

impl Audit {
    /// The default noise scale of `id`: Hybrid-UCB's inferred `2/ε`,
    /// Lazy-DP-TS's printed `1/ε`.
    fn default_scale(id: BanditId, epsilon: &Q) -> Result<Q> {
        if *epsilon <= Q::from_integer(0.into()) {
            return Err(Error::InvalidInput(format!(
                "--epsilon must be positive, got {epsilon}"
            )));
        }
        let numerator = if id == BanditId::HybridUcb { 2 } else { 1 };
        Ok(Q::from_integer(numerator.into()) / epsilon)
    }

    /// The audit of `id` with the parameters `given` (defaults filled in)
    /// and `setup` (whose alphabet is `given`'s, in f64), every parameter
    /// checked.
    fn new(id: BanditId, given: Given, setup: AuditSetup) -> Result<Audit> {
        let scale = match given.scale {
            Some(s) => s,
            None => Audit::default_scale(id, &given.epsilon)?,
        };
        let audit = Audit {
            id,
            tree_scale: given.tree_scale.unwrap_or_else(|| scale.clone()),
            scale,
            bonus: given.bonus.unwrap_or_else(|| Q::from_integer(3.into())),
            setup: AuditSetup {
                alphabet: given.alphabet.iter().map(to_f64).collect(),
                ..setup
            },
            alphabet: given.alphabet,
            epsilon: given.epsilon,
        };
        Audit::default_scale(id, &audit.epsilon)?;
        on_params!(audit, p => audit.setup.check(&p))?;
        Ok(audit)
    }

    fn params(&self) -> Params {
        let epsilon = to_f64(&self.epsilon);
        if self.id == BanditId::HybridUcb {
            Params::Hybrid(HybridParams {
                array_scale: to_f64(&self.scale),
                tree_scale: to_f64(&self.tree_scale),
                bonus: to_f64(&self.bonus),
                ..HybridParams::inferred(epsilon)
            })
        } else {
            Params::Ts(TsParams {
                noise_scale: to_f64(&self.scale),
                bonus: to_f64(&self.bonus),
                ..TsParams::printed(epsilon)
            })
        }
    }

    /// The units (chunks of a table's runs) of `shard`.
    fn part(&self, shard: Shard) -> Result<std::ops::Range<u64>> {
        let all = units(&self.setup).ok_or_else(|| {
            Error::TooLarge(format!(
                "the audit at horizon {} on {} reward values with {} runs per table simulates more than 2^64 runs",
                self.setup.horizon,
                self.alphabet.len(),
                self.setup.runs
            ))
        })?;
        shard.range_of(all, "chunks of runs")
    }

    /// The counts of the units `part`, simulated on `pool` with a progress bar.
    fn sampled(
        &self,
        selection: &Selection,
        part: &std::ops::Range<u64>,
        pool: &rayon::ThreadPool,
    ) -> Result<Vec<Counts>> {
        let total = runs_in(&self.setup, part);
        let task = Task {
            name: "privacy audit",
            unit: "runs",
        };
        with_progress(true, task, total, |progress| {
            pool.install(|| {
                on_params!(self, p => sample_part(&p, &self.setup, selection, part, &|n| progress.add(n)))
            })
        })
    }

    /// What is printed of `shard` (its counts from table `first_table` on;
    /// `outcome` the analysis of the whole run, `sizes` the numbers of
    /// tables and pairs).
    fn shown<'a>(
        &'a self,
        shard: Shard,
        first_table: usize,
        counts: &'a [Counts],
        outcome: Option<&'a AuditOutcome>,
        sizes: (usize, usize),
    ) -> Result<Shown<'a>> {
        Ok(Shown {
            audit: self,
            shard,
            first_table,
            counts,
            outcome,
            sizes,
            bound: Certified::from_rational(&self.epsilon, &Precision(256)).exp()?,
        })
    }
}

/// What is printed: the whole audit (`outcome`) or a shard's counts.
struct Shown<'a> {
    audit: &'a Audit,
    shard: Shard,
    /// The table of `counts[0]`.
    first_table: usize,
    counts: &'a [Counts],
    outcome: Option<&'a AuditOutcome>,
    /// The numbers of tables and of ordered pairs audited.
    sizes: (usize, usize),
    bound: Certified,
}

/// An f64 as a decimal (the exact value of the double, rounded down).
fn f64_decimal(x: f64) -> String {
    Q::from_float(x).map_or_else(
        || x.to_string(),
        |q| format_sig_directed(&q, DIGITS, Dir::Down),
    )
}

/// What the statistical reports say of `witness.ratio_estimate` (its key is
/// kept for the contract; the note says what it is).
const RATIO_ESTIMATE_NOTE: &str = "witness.ratio_estimate is a point estimate on the test halves of P(E|x)/P(E|x') for the pair and event whose lower bound is the largest over all audited pairs; that pair is chosen on these same test counts, so the estimate is the maximum of many noisy estimates and biased upward; only epsilon_lower (and max_ratio = e^epsilon_lower) carries the confidence level";

impl Shown<'_> {
    /// The report as JSON or a paragraph, and whether it shows a violation
    /// (a lower confidence bound on ε above ε).
    fn rendered(&self, json: bool) -> (String, bool) {
        let text = if json {
            self.json().to_string()
        } else {
            self.paragraph()
        };
        (text, self.outcome.is_some_and(|o| o.violated))
    }

    fn table(&self, outcome: &AuditOutcome, index: usize) -> Vec<Vec<Value>> {
        outcome.selection.tables[index]
            .iter()
            .map(|row| {
                row.iter()
                    .map(|&v| report::exact(&self.audit.alphabet[v]))
                    .collect()
            })
            .collect()
    }

    /// The event's pull sequences (1-based arms, rounds 1..T).
    fn sequences(&self, outcome: &AuditOutcome) -> Vec<Vec<usize>> {
        let t = self.audit.setup.horizon;
        let codes = 1usize << t.saturating_sub(2);
        (0..codes)
            .filter(|c| outcome.best.event >> c & 1 == 1)
            .map(|c| {
                (0..t)
                    .map(|r| if r < 2 { r + 1 } else { (c >> (r - 2) & 1) + 1 })
                    .collect()
            })
            .collect()
    }

    fn verdict_text(&self) -> String {
        match self.outcome {
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
                self.shard, self.shard.count
            ),
        }
    }

    /// The one-sided level of each bound: `δ/(2m)`.
    fn level(&self) -> f64 {
        self.outcome.map_or_else(
            || (1.0 - self.audit.setup.confidence) / (2.0 * self.sizes.1.max(1) as f64),
            |o| o.level,
        )
    }

    fn json(&self) -> Value {
        let (a, setup) = (self.audit, &self.audit.setup);
        let lower = self.outcome.map_or(0.0, |o| o.best.epsilon_lower);
        let witness = self.outcome.map_or(Value::Null, |o| {
            let b = &o.best;
            let sequences = self.sequences(o);
            json!({
                "losses": self.table(o, b.first),
                "neighbour": self.table(o, b.second),
                "actions": sequences.first().cloned().unwrap_or_default(),
                "round": b.round,
                "event": sequences,
                "counts": [b.counts.0, b.counts.1],
                "test_runs": setup.runs - setup.runs / 2,
                "probability_bounds": [b.bounds.0, b.bounds.1],
                "ratio_estimate": f64_decimal(b.ratio_estimate),
            })
        });
        let counts: Vec<Value> = self
            .counts
            .iter()
            .map(|c| json!([c.selection, c.test]))
            .collect();
        let mut v = json!({
            "schema_version": report::SCHEMA_VERSION,
            "algorithm": a.id.name(),
            "actions": 2,
            "horizon": setup.horizon.to_string(),
            "alphabet": a.alphabet.iter().map(report::exact).collect::<Vec<_>>(),
            "epsilon": report::exact(&a.epsilon),
            "noise": "laplace",
            "noise_scale": report::exact(&a.scale),
            "bonus": report::exact(&a.bonus),
            "resample": false,
            "bound": bound_decimal(&self.bound),
            "bound_interval": report::interval(&self.bound),
            // The lower confidence bound of the largest ratio, not an
            // enclosure (a shard's: 1, it has not audited).
            "max_ratio": f64_decimal(lower.exp()),
            "max_ratio_interval": Value::Null,
            "max_ratio_exact": Value::Null,
            "max_ratio_confidence_interval": [f64_decimal(lower.exp()), "inf"],
            "epsilon_lower": f64_decimal(lower),
            "confidence": setup.confidence,
            "level_per_bound": self.level(),
            "verdict": if self.outcome.is_some_and(|o| o.violated) { "violated" } else { "undecided" },
            "verdict_text": self.verdict_text(),
            "witness": witness,
            "pairs": self.sizes.1,
            "tables": self.sizes.0,
            "runs_per_table": setup.runs,
            "seed": setup.seed,
            "kind": "approximate",
            "method": METHOD,
            "why_not_certified": if a.id == BanditId::HybridUcb {
                WHY_NOT_EXACT_HYBRID
            } else {
                "the Beta parameters of line 4 move continuously with the Laplace noise (no certified incomplete beta with real parameters, and a product over rounds integrated over up to 4 noises): see the documentation of privacy::bandit::statistical::TsParams"
            },
            "note": RATIO_ESTIMATE_NOTE,
            "shard": self.shard.to_string(),
            // What --merge reads back: per table of the shard's runs (from
            // `first_table` on), the counts of each pull code 0..2^(T-2)
            // (bit t-3: the arm of round t) in the selection and test halves.
            "merge": {
                "first_table": self.first_table,
                "counts": counts,
            },
        });
        if a.id == BanditId::HybridUcb {
            // `noise_scale` is the array blocks' scale; the tree's per level:
            v["tree_scale"] = report::exact(&a.tree_scale);
            v["algorithm_inferred"] = true.into();
        }
        v
    }

    fn paragraph(&self) -> String {
        let (a, setup) = (self.audit, &self.audit.setup);
        let alphabet: Vec<String> = a.alphabet.iter().map(ToString::to_string).collect();
        let mut out = String::new();
        let scales = if a.id == BanditId::HybridUcb {
            format!(
                "array scale {}, tree scale {} per level, inferred algorithm",
                a.scale, a.tree_scale
            )
        } else {
            format!("scale {}", a.scale)
        };
        let _ = writeln!(
            out,
            "{} (Laplace noise, {scales}, bonus {}), K = 2, horizon {}, rewards {{{}}}, ε = {}: STATISTICAL AUDIT (approximate)",
            a.id,
            a.bonus,
            setup.horizon,
            alphabet.join(", "),
            a.epsilon
        );
        let Some(o) = self.outcome else {
            let runs: u64 = self
                .counts
                .iter()
                .map(|c| c.selection.iter().chain(&c.test).sum::<u64>())
                .sum();
            let _ = write!(
                out,
                "SHARD {}: {runs} runs of tables {}..{} of {} simulated ({} runs per table, seed {}); counts only: the audit is made by --merge of the --json outputs of all {} shards",
                self.shard,
                self.first_table,
                self.first_table + self.counts.len(),
                self.sizes.0,
                setup.runs,
                setup.seed,
                self.shard.count
            );
            return out;
        };
        let b = &o.best;
        let _ = writeln!(
            out,
            "{}: ε_actual ≥ {:.4} (ratio ≥ {:.4}) vs ε = {} (e^ε = {})",
            self.verdict_text().to_uppercase(),
            b.epsilon_lower,
            b.epsilon_lower.exp(),
            a.epsilon,
            bound_decimal(&self.bound)
        );
        let rows = |i: usize| -> String {
            self.table(o, i)
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
            .sequences(o)
            .iter()
            .map(|s| s.iter().map(ToString::to_string).collect::<String>())
            .collect();
        let test = setup.runs - setup.runs / 2;
        let _ = writeln!(
            out,
            "    event: pulls in {{{}}}; test counts {}/{test} vs {}/{test}, estimated ratio {:.4} (biased upward: the largest of the pairs' estimates)",
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
            setup.runs,
            setup.seed,
            o.level
        );
        out
    }
}

/// Whether a merge input is a report of this module's audits (`kind`
/// approximate, `algorithm` lazy-dp-ts or hybrid-ucb).
pub(super) fn is_report(v: &Value) -> bool {
    v.get("kind").and_then(Value::as_str) == Some("approximate")
        && v.get("algorithm")
            .and_then(Value::as_str)
            .and_then(|a| a.parse::<BanditId>().ok())
            .is_some_and(|id| matches!(id, BanditId::LazyDpTs | BanditId::HybridUcb))
}

/// One shard's report, read back.
struct Part {
    audit: Audit,
    shard: Shard,
    first_table: usize,
    counts: Vec<Counts>,
}

/// `--merge` of the shards of one statistical audit (`inputs`: each file's
/// name and its parsed JSON). Every input is untrusted: its audit is
/// rebuilt from its fields and checked as the command line's is, the
/// audits must be equal (algorithm, ε, scales, bonus, alphabet, horizon,
/// runs, seed, confidence), the shards `1/N..N/N` each once, each shard's
/// counts those of its own tables (from `merge.first_table` on) summing to
/// its runs of each half of each table, and the report printed again from
/// these data must be the input, key for key. Then the counts are summed
/// and the analysis made: what the whole run prints. What cannot be seen
/// short of running the shard again: counts that are not the simulation's.
pub(super) fn merge(inputs: &[(String, Value)], as_json: bool) -> Result<(String, bool)> {
    let mut parts: Vec<(&str, &Value, Part)> = Vec::with_capacity(inputs.len());
    for (name, v) in inputs {
        if !is_report(v) {
            return Err(Error::InvalidInput(format!(
                "{name} is not the report of a lazy-dp-ts or hybrid-ucb audit, as the other inputs are"
            )));
        }
        let part = read_report(v).map_err(in_file(name))?;
        if let Some((first, _, p)) = parts.first() {
            if p.audit != part.audit {
                return Err(Error::InvalidInput(format!(
                    "{name} audits another algorithm or problem, or with other parameters, than {first} (algorithm, horizon, alphabet, ε, noise scales, bonus, runs, seed, confidence)"
                )));
            }
        }
        parts.push((name, v, part));
    }
    Shard::check_coverage(parts.iter().map(|(_, _, p)| p.shard))?;
    let audit = &parts
        .first()
        .ok_or_else(|| Error::InvalidInput("nothing to merge".into()))?
        .2
        .audit;
    // Every table's counts are in some input (coverage and each shard's
    // tables checked): the selection built now is no larger than the inputs.
    let selection = selection(audit.setup.horizon, audit.alphabet.len())?;
    let sizes = (selection.tables.len(), selection.pairs.len());
    let codes = 1usize << audit.setup.horizon.saturating_sub(2);
    let mut total = vec![Counts::zero(codes); sizes.0];
    for (name, v, p) in &parts {
        let shown = p
            .audit
            .shown(p.shard, p.first_table, &p.counts, None, sizes)?;
        same_report(&shown.json(), v).map_err(in_file(name))?;
        for (k, c) in p.counts.iter().enumerate() {
            total[p.first_table + k].add(c);
        }
    }
    let outcome = on_params!(audit, p => analyse(&p, &audit.setup, selection, &total))?;
    let shown = audit.shown(Shard::WHOLE, 0, &total, Some(&outcome), sizes)?;
    Ok(shown.rendered(as_json))
}

/// A shard's `--json` report read back: its audit rebuilt from its fields
/// (through [`Audit::new`], the command line's checks), its shard's units
/// and tables computed, and its counts checked against them: one entry per
/// table of the shard from `merge.first_table` on, each two arrays of
/// `2^(T−2)` counts summing to the shard's runs of that table in the
/// selection and in the test half. The rest of the report is compared by
/// the caller, once the tables are known.
fn read_report(v: &Value) -> Result<Part> {
    let text = |key: &str| v.get(key).and_then(Value::as_str).ok_or_else(|| field(key));
    let int = |key: &str| v.get(key).and_then(Value::as_u64).ok_or_else(|| field(key));
    let (id, horizon, alphabet) = super::bandit_fields(v)?;
    let tree_scale = match (id, v.get("tree_scale")) {
        (BanditId::HybridUcb, t) => Some(number("tree_scale", t)?),
        (_, None) => None,
        _ => return Err(field("tree_scale")),
    };
    let audit = Audit::new(
        id,
        Given {
            epsilon: number("epsilon", v.get("epsilon"))?,
            alphabet,
            scale: Some(number("noise_scale", v.get("noise_scale"))?),
            tree_scale,
            bonus: Some(number("bonus", v.get("bonus"))?),
        },
        AuditSetup {
            horizon,
            alphabet: Vec::new(),
            runs: int("runs_per_table")?,
            seed: int("seed")?,
            confidence: v
                .get("confidence")
                .and_then(Value::as_f64)
                .ok_or_else(|| field("confidence"))?,
            force: false,
        },
    )?;
    let shard: Shard = text("shard")?.parse().map_err(|_| field("shard"))?;
    let part = audit.part(shard)?;
    let tables = tables_of(&audit.setup, &part);
    let merge = v.get("merge").ok_or_else(|| field("merge"))?;
    let first_table = merge.get("first_table").and_then(Value::as_u64);
    let entries = merge
        .get("counts")
        .and_then(Value::as_array)
        .ok_or_else(|| field("merge.counts"))?;
    if first_table != Some(tables.start as u64) || entries.len() != tables.len() {
        return Err(Error::InvalidInput(format!(
            "the counts are not those of shard {shard}'s tables {}..{}",
            tables.start, tables.end
        )));
    }
    let codes = 1usize << horizon.saturating_sub(2);
    let counts = entries
        .iter()
        .zip(tables.clone())
        .map(|(entry, k)| {
            let half = |i: usize| -> Result<Vec<u64>> {
                entry
                    .get(i)
                    .and_then(Value::as_array)
                    .filter(|a| a.len() == codes && entry.as_array().is_some_and(|e| e.len() == 2))
                    .ok_or_else(|| field("merge.counts"))?
                    .iter()
                    .map(|n| n.as_u64().ok_or_else(|| field("merge.counts")))
                    .collect()
            };
            let c = Counts {
                selection: half(0)?,
                test: half(1)?,
            };
            let sum = |x: &[u64]| x.iter().try_fold(0u64, |s, &n| s.checked_add(n));
            let runs = runs_of(&audit.setup, &part, k);
            if (sum(&c.selection), sum(&c.test)) != (Some(runs.0), Some(runs.1)) {
                return Err(Error::InvalidInput(format!(
                    "the counts of table {k} do not sum to the shard's {} and {} runs of its two halves",
                    runs.0, runs.1
                )));
            }
            Ok(c)
        })
        .collect::<Result<Vec<Counts>>>()?;
    Ok(Part {
        audit,
        shard,
        first_table: tables.start,
        counts,
    })
}
