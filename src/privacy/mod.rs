//! The exhaustive privacy checker of the full-information algorithms.
//!
//! Given an online algorithm with K actions, a horizon `t`, a finite alphabet
//! `V ⊂ [0,1]` of loss values and ε > 0, [`check`] visits every loss sequence
//! `x ∈ (V^K)^t`, every neighbour `x'` (one whole round's loss vector replaced
//! by another vector of `V^K`) and every action sequence `a ∈ [K]^t`, and
//! computes
//!
//! ```text
//! max_{x, x', a : P(a|x) > 0}  P(a|x) / P(a|x')
//! ```
//!
//! exactly (a rational, when every law is rational) or as a certified
//! interval, with a witness `(x, x', a)`, and compares it with `e^ε`:
//! **private** when the maximum is certainly `≤ e^ε`, **violated** when some
//! ratio is certainly `> e^ε` (the witness is such a pair), **undecided** when
//! the enclosures still overlap at the largest precision tried. Both orders of
//! every pair are covered, since every sequence is visited as `x`. A ratio
//! `P(a|x) > 0 = P(a|x')` is infinite (`"inf"`, what [`crate::algorithm::ftl`]
//! gives); `0/0` is skipped.
//!
//! # The product identity (why the check is fast)
//!
//! For every algorithm of [`crate::algorithm`] the law of the action sequence
//! is a product over the schedule's choices `c` (module documentation of
//! [`crate::algorithm`]): `P(a|x) = ∏_c 1[a constant on plays_c] ·
//! law_c(a_c | x[reads_c])`, with `a_c` the action on `plays_c`. Sequences
//! that are not constant on every `plays_c` have probability 0 under both `x`
//! and `x'` (`0/0`, skipped), and the others are exactly the tuples
//! `(a_c)_c ∈ [K]^{choices}`, chosen independently. Hence, exactly,
//!
//! ```text
//! max_a P(a|x)/P(a|x') = ∏_c  max_{j : law_c(j|x) > 0}  law_c(j|x) / law_c(j|x'),
//! ```
//!
//! a maximum of a product of non-negative factors in independent variables
//! being the product of the maxima (a factor is `+∞` when `law_c(j|x') = 0` for
//! some `j` with `law_c(j|x) > 0`, and every factor is `≥ 1` since both laws
//! sum to 1). A choice whose window `x[reads_c]` is the same in `x` and `x'`
//! has identical laws: its factor is exactly 1 and is never computed (no
//! interval is divided by itself). So the checker computes each choice law once
//! per (choice, window content) and each factor once per (choice, window,
//! window'), and the per-pair work is a product of the few cached factors of the
//! choices that read the changed round. The witness action sequence repeats
//! each choice's maximising `j` over its `plays` rounds (for a choice that does
//! not read the changed round: its first action of positive probability).
//!
//! [`brute_force()`] computes the same maximum by enumerating every `a ∈ [K]^t`
//! with [`crate::algorithm::SequenceLaw::probability`]; the tests check that
//! both agree.
//!
//! # Exact, then certified
//!
//! The [`Exact`](crate::num::Exact) backend is tried first: it declines
//! ([`Error::NotRepresentable`]) as soon as a law is transcendental. Then the
//! [`Certified`] backend runs at 128 bits, doubling the precision (up to
//! [`Options::max_precision`]) until the verdict is decided. `e^ε` is always
//! an enclosure in the certified backend. Over intervals the maximum is kept as
//! the pair with the largest lower bound (the witness; ties go to the smallest
//! sequence index, then the smallest neighbour index, so the result does not
//! depend on the number of threads), and its enclosure is
//! `[max of lower ends, max of upper ends]`.
//!
//! # Cost
//!
//! With `N = |V|^K` loss vectors there are `N^t` sequences and
//! `N^t · t · (N − 1)` ordered pairs. The laws cost `Σ_c N^{|reads_c|}`
//! evaluations (for the dyadic schedules `|reads_c| ≤ t/2`), the factors
//! `Σ_c N^{|reads_c|} · |reads_c| · (N − 1)` divisions, and each pair a few
//! comparisons. Runs over [`Options::max_pairs`] ordered pairs are refused
//! unless forced; [`Shard`] splits the sequences into contiguous parts whose
//! results [`merge`]. A search covers its range in at most 64 contiguous
//! units ([`units_of`]) and keeps each unit's maximum ([`Outcome::units`],
//! folded by [`fold`]): a merge searches a sample of a shard's units again
//! ([`unit_max`]) and compares.
//!
//! ```
//! use dpdtol::algorithm::{AlgorithmId, Config};
//! use dpdtol::num::Q;
//! use dpdtol::privacy::{check, Options, Problem, Ratio, Verdict};
//! let eps = Q::from_integer(1.into());
//! let ftl = Config::new(AlgorithmId::Ftl, 2, eps.clone()).build().unwrap();
//! let alphabet = vec![Q::from_integer(0.into()), Q::from_integer(1.into())];
//! let problem = Problem::new(2, alphabet, eps).unwrap();
//! let report = check(&ftl, &problem, &Options::default()).unwrap();
//! assert_eq!(report.verdict, Verdict::Violated);
//! assert_eq!(report.max_ratio, Ratio::Infinite);
//! ```

