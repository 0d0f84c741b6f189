"""Diagrams of a NAND device drawn from the engine's geometry (:class:`flashlab.device.Geometry`).

* :func:`device_hierarchy`: controller > channels > packages > dies > planes, and inside one
  plane its blocks and one block's pages, with the counts of the given geometry.
* :func:`nand_string`: one block of planar NAND as an array: bit lines (columns) and word lines
  (rows), one NAND string per bit line between its select transistors, with the bias of a read
  or program on the word lines and bit lines.

Each returns a :class:`~flashlab.viz.explorable.StaticExplorable` (a diagram has no controls):
display it in a notebook or the HTML book. The counts come from the geometry, never from the
drawing: a figure of ``ssd_geometry()`` shows that drive's 4 channels, 2 dies per channel and so
on. Planar NAND has one cell per bit line on each word line, so a block has
``pages_per_block / bits_per_cell`` word lines and ``8 * page_size`` bit lines (spare area not
counted) (Compagnoni et al. 2017, ``compagnoni2017``).
"""

from __future__ import annotations

from bokeh.layouts import column
from bokeh.models import ColumnDataSource, HoverTool, LabelSet

from .._validate import check_int
from ..device import Geometry
from .explorable import StaticExplorable
from .style import ERASED, HIGHLIGHT, PROGRAMMED, REFERENCE, new_figure

#: Fill colours of the levels of the hierarchy.
LEVEL_COLOURS = {"package": "#eeeeee", "die": "#c6dbef", "plane": "#9ecae1", "block": "#fdd0a2",
                 "page": "#fdae6b"}
#: Blocks (and pages) drawn before the gap that stands for the rest.
SHOWN = 3


def _check_geometry(geometry) -> Geometry:
    if geometry is None:
        from ..ssd import ssd_geometry

        return ssd_geometry()
    if not isinstance(geometry, Geometry):
        raise TypeError(f"geometry must be a flashlab.device.Geometry; got {geometry!r} ({type(geometry).__name__})")
    return geometry


def _diagram(title: str, height: int, x_range, y_range):
    p = new_figure(title, "", "", height=height, x_range=x_range, y_range=y_range)
    p.axis.visible = False
    p.grid.visible = False
    p.toolbar_location = None
    return p


def _boxes(p, name: str, rows: list[dict], colour: str, **kwargs):
    """Rectangles from rows of x, y (centre), w, h, tip; the renderer is named for tests."""
    src = ColumnDataSource({k: [r[k] for r in rows] for k in ("x", "y", "w", "h", "tip")})
    return p.rect("x", "y", "w", "h", source=src, fill_color=colour, line_color="#555555", name=name, **kwargs)


def _hover(p, renderers) -> None:
    """Tooltips (the ``tip`` column) on the boxes only: lines and labels have none."""
    p.add_tools(HoverTool(renderers=list(renderers), tooltips=[("", "@tip")]))


def _labels(p, name: str, rows: list[tuple[float, float, str]], size: str = "12px", **kwargs):
    src = ColumnDataSource({"x": [r[0] for r in rows], "y": [r[1] for r in rows], "text": [r[2] for r in rows]})
    p.add_layout(LabelSet(x="x", y="y", text="text", source=src, text_font_size=size, name=name, **kwargs))


def _kib(nbytes: int) -> str:
    return f"{nbytes // 1024} KiB" if nbytes % 1024 == 0 else f"{nbytes} B"


