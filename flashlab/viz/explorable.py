"""One explorable, two engines.

An :class:`Explorable` is a ``compute`` function (engine parameters -> plot data), a figure
builder (plot data -> bokeh layout plus the models the data updates) and a list of
:class:`Control` s. The same figure builder serves both modes:

* :meth:`Explorable.static` evaluates ``compute`` over the product of the controls' grids
  (at book-build time) and embeds every result in the page; bokeh ``CustomJS`` swaps in the
  data for the chosen grid point as the reader moves a slider. No kernel, no server.
* :meth:`Explorable.live` returns an ipywidgets dashboard (through ``jupyter_bokeh``) that
  calls the engine on every change, over the controls' finer ``live_values``.

Both modes make the figure readable without seeing it (WCAG 2.1 AA), in one place,
:func:`accessible`: the explorable's summary sentence (its ``"summary"`` target, a ``Div``) is
mirrored into a visually hidden ARIA live region that describes the figure and is announced
whenever a control moves it, and a button downloads the plotted data as CSV.

Plot data is a dict mapping target names to either a column dict (for a bokeh
``ColumnDataSource``: column name -> 1-D array) or a string (for a ``Div``'s HTML text).
"""

from __future__ import annotations

import html
import itertools
import json
import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from bokeh.layouts import column
from bokeh.models import (
    Button, ColumnDataSource, CustomJS, CustomJSTickFormatter, Div, GlyphRenderer, Legend, Plot, Slider,
)
from bokeh.core.property.visual import DashPattern
from bokeh.document import Document
from bokeh.events import DocumentReady
from bokeh.models.glyphs import Line, Scatter

from .._validate import check_choice

#: Set (to "1") by the book's Sphinx extension while the book is built; explorables then
#: render as self-contained HTML that uses the BokehJS served from the book's ``_static``.
BOOK_BUILD_ENV = "FLASHLAB_BOOK_BUILD"

PlotData = Mapping[str, "Mapping[str, np.ndarray] | str"]
Targets = Mapping[str, "ColumnDataSource | Div"]


@dataclass(frozen=True)
class Control:
    """One reader-facing parameter.

    ``name`` is the keyword passed to ``compute``; ``label`` is shown to the reader and
    carries the unit; ``values`` is the grid precomputed for the static book; ``default``
    must be one of them; ``live_values`` (default: ``values``) are the settings offered in a
    live kernel, where every change calls the engine; ``fmt`` formats a value for display.
    A switch names its settings (``("off", "on")``): flags (``False``, ``True``) are refused,
    since the reader would see them as Python prints them.
    """

    name: str
    label: str
    values: tuple
    default: object
    live_values: tuple = ()
    fmt: str = "{:g}"

    def __post_init__(self):
        if len(self.values) < 2:
            raise ValueError(f"Control {self.name!r}: values must hold at least 2 settings; got {self.values!r}")
        if any(isinstance(v, (bool, np.bool_)) for v in (*self.values, *self.live_values)):
            # a slider would read "False" / "True": a switch names its settings instead
            raise ValueError(f"Control {self.name!r}: values must name their settings (e.g. 'off', 'on'), "
                             f"not flags; got {self.values!r}")
        check_choice(f"Control {self.name!r} default", self.default, self.values)
        if not self.live_values:
            object.__setattr__(self, "live_values", tuple(self.values))
        check_choice(f"Control {self.name!r} default (in live_values)", self.default, self.live_values)

    def describe(self, value) -> str:
        return self.fmt.format(value)


