//! A **statistical** privacy audit of a bandit policy with K = 2 arms on
//! small reward tables: DP-TS ([`DpTsParams`]), Lazy-DP-TS (Hu et al., 004 Algorithm
//! 3, L190–L200; Theorem 4, L204), whose pull-sequence law this crate cannot
//! give exactly or certified (why: [`TsParams`]), and Hybrid-UCB (002
//! Appendix E, Algorithm 4, L244–L264, as inferred in [`crate::bandit::policy::hybrid_ucb`];
//! Theorem 5, L75, proved at L264), whose certified law
//! ([`crate::bandit::law::hybrid_ucb`]) costs too much past T = 7 (see [`HybridParams`]).
//! The policy enters through [`Audited`]; everything below is the same for
//! both.
//! Every number it produces is an f64 estimate or a Clopper–Pearson
//! confidence bound, labelled approximate with its confidence level; it
//! never says "private".
//!
//! # The audit
//!
//! * **Sampler.** One run plays the simulator's own policy
//!   ([`Audited::policy`]: [`crate::bandit::policy::lazy_dp_ts::LazyDpTs`] with its Laplace
//!   and Beta draws, [`crate::bandit::policy::hybrid_ucb::HybridUcb`] with its Laplace
//!   draws, [`crate::bandit::policy::dp_ts::DpTs`] (DP-TS, Hu & Hegde, UAI
//!   2022, as inferred) with both) on a reward table
//!   `x ∈ (V²)^T`, row `t` the rewards of both arms in round `t`, one round at
//!   a time, and records its pulls of rounds `3..T` (rounds 1 and 2 pull arms
//!   1 and 2 in both algorithms) as a code in `0..2^{T−2}`. Run `i` of table `k` draws
//!   from the ChaCha8 stream `k` of the key `seed`, chunk by chunk, so the
//!   counts do not depend on the number of threads.
//! * **Pairs: a documented adversarial selection.** All `|V|^{2T} · T ·
//!   (|V|² − 1)` pairs are too many to sample at `T = 8` (65 536 tables at
//!   `V = {0, 1}`). For Lazy-DP-TS, a change reaches the pulls only through the epoch sum
//!   that contains it, shifting one private mean `μ̃_j` by `Δ/O_j` while its
//!   noise has scale `b/O_j` — the same loss on the noise for every round —
//!   and the shifted mean is then read by every later round until arm `j`'s
//!   next epoch ends. The selection keeps the changes read longest and the
//!   background that decides what is read: the **base tables** are those
//!   whose rows `3..T` all equal one vector `v ∈ V²`, with line 2's seen
//!   rewards `x_1(1), x_2(2)` free (the unseen entries of rows 1 and 2 are
//!   the alphabet's first value: a pair changing only them has ratio 1
//!   exactly), `|V|⁴` tables; each is paired with every neighbour that
//!   changes its round-1 or round-2 seen reward (base tables again), or
//!   replaces one row `r ≥ 3` by any other vector. Both directions of each
//!   pair are audited. For Hybrid-UCB the same selection serves: a change of
//!   row `r` reaches the noisy sums of the arm pulled in round `r` from that
//!   observation on, and as the background varies the changed row is that
//!   arm's first, second, third … observation in some runs — in particular
//!   its third, the first to enter two noisy releases read before `T = 8`
//!   (see [`HybridParams`]).
//! * **Events, held out.** Each table's runs are split: runs `0..n/2`
//!   (selection) and `n/2..n` (test). For a pair, candidate events are "round
//!   `t` pulls arm `j`" and the Neyman–Pearson sets: the `k` pull sequences of
//!   largest estimated ratio `(c_x + ½)/(c_{x'} + ½)` on the selection halves,
//!   `k = 1..2^{T−2}`, in both directions. The event with the largest bound on
//!   the selection halves is bounded again on the test halves only.
//! * **Bound.** With one-sided Clopper–Pearson bounds `p_lo ≤ P(E|x)` and
//!   `q_hi ≥ P(E|x')`, `ε_actual ≥ ln(p_lo/q_hi)`. Each of the two is taken
//!   at level `δ/(2m)`, `m` the number of ordered pairs audited (Bonferroni),
//!   so **all** `m` bounds hold together with probability at least `1 − δ`,
//!   and the largest of them is a lower confidence bound on `ε_actual` (the
//!   algorithm's privacy loss on the audited pairs) at level `1 − δ`. It
//!   exceeds `ε` only if, at that confidence, the algorithm is not ε-DP:
//!   "violated at confidence 1 − δ"; otherwise "no violation detected at
//!   confidence 1 − δ", which is **not** a proof of privacy.
//!
//! # Cost
//!
//! `runs · tables` simulated runs of `T` rounds (Lazy-DP-TS: two Beta draws
//! a round; Hybrid-UCB: one Laplace draw a round);
//! tables `= |V|⁴ + |V|⁴ (T − 2)(|V|² − 1)` from `T = 5` on (208 at
//! `V = {0,1}`, `T = 6`, 304 at `T = 8`; fewer at `T ≤ 4`, where one table
//! neighbours two base tables, 64 at `T = 4`: [`table_count`]); at most
//! [`MAX_RUNS`] in one run without `force`.
//!
//! # Shards
//!
//! The runs split into chunks of [`CHUNK`] runs per table, each simulated
//! from its own position in its table's stream ([`units`]); a shard
//! simulates a contiguous range of them ([`sample_part`]) and the analysis
//! ([`analyse`]) is a function of the summed counts only, so the counts of
//! shards `1/N..N/N` summed are the whole run's and so is the analysis.

