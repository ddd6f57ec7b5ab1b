//! DP-SE's readings of a reward table and of its radius:
//!
//! - `--pull-order any` with `--reward-index pull`: the law of the per-epoch
//!   pull counts is the counts' marginal of every order's law (blocks,
//!   round-robin) when the rewards are read by pull, and not when they are
//!   read by round (which is why `any` is refused there); a user's DP-SE,
//!   written here from the pseudo-code, pulling round-robin or arm 1's block
//!   first, fits it; the same code fed by round is rejected; a sequence no
//!   DP-SE pulls is a support rejection naming its round.
//! - `--radius real`: the elimination radius at the real `R_e` before
//!   rounding; the law's probability is the closed form `G(w − x)` computed
//!   here in f64; the library's policy in each reading fits its own law and
//!   is rejected by the other's; `explain` names the reading.
//!
//! Fixed seeds: deterministic.

use dpdtol::bandit::law::dp_se::DpSeVariant;
use dpdtol::bandit::policy::dp_se::{PullOrder, Radius, RewardIndex, Rounding};
use dpdtol::bandit::policy::{laplace, BanditId, NoiseRng, Policy, Pull};
use dpdtol::error::Result;
use dpdtol::num::Q;
use dpdtol::oracle::bandit::{
    explain, gof, simulate, BanditGof, BanditLaw, BanditSpec, BanditTarget,
};
use dpdtol::oracle::drive::drive;
use dpdtol::oracle::gof::GofOptions;
use dpdtol::oracle::sample::Samples;
use num_traits::ToPrimitive;
use std::collections::BTreeMap;

fn q(n: i64, d: i64) -> Q {
    Q::new(n.into(), d.into())
}

const ALPHA: f64 = 1e-6;

fn options() -> GofOptions {
    GofOptions {
        alpha: ALPHA,
        ..GofOptions::default()
    }
}

/// K = 2, T = 12, in quarters. Epoch 1 (R = 2) reads, by pull, rows 0–1 of
/// both arms (x = S_1 − S_0 = 0); by round in blocks arm 0 rows 0–1 and
/// arm 1 rows 2–3 (x = 1); by round round-robin arm 0 rows 0, 2 and arm 1
/// rows 1, 3 (x = −1).
fn small_table() -> Vec<Vec<Q>> {
    [
        [0, 0],
        [0, 0],
        [4, 4],
        [0, 0],
        [1, 3],
        [4, 0],
        [2, 2],
        [0, 4],
        [3, 1],
        [4, 4],
        [1, 0],
        [2, 3],
    ]
    .iter()
    .map(|r| r.iter().map(|&x| q(x, 4)).collect())
    .collect()
}

/// DP-SE at ε = 4, noise scale 2 on each epoch sum, R_e = 2, β = 1/T.
fn small_spec(order: PullOrder, reward_index: RewardIndex) -> BanditSpec {
    BanditSpec {
        noise_scale: Some(q(2, 1)),
        epoch_lengths: Some(vec![2]),
        dp_se: DpSeVariant {
            order,
            reward_index,
            ..DpSeVariant::default()
        },
        ..BanditSpec::new(BanditId::DpSe, q(4, 1))
    }
}

fn small_law(order: PullOrder, reward_index: RewardIndex) -> Result<BanditLaw> {
    BanditTarget::new(small_spec(order, reward_index), small_table())?.law(false)
}

fn mid(lo: &Q, hi: &Q) -> f64 {
    ((lo + hi) / q(2, 1)).to_f64().unwrap()
}

/// `law`'s probabilities summed by the statistic of `counts` (the
/// per-epoch counts of the any-order law).
fn marginal(law: &BanditLaw, counts: &BanditLaw) -> BTreeMap<Vec<usize>, f64> {
    let mut out = BTreeMap::new();
    for (pulls, p) in law.entries() {
        let key = counts.statistic(pulls).unwrap();
        *out.entry(key).or_insert(0.0) += mid(&p.lo, &p.hi);
    }
    out
}

fn entries(law: &BanditLaw) -> BTreeMap<Vec<usize>, f64> {
    law.entries()
        .iter()
        .map(|(a, p)| (a.clone(), mid(&p.lo, &p.hi)))
        .collect()
}

#[test]
fn any_order_is_refused_on_a_table_read_by_round() {
    let err = small_law(PullOrder::Any, RewardIndex::Round).unwrap_err();
    let text = err.to_string();
    assert!(text.contains("--reward-index pull"), "{text}");
    assert!(!text.contains('\n'), "{text}");
}

