"""Test helpers: assert in pytest that samples follow an algorithm's exact law.

>>> from dpdtol.testing import assert_matches_law
>>> assert_matches_law("wu-wang", losses, 1, my_samples, noise="gumbel",
...                    resample=True, base=0)           # doctest: +SKIP

On failure the ``AssertionError`` says what was tested, the verdict of
``dpdtol.gof``, and the worst cells: for each choice of the schedule, the
actions whose observed counts are furthest from the expected ``n p`` (in
standard deviations ``(O - E) / sqrt(E)``), and, when the joint law has few
enough cells, the joint cells too (randomness shared between choices shows
there only). Expected counts use the law's f64 approximation: they guide the
reader, the verdict is ``gof``'s.

``assert_bandit_policy``, ``assert_full_information_sampler`` and
``assert_mechanism`` take the code itself (``dpdtol.drive``): they run it on
the table ``n`` times, fresh and seeded per run, then test what it did; a
bandit's failure names the round where its pulls first depart from the law.
"""

import copy
from fractions import Fraction
from itertools import product
from typing import Any, List, Optional, Tuple

import numpy as np

from . import DEFAULT_ALPHA, GofResult, SequenceLaw, _actions, _base, _exact, gof, mechanism_gof
from .bandit import bandit_gof
from .drive import bandit_departure, drive_bandit, drive_full_information, drive_mechanism, residuals, worst_sequences

__all__ = [
    "assert_matches_law",
    "worst_cells",
    "assert_bandit_policy",
    "assert_full_information_sampler",
    "assert_mechanism",
]

MAX_JOINT_CELLS = 4096  # joint cells listed in a failure message at most


def _rounds(r: range) -> str:
    return f"round {r.start}" if len(r) == 1 else f"rounds {r.start}–{r.stop - 1}"


def worst_cells(
    law: SequenceLaw, samples: Any, base: int = 1, count: int = 5
) -> List[Tuple[float, str, int, float]]:
    """The ``count`` cells of ``samples`` (an ``n x T`` array, actions numbered
    from ``base``) furthest from ``law``, worst first: ``(z, cell, observed,
    expected)`` with ``z = (O - E) / sqrt(E)`` (infinite for a cell of
    probability 0 that was observed). A choice's action is read at its first
    round; cells are per choice, and joint when there are at most
    ``MAX_JOINT_CELLS`` of them."""
    arr = _actions(samples, 2, _base(base))
    n = arr.shape[0]
    probs = law.approx
    firsts = [c.plays.start - 1 for c in law.schedule]
    cells = []

    def add(name: str, observed: int, p: float) -> None:
        expected = n * p
        if expected > 0:
            z = (observed - expected) / np.sqrt(expected)
        else:
            z = np.inf if observed > 0 else 0.0
        cells.append((float(z), name, int(observed), float(expected)))

    k = probs.shape[1]
    for c, (choice, first) in enumerate(zip(law.schedule, firsts)):
        observed = np.bincount(np.clip(arr[:, first], 0, k), minlength=k + 1)
        for a in range(k):
            add(f"choice {c} ({_rounds(choice.plays)}), action {a + base}", observed[a], probs[c][a])
    if len(firsts) > 1 and k ** len(firsts) <= MAX_JOINT_CELLS:
        picked = np.clip(arr[:, firsts], 0, k - 1)
        index = np.ravel_multi_index(picked.T, (k,) * len(firsts))
        observed = np.bincount(index, minlength=k ** len(firsts))
        for i, cell in enumerate(product(range(k), repeat=len(firsts))):
            p = float(np.prod([probs[c][a] for c, a in enumerate(cell)]))
            actions = ", ".join(str(a + base) for a in cell)
            add(f"joint cell (actions {actions} of the {len(firsts)} choices)", observed[i], p)
    cells.sort(key=lambda x: -abs(x[0]))
    return cells[:count]


def assert_matches_law(
    algorithm: str,
    losses: Any,
    epsilon: Any,
    samples: Any,
    *,
    noise: Optional[str] = None,
    noise_scale: Any = None,
    resample: Optional[bool] = None,
    base: int = 1,
    alpha: float = DEFAULT_ALPHA,
    force: bool = False,
    worst: int = 5,
) -> GofResult:
    """Assert that ``samples`` (an ``n x T`` array of actions numbered from
    ``base``) from an implementation of ``algorithm`` follow its exact law on
    ``losses`` (``dpdtol.gof`` at level ``alpha``, parameters as there).
    Returns the ``GofResult`` when they do; raises ``AssertionError`` naming
    the ``worst`` cells with their observed and expected counts when not."""
    result = gof(
        algorithm,
        losses,
        epsilon,
        samples,
        alpha=alpha,
        noise=noise,
        noise_scale=noise_scale,
        resample=resample,
        force=force,
        base=base,
    )
    if not result.rejected:
        return result
    lines = [str(result), "worst cells (observed vs expected count, (O - E)/sqrt(E)):"]
    for z, name, observed, expected in worst_cells(result.law, samples, base, worst):
        lines.append(f"  {name}: observed {observed}, expected {expected:.1f} ({z:+.1f})")
    raise AssertionError("\n".join(lines))


def _driven(what: str, n: int, seed: int, base: int) -> str:
    return f"{what} driven {n} times from seed {seed} (arms numbered from {base} by the code)"


