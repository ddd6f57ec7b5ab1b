//! Parsers of flag values shared by several commands.

use crate::error::{Error, Result};

/// A count flag (`--actions`, `--horizon`, `--threads`).
pub(super) fn parse_count(flag: &str, text: &str) -> Result<usize> {
    text.trim().parse().map_err(|_| {
        Error::Parse(format!(
            "{flag} expects a non-negative integer, got '{text}'"
        ))
    })
}

/// A flag that is 0 or 1 (`--resample`, `--base`).
pub(super) fn parse_bit(flag: &str, text: &str) -> Result<u32> {
    match text.trim() {
        "0" => Ok(0),
        "1" => Ok(1),
        other => Err(Error::InvalidInput(format!(
            "{flag} expects 0 or 1, got '{other}'"
        ))),
    }
}

/// `--epoch-length`: positive integers, comma-separated.
pub(super) fn parse_lengths(text: &str) -> Result<Vec<u64>> {
    text.split(',')
        .map(|r| match r.trim().parse::<u64>() {
            Ok(n) if n > 0 => Ok(n),
            _ => Err(Error::Parse(format!(
                "--epoch-length expects positive integers R_1,R_2,… (the last repeats), got '{text}'"
            ))),
        })
        .collect()
}
