"""Host traces from CSV files.

One request per line: ``op,lba,length`` where ``op`` is ``W``/``write``, ``R``/``read`` or
``T``/``trim`` (any case), ``lba`` the first logical page and ``length`` the number of pages
(optional, default 1). Blank lines and lines starting with ``#`` are skipped, and so is a first
line ``op,lba,length``. Files are UTF-8 (a byte-order mark is ignored). A malformed line, or bytes
that are not UTF-8 text, raise ``ValueError`` naming the file, line number and (the start of) the
content.
"""

from __future__ import annotations

import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from flashlab._validate import check_int, check_seed, check_text, plain_fields, quote
from flashlab.workload import OP_READ, OP_TRIM, OP_WRITE
from flashlab.workload.generators import DEFAULT_CHUNK

_OPS = {"w": OP_WRITE, "write": OP_WRITE, "r": OP_READ, "read": OP_READ, "t": OP_TRIM, "trim": OP_TRIM}


@dataclass(frozen=True)
class Trace:
    """Host requests: op codes, first LBA (pages), length (pages) and source line of each, and
    where they came from (``source``: the file name, for messages)."""

    ops: np.ndarray  # int8
    lbas: np.ndarray  # int64
    lengths: np.ndarray  # int64
    lines: np.ndarray  # int64, 1-based line numbers in the file
    source: str = "<trace>"

    def __post_init__(self):
        plain_fields(self)
        check_text("source", self.source, 0, 4096)
        n = None
        for name, lo, hi in (("ops", OP_WRITE, OP_TRIM), ("lbas", 0, 2**31 - 1), ("lengths", 1, 2**31 - 1),
                             ("lines", 1, 2**62)):
            value = getattr(self, name)
            if not (isinstance(value, np.ndarray) and value.ndim == 1 and np.issubdtype(value.dtype, np.integer)):
                raise ValueError(f"{name} must be a 1-D integer array; got {quote(value)}")
            if n is not None and value.size != n:
                raise ValueError(f"{name} must have one entry per request ({n}, as ops); got {value.size}")
            n = value.size
            if n and (value.min() < lo or value.max() > hi):
                raise ValueError(f"{name} must be in [{lo}, {hi}]; got min {value.min()}, max {value.max()}")
            object.__setattr__(self, name, value.astype(np.int8 if name == "ops" else np.int64))

    @property
    def page_writes(self) -> int:
        """Host page writes in one pass over the trace."""
        return int(self.lengths[self.ops == OP_WRITE].sum())

    def chunks(self, user_pages: int, seed: int = 0, chunk_size: int = DEFAULT_CHUNK
               ) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """Endless replay of the trace (from the start again at its end) as ``(ops, lbas)``
        chunks of single-page requests, each chunk expanding at most ``chunk_size`` requests.
        ``seed`` is accepted for symmetry with :class:`Workload` (a trace is deterministic)."""
        check_seed("seed", seed)
        chunk_size = check_int("chunk_size", chunk_size, 1, 2**28)
        self._check_fits(user_pages)
        if self.page_writes == 0:
            raise ValueError("trace must contain at least one write to be replayed")
        while True:
            for start in range(0, self.ops.size, chunk_size):
                sl = slice(start, start + chunk_size)
                lengths = self.lengths[sl]
                first = np.repeat(self.lbas[sl], lengths)
                offset = np.arange(first.size) - np.repeat(np.cumsum(lengths) - lengths, lengths)
                yield np.repeat(self.ops[sl], lengths), (first + offset).astype(np.int32)

    def _check_fits(self, user_pages: int) -> None:
        """Raise naming the source and line of the first request beyond ``user_pages``."""
        user_pages = check_int("user_pages", user_pages, 1, 2**31 - 1)
        over = np.flatnonzero(self.lbas + self.lengths > user_pages)
        if over.size:
            i = over[0]
            raise ValueError(
                f"{self.source}:{self.lines[i]}: lba {self.lbas[i]} + length {self.lengths[i]} must be "
                f"<= user_pages={user_pages}"
            )


def read_trace(path, user_pages: int | None = None) -> Trace:
    """Parse a CSV trace file (see the module docstring for the format). With ``user_pages``,
    every request must also fit in ``[0, user_pages)`` (checked here, with the file and line,
    instead of when the trace is replayed)."""
    if not isinstance(path, (str, Path)):
        raise ValueError(f"path must be a str or a Path; got {quote(path)} ({type(path).__name__})")
    if user_pages is not None:
        user_pages = check_int("user_pages", user_pages, 1, 2**31 - 1)
    path = Path(path)
    ops, lbas, lengths, lines = [], [], [], []
    try:
        # a FIFO would block on open and /dev/zero never ends: look at the kind before opening
        if not stat.S_ISREG(path.stat().st_mode):
            raise ValueError(f"path {str(path)!r}: a trace must be a regular file, not a directory, pipe or "
                             f"device")
        data = path.read_bytes()
    except OSError as exc:
        raise ValueError(f"path {str(path)!r}: trace file cannot be read: {exc.strerror}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise ValueError(f"{path}:{line}: trace files must be UTF-8 text; byte {exc.start} "
                         f"({data[exc.start:exc.start + 1]!r}) is not (a binary, UTF-16 or Latin-1 file?)") from None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        fields = [f.strip() for f in line.split(",")]
        if not ops and [f.lower() for f in fields] == ["op", "lba", "length"]:
            continue  # header
        problem = _problem(fields)
        if problem:
            raise ValueError(f"{path}:{number}: {problem}: {quote(raw)}")
        ops.append(_OPS[fields[0].lower()])
        lbas.append(int(fields[1]))
        lengths.append(int(fields[2]) if len(fields) == 3 else 1)
        lines.append(number)
    if not ops:
        raise ValueError(f"{path}: trace holds no requests")
    trace = Trace(np.array(ops, dtype=np.int8), np.array(lbas, dtype=np.int64),
                  np.array(lengths, dtype=np.int64), np.array(lines, dtype=np.int64), str(path))
    if user_pages is not None:
        trace._check_fits(user_pages)
    return trace


def _problem(fields: list[str]) -> str:
    """What is wrong with a split data line ('' if nothing)."""
    if len(fields) not in (2, 3):
        return f"expected op,lba[,length] (2 or 3 fields), got {len(fields)}"
    if fields[0].lower() not in _OPS:
        return f"op must be one of W, R, T (write, read, trim); got {quote(fields[0])}"
    for name, value, lo in (("lba", fields[1], 0), ("length", fields[2] if len(fields) == 3 else "1", 1)):
        try:
            v = int(value)
        except ValueError:
            return f"{name} must be an integer >= {lo}; got {quote(value)}"
        if v < lo or v > 2**31 - 1:
            return f"{name} must be in [{lo}, {2**31 - 1}]; got {v}"
    return ""

