"""Explorables for the write-cliff chapter: a whole SSD in time (:mod:`flashlab.ssd`).

* :func:`preconditioning_curve`: over-provisioning x queue depth -> the SNIA PTS write
  saturation curve (IOPS per round against drive writes: fresh-out-of-box, cliff, steady state),
  the p99 / p99.9 latency of each round and the free superblocks.
* :func:`tail_latency`: GC mode x open-loop write rate -> log-scale latency histograms of the
  first and the last drive write, latency and free space over time, foreground-GC share.
* :func:`read_behind`: the operation a plane is busy with x suspend x when the read arrives ->
  a Gantt chart of the plane and the read's latency (``nand_timeline``).
* :func:`fast_pages`: fast-page steering x write rate -> histogram of host write latency.
* :func:`read_tails`: write rate -> histogram of the latency of reads mixed with writes while GC
  runs, with program/erase suspension off and on.
* :func:`write_cache`: write-cache size x open-loop write rate -> log-scale latency histograms of
  the first and the last drive write.

Each function returns an :class:`~flashlab.viz.explorable.Explorable`; call ``.static()`` for
the HTML book or ``.live()`` in a kernel. Every number comes from the engine (``flashlab.ssd``).
The chapter's devices are small (64 MiB of user data, 16 pages per block, 16 planes) so that a
point computes in a fraction of a second; their IOPS are those of the full-size default
(``flashlab cliff``), since the planes and timing are the same.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from bokeh.models import CDSView, ColumnDataSource, FactorRange, HoverTool, IndexFilter, LinearAxis, Range1d

from ..ssd import HostLoad, SsdConfig, nand_timeline, simulate_io, ssd_geometry, supported_percentile, write_saturation
from ..ssd.sim import log_edges
from ..workload import OP_READ, OP_WRITE, Workload
from .explorable import Control, Explorable
from .style import (HIGHLIGHT, PALETTE, PROGRAMMED, REFERENCE, label_ticks, legend_below, new_figure, summary_column,
                    summary_html)

#: User capacity of the chapter's small devices (bytes) and their pages per (plane) block.
DEVICE_BYTES = 64 * 2**20
PAGES_PER_BLOCK = 16
#: Colours: before / after the cliff, and the plane's operations in the Gantt chart.
BEFORE, AFTER = PALETTE[0], PALETTE[3]
SEGMENT_COLOURS = {"erase": PALETTE[7], "program": PROGRAMMED, "resume overhead": "#000000",
                   "read: sense + transfer": HIGHLIGHT, "read: waiting": "#f4a3a3"}


def small_config(op: float, pages_per_block: int = PAGES_PER_BLOCK, **kwargs) -> SsdConfig:
    """The chapter's device: :data:`DEVICE_BYTES` of user data at over-provisioning ``op``, MLC
    timing (Micron L95B), 4 channels x 2 dies x 2 planes, ``pages_per_block`` pages per block
    (default :data:`PAGES_PER_BLOCK`). Other keyword arguments go to
    :class:`~flashlab.ssd.SsdConfig`."""
    return SsdConfig(geometry=ssd_geometry(DEVICE_BYTES, op, pages_per_block=pages_per_block), **kwargs)


# =============================================================================== preconditioning curve
PTS_OPS = (0.1, 0.2, 0.4, 0.7)
PTS_QDS = (1, 4, 8, 32)
#: Top of the free-superblock axis: a purged drive has every superblock free, 109 at op 0.7 (the
#: static grid's largest op) and 128 at op 1.0 (the live one's).
PTS_FREE_MAX = 130


@lru_cache(maxsize=256)
def pts_point(op: float, qd: int, fills: float = 4.0, max_fills: float = 8.0, seed: int = 0):
    """SNIA PTS write saturation on the chapter's small device: at least ``fills`` drive writes,
    then on until steady, up to ``max_fills`` (cached)."""
    return write_saturation(small_config(op), qd=qd, fills=fills, max_fills=max_fills, seed=seed, progress=False)


def preconditioning_curve(fills: float = 4.0, max_fills: float = 8.0, seed: int = 0) -> Explorable:
    """Over-provisioning and queue depth -> IOPS per round against drive writes (PTS write
    saturation, 10 rounds per drive write, at least ``fills`` and on until steady) with FOB, cliff
    and steady-state window marked; p99 per round (a round is too few writes for a p99.9); free
    superblocks per round."""

    def compute(op, qd):
        r = pts_point(op, qd, fills, max_fills, seed)
        x = r.round_fills
        step = x[0]
        ss = r.steady
        steady = ({"left": [x[ss.start] - step], "right": [x[ss.end]], "bottom": [0.0], "top": [ss.mean]}
                  if ss.reached else {"left": [], "right": [], "bottom": [], "top": []})
        # the curve plots each round at its end, so the marker does too (cliff_fills is its start)
        cliff = ({"x": [float(x[r.cliff_round])], "y": [float(r.round_iops[r.cliff_round])]} if r.cliff_round >= 0
                 else {"x": [], "y": []})
        if r.cliff_round >= 0:
            cliff_txt = (f"The <b>cliff</b> comes after <b>{r.cliff_fills:.1f} drive writes</b> "
                         f"({r.cliff_time_s:.1f} s at this speed): the round that ends at {x[r.cliff_round]:.1f} "
                         f"(the triangle) is the first below halfway from FOB to steady state; p99 latency "
                         f"{r.before['p99'] / 1e3:.1f} ms "
                         f"before garbage collection starts, {r.after['p99'] / 1e3:.1f} ms in the steady state.")
        else:
            cliff_txt = ("<b>No cliff</b>: the host writes too slowly to outrun background GC, which works in "
                         "the planes' idle time.")
        steady_txt = (f"steady state (PTS criteria) in rounds {ss.start + 1}&ndash;{ss.end + 1}, after "
                      f"{x[-1]:.1f} drive writes: <b>{r.steady_iops:,.0f} IOPS</b>" if ss.reached else
                      f"<b>no steady state</b> within {max_fills:g} drive writes (last 5 rounds: "
                      f"{r.steady_iops:,.0f} IOPS)")
        # a round is a tenth of a drive write: its p99 rests on the 1% of its writes beyond it,
        # and a p99.9 would rest on one or two, so the figure draws no p99.9
        n_round = int(round(step * r.result.user_pages))
        lat_txt = (f" Each round is {n_round:,} writes: its p99 rests on the "
                   f"{int(n_round * 0.01):,} slowest{'' if supported_percentile(n_round, 99.0) else ' (too few)'}"
                   f", and a p99.9 would rest on {n_round * 0.001:.1f}, so none is drawn.")
        return {
            "rounds": {"fills": x, "iops": r.round_iops, "p99": r.round_p99_us / 1e3,
                       "wa": r.round_wa, "free": r.round_free_blocks,
                       "fg": 100 * np.nan_to_num(r.round_fg_share)},
            "fob": {"x": [0.0, float(x[-1])], "y": [r.fob_iops, r.fob_iops]},
            "steady": steady,
            "cliff": cliff,
            "summary": summary_html(
                f"op = {op:.2f}, queue depth {qd}: fresh out of box <b>{r.fob_iops:,.0f} IOPS</b>; "
                f"{steady_txt}, write amplification {r.steady_wa:.2f}. {cliff_txt}{lat_txt}"),
        }

    def figure(data):
        rounds = ColumnDataSource(data["rounds"])
        fob = ColumnDataSource(data["fob"])
        steady = ColumnDataSource(data["steady"])
        cliff = ColumnDataSource(data["cliff"])
        xr = Range1d(0, fills * 1.15)  # the chapter's grid reaches steady state by 4.4 drive writes
        tips = [("drive writes", "@fills{0.0}"), ("IOPS", "@iops{0,0}"), ("p99 (ms)", "@p99{0.0}"),
                ("WA", "@wa{0.00}"), ("free superblocks", "@free"),
                ("foreground GC (% of time)", "@fg{0}")]
        p1 = new_figure("Write saturation: random 4 KiB writes after a purge",
                        "host writes (drive writes: multiples of the user capacity)", "IOPS", height=340,
                        x_range=xr, y_range=Range1d(0, 11500), tooltips=tips)
        p1.quad(left="left", right="right", bottom="bottom", top="top", source=steady, color="#2ca02c", alpha=0.2,
                legend_label="steady-state window")
        p1.line("x", "y", source=fob, color="#7f7f7f", line_dash="dashed", line_width=1.5,
                legend_label="fresh-out-of-box IOPS")
        p1.line("fills", "iops", source=rounds, color=PROGRAMMED, line_width=2)
        p1.scatter("fills", "iops", source=rounds, color=PROGRAMMED, size=6, legend_label="IOPS per round")
        p1.scatter("x", "y", source=cliff, marker="inverted_triangle", size=16, color=REFERENCE,
                   line_color="black", legend_label="the cliff")
        legend_below(p1)
        p2 = new_figure("99th percentile latency of each round", "host writes (drive writes)",
                        "latency (ms, log scale)", height=280, x_range=xr, y_axis_type="log",
                        y_range=Range1d(0.5, 200), tooltips=tips)
        p2.line("fills", "p99", source=rounds, color=HIGHLIGHT, line_width=2, legend_label="p99 of the round's writes")
        legend_below(p2)
        p3 = new_figure("Free space and foreground GC", "host writes (drive writes)", "free superblocks",
                        height=240, x_range=xr, y_range=Range1d(0, PTS_FREE_MAX), tooltips=tips)
        p3.extra_y_ranges = {"share": Range1d(0, 100)}
        p3.add_layout(LinearAxis(y_range_name="share", axis_label="foreground GC (%)",
                                 axis_label_text_font_style="normal"), "right")
        p3.line("fills", "free", source=rounds, color=PROGRAMMED, line_width=2, legend_label="free superblocks")
        p3.line("fills", "fg", source=rounds, color=REFERENCE, line_width=2, line_dash="dotted",
                y_range_name="share", legend_label="foreground GC (%)")
        legend_below(p3)
        return summary_column(data, p1, p2, p3,
                              targets={"rounds": rounds, "fob": fob, "steady": steady, "cliff": cliff})

    return Explorable(
        compute,
        figure,
        [
            Control("op", "Over-provisioning op", PTS_OPS, 0.2,
                    live_values=tuple(np.round(np.arange(0.1, 1.001, 0.05), 2)), fmt="{:.2f}"),
            Control("qd", "Queue depth (requests outstanding)", PTS_QDS, 32, live_values=(1, 2, 4, 8, 16, 32, 64),
                    fmt="{:d}"),
        ],
    )


# =============================================================================== tail latency
RATES = (1000, 2000, 3000, 4000, 5000)
GC_LABELS = {"background": "background (idle time) + foreground when short",
             "foreground": "foreground only (when short of blocks)"}
HIST_LO_US, HIST_HI_US, HIST_BINS = 100.0, 1e7, 10
#: The tail-latency histogram's y-axis end (%), fixed over its grid so that it does not jump
#: between settings: the grid's tallest bin with headroom (the tests check that it fits).
TAIL_SHARE_MAX = 55.0
#: The "Latency over time" panel's y range (ms), fixed so that it does not jump between settings.
#: It holds every setting of the grid (both GC modes x RATES) at which GC keeps up: their
#: per-interval p50 and p99 run from 0.86 ms (a fresh drive's p50) to 59 ms (p99, foreground GC at
#: 3,000 writes/s). Where GC cannot keep up (4,000 and 5,000 writes/s) the queue grows without
#: bound and the lines climb out of the top towards seconds; a note in the plot gives their peaks.
#: (A range that held those too, up to 2 s, squeezed the default's 0.86-4.9 ms into its bottom
#: quarter; the reader compares the settings that keep up, and sees the others leave.)
TAIL_TIME_RANGE_MS = (0.7, 100.0)


@lru_cache(maxsize=256)
def rate_point(gc: str, rate: int, op: float = 0.2, fills: float = 3.0, seed: int = 0):
    """Open-loop random 4 KiB writes at ``rate`` IOPS (Poisson) for ``fills`` drive writes (cached)."""
    return simulate_io(small_config(op, gc=gc), HostLoad(qd=32, rate_iops=float(rate), workload=Workload("uniform")),
                       fills=fills, seed=seed, progress=False)


def first_last_fill(r) -> tuple[np.ndarray, np.ndarray]:
    """Masks of the workload's requests (reads included) issued during its first and its last
    drive write, counted in host page writes (preconditioning excluded)."""
    work = r.phase == 1
    writes = np.cumsum(work & (r.op == OP_WRITE))
    return work & (writes <= r.user_pages), work & (writes > writes[-1] - r.user_pages)


def log_bins(lo_us: float, hi_us: float, bins_per_decade: int = HIST_BINS) -> np.ndarray:
    """Log-spaced bin edges (us) from ``lo_us`` to ``hi_us`` (:func:`flashlab.ssd.sim.log_edges`)."""
    return log_edges(lo_us, hi_us, bins_per_decade)


def log_histogram(lat: np.ndarray, lo_us: float, hi_us: float, bins_per_decade: int = HIST_BINS):
    """Share of latencies (%) in log-spaced bins from ``lo_us`` to ``hi_us`` (values outside are
    counted in the end bins), and the bin edges (us)."""
    edges = log_bins(lo_us, hi_us, bins_per_decade)
    lat = np.clip(lat[np.isfinite(lat)], lo_us, hi_us * 0.999)
    return 100 * np.histogram(lat, edges)[0] / max(lat.size, 1), edges


def histogram_columns(edges_us: np.ndarray, shares: dict) -> dict:
    """A histogram's plot columns: bin edges in ms (``left``, ``right``) and each named series of
    shares (%) over those bins."""
    return {"left": edges_us[:-1] / 1e3, "right": edges_us[1:] / 1e3, **shares}


def log_histogram_columns(lo_us: float, hi_us: float, **latencies_us) -> dict:
    """:func:`histogram_columns` of the :func:`log_histogram` of each named latency array (us)."""
    shares = {name: log_histogram(lat, lo_us, hi_us)[0] for name, lat in latencies_us.items()}
    return histogram_columns(log_bins(lo_us, hi_us), shares)


def overlaid_log_histograms(title: str, x_label: str, y_label: str, lo_us: float, hi_us: float,
                            source: ColumnDataSource, layers: list, y_max: float = 100.0):
    """A figure of histograms over the same log bins (``left``/``right`` in ms), drawn over each
    other as outlines (steps) so that overlapping series stay apart: ``layers`` are (column of
    shares in %, colour, legend label) or (column, colour, label, line dash). The y axis runs
    from 0 to ``y_max`` (%); hovering a bin lists every series' share in it."""
    p = new_figure(title, x_label, y_label, height=320, x_axis_type="log", x_range=Range1d(lo_us / 1e3, hi_us / 1e3),
                   y_range=Range1d(0, y_max), tooltips=[("from (ms)", "@left{0.000}"), ("to (ms)", "@right{0.000}")]
                   + [(f"{layer[2]} (%)", f"@{layer[0]}{{0.0}}") for layer in layers])
    # an invisible full-height bar per bin carries the hover, once for all series
    bins = p.quad(left="left", right="right", bottom=0, top=y_max, source=source, fill_alpha=0, line_alpha=0)
    p.select_one(HoverTool).renderers = [bins]
    last_bin = CDSView(filter=IndexFilter([len(source.data["left"]) - 1]))
    for col, colour, label, *dash in layers:
        line = {"color": colour, "line_width": 2, "line_dash": dash[0] if dash else "solid"}
        # a step at each bin's left edge; the last bin's top is a segment to the right edge (one legend
        # entry: clicking it hides both)
        p.step(x="left", y=col, source=source, mode="after", legend_label=label, **line)
        p.segment(x0="left", x1="right", y0=col, y1=col, source=source, view=last_bin, legend_label=label, **line)
    return p


