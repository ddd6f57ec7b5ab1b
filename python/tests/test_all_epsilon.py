"""``dpdtol.privacy_all_epsilon`` against ``dpdtol privacy --epsilon-range /
--all-epsilon``: the report field for field and the text line for line, as
the golden corpus records them for the binary."""

import pytest

import dpdtol
from test_bandit_privacy import cli_text
from test_reports import cli_json

WU_WANG = "privacy --algorithm wu-wang --noise exponential --actions 2 --horizon 3 --alphabet 0,1"


def test_a_range_is_the_cli_report_field_for_field():
    report = dpdtol.privacy_all_epsilon(
        "wu-wang", 2, 3, [0, 1], epsilon_range=(1, 2), noise="exponential", scale_factor="3/2"
    )
    assert report.to_dict() == cli_json("privacy", f"{WU_WANG} --epsilon-range 1..2 --scale-factor 3/2 --json")
    # Violated below the root 1.4436..., private from it to 2.
    assert [p["verdict"] for p in report.pieces] == ["violated", "private"]
    assert report.violated


def test_every_epsilon_is_the_cli_text():
    report = dpdtol.privacy_all_epsilon("wu-wang", 2, "3", ["0", "1"], noise="exponential")
    assert str(report).rstrip("\n") == cli_text(f"{WU_WANG} --all-epsilon")
    assert report.epsilon_range == {"hi": None, "lo": "0"}
    assert report.violated


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(epsilon_range=(1,)), "epsilon_range: expected a pair"),
        (dict(epsilon_range=(2, 1)), "epsilon_range"),
        (dict(scale_factor="x"), "scale_factor"),
        (dict(horizon="soon"), "horizon"),
    ],
)
def test_bad_arguments_are_named(kwargs, message):
    args = dict(algorithm="wu-wang", actions=2, horizon=3, alphabet=[0, 1], noise="exponential")
    args.update(kwargs)
    with pytest.raises(ValueError, match=message):
        dpdtol.privacy_all_epsilon(**args)
