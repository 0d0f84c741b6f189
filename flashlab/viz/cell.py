"""Explorables for the floating-gate cell: one cell under ISPP and a whole page (chapter 1), and
the program disturb of a block's erased cells (chapter 3).

Each function returns an :class:`~flashlab.viz.explorable.Explorable`; call ``.static()`` for
the HTML book or ``.live()`` in a kernel.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from bokeh.models import ColumnDataSource, Span

from ..cell.floating_gate import FG_CELL_2XNM, FloatingGateCell
from ..cell.ispp import ISPE_2XNM, ISPP_SLC_2XNM, CellVariation, IsppParams, erase_block, program_cell, program_page
from ..cell.program_disturb import BOOSTING_2XNM, ORDERS, SelfBoosting, program_disturb
from .explorable import Control, Explorable
from .style import ERASED, HIGHLIGHT, PROGRAMMED, REFERENCE, new_figure, style_legend, summary_column, summary_html

#: Pulse and verify lengths used by the chapter's explorables (s): 10 us each, the order of
#: NAND ISPP loops (Suh et al. 1995).
T_PULSE, T_VERIFY = 10e-6, 10e-6
#: Erased threshold the chapter's cells start from (V).
VTH_ERASED = -3.0


def pulse_a_cell(cell: FloatingGateCell = FG_CELL_2XNM, max_pulses: int = 120) -> Explorable:
    """ISPP on one cell: start voltage, step and verify level -> Vth and electrons per pulse."""

    def compute(v_start, v_step, v_verify):
        ispp = IsppParams(v_start, v_step, v_verify, max_pulses, T_PULSE, T_VERIFY)
        tr = program_cell(cell, ispp, vth0=VTH_ERASED)
        pulse = np.arange(tr.n_pulses + 1)
        vth = np.concatenate([[tr.vth0], tr.vth])
        electrons = np.concatenate([cell.electrons(np.array([tr.vth0])), tr.electrons])
        dvth = np.concatenate([[np.nan], np.diff(vth)])
        v_pulse = np.concatenate([[np.nan], tr.v_pulse])
        status = "passed verify" if tr.passed else f"<b>did not verify</b> within {max_pulses} pulses"
        return {
            "trace": {"pulse": pulse, "vth": vth, "electrons": electrons, "dvth": dvth, "v_pulse": v_pulse},
            "verify": {"x": [0.0, max(tr.n_pulses, 1) + 0.5], "y": [v_verify, v_verify]},
            "summary": summary_html(
                f"<b>{tr.n_pulses} pulses</b> ({tr.time_us:.0f} &micro;s of pulse + verify); the cell {status} "
                f"at V<sub>th</sub> = {tr.vth[-1]:.2f} V with {tr.electrons[-1]:.0f} electrons on its floating "
                f"gate. The last pulse raised V<sub>th</sub> by {dvth[-1]:.2f} V for a {v_step:g} V step."
            ),
        }

    def figure(data):
        trace = ColumnDataSource(data["trace"])
        verify = ColumnDataSource(data["verify"])
        tips = [("pulse", "@pulse"), ("Vpgm (V)", "@v_pulse{0.00}"), ("Vth (V)", "@vth{0.00}"),
                ("electrons", "@electrons{0}"), ("ΔVth (V)", "@dvth{0.00}")]
        p1 = new_figure("Threshold voltage after each pulse", "pulse number", "Vth (V)", tooltips=tips)
        p1.line("pulse", "vth", source=trace, color=PROGRAMMED, line_width=2, legend_label="Vth")
        p1.scatter("pulse", "vth", source=trace, color=PROGRAMMED, size=7)
        p1.line("x", "y", source=verify, color=REFERENCE, line_dash="dashed", line_width=2,
                legend_label="verify level")
        style_legend(p1, "bottom_right")
        p2 = new_figure("Electrons on the floating gate (negative: erased below neutral)", "pulse number",
                        "electrons stored", height=260, tooltips=tips)
        p2.vbar(x="pulse", top="electrons", source=trace, width=0.7, color=HIGHLIGHT)
        return summary_column(data, p1, p2, targets={"trace": trace, "verify": verify})

    return Explorable(
        compute,
        figure,
        [
            Control("v_start", "Start voltage (V)", (14.0, 15.0, 16.0, 17.0, 18.0), 16.0,
                    live_values=tuple(np.round(np.arange(14.0, 18.01, 0.25), 2))),
            Control("v_step", "Step (V)", (0.2, 0.3, 0.5, 0.7, 1.0), 0.5,
                    live_values=tuple(np.round(np.arange(0.1, 1.01, 0.05), 2))),
            Control("v_verify", "Verify level (V)", (1.0, 2.0, 3.0), 2.0,
                    live_values=tuple(np.round(np.arange(0.0, 4.01, 0.25), 2))),
        ],
    )


def program_a_page(
    cell: FloatingGateCell = FG_CELL_2XNM,
    n_cells: int = 1_000_000,
    seed: int = 1,
    v_start: float = 16.5,
    v_verify: float = 1.5,
    max_pulses: int = 300,
) -> Explorable:
    """ISPP on a page of ``n_cells`` cells that differ in oxide, coupling and erased Vth.

    Controls: ISPP step (V) and the cell-to-cell spread of tunnel-oxide thickness. Shows the Vth
    histogram before and after programming, and the width/time trade-off across steps.
    """
    steps = (0.1, 0.2, 0.3, 0.5, 0.8)

    @lru_cache(maxsize=64)
    def page(v_step, sigma_tox_rel):
        ispp = IsppParams(v_start, v_step, v_verify, max_pulses, T_PULSE, T_VERIFY)
        var = CellVariation(sigma_tox_rel=sigma_tox_rel)
        return program_page(cell, ispp, n_cells, var, seed=seed, vth0=VTH_ERASED, hist_range=(-6.0, 6.0),
                            hist_bins=600)

    def compute(v_step, sigma_tox_rel):
        res = page(v_step, sigma_tox_rel)
        centres = 0.5 * (res.hist_edges[1:] + res.hist_edges[:-1])
        width = float(res.vth.std())
        spread = float(res.vth.max() - res.vth.min())
        trade = [page(s, sigma_tox_rel) for s in steps]
        failed = int(np.count_nonzero(~res.verified))
        return {
            "hist": {"v": centres, "before": res.vth_hist[0] / n_cells * 100.0,
                     "after": res.vth_hist[-1] / n_cells * 100.0},
            "trade": {"step": np.array(steps), "sigma": np.array([float(r.vth.std()) for r in trade]),
                      "time": np.array([r.time_us for r in trade])},
            "here": {"step": [v_step], "sigma": [width], "time": [res.time_us]},
            "summary": summary_html(
                f"{n_cells:,} cells, <b>{res.page_pulses} pulses</b> for the slowest cell "
                f"(page program time {res.time_us:.0f} &micro;s). Programmed V<sub>th</sub>: standard deviation "
                f"<b>{width * 1000:.0f} mV</b> (a uniform spread one step wide would give "
                f"{v_step / np.sqrt(12) * 1000:.0f} mV), full spread {spread:.2f} V"
                + (f"; {failed:,} cells failed to verify." if failed else ".")
            ),
        }

    def figure(data):
        hist = ColumnDataSource(data["hist"])
        trade = ColumnDataSource(data["trade"])
        here = ColumnDataSource(data["here"])
        p1 = new_figure("Page Vth distribution", "Vth (V)", "cells per 20 mV bin (%)", height=260,
                        x_range=(-5.5, 4.5), tooltips=[("Vth (V)", "@v{0.00}")])
        p1.varea(x="v", y1=0, y2="before", source=hist, color=ERASED, alpha=0.6, legend_label="erased")
        p1.varea(x="v", y1=0, y2="after", source=hist, color=PROGRAMMED, alpha=0.8, legend_label="programmed")
        zoom = new_figure("Programmed cells, zoomed: the width follows the step", "Vth (V)",
                          "cells per 20 mV bin (%)", height=260, x_range=(v_verify - 0.2, v_verify + 1.2),
                          tooltips=[("Vth (V)", "@v{0.00}"), ("cells (%)", "@after{0.00}")])
        zoom.vbar(x="v", top="after", source=hist, width=0.018, color=PROGRAMMED)
        for p in (p1, zoom):
            p.add_layout(Span(location=v_verify, dimension="height", line_color=REFERENCE, line_dash="dashed",
                              line_width=2))
        style_legend(p1, "top_left")
        p2 = new_figure("Step trade-off", "ISPP step (V)", "program time (µs)", height=260,
                        tooltips=[("step (V)", "@step"), ("time (µs)", "@time{0}"), ("σ (V)", "@sigma{0.000}")])
        p2.line("step", "time", source=trade, color=PROGRAMMED, line_width=2)
        p2.scatter("step", "time", source=trade, color=PROGRAMMED, size=7, legend_label="all steps")
        p2.scatter("step", "time", source=here, color=HIGHLIGHT, size=14, marker="diamond",
                   legend_label="this step")
        style_legend(p2, "top_right")
        return summary_column(data, p1, zoom, p2, targets={"hist": hist, "trade": trade, "here": here})

    return Explorable(
        compute,
        figure,
        [
            Control("v_step", "ISPP step (V)", steps, 0.3,
                    live_values=tuple(np.round(np.arange(0.1, 0.81, 0.05), 2))),
            Control("sigma_tox_rel", "Oxide-thickness spread (relative σ)", (0.01, 0.02, 0.04), 0.02,
                    fmt="{:.0%}"),
        ],
    )


#: Pass voltages the program-disturb explorable precomputes (V), and the finer ones it offers live.
VPASS_VALUES = tuple(float(v) for v in range(2, 15))
VPASS_LIVE = tuple(float(v) for v in np.round(np.arange(2.0, 14.01, 0.25), 2))
#: Other word lines of the 64-word-line block programmed since its erase (the explorable's grid).
PROGRAMS_VALUES = (0, 16, 32, 63)


def program_disturb_window(cell: FloatingGateCell = FG_CELL_2XNM, boosting: SelfBoosting = BOOSTING_2XNM,
                           n_cells: int = 20_000, seed: int = 1, read_ref: float = 0.0) -> Explorable:
    """Program an SLC block over ``n_cells`` erased cells that are to stay erased: choose the
    pass voltage, the program order and how many other word lines have been programmed; see the
    erased state's upper tail and the fail count against Vpass
    (:func:`~flashlab.cell.program_disturb`). The cells are a page programmed with
    :data:`~flashlab.cell.ISPP_SLC_2XNM` and erased with :data:`~flashlab.cell.ISPE_2XNM`; each
    word-line program takes as many loops as that page's program did."""
    page = program_page(cell, ISPP_SLC_2XNM, n_cells, seed=seed)
    erased = erase_block(cell, page.vth, ISPE_2XNM, seed=seed).vth
    pulses = page.page_pulses
    edges = np.linspace(-6.0, 3.0, 91)
    centres = 0.5 * (edges[1:] + edges[:-1])

    @lru_cache(maxsize=len(VPASS_LIVE) * len(ORDERS) * len(PROGRAMS_VALUES))
    def run(v_pass, order, programs):
        return program_disturb(cell, ISPP_SLC_2XNM, boosting, v_pass, erased, pulses, order=order,
                               programs=programs, read_ref=read_ref, seed=seed)

    def percent(vth):
        return np.histogram(vth, edges)[0] / n_cells * 100.0

    before = percent(erased)
    top_before = float(np.quantile(erased, 0.999))
    # every fail-count curve once, not per slider move
    curves = {(o, n): [run(v, o, n) for v in VPASS_VALUES] for o in ORDERS for n in PROGRAMS_VALUES}

    def compute(v_pass, order, programs):
        res = run(v_pass, order, programs)
        curve = curves[order, programs]
        clean = [v for v, r in zip(VPASS_VALUES, curve) if r.fails == 0]
        window = (f"no fail from {min(clean):g} to {max(clean):g} V" if clean
                  else "no pass voltage without fails")
        top = float(np.quantile(res.vth, 0.999))
        return {
            "hist": {"v": centres, "before": before, "after": percent(res.vth)},
            "curve": {"v_pass": np.array(VPASS_VALUES), "vpgm": np.array([r.fails_vpgm for r in curve]),
                      "vpass": np.array([r.fails_vpass for r in curve]), "total": np.array([r.fails for r in curve])},
            "here": {"v_pass": [v_pass], "total": [res.fails]},
            "summary": summary_html(
                f"V<sub>pass</sub> <b>{v_pass:g} V</b>, {order} program order, the cells' own word line and "
                f"<b>{programs}</b> others programmed: "
                f"<b>{res.fails:,}</b> of {n_cells:,} erased cells read as programmed at {read_ref:g} V "
                f"({res.fails_vpgm:,} from V<sub>pgm</sub> disturb alone, {res.fails_vpass:,} from V<sub>pass</sub> "
                f"disturb alone). The erased state's 99.9th percentile ({n_cells // 1000:,} cells lie above it) "
                f"moved from {top_before:.2f} V to <b>{top:.2f} V</b>. On the grid of pass voltages, {order} "
                f"order has {window}."
            ),
        }

    def figure(data):
        src = {k: ColumnDataSource(data[k]) for k in ("hist", "curve", "here")}
        p1 = new_figure("Erased cells before and after the programs", "Vth (V)",
                        "cells per 0.1 V bin (%)", height=260, x_range=(-6.0, 3.0),
                        tooltips=[("Vth (V)", "@v{0.00}"), ("after (%)", "@after{0.00}")])
        p1.varea(x="v", y1=0, y2="before", source=src["hist"], color=ERASED, alpha=0.5, legend_label="after erase")
        p1.line("v", "after", source=src["hist"], color=PROGRAMMED, line_width=2, legend_label="after the programs")
        p1.add_layout(Span(location=read_ref, dimension="height", line_color=REFERENCE, line_dash="dashed",
                           line_width=2))
        style_legend(p1, "top_right")
        p2 = new_figure("Fail count against the pass voltage", "Vpass (V)",
                        f"fails (of {n_cells:,} erased cells)", height=260,
                        tooltips=[("Vpass (V)", "@v_pass"), ("fails", "@total")])
        p2.line("v_pass", "vpgm", source=src["curve"], color=ERASED, line_width=2, line_dash="dashed",
                legend_label="Vpgm disturb alone")
        p2.line("v_pass", "vpass", source=src["curve"], color=PROGRAMMED, line_width=2, line_dash="dotted",
                legend_label="Vpass disturb alone")
        p2.line("v_pass", "total", source=src["curve"], color=REFERENCE, line_width=2, legend_label="both")
        p2.scatter("v_pass", "total", source=src["here"], color=HIGHLIGHT, size=14, marker="diamond",
                   legend_label="this Vpass")
        style_legend(p2, "top_center")
        return summary_column(data, p1, p2, targets=src)

    return Explorable(
        compute,
        figure,
        [
            Control("v_pass", "Pass voltage Vpass (V)", VPASS_VALUES, 8.0, live_values=VPASS_LIVE, fmt="{:g} V"),
            Control("order", "Program order within the block", ORDERS, "sequential", fmt="{}"),
            Control("programs", "Other word lines programmed", PROGRAMS_VALUES, 63, fmt="{}"),
        ],
    )

