//! The bandit oracle from Python ([`dpdtol::oracle::bandit`]): the law of a
//! bandit algorithm's pull sequence on a reward table, seeded reference
//! samples of it, and the goodness-of-fit of anyone's pull sequences.
//!
//! The Python package (`python/dpdtol/bandit.py`) passes exact numbers as
//! strings and gets plain Python values back, as for the full-information
//! functions ([`crate::laws::Entry`] for each probability). The oracle's
//! messages name command-line flags; here they name the Python arguments.

use crate::laws::Entry;
pub(crate) use crate::py_err;
use crate::{rational, rational_rows, smallest_p, test_dict, violation_dict};
use dpdtol::bandit::law::dp_se::DpSeVariant;
use dpdtol::bandit::policy::ucb1::Ties;
use dpdtol::bandit::policy::{bonus_rounds, BanditId, Named};
use dpdtol::error::Error;
use dpdtol::num::given::parse_tree_depth;
use dpdtol::num::{format_sig_directed, Dir, Q};
use dpdtol::oracle::bandit::{self as oracle, BanditLaw, BanditSpec, BanditTarget};
use dpdtol::oracle::gof::GofOptions;
use dpdtol::oracle::two_sample::homogeneity;
use dpdtol::report::bandit_bounds::BanditBoundsReport;
use dpdtol::report::bandit_oracle::{
    BanditGiven, BanditGofReport, BanditSampleReport, BanditTwoSampleReport,
};
use dpdtol::report::{rendered, to_json};
use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::Path;

/// The algorithm's parameters as Python passes them: a dict with every
/// key (exact numbers as strings; `None` keeps the paper's default).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub struct Params {
    noise_scale: Option<String>,
    bonus: Option<String>,
    epoch_lengths: Option<Vec<u64>>,
    tree_scale: Option<String>,
    scale_factor: Option<String>,
    beta: Option<String>,
    pull_order: Option<String>,
    rounding: Option<String>,
    reward_index: Option<String>,
    radius: Option<String>,
    tree_depth: Option<String>,
    ties: Option<String>,
    bonus_round: Option<String>,
}

/// The target as the reports record it given (`rewards_file` is null: the
/// rewards came from Python).
fn given(algorithm: &str, epsilon: Option<&str>, params: &Params) -> BanditGiven {
    BanditGiven {
        algorithm: algorithm.to_string(),
        bonus: params.bonus.clone(),
        epoch_length: params
            .epoch_lengths
            .as_ref()
            .map(|rs| rs.iter().map(u64::to_string).collect::<Vec<_>>().join(",")),
        epsilon: epsilon.map(str::to_string),
        noise_scale: params.noise_scale.clone(),
        rewards_file: None,
        scale_factor: params.scale_factor.clone(),
        tree_scale: params.tree_scale.clone(),
        beta: params.beta.clone(),
        pull_order: params.pull_order.clone(),
        rounding: params.rounding.clone(),
        radius: params.radius.clone(),
        reward_index: params.reward_index.clone(),
        tree_depth: params.tree_depth.clone(),
        ties: params.ties.clone(),
        bonus_round: params.bonus_round.clone(),
    }
    .naming_readings()
}

/// `algorithm` as a bandit algorithm; an unknown name is refused with the
/// algorithms `takes` accepts, those of the function called.
pub(crate) fn bandit_id(algorithm: &str, takes: impl Fn(BanditId) -> bool) -> PyResult<BanditId> {
    algorithm.parse::<BanditId>().map_err(|_| {
        let names: Vec<&str> = BanditId::ALL
            .into_iter()
            .filter(|&id| takes(id))
            .map(BanditId::name)
            .collect();
        py_err(Error::InvalidInput(format!(
            "unknown bandit algorithm '{algorithm}' (expected one of {})",
            names.join(", ")
        )))
    })
}

/// Whether `bandit_gof` takes `id`: with a law, or by the two-sample test.
fn gof_takes(id: BanditId) -> bool {
    oracle::has_law(id) || oracle::has_two_sample_test(id)
}

