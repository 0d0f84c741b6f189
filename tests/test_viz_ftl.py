"""Explorables of the FTL and garbage-collection chapters: their data agree with the engine,
simulated points sit on the published curves, and every control changes what is plotted."""

from __future__ import annotations

import json

import numpy as np
import pytest
from bokeh.embed import json_item
from bokeh.plotting import figure as figure_model

from flashlab.device import Geometry
from flashlab.ftl import PAGE_FREE, PAGE_STALE, PAGE_VALID, Ftl, Stepper, wa_fifo, wa_greedy
from flashlab.viz import ftl as F


# ----------------------------------------------------------------------------- stepper frames
@pytest.mark.parametrize("workload", list(F.STEPPER_WORKLOADS))
def test_stepper_frames_match_a_stepper_and_mark_the_host_write(workload):
    frames = F.stepper_frames(workload, 80, seed=3)
    st = Stepper(F.STEPPER_GEOMETRY, F.STEPPER_CONFIG, F.STEPPER_WORKLOADS[workload], seed=3)
    ppb = st.ftl.geometry.pages_per_block
    for k, fr in enumerate(frames):
        snap = st.step(0) if k == 0 else st.step(1)
        assert fr.step == k and (k == 0 or fr.lba == st.last_lba)
        np.testing.assert_array_equal(fr.snapshot.page_state, snap.page_state)
        np.testing.assert_array_equal(fr.snapshot.page_lba, snap.page_lba)
        d = F.frame_data(frames, k, ppb)
        pages = d["pages"]
        np.testing.assert_array_equal(pages["state"], snap.page_state)
        assert d["history"]["host"][-1] == snap.counters["host_writes"] == k
        assert d["history"]["programs"][-1] == k + snap.counters["gc_copies"]
        if k:
            # exactly one page is the host's write, and it holds the LBA written
            (i,) = np.flatnonzero(pages["mark"] == 1)
            assert snap.page_state[i] == PAGE_VALID and snap.page_lba[i] == fr.lba
            assert f"LBA {fr.lba}" in d["summary"]
            # GC copies this step = pages marked as copies
            copies = snap.counters["gc_copies"] - frames[k - 1].snapshot.counters["gc_copies"]
            assert np.count_nonzero(pages["mark"] == 2) == copies
        labels = pages["label"]
        assert all(lab == "" for lab in labels[snap.page_state == PAGE_FREE])
        assert all(lab == str(x) for lab, x in zip(labels[snap.page_state != PAGE_FREE],
                                                   snap.page_lba[snap.page_state != PAGE_FREE]))


def test_sequential_overwrites_need_no_copies_on_the_tiny_device():
    frames = F.stepper_frames("sequential", 120)
    last = frames[-1].snapshot.counters
    assert last["erases"] > 0 and last["gc_copies"] == 0


# ----------------------------------------------------------------------------- filling without GC
def test_fill_run_page_counts_agree_with_a_snapshot():
    g = Geometry(blocks_per_plane=64, pages_per_block=16, op=0.04)
    r = F.fill_run(0.75, 2.0, g, seed=1, samples=40)
    T = g.physical_pages
    np.testing.assert_array_equal(r.valid + r.stale + r.free, T)
    assert np.all(r.free >= 0) and np.all(r.stale >= 0)
    # replay the same host writes on a fresh FTL and count the pages
    ftl = Ftl(g, F.FILL_CONFIG, 1)
    ftl.write(F.fill_lbas(round(0.75 * T), 2 * T, 1))
    snap = ftl.snapshot()
    assert r.host_writes[-1] == 2 * T
    assert r.valid[-1] == np.count_nonzero(snap.page_state == PAGE_VALID) == round(0.75 * T)
    assert r.stale[-1] == np.count_nonzero(snap.page_state == PAGE_STALE)
    assert r.free[-1] == np.count_nonzero(snap.page_state == PAGE_FREE)
    # until its first erase the FTL is a device without GC: programs = host writes, nothing freed
    assert T - g.pages_per_block <= r.first_erase <= T
    before = r.host_writes <= r.first_erase
    np.testing.assert_array_equal(r.free[before], T - r.host_writes[before])
    assert r.wa_last_fill > 1.0


