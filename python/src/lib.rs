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

mod fit;
mod laws;

use dpdtol::algorithm::{Algorithm, AlgorithmId, Config, OnlineAlgorithm};
use dpdtol::mechanism::Noise;
use dpdtol::num::{parse_rational, Q};
use dpdtol::Error;
use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

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

/// The algorithm of [`config`], validated and built.
fn algorithm(
    id: &str,
    actions: usize,
    epsilon: &str,
    noise: Option<&str>,
    noise_scale: Option<&str>,
    resample: bool,
) -> PyResult<Algorithm> {
    config(id, actions, epsilon, noise, noise_scale, resample)?
        .build()
        .map_err(py_err)
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

/// The law of one report-noisy-max selection: `(kind, entries, precision,
/// accepted, why_not_exact)`, see [`laws::mechanism`].
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
    let (noise, losses, scale) = selection(noise, &losses, scale, unit_weight)?;
    let law = py
        .detach(|| laws::mechanism(noise, &losses, &scale, digits))
        .map_err(py_err)?;
    law.into_dict(py)
}

/// The law of an online algorithm's action sequence on a loss sequence
/// (rows = rounds): its schedule and each choice's law, see
/// [`laws::sequence`].
#[pyfunction]
#[pyo3(signature = (algorithm_id, losses, epsilon, noise=None, noise_scale=None, resample=false, digits=30))]
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
) -> PyResult<Py<PyAny>> {
    let k = width(&losses)?;
    let alg = algorithm(algorithm_id, k, epsilon, noise, noise_scale, resample)?;
    let losses = rational_rows("losses", &losses)?;
    let law = py
        .detach(|| laws::sequence(&alg, &losses, digits))
        .map_err(py_err)?;
    law.into_dict(py)
}

/// `n` action sequences (0-based) of the crate's own sampler on `losses`,
/// as an `n × T` int64 array. Sample `i` draws from ChaCha8 seeded with
/// `seed` on stream `i`, so the array is the same for any thread count.
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
    let k = width(&losses)?;
    let alg = algorithm(algorithm_id, k, epsilon, noise, noise_scale, resample)?;
    let exact = rational_rows("losses", &losses)?;
    dpdtol::algorithm::check_loss_sequence(&exact, k).map_err(py_err)?;
    let floats: Vec<Vec<f64>> = exact
        .iter()
        .map(|row| row.iter().map(dpdtol::num::Real::to_f64).collect())
        .collect();
    let t = floats.len();
    let cells = n.checked_mul(t).filter(|&c| c <= fit::MAX_SAMPLE_CELLS);
    let Some(cells) = cells else {
        return Err(TooLargeError::new_err(format!(
            "{n} samples of {t} rounds are over the limit of {} actions in one array; draw them in several calls with different seeds",
            fit::MAX_SAMPLE_CELLS
        )));
    };
    let flat: Vec<i64> = py.detach(|| {
        let mut flat = vec![0i64; cells];
        flat.par_chunks_mut(t.max(1))
            .enumerate()
            .for_each(|(i, row)| {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                rng.set_stream(i as u64);
                for (slot, a) in row.iter_mut().zip(alg.sample(&floats, &mut rng)) {
                    *slot = a as i64;
                }
            });
        flat
    });
    Ok(PyArray1::from_vec(py, flat).reshape([n, t])?.into_any())
}

/// The goodness-of-fit test of `samples` (an `n × T` array of 0-based
/// actions) against the law of the algorithm on `losses`, see [`fit::run`].
#[pyfunction]
#[pyo3(signature = (algorithm_id, losses, epsilon, samples, alpha="1/1000000", noise=None, noise_scale=None, resample=false))]
#[allow(clippy::too_many_arguments)]
fn gof(
    py: Python<'_>,
    algorithm_id: &str,
    losses: Vec<Vec<String>>,
    epsilon: &str,
    samples: PyReadonlyArray2<'_, i64>,
    alpha: &str,
    noise: Option<&str>,
    noise_scale: Option<&str>,
    resample: bool,
) -> PyResult<Py<PyAny>> {
    let k = width(&losses)?;
    let alg = algorithm(algorithm_id, k, epsilon, noise, noise_scale, resample)?;
    let exact = rational_rows("losses", &losses)?;
    let alpha = rational("alpha", alpha)?;
    let shape = samples.shape().to_vec();
    let view = samples.as_array();
    let rows: Vec<i64> = view.iter().copied().collect();
    let outcome = py
        .detach(|| fit::run(&alg, &exact, &rows, shape[0], shape[1], &alpha))
        .map_err(py_err)?;
    outcome.into_dict(py)
}

/// The goodness-of-fit test of `samples` (a 1-D array of 0-based actions)
/// of one report-noisy-max selection against its law, see
/// [`fit::run_mechanism`].
#[pyfunction]
#[pyo3(signature = (noise, losses, samples, scale=None, unit_weight=None, alpha="1/1000000"))]
fn mechanism_gof(
    py: Python<'_>,
    noise: &str,
    losses: Vec<String>,
    samples: PyReadonlyArray1<'_, i64>,
    scale: Option<String>,
    unit_weight: Option<String>,
    alpha: &str,
) -> PyResult<Py<PyAny>> {
    let (noise, losses, scale) = selection(noise, &losses, scale, unit_weight)?;
    let alpha = rational("alpha", alpha)?;
    let samples: Vec<i64> = samples.as_array().iter().copied().collect();
    let outcome = py
        .detach(|| {
            let law = laws::mechanism(noise, &losses, &scale, 12)?;
            fit::run_mechanism(law, &samples, &alpha)
        })
        .map_err(py_err)?;
    outcome.into_dict(py)
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
    let alg = algorithm(algorithm_id, actions, epsilon, noise, noise_scale, resample)?;
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
    m.add("TooLargeError", m.py().get_type::<TooLargeError>())?;
    Ok(())
}
