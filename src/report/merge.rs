//! The shard-and-merge contract: a check that splits into parts (`--shard
//! I/N`) whose reports merge exactly into the whole run's (`--merge`).
//!
//! A part comes from outside — another machine, a scheduler's output
//! folder, a hand — and is not trusted. It is read in one place,
//! [`accept`]:
//! 1. the file is a regular file of at most [`MAX_PART_BYTES`], read with
//!    that cap, UTF-8 JSON ([`read_json`]);
//! 2. it parses as the part's report type, every field of its type (a
//!    missing or malformed field is named);
//! 3. [`Part::check`] validates every value against its range and the run's
//!    parameters and re-evaluates what the part claims (its witness);
//! 4. the report the checked content writes ([`Part::written`]) must equal
//!    the file key for key: a field edited by hand — a decimal beside its
//!    exact value, an extra key — is refused, never silently rebuilt.
//!
//! # Threat model
//!
//! Who writes a part: anyone — the command on another machine, a
//! scheduler's output folder that others can write to, a hand with an
//! editor. Nothing a part says is believed because it says it.
//!
//! A part is one shard of a split run: a whole run (`1/1`) is refused
//! ([`spot_check`], [`Units::shard`]), since it would claim every shard at
//! once; a part's range is derived from the run's parameters and its
//! label, never read from the file. Every part splits into **units**
//! ([`Units`]: at most 64 groups of a statistical audit's shard's tables,
//! at most 64 sub-ranges of an exact bandit check's numerator laws, at most
//! 64 sub-ranges of a full-information check's loss sequences or
//! structural candidates, the claims of a shard of `dpdtol verify`), and a
//! part without its units is refused (the user re-runs it with this
//! version). What a merge guarantees:
//! - every quantity a part claims is consistent with its range and the
//!   run's parameters (steps 1–4 above); every unit is checked for shape
//!   as it is read, recomputed or not (an ordered enclosure of non-negative
//!   numbers or `inf`, of the report's kind; counts summing to the part's
//!   runs), and the part's aggregate is the fold of its units, which tile
//!   its range exactly (a full-information shard decided exactly on its
//!   witness — violated, or a maximum equal to `e^ε` — carries the units
//!   of a certified pass, which enclose its maximum);
//! - a witness of a violation is evaluated again;
//! - units are **recomputed** from the parameters and compared with what
//!   the part says of them ([`SpotPolicy`]), any difference refused; a
//!   recomputed unit of a private full-information shard whose enclosure
//!   does not exclude a ratio above `e^ε` is decided exactly.
//!
//! With every unit recomputed (`--spot-check all`, [`SpotPolicy::ALL`])
//! nothing a part says is taken on trust, but for one degree of freedom a
//! verdict does not depend on: a full-information shard violated in the
//! exact field may name any violating witness whose ratio its recomputed
//! units' enclosures meet, not necessarily the maximiser. With a sample of `n` units per
//! part, drawn from a seed the part's writer cannot predict (the operating
//! system's randomness unless given), a part relabelled as another differs
//! in every unit and is caught by the first recomputed, a part of `m` units
//! with one unit altered is caught with probability `min(n, m)/m`
//! ([`SpotCheck::caught`], the smallest over the parts), and an alteration
//! confined to units that were not sampled passes. With `--spot-check 0`
//! what the parts say of their units is taken on trust, and the report
//! says so (probability 0). A one-shot check is not split.
//!
//! Every refusal is one line that names the file and the field (for a
//! recomputed unit: the file, the unit and the field).

use crate::error::{Error, Result};
use crate::num::Q;
use crate::privacy::Shard;
use rand::SeedableRng;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::path::Path;

/// The largest part read (a shard's report is a few kilobytes; a
/// statistical audit's counts a few hundred).
pub const MAX_PART_BYTES: u64 = 8 << 20;

/// The report of one part of a check, as written by `--shard I/N --json`.
pub trait Part: Serialize + DeserializeOwned {
    /// What a part is once read and checked.
    type Content;

    /// The command whose output this is, for messages: `dpdtol privacy`.
    const WRITER: &'static str;

    /// Check every value of a part read from outside against its range and
    /// re-evaluate what it claims; its content.
    fn check(&self) -> Result<Self::Content>;

    /// The report that `content` writes.
    fn written(content: &Self::Content) -> Self;
}

/// A part type whose checked parts merge into the whole run's report
/// ([`merge_parts`]).
pub trait Whole: Part<Content: Units> {
    /// Refuse `value`, the input to merge named `name`, when it is plainly
    /// not a part of this type, before it is read as one (by default every
    /// input is read as this type).
    fn kind(_name: &str, _value: &Value) -> Result<()> {
        Ok(())
    }

    /// The whole run's content from its checked parts (each with its file's
    /// name).
    fn merge(parts: Vec<(String, Self::Content)>) -> Result<Self::Content>;

