//! The result of `dpdtol verify`: the claims checked with their outcomes,
//! the tally, the papers' coverage and, with `--errata`, the errata. The
//! types hold plain data (the claim runner in [`crate::verify`] fills
//! them), so that the runner may write them without the reports depending
//! on it.

use super::SchemaVersion;
use crate::error::{Error, Result};
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The names of the claim statuses.
const STATUSES: [&str; 4] = ["certified", "holds-on-instances", "refuted", "undecided"];

/// The schema of a claim status (`null` allowed where `nullable`).
fn status_schema(nullable: bool) -> Schema {
    let mut names: Vec<Value> = STATUSES.map(Value::from).to_vec();
    if nullable {
        names.push(Value::Null);
    }
    json_schema!({ "enum": names })
}

fn status(_: &mut SchemaGenerator) -> Schema {
    status_schema(false)
}

fn status_or_null(_: &mut SchemaGenerator) -> Schema {
    status_schema(true)
}

/// One claim and its outcome.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ClaimKeys {
    /// The evidence: pieces proved, instances checked, margins, enclosures.
    pub detail: String,
    /// The domain the claim is checked on.
    pub domain: String,
    /// The claim's id, `<paper>-<kind><number>[-<part>]`.
    pub id: String,
    /// The statement as mathematics.
    pub math: String,
    /// How it is checked.
    pub method: String,
    /// Wall-clock seconds of its check.
    pub seconds: f64,
    /// The paper, result and line it comes from.
    pub source: String,
    /// The paper's statement, as typeset.
    pub statement: String,
    /// `certified`, `holds-on-instances`, `refuted` or `undecided`.
    #[schemars(schema_with = "status")]
    pub status: String,
    /// The failing point, instance or neighbour pair, when there is one.
    pub witness: Option<Value>,
}

/// Coverage counts of a paper's numbered results and explicit-constant
/// displays.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CoverageCounts {
    /// Items that name claims.
    pub checked: u64,
    /// Every item.
    pub items: u64,
    /// Items that give a reason instead.
    pub not_checked: u64,
    /// Checked items with a claim refuted in this run.
    pub with_refutation: u64,
}

/// The coverage of the papers (proofs/coverage/): in total and per paper,
/// keyed by its id prefix (the two Hu et al. versions summed).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Coverage {
    /// Cesari & Colomboni.
    pub cc: CoverageCounts,
    /// Hu et al.
    pub hu: CoverageCounts,
    /// All papers.
    pub total: CoverageCounts,
    /// Wu & Wang.
    pub ww: CoverageCounts,
}

/// The number of errata of each severity, and of withdrawn refutations.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ErrataCounts {
    /// A condition at a boundary or a strict inequality that should not be.
    pub boundary_or_strictness: u64,
    /// A step of a proof that is false.
    pub proof_step_false: u64,
    /// A result that is false.
    pub result_false: u64,
    /// A typo or a notation.
    pub typo_or_notation: u64,
    /// Refuted claims that are not the papers' errors.
    pub withdrawn: u64,
}

/// The number of claims of each status, the coverage and the errata counts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Summary {
    /// Claims certified.
    pub certified: u64,
    /// The papers' numbered results and explicit-constant displays checked by claims or not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub coverage: Option<Coverage>,
    /// With --errata: the number of errata of each severity and of withdrawn refutations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub errata: Option<ErrataCounts>,
    /// Claims that hold on every instance searched.
    #[serde(rename = "holds-on-instances")]
    pub holds_on_instances: u64,
    /// Claims refuted.
    pub refuted: u64,
    /// Claims undecided.
    pub undecided: u64,
}

/// A claim backing an erratum's consequence, with its status in this run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BackedBy {
    /// The claim.
    pub id: String,
    /// Its status in this run (null: not run).
    #[schemars(schema_with = "status_or_null")]
    pub status: Option<String>,
}

/// A printed error of a paper, one per root cause (proofs/ERRATA.md).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ErratumKeys {
    /// The claims that check the consequence, with their status in this run.
    pub backed_by: Vec<BackedBy>,
    /// The refuted claims that show the error.
    pub claims: Vec<String>,
    /// The consequence for the paper's theorems, in one line.
    pub consequence: String,
    /// The evidence of the witness claim, first sentence.
    pub evidence: String,
    /// The erratum's id.
    pub id: String,
    /// The lines of the paper's text copy.
    pub lines: String,
    /// Section, theorem or equation.
    pub location: String,
    /// The paper.
    pub paper: String,
    /// What is printed.
    pub printed: String,
    /// `result-false`, `proof-step-false`, `boundary-or-strictness` or `typo-or-notation`.
    pub severity: String,
    /// What is true.
    #[serde(rename = "true")]
    pub truth: String,
    /// The witness claim's witness.
    pub witness: Option<Value>,
    /// The claim whose evidence and witness are shown.
    pub witness_claim: String,
}

