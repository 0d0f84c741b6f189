"""flashlab.sweep: the same table serially, on local processes and on a Dask cluster; seeds keyed
by the point; resume from the results file without recomputing; clear errors for bad input."""

import os
import sys

import cloudpickle
import numpy as np
import pandas as pd
import pytest

from flashlab.device import Geometry
from flashlab.ftl import FtlConfig, simulate
from flashlab.sweep import SweepError, grid_points, point_seed, result_columns, sweep
from flashlab.workload import Workload

# Workers (spawned processes, Dask workers) get this module's functions by value, as they would
# a notebook's.
cloudpickle.register_pickle_by_value(sys.modules[__name__])

GRID = {"op": [0.1, 0.25], "policy": ["greedy", "fifo"]}


def tiny_wa(op, policy, seed, progress=True):
    """A real engine run, small enough to take milliseconds."""
    assert progress is False  # the sweep turns engine bars off
    g = Geometry(blocks_per_plane=64, pages_per_block=16, op=op)
    return simulate(g, FtlConfig(policy=policy), Workload("uniform"), fills=1.0, seed=seed, progress=progress)


def draws(a, b, seed):
    rng = np.random.default_rng(seed)
    return {"x": float(rng.random()), "sum": a + b, "tag": f"{a}-{b}", "big": a > 1,
            "series": np.arange(3), "nested": {"n": int(rng.integers(100))}}


@pytest.fixture(scope="module")
def serial_table():
    return sweep(tiny_wa, GRID, seed=7, workers=1)


def test_table_has_one_row_per_point_with_parameters_and_results(serial_table):
    t = serial_table
    assert list(t.index.names) == ["op", "policy"]
    assert list(t.index) == [(0.1, "greedy"), (0.1, "fifo"), (0.25, "greedy"), (0.25, "fifo")]
    assert {"seed", "wa_steady", "wa_gc", "counters.gc_copies", "read_only"} <= set(t.columns)
    assert "series" not in t.columns and "erase_counts" not in t.columns  # arrays are not columns
    # each row is the engine's own result at that point and seed
    g = Geometry(blocks_per_plane=64, pages_per_block=16, op=0.25)
    seed = point_seed({"op": 0.25, "policy": "fifo"}, 7)
    r = simulate(g, FtlConfig(policy="fifo"), Workload("uniform"), fills=1.0, seed=seed)
    assert t.loc[(0.25, "fifo"), "seed"] == seed
    assert t.loc[(0.25, "fifo"), "wa_steady"] == r.wa_steady
    assert t.loc[(0.25, "fifo"), "counters.erases"] == r.counters["erases"]
    ds = t.to_xarray()
    assert dict(ds.sizes) == {"op": 2, "policy": 2}
    assert float(ds.wa_steady.sel(op=0.1, policy="greedy")) == t.loc[(0.1, "greedy"), "wa_steady"]


def worker_numba(a):
    """What a worker's numba was set up with."""
    import numba

    return {"threads": numba.config.NUMBA_NUM_THREADS, "in_use": numba.get_num_threads(),
            "cache": os.path.abspath(numba.config.CACHE_DIR) if numba.config.CACHE_DIR else ""}


def check_workers(table):
    assert (table["threads"] == 1).all() and (table["in_use"] == 1).all()
    if os.environ.get("NUMBA_CACHE_DIR"):  # the workers share this process's compile cache
        assert (table["cache"] == os.path.abspath(os.environ["NUMBA_CACHE_DIR"])).all()


def test_local_processes_give_the_same_table(serial_table):
    assert sweep(tiny_wa, GRID, seed=7, workers=2).equals(serial_table)
    check_workers(sweep(worker_numba, {"a": [1, 2, 3, 4]}, workers=2))


def test_default_workers_without_an_affinity_mask(serial_table, monkeypatch):
    """macOS and Windows have no os.sched_getaffinity: the default worker count falls back to
    os.cpu_count() instead of raising AttributeError."""
    monkeypatch.delattr(os, "sched_getaffinity", raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 1)  # one core: the sweep runs serially
    assert sweep(tiny_wa, GRID, seed=7).equals(serial_table)


def test_dask_cluster_gives_the_same_table(serial_table):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        assert sweep(tiny_wa, GRID, seed=7, client=client).equals(serial_table)
        # a scheduler address works as well (the sweep opens and closes its own client)
        assert sweep(tiny_wa, GRID, seed=7, client=cluster.scheduler_address).equals(serial_table)
        check_workers(sweep(worker_numba, {"a": [1, 2, 3, 4]}, client=client))