    /// The report with what the merge re-verified.
    fn with_spot_check(self, spot_check: SpotCheck) -> Self;
}

/// `--merge` of the parts `inputs` (each file's name and its JSON): each is
/// accepted through the contract ([`accept`]), a sample of each one's units
/// recomputed by `policy` ([`spot_check`]), then merged ([`Whole::merge`]):
/// the whole run's report, with what was re-verified.
pub fn merge_parts<P: Whole>(inputs: &[(String, Value)], policy: SpotPolicy) -> Result<P> {
    let parts = inputs
        .iter()
        .map(|(name, value)| {
            P::kind(name, value)?;
            Ok((name.clone(), accept::<P>(name, value)?))
        })
        .collect::<Result<Vec<_>>>()?;
    let spot_check = spot_check(&parts, policy)?;
    Ok(P::written(&P::merge(parts)?).with_spot_check(spot_check))
}

/// The JSON of a part file: a regular file of at most [`MAX_PART_BYTES`]
/// (devices and pipes are refused before they are read; a file that grows
/// while read is cut at the cap and refused), UTF-8 JSON.
pub fn read_json(path: &Path) -> Result<Value> {
    let name = path.display();
    let bytes = crate::num::read_bounded(
        path,
        MAX_PART_BYTES,
        "a merge input (a shard's --json output, at most 8 MiB)",
    )?;
    let text = String::from_utf8(bytes)
        .map_err(|_| Error::InvalidInput(format!("{name} is not UTF-8 text")))?;
    serde_json::from_str(&text).map_err(|e| {
        Error::InvalidInput(format!(
            "{name} is not valid JSON (line {}, column {})",
            e.line(),
            e.column()
        ))
    })
}

/// Accept `value`, the JSON of part file `name`, as a part of type `P`
/// (steps 2–4 of the contract); its checked content.
pub fn accept<P: Part>(name: &str, value: &Value) -> Result<P::Content> {
    let in_file = |e: Error| e.within(name);
    let part: P = serde_path_to_error::deserialize(value).map_err(|e| {
        in_file(Error::InvalidInput(format!(
            "field '{}' is missing or malformed (not the --json output of {})",
            field_of(&e),
            P::WRITER
        )))
    })?;
    let content = part.check().map_err(in_file)?;
    let written = serde_json::to_value(P::written(&content))
        .map_err(|e| in_file(Error::InvalidInput(e.to_string())))?;
    same_keys(&written, value, P::WRITER).map_err(in_file)?;
    Ok(content)
}

/// The field a parse error is about: its path, and for a missing field the
/// field's own name (serde reports it in the message, at the parent's path).
fn field_of(e: &serde_path_to_error::Error<serde_json::Error>) -> String {
    let path = e.path().to_string();
    let missing = e
        .inner()
        .to_string()
        .strip_prefix("missing field `")
        .and_then(|rest| rest.split('`').next().map(str::to_string));
    match (path.as_str(), missing) {
        (".", Some(name)) => name,
        (_, Some(name)) => format!("{path}.{name}"),
        (_, None) => path,
    }
}

/// `given` is `written` key for key (the first key that differs, in
/// alphabetical order, is named).
pub fn same_keys(written: &Value, given: &Value, writer: &str) -> Result<()> {
    let (Value::Object(written), Value::Object(given)) = (written, given) else {
        return Err(Error::InvalidInput(format!(
            "not the --json output of {writer}"
        )));
    };
    let mut keys: Vec<&String> = written.keys().chain(given.keys()).collect();
    keys.sort();
    match keys.into_iter().find(|k| written.get(*k) != given.get(*k)) {
        Some(key) => Err(Error::InvalidInput(format!(
            "field '{key}' is not what the report's own data give (not the --json output of {writer}, or altered)"
        ))),
        None => Ok(()),
    }
}

/// A checked part whose work splits into units, each recomputable alone
/// from the run's parameters (threat model: module documentation).
pub trait Units {
    /// The part's label: which of the run's shards it says it is.
    fn shard(&self) -> Shard;

    /// How many units the part's range splits into.
    fn unit_count(&self) -> u64;

    /// Recompute unit `unit` (`< unit_count`) and compare it with what the
    /// part says of it: an error naming the unit and the field that differs.
    fn recompute(&self, unit: u64) -> Result<()>;
}

/// How a merge spot-checks its parts: units recomputed per part, and the
/// seed of the sample.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpotPolicy {
    /// Units recomputed per part (all of them when the part has fewer; 0:
    /// none; [`SpotPolicy::ALL`]: every unit of every part).
    pub per_part: u64,
    /// The seed of the sample.
    pub seed: u64,
}

impl SpotPolicy {
    /// Units recomputed per part by default: a relabelled part differs in
    /// every unit and is caught by one; four give a single altered unit of a
    /// part of `m` units a chance `4/m` (every unit of a part of at most 4).
    pub const DEFAULT_PER_PART: u64 = 4;

