"""Fuzz the whole public engine API (see :mod:`fuzz_api`): every parameter of every public
constructor, function and method gets wrong types, bools, NaN/inf, huge and negative values,
empty and wrong-shaped arrays and unknown strings, and must answer sanely or raise an error
naming it. Each layer runs in its own interpreter with a timeout, so a crash or a hang fails the
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

# one interpreter per entry (the small layers share one: each start costs ~2 s of imports)
PROCESSES = ("cell", "ftl", "ssd,db", "device,workload,presets,sweep,array", "tech,quiz", "cli")
GROUPS = tuple(g for p in PROCESSES for g in p.split(","))


def test_every_public_name_has_a_fuzz_target():
    public = fuzz_api.public_names()
    covered = set(fuzz_api.targets()) | fuzz_api.RECORDS
    assert not public - covered, f"public names with no fuzz target in tests/fuzz_api.py: {sorted(public - covered)}"
    assert not set(fuzz_api.targets()) - public, "fuzz targets for names that are no longer public"
    assert {t.group for t in fuzz_api.targets().values()} == set(GROUPS)


def _fuzz_all(examples: int, timeout: float) -> None:
    """Run every group in its own interpreter (concurrently) and fail on any crash, hang or finding."""
    env = {**os.environ, "NUMBA_CACHE_DIR": os.environ.get("NUMBA_CACHE_DIR", str(ROOT / ".cache" / "numba")),
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    script = str(ROOT / "tests" / "fuzz_api.py")
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        procs = {}
        for g in PROCESSES:
            out = open(os.path.join(tmp, f"{g}.out"), "w+")
            procs[g] = (subprocess.Popen([sys.executable, script, g, str(examples)], cwd=ROOT, env=env, stdout=out,
                                         stderr=subprocess.DEVNULL), out)
        deadline = time.monotonic() + timeout
        for g, (p, out) in procs.items():
            try:
                p.wait(timeout=max(1.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
            out.seek(0)
            lines = out.read().splitlines()
            out.close()
            last = next((ln for ln in reversed(lines) if ln.startswith("CASE")), "(before the first case)")
            done = [ln for ln in lines if ln.startswith("DONE")]
            if p.returncode != 0 or not done:
                problems.append(f"{g}: exit code {p.returncode} (crash or hang) during {last}")
            problems += [f"{g}: {ln}" for ln in lines if ln.startswith("FAIL")]
    assert not problems, "\n".join(problems)


def test_fuzz_public_api():
    _fuzz_all(examples=8, timeout=600)


@pytest.mark.fuzz_deep
def test_fuzz_public_api_deep(request):
    if "fuzz_deep" not in request.config.getoption("markexpr"):
        pytest.skip("deep profile: run with -m fuzz_deep")
    _fuzz_all(examples=300, timeout=3600)
