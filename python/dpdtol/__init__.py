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

Results. Each function answers with the report of the command it mirrors
as a dataclass with the fields of that command's ``--json`` output
(``report.to_dict()`` is the JSON object): ``sequence_law`` as ``dpdtol
law``, ``mechanism_law`` as ``mechanism``, ``sample`` as ``sample`` (with
the samples themselves), ``check_privacy``, ``regret``, ``audit`` and
``verify`` as their commands, ``mechanism_privacy`` as ``privacy
--mechanism``, ``privacy_all_epsilon`` as ``privacy --epsilon-range`` or
``--all-epsilon``, ``bandit_privacy`` as ``privacy`` of a bandit algorithm
(exact check or statistical audit) and ``bandit_simulate`` as ``bandit``;
each records what was computed (the
algorithm and its parameters, the backend's ``kind``) and ``print(report)``
summarises it with its verdict.

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

import json
import os
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from numbers import Integral, Real
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np
from numpy.lib.mixins import NDArrayOperatorsMixin

from . import _native
from ._native import TooLargeError
from .reports import (
    _OMITTED_WHEN_NULL,
    AllEpsilonReport,
    AuditReport,
    BanditPrivacyReport,
    BanditReport,
    OneShotPrivacyReport,
    PrivacyReport,
    RegretReport,
    StatisticalPrivacyReport,
    BoundsPrivacyReport,
    BanditBoundsReport,
    VerifyReport,
    _Report,
)

__all__ = [
    "Value",
    "Law",
    "Choice",
    "ChoiceLaw",
    "SequenceLaw",
    "Samples",
    "GofResult",
    "AllEpsilonReport",
    "AuditReport",
    "PrivacyReport",
    "BanditPrivacyReport",
    "BanditReport",
    "OneShotPrivacyReport",
    "StatisticalPrivacyReport",
    "BoundsPrivacyReport",
    "BanditBoundsReport",
    "RegretReport",
    "VerifyReport",
    "TooLargeError",
    "mechanism_law",
    "sequence_law",
    "sample",
    "gof",
    "mechanism_gof",
    "check_privacy",
    "mechanism_privacy",
    "privacy_all_epsilon",
    "regret",
    "audit",
    "verify",
]

DEFAULT_ALPHA = 1e-3  # the family-wise level of `dpdtol gof` (dpdtol::oracle::gof)
LAW_DIGITS = 42  # the relative width 10^-42 of the laws `dpdtol law` and `mechanism` print


# Arguments are checked by type here, never coerced: a boolean is ``True``
# or ``False``, an integer an ``int`` (not a bool, not a float however
# integral), a number finite. Their values are then parsed by the command
# line's own parsers on the Rust side, whose messages name the Python
# argument (``_native``'s one table of flags and arguments).

_U64 = 2**64 - 1


def _exact(x: Any, what: str) -> str:
    """An exact number as the string the Rust side parses."""
    if isinstance(x, (bool, np.bool_)):
        raise TypeError(f"{what}: expected a number, got the boolean {x!r}")
    if isinstance(x, str):
        return x
    if isinstance(x, Fraction):
        return f"{x.numerator}/{x.denominator}"
    if isinstance(x, Integral):
        return str(int(x))
    if isinstance(x, Decimal):
        if not x.is_finite():
            raise ValueError(f"{what}: expected a finite number, got {x!r}")
        return str(x)
    if isinstance(x, Real):
        if not np.isfinite(float(x)):
            raise ValueError(f"{what}: expected a finite number, got {x!r}")
        return repr(float(x))
    raise TypeError(f"{what}: expected a number, got {type(x).__name__} {x!r}")


def _flag(x: Any, what: str) -> bool:
    """A boolean argument: ``True`` or ``False`` only (not ``0``, ``"0"`` or ``nan``)."""
    if not isinstance(x, (bool, np.bool_)):
        raise TypeError(f"{what}: expected True or False, got {type(x).__name__} {x!r}")
    return bool(x)


def _optional_flag(x: Any, what: str) -> Optional[bool]:
    return None if x is None else _flag(x, what)


def _integer(x: Any, what: str, low: int = 0, high: int = _U64) -> int:
    """An integer argument in ``low..=high``: an ``int`` (or numpy integer),
    never a bool or a float."""
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, Integral):
        raise TypeError(f"{what}: expected an integer, got {type(x).__name__} {x!r}")
    if not low <= int(x) <= high:
        raise ValueError(f"{what}: expected an integer in {low}..={high}, got {int(x)}")
    return int(x)


def _optional_integer(x: Any, what: str, low: int = 0, high: int = _U64) -> Optional[int]:
    return None if x is None else _integer(x, what, low, high)


def _level(x: Any, what: str, low_open: float = 0.0, high: float = 1.0, high_open: bool = True) -> float:
    """A probability-like float argument (a test level, a confidence, a
    distance): a finite real number in ``(low_open, high)`` (or ``(.., high]``)."""
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, (Real, Decimal)):
        raise TypeError(f"{what}: expected a number, got {type(x).__name__} {x!r}")
    v = float(x)
    inside = low_open < v < high if high_open else low_open < v <= high
    if not inside:
        end = ")" if high_open else "]"
        raise ValueError(f"{what}: expected a number in ({low_open:g}, {high:g}{end}, got {x!r}")
    return v


