//! The exhaustive privacy check of Anytime-Lazy-UCB (src/privacy/bandit/exact.rs):
//! its reduction to what the learner sees against a brute force over pairs
//! of reward tables; the command line's verdicts, witness and errors.

mod common;

use common::{dpdtol, gives_a_result, hybrid_law, json};
use dpdtol::bandit::law::anytime_lazy_ucb::LazyUcbParams;
use dpdtol::bandit::law::{law, PullLaw};
use dpdtol::num::{Certified, Precision, Real, Q};
use dpdtol::privacy::bandit::exact::check;
use std::time::Instant;

fn q(n: i64, d: i64) -> Q {
    Q::new(n.into(), d.into())
}

const BITS: Precision = Precision(128);

/// The maximum over every table `x ∈ ({0,1}²)^T`, every neighbour (one
/// round's vector replaced by each of the 3 others) and every pull sequence
/// of `P(a|x)/P(a|x')`, each law computed on the whole table — no use of the
/// reduction to seen rewards. Returns the largest lower end.
fn brute_force(params: &LazyUcbParams, horizon: usize) -> Q {
    brute_force_of(horizon, |rows| {
        law::<Certified>(params, rows, &BITS)
            .unwrap()
            .into_iter()
            .map(|(_, p)| p)
            .collect()
    })
}

/// [`brute_force`] with the laws of `laws` (one probability per pull
/// sequence, in a fixed order).
fn brute_force_of(horizon: usize, laws: impl Fn(&[[Q; 2]]) -> Vec<Certified>) -> Q {
    let tables = 1u32 << (2 * horizon);
    let rows = |code: u32| -> Vec<[Q; 2]> {
        (0..horizon)
            .map(|t| [0, 1].map(|j| q(i64::from((code >> (2 * t + j)) & 1), 1)))
            .collect()
    };
    let laws: Vec<Vec<Certified>> = (0..tables).map(|c| laws(&rows(c))).collect();
    let mut best = q(0, 1);
    for x in 0..tables {
        for r in 0..horizon {
            for v in 0..4u32 {
                let y = (x & !(3 << (2 * r))) | (v << (2 * r));
                if y == x {
                    continue;
                }
                for (p, p2) in laws[x as usize].iter().zip(&laws[y as usize]) {
                    if p.is_zero_certain() {
                        continue;
                    }
                    let (lo, _) = (p.clone() / p2).enclosure().unwrap();
                    best = best.max(lo);
                }
            }
        }
    }
    best
}

#[test]
fn the_check_agrees_with_a_brute_force_over_reward_tables() {
    for (horizon, params) in [
        (3, LazyUcbParams::printed(q(1, 1))),
        (4, LazyUcbParams::printed(q(1, 2))),
        (
            4,
            LazyUcbParams {
                scale: q(1, 2),
                ..LazyUcbParams::printed(q(1, 1))
            },
        ),
    ] {
        let outcome =
            check::<Certified>(&params, horizon, &[q(0, 1), q(1, 1)], false, &BITS).unwrap();
        let (lo, hi) = outcome.max_ratio.clone().unwrap();
        let brute = brute_force(&params, horizon);
        assert!(
            lo <= brute && brute <= hi,
            "T = {horizon}: {brute} not in [{lo}, {hi}]"
        );
        assert_eq!(outcome.pairs, 4u64.pow(horizon as u32) * horizon as u64 * 3);
    }
}

/// The arguments of a T = 4, ε = 1 check with each `(flag, value)` of
/// `changes` set (added if new).
fn with(changes: &[(&'static str, &'static str)]) -> Vec<&'static str> {
    let mut args: Vec<&'static str> =
        "privacy --algorithm anytime-lazy-ucb --actions 2 --horizon 4 --alphabet 0,1 --epsilon 1"
            .split(' ')
            .collect();
    for &(flag, value) in changes {
        match args.iter().position(|a| *a == flag) {
            Some(i) => args[i + 1] = value,
            None => args.extend([flag, value]),
        }
    }
    args
}

fn run(
    horizon: &'static str,
    epsilon: &'static str,
    scale: Option<&'static str>,
) -> serde_json::Value {
    let mut changes = vec![("--horizon", horizon), ("--epsilon", epsilon)];
    changes.extend(scale.map(|s| ("--noise-scale", s)));
    let mut args = with(&changes);
    args.push("--json");
    json(&args)
}

fn decimal(v: &serde_json::Value) -> f64 {
    v.as_str().unwrap().parse().unwrap()
}

/// `P(pulls|x)/P(pulls|x')` of a JSON witness, from the laws of its two
/// reward tables computed again.
fn recomputed_ratio(w: &serde_json::Value, params: &impl PullLaw) -> Certified {
    common::bandit_witness_ratio(w, params, BITS)
}

/// The printed scale `1/ε` passes at T = 4; half of it fails, and the
/// witness's own ratio is above `e^ε` (the laws of its two tables, computed
/// again here, give the same ratio).
#[test]
fn half_the_printed_scale_is_violated_with_a_witness() {
    let printed = run("4", "1", None);
    assert_eq!(printed["verdict"], "private");
    assert!(decimal(&printed["max_ratio"]) <= 1f64.exp());
    let planted = run("4", "1", Some("1/2"));
    assert_eq!(planted["verdict"], "violated", "{planted}");
    let w = &planted["witness"];
    assert!(decimal(&w["ratio"]) > 1f64.exp());
    let params = LazyUcbParams {
        scale: q(1, 2),
        ..LazyUcbParams::printed(q(1, 1))
    };
    let ratio = recomputed_ratio(w, &params);
    assert!((ratio.to_f64() - decimal(&w["ratio"])).abs() < 1e-12);
}

/// The same JSON keys (and witness keys) as the full-information check.
#[test]
fn the_json_has_the_contract_keys() {
    let keys = |v: &serde_json::Value| -> Vec<String> {
        let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
        k.sort();
        k
    };
    let bandit = run("4", "1", None);
    let mut args = with(&[("--algorithm", "hu-rnm-ftnl")]);
    args.push("--json");
    let full = json(&args);
    // Plus `quotients`, the P(a|y)/P(a|y') compared (a shard's measure of
    // its part, --shard below).
    let mut bandit_keys = keys(&bandit);
    bandit_keys.retain(|k| k != "quotients");
    assert_eq!(bandit_keys, keys(&full));
    // The bandit's witness names its reward table `rewards` beside `losses`.
    let mut witness_keys = keys(&bandit["witness"]);
    witness_keys.retain(|k| k != "rewards");
    assert_eq!(witness_keys, keys(&full["witness"]));
    assert_eq!(bandit["witness"]["rewards"], bandit["witness"]["losses"]);
    // Both witnesses give the two probabilities of their ratio.
    for w in [&bandit["witness"], &full["witness"]] {
        let quotient = decimal(&w["probability"]) / decimal(&w["neighbour_probability"]);
        assert!((quotient - decimal(&w["ratio"])).abs() < 1e-12, "{w}");
    }
    assert_eq!(bandit["kind"], "certified");
    assert_eq!(bandit["pairs"], 4u64.pow(4) * 4 * 3);
}

