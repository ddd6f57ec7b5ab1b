//! "Anytime-Lazy-UCB is ε-DP" (004 Theorem 2), checked exhaustively with
//! the certified law of its pull sequence ([`crate::bandit::privacy`]): K = 2
//! arms, rewards {0, 1}, every pair of neighbouring reward tables (one
//! round's reward vector replaced), every pull sequence. As printed (noise
//! `Lap(1/ε)`), and with half that scale, which the checker must refute.
//!
//! "Lazy-DP-TS is ε-DP" (004 Theorem 4) is checked **statistically** by the
//! audit of [`crate::bandit::ts_audit`] (which says why no certified law is
//! available), as printed and with a planted violation.

use crate::bandit::law::LazyUcbParams;
use crate::bandit::privacy::{check_certified, Outcome as Checked};
use crate::bandit::ts_audit::{audit as ts_audit, AuditSetup, TsParams};
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

/// The grid of the Lazy-DP-TS audit claims.
const TS_GRID: &str = "K = 2, rewards {0, 1}, T ∈ {4, 6, 8}, ε ∈ {1/2, 1}: the adversarial selection of neighbouring reward tables of bandit::ts_audit, 100 000 runs per table, seed 2026";

/// The Lazy-DP-TS audit (a statistical check: [`crate::bandit::ts_audit`])
/// on [`TS_GRID`] with the noise scale `factor/ε` and the bonus constant
/// `bonus`; family-wise confidence 0.95 (0.95 within each problem's
/// Bonferroni over its pairs, and 0.05/6 of error per problem).
fn ts_audit_grid(factor: f64, bonus: f64) -> Result<Outcome> {
    const PROBLEMS: f64 = 6.0;
    let mut lines = Vec::new();
    let mut violated = None;
    for horizon in [4, 6, 8] {
        for epsilon in [0.5, 1.0] {
            let params = TsParams {
                noise_scale: factor / epsilon,
                bonus,
                ..TsParams::printed(epsilon)
            };
            let setup = AuditSetup {
                horizon,
                alphabet: vec![0.0, 1.0],
                runs: 100_000,
                seed: 2026,
                confidence: 1.0 - 0.05 / PROBLEMS,
                force: false,
            };
            let o = ts_audit(&params, &setup, &|_| {})?;
            let b = &o.best;
            let line = format!(
                "T={horizon} ε={epsilon}: ε_actual ≥ {:.4} (estimated ratio {:.4} of the chosen event, e^ε = {:.4}; {} pairs)",
                b.epsilon_lower,
                b.ratio_estimate,
                epsilon.exp(),
                o.selection.pairs.len()
            );
            if o.violated && violated.is_none() {
                violated = Some(json!({
                    "problem": line,
                    "rewards": o.selection.tables[b.first],
                    "neighbour": o.selection.tables[b.second],
                    "round": b.round,
                    "event_codes": format!("{:#x}", b.event),
                    "counts": [b.counts.0, b.counts.1],
                }));
            }
            lines.push(line);
        }
    }
    let detail = format!(
        "statistical, not a proof (Clopper–Pearson on held-out halves, Bonferroni over pairs and the {PROBLEMS} problems, family-wise confidence 0.95): {}",
        lines.join("; ")
    );
    Ok(match violated {
        Some(w) => Outcome::refuted(format!("violated at confidence 0.95: {detail}"), w),
        None => Outcome::holds(format!(
            "no violation detected at confidence 0.95: {detail}"
        )),
    })
}

fn ts_printed() -> Result<Outcome> {
    ts_audit_grid(1.0, 3.0)
}

fn ts_half_scale_no_bonus() -> Result<Outcome> {
    ts_audit_grid(0.5, 1e-3)
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
        Claim {
            id: "hu-thm4",
            source: Source {
                paper: Paper::Hu,
                number: "Theorem 4",
                context: "L204–L206, of Algorithm 3 (L190–L200)",
            },
            statement: "Algorithm 3 is ε-differentially private.",
            math: "∀ neighbouring reward tables x, x' (one round's reward vector replaced), ∀ events E on the pulls: P(E|x) ≤ e^ε P(E|x'), with noise Lap(1/ε) on each epoch's sum; checked statistically: a lower confidence bound on max ln(P(E|x)/P(E|x')) over audited pairs must not exceed ε",
            method: Method::Statistical,
            domain: TS_GRID,
            cost: Cost::Slow,
            check: ts_printed,
        },
        Claim {
            id: "hu-thm4-half-scale-no-bonus",
            source: Source {
                paper: Paper::Hu,
                number: "Theorem 4",
                context: "L204–L206, of Algorithm 3 (L190–L200)",
            },
            statement: "Planted variant (not in the paper): Algorithm 3 with noise Lap(1/(2ε)), half the printed scale, and the bonus constant 3 of line 4 lowered to 1/1000, is ε-DP. Expected false: it checks that the audit catches a wrong scale. (Half the scale alone is not caught at T ≤ 8: the bonus 3 ln t/(εO) ≥ 3 ln 5/2 ≈ 2.4 (ε ≤ 1; O ≤ 2 is read at T ≤ 8, O = 2 from t = 5 on) clips μ̄ to 1 except on a Laplace tail, so the pulls barely depend on the rewards; the audit finds no violation there.)",
            math: "as hu-thm4 with Lap(1/(2ε)) and bonus 10^−3 ln t/(εO)",
            method: Method::Statistical,
            domain: TS_GRID,
            cost: Cost::Slow,
            check: ts_half_scale_no_bonus,
        },
    ]
}
