"""The driver (dpdtol.drive) and its assertion helpers (dpdtol.testing):
policies written here from the papers' pseudo-code, in plain Python round
by round, are driven through every protocol and pass; planted bugs are
rejected with the round of the departure named; bad arms name their run and
round. Fixed seeds: deterministic.
"""

import math
import random
import time

import numpy as np
import pytest

from dpdtol import TooLargeError
from dpdtol.drive import DriveError, drive_bandit, drive_full_information, drive_mechanism
from dpdtol.testing import assert_bandit_policy, assert_full_information_sampler, assert_mechanism
from planted import DpSe

EPSILON = 1
ALPHA = 1e-6  # a correct policy is rejected with probability < 1e-6

# DP-SE, K = 2, T = 12: epochs of R = 2 pulls of each arm and Laplace noise of
# scale 8 on each block's sum. At the end of epoch 1 (round 4), with beta =
# 1/12 and |S| = 2, the margin on the means is 2(h + c) = 2(sqrt(ln 192 / 4) +
# ln 96 / 2) = 6.86; the means differ by 1 and the noise difference on the
# means is Z_0 - Z_1 over R = 2 (Laplace scale 4 each), so arm 1 is eliminated
# with probability G(2 (6.86 - 1)) = 1/2 e^(-11.7/8) (1 + 11.7/16) = 0.20:
# both outcomes are frequent.
DP_SE_TABLE = [[1.0, 0.0]] * 12
DP_SE_PARAMS = dict(epoch_length=[2], noise_scale=8)


def dp_se(bug=None):
    """DP-SE written from its pseudo-code (planted.py) on ``DP_SE_TABLE``;
    ``bug="shared-noise"`` plants one Laplace draw per epoch shared by every
    arm, so that the noise cancels in the differences."""
    return DpSe((len(DP_SE_TABLE), 2), EPSILON, epoch_length=[2], noise_scale=8, bug=bug)


def test_dp_se_from_the_pseudo_code_passes():
    result = assert_bandit_policy("dp-se", dp_se, DP_SE_TABLE, EPSILON, n=20_000, seed=1, alpha=ALPHA, **DP_SE_PARAMS)
    assert result.chi_square_tests[0]["cells"] > 3  # the noise is exercised


# The shared draw is detected at n = 50 (the smallest of 10, 20, 50, 100 at
# seed 1): the noise cancels, so no arm is ever eliminated, where the law
# eliminates one at round 4 with probability 0.20 + 0.14 (see below).
SHARED_NOISE_DETECTED_AT = 50


def test_shared_noise_is_rejected_and_the_round_named():
    shared = lambda: dp_se("shared-noise")  # noqa: E731
    for n in (10, 20, 50, 100):
        try:
            assert_bandit_policy("dp-se", shared, DP_SE_TABLE, EPSILON, n=n, seed=1, alpha=ALPHA, **DP_SE_PARAMS)
        except AssertionError:
            break
    else:
        pytest.fail("the shared Laplace draw was not detected at n <= 100")
    assert n == SHARED_NOISE_DETECTED_AT
    # Rounds 1-4 are forced (blocks of two pulls of each arm); the first
    # decision, at the end of round 4, shows in round 5: the law eliminates
    # arm 0 with probability G(2 (6.86 + 1)) = 1/2 e^(-15.7/8) (1 + 15.7/16)
    # = 0.14 (round 5 then pulls arm 1); the shared draw never does, and the
    # missing prefix 0,0,1,1,1 is the departure named.
    with pytest.raises(AssertionError) as e:
        assert_bandit_policy("dp-se", shared, DP_SE_TABLE, EPSILON, n=1000, seed=1, alpha=ALPHA, **DP_SE_PARAMS)
    assert "first departs from the law at round 5, pulls 0,0,1,1,1: observed 0" in str(e.value), str(e.value)


