//! Hostile, huge and quiet inputs: each case with its exact command, run
//! under a memory cap and a time
//! limit ([`common::capped`]): work before the guard, trusted merge files,
//! quiet failures.

mod common;

use common::{assert_refused, capped, json, merge_list, privacy_command, regret_command};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    common::scratch(&format!("hostile-{name}"))
}

// ------------------------------------------------- class 1: work before the guard

#[test]
fn privacy_refuses_k24_before_building_its_loss_vectors() {
    // Guards against building 2^24 loss vectors (7.7 GB) before the 10^8-pair limit.
    let mut args = privacy_command("ftl", "24", "1", "0,1", "1");
    // The structural method (the default) needs the table of loss vectors:
    // refused at once by the memory cap, naming its size.
    let run = capped(&args, 10.0);
    assert_refused(&run, "K = 24, structural");
    assert!(
        run.stderr.contains("16777216 loss vectors"),
        "{}",
        run.stderr
    );
    assert!(run.seconds < 5.0, "took {:.1} s", run.seconds);
    // The enumeration is refused by its pair count, before the table.
    args.extend(["--method", "enumeration"]);
    let run = capped(&args, 10.0);
    assert_refused(&run, "K = 24");
    // The message names the size (2^24 · (2^24 − 1) pairs) and the flag.
    assert!(run.stderr.contains("281474959933440"), "{}", run.stderr);
    assert!(run.stderr.contains("--force"), "{}", run.stderr);
    assert!(run.seconds < 5.0, "took {:.1} s", run.seconds);
}

#[test]
fn privacy_refuses_a_horizon_of_10_15_before_building_its_plan() {
    // The structural method keeps per-round data: a horizon of 10^15 is
    // refused on the number (it aborted on a 24 PB allocation when merged).
    let args = privacy_command("wu-wang", "2", "1000000000000000", "0,1", "1");
    let run = capped(&args, 10.0);
    assert_refused(&run, "horizon 10^15");
    assert!(run.stderr.contains("1048576 rounds"), "{}", run.stderr);
    assert!(run.seconds < 5.0, "took {:.1} s", run.seconds);
}

#[test]
fn privacy_refuses_k22_at_once_and_caps_the_table_even_when_forced() {
    // Guards against K = 22 using 5.9 GB and 34 s before refusing.
    let mut args = privacy_command("ftl", "22", "1", "0,1", "1");
    let run = capped(&args, 10.0);
    assert_refused(&run, "K = 22");
    assert!(run.seconds < 5.0, "took {:.1} s", run.seconds);
    args.push("--force");
    let run = capped(&args, 10.0);
    assert_refused(&run, "K = 22 --force");
    assert!(run.stderr.contains("memory cap"), "{}", run.stderr);
}

#[test]
fn privacy_refuses_an_alphabet_of_5000_values_before_building() {
    // Guards against an alphabet of 5000 values using 4 GB first.
    let alphabet: Vec<String> = (0..5000).map(|i| format!("{i}/5000")).collect();
    let alphabet = alphabet.join(",");
    let args = privacy_command("wu-wang", "2", "1", &alphabet, "1");
    let run = capped(&args, 10.0);
    assert_refused(&run, "alphabet of 5000");
    assert!(run.seconds < 5.0, "took {:.1} s", run.seconds);
    // A repeated value among 5000 is found (by sorting, not in quadratic time).
    let repeated = format!("{alphabet},1/5000");
    let args = privacy_command("wu-wang", "2", "1", &repeated, "1");
    let run = capped(&args, 10.0);
    assert_refused(&run, "repeated alphabet value");
    assert!(run.stderr.contains("repeated"), "{}", run.stderr);
}

// --------------------------------------------------- class 2: trusted files

/// The `--json` outputs of shards 1/2 and 2/2 of [`PROBLEM`], and of the whole run.
fn shards() -> (Value, Value, Value) {
    let run = |shard: Option<&str>| {
        // Certified laws (wu-wang, Laplace noise).
        let mut args = privacy_command("wu-wang", "2", "2", "0,1", "1");
        args.push("--json");
        if let Some(s) = shard {
            args.extend(["--shard", s]);
        }
        json(&args)
    };
    (run(Some("1/2")), run(Some("2/2")), run(None))
}

/// Merge `first` (edited) with the untouched second shard.
fn merge_edited(dir: &Path, first: &Value, second: &Value) -> common::Capped {
    let list = merge_list(dir, "shard", first, second);
    capped(&["privacy", "--merge", &list, "--json"], 20.0)
}

