//! "Anytime-Lazy-UCB is ε-DP" (004 Theorem 2) and DP-SE's privacy (002 L43),
//! checked exhaustively with the certified laws of their pull sequences
//! ([`crate::privacy::bandit::exact`]): K = 2 arms, rewards {0, 1}, every pair of
//! neighbouring reward tables (one round's reward vector replaced), every
//! pull sequence. As printed (noise `Lap(1/ε)` on each epoch's sum), and the
//! variants a reader would try — half that scale; for Anytime-Lazy-UCB, noise
//! calibrated to the mean's sensitivity but added to the sum — which the
//! checker must refute.
//!
//! "Hybrid-UCB is ε-DP" (002 Theorem 5, the earlier version; the algorithm
//! inferred in [`crate::bandit::policy::hybrid_ucb`]) is checked the same way with
//! its certified law ([`crate::bandit::law::hybrid_ucb`]), and also
//! **statistically**, as "Lazy-DP-TS is ε-DP" (004 Theorem 4) is, by the
//! audit of [`crate::privacy::bandit::statistical`] (which says why no certified law is
//! available for Lazy-DP-TS), as printed and with a planted violation.

use crate::bandit::law::anytime_lazy_ucb::LazyUcbParams;
use crate::bandit::law::anytime_lazy_ucb_arms::LazyUcbArms;
use crate::bandit::law::dp_se::DpSeParams;
use crate::bandit::law::hybrid_ucb::HybridLawParams;
use crate::bandit::law::PullLaw;
use crate::error::Result;
use crate::num::{format_sig, Certified, Real, Q};
use crate::privacy::bandit::exact::{check_certified, Outcome as Checked};
use crate::privacy::bandit::setup::ratio_of;
use crate::privacy::bandit::statistical::{
    audit as stat_audit, AuditSetup, Audited, HybridParams, TsParams,
};
use crate::privacy::{decide, Verdict};
use crate::verify::{Claim, Cost, Method, Outcome, Paper, Source};
use serde_json::{json, Value};

/// The grid written in the registry entries.
const GRID: &str = "K = 2, rewards {0, 1}, T ∈ {4, 6}, ε ∈ {1/2, 1}: every pair of neighbouring reward tables, every pull sequence";

/// The grid's problems `(T, ε)` for the horizons `horizons`, ε ∈ {1/2, 1}.
fn grid(horizons: &[usize]) -> Vec<(usize, Q)> {
    let epsilons = [Q::new(1.into(), 2.into()), Q::from_integer(1.into())];
    horizons
        .iter()
        .flat_map(|&t| epsilons.iter().map(move |e| (t, e.clone())))
        .collect()
}

/// How far the adversarial search goes: `all` at every ε of the privacy
/// claims' search (the extremes 1/1000 and 20 and three seeded draws,
/// [`super::privacy::search_epsilons`]), `extremes` at the two extremes.
#[derive(Clone, Copy)]
struct Reach {
    all: usize,
    extremes: usize,
}

/// The reach of the search of Anytime-Lazy-UCB and DP-SE: T = 8, and T = 10
/// at the extremes — the checker enumerates 2^T·2^T pull-sequence laws, so
/// T = 10 (~30 CPU-seconds a problem) is as far as the budget goes.
const FAR: Reach = Reach {
    all: 8,
    extremes: 10,
};

/// The reach of the search of Hybrid-UCB: each law is a Fourier–Motzkin
/// integration over up to `T − 1` noisy sums (about 20 ms at T = 6, 0.5 s at
/// T = 8, release), so T = 5, and T = 6 at the extremes.
const NEAR: Reach = Reach {
    all: 5,
    extremes: 6,
};

/// The adversarial search's problems for the claim `seed`.
fn far(seed: &str, reach: Reach) -> Vec<(usize, Q)> {
    let epsilons = super::privacy::search_epsilons(seed);
    let mut out: Vec<(usize, Q)> = epsilons.iter().map(|e| (reach.all, e.clone())).collect();
    out.extend(epsilons.iter().take(2).map(|e| (reach.extremes, e.clone())));
    out
}

