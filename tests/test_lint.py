"""The package passes pyflakes' checks (run by ruff; rules in pyproject.toml): no unused imports
or variables, no undefined names, no f-string without a field. Under a second."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_package_has_no_pyflakes_findings():
    out = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise", "flashlab"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
