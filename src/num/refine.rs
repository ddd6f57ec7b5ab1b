//! Raising the working precision until a certified computation is precise
//! enough (or a comparison is decided).

use super::Precision;
use crate::error::Result;

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
