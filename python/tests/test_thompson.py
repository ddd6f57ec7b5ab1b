"""Thompson sampling with Beta(1, 1) priors for Bernoulli bandits (Agrawal &
Goyal 2012; Hu et al.'s Algorithm 2): its exact law on a table of 0s and 1s,
a numpy implementation written here from the pseudo-code, which passes, and
planted bugs, which are rejected. Fixed seeds: deterministic.
"""

from fractions import Fraction

import numpy as np
import pytest

import dpdtol
from dpdtol.testing import assert_bandit_policy

ALPHA = 1e-6  # a correct policy is rejected with probability < 1e-6

# Rows of click feedback: both arms pay 1 in rounds 1, 2 and 5; the arms
# differ in the others.
CLICKS = [[1, 1], [1, 1], [1, 0], [0, 1], [1, 1], [0, 0], [1, 0], [0, 1]]


class Thompson:
    """Algorithm 2 as printed: theta_j ~ Beta(S_j + 1, O_j - S_j + 1), pull
    the argmax, add the reward to S_j. ``bug`` plants a departure:
    ``"swapped"`` draws Beta(O_j - S_j + 1, S_j + 1) (the failures'
    posterior), ``"no-prior"`` draws Beta(S_j + 1/2, O_j - S_j + 1/2)
    (Jeffreys' prior instead of the uniform one), ``"greedy"`` pulls the
    largest posterior mean (S_j + 1)/(O_j + 2), no draw."""

    def __init__(self, arms=2, bug=None, rng=None):
        self.s = np.zeros(arms)
        self.o = np.zeros(arms)
        self.bug = bug
        self.rng = rng or np.random.default_rng()

    def select(self):
        a, b = self.s + 1, self.o - self.s + 1
        if self.bug == "swapped":
            a, b = b, a
        elif self.bug == "no-prior":
            a, b = a - 0.5, b - 0.5
        if self.bug == "greedy":
            return int(np.argmax(a / (a + b)))
        return int(np.argmax(self.rng.beta(a, b)))

    def update(self, arm, reward):
        self.o[arm] += 1
        self.s[arm] += reward


def test_the_law_by_hand():
    # Round 1 is a fair coin; row 1 pays 1 to either arm, so round 2 repeats
    # the first pull with probability P(Beta(2, 1) > Beta(1, 1)) = 2/3.
    law = dpdtol.bandit_law("thompson", CLICKS[:2], None)
    assert law.kind == "exact"
    assert [law.probability(s).exact for s in ([1, 1], [1, 2], [2, 1], [2, 2])] == [
        Fraction(1, 3), Fraction(1, 6), Fraction(1, 6), Fraction(1, 3)]


def test_thompson_from_the_pseudo_code_passes():
    result = assert_bandit_policy("thompson", Thompson, CLICKS, None, n=20_000, seed=3, alpha=ALPHA)
    assert result.chi_square_tests[0]["cells"] > 100


# The sample size at which each planted bug is first rejected (the smallest
# of 100, 300, 1000, 3000, 10000 at seed 3, alpha 1e-6).
DETECTED_AT = {"swapped": 100, "greedy": 100, "no-prior": 3000}


@pytest.mark.parametrize("bug", sorted(DETECTED_AT))
def test_planted_bugs_are_rejected(bug):
    for n in (100, 300, 1000, 3000, 10_000):
        try:
            assert_bandit_policy("thompson", lambda: Thompson(bug=bug), CLICKS, None, n=n, seed=3, alpha=ALPHA)
        except AssertionError as e:
            assert "round" in str(e)
            break
    else:
        pytest.fail(f"{bug} was not detected at n <= 10000")
    assert n == DETECTED_AT[bug]


def test_fractional_rewards_are_refused_with_the_cell():
    with pytest.raises(ValueError, match="round 2, arm 1 has 1/2"):
        dpdtol.bandit_law("thompson", [[1, 0], [0.5, 1]], None)
