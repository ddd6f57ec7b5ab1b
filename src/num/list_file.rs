//! Lists of exact numbers read from a file (`--losses-file`, `--means-file`):
//! a command line cannot carry `K = 10^5` values.
//!
//! Two formats, told apart by the first non-blank character: a JSON array
//! (`["0", "1/2", 0.25]`, entries as strings or plain numbers, read as
//! written — never through an f64), or CSV (entries separated by commas
//! and/or line breaks). Every entry is parsed by [`parse_rational`]. The file
//! is untrusted: at most [`MAX_LIST_FILE_BYTES`] bytes are read (a larger
//! file, or an endless one like `/dev/zero`, is refused), and a bad entry is
//! one line naming the file and the entry.

use super::{parse_rational, Q};
use crate::error::{io_reason, Error, Result};
use std::io::Read;
use std::path::Path;

/// The largest list file read: 16 MiB (about a million entries).
pub const MAX_LIST_FILE_BYTES: u64 = 16 << 20;

/// The numbers of a list file (see the module documentation).
///
/// ```
/// use dpdtol::num::{read_rational_file, Q};
/// let path = std::env::temp_dir().join("dpdtol-doc-list.json");
/// std::fs::write(&path, r#"["1/2", 0.25, "3"]"#).unwrap();
/// let values = read_rational_file(&path).unwrap();
/// assert_eq!(values, vec![Q::new(1.into(), 2.into()), Q::new(1.into(), 4.into()), Q::from_integer(3.into())]);
/// ```
pub fn read_rational_file(path: &Path) -> Result<Vec<Q>> {
    let name = path.display();
    let bytes = read_bounded(path, MAX_LIST_FILE_BYTES, "a list file (16 MiB)")?;
    let text =
        String::from_utf8(bytes).map_err(|_| Error::Parse(format!("{name} is not UTF-8 text")))?;
    parse_list_text(&text).map_err(|e| match e {
        Error::Parse(why) => Error::Parse(format!("{name}: {why}")),
        other => other,
    })
}

/// The bytes of an untrusted input file, the one reader of every input
/// file: a regular file (a pipe or a device, which could block or never
/// end, is refused before it is opened), of which at most `limit + 1` bytes
/// are read: a larger file, or one that grows while read, is refused with
/// its limit (`what` names the kind of file, with its limit), never read
/// until memory runs out.
pub fn read_bounded(path: &Path, limit: u64, what: &str) -> Result<Vec<u8>> {
    let name = path.display();
    let meta = std::fs::metadata(path)
        .map_err(|e| Error::InvalidInput(format!("cannot open {name}: {}", io_reason(&e))))?;
    if !meta.is_file() {
        return Err(Error::InvalidInput(format!(
            "{name} is not a regular file (pipes and devices are refused as {what})"
        )));
    }
    if meta.len() > limit {
        return Err(Error::TooLarge(format!(
            "{name} is larger than {limit} bytes, the limit of {what}"
        )));
    }
    let file = std::fs::File::open(path)
        .map_err(|e| Error::InvalidInput(format!("cannot open {name}: {}", io_reason(&e))))?;
    let mut bytes = Vec::new();
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::InvalidInput(format!("cannot read {name}: {}", io_reason(&e))))?;
    if bytes.len() as u64 > limit {
        return Err(Error::TooLarge(format!(
            "{name} is larger than {limit} bytes, the limit of {what}"
        )));
    }
    Ok(bytes)
}

/// The entries of a list file's text: a JSON array or CSV.
fn parse_list_text(text: &str) -> Result<Vec<Q>> {
    let body = text.trim();
    let (entries, json) = match body.strip_prefix('[') {
        Some(rest) => {
            let inner = rest
                .strip_suffix(']')
                .ok_or_else(|| Error::Parse("a JSON array must end with ']'".into()))?;
            (inner.split(',').collect::<Vec<_>>(), true)
        }
        None => (body.split([',', '\n', '\r']).collect(), false),
    };
    let mut out = Vec::with_capacity(entries.len());
    for (i, raw) in entries.iter().enumerate() {
        let mut entry = raw.trim();
        if entry.is_empty() && !json {
            continue;
        }
        if json {
            if let Some(inner) = entry.strip_prefix('"').and_then(|e| e.strip_suffix('"')) {
                entry = inner;
            }
        }
        let value = parse_rational(entry).map_err(|_| {
            Error::Parse(format!(
                "entry {} is '{}', not a number (expected e.g. 3, 0.25, 1e-3 or 1/4)",
                i + 1,
                entry.chars().take(40).collect::<String>()
            ))
        })?;
        out.push(value);
    }
    if out.is_empty() {
        return Err(Error::Parse("the list is empty".into()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_and_json_agree_exactly() {
        let csv = parse_list_text("0, 1/3\n0.1\n\n2e-3\n").unwrap();
        let json = parse_list_text(r#"[ "0", "1/3", 0.1, "2e-3" ]"#).unwrap();
        // 0.1 is read as the exact tenth, not the double nearest to it.
        let expected = vec![
            Q::from_integer(0.into()),
            Q::new(1.into(), 3.into()),
            Q::new(1.into(), 10.into()),
            Q::new(1.into(), 500.into()),
        ];
        assert_eq!(csv, expected);
        assert_eq!(json, expected);
    }

    #[test]
    fn bad_entries_are_named() {
        let e = parse_list_text("0,1,x").unwrap_err().to_string();
        assert!(e.contains("entry 3") && e.contains("'x'"), "{e}");
        assert!(parse_list_text("[1, 2").is_err());
        assert!(parse_list_text("[1, {\"a\": 2}]").is_err());
        assert!(parse_list_text(" \n").is_err());
        assert!(parse_list_text("[]").is_err());
    }
}
