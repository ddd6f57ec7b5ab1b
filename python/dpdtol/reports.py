"""The typed reports of ``dpdtol privacy``, ``regret``, ``audit`` and ``verify`` in Python.

Each class has exactly the fields of the command's JSON output (the schemas
under ``docs/schema/``), with the JSON's values: exact numbers as ``"p/q"``
strings, decimals as strings with every digit certain, enclosures as
``[lo, hi]`` decimal strings, nested objects as dicts. A report the Rust side
writes with a key these classes do not know, or without one they expect, is
refused (``TypeError``) instead of being read in part. ``print(report)``
gives a short summary; the methods turn strings into ``Fraction``s.
"""

import json
from dataclasses import dataclass, field, fields
from fractions import Fraction
from typing import Any, Dict, List, Optional


def _plain(value: Any) -> Any:
    """A field's value as the JSON holds it (nested reports as dicts)."""
    if isinstance(value, _Report):
        return value.to_dict()
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


class _Report:
    @classmethod
    def _from_json(cls, text: str, **extra: Any):
        return cls(**json.loads(text), **extra)

    def to_dict(self) -> Dict[str, Any]:
        """The report as the JSON object of the command line's ``--json``
        (a key the JSON leaves out when it is null is left out here too)."""
        out = {}
        for f in fields(self):
            if not f.metadata.get("json", True):
                continue
            value = getattr(self, f.name)
            if value is None and f.metadata.get("omitted_when_null", False):
                continue
            out[f.name] = _plain(value)
        return out


def _algorithm(r) -> str:
    """The algorithm and the parameters of its law, in words."""
    parts = [r.algorithm]
    if r.noise is not None:
        parts.append(f"{r.noise} noise")
    if r.noise_scale is not None:
        parts.append(f"scale {r.noise_scale}")
    if r.resample:
        parts.append("resampled")
    return ", ".join(parts)


_OMITTED_WHEN_NULL = {"omitted_when_null": True}


class _Verdict:
    """The booleans of a report's ``verdict``, the same on every result:
    ``private`` (ε-DP shown), ``violated`` (a pair of neighbours breaks
    the bound) and ``rejected`` (the claim under test is refuted: a
    violation, or samples rejected by a test)."""

    @property
    def private(self) -> bool:
        return self.verdict == "private"

    @property
    def violated(self) -> bool:
        return self.verdict == "violated"

    @property
    def rejected(self) -> bool:
        return self.verdict in ("violated", "rejected")


@dataclass(frozen=True)
class PrivacyReport(_Verdict, _Report):
    """The exhaustive ε-DP check of an online algorithm (``dpdtol privacy --json``)."""

    actions: int
    algorithm: str
    alphabet: List[str]
    attained: bool
    bound: str
    """e^ε, every digit certain."""
    bound_interval: Optional[List[str]]
    digits_certain: bool
    epsilon: str
    horizon: str
    kind: str
    """``"exact"`` or ``"certified"``."""
    max_ratio: str
    """The largest privacy-loss ratio (``"inf"`` when a neighbour gives 0 where the other does not)."""
    max_ratio_exact: Optional[str]
    max_ratio_interval: Optional[List[str]]
    merge: Dict[str, Any]
    method: str
    noise: Optional[str]
    noise_scale: Optional[str]
    pairs: Optional[int]
    precision_bits: Optional[int]
    resample: bool
    schema_version: str
    shard: str
    verdict: str
    """``"private"``, ``"violated"`` or ``"undecided"``."""
    why_not_exact: Optional[str]
    witness: Dict[str, Any]
    """``losses`` and ``neighbour`` (rows by round), ``actions`` (from 1), ``round`` (from 1), ``ratio``."""
    spot_check: Optional[Dict[str, Any]] = field(default=None, metadata=_OMITTED_WHEN_NULL)
    """What a merge of shards re-verified by recomputation (merged reports of the command line only)."""
    delta: Optional[Dict[str, Any]] = field(default=None, metadata=_OMITTED_WHEN_NULL)
    """With ``delta=D``: the (ε, δ) check (``target``, ``value``, ``interval``, ``exact``, ``verdict``, ``witness``)."""

    @property
    def max_ratio_fraction(self) -> Optional[Fraction]:
        """The largest ratio as a Fraction, when exact."""
        return None if self.max_ratio_exact is None else Fraction(self.max_ratio_exact)

    def __str__(self) -> str:
        alphabet = "{" + ", ".join(self.alphabet) + "}"
        head = (
            f"{_algorithm(self)}, K = {self.actions}, T = {self.horizon}, losses in {alphabet},"
            f" ε = {self.epsilon}"
        )
        ratio = f"max privacy-loss ratio {self.max_ratio} ({self.kind}), e^ε = {self.bound}"
        if self.verdict == "violated":
            w = self.witness
            return (
                f"{head}: VIOLATED, {ratio}; witness: actions {w['actions']} on losses"
                f" {w['losses']} against {w['neighbour']} (round {w['round']} changed)"
            )
        return f"{head}: {self.verdict}, {ratio} ({self.pairs} pairs)"


