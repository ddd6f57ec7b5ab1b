//! The command line (design guide, "Command line"): parsing with clap,
//! dispatch to one module per subcommand, and the error contract — bad input
//! gives one line on stderr and exit status 2; `--json` prints exactly one
//! JSON object on stdout.

mod algorithm_help;
mod applies;
mod args;
mod audit;
mod bandit;
mod gof;
mod law;
mod mechanism;
mod output;
mod privacy;
mod regret;
mod sample;
mod verify;

use crate::error::{Error, Result};
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
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
    /// A lower confidence bound on the ε of a black-box sampler from its outputs on two neighbouring inputs; exit status 1 when it exceeds the claimed ε.
    Audit(audit::Args),
    /// Simulate the private bandit algorithms of Hu et al. and their baselines (f64, approximate).
    Bandit(bandit::Args),
}

/// Run the command line on `args` (the program name first); returns the exit
/// status, the same contract for every command: 0 when the result is
/// consistent (`gof`, `audit`), private or undecided (`privacy`: no violation
/// shown), every refutation one of the registered errata (`verify`), 1 when
/// it is rejected, violated (`audit`: the bound exceeds the claimed ε) or
/// refuted past the registry (or could not be written), 2 on bad input
/// (after one line on stderr).
pub fn run<I, T>(args: I) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let parsed = command()
        .try_get_matches_from(&args)
        .and_then(|m| Cli::from_arg_matches(&m).map(|cli| (cli, m)));
    let (cli, matches) = match parsed {
        Ok(parsed) => parsed,
        Err(e) => return usage_error(e),
    };
    if let Err(e) = stdout_open().and_then(|()| flags_act(&cli.command, &matches)) {
        return fail(&e);
    }
    let deprecation = deprecation(&cli.command, &args, &matches);
    // The exit status of a successful run: 0, or 1 when `gof` rejects,
    // `privacy` shows a violation, `audit`'s bound exceeds the claimed ε or
    // `verify` departs from the registered refutations (any refutation with
    // `--strict`).
    let mut status = 0;
    let outcome: Result<String> = match cli.command {
        Command::Mechanism(args) => mechanism::run(&args),
        Command::Privacy(args) => privacy::run(&args).map(|(text, violated)| {
            status = i32::from(violated);
            text
        }),
        Command::Regret(args) => regret::run(&args),
        Command::Verify(args) => verify::run(&args).map(|(text, departed)| {
            status = i32::from(departed);
            text
        }),
        Command::Law(args) => law::run(&args),
        Command::Sample(args) => sample::run(&args),
        Command::Gof(args) => gof::run(&args, &mut status),
        Command::Audit(args) => audit::run(&args).map(|(text, violated)| {
            status = i32::from(violated);
            text
        }),
        Command::Bandit(args) => bandit::run(&args),
    };
    match outcome {
        // A failed write (status 1) wins over the command's own status.
        Ok(text) => match write_result(&text) {
            0 => {
                // Beside a result written, so that a failure stays one line.
                if let Some(warning) = deprecation {
                    eprintln!("dpdtol: warning: {warning}");
                }
                status
            }
            failed => failed,
        },
        Err(e) => fail(&e),
    }
}

/// The command line's grammar, each command's `--algorithm` help listing
/// the algorithms it accepts, and `privacy --delta`'s the exact bandit
/// checks ([`algorithm_help`]).
fn command() -> clap::Command {
    let mut cli = Cli::command();
    let names: Vec<String> = cli
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect();
    // Every subcommand is passed through `mut_subcommand`, which moves the
    // one it changes to the end: in turn, they keep their order.
    for name in names {
        let help = algorithm_help::help(&name);
        let privacy = name == "privacy";
        cli = cli.mut_subcommand(name, |c| {
            let c = match help {
                Some(help) => c.mut_arg("algorithm", |a| a.help(help)),
                None => c,
            };
            if privacy {
                c.mut_arg("delta", |a| a.help(algorithm_help::delta_help()))
            } else {
                c
            }
        });
    }
    cli
}

