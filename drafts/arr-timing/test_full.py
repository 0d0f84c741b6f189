"""Array explorables: their data are the engine's (flashlab.array) or the stated formula,
static() builds, and moving any control changes what is plotted."""

from __future__ import annotations

import math

import numpy as np
import pytest

from flashlab.array import array_capacity
from flashlab.viz.array import build_array, stripe_tail, waterfall_columns
from test_viz_levels import _columns_equal

FACTORIES = {"build_array": build_array, "stripe_tail": stripe_tail}


@pytest.mark.parametrize("name", sorted(FACTORIES))
def test_static_builds_and_grid_points_differ(name):
    ex = FACTORIES[name]()
    assert ex.static().grid_size == int(np.prod([len(c.values) for c in ex.controls]))
    base = ex.compute(**ex.defaults())
    for c in ex.controls:
        other = next(v for v in c.values if v != c.default)
        moved = ex.compute(**dict(ex.defaults(), **{c.name: other}))
        assert any(not _columns_equal(base[k], moved[k]) for k in base), (name, c.name)


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


def test_stripe_tail_is_the_order_statistics_formulas():
    data = stripe_tail().compute(members=100, p_slow=0.01)
    assert data["now"]["p"][0] == pytest.approx(63.396765872677086)  # Dean & Barroso: 63%
    h10 = sum(1.0 / k for k in range(1, 11))
    assert data["curve"]["h"][9] == pytest.approx(h10) and math.isclose(h10, 2.9289682539682538)


def test_build_array_timing_is_the_simulated_array():
    from flashlab.array import ArrayConfig, array_drive, simulate_array
    from flashlab.viz.array import BUILD_REQUESTS, MIXED_LOAD

    data = build_array().compute(drives=8, drive_tb=3.84, raid=6, op=0.07, ratio=1.0)
    r = simulate_array(ArrayConfig(arch="ssd", drives=8, raid=6, drive=array_drive(0.07)), MIXED_LOAD,
                       requests=BUILD_REQUESTS, seed=0)
    assert data["latency"]["ms"][1] == pytest.approx(r.percentiles(1)["p99"] / 1e3)
    assert data["latency"]["ms"][3] == pytest.approx(r.percentiles(0)["p99"] / 1e3)
    assert f"{r.iops():,.0f} IOPS" in data["summary"]


def test_gc_coordination_histograms_and_timelines_are_the_runs():
    from flashlab.viz.array import GC_INTERVALS, gc_coordination, gc_point

    ex = gc_coordination()
    data = ex.compute(rate=4000, arch="ground-up")
    for arch in ("ssd", "harmonia", "ground-up"):
        r = gc_point(arch, 4000)
        reads = np.isfinite(r.latency_us) & (r.op == 1)
        assert data["hist"][arch.replace("-", "_")].sum() == pytest.approx(100.0)
        assert reads.sum() > 1000
    g = gc_point("ground-up", 4000)
    tl = data["timeline"]
    assert tl["busy"].sum() == pytest.approx(g.gc_busy(GC_INTERVALS).sum()) and tl["busy"].sum() > 0
    assert set(tl["y"]) == set(range(10)) and tl["x"].size == 10 * GC_INTERVALS
    mi = g.member_intervals(GC_INTERVALS, op=1)
    np.testing.assert_allclose(tl["p99"], mi["p99"].ravel() / 1e3)
    # the live callback changes the plotted data; the static grid holds every grid point
    other = ex.compute(rate=4000, arch="ssd")
    assert not np.allclose(other["timeline"]["busy"], tl["busy"])
    assert ex.static().grid_size == 6
    layout, targets = ex.figure(data)
    assert set(targets) == {"hist", "timeline", "summary"}


def test_disk_vs_flash_compares_the_same_workload():
    from flashlab.viz.array import disk_flash_point, disk_vs_flash

    ex = disk_vs_flash()
    data = ex.compute(qd=16, cache=False)
    disk, flash = disk_flash_point("disk", 16, False), disk_flash_point("ssd", 16, False)
    for r in (disk, flash):  # the same mix on both: 70% reads, all completed
        assert abs((r.op == 1).mean() - 0.7) < 0.05 and np.isfinite(r.latency_us).all()
    assert flash.iops() > 10 * disk.iops()
    assert f"{flash.iops() / disk.iops():,.0f}x" in data["summary"]
    cached = ex.compute(qd=16, cache=True)
    assert cached["hist"]["disk_write"].tolist() != data["hist"]["disk_write"].tolist()
    assert ex.static().grid_size == 6