def _text(x: Any, what: str) -> str:
    """A name argument (an algorithm, a noise): a string."""
    if not isinstance(x, str):
        raise TypeError(f"{what}: expected a string, got {type(x).__name__} {x!r}")
    return x


def _renamed(value: Any, name: str, old_value: Any, old_name: str) -> Any:
    """The argument ``name``, also read under its former name ``old_name``
    (with a DeprecationWarning); both given is refused."""
    if old_value is None:
        return value
    if value is not None:
        raise TypeError(f"{old_name} is the former name of {name}: give one of them")
    import warnings

    warnings.warn(f"{old_name} is deprecated: use {name}, as the command line's flag", DeprecationWarning, stacklevel=3)
    return old_value


def _optional_text(x: Any, what: str) -> Optional[str]:
    return None if x is None else _text(x, what)


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
        base = 1 if _flag(one_based, "one_based") else 0
    base = _integer(base, "base", 0, 1)
    return base


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

    @classmethod
    def _zero(cls) -> "Value":
        return cls(Fraction(0), "0", "0", 0.0)

    @classmethod
    def _between(cls, lo: Fraction, hi: Fraction, exact: bool) -> "Value":
        """The Value of ``[lo, hi]`` (``lo == hi`` and ``exact``: that
        Fraction), its decimals rounded outward to 40 significant digits."""
        import decimal

        def rounded(q: Fraction, rounding: str) -> str:
            with decimal.localcontext(decimal.Context(prec=40, rounding=rounding)):
                return str(+(Decimal(q.numerator) / Decimal(q.denominator)))

        lo_text, hi_text = rounded(lo, decimal.ROUND_FLOOR), rounded(hi, decimal.ROUND_CEILING)
        return cls(lo if exact else None, lo_text, hi_text, float((lo + hi) / 2))


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


def _values(law: List[str], law_exact: Optional[List[str]], law_interval: List[Optional[List[str]]]) -> Tuple[Value, ...]:
    """The probabilities of a report's ``law``, ``law_exact`` and
    ``law_interval`` as Values (``approx``: the enclosure's midpoint)."""
    out = []
    for i, decimal in enumerate(law):
        lo, hi = law_interval[i] or (decimal, decimal)
        exact = None if law_exact is None else Fraction(law_exact[i])
        out.append(Value(exact, lo, hi, (float(lo) + float(hi)) / 2))
    return tuple(out)


class _Probabilities:
    """What a report's law over the K actions offers beside its JSON fields:
    ``values`` (one Value an action), ``exact``, ``intervals``, ``approx``
    and ``accepted`` (the former name of ``digits_certain``)."""

    @property
    def values(self) -> Tuple[Value, ...]:
        """The probabilities, entry ``a`` that of action ``a + 1``."""
        return _values(self.law, self.law_exact, self.law_interval)

    @property
    def exact(self) -> Optional[Tuple[Fraction, ...]]:
        """The probabilities as Fractions, when exact."""
        return None if self.law_exact is None else tuple(Fraction(p) for p in self.law_exact)

    @property
    def intervals(self) -> List[Tuple[str, str]]:
        """The enclosures ``(lo, hi)`` (decimal strings) of the probabilities."""
        return [(v.lo, v.hi) for v in self.values]

    @property
    def approx(self) -> np.ndarray:
        """The probabilities as floats: approximate, for statistics and plots only."""
        return np.array([v.approx for v in self.values])


def _how(kind: str, digits_certain: bool, why_not_exact: Optional[str]) -> str:
    """How a law was computed, in words."""
    if kind == "exact":
        return "exact"
    certain = "every digit certain" if digits_certain else "fewer digits certain than asked"
    return f"certified ({certain}; not exact: {why_not_exact})"


@dataclass(frozen=True)
class Law(_Probabilities, _Report):
    """The law of one report-noisy-max selection over K actions: the report
    of ``dpdtol mechanism --json``, field for field (``law`` the decimals,
    every digit certain; ``law_exact`` the ``"p/q"`` strings when exact;
    ``law_interval`` the enclosures; ``scale`` as given, ``{"scale": β}`` or
    ``{"base": w}`` for the unit weight w). ``values``, ``exact``,
    ``intervals`` and ``approx`` give the probabilities as Python numbers;
    ``print(law)`` a summary."""

    digits_certain: bool
    kind: str
    """``"exact"`` or ``"certified"``."""
    law: List[str]
    law_exact: Optional[List[str]]
    law_interval: List[Optional[List[str]]]
    losses: List[str]
    noise: str
    noise_scale: Optional[str]
    precision_bits: Optional[int]
    scale: Dict[str, str]
    schema_version: str
    why_not_exact: Optional[str]

    @property
    def accepted(self) -> bool:
        """The former name of ``digits_certain``."""
        return self.digits_certain

    def __str__(self) -> str:
        (given, value), = self.scale.items()
        scale = f"scale {value}" if given == "scale" else f"unit weight {value}"
        law = self.law_exact if self.law_exact is not None else self.law
        return (
            f"report-noisy-max, {self.noise} noise, {scale}, losses ({', '.join(self.losses)}):"
            f" {_how(self.kind, self.digits_certain, self.why_not_exact)} law ({', '.join(law)})"
        )


