//! `dpdtol bandit` from Python: the Monte Carlo simulation (f64,
//! **approximate**) of the bandit algorithms on Bernoulli arms
//! ([`dpdtol::report::bandit::BanditReport::simulate`]), with the mean pseudo-regret at
//! logarithmically spaced checkpoints and its confidence intervals. Returns
//! the JSON of its typed report ([`dpdtol::report::bandit::BanditReport`]) and the command line's
//! tables.

use crate::bandit::py_err;
use crate::rational;
use dpdtol::bandit::law::dp_se::DpSeVariant;
use dpdtol::bandit::policy::experiment::{Given, Plan, Readings};
use dpdtol::bandit::policy::ucb1::Ties;
use dpdtol::bandit::policy::{bonus_rounds, BanditId, Named};
use dpdtol::num::given::{parse_f64_list, parse_one, parse_tree_depth};
use dpdtol::report::bandit::BanditReport;
use dpdtol::report::to_json;
use pyo3::prelude::*;

/// `dpdtol bandit --json`: `runs` runs of each algorithm of `algorithms`
/// (and each ε of `epsilons`) on arms of `means` for `horizon` rounds,
/// seeded by `seed`; `experiment` a preset (`"hu-fig1"`, …). The numbers
/// come as the command line's text (`epsilons` comma-separated) and are
/// read by its parsers ([`dpdtol::num::given`]).
#[pyfunction]
#[pyo3(signature = (algorithms=None, means=None, epsilons=None, horizon=None, runs=None, seed=1, confidence="0.95", experiment=None, noise_scale=None, bonus=None, beta=None, pull_order=None, rounding=None, radius=None, tree_depth=None, ties=None, bonus_round=None, force=false, threads=None))]
#[allow(clippy::too_many_arguments)]
fn bandit_simulate(
    py: Python<'_>,
    algorithms: Option<Vec<String>>,
    means: Option<Vec<String>>,
    epsilons: Option<&str>,
    horizon: Option<u64>,
    runs: Option<u64>,
    seed: u64,
    confidence: &str,
    experiment: Option<&str>,
    noise_scale: Option<&str>,
    bonus: Option<&str>,
    beta: Option<&str>,
    pull_order: Option<&str>,
    rounding: Option<&str>,
    radius: Option<&str>,
    tree_depth: Option<&str>,
    ties: Option<&str>,
    bonus_round: Option<&str>,
    force: bool,
    threads: Option<usize>,
) -> PyResult<(String, String)> {
    let optional = |flag: &str, text: Option<&str>| {
        text.map(|s| parse_one(flag, s)).transpose().map_err(py_err)
    };
    let plan = Plan::new(Given {
        experiment,
        algorithms: algorithms
            .map(|ids| ids.iter().map(|id| id.parse::<BanditId>()).collect())
            .transpose()
            .map_err(py_err)?,
        means: means
            .map(|ms| ms.iter().map(|m| rational("means", m)).collect())
            .transpose()?,
        epsilons: epsilons
            .map(|text| parse_f64_list("--epsilon", text))
            .transpose()
            .map_err(py_err)?,
        horizon,
        runs,
        level: parse_one("--confidence", confidence).map_err(py_err)?,
    })
    .map_err(py_err)?;
    let dp_se = DpSeVariant::parse(None, pull_order, rounding, radius, None).map_err(py_err)?;
    let (ucb1_bonus_round, bonus_round) =
        bonus_rounds(bonus_round, &plan.algorithms).map_err(py_err)?;
    let configs = plan
        .configs(
            optional("--noise-scale", noise_scale)?,
            optional("--bonus", bonus)?,
            optional("--beta", beta)?,
            Readings {
                pull_order: dp_se.order,
                rounding: dp_se.rounding,
                radius: dp_se.radius,
                tree_depth: tree_depth
                    .map(parse_tree_depth)
                    .transpose()
                    .map_err(py_err)?,
                ties: Ties::given(ties).map_err(py_err)?,
                bonus_round,
                ucb1_bonus_round,
            },
            force,
        )
        .map_err(py_err)?;
    let pool = dpdtol::size::thread_pool(threads).map_err(py_err)?;
    let report = py
        .detach(|| {
            pool.install(|| BanditReport::simulate(&plan, &configs, experiment, seed, &|| {}))
        })
        .map_err(py_err)?;
    Ok((to_json(&report), report.tables(&plan.epsilons)))
}

/// Add this module's function to `_native`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(bandit_simulate, m)?)
}
