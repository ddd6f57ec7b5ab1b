//! Errata: the papers' printed errors, one entry per root cause
//! (`proofs/ERRATA.md`, `dpdtol verify --errata`).
//!
//! A refuted claim shows that something printed is false; several claims
//! often show one mistake (a noise scale used in four statements, one law
//! carried through two proofs). An [`Erratum`] is that mistake: where it is
//! printed, what is printed and what is true, a [`Severity`], the
//! consequence for the paper's theorems (backed by claims that check the
//! repaired statement), and the refuted claims that show it, whose witness
//! it carries.
//!
//! A refutation that is not the paper's error — a display the paper quotes
//! in order to refute it, a reading of its notation that the paper does not
//! use at that place, values outside a variable's range — is a
//! [`Withdrawal`], recorded with its reason; planted variants (claims wrong
//! on purpose) are not errata either. [`collate`] refuses a registry in
//! which a refuted claim is in no erratum and not withdrawn or planted, a
//! withdrawn or planted claim is in an erratum, or an erratum's claim is not
//! refuted: the errata are exactly the refutations a referee would sign.

use super::{cell, first_sentence, witness_text, Checked, Claim, Paper, Status};
use crate::error::{Error, Result};
use crate::report::verify::{BackedBy, ErrataCounts, ErrataKeys, ErratumKeys, WithdrawnKeys};
use serde_json::Value;
use std::fmt::Write;

/// How much of the paper a printed error takes with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// A stated result (theorem, corollary, an algorithm's guarantee) is
    /// false as printed, and no evident misprint of a true statement
    /// explains it (that is [`Severity::TypoOrNotation`]).
    ResultFalse,
    /// A step of a proof is false; the result survives, and the repaired
    /// step is a claim of its own, checked.
    ProofStepFalse,
    /// A strict inequality that holds with equality, or a range that misses
    /// its end point: false only at a boundary, harmless once the boundary
    /// is excluded or the relation weakened.
    BoundaryOrStrictness,
    /// A typo or notational slip (a sign, an index, a relation reversed)
    /// whose evident intended form is what the paper goes on to use: no
    /// effect on any result. A misprinted statement of a true fact (a
    /// lemma or inequality printed with a relation or tail reversed, whose
    /// intended form is what the paper proves and uses) is one.
    TypoOrNotation,
}

impl Severity {
    /// Every severity, most serious first.
    pub const ALL: [Severity; 4] = [
        Severity::ResultFalse,
        Severity::ProofStepFalse,
        Severity::BoundaryOrStrictness,
        Severity::TypoOrNotation,
    ];

    /// The JSON name: `"result-false"`, `"proof-step-false"`,
    /// `"boundary-or-strictness"`, `"typo-or-notation"`.
    pub fn name(self) -> &'static str {
        match self {
            Severity::ResultFalse => "result-false",
            Severity::ProofStepFalse => "proof-step-false",
            Severity::BoundaryOrStrictness => "boundary-or-strictness",
            Severity::TypoOrNotation => "typo-or-notation",
        }
    }

    /// What the severity means, in one sentence (the scale of
    /// `proofs/ERRATA.md`).
    pub fn meaning(self) -> &'static str {
        match self {
            Severity::ResultFalse => {
                "a stated result (theorem, corollary, an algorithm's guarantee) is false as printed, and no evident misprint of a true statement explains it"
            }
            Severity::ProofStepFalse => {
                "a proof step is false; the result survives, by a repaired step registered as a claim and checked"
            }
            Severity::BoundaryOrStrictness => {
                "false only at a boundary (a strict relation met with equality, a range that misses an end point)"
            }
            Severity::TypoOrNotation => {
                "a typo or notational slip (a sign, an index, a relation reversed) whose evident intended form is what the paper uses next, including a misprinted statement of a true fact (as eq. (15) of Hu et al. or Lemma 1 as §1.3 of Wu & Wang announces it): no effect on any result"
            }
        }
    }
}

