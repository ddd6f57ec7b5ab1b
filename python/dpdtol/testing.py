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
"""

from itertools import product
from typing import Any, List, Optional, Tuple

import numpy as np

from . import DEFAULT_ALPHA, GofResult, SequenceLaw, _actions, _base, gof

__all__ = ["assert_matches_law", "worst_cells"]

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
