"""Explorables for the flash translation layer and garbage collection chapters.

* :func:`step_a_device`: a device of five blocks of ten pages, stepped one host write at a time
  (the :class:`~flashlab.ftl.Stepper`), with play and step buttons.
* :func:`fill_without_gc`: a device filled with random overwrites; where a device without
  garbage collection would turn read-only, and what GC costs afterwards.
* :func:`wa_vs_op`: over-provisioning x victim policy -> simulated write amplification on top
  of the analytic curves (Desnoyers 2012, Agarwal & Marrow 2010).
* :func:`hot_cold_skew`: workload skew x write streams -> write amplification of each policy.
* :func:`wear_levelling`: static wear-levelling threshold -> erase-count spread and the copies
  it costs.
* :func:`trim_churn`: live share of the user space x TRIM on or off -> write amplification of a
  churning file system, and where the raw pages are.
* :func:`where_the_writes_go`: flash writes per application write, split into the drive's GC
  copies and a zoned drive's host cleaner's copies (a static figure of given results).

Each function returns an :class:`~flashlab.viz.explorable.Explorable`; call ``.static()`` for
the HTML book or ``.live()`` in a kernel. Every number comes from the engine (``flashlab.ftl``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from bokeh.layouts import column, row
from bokeh.models import (Button, ColumnDataSource, CustomJS, Div, FactorRange, LinearColorMapper,
                          Range1d, Span)

from .._validate import check_bool, check_choice, check_instance, check_int, check_real
from ..device import Geometry
from ..ftl.stepper import TINY_CONFIG, TINY_GEOMETRY
from ..ftl import (PAGE_FREE, PAGE_STALE, PAGE_VALID, Ftl, FtlConfig, Snapshot, Stepper, simulate, wa_agarwal,
                   wa_fifo, wa_greedy)
from ..workload import FileChurn, Workload
from .explorable import Control, Explorable, StaticExplorable, accessible
from .style import (
    HIGHLIGHT, PALETTE, PROGRAMMED, REFERENCE, label_ticks, legend_below, new_figure, style_legend, summary_column,
    summary_html,
)

#: Page colours: free, valid, stale (indexed by the snapshot's page state).
PAGE_COLOURS = ("#eeeeee", PROGRAMMED, "#f4a3a3")
#: Colour of each victim policy across the chapter's figures.
POLICY_COLOURS = {"greedy": PALETTE[0], "fifo": PALETTE[1], "cost_benefit": PALETTE[2], "d_choices": PALETTE[4],
                  "random": PALETTE[7]}
POLICY_LABELS = {"greedy": "greedy", "fifo": "FIFO", "cost_benefit": "cost-benefit", "d_choices": "d-choices",
                 "random": "random"}


def _skew_workload(skew: str) -> Workload:
    """'80/20' -> 80% of writes go to the hottest 20% of the LBAs; '50/50' is uniform."""
    share, fraction = (int(s) / 100.0 for s in skew.split("/"))
    if abs(share - fraction) < 1e-9:
        return Workload()
    return Workload("hotcold", hot_fraction=fraction, hot_share=share)


def op_of(geometry: Geometry) -> float:
    """Over-provisioning from the page counts (:attr:`Geometry.effective_op`)."""
    return check_instance("geometry", geometry, Geometry).effective_op


# =============================================================================== stepping a device
#: The Stepper's device (five blocks of ten pages, 27 LBAs) and configuration (greedy, one
#: stream, GC when the last free block is taken): see :data:`flashlab.ftl.stepper.TINY_GEOMETRY`.
STEPPER_GEOMETRY = TINY_GEOMETRY
STEPPER_CONFIG = TINY_CONFIG
STEPPER_WORKLOADS = {
    "uniform random": Workload(),
    "80/20 hot/cold": Workload("hotcold", hot_fraction=0.2, hot_share=0.8),
    "sequential": Workload("sequential"),
}


@dataclass(frozen=True)
class Frame:
    """The device after host write number ``step`` (``lba``: the LBA it wrote, -1 at step 0)."""

    step: int
    lba: int
    snapshot: Snapshot


@lru_cache(maxsize=16)
def stepper_frames(workload: str = "uniform random", n_steps: int = 120, seed: int = 0) -> tuple[Frame, ...]:
    """Snapshots of the :data:`STEPPER_GEOMETRY` device after 0..``n_steps`` (at most 100000)
    host writes; ``workload`` is a key of :data:`STEPPER_WORKLOADS`."""
    workload = check_choice("workload", workload, tuple(STEPPER_WORKLOADS))
    check_int("n_steps", n_steps, 0, 100_000)
    st = Stepper(STEPPER_GEOMETRY, STEPPER_CONFIG, STEPPER_WORKLOADS[workload], seed)
    frames = [Frame(0, -1, st.step(0))]
    for _ in range(n_steps):
        snap = st.step(1)
        frames.append(Frame(st.steps, st.last_lba, snap))
    return tuple(frames)


def frame_data(frames: tuple[Frame, ...], k: int, pages_per_block: int) -> dict:
    """Plot data for frame ``k``: every page (state, LBA, what happened to it in this step), the
    blocks, the running counters and a sentence on what the step did."""
    check_int("k", k, 0, len(frames) - 1)  # -1 would show the last frame as step -1
    cur = frames[k].snapshot
    prev = frames[k - 1].snapshot if k > 0 else cur
    nb = cur.block_state.size
    ppb = pages_per_block
    block_of = np.repeat(np.arange(nb), ppb)
    erased_now = cur.block_erases > prev.block_erases
    state = cur.page_state.astype(np.int32)
    programmed = (state != PAGE_FREE) & ((prev.page_state == PAGE_FREE) | erased_now[block_of])
    if k == 0:
        programmed[:] = False
    lba = frames[k].lba
    host = programmed & (state == PAGE_VALID) & (cur.page_lba == lba)
    copied = programmed & ~host
    label = np.where(state == PAGE_FREE, "", cur.page_lba.astype(str))
    # mark: 0 untouched in this step, 1 written by the host, 2 written by a GC copy
    mark = np.where(host, 1, np.where(copied, 2, 0))
    pages = {"x": np.tile(np.arange(ppb), nb), "y": block_of, "state": state, "label": label, "mark": mark,
             "line_width": np.where(mark > 0, 3.0, 1.0)}
    front = set(int(f) for f in cur.frontiers if f >= 0)
    notes = []
    for b in range(nb):
        tag = " (erased now)" if erased_now[b] else (" \u2190 writing" if b in front else "")
        n = int(cur.block_erases[b])
        notes.append(f"{n} erase{'' if n == 1 else 's'}{tag}")
    blocks = {"x": np.full(nb, ppb - 0.35), "y": np.arange(nb), "note": np.array(notes)}
    c = [f.snapshot.counters for f in frames[:k + 1]]
    host_w = np.array([x["host_writes"] for x in c])
    programs = host_w + np.array([x["gc_copies"] + x["wl_copies"] + x["refresh_copies"] for x in c])
    history = {"step": np.arange(k + 1), "host": host_w, "programs": programs,
               "erases": np.array([x["erases"] for x in c])}
    cc = cur.counters
    flash = programs[-1]
    wa = f"{flash / cc['host_writes']:.2f}" if cc["host_writes"] else "&ndash;"
    if k == 0:
        what = "An empty device: every page is free. Press play or move the slider."
    else:
        i = int(np.flatnonzero(host)[0]) if host.any() else -1
        where = f"block {i // ppb}, page {i % ppb}" if i >= 0 else "the open block"
        old = np.flatnonzero((prev.page_state == PAGE_VALID) & (prev.page_lba == lba))
        what = f"Write {k}: the host wrote <b>LBA {lba}</b> to {where}."
        if old.size and cur.page_state[old[0]] == PAGE_STALE:
            what += f" Its old copy (block {old[0] // ppb}, page {old[0] % ppb}) is now stale."
        n_erased = int(erased_now.sum())
        n_copied = cc["gc_copies"] - prev.counters["gc_copies"]
        if n_erased:
            victims = ", ".join(str(b) for b in np.flatnonzero(erased_now))
            what += (f" <b>Garbage collection</b> ran first: it copied {n_copied} valid page(s) out of block "
                     f"{victims} (the block with the fewest valid pages) and erased it.")
    totals = (f"host writes {cc['host_writes']} &middot; GC copies {cc['gc_copies']} &middot; flash programs "
              f"{flash} &middot; erases {cc['erases']} &middot; <b>write amplification so far {wa}</b>")
    return {"pages": pages, "blocks": blocks, "history": history, "summary": summary_html(f"{what}<br>{totals}")}


_PLAY_JS = """
const key = "flashlab_play_" + button.id;
const stop = () => { clearInterval(window[key]); window[key] = null; button.label = "\u25b6 Play"; };
if (window[key]) { stop(); return; }
if (slider.value >= slider.end) { slider.value = slider.start; }
button.label = "\u275a\u275a Pause";
window[key] = setInterval(() => {
  if (slider.value >= slider.end) { stop(); return; }
  slider.value = slider.value + 1;
}, interval);
"""

_STEP_JS = "slider.value = Math.min(slider.end, Math.max(slider.start, slider.value + delta));"


class _SteppedExplorable(Explorable):
    """An explorable whose first control is a step number, with play and step buttons.

    Static: bokeh buttons whose CustomJS move the step slider (no kernel). Live: an ipywidgets
    ``Play`` linked to the step slider, so the kernel computes each frame as it plays.
    """

    interval_ms = 400

    def static(self) -> StaticExplorable:
        st = super().static()
        slider = st.sliders[0]
        play = Button(label="\u25b6 Play", width=110, name="play")
        back = Button(label="\u25c0 step", width=80, name="step-back")
        fwd = Button(label="step \u25b6", width=80, name="step-forward")
        play.js_on_click(CustomJS(args=dict(slider=slider, button=play, interval=self.interval_ms), code=_PLAY_JS))
        back.js_on_click(CustomJS(args=dict(slider=slider, delta=-1), code=_STEP_JS))
        fwd.js_on_click(CustomJS(args=dict(slider=slider, delta=1), code=_STEP_JS))
        layout = column(row(back, play, fwd), st.layout, sizing_mode="stretch_width")
        return StaticExplorable(layout, st.grid_size, st.sliders, st.access)

    def live(self):
        import ipywidgets as widgets

        box = super().live()
        slider = box.children[0]
        last = slider.options[-1][1]
        for m in box.children[-1]._model.references():  # the time axis spans the live steps
            if getattr(m, "name", None) == "history-steps":
                m.end = last
        play = widgets.Play(value=slider.index, min=0, max=len(slider.options) - 1, step=1,
                            interval=self.interval_ms, description="play")
        widgets.link((play, "value"), (slider, "index"))
        return widgets.VBox([play, *box.children])


def step_a_device(n_steps: int = 120, live_steps: int = 400, seed: int = 0) -> Explorable:
    """The :data:`STEPPER_GEOMETRY` device (5 blocks x 10 pages, 27 LBAs, greedy GC) write by write.

    Controls: the step (host writes so far; ``n_steps`` precomputed for the book, ``live_steps``
    live) and the host workload. Shows every page (free, valid or stale, with its LBA), the
    erase count of each block, and host writes against flash programs so far.
    """
    ppb = STEPPER_GEOMETRY.pages_per_block

    def compute(step, workload):
        frames = stepper_frames(workload, max(n_steps, live_steps) if step > n_steps else n_steps, seed)
        return frame_data(frames, step, ppb)

    def figure(data):
        pages = ColumnDataSource(data["pages"])
        blocks = ColumnDataSource(data["blocks"])
        history = ColumnDataSource(data["history"])
        nb = len(data["blocks"]["y"])
        key = " &nbsp; ".join(
            f'<span style="display:inline-block;width:14px;height:14px;background:{c};border:1px solid #999;'
            f'vertical-align:middle"></span> {n}' for c, n in zip(PAGE_COLOURS, ("free", "valid", "stale")))
        key += (' &nbsp; <span style="border:3px solid black;padding:0 4px">host write</span> &nbsp; '
                f'<span style="border:3px solid {HIGHLIGHT};padding:0 4px">GC copy</span>')
        legend = Div(text=f'<div style="font-size:13px">{key}<br>Numbers are LBAs (on a stale page: the LBA it '
                          f'used to hold).</div>', sizing_mode="stretch_width")
        p1 = new_figure("Pages of the device", "page in block", "block", height=60 + 44 * nb,
                        x_range=Range1d(-0.6, ppb + 2.6), y_range=Range1d(nb - 0.5, -0.5),
                        tooltips=[("block", "@y"), ("page", "@x"), ("state (0 free, 1 valid, 2 stale)", "@state"),
                                  ("LBA", "@label")])
        fill = LinearColorMapper(palette=list(PAGE_COLOURS), low=-0.5, high=2.5)
        ink = LinearColorMapper(palette=["#444444", "white", "#444444"], low=-0.5, high=2.5)
        outline = LinearColorMapper(palette=["#bbbbbb", "black", HIGHLIGHT], low=-0.5, high=2.5)
        p1.rect("x", "y", width=0.92, height=0.86, source=pages, fill_color={"field": "state", "transform": fill},
                line_color={"field": "mark", "transform": outline}, line_width="line_width")
        p1.text("x", "y", text="label", source=pages, text_color={"field": "state", "transform": ink},
                text_align="center", text_baseline="middle", text_font_size="12px")
        p1.text("x", "y", text="note", source=blocks, text_align="left", text_baseline="middle",
                text_font_size="12px", text_color="#333333")
        p1.xaxis.ticker = list(range(ppb))
        p1.yaxis.ticker = list(range(nb))
        p1.grid.visible = False
        p2 = new_figure("Host writes and flash programs so far", "host write number", "pages", height=230,
                        x_range=Range1d(0, n_steps, name="history-steps"), tooltips=[("write", "@step"), ("host writes", "@host"),
                                                               ("flash programs", "@programs"),
                                                               ("erases", "@erases")])
        p2.line("step", "programs", source=history, color=REFERENCE, line_width=2,
                legend_label="flash programs (host + GC)")
        p2.line("step", "host", source=history, color=PROGRAMMED, line_width=2, legend_label="host writes")
        style_legend(p2, "top_left")
        return summary_column(data, legend, p1, p2, targets={"pages": pages, "blocks": blocks, "history": history},
                              height=75)

    return _SteppedExplorable(
        compute,
        figure,
        [
            Control("step", "Host writes so far", tuple(range(n_steps + 1)), min(60, n_steps),
                    live_values=tuple(range(max(n_steps, live_steps) + 1)), fmt="{:d}"),
            Control("workload", "Workload", tuple(STEPPER_WORKLOADS), "uniform random", fmt="{}"),
        ],
    )


# =============================================================================== no garbage collection
@dataclass(frozen=True)
class FillRun:
    """Page states of a device written with ``data_fraction`` of its raw pages as live data."""

    host_writes: np.ndarray  # sampled host write counts
    valid: np.ndarray  # pages holding live data
    stale: np.ndarray  # written pages whose data was overwritten
    free: np.ndarray  # erased, writable pages
    erases: np.ndarray
    first_erase: int  # host writes before the FTL's first erase (its first garbage collection)
    physical_pages: int
    wa_last_fill: float  # flash programs / host writes over the last raw-capacity of writes


def fill_lbas(data: int, total: int, seed: int = 0) -> np.ndarray:
    """Host LBAs of :func:`fill_run`: 0..data-1 once, then uniform random overwrites among them
    (``total`` LBAs in all, at least ``data``; ``data`` in [1, 2**31 - 1])."""
    check_int("data", data, 1, 2**31 - 1)
    check_int("total", total, data, 2**31 - 1)
    rng = np.random.default_rng(np.random.SeedSequence([seed, 7]))
    return np.concatenate([np.arange(data), rng.integers(0, data, max(0, total - data))]).astype(np.int32)


FILL_GEOMETRY = Geometry(blocks_per_plane=256, pages_per_block=32, op=0.04)
#: Garbage collection only when no free block is left: until then the device behaves as one without GC.
FILL_CONFIG = FtlConfig(separation="none", gc_low=1, gc_high=1)


@lru_cache(maxsize=64)
def fill_run(data_fraction: float, fills: float = 3.0, geometry: Geometry = FILL_GEOMETRY, seed: int = 0,
             samples: int = 150) -> FillRun:
    """Write ``data_fraction`` x raw pages of distinct LBAs once, then overwrite them at random
    (uniformly) until ``fills`` x raw pages of host writes; sample the page states.

    Page counts follow from the counters exactly: every erased block was fully written, so
    written pages = programs - erases x pages_per_block, and valid pages = distinct LBAs written.
    """
    T, ppb = geometry.physical_pages, geometry.pages_per_block
    data = int(round(check_real("data_fraction", data_fraction, 0.0, 1.0) * T))
    if not 1 <= data <= geometry.user_pages:
        raise ValueError(f"data_fraction must leave 1..{geometry.user_pages} LBAs; got {data_fraction!r}")
    total = int(round(fills * T))
    lbas = fill_lbas(data, total, seed)
    ftl = Ftl(geometry, FILL_CONFIG, seed)
    names = list(ftl.counters)
    every = max(1, total // samples)
    series = np.zeros((total // every + 1, len(names)), dtype=np.int64)
    series[0] = list(ftl.counters.values())
    exact = np.zeros((T + 1, len(names)), dtype=np.int64)  # every write of the first raw fill
    ftl.run(np.zeros(min(T, total), dtype=np.int8), lbas[:T], series=exact, sample_every=1)
    series[: T // every + 1] = exact[::every][: T // every + 1]
    ftl.run(np.zeros(total - min(T, total), dtype=np.int8), lbas[T:], series=series, sample_every=every)
    if total % every:  # end on the final state
        series = np.vstack([series, list(ftl.counters.values())])
    col = {n: series[:, i] for i, n in enumerate(names)}
    hw = col["host_writes"]
    programs = hw + col["gc_copies"] + col["wl_copies"] + col["refresh_copies"]
    written = programs - ppb * col["erases"]
    valid = np.minimum(hw, data)
    erased = np.flatnonzero(exact[:, names.index("erases")] > 0)
    c = ftl.counters
    end_programs = c["host_writes"] + c["gc_copies"] + c["wl_copies"] + c["refresh_copies"]
    k = (total - T) // every
    wa_last = (end_programs - programs[k]) / (c["host_writes"] - hw[k]) if total > T else float("nan")
    return FillRun(hw, valid, written - valid, T - written, col["erases"],
                   int(erased[0]) if erased.size else T, T, float(wa_last))


def fill_without_gc(fills: float = 3.0, geometry: Geometry = FILL_GEOMETRY, seed: int = 0) -> Explorable:
    """Fill a device with ``data_fraction`` of its raw pages of live data and overwrite at random.

    Shows valid, stale and free pages against host writes; marks the host write at which a
    device without garbage collection has no free page left (read-only), and reports the write
    amplification the real FTL pays afterwards against Desnoyers' greedy model at the effective
    over-provisioning (raw / live data - 1).
    """

    def compute(data_fraction):
        r = fill_run(data_fraction, fills, geometry, seed)
        T = r.physical_pages
        x = r.host_writes / T
        op_eff = T / round(data_fraction * T) - 1.0
        model = float(wa_greedy(op_eff, geometry.pages_per_block))
        return {
            "states": {"x": x, "valid": 100.0 * r.valid / T, "stale": 100.0 * r.stale / T,
                       "free": 100.0 * r.free / T, "erases": r.erases},
            "full": {"x": [1.0, 1.0], "y": [0.0, 100.0]},
            "summary": summary_html(
                f"{T:,} raw pages, {data_fraction:.0%} of them live data. <b>Without garbage collection</b> the "
                f"device has no free page left after {T:,} host writes (1.0 on the axis) and turns "
                f"<b>read-only</b> with only {data_fraction:.0%} live data: the other {1 - data_fraction:.0%} "
                f"of the flash is stale. The FTL here first erases a block after {r.first_erase:,} writes; "
                f"from then on each host write costs <b>{r.wa_last_fill:.2f} flash programs</b> (last raw "
                f"capacity of writes; greedy model at the effective over-provisioning {op_eff:.2f}: {model:.2f})."
            ),
        }

    def figure(data):
        states = ColumnDataSource(data["states"])
        full = ColumnDataSource(data["full"])
        p = new_figure("Where the raw pages are", "host writes (multiples of the raw capacity)",
                       "share of raw pages (%)", height=380, y_range=(0, 100), x_range=(0, fills),
                       tooltips=[("host writes (raw capacities)", "@x{0.00}"), ("valid (%)", "@valid{0.0}"),
                                 ("stale (%)", "@stale{0.0}"), ("free (%)", "@free{0.0}"), ("erases", "@erases")])
        p.varea_stack(["valid", "stale", "free"], x="x", source=states, color=[PAGE_COLOURS[1], PAGE_COLOURS[2],
                                                                                "#cccccc"],
                      legend_label=["valid (live data)", "stale", "free"])
        p.line("x", "y", source=full, color="black", line_dash="dashed", line_width=2,
               legend_label="no GC: read-only here")
        legend_below(p)
        return summary_column(data, p, targets={"states": states, "full": full})

    return Explorable(
        compute,
        figure,
        [Control("data_fraction", "Live data (share of the raw pages)", (0.5, 0.6, 0.75, 0.85, 0.95), 0.75,
                 live_values=tuple(np.round(np.arange(0.3, 0.951, 0.05), 2)), fmt="{:.0%}")],
    )


# =============================================================================== WA against theory
WA_OPS = (0.07, 0.1, 0.15, 0.2, 0.28, 0.4, 0.6, 1.0)
#: Labelled over-provisioning ticks of :func:`wa_vs_op`'s log axis (a log axis labels only 0.5 and 1 there).
WA_OP_TICKS = (0.05, 0.07, 0.1, 0.15, 0.2, 0.3, 0.5, 1.0)
WA_POLICIES = ("greedy", "d_choices", "fifo", "cost_benefit", "random")
#: Log y axis of :func:`wa_vs_op`: the random victim's (1 + op) / op is 15.3 at op 0.07 (the
#: static grid's smallest op) and 21 at op 0.05 (the live one's), the others stay above 1.
WA_Y_RANGE = (0.9, 25.0)
WA_Y_TICKS = (1, 1.5, 2, 3, 5, 7, 10, 15, 20)


def wa_point(op: float, policy: str, blocks: int = 4096, pages_per_block: int = 32, seed: int = 0):
    """Steady-state result of one simulation: uniform random writes after a sequential fill
    (2 drive writes, 4 from op = 0.5 up, measured over the second half). Cached."""
    return _wa_point(float(op), policy, blocks, pages_per_block, seed)


@lru_cache(maxsize=512)
def _wa_point(op, policy, blocks, pages_per_block, seed):
    g = Geometry(blocks_per_plane=blocks, pages_per_block=pages_per_block, op=op)
    # With much spare the first random fill lands in free space: warm up longer.
    fills = 4.0 if op >= 0.5 else 2.0
    return simulate(g, FtlConfig(policy=policy), Workload(), fills=fills, seed=seed, measure_fills=fills / 2,
                    progress=False)


def wa_vs_op(blocks: int = 4096, pages_per_block: int = 32, seed: int = 0) -> Explorable:
    """Over-provisioning and victim policy -> steady-state WA under uniform random writes,
    simulated (markers, one per precomputed op) against the analytic curves."""
    ops = np.geomspace(0.05, 1.2, 120)
    curves = {"op": ops, "fifo": wa_fifo(ops), "greedy": wa_greedy(ops, pages_per_block), "agarwal": wa_agarwal(ops),
              "random": (1 + ops) / ops}

    def compute(op, policy):
        sweep = [wa_point(o, policy, blocks, pages_per_block, seed) for o in WA_OPS]
        r = wa_point(op, policy, blocks, pages_per_block, seed)
        g = Geometry(blocks_per_plane=blocks, pages_per_block=pages_per_block, op=op)
        o = op_of(g)
        name = POLICY_LABELS[policy]
        return {
            "sim": {"op": np.array([op_of(Geometry(blocks_per_plane=blocks, pages_per_block=pages_per_block, op=x))
                                    for x in WA_OPS]), "wa": np.array([s.wa_steady for s in sweep])},
            "here": {"op": [o], "wa": [r.wa_steady]},
            "summary": summary_html(
                f"{blocks:,} blocks of {pages_per_block} pages, op = {o:.3f} (spare factor {g.spare_factor:.1%}), "
                f"<b>{name}</b> cleaning: simulated <b>WA = {r.wa_steady:.2f}</b>. Models: greedy "
                f"{float(wa_greedy(o, pages_per_block)):.2f}, FIFO {float(wa_fifo(o)):.2f} (Desnoyers), "
                f"Agarwal &amp; Marrow {float(wa_agarwal(o)):.2f}, random victim {(1 + o) / o:.2f}."
            ),
        }

    def figure(data):
        curve = ColumnDataSource(curves)
        sim = ColumnDataSource(data["sim"])
        here = ColumnDataSource(data["here"])
        p = new_figure("Write amplification under uniform random writes", "over-provisioning op (log scale)",
                       "write amplification (log scale)", height=460, x_axis_type="log", y_axis_type="log",
                       y_range=WA_Y_RANGE, x_range=(0.05, 1.2), tooltips=[("op", "@op{0.000}"), ("WA", "@wa{0.00}")])
        p.line("op", "greedy", source=curve, color=POLICY_COLOURS["greedy"], line_width=2,
               legend_label=f"greedy, Desnoyers ({pages_per_block} pages/block)")
        p.line("op", "fifo", source=curve, color=POLICY_COLOURS["fifo"], line_width=2, line_dash="dashed",
               legend_label="FIFO, Desnoyers")
        p.line("op", "agarwal", source=curve, color="#7f7f7f", line_width=2, line_dash="dotted",
               legend_label="Agarwal & Marrow (1+op)/(2 op)")
        p.line("op", "random", source=curve, color=POLICY_COLOURS["random"], line_width=1.5, line_dash="dotdash",
               legend_label="random victim (1+op)/op")
        p.scatter("op", "wa", source=sim, size=9, color="black", marker="circle", legend_label="simulated")
        p.scatter("op", "wa", source=here, size=18, color=HIGHLIGHT, marker="diamond", line_color="black",
                  legend_label="this setting")
        label_ticks(p.xaxis, WA_OP_TICKS, "0.[00]")
        label_ticks(p.yaxis, WA_Y_TICKS, "0.[0]")
        legend_below(p)
        return summary_column(data, p, targets={"sim": sim, "here": here})

    return Explorable(
        compute,
        figure,
        [
            Control("op", "Over-provisioning op", WA_OPS, 0.28,
                    live_values=tuple(sorted(set(WA_OPS) | set(np.round(np.arange(0.05, 1.001, 0.05), 2)))),
                    fmt="{:.2f}"),
            Control("policy", "Victim policy", WA_POLICIES, "greedy", fmt="{}"),
        ],
    )


# =============================================================================== hot/cold skew
SKEWS = ("50/50", "70/30", "80/20", "90/10", "95/5")
SKEW_POLICIES = ("greedy", "d_choices", "fifo", "cost_benefit")
STREAMS = {"none": "one stream", "gc": "GC copies apart", "temperature": "hot, cold and GC apart"}
_STREAM_OF = {label: sep for sep, label in STREAMS.items()}
#: Top of :func:`hot_cold_skew`'s bars: FIFO at the live 98/2 skew reaches WA 7.05 on the live
#: 512-block device, and each bar carries its value above it.
SKEW_WA_MAX = 8.0


def hot_cold_skew(blocks: int = 1024, pages_per_block: int = 32, op: float = 0.15, fills: float = 6.0,
                  seed: int = 0) -> Explorable:
    """Workload skew and write streams -> steady-state WA of each victim policy (bars).

    Skewed workloads need several drive writes before the cold data has been rewritten and the
    device reaches steady state: ``fills`` drive writes, measured over the second half.
    """
    g = Geometry(blocks_per_plane=blocks, pages_per_block=pages_per_block, op=op)

    @lru_cache(maxsize=256)
    def point(skew, separation, policy):
        return simulate(g, FtlConfig(policy=policy, separation=separation), _skew_workload(skew), fills=fills,
                        seed=seed, progress=False).wa_steady

    def compute(skew, streams):
        separation = _STREAM_OF[streams]
        wa = np.array([point(skew, separation, p) for p in SKEW_POLICIES])
        uniform = point("50/50", "gc", "greedy")
        best = SKEW_POLICIES[int(np.argmin(wa))]
        share, frac = skew.split("/")
        return {
            "bars": {"policy": [POLICY_LABELS[p] for p in SKEW_POLICIES], "wa": wa,
                     "colour": [POLICY_COLOURS[p] for p in SKEW_POLICIES],
                     "text": [f"{w:.2f}" for w in wa]},
            "summary": summary_html(
                f"{share}% of the writes go to {frac}% of the LBAs; op = {op_of(g):.2f}; write streams: "
                f"{STREAMS[separation]}. Best here: <b>{POLICY_LABELS[best]}</b> (WA {wa.min():.2f}); greedy "
                f"{wa[0]:.2f}, i.e. {wa[0] / uniform - 1:+.0%} against greedy under uniform writes ({uniform:.2f})."
            ),
        }

    def figure(data):
        bars = ColumnDataSource(data["bars"])
        p = new_figure("Steady-state write amplification by victim policy", "victim policy",
                       "write amplification", height=340, x_range=FactorRange(*data["bars"]["policy"]),
                       y_range=(0, SKEW_WA_MAX), tooltips=[("policy", "@policy"), ("WA", "@wa{0.00}")])
        p.vbar(x="policy", top="wa", width=0.7, source=bars, color="colour", alpha=0.85)
        p.text(x="policy", y="wa", text="text", source=bars, text_align="center", text_baseline="bottom",
               y_offset=-2, text_font_size="13px")
        uniform = point("50/50", "gc", "greedy")
        p.add_layout(Span(location=uniform, dimension="width", line_color="black", line_dash="dashed",
                          line_width=2))
        p.text(x=[float(len(SKEW_POLICIES))], y=[uniform], text=["greedy, uniform writes"], text_font_size="12px",
               text_baseline="bottom", text_align="right", x_offset=-4, y_offset=-2)
        p.xgrid.visible = False
        return summary_column(data, p, targets={"bars": bars})

    return Explorable(
        compute,
        figure,
        [
            Control("skew", "Skew (% of writes / % of LBAs they hit)", SKEWS, "90/10",
                    live_values=("50/50", "60/40", "70/30", "75/25", "80/20", "85/15", "90/10", "95/5", "98/2"),
                    fmt="{}"),
            Control("streams", "Write streams", tuple(STREAMS.values()), STREAMS["gc"], fmt="{}"),
        ],
    )


# =============================================================================== wear levelling
WL_THRESHOLDS = ("off", "64", "32", "16", "8", "4")
WL_WORKLOADS = ("50/50", "80/20", "95/5")


def wear_levelling(blocks: int = 256, pages_per_block: int = 32, op: float = 0.2, fills: float = 20.0,
                   seed: int = 2) -> Explorable:
    """Static wear-levelling threshold (max - min erase count that triggers moving cold data) and
    workload -> erase-count histogram, spread and the write amplification split into GC and WL.

    Dynamic wear levelling is on throughout (static levelling relies on it, see ``FtlConfig``).
    """
    g = Geometry(blocks_per_plane=blocks, pages_per_block=pages_per_block, op=op)

    @lru_cache(maxsize=256)
    def point(threshold, skew):
        thr = 0 if threshold == "off" else int(threshold)
        return simulate(g, FtlConfig(dynamic_wl=True, static_wl_threshold=thr), _skew_workload(skew),
                        fills=fills, seed=seed, progress=False)

    def compute(threshold, workload):
        r = point(threshold, workload)
        off = point("off", workload)
        sweep = [point(t, workload) for t in WL_THRESHOLDS]
        n = max(r.erase_hist.size, off.erase_hist.size)
        spread = lambda x: int(x.erase_counts.max() - x.erase_counts.min())  # noqa: E731
        ec = r.erase_counts
        return {
            "hist": {"erases": np.arange(n), "blocks": np.pad(r.erase_hist, (0, n - r.erase_hist.size)),
                     "off": np.pad(off.erase_hist, (0, n - off.erase_hist.size))},
            "sweep": {"threshold": list(WL_THRESHOLDS), "host": np.ones(len(sweep)),
                      "gc": np.array([s.wa_gc for s in sweep]), "wl": np.array([s.wa_wl for s in sweep]),
                      "total": np.array([s.wa_steady for s in sweep]),
                      "spread": np.array([spread(s) for s in sweep]),
                      "max": np.array([int(s.erase_counts.max()) for s in sweep])},
            "here": {"threshold": [threshold], "total": [r.wa_steady], "spread": [spread(r)]},
            "summary": summary_html(
                f"{g.blocks} blocks, {fills:g} drive writes of {workload} writes. Static wear levelling "
                f"<b>{'off' if threshold == 'off' else 'at a spread of ' + threshold + ' erases'}</b>: erase counts "
                f"{ec.min()}&ndash;{ec.max()} (spread <b>{spread(r)}</b>, mean {ec.mean():.1f}; without static "
                f"levelling: {off.erase_counts.min()}&ndash;{off.erase_counts.max()}). Flash programs per host "
                f"write: 1 + {r.wa_gc:.2f} GC + <b>{r.wa_wl:.2f} wear levelling</b> = {r.wa_steady:.2f}."
            ),
        }

    def figure(data):
        hist = ColumnDataSource(data["hist"])
        sweep = ColumnDataSource(data["sweep"])
        here = ColumnDataSource(data["here"])
        p1 = new_figure("Erase counts of the blocks", "erase count (P/E cycles)", "blocks", height=280,
                        tooltips=[("erases", "@erases"), ("blocks", "@blocks"), ("blocks, static WL off", "@off")])
        p1.vbar(x="erases", top="off", width=1.0, source=hist, color="#bbbbbb", alpha=0.7,
                legend_label="static WL off")
        p1.vbar(x="erases", top="blocks", width=1.0, source=hist, color=PROGRAMMED, alpha=0.8,
                legend_label="this setting")
        style_legend(p1, "top_right")
        cats = FactorRange(*WL_THRESHOLDS)
        p2 = new_figure("Erase-count spread (max - min)", "static WL threshold (erases)", "spread (P/E cycles)",
                        height=240, x_range=cats, tooltips=[("threshold", "@threshold"), ("spread", "@spread"),
                                                            ("max erases", "@max")])
        p2.vbar(x="threshold", top="spread", width=0.7, source=sweep, color=PROGRAMMED, alpha=0.8)
        p2.vbar(x="threshold", top="spread", width=0.7, source=here, fill_alpha=0, line_color="black",
                line_width=3)
        p3 = new_figure("Flash programs per host write", "static WL threshold (erases)", "write amplification",
                        height=300, x_range=cats, tooltips=[("threshold", "@threshold"), ("GC", "@gc{0.00}"),
                                                            ("WL", "@wl{0.00}"), ("total", "@total{0.00}")])
        p3.vbar_stack(["host", "gc", "wl"], x="threshold", width=0.7, source=sweep,
                      color=["#cccccc", POLICY_COLOURS["greedy"], HIGHLIGHT],
                      legend_label=["host write", "GC copies", "wear-levelling copies"])
        p3.vbar(x="threshold", top="total", width=0.7, source=here, fill_alpha=0, line_color="black", line_width=3)
        p3.y_range.start = 0
        legend_below(p3, ncols=3)
        for p in (p2, p3):
            p.xgrid.visible = False
        return summary_column(data, p1, p2, p3, targets={"hist": hist, "sweep": sweep, "here": here})

    return Explorable(
        compute,
        figure,
        [
            Control("threshold", "Static wear-levelling threshold (erase-count spread)", WL_THRESHOLDS, "8",
                    fmt="{}"),
            Control("workload", "Workload (% of writes / % of LBAs)", WL_WORKLOADS, "95/5",
                    live_values=("50/50", "70/30", "80/20", "90/10", "95/5", "98/2"), fmt="{}"),
        ],
    )


# =============================================================================== TRIM
TRIM_SHARES = (0.3, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.0)
TRIM_SETTINGS = ("trims deletes", "never trims")
#: Colours of the two file systems: with TRIM, without.
TRIM_COLOURS = (PALETTE[2], PALETTE[3])


def trim_point(live_share: float, trim: bool, blocks: int = 1024, pages_per_block: int = 32, op: float = 0.1,
               fills: float = 3.0, seed: int = 0):
    """Steady state of :class:`~flashlab.workload.FileChurn` (``live_share`` of the user space
    live, deletes trimmed or not) after a sequential fill: ``fills`` drive writes, measured over
    the second half. Cached."""
    live_share = check_real("live_share", live_share, 0.0, 1.0, lo_open=True)
    return _trim_point(live_share, check_bool("trim", trim), blocks, pages_per_block, float(op), float(fills), seed)


@lru_cache(maxsize=256)
def _trim_point(live_share, trim, blocks, pages_per_block, op, fills, seed):
    g = Geometry(blocks_per_plane=blocks, pages_per_block=pages_per_block, op=op)
    return simulate(g, FtlConfig(), FileChurn(live_share, trim), fills=fills, seed=seed, progress=False)


def victim_valid_share(r) -> float:
    """Mean share of a GC victim's pages still valid (so copied) over the second half of ``r``'s
    workload (a :func:`~flashlab.ftl.simulate` result after its preconditioning fill)."""
    s, c = r.series, r.counters
    start = c["host_writes"] - (c["host_writes"] - r.user_pages) // 2
    k = min(int(np.searchsorted(s["host_writes"], start)), s["host_writes"].size - 1)
    victims = c["gc_victims"] - s["gc_victims"][k]
    if victims <= 0:
        return 0.0
    ppb = r.physical_pages // r.erase_counts.size
    return (c["gc_copies"] - s["gc_copies"][k]) / (victims * ppb)


def trim_churn(blocks: int = 1024, pages_per_block: int = 32, op: float = 0.1, fills: float = 3.0,
               seed: int = 0) -> Explorable:
    """A file system with a share of the user space live, which trims what it deletes or not
    (:class:`~flashlab.workload.FileChurn`) -> steady-state WA against the live share (simulated
    markers on Desnoyers' greedy model at the effective and at the nominal over-provisioning), and
    where the raw pages are: the file system's live data, deleted data the drive still holds, and
    the drive's spare (stale or free)."""
    g = Geometry(blocks_per_plane=blocks, pages_per_block=pages_per_block, op=op)
    T, U = g.physical_pages, g.user_pages
    shares = np.linspace(0.2, 1.0, 81)
    live_n = np.array([FileChurn(s).live_pages(U) for s in shares])
    curves = {"share": shares, "trim": wa_greedy(T / live_n - 1.0, pages_per_block),
              "plain": np.full(shares.size, float(wa_greedy(T / U - 1.0, pages_per_block)))}

    def point(share, trim):
        return trim_point(share, trim, blocks, pages_per_block, op, fills, seed)

    def compute(live_share, file_system):
        trim = file_system == TRIM_SETTINGS[0]
        r, other = point(live_share, trim), point(live_share, not trim)
        live = FileChurn(live_share).live_pages(U)
        held = r.valid_pages - live
        spare = T - r.valid_pages
        model = float(wa_greedy(T / (live if trim else U) - 1.0, pages_per_block))
        sims = {name: np.array([point(s, t).wa_steady for s in TRIM_SHARES]) for name, t in (("trim", True),
                                                                                                ("plain", False))}
        return {
            "sim": {"share": np.array(TRIM_SHARES), **sims},
            "here": {"share": [live_share], "wa": [r.wa_steady]},
            "pages": {"what": ["file system's live data", "deleted, still held", "stale or free (spare)"],
                      "share": 100.0 * np.array([live, held, spare]) / T,
                      "colour": [PROGRAMMED, REFERENCE, "#cccccc"]},
            "summary": summary_html(
                f"{blocks:,} blocks of {pages_per_block} pages, op = {op_of(g):.2f}. The file system keeps "
                f"<b>{live_share:.0%}</b> of the user space live and <b>{file_system}</b>: the drive holds "
                f"{r.valid_pages / T:.0%} of its raw pages as valid ({held / T:.0%} deleted data it was never told "
                f"about), so {spare / T:.0%} is spare for garbage collection; a victim block still holds "
                f"{victim_valid_share(r):.0%} valid pages to copy. Simulated <b>WA = {r.wa_steady:.2f}</b> (greedy "
                f"model at op {T / (live if trim else U) - 1:.2f}: {model:.2f}); the other file system: "
                f"{other.wa_steady:.2f}."
            ),
        }

    def figure(data):
        curve = ColumnDataSource(curves)
        sim = ColumnDataSource(data["sim"])
        here = ColumnDataSource(data["here"])
        pages = ColumnDataSource(data["pages"])
        p1 = new_figure("Write amplification of file-system churn", "live data (share of the user space)",
                        "write amplification", height=380, x_range=(0.18, 1.02),
                        y_range=(0.8, float(curves["plain"][0]) * 1.15),
                        tooltips=[("live share", "@share{0%}"), ("WA, TRIM", "@trim{0.00}"),
                                  ("WA, no TRIM", "@plain{0.00}")])
        p1.line("share", "trim", source=curve, color=TRIM_COLOURS[0], line_width=2,
                legend_label="model, TRIM: op = raw / live - 1")
        p1.line("share", "plain", source=curve, color=TRIM_COLOURS[1], line_width=2, line_dash="dashed",
                legend_label="model, no TRIM: the drive's own op")
        p1.scatter("share", "trim", source=sim, size=9, color=TRIM_COLOURS[0], marker="circle",
                   legend_label="simulated, TRIM")
        p1.scatter("share", "plain", source=sim, size=9, color=TRIM_COLOURS[1], marker="square",
                   legend_label="simulated, no TRIM")
        p1.scatter("share", "wa", source=here, size=18, color=HIGHLIGHT, marker="diamond", line_color="black",
                   legend_label="this setting")
        p1.xaxis.formatter.update(use_scientific=False)
        legend_below(p1)
        p2 = new_figure("Where the raw pages are (this setting)", "share of raw pages (%)", "", height=200,
                        x_range=(0, 100), y_range=FactorRange(*data["pages"]["what"]),
                        tooltips=[("pages", "@what"), ("share (%)", "@share{0.0}")])
        p2.hbar(y="what", right="share", height=0.7, source=pages, color="colour")
        p2.ygrid.visible = False
        return summary_column(data, p1, p2, targets={"sim": sim, "here": here, "pages": pages})

    return Explorable(
        compute,
        figure,
        [
            Control("live_share", "Live data (share of the user space)", TRIM_SHARES, 0.7,
                    live_values=tuple(sorted(set(TRIM_SHARES) | set(np.round(np.arange(0.2, 1.001, 0.05), 2)))),
                    fmt="{:.0%}"),
            Control("file_system", "The file system", TRIM_SETTINGS, TRIM_SETTINGS[0], fmt="{}"),
        ],
    )


# =============================================================================== placement: FDP and ZNS
#: Colour of each part of a write's cost: the application's write, the drive's copies, the host's.
WRITE_PARTS = {"application write": PALETTE[0], "drive's GC copies": PALETTE[3], "host's cleaning copies": PALETTE[1]}


def where_the_writes_go(rows: dict) -> StaticExplorable:
    """Flash page programs per application page write, split by who made them, for each
    configuration in ``rows`` (label -> (the drive's GC copies, the host's cleaning copies), both
    per application page write, as :func:`flashlab.ftl.simulate` and
    :func:`flashlab.ftl.simulate_zns` report them): horizontal stacked bars, one per row, with a
    sentence that states every bar's parts."""
    if not isinstance(rows, dict) or not rows:
        raise ValueError(f"rows must be a non-empty dict of label -> (drive copies, host copies); got {rows!r}")
    labels = list(rows)
    parts = np.array([[1.0, *(check_real(f"rows[{k!r}]", v, 0.0, 1e3) for v in rows[k])] for k in labels])
    total = parts.sum(axis=1)
    p = new_figure("Flash writes per application write", "flash page programs per "
                   "application page write", "", height=70 + 42 * len(labels),
                   x_range=(0, float(total.max()) * 1.12), y_range=FactorRange(*reversed(labels)),
                   tooltips=[("", "@label"), ("part", "@part"), ("pages", "@pages{0.00}")])
    left = np.zeros(len(labels))
    sources = {}
    for j, (part, colour) in enumerate(WRITE_PARTS.items()):
        src = ColumnDataSource({"label": labels, "left": left.copy(), "right": left + parts[:, j],
                                "part": [part] * len(labels), "pages": parts[:, j]})
        p.hbar(y="label", left="left", right="right", height=0.7, source=src, color=colour, legend_label=part)
        sources[part] = src
        left += parts[:, j]
    totals = ColumnDataSource({"label": labels, "x": total, "text": [f"{t:.2f}" for t in total]})
    p.text(x="x", y="label", text="text", source=totals, x_offset=4, text_baseline="middle", text_font_size="12px")
    p.ygrid.visible = False
    legend_below(p, 3, keep_plot_height=True)
    sentence = "; ".join(f"{k}: {t:.2f} flash writes per application write ({d:.2f} copied by the drive, "
                         f"{h:.2f} by the host)" for k, t, (_, d, h) in zip(labels, total, parts))
    layout, targets = summary_column({"summary": summary_html(sentence + ".")}, p, targets=sources)
    access = accessible(layout, targets)
    return StaticExplorable(access.layout, 1, access=access)
