"""Events per second of a 10-drive array run beside the single-drive engine's, the time a
default-size array explorable point takes, and simulated host I/Os per wall second of the Gen4
preset (Samsung PM9A3) alone and in arrays of 10 and 24 (issue 27: many drives on one clock).

``python benchmarks/bench_array.py``. Events per second count the event loop (``run_events``)
alone; the explorable time is the whole :func:`flashlab.array.simulate_array` call (layout,
preconditioning, event loop, results) at its defaults. Compiled code comes from the numba cache
(a first run compiles). Asserts nothing (CONTRIBUTING.md).
"""

from __future__ import annotations

import time

from flashlab.array import ArrayConfig, array_drive, simulate_array
from flashlab.drives import PM9A3
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

    # The Gen4 preset, fresh (every channel, die and plane; a few dozen blocks per plane), random
    # 4 KiB I/O, 70% reads, 64 outstanding per drive: host I/Os simulated per second of wall time
    gen4 = PM9A3.small_config()
    gen4_rows = {"Gen4 (PM9A3), 1 drive, 40k I/Os": best_of(lambda: simulate_io(
        gen4, HostLoad(qd=64, workload=Workload("uniform", read_fraction=0.7)), requests=40000, seed=1,
        precondition_fills=1e-9, progress=False).counters["events"])}
    hosts = {"Gen4 (PM9A3), 1 drive, 40k I/Os": 40000}
    for n in (10, 24):
        name = f"Gen4 (PM9A3), {n} drives RAID-6, 20k host I/Os"
        cfg = ArrayConfig(drives=n, raid=6, drive=gen4)
        gen4_rows[name] = best_of(lambda: simulate_array(cfg, HostLoad(qd=64 * n, workload=Workload(
            "uniform", read_fraction=0.7)), requests=20000, seed=1, precondition_fills=1e-6).members.events)
        hosts[name] = 20000
    one = gen4_rows["Gen4 (PM9A3), 1 drive, 40k I/Os"]
    print(f"\n{'case':<64} {'events':>9} {'loop s':>8} {'wall s':>8} {'Mev/s':>7} {'host I/Os/s':>12}")
    for name, (ev, loop, wall) in gen4_rows.items():
        print(f"{name:<64} {ev:>9,} {loop:>8.3f} {wall:>8.3f} {ev / loop / 1e6:>7.2f} "
              f"{hosts[name] / wall:>12,.0f}")
    ratio = gen4_rows[name][0] / gen4_rows[name][1] / (one[0] / one[1])
    print(f"per event, the 24-drive array's loop runs at {ratio:.2f}x the single drive's. Profiled (perf, "
          "2026-11-29): about a third of its samples are the kernel zeroing pages the loop touches for the "
          "first time (24 drives' FTL and page-type arrays, ~10^6 slots each), a cost of fresh memory "
          "that a longer run amortises, not of the events")


if __name__ == "__main__":
    main()
