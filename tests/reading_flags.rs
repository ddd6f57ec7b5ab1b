//! The readings of the pseudo-code's open choices as flags, each acting on
//! the algorithms that have it, named in the report, and refused with one
//! line elsewhere:
//!
//! - `--tree-depth L` (DP-UCB's binary mechanism, Mishra & Thakurta 2015):
//!   the law depends on the depth only through the node scale `L/ε`
//!   (the tree's shape, `W(n) = W(n − lowbit(n)) + Z(n)`, does not), so the
//!   law at depth `L` is the law at the printed depth with
//!   `--noise-scale L/ε`, and differs from the printed one;
//! - `--radius` and `--reward-index` of `privacy` and `--radius` of `bandit`
//!   (DP-SE);
//! - `--ties lowest|uniform|highest` (UCB1): which arm of maximal index is pulled,
//!   in `law`, `sample`, `gof` and `bandit`;
//! - `--bonus-round` (DP-TS): the round whose `ln t` its bonus reads, in
//!   `bandit`, `gof` (its two-sample test) and the statistical `privacy`
//!   audit; (UCB1): the round count whose logarithm its bonus reads,
//!   `plays` or `current`, in `law`, `sample`, `gof` and `bandit`.

mod common;

use common::{capped, dpdtol, json, merge_list, refused, scratch, scratch_file};
use serde_json::Value;

/// A K = 2, T = 5 reward table.
fn rewards() -> String {
    scratch_file("reading-flags", "rewards.csv", b"1,0\n0,1\n1,1\n0,0\n1,0\n")
}

/// `head`, then the words of each of `tails`.
fn with_words<'a>(head: &[&'a str], tails: &[&'a str]) -> Vec<&'a str> {
    let tails = tails.iter().flat_map(|t| t.split_whitespace());
    head.iter().copied().chain(tails).collect()
}

/// `COMMAND --algorithm A --rewards-file R`, then the words of each of
/// `tails`.
fn table_args<'a>(
    command: &'a str,
    algorithm: &'a str,
    rewards: &'a str,
    tails: &[&'a str],
) -> Vec<&'a str> {
    with_words(
        &[command, "--algorithm", algorithm, "--rewards-file", rewards],
        tails,
    )
}

/// `law --algorithm A --rewards-file R --epsilon 1`, then the words of
/// `extra`.
fn law_args<'a>(algorithm: &'a str, rewards: &'a str, extra: &'a str) -> Vec<&'a str> {
    table_args("law", algorithm, rewards, &["--epsilon 1", extra])
}

/// `gof --algorithm A --rewards-file R --samples S`, then the words of
/// `extra`.
fn gof_args<'a>(
    algorithm: &'a str,
    rewards: &'a str,
    samples: &'a str,
    extra: &'a str,
) -> Vec<&'a str> {
    let mut args = table_args("gof", algorithm, rewards, &[]);
    args.extend(["--samples", samples]);
    args.extend(extra.split_whitespace());
    args
}

/// `privacy --algorithm A --actions 2 --horizon T --alphabet 0,1 --epsilon 1`,
/// then the words of `extra`.
fn privacy_args<'a>(algorithm: &'a str, horizon: &'a str, extra: &'a str) -> Vec<&'a str> {
    with_words(
        &common::privacy_command(algorithm, "2", horizon, "0,1", "1"),
        &[extra],
    )
}

/// `bandit --algorithm A --horizon T --means 0.5,0.25 --runs 2`, then the
/// words of `extra`.
fn bandit_args<'a>(algorithm: &'a str, horizon: &'a str, extra: &'a str) -> Vec<&'a str> {
    let head = ["bandit", "--algorithm", algorithm, "--horizon", horizon];
    with_words(&head, &["--means 0.5,0.25 --runs 2", extra])
}

/// The JSON of DP-UCB's law on `rewards` with the words of `extra`.
fn law(rewards: &str, extra: &str) -> Value {
    json(&law_args("dp-ucb", rewards, &format!("{extra} --json")))
}

/// The probabilities of a law report, by pull sequence.
fn probabilities(report: &Value) -> Vec<(String, String)> {
    report["law"]
        .as_array()
        .expect("law")
        .iter()
        .map(|s| {
            (
                s["pulls"].to_string(),
                s["probability_interval"].to_string(),
            )
        })
        .collect()
}

