//! The exhaustive privacy checker: the papers' flagged claims come out as
//! the specification predicts (with closed forms checked independently),
//! brute force agrees with the product identity, post-processing, scale
//! monotonicity and relabelling behave, shards merge, and the command line
//! keeps its contract.
//!
//! Closed forms (specification §3 and §4, K = 2, loss form, `D = Z₁ − Z₂`):
//! - Laplace RNM, scale `b`: `P(action 1) = P(D > d)` with `d = L₁ − L₂` and
//!   `P(D > d) = ¼(2 + d/b)e^{−d/b}` for `d ≥ 0`; hu-rnm-ftnl (`b = 1/ε`) at
//!   `t = 4` compares the epoch sums `(1,1)` and `(0,2)` (one round of
//!   `{2,3}` changed): `½ / (¼(2 + 2ε)e^{−2ε}) = e^{2ε}/(1 + ε)`.
//! - Exponential RNM (permute-and-flip), scale `s`, K = 2: the worse action
//!   gets `½e^{−gap/s}`; wu-wang Exp(1/ε) at `t = 2`, round 1 `(1,0)` versus
//!   `(0,1)`: `(1 − ½e^{−ε}) / (½e^{−ε}) = 2e^ε − 1`.

use dpdtol::algorithm::{AlgorithmId, Choice, Config, OnlineAlgorithm, SequenceLaw};
use dpdtol::mechanism::{self, Noise, Scale};
use dpdtol::num::{Certified, Exact, Kind, Precision, Real, Q};
use dpdtol::privacy::structural;
use dpdtol::privacy::{
    brute_force, check, decide, merge, product, Attempt, Method, Options, Outcome, Problem, Ratio,
    Report, Shard, Space, Structured, Verdict,
};
use num_bigint::BigInt;
use num_traits::{One, Zero};
use proptest::prelude::*;
use rand::Rng;
use std::process::Command;

fn q(n: i64, d: i64) -> Q {
    Q::new(n.into(), d.into())
}

fn alphabet01() -> Vec<Q> {
    vec![q(0, 1), q(1, 1)]
}

fn alphabet012() -> Vec<Q> {
    vec![q(0, 1), q(1, 2), q(1, 1)]
}

/// Every algorithm and noise variant, as `(label, config)`.
fn variants(k: usize, eps: &Q) -> Vec<(String, Config)> {
    let mut out = Vec::new();
    for id in [
        AlgorithmId::Ftl,
        AlgorithmId::NaiveFtnl,
        AlgorithmId::HuRnmFtnl,
        AlgorithmId::PrefixSoftmax,
    ] {
        out.push((id.name().to_string(), Config::new(id, k, eps.clone())));
    }
    for noise in Noise::ALL {
        for resample in [false, true] {
            let mut c = Config::new(AlgorithmId::WuWang, k, eps.clone());
            c.noise = Some(noise);
            c.resample = resample;
            out.push((format!("wu-wang {noise} B={}", u8::from(resample)), c));
        }
    }
    for id in [AlgorithmId::Hedge, AlgorithmId::DecreasingHedge] {
        out.push((id.name().to_string(), Config::new(id, k, eps.clone())));
    }
    out
}

/// The number of [`variants`].
const VARIANTS: usize = 12;

fn wu_wang(k: usize, eps: &Q, noise: Noise, scale: Option<Q>) -> Config {
    let mut c = Config::new(AlgorithmId::WuWang, k, eps.clone());
    c.noise = Some(noise);
    c.noise_scale = scale;
    c
}

fn run(config: &Config, horizon: usize, alphabet: Vec<Q>) -> Report {
    let algorithm = config.build().unwrap();
    let problem = Problem::new(horizon, alphabet, config.epsilon.clone()).unwrap();
    check(&algorithm, &problem, &Options::default()).unwrap()
}

/// `e^x` for a rational `0 ≤ x ≤ 4`, enclosed by the Taylor series with
/// the tail bound `2·x^{n+1}/(n+1)!` (valid once `n + 2 > 2x`): independent
/// of the crate's numeric backends.
fn exp_enclosure(x: &Q, terms: u32) -> (Q, Q) {
    assert!(*x >= Q::zero() && *x <= q(4, 1));
    let mut sum = Q::zero();
    let mut term = Q::one();
    for n in 0..terms {
        sum += &term;
        term = term * x / Q::from_integer(BigInt::from(n + 1));
    }
    // `term` is now x^terms / terms!; the tail is at most twice it.
    let tail = term * q(2, 1);
    (sum.clone(), sum + tail)
}

/// `|value − target| ≤ 10^{−digits}·target` for every end of the ratio.
fn agrees_to(ratio: &Ratio, target: &(Q, Q), digits: u32) -> bool {
    let tol = Q::new(1.into(), BigInt::from(10).pow(digits));
    let mid = (&target.0 + &target.1) / q(2, 1);
    let close = |v: &Q| {
        let diff = if *v > mid { v - &mid } else { &mid - v };
        diff <= &tol * &mid
    };
    match (ratio.lo(), ratio.hi()) {
        (Some(lo), Some(hi)) => close(lo) && close(hi) && *lo <= target.1 && *hi >= target.0,
        _ => false,
    }
}

/// `P(actions | x) > 0 = P(actions | x')` or the ratio, computed directly
/// from the sequence laws (independently of the product identity).
fn witness_ratio(config: &Config, report: &Report) -> Option<(Q, Q)> {
    let algorithm = config.build().unwrap();
    let bits = Precision(160);
    let p = SequenceLaw::<Certified>::of(&algorithm, &report.witness.losses, &bits)
        .unwrap()
        .probability(&report.witness.actions, &bits);
    let p2 = SequenceLaw::<Certified>::of(&algorithm, &report.witness.neighbour, &bits)
        .unwrap()
        .probability(&report.witness.actions, &bits);
    assert!(
        !p.is_zero_certain(),
        "the witness actions have probability 0 under x"
    );
    if p2.is_zero_certain() {
        None
    } else {
        (p / p2).enclosure()
    }
}

fn differing_rounds(report: &Report) -> usize {
    report
        .witness
        .losses
        .iter()
        .zip(&report.witness.neighbour)
        .filter(|(a, b)| a != b)
        .count()
}

// ---------------------------------------------------------------- findings

#[test]
fn ftl_is_violated_with_an_infinite_ratio_and_a_witness() {
    let report = run(&Config::new(AlgorithmId::Ftl, 2, q(1, 1)), 2, alphabet01());
    assert_eq!(report.verdict, Verdict::Violated);
    assert_eq!(report.max_ratio, Ratio::Infinite);
    assert_eq!(report.kind, Kind::Exact);
    // Structural candidates: round 1 is read by round 2's choice alone,
    // through the sums (one class of the 0 other rounds, 4 old vectors, 3
    // new ones: 12); round 2 is read by nobody (1).
    assert_eq!(report.pairs, 12 + 1);
    assert_eq!(report.method, Method::Structural);
    assert_eq!(differing_rounds(&report), 1);
    let algorithm = Config::new(AlgorithmId::Ftl, 2, q(1, 1)).build().unwrap();
    let p = SequenceLaw::<Exact>::of(&algorithm, &report.witness.losses, &()).unwrap();
    let p2 = SequenceLaw::<Exact>::of(&algorithm, &report.witness.neighbour, &()).unwrap();
    assert_eq!(p.probability(&report.witness.actions, &()), Q::one());
    assert_eq!(p2.probability(&report.witness.actions, &()), Q::zero());
}

