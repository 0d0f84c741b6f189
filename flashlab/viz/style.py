"""House style for the book's bokeh figures: one place for sizes, fonts, tools and colours."""

from __future__ import annotations

from bokeh.layouts import column
from bokeh.models import Div, FixedTicker, HoverTool, NumeralTickFormatter
from bokeh.plotting import figure

#: Colours used across chapters, in Category10's order of hues (blue, orange, green, red,
#: purple, brown, pink, grey, black, sky blue) but chosen to stay apart for readers with
#: deuteranopia or protanopia: most are Okabe and Ito's (2008) colour-blind-safe set. Category10
#: put green against red (and blue against purple) within 5 units of CAM02-UCS colour difference
#: under simulated deuteranopia (Machado et al. 2009); any two of these stay at least
#: :data:`MIN_CVD_DISTANCE` apart with normal vision and under both (``tests/test_viz_palette.py``).
PALETTE = ("#1F77B4", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#6F4E37", "#FFAABB", "#666666",
           "#000000", "#56B4E9")
ERASED, PROGRAMMED, REFERENCE, HIGHLIGHT = PALETTE[7], PALETTE[0], PALETTE[3], PALETTE[1]
#: The smallest CAM02-UCS distance between two palette colours, for every vision simulated.
MIN_CVD_DISTANCE = 10.0

FONT_SIZE = "13px"

#: Page backgrounds words coloured by series must stand out from (the theme's light page, and
#: the dark page's ``--pst-color-background``, as ``book/_static/flashlab-theme.js`` reads it).
LIGHT_PAGE, DARK_PAGE = "#FFFFFF", "#14181E"
#: WCAG 2.1 AA contrast for body text (success criterion 1.4.3).
TEXT_CONTRAST = 4.5


def _luminance(colour: str) -> float:
    """WCAG relative luminance of a ``#RRGGBB`` colour."""
    rgb = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two ``#RRGGBB`` colours (1 to 21)."""
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def readable(colour: str, background: str) -> str:
    """``colour`` moved toward black (on a light background) or white (on a dark one), keeping its
    hue, just far enough to reach :data:`TEXT_CONTRAST` against ``background``."""
    target = (0, 0, 0) if _luminance(background) > 0.18 else (255, 255, 255)
    rgb = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    for step in range(101):
        mixed = "#" + "".join(f"{round(c + (t - c) * step / 100):02X}" for c, t in zip(rgb, target))
        if contrast(mixed, background) >= TEXT_CONTRAST:
            return mixed
    return "#000000" if target == (0, 0, 0) else "#FFFFFF"


def text_colour(colour: str) -> str:
    """CSS colour for words that name a series drawn in ``colour`` (an explorable's summary): the
    series colour made readable on the page, light or dark (:func:`series_text_css` defines the
    variable in the book; elsewhere, e.g. in JupyterLab, the light page's value applies)."""
    return f"var(--flashlab-text-{colour[1:].upper()}, {readable(colour.upper(), LIGHT_PAGE)})"


def series_text_css() -> str:
    """The style sheet behind :func:`text_colour`: each palette colour made readable on the light
    page and on the dark page, as CSS variables (custom properties reach inside bokeh's shadow
    roots, where the book's own style sheet cannot)."""
    def block(selector, page):
        return selector + " {" + " ".join(f"--flashlab-text-{c[1:]}: {readable(c, page)};" for c in PALETTE) + "}"

    return block('html:not([data-theme="dark"])', LIGHT_PAGE) + "\n" + block('html[data-theme="dark"]', DARK_PAGE)



