"""Explorables for multi-level cells (chapters 2 and 3): states and read points, wear, ECC, eMLC.

Voltages are on the normalized scale of Cai et al. 2017 (0 = ground, 512 = nominal maximum read
reference), not the volts of chapter 1. Each function returns an
:class:`~flashlab.viz.explorable.Explorable`; call ``.static()`` for the HTML book or ``.live()``
in a kernel.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from bokeh.layouts import column
from bokeh.models import ColumnDataSource, Div, FixedTicker, LegendItem

from .._validate import check_instance, check_int
from ..cell.calibration import CAI2017_TOLERANCE_UNITS, cai2017_comparison
from ..cell.distributions import vth_distributions
from ..cell.ecc import (UBER_CLIENT, EccCode, codeword_failure_probability, correctable_rber, endurance_pe_cycles,
                        gentle_programming, program_endurance_trade, soft_read_latency_us, uber)
from ..cell.errors import default_read_refs, optimal_read_refs, rber_analytic
from ..cell.ldpc import FerCurve, LdpcCode, fer_curve
from ..cell.levels import program_times, read_latency_us
from ..presets import MLC_2YNM, PRESETS, TLC_1XNM, Technology
from .explorable import Control, Explorable, StaticExplorable
from .style import (
    ERASED, HIGHLIGHT, PALETTE, PROGRAMMED, REFERENCE, label_ticks, legend_below, new_figure, style_legend,
    summary_column, summary_html, text_colour,
)

#: Colour of each page type (LSB, CSB, MSB, TSB; MLC's MSB takes the third).
PAGE_COLORS = (PALETTE[1], PALETTE[2], PALETTE[4], PALETTE[5])
#: Axis label of the normalized threshold-voltage scale.
VTH_LABEL = "Vth (normalized units: 0 = ground, 512 = max read reference)"
#: Lowest density drawn on log axes (fraction of cells per normalized unit).
FLOOR = 1e-9
#: Cell types of the bits-per-cell explorable and the preset behind each.
CELL_PRESETS = {"SLC": "slc", "MLC": "mlc", "TLC": "tlc", "QLC": "qlc"}
#: How the cell chapters' legends sit below their plots (:func:`~flashlab.viz.style.legend_below`):
#: flush left, in 11 px type, the plot area kept at its height.
CELL_LEGEND = dict(keep_plot_height=True, font_size="11px", location="top_left")


def _page_color(levels, p: int) -> str:
    """MLC's second page is the MSB: colour it as the MSB of TLC/QLC."""
    return PAGE_COLORS[2] if levels.bits == 2 and p == 1 else PAGE_COLORS[p]


def _state_color(s: int) -> str:
    return ERASED if s == 0 else (PROGRAMMED if s % 2 else PALETTE[9])


def gray_label(levels, s: int) -> str:
    """The bits state ``s`` stores, highest page first (e.g. MLC P1 -> "01": MSB 0, LSB 1)."""
    check_int("s", s, 0, levels.gray.shape[0] - 1)  # -1 would label the last state
    return "".join(str(b) for b in levels.gray[s, ::-1])


def _density_columns(dist, v, n_max: int, log: bool) -> dict:
    """Per-state population density (each state weighted 1/n_states) in columns s0..s{n_max-1};
    states the cell does not have are NaN (drawn as nothing)."""
    pdf = dist.pdf(v) / dist.levels.n_states
    cols = {"v": v}
    for s in range(n_max):
        if s < pdf.shape[0]:
            y = np.maximum(pdf[s], FLOOR) if log else pdf[s]
            y = np.where(y > FLOOR, y, np.nan) if log else y
        else:
            y = np.full(v.size, np.nan)
        cols[f"s{s}"] = y
    return cols


def _ref_segments(levels, refs, top: float, bottom: float, widths=None, dash_factory=False) -> dict:
    """Vertical read-point segments coloured by the page type that senses each reference."""
    owner = np.zeros(len(refs), dtype=int)
    for p, idx in enumerate(levels.page_refs):
        owner[idx] = p
    return {
        "x0": np.asarray(refs, float), "x1": np.asarray(refs, float),
        "y0": np.full(len(refs), bottom), "y1": np.full(len(refs), top),
        "color": [_page_color(levels, p) for p in owner],
        "width": np.full(len(refs), 2.0) if widths is None else np.asarray(widths, float),
        "label": [f"V{k + 1}" for k in range(len(refs))],
        "page": [levels.page_names[p] for p in owner],
    }


def _clamp_refs(refs: np.ndarray, v_min: float = -250.0, v_max: float = 520.0, gap: float = 0.5) -> np.ndarray:
    """Keep read points strictly increasing (each at least ``gap`` above the one below it) and
    inside the plotted window."""
    out = np.clip(np.asarray(refs, float).copy(), v_min, v_max)
    for k in range(1, out.size):
        out[k] = max(out[k], out[k - 1] + gap)
    return out


# --------------------------------------------------------------------------------------------
# Chapter 2: states, Gray code, sensing counts, latency and program times per cell type
# --------------------------------------------------------------------------------------------


