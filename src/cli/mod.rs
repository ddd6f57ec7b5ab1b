//! The command line (design guide, "Command line"): parsing with clap,
//! dispatch to one module per subcommand, and the error contract — bad input
//! gives one line on stderr and exit status 2; `--json` prints exactly one
//! JSON object on stdout.

mod audit;
mod gof;
mod law;
mod mechanism;
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
    /// Check ε-DP exhaustively: every pair of neighbouring loss sequences over a finite alphabet.
    Privacy(privacy::Args),
    /// The exact pseudo-regret of algorithms on an instance, with the papers' bounds.
    Regret(regret::Args),
    /// Check the papers' claims (the registry in proofs/): certified, holds on instances, refuted or undecided.
    Verify(verify::Args),
    /// The exact (else certified) law of an algorithm's action sequence on a loss sequence, or of one selection.
    Law(law::Args),
    /// Seeded reference samples of an algorithm's action sequences (CSV or NPY), the same for any thread count.
    Sample(sample::Args),
    /// Test samples from any implementation against the exact law; exit status 1 when rejected.
    Gof(gof::Args),
    /// A lower confidence bound on the ε of a black-box sampler from its outputs on two neighbouring inputs.
    Audit(audit::Args),
}

/// Run the command line on `args` (the program name first); returns the exit
/// status: 0 on success (1 when `gof` rejects the samples), 2 on bad input
/// (after one line on stderr).
pub fn run<I, T>(args: I) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => return usage_error(e),
    };
    // The exit status of a successful run: 0, or 1 when `gof` rejects.
    let mut status = 0;
    let outcome: Result<String> = match cli.command {
        Command::Mechanism(args) => mechanism::run(&args),
        Command::Privacy(args) => privacy::run(&args),
        Command::Regret(args) => regret::run(&args),
        Command::Verify(args) => verify::run(&args),
        Command::Law(args) => law::run(&args),
        Command::Sample(args) => sample::run(&args),
        Command::Gof(args) => gof::run(&args, &mut status),
        Command::Audit(args) => audit::run(&args),
    };
    match outcome {
        Ok(text) => {
            // A reader that closes the pipe early (`| head`) is not an error.
            use std::io::Write;
            let _ = writeln!(std::io::stdout().lock(), "{text}");
            status
        }
        Err(e) => fail(&e),
    }
}

/// Print one line for a bad input and return the exit status 2.
fn fail(e: &Error) -> i32 {
    eprintln!("dpdtol: {e}");
    2
}

/// clap's own errors: help and version are printed as clap renders them (exit
/// 0); a usage error is reduced to its first line (exit 2).
fn usage_error(e: clap::Error) -> i32 {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = e.print();
            if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                2
            } else {
                0
            }
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
