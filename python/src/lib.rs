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
mod bandit_privacy;
mod laws;
mod simulate;

use dpdtol::algorithm::{AlgorithmId, BestSequenceLaw, Config, LawParameter};
use dpdtol::mechanism::Noise;
use dpdtol::num::{parse_power_count, parse_rational, Q};
use dpdtol::oracle::audit::{self as oracle_audit, AuditOptions};
use dpdtol::oracle::gof::{self as oracle_gof, GofOptions};
use dpdtol::oracle::law::selection_law;
use dpdtol::oracle::{Samples, Target};
use dpdtol::privacy::all_epsilon::{all_epsilon, AllOptions, EpsilonRange, Family};
use dpdtol::privacy::one_shot::{self, Neighbours, OneShot, OneShotOptions};
use dpdtol::privacy::{Options as PrivacyOptions, Problem};
use dpdtol::regret::certify::certify;
use dpdtol::regret::{bernoulli, check_horizon, Instance, Round, Setting};
use dpdtol::report::all_epsilon::AllEpsilonReport;
use dpdtol::report::audit::{AuditReport, ClaimSource};
use dpdtol::report::gof::GofReport;
use dpdtol::report::law::LawReport;
use dpdtol::report::mechanism::MechanismReport;
use dpdtol::report::one_shot_privacy::OneShotPrivacyReport;
use dpdtol::report::oracle::{AlgorithmGiven, MechanismGiven, TargetGiven};
use dpdtol::report::privacy::{DeltaKeys, Described, PrivacyReport};
use dpdtol::report::regret::{AlgorithmRegret, OutputFiles, RegretReport};
use dpdtol::report::sample::SampleReport;
use dpdtol::report::verify::{ShardKeys, VerifyReport};
use dpdtol::report::{rendered, to_json, DIGITS};
use dpdtol::Error;
use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::create_exception;
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::{Path, PathBuf};

create_exception!(
    _native,
    TooLargeError,
    PyValueError,
    "The requested work is over a size limit; the message says how large it is and which argument forces it."
);

/// The command-line flags the engine's messages may name, and the Python
/// arguments that mean the same: the one table of every function of the
/// package, longest flag first (`--noise-scale` before `--noise`, `use
/// --force` before `--force`).
const PARAMETERS: [(&str, &str); 46] = [
    ("use --force", "pass force=True"),
    ("--spot-check-seed", "dpdtol privacy --spot-check-seed"),
    ("--neighbour-file", "neighbour"),
    ("--epsilon-range", "epsilon_range"),
    ("--rewards-file", "rewards"),
    ("--epoch-length", "epoch_length"),
    ("--scale-factor", "scale_factor"),
    ("--reward-index", "reward_index"),
    ("--bonus-round", "bonus_round"),
    ("--tree-depth", "tree_depth"),
    ("--all-epsilon", "epsilon_range=None"),
    ("--noise-scale", "noise_scale"),
    ("--pull-order", "pull_order"),
    ("--losses-file", "losses"),
    ("--unit-weight", "unit_weight"),
    ("--tree-scale", "tree_scale"),
    ("--confidence", "confidence"),
    ("--experiment", "experiment"),
    ("--neighbours", "neighbours"),
    ("--no-bounds", "bounds=False"),
    ("--algorithm", "algorithm"),
    ("--resample", "resample"),
    ("--rounding", "rounding"),
    ("--radius", "radius"),
    ("--alphabet", "alphabet"),
    ("--epsilon", "epsilon"),
    ("--horizon", "horizon"),
    ("--actions", "actions"),
    ("--threads", "threads"),
    ("--digits", "digits"),
    ("--method", "method"),
    ("--errata", "errata"),
    ("--shard", "dpdtol privacy --shard"),
    ("--force", "force=True"),
    ("--means", "means"),
    ("--noise", "noise"),
    ("--bonus", "bonus"),
    ("--alpha", "alpha"),
    ("--ties", "ties"),
    ("--claim", "claim"),
    ("--scale", "scale"),
    ("--beta", "beta"),
    ("--runs", "runs"),
    ("--seed", "seed"),
    ("--base", "base"),
    ("--tv", "tv"),
];

/// `message` with every command-line flag it names replaced by its Python
/// parameter.
fn python_terms(message: &str) -> String {
    PARAMETERS
        .iter()
        .fold(message.to_string(), |m, (flag, parameter)| {
            m.replace(flag, parameter)
        })
}