#[test]
fn hu_rnm_ftnl_default_scale_is_violated_with_the_closed_form_ratio() {
    // ε = 1: e²/2; ε = 1/2: e/(3/2). The maximum over all pairs at t = 4 is
    // the closed form (the other epoch changes move the gap by at most 2).
    for (eps, denominator) in [(q(1, 1), q(2, 1)), (q(1, 2), q(3, 2))] {
        let config = Config::new(AlgorithmId::HuRnmFtnl, 2, eps.clone());
        let report = run(&config, 4, alphabet01());
        assert_eq!(report.verdict, Verdict::Violated, "ε = {eps}");
        let (lo, hi) = exp_enclosure(&(&eps * q(2, 1)), 60);
        let target = (lo / &denominator, hi / &denominator);
        assert!(
            agrees_to(&report.max_ratio, &target, 30),
            "ε = {eps}: {:?} vs {target:?}",
            report.max_ratio
        );
        // The witness: one round of epoch {2,3} changed, ratio recomputed
        // from the sequence laws.
        assert_eq!(differing_rounds(&report), 1);
        assert!([2, 3].contains(&report.witness.round));
        let direct = witness_ratio(&config, &report).expect("finite ratio");
        assert!(agrees_to(
            &Ratio::Certified {
                lo: direct.0,
                hi: direct.1
            },
            &target,
            30
        ));
    }
}

#[test]
fn closed_form_for_hu_at_epsilon_one_to_30_digits() {
    // e²/2 = 3.694528049465325113615213730287503906590... (the digits of e²
    // = 7.389056098930650227230427460575007813180...).
    let (lo, hi) = exp_enclosure(&q(2, 1), 80);
    let printed = Q::new(
        BigInt::parse_bytes(b"3694528049465325113615213730287503906590", 10).unwrap(),
        BigInt::from(10).pow(39),
    );
    let ulp = Q::new(1.into(), BigInt::from(10).pow(39));
    assert!(hi - &lo < Q::new(1.into(), BigInt::from(10).pow(60)));
    let half = lo / q(2, 1);
    let diff = if printed > half {
        &printed - &half
    } else {
        &half - &printed
    };
    assert!(
        diff <= ulp,
        "e²/2 is not 3.694528049465325113615213730287503906590"
    );
}

#[test]
fn wu_wang_exponential_at_one_over_epsilon_is_violated_with_2e_eps_minus_1() {
    for eps in [q(1, 1), q(1, 2)] {
        let config = wu_wang(2, &eps, Noise::Exponential, None);
        let report = run(&config, 2, alphabet01());
        assert_eq!(report.verdict, Verdict::Violated, "ε = {eps}");
        let (lo, hi) = exp_enclosure(&eps, 60);
        let target = (lo * q(2, 1) - q(1, 1), hi * q(2, 1) - q(1, 1));
        assert!(
            agrees_to(&report.max_ratio, &target, 30),
            "ε = {eps}: {:?}",
            report.max_ratio
        );
        assert_eq!(report.witness.round, 1);
        let mut losses = report.witness.losses[0].clone();
        losses.sort();
        assert_eq!(losses, alphabet01(), "round 1 is (1,0) or (0,1)");
    }
}

#[test]
fn a_planted_wrong_scale_is_caught() {
    let eps = q(1, 1);
    let over = |c: i64| Some(q(c, 1) / &eps);
    for (noise, scale, expected) in [
        (Noise::Laplace, over(1), Verdict::Violated),
        (Noise::Laplace, over(2), Verdict::Private),
        (Noise::Gumbel, over(1), Verdict::Violated),
        (Noise::Gumbel, over(2), Verdict::Private),
        (Noise::Exponential, over(1), Verdict::Violated),
    ] {
        let report = run(&wu_wang(2, &eps, noise, scale.clone()), 4, alphabet01());
        assert_eq!(
            report.verdict, expected,
            "{noise} at scale {scale:?}: {:?}",
            report.max_ratio
        );
    }
}

#[test]
fn a_ratio_equal_to_e_eps_is_decided_exactly() {
    // Exponential noise at the corrected scale 2/ε: at t = 4 the epoch sums
    // (1,1) and (0,2) give the worse action ½ versus ½e^{−2/s}, a ratio of
    // exactly e^{2/s} = e^ε — which no interval can show ≤ against the
    // transcendental bound it equals, but the field Q(e^{1/q}) decides:
    // private, maximum attained, by both methods, with the enclosures
    // containing e^ε. At t = 2 the ratio is 2e^{ε/2} − 1 < e^ε: private, not
    // attained.
    for eps in [q(1, 1), q(1, 2)] {
        let config = wu_wang(2, &eps, Noise::Exponential, Some(q(2, 1) / &eps));
        let algorithm = config.build().unwrap();
        let problem = Problem::new(4, alphabet01(), eps.clone()).unwrap();
        for method in [Method::Structural, Method::Enumeration] {
            let options = Options {
                method,
                ..Options::default()
            };
            let report = check(&algorithm, &problem, &options).unwrap();
            assert_eq!(report.verdict, Verdict::Private, "{method:?}");
            assert!(report.attained, "{method:?}: {:?}", report.max_ratio);
            let e = exp_enclosure(&eps, 80);
            assert!(
                *report.max_ratio.lo().unwrap() <= e.1 && e.0 <= *report.max_ratio.hi().unwrap()
            );
        }
        let report = run(&config, 2, alphabet01());
        assert_eq!(report.verdict, Verdict::Private);
        assert!(!report.attained);
    }
}

#[test]
fn ww_thm4_exponential2_instance_is_decided_with_the_equality_exact() {
    // The registry's first instance of ww-thm4-exponential2 (K = 2, t = 6,
    // alphabet {0,1}, ε = 1/2, Exp(2/ε)): decided, maximum = e^ε exactly.
    let eps = q(1, 2);
    let config = wu_wang(2, &eps, Noise::Exponential, Some(q(4, 1)));
    let report = run(&config, 6, alphabet01());
    assert_eq!(report.verdict, Verdict::Private);
    assert!(report.attained);
}

#[test]
fn prefix_softmax_is_private_within_e_to_the_2_eta() {
    // η = min{ε/2, 1/8}: ε = 1 gives η = 1/8 and the bound e^{1/4} < e^ε.
    for (eps, two_eta) in [(q(1, 1), q(1, 4)), (q(1, 8), q(1, 8))] {
        let report = run(
            &Config::new(AlgorithmId::PrefixSoftmax, 2, eps.clone()),
            5,
            alphabet01(),
        );
        assert_eq!(report.verdict, Verdict::Private, "ε = {eps}");
        let (e_lo, _) = exp_enclosure(&two_eta, 40);
        assert!(
            *report.max_ratio.hi().unwrap() <= e_lo,
            "{:?} above e^(2η)",
            report.max_ratio
        );
        assert!(*report.max_ratio.lo().unwrap() > Q::one());
    }
}

