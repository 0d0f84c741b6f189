"""``flashlab wa``: steady-state write amplification of one FTL configuration.

Example::

    flashlab wa --blocks 8192 --pages-per-block 256 --op 0.07 --policy greedy \\
        --workload uniform --fills 20 --seed 1 [--json]
"""

from __future__ import annotations

import argparse
import json
import math

from flashlab.device.geometry import Geometry
from flashlab.ftl.core import POLICIES, SEPARATIONS, FtlConfig
from flashlab.ftl.models import wa_agarwal, wa_fifo, wa_greedy
from flashlab.ftl.simulate import simulate
from flashlab.workload import PATTERNS, Workload, read_trace


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "wa",
        help="steady-state write amplification of a page-mapped FTL",
        description="Simulate a page-mapped FTL and print its steady-state write amplification "
        "(flash page programs / host page writes) with the share of each cause.",
    )
    p.add_argument("--blocks", type=int, default=1024, help="erase blocks (default 1024)")
    p.add_argument("--pages-per-block", type=int, default=256, help="pages per block (default 256)")
    p.add_argument("--op", type=float, default=0.07, help="over-provisioning (physical-user)/user (default 0.07)")
    p.add_argument("--policy", default="greedy", help=f"GC victim policy: {', '.join(POLICIES)}")
    p.add_argument("--d", type=int, default=10, help="sample size of d_choices (default 10)")
    p.add_argument("--separation", default="gc", help=f"write streams: {', '.join(SEPARATIONS)} (default gc; "
                   "oracle: the hotcold workload's hot LBAs, --hot-fraction, go to the hot stream)")
    p.add_argument("--workload", default="uniform", help=f"request pattern: {', '.join(PATTERNS)}")
    p.add_argument("--hot-fraction", type=float, default=0.2, help="hotcold: share of LBAs that are hot")
    p.add_argument("--hot-share", type=float, default=0.8, help="hotcold: share of requests to hot LBAs")
    p.add_argument("--zipf-exponent", type=float, default=1.0, help="zipf: exponent s")
    p.add_argument("--trace", help="CSV trace (op,lba,length) replayed instead of --workload")
    p.add_argument("--fills", type=float, default=20.0, help="drive writes after the sequential fill")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> str:
    geometry = Geometry(blocks_per_plane=args.blocks, pages_per_block=args.pages_per_block, op=args.op)
    if args.trace is not None:
        if not args.trace.strip():
            raise ValueError("--trace must name a CSV trace file; got ''")
        workload = read_trace(args.trace)
    else:
        workload = Workload(args.workload, hot_fraction=args.hot_fraction, hot_share=args.hot_share,
                            zipf_exponent=args.zipf_exponent)
    hot_lbas = math.ceil(args.hot_fraction * geometry.user_pages) if args.separation == "oracle" else 0
    config = FtlConfig(policy=args.policy, d=args.d, separation=args.separation, hot_lbas=hot_lbas)
    r = simulate(geometry, config, workload, fills=args.fills, seed=args.seed)
    op_pages = geometry.effective_op
    theory = {
        "desnoyers_fifo_eq4": float(wa_fifo(op_pages)),
        "desnoyers_greedy_eq12": float(wa_greedy(op_pages, geometry.pages_per_block)),
        "agarwal_marrow": float(wa_agarwal(op_pages)),
    }
    out = {
        "wa_steady": r.wa_steady,
        "breakdown": {"host": 1.0, "gc": r.wa_gc, "wear_levelling": r.wa_wl, "refresh": r.wa_refresh},
        "wa_total": r.wa_total,
        "theory_uniform": theory,
        "counters": r.counters,
        "read_only": r.read_only,
        "user_pages": r.user_pages,
        "physical_pages": r.physical_pages,
        "spare_factor": geometry.spare_factor,
        "config": {"blocks": geometry.blocks, "pages_per_block": geometry.pages_per_block,
                   "op": geometry.op, "policy": config.policy, "separation": config.separation,
                   "workload": "trace" if args.trace is not None else workload.pattern,
                   "fills": args.fills, "seed": args.seed},
    }
    if args.json:
        return json.dumps(out, indent=2, allow_nan=True)
    lines = [
        f"steady-state WA {r.wa_steady:.3f} = host 1 + GC {r.wa_gc:.3f} + wear levelling {r.wa_wl:.3f} "
        f"+ refresh {r.wa_refresh:.3f}",
        f"device: {geometry.blocks} blocks x {geometry.pages_per_block} pages, op {geometry.op:g} "
        f"({r.user_pages} user of {r.physical_pages} pages, spare factor {geometry.spare_factor:.4f}); "
        f"policy {config.policy}, separation {config.separation}, "
        f"workload {out['config']['workload']}, {args.fills:g} fills, seed {args.seed}",
        f"uniform-random theory: Desnoyers FIFO (Eq. 4) {theory['desnoyers_fifo_eq4']:.3f}, "
        f"greedy (Eq. 12) {theory['desnoyers_greedy_eq12']:.3f}, Agarwal & Marrow {theory['agarwal_marrow']:.3f}",
    ]
    if r.read_only:
        lines.append(f"device became read-only: {r.read_only_reason}")
    return "\n".join(lines)
