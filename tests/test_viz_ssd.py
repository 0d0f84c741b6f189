"""Explorables of the write-cliff chapter: their data come from the engine (``flashlab.ssd``),
every static grid builds, and different grid points plot different data."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from flashlab.ssd import SsdConfig, nand_timeline, write_saturation
from flashlab.viz import ssd as S
from viz_grid import grid_data, grid_max_share


FACTORIES = [S.preconditioning_curve, S.tail_latency, S.read_behind, S.fast_pages, S.read_tails, S.write_cache]


@pytest.mark.parametrize("factory", FACTORIES, ids=lambda f: f.__name__)
def test_static_builds_and_every_grid_point_differs(factory):
    ex = factory()
    st = ex.static()
    sizes = [len(c.values) for c in ex.controls]
    assert st.grid_size == int(np.prod(sizes))
    points = [ex.compute(**dict(zip((c.name for c in ex.controls), combo)))
              for combo in itertools.product(*(c.values for c in ex.controls))]
    summaries = [p["summary"] for p in points]
    assert len(set(summaries)) == len(summaries), "two settings give the same summary"
    for p in points:
        assert p["summary"].strip()


def test_preconditioning_curve_is_the_engines_pts_run():
    ex = S.preconditioning_curve()
    d = ex.compute(op=0.2, qd=32)
    r = write_saturation(S.small_config(0.2), qd=32, fills=4.0, max_fills=8.0, seed=0)
    np.testing.assert_allclose(d["rounds"]["iops"], r.round_iops)
    np.testing.assert_allclose(d["rounds"]["p99"], r.round_p99_us / 1e3)
    np.testing.assert_allclose(d["rounds"]["fills"], r.round_fills)
    assert d["fob"]["y"][0] == pytest.approx(r.fob_iops)
    # the cliff marker sits at the engine's cliff round; the steady band spans its window
    assert r.cliff_round >= 0 and d["cliff"]["y"] == [pytest.approx(r.round_iops[r.cliff_round])]
    assert r.cliff_fills < d["cliff"]["x"][0]  # the readout's "after" is the round's start, the marker its end
    assert r.steady.reached and d["steady"]["top"] == [pytest.approx(r.steady.mean)]
    assert d["steady"]["right"] == [pytest.approx(r.round_fills[r.steady.end])]


@pytest.mark.parametrize("op", S.PTS_OPS)
def test_cliff_marker_sits_on_the_curve_point_of_the_cliff_round(op):
    """The curve plots each round at its end; the marker is that round's point, not its start."""
    d = S.preconditioning_curve().compute(op=op, qd=32)
    r = S.pts_point(op, 32)
    assert r.cliff_round >= 0
    assert d["cliff"]["x"] == [d["rounds"]["fills"][r.cliff_round]]
    assert d["cliff"]["y"] == [d["rounds"]["iops"][r.cliff_round]]


def test_slow_host_sees_no_cliff_and_more_spare_raises_the_steady_state():
    assert S.pts_point(0.2, 1).cliff_round == -1
    assert S.pts_point(0.4, 32).steady_iops > 1.5 * S.pts_point(0.2, 32).steady_iops
    for op in S.PTS_OPS:
        assert S.pts_point(op, 32).fob_iops == pytest.approx(10_000, rel=0.05)


def test_tail_latency_histograms_count_the_first_and_last_drive_write():
    ex = S.tail_latency()
    d = ex.compute(gc="foreground", rate=2000)
    r = S.rate_point("foreground", 2000)
    first, last = S.first_last_fill(r)
    assert first.sum() == last.sum() == r.user_pages
    assert sum(d["hist"]["before"]) == pytest.approx(100.0, abs=1e-6)
    assert sum(d["hist"]["after"]) == pytest.approx(100.0, abs=1e-6)
    assert d["pcts"]["x"][1] == pytest.approx(np.percentile(r.latency_us[last], 99) / 1e3)
    # the log bins are contiguous and cover the range
    left, right = np.asarray(d["hist"]["left"]), np.asarray(d["hist"]["right"])
    np.testing.assert_allclose(left[1:], right[:-1])
    # background GC keeps up at 2000 writes/s; foreground-only GC grows a tail
    bg = S.rate_point("background", 2000)
    assert np.percentile(bg.latency_us[last], 99) < 10e3 < np.percentile(r.latency_us[last], 99)