def offscale_note(t: np.ndarray, p50_ms: np.ndarray, p99_ms: np.ndarray) -> dict:
    """The "Latency over time" panel's note on the lines that leave the top of its fixed range
    (:data:`TAIL_TIME_RANGE_MS`), with their peaks; no note when both stay inside. It sits at the
    plot's bottom right: a queue that runs away grows to the end of the run, so by then both lines
    are above the plot and that corner is empty."""
    top = TAIL_TIME_RANGE_MS[1]
    peaks = [f"{name} at {ms.max():,.0f} ms" for name, ms in (("p99", p99_ms), ("p50", p50_ms)) if ms.max() > top]
    if not peaks:
        return {"x": [], "y": [], "text": []}
    return {"x": [float(t[-1])], "y": [TAIL_TIME_RANGE_MS[0]], "text": ["off the top; peaks: " + ", ".join(peaks)]}


def tail_latency(op: float = 0.2, fills: float = 3.0, seed: int = 0) -> Explorable:
    """GC mode and open-loop write rate -> latency histograms (log bins) of the first and the
    last drive write, p99 latency per interval over time, free superblocks and foreground share."""

    def compute(gc, rate):
        r = rate_point(gc, rate, op, fills, seed)
        first, last = first_last_fill(r)
        pb = np.percentile(r.latency_us[first], [50, 99, 99.9])
        pa = np.percentile(r.latency_us[last], [50, 99, 99.9])
        iv = r.intervals(60, by="time")
        t = 0.5 * (iv["start_us"] + iv["end_us"]) / 1e6
        last_iops = r.iops(phase=None)
        keeps_up = pa[1] < 50e3
        verdict = ("GC keeps up" if keeps_up else
                   "<b>the drive cannot keep up</b>: requests pile up in the host queue and wait for seconds")
        return {
            "hist": log_histogram_columns(HIST_LO_US, HIST_HI_US, before=r.latency_us[first], after=r.latency_us[last]),
            "pcts": {"x": np.array([pb[1], pa[1]]) / 1e3, "y0": [0.0, 0.0], "y1": [100.0, 100.0],
                     "what": ["p99, first drive write", "p99, last drive write"]},
            "time": {"t": t, "p99": iv["p99"] / 1e3, "p50": iv["p50"] / 1e3, "free": iv["free_blocks"],
                     "fg": 100 * np.nan_to_num(iv["fg_share"])},
            "offscale": offscale_note(t, iv["p50"] / 1e3, iv["p99"] / 1e3),
            "summary": summary_html(
                f"{rate:,} writes/s arriving at random (Poisson), GC <b>{gc}</b>, op = {op:g}. Each drive write is "
                f"{int(first.sum()):,} writes. First drive write: "
                f"p50 {pb[0] / 1e3:.2f} ms, <b>p99 {pb[1] / 1e3:.2f} ms</b>. Last drive write: p50 "
                f"{pa[0] / 1e3:.2f} ms, <b>p99 {pa[1] / 1e3:,.1f} ms</b>, p99.9 {pa[2] / 1e3:,.1f} ms "
                f"({last_iops:,.0f} IOPS completed over the run): {verdict}."),
        }

    controls = [
        Control("gc", "Garbage collection", ("background", "foreground"), "background", fmt="{}"),
        Control("rate", "Write rate (4 KiB writes per second)", RATES, 2000,
                live_values=tuple(range(500, 6001, 500)), fmt="{:,d}"),
    ]

    def figure(data):
        h = ColumnDataSource(data["hist"])
        pc = ColumnDataSource(data["pcts"])
        tm = ColumnDataSource(data["time"])
        off = ColumnDataSource(data["offscale"])
        p1 = overlaid_log_histograms("Write latency, first and last drive write", "latency (ms, log scale)",
                                     "share of requests (%)", HIST_LO_US, HIST_HI_US, h,
                                     [("before", BEFORE, "first drive write (fresh)"),
                                      ("after", AFTER, "last drive write (GC running)")],
                                     y_max=TAIL_SHARE_MAX)
        for i, colour, label in ((0, BEFORE, "p99, fresh drive"), (1, AFTER, "p99, GC running")):
            p1.segment(x0="x", x1="x", y0="y0", y1="y1", source=pc, view=CDSView(filter=IndexFilter([i])),
                       color=colour, line_dash="dashed", line_width=1.5, legend_label=label)
        legend_below(p1)
        p2 = new_figure("Latency over time", "time (s)", "latency (ms, log scale)", height=280,
                        y_axis_type="log", y_range=Range1d(*TAIL_TIME_RANGE_MS),
                        tooltips=[("time (s)", "@t{0.0}"), ("p50 (ms)", "@p50{0.0}"), ("p99 (ms)", "@p99{0.0}"),
                                  ("free superblocks", "@free"), ("foreground GC (%)", "@fg{0}")])
        p2.line("t", "p50", source=tm, color=PROGRAMMED, line_width=2, legend_label="p50")
        p2.line("t", "p99", source=tm, color=HIGHLIGHT, line_width=2, legend_label="p99")
        p2.text("x", "y", text="text", source=off, text_align="right", text_baseline="bottom", y_offset=-4,
                text_font_size="12px", text_color="#333333")
        label_ticks(p2.yaxis, (1, 3, 10, 30, 100), "0,0")
        legend_below(p2)
        p3 = new_figure("Free space and foreground GC", "time (s)", "free superblocks", height=240,
                        x_range=p2.x_range, y_range=Range1d(0, 80),
                        tooltips=[("time (s)", "@t{0.0}"), ("free superblocks", "@free"),
                                  ("foreground GC (%)", "@fg{0}")])
        p3.extra_y_ranges = {"share": Range1d(0, 100)}
        p3.add_layout(LinearAxis(y_range_name="share", axis_label="foreground GC (%)",
                                 axis_label_text_font_style="normal"), "right")
        p3.line("t", "free", source=tm, color=PROGRAMMED, line_width=2, legend_label="free superblocks")
        p3.line("t", "fg", source=tm, color=REFERENCE, line_width=2, line_dash="dotted", y_range_name="share",
                legend_label="foreground GC (%)")
        legend_below(p3)
        return summary_column(data, p1, p2, p3, targets={"hist": h, "pcts": pc, "time": tm, "offscale": off})

    return Explorable(compute, figure, controls)


