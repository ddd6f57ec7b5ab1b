"""dpdtol from Python: exact laws, reference samples and goodness-of-fit tests.

The Rust crate ``dpdtol`` computes the exact (rational) or certified (interval)
law of differentially private selection mechanisms and online-learning
algorithms. This package exposes it to a researcher who wants to test a numpy
implementation against it:

>>> import dpdtol, numpy as np
>>> losses = np.array([[0.0, 1.0], [1.0, 0.0], [0.0, 0.5]])
>>> law = dpdtol.sequence_law("wu-wang", losses, epsilon=1, noise="gumbel")
>>> law.kind, [c.plays for c in law.schedule]
('certified', [range(1, 2), range(2, 4)])
>>> samples = dpdtol.sample("wu-wang", losses, 1, n=1000, seed=7, noise="gumbel")
>>> dpdtol.gof("wu-wang", losses, 1, samples, noise="gumbel").rejected
False

Numbers. Inputs are read exactly: ``Fraction``, ``int``, ``Decimal`` and
strings (``"1/4"``, ``"0.25"``) as they are; a ``float`` by its shortest
decimal form (``repr``: ``0.1`` is 1/10, not the binary double nearest it).
Outputs say what they are: ``kind == "exact"`` values carry a ``Fraction``;
``kind == "certified"`` values an enclosure ``(lo, hi)`` of decimal strings
rounded outward (``lo <= value <= hi`` holds for the decimals themselves);
every value also has ``approx``, a float labelled approximate, for statistics
and plots only.

Errors. Bad input raises ``ValueError`` with one line saying what is wrong;
work over a size limit raises ``TooLargeError`` (a ``ValueError``) naming its
size and the argument that forces it.

Indices. Actions are 0-based in arrays (``gof(..., one_based=True)`` reads
1-based ones); rounds are 1-based, as in the papers, and a choice's ``plays``
and ``reads`` are ``range`` objects of rounds.
"""

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from numbers import Integral, Real
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from . import _native
from ._native import TooLargeError

__all__ = [
    "Value",
    "Law",
    "Choice",
    "SequenceLaw",
    "GofResult",
    "TooLargeError",
    "mechanism_law",
    "sequence_law",
    "sample",
    "gof",
    "mechanism_gof",
    "check_privacy",
    "regret",
]

DEFAULT_ALPHA = 1e-3  # the family-wise level of `dpdtol gof` (dpdtol::oracle::gof)


def _exact(x: Any, what: str) -> str:
    """An exact number as the string the Rust side parses."""
    if isinstance(x, (bool, np.bool_)):
        raise ValueError(f"{what}: expected a number, got the boolean {x!r}")
    if isinstance(x, str):
        return x
    if isinstance(x, Fraction):
        return f"{x.numerator}/{x.denominator}"
    if isinstance(x, Integral):
        return str(int(x))
    if isinstance(x, Decimal):
        return str(x)
    if isinstance(x, Real):
        return repr(float(x))
    raise ValueError(f"{what}: expected a number, got {type(x).__name__} {x!r}")


def _vector(xs: Any, what: str) -> List[str]:
    arr = xs if isinstance(xs, (list, tuple)) else np.asarray(xs, dtype=object)
    if isinstance(arr, np.ndarray) and arr.ndim != 1:
        raise ValueError(f"{what}: expected a vector, got an array of shape {arr.shape}")
    return [_exact(x, what) for x in arr]


def _matrix(rows: Any, what: str) -> List[List[str]]:
    """A loss sequence: one loss vector a round."""
    if isinstance(rows, np.ndarray) and rows.ndim != 2:
        raise ValueError(
            f"{what}: expected a 2-D array (rounds x actions), got shape {rows.shape}"
        )
    return [_vector(r, what) for r in rows]


def _option(x: Any, what: str) -> Optional[str]:
    return None if x is None else _exact(x, what)


@dataclass(frozen=True)
class Value:
    """One number: exact (``exact`` is a Fraction) or certified (``lo <= value <= hi``)."""

    exact: Optional[Fraction]
    """The exact value, or None when it is only certified."""
    lo: str
    """A lower bound, as a decimal string rounded down."""
    hi: str
    """An upper bound, as a decimal string rounded up."""
    approx: float
    """An approximation (float), for statistics and plots only."""

    @classmethod
    def _of(cls, t: Tuple[Optional[str], str, str, float]) -> "Value":
        exact, lo, hi, approx = t
        return cls(None if exact is None else Fraction(exact), lo, hi, approx)

    @property
    def interval(self) -> Tuple[Fraction, Fraction]:
        """The enclosure as exact Fractions (of the decimal bounds)."""
        return Fraction(self.lo), Fraction(self.hi)