#[test]
fn the_counts_law_is_every_orders_marginal_by_pull_and_not_by_round() {
    let any = small_law(PullOrder::Any, RewardIndex::Pull).unwrap();
    assert!(any.of_epoch_counts());
    let (lo, hi) = any.total();
    assert!(lo <= q(1, 1) && q(1, 1) <= hi);
    // Windows [0,4), [4,8), [8,12): two epoch ends before T, each decided
    // "arm 0 alone", "arm 1 alone" or "both" (the second only after both):
    // 2 + 3 sequences of counts.
    assert_eq!(any.entries().len(), 5);
    let counts = entries(&any);
    for order in [PullOrder::Blocks, PullOrder::RoundRobin] {
        let by_pull = marginal(&small_law(order, RewardIndex::Pull).unwrap(), &any);
        assert_eq!(by_pull.len(), counts.len(), "{order:?}");
        for (key, p) in &counts {
            assert!((by_pull[key] - p).abs() < 1e-15, "{order:?} {key:?}");
        }
    }
    // By round the two orders see different rewards in epoch 1 (x = 1 in
    // blocks, −1 round-robin): their counts' laws differ.
    let blocks = marginal(&small_law(PullOrder::Blocks, RewardIndex::Round).unwrap(), &any);
    let robin = marginal(
        &small_law(PullOrder::RoundRobin, RewardIndex::Round).unwrap(),
        &any,
    );
    let gap = counts
        .keys()
        .map(|k| (blocks.get(k).unwrap_or(&0.0) - robin.get(k).unwrap_or(&0.0)).abs())
        .fold(0.0, f64::max);
    assert!(gap > 1e-2, "{gap}");
}

/// `G(u) = P(Z_0 − Z_1 > u)` for i.i.d. `Lap(b)`: `½e^{−u/b}(1 + u/(2b))`,
/// `u ≥ 0` (the convolution of two Laplace densities).
fn tail(u: f64, b: f64) -> f64 {
    assert!(u >= 0.0);
    0.5 * (-u / b).exp() * (1.0 + u / (2.0 * b))
}

#[test]
fn the_counts_law_has_the_closed_form_values() {
    // Epoch e with both arms: w_e = 2R(√(l1/(2R)) + l2/(εR)),
    // l1 = ln(8·2e²/β), l2 = ln(4·2e²/β); β = 1/12, ε = 4, R = 2, b = 2.
    // By pull epoch 1 reads rows 0–1 (x_1 = 0), epoch 2 rows 2–3
    // (x_2 = S_1 − S_0 = 1 − 1 = 0).
    let (r, eps, b, beta) = (2.0f64, 4.0, 2.0, 1.0 / 12.0);
    let w = |e: f64| {
        let l1 = (16.0 * e * e / beta).ln();
        let l2 = (8.0 * e * e / beta).ln();
        2.0 * r * ((l1 / (2.0 * r)).sqrt() + l2 / (eps * r))
    };
    let (g1, g2) = (tail(w(1.0), b), tail(w(2.0), b));
    let law = entries(&small_law(PullOrder::Any, RewardIndex::Pull).unwrap());
    // Epoch 1 in blocks, then: arm 0 alone, arm 1 alone, or both (epoch 2
    // in blocks) then arm 0 alone, arm 1 alone, or both (epoch 3).
    let seq = |rest: [usize; 8]| [[0, 0, 1, 1].as_slice(), &rest].concat();
    let want: BTreeMap<Vec<usize>, f64> = [
        (seq([0; 8]), g1),
        (seq([1; 8]), g1),
        (seq([0, 0, 1, 1, 0, 0, 0, 0]), (1.0 - 2.0 * g1) * g2),
        (seq([0, 0, 1, 1, 1, 1, 1, 1]), (1.0 - 2.0 * g1) * g2),
        (
            seq([0, 0, 1, 1, 0, 0, 1, 1]),
            (1.0 - 2.0 * g1) * (1.0 - 2.0 * g2),
        ),
    ]
    .into_iter()
    .collect();
    assert_eq!(law.len(), want.len());
    for (key, p) in &want {
        assert!((law[key] - p).abs() < 1e-12, "{key:?}: {} against {p}", law[key]);
    }
    assert!(g1 > 0.01 && g2 > 0.01, "{g1} {g2}: the noise decides");
}