@dataclass(frozen=True)
class RegretReport(_Report):
    """The pseudo-regret of one algorithm with the papers' bounds beside it
    (``dpdtol regret --json``)."""

    algorithm: str
    bounds: List[Dict[str, Any]]
    """Each bound: ``id``, ``source``, ``statement``, ``kind`` (upper or
    lower), ``value``, ``value_interval``, ``holds``, ``applies``, ``note``,
    ``quantity``, ``quantity_value``."""
    bounds_not_evaluated: List[Dict[str, Any]]
    curve: Optional[str]
    digits_certain: bool
    digits_reason: Optional[str]
    digits_requested: int
    epsilon: str
    horizon: str
    kind: str
    label: str
    means: List[str]
    noise: Optional[str]
    noise_scale: Optional[str]
    plot: Optional[str]
    precision_bits: Optional[int]
    rates: List[Dict[str, Any]]
    """Rates without their constant: ``id``, ``expression``, ``rate``, ``implied_constant``."""
    regret: str
    """Reg_T, every digit certain."""
    regret_exact: Optional[str]
    regret_interval: Optional[List[str]]
    resample: bool
    setting: str
    schema_version: Optional[str] = None

    @property
    def regret_fraction(self) -> Optional[Fraction]:
        """Reg_T as a Fraction, when exact."""
        return None if self.regret_exact is None else Fraction(self.regret_exact)

    def __str__(self) -> str:
        means = "(" + ", ".join(self.means) + ")"
        lines = [
            f"{_algorithm(self)}, ε = {self.epsilon}, means {means}, {self.setting}, T = {self.horizon}:"
            f" regret {self.regret} ({self.kind})"
        ]
        for b in self.bounds:
            holds = {True: "holds", False: "VIOLATED", None: "undecided"}[b["holds"]]
            lines.append(f"  {b['kind']} bound {b['id']} = {b['value']}: {holds}")
        return "\n".join(lines)