# =============================================================================== reads under garbage collection
READ_RATE = 2000
MIX_WRITE_RATES = (500, 1000, 2000)
READ_LO_US, READ_HI_US = 30.0, 1e5
#: The read-tails histogram's y-axis end (%): the grid's tallest bin with headroom (tested).
READ_SHARE_MAX = 55.0


@lru_cache(maxsize=64)
def mixed_point(write_rate: int, suspend: bool, reads: int = READ_RATE, op: float = 0.2, fills: float = 2.0,
                seed: int = 0):
    """Random 4 KiB reads at ``reads`` per second mixed with random 4 KiB writes at ``write_rate``
    (one Poisson stream, at most 32 requests in the drive) on a drive first filled sequentially
    (4 KiB, at the same arrival rate), for ``fills`` drive writes of the random writes (cached)."""
    rate = float(reads + write_rate)
    load = HostLoad(qd=32, rate_iops=rate, workload=Workload("uniform", read_fraction=reads / rate))
    return simulate_io(small_config(op, suspend=suspend), load, fills=fills, precondition_fills=1.0,
                       precondition_size=4096, seed=seed, progress=False)


def read_latency(r) -> np.ndarray:
    """Latencies (us) of the host reads issued during the last drive write of a mixed run."""
    _, last = first_last_fill(r)
    return r.latency_us[last & (r.op == OP_READ)]


