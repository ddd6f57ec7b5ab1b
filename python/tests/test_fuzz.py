"""A property-based fuzzer over every public function and argument: whatever
it is given, a function returns or raises ``ValueError``/``TypeError``
(``TooLargeError`` is a ``ValueError``), and never crashes the interpreter.

Each call starts from valid arguments and replaces one or two of them by
hostile values (booleans where numbers go and numbers where booleans go,
strings such as ``"0"`` and ``"False"``, nan, inf, negatives, fractions
where integers go, integers past 2^64, empty and ragged lists). The calls
run in a worker process under a 4 GiB address-space limit, so that an
abort (a panic across the boundary, a failed allocation) is seen as the
worker's death and reported with the call that caused it, instead of
killing pytest. hypothesis is derandomized: the same calls every run.
"""

import base64
import os
import pickle
import select
import subprocess
import sys
import textwrap
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

# A call that takes longer than this is stopped and reported (not failed:
# a loaded machine may be slow), the worker restarted.
TIMEOUT = 20.0

WORKER = textwrap.dedent(
    """
    import base64, pickle, resource, sys, warnings
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
    warnings.simplefilter("ignore")
    import dpdtol
    for line in sys.stdin:
        name, kwargs = pickle.loads(base64.b64decode(line))
        try:
            getattr(dpdtol, name)(**kwargs)
            out = "ok"
        except (ValueError, TypeError) as e:
            out = "refused " + type(e).__name__
        except BaseException as e:
            out = "WRONG " + type(e).__name__ + ": " + str(e).splitlines()[0][:200]
        sys.stdout.write(out + "\\n")
        sys.stdout.flush()
    """
)


class Worker:
    """One Python process that runs calls, restarted when it dies."""

    def __init__(self):
        self.process = None
        # Outcomes by kind: ok, refused, timeout (a crash fails the test).
        self.tally = {}

    def start(self):
        self.process = subprocess.Popen(
            [sys.executable, "-c", WORKER],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )

    def call(self, name, kwargs):
        """``"ok"``, ``"refused ..."``, ``"WRONG ..."`` (another exception),
        ``"CRASH <status>"`` or ``"timeout"``."""
        if self.process is None or self.process.poll() is not None:
            self.start()
        line = base64.b64encode(pickle.dumps((name, kwargs))).decode()
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        ready, _, _ = select.select([self.process.stdout], [], [], TIMEOUT)
        if not ready:
            self.stop()
            out = "timeout"
        else:
            out = self.process.stdout.readline().strip()
            if not out:
                status = self.process.wait()
                self.process = None
                out = f"CRASH {status}"
        kind = out.split()[0]
        self.tally[kind] = self.tally.get(kind, 0) + 1
        return out

    def stop(self):
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


HOSTILE = [
    None, True, False, np.bool_(True), "0", "1", "False", "", "abc", "-1", "1/0",
    "1e999999999", "nan", float("nan"), float("inf"), -float("inf"), -1, 0, 1, 2,
    0.5, 1.9, 2.7, -0.5, 1e308, 5e-324, 10**6, 2**32, 2**63, 2**64, 2**100,
    -(2**70), Fraction(1, 3), Decimal("NaN"), Decimal("1e-999999"), "2^64", "2^30",
    [], [0], [[]], [[0, 1], [1]], [[0, 1]], np.array([[1, 2]]), {"a": 1},
    np.int64(3), np.float64(0.25), 1e-330, "1e-330", 1e20, "blocks", "round-robin", "any", "floor", "ceiling",
    "ceiling-plus-one", "real", "integer", "pull", "round", "dp-ucb", "dp-ucb-bound", "hybrid-ucb",
    "lowest", "uniform", "highest", "ordered-uniform", "Uniform", "current", "last-update", "last_update", "ucb1", "dp-ts", 63, 64,
]

LOSSES = [[0, 1], [1, 0], [0, "1/2"]]
SAMPLES = np.array([[1, 2, 2], [2, 1, 1]])
REWARDS = [[0.25, 0.0], [0.0, 0.75], [1, 0.5]]