@dataclass(frozen=True)
class AuditReport(_Report):
    """A lower bound on the ε of a black-box sampler from its samples on two
    neighbouring inputs (``dpdtol audit --json``)."""

    base: int
    """Actions are numbered from this in the samples and the event."""
    candidates: int
    claimed_epsilon: Optional[str]
    """The ε claimed for the sampler, an exact fraction (None: none claimed)."""
    claimed_epsilon_from: Optional[str]
    """``"--claimed-epsilon"`` or ``"--epsilon"`` (the target's): where the claim was read."""
    command: str
    confidence: float
    conventions: str
    denominator_count: int
    denominator_upper: float
    direction: str
    """``"first/second"`` or ``"second/first"``: which probability is the numerator."""
    epsilon_lower: float
    """ε is at least this with probability at least ``confidence`` (approximate)."""
    epsilon_lower_kind: str
    event: Dict[str, Any]
    """The event chosen on the first halves: a ``round`` and its ``action``, or a whole ``sequence``."""
    exact_event_ratio: Optional[Dict[str, Any]]
    """dpdtol's exact (else certified) ratio of the event on the target (None without one)."""
    exact_max_ratio: Optional[Dict[str, Any]]
    """The largest ratio of any sequence's probabilities on the target: its e^ε on this pair."""
    method: str
    numerator_count: int
    numerator_lower: float
    schema_version: str
    selection_rows: List[int]
    target: Optional[Dict[str, Any]]
    test_rows: List[int]
    verdict: str
    """``"violated"`` (``epsilon_lower`` exceeds the claimed ε), ``"consistent"`` or ``"unclaimed"``."""
    violated: bool

    def __str__(self) -> str:
        numerator, denominator = ("first", "second") if self.direction == "first/second" else ("second", "first")
        line = (
            f"ε ≥ {self.epsilon_lower:.6f} with confidence {self.confidence} (approximate;"
            f" event {self.event}, {numerator} over {denominator}, {self.candidates} candidates)"
        )
        if self.exact_max_ratio is not None:
            lo, hi = self.exact_max_ratio["interval"]
            line += f"; the target's largest ratio on this pair is [{lo[:14]}, {hi[:14]}] ({self.exact_max_ratio['kind']})"
        return line



@dataclass(frozen=True)
class VerifyReport(_Report):
    """The papers' claims checked, with their outcomes (``dpdtol verify --json``).

    ``claims`` holds one dict per claim, in the registry's order: ``id``,
    ``source``, ``statement``, ``math``, ``method``, ``domain``, ``status``
    (``"certified"``, ``"holds-on-instances"``, ``"refuted"`` or
    ``"undecided"``), ``detail`` (the evidence), ``witness`` (the failing
    point, when there is one) and ``seconds``. ``summary`` holds the tally
    by status, the papers' ``coverage`` and, with errata, their counts."""

    claims: List[Dict[str, Any]]
    schema_version: str
    seconds: float
    """Wall-clock seconds of all checks."""
    summary: Dict[str, Any]
    errata: Optional[List[Dict[str, Any]]] = field(default=None, metadata=_OMITTED_WHEN_NULL)
    """With ``errata=True``: the papers' printed errors, one per root cause."""
    shard: Optional[Dict[str, int]] = field(default=None, metadata=_OMITTED_WHEN_NULL)
    """With ``shard``: ``index`` and ``count`` of the part checked."""
    withdrawn: Optional[List[Dict[str, Any]]] = field(default=None, metadata=_OMITTED_WHEN_NULL)
    """With ``errata=True``: refuted claims that are not the papers' errors, with the reason."""

    def status(self, claim: str) -> str:
        """The status of the claim with id ``claim`` in this run."""
        for c in self.claims:
            if c["id"] == claim:
                return c["status"]
        raise KeyError(f"claim {claim!r} was not checked in this run")

    @property
    def refuted(self) -> List[str]:
        """The ids of the claims refuted (the command line exits 1 when there is one)."""
        return [c["id"] for c in self.claims if c["status"] == "refuted"]

    def __str__(self) -> str:
        tally = ", ".join(
            f"{self.summary[s]} {s}" for s in ("certified", "holds-on-instances", "refuted", "undecided")
        )
        lines = [f"{len(self.claims)} claims checked in {self.seconds:.1f} s: {tally}"]
        lines += [f"  {c['id']}: {c['status']}" for c in self.claims]
        return "\n".join(lines)