def read_tails(reads: int = READ_RATE, op: float = 0.2, fills: float = 2.0, seed: int = 0) -> Explorable:
    """Write rate -> log-scale histogram of the latency of reads mixed with writes while GC runs,
    with program/erase suspension off and on, against a read on an idle plane."""

    def compute(rate):
        lat = {s: read_latency(mixed_point(rate, s, reads, op, fills, seed)) for s in (False, True)}
        p = {s: np.percentile(v, [50, 99, 99.9]) / 1e3 for s, v in lat.items()}
        slow = {s: np.mean(v > 1000.0) for s, v in lat.items()}
        idle = nand_timeline([(0.0, "read", 0, 0)], small_config(op, gc="off"))["latency_us"][0]
        return {
            "hist": log_histogram_columns(READ_LO_US, READ_HI_US, off=lat[False], on=lat[True]),
            "idle": {"x": [idle / 1e3, idle / 1e3], "y": [0.0, 100.0]},
            "summary": summary_html(
                f"{reads:,} random reads/s mixed with <b>{rate:,} random writes/s</b> on a full drive, GC running "
                f"(op = {op:g}; the {lat[False].size:,} (off) and {lat[True].size:,} (on) reads of the last of "
                f"{fills:g} drive writes). Suspend off: read p50 / p99 / p99.9 "
                f"<b>{p[False][0]:.2f} / {p[False][1]:.2f} / {p[False][2]:.2f} ms</b>, {slow[False]:.0%} of reads over "
                f"1 ms. Suspend on: <b>{p[True][0]:.2f} / {p[True][1]:.2f} / {p[True][2]:.2f} ms</b>, "
                f"{slow[True]:.0%} over 1 ms. A read on an idle plane takes {idle:.0f} &micro;s."),
        }

    controls = [Control("rate", "Write rate (4 KiB writes per second, besides the reads)", MIX_WRITE_RATES, 1000,
                        live_values=tuple(range(250, 2501, 250)), fmt="{:,d}")]

    def figure(data):
        h = ColumnDataSource(data["hist"])
        idle = ColumnDataSource(data["idle"])
        p = overlaid_log_histograms("Read latency while the drive collects garbage", "read latency (ms, log scale)",
                                    "share of reads (%)", READ_LO_US, READ_HI_US, h,
                                    [("off", AFTER, "suspend off"), ("on", BEFORE, "suspend on")],
                                    y_max=READ_SHARE_MAX)
        p.line("x", "y", source=idle, color="black", line_dash="dashed", line_width=1.5,
               legend_label="a read on an idle plane")
        legend_below(p)
        return summary_column(data, p, targets={"hist": h, "idle": idle})

    return Explorable(compute, figure, controls)


