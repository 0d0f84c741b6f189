"""The explorable plumbing: one figure builder, a static (CustomJS) mode and a live mode."""

import json

import numpy as np
import pytest
from bokeh.embed import json_item
from bokeh.models import ColumnDataSource, CustomJS, Div
from bokeh.plotting import figure

from flashlab.viz.explorable import Control, Explorable, apply


def _compute(gain, offset):
    x = np.linspace(0.0, 1.0, 5)
    return {"line": {"x": x, "y": gain * x + offset}, "summary": f"<b>gain</b> {gain:g}"}


def _figure(data):
    src = ColumnDataSource(data["line"])
    note = Div(text=data["summary"])
    p = figure(width=300, height=200, x_axis_label="x (V)", y_axis_label="y (V)")
    p.line("x", "y", source=src)
    from bokeh.layouts import column

    return column(note, p), {"line": src, "summary": note}


def _explorable():
    return Explorable(
        _compute,
        _figure,
        [
            Control("gain", "Gain", (1.0, 2.0, 3.0), 2.0, live_values=(1.0, 1.5, 2.0, 2.5, 3.0)),
            Control("offset", "Offset (V)", (0.0, 0.5), 0.0),
        ],
    )


def test_static_embeds_every_grid_point_in_row_major_order():
    st = _explorable().static()
    assert st.grid_size == 6
    callbacks = {cb for s in st.sliders for cb in s.js_property_callbacks["change:value"]}
    assert len(callbacks) == 1
    (cb,) = callbacks
    assert isinstance(cb, CustomJS)
    grid = cb.args["grid"]
    # Row-major: point k = i_gain * 2 + i_offset, as the JS computes it.
    np.testing.assert_allclose(grid[5]["line"]["y"], 3.0 * np.linspace(0, 1, 5) + 0.5, rtol=1e-6)
    np.testing.assert_allclose(grid[2]["line"]["y"], 2.0 * np.linspace(0, 1, 5), rtol=1e-6)
    assert grid[2]["summary"] == "<b>gain</b> 2"
    # Sliders start at the defaults and say so.
    assert [s.value for s in st.sliders] == [1, 0]
    assert st.sliders[0].title == "Gain"
    assert st.sliders[0].format.args["shown"] == ["1", "2", "3"]
    # The layout serializes (what the book embeds).
    json.dumps(json_item(st.layout))


def test_apply_updates_sources_and_divs():
    layout, targets = _figure(_compute(1.0, 0.0))
    apply(targets, _compute(3.0, 1.0))
    np.testing.assert_allclose(targets["line"].data["y"], 3.0 * np.linspace(0, 1, 5) + 1.0, rtol=1e-6)
    assert targets["summary"].text == "<b>gain</b> 3"


def test_live_dashboard_calls_the_engine_on_change():
    calls = []

    def compute(gain, offset):
        calls.append((gain, offset))
        return _compute(gain, offset)

    ex = Explorable(compute, _figure, _explorable().controls)
    box = ex.live()
    gain_slider = box.children[0]
    bokeh_widget = box.children[-1]
    gain_slider.value = 2.5  # a live-only value, between grid points
    assert calls[-1] == (2.5, 0.0)
    # The same figure (inside the jupyter_bokeh widget) now shows the engine's answer.
    doc_sources = [m for m in bokeh_widget._model.references() if isinstance(m, ColumnDataSource)]
    assert any(np.allclose(s.data["y"], 2.5 * np.linspace(0, 1, 5)) for s in doc_sources)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(name="g", label="G", values=(1.0,), default=1.0), "at least 2"),
        (dict(name="g", label="G", values=(1.0, 2.0), default=3.0), "default"),
        (dict(name="g", label="G", values=(1.0, 2.0), default=1.0, live_values=(2.0, 3.0)), "live_values"),
        # a slider over flags reads "False" / "True" (as chapter 9's cache switch did): name the settings
        (dict(name="cache", label="Cache", values=(False, True), default=False), "name their settings"),
        (dict(name="cache", label="Cache", values=("off", "on"), default="off", live_values=("off", "on", True)),
         "name their settings"),
    ],
)
def test_control_rejects_bad_settings(kwargs, match):
    with pytest.raises(ValueError, match=match):
        Control(**kwargs)


def test_explorable_rejects_duplicate_control_names():
    c = Control("g", "G", (1.0, 2.0), 1.0)
    with pytest.raises(ValueError, match="distinct"):
        Explorable(_compute, _figure, [c, c])



def _callback(model, event):
    (cb,) = model.js_property_callbacks[event]
    return cb


def test_static_figure_is_described_by_its_summary_and_announces_it():
    st = _explorable().static()
    a = st.access
    # The live region holds the summary's text (no markup) and is what describes the group.
    assert f'id="{a.region_id}"' in a.region_html and 'aria-live="polite"' in a.region_html
    assert ">gain 2</p>" in a.region_html
    # Moving a slider replaces the summary Div's text; its CustomJS copies it into the region.
    summary = next(m for m in st.layout.select({"type": Div}) if m.text == "<b>gain</b> 2")
    cb = _callback(summary, "change:text")
    assert cb.args["region"] == a.region_id and "getElementById(region)" in cb.code
    # The figure can be read as numbers: a CSV button over every data source.
    (button,) = [b for b in st.layout.select({"name": "data-csv"})]
    (click,) = button.js_event_callbacks["button_click"]
    assert list(click.args["names"]) == ["line"] and click.args["summary"] is summary


def test_live_dashboard_has_the_same_description_region():
    box = _explorable().live()
    region = box.children[-2]
    assert 'role="status"' in region.value and ">gain 2</p>" in region.value
    summary = next(m for m in box.children[-1]._model.references() if isinstance(m, Div) and "gain" in m.text)
    assert _callback(summary, "change:text").args["region"] in region.value


def test_explorable_without_a_summary_is_refused():
    def bare(data):
        src = ColumnDataSource(data["line"])
        p = figure(width=300, height=200)
        p.line("x", "y", source=src)
        return p, {"line": src}

    with pytest.raises(ValueError, match="summary"):
        Explorable(_compute, bare, _explorable().controls).static()


def test_series_told_apart_by_colour_alone_get_dashes_and_markers():
    from bokeh.layouts import column

    from flashlab.viz.explorable import not_by_colour_alone

    p = figure(width=300, height=200)
    a = p.line([0, 1], [0, 1], color="red", legend_label="a")
    b = p.line([0, 1], [1, 0], color="green", legend_label="b")
    c = p.line([0, 1], [1, 1], color="blue", line_dash="dashed", legend_label="c")
    d = p.scatter([0], [0], color="red", legend_label="d")
    e = p.scatter([1], [1], color="green", legend_label="e")
    not_by_colour_alone(column(p))
    dashes = [tuple(r.glyph.line_dash) for r in (a, b, c)]
    assert len(set(dashes)) == 3 and dashes[0] == () and dashes[2] == (6,), dashes  # "dashed" kept
    assert d.glyph.marker == "circle" and e.glyph.marker != "circle"


def test_plain_text_is_what_the_live_region_announces():
    from flashlab.viz.explorable import plain_text

    assert plain_text("<b>8 pulses</b>; V<sub>th</sub> = 2.25 V.<br>host writes 60 &middot; GC") == \
        "8 pulses; Vth = 2.25 V. host writes 60 · GC"
    assert plain_text("<p>one</p><p>two</p>") == "one two"
