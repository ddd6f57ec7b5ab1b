"""The bandit oracle: the law of a private bandit algorithm's pull sequence on
a fixed reward table, seeded reference samples of it, and the goodness-of-fit
of anyone's pull sequences against it.

The reward-table contract. ``rewards`` is a T x K array (or nested lists) of
rewards in [0, 1], read exactly like every number of this package (a float by
its shortest decimal form). Row ``t - 1`` holds every arm's reward in round
t (rounds numbered from 1). At round t the learner pulls one arm ``a_t`` and
receives ``rewards[t - 1, a_t]``, which it sees before choosing ``a_{t+1}``;
it never sees the other arms' rewards. Its only randomness is its own noise,
so on a given table the pull sequence ``a_1 .. a_T`` has one law, which every
correct implementation reproduces. Arms in arrays are numbered from
``base``: 1 by default, as on the command line and in the rest of this
package (``base=0`` for numpy's ``argmax``); in the table itself, row
``t - 1`` column ``j - 1`` is arm j's reward. Anytime-Lazy-UCB pulls arms
1, 2, .., K in rounds 1..K (its line 2).

Algorithms (ids as for ``dpdtol privacy``), with their parameters:

- ``"anytime-lazy-ucb"`` (Hu, Huang, Mehta & Hegde, Algorithm 1), any
  2 <= K <= T: ``noise_scale`` (default 1/epsilon, the Laplace scale on each
  epoch's reward sum), ``bonus`` (default 3, the constant of
  sqrt(3 ln t/O) + 3 ln t/(epsilon O));
- ``"dp-se"`` (Sajed & Sheffet 2019), K = 2, beta = 1/T: ``noise_scale``
  (default 1/epsilon, on each block's reward sum), ``epoch_lengths``
  (R_1, R_2, ..; the last repeats; default the printed ones, in the hundreds,
  so that no epoch ends on a short table);
- ``"hybrid-ucb"`` (as inferred from Hu, Huang & Mehta, Appendix E), K = 2:
  ``noise_scale`` (the array blocks', default 2/epsilon), ``tree_scale``
  (default 2/epsilon), ``scale_factor`` (on both; excludes ``tree_scale``),
  ``bonus`` (default 3);
- ``"ucb1"`` (Auer, Cesa-Bianchi & Fischer 2002), non-private, any K: no
  noise, so its law is one sequence of probability exactly 1; ``epsilon``
  must be None; ``bonus`` (default 2, of the index mean_j + sqrt(2 ln n/n_j),
  n the pulls so far).

``epsilon`` is required by the private algorithms. ``"lazy-dp-ts"`` (Hu et
al., Algorithm 3) has no exact or certified law (its pulls are argmaxes of
Beta draws whose parameters move continuously with the noise):
``bandit_law`` and ``bandit_sample`` raise ValueError for it, and
``bandit_gof`` runs a weaker, labelled two-sample test against dpdtol's own
(f64, approximate) simulation of it.

A worked example: Anytime-Lazy-UCB, K = 2, on five rounds. Rounds 1 and 2
pull arms 1 and 2 (line 2); round 3 pulls arm 1 iff 0.25 + Z_1 >= 0.75 + Z_2,
and that arm again in round 4, which ends its first epoch (O = 2); from
round 5 on the arms' O differ, line 4's thresholds involve ln t, and the law
is certified (a narrow enclosure), not exact:

>>> import dpdtol, numpy as np
>>> rewards = np.array([[0.25, 0.0], [0.0, 0.75], [1, 0.5], [0.5, 0.5], [0.5, 1]])
>>> law = dpdtol.bandit_law("anytime-lazy-ucb", rewards, epsilon=1)
>>> law.kind, law.sequences.tolist()
('certified', [[1, 2, 1, 1, 1], [1, 2, 1, 1, 2], [1, 2, 2, 2, 1], [1, 2, 2, 2, 2]])
>>> p = law.probability([1, 2, 2, 2, 1])
>>> p.lo[:12], p.hi[:12], p.exact
('0.5824095245', '0.5824095245', None)
>>> law.probability([1, 2, 1, 2, 1]).exact  # round 4 repeats round 3's pull
Fraction(0, 1)

A user's sampler is tested against it (here dpdtol's own reference sampler):

>>> samples = dpdtol.bandit_sample("anytime-lazy-ucb", rewards, 1, n=10_000, seed=7)
>>> samples.shape, samples.dtype
((10000, 5), dtype('int64'))
>>> result = dpdtol.bandit_gof("anytime-lazy-ucb", rewards, 1, samples)
>>> result.rejected, result.chi_square_tests[0]["cells"]
(False, 4)

DP-SE with its printed epoch lengths ends no epoch within ten rounds: it
pulls arm 1 throughout, with probability exactly 1:

>>> dpdtol.bandit_law("dp-se", [[0.5, 0.25]] * 10, epsilon=1).exact
(Fraction(1, 1),)
"""

