//! The coverage of the papers by the registry: the types
//! of a paper's coverage map (filled in `proofs/coverage/`) and the
//! report's "Coverage" section drawn from them — per paper, how many
//! numbered results and explicit-constant displays are checked by claims
//! and how many are not, and each unchecked item with its reason.

use super::{cell, Checked, Paper, Status};
use crate::report::verify::{Coverage, CoverageCounts};
use std::fmt::Write as _;

/// One numbered result or explicit-constant display of a paper.
#[derive(Clone, Copy, Debug)]
pub struct Item {
    /// What the paper calls it: `"Theorem 2"`, `"eq. (29)"`, `"display at L336"`.
    pub label: &'static str,
    /// Its seed line `L<n>` in the paper's text copy ([`PaperCoverage::file`]).
    pub line: u32,
    /// The registry claims that check it (empty when it is not checkable).
    pub claims: &'static [&'static str],
    /// Why it is not checked (empty when `claims` is not).
    pub not_checked: &'static str,
}

/// An item checked by `claims`.
pub const fn by(label: &'static str, line: u32, claims: &'static [&'static str]) -> Item {
    Item {
        label,
        line,
        claims,
        not_checked: "",
    }
}

/// An item not checked, for `reason`.
pub const fn not(label: &'static str, line: u32, reason: &'static str) -> Item {
    Item {
        label,
        line,
        claims: &[],
        not_checked: reason,
    }
}

/// The coverage map of one paper.
#[derive(Clone, Copy, Debug)]
pub struct PaperCoverage {
    /// The paper.
    pub paper: Paper,
    /// The file name of the paper's text copy (in the folder named by the
    /// environment variable `DPDTOL_PAPERS`).
    pub file: &'static str,
    /// Its items, in reading order.
    pub items: &'static [Item],
}

/// The counts of one paper's map: items, items checked by claims, of those
/// the items one of whose claims is refuted in `checked`, and items not
/// checked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Every item of the map.
    pub items: usize,
    /// Items that name claims.
    pub checked: usize,
    /// Checked items with a claim refuted in this run.
    pub refuted: usize,
    /// Items that give a reason instead.
    pub not_checked: usize,
}