/// A refuted claim that is not a printed error of the papers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WithdrawnKeys {
    /// The claim.
    pub claim: String,
    /// Why it is not the paper's error.
    pub reason: String,
}

/// The errata of a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ErrataKeys {
    /// The number of errata of each severity, and of withdrawn refutations.
    pub counts: ErrataCounts,
    /// The printed errors, one per root cause.
    pub errata: Vec<ErratumKeys>,
    /// The withdrawn refutations.
    pub withdrawn: Vec<WithdrawnKeys>,
}

/// Which part of the registry a `--shard I/N` run checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ShardKeys {
    /// N.
    pub count: u64,
    /// I.
    pub index: u64,
}

/// The output of `dpdtol verify --list --json`: the claims without their
/// checks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ClaimList {
    /// The claims chosen, in the registry's order.
    pub claims: Vec<ListedClaim>,
}

/// One claim of the list: its id, method and source.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListedClaim {
    /// The claim's id.
    pub id: String,
    /// How it is checked.
    pub method: String,
    /// Where the paper states it.
    pub source: String,
}

impl super::Human for ClaimList {
    /// One line a claim: id, method, source.
    fn human(&self) -> String {
        self.claims
            .iter()
            .map(|c| format!("{:<16} {:<16} {}", c.id, c.method, c.source))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// The papers' claims checked.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VerifyReport {
    /// The claims, in the registry's order.
    pub claims: Vec<ClaimKeys>,
    /// With --errata: the papers' printed errors, one per root cause.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub errata: Option<Vec<ErratumKeys>>,
    /// The version of this report's keys.
    pub schema_version: SchemaVersion,
    /// Wall-clock seconds of all checks.
    pub seconds: f64,
    /// With --shard: the part of the registry checked (a merge input).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<ShardKeys>,
    /// With --merge: what the merge re-verified by checking the shards'
    /// claims again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spot_check: Option<super::merge::SpotCheck>,
    /// The tally, the coverage and the errata counts.
    pub summary: Summary,
    /// With --errata: refuted claims that are not printed errors of the papers, with the reason.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub withdrawn: Option<Vec<WithdrawnKeys>>,
}

impl VerifyReport {
    /// The report with the errata `found` added (their counts in the
    /// summary).
    pub fn with_errata(self, found: ErrataKeys) -> VerifyReport {
        VerifyReport {
            errata: Some(found.errata),
            withdrawn: Some(found.withdrawn),
            summary: Summary {
                errata: Some(found.counts),
                ..self.summary
            },
            ..self
        }
    }
}

impl super::merge::Part for VerifyReport {
    type Content = VerifyReport;

    const WRITER: &'static str = "dpdtol verify --shard I/N";

    /// A shard's report: its shard given, no errata, no spot check, every claim's status
    /// known and its seconds finite and nonnegative. Its claims are set
    /// against the registry by [`crate::verify::merge_shards`].
    fn check(&self) -> Result<VerifyReport> {
        let bad = |what: String| Err(Error::InvalidInput(what));
        if self.shard.is_none() {
            return bad(
                "field 'shard' is missing (not the --json output of dpdtol verify --shard I/N)"
                    .into(),
            );
        }
        if self.spot_check.is_some() {
            return bad("field 'spot_check': a shard is not a merge".into());
        }
        if self.errata.is_some() || self.withdrawn.is_some() || self.summary.errata.is_some() {
            return bad("a shard has no errata (--errata applies to the merged run)".into());
        }
        for c in &self.claims {
            if !STATUSES.contains(&c.status.as_str()) {
                return bad(format!("{}: unknown status {:?}", c.id, c.status));
            }
            if !(c.seconds.is_finite() && c.seconds >= 0.0) {
                return bad(format!("{}: seconds {} is not a duration", c.id, c.seconds));
            }
        }
        Ok(self.clone())
    }

    fn written(report: &VerifyReport) -> VerifyReport {
        report.clone()
    }
}