@dataclass(frozen=True)
class Choice:
    """One random choice of an online algorithm: its action is played on the
    rounds ``plays`` and its law depends on the losses of the rounds ``reads``
    only (rounds numbered from 1)."""

    plays: range
    reads: range


@dataclass(frozen=True)
class ChoiceLaw(_Probabilities, _Report):
    """One choice's law, as an entry of ``choices`` in ``dpdtol law --json``:
    ``choice`` (from 0), ``law`` (decimals to 40 digits), ``law_exact``,
    ``law_interval``, ``plays`` and ``reads`` (inclusive ``[first, last]``
    rounds; ``reads`` None when the choice reads no loss). It is also the
    sequence of its probabilities as Values: ``choice_law[a]`` is that of
    action ``a + 1``."""

    choice: int
    law: List[str]
    law_exact: Optional[List[str]]
    law_interval: List[List[str]]
    plays: List[int]
    reads: Optional[List[int]]

    def __getitem__(self, a: int) -> Value:
        return self.values[a]

    def __len__(self) -> int:
        return len(self.law)

    def __iter__(self):
        return iter(self.values)


@dataclass(frozen=True)
class SequenceLaw(_Report):
    """The law of an online algorithm's actions I_1..I_T on one loss sequence:
    independent choices, each played on its rounds. The report of ``dpdtol
    law --json`` (without ``--sequence``), field for field: ``choices`` (each
    a ChoiceLaw), ``target`` (the algorithm and its parameters as given;
    ``losses_file`` None, the losses came from Python), ``kind``,
    ``digits_certain``, ``precision_bits``, ``why_not_exact`` (the keys of
    ``--sequence`` are not fields: the method ``probability`` answers for
    any sequence).
    ``schedule`` gives the choices' rounds as ``range`` objects; ``print(law)``
    a summary."""

    actions: int
    base: int
    choices: Tuple[ChoiceLaw, ...]
    command: str
    conventions: str
    digits_certain: bool
    horizon: str
    kind: str
    """``"exact"`` or ``"certified"``."""
    precision_bits: Optional[int]
    schema_version: str
    target: Dict[str, Any]
    why_not_exact: Optional[str]

    def __post_init__(self) -> None:
        choices = tuple(c if isinstance(c, ChoiceLaw) else ChoiceLaw(**c) for c in self.choices)
        object.__setattr__(self, "choices", choices)

    # The keys of `law --sequence`, null here: the method `probability`
    # answers for any sequence.
    _SEQUENCE_KEYS = ("probability", "probability_exact", "probability_interval", "sequence")

    @classmethod
    def _from_json(cls, text: str) -> "SequenceLaw":
        d = json.loads(text)
        asked = [k for k in cls._SEQUENCE_KEYS if d.pop(k) is not None]
        if asked:
            raise TypeError(f"a SequenceLaw is the report of a law without a sequence, got {asked}")
        return cls(**d)

    def to_dict(self) -> Dict[str, Any]:
        """The report as the JSON object of ``dpdtol law --json`` (without
        ``--sequence``: its keys ``probability``, ``probability_exact``,
        ``probability_interval`` and ``sequence`` are null)."""
        return {**super().to_dict(), **dict.fromkeys(self._SEQUENCE_KEYS)}

    @property
    def accepted(self) -> bool:
        """The former name of ``digits_certain``."""
        return self.digits_certain

    @property
    def schedule(self) -> Tuple[Choice, ...]:
        """The choices' rounds as ``range`` objects (half-open)."""

        def rounds(r: Optional[List[int]], at: int) -> range:
            return range(at, at) if r is None else range(r[0], r[1] + 1)

        return tuple(Choice(rounds(c.plays, 1), rounds(c.reads, 1)) for c in self.choices)

    @property
    def approx(self) -> np.ndarray:
        """``C x K`` array of choice probabilities: approximate (floats)."""
        return np.array([c.approx for c in self.choices])

    def probability(self, actions: Sequence[int], base: Optional[int] = None) -> Value:
        """P(I_1..I_T = actions), actions numbered from ``base`` (the law's
        ``base``, 1, by default), as a Value: ``exact`` a Fraction when the
        law is exact, the enclosure ``lo``/``hi`` (products of the choices'
        bounds) otherwise; the same type as ``BanditLaw.probability``."""
        base = self.base if base is None else _base(base)
        actions = [_integer(a, "actions", 0, 2**63) - base for a in actions]
        horizon = int(self.horizon)
        if len(actions) != horizon:
            raise ValueError(f"actions: expected {horizon} actions, got {len(actions)}")
        k = self.actions
        if any(not 0 <= a < k for a in actions):
            raise ValueError(f"actions: each must lie in {base} to {k - 1 + base}")
        lo, hi = Fraction(1), Fraction(1)
        for choice, law in zip(self.schedule, self.choices):
            played = {actions[t - 1] for t in choice.plays}
            if len(played) != 1:
                return Value._zero()
            v = law[played.pop()]
            if self.kind == "exact":
                lo, hi = lo * v.exact, hi * v.exact
            else:
                a, b = v.interval
                lo, hi = lo * a, hi * b
        return Value._between(lo, hi, exact=self.kind == "exact")

    def __str__(self) -> str:
        return (
            f"{_given(self.target)}: K = {self.actions}, T = {self.horizon}, {len(self.choices)} choices,"
            f" law {_how(self.kind, self.digits_certain, self.why_not_exact)}"
        )