/// A crate error as a Python exception, worded in Python's terms.
pub(crate) fn py_err(e: Error) -> PyErr {
    let message = python_terms(&e.to_string());
    match e {
        Error::TooLarge(_) => TooLargeError::new_err(message),
        Error::Write(_) => PyOSError::new_err(message),
        _ => PyValueError::new_err(message),
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

/// The configuration of an algorithm and its parameters (`None`: the
/// paper's default).
fn config(
    id: &str,
    actions: usize,
    epsilon: &str,
    noise: Option<&str>,
    noise_scale: Option<&str>,
    resample: Option<bool>,
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
    config.resample = resample.unwrap_or(false);
    Ok(config)
}

/// Refuse a law that would rest on a default: every
/// [`AlgorithmId::law_parameters`] of `id` must be given
/// ([`AlgorithmId::require_law_parameters`]).
fn require_law_parameters(id: &str, noise: Option<&str>, resample: Option<bool>) -> PyResult<()> {
    let id = id.parse::<AlgorithmId>().map_err(py_err)?;
    id.require_law_parameters(|p| match p {
        LawParameter::Noise if noise.is_none() => {
            Some("noise='laplace', 'exponential' or 'gumbel'")
        }
        LawParameter::Resample if resample.is_none() => Some("resample=True or False"),
        _ => None,
    })
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

/// An online algorithm as the reports record it given (`losses_file` is
/// null: the losses came from Python; `resample` as the flag's `0` or `1`).
fn algorithm_given(
    algorithm_id: &str,
    epsilon: &str,
    noise: Option<&str>,
    noise_scale: Option<&str>,
    resample: Option<bool>,
) -> TargetGiven {
    TargetGiven::Algorithm(AlgorithmGiven {
        algorithm: algorithm_id.to_string(),
        epsilon: Some(epsilon.to_string()),
        losses_file: None,
        noise: noise.map(str::to_string),
        noise_scale: noise_scale.map(str::to_string),
        resample: resample.map(|r| u8::from(r).to_string()),
    })
}

/// The target of an online algorithm on a loss matrix (rows = rounds).
fn algorithm_target(
    algorithm_id: &str,
    losses: &[Vec<String>],
    epsilon: &str,
    noise: Option<&str>,
    noise_scale: Option<&str>,
    resample: Option<bool>,
) -> PyResult<Target> {
    require_law_parameters(algorithm_id, noise, resample)?;
    let k = width(losses)?;
    let alg = config(algorithm_id, k, epsilon, noise, noise_scale, resample)?
        .build()
        .map_err(py_err)?;
    Target::algorithm(alg, rational_rows("losses", losses)?).map_err(py_err)
}

/// The relative width `10^−LAW_DIGITS` of the laws the command line
/// prints: two digits beyond the [`DIGITS`] significant digits written.
const LAW_DIGITS: u32 = DIGITS as u32 + 2;

/// The law of one report-noisy-max selection
/// ([`dpdtol::mechanism::best_law`]): the JSON of its typed report
/// ([`MechanismReport`], the output of `dpdtol mechanism --json`).
#[pyfunction]
#[pyo3(signature = (noise, losses, scale=None, unit_weight=None, digits=LAW_DIGITS, force=false))]
fn mechanism_law(
    py: Python<'_>,
    noise: &str,
    losses: Vec<String>,
    scale: Option<String>,
    unit_weight: Option<String>,
    digits: u32,
    force: bool,
) -> PyResult<String> {
    let (noise, losses, scale) = selection(noise, &losses, scale, unit_weight)?;
    Ok(to_json(&mechanism_report(
        py, noise, &losses, &scale, digits, force,
    )?))
}

/// The report of the law of `noise` at `scale` on `losses`, exact else
/// certified to relative width `10^−digits`.
fn mechanism_report(
    py: Python<'_>,
    noise: Noise,
    losses: &[Q],
    scale: &dpdtol::mechanism::Scale,
    digits: u32,
    force: bool,
) -> PyResult<MechanismReport> {
    let budget = dpdtol::mechanism::Budget {
        force,
        progress: false,
    };
    let law = py
        .detach(|| dpdtol::mechanism::best_law(noise, losses, scale, digits, budget))
        .map_err(py_err)?;
    Ok(MechanismReport::new(noise, scale, losses, &law))
}

/// The law of an online algorithm's action sequence on a loss sequence
/// (rows = rounds), exact else certified to relative width `10^−digits`
/// ([`laws::of`]): the JSON of its typed report ([`LawReport`], the output
/// of `dpdtol law --json` without `--sequence`).
#[pyfunction]
#[pyo3(signature = (algorithm_id, losses, epsilon, noise=None, noise_scale=None, resample=None, digits=LAW_DIGITS, force=false))]
#[allow(clippy::too_many_arguments)]
fn sequence_law(
    py: Python<'_>,
    algorithm_id: &str,
    losses: Vec<Vec<String>>,
    epsilon: &str,
    noise: Option<&str>,
    noise_scale: Option<&str>,
    resample: Option<bool>,
    digits: u32,
    force: bool,
) -> PyResult<String> {
    let target = algorithm_target(algorithm_id, &losses, epsilon, noise, noise_scale, resample)?;
    let law = py
        .detach(|| laws::of(&target, digits, force))
        .map_err(py_err)?;
    let given = algorithm_given(algorithm_id, epsilon, noise, noise_scale, resample);
    law_json(given, &target, &law)
}

/// The JSON of the [`LawReport`] of `law`, the law of `target` (given as
/// `given`).
fn law_json(given: TargetGiven, target: &Target, law: &BestSequenceLaw) -> PyResult<String> {
    let report = LawReport::new(given, target, law, None, 1).map_err(py_err)?;
    Ok(to_json(&report))
}

/// The most actions one sample array may hold (8 bytes each in numpy).
const MAX_SAMPLE_CELLS: usize = 1 << 27;

/// `n` reference action sequences (0-based) on `losses`, drawn from the
/// law certified to 40 digits by exact inversion, as an `n × T` int64 array
/// ([`dpdtol::oracle::sample::sample`]: sample `i` draws from ChaCha8
/// seeded with `seed` on stream `i`, so the array is the same for any
/// thread count), and the JSON of the typed report ([`SampleReport`], the
/// output of `dpdtol sample --json`). With `out`, the samples are also
/// written there as `dpdtol sample --out` writes them (NPY for a `.npy`
/// extension, else CSV; actions numbered from `base`).
#[pyfunction]
#[pyo3(signature = (algorithm_id, losses, epsilon, n, seed, noise=None, noise_scale=None, resample=None, base=1, out=None))]
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
    resample: Option<bool>,
    base: u32,
    out: Option<PathBuf>,
) -> PyResult<(Bound<'py, PyAny>, String)> {
    let target = algorithm_target(algorithm_id, &losses, epsilon, noise, noise_scale, resample)?;
    let t = target.horizon();
    if n.checked_mul(t).is_none_or(|c| c > MAX_SAMPLE_CELLS) {
        return Err(TooLargeError::new_err(format!(
            "{n} samples of {t} rounds are over the limit of {MAX_SAMPLE_CELLS} actions in one array; draw them in several calls with different seeds"
        )));
    }
    let drawn = py
        .detach(|| -> dpdtol::Result<Samples> {
            let drawn = dpdtol::oracle::sample::sample(&laws::of(&target, 40, false)?, n, seed)?;
            if let Some(path) = &out {
                dpdtol::oracle::io::write_samples(path, &drawn, base)?;
            }
            Ok(drawn)
        })
        .map_err(py_err)?;
    let flat: Vec<i64> = drawn.data().iter().map(|&a| i64::from(a)).collect();
    let array = PyArray1::from_vec(py, flat).reshape([n, t])?.into_any();
    let given = algorithm_given(algorithm_id, epsilon, noise, noise_scale, resample);
    // Without a file, the package sets the report's `out` and `format` to None.
    let written = out.unwrap_or_default();
    let report = SampleReport::new(given, &target, n, seed, &written, base);
    Ok((array, to_json(&report)))
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

/// [`oracle_gof::gof`] of `samples` against the law of `target`, as a dict
/// without the law, whose `report` is the JSON of the command line's
/// [`GofReport`] (the target as `given`; `samples` the empty path: they
/// came from Python); and the law tested against.
#[allow(clippy::too_many_arguments)]
fn run_gof<'py>(
    py: Python<'py>,
    given: TargetGiven,
    target: &Target,
    samples: &Samples,
    alpha: f64,
    tv: Option<f64>,
    force: bool,
    base: u32,
) -> PyResult<(Bound<'py, PyDict>, BestSequenceLaw)> {
    let options = GofOptions {
        alpha,
        tv,
        base,
        ..GofOptions::default()
    };
    let (law, report) = py
        .detach(|| {
            let law = laws::of(target, GOF_DIGITS, force)?;
            let report = oracle_gof::gof(&law, samples, &options)?;
            Ok::<_, Error>((law, report))
        })
        .map_err(py_err)?;
    let d = PyDict::new(py);
    d.set_item("n", report.n)?;
    d.set_item(
        "support_violation",
        violation_dict(py, report.support_violation.as_ref())?,
    )?;
    let mut tests = report
        .per_choice
        .iter()
        .enumerate()
        .map(|(c, x)| test_dict(py, &format!("choice {c}"), x))
        .collect::<PyResult<Vec<_>>>()?;
    if let Some(joint) = &report.joint {
        tests.push(test_dict(py, "joint", joint)?);
    }
    // A sample outside the support rejects with certainty: p = 0.
    let p_min = match report.support_violation {
        Some(_) => 0.0,
        None => report
            .per_choice
            .iter()
            .chain(&report.joint)
            .map(smallest_p)
            .fold(1.0, f64::min),
    };
    d.set_item("chi_square_tests", tests)?;
    d.set_item("tests", report.tests)?;
    d.set_item("p_min", p_min)?;
    d.set_item("joint_skipped", &report.joint_skipped)?;
    d.set_item("alpha", alpha)?;
    d.set_item("per_test_alpha", report.per_test_alpha)?;
    d.set_item("rejected", report.reject)?;
    let typed = GofReport::new(given, &law, Path::new(""), base, &options, &report);
    d.set_item("report", to_json(&typed))?;
    Ok((d, law))
}

/// The relative width of the law's enclosures a test asks for: far below
/// the f64 midpoints the chi-square uses.
const GOF_DIGITS: u32 = 20;

/// The goodness-of-fit test of `samples` (an `n × T` array of 0-based
/// actions) against the law of the algorithm on `losses`
/// ([`dpdtol::oracle::gof::gof`]); messages number actions from `base`. The
/// dict's `law` is the JSON of the law's [`LawReport`].
#[pyfunction]
#[pyo3(signature = (algorithm_id, losses, epsilon, samples, alpha=1e-3, tv=None, noise=None, noise_scale=None, resample=None, force=false, base=1))]
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
    resample: Option<bool>,
    force: bool,
    base: u32,
) -> PyResult<Py<PyAny>> {
    let target = algorithm_target(algorithm_id, &losses, epsilon, noise, noise_scale, resample)?;
    let shape = samples.shape().to_vec();
    let samples = self::samples(shape[0], shape[1], samples.as_array().iter().copied())?;
    let given = algorithm_given(algorithm_id, epsilon, noise, noise_scale, resample);
    let (d, law) = run_gof(py, given.clone(), &target, &samples, alpha, tv, force, base)?;
    d.set_item("law", law_json(given, &target, &law)?)?;
    Ok(d.into_any().unbind())
}

/// The goodness-of-fit test of `samples` (a 1-D array of 0-based actions)
/// of one report-noisy-max selection against its law; messages number
/// actions from `base`. The dict's `law` is the JSON of the law's
/// [`MechanismReport`].
#[pyfunction]
#[pyo3(signature = (noise, losses, samples, scale=None, unit_weight=None, alpha=1e-3, tv=None, base=1))]
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
    base: u32,
) -> PyResult<Py<PyAny>> {
    let given = TargetGiven::Mechanism(MechanismGiven {
        losses: Some(losses.join(",")),
        mechanism: noise.to_string(),
        scale: scale.clone().or_else(|| unit_weight.clone()),
    });
    let (noise, losses, scale) = selection(noise, &losses, scale, unit_weight)?;
    let target = Target::mechanism(noise, scale.clone(), losses.clone()).map_err(py_err)?;
    let n = samples.len();
    let samples = self::samples(n, 1, samples.as_array().iter().copied())?;
    let (d, law) = run_gof(py, given, &target, &samples, alpha, tv, false, base)?;
    let law = selection_law(law)
        .ok_or_else(|| PyValueError::new_err("a selection's law has one choice"))?;
    let report = MechanismReport::new(noise, &scale, &losses, &law);
    d.set_item("law", to_json(&report))?;
    Ok(d.into_any().unbind())
}

