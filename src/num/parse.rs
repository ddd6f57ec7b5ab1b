//! Exact parsing of the numbers users write: `3`, `-0.25`, `1e-3`, `2.5E2`, `1/4`.

use super::Q;
use crate::error::{Error, Result};
use num_bigint::BigInt;
use num_traits::Zero;

/// Parse a decimal (with optional exponent) or a fraction `p/q`, exactly.
///
/// ```
/// use dpdtol::num::{parse_rational, Q};
/// assert_eq!(parse_rational("0.25").unwrap(), Q::new(1.into(), 4.into()));
/// assert_eq!(parse_rational("1/4").unwrap(), Q::new(1.into(), 4.into()));
/// assert_eq!(parse_rational("-2e-1").unwrap(), Q::new((-1).into(), 5.into()));
/// assert!(parse_rational("abc").is_err());
/// ```
pub fn parse_rational(text: &str) -> Result<Q> {
    let text = text.trim();
    let bad = || Error::Parse(format!("'{text}' (expected e.g. 3, 0.25, 1e-3 or 1/4)"));
    if let Some((numer, denom)) = text.split_once('/') {
        let numer = parse_decimal(numer.trim()).ok_or_else(bad)?;
        let denom = parse_decimal(denom.trim()).ok_or_else(bad)?;
        if denom.is_zero() {
            return Err(Error::Parse(format!("'{text}' has a zero denominator")));
        }
        return Ok(numer / denom);
    }
    parse_decimal(text).ok_or_else(bad)
}

/// Parse a comma-separated list of numbers (`0,1/2,1`); an empty list is an error.
pub fn parse_rational_list(text: &str) -> Result<Vec<Q>> {
    if text.trim().is_empty() {
        return Err(Error::Parse("empty list of numbers".to_string()));
    }
    text.split(',').map(parse_rational).collect()
}

fn parse_decimal(text: &str) -> Option<Q> {
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(i) => (&text[..i], text[i + 1..].parse::<i32>().ok()?),
        None => (text, 0),
    };
    let (negative, mantissa) = match mantissa.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, mantissa.strip_prefix('+').unwrap_or(mantissa)),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if whole.is_empty() && fraction.is_empty() {
        return None;
    }
    if !whole
        .chars()
        .chain(fraction.chars())
        .all(|c| c.is_ascii_digit())
    {
        return None;
    }
    if exponent.unsigned_abs() > 10_000 {
        return None;
    }
    let digits: BigInt = format!("0{whole}{fraction}").parse().ok()?;
    let scale = exponent - fraction.len() as i32;
    let ten = BigInt::from(10u32);
    let value = if scale >= 0 {
        Q::from_integer(digits * ten.pow(scale as u32))
    } else {
        Q::new(digits, ten.pow((-scale) as u32))
    };
    Some(if negative { -value } else { value })
}

/// Parse a count written as an integer (`1000`, `1e3`) or as a power of two
/// with an optional offset: `2^k`, `2^k+c`, `2^k-c` (`k` and `c` plain digits,
/// `k ≤ 200`). The grammar is strict: `2^10--5`, `2^10-`, `2^-3`, `2^1.5` and
/// anything else are refused (`None`); the value may be zero or negative
/// (`2^3-9`), for the caller to range-check.
///
/// ```
/// use dpdtol::num::parse_power_count;
/// assert_eq!(parse_power_count("2^10-1"), Some(1023.into()));
/// assert_eq!(parse_power_count("1e3"), Some(1000.into()));
/// assert_eq!(parse_power_count("2^10--5"), None);
/// ```
pub fn parse_power_count(text: &str) -> Option<BigInt> {
    let text = text.trim();
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let Some(rest) = text.strip_prefix("2^") else {
        let q = parse_rational(text).ok()?;
        return q.is_integer().then(|| q.to_integer());
    };
    let (k, offset) = match rest.find(['+', '-']) {
        Some(i) => (&rest[..i], Some((&rest[i..=i], &rest[i + 1..]))),
        None => (rest, None),
    };
    if !digits(k) || k.len() > 3 {
        return None;
    }
    let k: u32 = k.parse().ok()?;
    if k > 200 {
        return None;
    }
    let base = BigInt::from(1u8) << k;
    match offset {
        None => Some(base),
        Some((_, c)) if !digits(c) || c.len() > 100 => None,
        Some((sign, c)) => {
            let c: BigInt = c.parse().ok()?;
            Some(if sign == "+" { base + c } else { base - c })
        }
    }
}
