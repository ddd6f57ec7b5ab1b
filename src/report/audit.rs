//! The result of `dpdtol audit`: a lower confidence bound on the ε of a
//! black-box sampler from its outputs on two neighbouring inputs
//! ([`crate::oracle::audit`]), beside dpdtol's exact ratios for its own
//! target when that is given.

use super::bandit_oracle::{BanditGiven, CONVENTIONS as BANDIT_CONVENTIONS};
use super::oracle::{
    fixed_string, probability, probability_text, Approximate, TargetGiven, CONVENTIONS,
};
use super::{bound, fraction, Decimal, Enclosure, Fraction, Human, NumberKind, SchemaVersion};
use crate::num::{format_sig_directed, parse_rational, Dir, Kind, Q};
use crate::oracle::audit::{AuditReport as Outcome, Event, Ratio};
use crate::oracle::Enclosed;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::fmt::{self, Write};

fixed_string!(
    /// `"audit"`.
    AuditCommand = "audit"
);

/// The method of [`crate::oracle::audit`], as the report states it.
pub const METHOD: &str = "Clopper-Pearson, one-sided at (1 - confidence)/2 for each probability; the event (a round's action or a whole sequence, either direction) chosen on the first half of each file, the bound computed on the second halves";

/// The event the bound is about, its actions numbered from `base`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged, deny_unknown_fields)]
pub enum AuditEvent {
    /// Round `round` (from 1) plays `action`.
    Round {
        /// The action.
        action: u64,
        /// The round, from 1.
        #[schemars(range(min = 1))]
        round: usize,
    },
    /// The whole sequence is `sequence`.
    Sequence {
        /// The actions, one a round.
        sequence: Vec<u64>,
    },
}

impl AuditEvent {
    /// The event `event` (0-based actions) with its actions numbered from
    /// `base`.
    pub fn new(event: &Event, base: u32) -> AuditEvent {
        let based = |a: u64| a + u64::from(base);
        match event {
            Event::Round { round, action } => AuditEvent::Round {
                action: based(*action as u64),
                round: *round,
            },
            Event::Sequence(s) => AuditEvent::Sequence {
                sequence: s.iter().map(|&a| based(u64::from(a))).collect(),
            },
        }
    }
}

/// Which probability is over which: `P(E | x)/P(E | x')` (`first/second`,
/// `x` being the first file) or its inverse.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum Direction {
    /// The first file's probability over the second's.
    #[serde(rename = "first/second")]
    FirstOverSecond,
    /// The second file's probability over the first's.
    #[serde(rename = "second/first")]
    SecondOverFirst,
}

/// A ratio of two probabilities of dpdtol's own law, exact or certified.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RatioReport {
    /// The ratio exactly, when it is exact and finite; else null.
    pub exact: Option<Fraction>,
    /// An enclosure `[lo, hi]`; an end `"inf"` when the ratio is certainly
    /// infinite (lo) or unbounded (hi).
    pub interval: Enclosure,
    /// `exact` or `certified`.
    pub kind: NumberKind,
}

impl RatioReport {
    /// The report of the ratio `r`.
    pub fn new(r: &Ratio) -> RatioReport {
        let end = |q: &Option<Q>, dir| {
            q.as_ref()
                .map_or_else(|| Decimal("inf".to_string()), |q| bound(q, dir))
        };
        RatioReport {
            exact: match (&r.lo, &r.hi) {
                (Some(lo), Some(hi)) if r.kind == Kind::Exact && lo == hi => Some(fraction(lo)),
                _ => None,
            },
            interval: Enclosure([end(&r.lo, Dir::Down), end(&r.hi, Dir::Up)]),
            kind: r.kind.into(),
        }
    }
}

/// A probability of dpdtol's own law, exact or certified.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EventProbability {
    /// The midpoint of the enclosure, to 40 significant digits.
    pub probability: Decimal,
    /// The probability exactly, when it is exact; else null.
    pub probability_exact: Option<Fraction>,
    /// An enclosure, its ends rounded outward.
    pub probability_interval: Enclosure,
}

