"""UCB1's reading of ties (``ties="lowest"``, ``"uniform"`` or
``"highest"``, as ``--ties``): a numpy UCB1 that draws uniformly among its
maximal indices with ``np.random.choice`` (unplayed arms' index +inf, so the
first K rounds are a random order) fits the uniform law and is rejected
under the lowest reading; one that plays each arm once in order and then
takes the first of a descending argsort (ties to the highest arm) fits the
highest law alone; the exact laws on a small table are derived by hand."""

from fractions import Fraction

import numpy as np
import pytest

import dpdtol
from dpdtol.testing import assert_bandit_policy

# T8 of docs/public-implementations.md.
T8 = [[0.5, 0.25], [0, 1], [1, 0], [0.25, 0.75], [0.5, 0.5], [1, 0], [0, 1], [0.5, 0.25]]


class RandomTieUcb1:
    """UCB1 (Auer, Cesa-Bianchi & Fischer 2002) with ties drawn uniformly
    among the arms of maximal index, n the plays so far."""

    def __init__(self, arms):
        self.n = np.zeros(arms)
        self.sums = np.zeros(arms)

    def select_arm(self):
        with np.errstate(divide="ignore", invalid="ignore"):
            index = self.sums / self.n + np.sqrt(2 * np.log(self.n.sum()) / self.n)
        index[self.n == 0] = np.inf
        return int(np.random.choice(np.flatnonzero(index == index.max())))

    def update(self, arm, reward):
        self.n[arm] += 1
        self.sums[arm] += reward


class DescendingSortUcb1:
    """UCB1 that plays each arm once in order, then the first arm of
    ``np.flip(np.argsort(index))``: among equal indices the highest arm."""

    def __init__(self, arms):
        self.n = np.zeros(arms)
        self.sums = np.zeros(arms)

    def select_arm(self):
        unplayed = np.flatnonzero(self.n == 0)
        if len(unplayed):
            return int(unplayed[0])
        index = self.sums / self.n + np.sqrt(2 * np.log(self.n.sum()) / self.n)
        return int(np.flip(np.argsort(index, kind="stable"))[0])

    def update(self, arm, reward):
        self.n[arm] += 1
        self.sums[arm] += reward


def test_the_uniform_law_derived_by_hand():
    # K = 2, T = 3, rewards (1, 0), (0, 1), (1, 0): round 1 draws the first
    # arm, round 2 pulls the other; round 3 (n = 2) sees equal counts and
    # equal means (1 and 1 after arms 1,2; 0 and 0 after 2,1): a tie.
    law = dpdtol.bandit_law("ucb1", [[1, 0], [0, 1], [1, 0]], None, ties="uniform")
    assert law.kind == "exact"
    assert [list(s) for s in law.sequences] == [[1, 2, 1], [1, 2, 2], [2, 1, 1], [2, 1, 2]]
    assert law.exact == (Fraction(1, 4),) * 4
    lowest = dpdtol.bandit_law("ucb1", [[1, 0], [0, 1], [1, 0]], None)
    assert [list(s) for s in lowest.sequences] == [[1, 2, 1]]
    # Highest: arms 1, 2 in order, then round 3's tie to arm 2.
    highest = dpdtol.bandit_law("ucb1", [[1, 0], [0, 1], [1, 0]], None, ties="highest")
    assert [list(s) for s in highest.sequences] == [[1, 2, 2]]
    assert highest.exact == (Fraction(1),)


def test_a_numpy_ucb1_with_random_ties_fits_the_uniform_reading_only():
    result = assert_bandit_policy("ucb1", lambda: RandomTieUcb1(2), T8, None, n=2000, seed=3, ties="uniform")
    assert result.p_min > 1e-3
    with pytest.raises(AssertionError, match="round 1"):
        assert_bandit_policy("ucb1", lambda: RandomTieUcb1(2), T8, None, n=2000, seed=3)


# 0/1 rewards on which both arms pay 1 in rounds 1 and 2: the indices tie at round 3.
CLICKS_TIED = [[1, 1], [1, 1], [1, 0], [0, 1], [1, 1], [0, 0], [1, 0], [0, 1]]


def test_a_descending_sort_ucb1_fits_the_highest_reading_only():
    result = assert_bandit_policy("ucb1", lambda: DescendingSortUcb1(2), CLICKS_TIED, None, n=100, seed=3,
                                  ties="highest")
    assert result.p_min == 1
    for ties in ("lowest", "uniform"):
        with pytest.raises(AssertionError, match="round"):
            assert_bandit_policy("ucb1", lambda: DescendingSortUcb1(2), CLICKS_TIED, None, n=100, seed=3, ties=ties)


def test_ties_is_named_and_refused_elsewhere():
    with pytest.raises(ValueError, match="ties expects one of lowest, uniform, highest"):
        dpdtol.bandit_law("ucb1", T8, None, ties="random")
    with pytest.raises(ValueError, match="ties does not apply to dp-ucb"):
        dpdtol.bandit_law("dp-ucb", T8, 1, ties="uniform")
    report = dpdtol.bandit_simulate("ucb1", [0.5, 0.5], horizon=20, runs=2, ties="uniform")
    assert report.results[0]["ties"] == "uniform"
