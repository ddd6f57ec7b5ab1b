"""Test the private-selection samplers of OpenDP, diffprivlib and Tumult Core
against dpdtol's exact laws.

    python python/examples/external_samplers.py [--library opendp diffprivlib tumult] [--n 100000]

Pinned versions (what this was written against and what CI installs):
opendp 0.16.0, diffprivlib 0.6.6, tmlt.core 0.20.0. diffprivlib 0.6.6 needs
numpy >= 2 and tmlt.core 0.20.0 needs numpy < 2 on Python 3.11, so Tumult runs
in its own environment (``--library tumult``).

Every library selects the index of the highest *score* (utility). dpdtol's
laws are of report-noisy-max on *losses*, ``argmax_i (-loss_i + Z_i)`` with
i.i.d. noise Z of scale β: Gumbel noise is the exponential mechanism
(P(i) ∝ e^{score_i/β}), exponential noise is permute-and-flip. So
``loss = -score`` and β is worked out below from each library's source,
quoted. Each case states what its sampler is expected to do; the script
prints one line per case (n samples, the chi-square p-values of
``dpdtol.mechanism_gof``) and exits with status 1 when a case's outcome is
not the documented one (a library changed, or dpdtol did).

None of the three samplers can be seeded (OpenDP and Tumult draw from the
operating system / RDRAND; diffprivlib can, and is, with random_state), so
p-values vary between runs; the verdicts are at level alpha = 1e-6 per case,
where a correct sampler is rejected with probability below 1e-6.
"""

import argparse
import sys
import time
import warnings
from fractions import Fraction

import numpy as np

import dpdtol

ALPHA = Fraction(1, 10**6)
# One score vector for every library: integer utilities, sensitivity 1.
SCORES = [0, 1, 2, 4]
EPSILON = 1.0


def losses_of(scores):
    return [-Fraction(s) for s in scores]


class Case:
    def __init__(self, library, name, draw, noise, losses, beta, expect, why):
        self.library, self.name, self.draw = library, name, draw
        self.noise, self.losses, self.beta = noise, losses, beta
        self.expect, self.why = expect, why  # expect: "agrees" | "rejected"


