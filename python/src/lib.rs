//! `dpdtol._native`: the Rust half of the Python package `dpdtol`.
//!
//! Every function takes exact numbers as strings (`"0.25"`, `"1/4"`, `"3"`,
//! parsed by [`dpdtol::num::parse_rational`]) and returns plain Python
//! values: exact rationals as `"p/q"` strings, certified enclosures as pairs
//! of decimal strings rounded outward, approximations as floats labelled
//! `approx`. The Python package (`python/dpdtol/__init__.py`) turns them into
//! `Fraction`s and numpy arrays. No function panics on user input: every
//! [`dpdtol::Error`] becomes a `ValueError` (`TooLargeError`, a subclass,
//! when the work is over a size limit that a flag lifts).

#![forbid(unsafe_code)]

mod bandit;
mod laws;

use dpdtol::algorithm::{AlgorithmId, Config};
use dpdtol::mechanism::Noise;
use dpdtol::num::{parse_rational, Q};
use dpdtol::oracle::gof::{self as oracle_gof, GofOptions};
use dpdtol::oracle::{Samples, Target};
use dpdtol::Error;
use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

create_exception!(
    _native,
    TooLargeError,
    PyValueError,
    "The requested work is over a size limit; the message says how large it is and which argument forces it."
);

/// A crate error as a Python exception.
fn py_err(e: Error) -> PyErr {
    match e {
        Error::TooLarge(_) => TooLargeError::new_err(e.to_string()),
        _ => PyValueError::new_err(e.to_string()),
    }
}

/// Parse one exact number, naming what it is in the error.
fn rational(what: &str, text: &str) -> PyResult<Q> {
    parse_rational(text).map_err(|e| PyValueError::new_err(format!("{what}: {e}")))
}

/// Parse a matrix of exact numbers (one loss vector a round).
fn rational_rows(what: &str, rows: &[Vec<String>]) -> PyResult<Vec<Vec<Q>>> {
    rows.iter()
        .map(|row| row.iter().map(|x| rational(what, x)).collect())
        .collect()
}

/// The configuration of the command-line flags `--algorithm --actions
/// --epsilon [--noise --noise-scale --resample]`.
fn config(
    id: &str,
    actions: usize,
    epsilon: &str,
    noise: Option<&str>,
    noise_scale: Option<&str>,
    resample: bool,
) -> PyResult<Config> {
    let mut config = Config::new(
        id.parse::<AlgorithmId>().map_err(py_err)?,
        actions,
        rational("epsilon", epsilon)?,
    );
    config.noise = noise.map(str::parse::<Noise>).transpose().map_err(py_err)?;
    config.noise_scale = noise_scale
        .map(|s| rational("noise_scale", s))
        .transpose()?;
    config.resample = resample;
    Ok(config)
}

/// The number of actions of a loss matrix (its row length), checked to be
/// the same in every round.
fn width(losses: &[Vec<String>]) -> PyResult<usize> {
    let k = losses.first().map(Vec::len).ok_or_else(|| {
        PyValueError::new_err("the loss sequence is empty: give at least one round")
    })?;
    if let Some((t, row)) = losses.iter().enumerate().find(|(_, r)| r.len() != k) {
        return Err(PyValueError::new_err(format!(
            "round {} has {} losses, round 1 has {k}",
            t + 1,
            row.len()
        )));
    }
    Ok(k)
}

/// The arguments of one report-noisy-max selection, parsed: the noise, the
/// losses and the scale (exactly one of β and the unit weight).
fn selection(
    noise: &str,
    losses: &[String],
    scale: Option<String>,
    unit_weight: Option<String>,
) -> PyResult<(Noise, Vec<Q>, dpdtol::mechanism::Scale)> {
    let noise = noise.parse::<Noise>().map_err(py_err)?;
    let losses: Vec<Q> = losses
        .iter()
        .map(|l| rational("losses", l))
        .collect::<PyResult<_>>()?;
    let scale = laws::scale(
        scale.map(|s| rational("scale", &s)).transpose()?,
        unit_weight
            .map(|w| rational("unit_weight", &w))
            .transpose()?,
    )?;
    Ok((noise, losses, scale))
}

