"""The ``flashlab`` command.

Each subcommand lives beside the layer it reports on, in a module exposing
``register(subparsers)`` that adds its parser and sets ``func`` (a callable taking the
parsed arguments and returning the text to print, or the text and an exit status: ``flashlab
spec`` exits 1 for a specification the drive fails). This module only dispatches and turns
bad input (or a run too large for the memory) into a one-line message with exit status 2, never
a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

# Each subcommand and the module that provides it, in the order ``flashlab --help`` lists them.
# A command line naming one imports only its module: ``flashlab wa`` does not pay for importing
# every layer (SciPy's statistics among them: about a second of CPU before the FTL starts).
SUBCOMMANDS: dict[str, str] = {"rber": "flashlab.cell.cli", "wa": "flashlab.ftl.cli", "cliff": "flashlab.ssd.cli",
                               "sweep": "flashlab.sweep_cli", "quiz": "flashlab.quiz.cli",
                               "array": "flashlab.array.cli", "spec": "flashlab.drives.cli",
                               "act": "flashlab.drives.act_cli"}
SUBCOMMAND_MODULES: tuple[str, ...] = tuple(SUBCOMMANDS.values())


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line on stderr and exit status 2."""

    def error(self, message: str):  # noqa: D401 - argparse API
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every subcommand, or of ``command`` alone (one of :data:`SUBCOMMANDS`)."""
    parser = _Parser(prog="flashlab", description="Simulate NAND flash from the command line.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for name in (SUBCOMMANDS[command],) if command is not None else SUBCOMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    # the command is the first word that is not an option (flashlab itself takes none but --help)
    command = next((a for a in argv if not a.startswith("-")), None)
    parser = build_parser(command if command in SUBCOMMANDS else None)
    args = parser.parse_args(argv)
    try:
        text, status = out if isinstance(out := args.func(args), tuple) else (out, 0)
    except ValueError as exc:
        print(f"flashlab {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except MemoryError as exc:  # a run the checks let through outgrew the memory: still one line
        print(f"flashlab {args.command}: error: out of memory ({exc}); try a smaller run", file=sys.stderr)
        return 2
    try:
        print(text, flush=True)
    except BrokenPipeError:  # the reader went away (e.g. `| head`): no traceback
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
