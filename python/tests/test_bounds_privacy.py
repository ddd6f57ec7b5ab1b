"""The certified check of DP-TS and Lazy-DP-TS from bounds on their laws
(``bandit_privacy(..., method="bounds")``), as ``privacy --method bounds``."""

import math

import pytest

import dpdtol

from test_reports import cli_json


def test_the_printed_dp_ts_is_certainly_private_and_matches_the_cli():
    r = dpdtol.bandit_privacy("dp-ts", 4, [0, 1], 1, method="bounds")
    assert isinstance(r, dpdtol.BoundsPrivacyReport)
    assert r.verdict == "private" and r.private and not r.violated
    # The clip to 1 absorbs the noise: the largest ratio is within 10⁻³ of 1.
    assert float(r.max_ratio_upper["ratio"]) < 1.001 < math.e
    assert float(r.max_ratio_lower["ratio"]) <= float(r.max_ratio_upper["ratio"])
    assert r.delta_interval == ["0", "0"]
    command = "privacy --algorithm dp-ts --method bounds --actions 2 --horizon 4 --alphabet 0,1 --epsilon 1 --json"
    assert r.to_dict() == cli_json("privacy", command)
    assert str(r).startswith("dp-ts: PRIVATE")


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="method for lazy-dp-ts is statistical"):
        dpdtol.bandit_privacy("lazy-dp-ts", 3, [0, 1], 1, method="exact")
    with pytest.raises(ValueError, match="tree"):
        dpdtol.bandit_privacy("lazy-dp-ts", 3, [0, 1], 1, method="bounds", tree_scale=1)
    with pytest.raises(ValueError, match="runs, seed and confidence apply to method statistical"):
        dpdtol.bandit_privacy("dp-ts", 3, [0, 1], 1, method="bounds", runs=100)
    with pytest.raises(ValueError, match="force"):
        dpdtol.bandit_privacy("dp-ts", 12, [0, 1], 1, method="bounds")
    with pytest.raises(ValueError, match=r"outside \[0, 1\]"):
        dpdtol.bandit_privacy("dp-ts", 3, [-1, 2], 1, method="bounds")


def test_bandit_law_bounds_is_the_law_report_of_the_cli():
    rewards = [["1/4", "3/4"], [1, 0], ["1/2", "1/2"], [0, 1], ["3/4", "1/4"], [1, 1]]
    r = dpdtol.bandit_law_bounds("dp-ts", rewards, 1, sequence=[1, 2, 2, 1, 1, 2])
    assert isinstance(r, dpdtol.BanditBoundsReport)
    cli = cli_json("bandit-oracle", "law --algorithm dp-ts --epsilon 1 --rewards-file rewards.csv --sequence 1,2,2,1,1,2 --json")
    cli["target"]["rewards_file"] = None
    assert r.to_dict() == cli
    lo, hi = (sum(float(e["probability_interval"][i]) for e in r.law) for i in (0, 1))
    assert lo <= 1 <= hi and hi - lo < 0.01
    assert str(r).startswith("dp-ts, ε = 1, bonus-round current")


def test_bandit_law_bounds_refuses_what_it_does_not_bound():
    with pytest.raises(ValueError, match="cover dp-ts and lazy-dp-ts, not hybrid-ucb"):
        dpdtol.bandit_law_bounds("hybrid-ucb", [[1, 0]] * 3, 1)
    with pytest.raises(dpdtol.TooLargeError, match="force"):
        dpdtol.bandit_law_bounds("dp-ts", [[1, 0]] * 7, 1)
