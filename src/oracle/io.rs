//! Files in and out: loss sequences and reward tables (CSV or JSON, exact
//! decimals or `p/q`) and sample matrices (CSV or NPY, actions 0- or 1-based).
//!
//! - **Loss CSV**: one round a line, K losses separated by commas; blank
//!   lines and lines starting with `#` are skipped.
//! - **Loss JSON**: an array of rounds, each an array of K numbers or strings
//!   (`[[0, "1/2", 1], …]`); a JSON number is read from its decimal text,
//!   exactly (`0.1` is 1/10).
//! - **Sample CSV**: one sequence a line, one integer action a round,
//!   separated by commas; blank and `#` lines skipped.
//! - **Sample NPY**: a 1-D (one round) or 2-D array (sequences × rounds) of
//!   little-endian integers (`i1 i2 i4 i8 u1 u2 u4 u8`), either order; what
//!   this module writes is `<i4`, C order, NPY version 1.0, which
//!   `numpy.load` reads.
//!
//! The base (0 or 1) says how actions are numbered in the file; in memory
//! they are 0-based. The format is chosen by the extension: `.json` / `.npy`,
//! anything else is CSV.

use super::sample::Samples;
use crate::error::{io_reason, Error, Result};
use crate::num::{parse_rational, read_bounded, Q};
use crate::progress::{with_progress, Progress, Task};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The largest loss-sequence or sample file read: 256 MiB (about 64 million
/// actions in NPY `int32`); a larger or endless file (`/dev/zero`) is
/// refused after reading that much, not when memory runs out.
pub const MAX_ORACLE_FILE_BYTES: u64 = 256 << 20;

fn read_bytes(path: &Path) -> Result<Vec<u8>> {
    read_bounded(
        path,
        MAX_ORACLE_FILE_BYTES,
        "a loss or sample file (256 MiB)",
    )
}

fn read_text(path: &Path) -> Result<String> {
    String::from_utf8(read_bytes(path)?)
        .map_err(|_| Error::InvalidInput(format!("{} is not UTF-8 text", path.display())))
}

fn has_extension(path: &Path, ext: &str) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case(ext))
}

/// The format of a sample file, chosen by its extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum SampleFormat {
    /// One sequence a line, one integer action a round (any extension but `.npy`).
    Csv,
    /// A NumPy array, sequences × rounds (`.npy`).
    Npy,
}

impl SampleFormat {
    /// The format's name: `csv` or `npy`.
    pub fn name(self) -> &'static str {
        match self {
            SampleFormat::Csv => "csv",
            SampleFormat::Npy => "npy",
        }
    }

    /// The format of the sample file `path`.
    pub fn of(path: &Path) -> SampleFormat {
        if has_extension(path, "npy") {
            SampleFormat::Npy
        } else {
            SampleFormat::Csv
        }
    }
}

/// The lines of a CSV text that carry data, with their 1-based numbers.
fn data_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
}

/// Read a loss sequence from a CSV or JSON file (by extension).
pub fn read_losses(path: &Path) -> Result<Vec<Vec<Q>>> {
    read_table(path, |_| Ok(()))
}

/// Read a reward table from a CSV or JSON file (by extension), in the
/// formats of a loss sequence: one round a row of K rewards in `[0, 1]`,
/// checked by [`super::bandit::check_reward_table`].
pub fn read_rewards(path: &Path) -> Result<Vec<Vec<Q>>> {
    read_table(path, super::bandit::check_reward_table)
}

/// The memory one value of a table read takes, its text included: an
/// exact rational (two big integers, each with its digits on the heap) in
/// its row. Measured: 4·10^6 values `1/3` held 607 MB at the peak.
const TABLE_VALUE_BYTES: usize = 160;

/// A table of rationals from a CSV or JSON file, checked by `check`; an
/// error names the file. Its values are counted on the text first (at most
/// one a comma or line break, and one more) and a table that would not fit
/// [`crate::size::MEMORY_CAP`] is refused before it is parsed.
fn read_table(path: &Path, check: impl Fn(&[Vec<Q>]) -> Result<()>) -> Result<Vec<Vec<Q>>> {
    let text = read_text(path)?;
    let separators = text.bytes().filter(|&b| b == b',' || b == b'\n').count();
    crate::size::table(
        &format!(
            "{}: about {} values held as exact rationals",
            path.display(),
            separators + 1
        ),
        Some(separators as u128 + 1),
        TABLE_VALUE_BYTES,
    )?;
    let parsed = if has_extension(path, "json") {
        parse_losses_json(&text)
    } else {
        parse_losses_csv(&text)
    };
    parsed
        .and_then(|table| check(&table).map(|()| table))
        .map_err(|e| e.within(&path.display().to_string()))
}

