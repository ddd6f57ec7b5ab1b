//! Parsers of flag values shared by several commands (those of numbers are
//! [`crate::num::given`]'s).

use crate::error::{Error, Result};

pub(super) use crate::num::given::{
    parse_actions, parse_bit, parse_count, parse_exact_list, parse_f64, parse_f64_list,
    parse_lengths, parse_one, parse_rounds, parse_seed, parse_tree_depth,
};

/// `--spot-check N` (or `all`) and `--spot-check-seed S` of a merge
/// ([`crate::report::merge::SpotPolicy`]: by default 4 units per shard,
/// the seed drawn from the operating system; a seed below 2^53).
pub(super) fn spot_policy(
    units: Option<&str>,
    seed: Option<&str>,
) -> Result<crate::report::merge::SpotPolicy> {
    let amount = |text: &str| match text.trim() {
        "all" => Ok(crate::report::merge::SpotPolicy::ALL),
        _ => text.trim().parse::<u64>().map_err(|_| {
            Error::Parse(format!(
                "--spot-check expects a non-negative integer or 'all', got '{text}'"
            ))
        }),
    };
    crate::report::merge::SpotPolicy::new(
        units.map(amount).transpose()?,
        seed.map(|s| {
            s.trim().parse::<u64>().map_err(|_| {
                Error::Parse(format!(
                    "--spot-check-seed expects a non-negative integer, got '{s}'"
                ))
            })
        })
        .transpose()?,
    )
}