/// A horizon in the grammar of the command line: an integer, `2^k`,
/// `2^k-c` or `2^k+c` ([`parse_power_count`]).
fn horizon<T: TryFrom<u128>>(text: &str) -> PyResult<T> {
    parse_power_count(text)
        .and_then(|t| u128::try_from(t).ok())
        .and_then(|t| T::try_from(t).ok())
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "horizon: expected a positive integer such as 1000, '2^40' or '2^10-1', got '{text}'"
            ))
        })
}

/// `dpdtol privacy --epsilon-range a..b` (or `--all-epsilon` when no range
/// is given): the ε-intervals where the online algorithm is private,
/// decided exactly for every ε of the range
/// ([`dpdtol::privacy::all_epsilon`]), the noise scale `scale_factor`
/// times the paper's so that it follows ε. Returns the JSON of its typed
/// report ([`AllEpsilonReport`]) and the command line's text of it.
#[pyfunction]
#[pyo3(signature = (algorithm_id, actions, horizon, alphabet, epsilon_range=None, noise=None, resample=None, scale_factor=None, force=false, threads=None))]
#[allow(clippy::too_many_arguments)]
fn privacy_all_epsilon(
    py: Python<'_>,
    algorithm_id: &str,
    actions: usize,
    horizon: &str,
    alphabet: Vec<String>,
    epsilon_range: Option<&str>,
    noise: Option<&str>,
    resample: Option<bool>,
    scale_factor: Option<&str>,
    force: bool,
    threads: Option<usize>,
) -> PyResult<(String, String)> {
    let range = match epsilon_range {
        Some(text) => text.parse::<EpsilonRange>().map_err(|e| {
            PyValueError::new_err(format!("epsilon_range: {}", python_terms(&e.to_string())))
        })?,
        None => EpsilonRange::all(),
    };
    let family = Family::new(
        algorithm_id.parse::<AlgorithmId>().map_err(py_err)?,
        actions,
        noise.map(str::parse::<Noise>).transpose().map_err(py_err)?,
        resample.unwrap_or(false),
        scale_factor
            .map(|s| rational("scale_factor", s))
            .transpose()?,
    );
    let horizon: usize = self::horizon(horizon)?;
    let alphabet: Vec<Q> = alphabet
        .iter()
        .map(|v| rational("alphabet", v))
        .collect::<PyResult<_>>()?;
    let options = AllOptions {
        force,
        progress: false,
    };
    let report = py
        .detach(|| {
            let mut result = dpdtol::size::with_threads(threads, || {
                all_epsilon(&family, horizon, alphabet.clone(), &range, &options)
            })?;
            AllEpsilonReport::new(&family, horizon, &alphabet, &mut result)
        })
        .map_err(py_err)?;
    Ok((to_json(&report), rendered(&report, false)))
}

