"""The rest of the Python API: exact values where they exist (each derived
by hand in a comment), certified enclosures of known constants, and errors
as Python exceptions."""

import math
from fractions import Fraction

import numpy as np
import pytest

import dpdtol


def test_mechanism_law_exact_with_a_rational_unit_weight():
    # Gumbel noise = softmax: P(i) ∝ w^{L_i}; w = 1/2, L = (0, 1, 2) gives
    # weights 1, 1/2, 1/4, total 7/4: (4/7, 2/7, 1/7).
    law = dpdtol.mechanism_law([0, 1, 2], noise="gumbel", unit_weight=Fraction(1, 2))
    assert law.kind == "exact"
    assert law.exact == (Fraction(4, 7), Fraction(2, 7), Fraction(1, 7))
    # Permute-and-flip, K = 2, weights p = (1, 1/2): P(1) = p_1 ∫_0^1 (1 - p_0 x) dx
    # = (1/2)(1 - 1/2) = 1/4, so P = (3/4, 1/4).
    pf = dpdtol.mechanism_law([0, 1], noise="exponential", unit_weight="1/2")
    assert pf.exact == (Fraction(3, 4), Fraction(1, 4))


def test_mechanism_law_certified_encloses_the_logistic():
    # Gumbel, β = 2, K = 2: P(0) = 1 / (1 + e^{-1/2}).
    law = dpdtol.mechanism_law([0, 1], noise="gumbel", scale=2)
    assert law.kind == "certified" and law.exact is None
    lo, hi = law.values[0].interval
    p0 = 1 / (1 + math.exp(-0.5))
    assert lo <= Fraction(p0) * (1 + Fraction(1, 10**14)) and Fraction(p0) * (1 - Fraction(1, 10**14)) <= hi
    assert hi - lo < Fraction(1, 10**30)


def test_floats_are_read_by_their_decimal_form():
    # 0.1 is read as 1/10: the law at unit weight 1/2 is exact (2^{-1/10} is
    # not rational, so use losses whose gaps are integers: 0.1 and 1.1).
    law = dpdtol.mechanism_law([0.1, 1.1], noise="gumbel", unit_weight=0.5)
    assert law.exact == (Fraction(2, 3), Fraction(1, 3))


def test_sequence_law_of_ftl_is_exact_and_probability_multiplies():
    # ftl on K = 2: round 1 ties (lowest index 0); after round 1 (losses
    # (1, 0)) it plays 1. Every choice is a point mass.
    losses = [[1, 0], [0, 0], [0, 0]]
    law = dpdtol.sequence_law("ftl", losses, epsilon=1)
    assert law.kind == "exact"
    assert law.probability([1, 2, 2]).exact == 1
    assert law.probability([1, 1, 2]).exact == 0


def test_sequence_law_schedule_is_dyadic():
    law = dpdtol.sequence_law("prefix-softmax", np.zeros((7, 3)), epsilon=1)
    assert [(c.plays, c.reads) for c in law.schedule] == [
        (range(1, 2), range(1, 1)),
        (range(2, 4), range(1, 2)),
        (range(4, 8), range(2, 4)),
    ]
    # All losses equal: every choice is uniform, exactly 1/3 enclosed.
    for choice in law.choices:
        for v in choice:
            lo, hi = v.interval
            assert lo <= Fraction(1, 3) <= hi


def test_sequence_probability_certified_is_an_enclosure():
    losses = [[0, 1], [1, 0], [0, 1]]
    law = dpdtol.sequence_law("wu-wang", losses, epsilon=1, noise="gumbel", resample=False)
    value = law.probability([2, 1, 1])
    assert value.exact is None and isinstance(value, dpdtol.Value)
    lo, hi = value.interval
    # J_0 uniform (1/2), J_1 = softmax at β = 2 on G = (0, 1): P(0) = 1/(1+e^{-1/2}).
    p = 0.5 / (1 + math.exp(-0.5))
    assert float(lo) <= p * (1 + 1e-12) and p * (1 - 1e-12) <= float(hi)


