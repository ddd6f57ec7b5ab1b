//! The command line as a user meets it: the README's example, the JSON
//! contract, and one clear line with exit status 2 on bad input.

mod common;

use common::{dpdtol, json};

use dpdtol::num::{parse_rational, Q};
use num_traits::One;
use serde_json::Value;

/// `e^{−2}` enclosed by the alternating Taylor series Σ_{n≤60} (−2)^n/n!,
/// whose remainder is below 2^61/61! < 1e-65 (independent of the crate's exp).
fn exp_minus_two() -> (Q, Q) {
    common::exp_taylor(-2, 60, "1e-65")
}

fn assert_close(decimal: &Value, low: &Q, high: &Q, digits: i32) {
    let value = parse_rational(decimal.as_str().expect("a decimal string")).unwrap();
    let tolerance = parse_rational(&format!("1e-{digits}")).unwrap();
    assert!(
        value >= low - &tolerance && value <= high + &tolerance,
        "{decimal} is not within 1e-{digits} of [{low}, {high}]"
    );
}

#[test]
fn readme_example_gives_the_exponential_law_to_30_digits() {
    let v = json(&[
        "mechanism",
        "--noise",
        "exponential",
        "--scale",
        "1",
        "--losses",
        "0,2",
        "--json",
    ]);
    // P = (1 − e^{−2}/2, e^{−2}/2).
    let (lo, hi) = exp_minus_two();
    let half = Q::new(1.into(), 2.into());
    assert_close(&v["law"][1], &(&lo * &half), &(&hi * &half), 32);
    assert_close(
        &v["law"][0],
        &(Q::one() - &hi * &half),
        &(Q::one() - &lo * &half),
        32,
    );
    assert_eq!(v["law_exact"], Value::Null);
    assert_eq!(v["kind"], "certified");
    // The interval's ends are outward-rounded bounds of the true value.
    let end = |i: usize| parse_rational(v["law_interval"][1][i].as_str().unwrap()).unwrap();
    assert!(end(0) <= &lo * &half && end(1) >= &hi * &half);
    for digits in v["law"].as_array().unwrap() {
        let significant = digits
            .as_str()
            .unwrap()
            .trim_start_matches(['0', '.'])
            .replace('.', "");
        assert!(
            significant.len() >= 30,
            "{digits} has fewer than 30 significant digits"
        );
    }
}

#[test]
fn a_rational_base_gives_an_exact_law() {
    // Base 1/3, losses 0, 1, 2 with Gumbel noise: weights 1, 1/3, 1/9; total 13/9.
    let v = json(&[
        "mechanism",
        "--noise",
        "gumbel",
        "--base",
        "1/3",
        "--losses",
        "0,1,2",
        "--json",
    ]);
    assert_eq!(v["law_exact"], serde_json::json!(["9/13", "3/13", "1/13"]));
    assert_eq!(v["kind"], "exact");
    assert_close(
        &v["law"][2],
        &Q::new(1.into(), 13.into()),
        &Q::new(1.into(), 13.into()),
        38,
    );
}

#[test]
fn laplace_k2_matches_its_closed_form() {
    // K = 2, gap 1, β = 1: P(2) = ¼(2 + 1)e^{−1} = (3/4)e^{−1}; e^{−1} to 40
    // digits: 0.3678794411714423215955237701614608674458 (OEIS A068985).
    let v = json(&[
        "mechanism",
        "--noise",
        "laplace",
        "--scale",
        "1",
        "--losses",
        "0,1",
        "--json",
    ]);
    let e1 = parse_rational("0.3678794411714423215955237701614608674458").unwrap();
    let slack = parse_rational("1e-40").unwrap();
    let three_quarters = Q::new(3.into(), 4.into());
    assert_close(
        &v["law"][1],
        &((&e1 - &slack) * &three_quarters),
        &((&e1 + &slack) * &three_quarters),
        38,
    );
}