/// Exhaustive privacy check over every pair of neighbouring loss sequences
/// ([`dpdtol::privacy::check`]): the JSON of its typed report
/// ([`PrivacyReport`], the output of `dpdtol privacy --json`).
#[pyfunction]
#[pyo3(signature = (algorithm_id, actions, horizon, alphabet, epsilon, noise=None, noise_scale=None, resample=None, force=false, threads=None, delta=None))]
#[allow(clippy::too_many_arguments)]
fn check_privacy(
    py: Python<'_>,
    algorithm_id: &str,
    actions: usize,
    horizon: &str,
    alphabet: Vec<String>,
    epsilon: &str,
    noise: Option<&str>,
    noise_scale: Option<&str>,
    resample: Option<bool>,
    force: bool,
    threads: Option<usize>,
    delta: Option<&str>,
) -> PyResult<String> {
    let config = config(algorithm_id, actions, epsilon, noise, noise_scale, resample)?;
    let target = delta.map(|d| rational("delta", d)).transpose()?;
    let alg = config.build().map_err(py_err)?;
    let alphabet: Vec<Q> = alphabet
        .iter()
        .map(|v| rational("alphabet", v))
        .collect::<PyResult<_>>()?;
    let problem = Problem::new(
        self::horizon(horizon)?,
        alphabet,
        rational("epsilon", epsilon)?,
    )
    .map_err(py_err)?;
    let options = PrivacyOptions {
        force,
        threads,
        ..PrivacyOptions::default()
    };
    let (report, probabilities, delta) = py
        .detach(|| {
            let report = dpdtol::privacy::check(&alg, &problem, &options)?;
            let probabilities = dpdtol::privacy::witness_probabilities(&alg, &report)?;
            let delta = target
                .map(|d| dpdtol::privacy::delta::full_information(&alg, &problem, &d, force))
                .transpose()?;
            Ok::<_, Error>((report, probabilities, delta))
        })
        .map_err(py_err)?;
    let mut report = PrivacyReport::new(&Described::of(&config, &alg), &report, &probabilities);
    report.verdict.delta = delta.as_ref().map(DeltaKeys::of);
    Ok(to_json(&report))
}

