//! `dpdtol law`: the exact (else certified) law of an online algorithm's
//! action sequence on a given loss sequence — its schedule and each choice's
//! law — or of one selection (`--mechanism`), and with `--sequence` the
//! probability of one action sequence. The flags that name the target are
//! shared by `sample`, `gof` and `audit` ([`TargetArgs`]).

use super::applies::{scope, Scope, Subject, EVERY};
use super::args::{parse_bit, parse_count, parse_lengths};
use crate::algorithm::{AlgorithmId, BestOptions, BestSequenceLaw, Config, LawParameter};
use crate::bandit::policy::BanditId;
use crate::error::{Error, Result};
use crate::mechanism::{Noise, Scale};
use crate::num::{parse_rational, parse_rational_list, Q};
use crate::oracle::bandit::{BanditSpec, BanditTarget};
use crate::oracle::{io, Target};
use crate::progress::{with_progress, Task};
use crate::report::bandit_oracle::{BanditGiven, BanditLawReport};
use crate::report::law::LawReport;
use crate::report::oracle::{AlgorithmGiven, MechanismGiven, TargetGiven};
use crate::report::{rendered, DIGITS};
use num_traits::One;
use std::path::{Path, PathBuf};

/// The flags that name what the oracle answers about: an online algorithm
/// on a loss file, or one selection on a loss vector.
#[derive(Debug, clap::Args)]
pub struct TargetArgs {
    /// The online algorithm: ftl, naive-ftnl, hu-rnm-ftnl, wu-wang or prefix-softmax; or a bandit algorithm on --rewards-file: anytime-lazy-ucb, dp-se, hybrid-ucb or ucb1.
    #[arg(long, conflicts_with = "mechanism")]
    algorithm: Option<String>,
    /// The number of actions K ≥ 2 (default: the width of the loss file).
    #[arg(long, allow_hyphen_values = true)]
    actions: Option<String>,
    /// The privacy parameter ε > 0 the paper's default scales derive from, exactly: 1, 0.5, 1/2.
    #[arg(long, allow_hyphen_values = true)]
    epsilon: Option<String>,
    /// [required with wu-wang] wu-wang only: the noise, laplace, exponential or gumbel.
    #[arg(long)]
    noise: Option<String>,
    /// [required with wu-wang] wu-wang only: Bernoulli resampling of the losses, 0 or 1.
    #[arg(long)]
    resample: Option<String>,
    /// Overrides the paper's noise scale (for prefix-softmax: the temperature 1/η), exactly.
    #[arg(long, allow_hyphen_values = true)]
    noise_scale: Option<String>,
    /// The loss sequence: CSV (one round a line, K losses) or JSON (an array of rounds), exact decimals or p/q.
    #[arg(long)]
    losses_file: Option<PathBuf>,
    /// Instead of --algorithm: one report-noisy-max selection with this noise, gumbel, exponential or laplace.
    #[arg(long)]
    mechanism: Option<String>,
    /// --mechanism only: the noise scale β > 0, exactly.
    #[arg(long, allow_hyphen_values = true)]
    scale: Option<String>,
    /// --mechanism only: the losses, comma-separated: 0,1/2,1.
    #[arg(long, allow_hyphen_values = true)]
    losses: Option<String>,
    /// Bandit algorithms: the reward table, CSV (one round a line, K rewards in [0, 1]) or JSON (an array of rounds), exact decimals or p/q; the arm pulled in round t receives row t's entry.
    #[arg(long, conflicts_with_all = ["losses_file", "mechanism"])]
    rewards_file: Option<PathBuf>,
    /// dp-se only: the epoch lengths R_1,R_2,… (the last repeats).
    #[arg(long)]
    epoch_length: Option<String>,
    /// hybrid-ucb only: the tree p-sums' per-level noise scale, exactly.
    #[arg(long, allow_hyphen_values = true)]
    tree_scale: Option<String>,
    /// hybrid-ucb only: a factor on both noise scales, exactly.
    #[arg(long, allow_hyphen_values = true)]
    scale_factor: Option<String>,
    /// anytime-lazy-ucb and hybrid-ucb: the constant 3 of the bonus; ucb1: its constant 2; exactly.
    #[arg(long, allow_hyphen_values = true)]
    bonus: Option<String>,
    /// Do work over the limits: a law that enumerates more than 2^16 one-shot selection laws or bandit pull sequences, a sample of more than 2·10^8 values.
    #[arg(long)]
    force: bool,
}

