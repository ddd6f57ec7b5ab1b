//! Report-noisy-max with Laplace noise: the exact law, in closed form.
//!
//! Wu & Wang, Algorithm 1 (`000`, line 16) select `J_r = argmax(−G_r + Q)`
//! with `Q = Lap(2/ε)` (the original RNM-FTNL of Hu et al. is `B = 0`,
//! `Q = Lap(2/ε)`); Hu et al., Algorithm 4 RNM-FTNL (`004`, lines 2 and 5)
//! select `argmax_j (Φ_j + Lap(1/ε))` over summed rewards, which is this
//! mechanism with β = 1/ε on the losses (rewards are `const − loss`).
//! `Lap(β)` has density `e^{−|z|/β}/(2β)`. (Wu & Wang print the density as
//! `(β/2)·e^{−|x|/β}`, which integrates to β²; we read it as the normalised
//! Laplace density, which is what their proofs use.)
//!
//! # The law
//!
//! With `u_s = −L_s` and `f`, `F` the density and distribution function of
//! `Lap(β)`,
//!
//! ```text
//! P(r) = ∫ f(y − u_r) ∏_{s≠r} F(y − u_s) dy,
//! F(z) = ½ e^{z/β}  (z < 0),     F(z) = 1 − ½ e^{−z/β}  (z ≥ 0).
//! ```
//!
//! # Derivation of the closed form
//!
//! Substitute `t = (y + L_min)/β`: action `s` is centred at `a_s = −g_s/β`
//! with `g_s = L_s − L_min` its gap, and the `1/β` of the density is absorbed
//! by `dy = β dt`. Only the gaps enter (shift invariance). Let
//! `0 = h_0 < h_1 < … < h_{m−1}` be the distinct gaps (tied losses share a
//! breakpoint; a group of `μ` tied actions is one factor to the power `μ`).
//! The breakpoints `a = −h_i/β` cut the line into `m + 1` pieces, and on each
//! piece every factor is `A + B e^{±t}`:
//!
//! * **Bounded piece `i`** (`0 ≤ i ≤ m−2`), between `a_{i+1}` and `a_i`, of
//!   length `ℓ_i = (h_{i+1} − h_i)/β`, with `v = e^{−ℓ_i}`,
//!   `x = e^{−(t − a_{i+1})}` and `y = e^{t − a_i}`, both in `[v, 1]`.
//!   The `n_R` actions with gap `≤ h_i` ("right" of the piece) have
//!   `F = ½ e^{−(h_i − g_s)/β} · y`, product `ρ_i y^{n_R}`; the `n_L` others
//!   ("left") have `F = 1 − q_s x` with `q_s = ½ e^{−(g_s − h_{i+1})/β} ≤ ½`,
//!   product `Π(x) = ∏(1 − q_s x) = Σ_j (−1)^j e_j x^j` (`e_j ≥ 0` the
//!   elementary symmetric polynomials of the `q_s`). For a right action the
//!   density equals its own distribution function (`f = F` left of the
//!   centre), so its integrand is the full product `ρ_i y^{n_R} Π(x)`; for a
//!   left action the density is `q_r x`, and its integrand is
//!   `ρ_i y^{n_R} q_r x Π(x)/(1 − q_r x)`; the quotient is
//!   `Σ_j (−1)^j c_j x^j` with `c_j = e_j − q_r c_{j−1}` (synthetic division,
//!   which damps errors by `q_r ≤ ½`). Each term integrates exactly:
//!
//!   ```text
//!   λ_j = ∫_piece y^{n_R} x^j dt = v^{min(n_R, j)} · (1 − v^{|n_R − j|}) / |n_R − j|   (j ≠ n_R)
//!                                = v^{n_R} · ℓ_i                                       (j = n_R)
//!   ```
//!
//!   The exponents cancel exactly when `j = n_R`: that length term is the
//!   only place `1/β` appears, next to the weights `e^{−gap/β}`.
//! * **Left end** `t ≤ a_{m−1}`: every factor is `½ e^{t − a_s}`, so every
//!   action gets the same `(1/K) ∏_s ½ e^{−(h_{m−1} − g_s)/β}`.
//! * **Right end** `t ≥ 0`: every factor is `1 − q_s x` with
//!   `q_s = ½ e^{−g_s/β}`, `x = e^{−t}`, `dt = −dx/x`, so action `r` gets
//!   `q_r ∫₀¹ ∏_{s≠r} (1 − q_s x) dx`, the permute-and-flip integral
//!   (see [`super::exponential`]), evaluated for all actions at once by
//!   [`exponential::leave_one_out_integrals`] with non-negative terms.
//!
//! Every piece contributes a non-negative amount, so the sum over pieces is
//! free of cancellation.
//!
//! # The left shares in `O(K²)`: a transposed recurrence
//!
//! Evaluated piece by piece, the left shares cost one quotient
//! `Π/(1 − q_r x)` per piece and left group, `≈ K³/3` in all (kept as
//! [`law_reference`], the tests' cross-check). Summed over the pieces
//! instead, they obey a recurrence. Write `x_g = e^{−(t − a_g)}` (the
//! coordinate of breakpoint `g`; `x_{i+1}` is piece `i`'s `x`). Action `r`
//! of group `g ≥ 1` is left of pieces `0..g−1`, on which its factor is
//! `½ x_g`, and its share of them all is
//!
//! ```text
//! ½ Σ_j (−1)^j a_j V_g[j],   a_j = e_j of {q_s : s in groups ≥ g, s ≠ r}   (coordinate x_g),
//! V_g[j] = Σ_{i<g} ρ_i ∫_{piece i} y^{n_R(i)} x_g^{j+1} ∏_{h=i+1}^{g−1} (1 − ½ e^{a_h − t})^{μ_h} dt,
//! ```
//!
//! because `∏_{s ∈ L_i, s ≠ r} F_s` splits into the groups `≥ g` (the
//! polynomial `a`, the same for every piece) and those strictly between
//! (the product). Moving from `g` to `g + 1` multiplies `x_g^{j+1}` by
//! `w_g^{j+1}` (`x_{g+1} = w_g x_g`, `w_g = e^{−(h_{g+1} − h_g)/β}`),
//! appends group `g`'s factor `(1 − ½ x_g)^{μ_g}` to every earlier piece and
//! adds piece `g`:
//!
//! ```text
//! V_1[j] = ρ_0 λ_{0,j+1},
//! V_{g+1}[j] = w_g^{j+1} (T^{μ_g} V_g)[j] + ρ_g λ_{g,j+1},   (T V)[j] = V[j] − ½ V[j+1],
//! ```
//!
//! `T` being the transpose of multiplying by `1 − ½ x_g`. Each step costs
//! `O(μ_g·n_L)`, and `a` is the scaled sweep polynomial of piece `g`
//! times `(1 + ½ z)^{μ_g − 1}` (`O(μ_g·n_L)`), so all left shares cost
//! `O(K²)`; the right shares are suffix sums of the pieces' integrals of
//! the full product. `T` subtracts, but mildly: on every earlier piece
//! `½ x_g ≤ ½`, so `V[j] − ½V[j+1] ≥ V[j]/2` (every `V_g[j]` is the integral
//! of a positive function).
//!
//! # Cost and accuracy
//!
//! `O(K²)` multiply-adds, about `7K²` for distinct losses ([`cost`]
//! computes it from the sizes; [`super::best_law`] refuses more than
//! [`super::MAX_LAPLACE_WORK`] without `--force`): the symmetric sweep
//! (`O(K)` per piece: its `q`'s are rescaled by one piece weight and the
//! next group joins, see `Setup::symmetric_sweep`), the `λ`'s (`O(K)` per
//! piece), the recurrence above, and the right end's leave-one-out
//! integrals (`O(K²)`). This is the size of the answer's inputs — `K`
//! shares of `m` pieces, each piece a polynomial of degree up to `K` — so
//! no better exponent is available without fast (and, in interval
//! arithmetic, unstable) polynomial products. Memory: the sweep keeps every
//! piece's polynomial, `≈ K²/2` numbers at the working precision. Weights
//! are formed as products of the `m − 1` piece weights `e^{−ℓ_i}`, all in
//! `(0, 1]`, so nothing overflows; every `λ_j` is in `(0, ℓ_i]`. The
//! precision is set from the start ([`start_bits`]) instead of doubling
//! from 128 bits through every insufficient one.
//!
//! The bounded pieces use the monomial expansion of `Π`, whose coefficients
//! alternate in sign (this is the one place where cancellation occurs): a
//! piece's integral can be smaller than the sum of its terms' magnitudes by
//! up to `∏ (1 + q_s)/(1 − q_s) ≤ 3^{n_L}`, i.e. at most `log₂3 ≈ 1.58` bits
//! per action left of the piece (78 bits at `K = 50`), plus `log₂(1/ℓ)` bits
//! in `1 − v^k` for a short piece. Certified intervals account for this (they
//! only get wider, and the caller raises the precision, see
//! [`super::best_law`]). Measured at `K = 50`, the hardest instances found
//! (one best action and 49 tied one step behind it, any β) lose about 33
//! bits: 256-bit enclosures keep relative widths below `1e-66`, and `f64`
//! keeps about 8 correct digits (full precision for instances without large
//! tied groups behind a short piece). Use `f64` only for quick looks.
//!
//! # Exact backends
//!
//! When the losses are not all equal the law mixes `1/β` with
//! `e^{−gap/β}`: a [`Scale::Beta`] makes the weights transcendental, a
//! [`Scale::UnitWeight`] `w` makes `1/β = −ln w` transcendental, so an exact
//! backend gets [`Error::NotRepresentable`]. When all losses are equal no
//! length term occurs and the law is exactly uniform, `1/K`, in every backend.

