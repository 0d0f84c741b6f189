"""Fuzz the whole public engine API (see :mod:`fuzz_api`): every parameter of every public
constructor, function and method gets wrong types, bools, NaN/inf, huge and negative values,
empty and wrong-shaped arrays and unknown strings, and must answer sanely or raise an error
naming it. The layers run in two interpreters with a timeout, so a crash or a hang fails the
test with the case that caused it.

Default: a few drawn values per parameter plus every must-raise value of its kind (make test).
``pytest -m fuzz_deep`` draws many more.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

import pytest

import fuzz_api
from isolate import ROOT

# Two interpreters (the machine's two cores), each fuzzing its lane of groups one after the other,
# about the same work each. An interpreter costs ~3 s of CPU before its first case (numpy, numba,
# hypothesis, scipy and every layer, which targets() imports): six of them, one per layer or two,
# cost a third of the test. A crash or hang still names its case (the last CASE line), and the
# groups after it in its lane still run, in a new interpreter.
LANES = ("cell,ssd,db", "ftl,device,workload,presets,sweep,array,tech,quiz,cli")
GROUPS = tuple(g for lane in LANES for g in lane.split(","))
SCRIPT = str(ROOT / "tests" / "fuzz_api.py")


def test_every_public_name_has_a_fuzz_target():
    public = fuzz_api.public_names()
    covered = set(fuzz_api.targets()) | fuzz_api.RECORDS
    assert not public - covered, f"public names with no fuzz target in tests/fuzz_api.py: {sorted(public - covered)}"
    assert not set(fuzz_api.targets()) - public, "fuzz targets for names that are no longer public"
    assert {t.group for t in fuzz_api.targets().values()} == set(GROUPS)


def _fuzz_all(examples: int, timeout: float) -> None:
    """Run each lane in its own interpreter (concurrently) and fail on any crash, hang or finding.
    After a crash or hang the rest of that lane runs in a new interpreter, while time is left."""
    env = {**os.environ, "NUMBA_CACHE_DIR": os.environ.get("NUMBA_CACHE_DIR", str(ROOT / ".cache" / "numba")),
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    problems = []
    deadline = time.monotonic() + timeout
    pending = [lane.split(",") for lane in LANES]
    while pending:
        procs = []
        for groups in pending:
            out = tempfile.TemporaryFile("w+")
            procs.append((groups, out, subprocess.Popen([sys.executable, SCRIPT, ",".join(groups), str(examples)],
                                                        cwd=ROOT, env=env, stdout=out, stderr=subprocess.DEVNULL)))
        pending = []
        for groups, out, p in procs:
            try:
                p.wait(timeout=max(1.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
            out.seek(0)
            lines = out.read().splitlines()
            out.close()
            problems += [ln for ln in lines if ln.startswith("FAIL")]
            done = {ln.split()[1] for ln in lines if ln.startswith("DONE")}
            if p.returncode == 0 and done >= set(groups):
                continue
            last = next((ln for ln in reversed(lines) if ln.startswith("CASE")), "(before the first case)")
            stopped = next((g for g in groups if g not in done), groups[-1])
            problems.append(f"{stopped}: exit code {p.returncode} (crash or hang) during {last}")
            rest = groups[groups.index(stopped) + 1:]
            if rest and time.monotonic() < deadline:
                pending.append(rest)
            elif rest:
                problems.append(f"{','.join(rest)}: not fuzzed, no time left after the hang")
    assert not problems, "\n".join(problems)


def test_fuzz_public_api():
    _fuzz_all(examples=8, timeout=600)


@pytest.mark.fuzz_deep
def test_fuzz_public_api_deep(request):
    if "fuzz_deep" not in request.config.getoption("markexpr"):
        pytest.skip("deep profile: run with -m fuzz_deep")
    _fuzz_all(examples=300, timeout=3600)
