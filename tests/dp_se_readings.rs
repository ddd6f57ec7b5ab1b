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
use dpdtol::bandit::policy::dp_se::{PullOrder, Radius, RewardIndex};
use dpdtol::bandit::policy::Named;
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
    let blocks = marginal(
        &small_law(PullOrder::Blocks, RewardIndex::Round).unwrap(),
        &any,
    );
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
        assert!(
            (law[key] - p).abs() < 1e-12,
            "{key:?}: {} against {p}",
            law[key]
        );
    }
    assert!(g1 > 0.01 && g2 > 0.01, "{g1} {g2}: the noise decides");
}

/// The order a user's DP-SE pulls in, inside an epoch.
#[derive(Clone, Copy)]
enum UserOrder {
    /// 0, 1, 0, 1, …
    RoundRobin,
    /// Arm 1's R pulls, then arm 0's.
    ArmOneFirst,
}

/// A user's DP-SE on K = 2 arms, written from the pseudo-code of
/// `bandit::policy::dp_se` with a fixed `R_e = r`: each epoch pulls both
/// surviving arms `r` times in `order`, then `μ̃_i = (S_i + Lap(b))/r` and
/// arm `j` is dropped when `max μ̃ − μ̃_j > 2(√(ln(16e²/β)/(2r)) +
/// ln(8e²/β)/(εr))`; a lone survivor is pulled to the horizon.
struct UserDpSe {
    order: UserOrder,
    r: u64,
    epsilon: f64,
    beta: f64,
    scale: f64,
    alive: Vec<usize>,
    epoch: u32,
    done: u64,
    sums: [f64; 2],
}

impl UserDpSe {
    fn new(order: UserOrder) -> UserDpSe {
        UserDpSe {
            order,
            r: 2,
            epsilon: 4.0,
            beta: 1.0 / 12.0,
            scale: 2.0,
            alive: vec![0, 1],
            epoch: 1,
            done: 0,
            sums: [0.0; 2],
        }
    }

    fn next_arm(&self) -> usize {
        match self.order {
            UserOrder::RoundRobin => (self.done % 2) as usize,
            UserOrder::ArmOneFirst => usize::from(self.done < self.r),
        }
    }
}

impl Policy for UserDpSe {
    fn arms(&self) -> usize {
        2
    }
    fn choose(&mut self, _t: u64, max_run: u64, _rng: &mut NoiseRng) -> Pull {
        if self.alive.len() == 1 {
            return Pull {
                arm: self.alive[0],
                run: max_run,
            };
        }
        Pull {
            arm: self.next_arm(),
            run: 1,
        }
    }
    fn observe(&mut self, arm: usize, _n: u64, sum: f64, rng: &mut NoiseRng) {
        if self.alive.len() == 1 {
            return;
        }
        self.sums[arm] += sum;
        self.done += 1;
        if self.done < 2 * self.r {
            return;
        }
        let r = self.r as f64;
        let e2 = f64::from(self.epoch * self.epoch);
        let radius = (((16.0 * e2 / self.beta).ln()) / (2.0 * r)).sqrt()
            + (8.0 * e2 / self.beta).ln() / (self.epsilon * r);
        let noisy: Vec<f64> = (0..2)
            .map(|i| (self.sums[i] + laplace(self.scale, rng)) / r)
            .collect();
        let best = noisy[0].max(noisy[1]);
        self.alive.retain(|&j| best - noisy[j] <= 2.0 * radius);
        self.epoch += 1;
        self.done = 0;
        self.sums = [0.0; 2];
    }
}

fn floats(table: &[Vec<Q>]) -> Vec<Vec<f64>> {
    table
        .iter()
        .map(|r| r.iter().map(|x| x.to_f64().unwrap()).collect())
        .collect()
}

fn user(order: UserOrder, index: RewardIndex, seed: u64) -> Samples {
    let make = move || Ok(Box::new(UserDpSe::new(order)) as Box<dyn Policy>);
    drive(make, &floats(&small_table()), index, 20_000, seed, false).unwrap()
}

fn chi_square_p(outcome: &BanditGof) -> f64 {
    outcome.test.as_ref().map_or(0.0, |t| t.p_value)
}

#[test]
fn a_users_dp_se_in_any_order_fed_by_pull_fits_the_counts_law() {
    let any = small_law(PullOrder::Any, RewardIndex::Pull).unwrap();
    for (order, seed) in [(UserOrder::RoundRobin, 3), (UserOrder::ArmOneFirst, 4)] {
        let outcome = gof(&any, &user(order, RewardIndex::Pull, seed), &options()).unwrap();
        assert!(!outcome.reject, "{outcome:?}");
        assert!(outcome.support_violation.is_none());
    }
    // Fed by round, round-robin sees x = −1 in epoch 1 instead of 0.
    let outcome = gof(
        &any,
        &user(UserOrder::RoundRobin, RewardIndex::Round, 5),
        &options(),
    )
    .unwrap();
    assert!(
        outcome.reject && chi_square_p(&outcome) < 1e-9,
        "{outcome:?}"
    );
    // In a fixed order its sequences are not the blocks law's.
    let blocks = small_law(PullOrder::Blocks, RewardIndex::Pull).unwrap();
    let outcome = gof(
        &blocks,
        &user(UserOrder::RoundRobin, RewardIndex::Pull, 6),
        &options(),
    )
    .unwrap();
    assert!(outcome.support_violation.is_some());
}

