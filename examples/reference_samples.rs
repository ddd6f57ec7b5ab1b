//! Seeded reference samples of `prefix-softmax`, written as NPY (numpy
//! reads it with `numpy.load`) and CSV; the same for any thread count.
//!
//! Run: `cargo run --example reference_samples -- /tmp/samples.npy`

use dpdtol::algorithm::{AlgorithmId, Config};
use dpdtol::num::Q;
use dpdtol::oracle::{io, sample, Target};
use std::path::PathBuf;

fn main() -> dpdtol::Result<()> {
    let out = std::env::args_os().nth(1).map_or_else(
        || std::env::temp_dir().join("dpdtol-samples.npy"),
        PathBuf::from,
    );
    let q = |n: i64, d: i64| Q::new(n.into(), d.into());
    let algorithm = Config::new(AlgorithmId::PrefixSoftmax, 2, q(1, 1)).build()?;
    let losses: Vec<Vec<Q>> = (0..15).map(|t| vec![q(t % 2, 1), q(1, 2)]).collect();
    let target = Target::algorithm(algorithm, losses)?;
    let law = target.law(Default::default())?;
    let samples = sample::sample(&law, 10_000, 42)?;
    io::write_samples(&out, &samples, 0)?;
    println!(
        "{} sequences of {} actions (0-based) in {}",
        samples.rows(),
        samples.cols(),
        out.display()
    );
    Ok(())
}
