//! The `proofs` test target: the registry is well formed, the fast claims
//! come out as `proofs/REPORT.md` records them, and (`--ignored`) the whole
//! registry reproduces `proofs/REPORT.md` byte for byte, so a stale report
//! fails CI.
//!
//! The report is the record of evidence: a change that moves a claim from
//! `certified` to `undecided`, or a refuted claim to `holds`, fails here
//! until the report is regenerated with `dpdtol verify --markdown
//! proofs/REPORT.md` and the change reviewed in the diff.

use dpdtol::proofs::{adversaries, errata, planted, registry, withdrawn};
use dpdtol::verify::{self, is_well_formed_id, Claim, Cost, Paper, Status};
use std::collections::HashSet;

const REPORT: &str = include_str!("REPORT.md");
const ERRATA: &str = include_str!("ERRATA.md");
const README: &str = include_str!("../README.md");

/// The README's errata summary is proofs/ERRATA.md's: copy it with
/// `dpdtol verify --readme-table README.md`.
#[test]
fn the_readme_errata_summary_is_errata_md() {
    let spliced = verify::splice_errata(README, ERRATA).expect("both have the markers");
    assert!(
        spliced == README,
        "README.md's errata summary differs from proofs/ERRATA.md's: run `cargo run --release -- verify --readme-table README.md`"
    );
}

/// Every planted variant and every withdrawn refutation is a claim of the
/// registry, and none is in the table of printed errors or in the errata.
#[test]
fn planted_and_withdrawn_claims_are_not_printed_errors() {
    let claims = registry();
    let (begin, end) = (
        REPORT.find(verify::ERRORS_BEGIN).expect("the begin marker"),
        REPORT.find(verify::ERRORS_END).expect("the end marker"),
    );
    let errata_part = ERRATA
        .split("## Withdrawn refutations")
        .next()
        .expect("the errata");
    let excluded: Vec<&str> = planted()
        .into_iter()
        .chain(withdrawn().iter().map(|w| w.claim))
        .collect();
    for id in excluded {
        assert!(claims.iter().any(|c| c.id == id), "no claim {id}");
        assert!(
            !REPORT[begin..end].contains(&format!("`{id}`")),
            "{id} is listed as a printed error"
        );
        assert!(
            !errata_part.contains(&format!("`{id}`")),
            "{id} is in the errata"
        );
    }
}

/// The errata and the registry agree: every claim an erratum names or rests
/// on exists and is of the erratum's paper (or its other version), and the
/// statuses recorded in REPORT.md collate (every refuted claim in one
/// erratum, withdrawn or planted; every erratum's claims refuted; no
/// consequence resting on a refuted claim).
#[test]
fn the_errata_and_the_registry_agree() {
    let claims = registry();
    let recorded = verify::statuses_in_markdown(REPORT);
    let mut ids = HashSet::new();
    for e in errata() {
        assert!(ids.insert(e.id), "two errata named {}", e.id);
        for id in e.claims.iter().chain(e.backed_by) {
            let claim = claims
                .iter()
                .find(|c| c.id == *id)
                .unwrap_or_else(|| panic!("{}: no claim {id}", e.id));
            assert_eq!(
                claim.source.paper.prefix(),
                e.paper.prefix(),
                "{}: {id} is another paper's claim",
                e.id
            );
        }
        assert!(!e.claims.is_empty() && !e.backed_by.is_empty(), "{}", e.id);
    }
    let refuted_recorded: Vec<&str> = recorded
        .iter()
        .filter(|(_, s)| *s == Status::Refuted)
        .map(|(id, _)| id.as_str())
        .collect();
    for id in &refuted_recorded {
        let places = errata().iter().filter(|e| e.claims.contains(id)).count()
            + usize::from(withdrawn().iter().any(|w| w.claim == *id))
            + usize::from(planted().contains(id));
        assert_eq!(
            places, 1,
            "{id}: refuted in REPORT.md, in {places} of (an erratum, withdrawn, planted)"
        );
    }
    for e in errata() {
        for id in e.claims {
            assert!(
                refuted_recorded.contains(id),
                "{}: {id} is not refuted in REPORT.md",
                e.id
            );
        }
        for id in e.backed_by {
            assert!(
                !refuted_recorded.contains(id),
                "{}: its consequence rests on {id}, refuted",
                e.id
            );
        }
    }
}

