"""Sweep throughput: ``flashlab.sweep`` on local processes against a plain serial loop.

The same 24 points (op x policy, a 4096 x 128-page device, 12 drive writes of uniform random
writes each, one to two seconds apiece on one core) run once as ``for point in grid:
fn(**point)`` in this process and once as ``sweep(fn, grid)`` over all cores, worker start-up
included. Prints both times, the ratio (target on a 2-core machine: >= 1.8x) and the fixed cost
of starting the workers.

It also prints how many cores' worth of CPU time each run got. On a shared machine Linux groups
the processes of a session and shares the CPU between sessions, so the workers together may get
no more CPU than the serial loop did, and the ratio then measures the machine's load, not the
sweep; the estimate line gives the ratio on a free machine from the CPU times (the serial loop's
CPU time over the workers', start-up included, shared by the cores). Asserts nothing
(CONTRIBUTING.md: tests never assert on time).
"""

from __future__ import annotations

import os
import time

from flashlab.device import Geometry
from flashlab.ftl import FtlConfig, simulate
from flashlab.sweep import grid_points, point_seed, sweep
from flashlab.workload import Workload

GRID = {"op": [0.07, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5], "policy": ["greedy", "fifo", "cost_benefit"]}


def wa(op: float, policy: str, seed: int, blocks: int = 4096, progress: bool = False) -> dict:
    g = Geometry(blocks_per_plane=blocks, pages_per_block=128, op=op)
    r = simulate(g, FtlConfig(policy=policy), Workload("uniform"), fills=12.0, seed=seed, progress=progress)
    return {"wa_steady": r.wa_steady}


def main() -> None:
    cores = len(os.sched_getaffinity(0))
    load = os.getloadavg()[0]
    points = grid_points(GRID)
    wa(0.1, "greedy", 0, blocks=64)  # compile (or load from the cache) outside the timings
    t, cpu = time.perf_counter(), time.process_time()
    serial = {tuple(p.values()): wa(**p, seed=point_seed(p))["wa_steady"] for p in points}
    t_serial, cpu_serial = time.perf_counter() - t, time.process_time() - cpu

    t, before = time.perf_counter(), os.times()
    table = sweep(wa, GRID, progress=False)
    t_sweep, after = time.perf_counter() - t, os.times()  # the workers have exited: their CPU is counted
    cpu_workers = after.children_user + after.children_system - before.children_user - before.children_system
    same = all(table.loc[k, "wa_steady"] == v for k, v in serial.items())

    t = time.perf_counter()
    sweep(wa, {"op": [0.1, 0.2], "policy": ["greedy"], "blocks": [64]}, progress=False)
    t_start = time.perf_counter() - t

    print(f"{len(points)} points, {cores} cores: serial loop {t_serial:.1f} s, sweep {t_sweep:.1f} s "
          f"-> {t_serial / t_sweep:.2f}x (target >= 1.8x on 2 cores); same results: {same}")
    print(f"cores' worth of CPU time: serial loop {cpu_serial / t_serial:.2f}, sweep workers "
          f"{cpu_workers / t_sweep:.2f} of {cores}; CPU per point: serial {cpu_serial / len(points):.2f} s, "
          f"in a worker {cpu_workers / len(points):.2f} s (start-up included)")
    print(f"estimate on a free {cores}-core machine, from CPU times: "
          f"{cpu_serial / (cpu_workers / cores):.2f}x")
    print(f"load average at the start: {load:.1f} (on {os.cpu_count()} CPUs)")
    print(f"fixed cost of a local sweep (start {cores} workers, two tiny points): {t_start:.1f} s")


if __name__ == "__main__":
    main()