impl EventProbability {
    /// The report of the probability `p`.
    pub fn new(p: &Enclosed) -> EventProbability {
        let (probability, probability_exact, probability_interval) = probability(p);
        EventProbability {
            probability,
            probability_exact,
            probability_interval,
        }
    }
}

/// The audit's verdict against the ε claimed for the sampler.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum AuditVerdict {
    /// The lower confidence bound exceeds the claimed ε (the exit status is 1).
    Violated,
    /// The bound does not exceed it: no violation shown at this confidence.
    Consistent,
    /// No ε was claimed (neither `--claimed-epsilon` nor a target's `--epsilon`).
    Unclaimed,
}

impl AuditVerdict {
    /// `violated`, `consistent` or `unclaimed`.
    pub fn name(self) -> &'static str {
        match self {
            AuditVerdict::Violated => "violated",
            AuditVerdict::Consistent => "consistent",
            AuditVerdict::Unclaimed => "unclaimed",
        }
    }
}

/// Where the claimed ε was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum ClaimSource {
    /// `--claimed-epsilon`.
    #[serde(rename = "--claimed-epsilon")]
    ClaimedEpsilon,
    /// The target's `--epsilon`.
    #[serde(rename = "--epsilon")]
    TargetEpsilon,
}

impl ClaimSource {
    /// The ε claimed for a sampler and where it was read: `claimed`
    /// (`--claimed-epsilon`), else the target's `epsilon`, else none; an
    /// error for a number that is not a rational ≥ 0.
    pub fn resolve(
        claimed: Option<&str>,
        epsilon: Option<&str>,
    ) -> crate::error::Result<Option<(Q, ClaimSource)>> {
        let (text, flag, from) = match (claimed, epsilon) {
            (Some(text), _) => (text, "--claimed-epsilon", ClaimSource::ClaimedEpsilon),
            (None, Some(text)) => (text, "--epsilon", ClaimSource::TargetEpsilon),
            (None, None) => return Ok(None),
        };
        let q = parse_rational(text)?;
        if q < Q::from_integer(0.into()) {
            return Err(crate::error::Error::InvalidInput(format!(
                "{flag} must be at least 0, got {text}"
            )));
        }
        Ok(Some((q, from)))
    }
}

/// The target of an audit as given: one of the full-information oracle's,
/// or a bandit algorithm on a reward table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum AuditTarget {
    /// An online algorithm on a loss file, or one selection.
    Given(TargetGiven),
    /// A bandit algorithm on a reward table.
    Bandit(Box<BanditGiven>),
}

/// A privacy audit of a black-box sampler.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AuditReport {
    /// Actions are numbered from this (0 or 1) in the files and the event.
    #[schemars(range(max = 1))]
    pub base: u32,
    /// The number of candidate events (in each direction).
    pub candidates: usize,
    /// The ε claimed for the sampler, exactly (null: none claimed).
    pub claimed_epsilon: Option<Fraction>,
    /// Where the claimed ε was read (null: none claimed).
    pub claimed_epsilon_from: Option<ClaimSource>,
    /// The command.
    pub command: AuditCommand,
    /// The confidence level of the bound.
    pub confidence: f64,
    /// The index conventions, in words.
    pub conventions: String,
    /// The event's count in the denominator's test half.
    pub denominator_count: u64,
    /// The Clopper–Pearson upper bound of the denominator's probability.
    pub denominator_upper: f64,
    /// Which probability is the numerator.
    pub direction: Direction,
    /// ε is at least this with probability at least `confidence`.
    #[schemars(range(min = 0))]
    pub epsilon_lower: f64,
    /// The bound is f64.
    pub epsilon_lower_kind: Approximate,
    /// The event chosen on the first halves.
    pub event: AuditEvent,
    /// The chosen event's ratio under dpdtol's own law of the target, in
    /// the same direction (null without a target, or when the event is
    /// impossible on both inputs).
    pub exact_event_ratio: Option<RatioReport>,
    /// With a bandit target only: the chosen event's probabilities
    /// `[P(E | x), P(E | x')]` under dpdtol's own law, `x` being the first
    /// input (absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exact_event_probabilities: Option<[EventProbability; 2]>,
    /// The largest ratio of any sequence's probabilities, either direction
    /// (the e^ε of the target on this pair; null without a target).
    pub exact_max_ratio: Option<RatioReport>,
    /// The method, in words.
    pub method: String,
    /// The event's count in the numerator's test half.
    pub numerator_count: u64,
    /// The Clopper–Pearson lower bound of the numerator's probability.
    pub numerator_lower: f64,
    /// The version of this report's keys.
    pub schema_version: SchemaVersion,
    /// Rows used to select the event in each file.
    pub selection_rows: [usize; 2],
    /// The target on the first input as given (null: none).
    pub target: Option<AuditTarget>,
    /// Rows used for the bound in each file.
    pub test_rows: [usize; 2],
    /// `violated` when `epsilon_lower` exceeds the claimed ε (exit status
    /// 1), `consistent` when it does not, `unclaimed` without a claim.
    pub verdict: AuditVerdict,
    /// Whether the verdict is `violated`.
    pub violated: bool,
}