/// The warning for a flag given by its former name (`mechanism --base`,
/// now `--unit-weight`), if one was: printed on stderr after a successful
/// run, changing neither stdout nor the exit status.
fn deprecation(command: &Command, args: &[OsString], matches: &clap::ArgMatches) -> Option<String> {
    let (_, matches) = matches.subcommand()?;
    match command {
        Command::Mechanism(_) => mechanism::former_name_used(args, matches),
        _ => None,
    }
}

/// Every flag given acts on what the command runs, or the run is refused
/// ([`applies`]).
fn flags_act(command: &Command, matches: &clap::ArgMatches) -> Result<()> {
    let Some((_, matches)) = matches.subcommand() else {
        return Ok(());
    };
    let enforce = |tables: &[&[applies::Scope]], subjects: &[applies::Subject]| {
        tables
            .iter()
            .try_for_each(|table| applies::enforce(matches, table, subjects))
    };
    let target = law::TARGET_SCOPES;
    match command {
        Command::Mechanism(_) => enforce(&[mechanism::SCOPES], &[]),
        Command::Verify(_) => enforce(&[verify::SCOPES], &[]),
        Command::Privacy(args) => enforce(&[privacy::SCOPES], &privacy::subjects(args)?),
        Command::Regret(args) => enforce(&[regret::SCOPES], &regret::subjects(args)?),
        Command::Bandit(args) => enforce(&[bandit::SCOPES], &bandit::subjects(args)?),
        Command::Law(args) => enforce(
            &[target, law::SCOPES],
            &[args.target().subject("law", true)?],
        ),
        Command::Sample(args) => enforce(
            &[target, sample::SCOPES],
            &[args.target().subject("sample", true)?],
        ),
        Command::Gof(args) => enforce(&[target, gof::SCOPES], &gof::subjects(args)?),
        Command::Audit(args) => enforce(
            &[target, audit::SCOPES],
            &[args.target().subject("audit", false)?],
        ),
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
            let names: Vec<String> = command()
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
            // clap's message, up to the usage block, folded onto one line,
            // in the user's terms: no value placeholders (`--runs <RUNS>`),
            // no pointer to --help, no parser's wording.
            let rendered = e.render().to_string();
            let message: Vec<&str> = rendered
                .lines()
                .map(str::trim)
                .take_while(|l| !l.starts_with("Usage:"))
                .filter(|l| !l.is_empty() && !l.starts_with("For more information"))
                .collect();
            // clap's hints (`tip: a similar argument exists: '--bonus'`)
            // follow the error in parentheses, not run into it.
            let (hints, errors): (Vec<&str>, Vec<&str>) =
                message.into_iter().partition(|l| l.starts_with("tip:"));
            let mut text = errors.join(" ").trim_start_matches("error: ").to_string();
            for hint in hints {
                text.push_str(&format!(" ({})", hint.trim_start_matches("tip:").trim()));
            }
            let mut from = 0;
            while let Some(open) = text[from..].find(" <").map(|i| from + i) {
                let placeholder = text[open + 2..].starts_with(|c: char| c.is_ascii_uppercase());
                match text[open..].find('>') {
                    Some(len) if placeholder => text.replace_range(open..open + len + 1, ""),
                    _ => from = open + 2,
                }
            }
            for (parser, words) in [
                (
                    "invalid digit found in string",
                    "expects a non-negative integer",
                ),
                ("number too large to fit in target type", "is too large"),
                (
                    "cannot parse integer from empty string",
                    "expects a non-negative integer",
                ),
            ] {
                text = text.replace(parser, words);
            }
            eprintln!("dpdtol: {text}");
            2
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every flag of every command says where it acts: a flag added without
    /// a declaration fails here, so none is silently ignored.
    #[test]
    fn every_flag_of_every_command_is_declared() {
        let target = law::TARGET_SCOPES;
        let tables: Vec<(&str, Vec<&[applies::Scope]>)> = vec![
            ("mechanism", vec![mechanism::SCOPES]),
            ("privacy", vec![privacy::SCOPES]),
            ("regret", vec![regret::SCOPES]),
            ("verify", vec![verify::SCOPES]),
            ("law", vec![target, law::SCOPES]),
            ("sample", vec![target, sample::SCOPES]),
            ("gof", vec![target, gof::SCOPES]),
            ("audit", vec![target, audit::SCOPES]),
            ("bandit", vec![bandit::SCOPES]),
        ];
        let cli = command();
        for command in cli.get_subcommands() {
            let name = command.get_name();
            let Some((_, declared)) = tables.iter().find(|(n, _)| *n == name) else {
                panic!("dpdtol {name}: no table of where its flags act");
            };
            let missing = applies::undeclared(command, declared);
            assert!(
                missing.is_empty(),
                "dpdtol {name}: undeclared flags {missing:?}"
            );
        }
    }

    /// Each `--algorithm` help lists exactly the algorithms its command
    /// accepts, out of every name of both enums: an algorithm added to an
    /// enum, or accepted by a command, and not listed (or listed and
    /// refused) fails here.
    #[test]
    fn every_algorithm_help_lists_what_its_command_accepts() {
        use crate::algorithm::AlgorithmId;
        use crate::bandit::policy::BanditId;
        let names: Vec<&str> = AlgorithmId::ALL
            .map(AlgorithmId::name)
            .into_iter()
            .chain(BanditId::ALL.map(BanditId::name))
            .collect();
        let cli = command();
        let mut checked = 0;
        for sub in cli.get_subcommands() {
            let Some(arg) = sub.get_arguments().find(|a| a.get_id() == "algorithm") else {
                continue;
            };
            let help = arg.get_help().map(ToString::to_string).unwrap_or_default();
            // A name is listed when it appears as a whole word (not inside
            // another name: `ucb1` in `anytime-lazy-ucb` is not).
            let is_word = |c: char| c.is_ascii_alphanumeric() || c == '-';
            let words: Vec<&str> = help.split(|c: char| !is_word(c)).collect();
            let listed: Vec<&str> = names
                .iter()
                .copied()
                .filter(|n| words.contains(n))
                .collect();
            let accepted: Vec<&str> = names
                .iter()
                .copied()
                .filter(|n| algorithm_help::accepts(sub.get_name(), n))
                .collect();
            assert_eq!(listed, accepted, "dpdtol {} --help: {help}", sub.get_name());
            checked += 1;
        }
        assert_eq!(checked, 7, "the commands with --algorithm");
    }

    /// `privacy --delta`'s help names exactly the bandit algorithms whose
    /// exact check `privacy` runs (and so takes `--delta`), out of every
    /// bandit name.
    #[test]
    fn delta_help_lists_the_exact_bandit_checks() {
        use crate::bandit::policy::BanditId;
        let cli = command();
        let privacy = cli
            .get_subcommands()
            .find(|c| c.get_name() == "privacy")
            .expect("privacy");
        let help = privacy
            .get_arguments()
            .find(|a| a.get_id() == "delta")
            .and_then(|a| a.get_help())
            .map(ToString::to_string)
            .expect("--delta has a help");
        let is_word = |c: char| c.is_ascii_alphanumeric() || c == '-';
        let words: Vec<&str> = help.split(|c: char| !is_word(c)).collect();
        let listed: Vec<&str> = BanditId::ALL
            .map(BanditId::name)
            .into_iter()
            .filter(|n| words.contains(n))
            .collect();
        let exact: Vec<&str> = BanditId::ALL
            .into_iter()
            .filter(|&id| crate::privacy::bandit::setup::exact_check_of(id).is_ok())
            .map(BanditId::name)
            .collect();
        assert_eq!(listed, exact, "privacy --delta --help: {help}");
        assert!(exact.len() >= 5, "{exact:?}");
    }
}