use super::{check_losses, exponential, gaps, Scale};
use crate::error::{Error, Result};
use crate::num::{Real, Q};
use crate::progress::Progress;
use rayon::prelude::*;

/// Above this many multiply-adds (`≈ K³`) the reference's pieces run in
/// parallel.
const PARALLEL_WORK: usize = 1 << 15;

/// The exact law of report-noisy-max with `Lap(β)` noise on `losses`:
/// `law[r] = P(argmax_i (−L_i + Z_i) = r)`, `Z_i` i.i.d. `Lap(β)`, β given by
/// `scale` (see the module documentation for the closed form).
///
/// Errors: [`Error::InvalidInput`] for fewer than 2 actions;
/// [`Error::NotRepresentable`] in an exact backend unless all losses are
/// equal.
///
/// For `K = 2` with gap `d` and `ℓ = d/β` the law is
/// `P(worse) = ¼ e^{−ℓ} (2 + ℓ)`:
///
/// ```
/// use dpdtol::mechanism::{laplace, Scale};
/// use dpdtol::num::{parse_rational, relative_width, Certified, Exact, Precision, Real, Q};
/// let losses = [Q::from_integer(0.into()), Q::from_integer(1.into())];
/// let scale = Scale::beta(Q::from_integer(1.into())).unwrap();
/// // f64: P(2) = ¼ e^{−1} · 3.
/// let p: Vec<f64> = laplace::law(&losses, &scale, &()).unwrap();
/// assert!((p[1] - 0.75 * (-1.0f64).exp()).abs() < 1e-15);
/// assert!((p[0] + p[1] - 1.0).abs() < 1e-15);
/// // Certified: an interval that provably contains P(2).
/// let p: Vec<Certified> = laplace::law(&losses, &scale, &Precision(128)).unwrap();
/// let (lo, hi) = p[1].enclosure().unwrap();
/// assert!(relative_width(&lo, &hi).unwrap() < parse_rational("1e-30").unwrap());
/// // The exact backend cannot represent it.
/// assert!(laplace::law::<Exact>(&losses, &scale, &()).is_err());
/// ```
pub fn law<R: Real>(losses: &[Q], scale: &Scale, ctx: &R::Context) -> Result<Vec<R>> {
    law_counted(losses, scale, ctx, &Progress::default())
}

