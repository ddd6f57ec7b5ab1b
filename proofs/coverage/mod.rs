//! The coverage map of the four papers: every numbered
//! result (theorem, lemma, corollary, proposition, fact, algorithm, numbered
//! equation) and every display with explicit constants, each with its seed
//! line, mapped either to the registry claims that check it or to the reason
//! it is not checkable (an `O(·)` statement with no constant, a definition
//! with no numeric consequence, a display the text copy lost).
//!
//! The map is the answer to "what of the paper is *not* checked": the tests
//! in `proofs/check.rs` require every claim of the registry to appear in it,
//! every claim it names to exist, and every item to say one thing or the
//! other; one reader of the four text copies (`scan.rs`) lists the numbered
//! results each announces, and each must be an item at its line, so that an
//! item cannot be forgotten silently.

mod cc;
mod hu002;
mod hu004;
mod scan;
mod ww;

use crate::verify::Paper;

/// The map's types live in `verify` (whose report draws the "Coverage"
/// section from them, [`crate::verify::coverage`]); the maps are filled here.
pub use crate::verify::coverage::{Item, PaperCoverage};

/// The reader of the numbered results a text copy announces (one for all
/// four papers): `(label, line)`, each of which must be an item of the
/// paper's map at that line.
pub use scan::numbered;

/// The environment variable that names the folder of the papers' text copies
/// (the files [`PaperCoverage::file`] names).
pub const PAPERS_VAR: &str = "DPDTOL_PAPERS";

/// The text copy `file` from the folder named by [`PAPERS_VAR`]: `Ok(None)`,
/// after one line on stderr saying what is skipped, when the variable is
/// unset; an error naming the path when it is set and the file cannot be
/// read.
pub fn paper_text(file: &str) -> crate::Result<Option<String>> {
    let Some(dir) = std::env::var_os(PAPERS_VAR) else {
        eprintln!("{PAPERS_VAR} is not set: skipped, the check that reads the text copy {file}");
        return Ok(None);
    };
    let path = std::path::Path::new(&dir).join(file);
    std::fs::read_to_string(&path).map(Some).map_err(|e| {
        crate::Error::InvalidInput(format!(
            "cannot read {} ({PAPERS_VAR} names the folder of the papers' text copies): {e}",
            path.display()
        ))
    })
}

/// The four papers' coverage maps.
pub fn coverage() -> Vec<PaperCoverage> {
    vec![
        PaperCoverage {
            paper: Paper::WuWang,
            file: "000_662f56866ae4d344.txt",
            items: ww::ITEMS,
        },
        PaperCoverage {
            paper: Paper::HuEarlier,
            file: "002_f205959389028abf.txt",
            items: hu002::ITEMS,
        },
        PaperCoverage {
            paper: Paper::CesariColomboni,
            file: "003_e72dfed5bfd856b1.txt",
            items: cc::ITEMS,
        },
        PaperCoverage {
            paper: Paper::Hu,
            file: "004_e2b45d6dc248149d.txt",
            items: hu004::ITEMS,
        },
    ]
}

#[cfg(test)]
mod tests {
    /// Each map lists its items in reading order (the order of
    /// [`super::Item::line`]), so that a reader can walk a map beside the
    /// text.
    #[test]
    fn the_maps_are_in_reading_order() {
        for paper in super::coverage() {
            for pair in paper.items.windows(2) {
                assert!(
                    pair[0].line <= pair[1].line,
                    "{}: {} (L{}) before {} (L{})",
                    paper.file,
                    pair[0].label,
                    pair[0].line,
                    pair[1].label,
                    pair[1].line
                );
            }
        }
    }
}