#[test]
fn real_shards_still_merge_into_the_whole_run() {
    let dir = scratch("real");
    let (first, second, whole) = shards();
    assert_eq!(first["kind"], "certified");
    let run = merge_edited(&dir, &first, &second);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let merged: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(as_whole(merged), whole);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A merged report without what the merge re-verified (`spot_check`, which
/// it must have and the whole run has not).
fn as_whole(mut merged: Value) -> Value {
    let spot = merged.as_object_mut().and_then(|o| o.remove("spot_check"));
    assert!(spot.is_some(), "no spot_check key in {merged}");
    merged
}

#[test]
fn a_noise_scale_of_10_to_the_99999_is_refused_at_once() {
    // The long merge fuzzer found it: a shard's `noise_scale` edited to
    // "1e99999" (a valid decimal) kept the merge's re-evaluation busy past
    // 30 s; so did `--noise-scale 1e99999` on a fresh run.
    let mut args = privacy_command("wu-wang", "2", "2", "0,1", "1");
    args.extend(["--noise-scale", "1e99999"]);
    let run = capped(&args, 20.0);
    assert_refused(&run, "--noise-scale 1e99999");
    assert!(run.stderr.contains("4096 bits"), "{}", run.stderr);
    assert!(run.seconds < 5.0, "took {:.1} s", run.seconds);
    let dir = scratch("scale");
    let (mut first, second, _) = shards();
    first["noise_scale"] = Value::String("1e99999".into());
    let run = merge_edited(&dir, &first, &second);
    assert_refused(&run, "a merge input with noise_scale 1e99999");
    assert!(run.seconds < 5.0, "took {:.1} s", run.seconds);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn hand_edited_merge_inputs_are_refused_with_one_line() {
    let dir = scratch("edited");
    let (first, second, _) = shards();
    let set = |pointer: &str, value: Value| {
        let mut v = first.clone();
        *v.pointer_mut(pointer)
            .unwrap_or_else(|| panic!("{pointer}")) = value;
        v
    };
    let hi = first["merge"]["max_ratio"]["hi"].clone();
    let lo = first["merge"]["max_ratio"]["lo"].clone();
    let cases: Vec<(&str, Value)> = vec![
        // A capacity overflow (exit 101) if unchecked.
        (
            "shard 1/2^64-1",
            set("/shard", json!("1/18446744073709551615")),
        ),
        // An abort if unchecked.
        (
            "shard 1/99999999999999",
            set("/shard", json!("1/99999999999999")),
        ),
        // A hang if unchecked.
        (
            "precision_bits 10^8",
            set("/precision_bits", json!(100_000_000)),
        ),
        ("actions 0", set("/actions", json!(0))),
        ("actions 3", set("/actions", json!(3))),
        (
            "horizon 10^15",
            set("/horizon", json!(1_000_000_000_000_000u64)),
        ),
        (
            "negative interval",
            set("/merge/max_ratio", json!({"lo": "-2", "hi": "-1"})),
        ),
        (
            "inverted interval",
            set("/merge/max_ratio", json!({"lo": hi, "hi": lo})),
        ),
        ("empty witness", set("/witness/losses", json!([]))),
        (
            "kind exact on a certified run",
            set("/kind", json!("exact")),
        ),
        ("kind unknown", set("/kind", json!("approximate"))),
        (
            "max_ratio_exact on a certified run",
            set("/max_ratio_exact", json!("3/2")),
        ),
        ("pairs forged", set("/pairs", json!(7))),
        (
            "action out of range",
            set("/witness/actions", json!([1, 3])),
        ),
        ("round out of range", set("/witness/round", json!(3))),
        (
            "neighbour equal to the sequence",
            set("/witness/neighbour", first["witness"]["losses"].clone()),
        ),
        (
            "loss outside the alphabet",
            set("/witness/losses/0/0", json!("1/2")),
        ),
        // A structural shard's witness carries its candidate's index, checked
        // against the shard's range of candidates (and decoded: see below).
        (
            "sequence index forged",
            set("/merge/sequence", json!(1u64 << 40)),
        ),
        ("verdict forged", set("/verdict", json!("violated"))),
        ("noise forged", set("/noise", json!("gumbel"))),
        (
            "a 30000-digit number",
            set("/epsilon", json!("1".repeat(30_000))),
        ),
        ("not a number", set("/epsilon", json!("x"))),
        ("a number as a number", set("/epsilon", json!(1))),
    ];
    for (what, edited) in &cases {
        let run = merge_edited(&dir, edited, &second);
        assert_refused(&run, what);
        assert!(run.seconds < 10.0, "{what}: took {:.1} s", run.seconds);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_witness_that_is_not_its_candidate_is_refused() {
    // The structural witness names its candidate by index; the checker
    // decodes the index into the pair it stands for and compares. Edits
    // that keep every range and shape valid: another candidate of the same
    // shard, and the pair turned around (x and x' swapped).
    let dir = scratch("candidate");
    let (first, second, _) = shards();
    let index = first["merge"]["sequence"].as_u64().unwrap();
    let count = first["pairs"].as_u64().unwrap();
    assert!(count >= 2, "shard 1/2 has {count} candidates");
    let other = if index + 1 < count {
        index + 1
    } else {
        index - 1
    };
    let mut moved = first.clone();
    moved["merge"]["sequence"] = json!(other);
    let mut swapped = first.clone();
    swapped["witness"]["losses"] = first["witness"]["neighbour"].clone();
    swapped["witness"]["neighbour"] = first["witness"]["losses"].clone();
    for (what, edited) in [
        ("another candidate's index", &moved),
        ("x and x' swapped", &swapped),
    ] {
        let run = merge_edited(&dir, edited, &second);
        assert_refused(&run, what);
        assert!(
            run.stderr.contains("candidate index"),
            "{what}: {}",
            run.stderr
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_forged_violation_is_caught_by_re_evaluating_the_witness() {
    // Claim a maximum (and witness ratio, and every unit's maximum) of 100 >
    // e^1 with the verdict "violated": every field is consistent except the
    // ratio itself, which only re-evaluating the witness's probabilities can
    // refute.
    let dir = scratch("forged");
    let (first, second, _) = shards();
    let mut v = first.clone();
    let forged = json!({"lo": "100", "hi": "101"});
    v["merge"]["max_ratio"] = forged.clone();
    for unit in v["merge"]["units"].as_array_mut().unwrap() {
        *unit = forged.clone();
    }
    v["merge"]["witness_ratio"] = forged;
    v["verdict"] = json!("violated");
    let run = merge_edited(&dir, &v, &second);
    assert_refused(&run, "forged violation");
    assert!(run.stderr.contains("witness's ratio"), "{}", run.stderr);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn merge_refuses_devices_pipes_truncated_and_huge_files() {
    // Guards against reading /dev/zero or /dev/urandom until memory runs out.
    for device in ["/dev/zero", "/dev/urandom"] {
        let run = capped(&["privacy", "--merge", device], 10.0);
        assert_refused(&run, device);
    }
    let dir = scratch("files");
    // A fifo with no writer: opening it would block; it is refused unopened.
    let fifo = dir.join("fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        let run = capped(&["privacy", "--merge", fifo.to_str().unwrap()], 10.0);
        assert_refused(&run, "fifo");
    }
    let (first, _, _) = shards();
    let text = first.to_string();
    let truncated = dir.join("truncated.json");
    std::fs::write(&truncated, &text[..text.len() / 2]).unwrap();
    let run = capped(&["privacy", "--merge", truncated.to_str().unwrap()], 10.0);
    assert_refused(&run, "truncated");
    // Guards against leaking serde's wording ("cannot parse number: x is not JSON").
    assert!(!run.stderr.contains("parse number"), "{}", run.stderr);
    // A merge input whose text is `x`.
    let x = dir.join("x.json");
    std::fs::write(&x, "x").unwrap();
    let run = capped(&["privacy", "--merge", x.to_str().unwrap()], 10.0);
    assert_refused(&run, "x");
    assert!(
        run.stderr.contains("not valid JSON") && !run.stderr.contains("parse number"),
        "{}",
        run.stderr
    );
    let huge = dir.join("huge.json");
    let file = std::fs::File::create(&huge).unwrap();
    file.set_len(64 << 20).unwrap();
    let run = capped(&["privacy", "--merge", huge.to_str().unwrap()], 10.0);
    assert_refused(&run, "64 MB file");
    assert!(run.stderr.contains("larger than"), "{}", run.stderr);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn oracle_input_files_are_bounded_before_they_are_read() {
    // Found by the fuzzer: `law --losses-file /dev/zero` and `audit --first
    // /dev/zero` read until memory ran out; `gof --samples /dev/urandom` ran
    // until killed. Now at most 256 MiB are read, then one line.
    let dir = scratch("oracle-files");
    let samples = dir.join("samples.csv");
    std::fs::write(&samples, "1\n2\n".repeat(20)).unwrap();
    let samples = samples.to_str().unwrap();
    let cases: Vec<Vec<&str>> = vec![
        vec![
            "law",
            "--algorithm",
            "ftl",
            "--epsilon",
            "1",
            "--losses-file",
            "/dev/zero",
        ],
        vec!["audit", "--first", "/dev/zero", "--second", samples],
        vec![
            "gof",
            "--mechanism",
            "gumbel",
            "--scale",
            "1",
            "--losses",
            "0,1",
            "--samples",
            "/dev/urandom",
        ],
    ];
    for args in &cases {
        let run = capped(args, 30.0);
        assert_refused(&run, &args.join(" "));
        assert!(run.stderr.contains("256 MiB"), "{args:?}: {}", run.stderr);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn exact_shards_merge_exactly() {
    // ftl's laws are rational: its shards are exact (an infinite ratio).
    let dir = scratch("exact");
    let mut problem = privacy_command("ftl", "2", "2", "0,1", "1");
    problem.push("--json");
    let mut files = Vec::new();
    for shard in ["1/3", "2/3", "3/3"] {
        let mut args = problem.to_vec();
        args.extend(["--shard", shard]);
        let part = json(&args);
        assert_eq!(part["kind"], "exact");
        let file = dir.join(format!("s{}.json", &shard[..1]));
        std::fs::write(&file, part.to_string()).unwrap();
        files.push(file.display().to_string());
    }
    let merged = json(&["privacy", "--merge", &files.join(","), "--json"]);
    assert_eq!(as_whole(merged), json(&problem));
    std::fs::remove_dir_all(&dir).unwrap();
}

// --------------------------------------------------- class 4: quiet failures

#[test]
fn a_failed_write_of_the_result_is_an_error() {
    // Guards against `--json > /dev/full` exiting 0 with nothing on stderr.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_dpdtol"))
        .args(["mechanism", "--noise", "gumbel", "--base", "1/3"])
        .args(["--losses", "0,1", "--json"])
        .stdout(std::fs::File::create("/dev/full").expect("/dev/full exists"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(stderr.contains("cannot write the result"), "{stderr}");
}

#[test]
fn pipes_and_devices_are_refused_on_every_output_path() {
    // Guards against a FIFO as an output file blocking for ever (its reader
    // never comes) and `/dev/full` losing the result after the work: every
    // path written is checked as every path read, refused in one line,
    // status 2, before the work.
    let dir = scratch("output-fifo");
    let fifo = dir.join("out.csv");
    let _ = std::fs::remove_file(&fifo);
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    let svg_fifo = dir.join("out.svg");
    let _ = std::fs::remove_file(&svg_fifo);
    let made = std::process::Command::new("mkfifo").arg(&svg_fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    let (fifo, svg_fifo) = (fifo.display().to_string(), svg_fifo.display().to_string());
    for file in [fifo.as_str(), "/dev/full"] {
        let commands = [
            format!("sample --mechanism gumbel --scale 1 --losses 0,1 --n 10 --seed 1 --out {file}"),
            format!("regret --algorithm ftl --means 0.1,0.5 --setting deterministic --horizon 8 --epsilon 1 --curve {file}"),
            format!("bandit --algorithm ucb1 --means 0.2,0.8 --horizon 16 --runs 2 --csv {file}"),
            format!("verify --claim ww-thm2-L456 --markdown {file}"),
            format!("verify --claim ww-thm2-L456 --markdown-errata {file}"),
            format!("verify --readme-table {file}"),
        ];
        for command in commands {
            let args: Vec<&str> = command.split(' ').collect();
            let run = capped(&args, 20.0);
            assert_refused(&run, &command);
            assert!(
                run.stderr.contains("not a regular file"),
                "{command}: {}",
                run.stderr
            );
        }
    }
    let command = format!("regret --algorithm ftl --means 0.1,0.5 --setting deterministic --horizon 8 --epsilon 1 --plot {svg_fifo}");
    let args: Vec<&str> = command.split(' ').collect();
    let run = capped(&args, 20.0);
    assert_refused(&run, &command);
    assert!(run.stderr.contains("not a regular file"), "{}", run.stderr);
}

#[test]
fn a_closed_stdout_is_refused_and_a_full_one_is_status_one() {
    // `>&-`: refused before the work (status 2); `> /dev/full`: the result
    // is computed and cannot be written, status 1 (the `Write` contract),
    // the reason in words, never "(os error 28)".
    let sh = |redirect: &str| {
        std::process::Command::new("sh")
            .arg("-c")
            .arg(format!(
                "exec \"$0\" mechanism --noise gumbel --scale 1 --losses 0,1 {redirect}"
            ))
            .arg(env!("CARGO_BIN_EXE_dpdtol"))
            .output()
            .unwrap()
    };
    let closed = sh(">&-");
    let stderr = String::from_utf8_lossy(&closed.stderr);
    assert_eq!(closed.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(stderr.contains("standard output is closed"), "{stderr}");
    let full = sh("> /dev/full");
    let stderr = String::from_utf8_lossy(&full.stderr);
    assert_eq!(full.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(
        stderr.to_lowercase().contains("no space left on device"),
        "{stderr}"
    );
    assert!(!stderr.contains("os error"), "{stderr}");
}

#[test]
fn output_paths_are_checked_before_the_work() {
    // Each run would take minutes (the Bernoulli ftl at T = 512, the whole
    // verify registry); a path that cannot be written is refused at once.
    let regret = |flag: &'static str, path: &'static str| {
        let mut args = regret_command("ftl", "0.1,0.5,0.7", "bernoulli", "512", "1");
        args.extend([flag, path]);
        args
    };
    for args in [
        regret("--plot", "/nonexistent/dir/regret.svg"),
        regret("--plot", "regret.pdf"),
        regret("--curve", "/nonexistent/dir/curve.csv"),
        vec!["verify", "--markdown", "/nonexistent/dir/REPORT.md"],
    ] {
        let run = capped(&args, 10.0);
        assert_refused(&run, &args.join(" "));
        assert!(run.seconds < 5.0, "{args:?}: took {:.1} s", run.seconds);
    }
}

/// `args` followed by `extra`.
fn extended<'a>(mut args: Vec<&'a str>, extra: &[&'a str]) -> Vec<&'a str> {
    args.extend(extra);
    args
}

#[test]
fn flags_that_do_not_apply_are_refused() {
    let cases: Vec<Vec<&str>> = vec![
        // Would be silently ignored with --merge.
        vec![
            "privacy",
            "--merge",
            "a.json",
            "--noise-scale",
            "-5",
            "--resample",
            "7",
        ],
        vec!["privacy", "--merge", "a.json", "--threads", "4"],
        // Would be silently ignored for ftl.
        extended(
            privacy_command("ftl", "2", "1", "0,1", "1"),
            &["--noise", "gumbel"],
        ),
        extended(
            privacy_command("hu-rnm-ftnl", "2", "1", "0,1", "1"),
            &["--resample", "1"],
        ),
        extended(
            privacy_command("ftl", "2", "1", "0,1", "1"),
            &["--resample", "0"],
        ),
        extended(
            regret_command("ftl", "0.1,0.5", "deterministic", "8", "1"),
            &["--noise", "gumbel"],
        ),
        // With several algorithms, a flag that applies to none of them.
        extended(
            regret_command("ftl,prefix-softmax", "0.1,0.5", "deterministic", "8", "1"),
            &["--noise", "gumbel"],
        ),
        extended(
            regret_command("wu-wang:gumbel,ftl", "0.1,0.5", "deterministic", "8", "1"),
            &["--noise", "laplace"],
        ),
        extended(
            regret_command("ftl,ftl", "0.1,0.5", "deterministic", "8", "1"),
            &["--noise-scale", "2"],
        ),
    ];
    for args in cases {
        assert_refused(&capped(&args, 10.0), &args.join(" "));
    }
}

#[test]
fn no_subcommand_gives_one_usage_line() {
    // Not clap's 14-line help.
    let run = capped(&[], 10.0);
    assert_refused(&run, "no subcommand");
    assert!(run.stderr.contains("privacy"), "{}", run.stderr);
}

#[test]
fn a_malformed_horizon_is_refused() {
    // Guards against reading "2^10--5" as 1029.
    for horizon in ["2^10--5", "2^10+-5", "2^10-", "2^-1", "2^1.5", "2^^3"] {
        let args = regret_command("ftl", "0.1,0.5", "deterministic", horizon, "1");
        assert_refused(&capped(&args, 10.0), horizon);
        let args = privacy_command("ftl", "2", horizon, "0,1", "1");
        assert_refused(&capped(&args, 10.0), horizon);
    }
}

#[test]
fn a_huge_loss_gap_is_refused_in_a_short_line() {
    // The refusal printed the gap's 100 001 digits in full (its one line).
    let args = [
        "mechanism",
        "--noise",
        "gumbel",
        "--scale",
        "1",
        "--losses",
        "0,1e100000",
    ];
    let run = capped(&args, 20.0);
    assert_refused(&run, "a gap of 10^100000");
    assert!(run.stderr.contains("1.00000e100000"), "{}", run.stderr);
    assert!(run.stderr.len() < 400, "{} bytes", run.stderr.len());
}

#[test]
fn certified_exp_errors_are_in_words() {
    // Guards against leaking the library's names ("too large: exp: Underflow(Positive)").
    use dpdtol::num::{Certified, Precision, Real, Q};
    let tiny = Q::from_integer(num_bigint::BigInt::from(-1) << 70);
    for x in [tiny.clone(), -tiny] {
        if let Err(e) = Certified::from_rational(&x, &Precision(64)).exp() {
            let text = e.to_string();
            assert!(
                !text.contains("Underflow") && !text.contains("Overflow("),
                "{text}"
            );
        }
    }
}

// ------------------------------------------ messages in the user's terms

/// Words of the implementation that a message must not show.
const INTERNAL: [&str; 5] = [
    "backend",
    "binary exponent",
    "precision bits",
    "(os error",
    "0-based",
];

/// `capped(args)` refused in one line that contains each of `needles` and
/// none of [`INTERNAL`].
fn refused_in_words(args: &[&str], needles: &[&str]) {
    let run = capped(args, 20.0);
    assert_refused(&run, &args.join(" "));
    for needle in needles {
        assert!(run.stderr.contains(needle), "{args:?}: {}", run.stderr);
    }
    for word in INTERNAL {
        assert!(!run.stderr.contains(word), "{args:?}: {}", run.stderr);
    }
}

#[test]
fn a_number_too_large_for_the_arithmetic_names_the_users_flag() {
    // "exp: the result is beyond the largest binary exponent of the
    // certified backend": now the flag and its value.
    let args = privacy_command("wu-wang", "2", "2", "0,1", "1e20");
    refused_in_words(&args, &["--epsilon 1.00000e20 is over the limit"]);
    let args = privacy_command("ftl", "2", "2", "0,1", "1e100");
    refused_in_words(&args, &["--epsilon 1.00000e100"]);
    // regret: ε = 5·10^18 panicked in the certified arithmetic (T = 4,
    // Bernoulli); ε = 10^100 and a noise scale of 10^-19 were refused in
    // the arithmetic's words.
    for (algorithms, epsilon, extra, needle) in [
        (
            "wu-wang,prefix-softmax",
            "5e18",
            &[][..],
            "--epsilon 5000000000000000000 is over the limit of 2^60",
        ),
        (
            "wu-wang",
            "1e100",
            &[],
            "--epsilon 1.00000e100 is over the limit of 2^60",
        ),
        (
            "wu-wang",
            "1",
            &["--noise-scale", "1e-19"],
            "--noise-scale 1.00000e-19 is under the limit of 1/2^60",
        ),
    ] {
        let args = regret_command(algorithms, "0.5,0.2", "bernoulli", "4", epsilon);
        refused_in_words(&extended(args, extra), &[needle]);
    }
}

/// A reward table of K = 2 arms and T = 3 rounds in the scratch directory
/// `dir`: its path.
fn three_rounds(dir: &str) -> String {
    common::scratch_file(dir, "rewards.csv", b"1/4,3/4\n1,0\n1/2,1/2\n")
}

/// `COMMAND --algorithm anytime-lazy-ucb --epsilon 1 --rewards-file R`
/// followed by `extra`.
fn lazy_ucb<'a>(command: &'a str, rewards: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let args = vec![
        command,
        "--algorithm",
        "anytime-lazy-ucb",
        "--epsilon",
        "1",
        "--rewards-file",
        rewards,
    ];
    extended(args, extra)
}

#[test]
fn a_long_exact_value_is_shortened_in_a_message() {
    // The noise scale's check printed 1/10^100 and its inverse in full.
    let rewards = three_rounds("hostile-short-values");
    let args = lazy_ucb("law", &rewards, &["--noise-scale", "1e-100"]);
    refused_in_words(
        &args,
        &["b = 1.00000e-100 at ε = 1 gives 1/b = 1.00000e100, above 1024"],
    );
    let run = capped(&args, 20.0);
    assert!(run.stderr.len() < 300, "{} bytes", run.stderr.len());
}

#[test]
fn bandit_support_violations_number_arms_as_the_samples_do() {
    // The reason named a 0-based arm and pull sequence whatever --base.
    let dir = "hostile-bandit-support";
    let rewards = three_rounds(dir);
    for (base, samples, reason) in [
        (
            "1",
            "1,2,1\n1,3,1\n",
            "round 2: arm 3 is not one of the K = 2 arms 1 to 2",
        ),
        (
            "0",
            "0,1,0\n0,2,0\n",
            "round 2: arm 2 is not one of the K = 2 arms 0 to 1",
        ),
        // Anytime-Lazy-UCB pulls each arm once first: arm 2 in round 1
        // has probability 0.
        (
            "1",
            "1,2,1\n2,1,1\n",
            "the pull sequence 2,1,1 (arms from 1) has probability 0",
        ),
        (
            "0",
            "0,1,0\n1,0,0\n",
            "the pull sequence 1,0,0 (arms from 0) has probability 0",
        ),
    ] {
        let name = format!("samples-{base}-{}.csv", reason.len());
        let samples = common::scratch_file(dir, &name, samples.as_bytes());
        let args = lazy_ucb("gof", &rewards, &["--samples", &samples, "--base", base]);
        let run = capped(&args, 20.0);
        assert_eq!(run.code, Some(1), "{args:?}: {}", run.stderr);
        let line = format!("support violation in sample 1 (rows from 0): {reason}");
        assert!(run.stdout.contains(&line), "{args:?}: {}", run.stdout);
    }
    // A --sequence below the first action names --base.
    let args = lazy_ucb("law", &rewards, &["--sequence", "0,1,2"]);
    refused_in_words(
        &args,
        &["--sequence: action 0 is below 1, the first action (--base 1)"],
    );
}

#[test]
fn verify_lists_its_claims_without_running_them() {
    let run = capped(&["verify", "--list"], 10.0);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.seconds < 5.0, "took {:.1} s", run.seconds);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert!(lines.len() > 10, "{}", run.stdout);
    assert!(
        lines.iter().any(|l| l.starts_with("hu-thm8 ")),
        "{}",
        run.stdout
    );
    let listed = json(&["verify", "--list", "--json"]);
    let claims = listed["claims"].as_array().unwrap();
    assert_eq!(claims.len(), lines.len());
    assert!(claims
        .iter()
        .all(|c| c["method"].is_string() && c["source"].is_string()));
}

// ------------------------------- real shards of every algorithm pass the checks

/// Every algorithm and noise variant at K = 2.
fn variants() -> Vec<dpdtol::algorithm::Config> {
    use dpdtol::algorithm::{AlgorithmId, Config};
    use dpdtol::mechanism::Noise;
    let eps = dpdtol::num::Q::new(1.into(), 2.into());
    let mut out: Vec<Config> = [
        AlgorithmId::Ftl,
        AlgorithmId::NaiveFtnl,
        AlgorithmId::HuRnmFtnl,
        AlgorithmId::PrefixSoftmax,
        AlgorithmId::Hedge,
        AlgorithmId::DecreasingHedge,
    ]
    .into_iter()
    .map(|id| Config::new(id, 2, eps.clone()))
    .collect();
    for noise in Noise::ALL {
        for resample in [false, true] {
            let mut c = Config::new(AlgorithmId::WuWang, 2, eps.clone());
            c.noise = Some(noise);
            c.resample = resample;
            out.push(c);
        }
    }
    out
}

#[test]
fn every_real_shard_passes_recheck_and_a_changed_ratio_does_not() {
    use dpdtol::num::Q;
    use dpdtol::privacy::{check, merge, recheck, Options, Problem, Ratio, Shard};
    let q = |n: i64, d: i64| Q::new(n.into(), d.into());
    for config in variants() {
        let algorithm = config.build().unwrap();
        for (horizon, alphabet) in [
            (2, vec![q(0, 1), q(1, 2), q(1, 1)]),
            (3, vec![q(0, 1), q(1, 1)]),
        ] {
            let problem = Problem::new(horizon, alphabet, config.epsilon.clone()).unwrap();
            let whole = check(&algorithm, &problem, &Options::default()).unwrap();
            let label = format!("{config:?}, t = {horizon}");
            recheck(&algorithm, &whole).unwrap_or_else(|e| panic!("{label}: {e}"));
            let shards: Vec<_> = (1..=3)
                .map(|i| {
                    let options = Options {
                        shard: Shard::new(i, 3).unwrap(),
                        ..Options::default()
                    };
                    check(&algorithm, &problem, &options).unwrap()
                })
                .collect();
            for s in &shards {
                recheck(&algorithm, s).unwrap_or_else(|e| panic!("{label}, {}: {e}", s.shard));
            }
            let merged = merge(&shards).unwrap();
            assert_eq!(merged.max_ratio, whole.max_ratio, "{label}");
            assert_eq!(merged.witness, whole.witness, "{label}");
            // The witness's ratio doubled (with the maximum, so that only the
            // re-evaluation can tell) is refused.
            let doubled = |r: &Ratio| match r {
                Ratio::Infinite => Ratio::Exact(q(3, 1)),
                Ratio::Exact(x) => Ratio::Exact(x * q(2, 1)),
                Ratio::Certified { lo, hi } => Ratio::Certified {
                    lo: lo * q(2, 1),
                    hi: hi * q(2, 1),
                },
            };
            let mut forged = whole.clone();
            forged.witness.ratio = doubled(&whole.witness.ratio);
            forged.max_ratio = doubled(&whole.max_ratio);
            assert!(
                recheck(&algorithm, &forged).is_err(),
                "{label}: forged ratio accepted"
            );
        }
    }
}

#[test]
fn shards_of_every_algorithm_merge_through_the_command_line() {
    // The merge rebuilds each algorithm from the noise and scale its report
    // names: every variant (and an overridden scale) must round-trip.
    let dir = scratch("variants");
    let variants: [(&str, &[&str]); 7] = [
        ("naive-ftnl", &[]),
        ("hu-rnm-ftnl", &[]),
        ("prefix-softmax", &[]),
        ("prefix-softmax", &["--noise-scale", "3"]),
        ("wu-wang", &["--noise", "exponential", "--resample", "1"]),
        ("wu-wang", &["--noise", "gumbel", "--noise-scale", "5/2"]),
        ("hu-rnm-ftnl", &["--noise-scale", "2"]),
    ];
    for (algorithm, extra) in variants {
        let mut problem = privacy_command(algorithm, "2", "2", "0,1", "1/2");
        problem.extend(extra);
        problem.push("--json");
        let whole = json(&problem);
        let mut files = Vec::new();
        for shard in ["1/2", "2/2"] {
            let mut args = problem.clone();
            args.extend(["--shard", shard]);
            let file = dir.join(format!("s{}.json", &shard[..1]));
            std::fs::write(&file, json(&args).to_string()).unwrap();
            files.push(file.display().to_string());
        }
        let merged = json(&["privacy", "--merge", &files.join(","), "--json"]);
        assert_eq!(as_whole(merged), whole, "{extra:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

proptest::proptest! {
    /// The horizon grammar: `2^k±c` is exactly `2^k ± c` (the value computed
    /// here by shifting, independently of the parser), and any second sign,
    /// stray character or missing operand is refused.
    #[test]
    fn the_horizon_grammar_is_strict(k in 0u32..=200, c in 0u64..1_000_000, junk in "[-+^. a-z]{1,3}") {
        use dpdtol::num::parse_power_count;
        use num_bigint::BigInt;
        let base = BigInt::from(1u8) << k;
        proptest::prop_assert_eq!(parse_power_count(&format!("2^{k}")), Some(base.clone()));
        proptest::prop_assert_eq!(parse_power_count(&format!("2^{k}+{c}")), Some(&base + c));
        proptest::prop_assert_eq!(parse_power_count(&format!("2^{k}-{c}")), Some(&base - c));
        for sign in ["+", "-"] {
            proptest::prop_assert_eq!(parse_power_count(&format!("2^{k}{sign}{junk}{c}")), None);
            proptest::prop_assert_eq!(parse_power_count(&format!("2^{k}{sign}")), None);
        }
        proptest::prop_assert_eq!(parse_power_count(&format!("2^{junk}{k}")), None);
    }
}

#[test]
fn arguments_that_are_not_utf8_are_refused_with_one_line() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let bad = OsStr::from_bytes(b"0,\xff");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_dpdtol"))
        .args(["mechanism", "--noise", "gumbel", "--scale", "1", "--losses"])
        .arg(bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
}

/// `audit` on files of millions of rows reads them under a progress bar
/// (stderr, on a terminal, after 1 s): run in a pseudo-terminal (`script`),
/// the bar is drawn and the result follows. Skipped, saying so, where
/// `script` (util-linux) is missing.
#[test]
fn audit_reads_millions_of_rows_under_a_progress_bar() {
    if std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("skipped: no `script` command to give the run a terminal");
        return;
    }
    let dir = scratch("rows");
    let rows: String = (0..3_000_000u32)
        .map(|i| format!("{},{},1\n", 1 + i % 2, 1 + i / 2 % 2))
        .collect();
    let (first, second) = (dir.join("first.csv"), dir.join("second.csv"));
    std::fs::write(&first, &rows).unwrap();
    std::fs::write(&second, &rows).unwrap();
    let command = format!(
        "{} audit --first {} --second {}",
        env!("CARGO_BIN_EXE_dpdtol"),
        first.display(),
        second.display()
    );
    let out = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .output()
        .unwrap();
    let terminal = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{terminal}");
    assert!(terminal.contains("reading samples"), "{terminal}");
    assert!(terminal.contains("rows"), "{terminal}");
    assert!(terminal.contains("with confidence 0.95"), "{terminal}");
    let _ = std::fs::remove_dir_all(&dir);
}

// ------------------------------------------ the check reads every override

/// `privacy` of `algorithm` on {0, 1}, K = 2, T = 5, ε = 1, then the words
/// of `extra`, as JSON.
fn bandit_privacy(algorithm: &str, extra: &str) -> Value {
    let mut args = privacy_command(algorithm, "2", "5", "0,1", "1");
    args.extend(extra.split_whitespace());
    args.push("--json");
    json(&args)
}

#[test]
fn dp_ucb_int_privacy_checks_the_bonus_given() {
    // The law reads --bonus (the 2 of √(2 ln t/n)): at 1/1000 the
    // exploration is all but gone, and the privacy loss changes with it.
    let printed = bandit_privacy("dp-ucb-int", "");
    let given = bandit_privacy("dp-ucb-int", "--bonus 2");
    let small = bandit_privacy("dp-ucb-int", "--bonus 1/1000");
    assert_eq!(printed["bonus"], "2");
    assert_eq!(given["max_ratio_interval"], printed["max_ratio_interval"]);
    assert_eq!(small["bonus"], "1/1000");
    assert_ne!(small["max_ratio_interval"], printed["max_ratio_interval"]);
    // So does the (ε, δ) check, and the shards' merge reads it back.
    let delta = |extra: &str| bandit_privacy("dp-ucb-int", &format!("{extra} --delta 1/10"));
    assert_ne!(delta("--bonus 1/1000")["delta"], delta("")["delta"]);
    let parts: Vec<Value> = ["1/2", "2/2"]
        .iter()
        .map(|s| bandit_privacy("dp-ucb-int", &format!("--bonus 1/1000 --shard {s}")))
        .collect();
    let dir = scratch("dp-ucb-int-bonus");
    let list = merge_list(&dir, "parts", &parts[0], &parts[1]);
    let merged = json(&["privacy", "--merge", &list, "--spot-check", "all", "--json"]);
    assert_eq!(merged["bonus"], "1/1000");
    assert_eq!(merged["max_ratio_interval"], small["max_ratio_interval"]);
}

#[test]
fn dp_ucb_bound_shards_merge_with_their_overrides_and_not_across_them() {
    let flags = "--bonus 1/100 --tree-scale 1/10";
    let whole = bandit_privacy("dp-ucb-bound", flags);
    let shard =
        |extra: &str, s: &str| bandit_privacy("dp-ucb-bound", &format!("{extra} --shard {s}"));
    let dir = scratch("dp-ucb-bound-overrides");
    let list = merge_list(&dir, "same", &shard(flags, "1/2"), &shard(flags, "2/2"));
    let merged = json(&["privacy", "--merge", &list, "--spot-check", "all", "--json"]);
    assert_eq!(merged["max_ratio_interval"], whole["max_ratio_interval"]);
    assert_eq!(merged["tree_scale"], "1/10");
    assert_eq!(merged["bonus"], "1/100");
    // Shards of the printed parameters and of the overrides are two checks.
    let list = merge_list(&dir, "mixed", &shard(flags, "1/2"), &shard("", "2/2"));
    let run = capped(&["privacy", "--merge", &list], 20.0);
    assert_refused(&run, "dp-ucb-bound shards of other parameters");
    assert!(run.stderr.contains("other parameters"), "{}", run.stderr);
}