use crate::bandit::policy::dp_ts::{BonusRound, DpTs};
use crate::bandit::policy::hybrid_ucb::HybridUcb;
use crate::bandit::policy::lazy_dp_ts::LazyDpTs;
use crate::bandit::policy::{NoiseRng, Policy};
use crate::error::{Error, Result};
use crate::oracle::audit::clopper_pearson;
use rand::SeedableRng;
use rayon::prelude::*;
use std::collections::HashMap;

/// The default limit on simulated runs (tables × runs) without `force`.
pub const MAX_RUNS: u64 = 1 << 28;

/// The largest horizon audited: `2^{T−2}` pull sequences fit one `u64`
/// event mask.
pub const MAX_HORIZON: usize = 8;

/// Runs per chunk (one noise stream position each): the unit of a shard
/// is one chunk of one table ([`units`]).
pub const CHUNK: u64 = 1 << 12;

/// Lazy-DP-TS's parameters (004 Algorithm 3): ε, the Laplace scale (printed
/// `1/ε`), the bonus constant (printed 3).
///
/// # Why there is no certified law
///
/// For Anytime-Lazy-UCB the event "these pulls" is a polyhedron in the
/// Laplace noises and its probability a closed form ([`crate::bandit::law::anytime_lazy_ucb`]). For
/// Lazy-DP-TS, fix the noises: round `t ≥ 3` pulls arm 0 with probability
/// `p_t = P(θ_0 ≥ θ_1) = ∫₀¹ f_{a_0,b_0}(x) I_x(a_1, b_1) dx`, `θ_j ~
/// Beta(a_j, b_j)`, `a_j = μ̄_j O_j + 1`, `b_j = (1 − μ̄_j) O_j + 1`,
/// `μ̄_j = Clip_[0,1](μ̃_j + 3 ln t/(εO_j))`, `μ̃_j = (S_j + Z_j)/O_j` (L195).
/// So the law of a pull sequence is
///
/// ```text
/// P(a | x) = ∫ ∏_v f_Lap(z_v) ∏_{t ≥ 3} p_t(z)^{[a_t = 0]} (1 − p_t(z))^{[a_t = 1]} dz
/// ```
///
/// over the (at most `2 + 2⌊log₂ T⌋`, four at `T = 8`) noises read before
/// the horizon. Three facts rule out a certified enclosure at these sizes
/// with this crate's numbers:
///
/// 1. **The Beta parameters are not piecewise constant in the noise.**
///    There is no rounding in line 4: `a_j = μ̄_j O_j + 1` moves continuously
///    with `Z_j` between the clipping points `μ̃_j + 3 ln t/(εO_j) ∈ {0, 1}`.
///    Only on the clipped pieces (`μ̄_j ∈ {0, 1}`) are the parameters
///    integers and `p_t` a rational polynomial integral; in between `p_t` is
///    an incomplete-beta integral with real, noise-dependent parameters, and
///    its normalisation `1/B(a, b)` a Gamma-function value. `crate::num`
///    has certified `exp`/`ln` but no certified Gamma or incomplete beta
///    function with real parameters.
/// 2. **The outer integral is multi-dimensional and not separable.** The
///    same noise `Z_j` is read by every round until arm `j`'s next epoch
///    ends, so the integrand is a product of up to `T − 2` such `p_t` over
///    up to four noises. The one rigorous quadrature available without
///    derivative bounds of `p_t` is the monotone box enclosure (`p_t` is
///    increasing in `Z_0` and decreasing in `Z_1`, since `Beta(μO + 1,
///    (1 − μ)O + 1)` is stochastically increasing in `μ`): each box of the
///    noise grid contributes its Laplace mass times the product of the
///    factors' corner values. Its width is first order in the mesh, so a
///    relative width `h` needs `~(1/h)^d` boxes, `d ≤ 4`, each needing
///    `T − 2` certified real-parameter incomplete-beta integrals — at
///    `h = 10⁻³` about 10¹² boxes per law.
/// 3. **The verdict needs tight ratios.** A privacy verdict compares
///    `P(a | x)/P(a | x')` with `e^ε`. At ε ≤ 1 the bonus `3 ln t/(εO)` is at
///    least `3 ln 5/2 ≈ 2.4` for every `(t, O)` read at `T ≤ 8` (`O ≤ 2`, and
///    `O = 2` only from `t = 5`), so it clips `μ̄` to 1 except on a Laplace
///    tail and the ratios stay near 1 (the audit below finds no event that
///    separates any audited pair); deciding them by enclosure, let alone
///    certifying them `≤ e^ε` where they come close to it (a smaller bonus),
///    needs enclosures far narrower than `e^ε − 1` on every one of the
///    `2^{T−2} · |V|^T` laws.
///
/// So [`audit`] gives a statistical audit in that case.
///
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TsParams {
    /// ε of the bonus term `3 ln t/(εO)`.
    pub epsilon: f64,
    /// The scale of each Laplace draw.
    pub noise_scale: f64,
    /// The constant of the bonus term.
    pub bonus: f64,
}

