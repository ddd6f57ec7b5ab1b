//! Exact, else certified, laws and their Python form.
//!
//! A value crosses into Python as an [`Entry`]: the exact rational `"p/q"`
//! when there is one, always an enclosure `(lo, hi)` as decimal strings
//! rounded outward (so `lo ≤ value ≤ hi` holds for the decimals too), and the
//! f64 `approx` (the midpoint of the enclosure), labelled as approximate.

use dpdtol::algorithm::{BestOptions, BestSequenceLaw};
use dpdtol::mechanism::Scale;
use dpdtol::num::{format_sig_directed, Dir, Kind, Q};
use dpdtol::oracle::law::{choice_laws, Enclosed};
use dpdtol::oracle::Target;
use dpdtol::Result;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

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

/// How a set of values was computed.
#[derive(Clone, Debug)]
pub struct Provenance {
    /// [`Kind::Exact`] or [`Kind::Certified`].
    pub kind: Kind,
    /// The working precision of the certified values (`None` when exact).
    pub precision: Option<u32>,
    /// Whether every certified value met the requested relative width.
    pub accepted: bool,
    /// Why the exact backend declined (`None` when exact).
    pub why_not_exact: Option<String>,
}

impl Provenance {
    const EXACT: Provenance = Provenance {
        kind: Kind::Exact,
        precision: None,
        accepted: true,
        why_not_exact: None,
    };

    /// Add `kind`, `precision_bits`, `accepted`, `why_not_exact` to `d`.
    fn fill(&self, d: &Bound<'_, PyDict>) -> PyResult<()> {
        d.set_item("kind", self.kind.label())?;
        d.set_item("precision_bits", self.precision)?;
        d.set_item("accepted", self.accepted)?;
        d.set_item("why_not_exact", self.why_not_exact.as_deref())
    }
}

/// Laws over the K actions: one (a mechanism) or one per choice of a
/// schedule (an online algorithm).
#[derive(Clone, Debug)]
pub struct Laws {
    /// The choices (one, playing round 1, for a mechanism).
    pub schedule: Vec<(usize, usize, usize, usize)>,
    /// One law per choice.
    pub rows: Vec<Vec<Entry>>,
    /// How they were computed.
    pub provenance: Provenance,
}

impl Laws {
    /// `{kind, precision_bits, accepted, why_not_exact, laws: [[entry]],
    /// schedule: [(plays_start, plays_end, reads_start, reads_end)]}`,
    /// rounds numbered from 1, ranges half-open.
    pub fn into_dict(self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let d = PyDict::new(py);
        self.provenance.fill(&d)?;
        let rows = self
            .rows
            .iter()
            .map(|row| {
                row.iter()
                    .map(|e| e.to_py(py))
                    .collect::<PyResult<Vec<_>>>()
            })
            .collect::<PyResult<Vec<_>>>()?;
        d.set_item("laws", rows)?;
        d.set_item("schedule", self.schedule)?;
        Ok(d.into_any().unbind())
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
pub fn of(target: &Target, digits: u32, force: bool) -> Result<(Laws, BestSequenceLaw)> {
    let law = target.law(BestOptions {
        digits,
        force,
        progress: None,
    })?;
    let provenance = match &law {
        BestSequenceLaw::Exact(_) => Provenance::EXACT,
        BestSequenceLaw::Certified {
            precision,
            accepted,
            why_not_exact,
            ..
        } => Provenance {
            kind: Kind::Certified,
            precision: Some(precision.0),
            accepted: *accepted,
            why_not_exact: Some(why_not_exact.clone()),
        },
    };
    let rows = choice_laws(&law)?
        .into_iter()
        .map(|row| row.into_iter().map(Entry::enclosed).collect())
        .collect();
    let schedule = law
        .schedule()
        .iter()
        .map(|c| (c.plays.start, c.plays.end, c.reads.start, c.reads.end))
        .collect();
    Ok((
        Laws {
            schedule,
            rows,
            provenance,
        },
        law,
    ))
}
