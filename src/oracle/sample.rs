//! Seeded reference samples, drawn in parallel and identical for any thread
//! count.
//!
//! Sample `i` (0-based) draws all its randomness from its own stream:
//! `ChaCha8Rng::seed_from_u64(seed)` with `set_stream(i)`, from word 0. The
//! rows are therefore a function of `(seed, i)` alone, whichever thread
//! draws them and in whatever order: every run is reproducible from one seed
//! whatever the thread count.

use super::law::Target;
use crate::error::{Error, Result};
use rand::SeedableRng;
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
    let mut data = vec![0u32; n * horizon];
    if horizon > 0 {
        data.par_chunks_mut(horizon)
            .enumerate()
            .for_each(|(i, row)| {
                let mut rng = stream(seed, i as u64);
                for (out, a) in row.iter_mut().zip(draw(&mut rng)) {
                    *out = a as u32;
                }
            });
    }
    Samples {
        rows: n,
        cols: horizon,
        data,
    }
}

/// `n` reference sequences of `target` from the crate's sampler (the
/// algorithm as printed, in f64), seeded by `seed`.
///
/// ```
/// use dpdtol::mechanism::{Noise, Scale};
/// use dpdtol::num::Q;
/// use dpdtol::oracle::{sample::sample, Target};
/// let q = |n: i64| Q::from_integer(n.into());
/// let target = Target::mechanism(Noise::Gumbel, Scale::beta(q(1)).unwrap(), vec![q(0), q(1)]).unwrap();
/// let a = sample(&target, 100, 42);
/// assert_eq!(a, sample(&target, 100, 42));
/// assert_eq!((a.rows(), a.cols()), (100, 1));
/// ```
pub fn sample(target: &Target, n: usize, seed: u64) -> Samples {
    sample_with(n, target.horizon(), seed, |rng| target.sample_one(rng))
}