/// A run about an online algorithm.
pub(super) const ONLINE: &str = "online algorithms";
/// A run about one selection.
pub(super) const MECHANISM: &str = "--mechanism";
/// The online algorithms that add noise (all but ftl).
pub(super) const NOISY: &[&str] = &["naive-ftnl", "hu-rnm-ftnl", "wu-wang", "prefix-softmax"];
/// A run about a bandit algorithm on a reward table.
pub(super) const BANDIT: &str = "bandit algorithms";

/// Where the target flags act ([`super::applies`]).
pub(super) const TARGET_SCOPES: &[Scope] = &[
    scope("algorithm", EVERY),
    scope("mechanism", EVERY),
    scope("actions", &[ONLINE]),
    scope(
        "epsilon",
        &[
            ONLINE,
            "anytime-lazy-ucb",
            "dp-se",
            "hybrid-ucb",
            "lazy-dp-ts",
        ],
    ),
    scope("noise", &["wu-wang"]),
    scope("resample", &["wu-wang"]),
    scope(
        "noise_scale",
        &[
            "naive-ftnl",
            "hu-rnm-ftnl",
            "wu-wang",
            "prefix-softmax",
            "anytime-lazy-ucb",
            "dp-se",
            "hybrid-ucb",
            "lazy-dp-ts",
        ],
    ),
    scope("losses_file", &[ONLINE]),
    scope("rewards_file", &[BANDIT]),
    scope("epoch_length", &["dp-se"]),
    scope("tree_scale", &["hybrid-ucb"]),
    scope("scale_factor", &["hybrid-ucb"]),
    scope(
        "bonus",
        &["anytime-lazy-ucb", "hybrid-ucb", "ucb1", "lazy-dp-ts"],
    ),
    scope("scale", &[MECHANISM]),
    scope("losses", &[MECHANISM]),
    scope("force", EVERY),
];

/// The base actions are numbered from in files and on the command line.
pub(super) fn parse_base(text: &str) -> Result<u32> {
    parse_bit("--base", text)
}

impl TargetArgs {
    /// Whether `--force` was given.
    pub(super) fn force_given(&self) -> bool {
        self.force
    }

    /// What the flags name, for [`super::applies::enforce`]: an online
    /// algorithm, one selection, or (`required` false) nothing.
    pub(super) fn subject(&self, required: bool) -> Result<Subject> {
        if let Some(noise) = &self.mechanism {
            return Ok(Subject::new(format!("--mechanism {noise}"), &[MECHANISM]));
        }
        match &self.algorithm {
            Some(text) => {
                if let Ok(id) = text.parse::<BanditId>() {
                    return Ok(Subject::new(id.name(), &[BANDIT, id.name()]));
                }
                let id: AlgorithmId = text.parse()?;
                Ok(Subject::new(id.name(), &[ONLINE, id.name()]))
            }
            None if required => Err(Error::InvalidInput(
                "--algorithm or --mechanism is required".into(),
            )),
            None => Ok(Subject::new(
                "a black-box sampler (no --algorithm or --mechanism)",
                &[],
            )),
        }
    }

    /// Whether the flags name a target at all.
    pub(super) fn given(&self) -> bool {
        self.algorithm.is_some() || self.mechanism.is_some()
    }

    /// The target the flags name.
    pub(super) fn build(&self) -> Result<Target> {
        self.build_on(self.losses_file.as_deref(), self.losses.as_deref())
    }