/// Parse a loss CSV text (see the module documentation).
pub fn parse_losses_csv(text: &str) -> Result<Vec<Vec<Q>>> {
    data_lines(text)
        .map(|(n, line)| {
            line.split(',')
                .map(|field| {
                    parse_rational(field.trim()).map_err(|e| e.within(&format!("line {n}")))
                })
                .collect()
        })
        .collect()
}

/// Parse a loss JSON text (see the module documentation). Every entry is
/// read from its own text in the file — a JSON number's digits as written
/// (`0.1000000000000000000001`, `1e-330`), never through a double — or
/// from the string it holds.
pub fn parse_losses_json(text: &str) -> Result<Vec<Vec<Q>>> {
    use serde_json::value::RawValue;
    let rounds: Vec<Box<RawValue>> = serde_json::from_str(text)
        .map_err(|_| Error::InvalidInput("expected a JSON array of rounds".into()))?;
    rounds
        .iter()
        .enumerate()
        .map(|(t, round)| {
            let entries: Vec<&RawValue> = serde_json::from_str(round.get()).map_err(|_| {
                Error::InvalidInput(format!("round {} is not an array of numbers", t + 1))
            })?;
            entries
                .iter()
                .map(|x| {
                    let raw = x.get();
                    let number = match serde_json::from_str::<String>(raw) {
                        Ok(s) => s,
                        Err(_)
                            if raw.starts_with([
                                '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9',
                            ]) =>
                        {
                            raw.to_string()
                        }
                        Err(_) => {
                            return Err(Error::InvalidInput(format!(
                                "round {}: {} is not a number",
                                t + 1,
                                raw.chars().take(40).collect::<String>()
                            )))
                        }
                    };
                    parse_rational(&number).map_err(|e| e.within(&format!("round {}", t + 1)))
                })
                .collect()
        })
        .collect()
}

/// Shift a file's action to 0-based, refusing one below the base.
fn from_base(value: i64, base: u32, at: impl Fn() -> String) -> Result<u32> {
    let shifted = value - i64::from(base);
    u32::try_from(shifted).map_err(|_| {
        Error::InvalidInput(format!(
            "{}: action {value} is below {base}, the first action (--base {base})",
            at()
        ))
    })
}

/// Read a sample matrix from a CSV or NPY file (by extension) whose actions
/// are numbered from `base` (0 or 1). A CSV file's rows are estimated first
/// (its line breaks) and parsed under a progress bar (stderr, terminal
/// only, after 1 s): a file of millions of rows takes seconds.
pub fn read_samples(path: &Path, base: u32) -> Result<Samples> {
    let parsed = match SampleFormat::of(path) {
        SampleFormat::Npy => parse_npy(&read_bytes(path)?, base),
        SampleFormat::Csv => {
            let text = read_text(path)?;
            let lines = text.bytes().filter(|&b| b == b'\n').count() as u64 + 1;
            let task = Task {
                name: "reading samples",
                unit: "rows",
            };
            with_progress(true, task, lines, |progress| {
                parse_csv_counted(&text, base, progress)
            })
        }
    };
    parsed.map_err(|e| e.within(&path.display().to_string()))
}

/// Parse a sample CSV text whose actions are numbered from `base`.
pub fn parse_samples_csv(text: &str, base: u32) -> Result<Samples> {
    parse_csv_counted(text, base, &Progress::default())
}

/// [`parse_samples_csv`], counting the rows parsed on `progress`.
fn parse_csv_counted(text: &str, base: u32, progress: &Progress) -> Result<Samples> {
    let mut data = Vec::new();
    let mut cols = None;
    let mut rows = 0;
    for (n, line) in data_lines(text) {
        progress.add(1);
        let before = data.len();
        for field in line.split(',') {
            let field = field.trim();
            let value: i64 = field.parse().map_err(|_| {
                Error::InvalidInput(format!(
                    "line {n}: '{field}' is not an integer (an action, or an arm pulled)"
                ))
            })?;
            data.push(from_base(value, base, || format!("line {n}"))?);
        }
        let width = data.len() - before;
        if *cols.get_or_insert(width) != width {
            return Err(Error::InvalidInput(format!(
                "line {n} has {width} rounds, the first sequence {}",
                cols.unwrap_or(0)
            )));
        }
        rows += 1;
    }
    Samples::new(rows, cols.unwrap_or(0), data)
}

