//! `dpdtol privacy` for the bandit algorithms from Python: the exhaustive
//! check of Anytime-Lazy-UCB, DP-SE and Hybrid-UCB
//! ([`dpdtol::privacy::bandit::setup`]) and the statistical audit of
//! Lazy-DP-TS and Hybrid-UCB ([`dpdtol::privacy::bandit::audit_run`]), as
//! the command line runs them. Each returns the JSON of its typed report
//! ([`BanditPrivacyReport`], [`StatisticalPrivacyReport`]) and the
//! command line's text of it.

use crate::bandit::py_err;
use crate::{horizon, rational};
use dpdtol::bandit::law::dp_se::DpSeVariant;
use dpdtol::bandit::law::dp_ts::{certified, PrivateThompson};
use dpdtol::bandit::law::params::Overrides;
use dpdtol::bandit::policy::dp_ts::BonusRound;
use dpdtol::bandit::policy::{BanditId, Named};
use dpdtol::num::given::parse_tree_depth;
use dpdtol::num::{Certified, Q};
use dpdtol::privacy::bandit::audit_run::{self, Audit, DEFAULT_RUNS};
use dpdtol::privacy::bandit::sandwich::check;
use dpdtol::privacy::bandit::setup::{exact_check_of, Setup};
use dpdtol::privacy::bandit::statistical::AuditSetup;
use dpdtol::privacy::{Problem, Shard};
use dpdtol::report::bandit_bounds::BoundsPrivacyReport;
use dpdtol::report::bandit_privacy::BanditPrivacyReport;
use dpdtol::report::privacy::DeltaKeys;
use dpdtol::report::statistical_privacy::StatisticalPrivacyReport;
use dpdtol::report::{rendered, to_json};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// An optional exact number named `what`.
fn exact(what: &str, text: Option<&str>) -> PyResult<Option<Q>> {
    text.map(|t| rational(what, t)).transpose()
}

