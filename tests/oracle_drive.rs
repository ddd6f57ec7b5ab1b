//! The driver of bandit policies (`oracle::drive`, `oracle::bandit::drive_gof`):
//! the library's own Anytime-Lazy-UCB, driven through the reward table, fits
//! its exact law; the same policy at twice the ε (half the noise) is
//! rejected; a policy that pulls an arm out of range or runs past the
//! horizon is named with its run and round; the pulls do not depend on the
//! number of threads. Fixed seeds: deterministic.

use dpdtol::bandit::policy::anytime_lazy_ucb::AnytimeLazyUcb;
use dpdtol::bandit::policy::dp_se::RewardIndex;
use dpdtol::bandit::policy::{BanditId, NoiseRng, Policy, Pull};
use dpdtol::error::Result;
use dpdtol::num::Q;
use dpdtol::oracle::bandit::{drive_gof, BanditSpec, BanditTarget};
use dpdtol::oracle::drive::drive;
use dpdtol::oracle::gof::GofOptions;

fn q(n: i64, d: i64) -> Q {
    Q::new(n.into(), d.into())
}

/// K = 2, T = 8: rewards that change every round (64 candidate sequences).
fn table() -> Vec<Vec<Q>> {
    [
        [2, 1],
        [4, 0],
        [0, 4],
        [3, 2],
        [2, 2],
        [4, 1],
        [0, 0],
        [1, 4],
    ]
    .iter()
    .map(|r| r.iter().map(|&x| q(x, 4)).collect())
    .collect()
}

fn target() -> BanditTarget {
    BanditTarget::new(BanditSpec::new(BanditId::AnytimeLazyUcb, q(1, 1)), table()).unwrap()
}

fn floats() -> Vec<Vec<f64>> {
    table()
        .iter()
        .map(|r| {
            r.iter()
                .map(|x| num_traits::ToPrimitive::to_f64(x).unwrap())
                .collect()
        })
        .collect()
}

fn alu(epsilon: f64) -> impl Fn() -> Result<Box<dyn Policy>> + Sync {
    move || Ok(Box::new(AnytimeLazyUcb::new(2, epsilon)) as Box<dyn Policy>)
}

const ALPHA: f64 = 1e-6; // a correct policy is rejected with probability < 1e-6

#[test]
fn the_library_policy_fits_its_law_and_half_the_noise_does_not() {
    let options = GofOptions {
        alpha: ALPHA,
        ..GofOptions::default()
    };
    let (samples, report) = drive_gof(&target(), alu(1.0), 20_000, 3, &options, false).unwrap();
    assert_eq!((samples.rows(), samples.cols()), (20_000, 8));
    let test = report.test.expect("no support violation");
    assert!(!report.reject, "p = {}", test.p_value);
    assert!(test.cells > 4, "the noise decides several pulls");
    // ε = 2: Laplace noise of scale 1/2 where the law has 1.
    let (_, report) = drive_gof(&target(), alu(2.0), 20_000, 3, &options, false).unwrap();
    assert!(report.reject);
}

/// Pulls arm 0 in one-round runs, except `arm` with run `run` at round 3.
struct Planted {
    arm: usize,
    run: u64,
}

impl Policy for Planted {
    fn arms(&self) -> usize {
        2
    }
    fn choose(&mut self, t: u64, _max_run: u64, _rng: &mut NoiseRng) -> Pull {
        if t == 3 {
            Pull {
                arm: self.arm,
                run: self.run,
            }
        } else {
            Pull { arm: 0, run: 1 }
        }
    }
    fn observe(&mut self, _arm: usize, _n: u64, _sum: f64, _rng: &mut NoiseRng) {}
}

fn planted(arm: usize, run: u64) -> impl Fn() -> Result<Box<dyn Policy>> + Sync {
    move || Ok(Box::new(Planted { arm, run }) as Box<dyn Policy>)
}

#[test]
fn a_broken_protocol_names_the_first_run_and_its_round() {
    let error = |arm, run| {
        drive(
            planted(arm, run),
            &floats(),
            RewardIndex::Round,
            50,
            1,
            false,
        )
        .unwrap_err()
        .to_string()
    };
    let out_of_range = error(2, 1);
    assert!(
        out_of_range.contains("run 0, round 3: arm 2 is not one of the K = 2 arms 0 to 1"),
        "{out_of_range}"
    );
    let too_long = error(1, 7);
    assert!(
        too_long.contains("run 0, round 3: a run of 7 pulls, where 1 to 6 are left"),
        "{too_long}"
    );
    assert!(error(1, 0).contains("round 3: a run of 0 pulls"));
    // Within the rules the same policy is played to the horizon.
    let samples = drive(planted(1, 6), &floats(), RewardIndex::Round, 5, 1, false).unwrap();
    assert_eq!(samples.row(4), &[0, 0, 1, 1, 1, 1, 1, 1]);
    let options = GofOptions::default();
    let wrong_k = drive_gof(
        &target(),
        || Ok(Box::new(AnytimeLazyUcb::new(3, 1.0)) as Box<dyn Policy>),
        5,
        1,
        &options,
        false,
    );
    assert!(wrong_k
        .unwrap_err()
        .to_string()
        .contains("the policy has 3 arms, the table K = 2"));
}

#[test]
fn the_pulls_depend_on_the_seed_only() {
    let on = |threads| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| drive(alu(1.0), &floats(), RewardIndex::Round, 2_000, 9, false).unwrap())
    };
    let one = on(1);
    assert_eq!(one.data(), on(2).data());
    assert_ne!(
        one.data(),
        drive(alu(1.0), &floats(), RewardIndex::Round, 2_000, 10, false)
            .unwrap()
            .data()
    );
}