def _given(target: Dict[str, Any]) -> str:
    """A target as given, in words: its name and every parameter given."""
    name = target.get("algorithm") or target.get("mechanism")
    given = ", ".join(f"{k} {v}" for k, v in target.items() if v is not None and k not in ("algorithm", "mechanism"))
    return f"{name} ({given})" if given else name


def _noise(noise: Optional[str]) -> str:
    """The noise of one selection: it changes the law, so it has no default."""
    if noise is None:
        raise ValueError(
            "noise is required: 'gumbel' (the exponential mechanism), 'exponential'"
            " (permute-and-flip) or 'laplace'"
        )
    return _text(noise, "noise")


def mechanism_law(
    losses: Any,
    noise: Optional[str] = None,
    scale: Any = None,
    unit_weight: Any = None,
    digits: int = LAW_DIGITS,
    force: bool = False,
) -> Law:
    """The law of report-noisy-max ``argmax_i (-losses[i] + Z_i)`` with i.i.d.
    ``noise`` (``"gumbel"``: the exponential mechanism; ``"exponential"``:
    permute-and-flip; ``"laplace"``) of scale β = ``scale``, or given by its
    ``unit_weight`` e^(-1/β) (which makes the Gumbel and exponential laws exact
    on rational losses); ``noise`` is required, as on the command line. Exact
    when it can be, else certified to relative width 10^-digits (42 by
    default, as the command line); ``force`` lifts the size limits. Returns
    the report of ``dpdtol mechanism --json`` with the same arguments as a
    ``Law``:

    >>> import dpdtol
    >>> law = dpdtol.mechanism_law([0, 1, 2], noise="gumbel", unit_weight="1/2")
    >>> law.law_exact, law.scale, law.exact[0]
    (['4/7', '2/7', '1/7'], {'base': '1/2'}, Fraction(4, 7))
    >>> print(law)
    report-noisy-max, gumbel noise, unit weight 1/2, losses (0, 1, 2): exact law (4/7, 2/7, 1/7)
    """
    text = _native.mechanism_law(
        _noise(noise),
        _vector(losses, "losses"),
        _option(scale, "scale"),
        _option(unit_weight, "unit_weight"),
        _integer(digits, "digits", 0, 2**32 - 1),
        _flag(force, "force"),
    )
    return Law._from_json(text)


def _algorithm_args(epsilon, noise, noise_scale, resample) -> Dict[str, Any]:
    return dict(
        epsilon=_exact(epsilon, "epsilon"),
        noise=_optional_text(noise, "noise"),
        noise_scale=_option(noise_scale, "noise_scale"),
        resample=_optional_flag(resample, "resample"),
    )


def sequence_law(
    algorithm: str,
    losses: Any,
    epsilon: Any,
    noise: Optional[str] = None,
    noise_scale: Any = None,
    resample: Optional[bool] = None,
    digits: int = LAW_DIGITS,
    force: bool = False,
) -> SequenceLaw:
    """The law of ``algorithm``'s action sequence on ``losses`` (T x K, one loss
    vector a round, in [0, 1]). ``algorithm`` is one of ``ftl``, ``naive-ftnl``,
    ``hu-rnm-ftnl``, ``wu-wang``, ``prefix-softmax``, ``hedge``,
    ``decreasing-hedge``; ``noise`` (``gumbel``/``exponential``/``laplace``) and
    ``resample`` (B = 1) are ``wu-wang``'s and required with it; ``noise_scale``
    overrides the paper's default scale (for ``prefix-softmax`` and ``hedge``, the
    temperature 1/η, ``hedge``'s default 1/ε; for ``decreasing-hedge``, 1/c in
    η_t = c·√(ln K / t), default 1/2). The resampling law
    costs (n+1)^K selections per choice of n rounds: over dpdtol's limit it
    raises TooLargeError unless ``force``. Exact when it can be, else
    certified to relative width 10^-digits (42 by default, as the command
    line). Returns the report of ``dpdtol law --json`` with the same
    arguments as a ``SequenceLaw``:

    >>> import dpdtol
    >>> law = dpdtol.sequence_law("ftl", [[1, 0], [0, 0], [0, 0]], epsilon=1)
    >>> [(c.plays, c.law_exact) for c in law.choices]
    [([1, 1], ['1', '0']), ([2, 2], ['0', '1']), ([3, 3], ['0', '1'])]
    >>> law.probability([1, 2, 2]).exact, law.target["algorithm"]
    (Fraction(1, 1), 'ftl')
    >>> print(law)
    ftl (epsilon 1): K = 2, T = 3, 3 choices, law exact
    """
    text = _native.sequence_law(
        _text(algorithm, "algorithm"),
        _matrix(losses, "losses"),
        digits=_integer(digits, "digits", 0, 2**32 - 1),
        force=_flag(force, "force"),
        **_algorithm_args(epsilon, noise, noise_scale, resample),
    )
    return SequenceLaw._from_json(text)


