//! Seeded reference samples, drawn in parallel and identical for any thread
//! count.
//!
//! A reference sample is a sample of the **printed law** ([`sample`]): each
//! choice's action is drawn from its exact or certified law by inversion,
//! with a uniform number compared exactly with the law's cumulative
//! enclosures ([`Categorical`]). So the samples follow the law that `law`
//! prints at every parameter the parser accepts — a noise scale of 10³⁰⁹, a
//! loss gap of 10⁻³³⁰ — where a simulation in f64 would not. The crate's
//! simulation of the algorithm as printed (noise drawn in f64, then the
//! argmax) is [`simulate`]: the tests hold it against the law.
//!
//! Sample `i` (0-based) draws all its randomness from its own stream:
//! `ChaCha8Rng::seed_from_u64(seed)` with `set_stream(i)`, from word 0. The
//! rows are therefore a function of `(seed, i)` alone, whichever thread
//! draws them and in whatever order: every run is reproducible from one seed
//! whatever the thread count.

use super::law::{choice_laws, Enclosed, Target};
use crate::algorithm::BestSequenceLaw;
use crate::error::{Error, Result};
use crate::num::Q;
use crate::progress::{with_progress, Task};
use num_bigint::BigInt;
use num_traits::{One, Zero};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

/// A matrix of action sequences, one a row, 0-based actions, row-major.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Samples {
    rows: usize,
    cols: usize,
    data: Vec<u32>,
}

impl Samples {
    /// `rows` sequences of `cols` actions each from the row-major `data`.
    pub fn new(rows: usize, cols: usize, data: Vec<u32>) -> Result<Samples> {
        if rows.checked_mul(cols) != Some(data.len()) {
            return Err(Error::InvalidInput(format!(
                "{} values do not make {rows} rows of {cols}",
                data.len()
            )));
        }
        Ok(Samples { rows, cols, data })
    }

    /// The number of sequences.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The length of every sequence (the horizon).
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Sequence `i` (0-based).
    pub fn row(&self, i: usize) -> &[u32] {
        &self.data[i * self.cols..(i + 1) * self.cols]
    }

    /// The rows `range` as samples of their own.
    pub fn slice(&self, range: std::ops::Range<usize>) -> Samples {
        Samples {
            rows: range.len(),
            cols: self.cols,
            data: self.data[range.start * self.cols..range.end * self.cols].to_vec(),
        }
    }

    /// All values, row-major.
    pub fn data(&self) -> &[u32] {
        &self.data
    }
}

/// The random stream of sample `index` under `seed`.
pub fn stream(seed: u64, index: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index);
    rng
}

/// `n` sequences of `horizon` actions, row `i` drawn by `draw` from
/// [`stream`]`(seed, i)`, in parallel on rayon's pool. `draw` must return
/// `horizon` actions, each below 2³².
pub fn sample_with<F>(n: usize, horizon: usize, seed: u64, draw: F) -> Samples
where
    F: Fn(&mut ChaCha8Rng) -> Vec<usize> + Sync,
{
    sample_indexed(n, horizon, seed, |_, rng| draw(rng))
}

/// [`sample_with`] of a `draw` told the row `i` it draws.
pub fn sample_indexed<F>(n: usize, horizon: usize, seed: u64, draw: F) -> Samples
where
    F: Fn(usize, &mut ChaCha8Rng) -> Vec<usize> + Sync,
{
    let mut data = vec![0u32; n * horizon];
    if horizon > 0 {
        // A bar on stderr when the draws take long (`--force` sizes).
        let task = Task {
            name: "sample",
            unit: "sequences",
        };
        with_progress(true, task, n as u64, |progress| {
            data.par_chunks_mut(horizon)
                .enumerate()
                .for_each(|(i, row)| {
                    let mut rng = stream(seed, i as u64);
                    for (out, a) in row.iter_mut().zip(draw(i, &mut rng)) {
                        *out = a as u32;
                    }
                    progress.add(1);
                });
        });
    }
    Samples {
        rows: n,
        cols: horizon,
        data,
    }
}

/// The most values (sequences × rounds) a sample holds unless forced:
/// 2·10⁸, 800 MB in memory as 32-bit actions.
pub const MAX_VALUES: u128 = 200_000_000;

/// Check that `n` sequences of `target` hold at most [`MAX_VALUES`] values,
/// unless `force`: an error (work over a limit) when they hold more.
pub fn check_size(target: &Target, n: usize, force: bool) -> Result<()> {
    check_values(n, target.horizon(), target.actions(), force)
}

