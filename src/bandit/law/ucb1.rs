//! The law of UCB1's pulls (Auer, Cesa-Bianchi & Fischer 2002, Fig. 1, as
//! [`crate::bandit::policy::ucb1`]) on a reward table, under every reading
//! of its ties ([`Ties`]) and of the round its logarithm reads
//! ([`BonusRound`]), exact.
//!
//! At round `t` (from 1) `t − 1` plays are done; arm `j` has `n_j` plays
//! with reward sum `S_j` and the index `I_j = S_j/n_j + √(c ln n/n_j)`
//! (`c` the bonus, 2 as printed; `n = t − 1` as printed,
//! [`BonusRound::Plays`], or `n = t`, [`BonusRound::Current`]), `+∞` while
//! `n_j = 0`. The round pulls an
//! arm of the set `M_t` of maximal indices: the lowest one
//! ([`Ties::Lowest`]: then each arm once in order, a point mass), one
//! drawn uniformly from `M_t` ([`Ties::Uniform`]), or, once every arm has
//! been played in order, the highest one ([`Ties::Highest`], a point mass
//! too) or one drawn uniformly from `M_t` ([`Ties::OrderedUniform`]: the
//! first `K` rounds fixed in order, the later ties drawn). The law is the finite
//! tree of these choices; a pull sequence's probability is the product of
//! `1/|M_t|` over its rounds, a rational.
//!
//! # Deciding `M_t` exactly
//!
//! While an arm is unplayed (rounds `1..=K`), `M_t` is the set of unplayed
//! arms: the played ones have finite indices. So every comparison of two
//! finite indices happens at `t − 1 ≥ K ≥ 2`, where `n ≥ 2` and `ln n > 0`. Two indices
//! `I_i`, `I_j`:
//!
//! - with `n_i = n_j` the bonuses are equal and `I_i − I_j = (S_i − S_j)/n_i`,
//!   a rational: they tie exactly when `S_i = S_j`;
//! - with `n_i ≠ n_j` they never tie. If they did,
//!   `√(c ln n)·(n_i^{−1/2} − n_j^{−1/2}) = S_j/n_j − S_i/n_i` would make
//!   `√(c ln n)` the quotient of a rational by the nonzero algebraic number
//!   `n_i^{−1/2} − n_j^{−1/2}`, so `ln n = (√(c ln n))²/c` algebraic; by the
//!   Lindemann–Weierstrass theorem `e^α` is transcendental for every
//!   algebraic `α ≠ 0`, and `n = e^{ln n}` is an integer, so `ln n = 0`,
//!   `n = 1`, excluded above. The difference is then nonzero, and certified
//!   enclosures of the two indices ([`crate::num::Certified`]) separate at
//!   a finite precision: [`PRECISIONS`]`.0` bits, doubled while they
//!   overlap up to [`PRECISIONS`]`.1`, past which the comparison is refused
//!   ([`Error::Domain`], naming the round, the arms and the bits).
//!
//! No tie is guessed and no probability is rounded: the law is exact.
//!
//! # Cost
//!
//! One comparison of certified indices ([`super::WORK_UNIT`]) per arm but
//! one, per round after the `K`-th, per pull sequence alive. Under
//! [`Ties::Lowest`] and [`Ties::Highest`] that is `(T − K)(K − 1)`; under [`Ties::Uniform`] at
//! least `K!·(T − K)(K − 1)`, the `K!` orders of the first `K` rounds, and
//! the sequences branch again at every later tie (under
//! [`Ties::OrderedUniform`] at least `(T − K)(K − 1)`, the later ties
//! branching alike). Both are estimated first
//! and refused past their limits unless forced; when ties are drawn the
//! tree's size is known only as it grows, so before every round the work
//! is checked again (the comparisons done, and at least `K − 1` more per
//! branch alive per round left: a branch has a child in every round), and
//! so are the round's pull sequences, counted and costed in memory
//! (`branch_bytes`) before any is built — the memory cap holds with
//! `--force` too.

use super::{MAX_WORK, PRECISIONS, WORK_UNIT};
use crate::bandit::policy::ucb1::{BonusRound, Ties};
use crate::error::{Error, Result};
use crate::num::{Certified, Precision, Real, Q};
use crate::progress::Progress;
use num_traits::{One, Zero};
use std::cmp::Ordering;

