"""The driver: dpdtol runs your code on a table, n times, and tests what it did.

Three kinds of code are driven, each against the law dpdtol computes for it:

- a **bandit policy** (``drive_bandit``), run on a reward table (T x K, the
  contract of ``dpdtol.bandit``): at round t it pulls an arm and is told that
  arm's reward ``rewards[t - 1, arm]`` only, then chooses again;
- a **full-information sampler** (``drive_full_information``), a callable
  from the losses seen so far (a ``(t - 1) x K`` array) to the action of round
  t, driven over a loss sequence (T x K);
- a **one-shot mechanism** (``drive_mechanism``), a callable from a
  score or loss vector to an index.

Each run is fresh and seeded: before run ``i`` the driver seeds Python's
``random`` and numpy's global generator (``np.random.seed``) with
``run_seed(seed, i)``, so the samples are a function of ``seed``; then it makes
a fresh policy (a factory is called; an object is deep-copied from the one
given) and plays it to the horizon. A policy that keeps its own generator
(``np.random.default_rng()`` in ``__init__``) must be given as a factory:
a deep copy of a seeded generator repeats the same draws in every run.

Arms are checked as they are played: an arm that is not an integer, or not
one of the K arms, raises ``DriveError`` naming the run and the round.
Arms are numbered from ``base``: 0 by default here, as Python code indexes
arrays (``np.argmax``); the pull arrays returned keep that numbering and
carry it into the goodness-of-fit test.

Bandit protocols (``protocol=``, found from the policy's methods when not
given):

- ``"select"``: ``arm = policy.select()``, then ``policy.update(arm, reward)``;
- ``"select_arm"``: ``select_arm()`` / ``update(arm, reward)``;
- ``"pull_arm"``: ``pull_arm()`` / ``update(arm, reward)``;
- ``"step"``: ``arm = policy.step(reward, arm)``, told the previous round's
  reward and arm (``None, None`` in round 1), returns the next arm; its
  last call, after round T, is not made;
- ``"run"``: ``policy.run(bandit)`` plays by itself, calling
  ``bandit.pull(arm)`` for the reward (``bandit.arms``, ``bandit.horizon``
  and ``bandit.t``, the rounds played, are there to read); a pull after round
  T stops the run, and a run that stops before round T is an error;
- any callable ``play(policy, bandit)``: the same, for another protocol.

The tests: ``dpdtol.testing.assert_bandit_policy``,
``assert_full_information_sampler`` and ``assert_mechanism`` drive and test
in one call; ``bandit_departure`` names the round where a bandit's pulls
first depart from the law.
"""

import copy
import operator
import random
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any, Callable, Iterator, List, Optional, Tuple

import numpy as np

from . import _flag
from ._native import SAMPLE_VALUE_LIMIT, TooLargeError

__all__ = [
    "DriveError",
    "TableBandit",
    "run_seed",
    "drive_bandit",
    "drive_full_information",
    "drive_mechanism",
    "Departure",
    "bandit_departure",
    "worst_sequences",
    "residuals",
]

PROTOCOLS = ("select", "select_arm", "pull_arm", "step", "run")


class DriveError(ValueError):
    """The driven code did something the contract forbids (an arm out of
    range or not an integer, a run short of the horizon) or raised: the
    message names the run (from 0) and the round (from 1)."""


class _HorizonReached(BaseException):
    """Raised by ``TableBandit.pull`` after round T to stop a ``run`` loop;
    a ``BaseException`` so that a policy's ``except Exception`` lets it by."""


def run_seed(seed: int, i: int) -> int:
    """The seed of run ``i`` from ``seed``: ``(h + i) mod 2^32`` with ``h``
    the first 32-bit word of ``np.random.SeedSequence(seed)``, so that the
    runs of one seed are distinct and those of two seeds rarely meet.
    ``random.seed`` and ``np.random.seed`` both get it."""
    return (int(np.random.SeedSequence(seed).generate_state(1)[0]) + i) & 0xFFFFFFFF


class _Seeds:
    """``run_seed(seed, i)`` for i = 0, 1, .., with the hash computed once."""

    def __init__(self, seed: int) -> None:
        self._h = run_seed(seed, 0)

    def seed(self, i: int) -> None:
        s = (self._h + i) & 0xFFFFFFFF
        random.seed(s)
        np.random.seed(s)


def _count(x: Any, what: str, least: int) -> int:
    try:
        v = operator.index(x)
    except TypeError:
        raise ValueError(f"{what}: expected an integer, got {x!r}") from None
    if v < least:
        raise ValueError(f"{what}: expected an integer >= {least}, got {x!r}")
    return v


