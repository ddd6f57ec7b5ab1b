//! Decimal strings of rationals with a given number of significant digits,
//! rounded to nearest or in a chosen direction (for the ends of an interval),
//! and the decimal of an enclosure with only the digits it guarantees.
//!
//! Everything runs on integers (no rational arithmetic, whose gcds cost
//! quadratic time): a value like `e^{10^6} ≈ 3.03e434294` is written in
//! milliseconds.

use super::interval::Dir;
use super::Q;
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{Signed, Zero};

/// `q` to `digits` significant digits, rounded half away from zero:
/// plain notation for exponents in −5..digits, scientific (`1.5e-7`) beyond.
///
/// ```
/// use dpdtol::num::{format_sig, Q};
/// assert_eq!(format_sig(&Q::new(1.into(), 3.into()), 5), "0.33333");
/// assert_eq!(format_sig(&Q::new(2.into(), 3.into()), 3), "0.667");
/// assert_eq!(format_sig(&Q::new((-1).into(), 10_000_000.into()), 2), "-1.0e-7");
/// ```
pub fn format_sig(q: &Q, digits: usize) -> String {
    format_with(q, digits, Rounding::Nearest)
}

/// `q` for a message: the exact fraction when it is short (at most 24
/// characters, `1/4`), else six significant digits (`1.00000e-100`), so
/// that a value of a thousand digits does not fill the line.
///
/// ```
/// use dpdtol::num::{format_brief, parse_rational};
/// assert_eq!(format_brief(&parse_rational("1/4").unwrap()), "1/4");
/// assert_eq!(format_brief(&parse_rational("1e-100").unwrap()), "1.00000e-100");
/// ```
pub fn format_brief(q: &Q) -> String {
    // The bit lengths bound the digits without writing them out.
    if q.numer().bits() + q.denom().bits() <= 64 {
        let exact = q.to_string();
        if exact.len() <= 24 {
            return exact;
        }
    }
    format_sig(q, 6)
}

/// `q` to `digits` significant digits rounded toward −∞ ([`Dir::Down`]) or +∞
/// ([`Dir::Up`]): the decimal is a lower (upper) bound of `q`.
///
/// ```
/// use dpdtol::num::{format_sig_directed, Dir, Q};
/// let third = Q::new(1.into(), 3.into());
/// assert_eq!(format_sig_directed(&third, 3, Dir::Down), "0.333");
/// assert_eq!(format_sig_directed(&third, 3, Dir::Up), "0.334");
/// ```
pub fn format_sig_directed(q: &Q, digits: usize, dir: Dir) -> String {
    format_with(q, digits, Rounding::Directed(dir))
}

#[derive(Clone, Copy)]
enum Rounding {
    Nearest,
    Directed(Dir),
}

fn pow10(n: u32) -> BigInt {
    BigInt::from(10u32).pow(n)
}

/// `|q| · 10^shift` rounded to an integer: toward zero, then adjusted.
fn scaled_integer(q: &Q, shift: i64, rounding: Rounding) -> BigInt {
    let (mut numer, mut denom) = (q.numer().abs(), q.denom().clone());
    if shift >= 0 {
        numer *= pow10(shift as u32);
    } else {
        denom *= pow10((-shift) as u32);
    }
    let (quotient, remainder) = numer.div_rem(&denom);
    let negative = q.is_negative();
    let round_up = !remainder.is_zero()
        && match rounding {
            Rounding::Nearest => remainder * 2u32 >= denom,
            // Rounding the magnitude away from zero moves a negative number down.
            Rounding::Directed(Dir::Up) => !negative,
            Rounding::Directed(Dir::Down) => negative,
        };
    if round_up {
        quotient + 1u32
    } else {
        quotient
    }
}