/// The one-shot check of report-noisy-max ([`dpdtol::privacy::one_shot`],
/// `dpdtol privacy --mechanism`): every input of `alphabet^actions` and
/// every ordered pair that `neighbours` (`"any"`, `"linf:D"`, …) allows.
/// Returns the JSON of its typed report ([`OneShotPrivacyReport`]) and the
/// command line's text of it.
#[pyfunction]
#[pyo3(signature = (noise, actions, alphabet, epsilon, neighbours=None, scale=None, force=false, threads=None, delta=None))]
#[allow(clippy::too_many_arguments)]
fn mechanism_privacy(
    py: Python<'_>,
    noise: &str,
    actions: usize,
    alphabet: Vec<String>,
    epsilon: &str,
    neighbours: Option<&str>,
    scale: Option<&str>,
    force: bool,
    threads: Option<usize>,
    delta: Option<&str>,
) -> PyResult<(String, String)> {
    let target = delta.map(|d| rational("delta", d)).transpose()?;
    let neighbours = neighbours
        .map(str::parse::<Neighbours>)
        .transpose()
        .map_err(|e| {
            PyValueError::new_err(format!("neighbours: {}", python_terms(&e.to_string())))
        })?
        .unwrap_or(Neighbours::Any);
    let problem = OneShot::new(
        noise.parse::<Noise>().map_err(py_err)?,
        actions,
        alphabet
            .iter()
            .map(|v| rational("alphabet", v))
            .collect::<PyResult<_>>()?,
        neighbours,
        rational("epsilon", epsilon)?,
        scale.map(|s| rational("scale", s)).transpose()?,
    )
    .map_err(py_err)?;
    let options = OneShotOptions {
        force,
        threads,
        ..OneShotOptions::default()
    };
    let report = py
        .detach(|| {
            let out = one_shot::check(&problem, &options)?;
            let probabilities = one_shot::witness_probabilities(&problem, &out.report)?;
            let mut report = OneShotPrivacyReport::new(&problem, &out, &probabilities);
            if let Some(d) = &target {
                let delta = dpdtol::privacy::delta::one_shot(&problem, d, force)?;
                report.verdict.delta = Some(DeltaKeys::of(&delta));
            }
            Ok::<_, Error>(report)
        })
        .map_err(py_err)?;
    Ok((to_json(&report), rendered(&report, false)))
}

