//! The oracle (`dpdtol::oracle`) as a user with a fast sampler meets it:
//! correct samplers pass `gof`, planted bugs are caught, samples are the
//! same for any thread count, the audit's bound sits below the exact ε.
//!
//! The planted bugs are in an independent f64 re-implementation of `wu-wang`
//! (Wu & Wang Algorithm 1, Gumbel noise, B = 1), written here from the
//! pseudo-code (000, lines 53–70), not from the crate's sampler. Every test
//! uses fixed seeds; a failure message names them.

use dpdtol::algorithm::{AlgorithmId, Config};
use dpdtol::mechanism::Noise;
use dpdtol::num::Q;
use dpdtol::oracle::audit::{audit, exact_ratios, AuditOptions};
use dpdtol::oracle::gof::{gof, GofOptions, GofReport};
use dpdtol::oracle::sample::{sample, sample_with, simulate};
use dpdtol::oracle::{io, Enclosed, Samples, Target};
use rand::Rng;
use rand_distr::{Distribution, Gumbel};

const K: usize = 3;
const T: usize = 31;

fn q(n: i64, d: i64) -> Q {
    Q::new(n.into(), d.into())
}

/// Round `t` (from 1) has the losses `(t/32, 1/2, 1 − t/32)`: every window
/// sum changes when the window moves by one round, every loss is
/// fractional (so the resampling matters), and within a round the losses
/// are ordered (so one shared uniform orders the resampled losses too).
fn losses() -> Vec<Vec<Q>> {
    (1..=T as i64)
        .map(|t| vec![q(t, 32), q(1, 2), q(32 - t, 32)])
        .collect()
}

fn wu_wang_gumbel_b1() -> Target {
    let mut config = Config::new(AlgorithmId::WuWang, K, q(1, 1));
    config.noise = Some(Noise::Gumbel);
    config.resample = true;
    Target::algorithm(config.build().unwrap(), losses()).unwrap()
}

/// The bugs planted in [`wu_wang`].
#[derive(Clone, Copy, Debug, PartialEq)]
enum Bug {
    None,
    /// Epoch r ≥ 2 ends one round late, at round 2^r instead of 2^r − 1.
    PlaysOffByOne,
    /// Epoch r's selection reads rounds 2^{r−2}−1 .. 2^{r−1}−2 (one early).
    ReadsOffByOne,
    /// The last epoch's noise has twice the scale.
    DoubleScaleLastEpoch,
    /// One uniform per round decides every action's Bernoulli resampling.
    SharedUniform,
}

/// Wu & Wang Algorithm 1 with Gumbel(2/ε) noise, ε = 1, B = 1, on f64
/// losses, 0-based actions, with `bug` planted.
fn wu_wang<R: Rng + ?Sized>(losses: &[Vec<f64>], bug: Bug, rng: &mut R) -> Vec<usize> {
    let k = losses[0].len();
    let t_max = losses.len();
    let beta = 2.0;
    let mut actions = Vec::with_capacity(t_max);
    let mut j = rng.random_range(0..k); // J_0 uniform (line 3)
    let mut start = 1; // epoch r = 1 starts at round 2^0
    let mut epoch = 1;
    while start <= t_max {
        let end = (2 * start - 1).min(t_max); // rounds 2^{r−1} .. 2^r − 1
        let play_to = if bug == Bug::PlaysOffByOne && epoch > 1 {
            (end + 1).min(t_max)
        } else {
            end
        };
        while actions.len() < play_to {
            actions.push(j);
        }
        // G_r: the epoch's resampled losses (lines 9–14).
        let (read_from, read_to) = if bug == Bug::ReadsOffByOne && start > 1 {
            (start - 1, end - 1)
        } else {
            (start, end)
        };
        let mut g = vec![0.0; k];
        for round in &losses[read_from - 1..read_to] {
            let shared: f64 = rng.random();
            for (gj, &l) in g.iter_mut().zip(round) {
                let u = if bug == Bug::SharedUniform {
                    shared
                } else {
                    rng.random()
                };
                *gj += f64::from(u8::from(u < l));
            }
        }
        // J_r = argmax −G_r + Q (line 16).
        let scale = if bug == Bug::DoubleScaleLastEpoch && 2 * start > t_max / 2 {
            2.0 * beta
        } else {
            beta
        };
        let gumbel = Gumbel::new(0.0, scale).unwrap();
        j = (0..k)
            .map(|i| (i, -g[i] + gumbel.sample(rng)))
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .unwrap()
            .0;
        start *= 2;
        epoch += 1;
    }
    actions.truncate(t_max);
    actions
}