# =============================================================================== a read behind an erase
OPERATIONS = {"erase": ("erase", 0), "lower-page program": ("program", 0), "upper-page program": ("program", 1)}
ARRIVALS = (50, 500, 1000, 2000)
ROWS = ("host read", "plane 0")


@lru_cache(maxsize=512)
def read_behind_point(operation: str, suspend: bool, arrival_us: float, timing: str = "mlc"):
    """``nand_timeline`` of one operation on plane 0 at t = 0 and a lower-page read of the same
    plane arriving at ``arrival_us``; returns (timeline, unloaded read latency, config)."""
    kind, ptype = OPERATIONS[operation]
    config = SsdConfig(gc="off", suspend=suspend, timing=timing)
    tl = nand_timeline([(0.0, kind, 0, ptype), (float(arrival_us), "read", 0, 0)], config)
    alone = nand_timeline([(0.0, "read", 0, 0)], config)["latency_us"][0]
    return tl, float(alone), config


def gantt_segments(operation: str, suspend: bool, arrival_us: float, timing: str = "mlc") -> dict:
    """Bars of the Gantt chart: the plane's operation (split where the read suspends it, with
    the resume overhead) and the read (waiting, then sense + transfer)."""
    tl, alone, config = read_behind_point(operation, suspend, arrival_us, timing)
    kind = OPERATIONS[operation][0]
    s0, d0 = float(tl["start_us"][0]), float(tl["done_us"][0])
    a1, s1, d1 = float(tl["arrival_us"][1]), float(tl["start_us"][1]), float(tl["done_us"][1])
    segs = []  # (row, left, right, what)
    if tl["suspensions"]:
        overhead = config.resume_overhead_us
        segs += [("plane 0", s0, s1, kind), ("plane 0", s1, d1, "read: sense + transfer"),
                 ("plane 0", d1, d1 + overhead, "resume overhead"), ("plane 0", d1 + overhead, d0, kind)]
    else:
        segs += [("plane 0", s0, d0, kind)]
        segs.append(("plane 0", s1, d1, "read: sense + transfer"))
    if s1 > a1:
        segs.append(("host read", a1, s1, "read: waiting"))
    segs.append(("host read", s1, d1, "read: sense + transfer"))
    return {"row": [s[0] for s in segs], "left": [s[1] for s in segs], "right": [s[2] for s in segs],
            "what": [s[3] for s in segs], "colour": [SEGMENT_COLOURS[s[3]] for s in segs],
            "length": [s[2] - s[1] for s in segs]}


