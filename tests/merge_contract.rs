//! The shard-and-merge contract (`dpdtol::report::merge`) on the shards of
//! every privacy check (full-information, exact bandit, statistical audit):
//! a part whose every field is as written merges into the
//! whole run; a part with any field edited — a printed decimal beside the
//! exact value it is derived from, a verdict, a count, an extra key, a
//! missing one — is refused with one line that names the file and the field.

mod common;

use common::{dpdtol, json, merge_list, scratch};
use serde_json::Value;

/// wu-wang with exponential noise Exp(1/ε) as printed, K = 2, t = 3,
/// alphabet {0, 1}, ε = 1/2: violated (a certified maximum ≈ 2.297 > e^{1/2}).
const RUN: [&str; 13] = [
    "privacy",
    "--algorithm",
    "wu-wang",
    "--noise",
    "exponential",
    "--actions",
    "2",
    "--horizon",
    "3",
    "--alphabet",
    "0,1",
    "--epsilon",
    "1/2",
];

/// The whole run's report and its two shards' reports.
fn run() -> (Value, [Value; 2]) {
    let mut whole = RUN.to_vec();
    whole.push("--json");
    let shard = |s: &str| {
        let mut args = whole.clone();
        args.extend(["--shard", s]);
        json(&args)
    };
    (json(&whole), [shard("1/2"), shard("2/2")])
}

/// Merge `first` (edited) with the second shard: the exit status and stderr.
fn merge(first: &Value, second: &Value, name: &str) -> (i32, String, String) {
    let list = merge_list(&scratch("merge-contract"), name, first, second);
    let out = dpdtol(&["privacy", "--merge", &list, "--json"]);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn parts_as_written_merge_into_the_whole_run() {
    let (whole, [first, second]) = run();
    assert_eq!(whole["verdict"], "violated");
    let (code, stdout, stderr) = merge(&first, &second, "as-written");
    // The merged run is violated: exit status 1.
    assert_eq!(code, 1, "{stderr}");
    let merged: Value = serde_json::from_str(&common::without_spot_check(&stdout)).unwrap();
    assert_eq!(merged, whole);
}

#[test]
fn an_edited_field_is_refused_and_named() {
    let (_, [first, second]) = run();
    // (the edit, the field the refusal must name)
    let edits: [(&str, Value, &str); 9] = [
        (
            "/max_ratio_interval/0",
            Value::from("1.0"),
            "max_ratio_interval",
        ),
        ("/max_ratio", Value::from("1.5"), "max_ratio"),
        ("/bound", Value::from("1.6"), "bound"),
        ("/digits_certain", Value::from(false), "digits_certain"),
        ("/witness/ratio", Value::from("9"), "witness"),
        ("/pairs", Value::from(3), "pairs"),
        ("/why_not_exact", Value::Null, "why_not_exact"),
        ("/kind", Value::from("exact"), "kind"),
        ("/verdict", Value::from("private"), "verdict"),
    ];
    for (pointer, value, named) in edits {
        let mut edited = first.clone();
        *edited
            .pointer_mut(pointer)
            .unwrap_or_else(|| panic!("{pointer}")) = value;
        let (code, _, stderr) = merge(&edited, &second, "edited");
        assert_eq!(code, 2, "{pointer}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{pointer}: {stderr}");
        assert!(stderr.contains("edited-1.json"), "{pointer}: {stderr}");
        assert!(stderr.contains(named), "{pointer}: {stderr}");
    }
}

#[test]
fn an_extra_or_a_missing_key_is_refused() {
    let (_, [first, second]) = run();
    let mut extra = first.clone();
    extra["note"] = Value::from("hand-written");
    let (code, _, stderr) = merge(&extra, &second, "extra");
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("'note'"), "{stderr}");
    let mut missing = first.clone();
    missing.as_object_mut().unwrap().remove("witness");
    let (code, _, stderr) = merge(&missing, &second, "missing");
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("witness"), "{stderr}");
}

