"""Events per second of a 10-drive array run beside the single-drive engine's, and the time a
default-size array explorable point takes.

``python benchmarks/bench_array.py``. Events per second count the event loop (``run_events``)
alone; the explorable time is the whole :func:`flashlab.array.simulate_array` call (layout,
preconditioning, event loop, results) at its defaults. Compiled code comes from the numba cache
(a first run compiles). Asserts nothing (CONTRIBUTING.md).
"""

from __future__ import annotations

import time

from flashlab.array import ArrayConfig, array_drive, simulate_array
from flashlab.ssd import HostLoad, simulate_io
from flashlab.ssd import _kernels as K
from flashlab.workload import Workload

spent = [0.0]
_inner = K.run_events


def _timed(*a):
    t = time.perf_counter()
    out = _inner(*a)
    spent[0] += time.perf_counter() - t
    return out


def best_of(fn, repeat: int = 3):
    """(events, best event-loop seconds, best wall seconds) of ``repeat`` calls."""
    loop = wall = None
    for _ in range(repeat):
        spent[0] = 0.0
        t = time.perf_counter()
        events = fn()
        w = time.perf_counter() - t
        loop = spent[0] if loop is None else min(loop, spent[0])
        wall = w if wall is None else min(wall, w)
    return events, loop, wall


def main() -> None:
    K.run_events = _timed
    import flashlab.ssd.engine as E
    E.K.run_events = _timed
    load = HostLoad(qd=64, workload=Workload("uniform", read_fraction=0.5))
    drive = array_drive()
    single = best_of(lambda: simulate_io(drive, load, requests=40000, seed=1, precondition_fills=0.0,
                                         progress=False).counters["events"])
    rows = {"1 drive (simulate_io), 40k requests, 50% reads": single}
    for arch in ("ssd", "ground-up"):
        rows[f"10 drives RAID-6 {arch}, 8k host I/Os"] = best_of(
            lambda: simulate_array(ArrayConfig(arch=arch), load, requests=8000, seed=1).members.events)
    rows["default explorable point: simulate_array() (4000 host I/Os)"] = best_of(
        lambda: simulate_array(ArrayConfig(), load, seed=1).members.events)
    base = single[0] / single[1]
    print(f"{'case':<64} {'events':>9} {'loop s':>8} {'wall s':>8} {'Mev/s':>7} {'vs 1 drive':>10}")
    for name, (ev, loop, wall) in rows.items():
        rate = ev / loop
        print(f"{name:<64} {ev:>9,} {loop:>8.3f} {wall:>8.3f} {rate / 1e6:>7.2f} {rate / base:>9.2f}x")


if __name__ == "__main__":
    main()