    /// The bandit algorithm on its reward table the flags name, when
    /// `--algorithm` is a bandit algorithm's id ([`crate::oracle::bandit`]).
    pub(super) fn bandit(&self) -> Result<Option<BanditTarget>> {
        self.bandit_spec()?
            .map(|(spec, rewards)| BanditTarget::new(spec, rewards))
            .transpose()
    }

    /// The bandit algorithm and the reward table the flags name, when
    /// `--algorithm` is a bandit algorithm's id.
    pub(super) fn bandit_spec(&self) -> Result<Option<(BanditSpec, Vec<Vec<Q>>)>> {
        let Some(id) = self
            .algorithm
            .as_deref()
            .and_then(|a| a.parse::<BanditId>().ok())
        else {
            return Ok(None);
        };
        let exact = |text: &Option<String>| text.as_deref().map(parse_rational).transpose();
        let epsilon = match (self.epsilon.as_deref(), id.is_private()) {
            (Some(e), _) => parse_rational(e)?,
            // Not read by a non-private algorithm (the flag table refuses
            // --epsilon for one).
            (None, false) => Q::one(),
            (None, true) => {
                return Err(Error::InvalidInput(format!(
                    "--epsilon is required with --algorithm {id}"
                )))
            }
        };
        let spec = BanditSpec {
            noise_scale: exact(&self.noise_scale)?,
            epoch_lengths: self
                .epoch_length
                .as_deref()
                .map(parse_lengths)
                .transpose()?,
            tree_scale: exact(&self.tree_scale)?,
            scale_factor: exact(&self.scale_factor)?,
            bonus: exact(&self.bonus)?,
            ..BanditSpec::new(id, epsilon)
        };
        let file = self.rewards_file.as_deref().ok_or_else(|| {
            Error::InvalidInput(format!("--rewards-file is required with --algorithm {id}"))
        })?;
        Ok(Some((spec, io::read_rewards(file)?)))
    }

    /// The bandit target as given.
    pub(super) fn describe_bandit(&self) -> BanditGiven {
        BanditGiven {
            algorithm: self.algorithm.clone().unwrap_or_else(|| "?".into()),
            bonus: self.bonus.clone(),
            epoch_length: self.epoch_length.clone(),
            epsilon: self.epsilon.clone(),
            noise_scale: self.noise_scale.clone(),
            rewards_file: self.rewards_file.as_ref().map(|p| p.display().to_string()),
            scale_factor: self.scale_factor.clone(),
            tree_scale: self.tree_scale.clone(),
        }
    }

    /// The same target on other losses: a loss file for an algorithm, a
    /// comma-separated list for a mechanism.
    pub(super) fn build_on(&self, file: Option<&Path>, list: Option<&str>) -> Result<Target> {
        let missing = |flag: &str, with: &str| {
            Error::InvalidInput(format!("{flag} is required with --{with}"))
        };
        if let Some(noise) = &self.mechanism {
            let noise: Noise = noise.parse()?;
            let scale = Scale::beta(parse_rational(
                self.scale
                    .as_deref()
                    .ok_or_else(|| missing("--scale", "mechanism"))?,
            )?)?;
            let losses =
                parse_rational_list(list.ok_or_else(|| missing("--losses", "mechanism"))?)?;
            return Target::mechanism(noise, scale, losses);
        }
        let id: AlgorithmId = self
            .algorithm
            .as_deref()
            .ok_or_else(|| Error::InvalidInput("--algorithm or --mechanism is required".into()))?
            .parse()?;
        id.require_law_parameters(|p| match p {
            LawParameter::Noise if self.noise.is_none() => {
                Some("--noise laplace|exponential|gumbel")
            }
            LawParameter::Resample if self.resample.is_none() => Some("--resample 0|1"),
            _ => None,
        })?;
        let losses = io::read_losses(file.ok_or_else(|| missing("--losses-file", "algorithm"))?)?;
        let width = losses.first().map_or(0, Vec::len);
        let actions = match &self.actions {
            Some(text) => parse_count("--actions", text)?,
            None => width,
        };
        let resample = match &self.resample {
            Some(text) => parse_bit("--resample", text)? == 1,
            None => false,
        };
        let config = Config {
            id,
            actions,
            epsilon: parse_rational(
                self.epsilon
                    .as_deref()
                    .ok_or_else(|| missing("--epsilon", "algorithm"))?,
            )?,
            noise: self.noise.as_deref().map(str::parse::<Noise>).transpose()?,
            noise_scale: self
                .noise_scale
                .as_deref()
                .map(parse_rational)
                .transpose()?,
            resample,
        };
        Target::algorithm(config.build()?, losses)
    }