fn format_with(q: &Q, digits: usize, rounding: Rounding) -> String {
    let digits = digits.max(1);
    if q.is_zero() {
        return "0".to_string();
    }
    let mut exponent = decimal_exponent(q);
    let mut mantissa = scaled_integer(q, digits as i64 - 1 - exponent, rounding);
    if mantissa.to_string().len() > digits {
        // Rounding carried into a new digit (9.99… → 10.0…).
        exponent += 1;
        mantissa = scaled_integer(q, digits as i64 - 1 - exponent, rounding);
    }
    let text = mantissa.to_string();
    let sign = if q.is_negative() { "-" } else { "" };
    let body = if (-5..digits as i64).contains(&exponent) {
        if exponent < 0 {
            format!("0.{}{}", "0".repeat((-exponent - 1) as usize), text)
        } else {
            let point = exponent as usize + 1;
            if point >= text.len() {
                text
            } else {
                format!("{}.{}", &text[..point], &text[point..])
            }
        }
    } else {
        let rest = if text.len() > 1 {
            format!(".{}", &text[1..])
        } else {
            String::new()
        };
        format!("{}{}e{}", &text[..1], rest, exponent)
    };
    format!("{sign}{body}")
}

/// The decimal exponent `e` with `10^e ≤ |q| < 10^{e+1}`, for `q ≠ 0`, by
/// integer comparisons only.
fn decimal_exponent(q: &Q) -> i64 {
    let (numer, denom) = (q.numer().abs(), q.denom().clone());
    // An estimate within ±1 from the bit lengths (log10 2 < 0.30103), then exact steps.
    let bits = numer.bits() as i64 - denom.bits() as i64;
    let mut exponent = (bits as f64 * std::f64::consts::LOG10_2).floor() as i64;
    // 10^e ≤ n/d  ⟺  d·10^e ≤ n (e ≥ 0)  or  d ≤ n·10^{−e} (e < 0).
    let at_least = |e: i64| {
        if e >= 0 {
            &denom * pow10(e as u32) <= numer
        } else {
            denom <= &numer * pow10((-e) as u32)
        }
    };
    while !at_least(exponent) {
        exponent -= 1;
    }
    while at_least(exponent + 1) {
        exponent += 1;
    }
    exponent
}

/// The decimal of a value known only to lie in `[lo, hi]`, with the most
/// significant digits (at most `max`) that every point of the interval
/// rounds to alike, so each digit printed is that of the true value
/// correctly rounded; and how many digits that is. `None` when not even one
/// digit is certain.
///
/// ```
/// use dpdtol::num::{certain_digits, parse_rational};
/// let lo = parse_rational("0.123456").unwrap();
/// let hi = parse_rational("0.123458").unwrap();
/// assert_eq!(certain_digits(&lo, &hi, 40), Some(("0.12346".to_string(), 5)));
/// let wide = (parse_rational("0.9").unwrap(), parse_rational("1.1").unwrap());
/// assert_eq!(certain_digits(&wide.0, &wide.1, 40), None);
/// ```
pub fn certain_digits(lo: &Q, hi: &Q, max: usize) -> Option<(String, usize)> {
    if lo == hi {
        return Some((format_sig(lo, max), max));
    }
    (1..=max.max(1))
        .rev()
        .map(|d| (format_sig(lo, d), format_sig(hi, d), d))
        .find(|(a, b, _)| a == b)
        .map(|(a, _, d)| (a, d))
}

/// [`certain_digits`] as text: the certain decimal, or, when no digit is
/// certain, the enclosure itself as `[lo, hi]` (three digits, rounded
/// outward).
///
/// ```
/// use dpdtol::num::{format_certain, parse_rational};
/// let (lo, hi) = (parse_rational("0.9").unwrap(), parse_rational("1.1").unwrap());
/// assert_eq!(format_certain(&lo, &hi, 40), "[0.900, 1.10]");
/// ```
pub fn format_certain(lo: &Q, hi: &Q, max: usize) -> String {
    match certain_digits(lo, hi, max) {
        Some((text, _)) => text,
        None => format!(
            "[{}, {}]",
            format_sig_directed(lo, 3, Dir::Down),
            format_sig_directed(hi, 3, Dir::Up)
        ),
    }
}