impl Counts {
    /// The counts of `paper`'s map against the outcomes `checked`.
    pub fn of(paper: &PaperCoverage, checked: &[Checked<'_>]) -> Counts {
        let refuted = |id: &str| {
            checked
                .iter()
                .any(|c| c.claim.id == id && c.outcome.status == Status::Refuted)
        };
        let with_claims = paper.items.iter().filter(|i| !i.claims.is_empty());
        Counts {
            items: paper.items.len(),
            checked: with_claims.clone().count(),
            refuted: with_claims
                .filter(|i| i.claims.iter().any(|id| refuted(id)))
                .count(),
            not_checked: paper.items.iter().filter(|i| i.claims.is_empty()).count(),
        }
    }

    /// The sum over `papers`.
    pub fn total(papers: &[PaperCoverage], checked: &[Checked<'_>]) -> Counts {
        papers
            .iter()
            .map(|p| Counts::of(p, checked))
            .fold(Counts::default(), |a, b| Counts {
                items: a.items + b.items,
                checked: a.checked + b.checked,
                refuted: a.refuted + b.refuted,
                not_checked: a.not_checked + b.not_checked,
            })
    }
}

/// The report's summary sentence on coverage (empty without maps).
pub fn summary(papers: &[PaperCoverage], checked: &[Checked<'_>]) -> String {
    if papers.is_empty() {
        return String::new();
    }
    let t = Counts::total(papers, checked);
    format!(
        " Coverage: {} numbered results and explicit-constant displays of the papers, {} checked by claims ({} of them with a refuted claim), {} not checked (see \"Coverage\").",
        t.items, t.checked, t.refuted, t.not_checked
    )
}

/// The counts (`verify --json`'s `summary.coverage`): the totals and each
/// paper's, keyed by its id prefix (`ww`, `hu`, `cc`; the two Hu et al.
/// versions share `hu` and are summed).
pub fn counts_json(papers: &[PaperCoverage], checked: &[Checked<'_>]) -> Coverage {
    let of = |prefix: Option<&str>| {
        let mine: Vec<PaperCoverage> = papers
            .iter()
            .filter(|p| prefix.is_none_or(|prefix| p.paper.prefix() == prefix))
            .copied()
            .collect();
        let n = Counts::total(&mine, checked);
        CoverageCounts {
            checked: n.checked as u64,
            items: n.items as u64,
            not_checked: n.not_checked as u64,
            with_refutation: n.refuted as u64,
        }
    };
    Coverage {
        cc: of(Some("cc")),
        hu: of(Some("hu")),
        total: of(None),
        ww: of(Some("ww")),
    }
}

/// The "Coverage" section: a table per paper, then each paper's unchecked
/// items with their reasons (empty without maps).
pub fn section(papers: &[PaperCoverage], checked: &[Checked<'_>]) -> String {
    if papers.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "\n## Coverage\n\n\
         Every numbered result (theorem, lemma, corollary, proposition, remark, definition, \
         algorithm, numbered equation) and every display with explicit constants of each paper, \
         with the claims that check it or the reason it is not checkable \
         (`proofs/coverage/`). \"With a refutation\": items one of whose claims is refuted \
         (a printed slip or its consequence).\n\n\
         | paper | text copy | items | checked by claims | with a refutation | not checked |\n\
         |---|---|---|---|---|---|\n",
    );
    for p in papers {
        let n = Counts::of(p, checked);
        let _ = writeln!(
            out,
            "| {} | `{}` | {} | {} | {} | {} |",
            p.paper.cite(),
            p.file,
            n.items,
            n.checked,
            n.refuted,
            n.not_checked
        );
    }
    for p in papers {
        let open: Vec<&Item> = p.items.iter().filter(|i| i.claims.is_empty()).collect();
        if open.is_empty() {
            continue;
        }
        let _ = write!(
            out,
            "\n### Not checked: {}\n\n| item | line | why |\n|---|---|---|\n",
            p.paper.cite()
        );
        for i in open {
            let _ = writeln!(
                out,
                "| {} | L{} | {} |",
                cell(i.label),
                i.line,
                cell(i.not_checked)
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{Counts, Item, PaperCoverage};
    use crate::verify::tests::grid_claim;
    use crate::verify::{run, Outcome, Paper};

    const ITEMS: &[Item] = &[
        Item {
            label: "Lemma 9",
            line: 3,
            claims: &["cc-lem96-a"],
            not_checked: "",
        },
        Item {
            label: "eq. (9)",
            line: 5,
            claims: &["cc-lem96-b", "cc-lem96-a"],
            not_checked: "",
        },
        Item {
            label: "display at L7",
            line: 7,
            claims: &[],
            not_checked: "no constant | a pipe",
        },
        Item {
            label: "Lemma 10",
            line: 9,
            claims: &["cc-lem96-b"],
            not_checked: "",
        },
    ];

    /// Four items: three name claims, two of those name the refuted
    /// `cc-lem96-a`, one gives a reason — counted by hand from `ITEMS`.
    #[test]
    fn the_section_counts_and_lists_the_map() {
        let mut a = grid_claim("cc-lem96-a");
        a.check = || Ok(Outcome::refuted("false at 0", serde_json::json!({"x": 0})));
        let mut b = grid_claim("cc-lem96-b");
        b.check = || Ok(Outcome::certified("proved"));
        let checked = run(&[&a, &b], |_, _| {});
        let map = [PaperCoverage {
            paper: Paper::CesariColomboni,
            file: "x.txt",
            items: ITEMS,
        }];
        assert_eq!(
            Counts::of(&map[0], &checked),
            Counts {
                items: 4,
                checked: 3,
                refuted: 2,
                not_checked: 1
            }
        );
        let report = super::summary(&map, &checked) + &super::section(&map, &checked);
        for line in [
            "Coverage: 4 numbered results and explicit-constant displays of the papers, 3 checked by claims (2 of them with a refuted claim), 1 not checked",
            "| Cesari & Colomboni (2026) | `x.txt` | 4 | 3 | 2 | 1 |",
            "### Not checked: Cesari & Colomboni (2026)",
            "| display at L7 | L7 | no constant \\| a pipe |",
        ] {
            assert!(report.contains(line), "missing {line:?} in\n{report}");
        }
        assert!(!report.contains("| Lemma 9 |"), "{report}");
        let counts = serde_json::to_value(super::counts_json(&map, &checked)).unwrap();
        assert_eq!(counts["total"], counts["cc"], "{counts}");
        assert_eq!(
            counts["cc"],
            serde_json::json!({"items": 4, "checked": 3, "with_refutation": 2, "not_checked": 1})
        );
        assert_eq!(counts["ww"]["items"], 0, "{counts}");
        assert!(super::summary(&[], &checked).is_empty());
    }
}