def assert_bandit_policy(
    algorithm: str,
    policy: Any,
    rewards: Any,
    epsilon: Any,
    *,
    n: int = 10_000,
    seed: int = 0,
    base: int = 0,
    protocol: Any = None,
    alpha: float = DEFAULT_ALPHA,
    force: bool = False,
    worst: int = 5,
    **params: Any,
) -> GofResult:
    """Drive ``policy`` (an object or a factory, see ``dpdtol.drive``) ``n``
    times on ``rewards`` from ``seed`` and assert that its pull sequences
    follow the law of ``algorithm`` (``dpdtol.bandit_gof`` at level
    ``alpha``, with ``params`` as there: ``noise_scale``, ``epoch_lengths``,
    ...; with ``reward_index="pull"`` the policy is fed by pull, arm a's n-th
    pull receiving ``rewards[n - 1, a]``). Returns the ``GofResult`` when they do. Otherwise the
    ``AssertionError`` names the round where the pulls first depart from the
    law and, for every round, the prefix a_1..a_t furthest from it (observed
    and expected counts, standardized residual), then the ``worst`` sequences;
    an arm out of range raises ``DriveError`` naming its run and round."""
    # The law is of the table as given: the driven code holds no copy of it.
    rewards = copy.deepcopy(rewards)
    pulls = drive_bandit(
        policy, rewards, n, seed, base=base, protocol=protocol, reward_index=params.get("reward_index"), force=force
    )
    result = bandit_gof(algorithm, rewards, epsilon, pulls, alpha=alpha, force=force, base=base, **params)
    if not result.rejected:
        return result
    lines = [_driven(f"{algorithm} policy", n, seed, base), str(result)]
    if result.law is not None:
        first, rounds = bandit_departure(result.law, pulls, alpha)
        lines.append(
            f"first departs from the law at {first}" if first else "no round's prefixes depart alone (the joint law does)"
        )
        lines.append("largest standardized residual (O - E)/sqrt(E) of the prefixes, per round:")
        lines += [f"  {d}" for d in rounds]
        full = worst_sequences(result.law, pulls, worst)
        lines.append("worst pull sequences:")
        lines += [f"  {d}" for d in full]
    raise AssertionError("\n".join(lines))


def assert_full_information_sampler(
    algorithm: str,
    sampler: Any,
    losses: Any,
    epsilon: Any,
    *,
    n: int = 10_000,
    seed: int = 0,
    base: int = 0,
    factory: bool = False,
    noise: Optional[str] = None,
    noise_scale: Any = None,
    resample: Optional[bool] = None,
    alpha: float = DEFAULT_ALPHA,
    force: bool = False,
    worst: int = 5,
) -> GofResult:
    """Drive ``sampler`` (a callable from the losses seen to an action, or
    with ``factory`` a function making one per run; ``dpdtol.drive``) ``n``
    times over ``losses`` from ``seed`` and assert that its action sequences
    follow the law of ``algorithm`` (``assert_matches_law``, whose failure
    message names the choices, their rounds and the cells furthest from the
    law)."""
    losses = copy.deepcopy(losses)
    actions = drive_full_information(sampler, losses, n, seed, base=base, factory=factory, force=force)
    try:
        return assert_matches_law(
            algorithm, losses, epsilon, actions, noise=noise, noise_scale=noise_scale,
            resample=resample, base=base, alpha=alpha, force=force, worst=worst,
        )
    except AssertionError as e:
        raise AssertionError(f"{_driven(f'{algorithm} sampler', n, seed, base)}\n{e}") from None


def assert_mechanism(
    mechanism: Any,
    *,
    noise: Optional[str] = None,
    losses: Any = None,
    scores: Any = None,
    scale: Any = None,
    unit_weight: Any = None,
    n: int = 10_000,
    seed: int = 0,
    base: int = 0,
    alpha: float = DEFAULT_ALPHA,
    worst: int = 5,
    force: bool = False,
) -> GofResult:
    """Call the one-shot ``mechanism`` ``n`` times on ``losses`` (it selects
    a small loss) or on ``scores`` (it selects a large score: the law is
    report-noisy-max on the losses ``-scores``), seeding each call from
    ``seed``, and assert that its indices follow report-noisy-max with
    ``noise`` of scale ``scale`` (or ``unit_weight``): ``dpdtol.mechanism_gof``.
    On failure the ``AssertionError`` names the ``worst`` indices, observed
    against expected counts. ``force`` lets more than 2·10^8 calls run."""
    if (losses is None) == (scores is None):
        raise ValueError("give one of losses= (the mechanism selects a small one) and scores= (a large one)")
    losses, scores = copy.deepcopy(losses), copy.deepcopy(scores)
    values = losses if scores is None else scores
    if scores is not None:
        losses = [-Fraction(_exact(s, "scores")) for s in np.atleast_1d(np.asarray(scores, dtype=object))]
    picked = drive_mechanism(mechanism, values, n, seed, base=base, force=force)
    result = mechanism_gof(losses, picked, noise=noise, scale=scale, unit_weight=unit_weight, alpha=alpha, base=base)
    if not result.rejected:
        return result
    expected = n * np.asarray(result.law.approx, dtype=float)
    observed = np.bincount(picked - base, minlength=len(expected))
    z = residuals(observed, expected)
    lines = [_driven("mechanism", n, seed, base), str(result), "worst indices (observed vs expected count, (O - E)/sqrt(E)):"]
    for a in np.argsort(-np.abs(z))[:worst]:
        lines.append(f"  index {a + base}: observed {observed[a]}, expected {expected[a]:.1f} ({z[a]:+.1f})")
    raise AssertionError("\n".join(lines))