def test_tail_latency_p99_markers_match_their_histograms_and_the_axis_fits_the_grid():
    ex = S.tail_latency()
    layout, _ = ex.figure(ex.compute(**ex.defaults()))
    p1 = layout.children[1]
    glyphs = {item.label.value: item.renderers[0].glyph for item in p1.legend[0].items}
    assert glyphs["p99, fresh drive"].line_color == glyphs["first drive write (fresh)"].line_color == S.BEFORE
    assert glyphs["p99, GC running"].line_color == glyphs["last drive write (GC running)"].line_color == S.AFTER
    top = p1.y_range.end
    names = [c.name for c in ex.controls]
    shares = [max(h["before"].max(), h["after"].max()) for h in
              (ex.compute(**dict(zip(names, combo)))["hist"] for combo in itertools.product(*(c.values for c in ex.controls)))]
    assert max(shares) <= top < 100 and top == grid_max_share(ex, ("before", "after"))


def test_read_tails_axis_fits_the_grid():
    ex = S.read_tails()
    layout, _ = ex.figure(ex.compute(**ex.defaults()))
    assert layout.children[1].y_range.end == S.READ_SHARE_MAX == grid_max_share(ex, ("off", "on"))


def test_pts_free_axis_holds_a_purged_drive_at_every_op_the_controls_offer():
    # Free superblocks peak on the purged drive: all of them, most at the largest op.
    ex = S.preconditioning_curve()
    op = ex.controls[0]
    most = S.small_config(max(op.values + op.live_values)).ftl_geometry.blocks
    assert most <= S.PTS_FREE_MAX < 1.1 * most


def test_tail_latency_over_time_range_holds_the_settings_that_keep_up_and_notes_the_others():
    """The fixed y range holds every grid setting at which GC keeps up, with little room to spare;
    at the others the lines leave the top and a note gives their peaks. The default's lines fill
    over a third of the (log) height: a range up to the runaway queues' 1.7 s left them a quarter."""
    ex = S.tail_latency()
    layout, targets = ex.figure(ex.compute(**ex.defaults()))
    p2 = layout.children[2]
    lo, hi = S.TAIL_TIME_RANGE_MS
    assert (p2.y_range.start, p2.y_range.end) == (lo, hi) and "offscale" in targets
    keeps_up, runs_away, lowest = [], [], []
    for d in grid_data(ex):
        t = d["time"]
        assert np.isfinite(np.r_[t["p50"], t["p99"]]).all()
        lowest.append(min(t["p50"].min(), t["p99"].min()))
        top = max(t["p50"].max(), t["p99"].max())
        if "GC keeps up" in d["summary"]:
            keeps_up.append(top)
            assert d["offscale"]["text"] == []
        else:
            runs_away.append(top)
            (note,) = d["offscale"]["text"]
            assert f"p99 at {t['p99'].max():,.0f} ms" in note
            assert t["p99"][-1] > hi and t["p50"][-1] > hi  # the corner the note takes is empty
    assert keeps_up and runs_away
    assert lo <= min(lowest) < 1.5 * lo
    assert max(keeps_up) <= hi < 2 * max(keeps_up) < min(runs_away)
    default = ex.compute(**ex.defaults())["time"]
    lines = np.r_[default["p50"], default["p99"]]
    assert np.log(lines.max() / lines.min()) > np.log(hi / lo) / 3


@pytest.mark.parametrize("operation", list(S.OPERATIONS))
@pytest.mark.parametrize("suspend", [False, True])
def test_gantt_matches_nand_timeline(operation, suspend):
    kind, ptype = S.OPERATIONS[operation]
    tl = nand_timeline([(0.0, kind, 0, ptype), (50.0, "read", 0, 0)], SsdConfig(gc="off", suspend=suspend))
    g = S.gantt_segments(operation, suspend, 50)
    plane = [(l, r, w) for row, l, r, w in zip(g["row"], g["left"], g["right"], g["what"]) if row == "plane 0"]
    read = [(l, r, w) for row, l, r, w in zip(g["row"], g["left"], g["right"], g["what"]) if row == "host read"]
    # the plane's bars never overlap and end when the operation ends
    for a, b in zip(plane, plane[1:]):
        assert a[1] <= b[0] + 1e-9
    assert max(r for _, r, _ in plane) == pytest.approx(max(tl["done_us"]))
    # the read's bars run from its arrival to its completion
    assert read[0][0] == pytest.approx(50.0) and read[-1][1] == pytest.approx(tl["done_us"][1])
    busy = sum(r - l for l, r, w in plane if w == kind)
    op_us = S.SsdConfig().timing.t_erase_us if kind == "erase" else S.SsdConfig().timing.t_prog_us[ptype]
    assert busy >= op_us
    if suspend:
        assert tl["suspensions"] == 1 and tl["latency_us"][1] < 100
    else:
        assert tl["latency_us"][1] > 800


