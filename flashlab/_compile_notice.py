"""Say so, once, while numba compiles a kernel group for the first time.

A kernel group's first call with a cold numba cache compiles it (the drive engine: the longest
wait in flashlab); later calls, in this process or any other sharing the cache, load it. Around
such a call, :func:`compile_notice` prints one line to stderr the moment numba starts compiling
(numba's ``numba:compile`` event fires on a cache miss only, never on a cache load), at most
once per group and process. A notebook shows it as a stream output under the cell.

It stays quiet where nobody waits on a screen: when the environment sets
``FLASHLAB_COMPILE_NOTICE=0``, as the test suite (``tests/conftest.py``, inherited by the
processes and notebook kernels tests start), the book build (``make book``, ``make book-student``)
and ``make kernels`` (``tools/compile_kernels.py``) do. (Binder's cache warm-up runs the chapters
in memory: their stderr is never shown.)
"""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager

from numba.core import event

ENV = "FLASHLAB_COMPILE_NOTICE"
_said: set[str] = set()


class _Notice(event.Listener):
    def __init__(self, what: str, cpu_s: float):
        self.what, self.cpu_s = what, cpu_s

    def on_start(self, ev):
        if self.what in _said:
            return
        _said.add(self.what)
        print(f"flashlab: compiling {self.what}, once, about {self.cpu_s:.0f} s (numba caches it on disk: later "
              f"calls start at once)", file=sys.stderr, flush=True)

    def on_end(self, ev):
        pass


@contextmanager
def compile_notice(what: str, cpu_s: float):
    """Inside the block, the first numba compile prints ``compiling <what>, once, about <cpu_s>
    s`` to stderr, once per ``what`` and process (``cpu_s``: the group's cold compile, CPU
    seconds, as ``benchmarks/bench_compile.py`` measures it); nothing when every kernel comes
    from the cache, or when ``FLASHLAB_COMPILE_NOTICE=0``."""
    if what in _said or os.environ.get(ENV) == "0":
        yield
        return
    with event.install_listener("numba:compile", _Notice(what, cpu_s)):
        yield