@dataclass(frozen=True, eq=False)
class Samples(NDArrayOperatorsMixin, _Report):
    """Reference action (or pull) sequences with the report of ``dpdtol
    sample --json``, field for field: ``sample`` and ``bandit_sample`` both
    answer with one (``actions`` and ``kind``, or ``arms`` and ``law``, as
    the command's JSON has them; ``kind`` ``"approximate"``: a sample is
    random; each sequence is drawn from the certified law by exact
    comparisons on random bits; ``rng`` how sequence i is drawn from ``seed``; ``out`` and
    ``format`` None unless they were written to a file). The sequences are
    ``array``, an ``n x T`` int64 numpy array of actions numbered from
    ``base``, and the object acts as that array: indexing, arithmetic,
    ``shape``, ``dtype``, ``np.asarray(samples)``. ``print(samples)`` gives
    a summary."""

    base: int
    command: str
    conventions: str
    format: Optional[str]
    horizon: str
    n: int
    out: Optional[str]
    rng: str
    schema_version: str
    seed: int
    target: Dict[str, Any]
    array: np.ndarray = field(repr=False, metadata={"json": False})
    """The sequences: an ``n x T`` int64 array, actions numbered from ``base``."""
    actions: Optional[int] = field(default=None, metadata=_OMITTED_WHEN_NULL)
    """K, of an online algorithm's samples (``sample``)."""
    kind: Optional[str] = field(default=None, metadata=_OMITTED_WHEN_NULL)
    """``"approximate"``, of an online algorithm's samples."""
    arms: Optional[int] = field(default=None, metadata=_OMITTED_WHEN_NULL)
    """K, of a bandit algorithm's pull sequences (``bandit_sample``)."""
    law: Optional[Dict[str, Any]] = field(default=None, metadata=_OMITTED_WHEN_NULL)
    """How the bandit law sampled was computed (``bandit_sample``)."""

    def __array__(self, dtype=None, copy=None):
        if copy:
            return np.array(self.array, dtype=dtype, copy=True)
        return np.asarray(self.array, dtype=dtype)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        inputs = tuple(x.array if isinstance(x, Samples) else x for x in inputs)
        return getattr(ufunc, method)(*inputs, **kwargs)

    def __getattr__(self, name: str) -> Any:
        # Called only for what is not a report field: the array's public
        # attributes (not its protocols: copying or pickling copies the report).
        if name == "array" or name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.array, name)

    def __getitem__(self, index: Any) -> Any:
        return self.array[index]

    def __len__(self) -> int:
        return len(self.array)

    def __iter__(self):
        return iter(self.array)

    def __str__(self) -> str:
        where = f", written to {self.out} ({self.format})" if self.out is not None else ""
        return (
            f"{_given(self.target)}: {self.n} sequences of {self.horizon} actions"
            f" (actions from {self.base}, seed {self.seed}){where}"
        )


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
    out: Optional[str] = None,
) -> Samples:
    """``n`` reference action sequences of ``algorithm`` on ``losses``
    (parameters as ``sequence_law``), actions numbered from ``base`` (1 by
    default): each choice's action is drawn from its exact or certified law
    by exact inversion, so the samples follow the law that ``sequence_law``
    gives at any parameters. The array depends on ``seed`` only, not on the
    number of threads. With ``out`` (a path), they are also written there as
    ``dpdtol sample --out`` writes them (NPY for a ``.npy`` name, else CSV).
    Returns ``Samples``: the ``n x T`` int64 array with the report of
    ``dpdtol sample --json``:

    >>> import dpdtol
    >>> s = dpdtol.sample("prefix-softmax", [[0, 1]] * 3, 1, n=4, seed=5)
    >>> s.shape, s.dtype, s.n, s.seed, s.base, s.out
    ((4, 3), dtype('int64'), 4, 5, 1, None)
    >>> print(s)
    prefix-softmax (epsilon 1): 4 sequences of 3 actions (actions from 1, seed 5)
    """
    base = _base(base)
    array, text = _native.sample(
        _text(algorithm, "algorithm"),
        _matrix(losses, "losses"),
        n=_integer(n, "n"),
        seed=_integer(seed, "seed"),
        base=base,
        out=None if out is None else os.fspath(out),
        **_algorithm_args(epsilon, noise, noise_scale, resample),
    )
    written = {} if out is not None else dict(out=None, format=None)
    return Samples(**{**json.loads(text), **written}, array=base + array)


