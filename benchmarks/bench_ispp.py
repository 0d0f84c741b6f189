"""ISPP speed: a 10^6-cell page (the page explorable) and a one-cell trace (the pulse explorable).

Run: ``NUMBA_CACHE_DIR=.cache/numba .venv/bin/python benchmarks/bench_ispp.py``. Prints figures and
the ratio against a vectorised NumPy version of the same program-and-verify loop, in one run: the
page kernel on one numba thread (the per-cell gain: SIMD pulses, no library calls) and on every
thread numba has (the parallel gain on top); asserts nothing. Also prints the CPU seconds of each
(all threads summed), the fairer figure on a loaded machine, and the load average before and
after. Both sides include the same per-cell normal draws (about 36 ms for 10^6 cells, serial),
which bound the ratio.
"""

from __future__ import annotations

import os
import time

import numba
import numpy as np

from flashlab.cell import FG_CELL_2XNM, ISPP_SLC_2XNM, CellVariation, IsppParams, program_cell, program_page
from flashlab.cell.ispp import _cell_draws

N_CELLS = 1_000_000


def numpy_page(cell, ispp, n_cells, variation, seed, vth0=-3.0):
    """Baseline: the same ISPP loop, one NumPy expression per pulse over the still-active cells."""
    gain, z = _cell_draws(cell, variation, n_cells, seed)
    vth = np.clip(vth0 + variation.sigma_vth0 * z, -20.0, 20.0)
    pulses = np.full(n_cells, ispp.max_pulses, dtype=np.int16)
    active = np.arange(n_cells)
    rate = cell.fn_b * cell.fn_a * cell.tunnel_area / cell.c_cg
    for p in range(ispp.max_pulses):
        v = ispp.v_start + p * ispp.v_step
        g, x0 = gain[active], vth[active]
        e0 = np.abs(g * (v - x0 + cell.vth_neutral))
        with np.errstate(over="ignore", divide="ignore"):
            e = cell.fn_b / np.log(np.exp(cell.fn_b / e0) + rate * g * ispp.t_pulse)
        shift = np.maximum(e0 - e, 0.0) / g
        x1 = np.where(v + cell.vth_neutral > x0, x0 + shift, x0 - shift)
        vth[active] = x1
        done = x1 >= ispp.v_verify
        pulses[active[done]] = p + 1
        active = active[~done]
        if active.size == 0:
            break
    return vth, pulses


def best_of(fn, repeat):
    """Shortest wall-clock time of ``repeat`` calls, and the shortest CPU time (all threads)."""
    wall, cpu = [], []
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    return min(wall), min(cpu)


def main():
    var = CellVariation()
    program_page(FG_CELL_2XNM, ISPP_SLC_2XNM, 1000, var)  # compile (or load the cache)
    program_cell(FG_CELL_2XNM, ISPP_SLC_2XNM)
    threads = numba.get_num_threads()

    print(f"ISPP page of {N_CELLS:,} cells (best of 3, after compilation); load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    for step in (0.5, 0.3, 0.1):
        ispp = IsppParams(ISPP_SLC_2XNM.v_start, step, ISPP_SLC_2XNM.v_verify, 100, 10e-6, 10e-6)
        page = program_page(FG_CELL_2XNM, ispp, N_CELLS, var, seed=1)
        t_np, c_np = best_of(lambda: numpy_page(FG_CELL_2XNM, ispp, N_CELLS, var, 1), 3)
        timed = {}
        for n in sorted({1, threads}):
            numba.set_num_threads(n)
            timed[n] = best_of(lambda: program_page(FG_CELL_2XNM, ispp, N_CELLS, var, seed=1), 3)
        numba.set_num_threads(threads)
        vth_np, pulses_np = numpy_page(FG_CELL_2XNM, ispp, N_CELLS, var, 1)
        agree = np.array_equal(pulses_np, page.pulses) and np.allclose(vth_np, page.vth, atol=1e-5)
        cell_pulses = int(page.pulses.sum())
        print(f"  step {step:.1f} V: {page.page_pulses:3d} pulses, {cell_pulses / N_CELLS:5.1f} per cell, "
              f"same result as numpy: {agree} | numpy {t_np * 1e3:4.0f} ms (CPU {c_np * 1e3:4.0f} ms)")
        for n, (t_nb, c_nb) in timed.items():
            print(f"    numba, {n} thread{'s' if n > 1 else ' '}: {t_nb * 1e3:4.0f} ms (CPU {c_nb * 1e3:4.0f} ms, "
                  f"{t_nb / cell_pulses * 1e9:3.0f} ns per cell-pulse) | numpy/numba {t_np / t_nb:4.1f}x "
                  f"(CPU {c_np / c_nb:4.1f}x)")

    t_cell = best_of(lambda: program_cell(FG_CELL_2XNM, ISPP_SLC_2XNM), 200)[0]
    t_long = best_of(lambda: program_cell(FG_CELL_2XNM, IsppParams(10.0, 0.1, 3.0, 1000, 1e-5, 1e-5)), 50)[0]
    print(f"one-cell ISPP trace: {t_cell * 1e6:.0f} us (preset, 8 pulses); {t_long * 1e6:.0f} us (100+ pulses)")
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
