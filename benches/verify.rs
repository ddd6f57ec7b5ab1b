//! The claim checks of `dpdtol verify`: the interval
//! branch-and-bound on claims of one and two variables, and a privacy
//! claim through the exhaustive checker. Each bench checks the claim's
//! status before timing it. The whole registry is timed by the CLI
//! (`dpdtol verify --json`, the `seconds` key), not here: it takes minutes
//! (and `ww-lem2-K3`, three variables, about 10 s alone).

use criterion::{criterion_group, criterion_main, Criterion};
use dpdtol::proofs::registry;
use dpdtol::verify::{Claim, Status};
use std::hint::black_box;
use std::time::Duration;

fn claim(id: &str, expected: Status) -> Claim {
    let claim = registry()
        .into_iter()
        .find(|c| c.id == id)
        .unwrap_or_else(|| panic!("no claim {id}"));
    let outcome = (claim.check)().unwrap();
    assert_eq!(outcome.status, expected, "{id}: {}", outcome.detail);
    claim
}

fn claims(c: &mut Criterion) {
    let mut group = c.benchmark_group("verify");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    for (id, status) in [
        // One variable, tight at an end (mean-value form).
        ("hu-thm9-L776", Status::Certified),
        // Two variables and a sum over r (Lemma 2 for K = 2, x and a₂).
        ("ww-lem2-K2box", Status::Certified),
        // The privacy checker over a grid of 8 problems.
        ("ww-thm4-gumbel", Status::HoldsOnInstances),
    ] {
        let claim = claim(id, status);
        group.bench_function(id, |b| b.iter(|| black_box((claim.check)().unwrap())));
    }
    group.finish();
}

criterion_group!(benches, claims);
criterion_main!(benches);