fn f64_losses() -> Vec<Vec<f64>> {
    losses()
        .iter()
        .map(|v| v.iter().map(dpdtol::num::Real::to_f64).collect())
        .collect()
}

fn check(bug: Bug, n: usize, seed: u64) -> GofReport {
    let target = wu_wang_gumbel_b1();
    let law = target.law(Default::default()).unwrap();
    let losses = f64_losses();
    let samples = sample_with(n, T, seed, |rng| wu_wang(&losses, bug, rng));
    gof(&law, &samples, &GofOptions::default()).unwrap()
}

#[test]
fn the_crates_own_sampler_passes() {
    let target = wu_wang_gumbel_b1();
    let law = target.law(Default::default()).unwrap();
    for seed in [1, 2] {
        // The f64 simulation of the algorithm as printed, and the reference
        // samples drawn from the law itself.
        for samples in [
            simulate(&target, 100_000, seed),
            sample(&law, 100_000, seed).unwrap(),
        ] {
            let report = gof(&law, &samples, &GofOptions::default()).unwrap();
            assert!(!report.reject, "seed {seed}: {report:?}");
            assert_eq!(report.per_choice.len(), 5);
            assert!(report.joint.is_some());
        }
    }
}

#[test]
fn an_independent_correct_sampler_passes() {
    let report = check(Bug::None, 100_000, 3);
    assert!(!report.reject, "seed 3: {report:?}");
}

#[test]
fn an_epoch_boundary_off_by_one_is_a_support_violation() {
    let report = check(Bug::PlaysOffByOne, 100_000, 4);
    assert!(report.reject, "seed 4");
    let violation = report.support_violation.expect("a support violation");
    assert!(violation.sample < 100, "{violation:?}");
}

#[test]
fn reading_the_epochs_one_round_early_is_rejected() {
    let report = check(Bug::ReadsOffByOne, 100_000, 5);
    assert!(report.support_violation.is_none());
    assert!(report.reject, "seed 5: {report:?}");
}

#[test]
fn a_noise_scale_off_by_two_in_one_epoch_is_rejected() {
    let report = check(Bug::DoubleScaleLastEpoch, 100_000, 6);
    assert!(report.reject, "seed 6: {report:?}");
    // Only the last choice is wrong: its own test sees it.
    let last = report.per_choice.last().unwrap();
    assert!(last.p_value < report.per_test_alpha, "seed 6: {last:?}");
}

#[test]
fn one_uniform_shared_by_all_actions_in_the_resampling_is_rejected() {
    let report = check(Bug::SharedUniform, 100_000, 7);
    assert!(report.reject, "seed 7: {report:?}");
}

#[test]
fn samples_do_not_depend_on_the_thread_count() {
    let law = wu_wang_gumbel_b1().law(Default::default()).unwrap();
    let draw = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| sample(&law, 5000, 11).unwrap())
    };
    let one = draw(1);
    assert_eq!(one, draw(3));
    // And the first rows do not depend on how many rows are drawn.
    assert_eq!(one.slice(0..100), sample(&law, 100, 11).unwrap());
}

