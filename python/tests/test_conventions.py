"""The conventions and the reports of the Python API: actions numbered from 1
as on the command line, wu-wang's law parameters named, typed reports with
the JSON's fields, errors in Python's terms, and the pytest helper."""

import json
import os
import re
from dataclasses import fields
from fractions import Fraction

import numpy as np
import pytest

import dpdtol
from dpdtol.testing import assert_matches_law
from reference import wu_wang_gumbel_b1

SCHEMAS = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "schema")


def test_gof_of_wu_wang_without_its_noise_is_an_error_naming_it():
    samples = dpdtol.sample("wu-wang", [[0, 1], [1, 0]], 1, 10, seed=1, noise="gumbel", resample=False)
    with pytest.raises(ValueError, match=r"name noise='laplace', 'exponential' or 'gumbel'"):
        dpdtol.gof("wu-wang", [[0, 1], [1, 0]], 1, samples, resample=False)
    with pytest.raises(ValueError, match=r"name resample=True or False"):
        dpdtol.gof("wu-wang", [[0, 1], [1, 0]], 1, samples, noise="gumbel")
    with pytest.raises(ValueError, match=r"noise=.* and resample="):
        dpdtol.sequence_law("wu-wang", [[0, 1]], 1)


def test_errors_name_python_parameters_not_flags():
    with pytest.raises(ValueError) as e:
        dpdtol.sequence_law("ftl", [[0, 1]], 1, noise="gumbel")
    assert "--" not in str(e.value) and "noise" in str(e.value)
    with pytest.raises(ValueError) as e:
        dpdtol.sequence_law("prefix-softmax", [[0, 1]], 1, noise_scale=-1)
    assert "noise_scale must be positive" in str(e.value)


def test_probability_numbers_actions_from_1_unless_base_0():
    law = dpdtol.sequence_law("ftl", [[1, 0], [0, 0], [0, 0]], epsilon=1)
    # ftl plays action 1 (the first, a tie) then action 2 (loss 0).
    assert law.probability([1, 2, 2]).exact == 1 == law.probability([0, 1, 1], base=0).exact
    with pytest.raises(ValueError, match="1 to 2"):
        law.probability([0, 1, 1])


def _schema_keys(name, definition=None):
    schema = json.load(open(os.path.join(SCHEMAS, f"{name}.json")))
    if definition is not None:
        schema = schema["$defs"][definition]
    return set(schema["properties"])


def test_check_privacy_returns_the_typed_report_of_the_cli():
    # wu-wang, Gumbel(2/ε), K = 2, T = 2, losses in {0, 1}: changing one loss
    # moves one score by 1, a ratio of at most e^{1/β} = e^{ε/2}, attained.
    r = dpdtol.check_privacy("wu-wang", 2, "2^1", [0, 1], 1, noise="gumbel")
    assert isinstance(r, dpdtol.PrivacyReport) and r.verdict == "private"
    # Built from the JSON of `dpdtol privacy --json` key for key: an unknown
    # or a missing key is a TypeError.
    lo, hi = (Fraction(x) for x in r.max_ratio_interval)
    e = Fraction(np.exp(0.5))
    assert lo <= e * (1 + Fraction(1, 10**14)) and e * (1 - Fraction(1, 10**14)) <= hi
    assert r.noise == "gumbel" and r.horizon == "2" and min(r.witness["actions"]) >= 1
    assert str(r).startswith("wu-wang, gumbel noise, scale 2, K = 2, T = 2, losses in {0, 1}, ε = 1: private")


def test_check_privacy_records_the_default_noise():
    r = dpdtol.check_privacy("wu-wang", 2, 2, [0, 1], 1)
    assert r.noise == "laplace" and r.resample is False


def test_regret_has_its_bound_rows_and_reads_power_horizons():
    # As `dpdtol regret --algorithm wu-wang:gumbel --means 0.5,0.1,0.2,0.3
    # --setting deterministic --horizon 2^30 --epsilon 1` (tests/golden/regret.trycmd).
    r = dpdtol.regret("wu-wang", ["0.5", "0.1", "0.2", "0.3"], "deterministic", "2^30", 1, noise="gumbel")
    assert isinstance(r, dpdtol.RegretReport) and r.horizon == "1073741824"
    assert {f.name for f in fields(r)} == _schema_keys("regret", "AlgorithmRegret")
    assert r.regret.startswith("7.83228715868394309310843640932133749954")
    rows = {b["id"]: b for b in r.bounds}
    assert rows["ww-thm4"]["holds"] is True and rows["ww-thm4"]["value"].startswith("16.545177444")
    assert rows["ww-thm4-expr"]["holds"] is False
    assert "upper bound ww-thm4-expr = 6.35657163" in str(r) and "VIOLATED" in str(r)


def test_regret_of_ftl_is_exact():
    # ftl, means (1/2, 1/5), deterministic: round 1 plays action 1 (tie),
    # gap 3/10; then action 2 forever. Regret 3/10 at any horizon.
    r = dpdtol.regret("ftl", ["1/2", "1/5"], "deterministic", 50, 1)
    assert r.kind == "exact" and r.regret_fraction == Fraction(3, 10)


