"""Array explorables: their data are the engine's (flashlab.array) or the stated formula,
static() builds, every static grid point plots different data, the live dashboard shows what
the static grid embeds, and moving any control changes what is plotted."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from flashlab.array import ArrayConfig, array_capacity, array_drive, simulate_array
from flashlab.viz import array as A
from flashlab.viz.array import build_array, stripe_tail, tb_label, waterfall_columns
from flashlab.viz.explorable import Explorable
from test_viz_levels import _assert_live_shows_grid, _columns_equal

FACTORIES = {"build_array": build_array, "stripe_tail": stripe_tail, "gc_coordination": A.gc_coordination,
             "disk_vs_flash": A.disk_vs_flash}
TIMED = ("build_array", "gc_coordination", "disk_vs_flash")


def _static_grid(ex: Explorable):
    st = ex.static()
    (cb,) = {cb for s in st.sliders for cb in s.js_property_callbacks["change:value"]}
    return st, cb.args["grid"]


def _plot_key(point) -> str:
    """The plotted columns of a grid point (the summary text left out)."""
    return json.dumps({k: {c: np.asarray(a).tolist() for c, a in v.items()}
                       for k, v in point.items() if not isinstance(v, str)}, sort_keys=True)


@pytest.mark.parametrize("name", sorted(FACTORIES))
def test_static_builds_and_every_grid_point_plots_different_data(name):
    ex = FACTORIES[name]()
    st, grid = _static_grid(ex)
    assert st.grid_size == len(grid) == int(np.prod([len(c.values) for c in ex.controls]))
    keys = [_plot_key(p) for p in grid]
    assert len(set(keys)) == len(keys), f"{name}: two grid points plot the same data"
    base = ex.compute(**ex.defaults())
    for c in ex.controls:
        other = next(v for v in c.values if v != c.default)
        moved = ex.compute(**dict(ex.defaults(), **{c.name: other}))
        assert any(not _columns_equal(base[k], moved[k]) for k in base), (name, c.name)


@pytest.mark.parametrize("name", TIMED)
def test_live_dashboard_shows_what_the_static_grid_embeds(name):
    """Move every live slider to a grid value that is not its default: the figure the live
    dashboard redraws holds the same data as the static grid's point for those settings."""
    ex = FACTORIES[name]()
    _, grid = _static_grid(ex)
    _assert_live_shows_grid(ex, grid, name)


@pytest.mark.parametrize("name", sorted(FACTORIES))
def test_every_live_setting_computes(name):
    ex = FACTORIES[name]()
    for c in ex.controls:
        for v in c.live_values:
            ex.compute(**dict(ex.defaults(), **{c.name: v}))


def test_waterfall_bars_are_the_capacity_steps():
    cap = array_capacity(12, 3.84e12, raid=6, op=0.07, system_reserve=0.03, data_reduction=6.0)
    cols = waterfall_columns(cap)
    assert cols["step"] == [s.name for s in cap.steps]
    assert cols["top"][0] == pytest.approx(cap.raw_bytes / 1e12)
    assert cols["top"][5] == pytest.approx(cap.usable_bytes / 1e12) and cols["bottom"][5] == 0
    assert cols["top"][6] == pytest.approx(cap.effective_bytes / 1e12)
    # Each deduction floats from what is left up to what there was before it.
    for i in range(1, 5):
        assert cols["bottom"][i] == pytest.approx(cap.steps[i].bytes / 1e12)
        assert cols["top"][i] == pytest.approx(cap.steps[i - 1].bytes / 1e12)
    data = build_array().compute(drives=12, drive_tb=3.84, raid=6, op=0.07, ratio=6.0)
    assert _columns_equal(data["bars"], cols)


def test_waterfall_labels_a_missing_deduction_zero_not_minus_zero():
    # No spare drives and op 0: those two deductions remove nothing, and their bars read "0".
    cap = array_capacity(8, 3.84e12, raid=10, op=0.0, system_reserve=0.03, data_reduction=1.0)
    cols = waterfall_columns(cap)
    empty = [i for i, s in enumerate(cap.steps) if s.name in ("spares", "over-provisioning")]
    assert len(empty) == 2 and all(cap.steps[i].removed_bytes == 0 for i in empty)
    for i in empty:
        assert cols["label"][i] == "0" and str(cols["size"][i]) == "0.0"
    assert tb_label(-0.04) == "-0.04" and tb_label(-1.234) == "-1.2" and tb_label(-0.0) == "0"


def test_stripe_tail_is_the_order_statistics_formulas():
    data = stripe_tail().compute(members=100, p_slow=0.01)
    assert data["now"]["p"][0] == pytest.approx(63.396765872677086)  # Dean & Barroso: 63%
    h10 = sum(1.0 / k for k in range(1, 11))
    assert data["curve"]["h"][9] == pytest.approx(h10) and math.isclose(h10, 2.9289682539682538)


