"""``flashlab act``: a drive preset run through the Aerospike Certification Tool's storage test
(:mod:`flashlab.drives.qualify`), at one load multiple or searched for its rating.

Examples::

    flashlab act --preset pm9a3 --multiple 30
    flashlab act --preset pm9a3
"""

from __future__ import annotations

import argparse

from flashlab._validate import check_choice
from flashlab.drives.presets import DRIVES
from flashlab.drives.qualify import act_rating, act_run, format_qos


def register(subparsers) -> None:
    a = subparsers.add_parser(
        "act",
        help="Aerospike Certification Tool storage test on a drive preset: one load multiple, or its rating",
        description="Run ACT's storage load (N x 2000 reads of 1.5 KiB records and N x 1000 record writes "
        "per second, the writes as 128 KiB large blocks doubled by defragmentation, with as many large-block "
        "reads) on a drive preset at its small_config, from a used drive, and apply ACT's pass rule: fewer than "
        "5%%, 1%% and 0.1%% of reads over 1, 8 and 64 ms. With --multiple, one run; without, the highest "
        "passing multiple (doubling, then bisection).",
    )
    a.add_argument("--preset", default="pm9a3", help=f"drive preset: {', '.join(DRIVES)} (default pm9a3)")
    a.add_argument("--multiple", type=int, default=None, help="one load multiple N (default: search the rating)")
    a.add_argument("--max-multiple", type=int, default=1024, help="search: highest multiple tried (default 1024)")
    a.add_argument("--record-reads", type=int, default=20000, help="record reads per run (default 20000)")
    a.add_argument("--slices", type=int, default=1, help="one run: slices the rule judges apart (default 1)")
    a.add_argument("--precondition", type=float, default=1.0,
                   help="random 4 KiB drive fills after the sequential fill, untimed (default 1)")
    a.add_argument("--seed", type=int, default=0)
    a.set_defaults(func=run_act)


def run_act(args: argparse.Namespace) -> str:
    drive = DRIVES[check_choice("preset", args.preset.lower(), tuple(DRIVES))]
    if args.multiple is not None:
        r = act_run(drive, args.multiple, reads=args.record_reads, slices=args.slices, precondition_fills=args.precondition,
                    seed=args.seed)
        ld = r.load
        return "\n".join([
            f"{drive.name} at ACT {ld.multiple}x: {ld.read_iops:,.0f} record reads/s, {ld.large_block_iops:,.1f} "
            f"large-block writes/s ({ld.write_mb_s:,.1f} MB/s) and as many large-block reads, "
            f"{r.duration_s:.3g} s simulated, WA {r.wa:.2f}",
            r.verdict.table(), format_qos(r.qos, "record read")] + ([f"the engine stopped: {r.error}"] if r.error else []))
    if args.slices != 1:
        raise ValueError(f"slices: a rating judges each run whole (1); got {args.slices}")
    r = act_rating(drive, max_multiple=args.max_multiple, reads=args.record_reads, precondition_fills=args.precondition,
                   seed=args.seed)
    tried = ", ".join(f"{m}x {v}" for m, v in r.tried)
    return f"{drive.name}: ACT rating {r}" + (f" (tried {tried})" if tried else "")
