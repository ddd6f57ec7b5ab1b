"""The bandit oracle from Python: numpy implementations of Anytime-Lazy-UCB
(K = 2 and 3) and DP-SE written from the papers' pseudo-code
(bandit_reference.py) pass ``dpdtol.bandit_gof`` at 10^5 samples on several
reward tables, and each planted bug fails it; Lazy-DP-TS, which has no law,
is held to dpdtol's simulation by the two-sample test. Fixed seeds:
deterministic.

Each bug is tested at the smallest sample size, on the grid 100, 200, 500,
1000, 2000, 5000, 10^4, 2*10^4, 5*10^4, 10^5, at which the gof rejects it
with the seed below (``DETECTED_AT``): the figure the test holds.
"""

import math
import re

import numpy as np
import pytest

import dpdtol
from bandit_reference import anytime_lazy_ucb, dp_se, lazy_dp_ts

N = 100_000
ALPHA = 1e-6  # a false rejection has probability < 1e-6 (the default is 1e-3)
EPSILON = 1

# Anytime-Lazy-UCB, K = 2, T = 8 (64 candidate sequences): rewards that
# change every round, and constant ones.
ALU_CHANGING = np.array(
    [[0.5, 0.25], [1, 0], [0, 1], [0.75, 0.5], [0.5, 0.5], [1, 0.25], [0, 0], [0.25, 1]]
)
ALU_CONSTANT = np.array([[0.75, 0.25]] * 8)
# K = 3, T = 7 (81 candidate sequences).
ALU_THREE = np.array(
    [[0.5, 0, 1], [1, 1, 0], [0, 0.5, 1], [1, 0, 0.5], [0.5, 0.5, 0.5], [1, 0, 0], [0, 1, 0.25]]
)
# DP-SE, K = 2, T = 48: epochs of R = 8 pulls of each arm and noise of scale
# 8 on each block's sum, so that both the elimination and its absence have
# sizeable probability at the ends of epochs 1 and 2 (rounds 16 and 32).
DP_SE_PARAMS = dict(epoch_length=[8], noise_scale=8)
DP_SE_APART = np.array([[1.0, 0.0]] * 48)
DP_SE_MIXED = np.random.default_rng(5).choice([0, 0.25, 0.5, 0.75, 1], size=(48, 2))


def alu(rewards, n, seed, bug=None):
    return anytime_lazy_ucb(rewards, EPSILON, n, np.random.default_rng(seed), bug=bug)


def dpse(rewards, n, seed, bug=None):
    return dp_se(rewards, EPSILON, n, np.random.default_rng(seed), bug=bug, epoch_lengths=DP_SE_PARAMS["epoch_length"], noise_scale=DP_SE_PARAMS["noise_scale"])


CASES = {
    "alu-changing": ("anytime-lazy-ucb", ALU_CHANGING, {}, alu),
    "alu-constant": ("anytime-lazy-ucb", ALU_CONSTANT, {}, alu),
    "alu-three-arms": ("anytime-lazy-ucb", ALU_THREE, {}, alu),
    "dp-se-apart": ("dp-se", DP_SE_APART, DP_SE_PARAMS, dpse),
    "dp-se-mixed": ("dp-se", DP_SE_MIXED, DP_SE_PARAMS, dpse),
}


def check(case, samples, base=0):
    """gof of samples numbered from ``base`` (0: the numpy implementations' argmax)."""
    algorithm, rewards, params, _ = CASES[case]
    return dpdtol.bandit_gof(algorithm, rewards, EPSILON, samples, alpha=ALPHA, base=base, **params)


def describe(result):
    return f"p_min={result.p_min:.3g}, tests={list(result.chi_square_tests)}, violation={result.support_violation}"


@pytest.mark.parametrize("case", CASES)
def test_correct_numpy_implementation_passes(case):
    samples = CASES[case][3](CASES[case][1], N, seed=1)
    result = check(case, samples)
    assert not result.rejected, f"{case}: {describe(result)}"
    assert result.support_violation is None
    assert result.law.kind == "certified" and result.law.accepted
    assert result.chi_square_tests[0]["groups"] > 2  # the test sees more than one decision


# (case, bug, smallest n of the grid that rejects it)
DETECTED_AT = [
    ("alu-changing", "noise-on-mean", 1_000),
    ("alu-changing", "log2", 2_000),
    ("alu-changing", "epoch-off-by-one", 100),
    ("alu-changing", "bonus-constant", 500),
    ("alu-changing", "ties-last", 100),
    ("alu-three-arms", "noise-on-mean", 2_000),
    ("alu-three-arms", "log2", 50_000),
    ("alu-three-arms", "epoch-off-by-one", 100),
    ("alu-three-arms", "bonus-constant", 2_000),
    ("alu-three-arms", "ties-last", 100),
    ("dp-se-apart", "noise-on-mean", 100),
    ("dp-se-apart", "log2", 200),
    ("dp-se-apart", "margin-constant", 100),
    ("dp-se-apart", "epoch-off-by-one", 2_000),
    ("alu-constant", "noise-on-mean", 500),
    ("alu-constant", "log2", 2_000),
    ("alu-constant", "epoch-off-by-one", 100),
    ("alu-constant", "bonus-constant", 1_000),
    ("alu-constant", "ties-last", 100),
    ("dp-se-mixed", "noise-on-mean", 100),
    ("dp-se-mixed", "log2", 500),
    ("dp-se-mixed", "margin-constant", 100),
    ("dp-se-mixed", "epoch-off-by-one", 2_000),
]