def device_hierarchy(geometry: Geometry | None = None) -> StaticExplorable:
    """The device's hierarchy, top: controller, channels, one package per channel holding that
    channel's dies, planes in each die; bottom: the blocks of one plane and the pages of one
    block. ``geometry`` defaults to :func:`flashlab.ssd.ssd_geometry` (the SSD chapters' drive).
    The engine has no package level: drawing each channel's dies in one package is a common
    arrangement, not part of the model."""
    g = _check_geometry(geometry)
    n_ch, n_die, n_pl = g.channels, g.dies_per_channel, g.planes_per_die
    die_w, pl_w, gap = 1.0, 1.0 / n_pl, 0.15
    pkg_w = n_die * (die_w + gap) + gap
    width = 2.2 + pkg_w + 0.3
    top = _diagram(f"{n_ch} channels x {n_die} dies x {n_pl} planes = {g.channels * n_die * n_pl} planes, "
                   f"each {g.blocks_per_plane:,} blocks", 60 + 62 * n_ch, (-0.1, width), (-0.7, n_ch + 0.2))
    x0 = 2.2
    pkgs, dies, planes, wires = [], [], [], []
    for c in range(n_ch):
        y = n_ch - 1 - c + 0.5
        wires.append((1.0, x0, y))
        pkgs.append(dict(x=x0 + pkg_w / 2, y=y, w=pkg_w, h=0.92, tip=f"package on channel {c}"))
        for d in range(n_die):
            dx = x0 + gap + d * (die_w + gap) + die_w / 2
            dies.append(dict(x=dx, y=y, w=die_w, h=0.8, tip=f"channel {c}, die {d}"))
            for q in range(n_pl):
                planes.append(dict(x=dx - die_w / 2 + (q + 0.5) * pl_w, y=y - 0.12, w=pl_w * 0.85, h=0.42,
                                   tip=f"channel {c}, die {d}, plane {q}: {g.blocks_per_plane:,} blocks"))
    top.segment([w[0] for w in wires], [w[2] for w in wires], [w[1] for w in wires], [w[2] for w in wires],
                line_width=2, color=REFERENCE, name="channel")
    _hover(top, [_boxes(top, "controller", [dict(x=0.5, y=n_ch / 2, w=0.9, h=n_ch - 0.1,
                                                 tip="controller (runs the FTL)")], "#d9d9d9"),
                 _boxes(top, "package", pkgs, LEVEL_COLOURS["package"]),
                 _boxes(top, "die", dies, LEVEL_COLOURS["die"]),
                 _boxes(top, "plane", planes, LEVEL_COLOURS["plane"])])
    _labels(top, "top_labels", [(0.5, n_ch / 2, "controller")], text_align="center", text_baseline="middle")
    _labels(top, "channel_labels", [(1.05, n_ch - 1 - c + 0.52, f"channel {c}") for c in range(n_ch)], size="11px")
    _labels(top, "die_labels", [(d["x"], d["y"] + 0.25, f"die {i % n_die}") for i, d in enumerate(dies)],
            size="11px", text_align="center", text_baseline="middle")
    _labels(top, "plane_labels", [(q["x"], q["y"], f"plane {i % n_pl}") for i, q in enumerate(planes)],
            size="10px", text_align="center", text_baseline="middle")
    _labels(top, "legend", [(0.0, -0.55, "package (grey) > die (blue) > plane (light blue); a die runs one "
                                         "operation per plane at a time")], size="11px")

    # Bottom: one plane's blocks (first SHOWN, a gap, the last) and one block's pages.
    nb, npg = g.blocks_per_plane, g.pages_per_block
    bottom = _diagram(f"inside one plane: {nb:,} blocks of {npg} pages of {_kib(g.page_size)}",
                      312, (-0.1, 6.2), (-1.2, SHOWN + 2.4))
    shown_blocks = list(range(min(nb, SHOWN))) + ([nb - 1] if nb > SHOWN else [])
    shown_pages = list(range(min(npg, SHOWN))) + ([npg - 1] if npg > SHOWN else [])

    def stack(indices, n, x, kind, unit):
        rows = []
        for slot, i in enumerate(indices):
            y = SHOWN + 1 - slot - (1 if n > SHOWN and i == n - 1 else 0)
            rows.append(dict(x=x, y=y, w=2.0, h=0.8, tip=f"{kind} {i} of {n:,}: {unit}"))
        return rows

    blocks = stack(shown_blocks, nb, 1.2, "block", f"{npg} pages, the unit of erase")
    pages = stack(shown_pages, npg, 4.6, "page", f"{_kib(g.page_size)}, the unit of read and program")
    _hover(bottom, [
        _boxes(bottom, "plane_box", [dict(x=1.2, y=(SHOWN + 1) / 2, w=2.4, h=SHOWN + 2.0, tip="one plane")],
               LEVEL_COLOURS["plane"], fill_alpha=0.35),
        _boxes(bottom, "block", blocks, LEVEL_COLOURS["block"]),
        _boxes(bottom, "block_box", [dict(x=4.6, y=(SHOWN + 1) / 2, w=2.4, h=SHOWN + 2.0, tip="one block")],
               LEVEL_COLOURS["block"], fill_alpha=0.35),
        _boxes(bottom, "page", pages, LEVEL_COLOURS["page"])])
    # Zoom lines from block 0 to the block box.
    bottom.segment([2.2, 2.2], [SHOWN + 1.4, SHOWN + 0.6], [3.4, 3.4], [SHOWN + 1.5, -0.5], color="#777777",
                   line_dash="dotted")
    labels = [(b["x"], b["y"], f"block {i:,}") for b, i in zip(blocks, shown_blocks)]
    labels += [(p_["x"], p_["y"], f"page {i}") for p_, i in zip(pages, shown_pages)]
    gaps = [(1.2, 1.0, f"... {nb - SHOWN - 1:,} more blocks") if nb > SHOWN + 1 else None,
            (4.6, 1.0, f"... {npg - SHOWN - 1:,} more pages") if npg > SHOWN + 1 else None]
    labels += [g_ for g_ in gaps if g_ is not None]
    _labels(bottom, "bottom_labels", labels, text_align="center", text_baseline="middle")
    # the caption sits 0.6 below the boxes (bottom at -0.5): at -0.82 it touched the plane box
    _labels(bottom, "units", [(0.0, -1.1, "erase: a whole block; program and read: one page")], size="11px")
    return StaticExplorable(column(top, bottom, sizing_mode="stretch_width"), grid_size=1)