@dataclass(frozen=True)
class _Provenance:
    kind: str
    """``"exact"`` or ``"certified"``."""
    precision_bits: Optional[int]
    """The working precision of certified values (None when exact)."""
    accepted: bool
    """Whether every certified value met the requested relative width."""
    why_not_exact: Optional[str]
    """Why no exact value could be given (None when exact)."""


def _provenance(d: Dict[str, Any]) -> Dict[str, Any]:
    return {k: d[k] for k in ("kind", "precision_bits", "accepted", "why_not_exact")}


@dataclass(frozen=True)
class Law(_Provenance):
    """The law of one selection over K actions."""

    values: Tuple[Value, ...] = ()

    @property
    def exact(self) -> Optional[Tuple[Fraction, ...]]:
        """The probabilities as Fractions, when exact."""
        if self.kind != "exact":
            return None
        return tuple(v.exact for v in self.values)

    @property
    def intervals(self) -> List[Tuple[str, str]]:
        """The enclosures ``(lo, hi)`` (decimal strings) of the probabilities."""
        return [(v.lo, v.hi) for v in self.values]

    @property
    def approx(self) -> np.ndarray:
        """The probabilities as floats: approximate, for statistics and plots only."""
        return np.array([v.approx for v in self.values])


@dataclass(frozen=True)
class Choice:
    """One random choice of an online algorithm: its action is played on the
    rounds ``plays`` and its law depends on the losses of the rounds ``reads``
    only (rounds numbered from 1)."""

    plays: range
    reads: range


@dataclass(frozen=True)
class SequenceLaw(_Provenance):
    """The law of an online algorithm's actions I_1..I_T on one loss sequence:
    independent choices, each played on its rounds."""

    schedule: Tuple[Choice, ...] = ()
    choices: Tuple[Tuple[Value, ...], ...] = ()

    @property
    def approx(self) -> np.ndarray:
        """``C x K`` array of choice probabilities: approximate (floats)."""
        return np.array([[v.approx for v in c] for c in self.choices])

    def probability(self, actions: Sequence[int]):
        """P(I_1..I_T = actions) (0-based actions): a Fraction when exact, else
        an enclosure ``(lo, hi)`` of Fractions (products of the bounds)."""
        actions = [int(a) for a in actions]
        horizon = self.schedule[-1].plays.stop - 1 if self.schedule else 0
        if len(actions) != horizon:
            raise ValueError(f"expected {horizon} actions, got {len(actions)}")
        k = len(self.choices[0])
        if any(not 0 <= a < k for a in actions):
            raise ValueError(f"actions must lie in 0..{k - 1}")
        lo, hi = Fraction(1), Fraction(1)
        for choice, law in zip(self.schedule, self.choices):
            played = {actions[t - 1] for t in choice.plays}
            if len(played) != 1:
                return Fraction(0) if self.kind == "exact" else (Fraction(0), Fraction(0))
            v = law[played.pop()]
            if self.kind == "exact":
                lo *= v.exact
            else:
                a, b = v.interval
                lo, hi = lo * a, hi * b
        return lo if self.kind == "exact" else (lo, hi)


def _law(d: Dict[str, Any]) -> Law:
    return Law(**_provenance(d), values=tuple(Value._of(t) for t in d["laws"][0]))


def _sequence_law(d: Dict[str, Any]) -> SequenceLaw:
    return SequenceLaw(
        **_provenance(d),
        schedule=tuple(Choice(range(a, b), range(c, e)) for a, b, c, e in d["schedule"]),
        choices=tuple(tuple(Value._of(t) for t in row) for row in d["laws"]),
    )


def mechanism_law(
    losses: Any,
    noise: str = "gumbel",
    scale: Any = None,
    unit_weight: Any = None,
    digits: int = 30,
) -> Law:
    """The law of report-noisy-max ``argmax_i (-losses[i] + Z_i)`` with i.i.d.
    ``noise`` (``"gumbel"``: the exponential mechanism; ``"exponential"``:
    permute-and-flip; ``"laplace"``) of scale β = ``scale``, or given by its
    ``unit_weight`` e^(-1/β) (which makes the Gumbel and exponential laws exact
    on rational losses). Exact when it can be, else certified to relative width
    10^-digits."""
    d = _native.mechanism_law(
        noise,
        _vector(losses, "losses"),
        _option(scale, "scale"),
        _option(unit_weight, "unit_weight"),
        int(digits),
    )
    return _law(d)


def _algorithm_args(epsilon, noise, noise_scale, resample) -> Dict[str, Any]:
    return dict(
        epsilon=_exact(epsilon, "epsilon"),
        noise=noise,
        noise_scale=_option(noise_scale, "noise_scale"),
        resample=bool(resample),
    )