/// The pseudo-regret at `horizon` to `digits` certain digits, with the
/// papers' bounds when `bounds` ([`certify`]): the JSON of its typed report
/// ([`RegretReport`], the output of `dpdtol regret --json`).
#[pyfunction]
#[pyo3(signature = (algorithm_id, means, setting, horizon, epsilon, noise=None, noise_scale=None, resample=None, force=false, bounds=true, digits=30))]
#[allow(clippy::too_many_arguments)]
fn regret(
    py: Python<'_>,
    algorithm_id: &str,
    means: Vec<String>,
    setting: &str,
    horizon: &str,
    epsilon: &str,
    noise: Option<&str>,
    noise_scale: Option<&str>,
    resample: Option<bool>,
    force: bool,
    bounds: bool,
    digits: u32,
) -> PyResult<String> {
    let config = config(
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
    let inst = Instance::new(means).map_err(py_err)?;
    let setting = setting.parse::<Setting>().map_err(py_err)?;
    let horizon: Round = self::horizon(horizon)?;
    check_horizon(horizon).map_err(py_err)?;
    let exempt = config.id == AlgorithmId::WuWang && setting == Setting::Deterministic;
    if bounds && !exempt {
        inst.require_unique_best(&format!(
            "the regret bounds of {} (pass bounds=False to compute the regret alone)",
            config.id
        ))
        .map_err(py_err)?;
    }
    let limit = (!force).then_some(bernoulli::DEFAULT_LIMIT);
    let regret = py
        .detach(|| certify(&config, &inst, setting, horizon, limit, bounds, digits))
        .map_err(py_err)?;
    let one = AlgorithmRegret::new(
        config.id.name(),
        &regret,
        &inst,
        setting,
        horizon,
        digits,
        &OutputFiles::default(),
    );
    Ok(to_json(&RegretReport::new(vec![one])))
}

/// A privacy audit of a black-box sampler from two sample arrays (`n × T`,
/// 0-based actions) drawn on neighbouring inputs
/// ([`dpdtol::oracle::audit::audit`]), with dpdtol's exact ratios of the
/// algorithm on `losses` and `neighbour` when `algorithm_id` is given: the
/// JSON of its typed report ([`AuditReport`], the output of `dpdtol audit
/// --json`), actions numbered from `base`.
#[pyfunction]
#[pyo3(signature = (first, second, confidence=0.95, base=1, algorithm_id=None, losses=None, neighbour=None, epsilon=None, noise=None, noise_scale=None, resample=None, force=false, claimed_epsilon=None))]
#[allow(clippy::too_many_arguments)]
fn audit(
    py: Python<'_>,
    first: PyReadonlyArray2<'_, i64>,
    second: PyReadonlyArray2<'_, i64>,
    confidence: f64,
    base: u32,
    algorithm_id: Option<&str>,
    losses: Option<Vec<Vec<String>>>,
    neighbour: Option<Vec<Vec<String>>>,
    epsilon: Option<&str>,
    noise: Option<&str>,
    noise_scale: Option<&str>,
    resample: Option<bool>,
    force: bool,
    claimed_epsilon: Option<&str>,
) -> PyResult<String> {
    let claimed = ClaimSource::resolve(claimed_epsilon, epsilon).map_err(py_err)?;
    let array = |a: &PyReadonlyArray2<'_, i64>| {
        let shape = a.shape().to_vec();
        self::samples(shape[0], shape[1], a.as_array().iter().copied())
    };
    let (first, second) = (array(&first)?, array(&second)?);
    let options = AuditOptions {
        confidence,
        ..AuditOptions::default()
    };
    let outcome = py
        .detach(|| oracle_audit::audit(&first, &second, &options))
        .map_err(py_err)?;
    let (exact, given) = match algorithm_id {
        None => (None, None),
        Some(id) => {
            let required = |x: Option<Vec<Vec<String>>>, what: &str| {
                x.ok_or_else(|| PyValueError::new_err(format!("{what} is required with algorithm")))
            };
            let (losses, neighbour) = (
                required(losses, "losses")?,
                required(neighbour, "neighbour")?,
            );
            let epsilon = epsilon
                .ok_or_else(|| PyValueError::new_err("epsilon is required with algorithm"))?;
            let x = algorithm_target(id, &losses, epsilon, noise, noise_scale, resample)?;
            let y = algorithm_target(id, &neighbour, epsilon, noise, noise_scale, resample)?;
            let exact = py
                .detach(|| {
                    let lx = laws::of(&x, LAW_DIGITS, force)?;
                    let ly = laws::of(&y, LAW_DIGITS, force)?;
                    oracle_audit::exact_ratios(&lx, &ly, x.actions(), &outcome)
                })
                .map_err(py_err)?;
            let given = algorithm_given(id, epsilon, noise, noise_scale, resample);
            (Some(exact), Some(given))
        }
    };
    let mut report = AuditReport::new(given, &outcome, exact.as_ref(), base);
    if let Some((claimed, from)) = &claimed {
        report = report.with_claim(&outcome, claimed, *from);
    }
    Ok(to_json(&report))
}