#[test]
fn naive_ftnl_is_private() {
    for (k, t) in [(2, 4), (3, 2)] {
        let report = run(
            &Config::new(AlgorithmId::NaiveFtnl, k, q(1, 1)),
            t,
            alphabet01(),
        );
        assert_eq!(report.verdict, Verdict::Private, "K = {k}, t = {t}");
    }
}

// ------------------------------------------------- brute force vs product

/// A test algorithm whose choices read overlapping windows: every round is
/// a softmax on all previous losses (`hedge`'s law, here with no statistic
/// declared), so the product path multiplies several finite factors.
#[derive(Clone)]
struct CumulativeSoftmax {
    k: usize,
    scale: Q,
}

/// No statistic declared: the structural method reads whole windows.
impl Structured for CumulativeSoftmax {}

impl OnlineAlgorithm for CumulativeSoftmax {
    fn actions(&self) -> usize {
        self.k
    }
    fn schedule(&self, horizon: usize) -> Vec<Choice> {
        dpdtol::algorithm::every_round_schedule(horizon)
    }
    fn choice_law<R: Real>(
        &self,
        _: usize,
        _: &Choice,
        window: &[Vec<Q>],
        ctx: &R::Context,
    ) -> dpdtol::Result<Vec<R>> {
        let sums = dpdtol::algorithm::window_sums(window, self.k);
        mechanism::law::<R>(Noise::Gumbel, &sums, &Scale::Beta(self.scale.clone()), ctx)
    }
    fn sample<G: Rng + ?Sized>(&self, _: &[Vec<f64>], _: &mut G) -> Vec<usize> {
        unimplemented!("not sampled in these tests")
    }
}

fn done(attempt: Attempt) -> Outcome {
    match attempt {
        Attempt::Done(outcome) => *outcome,
        Attempt::Undetermined(why) => panic!("undetermined: {why}"),
    }
}

fn overlaps(a: &Ratio, b: &Ratio) -> bool {
    match (a.lo(), a.hi(), b.lo(), b.hi()) {
        (None, None, None, None) => true,
        (Some(alo), Some(ahi), Some(blo), Some(bhi)) => alo <= bhi && blo <= ahi,
        _ => false,
    }
}

fn product_vs_brute<A: OnlineAlgorithm>(label: &str, algorithm: &A, problem: &Problem) {
    let bits = Precision(128);
    let fast = done(product::<Certified, A>(algorithm, problem, Shard::WHOLE, &bits).unwrap());
    let slow = done(brute_force::<Certified, A>(algorithm, problem, &bits).unwrap());
    assert_eq!(fast.pairs, slow.pairs, "{label}");
    assert!(
        overlaps(&fast.max_ratio, &slow.max_ratio),
        "{label}: product {:?} vs brute force {:?}",
        fast.max_ratio,
        slow.max_ratio
    );
    // The product's witness action sequence attains its ratio.
    assert!(
        overlaps(&fast.witness.ratio, &slow.max_ratio),
        "{label}: witness {:?}",
        fast.witness
    );
}

#[test]
fn brute_force_agrees_with_the_product_identity_for_every_algorithm() {
    assert_eq!(variants(2, &q(1, 1)).len(), VARIANTS);
    for eps in [q(1, 1), q(1, 2)] {
        for (label, config) in variants(2, &eps) {
            let algorithm = config.build().unwrap();
            for (t, alphabet) in [(1, alphabet01()), (3, alphabet01()), (2, alphabet012())] {
                let problem = Problem::new(t, alphabet, eps.clone()).unwrap();
                product_vs_brute(
                    &format!("{label}, ε = {eps}, t = {t}"),
                    &algorithm,
                    &problem,
                );
            }
        }
    }
}

#[test]
fn brute_force_agrees_exactly_for_ftl() {
    let algorithm = Config::new(AlgorithmId::Ftl, 2, q(1, 1)).build().unwrap();
    for t in 1..=3 {
        let problem = Problem::new(t, alphabet012(), q(1, 1)).unwrap();
        let fast = done(product::<Exact, _>(&algorithm, &problem, Shard::WHOLE, &()).unwrap());
        let slow = done(brute_force::<Exact, _>(&algorithm, &problem, &()).unwrap());
        assert_eq!(fast.max_ratio, slow.max_ratio, "t = {t}");
        assert_eq!(fast.pairs, slow.pairs);
        // At t = 1 nothing is read: every ratio is exactly 1.
        if t == 1 {
            assert_eq!(fast.max_ratio, Ratio::Exact(Q::one()));
        }
    }
}

#[test]
fn brute_force_agrees_with_overlapping_windows() {
    let algorithm = CumulativeSoftmax {
        k: 2,
        scale: q(1, 1),
    };
    for (t, alphabet) in [(3, alphabet01()), (2, alphabet012())] {
        let problem = Problem::new(t, alphabet, q(1, 1)).unwrap();
        product_vs_brute(
            &format!("cumulative softmax, t = {t}"),
            &algorithm,
            &problem,
        );
    }
    // Each changed round enters every later sum: the loss of privacy grows
    // with the number of later rounds, e^{2/β} per round at most.
    let problem = Problem::new(3, alphabet01(), q(1, 1)).unwrap();
    let out =
        done(product::<Certified, _>(&algorithm, &problem, Shard::WHOLE, &Precision(128)).unwrap());
    let (e2, _) = exp_enclosure(&q(2, 1), 40);
    assert!(
        *out.max_ratio.lo().unwrap() > e2,
        "two later rounds read round 1: {:?}",
        out.max_ratio
    );
    let (_, e4) = exp_enclosure(&q(4, 1), 60);
    assert!(*out.max_ratio.hi().unwrap() <= e4);
}

// ------------------------------------------------------ property tests

/// The law of `f(a)` under `x` (the pushforward), for every sequence `x`.
fn pushforward_max(
    algorithm: &impl OnlineAlgorithm,
    problem: &Problem,
    f: impl Fn(&[usize]) -> usize,
    outcomes: usize,
) -> Option<Q> {
    let bits = Precision(128);
    let space = Space::new(algorithm.actions(), problem).unwrap();
    let (t, k) = (problem.horizon, algorithm.actions());
    let actions: Vec<Vec<usize>> = (0..k.pow(t as u32))
        .map(|i| {
            (0..t)
                .map(|s| (i / k.pow((t - 1 - s) as u32)) % k)
                .collect()
        })
        .collect();
    let laws: Vec<Vec<Certified>> = (0..space.sequences())
        .map(|x| {
            let law = SequenceLaw::<Certified>::of(algorithm, &space.sequence(x), &bits).unwrap();
            let mut push = vec![Certified::from_int(0, &bits); outcomes];
            for a in &actions {
                let y = f(a);
                push[y] = push[y].clone() + law.probability(a, &bits);
            }
            push
        })
        .collect();
    // The largest lower end over pairs and outcomes (None: infinite).
    let mut best = Some(Q::zero());
    let n = space.vector_count();
    for x in 0..space.sequences() {
        for s in 0..t {
            let old = space.digit(x, s);
            let place = space.powers[t - 1 - s];
            for v in (0..n).filter(|&v| v != old) {
                let x2 = x - old * place + v * place;
                for (p, p2) in laws[x as usize].iter().zip(&laws[x2 as usize]) {
                    if p.is_zero_certain() {
                        continue;
                    }
                    if p2.is_zero_certain() {
                        best = None;
                        continue;
                    }
                    let (lo, _) = (p.clone() / p2).enclosure().unwrap();
                    if let Some(b) = &best {
                        if lo > *b {
                            best = Some(lo);
                        }
                    }
                }
            }
        }
        if best.is_none() {
            break;
        }
    }
    best
}