def test_seeds_are_keyed_by_the_point_not_the_order():
    forward = sweep(draws, {"a": [1, 2, 3], "b": [10, 20]}, seed=3, workers=1)
    points = grid_points({"a": [1, 2, 3], "b": [10, 20]})[::-1]
    backward = sweep(draws, points, seed=3, workers=1)
    assert backward.sort_index().equals(forward.sort_index())
    part = sweep(draws, {"a": [2], "b": [20, 30]}, seed=3, workers=1)
    assert part.loc[(2, 20), "seed"] == forward.loc[(2, 20), "seed"]
    assert part.loc[(2, 20), "x"] == forward.loc[(2, 20), "x"]
    assert forward["seed"].nunique() == 6  # every point its own stream
    other = sweep(draws, {"a": [1, 2, 3], "b": [10, 20]}, seed=4, workers=1)
    assert not (other["seed"] == forward["seed"]).any()
    assert point_seed({"a": 1}) != point_seed({"a": 1.0})  # a point is its values and their types


def test_result_columns_rules():
    assert result_columns(3.5) == {"result": 3.5}
    cols = result_columns({"a": np.float64(1.5), "b": {"c": np.int32(2), "d": [1, 2]}, "e": np.zeros(3),
                           "f": np.array(4.0), "g": None, "h": np.True_})
    assert cols == {"a": 1.5, "b.c": 2, "f": 4.0, "g": None, "h": True}
    assert type(cols["b.c"]) is int and type(cols["h"]) is bool
    with pytest.raises(TypeError, match="result must be a dict, a dataclass or a scalar"):
        result_columns([1, 2])


class Calls:
    """A sweep function that records its points (serial runs call it in this process)."""

    def __init__(self, stop_at=None):
        self.seen, self.stop_at = [], stop_at

    def __call__(self, a, b, seed):
        if (a, b) == self.stop_at:
            raise KeyboardInterrupt  # as a user pressing Ctrl-C midway
        self.seen.append((a, b))
        return draws(a, b, seed)


def test_resume_skips_finished_points(tmp_path):
    grid = {"a": [1, 2, 3], "b": [10, 20]}
    fresh = sweep(draws, grid, seed=5, workers=1)
    path = tmp_path / "r.parquet"
    first = Calls(stop_at=(2, 20))
    with pytest.raises(KeyboardInterrupt):
        sweep(first, grid, seed=5, workers=1, results=path)
    assert first.seen == [(1, 10), (1, 20), (2, 10)]
    assert len(pd.read_parquet(path)) == 3  # the finished points were saved on the way out
    second = Calls()
    resumed = sweep(second, grid, seed=5, workers=1, results=path)
    assert second.seen == [(2, 20), (3, 10), (3, 20)]  # only what was missing
    assert resumed.equals(fresh)
    third = Calls()
    assert sweep(third, grid, seed=5, workers=1, results=path).equals(fresh)
    assert third.seen == []
    # resuming a larger grid computes only the new points; a different seed is refused
    fourth = Calls()
    sweep(fourth, {"a": [1, 2, 3, 4], "b": [10, 20]}, seed=5, workers=1, results=path)
    assert fourth.seen == [(4, 10), (4, 20)]
    with pytest.raises(ValueError, match="holds a sweep with seed 5; this sweep has seed 6"):
        sweep(Calls(), grid, seed=6, workers=1, results=path)


def last_to_finish(a, flag_dir):
    """Point a=1 waits until a=3 is done, so two workers finish the points 2, 3, 1."""
    import pathlib
    import time

    flags = pathlib.Path(flag_dir)
    if a == 1:
        deadline = time.monotonic() + 120.0
        while not (flags / "3").exists() and time.monotonic() < deadline:
            time.sleep(0.01)
    (flags / str(a)).write_text(str(time.monotonic_ns()))
    return {"a2": a * a}


def test_the_results_file_is_in_grid_order_whatever_finishes_first(tmp_path):
    path = tmp_path / "r.parquet"
    table = sweep(last_to_finish, {"a": [1, 2, 3], "flag_dir": [str(tmp_path)]}, workers=2, results=path)
    finished = sorted((1, 2, 3), key=lambda a: int((tmp_path / str(a)).read_text()))
    assert finished == [2, 3, 1]  # the workers did finish out of grid order
    assert list(pd.read_parquet(path)["a"]) == [1, 2, 3] == list(table.index.get_level_values("a"))


