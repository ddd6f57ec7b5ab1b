"""An independent sampler of Wu & Wang's RNM-FTNL(B = 1, Gumbel(2/ε))
(Wu & Wang, ALT 2026, arXiv:2502.10997, Algorithm 1), in plain Python: the
kind of implementation dpdtol tests (docs/guide-test-your-implementation.md).

    python3 examples/wu_wang_sampler.py examples/losses.csv 1 1000 7 > samples.csv

writes 1000 action sequences (actions numbered from 1, one sequence a line)
on the loss sequence of the file (one round a line, K losses, p/q allowed),
at ε = 1, with the seed 7.

Epoch r = 1, 2, ... covers rounds 2^(r-1) .. 2^r - 1 and plays J_(r-1); J_0 is
uniform; J_r = argmax_j (-G_(r,j) + Q_j) with G_r the epoch's losses resampled
as Bernoulli(loss) (B = 1) and Q_j i.i.d. Gumbel of scale 2/ε.
"""

import math
import random
import sys
from fractions import Fraction


def read_losses(path):
    with open(path) as f:
        return [[Fraction(x) for x in line.split(",")]
                for line in f if line.strip() and not line.startswith("#")]


def run(losses, epsilon, rng):
    horizon, k = len(losses), len(losses[0])
    scale = 2 / epsilon
    current = rng.randrange(k)  # J_0
    actions, r = [], 1
    while 2 ** (r - 1) <= horizon:
        rounds = range(2 ** (r - 1), min(2 ** r - 1, horizon) + 1)
        actions += [current + 1] * len(rounds)
        sums = [sum(rng.random() < losses[t - 1][j] for t in rounds) for j in range(k)]
        gumbel = [-scale * math.log(-math.log(rng.random())) for _ in range(k)]
        current = max(range(k), key=lambda j: -sums[j] + gumbel[j])
        r += 1
    return actions


if __name__ == "__main__":
    path, epsilon, n, seed = sys.argv[1], float(Fraction(sys.argv[2])), int(sys.argv[3]), int(sys.argv[4])
    losses, rng = read_losses(path), random.Random(seed)
    for _ in range(n):
        print(",".join(map(str, run(losses, epsilon, rng))))