/// The statistics UCB1 reads: each arm's plays and reward sum.
#[derive(Clone, Debug)]
struct Played {
    n: Vec<u64>,
    sum: Vec<Q>,
}

/// One pull sequence of the tree so far, with its probability.
#[derive(Clone, Debug)]
struct Branch {
    played: Played,
    pulls: Vec<usize>,
    probability: Q,
}

/// The index `S_j/n_j + √(c ln n/n_j)` of a played arm, enclosed at `bits`.
fn index(played: &Played, j: usize, c_ln: &Certified, bits: u32) -> Result<(Q, Q)> {
    let ctx = Precision(bits);
    let plays = Q::from_integer(played.n[j].into());
    let half = Certified::from_rational(&Q::new(1.into(), 2.into()), &ctx);
    let root = (half * (c_ln.clone() / Certified::from_rational(&plays, &ctx)).ln()?).exp()?;
    (Certified::from_rational(&(&played.sum[j] / plays), &ctx) + root)
        .enclosure()
        .ok_or_else(|| Error::Domain("an index without an enclosure".into()))
}

/// `c ln n` enclosed at `bits`.
fn c_ln(bonus: &Q, n: u64, bits: u32) -> Result<Certified> {
    let ctx = Precision(bits);
    Ok(Certified::from_rational(bonus, &ctx) * Certified::from_int(n as i64, &ctx).ln()?)
}

/// The arms of maximal index in round `round` (from 1), the bonus reading
/// `ln n` with `n` the count `bonus_round` names: the unplayed arms while
/// there are any, else the arms whose index equals the largest, every
/// comparison decided exactly (the module's argument), in increasing order.
fn maximal(
    played: &Played,
    bonus: &Q,
    bonus_round: BonusRound,
    round: usize,
) -> Result<Vec<usize>> {
    let unplayed: Vec<usize> = (0..played.n.len()).filter(|&j| played.n[j] == 0).collect();
    if !unplayed.is_empty() {
        return Ok(unplayed);
    }
    let n = bonus_round.count(round as u64);
    let first = c_ln(bonus, n, PRECISIONS.0)?;
    let enclosures = (0..played.n.len())
        .map(|j| index(played, j, &first, PRECISIONS.0))
        .collect::<Result<Vec<_>>>()?;
    // The order of `I_i` and `I_j`.
    let compare = |i: usize, j: usize| -> Result<Ordering> {
        if played.n[i] == played.n[j] {
            return Ok(played.sum[i].cmp(&played.sum[j]));
        }
        let (mut a, mut b) = (enclosures[i].clone(), enclosures[j].clone());
        let mut bits = PRECISIONS.0;
        loop {
            if a.0 > b.1 {
                return Ok(Ordering::Greater);
            }
            if a.1 < b.0 {
                return Ok(Ordering::Less);
            }
            if bits >= PRECISIONS.1 {
                return Err(Error::Domain(format!(
                    "round {round}: UCB1's indices of arms {} and {} (numbered from 1) are not separated at {bits} bits",
                    i.min(j) + 1,
                    i.max(j) + 1
                )));
            }
            bits = (bits * 2).min(PRECISIONS.1);
            let refined = c_ln(bonus, n, bits)?;
            (a, b) = (
                index(played, i, &refined, bits)?,
                index(played, j, &refined, bits)?,
            );
        }
    };
    let mut best = vec![0];
    for j in 1..played.n.len() {
        match compare(j, best[0])? {
            Ordering::Greater => best = vec![j],
            Ordering::Equal => best.push(j),
            Ordering::Less => {}
        }
    }
    Ok(best)
}

/// The bytes one [`Branch`] holds on `horizon` rounds of `arms` arms, about:
/// its own fields, the pulls (a word each), per arm a play count (a word)
/// and a reward sum (a rational whose numerator and denominator each hold
/// a heap block of about 32 bytes), and the probability's two blocks.
fn branch_bytes(horizon: usize, arms: usize) -> usize {
    let blocks = 2 * 32;
    std::mem::size_of::<Branch>()
        + 8 * horizon
        + arms * (8 + std::mem::size_of::<Q>() + blocks)
        + blocks
}

/// `K!`, `None` past 128 bits.
fn orders(arms: usize) -> Option<u128> {
    (1..=arms as u128).try_fold(1u128, |f, i| f.checked_mul(i))
}

