//! The adversarial search behind a `holds-on-instances` verdict.
//!
//! A grid of convenient instances is a smoke test: a claim can hold on every
//! instance of it and fail elsewhere in its domain. An [`Adversary`] declares
//! the claim's domain as parameter ranges ([`Param`]: continuous ones such as
//! ε, Δ or a mean, integer ones such as n, K or an epoch) and a function that
//! evaluates the claim at one point of it, as certified comparisons
//! ([`Probe`]s). [`Adversary::search`] then looks for the smallest margin
//! over the domain:
//!
//! * **multi-start:** the centre of the box and `starts − 1` points drawn
//!   from a ChaCha8 generator seeded from the claim's id (so every run visits
//!   the same points and the report is reproducible), all evaluated first;
//!   the local searches then start from them, the smallest margin first,
//!   each with an equal share of the budget left;
//! * **local optimisation:** from each start, a compass search on the unit
//!   cube the parameters are mapped to (logarithmically for ranges that span
//!   orders of magnitude, so n reaches its upper end in a few steps): try
//!   ±step on each coordinate, move to the best improvement, halve the step
//!   when none improves, stop below 2⁻¹⁰ or when the evaluations of the
//!   budget are spent; integer coordinates are rounded, so the search pushes
//!   n, K or an epoch to the end of its range when the margin shrinks there;
//! * **the margin** of a point is the smallest over its probes of
//!   `ln(rhs/lhs)` for an upper bound `lhs ≤ rhs` (`ln(lhs/rhs)` for a lower
//!   one), from the midpoints of certified enclosures: f64 only chooses
//!   where to go; a verdict comes from the enclosures themselves
//!   ([`Real::cmp_certain`]), and a counterexample is re-evaluated at
//!   [`CONFIRM_BITS`] before it refutes anything.
//!
//! The outcome is recorded in the report: the budget, the evaluations used,
//! the best margin and where, and whether it approaches zero.

use crate::error::{Error, Result};
use crate::num::{format_sig, parse_rational, Certified, Precision, Real, Q};
use num_traits::{Signed, Zero};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use std::cmp::Ordering;
use std::collections::HashMap;
use std::sync::Arc;

/// The precision of the evaluations during the search.
pub const SEARCH_BITS: Precision = Precision(128);

/// The precision a counterexample (or the best point) is re-evaluated at.
pub const CONFIRM_BITS: Precision = Precision(512);

/// A margin below this (relative, `ln(rhs/lhs)`) is reported as approaching
/// zero.
pub const NEAR_ZERO: f64 = 1e-3;

/// The smallest compass step, on the unit cube.
const MIN_STEP: f64 = 1.0 / 1024.0;

/// One parameter of a domain: a closed range, continuous or integer,
/// searched on a linear or a logarithmic scale.
#[derive(Clone, Debug)]
pub struct Param {
    /// Its name in the claim: `"ε"`, `"n"`, `"μ₂"`.
    pub name: &'static str,
    /// The lower end (included).
    pub lo: Q,
    /// The upper end (included).
    pub hi: Q,
    /// Whether only integers are in the range.
    pub integer: bool,
    /// Whether the search moves on `ln x` rather than `x` (the ends must be
    /// positive).
    pub log: bool,
}

impl Param {
    /// A continuous parameter on `[lo, hi]` (rational literals such as
    /// `"1/100"`), searched on a log scale when `0 < lo` and `hi ≥ 100 lo`.
    ///
    /// # Panics
    /// When a literal is not a rational or `lo > hi`: the registry's own
    /// constants, fixed at compile time and exercised by its tests.
    pub fn real(name: &'static str, lo: &str, hi: &str) -> Param {
        let (lo, hi) = (
            parse_rational(lo).expect("a rational literal of the registry"),
            parse_rational(hi).expect("a rational literal of the registry"),
        );
        assert!(lo <= hi, "{name}: empty range");
        let log = lo.is_positive() && hi >= lo.clone() * Q::from_integer(100.into());
        Param {
            name,
            lo,
            hi,
            integer: false,
            log,
        }
    }

