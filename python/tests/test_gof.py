"""What the Python package must do: a correct numpy implementation
of wu-wang (Gumbel, B = 1) and of prefix-softmax passes ``dpdtol.gof`` at 10^5
samples, and each planted bug fails it. Fixed seeds: deterministic."""

import re

import numpy as np
import pytest

import dpdtol
from reference import prefix_softmax, wu_wang_gumbel_b1

N = 100_000
# ε = 2: wu-wang's Gumbel scale 2/ε = 1, so the law of a choice depends on
# the resampled sums more than on the noise (at ε = 1 the shared-uniform bug
# is seen only at p ~ 1e-7); prefix-softmax's η = min(ε/2, 1/8) = 1/8.
EPSILON = 2
ALPHA = 1e-6  # a false rejection has probability < 1e-6 (the default is 1e-3)


def _ww_losses():
    # T = 31, K = 3: five choices (rounds 1, 2-3, 4-7, 8-15, 16-31). Actions
    # 0 and 1 have the same loss every round, in {1/4, 1/2, 3/4}, action 2 a
    # loss in {0, 1/4, ..., 1}, drawn once (seed 10): with one uniform shared
    # by all actions, the resampled sums of actions 0 and 1 are equal.
    g = np.random.default_rng(10)
    a = g.choice([0.25, 0.5, 0.75], size=31)
    b = g.choice([0.0, 0.25, 0.5, 0.75, 1.0], size=31)
    return np.stack([a, a, b], axis=1)


WW_LOSSES = _ww_losses()

# prefix-softmax: inside every block, action 0 loses in the second half,
# action 1 in the first half, action 2 always 1/2, so a choice's law depends
# on the prefix length M_r it reads.
PS_LOSSES = np.array(
    [
        [1.0, 0.0, 0.5] if (t - 2 ** (t.bit_length() - 1)) * 2 >= 2 ** (t.bit_length() - 1) else [0.0, 1.0, 0.5]
        for t in range(1, 32)
    ]
)


def ww_gof(samples, base=0):
    # The numpy references number actions from 0 (argmax), dpdtol.sample from 1.
    return dpdtol.gof("wu-wang", WW_LOSSES, EPSILON, samples, noise="gumbel", resample=True, alpha=ALPHA, base=base)


def ps_gof(samples, base=0):
    return dpdtol.gof("prefix-softmax", PS_LOSSES, EPSILON, samples, alpha=ALPHA, base=base)


def describe(result):
    return f"p_min={result.p_min:.3g}, tests={list(result.chi_square_tests)}, violation={result.support_violation}"


def test_dpdtol_own_sampler_passes():
    # dpdtol's sampler (rand, ChaCha8) against its exact law: the harness itself.
    samples = dpdtol.sample("wu-wang", WW_LOSSES, EPSILON, N, seed=1, noise="gumbel", resample=True)
    result = ww_gof(samples, base=1)
    assert not result.rejected, describe(result)
    # Five choices and the joint law; at 10^5 samples every one of the 243
    # joint cells expects 5 or more (243 groups), so no rare-cell test runs.
    assert result.tests == len(result.chi_square_tests) == 6
    assert all(t["rare_cells"] is None for t in result.chi_square_tests)


def test_correct_numpy_wu_wang_passes():
    samples = wu_wang_gumbel_b1(WW_LOSSES, EPSILON, N, np.random.default_rng(2))
    result = ww_gof(samples)
    assert not result.rejected, describe(result)
    assert result.support_violation is None
    assert result.law.kind == "certified"  # e^(-1/2) is transcendental


@pytest.mark.parametrize("bug", ["boundary-play", "boundary-read", "scale", "shared-uniform"])
def test_buggy_numpy_wu_wang_fails(bug):
    samples = wu_wang_gumbel_b1(WW_LOSSES, EPSILON, N, np.random.default_rng(2), bug=bug)
    result = ww_gof(samples)
    assert result.rejected, f"{bug}: {describe(result)}"


def test_boundary_play_is_a_support_violation():
    samples = wu_wang_gumbel_b1(WW_LOSSES, EPSILON, N, np.random.default_rng(2), bug="boundary-play")
    result = ww_gof(samples)
    # J_r is first played at round 2^r + 1, inside the rounds of choice r.
    m = re.search(r"round (\d+) has action \d+ and round (\d+) has action", result.support_violation["reason"])
    assert m and int(m.group(2)) in (3, 5, 9, 17), result.support_violation


def test_shared_uniform_is_seen_in_the_marginals_or_jointly():
    # The bug leaves each resampled loss Bernoulli(l_j) but makes the actions'
    # resampled sums comonotone: the law of each later choice changes.
    samples = wu_wang_gumbel_b1(WW_LOSSES, EPSILON, N, np.random.default_rng(2), bug="shared-uniform")
    result = ww_gof(samples)
    choice_p = [t["p_value"] for t in result.chi_square_tests if t["name"] != "joint"]
    assert min(choice_p) < ALPHA, describe(result)


def test_correct_numpy_prefix_softmax_passes():
    samples = prefix_softmax(PS_LOSSES, EPSILON, N, np.random.default_rng(3))
    result = ps_gof(samples)
    assert not result.rejected, describe(result)


def test_prefix_softmax_wrong_prefix_law_fails():
    samples = prefix_softmax(PS_LOSSES, EPSILON, N, np.random.default_rng(3), bug="prefix-law")
    result = ps_gof(samples)
    assert result.rejected, describe(result)
    assert result.support_violation is None  # the bug changes the law, not the support


def test_one_based_samples_are_read_as_such():
    samples = prefix_softmax(PS_LOSSES, EPSILON, 20_000, np.random.default_rng(4))
    zero = ps_gof(samples)
    one = dpdtol.gof("prefix-softmax", PS_LOSSES, EPSILON, samples + 1, alpha=ALPHA)
    former = dpdtol.gof("prefix-softmax", PS_LOSSES, EPSILON, samples + 1, one_based=True, alpha=ALPHA)
    assert zero.p_min == one.p_min == former.p_min and not one.rejected


def test_reference_samples_number_actions_from_one_unless_base_0():
    one = dpdtol.sample("prefix-softmax", PS_LOSSES, EPSILON, 100, seed=5)
    zero = dpdtol.sample("prefix-softmax", PS_LOSSES, EPSILON, 100, seed=5, base=0)
    assert np.array_equal(one, zero + 1) and one.min() >= 1 and zero.min() == 0


def test_0_based_samples_read_as_1_based_name_the_fix():
    samples = prefix_softmax(PS_LOSSES, EPSILON, 100, np.random.default_rng(4))
    with pytest.raises(ValueError, match="below the first action 1 .pass base=0"):
        dpdtol.gof("prefix-softmax", PS_LOSSES, EPSILON, samples)


def test_samples_are_reproducible():
    a = dpdtol.sample("prefix-softmax", PS_LOSSES, EPSILON, 1000, seed=5)
    b = dpdtol.sample("prefix-softmax", PS_LOSSES, EPSILON, 1000, seed=5)
    c = dpdtol.sample("prefix-softmax", PS_LOSSES, EPSILON, 1000, seed=6)
    assert a.shape == (1000, 31) and a.dtype == np.int64
    assert np.array_equal(a, b) and not np.array_equal(a, c)
