//! A fuzzer of the command line: random command lines over the argument grammar of
//! every subcommand, and random mutations of real `privacy --merge` inputs,
//! run against the binary under a memory cap and a time limit
//! ([`common::capped`]). Whatever the input:
//!
//! - the exit status is 0, 1 or 2 (never a panic's 101 or an abort's 134 —
//!   an allocation beyond the cap aborts — and never a kill at the limit);
//! - status 2 comes with exactly one line on stderr, starting `dpdtol: `,
//!   that leaks no library wording (`Underflow(`, `panicked`, backend
//!   vocabulary, error numbers, clap's pointer to `--help`);
//! - a successful `--json` run prints one JSON object;
//! - a mutated merge input — a field replaced, deleted or truncated, a part
//!   relabelled as another with its counters made to fit, counts moved
//!   between the cells of a table, a unit's maximum replaced by another's —
//!   is either refused or gives the real run's report (merged with every
//!   unit recomputed, `--spot-check` above the units: a hand edit never
//!   forges a verdict or a number); the same holds of `verify --merge`
//!   inputs (shards of planted claims, merged through the library: a
//!   shard of the real registry takes minutes), with claims' statuses
//!   changed and tallies re-counted, claims dropped or given twice.
//!
//! The default run is bounded (a fixed seed, a few dozen cases of each
//! kind); `cargo test --release --test fuzz -- --ignored` runs the long mode,
//! `DPDTOL_FUZZ_CASES` cases of each kind (default 2000).

mod common;

use common::{capped, json, privacy_command, Capped};
use dpdtol::verify::{self, Claim, Cost, Method, Outcome, Paper, Source};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde_json::Value;
use std::path::PathBuf;
use std::sync::OnceLock;

/// The time one case may take (a debug build; every valid run of the pools
/// below takes well under a second).
const CASE_SECONDS: f64 = 30.0;

/// Numbers and strings that have broken parsers elsewhere.
const HOSTILE: &[&str] = &[
    "NaN",
    "inf",
    "-inf",
    "1/0",
    "0/0",
    "1e309",
    "1e-330",
    "1e99999",
    "1e-199999",
    "0,1e-199999",
    "99999999999999999999999999",
    "18446744073709551616",
    "-1",
    "0",
    "",
    " ",
    "é",
    "😀",
    "0x10",
    "1/3/4",
    "2^10--5",
    "2^999",
    ",",
    "0,,1",
    "--json",
    "-",
    "Uniform",
    "last_update",
    "ucb1",
    "64",
];

/// Sizes that overflow, exhaust memory or would run for hours: each must be
/// refused (with `--force` too, where memory would not suffice) or answered
/// within the time limit, never panic, abort or hang.
const SIZES: &[&str] = &[
    "100000000",
    "1000000000",
    "100000",
    "30000",
    "2000000000",
    "18446744073709551615",
    "1e19",
];

/// The flags whose values are sizes.
const SIZED: &[&str] = &["--runs", "--n", "--threads", "--actions"];

/// Per flag, values a user might give (small enough to run quickly).
fn valid(flag: &str) -> &'static [&'static str] {
    match flag {
        "--noise" => &["gumbel", "exponential", "laplace"],
        "--scale" | "--noise-scale" => &["1", "1/2", "3"],
        "--base" | "--unit-weight" => &["1/3", "1/2"],
        "--losses" => &["0,1", "0,1/2,1", "1/4,0"],
        "--algorithm" => &[
            "ftl",
            "wu-wang",
            "prefix-softmax",
            "hu-rnm-ftnl",
            "naive-ftnl",
            "wu-wang:gumbel",
            "ftl,wu-wang",
            "anytime-lazy-ucb",
            "dp-se",
            "hybrid-ucb",
            "ucb1",
            "lazy-dp-ts",
            "dp-ucb",
            "dp-ucb-bound",
            "dp-ucb-int",
            "dp-ts",
            "ucb1,dp-ts",
        ],
        "--actions" => &["2", "3", "24"],
        "--horizon" => &["1", "2", "2^1", "2^2-1"],
        "--alphabet" => &["0,1", "0,1/2,1"],
        "--epsilon" => &["1", "1/2", "2"],
        "--resample" => &["0", "1"],
        "--threads" => &["1", "2"],
        "--shard" => &["1/2", "2/2", "1/1"],
        "--means" => &["0.1,0.5", "0.2,0.3,0.9", "1/2,1/4"],
        "--setting" => &["deterministic", "bernoulli"],
        "--claim" => &["hu-thm8", "nonsense"],
        "--runs" => &["2", "3"],
        "--seed" => &["1", "2026"],
        "--experiment" => &["hu-fig1", "hu-fig2"],
        "--confidence" => &["0.95", "1/2"],
        "--bonus" => &["3", "2"],
        "--beta" => &["1/100"],
        "--mechanism" => &["gumbel", "exponential", "laplace"],
        "--sequence" => &["1,2", "1", "2,2,1"],
        "--n" => &["10", "1"],
        "--alpha" => &["0.05"],
        "--tv" => &["0.1"],
        "--power" => &["0.9"],
        "--digits" => &["30", "5"],
        "--method" => &["structural", "enumeration", "statistical", "exact"],
        "--neighbours" => &["any", "linf:1/2", "one:1"],
        "--neighbour" => &["0,1", "1,0", "0,1,1"],
        "--epsilon-range" => &["1/2..2"],
        "--epoch-length" => &["2", "1,2"],
        "--scale-factor" => &["2"],
        "--tree-scale" => &["1"],
        "--pull-order" => &["blocks", "round-robin", "any"],
        "--rounding" => &["floor-plus-one", "ceiling", "floor", "ceiling-plus-one"],
        "--radius" => &["integer", "real"],
        "--reward-index" => &["round", "pull"],
        "--tree-depth" => &["3", "1", "63"],
        "--ties" => &["uniform", "lowest", "highest", "ordered-uniform"],
        "--bonus-round" => &["last-update", "current", "plays"],
        "--delta" => &["0", "1/100"],
        "--spot-check" => &["4", "all", "0"],
        "--losses-file" | "--samples" | "--first" | "--second" | "--neighbour-file"
        | "--rewards-file" => files(),
        _ => &[],
    }
}

