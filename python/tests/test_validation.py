"""Python refuses what the command line refuses: arguments are checked by
type, never coerced, and refused with ValueError or TypeError naming the
Python argument."""

import math
import warnings

import numpy as np
import pytest

import dpdtol

LOSSES = [[0, 1], [1, 0], [0, "1/2"]]
WW = dict(noise="gumbel", resample=False)


@pytest.mark.parametrize("resample", ["0", "False", "1", math.nan, -1, 0, 1, 1.0])
def test_resample_is_a_boolean_only(resample):
    with pytest.raises(TypeError, match="resample: expected True or False"):
        dpdtol.sequence_law("wu-wang", LOSSES, 1, noise="gumbel", resample=resample)


@pytest.mark.parametrize("n", [0.5, 1.9, 2.0, True, "3"])
def test_n_is_an_integer_only(n):
    with pytest.raises(TypeError, match="^n: expected an integer"):
        dpdtol.sample("ftl", LOSSES, 1, n=n, seed=1)
    with pytest.raises(TypeError, match="^n: expected an integer"):
        dpdtol.bandit_sample("dp-se", [[0.5, 0.25]] * 3, 1, n=n, seed=1)


@pytest.mark.parametrize("seed", [2.7, 2.0, False, "2"])
def test_seed_is_an_integer_only(seed):
    with pytest.raises(TypeError, match="^seed: expected an integer"):
        dpdtol.sample("ftl", LOSSES, 1, n=3, seed=seed)


@pytest.mark.parametrize("seed", [-1, 2**64])
def test_seed_is_in_the_command_lines_range(seed):
    with pytest.raises(ValueError, match=r"^seed: expected an integer in 0..=18446744073709551615"):
        dpdtol.sample("ftl", LOSSES, 1, n=3, seed=seed)


@pytest.mark.parametrize("actions", [True, 2.0])
def test_a_bool_or_a_float_is_not_a_count(actions):
    with pytest.raises(TypeError, match="^actions: expected an integer"):
        dpdtol.mechanism_privacy("laplace", actions, [0, 1], 1)


@pytest.mark.parametrize("epsilon", [math.nan, math.inf, True])
def test_an_exact_number_is_finite_and_not_a_bool(epsilon):
    with pytest.raises((ValueError, TypeError), match="^epsilon: expected a"):
        dpdtol.sequence_law("ftl", LOSSES, epsilon)


def test_audit_without_an_algorithm_refuses_its_target():
    s = np.array([[1, 2], [2, 1]])
    for extra in (dict(losses=LOSSES, neighbour=LOSSES, epsilon=1), dict(epsilon=1), dict(resample=False)):
        with pytest.raises(ValueError, match="applies with algorithm only"):
            dpdtol.audit(s, s, **extra)


def test_bandit_privacy_refuses_a_negative_bonus_and_a_bonus_that_does_not_apply():
    with pytest.raises(ValueError, match="bonus"):
        dpdtol.bandit_privacy("hybrid-ucb", 3, [0, 1], 1, bonus=-1)
    with pytest.raises(ValueError, match="^invalid input: bonus does not apply to dp-se"):
        dpdtol.bandit_privacy("dp-se", 3, [0, 1], 1, bonus=-1, epoch_length=[1])


@pytest.mark.parametrize("digits", [10**9, 2**32 - 1, 19_729])
def test_digits_past_the_precision_cap_are_refused_not_an_abort(digits):
    with pytest.raises(ValueError, match="digits: at most 19728"):
        dpdtol.mechanism_law([0, 1], noise="laplace", scale=1, digits=digits)
    with pytest.raises(ValueError, match="digits: at most 19728"):
        dpdtol.sequence_law("wu-wang", LOSSES, 1, digits=digits, **WW)


