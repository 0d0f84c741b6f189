"""Reproductions of the crashes, silent nonsense and unclear errors of issue 9, each now a clear
``ValueError`` naming the parameter (or a sane answer). Cases that used to corrupt memory run in
a fresh interpreter (:mod:`isolate`), so a regression fails this test instead of the suite."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from flashlab._validate import check_array, check_bool, check_choice, check_int, check_real
from flashlab.cell import (
    ISPP_SLC_2XNM,
    EccCode,
    VthDistributions,
    program_endurance_trade,
    read_retry,
    vth_distributions,
)
from flashlab.device import Geometry, NandTiming, timing_preset
from flashlab.ftl import Ftl, FtlConfig, Stepper, min_op, simulate
from flashlab.presets import MLC_2YNM, TLC_1XNM, Technology
from flashlab.ssd import HostLoad, SsdConfig, pipeline_limit_iops, raw_program_bandwidth_mb_s, simulate_io
from flashlab.workload import OP_READ, OP_WRITE, Trace, Workload, read_trace

from isolate import run_isolated

SMALL = Geometry(blocks_per_plane=16, pages_per_block=8, op=0.5)


# ------------------------------------------------------------------ crashes (isolated)
FTL_RUN_CASES = """
import numpy as np
from flashlab.device import Geometry
from flashlab.ftl import Ftl
ftl = Ftl(Geometry(blocks_per_plane=64, pages_per_block=32, op=0.3))
n = ftl.geometry.user_pages
w = np.zeros(200_000, np.int8)
l = (np.arange(200_000) % n).astype(np.int32)
cases = {
    "series": lambda: ftl.run(w, l, sample_every=1),                       # default empty series
    "sample_every": lambda: ftl.run(w, l, series=np.zeros((3, 12), np.int64), sample_every=1),
    "out": lambda: ftl.run(np.ones(100, np.int8), l[:100], out=np.zeros(1, np.int32)),
    "ops": lambda: ftl.run(np.full(3, 2.5), l[:3]),                       # not an op code
}
for name, call in cases.items():
    try:
        call()
        print(name, "ACCEPTED")
    except ValueError as exc:
        print(name, "ValueError", name in str(exc))
print("counters", ftl.counters["host_writes"], ftl.counters["host_reads"], ftl.counters["trims"])
"""


def test_ftl_run_checks_series_sample_every_out_and_ops():
    res = run_isolated(FTL_RUN_CASES, timeout=120)
    assert res.returncode == 0, res.describe()
    lines = res.stdout.split("\n")
    for name in ("series", "sample_every", "out", "ops"):
        assert f"{name} ValueError True" in lines, res.stdout
    assert "counters 0 0 0" in lines, res.stdout  # nothing ran before the refusal


def test_ftl_run_op_codes_are_not_cast():
    ftl = Ftl(SMALL)
    for ops in ([256], [2.5], [-1], ["0"], [True]):
        with pytest.raises(ValueError, match="ops must"):
            ftl.run(ops, [0])
    assert ftl.counters["host_writes"] == ftl.counters["trims"] == 0


def test_ftl_run_sized_buffers_work():
    ftl = Ftl(SMALL)
    ops = np.array([OP_WRITE, OP_WRITE, OP_READ], np.int8)
    series = np.zeros((3, 12), np.int64)
    out = np.zeros(3, np.int32)
    assert ftl.run(ops, np.array([0, 1, 0], np.int32), series=series, sample_every=1, out=out) == 3
    assert out.tolist() == [-1, -1, 0]
    assert series[2, 0] == 2  # the row of host write 2 holds host_writes = 2


MONTE_CARLO_100_MEANS = """
import numpy as np
from flashlab.cell import VthDistributions, rber_monte_carlo
from flashlab.presets import TLC_1XNM
dist = VthDistributions.__new__(VthDistributions)   # skip __post_init__, as a stale object would
dist.__dict__.update(model=TLC_1XNM.vth, pe_cycles=0.0, retention_days=0.0, reads=0.0, vpass=1.0,
                     means=np.linspace(-100, 400, 100), sigmas=np.full(100, 10.0))
try:
    rber_monte_carlo(dist, 10**5, seed=1)
    print("ACCEPTED")