def flaky(a, seed):
    if a == 2:
        raise ValueError("a must not be 2")
    return {"a2": a * a}


def test_a_failing_point_is_named_and_the_rest_are_kept(tmp_path):
    path = tmp_path / "r.parquet"
    with pytest.raises(SweepError, match=r"1 of 4 points failed: \{'a': 2\} raised ValueError: a must not be 2") as e:
        sweep(flaky, {"a": [1, 2, 3, 4]}, workers=2, results=path)
    t = e.value.table
    assert e.value.failed == [{"a": 2}]
    assert t.loc[2, "error"] == "ValueError: a must not be 2" and np.isnan(t.loc[2, "a2"])
    assert list(t["a2"].drop(2)) == [1, 9, 16] and t["error"].drop(2).isna().all()
    assert sorted(pd.read_parquet(path)["a"]) == [1, 3, 4]
    kept = sweep(flaky, {"a": [1, 2, 3, 4]}, workers=1, errors="keep")
    assert kept.equals(t)


def needs_ab(a, b=1):
    return a + b


@pytest.mark.parametrize("grid, kind, message", [
    ({}, ValueError, "grid must name at least one parameter"),
    ([], ValueError, "grid must hold at least one point"),
    ({"a": []}, ValueError, r"grid\['a'\] must list at least one value"),
    ({"a": [1], "c": [2]}, ValueError, "grid parameter 'c' is not a parameter of .*needs_ab; it takes a, b"),
    ({"b": [1]}, ValueError, "needs parameter 'a'"),
    ({"a": [object()]}, TypeError, "grid values must be numbers, strings, booleans or None.*parameter 'a'"),
    ([{"a": 1}, {"a": 1}], ValueError, r"grid lists the point \{'a': 1\} more than once"),
    ("a", TypeError, "grid must be a dict of value lists or a list of dicts"),
])
def test_bad_grids_are_named(grid, kind, message):
    with pytest.raises(kind, match=message):
        sweep(needs_ab, grid, workers=1)


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="seed must be in"):
        sweep(needs_ab, {"a": [1]}, seed=-1)
    with pytest.raises(ValueError, match="workers must be in"):
        sweep(needs_ab, {"a": [1]}, workers=0)
    with pytest.raises(ValueError, match="errors must be one of"):
        sweep(needs_ab, {"a": [1]}, errors="ignore")
    with pytest.raises(TypeError, match="fn must be callable"):
        sweep(3, {"a": [1]})


# Found by tests/test_fuzz_api.py:
@pytest.mark.parametrize("kwargs, kind, match", [
    ({"progress": "False"}, ValueError, "progress must be True, False or None"),  # was truthy: a bar
    ({"client": 3}, TypeError, "client must be"),
    ({"results": 3}, ValueError, "results must be the path of a .parquet file"),
    ({"results": "r.csv"}, ValueError, "results must be the path of a .parquet file"),  # was written as Parquet
])
def test_bad_options_are_named_before_anything_runs(kwargs, kind, match):
    with pytest.raises(kind, match=match):
        sweep(needs_ab, {"a": [1], "b": [2]}, workers=1, **kwargs)


def test_a_results_file_that_is_not_parquet_is_named(tmp_path):
    path = tmp_path / "r.parquet"
    path.write_bytes(b"not a parquet file")  # pyarrow's ArrowInvalid named neither file nor parameter
    with pytest.raises(ValueError, match="results=.* is not a flashlab sweep results file"):
        sweep(needs_ab, {"a": [1], "b": [2]}, workers=1, results=path)


def test_a_numpy_seed_saves_results(tmp_path):
    path = tmp_path / "r.parquet"  # np.int64 seeds crashed writing the file's JSON metadata
    table = sweep(draws, {"a": [1], "b": [2]}, seed=np.int64(7), workers=1, results=path)
    again = sweep(draws, {"a": [1], "b": [2]}, seed=7, workers=1, results=path)
    pd.testing.assert_frame_equal(table, again)


def test_point_seed_names_a_bad_point():
    with pytest.raises(TypeError, match="point values must be numbers"):
        point_seed({"x": [1]})
    with pytest.raises(TypeError, match="point must be a dict"):
        point_seed(None)