/// `algorithm` (one that `takes` accepts) with `epsilon` (required by the
/// private algorithms, refused by `ucb1`) and `params`.
fn spec(
    algorithm: &str,
    epsilon: Option<&str>,
    params: Params,
    takes: impl Fn(BanditId) -> bool,
) -> PyResult<BanditSpec> {
    let id = bandit_id(algorithm, takes)?;
    let epsilon = match (epsilon, id.is_private()) {
        (Some(e), true) => rational("epsilon", e)?,
        // Not read by a non-private algorithm.
        (None, false) => Q::from_integer(1.into()),
        (None, true) => {
            return Err(PyValueError::new_err(format!(
                "epsilon is required by {id} (pass a positive number)"
            )))
        }
        (Some(_), false) => {
            return Err(PyValueError::new_err(format!(
                "epsilon does not apply to {id} (not private): pass None"
            )))
        }
    };
    if epsilon <= Q::from_integer(0.into()) {
        return Err(PyValueError::new_err(format!(
            "epsilon must be positive, got {epsilon}"
        )));
    }
    let exact = |what: &str, x: Option<String>| x.map(|s| rational(what, &s)).transpose();
    let (ucb1_bonus_round, bonus_round) =
        bonus_rounds(params.bonus_round.as_deref(), &[id]).map_err(py_err)?;
    Ok(BanditSpec {
        noise_scale: exact("noise_scale", params.noise_scale)?,
        bonus: exact("bonus", params.bonus)?,
        epoch_lengths: params.epoch_lengths,
        tree_scale: exact("tree_scale", params.tree_scale)?,
        scale_factor: exact("scale_factor", params.scale_factor)?,
        tree_depth: params
            .tree_depth
            .as_deref()
            .map(parse_tree_depth)
            .transpose()
            .map_err(py_err)?,
        ties: Ties::given(params.ties.as_deref()).map_err(py_err)?,
        dp_se: DpSeVariant::parse(
            params.beta.as_deref(),
            params.pull_order.as_deref(),
            params.rounding.as_deref(),
            params.radius.as_deref(),
            params.reward_index.as_deref(),
        )
        .map_err(py_err)?,
        bonus_round,
        ucb1_bonus_round,
        ..BanditSpec::new(id, epsilon)
    })
}

/// The target: [`spec`] on `rewards` (rows are rounds, one reward per arm).
fn target(
    algorithm: &str,
    rewards: &[Vec<String>],
    epsilon: Option<&str>,
    params: Params,
) -> PyResult<BanditTarget> {
    let spec = spec(algorithm, epsilon, params, oracle::has_law)?;
    BanditTarget::new(spec, rational_rows("rewards", rewards)?).map_err(py_err)
}

/// The law of `target`, computed without holding the interpreter.
fn law_of(py: Python<'_>, target: &BanditTarget, force: bool) -> PyResult<BanditLaw> {
    py.detach(|| target.law(force)).map_err(py_err)
}

/// Significant digits of the decimal ends of the total's enclosure.
const DIGITS: usize = 40;

/// `{kind, precision_bits, accepted (every probability exact or enclosed to
/// a relative 10^−42), why_not_exact, arms, horizon, sequences (an m × T
/// int64 array, 0-based arms), probabilities [entry], total (lo, hi)}`.
fn law_dict(py: Python<'_>, law: &BanditLaw) -> PyResult<Py<PyAny>> {
    let d = PyDict::new(py);
    d.set_item("kind", law.kind().label())?;
    d.set_item("precision_bits", law.precision_bits())?;
    d.set_item("accepted", law.digits_certain())?;
    d.set_item("why_not_exact", law.why_not_exact())?;
    d.set_item("arms", law.arms())?;
    d.set_item("horizon", law.horizon())?;
    let entries = law.entries();
    let flat: Vec<i64> = entries
        .iter()
        .flat_map(|(pulls, _)| pulls.iter().map(|&a| a as i64))
        .collect();
    let sequences = PyArray1::from_vec(py, flat).reshape([entries.len(), law.horizon()])?;
    d.set_item("sequences", sequences)?;
    let probabilities = entries
        .iter()
        .map(|(_, p)| Entry::enclosed(p.clone()).to_py(py))
        .collect::<PyResult<Vec<_>>>()?;
    d.set_item("probabilities", probabilities)?;
    let (lo, hi) = law.total();
    let total = (
        format_sig_directed(&lo, DIGITS, Dir::Down),
        format_sig_directed(&hi, DIGITS, Dir::Up),
    );
    d.set_item("total", total)?;
    Ok(d.into_any().unbind())
}

