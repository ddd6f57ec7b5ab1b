"""UCB1's reading of ties (``ties="lowest"``, ``"uniform"``, ``"highest"``
or ``"ordered-uniform"``, as ``--ties``): a numpy UCB1 that draws uniformly
among its maximal indices with ``np.random.choice`` (unplayed arms' index
+inf, so the first K rounds are a random order) fits the uniform law and is
rejected under the lowest reading; one that plays each arm once in order and
then takes the first of a descending argsort (ties to the highest arm) fits
the highest law alone; one that plays each arm once in order and then draws
among its maximal indices fits the ordered uniform law alone, and
``explain`` names it; the exact laws on small tables are derived by hand."""

from fractions import Fraction

import numpy as np
import pytest

import dpdtol
from dpdtol.drive import drive_bandit
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


class OrderedRandomTieUcb1(RandomTieUcb1):
    """UCB1 that plays each arm once in order, then draws uniformly among
    the arms of maximal index with ``np.random.choice``."""

    def select_arm(self):
        unplayed = np.flatnonzero(self.n == 0)
        if len(unplayed):
            return int(unplayed[0])
        return super().select_arm()


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
    # Ordered uniform: arms 1, 2 in order, then round 3's tie drawn.
    ordered = dpdtol.bandit_law("ucb1", [[1, 0], [0, 1], [1, 0]], None, ties="ordered-uniform")
    assert [list(s) for s in ordered.sequences] == [[1, 2, 1], [1, 2, 2]]
    assert ordered.exact == (Fraction(1, 2),) * 2


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


def test_the_ordered_uniform_law_on_clicks_tied_derived_by_hand():
    # Rounds 1, 2 pull arms 1, 2 (each sees 1); round 3 (n = 2) ties at
    # counts 1, 1 and sums 1, 1: 1/2 each. After 1,2,1 round 4 pulls arm 2
    # (1 + sqrt(ln 3) < 1 + sqrt(2 ln 3)), after 1,2,2 arm 1; either way
    # round 5 ties again at counts 2, 2 and equal sums: 1/2 each. Rounds 6-8
    # compare unequal counts (the derivation and the indices:
    # bandit::law::ucb1's b8_with_ordered_uniform_ties_by_hand).
    law = dpdtol.bandit_law("ucb1", CLICKS_TIED, None, ties="ordered-uniform")
    assert law.kind == "exact"
    assert [list(s) for s in law.sequences] == [
        [1, 2, 1, 2, 1, 2, 1, 1],
        [1, 2, 1, 2, 2, 1, 2, 1],
        [1, 2, 2, 1, 1, 2, 1, 1],
        [1, 2, 2, 1, 2, 1, 2, 2],
    ]
    assert law.exact == (Fraction(1, 4),) * 4


def test_an_ordered_numpy_ucb1_with_random_ties_fits_the_ordered_uniform_reading_only():
    result = assert_bandit_policy("ucb1", lambda: OrderedRandomTieUcb1(2), CLICKS_TIED, None, n=2000, seed=3,
                                  ties="ordered-uniform")
    assert result.p_min > 1e-3
    # Uniform ties draw round 1 too: half its mass starts with arm 2.
    with pytest.raises(AssertionError, match="round 1"):
        assert_bandit_policy("ucb1", lambda: OrderedRandomTieUcb1(2), CLICKS_TIED, None, n=2000, seed=3,
                             ties="uniform")
    # The point masses pull round 3's tie one way.
    for ties in ("lowest", "highest"):
        with pytest.raises(AssertionError, match="round 3"):
            assert_bandit_policy("ucb1", lambda: OrderedRandomTieUcb1(2), CLICKS_TIED, None, n=2000, seed=3,
                                 ties=ties)


def test_explain_names_the_ordered_uniform_reading():
    pulls = drive_bandit(lambda: OrderedRandomTieUcb1(2), CLICKS_TIED, 400, 3)
    result = dpdtol.bandit_gof("ucb1", CLICKS_TIED, None, pulls, base=0, explain=True)
    assert result.rejected
    readings = [(f["readings"]["ties"], f["readings"]["bonus-round"], f["reject"]) for f in result.explain]
    assert len(readings) == 8
    assert {t for t, _, reject in readings if not reject} == {"ordered-uniform"}
    assert ("ordered-uniform", "plays", False) in readings


def test_ties_is_named_and_refused_elsewhere():
    with pytest.raises(ValueError, match="ties expects one of lowest, uniform, highest, ordered-uniform"):
        dpdtol.bandit_law("ucb1", T8, None, ties="random")
    with pytest.raises(ValueError, match="ties does not apply to dp-ucb"):
        dpdtol.bandit_law("dp-ucb", T8, 1, ties="uniform")
    report = dpdtol.bandit_simulate("ucb1", [0.5, 0.5], horizon=20, runs=2, ties="uniform")
    assert report.results[0]["ties"] == "uniform"