def _check_size(n: int, horizon: int, force: Any) -> None:
    """Refuse ``n`` runs of ``horizon`` rounds over the sample limit (the
    values a sample holds, as ``dpdtol.sample``), unless ``force``, before
    anything runs or is allocated."""
    values = n * horizon
    if not _flag(force, "force") and values > SAMPLE_VALUE_LIMIT:
        raise TooLargeError(
            f"too large: the values of {n} runs of {horizon} rounds: {values}, over the limit of "
            f"{SAMPLE_VALUE_LIMIT}; pass force=True to run it"
        )


def _table(rows: Any, what: str) -> np.ndarray:
    """A T x K table of finite numbers as float, read-only."""
    try:
        table = np.array(rows, dtype=float)
    except (TypeError, ValueError) as e:
        raise ValueError(f"{what}: expected a T x K table of numbers ({e})") from None
    if table.ndim != 2 or table.shape[0] < 1 or table.shape[1] < 2:
        raise ValueError(f"{what}: expected a T x K table with T >= 1 and K >= 2, got shape {table.shape}")
    if not np.all(np.isfinite(table)):
        raise ValueError(f"{what}: every entry must be a finite number")
    table.flags.writeable = False
    return table


def _where(what: str, i: int, t: Optional[int]) -> str:
    return f"{what} {i}" if t is None else f"{what} {i}, round {t}"


def _arm(a: Any, arms: int, base: int, what: str, i: int, t: Optional[int]) -> int:
    """``a`` as a 0-based arm, or DriveError naming call ``i`` (of kind
    ``what``) and its round ``t``."""
    if type(a) is int and base <= a < base + arms:
        return a - base
    where = _where(what, i, t)
    if isinstance(a, (bool, np.bool_)):
        raise DriveError(f"{where}: the arm is {a!r}, a boolean, not an arm number")
    try:
        k = operator.index(a)
    except TypeError:
        raise DriveError(
            f"{where}: the arm is {a!r} ({type(a).__name__}), not an integer"
        ) from None
    if not base <= k < base + arms:
        raise DriveError(
            f"{where}: arm {k} is not one of the K = {arms} arms {base}..{base + arms - 1} (base={base})"
        )
    return k - base


class TableBandit:
    """The environment of one run: ``pull(arm)`` returns that arm's reward in
    the current round (``rewards[t, arm - base]``, t the rounds played), or
    with ``reward_index="pull"`` at its current pull (``rewards[n, arm - base]``,
    n that arm's pulls so far: each column is the arm's own reward stream), and
    records the pull; ``arms`` (K), ``horizon`` (T) and ``t`` are read-only
    facts for a policy that asks. Also reachable as ``n_arms``, ``K``, ``T``."""

    def __init__(
        self, rewards: List[List[float]], base: int, pulls: np.ndarray, run: int, by_pull: bool = False
    ) -> None:
        self._rewards, self._base, self._pulls, self._run = rewards, base, pulls, run
        self.horizon = len(rewards)
        self.arms = len(rewards[0])
        self.t = 0
        self._counts = [0] * self.arms if by_pull else None

    n_arms = property(lambda self: self.arms)
    K = property(lambda self: self.arms)
    T = property(lambda self: self.horizon)

    def pull(self, arm: Any) -> float:
        t = self.t
        if t >= self.horizon:
            raise _HorizonReached
        k = _arm(arm, self.arms, self._base, "run", self._run, t + 1)
        self._pulls[t] = k + self._base
        self.t = t + 1
        if self._counts is None:
            return self._rewards[t][k]
        n = self._counts[k]
        self._counts[k] = n + 1
        return self._rewards[n][k]


def _select_then_update(choose: str) -> Callable[[Any, TableBandit], None]:
    def play(policy: Any, bandit: TableBandit) -> None:
        select, update, pull = getattr(policy, choose), policy.update, bandit.pull
        for _ in range(bandit.horizon):
            arm = select()
            update(arm, pull(arm))

    return play


def _step(policy: Any, bandit: TableBandit) -> None:
    reward = arm = None
    for _ in range(bandit.horizon):
        arm = policy.step(reward, arm)
        reward = bandit.pull(arm)


def _run(policy: Any, bandit: TableBandit) -> None:
    policy.run(bandit)


_PLAYS = {
    "select": _select_then_update("select"),
    "select_arm": _select_then_update("select_arm"),
    "pull_arm": _select_then_update("pull_arm"),
    "step": _step,
    "run": _run,
}


def _protocol_of(policy: Any) -> Optional[str]:
    return next((p for p in PROTOCOLS if callable(getattr(policy, p, None))), None)


