//! The values of named parameters, as users write them (a command-line
//! flag, a Python argument): counts, bits, epoch lengths, a number of
//! rounds in the notations `1000000`, `10^6` and `1e6`, and numbers for an
//! f64 computation (a simulation, a test level), read exactly and then
//! rounded. Each refusal names the parameter and repeats what was given.

use super::{parse_power_count, parse_rational, parse_rational_list, Q};
use crate::error::{Error, Result};
use num_traits::{ToPrimitive, Zero};

/// A count (`--actions`, `--threads`, `--runs`).
pub fn parse_count(flag: &str, text: &str) -> Result<usize> {
    text.trim().parse().map_err(|_| {
        Error::Parse(format!(
            "{flag} expects a non-negative integer, got '{text}'"
        ))
    })
}

/// A binary mechanism's depth `L` (`--tree-depth`): an integer in `1..=63`.
pub fn parse_tree_depth(text: &str) -> Result<u32> {
    match text.trim().parse::<u32>() {
        Ok(depth) if (1..=63).contains(&depth) => Ok(depth),
        _ => Err(Error::Parse(format!(
            "--tree-depth expects an integer in 1..=63, got '{text}'"
        ))),
    }
}

/// A number for an f64 computation, read exactly and then rounded to the
/// nearest double: a value that would round to 0 or to infinity is refused
/// as given, never read as 0 or inf.
pub fn parse_f64(flag: &str, text: &str) -> Result<f64> {
    let q = parse_rational(text)
        .map_err(|_| Error::Parse(format!("{flag} expects a number, got '{text}'")))?;
    f64_of(flag, text, &q)
}

/// The nearest double to `q` (given as `text` for `flag`), refused when it
/// underflows to 0 or overflows to infinity.
pub fn f64_of(flag: &str, text: &str, q: &Q) -> Result<f64> {
    let x = q.to_f64().unwrap_or(f64::NAN);
    if x.is_infinite() || x.is_nan() || (x == 0.0 && !q.is_zero()) {
        return Err(Error::InvalidInput(format!(
            "{flag} {} is outside the range of a double (about 4.9e-324 to 1.8e308 in size), which this computation uses",
            text.trim()
        )));
    }
    Ok(x)
}

/// Exact numbers, comma-separated: `0.75,5/8,1/2`.
pub fn parse_exact_list(flag: &str, text: &str) -> Result<Vec<Q>> {
    parse_rational_list(text).map_err(|e| Error::InvalidInput(format!("{flag}: {e}")))
}

/// Numbers for an f64 computation, comma-separated, each read as
/// [`parse_f64`] reads one.
pub fn parse_f64_list(flag: &str, text: &str) -> Result<Vec<f64>> {
    let parts: Vec<&str> = text.split(',').collect();
    parse_exact_list(flag, text)?
        .iter()
        .zip(parts)
        .map(|(q, given)| f64_of(flag, given, q))
        .collect()
}

/// One number for an f64 computation, where a list is refused.
pub fn parse_one(flag: &str, text: &str) -> Result<f64> {
    match parse_f64_list(flag, text)?.as_slice() {
        [x] => Ok(*x),
        _ => Err(Error::InvalidInput(format!(
            "{flag} takes one number, got '{text}'"
        ))),
    }
}

/// A number of simulated rounds: `1000000`, `10^6` or `1e6`, positive.
pub fn parse_rounds(text: &str) -> Result<u64> {
    let t = text.trim();
    let bad = || {
        Error::InvalidInput(format!(
            "--horizon expects a positive integer such as 1000000, 10^6 or 1e6, got '{t}'"
        ))
    };
    let power = |base: &str, exp: &str| -> Result<u64> {
        let b: u64 = base.parse().map_err(|_| bad())?;
        let e: u32 = exp.parse().map_err(|_| bad())?;
        b.checked_pow(e).ok_or_else(bad)
    };
    let value = if let Some((b, e)) = t.split_once('^') {
        power(b, e)?
    } else if let Some((m, e)) = t.split_once(['e', 'E']) {
        let m: u64 = m.parse().map_err(|_| bad())?;
        m.checked_mul(power("10", e)?).ok_or_else(bad)?
    } else {
        t.parse().map_err(|_| bad())?
    };
    if value == 0 {
        return Err(bad());
    }
    Ok(value)
}

/// A seed: an integer in `0..2^64`.
pub fn parse_seed(text: &str) -> Result<u64> {
    text.trim().parse().map_err(|_| {
        Error::Parse(format!(
            "--seed expects an integer in 0..2^64, got '{text}'"
        ))
    })
}

/// A horizon in the grammar of every command ([`parse_power_count`]:
/// `3`, `2^2`, `2^2-1`).
pub fn parse_horizon(text: &str) -> Result<usize> {
    parse_power_count(text)
        .and_then(|t| usize::try_from(t).ok())
        .ok_or_else(|| {
            Error::Parse(format!(
                "--horizon expects a non-negative integer such as 3, 2^2 or 2^2-1, got '{text}'"
            ))
        })
}

/// `--sequence`: an action sequence, comma-separated, numbered from `base`
/// (0-based in the result).
pub fn parse_actions(text: &str, base: u32) -> Result<Vec<usize>> {
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

/// A parameter that is 0 or 1 (`--resample`, `--base`).
pub fn parse_bit(flag: &str, text: &str) -> Result<u32> {
    match text.trim() {
        "0" => Ok(0),
        "1" => Ok(1),
        other => Err(Error::InvalidInput(format!(
            "{flag} expects 0 or 1, got '{other}'"
        ))),
    }
}

/// `--epoch-length`: positive integers, comma-separated.
pub fn parse_lengths(text: &str) -> Result<Vec<u64>> {
    text.split(',')
        .map(|r| match r.trim().parse::<u64>() {
            Ok(n) if n > 0 => Ok(n),
            _ => Err(Error::Parse(format!(
                "--epoch-length expects positive integers R_1,R_2,… (the last repeats), got '{text}'"
            ))),
        })
        .collect()
}
