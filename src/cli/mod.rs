//! The command line (design guide, "Command line"): parsing with clap,
//! dispatch to one module per subcommand, and the error contract — bad input
//! gives one line on stderr and exit status 2; `--json` prints exactly one
//! JSON object on stdout.

mod args;
mod audit;
mod bandit;
mod bandit_oracle;
mod gof;
mod law;
mod mechanism;
mod output;
mod privacy;
mod regret;
mod report;
mod sample;
mod verify;

use crate::error::{Error, Result};
use clap::{Parser, Subcommand};
use std::ffi::OsString;

/// Exact and certified checks of differentially private online learning.
#[derive(Debug, Parser)]
#[command(name = "dpdtol", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// The exact law of one private selection (report-noisy-max) on a loss vector.
    Mechanism(mechanism::Args),
    /// Check ε-DP exhaustively: every pair of neighbouring loss sequences over a finite alphabet; exit status 1 when violated.
    Privacy(privacy::Args),
    /// The exact pseudo-regret of algorithms on an instance, with the papers' bounds.
    Regret(regret::Args),
    /// Check the papers' claims (the registry in proofs/): certified, holds on instances, refuted or undecided; exit status 1 when a claim is refuted.
    Verify(verify::Args),
    /// The exact (else certified) law of an algorithm's action sequence on a loss sequence, or of one selection.
    Law(law::Args),
    /// Seeded reference samples of an algorithm's action sequences (CSV or NPY), the same for any thread count.
    Sample(sample::Args),
    /// Test samples from any implementation against the exact law; exit status 1 when rejected.
    Gof(gof::Args),
    /// A lower confidence bound on the ε of a black-box sampler from its outputs on two neighbouring inputs.
    Audit(audit::Args),
    /// Simulate the private bandit algorithms of Hu et al. and their baselines (f64, approximate).
    Bandit(bandit::Args),
}

/// Run the command line on `args` (the program name first); returns the exit
/// status, the same contract for every command: 0 when the result is
/// consistent (`gof`), private or undecided (`privacy`: no violation shown),
/// no claim refuted (`verify`), 1 when it is rejected, violated or refuted
/// (or could not be written), 2 on bad input (after one line on stderr).
pub fn run<I, T>(args: I) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => return usage_error(e),
    };
    if let Err(e) = stdout_open() {
        return fail(&e);
    }
    // The exit status of a successful run: 0, or 1 when `gof` rejects,
    // `privacy` shows a violation or `verify` refutes a claim.
    let mut status = 0;
    let outcome: Result<String> = match cli.command {
        Command::Mechanism(args) => mechanism::run(&args),
        Command::Privacy(args) => privacy::run(&args).map(|(text, violated)| {
            status = i32::from(violated);
            text
        }),
        Command::Regret(args) => regret::run(&args),
        Command::Verify(args) => verify::run(&args).map(|(text, refuted)| {
            status = i32::from(refuted);
            text
        }),
        Command::Law(args) => law::run(&args),
        Command::Sample(args) => sample::run(&args),
        Command::Gof(args) => gof::run(&args, &mut status),
        Command::Audit(args) => audit::run(&args),
        Command::Bandit(args) => bandit::run(&args),
    };
    match outcome {
        // A failed write (status 1) wins over the command's own status.
        Ok(text) => match write_result(&text) {
            0 => status,
            failed => failed,
        },
        Err(e) => fail(&e),
    }
}

/// Refuse to start when standard output is closed (`dpdtol … >&-`), so
/// that the result is not lost silently after all the work. The standard
/// library reopens a closed descriptor 0, 1 or 2 on `/dev/null`, read-write,
/// before `main` (and a write there succeeds): on Linux, a stdout that is
/// `/dev/null` opened read-write is that closed stdout (a shell's
/// `> /dev/null` opens it write-only). Elsewhere nothing is checked.
fn stdout_open() -> Result<()> {
    #[cfg(target_os = "linux")]
    {
        let is_null = std::fs::read_link("/proc/self/fd/1")
            .is_ok_and(|target| target == std::path::Path::new("/dev/null"));
        let read_write = std::fs::read_to_string("/proc/self/fdinfo/1").is_ok_and(|info| {
            info.lines()
                .find_map(|l| l.strip_prefix("flags:"))
                .and_then(|f| u32::from_str_radix(f.trim(), 8).ok())
                .is_some_and(|flags| flags & 0o3 == 0o2)
        });
        if is_null && read_write {
            return Err(Error::InvalidInput(
                "standard output is closed: the result would be lost (redirect it to a file, or to /dev/null to discard it)".into(),
            ));
        }
    }
    Ok(())
}

/// Print the result on stdout. A reader that closes the pipe early (`| head`)
/// is not an error; any other failed write (a full disk, `> /dev/full`) is:
/// one line on stderr and exit status 1, so that no result is lost silently.
fn write_result(text: &str) -> i32 {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match writeln!(out, "{text}").and_then(|()| out.flush()) {
        Ok(()) => 0,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
        Err(e) => {
            eprintln!(
                "dpdtol: cannot write the result to stdout: {}",
                crate::error::io_reason(&e)
            );
            1
        }
    }
}

/// Print one line for an error and return the exit status: 1 when the result
/// could not be written, 2 for a bad input (or work over a limit).
fn fail(e: &Error) -> i32 {
    eprintln!("dpdtol: {e}");
    match e {
        Error::Write(_) => 1,
        _ => 2,
    }
}

/// clap's own errors: help and version are printed as clap renders them (exit
/// 0); a usage error is reduced to its first line (exit 2).
fn usage_error(e: clap::Error) -> i32 {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = e.print();
            0
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand | ErrorKind::MissingSubcommand => {
            // No subcommand: one usage line, not the whole help.
            use clap::CommandFactory;
            let names: Vec<String> = Cli::command()
                .get_subcommands()
                .map(|c| c.get_name().to_string())
                .filter(|n| n != "help")
                .collect();
            eprintln!(
                "dpdtol: a subcommand is required: dpdtol <{}> [flags] (dpdtol --help for more)",
                names.join("|")
            );
            2
        }
        _ => {
            // clap's message, up to the usage block, folded onto one line.
            let rendered = e.render().to_string();
            let message: Vec<&str> = rendered
                .lines()
                .map(str::trim)
                .take_while(|l| !l.starts_with("Usage:"))
                .filter(|l| !l.is_empty())
                .collect();
            eprintln!(
                "dpdtol: {}",
                message.join(" ").trim_start_matches("error: ")
            );
            2
        }
    }
}
