//! Coverage map of Wu & Wang (ALT 2026), `000_662f56866ae4d344.txt`: see
//! [`super`]. Every numbered result and every display with an explicit
//! constant, in reading order (the sketch of §2.1 and the full proofs of
//! Appendices C–G both), with the claims that check it or why none does.

use super::Item;
use crate::verify::coverage::{by, not};

const LEM1: &[&str] = &["ww-lem1-laplace", "ww-lem1-exponential", "ww-lem1-gumbel"];
const EPOCHS: &[&str] = &["ww-thm2-L420", "ww-thm2-L420-T", "ww-thm2-L420-epoch"];
const R_DOWN: &[&str] = &["ww-thm2-L440", "ww-thm2-L442"];

/// The items, in reading order.
pub const ITEMS: &[Item] = &[
    by("Algorithm 1", 53, &["ww-alg1-L57", "ww-alg1-L57-T"]),
    not("eq. (1)", 94, "the pseudoregret rewritten by linearity of expectation (a definition, no constant); the regret engine evaluates Σ_t E[Δ_{I_t}] itself"),
    not("Definition 1", 100, "the definition of event-level ε-DP that the privacy checker (src/privacy) implements; the privacy claims of Theorems 1–4 and Corollaries 1–3 apply it"),
    by("Theorem 1", 124, &["ww-thm1"]),
    not("eq. (2)", 128, "O(log K/Δmin + log K log T/ε) with no constant (Hu et al.'s Theorem 9, cited); the privacy part of Theorem 1 is ww-thm1"),
    by("display at L134", 134, &["ww-lem1-L134", "ww-lem4-L134", "ww-lem4"]),
    by("display at L142", 142, &["ww-thm4-expr", "ww-thm4-expr-law"]),
    by("Theorem 2", 158, &["ww-thm2"]),
    not("eq. (3)", 162, "O(log K/Δmin + log²K/ε) with the unnamed constants c₁, c₂ of Hu et al.'s Lemma 9 (eq. (4)); each explicit step of its proof is an item of Appendix C below"),
    by("Corollary 1", 168, &["ww-cor1-exponential", "ww-cor1-gumbel"]),
    by("Corollary 2", 176, &["ww-cor2-laplace", "ww-cor2-exponential", "ww-cor2-gumbel"]),
    by("Lemma 1", 184, LEM1),
    not("display at L192", 192, "a symbolic decomposition F_N(x) = ∫(1 − F_G(s − x)) f_Q(s) ds with no constant; its left side reads F_{N_{r,j₂}} where L190 announces F_{N_{r,j₁}} (a subscript slip with no numeric consequence: the right side is the j₁ one)"),
    by("display at L198", 198, &["ww-lem4"]),
    by("display at L202", 202, LEM1),
    by("display at L206", 206, LEM1),
    by("display at L212", 212, LEM1),
    by("display at L215", 215, LEM1),
    by("display at L223", 223, EPOCHS),
    not("eq. (4)", 228, "Hu et al.'s Lemma 9 for Lap(2/ε), cited with unnamed universal constants c₁, c₂; the exponential and Gumbel cases, with the explicit constants of Appendix D, are the items at L468–L507"),
    by("display at L232", 232, &["ww-eq8-L430", "ww-eq8-L430-le", "ww-eq8-L431", "ww-eq8-L432"]),
    by("display at L237", 237, R_DOWN),
    by("display at L242", 242, &["ww-thm2-L445"]),
    by("Theorem 3", 253, &["ww-thm3"]),
    by("Corollary 3", 263, &["ww-cor3-laplace", "ww-cor3-exponential", "ww-cor3-gumbel"]),
    not("display at L267", 267, "O(log²K/ε) with no constant; Appendix G's sketch (eq. (9)) names none either; the privacy part of Corollary 3 is checked (ww-cor3-*)"),
    by("Theorem 4", 273, &["ww-thm4-gumbel", "ww-thm4-exponential", "ww-thm4-exponential2", "ww-thm4-const"]),
    by("Lemma 2", 283, &["ww-lem2", "ww-lem2-K2box", "ww-lem2-K3box", "ww-lem2-vectors"]),
    by("display at L291", 291, &["ww-lem2"]),
    by("Lemma 3", 298, &["ww-lem3", "ww-lem3-K2"]),
    not("display at L306", 306, "adds and subtracts ∫_{r−1}^{r} f term by term: an identity of sums with no constant"),
    by("eq. (5)", 310, &["ww-eq5-K2", "ww-lem2"]),
    by("eq. (6)", 314, &["ww-eq6"]),
    by("display at L318", 318, &["ww-lem3-L320"]),
    by("display at L328", 328, &["ww-thm4-expr-law"]),
    by("display at L332", 332, &["ww-thm4-expr", "ww-thm4-expr-law"]),
    by("display at L336", 336, &["ww-thm4-L336", "ww-thm4-chain", "ww-thm4-chain-half"]),
    by("display at L341", 341, &["ww-thm4-reduction"]),
    by("display at L345", 345, &["ww-thm4-L345"]),
    by("Lemma 4", 400, &["ww-lem4"]),
    by("display at L408", 408, &["ww-lem4-L408"]),
    by("display at L412", 412, &["ww-lem4"]),
    by("display at L420", 420, EPOCHS),
    not("eq. (7)", 425, "the Laplace case is Hu et al.'s Lemma 9 with unnamed c₁, c₂ (as eq. (4)); its exponential and Gumbel cases with explicit constants are the items at L468–L507. L468 repeats \"Equation 7\" with 2^r where eq. (7) prints 2^{r+1}: the two differ by the factor 2 that an unnamed c₂ absorbs, and Appendix D proves the L468 form"),
    by("display at L429", 429, &["ww-eq8-L430", "ww-eq8-L430-le", "ww-eq8-L431"]),
    by("eq. (8)", 433, &["ww-eq8-L432"]),
    by("display at L437", 437, R_DOWN),
    by("display at L444", 444, &["ww-thm2-L445"]),
    by("display at L447", 447, &["ww-thm2-L447", "ww-thm2-L447-le"]),
    by("display at L449", 449, &["ww-thm2-L453", "ww-thm2-L454", "ww-thm2-L454-log2", "ww-thm2-L456", "ww-thm2-L456-two"]),
    by("display at L468", 468, &["ww-eqD1", "ww-eqD3"]),
    by("display at L472", 472, &["ww-eqD1"]),
    by("display at L477", 477, &["ww-cor1-L477", "ww-cor1-L477-8", "ww-cor1-L477-bern"]),
    by("display at L481", 481, &["ww-cor1-L481"]),
    by("display at L483", 483, &["ww-cor1-L483", "ww-cor1-L483-16"]),
    by("display at L491", 491, &["ww-cor1-L492", "ww-eqD2", "ww-eqD2-half"]),
    by("display at L499", 499, &["ww-cor1-L499"]),
    not("display at L501", 501, "the complement of the event ℰ of L496 (G_{r,j} − G_{r,1} ≥ 2^{r−1}Δ_j/2) printed with the noise terms Q_{r,j} − Q_{r,1} added, and L503 prints P[G_{r,j} − G_{r,1}] with the event's threshold lost: two typesetting slips in a step whose intended bound (Hoeffding, as L477) is ww-cor1-L477 and ww-cor1-L477-bern"),
    by("display at L507", 507, &["ww-eqD3"]),
    not("display at L519", 519, "R^{(l)}(T) = Σ_t P[I_t^{(l)} ≠ l] because every gap of 𝒫^{(l)} is 1: a definition with no constant"),
    not("display at L523", 523, "group privacy over the rounds before t (Definition 1 applied t times), no constant beyond e^{tε}; the text's \"any t ≥ T\" should read t ≤ T (a slip with no numeric consequence)"),
    not("display at L527", 527, "L523 averaged over the K − 1 instances l′ ≠ l: no constant of its own; the chain it starts is checked at L531–L541"),
    by("display at L531", 531, &["ww-thm3-L533"]),
    by("display at L535", 535, &["ww-thm3-L535"]),
    by("display at L537", 537, &["ww-thm3-L535", "ww-thm3-L541-K1"]),
    by("display at L539", 539, &["ww-thm3-L539"]),
    by("display at L541", 541, &["ww-thm3-L541", "ww-thm3-L541-K1"]),
    not("display at L545", 545, "the largest of K regrets is at least their mean (L541): no constant"),
    by("display at L549", 549, &["ww-thm3-L549", "ww-thm3-L549-eq"]),
    by("display at L557", 557, &["ww-cor2-L557"]),
    by("display at L559", 559, &["ww-cor2-L559"]),
    not("eq. (9)", 569, "a sketch: P[J_r = j] ≤ c₁exp(−2^rΔ_jε/c₂) for Laplace, exponential and Gumbel noise with c₁, c₂ unnamed; the Gumbel law it rests on is ww-thm4-expr-law"),
];

/// The numbered results announced in the text copy, `(label, line)`.
pub fn headings(text: &str) -> Vec<(String, u32)> {
    super::scan::numbered(text)
}
