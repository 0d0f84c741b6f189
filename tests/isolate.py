"""Run Python code in a fresh interpreter with a timeout, for checks where a bug could crash or
hang the process (an out-of-bounds write in a kernel compiled without bounds checks is silent
memory corruption: a segfault, an abort, or a later unrelated failure)."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Outcome:
    returncode: int | None  # None: killed at the timeout
    stdout: str
    stderr: str

    def describe(self) -> str:
        end = "timed out" if self.returncode is None else f"exit code {self.returncode}"
        return f"{end}\n--- stdout (tail)\n{self.stdout[-3000:]}\n--- stderr (tail)\n{self.stderr[-3000:]}"


def run_isolated(code: str, timeout: float = 120.0, env: dict | None = None, args=()) -> Outcome:
    """Run ``code`` (a script; ``args`` become its ``sys.argv[1:]``) in a new interpreter from the
    repository root, sharing this process's numba cache directory."""
    full_env = {**os.environ, **(env or {})}
    full_env.setdefault("NUMBA_CACHE_DIR", str(ROOT / ".cache" / "numba"))
    full_env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "tests"), str(ROOT), full_env.get("PYTHONPATH", "")])
    try:
        p = subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, env=full_env, capture_output=True,
                           text=True, timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout.decode() if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        err = exc.stderr.decode() if isinstance(exc.stderr, bytes) else (exc.stderr or "")
        return Outcome(None, out, err)
    return Outcome(p.returncode, p.stdout, p.stderr)