/// Small valid input files (a loss sequence, samples of actions), written
/// once; their paths are the valid values of the file flags.
fn files() -> &'static [&'static str] {
    static FILES: OnceLock<Vec<&'static str>> = OnceLock::new();
    FILES.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("dpdtol-fuzz-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let write = |name: &str, text: &str| -> &'static str {
            let path = dir.join(name);
            std::fs::write(&path, text).unwrap();
            Box::leak(path.display().to_string().into_boxed_str())
        };
        vec![
            write("losses.csv", "0,1\n1,0\n"),
            write("samples.csv", &"1\n2\n1\n1\n".repeat(20)),
            write("losses.json", "[[\"0\",\"1/2\"],[\"1\",\"0\"]]"),
            write("rewards.csv", "1/2,0\n1,1/2\n0,1\n"),
            write("pulls.csv", &"1,2,1\n1,2,2\n".repeat(20)),
        ]
    })
}

/// A FIFO nobody reads or writes: as an output its write would wait for
/// ever, as an input its read; both must be refused before they are opened.
fn fifo() -> &'static str {
    static FIFO: OnceLock<&'static str> = OnceLock::new();
    FIFO.get_or_init(|| {
        let path = std::env::temp_dir().join(format!("dpdtol-fuzz-fifo-{}", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let made = std::process::Command::new("mkfifo").arg(&path).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo {}", path.display());
        Box::leak(path.display().to_string().into_boxed_str())
    })
}

const VALUED: &[&str] = &[
    "--noise",
    "--scale",
    "--base",
    "--unit-weight",
    "--losses",
    "--algorithm",
    "--actions",
    "--horizon",
    "--alphabet",
    "--epsilon",
    "--resample",
    "--noise-scale",
    "--threads",
    "--shard",
    "--means",
    "--setting",
    "--claim",
    "--merge",
    "--curve",
    "--plot",
    "--markdown",
    "--runs",
    "--seed",
    "--experiment",
    "--confidence",
    "--bonus",
    "--beta",
    "--mechanism",
    "--sequence",
    "--n",
    "--alpha",
    "--tv",
    "--power",
    "--digits",
    "--losses-file",
    "--rewards-file",
    "--samples",
    "--first",
    "--second",
    "--neighbour-file",
    "--csv",
    "--out",
    "--method",
    "--neighbours",
    "--neighbour",
    "--epsilon-range",
    "--epoch-length",
    "--scale-factor",
    "--tree-scale",
    "--pull-order",
    "--rounding",
    "--radius",
    "--reward-index",
    "--tree-depth",
    "--ties",
    "--bonus-round",
    "--delta",
    "--spot-check",
];

const SWITCHES: &[&str] = &[
    "--json",
    "--force",
    "--no-bounds",
    "--list",
    "--help",
    "--frobnicate",
    "--all-epsilon",
];

/// One flag with a value: valid for the flag, hostile, or a file path.
fn flag_value() -> impl Strategy<Value = Vec<String>> {
    (0..VALUED.len(), 0..6usize, any::<prop::sample::Index>()).prop_map(|(f, how, i)| {
        let flag = VALUED[f];
        let pool: &[&str] = match (how, flag) {
            (_, "--merge" | "--curve" | "--plot" | "--markdown" | "--csv" | "--out") => &[
                fifo(),
                "/dev/full",
                "/nonexistent/x.svg",
                "/dev/zero",
                "/tmp/dpdtol-fuzz-out.svg",
                "/tmp/dpdtol-fuzz-out.csv",
            ],
            // Files that are huge, endless, malformed or missing.
            (
                1,
                "--losses-file" | "--rewards-file" | "--samples" | "--first" | "--second"
                | "--neighbour-file",
            ) => &[
                fifo(),
                "/dev/zero",
                "/dev/urandom",
                "/dev/null",
                "/nonexistent/losses.csv",
                "/etc/passwd",
                "/",
            ],
            (0, _) => HOSTILE,
            (2, f) if SIZED.contains(&f) => SIZES,
            _ if valid(flag).is_empty() => HOSTILE,
            _ => valid(flag),
        };
        vec![flag.to_string(), i.get(pool).to_string()]
    })
}

/// A whole command line: a subcommand (or none, or a bogus one) and up to
/// four random flags besides those the subcommand needs.
fn command_line() -> impl Strategy<Value = Vec<String>> {
    let subcommand = prop::sample::select(vec![
        "mechanism",
        "mechanism",
        "privacy",
        "privacy",
        "privacy-bandit",
        "privacy-statistical",
        "privacy-mechanism",
        "privacy-dpse",
        "privacy-dpucb",
        "privacy-dpts",
        "regret",
        "regret",
        "verify",
        "bandit",
        "bandit",
        "bandit-baseline",
        "law",
        "law-file",
        "law-bandit",
        "law-dpse",
        "law-dpucbbound",
        "law-ucb1",
        "sample",
        "sample-bandit",
        "gof",
        "gof-bandit",
        "gof-dpts",
        "audit",
        "audit-bandit",
        "bogus",
        "",
    ]);
    let switches = prop::collection::vec(prop::sample::select(SWITCHES.to_vec()), 0..2);
    (
        subcommand,
        prop::collection::vec(flag_value(), 0..5),
        switches,
    )
        .prop_map(|(sub, flags, switches)| {
            let mut args: Vec<String> = Vec::new();
            // Variants of a subcommand: the name before the dash.
            let name = sub.split('-').next().unwrap_or("");
            if !name.is_empty() {
                args.push(name.to_string());
            }
            // Start from the flags the subcommand needs, each with a valid
            // value, so that deep code paths are reached; the random flags
            // then override or spoil them.
            let needs: &[&str] = match sub {
                "mechanism" => &["--noise", "--scale", "--losses"],
                "privacy" => &[
                    "--algorithm",
                    "--actions",
                    "--horizon",
                    "--alphabet",
                    "--epsilon",
                ],
                "regret" => &[
                    "--algorithm",
                    "--means",
                    "--setting",
                    "--horizon",
                    "--epsilon",
                ],
                "privacy-bandit" => &[
                    "--algorithm=anytime-lazy-ucb",
                    "--actions",
                    "--horizon",
                    "--alphabet",
                    "--epsilon",
                ],
                "privacy-statistical" => &[
                    "--algorithm=lazy-dp-ts",
                    "--actions",
                    "--horizon",
                    "--alphabet",
                    "--epsilon",
                    "--runs=100",
                ],
                "privacy-mechanism" => &["--mechanism", "--actions", "--alphabet", "--epsilon"],
                "privacy-dpse" => &[
                    "--algorithm=dp-se",
                    "--actions",
                    "--horizon=3",
                    "--alphabet",
                    "--epsilon",
                    "--epoch-length=1",
                ],
                "privacy-dpucb" => &[
                    "--algorithm=dp-ucb",
                    "--actions",
                    "--horizon=3",
                    "--alphabet",
                    "--epsilon",
                ],
                "privacy-dpts" => &[
                    "--algorithm=dp-ts",
                    "--actions",
                    "--horizon=2",
                    "--alphabet",
                    "--epsilon",
                    "--runs=100",
                    "--bonus-round",
                ],
                "bandit-baseline" => &["--algorithm=ucb1", "--means", "--horizon=4", "--runs"],
                "bandit" => &[
                    "--algorithm=anytime-lazy-ucb,lazy-dp-ts",
                    "--means",
                    "--epsilon",
                    "--horizon=4",
                    "--runs",
                ],
                "law" => &["--mechanism", "--scale", "--losses", "--sequence=1"],
                "law-file" => &["--algorithm", "--epsilon", "--losses-file"],
                "sample" => &[
                    "--mechanism",
                    "--scale",
                    "--losses",
                    "--n",
                    "--seed",
                    "--out=/tmp/dpdtol-fuzz-out.csv",
                ],
                "gof" => &["--mechanism", "--scale", "--losses", "--samples=samples"],
                "audit" => &["--first=samples", "--second=samples"],
                "law-bandit" => &[
                    "--algorithm=anytime-lazy-ucb",
                    "--epsilon",
                    "--rewards-file=rewards",
                    "--sequence=1,2,1",
                ],
                "law-dpse" => &[
                    "--algorithm=dp-se",
                    "--epsilon",
                    "--rewards-file=rewards",
                    "--epoch-length=1",
                ],
                "law-dpucbbound" => &[
                    "--algorithm=dp-ucb-bound",
                    "--epsilon",
                    "--rewards-file=rewards",
                ],
                "law-ucb1" => &[
                    "--algorithm=ucb1",
                    "--rewards-file=rewards",
                    "--ties",
                    "--bonus-round",
                ],
                "sample-bandit" => &[
                    "--algorithm=dp-se",
                    "--epsilon",
                    "--rewards-file=rewards",
                    "--n",
                    "--seed",
                    "--out=/tmp/dpdtol-fuzz-out.csv",
                ],
                "gof-bandit" => &[
                    "--algorithm=anytime-lazy-ucb",
                    "--epsilon",
                    "--rewards-file=rewards",
                    "--samples=pulls",
                ],
                "gof-dpts" => &[
                    "--algorithm=dp-ts",
                    "--epsilon",
                    "--rewards-file=rewards",
                    "--samples=pulls",
                    "--seed=1",
                    "--bonus-round",
                ],
                "audit-bandit" => &[
                    "--algorithm=anytime-lazy-ucb",
                    "--epsilon",
                    "--rewards-file=rewards",
                    "--neighbour-file=rewards",
                    "--first=pulls",
                    "--second=pulls",
                ],
                _ => &[],
            };
            // A need is a flag (its first valid value) or `flag=value`
            // (`samples`, `rewards` and `pulls` name the files of that name).
            let mut given: Vec<Vec<String>> = needs
                .iter()
                .map(|f| match f.split_once('=') {
                    Some((flag, "samples")) => vec![flag.to_string(), files()[1].to_string()],
                    Some((flag, "rewards")) => vec![flag.to_string(), files()[3].to_string()],
                    Some((flag, "pulls")) => vec![flag.to_string(), files()[4].to_string()],
                    Some((flag, value)) => vec![flag.to_string(), value.to_string()],
                    None => vec![f.to_string(), valid(f)[0].to_string()],
                })
                .collect();
            for pair in flags {
                match given.iter_mut().find(|g| g[0] == pair[0]) {
                    Some(g) => *g = pair,
                    None => given.push(pair),
                }
            }
            // The verify registry is long to run: only --list or one claim.
            if sub == "verify" && !given.iter().any(|g| g[0] == "--claim") {
                args.push("--list".into());
            }
            args.extend(given.into_iter().flatten());
            args.extend(switches.into_iter().map(String::from));
            args
        })
}

/// The contract every run keeps; `Err` with what broke it.
fn check_contract(args: &[String], run: &Capped) -> Result<(), String> {
    let shown = format!("{args:?}");
    if run.timed_out {
        return Err(format!("{shown}: still running after {:.0} s", run.seconds));
    }
    match run.code {
        Some(0..=2) => {}
        other => {
            return Err(format!(
                "{shown}: status {other:?} (a panic or an abort), stderr: {}",
                run.stderr
            ))
        }
    }
    // A panic, a library's variant name, backend vocabulary, an error
    // number, clap's pointer to --help: not the user's terms.
    let internal = [
        "panicked",
        "Underflow(",
        "certified backend",
        "(os error",
        "For more information",
    ];
    if let Some(word) = internal.iter().find(|w| run.stderr.contains(*w)) {
        return Err(format!(
            "{shown}: internal text ({word}) on stderr: {}",
            run.stderr
        ));
    }
    if run.code == Some(2) {
        let lines = run.stderr.trim_end().lines().count();
        if lines != 1 || !run.stderr.starts_with("dpdtol: ") {
            return Err(format!("{shown}: status 2 with stderr {:?}", run.stderr));
        }
    }
    let help = args.iter().any(|a| a == "--help");
    let result = run.code == Some(0) || (run.code == Some(1) && !run.stdout.is_empty());
    if result && args.iter().any(|a| a == "--json") && !help {
        serde_json::from_str::<Value>(&run.stdout)
            .map_err(|e| format!("{shown}: --json output is not one JSON object: {e}"))?;
    }
    Ok(())
}

/// A deterministic runner: the same cases on every run.
fn runner(cases: u32) -> TestRunner {
    let config = Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    };
    TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha))
}

