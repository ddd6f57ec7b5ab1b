"""Policies written from the papers' pseudo-code, one run at a time, with the
``select() -> arm`` / ``update(arm, reward)`` protocol that ``dpdtol.drive``
plays: DP-SE (both pull orders, every rounding of its epoch lengths),
DP-UCB (one binary mechanism per arm) and DP-UCB-Bound (one Hybrid mechanism
per arm), each with planted bugs. Arms are
numbered from 0; every draw comes from numpy's global generator, which the
driver seeds before each run (so a policy is given as a factory); tested
in test_planted.py.
"""

import math

import numpy as np


def laplace(scale):
    return np.random.laplace(0.0, scale)


class DpSe:
    """DP-SE, Sajed & Sheffet (ICML 2019), as dpdtol reads it
    (src/bandit/policy/dp_se.rs):

        S <- [K]; e <- 0
        repeat
          e <- e + 1; Delta_e <- 2^-e
          R_e <- round(max{32 ln(8|S|e^2/beta)/Delta_e^2, 8 ln(4|S|e^2/beta)/(eps Delta_e)})
          pull each i in S R_e times (blocks: i's R_e pulls in turn;
              round-robin: the arms of S in turn, R_e rounds of them)
          mu~_i <- (sum of i's R_e rewards + Lap(1/eps))/R_e, a fresh draw per arm
          c_e <- sqrt(ln(8|S|e^2/beta)/(2 R_e)) + ln(4|S|e^2/beta)/(eps R_e)
          remove from S every j with mu~_j < max_i mu~_i - 2 c_e
        until |S| = 1, then pull the survivor to the horizon.

    ``beta`` defaults to 1/T; ``rounding`` is "floor-plus-one" (floor + 1),
    "ceiling" or "floor" (at least 1); ``epoch_length`` (R_1, R_2, ..; the
    last repeats) replaces the printed R_e; ``noise_scale`` (default 1/eps)
    is the Laplace scale on a reward sum.

    Planted bugs (``bug``): "shared-noise", one Laplace draw per epoch added
    to every arm's sum (the noise cancels in the comparison); "half-noise",
    the scale halved.
    """

    def __init__(self, rewards_shape, epsilon, beta=None, noise_scale=None, epoch_length=None,
                 pull_order="blocks", rounding="floor-plus-one", bug=None):
        horizon, arms = rewards_shape
        self.eps = epsilon
        self.beta = 1.0 / max(horizon, 2) if beta is None else beta
        self.scale = 1.0 / epsilon if noise_scale is None else noise_scale
        if bug == "half-noise":
            self.scale /= 2
        self.lengths, self.order, self.rounding, self.bug = epoch_length, pull_order, rounding, bug
        self.alive = list(range(arms))
        self.e = 0
        self._next_epoch()

    def _length(self):
        if self.lengths is not None:
            return self.lengths[min(self.e, len(self.lengths)) - 1]
        s, e, delta = len(self.alive), self.e, 0.5 ** self.e
        r = max(32 * math.log(8 * s * e * e / self.beta) / delta**2,
                8 * math.log(4 * s * e * e / self.beta) / (self.eps * delta))
        if self.rounding == "ceiling":
            return max(math.ceil(r), 1)
        if self.rounding == "floor":
            return max(math.floor(r), 1)
        return math.floor(r) + 1

    def _next_epoch(self):
        self.e += 1
        self.R = self._length()
        if self.order == "round-robin":
            self.plan = self.alive * self.R
        else:
            self.plan = [i for i in self.alive for _ in range(self.R)]
        self.plan.reverse()
        self.sums = dict.fromkeys(self.alive, 0.0)

    def select(self):
        return self.plan[-1] if self.plan else self.alive[0]

    def update(self, arm, reward):
        if len(self.alive) == 1:
            return
        self.plan.pop()
        self.sums[arm] += reward
        if self.plan:
            return
        shared = laplace(self.scale) if self.bug == "shared-noise" else None
        noisy = {i: (self.sums[i] + (laplace(self.scale) if shared is None else shared)) / self.R
                 for i in self.alive}
        s, e, R = len(self.alive), self.e, self.R
        c = math.sqrt(math.log(8 * s * e * e / self.beta) / (2 * R)) + math.log(4 * s * e * e / self.beta) / (self.eps * R)
        best = max(noisy.values())
        self.alive = [i for i in self.alive if not noisy[i] < best - 2 * c]
        if len(self.alive) > 1:
            self._next_epoch()


