"""House style for the book's bokeh figures: one place for sizes, fonts, tools and colours."""

from __future__ import annotations

from bokeh.models import HoverTool
from bokeh.palettes import Category10_10
from bokeh.plotting import figure

#: Colours used across chapters (colour-blind-safe Category10 order).
PALETTE = Category10_10
ERASED, PROGRAMMED, REFERENCE, HIGHLIGHT = Category10_10[7], Category10_10[0], Category10_10[3], Category10_10[1]

FONT_SIZE = "13px"


def new_figure(title: str, x_label: str, y_label: str, *, height: int = 300,
               tooltips: list[tuple[str, str]] | None = None, **kwargs):
    """A bokeh figure with the book's look: labelled axes (give units), readable fonts.

    The figure stretches to the width of the page's text column (stack figures in a ``column``
    rather than a ``row``: the column is narrow). ``tooltips`` (label, field) pairs add a hover
    tool. Other keyword arguments go to :func:`bokeh.plotting.figure` (e.g. ``x_range``).
    """
    p = figure(
        title=title, height=height, sizing_mode="stretch_width", x_axis_label=x_label,
        y_axis_label=y_label, tools="pan,box_zoom,wheel_zoom,reset,save", toolbar_location="right",
        **kwargs,
    )
    p.title.text_font_size = "14px"
    for axis in (p.xaxis, p.yaxis):
        axis.axis_label_text_font_size = FONT_SIZE
        axis.axis_label_text_font_style = "normal"
        axis.major_label_text_font_size = "12px"
    if tooltips:
        p.add_tools(HoverTool(tooltips=tooltips))
    return p


def style_legend(p, location: str = "top_left") -> None:
    """Legend inside the plot, small, clickable to hide a series."""
    p.legend.location = location
    p.legend.label_text_font_size = "12px"
    p.legend.click_policy = "hide"
    p.legend.background_fill_alpha = 0.7


def summary_html(html: str) -> str:
    """The explorable's one-paragraph readout above its figures, in the book's text size."""
    return f'<div style="font-size:14px; line-height:1.5">{html}</div>'


def legend_below(p, ncols: int = 2) -> None:
    """Move the figure's legend under the plot area (the text column is narrow)."""
    leg = p.legend[0]
    p.center.remove(leg)
    leg.ncols = ncols
    leg.label_text_font_size = "12px"
    leg.click_policy = "hide"
    leg.border_line_alpha = 0
    p.add_layout(leg, "below")