/// Check that `n` sequences of `horizon` rounds over `actions` actions
/// hold at most [`MAX_VALUES`] values unless `force`, and fit in memory
/// even with it.
pub fn check_values(n: usize, horizon: usize, actions: usize, force: bool) -> Result<()> {
    let values = crate::size::product([n as u128, horizon as u128]);
    let what = format!("{n} sequences of {horizon} rounds");
    crate::size::work(&format!("the values of {what}"), values, MAX_VALUES, force)?;
    // Each value is held as a u32, then written: 4 bytes (NPY) or its
    // digits and a separator (CSV).
    let digits = actions.to_string().len() + 1;
    let bytes_each = 4 + digits.max(4);
    crate::size::table(&format!("{what}, held in memory"), values, bytes_each).map_err(|e| {
        // The way out: fewer sequences a run, more runs under other seeds.
        let fits = crate::size::MEMORY_CAP / (horizon.max(1) * bytes_each) as u128;
        match e {
            Error::TooLarge(why) => Error::TooLarge(format!(
                "{why}; --n {fits} fits, and more sequences come from further runs with other --seed values"
            )),
            other => other,
        }
    })?;
    Ok(())
}

/// `n` simulated sequences of `target`: the algorithm as printed, its
/// noise drawn in f64 and the argmax taken ([`Target::sample_one`]), seeded
/// by `seed`. Approximate: at parameters beyond f64's range (a scale of
/// 10³⁰⁹, losses that differ by 10⁻³³⁰) it does not follow the law; the
/// reference samples are [`sample`]'s.
pub fn simulate(target: &Target, n: usize, seed: u64) -> Samples {
    sample_with(n, target.horizon(), seed, |rng| target.sample_one(rng))
}

/// `n` reference sequences of the law `law` (a [`Target::law`]), seeded by
/// `seed`: each choice's action drawn from its law by [`Categorical`], and
/// played on every round of the choice.
///
/// ```
/// use dpdtol::mechanism::{Noise, Scale};
/// use dpdtol::num::Q;
/// use dpdtol::oracle::{sample::sample, Target};
/// let q = |n: i64| Q::from_integer(n.into());
/// let target = Target::mechanism(Noise::Gumbel, Scale::beta(q(1)).unwrap(), vec![q(0), q(1)]).unwrap();
/// let law = target.law(Default::default()).unwrap();
/// let a = sample(&law, 100, 42).unwrap();
/// assert_eq!(a, sample(&law, 100, 42).unwrap());
/// assert_eq!((a.rows(), a.cols()), (100, 1));
/// ```
pub fn sample(law: &BestSequenceLaw, n: usize, seed: u64) -> Result<Samples> {
    let schedule = law.schedule();
    let horizon = schedule.last().map_or(0, |c| c.plays.end.saturating_sub(1));
    let laws = choice_laws(law)?
        .iter()
        .map(|p| Categorical::new(p))
        .collect::<Result<Vec<_>>>()?;
    try_sample_with(n, horizon, seed, |rng| {
        let mut row = Vec::with_capacity(horizon);
        for (choice, law) in schedule.iter().zip(&laws) {
            let action = law.draw(rng)?;
            row.extend(std::iter::repeat_n(action, choice.plays.len()));
        }
        Ok(row)
    })
}

/// [`sample_with`] of a `draw` that may fail, as [`Categorical::draw`]
/// does when a uniform number lies inside a cumulative enclosure of the law
/// (of width below 10⁻³⁵): the failure of the first failing row is reported.
pub fn try_sample_with<F>(n: usize, horizon: usize, seed: u64, draw: F) -> Result<Samples>
where
    F: Fn(&mut ChaCha8Rng) -> Result<Vec<usize>> + Sync,
{
    try_sample_indexed(n, horizon, seed, |_, rng| draw(rng))
}

/// [`try_sample_with`] of a `draw` told the row `i` it draws: the failure of
/// the smallest failing row is reported, whatever the threads' order.
pub fn try_sample_indexed<F>(n: usize, horizon: usize, seed: u64, draw: F) -> Result<Samples>
where
    F: Fn(usize, &mut ChaCha8Rng) -> Result<Vec<usize>> + Sync,
{
    let failed = std::sync::Mutex::new(None::<(usize, Error)>);
    let samples = sample_indexed(n, horizon, seed, |i, rng| {
        draw(i, rng).unwrap_or_else(|e| {
            if let Ok(mut slot) = failed.lock() {
                if slot.as_ref().is_none_or(|(first, _)| i < *first) {
                    *slot = Some((i, e));
                }
            }
            vec![0; horizon]
        })
    });
    match failed.into_inner().ok().flatten() {
        Some((_, e)) => Err(e),
        None => Ok(samples),
    }
}