def _maker(policy: Any, protocol: Any) -> Tuple[Callable[[], Any], Callable[[Any, TableBandit], None]]:
    """A fresh policy per call, and how to play it."""
    if isinstance(policy, type) or _protocol_of(policy) is None:
        if not callable(policy):
            raise ValueError(
                f"policy: expected an object with one of {', '.join(PROTOCOLS)} or a factory making one, got {policy!r}"
            )
        make = policy
    else:
        make = lambda: copy.deepcopy(policy)  # noqa: E731
    if callable(protocol):
        return make, protocol
    if protocol is not None and protocol not in _PLAYS:
        raise ValueError(f"protocol: expected one of {', '.join(PROTOCOLS)} or a callable play(policy, bandit), got {protocol!r}")
    if protocol is not None:
        return make, _PLAYS[protocol]
    found: List[Optional[str]] = []

    def play(p: Any, bandit: TableBandit) -> None:
        if not found:
            found.append(_protocol_of(p))
            if found[0] is None:
                raise DriveError(f"the policy {p!r} has none of the methods {', '.join(PROTOCOLS)}: pass protocol=")
        _PLAYS[found[0]](p, bandit)

    return make, play


def drive_bandit(
    policy: Any,
    rewards: Any,
    n: int,
    seed: int,
    *,
    base: int = 0,
    protocol: Any = None,
    reward_index: Optional[str] = None,
    force: bool = False,
) -> np.ndarray:
    """Run ``policy`` ``n`` times on ``rewards`` (T x K): an ``n x T`` int64
    array of the arms pulled, numbered from ``base``. ``policy`` is an object
    (deep-copied fresh for each run) or a factory (a class, or a function of
    no arguments, called for each run); ``protocol`` as in the module's
    documentation. Raises ``DriveError`` naming the run and round of an arm
    out of range, of a non-integer arm, or of an exception the policy raised,
    and a run that stops before the horizon. ``reward_index`` is ``"round"``
    (the default: the pull of round t receives row t) or ``"pull"`` (arm a's
    n-th pull receives row n), as ``--reward-index``. More than 2·10^8
    values (``n`` x T) raise ``TooLargeError`` before any run, unless
    ``force``."""
    n, seed, base = _count(n, "n", 1), _count(seed, "seed", 0), _count(base, "base", 0)
    if reward_index not in (None, "round", "pull"):
        raise ValueError(f"reward_index: expected 'round' or 'pull', got {reward_index!r}")
    table = _table(rewards, "rewards")
    rows = table.tolist()
    horizon = len(rows)
    _check_size(n, horizon, force)
    make, play = _maker(policy, protocol)
    pulls = np.empty((n, horizon), dtype=np.int64)
    seeds = _Seeds(seed)
    for i in range(n):
        seeds.seed(i)
        bandit = TableBandit(rows, base, pulls[i], i, by_pull=reward_index == "pull")
        try:
            play(make(), bandit)
        except _HorizonReached:
            pass
        except DriveError:
            raise
        except Exception as e:
            raise DriveError(f"run {i}, after {bandit.t} rounds: the policy raised {type(e).__name__}: {e}") from e
        if bandit.t < horizon:
            raise DriveError(f"run {i}: the policy stopped after {bandit.t} of the T = {horizon} rounds")
    return pulls


def drive_full_information(
    sampler: Any, losses: Any, n: int, seed: int, *, base: int = 0, factory: bool = False, force: bool = False
) -> np.ndarray:
    """Run a full-information ``sampler`` ``n`` times over ``losses`` (T x K):
    in round t it is called with the losses of rounds 1..t-1 (a read-only
    ``(t - 1) x K`` float array, empty in round 1) and returns the action of
    round t. With ``factory``, ``sampler()`` makes a fresh sampler for each
    run (for samplers that keep state between rounds). Returns the ``n x T``
    int64 array of actions, numbered from ``base``; ``DriveError`` names the
    run and round of an action out of range or not an integer. More than
    2·10^8 values raise ``TooLargeError`` before any run, unless ``force``."""
    n, seed, base = _count(n, "n", 1), _count(seed, "seed", 0), _count(base, "base", 0)
    table = _table(losses, "losses")
    horizon, arms = table.shape
    _check_size(n, horizon, force)
    seen = [table[:t] for t in range(horizon)]
    actions = np.empty((n, horizon), dtype=np.int64)
    seeds = _Seeds(seed)
    for i in range(n):
        seeds.seed(i)
        act = sampler() if factory else sampler
        row = actions[i]
        for t in range(horizon):
            try:
                a = act(seen[t])
            except Exception as e:
                raise DriveError(f"{_where('run', i, t + 1)}: the sampler raised {type(e).__name__}: {e}") from e
            row[t] = _arm(a, arms, base, "run", i, t + 1) + base
    return actions