#[test]
fn tree_depth_sets_dp_ucbs_node_scale_and_is_named() {
    let rewards = rewards();
    // T = 5: the printed depth ⌈log₂ 5⌉ = 3, node scale 3/ε.
    let printed = law(&rewards, "");
    let deep = law(&rewards, "--tree-depth 5");
    let scaled = law(&rewards, "--noise-scale 5");
    assert_eq!(deep["target"]["tree_depth"], "5", "{}", deep["target"]);
    assert!(printed["target"].get("tree_depth").is_none());
    assert_eq!(probabilities(&deep), probabilities(&scaled));
    assert_ne!(probabilities(&deep), probabilities(&printed));
    let text =
        String::from_utf8(dpdtol(&law_args("dp-ucb", &rewards, "--tree-depth 5")).stdout).unwrap();
    assert!(text.contains("tree-depth 5"), "{text}");
}

#[test]
fn tree_depth_is_refused_out_of_range_and_on_other_algorithms() {
    let rewards = rewards();
    for depth in ["0", "64", "2.5", "x"] {
        refused(
            &law_args("dp-ucb", &rewards, &format!("--tree-depth {depth}")),
            "--tree-depth expects an integer in 1..=63",
        );
    }
    for algorithm in ["hybrid-ucb", "dp-ucb-bound", "dp-se", "anytime-lazy-ucb"] {
        refused(
            &law_args(algorithm, &rewards, "--tree-depth 3"),
            "--tree-depth does not apply",
        );
    }
    refused(
        &privacy_args("hybrid-ucb", "3", "--tree-depth 3"),
        "--tree-depth does not apply",
    );
    refused(
        &bandit_args("ucb1", "10", "--tree-depth 3"),
        "--tree-depth does not apply",
    );
    // dp-ucb's law reads no bonus constant: refused by the flag table.
    refused(
        &law_args("dp-ucb", &rewards, "--bonus 3"),
        "--bonus does not apply",
    );
}

/// The JSON of [`privacy_args`].
fn privacy(algorithm: &str, horizon: &str, extra: &str) -> Value {
    json(&privacy_args(
        algorithm,
        horizon,
        &format!("{extra} --json"),
    ))
}

#[test]
fn privacy_takes_dp_ucbs_tree_depth() {
    // T = 4: printed depth 2. Depth 3 is node scale 3/ε.
    let deep = privacy("dp-ucb", "4", "--tree-depth 3");
    let scaled = privacy("dp-ucb", "4", "--noise-scale 3");
    let printed = privacy("dp-ucb", "4", "");
    assert_eq!(deep["tree_depth"], 3);
    assert_eq!(printed["tree_depth"], 2);
    assert_eq!(deep["max_ratio_interval"], scaled["max_ratio_interval"]);
    assert_ne!(deep["max_ratio_interval"], printed["max_ratio_interval"]);
}

#[test]
fn privacy_takes_dp_ses_radius_and_reward_index() {
    let printed = privacy("dp-se", "4", "--epoch-length 1");
    assert_eq!(printed["radius"], "integer");
    assert_eq!(printed["reward_index"], "round");
    // The real radius reads the printed epoch lengths' real R_e.
    let real = privacy("dp-se", "4", "--radius real");
    assert_eq!(real["radius"], "real");
    // The reward index names the reading; a change of one table entry is a
    // change of one reward seen either way, so the verdict is the same.
    let by_pull = privacy("dp-se", "4", "--epoch-length 1 --reward-index pull");
    assert_eq!(by_pull["reward_index"], "pull");
    assert_eq!(by_pull["max_ratio_interval"], printed["max_ratio_interval"]);
    // Its δ witness names the replaced entry (row and arm, from 1); a row
    // read by round names the round only.
    let delta = privacy(
        "dp-se",
        "3",
        "--epoch-length 1 --reward-index pull --delta 0",
    );
    let w = &delta["delta"]["witness"];
    let (row, arm) = (w["round"].as_u64().unwrap(), w["arm"].as_u64().unwrap());
    let entry = |t: &Value| t[row as usize - 1][arm as usize - 1].clone();
    assert_ne!(entry(&w["losses"]), entry(&w["neighbour"]), "{w}");
    let out = dpdtol(&privacy_args(
        "dp-se",
        "3",
        "--epoch-length 1 --reward-index pull --delta 0",
    ));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!("δ witness, row {row}, arm {arm} replaced")),
        "{text}"
    );
    let by_round = privacy("dp-se", "3", "--epoch-length 1 --delta 0");
    assert!(by_round["delta"]["witness"].get("arm").is_none());
    let run = capped(
        &privacy_args("dp-se", "4", "--epoch-length 1 --radius half"),
        20.0,
    );
    common::assert_refused(&run, "--radius half");
    assert!(run.stderr.contains("--radius"), "{}", run.stderr);
}