/// Parse an NPY file's bytes (see the module documentation).
pub fn parse_npy(bytes: &[u8], base: u32) -> Result<Samples> {
    let bad = |why: &str| Error::InvalidInput(format!("not a supported NPY file: {why}"));
    if bytes.len() < 10 || &bytes[..6] != b"\x93NUMPY" {
        return Err(bad("no NPY magic"));
    }
    let (header_len, start) = match bytes[6] {
        1 => (usize::from(u16::from_le_bytes([bytes[8], bytes[9]])), 10),
        2 | 3 if bytes.len() >= 12 => (
            u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize,
            12,
        ),
        _ => return Err(bad("unknown version")),
    };
    let header = bytes
        .get(start..start + header_len)
        .and_then(|h| std::str::from_utf8(h).ok())
        .ok_or_else(|| bad("truncated header"))?;
    let field = |key: &str| -> Result<&str> {
        let at = header
            .find(&format!("'{key}'"))
            .ok_or_else(|| bad(&format!("no '{key}' in the header")))?;
        let rest = &header[at + key.len() + 2..];
        Ok(rest.trim_start().trim_start_matches(':').trim_start())
    };
    let descr = field("descr")?;
    let descr = descr
        .strip_prefix('\'')
        .and_then(|d| d.split('\'').next())
        .ok_or_else(|| bad("unreadable descr"))?;
    let (signed, width) = match descr {
        "|i1" | "<i1" | "i1" => (true, 1),
        "|u1" | "<u1" | "u1" => (false, 1),
        "<i2" => (true, 2),
        "<u2" => (false, 2),
        "<i4" => (true, 4),
        "<u4" => (false, 4),
        "<i8" => (true, 8),
        "<u8" => (false, 8),
        other => {
            return Err(bad(&format!(
                "dtype '{other}' (expected little-endian integers)"
            )))
        }
    };
    let fortran = field("fortran_order")?.starts_with("True");
    let shape_text = field("shape")?;
    let shape_text = shape_text
        .strip_prefix('(')
        .and_then(|s| s.split(')').next())
        .ok_or_else(|| bad("unreadable shape"))?;
    let shape: Vec<usize> = shape_text
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().map_err(|_| bad("unreadable shape")))
        .collect::<Result<_>>()?;
    let (rows, cols) = match shape[..] {
        [n] => (n, 1),
        [n, t] => (n, t),
        _ => return Err(bad("expected a 1-D or 2-D array")),
    };
    let body = &bytes[start + header_len..];
    // The shape is the file's word: its product is checked against the
    // bytes present before anything is allocated.
    let count = crate::size::product([rows as u128, cols as u128])
        .filter(|&n| n.saturating_mul(width as u128) <= body.len() as u128)
        .and_then(|n| usize::try_from(n).ok())
        .ok_or_else(|| {
            bad(&format!(
                "the shape ({rows}, {cols}) asks for more values than the file holds"
            ))
        })?;
    let decode: fn(&[u8]) -> i64 = match (signed, width) {
        (true, 1) => |b| i64::from(b[0] as i8),
        (false, 1) => |b| i64::from(b[0]),
        (true, 2) => |b| i64::from(i16::from_le_bytes([b[0], b[1]])),
        (false, 2) => |b| i64::from(u16::from_le_bytes([b[0], b[1]])),
        (true, 4) => |b| i64::from(i32::from_le_bytes([b[0], b[1], b[2], b[3]])),
        (false, 4) => |b| i64::from(u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
        (true, _) => |b| i64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]),
        (false, _) => |b| {
            let v = u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]);
            i64::try_from(v).unwrap_or(i64::MAX)
        },
    };
    let mut data = crate::size::vec_with_capacity("the samples", Some(count as u128))?;
    for (k, chunk) in body[..count * width].chunks_exact(width).enumerate() {
        let value = decode(chunk);
        data.push(from_base(value, base, || {
            let (row, col) = if fortran {
                (k % rows.max(1), k / rows.max(1))
            } else {
                (k / cols.max(1), k % cols.max(1))
            };
            format!("row {row}, column {col}")
        })?);
    }
    if fortran {
        // Column-major on disk: transpose to rows.
        let mut rowwise = vec![0u32; count];
        for (k, &a) in data.iter().enumerate() {
            rowwise[(k % rows) * cols + k / rows] = a;
        }
        data = rowwise;
    }
    Samples::new(rows, cols, data)
}