/// Run `cases` random command lines, each under the contract.
fn fuzz_arguments(cases: u32) {
    let mut runner = runner(cases);
    let strategy = command_line();
    let mut statuses = [0u32; 3];
    let mut slowest = 0f64;
    for _ in 0..cases {
        let args = strategy
            .new_tree(&mut runner)
            .expect("a command line")
            .current();
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let run = capped(&refs, CASE_SECONDS);
        if let Err(e) = check_contract(&args, &run) {
            panic!("{e}");
        }
        statuses[run.code.unwrap_or(0) as usize] += 1;
        slowest = slowest.max(run.seconds);
    }
    for f in ["/tmp/dpdtol-fuzz-out.svg", "/tmp/dpdtol-fuzz-out.csv"] {
        let _ = std::fs::remove_file(f);
    }
    // Every abort, panic or hang has failed the run above: the classes
    // left are answered (status 0 or 1) and refused (2).
    eprintln!(
        "argument fuzzing, {cases} cases: answered {} (status 0/1 = {}/{}), refused {}, abort/panic 0, hang 0; slowest {slowest:.2} s",
        statuses[0] + statuses[1],
        statuses[0],
        statuses[1],
        statuses[2]
    );
    // The pools reach the computations, not only the parsers.
    assert!(statuses[0] > 0 && statuses[2] > 0, "{statuses:?}");
}

