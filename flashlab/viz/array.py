"""Explorables for the chapter "Array architecture" (:mod:`flashlab.array`).

* :func:`build_array`: drives, drive size, RAID level, over-provisioning and data-reduction ratio
  -> the capacity waterfall from raw to usable to effective (:func:`flashlab.array.array_capacity`).
* :func:`stripe_tail`: members per stripe and the chance that one member is slow -> the chance
  that a stripe waits for a slow member, and the mean wait for the slowest of N exponential
  members against the harmonic number H_N (analytic; order statistics).

Each function returns an :class:`~flashlab.viz.explorable.Explorable`; call ``.static()`` for the
HTML book or ``.live()`` in a kernel. Sizes in bytes, shown in decimal TB (and binary TiB in the
readout).
"""

from __future__ import annotations

import numpy as np
from bokeh.layouts import column
from bokeh.models import ColumnDataSource, Div, FactorRange

from ..array import UNITS, array_capacity
from .explorable import Control, Explorable
from .style import PALETTE, REFERENCE, legend_below, new_figure, summary_html

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
            size.append(-s.removed_bytes / tb)
    return {"step": names, "bottom": np.array(bottom), "top": np.array(top), "colour": colour,
            "size": np.array(size), "label": [f"{x:,.1f}" for x in size], "why": [s.why for s in cap.steps]}


def build_array() -> Explorable:
    """Build an array from parts: drives, drive size, RAID level (one group of all drives, no
    spares), the array's over-provisioning, a 3% system reserve and an assumed data-reduction
    ratio give the capacity waterfall from raw to usable to effective."""

    def compute(drives, drive_tb, raid, op, ratio):
        cap = array_capacity(drives, drive_tb * UNITS["TB"], raid=raid, op=op, system_reserve=0.03,
                             data_reduction=ratio)
        tb, tib = UNITS["TB"], UNITS["TiB"]
        text = (
            f"{drives} x {drive_tb:g} TB in RAID-{raid}: raw <b>{cap.raw_bytes / tb:,.2f} TB</b> "
            f"({cap.raw_bytes / tib:,.2f} TiB), usable <b>{cap.usable_bytes / tb:,.2f} TB</b> "
            f"({cap.usable_bytes / tib:,.2f} TiB, {cap.usable_bytes / cap.raw_bytes:.0%} of raw), "
            f"effective <b>{cap.effective_bytes / tb:,.2f} TB</b> if the data reduces {ratio:g}:1. "
            "Only usable is guaranteed."
        )
        return {"bars": waterfall_columns(cap), "summary": summary_html(text)}

    def figure(data):
        src = ColumnDataSource(data["bars"])
        summary = Div(text=data["summary"], sizing_mode="stretch_width")
        p = new_figure("Capacity from raw to effective", "step", "capacity (TB, decimal)", height=340,
                       x_range=FactorRange(*data["bars"]["step"]),
                       tooltips=[("step", "@step"), ("size", "@size{0,0.00} TB"), ("why", "@why")])
        p.vbar(x="step", bottom="bottom", top="top", width=0.7, color={"field": "colour"}, source=src)
        p.text(x="step", y="top", text="label", source=src, text_align="center", text_baseline="bottom",
               text_font_size="11px", y_offset=-2)
        p.xaxis.major_label_orientation = 0.6
        p.y_range.start = 0
        return column(summary, p, sizing_mode="stretch_width"), {"bars": src, "summary": summary}

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
        summary = Div(text=data["summary"], sizing_mode="stretch_width")
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
        return column(summary, p1, p2, sizing_mode="stretch_width"), dict(src, summary=summary)

    return Explorable(compute, figure, [
        Control("members", "Members per stripe N", (2, 4, 6, 10, 16, 24, 50, 100), 10,
                live_values=tuple(range(1, 101)), fmt="{}"),
        Control("p_slow", "Chance a member is slow, p", (0.001, 0.006, 0.01, 0.05), 0.01,
                live_values=(0.001, 0.002, 0.006, 0.01, 0.02, 0.05, 0.1), fmt="{:.1%}"),
    ])