def bits_per_cell(n_pages: int = 3000, seed: int = 1) -> Explorable:
    """SLC .. QLC side by side: Vth states with their Gray code, read points coloured by the page
    that senses them, read latency per page against its sensing count, and the program-time
    histogram of ``n_pages`` consecutive pages (fast LSB pages, slow upper pages)."""
    v = np.linspace(-250.0, 520.0, 700)
    techs = {name: PRESETS[key] for name, key in CELL_PRESETS.items()}
    bins = np.arange(0.0, 7001.0, 100.0)

    def compute(cell):
        tech = techs[cell]
        levels = tech.vth.levels
        dist = vth_distributions(tech.vth)
        refs = default_read_refs(tech.vth)
        dens = _density_columns(dist, v, 16, log=False)
        top = float(np.nanmax([dens[f"s{s}"] for s in range(levels.n_states)]))
        labels = {
            "x": dist.means, "y": np.full(levels.n_states, top * 1.04),
            "text": [f"{name}\n{gray_label(levels, s)}" for s, name in enumerate(levels.state_names)],
        }
        lat = read_latency_us(tech.timing)
        pt = program_times(tech.timing, n_pages, seed)
        counts, _ = np.histogram(pt.time_us, bins)
        dominant = np.full(counts.size, -1)
        for p in range(levels.bits):
            c, _ = np.histogram(pt.time_us[pt.page_type == p], bins)
            dominant = np.where(c > 0, p, dominant)
        mean_us = pt.mean_us
        rows = "".join(
            f'<tr><td style="color:{text_colour(_page_color(levels, p))}"><b>{name}</b></td>'
            + "".join(f"<td>{levels.gray[s, p]}</td>" for s in range(levels.n_states))
            + f"<td>{len(levels.page_refs[p])}</td><td>{lat[p]:.0f}</td><td>{tech.timing.t_prog_us[p]:.0f}</td></tr>"
            for p, name in reversed(list(enumerate(levels.page_names)))
        )
        head = "".join(f"<th>{n}</th>" for n in levels.state_names)
        table = (
            f'<div style="font-size:13px; overflow-x:auto"><table class="flashlab-gray">'
            f"<tr><th>page</th>{head}<th>senses</th><th>read (&micro;s)</th><th>program (&micro;s)</th></tr>"
            f"{rows}</table></div>"
        )
        text = summary_html(
            f"<b>{levels.name}</b>: {levels.bits} bit{'s' if levels.bits > 1 else ''} per cell, "
            f"{levels.n_states} states, {levels.n_states - 1} read point{'s' if levels.n_states > 2 else ''}. "
            f"Read latency {', '.join(f'{n} {t:.0f} &micro;s' for n, t in zip(levels.page_names, lat))} "
            f"(mean {lat.mean():.0f} &micro;s). Program: mean {mean_us:.0f} &micro;s over {n_pages:,} pages, "
            f"but no page takes the mean: "
            f"{', '.join(f'{n} {t:.0f} &micro;s' for n, t in zip(levels.page_names, tech.timing.t_prog_us))}."
        )
        return {
            "density": dens,
            "labels": labels,
            "refs": _ref_segments(levels, refs, top, 0.0),
            "latency": {"senses": levels.senses.astype(float), "lat": lat, "page": list(levels.page_names),
                        "color": [_page_color(levels, p) for p in range(levels.bits)]},
            # Non-empty bins only, each named by its page type: the legend lists the page types.
            "hist": {"x": 0.5 * (bins[1:] + bins[:-1])[counts > 0], "count": counts[counts > 0],
                     "color": [_page_color(levels, p) for p in dominant[counts > 0]],
                     "page": [f"{levels.page_names[p]} pages" for p in dominant[counts > 0]]},
            "mean": {"x": [mean_us, mean_us], "y": [0, counts.max() * 1.05]},
            "table": table,
            "summary": text,
        }

    def figure(data):
        src = {k: ColumnDataSource(data[k]) for k in ("density", "labels", "refs", "latency", "hist", "mean")}
        table = Div(text=data["table"], sizing_mode="stretch_width")
        p1 = new_figure("Threshold-voltage states (fresh cells) and read points", VTH_LABEL,
                        "density (fraction of cells per unit)", height=300, x_range=(-250, 520),
                        tooltips=[("Vth", "$x{0}")])
        for s in range(16):
            p1.varea(x="v", y1=0, y2=f"s{s}", source=src["density"], color=_state_color(s), alpha=0.5)
            p1.line("v", f"s{s}", source=src["density"], color=_state_color(s), line_width=1)
        p1.segment("x0", "y0", "x1", "y1", source=src["refs"], color="color", line_width="width",
                   line_dash="dashed")
        p1.text("x", "y", text="text", source=src["labels"], text_align="center", text_baseline="bottom",
                text_font_size="10px")
        p1.y_range.range_padding = 0.25
        p2 = new_figure("Read latency grows with the sensing count", "read points sensed by the page (senses)",
                        "page read latency (µs)", height=260, x_range=(0, 9),
                        tooltips=[("page", "@page"), ("senses", "@senses"), ("latency (µs)", "@lat{0.0}")])
        ends = {}
        for name, key in CELL_PRESETS.items():  # every cell type's latency line, for comparison
            t = PRESETS[key].timing
            s = np.array([1.0, 8.0])
            p2.line(s, t.t_read_base_us + s * t.t_sense_us, color=ERASED, alpha=0.6, line_dash="dotted",
                    legend_label="t_base + senses × t_sense, each cell type")
            ends[name] = t.t_read_base_us + 8.0 * t.t_sense_us
        # Name each line at its right end, nudging labels apart where lines end close together.
        label_y = np.maximum.accumulate(np.sort(list(ends.values())) - 25.0 * np.arange(len(ends))) \
            + 25.0 * np.arange(len(ends))
        p2.text(np.full(len(ends), 8.1), label_y, text=sorted(ends, key=ends.get), text_baseline="middle",
                text_font_size="11px", text_color=ERASED)
        p2.line("senses", "lat", source=src["latency"], color="black", alpha=0.5, line_width=1.5)
        p2.scatter("senses", "lat", source=src["latency"], color="color", size=13, legend_field="page")
        legend_below(p2, 4, **CELL_LEGEND)
        p3 = new_figure(f"Program time of {n_pages:,} consecutive pages", "page program time (µs)",
                        "pages per 100 µs bin", height=260, x_range=(0, 7000),
                        tooltips=[("time (µs)", "@x{0}"), ("pages", "@count")])
        p3.vbar(x="x", top="count", width=95.0, source=src["hist"], color="color", legend_field="page")
        p3.line("x", "y", source=src["mean"], color=REFERENCE, line_dash="dashed", line_width=2,
                legend_label="mean (datasheet figure)")
        legend_below(p3, 4, **CELL_LEGEND)
        targets = dict(src, table=table)
        return summary_column(data, p1, table, p2, p3, targets=targets)

    return Explorable(compute, figure, [
        Control("cell", "Bits per cell", tuple(CELL_PRESETS), "TLC", fmt="{}"),
    ])