// ------------------------------------------------------------ merge inputs

/// A real split run: the shards' `--json` texts and the whole run's report.
struct Split {
    shards: Vec<Value>,
    /// The whole run's report.
    whole: Value,
}

/// Seven problems split in shards: certified laws (wu-wang, Laplace noise;
/// wu-wang with exponential noise whose maximum e^ε is attained, decided in
/// the exact field), exact ones (ftl, an infinite ratio), the two exact bandit checks
/// (anytime-lazy-ucb; dp-se with epochs that end within the horizon), whose
/// shards carry their laws' units, and the two statistical audits
/// (lazy-dp-ts; hybrid-ucb at a quarter of its scales), whose shards carry
/// counts.
fn splits() -> &'static [Split] {
    static SPLITS: OnceLock<Vec<Split>> = OnceLock::new();
    SPLITS.get_or_init(|| {
        let mut dp_se = privacy_command("dp-se", "2", "4", "0,1", "1");
        dp_se.extend(["--epoch-length", "1"]);
        let mut ts = privacy_command("lazy-dp-ts", "2", "4", "0,1", "1");
        ts.extend(["--runs", "300", "--seed", "5"]);
        let mut hybrid = privacy_command("hybrid-ucb", "2", "3", "0,1/2,1", "1");
        hybrid.extend(["--runs", "200", "--scale-factor", "1/4"]);
        let mut attained = privacy_command("wu-wang", "2", "5", "0,1", "1/2");
        attained.extend([
            "--noise",
            "exponential",
            "--noise-scale",
            "4",
            "--resample",
            "0",
        ]);
        let problems = [
            privacy_command("wu-wang", "2", "2", "0,1", "1"),
            attained,
            privacy_command("ftl", "2", "2", "0,1", "1"),
            privacy_command("anytime-lazy-ucb", "2", "4", "0,1", "1"),
            dp_se,
            ts,
            hybrid,
        ];
        problems
            .iter()
            .map(|problem| {
                let mut problem = problem.clone();
                problem.push("--json");
                let whole = json(&problem);
                let shards = ["1/2", "2/2"]
                    .iter()
                    .map(|s| {
                        let mut args = problem.clone();
                        args.extend(["--shard", s]);
                        json(&args)
                    })
                    .collect();
                Split { shards, whole }
            })
            .collect()
    })
}

