//! A reading of an open choice of an algorithm's pseudo-code (DP-SE's pull
//! order, UCB1's tie-breaking, the round DP-TS's bonus reads): a finite list of named values, the default
//! first, read from and written as their names on the command line, in
//! Python and in the reports.

use crate::error::{Error, Result};

/// A finite list of named values read from and written as their names.
pub trait Named: Sized + Copy + 'static {
    /// Every value, the default first.
    const ALL: &'static [Self];
    /// The flag that takes it, in messages.
    const FLAG: &'static str;
    /// Its name on the command line and in reports.
    fn name(self) -> &'static str;
    /// The value named `text`, or an error listing the names.
    fn parse(text: &str) -> Result<Self> {
        let text = text.trim();
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.name() == text)
            .ok_or_else(|| {
                let names: Vec<&str> = Self::ALL.iter().map(|v| v.name()).collect();
                Error::InvalidInput(format!(
                    "{} expects one of {}, got '{text}'",
                    Self::FLAG,
                    names.join(", ")
                ))
            })
    }
    /// The value named `text` when given, else the default (the first).
    fn given(text: Option<&str>) -> Result<Self> {
        text.map_or(Ok(Self::ALL[0]), Self::parse)
    }
}

/// [`Named`], `Display` and `FromStr` for an enum from one list of its
/// variants and their names (the default first) and the flag that takes it.
macro_rules! named {
    ($t:ident, $flag:literal, { $($variant:ident => $name:literal),+ $(,)? }) => {
        impl $crate::bandit::policy::reading::Named for $t {
            const ALL: &'static [$t] = &[$($t::$variant),+];
            const FLAG: &'static str = $flag;
            fn name(self) -> &'static str {
                match self {
                    $($t::$variant => $name),+
                }
            }
        }
        impl std::fmt::Display for $t {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str($crate::bandit::policy::reading::Named::name(*self))
            }
        }
        impl std::str::FromStr for $t {
            type Err = $crate::error::Error;
            fn from_str(s: &str) -> $crate::error::Result<$t> {
                <$t as $crate::bandit::policy::reading::Named>::parse(s)
            }
        }
    };
}

pub(crate) use named;
