"""Timing engine speed: events per second, the default `flashlab cliff` experiment, explorable-sized
points, beside a plain-Python heapq event loop running the same GC-off write pipeline.

Asserts nothing (CONTRIBUTING.md: tests never assert on time).
"""

from __future__ import annotations

import heapq
import time

from flashlab.ssd import _kernels as K
from flashlab.ssd import HostLoad, SsdConfig, simulate_io, ssd_geometry, write_saturation
from flashlab.ssd.sim import pipeline_limit_iops


def python_heapq_writes(cfg: SsdConfig, qd: int, n: int) -> tuple[float, int]:
    """Closed-loop single-page writes, no GC, pages striped over the units: the numba engine's
    GC-off write path (channel transfer, then program) as a plain-Python heapq loop.
    Returns (IOPS, events processed)."""
    g, tm = cfg.geometry, cfg.timing
    U, C, bits = cfg.units, g.channels, tm.bits_per_cell
    tx = cfg.transfer_us
    queue = [[] for _ in range(U)]
    head = [0] * U
    busy = [False] * U
    ch_busy = [False] * C
    ch_wait = [[] for _ in range(C)]
    events, seq, now = [], 0, 0.0
    next_page, done, issued, count = 0, 0, 0, 0
    unit_page = [0] * U

    def submit(u, req):
        queue[u].append(req)
        if not busy[u]:
            start(u)

    def start(u):
        nonlocal seq
        if head[u] == len(queue[u]):
            busy[u] = False
            return
        busy[u] = True
        c = u % C
        if ch_busy[c]:
            ch_wait[c].append(u)
        else:
            ch_busy[c] = True
            heapq.heappush(events, (now + tx, seq, 1, c, u))
            seq += 1

    def issue():
        nonlocal next_page, issued
        u = next_page % U
        next_page += 1
        issued += 1
        submit(u, issued)

    for _ in range(qd):
        issue()
    while done < n and events:
        now, _, kind, a, b = heapq.heappop(events)
        count += 1
        if kind == 1:  # transfer in done on channel a for unit b: program
            c, u = a, b
            ch_busy[c] = False
            if ch_wait[c]:
                nxt = ch_wait[c].pop(0)
                ch_busy[c] = True
                heapq.heappush(events, (now + tx, seq, 1, c, nxt))
                seq += 1
            ptype = unit_page[u] % bits
            unit_page[u] += 1
            heapq.heappush(events, (now + tm.t_prog_us[ptype], seq, 0, u, 0))
            seq += 1
        else:  # program done on unit a
            u = a
            head[u] += 1
            done += 1
            if issued < n:
                issue()
            start(u)
    return done / now * 1e6, count


_KERNEL_S = [0.0]
_run_events = K.run_events


def _timed_run_events(*args):
    """K.run_events with its wall time added to _KERNEL_S (the event loop alone)."""
    t = time.perf_counter()
    out = _run_events(*args)
    _KERNEL_S[0] += time.perf_counter() - t
    return out


def main() -> None:
    K.run_events = _timed_run_events
    small = SsdConfig(geometry=ssd_geometry(2**28, 0.07, pages_per_block=32))
    simulate_io(SsdConfig(geometry=ssd_geometry(2**25, 0.25, pages_per_block=16), gc="off"),
                HostLoad(qd=32), fills=0.2)  # compile or load the cache outside the timing

    # events per second: GC-off pipeline, and a GC-heavy write saturation
    off = SsdConfig(geometry=ssd_geometry(2**30, 0.07), gc="off")
    t = time.perf_counter()
    r = simulate_io(off, HostLoad(qd=64), fills=0.9, seed=1)
    dt = time.perf_counter() - t
    ev_off = r.counters["events"] / dt
    print(f"GC off, 1 GiB MLC, 16 planes, qd 64, 0.9 fills: {r.counters['events'] / 1e6:.2f} M events in "
          f"{dt:.2f} s = {ev_off / 1e6:.2f} M events/s (incl. request generation); "
          f"IOPS {r.iops():,.0f} vs pipeline limit {pipeline_limit_iops(off):,.0f}")
    t = time.perf_counter()
    _KERNEL_S[0] = 0.0
    r = simulate_io(small, HostLoad(qd=32), fills=4, seed=1)
    dt = time.perf_counter() - t
    print(f"GC on, 256 MiB MLC, qd 32, 4 fills: {r.counters['events'] / 1e6:.2f} M events, "
          f"{(r.counters['host_page_writes'] + r.counters['gc_copies']) / 1e6:.2f} M programs in {dt:.2f} s "
          f"= {r.counters['events'] / dt / 1e6:.2f} M events/s; event loop alone "
          f"{r.counters['events'] / _KERNEL_S[0] / 1e6:.2f} M events/s (WA {r.wa:.2f})")

    # baseline: the same GC-off write pipeline as a plain-Python heapq loop on a small case
    base_cfg = SsdConfig(geometry=ssd_geometry(2**26, 0.25, pages_per_block=16), gc="off")
    n = 12000
    t = time.perf_counter()
    py_iops, py_events = python_heapq_writes(base_cfg, 64, n)
    py_dt = time.perf_counter() - t
    _KERNEL_S[0] = 0.0
    r = simulate_io(base_cfg, HostLoad(qd=64), requests=n, seed=1)
    nb_dt = _KERNEL_S[0]
    print(f"baseline, {n} writes, 64 MiB, GC off: plain-Python heapq {py_events / py_dt / 1e6:.3f} M events/s "
          f"(IOPS {py_iops:,.0f}); numba {r.counters['events'] / nb_dt / 1e6:.2f} M events/s "
          f"(IOPS {r.iops():,.0f}, event loop alone) -> {r.counters['events'] / nb_dt / (py_events / py_dt):.1f}x "
          f"(the Python loop models only this GC-off write path)")

    # the default `flashlab cliff` experiment: 1 GiB MLC, op 0.07, qd 32, 4 fills
    t = time.perf_counter()
    w = write_saturation(SsdConfig(), qd=32, fills=4)
    dt = time.perf_counter() - t
    ev = w.result.counters["events"]
    print(f"default cliff experiment (1 GiB MLC, op 0.07, qd 32, 4 fills): {dt:.2f} s wall, "
          f"{ev / 1e6:.1f} M events ({ev / dt / 1e6:.2f} M/s), {w.result.duration_us / 1e6:.0f} s simulated; "
          f"FOB {w.fob_iops:,.0f} -> steady {w.steady_iops:,.0f} IOPS")

    # explorable-sized points: 64 MiB, 16 planes (needs op >= ~0.2), 3 fills
    def point(op, qd=32, gc="background"):
        cfg = SsdConfig(geometry=ssd_geometry(2**26, op, pages_per_block=16), gc=gc)
        return write_saturation(cfg, qd=qd, fills=3, rounds_per_fill=10)

    point(0.25)
    t = time.perf_counter()
    point(0.25)
    one = time.perf_counter() - t
    t = time.perf_counter()
    for op in (0.15, 0.25, 0.4, 0.7, 1.0):
        for qd in (1, 4, 16, 64):
            point(op, qd)
    grid = time.perf_counter() - t
    print(f"explorable: 64 MiB write saturation, 3 fills: {one * 1e3:.0f} ms per point; "
          f"5 op x 4 qd grid: {grid:.1f} s")


if __name__ == "__main__":
    main()