#[test]
fn bandit_takes_dp_ses_radius_and_dp_ucbs_tree_depth() {
    let report = json(&bandit_args(
        "dp-se,dp-ucb",
        "100",
        "--epsilon 1 --radius real --tree-depth 4 --json",
    ));
    let results = report["results"].as_array().expect("results");
    let of = |id: &str| {
        results
            .iter()
            .find(|r| r["algorithm"] == id)
            .expect("the algorithm's result")
    };
    assert_eq!(of("dp-se")["radius"], "real");
    assert!(of("dp-se").get("tree_depth").is_none());
    assert_eq!(of("dp-ucb")["tree_depth"], 4);
    assert!(of("dp-ucb").get("radius").is_none());
    // The printed depth ⌈log₂ 100⌉ = 7 is named when not given.
    let printed = json(&bandit_args("dp-ucb", "100", "--epsilon 1 --json"));
    assert_eq!(printed["results"][0]["tree_depth"], 7);
    refused(
        &bandit_args("ucb1", "10", "--radius real"),
        "--radius does not apply",
    );
}

/// K = 2, T = 3: rewards (1, 0), (0, 1), (1, 0). Uniform ties: round 1
/// draws the first arm, round 2 pulls the other, and in round 3 both arms
/// have one play and equal means (1 and 1 after 1,2; 0 and 0 after 2,1): a
/// tie, so each of the four sequences has 1/4. Lowest: 1,2,1 alone;
/// highest: 1,2,2 alone (the round-3 tie to arm 2); ordered uniform: 1,2,1
/// and 1,2,2, 1/2 each.
#[test]
fn ties_reads_ucb1s_ties_and_is_named() {
    let rewards = scratch_file("reading-flags", "ties.csv", b"1,0\n0,1\n1,0\n");
    let law = |extra: &str| json(&table_args("law", "ucb1", &rewards, &["--json", extra]));
    // The law's sequences with their exact probabilities, as written.
    let entries = |law: &Value| -> Vec<(String, String)> {
        law["law"]
            .as_array()
            .expect("law")
            .iter()
            .map(|s| (s["pulls"].to_string(), s["probability_exact"].to_string()))
            .collect()
    };
    let uniform = law("--ties uniform");
    assert_eq!(uniform["target"]["ties"], "uniform");
    assert_eq!(uniform["kind"], "exact");
    let quarter = "\"1/4\"".to_string();
    assert_eq!(
        entries(&uniform),
        vec![
            ("[1,2,1]".to_string(), quarter.clone()),
            ("[1,2,2]".to_string(), quarter.clone()),
            ("[2,1,1]".to_string(), quarter.clone()),
            ("[2,1,2]".to_string(), quarter),
        ]
    );
    let lowest = law("");
    assert_eq!(lowest["target"]["ties"], "lowest");
    assert_eq!(lowest["law"].as_array().map(Vec::len), Some(1));
    assert_eq!(lowest["law"][0]["pulls"].to_string(), "[1,2,1]");
    let highest = law("--ties highest");
    assert_eq!(highest["target"]["ties"], "highest");
    assert_eq!(highest["law"].as_array().map(Vec::len), Some(1));
    assert_eq!(highest["law"][0]["pulls"].to_string(), "[1,2,2]");
    // Ordered uniform: 1,2 in order, then the round-3 tie drawn, 1/2 each.
    let ordered = law("--ties ordered-uniform");
    assert_eq!(ordered["target"]["ties"], "ordered-uniform");
    let half = "\"1/2\"".to_string();
    assert_eq!(
        entries(&ordered),
        vec![
            ("[1,2,1]".to_string(), half.clone()),
            ("[1,2,2]".to_string(), half)
        ]
    );
    // A sample of the uniform law fits it and is rejected under lowest.
    let samples = scratch("reading-flags").join("ties-samples.csv");
    let samples = samples.to_str().expect("a path");
    let mut sample = table_args(
        "sample",
        "ucb1",
        &rewards,
        &["--ties uniform --n 400 --seed 5"],
    );
    sample.extend(["--out", samples]);
    let out = dpdtol(&sample);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let gof = |ties: &str| {
        dpdtol(&gof_args(
            "ucb1",
            &rewards,
            samples,
            &format!("--ties {ties}"),
        ))
    };
    assert_eq!(gof("uniform").status.code(), Some(0));
    let rejected = gof("lowest");
    assert_eq!(rejected.status.code(), Some(1));
    let text = String::from_utf8(rejected.stdout).unwrap();
    assert!(text.contains("ties lowest"), "{text}");
}

