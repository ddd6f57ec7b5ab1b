//! A flag acts or is refused: each case is an exact command whose flag the
//! run would otherwise ignore (or answer for something else than asked),
//! refused with one line that names the flag, exit status 2.

mod common;

use common::{assert_refused, capped};
use std::path::PathBuf;

/// Write `text` to a file of this test run and return its path.
fn file(name: &str, text: &str) -> String {
    let dir: PathBuf = std::env::temp_dir().join(format!("dpdtol-applies-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// Run `command` (words separated by spaces) and assert that it is refused
/// with one line naming `flag` and saying that it does not apply.
fn refused(command: &str, flag: &str) {
    let args: Vec<&str> = command.split(' ').collect();
    let run = capped(&args, 20.0);
    assert_refused(&run, command);
    assert!(
        run.stderr.contains(flag) && run.stderr.contains("does not apply"),
        "{command}: {}",
        run.stderr
    );
}

#[test]
fn target_flags_that_do_not_apply_to_the_mechanism_or_the_algorithm_are_refused() {
    let losses = file("losses.csv", "0,1\n1,0\n");
    let samples = file("samples.csv", "1,2\n2,1\n1,1\n2,2\n");
    let mechanism = "--mechanism gumbel --scale 1 --losses 0,1";
    let algorithm = format!("--algorithm wu-wang --epsilon 1 --losses-file {losses}");
    for command in ["law", "gof"] {
        let tail = if command == "gof" {
            format!(" --samples {samples}")
        } else {
            String::new()
        };
        refused(
            &format!("{command} {mechanism} --epsilon 1{tail}"),
            "--epsilon",
        );
        refused(
            &format!("{command} {mechanism} --noise-scale 2{tail}"),
            "--noise-scale",
        );
        refused(
            &format!("{command} {mechanism} --resample 1{tail}"),
            "--resample",
        );
        refused(
            &format!("{command} {mechanism} --actions 2{tail}"),
            "--actions",
        );
        refused(
            &format!("{command} {mechanism} --losses-file {losses}{tail}"),
            "--losses-file",
        );
        refused(&format!("{command} {algorithm} --scale 1{tail}"), "--scale");
        refused(
            &format!("{command} {algorithm} --losses 0,1{tail}"),
            "--losses",
        );
    }
    let out = file("out.csv", "");
    refused(
        &format!("sample {mechanism} --noise gumbel --n 10 --seed 1 --out {out}"),
        "--noise",
    );
    refused(
        &format!("law --algorithm ftl --epsilon 1 --losses-file {losses} --noise-scale 1"),
        "--noise-scale",
    );
    refused(
        &format!(
            "law --algorithm prefix-softmax --epsilon 1 --losses-file {losses} --noise gumbel"
        ),
        "--noise",
    );
    // audit: the neighbour of the other kind, and target flags without a target.
    refused(
        &format!("audit --first {samples} --second {samples} {algorithm} --neighbour 0,1"),
        "--neighbour",
    );
    refused(
        &format!(
            "audit --first {samples} --second {samples} {mechanism} --neighbour-file {losses}"
        ),
        "--neighbour-file",
    );
    refused(
        &format!("audit --first {samples} --second {samples} --epsilon 1"),
        "--epsilon",
    );
}

#[test]
fn bandit_parameters_are_refused_on_algorithms_without_them() {
    let base = "bandit --means 0.5,0.4 --horizon 10 --runs 2";
    refused(&format!("{base} --algorithm ucb1 --beta 0.1"), "--beta");
    refused(
        &format!("{base} --algorithm anytime-lazy-ucb --epsilon 1 --beta 0.1"),
        "--beta",
    );
    refused(&format!("{base} --algorithm thompson --bonus 2"), "--bonus");
    refused(
        &format!("{base} --algorithm dp-se --epsilon 1 --bonus 2"),
        "--bonus",
    );
    refused(
        &format!("{base} --algorithm ucb1,thompson --noise-scale 2"),
        "--noise-scale",
    );
    refused(&format!("{base} --algorithm ucb1 --epsilon 1"), "--epsilon");
    refused(
        &format!("{base} --algorithm ucb1 --pull-order round-robin"),
        "--pull-order",
    );
    refused(
        &format!("{base} --algorithm dp-ucb --epsilon 1 --rounding floor"),
        "--rounding",
    );
}

/// `bandit --pull-order` acts on DP-SE's simulation: at β = 1/400, ε = 1 its
/// printed R_1 = ⌊max{128 ln 6400, 16 ln 3200}⌋ + 1 = 1122 exceeds the 400
/// rounds, so no epoch ends and no noise is drawn: blocks pulls arm 1 in every
/// round (regret 0, pulls 400, 0), round-robin alternates (pulls 200, 200,
/// regret 200 · (0.9 − 0.1) = 160), deterministically.
#[test]
fn bandit_pull_order_acts_on_dp_se() {
    let run = |order: &str| {
        let report = common::json(&common::words(&format!(
            "bandit --algorithm dp-se --means 0.9,0.1 --epsilon 1 --horizon 400 --runs 2 --json --pull-order {order} --rounding ceiling"
        )));
        let result = report["results"][0].clone();
        assert_eq!(result["pull_order"], order, "{result}");
        assert_eq!(result["rounding"], "ceiling", "{result}");
        let number = |v: &serde_json::Value| v.as_str().unwrap().parse::<f64>().unwrap();
        let pulls: Vec<f64> = result["mean_pulls"]
            .as_array()
            .unwrap()
            .iter()
            .map(number)
            .collect();
        (number(&result["final"]["regret"]), pulls)
    };
    assert_eq!(run("blocks"), (0.0, vec![400.0, 0.0]));
    let (regret, pulls) = run("round-robin");
    assert_eq!(pulls, vec![200.0, 200.0]);
    assert!((regret - 160.0).abs() < 1e-9, "{regret}");
}

#[test]
fn privacy_flags_that_do_not_apply_are_refused() {
    let bandit = "privacy --actions 2 --horizon 2 --alphabet 0,1";
    // A bandit check would answer for one ε only.
    refused(
        &format!("{bandit} --algorithm anytime-lazy-ucb --all-epsilon"),
        "--all-epsilon",
    );
    refused(
        &format!("{bandit} --algorithm dp-se --epsilon-range 1/2..2"),
        "--epsilon-range",
    );
    refused(
        &format!("{bandit} --algorithm lazy-dp-ts --all-epsilon"),
        "--all-epsilon",
    );
    refused(
        &format!("{bandit} --algorithm dp-se --epsilon 1 --method enumeration"),
        "--method",
    );
    refused(
        &format!("{bandit} --algorithm anytime-lazy-ucb --epsilon 1 --runs 100"),
        "--runs",
    );
    // Checking flags with --merge.
    let shard = file("shard.json", "{}");
    for flag in [
        "--method enumeration",
        "--runs 100",
        "--seed 2",
        "--confidence 0.9",
        "--bonus 2",
        "--tree-scale 2",
    ] {
        let name = flag.split(' ').next().unwrap();
        refused(&format!("privacy --merge {shard} {flag}"), name);
    }
    // The mechanism has no threads, shards or rounds.
    let mechanism = "privacy --mechanism gumbel --actions 2 --alphabet 0,1 --epsilon 1";
    refused(&format!("{mechanism} --threads 2"), "--threads");
    refused(&format!("{mechanism} --shard 1/2"), "--shard");
    // An all-ε run has no shard and no --epsilon.
    refused(
        "privacy --algorithm wu-wang --noise gumbel --actions 2 --horizon 2 --alphabet 0,1 --all-epsilon --shard 1/2",
        "--shard",
    );
}

#[test]
fn audit_refuses_a_pair_that_is_not_a_neighbouring_pair() {
    let losses = file("x.csv", "0,1\n1,0\n");
    let three_rounds = file("x3.csv", "0,1\n1,0\n0,0\n");
    let two_changed = file("x2.csv", "1,1\n0,1\n");
    let one_changed = file("x1.csv", "0,1\n1,1\n");
    let pairs = file("pairs.csv", "1,1\n2,1\n1,2\n2,2\n");
    let singles = file("singles.csv", "1\n2\n1\n2\n");
    let target = "--algorithm ftl --epsilon 1";
    let run = |command: &str, words: &[&str]| {
        let args: Vec<&str> = command.split(' ').collect();
        let run = capped(&args, 20.0);
        assert_refused(&run, command);
        for w in words {
            assert!(run.stderr.contains(w), "{command}: {}", run.stderr);
        }
    };
    run(
        &format!("audit --first {pairs} --second {pairs} {target} --losses-file {losses} --neighbour-file {three_rounds}"),
        &["neighbour", "3 rounds"],
    );
    run(
        &format!("audit --first {pairs} --second {pairs} {target} --losses-file {losses} --neighbour-file {two_changed}"),
        &["neighbour", "2 rounds"],
    );
    run(
        &format!("audit --first {singles} --second {singles} {target} --losses-file {losses} --neighbour-file {one_changed}"),
        &["--first", "2 rounds"],
    );
    run(
        &format!("audit --first {singles} --second {singles} --mechanism gumbel --scale 1 --losses 0,1 --neighbour 0,1,1"),
        &["neighbour", "K = 3"],
    );
    // A true neighbouring pair is answered, with the exact ratio.
    let args = format!("audit --first {pairs} --second {pairs} {target} --losses-file {losses} --neighbour-file {one_changed}");
    let args: Vec<&str> = args.split(' ').collect();
    let out = capped(&args, 20.0);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stdout.contains("(exact)"), "{}", out.stdout);
}

/// Run `command` and assert that the flag table refuses `flag` before the
/// run starts: one line `--flag does not apply to …: it acts on … only`.
fn refused_by_table(command: &str, flag: &str) {
    let args: Vec<&str> = command.split(' ').collect();
    let run = capped(&args, 20.0);
    assert_refused(&run, command);
    assert!(
        run.stderr.contains(&format!("{flag} does not apply to"))
            && run.stderr.contains("it acts on"),
        "{command}: {}",
        run.stderr
    );
}

#[test]
fn flags_of_other_kinds_of_run_are_refused_by_the_tables() {
    let losses = file("table-losses.csv", "0,1\n1,0\n");
    let rewards = file("table-rewards.csv", "1,0\n0,1\n");
    let samples = file("table-samples.csv", "1,2\n2,1\n");
    let mechanism = "privacy --mechanism gumbel --actions 2 --alphabet 0,1 --epsilon 1";
    for extra in [
        "--algorithm ftl",
        "--horizon 2",
        "--resample 1",
        "--noise gumbel",
        "--noise-scale 2",
        "--shard 1/2",
        "--method enumeration",
        "--epoch-length 2",
        "--epsilon-range 1..2",
        "--all-epsilon",
        "--scale-factor 2",
    ] {
        let flag = extra.split(' ').next().unwrap();
        refused_by_table(&format!("{mechanism} {extra}"), flag);
    }
    let problem = "--actions 2 --horizon 2 --alphabet 0,1";
    let online = format!("privacy --algorithm ftl {problem} --epsilon 1");
    for extra in [
        "--neighbours any",
        "--scale 1",
        "--runs 10",
        "--seed 2",
        "--confidence 0.9",
        "--bonus 2",
        "--tree-scale 2",
        "--epoch-length 2",
        "--resample 1",
    ] {
        let flag = extra.split(' ').next().unwrap();
        refused_by_table(&format!("{online} {extra}"), flag);
    }
    for algorithm in ["anytime-lazy-ucb", "lazy-dp-ts"] {
        let bandit = format!("privacy --algorithm {algorithm} {problem} --epsilon 1");
        for extra in [
            "--resample 1",
            "--noise laplace",
            "--epoch-length 2",
            "--method exact",
            "--tree-scale 2",
            "--scale-factor 2",
        ] {
            // Lazy-DP-TS takes --method statistical or bounds (and refuses
            // exact by name).
            if algorithm == "lazy-dp-ts" && extra.starts_with("--method") {
                continue;
            }
            let flag = extra.split(' ').next().unwrap();
            refused_by_table(&format!("{bandit} {extra}"), flag);
        }
    }
    // The certified bounds check runs whole and simulates nothing.
    let bounds = format!("privacy --algorithm dp-ts {problem} --epsilon 1 --method bounds");
    for extra in ["--shard 1/2", "--runs 100", "--seed 3", "--delta 1/10"] {
        let flag = extra.split(' ').next().unwrap();
        refused_by_table(&format!("{bounds} {extra}"), flag);
    }
    let range = format!("privacy --algorithm wu-wang --noise gumbel {problem} --all-epsilon");
    for extra in ["--epsilon 1", "--shard 1/2", "--method enumeration"] {
        let flag = extra.split(' ').next().unwrap();
        refused_by_table(&format!("{range} {extra}"), flag);
    }
    let regret = "regret --means 1/10,1/2 --setting deterministic --horizon 4 --epsilon 1";
    refused_by_table(
        &format!("{regret} --algorithm ftl,naive-ftnl --resample 1"),
        "--resample",
    );
    refused_by_table(
        &format!("{regret} --algorithm ftl --noise-scale 2"),
        "--noise-scale",
    );
    let bandit_law = format!("law --algorithm ucb1 --rewards-file {rewards}");
    for extra in [
        "--actions 2",
        "--noise gumbel",
        "--resample 1",
        "--epsilon 1",
    ] {
        let flag = extra.split(' ').next().unwrap();
        refused_by_table(&format!("{bandit_law} {extra}"), flag);
    }
    let online_law = format!("law --algorithm ftl --epsilon 1 --losses-file {losses}");
    for extra in [
        "--epoch-length 2",
        "--tree-scale 2",
        "--scale-factor 2",
        "--bonus 2",
    ] {
        let flag = extra.split(' ').next().unwrap();
        refused_by_table(&format!("{online_law} {extra}"), flag);
    }
    refused_by_table(
        &format!("gof --algorithm ucb1 --rewards-file {rewards} --samples {samples} --seed 3"),
        "--seed",
    );
}
