//! Exact, else certified, laws and their Python form.
//!
//! The laws of the full-information targets cross into Python as the
//! command line's typed reports ([`dpdtol::report::law::LawReport`],
//! [`dpdtol::report::mechanism::MechanismReport`]). A probability of a
//! bandit law crosses as an [`Entry`]: the exact rational `"p/q"` when there
//! is one, always an enclosure `(lo, hi)` as decimal strings rounded outward
//! (so `lo ≤ value ≤ hi` holds for the decimals too), and the f64 `approx`
//! (the midpoint of the enclosure), labelled as approximate.

use dpdtol::algorithm::{BestOptions, BestSequenceLaw};
use dpdtol::mechanism::Scale;
use dpdtol::num::{format_sig_directed, Dir, Kind, Q};
use dpdtol::oracle::law::Enclosed;
use dpdtol::oracle::Target;
use dpdtol::Result;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// Significant digits of the decimal ends of an enclosure.
const DIGITS: usize = 40;

/// One number: exact, or certified, with its f64 approximation.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The exact value, when the backend was exact.
    pub exact: Option<Q>,
    /// A lower bound.
    pub lo: Q,
    /// An upper bound.
    pub hi: Q,
    /// An approximation (f64), for statistics and plots only.
    pub approx: f64,
}

impl Entry {
    /// An oracle value (exact when its kind is).
    pub fn enclosed(x: Enclosed) -> Entry {
        Entry {
            approx: x.to_f64(),
            exact: (x.kind == Kind::Exact).then(|| x.lo.clone()),
            lo: x.lo,
            hi: x.hi,
        }
    }

    /// `(exact "p/q" or None, lo, hi, approx)` for Python.
    pub fn to_py<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        (
            self.exact.as_ref().map(Q::to_string),
            format_sig_directed(&self.lo, DIGITS, Dir::Down),
            format_sig_directed(&self.hi, DIGITS, Dir::Up),
            self.approx,
        )
            .into_pyobject(py)
            .map(Bound::into_any)
    }
}

/// The scale of a mechanism: β, or the unit weight `e^{−1/β}` (which makes
/// the Gumbel and exponential laws exact on rational losses); exactly one.
pub fn scale(beta: Option<Q>, unit_weight: Option<Q>) -> PyResult<Scale> {
    let s = match (beta, unit_weight) {
        (Some(b), None) => Scale::beta(b),
        (None, Some(w)) => Scale::unit_weight(w),
        _ => {
            return Err(PyValueError::new_err(
                "give exactly one of scale (beta) and unit_weight (e^(-1/beta))",
            ))
        }
    };
    s.map_err(crate::py_err)
}

/// The law of `target`: exact when the exact backend can represent it,
/// else certified to relative width `10^−digits`
/// ([`Target::law`]); `force` lifts the cost guard of the resampling law.
pub fn of(target: &Target, digits: u32, force: bool) -> Result<BestSequenceLaw> {
    target.law(BestOptions {
        digits,
        force,
        progress: None,
    })
}