# Valid arguments of every public function (each call changes some).
VALID = {
    "mechanism_law": dict(losses=[0, 1, 2], noise="gumbel", scale=1, digits=20),
    "sequence_law": dict(algorithm="wu-wang", losses=LOSSES, epsilon=1, noise="gumbel", resample=False, digits=20),
    "sample": dict(algorithm="ftl", losses=LOSSES, epsilon=1, n=5, seed=1, base=1),
    "gof": dict(algorithm="prefix-softmax", losses=LOSSES, epsilon=1, samples=SAMPLES, alpha=0.001, tv=None, base=1),
    "mechanism_gof": dict(losses=[0, 1], samples=[1, 2, 1], noise="gumbel", scale=1, alpha=0.001, base=1),
    "check_privacy": dict(algorithm="wu-wang", actions=2, horizon=2, alphabet=[0, 1], epsilon=1, noise="exponential", resample=False, threads=1),
    "mechanism_privacy": dict(noise="laplace", actions=2, alphabet=[0, 1], epsilon=1, neighbours="any", scale=2, threads=1),
    "privacy_all_epsilon": dict(algorithm="wu-wang", actions=2, horizon=2, alphabet=[0, 1], epsilon_range=(1, 2), noise="exponential", resample=False, threads=1),
    "regret": dict(algorithm="ftl", means=[0.5, 0.25], setting="deterministic", horizon=4, epsilon=1, bounds=True, digits=10),
    "audit": dict(first=SAMPLES, second=SAMPLES, confidence=0.95, base=1),
    "verify": dict(claim="cc-lem2-i", errata=False),
    "bandit_law": dict(algorithm="anytime-lazy-ucb", rewards=REWARDS, epsilon=1, bonus=3, base=1),
    "bandit_sample": dict(algorithm="dp-se", rewards=REWARDS, epsilon=1, n=5, seed=1, epoch_length=[1], base=1),
    "bandit_gof": dict(algorithm="anytime-lazy-ucb", rewards=REWARDS, epsilon=1, samples=[[1, 2, 1]], alpha=0.001, base=1),
    "bandit_privacy": dict(algorithm="dp-se", horizon=3, alphabet=[0, 1], epsilon=1, actions=2, epoch_length=[1], threads=1),
    "bandit_simulate": dict(algorithm="ucb1", means=[0.75, 0.5], horizon=50, runs=2, seed=1, confidence=0.95, threads=1),
}

# Arguments that also exist and have a default: each is fuzzed too.
EXTRA = {
    "mechanism_law": ["unit_weight", "force"],
    "sequence_law": ["noise_scale", "force"],
    "sample": ["noise", "noise_scale", "resample"],
    "gof": ["noise", "noise_scale", "resample", "force"],
    "mechanism_gof": ["unit_weight", "tv"],
    "check_privacy": ["noise_scale", "force"],
    "mechanism_privacy": ["force"],
    "privacy_all_epsilon": ["scale_factor", "force"],
    "regret": ["noise", "noise_scale", "resample", "force"],
    "audit": ["algorithm", "losses", "neighbour", "epsilon", "noise", "noise_scale", "resample", "force"],
    "verify": ["shard"],
    "bandit_law": ["noise_scale", "epoch_length", "tree_scale", "scale_factor", "beta", "pull_order", "rounding",
                   "reward_index", "radius", "tree_depth", "ties", "bonus_round", "force"],
    "bandit_sample": ["noise_scale", "bonus", "tree_scale", "scale_factor", "beta", "pull_order", "rounding",
                      "reward_index", "radius", "tree_depth", "ties", "bonus_round", "force"],
    "bandit_gof": ["noise_scale", "bonus", "epoch_length", "tree_scale", "scale_factor", "seed", "tv", "beta",
                   "pull_order", "rounding", "reward_index", "radius", "tree_depth", "ties", "bonus_round", "force"],
    "bandit_privacy": ["noise_scale", "tree_scale", "scale_factor", "bonus", "beta", "pull_order", "rounding", "radius",
                       "reward_index", "tree_depth", "bonus_round", "method", "runs", "seed", "confidence", "delta",
                       "force"],
    "bandit_simulate": ["epsilon", "experiment", "noise_scale", "bonus", "beta", "pull_order", "rounding", "radius",
                        "tree_depth", "ties", "bonus_round", "force"],
}