def test_regret_digits_are_the_command_lines_range():
    for digits in (0, 301, 2**32 - 1):
        with pytest.raises(ValueError, match=r"^invalid input: digits expects an integer in 1..=300"):
            dpdtol.regret("ftl", [0.5, 0.25], "deterministic", 4, 1, digits=digits)


def test_alpha_and_confidence_are_levels():
    s = np.array([[1, 2, 2]])
    for alpha in (math.nan, 0, 1, -1):
        with pytest.raises(ValueError, match=r"^alpha: expected a number in \(0, 1\)"):
            dpdtol.gof("ftl", LOSSES, 1, s, alpha=alpha)
    with pytest.raises(TypeError, match="^confidence: expected a number"):
        dpdtol.audit(s, s, confidence="0.9")


def test_epoch_lengths_is_the_former_name_of_epoch_length():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        law = dpdtol.bandit_law("dp-se", [[0.5, 0.25]] * 3, 1, epoch_lengths=[1])
    assert any(issubclass(w.category, DeprecationWarning) and "epoch_length" in str(w.message) for w in caught)
    assert law.to_dict() if hasattr(law, "to_dict") else law.kind
    with pytest.raises(TypeError, match="former name"):
        dpdtol.bandit_law("dp-se", [[0.5, 0.25]] * 3, 1, epoch_length=[1], epoch_lengths=[1])


REWARDS = [[0.25, 0.0], [0.0, 0.75], [1, 0.5]]


@pytest.mark.parametrize("beta", ["1e-330", "1e-199999"])
def test_a_dp_se_beta_below_the_floating_point_range_is_refused(beta):
    # As the command line (tests/limits.rs): the schedule is computed in f64,
    # where such a β is 0 and the epoch length overflowed.
    with pytest.raises(ValueError, match=r"2\^-1022"):
        dpdtol.bandit_law("dp-se", REWARDS, 1, beta=beta)
    with pytest.raises(ValueError, match=r"2\^-1022"):
        dpdtol.bandit_privacy("dp-se", 3, [0, 1], 1, beta=beta)


@pytest.mark.parametrize("algorithm", ["hybrid-ucb", "dp-ucb-bound", "anytime-lazy-ucb"])
def test_a_huge_bonus_is_refused_by_the_exact_laws(algorithm):
    with pytest.raises(ValueError, match="1048576"):
        dpdtol.bandit_law(algorithm, REWARDS, 1, bonus="1e20")


def _listed(message):
    """The algorithm names in an unknown-algorithm refusal."""
    return set(message.split("expected one of ", 1)[1].rstrip(")").split(", "))


def test_an_unknown_bandit_algorithm_names_what_the_function_takes():
    table = [[1, 0], [0, 1]]
    with pytest.raises(ValueError, match="unknown bandit algorithm 'foo'") as law:
        dpdtol.bandit_law("foo", table, 1)
    with pytest.raises(ValueError, match="unknown bandit algorithm 'foo'") as gof:
        dpdtol.bandit_gof("foo", table, 1, [[0, 1]], base=0)
    with pytest.raises(ValueError, match="unknown bandit algorithm 'foo'") as privacy:
        dpdtol.bandit_privacy("foo", 2, [0, 1], 1)
    # The laws: UCB1 and Thompson sampling, not the two-sample DP-TS nor
    # AdaP-KLUCB (simulation only).
    assert {"thompson", "ucb1", "dp-ucb-int"} <= _listed(str(law.value))
    assert not {"dp-ts", "lazy-dp-ts", "adap-klucb"} & _listed(str(law.value))
    # gof adds the two-sample tests.
    assert _listed(str(gof.value)) == _listed(str(law.value)) | {"dp-ts", "lazy-dp-ts"}
    # privacy: the exact checks and the statistical audits, no baseline.
    assert {"dp-ts", "lazy-dp-ts", "dp-se"} <= _listed(str(privacy.value))
    assert not {"ucb1", "thompson", "adap-klucb"} & _listed(str(privacy.value))
