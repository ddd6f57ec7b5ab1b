//! `dpdtol gof`: samples from any implementation tested against the exact
//! law ([`crate::oracle::gof`]); exit status 1 when the test rejects, so it
//! drops into any CI.

use super::applies::{scope, Scope, Subject, EVERY};
use super::args::{parse_f64, parse_seed};
use super::law::{parse_base, TargetArgs, BANDIT};
use crate::error::Result;
use crate::num::Q;
use crate::oracle::bandit::{BanditSpec, BanditTarget};
use crate::oracle::gof::{gof, GofOptions};
use crate::oracle::two_sample::homogeneity;
use crate::oracle::{bandit, io};
use crate::report::bandit_oracle::{BanditGiven, BanditGofReport, BanditTwoSampleReport};
use crate::report::gof::GofReport;
use crate::report::oracle::TargetGiven;
use crate::report::rendered;
use std::path::PathBuf;

/// Flags of `dpdtol gof`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    target: TargetArgs,
    /// The samples: .npy (integer array, sequences × rounds) or CSV (one sequence a line).
    #[arg(long)]
    samples: PathBuf,
    /// How the file numbers the actions: 1 (default, as the papers) or 0 (numpy).
    #[arg(long, default_value = "1")]
    base: String,
    /// The family-wise level of the test (Bonferroni over the chi-square tests and their rare-cell tests).
    #[arg(long, default_value = "0.001")]
    alpha: String,
    /// Also report the sample size that detects this total-variation distance from the law.
    #[arg(long)]
    tv: Option<String>,
    /// The power of that detection.
    #[arg(long, default_value = "0.9")]
    power: String,
    /// lazy-dp-ts and dp-ts only (no law: a two-sample test against dpdtol's own simulation): the simulation's seed, default 0.
    #[arg(long)]
    seed: Option<String>,
    /// Also test the samples against every named reading of the algorithm's open choices on a small grid, and say which fit: dp-se's δ, pull order, rounding and radius; ucb1's ties; dp-ucb's tree depth (1 to ⌈log₂ T⌉ + 2).
    #[arg(long)]
    explain: bool,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
}

/// Where the flags of `gof` act besides the target's.
pub(super) const SCOPES: &[Scope] = &[
    scope("samples", EVERY),
    scope("base", EVERY),
    scope("alpha", EVERY),
    scope("tv", EVERY),
    scope("power", &[TV]),
    scope("seed", &["lazy-dp-ts", "dp-ts"]),
    scope("explain", &[BANDIT]),
    scope("json", EVERY),
];

/// A run that reports the sample size detecting a distance (`--tv`): the
/// kind `--power` acts on.
const TV: &str = "--tv";

/// What the run is about, for [`super::applies::enforce`]: the target, and
/// the detection `--tv` asks for.
pub(super) fn subjects(args: &Args) -> Result<Vec<Subject>> {
    let mut subjects = vec![args.target().subject("gof", true)?];
    if args.tv.is_some() {
        subjects.push(Subject::new(TV, &[TV]));
    }
    Ok(subjects)
}

impl Args {
    /// The flags that name the target.
    pub(super) fn target(&self) -> &TargetArgs {
        &self.target
    }
}

/// Run the command; the text to print on stdout. Sets `status` to 1 when
/// the samples are rejected.
pub fn run(args: &Args, status: &mut i32) -> Result<String> {
    let base = parse_base(&args.base)?;
    let options = GofOptions {
        alpha: parse_f64("--alpha", &args.alpha)?,
        tv: args
            .tv
            .as_deref()
            .map(|t| parse_f64("--tv", t))
            .transpose()?,
        power: parse_f64("--power", &args.power)?,
        base,
        ..GofOptions::default()
    };
    let spec = args.target.spec().bandit_spec()?;
    let two_sample = spec
        .as_ref()
        .is_some_and(|(spec, _)| crate::oracle::bandit::has_two_sample_test(spec.id));
    let (text, reject) = match spec {
        Some((spec, _)) if two_sample && args.explain => {
            return Err(bandit::explain_two_sample(spec.id));
        }
        Some((spec, rewards)) if two_sample => {
            two_sample_gof(args, &spec, &rewards, base, &options)?
        }
        Some((spec, rewards)) => bandit_gof(args, spec, rewards, base, &options)?,
        None => full_information_gof(args, base, &options)?,
    };
    if reject {
        *status = 1;
    }
    Ok(text)
}

/// The test of a bandit algorithm's pull sequences: the text and whether
/// they are rejected.
fn bandit_gof(
    args: &Args,
    spec: BanditSpec,
    rewards: Vec<Vec<Q>>,
    base: u32,
    options: &GofOptions,
) -> Result<(String, bool)> {
    let force = args.target.spec().force;
    let target = BanditTarget::new(spec.clone(), rewards.clone())?;
    let samples = io::read_samples(&args.samples, base)?;
    let law = target.law(force)?;
    let outcome = bandit::gof(&law, &samples, options)?;
    let mut report = BanditGofReport::new(
        BanditGiven::of(&args.target.spec()),
        &law,
        &args.samples,
        base,
        options,
        &outcome,
    );
    if args.explain {
        let explanation = bandit::explain(&spec, &rewards, &samples, options, force)?;
        report = report.with_explain(explanation);
    }
    Ok((rendered(&report, args.json), report.reject))
}

/// The two-sample test of an algorithm without a law against dpdtol's
/// own simulation, as many sequences as the file holds: the text and
/// whether the samples are rejected.
fn two_sample_gof(
    args: &Args,
    spec: &BanditSpec,
    rewards: &[Vec<Q>],
    base: u32,
    options: &GofOptions,
) -> Result<(String, bool)> {
    let seed = args.seed.as_deref().map_or(Ok(0), parse_seed)?;
    let samples = io::read_samples(&args.samples, base)?;
    let force = args.target.spec().force;
    let reference = bandit::simulate(spec, rewards, samples.rows(), seed, force)?;
    let outcome = homogeneity(&reference, &samples, options)?;
    let report = BanditTwoSampleReport::new(
        BanditGiven::of(&args.target.spec()),
        &args.samples,
        base,
        seed,
        options,
        &outcome,
    );
    Ok((rendered(&report, args.json), report.reject))
}

/// The test of an online algorithm's or a selection's samples: the text
/// and whether they are rejected.
fn full_information_gof(args: &Args, base: u32, options: &GofOptions) -> Result<(String, bool)> {
    let target = args.target.spec().build()?;
    let samples = io::read_samples(&args.samples, base)?;
    // Expected counts are f64: 20 certain digits are far more than enough.
    let law = args.target.spec().law(&target, 20)?;
    let outcome = gof(&law, &samples, options)?;
    let report = GofReport::new(
        TargetGiven::of(&args.target.spec()),
        &law,
        &args.samples,
        base,
        options,
        &outcome,
    );
    Ok((rendered(&report, args.json), report.reject))
}