/// Anytime-Lazy-UCB with the noise scale `factor/ε`.
fn lazy_ucb(factor: &Q, epsilon: &Q) -> LazyUcbParams {
    LazyUcbParams {
        scale: factor / epsilon,
        ..LazyUcbParams::printed(epsilon.clone())
    }
}

/// Check Anytime-Lazy-UCB on the grid with the noise scale `factor/ε`, then
/// (when `seed` names the claim) the adversarial search ([`searched`]).
fn check_grid(factor: Q, seed: Option<&str>) -> Result<Outcome> {
    let run = |problems: &[(usize, Q)]| {
        check_problems(
            |_, epsilon, _: &()| Ok(lazy_ucb(&factor, epsilon)),
            |params| format!("scale={}", params.scale),
            &[()],
            problems,
        )
    };
    searched(run, &grid(&[4, 6]), seed, FAR)
}

/// Run `run` on the grid's problems, then — when it holds and `seed` names
/// the claim — on the adversarial search's problems ([`far`] at `reach`); the evidence
/// of a claim that holds ends with the search's budget and its tightest
/// problem, by the share `(ε − ln(max ratio))/ε` of the budget left.
fn searched(
    run: impl Fn(&[(usize, Q)]) -> Result<(Outcome, Option<String>)>,
    grid: &[(usize, Q)],
    seed: Option<&str>,
    reach: Reach,
) -> Result<Outcome> {
    let (on_grid, _) = run(grid)?;
    let Some(seed) = seed else {
        return Ok(on_grid);
    };
    if on_grid.status != crate::verify::Status::HoldsOnInstances {
        return Ok(on_grid);
    }
    let problems = far(seed, reach);
    let budget = format!(
        "{} problems, K = 2, rewards {{0, 1}}: {}",
        problems.len(),
        problems
            .iter()
            .map(|(t, e)| format!("(T = {t}, ε = {e})"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let (found, tightest) = run(&problems)?;
    Ok(match found.status {
        crate::verify::Status::HoldsOnInstances => Outcome::holds(format!(
            "{}. The adversarial search over ε > 0 and T past the grid ({budget}; ε from the extremes 1/1000 and 20 and three draws log-uniform on [1/1000, 20] seeded from {seed:?}): no violation; {}",
            on_grid.detail,
            tightest.unwrap_or_default()
        )),
        _ => Outcome {
            detail: format!(
                "{}, found by the adversarial search ({budget}), where the grid holds",
                found.detail
            ),
            ..found
        },
    })
}

/// Check the law `make(T, ε, variant)` for each problem `(T, ε)` and each
/// variant, in that order; refuted at the first violation (the detail lines
/// are `T=… ε=… describe(law): max ratio …`). Returns the outcome and, when
/// every problem is private, the tightest one as text.
fn check_problems<L: PullLaw, V>(
    make: impl Fn(usize, &Q, &V) -> Result<L>,
    describe: impl Fn(&L) -> String,
    variants: &[V],
    problems: &[(usize, Q)],
) -> Result<(Outcome, Option<String>)> {
    let alphabet = [Q::from_integer(0.into()), Q::from_integer(1.into())];
    let mut lines = Vec::new();
    let mut undecided = None;
    let mut tightest: Option<(f64, String)> = None;
    for (horizon, epsilon) in problems {
        let horizon = *horizon;
        for variant in variants {
            let params = make(horizon, epsilon, variant)?;
            let verdict_of =
                |o: &Checked, bits: u32| decide(&ratio_of(&o.max_ratio), epsilon, bits);
            let (o, p) = check_certified(&params, horizon, &alphabet, false, |o, p| {
                Ok(verdict_of(o, p.0)?.0 != Verdict::Undecided)
            })?;
            let (verdict, bound) = verdict_of(&o, p.0)?;
            if let (Verdict::Private, Some((_, hi))) = (verdict, &o.max_ratio) {
                // The share of the budget left, ln(e^ε/ratio)/ε (approximate).
                let ratio = Certified::from_rational(hi, &bound.context());
                let share = (bound.clone() / &ratio).ln()?.to_f64() / epsilon.to_f64();
                if tightest.as_ref().is_none_or(|(s, _)| share < *s) {
                    tightest = Some((share, format!("the smallest share of the budget left that the search found (not shown to be the infimum), (ε − ln(max ratio))/ε ≈ {share:.3e} (approximate, from the enclosures), at T = {horizon}, ε = {epsilon}")));
                }
            }
            let ratio = match &o.max_ratio {
                Some((lo, _)) => format_sig(lo, 12),
                None => "∞".into(),
            };
            let bound = format_sig(&bound.enclosure().map_or_else(Q::default, |(lo, _)| lo), 12);
            let line = format!(
                "T={horizon} ε={epsilon} {}: max ratio {ratio} vs e^ε = {bound} ({})",
                describe(&params),
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
                    return Ok((
                        Outcome::refuted(
                            format!(
                                "violated on {line}; {} problems checked before it",
                                lines.len()
                            ),
                            witness(),
                        ),
                        None,
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
        Some(w) => (
            Outcome::undecided(
                format!(
                    "no violation, but a ratio's enclosure still contains e^ε at 4096 bits: {detail}"
                ),
                Some(w),
            ),
            None,
        ),
        None => (
            Outcome::holds(format!("private on all {} problems: {detail}", lines.len())),
            tightest.map(|(_, text)| text),
        ),
    })
}

fn printed() -> Result<Outcome> {
    check_grid(Q::from_integer(1.into()), Some("hu-thm2"))
}

/// Anytime-Lazy-UCB with the noise of an epoch of `O` observations
/// `Lap(1/(εO))` on its sum ([`LazyUcbParams::scale_o_power`] = −1).
fn mean_sensitivity() -> Result<Outcome> {
    check_problems(
        |_, epsilon, ()| {
            Ok(LazyUcbParams {
                scale_o_power: -1,
                ..LazyUcbParams::printed(epsilon.clone())
            })
        },
        |params| format!("scale={}/O on the sum", params.scale),
        &[()],
        &grid(&[6, 7]),
    )
    .map(|(outcome, _)| outcome)
}

fn half_scale() -> Result<Outcome> {
    check_grid(Q::new(1.into(), 2.into()), None)
}

/// The K = 3 grid written in the registry entries.
const GRID_K3: &str = "K = 3, rewards {0, 1}, T ∈ {5, 6, 7}, ε ∈ {1/2, 1}: every pair of neighbouring reward tables, every pull sequence (the polyhedral laws of src/bandit/law/anytime_lazy_ucb_arms.rs)";

/// Check Anytime-Lazy-UCB with K = 3 arms on [`GRID_K3`] with the noise
/// scale `factor/ε` (about 8 s in release at the printed scale).
fn check_grid_k3(factor: Q) -> Result<Outcome> {
    check_problems(
        |_, epsilon, _: &()| {
            Ok(LazyUcbArms {
                params: lazy_ucb(&factor, epsilon),
                arms: 3,
            })
        },
        |law| format!("K=3 scale={}", law.params.scale),
        &[()],
        &grid(&[5, 6, 7]),
    )
    .map(|(outcome, _)| outcome)
}

fn printed_k3() -> Result<Outcome> {
    check_grid_k3(Q::from_integer(1.into()))
}

fn half_scale_k3() -> Result<Outcome> {
    check_grid_k3(Q::new(1.into(), 2.into()))
}

/// This file's planted variants (`proofs::planted`).
pub(super) fn planted() -> Vec<&'static str> {
    vec![
        "hu-thm2-half-scale",
        "hu-thm2-mean-sensitivity",
        "hu-thm2-k3-half-scale",
        "hu-algDPSE-v1-half-scale",
        "hu-thm4-half-scale-no-bonus",
        "hu-thm5-v1-privacy-quarter-scale",
        "hu-thm5-v1-privacy-exact-quarter-scale",
    ]
}

/// The epoch-length schedules of the DP-SE grid: the printed ones (no epoch
/// ends within T ≤ 6: trivially private), then `R_e = 1` and `R_e = 1, 2, 2, …`
/// with the printed radius, which exercise the noise.
const DP_SE_SCHEDULES: [&[u64]; 3] = [&[], &[1], &[1, 2]];

/// The DP-SE grid written in the registry entries.
const DP_SE_GRID: &str = "K = 2, rewards {0, 1}, T ∈ {4, 6}, ε ∈ {1/2, 1}, β = 1/T; epoch lengths as printed (no epoch ends before round 2R_1 > 1000: no noise is consulted, ratio 1), and overridden to R_e = 1 and R_e = 1, 2, 2, … (radius as printed for those R_e) so that the noise is exercised: every pair of neighbouring reward tables, every pull sequence";

/// Check DP-SE on its grid with the noise scale `factor/ε` on each sum, then
/// (when `seed` names the claim) the adversarial search ([`searched`]).
fn check_dp_se(factor: Q, seed: Option<&str>) -> Result<Outcome> {
    let run = |problems: &[(usize, Q)]| {
        check_problems(
            |horizon, epsilon, lengths: &&[u64]| {
                let mut p = DpSeParams::printed(epsilon.clone(), horizon)?;
                p.scale = &factor / epsilon;
                if !lengths.is_empty() {
                    p.lengths = lengths.to_vec();
                    p.printed_lengths = false;
                }
                Ok(p)
            },
            |p| {
                let which = if p.printed_lengths {
                    "printed"
                } else {
                    "given"
                };
                let r: Vec<String> = p.lengths.iter().map(ToString::to_string).collect();
                format!("scale={} R_e={} ({which})", p.scale, r.join(","))
            },
            &DP_SE_SCHEDULES,
            problems,
        )
    };
    searched(run, &grid(&[4, 6]), seed, FAR)
}

fn dp_se_printed() -> Result<Outcome> {
    check_dp_se(Q::from_integer(1.into()), Some("hu-algDPSE-v1"))
}

fn dp_se_half_scale() -> Result<Outcome> {
    check_dp_se(Q::new(1.into(), 2.into()), None)
}

/// The grid of the Lazy-DP-TS audit claims.
const TS_GRID: &str = "K = 2, rewards {0, 1}, T ∈ {4, 6, 8}, ε ∈ {1/2, 1}: the adversarial selection of neighbouring reward tables of privacy::bandit::statistical, 100 000 runs per table, seed 2026";

/// What the statistical audit searches (Lazy-DP-TS and Hybrid-UCB alike),
/// and what it leaves out (the evidence says what was searched).
const SEARCHED: &str = "The search is a selection of pairs, not a search of the domain: per problem, the base tables of privacy::bandit::statistical (rows 3..T one vector v ∈ {0, 1}², the seen rewards of rounds 1 and 2 free: 16 tables), each paired, both ways, with every neighbour that changes a seen reward of round 1 or 2 or replaces one row r ≥ 3 by any other vector; per pair the events \"round t pulls arm j\" and the Neyman–Pearson sets of the k likeliest pull sequences (k = 1..2^{T−2}), chosen on one half of the runs and bounded on the other. Not searched: ε outside {1/2, 1}, T > 8, K > 2, rewards outside {0, 1}, tables outside the selection";

/// The Lazy-DP-TS audit (a statistical check: [`crate::privacy::bandit::statistical`])
/// on [`TS_GRID`] with the noise scale `factor/ε` and the bonus constant
/// `bonus`.
fn ts_audit_grid(factor: f64, bonus: f64) -> Result<Outcome> {
    audit_grid(&[4, 6, 8], 100_000, |epsilon| TsParams {
        noise_scale: factor / epsilon,
        bonus,
        ..TsParams::printed(epsilon)
    })
}

/// The statistical audit of the algorithm `params(ε)` at K = 2, rewards
/// {0, 1}, each horizon of `horizons` and ε ∈ {1/2, 1}, `runs` runs per
/// table, seed 2026; family-wise confidence 0.95 (each problem's audit at
/// `1 − 0.05/problems`, Bonferroni over its pairs within).
fn audit_grid<A: Audited>(
    horizons: &[usize],
    runs: u64,
    params: impl Fn(f64) -> A,
) -> Result<Outcome> {
    let problems = 2.0 * horizons.len() as f64;
    let mut lines = Vec::new();
    let mut lower_bounds = Vec::new();
    let mut violated = None;
    for &horizon in horizons {
        for epsilon in [0.5, 1.0] {
            let setup = AuditSetup {
                horizon,
                alphabet: vec![0.0, 1.0],
                runs,
                seed: 2026,
                confidence: 1.0 - 0.05 / problems,
                force: false,
            };
            let o = stat_audit(&params(epsilon), &setup, &|_| {})?;
            let b = &o.best;
            let line = format!(
                "T={horizon} ε={epsilon}: ε_actual ≥ {:.4} (estimated ratio {:.4} of the chosen event, e^ε = {:.4}; {} tables, {} pairs)",
                b.epsilon_lower,
                b.ratio_estimate,
                epsilon.exp(),
                o.selection.tables.len(),
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
            lower_bounds.push(b.epsilon_lower);
        }
    }
    let detail = format!(
        "statistical, not a proof (Clopper–Pearson on held-out halves, Bonferroni over pairs and the {problems} problems, family-wise confidence 0.95): {}. {SEARCHED}",
        lines.join("; ")
    );
    Ok(audit_verdict(&lower_bounds, violated, &detail))
}

/// The verdict of a statistical audit from the lower confidence bounds on
/// the privacy loss ε_actual of its problems: refuted with the witness of
/// a violation; otherwise `holds-on-instances` only when the audit has
/// power — some problem's lower bound is above 0, so that the audit would
/// have seen a privacy loss of that size. An audit whose lower bound is 0
/// on every problem found no event whose probabilities it could tell apart
/// at its confidence: it supports nothing, and is undecided with the reason
/// "no evidence".
fn audit_verdict(lower_bounds: &[f64], violated: Option<Value>, detail: &str) -> Outcome {
    match violated {
        Some(w) => Outcome::refuted(format!("violated at confidence 0.95: {detail}"), w),
        None if lower_bounds.iter().all(|&b| b <= 0.0) => Outcome::undecided(
            format!(
                "no evidence: the lower confidence bound on ε_actual is 0 on every problem, so the audit told no pair of neighbouring tables apart and has no power to support ε-DP (nor to refute it): {detail}"
            ),
            None,
        ),
        None => Outcome::holds(format!(
            "no violation detected at confidence 0.95: {detail}"
        )),
    }
}

/// The grid of the Hybrid-UCB audit claims.
const HYBRID_GRID: &str = "K = 2, rewards {0, 1}, T ∈ {4, 6, 8}, ε ∈ {1/2, 1}: the adversarial selection of neighbouring reward tables of privacy::bandit::statistical, 100 000 runs per table, seed 2026";

/// The Hybrid-UCB audit on [`HYBRID_GRID`] with both scales (array blocks,
/// tree p-sums per level) `factor` times the inferred `2/ε`.
fn hybrid_audit_grid(factor: f64) -> Result<Outcome> {
    audit_grid(&[4, 6, 8], 100_000, |epsilon| {
        let p = HybridParams::inferred(epsilon);
        HybridParams {
            array_scale: factor * p.array_scale,
            tree_scale: factor * p.tree_scale,
            ..p
        }
    })
}

/// The grid of the exact Hybrid-UCB claims.
const HYBRID_EXACT_GRID: &str = "K = 2, rewards {0, 1}, T ∈ {4, 6}, ε ∈ {1/2, 1}: every pair of neighbouring reward tables, every pull sequence (certified laws, bandit::law::hybrid_ucb)";

/// Check Hybrid-UCB's certified law ([`crate::bandit::law::hybrid_ucb`]) on the
/// grid with both scales `factor` times the inferred `2/ε`, then (when
/// `seed` names the claim) the adversarial search at [`NEAR`].
fn hybrid_exact_grid(factor: Q, seed: Option<&str>) -> Result<Outcome> {
    let run = |problems: &[(usize, Q)]| {
        check_problems(
            |_, epsilon, _: &()| {
                let p = HybridLawParams::inferred(epsilon.clone());
                Ok(HybridLawParams {
                    array_scale: &p.array_scale * &factor,
                    tree_scale: &p.tree_scale * &factor,
                    ..p
                })
            },
            |p| format!("array scale={} tree scale={}", p.array_scale, p.tree_scale),
            &[()],
            problems,
        )
    };
    searched(run, &grid(&[4, 6]), seed, NEAR)
}

fn hybrid_exact() -> Result<Outcome> {
    hybrid_exact_grid(Q::from_integer(1.into()), Some("hu-thm5-v1-privacy-exact"))
}

fn hybrid_exact_quarter_scale() -> Result<Outcome> {
    hybrid_exact_grid(Q::new(1.into(), 4.into()), None)
}

fn hybrid_inferred() -> Result<Outcome> {
    hybrid_audit_grid(1.0)
}

fn hybrid_quarter_scale() -> Result<Outcome> {
    hybrid_audit_grid(0.25)
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
            id: "hu-thm2-mean-sensitivity",
            source,
            statement: "Variant a reader would try (not in the paper): Algorithm 1 with the noise calibrated to the sensitivity 1/O of the mean but added to the sum, μ̃ ← (Φ + Lap(1/(εO)))/O (i.e. Lap(1/(εO²)) on the mean), bonus terms unchanged, is ε-DP. Expected false: line 7 adds Lap(1/ε) to the sum (Lap(1/(εO)) on the mean), and the checker must see the difference once epochs of O = 2 end and are used (at T = 6 the ratio is still below e^ε, by 3·10⁻⁶ at ε = 1/2).",
            math: "as hu-thm2 with Lap(1/(εO)) on an epoch's sum of O observations",
            method: Method::PrivacyChecker,
            domain: "K = 2, rewards {0, 1}, T ∈ {6, 7}, ε ∈ {1/2, 1}: every pair of neighbouring reward tables, every pull sequence",
            cost: Cost::Slow,
            check: mean_sensitivity,
        },
        Claim {
            id: "hu-thm2-k3",
            source,
            statement: "Algorithm 1 is ε-differentially private (checked with K = 3 arms, where the event of a pull sequence compares three noisy indices in every round).",
            math: "as hu-thm2 with K = 3 arms: ∀ neighbouring reward tables x, x' ∈ ({0,1}³)^T (one round's reward vector replaced), ∀ pull sequences a: P(a|x) ≤ e^ε P(a|x'), with noise Lap(1/ε) on each epoch's sum",
            method: Method::PrivacyChecker,
            domain: GRID_K3,
            cost: Cost::Slow,
            check: printed_k3,
        },
        Claim {
            id: "hu-thm2-k3-half-scale",
            source,
            statement: "Variant a reader would try (not in the paper): Algorithm 1 with K = 3 arms and noise Lap(1/(2ε)), half the printed scale, bonus terms unchanged, is ε-DP. Expected false: it checks that the checker catches a wrong scale at K = 3.",
            math: "as hu-thm2-k3 with Lap(1/(2ε))",
            method: Method::PrivacyChecker,
            domain: GRID_K3,
            cost: Cost::Slow,
            check: half_scale_k3,
        },
        Claim {
            id: "hu-algDPSE-v1",
            source: Source {
                paper: Paper::HuEarlier,
                number: "§2 (related work), DP-SE of Sajed & Sheffet (2019)",
                context: "L43, the baseline of the experiments (L135); algorithm as in src/bandit/policy/dp_se.rs",
            },
            statement: "Sajed & Sheffet (2019) devised DP-SE, an optimal differentially private algorithm for stochastic bandits (checked: its ε-differential privacy).",
            math: "∀ neighbouring reward tables x, x' (one round's reward vector replaced), ∀ pull sequences a: P(a|x) ≤ e^ε P(a|x'), with noise Lap(1/ε) on each epoch's reward sum (Lap(1/(εR_e)) on the mean)",
            method: Method::PrivacyChecker,
            domain: DP_SE_GRID,
            cost: Cost::Slow,
            check: dp_se_printed,
        },
        Claim {
            id: "hu-algDPSE-v1-half-scale",
            source: Source {
                paper: Paper::HuEarlier,
                number: "§2 (related work), DP-SE of Sajed & Sheffet (2019)",
                context: "L43; a planted variant",
            },
            statement: "Variant a reader would try (not in any paper): DP-SE with noise Lap(1/(2ε)) on each epoch's sum, half the scale, epoch lengths and radius unchanged, is ε-DP. Expected false: it checks that the checker catches a wrong scale.",
            math: "as hu-algDPSE-v1 with Lap(1/(2ε)) on each sum",
            method: Method::PrivacyChecker,
            domain: DP_SE_GRID,
            cost: Cost::Slow,
            check: dp_se_half_scale,
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
        Claim {
            id: "hu-thm5-v1-privacy",
            source: Source {
                paper: Paper::HuEarlier,
                number: "Theorem 5 (its privacy part)",
                context: "L75–L76, proof E.3.1 (L264), of Hybrid-UCB (Appendix E, Algorithm 4, L244–L262); the earlier version, whose formulas are lost: the algorithm and its scales are inferred in src/bandit/policy/hybrid_ucb.rs",
            },
            statement: "Our Hybrid-UCB is ε-differentially private (Theorem 5 of the earlier version, whose regret part is not checked here). The algorithm is inferred: the text copy of the earlier version lost its formulas, and src/bandit/policy/hybrid_ucb.rs rebuilds it as the composition the proof describes (array blocks with Lap(2/ε), the logarithmic mechanism at ε/2; tree p-sums with Lap((m+1)·2/ε), the binary mechanism at ε/2).",
            math: "∀ neighbouring reward tables x, x' (one round's reward vector replaced), ∀ events E on the pulls: P(E|x) ≤ e^ε P(E|x'), with the inferred scales; checked statistically: a lower confidence bound on max ln(P(E|x)/P(E|x')) over audited pairs must not exceed ε",
            method: Method::Statistical,
            domain: HYBRID_GRID,
            cost: Cost::Slow,
            check: hybrid_inferred,
        },
        Claim {
            id: "hu-thm5-v1-privacy-quarter-scale",
            source: Source {
                paper: Paper::HuEarlier,
                number: "Theorem 5 (its privacy part)",
                context: "L75–L76, L264; a planted variant of the inferred Algorithm 4",
            },
            statement: "Planted variant (not in the paper): Hybrid-UCB (as inferred) with both noise scales a quarter of the inferred ones (array blocks Lap(1/(2ε)), tree p-sums Lap((m+1)/(2ε))), bonus unchanged, is ε-DP. Expected false: it checks that the audit catches a wrong scale. (Half the scales is not caught at T ≤ 8 with 10⁵ runs per table, and cannot be through round 1 or 2: a change of an arm's first observation shifts all its noisy sums by the same amount, which one array noise Lap(1/ε) explains at a loss of exactly ε; the losses above ε at half scale (3ε/2 for an arm's third observation, through T₁ and A₃) need the joint values of three noisy sums, which the pulls reveal only through windows. The audit finds ε_actual ≥ 0.97 at T = 8, ε = 1, half scale, with events whose ratio a 4·10⁶-run simulation puts at e^ε within its error.)",
            math: "as hu-thm5-v1-privacy with array scale 1/(2ε) and tree scale 1/(2ε) per level",
            method: Method::Statistical,
            domain: HYBRID_GRID,
            cost: Cost::Slow,
            check: hybrid_quarter_scale,
        },
        Claim {
            id: "hu-thm5-v1-privacy-exact",
            source: Source {
                paper: Paper::HuEarlier,
                number: "Theorem 5 (its privacy part)",
                context: "L75–L76, proof E.3.1 (L264), of Hybrid-UCB (Appendix E, Algorithm 4, L244–L262); the earlier version, whose formulas are lost: the algorithm and its scales are inferred in src/bandit/policy/hybrid_ucb.rs",
            },
            statement: "Our Hybrid-UCB is ε-differentially private (Theorem 5 of the earlier version; the algorithm inferred in src/bandit/policy/hybrid_ucb.rs, as for hu-thm5-v1-privacy), checked exactly: the certified law of the pull sequence (bandit::law::hybrid_ucb, the Laplace measure of a polyhedron in the arms' noisy sums) on every pair of neighbouring reward tables.",
            math: "∀ neighbouring reward tables x, x' (one round's reward vector replaced), ∀ pull sequences a: P(a|x) ≤ e^ε P(a|x'), with array blocks Lap(2/ε) and tree p-sums Lap((m+1)·2/ε)",
            method: Method::PrivacyChecker,
            domain: HYBRID_EXACT_GRID,
            cost: Cost::Slow,
            check: hybrid_exact,
        },
        Claim {
            id: "hu-thm5-v1-privacy-exact-quarter-scale",
            source: Source {
                paper: Paper::HuEarlier,
                number: "Theorem 5 (its privacy part)",
                context: "L75–L76, L264; a planted variant of the inferred Algorithm 4",
            },
            statement: "Planted variant (not in the paper): Hybrid-UCB (as inferred) with both noise scales a quarter of the inferred ones, bonus unchanged, is ε-DP — as hu-thm5-v1-privacy-quarter-scale, checked exactly. Expected false: it checks that the exact checker catches a wrong scale. (Half the scales is private on this grid: see the README's hybrid-ucb section.)",
            math: "as hu-thm5-v1-privacy-exact with array scale 1/(2ε) and tree scale 1/(2ε) per level",
            method: Method::PrivacyChecker,
            domain: HYBRID_EXACT_GRID,
            cost: Cost::Slow,
            check: hybrid_exact_quarter_scale,
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::Status;

    /// An audit whose lower bound on ε_actual is 0 on every problem is not
    /// `holds-on-instances` (it has no power): undecided, "no evidence";
    /// one bound above 0 gives it power; a violation refutes either way.
    #[test]
    fn a_powerless_audit_is_not_holds() {
        let none = audit_verdict(&[0.0, 0.0, 0.0], None, "six problems");
        assert_eq!(none.status, Status::Undecided, "{}", none.detail);
        assert!(none.detail.starts_with("no evidence"), "{}", none.detail);
        let some = audit_verdict(&[0.0, 0.1426, 0.0], None, "six problems");
        assert_eq!(some.status, Status::HoldsOnInstances, "{}", some.detail);
        let violated = audit_verdict(&[0.0], Some(json!({"round": 3})), "one problem");
        assert_eq!(violated.status, Status::Refuted);
    }
}