except ValueError as exc:
    print("ValueError", exc)
"""


def test_hand_built_distributions_with_wrong_state_count_are_refused():
    model = TLC_1XNM.vth
    with pytest.raises(ValueError, match="means must have one entry per state of the model \\(8\\); got 100"):
        VthDistributions(model, 0.0, 0.0, 0.0, 1.0, np.linspace(-100, 400, 100), np.full(100, 10.0))
    with pytest.raises(ValueError, match="sigmas"):
        VthDistributions(model, 0.0, 0.0, 0.0, 1.0, np.arange(8.0), np.zeros(8))
    # a valid object edited afterwards is checked again where the kernel would read it
    res = run_isolated(MONTE_CARLO_100_MEANS, timeout=120)
    assert res.returncode == 0, res.describe()
    assert res.stdout.startswith("ValueError means must have one entry per state"), res.stdout


def test_read_retry_on_crossed_states_says_why():
    d = vth_distributions(TLC_1XNM.vth, reads=1e5, vpass=1.1)
    assert d.means[0] > d.means[1]  # read disturb lifted ER above P1
    with pytest.raises(ValueError, match=r"dist: .*reads=100000, vpass=1.1 state ER .* pushed to or above state P1"):
        read_retry(d)


# ------------------------------------------------------------------ shared validators
@pytest.mark.parametrize("check", [lambda v: check_real("x", v), lambda v: check_array("x", [1.0, v])])
def test_huge_integers_are_a_value_error(check):
    with pytest.raises(ValueError, match="x must"):
        check(10**400)


@pytest.mark.parametrize("value", ["1.5", ["1", "2"], [1 + 2j], np.array([True, False]), [object()], b"12"])
def test_check_array_refuses_strings_complex_bools_objects(value):
    with pytest.raises(ValueError, match="x must be an array of real numbers"):
        check_array("x", value)


def test_check_array_keeps_real_arrays():
    assert check_array("x", [1, 2.5, np.int8(3)]).tolist() == [1.0, 2.5, 3.0]
    assert check_array("x", [2**70]).tolist() == [float(2**70)]


@pytest.mark.parametrize("value", [np.array(["greedy"]), np.array(["greedy", "fifo"]), ["greedy"], 0, None])
def test_check_choice_refuses_arrays_and_other_types(value):
    with pytest.raises(ValueError, match="policy must be one of"):
        check_choice("policy", value, ("greedy", "fifo"))


def test_check_choice_returns_the_canonical_choice():
    out = check_choice("policy", np.str_("fifo"), ("greedy", "fifo"))
    assert out == "fifo" and type(out) is str


@pytest.mark.parametrize("value", ["False", "True", 0, 1, None, np.array([True])])
def test_check_bool_refuses_truthy_stand_ins(value):
    with pytest.raises(ValueError, match="flag must be True or False"):
        check_bool("flag", value)
    assert check_bool("flag", np.bool_(True)) is True
    assert check_bool("flag", None, allow_none=True) is None


def test_bounds_print_integers_as_integers():
    with pytest.raises(ValueError, match=r"n must be in \[0, 2147483647\]; got -1"):
        check_int("n", -1, 0, 2**31 - 1)


def test_long_values_are_quoted_short():
    with pytest.raises(ValueError) as err:
        check_real("x", "a" * 5_000_000)
    assert len(str(err.value)) < 400


@pytest.mark.parametrize("call, name", [
    (lambda: simulate(SMALL, fills=0.1, precondition="False"), "precondition"),
    (lambda: simulate(SMALL, fills=0.1, progress="no"), "progress"),
    (lambda: FtlConfig(dynamic_wl=1), "dynamic_wl"),
    (lambda: SsdConfig(suspend="True"), "suspend"),
    (lambda: SsdConfig(steering=np.array([1])), "steering"),
    (lambda: simulate_io(requests=10, progress=1), "progress"),
])
def test_flags_must_be_bools(call, name):
    with pytest.raises(ValueError, match=f"{name} must be True"):
        call()


# ------------------------------------------------------------------ unvalidated inputs
@pytest.mark.parametrize("call, match", [
    (lambda: dataclasses.replace(TLC_1XNM, name=3), "name must be a string"),
    (lambda: dataclasses.replace(TLC_1XNM, ecc="bch"), "ecc must be an EccCode"),
    (lambda: dataclasses.replace(TLC_1XNM, rated_pe=float("nan")), "rated_pe must be a finite"),
    (lambda: dataclasses.replace(TLC_1XNM, sources="cai2017"), "sources must be a tuple"),
    (lambda: dataclasses.replace(TLC_1XNM, vth=None), "vth must be a VthModel"),
    (lambda: NandTiming(name=None), "name must be a string"),
    (lambda: NandTiming(source=["x"]), "source must be a string"),
    (lambda: ISPP_SLC_2XNM.time_us(-1), "pulses must be in"),
    (lambda: ISPP_SLC_2XNM.time_us(float("nan")), "pulses must be an integer"),
    (lambda: ISPP_SLC_2XNM.time_us(float("inf")), "pulses must be an integer"),
    (lambda: vth_distributions(TLC_1XNM.vth).pdf([np.nan]), "v must hold finite numbers"),
    (lambda: vth_distributions(TLC_1XNM.vth).cdf("1"), "v must be an array of real numbers"),
    (lambda: vth_distributions(TLC_1XNM.vth).cdf([[1.0]]), "v must be a 1-D array"),
])
def test_inputs_that_were_unvalidated(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_pdf_and_cdf_take_scalars_and_arrays():
    d = vth_distributions(TLC_1XNM.vth)
    assert d.pdf(0.0).shape == (8, 1) and d.cdf([0.0, 100.0]).shape == (8, 2)


@pytest.fixture(scope="module")
def io_result():
    geometry = Geometry(channels=2, blocks_per_plane=16, pages_per_block=8, page_size=4096, op=0.5)
    return simulate_io(SsdConfig(geometry=geometry, timing="slc"), HostLoad(qd=4, workload=Workload(read_fraction=0.5)),
                       requests=300)


@pytest.mark.parametrize("call, match", [
    (lambda r: r.iops(op=7), "op must be one of"),
    (lambda r: r.iops(op="write"), "op must be one of"),
    (lambda r: r.iops(phase=np.array([1, 0])), "phase must be one of"),
    (lambda r: r.bandwidth_mb_s(phase=2.5), "phase must be one of"),
    (lambda r: r.percentiles(mask=[True]), "mask must be a bool array"),
    (lambda r: r.percentiles(mask=np.ones(3, bool)), "mask must be a bool array of shape"),
    (lambda r: r.histogram(lo_us=0.0), "lo_us must be in"),
    (lambda r: r.histogram(lo_us=10.0, hi_us=5.0), "hi_us must be > lo_us; got hi_us=5.0, lo_us=10.0"),
    (lambda r: r.histogram(hi_us=float("nan")), "hi_us must be a finite"),
    (lambda r: r.intervals(n=0), "n must be in"),
    (lambda r: r.intervals(by=["time"]), "by must be one of"),
])
def test_io_result_methods_validate(io_result, call, match):
    with pytest.raises(ValueError, match=match):
        call(io_result)


def test_io_result_methods_answer_valid_selections(io_result):
    assert io_result.iops(op=1, phase=1) > 0 and io_result.iops(op=np.int64(0)) > 0
    p = io_result.percentiles(mask=io_result.op == 1)
    assert p["max"] > 0 and p["max"] == io_result.latency_us[io_result.op == 1].max()
    counts, edges = io_result.histogram(op=0)
    assert counts.sum() == np.isfinite(io_result.latency_us[io_result.op == 0]).sum() and edges.size == 71


def test_intervals_of_a_run_where_nothing_completed(io_result):
    nan = np.full(io_result.done_us.size, np.nan)
    stalled = dataclasses.replace(io_result, done_us=nan, latency_us=nan)
    out = stalled.intervals(n=4)
    assert set(out) >= {"start_us", "iops", "p99"} and all(np.isnan(v).all() and v.size == 4 for v in out.values())


@pytest.mark.parametrize("call", [
    lambda: min_op("geometry", FtlConfig()),
    lambda: min_op(SMALL, None),
    lambda: pipeline_limit_iops("ssd"),
    lambda: raw_program_bandwidth_mb_s(SMALL),
    lambda: Stepper(workload="uniform"),
])
def test_wrong_objects_are_a_value_error_not_attribute_error(call):
    with pytest.raises(ValueError, match="(geometry|config|workload) must be a"):
        call()


# ------------------------------------------------------------------ messages that named the wrong thing
@pytest.mark.parametrize("call, match", [
    (lambda: timing_preset(name="plc"), "name must be one of"),
    (lambda: SsdConfig(timing="plc"), "timing must be one of"),
    (lambda: FtlConfig(gc_low=2**31 - 1), r"gc_high must be >= gc_low; got gc_high=3, gc_low=2147483647"),
    (lambda: Ftl(Geometry(blocks_per_plane=1, pages_per_block=8, op=0.5)),
     r"geometry must have more than 4 blocks .* got 1 blocks"),
    (lambda: program_endurance_trade(MLC_2YNM.vth, MLC_2YNM.timing, MLC_2YNM.ecc, [0.001]),
     r"step_scales entries must be in \[0.0023, 1\]"),
])
def test_messages_name_the_parameter_at_fault(call, match):
    with pytest.raises(ValueError, match=match):
        call()


# ------------------------------------------------------------------ traces
@pytest.mark.parametrize("data, line", [
    (b"W,0,1\n\x00\xff\xfe\x80binary", 2),
    ("W,0,1\nR,1,1\n".encode("utf-16"), 1),
    ("# caf\u00e9\nW,0,1\n".encode("latin-1"), 1),
])
def test_trace_bytes_that_are_not_utf8_name_file_and_line(tmp_path, data, line):
    path = tmp_path / "bad.csv"
    path.write_bytes(data)
    with pytest.raises(ValueError, match=f"bad.csv:{line}: trace files must be UTF-8 text"):
        read_trace(path)


def test_trace_with_byte_order_mark_reads(tmp_path):
    path = tmp_path / "bom.csv"
    path.write_bytes("op,lba,length\nW,3,2\n".encode("utf-8-sig"))
    t = read_trace(path)
    assert t.ops.tolist() == [OP_WRITE] and t.lbas.tolist() == [3] and t.lengths.tolist() == [2]


def test_trace_error_quotes_a_short_excerpt(tmp_path):
    path = tmp_path / "long.csv"
    path.write_text("W,0,1\nW," + "9" * 5_000_000 + "x\n")
    with pytest.raises(ValueError, match="long.csv:2: lba must be an integer") as err:
        read_trace(path)
    assert len(str(err.value)) < 1000


def test_trace_lba_beyond_the_drive_names_file_and_line(tmp_path):
    path = tmp_path / "far.csv"
    path.write_text("W,0,1\nW,5,1\nW,90,20\n")
    with pytest.raises(ValueError, match="far.csv:3: lba 90 \\+ length 20 must be <= user_pages=100"):
        read_trace(path, user_pages=100)
    with pytest.raises(ValueError, match="far.csv:3: lba 90"):
        simulate(SMALL, workload=read_trace(path), fills=0.1)


@pytest.mark.parametrize("kwargs, match", [
    (dict(lbas=np.zeros(2, np.int64)), "lbas must have one entry per request \\(3"),
    (dict(lengths=np.ones(4, np.int64)), "lengths must have one entry per request"),
    (dict(ops=np.array([0, 1, 7])), "ops must be in \\[0, 2\\]"),
    (dict(lbas=np.array([0.0, 1.0, 2.0])), "lbas must be a 1-D integer array"),
    (dict(lengths=np.array([1, 0, 1])), "lengths must be in \\[1,"),
])
def test_in_memory_trace_is_checked(kwargs, match):
    fields = dict(ops=np.zeros(3, np.int8), lbas=np.arange(3), lengths=np.ones(3, np.int64), lines=np.arange(1, 4))
    with pytest.raises(ValueError, match=match):
        Trace(**{**fields, **kwargs})


def test_technology_presets_still_build():
    assert Technology(name="x", vth=MLC_2YNM.vth, timing=MLC_2YNM.timing, ecc=EccCode(t=8, codeword_bytes=512),
                      rated_pe=10.0, sources=("cai2017",)).rated_pe == 10.0
