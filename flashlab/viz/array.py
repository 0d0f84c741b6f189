"""Explorables for the chapter "Array architecture" (:mod:`flashlab.array`).

* :func:`build_array`: drives, drive size, RAID level, over-provisioning and data-reduction ratio
  -> the capacity waterfall from raw to usable to effective (:func:`flashlab.array.array_capacity`).
  Beside it, IOPS and read and write latency of the same layout simulated as an SSD-based array
  (:func:`flashlab.array.simulate_array` on small members of the same planes and timing).
* :func:`stripe_tail`: members per stripe and the chance that one member is slow -> the chance
  that a stripe waits for a slow member, and the mean wait for the slowest of N exponential
  members against the harmonic number H_N (analytic; order statistics).
* :func:`gc_coordination`: bursty random writes mixed with reads on a 10-drive RAID-6 array ->
  read-latency histograms of independent (``ssd``), synchronised (``harmonia``) and scheduled
  (``ground-up``) garbage collection, and the GC timeline of every member.
* :func:`disk_vs_flash`: the same closed-loop random workload on a disk array and on an
  SSD-based array -> latency histograms and IOPS.

Each function returns an :class:`~flashlab.viz.explorable.Explorable`; call ``.static()`` for the
HTML book or ``.live()`` in a kernel. Sizes in bytes, shown in decimal TB (and binary TiB in the
readout).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from bokeh.models import ColorBar, ColumnDataSource, FactorRange, LogColorMapper, Range1d
from bokeh.palettes import Viridis256

from .._validate import check_choice
from ..array import UNITS, ArrayConfig, array_capacity, array_drive, simulate_array
from ..ssd import HostLoad
from ..workload import OP_READ, OP_WRITE, Workload
from .explorable import Control, Explorable
from .ssd import log_histogram_columns, overlaid_log_histograms
from .style import PALETTE, REFERENCE, legend_below, new_figure, summary_column, summary_html

#: Colours of the waterfall: capacity held, capacity taken away, capacity assumed.
HELD, TAKEN, ASSUMED = PALETTE[0], PALETTE[3], PALETTE[2]
#: Drive counts, drive sizes (decimal TB), RAID levels, array OP and ratios of :func:`build_array`.
ARRAY_DRIVES = (6, 8, 12, 16, 24)
DRIVE_TB = (1.92, 3.84, 7.68)
RAID_LEVELS = (5, 6, 10)
ARRAY_OPS = (0.0, 0.07, 0.2)
REDUCTION_RATIOS = (1.0, 2.0, 3.0, 6.0, 10.0)


def waterfall_columns(cap) -> dict:
    """Bars of the waterfall of an :class:`~flashlab.array.ArrayCapacity`, in decimal TB: each
    step a bar from ``bottom`` to ``top``, raw and usable from zero, each deduction floating where
    it takes its share away, effective from zero in the colour of an assumption; ``label`` is
    the bar's size as text (what a deduction takes, what a total holds)."""
    tb = UNITS["TB"]
    names, bottom, top, colour, size = [], [], [], [], []
    for s in cap.steps:
        names.append(s.name)
        if s.name in ("raw", "usable", "effective"):
            bottom.append(0.0)
            top.append(s.bytes / tb)
            colour.append({"raw": HELD, "usable": HELD, "effective": ASSUMED}[s.name])
            size.append(s.bytes / tb)
        else:
            bottom.append(s.bytes / tb)
            top.append((s.bytes + s.removed_bytes) / tb)
            colour.append(TAKEN)
            size.append(-s.removed_bytes / tb if s.removed_bytes else 0.0)  # no deduction: 0, not -0
    return {"step": names, "bottom": np.array(bottom), "top": np.array(top), "colour": colour,
            "size": np.array(size), "label": [tb_label(x) for x in size], "why": [s.why for s in cap.steps]}


def tb_label(x: float) -> str:
    """A waterfall bar's size (TB) as text: one decimal, two significant digits when that would
    round a deduction to zero, and ``0`` for none."""
    if x == 0:
        return "0"
    return f"{x:,.1f}" if abs(x) >= 0.05 else f"{x:.2g}"