pub mod all_epsilon;
pub mod bandit;
mod brute_force;
pub mod delta;
mod exhaustive;
pub mod one_shot;
mod recheck;
mod search;
mod structure;

pub use self::bandit::exact::{units_of, MAX_UNITS};
pub use self::brute_force::brute_force;
pub use self::exhaustive::check;
pub use self::exhaustive::MAX_PRECISION;
pub use self::exhaustive::{unit_decided_exactly, unit_max};
pub use self::recheck::{recheck, unit_ranges, witness_probabilities};
pub use self::search::{product, Enclosed};
pub use self::structure::{candidates, structural, Statistic, Structured};

use crate::algorithm::{OnlineAlgorithm, SequenceLaw};
use crate::error::{Error, Result};
use crate::num::{Certified, ExpRational, Kind, Precision, Real, Q};
use num_traits::{One, Signed, Zero};
use std::fmt;

pub use crate::size::MAX_THREADS;

/// The default limit on the ordered pairs one run checks (without `--force`).
pub const MAX_PAIRS: u64 = 100_000_000;

/// What is checked: the horizon, the alphabet of loss values and ε. The number
/// of actions comes from the algorithm.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The horizon `t ≥ 1`.
    pub horizon: usize,
    /// At least two distinct loss values in `[0, 1]`, in the order given.
    pub alphabet: Vec<Q>,
    /// The privacy parameter ε > 0 of the bound `e^ε`.
    pub epsilon: Q,
}

impl Problem {
    /// A validated problem.
    pub fn new(horizon: usize, alphabet: Vec<Q>, epsilon: Q) -> Result<Problem> {
        if horizon == 0 {
            return Err(Error::InvalidInput("the horizon must be at least 1".into()));
        }
        check_epsilon_and_alphabet(&epsilon, &alphabet, "loss sequence")?;
        if let Some(v) = alphabet.iter().find(|v| v.is_negative() || **v > Q::one()) {
            return Err(Error::InvalidInput(format!(
                "alphabet value {v} is outside [0, 1]"
            )));
        }
        Ok(Problem {
            horizon,
            alphabet,
            epsilon,
        })
    }
}

/// Check `ε > 0` and an alphabet of at least two values without repeats
/// (`what` names the objects that would have no neighbour otherwise).
pub(crate) fn check_epsilon_and_alphabet(epsilon: &Q, alphabet: &[Q], what: &str) -> Result<()> {
    if !epsilon.is_positive() {
        return Err(Error::InvalidInput(format!(
            "epsilon must be positive, got {epsilon}"
        )));
    }
    // The verdict compares with e^ε: past e^(2^24) (about 10^7286252) its
    // enclosure takes integers of tens of millions of bits, as the laws'
    // weights do (`Config::build` refuses the same reach).
    let reach = crate::mechanism::MAX_FORCED_NATS;
    if *epsilon > Q::from_integer(reach.into()) {
        return Err(Error::InvalidInput(format!(
            "epsilon {} is above {reach}: e^epsilon (about 10^7286252 at the limit) cannot be written in reasonable time or memory",
            crate::num::format_sig(epsilon, 6)
        )));
    }
    if alphabet.len() < 2 {
        return Err(Error::InvalidInput(format!(
            "the alphabet needs at least 2 loss values (no {what} has a neighbour otherwise), got {}",
            alphabet.len()
        )));
    }
    // Repeats by sorting a copy: O(|V| log |V|) for any alphabet length.
    let mut sorted: Vec<&Q> = alphabet.iter().collect();
    sorted.sort();
    if let Some(pair) = sorted.windows(2).find(|w| w[0] == w[1]) {
        return Err(Error::InvalidInput(format!(
            "alphabet value {} is repeated",
            pair[0]
        )));
    }
    Ok(())
}

