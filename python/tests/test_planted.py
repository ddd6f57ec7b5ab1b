"""Implementations written from the papers' pseudo-code (planted.py), driven
through ``dpdtol.drive`` and tested against the exact laws: the correct ones
pass; each planted bug is rejected at the sample size recorded in
``DETECTED`` (the smallest of the doubling sequence ``SIZES`` at which the
test with its seed rejects: ``python tests/test_planted.py`` finds them again;
docs/python.md has the table); and ``explain=True`` names the convention a
correct implementation follows when it is tested against another.

The tables: DP-SE on ``PATTERN`` (rewards in {0, 1/2, 1}, K = 2, T = 8) with
short epochs (the printed R_1 is in the hundreds, so that no epoch would end)
and a large noise scale, so that an epoch's end eliminates an arm with a
probability far from 0 and 1; DP-UCB at its printed parameters, T = 6;
DP-UCB-Bound at its printed parameters on ``PATTERN`` and, for a tree level
missing, on the all-zero table ``ZEROS`` (T = 7) at eps = 24 (why:
``LEVEL_MISSING``); DP-TS (no law: the
two-sample test against dpdtol's simulation) on ``PATTERN`` at eps = 1 with the bonus constant 1/100 (the inferred 6 clips
every mean to 1 at T = 8, so that the pulls would not read the noise).
"""

from fractions import Fraction

import numpy as np
import pytest

import dpdtol
from dpdtol.drive import drive_bandit
from dpdtol.testing import assert_bandit_policy
from planted import DpSe, DpTs, DpUcb, DpUcbBound

ALPHA = 1e-3
SEED = 0
SIZES = [10 * 2**k for k in range(13)]  # 10 .. 40960


def pattern(horizon):
    """Row t: (t mod 3)/2 and ((7t + 1) mod 3)/2, as tests/bandit_oracle.rs."""
    return [[Fraction(t % 3, 2), Fraction((7 * t + 1) % 3, 2)] for t in range(horizon)]


PATTERN = pattern(8)
FLOATS = np.array(PATTERN, dtype=float)

# DP-SE: what is tested (the gof's parameters), what is run (the policy's).
DP_SE = dict(epoch_length=[2], noise_scale=4)
DP_SE_CASES = {
    # name: (policy keywords, gof keywords)
    "blocks": (dict(epoch_length=[1, 2], noise_scale=4), dict(epoch_length=[1, 2], noise_scale=4)),
    "round-robin": (
        dict(epoch_length=[1, 2], noise_scale=4, pull_order="round-robin"),
        dict(epoch_length=[1, 2], noise_scale=4, pull_order="round-robin"),
    ),
}

# DP-TS: the gof's keywords (the policy's bonus constant is 1/100 too).
DP_TS = dict(bonus=Fraction(1, 100))

# DP-UCB-Bound with a tree level missing (p-sums Lap((m - 1) 2/eps)): the
# one-leaf tree of an arm's observation 3 gets no noise, so its noisy sum
# after 3 observations is the one after 2 plus the reward. On the all-zero
# table the two are equal, and a comparison at counts (3, 3) repeats the one
# at (2, 2): the pulls 1212122 and 1221211 (each of probability 0.0530
# under the law) never occur. At eps = 24 the square-root bonus, not
# nu(n)/n, orders the arms, so the counts climb (2, 2), (3, 3) on most runs;
# at eps = 1 on PATTERN (T = 8) nu(3)/3 - nu(2)/2, about 4, decides most
# rounds, the missing noise changes the law by a chi-square noncentrality of
# about 5e-4 a sample (simulated), and the test would need some 10^5 samples.
ZEROS = [[Fraction(0), Fraction(0)]] * 7
LEVEL_MISSING_EPSILON = 24

# Each planted bug: (algorithm, policy factory, table, eps, gof keywords).
PLANTED = {
    "dp-se shared noise across arms": (
        "dp-se", lambda: DpSe(FLOATS.shape, 1, bug="shared-noise", **DP_SE), PATTERN, 1, DP_SE),
    "dp-se noise scale halved": (
        "dp-se", lambda: DpSe(FLOATS.shape, 1, bug="half-noise", **DP_SE), PATTERN, 1, DP_SE),
    "dp-se beta = 1/100 (delta for beta), tested at 1/T": (
        "dp-se", lambda: DpSe(FLOATS.shape, 1, beta=0.01, epoch_length=[2], noise_scale=10), PATTERN, 1,
        dict(epoch_length=[2], noise_scale=10)),
    "dp-ucb tree level missing": (
        "dp-ucb", lambda: DpUcb(FLOATS[:6].shape, 1, bug="level-missing"), PATTERN[:6], 1, {}),
    "dp-ucb noise scale halved": (
        "dp-ucb", lambda: DpUcb(FLOATS[:6].shape, 1, bug="half-noise"), PATTERN[:6], 1, {}),
    "dp-ucb-bound noise scales a third": (
        "dp-ucb-bound", lambda: DpUcbBound(2, 1, bug="third-noise"), PATTERN, 1, {}),
    "dp-ucb-bound tree level missing": (
        "dp-ucb-bound", lambda: DpUcbBound(2, LEVEL_MISSING_EPSILON, bug="level-missing"), ZEROS,
        LEVEL_MISSING_EPSILON, {}),
    "dp-ts noise scale halved": (
        "dp-ts", lambda: DpTs(FLOATS.shape, 1, bonus=0.01, bug="half-noise"), PATTERN, 1, DP_TS),
    "dp-ts tree level missing": (
        "dp-ts", lambda: DpTs(FLOATS.shape, 1, bonus=0.01, bug="level-missing"), PATTERN, 1, DP_TS),
}