#: The mixed workload of :func:`build_array`'s timing: random 4 KiB I/O, 70% reads, closed loop.
MIXED_LOAD = HostLoad(qd=64, workload=Workload("uniform", read_fraction=0.7))
#: Host I/Os per timing point of :func:`build_array`.
BUILD_REQUESTS = 1500
#: The smallest over-provisioning a simulated member gets. ``op = 0`` is valid capacity
#: arithmetic (the array holds nothing back) but no drive: a flash member needs spare blocks to
#: collect garbage, so below this the timing uses this op (and the figure says so).
TIMING_MIN_OP = 0.07


def timing_op(op: float) -> float:
    """The members' over-provisioning in :func:`build_array`'s timing for the array's ``op``:
    ``op`` itself, but at least :data:`TIMING_MIN_OP`."""
    return max(float(op), TIMING_MIN_OP)


@lru_cache(maxsize=256)
def array_point(drives: int, raid: int, member_op: float, requests: int = BUILD_REQUESTS, seed: int = 0):
    """:data:`MIXED_LOAD` on an SSD-based array of ``drives`` small members (16 MiB each, see
    :func:`flashlab.array.array_drive`) at over-provisioning ``member_op`` (> 0) in one RAID
    group (cached)."""
    return simulate_array(ArrayConfig(arch="ssd", drives=drives, raid=raid, drive=array_drive(member_op)),
                          MIXED_LOAD, requests=requests, seed=seed)