impl TsParams {
    /// As printed (L193–L195): scale `1/ε`, bonus 3.
    pub fn printed(epsilon: f64) -> TsParams {
        TsParams {
            epsilon,
            noise_scale: 1.0 / epsilon,
            bonus: 3.0,
        }
    }
}

/// Each named parameter is a positive finite number (the flag that sets it
/// names it in the error).
fn positive(named: &[(&str, f64)]) -> Result<()> {
    match named.iter().find(|(_, x)| !(x.is_finite() && *x > 0.0)) {
        Some((name, x)) => Err(Error::InvalidInput(format!(
            "{name} must be a positive number, got {x}"
        ))),
        None => Ok(()),
    }
}

/// A bandit algorithm the audit can run: its parameters, validated, and a
/// fresh K = 2 policy per run.
pub trait Audited: Sync {
    /// The policy of one run.
    type Policy: Policy;
    /// The algorithm's name in messages.
    const NAME: &'static str;
    /// The ε the audit's verdict compares with.
    fn epsilon(&self) -> f64;
    /// Every parameter positive and finite.
    fn validate(&self) -> Result<()>;
    /// A fresh policy with K = 2 arms.
    fn policy(&self) -> Self::Policy;
}

impl Audited for TsParams {
    type Policy = LazyDpTs;
    const NAME: &'static str = "Lazy-DP-TS";

    fn epsilon(&self) -> f64 {
        self.epsilon
    }

    fn validate(&self) -> Result<()> {
        positive(&[
            ("--epsilon", self.epsilon),
            ("--noise-scale", self.noise_scale),
            ("--bonus", self.bonus),
        ])
    }

    fn policy(&self) -> LazyDpTs {
        let mut p = LazyDpTs::new(2, self.epsilon);
        p.means.noise_scale = self.noise_scale;
        p.means.bonus = self.bonus;
        p
    }
}

/// Hybrid-UCB's parameters (002 Appendix E, Algorithm 4, as inferred in
/// [`crate::bandit::policy::hybrid_ucb`]): ε, the Laplace scale of each array block
/// (inferred default `2/ε`, the logarithmic mechanism at ε/2), the per-level
/// scale of the tree's p-sums (inferred default `2/ε`, times `m + 1` levels:
/// the binary mechanism at ε/2), the bonus constant of index (35) (3).
///
/// # The noise, and where its exact law is
///
/// Per arm, the noisy sum after `n` observations is `Y(n) = S(n) + N(n)`,
/// `N(n)` the array blocks' noises plus the tree p-sums' noises of the binary
/// digits of the current leaf count. From [`crate::bandit::policy::hybrid_ucb`]'s insertion:
/// `N(1) = A₁`, `N(2) = A₁ + A₂`, `N(3) = N(2) + T₁` (tree of `m = 1`, scale
/// `2b_t`), `N(4) = N(2) + A₃`, `N(5) = N(4) + P₀`, `N(6) = N(4) + P₁`,
/// `N(7) = N(6) + P₀'` (tree of `m = 2`, scale `3b_t`), `N(8) = N(4) + A₄`:
/// each arm's noises form a tree, child = parent + one fresh Laplace. Round
/// `t` compares `Y_1(n_1)/n_1 + bonus` with `Y_2(n_2)/n_2 + bonus`, and the
/// pairs `(n_1, n_2)` climb a staircase: the constraints close **cycles**
/// (round 3 reads `A₁ − A₁'`, round 4 after arm 1 `(A₁ + A₂)/2 − A₁'`), so
/// the leaf-to-root one-variable integration of [`crate::bandit::law::anytime_lazy_ucb`] does not
/// apply; the certified law is the Laplace measure of a polyhedron in the
/// `N_j(n)` ([`crate::bandit::law::hybrid_ucb`], [`crate::measure::polyhedral`]). Its cost grows
/// about ten-fold per round (T = 7: 86 CPU-seconds for the whole check), so
/// this audit stays: as a cross-check of the exact check, and beyond the
/// horizons it can afford.
///
/// # What the audit can see
///
/// A change of observation `k` of one arm shifts `Y(n)` by `Δ` for every
/// `n ≥ k` and leaves `Y(n < k)` alone; the privacy loss of the whole
/// sequence `Y` is the loss of explaining that shift by the noises released
/// from `k` on that every later `N(n)` contains. Observations 1, 2, 4, 8 enter
/// one array block each (loss `Δ/b_a`); observation 3 enters `T₁` and `A₃`
/// (`Δ/(2b_t) + Δ/b_a`); observation 5 enters `P₀, P₁` and `A₄`
/// (`2Δ/(3b_t) + Δ/b_a`). At the inferred scales `2/ε` that is at most
/// `5ε/6`: ε-DP, as 002's Theorem 5 says by composition (L264). At half the
/// scales, observations 3 and 5 reach `3ε/2` and `5ε/3`, but only through
/// the joint values of `Y(2), Y(3), Y(4)` (or `Y(4..6)`), which the pulls
/// reveal through windows only; observation 1 alone reaches exactly `ε`.
/// At a quarter of the scales observation 1 alone reaches `2ε`, read by
/// round 3.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HybridParams {
    /// ε of the verdict (the defaults derive from it).
    pub epsilon: f64,
    /// The scale of each array block's Laplace noise.
    pub array_scale: f64,
    /// The per-level scale of a tree p-sum's Laplace noise.
    pub tree_scale: f64,
    /// The constant of index (35).
    pub bonus: f64,
}