class Ucb1:
    """UCB1 (Auer, Cesa-Bianchi & Fischer 2002): each arm once, then the
    first arm of largest mean_j + sqrt(2 ln n / n_j), n the pulls so far."""

    def __init__(self, arms=2):
        self.counts, self.sums = [0] * arms, [0.0] * arms

    def select(self):
        n = sum(self.counts)
        if n < len(self.counts):
            return n
        index = [s / c + math.sqrt(2 * math.log(n) / c) for s, c in zip(self.sums, self.counts)]
        return index.index(max(index))

    def update(self, arm, reward):
        self.counts[arm] += 1
        self.sums[arm] += reward


class SelectArm(Ucb1):
    def select_arm(self):
        return Ucb1.select(self)

    select = None


class PullArm(Ucb1):
    def pull_arm(self):
        return Ucb1.select(self)

    select = None


class Step:
    """``arm = step(reward, arm)``: told the last round, returns the next arm."""

    def __init__(self):
        self.inner = Ucb1()

    def step(self, reward, arm):
        if arm is not None:
            self.inner.update(arm, reward)
        return self.inner.select()


class Run:
    """Plays by itself against ``bandit.pull`` until stopped."""

    def run(self, bandit):
        inner = Ucb1(bandit.arms)
        while True:
            arm = inner.select()
            inner.update(arm, bandit.pull(arm))


UCB_TABLE = [[0.5, 0.25], [0.0, 1.0], [1.0, 0.0], [0.25, 0.75], [0.5, 0.5], [1.0, 0.0], [0.0, 1.0], [0.5, 0.25]]


@pytest.mark.parametrize(
    "policy", [Ucb1, SelectArm, PullArm, Step, Run, Ucb1()], ids=["select", "select_arm", "pull_arm", "step", "run", "object"]
)
def test_protocols_drive_the_same_policy(policy):
    pulls = drive_bandit(policy, UCB_TABLE, 20, seed=3)
    assert (pulls == pulls[0]).all()
    assert_bandit_policy("ucb1", policy, UCB_TABLE, None, n=20, seed=3)


def test_a_play_function_drives_any_protocol():
    class Ask:
        def __init__(self):
            self.inner = Ucb1()

    def play(policy, bandit):
        for _ in range(bandit.horizon):
            arm = policy.inner.select()
            policy.inner.update(arm, bandit.pull(arm))

    pulls = drive_bandit(Ask, UCB_TABLE, 3, seed=0, protocol=play)
    assert (pulls == drive_bandit(Ucb1, UCB_TABLE, 3, seed=0)).all()


def test_arms_out_of_range_or_not_integers_name_the_round():
    class Bad:
        def __init__(self, arm):
            self.t, self.arm = 0, arm

        def select(self):
            self.t += 1
            return self.arm if self.t == 3 else 0

        def update(self, arm, reward):
            pass

    with pytest.raises(DriveError, match=r"run 0, round 3: arm 2 is not one of the K = 2 arms 0\.\.1"):
        drive_bandit(lambda: Bad(2), UCB_TABLE, 5, seed=0)
    with pytest.raises(DriveError, match=r"run 0, round 3: the arm is 0\.5 \(float\), not an integer"):
        drive_bandit(lambda: Bad(0.5), UCB_TABLE, 5, seed=0)
    with pytest.raises(DriveError, match=r"run 0, round 3: arm 2 is not one"):
        assert_bandit_policy("ucb1", lambda: Bad(2), UCB_TABLE, None, n=5)
    # 1-based code: arm 2 is fine, arm 0 is not.
    with pytest.raises(DriveError, match=r"round 1: arm 0 is not one of the K = 2 arms 1\.\.2 \(base=1\)"):
        drive_bandit(lambda: Bad(2), UCB_TABLE, 5, seed=0, base=1)


def test_a_run_short_of_the_horizon_and_a_raising_policy_are_named():
    class Short:
        def run(self, bandit):
            for _ in range(3):
                bandit.pull(0)

    with pytest.raises(DriveError, match=r"run 0: the policy stopped after 3 of the T = 8 rounds"):
        drive_bandit(Short, UCB_TABLE, 2, seed=0)

    class Raises(Ucb1):
        def update(self, arm, reward):
            if sum(self.counts) == 4:
                raise KeyError("oops")
            Ucb1.update(self, arm, reward)

    with pytest.raises(DriveError, match=r"run 0, after 5 rounds: the policy raised KeyError"):
        drive_bandit(Raises, UCB_TABLE, 2, seed=0)


