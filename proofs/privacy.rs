//! "Algorithm X is ε-differentially private" claims, checked by the
//! exhaustive privacy checker ([`crate::privacy::check`]): every pair of
//! neighbouring loss sequences over a finite alphabet, every action sequence,
//! exact or certified ratios.
//!
//! A grid of problems (K, horizon t, alphabet, ε) is checked for each claim.
//! The claim *holds on the instances* when every problem's maximum ratio is
//! at most `e^ε`, is *refuted* by the first problem where it is certainly
//! above (the witness is the pair of neighbouring sequences and the actions),
//! and is *undecided* only when the checker cannot decide a comparison —
//! which does not happen for these algorithms: a ratio equal to `e^ε`, which
//! intervals cannot confirm, is decided exactly in the field of exponential
//! polynomials ([`crate::num::ExpRational`]; the detail says "= e^ε
//! exactly" for such a problem).

use crate::algorithm::{AlgorithmId, Config};
use crate::error::Result;
use crate::mechanism::Noise;
use crate::num::{format_sig, Certified, Real, Q};
use crate::privacy::{check, Options, Problem, Ratio, Report, Verdict};
use crate::verify::search::{self, Param};
use crate::verify::{Claim, Cost, Method, Outcome, Paper, Source, Status};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use std::fmt::Write;

/// One problem of a grid: the algorithm and what it is checked on.
struct Case {
    config: Config,
    horizon: usize,
    alphabet: Vec<Q>,
}

fn q(text: &str) -> Q {
    crate::num::parse_rational(text).expect("a rational literal of the registry")
}

fn alphabet(values: &[&str]) -> Vec<Q> {
    values.iter().map(|v| q(v)).collect()
}

/// The shapes `(K, t, alphabet)` of the standard grid.
const SHAPES: [(usize, usize, &[&str]); 4] = [
    (2, 6, &["0", "1"]),
    (3, 4, &["0", "1"]),
    (4, 2, &["0", "1"]),
    (2, 3, &["0", "1/2", "1"]),
];

/// The standard grid at the given values of ε.
fn grid_at(id: AlgorithmId, epsilons: &[&str], configure: impl Fn(&mut Config)) -> Vec<Case> {
    let epsilons: Vec<Q> = epsilons.iter().map(|e| q(e)).collect();
    cases_at(id, &SHAPES, &epsilons, &configure)
}

/// Every shape at every ε, in that order (ε outermost).
fn cases_at(
    id: AlgorithmId,
    shapes: &[(usize, usize, &[&str])],
    epsilons: &[Q],
    configure: &dyn Fn(&mut Config),
) -> Vec<Case> {
    let mut cases = Vec::new();
    for epsilon in epsilons {
        for &(k, t, values) in shapes {
            let mut config = Config::new(id, k, epsilon.clone());
            configure(&mut config);
            cases.push(Case {
                config,
                horizon: t,
                alphabet: alphabet(values),
            });
        }
    }
    cases
}

/// The grid's values of ε.
const EPSILONS: [&str; 2] = ["1/2", "1"];

/// The paper's default flags.
fn defaults(_: &mut Config) {}

/// The grid written in the registry entries.
const GRID: &str = "(K, t, alphabet) ∈ {(2, 6, {0,1}), (3, 4, {0,1}), (4, 2, {0,1}), (2, 3, {0,1/2,1})}, ε ∈ {1/2, 1}: every pair of neighbouring loss sequences, every action sequence";

fn describe(case: &Case) -> String {
    let c = &case.config;
    let mut out = format!(
        "{} K={} t={} alphabet={{{}}} ε={}",
        c.id,
        c.actions,
        case.horizon,
        case.alphabet
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(","),
        c.epsilon
    );
    if let Some(noise) = c.noise {
        let _ = write!(out, " noise={}", noise.name());
    }
    if let Some(scale) = &c.noise_scale {
        let _ = write!(out, " scale={scale}");
    }
    if c.resample {
        out.push_str(" B=1");
    }
    out
}

fn ratio_text(ratio: &Ratio) -> String {
    match ratio {
        Ratio::Infinite => "∞".into(),
        Ratio::Exact(x) => format_sig(x, 12),
        Ratio::Certified { lo, hi } => {
            let (lo, hi) = (format_sig(lo, 12), format_sig(hi, 12));
            if lo == hi {
                lo
            } else {
                format!("[{lo}, {hi}]")
            }
        }
    }
}

fn vectors(losses: &[Vec<Q>]) -> Value {
    losses
        .iter()
        .map(|v| v.iter().map(ToString::to_string).collect::<Vec<_>>())
        .collect()
}

