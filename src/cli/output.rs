//! Output files named on the command line (`--curve`, `--plot`,
//! `--markdown`): checked before the work starts, so that a path that cannot
//! be written is refused at once, not after minutes of work whose result
//! would then be thrown away; once written, each says so on stderr
//! (`wrote FILE`), beside the result on stdout.

use crate::error::{io_reason, Error, Result};
use std::fs::OpenOptions;
use std::path::Path;

/// Check that `path` (the value of `flag`) can be written, and that its
/// extension is one of `extensions` (any, when empty), without changing it:
/// an existing regular file is opened for appending and left as it is, a new
/// one is created and removed again; a directory, a pipe or a device (a
/// FIFO would block the write for ever, `/dev/full` lose the result) is
/// refused, as on every input path.
pub fn check_writable(flag: &str, path: &Path, extensions: &[&str]) -> Result<()> {
    let name = path.display();
    if !extensions.is_empty() {
        let extension = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        if !extension.is_some_and(|e| extensions.contains(&e.as_str())) {
            return Err(Error::InvalidInput(format!(
                "{flag} {name}: the file name must end in .{}",
                extensions.join(" or .")
            )));
        }
    }
    let cannot = |e: std::io::Error| {
        Error::InvalidInput(format!(
            "{flag} {name}: cannot write this file: {}",
            io_reason(&e)
        ))
    };
    if path.is_dir() {
        return Err(Error::InvalidInput(format!(
            "{flag} {name}: is a directory, not a file"
        )));
    }
    if let Ok(meta) = std::fs::metadata(path) {
        // A pipe is not opened here: opening it would wait for its reader.
        if !meta.is_file() {
            return Err(Error::InvalidInput(format!(
                "{flag} {name} is not a regular file (pipes and devices are refused as output files)"
            )));
        }
        OpenOptions::new().append(true).open(path).map_err(cannot)?;
    } else {
        OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
            .map_err(cannot)?;
        std::fs::remove_file(path).map_err(cannot)?;
    }
    Ok(())
}

/// Say on stderr that the file `path` was written: `wrote PATH`.
pub fn wrote(path: &Path) {
    eprintln!("wrote {}", path.display());
}

/// Write `contents` to the file `path` named on the command line, and say so
/// ([`wrote`]).
pub fn write_file(path: &Path, contents: impl AsRef<[u8]>) -> Result<()> {
    std::fs::write(path, contents)
        .map_err(|e| Error::Write(format!("{}: {}", path.display(), io_reason(&e))))?;
    wrote(path);
    Ok(())
}
