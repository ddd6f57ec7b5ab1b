"""The typed results of ``sequence_law``, ``mechanism_law``, ``sample``,
``gof`` and ``verify`` against the command line's ``--json`` output of the
same commands, as the golden corpus records it (``tests/golden/*.trycmd``,
which ``cargo test --test golden`` holds to the binary): every field equal,
except where the Python call differs from the command by construction (the
losses come from Python, not from a file; the sample file's path; the
seconds a check took)."""

import copy
import json
import os
import pickle
import re
from fractions import Fraction

import numpy as np
import pytest

import dpdtol

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
GOLDEN = os.path.join(ROOT, "tests", "golden")


def cli_json(corpus, command):
    """The JSON the corpus ``corpus`` records for ``$ dpdtol <command>``
    (elided values ``[..]`` read as 0)."""
    lines = open(os.path.join(GOLDEN, f"{corpus}.trycmd"), encoding="utf-8").read().splitlines()
    at = lines.index(f"$ dpdtol {command}")
    text = next(line for line in lines[at + 1 :] if line.startswith("{"))
    return json.loads(text.replace("[..]", "0"))


def losses(corpus, name):
    """A loss file of the corpus, as exact Fractions (one row a round)."""
    rows = open(os.path.join(GOLDEN, f"{corpus}.in", name), encoding="utf-8").read().split()
    return [[Fraction(x) for x in row.split(",")] for row in rows if not row.startswith("#")]


def table(corpus, name):
    """A CSV table of the corpus with comment lines, as exact Fractions."""
    lines = open(os.path.join(GOLDEN, f"{corpus}.in", name), encoding="utf-8").read().splitlines()
    return [[Fraction(x) for x in line.split(",")] for line in lines if line.strip() and not line.startswith("#")]


def without_losses_file(report):
    """``report`` with ``target.losses_file`` None: the losses came from Python."""
    return {**report, "target": {**report["target"], "losses_file": None}}


@pytest.mark.parametrize(
    "corpus, command, call",
    [
        (
            "law",
            "law --algorithm hu-rnm-ftnl --epsilon 1 --losses-file small.csv --json",
            lambda: dpdtol.sequence_law("hu-rnm-ftnl", losses("law", "small.csv"), 1),
        ),
        (
            "oracle-extra",
            "law --algorithm wu-wang --noise exponential --resample 0 --noise-scale 1/3 --epsilon 0.5 --losses-file two.csv --json",
            lambda: dpdtol.sequence_law(
                "wu-wang", losses("oracle-extra", "two.csv"), "0.5", noise="exponential", resample=False, noise_scale="1/3"
            ),
        ),
    ],
)
def test_sequence_law_is_the_law_report_of_the_cli(corpus, command, call):
    law = call()
    assert law.to_dict() == without_losses_file(cli_json(corpus, command))
    # The former attributes read the same numbers.
    for choice, values in zip(law.choices, law.choices):
        assert [v.lo for v in values] == [lo for lo, _ in choice.law_interval]
    assert law.accepted == law.digits_certain
    assert law.kind in str(law) and law.target["algorithm"] in str(law)


def test_a_certified_law_keeps_its_enclosures_and_approximations():
    law = dpdtol.sequence_law("wu-wang", losses("oracle-extra", "two.csv"), "0.5", noise="exponential", resample=False, noise_scale="1/3")
    assert law.kind == "certified" and law.choices[1].law_exact is None
    value = law.choices[1][0]
    assert Fraction(value.lo) <= Fraction(law.choices[1].law[0]) <= Fraction(value.hi)
    assert law.approx.shape == (len(law.choices), 2) and abs(law.approx.sum(axis=1) - 1).max() < 1e-12
    assert "certified (every digit certain; not exact:" in str(law)


@pytest.mark.parametrize(
    "command, call",
    [
        (
            "mechanism --noise laplace --scale 1/2 --losses 0,1/2,1 --json",
            lambda: dpdtol.mechanism_law(["0", "1/2", "1"], noise="laplace", scale="1/2"),
        ),
        (
            "mechanism --noise exponential --unit-weight 1/3 --losses 0,1,1 --json",
            lambda: dpdtol.mechanism_law([0, 1, 1], noise="exponential", unit_weight=Fraction(1, 3)),
        ),
    ],
)
def test_mechanism_law_is_the_mechanism_report_of_the_cli(command, call):
    law = call()
    assert law.to_dict() == cli_json("mechanism", command)
    assert law.kind in str(law) and law.noise in str(law)


def test_an_exact_mechanism_law_reads_as_fractions():
    law = dpdtol.mechanism_law([0, 1, 1], noise="exponential", unit_weight=Fraction(1, 3))
    assert law.exact == (Fraction(19, 27), Fraction(4, 27), Fraction(4, 27))
    assert str(law).endswith("exact law (19/27, 4/27, 4/27)")


