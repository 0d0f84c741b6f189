"""The drive engine's first call with a cold numba cache says, once, on stderr, that it is
compiling (:mod:`flashlab._compile_notice`); a call that loads the cache says nothing, and
neither does a cold one with ``FLASHLAB_COMPILE_NOTICE=0`` (as tests and the book build run).

Cheap: each case is a child process with its own numba cache in which ``run_events`` is swapped
for a small kernel of the same signature (it calls a helper kernel, so that the run compiles
two functions: the line must still come once), called through the real ``simulate_io``."""

import os
import subprocess
import sys
import textwrap

FAKE = textwrap.dedent('''
    from numba import njit


    @njit(cache=True)
    def _helper(stop_done):
        return stop_done


    @njit(cache=True)
    def run_events(e, stop_done, until):
        e.loop.events[0] += 1
        return _helper(stop_done)
''')

CHILD = textwrap.dedent('''
    import sys
    sys.path.insert(0, sys.argv[1])
    import fake_kernels
    from flashlab.ssd import HostLoad, SsdConfig, _kernels as K, simulate_io, ssd_geometry
    K.run_events = fake_kernels.run_events
    cfg = SsdConfig(geometry=ssd_geometry(2**26, 0.25, pages_per_block=16))
    for _ in range(2):
        simulate_io(cfg, HostLoad(qd=1), requests=1, progress=False)
''')


def _stderr(tmp_path, cache: str, **env) -> str:
    base = {k: v for k, v in os.environ.items() if k != "FLASHLAB_COMPILE_NOTICE"}
    p = subprocess.run([sys.executable, "-c", CHILD, str(tmp_path)], capture_output=True, text=True, timeout=600,
                       env={**base, "NUMBA_CACHE_DIR": str(tmp_path / cache), **env})
    assert p.returncode == 0, p.stderr[-3000:]
    return p.stderr


def test_the_first_compiling_call_says_so_once_and_a_warm_one_says_nothing(tmp_path):
    (tmp_path / "fake_kernels.py").write_text(FAKE)
    cold = _stderr(tmp_path, "cache")
    assert cold.count("flashlab: compiling the drive engine, once, about") == 1, cold
    assert _stderr(tmp_path, "cache") == ""  # the same kernels, loaded from the cache
    assert _stderr(tmp_path, "other", FLASHLAB_COMPILE_NOTICE="0") == ""  # cold, but quiet
