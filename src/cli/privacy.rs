//! `dpdtol privacy`: the exhaustive privacy check of an algorithm on every
//! pair of neighbouring inputs over a finite alphabet — its flags, and the
//! helpers its checks share ([`dispatch`] chooses the check).

mod all_epsilon;
mod bandit;
mod bounds;
mod dispatch;
mod full_information;
mod one_shot;
mod scopes;
mod statistical;

pub use dispatch::run;
pub(super) use scopes::{subjects, SCOPES};

use super::args::parse_count;
use crate::error::{Error, Result};
use crate::num::given::parse_horizon;
use crate::privacy::Shard;

/// Flags of `dpdtol privacy`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The algorithm (its help, the list of the algorithms accepted, is
    /// generated: `cli::algorithm_help`).
    #[arg(long, required_unless_present_any = ["merge", "mechanism"])]
    algorithm: Option<String>,
    /// [required unless --merge] The number of actions K ≥ 2.
    #[arg(long, allow_hyphen_values = true, required_unless_present = "merge")]
    actions: Option<String>,
    /// [required unless --merge or --mechanism] The horizon t ≥ 1 (rounds per loss sequence): 3, 2^2, 2^2-1.
    #[arg(long, allow_hyphen_values = true, required_unless_present_any = ["merge", "mechanism"])]
    horizon: Option<String>,
    /// [required unless --merge] The loss values each loss may take, comma-separated, in [0, 1]: 0,1/2,1.
    #[arg(long, allow_hyphen_values = true, required_unless_present = "merge")]
    alphabet: Option<String>,
    /// [required unless --merge, --epsilon-range or --all-epsilon] The privacy parameter ε > 0 to check (and the paper's default scales derive from), exactly: 1, 0.5, 1/2.
    #[arg(long, allow_hyphen_values = true, required_unless_present_any = ["merge", "epsilon_range", "all_epsilon"])]
    epsilon: Option<String>,
    /// Instead of one ε: decide privacy for every ε in [a, b] (a..b, exactly: 1/2..4), with the scale following ε (--scale-factor); wu-wang with gumbel or exponential noise.
    #[arg(long, conflicts_with = "merge")]
    epsilon_range: Option<String>,
    /// Instead of one ε: decide privacy for every ε > 0 (as --epsilon-range, over (0, ∞)).
    #[arg(long, conflicts_with = "merge")]
    all_epsilon: bool,
    /// The noise scale as a multiple of the paper's (2: doubled), following ε; excludes --noise-scale.
    #[arg(long, allow_hyphen_values = true, conflicts_with_all = ["merge", "noise_scale"])]
    scale_factor: Option<String>,
    /// wu-wang only: Bernoulli resampling of the losses, 0 (default) or 1.
    #[arg(long)]
    resample: Option<String>,
    /// wu-wang only: the noise, laplace (default), exponential or gumbel.
    #[arg(long)]
    noise: Option<String>,
    /// Overrides the paper's noise scale (for prefix-softmax and hedge: the temperature 1/η; for decreasing-hedge: 1/c in η_t = c·√(ln K / t)), exactly. Defaults: naive-ftnl Laplace K/ε, hu-rnm-ftnl Laplace 1/ε, wu-wang Laplace or Gumbel 2/ε and exponential 1/ε, prefix-softmax temperature 1/η = max{2/ε, 8}, hedge 1/ε, decreasing-hedge 1/2; hybrid-ucb and dp-ts: the array blocks' Laplace 2/ε (and the tree's unless --tree-scale); dp-ucb-int: the factor b of its Laplace scale b·n^{v/2 − 1} on a mean, 1.
    #[arg(long, allow_hyphen_values = true)]
    noise_scale: Option<String>,
    /// The number of worker threads (default: one per core).
    #[arg(long, allow_hyphen_values = true)]
    threads: Option<String>,
    /// Check only part I of N (1 ≤ I ≤ N) of the loss sequences, each against all its neighbours (anytime-lazy-ucb, dp-se: of the laws P(pulls | rewards seen), each against its neighbours; lazy-dp-ts, dp-ts, hybrid-ucb: of every table's chunks of 4096 runs, whose counts --merge sums and audits).
    #[arg(long)]
    shard: Option<String>,
    /// Run even when the enumeration has more than 10^8 ordered pairs (a table of more than 2^22 losses, |alphabet|^K · K, is refused even so).
    #[arg(long)]
    force: bool,
    /// Instead of checking: merge the --json outputs of all the shards of one run (regular files of at most 8 MiB, comma-separated; each is validated and its witness re-evaluated).
    #[arg(long, value_delimiter = ',', conflicts_with_all = ["algorithm", "actions", "horizon", "alphabet", "epsilon", "shard", "resample", "noise", "noise_scale", "threads", "force", "epoch_length", "beta", "pull_order", "rounding", "radius", "reward_index", "tree_depth", "bonus_round", "mechanism", "neighbours", "scale"])]
    merge: Vec<std::path::PathBuf>,
    /// --merge: the units of each shard (sub-ranges of the loss sequences or candidates, of the laws; tables) recomputed and compared with what the shard says (default 4; all: every unit of every shard, so that nothing is taken on trust; 0: none, and the report says so).
    #[arg(long, allow_hyphen_values = true)]
    spot_check: Option<String>,
    /// --merge: the seed of the units recomputed (default: drawn from the operating system's randomness; the report prints it, so the merge can be reproduced).
    #[arg(long, allow_hyphen_values = true)]
    spot_check_seed: Option<String>,
    /// dp-se only: the epoch lengths R_1,R_2,… (the last repeats) instead of the printed ones, which end no epoch before round 2R_1 (hundreds of rounds).
    #[arg(long)]
    epoch_length: Option<String>,
    /// dp-se only: β, its failure probability (Sajed & Sheffet's δ) in (0, 1), exactly (default 1/T).
    #[arg(long, allow_hyphen_values = true)]
    beta: Option<String>,
    /// dp-se only: the order of the pulls inside an epoch, blocks (default) or round-robin.
    #[arg(long)]
    pull_order: Option<String>,
    /// dp-se only: the epoch length R_e as floor-plus-one (default, ⌊·⌋ + 1), ceiling (⌈·⌉, the same integers), floor (⌊·⌋) or ceiling-plus-one (⌈· + 1⌉ = ⌊·⌋ + 2).
    #[arg(long)]
    rounding: Option<String>,
    /// dp-se only: the R_e its elimination radius reads, integer (default: the number of pulls) or real (the real R_e before rounding).
    #[arg(long)]
    radius: Option<String>,
    /// dp-se only: which entry of the reward table a pull receives, round (default) or pull (arm a's n-th pull gets row n's entry of arm a); named in the report. Neighbouring tables replace a row read by round (one round's rewards), an entry read by pull (one pull's reward): one reward seen changes either way, so the ratio verdict is the same under both; --delta reads the table as given.
    #[arg(long)]
    reward_index: Option<String>,
    /// dp-ucb only: the binary mechanism's depth L, an integer in 1..=63 (default ⌈log₂ T⌉; the node scale is L/ε unless --noise-scale).
    #[arg(long)]
    tree_depth: Option<String>,
    /// dp-ts only: the round whose ln t its bonus reads, current (default: the round of the draw) or last-update (the round of the arm's last observation, the bonus and Beta parameters frozen until its next one).
    #[arg(long)]
    bonus_round: Option<String>,
    /// How the maximum is searched: structural (default: over the changed round and the statistics of the windows that read it) or enumeration (every ordered pair of sequences, the cross-check). hybrid-ucb: exact (default) or statistical; lazy-dp-ts and dp-ts: statistical (default: the audit) or bounds (certified bounds on every law, a verdict or undecided).
    #[arg(long)]
    method: Option<String>,
    /// lazy-dp-ts, dp-ts and hybrid-ucb only (statistical audits): simulated runs per reward table, half to choose each pair's event, half to bound it (default 200000).
    #[arg(long)]
    runs: Option<String>,
    /// lazy-dp-ts, dp-ts and hybrid-ucb only: the master seed of the simulation (default 1).
    #[arg(long)]
    seed: Option<String>,
    /// lazy-dp-ts, dp-ts and hybrid-ucb only: the confidence level of the lower bound on ε, Bonferroni across pairs (default 0.95).
    #[arg(long)]
    confidence: Option<String>,
    /// lazy-dp-ts, dp-ts, hybrid-ucb, dp-ucb-bound and dp-ucb-int: overrides the bonus constant (lazy-dp-ts: line 4's 3 ln t/(εO); dp-ts: the 6 of 6√(8 ln(O+1) ln t)/(εO); hybrid-ucb: index (35)'s 3; dp-ucb-bound: the 2 of √(2 ln t'/n); dp-ucb-int: the 2 of √(2 ln t/n)), exactly (for planted variants).
    #[arg(long, allow_hyphen_values = true)]
    bonus: Option<String>,
    /// hybrid-ucb, dp-ts and dp-ucb-bound: overrides the per-level scale of the tree p-sums' Laplace noise (hybrid-ucb's and dp-ts's default: --noise-scale, itself the array blocks' scale, default 2/ε; dp-ucb-bound's: 2/ε), exactly.
    #[arg(long, allow_hyphen_values = true)]
    tree_scale: Option<String>,
    /// Instead of an online algorithm: one report-noisy-max selection with gumbel (softmax), exponential (permute-and-flip) or laplace noise, over every input of alphabet^K (--actions, --alphabet: any rationals, the losses) and every ordered pair that --neighbours allows.
    #[arg(long)]
    mechanism: Option<String>,
    /// --mechanism only: which inputs are neighbours: any (default: every replacement), linf:D (every loss moves by at most D) or one:D (exactly one loss moves, by at most D).
    #[arg(long)]
    neighbours: Option<String>,
    /// --mechanism only: the noise scale β, exactly. Default: the textbook 2Δ/ε for every noise, Δ = D for linf:D and one:D, the alphabet's range for any (exponential mechanism: McSherry & Talwar 2007, Dwork & Roth 2014 Thm 3.10; permute-and-flip: McKenna & Sheldon 2020; Laplace report-noisy-max: Dwork & Roth 2014 §3.3).
    #[arg(long, allow_hyphen_values = true)]
    scale: Option<String>,
    /// Also decide (ε, δ)-DP for this δ (its help, naming the exact bandit checks, is generated: `cli::algorithm_help::delta_help`).
    #[arg(long, allow_hyphen_values = true, conflicts_with_all = ["merge", "shard", "epsilon_range", "all_epsilon"])]
    delta: Option<String>,
    /// Print one JSON object instead of a paragraph.
    #[arg(long)]
    json: bool,
}

