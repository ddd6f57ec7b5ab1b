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

/// `10^n`; the last large power is kept (per thread), since a report
/// writes many values of one magnitude (`e^ε`, the ratios near it) and
/// `10^{7·10^6}` takes seconds to form.
fn pow10(n: u32) -> BigInt {
    const KEPT_FROM: u32 = 4096;
    thread_local! {
        static LAST: std::cell::RefCell<Option<(u32, BigInt)>> = const { std::cell::RefCell::new(None) };
    }
    if n < KEPT_FROM {
        return BigInt::from(10u32).pow(n);
    }
    LAST.with(|last| {
        let mut last = last.borrow_mut();
        match &*last {
            Some((m, p)) if *m == n => p.clone(),
            _ => {
                let p = BigInt::from(10u32).pow(n);
                *last = Some((n, p.clone()));
                p
            }
        }
    })
}

/// The leading decimal digits of a nonzero `q`, from which its decimal to
/// any number of significant digits up to `len − 1` is read without going
/// back to `q`: the decimal exponent `e` (`10^e ≤ |q| < 10^{e+1}`),
/// `⌊|q|·10^{len−1−e}⌋` (`len` digits) and whether that floor dropped
/// anything. The powers of ten and the division are done once here, which
/// matters for a value like `e^{2^24}` (an exponent of seven million
/// digits).
struct Leading {
    negative: bool,
    exponent: i64,
    truncated: BigInt,
    len: usize,
    inexact: bool,
}

impl Leading {
    fn of(q: &Q, len: usize) -> Leading {
        let (exponent, power) = decimal_exponent(q);
        let shift = len as i64 - 1 - exponent;
        let (mut numer, mut denom) = (q.numer().abs(), q.denom().clone());
        // 10^shift from 10^{|e|}, formed once by decimal_exponent.
        let head = pow10(len as u32 - 1);
        if exponent < 0 {
            numer *= power * head;
        } else if shift >= 0 {
            numer *= pow10(shift as u32);
        } else {
            denom *= power / head;
        }
        let (truncated, remainder) = numer.div_rem(&denom);
        Leading {
            negative: q.is_negative(),
            exponent,
            truncated,
            len,
            inexact: !remainder.is_zero(),
        }
    }

    /// The decimal to `digits < len` significant digits (one digit at
    /// least is dropped): its mantissa of
    /// `digits` digits and its exponent. Rounding half away from zero reads
    /// the dropped digits alone (they are integers: a dropped part below
    /// `5·10^{k−1}` stays below it with the fraction added); a directed
    /// rounding of the magnitude moves away from zero when anything was
    /// dropped. A carry (9.99… → 10.0…) gives `10^{digits−1}` at the next
    /// exponent.
    fn round(&self, digits: usize, rounding: Rounding) -> (BigInt, i64) {
        let dropped = (self.len - digits) as u32;
        let (kept, rest) = self.truncated.div_rem(&pow10(dropped));
        let round_up = match rounding {
            Rounding::Nearest => rest >= pow10(dropped) / 2u32,
            Rounding::Directed(dir) => {
                let away = match dir {
                    Dir::Up => !self.negative,
                    Dir::Down => self.negative,
                };
                away && (self.inexact || !rest.is_zero())
            }
        };
        if !round_up {
            return (kept, self.exponent);
        }
        let mantissa = kept + 1u32;
        if mantissa == pow10(digits as u32) {
            (pow10(digits as u32 - 1), self.exponent + 1)
        } else {
            (mantissa, self.exponent)
        }
    }