#[test]
fn a_sequence_no_dp_se_pulls_is_named_by_its_round() {
    let any = small_law(PullOrder::Any, RewardIndex::Pull).unwrap();
    // Arm 0 three times in epoch 1 (R = 2).
    let bad = [0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1];
    let why = any.statistic(&bad).unwrap_err();
    assert!(why.starts_with("round 3:"), "{why}");
    // Arm 0 alone in epoch 2 (arm 1 dropped at its start), then arm 1 in
    // round 10.
    let bad = [1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0];
    let why = any.statistic(&bad).unwrap_err();
    assert!(why.starts_with("round 10:"), "{why}");
    assert_eq!(any.probability(&bad).unwrap().hi, q(0, 1));
    // Epoch 2 mixed with arm 1 pulled three times, the last in round 8.
    let bad = [1, 0, 1, 0, 1, 1, 0, 1, 0, 1, 0, 1];
    let why = any.statistic(&bad).unwrap_err();
    assert!(why.starts_with("round 8:"), "{why}");
    // Any order of a DP-SE sequence has the probability of its counts.
    let robin = [1, 0, 0, 1, 0, 1, 1, 0, 1, 1, 1, 1];
    let blocks = [0, 0, 1, 1, 0, 0, 1, 1, 1, 1, 1, 1];
    assert_eq!(
        any.probability(&robin).unwrap(),
        any.probability(&blocks).unwrap()
    );
    assert!(any.probability(&robin).unwrap().lo > q(0, 1));
}

/// K = 2, T = 740 for DP-SE at its printed lengths with β = 9/10, ε = 1:
/// R_1 = ⌊128 ln(160/9)⌋ + 1 = 369 (the first term of the maximum, 368.38;
/// the second 16 ln(80/9) = 34.96), and R_2 = 2184 ends after T: one epoch
/// end, at round 738. In blocks arm 0 reads rows 0–368 (318 ones, 17/20,
/// zeros: S_0 = 318.85), arm 1 rows 369–737 (ones: S_1 = 369), x = 50.15.
fn radius_table() -> Vec<Vec<Q>> {
    (0..740)
        .map(|t| {
            let zero = match t {
                0..=317 => q(1, 1),
                318 => q(17, 20),
                _ => q(0, 1),
            };
            vec![zero, q(1, 1)]
        })
        .collect()
}

fn radius_spec(radius: Radius) -> BanditSpec {
    BanditSpec {
        noise_scale: Some(q(1, 10)),
        dp_se: DpSeVariant {
            beta: Some(q(9, 10)),
            radius,
            ..DpSeVariant::default()
        },
        ..BanditSpec::new(BanditId::DpSe, q(1, 1))
    }
}

fn radius_law(radius: Radius) -> BanditLaw {
    BanditTarget::new(radius_spec(radius), radius_table())
        .unwrap()
        .law(false)
        .unwrap()
}

#[test]
fn the_real_radius_law_has_its_closed_form() {
    // w = 2R(√(l1/(2ρ)) + l2/(ερ)), l1 = ln(16/β), l2 = ln(8/β), R = 369,
    // ρ = R (integer) or the real max{…} + 1 = 128 l1 + 1 (real); arm 0 is
    // dropped with probability G(w − x), b = 1/10.
    let beta = 0.9f64;
    let (l1, l2) = ((16.0 / beta).ln(), (8.0 / beta).ln());
    let w = |rho: f64| 2.0 * 369.0 * ((l1 / (2.0 * rho)).sqrt() + l2 / rho);
    for (radius, rho) in [(Radius::Integer, 369.0), (Radius::Real, 128.0 * l1 + 1.0)] {
        let law = radius_law(radius);
        let (lo, hi) = law.total();
        assert!(lo <= q(1, 1) && q(1, 1) <= hi);
        assert_eq!(law.entries().len(), 2);
        let mut alone = vec![0; 369];
        alone.resize(740, 1);
        let p = law.probability(&alone).unwrap();
        let want = tail(w(rho) - 50.15, 0.1);
        assert!(
            (mid(&p.lo, &p.hi) - want).abs() < 1e-9,
            "{radius:?}: {} against {want}",
            mid(&p.lo, &p.hi)
        );
    }
}

/// Slow (T = 740 rounds, 20 000 runs, 48 laws): `cargo test --release
/// --test dp_se_readings -- --ignored`.
#[test]
#[ignore]
fn each_radius_fits_its_own_law_and_not_the_others_and_explain_names_it() {
    let laws = [Radius::Integer, Radius::Real].map(|r| (r, radius_law(r)));
    for (seed, played) in [(11, Radius::Integer), (12, Radius::Real)] {
        let samples = simulate(&radius_spec(played), &radius_table(), 20_000, seed, false).unwrap();
        for (tested, law) in &laws {
            let outcome = gof(law, &samples, &options()).unwrap();
            assert_eq!(
                outcome.reject,
                *tested != played,
                "{played:?} against {tested:?}: {outcome:?}"
            );
        }
        let spec = radius_spec(Radius::Integer);
        let fits = explain(&spec, &radius_table(), &samples, &options(), false)
            .unwrap()
            .fits;
        let fitting: Vec<_> = fits.iter().filter(|f| !f.reject).collect();
        // Only β = 9/10 pulls arm 1 alone within T; the ceiling's real R_e
        // is max{…}, one less than floor-plus-one's.
        assert!(
            fitting
                .iter()
                .any(|f| f.readings["rounding"] == "floor-plus-one" && f.readings["beta"] == "9/10"),
            "{fits:?}"
        );
        for fit in &fitting {
            assert_eq!(fit.radius.as_deref(), Some(Named::name(played)), "{fit:?}");
            assert_eq!(fit.pull_order.as_deref(), Some("blocks"), "{fit:?}");
        }
    }
}