fn small_config() -> impl Strategy<Value = (Config, usize, bool)> {
    let eps = prop_oneof![Just(q(1, 2)), Just(q(1, 1))];
    (eps, 0..VARIANTS, 2..=3usize, any::<bool>()).prop_map(|(eps, i, t, wide)| {
        let (_, config) = variants(2, &eps).swap_remove(i);
        (config, t, wide)
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, failure_persistence: None, ..ProptestConfig::default() })]

    /// Post-processing: the law of the last action, or of the number of
    /// times action 1 is played, never has a larger ratio than the whole
    /// action sequence.
    #[test]
    fn post_processing_never_increases_the_ratio((config, t, wide) in small_config()) {
        let algorithm = config.build().unwrap();
        let alphabet = if wide && t == 2 { alphabet012() } else { alphabet01() };
        let problem = Problem::new(t, alphabet, config.epsilon.clone()).unwrap();
        let full = done(product::<Certified, _>(&algorithm, &problem, Shard::WHOLE, &Precision(128)).unwrap());
        let last = pushforward_max(&algorithm, &problem, |a| a[a.len() - 1], 2);
        let count = pushforward_max(&algorithm, &problem, |a| a.iter().filter(|&&j| j == 0).count(), t + 1);
        for (what, push) in [("last action", last), ("count of action 1", count)] {
            match (push, full.max_ratio.hi()) {
                (None, hi) => prop_assert!(hi.is_none(), "{what}: infinite, but the full ratio is {:?}", full.max_ratio),
                (Some(_), None) => {}
                (Some(lo), Some(hi)) => prop_assert!(lo <= *hi, "{what}: {lo} > {hi}"),
            }
        }
    }

    /// More noise never loses more privacy (wu-wang, each noise).
    #[test]
    fn ratio_is_non_increasing_in_the_noise_scale(
        noise in prop_oneof![Just(Noise::Laplace), Just(Noise::Exponential), Just(Noise::Gumbel)],
        a in 1i64..12, b in 1i64..12, t in 2usize..=4,
    ) {
        let (small, large) = (q(a.min(b), 4), q(a.max(b), 4));
        let eps = q(1, 1);
        // At one precision (a ratio can equal e^ε exactly, which `check`
        // would refine in vain).
        let at = |s: &Q| {
            let algorithm = wu_wang(2, &eps, noise, Some(s.clone())).build().unwrap();
            let problem = Problem::new(t, alphabet01(), eps.clone()).unwrap();
            done(product::<Certified, _>(&algorithm, &problem, Shard::WHOLE, &Precision(128)).unwrap()).max_ratio
        };
        let (r_small, r_large) = (at(&small), at(&large));
        prop_assert!(
            *r_large.lo().unwrap() <= *r_small.hi().unwrap(),
            "{noise}: scale {large} gives {r_large:?} > scale {small} gives {r_small:?}"
        );
    }

    /// Relabelling the actions (laws and samplers permuted) leaves the
    /// maximum ratio unchanged.
    #[test]
    fn max_ratio_is_invariant_under_relabelling(i in 1usize..VARIANTS, perm in Just(vec![2usize, 0, 1]).prop_shuffle()) {
        let eps = q(1, 1);
        let (label, config) = variants(3, &eps).swap_remove(i);
        prop_assume!(config.id != AlgorithmId::Ftl);
        let inner = config.build().unwrap();
        let relabelled = Relabelled { inner: inner.clone(), perm: perm.clone() };
        let problem = Problem::new(2, alphabet01(), eps).unwrap();
        let bits = Precision(128);
        let a = done(product::<Certified, _>(&inner, &problem, Shard::WHOLE, &bits).unwrap());
        let b = done(product::<Certified, _>(&relabelled, &problem, Shard::WHOLE, &bits).unwrap());
        prop_assert!(overlaps(&a.max_ratio, &b.max_ratio), "{label}, {perm:?}: {:?} vs {:?}", a.max_ratio, b.max_ratio);
    }
}

/// `inner` with action `j` relabelled: new action `j` is old action
/// `perm[j]` (its losses and its probability).
struct Relabelled<A> {
    inner: A,
    perm: Vec<usize>,
}

impl<A: OnlineAlgorithm> OnlineAlgorithm for Relabelled<A> {
    fn actions(&self) -> usize {
        self.inner.actions()
    }
    fn schedule(&self, horizon: usize) -> Vec<Choice> {
        self.inner.schedule(horizon)
    }
    fn choice_law<R: Real>(
        &self,
        index: usize,
        choice: &Choice,
        window: &[Vec<Q>],
        ctx: &R::Context,
    ) -> dpdtol::Result<Vec<R>> {
        let old: Vec<Vec<Q>> = window
            .iter()
            .map(|v| {
                let mut o = v.clone();
                for (j, &p) in self.perm.iter().enumerate() {
                    o[p] = v[j].clone();
                }
                o
            })
            .collect();
        let law = self.inner.choice_law::<R>(index, choice, &old, ctx)?;
        Ok(self.perm.iter().map(|&p| law[p].clone()).collect())
    }
    fn sample<G: Rng + ?Sized>(&self, losses: &[Vec<f64>], rng: &mut G) -> Vec<usize> {
        let old: Vec<Vec<f64>> = losses
            .iter()
            .map(|v| {
                let mut o = v.clone();
                for (j, &p) in self.perm.iter().enumerate() {
                    o[p] = v[j];
                }
                o
            })
            .collect();
        self.inner
            .sample(&old, rng)
            .into_iter()
            .map(|a| self.perm.iter().position(|&p| p == a).unwrap_or(a))
            .collect()
    }
}

#[test]
fn relabelling_changes_the_laws_but_not_the_ratio() {
    // A sanity check of the wrapper itself: hu-rnm-ftnl plays action 1 in
    // round 1, the relabelled one plays action perm⁻¹(1).
    let inner = Config::new(AlgorithmId::HuRnmFtnl, 3, q(1, 1))
        .build()
        .unwrap();
    let relabelled = Relabelled {
        inner,
        perm: vec![1, 2, 0],
    };
    let law = SequenceLaw::<Exact>::of(&relabelled, &[vec![q(0, 1); 3]], &()).unwrap();
    assert_eq!(law.choices[0].1, vec![q(0, 1), q(0, 1), q(1, 1)]);
}

// ------------------------------------------------ structure vs enumeration