def test_runs_over_the_sample_limit_are_refused_before_any_runs():
    """n x T over 2·10^8 values is refused with its size and force=True,
    before the policy, sampler or mechanism is called and before the pull
    array is allocated (10^15 runs of T = 8 would be 64 PB); with force the
    limit is lifted (the runs start: the factory is called)."""

    def never(*_):
        raise AssertionError("called")

    def refused(size, call):
        with pytest.raises(TooLargeError, match=rf"\b{size}, over the limit of 200000000; pass force=True"):
            call()

    n = 10**15
    refused(8 * n, lambda: drive_bandit(never, UCB_TABLE, n, seed=0))
    refused(8 * n, lambda: assert_bandit_policy("ucb1", never, UCB_TABLE, None, n=n))
    refused(2 * n, lambda: drive_full_information(never, [[0, 1], [1, 0]], n, seed=0))
    refused(n, lambda: drive_mechanism(never, [0, 1], n, seed=0))
    refused(n, lambda: assert_mechanism(never, losses=[0, 1], noise="gumbel", scale=1, n=n))
    # 25 000 000 runs of T = 8 are 2·10^8 values, at the limit: they start
    # (the factory is called); one more run is refused, and starts with force.
    with pytest.raises(DriveError, match="the policy raised AssertionError"):
        drive_bandit(never, UCB_TABLE, 25_000_000, seed=0)
    refused(200_000_008, lambda: drive_bandit(never, UCB_TABLE, 25_000_001, seed=0))
    with pytest.raises(DriveError, match="the policy raised AssertionError"):
        drive_bandit(never, UCB_TABLE, 25_000_001, seed=0, force=True)
    with pytest.raises(TypeError, match="force: expected True or False"):
        drive_bandit(never, UCB_TABLE, 1, seed=0, force="yes")
    with pytest.raises(DriveError, match="the mechanism raised AssertionError"):
        drive_mechanism(never, [0, 1], 1, seed=0, force=np.bool_(False))


def test_runs_are_seeded_from_the_seed():
    class Coin:
        def select(self):
            return int(np.random.random() < 0.5) if random.random() < 2 else 0

        def update(self, arm, reward):
            pass

    a = drive_bandit(Coin, UCB_TABLE, 200, seed=5)
    assert (a == drive_bandit(Coin, UCB_TABLE, 200, seed=5)).all()
    assert (a != drive_bandit(Coin, UCB_TABLE, 200, seed=6)).any()
    assert len({tuple(r) for r in a}) > 100  # runs differ from one another


# Prefix-softmax (Cesari & Colomboni §4) on T = 7 rounds: blocks {1}, {2, 3},
# {4..7}; A_0 uniform; A_{r+1} ~ softmax(-L_r(M_r) / temperature), M_0 = 1,
# M_r uniform on {2^(r-1) + 1, .., 2^r}.
FULL_LOSSES = [[0.0, 1.0], [1.0, 0.0], [0.0, 1.0], [0.0, 0.5], [1.0, 0.0], [0.0, 1.0], [0.5, 0.5]]
TEMPERATURE = 1


def prefix_softmax(temperature=TEMPERATURE):
    state = {}

    def act(seen):
        t = len(seen) + 1
        if t == 1:
            state["action"] = np.random.randint(2)
        elif t & (t - 1) == 0:  # t = 2^(r+1) opens a block: read block r
            r = t.bit_length() - 2
            m = 1 if r == 0 else np.random.randint(2 ** (r - 1) + 1, 2**r + 1)
            weights = np.exp(-seen[2**r - 1 : 2**r - 1 + m].sum(axis=0) / temperature)
            state["action"] = np.random.choice(2, p=weights / weights.sum())
        return state["action"]

    return act