HUGE_GRIDS = """
import resource
resource.setrlimit(resource.RLIMIT_AS, (2**32, 2**32))  # a regression builds the points: MemoryError, not the OOM killer
from flashlab.sweep import grid_points
from flashlab.cli import main
side = list(range(10**4))
try:
    grid_points({"a": side, "b": side, "c": side})
    print("ACCEPTED")
except ValueError as exc:
    print(exc)
print("exit", main(["sweep", "wa", "--op", "0.1:0.5:1000000000000"]))
"""


def test_grids_too_large_to_run_are_refused_before_they_are_built():
    """Three lists of 10**4 values are 10**12 points, and `--op 0.1:0.5:10**12` a list of 10**12
    values: both were built in memory (a hang, then the OOM killer) before anything ran."""
    from isolate import run_isolated

    res = run_isolated(HUGE_GRIDS, timeout=120)
    assert res.returncode == 0, res.describe()
    assert res.stdout.splitlines() == [
        "grid must have at most 1000000 points (the product of its value counts); got 1000000000000 (a: 10000, "
        "b: 10000, c: 10000)", "exit 2"], res.stdout
    assert "--op range count must be in [2, 1000000]; got 1000000000000" in res.stderr, res.stderr


def _defined(body: str):
    """A function ``g(a, seed)`` returning ``{"x": <body>}``, compiled from text (no source file):
    the same name whatever the body, as a function edited in a notebook keeps its name."""
    ns = {"__name__": "notebook"}
    exec(f"def g(a, seed):\n    return {{'x': {body}}}\n", ns)
    return ns["g"]


def test_an_edited_function_does_not_resume_from_its_old_results(tmp_path):
    """The file matched functions by name and seed only: editing the body and rerunning returned
    the old results, silently."""
    path = tmp_path / "r.parquet"
    first = sweep(_defined("a + 1"), {"a": [1, 2]}, seed=3, workers=1, results=path)
    assert list(first["x"]) == [2, 3]
    assert sweep(_defined("a + 1"), {"a": [1, 2]}, seed=3, workers=1, results=path).equals(first)  # same code
    with pytest.raises(ValueError, match=r"holds a sweep of another version of notebook\.g \(its code has changed"):
        sweep(_defined("a * 10"), {"a": [1, 2]}, seed=3, workers=1, results=path)
    # a partial's arguments are part of what it runs
    from functools import partial

    other = tmp_path / "p.parquet"
    sweep(partial(draws, b=1), {"a": [1]}, seed=3, workers=1, results=other)
    with pytest.raises(ValueError, match="another version of"):
        sweep(partial(draws, b=2), {"a": [1]}, seed=3, workers=1, results=other)


# ---------------------------------------------------------------- the last fuzz findings (issue 29)
CALLS = []


def counted(a):
    CALLS.append(a)
    return a


def test_a_results_file_in_a_missing_folder_is_refused_before_the_first_point(tmp_path):
    CALLS.clear()
    with pytest.raises(ValueError, match="results=.*its folder .* does not exist"):
        sweep(counted, {"a": [1, 2]}, workers=1, results=tmp_path / "no" / "such" / "r.parquet")
    assert CALLS == []  # the points used to run, then the table was lost to FileNotFoundError


@pytest.mark.parametrize("meta", [b"{}", b"[1, 2]", b"not json", b'{"function": 1, "seed": 0, "parameters": 3}'])
def test_a_results_file_with_foreign_metadata_is_named(tmp_path, meta):
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = tmp_path / "r.parquet"
    table = pa.table({"_point": ['{"a":1}'], "a": [1]})
    pq.write_table(table.replace_schema_metadata({b"flashlab.sweep": meta}), path)
    with pytest.raises(ValueError, match="is not a flashlab sweep results file"):
        sweep(needs_ab, {"a": [1], "b": [2]}, workers=1, results=path)


def test_result_columns_refuses_records_nested_without_end():
    loop: dict = {"x": 1.0}
    loop["self"] = loop
    deep: dict = {"x": 1.0}
    for _ in range(2000):
        deep = {"d": deep}
    for result in (loop, deep):
        with pytest.raises(ValueError, match="result must nest records"):
            result_columns(result)
    assert result_columns({"a": {"b": {"c": 2}}}) == {"a.b.c": 2}


@pytest.mark.parametrize("scheduler", ["", "bogus://x", "   "])
def test_cli_names_a_bad_scheduler_in_one_line(capsys, scheduler):
    from flashlab.cli import main

    assert main(["sweep", "wa", "--op", "0.2,0.3", "--scheduler", scheduler]) == 2
    err = capsys.readouterr().err
    assert "--scheduler must be a Dask scheduler address" in err and err.count("\n") == 1
