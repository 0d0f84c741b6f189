"""FTL speed: host page writes per second, greedy GC, op 0.07, 8192 blocks x 256 pages, one core.

Printed beside two baselines running the same loop: benchmarks/baseline_ftl.c compiled with
gcc -O2 into a temporary directory, and the plain-Python reference FTL of tests/ on a small
device. Also prints the FTL's memory per physical page and the time of the explorable-sized
points the book precomputes. Asserts nothing (DESIGN.md: tests never assert on time).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from flashlab.device import Geometry
from flashlab.ftl import Ftl, FtlConfig, simulate
from flashlab.workload import OP_WRITE, Workload

HERE = Path(__file__).resolve().parent
GEOMETRY = Geometry(blocks_per_plane=8192, pages_per_block=256, op=0.07)
SEED = 1


def numba_rate(g: Geometry, timed_fills: float = 2.0) -> tuple[float, float]:
    """Host writes per second of greedy GC under uniform random writes, after a sequential fill
    and one drive write of warm-up (compile time excluded)."""
    ftl = Ftl(g, FtlConfig(policy="greedy"), seed=SEED)
    u = g.user_pages
    ftl.write(np.arange(u))
    rng = np.random.default_rng(SEED)
    warm = rng.integers(0, u, u).astype(np.int32)
    timed = rng.integers(0, u, round(timed_fills * u)).astype(np.int32)
    ftl.run(np.full(warm.size, OP_WRITE, np.int8), warm)
    ops = np.full(timed.size, OP_WRITE, np.int8)
    copies = ftl.counters["gc_copies"]
    t = time.perf_counter()
    ftl.run(ops, timed)
    dt = time.perf_counter() - t
    return timed.size / dt, (ftl.counters["gc_copies"] - copies) / timed.size


def c_rate(g: Geometry, timed_fills: float = 2.0) -> tuple[float, float] | None:
    gcc = shutil.which("gcc")
    if gcc is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, "baseline_ftl")
        subprocess.run([gcc, "-O2", "-o", exe, str(HERE / "baseline_ftl.c")], check=True)
        u = g.user_pages
        out = subprocess.run([exe, str(g.blocks), str(g.pages_per_block), str(u), str(u),
                              str(round(timed_fills * u)), str(SEED)],
                             capture_output=True, text=True, check=True).stdout.split()
    return float(out[0]), float(out[1])


def python_rate(g: Geometry) -> float:
    sys.path.insert(0, str(HERE.parent / "tests"))
    from reference_ftl import ReferenceFtl

    ref = ReferenceFtl(g.blocks, g.pages_per_block, g.user_pages, policy="greedy")
    for lba in range(g.user_pages):
        ref.write(lba)
    lbas = np.random.default_rng(SEED).integers(0, g.user_pages, 20000).tolist()
    t = time.perf_counter()
    for lba in lbas:
        ref.write(lba)
    return len(lbas) / (time.perf_counter() - t)


def main() -> None:
    g = GEOMETRY
    small = Geometry(blocks_per_plane=64, pages_per_block=256, op=0.07)
    numba_rate(small, 0.2)  # compile (or load the cache) outside the timing
    rate, copies = numba_rate(g)
    print(f"FTL greedy, op {g.op}, {g.blocks} x {g.pages_per_block} pages, uniform random writes:")
    print(f"  numba     {rate / 1e6:8.2f} M host writes/s  ({copies:.2f} GC copies per host write)")
    c = c_rate(g)
    if c is None:
        print("  C (gcc -O2): gcc not found, skipped")
    else:
        print(f"  C gcc -O2 {c[0] / 1e6:8.2f} M host writes/s  ({c[1]:.2f} GC copies per host write)"
              f"  -> numba / C = {rate / c[0]:.2f}")
    small_numba, _ = numba_rate(small, 2.0)
    py = python_rate(small)
    print(f"  on {small.blocks} x {small.pages_per_block} pages: numba {small_numba / 1e6:.2f} M/s, "
          f"plain Python reference {py / 1e3:.1f} k/s -> {small_numba / py:.0f}x")
    mem = Ftl(g).memory_bytes
    print(f"  memory: {mem / 2**20:.1f} MiB of FTL state = {mem / g.physical_pages:.2f} bytes per physical page")

    # Explorable points (chapter 'Garbage collection'): one default point and a 30-point grid.
    point = Geometry(blocks_per_plane=4096, pages_per_block=32, op=0.1)
    simulate(point, fills=1.0)  # warm the cache
    t = time.perf_counter()
    simulate(point, FtlConfig(), Workload(), fills=2.0, measure_fills=1.0)
    one = time.perf_counter() - t
    t = time.perf_counter()
    for op in (0.05, 0.1, 0.2, 0.3, 0.5, 1.0):
        for policy in ("greedy", "d_choices", "fifo", "random", "cost_benefit"):
            fills = 4.0 if op >= 0.5 else 2.0
            simulate(Geometry(blocks_per_plane=4096, pages_per_block=32, op=op),
                     FtlConfig(policy=policy), Workload(), fills=fills, measure_fills=fills / 2)
    grid = time.perf_counter() - t
    print(f"explorable: 4096 x 32 pages, op 0.1, 2 fills: {one * 1e3:.0f} ms per point; "
          f"6 op x 5 policies grid: {grid:.1f} s")


if __name__ == "__main__":
    main()