def sequence_law(
    algorithm: str,
    losses: Any,
    epsilon: Any,
    noise: Optional[str] = None,
    noise_scale: Any = None,
    resample: bool = False,
    digits: int = 30,
    force: bool = False,
) -> SequenceLaw:
    """The law of ``algorithm``'s action sequence on ``losses`` (T x K, one loss
    vector a round, in [0, 1]). ``algorithm`` is one of ``ftl``, ``naive-ftnl``,
    ``hu-rnm-ftnl``, ``wu-wang``, ``prefix-softmax``; ``noise``
    (``gumbel``/``exponential``/``laplace``, default Laplace) and ``resample``
    (B = 1) are ``wu-wang``'s; ``noise_scale`` overrides the paper's default
    scale (for ``prefix-softmax``, the temperature 1/η). The resampling law
    costs (n+1)^K selections per choice of n rounds: over dpdtol's limit it
    raises TooLargeError unless ``force``."""
    d = _native.sequence_law(
        algorithm,
        _matrix(losses, "losses"),
        digits=int(digits),
        force=bool(force),
        **_algorithm_args(epsilon, noise, noise_scale, resample),
    )
    return _sequence_law(d)


def sample(
    algorithm: str,
    losses: Any,
    epsilon: Any,
    n: int,
    seed: int,
    noise: Optional[str] = None,
    noise_scale: Any = None,
    resample: bool = False,
) -> np.ndarray:
    """``n`` reference action sequences (an ``n x T`` int64 array, 0-based
    actions) of ``algorithm`` on ``losses``: each choice's action is drawn from
    its exact or certified law by exact inversion, so the samples follow the
    law that ``law`` gives at any parameters. The array depends on ``seed``
    only, not on the number of threads."""
    if int(n) < 0 or int(seed) < 0:
        raise ValueError("n and seed must be non-negative integers")
    return _native.sample(
        algorithm,
        _matrix(losses, "losses"),
        n=int(n),
        seed=int(seed),
        **_algorithm_args(epsilon, noise, noise_scale, resample),
    )


@dataclass(frozen=True)
class GofResult:
    """The outcome of a goodness-of-fit test (see ``gof``)."""

    rejected: bool
    """True when the samples are not from the law at level alpha: a sample
    outside the support, or a p-value below alpha / (number of tests)."""
    p_min: float
    """The smallest p-value (asymptotic: the chi-square approximation)."""
    tests: Tuple[Dict[str, Any], ...]
    """Each test: ``name`` (``"choice c"``, ``"joint"``), ``cells``, ``groups``
    (after pooling), ``statistic``, ``df``, ``p_value``, ``n_for_tv`` (the
    sample size that detects the total-variation distance ``tv`` with
    probability 0.9, when ``tv`` was given)."""
    support_violation: Optional[Dict[str, Any]]
    """The first sample the law gives probability 0: ``sample`` (row) and ``reason``."""
    alpha: float
    per_test_alpha: float
    """alpha / (number of tests): the Bonferroni level of each test."""
    joint_skipped: Optional[str]
    """Why the joint test was not run, if it was not."""
    n: int
    law: Any
    """The law tested against (a SequenceLaw, or a Law for ``mechanism_gof``)."""


def _gof_result(d: Dict[str, Any], law) -> GofResult:
    fields = {k: d[k] for k in GofResult.__dataclass_fields__ if k != "law"}
    fields["tests"] = tuple(fields["tests"])
    return GofResult(**fields, law=law)


def _actions(samples: Any, ndim: int, one_based: bool) -> np.ndarray:
    arr = np.asarray(samples)
    if arr.ndim != ndim:
        raise ValueError(f"samples: expected a {ndim}-D array, got shape {arr.shape}")
    if arr.dtype.kind == "f":
        if not np.all(np.isfinite(arr)) or not np.all(arr == np.round(arr)):
            raise ValueError("samples: actions must be integers")
    elif arr.dtype.kind not in "iub":
        raise ValueError(f"samples: actions must be integers, got dtype {arr.dtype}")
    arr = np.ascontiguousarray(arr, dtype=np.int64)
    arr = arr - 1 if one_based else arr
    if arr.size and arr.min() < 0:
        raise ValueError(
            f"samples: action {arr.min() + int(one_based)} is below the first action"
            f" ({'1: one_based=True' if one_based else '0: pass one_based=True for 1-based actions'})"
        )
    return arr


