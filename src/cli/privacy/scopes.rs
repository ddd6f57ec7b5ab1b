//! Where the flags of `dpdtol privacy` act, and what a run checks, for
//! [`crate::cli::applies`].

use super::{bounds, given, statistical, Args};
use crate::bandit::policy::BanditId;
use crate::cli::applies::{scope, Scope, Subject, EVERY};
use crate::cli::law::{MECHANISM, ONLINE};
use crate::error::Result;

/// A check of a bandit algorithm.
const BANDIT: &str = "the bandit checks";
/// A bandit check from the closed-form law.
const EXACT_BANDIT: &str =
    "the exact bandit checks (anytime-lazy-ucb, dp-se, dp-ucb, dp-ucb-bound, dp-ucb-int, hybrid-ucb)";
/// A bandit audit by simulation.
const STATISTICAL: &str =
    "the statistical audits (lazy-dp-ts, dp-ts, hybrid-ucb --method statistical)";
/// A bandit check from certified bounds on the laws.
const BOUNDS: &str = "the certified bounds checks (lazy-dp-ts, dp-ts --method bounds)";
/// A merge of shards.
const MERGE: &str = "--merge";
/// An online algorithm checked at one ε.
const ONE_EPSILON: &str = "an online algorithm at one --epsilon";

/// Where the flags of `privacy` act ([`crate::cli::applies`]).
pub(crate) const SCOPES: &[Scope] = &[
    scope("algorithm", &[ONLINE, BANDIT]),
    scope("actions", EVERY),
    scope("horizon", &[ONLINE, BANDIT]),
    scope("alphabet", EVERY),
    scope("epsilon", &[ONE_EPSILON, BANDIT, MECHANISM]),
    scope("epsilon_range", &[ONLINE]),
    scope("all_epsilon", &[ONLINE]),
    scope(
        "scale_factor",
        &[ONLINE, "hybrid-ucb", "dp-ucb-bound", "dp-ts"],
    ),
    scope("resample", &["wu-wang"]),
    scope("noise", &["wu-wang"]),
    scope(
        "noise_scale",
        &[
            "naive-ftnl",
            "hu-rnm-ftnl",
            "wu-wang",
            "prefix-softmax",
            "hedge",
            "decreasing-hedge",
            BANDIT,
        ],
    ),
    scope("threads", &[ONLINE, BANDIT]),
    scope("shard", &[ONE_EPSILON, EXACT_BANDIT, STATISTICAL]),
    scope("force", EVERY),
    scope("merge", EVERY),
    scope("spot_check", &[MERGE]),
    scope("spot_check_seed", &[MERGE]),
    scope("epoch_length", &["dp-se"]),
    scope("beta", &["dp-se"]),
    scope("pull_order", &["dp-se"]),
    scope("rounding", &["dp-se"]),
    scope("radius", &["dp-se"]),
    scope("reward_index", &["dp-se"]),
    scope("tree_depth", &["dp-ucb"]),
    scope("bonus_round", &["dp-ts"]),
    scope(
        "method",
        &[ONE_EPSILON, "hybrid-ucb", "lazy-dp-ts", "dp-ts"],
    ),
    scope("runs", &[STATISTICAL]),
    scope("seed", &[STATISTICAL]),
    scope("confidence", &[STATISTICAL]),
    scope(
        "bonus",
        &[
            "lazy-dp-ts",
            "dp-ts",
            "hybrid-ucb",
            "dp-ucb-bound",
            "dp-ucb-int",
        ],
    ),
    scope("tree_scale", &["hybrid-ucb", "dp-ucb-bound", "dp-ts"]),
    scope("mechanism", EVERY),
    scope("neighbours", &[MECHANISM]),
    scope("scale", &[MECHANISM]),
    scope("delta", &[ONE_EPSILON, EXACT_BANDIT, MECHANISM]),
    scope("json", EVERY),
];

/// What the run checks, for [`crate::cli::applies::enforce`]: the merge, one
/// selection, a bandit algorithm (exact or statistical) or an online
/// algorithm (at one ε or over a range).
pub(crate) fn subjects(args: &Args) -> Result<Vec<Subject>> {
    if !args.merge.is_empty() {
        return Ok(vec![Subject::new("--merge", &[MERGE])]);
    }
    if let Some(noise) = &args.mechanism {
        return Ok(vec![Subject::new(
            format!("--mechanism {noise}"),
            &[MECHANISM],
        )]);
    }
    let text = given(&args.algorithm, "--algorithm")?;
    if let Ok(id) = text.parse::<BanditId>() {
        let how = if bounds::chosen(args, id) {
            BOUNDS
        } else if statistical::chosen(args, id)? {
            STATISTICAL
        } else {
            EXACT_BANDIT
        };
        return Ok(vec![Subject::new(id.name(), &[BANDIT, how, id.name()])]);
    }
    // The bandit algorithms `privacy` checks, exactly or by a statistical audit.
    let bandits: Vec<BanditId> = BanditId::ALL
        .into_iter()
        .filter(|&b| {
            crate::cli::algorithm_help::privacy_exact(b)
                || crate::cli::algorithm_help::privacy_statistical(b)
        })
        .collect();
    let id = crate::cli::law::online_or_bandit(text, &bandits)?;
    let range = args.epsilon_range.is_some() || args.all_epsilon;
    let at = if range { ONLINE } else { ONE_EPSILON };
    Ok(vec![Subject::new(id.name(), &[ONLINE, at, id.name()])])
}
