//! The shard-and-merge contract: a check that splits into parts (`--shard
//! I/N`) whose reports merge exactly into the whole run's (`--merge`).
//!
//! A part comes from outside — another machine, a scheduler's output
//! folder, a hand — and is not trusted. It is read in one place,
//! [`accept`]:
//! 1. the file is a regular file of at most [`MAX_PART_BYTES`], read with
//!    that cap, UTF-8 JSON ([`read_json`]);
//! 2. it parses as the part's report type, every field of its type (a
//!    missing or malformed field is named);
//! 3. [`Part::check`] validates every value against its range and the run's
//!    parameters and re-evaluates what the part claims (its witness);
//! 4. the report the checked content writes ([`Part::written`]) must equal
//!    the file key for key: a field edited by hand — a decimal beside its
//!    exact value, an extra key — is refused, never silently rebuilt.
//!
//! What a merge guarantees: every number of the merged report, its verdict
//! and its witness are what the parts' checked contents give, and a witness
//! of a violation has been evaluated again. Explanatory text that no number
//! determines (a full-information report's `why_not_exact`, checked only to
//! be present exactly when the laws are certified) is carried from the
//! parts. A part that hides a violation it should have found ("my range
//! found nothing") is caught only by running that part again.
//!
//! Every refusal is one line that names the file and the field.

use crate::error::{Error, Result};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use std::path::Path;

/// The largest part read (a shard's report is a few kilobytes; a
/// statistical audit's counts a few hundred).
pub const MAX_PART_BYTES: u64 = 8 << 20;

/// The report of one part of a check, as written by `--shard I/N --json`.
pub trait Part: Serialize + DeserializeOwned {
    /// What a part is once read and checked.
    type Content;

    /// The command whose output this is, for messages: `dpdtol privacy`.
    const WRITER: &'static str;

    /// Check every value of a part read from outside against its range and
    /// re-evaluate what it claims; its content.
    fn check(&self) -> Result<Self::Content>;

    /// The report that `content` writes.
    fn written(content: &Self::Content) -> Self;
}

/// The JSON of a part file: a regular file of at most [`MAX_PART_BYTES`]
/// (devices and pipes are refused before they are read; a file that grows
/// while read is cut at the cap and refused), UTF-8 JSON.
pub fn read_json(path: &Path) -> Result<Value> {
    let name = path.display();
    let bytes = crate::num::read_bounded(
        path,
        MAX_PART_BYTES,
        "a merge input (a shard's --json output, at most 8 MiB)",
    )?;
    let text = String::from_utf8(bytes)
        .map_err(|_| Error::InvalidInput(format!("{name} is not UTF-8 text")))?;
    serde_json::from_str(&text).map_err(|e| {
        Error::InvalidInput(format!(
            "{name} is not valid JSON (line {}, column {})",
            e.line(),
            e.column()
        ))
    })
}

/// Accept `value`, the JSON of part file `name`, as a part of type `P`
/// (steps 2–4 of the contract); its checked content.
pub fn accept<P: Part>(name: &str, value: &Value) -> Result<P::Content> {
    let in_file = |e: Error| e.within(name);
    let part: P = serde_path_to_error::deserialize(value).map_err(|e| {
        in_file(Error::InvalidInput(format!(
            "field '{}' is missing or malformed (not the --json output of {})",
            field_of(&e),
            P::WRITER
        )))
    })?;
    let content = part.check().map_err(in_file)?;
    let written = serde_json::to_value(P::written(&content))
        .map_err(|e| in_file(Error::InvalidInput(e.to_string())))?;
    same_keys(&written, value, P::WRITER).map_err(in_file)?;
    Ok(content)
}

/// The field a parse error is about: its path, and for a missing field the
/// field's own name (serde reports it in the message, at the parent's path).
fn field_of(e: &serde_path_to_error::Error<serde_json::Error>) -> String {
    let path = e.path().to_string();
    let missing = e
        .inner()
        .to_string()
        .strip_prefix("missing field `")
        .and_then(|rest| rest.split('`').next().map(str::to_string));
    match (path.as_str(), missing) {
        (".", Some(name)) => name,
        (_, Some(name)) => format!("{path}.{name}"),
        (_, None) => path,
    }
}

/// `given` is `written` key for key (the first key that differs, in
/// alphabetical order, is named).
pub fn same_keys(written: &Value, given: &Value, writer: &str) -> Result<()> {
    let (Value::Object(written), Value::Object(given)) = (written, given) else {
        return Err(Error::InvalidInput(format!(
            "not the --json output of {writer}"
        )));
    };
    let mut keys: Vec<&String> = written.keys().chain(given.keys()).collect();
    keys.sort();
    match keys.into_iter().find(|k| written.get(*k) != given.get(*k)) {
        Some(key) => Err(Error::InvalidInput(format!(
            "field '{key}' is not what the report's own data give (not the --json output of {writer}, or altered)"
        ))),
        None => Ok(()),
    }
}
