"""Drive public implementations of algorithms dpdtol knows, unchanged,
through ``dpdtol.drive`` and test them against the exact laws.

    python python/examples/drive_public_implementations.py [--mirror DIR] [--n 20000]
        [--n-long 40000] [--only TEXT] [--json FILE]

MIRROR (default /work/.mirror) holds the repositories' git directories as
``MIRROR/owner+name/repo``; the script extracts each at the commit below
(``git archive``) into a temporary folder, where it also runs (DP_BAI's DPSE
writes a log file a run). Each case imports the code as its repository has
it and adds only what calls it: its protocol (the driver's adapters), its
constructor's parameters, and for best-arm identification a loop that pulls
its guess to the horizon. No line of the code is changed, and none of it is
copied here. ``--only`` runs the cases whose repository, path, target or
table contains TEXT. The script prints the table of docs/public-implementations.md
as markdown (verdict, p, where a rejected bandit first departs from the law,
and the recorded cause of each rejection), writes it as JSON with ``--json``,
and exits with status 1 when a verdict differs from the one recorded, so
that a change in a repository or in dpdtol shows.
"""

import argparse
import builtins
import importlib.util
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import types
from fractions import Fraction

import numpy as np

from dpdtol import bandit_gof, gof, mechanism_gof
from dpdtol.drive import DriveError, bandit_departure, drive_bandit, drive_full_information, drive_mechanism

ALPHA = 1e-3
CAUSE_LEANING_DP_TS = (
    "line 215 overwrites C_j with the newest block's noisy sum instead of adding it, dropping the earlier "
    "observations from the mean (a bug); and the bonus and Beta parameters are computed at the arm's last update "
    "(lines 231-235, ln t of that round), drawn from until its next one: the reading bonus_round=last-update, "
    "the next row")
CAUSE_LEANING_DP_TS_FROZEN = (
    "line 215's bug; with that line fixed (C_j += ...) the code is consistent with this reading (p = 0.612; "
    "rejected under the default reading, p = 3.7e-65). Line 225 reruns BinaryMechanism with fresh noise at every "
    "update, re-releasing the open block's sums (a privacy leak, not a reading): at epsilon = 100 its noise "
    "(scale ln(T)/100 per node) is too small to move the pull law at n = 20000")
UCB_TABLE = [[0.5, 0.25], [0.0, 1.0], [1.0, 0.0], [0.25, 0.75], [0.5, 0.5], [1.0, 0.0], [0.0, 1.0], [0.5, 0.25]]
# A table on which UCB1's ln t and an index with ln(t + 1) pull differently (round 5).
LOG_PLUS_ONE_TABLE = [[0, 0.75], [0, 0.5], [1, 1], [1, 0.75], [0.25, 0.25], [1, 0.25], [0, 0.25], [1, 1]]
# The same at bonus 1 (sqrt(ln t / n_j)): ln t and ln(t + 1) pull differently at round 5 whichever arm is
# played first, and no index ties.
LOG_PLUS_ONE_TABLE_BONUS_1 = [[0.25, 0.75], [0.5, 1], [1, 1], [1, 0.25], [0.5, 0.75], [0.75, 0], [0.5, 1], [0.25, 0.75]]
# 0/1 rewards (click feedback): on the first, UCB1's indices tie at round 3 (both arms paid 1 once); on the
# second they never tie after the first K rounds.
CLICKS_TIED = [[1, 1], [1, 1], [1, 0], [0, 1], [1, 1], [0, 0], [1, 0], [0, 1]]
CLICKS_UNTIED = [[1, 1], [0, 0], [0, 0], [1, 1], [0, 1], [1, 0], [0, 1], [0, 1]]
# DP-SE, K = 2, eps = 1, beta = 1/T: the first epoch ends at round 2 R_1 = 2742; the
# arms' gap 0.1396 lies at the elimination margin, so that the noise decides.
DP_SE_LONG = [[0.4302, 0.5698]] * 2800
SCORES = [0.0, 1.0, 2.0, 4.0]
# Full information, K = 2: the loss rows of rounds 1, 2 (and 3). A learner that draws afresh every round (Hedge)
# has the law of prefix-softmax's first two choices at T = 2 only; EXPERTS_8 is a horizon for `hedge` itself,
# with a leader that changes twice and half losses.
EXPERTS_2 = [[0.0, 1.0], [1.0, 0.0]]
EXPERTS_3 = [[0.0, 1.0], [1.0, 0.0], [0.0, 1.0]]
EXPERTS_8 = [[0.0, 1.0], [1.0, 0.0], [1.0, 0.0], [0.0, 0.5], [0.5, 0.0], [0.0, 1.0], [1.0, 1.0], [0.5, 0.0]]

KEIRP = ("keirp/private-bandits", "e6662803fd99da40505fd255b89e311fb2a08b1f")
DP_BAI = ("Aymen97am/DP_BAI", "eb3b287d4603f6da8916d3c50610912475557581")
KISHAN = ("kishan-chakraborty/Bandit", "a309faae55bb357f183b9e702285f1e863336a3f")
ASTRFO = ("astrfo/bandit-rs", "d2d6e6d96d6032615996a2a496ff9f5c499f9c09")
GUAPMAN = ("GuapmanX/Test", "1e58b0517c2092b81f8cb6f8a7ddd2d755db83fc")
BANDITS_BOOK = ("johnmyleswhite/BanditsBook", "72345f9fb3c2c5b83abe5adcae16c86ed1213d4f")
SNIPER = ("eth-sri/dp-sniper", "ee087b2584ca97d1064154db5dd2bda0bb5a8ceb")
STATDP = ("cmla-psu/statdp", "d1f1e8fafa1fe15342dc9502654ec241585b9919")
DIFFPRIVLIB = ("IBM/differential-privacy-library", "5d9c9d873c99295f14b0cfb61866fafbf3cc4684")
DESEN = ("MikeAure/DesenTelecom", "2e2ad918c948599763440654f2f9de9f589049ff")
JUSSI = ("JussiM01/ThompsonSampling", "6f6caa0")
SAYAKRC = ("sayakrc/Differentially-Private-Bandits", "650fd1dd47107f59495ef432d5d468c789aad5b4")
SMPY = ("SMPyBandits/SMPyBandits", "012fc13a9d82e361930fdf701dfff9a91439d60c")
LIGHTDP = ("yuxincs/lightdp", "d7b55df389278ed56d6ebc23bec46d1dcdb835f7")
SACOFA = ("samadeusfp/SaCoFa", "1f5a79935996f2be3f912e8d32d4086bd09f5329")
LHIDER = ("sisinflab/LHider", "c1f06f034c1f0659c4d5f16fcd2b6b36d10802ab")
PGM = ("ryan112358/private-pgm", "4d2b3c566b148da3ef800ce76e6189c548f2da22")
LEANING_DP_TS = ("littlerain51/Leaning-DP-TS", "dc39918caa7b6d913120390926841734c64ac770")
MABWISER = ("fidelity/mabwiser", "b104071351d532aae977955d19b83872a9c1b1e3")
GALBRAITH = ("bgalbraith/bandits", "a566d4aee0a7c242e1642813d6a850158c6fc41e")
LILIANWENG = ("lilianweng/multi-armed-bandit", "6818c919b8ea7ddc238185d76a83fcf65b7d5fd1")
MABALGS = ("alison-carrera/mabalgs", "83e3052677a459fd4f6350bcd72171ef969fe115")
BANDITPYLIB = ("Alanthink/banditpylib", "ba6dc84d87ae9e9aec48cd622ec9988dccdd18c6")
RALAMI = ("Ralami1859/DifferentiallyPrivateMultiArmedBandit", "1c4f8aaef198cd435de56ac25ed0dc9960140df6")
CODETALKER7 = ("codetalker7/contextual-alpha-fair-bandits", "1a1f65a7b5cb134905dc3739be10ddab0a64e651")
FRANZE = ("lorenzofranze/auction-and-selling-campaign", "727726fffd0404524da5272a81f6c7e8d77cc718")
DPCOPULA = ("thierryr/dpcopula_kendall", "846a4a0825883447b6be4c0c88a862a1a354de08")
MENISADI = ("menisadi/pydp", "0119bc961db5052d67588a4dd40cbe659cfa3445")
SWASUN = ("swasun/BanditProblem", "76248e6da7c32002980dba20df08c5bee64288dc")
MUNEZOU = ("munezou/PycharmProject", "e41f89fddf1365cb9ec870234245f3dcd51a04a9")
# Packages from PyPI, not mirrored repositories: the commit column holds the version. OpenDP's source at
# that version is its tag v0.15.1 (commit c34d3d0).
OPENDP = ("opendp (PyPI)", "0.15.1")
MABBY = ("mabby (PyPI)", "0.1.2")
ROVINGBANDIT = ("rovingbandit (PyPI)", "0.1.0")
MASCED = ("masced-bandits (PyPI)", "1.0.1")