/// `dpdtol privacy --algorithm anytime-lazy-ucb|dp-se|hybrid-ucb|lazy-dp-ts|dp-ts`:
/// the exact check, or the statistical audit when `method` is
/// `"statistical"`, when `runs`, `seed` or `confidence` is given, or for
/// Lazy-DP-TS and DP-TS ([`audit_run::is_statistical`]), or for those two the
/// certified check from bounds on their laws when `method` is `"bounds"`
/// ([`dpdtol::privacy::bandit::sandwich`]). Returns the report's JSON, its
/// text and which report it is: `"exact"`, `"statistical"` or `"bounds"`.
#[pyfunction]
#[pyo3(signature = (algorithm, actions, horizon, alphabet, epsilon, noise_scale=None, epoch_lengths=None, tree_scale=None, scale_factor=None, bonus=None, beta=None, pull_order=None, rounding=None, radius=None, reward_index=None, tree_depth=None, bonus_round=None, method=None, runs=None, seed=None, confidence=None, force=false, threads=None, delta=None))]
#[allow(clippy::too_many_arguments)]
fn bandit_privacy(
    py: Python<'_>,
    algorithm: &str,
    actions: usize,
    horizon: &str,
    alphabet: Vec<String>,
    epsilon: &str,
    noise_scale: Option<&str>,
    epoch_lengths: Option<Vec<u64>>,
    tree_scale: Option<&str>,
    scale_factor: Option<&str>,
    bonus: Option<&str>,
    beta: Option<&str>,
    pull_order: Option<&str>,
    rounding: Option<&str>,
    radius: Option<&str>,
    reward_index: Option<&str>,
    tree_depth: Option<&str>,
    bonus_round: Option<&str>,
    method: Option<&str>,
    runs: Option<u64>,
    seed: Option<u64>,
    confidence: Option<f64>,
    force: bool,
    threads: Option<usize>,
    delta: Option<&str>,
) -> PyResult<(String, String, &'static str)> {
    let target = exact("delta", delta)?;
    let id = crate::bandit::bandit_id(algorithm, |id| {
        exact_check_of(id).is_ok()
            || audit_run::is_statistical(id, Some("statistical"), false).unwrap_or(false)
    })?;
    let sampling = runs.is_some() || seed.is_some() || confidence.is_some();
    let statistical = audit_run::is_statistical(id, method, sampling).map_err(py_err)?;
    let bounds = !statistical && matches!(id, BanditId::DpTs | BanditId::LazyDpTs);
    let horizon: usize = self::horizon(horizon)?;
    let epsilon = rational("epsilon", epsilon)?;
    let alphabet: Vec<Q> = alphabet
        .iter()
        .map(|v| rational("alphabet", v))
        .collect::<PyResult<_>>()?;
    let overrides = Overrides {
        scale: exact("noise_scale", noise_scale)?,
        tree_scale: exact("tree_scale", tree_scale)?,
        bonus: exact("bonus", bonus)?,
        scale_factor: exact("scale_factor", scale_factor)?,
        lengths: epoch_lengths,
        dp_se: DpSeVariant::parse(beta, pull_order, rounding, radius, reward_index)
            .map_err(py_err)?,
        tree_depth: tree_depth
            .map(parse_tree_depth)
            .transpose()
            .map_err(py_err)?,
        bonus_round: BonusRound::given(bonus_round).map_err(py_err)?,
    };
    overrides.refuse_unread(id).map_err(py_err)?;
    let pool = dpdtol::size::thread_pool(threads).map_err(py_err)?;
    if bounds {
        if target.is_some() {
            return Err(PyValueError::new_err(
                "delta: method=\"bounds\" reports bounds on δ(ε) itself (delta_interval); it takes no target",
            ));
        }
        // Rewards in [0, 1], as every privacy check takes them.
        Problem::new(horizon, alphabet.clone(), epsilon.clone()).map_err(py_err)?;
        let law = PrivateThompson::of(id, actions, epsilon.clone(), &overrides)
            .map_err(py_err)?;
        let (outcome, bits) = py
            .detach(|| {
                pool.install(|| {
                    certified(|bits| {
                        check::<_, Certified>(&law, &alphabet, horizon, &epsilon, force, bits)
                    })
                })
            })
            .map_err(py_err)?;
        let report = BoundsPrivacyReport::new(&law, &epsilon, &alphabet, horizon, &outcome, bits);
        return Ok((to_json(&report), rendered(&report, false), "bounds"));
    }
    if statistical {
        if target.is_some() {
            let exact: Vec<&str> = BanditId::ALL
                .into_iter()
                .filter(|&b| exact_check_of(b).is_ok())
                .map(BanditId::name)
                .collect();
            return Err(PyValueError::new_err(format!(
                "delta: the (ε, δ) check needs a closed-form law ({}), not a statistical audit",
                exact.join(", ")
            )));
        }
        let setup = AuditSetup {
            horizon,
            alphabet: Vec::new(),
            runs: runs.unwrap_or(DEFAULT_RUNS),
            seed: seed.unwrap_or(1),
            confidence: confidence.unwrap_or(0.95),
            force,
        };
        let audit = Audit::of(id, actions, epsilon, alphabet, overrides, setup).map_err(py_err)?;
        let run = py
            .detach(|| audit.run(Shard::WHOLE, &pool))
            .map_err(py_err)?;
        let report = StatisticalPrivacyReport::new(&run);
        return Ok((to_json(&report), rendered(&report, false), "statistical"));
    }
    exact_check_of(id).map_err(py_err)?;
    if overrides.lengths.iter().flatten().any(|&r| r == 0) {
        return Err(PyValueError::new_err(
            "epoch_lengths: expected positive integers R_1, R_2, … (the last repeats)",
        ));
    }
    let problem = Problem::new(horizon, alphabet, epsilon).map_err(py_err)?;
    let setup = Setup::new(id, actions, problem, overrides).map_err(py_err)?;
    let (decided, delta) = py
        .detach(|| {
            let delta = target.map(|d| setup.delta(&d, force)).transpose()?;
            Ok::<_, dpdtol::error::Error>((
                pool.install(|| setup.check(Shard::WHOLE, force))?,
                delta,
            ))
        })
        .map_err(py_err)?;
    let mut report = BanditPrivacyReport::new(&decided);
    report.verdict.delta = delta.as_ref().map(DeltaKeys::of);
    Ok((to_json(&report), rendered(&report, false), "exact"))
}

/// Add this module's functions to `_native`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(bandit_privacy, m)?)
}
