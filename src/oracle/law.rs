//! What an oracle answers about — a [`Target`]: an online algorithm on a
//! fixed loss sequence, or one report-noisy-max selection on a loss vector
//! (a one-round target with a single choice) — and its law.
//!
//! The law of an online algorithm's actions `I_1..I_t` is the product of its
//! choices' laws ([`crate::algorithm`], module documentation):
//!
//! ```text
//! P(I_1..I_t = a | x) = ∏_c 1[a constant on plays_c] · P_c(a_{plays_c} | x_{reads_c}),
//! ```
//!
//! computed exactly when the exact backend can represent it, else certified
//! ([`crate::algorithm::SequenceLaw::best`], [`crate::mechanism::best_law`]).

use crate::algorithm::{
    check_loss_sequence, law_cost, Algorithm, BestOptions, BestSequenceLaw, Choice,
    OnlineAlgorithm, SequenceLaw,
};
use crate::error::{Error, Result};
use crate::mechanism::{self, best_law, BestLaw, Budget, Noise, Scale};
use crate::num::{Kind, Real, Q};
use rand::Rng;

/// A number with its trust: `lo = hi` for an exact value; an enclosure
/// `[lo, hi]` for a certified one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Enclosed {
    /// Exact or certified.
    pub kind: Kind,
    /// A rational lower bound (the value when exact).
    pub lo: Q,
    /// A rational upper bound (the value when exact).
    pub hi: Q,
}

impl Enclosed {
    /// The exact value `p`.
    pub fn exactly(p: Q) -> Enclosed {
        Enclosed {
            kind: Kind::Exact,
            lo: p.clone(),
            hi: p,
        }
    }

    /// The value of a backend number with its backend's kind.
    pub fn of<R: Real>(x: &R) -> Result<Enclosed> {
        let (lo, hi) = x
            .enclosure()
            .ok_or_else(|| Error::Domain("a probability without an enclosure".into()))?;
        Ok(Enclosed {
            kind: R::KIND,
            lo,
            hi,
        })
    }

    /// The exact value, when there is one.
    pub fn exact(&self) -> Option<&Q> {
        (self.kind == Kind::Exact).then_some(&self.lo)
    }

    /// The lower bound as a double (rounded to nearest: approximate).
    pub fn lo_f64(&self) -> f64 {
        Real::to_f64(&self.lo)
    }

    /// The upper bound as a double (rounded to nearest: approximate).
    pub fn hi_f64(&self) -> f64 {
        Real::to_f64(&self.hi)
    }

    /// The midpoint of the enclosure as a double (approximate).
    pub fn to_f64(&self) -> f64 {
        Real::to_f64(&((&self.lo + &self.hi) / Q::from_integer(2.into())))
    }
}

#[derive(Clone, Debug)]
enum What {
    Algorithm {
        algorithm: Algorithm,
        losses: Vec<Vec<Q>>,
    },
    Mechanism {
        noise: Noise,
        scale: Scale,
        losses: Vec<Q>,
    },
}

/// An online algorithm on a loss sequence, or one selection on a loss
/// vector: everything [`super::sample`], [`super::gof`] and
/// [`super::audit`] need.
#[derive(Clone, Debug)]
pub struct Target {
    what: What,
    /// The losses as doubles, one vector a round, for the samplers.
    losses_f64: Vec<Vec<f64>>,
}

impl Target {
    /// `algorithm` on `losses` (one vector of K losses in `[0, 1]` a round,
    /// rounds `1..=losses.len()`).
    pub fn algorithm(algorithm: Algorithm, losses: Vec<Vec<Q>>) -> Result<Target> {
        check_loss_sequence(&losses, algorithm.actions())?;
        let losses_f64 = losses
            .iter()
            .map(|v| v.iter().map(Real::to_f64).collect())
            .collect();
        Ok(Target {
            what: What::Algorithm { algorithm, losses },
            losses_f64,
        })
    }

