//! An exact bandit privacy check as it is run and reported: the algorithm
//! (Anytime-Lazy-UCB, DP-SE or Hybrid-UCB), the problem and the overrides
//! of the printed parameters ([`Setup`]), the pull law they build
//! ([`Law`]), and a part's outcome with its verdict decided against e^ε
//! ([`Decided`]). The shards of one check have equal setups; their decided
//! outcomes merge into the whole run's ([`merge`]).

use super::exact::{
    check_certified_part, check_part, laws_needed, witness_at, Outcome, Position, Witness,
    PRECISIONS,
};
use crate::bandit::law::dp_se::DpSeVariant;
use crate::bandit::law::params::Overrides;
use crate::bandit::law::params::Scales;
use crate::bandit::law::PullLaw;
use crate::bandit::policy::dp_ts::BonusRound;
use crate::bandit::policy::BanditId;
use crate::error::{Error, Result};
use crate::num::{Certified, Precision, Q};
use crate::privacy::delta::DeltaCheck;
use crate::privacy::{decide, Problem, Ratio, Shard, Verdict};

/// A bandit check's ratio (`None`: infinite) as the checker's [`Ratio`]
/// (exact when the enclosure is a point).
pub fn ratio_of(r: &Option<(Q, Q)>) -> Ratio {
    match r {
        None => Ratio::Infinite,
        Some((lo, hi)) if lo == hi => Ratio::Exact(lo.clone()),
        Some((lo, hi)) => Ratio::Certified {
            lo: lo.clone(),
            hi: hi.clone(),
        },
    }
}

/// An error unless `id` has an exact (certified) check.
pub fn exact_check_of(id: BanditId) -> Result<()> {
    if matches!(
        id,
        BanditId::AnytimeLazyUcb
            | BanditId::DpSe
            | BanditId::DpUcb
            | BanditId::DpUcbBound
            | BanditId::DpUcbInt
            | BanditId::HybridUcb
    ) {
        Ok(())
    } else {
        Err(Error::InvalidInput(format!(
            "the exact privacy check of bandit algorithms covers anytime-lazy-ucb, dp-se, dp-ucb, dp-ucb-bound, dp-ucb-int and hybrid-ucb only, not {id}"
        )))
    }
}

/// What a check is of: the algorithm, the problem and the overrides of the
/// printed parameters (`--noise-scale`, `--epoch-length`; Hybrid-UCB's tree
/// scale and bonus, resolved).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The algorithm.
    pub id: BanditId,
    /// K.
    pub actions: usize,
    /// The horizon, the reward values and ε.
    pub problem: Problem,
    /// The Laplace scale, when not the printed one.
    pub scale: Option<Q>,
    /// Hybrid-UCB's or DP-UCB-Bound's tree scale per level, resolved.
    pub tree_scale: Option<Q>,
    /// The index bonus constant (Hybrid-UCB, DP-UCB-Bound: resolved;
    /// DP-UCB-INT: when given).
    pub bonus: Option<Q>,
    /// DP-SE's epoch lengths, when not the printed ones.
    pub lengths: Option<Vec<u64>>,
    /// DP-SE's reading of its open choices (δ, pull order, rounding,
    /// radius, reward index).
    pub dp_se: DpSeVariant,
    /// DP-UCB's tree depth, when not the printed one.
    pub tree_depth: Option<u32>,
}

impl Setup {
    /// The check of `id` with K = `actions` on `problem`, the printed
    /// parameters `overrides` where given; Hybrid-UCB's scales and bonus
    /// resolved as its audit resolves them ([`Scales::resolve`]). The one
    /// constructor of the command line and the Python package.
    pub fn new(
        id: BanditId,
        actions: usize,
        problem: Problem,
        overrides: Overrides,
    ) -> Result<Setup> {
        let (scale, tree_scale, bonus) = if id == BanditId::HybridUcb {
            let s = Scales::resolve(
                id,
                &problem.epsilon,
                overrides.scale,
                overrides.tree_scale,
                overrides.bonus,
                overrides.scale_factor,
            )?;
            (Some(s.scale), Some(s.tree_scale), Some(s.bonus))
        } else if id == BanditId::DpUcbBound {
            // The overrides and --scale-factor resolved as the law resolves them.
            match Law::new(id, problem.epsilon.clone(), problem.horizon, 2, &overrides)? {
                Law::DpUcbBound(p) => (Some(p.array_scale), Some(p.tree_scale), Some(p.bonus)),
                _ => {
                    return Err(Error::Domain(
                        "dp-ucb-bound's law has other parameters".into(),
                    ))
                }
            }
        } else if id == BanditId::DpUcbInt {
            (overrides.scale, None, overrides.bonus)
        } else if overrides.bonus.is_some() {
            return Err(Error::InvalidInput(format!(
                "the bonus does not apply to {id}'s privacy check (it applies to hybrid-ucb, dp-ucb-bound and dp-ucb-int)"
            )));
        } else {
            (overrides.scale, None, None)
        };
        Ok(Setup {
            id,
            actions,
            problem,
            scale,
            tree_scale,
            bonus,
            lengths: overrides.lengths,
            dp_se: overrides.dp_se,
            tree_depth: overrides.tree_depth,
        })
    }
}