class BinaryCounter:
    """Chan, Shi & Song (2010), Algorithm 2, over any number of items: item
    i completes the node of level l = (trailing zeros of i):
    alpha_l <- x + sum_{k<l} alpha_k, alpha_k and alpha^_k <- 0 for k < l,
    alpha^_l <- alpha_l + Lap(scale); the noisy prefix sum after i items is
    the sum of alpha^_k over the one bits k of i."""

    def __init__(self, scale):
        self.scale, self.items = scale, 0
        self.alpha, self.alpha_hat = [], []

    def insert(self, x):
        self.items += 1
        level = (self.items & -self.items).bit_length() - 1
        while len(self.alpha) <= level:
            self.alpha.append(0.0)
            self.alpha_hat.append(0.0)
        node = x + sum(self.alpha[:level])
        for k in range(level):
            self.alpha[k] = self.alpha_hat[k] = 0.0
        self.alpha[level] = node
        self.alpha_hat[level] = node + laplace(self.scale)

    def prefix(self):
        return sum(a for k, a in enumerate(self.alpha_hat) if self.items >> k & 1)


class DpUcb:
    """DP-UCB, Mishra & Thakurta (UAI 2015), Algorithm 1, as dpdtol reads it
    (src/bandit/policy/dp_ucb.rs):

        each arm's binary mechanism: L = ceil(log2 T) levels, every node Lap(L/eps)
        pull each arm once, inserting the reward into its tree
        for t = K+1..T:
          mu^_a = (noisy prefix sum of arm a's tree)/n_a
          pull argmax_a mu^_a + sqrt(2 ln(t - 1)/n_a) + Gamma/n_a (the first maximum),
            Gamma = K ln(T)^2 ln(K T ln(T)/gamma)/eps
          insert the reward into the pulled arm's tree

    Planted bugs (``bug``): "level-missing", the node scale (L - 1)/eps (a
    level left out of the budget); "half-noise", L/(2 eps).
    """

    def __init__(self, rewards_shape, epsilon, gamma=0.1, bug=None):
        horizon, arms = rewards_shape
        levels = max(1, math.ceil(math.log2(horizon)))
        if bug == "level-missing":
            levels -= 1
        scale = levels / epsilon / (2 if bug == "half-noise" else 1)
        self.arms, self.t = arms, 0
        self.G = arms * math.log(horizon) ** 2 * math.log(arms * horizon * math.log(horizon) / gamma) / epsilon
        self.trees = [BinaryCounter(scale) for _ in range(arms)]

    def select(self):
        t = self.t + 1
        if t <= self.arms:
            return t - 1
        index = [tree.prefix() / tree.items + math.sqrt(2 * math.log(t - 1) / tree.items) + self.G / tree.items
                 for tree in self.trees]
        return index.index(max(index))

    def update(self, arm, reward):
        self.t += 1
        self.trees[arm].insert(reward)


class HybridCounter:
    """Chan, Shi & Song's Hybrid mechanism as DP-UCB-Bound keeps it per arm
    (src/bandit/policy/dp_ucb_bound.rs): the logarithmic mechanism's blocks
    (observation 1, 2, 3-4, .., 2^(m-1)+1 .. 2^m, each block's sum with one
    Lap(array_scale), released when the count reaches 2^m) and a binary
    mechanism over observations 2^m+1 .. 2^(m+1)-1 whose p-sums get
    Lap(m tree_scale) (m levels; ``levels(m)`` replaces m)."""

    def __init__(self, array_scale, tree_scale, levels=lambda m: m):
        self.array_scale, self.tree_scale, self.levels = array_scale, tree_scale, levels
        self.n = 0
        self.blocks = 0.0  # the released blocks' noisy sums
        self.pending = 0.0  # the true sum since the last release
        self.tree = None

    def insert(self, x):
        self.n += 1
        self.pending += x
        if self.n & (self.n - 1) == 0:
            # The count reached 2^m: the block is released, and a tree of m
            # levels counts the observations up to 2^(m+1) - 1.
            self.blocks += self.pending + laplace(self.array_scale)
            self.pending = 0.0
            m = self.n.bit_length() - 1
            self.tree = BinaryCounter(self.levels(m) * self.tree_scale)
        else:
            self.tree.insert(x)

    def noisy_sum(self):
        return self.blocks + self.tree.prefix()


