"""numba kernels for Monte Carlo reads of a cell population (compiled lazily, cached on disk).

Random numbers come from a counter-based generator (SplitMix64 of ``seed`` and the cell index;
further draws of the same cell chain the hash), and normal deviates from the ziggurat method of
Marsaglia and Tsang (2000) in Doornik's floating-point form (2005, 128 layers). Each cell's
draws depend only on ``(seed, cell)``: results are bit-for-bit identical for any thread count.
"""

import math

import numpy as np
from numba import int64, njit, prange, uint64

_GOLDEN = uint64(0x9E3779B97F4A7C15)
_CHUNK = 1 << 16  # cells per parallel chunk
_ZIG_R = 3.442619855899  # start of the tail
_ZIG_V = 9.91256303526217e-3  # area of each layer


def _ziggurat_tables():
    """Layer edges ``x`` (129 entries, x[128] = 0) and ratios ``x[i+1]/x[i]`` (128 entries)."""
    x = np.zeros(129)
    f = math.exp(-0.5 * _ZIG_R * _ZIG_R)
    x[0] = _ZIG_V / f
    x[1] = _ZIG_R
    for i in range(2, 128):
        x[i] = math.sqrt(-2.0 * math.log(_ZIG_V / x[i - 1] + f))
        f = math.exp(-0.5 * x[i] * x[i])
    return x, x[1:] / x[:-1]


ZIG_X, ZIG_RATIO = _ziggurat_tables()


@njit(cache=True, inline="always")
def _splitmix(z):
    z = (z ^ (z >> uint64(30))) * uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> uint64(27))) * uint64(0x94D049BB133111EB)
    return z ^ (z >> uint64(31))


@njit(cache=True, inline="always")
def _uniform(word):
    """The top 53 bits of ``word`` as a double in [0, 1)."""
    return int64(word >> uint64(11)) * (1.0 / 9007199254740992.0)  # signed: one instruction


@njit(cache=True, inline="always")
def _normal(word, zig_x, zig_ratio):
    """A standard normal deviate from the 64-bit ``word`` (bits 0-6 pick the layer, bits 11-63 the
    abscissa; bits 7-10 are left for the caller). The fast path (99% of draws) is inlined."""
    u = 2.0 * _uniform(word) - 1.0
    i = int64(word & uint64(127))
    if abs(u) < zig_ratio[i]:
        return u * zig_x[i]
    return _normal_slow(word, u, i, zig_x, zig_ratio)


@njit(cache=True)
def _normal_slow(word, u, i, zig_x, zig_ratio):
    """Ziggurat rejection: wedge or tail test for layer ``i``, then fresh draws (chained hash)."""
    while True:
        word = _splitmix(word ^ _GOLDEN)
        if i == 0:  # the tail beyond R (Marsaglia 1964)
            while True:
                x = math.log(1.0 - _uniform(word)) / _ZIG_R
                word = _splitmix(word ^ _GOLDEN)
                y = math.log(1.0 - _uniform(word))
                word = _splitmix(word ^ _GOLDEN)
                if -2.0 * y >= x * x:
                    return x - _ZIG_R if u < 0.0 else _ZIG_R - x
        x = u * zig_x[i]
        f0 = math.exp(-0.5 * (zig_x[i] * zig_x[i] - x * x))
        f1 = math.exp(-0.5 * (zig_x[i + 1] * zig_x[i + 1] - x * x))
        if f1 + _uniform(word) * (f0 - f1) < 1.0:
            return x
        word = _splitmix(word ^ _GOLDEN)
        u = 2.0 * _uniform(word) - 1.0
        i = int64(word & uint64(127))
        if abs(u) < zig_ratio[i]:
            return u * zig_x[i]


@njit(cache=True, parallel=True)
def mc_read_errors(n_cells, seed, means, sigmas, page_refs, n_page_refs, gray, zig_x, zig_ratio):
    """Bit errors per page type over ``n_cells`` simulated cells.

    Each cell gets a uniformly random state (bits 7-10 of its word; the number of states is a
    power of two) and Vth ``means[s] + sigmas[s] * z``; each page ``p`` is then read by sensing
    its references ``page_refs[p, :n_page_refs[p]]``: its bit starts at 1 (erased) and flips at
    every reference the Vth exceeds, and is compared with ``gray[s, p]``. Returns int64 counts.
    """
    n_pages = gray.shape[1]
    n_chunks = (n_cells + _CHUNK - 1) // _CHUNK
    counts = np.zeros((n_chunks, n_pages), dtype=np.int64)
    base = _splitmix(uint64(seed))
    state_mask = uint64(means.size - 1)
    for c in prange(n_chunks):
        errors = np.zeros(n_pages, dtype=np.int64)  # thread-local: no false sharing
        for i in range(c * _CHUNK, min((c + 1) * _CHUNK, n_cells)):
            word = _splitmix(base + uint64(i + 1) * _GOLDEN)
            s = int((word >> uint64(7)) & state_mask)
            v = means[s] + sigmas[s] * _normal(word, zig_x, zig_ratio)
            for p in range(n_pages):
                flips = 0
                for j in range(n_page_refs[p]):
                    flips += v > page_refs[p, j]  # branch-free: sensing outcomes are unpredictable
                errors[p] += (1 ^ (flips & 1)) != gray[s, p]
        counts[c] = errors
    return counts.sum(axis=0)
