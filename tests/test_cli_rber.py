"""The ``flashlab rber`` command: table and JSON output, bad input exits 2 with one line."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from flashlab.cli import main

ROOT = Path(__file__).resolve().parents[1]


def _run(*args):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(ROOT / ".cache" / "numba"))
    return subprocess.run([sys.executable, "-m", "flashlab.cli", *args], capture_output=True, text=True, cwd=ROOT, env=env)


def test_issue_example_prints_rber_uber_and_endurance():
    r = _run("rber", "--cell", "tlc", "--pe", "3000", "--retention-days", "365", "--reads", "0",
             "--ecc-t", "40", "--codeword-bytes", "1024")
    assert r.returncode == 0, r.stderr
    for word in ("LSB", "CSB", "MSB", "UBER", "endurance"):
        assert word in r.stdout


def test_json_output_parses(capsys):
    assert main(["rber", "--cell", "qlc", "--pe", "500", "--retention-days", "30", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["pages"] == ["LSB", "CSB", "MSB", "TSB"]
    assert len(data["rber_default_refs"]) == 4
    assert all(r <= d * (1 + 1e-12) for r, d in zip(data["rber_read_retry"], data["rber_default_refs"]))
    assert data["endurance_pe"] > 500 and 0.0 <= data["uber_worst_page"] < 1.0


@pytest.mark.parametrize(
    "args",
    [
        ["rber", "--pe", "-1"],
        ["rber", "--pe", "nan"],
        ["rber", "--retention-days", "-3"],
        ["rber", "--reads", "inf"],
        ["rber", "--ecc-t", "-2"],
        ["rber", "--codeword-bytes", "0"],
        ["rber", "--target-uber", "5"],
        ["rber", "--cell", "plc"],
        ["rber", "--pe", "lots"],
    ],
)
def test_bad_input_exits_2_with_one_line_and_no_traceback(args):
    r = _run(*args)
    assert r.returncode == 2
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in r.stderr, r.stderr
