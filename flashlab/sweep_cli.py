"""``flashlab sweep``: run another subcommand over a grid of its parameters.

Example::

    flashlab sweep wa --op 0.05:0.5:10 --policy greedy,fifo,cost_benefit \\
        --workload uniform,hotcold --fills 20 [--scheduler tcp://HOST:PORT] [--out results.parquet]

Every option of the swept subcommand (``wa``, ``cliff``, ``rber``) is taken from that
subcommand's own parser and accepts a comma-separated list (``greedy,fifo``) or, for numbers,
``start:stop:count`` (``count`` evenly spaced values, both ends included). Options left out keep
the subcommand's default. Each point's seed comes from :func:`flashlab.sweep.point_seed` under
``--seed``. Where a subcommand option has the name of a sweep option, it is spelled
``--<command>-<name>`` (``flashlab sweep cliff --cliff-scheduler fifo``).
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import json
import math
from functools import lru_cache

from flashlab._validate import check_int
from flashlab.sweep import MAX_POINTS, SweepError, sweep

# Sweep options (their names win over a subcommand's options of the same name).
_OWN = ("scheduler", "out", "workers", "seed", "csv")
# Subcommand options that are not parameters of a point.
_SKIP = ("help", "json", "seed", "func")
# What the text output shows of each subcommand's results (--csv and --out hold every column).
HEADLINE = {
    "wa": ("wa_steady", "wa_total"),
    "cliff": ("fob_iops", "steady_iops", "steady_wa"),
    "rber": ("uber_worst_page", "endurance_pe"),
}


@lru_cache(maxsize=None)
def _subcommands() -> dict[str, argparse.ArgumentParser]:
    """The sweepable subcommands' parsers, built by their own ``register``."""
    from flashlab.cli import SUBCOMMAND_MODULES, _Parser

    sub = _Parser(prog="flashlab").add_subparsers(dest="command", parser_class=_Parser)
    for name in SUBCOMMAND_MODULES:
        if name != __name__:
            importlib.import_module(name).register(sub)
    return {name: p for name, p in sub.choices.items() if name in HEADLINE}


def _options(command: str) -> list[argparse.Action]:
    return [a for a in _subcommands()[command]._actions if a.dest not in _SKIP]


class SubcommandPoint:
    """``flashlab <command>`` as a function of its parameters, returning its ``--json`` report
    (per-page lists keyed by page name), for :func:`flashlab.sweep.sweep`."""

    def __init__(self, command: str):
        if command not in HEADLINE:
            raise ValueError(f"command must be one of {', '.join(HEADLINE)}; got {command!r}")
        self.command = command
        self.__qualname__ = f"SubcommandPoint({command!r})"

    @property
    def __signature__(self) -> inspect.Signature:
        params = [inspect.Parameter(a.dest, inspect.Parameter.KEYWORD_ONLY, default=a.default)
                  for a in _options(self.command)]
        if any(a.dest == "seed" for a in _subcommands()[self.command]._actions):
            params.append(inspect.Parameter("seed", inspect.Parameter.KEYWORD_ONLY, default=0))
        return inspect.Signature(params)

    def __call__(self, **params):
        parser = _subcommands()[self.command]
        args = parser.parse_args([])
        for name, value in params.items():
            setattr(args, name, value)
        args.json = True
        # the report echoes some inputs at its top level (rber's "cell"): those are columns already
        report = {k: v for k, v in json.loads(args.func(args)).items() if k not in params}
        pages = report.get("pages")
        if isinstance(pages, list):
            report = {k: dict(zip(pages, v)) if isinstance(v, list) and len(v) == len(pages) and k != "pages" else v
                      for k, v in report.items()}
        return report


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "sweep",
        help="run wa, cliff or rber over a grid of parameters, on local cores or a Dask cluster",
        description="Run a subcommand over the Cartesian product of its options' values. Each option "
        "takes a list a,b,c or, for numbers, start:stop:count. Prints one row per point.",
    )
    commands = p.add_subparsers(dest="swept", required=True, parser_class=type(p))
    for command, parser in _subcommands().items():
        c = commands.add_parser(command, help=f"sweep `flashlab {command}`", description=parser.description)
        for action in _options(command):
            flag = max(action.option_strings, key=len)
            if action.dest in _OWN:
                flag = f"--{command}-{flag.lstrip('-')}"
            kind = "true,false" if action.nargs == 0 else ("a,b,c or start:stop:count"
                                                           if action.type in (int, float) else "a,b,c")
            c.add_argument(flag, dest=f"grid_{action.dest}", metavar="VALUES",
                           help=f"{action.help or action.dest} [{kind}]")
        c.add_argument("--seed", type=int, default=0, help="root seed of every point's seed (default 0)")
        c.add_argument("--scheduler", help="Dask scheduler address (e.g. tcp://HOST:8786); default: local cores")
        c.add_argument("--workers", type=int, help="local processes (default: all cores; 1 runs serially)")
        c.add_argument("--out", help="Parquet results file: written as points finish, resumed if it exists")
        c.add_argument("--csv", action="store_true", help="print every column as CSV instead of a summary")
        c.set_defaults(func=run)