def test_a_full_information_sampler_passes_and_a_wrong_temperature_fails():
    assert_full_information_sampler(
        "prefix-softmax", prefix_softmax, FULL_LOSSES, EPSILON, n=20_000, seed=2, factory=True,
        noise_scale=TEMPERATURE, alpha=ALPHA,
    )
    with pytest.raises(AssertionError, match=r"choice 1 \(rounds 2–3\), action 1: observed"):
        assert_full_information_sampler(
            "prefix-softmax", lambda: prefix_softmax(TEMPERATURE / 4), FULL_LOSSES, EPSILON, n=20_000,
            seed=2, factory=True, noise_scale=TEMPERATURE, alpha=ALPHA,
        )
    with pytest.raises(DriveError, match=r"run 0, round 1: arm 5 is not one"):
        drive_full_information(lambda seen: 5, FULL_LOSSES, 3, seed=0)


# Hedge (Freund & Schapire 1997) on the same rounds: round t plays j with probability proportional to
# exp(-eta L_j(t-1)), L_j(t-1) the losses of j summed over rounds 1..t-1, a fresh draw every round;
# Decreasing Hedge (Mourtada & Gaiffas 2019) with eta_t = c sqrt(ln K / t).
ETA = 1.0


def hedge(eta=ETA, bug=None, decreasing=False):
    """Hedge from its formula; ``bug="doubled"`` plants 2 eta, ``bug="stale"`` sums the losses of rounds
    1..t-2 only (the last round seen left out)."""

    def act(seen):
        t = len(seen) + 1
        rate = eta * math.sqrt(math.log(2) / t) if decreasing else eta
        if bug == "doubled":
            rate *= 2
        kept = seen[:-1] if bug == "stale" and len(seen) else seen
        cumulative = np.asarray(kept, dtype=float).reshape(-1, 2).sum(axis=0)
        weights = np.exp(-rate * (cumulative - cumulative.min()))
        return np.random.choice(2, p=weights / weights.sum())

    return act


def test_hedge_passes_and_planted_bugs_fail():
    assert_full_information_sampler(
        "hedge", hedge, FULL_LOSSES, EPSILON, n=20_000, seed=3, factory=True, noise_scale=1 / ETA, alpha=ALPHA,
    )
    # c = 2 is decreasing-hedge's default (noise_scale = 1/c = 1/2).
    assert_full_information_sampler(
        "decreasing-hedge", lambda: hedge(2.0, decreasing=True), FULL_LOSSES, EPSILON, n=20_000, seed=4,
        factory=True, alpha=ALPHA,
    )
    for bug in ("doubled", "stale"):
        with pytest.raises(AssertionError, match=r"choice \d \(round \d\), action \d: observed"):
            assert_full_information_sampler(
                "hedge", lambda bug=bug: hedge(bug=bug), FULL_LOSSES, EPSILON, n=20_000, seed=3, factory=True,
                noise_scale=1 / ETA, alpha=ALPHA,
            )


SCORES = [0, 1, 2, 4]


def test_one_shot_mechanisms_on_scores():
    gumbel = lambda s: np.argmax(s + np.random.gumbel(scale=2.0, size=len(s)))  # noqa: E731
    laplace = lambda s: np.argmax(s + np.random.laplace(scale=2.0, size=len(s)))  # noqa: E731
    assert_mechanism(gumbel, scores=SCORES, noise="gumbel", scale=2, n=20_000, seed=4, alpha=ALPHA)
    assert_mechanism(laplace, scores=SCORES, noise="laplace", scale=2, n=20_000, seed=4, alpha=ALPHA)
    # The same with losses: the mechanism selects the smallest loss minus
    # Gumbel noise (plus it would be another law: the Gumbel is skewed).
    smallest = lambda x: np.argmin(x - np.random.gumbel(scale=2.0, size=len(x)))  # noqa: E731
    assert_mechanism(smallest, losses=SCORES, noise="gumbel", scale=2, n=20_000, seed=4, alpha=ALPHA)
    with pytest.raises(AssertionError, match=r"index 3: observed \d+, expected"):
        assert_mechanism(laplace, scores=SCORES, noise="laplace", scale=1, n=20_000, seed=4, alpha=ALPHA)
    with pytest.raises(DriveError, match=r"call 0: the arm is 1.0 \(float\), not an integer"):
        drive_mechanism(lambda s: 1.0, SCORES, 2, seed=0)


