//! `dpdtol audit`'s verdict against the claimed ε: exit status 1 exactly
//! when the lower confidence bound exceeds it, the verdict in `--json`.
//!
//! The samples are deterministic, so the bound has a closed form. The first
//! file always plays action 1, the second always action 2 (T = 1, 200 rows
//! each: 100 select the event, 100 bound it). On the event "round 1 plays
//! action 1", one-sided Clopper–Pearson at `a = (1 − 0.95)/2 = 0.025` gives
//! `p_lo = a^{1/100}` for 100 successes in 100 (the lower end solves
//! `p^100 = a`) and `q_hi = 1 − a^{1/100}` for 0 in 100 (the upper end solves
//! `(1 − q)^100 = a`), so
//!
//! ```text
//! ε ≥ ln(a^{1/100} / (1 − a^{1/100})) = 3.28134634909876…
//! ```

mod common;
use common::{dpdtol, scratch_file};
use serde_json::Value;
use std::sync::OnceLock;

/// The closed-form bound of the module documentation.
fn bound() -> f64 {
    let p = 0.025f64.powf(1.0 / 100.0);
    (p / (1.0 - p)).ln()
}

/// The two sample files, as paths (written once: the tests run in
/// parallel).
fn files() -> [String; 2] {
    static FILES: OnceLock<[String; 2]> = OnceLock::new();
    FILES
        .get_or_init(|| {
            [
                scratch_file("audit-verdict", "first.csv", "1\n".repeat(200).as_bytes()),
                scratch_file("audit-verdict", "second.csv", "2\n".repeat(200).as_bytes()),
            ]
        })
        .clone()
}

/// `dpdtol audit` on the two files with `more`: its exit status and JSON.
fn audit(more: &[&str]) -> (i32, Value) {
    let [first, second] = files();
    let mut args = vec!["audit", "--first", &first, "--second", &second, "--json"];
    args.extend(more);
    let out = dpdtol(&args);
    let code = out.status.code().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(matches!(code, 0 | 1), "{args:?}: {stderr}");
    (
        code,
        serde_json::from_slice(&out.stdout).expect("one JSON object"),
    )
}

#[test]
fn the_bound_is_the_closed_form() {
    let (_, report) = audit(&[]);
    let lower = report["epsilon_lower"].as_f64().unwrap();
    assert!((lower - bound()).abs() < 1e-9, "{lower} vs {}", bound());
}

#[test]
fn a_claim_below_the_bound_is_violated_and_exits_1() {
    // 3.28 < 3.2813… < 3.29.
    let (code, report) = audit(&["--claimed-epsilon", "3.28"]);
    assert_eq!(code, 1, "{report}");
    assert_eq!(report["verdict"], "violated");
    assert_eq!(report["violated"], true);
    assert_eq!(report["claimed_epsilon"], "82/25");
    assert_eq!(report["claimed_epsilon_from"], "--claimed-epsilon");
    let (code, report) = audit(&["--claimed-epsilon", "3.29"]);
    assert_eq!(code, 0, "{report}");
    assert_eq!(report["verdict"], "consistent");
    assert_eq!(report["violated"], false);
}

#[test]
fn without_a_claim_there_is_no_verdict_and_the_status_is_0() {
    let (code, report) = audit(&[]);
    assert_eq!(code, 0);
    assert_eq!(report["verdict"], "unclaimed");
    assert_eq!(report["violated"], false);
    assert_eq!(report["claimed_epsilon"], Value::Null);
}

#[test]
fn a_named_target_claims_its_own_epsilon() {
    // prefix-softmax at ε = 1 on one round (losses 0,1; the neighbour 1,0):
    // the claim is its ε = 1, which the samples (a sampler whose action
    // follows its input deterministically) refute.
    let x = scratch_file("audit-verdict", "x.csv", b"0,1\n");
    let y = scratch_file("audit-verdict", "y.csv", b"1,0\n");
    let target = [
        "--algorithm",
        "prefix-softmax",
        "--epsilon",
        "1",
        "--losses-file",
        &x,
        "--neighbour-file",
        &y,
    ];
    let (code, report) = audit(&target);
    assert_eq!(code, 1, "{report}");
    assert_eq!(report["claimed_epsilon"], "1");
    assert_eq!(report["claimed_epsilon_from"], "--epsilon");
    assert_eq!(report["verdict"], "violated");
    // --claimed-epsilon takes precedence over the target's ε.
    let mut more = target.to_vec();
    more.extend(["--claimed-epsilon", "7/2"]);
    let (code, report) = audit(&more);
    assert_eq!(code, 0, "{report}");
    assert_eq!(report["claimed_epsilon_from"], "--claimed-epsilon");
    assert_eq!(report["verdict"], "consistent");
}

#[test]
fn a_claim_that_is_not_a_number_at_least_0_is_refused() {
    let [first, second] = files();
    for claim in ["-1", "abc", "NaN"] {
        let out = dpdtol(&[
            "audit",
            "--first",
            &first,
            "--second",
            &second,
            "--claimed-epsilon",
            claim,
        ]);
        assert_eq!(out.status.code(), Some(2), "{claim}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(stderr.trim_end().lines().count(), 1, "{claim}: {stderr}");
    }
}
