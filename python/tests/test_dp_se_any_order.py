"""DP-SE whose pulls inside an epoch follow no fixed order, fed its rewards by
pull (arm a's n-th pull receives ``rewards[n - 1, a]``): the oracle tests its
per-epoch pull counts (``pull_order="any", reward_index="pull"``).

``RoundRobinDpSe`` is written here from the pseudo-code of DP-SE (Sajed &
Sheffet 2019, as ``dpdtol.bandit`` documents it) with fixed epoch lengths:
each epoch pulls both surviving arms R times, round-robin; then
mu_i = (S_i + Lap(b)) / R, and arm j is dropped when
max mu - mu_j > 2 (sqrt(ln(16 e^2 / beta) / (2R)) + ln(8 e^2 / beta) / (eps R)).
"""

import math

import numpy as np
import pytest

from dpdtol.drive import drive_bandit
from dpdtol.testing import assert_bandit_policy

# K = 2, T = 12 in quarters: by pull, epoch 1 reads rows 1-2 of both arms; by
# round, round-robin reads arm 0's rows 1, 3 and arm 1's rows 2, 4.
REWARDS = np.array(
    [[0, 0], [0, 0], [4, 4], [0, 0], [1, 3], [4, 0], [2, 2], [0, 4], [3, 1], [4, 4], [1, 0], [2, 3]]
) / 4
EPSILON, SCALE, R, BETA = 4.0, 2.0, 2, 1 / 12
PARAMS = dict(epoch_length=[R], noise_scale="2", pull_order="any", reward_index="pull")


class RoundRobinDpSe:
    def __init__(self, reversed_arms=False):
        self.alive = [1, 0] if reversed_arms else [0, 1]
        self.epoch, self.done = 1, 0
        self.sums = {0: 0.0, 1: 0.0}
        self.next = 0

    def select(self):
        if len(self.alive) == 1:
            return self.alive[0]
        return self.alive[self.done % 2]

    def update(self, arm, reward):
        if len(self.alive) == 1:
            return
        self.sums[arm] += reward
        self.done += 1
        if self.done < 2 * R:
            return
        e2 = self.epoch**2
        radius = math.sqrt(math.log(16 * e2 / BETA) / (2 * R)) + math.log(8 * e2 / BETA) / (EPSILON * R)
        noisy = {i: (self.sums[i] + np.random.laplace(0.0, SCALE)) / R for i in self.alive}
        best = max(noisy.values())
        self.alive = [i for i in self.alive if best - noisy[i] <= 2 * radius]
        self.epoch, self.done = self.epoch + 1, 0
        self.sums = {0: 0.0, 1: 0.0}


def test_a_round_robin_dp_se_fed_by_pull_passes():
    result = assert_bandit_policy("dp-se", RoundRobinDpSe, REWARDS, 4, n=4000, seed=1, alpha=1e-6, **PARAMS)
    assert not result.rejected


def test_the_other_order_passes_too():
    make = lambda: RoundRobinDpSe(reversed_arms=True)  # noqa: E731
    assert not assert_bandit_policy("dp-se", make, REWARDS, 4, n=4000, seed=2, alpha=1e-6, **PARAMS).rejected


def test_fed_by_round_it_is_rejected():
    pulls = drive_bandit(RoundRobinDpSe, REWARDS, 4000, 3, reward_index="round")
    from dpdtol import bandit_gof

    result = bandit_gof("dp-se", REWARDS, 4, pulls, alpha=1e-6, base=0, **PARAMS)
    assert result.rejected


def test_any_order_by_round_is_refused_in_one_line():
    pulls = drive_bandit(RoundRobinDpSe, REWARDS, 10, 3, reward_index="pull")
    from dpdtol import bandit_gof

    with pytest.raises(ValueError, match="reward_index pull"):
        bandit_gof("dp-se", REWARDS, 4, pulls, base=0, **dict(PARAMS, reward_index=None))