/// The papers' claims checked ([`dpdtol::proofs::registry`]): all, those
/// `claim` names (`cc-lem2-iv`, or every part of `cc-lem2`), or part
/// `shard` = `"I/N"` of them; with `errata`, the papers' printed errors too
/// (and without `claim`, only the claims the errata need). The JSON of the
/// typed report ([`VerifyReport`], the output of `dpdtol verify --json`
/// with the same flags).
#[pyfunction]
#[pyo3(signature = (claim=None, shard=None, errata=false))]
fn verify(
    py: Python<'_>,
    claim: Option<&str>,
    shard: Option<&str>,
    errata: bool,
) -> PyResult<String> {
    use dpdtol::proofs::{adversaries, errata_claims, registry, report};
    use dpdtol::verify as claims;
    let shard = shard
        .map(|text| {
            text.parse::<dpdtol::privacy::Shard>().map_err(|_| {
                PyValueError::new_err(format!(
                    "shard: expected 'I/N' with 1 <= I <= N, got '{text}'"
                ))
            })
        })
        .transpose()?;
    if shard.is_some() && (claim.is_some() || errata) {
        return Err(PyValueError::new_err(
            "shard splits the whole registry, without claim or errata (the errata need every claim they name)",
        ));
    }
    let registry = registry();
    let mut chosen = claims::select(&registry, claim).map_err(py_err)?;
    if errata && claim.is_none() {
        chosen = errata_claims(&registry);
    }
    if let Some(s) = &shard {
        chosen = claims::shard_of(&chosen, s.index, s.count);
    }
    let report = py
        .detach(|| {
            let checked = claims::run_searched(&chosen, &adversaries(), |_, _| {});
            report(&checked, errata)
        })
        .map_err(py_err)?;
    Ok(to_json(&VerifyReport {
        shard: shard.map(|s| ShardKeys {
            count: s.count,
            index: s.index,
        }),
        ..report
    }))
}

