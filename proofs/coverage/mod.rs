//! The coverage map of the four papers (issue 12, item 3): every numbered
//! result (theorem, lemma, corollary, proposition, fact, algorithm, numbered
//! equation) and every display with explicit constants, each with its seed
//! line, mapped either to the registry claims that check it or to the reason
//! it is not checkable (an `O(·)` statement with no constant, a definition
//! with no numeric consequence, a display the text copy lost).
//!
//! The map is the answer to "what of the paper is *not* checked": the tests
//! in `proofs/check.rs` require every claim of the registry to appear in it,
//! every claim it names to exist, and every item to say one thing or the
//! other; each paper's file also lists the numbered headings its text carries,
//! so that an item cannot be forgotten silently.

mod cc;
mod hu002;
mod hu004;
mod hu_text;
mod ww;

use crate::verify::Paper;

/// One numbered result or explicit-constant display of a paper.
#[derive(Clone, Copy, Debug)]
pub struct Item {
    /// What the paper calls it: `"Theorem 2"`, `"eq. (29)"`, `"display after (12)"`.
    pub label: &'static str,
    /// Its seed line `L<n>` in the text copy (`../shared/papers/`).
    pub line: u32,
    /// The registry claims that check it (empty when it is not checkable).
    pub claims: &'static [&'static str],
    /// Why it is not checked (empty when `claims` is not).
    pub not_checked: &'static str,
}

/// The coverage map of one paper.
#[derive(Clone, Copy, Debug)]
pub struct PaperCoverage {
    /// The paper.
    pub paper: Paper,
    /// The text copy's file name in `../shared/papers/`.
    pub file: &'static str,
    /// Its items, in reading order.
    pub items: &'static [Item],
    /// The numbered results the text announces, as `(label, line)`, read
    /// from the text copy itself: each must be an item with that label and
    /// line.
    pub headings: fn(&str) -> Vec<(String, u32)>,
}

/// The four papers' coverage maps.
pub fn coverage() -> Vec<PaperCoverage> {
    vec![
        PaperCoverage {
            paper: Paper::WuWang,
            file: "000_662f56866ae4d344.txt",
            items: ww::ITEMS,
            headings: ww::headings,
        },
        PaperCoverage {
            paper: Paper::HuEarlier,
            file: "002_f205959389028abf.txt",
            items: hu002::ITEMS,
            headings: hu002::headings,
        },
        PaperCoverage {
            paper: Paper::CesariColomboni,
            file: "003_e72dfed5bfd856b1.txt",
            items: cc::ITEMS,
            headings: cc::headings,
        },
        PaperCoverage {
            paper: Paper::Hu,
            file: "004_e2b45d6dc248149d.txt",
            items: hu004::ITEMS,
            headings: hu004::headings,
        },
    ]
}
