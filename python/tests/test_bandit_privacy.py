"""``dpdtol.bandit_privacy`` and ``dpdtol.mechanism_privacy`` against the command line's ``dpdtol privacy
--algorithm <bandit>`` and ``--mechanism`` of the same instance, as the golden corpus records it
(``tests/golden/privacy.trycmd``): the report's JSON field for field and its
text line for line; a violated instance reports "violated"; bad arguments
are ValueErrors naming the Python argument."""

import os

import pytest

import dpdtol
from test_reports import GOLDEN, cli_json

FLAGS = "--actions 2 --horizon 4 --alphabet 0,1 --epsilon 1"


def cli_text(command):
    """The text ``tests/golden/privacy.trycmd`` records for ``$ dpdtol <command>``."""
    lines = open(os.path.join(GOLDEN, "privacy.trycmd"), encoding="utf-8").read().splitlines()
    at = lines.index(f"$ dpdtol {command}") + 1
    if lines[at].startswith("? "):
        at += 1
    end = lines.index("", at)
    return "\n".join(lines[at:end])


CASES = [
    (
        f"privacy --algorithm anytime-lazy-ucb {FLAGS} --noise-scale 1/2 --json",
        dict(algorithm="anytime-lazy-ucb", noise_scale="1/2"),
        "violated",
    ),
    (
        f"privacy --algorithm dp-se {FLAGS} --epoch-length 1 --json",
        dict(algorithm="dp-se", epoch_length=[1]),
        "private",
    ),
    (
        f"privacy --algorithm dp-se {FLAGS} --epoch-length 1 --beta 1/10 --pull-order round-robin --json",
        dict(algorithm="dp-se", epoch_length=[1], beta="1/10", pull_order="round-robin"),
        "private",
    ),
    (
        f"privacy --algorithm hybrid-ucb {FLAGS} --scale-factor 1/4 --json",
        dict(algorithm="hybrid-ucb", scale_factor="1/4"),
        "violated",
    ),
    (
        f"privacy --algorithm hybrid-ucb --method statistical {FLAGS} --runs 2000 --seed 3 --json",
        dict(algorithm="hybrid-ucb", method="statistical", runs=2000, seed=3),
        "undecided",
    ),
]


@pytest.mark.parametrize("command, args, verdict", CASES)
def test_bandit_privacy_is_the_report_of_the_cli(command, args, verdict):
    algorithm = args.pop("algorithm")
    report = dpdtol.bandit_privacy(algorithm, 4, [0, 1], 1, **args)
    assert report.to_dict() == cli_json("privacy", command)
    assert report.verdict == verdict
    statistical = "method" in args
    assert isinstance(report, dpdtol.StatisticalPrivacyReport if statistical else dpdtol.BanditPrivacyReport)


@pytest.mark.parametrize(
    "command, args",
    [
        (f"privacy --algorithm hybrid-ucb {FLAGS}", dict(algorithm="hybrid-ucb")),
        (
            f"privacy --algorithm lazy-dp-ts {FLAGS} --runs 2000 --seed 3",
            dict(algorithm="lazy-dp-ts", runs=2000, seed=3),
        ),
    ],
)
def test_bandit_privacy_prints_the_text_of_the_cli(command, args):
    algorithm = args.pop("algorithm")
    assert str(dpdtol.bandit_privacy(algorithm, 4, [0, 1], 1, **args)).rstrip("\n") == cli_text(command)


def test_the_exact_ratio_is_certified_and_encloses_the_witness():
    report = dpdtol.bandit_privacy("anytime-lazy-ucb", 4, [0, 1], 1, noise_scale="1/2")
    lo, hi = report.max_ratio_interval
    assert report.kind == "certified" and report.max_ratio_fraction is None
    assert float(lo) <= float(report.witness["ratio"]) <= float(hi)
    assert float(lo) > float(report.bound)  # e^ε = e < 3.69: violated by the ratio itself


@pytest.mark.parametrize(
    "args, argument",
    [
        (dict(epoch_length=[0]), "epoch_length"),
        (dict(runs=0, algorithm="lazy-dp-ts"), "runs"),
        (dict(seed=-1, algorithm="lazy-dp-ts"), "seed"),
        (dict(confidence=1.5, algorithm="lazy-dp-ts"), "confidence"),
        (dict(actions=3, algorithm="lazy-dp-ts", runs=10), "actions"),
        (dict(epsilon="x"), "epsilon"),
        (dict(horizon="four"), "horizon"),
        (dict(pull_order="zigzag"), "pull_order expects one of blocks, round-robin"),
        (dict(rounding="up"), "rounding expects one of floor-plus-one, ceiling, floor"),
        (dict(beta=2), "beta"),
        (dict(beta="1/10", algorithm="anytime-lazy-ucb"), "beta"),
    ],
)
def test_bad_arguments_are_value_errors_naming_them(args, argument):
    call = {**dict(algorithm="dp-se", horizon=4, alphabet=[0, 1], epsilon=1), **args}
    with pytest.raises(ValueError, match=argument):
        dpdtol.bandit_privacy(**call)


def test_an_algorithm_without_an_exact_check_is_refused():
    with pytest.raises(ValueError, match="ucb1"):
        dpdtol.bandit_privacy("ucb1", 4, [0, 1], 1)