@dataclass(frozen=True)
class BanditPrivacyReport(_Verdict, _Report):
    """The exhaustive ε-DP check of a bandit algorithm (``dpdtol privacy
    --algorithm ALGORITHM --json`` of a bandit algorithm with an exact
    check, those ``bandit_privacy`` names): every pair of
    reward tables differing in one round, each pull sequence's probability
    on both; ``print(report)`` gives the command line's text."""

    actions: int
    algorithm: str
    alphabet: List[str]
    attained: bool
    bound: str
    """e^ε, every digit certain."""
    bound_interval: Optional[List[str]]
    digits_certain: bool
    epsilon: str
    horizon: str
    kind: str
    """``"exact"`` or ``"certified"``."""
    max_ratio: str
    max_ratio_exact: Optional[str]
    max_ratio_interval: Optional[List[str]]
    merge: Dict[str, Any]
    method: str
    noise: str
    noise_scale: str
    pairs: Optional[int]
    precision_bits: Optional[int]
    quotients: int
    resample: bool
    schema_version: str
    shard: str
    verdict: str
    """``"private"``, ``"violated"`` or ``"undecided"``."""
    why_not_exact: Optional[str]
    witness: Dict[str, Any]
    """``rewards`` and ``neighbour`` (rows by round), ``actions`` (the pulls, from 1), ``round`` (from 1), ``ratio``."""
    algorithm_inferred: Optional[bool] = field(default=None, metadata=_OMITTED_WHEN_NULL)
    bonus: Optional[str] = field(default=None, metadata=_OMITTED_WHEN_NULL)
    epoch_lengths: Optional[List[str]] = field(default=None, metadata=_OMITTED_WHEN_NULL)
    epoch_lengths_printed: Optional[bool] = field(default=None, metadata=_OMITTED_WHEN_NULL)
    noise_consulted: Optional[bool] = field(default=None, metadata=_OMITTED_WHEN_NULL)
    beta: Optional[str] = field(default=None, metadata=_OMITTED_WHEN_NULL)
    """DP-SE: its failure probability β, exactly."""
    pull_order: Optional[str] = field(default=None, metadata=_OMITTED_WHEN_NULL)
    """DP-SE: the pull order inside an epoch (``blocks``, ``round-robin``)."""
    rounding: Optional[str] = field(default=None, metadata=_OMITTED_WHEN_NULL)
    """DP-SE: the rounding of the printed epoch lengths."""
    radius: Optional[str] = field(default=None, metadata=_OMITTED_WHEN_NULL)
    """DP-SE: the R_e its elimination radius reads (``integer``, ``real``)."""
    reward_index: Optional[str] = field(default=None, metadata=_OMITTED_WHEN_NULL)
    """DP-SE: which entry of the table a pull receives (``round``, ``pull``)."""
    tree_depth: Optional[int] = field(default=None, metadata=_OMITTED_WHEN_NULL)
    """DP-UCB: the binary mechanism's depth L."""
    delta: Optional[Dict[str, Any]] = field(default=None, metadata=_OMITTED_WHEN_NULL)
    """With ``delta=D``: the (ε, δ) check (``target``, ``value``, ``interval``, ``exact``, ``verdict``, ``witness``)."""
    note: Optional[str] = field(default=None, metadata=_OMITTED_WHEN_NULL)
    spot_check: Optional[Dict[str, Any]] = field(default=None, metadata=_OMITTED_WHEN_NULL)
    tree_scale: Optional[str] = field(default=None, metadata=_OMITTED_WHEN_NULL)
    rendered: str = field(default="", repr=False, compare=False, metadata={"json": False})
    """The command line's text of the report."""

    @property
    def max_ratio_fraction(self) -> Optional[Fraction]:
        """The largest ratio as a Fraction, when exact."""
        return None if self.max_ratio_exact is None else Fraction(self.max_ratio_exact)

    def __str__(self) -> str:
        return self.rendered


