"""Cold compile of the SSD timing engine, per kernel: what CI pays once per numba cache.

``python benchmarks/bench_compile.py`` runs, in a subprocess with an empty numba cache, a first
``run_members`` call (1 member, then 8: the member count is data, the second compiles nothing),
then a closed-loop ``simulate_io`` (the closed loop's start), and prints their CPU seconds and,
per kernel (dispatcher), the wall seconds numba's compile events spent on it, inclusive of the
kernels it compiled first (per-event CPU is not available), and each SSD kernel's three costliest
numba passes. Set ``NUMBA_BOUNDSCHECK=1`` to time
the bounds-checked build CI also makes. Asserts nothing (DESIGN.md).
"""

from __future__ import annotations

import os

from bench_engine import run_cold

COLD = r"""
import collections, sys, time
sys.path.insert(0, sys.argv[1])
from numba.core import event as ev
from bench_engine import _drive, _streams
from flashlab.ssd import HostLoad, SsdConfig, simulate_io, ssd_geometry
from flashlab.ssd.engine import run_members

starts, spent, count = {}, collections.Counter(), collections.Counter()


class Listener(ev.Listener):
    def on_start(self, e):
        starts[id(e.data["dispatcher"]), str(e.data["args"])] = time.perf_counter()

    def on_end(self, e):
        key = (id(e.data["dispatcher"]), str(e.data["args"]))
        name = e.data["dispatcher"].py_func.__module__.split(".")[-2] + "." + e.data["dispatcher"].py_func.__name__
        spent[name] += time.perf_counter() - starts.pop(key, time.perf_counter())
        count[name] += 1


ev.register("numba:compile", Listener())
total = 0.0
for D in (1, 8):
    op, lba, pages, device, arrivals = _streams(D, 16)
    t = time.process_time()
    run_members([_drive()] * D, op, lba, pages, device, arrivals=arrivals)
    total += time.process_time() - t
    print(f"first run_members with {D} member(s): {time.process_time() - t:.1f} s CPU", flush=True)
t = time.process_time()
simulate_io(SsdConfig(geometry=ssd_geometry(2**26, 0.25, pages_per_block=16)), HostLoad(qd=4), requests=200)
total += time.process_time() - t
print(f"closed-loop simulate_io after them: {time.process_time() - t:.1f} s CPU", flush=True)
print(f"total: {total:.1f} s CPU")
for name, s in spent.most_common(25):
    print(f"  {name:28s} {s:7.1f} s wall inclusive, {count[name]} compile(s)")
from flashlab.ssd import _kernels as K
print("numba passes of the SSD kernels (wall s; type inference includes compiling the kernels it calls, "
      "native lowering the LLVM optimisation and code generation):")
for name in dir(K):
    for cr in getattr(getattr(K, name), "overloads", {}).values():
        times = cr.metadata["pipeline_times"]["nopython"]
        top = sorted(((t.run, k.split("_", 1)[1]) for k, t in times.items()), reverse=True)[:3]
        print(f"  {name:16s} " + ", ".join(f"{k} {t:.1f}" for t, k in top))
"""


def main() -> None:
    print(run_cold(COLD), end="")
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