/// The target of an online algorithm on a loss matrix (rows = rounds).
#[allow(clippy::too_many_arguments)]
fn algorithm_target(
    algorithm_id: &str,
    losses: &[Vec<String>],
    epsilon: &str,
    noise: Option<&str>,
    noise_scale: Option<&str>,
    resample: bool,
) -> PyResult<Target> {
    let k = width(losses)?;
    let alg = config(algorithm_id, k, epsilon, noise, noise_scale, resample)?
        .build()
        .map_err(py_err)?;
    Target::algorithm(alg, rational_rows("losses", losses)?).map_err(py_err)
}

/// The target of one report-noisy-max selection.
fn mechanism_target(
    noise: &str,
    losses: &[String],
    scale: Option<String>,
    unit_weight: Option<String>,
) -> PyResult<Target> {
    let (noise, losses, scale) = selection(noise, losses, scale, unit_weight)?;
    Target::mechanism(noise, scale, losses).map_err(py_err)
}

/// The law of one report-noisy-max selection, see [`laws::of`].
#[pyfunction]
#[pyo3(signature = (noise, losses, scale=None, unit_weight=None, digits=30))]
fn mechanism_law(
    py: Python<'_>,
    noise: &str,
    losses: Vec<String>,
    scale: Option<String>,
    unit_weight: Option<String>,
    digits: u32,
) -> PyResult<Py<PyAny>> {
    let target = mechanism_target(noise, &losses, scale, unit_weight)?;
    let (law, _) = py
        .detach(|| laws::of(&target, digits, false))
        .map_err(py_err)?;
    law.into_dict(py)
}

/// The law of an online algorithm's action sequence on a loss sequence
/// (rows = rounds): its schedule and each choice's law, see [`laws::of`].
#[pyfunction]
#[pyo3(signature = (algorithm_id, losses, epsilon, noise=None, noise_scale=None, resample=false, digits=30, force=false))]
#[allow(clippy::too_many_arguments)]
fn sequence_law(
    py: Python<'_>,
    algorithm_id: &str,
    losses: Vec<Vec<String>>,
    epsilon: &str,
    noise: Option<&str>,
    noise_scale: Option<&str>,
    resample: bool,
    digits: u32,
    force: bool,
) -> PyResult<Py<PyAny>> {
    let target = algorithm_target(algorithm_id, &losses, epsilon, noise, noise_scale, resample)?;
    let (law, _) = py
        .detach(|| laws::of(&target, digits, force))
        .map_err(py_err)?;
    law.into_dict(py)
}

/// The most actions one sample array may hold (8 bytes each in numpy).
const MAX_SAMPLE_CELLS: usize = 1 << 27;

/// `n` reference action sequences (0-based) on `losses`, drawn from the
/// certified law by exact inversion, as an `n × T` int64 array
/// ([`dpdtol::oracle::sample::sample`]: sample `i` draws from ChaCha8
/// seeded with `seed` on stream `i`, so the array is the same for any
/// thread count).
#[pyfunction]
#[pyo3(signature = (algorithm_id, losses, epsilon, n, seed, noise=None, noise_scale=None, resample=false))]
#[allow(clippy::too_many_arguments)]
fn sample<'py>(
    py: Python<'py>,
    algorithm_id: &str,
    losses: Vec<Vec<String>>,
    epsilon: &str,
    n: usize,
    seed: u64,
    noise: Option<&str>,
    noise_scale: Option<&str>,
    resample: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let target = algorithm_target(algorithm_id, &losses, epsilon, noise, noise_scale, resample)?;
    let t = target.horizon();
    if n.checked_mul(t).is_none_or(|c| c > MAX_SAMPLE_CELLS) {
        return Err(TooLargeError::new_err(format!(
            "{n} samples of {t} rounds are over the limit of {MAX_SAMPLE_CELLS} actions in one array; draw them in several calls with different seeds"
        )));
    }
    let flat: Vec<i64> = py
        .detach(|| -> dpdtol::Result<Vec<i64>> {
            let (_, law) = laws::of(&target, 40, false)?;
            Ok(dpdtol::oracle::sample::sample(&law, n, seed)?
                .data()
                .iter()
                .map(|&a| i64::from(a))
                .collect())
        })
        .map_err(py_err)?;
    Ok(PyArray1::from_vec(py, flat).reshape([n, t])?.into_any())
}