/// Every adversarial search names a claim of the registry, once.
#[test]
fn every_search_names_one_claim() {
    let claims = registry();
    let mut seen = HashSet::new();
    for a in adversaries() {
        assert!(claims.iter().any(|c| c.id == a.id), "no claim {}", a.id);
        assert!(seen.insert(a.id), "two searches for {}", a.id);
        assert!(
            !a.params.is_empty() && a.budget > 0,
            "{}: empty search",
            a.id
        );
    }
}

#[test]
fn the_registry_is_well_formed() {
    let claims = registry();
    assert!(claims.len() >= 40, "only {} claims", claims.len());
    let mut ids = HashSet::new();
    for c in &claims {
        assert!(is_well_formed_id(c.id), "malformed id {}", c.id);
        assert!(ids.insert(c.id), "duplicate id {}", c.id);
        assert!(
            c.id.starts_with(&format!("{}-", c.source.paper.prefix())),
            "{} is not named after its paper",
            c.id
        );
        for (field, text) in [
            ("statement", c.statement),
            ("math", c.math),
            ("domain", c.domain),
            ("number", c.source.number),
            ("context", c.source.context),
        ] {
            assert!(!text.trim().is_empty(), "{}: empty {field}", c.id);
        }
    }
    for paper in [
        Paper::CesariColomboni,
        Paper::Hu,
        Paper::HuEarlier,
        Paper::WuWang,
    ] {
        assert!(
            claims.iter().any(|c| c.source.paper == paper),
            "no claim of {}",
            paper.cite()
        );
    }
}

/// Run `claims` and compare each status with the report's.
fn matches_report(claims: &[&Claim]) {
    let recorded = verify::statuses_in_markdown(REPORT);
    let checked = verify::run_searched(claims, &adversaries(), |_, _| {});
    let mut wrong = Vec::new();
    for c in &checked {
        let expected = recorded
            .iter()
            .find(|(id, _)| id == c.claim.id)
            .map(|(_, s)| *s);
        if expected != Some(c.outcome.status) {
            wrong.push(format!(
                "{}: {} now, {} in REPORT.md ({})",
                c.claim.id,
                c.outcome.status.name(),
                expected.map_or("absent", Status::name),
                c.outcome.detail
            ));
        }
        assert!(
            !c.outcome.detail.starts_with("the check failed"),
            "{}: {}",
            c.claim.id,
            c.outcome.detail
        );
    }
    assert!(
        wrong.is_empty(),
        "statuses differ from proofs/REPORT.md (regenerate it with `dpdtol verify --markdown proofs/REPORT.md` and review the diff):\n{}",
        wrong.join("\n")
    );
}

#[test]
fn fast_claims_come_out_as_the_report_records() {
    // The adversarial searches take minutes in a debug build: the claims
    // that have one are checked by the `--ignored` sweep and by CI's
    // `dpdtol verify` (release).
    let claims = registry();
    let searched: Vec<&str> = adversaries().iter().map(|a| a.id).collect();
    let fast: Vec<&Claim> = claims
        .iter()
        .filter(|c| c.cost == Cost::Fast && !searched.contains(&c.id))
        .collect();
    matches_report(&fast);
}

