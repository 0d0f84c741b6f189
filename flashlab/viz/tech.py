"""Explorables for geometry shrinks and 3D NAND (the chapters "Geometry shrinks" and "3D NAND").

Vth on the normalized scale of :mod:`flashlab.cell`; lengths in nm; densities in decimal Gb/mm².
Each function returns an :class:`~flashlab.viz.explorable.Explorable` (``.static()`` for the book,
``.live()`` in a kernel) or, for :func:`fab_economics`, a figure without controls.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from bokeh.layouts import column
from bokeh.models import ColumnDataSource

from ..cell.distributions import vth_distributions
from ..cell.ecc import UBER_CLIENT, correctable_rber
from ..tech import (DENSITY_POINTS, GENERATIONS_3D, MLC_2Y, QLC_96L, SLC_5X, TLC_1X, VOLTS_PER_UNIT, PlanarCell, Stack3D,
                    VerticalString, as_built, cell_model, ct_worst_rber, layer_rber, layer_sweep, shrink_returns,
                    shrink_sweep)
from .explorable import Control, Explorable, StaticExplorable
from .levels import CELL_LEGEND, FLOOR, VTH_LABEL, _density_columns, _state_color
from .style import (
    HIGHLIGHT, PALETTE, REFERENCE, label_ticks, legend_below, new_figure, summary_column, summary_html,
)

#: Planar nodes of the shrink explorable, nm (large to small).
NODES = (120.0, 90.0, 72.0, 50.0, 35.0, 25.0, 21.0, 19.0, 16.0, 14.0)
#: Cell types of the shrink explorable and the calibrated generation behind each.
SHRINK_GENERATIONS = {"SLC": SLC_5X, "MLC": MLC_2Y, "TLC": TLC_1X}
#: P/E cycles at which each cell type's RBER is compared across nodes (its rating at its node).
SHRINK_PE = {"SLC": 100_000.0, "MLC": 3000.0, "TLC": 1000.0}
#: RBER axis of the shrink explorable, fixed over its grid: the floor sits under the lowest ECC
#: limit (SLC's, 7e-10) and RBER below it is not drawn; the top is above the grid's largest (5.5e-3).
SHRINK_RBER_RANGE = (1e-10, 0.02)


def _node_axis(p, nodes=NODES):
    """Label a log feature-size axis at the node values themselves (a log ticker shows only 50, 100)."""
    label_ticks(p.xaxis, nodes, "0.[0]")


#: Interference residues of the shrink explorable: the share of the raw neighbour coupling that
#: program ordering leaves (a choice; the presets use 1.5%, TLC's calibrated width admits ~12%).
RESIDUALS = (0.015, 0.05, 0.1)


@lru_cache(maxsize=16)
def _shrink_curves(cell: str, days: float, residual: float):
    """RBER and endurance of one cell type over all NODES (cached: the live slider moves the node)."""
    gen = SHRINK_GENERATIONS[cell]
    return shrink_sweep(gen, NODES, SHRINK_PE[cell], days, endurance=True, residual=residual)


def shrink(days_values=(0.0, 365.0)) -> Explorable:
    """Slide the planar node: electrons per state and neighbour coupling (top), the Vth states of
    a cell worn to its rating with a year of retention (middle), and RBER and endurance over all
    nodes with the current node marked (bottom). The residual control sets how much of the raw
    coupling program ordering leaves."""
    v = np.linspace(-250.0, 520.0, 300)

    def compute(node, cell, days, residual):
        gen = SHRINK_GENERATIONS[cell]
        c = PlanarCell(node)
        curves = _shrink_curves(cell, days, residual)
        i = NODES.index(node)
        model = cell_model(gen, node, residual)
        d = vth_distributions(model, SHRINK_PE[cell], days)
        bits = gen.bits
        limit = correctable_rber(gen.ecc, UBER_CLIENT)
        text = (
            f"<b>{node:g} nm</b> {cell}: cell area {c.cell_area_nm2:,.0f} nm², "
            f"<b>{c.electrons_per_state(bits):.0f} electrons</b> between adjacent states "
            f"({c.electrons_per_volt:.0f} per volt), neighbour coupling <b>&gamma; = {c.coupling:.3f}</b>, "
            f"{100 * residual:g}% of it left by program ordering: fresh programmed width "
            f"<b>{curves.sigma_programmed[i]:.1f} units</b>. "
            f"After {SHRINK_PE[cell]:,.0f} P/E cycles and {days:g} days: worst-page RBER "
            f"<b>{curves.worst_rber[i]:.1e}</b> (ECC limit {limit:.1e}); endurance "
            f"<b>{curves.endurance_pe[i]:,.0f} P/E</b> with the {gen.ecc.t}-bit code of the {gen.name} preset."
        )
        rber = np.where(curves.worst_rber >= SHRINK_RBER_RANGE[0], curves.worst_rber, np.nan)
        sweep = {"node": np.array(NODES), "rber": rber, "life": curves.endurance_pe,
                 "electrons": np.array([PlanarCell(f).electrons_per_state(bits) for f in NODES]),
                 "g100": 100.0 * curves.coupling}
        return {
            "density": _density_columns(d, v, 8, log=True),
            "sweep": sweep,
            "now": {k: np.array([sweep[k][i]]) for k in sweep},
            "limit": {"node": np.array([130.0, 12.0]), "rber": np.array([limit, limit])},
            "summary": summary_html(text),
        }

    def figure(data):
        src = {k: ColumnDataSource(data[k]) for k in ("density", "sweep", "now", "limit")}
        p0 = new_figure("Electrons between adjacent states, and neighbour coupling", "feature size F (nm)",
                        "electrons per state / 100 x gamma", height=260, x_axis_type="log", y_axis_type="log",
                        x_range=(130, 12), y_range=(1, 2000), tooltips=[("F", "@node nm"), ("electrons", "@electrons{0}"),
                                                                       ("100 gamma", "@g100{0.0}")])
        p0.line("node", "electrons", source=src["sweep"], color=PALETTE[0], line_width=2, legend_label="electrons per state")
        p0.scatter("node", "electrons", source=src["now"], color=PALETTE[0], size=11, line_color="black")
        p0.line("node", "g100", source=src["sweep"], color=PALETTE[1], line_width=2, legend_label="100 x coupling gamma")
        p0.scatter("node", "g100", source=src["now"], color=PALETTE[1], size=11, line_color="black")
        legend_below(p0, 2, **CELL_LEGEND)
        p1 = new_figure("Vth states at the cell's rated P/E count (log scale)", VTH_LABEL,
                        "density (fraction per unit)", height=300, y_axis_type="log", x_range=(-250, 520),
                        y_range=(1e-7, 0.1))
        for s in range(8):
            p1.varea(x="v", y1=FLOOR, y2=f"s{s}", source=src["density"], color=_state_color(s), alpha=0.25)
            p1.line("v", f"s{s}", source=src["density"], color=_state_color(s), line_width=2)
        p2 = new_figure("RBER and endurance across nodes", "feature size F (nm)", "worst-page RBER",
                        height=300, x_axis_type="log", y_axis_type="log", x_range=(130, 12), y_range=SHRINK_RBER_RANGE,
                        tooltips=[("F", "@node nm"), ("RBER", "@rber{0.0e}"), ("endurance", "@life{0,0} P/E")])
        p2.line("node", "rber", source=src["sweep"], color=REFERENCE, line_width=2, legend_label="RBER at rated P/E")
        p2.scatter("node", "rber", source=src["now"], color=REFERENCE, size=11, line_color="black")
        p2.line("node", "rber", source=src["limit"], color="gray", line_width=2, line_dash="dotdash",
                legend_label="what the preset's ECC corrects")
        legend_below(p2, 2, **CELL_LEGEND)
        p3 = new_figure("Endurance across nodes at this retention", "feature size F (nm)",
                        "endurance (P/E cycles)", height=260, x_axis_type="log", y_axis_type="log", x_range=(130, 12),
                        tooltips=[("F", "@node nm"), ("endurance", "@life{0,0} P/E")])
        p3.line("node", "life", source=src["sweep"], color=HIGHLIGHT, line_width=2)
        p3.scatter("node", "life", source=src["now"], color=HIGHLIGHT, size=11, line_color="black")
        for p in (p0, p2, p3):
            _node_axis(p)
        # The log ticker crowds 2000..3500 and leaves 500..1000 bare; SLC's grid reaches 240,000.
        label_ticks(p3.yaxis, (300, 500, 1000, 2000, 3000, 5000, 10_000, 20_000, 50_000, 100_000, 200_000), "0,0")
        return summary_column(data, p0, p1, p2, p3, targets=src)

    return Explorable(compute, figure, [
        Control("node", "Feature size F (nm)", NODES, 19.0, fmt="{:g} nm"),
        Control("cell", "Bits per cell", tuple(SHRINK_GENERATIONS), "TLC", fmt="{}"),
        Control("days", "Retention (days since programming)", tuple(days_values), 365.0,
                live_values=(0.0, 1.0, 30.0, 365.0), fmt="{:g}"),
        Control("residual", "Coupling left after program ordering", RESIDUALS, RESIDUALS[0],
                fmt="{:.1%}"),
    ])


def fab_economics(nodes=NODES):
    """Bit cost through the planar nodes (relative to the first), each shrink's saving and the
    wafers it takes to pay back the retooling (:func:`flashlab.tech.shrink_returns`)."""
    r = shrink_returns(np.asarray(nodes, float))
    src = ColumnDataSource({"node": r.feature_nm, "bit": r.bit_cost, "wafer": r.wafer_cost,
                            "saving": 100.0 * np.nan_to_num(r.saving, nan=0.0),
                            "label": [f"{f:g}" for f in r.feature_nm]})
    p1 = new_figure("Relative cost per bit and per wafer, planar nodes", "feature size F (nm)", "relative to 120 nm",
                    height=280, x_axis_type="log", y_axis_type="log", x_range=(130, 12),
                    tooltips=[("F", "@node nm"), ("bit cost", "@bit{0.000}"), ("wafer cost", "@wafer{0.00}")])
    p1.line("node", "bit", source=src, color=PALETTE[0], line_width=2, legend_label="cost per bit")
    p1.scatter("node", "bit", source=src, color=PALETTE[0], size=8)
    p1.line("node", "wafer", source=src, color=PALETTE[3], line_width=2, legend_label="cost per wafer")
    legend_below(p1, 2, **CELL_LEGEND)
    _node_axis(p1, r.feature_nm)
    label_ticks(p1.yaxis, (0.02, 0.05, 0.1, 0.2, 0.5, 1, 1.5), "0.[00]")  # decades alone leave 14 nm's 0.02 unread
    p2 = new_figure("Bit-cost saving of each shrink", "shrink to F (nm)", "saving (%)", height=240,
                    x_range=[f"{f:g}" for f in r.feature_nm[1:]], tooltips=[("to", "@label nm"), ("saving", "@saving{0}%")])
    sub = ColumnDataSource({k: np.asarray(v)[1:] for k, v in src.data.items()})
    p2.vbar(x="label", top="saving", source=sub, width=0.7, color=PALETTE[2])
    return StaticExplorable(column(p1, p2, sizing_mode="stretch_width"), 1)


#: Outline of the bit-density figure's open circles (the model's density for each published die).
MODEL_POINT = PALETTE[7]


def stack_3d(layer_values=(24, 32, 48, 64, 96, 128, 176, 232, 321, 400, 600),
             deck_values=(1, 2, 3, 4)) -> Explorable:
    """Add layers and decks: the design point against the published densities (top), cost per
    bit against layer count for this many decks with its U-curve (bottom)."""
    grid = np.arange(16, 1001, 8)
    pts = {"layers": np.array([p.layers for p in DENSITY_POINTS]),
           "density": np.array([p.density_gb_mm2 for p in DENSITY_POINTS]),
           "model": np.array([p.stack().density_gb_mm2 for p in DENSITY_POINTS]),
           "name": [p.name for p in DENSITY_POINTS]}

    @lru_cache(maxsize=16)
    def curve(decks):
        return layer_sweep(grid, decks=decks)

    def compute(layers, decks):
        if layers < decks:
            layers = decks
        s = Stack3D(layers, decks)
        c = curve(decks)
        i = int(np.argmin(c.bit_cost))
        text = (
            f"<b>{layers} layers in {decks} deck{'s' if decks > 1 else ''}</b> (TLC, CMOS under the array): "
            f"hole {s.hole_top:.0f} nm at the top, pitch {s.hole_pitch_nm:.0f} nm, deck {s.deck_height_um:.1f} &micro;m "
            f"high; staircase {100 * s.staircase_fraction:.1f}% of the array; "
            f"<b>{s.density_gb_mm2:.1f} Gb/mm²</b>. With {decks} deck{'s' if decks > 1 else ''}, bit cost is lowest "
            f"at <b>{c.layers[i]} layers</b>."
        )
        return {
            "curve": {"layers": c.layers, "density": c.density_gb_mm2, "cost": c.bit_cost / c.bit_cost.min()},
            "now": {"layers": np.array([layers]), "density": np.array([s.density_gb_mm2]),
                    "cost": np.array([(1 + 0.012 * s.gates + 0.25 * s.decks) / s.density_gb_mm2 / c.bit_cost.min()])},
            "summary": summary_html(text),
        }

    def figure(data):
        src = {k: ColumnDataSource(data[k]) for k in ("curve", "now")}
        points = ColumnDataSource(pts)
        p1 = new_figure("Bit density: model and published dies", "active layers", "density (Gb/mm², decimal)",
                        height=300, x_range=(0, 1000), y_range=(0, 40),
                        tooltips=[("die", "@name"), ("layers", "@layers"), ("density", "@density{0.0}")])
        p1.line("layers", "density", source=src["curve"], color=PALETTE[0], line_width=2, legend_label="model, TLC")
        p1.scatter("layers", "density", source=points, color=PALETTE[1], size=9, marker="diamond",
                   legend_label="published (any bits per cell)")
        # grey outlines, not the diamonds' orange: a pair is then told apart by colour, not shape alone
        p1.scatter("layers", "model", source=points, line_color=MODEL_POINT, line_width=1.5, size=8, fill_alpha=0,
                   legend_label="model for the same die")
        p1.scatter("layers", "density", source=src["now"], color=PALETTE[0], size=12, line_color="black")
        legend_below(p1, 2, **CELL_LEGEND)
        p2 = new_figure("Cost per bit against layer count", "active layers", "cost per bit (1 = this deck count's minimum)",
                        height=280, x_range=(0, 1000), y_range=(0.9, 3.0), tooltips=[("layers", "@layers"), ("cost", "@cost{0.00}")])
        p2.line("layers", "cost", source=src["curve"], color=REFERENCE, line_width=2)
        p2.scatter("layers", "cost", source=src["now"], color=REFERENCE, size=12, line_color="black")
        return summary_column(data, p1, p2, targets=src)

    return Explorable(compute, figure, [
        Control("layers", "Active layers", tuple(layer_values), 176, live_values=tuple(range(16, 1001, 8)), fmt="{}"),
        Control("decks", "Decks", tuple(deck_values), 2, fmt="{}"),
    ])


def charge_trap_errors(pe_values=(0, 500, 1000, 2000), days_values=(0.0, 0.01, 0.1, 1.0, 30.0, 365.0),
                       layers: int = 176) -> Explorable:
    """3D charge-trap errors: RBER per layer (layer-to-layer variation), RBER over retention time
    (early retention loss), with an erased or a top-state vertical neighbour (retention
    interference), for the 96-layer QLC preset's cell in a ``layers``-layer stack."""
    model = cell_model(QLC_96L)
    stack = GENERATIONS_3D[layers]
    times = np.logspace(-3, np.log10(365.0), 40)
    top = model.levels.n_states - 1

    @lru_cache(maxsize=16)
    def over_time(pe):
        return tuple(np.array([ct_worst_rber(model, pe, t, neighbour=nb) for t in times]) for nb in (None, 0, top))

    def compute(pe, days):
        lr = layer_rber(model, stack, pe, days)
        avg, erased, full = over_time(pe)
        now = ct_worst_rber(model, pe, days)
        text = (
            f"QLC charge-trap cell after <b>{pe:,} P/E cycles</b>, <b>{days:g} days</b>: worst-page RBER "
            f"<b>{now:.1e}</b>; across the {layers} layers the RBER runs from <b>{lr.multiplier.min():.2f}&times;</b> "
            f"the mean ({lr.rber.min():.1e}, top of each deck) to <b>{lr.multiplier.max():.2f}&times;</b> "
            f"({lr.rber.max():.1e}, bottom of each deck)."
        )
        return {
            "layers": {"layer": np.arange(1, layers + 1), "rber": lr.rber, "mult": lr.multiplier},
            "time": {"t": times, "avg": np.maximum(avg, 1e-12), "erased": np.maximum(erased, 1e-12),
                     "full": np.maximum(full, 1e-12)},
            "now": {"t": np.array([max(days, 1e-3)]), "rber": np.array([max(now, 1e-12)])},
            "summary": summary_html(text),
        }

    def figure(data):
        src = {k: ColumnDataSource(data[k]) for k in ("layers", "time", "now")}
        # The multiplier, on a linear axis: its 0.4 to 2 spread is the point, and on the RBER axis
        # below (five decades) it would be a flat line. Fixed range: the grid's widest is 0.40 to 2.02.
        p1 = new_figure("Each layer's RBER relative to the stack's mean", "layer (1 = top of the stack)",
                        "RBER / mean RBER", height=260, y_range=(0, 2.2),
                        tooltips=[("layer", "@layer"), ("x mean", "@mult{0.00}"), ("RBER", "@rber{0.0e}")])
        p1.line([1, layers], [1, 1], color="gray", line_dash="dashed", legend_label="mean of the stack")
        p1.line("layer", "mult", source=src["layers"], color=PALETTE[0], line_width=2, legend_label="each layer")
        legend_below(p1, 2, **CELL_LEGEND)
        p2 = new_figure("RBER over retention time", "days since programming", "worst-page RBER", height=300,
                        x_axis_type="log", y_axis_type="log", x_range=(1e-3, 400), y_range=(1e-6, 0.05),
                        tooltips=[("days", "@t{0.000}"), ("RBER", "@avg{0.0e}")])
        p2.line("t", "avg", source=src["time"], color=PALETTE[0], line_width=2, legend_label="random neighbour data")
        p2.line("t", "erased", source=src["time"], color=PALETTE[3], line_width=2, line_dash="dashed",
                legend_label="erased neighbour")
        p2.line("t", "full", source=src["time"], color=PALETTE[2], line_width=2, line_dash="dotted",
                legend_label="top-state neighbour")
        p2.scatter("t", "rber", source=src["now"], color=PALETTE[0], size=11, line_color="black")
        legend_below(p2, 2, **CELL_LEGEND)
        return summary_column(data, p1, p2, targets=src)

    return Explorable(compute, figure, [
        Control("pe", "P/E cycles", tuple(pe_values), 1000, live_values=tuple(range(0, 3001, 100)), fmt="{:,}"),
        Control("days", "Retention (days since programming)", tuple(days_values), 30.0,
                live_values=(0.0, 0.003, 0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0, 30.0, 100.0, 365.0), fmt="{:g}"),
    ])