def nand_string(geometry: Geometry | None = None, bits_per_cell: int = 2, *, bit_lines: int = 6,
                operation: str = "program") -> StaticExplorable:
    """One block of planar NAND: ``bit_lines`` of its ``8 * page_size`` bit lines drawn as
    vertical NAND strings, every word line of the block as a row of cells
    (``pages_per_block / bits_per_cell`` of them), the string and ground select transistors and
    the source line. The selected word line carries the program (``operation="program"``) or read
    voltage, the others the pass voltage; in a program, bit lines at 0 V program their cell on
    the selected word line and bit lines at the supply voltage inhibit it."""
    g = _check_geometry(geometry)
    bits = check_int("bits_per_cell", bits_per_cell, 1, 4)
    shown = check_int("bit_lines", bit_lines, 2, 16)
    if operation not in ("program", "read"):
        raise ValueError(f"operation must be one of ('program', 'read'); got {operation!r}")
    if g.pages_per_block % bits:
        raise ValueError(f"bits_per_cell must divide pages_per_block ({g.pages_per_block}); got {bits}")
    n_wl = g.pages_per_block // bits
    n_bl = 8 * g.page_size
    selected = n_wl // 2
    # Rows: bit-line contact at the top, SSL, word lines WL(n-1) .. WL0, GSL, source line.
    y_ssl, y_gsl = n_wl + 1.0, 0.0
    wl_y = [n_wl - k for k in range(n_wl)]  # WL k at y = n_wl - k (WL0 nearest the bit line)
    inhibit = set(range(1, shown, 2)) if operation == "program" else set()
    x_of = [1.0 + j for j in range(shown)]
    right = x_of[-1] + 0.4
    height = min(720, 140 + 14 * n_wl)
    op_v = "V_pgm (program)" if operation == "program" else "V_read (read)"
    p = _diagram(f"one block: {n_wl} word lines x {n_bl:,} bit lines ({bits} bit{'s' if bits > 1 else ''} "
                 f"per cell: {g.pages_per_block} pages); {shown} bit lines drawn", height,
                 (-2.6, right + 3.0), (-2.3, n_wl + 3.2))
    # Bit lines (vertical, through each string) and word lines (horizontal, across all strings).
    p.segment(x_of, [y_gsl - 0.6] * shown, x_of, [y_ssl + 1.0] * shown, color="#444444", line_width=2,
              name="bit_line")
    wl_colour = [HIGHLIGHT if k == selected else "#888888" for k in range(n_wl)]
    wl_src = ColumnDataSource(dict(x0=[0.6] * n_wl, x1=[right] * n_wl, y=wl_y, color=wl_colour,
                                   k=list(range(n_wl))))
    p.segment("x0", "y", "x1", "y", source=wl_src, color="color", line_width=2, name="word_line")
    for y, name in ((y_ssl, "SSL"), (y_gsl, "GSL")):
        p.segment(0.6, y, right, y, color="#222222", line_width=3, line_dash="dashed", name=name)
    p.segment(0.6, y_gsl - 0.6, right, y_gsl - 0.6, color="#222222", line_width=3, name="source_line")
    cells = []
    for j, x in enumerate(x_of):
        for k, y in enumerate(wl_y):
            target = k == selected
            state = ("inhibited (bit line at V_cc)" if j in inhibit else "programmed (bit line at 0 V)") \
                if target and operation == "program" else ("read (sensed)" if target else "passes (V_pass)")
            cells.append(dict(x=x, y=y, w=0.5, h=0.55, tip=f"cell on WL{k}, BL{j}: {state}"))
    colours = [HIGHLIGHT if "programmed" in c["tip"] or "sensed" in c["tip"] else
               (ERASED if "inhibited" in c["tip"] else "#f0f0f0") for c in cells]
    src = ColumnDataSource({k: [c[k] for c in cells] for k in ("x", "y", "w", "h", "tip")} | {"color": colours})
    _hover(p, [p.rect("x", "y", "w", "h", source=src, fill_color="color", line_color="#333333", name="cell"),
               _boxes(p, "select", [dict(x=x, y=y, w=0.5, h=0.55, tip=f"{'string' if y == y_ssl else 'ground'} "
                                         f"select transistor of BL{j}") for j, x in enumerate(x_of)
                                    for y in (y_ssl, y_gsl)], PROGRAMMED)])
    labels = [(0.45, y, f"WL{k}" + (f"  {op_v}" if k == selected else "")) for k, y in enumerate(wl_y)
              if k in (0, n_wl - 1, selected)]
    labels += [(0.45, y_ssl, "SSL"), (0.45, y_gsl, "GSL"), (0.45, y_gsl - 0.6, "source line")]
    _labels(p, "row_labels", labels, size="11px", text_align="right", text_baseline="middle")
    bl_labels = [(x, y_ssl + 1.15, f"BL{j}") for j, x in enumerate(x_of)]
    _labels(p, "bit_line_labels", bl_labels + [(right + 1.0, y_ssl + 1.15, f"... {n_bl - shown:,} more")],
            size="11px", text_align="center", text_baseline="bottom")
    notes = [(right + 0.3, wl_y[selected] + 3.0, "other word lines:"), (right + 0.3, wl_y[selected] + 2.0, "V_pass")]
    if operation == "program":
        notes += [(right + 0.3, wl_y[selected] - 2.0, "orange: programmed"),
                  (right + 0.3, wl_y[selected] - 3.0, "grey: inhibited")]
    _labels(p, "notes", notes, size="11px", text_baseline="middle")
    _labels(p, "string_note", [(-2.5, -2.1, "one NAND string per bit line: cells in series between its "
                                             "two select transistors")], size="11px")
    return StaticExplorable(p, grid_size=1)


__all__ = ["device_hierarchy", "nand_string"]