/// `$body` with `$l` bound to the parameters of a [`Law`], whichever it is.
macro_rules! on_law {
    ($law:expr, $l:ident => $body:expr) => {
        match $law {
            Law::LazyUcb($l) => $body,
            Law::LazyUcbArms($l) => $body,
            Law::Hybrid($l) => $body,
            Law::DpUcb($l) => $body,
            Law::DpUcbBound($l) => $body,
            Law::DpUcbInt($l) => $body,
            Law::DpSe(boxed) => {
                let $l = &**boxed;
                $body
            }
        }
    };
}

/// The law of an algorithm with an exact check, its parameters built.
pub use crate::bandit::law::params::LawParams as Law;

impl Setup {
    /// The parameters: printed, then overridden; an error for a K the law
    /// does not cover (DP-SE, Hybrid-UCB: K = 2; Anytime-Lazy-UCB:
    /// `2 ≤ K ≤ T`, line 2 pulling each arm once; DP-UCB-INT: the same).
    pub fn law(&self) -> Result<Law> {
        exact_check_of(self.id)?;
        let epsilon = self.problem.epsilon.clone();
        let (k, horizon) = (self.actions, self.problem.horizon);
        if !matches!(self.id, BanditId::AnytimeLazyUcb | BanditId::DpUcbInt) && k != 2 {
            return Err(Error::InvalidInput(format!(
                "the law of {}'s pulls is implemented for K = 2 arms, got --actions {k}",
                self.id
            )));
        }
        if !(2..=horizon.max(2)).contains(&k) {
            return Err(Error::InvalidInput(format!(
                "--actions must be at least 2 and at most --horizon {horizon} (line 2 pulls each arm once), got {k}"
            )));
        }
        let overrides = Overrides {
            scale: self.scale.clone(),
            tree_scale: self.tree_scale.clone(),
            scale_factor: None,
            bonus: self.bonus.clone(),
            lengths: self.lengths.clone(),
            dp_se: self.dp_se.clone(),
            tree_depth: self.tree_depth,
            // DP-TS, the one reader, has no exact check.
            bonus_round: BonusRound::default(),
        };
        Law::new(self.id, epsilon, horizon, k, &overrides)
    }

    /// The numerator laws of `shard`.
    pub fn part(&self, law: &Law, shard: Shard) -> Result<std::ops::Range<u64>> {
        on_law!(law, l => self.part_of(l, shard))
    }

    fn part_of(&self, law: &impl PullLaw, shard: Shard) -> Result<std::ops::Range<u64>> {
        let p = &self.problem;
        let all = laws_needed(law, p.horizon, p.alphabet.len()).ok_or_else(|| {
            Error::TooLarge(format!(
                "horizon {} on {} reward values has over 2^64 pull-sequence laws",
                p.horizon,
                p.alphabet.len()
            ))
        })?;
        shard.range_of(all, "pull-sequence laws")
    }

    /// The quotients `P(a|y)/P(a|y')` of the numerator laws `part`.
    pub fn quotients(&self, part: &std::ops::Range<u64>) -> u64 {
        let p = &self.problem;
        (part.end - part.start)
            .saturating_mul(p.horizon as u64)
            .saturating_mul(p.alphabet.len() as u64 - 1)
    }