#: Planar nodes of the RTN-tails explorable, nm.
RTN_NODES = (25.0, 19.0, 16.0, 14.0)


def rtn_tails(pe_values=(0.0, 1000.0)) -> Explorable:
    """Slide the node and the wear: the 1X-nm TLC cell's states with random telegraph noise drawn
    Gaussian and with exponential amplitudes (:mod:`flashlab.cell.rtn`), the same variance either
    way, on a log scale, and the RBER per page each gives at the factory read points."""
    from ..cell.rtn import rtn_pdf, rtn_rber

    v = np.linspace(-250.0, 520.0, 300)

    def compute(node, pe):
        model = cell_model(TLC_1X, node)
        d = vth_distributions(model, pe, 0.0)
        lam = PlanarCell(node).rtn_sigma_v / VOLTS_PER_UNIT
        n = d.means.size
        gauss = sum(rtn_pdf(v - m, s, 0.0) for m, s in zip(d.means, d.sigmas)) / n
        expo = sum(rtn_pdf(v - m, np.sqrt(s * s - lam * lam), lam) for m, s in zip(d.means, d.sigmas)) / n
        rg, re = rtn_rber(d, lam, tails="gaussian"), rtn_rber(d, lam)
        pages = ", ".join(f"{p} {a:.1e} / {b:.1e}" for p, a, b in zip(rg.page_names, rg.rber, re.rber))
        text = (f"<b>{node:g} nm</b> TLC after {pe:,.0f} P/E: RTN sigma {lam:.1f} units "
                f"({1e3 * lam * VOLTS_PER_UNIT:.0f} mV). RBER per page, Gaussian / exponential tails: "
                f"<b>{pages}</b>; worst page {rg.rber.max():.1e} / <b>{re.rber.max():.1e}</b>.")
        floor = 1e-9
        return {"curves": {"v": v, "gauss": np.where(gauss > floor, gauss, np.nan),
                           "expo": np.where(expo > floor, expo, np.nan)},
                "summary": summary_html(text)}

    def figure(data):
        src = {"curves": ColumnDataSource(data["curves"])}
        p = new_figure("TLC states: Gaussian RTN against exponential RTN (same variance)", VTH_LABEL,
                       "density (fraction per unit)", height=320, y_axis_type="log", x_range=(-250, 520),
                       y_range=(1e-9, 0.1), tooltips=[("Vth", "@v{0}"), ("Gaussian", "@gauss{0.0e}"),
                                                      ("exponential", "@expo{0.0e}")])
        p.line("v", "gauss", source=src["curves"], color=PALETTE[0], line_width=2, line_dash="dashed",
               legend_label="Gaussian RTN")
        p.line("v", "expo", source=src["curves"], color=PALETTE[1], line_width=2,
               legend_label="exponential RTN amplitudes")
        legend_below(p, 2, **CELL_LEGEND)
        return summary_column(data, p, targets=src)

    return Explorable(compute, figure, [
        Control("node", "Feature size F (nm)", RTN_NODES, 19.0, fmt="{:g} nm"),
        Control("pe", "P/E cycles", tuple(pe_values), 0.0, live_values=(0.0, 300.0, 1000.0, 3000.0),
                fmt="{:,.0f}"),
    ])


