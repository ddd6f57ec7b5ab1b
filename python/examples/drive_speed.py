"""The time of driving a user's Python policy through ``dpdtol.drive``:
DP-UCB written from its pseudo-code (``python/tests/planted.py``, Mishra &
Thakurta 2015, Algorithm 1), an object with ``select()`` and
``update(arm, reward)`` made fresh for each run, played ``n`` times
(default 10^5) on a K = 2, T = 8 reward table, then tested against
dpdtol's certified law (``dpdtol.testing.assert_bandit_policy``).

    python python/examples/drive_speed.py [--n 100000]

Prints the wall and CPU time (``time.process_time``) of the drive alone and
of the whole assertion (drive, law, test); docs/performance.md records
them.
"""

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from dpdtol.drive import drive_bandit
from dpdtol.testing import assert_bandit_policy

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from planted import DpUcb  # noqa: E402  (the tests' policy, not a copy)

EPSILON = 1
REWARDS = np.array([[1, 0], [0, 1], [1, 1], [0, 0], [1, 0], [0, 1], [1, 1], [0, 1]])


def policy():
    return DpUcb(REWARDS.shape, EPSILON)


def timed(f):
    wall, cpu = time.perf_counter(), time.process_time()
    value = f()
    return value, time.perf_counter() - wall, time.process_time() - cpu


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=100_000)
    n = parser.parse_args().n
    _, wall, cpu = timed(lambda: drive_bandit(policy, REWARDS, n, seed=1))
    print(f"DP-UCB, K = 2, T = {len(REWARDS)}, n = {n}")
    print(f"drive: {wall:.2f} s wall, {cpu:.2f} s CPU")
    result, wall, cpu = timed(lambda: assert_bandit_policy("dp-ucb", policy, REWARDS, EPSILON, n=n, seed=1))
    print(f"drive + law + test: {wall:.2f} s wall, {cpu:.2f} s CPU; p = {result.chi_square_tests[0]['p_value']:.3g}")


if __name__ == "__main__":
    main()