@dataclass(frozen=True)
class StatisticalPrivacyReport(_Verdict, _Report):
    """The statistical audit of a bandit algorithm's ε-DP (``dpdtol privacy
    --algorithm lazy-dp-ts`` or ``hybrid-ucb --method statistical``, ``--json``):
    f64 simulation with Clopper–Pearson bounds, approximate and labelled so;
    ``verdict`` is ``"violated"`` or ``"undecided"``, never ``"private"``;
    ``print(report)`` gives the command line's text."""

    actions: int
    algorithm: str
    alphabet: List[str]
    bonus: str
    bound: str
    bound_interval: Optional[List[str]]
    confidence: float
    epsilon: str
    epsilon_lower: str
    """A lower confidence bound on the ε the algorithm attains."""
    horizon: str
    kind: str
    level_per_bound: float
    max_ratio: str
    max_ratio_confidence_interval: List[str]
    max_ratio_exact: Optional[str]
    max_ratio_interval: Optional[List[str]]
    merge: Dict[str, Any]
    method: str
    noise: str
    noise_scale: str
    note: Optional[str]
    pairs: int
    resample: bool
    runs_per_table: int
    schema_version: str
    seed: int
    shard: str
    tables: int
    verdict: str
    verdict_text: str
    why_not_certified: str
    witness: Dict[str, Any]
    algorithm_inferred: Optional[bool] = field(default=None, metadata=_OMITTED_WHEN_NULL)
    bonus_round: Optional[str] = field(default=None, metadata=_OMITTED_WHEN_NULL)
    """DP-TS: the round whose ln t its bonus reads (``current``, ``last-update``)."""
    spot_check: Optional[Dict[str, Any]] = field(default=None, metadata=_OMITTED_WHEN_NULL)
    tree_scale: Optional[str] = field(default=None, metadata=_OMITTED_WHEN_NULL)
    rendered: str = field(default="", repr=False, compare=False, metadata={"json": False})
    """The command line's text of the report."""

    def __str__(self) -> str:
        return self.rendered


@dataclass(frozen=True)
class BanditBoundsReport(_Report):
    """Certified bounds (not values) on the law of DP-TS's or Lazy-DP-TS's
    pull sequence on one reward table (``dpdtol law --algorithm dp-ts
    --json``): ``law`` lists every pull sequence with its
    ``probability_interval``; ``print(report)`` gives the command line's
    text."""

    arms: int
    base: int
    bounds: str
    command: str
    conventions: str
    horizon: str
    law: List[Dict[str, Any]]
    precision_bits: int
    probability: Optional[Dict[str, Any]]
    schema_version: str
    target: Dict[str, Any]
    total_interval: List[str]
    width: str
    rendered: str = field(default="", repr=False, compare=False, metadata={"json": False})
    """The command line's text of the report."""

    def __str__(self) -> str:
        return self.rendered


@dataclass(frozen=True)
class BoundsPrivacyReport(_Verdict, _Report):
    """The certified check of DP-TS's or Lazy-DP-TS's ε-DP from bounds on
    every law (``dpdtol privacy --algorithm dp-ts --method bounds --json``):
    ``verdict`` is ``"private"``, ``"violated"`` or ``"undecided"`` (the
    bounds are too wide to tell); ``max_ratio_lower`` and
    ``max_ratio_upper`` bound the largest ratio, with their pairs;
    ``print(report)`` gives the command line's text."""

    actions: int
    algorithm: str
    alphabet: List[str]
    bonus: str
    bonus_round: Optional[str]
    bound: str
    bounds: str
    delta_interval: Optional[List[str]]
    """Bounds on δ(ε), the largest hockey-stick divergence over neighbours."""
    epsilon: str
    horizon: str
    laws: int
    max_ratio_lower: Dict[str, Any]
    max_ratio_upper: Optional[Dict[str, Any]]
    method: str
    noise_scale: str
    precision_bits: int
    schema_version: str
    tree_scale: Optional[str]
    verdict: str
    width: str
    rendered: str = field(default="", repr=False, compare=False, metadata={"json": False})
    """The command line's text of the report."""

    def __str__(self) -> str:
        return self.rendered


