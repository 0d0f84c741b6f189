"""``flashlab cliff``: the SNIA PTS write-saturation curve of a simulated SSD.

Example::

    flashlab cliff --preset mlc --op 0.07 --qd 32 --capacity-gib 1 [--fills 4 --max-fills 16] [--json]

As the SNIA PTS does, it runs rounds until the last five meet the steady-state criteria: at least
``--fills`` capacities, at most ``--max-fills``.
"""

from __future__ import annotations

import argparse
import json
import math

from flashlab.ssd.pts import write_saturation
from flashlab.ssd.config import FOREGROUND, GC_MODES, SCHEDULERS, SsdConfig, ssd_geometry
from flashlab._validate import check_choice
from flashlab.device.timing import PRESETS


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "cliff",
        help="write cliff: fresh-out-of-box vs steady-state random-write IOPS and latency",
        description="Purge a simulated SSD, write random 4 KiB pages at a queue depth until "
        "at least --fills x its capacity is written and then until the last five rounds are steady (SNIA PTS "
        "write saturation and steady-state criteria) or --max-fills is reached, and report fresh-out-of-box "
        "and steady-state IOPS, where the cliff happens and the latency tail before and after.",
    )
    p.add_argument("--preset", default="mlc", help=f"NAND timing: {', '.join(PRESETS)} (default mlc)")
    p.add_argument("--op", type=float, default=0.07, help="over-provisioning (physical-user)/user (default 0.07)")
    p.add_argument("--qd", type=int, default=32, help="host queue depth, closed loop (default 32)")
    p.add_argument("--capacity-gib", type=float, default=1.0, help="user capacity in GiB (default 1)")
    p.add_argument("--fills", type=float, default=4.0,
                   help="capacity multiples of random writes, at least (default 4)")
    p.add_argument("--max-fills", type=float, default=16.0,
                   help="go on until steady state, up to this many capacity multiples (default 16; "
                   "equal to --fills: stop at --fills)")
    p.add_argument("--channels", type=int, default=4)
    p.add_argument("--dies", type=int, default=2, help="dies per channel (default 2)")
    p.add_argument("--planes", type=int, default=2, help="planes per die (default 2)")
    p.add_argument("--pages-per-block", type=int, default=64)
    p.add_argument("--gc", default="background", help=f"GC mode: {', '.join(GC_MODES)} (default background)")
    p.add_argument("--foreground", default="throttle", help=f"host writes under foreground GC: {', '.join(FOREGROUND)}")
    p.add_argument("--scheduler", default="read_priority", help=f"{', '.join(SCHEDULERS)}")
    p.add_argument("--precondition", action="store_true", help="first write 2x capacity sequentially (128 KiB)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> str:
    if not (isinstance(args.capacity_gib, float) and math.isfinite(args.capacity_gib)
            and 0 < args.capacity_gib <= 1024):
        raise ValueError(f"capacity_gib must be in (0, 1024]; got {args.capacity_gib!r}")
    geometry = ssd_geometry(round(args.capacity_gib * 2**30), args.op, channels=args.channels,
                            dies_per_channel=args.dies, planes_per_die=args.planes,
                            pages_per_block=args.pages_per_block)
    timing = check_choice("preset", args.preset, tuple(PRESETS))
    config = SsdConfig(geometry=geometry, timing=timing, gc=args.gc, foreground=args.foreground,
                       scheduler=args.scheduler)
    if not (math.isfinite(args.max_fills) and args.max_fills > 0):
        raise ValueError(f"--max-fills must be a positive number of capacity fills; got {args.max_fills!r}")
    max_fills = max(args.max_fills, args.fills)  # --fills above the default maximum: run exactly --fills
    r = write_saturation(config, qd=args.qd, fills=args.fills, max_fills=max_fills,
                         precondition=args.precondition, seed=args.seed)
    out = {
        "fob_iops": r.fob_iops,
        "steady_iops": r.steady_iops,
        "steady_state_reached": r.steady.reached,
        "steady_window_rounds": [r.steady.start, r.steady.end],
        "steady_wa": r.steady_wa,
        "cliff": None if r.cliff_round < 0 else {"round": r.cliff_round, "fills": r.cliff_fills,
                                                 "time_s": r.cliff_time_s},
        "fills_written": float(r.round_fills[-1]),
        "gc_start": None if r.gc_round < 0 else {"round": r.gc_round, "fills": float(r.round_fills[r.gc_round - 1])
                                                 if r.gc_round > 0 else 0.0},
        "latency_before_us": r.before,
        "latency_after_us": r.after,
        "rounds": {"fills": r.round_fills.tolist(), "iops": r.round_iops.tolist(),
                   "p99_us": r.round_p99_us.tolist(), "p99.9_us": r.round_p999_us.tolist(),
                   "wa": r.round_wa.tolist()},
        "config": {"preset": args.preset, "op": args.op, "qd": args.qd, "capacity_gib": args.capacity_gib,
                   "fills": args.fills, "max_fills": max_fills,
                   "units": config.units, "pages_per_block": geometry.pages_per_block,
                   "page_size": geometry.page_size, "gc": args.gc, "foreground": args.foreground,
                   "precondition": args.precondition, "seed": args.seed,
                   "simulated_s": r.result.duration_us / 1e6},
    }
    if args.json:
        return json.dumps(out, indent=2, allow_nan=True)
    cliff = ("no cliff (steady state within 20% of FOB)" if r.cliff_round < 0 else
             f"cliff at {r.cliff_fills:.2f} drive writes ({r.cliff_time_s:.1f} s simulated)")
    ss = (f"steady state reached after {r.round_fills[-1]:g} drive writes "
          f"(rounds {r.steady.start}-{r.steady.end}: excursion {r.steady.excursion:.1%}, "
          f"slope {r.steady.slope_change:.1%})" if r.steady.reached else
          f"steady state NOT reached within {max_fills:g} drive writes (last 5 rounds shown)")
    b, a = r.before, r.after
    return "\n".join([
        f"fresh-out-of-box {r.fob_iops:,.0f} IOPS -> steady state {r.steady_iops:,.0f} IOPS "
        f"(WA {r.steady_wa:.2f}); {cliff}",
        ss,
        f"latency before GC starts: p99 {b['p99'] / 1e3:.2f} ms, p99.9 {b['p99.9'] / 1e3:.2f} ms; "
        f"after: p99 {a['p99'] / 1e3:.2f} ms, p99.9 {a['p99.9'] / 1e3:.2f} ms",
        f"device: {args.preset}, {geometry.user_bytes / 2**30:.2f} GiB user, op {args.op:g}, {config.units} planes, "
        f"{geometry.pages_per_block} x 4 KiB pages per block; qd {args.qd}, {r.round_fills[-1]:g} fills written, "
        f"gc {args.gc}, seed {args.seed}",
    ])
