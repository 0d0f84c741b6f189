"""What the browser tests share: how chromium is launched, and a fingerprint of plotted data."""

import os

CHROMIUM = os.environ.get("FLASHLAB_CHROMIUM", "/usr/bin/chromium")
# As the machine's own browser probe runs it: no sandbox as root, no background networking.
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]

# Fingerprint of every ColumnDataSource in every Bokeh document on the page.
DATA_FINGERPRINT_JS = """
() => {
  const out = [];
  for (const doc of (window.Bokeh ? Bokeh.documents : [])) {
    for (const m of doc.all_models) {
      if (m.properties == null || !("data" in m.properties)) continue;
      const cols = m.data instanceof Map ? Object.fromEntries(m.data) : m.data;
      for (const [k, v] of Object.entries(cols).sort()) {
        out.push(m.id + ":" + k + ":" + Array.from(v).join(","));
      }
    }
  }
  return out.join("|");
}
"""

# Every figure's toolbar on the page: [title of its plot, whether BokehJS folded tools into the
# toolbar's "⋮" overflow menu (it does when the title leaves too little room beside it)].
TOOLBAR_FOLDS_JS = """
() => {
  const views = [];
  const visit = (v) => { views.push(v); for (const c of (v.children ? v.children() : [])) visit(c); };
  for (const root of (window.Bokeh ? Bokeh.index : [])) visit(root);
  const out = [];
  for (const v of views) {
    if (v._overflow_el == null || v.model.tools == null) continue;
    const plot = views.find(p => p.model.toolbar === v.model);
    out.push([plot != null && plot.model.title != null ? plot.model.title.text : "?", v.shadow_el.contains(v._overflow_el)]);
  }
  return out;
}
"""


def nudge_slider(page, handle, changed) -> bool:
    """Move a noUiSlider ``handle`` one notch and say whether the plotted data changed, as
    ``changed(page, before_fingerprint)`` judges. A control may rightly change nothing at some
    points (a controller cache that never fills at either setting), so when the first notch
    changes nothing the slider goes back and one notch the other way: False only if neither
    neighbour of its setting changes the figure."""
    handle.scroll_into_view_if_needed()
    before = page.evaluate(DATA_FINGERPRINT_JS)
    now = float(handle.get_attribute("aria-valuenow"))
    low, top = float(handle.get_attribute("aria-valuemin")), float(handle.get_attribute("aria-valuemax"))
    first, back = ("ArrowLeft", "ArrowRight") if now >= top else ("ArrowRight", "ArrowLeft")
    handle.focus()
    page.keyboard.press(first)
    if changed(page, before):
        return True
    if first == "ArrowRight" and now > low:  # the other neighbour exists: try it
        page.keyboard.press(back)
        page.keyboard.press(back)
        return changed(page, before)
    return False
