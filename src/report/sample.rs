//! The result of `dpdtol sample`: seeded reference samples of a target's
//! action sequences ([`crate::oracle::sample`]) written to a file.

use super::oracle::{fixed_string, Approximate, Horizon, TargetGiven, CONVENTIONS};
use super::{Human, SchemaVersion};
use crate::oracle::io::SampleFormat;
use crate::oracle::Target;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::path::Path;

fixed_string!(
    /// `"sample"`.
    SampleCommand = "sample"
);

/// How sequence `i` is drawn from the seed ([`crate::oracle::sample`]).
pub const RNG: &str =
    "sequence i (from 0) is drawn from ChaCha8Rng::seed_from_u64(seed) with set_stream(i)";

/// What was sampled, how, and where it was written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SampleReport {
    /// The number of actions K.
    #[schemars(range(min = 2))]
    pub actions: usize,
    /// Actions are numbered from this (0 or 1) in the file.
    #[schemars(range(max = 1))]
    pub base: u32,
    /// The command.
    pub command: SampleCommand,
    /// The index conventions, in words.
    pub conventions: String,
    /// The file's format.
    pub format: SampleFormat,
    /// The horizon t: the length of each sequence.
    pub horizon: Horizon,
    /// A sample is random, hence `approximate`: each sequence is drawn from
    /// the certified law by inversion with exact comparisons on random bits
    /// ([`crate::oracle::sample::Categorical`]), with probability exactly
    /// its law's except on an event of probability below 10⁻³⁵ per draw,
    /// where the draw is refused.
    pub kind: Approximate,
    /// The number of sequences.
    pub n: usize,
    /// The file written.
    pub out: String,
    /// How sequence i is drawn from the seed.
    pub rng: String,
    /// The version of this report's keys.
    pub schema_version: SchemaVersion,
    /// The seed.
    pub seed: u64,
    /// The target as given.
    pub target: TargetGiven,
}

impl SampleReport {
    /// The report of `n` sequences of `target` (given as `given`) drawn
    /// from `seed` and written to `out` with actions numbered from `base`.
    pub fn new(
        given: TargetGiven,
        target: &Target,
        n: usize,
        seed: u64,
        out: &Path,
        base: u32,
    ) -> SampleReport {
        SampleReport {
            actions: target.actions(),
            base,
            command: SampleCommand,
            conventions: CONVENTIONS.to_string(),
            format: SampleFormat::of(out),
            horizon: Horizon::of(target.horizon()),
            kind: Approximate,
            n,
            out: out.display().to_string(),
            rng: RNG.to_string(),
            schema_version: SchemaVersion,
            seed,
            target: given,
        }
    }
}

/// One line: what was written where.
impl Human for SampleReport {
    fn human(&self) -> String {
        format!(
            "{}: wrote {} of {} ({}, actions from {}, seed {}) to {}",
            self.target,
            super::counted(self.n, "sequence"),
            super::counted(&self.horizon.0, "action"),
            self.format.name(),
            self.base,
            self.seed,
            self.out
        )
    }
}