impl HybridParams {
    /// As inferred ([`crate::bandit::policy::hybrid_ucb`]): both scales `2/ε`, bonus 3.
    pub fn inferred(epsilon: f64) -> HybridParams {
        let p = HybridUcb::new(2, epsilon);
        HybridParams {
            epsilon,
            array_scale: p.array_scale,
            tree_scale: p.tree_scale,
            bonus: p.bonus,
        }
    }
}

impl Audited for HybridParams {
    type Policy = HybridUcb;
    const NAME: &'static str = "Hybrid-UCB";

    fn epsilon(&self) -> f64 {
        self.epsilon
    }

    fn validate(&self) -> Result<()> {
        positive(&[
            ("--epsilon", self.epsilon),
            ("--noise-scale", self.array_scale),
            ("--tree-scale", self.tree_scale),
            ("--bonus", self.bonus),
        ])
    }

    fn policy(&self) -> HybridUcb {
        let mut p = HybridUcb::new(2, self.epsilon);
        p.array_scale = self.array_scale;
        p.tree_scale = self.tree_scale;
        p.bonus = self.bonus;
        p
    }
}

/// DP-TS's parameters (Hu & Hegde, UAI 2022, as inferred in
/// [`crate::bandit::policy::dp_ts`]): the Hybrid mechanism's two scales, as
/// Hybrid-UCB's (inferred defaults `2/ε` each), and the bonus constant of
/// `c·√(8 ln(O+1) ln t)/(εO)` (inferred default 6). Like Lazy-DP-TS it has
/// no certified law (its pulls are argmaxes of Beta draws whose parameters
/// move continuously with the noise: [`TsParams`]); what the audit can see of
/// its noise is Hybrid-UCB's ([`HybridParams`]). Its reading of the round
/// whose `ln t` the bonus reads ([`BonusRound`]) is a field.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DpTsParams {
    /// The scales and the bonus constant.
    pub hybrid: HybridParams,
    /// The round whose `ln t` the bonus reads.
    pub bonus_round: BonusRound,
}

impl DpTsParams {
    /// As inferred ([`crate::bandit::policy::dp_ts`]): both scales `2/ε`,
    /// bonus 6, `ln t` of the current round.
    pub fn inferred(epsilon: f64) -> DpTsParams {
        let p = DpTs::new(2, epsilon);
        DpTsParams {
            hybrid: HybridParams {
                epsilon,
                array_scale: p.array_scale,
                tree_scale: p.tree_scale,
                bonus: p.bonus,
            },
            bonus_round: p.bonus_round,
        }
    }
}

impl Audited for DpTsParams {
    type Policy = DpTs;
    const NAME: &'static str = "DP-TS";

    fn epsilon(&self) -> f64 {
        self.hybrid.epsilon
    }

    fn validate(&self) -> Result<()> {
        self.hybrid.validate()
    }

    fn policy(&self) -> DpTs {
        let h = &self.hybrid;
        let mut p = DpTs::new(2, h.epsilon);
        p.array_scale = h.array_scale;
        p.tree_scale = h.tree_scale;
        p.bonus = h.bonus;
        p.bonus_round = self.bonus_round;
        p
    }
}

/// A reward table: row `t` holds the alphabet indices of arm 0's and arm
/// 1's rewards in round `t + 1`.
pub type Table = Vec<[usize; 2]>;

/// The pulls of rounds `3..=T` of one run of the algorithm of `params` on
/// `table` (`alphabet` values), as a code: bit `t − 3` is the arm of round
/// `t`.
pub fn pulls_code<A: Audited>(
    params: &A,
    table: &Table,
    alphabet: &[f64],
    rng: &mut NoiseRng,
) -> usize {
    let mut policy = params.policy();
    let mut code = 0;
    for (i, row) in table.iter().enumerate() {
        let t = i as u64 + 1;
        let arm = policy.choose(t, 1, rng).arm;
        policy.observe(arm, 1, alphabet[row[arm]], rng);
        if t >= 3 {
            code |= arm << (t - 3);
        }
    }
    code
}

/// Counts of each pull code over a table's runs, split into the selection
/// half (runs `0..n/2`) and the test half (`n/2..n`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counts {
    /// Selection half.
    pub selection: Vec<u64>,
    /// Test half.
    pub test: Vec<u64>,
}