/// A contiguous part `index` of `count` (1-based) of the loss sequences, in
/// the order of their index (see [`Space`]). Shard `i` checks the sequences
/// `x` with `⌊(i−1)S/N⌋ ≤ index(x) < ⌊iS/N⌋` (S sequences, N shards), each
/// against all of its neighbours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    /// Which part, `1 ≤ index ≤ count`.
    pub index: u64,
    /// Into how many parts.
    pub count: u64,
}

impl Shard {
    /// The whole enumeration: shard 1 of 1.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Shard `index` of `count`; an error unless `1 ≤ index ≤ count`.
    pub fn new(index: u64, count: u64) -> Result<Shard> {
        if count == 0 || index == 0 || index > count {
            return Err(Error::InvalidInput(format!(
                "a shard is I/N with 1 <= I <= N, got {index}/{count}"
            )));
        }
        Ok(Shard { index, count })
    }

    /// The sequence indices of this shard among `sequences`; an error when
    /// there are fewer sequences than shards.
    pub fn range(&self, sequences: u64) -> Result<std::ops::Range<u64>> {
        self.range_of(sequences, "loss sequences")
    }

    /// The indices of this shard among `total` items named `unit`; an error
    /// when there are fewer items than shards.
    pub fn range_of(&self, total: u64, unit: &str) -> Result<std::ops::Range<u64>> {
        if self.count > total {
            return Err(Error::InvalidInput(format!(
                "--shard {self}: there are only {total} {unit} to split"
            )));
        }
        let cut = |i: u64| (u128::from(i) * u128::from(total) / u128::from(self.count)) as u64;
        Ok(cut(self.index - 1)..cut(self.index))
    }

    /// Check that `shards` are `1/N, …, N/N`, each once, in any order: the
    /// shards of one run that a merge needs.
    pub fn check_coverage(shards: impl IntoIterator<Item = Shard>) -> Result<()> {
        let mut shards = shards.into_iter();
        let first = shards
            .next()
            .ok_or_else(|| Error::InvalidInput("nothing to merge".into()))?;
        let count = first.count;
        // The shard indices seen, in a set: nothing is allocated in
        // proportion to the shard count a report claims.
        let mut seen = std::collections::BTreeSet::from([first.index]);
        for shard in shards {
            if shard.count != count {
                return Err(Error::InvalidInput(format!(
                    "cannot merge shard {shard} with shards of {count}"
                )));
            }
            if !seen.insert(shard.index) {
                return Err(Error::InvalidInput(format!("shard {shard} is given twice")));
            }
        }
        if seen.len() as u64 != count {
            // The first index not seen: the set is sorted, so it is the
            // first place where the i-th smallest index is not i.
            let missing = (1..=count)
                .zip(seen.iter())
                .find(|(i, s)| i != *s)
                .map_or(seen.len() as u64 + 1, |(i, _)| i);
            return Err(Error::InvalidInput(format!(
                "shard {missing}/{count} is missing from the merge"
            )));
        }
        Ok(())
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl std::str::FromStr for Shard {
    type Err = Error;
    fn from_str(s: &str) -> Result<Shard> {
        let bad =
            || Error::InvalidInput(format!("--shard expects I/N with 1 <= I <= N, got '{s}'"));
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let i: u64 = i.trim().parse().map_err(|_| bad())?;
        let n: u64 = n.trim().parse().map_err(|_| bad())?;
        Shard::new(i, n).map_err(|_| bad())
    }
}

/// The items a search visits (loss sequences, or structural candidates):
/// those of a shard, or one unit of a shard ([`units_of`]), which a merge
/// recomputes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Span {
    /// The items of a shard.
    Shard(Shard),
    /// The items of a non-empty range.
    Unit(std::ops::Range<u64>),
}

impl Span {
    /// Whether a search of this span keeps its units' maxima: a shard of a
    /// split run does (its report carries them for a merge); the whole run
    /// and a unit searched again do not.
    pub fn keeps_units(&self) -> bool {
        matches!(self, Span::Shard(shard) if shard.count > 1)
    }

    /// The indices of this span among `total` items; an error when a shard
    /// has fewer items than shards or the range does not lie in them.
    pub fn range(&self, total: u64) -> Result<std::ops::Range<u64>> {
        match self {
            Span::Shard(shard) => shard.range(total),
            Span::Unit(range) if range.start < range.end && range.end <= total => Ok(range.clone()),
            Span::Unit(range) => Err(Error::InvalidInput(format!(
                "the unit {}..{} is not a range of the {total} items of the check",
                range.start, range.end
            ))),
        }
    }
}

/// How the maximum over neighbour pairs is searched.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    Default,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    /// Over the changed round and the statistics of the windows that read it
    /// ([`structural`]; the default).
    #[default]
    Structural,
    /// Over every ordered pair of loss sequences ([`product`]): the
    /// cross-check.
    Enumeration,
}

