//! `dpdtol verify`: check the papers' claims of the registry in `proofs/`
//! (all, or those `--claim` names), print a table or one JSON object, and
//! optionally write the markdown report.

use crate::error::{Error, Result};
use crate::proofs::{adversaries, coverage::coverage, planted, registry};
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
    /// Copy the table of printed errors into this file (README.md) between
    /// its markers: from the report `--markdown` writes, or without it from
    /// proofs/REPORT.md (then no claim is run).
    #[arg(long)]
    readme_table: Option<PathBuf>,
    /// Check only part I of N (1 ≤ I ≤ N) of the registry (slow claims dealt
    /// round-robin first); with --json, the output is a merge input.
    #[arg(long, conflicts_with_all = ["claim", "list", "merge"])]
    shard: Option<String>,
    /// Instead of checking: merge the --json outputs of all the shards of one
    /// run (comma-separated regular files; each is validated against this
    /// registry), then print and write as a whole run does.
    #[arg(long, value_delimiter = ',', conflicts_with_all = ["claim", "list"])]
    merge: Vec<PathBuf>,
}

fn read(path: &std::path::Path) -> Result<String> {
    std::fs::read_to_string(path)
        .map_err(|e| Error::InvalidInput(format!("cannot read {}: {e}", path.display())))
}

fn write(path: &std::path::Path, text: &str) -> Result<()> {
    std::fs::write(path, text).map_err(|e| Error::Write(format!("{}: {e}", path.display())))
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
    let mut chosen = verify::select(&registry, args.claim.as_deref())?;
    if args.list {
        return Ok(list(&chosen, args.json));
    }
    let shard = match &args.shard {
        Some(text) => {
            let shard: crate::privacy::Shard = text.parse()?;
            chosen = verify::shard_of(&chosen, shard.index, shard.count);
            Some(shard)
        }
        None => None,
    };
    if let Some(path) = &args.markdown {
        super::output::check_writable("--markdown", path, &[])?;
    }
    let checked = if args.merge.is_empty() {
        with_progress(&chosen)
    } else {
        merged(&chosen, &args.merge)?
    };
    if let Some(path) = &args.markdown {
        let markdown = verify::to_markdown(&checked, &planted(), &coverage());
        write(path, &markdown)?;
        if let Some(readme) = &args.readme_table {
            readme_table(readme, &markdown)?;
        }
    }
    Ok(if args.json {
        let mut value = verify::to_json(&checked);
        if let Some(summary) = value.get_mut("summary").and_then(|s| s.as_object_mut()) {
            summary.insert(
                "coverage".into(),
                verify::coverage::counts_json(&coverage(), &checked),
            );
        }
        if let (Some(shard), Some(map)) = (shard, value.as_object_mut()) {
            map.insert(
                "shard".into(),
                serde_json::json!({ "index": shard.index, "count": shard.count }),
            );
        }
        super::report::versioned(value).to_string()
    } else {
        verify::to_text(&checked)
    })
}

/// The outcomes of the shards whose `--json` outputs are `paths`
/// ([`verify::merge_shards`]; each input read as `privacy --merge` reads
/// its inputs).
fn merged<'a>(claims: &[&'a verify::Claim], paths: &[PathBuf]) -> Result<Vec<Checked<'a>>> {
    let values = paths
        .iter()
        .map(|path| crate::report::merge::read_json(path))
        .collect::<Result<Vec<serde_json::Value>>>()?;
    verify::merge_shards(claims, &values)
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
    let adversaries = adversaries();
    let mut checked = Vec::with_capacity(chosen.len());
    for (i, claim) in chosen.iter().enumerate() {
        bar.set_position(i as u64);
        bar.set_message(claim.id);
        for c in verify::run_searched(&[*claim], &adversaries, |_, _| {}) {
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