def read_behind(timing: str = "mlc") -> Explorable:
    """Operation on the plane, suspend and read arrival -> Gantt chart of the plane and the read,
    and the read's latency after every operation (log scale)."""

    def compute(operation, suspend, arrival):
        sus = suspend == "on"
        tl, alone, config = read_behind_point(operation, sus, arrival, timing)
        lat = float(tl["latency_us"][1])
        names, lats, cols = [], [], []
        for op_name in OPERATIONS:
            for s in (False, True):
                t2, _, _ = read_behind_point(op_name, s, arrival, timing)
                names.append(f"{op_name}, suspend {'on' if s else 'off'}")
                lats.append(float(t2["latency_us"][1]))
                cols.append(HIGHLIGHT if (op_name == operation and s == sus) else "#9ecae1")
        names.append("idle plane")
        lats.append(alone)
        cols.append("#bbbbbb")
        kind, ptype = OPERATIONS[operation]
        t = config.timing
        op_us = t.t_erase_us if kind == "erase" else t.t_prog_us[ptype]
        late = float(tl["done_us"][0]) - float(read_behind_point(operation, False, arrival, timing)[0]["done_us"][0])
        return {
            "gantt": gantt_segments(operation, sus, arrival, timing),
            "bars": {"name": names, "latency": lats, "colour": cols, "text": [f"{v:,.0f} µs" for v in lats]},
            "summary": summary_html(
                f"Plane 0 starts a <b>{operation}</b> ({op_us:,.0f} &micro;s) at t = 0; a host read of a lower "
                f"page on the same plane arrives at t = {arrival:,} &micro;s. Suspend <b>{suspend}</b>: the read "
                f"takes <b>{lat:,.0f} &micro;s</b>, {lat / alone:.1f}x its {alone:.0f} &micro;s on an idle plane"
                + (f" (its wait includes the suspend latency, {config.suspend_latency_us:g} &micro;s, while the "
                   f"{kind} runs on to a point where it can stop); the {kind} finishes {late:.0f} &micro;s later "
                   f"than without suspend." if tl["suspensions"] else ".")),
        }

    def figure(data):
        g = ColumnDataSource(data["gantt"])
        b = ColumnDataSource(data["bars"])
        p1 = new_figure("What plane 0 does, and what the read does", "time (µs)", "", height=220,
                        y_range=FactorRange(*ROWS), x_range=Range1d(-50, 3450),
                        tooltips=[("", "@what"), ("from (µs)", "@left{0,0.0}"), ("to (µs)", "@right{0,0.0}"),
                                  ("length (µs)", "@length{0,0.0}")])
        p1.hbar(y="row", left="left", right="right", height=0.6, source=g, color="colour", line_color="white",
                legend_field="what")
        legend_below(p1)
        p1.ygrid.visible = False
        p2 = new_figure("Read latency (read arriving at this time)", "read latency (µs, log scale)", "",
                        height=300, x_axis_type="log", x_range=Range1d(30, 2e4), y_range=FactorRange(*data["bars"]["name"]),
                        tooltips=[("", "@name"), ("latency (µs)", "@latency{0,0.0}")])
        p2.hbar(y="name", left=30, right="latency", height=0.7, source=b, color="colour")
        p2.text(x="latency", y="name", text="text", source=b, x_offset=4, text_baseline="middle",
                text_font_size="12px")
        p2.ygrid.visible = False
        return summary_column(data, p1, p2, targets={"gantt": g, "bars": b})

    return Explorable(
        compute,
        figure,
        [
            Control("operation", "Plane 0 is busy with", tuple(OPERATIONS), "erase", fmt="{}"),
            Control("suspend", "Program/erase suspend", ("off", "on"), "off", fmt="{}"),
            Control("arrival", "Read arrives at (µs after the operation starts)", ARRIVALS, 50,
                    live_values=(50, 100, 250, 500, 750, 1000, 1500, 2000, 2500, 3000), fmt="{:,d}"),
        ],
    )