import json
from dataclasses import dataclass
from fractions import Fraction
from numbers import Integral
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from . import (
    DEFAULT_ALPHA,
    GofResult,
    Value,
    _actions,
    _base,
    _exact,
    _gof_result,
    _matrix,
    _native,
    _option,
    _Provenance,
    _provenance,
    _horizon,
    _vector,
)
from .reports import BanditPrivacyReport, BanditReport, StatisticalPrivacyReport

__all__ = ["BanditLaw", "bandit_law", "bandit_sample", "bandit_gof", "bandit_privacy", "bandit_simulate"]


@dataclass(frozen=True, eq=False)
class BanditLaw(_Provenance):
    """The law of a bandit algorithm's pull sequence on one reward table:
    every sequence of possibly positive probability with its probability;
    every other sequence has probability exactly 0. ``accepted``: every
    certified probability is enclosed to a relative 1e-42."""

    arms: int
    horizon: int
    base: int
    """The number of the first arm in ``sequences`` and in ``probability``."""
    sequences: np.ndarray
    """``m x T`` int64 array of pull sequences (arms numbered from ``base``),
    in lexicographic order."""
    probabilities: Tuple[Value, ...]
    """The probability of each row of ``sequences``."""
    total: Tuple[str, str]
    """An enclosure (decimal strings) of the probabilities' sum; it contains 1."""

    @property
    def exact(self) -> Optional[Tuple[Fraction, ...]]:
        """The probabilities as Fractions, when exact."""
        if self.kind != "exact":
            return None
        return tuple(v.exact for v in self.probabilities)

    @property
    def approx(self) -> np.ndarray:
        """The probabilities as floats: approximate, for statistics and plots only."""
        return np.array([v.approx for v in self.probabilities])

    def probability(self, pulls: Sequence[int]) -> Value:
        """P(a_1..a_T = pulls | rewards), arms numbered from ``base``, as a
        Value (exactly 0 for a sequence the law does not list)."""
        a = _actions([pulls], 2, self.base)[0]
        if len(a) != self.horizon:
            raise ValueError(f"pulls: expected {self.horizon} pulls (one a round), got {len(a)}")
        if a.max(initial=0) >= self.arms:
            raise ValueError(f"pulls: arm {a.max() + self.base} is not one of the {self.arms} arms")
        rows = np.flatnonzero((self.sequences - self.base == a).all(axis=1))
        if rows.size == 0:
            return Value(Fraction(0), "0", "0", 0.0)
        return self.probabilities[rows[0]]


def _params(
    noise_scale: Any,
    bonus: Any,
    epoch_lengths: Any,
    tree_scale: Any,
    scale_factor: Any,
    delta: Any = None,
    pull_order: Optional[str] = None,
    rounding: Optional[str] = None,
) -> Dict[str, Any]:
    """The algorithm's parameters as ``_native`` reads them."""
    lengths = None
    if epoch_lengths is not None:
        lengths = list(np.atleast_1d(np.asarray(epoch_lengths, dtype=object)))
        if not lengths or not all(
            isinstance(r, Integral) and not isinstance(r, bool) and r >= 1 for r in lengths
        ):
            raise ValueError(f"epoch_lengths: expected positive integers R_1, R_2, .., got {epoch_lengths!r}")
        lengths = [int(r) for r in lengths]
    return dict(
        noise_scale=_option(noise_scale, "noise_scale"),
        bonus=_option(bonus, "bonus"),
        epoch_lengths=lengths,
        tree_scale=_option(tree_scale, "tree_scale"),
        scale_factor=_option(scale_factor, "scale_factor"),
        delta=_option(delta, "delta"),
        pull_order=None if pull_order is None else str(pull_order),
        rounding=None if rounding is None else str(rounding),
    )