    /// The target as given.
    pub(super) fn describe(&self) -> TargetGiven {
        if let Some(noise) = &self.mechanism {
            return TargetGiven::Mechanism(MechanismGiven {
                losses: self.losses.clone(),
                mechanism: noise.clone(),
                scale: self.scale.clone(),
            });
        }
        TargetGiven::Algorithm(AlgorithmGiven {
            algorithm: self.algorithm.clone().unwrap_or_else(|| "?".into()),
            epsilon: self.epsilon.clone(),
            losses_file: self.losses_file.as_ref().map(|p| p.display().to_string()),
            noise: self.noise.clone(),
            noise_scale: self.noise_scale.clone(),
            resample: self.resample.clone(),
        })
    }

    /// The target's law to `digits` relative digits, with a progress bar on
    /// stderr for a long one ([`crate::progress`]).
    pub(super) fn law(&self, target: &Target, digits: u32) -> Result<BestSequenceLaw> {
        let task = Task {
            name: "law",
            unit: "selection laws",
        };
        with_progress(true, task, 1, |bar| {
            let saturated = |n: u128| u64::try_from(n).unwrap_or(u64::MAX);
            let mut progress = |done: u128, total: u128| bar.set(saturated(done), saturated(total));
            target.law(BestOptions {
                digits,
                force: self.force,
                progress: Some(&mut progress),
            })
        })
    }
}

/// Flags of `dpdtol law`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    target: TargetArgs,
    /// The probability of this action (bandit: pull) sequence, one action a round, comma-separated.
    #[arg(long)]
    sequence: Option<String>,
    /// How --sequence numbers the actions: 1 (default, as the papers) or 0.
    #[arg(long, default_value = "1")]
    base: String,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
}

/// Where the flags of `law` act besides the target's.
pub(super) const SCOPES: &[Scope] = &[
    scope("sequence", EVERY),
    scope("base", EVERY),
    scope("json", EVERY),
];

/// Parse a comma-separated action sequence numbered from `base`.
fn parse_sequence(text: &str, base: u32) -> Result<Vec<usize>> {
    text.split(',')
        .map(|a| {
            let a = a.trim();
            let value: usize = a.parse().map_err(|_| {
                Error::Parse(format!("--sequence expects integer actions, got '{a}'"))
            })?;
            value.checked_sub(base as usize).ok_or_else(|| {
                Error::InvalidInput(format!(
                    "--sequence: action {value} is below {base}, the first action (--base {base})"
                ))
            })
        })
        .collect()
}

impl Args {
    /// The flags that name the target.
    pub(super) fn target(&self) -> &TargetArgs {
        &self.target
    }
}

/// Run the command; the text to print on stdout.
pub fn run(args: &Args) -> Result<String> {
    let base = parse_base(&args.base)?;
    let sequence = || {
        args.sequence
            .as_deref()
            .map(|s| parse_sequence(s, base))
            .transpose()
    };
    if let Some(target) = args.target.bandit()? {
        let sequence = sequence()?;
        let law = target.law(args.target.force_given())?;
        let report = BanditLawReport::new(
            args.target.describe_bandit(),
            &law,
            sequence.as_deref(),
            base,
        )?;
        return Ok(rendered(&report, args.json));
    }
    let target = args.target.build()?;
    let sequence = sequence()?;
    let law = args.target.law(&target, DIGITS as u32 + 2)?;
    let report = LawReport::new(
        args.target.describe(),
        &target,
        &law,
        sequence.as_deref(),
        base,
    )?;
    Ok(rendered(&report, args.json))
}
