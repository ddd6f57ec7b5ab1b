//! The exact (else certified) law of `wu-wang`'s action sequence on a loss
//! sequence, and the probability of one sequence: `SequenceLaw::best`.
//!
//! Run: `cargo run --example sequence_law`

use dpdtol::algorithm::{AlgorithmId, BestOptions, Config, SequenceLaw};
use dpdtol::mechanism::Noise;
use dpdtol::num::Q;
use dpdtol::oracle::law::{choice_laws, sequence_probability};

fn main() -> dpdtol::Result<()> {
    let q = |n: i64, d: i64| Q::new(n.into(), d.into());
    let mut config = Config::new(AlgorithmId::WuWang, 3, q(1, 1));
    config.noise = Some(Noise::Gumbel);
    let algorithm = config.build()?;
    // Seven rounds of losses in [0, 1], exact.
    let losses: Vec<Vec<Q>> = (1..=7)
        .map(|t| vec![q(t, 8), q(1, 2), q(8 - t, 8)])
        .collect();
    let law = SequenceLaw::best(&algorithm, &losses, BestOptions::default())?;
    println!("kind: {}", law.kind().label());
    for (choice, p) in law.schedule().iter().zip(choice_laws(&law)?) {
        let p: Vec<String> = p.iter().map(|e| format!("{:.6}", e.to_f64())).collect();
        println!(
            "plays rounds {:?}, reads rounds {:?}: {}",
            choice.plays,
            choice.reads,
            p.join(" ")
        );
    }
    // Action 0 throughout (0-based actions):
    let p = sequence_probability(&law, 3, &[0; 7])?;
    println!(
        "P(0,0,0,0,0,0,0) ∈ [{:.12}, {:.12}]",
        p.lo_f64(),
        p.hi_f64()
    );
    Ok(())
}