    /// One report-noisy-max selection with `noise` of scale `scale` on the
    /// loss vector `losses` (any rationals, K ≥ 2): a target of one round.
    pub fn mechanism(noise: Noise, scale: Scale, losses: Vec<Q>) -> Result<Target> {
        mechanism::check_losses(&losses)?;
        let losses_f64 = vec![losses.iter().map(Real::to_f64).collect()];
        Ok(Target {
            what: What::Mechanism {
                noise,
                scale,
                losses,
            },
            losses_f64,
        })
    }

    /// The number of actions K.
    pub fn actions(&self) -> usize {
        match &self.what {
            What::Algorithm { algorithm, .. } => algorithm.actions(),
            What::Mechanism { losses, .. } => losses.len(),
        }
    }

    /// Whether `other` is a neighbour of this target, so that the ratio of
    /// their laws is the `e^ε` of one pair: the same algorithm or selection,
    /// the same K and t, and (an online algorithm, event-level privacy)
    /// loss sequences that differ in at most one round. An error says how
    /// they differ.
    pub fn check_neighbour(&self, other: &Target) -> Result<()> {
        let rows = match (&self.what, &other.what) {
            (What::Algorithm { losses: x, .. }, What::Algorithm { losses: y, .. }) => {
                Some([x.as_slice(), y.as_slice()])
            }
            _ => None,
        };
        check_neighbouring(
            "actions",
            [self.actions(), other.actions()],
            [self.horizon(), other.horizon()],
            rows,
        )
    }

    /// The number of rounds t (1 for a selection).
    pub fn horizon(&self) -> usize {
        self.losses_f64.len()
    }

    /// The choices: which rounds each plays and reads (rounds from 1,
    /// half-open ranges). A selection is one choice playing round 1.
    pub fn schedule(&self) -> Vec<Choice> {
        match &self.what {
            What::Algorithm { algorithm, losses } => algorithm.schedule(losses.len()),
            What::Mechanism { .. } => vec![Choice {
                plays: 1..2,
                reads: 1..1,
            }],
        }
    }

    /// The number of one-shot selection laws the law evaluates (see
    /// [`crate::algorithm::MAX_LAW_COST`]).
    pub fn cost(&self) -> u128 {
        match &self.what {
            What::Algorithm { algorithm, losses } => law_cost(algorithm, losses),
            What::Mechanism { .. } => 1,
        }
    }

    /// The law, exact else certified to `options.digits` relative digits.
    pub fn law(&self, options: BestOptions<'_>) -> Result<BestSequenceLaw> {
        match &self.what {
            What::Algorithm { algorithm, losses } => SequenceLaw::best(algorithm, losses, options),
            What::Mechanism {
                noise,
                scale,
                losses,
            } => {
                let choice = self.schedule().remove(0);
                let budget = Budget {
                    force: options.force,
                    progress: options.progress.is_some(),
                };
                Ok(
                    match best_law(*noise, losses, scale, options.digits, budget)? {
                        BestLaw::Exact(law) => BestSequenceLaw::Exact(SequenceLaw {
                            choices: vec![(choice, law)],
                        }),
                        BestLaw::Certified {
                            law,
                            precision,
                            accepted,
                            why_not_exact,
                        } => BestSequenceLaw::Certified {
                            law: SequenceLaw {
                                choices: vec![(choice, law)],
                            },
                            precision,
                            accepted,
                            why_not_exact,
                        },
                    },
                )
            }
        }
    }

    /// One draw of the whole action sequence (0-based actions, one a
    /// round), with the crate's f64 sampler of the algorithm as printed.
    pub fn sample_one<G: Rng + ?Sized>(&self, rng: &mut G) -> Vec<usize> {
        match &self.what {
            What::Algorithm { algorithm, .. } => algorithm.sample(&self.losses_f64, rng),
            What::Mechanism { noise, scale, .. } => vec![mechanism::sampler::report_noisy_max(
                *noise,
                &self.losses_f64[0],
                scale.to_f64(),
                rng,
            )],
        }
    }
}

