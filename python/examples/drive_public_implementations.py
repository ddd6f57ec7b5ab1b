"""Drive public implementations of algorithms dpdtol knows, unchanged,
through ``dpdtol.drive`` and test them against the exact laws.

    python python/examples/drive_public_implementations.py SRC [--n 20000]

SRC holds the checkouts, named ``owner+name`` (``SRC/keirp+private-bandits``,
...), at the commits below (``git archive <commit> | tar -x -C SRC/owner+name``).
The script runs in a temporary folder (DP_BAI's DPSE writes a log file a
run). Each case imports the code as
its repository has it and adds only what calls it: its protocol (the driver's
adapters), its constructor's parameters, and for best-arm identification a
loop that pulls its guess to the horizon. No line of the code is changed,
and none of it is copied here. The script prints one line per case (verdict,
p, where a rejected bandit first departs from the law) and exits with
status 1 when a verdict differs from the one recorded in EXPECTED (the
table of docs/guide-test-your-implementation.md, with the cause of each
rejection), so that a change in a repository or in dpdtol shows.
"""

import argparse
import builtins
import importlib.util
import os
import sys
import tempfile
import types

import numpy as np

from dpdtol import bandit_gof, mechanism_gof
from dpdtol.drive import DriveError, bandit_departure, drive_bandit, drive_mechanism

ALPHA = 1e-3
UCB_TABLE = [[0.5, 0.25], [0.0, 1.0], [1.0, 0.0], [0.25, 0.75], [0.5, 0.5], [1.0, 0.0], [0.0, 1.0], [0.5, 0.25]]
# A table on which UCB1's ln t and an index with ln(t + 1) pull differently (round 5).
LOG_PLUS_ONE_TABLE = [[0, 0.75], [0, 0.5], [1, 1], [1, 0.75], [0.25, 0.25], [1, 0.25], [0, 0.25], [1, 1]]
# DP-SE, K = 2, eps = 1, beta = 1/T: the first epoch ends at round 2 R_1 = 2742; the
# arms' gap 0.1396 lies at the elimination margin, so that the noise decides.
DP_SE_LONG = [[0.4302, 0.5698]] * 2800
SCORES = [0.0, 1.0, 2.0, 4.0]

KEIRP = ("keirp+private-bandits", "e6662803fd99da40505fd255b89e311fb2a08b1f")
DP_BAI = ("Aymen97am+DP_BAI", "eb3b287d4603f6da8916d3c50610912475557581")
KISHAN = ("kishan-chakraborty+Bandit", "a309faae55bb357f183b9e702285f1e863336a3f")
ASTRFO = ("astrfo+bandit-rs", "d2d6e6d96d6032615996a2a496ff9f5c499f9c09")
GUAPMAN = ("GuapmanX+Test", "1e58b0517c2092b81f8cb6f8a7ddd2d755db83fc")
SNIPER = ("eth-sri+dp-sniper", "ee087b2584ca97d1064154db5dd2bda0bb5a8ceb")
STATDP = ("cmla-psu+statdp", "d1f1e8fafa1fe15342dc9502654ec241585b9919")
DIFFPRIVLIB = ("IBM+differential-privacy-library", "5d9c9d873c99295f14b0cfb61866fafbf3cc4684")


def load(src, repo, path, name):
    """The module at ``path`` of the checkout, imported from its file."""
    spec = importlib.util.spec_from_file_location(name, os.path.join(src, repo, path))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def bandit(algorithm, make, table, epsilon, n, protocol=None, **params):
    pulls = drive_bandit(make, table, n, seed=1, protocol=protocol)
    result = bandit_gof(algorithm, table, epsilon, pulls, base=0, alpha=ALPHA, **params)
    where = ""
    if result.rejected and result.law is not None:
        first, _ = bandit_departure(result.law, pulls, ALPHA)
        where = f"; first departs at {first}" if first else ""
    return result.verdict, result.p_min if result.support_violation is None else 0.0, where


