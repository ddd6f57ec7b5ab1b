//! The result of `dpdtol law`: the exact (else certified) law of a target's
//! action sequence ([`crate::oracle::law`]) — its schedule and each choice's
//! law — and, for a given sequence, its probability.

use super::oracle::{
    fixed_string, probability, ChoiceLaw, Horizon, LawHeader, TargetGiven, CONVENTIONS,
};
use super::{Decimal, Enclosure, Fraction, SchemaVersion};
use crate::algorithm::BestSequenceLaw;
use crate::error::Result;
use crate::oracle::law::{choice_laws, sequence_probability};
use crate::oracle::Target;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

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