/// A law over `K` outcomes given by enclosures `[lo_k, hi_k]` of its
/// probabilities, drawn from by inversion with exact comparisons.
///
/// Outcome `k` is drawn when a uniform `U ∈ [0, 1)` satisfies
/// `C_{k−1} ≤ U < C_k`, `C_k = p_1 + … + p_k` (`C_K = 1`). `U` is generated
/// a block of 64 bits at a time, as the dyadic interval `[u, u + 2^{−m})` of
/// the numbers that its first `m` bits leave possible; the draw is decided
/// as soon as that interval lies inside `[C_{k−1}^{hi}, C_k^{lo})` for some
/// `k`, where `C^{lo}` and `C^{hi}` bound `C` from the enclosures. Every
/// decision is an exact comparison of rationals, so an outcome is drawn with
/// probability exactly `p_k` except on the event that `U` lies within a
/// cumulative enclosure `[C_k^{lo}, C_k^{hi}]` — of probability at most the
/// enclosures' total width, below 10⁻³⁵ for the oracle's laws — where the
/// draw is refused rather than guessed.
#[derive(Clone, Debug)]
pub struct Categorical {
    /// `C_k^{lo}` and `C_k^{hi}`, `k = 1..K` (`C_K` is 1 exactly).
    cumulative: Vec<(Q, Q)>,
    /// `⌊2⁶⁴ C_k^{lo}⌋` and `⌈2⁶⁴ C_k^{hi}⌉`: the same decisions on the
    /// first 64 bits in integers (the rationals decide what these leave).
    scaled: Vec<(u128, u128)>,
}

/// Random bits drawn before a draw is refused: far beyond the enclosures'
/// widths (2⁻¹¹⁶ and less), so that reaching it means `U` is inside one.
const MAX_BITS: u32 = 1024;

impl Categorical {
    /// The law with probabilities enclosed by `law` (each in `[0, 1]`).
    pub fn new(law: &[Enclosed]) -> Result<Categorical> {
        let mut cumulative = Vec::with_capacity(law.len());
        let (mut lo, mut hi) = (Q::zero(), Q::zero());
        for p in law {
            lo += &p.lo;
            hi += &p.hi;
            cumulative.push((lo.clone(), hi.clone()));
        }
        match cumulative.last_mut() {
            Some(last) if last.0 <= Q::one() && Q::one() <= last.1 => {
                *last = (Q::one(), Q::one());
                let two64 = Q::from_integer(BigInt::one() << 64);
                let integer = |x: Q| x.to_integer().try_into().unwrap_or(u128::MAX);
                let scaled = cumulative
                    .iter()
                    .map(|(lo, hi)| {
                        (
                            integer((lo * &two64).floor()),
                            integer((hi * &two64).ceil()),
                        )
                    })
                    .collect();
                Ok(Categorical { cumulative, scaled })
            }
            _ => Err(Error::Domain(
                "a law whose enclosures do not contain a total of 1".into(),
            )),
        }
    }

    /// One outcome (0-based), from `rng`'s bits.
    pub fn draw<R: Rng + ?Sized>(&self, rng: &mut R) -> Result<usize> {
        let first = rng.next_u64();
        // U ∈ [u, u + 1)·2⁻⁶⁴ lies in [C_{k−1}^{hi}, C_k^{lo}) iff
        // ⌈2⁶⁴ C_{k−1}^{hi}⌉ ≤ u and u + 1 ≤ ⌊2⁶⁴ C_k^{lo}⌋.
        let u = u128::from(first);
        let k = self.scaled.partition_point(|&(lo, _)| lo <= u);
        if k < self.scaled.len() && (k == 0 || self.scaled[k - 1].1 <= u) {
            return Ok(k);
        }
        let mut numerator = BigInt::from(first);
        let mut bits = 64u32;
        loop {
            let denominator = BigInt::one() << bits;
            let low = Q::new(numerator.clone(), denominator.clone());
            let high = Q::new(&numerator + 1, denominator);
            // The first k whose lower cumulative bound lies above `low`.
            let k = self.cumulative.partition_point(|(lo, _)| *lo <= low);
            let above_previous = k == 0 || self.cumulative[k - 1].1 <= low;
            if k < self.cumulative.len() && above_previous && high <= self.cumulative[k].0 {
                return Ok(k);
            }
            if bits >= MAX_BITS {
                break;
            }
            numerator = (numerator << 64) + BigInt::from(rng.next_u64());
            bits += 64;
        }
        Err(Error::TooLarge(format!(
            "a uniform draw fell within an enclosure of the law's cumulative probabilities after {MAX_BITS} bits: the law is not precise enough to decide it (draw again with another seed, or ask the law for more digits)"
        )))
    }
}