/// The law of a selection ([`Target::mechanism`]) as
/// [`mechanism::best_law`] gives it: the law of the sequence law's one
/// choice; `None` for a law of several choices.
pub fn selection_law(law: BestSequenceLaw) -> Option<BestLaw> {
    fn only<R>(choices: Vec<(Choice, Vec<R>)>) -> Option<Vec<R>> {
        match <[_; 1]>::try_from(choices) {
            Ok([(_, p)]) => Some(p),
            Err(_) => None,
        }
    }
    match law {
        BestSequenceLaw::Exact(law) => only(law.choices).map(BestLaw::Exact),
        BestSequenceLaw::Certified {
            law,
            precision,
            accepted,
            why_not_exact,
        } => only(law.choices).map(|law| BestLaw::Certified {
            law,
            precision,
            accepted,
            why_not_exact,
        }),
    }
}

/// Each choice's law over the K actions (`[choice][action]`).
pub fn choice_laws(law: &BestSequenceLaw) -> Result<Vec<Vec<Enclosed>>> {
    fn of<R: Real>(law: &SequenceLaw<R>) -> Result<Vec<Vec<Enclosed>>> {
        law.choices
            .iter()
            .map(|(_, p)| p.iter().map(Enclosed::of).collect())
            .collect()
    }
    match law {
        BestSequenceLaw::Exact(law) => of(law),
        BestSequenceLaw::Certified { law, .. } => of(law),
    }
}

/// Check an action sequence against a law's shape: one action a round of
/// the horizon, each below K.
pub fn check_sequence(law: &BestSequenceLaw, k: usize, actions: &[usize]) -> Result<()> {
    let horizon = law.schedule().last().map_or(0, |c| c.plays.end - 1);
    if actions.len() != horizon {
        return Err(Error::InvalidInput(format!(
            "the sequence has {} actions, expected one a round: {horizon}",
            actions.len()
        )));
    }
    if let Some(bad) = actions.iter().find(|&&a| a >= k) {
        return Err(Error::InvalidInput(format!(
            "action {} (counting from 1) is beyond the K = {k} actions",
            bad + 1
        )));
    }
    Ok(())
}

/// `P(I_1..I_t = actions)` (0-based actions; K is the target's), exact or
/// an enclosure: zero unless the sequence is constant on every choice's
/// rounds, else the product of the choices' probabilities.
pub fn sequence_probability(
    law: &BestSequenceLaw,
    k: usize,
    actions: &[usize],
) -> Result<Enclosed> {
    check_sequence(law, k, actions)?;
    match law {
        BestSequenceLaw::Exact(law) => Enclosed::of(&law.probability(actions, &())),
        BestSequenceLaw::Certified { law, precision, .. } => {
            Enclosed::of(&law.probability(actions, precision))
        }
    }
}

/// Inputs, one row a round (losses or rewards).
pub type Rows = [Vec<Q>];

/// Whether an input and `other` of `k` actions or arms (`unit`) and
/// `horizon` rounds (the input's first) are a neighbouring pair: the same K
/// and t, and `rows` (when given: the input's and the other's rows, one a
/// round) differing in at most one round (event-level privacy). An error
/// says how they differ.
pub fn check_neighbouring(
    unit: &str,
    k: [usize; 2],
    horizon: [usize; 2],
    rows: Option<[&Rows; 2]>,
) -> Result<()> {
    let refuse = |why: String| Err(Error::InvalidInput(format!("the neighbour {why}")));
    let ([k, k_other], [t, t_other]) = (k, horizon);
    if k != k_other {
        return refuse(format!(
            "has K = {k_other} {unit}, the input K = {k}: not a neighbouring pair"
        ));
    }
    if t != t_other {
        return refuse(format!(
            "has {t_other} rounds, the input {t}: not a neighbouring pair"
        ));
    }
    if let Some([x, y]) = rows {
        let changed = x.iter().zip(y).filter(|(a, b)| a != b).count();
        if changed > 1 {
            return refuse(format!(
                "differs from the input in {changed} rounds: neighbours differ in at most one (event-level privacy)"
            ));
        }
    }
    Ok(())
}
