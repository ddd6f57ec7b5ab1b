//! Parsers of flag values shared by several commands (those of numbers are
//! [`crate::num::given`]'s).

use crate::error::{Error, Result};

pub(super) use crate::num::given::{
    parse_actions, parse_bit, parse_count, parse_exact_list, parse_f64, parse_f64_list,
    parse_lengths, parse_one, parse_rounds, parse_seed,
};

/// `--spot-check N` and `--spot-check-seed S` of a merge
/// ([`crate::report::merge::SpotPolicy`]: by default 4 units per shard,
/// the seed drawn from the operating system; a seed below 2^53).
pub(super) fn spot_policy(
    units: Option<&str>,
    seed: Option<&str>,
) -> Result<crate::report::merge::SpotPolicy> {
    let integer = |flag: &str, text: &str| {
        text.trim().parse::<u64>().map_err(|_| {
            Error::Parse(format!(
                "{flag} expects a non-negative integer, got '{text}'"
            ))
        })
    };
    crate::report::merge::SpotPolicy::new(
        units.map(|n| integer("--spot-check", n)).transpose()?,
        seed.map(|s| integer("--spot-check-seed", s)).transpose()?,
    )
}
