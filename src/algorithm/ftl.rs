//! `ftl`: follow the leader, the non-private baseline (Hu et al. §5 prose,
//! 002 line 80; van Erven et al. 2014). Round `t` plays
//! `min argmin_j Σ_{s<t} ℓ_j^{(s)}`: the lowest cumulative loss so far, ties
//! to the lowest index (so round 1 plays action 1). Deterministic; not
//! private (the checker finds an infinite ratio).

use super::{every_round_schedule, point_mass, window_sums, Choice, OnlineAlgorithm};
use crate::error::Result;
use crate::num::{Real, Q};
use rand::Rng;

/// Follow the leader on K actions.
#[derive(Clone, Debug)]
pub struct Ftl {
    k: usize,
}

impl Ftl {
    /// FTL on `k` actions.
    pub fn new(k: usize) -> Ftl {
        Ftl { k }
    }
}

/// The lowest index among the smallest values.
fn leader<T: PartialOrd>(values: &[T]) -> usize {
    let mut best = 0;
    for (i, v) in values.iter().enumerate() {
        if *v < values[best] {
            best = i;
        }
    }
    best
}

impl OnlineAlgorithm for Ftl {
    fn actions(&self) -> usize {
        self.k
    }

    /// One choice per round `t`, reading rounds `1..t`.
    fn schedule(&self, horizon: usize) -> Vec<Choice> {
        every_round_schedule(horizon)
    }

    /// A point mass on the leader of the window.
    fn choice_law<R: Real>(
        &self,
        _: usize,
        _: &Choice,
        window: &[Vec<Q>],
        ctx: &R::Context,
    ) -> Result<Vec<R>> {
        Ok(point_mass(
            self.k,
            leader(&window_sums(window, self.k)),
            ctx,
        ))
    }

    fn sample<G: Rng + ?Sized>(&self, losses: &[Vec<f64>], _: &mut G) -> Vec<usize> {
        let mut cumulative = vec![0.0; self.k];
        losses
            .iter()
            .map(|vector| {
                let action = leader(&cumulative);
                for (c, l) in cumulative.iter_mut().zip(vector) {
                    *c += l;
                }
                action
            })
            .collect()
    }
}