/// The law of `algorithm`'s pull sequence on `rewards`: every sequence of
/// possibly positive probability, lexicographic, with its probability
/// ([`BanditTarget::law`]).
#[pyfunction]
#[pyo3(signature = (algorithm, rewards, epsilon, params, force=false))]
fn bandit_law(
    py: Python<'_>,
    algorithm: &str,
    rewards: Vec<Vec<String>>,
    epsilon: Option<&str>,
    params: Params,
    force: bool,
) -> PyResult<Py<PyAny>> {
    let target = target(algorithm, &rewards, epsilon, params)?;
    law_dict(py, &law_of(py, &target, force)?)
}

/// Certified bounds on the law of DP-TS's or Lazy-DP-TS's pull sequence on
/// `rewards` ([`oracle::law_bounds`]): the JSON of the typed report
/// ([`BanditBoundsReport`], the output of `dpdtol law --rewards-file …
/// --json`, with the bounds of `sequence` when given, arms numbered from
/// `base`) and its text.
#[pyfunction]
#[pyo3(signature = (algorithm, rewards, epsilon, params, force=false, base=1, sequence=None))]
#[allow(clippy::too_many_arguments)]
fn bandit_law_bounds(
    py: Python<'_>,
    algorithm: &str,
    rewards: Vec<Vec<String>>,
    epsilon: Option<&str>,
    params: Params,
    force: bool,
    base: u32,
    sequence: Option<Vec<usize>>,
) -> PyResult<(String, String)> {
    let given = given(algorithm, epsilon, &params);
    let spec = spec(algorithm, epsilon, params, oracle::has_bounds)?;
    let rewards = rational_rows("rewards", &rewards)?;
    let bounds = py
        .detach(|| oracle::law_bounds(&spec, &rewards, force))
        .map_err(py_err)?;
    let sequence = sequence
        .map(|s| {
            s.iter()
                .map(|&a| {
                    a.checked_sub(base as usize).ok_or_else(|| {
                        PyValueError::new_err(format!("sequence: arm {a} is below the base {base}"))
                    })
                })
                .collect::<PyResult<Vec<usize>>>()
        })
        .transpose()?;
    let report = BanditBoundsReport::new(
        given,
        rewards[0].len(),
        rewards.len(),
        &bounds.entries,
        bounds.precision_bits,
        sequence.as_deref(),
        base,
    )
    .map_err(py_err)?;
    Ok((to_json(&report), rendered(&report, false)))
}

/// `n` reference pull sequences as an `n × T` int64 array (0-based arms),
/// drawn from the law by exact inversion, sample `i` from its own seeded
/// stream ([`oracle::sample`]): the same array for any thread count; and
/// the JSON of the typed report ([`BanditSampleReport`], the output of
/// `dpdtol sample --rewards-file … --json`, arms numbered from `base`; the
/// package sets its `out` and `format` to None).
#[pyfunction]
#[pyo3(signature = (algorithm, rewards, epsilon, n, seed, params, force=false, base=1))]
#[allow(clippy::too_many_arguments)]
fn bandit_sample<'py>(
    py: Python<'py>,
    algorithm: &str,
    rewards: Vec<Vec<String>>,
    epsilon: Option<&str>,
    n: usize,
    seed: u64,
    params: Params,
    force: bool,
    base: u32,
) -> PyResult<(Bound<'py, PyAny>, String)> {
    let given = given(algorithm, epsilon, &params);
    let target = target(algorithm, &rewards, epsilon, params)?;
    let law = law_of(py, &target, force)?;
    let drawn = py
        .detach(|| oracle::sample(&law, n, seed, force))
        .map_err(py_err)?;
    let flat: Vec<i64> = drawn.data().iter().map(|&a| i64::from(a)).collect();
    let array = PyArray1::from_vec(py, flat)
        .reshape([n, law.horizon()])?
        .into_any();
    let report = BanditSampleReport::new(given, &law, n, seed, Path::new(""), base);
    Ok((array, to_json(&report)))
}

