"""`flashlab cliff`: text, JSON, and one-line errors with exit status 2."""

import json
import subprocess
import sys

import pytest

from flashlab.cli import main

SMALL = ["cliff", "--capacity-gib", "0.03125", "--op", "0.2", "--channels", "2", "--planes", "1",
         "--pages-per-block", "32", "--qd", "8", "--fills", "3", "--seed", "1"]


def test_text_output(capsys):
    assert main(SMALL) == 0
    out = capsys.readouterr().out
    assert out.startswith("fresh-out-of-box ")
    assert "steady state" in out and "p99.9" in out and "cliff at" in out


def test_json_output(capsys):
    assert main(SMALL + ["--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["fob_iops"] > 2 * data["steady_iops"] > 0
    assert data["cliff"]["fills"] > 0.5
    assert data["latency_after_us"]["p99"] > data["latency_before_us"]["p99"]
    # at least --fills 3 (30 rounds), then on until the last five rounds are steady
    rounds = len(data["rounds"]["iops"])
    assert rounds >= 30 and rounds == round(10 * data["fills_written"]) and data["steady_state_reached"] is True


def run_cli(*extra):
    return subprocess.run([sys.executable, "-m", "flashlab.cli", *SMALL, *extra], capture_output=True, text=True)


def test_bad_input_exits_2_with_one_line():
    for extra, message in [(["--qd", "-4"], "qd must be in"), (["--preset", "plc"], "preset must be one of"),
                           (["--op", "0.01"], "op must be >="), (["--capacity-gib", "-1"], "capacity_gib"),
                           (["--gc", "never"], "gc must be one of")]:
        proc = run_cli(*extra)
        assert proc.returncode == 2 and proc.stdout == ""
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and message in lines[0] and "Traceback" not in proc.stderr


@pytest.mark.slow
@pytest.mark.longest
def test_readme_run_reaches_the_steady_state(capsys):
    """The README's `flashlab cliff` (1 GiB, op 0.07, qd 32) goes on past 4 drive writes until the
    PTS criteria hold, and says so (about 15 s on one core)."""
    assert main(["cliff", "--preset", "mlc", "--op", "0.07", "--qd", "32", "--capacity-gib", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["steady_state_reached"] and 4.0 <= data["fills_written"] <= 16.0
    assert data["steady_window_rounds"][1] == len(data["rounds"]["iops"]) - 1
    assert data["latency_before_us"]["p99"] < 0.2 * data["latency_after_us"]["p99"]


@pytest.mark.parametrize("value", ["-1", "0", "-inf", "nan"])
def test_a_max_fills_that_is_no_number_of_fills_is_refused(capsys, value):
    """--max-fills of -1, 0 or -inf used to run as if it were --fills."""
    assert main(SMALL + [f"--max-fills={value}"]) == 2
    err = capsys.readouterr().err
    assert "--max-fills must be a positive number" in err and err.count("\n") == 1