/// Samples from Python (already checked non-negative by the package) as
/// the oracle's [`Samples`].
fn samples(rows: usize, cols: usize, data: impl Iterator<Item = i64>) -> PyResult<Samples> {
    let data = data
        .map(|a| {
            u32::try_from(a).map_err(|_| {
                PyValueError::new_err(format!("samples: action {a} is not in 0..2^32"))
            })
        })
        .collect::<PyResult<Vec<u32>>>()?;
    Samples::new(rows, cols, data).map_err(py_err)
}

/// [`oracle_gof::gof`] of `samples` against the law of `target`, as a dict.
fn run_gof(
    py: Python<'_>,
    target: &Target,
    samples: &Samples,
    alpha: f64,
    tv: Option<f64>,
    force: bool,
) -> PyResult<Py<PyAny>> {
    let options = GofOptions {
        alpha,
        tv,
        ..GofOptions::default()
    };
    let (law, report) = py
        .detach(|| {
            let (laws, best) = laws::of(target, GOF_DIGITS, force)?;
            Ok::<_, Error>((laws, oracle_gof::gof(&best, samples, &options)?))
        })
        .map_err(py_err)?;
    let d = PyDict::new(py);
    d.set_item("n", report.n)?;
    let violation = match &report.support_violation {
        Some(v) => {
            let f = PyDict::new(py);
            f.set_item("sample", v.sample)?;
            f.set_item("reason", &v.reason)?;
            Some(f)
        }
        None => None,
    };
    d.set_item("support_violation", violation)?;
    let test = |name: String, x: &oracle_gof::ChiSquareTest| -> PyResult<Bound<'_, PyDict>> {
        let t = PyDict::new(py);
        t.set_item("name", name)?;
        t.set_item("cells", x.cells)?;
        t.set_item("groups", x.groups)?;
        t.set_item("statistic", x.statistic)?;
        t.set_item("df", x.df)?;
        t.set_item("p_value", x.p_value)?;
        t.set_item("n_for_tv", x.n_for_tv)?;
        Ok(t)
    };
    let mut tests = report
        .per_choice
        .iter()
        .enumerate()
        .map(|(c, x)| test(format!("choice {c}"), x))
        .collect::<PyResult<Vec<_>>>()?;
    if let Some(joint) = &report.joint {
        tests.push(test("joint".into(), joint)?);
    }
    let p_min = report
        .per_choice
        .iter()
        .chain(&report.joint)
        .map(|x| x.p_value)
        .fold(1.0, f64::min);
    d.set_item("tests", tests)?;
    d.set_item("p_min", p_min)?;
    d.set_item("joint_skipped", report.joint_skipped)?;
    d.set_item("alpha", alpha)?;
    d.set_item("per_test_alpha", report.per_test_alpha)?;
    d.set_item("rejected", report.reject)?;
    d.set_item("law", law.into_dict(py)?)?;
    Ok(d.into_any().unbind())
}

/// The relative width of the law's enclosures a test asks for: far below
/// the f64 midpoints the chi-square uses.
const GOF_DIGITS: u32 = 12;

/// The goodness-of-fit test of `samples` (an `n × T` array of 0-based
/// actions) against the law of the algorithm on `losses`
/// ([`dpdtol::oracle::gof::gof`]).
#[pyfunction]
#[pyo3(signature = (algorithm_id, losses, epsilon, samples, alpha=1e-3, tv=None, noise=None, noise_scale=None, resample=false, force=false))]
#[allow(clippy::too_many_arguments)]
fn gof(
    py: Python<'_>,
    algorithm_id: &str,
    losses: Vec<Vec<String>>,
    epsilon: &str,
    samples: PyReadonlyArray2<'_, i64>,
    alpha: f64,
    tv: Option<f64>,
    noise: Option<&str>,
    noise_scale: Option<&str>,
    resample: bool,
    force: bool,
) -> PyResult<Py<PyAny>> {
    let target = algorithm_target(algorithm_id, &losses, epsilon, noise, noise_scale, resample)?;
    let shape = samples.shape().to_vec();
    let samples = self::samples(shape[0], shape[1], samples.as_array().iter().copied())?;
    run_gof(py, &target, &samples, alpha, tv, force)
}