impl Method {
    /// `"structural"` or `"enumeration"`.
    pub fn name(self) -> &'static str {
        match self {
            Method::Structural => "structural",
            Method::Enumeration => "enumeration",
        }
    }
}

impl std::str::FromStr for Method {
    type Err = Error;
    fn from_str(s: &str) -> Result<Method> {
        match s {
            "structural" => Ok(Method::Structural),
            "enumeration" => Ok(Method::Enumeration),
            _ => Err(Error::InvalidInput(format!(
                "--method expects structural or enumeration, got '{s}'"
            ))),
        }
    }
}

/// How a check runs.
#[derive(Clone, Debug)]
pub struct Options {
    /// How the maximum is searched.
    pub method: Method,
    /// Which part of the sequences to check.
    pub shard: Shard,
    /// The size of the rayon pool (`None`: rayon's global pool).
    pub threads: Option<usize>,
    /// Run even when the shard has more than `max_pairs` ordered pairs.
    pub force: bool,
    /// The limit on ordered pairs without `force`.
    pub max_pairs: u64,
    /// Show a progress bar on stderr once the run has lasted 1 s.
    pub progress: bool,
    /// The first certified precision.
    pub start_precision: Precision,
    /// The last certified precision tried before answering "undecided".
    pub max_precision: Precision,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            method: Method::Structural,
            shard: Shard::WHOLE,
            threads: None,
            force: false,
            max_pairs: MAX_PAIRS,
            progress: false,
            start_precision: Precision(128),
            max_precision: Precision(MAX_PRECISION),
        }
    }
}

/// A privacy-loss ratio: infinite, exact, or a certified enclosure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ratio {
    /// `P(a|x) > 0 = P(a|x')`.
    Infinite,
    /// The exact value.
    Exact(Q),
    /// `lo ≤ value ≤ hi`.
    Certified {
        /// A lower bound.
        lo: Q,
        /// An upper bound.
        hi: Q,
    },
}

impl Ratio {
    /// A lower bound (`None` for an infinite ratio).
    pub fn lo(&self) -> Option<&Q> {
        match self {
            Ratio::Infinite => None,
            Ratio::Exact(q) => Some(q),
            Ratio::Certified { lo, .. } => Some(lo),
        }
    }

    /// An upper bound (`None` for an infinite ratio).
    pub fn hi(&self) -> Option<&Q> {
        match self {
            Ratio::Infinite => None,
            Ratio::Exact(q) => Some(q),
            Ratio::Certified { hi, .. } => Some(hi),
        }
    }

    /// The order of the lower bounds, `+∞` above every finite value.
    fn cmp_lo(&self, other: &Ratio) -> std::cmp::Ordering {
        cmp_extended(self.lo(), other.lo())
    }
}

/// Compare two values of `[0, ∞]`, `None` standing for `∞`.
fn cmp_extended(a: Option<&Q>, b: Option<&Q>) -> std::cmp::Ordering {
    use std::cmp::Ordering::*;
    match (a, b) {
        (None, None) => Equal,
        (None, Some(_)) => Greater,
        (Some(_), None) => Less,
        (Some(a), Some(b)) => a.cmp(b),
    }
}

/// A pair of neighbouring loss sequences and an action sequence attaining the
/// maximum ratio `P(actions | losses) / P(actions | neighbour)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Witness {
    /// The loss sequence `x`: `t` vectors of K losses.
    pub losses: Vec<Vec<Q>>,
    /// The neighbour `x'`: `x` with one round's vector replaced.
    pub neighbour: Vec<Vec<Q>>,
    /// The actions `a`, 0-based (the command line prints them 1-based).
    pub actions: Vec<usize>,
    /// The round (1-based) where `x` and `x'` differ.
    pub round: usize,
    /// An enclosure of `max_a P(a|x)/P(a|x')` for this pair (the ratio of
    /// `actions` itself lies in it, at its lower end when exact).
    pub ratio: Ratio,
    /// The tie-break key: the index of `x` in the enumeration order, or of
    /// the structural candidate ([`Method::Structural`]).
    pub sequence: u64,
    /// The index of `x'` (0 for the structural method).
    pub neighbour_sequence: u64,
}