# --------------------------------------------------------------------------------------------
# Chapter 2: moving read points
# --------------------------------------------------------------------------------------------

SHIFTS = (-40, -30, -20, -15, -10, -5, 0, 5, 10, 15, 20, 30, 40)


def read_points(tech: Technology = TLC_1XNM, pe_cycles: float = 0.0, retention_days: float = 0.0) -> Explorable:
    """Move one read point (or all of them) away from its factory position and watch bit errors
    appear, per page type. The distributions (at ``pe_cycles``, ``retention_days``) stay fixed;
    the red area is the fraction of cells that fall outside their state's read window."""
    levels = tech.vth.levels
    dist = vth_distributions(tech.vth, pe_cycles, retention_days)
    base = default_read_refs(tech.vth)
    base_rber = rber_analytic(dist, base).rber
    v = np.linspace(-250.0, 520.0, 320)
    pdf = dist.pdf(v) / levels.n_states
    ref_names = ("all",) + tuple(f"V{k + 1}" for k in range(levels.n_states - 1))
    top = 0.1

    def compute(ref, shift):
        refs = base.copy()
        sel = np.ones(refs.size, bool) if ref == "all" else (np.arange(refs.size) == ref_names.index(ref) - 1)
        refs = _clamp_refs(np.where(sel, refs + shift, refs))
        res = rber_analytic(dist, refs)
        edges = np.concatenate(([-np.inf], refs, [np.inf]))
        outside = (v[None, :] < edges[:-1, None]) | (v[None, :] >= edges[1:, None])
        mis = (pdf * outside).sum(axis=0)
        owner = ", ".join(f"{n}: {' '.join(f'V{k + 1}' for k in idx)}" for n, idx in zip(levels.page_names, levels.page_refs))
        moved = "every read point" if ref == "all" else f"read point {ref}"
        rows = ", ".join(
            f'<span style="color:{text_colour(_page_color(levels, p))}"><b>{n}</b></span> {r:.1e}'
            + (f" (&times;{r / b:,.0f})" if b > 0 and r / b >= 1.5 else "")
            for p, (n, r, b) in enumerate(zip(levels.page_names, res.rber, base_rber))
        )
        return {
            "refs": _ref_segments(levels, refs, top, FLOOR, widths=np.where(sel & (shift != 0), 4.0, 1.5)),
            "mis": {"v": v, "y": np.where(mis > FLOOR, mis, np.nan)},
            "rber": {"page": list(levels.page_names), "rber": np.maximum(res.rber, 1e-12),
                     "base": np.maximum(base_rber, 1e-12),
                     "color": [_page_color(levels, p) for p in range(levels.bits)]},
            "summary": summary_html(
                f"{levels.name}, {moved} moved by <b>{shift:+g}</b> units. Raw bit error rate per page: {rows}. "
                f"<br>Which page senses which read point: {owner}."
            ),
        }

    def figure(data):
        refs = ColumnDataSource(data["refs"])
        mis = ColumnDataSource(data["mis"])
        rber = ColumnDataSource(data["rber"])
        fixed = ColumnDataSource(_density_columns(dist, v, levels.n_states, log=True))
        p1 = new_figure(f"{levels.name} states (log scale) and read points", VTH_LABEL,
                        "density (fraction of cells per unit)", height=320, y_axis_type="log",
                        x_range=(-250, 520), y_range=(1e-7, 4 * top), tooltips=[("Vth", "$x{0}")])
        for s in range(levels.n_states):
            p1.line("v", f"s{s}", source=fixed, color=_state_color(s), line_width=2)
        p1.varea(x="v", y1=FLOOR, y2="y", source=mis, color=REFERENCE, alpha=0.45,
                 legend_label="cells outside their state's window")
        p1.segment("x0", "y0", "x1", "y1", source=refs, color="color", line_width="width")
        p1.text("x1", "y1", text="label", source=refs, text_color="color", text_align="center",
                text_baseline="bottom", text_font_size="11px")  # V1.. as the readout and the control name them
        for p, name in enumerate(levels.page_names):  # legend entries for the page colours
            p1.line([np.nan], [np.nan], color=_page_color(levels, p), line_width=2,
                    legend_label=f"read point sensed by {name}")
        legend_below(p1, 2, **CELL_LEGEND)
        p2 = new_figure("Raw bit error rate per page type", "page type", "RBER (bit errors per bit read)",
                        height=260, x_range=list(levels.page_names), y_axis_type="log", y_range=(1e-10, 1.0),
                        tooltips=[("page", "@page"), ("RBER", "@rber{0.0e}"), ("factory refs", "@base{0.0e}")])
        p2.vbar(x="page", top="rber", bottom=1e-12, width=0.6, source=rber, color="color", alpha=0.8)
        p2.scatter("page", "base", source=rber, marker="dash", size=40, color="black", line_width=2,
                   legend_label="at the factory read points")
        style_legend(p2, "top_left")
        return summary_column(data, p1, p2, targets={"refs": refs, "mis": mis, "rber": rber})

    return Explorable(compute, figure, [
        Control("ref", "Read point to move", ref_names, "all", fmt="{}"),
        Control("shift", "Shift (normalized units)", SHIFTS, 0, live_values=tuple(range(-40, 41))),
    ])


# --------------------------------------------------------------------------------------------
# Chapter 3: wear, retention, read disturb and read-retry
# --------------------------------------------------------------------------------------------


def _per_page_rber(model, pe, days, reads):
    """(retry, factory) RBER per page type; NaN once wear has pushed a state past its neighbour."""
    d = vth_distributions(model, pe, days, reads)
    if np.any(np.diff(d.means) <= 0.0):
        nan = np.full(model.levels.bits, np.nan)
        return nan, nan
    return rber_analytic(d, optimal_read_refs(d)).rber, rber_analytic(d).rber


def _worst_retry(model, pe, days, reads=0.0) -> float:
    """Worst page type's read-retry RBER; 0.5 (data lost) once states have crossed."""
    r = _per_page_rber(model, pe, days, reads)[0]
    return 0.5 if np.isnan(r).any() else float(r.max())


