//! Coverage map of Cesari & Colomboni (2026), `003_e72dfed5bfd856b1.txt`:
//! see [`super`]. Every numbered result and every display with an explicit
//! constant, in reading order, with the claims that check it or why none
//! does.

use super::Item;

/// An item checked by `claims`.
const fn by(label: &'static str, line: u32, claims: &'static [&'static str]) -> Item {
    Item {
        label,
        line,
        claims,
        not_checked: "",
    }
}

/// An item not checked, for `reason`.
const fn not(label: &'static str, line: u32, reason: &'static str) -> Item {
    Item {
        label,
        line,
        claims: &[],
        not_checked: reason,
    }
}

const PRIVACY: &[&str] = &["cc-lem3", "cc-prop1"];

/// The items, in reading order.
pub const ITEMS: &[Item] = &[
    by("display at L24", 24, &["cc-thm1-eq2"]),
    by("display at L34", 34, &["cc-cor1-L36"]),
    by("display at L56", 56, &["cc-thm1-eq2"]),
    not("display at L120", 120, "the pseudoregret rewritten by linearity of expectation (a definition, no constant); the regret engine evaluates Σ_t E[Δ_{I_t}] itself"),
    not("Definition 1", 121, "the definition of event-level ε-DP that the privacy checker (src/privacy) implements; cc-prop1 applies it"),
    by("display at L135", 135, &["cc-thm1-L627", "cc-thm1-L635"]),
    by("display at L139", 139, &["cc-lem4-L141"]),
    by("display at L145", 145, &["cc-lem4-L141", "cc-lem4-L387"]),
    by("display at L149", 149, &["cc-lem4-L141"]),
    by("display at L157", 157, PRIVACY),
    by("Theorem 1", 161, &["cc-prop1", "cc-thm1-eq1", "cc-thm1-proof"]),
    by("eq. (1)", 165, &["cc-thm1-eq1"]),
    by("eq. (2)", 169, &["cc-thm1-eq2", "cc-thm1-chain"]),
    by("Corollary 1", 173, &["cc-cor1-L36"]),
    not("Remark 1", 178, "quotes Wu & Wang's O(log K/Δmin + log²K/ε), with no constant (checked in Wu & Wang's map)"),
    by("Lemma 1", 190, &["cc-lem1-tail"]),
    not("display at L199", 199, "Hoeffding's inequality [4, Theorem 2], cited; its use with these constants is Lemma 1 (cc-lem1-tail) and its exponent arithmetic (cc-lem1-exponent)"),
    by("display at L203", 203, &["cc-lem1-exponent"]),
    by("Lemma 2", 207, &["cc-lem2-i", "cc-lem2-ii", "cc-lem2-iii", "cc-lem2-iv", "cc-lem2-v"]),
    by("display at L233", 233, &["cc-lem2-L233", "cc-lem2-i", "cc-lem2-iii"]),
    by("display at L235", 235, &["cc-lem2-L235", "cc-lem2-iv"]),
    by("display at L237", 237, &["cc-lem2-L237", "cc-lem2-v"]),
    not("Definition 2", 243, "the definition of α-DP for a randomized map; Lemma 3 (cc-lem3) is checked against it"),
    by("Lemma 3", 248, &["cc-lem3"]),
    by("display at L264", 264, &["cc-lem3"]),
    by("display at L280", 280, &["cc-lem3"]),
    by("display at L288", 288, &["cc-lem3"]),
    by("Proposition 1", 294, &["cc-prop1", "cc-prop1-L343"]),
    by("display at L309", 309, &["cc-prop1"]),
    by("display at L325", 325, &["cc-prop1"]),
    by("display at L341", 341, &["cc-prop1"]),
    by("display at L343", 343, &["cc-prop1-L343"]),
    not("display at L357", 357, "the definition of the softmax weights P_{m,j} (the law cc-lem4 and cc-lem5 evaluate): no constant"),
    not("display at L361", 361, "the definition of F_m; the two sums agree because Δ₁ = 0: no constant"),
    by("Lemma 4", 362, &["cc-lem4"]),
    by("display at L371", 371, &["cc-lem4-L141"]),
    not("display at L375", 375, "E[Δ_{A_{r+1}} | M_r = m] = F_m: the i.i.d. losses and M_r's independence (a probabilistic identity, no constant); cc-lem4 evaluates the reduction it gives on instances"),
    by("display at L387", 387, &["cc-lem4-L387"]),
    by("display at L391", 391, &["cc-lem4-L389", "cc-lem4"]),
    by("Lemma 5", 395, &["cc-lem5"]),
    not("eq. (3)", 408, "splits the sum over j by Δ_j ≤ 4η or > 4η: an identity of sums, no constant"),
    not("display at L416", 416, "P_{m,j} ≤ e^{−ηD_{m,j}} because the denominator 1 + Σ_i e^{−ηD_{m,i}} is at least 1: no constant"),
    by("display at L420", 420, &["cc-eq4"]),
    by("display at L428", 428, &["cc-lem1-tail"]),
    by("display at L432", 432, &["cc-lem5-L432"]),
    by("eq. (4)", 436, &["cc-eq4"]),
    not("display at L440", 440, "the definition of the groups H_ℓ; the dyadic intervals [2^{ℓ−1}Δmin, 2^ℓΔmin) tile [Δmin, ∞), so the groups partition the small gaps (the same tiling as cc-lem4-L389)"),
    by("display at L444", 444, &["cc-lem5-L453"]),
    not("display at L448", 448, "Δ_j < 2^ℓΔmin on H_ℓ and Σ_j P_{m,j} ≤ 1: a pathwise bound with no constant beyond the group's edge"),
    by("display at L452", 452, &["cc-lem5-L453", "cc-lem5-L454"]),
    by("display at L456", 456, &["cc-lem5-L454", "cc-lem5-L462"]),
    by("display at L460", 460, &["cc-eq4", "cc-lem5-L472"]),
    by("display at L462", 462, &["cc-lem5-L462"]),
    by("display at L464", 464, &["cc-lem2-iv", "cc-lem5-L472"]),
    by("display at L468", 468, &["cc-lem5-L472"]),
    by("display at L472", 472, &["cc-lem5-L472", "cc-lem5-L474"]),
    by("display at L476", 476, &["cc-lem5-L476"]),
    by("display at L480", 480, &["cc-lem5-L483"]),
    by("eq. (5)", 484, &["cc-lem5-eq5", "cc-lem5-L486"]),
    by("display at L486", 486, &["cc-lem5-L486"]),
    not("display at L496", 496, "the definitions of Z_m, Q_{m,j} and V_m (L496–L504): no constant"),
    by("display at L508", 508, &["cc-lem5-L565"]),
    not("display at L512", 512, "P_{m,j} ≤ Q_{m,j} because Z_m's terms are among P's denominator's: no constant"),
    not("display at L516", 516, "adds the nonnegative m = 0 term and uses Tonelli's theorem (L520): no constant"),
    by("eq. (6)", 528, &["cc-lem5-L593"]),
    not("display at L536", 536, "D_{m+1,j} = D_{m,j} + Y_{m+1,j} by definition; Y ∈ [−1, 1] with mean Δ_j: no constant"),
    by("display at L542", 542, &["cc-lem5-L542"]),
    not("display at L546", 546, "conditional Jensen for the concave logarithm and the independence of Y_{m+1} from ℱ_m: no constant"),
    by("display at L553", 553, &["cc-lem5-L553"]),
    by("display at L557", 557, &["cc-lem5-L557"]),
    by("display at L561", 561, &["cc-lem5-L561", "cc-lem5-L561-i", "cc-lem5-L561-ii"]),
    by("display at L565", 565, &["cc-lem5-L565"]),
    not("display at L573", 573, "0 ≤ V_m ≤ 1 because 0 ≤ Δ_j ≤ 1 and the Q_{m,j} sum to at most 1: no constant beyond the gaps' range"),
    by("display at L577", 577, &["cc-lem5-L577"]),
    by("display at L581", 581, &["cc-lem2-iii"]),
    by("display at L593", 593, &["cc-lem5-L593"]),
    not("display at L597", 597, "Z₀ = 1 + #{large gaps} ≤ K: a count, no constant"),
    by("display at L613", 613, &["cc-thm1-L613"]),
    by("display at L619", 619, &["cc-thm1-L619"]),
    by("display at L623", 623, &["cc-thm1-L623"]),
    by("display at L627", 627, &["cc-thm1-L627"]),
    by("display at L631", 631, &["cc-thm1-L631"]),
    by("display at L635", 635, &["cc-thm1-L635"]),
];

/// The numbered results announced in the text copy, `(label, line)`.
pub fn headings(text: &str) -> Vec<(String, u32)> {
    super::scan::numbered(text)
}
