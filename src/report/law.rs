//! The result of `dpdtol law`: the exact (else certified) law of a target's
//! action sequence ([`crate::oracle::law`]) — its schedule and each choice's
//! law — and, for a given sequence, its probability.

use super::oracle::{
    fixed_string, probability, probability_text, ChoiceLaw, Horizon, LawHeader, Rounds,
    TargetGiven, CONVENTIONS,
};
use super::{Decimal, Enclosure, Fraction, Human, SchemaVersion};
use crate::algorithm::BestSequenceLaw;
use crate::error::Result;
use crate::oracle::law::{choice_laws, sequence_probability};
use crate::oracle::Target;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::fmt::Write;

fixed_string!(
    /// `"law"`.
    LawCommand = "law"
);

/// The law of a target's action sequence: one law per choice of its
/// schedule, and optionally one sequence's probability.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LawReport {
    /// The number of actions K.
    #[schemars(range(min = 2))]
    pub actions: usize,
    /// Actions are numbered from this (0 or 1) in `sequence`.
    #[schemars(range(max = 1))]
    pub base: u32,
    /// The schedule's choices, in order, each with its law.
    pub choices: Vec<ChoiceLaw>,
    /// The command.
    pub command: LawCommand,
    /// The index conventions, in words.
    pub conventions: String,
    /// How the law was computed.
    #[serde(flatten)]
    pub header: LawHeader,
    /// The horizon t.
    pub horizon: Horizon,
    /// The probability of `sequence` (null without one).
    pub probability: Option<Decimal>,
    /// That probability exactly, when it is rational.
    pub probability_exact: Option<Fraction>,
    /// An enclosure of that probability.
    pub probability_interval: Option<Enclosure>,
    /// The version of this report's keys.
    pub schema_version: SchemaVersion,
    /// The action sequence asked about, numbered from `base` (null: none).
    pub sequence: Option<Vec<usize>>,
    /// The target as given.
    pub target: TargetGiven,
}

impl LawReport {
    /// The report of `law`, the law of `target` (given as `given`), with the
    /// probability of `sequence` (0-based actions) when one is asked about,
    /// actions numbered from `base`.
    ///
    /// Errors (bad input) when the sequence is not one of the target's.
    pub fn new(
        given: TargetGiven,
        target: &Target,
        law: &BestSequenceLaw,
        sequence: Option<&[usize]>,
        base: u32,
    ) -> Result<LawReport> {
        let laws = choice_laws(law)?;
        let k = target.actions();
        let p = sequence
            .map(|s| sequence_probability(law, k, s))
            .transpose()?;
        let (probability, probability_exact, probability_interval) =
            match p.as_ref().map(probability) {
                Some((decimal, exact, interval)) => (Some(decimal), exact, Some(interval)),
                None => (None, None, None),
            };
        Ok(LawReport {
            actions: k,
            base,
            choices: law
                .schedule()
                .iter()
                .zip(&laws)
                .enumerate()
                .map(|(c, (choice, law))| ChoiceLaw::new(c, choice, law))
                .collect(),
            command: LawCommand,
            conventions: CONVENTIONS.to_string(),
            header: LawHeader::of(law),
            horizon: Horizon::of(target.horizon()),
            probability,
            probability_exact,
            probability_interval,
            schema_version: SchemaVersion,
            sequence: sequence.map(|s| s.iter().map(|a| a + base as usize).collect()),
            target: given,
        })
    }
}

/// A range of rounds for people: `round 3`, `rounds 1–4`, or `nothing`.
fn rounds_text(rounds: Option<&Rounds>) -> String {
    match rounds {
        None => "nothing".into(),
        Some(Rounds([first, last])) if first == last => format!("round {first}"),
        Some(Rounds([first, last])) => format!("rounds {first}–{last}"),
    }
}

/// A table: one line of description, the conventions, then each choice's
/// rounds and law.
impl Human for LawReport {
    fn human(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{}: K = {}, t = {}, {} choices, law {}",
            self.target,
            self.actions,
            self.horizon.0,
            self.choices.len(),
            self.header.how()
        );
        let _ = writeln!(out, "({}; base {})", self.conventions, self.base);
        for c in &self.choices {
            let _ = writeln!(
                out,
                "choice {}: plays {}, reads {}",
                c.choice,
                rounds_text(Some(&c.plays)),
                rounds_text(c.reads.as_ref())
            );
            for (a, p) in c.law.iter().enumerate() {
                let exact = c.law_exact.as_ref().and_then(|e| e.get(a));
                let _ = writeln!(
                    out,
                    "  action {:>3}  {}",
                    a + self.base as usize,
                    probability_text(p, exact)
                );
            }
        }
        if let Some(p) = &self.probability {
            let _ = writeln!(
                out,
                "P(sequence) = {}",
                probability_text(p, self.probability_exact.as_ref())
            );
        }
        out.trim_end().to_string()
    }
}