    /// An integer parameter on `{lo, …, hi}`, searched on a log scale when
    /// `1 ≤ lo` and `hi ≥ 16 lo`.
    ///
    /// # Panics
    /// When `lo > hi`.
    pub fn int(name: &'static str, lo: i64, hi: i64) -> Param {
        assert!(lo <= hi, "{name}: empty range");
        Param {
            name,
            lo: Q::from_integer(lo.into()),
            hi: Q::from_integer(hi.into()),
            integer: true,
            log: lo >= 1 && hi >= 16 * lo,
        }
    }

    fn ends(&self) -> (f64, f64) {
        let (lo, hi) = (Real::to_f64(&self.lo), Real::to_f64(&self.hi));
        if self.log {
            (lo.ln(), hi.ln())
        } else {
            (lo, hi)
        }
    }

    /// The value at `u ∈ [0, 1]`, snapped to an integer or to four
    /// significant decimal digits (readable witnesses), inside the range.
    pub fn at(&self, u: f64) -> Q {
        let (a, b) = self.ends();
        let x = a + u.clamp(0.0, 1.0) * (b - a);
        let x = if self.log { x.exp() } else { x };
        let snapped = if self.integer {
            Q::from_integer((x.round() as i64).into())
        } else {
            four_digits(x)
        };
        snapped.clamp(self.lo.clone(), self.hi.clone())
    }

    /// The text of the range: `ε ∈ [1/100, 4] (log scale)`.
    pub fn text(&self) -> String {
        let scale = if self.log { " (log scale)" } else { "" };
        if self.integer {
            format!("{} ∈ {{{}, …, {}}}{scale}", self.name, self.lo, self.hi)
        } else {
            format!("{} ∈ [{}, {}]{scale}", self.name, self.lo, self.hi)
        }
    }
}

/// `x` rounded to four significant decimal digits, as a rational.
fn four_digits(x: f64) -> Q {
    if x == 0.0 || !x.is_finite() {
        return Q::zero();
    }
    let e = x.abs().log10().floor() as i32 - 3;
    let m = (x / 10f64.powi(e)).round() as i64;
    let ten = Q::from_integer(10.into());
    let scale = if e >= 0 {
        num_traits::pow(ten, e as usize)
    } else {
        num_traits::pow(ten, (-e) as usize).recip()
    };
    Q::from_integer(m.into()) * scale
}

/// One certified comparison at a point: `lhs ≤ rhs` (`upper`) or
/// `lhs ≥ rhs`.
#[derive(Clone, Debug)]
pub struct Probe {
    /// What is compared, at which point (for the report).
    pub what: String,
    /// The left side.
    pub lhs: Certified,
    /// The right side.
    pub rhs: Certified,
    /// An upper bound `lhs ≤ rhs` (else a lower bound `lhs ≥ rhs`).
    pub upper: bool,
}

impl Probe {
    /// `lhs ≤ rhs`.
    pub fn upper(what: String, lhs: Certified, rhs: Certified) -> Probe {
        Probe {
            what,
            lhs,
            rhs,
            upper: true,
        }
    }

    /// `lhs ≥ rhs`.
    pub fn lower(what: String, lhs: Certified, rhs: Certified) -> Probe {
        Probe {
            what,
            lhs,
            rhs,
            upper: false,
        }
    }

    /// Whether the comparison certainly holds (`Some(true)`), certainly
    /// fails, or is not decided by the enclosures.
    pub fn holds(&self) -> Option<bool> {
        self.lhs.cmp_certain(&self.rhs).map(|o| {
            if self.upper {
                o != Ordering::Greater
            } else {
                o != Ordering::Less
            }
        })
    }

    /// The margin `ln(rhs/lhs)` (upper) or `ln(lhs/rhs)` (lower), from the
    /// logarithms' enclosures' midpoints (approximate: it only steers the
    /// search); `rhs − lhs` (or `lhs − rhs`) when a side is not certainly
    /// positive; `+∞` for an upper bound on a zero left side.
    pub fn margin(&self) -> f64 {
        let (small, big) = if self.upper {
            (&self.lhs, &self.rhs)
        } else {
            (&self.rhs, &self.lhs)
        };
        match (small.ln(), big.ln()) {
            (Ok(s), Ok(b)) => (b - s).to_f64(),
            _ if small.to_f64() == 0.0 && big.to_f64() > 0.0 => f64::INFINITY,
            _ => big.to_f64() - small.to_f64(),
        }
    }

