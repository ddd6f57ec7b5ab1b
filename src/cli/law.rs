//! `dpdtol law`: the exact (else certified) law of an online algorithm's
//! action sequence on a given loss sequence — its schedule and each choice's
//! law — or of one selection (`--mechanism`), and with `--sequence` the
//! probability of one action sequence. The flags that name the target are
//! shared by `sample`, `gof` and `audit` ([`TargetArgs`]).

use super::applies::{scope, Scope, Subject, EVERY};
use super::args::{parse_actions, parse_bit};
use crate::algorithm::AlgorithmId;
use crate::bandit::policy::BanditId;
use crate::error::{Error, Result};
use crate::oracle::bandit::{has_bounds, law_bounds};
use crate::oracle::TargetSpec;
use crate::report::bandit_bounds::BanditBoundsReport;
use crate::report::bandit_oracle::{BanditGiven, BanditLawReport};
use crate::report::law::LawReport;
use crate::report::oracle::TargetGiven;
use crate::report::{rendered, DIGITS};
use std::path::PathBuf;

/// The flags that name what the oracle answers about: an online algorithm
/// on a loss file, or one selection on a loss vector.
#[derive(Debug, clap::Args)]
pub struct TargetArgs {
    /// The algorithm (its help, the list of the algorithms accepted, is
    /// generated: `cli::algorithm_help`).
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
    /// Overrides the paper's noise scale (for prefix-softmax and hedge: the temperature 1/η, hedge's default 1/ε; for decreasing-hedge: 1/c in η_t = c·√(ln K / t), default 1/2; for dp-ucb-int: the factor b of its scale b·n^{v/2 − 1} on the mean, printed 1), exactly.
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
    /// dp-se only: β, its failure probability (Sajed & Sheffet's δ) in (0, 1), exactly (default 1/T).
    #[arg(long, allow_hyphen_values = true)]
    beta: Option<String>,
    /// dp-se only: the order of the pulls inside an epoch, blocks (default: each arm's R_e pulls in turn), round-robin, or any (test the per-epoch pull counts only; needs --reward-index pull).
    #[arg(long)]
    pull_order: Option<String>,
    /// dp-se only: which entry of the reward table a pull receives, round (default: the pull of round t gets row t's entry) or pull (arm a's n-th pull gets row n's entry of arm a).
    #[arg(long)]
    reward_index: Option<String>,
    /// dp-se only: the R_e its elimination radius reads, integer (default: the number of pulls) or real (the real R_e before rounding).
    #[arg(long)]
    radius: Option<String>,
    /// dp-se only: the epoch length R_e as floor-plus-one (default, ⌊·⌋ + 1), ceiling (⌈·⌉, the same integers), floor (⌊·⌋) or ceiling-plus-one (⌈· + 1⌉ = ⌊·⌋ + 2).
    #[arg(long)]
    rounding: Option<String>,
    /// hybrid-ucb, dp-ucb-bound and dp-ts: the tree p-sums' per-level noise scale, exactly.
    #[arg(long, allow_hyphen_values = true)]
    tree_scale: Option<String>,
    /// hybrid-ucb, dp-ucb-bound and dp-ts: a factor on both noise scales, exactly.
    #[arg(long, allow_hyphen_values = true)]
    scale_factor: Option<String>,
    /// dp-ucb only: the binary mechanism's depth L, an integer in 1..=63 (default ⌈log₂ T⌉; the node scale is L/ε unless --noise-scale). Hybrid-UCB and DP-UCB-Bound have no fixed depth (their trees grow with the count).
    #[arg(long)]
    tree_depth: Option<String>,
    /// ucb1 only: how it chooses among arms of equal index, lowest (default: each arm once in order, then ties to the lowest arm), uniform (an unplayed arm's index is +inf, and the arm is drawn uniformly among those of maximal index, the first K rounds included), highest (each arm once in order, then ties to the highest arm) or ordered-uniform (each arm once in order, then ties drawn uniformly among the arms of maximal index).
    #[arg(long)]
    ties: Option<String>,
    /// dp-ts and ucb1: the round whose ln its bonus reads. dp-ts: current (default: the round of the draw) or last-update (the round of the arm's last observation, the bonus and Beta parameters frozen until its next one); ucb1: plays (default: ln n, n = t − 1 the plays before round t, as Auer et al. print it) or current (ln t of the current round, as in Bubeck & Cesa-Bianchi's α-UCB).
    #[arg(long)]
    bonus_round: Option<String>,
    /// anytime-lazy-ucb and hybrid-ucb: the constant 3 of the bonus; ucb1, dp-ucb-bound and dp-ucb-int: their constant 2; exactly.
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
pub(super) const NOISY: &[&str] = &[
    "naive-ftnl",
    "hu-rnm-ftnl",
    "wu-wang",
    "prefix-softmax",
    "hedge",
    "decreasing-hedge",
];
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
            "dp-ucb",
            "dp-ucb-bound",
            "dp-ucb-int",
            "hybrid-ucb",
            "lazy-dp-ts",
            "dp-ts",
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
            "hedge",
            "decreasing-hedge",
            "anytime-lazy-ucb",
            "dp-se",
            "dp-ucb",
            "dp-ucb-bound",
            "dp-ucb-int",
            "hybrid-ucb",
            "lazy-dp-ts",
            "dp-ts",
        ],
    ),
    scope("losses_file", &[ONLINE]),
    scope("rewards_file", &[BANDIT]),
    scope("epoch_length", &["dp-se"]),
    scope("beta", &["dp-se"]),
    scope("pull_order", &["dp-se"]),
    scope("rounding", &["dp-se"]),
    scope("reward_index", &["dp-se"]),
    scope("radius", &["dp-se"]),
    scope("tree_scale", &["hybrid-ucb", "dp-ucb-bound", "dp-ts"]),
    scope("scale_factor", &["hybrid-ucb", "dp-ucb-bound", "dp-ts"]),
    scope("tree_depth", &["dp-ucb"]),
    scope("ties", &["ucb1"]),
    scope("bonus_round", &["dp-ts", "ucb1"]),
    scope(
        "bonus",
        &[
            "anytime-lazy-ucb",
            "dp-ucb-bound",
            "dp-ucb-int",
            "hybrid-ucb",
            "ucb1",
            "lazy-dp-ts",
            "dp-ts",
        ],
    ),
    scope("scale", &[MECHANISM]),
    scope("losses", &[MECHANISM]),
    scope("force", EVERY),
];

