//! Every command's `--json` output is checked against its schema,
//! `docs/schema/<command>.json` (JSON Schema draft 2020-12, validated by
//! boon), on real runs; and every schema pins `schema_version` to the
//! binary's.

mod common;

use common::{dpdtol, json};
use serde_json::Value;
use std::path::PathBuf;

fn schema_path(command: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("docs/schema")
        .join(format!("{command}.json"))
}

/// Check `value` against the schema of `command`: every violation, or Ok.
fn check(command: &str, value: &Value) -> Result<(), String> {
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    let location = schema_path(command).display().to_string();
    let index = compiler
        .compile(&location, &mut schemas)
        .unwrap_or_else(|e| panic!("{location} does not compile: {e:#}"));
    schemas.validate(value, index).map_err(|e| format!("{e:#}"))
}

/// `value` must satisfy the schema of `command` and carry version 1.
fn validate(command: &str, value: &Value) {
    if let Err(e) = check(command, value) {
        panic!("{command} output violates its schema: {e}\n{value}");
    }
    assert_eq!(value["schema_version"], "1", "{command}");
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dpdtol-schema-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// wu-wang with Gumbel noise and no resampling, K = 2, t = 7, on a small loss file.
fn target(losses: &std::path::Path) -> Vec<String> {
    std::fs::write(losses, "0,1\n1/2,1/4\n0.3,1\n1,0\n0,0\n1,1\n0,1/2\n").unwrap();
    [
        "--algorithm",
        "wu-wang",
        "--noise",
        "gumbel",
        "--resample",
        "0",
        "--epsilon",
        "1",
        "--losses-file",
        losses.to_str().unwrap(),
    ]
    .map(String::from)
    .to_vec()
}

/// Run `dpdtol <command> <target…> <more…>`, which must succeed, and
/// parse its JSON.
fn oracle(command: &str, target: &[String], more: &[&str]) -> Value {
    let mut args = vec![command];
    args.extend(target.iter().map(String::as_str));
    args.extend(more);
    json(&args)
}

#[test]
fn law_sample_gof_and_audit_match_their_schemas() {
    let losses = temp("losses.csv");
    let t = target(&losses);
    let law = oracle("law", &t, &["--sequence", "1,2,2,1,1,1,1", "--json"]);
    validate("law", &law);
    // The schema can fail: without its choices the output is refused.
    let mut broken = law.clone();
    broken.as_object_mut().unwrap().remove("choices");
    assert!(check("law", &broken).is_err());
    let one_shot = json(&[
        "law",
        "--mechanism",
        "exponential",
        "--scale",
        "1",
        "--losses",
        "0,1,2",
        "--json",
    ]);
    validate("law", &one_shot);
    let samples = temp("s.npy");
    let samples_str = samples.to_str().unwrap();
    let sample = oracle(
        "sample",
        &t,
        &["--n", "400", "--seed", "3", "--out", samples_str, "--json"],
    );
    validate("sample", &sample);
    let gof = oracle(
        "gof",
        &t,
        &["--samples", samples_str, "--tv", "0.1", "--json"],
    );
    validate("gof", &gof);
    assert_eq!(gof["reject"], false, "seed 3: {gof}");
    // A second sample on a neighbour (round 3 changed) for the audit.
    let neighbour = temp("neighbour.csv");
    std::fs::write(&neighbour, "0,1\n1/2,1/4\n1,0\n1,0\n0,0\n1,1\n0,1/2\n").unwrap();
    let mut t2 = t.clone();
    let at = t2.iter().position(|a| a == "--losses-file").unwrap() + 1;
    t2[at] = neighbour.to_str().unwrap().to_string();
    let second = temp("s2.csv");
    let second_str = second.to_str().unwrap();
    oracle(
        "sample",
        &t2,
        &["--n", "400", "--seed", "4", "--out", second_str, "--json"],
    );
    let audit = oracle(
        "audit",
        &t,
        &[
            "--first",
            samples_str,
            "--second",
            second_str,
            "--neighbour-file",
            neighbour.to_str().unwrap(),
            "--json",
        ],
    );
    validate("audit", &audit);
}

#[test]
fn the_older_commands_match_their_schemas() {
    validate(
        "mechanism",
        &json(&[
            "mechanism",
            "--noise",
            "gumbel",
            "--base",
            "1/2",
            "--losses",
            "0,1",
            "--json",
        ]),
    );
    validate(
        "privacy",
        &json(&[
            "privacy",
            "--algorithm",
            "wu-wang",
            "--actions",
            "2",
            "--horizon",
            "2",
            "--alphabet",
            "0,1",
            "--epsilon",
            "1",
            "--json",
        ]),
    );
    // The exact bandit check with K = 3 arms (rows of three rewards).
    let k3 = "privacy --algorithm anytime-lazy-ucb --actions 3 --horizon 4 --alphabet 0,1 --epsilon 1 --json";
    validate("privacy", &json(&k3.split(' ').collect::<Vec<_>>()));
    // The statistical audits of lazy-dp-ts and hybrid-ucb (with its tree
    // scale) answer under the same schema.
    for (algorithm, extra) in [("lazy-dp-ts", None), ("hybrid-ucb", Some("--tree-scale"))] {
        let mut args = vec![
            "privacy",
            "--algorithm",
            algorithm,
            "--actions",
            "2",
            "--horizon",
            "3",
            "--alphabet",
            "0,1",
            "--epsilon",
            "1",
            "--runs",
            "1000",
            "--json",
        ];
        if let Some(flag) = extra {
            args.extend([flag, "1/2"]);
        }
        validate("privacy", &json(&args));
        // A shard of the audit (counts only) too.
        args.extend(["--shard", "2/2"]);
        validate("privacy", &json(&args));
    }
    // Hybrid-UCB's exact check (certified laws) too.
    validate(
        "privacy",
        &json(&[
            "privacy",
            "--algorithm",
            "hybrid-ucb",
            "--actions",
            "2",
            "--horizon",
            "3",
            "--alphabet",
            "0,1",
            "--epsilon",
            "1",
            "--json",
        ]),
    );
    // The one-shot check (--mechanism) shares the privacy schema.
    validate(
        "privacy",
        &json(&[
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
        ]),
    );
    validate(
        "regret",
        &json(&[
            "regret",
            "--algorithm",
            "ftl",
            "--means",
            "0.2,0.5",
            "--setting",
            "deterministic",
            "--horizon",
            "4",
            "--epsilon",
            "1",
            "--json",
        ]),
    );
    validate(
        "verify",
        &json(&["verify", "--claim", "cc-lem2-i", "--json"]),
    );
    // The list has no schema_version: its keys are those it always had.
    let list = json(&["verify", "--list", "--json"]);
    check("verify-list", &list).unwrap_or_else(|e| panic!("{e}\n{list}"));
    let mut broken = list.clone();
    broken["claims"][0]
        .as_object_mut()
        .unwrap()
        .remove("source");
    assert!(check("verify-list", &broken).is_err());
    let listed: dpdtol::report::verify::ClaimList = reads_back(&["verify", "--list", "--json"]);
    assert!(listed.claims.iter().any(|c| c.id == "hu-thm8"));
    // With --errata: the one erratum these claims show (hu-thm3-L534 and
    // its repaired step hu-thm3-L534-d1 are run, hu-thm3-L174 is not: status
    // null), and the withdrawn refutations.
    let errata = json(&["verify", "--claim", "hu-thm3-L534", "--errata", "--json"]);
    validate("verify", &errata);
    assert_eq!(
        errata["errata"].as_array().map(Vec::len),
        Some(1),
        "{errata}"
    );
    assert_eq!(errata["errata"][0]["id"], "hu-thm3-omega", "{errata}");
    assert_eq!(
        errata["errata"][0]["severity"], "typo-or-notation",
        "{errata}"
    );
    assert_eq!(
        errata["errata"][0]["backed_by"],
        serde_json::json!([
            {"id": "hu-thm3-L534-d1", "status": "certified"},
            {"id": "hu-thm3-L174", "status": null}
        ]),
        "{errata}"
    );
    assert_eq!(
        errata["summary"]["errata"]["typo-or-notation"], 1,
        "{errata}"
    );
    assert!(
        errata["withdrawn"]
            .as_array()
            .is_some_and(|w| !w.is_empty()),
        "{errata}"
    );
    let bandit = json(&[
        "bandit",
        "--algorithm",
        "anytime-lazy-ucb,ucb1",
        "--means",
        "0.7,1/2",
        "--epsilon",
        "1",
        "--horizon",
        "1000",
        "--runs",
        "4",
        "--seed",
        "1",
        "--json",
    ]);
    validate("bandit", &bandit);
    // The means as given, exactly: 0.7 = 7/10 (not the f64 0.6999999999999999555…).
    assert_eq!(bandit["means_exact"], serde_json::json!(["7/10", "1/2"]));
    let first = bandit["means"][0].as_str().unwrap();
    assert!(
        first.starts_with("0.7") && first.trim_start_matches("0.7").chars().all(|c| c == '0'),
        "means[0] = {first}"
    );
}

#[test]
fn gof_exits_1_on_rejection_and_2_on_bad_input() {
    let losses = temp("losses-gof.csv");
    let t = target(&losses);
    // Every sequence plays action 1 throughout: possible, but far too
    // frequent for the law: rejected.
    let samples = temp("constant.csv");
    std::fs::write(&samples, "1,1,1,1,1,1,1\n".repeat(500)).unwrap();
    let mut args = vec!["gof"];
    args.extend(t.iter().map(String::as_str));
    args.extend(["--samples", samples.to_str().unwrap()]);
    assert_eq!(dpdtol(&args).status.code(), Some(1));
    // An action that changes inside an epoch: a support violation, exit 1.
    std::fs::write(&samples, "1,1,2,1,1,1,1\n").unwrap();
    let out = dpdtol(&args);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("support violation in sample 0"));
    // A 0 in a 1-based file: bad input, one line on stderr, exit 2.
    std::fs::write(&samples, "0,1,1,1,1,1,1\n").unwrap();
    let out = dpdtol(&args);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1);
}