def mechanism(select, noise, scale, n):
    picked = drive_mechanism(select, SCORES, n, seed=1)
    result = mechanism_gof([-s for s in SCORES], picked, noise=noise, scale=scale, base=0, alpha=ALPHA)
    return result.verdict, result.p_min, ""


def pull_guess_to_horizon(policy, bandit_env):
    """Best-arm identification stops at its guess: pull the guess to the horizon."""
    quiet, builtins.print = builtins.print, lambda *a, **k: None  # its run() prints its guess
    try:
        _, guess = policy.run(bandit_env)
    finally:
        builtins.print = quiet
    while True:
        bandit_env.pull(int(guess))


def cases(src, n):
    """(repository, commit, path, target, run) for every case."""
    sys.path.insert(0, os.path.join(src, KEIRP[0]))
    from private_bandits.solvers.nonprivate.ucb import UCB1Solver
    from private_bandits.solvers.private.dp_successive_elimination import DPSuccessiveEliminationSolver
    from private_bandits.solvers.private.dp_ucb import DPUCBSolver

    yield (*KEIRP, "private_bandits/solvers/nonprivate/ucb.py", "ucb1",
           lambda: bandit("ucb1", lambda: UCB1Solver(2), UCB_TABLE, None, 1000))
    yield (*KEIRP, "private_bandits/solvers/private/dp_successive_elimination.py", "dp-se (beta = 1/T)",
           lambda: bandit("dp-se", lambda: DPSuccessiveEliminationSolver(2, 1.0, 1 / 8), UCB_TABLE, 1, 1000))
    yield (*KEIRP, "private_bandits/solvers/private/dp_ucb.py", "hybrid-ucb",
           lambda: bandit("hybrid-ucb", lambda: DPUCBSolver(2, 1.0), UCB_TABLE, 1, n))

    sys.path.insert(0, os.path.join(src, DP_BAI[0]))
    from algorithms.dp_se import DPSE

    yield (*DP_BAI, "algorithms/dp_se.py", "dp-se (delta = 1/T), T = 8",
           lambda: bandit("dp-se", lambda: DPSE({"K": 2, "eps": 1.0, "delta": 1 / 8}), UCB_TABLE, 1, 1000))
    yield (*DP_BAI, "algorithms/dp_se.py", "dp-se (delta = 1/T), T = 2800",
           lambda: bandit("dp-se", lambda: DPSE({"K": 2, "eps": 1.0, "delta": 1 / 2800}), DP_SE_LONG, 1,
                          2 * n, protocol=pull_guess_to_horizon))

    # Its module imports matplotlib and a module its repository does not have; neither is used.
    for name in ("matplotlib", "matplotlib.pyplot", "Stochastic.Rewards", "Stochastic.Rewards.gaussian"):
        sys.modules.setdefault(name, types.ModuleType(name))
    sys.modules["Stochastic.Rewards.gaussian"].GaussianReward = None
    sys.modules.setdefault("Stochastic.utils", types.SimpleNamespace(cal_regret=None))
    kishan = load(src, KISHAN[0], "Stochastic/Algorithms/ucb.py", "kishan_ucb")
    yield (*KISHAN, "Stochastic/Algorithms/ucb.py", "ucb1 --bonus 4 (its C = 2)",
           lambda: bandit("ucb1", lambda: kishan.UCB(2, {"C": 2.0}), UCB_TABLE, None, 1000, bonus=4))

    astrfo = load(src, ASTRFO[0], "policy/ucb1.py", "astrfo_ucb1")

    def astrfo_ucb1():
        policy = astrfo.UCB1(2)
        policy.initialize()
        return policy

    yield (*ASTRFO, "policy/ucb1.py", "ucb1", lambda: bandit("ucb1", astrfo_ucb1, UCB_TABLE, None, 1000))

    guapman = load(src, GUAPMAN[0], "np_UCB.py", "guapman_ucb")
    yield (*GUAPMAN, "np_UCB.py", "ucb1", lambda: bandit("ucb1", lambda: guapman.UCB(2), UCB_TABLE, None, 1000))
    yield (*GUAPMAN, "np_UCB.py", "ucb1 (ln t against ln(t + 1))",
           lambda: bandit("ucb1", lambda: guapman.UCB(2), LOG_PLUS_ONE_TABLE, None, 1000))

    sys.path.insert(0, os.path.join(src, SNIPER[0]))
    from dpsniper.mechanisms.report_noisy_max import ReportNoisyMax1, ReportNoisyMax2

    m1, m2 = ReportNoisyMax1(eps=1.0), ReportNoisyMax2(eps=1.0)
    yield (*SNIPER, "dpsniper/mechanisms/report_noisy_max.py ReportNoisyMax1", "laplace, scale 2",
           lambda: mechanism(lambda v: m1.m(v, 1)[0], "laplace", 2, n))
    yield (*SNIPER, "dpsniper/mechanisms/report_noisy_max.py ReportNoisyMax2", "exponential, scale 2",
           lambda: mechanism(lambda v: m2.m(v, 1)[0], "exponential", 2, n))

    statdp = load(src, STATDP[0], "statdp/algorithms.py", "statdp_algorithms")
    prng = np.random.mtrand._rand  # numpy's global generator, which the driver seeds
    for name, noise in (("noisy_max_v1a", "laplace"), ("noisy_max_v2a", "exponential"), ("noisy_max_v1b", "laplace")):
        select = getattr(statdp, name)
        yield (*STATDP, f"statdp/algorithms.py {name}", f"{noise}, scale 2",
               lambda select=select, noise=noise: mechanism(lambda v: select(prng, v, 1.0), noise, 2, n))

    # Its package __init__ imports its scikit-learn models: the mechanisms are loaded without it.
    package = types.ModuleType("diffprivlib")
    package.__path__ = [os.path.join(src, DIFFPRIVLIB[0], "diffprivlib")]
    sys.modules["diffprivlib"] = package
    from diffprivlib.mechanisms import Exponential, PermuteAndFlip

    for cls, noise in ((Exponential, "gumbel"), (PermuteAndFlip, "exponential")):
        yield (*DIFFPRIVLIB, f"diffprivlib/mechanisms/exponential.py {cls.__name__}", f"{noise}, scale 2",
               lambda cls=cls, noise=noise: mechanism(
                   lambda v: cls(epsilon=1.0, sensitivity=1.0, utility=list(v), random_state=prng).randomise(),
                   noise, 2, n))


# The verdicts recorded in the guide's table, in the order of cases().
EXPECTED = [
    "consistent", "rejected", "rejected", "consistent", "rejected", "consistent", "consistent",
    "consistent", "rejected", "consistent", "consistent", "consistent", "consistent", "driver",
    "consistent", "consistent",
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("src", help="the folder of the checkouts, named owner+name")
    parser.add_argument("--n", type=int, default=20_000,
                        help="runs of a random case, twice as many on T = 2800 (default 20000)")
    args = parser.parse_args()
    src = os.path.abspath(args.src)
    surprises = 0
    with tempfile.TemporaryDirectory(prefix="dpdtol-drive-") as folder:
        os.chdir(folder)
        for expected, (repo, commit, path, target, run) in zip(EXPECTED, cases(src, args.n)):
            try:
                verdict, p, where = run()
            except DriveError as e:
                verdict, p, where = "driver", 0.0, f"; {e}"
            surprise = "" if verdict == expected else f"  (recorded: {expected})"
            surprises += bool(surprise)
            print(f"{repo}@{commit[:7]} {path} [{target}]: {verdict}, p = {p:.3g}{where}{surprise}", flush=True)
    sys.exit(1 if surprises else 0)


if __name__ == "__main__":
    main()
