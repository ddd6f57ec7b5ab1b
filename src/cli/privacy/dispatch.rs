//! Which check `dpdtol privacy` runs: a merge of the shards of any check
//! (by the kind of report given), a one-shot selection (`--mechanism`), a
//! bandit algorithm (exact check or statistical audit), every ε of a range,
//! or a full-information online algorithm.

use super::{all_epsilon, bandit, full_information, one_shot, statistical, Args};
use crate::cli::args::spot_policy;
use crate::error::Result;
use crate::report::{bandit_privacy, merge, statistical_privacy};
use serde_json::Value;

/// Run the command; the text to print on stdout, and whether a violation
/// was shown (the exit status is then 1).
pub fn run(args: &Args) -> Result<(String, bool)> {
    if !args.merge.is_empty() {
        let policy = spot_policy(args.spot_check.as_deref(), args.spot_check_seed.as_deref())?;
        let inputs = read_merge_inputs(&args.merge)?;
        if inputs
            .iter()
            .any(|(_, v)| statistical_privacy::is_report(v))
        {
            return statistical::merge(&inputs, policy, args.json);
        }
        if inputs.iter().any(|(_, v)| bandit_privacy::is_report(v)) {
            return bandit::merge(&inputs, policy, args.json);
        }
        return full_information::merge(&inputs, policy, args.json);
    }
    if args.mechanism.is_some() {
        return one_shot::run(args);
    }
    if let Some(id) = args.algorithm.as_deref().and_then(|a| a.parse().ok()) {
        return bandit::run(args, id);
    }
    if args.epsilon_range.is_some() || args.all_epsilon {
        return all_epsilon::run(args);
    }
    full_information::run(args)
}

/// The merge inputs (`--merge`), each read with a size cap
/// ([`merge::read_json`]), with its name.
fn read_merge_inputs(paths: &[std::path::PathBuf]) -> Result<Vec<(String, Value)>> {
    paths
        .iter()
        .map(|path| Ok((path.display().to_string(), merge::read_json(path)?)))
        .collect()
}