@dataclass(frozen=True)
class GofResult:
    """The outcome of a goodness-of-fit test (see ``gof``): what was tested,
    the tests, the verdict. ``to_dict()`` is the command line's ``dpdtol
    gof --json`` object, with its names (``reject``, ``per_choice``,
    ``joint``, ``test``), which are also attributes; ``samples`` in it is
    ``""``: the samples came from Python. ``print(result)`` gives a short
    summary."""

    rejected: bool
    """True when the samples are not from the law at level alpha: a sample
    outside the support, or a p-value below alpha / (number of tests)."""
    p_min: float
    """The smallest p-value of the chi-square tests (asymptotic) and of their
    rare-cell tests (exact bounds); 0 after a support violation."""
    tests: int
    """The number m of tests (the ``tests`` of ``dpdtol gof --json``): the
    chi-square tests and the rare-cell test of each that has one; alpha / m
    is the level of each. After a support violation none is run, and
    ``chi_square_tests`` is empty."""
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
    chi_square_tests: Tuple[Dict[str, Any], ...] = ()
    """Each test run: ``name`` (``"choice c"``, ``"joint"``), ``cells``,
    ``groups`` (after pooling), ``statistic``, ``df``, ``p_value``,
    ``n_for_tv`` (the sample size that detects the total-variation distance
    ``tv`` with probability 0.9, when ``tv`` was given), ``rare_cells`` (the
    exact test of the cells of expected count below 5 that pooling sums with
    others: ``cells``, ``p_value``, and ``extreme``, the observed rare cell
    of smallest binomial tail: ``cell`` numbered from ``base``,
    ``observed``, ``expected``, ``tail``; None when not run); ``per_choice``
    and ``joint`` in ``dpdtol gof --json``."""
    report: Dict[str, Any] = field(default=None, repr=False)
    """The command line's ``--json`` object (``to_dict()``)."""

    def to_dict(self) -> Dict[str, Any]:
        """The report as the JSON object of ``dpdtol gof --json`` (its
        ``samples`` is ``""``: the samples came from Python)."""
        return json.loads(json.dumps(self.report))

    def __getattr__(self, name: str) -> Any:
        # The JSON's keys that are not fields: `reject`, `per_choice`,
        # `joint`, `test`, `power`, `tv`, `rules`, ...
        report = self.__dict__.get("report")
        if report is not None and name in report and not name.startswith("_"):
            return report[name]
        raise AttributeError(name)

    @property
    def departure(self) -> Optional[Dict[str, Any]]:
        """Bandit laws: where the samples depart first from the law, the
        report's ``departure`` (``round``, ``cell`` numbered from ``base``,
        ``observed``, ``expected``, ``residual``, ``threshold``,
        ``significant``); None for the other laws."""
        return (self.report or {}).get("departure")

    @property
    def explain(self) -> Optional[List[Dict[str, Any]]]:
        """With ``explain=True``: the test against every reading of the
        algorithm's open choices on a small grid (DP-SE's, UCB1's ``ties``
        and ``bonus-round``, DP-UCB's ``tree-depth``), each fit's reading in ``readings`` (DP-SE's
        also as ``beta``, ``pull_order``, ``rounding``, ``radius``), the
        report's ``explain`` (as ``dpdtol gof --explain --json``); else
        None."""
        return (self.report or {}).get("explain")

    @property
    def explain_refused(self) -> Optional[List[Dict[str, Any]]]:
        """With ``explain=True``: the readings not tested, their law over
        the work limit without ``force`` (``readings``, ``reason``), the
        report's ``explain_refused``; None when none was refused."""
        return (self.report or {}).get("explain_refused")

    @property
    def verdict(self) -> str:
        """``"rejected"`` or ``"consistent"``, as ``rejected`` says."""
        return "rejected" if self.rejected else "consistent"

    @property
    def private(self) -> bool:
        """Never: a goodness-of-fit test shows no privacy (the booleans of every verdict)."""
        return False

    @property
    def violated(self) -> bool:
        """Never: a goodness-of-fit test checks a law, not a privacy bound."""
        return False

    def __str__(self) -> str:
        what = ", ".join(f"{k} {v}" for k, v in (self.target or {}).items() if v is not None)
        head = f"{what}: {self.n} samples (actions from {self.base})"
        if self.support_violation is not None:
            v = self.support_violation
            return f"{head}: rejected, sample {v['sample']} (rows from 0) is outside the support: {v['reason']}"
        level = f"each at {self.per_test_alpha:.4g} (alpha {self.alpha:g})"
        if self.rejected:
            named = [(t["p_value"], t["name"]) for t in self.chi_square_tests]
            named += [
                (t["rare_cells"]["p_value"], f"the rare cells of {t['name']}")
                for t in self.chi_square_tests
                if t.get("rare_cells")
            ]
            p, name = min(named)
            return f"{head}: rejected, {name} has p = {p:.3g}; {self.tests} tests, {level}"
        return f"{head}: consistent with the law, smallest p = {self.p_min:.3g}; {self.tests} tests, {level}"


