"""UCB1's reading of the round its logarithm reads (``bonus_round="plays"``,
the default, or ``"current"``, as ``--bonus-round``): a numpy UCB1 whose
clock starts at 1 before the first pull (``ln t`` of the current round,
Bubeck & Cesa-Bianchi's alpha-UCB form) fits the ``current`` law and is
rejected under the default, and ``explain`` names ``current``; the exact
laws on T8' of docs/public-implementations.md are derived by hand."""

from fractions import Fraction

import numpy as np
import pytest

import dpdtol
from dpdtol.drive import drive_bandit
from dpdtol.testing import assert_bandit_policy

# T8' of docs/public-implementations.md: at bonus 2 the two readings pull
# differently from round 5 on.
T8_PRIME = [[0, 0.75], [0, 0.5], [1, 1], [1, 0.75], [0.25, 0.25], [1, 0.25], [0, 0.25], [1, 1]]


class CurrentRoundUcb1:
    """UCB1 that plays each arm once in order, then the first arm of
    maximal ``mean + sqrt(2 ln t / n_j)``, ``t`` the current round: a
    clock that starts at 1 and grows after each update."""

    def __init__(self, arms):
        self.n = np.zeros(arms)
        self.sums = np.zeros(arms)
        self.t = 1

    def select_arm(self):
        unplayed = np.flatnonzero(self.n == 0)
        if len(unplayed):
            return int(unplayed[0])
        index = self.sums / self.n + np.sqrt(2 * np.log(self.t) / self.n)
        return int(np.argmax(index))

    def update(self, arm, reward):
        self.n[arm] += 1
        self.sums[arm] += reward
        self.t += 1


def test_the_two_laws_derived_by_hand():
    # Round 5 decides: arm 1 has one pull of reward 0, arm 2 three of sum
    # 1/2 + 1 + 3/4 = 9/4. Plays (n = 4): sqrt(2 ln 4) = 1.66511 <
    # 3/4 + sqrt(2 ln 4 / 3) = 1.71135, arm 2. Current (n = 5):
    # sqrt(2 ln 5) = 1.79412 > 3/4 + sqrt(2 ln 5 / 3) = 1.78584, arm 1.
    assert np.sqrt(2 * np.log(4)) < 0.75 + np.sqrt(2 * np.log(4) / 3)
    assert np.sqrt(2 * np.log(5)) > 0.75 + np.sqrt(2 * np.log(5) / 3)
    plays = dpdtol.bandit_law("ucb1", T8_PRIME, None)
    assert plays.kind == "exact"
    assert [list(s) for s in plays.sequences] == [[1, 2, 2, 2, 2, 1, 1, 2]]
    assert plays.exact == (Fraction(1),)
    current = dpdtol.bandit_law("ucb1", T8_PRIME, None, bonus_round="current")
    assert [list(s) for s in current.sequences] == [[1, 2, 2, 2, 1, 2, 2, 1]]
    assert current.exact == (Fraction(1),)
    samples = dpdtol.bandit_sample("ucb1", T8_PRIME, None, n=5, seed=1, bonus_round="current")
    assert samples.array.tolist() == [[1, 2, 2, 2, 1, 2, 2, 1]] * 5


def test_a_numpy_ucb1_with_ln_of_the_current_round_fits_the_current_reading_only():
    result = assert_bandit_policy("ucb1", lambda: CurrentRoundUcb1(2), T8_PRIME, None, n=100, seed=3,
                                  bonus_round="current")
    assert result.p_min == 1
    with pytest.raises(AssertionError, match="round 5"):
        assert_bandit_policy("ucb1", lambda: CurrentRoundUcb1(2), T8_PRIME, None, n=100, seed=3)


def test_explain_names_the_current_reading():
    pulls = drive_bandit(lambda: CurrentRoundUcb1(2), T8_PRIME, 20, 3)
    result = dpdtol.bandit_gof("ucb1", T8_PRIME, None, pulls, base=0, explain=True)
    assert result.rejected
    assert result.report["target"]["bonus_round"] == "plays"
    readings = [(f["readings"]["ties"], f["readings"]["bonus-round"], f["reject"]) for f in result.explain]
    assert [(t, r) for t, r, reject in readings if not reject] == [
        ("lowest", "current"), ("highest", "current"), ("ordered-uniform", "current")]
    assert len(readings) == 8


def test_bonus_round_is_named_and_refused_where_unknown():
    with pytest.raises(ValueError, match="bonus_round expects one of plays, current, got 'last-update'"):
        dpdtol.bandit_law("ucb1", T8_PRIME, None, bonus_round="last-update")
    with pytest.raises(ValueError, match="bonus_round does not apply to dp-ucb"):
        dpdtol.bandit_law("dp-ucb", T8_PRIME, 1, bonus_round="current")
    report = dpdtol.bandit_simulate("ucb1", [0.5, 0.25], horizon=20, runs=2, bonus_round="current")
    assert report.results[0]["bonus_round"] == "current"
    assert dpdtol.bandit_simulate("ucb1", [0.5, 0.25], horizon=20, runs=2).results[0]["bonus_round"] == "plays"
