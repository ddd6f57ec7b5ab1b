//! `dpdtol verify`: check the papers' claims of the registry in `proofs/`
//! (all, or those `--claim` names), print a table or one JSON object, and
//! optionally write the markdown report.

use crate::error::{Error, Result};
use crate::proofs::{adversaries, registry};
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
    /// Copy the table of printed errors into this file (README.md) between
    /// its markers: from the report `--markdown` writes, or without it from
    /// proofs/REPORT.md (then no claim is run).
    #[arg(long)]
    readme_table: Option<PathBuf>,
}

fn read(path: &std::path::Path) -> Result<String> {
    std::fs::read_to_string(path)
        .map_err(|e| Error::InvalidInput(format!("cannot read {}: {e}", path.display())))
}

fn write(path: &std::path::Path, text: &str) -> Result<()> {
    std::fs::write(path, text)
        .map_err(|e| Error::InvalidInput(format!("cannot write {}: {e}", path.display())))
}

/// Splice the errors table of `report` into the file `readme`.
fn readme_table(readme: &std::path::Path, report: &str) -> Result<String> {
    write(readme, &verify::splice_errors(&read(readme)?, report)?)?;
    Ok(format!(
        "{}: the table of printed errors is now the report's",
        readme.display()
    ))
}

/// Run the command; the text to print on stdout.
pub fn run(args: &Args) -> Result<String> {
    if let (Some(readme), None) = (&args.readme_table, &args.markdown) {
        return readme_table(readme, &read(std::path::Path::new("proofs/REPORT.md"))?);
    }
    let registry = registry();
    let chosen = verify::select(&registry, args.claim.as_deref())?;
    let checked = with_progress(&chosen);
    if let Some(path) = &args.markdown {
        let markdown = verify::to_markdown(&checked);
        write(path, &markdown)?;
        if let Some(readme) = &args.readme_table {
            readme_table(readme, &markdown)?;
        }
    }
    Ok(if args.json {
        verify::to_json(&checked).to_string()
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
    let checked = verify::run_searched(chosen, &adversaries(), |i, claim| {
        bar.set_position(i as u64);
        bar.set_message(claim.id);
    });
    bar.finish_and_clear();
    checked
}