# =============================================================================== fast and slow pages
STEER_RATES = (1000, 2000, 3000)
FAST_LIMIT_US = 1200.0


@lru_cache(maxsize=64)
def steering_point(steering: bool, rate: int, op: float = 0.2, fills: float = 2.0, seed: int = 0):
    """Open-loop random writes with or without fast-page steering (cached)."""
    return simulate_io(small_config(op, steering=steering),
                       HostLoad(qd=32, rate_iops=float(rate), workload=Workload("uniform")),
                       fills=fills, seed=seed, progress=False)


def fast_share(r) -> float:
    """Share of the host writes of the last drive write that finished within
    :data:`FAST_LIMIT_US` (a lower-page program plus its transfer, 862 us, with little waiting)."""
    _, last = first_last_fill(r)
    lat = r.latency_us[last]
    return float(np.mean(lat[np.isfinite(lat)] <= FAST_LIMIT_US))


#: End of :func:`fast_pages`' histogram and of its x axis; its last bin holds every longer write.
FAST_HIST_END_US = 6000.0


def fast_pages(op: float = 0.2, fills: float = 2.0, seed: int = 0) -> Explorable:
    """Fast-page steering and write rate -> histogram of host write latency over the last drive
    write (linear bins of 100 us), with and without steering."""
    edges = np.arange(0.0, FAST_HIST_END_US + 1.0, 100.0)

    def shares(lat):
        return 100 * np.histogram(np.clip(lat, 0, edges[-1] - 1), edges)[0] / lat.size

    def compute(steering, rate):
        on = steering == "on"
        r = steering_point(on, rate, op, fills, seed)
        other = steering_point(not on, rate, op, fills, seed)
        _, last = first_last_fill(r)
        p = np.percentile(r.latency_us[last], [50, 90, 99])
        po = np.percentile(other.latency_us[last], [50, 90, 99])
        return {
            "hist": histogram_columns(edges, {"this": shares(r.latency_us[last]),
                                              "other": shares(other.latency_us[last])}),
            "summary": summary_html(
                f"{rate:,} random writes/s, GC running (last of {fills:g} drive writes). Steering <b>{steering}</b>: "
                f"<b>{fast_share(r):.0%}</b> of host writes finish within {FAST_LIMIT_US / 1e3:.1f} ms (fast "
                f"pages) against {fast_share(other):.0%} with steering {'off' if on else 'on'}; p50 / p90 / p99 "
                f"{p[0] / 1e3:.2f} / {p[1] / 1e3:.2f} / {p[2] / 1e3:.2f} ms (steering {'off' if on else 'on'}: "
                f"{po[0] / 1e3:.2f} / {po[1] / 1e3:.2f} / {po[2] / 1e3:.2f} ms)."),
        }

    def figure(data):
        h = ColumnDataSource(data["hist"])
        p = new_figure("Host write latency: fast and slow pages",
                       f"write latency (ms; the last bin holds every write from {FAST_HIST_END_US / 1e3 - 0.1:g} ms)",
                       "share of writes (%)", height=320, x_range=Range1d(0, FAST_HIST_END_US / 1e3),
                       y_range=Range1d(0, 75),
                       tooltips=[("from (ms)", "@left{0.0}"), ("to (ms)", "@right{0.0}"),
                                 ("this setting (%)", "@this{0.0}"), ("other setting (%)", "@other{0.0}")])
        p.quad(left="left", right="right", bottom=0, top="other", source=h, color="#bbbbbb", alpha=0.7,
               legend_label="the other steering setting")
        p.quad(left="left", right="right", bottom=0, top="this", source=h, color=PROGRAMMED, alpha=0.6,
               legend_label="this setting")
        legend_below(p)
        return summary_column(data, p, targets={"hist": h})

    return Explorable(
        compute,
        figure,
        [
            Control("steering", "Fast-page steering", ("off", "on"), "on", fmt="{}"),
            Control("rate", "Write rate (4 KiB writes per second)", STEER_RATES, 1000,
                    live_values=(500, 1000, 1500, 2000, 2500, 3000), fmt="{:,d}"),
        ],
    )