def gof(
    algorithm: str,
    losses: Any,
    epsilon: Any,
    samples: Any,
    one_based: bool = False,
    alpha: float = DEFAULT_ALPHA,
    tv: Optional[float] = None,
    noise: Optional[str] = None,
    noise_scale: Any = None,
    resample: bool = False,
    force: bool = False,
) -> GofResult:
    """Test ``samples`` (an ``n x T`` array of actions, 0-based unless
    ``one_based``) from any implementation of ``algorithm`` on ``losses``
    against the exact law. In order: the support (every sample plays one action
    throughout each choice's rounds, of positive probability); a Pearson
    chi-square per choice; one on the joint law of all choices (which sees
    randomness shared between choices). Cells are pooled in order of increasing
    expected count until each expects >= 5; the sample is rejected when any
    p-value is below alpha / (number of tests) (``dpdtol::oracle::gof``, the
    test of ``dpdtol gof``). With ``tv``, each test also reports the sample
    size that detects a total-variation distance ``tv`` with probability 0.9.
    ``force`` lifts the cost guard of the resampling (B = 1) law."""
    d = _native.gof(
        algorithm,
        _matrix(losses, "losses"),
        samples=_actions(samples, 2, one_based),
        alpha=float(alpha),
        tv=None if tv is None else float(tv),
        force=bool(force),
        **_algorithm_args(epsilon, noise, noise_scale, resample),
    )
    return _gof_result(d, _sequence_law(d["law"]))


def mechanism_gof(
    losses: Any,
    samples: Any,
    noise: str = "gumbel",
    scale: Any = None,
    unit_weight: Any = None,
    one_based: bool = False,
    alpha: float = DEFAULT_ALPHA,
    tv: Optional[float] = None,
) -> GofResult:
    """``gof`` for one report-noisy-max selection (see ``mechanism_law``):
    ``samples`` is a 1-D array of selected indices."""
    d = _native.mechanism_gof(
        noise,
        _vector(losses, "losses"),
        _actions(samples, 1, one_based),
        scale=_option(scale, "scale"),
        unit_weight=_option(unit_weight, "unit_weight"),
        alpha=float(alpha),
        tv=None if tv is None else float(tv),
    )
    return _gof_result(d, _law(d["law"]))


def _fractions(rows: List[List[str]]) -> List[List[Fraction]]:
    return [[Fraction(x) for x in r] for r in rows]


def check_privacy(
    algorithm: str,
    actions: int,
    horizon: int,
    alphabet: Sequence[Any],
    epsilon: Any,
    noise: Optional[str] = None,
    noise_scale: Any = None,
    resample: bool = False,
    force: bool = False,
    threads: Optional[int] = None,
) -> Dict[str, Any]:
    """Exhaustive ε-DP check of ``algorithm`` with K = ``actions`` over every pair
    of neighbouring loss sequences of length ``horizon`` with losses in
    ``alphabet`` (``dpdtol privacy``). Returns a dict: ``verdict``
    (``"private"``/``"violated"``/``"undecided"``), ``max_ratio`` {``infinite``,
    ``exact`` (Fraction or None), ``interval`` (decimal strings or None)},
    ``bound`` (enclosure of e^ε), ``witness`` {``losses``, ``neighbour``
    (Fractions), ``actions`` (0-based), ``round`` (1-based)}, ``pairs``,
    ``kind``, ``precision_bits``, ``why_not_exact``."""
    d = _native.check_privacy(
        algorithm,
        int(actions),
        int(horizon),
        _vector(alphabet, "alphabet"),
        force=bool(force),
        threads=None if threads is None else int(threads),
        **_algorithm_args(epsilon, noise, noise_scale, resample),
    )
    ratio = d["max_ratio"]
    if ratio["exact"] is not None:
        ratio["exact"] = Fraction(ratio["exact"])
    d["witness"]["losses"] = _fractions(d["witness"]["losses"])
    d["witness"]["neighbour"] = _fractions(d["witness"]["neighbour"])
    return d


def regret(
    algorithm: str,
    means: Sequence[Any],
    setting: str,
    horizon: int,
    epsilon: Any,
    noise: Optional[str] = None,
    noise_scale: Any = None,
    resample: bool = False,
    force: bool = False,
) -> Dict[str, Any]:
    """The pseudo-regret of ``algorithm`` at ``horizon`` on the instance with mean
    losses ``means`` in the ``setting`` ``"deterministic"`` or ``"bernoulli"``
    (``dpdtol regret``). Returns a dict: ``regret`` (a Value), ``kind``,
    ``precision_bits``, ``accepted``, ``why_not_exact``."""
    d = _native.regret(
        algorithm,
        _vector(means, "means"),
        setting,
        int(horizon),
        force=bool(force),
        **_algorithm_args(epsilon, noise, noise_scale, resample),
    )
    d["regret"] = Value._of(d["regret"])
    return d


from .bandit import BanditLaw, bandit_gof, bandit_law, bandit_sample  # noqa: E402  (uses the above)

__all__ += ["BanditLaw", "bandit_law", "bandit_sample", "bandit_gof"]