def build_array() -> Explorable:
    """Build an array from parts: drives, drive size, RAID level (one group of all drives, no
    spares), the array's over-provisioning, a 3% system reserve and an assumed data-reduction
    ratio give the capacity waterfall from raw to usable to effective; drives, RAID level and
    over-provisioning also give the IOPS and latency of :data:`MIXED_LOAD` on the array."""

    def compute(drives, drive_tb, raid, op, ratio):
        cap = array_capacity(drives, drive_tb * UNITS["TB"], raid=raid, op=op, system_reserve=0.03,
                             data_reduction=ratio)
        member_op = timing_op(op)
        r = array_point(drives, raid, member_op)
        rd, wr = r.percentiles(OP_READ), r.percentiles(OP_WRITE)
        op_note = (f"members at op {member_op:g}" if member_op == op else
                   f"op {op:g} is no drive, so the members run at op {member_op:g}")
        tb, tib = UNITS["TB"], UNITS["TiB"]
        text = (
            f"{drives} x {drive_tb:g} TB in RAID-{raid}: raw <b>{cap.raw_bytes / tb:,.2f} TB</b> "
            f"({cap.raw_bytes / tib:,.2f} TiB), usable <b>{cap.usable_bytes / tb:,.2f} TB</b> "
            f"({cap.usable_bytes / tib:,.2f} TiB, {cap.usable_bytes / cap.raw_bytes:.0%} of raw), "
            f"effective <b>{cap.effective_bytes / tb:,.2f} TB</b> if the data reduces {ratio:g}:1. "
            "Only usable is guaranteed.<br>"
            f"Simulated as an SSD-based array of {drives} small members ({op_note}), random 4 KiB, "
            f"70% reads, 64 outstanding: <b>{r.iops():,.0f} IOPS</b>; reads p50 "
            f"{rd['p50'] / 1e3:.2f} ms, p99 <b>{rd['p99'] / 1e3:.2f} ms</b>; writes p50 {wr['p50'] / 1e3:.2f} ms, "
            f"p99 <b>{wr['p99'] / 1e3:.2f} ms</b>."
        )
        ms = np.array([rd["p50"], rd["p99"], wr["p50"], wr["p99"]]) / 1e3
        lat = {"kind": ["read p50", "read p99", "write p50", "write p99"], "ms": ms,
               "label": [f"{v:,.2f} ms" for v in ms]}
        return {"bars": waterfall_columns(cap), "latency": lat, "summary": summary_html(text)}

    def figure(data):
        src = ColumnDataSource(data["bars"])
        p = new_figure("Capacity from raw to effective", "step", "capacity (TB, decimal)", height=340,
                       x_range=FactorRange(*data["bars"]["step"]),
                       tooltips=[("step", "@step"), ("size", "@size{0,0.00} TB"), ("why", "@why")])
        p.vbar(x="step", bottom="bottom", top="top", width=0.7, color={"field": "colour"}, source=src)
        p.text(x="step", y="top", text="label", source=src, text_align="center", text_baseline="bottom",
               text_font_size="11px", y_offset=-2)
        p.xaxis.major_label_orientation = 0.6
        p.y_range.start = 0
        p.y_range.range_padding = 0.2  # room above the tallest bar for its label
        lat = ColumnDataSource(data["latency"])
        q = new_figure("Latency of random 4 KiB I/O (70% reads)", "", "latency (ms)", height=240,
                       x_range=FactorRange(*data["latency"]["kind"]), tooltips=[("", "@kind"), ("ms", "@ms{0.00}")])
        q.vbar(x="kind", top="ms", width=0.6, source=lat, color=PALETTE[4])
        # the read bars are slivers beside the write p99 on a linear axis: the labels give their values
        q.text(x="kind", y="ms", text="label", source=lat, text_align="center", text_baseline="bottom",
               text_font_size="11px", y_offset=-2)
        q.y_range.start = 0
        q.y_range.range_padding = 0.2
        return summary_column(data, p, q, targets={"bars": src, "latency": lat})

    return Explorable(compute, figure, [
        Control("drives", "Drives", ARRAY_DRIVES, 12, live_values=tuple(range(4, 49, 2)), fmt="{}"),
        Control("drive_tb", "Drive size (TB, as sold)", DRIVE_TB, 3.84, live_values=(0.96, 1.92, 3.84, 7.68, 15.36),
                fmt="{:g} TB"),
        Control("raid", "RAID level", RAID_LEVELS, 6, live_values=(0, 5, 6, 10), fmt="RAID-{}"),
        Control("op", "Array over-provisioning op", ARRAY_OPS, 0.07, live_values=(0.0, 0.07, 0.1, 0.2, 0.28, 0.5),
                fmt="{:g}"),
        Control("ratio", "Assumed data reduction (x:1)", REDUCTION_RATIOS, 1.0,
                live_values=(1.0, 1.5, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 18.0), fmt="{:g}:1"),
    ])


def stripe_tail() -> Explorable:
    """Order statistics of a stripe that waits for all its members: with N members each slow
    with probability p (independently), P(stripe slow) = 1 - (1 - p)^N (top); with exponential
    member latencies of mean 1, the stripe's mean wait is H_N = 1 + 1/2 + ... + 1/N (bottom)."""
    ns = np.arange(1, 101)
    harmonic = np.cumsum(1.0 / ns)

    def compute(members, p_slow):
        curve = 1.0 - (1.0 - p_slow) ** ns
        i = members - 1
        text = (
            f"A stripe over <b>{members}</b> members, each slow {p_slow:.1%} of the time: the stripe is slow "
            f"<b>{curve[i]:.1%}</b> of the time. If each member's latency is exponential, the stripe waits on "
            f"average <b>H<sub>{members}</sub> = {harmonic[i]:.2f}</b> times a member's mean."
        )
        return {"curve": {"n": ns, "p": 100.0 * curve, "h": harmonic},
                "now": {"n": np.array([members]), "p": np.array([100.0 * curve[i]]), "h": np.array([harmonic[i]])},
                "summary": summary_html(text)}

    def figure(data):
        src = {k: ColumnDataSource(data[k]) for k in ("curve", "now")}
        p1 = new_figure("Chance that a stripe waits for a slow member", "members per stripe N",
                        "stripes slow (%)", height=260, y_range=(0, 100),
                        tooltips=[("N", "@n"), ("slow", "@p{0.0}%")])
        p1.line("n", "p", source=src["curve"], color=REFERENCE, line_width=2, legend_label="1 - (1 - p)^N")
        p1.scatter("n", "p", source=src["now"], color=REFERENCE, size=11, line_color="black")
        legend_below(p1, 1)
        p2 = new_figure("Mean wait for the slowest of N (exponential members)", "members per stripe N",
                        "stripe mean / member mean", height=260, tooltips=[("N", "@n"), ("H_N", "@h{0.00}")])
        p2.line("n", "h", source=src["curve"], color=HELD, line_width=2, legend_label="H_N = 1 + 1/2 + ... + 1/N")
        p2.scatter("n", "h", source=src["now"], color=HELD, size=11, line_color="black")
        legend_below(p2, 1)
        return summary_column(data, p1, p2, targets=src)

    return Explorable(compute, figure, [
        Control("members", "Members per stripe N", (2, 4, 6, 10, 16, 24, 50, 100), 10,
                live_values=tuple(range(1, 101)), fmt="{}"),
        Control("p_slow", "Chance a member is slow, p", (0.001, 0.006, 0.01, 0.05), 0.01,
                live_values=(0.001, 0.002, 0.006, 0.01, 0.02, 0.05, 0.1), fmt="{:.1%}"),
    ])