/// `runs` runs on `table` from the ChaCha8 stream `stream` of `seed`
/// (reproducible whatever the threads: chunks of runs, each from its own
/// position in the stream, summed in order).
pub fn sample_counts<A: Audited>(
    params: &A,
    table: &Table,
    alphabet: &[f64],
    runs: u64,
    seed: u64,
    stream: u64,
) -> Counts {
    let chunks = 0..chunks_per_table(runs);
    sample_chunks(params, table, alphabet, (runs, seed, stream), chunks)
}

/// The chunks of [`CHUNK`] runs each table's `runs` fall into (the last
/// one possibly shorter): the unit a shard takes.
pub fn chunks_per_table(runs: u64) -> u64 {
    runs.div_ceil(CHUNK)
}

/// The counts of the chunks `chunks` of the `runs` runs of [`sample_counts`]
/// (`(runs, seed, stream)`): chunk `c` holds runs `c·CHUNK..(c+1)·CHUNK` and
/// starts from its own position in the stream, so any set of chunks gives
/// the runs that the whole table gives there.
fn sample_chunks<A: Audited>(
    params: &A,
    table: &Table,
    alphabet: &[f64],
    (runs, seed, stream): (u64, u64, u64),
    chunks: std::ops::Range<u64>,
) -> Counts {
    let codes = 1usize << table.len().saturating_sub(2);
    let half = runs / 2;
    // The chunks' counts are summed as they finish (memory independent of
    // the number of runs).
    chunks
        .into_par_iter()
        .map(|c| {
            let mut rng = NoiseRng::seed_from_u64(seed);
            rng.set_stream(stream);
            // 2^12 runs of at most 8 rounds draw far fewer than 2^20 words.
            rng.set_word_pos(u128::from(c) << 20);
            let mut counts = Counts::zero(codes);
            for i in c.saturating_mul(CHUNK)..c.saturating_add(1).saturating_mul(CHUNK).min(runs) {
                let code = pulls_code(params, table, alphabet, &mut rng);
                if i < half {
                    counts.selection[code] += 1;
                } else {
                    counts.test[code] += 1;
                }
            }
            counts
        })
        .reduce(
            || Counts::zero(codes),
            |mut total, c| {
                total.add(&c);
                total
            },
        )
}

impl Counts {
    /// No run yet, over `codes` pull codes.
    pub fn zero(codes: usize) -> Counts {
        Counts {
            selection: vec![0; codes],
            test: vec![0; codes],
        }
    }

    /// Add `other`'s counts (of the same codes), saturating.
    pub fn add(&mut self, other: &Counts) {
        for (s, x) in self.selection.iter_mut().zip(&other.selection) {
            *s = s.saturating_add(*x);
        }
        for (s, x) in self.test.iter_mut().zip(&other.test) {
            *s = s.saturating_add(*x);
        }
    }
}

/// The audited tables and ordered pairs (module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Selection {
    /// Every table sampled.
    pub tables: Vec<Table>,
    /// Ordered pairs `(x, x', round)`: indices into `tables`, the 1-based
    /// round where they differ.
    pub pairs: Vec<(usize, usize, usize)>,
}

/// The adversarial selection of pairs at horizon `horizon` over `v` reward
/// values (module documentation); its memory ([`table_count`] tables, each
/// held twice with its pairs) is guarded first.
pub fn selection(horizon: usize, v: usize) -> Result<Selection> {
    let each = 2 * (24 + 16 * horizon) + 64;
    crate::size::table(
        &format!("the reward tables of the audit at horizon {horizon} on {v} reward values"),
        table_count(horizon, v).map(u128::from),
        each,
    )?;
    let mut tables: Vec<Table> = Vec::new();
    let mut index: HashMap<Table, usize> = HashMap::new();
    let mut id = |t: Table, tables: &mut Vec<Table>| -> usize {
        *index.entry(t.clone()).or_insert_with(|| {
            tables.push(t);
            tables.len() - 1
        })
    };
    let base = |s0: usize, s1: usize, w: [usize; 2]| -> Table {
        (0..horizon)
            .map(|t| match t {
                0 => [s0, 0],
                1 => [0, s1],
                _ => w,
            })
            .collect()
    };
    let mut pairs = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut push = |x: Table, y: Table, round: usize, tables: &mut Vec<Table>| {
        let (i, j) = (id(x, tables), id(y, tables));
        // At T = 3 a later-row neighbour is a base table: each pair once.
        if seen.insert((i.min(j), i.max(j))) {
            pairs.push((i, j, round));
            pairs.push((j, i, round));
        }
    };
    for s0 in 0..v {
        for s1 in 0..v {
            for w in (0..v * v).map(|c| [c / v, c % v]) {
                let x = base(s0, s1, w);
                // Round 1 and 2 (each unordered pair once: the larger value).
                for d in s0 + 1..v {
                    push(x.clone(), base(d, s1, w), 1, &mut tables);
                }
                if horizon >= 2 {
                    for d in s1 + 1..v {
                        push(x.clone(), base(s0, d, w), 2, &mut tables);
                    }
                }
                for r in 2..horizon {
                    for u in (0..v * v).map(|c| [c / v, c % v]).filter(|&u| u != w) {
                        let mut y = x.clone();
                        y[r] = u;
                        push(x.clone(), y, r + 1, &mut tables);
                    }
                }
            }
        }
    }
    Ok(Selection { tables, pairs })
}