#[test]
fn ties_is_refused_when_unknown_and_on_other_algorithms() {
    let rewards = rewards();
    refused(
        &table_args("law", "ucb1", &rewards, &["--ties random"]),
        "--ties expects one of lowest, uniform, highest, ordered-uniform, got 'random'",
    );
    refused(
        &law_args("dp-ucb", &rewards, "--ties uniform"),
        "--ties does not apply to dp-ucb",
    );
    refused(
        &bandit_args("dp-se", "10", "--epsilon 1 --ties uniform"),
        "--ties does not apply",
    );
    // UCB1 is not private: privacy takes no --ties.
    refused(&privacy_args("ucb1", "3", "--ties uniform"), "--ties");
}

#[test]
fn bandit_names_ucb1s_ties() {
    let run = |extra: &str| {
        let head = ["bandit", "--algorithm", "ucb1", "--horizon", "50"];
        json(&with_words(
            &head,
            &["--means 0.5,0.5 --runs 4 --json", extra],
        ))
    };
    assert_eq!(run("")["results"][0]["ties"], "lowest");
    let uniform = run("--ties uniform");
    assert_eq!(uniform["results"][0]["ties"], "uniform");
    let highest = run("--ties highest");
    assert_eq!(highest["results"][0]["ties"], "highest");
    let ordered = run("--ties ordered-uniform");
    assert_eq!(ordered["results"][0]["ties"], "ordered-uniform");
    // The same reward streams (fixed seed) pulled under the four readings:
    // Bernoulli(1/2) rewards tie the two arms' indices often.
    let lowest = run("")["results"][0]["mean_pulls"].clone();
    assert_ne!(uniform["results"][0]["mean_pulls"], lowest);
    assert_ne!(highest["results"][0]["mean_pulls"], lowest);
    assert_ne!(ordered["results"][0]["mean_pulls"], lowest);
}

/// The all-zero table of `tests/bandit_oracle.rs`'s `dp_ts_bonus_round_two_sample_test`
/// (ε = 100, bonus 12), where DP-TS's two readings differ from round 3 on.
fn zero_rewards() -> String {
    scratch_file("reading-flags", "zeros.csv", "0,0\n".repeat(7).as_bytes())
}

/// DP-TS pull sequences of the frozen reading, from the library's own
/// simulation (seed 7), as a CSV file of 1-based arms.
fn frozen_samples(rewards: &str, n: usize) -> String {
    use dpdtol::bandit::policy::dp_ts::BonusRound;
    use dpdtol::bandit::policy::BanditId;
    use dpdtol::oracle::bandit::{simulate, BanditSpec};
    let table = dpdtol::oracle::io::read_rewards(std::path::Path::new(rewards)).unwrap();
    let spec = BanditSpec {
        bonus: Some(dpdtol::num::Q::from_integer(12.into())),
        bonus_round: BonusRound::LastUpdate,
        ..BanditSpec::new(BanditId::DpTs, dpdtol::num::Q::from_integer(100.into()))
    };
    let samples = simulate(&spec, &table, n, 7, false).unwrap();
    let path = scratch("reading-flags").join("frozen.csv");
    dpdtol::oracle::io::write_samples(&path, &samples, 1).unwrap();
    path.display().to_string()
}

#[test]
fn bonus_round_selects_dp_ts_s_reading_in_gof_and_is_named() {
    let rewards = zero_rewards();
    let samples = frozen_samples(&rewards, 4000);
    let gof = |extra: &str| {
        let extra = format!("--epsilon 100 --bonus 12 --seed 3 --json {extra}");
        json(&gof_args("dp-ts", &rewards, &samples, &extra))
    };
    let frozen = gof("--bonus-round last-update");
    assert_eq!(frozen["target"]["bonus_round"], "last-update");
    assert_eq!(frozen["reject"], false, "{}", frozen["test"]);
    let current = gof("");
    assert_eq!(current["target"]["bonus_round"], "current");
    assert_eq!(current["reject"], true, "{}", current["test"]);
    // Each simulated algorithm reads a name it has: UCB1 keeps its default.
    let report = json(&bandit_args(
        "dp-ts,ucb1",
        "20",
        "--epsilon 1 --bonus-round last-update --json",
    ));
    let results = report["results"].as_array().unwrap();
    assert_eq!(results[0]["bonus_round"], "last-update");
    assert_eq!(results[1]["bonus_round"], "plays");
}

