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

/// A number for an f64 computation (a simulation, a test level), read
/// exactly and then rounded to the nearest double: a value that would
/// round to 0 or to infinity is refused as given, never read as 0 or inf.
pub(super) fn parse_f64(flag: &str, text: &str) -> Result<f64> {
    let q = crate::num::parse_rational(text)
        .map_err(|_| Error::Parse(format!("{flag} expects a number, got '{text}'")))?;
    f64_of(flag, text, &q)
}

/// The nearest double to `q` (given as `text` for `flag`), refused when it
/// underflows to 0 or overflows to infinity.
pub(super) fn f64_of(flag: &str, text: &str, q: &crate::num::Q) -> Result<f64> {
    use num_traits::{ToPrimitive, Zero};
    let x = q.to_f64().unwrap_or(f64::NAN);
    if x.is_infinite() || x.is_nan() || (x == 0.0 && !q.is_zero()) {
        return Err(Error::InvalidInput(format!(
            "{flag} {} is outside the range of a double (about 4.9e-324 to 1.8e308 in size), which this computation uses",
            text.trim()
        )));
    }
    Ok(x)
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