/// An event on the pulls of rounds `3..=T`: a set of pull codes.
pub type EventMask = u64;

/// The mask of "round `round` pulls `arm`" (`round ≥ 3`) among `codes`
/// pull codes.
pub fn round_event(round: usize, arm: usize, codes: usize) -> EventMask {
    (0..codes)
        .filter(|c| (c >> (round - 3)) & 1 == arm)
        .fold(0, |m, c| m | 1 << c)
}

fn count(counts: &[u64], event: EventMask) -> u64 {
    counts
        .iter()
        .enumerate()
        .filter(|(c, _)| event >> c & 1 == 1)
        .map(|(_, n)| n)
        .sum()
}

/// `ln(p_lo/q_hi)` for the event with counts `kn` of `nn` (numerator) and
/// `kd` of `nd`, each Clopper–Pearson bound one-sided at `a`.
fn log_bound(kn: u64, nn: u64, kd: u64, nd: u64, a: f64) -> (f64, f64, f64) {
    let (p_lo, _) = clopper_pearson(kn, nn, a);
    let (_, q_hi) = clopper_pearson(kd, nd, a);
    (p_lo, q_hi, (p_lo / q_hi).ln())
}

/// The candidate events for `P(E|x)/P(E|x')` from the selection counts:
/// the rounds' events and the Neyman–Pearson sets.
fn candidates(num: &[u64], den: &[u64], horizon: usize) -> Vec<EventMask> {
    let codes = num.len();
    let mut out: Vec<EventMask> = Vec::new();
    for round in 3..=horizon {
        for arm in 0..2 {
            out.push(round_event(round, arm, codes));
        }
    }
    let mut order: Vec<usize> = (0..codes).collect();
    let score = |c: usize| (num[c] as f64 + 0.5) / (den[c] as f64 + 0.5);
    order.sort_by(|&c, &d| score(d).total_cmp(&score(c)).then(c.cmp(&d)));
    let mut mask = 0;
    for c in order {
        mask |= 1 << c;
        out.push(mask);
    }
    out
}

/// The audit of one ordered pair.
#[derive(Clone, Debug, PartialEq)]
pub struct PairBound {
    /// `x` (index into [`Selection::tables`]).
    pub first: usize,
    /// `x'`.
    pub second: usize,
    /// The 1-based round where they differ.
    pub round: usize,
    /// The event chosen on the selection halves.
    pub event: EventMask,
    /// Its count in `x`'s test half, and in `x'`'s.
    pub counts: (u64, u64),
    /// The Clopper–Pearson lower bound of `P(E|x)` and upper bound of
    /// `P(E|x')`.
    pub bounds: (f64, f64),
    /// `max(0, ln(p_lo/q_hi))`.
    pub epsilon_lower: f64,
    /// The point estimate of `P(E|x)/P(E|x')` on the test halves.
    pub ratio_estimate: f64,
}

/// Audit one ordered pair from its tables' counts, each bound at level `a`
/// (the pair's indices and round are left 0 for the caller).
pub fn audit_pair(x: &Counts, y: &Counts, horizon: usize, a: f64) -> PairBound {
    let n_sel = (x.selection.iter().sum(), y.selection.iter().sum());
    let mut best: Option<(f64, EventMask)> = None;
    for event in candidates(&x.selection, &y.selection, horizon) {
        let (_, _, s) = log_bound(
            count(&x.selection, event),
            n_sel.0,
            count(&y.selection, event),
            n_sel.1,
            a,
        );
        if best.is_none_or(|b| s > b.0) {
            best = Some((s, event));
        }
    }
    let event = best.map_or(0, |b| b.1);
    let (nx, ny): (u64, u64) = (x.test.iter().sum(), y.test.iter().sum());
    let (kx, ky) = (count(&x.test, event), count(&y.test, event));
    let (p_lo, q_hi, log) = log_bound(kx, nx, ky, ny, a);
    let ratio_estimate = (kx as f64 / nx as f64) / (ky as f64 / ny as f64);
    PairBound {
        first: 0,
        second: 0,
        round: 0,
        event,
        counts: (kx, ky),
        bounds: (p_lo, q_hi),
        epsilon_lower: if log > 0.0 { log } else { 0.0 },
        ratio_estimate,
    }
}

/// What the audit asks: horizon, alphabet, runs per table, seed, confidence.
#[derive(Clone, Debug, PartialEq)]
pub struct AuditSetup {
    /// `T`, `1 ≤ T ≤ MAX_HORIZON`.
    pub horizon: usize,
    /// The reward values, in `[0, 1]`.
    pub alphabet: Vec<f64>,
    /// Runs per table (half select, half test), at least 2.
    pub runs: u64,
    /// The master seed.
    pub seed: u64,
    /// The confidence level `1 − δ`, in `(0, 1)`.
    pub confidence: f64,
    /// Run even above [`MAX_RUNS`].
    pub force: bool,
}