@pytest.mark.parametrize("case,bug,n", DETECTED_AT)
def test_planted_bug_is_detected(case, bug, n):
    samples = CASES[case][3](CASES[case][1], n, seed=2, bug=bug)
    result = check(case, samples)
    assert result.rejected, f"{case}, {bug} at n = {n}: {describe(result)}"
    if bug == "ties-last":
        # Line 2 pulls arm 0 first; the bug pulls the last arm first.
        violation = result.support_violation
        assert violation["sample"] == 0 and "probability 0" in violation["reason"], violation
    else:
        assert result.support_violation is None, f"{bug} changes the law, not its support"


def test_ties_of_probability_zero_change_nothing():
    # From round K + 1 on, two indices tie with probability 0: breaking ties
    # toward the last arm there leaves the law as it is, and the test agrees.
    samples = alu(ALU_THREE, N, seed=1, bug="ties-last-after-line-2")
    result = check("alu-three-arms", samples)
    assert not result.rejected, describe(result)


def test_dpdtol_own_sampler_passes():
    samples = dpdtol.bandit_sample("anytime-lazy-ucb", ALU_THREE, EPSILON, N, seed=3)
    result = check("alu-three-arms", samples, base=1)
    assert not result.rejected, describe(result)
    assert result.chi_square_tests[0]["cells"] == len(result.law.sequences)


def test_law_sums_to_one_within_its_enclosure():
    for algorithm, rewards, params, _ in CASES.values():
        law = dpdtol.bandit_law(algorithm, rewards, EPSILON, **params)
        lo, hi = (float(x) for x in law.total)
        assert lo <= 1 <= hi and hi - lo < 1e-20
        assert abs(law.approx.sum() - 1) < 1e-12


def laplace_difference_tail(u, b):
    """P(Z0 - Z1 > u) for i.i.d. Lap(b): 1/2 e^(-u/b) (1 + u/(2b)) for u >= 0."""
    if u < 0:
        return 1 - laplace_difference_tail(-u, b)
    return 0.5 * math.exp(-u / b) * (1 + u / (2 * b))


def test_dp_se_probability_derived_by_hand():
    # R_1 = 1, T = 3, beta = 1/3: round 1 pulls arm 0 (reward x), round 2 arm 1
    # (reward y); arm 0 is eliminated, so round 3 pulls arm 1, iff
    # (y + Z1) - (x + Z0) > 2 c_1 with c_1 = sqrt(ln(8*2/beta)/2) + ln(4*2/beta)/eps.
    x, y, b = 0.25, 1.0, 4
    rewards = [[x, 0.5], [0.75, y], [0, 0]]
    law = dpdtol.bandit_law("dp-se", rewards, EPSILON, epoch_length=[1], noise_scale=b)
    c = math.sqrt(math.log(8 * 2 * 3) / 2) + math.log(4 * 2 * 3) / EPSILON
    expected = laplace_difference_tail(2 * c - (y - x), b)
    p = law.probability([1, 2, 2])
    assert p.exact is None and abs(p.approx - expected) < 1e-12 * expected
    lo, hi = p.interval
    assert lo <= hi and float(hi - lo) < 1e-20
    assert law.probability([1, 2, 1]).approx == pytest.approx(1 - expected, rel=1e-12)


def test_equal_indices_give_an_exact_half():
    # Round 3 of Anytime-Lazy-UCB, K = 2: both arms have O = 1 and the same
    # bonus, so arm 0 is pulled iff x + Z0 >= y + Z1; with x = y that is 1/2.
    law = dpdtol.bandit_law("anytime-lazy-ucb", [[0.5, 0], [1, 0.5], [0, 1]], EPSILON)
    assert law.kind == "exact"
    assert law.exact == (1 / 2, 1 / 2)
    assert law.probability([1, 2, 1]).exact == law.probability([1, 2, 2]).exact == 0.5
    # Numbered from 0 on request, as numpy's argmax numbers them.
    zero = dpdtol.bandit_law("anytime-lazy-ucb", [[0.5, 0], [1, 0.5], [0, 1]], EPSILON, base=0)
    assert zero.sequences.tolist() == [[0, 1, 0], [0, 1, 1]] and zero.probability([0, 1, 1]).exact == 0.5


def test_ucb1_is_a_point_mass_without_epsilon():
    law = dpdtol.bandit_law("ucb1", ALU_THREE, None)
    assert law.kind == "exact" and law.exact == (1,) and law.sequences.shape == (1, 7)
    assert law.sequences[0, :3].tolist() == [1, 2, 3]  # each arm once first
    samples = dpdtol.bandit_sample("ucb1", ALU_THREE, None, 100, seed=1)
    assert (samples == law.sequences[0]).all()
    assert not dpdtol.bandit_gof("ucb1", ALU_THREE, None, samples).rejected
    with pytest.raises(ValueError, match="epsilon does not apply to ucb1"):
        dpdtol.bandit_law("ucb1", ALU_THREE, 1)
    with pytest.raises(ValueError, match="epsilon is required by dp-se"):
        dpdtol.bandit_law("dp-se", DP_SE_APART, None)