# ----------------------------------------------------------------------------- WA against theory
@pytest.mark.parametrize("op", [0.1, 0.28])
def test_simulated_greedy_and_fifo_sit_on_desnoyers(op):
    g = Geometry(blocks_per_plane=4096, pages_per_block=32, op=op)
    o = F.op_of(g)
    assert F.wa_point(op, "greedy").wa_steady == pytest.approx(float(wa_greedy(o, 32)), rel=0.03)
    assert F.wa_point(op, "fifo").wa_steady == pytest.approx(float(wa_fifo(o)), rel=0.03)
    assert F.wa_point(op, "random").wa_steady == pytest.approx((1 + o) / o, rel=0.05)


def test_wa_axis_holds_every_curve_at_every_op_the_controls_offer():
    # The markers sit on the curves (above); the curves, random's (1 + op) / op the highest and
    # greedy's the lowest, must stay inside the fixed log axis at every static and live op.
    ex = F.wa_vs_op(blocks=128, pages_per_block=16)
    ops = np.array(sorted(set(ex.controls[0].values) | set(ex.controls[0].live_values)))
    lo, hi = F.WA_Y_RANGE
    assert (1 + ops.min()) / ops.min() * 1.05 < hi
    assert lo < float(wa_greedy(ops.max(), 32)) / 1.05


def test_skew_bars_fit_the_axis_at_the_most_skewed_live_setting():
    # FIFO suffers most from skew; the live explorable runs the chapter's 512-block device.
    ex = F.hot_cold_skew(blocks=512)
    worst = max(ex.controls[0].live_values, key=lambda s: int(s.split("/")[0]))
    for streams in F.STREAMS.values():
        wa = ex.compute(worst, streams)["bars"]["wa"]
        assert max(wa) * 1.1 < F.SKEW_WA_MAX, streams


# ----------------------------------------------------------------------------- every explorable
SMALL = {
    "step_a_device": lambda: F.step_a_device(n_steps=40, live_steps=60),
    "fill_without_gc": lambda: F.fill_without_gc(geometry=Geometry(blocks_per_plane=64, pages_per_block=16,
                                                                   op=0.04)),
    "wa_vs_op": lambda: F.wa_vs_op(blocks=128, pages_per_block=16),
    "hot_cold_skew": lambda: F.hot_cold_skew(blocks=128, pages_per_block=16, fills=3.0),
    "wear_levelling": lambda: F.wear_levelling(blocks=64, pages_per_block=16, fills=6.0),
    "trim_churn": lambda: F.trim_churn(blocks=128, pages_per_block=16),
}


def _data_key(point) -> str:
    return json.dumps({k: (v if isinstance(v, str) else {c: np.asarray(a).tolist() for c, a in v.items()})
                       for k, v in point.items()}, sort_keys=True)


@pytest.mark.parametrize("name", list(SMALL))
def test_static_builds_and_each_control_changes_the_data(name):
    ex = SMALL[name]()
    st = ex.static()
    json.dumps(json_item(st.layout))  # serializes, as the book embeds it
    (cb,) = {cb for s in st.sliders for cb in s.js_property_callbacks["change:value"]}
    grid, sizes = cb.args["grid"], cb.args["sizes"]
    assert len(grid) == st.grid_size == int(np.prod(sizes))
    idx = [c.values.index(c.default) for c in ex.controls]

    def flat(ix):
        k = 0
        for i, n in zip(ix, sizes):
            k = k * n + i
        return k

    base = _data_key(grid[flat(idx)])
    for j, c in enumerate(ex.controls):
        moved = list(idx)
        moved[j] = idx[j] - 1 if idx[j] == len(c.values) - 1 else idx[j] + 1
        assert _data_key(grid[flat(moved)]) != base, f"{name}: moving {c.name} changed nothing"


def test_stepper_static_has_play_and_step_buttons():
    st = SMALL["step_a_device"]().static()
    names = {m.name for m in st.layout.references() if getattr(m, "name", None)}
    assert {"play", "step-back", "step-forward"} <= names


