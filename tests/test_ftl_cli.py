"""`flashlab wa` from the command line: text, JSON, and one-line errors with exit status 2."""

import json
import subprocess
import sys

import pytest

from flashlab.cli import main

SMALL = ["wa", "--blocks", "256", "--pages-per-block", "32", "--op", "0.2", "--fills", "2", "--seed", "1"]


def test_text_output(capsys):
    assert main(SMALL) == 0
    out = capsys.readouterr().out
    assert out.startswith("steady-state WA ")
    assert "GC" in out and "Desnoyers" in out


def test_json_output_parses_and_adds_up(capsys):
    assert main(SMALL + ["--policy", "fifo", "--workload", "hotcold", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    parts = data["breakdown"]
    assert data["wa_steady"] == pytest.approx(sum(parts.values()))
    assert data["config"]["policy"] == "fifo" and data["config"]["workload"] == "hotcold"
    assert data["counters"]["host_writes"] == data["user_pages"] * 3


def test_oracle_separation_takes_the_hot_set_from_hot_fraction(capsys):
    hotcold = ["--workload", "hotcold", "--hot-fraction", "0.1", "--hot-share", "0.9", "--policy", "cost_benefit",
               "--json"]
    wa = {}
    for sep in ("none", "oracle"):
        assert main(SMALL + hotcold + ["--separation", sep]) == 0
        data = json.loads(capsys.readouterr().out)
        assert data["config"]["separation"] == sep
        wa[sep] = data["wa_steady"]
    assert wa["oracle"] < wa["none"]


def test_trace_input(tmp_path, capsys):
    trace = tmp_path / "t.csv"
    trace.write_text("".join(f"W,{(7 * i) % 600},1\n" for i in range(600)))
    assert main(SMALL + ["--trace", str(trace), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["config"]["workload"] == "trace"


@pytest.mark.parametrize(
    "extra,message",
    [
        (["--op", "0"], "op must be in"),
        (["--policy", "lru"], "policy must be one of"),
        (["--blocks", "-3"], "blocks_per_plane must be in"),
        (["--blocks", "x"], "invalid int value"),
        (["--op", "0.01"], "op must be >="),
    ],
)
def test_bad_input_exits_2_with_one_line(extra, message):
    proc = subprocess.run([sys.executable, "-m", "flashlab.cli", *SMALL, *extra],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0] and "Traceback" not in proc.stderr


def test_malformed_trace_names_the_line(tmp_path):
    trace = tmp_path / "bad.csv"
    trace.write_text("W,1,1\nW,two,1\n")
    proc = subprocess.run([sys.executable, "-m", "flashlab.cli", *SMALL, "--trace", str(trace)],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert "bad.csv:2: lba must be an integer" in proc.stderr


def test_an_empty_trace_name_is_refused_not_replaced_by_the_synthetic_workload(capsys):
    assert main(SMALL + ["--trace", ""]) == 2
    err = capsys.readouterr().err
    assert "--trace must name a CSV trace file" in err and err.count("\n") == 1