/// The outcome of [`audit`].
#[derive(Clone, Debug, PartialEq)]
pub struct AuditOutcome {
    /// The tables and pairs audited.
    pub selection: Selection,
    /// The pair with the largest lower bound (ties: the first).
    pub best: PairBound,
    /// `δ/(2m)`: the one-sided level of each Clopper–Pearson bound.
    pub level: f64,
    /// The confidence level `1 − δ` of `best.epsilon_lower`.
    pub confidence: f64,
    /// `best.epsilon_lower > ε`.
    pub violated: bool,
}

/// The number of tables [`selection`] audits at horizon `horizon` over
/// `v` reward values, `None` past 64 bits: `v`, `v²`, `v⁴` at `T = 1, 2,
/// 3` (the base tables only: at `T = 3` a later-row neighbour is a base
/// table), `v⁶` at `T = 4` (rows 3 and 4 hold any two vectors: a neighbour
/// `(u, w)` of the base table of `w` is also one of the base table of `u`),
/// and from `T = 5` on `v⁴ + v⁴ (T − 2)(v² − 1)` (a non-base table has one
/// row among rows `3..T` that differs from the others, which name its base
/// table and round).
pub fn table_count(horizon: usize, v: usize) -> Option<u64> {
    let v = v as u64;
    match horizon {
        0 => Some(0),
        1 => Some(v),
        2 => v.checked_pow(2),
        3 => v.checked_pow(4),
        4 => v.checked_pow(6),
        t => {
            let v4 = v.checked_pow(4)?;
            v4.checked_add(
                v4.checked_mul(t as u64 - 2)?
                    .checked_mul(v.checked_mul(v)? - 1)?,
            )
        }
    }
}

/// The number of simulated runs an audit costs, `None` past 64 bits.
pub fn runs_needed(horizon: usize, v: usize, runs: u64) -> Option<u64> {
    table_count(horizon, v)?.checked_mul(runs)
}

impl AuditSetup {
    /// Every parameter of `params` and of the setup in its range (the
    /// run-count guard aside: [`units`] and [`sample_part`]).
    pub fn check<A: Audited>(&self, params: &A) -> Result<()> {
        params.validate()?;
        let (t, v) = (self.horizon, self.alphabet.len());
        if t == 0 || t > MAX_HORIZON {
            return Err(Error::InvalidInput(format!(
                "the {} audit takes horizons 1 to {MAX_HORIZON} (its 2^(T-2) pull sequences are one 64-bit event mask), got {t}",
                A::NAME
            )));
        }
        if v < 2 || self.alphabet.iter().any(|x| !(0.0..=1.0).contains(x)) {
            return Err(Error::InvalidInput(
                "the audit needs at least 2 reward values, each in [0, 1]".into(),
            ));
        }
        if self.runs < 2 {
            return Err(Error::InvalidInput(format!(
                "--runs must be at least 2 (half select the event, half bound it), got {}",
                self.runs
            )));
        }
        if !(self.confidence > 0.0 && self.confidence < 1.0) {
            return Err(Error::InvalidInput(format!(
                "--confidence must lie in (0, 1), got {}",
                self.confidence
            )));
        }
        Ok(())
    }
}

/// The units a shard of the audit splits: every table's chunks of runs
/// ([`chunks_per_table`]), table `k`'s chunk `c` being unit `k·C + c` (`C`
/// chunks a table). A contiguous range of units is a set of whole runs of
/// the whole audit — each run is simulated from its table's stream at its
/// chunk's position whichever shard runs it — so the shards of `1/N..N/N`
/// together simulate exactly the whole audit's runs. `None` past 64 bits.
pub fn units(setup: &AuditSetup) -> Option<u64> {
    table_count(setup.horizon, setup.alphabet.len())?.checked_mul(chunks_per_table(setup.runs))
}

/// The tables that the units `part` touch (some of their chunks).
pub fn tables_of(setup: &AuditSetup, part: &std::ops::Range<u64>) -> std::ops::Range<usize> {
    let c = chunks_per_table(setup.runs).max(1);
    if part.is_empty() {
        return 0..0;
    }
    (part.start / c) as usize..part.end.div_ceil(c) as usize
}

/// The chunks of table `table` among the units `part`.
fn chunks_of(
    setup: &AuditSetup,
    part: &std::ops::Range<u64>,
    table: usize,
) -> std::ops::Range<u64> {
    let c = chunks_per_table(setup.runs);
    let first = table as u64 * c;
    part.start.clamp(first, first + c) - first..part.end.clamp(first, first + c) - first
}

/// How many of table `table`'s runs the units `part` hold in the selection
/// half (runs `0..n/2`) and in the test half: what its counts must sum to.
pub fn runs_of(setup: &AuditSetup, part: &std::ops::Range<u64>, table: usize) -> (u64, u64) {
    let chunks = chunks_of(setup, part, table);
    let (n, half) = (setup.runs, setup.runs / 2);
    let (lo, hi) = (
        chunks.start.saturating_mul(CHUNK).min(n),
        chunks.end.saturating_mul(CHUNK).min(n),
    );
    let selection = hi.min(half).saturating_sub(lo.min(half));
    (selection, hi - lo - selection)
}