def test_stepper_live_play_drives_the_step():
    ex = SMALL["step_a_device"]()
    box = ex.live()
    play, slider = box.children[0], box.children[1]
    assert play.max == 60 and play.value == slider.index == 40
    play.value = 50  # a live-only step (beyond the 40 precomputed for the book)
    assert slider.value == 50
    from bokeh.models import Div
    divs = [m for m in box.children[-1]._model.references() if isinstance(m, Div)]
    assert any("Write 50:" in d.text for d in divs)


def test_wa_vs_op_labels_the_over_provisioning_where_the_markers_sit():
    # A log axis from 0.05 to 1.2 labels only 0.5 and 1 by itself; the markers sit at 0.07-0.4.
    ex = SMALL["wa_vs_op"]()
    layout, _ = ex.figure(ex.compute(**ex.defaults()))
    (fig,) = [m for m in layout.select({"type": figure_model}) if m.xaxis[0].axis_label.startswith("over-prov")]
    assert list(fig.xaxis[0].ticker.ticks) == list(F.WA_OP_TICKS) == [0.05, 0.07, 0.1, 0.15, 0.2, 0.3, 0.5, 1.0]
    assert min(F.WA_OPS) >= min(F.WA_OP_TICKS) and max(F.WA_OPS) <= max(F.WA_OP_TICKS)


def test_trim_axis_holds_every_setting_and_the_pages_add_up():
    ex = F.trim_churn()
    layout, _ = ex.figure(ex.compute(**ex.defaults()))
    (fig,) = [m for m in layout.select({"type": figure_model}) if m.xaxis[0].axis_label.startswith("live")]
    for share in ex.controls[0].live_values:
        for fs in F.TRIM_SETTINGS:
            d = ex.compute(share, fs)
            assert fig.y_range.start < d["here"]["wa"][0] < fig.y_range.end, (share, fs)
            assert sum(d["pages"]["share"]) == pytest.approx(100.0)
    # told nothing, the drive holds every LBA: the middle bar is what the file system deleted
    untold = ex.compute(0.5, F.TRIM_SETTINGS[1])["pages"]["share"]
    told = ex.compute(0.5, F.TRIM_SETTINGS[0])["pages"]["share"]
    assert told[1] == 0 and untold[1] > 20 and untold[0] == told[0]


@pytest.mark.parametrize("call, match", [
    (lambda: F.frame_data(F.stepper_frames("uniform random", 10), -1, 10), r"k must be in \[0, 10\]; got -1"),
    (lambda: F.frame_data(F.stepper_frames("uniform random", 10), 11, 10), r"k must be in \[0, 10\]; got 11"),
    (lambda: F.stepper_frames("uniform random", -5), r"n_steps must be in \[0, 100000\]; got -5"),
    (lambda: F.stepper_frames("nonsense", 10), "workload must be one of 'uniform random'"),
    (lambda: F.fill_run(float("nan")), "data_fraction must be a finite number"),
    (lambda: F.fill_lbas(-3, 5), r"data must be in \[1, "),
    (lambda: F.op_of("x"), "geometry must be a Geometry"),
    (lambda: F.trim_point(0.0, True), r"live_share must be in \(0, 1\]"),
    (lambda: F.trim_point(0.5, "no"), "trim must be True or False"),
])
def test_helpers_refuse_what_they_would_misread(call, match):
    """frame_data(k=-1) showed the last frame as if it were step -1 (Python's negative index) and a
    negative n_steps gave one frame without a word; the others raised IndexError, KeyError, NumPy's
    'high <= 0' or AttributeError instead of naming the parameter."""
    with pytest.raises(ValueError, match=match):
        call()


def test_where_the_writes_go_states_each_bar_and_refuses_bad_rows():
    st = F.where_the_writes_go({"drive": (2.5, 0.0), "ZNS": (0.0, 2.25)})
    json.dumps(json_item(st.shown))
    text = st.access.region_html
    assert "drive: 3.50 flash writes per application write (2.50 copied by the drive, 0.00 by the host)" in text
    assert "ZNS: 3.25 flash writes per application write (0.00 copied by the drive, 2.25 by the host)" in text
    for bad, match in (({}, "rows must be a non-empty dict"), ({"x": (-1.0, 0.0)}, r"rows\['x'\]")):
        with pytest.raises(ValueError, match=match):
            F.where_the_writes_go(bad)