/// The two methods of `check` on one problem: same verdict, attained flag
/// and maximum (equal when exact, overlapping enclosures otherwise), both
/// witness ratios at the maximum, and the structural witness a real pair of
/// neighbours whose actions' ratio, recomputed from the sequence laws,
/// encloses the maximum.
fn methods_agree(
    label: &str,
    config: &Config,
    t: usize,
    alphabet: Vec<Q>,
) -> Result<(), TestCaseError> {
    let algorithm = config.build().unwrap();
    let problem = Problem::new(t, alphabet.clone(), config.epsilon.clone()).unwrap();
    let with = |method| {
        let options = Options {
            method,
            ..Options::default()
        };
        check(&algorithm, &problem, &options).unwrap()
    };
    let (s, e) = (with(Method::Structural), with(Method::Enumeration));
    prop_assert_eq!(s.verdict, e.verdict, "{}", label);
    prop_assert_eq!(s.attained, e.attained, "{}", label);
    prop_assert_eq!(s.kind, e.kind, "{}", label);
    if s.kind == Kind::Exact {
        prop_assert_eq!(&s.max_ratio, &e.max_ratio, "{}", label);
        prop_assert_eq!(&s.witness.ratio, &e.witness.ratio, "{}", label);
    } else {
        prop_assert!(
            overlaps(&s.max_ratio, &e.max_ratio),
            "{}: {:?} vs {:?}",
            label,
            s.max_ratio,
            e.max_ratio
        );
        prop_assert!(overlaps(&s.witness.ratio, &e.witness.ratio), "{}", label);
    }
    // A real pair: t rounds of K letters, differing in the witness round only.
    let w = &s.witness;
    prop_assert_eq!(w.losses.len(), t);
    let differing: Vec<usize> = (0..t).filter(|&r| w.losses[r] != w.neighbour[r]).collect();
    prop_assert_eq!(differing, vec![w.round - 1], "{}", label);
    for v in w.losses.iter().chain(&w.neighbour) {
        prop_assert!(v.len() == config.actions && v.iter().all(|l| alphabet.contains(l)));
    }
    let bits = Precision(128);
    let p = SequenceLaw::<Certified>::of(&algorithm, &w.losses, &bits)
        .unwrap()
        .probability(&w.actions, &bits);
    let p2 = SequenceLaw::<Certified>::of(&algorithm, &w.neighbour, &bits)
        .unwrap()
        .probability(&w.actions, &bits);
    if p2.is_zero_certain() {
        prop_assert_eq!(&s.max_ratio, &Ratio::Infinite, "{}", label);
    } else {
        let (lo, hi) = (p / &p2).enclosure().unwrap();
        let recomputed = Ratio::Certified { lo, hi };
        prop_assert!(
            overlaps(&recomputed, &s.max_ratio),
            "{}: witness {:?} vs {:?}",
            label,
            recomputed,
            s.max_ratio
        );
    }
    Ok(())
}

/// `(variant, K, letters, t, ε)` with at most `budget` ordered pairs (what
/// the enumeration visits).
fn agreement_case(
    budget: u64,
    horizon: usize,
) -> impl Strategy<Value = (usize, usize, usize, usize, Q)> {
    (
        0..VARIANTS,
        2..=3usize,
        2..=3usize,
        1..=horizon,
        prop_oneof![Just(q(1, 2)), Just(q(1, 1))],
    )
        .prop_filter(
            "the enumeration must stay small",
            move |(_, k, letters, t, _)| {
                let n = (*letters as u64).pow(*k as u32);
                n.checked_pow(*t as u32)
                    .and_then(|s| s.checked_mul(*t as u64 * (n - 1)))
                    .is_some_and(|pairs| pairs <= budget)
            },
        )
}

/// The alphabet of `letters` losses of a generated case: {0, 1} or {0, 1, 2}.
fn alphabet_of(letters: usize) -> Vec<Q> {
    if letters == 2 {
        alphabet01()
    } else {
        alphabet012()
    }
}

