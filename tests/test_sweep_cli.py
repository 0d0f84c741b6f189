"""`flashlab sweep wa|cliff|rber`: the subcommands' own options as grids, the same numbers as the
subcommand itself, one-line errors with exit status 2."""

import io
import json

import pandas as pd
import pytest

from flashlab.cli import main
from flashlab.sweep import point_seed

WA = ["--blocks", "64", "--pages-per-block", "16", "--fills", "1", "--workers", "1"]


def _main(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_sweep_wa_matches_flashlab_wa_at_each_point(capsys, tmp_path):
    out_file = tmp_path / "wa.parquet"
    code, out, err = _main(["sweep", "wa", "--op", "0.1:0.3:3", "--policy", "greedy,fifo", *WA, "--seed", "2",
                            "--csv", "--out", str(out_file)], capsys)
    assert code == 0, err
    table = pd.read_csv(io.StringIO(out))
    assert len(table) == 6 and list(table["op"].unique()) == [0.1, 0.2, 0.3]
    row = table[(table["op"] == 0.2) & (table["policy"] == "fifo")].iloc[0]
    seed = point_seed({"blocks": 64, "pages_per_block": 16, "op": 0.2, "policy": "fifo", "fills": 1.0}, 2)
    assert row["seed"] == seed
    code, single, err = _main(["wa", "--blocks", "64", "--pages-per-block", "16", "--fills", "1", "--op", "0.2",
                               "--policy", "fifo", "--seed", str(seed), "--json"], capsys)
    report = json.loads(single)
    assert row["wa_steady"] == report["wa_steady"]
    assert row["counters.gc_copies"] == report["counters"]["gc_copies"]
    assert len(pd.read_parquet(out_file)) == 6


def test_sweep_rber_keys_pages_by_name_and_prints_a_summary(capsys):
    code, out, err = _main(["sweep", "rber", "--cell", "slc,tlc", "--pe", "0,3000", "--workers", "1"], capsys)
    assert code == 0, err
    lines = out.splitlines()
    assert "uber_worst_page" in lines[0] and "endurance_pe" in lines[0] and len(lines) == 2 + 4
    code, out, err = _main(["sweep", "rber", "--cell", "tlc", "--pe", "1000", "--workers", "1", "--csv"], capsys)
    table = pd.read_csv(io.StringIO(out))
    code, single, err = _main(["rber", "--cell", "tlc", "--pe", "1000", "--json"], capsys)
    report = json.loads(single)
    for page, value in zip(report["pages"], report["rber_read_retry"]):
        assert table[f"rber_read_retry.{page}"].iloc[0] == pytest.approx(value, rel=1e-15)


def test_sweep_cliff_renames_its_scheduler_option(capsys):
    with pytest.raises(SystemExit):
        main(["sweep", "cliff", "--help"])
    help_text = capsys.readouterr().out
    assert "--cliff-scheduler" in help_text and "Dask scheduler address" in help_text


@pytest.mark.parametrize("args, message", [
    (["--op", "0.1:0.3"], "--op range must be start:stop:count"),
    (["--op", "0.1:0.3:1"], "count >= 2"),
    (["--op", "a:b:3"], "--op range must be start:stop:count"),
    (["--blocks", "10:11:3"], "--blocks takes integers"),
    (["--blocks", "sixty"], "--blocks takes int values; got 'sixty'"),
    (["--policy", "greedy,bogus", "--blocks", "64", "--fills", "1", "--workers", "1"],
     "1 of 2 points failed, first {'blocks': 64, 'policy': 'bogus', 'fills': 1.0}: ValueError: policy must be"),
    ([], "give at least one option to sweep"),
    (["--op", "0.1,0.2", "--out", "wa.csv"], "--out must name a .parquet file"),
])
def test_bad_sweeps_exit_2_with_one_line(args, message, capsys):
    code, out, err = _main(["sweep", "wa", *args], capsys)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert message in err


def test_bad_rber_choice_and_flag_values(capsys):
    code, out, err = _main(["sweep", "rber", "--cell", "tlc,plc"], capsys)
    assert code == 2 and "--cell must be one of" in err and "'plc'" in err
    code, out, err = _main(["sweep", "cliff", "--precondition", "maybe"], capsys)
    assert code == 2 and "--precondition takes true,false" in err
