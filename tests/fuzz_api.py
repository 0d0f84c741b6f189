"""The engine's public API as fuzz targets, and the fuzzer that runs them (in a child process).

Every public constructor, function and method of the engine layers (``LAYERS``; :mod:`flashlab.viz`
is not fuzzed) has a :class:`Target` here: a fast valid call and the *kind* of each parameter.
For each parameter in turn the fuzzer keeps the other arguments valid and draws a bad or extreme
value from a hypothesis strategy for that kind (wrong types, bools, NaN/inf, huge and negative
numbers, empty and wrong-shaped arrays, unknown strings). Values that can never be right (a
string for a number, 1 for a flag) must raise; the others (a huge count, a negative voltage) may
raise or answer. The outcome is good when the call

* raises ``ValueError`` or ``TypeError`` whose message names the parameter, or
* (for values that may be valid) returns a sane result: no infinity anywhere, and a scalar
  result is finite (NaN where the target says it may be).

Anything else is a failure: another exception, an error naming something else, nonsense
accepted. Crashes and hangs are caught by the parent test, which runs :func:`main` in a
subprocess with a timeout; each case is printed before it runs so a crash names its case.

``public_names()`` lists the public API from each layer's ``__all__`` (or its public names), so
a new public name without a target here fails ``tests/test_fuzz_api.py``.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import math
import numbers
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import numpy as np

LAYERS = ("flashlab.cell", "flashlab.device", "flashlab.ftl", "flashlab.ssd", "flashlab.db", "flashlab.workload",
          "flashlab.presets", "flashlab.tech", "flashlab.sweep", "flashlab.array", "flashlab.quiz", "flashlab.drives")

# Results the engine returns (records, not inputs): no target, but listed so a new record is a
# decision, not an omission. Their methods are fuzzed when they take arguments.
RECORDS = {
    "cell.BlockErase", "cell.IsppTrace", "cell.PageProgram", "cell.ProgramDisturb", "cell.ProgramTimes", "cell.RberResult", "ftl.ZnsResult",
    "cell.ReadRetryResult", "cell.VthComparison", "cell.SoftReadChannel", "cell.FerResult", "cell.FerCurve", "ftl.FtlResult", "ftl.Snapshot", "ssd.IoResult", "ssd.PtsResult",
    "ssd.SteadyState", "ssd.MembersResult", "ssd.PowerLoss", "array.HostsResult", "tech.ProgramLadder", "tech.LayerRber", "tech.LayerSweep", "tech.NodeSweep",
    "tech.ShrinkReturns", "tech.ShrinkSweep", "db.MixResult", "db.RedoResult", "db.ScanResult", "db.TempResult", "db.OltpResult",
    "db.FlushResult", "ssd.SlcPlateaus",
    "array.ArrayCapacity", "array.CapacityStep", "array.DriveCapacity", "array.ArrayResult", "array.RebuildResult",
    "array.ReducedWear",
    "quiz.Problem",
    "drives.Row", "drives.Validation", "drives.Endurance", "db.ColdCache", "db.KeepScan", "drives.Purchase",
    "drives.TierCosts",
}


def public_names() -> set[str]:
    """``layer.Name`` for every public class and function, ``layer.Class.method`` for every
    public method taking arguments beyond ``self`` or none (all are called)."""
    names = set()
    for modname in LAYERS:
        mod = importlib.import_module(modname)
        layer = modname.split(".")[1]
        exported = getattr(mod, "__all__", None)
        for n in exported if exported is not None else dir(mod):
            if n.startswith("_"):
                continue
            obj = getattr(mod, n)
            if not (inspect.isclass(obj) or inspect.isfunction(obj)):
                continue
            if not getattr(obj, "__module__", "").startswith("flashlab."):
                continue
            if exported is None and modname == "flashlab.presets" and obj.__module__ != modname:
                continue  # presets re-import what they build on; those names belong to their layers
            if inspect.isclass(obj) and issubclass(obj, BaseException):
                continue
            names.add(f"{layer}.{n}")
            if inspect.isclass(obj):
                for m, v in vars(obj).items():
                    if not m.startswith("_") and (inspect.isfunction(v) or isinstance(v, classmethod)):
                        names.add(f"{layer}.{n}.{m}")
    return names | {f"cli.{c}" for c in cli_options()}


def cli_options() -> dict[str, list]:
    """Per ``flashlab`` subcommand, its argparse actions that take one value (flags and ``--help``
    left out): each subcommand is a target, each option a parameter. ``sweep`` is fuzzed as
    ``flashlab sweep wa`` (its own options and the grid options of ``wa``)."""
    import argparse

    from flashlab.cli import build_parser

    def subparsers(parser):
        return next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)

    out = {}
    for name, p in subparsers(build_parser()).choices.items():
        nested = subparsers(p)
        if nested is not None:
            p = nested.choices["wa"]
        out[name] = [a for a in p._actions if a.nargs is None and not isinstance(a, argparse._HelpAction)]
    return out


# ------------------------------------------------------------------ parameter kinds and bad values
class _Junk:
    """An object of no engine type (its repr names it)."""

    def __repr__(self):
        return "<junk object>"


JUNK = _Junk()
NAN, INF = float("nan"), float("inf")

# Values no parameter of the kind may accept.
_NEVER_NUMBER = ["junk", "", "1.5", b"1", None, True, False, np.bool_(True), 1 + 2j, NAN, INF, -INF, np.float64(NAN),
                 10**400, -(10**400), [1.0], (1,), {"a": 1}, JUNK, np.array([1.0]), np.array(1.0 + 1j)]
_NEVER = {
    "real": _NEVER_NUMBER,
    "int": _NEVER_NUMBER + [2.5, -0.5, 3.0, np.float64(2.0), 1e20],
    "bool": ["False", "True", "", 0, 1, 0.0, None, np.array([True]), [True], JUNK, NAN],
    "choice": ["no-such-choice", "", " ", "GREEDY", None, 3, 2.5, True, NAN, [], ["x"], b"x", JUNK],
    "array": ["1,2", "", b"\x00", None, True, JUNK, [1 + 2j], [True, False], [[1.0], [1.0, 2.0]], [NAN], [INF],
              [-INF], [10**400], ["1"], [None], {"a": 1}],
    "obj": [None, "x", 3, 2.5, True, NAN, [], JUNK, np.zeros(3)],
    "text": [None, 3, 2.5, True, b"x", ["x"], JUNK, NAN],
    "tuple": ["1", "", None, 3, NAN, JUNK, (), (NAN,), (INF,), ("1",), (None,), (True,), ((1.0,),), (10**400,)],
}
_NEVER["text_tuple"] = ["cai2017", "", None, 3, JUNK, (), ("",), (3,), (None,), ["cai2017"], NAN]
_NEVER["opt_real"] = [v for v in _NEVER["real"] if v is not None]
_NEVER["opt_int"] = [v for v in _NEVER["int"] if v is not None]
_NEVER["opt_bool"] = [v for v in _NEVER["bool"] if v is not None]
_NEVER["real_or_array"] = [v for v in _NEVER["real"] if not isinstance(v, (list, tuple, np.ndarray))] + _NEVER["array"][:9]
_NEVER["opt_obj"] = [v for v in _NEVER["obj"] if v is not None]
_NEVER["opt_array"] = [v for v in _NEVER["array"] if v is not None]
_NEVER["opt_text"] = [v for v in _NEVER["text"] if v is not None]
_NEVER["anything"] = []  # any value may be right (e.g. a function's result): refusals listed per target
# command-line options (argv strings): what no option of the kind may accept
_NEVER["cli_real"] = ["junk", "", "1,5", "nan", "inf", "-inf", "1e400", "0x10"]
_NEVER["cli_int"] = ["junk", "", "2.5", "1e3", "nan", "0x10"]
_NEVER["cli_choice"] = ["no-such-choice", "", " "]
_NEVER["cli_text"] = ["no-such-choice", "", " "]


def _maybe_strategy(kind: str, cap: float):
    """Values of the right type that may be out of range (``cap``: largest magnitude drawn)."""
    from hypothesis import strategies as st

    ints = st.one_of(st.sampled_from([0, -1, 1, 2, -(2**31), 2**31 - 1, 2**31, 2**63 - 1, 2**63, 2**64]),
                     st.integers(-(2**70), 2**70), st.integers(-1000, 1000), st.just(np.int64(7)))
    ints = ints.filter(lambda v: abs(v) <= cap)
    reals = st.one_of(st.floats(allow_nan=False, allow_infinity=False),
                      st.sampled_from([0.0, -0.0, 5e-324, -5e-324, 1e-300, 1e308, -1e308, 0.5, -1.0]),
                      st.floats(-1e3, 1e3), ints, st.just(np.float32(0.25)))
    reals = reals.filter(lambda v: abs(v) <= cap)
    arrays = st.one_of(
        st.lists(reals, max_size=20), st.just([]), st.just(np.zeros((2, 2))), st.just(np.zeros((0, 3))),
        st.just(np.arange(5, dtype=np.int8)), st.just(np.full(3, 1e308)), st.just(np.array([-1.0, 0.0, 1.0])))
    texts = st.one_of(st.text(max_size=30), st.just("x" * 100_000))
    tuples = st.one_of(st.lists(reals, max_size=6).map(tuple), st.just(tuple(range(17))))
    return {
        "real": reals, "opt_real": reals, "int": ints, "opt_int": ints, "bool": st.booleans(),
        "opt_bool": st.booleans(), "choice": st.nothing(), "array": arrays, "obj": st.nothing(),
        "opt_obj": st.nothing(), "text": texts, "opt_text": texts, "anything": st.nothing(), "tuple": tuples,
        "real_or_array": st.one_of(reals, arrays), "opt_array": arrays,
        "text_tuple": st.lists(st.text(min_size=1, max_size=20), min_size=1, max_size=5).map(tuple),
        "cli_real": reals.map(repr), "cli_int": ints.map(str), "cli_choice": st.nothing(), "cli_text": st.nothing(),
    }[kind]


def case_strategy(kind: str, cap: float, extra_never=()):
    """(value, must_raise) pairs for a parameter of ``kind``."""
    from hypothesis import strategies as st

    never = st.sampled_from(list(_NEVER[kind]) + list(extra_never)).map(lambda v: (v, True))
    maybe = _maybe_strategy(kind, cap).map(lambda v: (v, False))
    return st.one_of(never, maybe)


@dataclass
class Param:
    kind: str
    valid: object  # a valid value, or a zero-argument factory for one (``lazy``)
    cap: float = math.inf  # largest magnitude of "maybe" values (work sizes: keep calls fast)
    lazy: bool = False
    never: tuple = ()  # more values that must be refused

    def value(self):
        return self.valid() if self.lazy else self.valid


@dataclass
class Target:
    name: str
    call: Callable  # takes the keyword arguments
    params: dict[str, Param]
    group: str
    nan_ok: bool = False  # a scalar result may be NaN
    inf_ok: bool = False  # the result may hold infinities (documented, e.g. min_op)


def _infer(value) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, numbers.Integral):
        return "int"
    if isinstance(value, numbers.Real):
        return "real"
    if isinstance(value, str):
        return "choice"
    if isinstance(value, tuple):
        return "tuple"
    if isinstance(value, (list, np.ndarray)):
        return "array"
    return "obj"


def params(valid: dict, **kinds) -> dict[str, Param]:
    """Params for ``valid`` keyword arguments, kinds inferred from the valid values unless given
    (a kind may be a :class:`Param`, or a str)."""
    out = {}
    for name, value in valid.items():
        k = kinds.get(name)
        if isinstance(k, Param):
            out[name] = k
        else:
            out[name] = Param(k or _infer(value), value)
    return out


def dataclass_params(instance, **kinds) -> dict[str, Param]:
    return params({f.name: getattr(instance, f.name) for f in dataclasses.fields(instance) if f.init}, **kinds)


# ------------------------------------------------------------------ the targets
@cache
def targets() -> dict[str, Target]:  # noqa: PLR0915 (one registry)
    from flashlab import cell as C
    from flashlab import db as DB
    from flashlab import device as D
    from flashlab import ftl as F
    from flashlab import presets as PR
    from flashlab import ssd as S
    from flashlab import sweep as SW
    from flashlab import tech as TE
    from flashlab import workload as W
    from flashlab import array as AR

    T: dict[str, Target] = {}

    def add(name, call, prm, group, **kw):
        T[name] = Target(name, call, prm, group, **kw)

    tlc, mlc = PR.TLC_1XNM, PR.MLC_2YNM
    fg = C.FG_CELL_2XNM
    geo = D.Geometry(blocks_per_plane=16, pages_per_block=8, op=0.5)
    sgeo = D.Geometry(channels=2, blocks_per_plane=16, pages_per_block=8, page_size=4096, op=0.5)
    sconf = S.SsdConfig(geometry=sgeo, timing="slc")
    dist = C.vth_distributions(tlc.vth, 1000.0, 30.0)

    # ---- cell
    add("cell.CellLevels", C.CellLevels, params({"bits": 3}), "cell")
    add("cell.cell_levels", C.cell_levels, params({"bits": 2}), "cell")
    add("cell.CellVariation", C.CellVariation, dataclass_params(C.CellVariation()), "cell")
    add("cell.EccCode", C.EccCode, params({"t": 8, "codeword_bytes": 512}), "cell")
    add("cell.FloatingGateCell", C.FloatingGateCell, dataclass_params(fg), "cell")
    add("cell.FloatingGateCell.charge", fg.charge, params({"vth": 1.0}, vth="real_or_array"), "cell")
    add("cell.FloatingGateCell.electrons", fg.electrons, params({"vth": 1.0}, vth="real_or_array"), "cell")
    add("cell.FloatingGateCell.oxide_field", fg.oxide_field, params({"v_gate": 15.0, "vth": [0.0, 1.0]},
                                                                  vth="real_or_array"), "cell")
    add("cell.FloatingGateCell.current_density", fg.current_density, params({"field": 1e9}, field="real_or_array"),
        "cell")
    add("cell.apply_pulse", C.apply_pulse, params({"cell": fg, "vth": [0.0, -1.0], "v_gate": 16.0, "t_pulse": 1e-5},
                                                  vth="real_or_array"), "cell")
    add("cell.erase", C.erase, params({"cell": fg, "vth": [2.0, 3.0], "v_erase": 16.0, "t_erase": 1e-4},
                                      vth="real_or_array"), "cell")
    add("cell.read", C.read, params({"vth": [0.0, 2.0], "v_ref": 1.0}, vth="real_or_array"), "cell")
    add("cell.IsppParams", C.IsppParams, dataclass_params(C.ISPP_SLC_2XNM), "cell")
    add("cell.IsppParams.time_us", C.ISPP_SLC_2XNM.time_us, params({"pulses": 8}), "cell")
    add("cell.program_cell", C.program_cell, params({"cell": fg, "ispp": C.ISPP_SLC_2XNM, "vth0": -3.0}), "cell")
    add("cell.program_page", C.program_page,
        params({"cell": fg, "ispp": C.ISPP_SLC_2XNM, "n_cells": 64, "variation": C.CellVariation(), "seed": 1,
                "vth0": -3.0, "hist_range": (-5.0, 5.0), "hist_bins": 20},
               n_cells=Param("int", 64, cap=5000), hist_range="array", hist_bins=Param("int", 20, cap=10**6),
               vth0=Param("opt_real", -3.0)), "cell")
    add("cell.erase_block", C.erase_block,
        params({"cell": fg, "vth": np.linspace(0.0, 3.0, 16), "ispe": C.ISPE_2XNM, "variation": C.CellVariation(),
                "seed": 1}), "cell")
    add("cell.SelfBoosting", C.SelfBoosting, dataclass_params(C.BOOSTING_2XNM), "cell")
    add("cell.SelfBoosting.channel_potential", C.BOOSTING_2XNM.channel_potential,
        params({"v_pass": 8.0, "v_pgm": 20.0, "precharged": True}), "cell")
    add("cell.vpgm_disturb", C.vpgm_disturb,
        params({"cell": fg, "ispp": C.ISPP_SLC_2XNM, "boosting": C.BOOSTING_2XNM, "v_pass": 6.0, "vth": [-4.0, -3.0],
                "pulses": 15, "precharged": False}, vth="real_or_array"), "cell")
    add("cell.vpass_disturb", C.vpass_disturb,
        params({"cell": fg, "ispp": C.ISPP_SLC_2XNM, "v_pass": 11.0, "vth": [-4.0, -3.0], "pulses": 15,
                "programs": 63}, vth="real_or_array"), "cell")
    add("cell.program_disturb", C.program_disturb,
        params({"cell": fg, "ispp": C.ISPP_SLC_2XNM, "boosting": C.BOOSTING_2XNM, "v_pass": 9.0,
                "vth": np.linspace(-5.0, -2.0, 16), "pulses": 15, "order": "random", "programs": 20, "read_ref": 0.0,
                "variation": C.CellVariation(), "seed": 1}, programs=Param("opt_int", 20)), "cell")
    add("cell.NandTiming", C.NandTiming, dataclass_params(tlc.timing), "cell")
    add("cell.read_latency_us", C.read_latency_us, params({"timing": tlc.timing}), "cell")
    add("cell.program_times", C.program_times, params({"timing": tlc.timing, "n_pages": 30, "seed": 2},
                                                      n_pages=Param("int", 30, cap=10**5)), "cell")
    add("cell.soft_read_latency_us", C.soft_read_latency_us, params({"timing": tlc.timing, "soft_levels": 3}), "cell")
    add("cell.soft_read_channel", C.soft_read_channel,
        params({"means": [-2.5, 2.5], "sigmas": [1.0, 1.2], "soft_senses": 2, "refs": None},
               refs=Param("opt_array", [-0.5, 0.0, 0.5])), "cell")
    add("cell.gaussian_read_point", C.gaussian_read_point, params({"rber": 1e-3}), "cell")
    add("cell.hard_capacity_rber", C.hard_capacity_rber, params({"rate": 0.9}), "cell")
    add("cell.LdpcCode", C.LdpcCode, params({"column_weight": 3, "row_weight": 5, "circulant": 7}), "cell")
    add("cell.LdpcCode.parity_check", C.LdpcCode(3, 5, 7).parity_check, {}, "cell")
    add("cell.LdpcCode.same_overhead_bch", C.LdpcCode(3, 5, 7).same_overhead_bch, {}, "cell")
    add("cell.fer_curve", C.fer_curve,
        params({"code": C.LdpcCode(3, 5, 7), "soft_senses": 2, "rbers": [1e-2, 2e-2], "frames": 5, "seed": 1},
               frames=Param("int", 5, cap=200)), "cell")
    curve = C.FerCurve(np.array([1e-3, 1e-2]), np.array([0.0, 0.5]), 10, 0)
    add("cell.FerCurve.rber_at", curve.rber_at, params({"fer_target": 0.1}), "cell", nan_ok=True)
    add("cell.FerCurve.fer_at", curve.fer_at, params({"rber": 5e-3}, rber="real_or_array"), "cell")
    add("cell.ldpc_fer", C.ldpc_fer,
        params({"code": C.LdpcCode(3, 5, 7), "channel": C.soft_read_channel([-2.0, 2.0], [1.0, 1.0], 2),
                "frames": 5, "seed": 1, "alpha": 0.75, "max_iter": 10},
               frames=Param("int", 5, cap=200), max_iter=Param("int", 10, cap=100)), "cell")
    add("cell.VthModel", C.VthModel, dataclass_params(tlc.vth), "cell")
    add("cell.vth_distributions", C.vth_distributions,
        params({"model": tlc.vth, "pe_cycles": 500.0, "retention_days": 10.0, "reads": 1e3, "vpass": 1.0}), "cell")
    add("cell.VthDistributions", C.VthDistributions,
        params({"model": tlc.vth, "pe_cycles": 0.0, "retention_days": 0.0, "reads": 0.0, "vpass": 1.0,
                "means": np.asarray(tlc.vth.means), "sigmas": np.full(8, 10.0)}), "cell")
    add("cell.VthDistributions.pdf", dist.pdf, params({"v": [0.0, 100.0]}, v="real_or_array"), "cell")
    add("cell.VthDistributions.cdf", dist.cdf, params({"v": 50.0}, v="real_or_array"), "cell")
    add("cell.cai2017_comparison", C.cai2017_comparison, params({"model": tlc.vth}), "cell")
    add("cell.default_read_refs", C.default_read_refs, params({"model": mlc.vth}), "cell")
    add("cell.optimal_read_refs", C.optimal_read_refs, params({"dist": dist}), "cell")
    add("cell.rber_analytic", C.rber_analytic, params({"dist": dist, "refs": None},
                                                      refs=Param("opt_array", lambda: C.optimal_read_refs(dist), lazy=True)),
        "cell")
    add("cell.rber_monte_carlo", C.rber_monte_carlo,
        params({"dist": dist, "n_cells": 2000, "seed": 3},
               n_cells=Param("int", 2000, cap=10**5)), "cell")
    add("cell.read_retry", C.read_retry, params({"dist": dist}), "cell")
    add("cell.rtn_rber", C.rtn_rber, params({"dist": dist, "rtn_sigma": 3.0, "refs": None, "tails": "exponential"},
                                            refs=Param("opt_array", lambda: C.optimal_read_refs(dist), lazy=True)),
        "cell")
    add("cell.rtn_tail", C.rtn_tail, params({"d": [0.0, 10.0], "sigma_gauss": 5.0, "rtn_sigma": 3.0},
                                            d="real_or_array"), "cell")
    add("cell.rtn_pdf", C.rtn_pdf, params({"d": [-5.0, 10.0], "sigma_gauss": 5.0, "rtn_sigma": 3.0},
                                          d="real_or_array"), "cell")
    add("cell.acceleration_factor", C.acceleration_factor, params({"stress_c": 85.0, "use_c": 40.0, "ea_ev": 1.1}),
        "cell")
    add("cell.equivalent_hours", C.equivalent_hours,
        params({"hours": 100.0, "stress_c": 85.0, "use_c": 40.0, "ea_ev": 1.1}), "cell")
    add("cell.bake_hours", C.bake_hours, params({"use_hours": 8766.0, "stress_c": 85.0, "use_c": 40.0, "ea_ev": 1.1}),
        "cell")
    add("cell.rtn_samples", C.rtn_samples, params({"sigma_gauss": 5.0, "rtn_sigma": 3.0, "n_cells": 100, "seed": 1},
                                                  n_cells=Param("int", 100, cap=10**4)), "cell")
    add("cell.codeword_failure_probability", C.codeword_failure_probability,
        params({"rber": [1e-3, 1e-4], "n_bits": 8000, "t": 8}, rber="real_or_array"), "cell")
    add("cell.uber", C.uber, params({"rber": 1e-3, "code": tlc.ecc}, rber="real_or_array"), "cell")
    add("cell.correctable_rber", C.correctable_rber, params({"code": tlc.ecc, "target_uber": 1e-15}), "cell")
    add("cell.worst_page_rber", C.worst_page_rber,
        params({"model": mlc.vth, "pe_cycles": 1000.0, "retention_days": 30.0, "reads": 0.0, "read_retry": True}),
        "cell")
    add("cell.endurance_pe_cycles", C.endurance_pe_cycles,
        params({"model": mlc.vth, "code": mlc.ecc, "retention_days": 30.0, "reads": 0.0, "target_uber": 1e-15,
                "read_retry": True, "max_cycles": 1e4}), "cell")
    add("cell.gentle_programming", C.gentle_programming,
        params({"model": mlc.vth, "timing": mlc.timing, "step_scale": 0.5}), "cell")
    add("cell.program_endurance_trade", C.program_endurance_trade,
        params({"model": mlc.vth, "timing": mlc.timing, "code": mlc.ecc, "step_scales": [0.5, 1.0],
                "retention_days": 30.0, "target_uber": 1e-15},
               step_scales=Param("array", [0.5, 1.0])), "cell")

    # ---- device
    add("device.Geometry", D.Geometry, dataclass_params(geo), "device")
    dt = D.timing_preset("tlc")
    add("device.NandTiming", D.NandTiming, dataclass_params(dt, name="text", source="text",
                                                           t_prog_one_shot_us=Param("opt_real", 4000.0)), "device")
    add("device.NandTiming.transfer_us", dt.transfer_us, params({"page_size": 4096}), "device")
    add("device.timing_preset", D.timing_preset, params({"name": "mlc"}), "device")

    # ---- workload
    wl = W.Workload("regions", regions=((0.3, 0.7), (0.7, 0.3)), read_fraction=0.2)
    add("workload.Workload", W.Workload, dataclass_params(wl), "workload")
    add("workload.Workload.region_starts", wl.region_starts, params({"user_pages": 1000}), "workload")

    def first_chunk(obj):
        return lambda **kw: next(obj.chunks(**kw))

    add("workload.Workload.chunks", first_chunk(wl),
        params({"user_pages": 1000, "seed": 1, "chunk_size": 64}, user_pages=Param("int", 1000),
               chunk_size=Param("int", 64, cap=10**5)), "workload")
    churn = W.FileChurn(0.6, True)
    add("workload.FileChurn", W.FileChurn, dataclass_params(churn), "workload")
    add("workload.FileChurn.chunks", first_chunk(churn),
        params({"user_pages": 1000, "seed": 1, "chunk_size": 64}, user_pages=Param("int", 1000, cap=10**6),
               chunk_size=Param("int", 64, cap=10**5)), "workload")
    add("workload.FileChurn.live_pages", churn.live_pages, params({"user_pages": 1000}), "workload")
    add("workload.EnterpriseEndurance", W.EnterpriseEndurance, {}, "workload")
    add("workload.EnterpriseEndurance.chunks", first_chunk(W.EnterpriseEndurance()),
        params({"user_pages": 1000, "seed": 1, "chunk_size": 64}, user_pages=Param("int", 1000),
               chunk_size=Param("int", 64, cap=10**5)), "workload")
    tr = W.Trace(np.array([0, 1, 0], np.int8), np.array([0, 5, 9]), np.array([2, 1, 1]), np.array([1, 2, 3]))
    add("workload.Trace", W.Trace, dataclass_params(tr, source="text"), "workload")
    add("workload.Trace.chunks", first_chunk(tr), params({"user_pages": 100, "seed": 0, "chunk_size": 16},
                                                          chunk_size=Param("int", 16, cap=10**5)), "workload")

    def read_trace_file(**kw):
        import tempfile
        from pathlib import Path

        with tempfile.TemporaryDirectory() as d:
            path = kw.pop("path")
            if isinstance(path, str) and path == "<valid>":
                path = Path(d) / "t.csv"
                path.write_text("op,lba,length\nW,0,4\nR,2,1\n")
            return W.read_trace(path, **kw)

    add("workload.read_trace", read_trace_file,
        params({"path": "<valid>", "user_pages": 100},
               path=Param("obj", "<valid>", never=(3, None, b"\xff/x")),
               user_pages=Param("opt_int", 100)), "workload")

    # ---- ftl
    add("ftl.FtlConfig", F.FtlConfig,
        dataclass_params(F.FtlConfig(separation="tagged", handle_starts=(3, 9), dynamic_wl=True, endurance=50)), "ftl")
    add("ftl.Ftl", F.Ftl, params({"geometry": geo, "config": F.FtlConfig(), "seed": 1}), "ftl")

    def fresh_ftl():
        f = F.Ftl(geo, F.FtlConfig(), 1)
        f.write(np.arange(40))
        return f

    def method(factory, name):
        return lambda **kw: getattr(factory(), name)(**kw)

    lbas = Param("array", [0, 1, 2], never=([0.5], [-1], [10**6], [2**40], np.array(["1"])))
    add("ftl.Ftl.write", method(fresh_ftl, "write"), {"lbas": lbas}, "ftl")
    add("ftl.Ftl.read", method(fresh_ftl, "read"), {"lbas": lbas}, "ftl")
    add("ftl.Ftl.trim", method(fresh_ftl, "trim"), {"lbas": lbas}, "ftl")
    add("ftl.Ftl.snapshot", method(fresh_ftl, "snapshot"), {}, "ftl")
    add("ftl.Ftl.run", method(fresh_ftl, "run"),
        params({"ops": np.array([0, 1, 2, 0], np.int8), "lbas": np.array([3, 3, 4, 5], np.int32),
                "series": np.zeros((200, 12), np.int64), "sample_every": 1, "write_limit": 2**62,
                "out": np.zeros(4, np.int32)},
               ops=Param("array", [0, 1, 2, 0], never=([3, 0, 0, 0], [2.5, 0, 0, 0], [256, 0, 0, 0], [0, 0])),
               lbas=Param("array", [3, 3, 4, 5], never=([3, 3, 4, 10**6], [0.5, 1, 2, 3])),
               series=Param("opt_array", lambda: np.zeros((200, 12), np.int64), lazy=True,
                             never=(np.zeros((1, 12), np.int64), np.zeros((200, 11), np.int64),
                                    np.zeros((200, 12), np.int32), np.zeros(12, np.int64))),
               out=Param("opt_array", lambda: np.zeros(4, np.int32), lazy=True,
                         never=(np.zeros(1, np.int32), np.zeros(4, np.int64), np.zeros((4, 1), np.int32)))),
        "ftl")
    add("ftl.min_op", F.min_op, params({"geometry": geo, "config": F.FtlConfig()}), "ftl", inf_ok=True)
    add("ftl.min_blocks_per_plane", F.min_blocks_per_plane, params({"geometry": geo, "config": F.FtlConfig()}), "ftl")
    add("ftl.simulate", F.simulate,
        params({"geometry": geo, "config": F.FtlConfig(), "workload": W.Workload(), "fills": 0.5, "seed": 1,
                "precondition": True, "measure_fills": 0.25, "samples": 20, "progress": False},
               fills=Param("real", 0.5, cap=20), measure_fills=Param("opt_real", 0.25), progress="opt_bool",
               samples=Param("int", 20, cap=10**6)), "ftl")
    zgeo = D.Geometry(blocks_per_plane=64, pages_per_block=8, op=0.5)
    add("ftl.zone_geometry", F.zone_geometry, params({"geometry": zgeo, "zone_blocks": 2, "host_op": 0.4},
                                                     host_op="opt_real"), "ftl")
    add("ftl.simulate_zns", F.simulate_zns,
        params({"geometry": zgeo, "workload": W.Workload(), "zone_blocks": 2, "host_op": 0.5, "handle_starts": (40,),
                "fills": 0.5, "seed": 1}, host_op="opt_real", fills=Param("real", 0.5, cap=20),
               # () is valid here (one log for all data): the tuple kind's bad values less it
               handle_starts=Param("anything", (40,), never=[v for v in _NEVER["tuple"] if v != ()])), "ftl")
    add("ftl.Stepper", F.Stepper, params({"geometry": F.stepper.TINY_GEOMETRY, "config": F.stepper.TINY_CONFIG,
                                          "workload": W.Workload(), "seed": 0}), "ftl")
    add("ftl.Stepper.step", method(lambda: F.Stepper(), "step"), params({"n": 3}, n=Param("int", 3, cap=2000)),
        "ftl")
    add("ftl.wa_fifo", F.wa_fifo, params({"op": [0.1, 0.5]}, op="real_or_array"), "ftl")
    add("ftl.wa_agarwal", F.wa_agarwal, params({"op": 0.2}, op="real_or_array"), "ftl")
    add("ftl.wa_greedy", F.wa_greedy, params({"op": [0.2], "pages_per_block": 64}, op="real_or_array"), "ftl")
    add("ftl.wa_hot_cold", F.wa_hot_cold,
        params({"op": 0.15, "hot_fraction": 0.1, "hot_share": 0.9, "pages_per_block": 32, "hot_spare": 0.5},
               hot_spare="opt_real"), "ftl")

    # ---- ssd
    add("ssd.ssd_geometry", S.ssd_geometry,
        params({"capacity_bytes": 2**22, "op": 0.2, "channels": 2, "dies_per_channel": 1, "planes_per_die": 2,
                "pages_per_block": 16, "page_size": 4096}), "ssd")
    add("ssd.SsdConfig", S.SsdConfig,
        params({**{f.name: getattr(sconf, f.name) for f in dataclasses.fields(sconf)},
                "nand_page_size": 8192, "cache_bytes": 2**19, "power_loss_protection": False},
               timing=Param("obj", "slc", never=("plc", "", ["slc"], np.array(["slc"]))),
               nand_page_size=Param("opt_int", 8192, never=(12288, 2048, 4096 * 32, 8192.5, "16k")),
               host=Param("opt_obj", S.HostInterface(link_mb_s=500.0)),
               controller=Param("opt_obj", S.Controller(cores=2, command_us=5.0)),
               slc=Param("opt_obj", None), map_cache=Param("opt_obj", None)), "ssd")
    link = S.HostInterface(link_mb_s=500.0, command_overhead_us=1.0, max_qd=16, duplex=False, name="link")
    add("ssd.HostInterface", S.HostInterface, dataclass_params(link, name="text"), "ssd")
    add("ssd.HostInterface.sata", S.HostInterface.sata,
        params({"gbps": 3.0, "efficiency": 0.9, "command_overhead_us": 1.0, "max_qd": 32}), "ssd")
    add("ssd.HostInterface.pcie", S.HostInterface.pcie,
        params({"gen": 3, "lanes": 4, "efficiency": 0.9, "command_overhead_us": 0.1, "max_qd": 256}), "ssd")
    add("ssd.Controller", S.Controller, dataclass_params(S.Controller(cores=4, command_us=8.0, ecc_decode_us=3.0)),
        "ssd")
    add("ssd.SlcCache", S.SlcCache, dataclass_params(S.SlcCache(blocks_per_plane=2, t_prog_us=200.0, t_read_us=25.0),
                                                     t_prog_us=Param("opt_real", 200.0),
                                                     t_read_us=Param("opt_real", 25.0)), "ssd")
    add("ssd.MapCache", S.MapCache, dataclass_params(S.MapCache(cached_bytes=2**16, entry_bytes=4, hit_us=1.0,
                                                                name="hmb"), name="text"), "ssd")
    mcache = S.MapCache(cached_bytes=2**16)
    add("ssd.MapCache.entries_per_page", mcache.entries_per_page, params({"page_size": 4096}), "ssd")
    add("ssd.MapCache.cached_pages", mcache.cached_pages, params({"page_size": 4096}), "ssd")
    add("ssd.MapCache.table_pages", mcache.table_pages, params({"user_pages": 2**20, "page_size": 4096}), "ssd")
    add("ssd.lru_miss_rate", S.lru_miss_rate, params({"cached_pages": 16, "table_pages": 64}), "ssd")
    slc = S.SlcCache(blocks_per_plane=2)
    add("ssd.SlcCache.prog_us", slc.prog_us, params({"timing": D.timing_preset("tlc")}), "ssd")
    add("ssd.SlcCache.read_us", slc.read_us, params({"timing": D.timing_preset("tlc")}), "ssd")
    slc_drive = S.SsdConfig(geometry=S.ssd_geometry(2**22, 2.0, channels=2, dies_per_channel=1, planes_per_die=2,
                                                    pages_per_block=48), timing="tlc")
    add("ssd.slc_write_plateaus", S.slc_write_plateaus,
        params({"config": slc_drive, "cache": S.SlcCache(blocks_per_plane=1)}), "ssd")
    add("ssd.SlcPlateaus.seconds_to_write", S.slc_write_plateaus(slc_drive, S.SlcCache(blocks_per_plane=1)).seconds_to_write,
        params({"nbytes": 2**20}), "ssd")
    load = S.HostLoad(qd=4, workload=W.Workload(read_fraction=0.3))
    add("ssd.HostLoad", S.HostLoad, dataclass_params(S.HostLoad(qd=4, rate_iops=1e4),
                                                     rate_iops=Param("opt_real", 1e4)), "ssd")
    add("ssd.page_type_shares", S.page_type_shares, params({"config": sconf}), "ssd")
    add("ssd.pipeline_limit_iops", S.pipeline_limit_iops, params({"config": sconf, "write_size": 8192},
                                                                 write_size=Param("opt_int", 8192)), "ssd")
    add("ssd.raw_program_bandwidth_mb_s", S.raw_program_bandwidth_mb_s, params({"config": sconf}), "ssd")
    add("ssd.supported_percentile", S.supported_percentile, params({"n": 1643, "percentile": 99.9, "tail": 10}),
        "ssd")
    add("ssd.simulate_io", S.simulate_io,
        params({"config": sconf, "load": load, "requests": 60, "seed": 1, "precondition_fills": 0.2,
                "precondition_size": 8192, "samples": 20, "progress": False},
               requests=Param("opt_int", 60, cap=3000), precondition_fills=Param("real", 0.2, cap=2.0),
               precondition_size=Param("int", 8192, cap=2**20), progress="opt_bool",
               samples=Param("int", 20, cap=10**6), config=Param("opt_obj", sconf)), "ssd")
    add("ssd.nand_timeline", S.nand_timeline,
        params({"ops": [(0.0, "program", 0, 0), (5.0, "read", 0, 0)], "config": sconf},
               ops=Param("array", [(0.0, "program", 0, 0), (5.0, "read", 0, 0)],
                         never=([(0.0, "fly", 0, 0)], [(0.0, "read", 99, 0)], [(NAN, "read", 0, 0)], [(0.0,)],
                                [(5.0, "read", 0, 0), (1.0, "read", 0, 0)], [], [(0.0, "read", 0, 9)])),
               config=Param("opt_obj", sconf)), "ssd")
    wsconf = S.SsdConfig(geometry=D.Geometry(channels=2, blocks_per_plane=16, pages_per_block=8, page_size=4096, op=0.5),
                         timing="slc")
    add("ssd.write_saturation", S.write_saturation,
        params({"config": wsconf, "qd": 4, "fills": 0.5, "rounds_per_fill": 4, "precondition": False, "seed": 1,
                "progress": False},
               fills=Param("real", 0.5, cap=2.0), rounds_per_fill=Param("int", 4, cap=20), qd=Param("int", 4, cap=64),
               progress="opt_bool", config=Param("opt_obj", wsconf)), "ssd", nan_ok=True)
    add("ssd.run_members", S.run_members,
        params({"members": [sconf], "op": [0, 1, 0, 1], "lba": [0, 1, 2, 0], "pages": [1, 1, 2, 1],
                "device": [0, 0, 0, 0], "arrivals": None, "qd": 4, "device_qd": None, "gc_group": None,
                "gc_limits": (), "gc_sync": None, "host": None, "phase": None, "alternates": None, "any_of": None,
                "hosts": None, "precondition_fills": 0.0, "seed": 0, "samples": 20, "progress": False, "barrier": 0},
               members=Param("obj", [sconf], never=(sconf, "ssd", [], [3], None)),
               op=Param("array", [0, 1, 0, 1], never=([0, 8, 0, 1], [0, 3, 0, 1], [0.5, 1, 0, 1], [], [0, 1])),
               lba=Param("array", [0, 1, 2, 0], never=([-1, 1, 2, 0], [0, 1, 2, 10**9], [0.5, 1, 2, 0])),
               pages=Param("array", [1, 1, 2, 1], never=([0, 1, 2, 1], [1.5, 1, 2, 1])),
               device=Param("array", [0, 0, 0, 0], never=([0, 1, 0, 0], [-1, 0, 0, 0])),
               arrivals=Param("opt_obj", None, never=([3.0, 2.0, 1.0, 0.0], [0.0, NAN, 1.0, 2.0], [0.0])),
               device_qd=Param("opt_obj", None, never=([0], [4, 4], 4.5)),
               gc_group=Param("opt_obj", None, never=([0], [5], "a")),
               gc_limits=Param("anything", (), never=(3, [0], ["a"], None, "x", 2.5, NAN)),
               gc_sync=Param("opt_obj", None, never=([True], "a", np.array([1]))),
               host=Param("opt_obj", None, never=([0, 0, 1], [1, 0, 0, 0], [0, 0, 0, 0.5])),
               phase=Param("opt_obj", None, never=([0, 0, 0, 2],)),
               alternates=Param("opt_obj", None, never=(([0, -1, -1, -1], [1, 0, 0, 0]), [0, 0], "x")),
               any_of=Param("opt_obj", None, never=([True], np.array([1, 0]))),
               hosts=Param("opt_int", None), precondition_fills=Param("real", 0.0, cap=2.0),
               progress="opt_bool", samples=Param("int", 20, cap=10**6),
               barrier=Param("int", 0, cap=4, never=(-1, 5))), "ssd")
    srv = S.ServiceMember(mean_us=50.0, distribution="exponential", per_page_us=1.0, lbas=1024)
    add("ssd.ServiceMember", S.ServiceMember, dataclass_params(srv), "ssd")
    add("ssd.ServiceMember.service_us", srv.service_us,
        params({"pages": np.array([1, 2, 3]), "seed": 1, "index": 0},
               pages=Param("array", np.array([1, 2, 3]), never=([-1], [0.5])), index=Param("int", 0, never=(-1,))),
        "ssd")
    add("ssd.wa_terms", S.wa_terms,
        {"counters": Param("obj", {"host_page_writes": 100, "gc_copies": 20, "fold_copies": 0, "map_programs": 5},
                           never=({"host_page_writes": 1}, {"host_page_writes": -1, "gc_copies": 0, "fold_copies": 0,
                                                            "map_programs": 0}))}, "ssd")
    add("ssd.steady_state", S.steady_state,
        params({"values": [1.0, 1.1, 0.9, 1.0, 1.05, 1.0], "window": 3, "excursion": 0.2, "slope": 0.1, "first": 0}),
        "ssd")

    @cache
    def io():
        return S.simulate_io(sconf, load, requests=200, seed=2)

    opp = Param("opt_int", 0, never=(8, 9, -1, 2.5, "read", np.array([0, 1])))
    php = Param("opt_int", 1, never=(2, -1, 0.5, "workload"))
    add("ssd.IoResult.iops", method(io, "iops"), {"op": opp, "phase": php}, "ssd", nan_ok=True)
    add("ssd.IoResult.bandwidth_mb_s", method(io, "bandwidth_mb_s"), {"op": opp, "phase": php}, "ssd", nan_ok=True)
    add("ssd.IoResult.percentiles", method(io, "percentiles"),
        {"op": opp, "phase": php, "mask": Param("opt_obj", lambda: io().op == 1, lazy=True,
                                                never=(np.ones(3, bool), [True], np.ones(200)))}, "ssd")
    add("ssd.IoResult.histogram", method(io, "histogram"),
        {"op": opp, "phase": php, **params({"bins_per_decade": 5, "lo_us": 1.0, "hi_us": 1e6})}, "ssd")
    add("ssd.IoResult.intervals", method(io, "intervals"), params({"n": 5, "by": "requests"},
                                                                   n=Param("int", 5, cap=1000)), "ssd")
    add("ssd.IoResult.power_loss", method(io, "power_loss"), params({"at_us": 1000.0}), "ssd")

    @cache
    def members():
        return S.run_members([sconf], [0, 1, S.OP_FLUSH, 0], [0, 1, 0, 2], [1, 1, 1, 1], [0, 0, 0, 0], qd=2)

    add("ssd.MembersResult.power_loss", method(members, "power_loss"), params({"at_us": 1000.0}), "ssd")

    # ---- drives (records, and validation runs of the smallest preset at a tiny scale)
    from flashlab import drives as DR

    x25e = DR.X25E
    add("drives.NandPart", DR.NandPart, dataclass_params(x25e.nand, name="text", source="text"), "ssd")
    add("drives.Figure", DR.Figure,
        dataclass_params(x25e.datasheet[0], value=Param("real", 35000.0), source="text", note="text"), "ssd")
    add("drives.Allowance", DR.Allowance,
        params({"metric": "seq_write_mb_s", "low": 0.5, "high": 2.0, "why": "a reason of twenty characters"},
               why="text"), "ssd")
    add("drives.Drive", DR.Drive,
        dataclass_params(x25e, key="text", name="text", calibrated_from="choice", datasheet=Param("tuple", x25e.datasheet),
                         allowances=Param("obj", x25e.allowances, never=("x", (3,), (None,))), endurance="text", internals="text"), "ssd")
    add("drives.Drive.figure", method(lambda: x25e, "figure"), params({"metric": "seq_read_mb_s"}), "ssd")
    add("drives.Drive.allowance", method(lambda: x25e, "allowance"), params({"metric": "seq_read_mb_s"}), "ssd")
    add("drives.Drive.config", method(lambda: x25e, "config"),
        params({"capacity_scale": 0.05}, capacity_scale=Param("real", 0.05, cap=0.06)), "ssd")
    add("drives.Drive.min_scale", method(lambda: x25e, "min_scale"), params({}), "ssd")
    add("drives.Drive.slc_cache", method(lambda: DR.P660, "slc_cache"),
        params({"blocks_per_plane": 2}, blocks_per_plane=Param("int", 2, cap=64)), "ssd")
    add("drives.Drive.small_config", method(lambda: x25e, "small_config"),
        params({"margin": 1.25}, margin=Param("real", 1.25, cap=4.0)), "ssd")
    add("drives.Drive.scale_for", method(lambda: x25e, "scale_for"),
        params({"blocks_per_plane": 32}, blocks_per_plane=Param("int", 32, cap=64)), "ssd")
    x25e_scale = x25e.scale_for(64)  # the fewest blocks its op leaves the FTL room in, doubled
    add("drives.measure", DR.measure,
        params({"drive": x25e, "metric": "random_read_iops", "capacity_scale": x25e_scale, "requests": 200, "seed": 1},
               capacity_scale=Param("opt_real", x25e_scale, cap=0.04), requests=Param("int", 200, cap=400)), "ssd")
    add("drives.validate", DR.validate,
        params({"drive": x25e, "capacity_scale": x25e_scale, "requests": 200, "seed": 1},
               capacity_scale=Param("opt_real", x25e_scale, cap=0.04), requests=Param("int", 200, cap=300)), "ssd")

    @cache
    def validation():
        return DR.validate(x25e, capacity_scale=x25e_scale, requests=200, seed=1)

    add("drives.Validation.row", method(validation, "row"), params({"metric": "seq_read_mb_s"}), "ssd")
    add("drives.Validation.table", method(validation, "table"), {}, "ssd")

    rating = DR.RATINGS["980pro"]
    add("drives.Rating", DR.Rating, dataclass_params(rating, source="text", note="text"), "ssd")
    add("drives.tbw", DR.tbw, params({"raw_bytes": 1e12, "pe_cycles": 3000.0, "wa": 2.0}), "ssd")
    add("drives.dwpd", DR.dwpd, params({"tbw_tb": 600.0, "user_bytes": 1e12, "years": 5.0}), "ssd")
    add("drives.endurance", DR.endurance,
        params({"drive": DR.PRO980, "workload": "enterprise", "years": 5.0, "blocks": 64, "fills": 2.0, "seed": 1},
               years="opt_real", blocks=Param("int", 64, cap=256), fills=Param("real", 2.0, cap=4.0)), "ssd")

    # qualification: ACT's rule and load, QoS rows, specifications (on a 16 MiB drive, not preconditioned)
    qconf = S.SsdConfig(geometry=S.ssd_geometry(2**24, 0.25, channels=2, dies_per_channel=1, planes_per_die=2,
                                                pages_per_block=16), timing="slc")
    add("drives.act_load", DR.act_load,
        params({"multiple": 2, "record_bytes": 1536, "large_block_bytes": 131072, "defrag_lwm_pct": 50}), "ssd")
    # latencies may be NaN (a read that never completed): never infinite, negative or not numbers
    bad_lat = ("1,2", "", None, True, JUNK, [INF], [-1.0], [[1.0], [1.0, 2.0]], ["1"], [True, False], [1 + 2j], [])
    add("drives.act_rules", DR.act_rules,
        params({"arrival_us": np.array([0.0, 10.0, 2e6]), "latency_us": np.array([100.0, 2e3, 9e4]), "slice_s": 1.0},
               latency_us=Param("anything", np.array([100.0, np.nan, 9e4]), never=bad_lat + ([1.0],))), "ssd")
    add("drives.qos", DR.qos, params({"latency_us": np.arange(1.0, 2001.0), "nines": (99.0, 99.9)},
                                     latency_us=Param("anything", np.arange(1.0, 2001.0), never=bad_lat)), "ssd")
    add("drives.format_qos", DR.format_qos,
        params({"rows": DR.qos(np.arange(1.0, 2001.0)), "label": "read"}, label="text",
               rows=Param("obj", DR.qos(np.arange(1.0, 11.0)), never=((), ("x",), [3]))), "ssd")
    add("drives.act_run", DR.act_run,
        params({"drive": qconf, "multiple": 2, "reads": 300, "slices": 2, "precondition_fills": 0.0, "seed": 1},
               drive=Param("obj", qconf, never=(x25e.nand,)), multiple=Param("int", 2, cap=16),
               reads=Param("int", 300, cap=2000), precondition_fills=Param("real", 0.0, cap=0.3)), "ssd")
    add("drives.act_rating", DR.act_rating,
        params({"drive": qconf, "max_multiple": 2, "reads": 10000, "precondition_fills": 0.0, "seed": 1},
               drive=Param("obj", qconf), max_multiple=Param("int", 2, cap=4), reads=Param("int", 10000, cap=12000),
               precondition_fills=Param("real", 0.0, cap=0.3)), "ssd")
    qspec = "rwmixread = 50; write_size_kib = 16; write_mb_s = 20; requests = 1000; precondition_fills = 0; read_p99_ms <= 5"
    add("drives.parse_spec", DR.parse_spec, params({"spec": qspec}), "ssd")
    add("drives.check_spec", DR.check_spec,
        params({"spec": qspec, "drive": qconf}, drive=Param("opt_obj", qconf, never=(x25e.nand,))), "ssd")

    # ---- db (database host models)
    disk_price = DR.PRICES["disk"]
    add("drives.Price", DR.Price, dataclass_params(disk_price, name="text", iops_from="text", date="text",
                                                   source="text", note="text"), "db")
    add("drives.cheapest", DR.cheapest,
        params({"capacity_bytes": 2e12, "read_iops": 5000.0, "prices": None},
               prices=Param("opt_obj", None, never=({}, {"x": 3}, [disk_price], "disk"))), "db")
    add("drives.crossover_density", DR.crossover_density,
        params({"disk": disk_price, "flash": DR.PRICES["ssd320"]},
               disk=Param("obj", disk_price, never=(DR.SSD320, "disk", 3)),
               flash=Param("obj", DR.PRICES["ssd320"], never=(DR.SSD320, "ssd320", 3))), "db", inf_ok=True)
    add("drives.tier_costs", DR.tier_costs,
        params({"db_bytes": 2e12, "read_iops": 5000.0, "s": 1.0, "disk": disk_price, "flash": DR.PRICES["ssd320"],
                "block_bytes": 8192},
               disk=Param("obj", disk_price, never=(DR.SSD320, "disk", 3)),
               flash=Param("obj", DR.PRICES["ssd320"], never=(DR.SSD320, "ssd320", 3))), "db")
    add("db.rwmix", DB.rwmix,
        params({"config": sconf, "rwmixread": 70.0, "qd": 4, "read_size": 4096, "write_size": 8192, "requests": 400,
                "span_fraction": 0.5, "seed": 0},
               config=Param("opt_obj", sconf), requests=Param("int", 400, cap=1000), qd=Param("int", 4, cap=10**5)), "db")
    add("db.streams", DB.streams,
        params({"config": sconf, "read_iops": 1e4, "write_iops": 1e3, "qd": 8, "read_size": 4096, "write_size": 8192,
                "requests": 50, "span_fraction": 0.5, "seed": 0},
               config=Param("opt_obj", sconf), requests=Param("int", 50, cap=500), qd=Param("int", 8, cap=10**5)), "db")
    add("db.littles_law_read_iops", DB.littles_law_read_iops,
        params({"qd": 32, "read_fraction": 0.7, "read_latency_us": 100.0, "write_latency_us": 1000.0}), "db")
    add("db.direct_path_scan", DB.direct_path_scan,
        params({"config": sconf, "dop": 2, "multiblock": 2, "block_size": 4096, "slots": 1, "table_fraction": 0.5,
                "seed": 0}, config=Param("opt_obj", sconf)), "db")
    rconf = S.SsdConfig(geometry=S.ssd_geometry(64 * 2**20, op=0.25, pages_per_block=16), timing="slc")
    add("db.redo_log", DB.redo_log,
        params({"config": rconf, "sessions": 2, "commits": 20, "redo_bytes": 1000, "redo_block": 512, "think_us": 100.0,
                "disk_writes_per_s": 0.0, "precondition_fills": 0.0, "seed": 0},
               config=Param("opt_obj", rconf), commits=Param("int", 20, cap=200),
               precondition_fills=Param("real", 0.0, cap=2.0),
               sessions=Param("int", 2, cap=64), redo_block=Param("choice", 512, never=(1000, 0, 513.0, "512", 8192))),
        "db")

    fconf = S.SsdConfig(geometry=S.ssd_geometry(64 * 2**20, op=0.25, pages_per_block=16), timing="slc",
                        nand_page_size=16384, cache_bytes=2**20)
    add("db.flushed_writes", DB.flushed_writes,
        params({"config": fconf, "flush_every": 1, "write_size": 4096, "qd": 1, "writes": 20, "seed": 0},
               config=Param("opt_obj", fconf), writes=Param("int", 20, cap=200), qd=Param("int", 1, cap=64),
               flush_every=Param("int", 1, cap=10**6), write_size=Param("int", 4096, cap=2**20)), "db")

    from flashlab.device.hdd import CHEETAH_15K7
    add("db.temp_sort", DB.temp_sort,
        params({"device": rconf, "sessions": 2, "runs": 2, "run_bytes": 65536, "io_bytes": 16384, "seed": 0},
               device=Param("opt_obj", rconf, never=(CHEETAH_15K7.name, [rconf], 3)), sessions=Param("int", 2, cap=64),
               runs=Param("int", 2, cap=64), run_bytes=Param("int", 65536, cap=2**22),
               io_bytes=Param("int", 16384, cap=2**22)), "db")

    add("db.oltp", DB.oltp,
        params({"write_back": False, "sessions": 4, "accesses": 300, "blocks": 400, "buffers": 50, "modify": 0.5,
                "flash_hit": 0.9, "cpu_us": 50.0, "dbwr_depth": 4, "disks": 2, "flash_drives": 1, "disk": CHEETAH_15K7,
                "flash": rconf, "samples": 10, "seed": 0},
               sessions=Param("int", 4, cap=64), accesses=Param("int", 300, cap=3000), blocks=Param("int", 400, cap=10**5),
               buffers=Param("int", 50, cap=300), dbwr_depth=Param("int", 4, cap=64), disks=Param("int", 2, cap=64),
               flash_drives=Param("int", 1, cap=16), samples=Param("opt_int", 10, cap=300),
               disk=Param("opt_obj", CHEETAH_15K7, never=(rconf, "cheetah", 3)),
               flash=Param("opt_obj", rconf, never=(CHEETAH_15K7, "mlc", 3))), "db")

    add("db.harmonic", DB.harmonic, params({"n": 10**6, "s": 1.0}), "db")
    add("db.hot_fraction", DB.hot_fraction, params({"n_blocks": 10**6, "hot_blocks": 1000, "s": 1.0}), "db")
    add("db.cold_cache_misses", DB.cold_cache_misses,
        params({"lookups": 200_000, "keys": 10**6, "rows_per_block": 1}), "db")
    add("db.keep_scan", DB.keep_scan,
        params({"table_bytes": 1e9, "disk_read_mb_s": 1900.0, "flash_read_mb_s": 4300.0, "flash_write_mb_s": 2000.0,
                "overlap": False}), "db")

    # ---- presets
    add("presets.Technology", PR.Technology, dataclass_params(mlc, name="text", sources="text_tuple"), "presets")
    add("presets.technology", PR.technology,
        params({"gen": TE.MLC_2Y, "feature_nm": 25.0, "name": None}, feature_nm=Param("opt_real", 25.0),
               name=Param("opt_text", None)), "presets")

    # ---- tech
    add("tech.CellGeneration", TE.CellGeneration,
        dataclass_params(TE.MLC_2Y, name="text", sources="text_tuple", coupling_3d=Param("opt_real", None),
                         vth_changes=Param("obj", (("retention_rate", 0.01),),
                                           never=((("no_such_field", 1.0),), (("retention_rate", NAN),),
                                                  (("retention_rate", "x"),), (("means", (0.0, 1.0)),),
                                                  (("retention_rate",),), ("retention_rate", 0.01), ((3, 1.0),),
                                                  [("retention_rate", 0.01)]))), "tech")
    add("tech.cell_model", TE.cell_model, params({"gen": TE.MLC_2Y, "feature_nm": 25.0, "residual": 0.015},
                                                 feature_nm=Param("opt_real", 25.0)), "tech")
    add("tech.raw_coupling", TE.raw_coupling, params({"gen": TE.MLC_2Y, "feature_nm": 25.0},
                                                     feature_nm=Param("opt_real", 25.0)), "tech")
    add("tech.shrink_sweep", TE.shrink_sweep,
        params({"gen": TE.MLC_2Y, "feature_nm": [25.0, 19.0], "pe_cycles": 3000.0, "retention_days": 365.0,
                "endurance": False, "residual": 0.015}), "tech", nan_ok=True)
    pc = TE.PlanarCell(25.0)
    add("tech.PlanarCell", TE.PlanarCell, dataclass_params(pc), "tech")
    add("tech.PlanarCell.electrons_per_state", pc.electrons_per_state, params({"bits": 2}), "tech")
    add("tech.state_spacing_units", TE.state_spacing_units, params({"bits": 3}), "tech")
    add("tech.as_built", TE.as_built, params({"feature_nm": 20.0, "air_gap": 0.5}), "tech")
    add("tech.PlanarCell.injection_sigma_v", pc.injection_sigma_v, params({"step_v": 0.1}), "tech")
    add("tech.electron_counts", TE.electron_counts,
        params({"mean_electrons": 100.0, "n_cells": 100, "seed": 1, "capacity": 0},
               mean_electrons=Param("real", 100.0, cap=1e4), n_cells=Param("int", 100, cap=10**4),
               capacity=Param("int", 0, cap=10**6, never=(50, 100))), "tech")
    add("tech.verify_overshoot", TE.verify_overshoot,
        params({"step_electrons": 2.0, "n_cells": 100, "seed": 1},
               step_electrons=Param("real", 2.0, cap=1000.0), n_cells=Param("int", 100, cap=10**4)), "tech")
    add("tech.node_sweep", TE.node_sweep, params({"feature_nm": [25.0, 19.0], "bits": 2, "cell": None},
                                                 cell=Param("opt_obj", None)), "tech")
    add("tech.gross_dies_per_wafer", TE.gross_dies_per_wafer,
        params({"wafer_mm": 300.0, "die_mm2": 60.0, "edge_exclusion_mm": 3.0}), "tech")
    add("tech.poisson_yield", TE.poisson_yield, params({"defects_per_cm2": 0.1, "die_mm2": 60.0}), "tech")
    add("tech.cost_per_gb", TE.cost_per_gb,
        params({"wafer_cost_usd": 3000.0, "die_mm2": 60.0, "die_gbit": 256.0, "defects_per_cm2": 0.1,
                "wafer_mm": 300.0, "edge_exclusion_mm": 3.0}), "tech")
    add("tech.patterning_passes", TE.patterning_passes, params({"feature_nm": [40.0, 20.0]},
                                                               feature_nm="real_or_array"), "tech")
    add("tech.shrink_returns", TE.shrink_returns,
        params({"feature_nm": [50.0, 25.0, 19.0], "patterning_cost": 0.15, "retool_cost_usd": 3e9,
                "margin_usd_per_wafer": 3000.0}), "tech", inf_ok=True)  # payback inf: no saving
    add("tech.Stack3D", TE.Stack3D, dataclass_params(TE.Stack3D(96), hole_top_nm=Param("opt_real", None)), "tech")
    add("tech.VerticalString", TE.VerticalString, dataclass_params(TE.VerticalString(TE.GENERATIONS_3D[64])), "tech")
    add("tech.pass_states", TE.pass_states, params({"bits": 3, "mode": "one-shot"}), "tech")
    add("tech.program_ladder", TE.program_ladder,
        params({"bits": 2, "mode": "page-by-page", "page_bytes": 512, "seed": 1, "ispp": C.ISPP_SLC_2XNM},
               page_bytes=Param("int", 512, cap=4096)), "tech")
    ladder = TE.program_ladder(1, "one-shot", 512)
    add("tech.ProgramLadder.pass_us", ladder.pass_us, params({"t_sense_us": 5.0, "t_pulse_us": 5.0}), "tech")
    add("tech.ProgramLadder.word_line_us", ladder.word_line_us,
        params({"string": TE.VerticalString(TE.GENERATIONS_3D[64]), "t_pulse_us": 5.0}), "tech")
    add("tech.bit_cost", TE.bit_cost, params({"stack": TE.GENERATIONS_3D[96], "gate_cost": 0.012,
                                              "deck_cost": 0.25}), "tech")
    add("tech.layer_sweep", TE.layer_sweep, params({"layers": [32, 64, 96], "decks": 1, "bits": 3,
                                                    "periphery": "under"}), "tech")
    dp = TE.DENSITY_POINTS[3]
    add("tech.DensityPoint", TE.DensityPoint, dataclass_params(dp, name="text", source="text", note="text"),
        "tech")
    add("tech.DensityPoint.stack", dp.stack, {}, "tech")
    add("tech.ChargeTrapEffects", TE.ChargeTrapEffects, dataclass_params(TE.CHARGE_TRAP), "tech")
    qlc = PR.QLC_3D.vth
    ct = {"model": qlc, "pe_cycles": 1000.0, "retention_days": 30.0, "effects": TE.CHARGE_TRAP, "wear_scale": 1.0,
          "neighbour": None}
    add("tech.charge_trap_distributions", TE.charge_trap_distributions,
        params(ct, neighbour=Param("opt_int", None)), "tech")
    add("tech.ct_worst_rber", TE.ct_worst_rber, params(ct, neighbour=Param("opt_int", None)), "tech")
    add("tech.layer_rber", TE.layer_rber,
        params({"model": qlc, "stack": TE.GENERATIONS_3D[96], "pe_cycles": 1000.0, "retention_days": 30.0,
                "effects": TE.CHARGE_TRAP}), "tech")
    add("tech.layer_wear_scale", TE.layer_wear_scale, params({"stack": TE.GENERATIONS_3D[96],
                                                              "effects": TE.CHARGE_TRAP}), "tech")

    # ---- sweep (serial calls of a tiny function: no processes, no cluster)
    def tiny(x, seed, label="a"):
        return {"y": 2 * x, "s": seed % 7, "label": label}

    import atexit
    import itertools
    import shutil
    import tempfile
    from pathlib import Path

    scratch = Path(tempfile.mkdtemp(prefix="fuzz-sweep-"))  # results files (a few kB each)
    atexit.register(shutil.rmtree, scratch, True)
    count = itertools.count()

    def results_path():
        return scratch / f"r{next(count)}.parquet"

    def junk_results_file():
        path = results_path()
        path.write_bytes(b"not a parquet file")
        return str(path)

    bad_grids = ({}, {"x": []}, {"x": [[1]]}, {"x": [JUNK]}, {"x": [1, 1]}, [{"x": 1}, {"x": 1}], [{"x": 1}, 3],
                 {"1x": [1]}, {"x": [b"1"]}, {3: [1]})
    grid = Param("obj", {"x": [1, 2]}, never=bad_grids)
    add("sweep.sweep", SW.sweep,
        params({"fn": tiny, "grid": {"x": [1, 2]}, "seed": 0, "client": None, "progress": False,
                "results": None, "workers": 1, "errors": "raise"},
               grid=Param("obj", {"x": [1, 2]}, never=bad_grids + ({"y": [1]},)),  # y: not a parameter of tiny
               client=Param("opt_obj", None, never=(3, JUNK, "", " ")), progress="opt_bool",
               results=Param("opt_obj", results_path, lazy=True,
                             never=(3, b"r.parquet", "", "r.csv", JUNK, junk_results_file())),
               workers=Param("opt_int", 1, cap=1)), "sweep")
    add("sweep.grid_points", SW.grid_points, {"grid": grid}, "sweep")
    add("sweep.point_seed", SW.point_seed,
        params({"point": {"x": 1}, "seed": 0},
               point=Param("obj", {"x": 1}, never=({"x": JUNK}, {"x": [1]}, {3: 1}, [("x", 1)]))), "sweep")
    add("sweep.result_columns", SW.result_columns,
        params({"result": {"y": 1.0, "n": {"m": 2}}},
               result=Param("anything", {"y": 1.0}, never=(JUNK, [1.0], np.zeros(3), (1.0,), b"x", 1 + 2j))),
        "sweep")

    # ---- array (capacity arithmetic)
    add("array.array_capacity", AR.array_capacity,
        params({"drives": 10, "drive_bytes": 1.92e12, "raid": 6, "group_width": None, "spares": 0, "op": 0.07,
                "system_reserve": 0.05, "data_reduction": 3.0},
               raid=Param("int", 6, never=(2, 3, 4, 6.0, "6")), group_width=Param("opt_int", None)), "array")
    add("array.drive_capacity", AR.drive_capacity,
        params({"packages": 18, "package_bytes": 32e9, "user_bytes": 400e9}), "array")
    add("array.in_units", AR.in_units, params({"n_bytes": 1e12, "unit": "TiB"}), "array")
    add("array.reduced_wear", AR.reduced_wear,
        params({"ratio": 2.0, "stored": 0.5, "op": 0.07, "pages_per_block": 256},
               stored=Param("real", 0.5, never=(2.5, 0.001, -1.0, float("nan"), "0.5"))), "array")
    cap = AR.array_capacity(10, 1.25e12, raid=6, data_reduction=6.0)
    add("array.ArrayCapacity.step", cap.step, params({"name": "usable"}), "array")
    add("array.ArrayCapacity.table", cap.table, params({"unit": "TB"}), "array")

    # ---- array (layout and arrays in time; one drive, so the engine compiled for one member serves)
    lay = AR.Layout(raid=5, drives=4, stripe_unit=8192, page_size=4096, member_pages=32)
    add("array.Layout", AR.Layout, dataclass_params(lay, member_pages=Param("int", 32, cap=2**20)), "array")
    add("array.Layout.locate", lay.locate, params({"lbas": [0, 5, 95]}, lbas=Param("array", [0, 5, 95],
                                                                                    never=([96], [-1], [0.5]))), "array")
    add("array.Layout.parity_members", lay.parity_members, params({"stripe": 3}, stripe=Param("int", 3,
                                                                                          never=(16, -1))), "array")
    add("array.Layout.plan", lay.plan,
        params({"ops": [0, 1], "lbas": [0, 7], "pages": [3, 2], "rebuild": True},
               ops=Param("array", [0, 1], never=([0, 2], [0])), lbas=Param("array", [0, 7], never=([0, 95], [-1, 0])),
               pages=Param("array", [3, 2], never=([0, 1], [3, 2.5]))), "array")
    add("array.array_drive", AR.array_drive, params({"op": 0.25, "capacity_bytes": 2**22, "timing": "slc"},
                                                   capacity_bytes=Param("int", 2**22, cap=2**26)), "array")
    one = AR.ArrayConfig(arch="ssd", drives=1, raid=0, drive=AR.array_drive(0.25, 2**22))
    add("array.ArrayConfig", AR.ArrayConfig,
        dataclass_params(one, drives=Param("int", 1, never=(257, 0)), raid=Param("int", 0, never=(2, 7, 5)),
                         stripe_unit=Param("int", 16384, never=(6000, 2048)),
                         gc_limit=Param("int", 1, never=(0, 2)),
                         failed=Param("anything", (), never=((0,), (1,), "x", (0.5,)))), "array")
    aload = S.HostLoad(qd=4, workload=W.Workload(read_fraction=0.5))
    add("array.simulate_array", AR.simulate_array,
        params({"config": one, "load": aload, "requests": 40, "bursts": None, "precondition_fills": 0.5, "seed": 1,
                "progress": False, "host_ios": None},
               config=Param("opt_obj", one), requests=Param("int", 40, cap=2000),
               host_ios=Param("anything", None, never=((1, 2), "x", ([0], [0], [1]), ([0], [-1], [1], None))),
               bursts=Param("anything", None, never=((1.0,), (0.0, 1.0), "x", 3, [1.0, 2.0])),
               precondition_fills=Param("real", 0.5, cap=2.0), progress="opt_bool"), "array")

    @cache
    def arr():
        return AR.simulate_array(one, aload, requests=60, seed=2)

    aop = Param("opt_int", 1, never=(7, -1, 2.5, "read", np.array([0, 1])))
    for m in ("iops", "percentiles", "member_percentiles", "stripe_waits"):
        add(f"array.ArrayResult.{m}", method(arr, m), {"op": aop}, "array", nan_ok=True)
    add("array.ArrayResult.intervals", method(arr, "intervals"), {"n": Param("int", 5, cap=1000), "op": aop}, "array")
    add("array.ArrayResult.member_intervals", method(arr, "member_intervals"),
        {"n": Param("int", 5, cap=1000), "op": aop}, "array")
    add("array.ArrayResult.gc_busy", method(arr, "gc_busy"), {"n": Param("int", 5, cap=1000)}, "array")
    add("array.ArrayResult.gc_share", method(arr, "gc_share"), {}, "array")
    add("array.ArrayResult.gc_overlap", method(arr, "gc_overlap"), {}, "array")
    lay6 = AR.Layout(raid=6, drives=5, stripe_unit=4096, page_size=4096, member_pages=8)
    add("array.Layout.tolerates", lay6.tolerates, {"failed": Param("anything", (1, 3), never=((0, 1, 2), (5,), (1, 1),
                                                                                           "x", (0.5,)))}, "array")
    add("array.Layout.degrade", lay6.degrade,
        params({"plan": lay6.plan([0, 1], [0, 4], [3, 1], rebuild=True), "failed": (1, 3), "keep_alternates": True},
               plan=Param("obj", lay6.plan([0, 1], [0, 4], [3, 1], rebuild=True)),
               failed=Param("anything", (1, 3), never=((0, 1, 2), (5,), "x"))), "array")
    host = AR.Host(load=S.HostLoad(qd=2), requests=20)
    add("array.Host", AR.Host, dataclass_params(host, requests=Param("int", 20, cap=200, never=(0,)),
                                                stream=Param("choice", "random", never=("scan",)),
                                                start=Param("real", 0.0, never=(1.0, -0.1))), "array")
    add("array.simulate_hosts", AR.simulate_hosts,
        params({"config": one, "hosts": [host, host], "precondition_fills": 0.5, "seed": 1, "progress": False},
               config=Param("opt_obj", one), hosts=Param("anything", [host, host], never=([], "x", [1], host)),
               precondition_fills=Param("real", 0.5, cap=2.0), progress="opt_bool"), "array")

    @cache
    def hres():
        return AR.simulate_hosts(one, [host, host], seed=2)

    hop = dict(host=Param("opt_int", 1, never=(2, -1, 2.5)), op=aop)
    for m in ("iops", "percentiles"):
        add(f"array.HostsResult.{m}", method(hres, m), hop, "array", nan_ok=True)
    add("array.HostsResult.per_host", method(hres, "per_host"), {}, "array", nan_ok=True)
    rb = AR.Rebuild(layout=lay, failed=(1,), member=1, frontier=3)
    add("array.Rebuild", AR.Rebuild,
        dataclass_params(rb, layout=Param("obj", lay), failed=Param("anything", (1,), never=((), (4,), (0, 1), (1, 1), "x")),
                         member=Param("int", 1, never=(0, 4)), frontier=Param("int", 3, never=(17, -1))), "array")
    stripe = Param("opt_int", 2, never=(16, -1, 2.5))
    for m in ("away", "sources", "stripe_plan"):
        add(f"array.Rebuild.{m}", getattr(rb, m), {"stripe": stripe if m == "stripe_plan" else
                                                   Param("int", 2, never=(16, -1))}, "array")
    add("array.Rebuild.advanced", rb.advanced, {}, "array")
    add("array.Rebuild.plan", rb.plan,
        params({"ops": [0, 1], "lbas": [0, 7], "pages": [3, 2]},
               ops=Param("array", [0, 1], never=([0, 2], [0])), lbas=Param("array", [0, 7], never=([0, 95], [-1, 0])),
               pages=Param("array", [3, 2], never=([0, 1], [3, 2.5]))), "array")
    rdisk = dataclasses.replace(CHEETAH_15K7, capacity_bytes=2**22)
    rcfg = AR.ArrayConfig(arch="disk", drives=3, raid=5, disk=rdisk, failed=(1,))
    rload = S.HostLoad(qd=8, rate_iops=200.0, workload=W.Workload(read_fraction=0.7))
    add("array.simulate_rebuild", AR.simulate_rebuild,
        params({"config": rcfg, "load": rload, "rate_mb_s": 50.0, "requests": 30, "precondition_fills": 0.0,
                "seed": 1, "max_passes": 2},
               config=Param("obj", rcfg, never=(one,)), load=Param("obj", rload, never=(aload,)),
               requests=Param("int", 30, cap=500), precondition_fills=Param("real", 0.0, cap=1.0),
               max_passes=Param("int", 2, cap=4, never=(0, 11))), "array")

    @cache
    def rres():
        return AR.simulate_rebuild(rcfg, rload, rate_mb_s=50.0, requests=30, seed=2)

    add("array.RebuildResult.percentiles", method(rres, "percentiles"), {"op": aop, "during": Param("bool", True)}, "array",
        nan_ok=True)
    add("array.RebuildResult.pages_by_cause", method(rres, "pages_by_cause"), {}, "array")
    add("array.RebuildResult.during", method(rres, "during"), {}, "array")
    for name in ("second_failure_probability", "raid6_loss_probability"):
        add(f"array.{name}", getattr(AR, name),
            params({"survivors": 7, "afr": 0.0055, "hours": 24.0}, afr=Param("real", 0.0055, never=(1.0, -0.1)),
                   survivors=Param("int", 7, never=(0,))), "array")
    add("array.ure_probability", AR.ure_probability,
        params({"bytes_read": 6e11, "bits_per_error": 1e16}, bits_per_error=Param("real", 1e16, never=(0.5,))), "array")

    # ---- quiz
    from flashlab import quiz as QZ

    add("quiz.make", QZ.make, params({"topic": "ftl", "seed": 3}, seed=Param("int", 3, cap=10**6)), "quiz")
    add("quiz.Problem.solution", method(lambda: QZ.make("gc", 1), "solution"), {}, "quiz")

    # ---- the command line: one target per subcommand, one parameter per option
    for name, argv in CLI_BASE.items():
        add(f"cli.{name}", _cli_call(name, argv), _cli_params(name, argv), "cli")
    return T


# A small valid command line per subcommand (options as --name=value); fuzzing an option replaces
# its value (or adds it). Work sizes are capped in CLI_CAPS so that accepted values stay fast.
CLI_BASE = {
    "rber": {"--cell": "tlc", "--pe": "1000", "--retention-days": "30"},
    "wa": {"--blocks": "64", "--pages-per-block": "16", "--op": "0.2", "--fills": "1"},
    "cliff": {"--capacity-gib": "0.004", "--op": "0.25", "--channels": "1", "--dies": "1", "--planes": "2",
              "--pages-per-block": "16", "--qd": "4", "--fills": "0.5", "--max-fills": "0.5"},
    "sweep": {"swept": "wa", "--blocks": "64", "--pages-per-block": "16", "--fills": "0.5", "--op": "0.2,0.3",
              "--workers": "1"},
    "quiz": {"topic": "ftl", "--seed": "3"},
    "array": {"--drives": "4", "--raid": "5", "--drive-mib": "4", "--op": "0.25", "--requests": "100", "--qd": "8",
              "--precondition": "0"},
    "spec": {"--preset": "x25e", "--line": "requests = 1000; precondition_fills = 0; write_mb_s = 10; read_p99_ms <= 1000"},
    "act": {"--preset": "x25e", "--multiple": "1", "--record-reads": "300", "--precondition": "0"},
}
#: Subcommands whose exit status 1 is a verdict (a specification failed), not an error.
CLI_VERDICTS = ("spec",)
CLI_CAPS = {"--pe": 1e5, "--reads": 1e6, "--retention-days": 1e4, "--ecc-t": 200, "--codeword-bytes": 4096,
            "--blocks": 128, "--pages-per-block": 32, "--fills": 1.0, "--max-fills": 1.0, "--capacity-gib": 0.01,
            "--qd": 64, "--channels": 4, "--dies": 2, "--planes": 4, "--drives": 8, "--drive-mib": 8,
            "--requests": 200, "--hosts": 4, "--precondition": 1.0, "--read-cache-mib": 4, "--write-cache-mib": 4,
            "--stripe-unit": 65536, "--workers": 1, "--seed": 10**6, "--gc-limit": 8, "--d": 16, "--io-size": 65536,
            "--multiple": 16, "--max-multiple": 4, "--record-reads": 2000, "--slices": 10}


def _cli_kind(action) -> str:
    if action.choices is not None:
        return "cli_choice"
    return {float: "cli_real", int: "cli_int"}.get(action.type, "cli_text")


def _cli_params(name: str, base: dict) -> dict[str, Param]:
    out = {}
    for a in cli_options()[name]:
        key = a.option_strings[-1] if a.option_strings else a.dest
        out[key] = Param(_cli_kind(a), base.get(key), cap=CLI_CAPS.get(key, math.inf))
    return out


def _cli_call(name: str, base: dict) -> Callable:
    """A call running ``flashlab NAME`` in this process. Good outcomes: exit 0, or exit 2 with one
    line on stderr and no traceback (raised here as a ValueError naming the option, for
    :func:`judge`); any exception main lets out, or another exit, is a finding."""
    import contextlib
    import io

    from flashlab.cli import main

    positional = [k for k in base if not k.startswith("-")]  # quiz's topic; sweep's swept subcommand

    def call(**options):
        given = {**base, **options}
        changed = [k for k in options if options[k] != base.get(k)]
        argv = [name] + [str(given[k]) for k in positional]
        argv += [f"{k}={v}" for k, v in given.items() if k.startswith("-") and v is not None]
        err, out = io.StringIO(), io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            try:
                code = main(argv)
            except SystemExit as exc:  # argparse
                code = exc.code
        lines = err.getvalue().strip().splitlines()
        if code == 0 or (code == 1 and name in CLI_VERDICTS and not lines):
            return out.getvalue()
        if code == 2 and len(lines) == 1 and "Traceback" not in err.getvalue():
            raise ValueError(f"{' '.join(changed)}: {lines[0]}")  # the rule for the command line: one line, exit 2
        raise RuntimeError(f"exit {code} with {len(lines)} lines on stderr: {err.getvalue()[-300:]!r}")

    return call


# ------------------------------------------------------------------ checking one outcome
def _insane(value, depth: int = 0) -> str:
    """Why ``value`` is not a sane result ('' if it is): an infinity anywhere in it."""
    if depth > 3:
        return ""
    if isinstance(value, (bool, np.bool_, str, bytes, type(None))):
        return ""
    if isinstance(value, numbers.Real):
        return "an infinite number" if math.isinf(float(value)) else ""
    if isinstance(value, np.ndarray):
        if value.dtype.kind in "fc" and np.isinf(value).any():
            return "an infinity in an array"
        return ""
    if dataclasses.is_dataclass(value):
        value = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, (list, tuple)):
        for v in value[:1000]:
            why = _insane(v, depth + 1)
            if why:
                return why
    return ""


def judge(target: Target, name: str, must_raise: bool, call: Callable) -> str:
    """Run ``call``; return '' if the outcome is good, else what was wrong."""
    try:
        result = call()
    except (ValueError, TypeError) as exc:
        msg = str(exc)
        if not re.search(rf"(?<![\w']){re.escape(name)}(?!\w)", msg):  # the name as a word: "t", not "got"
            return f"{type(exc).__name__} does not name {name!r}: {msg[:300]}"
        if len(msg) > 2000:
            return f"message of {len(msg)} characters"
        return ""
    except Exception as exc:  # noqa: BLE001 (any other exception is the finding)
        return f"{type(exc).__name__}: {str(exc)[:300]}"
    if must_raise:
        return f"accepted: returned {type(result).__name__}"
    if not target.inf_ok:
        why = _insane(result)
        if why:
            return f"returned {why}"
    if isinstance(result, numbers.Real) and not isinstance(result, bool) and math.isnan(float(result)) \
            and not target.nan_ok:
        return "returned NaN"
    return ""


def _short(value) -> str:
    text = " ".join(repr(value).split())
    return text if len(text) < 120 else text[:120] + "..."


def _case(target: Target, pname: str, value, must_raise: bool, failures: list, out) -> None:
    print(f"CASE {target.name} {pname}={_short(value)}", file=out, flush=True)
    kwargs = {k: (p.value() if k != pname else value) for k, p in target.params.items()}
    why = judge(target, pname, must_raise, lambda: target.call(**kwargs))
    if why:
        failures.append(f"{target.name}({pname}={_short(value)}): {why}")


def _drawn_cases(target: Target, pname: str, examples: int, failures: list, out) -> Callable:
    from hypothesis import HealthCheck, given, settings

    p = target.params[pname]

    @settings(max_examples=examples, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(case=case_strategy(p.kind, p.cap, p.never))
    def run(case):
        _case(target, pname, case[0], case[1], failures, out)

    return run


def fuzz(group: str, examples: int, out=sys.stdout) -> list[str]:
    """Fuzz every parameter of every target in ``group``: ``examples`` values drawn by hypothesis,
    then every must-raise value of the parameter's kind. Prints each case before running it;
    returns the failures."""
    import warnings

    warnings.simplefilter("ignore")
    failures: list[str] = []
    for target in (t for t in targets().values() if t.group == group):
        # the valid call must work, or the cases below prove nothing
        why = judge(target, "<none>", False, lambda: target.call(**{k: p.value() for k, p in target.params.items()}))
        if why:
            failures.append(f"{target.name}(valid arguments): {why}")
            continue
        for pname, p in target.params.items():
            _drawn_cases(target, pname, examples, failures, out)()
            for value in list(_NEVER[p.kind]) + list(p.never):
                _case(target, pname, value, True, failures, out)
    return failures


def main(argv=None) -> int:
    """``python fuzz_api.py GROUP[,GROUP...] EXAMPLES``: fuzz the groups in turn; print each one's
    FAIL lines, then its DONE line."""
    group, examples = (argv or sys.argv[1:])[:2]
    for g in group.split(","):
        t0 = time.perf_counter()
        failures = fuzz(g, int(examples))
        for f in dict.fromkeys(failures):
            print("FAIL", g, f, flush=True)
        print(f"DONE {g} failures={len(failures)} seconds={time.perf_counter() - t0:.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