SMALL = losses("oracle", "small.csv")
GIVEN = dict(noise="gumbel", resample=False)


def test_sample_is_the_sample_report_of_the_cli_and_writes_the_same_file(tmp_path):
    command = "sample --algorithm wu-wang --noise gumbel --resample 0 --epsilon 1 --losses-file small.csv --n 50 --seed 7 --out s0.npy --base 0 --json"
    out = tmp_path / "s0.npy"
    samples = dpdtol.sample("wu-wang", SMALL, 1, 50, seed=7, base=0, out=out, **GIVEN)
    assert samples.to_dict() == {**without_losses_file(cli_json("oracle", command)), "out": str(out)}
    written = np.load(out)
    assert np.array_equal(written, samples)  # the file of `sample --out s0.npy --base 0`
    kept = dpdtol.sample("wu-wang", SMALL, 1, 50, seed=7, base=0, **GIVEN)
    assert kept.out is None and kept.format is None and np.array_equal(kept, samples)
    assert str(kept) == "wu-wang (epsilon 1, noise gumbel, resample 0): 50 sequences of 7 actions (actions from 0, seed 7)"
    assert str(samples).endswith(f"(actions from 0, seed 7), written to {out} (npy)")


def test_samples_act_as_their_array():
    s = dpdtol.sample("wu-wang", SMALL, 1, 20, seed=7, **GIVEN)
    a = s.array
    assert isinstance(a, np.ndarray) and s.shape == a.shape == (20, 7) and s.dtype == np.int64
    assert np.array_equal(s - 1, a - 1) and np.array_equal(1 + s, a + 1) and (s == a).all()
    assert np.array_equal(s[:, 2], a[:, 2]) and len(s) == 20 and s.min() == a.min()
    assert np.asarray(s).tolist() == a.tolist() and s.T.shape == (7, 20)
    # Copies and pickles keep the report, not only the array.
    for twin in (copy.deepcopy(s), pickle.loads(pickle.dumps(s))):
        assert isinstance(twin, dpdtol.Samples) and twin.to_dict() == s.to_dict() and np.array_equal(twin, s)


def test_gof_tests_is_the_count_of_the_cli():
    # The samples of the corpus's s.csv: dpdtol sample --n 3000 --seed 7 on
    # the same law draws the same sequences.
    command = "gof --algorithm wu-wang --noise gumbel --resample 0 --epsilon 1 --losses-file small.csv --samples s.csv --json --tv 1/10"
    cli = cli_json("oracle", command)
    samples = dpdtol.sample("wu-wang", SMALL, 1, 3000, seed=7, **GIVEN)
    result = dpdtol.gof("wu-wang", SMALL, 1, samples, tv=0.1, **GIVEN)
    assert result.tests == cli["tests"] == 4 and result.per_test_alpha == cli["per_test_alpha"]
    assert (result.n, result.alpha, result.rejected) == (cli["n"], cli["alpha"], cli["reject"])
    expected = [{**t, "name": f"choice {t['choice']}"} for t in cli["per_choice"]] + [{**cli["joint"], "name": "joint"}]
    keys = ("name", "cells", "groups", "statistic", "df", "p_value", "n_for_tv", "rare_cells")
    assert [{k: t[k] for k in keys} for t in result.chi_square_tests] == [{k: t[k] for k in keys} for t in expected]
    assert result.verdict == cli["verdict"] == "consistent" and "consistent with the law" in str(result)
    assert result.law.kind == cli["law"]["kind"] and result.law.target["noise"] == "gumbel"


def test_after_a_support_violation_tests_still_counts_the_planned_tests():
    # As `gof ... --samples bad.csv --json` of the corpus: a sample outside
    # the support, no chi-square run, `tests` the number planned.
    command = "gof --algorithm wu-wang --noise gumbel --resample 0 --epsilon 1 --losses-file small.csv --samples bad.csv --json"
    cli = cli_json("oracle-extra", command)
    bad = np.loadtxt(os.path.join(GOLDEN, "oracle-extra.in", "bad.csv"), delimiter=",", dtype=np.int64, ndmin=2)
    result = dpdtol.gof("wu-wang", losses("oracle-extra", "small.csv"), 1, bad, **GIVEN)
    assert result.rejected and result.tests == cli["tests"] and result.chi_square_tests == ()
    assert result.support_violation == cli["support_violation"]
    assert "rejected" in str(result)


def test_verify_is_the_verify_report_of_the_cli():
    cli = cli_json("verify", "verify --claim cc-lem2-i --json")
    r = dpdtol.verify("cc-lem2-i")
    got = r.to_dict()
    assert got["seconds"] >= 0 and all(c["seconds"] >= 0 for c in got["claims"])
    got["seconds"] = 0
    for c in got["claims"]:
        c["seconds"] = 0
    assert got == cli
    assert r.status("cc-lem2-i") == "certified" and r.refuted == []
    assert "1 certified" in str(r) and "cc-lem2-i: certified" in str(r)


