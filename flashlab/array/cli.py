"""``flashlab array``: a whole array in time: capacity, IOPS, latency and which members collected.

Example::

    flashlab array --arch ground-up --drives 10 --raid 6 --op 0.07 --qd 64 --read-fraction 0.5 [--json]

``--rate`` gives an open loop (host I/Os per second) and ``--burst-ms ON OFF`` makes it bursty.
"""

from __future__ import annotations

import argparse
import dataclasses
import json

from flashlab.array.capacity import array_capacity
from flashlab.array.hosts import Host, simulate_hosts
from flashlab.array.sim import ARCHS, ArrayConfig, array_drive, simulate_array
from flashlab.ssd import HostLoad
from flashlab.workload import Workload


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "array",
        help="an array of SSDs, flash modules or disks: capacity, IOPS, latency, GC per member",
        description="Simulate an array on one clock (every member's queues, FTL and GC), with a RAID layout, and "
        "report its capacity, IOPS, read and write latency percentiles, and which members were collecting "
        "garbage. Architectures: disk (hard disks), ssd (independent SSDs), harmonia (globally synchronised "
        "GC), ground-up (at most --gc-limit members collect at once; reads to them are rebuilt from parity).",
    )
    p.add_argument("--arch", default="ssd", help=f"{', '.join(ARCHS)} (default ssd)")
    p.add_argument("--drives", type=int, default=10, help="members (default 10)")
    p.add_argument("--raid", type=int, default=6, help="RAID level 0, 1, 5, 6 or 10 (default 6)")
    p.add_argument("--stripe-unit", type=int, default=16384, help="stripe unit, bytes (default 16384)")
    p.add_argument("--op", type=float, default=0.07, help="flash members' over-provisioning (default 0.07)")
    p.add_argument("--timing", default="mlc_mqsim", help="flash members' NAND timing preset (default mlc_mqsim)")
    p.add_argument("--drive-mib", type=int, default=16, help="flash member user capacity, MiB (default 16)")
    p.add_argument("--gc-limit", type=int, default=1, help="ground-up: members collecting at once (default 1)")
    p.add_argument("--read-cache-mib", type=int, default=0, help="controller DRAM read cache, MiB (default 0)")
    p.add_argument("--write-cache-mib", type=int, default=0, help="mirrored write cache, MiB (default 0)")
    p.add_argument("--back-end", default="switched", help="switched or shared (default switched)")
    p.add_argument("--back-end-mb-s", type=float, default=400.0, help="shared back end, MB/s (default 400)")
    p.add_argument("--qd", type=int, default=64, help="host I/Os outstanding (closed loop) or in the array (default 64)")
    p.add_argument("--rate", type=float, default=None, help="open loop: host I/Os per second (default: closed loop)")
    p.add_argument("--burst-ms", type=float, nargs=2, default=None, metavar=("ON", "OFF"),
                   help="open loop only: issue during ON ms, then pause OFF ms")
    p.add_argument("--read-fraction", type=float, default=0.5, help="share of reads (default 0.5)")
    p.add_argument("--io-size", type=int, default=4096, help="host I/O size, bytes (default 4096)")
    p.add_argument("--requests", type=int, default=4000, help="host I/Os (default 4000)")
    p.add_argument("--hosts", type=int, default=1,
                   help="hosts sharing the array, each its own seeded stream of --requests/N host I/Os "
                        "(closed loop: --qd/N each; open loop: --rate/N each) (default 1)")
    p.add_argument("--stream", default="random",
                   help="random or seq (sequential I/Os, e.g. a backup; --io-size a whole stripe makes "
                        "them full-stripe writes) (default random)")
    p.add_argument("--precondition", type=float, default=1.0,
                   help="flash: random drive fills written before the run, untimed (default 1)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> str:
    from flashlab._validate import check_int

    drive = array_drive(args.op, check_int("drive_mib", args.drive_mib, 1, 4096) * 2**20, args.timing)
    config = ArrayConfig(arch=args.arch, drives=args.drives, raid=args.raid, stripe_unit=args.stripe_unit,
                         drive=drive, gc_limit=args.gc_limit,
                         read_cache_bytes=check_int("read_cache_mib", args.read_cache_mib, 0, 2**20) * 2**20,
                         write_cache_bytes=check_int("write_cache_mib", args.write_cache_mib, 0, 2**20) * 2**20,
                         back_end=args.back_end, back_end_mb_s=args.back_end_mb_s)
    load = HostLoad(qd=args.qd, rate_iops=args.rate, workload=Workload("uniform", read_fraction=args.read_fraction),
                    write_size=args.io_size, read_size=args.io_size)
    bursts = None if args.burst_ms is None else (args.burst_ms[0] * 1e3, args.burst_ms[1] * 1e3)
    hosts = None
    if args.hosts != 1 or args.stream != "random":
        hosts = _hosts(args, load, bursts)
        hr = simulate_hosts(config, hosts, precondition_fills=args.precondition, seed=args.seed)
        r = hr.array
    else:
        r = simulate_array(config, load, requests=args.requests, bursts=bursts,
                           precondition_fills=args.precondition, seed=args.seed)
    gc = r.gc_share()
    waits = r.stripe_waits()
    capacity = _capacity(config)
    out = {
        "capacity": capacity,
        "iops": r.iops(), "read_iops": r.iops(op=1), "write_iops": r.iops(op=0),
        "read_latency_us": r.percentiles(op=1), "write_latency_us": r.percentiles(op=0),
        "rebuilt_reads": int(r.rebuilt.sum()),
        "members": [{"member": d, "gc_share": float(gc[d]), "gc_jobs": int((r.gc_log["device"] == d).sum()),
                     "stripe_waits": int(waits[d])} for d in range(config.drives)],
        "max_collecting_at_once": _max_overlap(r),
        "error": r.error,
        "hosts": [] if hosts is None else hr.per_host(),
        "config": {"arch": args.arch, "drives": args.drives, "raid": args.raid, "stripe_unit": args.stripe_unit,
                   "op": args.op, "timing": args.timing, "qd": args.qd, "rate": args.rate,
                   "read_fraction": args.read_fraction,
                   "io_size": args.io_size, "requests": args.requests, "seed": args.seed,
                   "hosts": args.hosts, "stream": args.stream,
                   "read_cache_mib": args.read_cache_mib, "write_cache_mib": args.write_cache_mib,
                   "back_end": args.back_end,
                   "simulated_s": r.duration_us / 1e6},
    }
    if args.json:
        return json.dumps(out, indent=2, allow_nan=True)
    rd, wr = out["read_latency_us"], out["write_latency_us"]
    busy = [f"{d}:{gc[d]:.0%}" for d in range(config.drives) if gc[d] > 0]
    lines = [
        f"{args.arch} array, {config.drives} members, RAID-{args.raid}, stripe unit {args.stripe_unit} B: "
        f"raw {capacity['raw_bytes'] / 1e9:.3f} GB exported by the members"
        + (f" ({capacity['raw_flash_bytes'] / 1e9:.3f} GB of flash)" if capacity["raw_flash_bytes"] else "")
        + f", usable {capacity['usable_bytes'] / 1e9:.3f} GB after RAID",
        f"{r.iops():,.0f} IOPS ({r.iops(op=1):,.0f} reads, {r.iops(op=0):,.0f} writes) over "
        f"{r.duration_us / 1e6:.3f} s simulated",
        f"read latency: p50 {rd['p50'] / 1e3:.3f} ms, p99 {rd['p99'] / 1e3:.3f} ms, p99.9 {rd['p99.9'] / 1e3:.3f} ms",
        f"write latency: p50 {wr['p50'] / 1e3:.3f} ms, p99 {wr['p99'] / 1e3:.3f} ms, p99.9 {wr['p99.9'] / 1e3:.3f} ms",
        "members in GC (share of the run): " + (", ".join(busy) if busy else "none")
        + f"; at most {out['max_collecting_at_once']} at once; {out['rebuilt_reads']} reads rebuilt from parity",
    ]
    for h, ph in enumerate(out["hosts"]):
        lines.append(f"host {h} ({args.stream}): {ph['iops']:,.0f} IOPS, read p99 {ph['read']['p99'] / 1e3:.3f} ms, "
                     f"write p99 {ph['write']['p99'] / 1e3:.3f} ms")
    if r.error:
        lines.append(f"stopped: {r.error}")
    return "\n".join(lines)


def _hosts(args, load: HostLoad, bursts) -> list:
    """``--hosts`` equal hosts splitting the requests, the depth (closed loop) or the rate (open)."""
    from flashlab._validate import check_int

    n = check_int("hosts", args.hosts, 1, 256)
    check_int("requests", args.requests, n, 10**7)
    if bursts is not None:
        raise ValueError("--burst-ms applies to one host with --stream random; got hosts="
                         f"{args.hosts}, stream={args.stream!r}")
    if load.rate_iops is None:
        check_int("qd", args.qd, n, 65536)
    each = dataclasses.replace(load, qd=max(1, args.qd // n),
                               rate_iops=None if load.rate_iops is None else load.rate_iops / n)
    return [Host(load=each, stream=args.stream, start=i / n, requests=args.requests // n) for i in range(n)]


def _capacity(config: ArrayConfig) -> dict:
    """The capacity waterfall (:func:`flashlab.array.array_capacity`) of the members' exported
    bytes, and the flash behind them (raw flash: every member's physical pages)."""
    m = config.member
    exported = m.capacity_bytes if config.arch == "disk" else m.geometry.user_bytes
    cap = array_capacity(config.drives, exported, raid=config.raid)
    flash = 0 if config.arch == "disk" else config.drives * m.geometry.physical_pages * m.geometry.page_size
    return {"raw_flash_bytes": flash, "raw_bytes": cap.raw_bytes, "usable_bytes": cap.usable_bytes,
            "steps": [{"name": s.name, "bytes": s.bytes, "why": s.why} for s in cap.steps]}


def _max_overlap(r) -> int:
    """The most members running a GC job at the same moment."""
    log = r.gc_log
    if log["device"].size == 0:
        return 0
    end = log["end_us"].copy()
    end[~(end >= 0)] = float("inf")
    times = [(float(t), 1) for t in log["start_us"]] + [(float(t), -1) for t in end]
    best = cur = 0
    for _, step in sorted(times, key=lambda x: (x[0], x[1])):
        cur += step
        best = max(best, cur)
    return best
