//! `dpdtol verify`: check the papers' claims of the registry in `proofs/`
//! (all, or those `--claim` names), print a table or one JSON object, and
//! optionally write the markdown report and the errata.

use super::applies::{scope, Scope, EVERY};
use crate::error::{Error, Result};
use crate::proofs::{adversaries, coverage::coverage, errata, planted, registry, withdrawn};
use crate::report::rendered;
use crate::report::verify::ShardKeys;
use crate::verify::{self, errata as erratum};
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
    /// Print the errata (the printed errors by root cause, with severity and
    /// consequence) instead of the claims; with --json, add the keys errata,
    /// withdrawn and summary.errata. Without --claim, --merge or --markdown,
    /// only the claims the errata name are run.
    #[arg(long, conflicts_with_all = ["list", "shard"])]
    errata: bool,
    /// Also write the errata in markdown to this file (proofs/ERRATA.md is
    /// made so).
    #[arg(long, conflicts_with_all = ["list", "shard"])]
    markdown_errata: Option<PathBuf>,
    /// Copy the errata summary (counts by severity, the results false as
    /// printed) into this file (README.md) between its markers: from the
    /// errata `--markdown-errata` writes, or without it from
    /// proofs/ERRATA.md (and alone, with no --markdown, --errata or --json,
    /// no claim is run).
    #[arg(long, conflicts_with_all = ["list", "shard"])]
    readme_table: Option<PathBuf>,
    /// Exit with status 1 on any refuted claim, the papers' registered errata
    /// included (without it: 1 only when a refutation is in no erratum, not
    /// withdrawn and not planted, or a registered one is no longer refuted).
    #[arg(long)]
    strict: bool,
    /// Check only part I of N (1 ≤ I ≤ N) of the registry (slow claims dealt
    /// round-robin first); with --json, the output is a merge input.
    #[arg(long, conflicts_with_all = ["claim", "list", "merge"])]
    shard: Option<String>,
    /// Instead of checking: merge the --json outputs of all the shards of one
    /// run (comma-separated regular files; each is validated against this
    /// registry), then print and write as a whole run does.
    #[arg(long, value_delimiter = ',', conflicts_with_all = ["claim", "list"])]
    merge: Vec<PathBuf>,
    /// --merge only: the claims of each shard checked again and compared with what the shard reports (default 4; all: every claim of every shard; 0: none, and the report says so).
    #[arg(long, allow_hyphen_values = true)]
    spot_check: Option<String>,
    /// --merge only: the seed of the claims checked again (default: drawn from the operating system's randomness; the report prints it).
    #[arg(long, allow_hyphen_values = true)]
    spot_check_seed: Option<String>,
}

/// The largest Markdown file `verify` reads (the README it splices the
/// errata table into, the committed errata).
const MARKDOWN_LIMIT: u64 = 16 << 20;

fn read(path: &std::path::Path) -> Result<String> {
    let bytes = crate::num::read_bounded(path, MARKDOWN_LIMIT, "Markdown files (16 MiB)")?;
    String::from_utf8(bytes)
        .map_err(|_| Error::InvalidInput(format!("{} is not UTF-8 text", path.display())))
}

fn write(path: &std::path::Path, text: &str) -> Result<()> {
    super::output::write_file(path, text)
}

/// Splice the errata summary of `errata_md` into the file `readme`.
fn readme_table(readme: &std::path::Path, errata_md: &str) -> Result<String> {
    super::output::check_writable("--readme-table", readme, &[])?;
    write(readme, &verify::splice_errata(&read(readme)?, errata_md)?)?;
    Ok(format!(
        "{}: the errata summary is now proofs/ERRATA.md's",
        readme.display()
    ))
}

/// Where the flags of `verify` act ([`super::applies`]): every run (clap
/// refuses the pairs that exclude each other).
pub(super) const SCOPES: &[Scope] = &[
    scope("claim", EVERY),
    scope("list", EVERY),
    scope("json", EVERY),
    scope("markdown", EVERY),
    scope("errata", EVERY),
    scope("markdown_errata", EVERY),
    scope("readme_table", EVERY),
    scope("strict", EVERY),
    scope("shard", EVERY),
    scope("merge", EVERY),
    scope("spot_check", EVERY),
    scope("spot_check_seed", EVERY),
];