def drive_mechanism(
    mechanism: Any, values: Any, n: int, seed: int, *, base: int = 0, force: bool = False
) -> np.ndarray:
    """Call a one-shot ``mechanism`` ``n`` times on ``values`` (a vector of
    K scores or losses, passed as a fresh float array each call): the 1-D
    int64 array of the indices returned, numbered from ``base``. ``DriveError``
    names the call of an index out of range or not an integer. More than
    2·10^8 calls raise ``TooLargeError`` before any, unless ``force``."""
    n, seed, base = _count(n, "n", 1), _count(seed, "seed", 0), _count(base, "base", 0)
    vector = np.array(values, dtype=float)
    if vector.ndim != 1 or vector.size < 2 or not np.all(np.isfinite(vector)):
        raise ValueError(f"values: expected a vector of at least 2 finite numbers, got {values!r}")
    _check_size(n, 1, force)
    out = np.empty(n, dtype=np.int64)
    seeds = _Seeds(seed)
    for i in range(n):
        seeds.seed(i)
        try:
            a = mechanism(vector.copy())
        except Exception as e:
            raise DriveError(f"call {i}: the mechanism raised {type(e).__name__}: {e}") from e
        out[i] = _arm(a, vector.size, base, "call", i, None) + base
    return out


@dataclass(frozen=True)
class Departure:
    """A cell of the pull sequences' prefixes: the pulls of rounds 1..``round``
    (numbered from the samples' base), observed ``observed`` times where the
    law expects ``expected``, standardized residual ``z = (O - E)/sqrt(E)``
    (infinite for a prefix of probability 0)."""

    round: int
    pulls: Tuple[int, ...]
    observed: int
    expected: float
    z: float

    def __str__(self) -> str:
        pulls = ",".join(map(str, self.pulls))
        return f"round {self.round}, pulls {pulls}: observed {self.observed}, expected {self.expected:.1f} (z = {self.z:+.1f})"


def residuals(observed: Any, expected: Any) -> np.ndarray:
    """Standardized residuals ``(O - E)/sqrt(E)``, infinite where ``E = 0 < O``."""
    observed, expected = np.asarray(observed, dtype=float), np.asarray(expected, dtype=float)
    safe = np.where(expected > 0, expected, 1.0)
    return np.where(expected > 0, (observed - expected) / np.sqrt(safe), np.where(observed > 0, np.inf, 0.0))


def _prefix_cells(law: Any, pulls: Any) -> Iterator[List[Departure]]:
    """For each round t, every prefix a_1..a_t that the law or the samples
    hold, as a ``Departure``, worst first."""
    arr = np.asarray(pulls, dtype=np.int64) - law.base
    sequences = np.asarray(law.sequences, dtype=np.int64) - law.base
    m, (n, horizon) = len(sequences), arr.shape
    both = np.concatenate([sequences, arr])
    weights = np.concatenate([n * law.approx, np.zeros(n)])
    k = max(law.arms, int(both.max(initial=0)) + 1)
    code = np.zeros(m + n, dtype=np.int64)
    for t in range(horizon):
        # Prefixes numbered 0.. in each round, so the codes stay below (m + n) k.
        _, code = np.unique(code * k + both[:, t], return_inverse=True)
        code = code.reshape(-1)
        size = int(code.max()) + 1
        expected = np.bincount(code, weights=weights, minlength=size)
        observed = np.bincount(code[m:], minlength=size)
        z = residuals(observed, expected)
        _, first_row = np.unique(code, return_index=True)
        order = np.argsort(-np.abs(z), kind="stable")
        yield [
            Departure(t + 1, tuple(int(a) + law.base for a in both[first_row[j], : t + 1]),
                      int(observed[j]), float(expected[j]), float(z[j]))
            for j in order
        ]


def bandit_departure(law: Any, pulls: Any, alpha: float = 1e-3) -> Tuple[Optional[Departure], List[Departure]]:
    """Where ``pulls`` (an ``n x T`` array numbered from ``law.base``) depart
    from ``law`` (a ``BanditLaw``), round by round. For each round t the
    prefixes a_1..a_t are cells, their law the sum of the law's sequences
    that start so (f64, a guide: the verdict is the goodness-of-fit test's).
    Returns the first departure (the worst cell of the first round whose
    largest |z| exceeds the normal quantile at ``alpha`` over all the cells of
    every round, Bonferroni, or a prefix of probability 0; None when no round
    does) and, per round, its worst cell."""
    rounds = list(_prefix_cells(law, pulls))
    cells = sum(len(r) for r in rounds)
    critical = NormalDist().inv_cdf(1 - alpha / (2 * max(cells, 1)))
    worst = [r[0] for r in rounds]
    first = next((d for d in worst if abs(d.z) > critical), None)
    return first, worst


def worst_sequences(law: Any, pulls: Any, count: int = 5) -> List[Departure]:
    """The ``count`` whole pull sequences furthest from ``law``, worst first."""
    *_, last = _prefix_cells(law, pulls)
    return last[:count]