@pytest.mark.parametrize("horizon", ["2^", "two", 1.5, True])
def test_bad_horizons_are_refused_in_python_terms(horizon):
    with pytest.raises(ValueError, match="horizon"):
        dpdtol.regret("ftl", ["1/2", "1/5"], "deterministic", horizon, 1)


def test_gof_result_records_what_was_tested_and_prints_a_summary():
    losses = [[0, 1], [1, 0], [0, 1]]
    samples = dpdtol.sample("wu-wang", losses, 1, 2000, seed=3, noise="gumbel", resample=False)
    result = dpdtol.gof("wu-wang", losses, 1, samples, noise="gumbel", resample=False)
    assert result.target == dict(algorithm="wu-wang", epsilon="1", noise="gumbel", noise_scale=None, resample=False)
    assert str(result).startswith("algorithm wu-wang, epsilon 1, noise gumbel, resample False: 2000 samples")
    assert "consistent with the law" in str(result) and result.verdict == "consistent"


WW_LOSSES = np.array([[0.25, 0.5, 1.0], [0.75, 0.25, 0.0], [0.5, 0.5, 0.25]] * 5)[:15]


def test_assert_matches_law_passes_a_correct_sampler():
    samples = wu_wang_gumbel_b1(WW_LOSSES, 2, 20_000, np.random.default_rng(11))
    result = assert_matches_law("wu-wang", WW_LOSSES, 2, samples, noise="gumbel", resample=True, base=0, alpha=1e-6)
    assert not result.rejected


def test_assert_matches_law_names_the_worst_cell_of_a_planted_bug():
    # The planted bug doubles the noise scale of J_3, played on rounds 8-15:
    # the worst cell is an action of choice 3.
    samples = wu_wang_gumbel_b1(WW_LOSSES, 2, 100_000, np.random.default_rng(12), bug="scale")
    with pytest.raises(AssertionError) as e:
        assert_matches_law("wu-wang", WW_LOSSES, 2, samples, noise="gumbel", resample=True, base=0, alpha=1e-6)
    message = str(e.value)
    worst = message.splitlines()[2]
    m = re.fullmatch(r"  choice 3 \(rounds 8–15\), action (\d): observed (\d+), expected ([0-9.]+) \(([-+][0-9.]+)\)", worst)
    assert m, message
    observed, expected = int(m.group(2)), float(m.group(3))
    column = samples[:, 7] == int(m.group(1))  # base=0: actions from 0
    assert observed == column.sum() and abs(observed - expected) > 4 * expected**0.5, message


X = [[0, 0], [1, 0], [0, 1], [0, 0]]
NEIGHBOUR = [[0, 0], [1, 0], [1, 0], [0, 0]]


def test_audit_is_the_cli_audit_of_the_same_samples():
    # As docs/guide-test-your-implementation.md: hu-rnm-ftnl at ε = 1 on x.csv
    # and neighbour.csv, 20000 samples each (seeds 1 and 2), where the command
    # line prints ε ≥ 1.216478 and the largest ratio [3.69452804946, 3.69452804947].
    first = dpdtol.sample("hu-rnm-ftnl", X, 1, 20_000, seed=1)
    second = dpdtol.sample("hu-rnm-ftnl", NEIGHBOUR, 1, 20_000, seed=2)
    r = dpdtol.audit(first, second, algorithm="hu-rnm-ftnl", losses=X, neighbour=NEIGHBOUR, epsilon=1)
    assert isinstance(r, dpdtol.AuditReport) and f"{r.epsilon_lower:.6f}" == "1.216478"
    assert r.event == {"action": 1, "round": 4} and (r.numerator_count, r.denominator_count) == (4976, 1376)
    lo, hi = r.exact_max_ratio["interval"]
    assert lo.startswith("3.694528049465") and hi.startswith("3.694528049465")  # the CLI rounds it outward
    assert r.epsilon_lower <= float(np.log(float(hi)))  # a sound lower bound here
    assert str(r).startswith("ε ≥ 1.216478 with confidence 0.95")
    blind = dpdtol.audit(first - 1, second - 1, base=0)
    assert blind.exact_max_ratio is None and blind.epsilon_lower == r.epsilon_lower and blind.event["action"] == 0


def test_a_merged_full_information_report_reads_as_a_privacy_report():
    # The merged `--json` of two full-information shards in the golden
    # corpus: the same type as a whole run's, with what the merge re-verified.
    corpus = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "golden", "merges.trycmd")
    lines = open(corpus, encoding="utf-8").read().splitlines()
    command = "$ dpdtol privacy --merge full-1.json,full-2.json --spot-check-seed 1 --json"
    # The line after the command is its exit status (1: the merge is VIOLATED).
    obj = json.loads(lines[lines.index(command) + 2])
    r = dpdtol.PrivacyReport(**obj)
    assert r.spot_check["shards"] == 2 and r.spot_check["seed"] == 1
    assert r.to_dict() == obj
    assert {f.name for f in fields(r)} == _schema_keys("privacy", "PrivacyReport")