def test_read_behind_erase_is_about_fifty_times_an_idle_read():
    d = S.read_behind().compute(operation="erase", suspend="off", arrival=50)
    bars = dict(zip(d["bars"]["name"], d["bars"]["latency"]))
    ratio = bars["erase, suspend off"] / bars["idle plane"]
    assert 45 < ratio < 62
    # with suspension the read waits only for the erase to reach its suspend point
    latency = S.read_behind_point("erase", True, 50)[2].suspend_latency_us
    assert latency > 0
    assert bars["erase, suspend on"] == pytest.approx(bars["idle plane"] + latency)


def test_steering_puts_more_host_writes_on_fast_pages():
    off, on = S.steering_point(False, 1000), S.steering_point(True, 1000)
    assert S.fast_share(on) > S.fast_share(off) + 0.15
    d = S.fast_pages().compute(steering="on", rate=1000)
    assert sum(d["hist"]["this"]) == pytest.approx(100.0, abs=1e-6)


def test_fast_pages_axis_shows_every_bin():
    # the last bin holds every longer write: the x axis must reach it, or those writes vanish
    ex = S.fast_pages()
    data = ex.compute(**ex.defaults())
    layout, _ = ex.figure(data)
    p = next(c for c in layout.children if hasattr(c, "x_range"))
    assert p.x_range.end == max(data["hist"]["right"]) == S.FAST_HIST_END_US / 1e3


def test_read_tails_are_the_reads_of_the_last_drive_write_and_suspension_cuts_them():
    d = S.read_tails().compute(rate=1000)
    assert sum(d["hist"]["off"]) == pytest.approx(100.0, abs=1e-6)
    assert sum(d["hist"]["on"]) == pytest.approx(100.0, abs=1e-6)
    r = S.mixed_point(1000, False)
    _, last = S.first_last_fill(r)
    assert ((r.op == 0) & last).sum() == r.user_pages  # one drive write of host writes
    assert (r.phase == 0).sum() == r.user_pages  # after a sequential fill: every read hits written data
    lat = {s: S.read_latency(S.mixed_point(1000, s)) for s in (False, True)}
    assert lat[False].size == lat[True].size > 0.5 * r.user_pages  # two reads per write on average
    idle = nand_timeline([(0.0, "read", 0, 0)], S.small_config(0.2, gc="off"))["latency_us"][0]
    assert lat[True].min() >= idle - 1e-9
    # without suspension reads wait behind programs and GC erases; with it the tail is gone
    assert np.percentile(lat[False], 99) > 1000.0 > 5 * np.percentile(lat[True], 99)


def test_write_cache_histograms_put_every_write_at_the_caches_latency_below_the_sustained_rate():
    """At 2,000 writes/s the 4 MiB cache acknowledges every write in 10 us (one log bin holds
    100 %); without a cache the same runs are the tail-latency explorable's background runs."""
    d = S.write_cache().compute(cache=4, rate=2000)
    edges = S.log_bins(S.CACHE_LO_US, S.HIST_HI_US)
    ack = S.cache_point(4, 2000).config.cache_latency_us
    k = int(np.searchsorted(edges, ack, side="right")) - 1
    assert d["hist"]["before"][k] == pytest.approx(100.0) and d["hist"]["after"][k] == pytest.approx(100.0)
    np.testing.assert_array_equal(S.cache_point(0, 2000).done_us, S.rate_point("background", 2000).done_us)


@pytest.mark.parametrize("args, match", [
    ((10.0, 1.0), r"hi_us must be > lo_us; got hi_us=1.0, lo_us=10.0"),
    ((0.0, 10.0), r"lo_us must be in"),
    ((1.0, float("inf")), r"hi_us must be a finite"),
    ((1.0, 10.0, 0), r"bins_per_decade must be in \[1, 1000\]"),
])
def test_log_bins_are_checked_like_the_engines_histogram(args, match):
    """log_bins repeated IoResult.histogram's edges without its checks: NumPy's 'Number of
    samples, -9' or 'math domain error', or a 2 GiB array for bins_per_decade=10**6."""
    with pytest.raises(ValueError, match=match):
        S.log_bins(*args)
    assert np.array_equal(S.log_bins(1.0, 1e4, 5), np.logspace(0, 4, 21))