/// Run the command; the text to print on stdout, and whether the exit
/// status is 1: a claim checked is refuted that is not a registered
/// refutation, or a registered one is not refuted
/// ([`erratum::departures`], each named on a line after the table); with
/// `--strict`, any claim checked is refuted.
pub fn run(args: &Args) -> Result<(String, bool)> {
    let committed_errata = || read(std::path::Path::new("proofs/ERRATA.md"));
    if let (Some(readme), None, None, false, false) = (
        &args.readme_table,
        &args.markdown_errata,
        &args.markdown,
        args.errata,
        args.json,
    ) {
        return Ok((readme_table(readme, &committed_errata()?)?, false));
    }
    let registry = registry();
    let mut chosen = verify::select(&registry, args.claim.as_deref())?;
    let wants_errata = args.errata || args.markdown_errata.is_some();
    if wants_errata && args.claim.is_none() && args.merge.is_empty() && args.markdown.is_none() {
        chosen = crate::proofs::errata_claims(&registry);
    }
    if args.list {
        return Ok((rendered(&verify::list(&chosen), args.json), false));
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
    if let Some(path) = &args.markdown_errata {
        super::output::check_writable("--markdown-errata", path, &[])?;
    }
    if let Some(path) = &args.readme_table {
        super::output::check_writable("--readme-table", path, &[])?;
    }
    let spot_flags = args.spot_check.is_some() || args.spot_check_seed.is_some();
    if spot_flags && args.merge.is_empty() {
        return Err(Error::InvalidInput(
            "--spot-check and --spot-check-seed apply to --merge only".into(),
        ));
    }
    let (checked, spot_check) = if args.merge.is_empty() {
        (verify::progress::run(&chosen, &adversaries()), None)
    } else {
        let policy =
            super::args::spot_policy(args.spot_check.as_deref(), args.spot_check_seed.as_deref())?;
        let (checked, spot) = crate::proofs::merged(&chosen, &args.merge, policy)?;
        (checked, Some(spot))
    };
    let (all_errata, withdrawals) = (errata(), withdrawn());
    let entries = if wants_errata {
        erratum::collate(&all_errata, &withdrawals, &planted(), &checked)?
    } else {
        Vec::new()
    };
    if let Some(path) = &args.markdown {
        let markdown = verify::to_markdown(&checked, &planted(), &withdrawals, &coverage());
        write(path, &markdown)?;
    }
    let errata_md = match &args.markdown_errata {
        Some(path) => {
            let markdown = erratum::to_markdown(&entries, &withdrawals);
            write(path, &markdown)?;
            Some(markdown)
        }
        None => None,
    };
    if let Some(readme) = &args.readme_table {
        let source = match errata_md {
            Some(markdown) => markdown,
            None => committed_errata()?,
        };
        readme_table(readme, &source)?;
    }
    let departures = erratum::departures(&all_errata, &withdrawals, &planted(), &checked);
    let failed = if args.strict {
        checked
            .iter()
            .any(|c| c.outcome.status == verify::Status::Refuted)
    } else {
        !departures.is_empty()
    };
    let text = if args.json {
        let mut report = crate::proofs::report(&checked, args.errata)?;
        report.shard = shard.map(|s| ShardKeys {
            count: s.count,
            index: s.index,
        });
        report.spot_check = spot_check;
        crate::report::to_json(&report)
    } else {
        let text = if args.errata {
            erratum::to_text(&entries, &withdrawals)
        } else {
            verify::to_text(&checked)
        };
        let text = match &spot_check {
            Some(spot) => format!("{}\n{}", text.trim_end_matches('\n'), spot.line()),
            None => text,
        };
        departures.iter().fold(text, |text, d| {
            format!("{}\nnot as registered: {d}", text.trim_end_matches('\n'))
        })
    };
    Ok((text, failed))
}