/// The law of UCB1's pulls on `rewards` (`T` rows of `K ≥ 2` rewards) with
/// bonus constant `bonus`, ties read as `ties` and the logarithm of the
/// count `bonus_round` names: every pull sequence of
/// positive probability (arms 0-based, in the order the tree lists them)
/// with its exact probability. The work is refused past [`MAX_WORK`]
/// [`WORK_UNIT`]s, and when ties are drawn ([`Ties::draws`]) the tree past
/// `max_sequences` pull sequences, unless `force`.
pub fn law(
    rewards: &[Vec<Q>],
    bonus: &Q,
    ties: Ties,
    bonus_round: BonusRound,
    max_sequences: u64,
    force: bool,
) -> Result<Vec<(Vec<usize>, Q)>> {
    counted_law(
        rewards,
        bonus,
        ties,
        bonus_round,
        max_sequences,
        force,
        &Progress::default(),
    )
}

/// [`law`], each round counted on `progress`.
pub(crate) fn counted_law(
    rewards: &[Vec<Q>],
    bonus: &Q,
    ties: Ties,
    bonus_round: BonusRound,
    max_sequences: u64,
    force: bool,
    progress: &Progress,
) -> Result<Vec<(Vec<usize>, Q)>> {
    let (horizon, arms) = (rewards.len(), rewards.first().map_or(0, Vec::len));
    let starts = if ties.plays_in_order() {
        Some(1)
    } else {
        orders(arms)
    };
    let per_sequence =
        (horizon.saturating_sub(arms) as u128).checked_mul(arms.saturating_sub(1) as u128);
    let what = |counted: &str| {
        format!("ucb1's law (ties {ties}, bonus round {bonus_round}) on T = {horizon} rounds of K = {arms} arms: {counted}")
    };
    if ties == Ties::Uniform {
        crate::size::work(
            &what("its pull sequences, at least the K! orders of the first K rounds"),
            starts,
            max_sequences.into(),
            force,
        )?;
    }
    crate::size::work(
        &what(&format!(
            "its comparisons of certified indices (at least), one of its {WORK_UNIT} each"
        )),
        starts.zip(per_sequence).and_then(|(s, p)| s.checked_mul(p)),
        MAX_WORK,
        force,
    )?;
    progress.start(horizon as u64);
    let mut tree = vec![Branch {
        played: Played {
            n: vec![0; arms],
            sum: vec![Q::zero(); arms],
        },
        pulls: Vec::new(),
        probability: Q::one(),
    }];
    let mut comparisons = 0u128;
    for (t, row) in rewards.iter().enumerate() {
        let round = t + 1;
        if round > arms {
            comparisons = comparisons.saturating_add(tree.len() as u128 * (arms as u128 - 1));
            if ties.draws() {
                // Every branch alive has a child in each later round, and
                // each of them costs K − 1 comparisons again.
                let ahead = (tree.len() as u128)
                    .saturating_mul(arms as u128 - 1)
                    .saturating_mul((horizon - round) as u128);
                crate::size::work(
                    &what(&format!(
                        "its comparisons of certified indices (at least, as counted at round {round}), one of its {WORK_UNIT} each"
                    )),
                    Some(comparisons.saturating_add(ahead)),
                    MAX_WORK,
                    force,
                )?;
            }
        }
        let choices = tree
            .iter()
            .map(|branch| {
                let mut maximal = maximal(&branch.played, bonus, bonus_round, round)?;
                match ties {
                    // The unplayed arms in order: the lowest of them.
                    _ if round <= arms && ties.plays_in_order() => maximal.truncate(1),
                    Ties::Uniform | Ties::OrderedUniform => {}
                    Ties::Lowest => maximal.truncate(1),
                    Ties::Highest => {
                        maximal.drain(..maximal.len() - 1);
                    }
                }
                Ok(maximal)
            })
            .collect::<Result<Vec<_>>>()?;
        let count: u128 = choices.iter().map(|c| c.len() as u128).sum();
        let by = format!("by round {round}");
        if ties.draws() {
            crate::size::work(
                &what(&format!("its pull sequences {by}")),
                Some(count),
                max_sequences.into(),
                force,
            )?;
        }
        crate::size::table(
            &what(&format!("the pull sequences held {by}")),
            Some(count),
            branch_bytes(horizon, arms),
        )?;
        let mut grown = crate::size::vec_with_capacity(
            &what(&format!("the pull sequences held {by}")),
            Some(count),
        )?;
        for (branch, chosen) in tree.into_iter().zip(choices) {
            let share = Q::new(1.into(), (chosen.len() as i64).into());
            for arm in chosen {
                let mut next = branch.clone();
                next.played.n[arm] += 1;
                next.played.sum[arm] += &row[arm];
                next.pulls.push(arm);
                next.probability *= &share;
                grown.push(next);
            }
        }
        tree = grown;
        progress.add(1);
    }
    Ok(tree
        .into_iter()
        .map(|branch| (branch.pulls, branch.probability))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> Q {
        Q::new(n.into(), d.into())
    }

    fn table(rows: &[&[(i64, i64)]]) -> Vec<Vec<Q>> {
        rows.iter()
            .map(|r| r.iter().map(|&(n, d)| q(n, d)).collect())
            .collect()
    }

    fn two_arms_three_rounds() -> Vec<Vec<Q>> {
        table(&[&[(1, 1), (0, 1)], &[(0, 1), (1, 1)], &[(1, 1), (0, 1)]])
    }

    fn three_equal_arms() -> Vec<Vec<Q>> {
        let row: &[(i64, i64)] = &[(1, 2); 3];
        table(&[row; 5])
    }

    fn unequal_counts() -> Vec<Vec<Q>> {
        table(&[
            &[(1, 1), (0, 1), (0, 1)],
            &[(0, 1); 3],
            &[(0, 1); 3],
            &[(0, 1); 3],
            &[(1, 1), (0, 1), (0, 1)],
            &[(0, 1); 3],
        ])
    }

    /// The docs' `T8'` (K = 2, T = 8), on which the two bonus rounds pull
    /// differently at bonus 2.
    fn t8_prime() -> Vec<Vec<Q>> {
        table(&[
            &[(0, 1), (3, 4)],
            &[(0, 1), (1, 2)],
            &[(1, 1), (1, 1)],
            &[(1, 1), (3, 4)],
            &[(1, 4), (1, 4)],
            &[(1, 1), (1, 4)],
            &[(0, 1), (1, 4)],
            &[(1, 1), (1, 1)],
        ])
    }

    /// The 0/1 table `B8` of docs/public-implementations.md (K = 2, T = 8).
    fn b8() -> Vec<Vec<Q>> {
        table(&[
            &[(1, 1), (1, 1)],
            &[(1, 1), (1, 1)],
            &[(1, 1), (0, 1)],
            &[(0, 1), (1, 1)],
            &[(1, 1), (1, 1)],
            &[(0, 1), (0, 1)],
            &[(1, 1), (0, 1)],
            &[(0, 1), (1, 1)],
        ])
    }

    fn law_read(rewards: &[Vec<Q>], ties: Ties, bonus_round: BonusRound) -> Vec<(Vec<usize>, Q)> {
        let mut law = law(rewards, &q(2, 1), ties, bonus_round, 1 << 16, false).unwrap();
        law.sort();
        law
    }

    fn law_of(rewards: &[Vec<Q>], ties: Ties) -> Vec<(Vec<usize>, Q)> {
        law_read(rewards, ties, BonusRound::Plays)
    }

    /// The law with uniform ties at bonus 2, `max_sequences` and `force`
    /// as given.
    fn uniform_law(
        rewards: &[Vec<Q>],
        max_sequences: u64,
        force: bool,
    ) -> Result<Vec<(Vec<usize>, Q)>> {
        law(
            rewards,
            &q(2, 1),
            Ties::Uniform,
            BonusRound::Plays,
            max_sequences,
            force,
        )
    }

    /// K = 2, T = 3, rewards (1, 0), (0, 1), (1, 0), bonus 2.
    ///
    /// Uniform: round 1 draws arm 0 or 1 (1/2 each); round 2 pulls the other.
    /// Round 3 (n = 2): both arms have n_j = 1, so the indices differ by the
    /// means. Order 0,1: arm 0 saw row 1's 1, arm 1 saw row 2's 1: means
    /// 1, 1, a tie: 1/2 each, so 0,1,0 and 0,1,1 have 1/4. Order 1,0: arm 1
    /// saw row 1's 0, arm 0 saw row 2's 0: means 0, 0, a tie: 1,0,0 and
    /// 1,0,1 have 1/4. Lowest: 0,1 then the tie of means 1, 1 to arm 0.
    /// Highest: 0,1 then the same tie to arm 1.
    #[test]
    fn two_arms_three_rounds_by_hand() {
        let rewards = two_arms_three_rounds();
        let quarter = q(1, 4);
        assert_eq!(
            law_of(&rewards, Ties::Uniform),
            vec![
                (vec![0, 1, 0], quarter.clone()),
                (vec![0, 1, 1], quarter.clone()),
                (vec![1, 0, 0], quarter.clone()),
                (vec![1, 0, 1], quarter),
            ]
        );
        assert_eq!(
            law_of(&rewards, Ties::Lowest),
            vec![(vec![0, 1, 0], q(1, 1))]
        );
        assert_eq!(
            law_of(&rewards, Ties::Highest),
            vec![(vec![0, 1, 1], q(1, 1))]
        );
    }

    /// K = 3, T = 5, every reward 1/2: every played mean is 1/2, so two arms
    /// tie exactly when their counts are equal.
    ///
    /// Rounds 1–3 are a uniform order (1/3, then 1/2, then 1): each of the
    /// 6 orders has 1/6. Round 4 (n = 3): all counts 1, a three-way tie,
    /// 1/3 each. Round 5 (n = 4): the arm pulled in round 4 has n = 2, a
    /// smaller bonus √(2 ln 4/2) < √(2 ln 4), so the two others tie, 1/2
    /// each. Every sequence has 1/6 · 1/3 · 1/2 = 1/36, and there are
    /// 6 · 3 · 2 = 36 of them: each a permutation of the three arms, then a
    /// repeat of any arm, then one of the two others. Lowest: 0, 1, 2, then
    /// the three-way tie to arm 0, then the tie of arms 1 and 2 to arm 1.
    /// Highest: 0, 1, 2 in order, then the three-way tie to arm 2, then the
    /// tie of arms 0 and 1 to arm 1.
    #[test]
    fn three_equal_arms_by_hand() {
        let rewards = three_equal_arms();
        let law = law_of(&rewards, Ties::Uniform);
        assert_eq!(law.len(), 36);
        for (pulls, p) in &law {
            assert_eq!(*p, q(1, 36), "{pulls:?}");
            let mut first: Vec<usize> = pulls[..3].to_vec();
            first.sort();
            assert_eq!(first, vec![0, 1, 2], "{pulls:?}");
            assert_ne!(pulls[4], pulls[3], "{pulls:?}");
        }
        let total: Q = law.iter().map(|(_, p)| p.clone()).sum();
        assert_eq!(total, q(1, 1));
        assert_eq!(
            law_of(&rewards, Ties::Lowest),
            vec![(vec![0, 1, 2, 0, 1], q(1, 1))]
        );
        assert_eq!(
            law_of(&rewards, Ties::Highest),
            vec![(vec![0, 1, 2, 2, 1], q(1, 1))]
        );
    }

    /// Unequal counts never tie, but a tie of equal counts after a
    /// comparison of unequal ones does: K = 3, T = 6, rewards chosen so
    /// that in round 5 arm 0 (n = 2, mean 1/2) is compared with arms 1 and
    /// 2 (n = 1 each, means 0): `1/2 + √(2 ln 4/2) ≈ 1.677` against
    /// `0 + √(2 ln 4) ≈ 1.665`, so arm 0 wins alone (under lowest too).
    ///
    /// Table: row 1 (1, 0, 0), row 2 (0, 0, 0), row 3 (0, 0, 0), row 4
    /// (0, 0, 0), row 5 (1, 0, 0), row 6 (0, 0, 0). Lowest: 0, 1, 2 (means
    /// 1, 0, 0); round 4 (n = 3, all n_j = 1): arm 0 (mean 1) alone; arm 0
    /// gets 0, mean 1/2, n = 2; round 5 as above: arm 0, which gets 1, mean
    /// 2/3, n = 3; round 6 (n = 5): `2/3 + √(2 ln 5/3) ≈ 1.700` against
    /// `√(2 ln 5) ≈ 1.794` for arms 1 and 2, a tie of equal counts and
    /// means: lowest takes arm 1, highest arm 2 (rounds 1–5 the same: no
    /// other tie), uniform 1/2 each.
    #[test]
    fn unequal_counts_are_separated_and_equal_ones_tie() {
        let rewards = unequal_counts();
        assert_eq!(
            law_of(&rewards, Ties::Lowest),
            vec![(vec![0, 1, 2, 0, 0, 1], q(1, 1))]
        );
        assert_eq!(
            law_of(&rewards, Ties::Highest),
            vec![(vec![0, 1, 2, 0, 0, 2], q(1, 1))]
        );
        let uniform = law_of(&rewards, Ties::Uniform);
        // The order 0, 1, 2 (1/6), then arm 0 twice, then arm 1 or 2.
        let p = |pulls: &[usize]| {
            uniform
                .iter()
                .find(|(s, _)| s == pulls)
                .map(|(_, p)| p.clone())
        };
        assert_eq!(p(&[0, 1, 2, 0, 0, 1]), Some(q(1, 12)));
        assert_eq!(p(&[0, 1, 2, 0, 0, 2]), Some(q(1, 12)));
        let total: Q = uniform.iter().map(|(_, p)| p.clone()).sum();
        assert_eq!(total, q(1, 1));
    }

    /// `B8` at bonus 2, each arm once in order, then ties drawn uniformly.
    /// Rounds 1, 2 pull arms 0, 1 (each sees 1). Round 3 (n = 2): counts 1,
    /// 1 and sums 1, 1, a tie: 1/2 each.
    ///
    /// - Arm 0 (sees 1): sums 2, 1 at counts 2, 1; round 4 (n = 3):
    ///   `1 + √(ln 3) ≈ 2.048` against `1 + √(2 ln 3) ≈ 2.482`, arm 1 (sees
    ///   1): sums 2, 2 at 2, 2, round 5 a tie again, 1/2 each.
    /// - Arm 1 (sees 0): sums 1, 1 at counts 1, 2; round 4: `1 + √(2 ln 3)`
    ///   against `1/2 + √(ln 3) ≈ 1.548`, arm 0 (sees 0): sums 1, 1 at 2, 2,
    ///   round 5 a tie, 1/2 each.
    ///
    /// Rounds 6–8 meet no tie (unequal counts); the indices, by
    /// `for t in 6..=8: I_j = S_j/n_j + sqrt(2 log(t − 1)/n_j)`, the argmax
    /// pulled and its row's reward added:
    ///
    /// ```text
    /// 0,1,0,1,0  t=6 I=(2.036, 2.269) 1  t=7 I=(2.093, 1.760) 0  t=8 I=(1.986, 1.806) 0
    /// 0,1,0,1,1  t=6 I=(2.269, 2.036) 0  t=7 I=(1.760, 2.093) 1  t=8 I=(1.806, 1.736) 0
    /// 0,1,1,0,0  t=6 I=(1.703, 1.769) 1  t=7 I=(1.760, 1.426) 0  t=8 I=(1.736, 1.472) 0
    /// 0,1,1,0,1  t=6 I=(1.769, 1.703) 0  t=7 I=(1.426, 1.760) 1  t=8 I=(1.472, 1.486) 1
    /// ```
    ///
    /// Four sequences of 1/4 each. The other readings pull round 3's tie
    /// one way (lowest, highest) or draw the first two rounds too (uniform).
    #[test]
    fn b8_with_ordered_uniform_ties_by_hand() {
        use crate::bandit::policy::Named;
        let rewards = b8();
        let quarter = q(1, 4);
        let expected = vec![
            (vec![0, 1, 0, 1, 0, 1, 0, 0], quarter.clone()),
            (vec![0, 1, 0, 1, 1, 0, 1, 0], quarter.clone()),
            (vec![0, 1, 1, 0, 0, 1, 0, 0], quarter.clone()),
            (vec![0, 1, 1, 0, 1, 0, 1, 1], quarter),
        ];
        for bonus_round in BonusRound::ALL {
            let law = law_read(&rewards, Ties::OrderedUniform, *bonus_round);
            if *bonus_round == BonusRound::Plays {
                assert_eq!(law, expected);
            }
            // Both bonus rounds: the first two rounds in order, round 3 a tie.
            assert!(law.iter().all(|(s, _)| s[..2] == [0, 1]), "{law:?}");
            assert_eq!(law.iter().filter(|(s, _)| s[2] == 0).count() * 2, law.len());
        }
        for ties in [Ties::Lowest, Ties::Highest, Ties::Uniform] {
            assert_ne!(law_of(&rewards, ties), expected, "{ties}");
        }
        let uniform = law_of(&rewards, Ties::Uniform);
        assert!(uniform.iter().any(|(s, _)| s[0] == 1), "{uniform:?}");
    }

    /// The simulator's UCB1 with ordered uniform ties fits the law on `B8`
    /// (f64 ties exact on 0/1 rewards): 4000 runs from seed 3 stay on the
    /// law's four sequences, and Pearson's χ² of their counts (3 df) is
    /// below 16.27, its critical value at level 10⁻³.
    #[test]
    fn the_simulated_ordered_uniform_policy_fits_the_law() {
        use crate::bandit::policy::{ucb1::Ucb1, NoiseRng, Policy};
        use rand::SeedableRng;
        let rewards = b8();
        let law = law_of(&rewards, Ties::OrderedUniform);
        let mut rng = NoiseRng::seed_from_u64(3);
        let runs = 4000;
        let mut counts = vec![0u64; law.len()];
        for _ in 0..runs {
            let mut policy = Ucb1 {
                ties: Ties::OrderedUniform,
                ..Ucb1::new(2)
            };
            let pulls: Vec<usize> = rewards
                .iter()
                .zip(1u64..)
                .map(|(row, t)| {
                    let arm = policy.choose(t, 1, &mut rng).arm;
                    policy.observe(arm, 1, row[arm].to_f64(), &mut rng);
                    arm
                })
                .collect();
            let at = law.iter().position(|(s, _)| *s == pulls);
            counts[at.unwrap_or_else(|| panic!("{pulls:?} outside the law"))] += 1;
        }
        let chi_square: f64 = law
            .iter()
            .zip(&counts)
            .map(|((_, p), &observed)| {
                let expected = p.to_f64() * runs as f64;
                (observed as f64 - expected).powi(2) / expected
            })
            .sum();
        assert!(chi_square < 16.27, "χ² = {chi_square}, counts {counts:?}");
    }

    /// `T8'` at bonus 2, ties to the lowest arm. Rounds 1, 2 pull arms 0, 1;
    /// rounds 3 and 4 pull arm 1 under both readings (round 3: equal counts,
    /// means 0 < 1/2; round 4: `√(2 ln n)` against `3/4 + √(ln n)`, arm 1 by
    /// more than 0.26 at `n = 3` and at `n = 4`). Round 5 decides: arm 0 has
    /// one play of sum 0, arm 1 three of sum `1/2 + 1 + 3/4 = 9/4`, and the
    /// indices are `√(2 ln n)` and `3/4 + √(2 ln n/3)`:
    ///
    /// - plays, `n = 4`: `√(2 ln 4) ≈ 1.66511 < 1.71135 ≈ 3/4 + √(2 ln 4/3)`, arm 1;
    /// - current, `n = 5`: `√(2 ln 5) ≈ 1.79412 > 1.78584 ≈ 3/4 + √(2 ln 5/3)`, arm 0.
    ///
    /// The later rounds, each index gap at least 0.09 (computed by
    /// `for t in 3..=8: I_j = S_j/n_j + sqrt(2 log(m)/n_j)`, `m = t − 1` or
    /// `t`, the argmax pulled and its row's reward added):
    ///
    /// ```text
    /// plays   t=6 I=(1.794, 1.522) 0  t=7 I=(1.839, 1.572) 0  t=8 I=(1.472, 1.611) 1
    /// current t=6 I=(1.464, 1.843) 1  t=7 I=(1.520, 1.611) 1  t=8 I=(1.567, 1.462) 0
    /// ```
    #[test]
    fn t8_prime_is_pulled_differently_by_the_two_bonus_rounds() {
        let rewards = t8_prime();
        for ties in [Ties::Lowest, Ties::Highest] {
            assert_eq!(
                law_read(&rewards, ties, BonusRound::Plays),
                vec![(vec![0, 1, 1, 1, 1, 0, 0, 1], q(1, 1))],
                "{ties}"
            );
            assert_eq!(
                law_read(&rewards, ties, BonusRound::Current),
                vec![(vec![0, 1, 1, 1, 0, 1, 1, 0], q(1, 1))],
                "{ties}"
            );
        }
    }

    /// The simulator's UCB1 (f64, whose indices tie exactly on these dyadic
    /// rewards) plays the law's one sequence under both deterministic tie
    /// readings and both bonus rounds, on the four tables above.
    #[test]
    fn the_simulated_policy_plays_the_laws_sequence() {
        use crate::bandit::policy::{ucb1::Ucb1, Named, NoiseRng, Policy};
        use rand::SeedableRng;
        let readings = [Ties::Lowest, Ties::Highest]
            .into_iter()
            .flat_map(|ties| BonusRound::ALL.iter().map(move |&round| (ties, round)));
        for rewards in [
            two_arms_three_rounds(),
            three_equal_arms(),
            unequal_counts(),
            t8_prime(),
        ] {
            for (ties, bonus_round) in readings.clone() {
                let mut policy = Ucb1 {
                    ties,
                    bonus_round,
                    ..Ucb1::new(rewards[0].len())
                };
                let mut rng = NoiseRng::seed_from_u64(0);
                let pulls: Vec<usize> = rewards
                    .iter()
                    .zip(1u64..)
                    .map(|(row, t)| {
                        let arm = policy.choose(t, 1, &mut rng).arm;
                        let reward = row[arm].to_f64();
                        policy.observe(arm, 1, reward, &mut rng);
                        arm
                    })
                    .collect();
                assert_eq!(
                    vec![(pulls, q(1, 1))],
                    law_read(&rewards, ties, bonus_round),
                    "{ties}, {bonus_round}"
                );
            }
        }
    }

    /// K = 5, T = 10, every reward 1/2: the tree has 5! = 120 branches
    /// after round 5, then branches 5, 4, 3, … ways (the arms of fewest
    /// plays tie). Each round from 6 costs K − 1 = 4 comparisons a branch:
    /// by round 8, 4·(120 + 600) = 2880 done, 4·2400 in round 8 and at
    /// least as many in rounds 9 and 10: 2880 + 3·9600 = 31 680 > 2^14, so
    /// it is refused before round 8's comparisons (the K! estimate,
    /// 120·5·4 = 2400, passes; round 7 counts 480 + 2400 + 2·2400 = 7680 and
    /// passes).
    #[test]
    fn the_work_of_a_growing_tree_is_refused_before_it_is_done() {
        let row: &[(i64, i64)] = &[(1, 2); 5];
        let rewards = table(&[row; 10]);
        let e = uniform_law(&rewards, 1 << 16, false)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("as counted at round 8")
                && e.contains(": 31680, over")
                && e.contains("--force"),
            "{e}"
        );
    }

    /// K = T = 34 (34! < 2^128 and no comparison, so `force` lifts the
    /// counts' limits), every reward 0: the rounds pull the unplayed arms,
    /// 34·33·32 = 35 904 branches after round 3, then 35 904·31 = 1 113 024
    /// in round 4, whose memory (over 5 kB each) passes the cap: refused
    /// before they are built, with `force`.
    #[test]
    fn the_tree_past_the_memory_cap_is_refused_with_force() {
        let row: &[(i64, i64)] = &[(0, 1); 34];
        let rewards = table(&[row; 34]);
        let e = uniform_law(&rewards, 1 << 16, true)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("by round 4") && e.contains("1113024 ×") && e.contains("memory cap"),
            "{e}"
        );
    }

    /// The refusals: the K! first orders past the limit, the tree past it
    /// as it grows, and both lifted by `force`.
    #[test]
    fn the_tree_is_refused_past_its_limit_unless_forced() {
        let row: &[(i64, i64)] = &[(1, 2); 3];
        let rewards = table(&[row; 5]);
        let run = |limit, force| uniform_law(&rewards, limit, force);
        let e = run(5, false).unwrap_err().to_string();
        assert!(e.contains("K! orders") && e.contains("--force"), "{e}");
        let e = run(20, false).unwrap_err().to_string();
        assert!(e.contains("by round 5") && e.contains("36"), "{e}");
        assert_eq!(run(20, true).unwrap().len(), 36);
    }
}
