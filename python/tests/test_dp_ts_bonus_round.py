"""DP-TS with its Beta parameters frozen at each arm's last observation
(``bonus_round="last-update"``, the reading of the public implementation
littlerain51/Leaning-DP-TS): the oracle accepts it under that reading and
rejects it under the default one, which reads ln t of the current round.

``FrozenDpTs`` is written here from DP-TS as ``dpdtol.bandit`` documents it
(src/bandit/policy/dp_ts.rs): per arm, the Hybrid mechanism's private sum of
its O observations (observation 1 and each closed block {2}, {3,4}, {5..8},
.. with one Lap(2/eps); the open block's observations in a binary mechanism
whose p-sums get Lap((m+1) 2/eps), 2^m the block's size); when an arm is
observed in round t, mu = clip(sum/O + c sqrt(8 ln(O+1) ln t)/(eps O)) and
its Beta parameters (mu O + 1, (1 - mu) O + 1) are stored; every later round
draws theta_j from the stored parameters, j = 0, 1 in order, and pulls the
first argmax.

The table has every reward 0 and eps = 100, c = 12 (as tests/bandit_oracle.rs
``dp_ts_bonus_round_two_sample_test``): in round 3 the current reading gives
both arms the same parameters (P(arm 0) = 1/2) and the frozen one gives arm 0,
observed in round 1, ln 1 = 0 (P(arm 0) ~ 0.41).
"""

import math

import numpy as np

from dpdtol import bandit_gof
from dpdtol.drive import drive_bandit
from dpdtol.testing import assert_bandit_policy

REWARDS = np.zeros((7, 2))
EPSILON, BONUS = 100.0, 12.0
SCALE = 2 / EPSILON


class HybridSum:
    """One arm's private sum: Chan, Shi & Song's Hybrid mechanism."""

    def __init__(self):
        self.n = self.m = 0
        self.arrays = self.tree_sum = 0.0
        self.items = 0
        self.alpha, self.alpha_hat = [], []

    def insert(self, x):
        self.n += 1
        if self.n == 1:
            self.arrays = x + np.random.laplace(0.0, SCALE)
            return
        self.tree_sum += x
        if self.items + 1 == 2**self.m:
            self.arrays += self.tree_sum + np.random.laplace(0.0, SCALE)
            self.m += 1
            self.items, self.tree_sum = 0, 0.0
            self.alpha, self.alpha_hat = [], []
            return
        self.items += 1
        level = (self.items & -self.items).bit_length() - 1
        while len(self.alpha) <= level:
            self.alpha.append(0.0)
            self.alpha_hat.append(0.0)
        total = x + sum(self.alpha[:level])
        for k in range(level):
            self.alpha[k] = self.alpha_hat[k] = 0.0
        self.alpha[level] = total
        self.alpha_hat[level] = total + np.random.laplace(0.0, (self.m + 1) * SCALE)

    def noisy(self):
        return self.arrays + sum(a for k, a in enumerate(self.alpha_hat) if self.items >> k & 1)


class FrozenDpTs:
    def __init__(self):
        self.t = 0
        self.sums = [HybridSum(), HybridSum()]
        self.params = [(1.0, 1.0), (1.0, 1.0)]

    def select(self):
        self.t += 1
        if self.t <= 2:
            return self.t - 1
        theta = [np.random.beta(a, b) for a, b in self.params]
        return int(np.argmax(theta))

    def update(self, arm, reward):
        s = self.sums[arm]
        s.insert(reward)
        o = s.n
        bonus = BONUS * math.sqrt(8 * math.log(o + 1) * math.log(self.t)) / (EPSILON * o)
        mu = min(max(s.noisy() / o + bonus, 0.0), 1.0)
        self.params[arm] = (mu * o + 1, (1 - mu) * o + 1)


def test_frozen_dp_ts_passes_under_its_reading():
    result = assert_bandit_policy(
        "dp-ts", FrozenDpTs, REWARDS, EPSILON, n=4000, seed=1, bonus=BONUS, bonus_round="last-update"
    )
    assert not result.rejected
    assert result.to_dict()["target"]["bonus_round"] == "last-update"


def test_frozen_dp_ts_is_rejected_under_the_current_round_reading():
    pulls = drive_bandit(FrozenDpTs, REWARDS, 4000, 1)
    result = bandit_gof("dp-ts", REWARDS, EPSILON, pulls, base=0, bonus=BONUS)
    assert result.rejected
    assert result.to_dict()["target"]["bonus_round"] == "current"
    assert (pulls[:, 2] == 0).mean() < 0.45
