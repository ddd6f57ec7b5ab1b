"""The Python examples of README.md and of the guide to testing an
implementation run as written, on the repository's example files: the
samples of ``examples/wu_wang_sampler.py`` (``examples/samples.csv``,
actions from 1), given to the examples as numpy's 0-based actions."""

import contextlib
import io
import os
import re
from fractions import Fraction

import numpy as np

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def python_blocks(name):
    text = open(os.path.join(ROOT, name), encoding="utf-8").read()
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


def example_losses():
    rows = [r for r in open(os.path.join(ROOT, "examples", "losses.csv")) if r[0] != "#"]
    return [[Fraction(x) for x in r.strip().split(",")] for r in rows]


def example_samples_from_0():
    return np.loadtxt(os.path.join(ROOT, "examples", "samples.csv"), delimiter=",", dtype=np.int64) - 1


def test_the_readme_example_accepts_the_example_samples():
    (block,) = python_blocks("README.md")
    *body, last = block.strip().splitlines()
    scope = {"losses": example_losses(), "my_samples": example_samples_from_0()}
    exec("\n".join(body), scope)
    assert eval(last, scope) is False  # `.rejected`: the samples follow the law


def test_the_guide_example_runs_and_prints_its_summary(monkeypatch):
    # The guide's first Python block: samples collected, then tested.
    block = python_blocks(os.path.join("docs", "guide-test-your-implementation.md"))[0]
    monkeypatch.chdir(ROOT)
    out = io.StringIO()
    scope = {"my_sampler": lambda L, epsilon, n: example_samples_from_0()}
    with contextlib.redirect_stdout(out):
        exec(block, scope)
    assert "algorithm wu-wang, epsilon 1, noise gumbel, resample True: 1000 samples (actions from 0)" in out.getvalue()
    assert "consistent with the law" in out.getvalue()