/// The level of a bandit gof: `alpha`, the number `m` of tests (the
/// chi-square, and its rare-cell test when run) and `alpha / m`.
struct Level {
    alpha: f64,
    tests: usize,
    per_test_alpha: f64,
}

/// The keys of a gof dict that every outcome shares: `n`, `tests` (the
/// number of tests, as in the full-information dict), `chi_square_tests`
/// (the one test, if run), `p_min`, `alpha`, `per_test_alpha`, `rejected`
/// and no joint test.
fn gof_dict<'py>(
    py: Python<'py>,
    n: usize,
    test: Option<Bound<'py, PyDict>>,
    p_value: f64,
    level: Level,
    rejected: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("n", n)?;
    d.set_item("tests", level.tests)?;
    d.set_item("chi_square_tests", test.into_iter().collect::<Vec<_>>())?;
    d.set_item("p_min", p_value)?;
    d.set_item("joint_skipped", None::<String>)?;
    d.set_item("alpha", level.alpha)?;
    d.set_item("per_test_alpha", level.per_test_alpha)?;
    d.set_item("rejected", rejected)?;
    Ok(d)
}

/// The goodness-of-fit of `samples` (an `n × T` array of 0-based arms)
/// against the law ([`oracle::gof`]): the support, then one Pearson
/// chi-square over the pull sequences. For `lazy-dp-ts` and `dp-ts`, which have no law,
/// the two-sample test ([`homogeneity`]) against `n` sequences of dpdtol's
/// own f64 simulation ([`oracle::simulate`], seeded by `seed`, default 0).
#[pyfunction]
#[pyo3(signature = (algorithm, rewards, epsilon, samples, params, alpha=1e-3, tv=None, seed=None, force=false, base=1, explain=false))]
#[allow(clippy::too_many_arguments)]
fn bandit_gof(
    py: Python<'_>,
    algorithm: &str,
    rewards: Vec<Vec<String>>,
    epsilon: Option<&str>,
    samples: PyReadonlyArray2<'_, i64>,
    params: Params,
    alpha: f64,
    tv: Option<f64>,
    seed: Option<u64>,
    force: bool,
    base: u32,
    explain: bool,
) -> PyResult<Py<PyAny>> {
    let shape = samples.shape().to_vec();
    let samples = crate::samples(shape[0], shape[1], samples.as_array().iter().copied())?;
    let options = GofOptions {
        alpha,
        tv,
        base,
        ..GofOptions::default()
    };
    let given = given(algorithm, epsilon, &params);
    let spec = spec(algorithm, epsilon, params, gof_takes)?;
    if oracle::has_two_sample_test(spec.id) {
        if explain {
            return Err(py_err(oracle::explain_two_sample(spec.id)));
        }
        let rewards = rational_rows("rewards", &rewards)?;
        let outcome = py
            .detach(|| {
                let reference =
                    oracle::simulate(&spec, &rewards, samples.rows(), seed.unwrap_or(0), force)?;
                homogeneity(&reference, &samples, &options)
            })
            .map_err(py_err)?;
        let seed = seed.unwrap_or(0);
        let typed =
            BanditTwoSampleReport::new(given, Path::new(""), base, seed, &options, &outcome);
        let name = "two-sample (against dpdtol's simulation, approximate)";
        let test = test_dict(py, name, &outcome.test)?;
        let d = gof_dict(
            py,
            outcome.n,
            Some(test),
            outcome.test.p_value,
            Level {
                alpha,
                tests: 1,
                per_test_alpha: alpha,
            },
            outcome.reject,
        )?;
        d.set_item("support_violation", None::<String>)?;
        d.set_item("n_reference", outcome.n_reference)?;
        d.set_item("law", None::<String>)?;
        d.set_item("report", to_json(&typed))?;
        return Ok(d.into_any().unbind());
    }
    if seed.is_some() {
        return Err(PyValueError::new_err(
            "seed applies to lazy-dp-ts and dp-ts only (the seed of their reference simulation)",
        ));
    }
    let rewards = rational_rows("rewards", &rewards)?;
    let target = BanditTarget::new(spec.clone(), rewards.clone()).map_err(py_err)?;
    let law = law_of(py, &target, force)?;
    let report = py
        .detach(|| oracle::gof(&law, &samples, &options))
        .map_err(py_err)?;
    let test = report
        .test
        .as_ref()
        .map(|t| test_dict(py, "sequences", t))
        .transpose()?;
    // A sample outside the support rejects with certainty: p = 0.
    let p_value = match (&report.support_violation, &report.test) {
        (Some(_), _) => 0.0,
        (None, test) => test.as_ref().map_or(1.0, smallest_p),
    };
    let level = Level {
        alpha,
        tests: report.tests,
        per_test_alpha: report.per_test_alpha,
    };
    let d = gof_dict(py, report.n, test, p_value, level, report.reject)?;
    d.set_item(
        "support_violation",
        violation_dict(py, report.support_violation.as_ref())?,
    )?;
    d.set_item("law", law_dict(py, &law)?)?;
    let fits = explain
        .then(|| py.detach(|| oracle::explain(&spec, &rewards, &samples, &options, force)))
        .transpose()
        .map_err(py_err)?;
    let typed = BanditGofReport::new(given, &law, Path::new(""), base, &options, &report);
    let typed = match fits {
        Some(fits) => typed.with_explain(fits),
        None => typed,
    };
    d.set_item("report", to_json(&typed))?;
    Ok(d.into_any().unbind())
}

