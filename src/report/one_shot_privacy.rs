//! The result of `dpdtol privacy --mechanism …`: one report-noisy-max
//! selection checked over every input of `alphabet^K` and every ordered pair
//! the neighbour relation allows ([`crate::privacy::one_shot`]), under the
//! keys of the online check (`horizon` "1", `algorithm`
//! "report-noisy-max", the witness's `losses` and `neighbour` one vector
//! each).

use super::privacy::{sequence_text, Probabilities, VerdictKeys, ONE_SHOT_ALGORITHM};
use super::{fraction, Fraction, Human, SchemaVersion};
use crate::mechanism::Noise;
use crate::privacy::one_shot::{OneShot, OneShotReport};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::fmt::Write;

/// How a one-shot verdict was reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Decision {
    /// By the certified enclosures.
    Certified,
    /// Exactly, in the field Q(e^(1/q)).
    ExactField,
}

/// The result of the one-shot privacy check of report-noisy-max.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct OneShotPrivacyReport {
    /// The number of actions K.
    pub actions: u64,
    /// `report-noisy-max`.
    pub algorithm: String,
    /// The loss values.
    pub alphabet: Vec<Fraction>,
    /// The distinct pairs of classes over the allowed pairs (one factor each).
    pub class_pairs: u64,
    /// The classes of inputs with equal gaps x − min x (one law each).
    pub classes: u64,
    /// Whether the verdict came from the certified enclosures or was decided exactly in Q(e^(1/q)).
    pub decision: Decision,
    /// The ε checked.
    pub epsilon: Fraction,
    /// `"1"`: one selection.
    pub horizon: String,
    /// |alphabet|^K.
    pub inputs: u64,
    /// The maximum as a quotient of sums of c·e^(rational) when decided in the exact field, else null.
    pub max_ratio_closed_form: Option<String>,
    /// The noise of report-noisy-max.
    pub mechanism: Noise,
    /// null: a one-shot check is not split.
    pub merge: Option<()>,
    /// The neighbour relation: any, linf:D or one:D.
    pub neighbours: String,
    /// The noise, as `mechanism`.
    pub noise: Noise,
    /// The noise scale β.
    pub noise_scale: Fraction,
    /// false.
    pub resample: bool,
    /// The version of this report's keys.
    pub schema_version: SchemaVersion,
    /// Δ of the relation (D, or the alphabet's range for any).
    pub sensitivity: Fraction,
    /// `1/1`.
    pub shard: String,
    /// The verdict, the maximum and the witness.
    #[serde(flatten)]
    pub verdict: VerdictKeys,
    /// Why the laws are not exact (null when they are).
    pub why_not_exact: Option<String>,
}

impl OneShotPrivacyReport {
    /// The report of `out`, the check of `p`, whose witness has the
    /// probabilities `probabilities`
    /// ([`crate::privacy::one_shot::witness_probabilities`]).
    pub fn new(
        p: &OneShot,
        out: &OneShotReport,
        probabilities: &Probabilities,
    ) -> OneShotPrivacyReport {
        let r = &out.report;
        let mut verdict = VerdictKeys::of(r, 1);
        verdict.witness = verdict.witness.with_probabilities(probabilities);
        OneShotPrivacyReport {
            actions: p.actions as u64,
            algorithm: ONE_SHOT_ALGORITHM.into(),
            alphabet: p.alphabet.iter().map(fraction).collect(),
            class_pairs: out.class_pairs,
            classes: out.classes,
            decision: if out.closed_form.is_some() {
                Decision::ExactField
            } else {
                Decision::Certified
            },
            epsilon: fraction(&p.epsilon),
            horizon: "1".into(),
            inputs: out.inputs,
            max_ratio_closed_form: out.closed_form.clone(),
            mechanism: p.noise,
            merge: None,
            neighbours: p.neighbours.to_string(),
            noise: p.noise,
            noise_scale: fraction(&p.scale),
            resample: false,
            schema_version: SchemaVersion,
            sensitivity: fraction(&p.sensitivity()),
            shard: "1/1".into(),
            verdict,
            why_not_exact: r.why_not_exact.clone(),
        }
    }
}

/// A paragraph: the selection and its neighbours, the verdict, the witness
/// and what was checked.
impl Human for OneShotPrivacyReport {
    fn human(&self) -> String {
        let v = &self.verdict;
        let mut text = String::new();
        let alphabet: Vec<&str> = self.alphabet.iter().map(|a| a.0.as_str()).collect();
        let _ = writeln!(
            text,
            "report-noisy-max ({} noise, scale {}), K = {}, alphabet {{{}}}, neighbours {} (sensitivity {}), ε = {}:",
            self.mechanism,
            self.noise_scale,
            self.actions,
            alphabet.join(", "),
            self.neighbours,
            self.sensitivity,
            self.epsilon
        );
        text.push_str(&v.line());
        if let Some(form) = &self.max_ratio_closed_form {
            let _ = writeln!(text, "  decided exactly in Q(e^(1/q)): max ratio = {form}");
        }
        let w = &v.witness;
        let _ = writeln!(text, "  witness:");
        let _ = writeln!(text, "    losses    {}", sequence_text(&w.losses));
        let _ = writeln!(text, "    neighbour {}", sequence_text(&w.neighbour));
        let _ = writeln!(
            text,
            "    action    {}   P(action | losses) / P(action | neighbour) = {}",
            w.actions.first().copied().unwrap_or(0),
            w.ratio
        );
        let _ = write!(
            text,
            "  {} ordered input pairs of {} inputs checked through {} classes of equal gaps ({} class pairs), {}",
            v.pairs.unwrap_or(0),
            self.inputs,
            self.classes,
            self.class_pairs,
            match &self.max_ratio_closed_form {
                Some(_) => "certified laws, the open comparison decided exactly".to_string(),
                None => format!("certified laws at {} bits", v.precision_bits.unwrap_or(0)),
            }
        );
        text
    }
}