# ================================================================== independent vs coordinated GC
#: Architectures compared by :func:`gc_coordination`, with their colours and names.
GC_ARCHS = {"ssd": (PALETTE[3], "independent (SSD-based)"), "harmonia": (PALETTE[4], "synchronised (Harmonia)"),
            "ground-up": (PALETTE[2], "scheduled, reads rebuilt (ground-up)")}
#: Host I/O rates while a burst is on (IOPS; 30% writes), and the bursts: 20 ms on, 40 ms off
#: (the workload of tests/test_array.py's coordination checks).
GC_RATES = (2000, 4000)
GC_BURSTS = (20000.0, 40000.0)
GC_REQUESTS = 2000
GC_INTERVALS = 60
HIST_LO_US, HIST_HI_US = 30.0, 1e5


@lru_cache(maxsize=64)
def gc_point(arch: str, rate: int, requests: int = GC_REQUESTS, fills: float = 1.0, seed: int = 1):
    """Random 4 KiB I/O, 70% reads, Poisson at ``rate`` IOPS in bursts of 20 ms every 60 ms, on
    a 10-drive RAID-6 array of small SSDs at op 0.25 with GC ``arch``, preconditioned with a
    sequential fill and ``fills`` random drive fills (a tiny ``fills`` leaves the drives so much
    free space that the run needs no GC: the reference ttFlash compares with) (cached)."""
    load = HostLoad(qd=64, rate_iops=float(rate), workload=Workload("uniform", read_fraction=0.7))
    return simulate_array(ArrayConfig(arch=arch, drives=10, raid=6, drive=array_drive(0.25)), load,
                          requests=requests, bursts=GC_BURSTS, precondition_fills=fills, seed=seed)


def gc_timeline(r, n: int = GC_INTERVALS) -> dict:
    """Rectangles of the members' timelines over ``n`` intervals: member ``y`` x interval ``x``
    (ms, centre), ``w`` its width (ms), ``busy`` the share of the interval the member spent
    collecting, ``p99`` (ms) the member's read p99 in the interval (NaN if it served no read)."""
    busy = r.gc_busy(n)
    mi = r.member_intervals(n, op=OP_READ)
    d, i = np.indices(busy.shape).reshape(2, -1)
    mid = 0.5 * (mi["start_us"] + mi["end_us"]) / 1e3
    return {"x": mid[i], "y": d.astype(float), "w": (mi["end_us"] - mi["start_us"])[i] / 1e3,
            "busy": busy[d, i], "p99": mi["p99"][d, i] / 1e3}


