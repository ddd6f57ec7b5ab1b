"""numpy implementations of two of the papers' algorithms, vectorised over n
independent runs, with planted bugs: what a researcher would write, tested
against dpdtol's exact laws in test_gof.py.

Conventions are those of the crate (src/algorithm/epoch_rnm.rs,
src/algorithm/prefix_softmax.rs): rounds are numbered from 1, actions from 0,
``losses`` is a T x K array (row t-1 is round t's loss vector).
"""

import numpy as np


def wu_wang_gumbel_b1(losses, epsilon, n, rng, bug=None):
    """Wu & Wang (ALT 2026), Algorithm 1, RNM-FTNL(B = 1, Gumbel(2/ε)), n runs.

    Line 3: J_0 uniform on [K]. Epoch r = 1, 2, ... covers rounds
    2^{r-1}..2^r - 1 and plays J_{r-1} (line 7). Lines 9-13 (B = 1): each
    loss is resampled, l~_j ~ Bernoulli(l_j), independently across actions
    and rounds. Line 14: G_r = sum of the epoch's resampled losses. Line 16:
    J_r = argmax_j -G_{r,j} + Q_{r,j}, Q ~ Gumbel(scale 2/ε) i.i.d.

    Planted bugs (``bug``):
      "boundary-play": every epoch plays one round too long (J_r first played
          at round 2^r + 1);
      "boundary-read": epoch r's sums read rounds 2^{r-1}+1..2^r (one late);
      "scale": the noise scale is 4/ε (twice the paper's) in epoch r = 3;
      "shared-uniform": the resampling uses one uniform per round for all
          actions (l~_j = 1[U < l_j]), not one per action.
    """
    losses = np.asarray(losses, dtype=float)
    T, K = losses.shape
    J = [rng.integers(K, size=n)]  # J_0
    r = 1
    while 2 ** r <= T:  # J_r is played from round 2^r on
        lo, hi = 2 ** (r - 1), 2 ** r - 1  # epoch r's rounds
        if bug == "boundary-read":
            lo, hi = lo + 1, hi + 1
        window = losses[lo - 1 : hi]  # rounds lo..hi
        m = window.shape[0]
        if bug == "shared-uniform":
            u = rng.random((n, m, 1))
        else:
            u = rng.random((n, m, K))
        G = (u < window).sum(axis=1)
        beta = 2.0 / epsilon * (2.0 if (bug == "scale" and r == 3) else 1.0)
        Q = rng.gumbel(0.0, beta, size=(n, K))
        J.append(np.argmax(-G + Q, axis=1))
        r += 1
    out = np.empty((n, T), dtype=np.int64)
    for t in range(1, T + 1):
        s = t - 1 if (bug == "boundary-play" and t >= 2) else t
        out[:, t - 1] = J[s.bit_length() - 1]  # epoch floor(log2 s) + 1 plays J_{floor(log2 s)}
    return out


def prefix_softmax(losses, epsilon, n, rng, bug=None):
    """Cesari & Colomboni §4, the randomized-prefix softmax, n runs.

    η = min(ε/2, 1/8); blocks B_r = {2^r..2^{r+1}-1}; A_0 uniform plays B_0.
    After block B_r: M_0 = 1, M_r ~ Unif{2^{r-1}+1..2^r} for r ≥ 1, and
    P(A_{r+1} = j) ∝ exp(-η L_{r,j}(M_r)) with L_{r,j}(m) the sum of the
    first m losses of B_r; A_{r+1} plays B_{r+1}.

    Planted bug ``"prefix-law"``: M_r ~ Unif{1..2^r} (the whole block).
    """
    losses = np.asarray(losses, dtype=float)
    T, K = losses.shape
    eta = min(epsilon / 2.0, 1.0 / 8.0)
    A = [rng.integers(K, size=n)]
    r = 0
    while 2 ** (r + 1) <= T:  # A_{r+1} plays from round 2^{r+1} on
        block = losses[2 ** r - 1 : 2 ** (r + 1) - 1]
        if r == 0:
            M = np.ones(n, dtype=np.int64)
        elif bug == "prefix-law":
            M = rng.integers(1, 2 ** r + 1, size=n)
        else:
            M = rng.integers(2 ** (r - 1) + 1, 2 ** r + 1, size=n)
        L = np.cumsum(block, axis=0)[M - 1]  # (n, K): L_{r,j}(M_r)
        A.append(np.argmax(-eta * L + rng.gumbel(size=(n, K)), axis=1))  # Gumbel-max = softmax
        r += 1
    out = np.empty((n, T), dtype=np.int64)
    for t in range(1, T + 1):
        out[:, t - 1] = A[t.bit_length() - 1]  # round t is in block floor(log2 t)
    return out