/// The distinct gaps in ascending order, each action's group (index into
/// them) and each group's multiplicity.
fn groups(losses: &[Q]) -> (Vec<Q>, Vec<usize>, Vec<usize>) {
    let gaps = gaps(losses);
    let mut distinct = gaps.clone();
    distinct.sort();
    distinct.dedup();
    // `binary_search` finds every gap: `distinct` holds them all.
    let group: Vec<usize> = gaps
        .iter()
        .map(|g| distinct.binary_search(g).unwrap_or_else(|i| i))
        .collect();
    let mut mult = vec![0usize; distinct.len()];
    for &g in &group {
        mult[g] += 1;
    }
    (distinct, group, mult)
}

/// The number of distinct losses `m` (the closed form has `m − 1` bounded
/// pieces).
pub fn distinct(losses: &[Q]) -> usize {
    groups(losses).0.len()
}

/// The cost of [`law`] in multiply-adds at the working precision, from the
/// sizes alone: per bounded piece `i`, the sweep (`(1 + μ_{i+1})·n_L`), the
/// `λ`'s and `ρ_i` (`K + i`), the piece's integral and the suffix sums
/// (`n_L + i`), the recurrence and the polynomial `a` (`(4 + 2μ_{i+1})·n_L`);
/// the right end `K²`. For distinct losses `≈ 7K²`.
pub fn cost(losses: &[Q]) -> f64 {
    let (_, _, mult) = groups(losses);
    let k = losses.len() as f64;
    let m = mult.len();
    let mut n_right = 0usize;
    let mut work = k * k;
    for i in 0..m.saturating_sub(1) {
        n_right += mult[i];
        let n_left = (losses.len() - n_right) as f64;
        let joining = mult[i + 1] as f64;
        work += (6.0 + 3.0 * joining) * n_left + k + 2.0 * i as f64;
    }
    work
}