#[test]
fn bad_input_is_one_line_and_status_two() {
    for (flag, value) in [
        ("--actions", "5"),
        ("--alphabet", "0,2"),
        ("--epsilon", "0"),
        ("--horizon", "40"),
        ("--shard", "3/2"),
        ("--shard", "1/100000"),
        ("--noise-scale", "-1"),
        ("--algorithm", "ucb1"),
    ] {
        let args = with(&[(flag, value)]);
        let out = dpdtol(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
    }
}

/// The performance target: K = 2, rewards {0, 1}, T = 6, ε = 1
/// decided in under 30 s (run in release: CI's ignored step).
#[test]
#[ignore = "timed: run in release"]
fn horizon_six_is_decided_in_under_thirty_seconds() {
    let start = Instant::now();
    let report = run("6", "1", None);
    let seconds = start.elapsed().as_secs_f64();
    assert_eq!(report["verdict"], "private");
    assert!(seconds < 30.0, "{seconds} s");
}

// ---- DP-SE ----

use dpdtol::bandit::law::dp_se::DpSeParams;

/// DP-SE at ε, `β = 1/T`, noise `factor/ε`, epoch lengths `lengths`.
fn dp_se(epsilon: Q, horizon: usize, factor: Q, lengths: &[u64]) -> DpSeParams {
    let mut p = DpSeParams::printed(epsilon.clone(), horizon).unwrap();
    p.scale = factor / epsilon;
    p.lengths = lengths.to_vec();
    p.printed_lengths = false;
    p
}

fn dp_se_against_brute_force(cases: &[(usize, DpSeParams)]) {
    for (horizon, params) in cases {
        let horizon = *horizon;
        let outcome =
            check::<Certified>(params, horizon, &[q(0, 1), q(1, 1)], false, &BITS).unwrap();
        let (lo, hi) = outcome.max_ratio.clone().unwrap();
        let brute = brute_force_of(horizon, |rows| {
            law::<Certified>(params, rows, &BITS)
                .unwrap()
                .into_iter()
                .map(|(_, p)| p)
                .collect()
        });
        assert!(
            lo <= brute && brute <= hi,
            "T = {horizon}: {brute} not in [{lo}, {hi}]"
        );
        assert!(lo > q(1, 1), "T = {horizon}: the noise is exercised");
    }
}

#[test]
fn dp_se_check_agrees_with_a_brute_force_over_reward_tables() {
    dp_se_against_brute_force(&[
        (4, dp_se(q(1, 1), 4, q(1, 1), &[1])),
        (4, dp_se(q(1, 1), 4, q(1, 2), &[1])),
    ]);
}

/// DP-SE at T = 4, R_e = 1, read by pull (arm a's n-th pull receives row
/// n's entry of arm a): the witness's tables, given to the same law again
/// (what `dpdtol law --reward-index pull` prints for each), have the ratio
/// reported, differ in one entry, in the cell that the witness round's
/// pull receives; the pairs covered are 4⁴ tables · 4 rows · 2 entries.
#[test]
fn dp_se_witness_read_by_pull_has_its_ratio_on_its_tables() {
    use dpdtol::bandit::policy::dp_se::RewardIndex;
    let mut params = dp_se(q(1, 1), 4, q(1, 1), &[1]);
    params.reward_index = RewardIndex::Pull;
    let outcome = check::<Certified>(&params, 4, &[q(0, 1), q(1, 1)], false, &BITS).unwrap();
    assert_eq!(outcome.pairs, 256 * 4 * 2);
    let w = &outcome.witness;
    let probability = |rows: &[Vec<Q>]| {
        law::<Certified>(&params, rows, &BITS)
            .unwrap()
            .into_iter()
            .find(|(pulls, _)| pulls == &w.pulls)
            .unwrap()
            .1
    };
    let ratio = probability(&w.rewards) / &probability(&w.neighbour);
    let (lo, hi) = w.ratio.clone().unwrap();
    let (rlo, rhi) = ratio.enclosure().unwrap();
    assert!(
        rlo <= hi && lo <= rhi,
        "[{rlo}, {rhi}] against [{lo}, {hi}]"
    );
    assert!(lo > q(1, 1), "the noise is exercised");
    let changed: Vec<(usize, usize)> = (0..4)
        .flat_map(|t| (0..2).map(move |a| (t, a)))
        .filter(|&(t, a)| w.rewards[t][a] != w.neighbour[t][a])
        .collect();
    assert_eq!(changed, vec![params.cells(&w.pulls)[w.round - 1]]);
}

/// Two decisions (epoch ends at rounds 2 and 4): about 15 s in debug.
#[test]
#[ignore = "1024 reward tables at T = 5: run in release"]
fn dp_se_check_agrees_with_a_brute_force_at_two_epoch_ends() {
    dp_se_against_brute_force(&[
        (5, dp_se(q(1, 2), 5, q(1, 1), &[1])),
        (5, dp_se(q(1, 1), 5, q(1, 1), &[1, 2])),
    ]);
}

fn dp_se_run(extra: &[&'static str]) -> serde_json::Value {
    let mut args: Vec<&str> =
        "privacy --algorithm dp-se --actions 2 --horizon 4 --alphabet 0,1 --epsilon 1 --json"
            .split(' ')
            .collect();
    args.extend(extra);
    json(&args)
}

/// As printed, no epoch ends within 4 rounds: ratio exactly 1, and the
/// output says the noise is never consulted.
#[test]
fn dp_se_as_printed_is_trivially_private_and_says_so() {
    let out = dp_se_run(&[]);
    assert_eq!(out["verdict"], "private");
    assert_eq!(out["noise_consulted"], false);
    assert_eq!(out["epoch_lengths_printed"], true);
    assert_eq!(decimal(&out["max_ratio"]), 1.0);
    assert!(out["note"].as_str().unwrap().contains("trivial"));
}

/// With `R_e = 1` the printed scale passes and half of it fails; the
/// witness's ratio is recomputed from the laws of its two tables.
#[test]
fn dp_se_half_scale_is_violated_with_a_witness() {
    let printed = dp_se_run(&["--epoch-length", "1"]);
    assert_eq!(printed["verdict"], "private", "{printed}");
    assert_eq!(printed["noise_consulted"], true);
    assert!(decimal(&printed["max_ratio"]) > 1.0);
    let planted = dp_se_run(&["--epoch-length", "1", "--noise-scale", "1/2"]);
    assert_eq!(planted["verdict"], "violated", "{planted}");
    let w = &planted["witness"];
    let ratio = recomputed_ratio(w, &dp_se(q(1, 1), 4, q(1, 2), &[1]));
    assert!(ratio.to_f64() > 1f64.exp());
    assert!((ratio.to_f64() - decimal(&w["ratio"])).abs() < 1e-12);
}

#[test]
fn dp_se_bad_input_is_one_line_and_status_two() {
    let base = "privacy --algorithm dp-se --actions 2 --horizon 4 --alphabet 0,1 --epsilon 1";
    for line in [
        format!("{base} --epoch-length 0"),
        format!("{base} --epoch-length 1,x"),
        format!("{base} --shard 0/2"),
        base.replace("--actions 2", "--actions 3"),
    ] {
        let args: Vec<&str> = line.split(' ').collect();
        let out = dpdtol(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
    }
    for algorithm in ["anytime-lazy-ucb", "hu-rnm-ftnl"] {
        let mut args = with(&[("--algorithm", algorithm)]);
        args.extend(["--epoch-length", "1"]);
        let out = dpdtol(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}

// ---- --shard and --merge (src/cli/privacy/bandit.rs) -----------------------

/// A fresh directory for a test's shard files.
fn shard_dir(test: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("dpdtol-bandit-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Run `args` with `--shard i/n --json` for every i, write each output to a
/// file of `dir`; the files' paths.
fn write_shards(dir: &std::path::Path, args: &[&str], n: u64) -> Vec<String> {
    (1..=n)
        .map(|i| {
            let shard = format!("{i}/{n}");
            let mut a = args.to_vec();
            a.extend(["--shard", &shard, "--json"]);
            let out = dpdtol(&a);
            assert!(
                gives_a_result(&out),
                "{a:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let path = dir.join(format!("shard-{i}.json"));
            std::fs::write(&path, &out.stdout).unwrap();
            path.display().to_string()
        })
        .collect()
}

/// Two shards of `args` written in the subdirectory `name` of `dir`.
fn shards_in(dir: &std::path::Path, name: &str, args: &[&str]) -> Vec<String> {
    let sub = dir.join(name);
    std::fs::create_dir_all(&sub).unwrap();
    write_shards(&sub, args, 2)
}

/// Every merge of `cases` (what is wrong, the comma-separated files) is
/// refused: status 2, one line on stderr.
fn merges_refused(cases: &[(&str, String)]) {
    for (what, list) in cases {
        let out = dpdtol(&["privacy", "--merge", list, "--json"]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{what}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{what}: {stderr}");
    }
}

/// The bytes `dpdtol` prints for `args`, which must give a result.
fn stdout(args: &[&str]) -> Vec<u8> {
    let out = dpdtol(args);
    assert!(
        gives_a_result(&out),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// The shards of a run, merged, print the whole run's JSON byte for byte
/// (as the CI's four-shard step checks for wu-wang), for both algorithms;
/// anytime-lazy-ucb's shard 2/4 at T = 5 has no pull sequence of positive
/// probability (its witness is empty) and must not disturb the merge. The
/// paragraph of the merge is the whole run's paragraph too.
#[test]
fn bandit_shards_merge_into_the_whole_run_byte_for_byte() {
    let dir = shard_dir("merge");
    let ucb =
        "privacy --algorithm anytime-lazy-ucb --actions 2 --horizon 5 --alphabet 0,1 --epsilon 1";
    let dp_se = "privacy --algorithm dp-se --actions 2 --horizon 5 --alphabet 0,1/2,1 --epsilon 1/2 --epoch-length 1 --noise-scale 1";
    let hybrid = "privacy --algorithm hybrid-ucb --actions 2 --horizon 5 --alphabet 0,1 --epsilon 1 --scale-factor 1/2";
    for (line, n) in [(ucb, 4), (dp_se, 3), (ucb, 7), (hybrid, 3)] {
        let args: Vec<&str> = line.split(' ').collect();
        let files = write_shards(&dir, &args, n).join(",");
        let mut whole = args.clone();
        whole.push("--json");
        let merged = stdout(&["privacy", "--merge", &files, "--json"]);
        assert_eq!(
            common::without_spot_check(&String::from_utf8_lossy(&merged)),
            String::from_utf8_lossy(&stdout(&whole)),
            "{line}, {n} shards"
        );
        assert_eq!(
            common::without_spot_check(&String::from_utf8_lossy(&stdout(&[
                "privacy", "--merge", &files
            ]))),
            String::from_utf8_lossy(&stdout(&args)),
            "{line}, {n} shards, paragraph"
        );
        // The shards' quotients add up to the whole run's.
        let total: u64 = files
            .split(',')
            .map(|f| {
                let v: serde_json::Value =
                    serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap();
                assert!(
                    v["pairs"].is_null(),
                    "a shard covers quotients, not table pairs"
                );
                v["quotients"].as_u64().unwrap()
            })
            .sum();
        let whole: serde_json::Value = serde_json::from_slice(&merged).unwrap();
        assert_eq!(whole["quotients"].as_u64(), Some(total), "{line}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// An incomplete, repeated, mixed or altered set of shards is refused with
/// one line and status 2; an altered witness is caught by evaluating it
/// again, an altered derived field by printing the report again.
#[test]
fn bandit_merge_refuses_incomplete_mixed_or_altered_shards() {
    let dir = shard_dir("refuse");
    let base = "privacy --algorithm dp-se --actions 2 --horizon 4 --alphabet 0,1 --epsilon 1 --epoch-length 1";
    let args: Vec<&str> = base.split(' ').collect();
    let files = write_shards(&dir, &args, 2);
    let other_eps: Vec<&str> = base
        .replace("--epsilon 1", "--epsilon 1/2")
        .leak()
        .split(' ')
        .collect();
    let other = shards_in(&dir, "other", &other_eps);
    let full = shards_in(
        &dir,
        "full",
        &common::privacy_command("hu-rnm-ftnl", "2", "2", "0,1", "1"),
    );
    let first: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&files[0]).unwrap()).unwrap();
    let altered = |what: &str, change: &dyn Fn(&mut serde_json::Value)| -> String {
        let mut v = first.clone();
        change(&mut v);
        let path = dir.join(format!("altered-{what}.json"));
        std::fs::write(&path, v.to_string()).unwrap();
        path.display().to_string()
    };
    let lo = first["merge"]["max_ratio"]["lo"]
        .as_str()
        .unwrap()
        .to_string();
    let cases: Vec<(&str, String)> = vec![
        ("missing", files[0].clone()),
        ("twice", format!("{},{}", files[0], files[0])),
        ("other ε", format!("{},{}", files[0], other[1])),
        ("full-information", format!("{},{}", files[0], full[1])),
        (
            "verdict",
            format!(
                "{},{}",
                altered("verdict", &|v| v["verdict"] = "violated".into()),
                files[1]
            ),
        ),
        (
            "max ratio",
            format!(
                "{},{}",
                altered("max", &|v| v["merge"]["max_ratio"]["lo"] =
                    format!("{lo}1").into()),
                files[1]
            ),
        ),
        (
            "witness law",
            format!(
                "{},{}",
                altered("law", &|v| {
                    let law = v["merge"]["law"].as_u64().unwrap();
                    v["merge"]["law"] = (law + 1).into();
                }),
                files[1]
            ),
        ),
        (
            "precision",
            format!(
                "{},{}",
                altered("bits", &|v| v["precision_bits"] = 200.into()),
                files[1]
            ),
        ),
        (
            "shard",
            format!(
                "{},{}",
                altered("shard", &|v| v["shard"] = "2/2".into()),
                files[1]
            ),
        ),
    ];
    merges_refused(&cases);
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- Lazy-DP-TS: the statistical audit (src/privacy/bandit/statistical.rs) ----------

use dpdtol::privacy::bandit::statistical::{
    audit as ts_audit, audit_pair, pulls_code, sample_counts, selection, AuditSetup, Audited,
    HybridParams, Table, TsParams,
};
use rand::SeedableRng;

/// `T` rows: round 1 `first`, round 2 `second`, then `rest`.
fn ts_table(first: [usize; 2], second: [usize; 2], rest: [usize; 2], horizon: usize) -> Table {
    (0..horizon)
        .map(|t| match t {
            0 => first,
            1 => second,
            _ => rest,
        })
        .collect()
}

/// The audit's bound on one pair, at the one-sided level of the full
/// audit's Bonferroni correction at `T = 6` (so a flag here is a flag there).
fn ts_pair_bound<A: Audited>(params: &A, x: &Table, y: &Table, runs: u64, seed: u64) -> f64 {
    let alphabet = [0.0, 1.0];
    let m = selection(6, 2).unwrap().pairs.len() as f64;
    let level = 0.05 / (2.0 * m);
    let cx = sample_counts(params, x, &alphabet, runs, seed, 0);
    let cy = sample_counts(params, y, &alphabet, runs, seed, 1);
    audit_pair(&cx, &cy, 6, level).epsilon_lower
}

/// The planted variant (half the printed scale, bonus 3 → 1/1000) is
/// flagged on the pair the full audit found most discriminating at T = 6,
/// ε = 1 (round 1's reward of arm 1 changed, every later reward 0); the
/// printed scale is not flagged there, with the printed bonus or with the
/// bonus lowered alike (the bonus does not touch the data: any bonus is
/// ε-DP by post-processing, so a flag would be a false alarm).
#[test]
fn ts_audit_flags_half_scale_and_not_the_printed_scale_on_a_pair() {
    let (eps, runs, seed) = (1.0, 100_000, 11);
    let x = ts_table([0, 0], [0, 1], [0, 0], 6);
    let y = ts_table([1, 0], [0, 1], [0, 0], 6);
    let planted = TsParams {
        noise_scale: 0.5 / eps,
        bonus: 1e-3,
        ..TsParams::printed(eps)
    };
    let b = ts_pair_bound(&planted, &x, &y, runs, seed)
        .max(ts_pair_bound(&planted, &y, &x, runs, seed));
    assert!(
        b > eps,
        "planted variant: ε lower bound {b} ≤ ε = {eps} (seed {seed}, {runs} runs)"
    );
    for bonus in [3.0, 1e-3] {
        let printed = TsParams {
            bonus,
            ..TsParams::printed(eps)
        };
        let b = ts_pair_bound(&printed, &x, &y, runs, seed)
            .max(ts_pair_bound(&printed, &y, &x, runs, seed));
        assert!(
            b <= eps,
            "printed scale, bonus {bonus}: flagged, ε lower bound {b} > {eps} (seed {seed})"
        );
    }
}

/// The whole audit at `horizon`, seed 2026, confidence 0.95:
/// `planted` reported violated, `printed` not.
fn full_audit_flags_only(
    horizon: usize,
    runs: u64,
    planted: &impl Audited,
    printed: &impl Audited,
) {
    let setup = AuditSetup {
        horizon,
        alphabet: vec![0.0, 1.0],
        runs,
        seed: 2026,
        confidence: 0.95,
        force: false,
    };
    let o = ts_audit(planted, &setup, &|_| {}).unwrap();
    assert!(
        o.violated,
        "planted: ε lower bound {}",
        o.best.epsilon_lower
    );
    let o = ts_audit(printed, &setup, &|_| {}).unwrap();
    assert!(
        !o.violated,
        "printed: ε lower bound {}",
        o.best.epsilon_lower
    );
}

/// The whole audit at T = 8, ε = 1/2 (304 tables): the planted variant is
/// reported violated and the printed algorithm is not, at confidence 0.95.
#[test]
#[ignore = "about 30 million simulated runs; CI runs it in release"]
fn ts_audit_full_grid_t8_flags_only_the_planted_variant() {
    let eps = 0.5;
    let planted = TsParams {
        noise_scale: 0.5 / eps,
        bonus: 1e-3,
        ..TsParams::printed(eps)
    };
    full_audit_flags_only(8, 50_000, &planted, &TsParams::printed(eps));
}

/// Sampler against an exact law. With noise scale 10⁻⁹ and bonus 10⁻¹²,
/// rewards 1 for arm 1 and 0 for arm 2 in every round, line 4's `μ̄` is 1 for
/// arm 1 and 0 for arm 2 up to 10⁻⁸ (off an event of probability below
/// e^{−10³}), so `θ_1 ~ Beta(O_1 + 1, 1)`, `θ_2 ~ Beta(1, O_2 + 1)`, and the
/// law of the pulls of rounds 3, 4, 5 follows by hand from
/// `P(Beta(a, 1) > Beta(1, b)) = 1 − a·B(a, b + 1)`:
/// `(a, b) = (2, 2)`: 5/6 (rounds 3, 4, and round 5 after one pull each);
/// after arm 1 twice (its epoch ends, `O_1 = 2`): `(3, 2)`: 9/10;
/// after arm 2 twice (`O_2 = 2`): `(2, 3)`: 9/10.
#[test]
fn ts_sampler_matches_the_exact_law_at_t5() {
    let params = TsParams {
        noise_scale: 1e-9,
        bonus: 1e-12,
        ..TsParams::printed(1.0)
    };
    let table = ts_table([1, 0], [1, 0], [1, 0], 5);
    let alphabet = [0.0, 1.0];
    let (a, b) = (5.0 / 6.0, 9.0 / 10.0);
    // Code bit t − 3 is round t's arm (0-based); arm 0 is the paper's arm 1.
    let mut expected = [0.0; 8];
    for (code, e) in expected.iter_mut().enumerate() {
        let (j3, j4, j5) = (code & 1, code >> 1 & 1, code >> 2 & 1);
        let p3 = if j3 == 0 { a } else { 1.0 - a };
        let p4 = if j4 == 0 { a } else { 1.0 - a };
        let p5_arm0 = if j3 == j4 { b } else { a };
        let p5 = if j5 == 0 { p5_arm0 } else { 1.0 - p5_arm0 };
        *e = p3 * p4 * p5;
    }
    assert!((expected.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    let (n, seed) = (60_000u64, 5u64);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut observed = [0u64; 8];
    for _ in 0..n {
        observed[pulls_code(&params, &table, &alphabet, &mut rng)] += 1;
    }
    let p = common::chi_square_p_value(&observed, &expected);
    assert!(
        p > 1e-6,
        "seed {seed}, n = {n}: chi-square p = {p}, observed {observed:?}"
    );
}

/// The selection: |V|⁴ base tables plus, per base table, (T − 2)(|V|² − 1)
/// neighbours; both directions of each pair; every pair differs in exactly
/// its round, and only in seen entries for rounds 1 and 2.
#[test]
fn ts_selection_is_as_documented() {
    for horizon in [4, 5, 8] {
        let s = selection(horizon, 2).unwrap();
        // From T = 5 on, a neighbour's one odd later row names its base table;
        // at T = 4 the table with later rows (u, w) neighbours base(u) and base(w).
        let tables = if horizon == 4 {
            64
        } else {
            16 + 16 * (horizon - 2) * 3
        };
        assert_eq!(s.tables.len(), tables);
        // Unordered: 16·(1/2 + 1/2) for rounds 1, 2 and 16·(T − 2)·3 later.
        assert_eq!(s.pairs.len(), 2 * (16 + 16 * (horizon - 2) * 3));
        for &(i, j, r) in &s.pairs {
            let (x, y) = (&s.tables[i], &s.tables[j]);
            let differ: Vec<usize> = (0..horizon).filter(|&t| x[t] != y[t]).collect();
            assert_eq!(differ, vec![r - 1]);
            if r <= 2 {
                // Round 1 pulls arm 1 (index 0), round 2 arm 2: the other is unseen.
                let unseen = 2 - r;
                assert_eq!(x[r - 1][unseen], y[r - 1][unseen]);
            }
        }
    }
    // T = 3: every table is a base table, each unordered pair once a direction.
    let s = selection(3, 2).unwrap();
    assert_eq!(s.tables.len(), 16);
    assert_eq!(s.pairs.len(), 2 * (16 + 16 * 3 / 2));
}

/// `dpdtol privacy --algorithm lazy-dp-ts` at K = 2, T = 4, {0, 1}, ε = 1,
/// with `extra` flags after (a later flag overrides an earlier one).
fn ts_command(extra: &[&'static str]) -> Vec<&'static str> {
    let mut args = vec![
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
    ];
    for pair in extra.chunks(2) {
        match args.iter().position(|a| *a == pair[0]) {
            Some(i) if pair.len() == 2 => args[i + 1] = pair[1],
            _ => args.extend_from_slice(pair),
        }
    }
    args
}

/// The command `args` is refused: status 2, one line on stderr.
fn refused_in_one_line(args: &[&str]) {
    let out = dpdtol(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
}

#[test]
fn ts_audit_command_line_contract() {
    let v = json(&ts_command(&["--runs", "4000", "--seed", "3", "--json"]));
    assert_eq!(v["kind"], "approximate");
    assert_eq!(v["verdict"], "undecided");
    assert!(v["verdict_text"]
        .as_str()
        .unwrap()
        .starts_with("no violation detected at confidence 0.95"));
    assert_eq!(v["pairs"], 224);
    assert!(v["witness"]["actions"].as_array().unwrap().len() == 4);
    for bad in [
        ["--runs", "1"],
        ["--horizon", "9"],
        ["--actions", "3"],
        ["--runs", "100000000"],
        ["--confidence", "1"],
        ["--bonus", "0"],
    ] {
        refused_in_one_line(&ts_command(&bad));
    }
    let mut other = ts_command(&["--runs", "10"]);
    other[2] = "anytime-lazy-ucb";
    assert_eq!(dpdtol(&other).status.code(), Some(2));
}

// ---- The audit reproduces a recorded Lazy-DP-TS result ----------------------

/// `dpdtol privacy --algorithm lazy-dp-ts` at K = 2, {0, 1}, ε = 1, T = 6,
/// noise scale 1/2, bonus 1/1000, 6000 runs, seed 11, recorded from an
/// audit written for Lazy-DP-TS alone (its `--json` output, by hand): the
/// pair (round 1's seen reward of arm 1 changed 0 → 1, rows 3..6 = (0, 1)),
/// the event {1 2 2 2 2 2}, test counts 566 and 152 of 3000, ε lower bound
/// 0.87180679965489…, each Clopper–Pearson bound one-sided at
/// 6.00961538461539e-5. The audit generic over the policy gives the same
/// numbers from the same seed.
#[test]
fn generic_audit_reproduces_the_earlier_lazy_dp_ts_numbers() {
    let v = json(&ts_command(&[
        "--horizon",
        "6",
        "--noise-scale",
        "1/2",
        "--bonus",
        "1/1000",
        "--runs",
        "6000",
        "--seed",
        "11",
        "--json",
    ]));
    let w = &v["witness"];
    assert_eq!(w["counts"], serde_json::json!([566, 152]));
    assert_eq!(w["round"], 1);
    assert_eq!(w["event"], serde_json::json!([[1, 2, 2, 2, 2, 2]]));
    let rows = |first: &str| {
        let mut r = vec![serde_json::json!(["0", "0"]); 6];
        r[0] = serde_json::json!([first, "0"]);
        for row in r.iter_mut().skip(2) {
            *row = serde_json::json!(["0", "1"]);
        }
        serde_json::Value::from(r)
    };
    assert_eq!(w["losses"], rows("0"));
    assert_eq!(w["neighbour"], rows("1"));
    assert!(v["epsilon_lower"]
        .as_str()
        .unwrap()
        .starts_with("0.871806799654893"));
    assert_eq!(v["level_per_bound"].as_f64(), Some(6.00961538461539e-5));
    assert_eq!(
        w["probability_bounds"],
        serde_json::json!([0.1621206063014441, 0.06779807091290069])
    );
    assert_eq!(v["verdict"], "undecided");
}

// ---- Hybrid-UCB: the statistical audit (src/privacy/bandit/statistical.rs) --------

/// An independent Hybrid-UCB for K = 2 from the noise structure documented
/// in `stat_audit::HybridParams` (not from `HybridUcb`'s arrays and tree):
/// insertion `n` of an arm draws one Laplace `z[n]`, of scale `b_a` when
/// `n` is a power of two (a new array block: `n = 1` or a full tree), else
/// `(m + 1)·b_t`, `m = ⌊log₂ n⌋`; the noisy sum after `n` observations adds
/// to the true sum the array noises `z[2^k]`, `2^k ≤ n`, and, with
/// `i = n − 2^m`, the p-sum noises `z[2^m + (i >> k << k)]` of the set bits
/// `k` of `i`; the index is `μ̃ + √(c ln t/n) + c ln t·B/n`, `B` the scales
/// of those noises. Returns the pull code of rounds 3..T.
fn hybrid_by_hand(
    p: &HybridParams,
    table: &Table,
    rng: &mut dpdtol::bandit::policy::NoiseRng,
) -> usize {
    let pow2 = |n: usize| n.is_power_of_two();
    let log2 = |n: usize| (usize::BITS - 1 - n.leading_zeros()) as usize;
    let mut z: [Vec<f64>; 2] = [vec![0.0], vec![0.0]];
    let mut sum = [0.0f64; 2];
    let mut code = 0;
    for (r, row) in table.iter().enumerate() {
        let t = r + 1;
        let arm = if t <= 2 {
            t - 1
        } else {
            let ln_t = (t as f64).ln();
            let index = |j: usize| {
                let n = z[j].len() - 1;
                let m = log2(n);
                let mut noise: f64 = (0..=m).map(|k| z[j][1 << k]).sum();
                let mut scale = (m + 1) as f64 * p.array_scale;
                if !pow2(n) {
                    let i = n - (1 << m);
                    for k in (0..=m).filter(|&k| i >> k & 1 == 1) {
                        noise += z[j][(1 << m) + (i >> k << k)];
                        scale += (m + 1) as f64 * p.tree_scale;
                    }
                }
                let nf = n as f64;
                (sum[j] + noise) / nf + (p.bonus * ln_t / nf).sqrt() + p.bonus * ln_t * scale / nf
            };
            usize::from(index(1) > index(0))
        };
        let x = row[arm] as f64;
        sum[arm] += x;
        let n = z[arm].len();
        let scale = if pow2(n) {
            p.array_scale
        } else {
            (log2(n) + 1) as f64 * p.tree_scale
        };
        z[arm].push(dpdtol::bandit::policy::laplace(scale, rng));
        if t >= 3 {
            code |= arm << (t - 3);
        }
    }
    code
}

/// The audit's Hybrid-UCB (the simulator's `HybridUcb`) and the hand-made
/// one above, on the same noise stream, run by run: the same pull codes
/// (hence the same frequencies), on five tables at T = 8, two scale
/// settings. The rewards are the alphabet {0, 1} so the alphabet index is
/// the reward. At most 1 run in 10⁴ may differ (f64 sums in another order
/// can flip an index comparison within an ulp).
#[test]
fn hybrid_pulls_agree_with_an_independent_reimplementation() {
    let tables = [
        ts_table([0, 0], [0, 0], [0, 0], 8),
        ts_table([1, 0], [0, 0], [1, 0], 8),
        ts_table([0, 0], [0, 1], [0, 1], 8),
        ts_table([1, 0], [0, 1], [1, 1], 8),
        ts_table([0, 0], [0, 1], [1, 0], 8),
    ];
    for params in [
        HybridParams::inferred(1.0),
        HybridParams {
            array_scale: 0.25,
            tree_scale: 0.1,
            bonus: 0.01,
            ..HybridParams::inferred(0.5)
        },
    ] {
        for (k, table) in tables.iter().enumerate() {
            let seed = 40 + k as u64;
            let mut a = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let mut b = a.clone();
            let (runs, mut differ) = (20_000, 0);
            let mut codes = std::collections::BTreeSet::new();
            for _ in 0..runs {
                let c = pulls_code(&params, table, &[0.0, 1.0], &mut a);
                differ += usize::from(c != hybrid_by_hand(&params, table, &mut b));
                codes.insert(c);
            }
            assert!(
                differ * 10_000 <= runs,
                "{params:?}, table {k}, seed {seed}: {differ} of {runs} runs differ"
            );
            // The comparison is not vacuous: the noise moves the pulls.
            assert!(codes.len() > 4, "{params:?}, table {k}: codes {codes:?}");
        }
    }
}

/// The planted variant (a quarter of both inferred scales, `b_a = b_t =
/// 1/(2ε)`) is flagged on the pair "round 1's seen reward of arm 1 changed
/// 0 → 1, every other reward 0" at T = 4, ε = 1, at the one-sided level of
/// the full audit at T = 6; the inferred scales are not. Why it must be
/// flagged: round 3 pulls arm 2 iff `x₁ + A₁ < A₁'` (equal counts and
/// bonuses), so with `D = A₁ − A₁'` the ratio of "round 3 pulls arm 2" is
/// `P(D < 0)/P(D < −1) = (1/2)/(e^{−1/b}(2 + 1/b)/4)`, at `b = 1/2`
/// `2e²/4 ≈ 3.69 > e`; at `b = 2` it is `≈ 1.32` (and at half scale,
/// `b = 1`, `2e/3 ≈ 1.81 < e`).
#[test]
fn hybrid_audit_flags_a_quarter_scale_and_not_the_inferred_one() {
    let (eps, runs, seed) = (1.0, 40_000, 13);
    let x = ts_table([0, 0], [0, 0], [0, 0], 4);
    let y = ts_table([1, 0], [0, 0], [0, 0], 4);
    let quarter = HybridParams {
        array_scale: 0.5 / eps,
        tree_scale: 0.5 / eps,
        ..HybridParams::inferred(eps)
    };
    let b = ts_pair_bound(&quarter, &x, &y, runs, seed);
    assert!(
        b > eps,
        "quarter scale: ε lower bound {b} ≤ ε = {eps} (seed {seed}, {runs} runs)"
    );
    let inferred = HybridParams::inferred(eps);
    let b = ts_pair_bound(&inferred, &x, &y, runs, seed)
        .max(ts_pair_bound(&inferred, &y, &x, runs, seed));
    assert!(
        b <= eps,
        "inferred scales: flagged, ε lower bound {b} > {eps} (seed {seed})"
    );
}

/// An audit setup on rewards {0, 1} at confidence 0.95.
fn binary_setup(horizon: usize, runs: u64, seed: u64) -> AuditSetup {
    AuditSetup {
        horizon,
        alphabet: vec![0.0, 1.0],
        runs,
        seed,
        confidence: 0.95,
        force: false,
    }
}

/// The audit's outcome does not depend on the number of threads (each
/// chunk of runs has its own stream position): Hybrid-UCB at T = 5 with
/// 9000 runs a table (three chunks) on one thread and on three.
#[test]
fn hybrid_audit_is_the_same_whatever_the_threads() {
    let setup = binary_setup(5, 9000, 8);
    let params = HybridParams {
        array_scale: 0.5,
        tree_scale: 0.5,
        ..HybridParams::inferred(1.0)
    };
    let on = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| ts_audit(&params, &setup, &|_| {}).unwrap())
    };
    let one = on(1);
    assert_eq!(one, on(3));
    // Not vacuous: a pair is separated.
    assert!(one.best.epsilon_lower > 0.0, "{:?}", one.best);
}

/// The whole Hybrid-UCB audit at T = 6, ε = 1 (208 tables): the
/// quarter-scale variant is reported violated and the inferred scales are
/// not, at confidence 0.95.
#[test]
#[ignore = "about 20 million simulated runs; CI runs it in release"]
fn hybrid_audit_full_grid_t6_flags_only_the_planted_variant() {
    let eps = 1.0;
    let quarter = HybridParams {
        array_scale: 0.5 / eps,
        tree_scale: 0.5 / eps,
        ..HybridParams::inferred(eps)
    };
    full_audit_flags_only(6, 100_000, &quarter, &HybridParams::inferred(eps));
}

/// `dpdtol privacy --algorithm hybrid-ucb`: the JSON contract of the
/// lazy-dp-ts audit plus `tree_scale`; a quarter scale (`--scale-factor 1/4`)
/// is violated with a witness at T = 4, ε = 1; flags that do not apply are
/// refused in one line with status 2.
#[test]
fn hybrid_audit_command_line_contract() {
    // The audit, not the exact check (the default): `--method statistical`.
    let hybrid = |extra: &[&'static str]| {
        let mut args = ts_command(extra);
        args[2] = "hybrid-ucb";
        args.extend(["--method", "statistical"]);
        args
    };
    let v = json(&hybrid(&["--runs", "4000", "--seed", "3", "--json"]));
    assert_eq!(v["algorithm"], "hybrid-ucb");
    assert_eq!(v["kind"], "approximate");
    assert_eq!(v["verdict"], "undecided");
    assert_eq!(v["noise_scale"], "2");
    assert_eq!(v["tree_scale"], "2");
    assert_eq!(v["pairs"], 224);
    let v = json(&hybrid(&[
        "--runs",
        "20000",
        "--scale-factor",
        "1/4",
        "--json",
    ]));
    assert_eq!(v["noise_scale"], "1/2");
    assert_eq!(v["tree_scale"], "1/2");
    assert_eq!(v["verdict"], "violated");
    assert!(v["verdict_text"]
        .as_str()
        .unwrap()
        .starts_with("violated at confidence 0.95"));
    assert_eq!(v["witness"]["actions"].as_array().unwrap().len(), 4);
    let v = json(&hybrid(&["--runs", "10", "--tree-scale", "1/3", "--json"]));
    assert_eq!(
        (&v["noise_scale"], &v["tree_scale"]),
        (&"2".into(), &"1/3".into())
    );
    for bad in [
        ["--runs", "1"],
        ["--horizon", "9"],
        ["--actions", "3"],
        ["--tree-scale", "0"],
        ["--scale-factor", "-1"],
        ["--noise", "gumbel"],
        ["--epoch-length", "1"],
        // A shard must be I/N with 1 ≤ I ≤ N and N at most the chunks of
        // runs (64 tables × 1 chunk at 10 runs a table).
        ["--shard", "3/2"],
        ["--runs", "10 --shard 1/65"],
    ] {
        let bad: Vec<&'static str> = bad.into_iter().flat_map(|a| a.split(' ')).collect();
        refused_in_one_line(&hybrid(&bad));
    }
    // --tree-scale is Hybrid-UCB's own.
    let out = dpdtol(&ts_command(&["--runs", "10", "--tree-scale", "1"]));
    assert_eq!(out.status.code(), Some(2));
    // The exact check refuses T = 9 on {0, 1} without --force (65536 laws,
    // over its limit of 2^15), naming the limit and the flags.
    let mut exact = ts_command(&["--horizon", "9"]);
    exact[2] = "hybrid-ucb";
    let out = dpdtol(&exact);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("65536") && err.contains("32768") && err.contains("--force"),
        "{err}"
    );
}

// ---- --shard and --merge of the statistical audits ------------------------
// (src/cli/privacy/statistical.rs, src/privacy/bandit/statistical.rs)

use dpdtol::privacy::bandit::statistical::{runs_of, sample_part, table_count, tables_of, units};
use dpdtol::privacy::Shard;

/// `table_count`'s closed form is the number of tables `selection` builds
/// (the merge sizes its work by the closed form before building them).
#[test]
fn table_count_is_the_selection_size() {
    for v in 2..=3 {
        for horizon in 1..=8 {
            if v == 3 && horizon > 6 {
                continue;
            }
            assert_eq!(
                table_count(horizon, v),
                Some(selection(horizon, v).unwrap().tables.len() as u64),
                "T = {horizon}, |V| = {v}"
            );
        }
    }
}

/// The shards `1/N..N/N` split every table's runs into its two halves
/// exactly (each run once), and their counts, simulated apart, sum to the
/// counts of the whole run, table by table (runs 9000: three chunks of
/// 4096 a table, so shards cut tables in the middle, and across the halves
/// at run 4500).
#[test]
fn statistical_shards_simulate_the_whole_runs_exactly_once() {
    let setup = binary_setup(4, 9000, 4);
    let params = TsParams {
        noise_scale: 0.5,
        bonus: 0.001,
        ..TsParams::printed(1.0)
    };
    let s = selection(setup.horizon, 2).unwrap();
    let all = 0..units(&setup).unwrap();
    assert_eq!(all.end, 64 * 3);
    let whole = sample_part(&params, &setup, &s, &all, &|_| {}).unwrap();
    for n in [1, 2, 5, 7, 64, 192] {
        let mut runs = vec![(0u64, 0u64); s.tables.len()];
        let mut summed: Vec<dpdtol::privacy::bandit::statistical::Counts> =
            vec![dpdtol::privacy::bandit::statistical::Counts::zero(4); s.tables.len()];
        for i in 1..=n {
            let part = Shard::new(i, n)
                .unwrap()
                .range_of(all.end, "chunks")
                .unwrap();
            let counts = sample_part(&params, &setup, &s, &part, &|_| {}).unwrap();
            let tables = tables_of(&setup, &part);
            assert_eq!(counts.len(), tables.len());
            for (k, c) in tables.zip(&counts) {
                let (a, b) = runs_of(&setup, &part, k);
                runs[k].0 += a;
                runs[k].1 += b;
                summed[k].add(c);
            }
        }
        assert!(
            runs.iter().all(|&r| r == (4500, 4500)),
            "{n} shards: {runs:?}"
        );
        assert_eq!(summed, whole, "{n} shards");
    }
}

/// The statistical audits' shards, merged, print the whole run byte for
/// byte, JSON and paragraph: Lazy-DP-TS (a planted variant, half the scale
/// and bonus 1/1000, whose witness pair is separated) in 3 and 4 shards,
/// Hybrid-UCB (a quarter of the scales: violated) in 4, at
/// 9000 runs a table (shards cut tables in the middle); the whole run
/// itself does not depend on `--threads`.
#[test]
fn statistical_shards_merge_into_the_whole_run_byte_for_byte() {
    let dir = shard_dir("stat-merge");
    let ts = "privacy --algorithm lazy-dp-ts --actions 2 --horizon 4 --alphabet 0,1 --epsilon 1/2 --noise-scale 1 --bonus 1/1000 --runs 9000 --seed 7";
    let hybrid = "privacy --algorithm hybrid-ucb --actions 2 --horizon 4 --alphabet 0,1 --epsilon 1 --scale-factor 1/4 --runs 9000 --seed 7";
    for (line, n) in [(ts, 3), (ts, 4), (hybrid, 4)] {
        let args: Vec<&str> = line.split(' ').collect();
        let files = write_shards(&dir, &args, n).join(",");
        let mut whole = args.clone();
        whole.extend(["--json", "--threads", "1"]);
        let merged = stdout(&["privacy", "--merge", &files, "--json"]);
        assert_eq!(
            common::without_spot_check(&String::from_utf8_lossy(&merged)),
            String::from_utf8_lossy(&stdout(&whole)),
            "{line}, {n} shards"
        );
        assert_eq!(
            common::without_spot_check(&String::from_utf8_lossy(&stdout(&[
                "privacy", "--merge", &files
            ]))),
            String::from_utf8_lossy(&stdout(&args)),
            "{line}, {n} shards, paragraph"
        );
        let v: serde_json::Value = serde_json::from_slice(&merged).unwrap();
        // Not vacuous: the witness pair is separated (Hybrid-UCB's quarter
        // scales: violated).
        assert_ne!(v["epsilon_lower"], "0", "{line}");
        assert_eq!(v["verdict"] == "violated", line == hybrid, "{line}");
        assert_eq!(v["shard"], "1/1");
        let shard: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(files.split(',').next().unwrap()).unwrap(),
        )
        .unwrap();
        assert_eq!(shard["verdict"], "undecided", "a shard does not audit");
        assert!(shard["witness"].is_null());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// An incomplete, repeated, mixed or altered set of statistical shards is
/// refused with one line and status 2.
#[test]
fn statistical_merge_refuses_incomplete_mixed_or_altered_shards() {
    let dir = shard_dir("stat-refuse");
    let base = "privacy --algorithm lazy-dp-ts --actions 2 --horizon 4 --alphabet 0,1 --epsilon 1 --runs 5000 --seed 2";
    let args: Vec<&str> = base.split(' ').collect();
    let files = write_shards(&dir, &args, 2);
    let other = |flag: &str, from: &str, to: &str| -> String {
        let line: Vec<&str> = base.replace(from, to).leak().split(' ').collect();
        shards_in(&dir, flag.trim_start_matches('-'), &line)[1].clone()
    };
    let full = shards_in(
        &dir,
        "full",
        &common::privacy_command("hu-rnm-ftnl", "2", "2", "0,1", "1"),
    );
    let exact = shards_in(
        &dir,
        "exact",
        &"privacy --algorithm anytime-lazy-ucb --actions 2 --horizon 4 --alphabet 0,1 --epsilon 1"
            .split(' ')
            .collect::<Vec<_>>(),
    );
    let first: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&files[0]).unwrap()).unwrap();
    let altered = |what: &str, change: &dyn Fn(&mut serde_json::Value)| -> String {
        let mut v = first.clone();
        change(&mut v);
        let path = dir.join(format!("altered-{what}.json"));
        std::fs::write(&path, v.to_string()).unwrap();
        format!("{},{}", path.display(), files[1])
    };
    let cases: Vec<(&str, String)> = vec![
        ("missing", files[0].clone()),
        ("twice", format!("{},{}", files[0], files[0])),
        (
            "other seed",
            format!("{},{}", files[0], other("--seed", "--seed 2", "--seed 3")),
        ),
        (
            "other runs",
            format!(
                "{},{}",
                files[0],
                other("--runs", "--runs 5000", "--runs 5002")
            ),
        ),
        (
            "other ε",
            format!(
                "{},{}",
                files[0],
                other("--epsilon", "--epsilon 1", "--epsilon 1/2")
            ),
        ),
        (
            "other bonus",
            format!(
                "{},{}",
                files[0],
                other("--bonus", "--seed 2", "--seed 2 --bonus 2")
            ),
        ),
        (
            "other confidence",
            format!(
                "{},{}",
                files[0],
                other("--confidence", "--seed 2", "--seed 2 --confidence 0.9")
            ),
        ),
        ("full-information", format!("{},{}", files[0], full[1])),
        ("exact bandit", format!("{},{}", files[0], exact[1])),
        ("exact bandit first", format!("{},{}", exact[0], files[1])),
        (
            "verdict",
            altered("verdict", &|v| v["verdict"] = "violated".into()),
        ),
        (
            "count",
            altered("count", &|v| {
                let c = v["merge"]["counts"][0][1][2].as_u64().unwrap();
                v["merge"]["counts"][0][1][2] = (c + 1).into();
            }),
        ),
        (
            "count row",
            altered("row", &|v| {
                v["merge"]["counts"][0][0]
                    .as_array_mut()
                    .unwrap()
                    .push(0.into());
            }),
        ),
        (
            "table dropped",
            altered("table", &|v| {
                v["merge"]["counts"].as_array_mut().unwrap().pop();
            }),
        ),
        (
            "first table",
            altered("first", &|v| v["merge"]["first_table"] = 1.into()),
        ),
        (
            "runs",
            altered("runs", &|v| v["runs_per_table"] = 5002.into()),
        ),
        ("shard", altered("shard", &|v| v["shard"] = "2/2".into())),
        ("tables", altered("tables", &|v| v["tables"] = 63.into())),
        ("note", altered("note", &|v| v["note"] = "unbiased".into())),
    ];
    merges_refused(&cases);
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- Hybrid-UCB's exact check (src/bandit/law/hybrid_ucb.rs) ----

#[test]
fn hybrid_check_agrees_with_a_brute_force_over_reward_tables() {
    for (horizon, params) in [
        (3, hybrid_law(q(1, 1), q(1, 1))),
        (4, hybrid_law(q(1, 2), q(1, 1))),
        (4, hybrid_law(q(1, 1), q(1, 4))),
    ] {
        let outcome =
            check::<Certified>(&params, horizon, &[q(0, 1), q(1, 1)], false, &BITS).unwrap();
        let (lo, hi) = outcome.max_ratio.clone().unwrap();
        let brute = brute_force_of(horizon, |rows| {
            law::<Certified>(&params, rows, &BITS)
                .unwrap()
                .into_iter()
                .map(|(_, p)| p)
                .collect()
        });
        assert!(
            lo <= brute && brute <= hi,
            "T = {horizon}: {brute} not in [{lo}, {hi}]"
        );
    }
}

/// The inferred scales pass at T = 4; a quarter of them fails, and the
/// witness's ratio, recomputed from the laws of its two tables, is the one
/// printed. (Half the scales passes at T ≤ 6: README.)
#[test]
fn hybrid_exact_check_flags_a_quarter_scale_with_a_witness() {
    let base =
        "privacy --algorithm hybrid-ucb --actions 2 --horizon 4 --alphabet 0,1 --epsilon 1 --json";
    let inferred = json(&base.split(' ').collect::<Vec<_>>());
    assert_eq!(inferred["verdict"], "private", "{inferred}");
    assert_eq!(inferred["kind"], "certified");
    assert_eq!(inferred["algorithm_inferred"], true);
    assert_eq!(inferred["tree_scale"], "2");
    let mut args: Vec<&str> = base.split(' ').collect();
    args.extend(["--scale-factor", "1/4"]);
    let planted = json(&args);
    assert_eq!(planted["verdict"], "violated", "{planted}");
    let w = &planted["witness"];
    assert!(decimal(&w["ratio"]) > 1f64.exp());
    let ratio = recomputed_ratio(w, &hybrid_law(q(1, 1), q(1, 4)));
    assert!((ratio.to_f64() - decimal(&w["ratio"])).abs() < 1e-12);
}

/// `--method exact` is the default; `--method statistical` or the audit's
/// own flags select the audit; the audit's flags with `--method exact`, an
/// unknown method, and the hybrid flags on another algorithm are refused.
#[test]
fn hybrid_method_selection() {
    let base =
        "privacy --algorithm hybrid-ucb --actions 2 --horizon 3 --alphabet 0,1 --epsilon 1 --json";
    let with = |extra: &[&'static str]| {
        let mut a: Vec<&str> = base.split(' ').collect();
        a.extend_from_slice(extra);
        json(&a)
    };
    assert_eq!(with(&[])["kind"], "certified");
    assert_eq!(with(&["--method", "exact"])["kind"], "certified");
    assert_eq!(
        with(&["--method", "statistical", "--runs", "2000"])["kind"],
        "approximate"
    );
    assert_eq!(with(&["--runs", "2000"])["kind"], "approximate");
    for extra in [
        vec!["--method", "exact", "--runs", "10"],
        vec!["--method", "structural"],
    ] {
        let mut a: Vec<&str> = base.split(' ').collect();
        a.extend(extra);
        refused_in_one_line(&a);
    }
    for flag in ["--tree-scale", "--scale-factor", "--method"] {
        let mut a: Vec<&str> =
            "privacy --algorithm anytime-lazy-ucb --actions 2 --horizon 4 --alphabet 0,1 --epsilon 1"
                .split(' ')
                .collect();
        a.extend([flag, "1/2"]);
        refused_in_one_line(&a);
    }
}

// ---- DP-UCB (src/bandit/law/dp_ucb.rs): the exact check ----

use dpdtol::bandit::law::dp_ucb::DpUcbParams;

#[test]
fn dp_ucb_check_agrees_with_a_brute_force_over_reward_tables() {
    for params in [
        DpUcbParams::printed(q(1, 1), 4),
        DpUcbParams {
            node_scale: q(1, 1),
            ..DpUcbParams::printed(q(1, 1), 4)
        },
        DpUcbParams::printed(q(4, 1), 4),
    ] {
        let outcome = check::<Certified>(&params, 4, &[q(0, 1), q(1, 1)], false, &BITS).unwrap();
        let (lo, hi) = outcome.max_ratio.clone().unwrap();
        let brute = brute_force_of(4, |rows| {
            law::<Certified>(&params, rows, &BITS)
                .unwrap()
                .into_iter()
                .map(|(_, p)| p)
                .collect()
        });
        assert!(
            lo <= brute && brute <= hi,
            "{params:?}: {brute} not in [{lo}, {hi}]"
        );
    }
}

/// At T = 5, ε = 4 the printed node scale `⌈log₂ 5⌉/ε = 3/4` is private
/// (largest ratio 6.21 against e⁴ = 54.6); half of it, `3/8`, is refuted
/// (56.50 > e⁴), and the witness's ratio, computed again from the laws of its
/// two tables, is the one printed.
#[test]
fn dp_ucb_half_the_printed_scale_is_violated_with_a_witness() {
    let args = |scale: Option<&'static str>| {
        let mut a: Vec<&str> =
            "privacy --algorithm dp-ucb --actions 2 --horizon 5 --alphabet 0,1 --epsilon 4 --json"
                .split(' ')
                .collect();
        a.extend(scale.into_iter().flat_map(|s| ["--noise-scale", s]));
        a
    };
    let printed = json(&args(None));
    assert_eq!(printed["verdict"], "private", "{printed}");
    assert_eq!(printed["noise_scale"], "3/4");
    let planted = json(&args(Some("3/8")));
    assert_eq!(planted["verdict"], "violated", "{planted}");
    let w = &planted["witness"];
    assert!(decimal(&w["ratio"]) > 4f64.exp());
    let params = DpUcbParams {
        node_scale: q(3, 8),
        ..DpUcbParams::printed(q(4, 1), 5)
    };
    let ratio = recomputed_ratio(w, &params);
    assert!((ratio.to_f64() - decimal(&w["ratio"])).abs() < 1e-9 * ratio.to_f64());
}

// ---- DP-UCB-Bound (src/bandit/law/dp_ucb_bound.rs): the exact check ----

use dpdtol::bandit::law::dp_ucb_bound::DpUcbBoundParams;

#[test]
fn dp_ucb_bound_check_agrees_with_a_brute_force_over_reward_tables() {
    for params in [
        DpUcbBoundParams::printed(q(4, 1)).scaled(&q(1, 2)),
        DpUcbBoundParams {
            confidence: q(1, 100),
            ..DpUcbBoundParams::printed(q(2, 1))
        },
    ] {
        let outcome = check::<Certified>(&params, 4, &[q(0, 1), q(1, 1)], false, &BITS).unwrap();
        let (lo, hi) = outcome.max_ratio.clone().unwrap();
        let brute = brute_force_of(4, |rows| {
            law::<Certified>(&params, rows, &BITS)
                .unwrap()
                .into_iter()
                .map(|(_, p)| p)
                .collect()
        });
        assert!(
            lo <= brute && brute <= hi,
            "{params:?}: {brute} not in [{lo}, {hi}]"
        );
    }
}

/// At T = 5 on {0, 1} no reward lies in both a tree p-sum and an array block
/// that a decision reads (observation 3 of an arm is read at n = 3 and, in
/// the block {3, 4}, at n = 4 only from round 6 on), so each reward moves
/// one Laplace variable of scale `2/ε·f` and the largest ratio is below
/// `e^{ε/(2f)}`, approached at the witness: the printed scales (`f = 1`) give
/// about `e^{ε/2}`, half of them (`f = 1/2`) just under `e^ε` — private — and a
/// third (`f = 1/3`) `e^{3ε/2}`, refuted. The refuted witness's ratio,
/// computed again from its two tables' laws, is the one printed, and its
/// δ(ε) is positive (the `--delta` verdict `violated` at 1/1000, exit 1).
#[test]
fn dp_ucb_bound_a_third_of_the_printed_scales_is_violated_with_a_witness() {
    let args = |factor: &'static str, delta: bool| {
        let mut a: Vec<&str> = "privacy --algorithm dp-ucb-bound --actions 2 --horizon 5 --alphabet 0,1 --epsilon 1 --json --scale-factor"
            .split(' ')
            .collect();
        a.push(factor);
        a.extend(delta.then_some(["--delta", "1/1000"]).into_iter().flatten());
        a
    };
    let e = 1f64.exp();
    for (factor, limit) in [("1", e.sqrt()), ("1/2", e)] {
        let report = json(&args(factor, false));
        assert_eq!(report["verdict"], "private", "{report}");
        let ratio = decimal(&report["witness"]["ratio"]);
        assert!(
            ratio < limit && ratio > limit * 0.99,
            "f = {factor}: {ratio}"
        );
    }
    let planted = json(&args("1/3", true));
    assert_eq!(planted["verdict"], "violated", "{planted}");
    assert_eq!(planted["noise_scale"], "2/3");
    let w = &planted["witness"];
    assert!(decimal(&w["ratio"]) > e * e.sqrt() * 0.99);
    let params = DpUcbBoundParams::printed(q(1, 1)).scaled(&q(1, 3));
    let ratio = recomputed_ratio(w, &params);
    assert!((ratio.to_f64() - decimal(&w["ratio"])).abs() < 1e-9 * ratio.to_f64());
    assert_eq!(planted["delta"]["verdict"], "violated");
    assert!(decimal(&planted["delta"]["value"]) > 1e-3);
}

/// DP-TS (inferred, [`dpdtol::bandit::policy::dp_ts`]) on K = 2, T = 5,
/// {0, 1}, ε = 1, bonus 1/1000 (the inferred bonus clips every `μ̄` to 1 at
/// such T, so the pulls would not read the noise), 20 000 runs a table,
/// seed 3: the planted variant with a quarter of both Hybrid-mechanism
/// scales (`1/(2ε)`: observation 1 alone loses `2ε`, read by round 3) is
/// refuted; the inferred scales `2/ε` are not. Half the scales (`1/ε`) is
/// not refuted at T ≤ 8, nor expected to be: a change of an arm's
/// observation 1, 2 or 4 enters one block noise `Lap(1/ε)` and so loses at
/// most ε whatever the pulls; only observation 3 (`3ε/2`) or 5–7 could
/// exceed ε, through the joint tails of two noises read through Beta draws.
/// The lower bound climbs
/// towards an observation-1 change's loss (T = 8: 0.49 at 10 000 runs, 0.68
/// at 160 000, 0.71 at 640 000; docs/guide-privacy.md).
#[test]
fn dp_ts_audit_refutes_a_quarter_of_the_noise() {
    let run = |factor: &'static str| {
        let mut args = ts_command(&[
            "--horizon",
            "5",
            "--bonus",
            "1/1000",
            "--scale-factor",
            factor,
            "--runs",
            "20000",
            "--seed",
            "3",
            "--json",
        ]);
        args[2] = "dp-ts";
        json(&args)
    };
    let planted = run("1/4");
    assert_eq!(planted["verdict"], "violated", "{planted}");
    assert_eq!(planted["algorithm_inferred"], true);
    let inferred = run("1");
    assert_eq!(inferred["verdict"], "undecided", "{inferred}");
}