def test_build_array_timing_is_the_simulated_array_and_never_a_drive_without_spare():
    data = build_array().compute(drives=8, drive_tb=3.84, raid=6, op=0.2, ratio=1.0)
    r = simulate_array(ArrayConfig(arch="ssd", drives=8, raid=6, drive=array_drive(0.2)), A.MIXED_LOAD,
                       requests=A.BUILD_REQUESTS, seed=0)
    assert r.error == "" and np.isfinite(r.latency_us).all()
    assert data["latency"]["ms"][1] == pytest.approx(r.percentiles(1)["p99"] / 1e3)
    assert data["latency"]["ms"][3] == pytest.approx(r.percentiles(0)["p99"] / 1e3)
    assert f"{r.iops():,.0f} IOPS" in data["summary"]
    # op = 0 is capacity arithmetic, not a drive: the timing runs the members at TIMING_MIN_OP
    # and says so, while the waterfall keeps op = 0.
    zero = build_array().compute(drives=8, drive_tb=3.84, raid=6, op=0.0, ratio=1.0)
    low = build_array().compute(drives=8, drive_tb=3.84, raid=6, op=A.TIMING_MIN_OP, ratio=1.0)
    assert _columns_equal(zero["latency"], low["latency"])
    assert not _columns_equal(zero["bars"], low["bars"])
    assert f"op 0 is no drive, so the members run at op {A.TIMING_MIN_OP:g}" in zero["summary"]
    assert A.timing_op(0.2) == 0.2


def test_gc_coordination_histograms_and_timelines_are_the_runs():
    ex = A.gc_coordination()
    data = ex.compute(rate=4000, arch="ground-up")
    for arch in A.GC_ARCHS:
        r = A.gc_point(arch, 4000)
        reads = np.isfinite(r.latency_us) & (r.op == 1)
        assert r.error == "" and reads.sum() > 1000
        assert data["hist"][arch.replace("-", "_")].sum() == pytest.approx(100.0)
    g = A.gc_point("ground-up", 4000)
    tl = data["timeline"]
    assert tl["busy"].sum() == pytest.approx(g.gc_busy(A.GC_INTERVALS).sum()) and tl["busy"].sum() > 0
    assert set(tl["y"]) == set(range(10)) and tl["x"].size == 10 * A.GC_INTERVALS
    np.testing.assert_allclose(tl["p99"], g.member_intervals(A.GC_INTERVALS, op=1)["p99"].ravel() / 1e3)
    # coordination: at most one member collects at once, reads to it are rebuilt, and the read
    # tail falls below independent drives'
    assert g.members.max_collecting[0] == 1 and g.rebuilt.sum() > 0
    s = A.gc_point("ssd", 4000)
    assert g.percentiles(1)["p99"] < 0.5 * s.percentiles(1)["p99"]


def test_disk_vs_flash_compares_the_same_workload():
    ex = A.disk_vs_flash()
    data = ex.compute(qd=16, cache="off")
    disk, flash = A.disk_flash_point("disk", 16, False), A.disk_flash_point("ssd", 16, False)
    for r in (disk, flash):  # the same mix on both: 70% reads, all completed
        assert abs((r.op == 1).mean() - 0.7) < 0.05 and np.isfinite(r.latency_us).all()
    assert flash.iops() > 5 * disk.iops()
    assert flash.percentiles(1)["p50"] < 0.1 * disk.percentiles(1)["p50"]
    assert f"{flash.iops() / disk.iops():,.0f}x" in data["summary"]
    cached = ex.compute(qd=16, cache="on")
    assert not np.array_equal(cached["hist"]["disk_write"], data["hist"]["disk_write"])


def test_build_array_latency_bars_are_labelled_with_their_values():
    """On a linear axis the read bars are slivers beside the write p99: each bar carries its value."""
    data = build_array().compute(drives=12, drive_tb=3.84, raid=6, op=0.07, ratio=1.0)
    assert data["latency"]["label"] == [f"{v:,.2f} ms" for v in data["latency"]["ms"]]


def test_disk_vs_flash_histograms_are_told_apart_and_the_axis_fits_the_grid():
    ex = A.disk_vs_flash()
    layout, _ = ex.figure(ex.compute(**ex.defaults()))
    p = layout.children[1]
    steps = [r.glyph for r in p.renderers if type(r.glyph).__name__ == "Step"]
    assert len({(g.line_color, g.line_dash if isinstance(g.line_dash, str) else tuple(g.line_dash))
                for g in steps}) == len(steps) == 4
    assert all(r.glyph.fill_alpha == 0 for r in p.renderers if type(r.glyph).__name__ == "Quad")
    # the axis is cut (and the title says so) only where the disks' writes pile into one bin
    top = p.y_range.end
    assert top < 100 and f"cut at {top:.0f}%" in p.title.text
    names = [c.name for c in ex.controls]
    for combo in [(qd, cache) for qd in A.DISK_QDS for cache in A.DISK_CACHE]:
        h = ex.compute(**dict(zip(names, combo)))["hist"]
        assert max(h["ssd_read"].max(), h["ssd_write"].max(), h["disk_read"].max()) <= top