#: Nodes of the end-of-planar explorable, nm (large to small): either side of the wrap's limit
#: and the last planar nodes shipped (16 and 15 nm).
END_NODES = (50.0, 40.0, 35.0, 30.0, 25.0, 21.0, 20.0, 19.0, 16.0, 15.0, 14.0)
#: Air-gap shares of the space between word lines (0: all oxide, 1: all air).
AIR_GAPS = (0.0, 0.5, 1.0)


def planar_end(nodes=END_NODES, air_gaps=AIR_GAPS) -> Explorable:
    """Slide the planar node and the air gap: the gate coupling ratio of the wrapped cell, of a
    flat cell with oxide and of the cell as built (:func:`flashlab.tech.as_built`: the wrap where
    it fits, the flat high-k cell below its limit) (top); the neighbour coupling of the wrapped
    and the as-built cell with this air gap (middle); TLC electrons between states (bottom)."""
    grid = np.asarray(nodes, float)
    limit = PlanarCell(25.0).wrap_limit_nm

    def cells(f, gap):
        return {"wrap": PlanarCell(f, air_gap=gap), "flat": PlanarCell(f, gate="flat", air_gap=gap),
                "built": as_built(f, gap)}

    def compute(node, air_gap):
        rows = [cells(float(f), air_gap) for f in grid]
        col = {f"{k}_{q}": np.array([getattr(r[k], q) for r in rows]) for k in ("wrap", "flat", "built")
               for q in ("gate_coupling", "coupling")}
        col.update({f"{k}_e3": np.array([r[k].electrons_per_state(3) for r in rows]) for k in ("wrap", "built")})
        col["g100_wrap"], col["g100_built"] = 100.0 * col["wrap_coupling"], 100.0 * col["built_coupling"]
        sweep = {"node": grid, **col}
        i = int(np.argmin(np.abs(grid - node)))
        c = cells(float(node), air_gap)
        b = c["built"]
        kind = ("the wrapped cell (the control gate still fits between the floating gates)" if b.gate == "wrap"
                else f"a flat cell with a high-k dielectric (k = {b.ipd_k:g}): the wrap needs {limit:g} nm")
        text = (
            f"<b>{node:g} nm</b>, {100 * air_gap:g}% of the space between word lines air. As built: {kind}. "
            f"Gate coupling ratio <b>{b.gate_coupling:.2f}</b> (wrapped {c['wrap'].gate_coupling:.2f}, "
            f"flat with oxide {c['flat'].gate_coupling:.2f}); neighbour coupling <b>&gamma; = {b.coupling:.3f}</b> "
            f"(wrapped {c['wrap'].coupling:.3f}); <b>{b.electrons_per_state(3):.1f} electrons</b> between "
            f"adjacent TLC states (wrapped {c['wrap'].electrons_per_state(3):.1f})."
        )
        return {"sweep": sweep, "now": {k: np.array([v[i]]) for k, v in sweep.items()},
                "summary": summary_html(text)}

    def figure(data):
        src = {k: ColumnDataSource(data[k]) for k in ("sweep", "now")}
        xr = (max(nodes) * 1.05, min(nodes) * 0.95)
        p0 = new_figure("Gate coupling ratio C_CG / C_total", "feature size F (nm)", "gate coupling ratio",
                        height=270, x_axis_type="log", x_range=xr, y_range=(0.0, 0.7),
                        tooltips=[("F", "@node nm"), ("wrapped", "@wrap_gate_coupling{0.00}"),
                                  ("flat, oxide", "@flat_gate_coupling{0.00}"), ("as built", "@built_gate_coupling{0.00}")])
        p0.line("node", "wrap_gate_coupling", source=src["sweep"], color=PALETTE[7], line_width=2, line_dash="dashed",
                legend_label="wrapped at every node")
        p0.line("node", "flat_gate_coupling", source=src["sweep"], color=PALETTE[3], line_width=2, line_dash="dotted",
                legend_label="flat, oxide dielectric")
        p0.line("node", "built_gate_coupling", source=src["sweep"], color=PALETTE[0], line_width=3,
                legend_label="as built (flat high-k below the limit)")
        p0.scatter("node", "built_gate_coupling", source=src["now"], color=PALETTE[0], size=11, line_color="black")
        p0.line([limit, limit], [0.0, 0.7], color="gray", line_dash="dotdash", legend_label="the wrap's limit")
        legend_below(p0, 2, **CELL_LEGEND)
        def wrapped_and_built(title, y_label, y_range, wrap, built, fmt):
            """A figure of one quantity against F: the wrapped cell at every node, and as built."""
            p = new_figure(title, "feature size F (nm)", y_label, height=250, x_axis_type="log", x_range=xr,
                           y_range=y_range,
                           tooltips=[("F", "@node nm"), ("wrapped", f"@{wrap}{{{fmt}}}"), ("as built", f"@{built}{{{fmt}}}")])
            p.line("node", wrap, source=src["sweep"], color=PALETTE[7], line_width=2, line_dash="dashed",
                   legend_label="wrapped at every node")
            p.line("node", built, source=src["sweep"], color=PALETTE[0], line_width=3, legend_label="as built")
            p.scatter("node", built, source=src["now"], color=PALETTE[0], size=11, line_color="black")
            legend_below(p, 2, **CELL_LEGEND)
            return p

        p1 = wrapped_and_built("Neighbour coupling (floating-gate interference)", "100 x gamma", (0.0, 18.0),
                               "g100_wrap", "g100_built", "0.0")
        p2 = wrapped_and_built("Electrons between adjacent TLC states", "electrons per state", (0.0, 40.0),
                               "wrap_e3", "built_e3", "0.0")
        for p in (p0, p1, p2):
            _node_axis(p, nodes)
        return summary_column(data, p0, p1, p2, targets=src)

    return Explorable(compute, figure, [
        Control("node", "Feature size F (nm)", tuple(nodes), 16.0, fmt="{:g} nm"),
        Control("air_gap", "Share of the space between word lines that is air", tuple(air_gaps), 0.0,
                live_values=tuple(np.round(np.linspace(0.0, 1.0, 11), 2)), fmt="{:.0%}"),
    ])