def new_figure(title: str, x_label: str, y_label: str, *, height: int = 300,
               tooltips: list[tuple[str, str]] | None = None, **kwargs):
    """A bokeh figure with the book's look: labelled axes (give units), readable fonts.

    The figure stretches to the width of the page's text column (stack figures in a ``column``
    rather than a ``row``: the column is narrow). ``tooltips`` (label, field) pairs add a hover
    tool. Other keyword arguments go to :func:`bokeh.plotting.figure` (e.g. ``x_range``).
    """
    # The toolbar sits above the plot, beside the title: on the right it needs the plot's
    # height, so short plots pushed tools into a "..." menu, and plot areas ended short of the
    # text column's right edge. No wheel zoom: in a page it captures the reader's scrolling.
    p = figure(
        title=title, height=height, sizing_mode="stretch_width", x_axis_label=x_label,
        y_axis_label=y_label, tools="pan,box_zoom,reset,save", toolbar_location="above", **kwargs,
    )
    # Without the bokeh logo, BokehJS (checked with 3.9) hides the last tool in a "..." menu
    # even when there is room: it keeps 15 px for the menu button, which the logo otherwise
    # provides. The padding gives those 15 px back.
    p.toolbar.logo = None
    p.toolbar.styles = {"padding-left": "16px"}
    p.min_border_right = 20  # the plot area now reaches the column's edge: room for the last x tick label
    p.title.text_font_size = "14px"
    for axis in (p.xaxis, p.yaxis):
        axis.axis_label_text_font_size = FONT_SIZE
        axis.axis_label_text_font_style = "normal"
        axis.major_label_text_font_size = "12px"
    if tooltips:
        p.add_tools(HoverTool(tooltips=tooltips))
    return p


def label_ticks(axis, ticks, fmt: str) -> None:
    """Label ``axis`` at exactly ``ticks`` (no minor ticks), formatted with the numeral format
    ``fmt``: a log axis's own ticker labels only whole decades, e.g. 0.5 and 1 or 50 and 100."""
    axis.ticker = FixedTicker(ticks=[float(t) for t in ticks], minor_ticks=[])
    axis.formatter = NumeralTickFormatter(format=fmt)


def style_legend(p, location: str = "top_left") -> None:
    """Legend inside the plot, small, clickable to hide a series."""
    p.legend.location = location
    p.legend.label_text_font_size = "12px"
    p.legend.click_policy = "hide"
    p.legend.background_fill_alpha = 0.7


def summary_html(html: str) -> str:
    """The explorable's one-paragraph readout above its figures, in the book's text size."""
    return f'<div style="font-size:14px; line-height:1.5">{html}</div>'


def summary_column(data, *children, targets, **div_kwargs):
    """An explorable's layout: its summary readout above ``children``, in one column.

    The readout is a ``Div`` showing ``data["summary"]`` (made with :func:`summary_html`); it and
    the ``children`` (figures, other Divs) stretch to the width of the text column. Returns
    ``(layout, targets)`` with the Div added to ``targets`` as ``"summary"``: what an
    explorable's figure builder returns. ``div_kwargs`` go to the Div (e.g. ``height``).
    """
    summary = Div(text=data["summary"], sizing_mode="stretch_width", **div_kwargs)
    return column(summary, *children, sizing_mode="stretch_width"), {**targets, "summary": summary}


def legend_below(p, ncols: int = 2, *, keep_plot_height: bool = False, font_size: str = "12px",
                 location: str = "top_right") -> None:
    """Move the figure's legend under the plot, in ``ncols`` columns, so it never covers the data.

    ``keep_plot_height`` grows the figure by the legend's rows (22 px each, plus 12) so that the
    plot area keeps its height; otherwise the legend takes its room from the plot area.
    ``location`` aligns the legend in the strip below the plot (``"top_left"``: flush left).
    The legend is unframed and transparent; clicking an entry hides its series.
    """
    legend = p.legend[0]
    p.add_layout(legend, "below")
    legend.location = location
    legend.ncols = ncols
    legend.label_text_font_size = font_size
    legend.click_policy = "hide"
    legend.background_fill_alpha = 0.0
    legend.border_line_alpha = 0.0
    if keep_plot_height:
        p.height += 22 * -(-len(legend.items) // ncols) + 12