/// Add the bandit functions to the module `dpdtol._native`.
/// The bandit algorithms each function accepts, by the predicates the
/// command line decides with (so that a docstring lists exactly them):
/// `law` (`bandit_law`, `bandit_sample`, `bandit_gof`), `two_sample`
/// (`bandit_gof`'s test against dpdtol's simulation), `privacy_exact` and
/// `privacy_statistical` (`bandit_privacy`), `simulate` (every one).
#[pyfunction]
fn bandit_algorithms(py: Python<'_>) -> PyResult<Py<PyAny>> {
    use dpdtol::privacy::bandit::audit_run::is_statistical;
    use dpdtol::privacy::bandit::setup::exact_check_of;
    let names = |keep: &dyn Fn(BanditId) -> bool| -> Vec<&'static str> {
        BanditId::ALL
            .into_iter()
            .filter(|&id| keep(id))
            .map(BanditId::name)
            .collect()
    };
    let d = PyDict::new(py);
    d.set_item("law", names(&oracle::has_law))?;
    d.set_item("two_sample", names(&oracle::has_two_sample_test))?;
    d.set_item("privacy_exact", names(&|id| exact_check_of(id).is_ok()))?;
    d.set_item(
        "privacy_statistical",
        names(&|id| is_statistical(id, Some("statistical"), false).unwrap_or(false)),
    )?;
    d.set_item("simulate", names(&|_| true))?;
    Ok(d.into_any().unbind())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(bandit_algorithms, m)?)?;
    m.add_function(wrap_pyfunction!(bandit_law, m)?)?;
    m.add_function(wrap_pyfunction!(bandit_law_bounds, m)?)?;
    m.add_function(wrap_pyfunction!(bandit_sample, m)?)?;
    m.add_function(wrap_pyfunction!(bandit_gof, m)?)?;
    Ok(())
}
