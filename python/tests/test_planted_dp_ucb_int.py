"""DP-UCB-INT (Tossou & Dimitrakakis, AAAI 2016, arXiv:1511.08681,
Algorithm 3, as dpdtol reads it: src/bandit/policy/dp_ucb_int.rs) written
here from its pseudo-code with numpy, driven through ``dpdtol.drive`` and
tested against its certified law (K = 2 at ε = 1 and 1/2, intervals f = 1
and 2; K = 3 at ε = 1 and 1/2, where kept indices nest): the correct policy
passes; each planted bug (half the noise at K = 2; at K = 3, ε = 1/2, every
index redrawn at every round, none kept) is rejected at the sample size
recorded in ``DETECTED`` (the smallest of the doubling sequence ``SIZES`` at
which the test with its seed rejects: ``python
tests/test_planted_dp_ucb_int.py`` finds them again).
"""

import math
from fractions import Fraction

import numpy as np
import pytest

import dpdtol
from dpdtol.drive import drive_bandit
from dpdtol.testing import assert_bandit_policy

ALPHA = 1e-3
SEED = 0
SIZES = [10 * 2**k for k in range(13)]  # 10 .. 40960

# Rows t = 0..5: (t mod 3)/2 and ((7t + 1) mod 3)/2, as test_planted.py.
REWARDS = [[Fraction(t % 3, 2), Fraction((7 * t + 1) % 3, 2)] for t in range(6)]


class DpUcbInt:
    """DP-UCB-INT as dpdtol reads Algorithm 3:

        f <- ceil(1/eps); v = 1.1
        for t = 1..K f: pull arm (t - 1) mod K
        for t > K f:
          for each arm a whose count n_a is a multiple of f:
            I_a <- S_a/n_a + Lap(b/n_a^(1 - v/2)) + sqrt(2 ln t/n_a)   (b = 1)
          pull argmax_a I_a (the first maximum)

    Planted bugs: ``bug="half-noise"``, b = 1/2; ``bug="redraw"``, every
    arm draws a fresh index at every round after round-robin (no index
    kept).
    """

    def __init__(self, arms, epsilon, rate=1.1, bug=None):
        self.f = max(1, math.ceil(1 / epsilon))
        self.rate = rate
        self.b = 0.5 if bug == "half-noise" else 1.0
        self.redraw = bug == "redraw"
        self.n = [0] * arms
        self.s = [0.0] * arms
        self.index = [0.0] * arms
        self.t = 0

    def select(self):
        t = self.t + 1
        k = len(self.n)
        if t <= k * self.f:
            return (t - 1) % k
        for a in range(k):
            if self.redraw or self.n[a] % self.f == 0:
                scale = self.b / self.n[a] ** (1 - self.rate / 2)
                self.index[a] = (self.s[a] / self.n[a] + np.random.laplace(0.0, scale)
                                 + math.sqrt(2 * math.log(t) / self.n[a]))
        return int(np.argmax(self.index))

    def update(self, arm, reward):
        self.t += 1
        self.n[arm] += 1
        self.s[arm] += reward


# The smallest size of SIZES at which each planted bug is rejected with SEED
# (found by `python tests/test_planted_dp_ucb_int.py`).
DETECTED = {"half-noise": 160, "redraw": 10}


def test_dp_ucb_int_from_its_pseudo_code_passes():
    result = assert_bandit_policy("dp-ucb-int", lambda: DpUcbInt(2, 1), REWARDS, 1, n=8000, seed=SEED)
    assert result.chi_square_tests[0]["groups"] >= 3


def test_dp_ucb_int_half_noise_is_rejected_at_its_recorded_size():
    n = DETECTED["half-noise"]
    with pytest.raises(AssertionError, match="first departs|joint law"):
        assert_bandit_policy("dp-ucb-int", lambda: DpUcbInt(2, 1, bug="half-noise"), REWARDS, 1,
                             n=n, seed=SEED, alpha=ALPHA)


def test_dp_ucb_int_with_kept_indices_passes():
    # Rows 0..7 of the same pattern; at epsilon = 1/2 (f = 2) rounds 5-8 keep indices.
    rewards = [[Fraction(t % 3, 2), Fraction((7 * t + 1) % 3, 2)] for t in range(8)]
    result = assert_bandit_policy("dp-ucb-int", lambda: DpUcbInt(2, 0.5), rewards, Fraction(1, 2), n=8000, seed=SEED)
    assert result.chi_square_tests[0]["groups"] >= 3


def test_dp_ucb_int_with_three_arms_passes():
    # Three arms at epsilon = 1: each round's draw against both others'.
    rewards = [[Fraction(t % 3, 2), Fraction((7 * t + 1) % 3, 2), Fraction((5 * t + 2) % 3, 2)] for t in range(6)]
    result = assert_bandit_policy("dp-ucb-int", lambda: DpUcbInt(3, 1), rewards, 1, n=8000, seed=SEED)
    assert result.chi_square_tests[0]["groups"] >= 3


# Three arms at epsilon = 1/2 (f = 2): round-robin for 6 rounds, then a fresh
# draw that beats the kept index is kept above it (rounds 7-10).
NESTED_REWARDS = [[Fraction(t % 3, 2), Fraction((7 * t + 1) % 3, 2), Fraction((5 * t + 2) % 3, 2)]
                  for t in range(10)]


def test_dp_ucb_int_with_three_arms_and_kept_indices_passes():
    result = assert_bandit_policy("dp-ucb-int", lambda: DpUcbInt(3, 0.5), NESTED_REWARDS, Fraction(1, 2),
                                  n=8000, seed=SEED)
    assert result.chi_square_tests[0]["groups"] >= 10


def test_dp_ucb_int_redrawing_kept_indices_is_rejected_at_its_recorded_size():
    # The redrawing policy pulls kept indices below the top, which the law
    # gives probability 0.
    n = DETECTED["redraw"]
    with pytest.raises(AssertionError, match="probability 0|first departs|joint law"):
        assert_bandit_policy("dp-ucb-int", lambda: DpUcbInt(3, 0.5, bug="redraw"), NESTED_REWARDS,
                             Fraction(1, 2), n=n, seed=SEED, alpha=ALPHA)


# Each planted bug: its policy, reward table and epsilon.
PLANTED = {
    "half-noise": (lambda: DpUcbInt(2, 1, bug="half-noise"), REWARDS, 1),
    "redraw": (lambda: DpUcbInt(3, 0.5, bug="redraw"), NESTED_REWARDS, Fraction(1, 2)),
}


def smallest_detecting_size(bug):
    """The smallest n of SIZES at which the planted bug is rejected (None:
    not at the largest); run i's pulls depend on (SEED, i) only."""
    policy, rewards, epsilon = PLANTED[bug]
    pulls = drive_bandit(policy, rewards, SIZES[-1], SEED)
    for n in SIZES:
        if dpdtol.bandit_gof("dp-ucb-int", rewards, epsilon, pulls[:n], base=0, alpha=ALPHA).rejected:
            return n
    return None


if __name__ == "__main__":
    for bug in PLANTED:
        print(f"{bug}: {smallest_detecting_size(bug)}")