def wear(tech: Technology = TLC_1XNM, pe_values=(0, 250, 500, 1000, 1500, 2000, 3000),
         days_values=(0, 1, 30, 365, 1095), reads_values=(0, 10_000, 100_000, 1_000_000)) -> Explorable:
    """Cycle a block: P/E cycles, days of retention and reads since programming -> Vth
    distributions with factory and read-retry read points, RBER per page type against the ECC
    limit, and the endurance point at this retention and read count."""
    model = tech.vth
    levels = model.levels
    code = tech.ecc
    limit = correctable_rber(code, UBER_CLIENT)
    v = np.linspace(-250.0, 520.0, 260)
    pe_max = 3.0 * tech.rated_pe
    pe_curve = np.linspace(0.0, pe_max, 31)
    factory = default_read_refs(model)

    @lru_cache(maxsize=256)
    def curve(days, reads):
        retry, fact = zip(*(_per_page_rber(model, c, days, reads) for c in pe_curve))
        life = endurance_pe_cycles(model, code, days, reads, UBER_CLIENT, max_cycles=1e6)
        return np.array(retry), np.array(fact), life

    def compute(pe, days, reads):
        d = vth_distributions(model, pe, days, reads)
        retry, fact, life = curve(days, reads)
        r_now, f_now = _per_page_rber(model, pe, days, reads)
        ok = not np.isnan(r_now).any()
        opt = optimal_read_refs(d) if ok else factory
        cols = {"pe": pe_curve}
        for p in range(levels.bits):
            cols[f"r{p}"] = np.maximum(retry[:, p], 1e-12)
            cols[f"f{p}"] = np.maximum(fact[:, p], 1e-12)
        worst = float(np.nanmax(r_now)) if ok else 0.5
        u = float(uber(min(worst, 0.5), code)[0])
        verdict = (f"<b style='color:{text_colour(PALETTE[2])}'>within</b>" if worst <= limit
                   else f"<b style='color:{text_colour(PALETTE[3])}'>beyond</b>")
        rec = float(np.max(1.0 - r_now / np.where(f_now > 0, f_now, 1.0))) if ok else 0.0
        retry_txt = (f"read-retry removes up to {100 * rec:.0f}% of a page's errors" if rec >= 0.01
                     else "the factory read points are still as good as any")
        rows = ", ".join(f'<span style="color:{text_colour(_page_color(levels, p))}"><b>{n}</b></span> {f:.1e} &rarr; {r:.1e}'
                         for p, (n, f, r) in enumerate(zip(levels.page_names, f_now, r_now)))
        life_txt = (f"<b>{life:,.0f} P/E cycles</b>" if life > 0
                    else "<b>0 cycles</b>: even fresh cells exceed the limit")
        text = (
            f"{tech.name} after <b>{pe:,} P/E cycles</b>, {days:g} days, {reads:,} reads. "
            + (f"RBER per page, factory &rarr; read-retry read points: {rows} "
               f"({retry_txt}). Worst page {worst:.1e}, "
               f"{verdict} what BCH t={code.t} per {code.codeword_bytes} B corrects at UBER 10<sup>-15</sup> "
               f"({limit:.1e}); UBER {u:.0e}. " if ok else
               "The states have run into each other: the data is lost. ")
            + f"Endurance at this retention and read count: {life_txt}."
        )
        return {
            "density": _density_columns(d, v, levels.n_states, log=True),
            "factory": _ref_segments(levels, factory, 0.1, FLOOR, widths=np.full(factory.size, 1.5)),
            "optimal": _ref_segments(levels, opt, 0.1, FLOOR, widths=np.full(factory.size, 2.5)),
            "curve": cols,
            "now": {"pe": np.full(levels.bits, float(pe)), "rber": np.maximum(np.nan_to_num(r_now, nan=0.5), 1e-12),
                    "color": [_page_color(levels, p) for p in range(levels.bits)]},
            "life": {"x": [life, life], "y": [1e-10, 1.0]},
            "summary": summary_html(text),
        }

    def figure(data):
        src = {k: ColumnDataSource(data[k]) for k in ("density", "factory", "optimal", "curve", "now", "life")}
        p1 = new_figure(f"{levels.name} threshold-voltage states (log scale)", VTH_LABEL,
                        "density (fraction of cells per unit)", height=320, y_axis_type="log",
                        x_range=(-250, 520), y_range=(1e-7, 0.1), tooltips=[("Vth", "$x{0}")])
        for s in range(levels.n_states):
            p1.varea(x="v", y1=FLOOR, y2=f"s{s}", source=src["density"], color=_state_color(s), alpha=0.25)
            p1.line("v", f"s{s}", source=src["density"], color=_state_color(s), line_width=2)
        p1.segment("x0", "y0", "x1", "y1", source=src["factory"], color="gray", line_width="width",
                   line_dash="dashed", legend_label="factory read points")
        retry = p1.segment("x0", "y0", "x1", "y1", source=src["optimal"], color="color", line_width="width")
        # The legend draws each of an item's renderers in turn: the last, a black sample, covers the
        # segments' sample (their first row's colour; the lines take their page's colour).
        sample = p1.line([np.nan], [np.nan], color="black", line_width=2.5)
        p1.legend[0].items.append(LegendItem(label="read-retry read points (page colours)", renderers=[retry, sample]))
        legend_below(p1, 2, **CELL_LEGEND)
        p2 = new_figure("RBER per page type as the block wears", "P/E cycles",
                        "RBER (bit errors per bit read)", height=320, y_axis_type="log", y_range=(1e-9, 0.1),
                        x_range=(0, pe_max), tooltips=[("P/E", "@pe{0}")])
        for p, name in enumerate(levels.page_names):
            c = _page_color(levels, p)
            p2.line("pe", f"r{p}", source=src["curve"], color=c, line_width=2, legend_label=f"{name} read-retry")
            p2.line("pe", f"f{p}", source=src["curve"], color=c, line_width=1.5, line_dash="dashed",
                    legend_label=f"{name} factory")
        p2.scatter("pe", "rber", source=src["now"], color="color", size=11, line_color="black")
        p2.line([0.0, pe_max], [limit, limit], color=REFERENCE, line_width=2, line_dash="dotdash",
                legend_label="ECC limit")
        p2.line("x", "y", source=src["life"], color=REFERENCE, line_width=2, legend_label="endurance")
        legend_below(p2, 2, **CELL_LEGEND)
        return summary_column(data, p1, p2, targets=src)

    return Explorable(compute, figure, [
        Control("pe", "P/E cycles", tuple(pe_values), 0,
                live_values=tuple(range(0, int(pe_max) + 1, int(pe_max) // 60)), fmt="{:,}"),
        Control("days", "Retention (days since programming)", tuple(days_values), 0,
                live_values=(0, 1, 3, 7, 14, 30, 60, 90, 180, 365, 730, 1095, 1825)),
        Control("reads", "Reads of the block since programming", tuple(reads_values), 0,
                live_values=(0, 1000, 3000, 10_000, 30_000, 100_000, 300_000, 1_000_000, 3_000_000), fmt="{:,}"),
    ])


# --------------------------------------------------------------------------------------------
# Chapter 3: the TLC preset beside Cai et al.'s measured table
# --------------------------------------------------------------------------------------------

#: Width of the group of a state's markers on the calibration figure's deviation plot (one table
#: column each, side by side; the states are 1 apart).
CALIBRATION_SPREAD = 0.5


def cai_calibration(tech: Technology = TLC_1XNM) -> StaticExplorable:
    """``tech``'s Vth model beside Cai et al. 2017's measured TLC table
    (:func:`flashlab.cell.cai2017_comparison`). Top: each state's mean shift from its fresh mean
    after 3,000 P/E cycles and after 2,000 with 1 day and 1 year of retention, measured (dots)
    and modelled (lines). Bottom: model minus measurement for every entry of the table (means
    and sigmas), inside the band the tests allow."""
    check_instance("tech", tech, Technology)
    table = cai2017_comparison(tech.vth)
    states = np.arange(len(table.states), dtype=float)
    fresh = table.columns.index("mean_pe0")
    labels = [f"{q} after {pe:,.0f} P/E, {days:g} d" for q, pe, days in
              zip(table.quantity, table.pe_cycles, table.retention_days)]
    x_range = (-0.5, states[-1] + 0.5)  # both plots: one state per unit, the same place in each
    p1 = new_figure("State means: shift since fresh, Cai et al. (dots) and model (lines)", "state",
                    "mean shift (normalized units)", height=300, x_range=x_range,
                    tooltips=[("", "@who, @label"), ("state", "@state"), ("shift", "@y{0.0}")])
    shifted = [i for i, q in enumerate(table.quantity) if q == "mean" and i != fresh]
    for i in shifted:
        colour = PALETTE[i]
        common = {"x": states, "state": list(table.states), "label": [labels[i]] * states.size}
        model = ColumnDataSource({**common, "who": ["model"] * states.size,
                                  "y": table.modelled[i] - table.modelled[fresh]})
        measured = ColumnDataSource({**common, "who": ["Cai et al."] * states.size,
                                     "y": table.measured[i] - table.measured[fresh]})
        p1.line("x", "y", source=model, color=colour, line_width=2)
        p1.scatter("x", "y", source=measured, color=colour, size=9, line_color="black",
                   legend_label=labels[i].removeprefix("mean after "))
    legend_below(p1, 2, **CELL_LEGEND)
    n = len(table.columns)
    offsets = CALIBRATION_SPREAD * (np.arange(n) / (n - 1) - 0.5)  # one column's markers beside the next's
    p2 = new_figure("Model minus measurement, every entry of the table", "state",
                    "model - measured (normalized units)", height=300, x_range=x_range,
                    y_range=(-1.25 * CAI2017_TOLERANCE_UNITS, 1.25 * CAI2017_TOLERANCE_UNITS),
                    tooltips=[("", "@label"), ("state", "@state"), ("Cai et al.", "@measured{0.0}"),
                              ("model", "@model{0.0}")])
    p2.varea(x=list(x_range), y1=-CAI2017_TOLERANCE_UNITS, y2=CAI2017_TOLERANCE_UNITS,
             color="gray", alpha=0.15, legend_label="what the tests allow")
    for i in range(n):
        src = ColumnDataSource({"x": states + offsets[i], "y": table.deviation[i], "state": list(table.states),
                                "label": [labels[i]] * states.size, "measured": table.measured[i],
                                "model": table.modelled[i]})
        p2.scatter("x", "y", source=src, color=PALETTE[i], size=8, line_color="black",
                   marker="circle" if table.quantity[i] == "mean" else "square", legend_label=labels[i])
    legend_below(p2, 2, **CELL_LEGEND)
    for p in (p1, p2):
        p.xaxis.ticker = FixedTicker(ticks=list(states), minor_ticks=[])
        p.xaxis.major_label_overrides = {int(x): s for x, s in zip(states, table.states)}
    return StaticExplorable(column(p1, p2, sizing_mode="stretch_width"), 1)


# --------------------------------------------------------------------------------------------
# Chapter 3: ECC strength
# --------------------------------------------------------------------------------------------

#: Bottom of the UBER axis; UBER below it is not drawn.
UBER_FLOOR = 1e-30
#: The UBER axis's labelled ticks: every fifth decade from the floor, which puts one at the JESD218
#: client target (1e-15); the automatic log ticks over its 28 decades fell every fourth decade,
#: missed the target, and crowded their minor ticks into a black smudge at each label.
UBER_TICKS = tuple(10.0 ** e for e in range(-30, -1, 5))


def ecc_strength(tech: Technology = TLC_1XNM, t_values=(8, 16, 24, 40, 60, 80, 120), codeword_bytes: int = 1024,
                 retention_days: float = 365.0) -> Explorable:
    """Pick how many bits a BCH code corrects per codeword: UBER against RBER, the largest RBER
    it tolerates at the JESD218 client target, the parity it costs and the endurance it buys."""
    model = tech.vth
    rber_axis = np.logspace(-6, -1.5, 120)
    pe_curve = np.linspace(0.0, 3.0 * tech.rated_pe, 31)
    worst = np.array([_worst_retry(model, c, retention_days) for c in pe_curve])

    def compute(t):
        code = EccCode(t, codeword_bytes)
        limit = correctable_rber(code, UBER_CLIENT)
        life = endurance_pe_cycles(model, code, retention_days, target_uber=UBER_CLIENT, max_cycles=1e6)
        u = uber(rber_axis, code)
        return {
            # UBER under the axis floor is not drawn (clipped, it would run along the floor as a value).
            "uber": {"rber": rber_axis, "uber": np.where(u >= UBER_FLOOR, u, np.nan)},
            "limit_u": {"x": [limit, limit], "y": [UBER_FLOOR, 1.0]},
            "limit_r": {"x": [0.0, pe_curve[-1]], "y": [limit, limit]},
            "life": {"x": [life, life], "y": [1e-7, 0.1]},
            "summary": summary_html(
                f"BCH correcting <b>t = {t}</b> bits per {codeword_bytes} B codeword: {code.parity_bits} parity bits "
                f"(<b>{100 * code.parity_bits / code.data_bits:.1f}%</b> of the data). It keeps UBER at or below "
                f"10<sup>-15</sup> up to RBER <b>{limit:.1e}</b>; {tech.name} data kept {retention_days:g} days "
                f"reaches that after <b>{life:,.0f} P/E cycles</b>."
            ),
        }

    def figure(data):
        src = {k: ColumnDataSource(data[k]) for k in ("uber", "limit_u", "limit_r", "life")}
        p1 = new_figure("Uncorrectable errors after ECC", "raw bit error rate (RBER)", "UBER (errors per bit read)",
                        height=280, x_axis_type="log", y_axis_type="log", y_range=(UBER_FLOOR, 1e-2),
                        tooltips=[("RBER", "@rber{0.0e}"), ("UBER", "@uber{0.0e}")])
        p1.yaxis.ticker = FixedTicker(ticks=list(UBER_TICKS), minor_ticks=[10.0 ** e for e in range(-30, -1)])
        p1.line("rber", "uber", source=src["uber"], color=PROGRAMMED, line_width=2, legend_label="UBER")
        p1.line(rber_axis[[0, -1]], [UBER_CLIENT, UBER_CLIENT], color="gray", line_width=1.5, line_dash="dashed",
                legend_label="UBER target (JESD218 client)")
        p1.line("x", "y", source=src["limit_u"], color=REFERENCE, line_width=2, legend_label="correctable RBER")
        legend_below(p1, 3, **CELL_LEGEND)
        p2 = new_figure(f"Worst page RBER after {retention_days:g} days (read-retry)", "P/E cycles",
                        "RBER (bit errors per bit read)", height=280, y_axis_type="log", y_range=(1e-7, 0.1),
                        x_range=(0, pe_curve[-1]))
        p2.line(pe_curve, np.maximum(worst, 1e-12), color=PROGRAMMED, line_width=2, legend_label="worst page")
        p2.line("x", "y", source=src["limit_r"], color=REFERENCE, line_dash="dotdash", line_width=2,
                legend_label="ECC limit")
        p2.line("x", "y", source=src["life"], color=HIGHLIGHT, line_width=2, legend_label="endurance")
        legend_below(p2, 3, **CELL_LEGEND)
        return summary_column(data, p1, p2, targets=src)

    return Explorable(compute, figure, [
        Control("t", f"Bits corrected per {codeword_bytes} B codeword (t)", tuple(t_values), 40,
                live_values=tuple(range(4, 161, 4))),
    ])


# --------------------------------------------------------------------------------------------
# Chapter 3: soft reads for LDPC, what they buy and what they cost
# --------------------------------------------------------------------------------------------

#: Soft senses per read point of the soft-decoding explorable: hard, then the two fallbacks.
SOFT_STEPS = (0, 2, 6)
#: Lowest frame error rate drawn (200 frames resolve 1 in 200).
FER_FLOOR = 1e-3


def soft_read_curves(code: LdpcCode | None = None, frames: int = 200, seed: int = 1) -> dict[int, FerCurve]:
    """The LDPC frame error rate against RBER for each of :data:`SOFT_STEPS` (several seconds: the
    decoder runs ``frames`` frames at up to seven RBERs per curve, from where it starts to fail to
    where every frame fails)."""
    code = LdpcCode() if code is None else check_instance("code", code, LdpcCode)
    grids = {0: (2e-3, 1.6e-2), 2: (7e-3, 2.8e-2), 6: (9e-3, 3.6e-2)}
    return {k: fer_curve(code, k, np.geomspace(*grids[k], 7), frames, seed) for k in SOFT_STEPS}


def soft_decoding(curves: dict | None = None, tech: Technology = TLC_1XNM, retention_days: float = 365.0,
                  pe_values=tuple(range(0, 3001, 250))) -> Explorable:
    """Wear a block and read it hard first, falling back to 2 and then 6 soft senses when the
    LDPC decoder fails: the frame error rate of each step at the worst page's RBER and the mean
    read latency it costs. ``curves``: :func:`soft_read_curves` (computed if not given; the
    Monte Carlo runs once, the slider only interpolates)."""
    curves = soft_read_curves() if curves is None else curves
    if set(curves) != set(SOFT_STEPS) or not all(isinstance(c, FerCurve) for c in curves.values()):
        raise ValueError(f"curves must map soft senses {SOFT_STEPS} to FerCurve results (soft_read_curves)")
    bch = LdpcCode().same_overhead_bch()
    # mean over page types of the read at 1, 3 and 7 sensing levels per read point
    lat = {k: float(soft_read_latency_us(tech.timing, k + 1).mean()) for k in SOFT_STEPS}
    rber_axis = np.geomspace(1e-3, 3e-2, 80)
    pe_curve = np.linspace(0.0, max(pe_values), 61)

    def worst(pe):
        return _worst_retry(tech.vth, pe, retention_days)

    def steps(rber):
        # a frame the soft read cannot decode fails the hard read too (the tests check it), so the
        # share of reads that reach each fallback is the previous step's frame error rate
        fer = {k: float(curves[k].fer_at(rber)[0]) for k in SOFT_STEPS}
        return fer, lat[0] + fer[0] * lat[2] + fer[2] * lat[6]

    mean_curve = np.array([steps(worst(c))[1] for c in pe_curve])

    def compute(pe):
        rber = worst(pe)
        fer, mean = steps(rber)
        lost = fer[6]
        return {
            "now": {"x": [rber, rber], "y": [FER_FLOOR, 1.0]},
            "here": {"pe": [pe], "latency": [mean]},
            "summary": summary_html(
                f"After <b>{pe:,.0f} P/E cycles</b> and {retention_days:g} days the worst page's RBER is "
                f"<b>{rber:.1e}</b>. The hard read ({lat[0]:.0f} &micro;s) fails to decode "
                f"<b>{100 * fer[0]:.1f}%</b> of frames, which are read again with 2 soft senses ({lat[2]:.0f} "
                f"&micro;s); {100 * fer[2]:.1f}% of all frames fail that too and take a read with 6 ({lat[6]:.0f} "
                f"&micro;s), and {100 * lost:.1f}% fail even then. Mean read latency, hard first and soft on "
                f"failure: <b>{mean:.0f} &micro;s</b>. (Frame error rates from "
                f"{curves[0].frames} simulated frames per point, interpolated.)"
            ),
        }

    def figure(data):
        src = {k: ColumnDataSource(data[k]) for k in ("now", "here")}
        p1 = new_figure("LDPC frame error rate by soft senses", "raw bit error rate (RBER)",
                        "frame error rate (FER)", height=300, x_axis_type="log", y_axis_type="log",
                        x_range=(1e-3, 3e-2), y_range=(FER_FLOOR, 1.0),
                        tooltips=[("RBER", "@rber{0.0e}"), ("FER", "@fer{0.000}")])
        for k, colour, marker in zip(SOFT_STEPS, (PALETTE[0], PALETTE[1], PALETTE[2]), ("circle", "square", "triangle")):
            c = curves[k]
            cols = {"rber": c.rber, "fer": np.where(c.fer > 0.0, c.fer, np.nan)}
            label = "hard read" if k == 0 else f"{k} soft senses"
            p1.line("rber", "fer", source=ColumnDataSource(cols), color=colour, line_width=2, legend_label=label)
            p1.scatter("rber", "fer", source=ColumnDataSource(cols), color=colour, size=7, marker=marker,
                       legend_label=label)
        bch_fer = codeword_failure_probability(rber_axis, bch.n_bits, bch.t)
        p1.line(rber_axis, np.where(bch_fer >= FER_FLOOR, bch_fer, np.nan), color=ERASED, line_width=2,
                line_dash="dashed", legend_label=f"BCH t={bch.t}, same parity")
        p1.line("x", "y", source=src["now"], color=REFERENCE, line_width=2, line_dash="dotdash",
                legend_label="worst page now")
        legend_below(p1, 3, **CELL_LEGEND)
        p2 = new_figure(f"Mean read latency after {retention_days:g} days", "P/E cycles", "mean read latency (µs)",
                        height=260, x_range=(0, pe_curve[-1]),
                        tooltips=[("P/E", "@pe{0,0}"), ("latency (µs)", "@latency{0}")])
        p2.line(pe_curve, mean_curve, color=PROGRAMMED, line_width=2, legend_label="hard first, soft on failure")
        p2.line(pe_curve[[0, -1]], [lat[6], lat[6]], color=ERASED, line_width=1.5, line_dash="dashed",
                legend_label="one read with 6 soft senses")
        p2.scatter("pe", "latency", source=src["here"], color=HIGHLIGHT, size=14, marker="diamond",
                   legend_label="this block")
        legend_below(p2, 3, **CELL_LEGEND)
        return summary_column(data, p1, p2, targets=src)

    return Explorable(compute, figure, [
        Control("pe", "P/E cycles the block has seen", tuple(pe_values), 1500,
                live_values=tuple(range(0, int(max(pe_values)) + 1, 50)), fmt="{:,.0f}"),
    ])


# --------------------------------------------------------------------------------------------
# Chapter 3: eMLC, slower programming for longer life
# --------------------------------------------------------------------------------------------


def gentle_programming_trade(tech: Technology = MLC_2YNM, scales=(0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0),
                             retention_days: float = 365.0) -> Explorable:
    """Scale the ISPP step of ``tech`` (eMLC: smaller steps, slower programs, less oxide damage per
    cycle): program time against endurance, and the worst page's RBER as the block wears."""
    code = tech.ecc
    limit = correctable_rber(code, UBER_CLIENT)
    pe_curve = np.logspace(2, 5, 31)
    fine = np.round(np.arange(0.3, 1.001, 0.05), 2)

    @lru_cache(maxsize=1)
    def trade():
        return program_endurance_trade(tech.vth, tech.timing, code, fine, retention_days)

    def worst_curve(model):
        return np.array([_worst_retry(model, c, retention_days) for c in pe_curve])

    base = worst_curve(tech.vth)
    # The default search range, as the chapter's pinned cells use, so the summary quotes their numbers.
    base_life = endurance_pe_cycles(tech.vth, code, retention_days)

    def compute(scale):
        model, timing = gentle_programming(tech.vth, tech.timing, scale)
        life = endurance_pe_cycles(model, code, retention_days)
        tr = trade()
        return {
            "here": {"prog": [timing.mean_prog_us], "life": [life]},
            "worst": {"pe": pe_curve, "rber": np.nan_to_num(np.maximum(worst_curve(model), 1e-12), nan=0.5)},
            "life": {"x": [life, life], "y": [1e-9, 0.1]},
            "trade": {"prog": tr.mean_prog_us, "life": tr.endurance_pe, "scale": tr.step_scale},
            "summary": summary_html(
                f"ISPP step &times; <b>{scale:g}</b>: program time per page "
                f"{', '.join(f'{t:.0f}' for t in timing.t_prog_us)} &micro;s (mean <b>{timing.mean_prog_us:.0f} "
                f"&micro;s</b>, {1 / scale:.1f}&times; slower), damage per cycle &times;{model.wear_rate / tech.vth.wear_rate:.2f}, "
                f"programmed &sigma; {model.sigma_programmed:.1f} units. Endurance at {retention_days:g} days: "
                f"<b>{life:,.0f} P/E cycles</b> ({life / base_life:.1f}&times; the standard part's {base_life:,.0f})."
            ),
        }

    def figure(data):
        src = {k: ColumnDataSource(data[k]) for k in ("here", "worst", "life", "trade")}
        p1 = new_figure("Slower programming buys endurance", "mean page program time (µs)",
                        "endurance (P/E cycles)", height=280, y_axis_type="log",
                        tooltips=[("step ×", "@scale"), ("program (µs)", "@prog{0}"), ("P/E", "@life{0}")])
        p1.line("prog", "life", source=src["trade"], color=PROGRAMMED, line_width=2)
        p1.scatter("prog", "life", source=src["trade"], color=PROGRAMMED, size=6, legend_label="ISPP step × 0.3 .. 1")
        p1.scatter("prog", "life", source=src["here"], color=HIGHLIGHT, size=15, marker="diamond",
                   legend_label="this step")
        style_legend(p1, "bottom_right")
        # Plain P/E counts on the log axis (its own ticker labels only two decades, as 1.000e+5).
        label_ticks(p1.yaxis, (1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000, 200_000), "0,0")
        p2 = new_figure(f"Worst page RBER after {retention_days:g} days (read-retry)", "P/E cycles",
                        "RBER (bit errors per bit read)", height=280, x_axis_type="log", y_axis_type="log",
                        y_range=(1e-9, 0.1), x_range=(100, 1e5))
        p2.line(pe_curve, np.maximum(base, 1e-12), color=ERASED, line_width=2, line_dash="dashed",
                legend_label=f"{tech.name}, standard step")
        p2.line("pe", "rber", source=src["worst"], color=PROGRAMMED, line_width=2, legend_label="this step")
        p2.line([100.0, 1e5], [limit, limit], color=REFERENCE, line_dash="dotdash", line_width=2, legend_label="ECC limit")
        p2.line("x", "y", source=src["life"], color=HIGHLIGHT, line_width=2, legend_label="endurance")
        legend_below(p2, 4, **CELL_LEGEND)
        return summary_column(data, p1, p2, targets=src)

    return Explorable(compute, figure, [
        Control("scale", "ISPP step (× the standard part's)", tuple(scales), 0.5,
                live_values=tuple(float(s) for s in fine)),
    ])


#: Activation energies of the bake-test explorable, eV: JESD218 practice (1.1) and two lower ones,
#: near what Hetzler's measured SSDs imply (about 0.4).
BAKE_EA = (0.4, 0.8, 1.1)


def bake_test(tech: Technology = TLC_1XNM, pe_cycles: float = 1000.0, use_c: float = 40.0,
              bake_values=(70.0, 85.0, 100.0, 125.0)) -> Explorable:
    """Choose a bake temperature and an activation energy: the retention at ``use_c`` each bake
    length stands for (Arrhenius, :mod:`flashlab.cell.temperature`), for every activation energy
    with the chosen one highlighted, and the worst-page RBER ``tech`` shows after ``pe_cycles``
    and a 100-hour bake, read as that retention."""
    from ..cell.ecc import worst_page_rber
    from ..cell.temperature import equivalent_hours

    hours = np.geomspace(1.0, 1000.0, 61)
    limit = correctable_rber(tech.ecc, UBER_CLIENT)

    def compute(bake_c, ea):
        lines = {f"y{i}": np.array([equivalent_hours(h, bake_c, use_c, e) for h in hours]) / 8766.0
                 for i, e in enumerate(BAKE_EA)}
        years = equivalent_hours(100.0, bake_c, use_c, ea) / 8766.0
        rber = worst_page_rber(tech.vth, pe_cycles, min(365.25 * years, 1e5))
        text = (f"A <b>100-hour bake at {bake_c:g} °C</b> stands for <b>{years:,.2g} years at {use_c:g} °C</b> "
                f"if retention loss has an activation energy of {ea:g} eV. Read that way, the {tech.name} "
                f"after {pe_cycles:,.0f} P/E shows worst-page RBER <b>{rber:.1e}</b> (its ECC corrects "
                f"{limit:.1e}). The same bake read with the other energies: "
                + ", ".join(f"{equivalent_hours(100.0, bake_c, use_c, e) / 8766.0:,.2g} years at {e:g} eV"
                            for e in BAKE_EA if e != ea) + ".")
        return {"lines": {"hours": hours, **lines, "now": lines[f"y{BAKE_EA.index(ea)}"]},
                "summary": summary_html(text)}

    def figure(data):
        src = {"lines": ColumnDataSource(data["lines"])}
        p = new_figure(f"Retention at {use_c:g} °C a bake stands for", "bake length (hours)",
                       f"equivalent years at {use_c:g} °C", height=300, x_axis_type="log", y_axis_type="log",
                       y_range=(1e-4, 1e5), tooltips=[("bake", "@hours{0} h"), ("years", "@now{0.00}")])
        for i, e in enumerate(BAKE_EA):
            p.line("hours", f"y{i}", source=src["lines"], color=PALETTE[i + 1], line_width=1.5,
                   line_dash=("dashed", "dotted", "dashdot")[i], legend_label=f"Ea {e:g} eV")
        p.line("hours", "now", source=src["lines"], color=HIGHLIGHT, line_width=4, alpha=0.6,
               legend_label="chosen energy")
        legend_below(p, 2, **CELL_LEGEND)
        return summary_column(data, p, targets=src)

    return Explorable(compute, figure, [
        Control("bake_c", "Bake temperature (°C)", tuple(bake_values), 85.0, fmt="{:g} °C"),
        Control("ea", "Activation energy (eV)", BAKE_EA, 1.1, fmt="{:g} eV"),
    ])
