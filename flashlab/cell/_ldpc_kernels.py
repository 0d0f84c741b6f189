"""numba kernel for the LDPC decoder's Monte Carlo: write random codewords, read them through a
quantized soft-read channel, decode with normalized min-sum (compiled lazily, cached on disk).

Random numbers come from the counter-based generator of :mod:`flashlab.cell._read_kernels`
(SplitMix64 of ``seed``, the frame and the bit): each frame's draws depend only on
``(seed, frame)``, so a frame's result does not depend on how many frames run.

Index bounds (the kernel runs without bounds checks; :func:`flashlab.cell.ldpc.ldpc_fer` checks
the shapes): ``check_vars`` is ``(m, dc)`` with entries in ``[0, n)``; ``var_edges`` is
``(n, dv)`` with entries in ``[0, m * dc)``; ``encoder`` is ``(k, words)`` with ``words * 64 >=
len(parity_cols)``; ``data_cols`` (``k`` entries) and ``parity_cols`` index ``[0, n)``;
``cum`` is ``(2, regions)`` with ``cum[b, regions - 1] >= 1`` (the region search stops there),
``llr`` has ``regions`` entries.
"""

import numpy as np
from numba import njit, uint64

from flashlab.cell._read_kernels import _GOLDEN, _splitmix, _uniform


@njit(cache=True)
def ldpc_frames(n_frames, seed, check_vars, var_edges, encoder, data_cols, parity_cols, cum, llr, alpha, max_iter):
    """Frame errors over ``n_frames`` frames: returns ``(failed, iterations)``, per frame a flag
    (the decoded word differs from the written codeword) and the iterations the decoder used.

    Each frame draws ``k`` uniform data bits, encodes them (``encoder[j]`` holds, bit-packed,
    the parity bits data bit ``j`` flips), and reads every bit ``b`` as region ``r`` with
    probability ``cum[b, r] - cum[b, r - 1]``; the decoder sees ``llr[r]``.
    """
    failed = np.zeros(n_frames, dtype=np.bool_)
    iterations = np.zeros(n_frames, dtype=np.int64)
    base = _splitmix(uint64(seed))
    for f in range(n_frames):
        failed[f], iterations[f] = _frame(f, base, check_vars, var_edges, encoder, data_cols, parity_cols, cum, llr,
                                          alpha, max_iter)
    return failed, iterations


@njit(cache=True)
def _frame(f, base, check_vars, var_edges, encoder, data_cols, parity_cols, cum, llr, alpha, max_iter):
    n = var_edges.shape[0]
    k, words = encoder.shape
    regions = cum.shape[1]
    frame_word = _splitmix(base + uint64(f + 1) * _GOLDEN)
    # write: random data, parity from the packed encoder
    bits = np.zeros(n, dtype=np.uint8)
    parity = np.zeros(words, dtype=np.uint64)
    for j in range(k):
        if _splitmix(frame_word ^ (uint64(2 * j + 1) * _GOLDEN)) >> uint64(63):
            bits[data_cols[j]] = 1
            for w in range(words):
                parity[w] ^= encoder[j, w]
    for i in range(parity_cols.size):
        bits[parity_cols[i]] = (parity[i >> 6] >> uint64(i & 63)) & uint64(1)
    # read: one region per bit, its log-likelihood ratio into the decoder
    channel = np.empty(n)
    for v in range(n):
        u = _uniform(_splitmix(frame_word ^ (uint64(2 * v + 2) * _GOLDEN)))
        b = bits[v]
        r = 0
        while r < regions - 1 and u >= cum[b, r]:
            r += 1
        channel[v] = llr[r]
    hard, it = _decode(channel, check_vars, var_edges, alpha, max_iter)
    wrong = False
    for v in range(n):
        if hard[v] != bits[v]:
            wrong = True
            break
    return wrong, it


@njit(cache=True)
def _decode(channel, check_vars, var_edges, alpha, max_iter):
    """Normalized min-sum (messages scaled by ``alpha``), flooding schedule, stopping at a zero
    syndrome or after ``max_iter`` iterations. Returns the hard decisions and the iterations used."""
    m, dc = check_vars.shape
    n, dv = var_edges.shape
    v2c = np.empty(m * dc)
    c2v = np.zeros(m * dc)
    for c in range(m):
        for s in range(dc):
            v2c[c * dc + s] = channel[check_vars[c, s]]
    out = np.zeros(n, dtype=np.uint8)
    for v in range(n):
        out[v] = channel[v] < 0.0
    it = 0
    while it < max_iter and not _syndrome_ok(out, check_vars):
        it += 1
        for c in range(m):  # check nodes: sign product, smallest and second-smallest magnitude
            min1 = np.inf
            min2 = np.inf
            arg = 0
            negative = 0
            for s in range(dc):
                x = v2c[c * dc + s]
                negative ^= x < 0.0
                a = abs(x)
                if a < min1:
                    min2 = min1
                    min1 = a
                    arg = s
                elif a < min2:
                    min2 = a
            for s in range(dc):
                x = v2c[c * dc + s]
                mag = min2 if s == arg else min1
                sign = -1.0 if negative ^ (x < 0.0) else 1.0
                c2v[c * dc + s] = alpha * sign * mag
        for v in range(n):  # variable nodes: channel plus every check's message but the target's
            total = channel[v]
            for j in range(dv):
                total += c2v[var_edges[v, j]]
            for j in range(dv):
                e = var_edges[v, j]
                v2c[e] = total - c2v[e]
            out[v] = total < 0.0
    return out, it


@njit(cache=True)
def _syndrome_ok(hard, check_vars):
    m, dc = check_vars.shape
    for c in range(m):
        p = 0
        for s in range(dc):
            p ^= hard[check_vars[c, s]]
        if p:
            return False
    return True