def test_verify_reports_a_refuted_claim():
    # Hu et al.'s Theorem 8 (Algorithm 4 with Lap(1/ε) is ε-DP) is refuted,
    # its repair at scale 4 holds on every instance: the command line exits 1.
    r = dpdtol.verify("hu-thm8")
    assert [c["id"] for c in r.claims] == ["hu-thm8", "hu-thm8-lap2"]
    assert r.refuted == ["hu-thm8"] and r.status("hu-thm8-lap2") == "holds-on-instances"
    assert "max ratio 1.81218788564 vs e^ε = 1.64872127070" in r.claims[0]["detail"]
    assert r.claims[0]["witness"] is not None and "hu-thm8: refuted" in str(r)


def test_verify_collates_the_errata_of_the_claims_it_checks():
    # As `dpdtol verify --claim hu-thm8 --errata --json`: the refutation of
    # Theorem 8 is the erratum that names it, a result that is false.
    r = dpdtol.verify("hu-thm8", errata=True)
    (erratum,) = r.errata
    assert "hu-thm8" in erratum["claims"] and erratum["severity"] == "result-false"
    assert r.summary["errata"]["result-false"] == 1 and r.withdrawn is not None


def test_verify_shards_split_the_registry():
    # The registry's slow claims are dealt first, round-robin: with more
    # shards than claims, shard 200 of 200 holds one fast claim.
    r = dpdtol.verify(shard="200/200")
    assert r.shard == {"count": 200, "index": 200} and r.to_dict()["shard"] == r.shard
    (claim,) = r.claims
    assert dpdtol.verify(claim["id"]).status(claim["id"]) == claim["status"]
    assert "errata" not in r.to_dict() and "1 claims checked" in str(r)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(claim="no-such-claim"), "no-such-claim"),
        (dict(shard="3/2"), "shard: expected 'I/N'"),
        (dict(shard="1/2", claim="cc-lem2-i"), "shard splits the whole registry"),
    ],
)
def test_verify_refuses_bad_selections(kwargs, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        dpdtol.verify(**kwargs)


def test_the_examples_in_the_docstrings_run():
    import doctest

    failed, attempted = doctest.testmod(dpdtol)
    assert attempted >= 15 and failed == 0


def test_gof_to_dict_is_the_cli_json():
    # Every key of `gof --json` with the command line's names (`reject`,
    # `per_choice`, `joint`), equal but for the samples' path (from Python).
    command = "gof --algorithm wu-wang --noise gumbel --resample 0 --epsilon 1 --losses-file small.csv --samples s.csv --json --tv 1/10"
    cli = cli_json("oracle", command)
    samples = dpdtol.sample("wu-wang", SMALL, 1, 3000, seed=7, **GIVEN)
    result = dpdtol.gof("wu-wang", SMALL, 1, samples, tv=0.1, **GIVEN)
    got = result.to_dict()
    assert got == {**without_losses_file(cli), "samples": ""}
    assert result.reject is result.rejected is False and result.joint == cli["joint"]
    assert result.per_choice == cli["per_choice"] and not result.violated and not result.private


def test_a_support_rejection_has_p_zero():
    command = "gof --algorithm wu-wang --noise gumbel --resample 0 --epsilon 1 --losses-file small.csv --samples bad.csv --json"
    cli = cli_json("oracle-extra", command)
    bad = np.loadtxt(os.path.join(GOLDEN, "oracle-extra.in", "bad.csv"), delimiter=",", dtype=np.int64, ndmin=2)
    result = dpdtol.gof("wu-wang", losses("oracle-extra", "small.csv"), 1, bad, **GIVEN)
    assert result.rejected and result.p_min == 0.0
    assert result.to_dict() == {**without_losses_file(cli), "samples": ""}


def test_bandit_gof_to_dict_is_the_cli_json():
    command = "gof --algorithm anytime-lazy-ucb --epsilon 1 --rewards-file rewards.csv --samples s0.npy --base 0 --tv 0.1 --json"
    cli = cli_json("bandit-oracle", command)
    rewards = table("bandit-oracle", "rewards.csv")
    # s0.npy of the corpus: `sample ... --n 50 --seed 7 --base 0`, the same draws.
    samples = dpdtol.bandit_sample("anytime-lazy-ucb", rewards, 1, n=50, seed=7, base=0)
    result = dpdtol.bandit_gof("anytime-lazy-ucb", rewards, 1, samples, base=0, tv=0.1)
    expected = {**cli, "samples": "", "target": {**cli["target"], "rewards_file": None}}
    assert result.to_dict() == expected and result.reject == cli["reject"] and result.test == cli["test"]


def test_bandit_gof_with_explain_to_dict_is_the_cli_json():
    # DP-SE run round-robin, tested as blocks: rejected at round 4, and the
    # explanation names round-robin; `departure` and `explain` are the
    # report's own keys, not copies.
    common = "--epsilon 1 --rewards-file rewards.csv --epoch-length 1,2 --noise-scale 4"
    cli = cli_json("bandit-oracle", f"gof --algorithm dp-se {common} --samples rr.npy --base 0 --explain --json")
    rewards = table("bandit-oracle", "rewards.csv")
    given = dict(epoch_length=[1, 2], noise_scale=4)
    # rr.npy of the corpus: `sample ... --pull-order round-robin --n 300 --seed 5 --base 0`.
    samples = dpdtol.bandit_sample("dp-se", rewards, 1, n=300, seed=5, base=0, pull_order="round-robin", **given)
    result = dpdtol.bandit_gof("dp-se", rewards, 1, samples, base=0, explain=True, **given)
    expected = {**cli, "samples": "", "target": {**cli["target"], "rewards_file": None}}
    assert result.to_dict() == expected
    assert result.departure == cli["departure"] and result.departure["round"] == 4
    assert result.explain == cli["explain"]
    fits = {(f["pull_order"], f["rounding"]): f["reject"] for f in result.explain if f["beta"] == "1/T"}
    assert fits[("round-robin", "floor-plus-one")] is False and fits[("blocks", "floor-plus-one")] is True
    assert not {"departure", "explain"} & set(dpdtol.GofResult.__dataclass_fields__)
    # Without explain, the key is absent from the report and the attribute None.
    plain = dpdtol.bandit_gof("dp-se", rewards, 1, samples, base=0, **given)
    assert "explain" not in plain.to_dict() and plain.explain is None


def test_bandit_gof_explain_names_ucb1s_uniform_ties():
    # K = 2, T = 3, rewards (1, 0), (0, 1), (1, 0): with uniform ties each of
    # 1,2,1 1,2,2 2,1,1 2,1,2 has 1/4 (a tie in round 3 after one play of
    # each arm at equal means); with ties to the lowest arm 1,2,1 alone, to
    # the highest 1,2,2 alone; each arm once in order, then the tie drawn,
    # 1,2,1 and 1,2,2 with 1/2 each. A uniform sample is rejected under the
    # default, and explain names uniform and none of the others; the keys
    # are the CLI's (`readings`, no DP-SE keys), and nothing was refused.
    rewards = [[1, 0], [0, 1], [1, 0]]
    samples = dpdtol.bandit_sample("ucb1", rewards, None, n=400, seed=5, base=0, ties="uniform")
    result = dpdtol.bandit_gof("ucb1", rewards, None, samples, base=0, explain=True)
    assert result.rejected
    fits = {f["readings"]["ties"]: f for f in result.explain}
    assert set(fits) == {"lowest", "uniform", "highest", "ordered-uniform"}
    for other in ("lowest", "highest", "ordered-uniform"):
        assert fits[other]["reject"] and fits[other]["support_violation"]
    assert not fits["uniform"]["reject"] and fits["uniform"]["p_value"] > 1e-3
    assert not {"beta", "pull_order", "rounding", "radius"} & set(fits["uniform"])
    assert result.explain_refused is None
    assert result.to_dict()["explain"] == result.explain
    # explain does not apply to a two-sample test.
    with pytest.raises(ValueError, match="--explain does not apply to dp-ts"):
        dpdtol.bandit_gof("dp-ts", rewards, 1, samples, base=0, explain=True)


def test_privacy_verdicts_carry_the_same_booleans():
    r = dpdtol.mechanism_privacy("laplace", 2, [0, "1/2", 1], "1/2", scale=1)
    assert (r.verdict, r.violated, r.private, r.rejected) == ("violated", True, False, True)
    r = dpdtol.bandit_privacy("dp-se", 4, [0, 1], 1, epoch_length=[1])
    assert (r.verdict, r.violated, r.private, r.rejected) == ("private", False, True, False)


def test_sample_and_bandit_sample_answer_one_type_with_the_cli_json():
    command = "sample --algorithm anytime-lazy-ucb --epsilon 1 --rewards-file rewards.csv --n 50 --seed 7 --out s0.npy --base 0 --json"
    cli = cli_json("bandit-oracle", command)
    s = dpdtol.bandit_sample("anytime-lazy-ucb", table("bandit-oracle", "rewards.csv"), 1, n=50, seed=7, base=0)
    assert type(s) is type(dpdtol.sample("ftl", [[0, 1]], 1, n=1, seed=1)) is dpdtol.Samples
    expected = {**cli, "out": None, "format": None, "target": {**cli["target"], "rewards_file": None}}
    assert s.to_dict() == expected and s.shape == (50, 6) and s.arms == 2 and s.min() >= 0