/// The precision to start [`law`] at so that `digits` digits survive: the
/// alternating expansion of a bounded piece loses up to `log₂ 3 ≈ 1.58` bits
/// per action left of it (module documentation), so
/// `3.33·digits + 1.6·n_L + 64` bits, rounded up to a multiple of 64 — one
/// pass instead of doubling from 128 bits through every insufficient
/// precision.
pub fn start_bits(losses: &[Q], digits: u32) -> u32 {
    let (_, _, mult) = groups(losses);
    let n_left = losses.len() - mult.first().copied().unwrap_or(0);
    let bits = (f64::from(digits) * std::f64::consts::LOG2_10 + 1.6 * n_left as f64 + 64.0).ceil();
    ((bits as u32).div_ceil(64) * 64).max(128)
}

/// The bits lost to the shortest bounded piece: `λ_j` forms `1 − v^d` with
/// `v = e^{−ℓ}`, which cancels `log₂(1/ℓ)` bits when `ℓ` is small, so
/// `max(0, −log₂ ℓ_min)` (estimated from the sizes of the rationals, to a
/// few bits) must be added to [`start_bits`]. `ℓ = gap/β`, or `gap·(−ln w)`
/// for a unit weight `w` (`−ln w ≥ 1 − w`).
pub fn short_piece_bits(losses: &[Q], scale: &Scale) -> u64 {
    let log2 = |q: &Q| q.numer().bits() as i64 - q.denom().bits() as i64;
    let scale_log2 = match scale {
        Scale::Beta(beta) => -log2(beta),
        Scale::UnitWeight(w) => log2(&(Q::from_integer(1.into()) - w)),
    };
    let (distinct, _, _) = groups(losses);
    distinct
        .windows(2)
        .map(|pair| (-(log2(&(&pair[1] - &pair[0])) + scale_log2)).max(0) as u64 + 2)
        .max()
        .unwrap_or(0)
}