def test_driving_a_python_policy_a_hundred_thousand_times_at_t8():
    """10^5 runs of a pure-Python policy (UCB1 above) at T = 8, driven and
    tested: 1.8 s of CPU on the development machine (0.96 s of it the
    driver's own work, measured with a policy that does nothing). The bound is
    the target, 10 s, on CPU time, which a loaded machine does not inflate as
    it does wall-clock time."""
    start = time.process_time()
    assert_bandit_policy("ucb1", Ucb1, UCB_TABLE, None, n=100_000, seed=0)
    seconds = time.process_time() - start
    assert seconds < 10, f"{seconds:.1f} s"


def test_code_that_changes_the_callers_table_is_tested_on_the_table_it_was_given():
    # UCB1 (lowest ties, base 0) on A pulls 0, 1, 0: in round 3 both arms
    # have one play and reward sum 1. On B arm 0's sum is 0, so it pulls
    # 0, 1, 1. The policy plays B's sequence and rewrites the caller's table
    # into B while it runs; the test must read A, the table it was given.
    table = [[1, 0], [0, 1], [0, 0]]
    b_table = [[0, 0], [0, 1], [0, 0]]

    class Rewrites:
        def run(self, bandit):
            table[0][0] = b_table[0][0]
            for arm in (0, 1, 1):
                bandit.pull(arm)

    with pytest.raises(AssertionError, match="reject"):
        assert_bandit_policy("ucb1", Rewrites, table, None, n=20, seed=0)

    # Report-noisy-max with Gumbel noise of scale 1 on the losses (0, 1)
    # selects index 1 with probability e^-1/(1 + e^-1) = 0.269; the
    # mechanism rewrites the losses into (1, 0) and selects by them
    # (index 1 with probability 0.731).
    losses = [0, 1]

    def rewrites_its_losses(values):
        losses[:] = [1, 0]
        return int(np.argmin(np.asarray(losses, dtype=float) - np.random.gumbel(size=2)))

    with pytest.raises(AssertionError, match="reject"):
        assert_mechanism(rewrites_its_losses, losses=losses, noise="gumbel", scale=1, n=2000, seed=0)


def test_a_mechanism_piling_on_an_unlikely_index_is_rejected_when_one_group_is_left():
    # Gumbel noise of scale 1 on the losses (0, 10): index 1 has probability
    # e^-10/(1 + e^-10) = 4.5e-5, an expected count of 0.45 in 10^4 calls,
    # so the two cells pool into one group; every call selecting it is
    # P(Bin(10^4, 4.5e-5) >= 10^4), far below alpha.
    with pytest.raises(AssertionError, match="reject"):
        assert_mechanism(lambda values: 1, losses=[0, 10], noise="gumbel", scale=1, n=10_000, seed=0)
    assert not assert_mechanism(lambda values: 0, losses=[0, 10], noise="gumbel", scale=1, n=10_000, seed=0).rejected


def test_a_mechanism_always_selecting_the_likeliest_index_is_rejected_when_one_group_is_left():
    # Gumbel noise of scale 1 on the losses (0, 0.3, 0.5, 0.5): index 0 has
    # probability 1/(1 + e^-0.3 + 2e^-0.5) = 0.338; ten calls expect
    # (3.4, 2.5, 2.0, 2.0), one pooled group. All ten on index 0 is
    # P(Bin(10, 0.662) <= 0) = 0.338^10 = 2e-5 for the count outside it,
    # twice that below alpha/2; the mechanism itself passes at the same size.
    losses = [0, 0.3, 0.5, 0.5]
    with pytest.raises(AssertionError, match="reject"):
        assert_mechanism(lambda values: 0, losses=losses, noise="gumbel", scale=1, n=10, seed=0)

    def report_noisy_max(values):
        return int(np.argmin(values - np.random.gumbel(size=len(values))))

    assert not assert_mechanism(report_noisy_max, losses=losses, noise="gumbel", scale=1, n=10, seed=0).rejected