def checkout(mirror, repo, commit, into, paths=()):
    """The repository's tree at ``commit`` (only ``paths`` when given: a mirror may lack a
    repository's largest files), extracted from its mirrored git directory (a bare clone, or
    the ``.git`` of a clone with a work tree)."""
    folder = os.path.join(into, repo.replace("/", "+"))
    if not os.path.isdir(folder):
        os.makedirs(folder)
        git_dir = os.path.join(mirror, repo.replace("/", "+"), "repo")
        if os.path.isdir(os.path.join(git_dir, ".git")):
            git_dir = os.path.join(git_dir, ".git")
        archive = subprocess.run(["git", "--git-dir", git_dir, "archive", commit, *paths], check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", folder], input=archive, check=True)
    return folder


def load(folder, path, name):
    """The module at ``path`` of the checkout, imported from its file."""
    spec = importlib.util.spec_from_file_location(name, os.path.join(folder, path))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def bandit(algorithm, make, table, epsilon, n, protocol=None, **params):
    pulls = drive_bandit(make, table, n, seed=1, protocol=protocol)
    result = bandit_gof(algorithm, table, epsilon, pulls, base=0, alpha=ALPHA, **params)
    where = ""
    if result.rejected and result.law is not None:
        first, _ = bandit_departure(result.law, pulls, ALPHA)
        # A long prefix is shown by its first and last pulls.
        where = re.sub(r"pulls ([0-9,]{24})[0-9,]+(,[0-9,]{11})", r"pulls \1…\2", f"first departs at {first}") if first else ""
    return result.verdict, result.p_min if result.support_violation is None else 0.0, where


def full_information(algorithm, make, losses, epsilon, n, base=0, **params):
    """A full-information learner, ``make()`` a fresh sampler a run (the driver's factory)."""
    picked = drive_full_information(make, losses, n, seed=1, base=base, factory=True)
    result = gof(algorithm, losses, epsilon, picked, base=base, alpha=ALPHA, **params)
    return result.verdict, result.p_min, ""


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


def choice_get_reward(policy, bandit_env):
    """SMPyBandits' protocol: ``arm = policy.choice()``, then ``policy.getReward(arm, reward)``."""
    while True:
        arm = policy.choice()
        policy.getReward(arm, bandit_env.pull(int(arm)))


def case(repo, path, target, flags, table, n, expected, run=None, cause=""):
    """One row: ``run() -> (verdict, p, where)``; ``run=None`` is a row not run (``cause`` says why)."""
    return dict(repository=repo[0], commit=repo[1], path=path, target=target, flags=flags, table=table,
                n=n, expected=expected, cause=cause, run=run)


def lilianweng_solvers(mirror, into, name):
    """lilianweng/multi-armed-bandit's ``solvers`` module, imported as ``name``, and how to play one
    of its solvers: they play by ``run(num_steps)`` on a ``BernoulliBandit`` (solvers.py line 15
    asserts the type), so the table is a ``BernoulliBandit`` whose ``generate_reward`` is the
    table's pull."""
    folder = checkout(mirror, *LILIANWENG, into)
    sys.path.insert(0, folder)
    solvers = load(folder, "solvers.py", name)
    sys.path.remove(folder)
    bernoulli = sys.modules.pop("bandits").BernoulliBandit

    class TableArms(bernoulli):
        def __init__(self, bandit_env):
            super().__init__(bandit_env.arms, [0.0] * bandit_env.arms)
            self.generate_reward = bandit_env.pull

    def solver_run(make, bandit_env):
        make(TableArms(bandit_env)).run(bandit_env.horizon)

    return solvers, solver_run


def smpy_policy(mirror, into, path, name):
    """The module ``path`` of SMPyBandits' ``Policies`` folder, imported as ``name`` with that
    folder on the path (its modules import one another by bare name)."""
    folder = os.path.join(checkout(mirror, *SMPY, into, ["SMPyBandits/Policies"]), "SMPyBandits", "Policies")
    sys.path.insert(0, folder)
    module = load(folder, path, name)
    sys.path.remove(folder)
    return module


def fit_predict_partial_fit(policy, bandit_env):
    """MABWiser's protocol: its MAB answers ``predict()`` only after ``fit()``: a cold start fits
    the empty history, then predicts and ``partial_fit``s one decision a round."""
    policy.fit([], [])
    while True:
        arm = policy.predict()
        policy.partial_fit([arm], [bandit_env.pull(int(arm))])


def cases(mirror, into, n, n_long):
    """Every case, in the order of the table."""
    keirp = checkout(mirror, *KEIRP, into)
    sys.path.insert(0, keirp)
    from private_bandits.solvers.nonprivate.ucb import UCB1Solver
    from private_bandits.solvers.private.dp_successive_elimination import DPSuccessiveEliminationSolver
    from private_bandits.solvers.private.dp_ucb import DPUCBSolver
    from private_bandits.solvers.private.private_ucb import PrivateUCBSolver
    from private_bandits.solvers.private.dp_ucb_bound import DPUCBBoundSolver

    solvers = "private_bandits/solvers/"
    yield case(KEIRP, solvers + "nonprivate/ucb.py", "ucb1", "", "T8", 1000, "consistent",
               lambda: bandit("ucb1", lambda: UCB1Solver(2), UCB_TABLE, None, 1000))
    yield case(KEIRP, solvers + "private/dp_successive_elimination.py", "dp-se", "beta=1/8 (blocks)", "T8", 1000,
               "rejected", lambda: bandit("dp-se", lambda: DPSuccessiveEliminationSolver(2, 1.0, 1 / 8), UCB_TABLE, 1, 1000),
               "the order of pulls inside an epoch: round-robin (lines 41-44), the next row's flag")
    yield case(KEIRP, solvers + "private/dp_successive_elimination.py", "dp-se", "beta=1/8, pull_order=round-robin",
               "T8", 1000, "consistent",
               lambda: bandit("dp-se", lambda: DPSuccessiveEliminationSolver(2, 1.0, 1 / 8), UCB_TABLE, 1, 1000,
                              beta=1 / 8, pull_order="round-robin"))
    yield case(KEIRP, solvers + "private/dp_successive_elimination.py", "dp-se",
               "beta=1/2800, pull_order=round-robin, rounding=ceiling", "T2800", n_long, "rejected",
               lambda: bandit("dp-se", lambda: DPSuccessiveEliminationSolver(2, 1.0, 1 / 2800), DP_SE_LONG, 1, n_long,
                              beta=1 / 2800, pull_order="round-robin", rounding="ceiling"),
               "two readings: the epoch runs until r >= the real R_e = max{...} + 1 (lines 23, 46), "
               "ceil(max{...}) + 1 pulls, and the radius is computed at the real R_e (lines 48-49): the next row's flags")
    yield case(KEIRP, solvers + "private/dp_successive_elimination.py", "dp-se",
               "beta=1/2800, pull_order=round-robin, rounding=ceiling-plus-one, radius=real", "T2800", n_long,
               "consistent",
               lambda: bandit("dp-se", lambda: DPSuccessiveEliminationSolver(2, 1.0, 1 / 2800), DP_SE_LONG, 1, n_long,
                              beta=1 / 2800, pull_order="round-robin", rounding="ceiling-plus-one", radius="real"))
    yield case(KEIRP, solvers + "private/dp_ucb.py", "hybrid-ucb (nearest)", "", "T8", n, "rejected",
               lambda: bandit("hybrid-ucb", lambda: DPUCBSolver(2, 1.0), UCB_TABLE, 1, n),
               "another algorithm: a hybrid mechanism per arm (logarithmic + binary, eps/2 each, "
               "privacy/mechanisms/hybrid.py) under UCB1's index with no privacy term (dp_ucb.py step); "
               "dpdtol has no law of it")
    yield case(KEIRP, solvers + "private/private_ucb.py", "dp-ucb", "gamma=1/10 (default)", "T8", n, "consistent",
               lambda: bandit("dp-ucb", lambda: PrivateUCBSolver(2, 1.0, 8, 0.1), UCB_TABLE, 1, n))
    yield case(KEIRP, solvers + "private/private_ucb_boundless.py", "dp-ucb (nearest)", "", "—", 0, "not run",
               cause="another algorithm than DP-UCB: no relaxation term Gamma/n_a (lines 15-17), UCB1's index on "
               "private means; and every arm's binary mechanism fed every round, 0 for the arms not pulled "
               "(counting.py lines 44-52), the noise a tree sum over the rounds, not the arm's pulls; dpdtol has "
               "no law of it")
    yield case(KEIRP, solvers + "private/dp_ucb_bound.py", "dp-ucb-bound", "", "T8", n, "consistent",
               lambda: bandit("dp-ucb-bound", lambda: DPUCBBoundSolver(2, 1.0), UCB_TABLE, 1, n))

    dp_bai = checkout(mirror, *DP_BAI, into)
    sys.path.insert(0, dp_bai)
    from algorithms.dp_se import DPSE

    yield case(DP_BAI, "algorithms/dp_se.py", "dp-se", "beta=1/8", "T8", 1000, "consistent",
               lambda: bandit("dp-se", lambda: DPSE({"K": 2, "eps": 1.0, "delta": 1 / 8}), UCB_TABLE, 1, 1000, beta=1 / 8))
    yield case(DP_BAI, "algorithms/dp_se.py", "dp-se", "beta=1/2800", "T2800", n_long, "rejected",
               lambda: bandit("dp-se", lambda: DPSE({"K": 2, "eps": 1.0, "delta": 1 / 2800}), DP_SE_LONG, 1, n_long,
                              protocol=pull_guess_to_horizon, beta=1 / 2800),
               "the radius at the real R_e = 1371.875 (lines 82-84, do_eliminations(Re)) while it pulls and scales "
               "the noise by int(R_e) = 1371 (lines 65, 70): the next row's flag")
    yield case(DP_BAI, "algorithms/dp_se.py", "dp-se", "beta=1/2800, radius=real", "T2800", n_long, "consistent",
               lambda: bandit("dp-se", lambda: DPSE({"K": 2, "eps": 1.0, "delta": 1 / 2800}), DP_SE_LONG, 1, n_long,
                              protocol=pull_guess_to_horizon, beta=1 / 2800, radius="real"))

    # Its DP-SE takes an environment with the arms K and epsilon, and plays by get_arm(t) / update(t, arm, r).
    sayakrc = load(checkout(mirror, *SAYAKRC, into), "MABPrivate.py", "sayakrc_mab_private")
    env = types.SimpleNamespace(K=2, epsilon=1.0)

    def get_arm_update(policy, bandit_env):
        while True:
            t = bandit_env.t
            arm = policy.get_arm(t)
            policy.update(t, arm, bandit_env.pull(int(arm)))

    def sayakrc_dp_se(beta, table, runs):
        return bandit("dp-se", lambda: sayakrc.DPSE(env, len(table), {"crs": 1, "delta": beta, "dc": 2}), table, 1,
                      runs, protocol=get_arm_update, beta=beta)

    yield case(SAYAKRC, "MABPrivate.py DPSE", "dp-se", "beta=1/8", "T8", 1000, "consistent",
               lambda: sayakrc_dp_se(1 / 8, UCB_TABLE, 1000))
    yield case(SAYAKRC, "MABPrivate.py DPSE", "dp-se", "beta=1/2800", "T2800", 2000, "rejected",
               lambda: sayakrc_dp_se(1 / 2800, DP_SE_LONG, 2000),
               "a bug: one Laplace number shared by all arms (line 212, self.rewards + rng.laplace(0, 1 / self.eps) "
               "adds a scalar to the vector of sums), so the noise cancels in the elimination rule and the "
               "decision is the noiseless one")

    # Its module imports matplotlib and a module its repository does not have; neither is used.
    for name in ("matplotlib", "matplotlib.pyplot", "Stochastic.Rewards", "Stochastic.Rewards.gaussian"):
        sys.modules.setdefault(name, types.ModuleType(name))
    sys.modules["Stochastic.Rewards.gaussian"].GaussianReward = None
    sys.modules.setdefault("Stochastic.utils", types.SimpleNamespace(cal_regret=None))
    kishan = load(checkout(mirror, *KISHAN, into), "Stochastic/Algorithms/ucb.py", "kishan_ucb")
    yield case(KISHAN, "Stochastic/Algorithms/ucb.py", "ucb1", "bonus=4 (its C = 2)", "T8", 1000, "consistent",
               lambda: bandit("ucb1", lambda: kishan.UCB(2, {"C": 2.0}), UCB_TABLE, None, 1000, bonus=4))

    astrfo = load(checkout(mirror, *ASTRFO, into), "policy/ucb1.py", "astrfo_ucb1")

    def astrfo_ucb1():
        policy = astrfo.UCB1(2)
        policy.initialize()
        return policy

    yield case(ASTRFO, "policy/ucb1.py", "ucb1", "", "T8", 1000, "consistent",
               lambda: bandit("ucb1", astrfo_ucb1, UCB_TABLE, None, 1000))

    guapman = load(checkout(mirror, *GUAPMAN, into), "np_UCB.py", "guapman_ucb")
    yield case(GUAPMAN, "np_UCB.py", "ucb1", "", "T8", 1000, "consistent",
               lambda: bandit("ucb1", lambda: guapman.UCB(2), UCB_TABLE, None, 1000))
    yield case(GUAPMAN, "np_UCB.py", "ucb1", "", "T8'", 1000, "rejected",
               lambda: bandit("ucb1", lambda: guapman.UCB(2), LOG_PLUS_ONE_TABLE, None, 1000),
               "sqrt(2 ln(t+1)/(n_j + 1e-5)) with t the plays so far (line 13): ln of the current round, the reading "
               "bonus_round=current, the next row's flag; with no initial pull of each arm, yet the first round's "
               "indices, all 0, go to arm 0 (np.argmax) and an unplayed arm's bonus sqrt(2 ln t / 1e-5) >= 372 wins "
               "next, so each arm is played once in order, and the 1e-5 moves a played arm's index by about 1e-5")
    yield case(GUAPMAN, "np_UCB.py", "ucb1", "bonus_round=current", "T8'", 1000, "consistent",
               lambda: bandit("ucb1", lambda: guapman.UCB(2), LOG_PLUS_ONE_TABLE, None, 1000, bonus_round="current"))

    book = load(checkout(mirror, *BANDITS_BOOK, into), "python/algorithms/ucb/ucb1.py", "bandits_book_ucb1")

    def book_ucb1():
        policy = book.UCB1([], [])
        policy.initialize(2)
        return policy

    yield case(BANDITS_BOOK, "python/algorithms/ucb/ucb1.py", "ucb1", "", "T8", 1000, "consistent",
               lambda: bandit("ucb1", book_ucb1, UCB_TABLE, None, 1000))
    yield case(BANDITS_BOOK, "python/algorithms/ucb/ucb1.py", "ucb1", "", "T8'", 1000, "consistent",
               lambda: bandit("ucb1", book_ucb1, LOG_PLUS_ONE_TABLE, None, 1000))

    # Its policies import their base classes as top-level modules when loaded outside the package.
    smpy_ucb = smpy_policy(mirror, into, "UCB.py", "smpy_ucb")

    def smpy_ucb_policy():
        policy = smpy_ucb.UCB(2)
        policy.startGame()
        return policy

    yield case(SMPY, "SMPyBandits/Policies/UCB.py", "ucb1", "", "T8", 1000, "rejected",
               lambda: bandit("ucb1", smpy_ucb_policy, UCB_TABLE, None, 1000, protocol=choice_get_reward),
               "ties, the first K rounds' infinite indices included, go to an arm drawn uniformly among the "
               "maximal ones (IndexPolicy.py choice, np.random.choice over the argmax set), where the default "
               "reading plays each arm once in order and breaks ties to the lowest arm: the next row's flag; same "
               "index sqrt(2 ln t / N_k) with t the plays so far (UCB.py computeIndex)")
    yield case(SMPY, "SMPyBandits/Policies/UCB.py", "ucb1", "ties=uniform", "T8", n, "consistent",
               lambda: bandit("ucb1", smpy_ucb_policy, UCB_TABLE, None, n, protocol=choice_get_reward,
                              ties="uniform"))

    yield from cases_thompson(mirror, into, n)

    yield from leaning_dp_ts(mirror, into, n)

    sys.path.insert(0, checkout(mirror, *SNIPER, into))
    from dpsniper.mechanisms.report_noisy_max import ReportNoisyMax1, ReportNoisyMax2

    m1, m2 = ReportNoisyMax1(eps=1.0), ReportNoisyMax2(eps=1.0)
    rnm = "dpsniper/mechanisms/report_noisy_max.py"
    yield case(SNIPER, rnm + " ReportNoisyMax1", "rnm", "noise=laplace, scale=2", "scores 0,1,2,4", n, "consistent",
               lambda: mechanism(lambda v: m1.m(v, 1)[0], "laplace", 2, n))
    yield case(SNIPER, rnm + " ReportNoisyMax2", "rnm", "noise=exponential, scale=2", "scores 0,1,2,4", n,
               "consistent", lambda: mechanism(lambda v: m2.m(v, 1)[0], "exponential", 2, n))

    # Its modules import their base class as the top-level module ``abstract``.
    desen = os.path.join(checkout(mirror, *DESEN, into), "perturbation", "differential_privacy")
    sys.path.insert(0, desen)
    for file, cls, noise in (("report_noisy_max1.py", "ReportNoisyMax1", "laplace"),
                             ("report_noisy_max2.py", "ReportNoisyMax2", "exponential")):
        m = getattr(load(desen, file, "desen_" + cls), cls)(eps=1.0, sensitivity=1.0)
        yield case(DESEN, f"perturbation/differential_privacy/{file} {cls}", "rnm", f"noise={noise}, scale=1",
                   "scores 0,1,2,4", n, "consistent",
                   lambda m=m, noise=noise: mechanism(lambda v: m.m(np.asarray(v), 1)[0], noise, 1, n))
    sys.path.remove(desen)

    statdp = load(checkout(mirror, *STATDP, into), "statdp/algorithms.py", "statdp_algorithms")
    prng = np.random.mtrand._rand  # numpy's global generator, which the driver seeds
    for name, noise, expected, cause in (
        ("noisy_max_v1a", "laplace", "consistent", ""),
        ("noisy_max_v2a", "exponential", "consistent", ""),
        ("noisy_max_v1b", "laplace", "driver",
         "its planted bug (line 38, 'INCORRECT: returning maximum value instead of the index')"),
    ):
        select = getattr(statdp, name)
        yield case(STATDP, f"statdp/algorithms.py {name}", "rnm", f"noise={noise}, scale=2", "scores 0,1,2,4", n,
                   expected, lambda select=select, noise=noise: mechanism(lambda v: select(prng, v, 1.0), noise, 2, n),
                   cause)

    lightdp = load(checkout(mirror, *LIGHTDP, into), "lightdp/stattest/noisymax.py", "lightdp_noisymax")
    yield case(LIGHTDP, "lightdp/stattest/noisymax.py noisymax", "rnm", "noise=laplace, scale=1", "scores 0,1,2,4", n,
               "consistent", lambda: mechanism(lambda v: lightdp.noisymax(v, 1.0), "laplace", 1, n))

    # Its exponential mechanism scores the outputs by their reversed list: on the outputs 4, 2, 1, 0 the
    # scores are 0, 1, 2, 4, and the output returned is mapped back to its position.
    sacofa = load(checkout(mirror, *SACOFA, into), "ExpMechDF/privatize_df_exp/exp_mech.py", "sacofa_exp_mech")
    outputs = [4, 2, 1, 0]
    yield case(SACOFA, "ExpMechDF/privatize_df_exp/exp_mech.py exp_mech", "rnm", "noise=gumbel, scale=2",
               "scores 0,1,2,4", n, "consistent",
               lambda: mechanism(lambda v: outputs.index(sacofa.exp_mech(outputs, 1.0)), "gumbel", 2, n))

    # Its module imports tqdm for a progress bar the precomputed-scores path does not draw; its
    # constructor seeds numpy's generator, which the driver seeds again before each call.
    sys.modules.setdefault("tqdm", types.ModuleType("tqdm"))
    lhider = load(checkout(mirror, *LHIDER, into, ["src/exponential_mechanism"]), "src/exponential_mechanism/mechanism.py", "lhider_mechanism")
    score = types.SimpleNamespace(sensitivity=1.0, range=1.0)
    em = lhider.ExponentialMechanism(score, epsilon=1.0)
    yield case(LHIDER, "src/exponential_mechanism/mechanism.py ExponentialMechanism.run_exponential_sensibile",
               "rnm", "noise=gumbel, scale=2", "scores 0,1,2,4", n, "consistent",
               lambda: mechanism(lambda v: em.run_exponential_sensibile(list(range(len(v))), np.asarray(v)),
                                 "gumbel", 2, n))

    # Its Mechanism imports its sibling module cdp2adp as a top-level module (unused at delta = 0),
    # which imports matplotlib (unused).
    for name in ("matplotlib", "matplotlib.pyplot"):
        sys.modules.setdefault(name, types.ModuleType(name))
    pgm = os.path.join(checkout(mirror, *PGM, into, ["mechanisms"]), "mechanisms")
    sys.path.insert(0, pgm)
    pgm_mechanism = load(pgm, "mechanism.py", "pgm_mechanism").Mechanism(1.0, 0, True)
    sys.path.remove(pgm)
    for method, noise in (("permute_and_flip", "exponential"), ("exponential_mechanism", "gumbel")):
        select = getattr(pgm_mechanism, method)
        yield case(PGM, f"mechanisms/mechanism.py Mechanism.{method}", "rnm", f"noise={noise}, scale=2",
                   "scores 0,1,2,4", n, "consistent",
                   lambda select=select, noise=noise: mechanism(lambda v: select(np.asarray(v), 1.0), noise, 2, n))

    # Its package __init__ imports its scikit-learn models: the mechanisms are loaded without it.
    package = types.ModuleType("diffprivlib")
    package.__path__ = [os.path.join(checkout(mirror, *DIFFPRIVLIB, into), "diffprivlib")]
    sys.modules["diffprivlib"] = package
    from diffprivlib.mechanisms import Exponential, PermuteAndFlip

    for cls, noise in ((Exponential, "gumbel"), (PermuteAndFlip, "exponential")):
        yield case(DIFFPRIVLIB, f"diffprivlib/mechanisms/exponential.py {cls.__name__}", "rnm",
                   f"noise={noise}, scale=2", "scores 0,1,2,4", n, "consistent",
                   lambda cls=cls, noise=noise: mechanism(
                       lambda v: cls(epsilon=1.0, sensitivity=1.0, utility=list(v), random_state=prng).randomise(),
                       noise, 2, n))

    yield from cases_ucb_family(mirror, into, n)
    yield from cases_more(mirror, into, n)


def cases_thompson(mirror, into, n):
    """Bernoulli Thompson sampling with Beta(1, 1) priors (JussiM01/ThompsonSampling,
    lilianweng/multi-armed-bandit, SMPyBandits, MABWiser) on the 0/1 tables, where its
    law is exact."""
    jussi = load(checkout(mirror, *JUSSI, into), "thompsonbernoulli.py", "jussi_thompson")

    def jussi_policy():
        policy = jussi.ThompsonBernoulli(None, None, None, None)
        policy.initialize(2)
        return policy

    for name, table in (("B8", CLICKS_TIED), ("B8'", CLICKS_UNTIED)):
        yield case(JUSSI, "thompsonbernoulli.py ThompsonBernoulli", "thompson", "", name, n, "consistent",
                   lambda table=table: bandit("thompson", jussi_policy, table, None, n))

    solvers, solver_run = lilianweng_solvers(mirror, into, "lilianweng_thompson_solvers")
    yield case(LILIANWENG, "solvers.py ThompsonSampling", "thompson", "", "B8", n, "rejected",
               lambda: bandit("thompson", lambda: solvers.ThompsonSampling, CLICKS_TIED, None, n,
                              protocol=solver_run),
               "a bug for repeated runs: Solver.__init__ reseeds numpy's global generator with int(time.time()) "
               "(solvers.py line 16), so the solvers made within the same second replay the same draws; the "
               "Beta(a, b) draws and their updates a += r, b += 1 - r are Algorithm 2's (lines 151-157)")

    smpy_thompson = smpy_policy(mirror, into, "Thompson.py", "smpy_thompson")

    def smpy_thompson_policy():
        policy = smpy_thompson.Thompson(2)
        policy.startGame()
        return policy

    yield case(SMPY, "SMPyBandits/Policies/Thompson.py", "thompson", "", "B8", n, "consistent",
               lambda: bandit("thompson", smpy_thompson_policy, CLICKS_TIED, None, n, protocol=choice_get_reward))

    # MABWiser seeds its own generator (default seed 123456): each run gets the next seed.
    sys.path.insert(0, checkout(mirror, *MABWISER, into, ["mabwiser"]))
    from mabwiser.mab import MAB, LearningPolicy
    seeds = iter(range(10**9))

    yield case(MABWISER, "mabwiser/thompson.py _ThompsonSampling", "thompson", "", "B8", n, "consistent",
               lambda: bandit("thompson", lambda: MAB([0, 1], LearningPolicy.ThompsonSampling(), seed=next(seeds)),
                              CLICKS_TIED, None, n, protocol=fit_predict_partial_fit))


def cases_ucb_family(mirror, into, n):
    """UCB1 in bandit libraries and tutorials (MABWiser, bgalbraith/bandits,
    lilianweng/multi-armed-bandit, mabalgs on 0/1 rewards, banditpylib,
    SMPyBandits' UCBalpha), and Tossou & Dimitrakakis' private UCBs in
    Ralami1859's MATLAB code, run in GNU Octave."""
    sys.path.insert(0, checkout(mirror, *MABWISER, into, ["mabwiser"]))
    from mabwiser.mab import MAB, LearningPolicy

    yield case(MABWISER, "mabwiser/ucb.py _UCB1", "ucb1", "", "T8", 1000, "rejected",
               lambda: bandit("ucb1", lambda: MAB([0, 1], LearningPolicy.UCB1(alpha=1)), UCB_TABLE, None, 1000,
                              protocol=fit_predict_partial_fit),
               "a bug: an arm not yet played keeps the expectation 0 it starts with (base_mab.py line 91; ucb.py "
               "lines 95-97 compute the index only once the arm has a count), so no machine is played once first: "
               "with rewards in [0, 1] arm 0's index is never below arm 1's 0 and a tie goes to the first key "
               "(utils.py line 38), so arm 1 is never played; a played arm's index is UCB1's, alpha sqrt(2 ln n / n_j)")

    # Its Agent (agent.py) imports pymc3 for the Bayesian agents, unused by UCB: the two modules are
    # loaded from their files, without the package's __init__ (which imports seaborn and matplotlib).
    sys.modules.setdefault("pymc3", types.ModuleType("pymc3"))
    galbraith = checkout(mirror, *GALBRAITH, into, ["bandits"])
    agent = load(galbraith, "bandits/agent.py", "galbraith_agent")
    policies = load(galbraith, "bandits/policy.py", "galbraith_policy")

    def choose_observe(policy, bandit_env):
        while True:
            policy.observe(bandit_env.pull(int(policy.choose())))

    def galbraith_ucb(table, runs, bonus_round=None):
        return bandit("ucb1", lambda: agent.Agent(types.SimpleNamespace(k=2), policies.UCBPolicy(2)), table, None,
                      runs, protocol=choose_observe, bonus=1, ties="uniform", bonus_round=bonus_round)

    yield case(GALBRAITH, "bandits/policy.py UCBPolicy", "ucb1", "bonus=1 (its c = 2), ties=uniform", "T8", n,
               "consistent", lambda: galbraith_ucb(UCB_TABLE, n))
    yield case(GALBRAITH, "bandits/policy.py UCBPolicy", "ucb1", "bonus=1 (its c = 2), ties=uniform", "T8''", n,
               "rejected", lambda: galbraith_ucb(LOG_PLUS_ONE_TABLE_BONUS_1, n),
               "(ln(t + 1) / N_k)^(1/c) with t the plays so far (policy.py line 79; agent.py line 48): ln of the "
               "current round, one more than Auer et al.'s n, the reading bonus_round=current, the next row's flag; "
               "ties, the first round's included, drawn uniformly (lines 84-89)")
    yield case(GALBRAITH, "bandits/policy.py UCBPolicy", "ucb1", "bonus=1 (its c = 2), ties=uniform, bonus_round=current",
               "T8''", n, "consistent", lambda: galbraith_ucb(LOG_PLUS_ONE_TABLE_BONUS_1, n, bonus_round="current"))

    solvers, solver_run = lilianweng_solvers(mirror, into, "lilianweng_solvers")
    for name, table, expected in (("T8", UCB_TABLE, "consistent"), ("T8'", LOG_PLUS_ONE_TABLE, "rejected")):
        yield case(LILIANWENG, "solvers.py UCB1", "ucb1", "", name, 1000, expected,
                   lambda table=table: bandit("ucb1", lambda: solvers.UCB1, table, None, 1000, protocol=solver_run),
                   "another index, not UCB1: sqrt(2 ln t / (1 + N_k)) with t the current round, one more than the "
                   "plays so far, and estimates starting at 1 instead of a first play of each machine (solvers.py "
                   "lines 83, 90-94)")

    # Its UCB1 counts clicks: select() returns (arm, ranking), reward(arm) records a reward of 1.
    mabalgs = load(checkout(mirror, *MABALGS, into, ["mab"]), "mab/algs.py", "mabalgs_algs")

    def select_reward_on_click(policy, bandit_env):
        while True:
            arm, _ = policy.select()
            if bandit_env.pull(int(arm)) == 1:
                policy.reward(arm)

    for name, table, ties, expected in (("B8'", CLICKS_UNTIED, None, "consistent"),
                                        ("B8", CLICKS_TIED, None, "rejected"),
                                        ("B8", CLICKS_TIED, "highest", "consistent")):
        yield case(MABALGS, "mab/algs.py UCB1", "ucb1", f"ties={ties}" if ties else "", name, 1000, expected,
                   lambda table=table, ties=ties: bandit("ucb1", lambda: mabalgs.UCB1(2), table, None, 1000,
                                                         protocol=select_reward_on_click, ties=ties),
                   "ties to the highest arm (line 56, the first of np.flip(np.argsort(...)), the last of equal "
                   "indices), after each machine once in order (lines 32-46): the next row's flag; same index "
                   "sqrt(2 ln n / n_j), n the plays so far (lines 48-49, 70)")

    # banditpylib's learners answer actions(context) with protobuf Actions and learn from update(feedback), a
    # protobuf Feedback of the pulled arm's rewards; its protocol resets a learner before a trial.
    sys.path.insert(0, checkout(mirror, *BANDITPYLIB, into, ["banditpylib"]))
    from banditpylib.data_pb2 import Context, Feedback
    from banditpylib.learners.mab_learner import UCB

    def reset_ucb():
        learner = UCB(2)
        learner.reset()
        return learner

    def actions_update(learner, bandit_env):
        while True:
            pull = learner.actions(Context()).arm_pulls[0]
            feedback = Feedback()
            arm_feedback = feedback.arm_feedbacks.add()
            arm_feedback.arm.id = pull.arm.id
            arm_feedback.rewards.extend(bandit_env.pull(pull.arm.id) for _ in range(pull.times))
            learner.update(feedback)

    for name, table, bonus_round, expected in (("T8", UCB_TABLE, None, "consistent"),
                                               ("T8'", LOG_PLUS_ONE_TABLE, None, "rejected"),
                                               ("T8'", LOG_PLUS_ONE_TABLE, "current", "consistent")):
        yield case(BANDITPYLIB, "banditpylib/learners/mab_learner/ucb.py UCB", "ucb1",
                   f"bonus_round={bonus_round}" if bonus_round else "", name, 1000, expected,
                   lambda table=table, bonus_round=bonus_round: bandit("ucb1", reset_ucb, table, None, 1000,
                                                                       protocol=actions_update,
                                                                       bonus_round=bonus_round),
                   "sqrt(alpha ln t / T_i) with t the current round, one more than the plays so far (ucb.py lines "
                   "38, 47, 70: the time starts at 1 and grows after each update): the reading bonus_round=current, "
                   "the next row's flag")

    # SMPyBandits' UCBalpha, index mean + sqrt(alpha ln t / (2 N_k)): UCB1's bonus alpha / 2.
    smpy_alpha = smpy_policy(mirror, into, "UCBalpha.py", "smpy_ucb_alpha")

    for alpha, bonus in ((4, 2), (1, Fraction(1, 2))):
        def ucb_alpha(alpha=alpha):
            policy = smpy_alpha.UCBalpha(2, alpha=alpha)
            policy.startGame()
            return policy

        yield case(SMPY, "SMPyBandits/Policies/UCBalpha.py", "ucb1",
                   f"bonus={bonus} (its alpha = {alpha}), ties=uniform", "T8", n, "consistent",
                   lambda make=ucb_alpha, bonus=bonus: bandit("ucb1", make, UCB_TABLE, None, n,
                                                              protocol=choice_get_reward, bonus=bonus, ties="uniform"))


    # Ralami1859's MATLAB functions run in GNU Octave through oct2py, each index function called as its
    # experiment script calls it (DP_UCB_INTv2.m, DP_UCB_Bound.m, DP_UCB.m: their loops, whose Bernoulli draws
    # are the table's rewards); Octave's generator (laprnd.m draws with rand) is seeded from numpy's, which
    # the driver seeds before each run. About 15 ms an Octave call: 2000 runs a row.
    from oct2py import Oct2Py

    octave = Oct2Py()
    octave.addpath(checkout(mirror, *RALAMI, into))

    def seeded_octave():
        octave.eval(f"rand('state', {np.random.randint(2**31)});")

    def dp_ucb_int_v2(epsilon, rate):
        def play(_, bandit_env):
            seeded_octave()
            interval = int(np.ceil(1 / epsilon))  # DP_UCB_INTv2.m line 4
            pulls, sums, index = (np.zeros((1, bandit_env.arms)) for _ in range(3))
            for t in range(1, bandit_env.horizon + 1):
                index, arm = octave.IndexDPUCBINT(pulls, interval, rate, sums, t, index, nout=2)
                arm = int(arm) - 1
                sums[0, arm] += bandit_env.pull(arm)
                pulls[0, arm] += 1
        return play

    def each_once_then(index_of):
        """DP_UCB_Bound.m and DP_UCB.m: each arm once, then the first arm of the largest index (max), the
        index function returning the arms' sums with its noise added."""
        def play(_, bandit_env):
            seeded_octave()
            arms = bandit_env.arms
            sums = np.array([[bandit_env.pull(a) for a in range(arms)]], dtype=float)
            pulls, leaves = np.ones((1, arms)), np.ones((1, arms))
            for t in range(arms + 1, bandit_env.horizon + 1):
                index, sums = index_of(pulls, leaves, sums, t)
                sums = np.atleast_2d(sums)
                arm = int(np.argmax(index))
                sums[0, arm] += bandit_env.pull(arm)
                pulls[0, arm] += 1
                leaves += 1
        return play

    bound = each_once_then(lambda pulls, _, sums, t: octave.IndexDPBound(pulls, 1.0, sums, t, nout=2))
    dp_ucb = each_once_then(lambda pulls, leaves, sums, t: octave.IndexDPUCB(pulls, leaves, 1.0, sums, t, nout=2))
    yield case(RALAMI, "IndexDPUCBINT.m, DP_UCB_INTv2.m", "dp-ucb-int", "epsilon=1 (f = 1, v = 1.1)", "T8", 2000,
               "consistent", lambda: bandit("dp-ucb-int", lambda: None, UCB_TABLE, 1, 2000,
                                            protocol=dp_ucb_int_v2(1.0, 1.1)))
    yield case(RALAMI, "IndexDPBound.m, DP_UCB_Bound.m", "dp-ucb-bound", "epsilon=1", "T8", 2000, "rejected",
               lambda: bandit("dp-ucb-bound", lambda: None, UCB_TABLE, 1, 2000, protocol=bound),
               "another mechanism than the Hybrid one: line 6 adds one Lap(1/eps) to the running sum of every "
               "arm whose count is a power of two, at every round (again while the count stays), no eps/2 split "
               "and no tree: a reward that takes the count past a power of two (the 3rd, 5th, ...) enters the "
               "sum with no noise of its own, a privacy bug; and ln t of the current round in nu and the bonus "
               "(lines 7-8), where dpdtol reads t - 1")
    yield case(RALAMI, "IndexDPUCB.m, DP_UCB.m", "hybrid-ucb (nearest)", "epsilon=1", "T8", 2000, "rejected",
               lambda: bandit("hybrid-ucb", lambda: None, UCB_TABLE, 1, 2000, protocol=dp_ucb),
               "another algorithm: one Lap(1/eps) added to every arm's running sum at the rounds where NbrLeaf, "
               "the rounds since the first K (DP_UCB.m lines 13, 23), is a power of two (IndexDPUCB.m line 6), "
               "and an index with no privacy term, mean + sqrt(2 ln t / n) (line 7); dpdtol has no law of it")

def cases_more(mirror, into, n):
    """OpenDP's noisy max (from PyPI), menisadi/pydp's noisy max and
    exponential mechanism, DPCopula's exponential mechanism,
    Hedge in codetalker7's and lorenzofranze's full-information code (and the
    latter's UCB1), UCB1 in two
    tutorials' bandit code and in mabby, rovingbandit and masced-bandits (from
    PyPI)."""
    # OpenDP draws from the operating system's generator, not numpy's: the driver's seeds do not fix its
    # samples, and its p-values change from run to run (its verdicts do not, but with probability alpha).
    # make_noisy_max (rust/src/measurements/noisy_top_k/mod.rs at v0.15.1) runs permute_and_flip on the
    # scores times sign (lines 186, 193): without replacement under MaxDivergence (line 150), which is
    # exponential noise of scale `scale`, with replacement under zCDP (line 160), which is Gumbel noise.
    import warnings

    import opendp.prelude as dp

    dp.enable_features("contrib")
    space = dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.linf_distance(T=float)
    for measure, noise in ((dp.max_divergence(), "exponential"), (dp.zero_concentrated_divergence(), "gumbel")):
        select = dp.m.make_noisy_max(*space, measure, scale=2.0)
        yield case(OPENDP, f"opendp.measurements.make_noisy_max ({measure})", "rnm", f"noise={noise}, scale=2",
                   "scores 0,1,2,4", n, "consistent",
                   lambda select=select, noise=noise: mechanism(lambda v: select(list(v)), noise, 2, n))
    # The deprecated make_report_noisy_max_gumbel (rust/src/measurements/noisy_max/mod.rs lines 96-114 at
    # v0.15.1) is make_noisy_max under MaxDivergence with negate = matches!(optimize, Optimize::Max).
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # deprecated since 0.14 for make_noisy_max
        by_name = {optimize: dp.m.make_report_noisy_max_gumbel(*space, scale=2.0, optimize=optimize)
                   for optimize in ("max", "min")}
    for optimize, noise, expected, cause in (
        ("max", "gumbel", "rejected",
         "not Gumbel noise despite its name: it is make_noisy_max under MaxDivergence (noisy_max/mod.rs "
         "lines 107-113), permute-and-flip (exponential noise); and it selects the minimum: the next row"),
        ("max", "exponential", "rejected",
         "a bug: optimize='max' passes negate = matches!(optimize, Optimize::Max) = true (noisy_max/mod.rs "
         "line 112), and noisy_top_k multiplies the scores by Sign::from(true) = -1 (noisy_top_k/mod.rs lines "
         "186, 193): it reports the noisy minimum (arm 0 most often); 0.16.0 reports the maximum"),
        ("min", "exponential", "consistent", ""),
    ):
        yield case(OPENDP, f"opendp.measurements.make_report_noisy_max_gumbel (optimize='{optimize}')", "rnm",
                   f"noise={noise}, scale=2", "scores 0,1,2,4", n, expected,
                   lambda select=by_name[optimize], noise=noise: mechanism(lambda v: select(list(v)), noise, 2, n),
                   cause)

    # Acs, Castelluccia and Chen's exponential mechanism as DPCopula has it: run_exp_mechanism(items, eps) is
    # basic(items, eps / 2), which draws item i with probability proportional to exp(eps q_i / 2) by Python's
    # random; it returns the item, whose id is its index here.
    em = load(checkout(mirror, *DPCOPULA, into, ["DPCopula/exponential_mechanism.py"]),
              "DPCopula/exponential_mechanism.py", "dpcopula_exponential_mechanism")
    yield case(DPCOPULA, "DPCopula/exponential_mechanism.py run_exp_mechanism", "rnm", "noise=gumbel, scale=2",
               "scores 0,1,2,4", n, "consistent",
               lambda: mechanism(lambda v: em.run_exp_mechanism([em.PrivItem(q, i) for i, q in enumerate(v)],
                                                                1.0).id, "gumbel", 2, n))

    # menisadi/pydp's basic mechanisms take (data, domain, quality_function, eps) and return a domain element:
    # here the data are the scores, the domain their indices and the quality q(X, i) = X[i]. noisy_max adds
    # Lap(1/eps) to each quality (line 25); exponential_mechanism draws d with probability proportional to
    # exp(eps q / 2) (line 53) by its CDF (lines 63-69). The module imports gmpy2, unused by both.
    sys.modules.setdefault("gmpy2", types.ModuleType("gmpy2"))
    basicdp = load(checkout(mirror, *MENISADI, into, ["src/basicdp.py"]), "src/basicdp.py", "menisadi_basicdp")
    for function, noise, scale in (("noisy_max", "laplace", 1), ("exponential_mechanism", "gumbel", 2)):
        select = getattr(basicdp, function)
        yield case(MENISADI, f"src/basicdp.py {function}", "rnm", f"noise={noise}, scale={scale}",
                   "scores 0,1,2,4", n, "consistent",
                   lambda select=select, noise=noise, scale=scale: mechanism(
                       lambda v: select(list(v), list(range(len(v))), lambda x, i: x[i], 1.0), noise, scale, n))

    # Hedge (Hedge.py): weights *= exp(eta * rewards) with eta = sqrt(ln K / T), and a fresh draw each round,
    # arms numbered from 1 (Policy.py); it learns from the reward vector, here 1 - the round's losses.
    # At T = 2 its law is prefix-softmax's (round 1 uniform, round 2 the softmax of round 1 at temperature
    # 1/eta); from round 3 on Hedge draws again where prefix-softmax plays one action through block {2, 3}.
    codetalker7 = checkout(mirror, *CODETALKER7, into, ["Hedge.py", "Policy.py"])
    sys.path.insert(0, codetalker7)  # Hedge.py imports its base class as the top-level module Policy
    hedge = load(codetalker7, "Hedge.py", "codetalker7_hedge")
    sys.path.remove(codetalker7)

    def decision_feedback(horizon):
        def sampler():
            policy = hedge.Hedge(1, 2, horizon)

            def act(seen):
                if len(seen):
                    policy.feedback(1.0 - seen[-1])
                return policy.decision()
            return act
        return sampler

    for losses, name, expected in ((EXPERTS_2, "losses (0,1),(1,0)", "consistent"),
                                   (EXPERTS_3, "losses (0,1),(1,0),(0,1)", "rejected")):
        horizon = len(losses)
        temperature = 1 / math.sqrt(math.log(2) / horizon)  # 1/eta as its float, read exactly
        yield case(CODETALKER7, "Hedge.py Hedge", "prefix-softmax",
                   f"noise_scale=1/eta = {temperature:.6g} (eta = sqrt(ln 2 / {horizon}))", name, n, expected,
                   lambda losses=losses, horizon=horizon, temperature=temperature: full_information(
                       "prefix-softmax", decision_feedback(horizon), losses, 1, n, base=1, noise_scale=temperature),
                   "another algorithm past T = 2: Hedge draws afresh from the softmax of all past losses every "
                   "round, where prefix-softmax plays one action through each dyadic block: the next row tests it "
                   "as hedge")
    # The same code as dpdtol's `hedge` at its own learning rate: consistent at T = 8.
    horizon = len(EXPERTS_8)
    temperature = 1 / math.sqrt(math.log(2) / horizon)
    yield case(CODETALKER7, "Hedge.py Hedge", "hedge",
               f"noise_scale=1/eta = {temperature:.6g} (eta = sqrt(ln 2 / {horizon}))", "E8", n,
               "consistent",
               lambda: full_information("hedge", decision_feedback(horizon), EXPERTS_8, 1, n, base=1,
                                        noise_scale=temperature))

    # lorenzofranze's agents (src/agents) import their base class relatively and the package __init__ imports
    # every agent (GP-UCB among them): the package is made without its __init__. HedgeAgent plays by
    # pull_arm() / update(loss vector) (weights *= exp(-learning_rate * loss), a fresh draw each round):
    # at learning_rate 1/2, prefix-softmax at temperature 2 for T = 2, as codetalker7's Hedge.
    franze = checkout(mirror, *FRANZE, into, ["src/agents"])
    sys.modules["agents"] = types.ModuleType("agents")
    sys.modules["agents"].__path__ = [os.path.join(franze, "src", "agents")]
    from agents.HedgeAgent import HedgeAgent
    from agents.UCB1Agent import UCB1Agent

    def pull_arm_update_losses():
        policy = HedgeAgent(2, 0.5)

        def act(seen):
            if len(seen):
                policy.update(seen[-1])
            return policy.pull_arm()
        return act

    for losses, name, expected in ((EXPERTS_2, "losses (0,1),(1,0)", "consistent"),
                                   (EXPERTS_3, "losses (0,1),(1,0),(0,1)", "rejected")):
        yield case(FRANZE, "src/agents/HedgeAgent.py HedgeAgent", "prefix-softmax",
                   "noise_scale=2 (its learning_rate = 1/2)", name, n, expected,
                   lambda losses=losses: full_information("prefix-softmax", pull_arm_update_losses, losses, 1, n,
                                                          noise_scale=2),
                   "another algorithm past T = 2, as codetalker7's Hedge: a fresh draw every round (lines 14-17); "
                   "the next row tests it as hedge")
    yield case(FRANZE, "src/agents/HedgeAgent.py HedgeAgent", "hedge", "noise_scale=2 (its learning_rate = 1/2)",
               "E8", n, "consistent",
               lambda: full_information("hedge", pull_arm_update_losses, EXPERTS_8, 1, n, noise_scale=2))

    # Its UCB1Agent plays by pull_arm() / update(reward), each arm once in order, then the first of the
    # largest mean + range sqrt(2 ln T / N) (np.argmax), T the horizon it is given.
    def pull_arm_update_reward(policy, bandit_env):
        while True:
            policy.update(bandit_env.pull(int(policy.pull_arm())))

    for name, table, expected in (("T8", UCB_TABLE, "consistent"), ("T8'", LOG_PLUS_ONE_TABLE, "rejected")):
        yield case(FRANZE, "src/agents/UCB1Agent.py UCB1Agent", "ucb1", "(its T = 8, range = 1)", name, 1000,
                   expected,
                   lambda table=table: bandit("ucb1", lambda: UCB1Agent(2, 8), table, None, 1000,
                                              protocol=pull_arm_update_reward),
                   "another index, not UCB1: sqrt(2 ln T / N) with T the horizon (line 17), a fixed-horizon bonus, "
                   "where Auer et al.'s n is the plays so far")

    # Its UCB plays by get_action() / fit_step(action, reward) and imports its base classes from the package
    # bandit_problem.algorithm; c = 1 is UCB1's bonus 1 (c sqrt(ln n / n_j)).
    swasun = checkout(mirror, *SWASUN, into, ["bandit_problem/algorithm"])
    sys.path.insert(0, swasun)
    from bandit_problem.algorithm.ucb_bandit_algorithm import UcbBanditAlgorithm
    sys.path.remove(swasun)

    def get_action_fit_step(policy, bandit_env):
        with np.errstate(divide="ignore", invalid="ignore"):  # its index divides by an unplayed arm's count 0
            while True:
                action = policy.get_action()
                policy.fit_step(action, bandit_env.pull(int(action)))

    yield case(SWASUN, "bandit_problem/algorithm/ucb_bandit_algorithm.py UcbBanditAlgorithm", "ucb1",
               "bonus=1 (its c = 1)", "T8", 1000, "rejected",
               lambda: bandit("ucb1", lambda: UcbBanditAlgorithm(2, 1.0), UCB_TABLE, None, 1000,
                              protocol=get_action_fit_step, bonus=1),
               "a bug: get_action (line 62) returns np.argmax of get_upper_confidence_bound(), which is already the "
               "argmax index (lines 64-68), a scalar whose argmax is 0: arm 0 every round; and no arm is played "
               "once first (an unplayed arm's index divides by its count 0, line 67)")

    # The UCB1 of a reinforcement-learning tutorial: the BanditsBook protocol (select_arm / update after
    # initialize(K)); each arm once in order, then mean + sqrt(2 ln n / n_j), n the plays so far.
    munezou = load(checkout(mirror, *MUNEZOU, into, ["ReinforceLearning/bandit_problem/utils.py"]),
                   "ReinforceLearning/bandit_problem/utils.py", "munezou_bandit_utils")

    def munezou_ucb1():
        policy = munezou.UCB1([], [])
        policy.initialize(2)
        return policy

    for name, table in (("T8", UCB_TABLE), ("T8'", LOG_PLUS_ONE_TABLE)):
        yield case(MUNEZOU, "ReinforceLearning/bandit_problem/utils.py UCB1", "ucb1", "", name, 1000, "consistent",
                   lambda table=table: bandit("ucb1", munezou_ucb1, table, None, 1000))

    # mabby's UCB1Strategy (strategies/ucb.py): each arm once in order (lines 42-43), then
    # Q + alpha sqrt(ln t / N) with t the plays so far (lines 47, 51), the maximum drawn uniformly among equal
    # indices (utils.py random_argmax, rng.choice). Its package imports matplotlib for its plots (unused).
    # An Agent is primed with the numpy Generator it draws ties from, here one seeded from numpy's global
    # generator (which the driver seeds).
    for name in ("matplotlib", "matplotlib.pyplot"):
        sys.modules.setdefault(name, types.ModuleType(name))
    from mabby import Agent
    from mabby.strategies import UCB1Strategy

    def mabby_ucb1():
        agent = Agent(UCB1Strategy(alpha=math.sqrt(2)))
        agent.prime(2, 8, np.random.default_rng(np.random.randint(2**32)))  # K = 2, T = 8 (unused by UCB1)
        return agent

    def choose_update(agent, bandit_env):
        while True:
            agent.update(bandit_env.pull(agent.choose()))

    for name, table, ties, expected in (("T8", UCB_TABLE, None, "consistent"),
                                        ("B8'", CLICKS_UNTIED, None, "consistent"),
                                        ("B8", CLICKS_TIED, None, "rejected"),
                                        ("B8", CLICKS_TIED, "uniform", "rejected"),
                                        ("B8", CLICKS_TIED, "highest", "rejected"),
                                        ("B8", CLICKS_TIED, "ordered-uniform", "consistent")):
        yield case(MABBY, "mabby/strategies/ucb.py UCB1Strategy", "ucb1",
                   "alpha=sqrt(2)" + (f", ties={ties}" if ties else ""), name, 1000, expected,
                   lambda table=table, ties=ties: bandit("ucb1", mabby_ucb1, table, None, 1000,
                                                         protocol=choose_update, ties=ties),
                   "each arm once in order (ucb.py lines 42-43), then ties drawn uniformly (utils.py "
                   "random_argmax): ties=ordered-uniform, the last row's flag; at B8's tie in round 3 it plays "
                   "0,1,0 and 0,1,1 about half the time each, which lowest and highest give probability 0, and "
                   "uniform draws the first K rounds too (its round 1 is arm 0 in every run); same index "
                   "sqrt(2 ln n / n_j)")

    # rovingbandit's UCB1 (policies/regret_minimization/ucb.py) plays by select_arm() / update(arm, reward)
    # and draws ties from the numpy Generator of its seed, here one from numpy's global generator. Its package
    # __init__s import every policy and its plotting (core/result.py, matplotlib): the two modules UCB1 needs
    # are loaded without them.
    root = importlib.util.find_spec("rovingbandit").submodule_search_locations[0]
    for package in ("rovingbandit", "rovingbandit.core", "rovingbandit.policies",
                    "rovingbandit.policies.regret_minimization"):
        sys.modules[package] = types.ModuleType(package)
        sys.modules[package].__path__ = [os.path.join(root, *package.split(".")[1:])]
    from rovingbandit.policies.regret_minimization.ucb import UCB1 as RovingUCB1

    for name, table, flags, expected in (("T8", UCB_TABLE, {}, "consistent"),
                                         ("T8'", LOG_PLUS_ONE_TABLE, {}, "rejected"),
                                         ("T8'", LOG_PLUS_ONE_TABLE,
                                          dict(bonus_round="current", ties="ordered-uniform"), "consistent")):
        yield case(ROVINGBANDIT, "rovingbandit/policies/regret_minimization/ucb.py UCB1", "ucb1",
                   ", ".join(["(its exploration_factor = 2)"] + [f"{k}={v}" for k, v in flags.items()]), name, 1000,
                   expected,
                   lambda table=table, flags=flags: bandit(
                       "ucb1", lambda: RovingUCB1(2, seed=int(np.random.randint(2**32))), table, None, 1000,
                       protocol="select_arm", **flags),
                   "the readings bonus_round=current and ties=ordered-uniform, the next row's flags: "
                   "sqrt(2 ln(n + 1) / (n_j + 1e-10)) with n the plays so far (line 86), ln of the current round; "
                   "each arm once in order (lines 49-52), then ties drawn uniformly (lines 58-60)")

    # masced-bandits' UCB (bandits/UCB.py, formula "OG", auer2002UCB) adapts a running system: the system
    # starts in its initial configuration (bandit_options.py initialize_arguments), whose reward is the first
    # get_next_arm(reward) call's, then each arm once, then the first maximum of mean + sqrt(2 ln r / n_k),
    # r = bandit_round, the calls so far minus one (lines 37-43, 86-96). The driver plays the initial
    # configuration, arm 0, in round 1, and each arm returned after it.
    from masced_bandits.bandit_options import initialize_arguments
    from masced_bandits.bandits.UCB import UCB as MascedUCB

    initialize_arguments([0, 1], 0)

    def initial_then_get_next_arm(policy, bandit_env):
        arm = 0
        while True:
            arm = policy.get_next_arm(bandit_env.pull(arm))

    yield case(MASCED, "masced_bandits/bandits/UCB.py UCB", "ucb1", "(its formula OG, initial arm 0)", "T8", 1000,
               "rejected",
               lambda: bandit("ucb1", lambda: MascedUCB(formula="OG"), UCB_TABLE, None, 1000,
                              protocol=initial_then_get_next_arm),
               "another algorithm: the initial configuration's reward counts as a pull of arm 0 (lines 33-35), "
               "then each arm once (lines 39-40): arm 0 twice in K + 1 warm-up rounds; and ln of the calls so "
               "far minus one (lines 37, 43, 89)")


def leaning_dp_ts(mirror, into, n):
    """Only DP_TS.py is extracted (the mirror lacks the repository's PDF
    notes). It runs its own experiment when imported (line 366): it is
    imported with printing silenced and matplotlib replaced by a module of
    no-ops. Its experiment's loop (lines 285-296) pulls each arm once, then
    calls select_arm/update: the driver plays the same."""
    plot = types.ModuleType("matplotlib.pyplot")
    plot.__getattr__ = lambda name: lambda *a, **k: None
    matplotlib = types.ModuleType("matplotlib")
    matplotlib.pyplot = plot
    saved = {m: sys.modules.get(m) for m in ("matplotlib", "matplotlib.pyplot")}
    sys.modules.update({"matplotlib": matplotlib, "matplotlib.pyplot": plot})
    quiet, builtins.print = builtins.print, lambda *a, **k: None
    try:
        module = load(checkout(mirror, *LEANING_DP_TS, into, ["DP_TS.py"]), "DP_TS.py", "leaning_dp_ts")
    finally:
        builtins.print = quiet
        for m, old in saved.items():
            if old is None:
                sys.modules.pop(m)
            else:
                sys.modules[m] = old

    def their_loop(policy, bandit_env):
        for arm in range(bandit_env.arms):
            policy.update(arm, bandit_env.pull(arm))
        while True:
            arm = policy.select_arm()
            policy.update(arm, bandit_env.pull(arm))

    eps = 100.0
    make = lambda: module.PrivateThompsonSamplingBanditWithCorrection_O(2, eps, None)
    for reading, flags, cause in ((None, "", CAUSE_LEANING_DP_TS),
                                  ("last-update", ", bonus_round=last-update", CAUSE_LEANING_DP_TS_FROZEN)):
        yield case(LEANING_DP_TS, "DP_TS.py PrivateThompsonSamplingBanditWithCorrection_O", "dp-ts",
                   f"epsilon=100, noise_scale=1/100{flags}", "T8", n, "rejected",
                   lambda reading=reading: bandit("dp-ts", make, UCB_TABLE, eps, n, protocol=their_loop,
                                                  noise_scale=Fraction(1, 100), bonus_round=reading),
                   cause)


def markdown(rows):
    lines = ["| repository | path | commit | algorithm | dpdtol flags | table | n | verdict | p | cause |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        p = "" if r["p"] is None else f"{r['p']:.3g}"
        cause = "; ".join(c for c in (r["where"], r["cause"] if r["verdict"] != "consistent" else "") if c)
        lines.append(f"| {r['repository']} | `{r['path']}` | {r['commit'][:7]} | {r['target']} | {r['flags']} | "
                     f"{r['table']} | {r['n'] or '—'} | {r['verdict']} | {p} | {cause} |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mirror", default="/work/.mirror", help="the mirrored git directories, MIRROR/owner+name/repo")
    parser.add_argument("--n", type=int, default=20_000, help="runs of a random case on a short table (default 20000)")
    parser.add_argument("--n-long", type=int, default=40_000, help="runs of a case on the T = 2800 table (default 40000)")
    parser.add_argument("--only", default=None, help="run only the cases whose repository, path, target or table contain this")
    parser.add_argument("--json", default=None, help="write the rows to this file as JSON")
    args = parser.parse_args()
    mirror = os.path.abspath(args.mirror)
    out = os.path.abspath(args.json) if args.json else None
    rows, surprises = [], 0
    home = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="dpdtol-drive-") as folder:
        os.chdir(folder)
        for c in cases(mirror, os.path.join(folder, "src"), args.n, args.n_long):
            run = c.pop("run")
            if args.only and not any(args.only in c[k] for k in ("repository", "path", "target", "table")):
                continue
            verdict, p, where = "not run", None, ""
            if run is not None:
                try:
                    verdict, p, where = run()
                except DriveError as e:
                    verdict, p, where = "driver", 0.0, str(e)
            surprises += verdict != c["expected"]
            rows.append(dict(c, verdict=verdict, p=p, where=where))
            r = rows[-1]
            print(f"{r['repository']}@{r['commit'][:7]} {r['path']} [{r['target']} {r['flags']}]: {verdict}, p = {p}"
                  f"{'; ' + where if where else ''}{'' if verdict == c['expected'] else '  (recorded: ' + c['expected'] + ')'}",
                  file=sys.stderr, flush=True)
        os.chdir(home)  # out of the folder before it goes (Octave's exit handler reads the working folder)
    print(markdown(rows))
    if out:
        with open(out, "w") as f:
            json.dump(rows, f, indent=2)
    sys.exit(1 if surprises else 0)


if __name__ == "__main__":
    main()
