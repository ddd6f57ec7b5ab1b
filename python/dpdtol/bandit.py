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

Algorithms with a law (ids as on the command line): {law}; with their
parameters:

- ``"anytime-lazy-ucb"`` (Hu, Huang, Mehta & Hegde, Algorithm 1), any
  2 <= K <= T: ``noise_scale`` (default 1/epsilon, the Laplace scale on each
  epoch's reward sum), ``bonus`` (default 3, the constant of
  sqrt(3 ln t/O) + 3 ln t/(epsilon O));
- ``"dp-se"`` (Sajed & Sheffet 2019), K = 2, beta = 1/T: ``noise_scale``
  (default 1/epsilon, on each block's reward sum), ``epoch_length``
  (R_1, R_2, ..; the last repeats; default the printed ones, in the hundreds,
  so that no epoch ends on a short table);
- ``"hybrid-ucb"`` (as inferred from Hu, Huang & Mehta, Appendix E), K = 2:
  ``noise_scale`` (the array blocks', default 2/epsilon), ``tree_scale``
  (default 2/epsilon), ``scale_factor`` (on both; excludes ``tree_scale``),
  ``bonus`` (default 3);
- ``"dp-ucb"`` (Mishra & Thakurta 2015, Algorithm 1), K = 2: ``noise_scale``
  (each binary-mechanism node's, default L/epsilon), ``tree_depth`` (the
  binary mechanism's depth L, default ceil(log2 T));
- ``"dp-ucb-bound"`` (Tossou & Dimitrakakis 2016, Algorithm 1), K = 2:
  ``noise_scale`` (the array blocks'), ``tree_scale``, ``scale_factor``,
  ``bonus`` (default 2);
- ``"dp-ucb-int"`` (Tossou & Dimitrakakis 2016, Algorithm 3, as read from a
  public implementation), the interval f = ceil(1/epsilon), any
  2 <= K <= T at any epsilon:
  ``noise_scale`` (the factor b of the Laplace scale b n^(v/2 - 1) on an
  arm's mean, default 1, v = 1.1), ``bonus`` (default 2, of
  sqrt(2 ln t/n));
- ``"ucb1"`` (Auer, Cesa-Bianchi & Fischer 2002), non-private, any K:
  ``epsilon`` must be None; ``bonus`` (default 2, of the index
  mean_j + sqrt(2 ln n/n_j), n the pulls so far), ``ties`` (``"lowest"``,
  the default: each arm once in order, then ties to the lowest arm, so the
  law is one sequence of probability exactly 1; ``"uniform"``: an unplayed
  arm's index is +inf and the arm is drawn uniformly among those of maximal
  index, an exact law over a tree of sequences; ``"highest"``: each arm once
  in order, then ties to the highest arm, one sequence again;
  ``"ordered-uniform"``: each arm once in order, then ties drawn uniformly
  among the arms of maximal index, a tree again),
  ``bonus_round`` (``"plays"``, the default: n = t - 1 in round t, the
  pulls so far, as Auer et al. print it; ``"current"``: n = t, ln of the
  current round, as in Bubeck & Cesa-Bianchi's alpha-UCB and in code whose
  clock starts at 1);
- ``"thompson"`` (Thompson sampling with Beta(1, 1) priors for Bernoulli
  bandits, Agrawal & Goyal 2012, as Hu et al.'s Algorithm 2 restates it),
  non-private, any K: ``epsilon`` must be None; the rewards must be 0 or 1
  (the Beta parameters are then integers and every pull probability is
  rational: an exact law over all K^T sequences); no parameters.

``epsilon`` is required by the private algorithms. ``"lazy-dp-ts"`` (Hu et
al., Algorithm 3) and ``"dp-ts"`` (Hu & Hegde, UAI 2022, as inferred) have
no exact or certified law (their pulls are argmaxes of Beta draws whose
parameters move continuously with the noise): ``bandit_law`` and
``bandit_sample`` raise ValueError for them, and ``bandit_gof`` runs a
weaker, labelled two-sample test against dpdtol's own (f64, approximate)
simulation.

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
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from . import (
    DEFAULT_ALPHA,
    GofResult,
    Samples,
    Value,
    _actions,
    _base,
    _exact,
    _flag,
    _integer,
    _level,
    _optional_integer,
    _optional_text,
    _renamed,
    _text,
    _gof_result,
    _matrix,
    _native,
    _option,
    _Provenance,
    _provenance,
    _horizon,
    _vector,
)
from .reports import BanditBoundsReport, BanditPrivacyReport, BanditReport, BoundsPrivacyReport, StatisticalPrivacyReport

__all__ = ["BanditLaw", "bandit_law", "bandit_law_bounds", "bandit_sample", "bandit_gof", "bandit_privacy", "bandit_simulate"]


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

    def probability(self, pulls: Sequence[int], base: Optional[int] = None) -> Value:
        """P(a_1..a_T = pulls | rewards), arms numbered from ``base`` (the
        law's ``base`` by default), as a Value (exactly 0 for a sequence the
        law does not list); the same type as ``SequenceLaw.probability``."""
        base = self.base if base is None else _base(base)
        a = _actions([pulls], 2, base)[0]
        if len(a) != self.horizon:
            raise ValueError(f"pulls: expected {self.horizon} pulls (one a round), got {len(a)}")
        if a.max(initial=0) >= self.arms:
            raise ValueError(f"pulls: arm {a.max() + base} is not one of the {self.arms} arms")
        rows = np.flatnonzero((self.sequences - self.base == a).all(axis=1))
        if rows.size == 0:
            return Value._zero()
        return self.probabilities[rows[0]]


def _params(
    noise_scale: Any,
    bonus: Any,
    epoch_length: Any,
    tree_scale: Any,
    scale_factor: Any,
    beta: Any = None,
    pull_order: Optional[str] = None,
    rounding: Optional[str] = None,
    reward_index: Optional[str] = None,
    radius: Optional[str] = None,
    tree_depth: Any = None,
    ties: Optional[str] = None,
    bonus_round: Optional[str] = None,
) -> Dict[str, Any]:
    """The algorithm's parameters as ``_native`` reads them."""
    lengths = None
    if epoch_length is not None:
        lengths = list(np.atleast_1d(np.asarray(epoch_length, dtype=object)))
        if not lengths:
            raise ValueError(f"epoch_length: expected positive integers R_1, R_2, .., got {epoch_length!r}")
        lengths = [_integer(r, "epoch_length", 1) for r in lengths]
    return dict(
        noise_scale=_option(noise_scale, "noise_scale"),
        bonus=_option(bonus, "bonus"),
        epoch_lengths=lengths,
        tree_scale=_option(tree_scale, "tree_scale"),
        scale_factor=_option(scale_factor, "scale_factor"),
        beta=_option(beta, "beta"),
        pull_order=_optional_text(pull_order, "pull_order"),
        reward_index=_optional_text(reward_index, "reward_index"),
        radius=_optional_text(radius, "radius"),
        rounding=_optional_text(rounding, "rounding"),
        tree_depth=_tree_depth(tree_depth),
        ties=_optional_text(ties, "ties"),
        bonus_round=_optional_text(bonus_round, "bonus_round"),
    )


def _tree_depth(depth: Any) -> Optional[str]:
    """DP-UCB's tree depth as the command line's text (its parser checks
    it: an integer in 1..=63)."""
    return None if depth is None else str(_integer(depth, "tree_depth"))


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
    epoch_length: Optional[Sequence[int]] = None,
    tree_scale: Any = None,
    scale_factor: Any = None,
    beta: Any = None,
    pull_order: Optional[str] = None,
    rounding: Optional[str] = None,
    reward_index: Optional[str] = None,
    radius: Optional[str] = None,
    tree_depth: Any = None,
    ties: Optional[str] = None,
    force: bool = False,
    base: int = 1,
    epoch_lengths: Any = None,
    bonus_round: Optional[str] = None,
) -> BanditLaw:
    """The law of ``algorithm``'s pull sequence on ``rewards`` (T x K, the
    contract of this module), exact when every probability it needs is
    rational, else certified; ``algorithm`` is one of {law}. Each listed sequence costs one closed-form
    integration: over 2^16 candidate sequences (K^(T-K) for
    Anytime-Lazy-UCB) it raises TooLargeError unless ``force``. Arms are
    numbered from ``base``. UCB1's ``ties`` and ``bonus_round`` are those of
    ``bandit_gof``."""
    base = _base(base)
    d = _native.bandit_law(
        _text(algorithm, "algorithm"),
        _matrix(rewards, "rewards"),
        _option(epsilon, "epsilon"),
        _params(noise_scale, bonus, _renamed(epoch_length, "epoch_length", epoch_lengths, "epoch_lengths"), tree_scale, scale_factor, beta, pull_order, rounding, reward_index, radius, tree_depth, ties, bonus_round),
        force=_flag(force, "force"),
    )
    return _bandit_law(d, base)


def bandit_law_bounds(
    algorithm: str,
    rewards: Any,
    epsilon: Any,
    noise_scale: Any = None,
    bonus: Any = None,
    tree_scale: Any = None,
    scale_factor: Any = None,
    bonus_round: Optional[str] = None,
    force: bool = False,
    base: int = 1,
    sequence: Optional[Sequence[int]] = None,
) -> BanditBoundsReport:
    """Certified bounds on the law of ``"dp-ts"``'s or ``"lazy-dp-ts"``'s
    pull sequence on ``rewards`` (``dpdtol law --algorithm dp-ts``): their
    Beta draws have real parameters, so no law is computed, but every
    sequence's probability lies in its ``probability_interval``, which does
    not narrow with precision (``report.width`` is the widest). Over 16 pull
    sequences it raises TooLargeError unless ``force``. ``sequence`` (arms
    from ``base``) adds that sequence's bounds as ``report.probability``.
    ``report.to_dict()`` is the command line's ``--json``; ``print(report)``
    its text.

    >>> r = bandit_law_bounds("dp-ts", [[1, 0]] * 4, 1)
    >>> [e["pulls"] for e in r.law][0], r.law[0]["probability_interval"][0][:6]
    ([1, 2, 1, 1], '0.3000')
    """
    base = _base(base)
    params = _params(noise_scale, bonus, None, tree_scale, scale_factor, None, None, None, None, None, None, None, bonus_round)
    text, human = _native.bandit_law_bounds(
        _text(algorithm, "algorithm"),
        _matrix(rewards, "rewards"),
        _option(epsilon, "epsilon"),
        params,
        force=_flag(force, "force"),
        base=base,
        sequence=None if sequence is None else [_integer(a, "sequence") for a in sequence],
    )
    return BanditBoundsReport._from_json(text, rendered=human)


def bandit_sample(
    algorithm: str,
    rewards: Any,
    epsilon: Any,
    n: int,
    seed: int,
    noise_scale: Any = None,
    bonus: Any = None,
    epoch_length: Optional[Sequence[int]] = None,
    tree_scale: Any = None,
    scale_factor: Any = None,
    beta: Any = None,
    pull_order: Optional[str] = None,
    rounding: Optional[str] = None,
    reward_index: Optional[str] = None,
    radius: Optional[str] = None,
    tree_depth: Any = None,
    ties: Optional[str] = None,
    force: bool = False,
    base: int = 1,
    epoch_lengths: Any = None,
    bonus_round: Optional[str] = None,
) -> Samples:
    """``n`` reference pull sequences of ``algorithm`` on ``rewards``, each
    drawn from the law of ``bandit_law`` (``algorithm`` one of {law}) by exact inversion, as ``Samples``
    (the type ``sample`` returns): the ``n x T`` int64 array (arms numbered
    from ``base``) with the report of ``dpdtol sample --rewards-file ...
    --json``. The array depends on ``seed`` only, not on the number of
    threads. UCB1's ``ties`` and ``bonus_round`` are those of
    ``bandit_gof``."""
    base = _base(base)
    array, text = _native.bandit_sample(
        _text(algorithm, "algorithm"),
        _matrix(rewards, "rewards"),
        _option(epsilon, "epsilon"),
        _integer(n, "n"),
        _integer(seed, "seed"),
        _params(noise_scale, bonus, _renamed(epoch_length, "epoch_length", epoch_lengths, "epoch_lengths"), tree_scale, scale_factor, beta, pull_order, rounding, reward_index, radius, tree_depth, ties, bonus_round),
        force=_flag(force, "force"),
        base=base,
    )
    return Samples(**{**json.loads(text), "out": None, "format": None}, array=base + array)


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
    epoch_length: Optional[Sequence[int]] = None,
    tree_scale: Any = None,
    scale_factor: Any = None,
    seed: Optional[int] = None,
    beta: Any = None,
    pull_order: Optional[str] = None,
    rounding: Optional[str] = None,
    reward_index: Optional[str] = None,
    radius: Optional[str] = None,
    tree_depth: Any = None,
    ties: Optional[str] = None,
    force: bool = False,
    base: int = 1,
    explain: bool = False,
    epoch_lengths: Any = None,
    bonus_round: Optional[str] = None,
) -> GofResult:
    """Test ``samples`` (an ``n x T`` array of pulls numbered from ``base``,
    1 by default; ``base=0`` for numpy's ``argmax``; ``one_based`` is the
    former spelling) from any implementation of ``algorithm`` run on
    ``rewards`` against the law of ``bandit_law``. First the support: the
    first row the law gives probability 0 is ``support_violation`` and the
    samples are rejected. Then one Pearson chi-square over the pull
    sequences (``chi_square_tests[0]``, named ``"sequences"``), cells pooled in order of
    increasing expected count until each expects >= 5, and with three
    sequences or more the exact test of those of expected count below 5
    (its ``rare_cells``); rejected when a p-value is below ``alpha`` over
    the number of tests (``tests``, 1 or 2). With ``tv``, the test also reports the sample
    size that detects a total-variation distance ``tv`` with probability 0.9.
    ``result.law`` is the BanditLaw tested against; ``algorithm`` is one of
    {law}.

    {two_sample} have no law: their samples are compared instead with as many
    sequences of dpdtol's own simulation of it (noise drawn in f64, seeded by
    ``seed``, default 0) by a chi-square test of homogeneity, named
    ``"two-sample (against dpdtol's simulation, approximate)"``; ``law`` is
    None. A rejection then says that the two samplers differ, not which one is
    wrong; with ``tv``, ``n_for_tv`` is the size of each sample that detects
    that distance with probability 0.9. ``seed`` applies to it only.

    DP-SE's open readings are ``beta`` (its β, the δ of Sajed & Sheffet's confidence, default 1/T), ``pull_order``
    (``"blocks"``, ``"round-robin"`` or ``"any"``: the per-epoch pull counts
    only, with ``reward_index="pull"``), ``rounding`` (``"floor-plus-one"``,
    ``"ceiling"``, ``"floor"`` or ``"ceiling-plus-one"``) and ``radius`` (``"integer"`` or
    ``"real"``: the R_e its elimination radius reads), as ``--beta``,
    ``--pull-order``, ``--rounding`` and ``--radius``; ``reward_index``
    (``"round"`` or ``"pull"``: arm a's n-th pull receives ``rewards[n - 1, a]``)
    says how the samples' code read the table. UCB1's open readings are
    ``ties`` (``--ties``): ``"lowest"`` (each arm once in order, then ties
    to the lowest arm, one pull sequence), ``"uniform"`` (an unplayed
    arm's index is +inf and the arm is drawn uniformly among those of
    maximal index, the first K rounds included: an exact law over the
    sequences, 1/|argmax| at each tie), ``"highest"`` (each arm once in
    order, then ties to the highest arm) or ``"ordered-uniform"`` (each arm
    once in order, then ties drawn uniformly among the arms of maximal
    index), and ``bonus_round``
    (``--bonus-round``): ``"plays"`` (ln n with n = t - 1 in round t, the
    pulls so far, as Auer et al. print it) or ``"current"`` (ln t of the
    current round, Bubeck & Cesa-Bianchi's alpha-UCB; code whose clock
    starts at 1 before the first pull). ``result.departure`` says where the samples depart first
    from the law (as ``gof --json``'s ``departure``, the cell numbered from
    ``base``); with ``explain``, ``result.explain`` lists the test against
    every reading of the algorithm's open choices on a small grid (DP-SE's,
    UCB1's three ``ties`` each with both ``bonus_round``, DP-UCB's ``tree_depth`` from 1 to ceil(log2 T) + 2),
    each with its ``readings`` (``{"bonus-round": "current", "ties": "uniform"}``; DP-SE's also as
    ``beta``, ``pull_order``, ``rounding``, ``radius``), ``p_value``,
    ``reject`` and ``support_violation``; ``result.explain_refused`` the
    readings whose law is over the work limit. ``explain`` does not apply to
    {two_sample} (a two-sample test, no law to try readings of).

    DP-TS's open reading is ``bonus_round`` (``--bonus-round``) too: the
    round whose ln t its optimistic bonus reads, ``"current"`` (default: the
    round of the draw) or ``"last-update"`` (the round of the arm's last
    observation: the bonus and the Beta parameters frozen until its next
    one)."""
    base = _base(base, one_based)
    params = _params(noise_scale, bonus, _renamed(epoch_length, "epoch_length", epoch_lengths, "epoch_lengths"), tree_scale, scale_factor, beta, pull_order, rounding, reward_index, radius, tree_depth, ties, bonus_round)
    d = _native.bandit_gof(
        _text(algorithm, "algorithm"),
        _matrix(rewards, "rewards"),
        _option(epsilon, "epsilon"),
        _actions(samples, 2, base),
        params,
        alpha=_level(alpha, "alpha"),
        tv=None if tv is None else _level(tv, "tv", high_open=False),
        seed=_optional_integer(seed, "seed"),
        force=_flag(force, "force"),
        base=base,
        explain=_flag(explain, "explain"),
    )
    target = dict(
        algorithm=algorithm,
        epsilon=None if epsilon is None else _exact(epsilon, "epsilon"),
        **params,
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
    epoch_length: Any = None,
    tree_scale: Any = None,
    scale_factor: Any = None,
    bonus: Any = None,
    method: Optional[str] = None,
    runs: Optional[int] = None,
    seed: Optional[int] = None,
    confidence: Optional[float] = None,
    force: bool = False,
    threads: Optional[int] = None,
    delta: Any = None,
    epoch_lengths: Any = None,
    beta: Any = None,
    pull_order: Optional[str] = None,
    rounding: Optional[str] = None,
    radius: Optional[str] = None,
    reward_index: Optional[str] = None,
    tree_depth: Any = None,
    bonus_round: Optional[str] = None,
):
    """ε-DP of a bandit algorithm with K = ``actions`` arms over every pair of
    reward tables of ``horizon`` rounds (rewards in ``alphabet``) that differ
    in one round's reward vector (``dpdtol privacy --algorithm ...``).

    {privacy_exact} are checked
    exhaustively with certified laws: a ``BanditPrivacyReport`` whose
    ``verdict`` is ``"private"``, ``"violated"`` or ``"undecided"``.
    {privacy_statistical} (``"hybrid-ucb"`` with ``method="statistical"``, or
    any of ``runs``, ``seed``, ``confidence``) are audited by simulation
    (``runs`` per table, default 200000, ``seed`` default 1, Clopper–Pearson
    bounds at ``confidence``, default 0.95): a ``StatisticalPrivacyReport``,
    approximate, whose ``verdict`` is ``"violated"`` or ``"undecided"``.
    ``"lazy-dp-ts"`` and ``"dp-ts"`` with ``method="bounds"`` are checked
    from certified bounds on every law (``--method bounds``): a
    ``BoundsPrivacyReport`` whose ``verdict`` is ``"private"``,
    ``"violated"`` or ``"undecided"`` (bounds too wide to tell), with bounds
    on the largest ratio and on δ(ε) (``delta_interval``). The
    parameters are those of ``bandit_law``. ``print(report)`` gives the
    command line's text; ``report.to_dict()`` its ``--json``. ``delta=D``
    (exact checks) also decides (ε, D)-DP from the whole laws
    (``report.delta``, as ``--delta``). DP-SE's readings ``beta``,
    ``pull_order``, ``rounding``, ``radius`` and ``reward_index`` are those of
    ``bandit_gof`` (``--beta``, ``--pull-order``, ``--rounding``,
    ``--radius``, ``--reward-index``; the reward index does not change the
    verdict: one table entry changed is one reward seen changed either
    way), DP-UCB's ``tree_depth`` that of ``bandit_law``
    (``--tree-depth``), DP-TS's ``bonus_round`` that of ``bandit_gof``
    (``--bonus-round``); the report names the reading checked.

    >>> r = bandit_privacy("dp-se", 4, [0, 1], 1, epoch_length=[1])
    >>> r.verdict, r.kind
    ('private', 'certified')
    """
    params = _params(noise_scale, bonus, _renamed(epoch_length, "epoch_length", epoch_lengths, "epoch_lengths"), tree_scale, scale_factor, beta, pull_order, rounding, reward_index, radius, tree_depth, None, bonus_round)
    # UCB1's reading of ties: privacy checks no ucb1 (it is not private).
    del params["ties"]
    text, human, kind = _native.bandit_privacy(
        _text(algorithm, "algorithm"),
        _integer(actions, "actions"),
        _horizon(horizon),
        _vector(alphabet, "alphabet"),
        _exact(epsilon, "epsilon"),
        method=_optional_text(method, "method"),
        runs=_optional_integer(runs, "runs", 1),
        seed=_optional_integer(seed, "seed"),
        confidence=None if confidence is None else _level(confidence, "confidence"),
        force=_flag(force, "force"),
        threads=_optional_integer(threads, "threads", 1),
        delta=None if delta is None else _exact(delta, "delta"),
        **params,
    )
    report = {"exact": BanditPrivacyReport, "statistical": StatisticalPrivacyReport, "bounds": BoundsPrivacyReport}[kind]
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
    pull_order: Optional[str] = None,
    rounding: Optional[str] = None,
    radius: Optional[str] = None,
    tree_depth: Any = None,
    ties: Optional[str] = None,
    bonus_round: Optional[str] = None,
) -> BanditReport:
    """Monte Carlo simulation (f64, approximate) of ``algorithm`` (one id or
    a list of {simulate}) on Bernoulli
    arms of ``means`` for ``horizon`` rounds, ``runs`` runs each (at least 2)
    from ``seed``, at each ε of ``epsilon`` (one number or a list), or a
    preset ``experiment`` (``"hu-fig1"``, ``"hu-fig2"``, ``"hu2021"``):
    ``dpdtol bandit``. Returns its report as a ``BanditReport``: the mean
    pseudo-regret at the ``checkpoints`` with its intervals at
    ``confidence``, per algorithm and ε, in ``results``; ``print(report)``
    gives the command line's tables. ``beta`` is DP-SE's β (default 1/T)
    and DP-UCB's γ; DP-SE's ``pull_order``, ``rounding`` and ``radius`` are
    those of ``bandit_gof`` (``--pull-order``, ``--rounding``, ``--radius``),
    DP-UCB's ``tree_depth`` that of ``bandit_law`` (``--tree-depth``), UCB1's
    ``ties`` and ``bonus_round`` and DP-TS's ``bonus_round`` those of
    ``bandit_gof`` (``--ties``, ``--bonus-round``; each algorithm simulated
    reads ``bonus_round`` when it is one of its names); each result names
    the readings it ran.

    >>> r = bandit_simulate("ucb1", [0.75, 0.5], horizon=100, runs=2)
    >>> r.kind, r.results[0]["algorithm"]
    ('approximate', 'ucb1')
    """
    def numbers(x: Any, what: str) -> Optional[str]:
        """Numbers as the command line's text, comma-separated (read by its parser)."""
        if x is None:
            return None
        xs = list(np.atleast_1d(np.asarray(x, dtype=object)))
        if not xs:
            raise ValueError(f"{what}: expected one number or more, got {x!r}")
        return ",".join(_exact(v, what) for v in xs)

    def one(x: Any, what: str) -> Optional[str]:
        # A list is refused by the command line's parser ("takes one number").
        return numbers(x, what)

    def count(x: Any, what: str) -> Optional[int]:
        return _optional_integer(x, what, 1)

    algorithms = None if algorithm is None else [_text(a, "algorithm") for a in np.atleast_1d(np.asarray(algorithm, dtype=object))]
    seed = _integer(seed, "seed")
    if confidence is None:
        raise ValueError("confidence: expected a number in (0, 1), got None")
    text, rendered = _native.bandit_simulate(
        algorithms=algorithms,
        means=None if means is None else _vector(means, "means"),
        epsilons=numbers(epsilon, "epsilon"),
        horizon=count(horizon, "horizon"),
        runs=count(runs, "runs"),
        seed=int(seed),
        confidence=one(confidence, "confidence"),
        experiment=_optional_text(experiment, "experiment"),
        force=_flag(force, "force"),
        threads=count(threads, "threads"),
        noise_scale=one(noise_scale, "noise_scale"),
        bonus=one(bonus, "bonus"),
        beta=one(beta, "beta"),
        pull_order=_optional_text(pull_order, "pull_order"),
        rounding=_optional_text(rounding, "rounding"),
        radius=_optional_text(radius, "radius"),
        tree_depth=_tree_depth(tree_depth),
        ties=_optional_text(ties, "ties"),
        bonus_round=_optional_text(bonus_round, "bonus_round"),
    )
    return BanditReport._from_json(text, rendered=rendered)


def _name_algorithms() -> None:
    """Write into this module's docstrings (``{law}``, ``{privacy_exact}``,
    ..) the algorithms each function accepts, from the native table of the
    predicates the command line decides with."""
    lists = _native.bandit_algorithms()

    def named(doc: Optional[str]) -> Optional[str]:
        if doc is None:  # python -OO
            return None
        for key, names in lists.items():
            doc = doc.replace("{" + key + "}", ", ".join(f'``"{n}"``' for n in names))
        return doc

    for f in (bandit_law, bandit_law_bounds, bandit_sample, bandit_gof, bandit_privacy, bandit_simulate):
        f.__doc__ = named(f.__doc__)
    globals()["__doc__"] = named(__doc__)


_name_algorithms()
