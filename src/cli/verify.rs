//! `dpdtol verify`: check the papers' claims of the registry in `proofs/`
//! (all, or those `--claim` names), print a table or one JSON object, and
//! optionally write the markdown report.

use crate::error::{Error, Result};
use crate::proofs::registry;
use crate::verify::{self, Checked};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::path::PathBuf;

/// Flags of `dpdtol verify`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Check only this claim (`cc-lem2-iv`), or every part of one (`cc-lem2`).
    #[arg(long)]
    claim: Option<String>,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
    /// Also write the markdown report to this file (proofs/REPORT.md is made so).
    #[arg(long)]
    markdown: Option<PathBuf>,
}

/// Run the command; the text to print on stdout.
pub fn run(args: &Args) -> Result<String> {
    let registry = registry();
    let chosen = verify::select(&registry, args.claim.as_deref())?;
    let checked = with_progress(&chosen);
    if let Some(path) = &args.markdown {
        std::fs::write(path, verify::to_markdown(&checked))
            .map_err(|e| Error::InvalidInput(format!("cannot write {}: {e}", path.display())))?;
    }
    Ok(if args.json {
        super::report::versioned(verify::to_json(&checked)).to_string()
    } else {
        verify::to_text(&checked)
    })
}

/// Run the checks with a progress bar on stderr (drawn only on a terminal).
fn with_progress<'a>(chosen: &[&'a verify::Claim]) -> Vec<Checked<'a>> {
    let bar =
        ProgressBar::with_draw_target(Some(chosen.len() as u64), ProgressDrawTarget::stderr());
    if let Ok(style) =
        ProgressStyle::with_template("verify {wide_bar} {pos}/{len} claims, {elapsed}: {msg}")
    {
        bar.set_style(style);
    }
    let checked = verify::run(chosen, |i, claim| {
        bar.set_position(i as u64);
        bar.set_message(claim.id);
    });
    bar.finish_and_clear();
    checked
}
