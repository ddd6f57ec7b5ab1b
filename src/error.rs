//! The crate's one error type.
//!
//! Every constructor and every entry point that takes user input returns
//! `Result<_, Error>`; the binary prints the `Display` form on one line of stderr
//! and exits with status 2, or 1 for [`Error::Write`] (the input was good, the
//! result could not be written).

use std::fmt;

/// What went wrong, in words a user of the command line can act on.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// A value given by the user is outside the domain the operation accepts
    /// (a negative scale, an empty loss vector, K = 1, …). The string says which.
    InvalidInput(String),
    /// A number on the command line that is not a decimal (`0.25`, `-3`, `1e-3`)
    /// or a fraction (`1/4`).
    Parse(String),
    /// An exact backend was asked for a value it cannot represent, such as a
    /// transcendental `exp(1/2)`. Use a certified backend instead.
    NotRepresentable(String),
    /// A transcendental function was evaluated outside its domain (`ln` of a
    /// non-positive number).
    Domain(String),
    /// An enumeration or evaluation larger than the configured limit; the string
    /// says how large and how to force it.
    TooLarge(String),
    /// A computed result could not be written to the file the user named (a
    /// full disk, `/dev/full`); the string names the file and the reason.
    Write(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidInput(s) => write!(f, "invalid input: {s}"),
            Error::Parse(s) => write!(f, "cannot parse number: {s}"),
            Error::NotRepresentable(s) => write!(f, "not representable exactly: {s}"),
            Error::Domain(s) => write!(f, "outside the domain: {s}"),
            Error::TooLarge(s) => write!(f, "too large: {s}"),
            Error::Write(s) => write!(f, "cannot write {s}"),
        }
    }
}

impl Error {
    /// The same error about a part of the input, `place` (a file, a round,
    /// a field): its message prefixed with `place: `, its kind kept, so that
    /// the kind's words appear once (`invalid input: f.json: round 2: …`).
    pub fn within(self, place: &str) -> Error {
        let at = |s: String| format!("{place}: {s}");
        match self {
            Error::InvalidInput(s) => Error::InvalidInput(at(s)),
            Error::Parse(s) => Error::Parse(at(s)),
            Error::NotRepresentable(s) => Error::NotRepresentable(at(s)),
            Error::Domain(s) => Error::Domain(at(s)),
            Error::TooLarge(s) => Error::TooLarge(at(s)),
            Error::Write(s) => Error::Write(at(s)),
        }
    }
}

impl std::error::Error for Error {}

/// The reason a file operation failed, in the user's words: the system's
/// message without its error number (`No such file or directory`, not
/// `No such file or directory (os error 2)`).
pub fn io_reason(e: &std::io::Error) -> String {
    let text = e.to_string();
    match text.rfind(" (os error ") {
        Some(at) if text.ends_with(')') => text[..at].to_string(),
        _ => text,
    }
}

/// Shorthand used throughout the crate.
pub type Result<T> = std::result::Result<T, Error>;
