//! `dpdtol sample`: seeded reference samples of a target's action sequences
//! ([`crate::oracle::sample`]), written as CSV or NPY.

use super::applies::{scope, Scope, EVERY};
use super::law::{parse_base, TargetArgs};
use crate::error::{Error, Result};
use crate::oracle::{bandit, io, sample};
use crate::report::bandit_oracle::{BanditGiven, BanditSampleReport};
use crate::report::oracle::TargetGiven;
use crate::report::rendered;
use crate::report::sample::SampleReport;
use std::path::PathBuf;

/// Flags of `dpdtol sample`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    target: TargetArgs,
    /// The number of sequences.
    #[arg(long)]
    n: String,
    /// The seed: sequence i is drawn from ChaCha8 seeded by it, stream i.
    #[arg(long)]
    seed: String,
    /// The output file: .npy (numpy, int32) or anything else for CSV (one sequence a line).
    #[arg(long)]
    out: PathBuf,
    /// How the file numbers the actions: 1 (default, as the papers) or 0 (numpy).
    #[arg(long, default_value = "1")]
    base: String,
    /// Print one JSON object instead of a line.
    #[arg(long)]
    json: bool,
}

/// Where the flags of `sample` act besides the target's.
pub(super) const SCOPES: &[Scope] = &[
    scope("n", EVERY),
    scope("seed", EVERY),
    scope("out", EVERY),
    scope("base", EVERY),
    scope("json", EVERY),
];

impl Args {
    /// The flags that name the target.
    pub(super) fn target(&self) -> &TargetArgs {
        &self.target
    }
}

/// Run the command; the text to print on stdout.
pub fn run(args: &Args) -> Result<String> {
    let named = args.target.spec();
    // A path that cannot be written is refused before the sampling.
    super::output::check_writable("--out", &args.out, &[])?;
    let base = parse_base(&args.base)?;
    let n: usize =
        args.n.trim().parse().map_err(|_| {
            Error::Parse(format!("--n expects a positive integer, got '{}'", args.n))
        })?;
    let seed = super::args::parse_seed(&args.seed)?;
    if let Some(target) = named.bandit()? {
        let force = named.force;
        sample::check_values(n, target.horizon(), target.arms(), force)?;
        let law = target.law(force)?;
        let samples = bandit::sample(&law, n, seed, force)?;
        io::write_samples(&args.out, &samples, base)?;
        let report =
            BanditSampleReport::new(BanditGiven::of(&named), &law, n, seed, &args.out, base);
        return Ok(rendered(&report, args.json));
    }
    let target = named.build()?;
    sample::check_size(&target, n, named.force)?;
    // The reference samples follow the printed law, certified to 40 digits.
    let law = named.law(&target, 40)?;
    let samples = sample::sample(&law, n, seed)?;
    io::write_samples(&args.out, &samples, base)?;
    super::output::wrote(&args.out);
    let report = SampleReport::new(TargetGiven::of(&named), &target, n, seed, &args.out, base);
    Ok(rendered(&report, args.json))
}