def parse_values(action: argparse.Action, text: str) -> list:
    """The values one sweep option lists: ``a,b,c`` or ``start:stop:count``."""
    flag = max(action.option_strings, key=len)
    if action.nargs == 0:  # a flag: true or false
        words = {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}
        try:
            return [words[w.strip().lower()] for w in text.split(",")]
        except KeyError:
            raise ValueError(f"{flag} takes true,false; got {text!r}") from None
    convert = action.type or str
    if ":" in text and convert in (int, float):
        parts = text.split(":")
        try:
            start, stop, count = float(parts[0]), float(parts[1]), int(parts[2])
        except (ValueError, IndexError):
            raise ValueError(f"{flag} range must be start:stop:count (e.g. 0.05:0.5:10); got {text!r}") from None
        if len(parts) != 3 or count < 2 or not (math.isfinite(start) and math.isfinite(stop)):
            raise ValueError(f"{flag} range must be start:stop:count with finite ends and count >= 2; got {text!r}")
        check_int(f"{flag} range count", count, 2, MAX_POINTS)  # the values are built before the grid is counted
        step = (stop - start) / (count - 1)
        values = [float(f"{start + i * step:.12g}") for i in range(count)]
        if convert is int:
            if any(v != round(v) for v in values):
                raise ValueError(f"{flag} takes integers; the range {text!r} gives {values}")
            values = [int(round(v)) for v in values]
        return values
    out = []
    for word in text.split(","):
        word = word.strip()
        try:
            value = convert(word)
        except ValueError:
            raise ValueError(f"{flag} takes {convert.__name__} values; got {word!r}") from None
        if action.choices is not None and value not in action.choices:
            raise ValueError(f"{flag} must be one of {', '.join(map(str, action.choices))}; got {word!r}")
        out.append(value)
    return out


def _check_scheduler(address: str) -> None:
    """Refuse a --scheduler that names no Dask scheduler (blank, or an unknown scheme) before
    any point runs."""
    from distributed.comm import parse_address
    from distributed.comm.registry import get_backend

    scheme, location = parse_address(address.strip()) if address.strip() else ("", "")
    try:
        get_backend(scheme)
        ok = bool(location)
    except ValueError:
        ok = False
    if not ok:
        raise ValueError(f"--scheduler must be a Dask scheduler address such as tcp://HOST:8786; got {address!r}")


def run(args: argparse.Namespace) -> str:
    command = args.swept
    grid = {}
    for action in _options(command):
        text = getattr(args, f"grid_{action.dest}")
        if text is not None:
            grid[action.dest] = parse_values(action, text)
    if not grid:
        raise ValueError(f"give at least one option to sweep, e.g. `flashlab sweep {command} "
                         f"{max(_options(command)[0].option_strings, key=len)} a,b`")
    if args.out is not None and not args.out.endswith(".parquet"):
        raise ValueError(f"--out must name a .parquet file; got {args.out!r}")
    if args.scheduler is not None:
        _check_scheduler(args.scheduler)
    try:
        table = sweep(SubcommandPoint(command), grid, seed=args.seed, client=args.scheduler, workers=args.workers,
                      results=args.out)
    except SweepError as exc:
        first = exc.table[exc.table["error"].notna()].iloc[0]
        kept = len(exc.table) - len(exc.failed)
        saved = f"; {kept} finished point(s) saved in {args.out}" if args.out and kept else ""
        raise ValueError(f"{len(exc.failed)} of {len(exc.table)} points failed, first {exc.failed[0]}: "
                         f"{first['error']}{saved}") from None
    except OSError as exc:  # the scheduler could not be reached
        raise ValueError(f"--scheduler {args.scheduler!r}: {exc}") from None
    if args.csv:
        return table.to_csv().rstrip("\n")
    return table[list(HEADLINE[command])].to_string()
