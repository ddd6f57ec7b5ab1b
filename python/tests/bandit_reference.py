"""numpy implementations of three private bandit algorithms, vectorised over n
independent runs, with planted bugs: what a researcher would write, tested
against dpdtol's pull-sequence laws in test_bandit_gof.py.

The reward-table contract (dpdtol.bandit): ``rewards`` is a T x K array in
[0, 1]; rounds are numbered from 1, arms from 0; the learner that pulls arm
``a`` at round t receives ``rewards[t - 1, a]`` and sees nothing else. Each
function returns an ``n x T`` int64 array of pulls and draws everything from
the numpy Generator it is given.
"""

import numpy as np


class _LazyMeans:
    """The private means of Hu et al.'s Algorithms 1 and 3 in n runs: line 2's
    first pull of each arm (mu~_j <- X_j + Lap), then the lazy schedule
    (lines 5-7 of Algorithm 1, 6-8 of Algorithm 3): N_J <- N_J + 1,
    Phi_J <- Phi_J + X_J(t); when N_J hits 2^(r_J + 1), O_J <- 2^(r_J + 1),
    mu~_J <- (Phi_J + Lap)/O_J, r_J <- r_J + 1, N_J <- 0, Phi_J <- 0.
    ``O == 0`` marks an arm not pulled yet. Bugs "noise-on-mean" and
    "epoch-off-by-one" as documented in ``anytime_lazy_ucb``."""

    def __init__(self, n, K, bug=None):
        self.rows = np.arange(n)
        self.mu = np.zeros((n, K))
        self.O = np.zeros((n, K), dtype=np.int64)
        self.r = np.zeros((n, K), dtype=np.int64)
        self.N = np.zeros((n, K), dtype=np.int64)
        self.Phi = np.zeros((n, K))
        self.bug = bug

    def observe(self, a, x, noise):
        """Arm ``a[i]`` pulled in run i gave ``x[i]``; ``noise[i]`` is a fresh Laplace draw."""
        first = self.O[self.rows, a] == 0
        rf, af = self.rows[first], a[first]
        self.mu[rf, af] = x[first] + noise[first]
        self.O[rf, af] = 1
        later = ~first
        rl, al = self.rows[later], a[later]
        self.N[rl, al] += 1
        self.Phi[rl, al] += x[later]
        limit = 2 ** (self.r[rl, al] + 1)
        n = self.N[rl, al]
        ends = n > limit if self.bug == "epoch-off-by-one" else n == limit
        re, ae, ze = rl[ends], al[ends], noise[later][ends]
        self.O[re, ae] = self.N[re, ae]
        if self.bug == "noise-on-mean":
            self.mu[re, ae] = self.Phi[re, ae] / self.O[re, ae] + ze
        else:
            self.mu[re, ae] = (self.Phi[re, ae] + ze) / self.O[re, ae]
        self.r[re, ae] += 1
        self.N[re, ae] = 0
        self.Phi[re, ae] = 0.0