#[test]
#[ignore = "the whole registry: minutes in release"]
fn the_report_is_up_to_date() {
    let claims = registry();
    let all: Vec<&Claim> = claims.iter().collect();
    let checked = verify::run_searched(&all, &adversaries(), |_, _| {});
    let fresh = verify::to_markdown(
        &checked,
        &planted(),
        &withdrawn(),
        &dpdtol::proofs::coverage::coverage(),
    );
    let all_errata = errata();
    let entries = verify::errata::collate(&all_errata, &withdrawn(), &planted(), &checked)
        .expect("the errata collate");
    assert!(
        verify::errata::to_markdown(&entries, &withdrawn()) == ERRATA,
        "proofs/ERRATA.md is stale: regenerate it with `cargo run --release -- verify --markdown-errata proofs/ERRATA.md`"
    );
    if fresh != REPORT {
        let first = fresh
            .lines()
            .zip(REPORT.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(fresh.lines().count().min(REPORT.lines().count()));
        panic!(
            "proofs/REPORT.md is stale from line {}: regenerate it with `cargo run --release -- verify --markdown proofs/REPORT.md`\nnow:    {}\nreport: {}",
            first + 1,
            fresh.lines().nth(first).unwrap_or("<end>"),
            REPORT.lines().nth(first).unwrap_or("<end>")
        );
    }
}

/// The coverage map and the registry agree: every claim
/// is mapped to an item of its paper, every claim an item names exists, and
/// every item either names claims or says why it is not checked.
#[test]
fn the_coverage_map_and_the_registry_agree() {
    use dpdtol::proofs::coverage::coverage;
    let claims = registry();
    let ids: HashSet<&str> = claims.iter().map(|c| c.id).collect();
    let mut mapped: HashSet<&str> = HashSet::new();
    for paper in coverage() {
        for item in paper.items {
            assert!(
                item.claims.is_empty() != item.not_checked.is_empty(),
                "{} {} (L{}): name claims or say why not, not both",
                paper.file,
                item.label,
                item.line
            );
            for id in item.claims {
                assert!(
                    ids.contains(id),
                    "{} {}: no claim {id}",
                    paper.file,
                    item.label
                );
                assert!(
                    claims
                        .iter()
                        .any(|c| c.id == *id && c.source.paper == paper.paper),
                    "{} {}: {id} is another paper's claim",
                    paper.file,
                    item.label
                );
                mapped.insert(id);
            }
        }
    }
    let unmapped: Vec<&str> = ids.difference(&mapped).copied().collect();
    assert!(
        unmapped.is_empty(),
        "claims in no coverage item: {unmapped:?}"
    );
}

/// Every numbered result a paper's text announces is an item of its coverage
/// map, at its line. The text copies are read from the folder named by
/// `DPDTOL_PAPERS`; when it is unset the test says it is skipped and checks
/// nothing.
#[test]
fn every_numbered_result_of_the_papers_is_in_the_coverage_map() {
    use dpdtol::proofs::coverage::{coverage, numbered, paper_text};
    for paper in coverage() {
        let Some(text) = paper_text(paper.file).unwrap_or_else(|e| panic!("{e}")) else {
            return;
        };
        for (label, line) in numbered(&text) {
            assert!(
                paper
                    .items
                    .iter()
                    .any(|i| i.label == label && i.line == line),
                "{} announces {label} at L{line}: not in its coverage map",
                paper.file
            );
        }
    }
}

/// The claim `id` of the registry, checked (its grid only, no search).
fn checked(id: &str) -> verify::Outcome {
    let claims = registry();
    let claim = claims
        .iter()
        .find(|c| c.id == id)
        .unwrap_or_else(|| panic!("no claim {id}"));
    (claim.check)().unwrap_or_else(|e| panic!("{id}: {e}"))
}

/// Each repair of a printed error is registered as a consequence of its
/// erratum and holds: certified where it is algebra, on its instances where
/// it is a law.
///
/// Independent derivations of what the certified ones rest on:
/// - ww-thm3-quarter: for ε ≤ L/2 (L = ln K), L/ε − 1 − L/(2ε) = (L − 2ε)/(2ε)
///   ≥ 0; for ε ≥ L/2, 1/2 − L/(4ε) = (2ε − L)/(4ε) ≥ 0, and (K − 1)/K ≥ 1/2
///   for K ≥ 2 (K = 2: 1/2; K = 3: 2/3).
/// - ww-thm4-const-proof: (4/ε)(1 + ln 2)(ln K/ln 2) is 4(1 + ln 2)/ln 2 ·
///   ln K/ε term by term; at K = 2, ε = 1 both are 4(1 + ln 2) = 6.7726.
/// - hu-thm12-L319-horizon: 1/16 − L/T = (T − 16L)/(16T); at K = 100
///   (L = 4.6052) the threshold is T > 73.68.
/// - ww-cor1-L468-c2: 2^r a/c₂ = 2^{r+1}a/(2c₂).
#[test]
fn the_repairs_are_registered_and_hold() {
    let all = errata();
    for (erratum, repair, status) in [
        ("ww-thm3-range", "ww-thm3-quarter", Status::Certified),
        ("ww-thm3-horizon", "ww-thm3-quarter", Status::Certified),
        ("ww-gumbel-law", "ww-thm4-const-proof", Status::Certified),
        ("ww-lem3-integral", "ww-thm4-const-proof", Status::Certified),
        (
            "hu-thm12-minimax",
            "hu-thm12-L319-horizon",
            Status::Certified,
        ),
        ("ww-cor1-equation7", "ww-cor1-L468-c2", Status::Certified),
        ("ww-gumbel-law", "ww-eqD3-half", Status::HoldsOnInstances),
    ] {
        let e = all
            .iter()
            .find(|e| e.id == erratum)
            .unwrap_or_else(|| panic!("no erratum {erratum}"));
        assert!(
            e.backed_by.contains(&repair),
            "{erratum} does not rest on {repair}"
        );
        let outcome = checked(repair);
        assert_eq!(outcome.status, status, "{repair}: {}", outcome.detail);
    }
    let scale = all
        .iter()
        .find(|e| e.id == "ww-exponential-scale")
        .expect("the exponential-scale erratum");
    for repair in ["ww-thm4-exponential2", "ww-cor1-exponential2"] {
        assert!(scale.backed_by.contains(&repair), "{repair}");
    }
}

/// The witnesses of the slips, each refuted at the instance its erratum
/// names. Derivations:
/// - hu-eq40-L645: Δ_j = 3/4 gives μ₁ − y_j = Δ_j/6 = 1/8 ≤ 1/6 (inside
///   L609's range), 8/(1/8) = 64 = 2^6, so d₁ = 6 and s = 2^6 = 64 = 64.
/// - hu-thm3-L534: d = 5, p = 0: ω^{(6)} = 2^7 − 1 = 127 against ω^{(5)} =
///   63; the gap 2^{d+1}(1 − p) + p is 64 at p = 0 and 1 at p = 1.
/// - ww-thm3-horizon: 25 ln 2 = 17.329 > 1 = T.
/// - hu-thm12-L319-minimax: ln 100/50 = 0.0921 > 1/16 = 0.0625 (Δmin =
///   0.3035), while ln 100/100 = 0.046 ≤ 50.
/// - ww-thm4-L332: 1/(1 + e^{−1} + e^{−2}) = 1/1.50321 = 0.6652 ≠ 1/3.
/// - ww-cor1-L468: 2^1 = 2 against 2^2 = 4. ww-thm3-L521: t = 1 < T = 2.
/// - ww-alg1-L122: ∫(β/2)e^{−|x|/β} dx = 2·(β/2)·β = β², 4 at β = 2.
#[test]
fn the_slips_are_refuted_at_their_witnesses() {
    let refuted = |id: &str, needles: &[&str]| {
        let outcome = checked(id);
        assert_eq!(outcome.status, Status::Refuted, "{id}: {}", outcome.detail);
        for needle in needles {
            assert!(outcome.detail.contains(needle), "{id}: {}", outcome.detail);
        }
        outcome
    };
    let eq40 = refuted("hu-eq40-L645", &["Δ_j = 3/4", "= 1/8", "s = 2^r = 64"]);
    assert_eq!(eq40.witness.expect("a witness")["point"]["μ₁ − y_j"], "1/8");
    refuted("hu-thm3-L534", &["every law", "127", "63"]);
    refuted("hu-thm12-L319-minimax", &["K = 100, T = 50"]);
    refuted("ww-thm3-horizon", &["25 ln 2"]);
    refuted("ww-thm4-L332", &["free"]);
    refuted("ww-cor1-L468", &["`2 = 4` fails"]);
    refuted("ww-thm3-L521", &["`2 ≤ 1` fails"]);
    refuted("ww-alg1-L122", &["β = 2", "`4 = 1` fails"]);
    // Each is an erratum's claim.
    for id in [
        "hu-thm12-L319-minimax",
        "ww-thm3-horizon",
        "ww-thm4-L332",
        "ww-cor1-L468",
        "ww-thm3-L521",
        "ww-alg1-L122",
    ] {
        assert!(errata().iter().any(|e| e.claims.contains(&id)), "{id}");
    }
}

/// The evidence line (first sentence) of the claims resting on the doubling
/// sum or the critical gap names each claim's own step: no two of them
/// print the same line.
#[test]
fn shared_arguments_name_the_step_of_each_claim() {
    let ids = [
        "hu-thm3-L534-d1",
        "hu-eq41",
        "ww-thm2-L420-T",
        "hu-cor11-L303",
        "hu-thm3-L578",
        "ww-cor2-L557",
        "ww-cor2-L559",
    ];
    let lines: Vec<String> = ids
        .iter()
        .map(|id| {
            let o = checked(id);
            assert_eq!(o.status, Status::Certified, "{id}: {}", o.detail);
            o.detail
                .split_once(". ")
                .map_or(o.detail.clone(), |(a, _)| a.to_string())
        })
        .collect();
    let distinct: HashSet<&String> = lines.iter().collect();
    assert_eq!(distinct.len(), lines.len(), "{lines:#?}");
}
