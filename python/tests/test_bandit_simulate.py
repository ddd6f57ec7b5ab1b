"""``dpdtol.bandit_simulate`` against the command line's ``dpdtol bandit`` of
the same arguments, as the golden corpus records it
(``tests/golden/bandit.trycmd``): the report's JSON field for field (the
simulation is seeded, so every f64 is reproduced) and its tables line for
line; bad arguments are ValueErrors naming the Python argument."""

import os

import pytest

import dpdtol
from test_reports import GOLDEN, cli_json

COMMAND = "bandit --algorithm anytime-lazy-ucb,dp-se --means 0.75,0.5 --epsilon {} --horizon 1000 --runs 4 --seed 1"


def cli_text(command):
    """The text ``tests/golden/bandit.trycmd`` records for ``$ dpdtol <command>``."""
    lines = open(os.path.join(GOLDEN, "bandit.trycmd"), encoding="utf-8").read().splitlines()
    at = lines.index(f"$ dpdtol {command}") + 1
    end = next(i for i in range(at, len(lines)) if lines[i].startswith("$ "))
    return "\n".join(lines[at:end]).rstrip("\n")


def test_bandit_simulate_is_the_report_of_the_cli():
    report = dpdtol.bandit_simulate(
        ["anytime-lazy-ucb", "dp-se"], [0.75, 0.5], [1, "1/2"], horizon=1000, runs=4, seed=1
    )
    assert report.to_dict() == cli_json("bandit", COMMAND.format("1,1/2") + " --json")
    assert report.kind == "approximate"
    assert sorted(r["algorithm"] for r in report.results) == ["anytime-lazy-ucb"] * 2 + ["dp-se"] * 2


def test_bandit_simulate_prints_the_tables_of_the_cli():
    report = dpdtol.bandit_simulate(["anytime-lazy-ucb", "dp-se"], ["3/4", "1/2"], 1, horizon=1000, runs=4, seed=1)
    assert str(report).rstrip("\n") == cli_text(COMMAND.format("1"))


def test_another_seed_draws_other_runs():
    one, two = (dpdtol.bandit_simulate("ucb1", [0.7, 0.3], horizon=200, runs=2, seed=s) for s in (1, 2))
    assert one.results[0]["mean"] != two.results[0]["mean"]


@pytest.mark.parametrize(
    "args, argument",
    [
        (dict(means=[0.7, 1.3]), "means"),
        (dict(horizon=1), "horizon"),
        (dict(runs=1), "runs"),
        (dict(runs=0), "runs"),
        (dict(seed=-1), "seed"),
        (dict(algorithm="eps-greedy"), "eps-greedy"),
        (dict(epsilon="x"), "epsilon"),
        (dict(noise_scale=[1, 2]), "noise_scale"),
        (dict(confidence=[0.9, 0.95]), "confidence"),
        (dict(confidence=None), "confidence"),
    ],
)
def test_bad_arguments_are_value_errors_naming_them(args, argument):
    call = {**dict(algorithm="anytime-lazy-ucb", means=[0.7, 0.3], epsilon=1, horizon=100, runs=3), **args}
    with pytest.raises(ValueError, match=argument) as raised:
        dpdtol.bandit_simulate(**call)
    assert type(raised.value) is ValueError
    assert "\n" not in str(raised.value)


def test_dp_se_readings_are_simulated_and_named():
    # At beta = 1/400, eps = 1, DP-SE's printed R_1 = floor(128 ln 6400) + 1 =
    # 1122 exceeds the 400 rounds: no epoch ends, no noise is drawn; blocks
    # pulls arm 1 throughout, round-robin alternates (pulls 200, 200, regret
    # 200 * 0.8 = 160), as `bandit --pull-order` (tests/applies.rs).
    for order, pulls, regret in [("blocks", [400, 0], 0), ("round-robin", [200, 200], 160)]:
        r = dpdtol.bandit_simulate("dp-se", [0.9, 0.1], 1, horizon=400, runs=2, pull_order=order, rounding="ceiling")
        result = r.results[0]
        assert (result["pull_order"], result["rounding"]) == (order, "ceiling")
        assert [float(p) for p in result["mean_pulls"]] == pulls
        assert abs(float(result["final"]["regret"]) - regret) < 1e-9
    with pytest.raises(ValueError, match="pull_order expects one of blocks, round-robin"):
        dpdtol.bandit_simulate("dp-se", [0.9, 0.1], 1, horizon=400, runs=2, pull_order="zigzag")
    with pytest.raises(ValueError, match="pull_order, rounding and radius apply to dp-se only"):
        dpdtol.bandit_simulate("ucb1", [0.9, 0.1], horizon=400, runs=2, pull_order="round-robin")