    /// [`Leading::round`] written out: plain notation for exponents in
    /// −5..digits, scientific (`1.5e-7`) beyond.
    fn format(&self, digits: usize, rounding: Rounding) -> String {
        let (mantissa, exponent) = self.round(digits, rounding);
        let text = mantissa.to_string();
        let sign = if self.negative { "-" } else { "" };
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
}

fn format_with(q: &Q, digits: usize, rounding: Rounding) -> String {
    let digits = digits.max(1);
    if q.is_zero() {
        return "0".to_string();
    }
    Leading::of(q, digits + 1).format(digits, rounding)
}

/// `q` written exactly, `n/d` (`n` when `d = 1`), as `Q`'s `Display` writes
/// it; a numerator or denominator of millions of digits (the enclosure of
/// `e^{2^24}`) is written by halves, `⌊n/10^m⌋` then `n mod 10^m` padded
/// to `m` digits, in the time of a few divisions instead of the quadratic
/// digit-by-digit conversion (tens of seconds for 7 million digits).
pub fn exact_text(q: &Q) -> String {
    let numer = integer_text(&q.numer().abs());
    let sign = if q.is_negative() { "-" } else { "" };
    if q.denom() == &BigInt::from(1u32) {
        format!("{sign}{numer}")
    } else {
        format!("{sign}{numer}/{}", integer_text(q.denom()))
    }
}

/// The decimal digits of `n ≥ 0` ([`exact_text`]).
fn integer_text(n: &BigInt) -> String {
    const DIRECT_BITS: u64 = 1 << 15;
    if n.bits() <= DIRECT_BITS {
        return n.to_string();
    }
    let half = (n.bits() as f64 * std::f64::consts::LOG10_2 / 2.0) as u32;
    let (high, low) = n.div_rem(&pow10(half));
    let low = integer_text(&low);
    format!(
        "{}{}{low}",
        integer_text(&high),
        "0".repeat(half as usize - low.len())
    )
}

/// The decimal exponent `e` with `10^e ≤ |q| < 10^{e+1}`, for `q ≠ 0`, by
/// integer comparisons only, and `10^{|e|}`.
fn decimal_exponent(q: &Q) -> (i64, BigInt) {
    let (numer, denom) = (q.numer().abs(), q.denom().clone());
    // An estimate within ±1 from the bit lengths (log10 2 < 0.30103), then
    // exact steps, each power of ten from the last (one large power formed).
    let bits = numer.bits() as i64 - denom.bits() as i64;
    let mut exponent = (bits as f64 * std::f64::consts::LOG10_2).floor() as i64;
    let mut power = pow10(exponent.unsigned_abs() as u32);
    // 10^e ≤ n/d  ⟺  d·10^e ≤ n (e ≥ 0)  or  d ≤ n·10^{−e} (e < 0).
    let at_least = |e: i64, p: &BigInt| {
        if e >= 0 {
            &denom * p <= numer
        } else {
            denom <= &numer * p
        }
    };
    let step = |e: i64, p: BigInt, up: bool| -> BigInt {
        // 10^{|e ± 1|} from 10^{|e|}.
        if (up && e >= 0) || (!up && e <= 0) {
            p * 10u32
        } else {
            p / 10u32
        }
    };
    while !at_least(exponent, &power) {
        power = step(exponent, power, false);
        exponent -= 1;
    }
    loop {
        let next = step(exponent, power.clone(), true);
        if !at_least(exponent + 1, &next) {
            break;
        }
        power = next;
        exponent += 1;
    }
    (exponent, power)
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
    let max = max.max(1);
    // Each end's leading digits once, every length read from them.
    let leading = |q: &Q| (!q.is_zero()).then(|| Leading::of(q, max + 1));
    let (lo_digits, hi_digits) = (leading(lo), leading(hi));
    let format = |q: &Option<Leading>, d: usize| match q {
        Some(l) => l.format(d, Rounding::Nearest),
        None => "0".to_string(),
    };
    (1..=max)
        .rev()
        .map(|d| (format(&lo_digits, d), format(&hi_digits, d), d))
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

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigInt;

    /// `q` to `digits` significant digits by the definition: the integer
    /// `round(|q| · 10^{digits − 1 − e})` for each candidate exponent, with
    /// exact rationals (slow, independent of [`Leading`]).
    fn reference(q: &Q, digits: usize) -> (BigInt, i64) {
        let ten = Q::from_integer(10.into());
        let abs = q.abs();
        let mut e = 0i64;
        while Q::from_integer(1.into()) * ten.pow(e as i32) > abs {
            e -= 1;
        }
        while ten.pow(e as i32 + 1) <= abs {
            e += 1;
        }
        let scaled = &abs * ten.pow((digits as i64 - 1 - e) as i32);
        let half = Q::new(1.into(), 2.into());
        let m = (scaled + half).floor().to_integer();
        if m == BigInt::from(10u32).pow(digits as u32) {
            (BigInt::from(10u32).pow(digits as u32 - 1), e + 1)
        } else {
            (m, e)
        }
    }

    #[test]
    fn leading_digits_round_as_the_definition_does() {
        // Values that round up, carry into a new digit, sit exactly half
        // way, and lie below 10^{-5} or above 10^{40}.
        let cases = [
            "9995/1000",
            "-9995/1000",
            "1/3",
            "2/3",
            "125/1000",
            "1/7",
            "99999",
            "123456789/1000000000000",
            "7e40",
            "-1e-9",
            "5/100000000",
        ];
        for text in cases {
            let q = super::super::parse_rational(text).unwrap();
            for digits in 1..=8 {
                let (m, e) = Leading::of(&q, digits + 1).round(digits, Rounding::Nearest);
                assert_eq!((m, e), reference(&q, digits), "{text} to {digits} digits");
            }
        }
        assert_eq!(
            format_sig_directed(&Q::new((-1).into(), 3.into()), 2, Dir::Down),
            "-0.34"
        );
        assert_eq!(
            format_sig_directed(&Q::new((-1).into(), 3.into()), 2, Dir::Up),
            "-0.33"
        );
        assert_eq!(
            format_sig_directed(&Q::new(9999.into(), 1000.into()), 3, Dir::Up),
            "10.0"
        );
        assert_eq!(
            format_sig_directed(&Q::new(9999.into(), 1000.into()), 3, Dir::Down),
            "9.99"
        );
        assert_eq!(format_sig(&Q::new(9995.into(), 1000.into()), 3), "10.0");
    }

    #[test]
    fn exact_text_is_the_display_of_the_rational() {
        // Numbers past the direct conversion's 2^15 bits, split by halves.
        let big = BigInt::from(7u32).pow(40_000) + 12_345u32;
        for q in [
            Q::new(big.clone(), BigInt::from(3u32).pow(30_000)),
            Q::new(-big.clone(), 1.into()),
            Q::from_integer(BigInt::from(10u32).pow(20_000)),
            Q::new(1.into(), 3.into()),
        ] {
            assert_eq!(exact_text(&q), q.to_string());
        }
    }

    #[test]
    fn a_value_of_seven_million_decimal_digits_is_written_in_seconds() {
        // The enclosure of e^{2^24} ≈ 2^{24 204 406}: the powers of ten of
        // its exponent (7 286 252) are formed once, not once a digit count
        // and end (about 80 times, minutes).
        let big = BigInt::from(1u32) << 24_204_406u32;
        let lo = Q::from_integer(big.clone() * 3u32);
        let hi = Q::new(
            big * ((BigInt::from(3u32) << 128u32) + 1u32),
            BigInt::from(1u32) << 128u32,
        );
        let start = std::time::Instant::now();
        let (text, digits) = certain_digits(&lo, &hi, 40).unwrap();
        assert!(digits >= 30 && text.ends_with("e7286252"), "{text}");
        assert!(start.elapsed().as_secs() < 20, "{:?}", start.elapsed());
    }
}