# =============================================================================== the write cache
CACHE_MIB = (0, 1, 4, 16)
CACHE_RATES = (1000, 2000, 3000, 4000)
CACHE_LO_US = 1.0


@lru_cache(maxsize=128)
def cache_point(cache_mib: int, rate: int, op: float = 0.2, fills: float = 3.0, seed: int = 0,
                steering: bool = False):
    """Open-loop random 4 KiB writes at ``rate`` IOPS (Poisson) for ``fills`` drive writes on the
    chapter's drive with a DRAM write cache of ``cache_mib`` MiB with power-loss protection (0:
    none), fast-page steering on or off (cached)."""
    config = small_config(op, cache_bytes=cache_mib * 2**20, power_loss_protection=cache_mib > 0,
                          steering=steering)
    return simulate_io(config, HostLoad(qd=32, rate_iops=float(rate), workload=Workload("uniform")),
                       fills=fills, seed=seed, progress=False)


def write_cache(op: float = 0.2, fills: float = 3.0, seed: int = 0) -> Explorable:
    """Write-cache size and open-loop write rate -> latency histograms (log bins) of the first
    and the last drive write, as in :func:`tail_latency` but from 1 us, where the cache answers."""

    def compute(cache, rate):
        r = cache_point(cache, rate, op, fills, seed)
        first, last = first_last_fill(r)
        pb = np.percentile(r.latency_us[first], [50, 99])
        pa = np.percentile(r.latency_us[last], [50, 99])
        ack = r.config.cache_latency_us
        fast = np.mean(r.latency_us[last] <= ack + 1e-6) if cache else 0.0
        what = (f"a <b>{cache} MiB</b> write cache with power-loss protection (a cached write is acknowledged "
                f"{ack:g} &micro;s after it arrives)" if cache else "<b>no write cache</b>")
        return {
            "hist": log_histogram_columns(CACHE_LO_US, HIST_HI_US, before=r.latency_us[first],
                                          after=r.latency_us[last]),
            "summary": summary_html(
                f"{rate:,} writes/s arriving at random, op = {op:g}, {what}. First drive write: p50 / p99 "
                f"<b>{pb[0] / 1e3:.2f} / {pb[1] / 1e3:.2f} ms</b>. Last drive write (GC running): "
                f"<b>{pa[0] / 1e3:.2f} / {pa[1] / 1e3:,.2f} ms</b>"
                + (f"; {fast:.0%} of its writes took only the cache's {ack:g} &micro;s." if cache else ".")),
        }

    def figure(data):
        h = ColumnDataSource(data["hist"])
        p = overlaid_log_histograms("Write latency with a write cache, first and last drive write",
                                    "latency (ms, log scale)", "share of requests (%)", CACHE_LO_US, HIST_HI_US, h,
                                    [("before", BEFORE, "first drive write (fresh)"),
                                     ("after", AFTER, "last drive write (GC running)")])
        legend_below(p)
        return summary_column(data, p, targets={"hist": h})

    return Explorable(
        compute,
        figure,
        [
            Control("cache", "Write cache (MiB, power-loss protected)", CACHE_MIB, 0,
                    live_values=(0, 1, 2, 4, 8, 16, 32), fmt="{:d}"),
            Control("rate", "Write rate (4 KiB writes per second)", CACHE_RATES, 2000,
                    live_values=tuple(range(500, 4001, 500)), fmt="{:,d}"),
        ],
    )