/// What the raw search of one backend found: the maximum over the pairs it
/// visited, its witness and the number of ordered pairs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The maximum ratio: exact, or `[witness lower end, max of upper ends]`.
    pub max_ratio: Ratio,
    /// The pair with the largest (lower bound of the) ratio.
    pub witness: Witness,
    /// The number of ordered pairs `(x, x')` visited.
    pub pairs: u64,
    /// The maximum ratio of each unit of the range searched ([`units_of`]:
    /// at most 64 contiguous sub-ranges tiling it), in order: `max_ratio` is
    /// their [`fold`]. Empty when the maximum was not searched unit by unit
    /// (the whole run, which writes no units; a decision in the exact field
    /// `Q(e^{1/q})`; the brute force).
    pub units: Vec<Ratio>,
}

/// The maximum of several ratios as a search keeps it: infinite when one is,
/// else `[max of lower ends, max of upper ends]` (exact when all are); `None`
/// for no ratio. It does not depend on the order of `ratios`.
pub fn fold(ratios: &[Ratio]) -> Option<Ratio> {
    let first = ratios.first()?.clone();
    Some(ratios[1..].iter().fold(first, |acc, r| match (acc, r) {
        (Ratio::Infinite, _) | (_, Ratio::Infinite) => Ratio::Infinite,
        (Ratio::Exact(a), Ratio::Exact(b)) => Ratio::Exact(a.max(b.clone())),
        (a, b) => Ratio::Certified {
            lo: a.lo().max(b.lo()).cloned().unwrap_or_default(),
            hi: a.hi().max(b.hi()).cloned().unwrap_or_default(),
        },
    }))
}

/// The result of one search at one precision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Attempt {
    /// Every ratio was enclosed.
    Done(Box<Outcome>),
    /// Some probability could not be separated from zero at this precision
    /// (the reason); a higher precision may do it.
    Undetermined(String),
}

/// The verdict against `e^ε`.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// The maximum ratio is certainly `≤ e^ε`.
    Private,
    /// The witness's ratio is certainly `> e^ε`.
    Violated,
    /// The enclosures of the maximum and of `e^ε` overlap.
    Undecided,
}