#[test]
fn human_output_is_a_table() {
    let out = dpdtol(&[
        "mechanism",
        "--noise",
        "gumbel",
        "--base",
        "1/2",
        "--losses",
        "0,1",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("exact law"), "{text}");
    assert!(text.contains("= 2/3") && text.contains("= 1/3"), "{text}");
}

#[test]
fn bad_input_gives_one_line_and_status_2() {
    let cases: &[&[&str]] = &[
        &[
            "mechanism",
            "--noise",
            "gumbel",
            "--scale",
            "-1",
            "--losses",
            "0,1",
        ],
        &[
            "mechanism",
            "--noise",
            "gumbel",
            "--scale",
            "0",
            "--losses",
            "0,1",
        ],
        &[
            "mechanism",
            "--noise",
            "gumbel",
            "--scale",
            "1",
            "--losses",
            "0",
        ],
        &[
            "mechanism",
            "--noise",
            "gumbel",
            "--scale",
            "1",
            "--losses",
            "",
        ],
        &[
            "mechanism",
            "--noise",
            "gumbel",
            "--scale",
            "1",
            "--losses",
            "0,abc",
        ],
        &[
            "mechanism",
            "--noise",
            "gumbel",
            "--scale",
            "1/0",
            "--losses",
            "0,1",
        ],
        &[
            "mechanism",
            "--noise",
            "cauchy",
            "--scale",
            "1",
            "--losses",
            "0,1",
        ],
        &[
            "mechanism",
            "--noise",
            "gumbel",
            "--base",
            "1",
            "--losses",
            "0,1",
        ],
        &["mechanism", "--noise", "gumbel", "--losses", "0,1"],
        &[
            "mechanism",
            "--noise",
            "gumbel",
            "--scale",
            "1",
            "--base",
            "1/2",
            "--losses",
            "0,1",
        ],
        &[
            "mechanism",
            "--noise",
            "gumbel",
            "--scale",
            "1",
            "--losses",
            "0,1e9",
        ],
        &["no-such-command"],
    ];
    for args in cases {
        refused(args);
    }
}

/// `dpdtol args` exits 2 with one line on stderr and nothing on stdout.
fn refused(args: &[&str]) {
    let out = dpdtol(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    assert!(out.stdout.is_empty(), "{args:?} printed on stdout");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
    assert!(stderr.starts_with("dpdtol: "), "{args:?}: {stderr}");
}

#[test]
fn all_epsilon_refusals_are_one_line_and_exit_2() {
    // Laplace laws, a reversed range, a fixed scale, prefix-softmax past 1/4.
    let base = [
        "privacy",
        "--actions",
        "2",
        "--horizon",
        "3",
        "--alphabet",
        "0,1",
    ];
    let gumbel = ["--algorithm", "wu-wang", "--noise", "gumbel"];
    let extras: [&[&str]; 4] = [
        &["--algorithm", "hu-rnm-ftnl", "--all-epsilon"],
        &[&gumbel[..], &["--epsilon-range", "2..1"]].concat(),
        &[&gumbel[..], &["--all-epsilon", "--noise-scale", "2"]].concat(),
        &[
            "--algorithm",
            "prefix-softmax",
            "--epsilon-range",
            "1/8..1/2",
        ],
    ];
    for extra in extras {
        refused(&[&base[..], extra].concat());
    }
}

#[test]
fn privacy_shards_merge_into_the_whole_run() {
    shards_merge_into_the_whole_run("3", "0,1/2,1");
}

/// Structural shards merge at a horizon whose 2^126 sequences no enumeration
/// (nor a 64-bit count of them) reaches: the merge's checks must not need them.
#[test]
fn structural_shards_merge_far_past_enumeration() {
    shards_merge_into_the_whole_run("63", "0,1");
}

fn shards_merge_into_the_whole_run(horizon: &str, alphabet: &str) {
    let dir = std::env::temp_dir().join(format!("dpdtol-merge-{}-{horizon}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let problem = [
        "privacy",
        "--algorithm",
        "wu-wang",
        "--noise",
        "exponential",
        "--actions",
        "2",
        "--horizon",
        horizon,
        "--alphabet",
        alphabet,
        "--epsilon",
        "1/2",
        "--json",
    ];
    let whole = json(&problem);
    let mut files = Vec::new();
    for shard in ["1/3", "2/3", "3/3"] {
        let mut args = problem.to_vec();
        args.extend(["--shard", shard]);
        let part = json(&args);
        assert_eq!(part["shard"], shard);
        let file = dir.join(format!("shard{}.json", &shard[..1]));
        std::fs::write(&file, part.to_string()).unwrap();
        files.push(file.display().to_string());
    }
    let mut merged = json(&["privacy", "--merge", &files.join(","), "--json"]);
    // What the merge re-verified is the merge's own key.
    let spot = merged.as_object_mut().and_then(|o| o.remove("spot_check"));
    assert!(spot.is_some_and(|s| s["units_recomputed"].as_u64() > Some(0)));
    assert_eq!(
        merged, whole,
        "the merged shards must report what the whole run reports"
    );
    // A missing shard is refused.
    let out = dpdtol(&["privacy", "--merge", &files[..2].join(",")]);
    assert_eq!(out.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn verify_prints_the_claims_it_checks_as_json_and_markdown() {
    let dir = std::env::temp_dir().join(format!("dpdtol-verify-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let markdown = dir.join("report.md");
    let out = json(&[
        "verify",
        "--claim",
        "hu-thm8",
        "--json",
        "--markdown",
        markdown.to_str().unwrap(),
    ]);
    let claims = out["claims"].as_array().expect("claims");
    // `hu-thm8` selects the claim and its intended variant `hu-thm8-lap2`.
    let ids: Vec<&str> = claims.iter().map(|c| c["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["hu-thm8", "hu-thm8-lap2"]);
    for c in claims {
        for key in [
            "id",
            "source",
            "statement",
            "method",
            "status",
            "detail",
            "witness",
        ] {
            assert!(c.get(key).is_some(), "{key} missing in {c}");
        }
    }
    // Laplace noise of scale 1/ε is not ε-DP (ratio e^{2ε}/(1+ε) at K = 2):
    // refuted, with a pair of neighbouring loss sequences as the witness.
    assert_eq!(claims[0]["status"], "refuted");
    let witness = &claims[0]["witness"];
    assert_eq!(
        witness["losses"].as_array().unwrap().len(),
        witness["neighbour"].as_array().unwrap().len()
    );
    assert_eq!(claims[1]["status"], "holds-on-instances");
    assert_eq!(out["summary"]["refuted"], 1);
    let report = std::fs::read_to_string(&markdown).unwrap();
    assert!(
        report.contains("| [`hu-thm8`](#hu-thm8) | refuted |"),
        "{report}"
    );
    assert!(report.contains("## hu-thm8-lap2"), "{report}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn verify_refuses_an_unknown_claim_with_one_line() {
    let out = dpdtol(&["verify", "--claim", "ww-thm99"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("ww-thm99") && stderr.contains("ww-thm1"),
        "{stderr}"
    );
}

/// `privacy --mechanism`: the attained maximum of permute-and-flip at its
/// textbook scale (`e^ε`, see tests/one_shot.rs for the derivation) in
/// --json; flags of the online check, a relation with no pairs and a run
/// over the size limit are refused with one line and exit status 2.
#[test]
fn privacy_mechanism_checks_one_selection_and_refuses_what_does_not_apply() {
    let out = json(&[
        "privacy",
        "--mechanism",
        "exponential",
        "--actions",
        "2",
        "--alphabet",
        "0,1,2",
        "--neighbours",
        "linf:1",
        "--epsilon",
        "1/2",
        "--json",
    ]);
    assert_eq!(out["verdict"], "private");
    assert_eq!(out["attained"], true);
    assert_eq!(out["decision"], "exact-field");
    assert_eq!(out["noise_scale"], "4");
    // (Σ_i n_i)^K − N = 7² − 9 ordered pairs.
    assert_eq!(out["pairs"], 40);
    assert_eq!(out["witness"]["losses"], serde_json::json!([["1", "1"]]));
    assert_eq!(out["witness"]["neighbour"], serde_json::json!([["0", "2"]]));
    let base = [
        "privacy",
        "--mechanism",
        "gumbel",
        "--actions",
        "2",
        "--alphabet",
        "0,1",
        "--epsilon",
        "1",
    ];
    let refused = |extra: &[&str], needle: &str| {
        let args: Vec<&str> = base.iter().chain(extra).copied().collect();
        common::refused(&args, needle);
    };
    refused(
        &["--horizon", "3"],
        "--horizon does not apply to --mechanism",
    );
    refused(&["--noise-scale", "2"], "--noise-scale does not apply");
    refused(&["--neighbours", "one:1/2"], "no two inputs are neighbours");
    refused(&["--neighbours", "linf"], "--neighbours expects");
    let alphabet: Vec<String> = (0..40).map(|v| v.to_string()).collect();
    let alphabet = alphabet.join(",");
    let out = dpdtol(&[
        "privacy",
        "--mechanism",
        "gumbel",
        "--actions",
        "4",
        "--alphabet",
        &alphabet,
        "--epsilon",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("6553597440000 ordered input pairs") && stderr.contains("--force"),
        "{stderr}"
    );
}

/// The exit status is the result's, for every command: `verify` exits 0 when
/// every refutation is a registered erratum (Hu et al.'s Theorem 8:
/// Algorithm 4 with Lap(1/ε) is not ε-DP, erratum hu-ftnl-privacy) or none
/// is refuted (Cesari & Colomboni's Lemma 2 (i), certified), and with
/// `--strict` 1 on any refutation; `privacy` exits 1 on a violation (follow-the-leader is
/// not private) and 0 when private (naive FTNL at its printed scale).
#[test]
fn the_exit_status_is_the_verdict() {
    for (args, status) in [
        (&["verify", "--claim", "hu-thm8"][..], 0),
        (&["verify", "--claim", "hu-thm8", "--strict"], 1),
        (&["verify", "--claim", "cc-lem2-i"], 0),
        (&["verify", "--claim", "cc-lem2-i", "--strict"], 0),
        (
            &[
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
            ],
            1,
        ),
        (
            &[
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
                "1",
            ],
            0,
        ),
    ] {
        let out = dpdtol(args);
        assert_eq!(out.status.code(), Some(status), "{args:?}");
        assert!(!out.stdout.is_empty(), "{args:?}: a result is printed");
    }
}

/// `mechanism --base`, the former name of `--unit-weight`, is still read:
/// the same stdout and exit status, and one warning line on stderr that
/// names the new flag; `--unit-weight` itself gives no warning, and a run
/// that fails on bad input keeps its single error line.
#[test]
fn the_former_name_of_unit_weight_is_read_with_a_warning() {
    let run = |weight: &[&str], losses: &str| {
        let mut args = vec!["mechanism", "--noise", "gumbel", "--losses", losses];
        args.extend(weight);
        dpdtol(&args)
    };
    let current = run(&["--unit-weight", "1/3"], "0,1,2");
    assert!(current.status.success() && current.stderr.is_empty());
    for former in [&["--base", "1/3"][..], &["--base=1/3"]] {
        let out = run(former, "0,1,2");
        assert_eq!(out.status.code(), Some(0), "{former:?}");
        assert_eq!(out.stdout, current.stdout, "{former:?}: the same result");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(
            stderr,
            "dpdtol: warning: --base is the former name of --unit-weight and will be removed; use --unit-weight\n"
        );
    }
    let bad = run(&["--base", "1/3"], "0,x");
    assert_eq!(bad.status.code(), Some(2));
    let stderr = String::from_utf8(bad.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(!stderr.contains("warning"), "{stderr}");
}

/// `--delta D`: the exit status follows the (ε, δ) verdict, the JSON's
/// `delta` holds the value and the witness pair, and `--delta` is refused
/// with one line where it does not apply (a shard, a statistical audit, a
/// negative D). The Gumbel selection with scale 1 on losses {0, 1} at
/// ε = 1/2 has ratio e > e^ε and δ(ε) = (e − √e)/(e + 1) ≈ 0.28765.
#[test]
fn delta_decides_epsilon_delta_privacy_and_sets_the_exit_status() {
    let base = [
        "privacy",
        "--mechanism",
        "gumbel",
        "--actions",
        "2",
        "--alphabet",
        "0,1",
        "--epsilon",
        "1/2",
        "--scale",
        "1",
    ];
    for (d, status, verdict) in [("3/10", 0, "private"), ("1/4", 1, "violated")] {
        let args: Vec<&str> = base
            .iter()
            .copied()
            .chain(["--delta", d, "--json"])
            .collect();
        let out = dpdtol(&args);
        assert_eq!(out.status.code(), Some(status), "--delta {d}");
        let report: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
        assert_eq!(
            report["verdict"], "violated",
            "the ratio check is unchanged"
        );
        assert_eq!(report["delta"]["verdict"], verdict);
        assert_eq!(report["delta"]["target"], d);
        assert!(report["delta"]["value"]
            .as_str()
            .unwrap()
            .starts_with("0.287649136644967"));
        assert_eq!(
            report["delta"]["witness"]["losses"],
            serde_json::json!([["0", "1"]])
        );
        assert_eq!(
            report["delta"]["witness"]["neighbour"],
            serde_json::json!([["1", "0"]])
        );
    }
    let without: Vec<&str> = base.iter().copied().chain(["--json"]).collect();
    assert!(json(&without).get("delta").is_none(), "an additive key");
    let online = [
        "privacy",
        "--algorithm",
        "hu-rnm-ftnl",
        "--actions",
        "2",
        "--horizon",
        "2",
        "--alphabet",
        "0,1",
        "--epsilon",
        "1",
    ];
    let with = |extra: &[&'static str]| -> Vec<&str> {
        online
            .iter()
            .copied()
            .chain(extra.iter().copied())
            .collect()
    };
    refused(&with(&["--delta", "0", "--shard", "1/2"]));
    refused(&with(&["--delta", "-1/2"]));
    refused(&[
        "privacy",
        "--algorithm",
        "lazy-dp-ts",
        "--actions",
        "2",
        "--horizon",
        "2",
        "--alphabet",
        "0,1",
        "--epsilon",
        "1",
        "--delta",
        "0",
    ]);
}

/// Run `args`; (status, stdout, stderr).
fn outcome(args: &[&str]) -> (Option<i32>, String, String) {
    let out = dpdtol(args);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn what_a_new_user_reads_is_one_clear_line_or_a_number() {
    // clap's hint follows the error in parentheses (it ran into it:
    // "found tip: a similar argument").
    let (code, _, stderr) = outcome(&["privacy", "--bogus"]);
    assert_eq!(code, Some(2));
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("found (a similar argument exists: '--bonus')"),
        "{stderr}"
    );
    // --power without --tv acts on nothing: refused by the flag table.
    let dir = common::scratch("new-user");
    let samples = dir.join("twos.csv");
    std::fs::write(&samples, "2\n".repeat(20_000)).unwrap();
    let samples = samples.display().to_string();
    let gof = [
        "gof",
        "--mechanism",
        "gumbel",
        "--scale",
        "1",
        "--losses",
        "0,3",
        "--samples",
        &samples,
    ];
    let (code, _, stderr) = outcome(&[&gof[..], &["--power", "0.5"]].concat());
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("--power does not apply") && stderr.contains("--tv"),
        "{stderr}"
    );
    // 20 000 samples of the action of probability 1/(1 + e^3) ≈ 0.047: a
    // chi-square of about 4·10^5, whose p-value underflows f64; printed as
    // a bound, never as "0.000e0".
    let (code, stdout, _) = outcome(&gof);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(stdout.contains("< 1e-300"), "{stdout}");
    assert!(!stdout.contains("0.000e0"), "{stdout}");
}

/// The algorithm names among `text`'s words (every id of both enums).
fn algorithm_names(text: &str) -> std::collections::BTreeSet<String> {
    use dpdtol::algorithm::AlgorithmId;
    use dpdtol::bandit::policy::BanditId;
    let known: Vec<&str> = AlgorithmId::ALL
        .iter()
        .map(|a| a.name())
        .chain(BanditId::ALL.iter().map(|b| b.name()))
        .collect();
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .filter(|w| known.contains(w))
        .map(str::to_string)
        .collect()
}

/// An unknown `--algorithm` is refused naming exactly the algorithms the
/// command's `--help` names: `gof`'s two-sample bandits included, `regret`'s
/// refused ones (Hedge's) left out.
#[test]
fn an_unknown_algorithm_is_refused_with_the_algorithms_the_help_names() {
    for (command, rest) in [
        ("law", &["--epsilon", "1"][..]),
        (
            "sample",
            &[
                "--epsilon",
                "1",
                "--n",
                "1",
                "--seed",
                "1",
                "--out",
                "x.csv",
            ][..],
        ),
        ("gof", &["--epsilon", "1", "--samples", "x.csv"][..]),
        ("audit", &["--first", "x.csv", "--second", "x.csv"][..]),
        (
            "privacy",
            &[
                "--epsilon",
                "1",
                "--actions",
                "2",
                "--horizon",
                "2",
                "--alphabet",
                "0,1",
            ][..],
        ),
        (
            "regret",
            &[
                "--epsilon",
                "1",
                "--setting",
                "bernoulli",
                "--horizon",
                "2",
                "--means",
                "0,1",
            ][..],
        ),
    ] {
        let mut args = vec![command, "--algorithm", "no-such-algorithm"];
        args.extend_from_slice(rest);
        let out = dpdtol(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{command}: {stderr}");
        assert!(stderr.contains("unknown algorithm"), "{command}: {stderr}");
        let help = dpdtol(&[command, "--help"]);
        let help = String::from_utf8_lossy(&help.stdout);
        let flag = help
            .split("\n      --algorithm <ALGORITHM>")
            .nth(1)
            .and_then(|rest| rest.split("\n      --").next())
            .unwrap_or_default();
        assert_eq!(
            algorithm_names(&stderr),
            algorithm_names(flag),
            "{command}: the refusal against the help"
        );
    }
}