#: Layer counts of the string explorable's curves (decks as :func:`decks_for`).
STRING_LAYERS = tuple(range(24, 401, 8))


def decks_for(layers: int) -> int:
    """Decks a stack of ``layers`` active layers is etched in here: one per 128 layers or part
    (Samsung's single deck reached 128 layers, ``techinsights2020vnand``; rivals split earlier)."""
    return -(-int(layers) // 128)


def string_3d(layer_values=(32, 64, 96, 128, 176, 232, 321), sub_block_values=(1, 2, 4)) -> Explorable:
    """Add layers: the string current and the time it takes to sense a bit line (top), and the
    erase block and the erase unit with sub-block erase (bottom), for TLC strings of
    :class:`flashlab.tech.VerticalString` (4 strings per block, 16 KiB pages)."""
    grid = np.array(STRING_LAYERS)

    def string(layers, sub_blocks=1):
        return VerticalString(Stack3D(int(layers), decks_for(layers)), sub_blocks=sub_blocks)

    def compute(layers, sub_blocks):
        curve = [string(n) for n in grid]
        now = string(layers, sub_blocks)
        mib = 2.0**20
        text = (
            f"<b>{layers} layers</b> ({now.stack.decks} deck{'s' if now.stack.decks > 1 else ''}, {now.stack.gates:.0f} "
            f"gates in the string): string current <b>{now.current_na:.1f} nA</b>, <b>{now.t_sense_us:.1f} &micro;s</b> to "
            f"sense the bit line; a block of {now.pages_per_block:,} pages, <b>{now.block_bytes / mib:.1f} MiB</b>, erased "
            f"in {sub_blocks} part{'s' if sub_blocks > 1 else ''} of <b>{now.erase_unit_bytes / mib:.1f} MiB</b>."
        )
        return {
            "curve": {"layers": grid, "current": np.array([c.current_na for c in curve]),
                      "sense": np.array([c.t_sense_us for c in curve]),
                      "block": np.array([c.block_bytes / mib for c in curve]),
                      "unit": np.array([c.block_bytes / mib / sub_blocks for c in curve])},
            "now": {"layers": np.array([layers]), "current": np.array([now.current_na]),
                    "sense": np.array([now.t_sense_us]), "block": np.array([now.block_bytes / mib]),
                    "unit": np.array([now.erase_unit_bytes / mib])},
            "summary": summary_html(text),
        }

    def figure(data):
        src = {k: ColumnDataSource(data[k]) for k in ("curve", "now")}
        p1 = new_figure("String current and bit-line sense time", "active layers", "nA / microseconds",
                        height=280, x_range=(0, 410), y_range=(0, 60),
                        tooltips=[("layers", "@layers"), ("current", "@current{0.0} nA"), ("sense", "@sense{0.0} us")])
        p1.line("layers", "current", source=src["curve"], color=PALETTE[0], line_width=2,
                legend_label="string current (nA)")
        p1.line("layers", "sense", source=src["curve"], color=PALETTE[3], line_width=2, line_dash="dashed",
                legend_label="time to sense (us)")
        p1.scatter("layers", "current", source=src["now"], color=PALETTE[0], size=11, line_color="black")
        p1.scatter("layers", "sense", source=src["now"], color=PALETTE[3], size=11, line_color="black", marker="square")
        legend_below(p1, 2, **CELL_LEGEND)
        p2 = new_figure("Erase block and erase unit (TLC, 4 strings, 16 KiB pages)", "active layers", "MiB",
                        height=260, x_range=(0, 410), y_range=(0, 80),
                        tooltips=[("layers", "@layers"), ("block", "@block{0.0} MiB"), ("erase unit", "@unit{0.0} MiB")])
        p2.line("layers", "block", source=src["curve"], color=PALETTE[7], line_width=2, legend_label="block")
        p2.line("layers", "unit", source=src["curve"], color=PALETTE[2], line_width=3, line_dash="dotted",
                legend_label="erase unit (sub-blocks)")
        p2.scatter("layers", "unit", source=src["now"], color=PALETTE[2], size=11, line_color="black")
        legend_below(p2, 2, **CELL_LEGEND)
        return summary_column(data, p1, p2, targets=src)

    return Explorable(compute, figure, [
        Control("layers", "Active layers", tuple(layer_values), 128, live_values=STRING_LAYERS, fmt="{}"),
        Control("sub_blocks", "Sub-blocks per block", tuple(sub_block_values), 1, fmt="{}"),
    ])