/// [`law`], counting each bounded piece done on `progress`.
pub(crate) fn law_counted<R: Real>(
    losses: &[Q],
    scale: &Scale,
    ctx: &R::Context,
    progress: &Progress,
) -> Result<Vec<R>> {
    law_by(losses, scale, ctx, progress, Method::Transposed)
}

/// The same law by the earlier `O(K³)` evaluation (a quotient per bounded
/// piece and left group, module documentation, "the reference"): kept as
/// an independent cross-check of [`law`] in the tests and the benches.
pub fn law_reference<R: Real>(losses: &[Q], scale: &Scale, ctx: &R::Context) -> Result<Vec<R>> {
    law_by(losses, scale, ctx, &Progress::default(), Method::Quotients)
}

/// How the left actions' shares of the bounded pieces are computed.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Method {
    /// The transposed recurrence, `O(K²)`.
    Transposed,
    /// One quotient per piece and left group, `O(K³)`.
    Quotients,
}

fn law_by<R: Real>(
    losses: &[Q],
    scale: &Scale,
    ctx: &R::Context,
    progress: &Progress,
    method: Method,
) -> Result<Vec<R>> {
    check_losses(losses)?;
    let k = losses.len();
    let (distinct, group, mult) = groups(losses);
    let m = distinct.len();
    progress.start(m as u64);

    // Piece lengths ℓ_i = (h_{i+1} − h_i)/β and weights e^{−ℓ_i}: the only
    // transcendental inputs.
    let (piece_weight, piece_length) = if m > 1 {
        let inverse = scale.inverse::<R>(ctx).map_err(explain)?;
        let mut weights = Vec::with_capacity(m - 1);
        let mut lengths = Vec::with_capacity(m - 1);
        for pair in distinct.windows(2) {
            let diff = &pair[1] - &pair[0];
            weights.push(scale.weight::<R>(&diff, ctx).map_err(explain)?);
            lengths.push(R::from_rational(&diff, ctx) * &inverse);
        }
        (weights, lengths)
    } else {
        (Vec::new(), Vec::new())
    };

    let setup = Setup::new(k, mult, &piece_weight, ctx);
    let symmetric = setup.symmetric_sweep();
    // Per group, the sum of its shares of the bounded pieces.
    let bounded = match method {
        Method::Transposed => setup.transposed_pieces(&piece_length, &symmetric, progress),
        Method::Quotients => setup.quotient_pieces(&piece_length, &symmetric, progress),
    };
    let right_end = setup.right_end();
    let left_end = setup.left_end();
    progress.add(1);

    // Per group: left end + bounded pieces + right end; all terms are
    // non-negative.
    let per_group: Vec<R> = bounded
        .into_iter()
        .zip(right_end)
        .map(|(pieces, right)| left_end.clone() + &pieces + &right)
        .collect();
    Ok(group.iter().map(|&g| per_group[g].clone()).collect())
}

/// A clearer message when an exact backend meets a transcendental.
fn explain(e: Error) -> Error {
    match e {
        Error::NotRepresentable(why) => Error::NotRepresentable(format!(
            "the Laplace report-noisy-max law of unequal losses involves 1/scale beside \
             e^(-gap/scale), which no exact arithmetic represents together ({why})"
        )),
        other => other,
    }
}

/// What every piece needs: sizes, multiplicities and the weights between
/// breakpoints.
struct Setup<'a, R: Real> {
    k: usize,
    /// Multiplicity of each distinct gap, ascending gaps.
    mult: Vec<usize>,
    /// `dist[g][h − g] = e^{−(h_h − h_g)/β}` for `g ≤ h`.
    dist: Vec<Vec<R>>,
    piece_weight: &'a [R],
    one: R,
    half: R,
    ctx: R::Context,
}