# The smallest size of SIZES at which each planted bug is rejected with SEED
# (found by `python tests/test_planted.py`).
DETECTED = {
    "dp-se shared noise across arms": 160,
    "dp-se noise scale halved": 160,
    "dp-se beta = 1/100 (delta for beta), tested at 1/T": 160,
    "dp-ucb tree level missing": 640,
    "dp-ucb noise scale halved": 160,
    "dp-ucb-bound noise scales a third": 160,
    "dp-ucb-bound tree level missing": 160,
    "dp-ts noise scale halved": 40,
    "dp-ts tree level missing": 5120,
}


@pytest.mark.parametrize("order", list(DP_SE_CASES))
def test_dp_se_from_its_pseudo_code_passes(order):
    run, tested = DP_SE_CASES[order]
    result = assert_bandit_policy(
        "dp-se", lambda: DpSe(FLOATS.shape, 1, **run), PATTERN, 1, n=8000, seed=SEED, **tested)
    # Epochs end within the table: the noise is exercised.
    assert result.chi_square_tests[0]["groups"] >= 3


def test_dp_ucb_from_its_pseudo_code_passes():
    result = assert_bandit_policy("dp-ucb", lambda: DpUcb(FLOATS[:6].shape, 1), PATTERN[:6], 1, n=8000, seed=SEED)
    assert result.chi_square_tests[0]["groups"] >= 3


def test_dp_ucb_bound_from_its_pseudo_code_passes():
    result = assert_bandit_policy("dp-ucb-bound", lambda: DpUcbBound(2, 1), PATTERN, 1, n=8000, seed=SEED)
    assert result.chi_square_tests[0]["groups"] >= 3


def test_dp_ucb_bound_passes_where_a_missing_tree_level_is_detected():
    result = assert_bandit_policy("dp-ucb-bound", lambda: DpUcbBound(2, LEVEL_MISSING_EPSILON), ZEROS,
                                  LEVEL_MISSING_EPSILON, n=8000, seed=SEED)
    assert result.chi_square_tests[0]["groups"] >= 3


def test_dp_ts_from_its_pseudo_code_passes():
    assert_bandit_policy("dp-ts", lambda: DpTs(FLOATS.shape, 1, bonus=0.01), PATTERN, 1, n=8000, seed=SEED, **DP_TS)


@pytest.mark.parametrize("name", list(PLANTED))
def test_planted_bug_is_rejected_at_its_recorded_size(name):
    n = DETECTED[name]
    algorithm, policy, rewards, epsilon, tested = PLANTED[name]
    with pytest.raises(AssertionError, match="first departs|joint law|two-sample"):
        assert_bandit_policy(algorithm, policy, rewards, epsilon, n=n, seed=SEED, alpha=ALPHA, **tested)


# Convention changes: (the policy's reading, the reading tested, the gof's
# other keywords, the table, n), the explain grid's names of each reading.
CONVENTIONS = {
    "round-robin tested as blocks": (
        dict(pull_order="round-robin"), {}, dict(epoch_length=[1, 2], noise_scale=4), PATTERN, 2000,
        ("1/T", "round-robin", "floor-plus-one"), ("1/T", "blocks", "floor-plus-one")),
    "beta 1/100 tested at 1/T": (
        dict(beta=0.01), {}, dict(epoch_length=[2], noise_scale=10), PATTERN, 4000,
        ("1/100", "blocks", "floor-plus-one"), ("1/T", "blocks", "floor-plus-one")),
    # The printed lengths at beta = 1/2, eps = 1: R_1 = floor(128 ln 32) + 1
    # = 444; without the + 1, 443: an epoch ends within 900 rounds.
    "floor tested as floor-plus-one": (
        dict(beta=0.5, rounding="floor"), dict(beta=Fraction(1, 2)), {}, pattern(900), 200,
        ("1/2", "blocks", "floor"), ("1/2", "blocks", "floor-plus-one")),
}


@pytest.mark.parametrize("name", list(CONVENTIONS))
def test_explain_names_the_convention_a_correct_implementation_follows(name):
    run, tested, common, rewards, n, planted, default = CONVENTIONS[name]
    shape = (len(rewards), 2)
    pulls = drive_bandit(lambda: DpSe(shape, 1, **common, **run), rewards, n, SEED)
    result = dpdtol.bandit_gof("dp-se", rewards, 1, pulls, base=0, explain=True, **tested, **common)
    assert result.rejected, name
    fits = {(f["beta"], f["pull_order"], f["rounding"]): f for f in result.explain}
    assert not fits[planted]["reject"], (name, fits[planted])
    assert fits[default]["reject"], (name, fits[default])
    # The report names the reading it tested.
    target = result.to_dict()["target"]
    assert (target["pull_order"], target["rounding"]) == default[1:], target


def smallest_detecting_size(name):
    """The smallest n of SIZES at which the planted bug ``name`` is rejected
    (None: not at the largest). Run i's pulls depend on (SEED, i) only, so
    the samples of each n are the first n of the largest."""
    algorithm, policy, rewards, epsilon, tested = PLANTED[name]
    pulls = drive_bandit(policy, rewards, SIZES[-1], SEED)
    for n in SIZES:
        if dpdtol.bandit_gof(algorithm, rewards, epsilon, pulls[:n], base=0, alpha=ALPHA, **tested).rejected:
            return n
    return None


if __name__ == "__main__":
    for name in PLANTED:
        print(f"{name}: {smallest_detecting_size(name)}")