/// One printed error of a paper: one root cause, however many claims show it.
#[derive(Clone, Debug)]
pub struct Erratum {
    /// A short name, unique among the errata: `ww-exponential-scale`.
    pub id: &'static str,
    /// The paper.
    pub paper: Paper,
    /// Section, theorem or equation: `"Theorem 8 (RNM-FTNL, Algorithm 4)"`.
    pub location: &'static str,
    /// The lines of the text copy it is printed on (locators into the copy
    /// named in `papers/README.md`): `"L267, L271–L273"`.
    pub lines: &'static str,
    /// What is printed.
    pub printed: &'static str,
    /// What is true instead.
    pub truth: &'static str,
    /// How much it takes with it.
    pub severity: Severity,
    /// The consequence for the paper's theorems, in one line.
    pub consequence: &'static str,
    /// The claims that check the consequence (the repaired statement); none
    /// of them may be refuted.
    pub backed_by: &'static [&'static str],
    /// The refuted claims that show the error; the first one's witness is
    /// the erratum's.
    pub claims: &'static [&'static str],
}

/// A refutation that is not a printed error of the paper, and why.
#[derive(Clone, Copy, Debug)]
pub struct Withdrawal {
    /// The refuted claim.
    pub claim: &'static str,
    /// Why it is not the paper's error.
    pub reason: &'static str,
}

/// An erratum with the evidence of the run: its witness and the status of
/// the claims that back its consequence.
#[derive(Clone, Debug)]
pub struct Entry<'e> {
    /// The erratum.
    pub erratum: &'e Erratum,
    /// The claim whose witness is shown (the first of the erratum's claims
    /// that was run).
    pub witness_claim: &'static str,
    /// That claim's evidence, first sentence.
    pub evidence: String,
    /// That claim's witness.
    pub witness: Option<Value>,
    /// Each backing claim with its status in this run (`None`: not run).
    pub backing: Vec<(&'static str, Option<Status>)>,
}

fn inconsistent(what: String) -> Error {
    Error::InvalidInput(format!("the errata and the registry disagree: {what}"))
}

/// The claims of `registry` that the errata need: those they name, those
/// that back their consequences, and the withdrawn refutations.
pub fn errata_claims<'c>(
    registry: &'c [Claim],
    errata: &[Erratum],
    withdrawn: &[Withdrawal],
) -> Vec<&'c Claim> {
    let named: Vec<&str> = errata
        .iter()
        .flat_map(|e| e.claims.iter().chain(e.backed_by).copied())
        .chain(withdrawn.iter().map(|w| w.claim))
        .collect();
    registry.iter().filter(|c| named.contains(&c.id)).collect()
}

/// The errata that `checked` shows, in the order of `errata`, validated
/// against the run (module docs): an error when a refuted claim of the run
/// is in no erratum and neither `withdrawn` nor `planted`, when an erratum
/// names a withdrawn or planted claim, a claim named twice, a claim of the
/// run that is not refuted, or a backing claim that is refuted. An erratum
/// none of whose claims was run is left out (a partial run).
pub fn collate<'e>(
    errata: &'e [Erratum],
    withdrawn: &[Withdrawal],
    planted: &[&str],
    checked: &[Checked<'_>],
) -> Result<Vec<Entry<'e>>> {
    let mut named: Vec<&str> = Vec::new();
    for e in errata {
        for &id in e.claims {
            if let Some(w) = withdrawn.iter().find(|w| w.claim == id) {
                return Err(inconsistent(format!(
                    "erratum {} names {id}, a withdrawn refutation ({})",
                    e.id, w.reason
                )));
            }
            if planted.contains(&id) {
                return Err(inconsistent(format!(
                    "erratum {} names {id}, a planted variant",
                    e.id
                )));
            }
            if named.contains(&id) {
                return Err(inconsistent(format!("{id} is named by two errata")));
            }
            named.push(id);
        }
    }
    let status = |id: &str| {
        checked
            .iter()
            .find(|c| c.claim.id == id)
            .map(|c| c.outcome.status)
    };
    if let Some(stray) = checked.iter().find(|c| {
        c.outcome.status == Status::Refuted
            && !named.contains(&c.claim.id)
            && !planted.contains(&c.claim.id)
            && !withdrawn.iter().any(|w| w.claim == c.claim.id)
    }) {
        return Err(inconsistent(format!(
            "{} is refuted, but it is in no erratum and not withdrawn (proofs/errata.rs)",
            stray.claim.id
        )));
    }
    let mut entries = Vec::new();
    for e in errata {
        let shown: Vec<&Checked<'_>> = e
            .claims
            .iter()
            .filter_map(|id| checked.iter().find(|c| c.claim.id == *id))
            .collect();
        let Some(first) = shown.first() else {
            continue;
        };
        if let Some(c) = shown.iter().find(|c| c.outcome.status != Status::Refuted) {
            return Err(inconsistent(format!(
                "erratum {} names {}, which is {} now",
                e.id,
                c.claim.id,
                c.outcome.status.name()
            )));
        }
        let backing: Vec<(&'static str, Option<Status>)> =
            e.backed_by.iter().map(|&id| (id, status(id))).collect();
        if let Some((id, _)) = backing.iter().find(|(_, s)| *s == Some(Status::Refuted)) {
            return Err(inconsistent(format!(
                "erratum {}: its consequence rests on {id}, which is refuted",
                e.id
            )));
        }
        entries.push(Entry {
            erratum: e,
            witness_claim: first.claim.id,
            evidence: first_sentence(&first.outcome.detail).to_string(),
            witness: first.outcome.witness.clone(),
            backing,
        });
    }
    Ok(entries)
}