@pytest.mark.parametrize(
    "command, call, verdict",
    [
        (
            "privacy --mechanism gumbel --actions 2 --alphabet 0,1 --epsilon 1 --json",
            lambda: dpdtol.mechanism_privacy("gumbel", 2, [0, 1], 1),
            "private",
        ),
    ],
)
def test_mechanism_privacy_is_the_report_of_the_cli(command, call, verdict):
    report = call()
    assert report.to_dict() == cli_json("privacy", command)
    assert report.verdict == verdict


@pytest.mark.parametrize(
    "command, call",
    [
        (
            "privacy --mechanism exponential --actions 3 --alphabet 0,1,2,3,4,5,6 --neighbours linf:1 --epsilon 1",
            lambda: dpdtol.mechanism_privacy("exponential", 3, range(7), 1, neighbours="linf:1"),
        ),
        (
            "privacy --mechanism laplace --actions 2 --alphabet 0,1/2,1 --epsilon 1/2 --scale 1",
            lambda: dpdtol.mechanism_privacy("laplace", 2, [0, "1/2", 1], "1/2", scale=1),
        ),
    ],
)
def test_mechanism_privacy_prints_the_text_of_the_cli(command, call):
    assert str(call()).rstrip("\n") == cli_text(command)


def test_a_violated_mechanism_reports_violated_with_its_witness():
    report = dpdtol.mechanism_privacy("laplace", 2, [0, "1/2", 1], "1/2", scale=1)
    assert report.verdict == "violated" and report.witness["losses"] == [["0", "1"]]
    assert float(report.max_ratio) > float(report.bound)


@pytest.mark.parametrize(
    "args, argument",
    [
        (dict(noise=None), "noise"),
        (dict(epsilon="x"), "epsilon"),
        (dict(alphabet=["y"]), "alphabet"),
        (dict(scale="z"), "scale"),
        (dict(neighbours="near"), "neighbours"),
    ],
)
def test_bad_mechanism_arguments_are_value_errors_naming_them(args, argument):
    call = {**dict(noise="gumbel", actions=2, alphabet=[0, 1], epsilon=1), **args}
    with pytest.raises(ValueError, match=argument):
        dpdtol.mechanism_privacy(**call)


@pytest.mark.parametrize(
    "command, call, verdict",
    [
        (
            "privacy --mechanism gumbel --actions 2 --alphabet 0,1 --epsilon 1/2 --scale 1 --delta 3/10 --json",
            lambda: dpdtol.mechanism_privacy("gumbel", 2, [0, 1], "1/2", scale=1, delta="3/10"),
            "private",
        ),
        (
            "privacy --algorithm hu-rnm-ftnl --actions 2 --horizon 3 --alphabet 0,1 --epsilon 1/2 --noise-scale 1/2 --delta 1/10 --json",
            lambda: dpdtol.check_privacy("hu-rnm-ftnl", 2, 3, [0, 1], "1/2", noise_scale="1/2", delta="1/10"),
            "violated",
        ),
        (
            "privacy --algorithm anytime-lazy-ucb --actions 2 --horizon 4 --alphabet 0,1 --epsilon 1 --noise-scale 1/2 --delta 1/100 --json",
            lambda: dpdtol.bandit_privacy("anytime-lazy-ucb", 4, [0, 1], 1, noise_scale="1/2", delta="1/100"),
            "violated",
        ),
    ],
)
def test_delta_is_the_delta_of_the_cli(command, call, verdict):
    """The keyword ``delta`` is ``--delta``: the same report, its ``delta`` key included."""
    report = call()
    assert report.to_dict() == cli_json("privacy", command)
    assert report.delta["verdict"] == verdict


def test_delta_is_refused_for_a_statistical_audit():
    with pytest.raises(ValueError, match="delta"):
        dpdtol.bandit_privacy("lazy-dp-ts", 2, [0, 1], 1, delta=0)


def test_dp_ts_audit_refutes_a_quarter_of_the_noise():
    # As tests/bandit_privacy.rs: K = 2, T = 5, {0, 1}, eps = 1, bonus 1/1000,
    # 20000 runs a table, seed 3; the inferred scales 2/eps are not refuted.
    common = dict(runs=20000, seed=3, bonus="1/1000")
    planted = dpdtol.bandit_privacy("dp-ts", 5, [0, 1], 1, scale_factor="1/4", **common)
    assert planted.verdict == "violated"
    assert dpdtol.bandit_privacy("dp-ts", 5, [0, 1], 1, **common).verdict == "undecided"


@pytest.mark.parametrize(
    "algorithm, horizon, alphabet, figure",
    [
        # 2^10 pull sequences · 2^12 seen sequences = 2^22 laws (the law
        # count's limit), 12 · 2^22 quotients: ⌈13 · 2^22/1000⌉ = 54526 units.
        ("anytime-lazy-ucb", 12, [0, 1], "54526"),
        # 2^6 · 2^8 = 16384 laws, 8128 distinct events of 4^6/16 = 256 units,
        # and ⌈(16384 + 8 · 16384)/1000⌉ = 148: 2080916.
        ("hybrid-ucb", 8, [0, 1], "2080916"),
    ],
)
def test_an_exact_check_past_its_work_is_refused_with_its_estimate(algorithm, horizon, alphabet, figure):
    # The CLI's guard (tests/limits.rs): the work, not the count of laws.
    with pytest.raises(dpdtol.TooLargeError, match=figure):
        dpdtol.bandit_privacy(algorithm, horizon, alphabet, 1, actions=2)
