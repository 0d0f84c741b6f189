"""Explorables of the databases chapter: their data come from flashlab.db, every static grid
builds, different grid points plot different data. Cost: about 8 s (every grid point runs)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from flashlab.db import direct_path_scan, flushed_writes, oltp, redo_log, rwmix
from flashlab.viz import database as V
from flashlab.viz.ssd import log_histogram

FACTORIES = [V.benchmark_mix, V.scan_parallelism, V.redo_block_size, V.temp_tablespace, V.flush_page_size,
             V.smart_flash_logging, V.write_back_cache]


@pytest.mark.parametrize("factory", FACTORIES, ids=lambda f: f.__name__)
def test_static_builds_and_every_grid_point_differs(factory):
    ex = factory()
    st = ex.static()
    assert st.grid_size == int(np.prod([len(c.values) for c in ex.controls]))
    summaries = [ex.compute(**dict(zip((c.name for c in ex.controls), combo)))["summary"]
                 for combo in itertools.product(*(c.values for c in ex.controls))]
    assert len(set(summaries)) == len(summaries), "two settings give the same summary"


def test_explorables_plot_the_engines_numbers():
    bars = V.benchmark_mix().compute(rwmixread=70, write_kib=64)["bars"]
    mix = rwmix(V.db_config(), rwmixread=70, qd=V.MIX_QD, write_size=65536, requests=V.MIX_REQUESTS)
    assert bars["iops"][0] == pytest.approx(mix.read_iops / 1e3)
    scan = V.scan_parallelism().compute(multiblock=16)["scan"]
    assert scan["ms"][-1] == pytest.approx(direct_path_scan(V.db_config("mlc_mqsim", user_bytes=V.SCAN_DEVICE_BYTES), dop=16, multiblock=16).elapsed_us / 1e3)
    hist = V.redo_block_size().compute(sessions=4, redo_kib=4)["hist"]
    r = redo_log(V.db_config(user_bytes=V.REDO_DEVICE_BYTES), sessions=4, commits=V.REDO_COMMITS, redo_bytes=4096, redo_block=512)
    inside = np.mean((r.commit_us >= V.COMMIT_LO_US) & (r.commit_us < V.COMMIT_HI_US))
    assert hist["small"].sum() == pytest.approx(100.0) and inside > 0.9


def test_write_back_explorable_plots_the_model():
    data = V.write_back_cache().compute(modify=0.5, buffers=2000)
    wt, wb = oltp(modify=0.5, buffers=2000), oltp(modify=0.5, buffers=2000, write_back=True)
    assert data["bars"]["kps"] == pytest.approx([wt.accesses_per_s / 1e3, wb.accesses_per_s / 1e3])
    assert data["wt"]["dirty"] == pytest.approx(100 * wt.states["dirty"] / 2000)
    assert data["bars"]["wait"][0] > data["bars"]["wait"][1]


def test_flush_and_smart_flash_logging_explorables_plot_the_models():
    bars = V.flush_page_size().compute(nand_kib=16, plp="none", flush_every=1)["bars"]
    r = flushed_writes(V.flush_config(16, False), flush_every=1, writes=V.FLUSH_WRITES)
    assert bars["us"] == pytest.approx([r.write_latency["p50"], r.commit_latency["p50"], r.nand_latency["p50"]])
    hist = V.smart_flash_logging().compute(sessions=8, cache_mib=2)["hist"]
    on = redo_log(V.sfl_flash(), sessions=8, commits=V.SFL_COMMITS, redo_block=4096, think_us=V.SFL_THINK_US,
                  mirror=V.sfl_disk(2), disk_writes_per_s=V.SFL_DATA_WRITES)
    assert V.sfl_disk(2).write_cache_bytes == 2 * 2**20 and V.sfl_flash().power_loss_protection
    assert hist["on"] == pytest.approx(log_histogram(on.commit_us, V.SFL_LO_US, V.SFL_HI_US)[0])
    tail = V.smart_flash_logging().compute(sessions=8, cache_mib=2)["tail"]
    for t, share in zip(tail["t"], tail["on"]):  # share of commits slower than t, floored
        assert share == pytest.approx(max(100 * np.mean(on.commit_us > 1e3 * t), V.SFL_TAIL_FLOOR))


def test_flush_power_loss_protection_is_a_named_two_value_control():
    """The reader picks "none" or "capacitors" by name (it was a 0/1 slider); the static slider shows
    the names, each grid point runs the drive it names, and a value outside the two is refused."""
    ex = V.flush_page_size()
    (plp,) = [c for c in ex.controls if c.name == "plp"]
    assert plp.values == ("none", "capacitors") and plp.default == "none" and "0" not in plp.label
    (slider,) = [s for s in ex.static().sliders if s.name == "control-plp"]
    assert slider.format.args["shown"] == ["none", "capacitors"] and slider.end == 1
    for value, protected in (("none", False), ("capacitors", True)):
        d = ex.compute(**dict(ex.defaults(), plp=value))
        r = flushed_writes(V.flush_config(16, protected), flush_every=1, writes=V.FLUSH_WRITES)
        assert d["bars"]["us"][1] == pytest.approx(r.commit_latency["p50"])
        assert ("capacitors: a flush is a no-op" in d["summary"]) == protected
    with pytest.raises(ValueError, match="plp"):
        ex.compute(**dict(ex.defaults(), plp=1))


@pytest.mark.parametrize("factory", [V.redo_block_size, V.smart_flash_logging, V.flush_page_size],
                         ids=lambda f: f.__name__)
def test_live_dashboards_show_what_the_static_grid_embeds(factory):
    """One explorable, two engines: move every live slider to a grid value that is not its
    default; the live figure holds the same data as the static grid's point for those settings
    (both are one in-loop engine run per point, seeded)."""
    from test_viz_levels import _assert_live_shows_grid

    ex = factory()
    st = ex.static()
    (cb,) = {cb for s in st.sliders for cb in s.js_property_callbacks["change:value"]}
    V.redo_point.cache_clear()
    V.sfl_point.cache_clear()
    V.flush_point.cache_clear()  # the live run computes afresh
    _assert_live_shows_grid(ex, cb.args["grid"], factory.__name__)


@pytest.mark.parametrize("factory, columns", [(V.redo_block_size, ("small", "big")), (V.smart_flash_logging, ("off", "on"))],
                         ids=["redo_block_size", "smart_flash_logging"])
def test_commit_histograms_y_axis_fits_the_grid(factory, columns):
    """The histogram's y axis ends just above the tallest bin over the whole grid, not at 100%."""
    ex = factory()
    layout, _ = ex.figure(ex.compute(**ex.defaults()))
    top = layout.children[1].y_range.end
    names = [c.name for c in ex.controls]
    tallest = max(float(np.max(ex.compute(**dict(zip(names, combo)))["hist"][col]))
                  for combo in itertools.product(*(c.values for c in ex.controls)) for col in columns)
    assert tallest <= top < min(100.0, tallest + 10)