/// The runs the units `part` simulate, saturating at `u64::MAX`: every
/// table between the first and the last the part touches holds all its
/// runs (time independent of the number of tables).
pub fn runs_in(setup: &AuditSetup, part: &std::ops::Range<u64>) -> u64 {
    let tables = tables_of(setup, part);
    let of = |k: usize| {
        let (s, t) = runs_of(setup, part, k);
        s.saturating_add(t)
    };
    match tables.len() {
        0 => 0,
        1 => of(tables.start),
        n => of(tables.start)
            .saturating_add(of(tables.end - 1))
            .saturating_add(setup.runs.saturating_mul(n as u64 - 2)),
    }
}

/// Refused above [`MAX_RUNS`] simulated runs in the units `part` unless
/// `setup.force` (checked before the tables are built).
pub fn check_part_size(setup: &AuditSetup, part: &std::ops::Range<u64>) -> Result<()> {
    let runs = runs_in(setup, part);
    if runs > MAX_RUNS && !setup.force {
        return Err(Error::TooLarge(format!(
            "the audit at horizon {} on {} reward values with {} runs per table simulates {runs} runs here, over the limit of {MAX_RUNS}; --force runs it, --shard I/N splits it",
            setup.horizon,
            setup.alphabet.len(),
            setup.runs
        )));
    }
    Ok(())
}

/// Simulate the units `part` ([`units`]) of the audit of `params` on the
/// tables of `selection`: the counts of the tables the part touches
/// ([`tables_of`]), in order ([`check_part_size`] first).
pub fn sample_part<A: Audited>(
    params: &A,
    setup: &AuditSetup,
    selection: &Selection,
    part: &std::ops::Range<u64>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Vec<Counts>> {
    setup.check(params)?;
    check_part_size(setup, part)?;
    let tables = tables_of(setup, part);
    Ok(tables
        .map(|k| {
            let c = sample_table(params, setup, selection, part, k);
            let (s, t) = runs_of(setup, part, k);
            progress(s + t);
            c
        })
        .collect())
}

/// The counts of table `table`'s chunks among the units `part` (one entry
/// of [`sample_part`]: a merge recomputes a shard's table with it).
pub fn sample_table<A: Audited>(
    params: &A,
    setup: &AuditSetup,
    selection: &Selection,
    part: &std::ops::Range<u64>,
    table: usize,
) -> Counts {
    sample_chunks(
        params,
        &selection.tables[table],
        &setup.alphabet,
        (setup.runs, setup.seed, table as u64),
        chunks_of(setup, part, table),
    )
}

/// The audit's analysis (module documentation) from every table's counts
/// (`counts[k]` of `selection.tables[k]`, all runs): the events chosen on
/// the selection halves, bounded on the test halves, Bonferroni across
/// pairs. A function of the counts alone: the whole run and the merge of
/// its shards print the same.
pub fn analyse<A: Audited>(
    params: &A,
    setup: &AuditSetup,
    selection: Selection,
    counts: &[Counts],
) -> Result<AuditOutcome> {
    let t = setup.horizon;
    let m = selection.pairs.len().max(1) as f64;
    let level = (1.0 - setup.confidence) / (2.0 * m);
    let best = selection
        .pairs
        .par_iter()
        .map(|&(i, j, round)| {
            let mut b = audit_pair(&counts[i], &counts[j], t, level);
            (b.first, b.second, b.round) = (i, j, round);
            b
        })
        .reduce_with(|x, y| {
            let first = (x.first, x.second, x.round) <= (y.first, y.second, y.round);
            match x.epsilon_lower.total_cmp(&y.epsilon_lower) {
                std::cmp::Ordering::Greater => x,
                std::cmp::Ordering::Less => y,
                std::cmp::Ordering::Equal if first => x,
                std::cmp::Ordering::Equal => y,
            }
        })
        .ok_or_else(|| {
            Error::InvalidInput(format!(
                "no pair of neighbouring tables to audit at horizon {t}"
            ))
        })?;
    Ok(AuditOutcome {
        violated: best.epsilon_lower > params.epsilon(),
        best,
        level,
        confidence: setup.confidence,
        selection,
    })
}

/// The audit (module documentation); `progress(n)` is called as tables
/// finish with the runs done. The whole run of [`sample_part`] and
/// [`analyse`].
pub fn audit<A: Audited>(
    params: &A,
    setup: &AuditSetup,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<AuditOutcome> {
    setup.check(params)?;
    let (t, v) = (setup.horizon, setup.alphabet.len());
    let total = runs_needed(t, v, setup.runs).filter(|&n| setup.force || n <= MAX_RUNS);
    total.ok_or_else(|| {
        Error::TooLarge(format!(
            "the audit at horizon {t} on {v} reward values with {} runs per table simulates {} runs, over the limit of {MAX_RUNS}; --force runs it",
            setup.runs,
            runs_needed(t, v, setup.runs).map_or("more than 2^64".into(), |n| n.to_string())
        ))
    })?;
    let selection = selection(t, v)?;
    let all = 0..units(setup).unwrap_or(0);
    let counts = sample_part(params, setup, &selection, &all, progress)?;
    analyse(params, setup, selection, &counts)
}
