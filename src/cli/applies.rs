//! A flag acts or is refused. Each command declares once, in one table
//! ([`Scope`] per flag), the kinds of run each of its flags acts on; the run's
//! subjects (the algorithms, the mechanism, the merge) carry the kinds they
//! are; [`enforce`] refuses any flag given on the command line that acts on
//! none of them, before any work. A test checks that every flag of every
//! command is declared, so that a new flag cannot be silently ignored.

use crate::error::{Error, Result};
use clap::parser::ValueSource;
use clap::ArgMatches;

/// Every kind of run: the flag acts on all of them.
pub(super) const EVERY: &[&str] = &[];

/// Where one flag acts.
pub(super) struct Scope {
    /// The flag's clap id (`noise_scale` for `--noise-scale`).
    pub flag: &'static str,
    /// The kinds of subject it acts on, in words the refusal prints
    /// (`wu-wang`, `--mechanism`); [`EVERY`] for all.
    pub on: &'static [&'static str],
}

/// What one run is about: its name in a refusal and the kinds it is.
pub(super) struct Subject {
    /// `ucb1`, `--mechanism gumbel`, `--merge`.
    pub name: String,
    /// The kinds it is, matched against [`Scope::on`].
    pub kinds: Vec<&'static str>,
}

impl Subject {
    /// A subject of the given kinds.
    pub(super) fn new(name: impl Into<String>, kinds: &[&'static str]) -> Subject {
        Subject {
            name: name.into(),
            kinds: kinds.to_vec(),
        }
    }
}

/// Shorthand for a table row.
pub(super) const fn scope(flag: &'static str, on: &'static [&'static str]) -> Scope {
    Scope { flag, on }
}

/// Refuse the first flag given on the command line (in the table's order)
/// that acts on none of `subjects`: one line naming it, what it was given
/// for and what it acts on.
pub(super) fn enforce(matches: &ArgMatches, table: &[Scope], subjects: &[Subject]) -> Result<()> {
    for scope in table {
        let given = matches.value_source(scope.flag) == Some(ValueSource::CommandLine);
        if !given || scope.on.is_empty() {
            continue;
        }
        let acts = subjects
            .iter()
            .any(|s| s.kinds.iter().any(|k| scope.on.contains(k)));
        if !acts {
            let names: Vec<&str> = subjects.iter().map(|s| s.name.as_str()).collect();
            return Err(Error::InvalidInput(format!(
                "--{} does not apply to {}: it acts on {} only",
                scope.flag.replace('_', "-"),
                names.join(", "),
                scope.on.join(", ")
            )));
        }
    }
    Ok(())
}

/// The flags of `command` that `tables` do not declare, and the declared
/// flags that `command` does not have (a renamed flag): a test's check.
#[cfg(test)]
pub(super) fn undeclared(command: &clap::Command, tables: &[&[Scope]]) -> Vec<String> {
    let ids: Vec<&str> = command
        .get_arguments()
        .map(|a| a.get_id().as_str())
        .filter(|id| !matches!(*id, "help" | "version"))
        .collect();
    let missing = ids
        .iter()
        .filter(|id| !tables.iter().any(|t| t.iter().any(|s| s.flag == **id)))
        .map(|id| id.to_string());
    let stale = tables
        .iter()
        .flat_map(|t| t.iter())
        .filter(|s| !ids.contains(&s.flag))
        .map(|s| format!("{} (declared, not a flag)", s.flag));
    missing.chain(stale).collect()
}