impl Verdict {
    /// `"private"`, `"violated"` or `"undecided"`.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Private => "private",
            Verdict::Violated => "violated",
            Verdict::Undecided => "undecided",
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The outcome of [`check`] (or of [`merge`]).
#[derive(Clone, Debug)]
pub struct Report {
    /// What was checked.
    pub problem: Problem,
    /// The number of actions K.
    pub actions: usize,
    /// The maximum ratio over the pairs of this shard.
    pub max_ratio: Ratio,
    /// Where it is attained.
    pub witness: Witness,
    /// Against `e^ε`.
    pub verdict: Verdict,
    /// Whether the maximum equals `e^ε` exactly (decided in the exact field;
    /// the verdict is then private).
    pub attained: bool,
    /// How the maximum was searched (what `pairs` and the witness's sequence
    /// indices count).
    pub method: Method,
    /// The enclosure of `e^ε` the verdict was decided with.
    pub bound: Certified,
    /// The number of ordered pairs checked.
    pub pairs: u64,
    /// [`Kind::Exact`] or [`Kind::Certified`].
    pub kind: Kind,
    /// The precision of the certified laws (`None` when exact).
    pub precision: Option<Precision>,
    /// Which part of the enumeration.
    pub shard: Shard,
    /// Why the exact backend declined (`None` when exact).
    pub why_not_exact: Option<String>,
    /// The maximum ratio of each unit of the shard's range, in order
    /// ([`Outcome::units`]; empty for the whole run and a merged report).
    pub units: Vec<Ratio>,
    /// When the verdict was decided on the witness in the exact field
    /// `Q(e^{1/q})` (an attained maximum, or a violation the enclosures left
    /// open): the precision of the last certified pass, whose unit maxima
    /// `units` are; they then enclose the maximum instead of folding to it.
    /// `None` otherwise.
    pub units_precision: Option<Precision>,
}

/// The largest table of loss vectors `V^K` a check builds, forced or not,
/// counted in losses (`N · K` rationals, `N = |V|^K`): 2²² losses are a few
/// hundred megabytes with the laws cached over them, and a larger table
/// could not be enumerated anyway (at `N · K > 2²²` the whole run has more
/// than `N (N − 1) > 10⁹` pairs even at `t = 1`).
pub const MAX_TABLE_LOSSES: u64 = 1 << 22;

/// Refuse (even with `--force`) a table of more than [`MAX_TABLE_LOSSES`]
/// losses, before it is built.
fn check_vector_table(vectors: u64, actions: usize) -> Result<()> {
    let losses = vectors.saturating_mul(actions as u64);
    if losses > MAX_TABLE_LOSSES {
        return Err(Error::TooLarge(format!(
            "the table of {vectors} loss vectors (|alphabet|^K) of {actions} losses each has {losses} losses, over the memory cap of {MAX_TABLE_LOSSES} losses, which --force does not lift; use a smaller alphabet or fewer actions"
        )));
    }
    Ok(())
}

/// The loss sequences of a problem, indexed: sequence `x` has the vector
/// of index `digit(x, s)` in round `s + 1`.
#[derive(Clone, Debug)]
pub struct Space {
    /// K.
    pub actions: usize,
    /// The horizon t.
    pub horizon: usize,
    /// The loss vectors `V^K`, vector `u` having action `j`'s loss at digit `j`
    /// (base `|V|`, action 1 most significant).
    pub vectors: Vec<Vec<Q>>,
    /// `N^i` for `i = 0..=t`, `N = |V|^K`.
    pub powers: Vec<u64>,
}

impl Space {
    /// The powers `N^i`, `i = 0..=t` (`N = |V|^K`), computed from the numbers
    /// alone, before anything proportional to them is built;
    /// [`Error::TooLarge`] when the number of ordered pairs `N^t · t · (N − 1)`
    /// does not fit 64 bits.
    pub fn powers(actions: usize, problem: &Problem) -> Result<Vec<u64>> {
        let a = problem.alphabet.len() as u128;
        let too_large = || {
            Error::TooLarge(format!(
                "{}^({actions}·{}) loss sequences cannot be enumerated",
                problem.alphabet.len(),
                problem.horizon
            ))
        };
        let n = (0..actions).try_fold(1u128, |acc, _| {
            acc.checked_mul(a).filter(|&v| v <= u128::from(u64::MAX))
        });
        let n = n.ok_or_else(too_large)? as u64;
        let mut powers = vec![1u64];
        for _ in 0..problem.horizon {
            let next = powers
                .last()
                .copied()
                .unwrap_or(1)
                .checked_mul(n)
                .ok_or_else(too_large)?;
            powers.push(next);
        }
        let sequences = powers[problem.horizon];
        (sequences as u128)
            .checked_mul(problem.horizon as u128 * (n as u128 - 1))
            .filter(|&p| p <= u128::from(u64::MAX))
            .ok_or_else(too_large)?;
        Ok(powers)
    }

    /// The sequences of `problem` for K actions, with the table of its `N`
    /// loss vectors; [`Error::TooLarge`] when their number of ordered pairs
    /// does not fit 64 bits or the table would have more than
    /// [`MAX_TABLE_LOSSES`] losses (a memory cap `--force` does not lift).
    pub fn new(actions: usize, problem: &Problem) -> Result<Space> {
        let powers = Space::powers(actions, problem)?;
        let (vectors, _) = loss_vectors(actions, &problem.alphabet)?;
        Ok(Space {
            actions,
            horizon: problem.horizon,
            vectors,
            powers,
        })
    }

    /// The number `N = |V|^K` of loss vectors.
    pub fn vector_count(&self) -> u64 {
        self.powers[1]
    }

    /// The number `N^t` of loss sequences.
    pub fn sequences(&self) -> u64 {
        self.powers[self.horizon]
    }

    /// The ordered pairs of the sequences `range`: `|range| · t · (N − 1)`.
    pub fn pairs(&self, range: &std::ops::Range<u64>) -> u64 {
        Space::count_pairs(self.vector_count(), self.horizon, range)
    }

    /// `|range| · t · (N − 1)` for `N` loss vectors, from the numbers alone;
    /// it fits 64 bits when `range` lies in the sequences of a problem
    /// [`Space::powers`] accepted.
    pub fn count_pairs(vectors: u64, horizon: usize, range: &std::ops::Range<u64>) -> u64 {
        (range.end - range.start) * horizon as u64 * (vectors - 1)
    }

    /// The vector index of round `s` (0-based) of sequence `x`: digit `s` in
    /// base `N`, round 1 most significant.
    pub fn digit(&self, x: u64, s: usize) -> u64 {
        (x / self.powers[self.horizon - 1 - s]) % self.vector_count()
    }