def _bandit_law(d: Dict[str, Any], base: int) -> BanditLaw:
    return BanditLaw(
        **_provenance(d),
        arms=d["arms"],
        horizon=d["horizon"],
        base=base,
        sequences=base + d["sequences"],
        probabilities=tuple(Value._of(t) for t in d["probabilities"]),
        total=tuple(d["total"]),
    )


def bandit_law(
    algorithm: str,
    rewards: Any,
    epsilon: Any,
    noise_scale: Any = None,
    bonus: Any = None,
    epoch_lengths: Optional[Sequence[int]] = None,
    tree_scale: Any = None,
    scale_factor: Any = None,
    delta: Any = None,
    pull_order: Optional[str] = None,
    rounding: Optional[str] = None,
    force: bool = False,
    base: int = 1,
) -> BanditLaw:
    """The law of ``algorithm``'s pull sequence on ``rewards`` (T x K, the
    contract of this module), exact when every probability it needs is
    rational, else certified. Each listed sequence costs one closed-form
    integration: over 2^16 candidate sequences (K^(T-K) for
    Anytime-Lazy-UCB) it raises TooLargeError unless ``force``. Arms are
    numbered from ``base``."""
    base = _base(base)
    d = _native.bandit_law(
        algorithm,
        _matrix(rewards, "rewards"),
        _option(epsilon, "epsilon"),
        _params(noise_scale, bonus, epoch_lengths, tree_scale, scale_factor, delta, pull_order, rounding),
        force=bool(force),
    )
    return _bandit_law(d, base)


def bandit_sample(
    algorithm: str,
    rewards: Any,
    epsilon: Any,
    n: int,
    seed: int,
    noise_scale: Any = None,
    bonus: Any = None,
    epoch_lengths: Optional[Sequence[int]] = None,
    tree_scale: Any = None,
    scale_factor: Any = None,
    delta: Any = None,
    pull_order: Optional[str] = None,
    rounding: Optional[str] = None,
    force: bool = False,
    base: int = 1,
) -> np.ndarray:
    """``n`` reference pull sequences of ``algorithm`` on ``rewards``: an
    ``n x T`` int64 array (arms numbered from ``base``), each row drawn from the law of
    ``bandit_law`` by exact inversion. The array depends on ``seed`` only,
    not on the number of threads."""
    if int(n) < 0 or int(seed) < 0:
        raise ValueError("n and seed must be non-negative integers")
    return _base(base) + _native.bandit_sample(
        algorithm,
        _matrix(rewards, "rewards"),
        _option(epsilon, "epsilon"),
        int(n),
        int(seed),
        _params(noise_scale, bonus, epoch_lengths, tree_scale, scale_factor, delta, pull_order, rounding),
        force=bool(force),
    )


