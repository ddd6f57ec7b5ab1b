"""The readings of the pseudo-codes' open choices as Python arguments, with
the command line's names and parser: DP-UCB's ``tree_depth``, DP-SE's
``radius`` and ``reward_index`` in ``bandit_privacy`` and ``radius`` in
``bandit_simulate``, DP-TS's ``bonus_round`` in both; and the docstrings' algorithm lists, which must be
exactly what each function accepts."""

import re

import numpy as np
import pytest

import dpdtol
from dpdtol import _native

REWARDS = np.array([[1, 0], [0, 1], [1, 1], [0, 0], [1, 0]])


def _intervals(law):
    return [p.interval for p in law.probabilities]


def test_tree_depth_is_dp_ucbs_node_scale():
    # DP-UCB's law depends on the depth L only through the node scale L/ε
    # (the tree's shape W(n) = W(n - lowbit(n)) + Z(n) does not): depth 5
    # at ε = 1 is node scale 5, and differs from the printed depth 3 (T = 5).
    deep = dpdtol.bandit_law("dp-ucb", REWARDS, 1, tree_depth=5)
    scaled = dpdtol.bandit_law("dp-ucb", REWARDS, 1, noise_scale=5)
    printed = dpdtol.bandit_law("dp-ucb", REWARDS, 1)
    assert _intervals(deep) == _intervals(scaled)
    assert _intervals(deep) != _intervals(printed)


@pytest.mark.parametrize("depth", [0, 64])
def test_tree_depth_out_of_range_is_refused(depth):
    with pytest.raises(ValueError, match="tree_depth"):
        dpdtol.bandit_law("dp-ucb", REWARDS, 1, tree_depth=depth)


@pytest.mark.parametrize("algorithm", ["hybrid-ucb", "dp-ucb-bound", "anytime-lazy-ucb"])
def test_tree_depth_is_refused_elsewhere(algorithm):
    with pytest.raises(ValueError, match="tree_depth does not apply"):
        dpdtol.bandit_law(algorithm, REWARDS, 1, tree_depth=3)


def test_bandit_privacy_takes_the_readings():
    deep = dpdtol.bandit_privacy("dp-ucb", 4, [0, 1], 1, tree_depth=3)
    scaled = dpdtol.bandit_privacy("dp-ucb", 4, [0, 1], 1, noise_scale=3)
    assert deep.tree_depth == 3
    assert deep.max_ratio_interval == scaled.max_ratio_interval
    # The real radius reads the printed epoch lengths' real R_e.
    real = dpdtol.bandit_privacy("dp-se", 4, [0, 1], 1, radius="real")
    assert real.radius == "real" and real.reward_index == "round"
    by_pull = dpdtol.bandit_privacy("dp-se", 4, [0, 1], 1, epoch_length=[1], reward_index="pull")
    assert by_pull.reward_index == "pull"
    with pytest.raises(ValueError, match="radius"):
        dpdtol.bandit_privacy("dp-se", 4, [0, 1], 1, epoch_length=[1], radius="half")


def test_bandit_simulate_takes_the_readings():
    r = dpdtol.bandit_simulate(["dp-se", "dp-ucb"], [0.5, 0.25], epsilon=1, horizon=100, runs=2, radius="real", tree_depth=4)
    by_id = {x["algorithm"]: x for x in r.results}
    assert by_id["dp-se"]["radius"] == "real"
    assert by_id["dp-ucb"]["tree_depth"] == 4
    with pytest.raises(ValueError, match="tree_depth"):
        dpdtol.bandit_simulate("ucb1", [0.5, 0.25], epsilon=1, horizon=10, runs=2, tree_depth=4)


def _quoted(doc):
    return set(re.findall(r'``"([a-z0-9-]+)"``', doc))


def test_docstrings_list_what_each_function_accepts():
    lists = _native.bandit_algorithms()
    every = set(lists["simulate"])
    assert {"dp-ucb", "dp-ucb-bound"} <= set(lists["law"]) <= every
    for f in (dpdtol.bandit_law, dpdtol.bandit_sample):
        assert "{" not in f.__doc__
        assert _quoted(f.__doc__) & every == set(lists["law"]), f.__name__
    assert _quoted(dpdtol.bandit_gof.__doc__) & every == set(lists["law"]) | set(lists["two_sample"])
    assert _quoted(dpdtol.bandit_privacy.__doc__) & every == set(lists["privacy_exact"]) | set(lists["privacy_statistical"])
    assert _quoted(dpdtol.bandit_simulate.__doc__) & every == every
    # Every algorithm with a law has its bullet in the module's docstring.
    module = dpdtol.bandit.__doc__
    for name in lists["law"]:
        assert f'- ``"{name}"``' in module, name


def test_bonus_round_is_dp_ts_s_reading_named_in_its_reports():
    r = dpdtol.bandit_simulate(["dp-ts", "ucb1"], [0.5, 0.25], epsilon=1, horizon=20, runs=2, bonus_round="last-update")
    by_id = {x["algorithm"]: x for x in r.results}
    assert by_id["dp-ts"]["bonus_round"] == "last-update"
    # UCB1 has no reading of that name: it keeps its default, named.
    assert by_id["ucb1"]["bonus_round"] == "plays"
    audit = dpdtol.bandit_privacy("dp-ts", 3, [0, 1], 1, runs=200, bonus_round="last-update")
    assert audit.bonus_round == "last-update"
    assert audit.to_dict()["bonus_round"] == "last-update"
    assert dpdtol.bandit_privacy("dp-ts", 3, [0, 1], 1, runs=200).bonus_round == "current"


def test_bonus_round_is_refused_elsewhere_and_by_unknown_names():
    with pytest.raises(ValueError, match="bonus_round expects one of plays, current, got 'last-update'"):
        dpdtol.bandit_simulate("ucb1", [0.5, 0.25], horizon=10, runs=2, bonus_round="last-update")
    with pytest.raises(ValueError, match="bonus_round does not apply to thompson"):
        dpdtol.bandit_simulate("thompson", [0.5, 0.25], horizon=10, runs=2, bonus_round="current")
    with pytest.raises(ValueError, match="bonus_round does not apply"):
        dpdtol.bandit_privacy("lazy-dp-ts", 3, [0, 1], 1, runs=200, bonus_round="last-update")
    with pytest.raises(ValueError, match="bonus_round expects one of current, last-update"):
        dpdtol.bandit_simulate("dp-ts", [0.5, 0.25], epsilon=1, horizon=10, runs=2, bonus_round="frozen")