def _column_data(cols: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Columns as compact arrays (float32 for floats) so embedded grids stay small."""
    out = {}
    for key, arr in cols.items():
        a = np.asarray(arr)
        if a.dtype.kind == "f":
            a = a.astype(np.float32)
        elif a.dtype.kind in "iub":
            a = a.astype(np.int32)
        out[key] = a
    return out


def apply(targets: Targets, data: PlotData) -> None:
    """Push one result of ``compute`` into the figure's models (Python side)."""
    for name, target in targets.items():
        value = data[name]
        if isinstance(target, ColumnDataSource):
            target.data = _column_data(value)
        else:
            target.text = str(value)


# Selects grid point k from the sliders' indices (row-major over the controls) and pushes its
# data into the targets; bokeh decodes Python dicts as JS Maps, hence the `get` helper.
_SELECT_JS = """
const get = (m, key) => (m instanceof Map ? m.get(key) : m[key]);
let k = 0;
for (let i = 0; i < sliders.length; i++) {
  k = k * sizes[i] + sliders[i].value;
}
const point = grid[k];
for (const name of names) {
  const value = get(point, name);
  const target = get(targets, name);
  if (typeof value === "string") {
    target.text = value;
  } else {
    target.data = value instanceof Map ? Object.fromEntries(value) : value;
  }
}
"""


# The summary Div's text, as plain text, into the live region that describes the figure: screen
# readers announce the change (the region is polite, so after what the reader is doing).
_ANNOUNCE_JS = """
const el = document.getElementById(region);
if (el != null) {
  const spaced = summary.text.replace(BREAKS, " $&");
  el.textContent = new DOMParser().parseFromString(spaced, "text/html").body.textContent.replace(/\\s+/g, " ").trim();
}
"""

# The data the figure plots now, one CSV block per data source (its name, then its columns),
# after a comment line with the summary; downloaded as a file (a blob URL: no server needed).
# Numbers keep 7 significant digits: the book embeds float32 grids, which hold no more.
_CSV_JS = """
const get = (m, key) => (m instanceof Map ? m.get(key) : m[key]);
const cell = (v) => {
  const s = typeof v === "number" && Number.isFinite(v) ? String(+v.toPrecision(7)) : String(v);
  return /[",\\n]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
};
const spaced = summary.text.replace(BREAKS, " $&");
const text = new DOMParser().parseFromString(spaced, "text/html").body.textContent.replace(/\\s+/g, " ").trim();
const lines = ["# " + text];
for (const name of names) {
  const data = get(sources, name).data;
  const cols = data instanceof Map ? Array.from(data.keys()) : Object.keys(data);
  const n = Math.max(0, ...cols.map((c) => get(data, c).length));
  lines.push("", "# " + name, cols.map(cell).join(","));
  for (let i = 0; i < n; i++) lines.push(cols.map((c) => cell(get(data, c)[i] ?? "")).join(","));
}
const url = URL.createObjectURL(new Blob([lines.join("\\n") + "\\n"], {type: "text/csv"}));
const a = document.createElement("a");
a.href = url;
a.download = filename;
document.body.appendChild(a);
a.click();
a.remove();
setTimeout(() => URL.revokeObjectURL(url), 1000);
"""

# Live dashboards: ipywidgets draws its sliders with noUiSlider too, and names neither the handle
# nor its value. Once the figure's document is ready, the handles in the dashboard (the widget box
# that holds the live region) are named by their labels and say their readouts.
_LABEL_WIDGETS_JS = """
const label = (tries) => {
  const el = document.getElementById(region);
  const box = el == null ? null : el.closest(".widget-vbox");
  const sliders = box == null ? [] : box.querySelectorAll(".widget-slider");
  if (sliders.length === 0) {
    if (tries > 0) setTimeout(() => label(tries - 1), 250);
    return;
  }
  for (const slider of sliders) {
    const handle = slider.querySelector(".noUi-handle");
    const name = slider.querySelector(".widget-label");
    const readout = slider.querySelector(".widget-readout");
    if (handle == null) continue;
    handle.setAttribute("aria-label", name != null ? name.textContent.trim() : "Setting");
    const say = () => { if (readout != null) handle.setAttribute("aria-valuetext", readout.textContent.trim()); };
    say();
    new MutationObserver(say).observe(handle, {attributes: true, attributeFilter: ["aria-valuenow"]});
  }
};
label(40);
"""

_VISUALLY_HIDDEN = ("position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;"
                    "clip:rect(0,0,0,0);white-space:nowrap;border:0")


# Tags that end a line or a block: a space takes their place, where other tags (b, sub) join.
_BREAK_TAGS = r"<(?:br|/p|/div|/li|/tr|/td|/th|hr)\b[^>]*>"
# The same in JavaScript, prepended to the CustomJS code that reads the summary.
_BREAKS_JS = f"const BREAKS = new RegExp({json.dumps(_BREAK_TAGS)}, 'gi');\n"


def plain_text(markup: str) -> str:
    """The text of an HTML fragment, as announced: a space for each line or block break, other
    tags dropped, whitespace collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", re.sub(_BREAK_TAGS, " ", markup, flags=re.I))).split())


def figure_titles(layout) -> list[str]:
    """The titles of the plots in ``layout``, top to bottom (the figure's accessible name)."""
    return [p.title.text for p in layout.select({"type": Plot}) if p.title is not None and p.title.text]


@dataclass(frozen=True)
class Accessible:
    """What :func:`accessible` adds to an explorable's layout.

    ``layout`` is the figure with its CSV button; ``region_id`` the id of the live region
    (``region_html``) that holds the summary sentence and describes the figure; ``name`` the
    figure's accessible name (its plots' titles).
    """

    layout: object
    region_id: str
    region_html: str
    name: str


# Line dashes and markers given, in this order, to series that colour alone told apart.
_DASHES = ("solid", "dashed", "dotted", "dotdash", "dashdot")
_MARKERS = ("circle", "square", "triangle", "diamond", "inverted_triangle", "plus")


def _dash_key(glyph) -> tuple:
    """A line's dash as numbers (bokeh stores "dashed" as [6], and may keep either form)."""
    dash = glyph.line_dash
    return tuple(DashPattern._dash_patterns.get(dash, dash) if isinstance(dash, str) else dash)


def _style_key(kind, style: str):
    return tuple(DashPattern._dash_patterns[style]) if kind is Line else style


def _legend_glyphs(plot) -> list:
    """The glyphs of ``plot``'s legend entries, in legend order (each once)."""
    out = []
    for legend in plot.select({"type": Legend}):
        for item in legend.items:
            for r in item.renderers:
                if isinstance(r, GlyphRenderer) and r.glyph not in out:
                    out.append(r.glyph)
    return out


def not_by_colour_alone(layout) -> None:
    """Give every line series of a plot's legend its own dash, and every marker series its own
    marker, where two of them differed only by colour (WCAG 1.4.1: colour is never the only
    visual means of telling series apart). Series already set apart keep their look."""
    for plot in layout.select({"type": Plot}):
        glyphs = _legend_glyphs(plot)
        for kind, attr, styles in ((Line, "line_dash", _DASHES), (Scatter, "marker", _MARKERS)):
            series = [g for g in glyphs if isinstance(g, kind)]
            key = _dash_key if kind is Line else (lambda g: str(g.marker))
            used = {key(g) for g in series}
            seen = set()
            for g in series:
                k = key(g)
                if k not in seen:
                    seen.add(k)
                    continue
                free = [st for st in styles if _style_key(kind, st) not in used]
                if not free:
                    break
                setattr(g, attr, free[0])
                used.add(_style_key(kind, free[0]))


def accessible(layout, targets: Targets) -> Accessible:
    """Make an explorable's figure followable without sight or colour (both modes use it).

    Series that differed only by colour get dashes or markers (:func:`not_by_colour_alone`).
    The ``"summary"`` Div of ``targets`` (an explorable has one; a figure without controls may
    not) is mirrored (CustomJS, so it runs in the static book and in a live kernel alike) into a
    visually hidden live region that describes the figure, announced on every change. A
    "Download the plotted data (CSV)" button below the figure writes what each data source of
    ``targets`` (without targets: of the layout) holds at that moment.
    """
    not_by_colour_alone(layout)
    summary = targets.get("summary")
    sources = {k: v for k, v in targets.items() if isinstance(v, ColumnDataSource)}
    if not targets:
        sources = {f"data {i + 1}": v for i, v in enumerate(layout.select({"type": ColumnDataSource}))}
    titles = figure_titles(layout)
    name = "; ".join(titles) if titles else "Figure"
    text = plain_text(summary.text) if summary is not None else ""
    region_id = f"flashlab-description-{(summary or layout).id}"
    if summary is not None:
        announce = CustomJS(args=dict(summary=summary, region=region_id), code=_BREAKS_JS + _ANNOUNCE_JS)
        summary.js_on_change("text", announce)
    slug = re.sub(r"[^a-z0-9]+", "-", (titles[0] if titles else "figure").lower()).strip("-")
    button = Button(label="Download the plotted data (CSV)", name="data-csv", button_type="default")
    button.js_on_click(CustomJS(args=dict(summary=summary or Div(text=name), sources=sources,
                                          names=list(sources), filename=f"{slug}.csv"), code=_BREAKS_JS + _CSV_JS))
    region_html = (f'<p id="{region_id}" role="status" aria-live="polite" style="{_VISUALLY_HIDDEN}">'
                   f'{html.escape(text or name)}</p>')
    return Accessible(column(layout, button, sizing_mode="stretch_width"), region_id, region_html, name)


def load_bokehjs() -> None:
    """Load BokehJS into a live notebook page from the installed bokeh package (no CDN).

    Both ``bokeh.io.show`` and jupyter_bokeh's ``BokehModel`` need it on the page first.
    """
    from bokeh.io import output_notebook
    from bokeh.resources import INLINE

    output_notebook(resources=INLINE, hide_banner=True)


@dataclass
class StaticExplorable:
    """A bokeh layout with its whole parameter grid embedded (what the HTML book shows)."""

    layout: object
    grid_size: int
    sliders: list = field(default_factory=list)
    access: Accessible | None = None
    shown: object = field(init=False)  # what the page shows: the layout, with its CSV button

    def __post_init__(self):
        self.shown = self.layout  # an explorable's layout holds its controls and CSV button
        if self.access is None:  # a figure without controls: its data sources, its titles
            self.access = accessible(self.layout, {})
            self.shown = self.access.layout

    def _ipython_display_(self):
        from IPython.display import HTML, display

        if os.environ.get(BOOK_BUILD_ENV) == "1":
            from bokeh.embed import components

            script, div = components(self.shown)
            a = self.access
            # A group named by its plots' titles, described by the live region's summary sentence.
            display(HTML(f'<div class="flashlab-explorable" role="group" aria-label="{html.escape(a.name)}" '
                         f'aria-describedby="{a.region_id}">{a.region_html}{div}{script}</div>'))
        else:
            from bokeh.io import show

            load_bokehjs()
            show(self.shown)


class Explorable:
    """Controls plus a figure over an engine computation (see module docstring)."""

    def __init__(
        self,
        compute: Callable[..., PlotData],
        figure: Callable[[PlotData], tuple[object, Targets]],
        controls: Sequence[Control],
    ):
        names = [c.name for c in controls]
        if len(set(names)) != len(names):
            raise ValueError(f"controls must have distinct names; got {names}")
        self.compute = compute
        self.figure = figure
        self.controls = tuple(controls)

    @staticmethod
    def _accessible(layout, targets: Targets) -> Accessible:
        """An explorable's figure is described by its summary: a figure builder must return one."""
        if not isinstance(targets.get("summary"), Div):
            raise ValueError(f"an explorable's figure builder must return a 'summary' Div target (the sentence "
                             f"that describes the figure); got targets {sorted(targets)}")
        return accessible(layout, targets)

    def defaults(self) -> dict:
        return {c.name: c.default for c in self.controls}

    def static(self) -> StaticExplorable:
        """Precompute the grid and wire the sliders with CustomJS (no kernel needed)."""
        names = [c.name for c in self.controls]
        defaults = tuple(c.default for c in self.controls)
        grid = []
        for combo in itertools.product(*(c.values for c in self.controls)):
            point = self.compute(**dict(zip(names, combo)))
            if combo == defaults:  # the figure opens on the defaults: one of the grid's points
                layout, targets = self.figure(point)
                access = self._accessible(layout, targets)
            grid.append({k: (v if isinstance(v, str) else _column_data(v)) for k, v in point.items()})
        sliders = []
        for c in self.controls:
            idx = c.values.index(c.default)
            # The slider moves over grid indices; its readout shows the value at the index.
            readout = CustomJSTickFormatter(
                args=dict(shown=[c.describe(v) for v in c.values]), code="return shown[Math.round(tick)];"
            )
            sliders.append(
                Slider(
                    start=0, end=len(c.values) - 1, step=1, value=idx, title=c.label, format=readout,
                    sizing_mode="stretch_width", name=f"control-{c.name}",
                )
            )
        callback = CustomJS(
            args=dict(
                sliders=sliders,
                sizes=[len(c.values) for c in self.controls],
                grid=grid,
                targets=dict(targets),
                names=list(targets),
            ),
            code=_SELECT_JS,
        )
        for s in sliders:
            s.js_on_change("value", callback)
        return StaticExplorable(column(*sliders, access.layout, sizing_mode="stretch_width"), len(grid), sliders,
                                access)

    def live(self):
        """An ipywidgets dashboard calling the engine on every change (needs a kernel)."""
        import ipywidgets as widgets
        from jupyter_bokeh import BokehModel

        load_bokehjs()
        layout, targets = self.figure(self.compute(**self.defaults()))
        access = self._accessible(layout, targets)
        inputs = {}
        for c in self.controls:
            options = [(c.describe(v), v) for v in c.live_values]
            inputs[c.name] = widgets.SelectionSlider(
                options=options, value=c.default, description=c.label,
                style={"description_width": "initial"}, layout=widgets.Layout(width="95%"),
                continuous_update=True,
            )

        def update(_change=None):
            apply(targets, self.compute(**{n: w.value for n, w in inputs.items()}))

        for w in inputs.values():
            w.observe(update, names="value")
        # The live region sits outside the figure, written once: the summary Div's CustomJS
        # updates its text as the kernel pushes each new summary.
        region = widgets.HTML(value=access.region_html)
        doc = Document()
        doc.add_root(access.layout)
        doc.js_on_event(DocumentReady, CustomJS(args=dict(region=access.region_id), code=_LABEL_WIDGETS_JS))
        return widgets.VBox([*inputs.values(), region, BokehModel(access.layout)])