def bandit_gof(
    algorithm: str,
    rewards: Any,
    epsilon: Any,
    samples: Any,
    one_based: Optional[bool] = None,
    alpha: float = DEFAULT_ALPHA,
    tv: Optional[float] = None,
    noise_scale: Any = None,
    bonus: Any = None,
    epoch_lengths: Optional[Sequence[int]] = None,
    tree_scale: Any = None,
    scale_factor: Any = None,
    seed: Optional[int] = None,
    delta: Any = None,
    pull_order: Optional[str] = None,
    rounding: Optional[str] = None,
    force: bool = False,
    base: int = 1,
    explain: bool = False,
) -> GofResult:
    """Test ``samples`` (an ``n x T`` array of pulls numbered from ``base``,
    1 by default; ``base=0`` for numpy's ``argmax``; ``one_based`` is the
    former spelling) from any implementation of ``algorithm`` run on
    ``rewards`` against the law of ``bandit_law``. First the support: the
    first row the law gives probability 0 is ``support_violation`` and the
    samples are rejected. Then one Pearson chi-square over the pull
    sequences (``chi_square_tests[0]``, named ``"sequences"``), cells pooled in order of
    increasing expected count until each expects >= 5; rejected when its
    p-value is below ``alpha``. With ``tv``, the test also reports the sample
    size that detects a total-variation distance ``tv`` with probability 0.9.
    ``result.law`` is the BanditLaw tested against.

    ``lazy-dp-ts`` has no law: its samples are compared instead with as many
    sequences of dpdtol's own simulation of it (noise drawn in f64, seeded by
    ``seed``, default 0) by a chi-square test of homogeneity, named
    ``"two-sample (against dpdtol's simulation, approximate)"``; ``law`` is
    None. A rejection then says that the two samplers differ, not which one is
    wrong; with ``tv``, ``n_for_tv`` is the size of each sample that detects
    that distance with probability 0.9. ``seed`` applies to it only.

    DP-SE's open readings are ``delta`` (β, default 1/T), ``pull_order``
    (``"blocks"`` or ``"round-robin"``) and ``rounding`` (``"floor-plus-one"``,
    ``"ceiling"`` or ``"floor"``), as ``--delta``, ``--pull-order`` and
    ``--rounding``. ``result.departure`` says where the samples depart first
    from the law (as ``gof --json``'s ``departure``, the cell numbered from
    ``base``); with ``explain``, ``result.explain`` lists the test against
    every DP-SE reading on a small grid (``delta``, ``pull_order``,
    ``rounding``, ``p_value``, ``reject``, ``support_violation``)."""
    base = _base(base, one_based)
    d = _native.bandit_gof(
        algorithm,
        _matrix(rewards, "rewards"),
        _option(epsilon, "epsilon"),
        _actions(samples, 2, base),
        _params(noise_scale, bonus, epoch_lengths, tree_scale, scale_factor, delta, pull_order, rounding),
        alpha=float(alpha),
        tv=None if tv is None else float(tv),
        seed=None if seed is None else int(seed),
        force=bool(force),
        explain=bool(explain),
    )
    departure = d.get("departure_json")
    if departure is not None:
        departure = json.loads(departure)
        departure["cell"] = [a + base for a in departure["cell"]]
    d["departure"] = departure
    d["explain"] = None if d.get("explain_json") is None else json.loads(d["explain_json"])
    target = dict(
        algorithm=algorithm,
        epsilon=None if epsilon is None else _exact(epsilon, "epsilon"),
        **_params(noise_scale, bonus, epoch_lengths, tree_scale, scale_factor, delta, pull_order, rounding),
    )
    law = None if d["law"] is None else _bandit_law(d["law"], base)
    return _gof_result(d, law, target, base)


def bandit_privacy(
    algorithm: str,
    horizon: Any,
    alphabet: Sequence[Any],
    epsilon: Any,
    actions: int = 2,
    noise_scale: Any = None,
    epoch_lengths: Any = None,
    tree_scale: Any = None,
    scale_factor: Any = None,
    bonus: Any = None,
    method: Optional[str] = None,
    runs: Optional[int] = None,
    seed: Optional[int] = None,
    confidence: Optional[float] = None,
    force: bool = False,
    threads: Optional[int] = None,
):
    """ε-DP of a bandit algorithm with K = ``actions`` arms over every pair of
    reward tables of ``horizon`` rounds (rewards in ``alphabet``) that differ
    in one round's reward vector (``dpdtol privacy --algorithm ...``).

    ``"anytime-lazy-ucb"``, ``"dp-se"`` and ``"hybrid-ucb"`` are checked
    exhaustively with certified laws: a ``BanditPrivacyReport`` whose
    ``verdict`` is ``"private"``, ``"violated"`` or ``"undecided"``.
    ``"lazy-dp-ts"``, and ``"hybrid-ucb"`` with ``method="statistical"`` (or
    any of ``runs``, ``seed``, ``confidence``), are audited by simulation
    (``runs`` per table, default 200000, ``seed`` default 1, Clopper–Pearson
    bounds at ``confidence``, default 0.95): a ``StatisticalPrivacyReport``,
    approximate, whose ``verdict`` is ``"violated"`` or ``"undecided"``. The
    parameters are those of ``bandit_law``. ``print(report)`` gives the
    command line's text; ``report.to_dict()`` its ``--json``.

    >>> r = bandit_privacy("dp-se", 4, [0, 1], 1, epoch_lengths=[1])
    >>> r.verdict, r.kind
    ('private', 'certified')
    """
    for name, value in (("runs", runs), ("seed", seed)):
        if value is not None and (not isinstance(value, Integral) or isinstance(value, bool) or value < 0):
            raise ValueError(f"{name}: expected a non-negative integer, got {value!r}")
    if runs is not None and runs < 1:
        raise ValueError(f"runs: expected a positive integer, got {runs!r}")
    if confidence is not None and not 0 < float(confidence) < 1:
        raise ValueError(f"confidence: expected a number in (0, 1), got {confidence!r}")
    text, human, statistical = _native.bandit_privacy(
        algorithm,
        int(actions),
        _horizon(horizon),
        _vector(alphabet, "alphabet"),
        _exact(epsilon, "epsilon"),
        method=method,
        runs=None if runs is None else int(runs),
        seed=None if seed is None else int(seed),
        confidence=None if confidence is None else float(confidence),
        force=bool(force),
        threads=None if threads is None else int(threads),
        **_params(noise_scale, bonus, epoch_lengths, tree_scale, scale_factor, delta, pull_order, rounding),
    )
    report = StatisticalPrivacyReport if statistical else BanditPrivacyReport
    return report._from_json(text, rendered=human)


