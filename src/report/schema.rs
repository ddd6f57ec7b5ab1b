//! The JSON schemas of the commands' outputs, generated from the report
//! types ([`schemas`]) and committed as `docs/schema/<command>.json`.

use super::{
    all_epsilon, audit, bandit, bandit_bounds, bandit_oracle, bandit_privacy, gof, law, mechanism,
    one_shot_privacy, privacy, regret, sample, statistical_privacy, verify,
};
use schemars::JsonSchema;

/// What `dpdtol privacy --json` writes: one of its reports, by the check
/// run.
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum PrivacyOutput {
    /// A full-information online algorithm (`--algorithm`), or a shard of it.
    FullInformation(privacy::PrivacyReport),
    /// A bandit algorithm's exact (certified) check, or a shard of it.
    Bandit(Box<bandit_privacy::BanditPrivacyReport>),
    /// A bandit algorithm's statistical audit, or a shard of its runs.
    Statistical(statistical_privacy::StatisticalPrivacyReport),
    /// DP-TS's or Lazy-DP-TS's certified check from bounds on its laws
    /// (`--method bounds`).
    Bounds(bandit_bounds::BoundsPrivacyReport),
    /// One report-noisy-max selection (`--mechanism`).
    OneShot(one_shot_privacy::OneShotPrivacyReport),
    /// Every ε of a range (`--epsilon-range`, `--all-epsilon`).
    AllEpsilon(all_epsilon::AllEpsilonReport),
}

/// The JSON schema of the output of `command`, whose report type is `T`
/// (JSON Schema draft 2020-12, of the JSON that serializing `T` writes: every
/// key required, `null` allowed where the value is optional), with its title
/// and description.
fn schema<T: JsonSchema>(command: &str, description: &str) -> serde_json::Value {
    let mut schema = schemars::generate::SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator()
        .into_root_schema_for::<T>();
    schema.insert(
        "$id".into(),
        format!("https://github.com/dpdtol/dpdtol/docs/schema/{command}.json").into(),
    );
    // `law-bandit` is the schema of `dpdtol law --json` for a bandit algorithm.
    let name = command.split('-').next().unwrap_or(command);
    schema.insert("title".into(), format!("dpdtol {name} --json").into());
    schema.insert("description".into(), description.into());
    schema.to_value()
}

/// The schemas generated from the report types: `(command, schema)`, each
/// committed as `docs/schema/<command>.json` (a test compares them).
pub fn schemas() -> Vec<(&'static str, serde_json::Value)> {
    vec![
        (
            "mechanism",
            schema::<mechanism::MechanismReport>(
                "mechanism",
                "The law of one report-noisy-max selection on a loss vector: law[i] is the probability of action i + 1.",
            ),
        ),
        (
            "bandit",
            schema::<bandit::BanditReport>(
                "bandit",
                "Simulated (f64, kind approximate) pseudo-regret of bandit algorithms at logarithmically spaced checkpoints, averaged over runs, with confidence intervals and the explicit bounds of the papers' proofs decided statistically.",
            ),
        ),
        (
            "privacy",
            schema::<PrivacyOutput>(
                "privacy",
                "The privacy check of an algorithm on every pair of neighbouring inputs: the verdict against e^epsilon, the maximum privacy-loss ratio and a witness (full-information and bandit algorithms, one-shot selections, statistical audits), or the verdict for every epsilon of a range.",
            ),
        ),
        (
            "regret",
            schema::<regret::RegretReport>(
                "regret",
                "The pseudo-regret of one algorithm (one object) or of several ({results: [...]}) with the papers' bounds (keys regret, regret_interval, bounds).",
            ),
        ),
        (
            "law",
            schema::<law::LawReport>(
                "law",
                "The exact (else certified) law of an algorithm's action sequence on a loss sequence, or of one selection: the schedule, each choice's law, and optionally one sequence's probability.",
            ),
        ),
        (
            "audit",
            schema::<audit::AuditReport>(
                "audit",
                "A lower confidence bound on the epsilon of a black-box sampler from its outputs on two neighbouring inputs, beside dpdtol's exact ratios when its own target is given.",
            ),
        ),
        (
            "gof",
            schema::<gof::GofReport>(
                "gof",
                "Samples from any implementation tested against the exact law. Exit status 1 when reject is true.",
            ),
        ),
        (
            "verify",
            schema::<verify::VerifyReport>(
                "verify",
                "The papers' claims checked (claims with id, source, statement, method, status, detail, witness), the tally and coverage in summary; with --errata the printed errors and the withdrawn refutations; with --shard the part of the registry checked.",
            ),
        ),
        (
            "verify-list",
            schema::<verify::ClaimList>(
                "verify-list",
                "With --list: the claims of the registry (or those --claim names) without their checks, each with id, method and source.",
            ),
        ),
        (
            "sample",
            schema::<sample::SampleReport>("sample", "Seeded reference samples written to a file."),
        ),
        (
            "law-bandit",
            schema::<bandit_oracle::BanditLawReport>(
                "law-bandit",
                "dpdtol law --json for a bandit algorithm on a reward table (--rewards-file): every pull sequence of possibly positive probability with its probability, exact else certified, and optionally one sequence's probability.",
            ),
        ),
        (
            "law-bandit-bounds",
            schema::<bandit_bounds::BanditBoundsReport>(
                "law-bandit-bounds",
                "dpdtol law --json for DP-TS or Lazy-DP-TS on a reward table: certified bounds (not values) on the probability of every pull sequence, and optionally of one.",
            ),
        ),
        (
            "sample-bandit",
            schema::<bandit_oracle::BanditSampleReport>(
                "sample-bandit",
                "dpdtol sample --json for a bandit algorithm on a reward table: seeded reference pull sequences written to a file.",
            ),
        ),
        (
            "gof-bandit-two-sample",
            schema::<bandit_oracle::BanditTwoSampleReport>(
                "gof-bandit-two-sample",
                "dpdtol gof --json for lazy-dp-ts and dp-ts, which have no exact or certified law: a two-sample test of the pull sequences against dpdtol's own seeded simulation. Exit status 1 when reject is true.",
            ),
        ),
        (
            "gof-bandit",
            schema::<bandit_oracle::BanditGofReport>(
                "gof-bandit",
                "dpdtol gof --json for a bandit algorithm on a reward table: pull sequences from any implementation tested against the exact (else certified) law. Exit status 1 when reject is true.",
            ),
        ),
    ]
}