class DpUcbBound:
    """DP-UCB-Bound, Tossou & Dimitrakakis (AAAI 2016), Algorithm 1, as
    dpdtol reads it (src/bandit/policy/dp_ucb_bound.rs):

        one Hybrid mechanism per arm at eps: blocks Lap(2/eps), tree p-sums Lap(m 2/eps)
        pull each arm once
        for t = K+1, ..: t' = t - 1
          mu~_a = (Hybrid noisy sum of arm a)/n_a
          nu_a = sqrt(8) ln(4 t'^4)/eps, times (ln n_a + 1) unless n_a is a power of two
          pull argmax_a mu~_a + sqrt(2 ln t'/n_a) + nu_a/n_a (the first maximum)
          insert the reward into the pulled arm's mechanism

    Planted bugs (``bug``): "third-noise", both scales 2/(3 eps);
    "level-missing", the tree's p-sums Lap((m - 1) 2/eps) (a level left out
    of the budget: the one-leaf tree of observation 3, m = 1, gets no noise).
    """

    def __init__(self, arms, epsilon, bug=None):
        scale = 2 / epsilon / (3 if bug == "third-noise" else 1)
        levels = (lambda m: m - 1) if bug == "level-missing" else (lambda m: m)
        self.eps, self.t = epsilon, 0
        self.arms = [HybridCounter(scale, scale, levels) for _ in range(arms)]

    def select(self):
        t = self.t + 1
        if t <= len(self.arms):
            return t - 1
        plays = t - 1
        index = []
        for arm in self.arms:
            n = arm.n
            nu = math.sqrt(8) * math.log(4 * plays**4) / self.eps
            if n & (n - 1):
                nu *= math.log(n) + 1
            index.append(arm.noisy_sum() / n + math.sqrt(2 * math.log(plays) / n) + nu / n)
        return index.index(max(index))

    def update(self, arm, reward):
        self.t += 1
        self.arms[arm].insert(reward)


class DpTs:
    """DP-TS, Hu & Hegde (UAI 2022), as dpdtol infers it
    (src/bandit/policy/dp_ts.rs), b = 2/eps:

        per arm, Chan, Shi & Song's Hybrid mechanism: observation 1 and every
          block of observations 2^m+1..2^(m+1) (when it completes) enter the
          noisy sum with one Lap(b) each; inside the open block, a binary
          mechanism over its leaves, every node Lap((m+1) b)
        pull each arm once
        for t = K+1..T:
          mu~_a = (noisy sum of arm a)/O_a
          mu-_a = clip to [0, 1] of mu~_a + c sqrt(8 ln(O_a + 1) ln t)/(eps O_a)
          theta_a ~ Beta(mu-_a O_a + 1, (1 - mu-_a) O_a + 1), a = 1..K in order
          pull the first argmax of theta

    ``bonus`` is c (default 6). Planted bugs (``bug``): "half-noise", b = 1/eps;
    "level-missing", the open block's nodes Lap(m b) (a level left out of
    the budget; its first tree, m = 1, then has the blocks' scale).
    """

    def __init__(self, rewards_shape, epsilon, bonus=6.0, bug=None):
        _, arms = rewards_shape
        self.eps, self.c, self.bug = epsilon, bonus, bug
        self.b = (1.0 if bug == "half-noise" else 2.0) / epsilon
        self.arms, self.t = arms, 0
        self.n = [0] * arms
        self.m = [0] * arms
        self.blocks = [0.0] * arms  # noisy sum of the completed blocks
        self.open_sum = [0.0] * arms  # true sum of the open block
        self.trees = [None] * arms

    def select(self):
        t = self.t + 1
        if t <= self.arms:
            return t - 1
        theta = []
        for a in range(self.arms):
            o = self.n[a]
            tree = self.trees[a].prefix() if self.trees[a] else 0.0
            mean = (self.blocks[a] + tree) / o
            v = mean + self.c * math.sqrt(8 * math.log(o + 1) * math.log(t)) / (self.eps * o)
            v = min(max(v, 0.0), 1.0)
            theta.append(np.random.beta(v * o + 1, (1 - v) * o + 1))
        return theta.index(max(theta))

    def update(self, arm, reward):
        self.t += 1
        self.n[arm] += 1
        n, m = self.n[arm], self.m[arm]
        if n == 1:
            self.blocks[arm] = reward + laplace(self.b)
            return
        self.open_sum[arm] += reward
        if n == 2 ** (m + 1):
            self.blocks[arm] += self.open_sum[arm] + laplace(self.b)
            self.m[arm] += 1
            self.open_sum[arm], self.trees[arm] = 0.0, None
            return
        if self.trees[arm] is None:
            levels = m if self.bug == "level-missing" else m + 1
            self.trees[arm] = BinaryCounter(levels * self.b)
        self.trees[arm].insert(reward)