/// The worker pool of `--threads` (default: one thread per core).
fn thread_pool(threads: Option<&str>) -> Result<rayon::ThreadPool> {
    crate::size::thread_pool(threads.map(|t| parse_count("--threads", t)).transpose()?)
}

/// `--shard I/N` (default: the whole run, `1/1`).
fn shard_flag(args: &Args) -> Result<Shard> {
    Ok(args
        .shard
        .as_deref()
        .map(str::parse)
        .transpose()?
        .unwrap_or(Shard::WHOLE))
}

/// `--delta D`, read exactly (`None` when not given).
fn delta_flag(args: &Args) -> Result<Option<crate::num::Q>> {
    args.delta
        .as_deref()
        .map(crate::num::parse_rational)
        .transpose()
}

/// Whether a run shows a violation: of (ε, δ)-DP when `--delta` was given,
/// else of ε-DP.
fn violated(verdict: &crate::report::privacy::VerdictKeys) -> bool {
    use crate::privacy::Verdict;
    match &verdict.delta {
        Some(delta) => delta.verdict == Verdict::Violated,
        None => verdict.verdict == Verdict::Violated,
    }
}

/// A flag clap requires unless `--merge` is given.
fn given<'a>(value: &'a Option<String>, flag: &str) -> Result<&'a str> {
    value
        .as_deref()
        .ok_or_else(|| Error::InvalidInput(format!("{flag} is required")))
}