def opendp_cases():
    import opendp.prelude as dp

    dp.enable_features("contrib")
    space = dp.vector_domain(dp.atom_domain(T=int)), dp.linf_distance(T=int)
    # rust/src/measurements/noisy_top_k/mod.rs (make_noisy_top_k, which
    # make_noisy_max calls with k = 1):
    #   "let d_in = if input_metric.monotonic { d_in } else { d_in.inf_add(d_in)? };"
    #   impl TopKMeasure for MaxDivergence { const REPLACEMENT: bool = false;
    #       fn privacy_map(d_in, scale) { d_in / scale } }
    #   impl TopKMeasure for ZeroConcentratedDivergence { const REPLACEMENT: bool = true;
    #       fn privacy_map(d_in, scale) { (d_in / scale)^2 / 8 } }
    # so ε-DP for L∞-sensitivity Δ (not monotonic) needs scale = 2Δ/ε.
    scale = 2.0 * 1 / EPSILON
    # fn permute_and_flip(x, scale, replacement):
    #   "let sequence = match replacement { false => Sequence::Range(0..x.len()),
    #                                       true => Sequence::Zero };
    #    for left in sequence { let right = left + sample_uniform_uint_below(x.len() - left)?;
    #        candidates.swap(left, right); // if w/o replacement, fisher-yates shuffle up to left
    #        let candidate = candidates[left];
    #        if sample_bernoulli_exp((x_max - &x[candidate]) / scale)? { return Ok(candidate); } }"
    # MaxDivergence (replacement = false): a random permutation, each candidate
    # accepted with probability e^{-(x_max - x_i)/scale}: permute-and-flip,
    # = report-noisy-max with exponential noise of scale β = scale.
    # ZeroConcentratedDivergence (replacement = true): candidates drawn
    # uniformly with replacement until one is accepted: P(i) ∝
    # e^{-(x_max - x_i)/scale}, the exponential mechanism = Gumbel noise, β = scale.
    # noisy_top_k: "let y = x.map(|x_i| x_i * sign)" with sign = -1 when negate:
    # negate = True selects the minimum.
    pure = space >> dp.m.then_noisy_max(dp.max_divergence(), scale=scale)
    zcdp = space >> dp.m.then_noisy_max(dp.zero_concentrated_divergence(), scale=scale)
    neg = space >> dp.m.then_noisy_max(dp.max_divergence(), scale=scale, negate=True)
    assert pure.map(1) == EPSILON, pure.map(1)  # the ε the library itself certifies
    # make_report_noisy_max_gumbel (deprecated since 0.14.0), in
    # rust/src/measurements/noisy_max/mod.rs:
    #   "make_noisy_max(input_domain, input_metric, MaxDivergence, scale,
    #                   matches!(optimize, Optimize::Max))"
    # is make_noisy_max with MaxDivergence: permute-and-flip (exponential
    # noise), whatever its name says. (Read with noisy_top_k's "x_i * sign",
    # sign = Sign::from(negate), the line negates for "max": in 0.14.0 to 0.15.1
    # optimize="max" reports the noisy minimum, a bug that
    # docs/public-implementations.md drives in 0.15.1; the 0.16.0 wheel returns
    # the noisy max, as tested below.)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        old = dp.m.make_report_noisy_max_gumbel(*space, scale=scale, optimize="max")
    scores = SCORES
    L = losses_of(scores)
    minus_L = [Fraction(s) for s in scores]
    return [
        Case("opendp", "make_noisy_max(max_divergence)", lambda n: [pure(scores) for _ in range(n)],
             "exponential", L, scale, "agrees", "permute-and-flip, β = scale"),
        Case("opendp", "make_noisy_max(max_divergence) vs Gumbel", lambda n: [pure(scores) for _ in range(n)],
             "gumbel", L, scale, "rejected", "control: it is not the exponential mechanism"),
        Case("opendp", "make_noisy_max(zero_concentrated_divergence)", lambda n: [zcdp(scores) for _ in range(n)],
             "gumbel", L, scale, "agrees", "exponential mechanism, β = scale"),
        Case("opendp", "make_noisy_max(max_divergence, negate=True)", lambda n: [neg(scores) for _ in range(n)],
             "exponential", minus_L, scale, "agrees", "noisy min: loss = +score"),
        Case("opendp", "make_report_noisy_max_gumbel(optimize='max') vs Gumbel",
             lambda n: [old(scores) for _ in range(n)],
             "gumbel", L, scale, "rejected", "deprecated, named Gumbel: it is permute-and-flip"),
        Case("opendp", "make_report_noisy_max_gumbel(optimize='max') vs exponential",
             lambda n: [old(scores) for _ in range(n)],
             "exponential", L, scale, "agrees", "permute-and-flip, β = scale"),
    ]


def diffprivlib_cases():
    from diffprivlib.mechanisms import Exponential, PermuteAndFlip

    # diffprivlib/mechanisms/exponential.py, Exponential._find_probabilities:
    #   "scale = epsilon / sensitivity / (2 - monotonic) ...
    #    utility = np.array(utility) - max(utility)
    #    probabilities = np.exp(scale * utility)"
    # so P(i) ∝ e^{u_i ε / ((2 - monotonic) Δ)}: the exponential mechanism
    # (Gumbel noise) with β = (2 - monotonic)·Δ/ε; randomise() inverts the
    # cumulative sum with one uniform.
    # PermuteAndFlip._find_probabilities: "log_probabilities = scale * utility"
    # (same scale), randomise(): "idx = candidate_ids[int(self._rng.random() *
    # len(candidate_ids))]; candidate_ids.remove(idx); if bernoulli_neg_exp(
    # -self._probabilities[idx], self._rng): return idx": permute-and-flip,
    # exponential noise, the same β.
    delta = 1
    cases = []
    for monotonic in (False, True):
        beta = (2 - int(monotonic)) * delta / EPSILON
        em = Exponential(epsilon=EPSILON, sensitivity=delta, utility=list(SCORES), monotonic=monotonic,
                         random_state=2026 + int(monotonic))
        pf = PermuteAndFlip(epsilon=EPSILON, sensitivity=delta, utility=list(SCORES), monotonic=monotonic,
                            random_state=7 + int(monotonic))
        flag = f"monotonic={monotonic}"
        cases += [
            Case("diffprivlib", f"Exponential({flag})", lambda n, m=em: [m.randomise() for _ in range(n)],
                 "gumbel", losses_of(SCORES), beta, "agrees", f"β = {beta:g}Δ/ε"),
            Case("diffprivlib", f"PermuteAndFlip({flag})", lambda n, m=pf: [m.randomise() for _ in range(n)],
                 "exponential", losses_of(SCORES), beta, "agrees", f"β = {beta:g}Δ/ε"),
        ]
    return cases


