//! Raising the working precision until a certified computation is precise
//! enough (or a comparison is decided).

use super::Precision;
use crate::error::{Error, Result};

/// The highest precision a certified law is refined to, `2^16` bits.
pub const MAX_LAW_PRECISION: u32 = 1 << 16;

/// The most relative decimal digits a certified law can be asked for: those
/// [`MAX_LAW_PRECISION`] bits carry, `⌊2^16 · log₁₀ 2⌋ = 19728`. More would
/// never be met, and the target `10^−digits` alone would take memory that
/// grows with `digits`.
pub const MAX_DIGITS: u32 = 19_728;

/// Refuse a number of relative digits over [`MAX_DIGITS`].
pub fn check_digits(digits: u32) -> Result<()> {
    if digits > MAX_DIGITS {
        return Err(Error::InvalidInput(format!(
            "digits: at most {MAX_DIGITS} relative digits can be certified (the precision cap of 2^16 bits), got {digits}"
        )));
    }
    Ok(())
}

/// The outcome of [`refine_until`]: the last value computed, the precision it
/// was computed at, and whether it met the acceptance test.
#[derive(Clone, Debug)]
pub struct Refined<T> {
    /// The value at the last precision tried.
    pub value: T,
    /// The precision of that value.
    pub precision: Precision,
    /// Whether the acceptance test held; when false the caller reports
    /// "undecided" with the enclosure it has.
    pub accepted: bool,
}

/// Run `compute` at `start` bits, doubling the precision until `accept` holds
/// or `max` bits have been tried.
pub fn refine_until<T>(
    start: Precision,
    max: Precision,
    mut compute: impl FnMut(Precision) -> Result<T>,
    mut accept: impl FnMut(&T) -> bool,
) -> Result<Refined<T>> {
    let mut bits = start.0.max(2);
    loop {
        let value = compute(Precision(bits))?;
        let accepted = accept(&value);
        if accepted || bits >= max.0 {
            return Ok(Refined {
                value,
                precision: Precision(bits),
                accepted,
            });
        }
        bits = (bits * 2).min(max.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `MAX_DIGITS` is what the cap carries: 2^16 · log₁₀ 2 = 19728.3.
    #[test]
    fn max_digits_is_what_the_precision_cap_carries() {
        let carried = f64::from(MAX_LAW_PRECISION) * std::f64::consts::LOG10_2;
        assert_eq!(MAX_DIGITS, carried.floor() as u32);
        assert!(check_digits(MAX_DIGITS).is_ok());
        assert!(check_digits(MAX_DIGITS + 1).is_err());
    }
}
