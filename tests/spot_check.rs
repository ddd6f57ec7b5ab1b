//! A merge cannot be flipped by editing a shard (`dpdtol::report::merge`,
//! its threat model): a shard relabelled as another, or with counts moved
//! between the cells of a table, or with one unit's maximum altered, is
//! refused with one line naming the file, the unit and the field once the
//! unit is among those recomputed (`--spot-check N`, `--spot-check-seed S`);
//! an honest merge passes with any seed and is the whole run's report; the
//! merged report says what it re-verified and with what probability a
//! single altered unit is caught.

mod common;

use common::{dpdtol, json};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Anytime-Lazy-UCB at T = 5 with a scale below the printed one: violated,
/// the violation in shards 1 and 8 of 8; shards 3..6 have no pull sequence
/// of positive probability (ratio 0), shards 2 and 7 are private.
const BANDIT: &str = "privacy --algorithm anytime-lazy-ucb --actions 2 --horizon 5 --alphabet 0,1 --epsilon 1 --noise-scale 3/4";

/// Lazy-DP-TS at T = 4 on {0, 1}: 64 tables, no violation detected; two
/// shards of 32 tables.
const AUDIT: &str = "privacy --algorithm lazy-dp-ts --actions 2 --horizon 4 --alphabet 0,1 --epsilon 1 --runs 2000 --seed 3";

/// Wu-Wang with exponential noise of scale 3 at t = 3 on {0, 1}, ε = 1/2:
/// violated; the structural method's 14 candidates violate at 4 and 7 only,
/// the enumeration's 64 loss sequences at 16..48 only, so each half of
/// either holds private items beside its violating ones.
const FULL: &str = "privacy --algorithm wu-wang --noise exponential --noise-scale 3 --actions 2 --horizon 3 --alphabet 0,1 --epsilon 1/2";

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dpdtol-spot-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The `--json` reports of the `n` shards of `line`.
fn shards(line: &str, n: u64) -> Vec<Value> {
    (1..=n)
        .map(|i| {
            let shard = format!("{i}/{n}");
            let mut args: Vec<&str> = line.split(' ').collect();
            args.extend(["--shard", &shard, "--json"]);
            json(&args)
        })
        .collect()
}