def gc_coordination() -> Explorable:
    """Bursty random writes and reads on a 10-drive RAID-6 array: read-latency histograms of the
    three GC architectures at the chosen rate, and the GC timeline of every member of one."""

    def compute(rate, arch):
        runs = {a: gc_point(a, rate) for a in GC_ARCHS}
        hist = log_histogram_columns(HIST_LO_US, HIST_HI_US,
                                     **{a.replace("-", "_"): r.latency_us[r.op == OP_READ] for a, r in runs.items()})
        p99 = {a: r.percentiles(OP_READ)["p99"] for a, r in runs.items()}
        r = runs[arch]
        text = (
            f"Bursts at {rate:,} IOPS (30% writes). Read p99: independent <b>{p99['ssd'] / 1e3:.2f} ms</b>, "
            f"synchronised <b>{p99['harmonia'] / 1e3:.2f} ms</b>, ground-up <b>{p99['ground-up'] / 1e3:.2f} ms</b> "
            f"({p99['ground-up'] / p99['ssd']:.2f}x independent). Timelines below: {GC_ARCHS[arch][1]}, members "
            f"collecting {r.gc_share().mean():.0%} of the time on average"
            + (f", {int(r.rebuilt.sum()):,} reads rebuilt from parity." if arch == "ground-up" else ".")
        )
        return {"hist": hist, "timeline": gc_timeline(r), "summary": summary_html(text)}

    def figure(data):
        hist = ColumnDataSource(data["hist"])
        tl = ColumnDataSource(data["timeline"])
        layers = [(a.replace("-", "_"), colour, label) for a, (colour, label) in GC_ARCHS.items()]
        p = overlaid_log_histograms("Read latency (y axis cut at 10% to show the tail)", "read latency (ms, log scale)",
                                    "reads (%)", HIST_LO_US, HIST_HI_US, hist, layers, y_max=10.0)
        legend_below(p, 1, keep_plot_height=True)
        tips = [("member", "@y"), ("ms", "@x{0.0}"), ("collecting", "@busy{0%}"), ("read p99 (ms)", "@p99{0.00}")]
        # the red's opacity is the share of each interval the member spends collecting: the title says so
        q = new_figure("GC of each member over time (darker: longer collecting)", "time (ms)", "member", height=260,
                       y_range=Range1d(-0.6, 9.6), tooltips=tips)
        q.rect(x="x", y="y", width="w", height=0.8, source=tl, fill_color=PALETTE[3], fill_alpha="busy",
               line_color=None)
        mapper = LogColorMapper(palette=Viridis256, low=0.1, high=HIST_HI_US / 1e3, nan_color="rgba(0,0,0,0)")
        m = new_figure("Read p99 of each member over time", "time (ms)", "member", height=300,
                       y_range=Range1d(-0.6, 9.6), x_range=q.x_range, tooltips=tips)
        m.rect(x="x", y="y", width="w", height=0.8, source=tl, fill_color={"field": "p99", "transform": mapper},
               line_color=None)
        m.add_layout(ColorBar(color_mapper=mapper, title="read p99 (ms)", height=10, padding=4), "below")
        for f in (q, m):
            f.yaxis.ticker = list(range(10))
        return summary_column(data, p, q, m, targets={"hist": hist, "timeline": tl})

    return Explorable(compute, figure, [
        Control("rate", "I/O rate during a burst (IOPS)", GC_RATES, 4000, live_values=(1000, 2000, 3000, 4000),
                fmt="{:,}"),
        Control("arch", "Timelines of", tuple(GC_ARCHS), "ssd", fmt="{}"),
    ])


# ================================================================== disk array vs flash array
#: Outstanding host I/Os of :func:`disk_vs_flash`.
DISK_QDS = (4, 16, 64)
DISK_REQUESTS = 1500
DISK_HIST_HI_US = 2e5
#: Disk vs flash histogram's y-axis end (%): only the disks' writes pile up beyond it, in one bin
#: (the cache's acknowledgement, or past the last edge at 64 outstanding); every other series of
#: the grid fits (tested). The title says the axis is cut.
DISK_FLASH_SHARE_MAX = 30.0