impl AuditReport {
    /// The report of `outcome`, an audit of samples whose actions are
    /// numbered from `base`, with dpdtol's `exact` ratios (the event's, the
    /// largest; [`crate::oracle::audit::exact_ratios`]) for the target
    /// `given`, when one is.
    pub fn new(
        given: Option<TargetGiven>,
        outcome: &Outcome,
        exact: Option<&(Option<Ratio>, Ratio)>,
        base: u32,
    ) -> AuditReport {
        AuditReport {
            base,
            candidates: outcome.candidates,
            claimed_epsilon: None,
            claimed_epsilon_from: None,
            command: AuditCommand,
            confidence: outcome.confidence,
            conventions: CONVENTIONS.to_string(),
            denominator_count: outcome.denominator_count,
            denominator_upper: outcome.denominator_upper,
            direction: if outcome.first_over_second {
                Direction::FirstOverSecond
            } else {
                Direction::SecondOverFirst
            },
            epsilon_lower: outcome.epsilon_lower,
            epsilon_lower_kind: Approximate,
            event: AuditEvent::new(&outcome.event, base),
            exact_event_ratio: exact.and_then(|e| e.0.as_ref()).map(RatioReport::new),
            exact_event_probabilities: None,
            exact_max_ratio: exact.map(|e| RatioReport::new(&e.1)),
            method: METHOD.to_string(),
            numerator_count: outcome.numerator_count,
            numerator_lower: outcome.numerator_lower,
            schema_version: SchemaVersion,
            selection_rows: [outcome.selection_rows.0, outcome.selection_rows.1],
            target: given.map(AuditTarget::Given),
            test_rows: [outcome.test_rows.0, outcome.test_rows.1],
            verdict: AuditVerdict::Unclaimed,
            violated: false,
        }
    }

    /// The report with its verdict against `claimed`, the ε claimed for the
    /// sampler and where it was read ([`Outcome::refutes`]).
    pub fn with_claim(self, outcome: &Outcome, claimed: &Q, from: ClaimSource) -> AuditReport {
        let violated = outcome.refutes(claimed);
        AuditReport {
            claimed_epsilon: Some(fraction(claimed)),
            claimed_epsilon_from: Some(from),
            verdict: if violated {
                AuditVerdict::Violated
            } else {
                AuditVerdict::Consistent
            },
            violated,
            ..self
        }
    }

    /// The report of an audit against the bandit algorithm `given`: its
    /// conventions, and the chosen event's probabilities `[P(E | x),
    /// P(E | x')]` under dpdtol's own law.
    pub fn with_bandit(self, given: BanditGiven, p: [&Enclosed; 2]) -> AuditReport {
        AuditReport {
            conventions: BANDIT_CONVENTIONS.to_string(),
            exact_event_probabilities: Some(p.map(EventProbability::new)),
            target: Some(AuditTarget::Bandit(Box::new(given))),
            ..self
        }
    }
}