/// Anytime-Lazy-UCB at half its printed scale, K = 2, T = 4, rewards
/// {0, 1}, ε = 1 (violated): the exact bandit check.
const BANDIT: [&str; 13] = [
    "privacy",
    "--algorithm",
    "anytime-lazy-ucb",
    "--noise-scale",
    "1/2",
    "--actions",
    "2",
    "--horizon",
    "4",
    "--alphabet",
    "0,1",
    "--epsilon",
    "1",
];

/// Lazy-DP-TS's statistical audit, T = 4, 2000 runs per table, seed 3.
const AUDIT: [&str; 15] = [
    "privacy",
    "--algorithm",
    "lazy-dp-ts",
    "--actions",
    "2",
    "--horizon",
    "4",
    "--alphabet",
    "0,1",
    "--epsilon",
    "1",
    "--runs",
    "2000",
    "--seed",
    "3",
];

/// The whole run of `base` and its two shards' reports.
fn run_of(base: &[&str]) -> (Value, [Value; 2]) {
    let mut whole = base.to_vec();
    whole.push("--json");
    let shard = |s: &str| {
        let mut args = whole.clone();
        args.extend(["--shard", s]);
        json(&args)
    };
    (json(&whole), [shard("1/2"), shard("2/2")])
}

/// The exact bandit check and the statistical audit merge through the same
/// contract: parts as written give the whole run; a part with a field
/// edited — a printed number beside the data it is derived from, the
/// witness's probabilities or reward table, the verdict, an index, a count —
/// is refused with one line that names the file and the field.
#[test]
fn every_kind_of_part_is_read_through_the_contract() {
    // (the run, edits: (pointer, value, the field named))
    let bandit_edits: Vec<(&str, Value, &str)> = vec![
        ("/witness/probability", Value::from("0.4"), "witness"),
        (
            "/witness/neighbour_probability_interval/0",
            Value::from("0.1"),
            "witness",
        ),
        ("/witness/rewards/0/0", Value::from("1"), "witness"),
        ("/verdict", Value::from("private"), "verdict"),
        ("/quotients", Value::from(7), "quotients"),
        ("/max_ratio", Value::from("3.7"), "max_ratio"),
        ("/merge/replacement", Value::from(0), "witness"),
        ("/precision_bits", Value::from(100), "precision_bits"),
        ("/epsilon", Value::from(1), "epsilon"),
    ];
    let audit_edits: Vec<(&str, Value, &str)> = vec![
        ("/epsilon_lower", Value::from("0.5"), "epsilon_lower"),
        ("/max_ratio", Value::from("2"), "max_ratio"),
        ("/tables", Value::from(3), "tables"),
        ("/verdict_text", Value::from("fine"), "verdict_text"),
        ("/merge/first_table", Value::from(1), "counts"),
        ("/merge/counts/0/0/0", Value::from(999_999), "counts"),
        ("/confidence", Value::from("high"), "confidence"),
    ];
    for (base, edits) in [(&BANDIT[..], bandit_edits), (&AUDIT[..], audit_edits)] {
        let (whole, [first, second]) = run_of(base);
        let (code, stdout, stderr) = merge(&first, &second, "kind-as-written");
        assert_eq!(code, i32::from(whole["verdict"] == "violated"), "{stderr}");
        let merged: Value = serde_json::from_str(&common::without_spot_check(&stdout)).unwrap();
        assert_eq!(merged, whole, "{base:?}");
        for (pointer, value, named) in edits {
            let mut edited = first.clone();
            *edited
                .pointer_mut(pointer)
                .unwrap_or_else(|| panic!("{pointer}")) = value;
            let (code, _, stderr) = merge(&edited, &second, "kind-edited");
            assert_eq!(code, 2, "{base:?} {pointer}: {stderr}");
            assert_eq!(stderr.lines().count(), 1, "{pointer}: {stderr}");
            assert!(stderr.contains("kind-edited-1.json"), "{pointer}: {stderr}");
            assert!(stderr.contains(named), "{pointer}: {stderr}");
        }
        // An extra key is named too.
        let mut extra = first.clone();
        extra["note2"] = Value::from("hand-written");
        let (code, _, stderr) = merge(&extra, &second, "kind-extra");
        assert_eq!(code, 2, "{stderr}");
        assert!(stderr.contains("'note2'"), "{stderr}");
    }
}
