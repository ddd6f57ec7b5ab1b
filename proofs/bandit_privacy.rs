//! "Anytime-Lazy-UCB is ε-DP" (004 Theorem 2), checked exhaustively with
//! the certified law of its pull sequence ([`crate::bandit::privacy`]): K = 2
//! arms, rewards {0, 1}, every pair of neighbouring reward tables (one
//! round's reward vector replaced), every pull sequence. As printed (noise
//! `Lap(1/ε)`), and with half that scale, which the checker must refute.

use crate::bandit::law::LazyUcbParams;
use crate::bandit::privacy::{check_certified, Outcome as Checked};
use crate::error::Result;
use crate::num::{format_sig, Real, Q};
use crate::privacy::{decide, Ratio, Verdict};
use crate::verify::{Claim, Cost, Method, Outcome, Paper, Source};
use serde_json::json;

/// A bandit check's maximum (`None`: infinite) as the checker's [`Ratio`].
pub(crate) fn ratio_of(r: &Option<(Q, Q)>) -> Ratio {
    match r {
        None => Ratio::Infinite,
        Some((lo, hi)) if lo == hi => Ratio::Exact(lo.clone()),
        Some((lo, hi)) => Ratio::Certified {
            lo: lo.clone(),
            hi: hi.clone(),
        },
    }
}

/// The grid written in the registry entries.
const GRID: &str = "K = 2, rewards {0, 1}, T ∈ {4, 6}, ε ∈ {1/2, 1}: every pair of neighbouring reward tables, every pull sequence";

/// Check the grid with the noise scale `factor/ε`.
fn check_grid(factor: Q) -> Result<Outcome> {
    let alphabet = [Q::from_integer(0.into()), Q::from_integer(1.into())];
    let mut lines = Vec::new();
    let mut undecided = None;
    for horizon in [4, 6] {
        for epsilon in [Q::new(1.into(), 2.into()), Q::from_integer(1.into())] {
            let params = LazyUcbParams {
                scale: &factor / &epsilon,
                ..LazyUcbParams::printed(epsilon.clone())
            };
            let verdict_of =
                |o: &Checked, bits: u32| decide(&ratio_of(&o.max_ratio), &epsilon, bits);
            let (o, p) = check_certified(&params, horizon, &alphabet, false, |o, p| {
                Ok(verdict_of(o, p.0)?.0 != Verdict::Undecided)
            })?;
            let (verdict, bound) = verdict_of(&o, p.0)?;
            let ratio = match &o.max_ratio {
                Some((lo, _)) => format_sig(lo, 12),
                None => "∞".into(),
            };
            let bound = format_sig(&bound.enclosure().map_or_else(Q::default, |(lo, _)| lo), 12);
            let line = format!(
                "T={horizon} ε={epsilon} scale={}: max ratio {ratio} vs e^ε = {bound} ({})",
                params.scale,
                verdict.name()
            );
            let w = &o.witness;
            let witness = || {
                json!({
                    "problem": line,
                    "rewards": w.rewards.iter().map(|r| r.iter().map(ToString::to_string).collect::<Vec<_>>()).collect::<Vec<_>>(),
                    "neighbour": w.neighbour.iter().map(|r| r.iter().map(ToString::to_string).collect::<Vec<_>>()).collect::<Vec<_>>(),
                    "pulls": w.pulls.iter().map(|a| a + 1).collect::<Vec<_>>(),
                    "ratio": ratio,
                    "bound": format!("e^{epsilon}"),
                })
            };
            match verdict {
                Verdict::Violated => {
                    return Ok(Outcome::refuted(
                        format!(
                            "violated on {line}; {} problems checked before it",
                            lines.len()
                        ),
                        witness(),
                    ));
                }
                Verdict::Undecided => {
                    undecided.get_or_insert_with(witness);
                }
                Verdict::Private => {}
            }
            lines.push(line);
        }
    }
    let detail = lines.join("; ");
    Ok(match undecided {
        Some(w) => Outcome::undecided(
            format!(
                "no violation, but a ratio's enclosure still contains e^ε at 4096 bits: {detail}"
            ),
            Some(w),
        ),
        None => Outcome::holds(format!("private on all {} problems: {detail}", lines.len())),
    })
}

fn printed() -> Result<Outcome> {
    check_grid(Q::from_integer(1.into()))
}

fn half_scale() -> Result<Outcome> {
    check_grid(Q::new(1.into(), 2.into()))
}

/// This file's planted variants (`proofs::planted`).
pub(super) fn planted() -> Vec<&'static str> {
    vec!["hu-thm2-half-scale"]
}

/// The claims of this file.
pub(super) fn claims() -> Vec<Claim> {
    let source = Source {
        paper: Paper::Hu,
        number: "Theorem 2",
        context: "L160–L162, of Algorithm 1 (L140–L149)",
    };
    vec![
        Claim {
            id: "hu-thm2",
            source,
            statement: "Algorithm 1 is ε-differentially private.",
            math: "∀ neighbouring reward tables x, x' (one round's reward vector replaced), ∀ pull sequences a: P(a|x) ≤ e^ε P(a|x'), with noise Lap(1/ε) on each epoch's sum",
            method: Method::PrivacyChecker,
            domain: GRID,
            cost: Cost::Slow,
            check: printed,
        },
        Claim {
            id: "hu-thm2-half-scale",
            source,
            statement: "Variant a reader would try (not in the paper): Algorithm 1 with noise Lap(1/(2ε)), half the printed scale, bonus terms unchanged, is ε-DP. Expected false: it checks that the checker catches a wrong scale.",
            math: "as hu-thm2 with Lap(1/(2ε))",
            method: Method::PrivacyChecker,
            domain: GRID,
            cost: Cost::Slow,
            check: half_scale,
        },
    ]
}