    /// The loss sequence of index `x`.
    pub fn sequence(&self, x: u64) -> Vec<Vec<Q>> {
        (0..self.horizon)
            .map(|s| self.vectors[self.digit(x, s) as usize].clone())
            .collect()
    }
}

/// The loss vectors and, for each, the alphabet index of each action's loss.
pub(crate) type LossVectors = (Vec<Vec<Q>>, Vec<Vec<usize>>);

/// The loss vectors `V^K` in the order of [`Space::vectors`] (vector `u`
/// has action `j`'s loss at digit `j` in base `|V|`, action 1 most
/// significant), with the alphabet index of each action's loss;
/// [`Error::TooLarge`] when `|V|^K` does not fit 64 bits.
pub(crate) fn loss_vectors(actions: usize, alphabet: &[Q]) -> Result<LossVectors> {
    let n = (0..actions)
        .try_fold(1usize, |acc, _| acc.checked_mul(alphabet.len()))
        .filter(|&n| u64::try_from(n).is_ok())
        .ok_or_else(|| {
            Error::TooLarge(format!(
                "{}^{actions} loss vectors cannot be enumerated",
                alphabet.len()
            ))
        })?;
    check_vector_table(n as u64, actions)?;
    let digits: Vec<Vec<usize>> = (0..n)
        .map(|u| {
            let mut digits = vec![0; actions];
            let mut rest = u;
            for j in (0..actions).rev() {
                digits[j] = rest % alphabet.len();
                rest /= alphabet.len();
            }
            digits
        })
        .collect();
    let vectors = digits
        .iter()
        .map(|d| d.iter().map(|&i| alphabet[i].clone()).collect())
        .collect();
    Ok((vectors, digits))
}

/// The precision of the enclosure printed for a maximum decided in the exact
/// field.
const EXACT_FIELD_PRECISION: Precision = Precision(256);

/// The verdict of a witness decided exactly: its ratio
/// `P(a|x)/P(a|x')` recomputed in [`ExpRational`] (the field `Q(w)`, module
/// documentation of [`crate::num`]'s `poly`) and compared with `e^ε`
/// there — equality by the transcendence of `e^{1/q}`, the sign of a non-zero
/// difference by refinement. Returns the verdict, whether the ratio equals
/// `e^ε` exactly, and the ratio's enclosure at 256 bits.
///
/// The witness must be a maximiser (as the searches return it in the exact
/// field); [`Error::NotRepresentable`] when a law leaves the field.
pub fn decide_exactly<A: OnlineAlgorithm>(
    algorithm: &A,
    witness: &Witness,
    epsilon: &Q,
) -> Result<(Verdict, bool, Ratio)> {
    let p = SequenceLaw::<ExpRational>::of(algorithm, &witness.losses, &())?
        .probability(&witness.actions, &());
    let p2 = SequenceLaw::<ExpRational>::of(algorithm, &witness.neighbour, &())?
        .probability(&witness.actions, &());
    if p2.is_zero() {
        return Ok((Verdict::Violated, false, Ratio::Infinite));
    }
    let ratio = p / &p2;
    let bound = ExpRational::exp_of(epsilon);
    let order = ratio.cmp(&bound);
    let (lo, hi) = ratio
        .enclose(EXACT_FIELD_PRECISION)?
        .enclosure()
        .ok_or_else(|| Error::Domain("the witness ratio".into()))?;
    let enclosure = if lo == hi {
        Ratio::Exact(lo)
    } else {
        Ratio::Certified { lo, hi }
    };
    Ok(match order {
        std::cmp::Ordering::Greater => (Verdict::Violated, false, enclosure),
        std::cmp::Ordering::Equal => (Verdict::Private, true, enclosure),
        std::cmp::Ordering::Less => (Verdict::Private, false, enclosure),
    })
}

/// The verdict of `max_ratio` against `e^ε`, and the enclosure of `e^ε` that
/// decided it: `e^ε` is enclosed at `max(256, 2·hint)` bits, then at doubled
/// precisions up to 2¹⁴ bits while the comparison is open and the bound is
/// not already much narrower than the ratio's enclosure.
pub fn decide(max_ratio: &Ratio, epsilon: &Q, hint: u32) -> Result<(Verdict, Certified)> {
    let mut bits = (2 * hint).max(256);
    loop {
        let bound = Certified::from_rational(epsilon, &Precision(bits)).exp()?;
        let (blo, bhi) = bound
            .enclosure()
            .ok_or_else(|| Error::Domain("e^epsilon".into()))?;
        let verdict = match max_ratio {
            Ratio::Infinite => Verdict::Violated,
            _ => {
                let (lo, hi) = (
                    max_ratio.lo().cloned().unwrap_or_default(),
                    max_ratio.hi().cloned().unwrap_or_default(),
                );
                if lo > bhi {
                    Verdict::Violated
                } else if hi <= blo {
                    Verdict::Private
                } else {
                    Verdict::Undecided
                }
            }
        };
        let ratio_width = match max_ratio {
            Ratio::Certified { lo, hi } => hi - lo,
            _ => Q::zero(),
        };
        let bound_width = &bhi - &blo;
        let hopeless =
            !ratio_width.is_zero() && bound_width * Q::from_integer(16.into()) < ratio_width;
        if verdict != Verdict::Undecided || bits >= 1 << 14 || hopeless {
            return Ok((verdict, bound));
        }
        bits *= 2;
    }
}

/// Merge the reports of the `N` shards of one problem (as [`check`] returns
/// them with `Shard { index: 1..=N, count: N }`, in any order) into the report
/// of the whole enumeration: the pairs add up, the witness is the shards'
/// witness with the largest lower bound (ties: the smallest sequence, then
/// neighbour index, as in one run), the enclosure is `[its lower end, the
/// largest upper end]`, and the verdict is decided again against `e^ε`.
///
/// The reports must be of the same algorithm (not checked: a report does not
/// name its algorithm), problem and K, and cover every shard exactly once.
/// A report read from outside is checked first with [`recheck()`].
pub fn merge(reports: &[Report]) -> Result<Report> {
    let first = reports
        .first()
        .ok_or_else(|| Error::InvalidInput("nothing to merge".into()))?;
    for r in reports {
        if r.problem != first.problem || r.actions != first.actions {
            return Err(Error::InvalidInput(
                "the reports to merge are of different problems (horizon, alphabet, epsilon or K)"
                    .into(),
            ));
        }
        if r.method != first.method {
            return Err(Error::InvalidInput(format!(
                "cannot merge a {} shard with {} shards (their shards split different spaces)",
                r.method.name(),
                first.method.name()
            )));
        }
    }
    Shard::check_coverage(reports.iter().map(|r| r.shard))?;
    // A violated shard's witness beats the others: its ratio is certainly (or
    // exactly) above e^ε, where no private shard's is.
    let violated = reports.iter().any(|r| r.verdict == Verdict::Violated);
    let best = reports
        .iter()
        .filter(|r| !violated || r.verdict == Verdict::Violated)
        .reduce(|a, b| {
            let key = |r: &Report| (r.witness.sequence, r.witness.neighbour_sequence);
            match b.max_ratio.cmp_lo(&a.max_ratio) {
                std::cmp::Ordering::Greater => b,
                std::cmp::Ordering::Equal if key(b) < key(a) => b,
                _ => a,
            }
        })
        .unwrap_or(first);
    let all_exact = reports.iter().all(|r| r.kind == Kind::Exact);
    let max_ratio = match best.max_ratio.lo() {
        None => Ratio::Infinite,
        Some(lo) if all_exact => Ratio::Exact(lo.clone()),
        Some(lo) => {
            let hi = reports
                .iter()
                .filter_map(|r| r.max_ratio.hi())
                .max()
                .cloned()
                .unwrap_or_else(|| lo.clone());
            Ratio::Certified { lo: lo.clone(), hi }
        }
    };
    let precision = reports.iter().filter_map(|r| r.precision).max();
    let (verdict, bound) = decide(
        &max_ratio,
        &first.problem.epsilon,
        precision.map_or(0, |p| p.0),
    )?;
    // Verdicts decided exactly per shard decide the whole: violated if one
    // is, else private, attained if some shard's maximum equals e^ε.
    let (verdict, attained) = match verdict {
        Verdict::Undecided if reports.iter().all(|r| r.verdict != Verdict::Undecided) => {
            if violated {
                (Verdict::Violated, false)
            } else {
                (Verdict::Private, reports.iter().any(|r| r.attained))
            }
        }
        v => (v, false),
    };
    Ok(Report {
        problem: first.problem.clone(),
        actions: first.actions,
        max_ratio,
        witness: best.witness.clone(),
        verdict,
        attained,
        method: first.method,
        bound,
        pairs: reports.iter().map(|r| r.pairs).sum(),
        kind: if all_exact {
            Kind::Exact
        } else {
            Kind::Certified
        },
        precision,
        shard: Shard::WHOLE,
        why_not_exact: reports.iter().find_map(|r| r.why_not_exact.clone()),
        units: Vec::new(),
        units_precision: None,
    })
}