@pytest.mark.parametrize(
    "call",
    [
        lambda: dpdtol.sequence_law("no-such-algorithm", [[0, 1]], 1),
        lambda: dpdtol.sequence_law("wu-wang", [[0, 1], [0]], 1, noise="gumbel", resample=False),
        lambda: dpdtol.sequence_law("wu-wang", [[0, 2]], 1, noise="gumbel", resample=False),
        lambda: dpdtol.sequence_law("wu-wang", [[0, 1]], -1, noise="gumbel", resample=False),
        lambda: dpdtol.sequence_law("wu-wang", [], 1, noise="gumbel", resample=False),
        lambda: dpdtol.sequence_law("prefix-softmax", [[0, 1]], 1, noise="gumbel"),
        lambda: dpdtol.mechanism_law([0, 1], noise="gumbel", scale=1, unit_weight="1/2"),
        lambda: dpdtol.mechanism_law([0, 1], scale=1),
        lambda: dpdtol.mechanism_law([0, 1], noise="cauchy", scale=1),
        lambda: dpdtol.mechanism_law(["abc", 1], noise="gumbel", scale=1),
        lambda: dpdtol.mechanism_law([0, 1], noise="gumbel", scale=float("nan")),
        lambda: dpdtol.gof("ftl", [[0, 1]], 1, np.zeros((3, 2), dtype=int)),
        lambda: dpdtol.gof("ftl", [[0, 1]], 1, np.zeros(3, dtype=int)),
        lambda: dpdtol.gof("ftl", [[0, 1]], 1, np.full((3, 1), 0.5)),
        lambda: dpdtol.gof("ftl", [[0, 1]], 1, np.zeros((3, 1), dtype=int), alpha=2),
        lambda: dpdtol.gof("ftl", [[0, 1]], 1, np.full((3, 1), -1)),
        lambda: dpdtol.gof("ftl", [[0, 1]], 1, np.zeros((3, 1), dtype=int), one_based=True),
        lambda: dpdtol.gof("ftl", [[0, 1]], 1, np.zeros((3, 1), dtype=int), base=2),
        lambda: dpdtol.regret("ftl", ["1/2", "3/2"], "deterministic", 10, 1),
        lambda: dpdtol.regret("ftl", ["1/2", "1/4"], "sideways", 10, 1),
    ],
)
def test_bad_input_raises_value_error(call):
    with pytest.raises(ValueError):
        call()


def test_too_large_enumeration_names_its_size_and_force():
    with pytest.raises(dpdtol.TooLargeError, match="force"):
        dpdtol.check_privacy("ftl", 3, 12, [0, 1], 1)


def test_gof_reports_the_first_support_violation():
    # ftl on these losses plays 1, 2, 2 surely (one choice a round); row 1
    # plays 1 at round 3.
    samples = np.array([[1, 2, 2], [1, 2, 1], [1, 2, 2]])
    result = dpdtol.gof("ftl", [[1, 0], [0, 0], [0, 0]], 1, samples)
    assert result.rejected and result.support_violation["sample"] == 1
    assert "choice 2 (round 3) selects action 1, which has probability 0" in result.support_violation["reason"]
    assert "outside the support" in str(result)


def test_mechanism_gof_out_of_range_action():
    result = dpdtol.mechanism_gof([0, 1], np.array([1, 2, 3]), noise="gumbel", scale=1)
    assert result.rejected and "action 3 is not one of the K = 2 actions 1 to 2" in result.support_violation["reason"]


def test_sequence_and_bandit_probabilities_are_one_type():
    # ftl: one sequence of probability 1; dp-se with its printed epochs
    # pulls arm 1 throughout, probability 1: both a Value, exact.
    law = dpdtol.sequence_law("ftl", [[1, 0], [0, 0], [0, 0]], epsilon=1)
    bandit = dpdtol.bandit_law("dp-se", [[0.5, 0.25]] * 3, epsilon=1)
    p, q = law.probability([1, 2, 2]), bandit.probability([1, 1, 1])
    assert type(p) is type(q) is dpdtol.Value
    assert p.exact == q.exact == 1 and p.interval == q.interval == (1, 1) and p.approx == q.approx == 1.0
    # Both number actions from the law's base unless told otherwise.
    assert law.probability([0, 1, 1], base=0) == p and bandit.probability([0, 0, 0], base=0) == q
    zero = law.probability([2, 2, 2])
    assert zero == bandit.probability([2, 2, 2]) and zero.exact == 0