/// The goodness-of-fit test of `samples` (a 1-D array of 0-based actions)
/// of one report-noisy-max selection against its law.
#[pyfunction]
#[pyo3(signature = (noise, losses, samples, scale=None, unit_weight=None, alpha=1e-3, tv=None))]
#[allow(clippy::too_many_arguments)]
fn mechanism_gof(
    py: Python<'_>,
    noise: &str,
    losses: Vec<String>,
    samples: PyReadonlyArray1<'_, i64>,
    scale: Option<String>,
    unit_weight: Option<String>,
    alpha: f64,
    tv: Option<f64>,
) -> PyResult<Py<PyAny>> {
    let target = mechanism_target(noise, &losses, scale, unit_weight)?;
    let n = samples.len();
    let samples = self::samples(n, 1, samples.as_array().iter().copied())?;
    run_gof(py, &target, &samples, alpha, tv, false)
}

/// Exhaustive privacy check over every pair of neighbouring loss sequences,
/// see [`laws::privacy`].
#[pyfunction]
#[pyo3(signature = (algorithm_id, actions, horizon, alphabet, epsilon, noise=None, noise_scale=None, resample=false, force=false, threads=None))]
#[allow(clippy::too_many_arguments)]
fn check_privacy(
    py: Python<'_>,
    algorithm_id: &str,
    actions: usize,
    horizon: usize,
    alphabet: Vec<String>,
    epsilon: &str,
    noise: Option<&str>,
    noise_scale: Option<&str>,
    resample: bool,
    force: bool,
    threads: Option<usize>,
) -> PyResult<Py<PyAny>> {
    let alg = config(algorithm_id, actions, epsilon, noise, noise_scale, resample)?
        .build()
        .map_err(py_err)?;
    let alphabet: Vec<Q> = alphabet
        .iter()
        .map(|v| rational("alphabet", v))
        .collect::<PyResult<_>>()?;
    let problem = dpdtol::privacy::Problem::new(horizon, alphabet, rational("epsilon", epsilon)?)
        .map_err(py_err)?;
    let report = py
        .detach(|| laws::privacy(&alg, &problem, force, threads))
        .map_err(py_err)?;
    laws::privacy_dict(py, &report)
}

/// The exact (else certified) pseudo-regret at horizon `horizon`, see
/// [`laws::regret`].
#[pyfunction]
#[pyo3(signature = (algorithm_id, means, setting, horizon, epsilon, noise=None, noise_scale=None, resample=false, force=false))]
#[allow(clippy::too_many_arguments)]
fn regret(
    py: Python<'_>,
    algorithm_id: &str,
    means: Vec<String>,
    setting: &str,
    horizon: u128,
    epsilon: &str,
    noise: Option<&str>,
    noise_scale: Option<&str>,
    resample: bool,
    force: bool,
) -> PyResult<Py<PyAny>> {
    let alg_config = config(
        algorithm_id,
        means.len(),
        epsilon,
        noise,
        noise_scale,
        resample,
    )?;
    let means: Vec<Q> = means
        .iter()
        .map(|m| rational("means", m))
        .collect::<PyResult<_>>()?;
    let setting = setting.parse::<dpdtol::regret::Setting>().map_err(py_err)?;
    let value = py
        .detach(|| laws::regret(&alg_config, means, setting, horizon, force))
        .map_err(py_err)?;
    let d = PyDict::new(py);
    value.fill(&d)?;
    Ok(d.into_any().unbind())
}

/// The module `dpdtol._native`.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(mechanism_law, m)?)?;
    m.add_function(wrap_pyfunction!(sequence_law, m)?)?;
    m.add_function(wrap_pyfunction!(sample, m)?)?;
    m.add_function(wrap_pyfunction!(gof, m)?)?;
    m.add_function(wrap_pyfunction!(mechanism_gof, m)?)?;
    m.add_function(wrap_pyfunction!(check_privacy, m)?)?;
    m.add_function(wrap_pyfunction!(regret, m)?)?;
    bandit::register(m)?;
    m.add("TooLargeError", m.py().get_type::<TooLargeError>())?;
    Ok(())
}