impl AuditEvent {
    /// The event for people: `round 2 plays action 1` (of a bandit, `round
    /// 2 pulls arm 1`), `the sequence 1,2,1`.
    pub fn text(&self, bandit: bool) -> String {
        match self {
            AuditEvent::Round { round, action } if bandit => {
                format!("round {round} pulls arm {action}")
            }
            AuditEvent::Round { round, action } => format!("round {round} plays action {action}"),
            AuditEvent::Sequence { sequence } => {
                let actions: Vec<String> = sequence.iter().map(u64::to_string).collect();
                format!("the sequence {}", actions.join(","))
            }
        }
    }
}

/// The event of a full-information audit ([`AuditEvent::text`]).
impl fmt::Display for AuditEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(false))
    }
}

/// The ratio's enclosure to 12 significant digits, and its kind. Rounding
/// the report's ends (40 digits, rounded outward) outward again to 12
/// digits gives the ends of the ratio itself rounded outward to 12 digits.
impl fmt::Display for RatioReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let short = |end: &Decimal, dir| match parse_rational(&end.0) {
            Ok(q) => format_sig_directed(&q, 12, dir),
            Err(_) => end.0.clone(),
        };
        let [lo, hi] = &self.interval.0;
        write!(
            f,
            "[{}, {}] ({})",
            short(lo, Dir::Down),
            short(hi, Dir::Up),
            Kind::from(self.kind).label()
        )
    }
}

/// A paragraph: the bound, the conventions, and dpdtol's own ratios when a
/// target was given.
impl Human for AuditReport {
    fn human(&self) -> String {
        let mut out = String::new();
        let forward = self.direction == Direction::FirstOverSecond;
        let (numerator, denominator) = if forward {
            ("first", "second")
        } else {
            ("second", "first")
        };
        let (numerator_rows, denominator_rows) = if forward {
            (self.test_rows[0], self.test_rows[1])
        } else {
            (self.test_rows[1], self.test_rows[0])
        };
        let _ = writeln!(
            out,
            "ε ≥ {:.6} with confidence {} (approximate f64; Clopper–Pearson on the event \"{}\", {numerator} over {denominator}, chosen on the first halves among {} candidates, counted on the second halves: {}/{numerator_rows} vs {}/{denominator_rows})",
            self.epsilon_lower,
            self.confidence,
            self.event
                .text(matches!(self.target, Some(AuditTarget::Bandit(_)))),
            self.candidates,
            self.numerator_count,
            self.denominator_count,
        );
        if let (Some(claimed), Some(from)) = (&self.claimed_epsilon, self.claimed_epsilon_from) {
            let from = match from {
                ClaimSource::ClaimedEpsilon => "--claimed-epsilon",
                ClaimSource::TargetEpsilon => "the target's --epsilon",
            };
            let relation = if self.violated { ">" } else { "≤" };
            let _ = writeln!(
                out,
                "{}: the bound {relation} the claimed ε = {} ({from}), at confidence {}",
                self.verdict.name().to_uppercase(),
                claimed.0,
                self.confidence
            );
        }
        let _ = writeln!(out, "({}; base {})", self.conventions, self.base);
        if let (Some(target), Some(max)) = (&self.target, &self.exact_max_ratio) {
            let described = match target {
                AuditTarget::Given(given) => given.to_string(),
                AuditTarget::Bandit(given) => given.to_string(),
            };
            if let Some([px, py]) = &self.exact_event_probabilities {
                let _ = writeln!(
                    out,
                    "{described}: this event's probabilities are P(E | first) = {}, P(E | second) = {}",
                    probability_text(&px.probability, px.probability_exact.as_ref()),
                    probability_text(&py.probability, py.probability_exact.as_ref())
                );
            }
            if let Some(event) = &self.exact_event_ratio {
                let _ = writeln!(out, "{described}: this event's exact ratio is {event}");
            }
            let _ = writeln!(
                out,
                "{described}: the largest ratio of any sequence's probabilities (e^ε on this pair) is {max}"
            );
        }
        out.trim_end().to_string()
    }
}