/// The smallest p-value of a chi-square test and of its rare-cell test.
fn smallest_p(test: &oracle_gof::ChiSquareTest) -> f64 {
    test.rare_cells
        .as_ref()
        .map_or(test.p_value, |r| r.p_value.min(test.p_value))
}

/// One chi-square test of a gof outcome as the dict the Python side reads:
/// `name`, `cells`, `groups`, `statistic`, `df`, `p_value`, `n_for_tv`,
/// `rare_cells` (its rare-cell test as in the JSON: `cells`, `p_value`,
/// `extreme`; None when not run).
fn test_dict<'py>(
    py: Python<'py>,
    name: &str,
    test: &oracle_gof::ChiSquareTest,
) -> PyResult<Bound<'py, PyDict>> {
    let t = PyDict::new(py);
    t.set_item("name", name)?;
    t.set_item("cells", test.cells)?;
    t.set_item("groups", test.groups)?;
    t.set_item("statistic", test.statistic)?;
    t.set_item("df", test.df)?;
    t.set_item("p_value", test.p_value)?;
    t.set_item("n_for_tv", test.n_for_tv)?;
    let rare = test
        .rare_cells
        .as_ref()
        .map(|r| {
            let extreme = r
                .extreme
                .as_ref()
                .map(|c| {
                    let d = PyDict::new(py);
                    d.set_item("cell", &c.cell)?;
                    d.set_item("observed", c.observed)?;
                    d.set_item("expected", c.expected)?;
                    d.set_item("tail", c.tail)?;
                    Ok::<_, PyErr>(d)
                })
                .transpose()?;
            let d = PyDict::new(py);
            d.set_item("cells", r.cells)?;
            d.set_item("p_value", r.p_value)?;
            d.set_item("extreme", extreme)?;
            Ok::<_, PyErr>(d)
        })
        .transpose()?;
    t.set_item("rare_cells", rare)?;
    Ok(t)
}

/// A gof outcome's first sample outside the support as a dict (`sample`,
/// `reason`), or None.
fn violation_dict<'py>(
    py: Python<'py>,
    violation: Option<&oracle_gof::SupportViolation>,
) -> PyResult<Option<Bound<'py, PyDict>>> {
    violation
        .map(|v| {
            let f = PyDict::new(py);
            f.set_item("sample", v.sample)?;
            f.set_item("reason", &v.reason)?;
            Ok(f)
        })
        .transpose()
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
    m.add_function(wrap_pyfunction!(mechanism_privacy, m)?)?;
    m.add_function(wrap_pyfunction!(privacy_all_epsilon, m)?)?;
    m.add_function(wrap_pyfunction!(regret, m)?)?;
    m.add_function(wrap_pyfunction!(audit, m)?)?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    bandit::register(m)?;
    bandit_privacy::register(m)?;
    simulate::register(m)?;
    m.add("TooLargeError", m.py().get_type::<TooLargeError>())?;
    // The most values (runs × rounds) a sample holds unless forced: the
    // driver refuses to run more before it runs any.
    m.add("SAMPLE_VALUE_LIMIT", dpdtol::oracle::sample::MAX_VALUES)?;
    Ok(())
}
