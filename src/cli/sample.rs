//! `dpdtol sample`: seeded reference samples of a target's action sequences
//! ([`crate::oracle::sample`]), written as CSV or NPY.

use super::law::{parse_base, TargetArgs, CONVENTIONS};
use super::report::SCHEMA_VERSION;
use crate::error::{Error, Result};
use crate::oracle::{io, sample};
use serde_json::json;
use std::path::PathBuf;

/// The most values (sequences × rounds) `sample` writes without `--force`:
/// 2·10⁸, 800 MB in memory as 32-bit actions.
const MAX_VALUES: u128 = 200_000_000;

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

/// Run the command; the text to print on stdout.
pub fn run(args: &Args) -> Result<String> {
    // A path that cannot be written is refused before the sampling.
    super::output::check_writable("--out", &args.out, &[])?;
    let base = parse_base(&args.base)?;
    let n: usize =
        args.n.trim().parse().map_err(|_| {
            Error::Parse(format!("--n expects a positive integer, got '{}'", args.n))
        })?;
    let seed: u64 = args.seed.trim().parse().map_err(|_| {
        Error::Parse(format!(
            "--seed expects an integer in 0..2^64, got '{}'",
            args.seed
        ))
    })?;
    let target = args.target.build()?;
    let values = n as u128 * target.horizon() as u128;
    if values > MAX_VALUES && !args.target.force_given() {
        return Err(Error::TooLarge(format!(
            "{n} sequences of {} rounds are {values} values (limit {MAX_VALUES}); use --force",
            target.horizon()
        )));
    }
    // The reference samples follow the printed law, certified to 40 digits.
    let law = args.target.law(&target, 40)?;
    let samples = sample::sample(&law, n, seed)?;
    io::write_samples(&args.out, &samples, base)?;
    let format = if args
        .out
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("npy"))
    {
        "npy"
    } else {
        "csv"
    };
    let (described, target_json) = args.target.describe();
    if args.json {
        return Ok(json!({
            "schema_version": SCHEMA_VERSION,
            "command": "sample",
            "target": target_json,
            "conventions": CONVENTIONS,
            "base": base,
            "n": n,
            "horizon": target.horizon().to_string(),
            "actions": target.actions(),
            "seed": seed,
            "rng": "sequence i (from 0) is drawn from ChaCha8Rng::seed_from_u64(seed) with set_stream(i)",
            "kind": "approximate",
            "out": args.out.display().to_string(),
            "format": format,
        })
        .to_string());
    }
    Ok(format!(
        "{described}: wrote {n} sequences of {} actions ({format}, actions from {base}, seed {seed}) to {}",
        target.horizon(),
        args.out.display()
    ))
}