/// The docs' `T8'` at bonus 2: UCB1 pulls 1,2,2,2,2,1,1,2 reading
/// `ln(t − 1)` (`plays`) and 1,2,2,2,1,2,2,1 reading `ln t` of the current
/// round (`current`); the derivation is `bandit::law::ucb1`'s
/// `t8_prime_is_pulled_differently_by_the_two_bonus_rounds`.
#[test]
fn bonus_round_selects_ucb1s_logarithm_and_is_named() {
    let rewards = scratch_file(
        "reading-flags",
        "t8-prime.csv",
        b"0,0.75\n0,0.5\n1,1\n1,0.75\n0.25,0.25\n1,0.25\n0,0.25\n1,1\n",
    );
    let law = |extra: &str| json(&table_args("law", "ucb1", &rewards, &["--json", extra]));
    for (extra, round, pulls) in [
        ("", "plays", "[1,2,2,2,2,1,1,2]"),
        ("--bonus-round plays", "plays", "[1,2,2,2,2,1,1,2]"),
        ("--bonus-round current", "current", "[1,2,2,2,1,2,2,1]"),
    ] {
        let report = law(extra);
        assert_eq!(report["target"]["bonus_round"], round, "{extra}");
        assert_eq!(report["kind"], "exact");
        assert_eq!(report["law"].as_array().map(Vec::len), Some(1));
        assert_eq!(report["law"][0]["pulls"].to_string(), pulls, "{extra}");
        assert_eq!(report["law"][0]["probability_exact"], "1");
    }
    let text = dpdtol(&table_args(
        "law",
        "ucb1",
        &rewards,
        &["--bonus-round current"],
    ));
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("ties lowest, bonus-round current"), "{text}");
    // The simulation names it, both algorithms reading `current`.
    let run = |extra: &str| json(&bandit_args("ucb1,dp-ts", "20", extra));
    let current = run("--epsilon 1 --bonus-round current --json");
    let results = current["results"].as_array().unwrap();
    assert_eq!(results[0]["bonus_round"], "current");
    assert_eq!(results[1]["bonus_round"], "current");
    assert_eq!(
        run("--epsilon 1 --json")["results"][0]["bonus_round"],
        "plays"
    );
}

#[test]
fn bonus_round_is_refused_on_other_algorithms_and_unknown_names() {
    let rewards = zero_rewards();
    refused(
        &bandit_args("ucb1", "10", "--bonus-round last-update"),
        "--bonus-round expects one of plays, current, got 'last-update'",
    );
    refused(
        &table_args("law", "ucb1", &rewards, &["--bonus-round last-update"]),
        "--bonus-round expects one of plays, current, got 'last-update'",
    );
    refused(
        &bandit_args("ucb1,dp-ts", "10", "--epsilon 1 --bonus-round frozen"),
        "--bonus-round expects one of plays, current (ucb1) or current, last-update (dp-ts), got 'frozen'",
    );
    refused(
        &law_args("dp-ucb", &rewards, "--bonus-round current"),
        "--bonus-round does not apply to dp-ucb",
    );
    refused(
        &bandit_args("dp-ts", "10", "--epsilon 1 --bonus-round frozen"),
        "--bonus-round expects one of current, last-update, got 'frozen'",
    );
    refused(
        &gof_args(
            "lazy-dp-ts",
            &rewards,
            &rewards,
            "--epsilon 1 --bonus-round last-update",
        ),
        "--bonus-round does not apply to lazy-dp-ts",
    );
    refused(
        &privacy_args("hybrid-ucb", "3", "--bonus-round last-update"),
        "--bonus-round does not apply to hybrid-ucb",
    );
}

#[test]
fn bonus_round_is_named_by_dp_ts_s_privacy_audit_and_survives_its_merge() {
    let audit = |extra: &str| privacy("dp-ts", "3", &format!("--runs 200 {extra}"));
    assert_eq!(audit("")["bonus_round"], "current");
    let whole = audit("--bonus-round last-update");
    assert_eq!(whole["bonus_round"], "last-update");
    let parts: Vec<Value> = ["1/2", "2/2"]
        .iter()
        .map(|shard| audit(&format!("--bonus-round last-update --shard {shard}")))
        .collect();
    let dir = scratch("reading-flags");
    let list = merge_list(&dir, "dp-ts-frozen", &parts[0], &parts[1]);
    let merged = json(&["privacy", "--merge", &list, "--json"]);
    assert_eq!(merged["bonus_round"], "last-update");
    assert_eq!(merged["epsilon_lower"], whole["epsilon_lower"]);
    // A part whose reading was changed is not this audit's.
    let mut forged = parts[0].clone();
    forged["bonus_round"] = "current".into();
    let list = merge_list(&dir, "dp-ts-forged", &forged, &parts[1]);
    let out = dpdtol(&["privacy", "--merge", &list, "--json"]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}