def _gof_result(d: Dict[str, Any], law, target: Dict[str, Any], base: int) -> GofResult:
    fields = {
        k: d[k]
        for k in GofResult.__dataclass_fields__
        if k not in ("law", "target", "base", "report")
    }
    fields["chi_square_tests"] = tuple(fields["chi_square_tests"])
    fields["report"] = json.loads(d["report"])
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
        _text(algorithm, "algorithm"),
        _matrix(losses, "losses"),
        samples=_actions(samples, 2, base),
        alpha=_level(alpha, "alpha"),
        tv=None if tv is None else _level(tv, "tv", high_open=False),
        force=_flag(force, "force"),
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
    return _gof_result(d, SequenceLaw._from_json(d["law"]), target, base)


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
        alpha=_level(alpha, "alpha"),
        tv=None if tv is None else _level(tv, "tv", high_open=False),
        base=base,
    )
    target = dict(
        mechanism=noise,
        losses=",".join(_vector(losses, "losses")),
        scale=_option(scale, "scale"),
        unit_weight=_option(unit_weight, "unit_weight"),
    )
    return _gof_result(d, Law._from_json(d["law"]), target, base)


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
    delta: Any = None,
) -> PrivacyReport:
    """Exhaustive ε-DP check of ``algorithm`` with K = ``actions`` over every pair
    of neighbouring loss sequences of length ``horizon`` (an integer or
    ``'2^k'``) with losses in ``alphabet`` (``dpdtol privacy``); ``noise`` and
    ``resample`` default to the paper's (Laplace, no resampling), which the
    report records. Returns the report of ``dpdtol privacy --json`` as a
    ``PrivacyReport``: ``verdict`` (``"private"``/``"violated"``/
    ``"undecided"``), ``max_ratio`` and its enclosure, ``bound`` (e^ε), the
    ``witness`` (actions numbered from 1), ``pairs``, ``kind``. ``delta=D``
    also decides (ε, D)-DP from the whole laws (``report.delta``, as
    ``--delta``)."""
    text = _native.check_privacy(
        _text(algorithm, "algorithm"),
        _integer(actions, "actions"),
        _horizon(horizon),
        _vector(alphabet, "alphabet"),
        force=_flag(force, "force"),
        threads=_optional_integer(threads, "threads", 1),
        delta=_option(delta, "delta"),
        **_algorithm_args(epsilon, noise, noise_scale, resample),
    )
    return PrivacyReport._from_json(text)


def mechanism_privacy(
    noise: Optional[str],
    actions: int,
    alphabet: Sequence[Any],
    epsilon: Any,
    neighbours: Optional[str] = None,
    scale: Any = None,
    force: bool = False,
    threads: Optional[int] = None,
    delta: Any = None,
) -> OneShotPrivacyReport:
    """Exhaustive ε-DP check of one report-noisy-max selection with ``noise``
    (``"gumbel"``, ``"exponential"`` or ``"laplace"``, required) of scale
    ``scale`` (default 2/ε) over every loss vector in ``alphabet^actions`` and
    every ordered pair of them that ``neighbours`` allows (``"any"``, the
    default, or ``"linf:D"``, ...): ``dpdtol privacy --mechanism``. Returns
    its report as a ``OneShotPrivacyReport`` (``verdict``, ``max_ratio``,
    ``witness``, ...); ``print(report)`` gives the command line's text.
    ``delta=D`` also decides (ε, D)-DP from the whole laws (``report.delta``).

    >>> import dpdtol
    >>> r = dpdtol.mechanism_privacy("laplace", 2, [0, "1/2", 1], "1/2", scale=1)
    >>> r.verdict, r.witness["actions"]
    ('violated', [1])
    """
    text, rendered = _native.mechanism_privacy(
        _noise(noise),
        _integer(actions, "actions"),
        _vector(alphabet, "alphabet"),
        _exact(epsilon, "epsilon"),
        neighbours=_optional_text(neighbours, "neighbours"),
        scale=_option(scale, "scale"),
        force=_flag(force, "force"),
        threads=_optional_integer(threads, "threads", 1),
        delta=_option(delta, "delta"),
    )
    return OneShotPrivacyReport._from_json(text, rendered=rendered)


