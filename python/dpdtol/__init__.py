"""dpdtol from Python: exact laws, reference samples and goodness-of-fit tests.

The Rust crate ``dpdtol`` computes the exact (rational) or certified (interval)
law of differentially private selection mechanisms and online-learning
algorithms. This package exposes it to a researcher who wants to test a numpy
implementation against it:

>>> import dpdtol, numpy as np
>>> losses = np.array([[0.0, 1.0], [1.0, 0.0], [0.0, 0.5]])
>>> law = dpdtol.sequence_law("wu-wang", losses, epsilon=1, noise="gumbel", resample=False)
>>> law.kind, [c.plays for c in law.schedule]
('certified', [range(1, 2), range(2, 4)])
>>> samples = dpdtol.sample("wu-wang", losses, 1, n=1000, seed=7, noise="gumbel", resample=False)
>>> dpdtol.gof("wu-wang", losses, 1, samples, noise="gumbel", resample=False).rejected
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

Conventions (the command line's, ``docs/algorithms.md``). Actions are numbered
from 1, as in the papers and on the command line: in samples read and written,
in ``SequenceLaw.probability`` and in witnesses; ``base=0`` reads and writes
0-based actions (numpy's ``argmax``). Tuples of probabilities are indexed as
Python indexes, from 0: ``law.values[a]`` is the probability of action ``a + 1``.
Rounds are numbered from 1, and a choice's ``plays`` and ``reads`` are ``range``
objects of rounds. ``wu-wang``'s noise and resampling change its law: the
functions that answer with a law (``sequence_law``, ``sample``, ``gof``) require
both named. Horizons are integers or strings of the command line's grammar
(``'2^30'``, ``'2^10-1'``).
"""

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from numbers import Integral, Real
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from . import _native
from ._native import TooLargeError
from .reports import AuditReport, PrivacyReport, RegretReport

