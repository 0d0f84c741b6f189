"""numba kernels of the technology layer (compiled lazily, cached on disk).

Random numbers reuse the counter-based generator of :mod:`flashlab.cell._read_kernels`
(SplitMix64 of ``seed`` and the cell index): each cell's draws depend only on ``(seed, cell)``.
"""

import math

import numpy as np
from numba import njit, uint64

from flashlab.cell._read_kernels import _GOLDEN, _splitmix, _uniform


@njit(cache=True)
def inject_electrons(n_cells, seed, rate, capacity):
    """Electrons injected into each of ``n_cells`` floating gates during one program pulse of unit
    length, simulated electron by electron (a birth process).

    With ``capacity <= 0`` every electron arrives at the constant ``rate`` (a Poisson process: the
    count is Poisson with mean ``rate``). With ``capacity = M > 0`` the rate falls as the gate
    charges, ``rate * (M - n)`` after ``n`` electrons (self-limiting injection): the count is then
    binomial, sub-Poissonian for packets that fill a large part of ``M``. Returns int64 counts.
    """
    out = np.empty(n_cells, dtype=np.int64)
    base = _splitmix(uint64(seed))
    limited = capacity > 0
    for i in range(n_cells):
        word = _splitmix(base + uint64(i + 1) * _GOLDEN)
        t = 0.0
        n = 0
        while True:
            r = rate * (capacity - n) if limited else rate
            if r <= 0.0:
                break
            word = _splitmix(word ^ _GOLDEN)
            t += -math.log(1.0 - _uniform(word)) / r
            if t > 1.0:
                break
            n += 1
        out[i] = n
    return out