impl<'a, R: Real> Setup<'a, R> {
    fn new(k: usize, mult: Vec<usize>, piece_weight: &'a [R], ctx: &R::Context) -> Self {
        let m = mult.len();
        let one = R::from_int(1, ctx);
        let half = R::from_rational(&Q::new(1.into(), 2.into()), ctx);
        let dist = (0..m)
            .map(|g| {
                let mut row = Vec::with_capacity(m - g);
                row.push(one.clone());
                for h in g + 1..m {
                    let next = row[h - g - 1].clone() * &piece_weight[h - 1];
                    row.push(next);
                }
                row
            })
            .collect();
        Setup {
            k,
            mult,
            dist,
            piece_weight,
            one,
            half,
            ctx: ctx.clone(),
        }
    }

    fn zero(&self) -> R {
        R::from_int(0, &self.ctx)
    }

    /// `e^{−(h_b − h_a)/β}` for `a ≤ b`.
    fn dist(&self, a: usize, b: usize) -> &R {
        &self.dist[a][b - a]
    }

    /// `∏_{g ≤ top} (½ e^{−(h_top − h_g)/β})^{μ_g}`: the product of the
    /// distribution functions of the actions with gap `≤ h_top`, at the
    /// breakpoint `−h_top/β`.
    fn right_product(&self, top: usize) -> R {
        (0..=top).fold(self.one.clone(), |acc, g| {
            acc * (self.half.clone() * self.dist(g, top)).pow_u64(self.mult[g] as u64)
        })
    }

    /// Contribution of the left end `t ≤ −h_{m−1}/β`, the same for every
    /// action: `(1/K) ∏_s ½ e^{−(h_{m−1} − g_s)/β}`.
    fn left_end(&self) -> R {
        self.right_product(self.mult.len() - 1) / R::from_int(self.k as i64, &self.ctx)
    }

    /// The coefficients `e_0..e_{n_L}` of every bounded piece's
    /// `Π(x) = ∏_{g > i} (1 − q_g x)^{μ_g}`, `q_g = ½ e^{−(h_g − h_{i+1})/β}`,
    /// by one sweep from the leftmost piece `m − 2` to piece 0, `O(K)` per
    /// piece instead of `O(n_L²)`: going from piece `i + 1` to `i` every
    /// `q_g` is multiplied by `w = e^{−(h_{i+2} − h_{i+1})/β}` (so `e_j` by
    /// `w^j`), then group `i + 1` joins with `q = ½`. Only non-negative
    /// products and sums: no cancellation.
    fn symmetric_sweep(&self) -> Vec<Vec<R>> {
        let m = self.mult.len();
        let mut out: Vec<Vec<R>> = Vec::with_capacity(m.saturating_sub(1));
        let mut sym = vec![self.one.clone()];
        for i in (0..m.saturating_sub(1)).rev() {
            if i + 2 < m {
                let w = &self.piece_weight[i + 1];
                let mut power = self.one.clone();
                for e in sym.iter_mut().skip(1) {
                    power = power * w;
                    *e = e.clone() * &power;
                }
            }
            for _ in 0..self.mult[i + 1] {
                push_factor(&mut sym, &self.half, self.zero());
            }
            out.push(sym.clone());
        }
        out.reverse();
        out
    }

    /// `λ_j = ∫ y^{n_R} x^j dt` over bounded piece `i` of length `length`,
    /// `j = 0..=n_L` (module documentation).
    fn lambda(&self, i: usize, length: &R) -> Vec<R> {
        let n_right: usize = self.mult[..=i].iter().sum();
        let n_left = self.k - n_right;
        let v = &self.piece_weight[i];
        // v^0 ..= v^K.
        let mut powers = Vec::with_capacity(self.k + 1);
        powers.push(self.one.clone());
        for p in 1..=self.k {
            let next = powers[p - 1].clone() * v;
            powers.push(next);
        }
        (0..=n_left)
            .map(|j| {
                if j == n_right {
                    powers[j].clone() * length
                } else {
                    let low = j.min(n_right);
                    let d = j.abs_diff(n_right);
                    powers[low].clone() * (self.one.clone() - &powers[d])
                        / R::from_int(d as i64, &self.ctx)
                }
            })
            .collect()
    }

