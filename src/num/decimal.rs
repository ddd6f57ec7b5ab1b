//! Decimal strings of rationals with a given number of significant digits,
//! rounded to nearest or in a chosen direction (for the ends of an interval).

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
    // Decimal exponent e with 10^e ≤ |q| < 10^{e+1}.
    let magnitude = q.abs();
    // An estimate within ±1 from the bit lengths (log10 2 < 0.30103), then exact steps.
    let bits = magnitude.numer().bits() as i64 - magnitude.denom().bits() as i64;
    let mut exponent = (bits as f64 * std::f64::consts::LOG10_2).floor() as i64;
    let ten = Q::from_integer(10.into());
    let power = |e: i64| {
        if e >= 0 {
            Q::from_integer(pow10(e as u32))
        } else {
            Q::new(1.into(), pow10((-e) as u32))
        }
    };
    while power(exponent) > magnitude {
        exponent -= 1;
    }
    while power(exponent) * &ten <= magnitude {
        exponent += 1;
    }
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