#[test]
fn the_all_epsilon_privacy_output_matches_its_schema() {
    // wu-wang, exponential noise at 3/2 × the printed scale: a violated piece
    // (with its witness), a root, a private piece closed at it.
    let value = json(&[
        "privacy",
        "--algorithm",
        "wu-wang",
        "--noise",
        "exponential",
        "--scale-factor",
        "3/2",
        "--actions",
        "2",
        "--horizon",
        "3",
        "--alphabet",
        "0,1",
        "--all-epsilon",
        "--json",
    ]);
    validate("privacy", &value);
    let pieces = value["pieces"].as_array().unwrap();
    assert_eq!(pieces.len(), 2);
    assert_eq!(pieces[0]["verdict"], "violated");
    assert_eq!(pieces[1]["lo"]["closed"], true);
    // Without epsilon_range the single-ε keys stay required.
    let mut broken = value.clone();
    broken.as_object_mut().unwrap().remove("epsilon_range");
    assert!(check("privacy", &broken).is_err());
}

/// The committed schemas of the typed reports are the ones generated from
/// the types (`dpdtol::report::schemas`): a report type changed without its
/// schema fails here. `DPDTOL_BLESS=1 cargo test --test schema` rewrites
/// them, for review in the diff.
#[test]
fn the_committed_schemas_are_the_generated_ones() {
    let bless = std::env::var_os("DPDTOL_BLESS").is_some();
    let mut stale = Vec::new();
    for (command, schema) in dpdtol::report::schemas() {
        let path = schema_path(command);
        let generated = format!("{}\n", serde_json::to_string_pretty(&schema).unwrap());
        if bless {
            std::fs::write(&path, &generated).unwrap();
        } else if std::fs::read_to_string(&path).ok().as_deref() != Some(generated.as_str()) {
            stale.push(path.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "stale schemas (regenerate with DPDTOL_BLESS=1 cargo test --test schema): {stale:?}"
    );
}

/// `dpdtol <args>`, parsed as the report type `T` and written again: the
/// same text. Returns the report.
fn reads_back<T: serde::de::DeserializeOwned + serde::Serialize>(args: &[&str]) -> T {
    let out = common::dpdtol(args);
    let text = String::from_utf8(out.stdout).unwrap();
    let report: T =
        serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("{args:?}: {e}\n{text}"));
    assert_eq!(dpdtol::report::to_json(&report), text.trim(), "{args:?}");
    report
}

/// `text` with one more key, `forged`, at its top level.
fn forged(text: &str) -> String {
    let mut value: Value = serde_json::from_str(text).unwrap();
    value
        .as_object_mut()
        .unwrap()
        .insert("forged".into(), Value::from(1));
    value.to_string()
}

/// A typed report reads back what it writes: real output, parsed into its
/// type and written again, is the same text (so a merge can read a part's
/// report as the type, never field by field); a forged key is refused, not
/// ignored.
#[test]
fn typed_reports_read_back_what_they_write() {
    use dpdtol::report::audit::AuditReport;
    use dpdtol::report::gof::GofReport;
    use dpdtol::report::law::LawReport;
    use dpdtol::report::mechanism::MechanismReport;
    use dpdtol::report::sample::SampleReport;
    use dpdtol::report::to_json;
    for args in [
        &[
            "mechanism",
            "--noise",
            "gumbel",
            "--base",
            "1/4",
            "--losses",
            "0,1,1/2",
            "--json",
        ][..],
        &[
            "mechanism",
            "--noise",
            "laplace",
            "--scale",
            "1/2",
            "--losses",
            "0,1",
            "--json",
        ],
    ] {
        let report: MechanismReport = reads_back(args);
        assert!(serde_json::from_str::<MechanismReport>(&forged(&to_json(&report))).is_err());
    }
    let losses = temp("losses-read-back.csv");
    let t = target(&losses);
    let mut args = vec!["law"];
    args.extend(t.iter().map(String::as_str));
    args.extend(["--sequence", "1,2,2,1,1,1,1", "--json"]);
    let certified: LawReport = reads_back(&args);
    // A key of the flattened law header is read, and a forged one refused.
    assert_eq!(certified.header.precision_bits, Some(203));
    assert!(serde_json::from_str::<LawReport>(&forged(&to_json(&certified))).is_err());
    // FTL's law is exact: a sequence's probability is 0 or 1, exactly.
    let ftl = format!(
        "law --algorithm ftl --epsilon 1 --losses-file {} --sequence 1,2,2,1,1,1,1 --json",
        losses.display()
    );
    let exact: LawReport = reads_back(&ftl.split(' ').collect::<Vec<_>>());
    let p = exact.probability_exact.map(|q| q.0);
    assert!(matches!(p.as_deref(), Some("0" | "1")), "{p:?}");
    let one_shot = "law --mechanism exponential --scale 1 --losses 0,1,2 --sequence 2 --json";
    reads_back::<LawReport>(&one_shot.split(' ').collect::<Vec<_>>());
    let out = temp("read-back.npy");
    let mut args = vec!["sample"];
    args.extend(t.iter().map(String::as_str));
    args.extend(["--n", "10", "--seed", "1", "--base", "0", "--json", "--out"]);
    args.push(out.to_str().unwrap());
    let sample: SampleReport = reads_back(&args);
    assert_eq!((sample.n, sample.base), (10, 0));
    assert!(serde_json::from_str::<SampleReport>(&forged(&to_json(&sample))).is_err());
    // The samples just written, tested (f64 statistics and p-values read
    // back to the same digits), and a support violation.
    let mut args = vec!["gof"];
    args.extend(t.iter().map(String::as_str));
    args.extend(["--base", "0", "--tv", "0.2", "--json", "--samples"]);
    args.push(out.to_str().unwrap());
    let gof: GofReport = reads_back(&args);
    assert_eq!(gof.per_choice.len(), 3);
    assert!(gof.per_choice[1].test.p_value > 0.0);
    assert!(serde_json::from_str::<GofReport>(&forged(&to_json(&gof))).is_err());
    let bad = temp("read-back-bad.csv");
    std::fs::write(&bad, "1,1,2,1,1,1,1\n").unwrap();
    let mut args = vec!["gof"];
    args.extend(t.iter().map(String::as_str));
    args.extend(["--json", "--samples", bad.to_str().unwrap()]);
    let rejected: GofReport = reads_back(&args);
    assert!(rejected.reject && rejected.support_violation.is_some());
    // An audit on a whole-sequence event, without a target and beside
    // FTL's exact ratios (one infinite).
    let (first, second) = (temp("read-back-1.csv"), temp("read-back-2.csv"));
    std::fs::write(&first, "1,2\n2,1\n".repeat(50)).unwrap();
    std::fs::write(&second, "1,1\n2,2\n".repeat(50)).unwrap();
    let (x, y) = (temp("read-back-x.csv"), temp("read-back-y.csv"));
    std::fs::write(&x, "0,1\n0,1\n").unwrap();
    // A neighbour: the loss vector of round 1 replaced.
    std::fs::write(&y, "1,0\n0,1\n").unwrap();
    let audit = format!(
        "audit --first {} --second {} --json",
        first.display(),
        second.display()
    );
    let blind: AuditReport = reads_back(&audit.split(' ').collect::<Vec<_>>());
    assert!(blind.target.is_none() && blind.exact_max_ratio.is_none());
    let audit = format!(
        "{audit} --algorithm ftl --epsilon 1 --losses-file {} --neighbour-file {}",
        x.display(),
        y.display()
    );
    let ftl: AuditReport = reads_back(&audit.split(' ').collect::<Vec<_>>());
    let max = ftl.exact_max_ratio.as_ref().unwrap();
    assert_eq!(
        (max.interval.0[0].0.as_str(), max.exact.as_ref()),
        ("inf", None)
    );
    assert!(serde_json::from_str::<AuditReport>(&forged(&to_json(&ftl))).is_err());
}

#[test]
fn regret_reports_read_back_what_they_write() {
    use dpdtol::report::regret::RegretReport;
    let one: RegretReport = reads_back(&[
        "regret",
        "--algorithm",
        "prefix-softmax",
        "--means",
        "0,1/2",
        "--setting",
        "deterministic",
        "--horizon",
        "100",
        "--epsilon",
        "1/2",
        "--json",
    ]);
    assert!(matches!(one, RegretReport::One(_)));
    let mut value = serde_json::to_value(&one).unwrap();
    validate("regret", &value);
    // The whole output of one algorithm must carry its schema_version.
    value.as_object_mut().unwrap().remove("schema_version");
    assert!(check("regret", &value).is_err());
    let several: RegretReport = reads_back(&[
        "regret",
        "--algorithm",
        "ftl,wu-wang:gumbel",
        "--means",
        "0.2,0.5,0.6",
        "--setting",
        "bernoulli",
        "--horizon",
        "6",
        "--epsilon",
        "1",
        "--json",
    ]);
    assert_eq!(several.results().len(), 2);
    validate("regret", &serde_json::to_value(&several).unwrap());
    assert!(several.results().iter().all(|r| r.schema_version.is_none()));
    // Inside `results` a forged key is refused too.
    let mut value = serde_json::to_value(&several).unwrap();
    value["results"][1]["forged"] = 1.into();
    assert!(serde_json::from_value::<RegretReport>(value).is_err());
}

#[test]
fn bandit_reports_read_back_what_they_write() {
    use dpdtol::report::bandit::BanditReport;
    let report: BanditReport = reads_back(&[
        "bandit",
        "--algorithm",
        "anytime-lazy-ucb,thompson",
        "--means",
        "0.7,1/3",
        "--epsilon",
        "1/2,2",
        "--horizon",
        "200",
        "--runs",
        "3",
        "--seed",
        "5",
        "--confidence",
        "0.9",
        "--json",
    ]);
    // Two private configurations and one baseline, with 30 digits of each f64.
    assert_eq!(report.results.len(), 3);
    assert_eq!(report.results[2].epsilon, None);
    // The level 1 − α, α = 1 − 0.9 in f64, read back bit for bit.
    assert_eq!(report.confidence.level.0, 1.0 - (1.0 - 0.9));
    assert_eq!(report.results[0].bounds.len(), 1);
    validate("bandit", &serde_json::to_value(&report).unwrap());
    let mut value = serde_json::to_value(&report).unwrap();
    value["results"][0]["final"]["forged"] = 1.into();
    assert!(serde_json::from_value::<BanditReport>(value).is_err());
}

/// Every privacy report reads back what it writes (each kind of check, a
/// shard among them); a key it does not write is refused by a merge, which
/// compares the whole report key for key (`tests/merge_contract.rs`).
#[test]
fn privacy_reports_read_back_what_they_write() {
    use dpdtol::report::all_epsilon::AllEpsilonReport;
    use dpdtol::report::bandit_privacy::BanditPrivacyReport;
    use dpdtol::report::one_shot_privacy::OneShotPrivacyReport;
    use dpdtol::report::privacy::PrivacyReport;
    use dpdtol::report::statistical_privacy::StatisticalPrivacyReport;
    let split = |s: &'static str| s.split(' ').collect::<Vec<_>>();
    let full: PrivacyReport = reads_back(&split(
        "privacy --algorithm wu-wang --actions 2 --horizon 2 --alphabet 0,1 --epsilon 1 --shard 1/2 --json",
    ));
    assert!(full.verdict.witness.probability.is_some());
    let bandit: BanditPrivacyReport = reads_back(&split(
        "privacy --algorithm dp-se --actions 2 --horizon 4 --alphabet 0,1 --epsilon 1 --epoch-length 1 --json",
    ));
    assert_eq!(
        bandit.verdict.witness.rewards,
        Some(bandit.verdict.witness.losses.clone())
    );
    assert_eq!(bandit.epoch_lengths_printed, Some(false));
    let audit: StatisticalPrivacyReport = reads_back(&split(
        "privacy --algorithm hybrid-ucb --method statistical --actions 2 --horizon 3 --alphabet 0,1 --epsilon 1 --runs 1000 --json",
    ));
    assert!(audit.witness.is_some() && audit.tree_scale.is_some());
    let counts: StatisticalPrivacyReport = reads_back(&split(
        "privacy --algorithm lazy-dp-ts --actions 2 --horizon 3 --alphabet 0,1 --epsilon 1 --runs 1000 --shard 2/2 --json",
    ));
    assert!(counts.witness.is_none() && !counts.merge.counts.is_empty());
    let one_shot: OneShotPrivacyReport = reads_back(&split(
        "privacy --mechanism exponential --actions 2 --alphabet 0,1,2 --neighbours linf:1 --epsilon 1/2 --json",
    ));
    assert_eq!(one_shot.horizon, "1");
    // Its witness's probabilities are the mechanism's law of each input at
    // the witness's action (`dpdtol mechanism`).
    let w = &one_shot.verdict.witness;
    let action = w.actions[0] as usize - 1;
    for (inputs, probability) in [
        (&w.losses, &w.probability),
        (&w.neighbour, &w.neighbour_probability),
    ] {
        let losses: Vec<&str> = inputs[0].iter().map(|x| x.0.as_str()).collect();
        let law = json(&[
            "mechanism",
            "--noise",
            "exponential",
            "--scale",
            &one_shot.noise_scale.0,
            "--losses",
            &losses.join(","),
            "--json",
        ]);
        let expected: f64 = law["law"][action].as_str().unwrap().parse().unwrap();
        let printed: f64 = probability.as_ref().unwrap().0.parse().unwrap();
        assert!(
            (expected - printed).abs() < 1e-15,
            "{expected} vs {printed}"
        );
    }
    let all: AllEpsilonReport = reads_back(&split(
        "privacy --algorithm wu-wang --noise exponential --scale-factor 3/2 --actions 2 --horizon 3 --alphabet 0,1 --all-epsilon --json",
    ));
    assert_eq!(all.pieces.len(), 2);
    // The violated piece's witness gives the two probabilities the check at
    // its ε gives for the same pair (computed there from the sequence laws).
    let w = all.pieces[0].witness.as_ref().unwrap();
    let at: PrivacyReport = reads_back(&split(
        "privacy --algorithm wu-wang --noise exponential --scale-factor 3/2 --actions 2 --horizon 3 --alphabet 0,1 --epsilon 1/2 --json",
    ));
    assert_eq!(w.epsilon.0, "1/2");
    assert_eq!(
        (&w.losses, &w.neighbour),
        (&at.verdict.witness.losses, &at.verdict.witness.neighbour)
    );
    let float = |d: &dpdtol::report::Decimal| d.0.parse::<f64>().unwrap();
    for (ours, theirs) in [
        (
            &w.probability,
            at.verdict.witness.probability.as_ref().unwrap(),
        ),
        (
            &w.neighbour_probability,
            at.verdict.witness.neighbour_probability.as_ref().unwrap(),
        ),
    ] {
        assert!(
            (float(ours) - float(theirs)).abs() < 1e-15,
            "{ours} vs {theirs}"
        );
    }
}

/// The arguments as `&str`.
fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// `law`, `sample` and `gof` of a bandit algorithm on a reward table match
/// the schemas `law-bandit`, `sample-bandit`, `gof-bandit`, and their
/// reports read back what they write.
#[test]
fn bandit_oracle_outputs_match_their_schemas() {
    use dpdtol::report::bandit_oracle::{BanditGofReport, BanditLawReport, BanditSampleReport};
    let rewards = temp("rewards.csv");
    std::fs::write(&rewards, "1/4,3/4\n1,0\n1/2,1/2\n0,1\n0.75,0.25\n").unwrap();
    let t: Vec<String> = [
        "--algorithm",
        "anytime-lazy-ucb",
        "--epsilon",
        "1",
        "--rewards-file",
        rewards.to_str().unwrap(),
    ]
    .map(String::from)
    .to_vec();
    let law = oracle("law", &t, &["--sequence", "1,2,1,1,2", "--json"]);
    validate("law-bandit", &law);
    let mut broken = law.clone();
    broken.as_object_mut().unwrap().remove("law");
    assert!(check("law-bandit", &broken).is_err());
    // The full-information schema does not take it.
    assert!(check("law", &law).is_err());
    let samples = temp("pulls.npy");
    let samples_str = samples.to_str().unwrap();
    let more = ["--n", "300", "--seed", "5", "--out", samples_str, "--json"];
    validate("sample-bandit", &oracle("sample", &t, &more));
    let gof = oracle(
        "gof",
        &t,
        &["--samples", samples_str, "--tv", "0.1", "--json"],
    );
    validate("gof-bandit", &gof);
    assert_eq!(gof["reject"], false, "seed 5: {gof}");
    // Lazy-DP-TS has no law: its gof is a two-sample test.
    let mut lazy = t.clone();
    lazy[1] = "lazy-dp-ts".to_string();
    let two = oracle(
        "gof",
        &lazy,
        &["--samples", samples_str, "--seed", "2", "--json"],
    );
    validate("gof-bandit-two-sample", &two);
    assert!(check("gof-bandit", &two).is_err());
    let args = |command: &str, more: &[&str]| -> Vec<String> {
        let mut all = vec![command.to_string()];
        all.extend(t.iter().cloned());
        all.extend(more.iter().map(|s| s.to_string()));
        all
    };
    let r: BanditLawReport = reads_back(&strs(&args("law", &["--json"])));
    assert_eq!(r.arms, 2);
    let g: BanditGofReport = reads_back(&strs(&args("gof", &["--json", "--samples", samples_str])));
    assert!(!g.reject);
    let more = ["--json", "--n", "10", "--seed", "1", "--out", samples_str];
    let s: BanditSampleReport = reads_back(&strs(&args("sample", &more)));
    assert_eq!(s.n, 10);
}

/// `law` of DP-TS and `privacy --method bounds` write the schemas
/// `law-bandit-bounds` and `privacy`, and their reports read back what they
/// write.
#[test]
fn bounds_outputs_match_their_schemas() {
    use dpdtol::report::bandit_bounds::{BanditBoundsReport, BoundsPrivacyReport};
    let rewards = temp("bounds.csv");
    std::fs::write(&rewards, "1,0\n1/2,1\n0,1\n").unwrap();
    let path = rewards.to_str().unwrap();
    let law = json(&[
        "law",
        "--algorithm",
        "dp-ts",
        "--epsilon",
        "1",
        "--rewards-file",
        path,
        "--sequence",
        "1,2,2",
        "--json",
    ]);
    validate("law-bandit-bounds", &law);
    assert!(check("law-bandit", &law).is_err());
    let back: BanditBoundsReport = serde_json::from_value(law.clone()).unwrap();
    assert_eq!(serde_json::to_value(&back).unwrap(), law);
    let privacy = json(&[
        "privacy",
        "--algorithm",
        "lazy-dp-ts",
        "--method",
        "bounds",
        "--actions",
        "2",
        "--horizon",
        "3",
        "--alphabet",
        "0,1",
        "--epsilon",
        "1",
        "--json",
    ]);
    validate("privacy", &privacy);
    let back: BoundsPrivacyReport = serde_json::from_value(privacy.clone()).unwrap();
    assert_eq!(serde_json::to_value(&back).unwrap(), privacy);
}