    /// `≤`, `>`, `≥`, `<` or `≟` (undecided) for the verdict `holds`.
    pub fn relation_given(&self, holds: Option<bool>) -> &'static str {
        match (self.upper, holds) {
            (_, None) => "≟",
            (true, Some(true)) => "≤",
            (true, Some(false)) => ">",
            (false, Some(true)) => "≥",
            (false, Some(false)) => "<",
        }
    }

    fn relation(&self) -> &'static str {
        self.relation_given(self.holds())
    }

    /// `what: lhs ≤ rhs` with the enclosures, for the verdict `holds`
    /// (decided exactly by a caller, or [`Probe::holds`]).
    pub fn text_given(&self, holds: Option<bool>) -> String {
        format!(
            "{}: {} {} {}",
            self.what,
            show(&self.lhs),
            self.relation_given(holds),
            show(&self.rhs)
        )
    }

    /// `what: lhs ≤ rhs` with the enclosures.
    pub fn text(&self) -> String {
        self.text_given(self.holds())
    }
}

/// A certified value as text: 12 significant digits, or its enclosure when
/// those differ at the two ends.
pub fn show(x: &Certified) -> String {
    match x.enclosure() {
        Some((lo, hi)) => {
            let (lo, hi) = (format_sig(&lo, 12), format_sig(&hi, 12));
            if lo == hi {
                lo
            } else {
                format!("[{lo}, {hi}]")
            }
        }
        None => "?".into(),
    }
}

/// The claim at one point of its domain, as probes, at a precision.
pub type Probes = Arc<dyn Fn(&[Q], Precision) -> Result<Vec<Probe>> + Send + Sync>;