#[test]
fn sample_files_round_trip_through_csv_and_npy() {
    let law = wu_wang_gumbel_b1().law(Default::default()).unwrap();
    let samples = sample(&law, 50, 12).unwrap();
    let dir = std::env::temp_dir().join(format!("dpdtol-oracle-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, base) in [("s.csv", 1), ("s.npy", 0), ("t.npy", 1)] {
        let path = dir.join(name);
        io::write_samples(&path, &samples, base).unwrap();
        assert_eq!(io::read_samples(&path, base).unwrap(), samples, "{name}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn tv_sample_size_shrinks_as_the_distance_grows() {
    let target = wu_wang_gumbel_b1();
    let law = target.law(Default::default()).unwrap();
    let samples = sample(&law, 1000, 13).unwrap();
    let n_for = |d: f64| {
        let options = GofOptions {
            tv: Some(d),
            ..GofOptions::default()
        };
        gof(&law, &samples, &options).unwrap().per_choice[1]
            .n_for_tv
            .unwrap()
    };
    // λ*/(4D²): a quarter of the distance needs 16 times the samples.
    let (small, large) = (n_for(0.01), n_for(0.04));
    assert!((small / large - 16.0).abs() < 0.01, "{small} vs {large}");
}

/// A one-shot selection: the exponential mechanism (Gumbel noise) on two
/// actions with losses 0 and 1 at scale 1 is exactly e-DP (ratio e at
/// each action), and the audit's bound must stay below 1 = ln e while
/// being positive with this many samples.
#[test]
fn the_audit_bound_sits_below_the_exact_epsilon() {
    let scale = dpdtol::mechanism::Scale::beta(q(1, 1)).unwrap();
    let x = Target::mechanism(Noise::Gumbel, scale.clone(), vec![q(0, 1), q(1, 1)]).unwrap();
    let y = Target::mechanism(Noise::Gumbel, scale, vec![q(1, 1), q(0, 1)]).unwrap();
    let (sx, sy) = (simulate(&x, 200_000, 21), simulate(&y, 200_000, 22));
    let report = audit(&sx, &sy, &AuditOptions::default()).unwrap();
    // By hand: P(0 | x) = 1/(1 + e^{−1}) = e/(1+e), P(0 | y) = 1/(1+e), a
    // ratio of e, and the same for action 1 the other way: ε = 1 exactly.
    assert!(report.epsilon_lower > 0.9, "seeds 21, 22: {report:?}");
    assert!(report.epsilon_lower < 1.0, "seeds 21, 22: {report:?}");
    let (lx, ly) = (
        x.law(Default::default()).unwrap(),
        y.law(Default::default()).unwrap(),
    );
    let (event, max) = exact_ratios(&lx, &ly, 2, &report).unwrap();
    // Certified enclosures of e, to f64 precision.
    let e = std::f64::consts::E;
    for r in [event.unwrap(), max] {
        let lo = dpdtol::num::Real::to_f64(&r.lo.unwrap());
        let hi = dpdtol::num::Real::to_f64(&r.hi.unwrap());
        assert!(
            (lo - e).abs() < 1e-12 && (hi - e).abs() < 1e-12,
            "{lo} {hi}"
        );
    }
}

#[test]
fn samples_of_the_wrong_horizon_are_bad_input() {
    let target = wu_wang_gumbel_b1();
    let law = target.law(Default::default()).unwrap();
    let short = Samples::new(1, 3, vec![0, 0, 0]).unwrap();
    assert!(gof(&law, &short, &GofOptions::default()).is_err());
}

/// The resampling law of K = 5, T = 63 with fractional losses: the last
/// choice plays rounds 32–63 and reads rounds 16–31, 16 fractional losses
/// a column, so `17⁵ = 1 419 857` outcomes, over the limit: refused with
/// its size and the flag. With losses in {0, 1} the resampling is
/// deterministic and the law costs one selection a choice.
#[test]
fn the_resampling_law_is_refused_above_its_limit() {
    use dpdtol::algorithm::{law_cost, BestOptions, SequenceLaw, MAX_LAW_COST};
    let mut config = Config::new(AlgorithmId::WuWang, 5, q(1, 1));
    config.resample = true;
    let algorithm = config.build().unwrap();
    let fractional: Vec<Vec<Q>> = (0..63).map(|_| vec![q(1, 2); 5]).collect();
    // Σ over the epochs reading 1, 2, 4, 8, 16 rounds of (n + 1)^5, plus 1
    // for round 1: 1 + 2⁵ + 3⁵ + 5⁵ + 9⁵ + 17⁵.
    let want: u128 = 1 + 32 + 243 + 3125 + 59049 + 1_419_857;
    assert_eq!(law_cost(&algorithm, &fractional), want);
    assert!(want > MAX_LAW_COST);
    let refused = SequenceLaw::best(&algorithm, &fractional, BestOptions::default());
    assert!(
        matches!(&refused, Err(dpdtol::Error::TooLarge(m)) if m.contains(&want.to_string()) && m.contains("--force"))
    );
    let binary: Vec<Vec<Q>> = (0..63)
        .map(|t| (0..5).map(|j| q(i64::from((t + j) % 2 == 0), 1)).collect())
        .collect();
    assert_eq!(law_cost(&algorithm, &binary), 6);
}

/// `prefix-softmax` (Cesari & Colomboni §4, temperature 1 for a sharp law)
/// with its prefix length `M_r` drawn uniformly from `{1, …, 2^r}` instead
/// of `{2^{r−1}+1, …, 2^r}` (003, line 150) is rejected; the crate's own
/// sampler passes.
#[test]
fn prefix_softmax_with_a_wrong_prefix_law_is_rejected() {
    use dpdtol::algorithm::prefix_softmax::PrefixSoftmax;
    use dpdtol::mechanism::sampler::report_noisy_max;
    let mut config = Config::new(AlgorithmId::PrefixSoftmax, K, q(1, 1));
    config.noise_scale = Some(q(1, 1));
    let target = Target::algorithm(config.build().unwrap(), losses()).unwrap();
    let law = target.law(Default::default()).unwrap();
    let ok = gof(
        &law,
        &simulate(&target, 100_000, 31),
        &GofOptions::default(),
    )
    .unwrap();
    assert!(!ok.reject, "seed 31: {ok:?}");
    let f = f64_losses();
    let wrong = sample_with(100_000, T, 32, |rng| {
        let mut actions = vec![rng.random_range(0..K)];
        let mut start = 2;
        let mut block = 0; // the block read: B_0 = {1}, B_1 = {2, 3}, …
        while start <= T {
            let lengths = PrefixSoftmax::prefix_lengths(block);
            let m = rng.random_range(1..=*lengths.end()); // the bug
            let mut sums = vec![0.0; K];
            for round in &f[start / 2 - 1..start / 2 - 1 + m] {
                for (s, l) in sums.iter_mut().zip(round) {
                    *s += l;
                }
            }
            let a = report_noisy_max(Noise::Gumbel, &sums, 1.0, rng);
            let end = (2 * start).min(T + 1);
            actions.extend(std::iter::repeat_n(a, end - start));
            start *= 2;
            block += 1;
        }
        actions
    });
    let report = gof(&law, &wrong, &GofOptions::default()).unwrap();
    assert!(report.reject, "seed 32: {report:?}");
}

/// `hu-rnm-ftnl` plays action 1 in round 1 (Hu et al. Algorithm 4, line
/// 2): a sample starting elsewhere is a support violation, at its row.
#[test]
fn an_impossible_first_action_is_a_support_violation() {
    let config = Config::new(AlgorithmId::HuRnmFtnl, K, q(1, 1));
    let target = Target::algorithm(config.build().unwrap(), losses()[..3].to_vec()).unwrap();
    let law = target.law(Default::default()).unwrap();
    let mut data = sample(&law, 10, 41).unwrap().data().to_vec();
    data[5 * 3] = 2; // row 5, round 1
    let samples = Samples::new(10, 3, data).unwrap();
    let report = gof(&law, &samples, &GofOptions::default()).unwrap();
    let violation = report.support_violation.expect("a support violation");
    assert_eq!(violation.sample, 5, "{violation:?}");
    assert!(violation.reason.contains("probability 0"), "{violation:?}");
}

/// One selection at parameters beyond f64 (the parser accepts them): a
/// scale of 10³⁰⁹ (∞ as a double), a loss gap of 10⁻³³⁰ (0 as a double) at
/// a scale of 10⁻³³⁰. The reference samples follow the certified law (the
/// chi-square test passes at 10⁵ samples, seeds fixed), where the f64
/// simulation draws from another distribution and is rejected.
#[test]
fn reference_samples_follow_the_law_beyond_f64() {
    use dpdtol::mechanism::Scale;
    let tiny = Q::new(1.into(), num_bigint::BigInt::from(10).pow(330));
    let huge = Q::from_integer(num_bigint::BigInt::from(10).pow(309));
    let cases = [
        // Law (1/2, 1/2): the double scale is ∞, every score ∞ or NaN.
        (Noise::Gumbel, huge.clone(), vec![q(0, 1), q(1, 1)], true),
        // Law (0.816…, 0.184…) = (1 − e^{−1}/2, e^{−1}/2): the doubles see a
        // gap of 0 at a scale of 0.
        (
            Noise::Exponential,
            tiny.clone(),
            vec![q(0, 1), tiny.clone()],
            true,
        ),
        // Law (1/2, 1/2) at K = 3 with a middle loss of 10⁻³³⁰: not beyond
        // f64's reach in its outcome, but a check of three cumulative bounds.
        (Noise::Laplace, q(1, 1), vec![q(0, 1), tiny, q(0, 1)], false),
    ];
    for (i, (noise, scale, losses, f64_fails)) in cases.into_iter().enumerate() {
        let target = Target::mechanism(noise, Scale::beta(scale).unwrap(), losses).unwrap();
        let law = target.law(Default::default()).unwrap();
        let seed = 50 + i as u64;
        let reference = gof(
            &law,
            &sample(&law, 100_000, seed).unwrap(),
            &GofOptions::default(),
        );
        assert!(!reference.unwrap().reject, "case {i}, seed {seed}");
        if f64_fails {
            let simulated = gof(
                &law,
                &simulate(&target, 100_000, seed),
                &GofOptions::default(),
            );
            assert!(
                simulated.unwrap().reject,
                "case {i}: the f64 simulation passed"
            );
        }
    }
}

/// An RNG that returns `words` in turn, then the last one forever.
struct Words(Vec<u64>, usize);

impl rand::RngCore for Words {
    fn next_u32(&mut self) -> u32 {
        self.next_u64() as u32
    }
    fn next_u64(&mut self) -> u64 {
        let word = self.0[self.1.min(self.0.len() - 1)];
        self.1 += 1;
        word
    }
    fn fill_bytes(&mut self, dst: &mut [u8]) {
        for chunk in dst.chunks_mut(8) {
            let bytes = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&bytes[..chunk.len()]);
        }
    }
}

/// The inversion decides by exact comparison: a uniform number certainly on
/// one side of every cumulative bound is drawn there (with the bits that
/// decide it, however far they go); one inside a cumulative enclosure is
/// refused, never guessed.
#[test]
fn a_categorical_draw_is_decided_exactly_or_refused() {
    use dpdtol::num::Kind;
    use dpdtol::oracle::sample::Categorical;
    let enclosed = |lo: Q, hi: Q| Enclosed {
        kind: Kind::Certified,
        lo,
        hi,
    };
    // p_1 ∈ [1/2 − 2⁻⁷⁰, 1/2 + 2⁻⁷⁰], p_2 its complement: C_1 is enclosed
    // by [1/2 − 2⁻⁷⁰, 1/2 + 2⁻⁷⁰].
    let eps = Q::new(1.into(), num_bigint::BigInt::from(1) << 70);
    let half = q(1, 2);
    let law = Categorical::new(&[
        enclosed(&half - &eps, &half + &eps),
        enclosed(&half - &eps, &half + &eps),
    ])
    .unwrap();
    let draw = |words: &[u64]| law.draw(&mut Words(words.to_vec(), 0));
    // U = 0.000…: outcome 1 (0-based 0); U = 0.111…: outcome 2.
    assert_eq!(draw(&[0]).unwrap(), 0);
    assert_eq!(draw(&[u64::MAX]).unwrap(), 1);
    // U = 0.0111…1 (63 ones), then zeros: U < 1/2 − 2⁻⁶⁴, within 2⁻⁶⁴ of
    // 1/2 after one word; after the second, below C_1's enclosure: outcome 1.
    assert_eq!(draw(&[u64::MAX >> 1, 0]).unwrap(), 0);
    // U = 1/2 + 2⁻⁶⁵ (a 1, then a 1 at bit 65): above 1/2 + 2⁻⁷⁰: outcome 2.
    assert_eq!(draw(&[1 << 63, 1 << 63, 0]).unwrap(), 1);
    // U = 1/2 exactly (a 1, then zeros): inside C_1's enclosure at every
    // number of bits: refused.
    assert!(draw(&[1 << 63, 0]).is_err());
    // Enclosures that do not contain a total of 1 are refused.
    assert!(Categorical::new(&[enclosed(q(1, 4), q(1, 4)), enclosed(q(1, 4), q(1, 4))]).is_err());
}

/// A loss file's JSON numbers are read from their digits, exactly: beyond a
/// double's 17 digits, below its smallest subnormal, above its largest
/// value; strings as p/q; anything else is refused with its round.
#[test]
fn json_loss_numbers_are_read_exactly() {
    use num_bigint::BigInt;
    let ten = |e: u32| BigInt::from(10).pow(e);
    let rows =
        io::parse_losses_json(r#"[[0.1000000000000000000001, 1], [1e-330, "1/3"], [-0, 2.5e+1]]"#)
            .unwrap();
    // 0.1000000000000000000001 = (10²¹ + 1)/10²².
    assert_eq!(rows[0][0], Q::new(ten(21) + 1, ten(22)));
    assert_eq!(rows[1][0], Q::new(1.into(), ten(330)));
    assert_eq!(rows[1][1], q(1, 3));
    assert_eq!(rows[2], vec![q(0, 1), q(25, 1)]);
    for (bad, what) in [
        (r#"[[0, 1], [true, 1]]"#, "round 2"),
        (r#"[[0, 1], [null, 1]]"#, "round 2"),
        (r#"[[0, 1], 7]"#, "round 2"),
        (r#"[[0, 1], [1, 2"#, "array"),
    ] {
        let e = io::parse_losses_json(bad).unwrap_err().to_string();
        assert!(e.contains(what), "{bad}: {e}");
        assert_eq!(e.matches("invalid input").count(), 1, "{bad}: {e}");
    }
}