__all__ = [
    "Value",
    "Law",
    "Choice",
    "SequenceLaw",
    "GofResult",
    "AuditReport",
    "PrivacyReport",
    "RegretReport",
    "TooLargeError",
    "mechanism_law",
    "sequence_law",
    "sample",
    "gof",
    "mechanism_gof",
    "check_privacy",
    "regret",
    "audit",
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


def _base(base: Any, one_based: Optional[bool] = None) -> int:
    """The number of the first action: 1 (the default, as the command line)
    or 0; ``one_based``, the former parameter, is still read."""
    if one_based is not None:
        base = 1 if one_based else 0
    if isinstance(base, bool) or base not in (0, 1):
        raise ValueError(f"base: expected 0 or 1 (the number of the first action), got {base!r}")
    return int(base)


def _horizon(horizon: Any) -> str:
    """A horizon as the Rust side parses it: an integer, or a string such as
    ``'2^30'`` or ``'2^10-1'``."""
    if isinstance(horizon, (bool, np.bool_)) or not isinstance(horizon, (Integral, str)):
        raise ValueError(
            f"horizon: expected an integer or a string such as '2^30', got {horizon!r}"
        )
    return str(int(horizon)) if isinstance(horizon, Integral) else horizon


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

    def probability(self, actions: Sequence[int], base: int = 1):
        """P(I_1..I_T = actions), actions numbered from ``base`` (1 by
        default): a Fraction when exact, else an enclosure ``(lo, hi)`` of
        Fractions (products of the bounds)."""
        base = _base(base)
        actions = [int(a) - base for a in actions]
        horizon = self.schedule[-1].plays.stop - 1 if self.schedule else 0
        if len(actions) != horizon:
            raise ValueError(f"expected {horizon} actions, got {len(actions)}")
        k = len(self.choices[0])
        if any(not 0 <= a < k for a in actions):
            raise ValueError(f"actions must lie in {base} to {k - 1 + base}")
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


def _noise(noise: Optional[str]) -> str:
    """The noise of one selection: it changes the law, so it has no default."""
    if noise is None:
        raise ValueError(
            "noise is required: 'gumbel' (the exponential mechanism), 'exponential'"
            " (permute-and-flip) or 'laplace'"
        )
    return noise


def mechanism_law(
    losses: Any,
    noise: Optional[str] = None,
    scale: Any = None,
    unit_weight: Any = None,
    digits: int = 30,
) -> Law:
    """The law of report-noisy-max ``argmax_i (-losses[i] + Z_i)`` with i.i.d.
    ``noise`` (``"gumbel"``: the exponential mechanism; ``"exponential"``:
    permute-and-flip; ``"laplace"``) of scale β = ``scale``, or given by its
    ``unit_weight`` e^(-1/β) (which makes the Gumbel and exponential laws exact
    on rational losses); ``noise`` is required, as on the command line. Exact
    when it can be, else certified to relative width 10^-digits."""
    d = _native.mechanism_law(
        _noise(noise),
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
        resample=None if resample is None else bool(resample),
    )


def sequence_law(
    algorithm: str,
    losses: Any,
    epsilon: Any,
    noise: Optional[str] = None,
    noise_scale: Any = None,
    resample: Optional[bool] = None,
    digits: int = 30,
    force: bool = False,
) -> SequenceLaw:
    """The law of ``algorithm``'s action sequence on ``losses`` (T x K, one loss
    vector a round, in [0, 1]). ``algorithm`` is one of ``ftl``, ``naive-ftnl``,
    ``hu-rnm-ftnl``, ``wu-wang``, ``prefix-softmax``; ``noise``
    (``gumbel``/``exponential``/``laplace``) and ``resample`` (B = 1) are
    ``wu-wang``'s and required with it; ``noise_scale`` overrides the paper's default
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
    resample: Optional[bool] = None,
    base: int = 1,
) -> np.ndarray:
    """``n`` reference action sequences (an ``n x T`` int64 array, actions
    numbered from ``base``, 1 by default) of ``algorithm`` on ``losses``
    (parameters as ``sequence_law``): each choice's action is drawn from its
    exact or certified law by exact inversion, so the samples follow the law
    that ``sequence_law`` gives at any parameters. The array depends on
    ``seed`` only, not on the number of threads."""
    if int(n) < 0 or int(seed) < 0:
        raise ValueError("n and seed must be non-negative integers")
    base = _base(base)
    return base + _native.sample(
        algorithm,
        _matrix(losses, "losses"),
        n=int(n),
        seed=int(seed),
        **_algorithm_args(epsilon, noise, noise_scale, resample),
    )


@dataclass(frozen=True)
class GofResult:
    """The outcome of a goodness-of-fit test (see ``gof``): what was tested,
    the tests, the verdict. ``print(result)`` gives a short summary."""

    rejected: bool
    """True when the samples are not from the law at level alpha: a sample
    outside the support, or a p-value below alpha / (number of tests)."""
    p_min: float
    """The smallest p-value (asymptotic: the chi-square approximation; 1 when
    no chi-square test ran, as after a support violation)."""
    tests: Tuple[Dict[str, Any], ...]
    """Each test: ``name`` (``"choice c"``, ``"joint"``), ``cells``, ``groups``
    (after pooling), ``statistic``, ``df``, ``p_value``, ``n_for_tv`` (the
    sample size that detects the total-variation distance ``tv`` with
    probability 0.9, when ``tv`` was given)."""
    support_violation: Optional[Dict[str, Any]]
    """The first sample the law gives probability 0: ``sample`` (row, from 0)
    and ``reason`` (actions numbered from ``base``)."""
    alpha: float
    per_test_alpha: float
    """alpha / (number of tests): the Bonferroni level of each test."""
    joint_skipped: Optional[str]
    """Why the joint test was not run, if it was not."""
    n: int
    law: Any
    """The law tested against (a SequenceLaw, or a Law for ``mechanism_gof``)."""
    target: Dict[str, Any] = None
    """What was tested: the algorithm (or mechanism) and every parameter of
    its law, as given (None: the paper's default)."""
    base: int = 1
    """The number of the first action in the samples."""

    @property
    def verdict(self) -> str:
        """``"rejected"`` or ``"consistent"``, as ``rejected`` says."""
        return "rejected" if self.rejected else "consistent"

    def __str__(self) -> str:
        what = ", ".join(f"{k} {v}" for k, v in (self.target or {}).items() if v is not None)
        head = f"{what}: {self.n} samples (actions from {self.base})"
        if self.support_violation is not None:
            v = self.support_violation
            return f"{head}: rejected, sample {v['sample']} (rows from 0) is outside the support: {v['reason']}"
        level = f"each at {self.per_test_alpha:.4g} (alpha {self.alpha:g})"
        if self.rejected:
            worst = min(self.tests, key=lambda t: t["p_value"])
            return f"{head}: rejected, {worst['name']} has p = {worst['p_value']:.3g}; {len(self.tests)} tests, {level}"
        return f"{head}: consistent with the law, smallest p = {self.p_min:.3g}; {len(self.tests)} tests, {level}"


def _gof_result(d: Dict[str, Any], law, target: Dict[str, Any], base: int) -> GofResult:
    fields = {k: d[k] for k in GofResult.__dataclass_fields__ if k not in ("law", "target", "base")}
    fields["tests"] = tuple(fields["tests"])
    return GofResult(**fields, law=law, target=target, base=base)


def _actions(samples: Any, ndim: int, base: int) -> np.ndarray:
    """Samples numbered from ``base``, as the 0-based int64 array the Rust side reads."""
    arr = np.asarray(samples)
    if arr.ndim != ndim:
        raise ValueError(f"samples: expected a {ndim}-D array, got shape {arr.shape}")
    if arr.dtype.kind == "f":
        if not np.all(np.isfinite(arr)) or not np.all(arr == np.round(arr)):
            raise ValueError("samples: actions must be integers")
    elif arr.dtype.kind not in "iub":
        raise ValueError(f"samples: actions must be integers, got dtype {arr.dtype}")
    arr = np.ascontiguousarray(arr, dtype=np.int64) - base
    if arr.size and arr.min() < 0:
        hint = "pass base=0 for 0-based actions" if base == 1 else "base=0 was given"
        raise ValueError(
            f"samples: action {arr.min() + base} is below the first action {base} ({hint})"
        )
    return arr


def gof(
    algorithm: str,
    losses: Any,
    epsilon: Any,
    samples: Any,
    one_based: Optional[bool] = None,
    alpha: float = DEFAULT_ALPHA,
    tv: Optional[float] = None,
    noise: Optional[str] = None,
    noise_scale: Any = None,
    resample: Optional[bool] = None,
    force: bool = False,
    base: int = 1,
) -> GofResult:
    """Test ``samples`` (an ``n x T`` array of actions numbered from ``base``,
    1 by default; ``base=0`` for numpy's ``argmax``) from any implementation of
    ``algorithm`` on ``losses`` against the exact law (parameters as
    ``sequence_law``: ``wu-wang`` requires ``noise`` and ``resample``). In
    order: the support (every sample plays one action throughout each
    choice's rounds, of positive probability); a Pearson chi-square per
    choice; one on the joint law of all choices (which sees randomness shared
    between choices). Cells are pooled in order of increasing expected count
    until each expects >= 5; the sample is rejected when any p-value is below
    alpha / (number of tests) (``dpdtol::oracle::gof``, the test of ``dpdtol
    gof``). With ``tv``, each test also reports the sample size that detects a
    total-variation distance ``tv`` with probability 0.9. ``force`` lifts the
    cost guard of the resampling (B = 1) law. ``one_based`` is the former
    spelling of ``base``."""
    base = _base(base, one_based)
    d = _native.gof(
        algorithm,
        _matrix(losses, "losses"),
        samples=_actions(samples, 2, base),
        alpha=float(alpha),
        tv=None if tv is None else float(tv),
        force=bool(force),
        base=base,
        **_algorithm_args(epsilon, noise, noise_scale, resample),
    )
    target = dict(
        algorithm=algorithm,
        epsilon=_exact(epsilon, "epsilon"),
        noise=noise,
        noise_scale=_option(noise_scale, "noise_scale"),
        resample=resample,
    )
    return _gof_result(d, _sequence_law(d["law"]), target, base)


def mechanism_gof(
    losses: Any,
    samples: Any,
    noise: Optional[str] = None,
    scale: Any = None,
    unit_weight: Any = None,
    one_based: Optional[bool] = None,
    alpha: float = DEFAULT_ALPHA,
    tv: Optional[float] = None,
    base: int = 1,
) -> GofResult:
    """``gof`` for one report-noisy-max selection (see ``mechanism_law``):
    ``samples`` is a 1-D array of selected actions, numbered from ``base``."""
    base = _base(base, one_based)
    d = _native.mechanism_gof(
        _noise(noise),
        _vector(losses, "losses"),
        _actions(samples, 1, base),
        scale=_option(scale, "scale"),
        unit_weight=_option(unit_weight, "unit_weight"),
        alpha=float(alpha),
        tv=None if tv is None else float(tv),
        base=base,
    )
    target = dict(
        mechanism=noise,
        losses=",".join(_vector(losses, "losses")),
        scale=_option(scale, "scale"),
        unit_weight=_option(unit_weight, "unit_weight"),
    )
    return _gof_result(d, _law(d["law"]), target, base)


def check_privacy(
    algorithm: str,
    actions: int,
    horizon: Any,
    alphabet: Sequence[Any],
    epsilon: Any,
    noise: Optional[str] = None,
    noise_scale: Any = None,
    resample: Optional[bool] = None,
    force: bool = False,
    threads: Optional[int] = None,
) -> PrivacyReport:
    """Exhaustive ε-DP check of ``algorithm`` with K = ``actions`` over every pair
    of neighbouring loss sequences of length ``horizon`` (an integer or
    ``'2^k'``) with losses in ``alphabet`` (``dpdtol privacy``); ``noise`` and
    ``resample`` default to the paper's (Laplace, no resampling), which the
    report records. Returns the report of ``dpdtol privacy --json`` as a
    ``PrivacyReport``: ``verdict`` (``"private"``/``"violated"``/
    ``"undecided"``), ``max_ratio`` and its enclosure, ``bound`` (e^ε), the
    ``witness`` (actions numbered from 1), ``pairs``, ``kind``."""
    text = _native.check_privacy(
        algorithm,
        int(actions),
        _horizon(horizon),
        _vector(alphabet, "alphabet"),
        force=bool(force),
        threads=None if threads is None else int(threads),
        **_algorithm_args(epsilon, noise, noise_scale, resample),
    )
    return PrivacyReport._from_json(text)


def regret(
    algorithm: str,
    means: Sequence[Any],
    setting: str,
    horizon: Any,
    epsilon: Any,
    noise: Optional[str] = None,
    noise_scale: Any = None,
    resample: Optional[bool] = None,
    force: bool = False,
    bounds: bool = True,
    digits: int = 30,
) -> RegretReport:
    """The pseudo-regret of ``algorithm`` at ``horizon`` (an integer or
    ``'2^30'``) on the instance with mean losses ``means`` in the ``setting``
    ``"deterministic"`` or ``"bernoulli"``, to ``digits`` certain digits, and
    the papers' bounds beside it unless ``bounds=False`` (``dpdtol regret``).
    Returns the report of ``dpdtol regret --json`` as a ``RegretReport``:
    ``regret`` (decimal string), ``regret_exact``, ``regret_interval``,
    ``bounds`` (rows: ``id``, ``source``, ``kind``, ``value``, ``holds``, …),
    ``rates``, ``kind``."""
    text = _native.regret(
        algorithm,
        _vector(means, "means"),
        setting,
        _horizon(horizon),
        force=bool(force),
        bounds=bool(bounds),
        digits=int(digits),
        **_algorithm_args(epsilon, noise, noise_scale, resample),
    )
    return RegretReport._from_json(text)


def audit(
    first: Any,
    second: Any,
    confidence: float = 0.95,
    base: int = 1,
    algorithm: Optional[str] = None,
    losses: Any = None,
    neighbour: Any = None,
    epsilon: Any = None,
    noise: Optional[str] = None,
    noise_scale: Any = None,
    resample: Optional[bool] = None,
    force: bool = False,
) -> AuditReport:
    """A privacy audit of any sampler (``dpdtol audit``): ``first`` and
    ``second`` are ``n x T`` arrays of actions (numbered from ``base``) that it
    drew on two neighbouring inputs. An event (an action at a round, or a whole
    sequence) is chosen on the first halves, its probabilities bounded by
    Clopper–Pearson on the second halves: ε is at least ``epsilon_lower`` with
    probability ``confidence``. With ``algorithm`` (and ``losses``,
    ``neighbour``, ``epsilon`` and its law's parameters, as ``gof``), the report
    also gives dpdtol's exact ratios of the event and the largest ratio of the
    algorithm on this pair. Returns the report of ``dpdtol audit --json`` as
    an ``AuditReport``."""
    base = _base(base)
    target: Dict[str, Any] = {}
    if algorithm is not None:
        if epsilon is None:
            raise ValueError("epsilon is required with algorithm")
        target = dict(
            algorithm_id=algorithm,
            losses=None if losses is None else _matrix(losses, "losses"),
            neighbour=None if neighbour is None else _matrix(neighbour, "neighbour"),
            force=bool(force),
            **_algorithm_args(epsilon, noise, noise_scale, resample),
        )
    text = _native.audit(
        _actions(first, 2, base),
        _actions(second, 2, base),
        confidence=float(confidence),
        base=base,
        **target,
    )
    return AuditReport._from_json(text)


from .bandit import BanditLaw, bandit_gof, bandit_law, bandit_sample  # noqa: E402  (uses the above)

__all__ += ["BanditLaw", "bandit_law", "bandit_sample", "bandit_gof"]