    /// The check of `shard`, certified, at the precision that decides it.
    pub fn check(self, shard: Shard, force: bool) -> Result<Decided> {
        let law = self.law()?;
        let p = &self.problem;
        let accept = |o: &Outcome, bits: Precision| -> Result<bool> {
            Ok(decide(&ratio_of(&o.max_ratio), &p.epsilon, bits.0)?.0 != Verdict::Undecided)
        };
        let (outcome, precision) = on_law!(&law, l => {
            let part = self.part_of(l, shard)?;
            check_certified_part(l, p.horizon, &p.alphabet, Some(part), force, accept)?
        });
        self.decided(law, outcome, shard, precision.0)
    }

    /// The (ε, δ) check of the whole run against `target`
    /// ([`crate::privacy::delta::bandit`]).
    pub fn delta(&self, target: &Q, force: bool) -> Result<DeltaCheck> {
        let law = self.law()?;
        on_law!(&law, l => crate::privacy::delta::bandit(l, &self.problem, target, force))
    }

    /// The witness at `position` evaluated again from `law` at `bits`
    /// ([`witness_at`]), and whether its numerator is positive.
    pub fn witness(&self, law: &Law, position: Position, bits: u32) -> Result<(Witness, bool)> {
        let p = &self.problem;
        on_law!(law, l => witness_at::<Certified>(l, p.horizon, &p.alphabet, position, &Precision(bits)))
    }

    /// The maximum over the numerator laws `laws` computed again at `bits`,
    /// as [`Outcome::units`] writes a unit's: what a merge compares with a
    /// shard's unit (a part of the shard's laws, so never refused for size).
    pub fn recheck(
        &self,
        law: &Law,
        laws: std::ops::Range<u64>,
        bits: u32,
    ) -> Result<Option<(Q, Q)>> {
        let p = &self.problem;
        let outcome = on_law!(law, l => check_part::<Certified>(l, p.horizon, &p.alphabet, Some(laws), true, &Precision(bits)))?;
        Ok(outcome.max_ratio)
    }

    /// `outcome`, the verdict decided at `bits`.
    pub fn decided(self, law: Law, outcome: Outcome, shard: Shard, bits: u32) -> Result<Decided> {
        let (verdict, bound) = decide(&ratio_of(&outcome.max_ratio), &self.problem.epsilon, bits)?;
        Ok(Decided {
            setup: self,
            law,
            outcome,
            shard,
            verdict,
            bound,
            bits,
        })
    }
}

/// A part of a check (or the whole run) with its verdict.
#[derive(Clone, Debug)]
pub struct Decided {
    /// What is checked.
    pub setup: Setup,
    /// Its law.
    pub law: Law,
    /// The maximum over the part's numerator laws, and its witness.
    pub outcome: Outcome,
    /// The part.
    pub shard: Shard,
    /// `outcome`'s maximum against e^ε.
    pub verdict: Verdict,
    /// e^ε, enclosed.
    pub bound: Certified,
    /// The precision of the laws, in bits.
    pub bits: u32,
}

/// Whether `bits` is one of the check's precisions (128 doubled up to 4096).
pub fn is_precision(bits: u32) -> bool {
    (PRECISIONS.0..=PRECISIONS.1).contains(&bits)
        && bits % PRECISIONS.0 == 0
        && (bits / PRECISIONS.0).is_power_of_two()
}

/// The whole run from the checked parts of one check (`(name, part)`): they
/// must check the same setup and cover every shard exactly once; the verdict
/// is decided at the largest precision of the parts.
pub fn merge(parts: Vec<(String, Decided)>) -> Result<Decided> {
    let mut parts = parts.into_iter();
    let (first_name, first) = parts
        .next()
        .ok_or_else(|| Error::InvalidInput("nothing to merge".into()))?;
    let mut shards = vec![first.shard];
    let mut bits = first.bits;
    let mut outcomes = vec![first.outcome];
    for (name, d) in parts {
        if d.setup != first.setup {
            return Err(Error::InvalidInput(format!(
                "{name} checks another problem or other parameters than {first_name} (algorithm, arms, horizon, alphabet, ε, noise scale, epoch lengths, tree scale, bonus)"
            )));
        }
        shards.push(d.shard);
        bits = bits.max(d.bits);
        outcomes.push(d.outcome);
    }
    Shard::check_coverage(shards)?;
    let merged = super::exact::merge(&outcomes)?;
    first.setup.decided(first.law, merged, Shard::WHOLE, bits)
}