@dataclass(frozen=True)
class AllEpsilonReport(_Report):
    """The privacy of an online algorithm for every ε of a range, decided
    exactly (``dpdtol privacy --epsilon-range a..b --json`` or
    ``--all-epsilon``): the range cut into ``pieces``, each with its ends
    (``lo``, ``hi``: exact or certified, closed or open), its ``verdict``
    and, when violated, a ``witness`` at one ε of it; the noise scale is
    ``scale_factor`` times the paper's, so that it follows ε (``base`` the
    weight it gives one unit of loss); ``print(report)`` gives the command
    line's text."""

    actions: int
    algorithm: str
    alphabet: List[str]
    base: str
    candidates: int
    conditions: int
    epsilon_range: Dict[str, Any]
    horizon: str
    kind: str
    max_degree: int
    method: str
    noise: Optional[str]
    pieces: List[Dict[str, Any]]
    resample: bool
    roots: int
    scale_factor: str
    schema_version: str
    rendered: str = field(default="", repr=False, compare=False, metadata={"json": False})
    """The command line's text of the report."""

    @property
    def violated(self) -> bool:
        """Whether some ε of the range is violated."""
        return any(p["verdict"] == "violated" for p in self.pieces)

    @property
    def private(self) -> bool:
        """Whether every ε of the range is shown private."""
        return all(p["verdict"] == "private" for p in self.pieces)

    @property
    def rejected(self) -> bool:
        """Whether privacy is refuted somewhere in the range (``violated``)."""
        return self.violated

    def __str__(self) -> str:
        return self.rendered


@dataclass(frozen=True)
class OneShotPrivacyReport(_Verdict, _Report):
    """The exhaustive ε-DP check of one report-noisy-max selection
    (``dpdtol privacy --mechanism ... --json``): every input of
    ``alphabet^K`` and every ordered pair of neighbours, under the keys of
    the online check (``horizon`` ``"1"``, the witness's ``losses`` and
    ``neighbour`` one vector each); ``print(report)`` gives the command
    line's text."""

    actions: int
    algorithm: str
    alphabet: List[str]
    attained: bool
    bound: str
    bound_interval: Optional[List[str]]
    class_pairs: int
    classes: int
    decision: str
    digits_certain: bool
    epsilon: str
    horizon: str
    inputs: int
    kind: str
    max_ratio: str
    max_ratio_closed_form: Optional[str]
    max_ratio_exact: Optional[str]
    max_ratio_interval: Optional[List[str]]
    mechanism: str
    merge: Optional[Dict[str, Any]]
    method: str
    neighbours: str
    noise: str
    noise_scale: str
    pairs: int
    precision_bits: Optional[int]
    resample: bool
    schema_version: str
    sensitivity: str
    shard: str
    verdict: str
    """``"private"``, ``"violated"`` or ``"undecided"``."""
    why_not_exact: Optional[str]
    witness: Dict[str, Any]
    delta: Optional[Dict[str, Any]] = field(default=None, metadata=_OMITTED_WHEN_NULL)
    """With ``delta=D``: the (ε, δ) check (``target``, ``value``, ``interval``, ``exact``, ``verdict``, ``witness``)."""
    rendered: str = field(default="", repr=False, compare=False, metadata={"json": False})
    """The command line's text of the report."""

    @property
    def max_ratio_fraction(self) -> Optional[Fraction]:
        """The largest ratio as a Fraction, when exact."""
        return None if self.max_ratio_exact is None else Fraction(self.max_ratio_exact)

    def __str__(self) -> str:
        return self.rendered


@dataclass(frozen=True)
class BanditReport(_Report):
    """The Monte Carlo simulation of bandit algorithms on Bernoulli arms
    (``dpdtol bandit --json``): f64, **approximate** (``kind``), the mean
    pseudo-regret of each algorithm and ε at ``checkpoints`` with its
    confidence intervals in ``results``; ``print(report)`` gives the
    command line's tables."""

    checkpoints: List[int]
    command: str
    confidence: Any
    experiment: Optional[str]
    horizon: str
    kind: str
    means: List[Any]
    means_exact: List[str]
    results: List[Dict[str, Any]]
    runs: int
    schema_version: str
    seed: int
    setting: str
    rendered: str = field(default="", repr=False, compare=False, metadata={"json": False})
    """The command line's tables of the report."""

    def __str__(self) -> str:
        return self.rendered