def privacy_all_epsilon(
    algorithm: str,
    actions: int,
    horizon: Any,
    alphabet: Sequence[Any],
    epsilon_range: Optional[Tuple[Any, Any]] = None,
    noise: Optional[str] = None,
    resample: Optional[bool] = None,
    scale_factor: Any = None,
    force: bool = False,
    threads: Optional[int] = None,
) -> AllEpsilonReport:
    """Where ``algorithm`` (an online algorithm, K = ``actions``) is ε-DP,
    decided exactly for every ε in ``epsilon_range`` = ``(lo, hi)`` (every
    ε > 0 when None): ``dpdtol privacy --epsilon-range lo..hi`` or
    ``--all-epsilon``. The noise scale is ``scale_factor`` (default 1) times
    the paper's, so that it follows ε. Returns an ``AllEpsilonReport``
    (``pieces`` with their ends and verdicts, ``violated``);
    ``print(report)`` gives the command line's text.

    >>> import dpdtol
    >>> r = dpdtol.privacy_all_epsilon("wu-wang", 2, 3, [0, 1], noise="exponential")
    >>> [p["verdict"] for p in r.pieces], r.violated
    (['violated'], True)
    """
    if epsilon_range is None:
        given = None
    else:
        try:
            lo, hi = epsilon_range
        except (TypeError, ValueError):
            raise ValueError(f"epsilon_range: expected a pair (lo, hi), got {epsilon_range!r}") from None
        given = f"{_exact(lo, 'epsilon_range')}..{_exact(hi, 'epsilon_range')}"
    text, rendered = _native.privacy_all_epsilon(
        _text(algorithm, "algorithm"),
        _integer(actions, "actions"),
        _horizon(horizon),
        _vector(alphabet, "alphabet"),
        epsilon_range=given,
        noise=None if noise is None else _noise(noise),
        resample=_optional_flag(resample, "resample"),
        scale_factor=_option(scale_factor, "scale_factor"),
        force=_flag(force, "force"),
        threads=_optional_integer(threads, "threads", 1),
    )
    return AllEpsilonReport._from_json(text, rendered=rendered)


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
        _text(algorithm, "algorithm"),
        _vector(means, "means"),
        _text(setting, "setting"),
        _horizon(horizon),
        force=_flag(force, "force"),
        bounds=_flag(bounds, "bounds"),
        digits=_integer(digits, "digits", 0, 2**32 - 1),
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
    claimed_epsilon: Any = None,
) -> AuditReport:
    """A privacy audit of any sampler (``dpdtol audit``): ``first`` and
    ``second`` are ``n x T`` arrays of actions (numbered from ``base``) that it
    drew on two neighbouring inputs. An event (an action at a round, or a whole
    sequence) is chosen on the first halves, its probabilities bounded by
    Clopper–Pearson on the second halves: ε is at least ``epsilon_lower`` with
    probability ``confidence``. With ``algorithm`` (and ``losses``,
    ``neighbour``, ``epsilon`` and its law's parameters, as ``gof``), the report
    also gives dpdtol's exact ratios of the event and the largest ratio of the
    algorithm on this pair. The verdict is against ``claimed_epsilon`` (as
    ``--claimed-epsilon``), else the target's ``epsilon``: ``violated`` when
    the bound exceeds it. Returns the report of ``dpdtol audit --json`` as
    an ``AuditReport``."""
    base = _base(base)
    target: Dict[str, Any] = {}
    if algorithm is None:
        given = dict(losses=losses, neighbour=neighbour, epsilon=epsilon, noise=noise, noise_scale=noise_scale, resample=resample)
        named = [k for k, v in given.items() if v is not None] + (["force"] if _flag(force, "force") else [])
        if named:
            raise ValueError(
                f"{named[0]} applies with algorithm only (the target whose exact ratios the audit adds): pass algorithm, or leave out {', '.join(named)}"
            )
    else:
        if epsilon is None:
            raise ValueError("epsilon is required with algorithm")
        target = dict(
            algorithm_id=_text(algorithm, "algorithm"),
            losses=None if losses is None else _matrix(losses, "losses"),
            neighbour=None if neighbour is None else _matrix(neighbour, "neighbour"),
            force=_flag(force, "force"),
            **_algorithm_args(epsilon, noise, noise_scale, resample),
        )
    text = _native.audit(
        _actions(first, 2, base),
        _actions(second, 2, base),
        confidence=_level(confidence, "confidence"),
        base=base,
        claimed_epsilon=None if claimed_epsilon is None else str(claimed_epsilon),
        **target,
    )
    return AuditReport._from_json(text)


def verify(claim: Optional[str] = None, shard: Optional[str] = None, errata: bool = False) -> VerifyReport:
    """Check the papers' claims (``dpdtol verify``): every claim of the
    registry, the one ``claim`` names (``"cc-lem2-iv"``) or every part of one
    (``"cc-lem2"``), or part ``shard`` = ``"I/N"`` of the registry (as
    ``--shard``; not with ``claim`` or ``errata``). With ``errata``, the
    papers' printed errors are collated from the outcomes (without
    ``claim``, only the claims the errata need are run). The whole registry
    takes minutes (about ten on two cores); one claim takes from
    milliseconds to a minute. Returns the report of ``dpdtol verify --json``
    with the same flags as a ``VerifyReport``: ``report.status(id)``,
    ``report.refuted`` (the command line exits 1 when it is not empty):

    >>> import dpdtol
    >>> r = dpdtol.verify("cc-lem2-i")
    >>> r.status("cc-lem2-i"), r.refuted, r.summary["certified"]
    ('certified', [], 1)
    """
    text = _native.verify(
        claim=_optional_text(claim, "claim"),
        shard=_optional_text(shard, "shard"),
        errata=_flag(errata, "errata"),
    )
    return VerifyReport._from_json(text)


from .bandit import BanditLaw, bandit_gof, bandit_law, bandit_law_bounds, bandit_privacy, bandit_sample, bandit_simulate  # noqa: E402  (uses the above)

__all__ += ["BanditLaw", "bandit_law", "bandit_law_bounds", "bandit_sample", "bandit_gof", "bandit_privacy", "bandit_simulate"]