/// Every JSON pointer of `v` (containers and leaves).
fn pointers(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Object(map) => {
            for (k, child) in map {
                pointers(child, format!("{at}/{k}"), out);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                pointers(child, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
    out.push(at);
}

/// The value at `pointer` deleted: an object's key removed, an array's
/// last item (its parent an array) dropped.
fn delete(v: &mut Value, pointer: &str) {
    let (parent, key) = pointer.rsplit_once('/').unwrap_or(("", ""));
    match v.pointer_mut(parent) {
        Some(Value::Object(map)) => {
            map.remove(key);
        }
        Some(Value::Array(items)) if !items.is_empty() => {
            items.pop();
        }
        _ => {}
    }
}

/// JSON values that a hand edit or a broken tool might put anywhere.
fn hostile_json(i: usize) -> Value {
    let pool = [
        Value::Null,
        Value::Bool(true),
        serde_json::json!(-1),
        serde_json::json!(0),
        serde_json::json!(1.5),
        serde_json::json!(1e308),
        serde_json::json!(u64::MAX),
        serde_json::json!("1/18446744073709551615"),
        serde_json::json!("1/99999999999999"),
        serde_json::json!("-1"),
        serde_json::json!("inf"),
        serde_json::json!("NaN"),
        serde_json::json!("1/0"),
        serde_json::json!(""),
        serde_json::json!("x"),
        serde_json::json!([]),
        serde_json::json!({}),
        serde_json::json!([[]]),
        serde_json::json!("1e99999"),
        serde_json::json!("2"),
        serde_json::json!("1/2"),
        serde_json::json!("exact"),
        serde_json::json!(100_000_000),
    ];
    pool[i % pool.len()].clone()
}

/// One mutation of a split's first shard, written with the second to two files.
#[derive(Clone, Debug)]
struct Mutation {
    split: usize,
    /// Which pointer (modulo their number).
    pointer: usize,
    /// 0–5: replace by a hostile value; 6: delete; 7: truncate the text;
    /// 8: give the mutated shard twice; 9: the value of another pointer;
    /// 10: relabel the second shard as the first (its index, and the
    /// counters that name a position: the witness's law, the first table);
    /// 11: re-count (move counts between two cells of a statistical
    /// shard's table, keeping its sums; give a unit of an exact bandit or a
    /// full-information shard another unit's maximum); the forgeries, each
    /// merged with nothing recomputed (`--spot-check 0`) and always
    /// refused: 12: the first shard relabelled as the whole run (`1/1`,
    /// the whole run's pair count, no units) and merged alone; 13: its
    /// units stripped (`merge.units`, `merge.units_precision_bits`, a
    /// statistical shard's counts); 14: one unit's enclosure malformed
    /// (unordered, or a negative end; a negative count).
    how: usize,
    value: usize,
    cut: f64,
}

fn mutation() -> impl Strategy<Value = Mutation> {
    (
        0..splits().len(),
        0..10_000usize,
        0..CLASSES,
        0..1000usize,
        0.0..1.0f64,
    )
        .prop_map(|(split, pointer, how, value, cut)| Mutation {
            split,
            pointer,
            how,
            value,
            cut,
        })
}

fn apply(m: &Mutation, dir: &std::path::Path) -> (Vec<String>, String) {
    let split = &splits()[m.split];
    let mut first = split.shards[0].clone();
    let mut all = Vec::new();
    pointers(&first, String::new(), &mut all);
    let pointer = all[m.pointer % all.len()].clone();
    let mut text = None;
    match m.how {
        0..=5 => {
            if let Some(slot) = first.pointer_mut(&pointer) {
                *slot = hostile_json(m.value);
            }
        }
        6 => delete(&mut first, &pointer),
        7 => {
            let full = first.to_string();
            let mut at = (full.len() as f64 * m.cut) as usize;
            while !full.is_char_boundary(at) {
                at -= 1;
            }
            text = Some(full[..at].to_string());
        }
        8 => {}
        10 => {
            let original = first;
            first = split.shards[1].clone();
            first["shard"] = original["shard"].clone();
            for counter in ["law", "first_table"] {
                if let Some(c) = original["merge"].get(counter) {
                    first["merge"][counter] = c.clone();
                }
            }
        }
        11 => recount(&mut first, m.value, m.pointer),
        12 => {
            first["shard"] = Value::from("1/1");
            if let Some(pairs) = split.whole.get("pairs") {
                first["pairs"] = pairs.clone();
            }
            strip_units(&mut first);
        }
        13 => strip_units(&mut first),
        14 => malform(&mut first, m.value),
        _ => {
            let other = all[m.value % all.len()].clone();
            let value = first.pointer(&other).cloned().unwrap_or(Value::Null);
            if let Some(slot) = first.pointer_mut(&pointer) {
                *slot = value;
            }
        }
    }
    let a = dir.join("a.json");
    let b = dir.join("b.json");
    std::fs::write(&a, text.unwrap_or_else(|| first.to_string())).unwrap();
    std::fs::write(&b, split.shards[1].to_string()).unwrap();
    let list = match m.how {
        8 => format!("{},{}", a.display(), a.display()),
        12 => a.display().to_string(),
        _ => format!("{},{}", a.display(), b.display()),
    };
    // Every unit recomputed, but for the forgeries, which are refused as
    // read.
    let spot = if m.how >= FORGERIES { "0" } else { "all" };
    (
        ["privacy", "--merge", &list, "--spot-check", spot, "--json"]
            .map(String::from)
            .to_vec(),
        pointer,
    )
}

/// The mutation classes (`Mutation::how`), and the first of the forgeries.
const CLASSES: usize = 15;
const FORGERIES: usize = 12;

/// A shard without what a merge recomputes: its units (and their
/// precision), or a statistical shard's counts.
fn strip_units(shard: &mut Value) {
    if let Some(merge) = shard.get_mut("merge").and_then(Value::as_object_mut) {
        for key in ["units", "units_precision_bits", "counts"] {
            merge.remove(key);
        }
    }
}

/// One unit of a shard (`choice` picks it) with a malformed enclosure: an
/// interval of positive width reversed, else a negative lower end; a
/// statistical shard's count made negative.
fn malform(shard: &mut Value, choice: usize) {
    if let Some(Value::Array(tables)) = shard.pointer_mut("/merge/counts") {
        let n = tables.len();
        if let Some(Value::Array(half)) = tables[choice % n.max(1)].get_mut(choice % 2) {
            let cells = half.len();
            half[choice % cells.max(1)] = Value::from(-1);
        }
    } else if let Some(Value::Array(units)) = shard.pointer_mut("/merge/units") {
        let n = units.len();
        let unit = &mut units[choice % n.max(1)];
        *unit = match (unit.get("lo"), unit.get("hi"), unit.get("exact")) {
            (Some(lo), Some(hi), _) if lo != hi => serde_json::json!({"lo": hi, "hi": lo}),
            (_, Some(hi), _) => serde_json::json!({"lo": "-1", "hi": hi}),
            (_, _, Some(_)) => serde_json::json!({"exact": "-1"}),
            _ => serde_json::json!({"lo": "-1", "hi": "1"}),
        };
    }
}

/// Counts moved between two cells of one table of a statistical shard (the
/// sums kept), or a unit of an exact bandit or full-information shard given
/// another unit's maximum; `a` and `b` choose where.
fn recount(shard: &mut Value, a: usize, b: usize) {
    if let Some(Value::Array(tables)) = shard.pointer_mut("/merge/counts") {
        let n = tables.len();
        let Some(Value::Array(half)) = tables[a % n.max(1)].get_mut(b % 2) else {
            return;
        };
        let cells = half.len();
        let (from, to) = (a % cells, (a / cells + 1 + b) % cells);
        let moved = half[from].as_u64().unwrap_or(0).min(1 + b as u64 % 7);
        if from != to && moved > 0 {
            half[from] = Value::from(half[from].as_u64().unwrap() - moved);
            half[to] = Value::from(half[to].as_u64().unwrap() + moved);
        }
    } else if let Some(Value::Array(units)) = shard.pointer_mut("/merge/units") {
        let n = units.len();
        units[a % n] = units[b % n].clone();
    }
}

fn fuzz_merge(cases: u32) {
    // One directory per call: the brief and the long run may run at once.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let dir: PathBuf =
        std::env::temp_dir().join(format!("dpdtol-fuzz-merge-{}-{call}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut runner = runner(cases);
    let strategy = mutation();
    // Per mutation class, the runs that ended with status 0, 1 and 2.
    let mut statuses = [[0u32; 3]; CLASSES];
    let mut slowest = 0f64;
    for _ in 0..cases {
        let m = strategy
            .new_tree(&mut runner)
            .expect("a mutation")
            .current();
        let (args, pointer) = apply(&m, &dir);
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let run = capped(&refs, CASE_SECONDS);
        let what = format!("{m:?} at {pointer}");
        if let Err(e) = check_contract(&args, &run) {
            panic!("{what}: {e}");
        }
        if m.how >= FORGERIES {
            assert_eq!(run.code, Some(2), "{what}: a forgery is refused");
        }
        if matches!(run.code, Some(0 | 1)) {
            // An accepted part is the part as written, up to a change that
            // alters nothing: the merge is the whole run's report exactly,
            // and its status says whether it is violated.
            let mut merged: Value = serde_json::from_str(&spot_checked(&run.stdout)).unwrap();
            let mut whole = splits()[m.split].whole.clone();
            // `why_not_exact` is explanatory text carried from the parts
            // (checked only against `kind`): an edit of it is the one change
            // a merge passes on. Every number, the verdict and the witness
            // are the whole run's.
            if pointer.starts_with("/why_not_exact") {
                for report in [&mut merged, &mut whole] {
                    report.as_object_mut().map(|o| o.remove("why_not_exact"));
                }
            }
            assert_eq!(merged, whole, "{what}");
            let violated = merged["verdict"] == "violated";
            assert_eq!(
                run.code,
                Some(i32::from(violated)),
                "{what}: the status is the verdict's"
            );
        }
        statuses[m.how][run.code.unwrap_or(0) as usize] += 1;
        slowest = slowest.max(run.seconds);
    }
    eprintln!("merge fuzzing, {cases} cases, slowest {slowest:.2} s; statuses 0/1/2 by class:");
    for (how, counts) in statuses.iter().enumerate() {
        eprintln!("  class {how:2}: {counts:?}");
    }
    assert!(statuses.iter().any(|c| c[2] > 0), "{statuses:?}");
    // The parts as written merge into the whole run.
    for (i, split) in splits().iter().enumerate() {
        let files: Vec<String> = split
            .shards
            .iter()
            .enumerate()
            .map(|(s, shard)| {
                let path = dir.join(format!("whole-{i}-{s}.json"));
                std::fs::write(&path, shard.to_string()).unwrap();
                path.display().to_string()
            })
            .collect();
        let run = capped(
            &["privacy", "--merge", &files.join(","), "--json"],
            CASE_SECONDS,
        );
        let merged: Value = serde_json::from_str(&spot_checked(&run.stdout)).unwrap();
        assert_eq!(merged, split.whole, "split {i}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

// ------------------------------------------------------ verify merge inputs

/// A planted claim of the registry's shape whose check returns `outcome`.
fn planted(id: &'static str, check: fn() -> dpdtol::error::Result<Outcome>) -> Claim {
    Claim {
        id,
        source: Source {
            paper: Paper::CesariColomboni,
            number: "a test",
            context: "L1",
        },
        statement: "a planted claim",
        math: "n ≤ 64",
        method: Method::InstanceGrid,
        domain: "n ≤ 64",
        cost: Cost::Fast,
        check,
    }
}

/// The merge mutations above applied to `verify --merge` inputs, through
/// the library (a shard of the real registry takes minutes to produce;
/// the merge's code is the command's: [`merge::accept`] of each shard,
/// [`verify::merge_shards`], every claim recomputed by
/// [`merge::spot_check`]): three shards of five planted claims (refuted,
/// certified and undecided ones), their `--json` objects mutated — a field
/// replaced by a hostile value or by another field's value, deleted, a
/// shard relabelled as another, a claim's status changed with the tally
/// re-counted to fit, a claim dropped or given twice with the tally
/// re-counted, the whole run relabelled as the one shard of one (`1/1`) and
/// merged alone — are each refused in one line, or merge into the whole
/// run.
fn fuzz_verify_merge(cases: u32) {
    use dpdtol::report::merge::{self, SpotPolicy};
    use dpdtol::report::verify::VerifyReport;
    use rand::{Rng, SeedableRng};
    let claims = [
        planted("cc-thm97-a", || Ok(Outcome::holds("holds on the grid"))),
        planted("cc-thm97-r", || {
            Ok(Outcome::refuted(
                "fails at n = 3",
                serde_json::json!({"n": 3}),
            ))
        }),
        planted("cc-thm97-b", || Ok(Outcome::holds("holds on the grid"))),
        planted("cc-thm97-c", || Ok(Outcome::certified("by exact algebra"))),
        planted("cc-thm97-d", || Ok(Outcome::holds("holds on the grid"))),
    ];
    let all: Vec<&Claim> = claims.iter().collect();
    // The merge recomputes a claim as `verify` runs it: an instance claim
    // with no search declared is undecided.
    fn run<'a>(claims: &[&'a Claim]) -> Vec<verify::Checked<'a>> {
        verify::run_searched(claims, &[], |_, _| {})
    }
    let honest = verify::to_markdown(&run(&all), &[], &[], &[]);
    let outputs: Vec<Value> = (1..=3u64)
        .map(|i| {
            let part = run(&verify::shard_of(&all, i, 3));
            let mut v = serde_json::to_value(verify::to_json(&part)).unwrap();
            v["shard"] = serde_json::json!({"index": i, "count": 3});
            v
        })
        .collect();
    let merged = |inputs: &[Value]| -> dpdtol::error::Result<String> {
        let name = |i: usize| format!("s{}.json", i + 1);
        let parts = inputs
            .iter()
            .enumerate()
            .map(|(i, v)| merge::accept::<VerifyReport>(&name(i), v))
            .collect::<dpdtol::error::Result<Vec<_>>>()?;
        let checked = verify::merge_shards(&all, &|_| unreachable!("no coverage"), &parts)?;
        let units = parts
            .iter()
            .enumerate()
            .map(|(i, r)| Ok((name(i), verify::ShardClaims::new(&all, &[], r)?)))
            .collect::<dpdtol::error::Result<Vec<_>>>()?;
        let every = SpotPolicy {
            per_part: SpotPolicy::ALL,
            seed: 1,
        };
        merge::spot_check(&units, every)?;
        Ok(verify::to_markdown(&checked, &[], &[], &[]))
    };
    assert_eq!(merged(&outputs).unwrap(), honest);
    let statuses = ["certified", "holds-on-instances", "refuted", "undecided"];
    // A shard's tally with one claim of status `from` made `to`.
    let recount = |shard: &mut Value, from: &str, to: &str| {
        for (status, delta) in [(from, -1i64), (to, 1)] {
            if let Some(n) = shard["summary"][status].as_i64() {
                shard["summary"][status] = Value::from(n + delta);
            }
        }
    };
    // The whole run relabelled as the one shard of a split into one.
    let mut whole = serde_json::to_value(verify::to_json(&run(&all))).unwrap();
    whole["shard"] = serde_json::json!({"index": 1, "count": 1});
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(20261126);
    let (mut refused, mut passed) = (0u32, 0u32);
    // Per mutation class: refused, merged.
    let mut by_class = [[0u32; 2]; 8];
    for case in 0..cases {
        let mut inputs = outputs.clone();
        let s = rng.random_range(0..3usize);
        let mut all_pointers = Vec::new();
        pointers(&inputs[s], String::new(), &mut all_pointers);
        let pointer = all_pointers[rng.random_range(0..all_pointers.len())].clone();
        let how = rng.random_range(0..8u32);
        if how == 7 {
            inputs = vec![whole.clone()];
        }
        let last = inputs.len() - 1;
        let shard = &mut inputs[s.min(last)];
        let n_claims = shard["claims"].as_array().map_or(0, Vec::len);
        match how {
            0 => {
                if let Some(slot) = shard.pointer_mut(&pointer) {
                    *slot = hostile_json(rng.random_range(0..1000));
                }
            }
            1 => delete(shard, &pointer),
            2 => {
                let other = &all_pointers[rng.random_range(0..all_pointers.len())];
                let value = shard.pointer(other).cloned().unwrap_or(Value::Null);
                if let Some(slot) = shard.pointer_mut(&pointer) {
                    *slot = value;
                }
            }
            3 => {
                shard["shard"] = outputs[(s + 1 + rng.random_range(0..2usize)) % 3]["shard"].clone()
            }
            4 if n_claims > 0 => {
                let c = rng.random_range(0..n_claims);
                let from = shard["claims"][c]["status"]
                    .as_str()
                    .unwrap_or("")
                    .to_string();
                let to = statuses[rng.random_range(0..statuses.len())];
                shard["claims"][c]["status"] = Value::from(to);
                recount(shard, &from, to);
            }
            5 | 6 if n_claims > 0 => {
                let c = rng.random_range(0..n_claims);
                let claim = shard["claims"][c].clone();
                let status = claim["status"].as_str().unwrap_or("").to_string();
                let list = shard["claims"].as_array_mut().unwrap();
                if how == 5 {
                    list.remove(c);
                    recount(shard, &status, "none");
                } else {
                    list.insert(c, claim);
                    recount(shard, "none", &status);
                }
            }
            _ => {}
        }
        match merged(&inputs) {
            Err(e) => {
                let line = e.to_string();
                assert!(
                    !line.is_empty() && !line.contains('\n'),
                    "case {case}: {line}"
                );
                refused += 1;
                by_class[how as usize][0] += 1;
            }
            Ok(markdown) => {
                assert_ne!(how, 7, "case {case}: a whole run is not a part");
                let what = format!(
                    "case {case}: mutation {how} at {pointer} of shard {}",
                    s + 1
                );
                assert_eq!(markdown, honest, "{what}");
                passed += 1;
                by_class[how as usize][1] += 1;
            }
        }
    }
    eprintln!("verify merge fuzzing, {cases} cases: {refused} refused, {passed} merged into the whole run; refused/merged by class: {by_class:?}");
    assert!(
        refused > cases / 2 && passed > 0,
        "{refused} refused, {passed} merged"
    );
}

/// A one-shot selection's report (`privacy --mechanism --json`) is never
/// split: as a merge input, as written or with any field replaced by a
/// hostile value or another field's value, or deleted, it is refused in one
/// line with status 2.
fn fuzz_one_shot_merge(cases: u32) {
    use rand::{Rng, SeedableRng};
    let dir = std::env::temp_dir().join(format!("dpdtol-fuzz-one-shot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let report = json(&[
        "privacy",
        "--mechanism",
        "laplace",
        "--actions",
        "2",
        "--alphabet",
        "0,1",
        "--epsilon",
        "1",
        "--json",
    ]);
    let mut all = Vec::new();
    pointers(&report, String::new(), &mut all);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(20261126);
    for case in 0..cases {
        let mut part = report.clone();
        let pointer = all[rng.random_range(0..all.len())].clone();
        match rng.random_range(0..4u32) {
            0 => {}
            1 => delete(&mut part, &pointer),
            2 => {
                let other = &all[rng.random_range(0..all.len())];
                let value = part.pointer(other).cloned().unwrap_or(Value::Null);
                if let Some(slot) = part.pointer_mut(&pointer) {
                    *slot = value;
                }
            }
            _ => {
                if let Some(slot) = part.pointer_mut(&pointer) {
                    *slot = hostile_json(rng.random_range(0..1000));
                }
            }
        }
        let path = dir.join("one-shot.json");
        std::fs::write(&path, part.to_string()).unwrap();
        let list = format!("{},{}", path.display(), path.display());
        let args: Vec<String> = ["privacy", "--merge", &list, "--json"]
            .iter()
            .map(|a| a.to_string())
            .collect();
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let run = capped(&refs, CASE_SECONDS);
        if let Err(e) = check_contract(&args, &run) {
            panic!("case {case} at {pointer}: {e}");
        }
        assert_eq!(run.code, Some(2), "case {case} at {pointer}: merged");
    }
    eprintln!("one-shot merge fuzzing, {cases} cases: all refused");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A merged report's JSON without `spot_check` (what the merge re-verified,
/// which the whole run has not).
fn spot_checked(stdout: &str) -> String {
    if stdout.contains("\"spot_check\":{") {
        common::without_spot_check(stdout)
    } else {
        stdout.to_string()
    }
}

/// Command lines a sweep of the newest flags found aborting, panicking or
/// hanging (each flag of each bandit law given hostile values), replayed
/// under the contract: DP-SE's β below the floating-point range, a bonus
/// of 10^20 in the staircase laws, UCB1's uniform ties on 34 arms of equal
/// rewards with `--force` (a tree of 10^6 pull sequences past the memory
/// cap, once built before it was counted).
const FOUND: &[&str] = &[
    "privacy --algorithm dp-se --actions 2 --horizon 4 --alphabet 0,1 --epsilon 1 --beta 1e-330",
    "law --algorithm dp-se --epsilon 1 --rewards-file {rewards} --beta 1e-199999",
    "gof --algorithm dp-se --epsilon 1 --rewards-file {rewards} --samples {pulls} --beta 1e-330",
    "privacy --algorithm hybrid-ucb --actions 2 --horizon 4 --alphabet 0,1 --epsilon 1 --bonus 99999999999999999999",
    "privacy --algorithm dp-ucb-bound --actions 2 --horizon 4 --alphabet 0,1 --epsilon 1 --bonus 99999999999999999999",
    "law --algorithm hybrid-ucb --epsilon 1 --rewards-file {rewards} --bonus 99999999999999999999",
    "sample --algorithm dp-ucb-bound --epsilon 1 --rewards-file {rewards} --n 5 --seed 1 --out /tmp/dpdtol-fuzz-out.csv --bonus 99999999999999999999",
    "law --algorithm ucb1 --ties uniform --rewards-file {equal34} --force",
];

/// A reward table of 34 rounds of 34 arms, every reward 0.
fn equal_rewards() -> String {
    let path = std::env::temp_dir().join(format!("dpdtol-fuzz-equal-{}.csv", std::process::id()));
    let row = vec!["0"; 34].join(",");
    std::fs::write(&path, format!("{row}\n").repeat(34)).unwrap();
    path.display().to_string()
}

#[test]
fn found_command_lines_keep_the_contract() {
    let equal = equal_rewards();
    for line in FOUND {
        let line = line
            .replace("{rewards}", files()[3])
            .replace("{pulls}", files()[4])
            .replace("{equal34}", &equal);
        let args: Vec<String> = line.split(' ').map(String::from).collect();
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let run = capped(&refs, CASE_SECONDS);
        if let Err(e) = check_contract(&args, &run) {
            panic!("{e}");
        }
        assert_eq!(run.code, Some(2), "{line}: {}", run.stderr);
    }
}

#[test]
fn fuzz_the_argument_grammar_briefly() {
    fuzz_arguments(120);
}

#[test]
fn fuzz_merge_inputs_briefly() {
    fuzz_merge(60);
    fuzz_one_shot_merge(20);
}

#[test]
fn fuzz_verify_merge_inputs_briefly() {
    fuzz_verify_merge(300);
}

/// The number of cases of each kind in the long mode.
fn long_cases() -> u32 {
    std::env::var("DPDTOL_FUZZ_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2000)
}

#[test]
#[ignore = "long fuzzing: DPDTOL_FUZZ_CASES cases (default 2000) of each kind"]
fn fuzz_the_argument_grammar_long() {
    fuzz_arguments(long_cases());
}

#[test]
#[ignore = "long fuzzing: DPDTOL_FUZZ_CASES cases (default 2000) of each kind"]
fn fuzz_merge_inputs_long() {
    fuzz_merge(long_cases());
    fuzz_one_shot_merge(long_cases() / 10);
}

#[test]
#[ignore = "long fuzzing: DPDTOL_FUZZ_CASES cases (default 2000) of each kind"]
fn fuzz_verify_merge_inputs_long() {
    fuzz_verify_merge(long_cases());
}