fn witness(case: &Case, report: &Report) -> Value {
    json!({
        "problem": describe(case),
        "losses": vectors(&report.witness.losses),
        "neighbour": vectors(&report.witness.neighbour),
        "actions": report.witness.actions.iter().map(|a| a + 1).collect::<Vec<_>>(),
        "ratio": ratio_text(&report.max_ratio),
        "bound": format!("e^{}", case.config.epsilon),
    })
}

/// Check one problem: the checker's report and its line for the evidence.
fn check_case(case: &Case) -> Result<(Report, String)> {
    let algorithm = case.config.build()?;
    let problem = Problem::new(
        case.horizon,
        case.alphabet.clone(),
        case.config.epsilon.clone(),
    )?;
    let report = check(&algorithm, &problem, &Options::default())?;
    let line = format!(
        "{}: max ratio {}{} vs e^ε = {} ({}, {} {})",
        describe(case),
        ratio_text(&report.max_ratio),
        if report.attained {
            " = e^ε exactly"
        } else {
            ""
        },
        format_sig(
            &report
                .bound
                .enclosure()
                .map_or_else(Q::default, |(lo, _)| lo),
            12
        ),
        report.verdict.name(),
        report.pairs,
        match report.method {
            crate::privacy::Method::Structural => "structural candidates",
            crate::privacy::Method::Enumeration => "pairs",
        }
    );
    Ok((report, line))
}

/// Check every case; the outcome as the module doc describes.
fn check_grid(cases: &[Case]) -> Result<Outcome> {
    let mut lines = Vec::new();
    let mut undecided = None;
    for case in cases {
        let (report, line) = check_case(case)?;
        match report.verdict {
            Verdict::Violated => {
                return Ok(Outcome::refuted(
                    format!(
                        "violated on {line}; {} problems checked before it",
                        lines.len()
                    ),
                    witness(case, &report),
                ));
            }
            Verdict::Undecided => {
                undecided.get_or_insert_with(|| witness(case, &report));
            }
            Verdict::Private => {}
        }
        lines.push(line);
    }
    let detail = lines.join("; ");
    Ok(match undecided {
        Some(w) => Outcome::undecided(
            format!("no violation, but the largest ratio's enclosure still contains e^ε at the checker's precision limit; the ratio may equal e^ε exactly, which intervals cannot confirm: {detail}"),
            Some(w),
        ),
        None => Outcome::holds(format!("private on all {} problems: {detail}", cases.len())),
    })
}

/// The shapes `(K, t, alphabet)` of the adversarial search for an
/// algorithm: past the grid in each integer direction, as far as the
/// structural checker goes within the budget — the horizon (t = 63, six
/// doubling epochs, against the grid's 6; t = 255 already costs ~40 s per
/// problem with B = 1; the randomized-prefix softmax, whose random prefixes
/// grow with the blocks, to t = 12), the number of actions, the alphabet's
/// size.
fn far_shapes(id: AlgorithmId) -> [(usize, usize, &'static [&'static str]); 3] {
    let (k, t) = match id {
        AlgorithmId::PrefixSoftmax => (5, 12),
        _ => (6, 63),
    };
    [
        (2, t, &["0", "1"]),
        (k, 3, &["0", "1"]),
        (2, 4, &["0", "1/3", "2/3", "1"]),
    ]
}

/// [`far_shapes`] as text.
fn far_text(id: AlgorithmId) -> String {
    far_shapes(id)
        .iter()
        .map(|(k, t, values)| format!("({k}, {t}, {{{}}})", values.join(",")))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The search's ends of ε's range: tiny and large values no grid reaches.
const EXTREME_EPSILONS: [&str; 2] = ["1/1000", "20"];

/// The ε drawn between the ends, log-uniformly, per claim.
const EPSILON_DRAWS: usize = 3;

/// The search's ε values for the claim `seed`: the two extremes, then
/// [`EPSILON_DRAWS`] draws log-uniform on `[1/1000, 20]` from ChaCha8
/// seeded from the claim's id (four significant digits, so exact).
pub(super) fn search_epsilons(seed: &str) -> Vec<Q> {
    let range = Param::real("ε", EXTREME_EPSILONS[0], EXTREME_EPSILONS[1]);
    let mut rng = ChaCha8Rng::seed_from_u64(search::seed(seed));
    let mut out: Vec<Q> = EXTREME_EPSILONS.iter().map(|e| q(e)).collect();
    out.extend((0..EPSILON_DRAWS).map(|_| range.at(rng.random::<f64>())));
    out
}

/// A variant of the algorithm a claim is about: its id and its flags.
type Variant<'a> = (AlgorithmId, &'a dyn Fn(&mut Config));