/// The adversarial search of one `holds-on-instances` claim: its domain,
/// its budget and its evaluation (declared in `proofs/`, beside the claim,
/// keyed by the claim's id).
#[derive(Clone)]
pub struct Adversary {
    /// The id of the claim.
    pub id: &'static str,
    /// The seed's name: the claim's id, or a name shared by claims that
    /// read the same evaluation (their searches then start from the same
    /// points, and a cache in the evaluation can serve them all).
    pub seed: &'static str,
    /// The parameters of the claim's stated domain, in the order the
    /// evaluation takes them.
    pub params: Vec<Param>,
    /// What of the paper's domain the parameters cover, and what is fixed
    /// (e.g. "μ = (½ − Δ/2, ½ + Δ/2); the paper's domain is every μ").
    pub note: &'static str,
    /// The number of starts.
    pub starts: usize,
    /// The largest number of point evaluations.
    pub budget: usize,
    /// The claim at a point.
    pub probes: Probes,
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct Found {
    /// The point with the smallest margin, `(name, value)`.
    pub point: Vec<(&'static str, Q)>,
    /// Its tightest probe, re-evaluated at [`CONFIRM_BITS`].
    pub probe: Probe,
    /// The margin of that probe (approximate).
    pub margin: f64,
    /// Point evaluations made.
    pub evaluations: usize,
}

impl Found {
    /// `ε = 1/10, n = 512`.
    pub fn point_text(&self) -> String {
        self.point
            .iter()
            .map(|(n, v)| format!("{n} = {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The witness JSON: the point and the comparison there.
    pub fn witness(&self) -> Value {
        let point: serde_json::Map<String, Value> = self
            .point
            .iter()
            .map(|(n, v)| ((*n).to_string(), json!(v.to_string())))
            .collect();
        json!({
            "point": point,
            "case": self.probe.what,
            "lhs": show(&self.probe.lhs),
            "relation": self.probe.relation(),
            "rhs": show(&self.probe.rhs),
        })
    }
}

/// The seed of a claim's search: FNV-1a of its id.
pub fn seed(id: &str) -> u64 {
    id.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The tightest probe of a point and its margin; a probe that fails
/// certainly counts as margin −∞ only through its own (negative) margin, so
/// the search keeps descending into the violation.
fn tightest(probes: Vec<Probe>) -> Option<(Probe, f64)> {
    probes
        .into_iter()
        .map(|p| {
            let m = p.margin();
            (p, m)
        })
        .min_by(|a, b| a.1.partial_cmp(&b.1).unwrap_or(Ordering::Equal))
}

impl Adversary {
    /// The domain as text: `ε ∈ [1/100, 4] (log scale), n ∈ {1, …, 2048}`.
    pub fn domain_text(&self) -> String {
        self.params
            .iter()
            .map(Param::text)
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Search the domain for the smallest margin (module docs), stopping
    /// after the start that first finds a certain violation; the best point
    /// is re-evaluated at [`CONFIRM_BITS`].
    pub fn search(&self) -> Result<Found> {
        let dims = self.params.len();
        let mut rng = ChaCha8Rng::seed_from_u64(seed(self.seed));
        let mut cache: HashMap<Vec<Q>, f64> = HashMap::new();
        let mut best: Option<(Vec<Q>, f64)> = None;
        let mut evaluations = 0usize;
        let point_of =
            |u: &[f64]| -> Vec<Q> { self.params.iter().zip(u).map(|(p, &x)| p.at(x)).collect() };
        // The margin at `u` (cached by point), or None when the budget is spent.
        let mut eval = |u: &[f64], evaluations: &mut usize| -> Result<Option<f64>> {
            let point = point_of(u);
            if let Some(m) = cache.get(&point) {
                return Ok(Some(*m));
            }
            if *evaluations >= self.budget {
                return Ok(None);
            }
            *evaluations += 1;
            let m = tightest((self.probes)(&point, SEARCH_BITS)?).map_or(f64::INFINITY, |t| t.1);
            cache.insert(point.clone(), m);
            if best.as_ref().is_none_or(|(_, b)| m < *b) {
                best = Some((point, m));
            }
            Ok(Some(m))
        };
        // Phase 1: the starts (the centre, then seeded draws), each evaluated.
        let starts: Vec<Vec<f64>> = (0..self.starts.max(1))
            .map(|i| {
                if i == 0 {
                    vec![0.5; dims]
                } else {
                    (0..dims).map(|_| rng.random::<f64>()).collect()
                }
            })
            .collect();
        let mut ranked = Vec::new();
        for u in starts {
            match eval(&u, &mut evaluations)? {
                Some(m) => ranked.push((u, m)),
                None => break,
            }
        }
        ranked.sort_by(|a, b| a.1.partial_cmp(&b.1).unwrap_or(Ordering::Equal));
        // Phase 2: a compass search from each start, the smallest margin
        // first, each with an equal share of what is left of the budget.
        let count = ranked.len();
        'starts: for (i, (mut u, mut here)) in ranked.into_iter().enumerate() {
            let share = (self.budget.saturating_sub(evaluations)) / (count - i).max(1);
            let stop = evaluations + share;
            let mut step = 0.25;
            while step >= MIN_STEP && evaluations < stop {
                let mut next: Option<(Vec<f64>, f64)> = None;
                for d in 0..dims {
                    for sign in [-1.0, 1.0] {
                        let mut v = u.clone();
                        v[d] = (v[d] + sign * step).clamp(0.0, 1.0);
                        let Some(m) = eval(&v, &mut evaluations)? else {
                            break 'starts;
                        };
                        if m < here && next.as_ref().is_none_or(|(_, n)| m < *n) {
                            next = Some((v, m));
                        }
                    }
                }
                match next {
                    Some((v, m)) => {
                        u = v;
                        here = m;
                    }
                    None => step /= 2.0,
                }
            }
            if here < 0.0 {
                break;
            }
        }
        let (point, _) = best.ok_or_else(|| {
            Error::InvalidInput(format!("{}: the search evaluated no point", self.id))
        })?;
        let (probe, margin) = tightest((self.probes)(&point, CONFIRM_BITS)?).ok_or_else(|| {
            Error::InvalidInput(format!("{}: no comparison at the best point", self.id))
        })?;
        Ok(Found {
            point: self.params.iter().map(|p| p.name).zip(point).collect(),
            probe,
            margin,
            evaluations,
        })
    }

    /// The budget as text.
    pub fn budget_text(&self, found: &Found) -> String {
        format!(
            "{} certified evaluations at {} bits (budget {}, {} starts: the centre and ChaCha8 draws seeded from {:?}; compass steps down to 2⁻¹⁰ of each range)",
            found.evaluations, SEARCH_BITS.0, self.budget, self.starts, self.seed
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A planted claim, `n/(2·10⁵ ε) ≤ bound` on ε ∈ [1/100, 4], n ∈ {1, …,
    /// 2048}. Its largest left side is at the corner ε = 1/100, n = 2048:
    /// 2048/2000 = 1.024 (exact arithmetic by hand). With bound 1 it fails
    /// only where n > 2·10⁵ ε, i.e. n > 2000 and ε < n/(2·10⁵) ≤ 0.01024 —
    /// outside any small grid (n ≤ 2000 everywhere else). With bound 103/100
    /// it holds everywhere, with the smallest margin ln(1.03/1.024) ≈ 0.00584
    /// at that corner.
    fn planted(probes: Probes) -> Adversary {
        Adversary {
            id: "cc-thm99-planted",
            seed: "cc-thm99-planted",
            params: vec![Param::real("ε", "1/100", "4"), Param::int("n", 1, 2048)],
            note: "a test claim",
            starts: 4,
            budget: 400,
            probes,
        }
    }

    fn lhs(point: &[Q], ctx: Precision) -> Certified {
        let v = &point[1] / (&point[0] * Q::from_integer(200_000.into()));
        Certified::from_rational(&v, &ctx)
    }

    fn false_in_a_corner(point: &[Q], ctx: Precision) -> Result<Vec<Probe>> {
        Ok(vec![Probe::upper(
            "planted".into(),
            lhs(point, ctx),
            Certified::from_int(1, &ctx),
        )])
    }

    fn true_everywhere(point: &[Q], ctx: Precision) -> Result<Vec<Probe>> {
        let rhs = Certified::from_rational(&Q::new(103.into(), 100.into()), &ctx);
        Ok(vec![Probe::upper("planted".into(), lhs(point, ctx), rhs)])
    }

    /// On a small grid (n ≤ 64, ε ∈ {1/10, 1/2, 1, 4}) the planted claim holds.
    #[test]
    fn the_planted_claim_holds_on_a_small_grid() {
        for eps in ["1/10", "1/2", "1", "4"] {
            for n in [1, 2, 4, 8, 16, 32, 64] {
                let point = [parse_rational(eps).unwrap(), Q::from_integer(n.into())];
                let probe = false_in_a_corner(&point, SEARCH_BITS).unwrap().remove(0);
                assert_eq!(probe.holds(), Some(true), "{}", probe.text());
            }
        }
    }

    /// The search finds the corner where the planted claim fails, and the
    /// violation is certain at the confirmation precision.
    #[test]
    fn the_search_refutes_a_claim_false_only_in_a_corner() {
        let found = planted(Arc::new(false_in_a_corner)).search().unwrap();
        assert_eq!(found.probe.holds(), Some(false), "{}", found.probe.text());
        let (eps, n) = (&found.point[0].1, &found.point[1].1);
        assert!(*n > Q::from_integer(2000.into()), "n = {n}");
        assert!(
            eps.clone() * Q::from_integer(200_000.into()) < *n,
            "ε = {eps}"
        );
        assert!(found.evaluations <= 400);
    }

    /// The true variant is not refuted, and the search reaches its worst
    /// corner: the margin found is within 10⁻³ of ln(1.03/1.024).
    #[test]
    fn the_search_does_not_refute_a_true_claim_and_finds_its_smallest_margin() {
        let found = planted(Arc::new(true_everywhere)).search().unwrap();
        assert_eq!(found.probe.holds(), Some(true), "{}", found.probe.text());
        let smallest = (1.03f64 / 1.024).ln();
        assert!(
            (found.margin - smallest).abs() < 1e-3,
            "margin {} at {}",
            found.margin,
            found.point_text()
        );
    }

    /// The same seed gives the same search.
    #[test]
    fn the_search_is_deterministic() {
        let a = planted(Arc::new(false_in_a_corner)).search().unwrap();
        let b = planted(Arc::new(false_in_a_corner)).search().unwrap();
        assert_eq!(a.point, b.point);
        assert_eq!(a.evaluations, b.evaluations);
    }
}