#: The controllers' caches of :func:`disk_vs_flash` when on: DRAM read cache and mirrored write cache.
CACHE_BYTES = 64 * 2**20
#: The disk array's controller caches, as the reader switches them.
DISK_CACHE = ("off", "on")


@lru_cache(maxsize=64)
def disk_flash_point(arch: str, qd: int, cache: bool = False, requests: int = DISK_REQUESTS, seed: int = 0):
    """Closed-loop random 4 KiB I/O, 70% reads, ``qd`` outstanding, on 10 members in RAID-6:
    Cheetah 15K.7 disks (``arch='disk'``) or small SSDs at op 0.07 (``'ssd'``), with the
    controllers' read and mirrored write caches of :data:`CACHE_BYTES` each if ``cache`` (cached)."""
    load = HostLoad(qd=qd, workload=Workload("uniform", read_fraction=0.7))
    c = CACHE_BYTES if cache else 0
    return simulate_array(ArrayConfig(arch=arch, drives=10, raid=6, drive=array_drive(0.07), read_cache_bytes=c,
                                      write_cache_bytes=c), load, requests=requests, seed=seed)


def disk_vs_flash() -> Explorable:
    """The same random workload on a disk array (its controller caches on or off) and on an
    SSD-based array (no cache: the disk-array design flash does without): latency histograms
    (log scale) of reads and writes, IOPS and percentiles."""

    def compute(qd, cache):
        cache = check_choice("cache", cache, DISK_CACHE) == "on"
        runs = {"disk": disk_flash_point("disk", qd, cache), "ssd": disk_flash_point("ssd", qd)}
        hist = log_histogram_columns(HIST_LO_US, DISK_HIST_HI_US, **{
            f"{a}_{name}": r.latency_us[r.op == op] for a, r in runs.items()
            for op, name in ((OP_READ, "read"), (OP_WRITE, "write"))})
        lines = []
        for a, r in runs.items():
            rd, wr = r.percentiles(OP_READ), r.percentiles(OP_WRITE)
            lines.append(f"{'disks' if a == 'disk' else 'SSDs'}: <b>{r.iops():,.0f} IOPS</b>, read p50 "
                         f"{rd['p50'] / 1e3:.2f} ms, p99 {rd['p99'] / 1e3:.1f} ms; write p50 {wr['p50'] / 1e3:.2f} ms, "
                         f"p99 {wr['p99'] / 1e3:.1f} ms")
        ratio = runs["ssd"].iops() / runs["disk"].iops()
        caches = (f"the disk array with {CACHE_BYTES >> 20} MiB read and mirrored write caches" if cache else
                  "no controller cache")
        text = (f"10 members in RAID-6, random 4 KiB, 70% reads, {qd} outstanding, {caches}. " + "; ".join(lines)
                + f". The flash array does <b>{ratio:,.0f}x</b> the I/Os per second.")
        return {"hist": hist, "summary": summary_html(text)}

    controls = [
        Control("qd", "Outstanding I/Os", DISK_QDS, 16, live_values=(1, 2, 4, 8, 16, 32, 64), fmt="{}"),
        Control("cache", "Disk array's controller caches", DISK_CACHE, "off", fmt="{}"),
    ]

    def figure(data):
        hist = ColumnDataSource(data["hist"])
        # blues for the SSD array, red and orange for the disks; writes dashed
        layers = [("ssd_read", PALETTE[0], "SSD array, reads"), ("ssd_write", PALETTE[9], "SSD array, writes", "dashed"),
                  ("disk_read", PALETTE[3], "disk array, reads"),
                  ("disk_write", PALETTE[1], "disk array, writes", "dashed")]
        top = DISK_FLASH_SHARE_MAX
        p = overlaid_log_histograms(f"Latency, disk array against flash array (y axis cut at {top:.0f}%)",
                                    "latency (ms, log scale)", "I/Os (%)", HIST_LO_US, DISK_HIST_HI_US, hist, layers,
                                    y_max=top)
        legend_below(p, 2, keep_plot_height=True)
        return summary_column(data, p, targets={"hist": hist})

    return Explorable(compute, figure, controls)