/// `reports` written to `dir` as `name-I.json`; the comma-separated list.
fn write(dir: &Path, name: &str, reports: &[Value]) -> String {
    reports
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let path = dir.join(format!("{name}-{}.json", i + 1));
            std::fs::write(&path, r.to_string()).unwrap();
            path.display().to_string()
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// `privacy --merge list` with `extra` flags: status, stdout, stderr.
fn merge(list: &str, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec!["privacy", "--merge", list];
    args.extend(extra);
    let out = dpdtol(&args);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// `shard` relabelled as `like`: its index and the counter naming its
/// first position (the witness's law of an empty shard) made to fit.
fn relabelled(shard: &Value, like: &Value) -> Value {
    let mut forged = shard.clone();
    forged["shard"] = like["shard"].clone();
    forged["merge"]["law"] = like["merge"]["law"].clone();
    forged
}

/// The attack on the exact bandit check: the two violated shards replaced
/// by empty shards relabelled as them. With nothing recomputed the forgery
/// merges PRIVATE (the threat the spot check answers, and the report says
/// nothing was re-verified); with every unit recomputed it is refused at
/// the first shard's first unit, whose law has positive probability.
#[test]
fn a_relabelled_bandit_shard_is_refused() {
    let dir = scratch("relabel");
    let honest = shards(BANDIT, 8);
    assert_eq!(honest[0]["verdict"], "violated");
    assert_eq!(honest[2]["max_ratio"], "0");
    assert_eq!(honest[3]["max_ratio"], "0");
    let mut forged = honest.clone();
    forged[0] = relabelled(&honest[2], &honest[0]);
    forged[7] = relabelled(&honest[3], &honest[7]);
    let list = write(&dir, "forged", &forged);

    let (code, stdout, _) = merge(&list, &["--spot-check", "0"]);
    assert_eq!(code, 0, "with nothing recomputed the forgery passes");
    assert!(stdout.contains("PRIVATE"), "{stdout}");
    assert!(
        stdout.ends_with("  re-verified: no unit of the 256 units in 8 shards (--spot-check 0): what the shards say of their units is taken on trust\n"),
        "{stdout}"
    );

    for seed in ["0", "1", "9007199254740991"] {
        let (code, _, stderr) = merge(&list, &["--spot-check", "32", "--spot-check-seed", seed]);
        assert_eq!(code, 2, "{stderr}");
        assert_eq!(
            stderr,
            format!(
                "dpdtol: invalid input: {}: unit 0 (laws 0..1): field 'merge.units[0]' is not what checking the unit's laws again gives (altered, or not this shard's)\n",
                dir.join("forged-1.json").display()
            )
        );
    }
    // The default sample (4 units, seed from the operating system) catches
    // it too: most of the violated shards' units have a positive law.
    let (code, _, stderr) = merge(&list, &[]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("forged-1.json: unit "), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every run of table `index` of a statistical shard moved into its first
/// pull code, in both halves (the sums kept).
fn move_runs_to_one_code(shard: &mut Value, index: usize) {
    for half in shard["merge"]["counts"][index].as_array_mut().unwrap() {
        let cells = half.as_array_mut().unwrap();
        let total: u64 = cells.iter().map(|c| c.as_u64().unwrap()).sum();
        for (i, c) in cells.iter_mut().enumerate() {
            *c = Value::from(if i == 0 { total } else { 0 });
        }
    }
}

/// `line` by `method` (structural or enumeration).
fn with_method(line: &str, method: &str) -> String {
    format!("{line} --method {method}")
}

/// The lower and upper ends of a ratio with exact bounds (`None`: infinite).
fn ends(ratio: &Value) -> Option<(num_rational::BigRational, num_rational::BigRational)> {
    let q = |v: &Value| {
        v.as_str()
            .unwrap()
            .parse::<num_rational::BigRational>()
            .unwrap()
    };
    match ratio {
        Value::String(_) => None,
        _ if ratio.get("exact").is_some() => Some((q(&ratio["exact"]), q(&ratio["exact"]))),
        _ => Some((q(&ratio["lo"]), q(&ratio["hi"]))),
    }
}

/// A violated full-information shard forged as private: the report of its
/// first private item `j` (a shard of one item, whose maximum `M` is that
/// item's) renamed as the shard, with the shard's pair count and units,
/// every unit above `M` (at either end) lowered to `M`: the fold is `M`,
/// the witness lies in unit `j`, which attains it, and every claim but the
/// lowered units is true. The forged shard and the units lowered.
fn forged_private(line: &str, shard: &Value, start: u64, items: u64) -> (Value, Vec<usize>) {
    let units = shard["merge"]["units"].as_array().unwrap();
    let one = (0..units.len() as u64)
        .map(|j| {
            let mut args: Vec<&str> = line.split(' ').collect();
            let single = format!("{}/{items}", start + j + 1);
            args.extend(["--shard", &single, "--json"]);
            json(&args)
        })
        .find(|r| r["verdict"] == "private")
        .expect("a private item in the shard");
    let max = &one["merge"]["max_ratio"];
    let (lo, hi) = ends(max).unwrap();
    let mut lowered = Vec::new();
    let mut forged = one.clone();
    forged["shard"] = shard["shard"].clone();
    forged["pairs"] = shard["pairs"].clone();
    forged["merge"]["units"] = units
        .iter()
        .enumerate()
        .map(|(j, u)| match ends(u) {
            Some((l, h)) if l <= lo && h <= hi => u.clone(),
            _ => {
                lowered.push(j);
                max.clone()
            }
        })
        .collect();
    (forged, lowered)
}

/// The attack on a full-information check, by either method: every
/// violated shard of two forged as private ([`forged_private`]). With
/// nothing recomputed the forgery merges PRIVATE; with every unit
/// recomputed it is refused at the first lowered unit, whatever the seed;
/// a shard relabelled as the other (its index changed) is refused.
#[test]
fn a_full_information_shard_with_lowered_units_is_refused() {
    let dir = scratch("full");
    for (method, items, what) in [
        ("structural", 14u64, "candidates"),
        ("enumeration", 64, "loss sequences"),
    ] {
        let line = with_method(FULL, method);
        let honest = shards(&line, 2);
        let mut forged = honest.clone();
        let mut first = None;
        for k in 0..2 {
            assert_eq!(honest[k]["verdict"], "violated", "{method}");
            let start = k as u64 * items / 2;
            let (shard, lowered) = forged_private(&line, &honest[k], start, items);
            assert!(!lowered.is_empty(), "{method}");
            first.get_or_insert((k, lowered[0], start + lowered[0] as u64));
            forged[k] = shard;
        }
        let list = write(&dir, method, &forged);
        let (code, stdout, stderr) = merge(&list, &["--spot-check", "0"]);
        assert_eq!(code, 0, "{method}: the forgery passes unchecked: {stderr}");
        assert!(
            stdout.starts_with("wu-wang") && stdout.contains("\nPRIVATE"),
            "{stdout}"
        );

        let (k, j, at) = first.unwrap();
        let m = (items / 2).to_string();
        for seed in ["0", "1", "9007199254740991"] {
            let (code, _, stderr) = merge(&list, &["--spot-check", &m, "--spot-check-seed", seed]);
            assert_eq!(code, 2, "{stderr}");
            assert_eq!(
                stderr,
                format!(
                    "dpdtol: invalid input: {}: unit {j} ({what} {at}..{}): field 'merge.units[{j}]' is not what searching the unit again gives (altered, or not this shard's)\n",
                    dir.join(format!("{method}-{}.json", k + 1)).display(),
                    at + 1
                ),
                "{method}"
            );
        }

        let mut relabelled = honest.clone();
        relabelled[0]["shard"] = honest[1]["shard"].clone();
        relabelled[1]["shard"] = honest[0]["shard"].clone();
        let list = write(&dir, &format!("{method}-relabelled"), &relabelled);
        let (code, _, stderr) = merge(&list, &["--spot-check", "0"]);
        assert_eq!(code, 2, "{method}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains("relabelled-1.json: "), "{stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The attack on the statistical audit: every run of one table of shard 2
/// moved into one pull code, the sums kept. With nothing recomputed the
/// merge shows a violation the run does not have; with the shard's 32
/// tables recomputed it is refused at that table.
#[test]
fn counts_moved_between_cells_of_a_statistical_shard_are_refused() {
    let dir = scratch("recount");
    let honest = shards(AUDIT, 2);
    let mut forged = honest.clone();
    move_runs_to_one_code(&mut forged[1], 5);
    let list = write(&dir, "moved", &forged);

    let (code, stdout, _) = merge(&list, &["--spot-check", "0"]);
    assert_eq!(
        code, 1,
        "with nothing recomputed the forgery shows a violation"
    );
    assert!(stdout.contains("VIOLATED"), "{stdout}");

    for seed in ["0", "7", "99"] {
        let (code, _, stderr) = merge(&list, &["--spot-check", "32", "--spot-check-seed", seed]);
        assert_eq!(code, 2, "{stderr}");
        assert_eq!(
            stderr,
            format!(
                "dpdtol: invalid input: {}: unit 5 (table 37): field 'merge.counts[5]' is not what simulating the table's runs again gives (altered, or not this shard's)\n",
                dir.join("moved-2.json").display()
            )
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// One unit of a private bandit shard given a smaller maximum (0, below
/// the shard's, so the fold still holds): with `--spot-check N` for a shard
/// of N units it is always caught, whatever the seed.
#[test]
fn one_altered_unit_is_always_caught_when_every_unit_is_recomputed() {
    let dir = scratch("unit");
    let honest = shards(BANDIT, 8);
    let units = honest[1]["merge"]["units"].as_array().unwrap();
    assert_eq!(units.len(), 32);
    // A unit with a positive maximum that is not the shard's.
    let zero = serde_json::json!({"exact": "0"});
    let j = units
        .iter()
        .position(|u| *u != zero && *u != honest[1]["merge"]["max_ratio"])
        .expect("a unit below the maximum");
    let mut forged = honest.clone();
    forged[1]["merge"]["units"][j] = zero;
    let list = write(&dir, "unit", &forged);
    for seed in 0..5 {
        let seed = seed.to_string();
        let (code, _, stderr) = merge(&list, &["--spot-check", "32", "--spot-check-seed", &seed]);
        assert_eq!(code, 2, "{stderr}");
        assert!(
            stderr.ends_with(&format!(
                "unit-2.json: unit {j} (laws {}..{}): field 'merge.units[{j}]' is not what checking the unit's laws again gives (altered, or not this shard's)\n",
                32 + j,
                33 + j
            )),
            "{stderr}"
        );
    }
    // The fold is checked without recomputing: a unit above the maximum.
    forged[1]["merge"]["units"][j] = honest[0]["merge"]["max_ratio"].clone();
    let list = write(&dir, "fold", &forged);
    let (code, _, stderr) = merge(&list, &["--spot-check", "0"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.ends_with("fold-2.json: field 'merge.max_ratio' is not the fold of 'merge.units' (the largest lower and upper ends)\n"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Honest shards merge, with any seed (and the default one, drawn from the
/// operating system), into the whole run's report (JSON and paragraph)
/// once what the merge re-verified is set aside; the report counts the
/// units: 8 shards of 32 laws, one unit a law; 2 shards of 32 tables; a
/// full-information check's shards of at most 64 items, one unit an item.
#[test]
fn honest_merges_pass_with_any_seed_and_are_the_whole_run() {
    let dir = scratch("honest");
    let structural = with_method(FULL, "structural");
    let enumeration = with_method(FULL, "enumeration");
    for (line, n, units) in [
        (BANDIT, 8, 256u64),
        (AUDIT, 2, 64),
        (structural.as_str(), 2, 14),
        (enumeration.as_str(), 2, 64),
        (enumeration.as_str(), 3, 64),
    ] {
        let list = write(&dir, &format!("honest-{n}"), &shards(line, n));
        let whole: Vec<&str> = line.split(' ').collect();
        let mut whole_json = whole.clone();
        whole_json.push("--json");
        let whole_json = String::from_utf8(dpdtol(&whole_json).stdout).unwrap();
        let whole_text = String::from_utf8(dpdtol(&whole).stdout).unwrap();
        for seed in [None, Some("0"), Some("12345"), Some("9007199254740991")] {
            let mut extra = vec!["--json"];
            if let Some(s) = seed {
                extra.extend(["--spot-check-seed", s]);
            }
            let (code, stdout, stderr) = merge(&list, &extra);
            assert!(code == 0 || code == 1, "{line} {seed:?}: {stderr}");
            assert_eq!(common::without_spot_check(&stdout), whole_json, "{line}");
            let report: Value = serde_json::from_str(&stdout).unwrap();
            let spot = &report["spot_check"];
            assert_eq!(spot["units"], units, "{line}");
            assert_eq!(spot["shards"], n, "{line}");
            assert_eq!(spot["units_recomputed"], 4 * n, "{line}");
            assert_eq!(spot["per_shard"], 4, "{line}");
            if let Some(s) = seed {
                assert_eq!(spot["seed"].to_string(), s, "{line}");
            }
            assert!(spot["seed"].as_u64().unwrap() < 1 << 53, "{line}: {spot}");
            let (_, text, _) = merge(&list, &extra[1..]);
            assert_eq!(common::without_spot_check(&text), whole_text, "{line}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Wu-Wang with exponential noise of scale 4 at t = 7 on {0, 1}, ε = 1/2:
/// private, its maximum e^ε attained, which shards 2 and 3 of 3 decide in
/// the exact field after the certified passes leave it open.
const ATTAINED: &str = "privacy --algorithm wu-wang --noise exponential --resample 0 --noise-scale 4 --actions 2 --horizon 7 --alphabet 0,1 --epsilon 1/2";

/// A shard whose maximum is attained keeps the units of its last certified
/// pass (`merge.units_precision_bits`): every unit recomputed, the honest
/// merge is the whole run's; a lowered unit is caught by recomputation,
/// and the precision key removed, or given to a shard that was not decided
/// on its witness, is refused at once.
#[test]
fn an_attained_shard_is_bound_by_its_certified_units() {
    let dir = scratch("attained");
    let honest = shards(ATTAINED, 3);
    assert_eq!(honest[0]["attained"], false);
    assert!(honest[0]["merge"].get("units_precision_bits").is_none());
    for shard in &honest[1..] {
        assert_eq!(shard["attained"], true);
        assert_eq!(shard["merge"]["units_precision_bits"], 512);
    }
    let mut whole: Vec<&str> = ATTAINED.split(' ').collect();
    whole.push("--json");
    let whole = String::from_utf8(dpdtol(&whole).stdout).unwrap();
    let list = write(&dir, "honest", &honest);
    let (code, stdout, stderr) = merge(&list, &["--spot-check", "64", "--json"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(common::without_spot_check(&stdout), whole);

    // A unit of shard 2 given the enclosure with the largest upper end: every
    // lower end is at most the true maximum r and that upper end at least r,
    // so the fold and the witness's unit still meet the maximum, and only
    // recomputing the unit sees it.
    let units = honest[1]["merge"]["units"].as_array().unwrap();
    let largest = units
        .iter()
        .max_by(|a, b| ends(a).unwrap().1.cmp(&ends(b).unwrap().1))
        .unwrap()
        .clone();
    let (j, _) = units
        .iter()
        .enumerate()
        .find(|(_, u)| **u != largest)
        .expect("two different units");
    let mut raised = honest.clone();
    raised[1]["merge"]["units"][j] = largest;
    let list = write(&dir, "raised", &raised);
    let (code, _, stderr) = merge(&list, &["--spot-check", "64"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains(&format!(
            "field 'merge.units[{j}]' is not what searching the unit again gives"
        )) && stderr.lines().count() == 1,
        "{stderr}"
    );

    let mut stripped = honest.clone();
    stripped[1]["merge"]
        .as_object_mut()
        .unwrap()
        .remove("units_precision_bits");
    let mut misplaced = honest.clone();
    misplaced[0]["merge"]["units_precision_bits"] = Value::from(512);
    let mut coarse = honest.clone();
    coarse[2]["merge"]["units_precision_bits"] = Value::from(0);
    for (name, forged, says) in [
        (
            "stripped",
            stripped,
            "field 'merge.max_ratio' is not what the units of 'merge.units' fold to",
        ),
        (
            "misplaced",
            misplaced,
            "field 'merge.units_precision_bits' is given, but not with the units of a shard decided exactly on its witness",
        ),
        (
            "coarse",
            coarse,
            "merge.units_precision_bits is 0, not a precision of the checker",
        ),
    ] {
        let list = write(&dir, name, &forged);
        let (code, _, stderr) = merge(&list, &["--spot-check", "0"]);
        assert_eq!(code, 2, "{name}: {stderr}");
        assert!(
            stderr.contains(says) && stderr.lines().count() == 1,
            "{name}: {stderr}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The probability stated, by hand: a statistical shard of m = 32 tables
/// with n = 4 recomputed catches one altered table with probability n/m =
/// 1/8; n ≥ m recomputes every unit (probability 1), and so does `all`;
/// n = 0 nothing (probability 0). The
/// line of the paragraph says the same, and the same seed draws the same
/// units (one merge reproduces another).
#[test]
fn the_probability_stated_is_n_over_m() {
    let dir = scratch("probability");
    let list = write(&dir, "audit", &shards(AUDIT, 2));
    for (n, caught, recomputed) in [
        ("4", "1/8", 8),
        ("31", "31/32", 62),
        ("40", "1", 64),
        ("0", "0", 0),
    ] {
        let (_, stdout, stderr) = merge(
            &list,
            &["--spot-check", n, "--spot-check-seed", "3", "--json"],
        );
        let report: Value = serde_json::from_str(&stdout).unwrap_or_else(|_| panic!("{stderr}"));
        assert_eq!(report["spot_check"]["caught"], caught, "--spot-check {n}");
        assert_eq!(
            report["spot_check"]["units_recomputed"], recomputed,
            "--spot-check {n}"
        );
    }
    let (_, stdout, _) = merge(&list, &["--spot-check", "all", "--json"]);
    let report: Value = serde_json::from_str(&stdout).unwrap();
    let spot = &report["spot_check"];
    assert_eq!(
        (&spot["all"], &spot["caught"], &spot["per_shard"]),
        (&Value::from(true), &Value::from("1"), &Value::from(32))
    );
    assert_eq!(spot["units_recomputed"], 64);
    let (_, text, _) = merge(&list, &["--spot-check", "all"]);
    assert!(
        text.ends_with("\n  re-verified: all 64 units in 2 shards by recomputation (--spot-check all): nothing the shards say is taken on trust\n"),
        "{text}"
    );
    let (_, text, _) = merge(&list, &["--spot-check", "4", "--spot-check-seed", "3"]);
    assert!(
        text.ends_with("\n  re-verified: 8 of 64 units in 2 shards by recomputation (--spot-check 4 --spot-check-seed 3); a single altered unit is caught with probability ≥ 1/8\n"),
        "{text}"
    );
    let again = merge(&list, &["--spot-check", "4", "--spot-check-seed", "3"]);
    assert_eq!(again.1, text);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Lazy-DP-TS at T = 5 on {0, 1}: 160 tables, two shards of 80.
const WIDE_AUDIT: &str = "privacy --algorithm lazy-dp-ts --actions 2 --horizon 5 --alphabet 0,1 --epsilon 1 --runs 200 --seed 3";

/// A statistical shard of m = 80 tables has 64 units (the cap), unit `j`
/// the tables `⌊80j/64⌋..⌊80(j+1)/64⌋`: the last unit holds tables 78 and
/// 79 of the shard. The honest merge is the whole run; the probability
/// stated is 4/64; one altered table (the shard's last) is refused naming
/// its unit and table when all 64 units are recomputed, and over 320
/// fixed seeds `--spot-check 4` catches it about 320/16 = 20 times (±4
/// standard deviations, √(320·15/256) ≈ 4.3).
#[test]
fn a_statistical_shard_has_at_most_64_units() {
    let dir = scratch("cap");
    let honest = shards(WIDE_AUDIT, 2);
    assert_eq!(honest[1]["merge"]["counts"].as_array().unwrap().len(), 80);
    let list = write(&dir, "wide", &honest);
    let (code, stdout, stderr) = merge(&list, &["--spot-check-seed", "5", "--json"]);
    assert!(code == 0 || code == 1, "{stderr}");
    let whole: Vec<&str> = WIDE_AUDIT.split(' ').chain(["--json"]).collect();
    let whole = String::from_utf8(dpdtol(&whole).stdout).unwrap();
    assert_eq!(common::without_spot_check(&stdout), whole);
    let report: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["spot_check"]["units"], 128);
    assert_eq!(report["spot_check"]["caught"], "1/16");

    let mut forged = honest.clone();
    move_runs_to_one_code(&mut forged[1], 79);
    assert_ne!(forged, honest);
    let list = write(&dir, "altered", &forged);
    let (code, _, stderr) = merge(&list, &["--spot-check", "64", "--spot-check-seed", "1"]);
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(
        stderr,
        format!(
            "dpdtol: invalid input: {}: unit 63 (table 159): field 'merge.counts[79]' is not what simulating the table's runs again gives (altered, or not this shard's)\n",
            dir.join("altered-2.json").display()
        )
    );
    let caught = (0..320)
        .filter(|seed| {
            let seed = seed.to_string();
            merge(&list, &["--spot-check-seed", &seed]).0 == 2
        })
        .count();
    assert!((caught as i64 - 20).abs() < 18, "{caught}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The seed is a JSON number every reader reads exactly: `2^53 − 1` is
/// accepted and written as given (and read back as the same `f64`), `2^53`
/// and more are refused in one line, status 2, by `privacy --merge` and
/// `verify --merge` (before any file is read); twenty default seeds, drawn
/// from the operating system, are all below `2^53`.
#[test]
fn the_seed_is_below_2_to_the_53() {
    let dir = scratch("seed");
    let list = write(&dir, "audit", &shards(AUDIT, 2));
    let (code, stdout, stderr) = merge(&list, &["--spot-check-seed", "9007199254740991", "--json"]);
    assert!(code == 0 || code == 1, "{stderr}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    let seed = &report["spot_check"]["seed"];
    assert_eq!(seed.as_u64(), Some((1 << 53) - 1));
    assert_eq!(seed.as_f64().map(|x| x as u64), Some((1 << 53) - 1));
    for big in ["9007199254740992", "18446744073709551615"] {
        for command in ["privacy", "verify"] {
            let files = if command == "privacy" {
                list.as_str()
            } else {
                "missing.json"
            };
            let out = dpdtol(&[command, "--merge", files, "--spot-check-seed", big]);
            assert_eq!(out.status.code(), Some(2), "{command} {big}");
            assert_eq!(
                String::from_utf8(out.stderr).unwrap(),
                format!("dpdtol: invalid input: --spot-check-seed must be below 2^53 = 9007199254740992 (a JSON number every reader reads back exactly), got {big}\n"),
                "{command} {big}"
            );
        }
    }
    for _ in 0..20 {
        let (_, stdout, _) = merge(&list, &["--json"]);
        let report: Value = serde_json::from_str(&stdout).unwrap();
        assert!(report["spot_check"]["seed"].as_u64().unwrap() < 1 << 53);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The flags act on a merge of shards that have units, and are refused
/// elsewhere: one line, status 2.
#[test]
fn the_flags_are_refused_where_they_do_not_act() {
    let dir = scratch("flags");
    let bandit = write(&dir, "bandit", &shards(BANDIT, 8));
    let wrong: [(Vec<&str>, &str); 3] = [
        (
            vec!["privacy", "--merge", &bandit, "--spot-check", "-1"],
            "--spot-check expects a non-negative integer or 'all', got '-1'",
        ),
        (
            vec!["privacy", "--merge", &bandit, "--spot-check-seed", "x"],
            "--spot-check-seed expects a non-negative integer, got 'x'",
        ),
        (
            "privacy --algorithm ftl --actions 2 --horizon 2 --alphabet 0,1 --epsilon 1 --spot-check 2"
                .split(' ')
                .collect(),
            "--spot-check",
        ),
    ];
    for (args, message) in wrong {
        let out = dpdtol(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A one-shot selection's report (`privacy --mechanism --json`) is never a
/// shard: a merge of it is refused by name, in one line.
#[test]
fn a_one_shot_report_is_not_merged() {
    let dir = scratch("one-shot");
    let report = json(&[
        "privacy",
        "--mechanism",
        "exponential",
        "--actions",
        "3",
        "--alphabet",
        "0,1",
        "--epsilon",
        "1",
        "--json",
    ]);
    let list = write(&dir, "one-shot", &[report.clone(), report]);
    let (code, _, stderr) = merge(&list, &[]);
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(
        stderr,
        format!(
            "dpdtol: invalid input: {} is the report of a one-shot selection (--mechanism), which is not split into shards: there is nothing to merge\n",
            dir.join("one-shot-1.json").display()
        )
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Wu-Wang with exponential noise of scale 4 at t = 5 on {0, 1}, ε = 1/4:
/// violated. Its 50 structural candidates violate at 4, 7, 16, 19, 28, 31,
/// 40 and 43 (from 0), so both halves of two shards are violated; candidate
/// 0 attains e^ε exactly (decided in the exact field), candidate 2 is
/// private, its ratio below e^ε.
const FORGED: &str = "privacy --algorithm wu-wang --noise exponential --resample 0 --noise-scale 4 --actions 2 --horizon 5 --alphabet 0,1 --epsilon 1/4";

/// The report of candidate `index` (from 0) of the 50 of [`FORGED`] alone:
/// an honest shard of one item.
fn candidate(index: u64) -> Value {
    let single = format!("{}/50", index + 1);
    let mut args: Vec<&str> = FORGED.split(' ').collect();
    args.extend(["--shard", &single, "--json"]);
    json(&args)
}

/// `report` relabelled as shard `shard` of `pairs` candidates, its units
/// (and their precision) stripped.
fn relabelled_without_units(report: &Value, shard: &str, pairs: u64) -> Value {
    let mut forged = report.clone();
    forged["shard"] = Value::from(shard);
    forged["pairs"] = Value::from(pairs);
    let merge = forged["merge"].as_object_mut().unwrap();
    merge.remove("units");
    merge.remove("units_precision_bits");
    forged
}

/// A whole run is not a part: the honest report of a private candidate
/// relabelled as the whole run (`1/1`, the 50 candidates, no units) merged
/// alone is refused in one line, whatever is recomputed; so is the honest
/// whole run itself.
#[test]
fn a_whole_run_is_not_a_part() {
    let dir = scratch("whole");
    let harmless = candidate(2);
    assert_eq!(harmless["verdict"], "private");
    let forged = relabelled_without_units(&harmless, "1/1", 50);
    let mut whole: Vec<&str> = FORGED.split(' ').collect();
    whole.push("--json");
    let honest = json(&whole);
    assert_eq!(honest["verdict"], "violated");
    for (name, part) in [("forged", forged), ("honest", honest)] {
        let list = write(&dir, name, &[part]);
        for extra in [&["--spot-check", "0"][..], &["--spot-check", "all"], &[]] {
            let (code, stdout, stderr) = merge(&list, extra);
            assert_eq!(code, 2, "{name} {extra:?}: {stdout}");
            assert_eq!(
                stderr,
                format!(
                    "dpdtol: invalid input: {}: shard 1/1 is a whole run, not a part of a split run: merge the --json outputs of --shard I/N, N ≥ 2\n",
                    dir.join(format!("{name}-1.json")).display()
                ),
                "{name} {extra:?}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every violated shard of [`FORGED`] replaced by the honest report of a
/// candidate of its range that attains e^ε, relabelled as the shard and
/// stripped of units: refused in one line, whatever the seed, telling the
/// user to re-run the shard. With units forged in (the honest shard's,
/// each violating one lowered to the attained maximum, at the attained
/// report's precision), every unit recomputed (`--spot-check all`)
/// refuses it.
#[test]
fn attained_shards_without_units_are_refused() {
    let dir = scratch("attained-forged");
    let honest = shards(FORGED, 2);
    let attaining = [candidate(0), candidate(25)];
    for (shard, attained) in honest.iter().zip(&attaining) {
        assert_eq!(shard["verdict"], "violated");
        assert_eq!(attained["attained"], true, "{attained}");
    }
    let stripped: Vec<Value> = (0..2)
        .map(|k| relabelled_without_units(&attaining[k], &format!("{}/2", k + 1), 25))
        .collect();
    let list = write(&dir, "stripped", &stripped);
    for seed in ["0", "1", "2", "3"] {
        for n in ["0", "64", "all"] {
            let (code, stdout, stderr) =
                merge(&list, &["--spot-check", n, "--spot-check-seed", seed]);
            assert_eq!(code, 2, "{seed} {n}: {stdout}");
            assert_eq!(
                stderr,
                format!(
                    "dpdtol: invalid input: {}: field 'merge.units' is missing: shard 1/2 carries no units to recompute (re-run it with this version of dpdtol, whose shards carry them)\n",
                    dir.join("stripped-1.json").display()
                )
            );
        }
    }

    let forged: Vec<Value> = (0..2)
        .map(|k| {
            let mut f = stripped[k].clone();
            let max = attaining[k]["merge"]["max_ratio"].clone();
            let bound = ends(&max).unwrap().1;
            f["merge"]["units"] = honest[k]["merge"]["units"]
                .as_array()
                .unwrap()
                .iter()
                .map(|u| match ends(u) {
                    Some((lo, _)) if lo <= bound => u.clone(),
                    _ => max.clone(),
                })
                .collect();
            f["merge"]["units_precision_bits"] =
                attaining[k]["merge"]["units_precision_bits"].clone();
            f
        })
        .collect();
    let list = write(&dir, "units", &forged);
    for seed in ["0", "1", "2"] {
        let (code, stdout, stderr) =
            merge(&list, &["--spot-check", "all", "--spot-check-seed", seed]);
        assert_eq!(code, 2, "{seed}: {stdout}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains("units-1.json: unit "), "{stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every unit's enclosure is checked for shape on read, recomputed or not:
/// an unordered interval, a negative end, an exact value in a certified
/// report (a full-information shard), an unordered interval (an exact
/// bandit shard) are refused in one line naming the unit, with nothing
/// recomputed.
#[test]
fn malformed_unit_enclosures_are_refused_unsampled() {
    let dir = scratch("shape");
    let full = shards(&with_method(FULL, "structural"), 2);
    assert_eq!(full[1]["kind"], "certified");
    let wide = |units: &Value| {
        units
            .as_array()
            .unwrap()
            .iter()
            .position(|u| u.get("lo").is_some_and(|l| *l != u["hi"]))
            .expect("an enclosure of positive width")
    };
    let at = wide(&full[1]["merge"]["units"]);
    let unit = full[1]["merge"]["units"][at].clone();
    let (lo, hi) = (unit["lo"].clone(), unit["hi"].clone());
    let bandit = shards(BANDIT, 8);
    let positive = wide(&bandit[1]["merge"]["units"]);
    let b = bandit[1]["merge"]["units"][positive].clone();
    let cases: Vec<(&str, &[Value], usize, Value, String)> = vec![
        (
            "unordered",
            &full,
            at,
            serde_json::json!({"lo": hi, "hi": lo}),
            format!("field 'merge.units[{at}]' ["),
        ),
        (
            "negative",
            &full,
            at,
            serde_json::json!({"lo": "-1", "hi": hi}),
            format!("field 'merge.units[{at}]' [-1, "),
        ),
        (
            "exact",
            &full,
            at,
            serde_json::json!({"exact": hi}),
            format!("field 'merge.units[{at}]' is not a ratio of the report's kind (certified: an enclosure or inf)"),
        ),
        (
            "bandit",
            &bandit,
            positive,
            serde_json::json!({"lo": b["hi"], "hi": b["lo"]}),
            format!("field 'merge.units[{positive}]' ["),
        ),
    ];
    for (name, honest, j, malformed, says) in cases {
        let mut forged = honest.to_vec();
        forged[1]["merge"]["units"][j] = malformed;
        let list = write(&dir, name, &forged);
        let (code, _, stderr) = merge(&list, &["--spot-check", "0"]);
        assert_eq!(code, 2, "{name}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{name}: {stderr}");
        assert!(
            stderr.contains(&format!("{name}-2.json: ")) && stderr.contains(&says),
            "{name}: {stderr}"
        );
        if name != "exact" {
            assert!(
                stderr.ends_with("is not an ordered interval of non-negative numbers\n"),
                "{name}: {stderr}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
