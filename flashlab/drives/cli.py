"""``flashlab spec``: a drive preset checked against an SSD specification
(:func:`flashlab.drives.qualify.check_spec`).

Examples::

    flashlab spec my-spec.txt
    flashlab spec -e "preset = pm9a3" -e "rwmixread = 70" -e "write_size_kib = 256" \\
        -e "write_mb_s = 1000" -e "read_p99.99_ms <= 2"

``spec`` exits 0 when every limit passes, 1 when one fails or cannot be supported by the
samples, 2 (one line naming the field) for a malformed specification.
"""

from __future__ import annotations

import argparse

from flashlab._validate import check_choice
from flashlab.drives.presets import DRIVES
from flashlab.drives.qualify import check_spec


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "spec",
        help="check a drive preset against an SSD specification (latency limits under a workload)",
        description="Evaluate a specification on a drive preset (at its small_config) in an open loop and print "
        "each limit beside its measured figure and the samples it rests on. A specification holds one item a "
        "line: 'field = value' (preset, rwmixread, read_size_kib, write_size_kib, write_mb_s, read_iops, "
        "requests, precondition_fills, seed) and 'metric <= ms' (read_ or write_, then pNN.NN, mean or max, "
        "then _ms). Exit status 0: pass; 1: a limit failed or its percentile is not supported by the samples; "
        "2: a malformed specification.",
    )
    p.add_argument("file", nargs="?", default=None, help="the specification file ('-': standard input)")
    p.add_argument("-e", "--line", action="append", default=[], help="a specification line (repeatable), "
                   "after the file's")
    p.add_argument("--preset", default=None, help=f"drive preset, overriding the spec's: {', '.join(DRIVES)}")
    p.set_defaults(func=run_spec)


def run_spec(args: argparse.Namespace):
    if args.file is None and not args.line:
        raise ValueError("file: give a specification file or lines with -e")
    text = ""
    if args.file is not None:
        import sys

        try:
            text = sys.stdin.read() if args.file == "-" else open(args.file, encoding="utf-8").read()
        except OSError as exc:
            raise ValueError(f"file: cannot read {args.file!r} ({exc.strerror})") from None
    text = "\n".join([text] + list(args.line))
    drive = None if args.preset is None else DRIVES[check_choice("preset", args.preset.lower(), tuple(DRIVES))]
    r = check_spec(text, drive)
    return r.report(), 0 if r.passed else 1