    /// Per group, its shares of all bounded pieces, by one quotient per
    /// piece and left group ([`Self::bounded_piece`], `O(K³)`); the pieces
    /// run in parallel.
    fn quotient_pieces(&self, lengths: &[R], sym: &[Vec<R>], progress: &Progress) -> Vec<R> {
        let m = self.mult.len();
        let piece = |i: usize| {
            let out = self.bounded_piece(i, &lengths[i], &sym[i]);
            progress.add(1);
            out
        };
        let pieces: Vec<Vec<R>> = if self.k * self.k * m >= PARALLEL_WORK {
            (0..m - 1).into_par_iter().map(piece).collect()
        } else {
            (0..m - 1).map(piece).collect()
        };
        (0..m)
            .map(|g| {
                pieces
                    .iter()
                    .fold(self.zero(), |total, piece| total + &piece[g])
            })
            .collect()
    }

    /// Contribution of the bounded piece between the breakpoints of gaps
    /// `h_{i+1}` and `h_i`, per group (length `m`), by the quotients
    /// `Π(x)/(1 − q_g x)` (the reference evaluation).
    fn bounded_piece(&self, i: usize, length: &R, sym: &[R]) -> Vec<R> {
        let m = self.mult.len();
        let n_left = sym.len() - 1;
        let lambda = self.lambda(i, length);

        // q_g = ½ e^{−(h_g − h_{i+1})/β} for the left groups g > i, and
        // Π(x) = ∏ (1 − q_g x)^{μ_g} = Σ_j (−1)^j e_j x^j, kept as the
        // non-negative elementary symmetric polynomials e_j of the q's.
        let q: Vec<R> = (i + 1..m)
            .map(|g| self.half.clone() * self.dist(i + 1, g))
            .collect();

        let rho = self.right_product(i);
        let right_share = rho.clone() * alternating_dot(sym, &lambda, self.zero());
        let mut out = vec![right_share; i + 1];
        for q_g in &q {
            // Π(x)/(1 − q_g x) = Σ_j (−1)^j c_j x^j, degree n_L − 1, by
            // synthetic division: c_j = e_j − q_g c_{j−1} (errors damped by
            // q_g ≤ ½).
            let mut quotient: Vec<R> = Vec::with_capacity(n_left);
            for e in &sym[..n_left] {
                let c = match quotient.last() {
                    None => e.clone(),
                    Some(prev) => e.clone() - q_g.clone() * prev,
                };
                quotient.push(c);
            }
            out.push(rho.clone() * q_g * alternating_dot(&quotient, &lambda[1..], self.zero()));
        }
        out
    }