def anytime_lazy_ucb(rewards, epsilon, n, rng, noise_scale=None, bonus=3.0, bug=None):
    """Anytime-Lazy-UCB, Hu, Huang, Mehta & Hegde (journal version), Algorithm 1:

        2: pull each arm j once: O_j <- 1, r_j <- 0, mu~_j <- X_j + Lap(1/eps),
           N_j <- 0, Phi_j <- 0
        3: for t = K+1, K+2, ...
        4:   mu-_j(t) = mu~_j + sqrt(3 ln(t)/O_j) + 3 ln(t)/(eps O_j);
             pull J_t in argmax_j mu-_j(t)
        5:   N_J <- N_J + 1, Phi_J <- Phi_J + X_J(t)
        6:   if N_J hits 2^(r_J + 1):
        7:     O_J <- 2^(r_J + 1), mu~_J <- (Phi_J + Lap(1/eps))/O_J,
               r_J <- r_J + 1, N_J <- 0, Phi_J <- 0

    Written as a UCB loop usually is: an arm never pulled has index +inf, and
    argmax takes the first maximum (np.argmax), so line 2 pulls arms 0..K-1
    in rounds 1..K. ``noise_scale`` (default 1/eps) is the Laplace scale,
    ``bonus`` the constant 3 of line 4.

    Planted bugs (``bug``):
      "noise-on-mean": line 7 adds Lap(1/eps) to the mean Phi_J/O_J, not to
          the sum;
      "log2": log2(t) for ln(t) in line 4;
      "epoch-off-by-one": line 6 tests N_J > 2^(r_J + 1), so an epoch ends
          one pull late (and O_J is the count it ends with);
      "bonus-constant": the constant of line 4 is 2, not the printed 3;
      "ties-last": argmax takes the last maximum (so the never-pulled arms,
          all +inf, are pulled from the last one down);
      "ties-last-after-line-2": the same from round K+1 on only, where the
          indices tie with probability 0 (Laplace noise is continuous): not a
          bug of the law.
    """
    rewards = np.asarray(rewards, dtype=float)
    T, K = rewards.shape
    scale = 1.0 / epsilon if noise_scale is None else noise_scale
    c = 2.0 if bug == "bonus-constant" else bonus
    log = np.log2 if bug == "log2" else np.log
    means = _LazyMeans(n, K, bug)
    pulls = np.empty((n, T), dtype=np.int64)
    for t in range(1, T + 1):
        O = means.O
        with np.errstate(divide="ignore", invalid="ignore"):
            index = means.mu + np.sqrt(c * log(t) / O) + c * log(t) / (epsilon * O)
        index[O == 0] = np.inf
        if bug == "ties-last" or (bug == "ties-last-after-line-2" and t > K):
            a = K - 1 - np.argmax(index[:, ::-1], axis=1)
        else:
            a = np.argmax(index, axis=1)
        pulls[:, t - 1] = a
        means.observe(a, rewards[t - 1, a], rng.laplace(0.0, scale, size=n))
    return pulls


def lazy_dp_ts(rewards, epsilon, n, rng, noise_scale=None, bonus=3.0):
    """Lazy-DP-TS, Hu, Huang, Mehta & Hegde (journal version), Algorithm 3:
    line 2 and the lazy private means of Algorithm 1; for t = K+1, .. draw
    theta_j ~ Beta(mu-_j O_j + 1, (1 - mu-_j) O_j + 1) with
    mu-_j = Clip_[0,1](mu~_j + 3 ln(t)/(eps O_j)), and pull argmax_j theta_j."""
    rewards = np.asarray(rewards, dtype=float)
    T, K = rewards.shape
    scale = 1.0 / epsilon if noise_scale is None else noise_scale
    means = _LazyMeans(n, K)
    pulls = np.empty((n, T), dtype=np.int64)
    for t in range(1, T + 1):
        if t <= K:
            a = np.full(n, t - 1)
        else:
            O = means.O
            mu_bar = np.clip(means.mu + bonus * np.log(t) / (epsilon * O), 0, 1)
            a = np.argmax(rng.beta(mu_bar * O + 1, (1 - mu_bar) * O + 1), axis=1)
        pulls[:, t - 1] = a
        means.observe(a, rewards[t - 1, a], rng.laplace(0.0, scale, size=n))
    return pulls


def dp_se_epoch_length(e, s, epsilon, beta):
    """R_e = floor(max{32 ln(8 s e^2/beta)/Delta_e^2, 8 ln(4 s e^2/beta)/(eps Delta_e)}) + 1,
    Delta_e = 2^-e, for epoch e with s surviving arms."""
    delta = 0.5 ** e
    r1 = 32 * np.log(8 * s * e * e / beta) / delta**2
    r2 = 8 * np.log(4 * s * e * e / beta) / (epsilon * delta)
    return np.floor(np.maximum(np.maximum(r1, r2), 0)).astype(np.int64) + 1


