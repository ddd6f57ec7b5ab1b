//! The result of `dpdtol mechanism`: the law of one report-noisy-max
//! selection ([`crate::mechanism::best_law`]) on a loss vector.

use super::{
    decimal, enclosure, fraction, Decimal, Enclosure, Fraction, Human, NumberKind, SchemaVersion,
};
use crate::mechanism::{BestLaw, Noise, Scale};
use crate::num::Q;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::fmt::Write;

/// The law of one report-noisy-max selection: `law[i]` is the probability
/// that action `i + 1` is selected.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MechanismReport {
    /// Whether every digit of `law` is certain at the requested number of
    /// digits (false when the precision cap was reached first: then only the
    /// digits printed are certain, and `law_interval` gives the enclosures).
    pub digits_certain: bool,
    /// `exact` (the law is rational) or `certified` (an enclosure).
    pub kind: NumberKind,
    /// The probability of each action, as decimals whose every digit is certain.
    pub law: Vec<Decimal>,
    /// The law as exact rationals, when it is rational; else null.
    pub law_exact: Option<Vec<Fraction>>,
    /// An enclosure of each probability.
    pub law_interval: Vec<Option<Enclosure>>,
    /// The losses, exactly.
    pub losses: Vec<Fraction>,
    /// The noise added to each score −loss.
    pub noise: Noise,
    /// The noise scale β, exactly; null when the unit weight (`scale.base`) is given.
    pub noise_scale: Option<Fraction>,
    /// The precision of the certified law, in bits; null for an exact law.
    pub precision_bits: Option<u32>,
    /// The scale as given: `{"scale": β}` or `{"base": w}`, w = e^(−1/β) the weight of one unit of loss.
    pub scale: ScaleGiven,
    /// The version of this report's keys.
    pub schema_version: SchemaVersion,
    /// Why the law is not exact (null when it is).
    pub why_not_exact: Option<String>,
}

/// The scale of the noise as it was given.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase", deny_unknown_fields)]
pub enum ScaleGiven {
    /// The scale β itself.
    Scale(Fraction),
    /// The weight w = e^(−1/β) of one unit of loss.
    Base(Fraction),
}

impl MechanismReport {
    /// The report of `law`, the law of a selection with `noise` at `scale`
    /// on `losses`.
    pub fn new(noise: Noise, scale: &Scale, losses: &[Q], law: &BestLaw) -> MechanismReport {
        let (law_decimal, law_interval, law_exact, kind, precision_bits, digits_certain, why) =
            match law {
                BestLaw::Exact(p) => (
                    p.iter().map(decimal).collect(),
                    p.iter().map(enclosure).collect(),
                    Some(p.iter().map(fraction).collect()),
                    NumberKind::Exact,
                    None,
                    true,
                    None,
                ),
                BestLaw::Certified {
                    law,
                    precision,
                    accepted,
                    why_not_exact,
                } => (
                    law.iter().map(decimal).collect(),
                    law.iter().map(enclosure).collect(),
                    None,
                    NumberKind::Certified,
                    Some(precision.0),
                    *accepted,
                    Some(why_not_exact.to_string()),
                ),
            };
        MechanismReport {
            digits_certain,
            kind,
            law: law_decimal,
            law_exact,
            law_interval,
            losses: losses.iter().map(fraction).collect(),
            noise,
            noise_scale: match scale {
                Scale::Beta(b) => Some(fraction(b)),
                Scale::UnitWeight(_) => None,
            },
            precision_bits,
            scale: match scale {
                Scale::Beta(b) => ScaleGiven::Scale(fraction(b)),
                Scale::UnitWeight(w) => ScaleGiven::Base(fraction(w)),
            },
            schema_version: SchemaVersion,
            why_not_exact: why,
        }
    }
}

/// A table: one line of description, then one row per action.
impl Human for MechanismReport {
    fn human(&self) -> String {
        let mut out = String::new();
        let scale_text = match &self.scale {
            ScaleGiven::Scale(b) => format!("scale {}", b.0),
            ScaleGiven::Base(w) => format!("unit weight e^(-1/scale) = {}", w.0),
        };
        let how = match (&self.why_not_exact, self.precision_bits) {
            (Some(why_not_exact), Some(bits)) => format!(
                "certified law ({bits} bits; {}) — not exact: {why_not_exact}",
                if self.digits_certain {
                    "every digit shown is certain"
                } else {
                    "every digit shown is certain, but fewer than requested at the precision cap: see law_interval in --json"
                }
            ),
            _ => "exact law".to_string(),
        };
        let _ = writeln!(
            out,
            "report-noisy-max, {} noise, {scale_text}, K = {}: {how}",
            self.noise,
            self.losses.len()
        );
        let _ = writeln!(out, "{:>6}  {:>10}  probability", "action", "loss");
        for (i, (loss, p)) in self.losses.iter().zip(&self.law).enumerate() {
            let value = match &self.law_exact {
                Some(exact) => format!("{}  = {}", p.0, exact[i].0),
                None => p.0.clone(),
            };
            let _ = writeln!(out, "{:>6}  {:>10}  {value}", i + 1, loss.0);
        }
        out.trim_end().to_string()
    }
}