    /// Per group, its shares of all bounded pieces in `O(K²)`: the
    /// transposed recurrence of the module documentation. Right shares are
    /// suffix sums of the pieces' integrals of `G`; the left shares of group
    /// `g` are `½ Σ_j (−1)^j a_j V_g[j]`, with `V_1[j] = ρ_0 λ_{0,j+1}` and
    /// `V_{g+1}[j] = w_g^{j+1} (T^{μ_g} V_g)[j] + ρ_g λ_{g,j+1}`,
    /// `(T V)[j] = V[j] − ½ V[j+1]`.
    fn transposed_pieces(&self, lengths: &[R], sym: &[Vec<R>], progress: &Progress) -> Vec<R> {
        let m = self.mult.len();
        let mut out = vec![self.zero(); m];
        let mut moments: Vec<R> = Vec::new();
        for g in 0..m.saturating_sub(1) {
            let lambda = self.lambda(g, &lengths[g]);
            let rho = self.right_product(g);
            // The integral of the full product G over piece g goes to every
            // group right of it (f = F there).
            let whole = rho.clone() * alternating_dot(&sym[g], &lambda, self.zero());
            for share in &mut out[..=g] {
                *share = share.clone() + &whole;
            }
            // V_{g+1} from V_g (empty for g = 0).
            if g > 0 {
                for _ in 0..self.mult[g] {
                    for j in 0..moments.len() - 1 {
                        moments[j] = moments[j].clone() - self.half.clone() * &moments[j + 1];
                    }
                    moments.pop();
                }
                let w = &self.piece_weight[g];
                let mut power = w.clone();
                for moment in &mut moments {
                    *moment = moment.clone() * &power;
                    power = power * w;
                }
            } else {
                moments = vec![self.zero(); lambda.len() - 1];
            }
            for (moment, l) in moments.iter_mut().zip(&lambda[1..]) {
                *moment = moment.clone().mul_add(&rho, l);
            }
            // a: the coefficients of ∏ (1 − q_s x_{g+1}) over the actions of
            // groups ≥ g + 1 but one of group g + 1, in the coordinate of
            // its breakpoint (group g + 1 has q = ½).
            let next = g + 1;
            let mut a = if next + 1 < m {
                let w = &self.piece_weight[next];
                let mut power = self.one.clone();
                sym[next]
                    .iter()
                    .map(|e| {
                        let scaled = e.clone() * &power;
                        power = power.clone() * w;
                        scaled
                    })
                    .collect()
            } else {
                vec![self.one.clone()]
            };
            for _ in 1..self.mult[next] {
                push_factor(&mut a, &self.half, self.zero());
            }
            debug_assert_eq!(a.len(), moments.len());
            out[next] =
                out[next].clone() + self.half.clone() * alternating_dot(&a, &moments, self.zero());
            progress.add(1);
        }
        out
    }

    /// Contribution of the right end `t ≥ 0`, per group `g`:
    /// `q_g ∫₀¹ ∏_{s≠r} (1 − q_s x) dx` with `q_s = ½ e^{−g_s/β}` and `r` any
    /// action of the group — the permute-and-flip integrals of
    /// [`exponential::leave_one_out_integrals`], non-negative terms, `O(K²)`.
    fn right_end(&self) -> Vec<R> {
        let q: Vec<R> = (0..self.mult.len())
            .map(|g| self.half.clone() * self.dist(0, g))
            .collect();
        let per_action: Vec<R> = q
            .iter()
            .zip(&self.mult)
            .flat_map(|(q_g, &count)| std::iter::repeat_n(q_g.clone(), count))
            .collect();
        let integrals = exponential::leave_one_out_integrals(&per_action);
        let mut first_of_group = 0;
        q.into_iter()
            .zip(&self.mult)
            .map(|(q_g, &count)| {
                let share = q_g * &integrals[first_of_group];
                first_of_group += count;
                share
            })
            .collect()
    }
}

/// Multiply the polynomial `Σ_j sym_j z^j` by `1 + q z` (all coefficients
/// non-negative: one rounding per coefficient and end).
fn push_factor<R: Real>(sym: &mut Vec<R>, q: &R, zero: R) {
    sym.push(zero);
    for j in (1..sym.len()).rev() {
        sym[j] = sym[j].clone().mul_add(q, &sym[j - 1]);
    }
}

/// `Σ_j (−1)^j a_j b_j` over the shorter of the two, for non-negative `a`,
/// `b`, accumulated in order (the partial sums stay at the size of the
/// largest term, which keeps the f64 rounding error smaller than summing the
/// even and odd terms apart).
fn alternating_dot<R: Real>(a: &[R], b: &[R], zero: R) -> R {
    a.iter().zip(b).enumerate().fold(zero, |acc, (j, (x, y))| {
        let term = x.clone() * y;
        if j % 2 == 0 {
            acc + term
        } else {
            acc - term
        }
    })
}