def dp_se(rewards, epsilon, n, rng, beta=None, noise_scale=None, epoch_lengths=None, bug=None):
    """DP-SE, differentially private successive elimination (Sajed & Sheffet,
    ICML 2019; the baseline of Hu et al.'s experiments):

        S <- [K]; e <- 0
        repeat
          e <- e + 1; Delta_e <- 2^-e
          R_e <- floor(max{32 ln(8|S|e^2/beta)/Delta_e^2, 8 ln(4|S|e^2/beta)/(eps Delta_e)}) + 1
          for each i in S (in increasing order): pull i R_e times,
              mu~_i <- (sum of those R_e rewards + Lap(1/eps))/R_e
          h_e <- sqrt(ln(8|S|e^2/beta)/(2 R_e)); c_e <- ln(4|S|e^2/beta)/(R_e eps)
          remove from S every j with max_{i in S} mu~_i - mu~_j > 2 (h_e + c_e)
        until |S| = 1, then pull the survivor to the horizon.

    ``beta`` defaults to 1/T; ``epoch_lengths`` (R_1, R_2, ...; the last
    repeats) replaces the printed R_e, which is in the hundreds; ``noise_scale``
    (default 1/eps) is the Laplace scale on an epoch's reward sum.

    Planted bugs (``bug``):
      "noise-on-mean": Lap(1/eps) is added to the mean, not to the sum;
      "log2": log2 for ln in h_e and c_e;
      "margin-constant": an arm is removed when the gap exceeds h_e + c_e
          (the printed factor 2 dropped);
      "epoch-off-by-one": the epoch counter used in h_e and c_e starts at 2.
    """
    rewards = np.asarray(rewards, dtype=float)
    T, K = rewards.shape
    beta = 1.0 / max(T, 2) if beta is None else beta
    scale = 1.0 / epsilon if noise_scale is None else noise_scale
    log = np.log2 if bug == "log2" else np.log
    margin = 1.0 if bug == "margin-constant" else 2.0
    rows = np.arange(n)

    def length(e, s):
        if epoch_lengths is None:
            return dp_se_epoch_length(e, s, epsilon, beta)
        return np.asarray(epoch_lengths, dtype=np.int64)[np.minimum(e, len(epoch_lengths)) - 1]

    alive = np.ones((n, K), dtype=bool)
    e = np.ones(n, dtype=np.int64)
    R = length(e, K) * np.ones(n, dtype=np.int64)
    position = np.zeros(n, dtype=np.int64)  # rank in S of the arm being pulled
    done = np.zeros(n, dtype=np.int64)
    total = np.zeros(n)
    noisy = np.full((n, K), -np.inf)
    pulls = np.empty((n, T), dtype=np.int64)
    for t in range(1, T + 1):
        s = alive.sum(axis=1)
        rank = np.cumsum(alive, axis=1) - 1  # rank of each alive arm in S
        a = np.argmax(alive & (rank == position[:, None]), axis=1)
        pulls[:, t - 1] = a
        x = rewards[t - 1, a]
        noise = rng.laplace(0.0, scale, size=n)
        act = s > 1
        done[act] += 1
        total[act] += x[act]
        block = act & (done == R)
        b, ab = rows[block], a[block]
        if bug == "noise-on-mean":
            noisy[b, ab] = total[block] / R[block] + noise[block]
        else:
            noisy[b, ab] = (total[block] + noise[block]) / R[block]
        done[block] = 0
        total[block] = 0.0
        position[block] += 1
        end = block & (position == s)
        if end.any():
            ee = e[end] + (1 if bug == "epoch-off-by-one" else 0)
            se = s[end]
            radius = np.sqrt(log(8 * se * ee**2 / beta) / (2 * R[end])) + log(
                4 * se * ee**2 / beta
            ) / (R[end] * epsilon)
            kept = np.where(alive[end], noisy[end], -np.inf)
            best = kept.max(axis=1)
            alive[end] &= ~(best[:, None] - kept > margin * radius[:, None])
            noisy[end] = -np.inf
            e[end] += 1
            position[end] = 0
            R[end] = length(e[end], alive[end].sum(axis=1))
    return pulls

