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
    /// List the claims (id, method, source) without checking them.
    #[arg(long, conflicts_with = "markdown")]
    list: bool,
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
    if args.list {
        return Ok(list(&chosen, args.json));
    }
    if let Some(path) = &args.markdown {
        super::output::check_writable("--markdown", path, &[])?;
    }
    let checked = with_progress(&chosen);
    if let Some(path) = &args.markdown {
        std::fs::write(path, verify::to_markdown(&checked))
            .map_err(|e| Error::InvalidInput(format!("cannot write {}: {e}", path.display())))?;
    }
    Ok(if args.json {
        verify::to_json(&checked).to_string()
    } else {
        verify::to_text(&checked)
    })
}

/// The claims without their checks: one line each (id, method, source), or
/// `{"claims": [{"id", "method", "source"}]}`.
fn list(chosen: &[&verify::Claim], json: bool) -> String {
    if json {
        let claims: Vec<serde_json::Value> = chosen
            .iter()
            .map(|c| {
                serde_json::json!({
                    "id": c.id,
                    "method": c.method.name(),
                    "source": c.source.text(),
                })
            })
            .collect();
        return serde_json::json!({ "claims": claims }).to_string();
    }
    chosen
        .iter()
        .map(|c| format!("{:<16} {:<16} {}", c.id, c.method.name(), c.source.text()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Run the checks with a progress bar on stderr (drawn only on a terminal),
/// which advances as each claim finishes and prints its id and status.
fn with_progress<'a>(chosen: &[&'a verify::Claim]) -> Vec<Checked<'a>> {
    let bar =
        ProgressBar::with_draw_target(Some(chosen.len() as u64), ProgressDrawTarget::stderr());
    if let Ok(style) =
        ProgressStyle::with_template("verify {wide_bar} {pos}/{len} claims, {elapsed}: {msg}")
    {
        bar.set_style(style);
    }
    // Redrawn every 200 ms, so the elapsed time moves during a long claim.
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    // One claim at a time, so that each is shown (id, status, seconds) as it
    // finishes.
    let mut checked = Vec::with_capacity(chosen.len());
    for (i, claim) in chosen.iter().enumerate() {
        bar.set_position(i as u64);
        bar.set_message(claim.id);
        for c in verify::run(&[*claim], |_, _| {}) {
            bar.println(format!(
                "  {:<24} {:<18} {:.2} s",
                c.claim.id,
                c.outcome.status.name(),
                c.seconds
            ));
            checked.push(c);
        }
    }
    bar.set_position(chosen.len() as u64);
    bar.finish_and_clear();
    checked
}