/// The samples as an NPY file: `<i4`, C order, actions numbered from `base`.
pub fn npy_bytes(samples: &Samples, base: u32) -> Vec<u8> {
    let mut header = format!(
        "{{'descr': '<i4', 'fortran_order': False, 'shape': ({}, {}), }}",
        samples.rows(),
        samples.cols()
    );
    // Magic (6) + version (2) + length (2) + header + '\n', padded to 64.
    let unpadded = 10 + header.len() + 1;
    header.push_str(&" ".repeat((64 - unpadded % 64) % 64));
    header.push('\n');
    let mut out = Vec::with_capacity(10 + header.len() + 4 * samples.data().len());
    out.extend_from_slice(b"\x93NUMPY\x01\x00");
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    for &a in samples.data() {
        out.extend_from_slice(&((a + base) as i32).to_le_bytes());
    }
    out
}

/// The samples as CSV text: one sequence a line, actions from `base`.
pub fn csv_text(samples: &Samples, base: u32) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(samples.data().len() * 3);
    for i in 0..samples.rows() {
        for (j, a) in samples.row(i).iter().enumerate() {
            if j > 0 {
                out.push(',');
            }
            let _ = write!(out, "{}", a + base);
        }
        out.push('\n');
    }
    out
}

/// Write the samples to `path`: NPY for a `.npy` extension, else CSV.
pub fn write_samples(path: &Path, samples: &Samples, base: u32) -> Result<()> {
    let bytes = match SampleFormat::of(path) {
        SampleFormat::Npy => npy_bytes(samples, base),
        SampleFormat::Csv => csv_text(samples, base).into_bytes(),
    };
    std::fs::write(path, bytes)
        .map_err(|e| Error::Write(format!("{}: {}", path.display(), io_reason(&e))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn npy_round_trip_in_both_bases() {
        let samples = Samples::new(2, 3, vec![0, 1, 2, 2, 2, 0]).unwrap();
        for base in [0, 1] {
            let bytes = npy_bytes(&samples, base);
            // The header ends on a 64-byte boundary, as NPY 1.0 requires.
            let header_len = usize::from(u16::from_le_bytes([bytes[8], bytes[9]]));
            assert_eq!((10 + header_len) % 64, 0);
            assert_eq!(parse_npy(&bytes, base).unwrap(), samples);
            assert_eq!(
                parse_samples_csv(&csv_text(&samples, base), base).unwrap(),
                samples
            );
        }
    }

    /// numpy's `np.save(f, np.asfortranarray(np.array([[0, 1, 2], [2, 2, 0]], dtype="<i8")))`
    /// writes this header and the column-major body 0, 2, 1, 2, 2, 0.
    #[test]
    fn fortran_order_int64_is_read_by_rows() {
        let mut header = "{'descr': '<i8', 'fortran_order': True, 'shape': (2, 3), }".to_string();
        header.push_str(&" ".repeat(64 - (10 + header.len() + 1) % 64));
        header.push('\n');
        let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
        bytes.extend_from_slice(&(header.len() as u16).to_le_bytes());
        bytes.extend_from_slice(header.as_bytes());
        for v in [0i64, 2, 1, 2, 2, 0] {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
        let want = Samples::new(2, 3, vec![0, 1, 2, 2, 2, 0]).unwrap();
        assert_eq!(parse_npy(&bytes, 0).unwrap(), want);
        // A negative value is no action in any base.
        let at = bytes.len() - 8;
        bytes[at..].copy_from_slice(&(-1i64).to_le_bytes());
        assert!(parse_npy(&bytes, 0).is_err());
    }

    #[test]
    fn one_based_zero_is_refused() {
        assert!(parse_samples_csv("1,0\n", 1).is_err());
        assert!(parse_samples_csv("1,2\n1\n", 1).is_err());
    }

    #[test]
    fn loss_files_are_exact() {
        let q = |n: i64, d: i64| Q::new(n.into(), d.into());
        let want = vec![vec![q(1, 10), q(1, 3)], vec![q(1, 1), q(0, 1)]];
        assert_eq!(parse_losses_csv("# x\n0.1, 1/3\n\n1,0\n").unwrap(), want);
        assert_eq!(
            parse_losses_json(r#"[[0.1, "1/3"], [1, 0]]"#).unwrap(),
            want
        );
    }
}