fn agreement(case: (usize, usize, usize, usize, Q)) -> Result<(), TestCaseError> {
    let (i, k, letters, t, eps) = case;
    let (label, config) = variants(k, &eps).swap_remove(i);
    let alphabet = alphabet_of(letters);
    methods_agree(
        &format!("{label}, K = {k}, |V| = {letters}, t = {t}, ε = {eps}"),
        &config,
        t,
        alphabet,
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]

    /// Structure and enumeration agree on every algorithm (K ≤ 3, alphabets
    /// of 2–3 values, small t).
    #[test]
    fn structure_and_enumeration_agree(case in agreement_case(4_000, 6)) {
        agreement(case)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

    /// The same up to t = 6 and 10^6 ordered pairs (slow: CI's ignored step).
    #[test]
    #[ignore]
    fn structure_and_enumeration_agree_up_to_horizon_6(case in agreement_case(1_000_000, 6)) {
        agreement(case)?;
    }
}

#[test]
fn structure_and_enumeration_agree_on_overlapping_windows() {
    // The cumulative softmax reads every earlier round in every choice: the
    // structural method enumerates the union of the readers' windows.
    let algorithm = CumulativeSoftmax {
        k: 2,
        scale: q(1, 1),
    };
    for (t, alphabet) in [(3, alphabet01()), (2, alphabet012())] {
        let problem = Problem::new(t, alphabet, q(1, 1)).unwrap();
        let bits = Precision(128);
        let s =
            done(structural::<Certified, _>(&algorithm, &problem, Shard::WHOLE, &bits).unwrap());
        let e = done(product::<Certified, _>(&algorithm, &problem, Shard::WHOLE, &bits).unwrap());
        assert!(
            overlaps(&s.max_ratio, &e.max_ratio),
            "t = {t}: {:?} vs {:?}",
            s.max_ratio,
            e.max_ratio
        );
    }
}

// -------------------------------------------------------------- sharding

fn assert_same(a: &Report, b: &Report, what: &str) {
    assert_eq!(a.max_ratio, b.max_ratio, "{what}");
    assert_eq!(a.witness, b.witness, "{what}");
    assert_eq!(a.pairs, b.pairs, "{what}");
    assert_eq!(a.verdict, b.verdict, "{what}");
    assert_eq!(a.kind, b.kind, "{what}");
}

#[test]
fn merged_shards_equal_the_whole_run() {
    let eps = q(1, 1);
    for (label, config) in [
        (
            "prefix-softmax",
            Config::new(AlgorithmId::PrefixSoftmax, 2, eps.clone()),
        ),
        (
            "hu-rnm-ftnl",
            Config::new(AlgorithmId::HuRnmFtnl, 2, eps.clone()),
        ),
        ("ftl", Config::new(AlgorithmId::Ftl, 2, eps.clone())),
        (
            "wu-wang exponential",
            wu_wang(2, &eps, Noise::Exponential, None),
        ),
    ] {
        let algorithm = config.build().unwrap();
        let problem = Problem::new(4, alphabet01(), eps.clone()).unwrap();
        let whole = check(&algorithm, &problem, &Options::default()).unwrap();
        let counts: &[u64] = if label == "ftl" {
            &[2, 3, 7, 64]
        } else {
            &[2, 3, 7]
        };
        for &n in counts {
            let mut shards: Vec<Report> = (1..=n)
                .map(|i| {
                    let options = Options {
                        shard: Shard::new(i, n).unwrap(),
                        ..Options::default()
                    };
                    check(&algorithm, &problem, &options).unwrap()
                })
                .collect();
            assert_eq!(shards.iter().map(|r| r.pairs).sum::<u64>(), whole.pairs);
            shards.reverse();
            let merged = merge(&shards).unwrap();
            assert_same(&merged, &whole, &format!("{label}, {n} shards"));
            assert_eq!(merged.shard, Shard::WHOLE);
        }
    }
}

#[test]
fn merge_refuses_incomplete_or_mismatched_shards() {
    let config = Config::new(AlgorithmId::NaiveFtnl, 2, q(1, 1));
    let algorithm = config.build().unwrap();
    let problem = Problem::new(2, alphabet01(), q(1, 1)).unwrap();
    let shard = |i, n| {
        check(
            &algorithm,
            &problem,
            &Options {
                shard: Shard::new(i, n).unwrap(),
                ..Options::default()
            },
        )
        .unwrap()
    };
    assert!(
        merge(&[shard(1, 3), shard(2, 3)]).is_err(),
        "shard 3/3 missing"
    );
    assert!(
        merge(&[shard(1, 2), shard(1, 2)]).is_err(),
        "shard given twice"
    );
    assert!(
        merge(&[shard(1, 2), shard(2, 3)]).is_err(),
        "different counts"
    );
    assert!(merge(&[]).is_err());
}

#[test]
fn the_result_does_not_depend_on_the_thread_count() {
    let config = Config::new(AlgorithmId::PrefixSoftmax, 2, q(1, 1));
    let algorithm = config.build().unwrap();
    let problem = Problem::new(5, alphabet01(), q(1, 1)).unwrap();
    let reports: Vec<Report> = [1, 2, 3]
        .into_iter()
        .map(|n| {
            check(
                &algorithm,
                &problem,
                &Options {
                    threads: Some(n),
                    ..Options::default()
                },
            )
            .unwrap()
        })
        .collect();
    assert_same(&reports[0], &reports[1], "1 vs 2 threads");
    assert_same(&reports[0], &reports[2], "1 vs 3 threads");
}

#[test]
fn enumerations_over_the_limit_are_refused_unless_forced() {
    let algorithm = Config::new(AlgorithmId::NaiveFtnl, 2, q(1, 1))
        .build()
        .unwrap();
    let problem = Problem::new(3, alphabet01(), q(1, 1)).unwrap();
    let options = Options {
        max_pairs: 100,
        method: Method::Enumeration,
        ..Options::default()
    };
    match check(&algorithm, &problem, &options) {
        Err(dpdtol::Error::TooLarge(msg)) => {
            assert!(msg.contains("576") && msg.contains("--force"), "{msg}");
        }
        other => panic!("expected TooLarge, got {other:?}"),
    }
    let forced = Options {
        force: true,
        ..options
    };
    assert_eq!(check(&algorithm, &problem, &forced).unwrap().pairs, 576);
}

// ------------------------------------------------------------- the sweep

/// The verdicts the specification predicts, and why:
/// - ftl: not private (a point mass moves).
/// - naive-ftnl, wu-wang Laplace/Gumbel at 2/ε, prefix-softmax: private.
/// - wu-wang Exp(1/ε): violated from t = 2 on (2e^ε − 1 > e^ε), with or
///   without resampling (losses in {0,1} are not changed by it, and at
///   alphabet {0,½,1} the same pair (1,0)/(0,1) of round 1 is there).
/// - hu-rnm-ftnl, Lap(1/ε): violated when an epoch of two rounds is read
///   (t ≥ 4: gap moves by 2, e^{2ε}/(1+ε) > e^ε); at t = 3 only round 1 is
///   read, the gap moves from 1 to −1 and the ratio
///   `(1 − ¼(2+ε)e^{−ε}) / (¼(2+ε)e^{−ε})` is below e^ε (2.624 < 2.718 at
///   ε = 1; 1.638 < 1.649 at ε = 1/2).
fn expected(config: &Config, t: usize) -> Verdict {
    match (config.id, config.noise) {
        (AlgorithmId::Ftl, _) => Verdict::Violated,
        (AlgorithmId::HuRnmFtnl, _) if t >= 4 => Verdict::Violated,
        (AlgorithmId::WuWang, Some(Noise::Exponential)) => Verdict::Violated,
        // η = ε: round 2 alone is e^ε-tight at K = 2 (tests/hedge.rs); every
        // later round reads the changed one again.
        (AlgorithmId::Hedge, _) if t >= 3 || config.actions > 2 => Verdict::Violated,
        // η_2 = 2√(ln K/2) > 1 ≥ ε.
        (AlgorithmId::DecreasingHedge, _) if t >= 2 => Verdict::Violated,
        _ => Verdict::Private,
    }
}

fn sweep(k: usize, t: usize, alphabet: Vec<Q>) {
    for eps in [q(1, 2), q(1, 1)] {
        for (label, config) in variants(k, &eps) {
            let report = run(&config, t, alphabet.clone());
            assert_eq!(
                report.verdict,
                expected(&config, t),
                "{label}, K = {k}, t = {t}, ε = {eps}: max ratio {:?}",
                report.max_ratio
            );
            if let Some(direct) = witness_ratio(&config, &report) {
                // The witness's actions attain the reported maximum.
                let r = Ratio::Certified {
                    lo: direct.0,
                    hi: direct.1,
                };
                assert!(
                    overlaps(&r, &report.witness.ratio),
                    "{label}: witness {:?} vs {r:?}",
                    report.witness.ratio
                );
            } else {
                assert_eq!(report.max_ratio, Ratio::Infinite, "{label}");
            }
        }
    }
}

#[test]
fn sweep_k2_binary_alphabet_horizon_4() {
    sweep(2, 4, alphabet01());
}

#[test]
fn sweep_k2_three_letter_alphabet_horizon_3() {
    sweep(2, 3, alphabet012());
}

#[test]
#[ignore = "slow sweep: run with cargo test --release -- --ignored"]
fn sweep_slow_k2_binary_horizon_7() {
    sweep(2, 7, alphabet01());
}

#[test]
#[ignore = "slow sweep: run with cargo test --release -- --ignored"]
fn sweep_slow_k3_binary_horizon_4() {
    sweep(3, 4, alphabet01());
}

#[test]
#[ignore = "slow sweep: run with cargo test --release -- --ignored"]
fn sweep_slow_k2_three_letter_horizon_4() {
    sweep(2, 4, alphabet012());
}

#[test]
#[ignore = "slow sweep: run with cargo test --release -- --ignored"]
fn brute_force_agrees_on_larger_instances() {
    for eps in [q(1, 1), q(1, 2)] {
        for (label, config) in variants(2, &eps) {
            let algorithm = config.build().unwrap();
            for (t, alphabet) in [(4, alphabet01()), (3, alphabet012())] {
                let problem = Problem::new(t, alphabet, eps.clone()).unwrap();
                product_vs_brute(
                    &format!("{label}, ε = {eps}, t = {t}"),
                    &algorithm,
                    &problem,
                );
            }
        }
        for (label, config) in variants(3, &eps) {
            let algorithm = config.build().unwrap();
            let problem = Problem::new(2, alphabet01(), eps.clone()).unwrap();
            product_vs_brute(&format!("{label}, K = 3, ε = {eps}"), &algorithm, &problem);
        }
    }
}

// ---------------------------------------------------------- command line

fn dpdtol(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_dpdtol"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn cli_json_has_the_contract_keys() {
    let (code, stdout, stderr) = dpdtol(&[
        "privacy",
        "--algorithm",
        "hu-rnm-ftnl",
        "--actions",
        "2",
        "--horizon",
        "4",
        "--alphabet",
        "0,1",
        "--epsilon",
        "1",
        "--method",
        "enumeration",
        "--json",
    ]);
    // ftl is not private: a violation exits with status 1.
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(stdout.lines().count(), 1, "exactly one JSON object");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    for key in [
        "bound",
        "max_ratio",
        "max_ratio_interval",
        "max_ratio_exact",
        "verdict",
        "witness",
        "pairs",
        "algorithm",
        "epsilon",
        "noise",
        "noise_scale",
        "precision_bits",
        "kind",
        "shard",
    ] {
        assert!(v.get(key).is_some(), "missing key {key} in {v}");
    }
    assert_eq!(v["verdict"], "violated");
    assert_eq!(v["attained"], false);
    assert_eq!(v["method"], "enumeration");
    assert_eq!(v["pairs"], 3072);
    assert_eq!(v["kind"], "certified");
    assert_eq!(v["noise"], "laplace");
    assert_eq!(v["noise_scale"], "1");
    assert_eq!(v["shard"], "1/1");
    assert!(v["max_ratio"]
        .as_str()
        .unwrap()
        .starts_with("3.69452804946532511361521373028750390"));
    assert!(v["bound"]
        .as_str()
        .unwrap()
        .starts_with("2.71828182845904523536028747135266249775"));
    assert!(v["max_ratio_exact"].is_null());
    assert_eq!(v["max_ratio_interval"].as_array().unwrap().len(), 2);
    let w = &v["witness"];
    assert_eq!(w["losses"].as_array().unwrap().len(), 4);
    assert_eq!(w["losses"][0].as_array().unwrap().len(), 2);
    assert_eq!(w["neighbour"].as_array().unwrap().len(), 4);
    let actions: Vec<u64> = w["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_u64().unwrap())
        .collect();
    assert_eq!(actions.len(), 4);
    assert!(actions.iter().all(|&a| a == 1 || a == 2), "1-based actions");
}

#[test]
fn cli_json_for_ftl_is_exact_and_infinite() {
    let (code, stdout, _) = dpdtol(&[
        "privacy",
        "--algorithm",
        "ftl",
        "--actions",
        "2",
        "--horizon",
        "2",
        "--alphabet",
        "0,1",
        "--epsilon",
        "1",
        "--json",
    ]);
    // ftl is not private: a violation exits with status 1.
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["max_ratio"], "inf");
    assert!(v["max_ratio_interval"].is_null() && v["max_ratio_exact"].is_null());
    assert_eq!(v["kind"], "exact");
    assert_eq!(v["verdict"], "violated");
    assert!(v["precision_bits"].is_null() && v["noise"].is_null());
}

#[test]
fn cli_shard_output_carries_what_a_merge_needs() {
    let (code, stdout, _) = dpdtol(&[
        "privacy",
        "--algorithm",
        "naive-ftnl",
        "--actions",
        "2",
        "--horizon",
        "3",
        "--alphabet",
        "0,1",
        "--epsilon",
        "1/2",
        "--shard",
        "2/3",
        "--threads",
        "1",
        "--method",
        "enumeration",
        "--json",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["shard"], "2/3");
    assert_eq!(v["pairs"], (42 - 21) * 3 * 3);
    assert!(v["witness"]["losses"].is_array() && v["max_ratio_interval"].is_array());
}

#[test]
fn cli_human_output_is_a_short_paragraph() {
    let (code, stdout, _) = dpdtol(&[
        "privacy",
        "--algorithm",
        "wu-wang",
        "--noise",
        "gumbel",
        "--actions",
        "2",
        "--horizon",
        "3",
        "--alphabet",
        "0,1",
        "--epsilon",
        "1",
    ]);
    assert_eq!(code, 0);
    assert!(
        stdout.contains("PRIVATE") && stdout.contains("witness") && stdout.contains("e^ε"),
        "{stdout}"
    );
}

#[test]
fn cli_bad_input_is_one_line_and_exit_2() {
    let base = [
        "privacy",
        "--algorithm",
        "naive-ftnl",
        "--actions",
        "2",
        "--horizon",
        "2",
        "--alphabet",
        "0,1",
        "--epsilon",
        "1",
    ];
    let with = |flag: &str, value: &str| -> Vec<String> {
        let mut args: Vec<String> = base.iter().map(|s| s.to_string()).collect();
        if let Some(i) = args.iter().position(|a| a == flag) {
            args[i + 1] = value.to_string();
        } else {
            args.push(flag.to_string());
            if !value.is_empty() {
                args.push(value.to_string());
            }
        }
        args
    };
    let cases = [
        (with("--epsilon", "0"), "epsilon"),
        (with("--epsilon", "-1"), "epsilon"),
        (with("--actions", "1"), "K must be at least 2"),
        (with("--alphabet", "0,2"), "outside [0, 1]"),
        (with("--alphabet", "1"), "at least 2"),
        (with("--alphabet", "0,x"), "parse"),
        (with("--horizon", "0"), "horizon"),
        (with("--noise", "gumbel"), "wu-wang only"),
        (with("--resample", "2"), "--resample"),
        (with("--shard", "0/2"), "shard"),
        (with("--shard", "3/2"), "shard"),
        (with("--threads", "0"), "threads"),
        (with("--algorithm", "nope"), "unknown algorithm"),
        (with("--horizon", "20000"), "--force"),
        (
            [
                with("--horizon", "20"),
                vec!["--method".into(), "enumeration".into()],
            ]
            .concat(),
            "--force",
        ),
        (with("--method", "sideways"), "--method"),
    ];
    for (args, needle) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, stdout, stderr) = dpdtol(&args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stdout.is_empty(), "{args:?}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
    }
}

/// A shard's units ([`dpdtol::privacy::units_of`]) tile its range, their
/// maxima fold to its maximum ([`dpdtol::privacy::fold`]), and each unit
/// searched alone, with the shard's method and backend at its precision
/// ([`dpdtol::privacy::unit_max`]), gives exactly the maximum the shard
/// says of it; the shard's witness lies in a unit attaining its maximum.
/// A shard decided exactly on its witness (violated or attained) keeps the
/// units of its last certified pass, at that pass's precision: their fold
/// and the witness's unit meet the maximum. And the units decide the
/// shard: a unit whose enclosure leaves the comparison with `e^ε` open is
/// decided exactly ([`dpdtol::privacy::unit_decided_exactly`]), and the
/// shard is violated exactly when one of its units is.
fn units_fold_to_the_shard(case: (usize, usize, usize, usize, Q)) -> Result<(), TestCaseError> {
    let (i, k, letters, t, eps) = case;
    let (label, config) = variants(k, &eps).swap_remove(i);
    let alphabet = alphabet_of(letters);
    let algorithm = config.build().unwrap();
    let problem = Problem::new(t, alphabet, eps).unwrap();
    let sequences = (letters.pow(k as u32) as u64).pow(t as u32);
    units_decide_the_shard(
        &algorithm,
        &problem,
        sequences,
        &format!("{label}, K = {k}"),
    )
}

/// [`units_fold_to_the_shard`] for one algorithm and problem (of
/// `sequences` loss sequences), both methods, the whole run and shard 2/3.
fn units_decide_the_shard<A: Structured>(
    algorithm: &A,
    problem: &Problem,
    sequences: u64,
    label: &str,
) -> Result<(), TestCaseError> {
    let (algorithm, problem) = (algorithm, problem);
    for method in [Method::Structural, Method::Enumeration] {
        for shard in [Shard::WHOLE, Shard::new(2, 3).unwrap()] {
            let options = Options {
                method,
                shard,
                ..Options::default()
            };
            let Ok(report) = check(algorithm, problem, &options) else {
                // Fewer items than shards.
                continue;
            };
            let label = format!(
                "{label}, t = {}, {method:?}, shard {shard}",
                problem.horizon
            );
            let decided_on_witness = report.verdict == Verdict::Violated || report.attained;
            if report.units.is_empty() {
                prop_assert!(shard == Shard::WHOLE, "{}: a shard keeps its units", label);
                continue;
            }
            prop_assert!(
                shard != Shard::WHOLE,
                "{}: a whole run keeps no units",
                label
            );
            let enclosing = report.units_precision.is_some();
            prop_assert!(!enclosing || decided_on_witness, "{}", label);
            // Two enclosures of one value meet.
            let meet = |a: &Ratio, b: &Ratio| match (a.lo().zip(a.hi()), b.lo().zip(b.hi())) {
                (Some((a_lo, a_hi)), Some((b_lo, b_hi))) => a_lo <= b_hi && b_lo <= a_hi,
                (None, None) => true,
                _ => false,
            };
            let ranges = dpdtol::privacy::unit_ranges(algorithm, &report).unwrap();
            prop_assert_eq!(ranges.len(), report.units.len(), "{}", label);
            prop_assert!(ranges.len() <= 64);
            let range = ranges[0].start..ranges[ranges.len() - 1].end;
            prop_assert!(ranges
                .windows(2)
                .all(|w| w[0].end == w[1].start && w[0].start < w[0].end));
            let total = match method {
                Method::Enumeration => sequences,
                Method::Structural => dpdtol::privacy::candidates(algorithm, problem).unwrap(),
            };
            prop_assert_eq!(range, shard.range(total).unwrap(), "{}", label);
            let folded = dpdtol::privacy::fold(&report.units).unwrap();
            let at = report.witness.sequence;
            let attains = |u: &Ratio| {
                if enclosing {
                    meet(u, &report.max_ratio)
                } else {
                    u.lo() == report.max_ratio.lo()
                }
            };
            if enclosing {
                prop_assert!(meet(&folded, &report.max_ratio), "{}", label);
            } else {
                prop_assert_eq!(&folded, &report.max_ratio, "{}", label);
            }
            prop_assert!(
                ranges
                    .iter()
                    .zip(&report.units)
                    .any(|(r, u)| r.contains(&at) && attains(u)),
                "{}",
                label
            );
            let precision = report.units_precision.or(report.precision);
            let mut violated = false;
            for (r, u) in ranges.iter().zip(&report.units) {
                let again =
                    dpdtol::privacy::unit_max(algorithm, problem, method, r.clone(), precision)
                        .unwrap();
                prop_assert_eq!(&again, u, "{}: unit {:?}", label, r);
                // Every unit decided exactly: the verdict its enclosure
                // gives when that is decisive, and the shard's in the end.
                let bits = precision.unwrap_or(Precision(128));
                let exactly = dpdtol::privacy::unit_decided_exactly(
                    algorithm,
                    problem,
                    method,
                    r.clone(),
                    bits,
                );
                let verdict = match decide(u, &problem.epsilon, bits.0).unwrap().0 {
                    Verdict::Undecided => exactly.unwrap(),
                    v => {
                        if let Ok(exact) = exactly {
                            prop_assert_eq!(exact, v, "{}: unit {:?} decided exactly", label, r);
                        }
                        v
                    }
                };
                violated |= verdict == Verdict::Violated;
            }
            prop_assert_eq!(
                violated,
                report.verdict == Verdict::Violated,
                "{}: the units' verdicts",
                label
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, failure_persistence: None, ..ProptestConfig::default() })]

    /// Per-unit maxima fold to the shard's maximum, and each unit searched
    /// again gives what the shard says of it (both methods, whole runs and
    /// shards, exact and certified backends as the laws allow).
    #[test]
    fn per_unit_maxima_fold_to_the_shard_maximum(case in agreement_case(2_000, 4)) {
        units_fold_to_the_shard(case)?;
    }
}

/// Wu & Wang's algorithm with exponential noise of scale 4 on K = 2, t = 5,
/// losses in {0, 1}: at ε = 1/2 its maximum is e^ε exactly, decided in the
/// exact field after the certified passes leave it open, so its shards keep
/// the units of the last certified pass, which enclose the maximum; each
/// unit whose enclosure contains e^ε is decided exactly, private. At
/// ε = 1/3 the same maximum is a violation.
#[test]
fn an_attained_maximum_keeps_the_certified_units_which_decide_it() {
    for (eps, attained) in [(q(1, 2), true), (q(1, 3), false)] {
        let config = wu_wang(2, &eps, Noise::Exponential, Some(q(4, 1)));
        let algorithm = config.build().unwrap();
        let problem = Problem::new(5, alphabet01(), eps.clone()).unwrap();
        let options = Options {
            shard: Shard::new(2, 3).unwrap(),
            ..Options::default()
        };
        let report = check(&algorithm, &problem, &options).unwrap();
        assert_eq!(report.attained, attained, "ε = {eps}");
        assert_eq!(
            report.verdict,
            if attained {
                Verdict::Private
            } else {
                Verdict::Violated
            }
        );
        if attained {
            assert_eq!(report.units_precision, Some(Precision(512)));
        }
        units_decide_the_shard(&algorithm, &problem, 4u64.pow(5), "wu-wang exponential").unwrap();
    }
}

/// A unit larger than a check runs without `--force` is not searched again:
/// refused at once, by its size (10⁹ loss sequences of t = 20 are 6·10¹⁰
/// ordered pairs), and a range beyond the check's items is no unit.
#[test]
fn a_unit_over_the_pair_limit_is_refused_before_it_is_searched() {
    let config = wu_wang(2, &q(1, 2), Noise::Exponential, None);
    let algorithm = config.build().unwrap();
    let problem = Problem::new(20, alphabet01(), q(1, 2)).unwrap();
    let refused = dpdtol::privacy::unit_max(
        &algorithm,
        &problem,
        Method::Enumeration,
        0..1_000_000_000,
        Some(Precision(128)),
    )
    .unwrap_err();
    assert_eq!(
        refused.to_string(),
        "too large: the unit has 60000000000 ordered pairs to search again, over the limit of 100000000; --spot-check 0 takes the shards' units on trust"
    );
    // A range beyond the check's items is not a unit of it.
    let candidates = dpdtol::privacy::candidates(&algorithm, &problem).unwrap();
    let refused = dpdtol::privacy::unit_max(
        &algorithm,
        &problem,
        Method::Structural,
        candidates - 1..candidates + 1,
        Some(Precision(128)),
    )
    .unwrap_err();
    assert_eq!(
        refused.to_string(),
        format!(
            "invalid input: the unit {}..{} is not a range of the {candidates} items of the check",
            candidates - 1,
            candidates + 1
        )
    );
}