    /// `per_part` for every unit of every part (`--spot-check all`).
    pub const ALL: u64 = u64::MAX;

    /// Seeds are below `2^53`, so that the merged report's JSON number is
    /// read back exactly by every JSON reader (JavaScript's numbers and
    /// Python's `json` with floats are exact to `2^53` only).
    pub const SEED_LIMIT: u64 = 1 << 53;

    /// The policy of `per_part` units (default [`Self::DEFAULT_PER_PART`])
    /// sampled from `seed` (default: drawn below [`Self::SEED_LIMIT`] from
    /// the operating system's randomness, so that a part's writer cannot
    /// predict the sample); a seed from [`Self::SEED_LIMIT`] on is refused.
    pub fn new(per_part: Option<u64>, seed: Option<u64>) -> Result<SpotPolicy> {
        let seed = seed.unwrap_or_else(|| rand::random::<u64>() % Self::SEED_LIMIT);
        if seed >= Self::SEED_LIMIT {
            return Err(Error::InvalidInput(format!(
                "--spot-check-seed must be below 2^53 = {} (a JSON number every reader reads back exactly), got {seed}",
                Self::SEED_LIMIT
            )));
        }
        Ok(SpotPolicy {
            per_part: per_part.unwrap_or(Self::DEFAULT_PER_PART),
            seed,
        })
    }
}

/// What a merge re-verified by recomputation (present on merged reports
/// only).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SpotCheck {
    /// With `--spot-check all`: every unit of every part was recomputed
    /// (`per_shard` is then the largest part's unit count).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub all: bool,
    /// The smallest, over the parts that have units, of the probability
    /// that one altered unit of the part is among those recomputed,
    /// `min(n, m)/m` for a part of `m` units, exactly (`1` when every unit
    /// was recomputed, `0` when no unit was).
    pub caught: String,
    /// Units recomputed per part (`--spot-check`; with `--spot-check all`,
    /// the largest part's unit count).
    pub per_shard: u64,
    /// The seed of the sample, below 2^53 so that every JSON reader reads
    /// it exactly (`--spot-check-seed` reproduces it).
    pub seed: u64,
    /// The parts merged.
    pub shards: u64,
    /// The units of all parts.
    pub units: u64,
    /// The units recomputed and found equal to what their part says.
    pub units_recomputed: u64,
}

impl SpotCheck {
    /// The probability that a part of `units` units (`> 0`) with one
    /// altered unit is caught when `per_part` of its units, drawn uniformly
    /// without replacement, are recomputed: `min(per_part, units)/units`.
    pub fn caught_in(units: u64, per_part: u64) -> Q {
        Q::new(per_part.min(units).into(), units.max(1).into())
    }

    /// The report's line: what was re-verified, and how likely a single
    /// altered unit is caught.
    pub fn line(&self) -> String {
        if self.units_recomputed == 0 {
            return format!(
                "re-verified: no unit of the {} units in {} shards (--spot-check {}): what the shards say of their units is taken on trust",
                self.units, self.shards, self.per_shard
            );
        }
        if self.all {
            return format!(
                "re-verified: all {} units in {} shards by recomputation (--spot-check all): nothing the shards say is taken on trust",
                self.units, self.shards
            );
        }
        format!(
            "re-verified: {} of {} units in {} shards by recomputation (--spot-check {} --spot-check-seed {}); a single altered unit is caught with probability ≥ {}",
            self.units_recomputed,
            self.units,
            self.shards,
            self.per_shard,
            self.seed,
            self.caught
        )
    }
}

/// Refuse a part that is not one shard of a split run: a whole run (`1/1`)
/// claims to be every shard at once, and a merge of it would take its word.
fn is_part(name: &str, shard: Shard) -> Result<()> {
    if shard.count < 2 {
        return Err(Error::InvalidInput(format!(
            "{name}: shard {shard} is a whole run, not a part of a split run: merge the --json outputs of --shard I/N, N ≥ 2"
        )));
    }
    Ok(())
}