def tumult_cases():
    import pandas as pd
    from tmlt.core.domains.numpy_domains import NumpyFloatDomain
    from tmlt.core.domains.pandas_domains import PandasSeriesDomain
    from tmlt.core.measurements.pandas_measurements.series import NoisyQuantile
    from tmlt.core.measures import PureDP

    # Tumult Core's one private selection: NoisyQuantile, which calls
    # _select_quantile_interval (tmlt/core/measurements/pandas_measurements/series.py):
    #   "Assigns each interval (rank, x_i, x_j) a noisy score computed as:
    #    log(x_j - x_i) - |rank - target| * epsilon / (2 * ΔU) + G
    #    where G is a sampled from the standard Gumbel distribution.
    #    Returns the interval with the highest noisy score."
    # with "target_rank = arb_q * len(values)" and "delta_u = arb_q.max(1 - arb_q)",
    # then "return uniform(lower=l, upper=u)". On the values 1..m with lower = 0,
    # upper = m + 1 every interval (i, i+1) has width 1 and rank i, so
    # P(interval i) ∝ e^{-|i - q m| ε / (2 ΔU)}: report-noisy-max with Gumbel
    # noise, loss_i = |i - q m|, β = 2ΔU/ε.
    q, m = 0.5, 4
    values = pd.Series([float(v) for v in range(1, m + 1)])
    meas = NoisyQuantile(PandasSeriesDomain(NumpyFloatDomain()), PureDP(), quantile=q, lower=0.0,
                         upper=float(m + 1), epsilon=int(EPSILON))  # ExactNumber: no floats
    target = Fraction(q) * m
    losses = [abs(i - target) for i in range(m + 1)]
    beta = 2 * max(Fraction(q), 1 - Fraction(q)) / Fraction(EPSILON)
    draw = lambda n: [int(np.floor(meas(values))) for _ in range(n)]  # noqa: E731
    return [Case("tumult", "NoisyQuantile(q=1/2) interval", draw, "gumbel", losses, beta, "agrees",
                 "exponential mechanism on |rank - qm|, β = 2ΔU/ε")]


LIBRARIES = {"opendp": opendp_cases, "diffprivlib": diffprivlib_cases, "tumult": tumult_cases}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--library", nargs="+", choices=sorted(LIBRARIES), default=sorted(LIBRARIES))
    parser.add_argument("--n", type=int, default=100_000)
    args = parser.parse_args()
    unexpected = 0
    for library in args.library:
        for case in LIBRARIES[library]():
            start = time.time()
            samples = np.array(case.draw(args.n), dtype=np.int64)
            result = dpdtol.mechanism_gof(case.losses, samples, noise=case.noise, scale=case.beta, alpha=ALPHA, base=0)
            outcome = "rejected" if result.rejected else "agrees"
            ok = outcome == case.expect
            unexpected += not ok
            freq = np.bincount(samples, minlength=len(case.losses)) / args.n
            print(
                f"{case.library:12} {case.name:62} law={case.noise:11} β={float(case.beta):g} "
                f"p={result.p_min:.3g} {outcome:8} {'as documented' if ok else 'UNEXPECTED'} "
                f"({case.why}; {time.time() - start:.1f} s)"
            )
            print(f"{'':12} observed {np.round(freq, 4).tolist()} law {np.round(result.law.approx, 4).tolist()}")
    sys.exit(1 if unexpected else 0)


if __name__ == "__main__":
    main()
