"""Monte Carlo read of 10**7 TLC cells: numba kernel vs a NumPy-vectorised baseline.

Prints seconds per run (after compile) and the speed ratio; asserts nothing. Target: <= 0.2 s.
"""

import time

import numpy as np

from flashlab.cell.distributions import vth_distributions
from flashlab.cell.errors import default_read_refs, rber_monte_carlo
from flashlab.presets import TLC_1XNM

N = 10**7


def numpy_baseline(dist, refs, n, seed):
    """Same experiment in vectorised NumPy: states, Vth, region by searchsorted, Gray decode."""
    rng = np.random.default_rng(seed)
    gray = dist.levels.gray
    s = rng.integers(0, dist.means.size, n)
    v = dist.means[s] + dist.sigmas[s] * rng.standard_normal(n)
    k = np.searchsorted(refs, v)
    return (gray[s] != gray[k]).sum(axis=0) / n


def best_of(f, repeats=3):
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
    return min(times)


def main():
    dist = vth_distributions(TLC_1XNM.vth, 3000, 365)
    refs = default_read_refs(TLC_1XNM.vth)
    t0 = time.perf_counter()
    rber_monte_carlo(dist, 1000, seed=1)
    print(f"first call (compile or cache load): {time.perf_counter() - t0:.2f} s")
    t_numba = best_of(lambda: rber_monte_carlo(dist, N, seed=1))
    t_numpy = best_of(lambda: numpy_baseline(dist, refs, N, 1))
    print(f"numba kernel : {t_numba:.3f} s per 10^7 cells ({t_numba / N * 1e9:.1f} ns/cell; target <= 0.2 s)")
    print(f"NumPy        : {t_numpy:.3f} s per 10^7 cells")
    print(f"speed-up     : {t_numpy / t_numba:.1f}x")
    print("RBER numba  ", rber_monte_carlo(dist, N, seed=1).rber)
    print("RBER NumPy  ", numpy_baseline(dist, refs, N, 1))


if __name__ == "__main__":
    main()
