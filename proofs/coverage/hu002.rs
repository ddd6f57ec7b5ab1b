//! Coverage map of Hu, Huang & Mehta, earlier version
//! (`002_f205959389028abf.txt`): see [`super`]. The copy lost its formulas:
//! most items say so and point to the journal version (004) where it states
//! the same result. The tags (20), (30), (31), (38), (43), (48) and (56) are
//! lost too, so they have no line and no item.

use super::Item;

/// The items, in reading order.
pub const ITEMS: &[Item] = &[
    Item {
        label: "eq. (1)",
        line: 33,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); the DTOL pseudo-regret, a definition (004 eq. (7))",
    },
    Item {
        label: "eq. (2)",
        line: 35,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); the bandit pseudo-regret, a definition",
    },
    Item {
        label: "Definition 1",
        line: 38,
        claims: &[],
        not_checked: "the definition of ε-differential privacy (its symbols lost in the copy); 004 Definition 1",
    },
    Item {
        label: "L43: DP-SE of Sajed & Sheffet (2019), the experiments' baseline",
        line: 43,
        claims: &["hu-algDPSE-v1", "hu-algDPSE-v1-half-scale"],
        not_checked: "",
    },
    Item {
        label: "eq. (3)",
        line: 51,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); the Laplace-noised epoch mean of Anytime-Lazy-UCB (004 Algorithm 1)",
    },
    Item {
        label: "eq. (4)",
        line: 53,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); the upper confidence bound of Anytime-Lazy-UCB (004 Algorithm 1)",
    },
    Item {
        label: "Theorem 2",
        line: 57,
        claims: &[],
        not_checked: "Algorithm 1 is ε-DP: the same algorithm and statement as 004 Theorem 2, checked there (hu-thm2)",
    },
    Item {
        label: "Theorem 3",
        line: 62,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); an O(·) regret bound, stated again as 004 Theorem 3",
    },
    Item {
        label: "Theorem 4",
        line: 64,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); an O(·) regret bound, stated again in 004 (Theorem 3, instance-independent part)",
    },
    Item {
        label: "eq. (5)",
        line: 69,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); the epoch decomposition of the pulls, stated again as 004 eq. (23) (hu-eq23)",
    },
    Item {
        label: "Theorem 5",
        line: 75,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); the O(·) regret of Hybrid-UCB, not in the journal version",
    },
    Item {
        label: "L80: the naive FTNL, ε/K per action",
        line: 80,
        claims: &["hu-thm6-naive-v1"],
        not_checked: "",
    },
    Item {
        label: "Theorem 6",
        line: 86,
        claims: &["hu-thm6-v1"],
        not_checked: "",
    },
    Item {
        label: "Theorem 7",
        line: 94,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); FTNL's O(·) regret, restated with explicit steps as 004 Theorem 9 (hu-thm9-proof)",
    },
    Item {
        label: "Corollary 8",
        line: 97,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); stated again as 004 Corollary 10",
    },
    Item {
        label: "Corollary 9",
        line: 109,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); stated again as 004 Corollary 11 (hu-cor11-L303)",
    },
    Item {
        label: "Theorem 10",
        line: 119,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); the Ω(·) lower bound, stated again as 004 Theorem 12",
    },
    Item {
        label: "Fact 1",
        line: 176,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); the Laplace tail of Dwork et al. (Fact 3.7), 004 Fact 16 (hu-eq13)",
    },
    Item {
        label: "eq. (6)",
        line: 177,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); 004 eq. (13) (hu-eq13)",
    },
    Item {
        label: "Fact 2",
        line: 178,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); Chan et al.'s Corollary 2.9 (a sum of Laplace variables), used only by Hybrid-UCB, not in the journal version",
    },
    Item {
        label: "eq. (7)",
        line: 179,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); Chan et al.'s tail of a sum of Laplace variables",
    },
    Item {
        label: "eq. (8)",
        line: 186,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); Theorem 2's privacy proof, 004 eq. (17)–(22) (conclusion hu-thm2)",
    },
    Item {
        label: "eq. (9)",
        line: 189,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); Theorem 2's privacy proof (conclusion hu-thm2)",
    },
    Item {
        label: "eq. (10)",
        line: 191,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); Theorem 2's privacy proof (conclusion hu-thm2)",
    },
    Item {
        label: "eq. (11)",
        line: 193,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); Theorem 2's privacy proof (conclusion hu-thm2)",
    },
    Item {
        label: "eq. (12)",
        line: 197,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); Theorem 2's privacy proof (conclusion hu-thm2)",
    },
    Item {
        label: "eq. (13)",
        line: 200,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); Theorem 2's privacy proof (conclusion hu-thm2)",
    },
    Item {
        label: "eq. (14)",
        line: 203,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); Theorem 2's privacy proof (conclusion hu-thm2)",
    },
    Item {
        label: "eq. (15)",
        line: 205,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); Theorem 2's privacy proof (conclusion hu-thm2)",
    },
    Item {
        label: "eq. (16)",
        line: 209,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); the Laplace density ratio of one noisy array, 004 eq. (21)",
    },
    Item {
        label: "eq. (17)",
        line: 211,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); Theorem 2's conclusion (hu-thm2)",
    },
    Item {
        label: "eq. (18)",
        line: 216,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); the epoch bound on the pulls, 004 eq. (23) (hu-eq23)",
    },
    Item {
        label: "eq. (19)",
        line: 218,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); 004 eq. (24) (hu-thm3-L534, hu-thm3-L534-d1)",
    },
    Item {
        label: "Lemma 11",
        line: 220,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); stated again as 004 Lemma 19 (O(1), its steps checked there)",
    },
    Item {
        label: "eq. (21)",
        line: 224,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); 004 eq. (26)",
    },
    Item {
        label: "eq. (22)",
        line: 226,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); the first event of 004 eq. (27)",
    },
    Item {
        label: "eq. (23)",
        line: 227,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); the second event of 004 eq. (27)",
    },
    Item {
        label: "eq. (24)",
        line: 228,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); the third event of 004 eq. (27)",
    },
    Item {
        label: "eq. (25)",
        line: 230,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); the tails of 004 eq. (28) (hu-eq28)",
    },
    Item {
        label: "eq. (26)",
        line: 232,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); the optimal arm's tail, 004 L560",
    },
    Item {
        label: "eq. (27)",
        line: 234,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); the contradiction of 004 eq. (29) (hu-eq29)",
    },
    Item {
        label: "eq. (28)",
        line: 237,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); 004 eq. (30)",
    },
    Item {
        label: "eq. (29)",
        line: 242,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); the critical-gap decomposition of the instance-independent bound, 004 eq. (31) (hu-thm3-L578)",
    },
    Item {
        label: "eq. (32)",
        line: 252,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); Hybrid-UCB's noisy array sums (not in the journal version)",
    },
    Item {
        label: "eq. (33)",
        line: 254,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); Hybrid-UCB's tree sums (not in the journal version)",
    },
    Item {
        label: "eq. (34)",
        line: 257,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); Hybrid-UCB's private mean (not in the journal version)",
    },
    Item {
        label: "eq. (35)",
        line: 259,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); Hybrid-UCB's index (not in the journal version)",
    },
    Item {
        label: "eq. (36)",
        line: 268,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); Hybrid-UCB's pull bound (not in the journal version)",
    },
    Item {
        label: "eq. (37)",
        line: 270,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); Hybrid-UCB (not in the journal version)",
    },
    Item {
        label: "Lemma 12",
        line: 272,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); Hybrid-UCB's lemma (not in the journal version)",
    },
    Item {
        label: "eq. (39)",
        line: 277,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); Lemma 12's proof (Hybrid-UCB)",
    },
    Item {
        label: "eq. (40)",
        line: 279,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); Lemma 12's proof (Hybrid-UCB)",
    },
    Item {
        label: "eq. (41)",
        line: 280,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); Lemma 12's proof (Hybrid-UCB)",
    },
    Item {
        label: "eq. (42)",
        line: 281,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); Lemma 12's proof (Hybrid-UCB)",
    },
    Item {
        label: "eq. (44)",
        line: 285,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); Lemma 12's proof (Hybrid-UCB)",
    },
    Item {
        label: "eq. (45)",
        line: 287,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); Lemma 12's proof (Hybrid-UCB)",
    },
    Item {
        label: "eq. (46)",
        line: 289,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); Lemma 12's proof, a decreasing function whose definition the copy lost (Hybrid-UCB)",
    },
    Item {
        label: "eq. (47)",
        line: 291,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); Lemma 12's proof (Hybrid-UCB)",
    },
    Item {
        label: "eq. (49)",
        line: 296,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); Theorem 6's privacy claim, checked as hu-thm6-v1",
    },
    Item {
        label: "eq. (50)",
        line: 299,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); Theorem 6's proof, 004 eq. (48)",
    },
    Item {
        label: "eq. (51)",
        line: 301,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); Theorem 6's proof, 004 eq. (49)",
    },
    Item {
        label: "eq. (52)",
        line: 305,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); report-noisy-max's ratio (Claim 3.9 of Dwork et al.), 004 eq. (50): the step Theorem 6 fails at (hu-thm6-v1)",
    },
    Item {
        label: "eq. (53)",
        line: 307,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); Theorem 6's proof (conclusion hu-thm6-v1)",
    },
    Item {
        label: "eq. (54)",
        line: 309,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); Theorem 6's proof (conclusion hu-thm6-v1)",
    },
    Item {
        label: "Lemma 13",
        line: 313,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); FTNL's concentration bound, stated again as 004 Lemma 24 (hu-lem24)",
    },
    Item {
        label: "eq. (55)",
        line: 319,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); Lemma 13's proof, 004 eq. (52)",
    },
    Item {
        label: "eq. (57)",
        line: 336,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); Theorem 7's proof, 004 eq. (55) (hu-thm9-proof-2)",
    },
    Item {
        label: "eq. (58)",
        line: 354,
        claims: &[],
        not_checked: "formulas lost in the text copy (only the tag survives); the lower bound's testing step, 004 eq. (56)",
    },
];

/// The numbered results announced in the text copy, `(label, line)`.
pub fn headings(text: &str) -> Vec<(String, u32)> {
    super::hu_text::announced(text)
}