/// Recompute, in each part (`(file name, content)`), a sample of
/// `policy.per_part` of its units drawn from `policy.seed` (the parts in
/// order, each unit sample sorted); the first difference is refused with
/// one line naming the file, the unit and the field. A whole run given as
/// a part is refused before anything is recomputed.
pub fn spot_check<C: Units>(parts: &[(String, C)], policy: SpotPolicy) -> Result<SpotCheck> {
    for (name, part) in parts {
        is_part(name, part.shard())?;
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(policy.seed);
    let (mut units, mut recomputed, mut largest) = (0u64, 0u64, 0u64);
    let mut caught: Option<Q> = None;
    for (name, part) in parts {
        let count = part.unit_count();
        for unit in sample(&mut rng, count, policy.per_part) {
            part.recompute(unit).map_err(|e| e.within(name))?;
            recomputed += 1;
        }
        units = units.saturating_add(count);
        largest = largest.max(count);
        if count > 0 {
            let here = SpotCheck::caught_in(count, policy.per_part);
            caught = Some(caught.map_or(here.clone(), |c| c.min(here)));
        }
    }
    let all = policy.per_part == SpotPolicy::ALL;
    Ok(SpotCheck {
        all,
        caught: caught
            .filter(|_| recomputed > 0)
            .unwrap_or_default()
            .to_string(),
        per_shard: if all { largest } else { policy.per_part },
        seed: policy.seed,
        shards: parts.len() as u64,
        units,
        units_recomputed: recomputed,
    })
}

/// `amount` distinct units of `0..count` (all of them when `amount ≥
/// count`), drawn uniformly, in increasing order.
fn sample(rng: &mut rand_chacha::ChaCha8Rng, count: u64, amount: u64) -> Vec<u64> {
    if amount >= count {
        return (0..count).collect();
    }
    // Floyd's algorithm: `amount` draws, whatever the number of units.
    let mut chosen = std::collections::BTreeSet::new();
    for j in count - amount..count {
        let t = rand::Rng::random_range(rng, 0..=j);
        if !chosen.insert(t) {
            chosen.insert(j);
        }
    }
    chosen.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A part of `count` units of which `altered` differs when recomputed.
    struct Altered {
        count: u64,
        altered: u64,
    }

    impl Units for Altered {
        fn shard(&self) -> Shard {
            Shard { index: 1, count: 2 }
        }

        fn unit_count(&self) -> u64 {
            self.count
        }

        fn recompute(&self, unit: u64) -> Result<()> {
            if unit == self.altered {
                return Err(Error::InvalidInput(format!("unit {unit}: altered")));
            }
            Ok(())
        }
    }

    /// The sample is `min(n, m)` distinct units of `0..m` in increasing
    /// order, and every unit is drawn as often as the others: over 6000
    /// seeds, each of m = 6 units is among n = 2 drawn 2000 times in
    /// expectation (chi-square, fixed seeds).
    #[test]
    fn the_sample_is_uniform_without_replacement() {
        let mut hits = [0u64; 6];
        for seed in 0..6000u64 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let drawn = sample(&mut rng, 6, 2);
            assert_eq!(drawn.len(), 2);
            assert!(drawn[0] < drawn[1] && drawn[1] < 6, "{drawn:?}");
            for u in drawn {
                hits[u as usize] += 1;
            }
        }
        let chi2: f64 = hits
            .iter()
            .map(|&h| (h as f64 - 2000.0).powi(2) / 2000.0)
            .sum();
        // 5 degrees of freedom: P(χ² > 20.5) ≈ 0.001.
        assert!(chi2 < 20.5, "{hits:?}: chi-square {chi2}");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        assert_eq!(sample(&mut rng, 3, 5), vec![0, 1, 2]);
        assert_eq!(sample(&mut rng, 3, 0), Vec::<u64>::new());
    }

    /// One altered unit of m = 8 with n = 2 recomputed: caught with
    /// probability 2/8 (stated exactly), and over 4000 seeds caught in about
    /// a quarter of them (±4 standard deviations, √(4000·3/16) ≈ 27); n = m
    /// catches it always; the part's name leads the refusal.
    #[test]
    fn a_single_altered_unit_is_caught_with_probability_n_over_m() {
        assert_eq!(SpotCheck::caught_in(8, 2), Q::new(1.into(), 4.into()));
        assert_eq!(SpotCheck::caught_in(3, 5), Q::from_integer(1.into()));
        assert_eq!(SpotCheck::caught_in(8, 0), Q::from_integer(0.into()));
        let part = |altered| vec![("p.json".to_string(), Altered { count: 8, altered })];
        let caught = (0..4000u64)
            .filter(|&seed| spot_check(&part(5), SpotPolicy { per_part: 2, seed }).is_err())
            .count();
        assert!((1000i64 - caught as i64).abs() < 108, "{caught}");
        for seed in 0..50 {
            let e = spot_check(&part(seed % 8), SpotPolicy { per_part: 8, seed }).unwrap_err();
            assert_eq!(
                e.to_string(),
                Error::InvalidInput(format!("p.json: unit {}: altered", seed % 8)).to_string()
            );
        }
        let honest = spot_check(
            &part(99),
            SpotPolicy {
                per_part: 2,
                seed: 7,
            },
        )
        .unwrap();
        assert_eq!(
            honest,
            SpotCheck {
                all: false,
                caught: "1/4".into(),
                per_shard: 2,
                seed: 7,
                shards: 1,
                units: 8,
                units_recomputed: 2,
            }
        );
    }
}
