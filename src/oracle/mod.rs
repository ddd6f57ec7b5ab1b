//! dpdtol as a test oracle for faster implementations:
//! the exact law of an algorithm's action sequence on a given loss sequence,
//! seeded reference samples, goodness-of-fit of anyone's samples against the
//! exact law, and a black-box privacy audit.
//!
//! | module | what |
//! |---|---|
//! | [`law`] | the [`Target`] (an online algorithm on a loss sequence, or one selection), its schedule, each choice's law and the probability of a sequence, exact else certified |
//! | [`sample`] | seeded reference samples in parallel, identical for any thread count |
//! | [`drive`] | an implementation of the bandit [`crate::bandit::policy::Policy`] run `n` times on a reward table, fresh and seeded each run, its arms and runs checked ([`bandit::drive_gof`] tests the pulls against the law) |
//! | [`gof`] | support check, per-choice and joint chi-square tests, Bonferroni, the sample size that detects a total-variation distance |
//! | [`audit`] | a lower confidence bound on the ε of a black-box sampler from its outputs on two neighbouring inputs |
//! | [`target`] | the target named by its parameters as given ([`TargetSpec`]), each read exactly and each missing one refused |
//! | [`io`] | loss files (CSV/JSON, exact decimals or `p/q`) and sample files (CSV/NPY, 0- or 1-based) |
//!
//! Conventions: rounds are numbered from 1, as in the papers; actions are
//! 0-based in the library (files and the command line state their base).
//!
//! ```
//! use dpdtol::algorithm::{AlgorithmId, Config};
//! use dpdtol::oracle::{gof, law::Target, sample};
//! use dpdtol::num::Q;
//! let q = |n: i64, d: i64| Q::new(n.into(), d.into());
//! let mut config = Config::new(AlgorithmId::WuWang, 3, q(1, 1));
//! config.noise = Some(dpdtol::mechanism::Noise::Gumbel);
//! let losses = vec![vec![q(0, 1), q(1, 2), q(1, 1)]; 7];
//! let target = Target::algorithm(config.build().unwrap(), losses).unwrap();
//! let law = target.law(Default::default()).unwrap();
//! assert_eq!(law.schedule().len(), 3); // choices playing rounds 1, 2–3 and 4–7
//! let samples = sample::sample(&law, 2000, 7).unwrap();
//! assert_eq!((samples.rows(), samples.cols()), (2000, 7));
//! let report = gof::gof(&law, &samples, &gof::GofOptions::default()).unwrap();
//! assert!(!report.reject);
//! ```

pub mod audit;
pub mod bandit;
pub mod drive;
pub mod gof;
pub mod io;
pub mod law;
pub mod sample;
pub mod target;
pub mod two_sample;

pub use law::{Enclosed, Target};
pub use sample::Samples;
pub use target::TargetSpec;