/// The base actions are numbered from in files and on the command line.
pub(super) fn parse_base(text: &str) -> Result<u32> {
    parse_bit("--base", text)
}

/// `text` as an online algorithm, else refused with every algorithm the
/// command accepts: the online ones and `bandits`.
pub(super) fn online_or_bandit(text: &str, bandits: &[BanditId]) -> Result<AlgorithmId> {
    text.parse::<AlgorithmId>().map_err(|_| {
        let online: Vec<&str> = AlgorithmId::ALL.iter().map(|a| a.name()).collect();
        let bandits: Vec<&str> = bandits.iter().map(|b| b.name()).collect();
        Error::InvalidInput(format!(
            "unknown algorithm '{text}' (expected one of {}; or a bandit algorithm: {})",
            online.join(", "),
            bandits.join(", ")
        ))
    })
}

impl TargetArgs {
    /// What the flags name, for [`super::applies::enforce`]: an online
    /// algorithm, one selection, or (`required` false) nothing; an unknown
    /// name is refused with every algorithm `command` takes.
    pub(super) fn subject(&self, command: &str, required: bool) -> Result<Subject> {
        if let Some(noise) = &self.mechanism {
            return Ok(Subject::new(format!("--mechanism {noise}"), &[MECHANISM]));
        }
        match &self.algorithm {
            Some(text) => {
                if let Ok(id) = text.parse::<BanditId>() {
                    return Ok(Subject::new(id.name(), &[BANDIT, id.name()]));
                }
                let bandits: Vec<BanditId> = BanditId::ALL
                    .into_iter()
                    .filter(|&id| super::algorithm_help::takes_bandit(command, id))
                    .collect();
                let id = online_or_bandit(text, &bandits)?;
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

    /// The target the flags name ([`TargetSpec`]).
    pub(super) fn spec(&self) -> TargetSpec {
        TargetSpec {
            algorithm: self.algorithm.clone(),
            actions: self.actions.clone(),
            epsilon: self.epsilon.clone(),
            noise: self.noise.clone(),
            resample: self.resample.clone(),
            noise_scale: self.noise_scale.clone(),
            losses_file: self.losses_file.clone(),
            mechanism: self.mechanism.clone(),
            scale: self.scale.clone(),
            losses: self.losses.clone(),
            rewards_file: self.rewards_file.clone(),
            epoch_length: self.epoch_length.clone(),
            tree_scale: self.tree_scale.clone(),
            scale_factor: self.scale_factor.clone(),
            bonus: self.bonus.clone(),
            beta: self.beta.clone(),
            pull_order: self.pull_order.clone(),
            rounding: self.rounding.clone(),
            radius: self.radius.clone(),
            reward_index: self.reward_index.clone(),
            tree_depth: self.tree_depth.clone(),
            ties: self.ties.clone(),
            bonus_round: self.bonus_round.clone(),
            force: self.force,
        }
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
            .map(|s| parse_actions(s, base))
            .transpose()
    };
    let spec = args.target.spec();
    if let Some((bandit, rewards)) = spec.bandit_spec()? {
        if has_bounds(bandit.id) {
            let sequence = sequence()?;
            let bounds = law_bounds(&bandit, &rewards, spec.force)?;
            let report = BanditBoundsReport::new(
                BanditGiven::of(&spec),
                rewards[0].len(),
                rewards.len(),
                &bounds.entries,
                bounds.precision_bits,
                sequence.as_deref(),
                base,
            )?;
            return Ok(rendered(&report, args.json));
        }
    }
    if let Some(target) = spec.bandit()? {
        let sequence = sequence()?;
        let law = target.law(spec.force)?;
        let report = BanditLawReport::new(BanditGiven::of(&spec), &law, sequence.as_deref(), base)?;
        return Ok(rendered(&report, args.json));
    }
    let target = spec.build()?;
    let sequence = sequence()?;
    let law = spec.law(&target, DIGITS as u32 + 2)?;
    let report = LawReport::new(
        TargetGiven::of(&spec),
        &target,
        &law,
        sequence.as_deref(),
        base,
    )?;
    Ok(rendered(&report, args.json))
}
