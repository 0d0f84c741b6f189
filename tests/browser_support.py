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


def _nudge(handle, press, changed_since) -> list[bool]:
    """Move a noUiSlider ``handle`` one notch with ``press(key)``, and say for each reading
    ``changed_since()`` returns (a list of bools, against the caller's reading before) whether
    it changed. A control may rightly change nothing at some points (a controller cache that
    never fills at either setting), so a reading the first notch leaves unchanged is judged again
    one notch the other way: False only if neither neighbour of the setting changes it."""
    handle.scroll_into_view_if_needed()
    now = float(handle.get_attribute("aria-valuenow"))
    low, top = float(handle.get_attribute("aria-valuemin")), float(handle.get_attribute("aria-valuemax"))
    first, back = ("ArrowLeft", "ArrowRight") if now >= top else ("ArrowRight", "ArrowLeft")
    handle.focus()
    press(first)
    changed = changed_since()
    if not all(changed) and first == "ArrowRight" and now > low:  # the other neighbour exists: try it
        press(back)
        press(back)
        changed = [c or d for c, d in zip(changed, changed_since())]
    return changed


def slider_handles(page) -> list:
    """Every noUiSlider handle on the page, as (index, handle, its name, what it says):
    ``aria-label`` and ``aria-valuetext`` as the page has them now."""
    handles = page.locator(".noUi-handle")
    out = []
    for i in range(handles.count()):
        h = handles.nth(i)
        out.append((i, h, h.get_attribute("aria-label"), h.get_attribute("aria-valuetext")))
    return out


def nudge_slider(page, handle, changed) -> bool:
    """Move a live widget's slider ``handle`` one notch (:func:`_nudge`) and say whether the
    plotted data changed, as ``changed(page, before_fingerprint)`` judges (it waits for the
    kernel's answer)."""
    before = page.evaluate(DATA_FINGERPRINT_JS)
    return _nudge(handle, page.keyboard.press, lambda: [changed(page, before)])[0]


# An explorable page is ready once every figure is embedded and drawn and the book's own script
# (book/_static/flashlab-a11y.js, on a 250 ms timer) has named every slider handle and given every
# control its focus style: what the browser tests slept 600-1,000 ms for, read off the page.
FIGURES_READY_JS = """
() => {
  if (!window.Bokeh) return false;
  const groups = document.querySelectorAll('.flashlab-explorable').length;
  if (Bokeh.documents.length < groups || !Bokeh.documents.every(d => d.is_idle)) return false;
  const views = [];
  const visit = (v) => { views.push(v); for (const c of (v.children ? v.children() : [])) visit(c); };
  for (const root of Bokeh.index) visit(root);
  for (const v of views) {
    const root = v.shadow_el;
    if (root == null || root.querySelector('.noUi-handle, .bk-btn, .bk-input') == null) continue;
    if (![...root.querySelectorAll('style')].some(s => s.textContent.includes('focus-visible'))) return false;
    const handle = root.querySelector('.noUi-handle');
    if (handle != null && !handle.hasAttribute('aria-label')) return false;
  }
  return views.length > 0;
}
"""


def wait_for_figures(page, timeout_ms: float = 30_000) -> None:
    """Wait until the page's explorables are drawn and labelled (FIGURES_READY_JS), polling
    every animation frame: no fixed sleep."""
    page.wait_for_function(FIGURES_READY_JS, timeout=timeout_ms, polling="raf")


def press_notch(page, handle, key: str, timeout_ms: float = 5_000) -> None:
    """Press ``key`` on a focused noUiSlider ``handle`` and wait until the slider has taken the
    notch (its ``aria-valuenow`` moved). noUiSlider fires its events, and BokehJS its slider's
    CustomJS, inside the key's own event handler: once the notch is taken, whatever it changes
    has changed; nothing is left to sleep for, and a notch that rightly changes nothing costs
    no wait."""
    element = handle.element_handle()
    was = element.get_attribute("aria-valuenow")
    page.keyboard.press(key)
    page.wait_for_function("([h, was]) => h.getAttribute('aria-valuenow') !== was", arg=[element, was],
                           timeout=timeout_ms, polling="raf")


def nudge_static_slider(page, handle, state_js: str) -> list[bool]:
    """Move a static explorable's slider ``handle`` one notch (:func:`_nudge`, each press
    awaited by :func:`press_notch`); for each reading of ``state_js`` (a JS function returning a
    list, e.g. [plotted data, descriptions]) say whether it changed."""
    before = page.evaluate(state_js)
    return _nudge(handle, lambda key: press_notch(page, handle, key),
                  lambda: [a != b for a, b in zip(page.evaluate(state_js), before)])