@st.composite
def calls(draw):
    name = draw(st.sampled_from(sorted(VALID)))
    kwargs = dict(VALID[name])
    names = sorted(set(kwargs) | set(EXTRA[name]))
    for arg in draw(st.lists(st.sampled_from(names), min_size=1, max_size=2, unique=True)):
        value = draw(st.sampled_from(HOSTILE))
        # Not fuzzed: force=True lifts every size limit on purpose, and
        # verify without a claim runs the whole registry (minutes).
        if arg == "force" and isinstance(value, (bool, np.bool_)) and value:
            continue
        if (name, arg) == ("verify", "claim") and value is None:
            continue
        kwargs[arg] = value
    return name, kwargs


@pytest.fixture(scope="module")
def worker():
    w = Worker()
    yield w
    w.stop()
    print(f"\nfuzzed calls by outcome: {w.tally}")


@settings(max_examples=int(os.environ.get("DPDTOL_FUZZ_EXAMPLES", "400")), derandomize=True, deadline=None,
          database=None, suppress_health_check=list(HealthCheck))
@given(calls())
def test_every_function_refuses_or_answers_never_crashes(worker, call):
    name, kwargs = call
    outcome = worker.call(name, kwargs)
    assert not outcome.startswith(("CRASH", "WRONG")), f"dpdtol.{name}(**{kwargs!r}): {outcome}"


def test_the_worker_sees_a_crash(worker):
    """The harness itself: a process that aborts is reported as a crash."""
    w = Worker()
    w.start()
    w.process.stdin.write("not base64 pickle\n")
    w.process.stdin.flush()
    assert w.process.stdout.readline() == "" and w.process.wait() != 0
    w.process = None


# What a driven policy may return in a round: arms of every type, out of
# range, or an exception raised instead.
POLICY_MOVES = [
    0, 1, 2, -1, np.int64(1), np.int32(0), np.uint8(1), True, np.bool_(False), 0.0, 1.5, float("nan"), "1", None,
    Fraction(1), Decimal(1), 2**64, "raise",
]


class _Scripted:
    """A select/update policy playing ``moves`` round after round."""

    def __init__(self, moves):
        self.moves, self.t = list(moves), 0

    def select(self):
        move = self.moves[self.t % len(self.moves)]
        self.t += 1
        if isinstance(move, str) and move == "raise":
            raise RuntimeError("the policy failed")
        return move

    def update(self, arm, reward):
        pass


class _Runner:
    """A run(bandit) policy that stops early or never stops pulling."""

    def __init__(self, forever):
        self.forever = forever

    def run(self, bandit):
        for _ in range(10**6 if self.forever else 1):
            try:
                bandit.pull(0)
            except Exception:  # a policy swallowing errors must still be stopped
                pass


def _valid_arm(move, base):
    """An arm the driver takes: a Python or numpy integer (not a boolean)
    among the two arms ``base``, ``base + 1``."""
    if isinstance(move, (bool, np.bool_)) or not isinstance(move, (int, np.integer)):
        return False
    return base <= int(move) < base + 2


@settings(max_examples=int(os.environ.get("DPDTOL_FUZZ_EXAMPLES", "400")) // 4, derandomize=True, deadline=None,
          database=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.sampled_from(POLICY_MOVES), min_size=1, max_size=4), st.sampled_from([0, 1]))
def test_the_driver_refuses_what_a_policy_does_wrong_and_never_coerces(moves, base):
    from dpdtol.drive import DriveError, drive_bandit

    table = [[0.25, 0.5], [1, 0], [0.5, 0.5]]
    played = [moves[t % len(moves)] for t in range(len(table))]
    ok = all(_valid_arm(m, base) for m in played)
    try:
        pulls = drive_bandit(lambda: _Scripted(moves), table, 2, seed=0, base=base)
    except DriveError:
        assert not ok, f"{moves} base {base}: refused"
        return
    assert ok, f"{moves} base {base}: accepted"
    assert pulls.shape == (2, 3) and pulls.dtype == np.int64
    assert [int(m) for m in played] == list(pulls[0])


def test_the_driver_stops_a_policy_that_never_stops_or_stops_early():
    from dpdtol.drive import DriveError, drive_bandit

    table = [[0.25, 0.5], [1, 0], [0.5, 0.5]]
    pulls = drive_bandit(lambda: _Runner(forever=True), table, 2, seed=0)
    assert (pulls == 0).all()
    with pytest.raises(DriveError, match="stopped after 1 of the T = 3 rounds"):
        drive_bandit(lambda: _Runner(forever=False), table, 2, seed=0)
