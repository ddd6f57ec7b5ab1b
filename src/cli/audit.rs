//! `dpdtol audit`: a lower confidence bound on the ε of a black-box
//! sampler from its outputs on two neighbouring inputs
//! ([`crate::oracle::audit`]), beside dpdtol's exact ratio for its own
//! algorithm when the target and both inputs are given.

use super::applies::{scope, Scope, EVERY};
use super::law::{parse_base, TargetArgs, BANDIT, MECHANISM, ONLINE};
use crate::error::{Error, Result};
use crate::oracle::audit::{audit, bandit_exact, check_widths, exact_ratios, AuditOptions};
use crate::oracle::bandit::BanditTarget;
use crate::oracle::io;
use crate::report::audit::{AuditReport, ClaimSource};
use crate::report::bandit_oracle::BanditGiven;
use crate::report::oracle::TargetGiven;
use crate::report::{rendered, DIGITS};
use std::path::PathBuf;

/// Flags of `dpdtol audit`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Samples of the sampler's outputs on the input x: .npy or CSV, one sequence a row.
    #[arg(long)]
    first: PathBuf,
    /// Samples of its outputs on the neighbour x'.
    #[arg(long)]
    second: PathBuf,
    /// How the files number the actions: 1 (default) or 0.
    #[arg(long, default_value = "1")]
    base: String,
    /// The confidence level of the lower bound.
    #[arg(long, default_value = "0.95")]
    confidence: String,
    /// Optional: dpdtol's own algorithm (or mechanism) on x, to print its exact ratio beside the bound.
    #[command(flatten)]
    target: TargetArgs,
    /// With --algorithm: the loss file (bandit algorithm: the reward table) of the neighbour x'.
    #[arg(long)]
    neighbour_file: Option<PathBuf>,
    /// With --mechanism: the neighbour's losses, comma-separated.
    #[arg(long, allow_hyphen_values = true)]
    neighbour: Option<String>,
    /// The ε claimed for the sampler, exactly (default: the target's --epsilon): exit status 1 when the lower confidence bound exceeds it.
    #[arg(long, allow_hyphen_values = true)]
    claimed_epsilon: Option<String>,
    /// Print one JSON object instead of a paragraph.
    #[arg(long)]
    json: bool,
}

/// Where the flags of `audit` act besides the target's: the neighbour is
/// that of the target.
pub(super) const SCOPES: &[Scope] = &[
    scope("first", EVERY),
    scope("second", EVERY),
    scope("base", EVERY),
    scope("confidence", EVERY),
    scope("neighbour_file", &[ONLINE, BANDIT]),
    scope("neighbour", &[MECHANISM]),
    scope("claimed_epsilon", EVERY),
    scope("json", EVERY),
];

impl Args {
    /// The flags that name the target.
    pub(super) fn target(&self) -> &TargetArgs {
        &self.target
    }
}

/// Run the command; the text to print on stdout and whether the bound
/// exceeds the claimed ε.
pub fn run(args: &Args) -> Result<(String, bool)> {
    let named = args.target.spec();
    let base = parse_base(&args.base)?;
    let confidence = super::args::parse_f64("--confidence", &args.confidence)?;
    let claimed = ClaimSource::resolve(args.claimed_epsilon.as_deref(), named.epsilon.as_deref())?;
    let first = io::read_samples(&args.first, base)?;
    let second = io::read_samples(&args.second, base)?;
    let options = AuditOptions {
        confidence,
        ..AuditOptions::default()
    };
    let outcome = audit(&first, &second, &options)?;
    let mut probabilities = None;
    let bandit = named.bandit_spec()?;
    let exact = if let Some((spec, rewards)) = bandit.clone() {
        let file = args.neighbour_file.as_deref().ok_or_else(|| {
            Error::InvalidInput(
                "the neighbour is required: --neighbour-file (its reward table)".into(),
            )
        })?;
        let x = BanditTarget::new(spec.clone(), rewards)?;
        let y = BanditTarget::new(spec, io::read_rewards(file)?)?;
        let force = named.force;
        let exact = bandit_exact(&x, &y, [&first, &second], &outcome, force)?;
        probabilities = Some(exact.probabilities);
        Some((exact.event, exact.max))
    } else if named.given() {
        let x = named.build()?;
        let y = named
            .build_on(args.neighbour_file.as_deref(), args.neighbour.as_deref())
            .map_err(|e| match e {
                Error::InvalidInput(s) if s.contains("is required") => Error::InvalidInput(
                    "the neighbour is required: --neighbour-file (algorithm) or --neighbour (mechanism)"
                        .into(),
                ),
                e => e,
            })?;
        x.check_neighbour(&y)?;
        check_widths(&first, &second, x.horizon())?;
        let digits = DIGITS as u32 + 2;
        let (lx, ly) = (named.law(&x, digits)?, named.law(&y, digits)?);
        Some(exact_ratios(&lx, &ly, x.actions(), &outcome)?)
    } else {
        None
    };
    let given = (named.given() && bandit.is_none()).then(|| TargetGiven::of(&named));
    let mut report = AuditReport::new(given, &outcome, exact.as_ref(), base);
    if let Some([px, py]) = &probabilities {
        report = report.with_bandit(BanditGiven::of(&named), [px, py]);
    }
    if let Some((claimed, from)) = &claimed {
        report = report.with_claim(&outcome, claimed, *from);
    }
    Ok((rendered(&report, args.json), report.violated))
}
