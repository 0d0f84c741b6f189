"""Host traces from CSV files.

One request per line: ``op,lba,length`` where ``op`` is ``W``/``write``, ``R``/``read`` or
``T``/``trim`` (any case), ``lba`` the first logical page and ``length`` the number of pages
(optional, default 1). Blank lines and lines starting with ``#`` are skipped, and so is a first
line ``op,lba,length``. A malformed line raises ``ValueError`` naming the file, line number
and content.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from flashlab._validate import check_int, check_seed
from flashlab.workload import OP_READ, OP_TRIM, OP_WRITE
from flashlab.workload.generators import DEFAULT_CHUNK

_OPS = {"w": OP_WRITE, "write": OP_WRITE, "r": OP_READ, "read": OP_READ, "t": OP_TRIM, "trim": OP_TRIM}


@dataclass(frozen=True)
class Trace:
    """Host requests: op codes, first LBA (pages), length (pages) and source line of each."""

    ops: np.ndarray  # int8
    lbas: np.ndarray  # int64
    lengths: np.ndarray  # int64
    lines: np.ndarray  # int64, 1-based line numbers in the file

    @property
    def page_writes(self) -> int:
        """Host page writes in one pass over the trace."""
        return int(self.lengths[self.ops == OP_WRITE].sum())

    def chunks(self, user_pages: int, seed: int = 0, chunk_size: int = DEFAULT_CHUNK
               ) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """Endless replay of the trace (from the start again at its end) as ``(ops, lbas)``
        chunks of single-page requests, each chunk expanding at most ``chunk_size`` requests.
        ``seed`` is accepted for symmetry with :class:`Workload` (a trace is deterministic)."""
        check_int("user_pages", user_pages, 1, 2**31 - 1)
        check_seed("seed", seed)
        check_int("chunk_size", chunk_size, 1, 2**28)
        over = np.flatnonzero(self.lbas + self.lengths > user_pages)
        if over.size:
            i = over[0]
            raise ValueError(
                f"trace line {self.lines[i]}: lba {self.lbas[i]} + length {self.lengths[i]} must be "
                f"<= user_pages={user_pages}"
            )
        if self.page_writes == 0:
            raise ValueError("trace must contain at least one write to be replayed")
        while True:
            for start in range(0, self.ops.size, chunk_size):
                sl = slice(start, start + chunk_size)
                lengths = self.lengths[sl]
                first = np.repeat(self.lbas[sl], lengths)
                offset = np.arange(first.size) - np.repeat(np.cumsum(lengths) - lengths, lengths)
                yield np.repeat(self.ops[sl], lengths), (first + offset).astype(np.int32)


def read_trace(path) -> Trace:
    """Parse a CSV trace file (see the module docstring for the format)."""
    path = Path(path)
    ops, lbas, lengths, lines = [], [], [], []
    try:
        text = path.read_text()
    except OSError as exc:
        raise ValueError(f"trace file {str(path)!r} cannot be read: {exc.strerror}") from None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        fields = [f.strip() for f in line.split(",")]
        if not ops and [f.lower() for f in fields] == ["op", "lba", "length"]:
            continue  # header
        problem = _problem(fields)
        if problem:
            raise ValueError(f"{path}:{number}: {problem}: {raw!r}")
        ops.append(_OPS[fields[0].lower()])
        lbas.append(int(fields[1]))
        lengths.append(int(fields[2]) if len(fields) == 3 else 1)
        lines.append(number)
    if not ops:
        raise ValueError(f"{path}: trace holds no requests")
    return Trace(np.array(ops, dtype=np.int8), np.array(lbas, dtype=np.int64),
                 np.array(lengths, dtype=np.int64), np.array(lines, dtype=np.int64))


def _problem(fields: list[str]) -> str:
    """What is wrong with a split data line ('' if nothing)."""
    if len(fields) not in (2, 3):
        return f"expected op,lba[,length] (2 or 3 fields), got {len(fields)}"
    if fields[0].lower() not in _OPS:
        return f"op must be one of W, R, T (write, read, trim); got {fields[0]!r}"
    for name, value, lo in (("lba", fields[1], 0), ("length", fields[2] if len(fields) == 3 else "1", 1)):
        try:
            v = int(value)
        except ValueError:
            return f"{name} must be an integer >= {lo}; got {value!r}"
        if v < lo or v > 2**31 - 1:
            return f"{name} must be in [{lo}, {2**31 - 1}]; got {v}"
    return ""