/// The slack `ε − ln(max ratio) = ln(e^ε / max ratio)` and the margin
/// `e^ε − max ratio` of a private problem, from certified enclosures (the
/// upper end of the ratio, the checker's enclosure of e^ε) and then their
/// midpoints as f64: approximate, for the report, never for a verdict.
fn slack_of(report: &Report) -> Result<(f64, f64)> {
    let hi = match &report.max_ratio {
        Ratio::Infinite => return Ok((f64::NEG_INFINITY, f64::NEG_INFINITY)),
        Ratio::Exact(x) | Ratio::Certified { hi: x, .. } => x,
    };
    let ratio = Certified::from_rational(hi, &report.bound.context());
    let slack = (report.bound.clone() / &ratio).ln()?;
    Ok((slack.to_f64(), (report.bound.clone() - ratio).to_f64()))
}

/// A privacy claim checked on its grid (`grid_epsilons` × the standard
/// shapes, for each variant) and then, when the grid holds, by the
/// adversarial search over its stated domain ε > 0: every
/// variant on every [`far_shapes`] at every ε of [`search_epsilons`]. A
/// violation found refutes the claim with its witness; otherwise the
/// evidence records the budget and the tightest problem — the smallest
/// share `(ε − ln(max ratio))/ε` of the budget left (0 when the ratio
/// attains e^ε, decided exactly) — and where.
fn searched(seed: &str, variants: &[Variant<'_>], grid_epsilons: &[&str]) -> Result<Outcome> {
    let grid: Vec<Case> = variants
        .iter()
        .flat_map(|(id, configure)| grid_at(*id, grid_epsilons, configure))
        .collect();
    let on_grid = check_grid(&grid)?;
    if on_grid.status != Status::HoldsOnInstances {
        return Ok(on_grid);
    }
    let epsilons = search_epsilons(seed);
    let far: Vec<Case> = variants
        .iter()
        .flat_map(|(id, configure)| cases_at(*id, &far_shapes(*id), &epsilons, configure))
        .collect();
    let budget = format!(
        "{} problems: ε ∈ {{{}}} (the extremes {} and {}, then {EPSILON_DRAWS} draws log-uniform on [{}, {}] from ChaCha8 seeded from {seed:?}) × (K, t, alphabet) ∈ {{{}}}{}; every pair of neighbouring loss sequences of each",
        far.len(),
        epsilons.iter().map(ToString::to_string).collect::<Vec<_>>().join(", "),
        EXTREME_EPSILONS[0],
        EXTREME_EPSILONS[1],
        EXTREME_EPSILONS[0],
        EXTREME_EPSILONS[1],
        far_text(variants[0].0),
        if variants.len() > 1 { " × each variant" } else { "" },
    );
    // The tightest problem, by the fraction of the budget left unused,
    // slack/ε (the slack itself shrinks with ε): (fraction, slack,
    // attained, line).
    let mut tightest: Option<(f64, f64, bool, String)> = None;
    for case in &far {
        let (report, line) = check_case(case)?;
        match report.verdict {
            Verdict::Violated => {
                return Ok(Outcome::refuted(
                    format!(
                        "violated on {line}, found by the adversarial search ({budget}), where the grid holds ({})",
                        on_grid.detail.split_once(": ").map_or("", |(first, _)| first)
                    ),
                    witness(case, &report),
                ));
            }
            Verdict::Undecided => {
                return Ok(Outcome::undecided(
                    format!("{}. The adversarial search ({budget}) reached a problem it cannot decide: {line}", on_grid.detail),
                    Some(witness(case, &report)),
                ));
            }
            Verdict::Private => {}
        }
        let (slack, margin) = if report.attained {
            (0.0, 0.0)
        } else {
            slack_of(&report)?
        };
        let fraction = slack / Real::to_f64(&case.config.epsilon);
        if tightest.as_ref().is_none_or(|(f, ..)| fraction < *f) {
            tightest = Some((
                fraction,
                slack,
                report.attained,
                format!("{line}, e^ε − max ratio ≈ {margin:.3e}"),
            ));
        }
    }
    let found = match tightest {
        Some((_, _, true, line)) => format!("the maximum ratio attains e^ε (margin 0, decided exactly) at {line}"),
        Some((fraction, slack, false, line)) => format!(
            "the smallest share of the budget left that the search found (not shown to be the infimum), (ε − ln(max ratio))/ε ≈ {fraction:.3e} (slack ε − ln(max ratio) ≈ {slack:.3e}; approximate, from the enclosures){} at {line}",
            if fraction < search::NEAR_ZERO { " — it approaches zero there" } else { "" }
        ),
        None => "no problem".into(),
    };
    Ok(Outcome::holds(format!(
        "{}. The adversarial search over ε > 0 and past the grid's K, t and alphabet ({budget}): no violation; {found}",
        on_grid.detail
    )))
}

fn wu_wang(noise: Noise, resample: bool) -> impl Fn(&mut Config) {
    move |c: &mut Config| {
        c.noise = Some(noise);
        c.resample = resample;
    }
}

/// The noise scale set to `factor/ε` instead of the paper's default.
fn scale_over_epsilon(factor: i64) -> impl Fn(&mut Config) {
    move |c: &mut Config| c.noise_scale = Some(Q::from_integer(factor.into()) / &c.epsilon)
}

pub(super) fn claims() -> Vec<Claim> {
    vec![
        Claim {
            id: "hu-thm8",
            source: Source {
                paper: Paper::Hu,
                number: "Theorem 8",
                context: "L271–L273, of Algorithm 4 (RNM-FTNL, L267) with Lap(1/ε) on each epoch's reward sums",
            },
            statement: "RNM-FTNL (Algorithm 4) is ε-differentially private.",
            math: "∀ neighbouring x, x′, ∀ action sequences a: P(a | x) ≤ e^ε P(a | x′), noise Lap(1/ε)",
            method: Method::PrivacyChecker,
            domain: GRID,
            cost: Cost::Fast,
            check: || searched("hu-thm8", &[(AlgorithmId::HuRnmFtnl, &defaults)], &EPSILONS),
        },
        Claim {
            id: "hu-thm8-lap2",
            source: Source {
                paper: Paper::Hu,
                number: "Theorem 8, intended",
                context: "L271–L273 with the scale changed: the printed Lap(1/ε) fails; Wu & Wang run the same algorithm with Lap(2/ε) (a round moves every coordinate of the sums, so report-noisy-max needs scale 2/ε)",
            },
            statement: "RNM-FTNL (Algorithm 4) with Laplace noise of scale 2/ε instead of 1/ε is ε-differentially private.",
            math: "P(a | x) ≤ e^ε P(a | x′), noise Lap(2/ε)",
            method: Method::PrivacyChecker,
            domain: GRID,
            cost: Cost::Slow,
            check: || searched("hu-thm8-lap2", &[(AlgorithmId::HuRnmFtnl, &scale_over_epsilon(2))], &EPSILONS),
        },
        Claim {
            id: "hu-thm6-v1",
            source: Source {
                paper: Paper::HuEarlier,
                number: "Theorem 6",
                context: "§5.1, L86: Algorithm 2 (FTNL) is ε-DP; the copy's formulas are stripped, and the journal version (004, L305) says it contains exactly the same algorithm as its Algorithm 4, Lap(1/ε) on each epoch's reward sums",
            },
            statement: "FTNL (Algorithm 2 of the earlier version, report-noisy-max on each epoch's fresh rewards) is ε-differentially private.",
            math: "P(a | x) ≤ e^ε P(a | x′), noise Lap(1/ε) as in the journal's Algorithm 4",
            method: Method::PrivacyChecker,
            domain: GRID,
            cost: Cost::Fast,
            check: || searched("hu-thm6-v1", &[(AlgorithmId::HuRnmFtnl, &defaults)], &EPSILONS),
        },
        Claim {
            id: "hu-thm6-naive-v1",
            source: Source {
                paper: Paper::HuEarlier,
                number: "§5, the naive FTNL (before Theorem 6)",
                context: "L80: each action's empirical mean made ε/K-DP (Laplace, lazy and forgetful epochs), so the decisions are ε-DP by post-processing and basic composition",
            },
            statement: "The naive Follow-the-Noisy-Leader, with per-action Laplace noise of budget ε/K on each epoch's sums, is ε-differentially private.",
            math: "P(a | x) ≤ e^ε P(a | x′), per-action noise Lap(K/ε)",
            method: Method::PrivacyChecker,
            domain: GRID,
            cost: Cost::Slow,
            check: || searched("hu-thm6-naive-v1", &[(AlgorithmId::NaiveFtnl, &defaults)], &EPSILONS),
        },
        Claim {
            id: "ww-thm1",
            source: Source {
                paper: Paper::WuWang,
                number: "Theorem 1 (privacy part)",
                context: "§1.2, L124–L126: Algorithm 1 with B = 0 and Lap(2/ε), the existing result of Hu et al.",
            },
            statement: "Algorithm 1 with B = 0 and Q_ε = Lap(2/ε) is ε-differentially private.",
            math: "P(a | x) ≤ e^ε P(a | x′), B = 0, Q = Lap(2/ε)",
            method: Method::PrivacyChecker,
            domain: GRID,
            cost: Cost::Slow,
            check: || searched("ww-thm1", &[(AlgorithmId::WuWang, &wu_wang(Noise::Laplace, false))], &EPSILONS),
        },
        Claim {
            id: "ww-thm2",
            source: Source {
                paper: Paper::WuWang,
                number: "Theorem 2 (privacy part)",
                context: "§2.1, L158–L160: Algorithm 1 with Bernoulli resampling B = 1 and Lap(2/ε)",
            },
            statement: "Algorithm 1 with B = 1 and Q_ε = Lap(2/ε) is ε-differentially private.",
            math: "P(a | x) ≤ e^ε P(a | x′), B = 1, Q = Lap(2/ε)",
            method: Method::PrivacyChecker,
            domain: GRID,
            cost: Cost::Slow,
            check: || searched("ww-thm2", &[(AlgorithmId::WuWang, &wu_wang(Noise::Laplace, true))], &EPSILONS),
        },
        Claim {
            id: "ww-cor1-exponential",
            source: Source {
                paper: Paper::WuWang,
                number: "Corollary 1 (privacy part), exponential noise",
                context: "§2.1, L168–L174, Algorithm 1 with B = 1 and Exp(1/ε)",
            },
            statement: "Algorithm 1 with B = 1 and Q_ε = Exp(1/ε) is ε-differentially private.",
            math: "P(a | x) ≤ e^ε P(a | x′), B = 1, Q = Exp(1/ε)",
            method: Method::PrivacyChecker,
            domain: GRID,
            cost: Cost::Fast,
            check: || searched("ww-cor1-exponential", &[(AlgorithmId::WuWang, &wu_wang(Noise::Exponential, true))], &EPSILONS),
        },
        Claim {
            id: "ww-cor1-gumbel",
            source: Source {
                paper: Paper::WuWang,
                number: "Corollary 1 (privacy part), Gumbel noise",
                context: "§2.1, L168–L174, Algorithm 1 with B = 1 and Gumbel(2/ε)",
            },
            statement: "Algorithm 1 with B = 1 and Q_ε = Gumbel(2/ε) is ε-differentially private.",
            math: "P(a | x) ≤ e^ε P(a | x′), B = 1, Q = Gumbel(2/ε)",
            method: Method::PrivacyChecker,
            domain: GRID,
            cost: Cost::Slow,
            check: || searched("ww-cor1-gumbel", &[(AlgorithmId::WuWang, &wu_wang(Noise::Gumbel, true))], &EPSILONS),
        },
        Claim {
            id: "ww-cor2-laplace",
            source: Source {
                paper: Paper::WuWang,
                number: "Corollary 2 (privacy part), Laplace noise",
                context: "§2.1, L176–L182, the instance-independent rate; Algorithm 1 with B = 1 and Lap(2/ε)",
            },
            statement: "Algorithm 1 with B = 1 and Q_ε = Lap(2/ε) is ε-differentially private.",
            math: "P(a | x) ≤ e^ε P(a | x′), B = 1, Q = Lap(2/ε)",
            method: Method::PrivacyChecker,
            domain: GRID,
            cost: Cost::Slow,
            check: || searched("ww-cor2-laplace", &[(AlgorithmId::WuWang, &wu_wang(Noise::Laplace, true))], &EPSILONS),
        },
        Claim {
            id: "ww-cor3-laplace",
            source: Source {
                paper: Paper::WuWang,
                number: "Corollary 3 (privacy part), Laplace noise",
                context: "§2.2, L263–L267, the deterministic-setting rate; B is not fixed by the statement (its proof, App. G, extends Theorem 2), so both B = 0 and B = 1 are checked",
            },
            statement: "Algorithm 1 with Q_ε = Lap(2/ε) (B = 0 or 1) is ε-differentially private.",
            math: "P(a | x) ≤ e^ε P(a | x′), B ∈ {0, 1}, Q = Lap(2/ε)",
            method: Method::PrivacyChecker,
            domain: "B ∈ {0, 1} × (K, t, alphabet) ∈ {(2, 6, {0,1}), (3, 4, {0,1}), (4, 2, {0,1}), (2, 3, {0,1/2,1})} × ε ∈ {1/2, 1}: every pair of neighbouring loss sequences, every action sequence",
            cost: Cost::Slow,
            check: || searched("ww-cor3-laplace", &[(AlgorithmId::WuWang, &wu_wang(Noise::Laplace, false)), (AlgorithmId::WuWang, &wu_wang(Noise::Laplace, true))], &EPSILONS),
        },
        Claim {
            id: "ww-cor2-exponential",
            source: Source {
                paper: Paper::WuWang,
                number: "Corollary 2 (privacy part), exponential noise",
                context: "§2.1, L176–L182, the instance-independent rate; Algorithm 1 with B = 1 and Exp(1/ε)",
            },
            statement: "Algorithm 1 with B = 1 and Q_ε = Exp(1/ε) is ε-differentially private.",
            math: "P(a | x) ≤ e^ε P(a | x′), B = 1, Q = Exp(1/ε)",
            method: Method::PrivacyChecker,
            domain: GRID,
            cost: Cost::Fast,
            check: || searched("ww-cor2-exponential", &[(AlgorithmId::WuWang, &wu_wang(Noise::Exponential, true))], &EPSILONS),
        },
        Claim {
            id: "ww-cor3-exponential",
            source: Source {
                paper: Paper::WuWang,
                number: "Corollary 3 (privacy part), exponential noise",
                context: "§2.2, L263–L267, the deterministic-setting rate; B is not fixed by the statement (its proof, App. G, extends Theorem 2), so both B = 0 and B = 1 are checked",
            },
            statement: "Algorithm 1 with Q_ε = Exp(1/ε) (B = 0 or 1) is ε-differentially private.",
            math: "P(a | x) ≤ e^ε P(a | x′), B ∈ {0, 1}, Q = Exp(1/ε)",
            method: Method::PrivacyChecker,
            domain: "B ∈ {0, 1} × (K, t, alphabet) ∈ {(2, 6, {0,1}), (3, 4, {0,1}), (4, 2, {0,1}), (2, 3, {0,1/2,1})} × ε ∈ {1/2, 1}: every pair of neighbouring loss sequences, every action sequence",
            cost: Cost::Fast,
            check: || searched("ww-cor3-exponential", &[(AlgorithmId::WuWang, &wu_wang(Noise::Exponential, false)), (AlgorithmId::WuWang, &wu_wang(Noise::Exponential, true))], &EPSILONS),
        },
        Claim {
            id: "ww-cor2-gumbel",
            source: Source {
                paper: Paper::WuWang,
                number: "Corollary 2 (privacy part), Gumbel noise",
                context: "§2.1, L176–L182, the instance-independent rate; Algorithm 1 with B = 1 and Gumbel(2/ε)",
            },
            statement: "Algorithm 1 with B = 1 and Q_ε = Gumbel(2/ε) is ε-differentially private.",
            math: "P(a | x) ≤ e^ε P(a | x′), B = 1, Q = Gumbel(2/ε)",
            method: Method::PrivacyChecker,
            domain: GRID,
            cost: Cost::Slow,
            check: || searched("ww-cor2-gumbel", &[(AlgorithmId::WuWang, &wu_wang(Noise::Gumbel, true))], &EPSILONS),
        },
        Claim {
            id: "ww-cor3-gumbel",
            source: Source {
                paper: Paper::WuWang,
                number: "Corollary 3 (privacy part), Gumbel noise",
                context: "§2.2, L263–L267, the deterministic-setting rate; B is not fixed by the statement (its proof, App. G, extends Theorem 2), so both B = 0 and B = 1 are checked",
            },
            statement: "Algorithm 1 with Q_ε = Gumbel(2/ε) (B = 0 or 1) is ε-differentially private.",
            math: "P(a | x) ≤ e^ε P(a | x′), B ∈ {0, 1}, Q = Gumbel(2/ε)",
            method: Method::PrivacyChecker,
            domain: "B ∈ {0, 1} × (K, t, alphabet) ∈ {(2, 6, {0,1}), (3, 4, {0,1}), (4, 2, {0,1}), (2, 3, {0,1/2,1})} × ε ∈ {1/2, 1}: every pair of neighbouring loss sequences, every action sequence",
            cost: Cost::Slow,
            check: || searched("ww-cor3-gumbel", &[(AlgorithmId::WuWang, &wu_wang(Noise::Gumbel, false)), (AlgorithmId::WuWang, &wu_wang(Noise::Gumbel, true))], &EPSILONS),
        },
        Claim {
            id: "ww-thm4-exponential",
            source: Source {
                paper: Paper::WuWang,
                number: "Theorem 4 (privacy part), exponential noise",
                context: "§2.2, L273–L275: Algorithm 1 with B = 0 and Exp(1/ε)",
            },
            statement: "Algorithm 1 with B = 0 and Q_ε = Exp(1/ε) is ε-differentially private.",
            math: "P(a | x) ≤ e^ε P(a | x′), B = 0, Q = Exp(1/ε)",
            method: Method::PrivacyChecker,
            domain: GRID,
            cost: Cost::Fast,
            check: || searched("ww-thm4-exponential", &[(AlgorithmId::WuWang, &wu_wang(Noise::Exponential, false))], &EPSILONS),
        },
        Claim {
            id: "ww-thm4-exponential2",
            source: Source {
                paper: Paper::WuWang,
                number: "Theorem 4 (privacy part), intended exponential scale",
                context: "L273–L275 with the scale changed: Exp(1/ε) fails; permute-and-flip with a utility whose every coordinate can move by 1 needs Exp(2/ε), the same factor 2 as Lap(2/ε) and Gumbel(2/ε)",
            },
            statement: "Algorithm 1 with B = 0 and Q_ε = Exp(2/ε) is ε-differentially private.",
            math: "P(a | x) ≤ e^ε P(a | x′), B = 0, Q = Exp(2/ε)",
            method: Method::PrivacyChecker,
            domain: GRID,
            cost: Cost::Slow,
            check: || {
                let configure = |c: &mut Config| {
                    (wu_wang(Noise::Exponential, false))(c);
                    scale_over_epsilon(2)(c);
                };
                searched("ww-thm4-exponential2", &[(AlgorithmId::WuWang, &configure)], &EPSILONS)
            },
        },
        Claim {
            id: "ww-cor1-exponential2",
            source: Source {
                paper: Paper::WuWang,
                number: "Corollary 1 (privacy part), intended exponential scale",
                context: "L168–L174 and L152 with the scale changed: Exp(1/ε) fails with B = 1 too (ww-cor1-exponential); Exp(2/ε), permute-and-flip at ε/2 per unit of a score's move, with Bernoulli resampling",
            },
            statement: "Algorithm 1 with B = 1 and Q_ε = Exp(2/ε) is ε-differentially private.",
            math: "P(a | x) ≤ e^ε P(a | x′), B = 1, Q = Exp(2/ε)",
            method: Method::PrivacyChecker,
            domain: GRID,
            cost: Cost::Slow,
            check: || {
                let configure = |c: &mut Config| {
                    (wu_wang(Noise::Exponential, true))(c);
                    scale_over_epsilon(2)(c);
                };
                searched("ww-cor1-exponential2", &[(AlgorithmId::WuWang, &configure)], &EPSILONS)
            },
        },
        Claim {
            id: "ww-thm4-gumbel",
            source: Source {
                paper: Paper::WuWang,
                number: "Theorem 4 (privacy part), Gumbel noise",
                context: "§2.2, L273–L275: Algorithm 1 with B = 0 and Gumbel(2/ε)",
            },
            statement: "Algorithm 1 with B = 0 and Q_ε = Gumbel(2/ε) is ε-differentially private.",
            math: "P(a | x) ≤ e^ε P(a | x′), B = 0, Q = Gumbel(2/ε)",
            method: Method::PrivacyChecker,
            domain: GRID,
            cost: Cost::Slow,
            check: || searched("ww-thm4-gumbel", &[(AlgorithmId::WuWang, &wu_wang(Noise::Gumbel, false))], &EPSILONS),
        },
        Claim {
            id: "cc-prop1",
            source: Source {
                paper: Paper::CesariColomboni,
                number: "Proposition 1",
                context: "§4, L294–L296: global event-level privacy of the randomized-prefix softmax algorithm, η = min{ε/2, 1/8} (L165)",
            },
            statement: "The randomized-prefix softmax algorithm is ε-differentially private.",
            math: "P(a | x) ≤ e^ε P(a | x′), η = min{ε/2, 1/8}",
            method: Method::PrivacyChecker,
            domain: GRID,
            cost: Cost::Slow,
            check: || searched("cc-prop1", &[(AlgorithmId::PrefixSoftmax, &defaults)], &EPSILONS),
        },
        Claim {
            id: "cc-lem3",
            source: Source {
                paper: Paper::CesariColomboni,
                number: "Lemma 3",
                context: "§4, L248–L258, privacy of the softmax map on a random prefix: 2η-DP; checked through the algorithm (its blocks are such maps on disjoint data) with the temperature set to 1/η and the bound e^{2η}",
            },
            statement: "The softmax map on the sums of a random prefix N (law independent of the data) is 2η-differentially private.",
            math: "P(J = j | d) ≤ e^{2η} P(J = j | d′), J | N = m ~ softmax(−η L^d(m))",
            method: Method::PrivacyChecker,
            domain: "η ∈ {1/8, 1/2, 1}, checked against e^{2η} (ε = 2η ∈ {1/4, 1, 2}), (K, t, alphabet) ∈ {(2, 6, {0,1}), (3, 4, {0,1}), (4, 2, {0,1}), (2, 3, {0,1/2,1})}",
            cost: Cost::Slow,
            // ε = 2η with the temperature 1/η: the bound checked is e^{2η}.
            check: || searched("cc-lem3", &[(AlgorithmId::PrefixSoftmax, &scale_over_epsilon(2))], &["1/4", "1", "2"]),
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::Status;

    fn wu_wang_exponential(scale: &str, epsilon: &str) -> Case {
        let mut config = Config::new(AlgorithmId::WuWang, 2, q(epsilon));
        config.noise = Some(Noise::Exponential);
        config.noise_scale = Some(q(scale));
        Case {
            config,
            horizon: 4,
            alphabet: alphabet(&["0", "1"]),
        }
    }

    /// Permute-and-flip at scale 2 attains the ratio e^1 exactly at t = 4:
    /// intervals cannot confirm "ratio ≤ e^1", the exact field does (the
    /// claim holds, the equality is reported), and the same claim a
    /// thousandth tighter, "ratio ≤ e^{999/1000}", is refuted with a witness
    /// whose ratio is above the bound.
    #[test]
    fn a_bound_a_thousandth_too_small_is_refuted() {
        let tight = check_grid(&[wu_wang_exponential("2", "1")]).unwrap();
        assert_eq!(tight.status, Status::HoldsOnInstances, "{}", tight.detail);
        assert!(tight.detail.contains("= e^ε exactly"), "{}", tight.detail);
        let tighter = check_grid(&[wu_wang_exponential("2", "999/1000")]).unwrap();
        assert_eq!(tighter.status, Status::Refuted, "{}", tighter.detail);
        let witness = tighter.witness.expect("a witness");
        assert_eq!(witness["bound"], "e^999/1000");
        // e^{999/1000} < 2.7156 < the ratio printed.
        let ratio: f64 = witness["ratio"].as_str().unwrap().parse().unwrap();
        assert!(ratio > 2.7156, "{witness}");
        // The witness pair differs in exactly one round.
        let differing = witness["losses"]
            .as_array()
            .unwrap()
            .iter()
            .zip(witness["neighbour"].as_array().unwrap())
            .filter(|(a, b)| a != b)
            .count();
        assert_eq!(differing, 1, "{witness}");
    }

    /// A planted claim, private only for ε ≤ 4: wu-wang (B = 0) with
    /// Gumbel noise of the correct scale 2/ε for ε ≤ 4 and half of it, 1/ε,
    /// above (report-noisy-max with Gumbel(1/ε) on utilities that all move
    /// by 1 is only 2ε-DP: the ratio can reach e^{2ε} > e^ε). The grid
    /// (ε ∈ {1/2, 1}) holds; the search, whose ε reaches 20, refutes it
    /// with a witness at some ε > 4 whose ratio exceeds e^ε.
    #[test]
    fn the_search_refutes_a_claim_false_only_for_large_epsilon() {
        let planted = |c: &mut Config| {
            c.noise = Some(Noise::Gumbel);
            let factor = if c.epsilon <= q("4") { 2 } else { 1 };
            c.noise_scale = Some(Q::from_integer(factor.into()) / &c.epsilon);
        };
        let grid = check_grid(&grid_at(AlgorithmId::WuWang, &EPSILONS, planted)).unwrap();
        assert_eq!(grid.status, Status::HoldsOnInstances, "{}", grid.detail);
        let outcome = searched(
            "ww-thm99-planted",
            &[(AlgorithmId::WuWang, &planted)],
            &EPSILONS,
        )
        .unwrap();
        assert_eq!(outcome.status, Status::Refuted, "{}", outcome.detail);
        let witness = outcome.witness.expect("a witness");
        let bound = witness["bound"].as_str().unwrap();
        let epsilon = q(bound.strip_prefix("e^").unwrap());
        assert!(epsilon > q("4"), "{witness}");
        assert!(
            outcome.detail.contains("found by the adversarial search"),
            "{}",
            outcome.detail
        );
    }

    /// The true claim (the correct scale 2/ε everywhere) is not refuted by
    /// the search, and its evidence records the search's budget and margin.
    #[test]
    fn the_search_keeps_a_private_claim_and_records_its_margin() {
        let outcome = searched(
            "ww-thm99-true",
            &[(AlgorithmId::WuWang, &wu_wang(Noise::Gumbel, false))],
            &EPSILONS,
        )
        .unwrap();
        assert_eq!(
            outcome.status,
            Status::HoldsOnInstances,
            "{}",
            outcome.detail
        );
        for needed in ["adversarial search", "problems: ε ∈ {1/1000, 20,", "slack"] {
            assert!(
                outcome.detail.contains(needed),
                "{needed}: {}",
                outcome.detail
            );
        }
    }

    /// A private configuration holds, with every problem's ratio reported.
    #[test]
    fn a_private_algorithm_holds_on_its_grid() {
        let outcome = check_grid(&[wu_wang_exponential("4", "1")]).unwrap();
        assert_eq!(
            outcome.status,
            Status::HoldsOnInstances,
            "{}",
            outcome.detail
        );
        assert!(outcome.detail.contains("K=2 t=4"), "{}", outcome.detail);
    }
}