def test_lazy_dp_ts_is_a_labelled_two_sample_test():
    # No law: a numpy Lazy-DP-TS is held against dpdtol's own simulation; a
    # sampler whose bonus constant is 1, not 3, is told apart.
    def two_sample(samples):
        return dpdtol.bandit_gof("lazy-dp-ts", ALU_CHANGING, EPSILON, samples, seed=4, alpha=ALPHA, base=0)

    good = two_sample(lazy_dp_ts(ALU_CHANGING, EPSILON, N, np.random.default_rng(1)))
    assert not good.rejected and good.law is None, describe(good)
    assert good.chi_square_tests[0]["name"].startswith("two-sample") and "approximate" in good.chi_square_tests[0]["name"]
    # Rejected from 5000 samples on (the grid above).
    bad = two_sample(lazy_dp_ts(ALU_CHANGING, EPSILON, 5_000, np.random.default_rng(1), bonus=1))
    assert bad.rejected, describe(bad)
    with pytest.raises(ValueError, match="no exact or certified law"):
        dpdtol.bandit_sample("lazy-dp-ts", ALU_CHANGING, EPSILON, 10, seed=1)
    with pytest.raises(ValueError, match="seed applies to lazy-dp-ts and dp-ts only"):
        dpdtol.bandit_gof("anytime-lazy-ucb", ALU_CHANGING, EPSILON, np.ones((1, 8), dtype=np.int64), seed=1)


def test_samples_numbered_from_one_by_default_and_reproducible():
    a = dpdtol.bandit_sample("anytime-lazy-ucb", ALU_CHANGING, EPSILON, 20_000, seed=5)
    b = dpdtol.bandit_sample("anytime-lazy-ucb", ALU_CHANGING, EPSILON, 20_000, seed=5)
    c = dpdtol.bandit_sample("anytime-lazy-ucb", ALU_CHANGING, EPSILON, 20_000, seed=6)
    assert a.shape == (20_000, 8) and a.dtype == np.int64
    assert np.array_equal(a, b) and not np.array_equal(a, c)
    assert a.min() == 1 and a.max() == 2
    one = check("alu-changing", a, base=1)
    zero = check("alu-changing", a - 1, base=0)
    former = dpdtol.bandit_gof(
        "anytime-lazy-ucb", ALU_CHANGING, EPSILON, a, one_based=True, alpha=ALPHA
    )
    assert zero.p_min == one.p_min == former.p_min and not one.rejected
    assert one.base == 1 and zero.base == 0 and one.target["algorithm"] == "anytime-lazy-ucb"
    with pytest.raises(ValueError, match="pass base=0"):
        check("alu-changing", a - 1, base=1)


@pytest.mark.parametrize(
    "call,message",
    [
        (lambda: dpdtol.bandit_law("anytime-lazy-ucb", ALU_CHANGING, 1, epoch_length=[2]),
         "epoch_length does not apply to anytime-lazy-ucb"),
        (lambda: dpdtol.bandit_law("dp-se", ALU_THREE, 1), "K = 2 arms"),
        (lambda: dpdtol.bandit_law("lazy-dp-ts", ALU_CHANGING, 1), "no exact or certified law"),
        (lambda: dpdtol.bandit_law("anytime-lazy-ucb", [[0.5, 1.5]] * 3, 1), "outside [0, 1]"),
        (lambda: dpdtol.bandit_law("anytime-lazy-ucb", ALU_CHANGING, 0), "epsilon must be positive"),
        (lambda: dpdtol.bandit_law("dp-se", DP_SE_APART, 1, epoch_length=[0]), "epoch_length"),
        (lambda: dpdtol.bandit_law("anytime-lazy-ucb", ALU_CHANGING, 1, noise_scale="-1"),
         "noise_scale must be positive"),
        (lambda: dpdtol.bandit_gof("anytime-lazy-ucb", ALU_CHANGING, 1, np.ones((5, 7), int)),
         "rounds"),
    ],
)
def test_errors_name_the_python_arguments(call, message):
    with pytest.raises(ValueError) as e:
        call()
    # No flag of an argument (lazy-dp-ts's message may name the command that audits it).
    flag = re.search(r"--(epoch-length|noise-scale|tree-scale|scale-factor|bonus|epsilon|force)", str(e.value))
    assert message in str(e.value) and flag is None, str(e.value)


def test_too_many_sequences_ask_for_force():
    with pytest.raises(dpdtol.TooLargeError, match="force=True"):
        dpdtol.bandit_law("anytime-lazy-ucb", [[0.5, 0.5]] * 20, 1)


def test_the_worked_example_runs():
    import doctest

    import dpdtol.bandit

    failed, attempted = doctest.testmod(dpdtol.bandit)
    assert attempted >= 8 and failed == 0
