//! Exact parsing of the numbers users write: `3`, `-0.25`, `1e-3`, `2.5E2`, `1/4`.

use super::Q;
use crate::error::{Error, Result};
use num_bigint::BigInt;
use num_traits::Zero;

/// The largest decimal exponent a number may carry, counting the digits
/// after the point: `|e − (digits after the point)| ≤ 2·10^5`, so that the
/// tiny values the commands print (`4.52…e-130289` for a weight
/// `e^{−300000}`) read back. Not further: the rationals' arithmetic reduces
/// by a binary gcd, quadratic in the bits, and a subtraction of two
/// numbers of `10^6` decimal digits takes minutes. The smallest weight
/// `mechanism` prints without `--force`, `e^{−460000}` (about
/// `10^{−199775}`), is inside this limit. Checked on the exponent's digits before any power of ten is
/// formed: `1e-1000000000` is refused at once.
pub const MAX_DECIMAL_EXPONENT: u64 = 200_000;

/// The most digits a number's mantissa may have (reading a decimal string
/// into an integer is quadratic in its length).
pub const MAX_MANTISSA_DIGITS: usize = 100_000;

/// Parse a decimal (with optional exponent) or a fraction `p/q`, exactly.
/// Exponents up to [`MAX_DECIMAL_EXPONENT`] and mantissas up to
/// [`MAX_MANTISSA_DIGITS`] digits; beyond, an error naming the limit.
///
/// ```
/// use dpdtol::num::{parse_rational, Q};
/// assert_eq!(parse_rational("0.25").unwrap(), Q::new(1.into(), 4.into()));
/// assert_eq!(parse_rational("1/4").unwrap(), Q::new(1.into(), 4.into()));
/// assert_eq!(parse_rational("-2e-1").unwrap(), Q::new((-1).into(), 5.into()));
/// assert!(parse_rational("abc").is_err());
/// assert!(parse_rational("1e-130289").is_ok());
/// assert!(parse_rational("1e-1000000000").is_err());
/// ```
pub fn parse_rational(text: &str) -> Result<Q> {
    let text = text.trim();
    let bad =
        |why: Option<String>| {
            Error::Parse(why.unwrap_or_else(|| {
                format!("'{}' (expected e.g. 3, 0.25, 1e-3 or 1/4)", shorten(text))
            }))
        };
    if let Some((numer, denom)) = text.split_once('/') {
        let numer = parse_decimal(numer.trim()).map_err(bad)?;
        let denom = parse_decimal(denom.trim()).map_err(bad)?;
        if denom.is_zero() {
            return Err(Error::Parse(format!(
                "'{}' has a zero denominator",
                shorten(text)
            )));
        }
        return Ok(numer / denom);
    }
    parse_decimal(text).map_err(bad)
}

/// `text`, cut to 60 characters for a message.
fn shorten(text: &str) -> String {
    if text.chars().count() <= 60 {
        text.to_string()
    } else {
        format!("{}…", text.chars().take(60).collect::<String>())
    }
}

/// Parse a comma-separated list of numbers (`0,1/2,1`); an empty list is an error.
pub fn parse_rational_list(text: &str) -> Result<Vec<Q>> {
    if text.trim().is_empty() {
        return Err(Error::Parse("empty list of numbers".to_string()));
    }
    text.split(',').map(parse_rational).collect()
}

/// A decimal `[±]digits[.digits][e[±]digits]`; `Err(None)` when malformed,
/// `Err(Some(why))` past a size limit (checked before any big integer is
/// built).
fn parse_decimal(text: &str) -> std::result::Result<Q, Option<String>> {
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(i) => (&text[..i], exponent(&text[i + 1..]).ok_or(None)?),
        None => (text, Some(0)),
    };
    let (negative, mantissa) = match mantissa.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, mantissa.strip_prefix('+').unwrap_or(mantissa)),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if whole.is_empty() && fraction.is_empty() {
        return Err(None);
    }
    if !whole
        .chars()
        .chain(fraction.chars())
        .all(|c| c.is_ascii_digit())
    {
        return Err(None);
    }
    let too_large = || {
        Some(format!(
            "'{}' is beyond the exact arithmetic's limits (decimal exponents up to ±{MAX_DECIMAL_EXPONENT}, mantissas up to {MAX_MANTISSA_DIGITS} digits)",
            shorten(text)
        ))
    };
    if whole.len() + fraction.len() > MAX_MANTISSA_DIGITS {
        return Err(too_large());
    }
    // The scale, e − (digits after the point), on numbers first.
    let scale = exponent
        .and_then(|e| e.checked_sub(fraction.len() as i64))
        .filter(|s| s.unsigned_abs() <= MAX_DECIMAL_EXPONENT)
        .ok_or_else(too_large)?;
    let digits: BigInt = format!("0{whole}{fraction}").parse().map_err(|_| None)?;
    if digits.is_zero() {
        return Ok(Q::zero());
    }
    // |scale| ≤ 2·10^5 fits u32.
    let value = if scale >= 0 {
        Q::from_integer(digits * BigInt::from(10u32).pow(scale as u32))
    } else {
        over_power_of_ten(digits, scale.unsigned_abs() as u32)
    };
    Ok(if negative { -value } else { value })
}

/// `digits / 10^s` in lowest terms, reduced by hand: `10^s = 2^s 5^s`, so
/// only the factors 2 and 5 of `digits` can cancel (the generic reduction's
/// binary gcd shifts a million-bit `10^s` one bit at a time: minutes).
fn over_power_of_ten(digits: BigInt, s: u32) -> Q {
    let twos = digits.trailing_zeros().unwrap_or(0).min(u64::from(s)) as u32;
    let mut numer = digits >> twos;
    let five = BigInt::from(5u32);
    let mut fives = 0u32;
    while fives < s && (&numer % &five).is_zero() {
        numer /= &five;
        fives += 1;
    }
    let denom = (BigInt::from(1u32) << (s - twos)) * five.pow(s - fives);
    Q::new_raw(numer, denom)
}

/// The exponent after `e`: `[±]digits`. `None` when malformed; `Some(None)`
/// when it has more than 18 significant digits (beyond any limit).
fn exponent(text: &str) -> Option<Option<i64>> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let significant = digits.trim_start_matches('0');
    if significant.len() > 18 {
        return Some(None);
    }
    let value: i64 = if significant.is_empty() {
        0
    } else {
        significant.parse().ok()?
    };
    Some(Some(if negative { -value } else { value }))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_are_in_lowest_terms() {
        // Against the generic reduction (Q::new) on small exponents, where
        // it is fast: every combination of factors 2 and 5 in the mantissa.
        for text in [
            "0.5",
            "2.5e-3",
            "1280e-9",
            "0.0625",
            "7e-5",
            "31.25",
            "-0.000400",
            "12.3e-2",
        ] {
            let (mantissa, exponent) = text.split_once('e').unwrap_or((text, "0"));
            let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
            let digits: BigInt = format!("{whole}{fraction}").parse().unwrap();
            let scale = exponent.parse::<i64>().unwrap() - fraction.len() as i64;
            let ten = BigInt::from(10u32);
            let expected = if scale >= 0 {
                Q::from_integer(digits * ten.pow(scale as u32))
            } else {
                Q::new(digits, ten.pow((-scale) as u32))
            };
            let got = parse_rational(text).unwrap();
            assert_eq!(got, expected, "{text}");
            assert_eq!(
                (got.numer().clone(), got.denom().clone()),
                (expected.numer().clone(), expected.denom().clone()),
                "{text}"
            );
        }
    }
}