def bandit_simulate(
    algorithm: Any = None,
    means: Any = None,
    epsilon: Any = None,
    horizon: Optional[int] = None,
    runs: Optional[int] = None,
    seed: int = 1,
    confidence: float = 0.95,
    experiment: Optional[str] = None,
    noise_scale: Optional[float] = None,
    bonus: Optional[float] = None,
    beta: Optional[float] = None,
    force: bool = False,
    threads: Optional[int] = None,
) -> BanditReport:
    """Monte Carlo simulation (f64, approximate) of ``algorithm`` (one id or
    a list: ``"anytime-lazy-ucb"``, ``"lazy-dp-ts"``, ``"hybrid-ucb"``,
    ``"dp-se"``, ``"adap-klucb"``, ``"ucb1"``, ``"thompson"``) on Bernoulli
    arms of ``means`` for ``horizon`` rounds, ``runs`` runs each (at least 2)
    from ``seed``, at each ε of ``epsilon`` (one number or a list), or a
    preset ``experiment`` (``"hu-fig1"``, ``"hu-fig2"``, ``"hu2021"``):
    ``dpdtol bandit``. Returns its report as a ``BanditReport``: the mean
    pseudo-regret at the ``checkpoints`` with its intervals at
    ``confidence``, per algorithm and ε, in ``results``; ``print(report)``
    gives the command line's tables.

    >>> r = bandit_simulate("ucb1", [0.75, 0.5], horizon=100, runs=2)
    >>> r.kind, r.results[0]["algorithm"]
    ('approximate', 'ucb1')
    """
    def floats(x: Any, what: str) -> Optional[List[float]]:
        if x is None:
            return None
        xs = list(np.atleast_1d(np.asarray(x, dtype=object)))
        try:
            return [float(Fraction(_exact(v, what))) for v in xs]
        except (ValueError, ZeroDivisionError) as e:
            raise ValueError(f"{what}: expected numbers, got {x!r}") from e

    def one(x: Any, what: str) -> Optional[float]:
        xs = floats(x, what)
        if xs is not None and len(xs) != 1:
            raise ValueError(f"{what}: expected one number, got {x!r}")
        return None if xs is None else xs[0]

    def count(x: Any, what: str) -> Optional[int]:
        if x is not None and (not isinstance(x, Integral) or isinstance(x, bool) or x < 1):
            raise ValueError(f"{what}: expected a positive integer, got {x!r}")
        return None if x is None else int(x)

    algorithms = None if algorithm is None else [str(a) for a in np.atleast_1d(np.asarray(algorithm, dtype=object))]
    if not isinstance(seed, Integral) or isinstance(seed, bool) or seed < 0:
        raise ValueError(f"seed: expected a non-negative integer, got {seed!r}")
    if confidence is None:
        raise ValueError("confidence: expected a number in (0, 1), got None")
    text, rendered = _native.bandit_simulate(
        algorithms=algorithms,
        means=None if means is None else _vector(means, "means"),
        epsilons=floats(epsilon, "epsilon"),
        horizon=count(horizon, "horizon"),
        runs=count(runs, "runs"),
        seed=int(seed),
        confidence=one(confidence, "confidence"),
        experiment=None if experiment is None else str(experiment),
        force=bool(force),
        threads=count(threads, "threads"),
        noise_scale=one(noise_scale, "noise_scale"),
        bonus=one(bonus, "bonus"),
        beta=one(beta, "beta"),
    )
    return BanditReport._from_json(text, rendered=rendered)