/// How `checked` departs from the registered refutations, one line each:
/// a refuted claim that is in no erratum and neither withdrawn nor planted,
/// and a registered refutation (an erratum's claim, a withdrawn or a planted
/// one) that was run and is not refuted. Empty when every refutation of the
/// run is registered and every registered one that ran is refuted: what
/// `dpdtol verify` exits 0 on (without `--strict`).
pub fn departures(
    errata: &[Erratum],
    withdrawn: &[Withdrawal],
    planted: &[&str],
    checked: &[Checked<'_>],
) -> Vec<String> {
    let erratum_of = |id: &str| errata.iter().find(|e| e.claims.contains(&id));
    let registered = |id: &str| {
        erratum_of(id).is_some() || planted.contains(&id) || withdrawn.iter().any(|w| w.claim == id)
    };
    checked
        .iter()
        .filter_map(|c| {
            let id = c.claim.id;
            match (c.outcome.status == Status::Refuted, registered(id)) {
                (true, false) => Some(format!(
                    "{id} is refuted, and it is in no erratum, not withdrawn and not planted"
                )),
                (false, true) => Some(format!(
                    "{id} is {} now, but it is registered as refuted ({})",
                    c.outcome.status.name(),
                    erratum_of(id).map_or_else(
                        || {
                            if planted.contains(&id) {
                                "a planted variant".to_string()
                            } else {
                                "a withdrawn refutation".to_string()
                            }
                        },
                        |e| format!("erratum {}", e.id)
                    )
                )),
                _ => None,
            }
        })
        .collect()
}

/// How many entries have each severity, in [`Severity::ALL`] order.
pub fn tally(entries: &[Entry<'_>]) -> [(Severity, usize); 4] {
    Severity::ALL.map(|s| {
        (
            s,
            entries.iter().filter(|e| e.erratum.severity == s).count(),
        )
    })
}

fn backing_text(backing: &[(&str, Option<Status>)], link: &str) -> String {
    backing
        .iter()
        .map(|(id, s)| {
            format!(
                "[`{id}`]({link}#{id}) ({})",
                s.map_or("not run", Status::name)
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The JSON of the errata: `errata` (each with `id`, `paper`, `location`,
/// `lines`, `severity`, `printed`, `true`, `consequence`, `backed_by`
/// [{`id`, `status`}], `claims`, `witness_claim`, `evidence`, `witness`),
/// `withdrawn` [{`claim`, `reason`}] and `counts` (entries of each
/// severity, and `withdrawn`).
pub fn to_json(entries: &[Entry<'_>], withdrawn: &[Withdrawal]) -> ErrataKeys {
    let errata = entries
        .iter()
        .map(|e| {
            let r = e.erratum;
            ErratumKeys {
                backed_by: e
                    .backing
                    .iter()
                    .map(|(id, s)| BackedBy {
                        id: id.to_string(),
                        status: s.map(|s| s.name().to_string()),
                    })
                    .collect(),
                claims: r.claims.iter().map(ToString::to_string).collect(),
                consequence: r.consequence.to_string(),
                evidence: e.evidence.clone(),
                id: r.id.to_string(),
                lines: r.lines.to_string(),
                location: r.location.to_string(),
                paper: r.paper.cite().to_string(),
                printed: r.printed.to_string(),
                severity: r.severity.name().to_string(),
                truth: r.truth.to_string(),
                witness: e.witness.clone(),
                witness_claim: e.witness_claim.to_string(),
            }
        })
        .collect();
    let count = |severity: Severity| {
        entries
            .iter()
            .filter(|e| e.erratum.severity == severity)
            .count() as u64
    };
    ErrataKeys {
        counts: ErrataCounts {
            boundary_or_strictness: count(Severity::BoundaryOrStrictness),
            proof_step_false: count(Severity::ProofStepFalse),
            result_false: count(Severity::ResultFalse),
            typo_or_notation: count(Severity::TypoOrNotation),
            withdrawn: withdrawn.len() as u64,
        },
        errata,
        withdrawn: withdrawn
            .iter()
            .map(|w| WithdrawnKeys {
                claim: w.claim.to_string(),
                reason: w.reason.to_string(),
            })
            .collect(),
    }
}

/// The first marker of the errata table of `proofs/ERRATA.md`.
pub const TABLE_BEGIN: &str = "<!-- errata:begin (one row per erratum) -->";

/// The last marker of the errata table.
pub const TABLE_END: &str = "<!-- errata:end -->";

/// The first marker of the errata summary (in `proofs/ERRATA.md` and in
/// the README, which copies it: `dpdtol verify --readme-table README.md`).
pub const SUMMARY_BEGIN: &str =
    "<!-- errata-summary:begin (generated from proofs/ERRATA.md by `dpdtol verify --readme-table`) -->";

/// The last marker of the errata summary.
pub const SUMMARY_END: &str = "<!-- errata-summary:end -->";

/// The errata summary between [`SUMMARY_BEGIN`] and [`SUMMARY_END`]: how
/// many errata of each severity, and each stated result false as printed
/// with its consequence (one sentence), linked to its entry of
/// `ERRATA.md`.
pub fn summary(entries: &[Entry<'_>]) -> String {
    let counts: Vec<String> = tally(entries)
        .iter()
        .map(|(s, n)| format!("{n} {}", s.name()))
        .collect();
    let mut out = format!(
        "{SUMMARY_BEGIN}\n{} printed errors of the papers, one per root cause ({}). The stated results false as printed:\n\n",
        entries.len(),
        counts.join(", ")
    );
    for e in entries
        .iter()
        .filter(|e| e.erratum.severity == Severity::ResultFalse)
    {
        let r = e.erratum;
        let _ = writeln!(
            out,
            "- [`{id}`](ERRATA.md#{id}) ({}, {}): {}",
            r.paper.cite(),
            r.lines,
            r.consequence,
            id = r.id
        );
    }
    out.push_str(SUMMARY_END);
    out.push('\n');
    out
}

/// The errata table, one row per erratum, between [`TABLE_BEGIN`] and
/// [`TABLE_END`]; claim links point into `report` (the path of
/// `REPORT.md` from the file the table is in).
pub fn table(entries: &[Entry<'_>], report: &str) -> String {
    let mut out = format!(
        "{TABLE_BEGIN}\n| erratum | paper, where | severity | printed → true | consequence | claims |\n|---|---|---|---|---|---|\n"
    );
    for e in entries {
        let r = e.erratum;
        let claims: Vec<String> = r
            .claims
            .iter()
            .map(|id| format!("[`{id}`]({report}#{id})"))
            .collect();
        let _ = writeln!(
            out,
            "| `{}` | {}, {} — {} | {} | {} → {} | {} | {} |",
            r.id,
            r.paper.cite(),
            cell(r.location),
            r.lines,
            r.severity.name(),
            cell(r.printed),
            cell(r.truth),
            cell(r.consequence),
            claims.join(", ")
        );
    }
    out.push_str(TABLE_END);
    out.push('\n');
    out
}

/// `proofs/ERRATA.md`: the severity scale, the counts, the table, one
/// section per erratum (with its witness and the status of its backing
/// claims), and the withdrawn refutations with their reasons.
/// Deterministic, so CI can check it is up to date.
pub fn to_markdown(entries: &[Entry<'_>], withdrawn: &[Withdrawal]) -> String {
    let mut out = String::from(
        "# Errata of the papers\n\n\
         Generated by `dpdtol verify --markdown-errata proofs/ERRATA.md`; do not edit by hand \
         (CI fails when this file differs from a fresh run). One entry per printed error (a root \
         cause), with the refuted claims of [`REPORT.md`](REPORT.md) that show it; the report \
         keeps the per-claim evidence.\n\n\
         Severity:\n\n",
    );
    for s in Severity::ALL {
        let _ = writeln!(out, "- **{}** — {}.", s.name(), s.meaning());
    }
    let counts: Vec<String> = tally(entries)
        .iter()
        .map(|(s, n)| format!("{n} {}", s.name()))
        .collect();
    let shown: usize = entries.iter().map(|e| e.erratum.claims.len()).sum();
    let _ = write!(
        out,
        "\n{} errata, shown by {shown} refuted claims: {}. {} refutations withdrawn (not the papers' errors; see the end).\n\n",
        entries.len(),
        counts.join(", "),
        withdrawn.len()
    );
    out.push_str(&summary(entries));
    out.push('\n');
    out.push_str(&table(entries, "REPORT.md"));
    for e in entries {
        let r = e.erratum;
        let witness = e.witness.as_ref().map_or_else(String::new, witness_text);
        let _ = write!(
            out,
            "\n## {id}\n\n\
             - **paper:** {paper}\n\
             - **where:** {location} — {lines}\n\
             - **severity:** {severity}\n\
             - **printed:** {printed}\n\
             - **true:** {truth}\n\
             - **witness** ([`{wc}`](REPORT.md#{wc})): {evidence}{witness}\n\
             - **consequence:** {consequence} Checked by: {backing}.\n\
             - **claims:** {claims}\n",
            id = r.id,
            paper = r.paper.cite(),
            location = r.location,
            lines = r.lines,
            severity = r.severity.name(),
            printed = r.printed,
            truth = r.truth,
            wc = e.witness_claim,
            evidence = e.evidence,
            witness = if witness.is_empty() {
                String::new()
            } else {
                format!(" — `{}`", witness.trim_matches('`'))
            },
            consequence = r.consequence,
            backing = backing_text(&e.backing, "REPORT.md"),
            claims = r
                .claims
                .iter()
                .map(|id| format!("[`{id}`](REPORT.md#{id})"))
                .collect::<Vec<_>>()
                .join(", "),
        );
    }
    if !withdrawn.is_empty() {
        out.push_str(
            "\n## Withdrawn refutations\n\n\
             Refuted claims that are not printed errors of the paper: the claim stays in the \
             registry (its mathematics is checked as before) and in no erratum.\n\n\
             | claim | why it is not the paper's error |\n|---|---|\n",
        );
        for w in withdrawn {
            let _ = writeln!(
                out,
                "| [`{id}`](REPORT.md#{id}) | {} |",
                cell(w.reason),
                id = w.claim
            );
        }
    }
    out
}

/// One line per erratum: id, severity, paper and place, claims.
pub fn to_text(entries: &[Entry<'_>], withdrawn: &[Withdrawal]) -> String {
    let width = entries
        .iter()
        .map(|e| e.erratum.id.len())
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    for e in entries {
        let r = e.erratum;
        let _ = writeln!(
            out,
            "{:width$}  {:22}  {}, {} ({})  [{}]",
            r.id,
            r.severity.name(),
            r.paper.cite(),
            r.location,
            r.lines,
            r.claims.join(", ")
        );
    }
    let counts: Vec<String> = tally(entries)
        .iter()
        .map(|(s, n)| format!("{n} {}", s.name()))
        .collect();
    let _ = write!(
        out,
        "{} errata: {}; {} refutations withdrawn",
        entries.len(),
        counts.join(", "),
        withdrawn.len()
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::tests::grid_claim;
    use crate::verify::{run, Outcome};
    use serde_json::json;

    fn refuted(id: &'static str) -> crate::verify::Claim {
        let mut c = grid_claim(id);
        c.check = || Ok(Outcome::refuted("false at x = 1. more", json!({"x": 1})));
        c
    }

    const CAUSE: Erratum = Erratum {
        id: "cc-scale",
        paper: Paper::CesariColomboni,
        location: "Theorem 98",
        lines: "L1",
        printed: "a scale 1/ε",
        truth: "the scale 2/ε",
        severity: Severity::ResultFalse,
        consequence: "Theorem 98 holds with 2/ε.",
        backed_by: &["cc-thm98-fixed"],
        claims: &["cc-thm98-a", "cc-thm98-b"],
    };

    /// Two refuted claims of one cause make one entry, which carries the
    /// first one's witness and lists both.
    #[test]
    fn two_claims_of_one_cause_make_one_entry() {
        let (a, b, c) = (
            refuted("cc-thm98-a"),
            refuted("cc-thm98-b"),
            grid_claim("cc-thm98-fixed"),
        );
        let checked = run(&[&a, &b, &c], |_, _| {});
        let errata = [CAUSE];
        let entries = collate(&errata, &[], &[], &checked).unwrap();
        assert_eq!(entries.len(), 1);
        assert_eq!(entries[0].witness_claim, "cc-thm98-a");
        assert_eq!(entries[0].witness, Some(json!({"x": 1})));
        assert_eq!(entries[0].evidence, "false at x = 1");
        assert_eq!(
            entries[0].backing,
            vec![("cc-thm98-fixed", Some(Status::HoldsOnInstances))]
        );
        let md = to_markdown(&entries, &[]);
        assert_eq!(md.matches("\n## cc-scale\n").count(), 1, "{md}");
        assert!(
            md.contains("| `cc-scale` |") && md.contains("[`cc-thm98-b`](REPORT.md#cc-thm98-b)"),
            "{md}"
        );
        let value = serde_json::to_value(to_json(&entries, &[])).unwrap();
        assert_eq!(value["errata"].as_array().unwrap().len(), 1);
        assert_eq!(value["counts"]["result-false"], json!(1));
        assert_eq!(
            value["errata"][0]["claims"],
            json!(["cc-thm98-a", "cc-thm98-b"])
        );
        // A refuted claim of no erratum is refused; so is an erratum's claim
        // that now holds.
        let stray = refuted("cc-thm99");
        let more = run(&[&a, &b, &stray], |_, _| {});
        assert!(collate(&errata, &[], &[], &more).is_err());
        let holds = grid_claim("cc-thm98-b");
        let now = run(&[&a, &holds], |_, _| {});
        assert!(collate(&errata, &[], &[], &now).is_err());
    }

    /// The run departs from the registry exactly when a refutation is not
    /// registered or a registered one is not refuted: the refuted claims of
    /// an erratum, a planted and a withdrawn one leave nothing to report; a
    /// stray refutation and an erratum's claim that now holds are named.
    #[test]
    fn departures_name_what_is_not_as_registered() {
        let (a, b, p, w) = (
            refuted("cc-thm98-a"),
            refuted("cc-thm98-b"),
            refuted("cc-planted"),
            refuted("cc-withdrawn"),
        );
        let withdrawn = [Withdrawal {
            claim: "cc-withdrawn",
            reason: "a quotation",
        }];
        let errata = [CAUSE];
        let expected = run(&[&a, &b, &p, &w], |_, _| {});
        assert!(departures(&errata, &withdrawn, &["cc-planted"], &expected).is_empty());
        let (stray, holds) = (refuted("cc-thm99"), grid_claim("cc-thm98-b"));
        let changed = run(&[&a, &holds, &stray], |_, _| {});
        let found = departures(&errata, &withdrawn, &[], &changed);
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(
            found[0].starts_with("cc-thm98-b is holds-on-instances now")
                && found[0].contains("erratum cc-scale"),
            "{found:?}"
        );
        assert!(
            found[1].starts_with("cc-thm99 is refuted, and it is in no erratum"),
            "{found:?}"
        );
        // A planted variant that is no longer refuted is a departure too.
        let caught = grid_claim("cc-planted");
        let missed = run(&[&caught], |_, _| {});
        let found = departures(&errata, &withdrawn, &["cc-planted"], &missed);
        assert!(found[0].contains("a planted variant"), "{found:?}");
    }

    /// A withdrawn refutation cannot come back as an erratum (nor a planted
    /// variant), and outside the errata it is accepted.
    #[test]
    fn a_withdrawn_refutation_cannot_reappear() {
        let (a, b) = (refuted("cc-thm98-a"), refuted("cc-thm98-b"));
        let checked = run(&[&a, &b], |_, _| {});
        let withdrawn = [Withdrawal {
            claim: "cc-thm98-b",
            reason: "a quotation the paper refutes",
        }];
        let errata = [CAUSE];
        let err = collate(&errata, &withdrawn, &[], &checked).unwrap_err();
        assert!(err.to_string().contains("withdrawn"), "{err}");
        assert!(collate(&errata, &[], &["cc-thm98-b"], &checked).is_err());
        let alone = [Erratum {
            claims: &["cc-thm98-a"],
            ..CAUSE
        }];
        let entries = collate(&alone, &withdrawn, &[], &checked).unwrap();
        assert_eq!(entries.len(), 1);
        let md = to_markdown(&entries, &withdrawn);
        let (errata_part, withdrawn_part) = md.split_once("## Withdrawn refutations").unwrap();
        assert!(!errata_part.contains("cc-thm98-b"), "{md}");
        assert!(
            withdrawn_part.contains("a quotation the paper refutes"),
            "{md}"
        );
    }
}
