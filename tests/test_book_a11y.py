"""The built book against WCAG 2.1 AA, in a real browser (Debian's chromium, Playwright).

* axe-core (axe-playwright-python) on every page of both editions (a student page the same as its
  instructor page is checked once), and of the instructor edition in dark mode too (the rules
  that read colours): no serious or critical violation. The count per page is printed (``pytest
  -s`` shows it; a failure lists every violation).
* Every explorable is a group named by its plots' titles and described by a live region that
  holds its summary sentence; moving any slider (with the keyboard) changes that description.
  Every slider handle is named after its control and says the setting it shows.
* Every control is reached with the Tab key and shows where the focus is.
* Every explorable's plotted data downloads as CSV.
"""

from __future__ import annotations

import csv
import io

import pytest

from browser_support import nudge_slider
from test_book_browser import _edition_pages, _explorable_pages, _open

pytestmark = pytest.mark.book

BLOCKING = ("serious", "critical")


#: The axe rules that read colours. The dark mode changes the theme's colours and nothing else,
#: so in dark mode these are the rules whose verdict can differ from the light mode's.
COLOUR_RULES = ("color-contrast", "link-in-text-block")


def axe_violations(page, rules: tuple[str, ...] | None = None) -> list[dict]:
    """axe-core's violations on ``page``: every rule, or only ``rules``."""
    from axe_playwright_python.sync_playwright import Axe

    # Only the violations are read: axe then records one node per passing rule instead of every
    # node it checked, which halves the time of a run on a long page.
    options = {"resultTypes": ["violations"]}
    if rules is not None:
        options["runOnly"] = {"type": "rule", "values": list(rules)}
    return Axe().run(page, options=options).response["violations"]


@pytest.mark.parametrize("edition, mode", [("instructor", "light"), ("instructor", "dark"), ("student", "light")])
def test_no_serious_or_critical_axe_violation(browser, book_html, student_html, edition, mode):
    site = book_html if edition == "instructor" else student_html
    problems, counts = [], []
    for path in _edition_pages(site, book_html):
        page, _, _ = _open(browser, site, path, mode)
        if "flashlab-explorable" in path.read_text(encoding="utf-8"):
            page.wait_for_function("() => window.Bokeh && Bokeh.documents.length > 0", timeout=30_000)
            page.wait_for_timeout(1000)  # figures drawn, sliders labelled, dark colours applied
        rules = COLOUR_RULES if mode == "dark" else None
        found = [v for v in axe_violations(page, rules) if v["impact"] in BLOCKING]
        name = path.relative_to(site).as_posix()
        counts.append(f"{name}: {sum(len(v['nodes']) for v in found)} serious/critical ({len(found)} rules)")
        for v in found:
            targets = [n["target"] for n in v["nodes"][:3]]
            problems.append(f"{name}: {v['impact']} {v['id']} x{len(v['nodes'])} ({v['help']}) e.g. {targets}")
        page.close()
    print(f"\naxe, {edition} edition, {mode} mode:\n  " + "\n  ".join(counts))
    assert not problems, "\n".join(problems)


DESCRIPTIONS_JS = """
() => [...document.querySelectorAll('.flashlab-explorable')].map(g => {
  const region = document.getElementById(g.getAttribute('aria-describedby') || '');
  return [g.getAttribute('role'), g.getAttribute('aria-label'), region ? region.textContent : null,
          region ? region.getAttribute('aria-live') : null];
})
"""


def test_every_explorable_is_described_and_every_slider_labelled(browser, book_html):
    failures, sliders = [], 0
    for path in _explorable_pages(book_html):
        page, errors, _ = _open(browser, book_html, path)
        page.wait_for_function("() => window.Bokeh && Bokeh.documents.length > 0", timeout=30_000)
        handles = page.locator(".noUi-handle")
        handles.first.wait_for(timeout=30_000)
        page.wait_for_timeout(600)
        for role, name, text, live in page.evaluate(DESCRIPTIONS_JS):
            if role != "group" or not name or not text or live != "polite":
                failures.append(f"{path.name}: explorable not described: {role=} {name=} {text=} {live=}")

        def described(page):
            return [d[2] for d in page.evaluate(DESCRIPTIONS_JS)]

        for i in range(handles.count()):
            sliders += 1
            h = handles.nth(i)
            label, said = h.get_attribute("aria-label"), h.get_attribute("aria-valuetext")
            if not label or not said:
                failures.append(f"{path.name}: slider {i} has no name or value text ({label=}, {said=})")
            before = described(page)
            if not nudge_slider(page, h, lambda p, _: (p.wait_for_timeout(100), described(p) != before)[1]):
                failures.append(f"{path.name}: slider {i} ({label}) moved, its figure's description did not change")
            elif h.get_attribute("aria-valuetext") == said and said is not None:
                failures.append(f"{path.name}: slider {i} ({label}) moved, it still says {said!r}")
        failures += [f"{path.name}: console error {e}" for e in errors]
        page.close()
    assert sliders > 0
    assert not failures, "\n".join(failures)


# The focused element, through the shadow roots BokehJS draws its widgets in, and its outline.
FOCUSED_JS = """
() => {
  let el = document.activeElement;
  while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
  if (!el || el === document.body) return null;
  const s = getComputedStyle(el);
  const ring = (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== 'none';
  window.__focusIds = window.__focusIds || new WeakMap();
  if (!window.__focusIds.has(el)) window.__focusIds.set(el, (window.__focusN = (window.__focusN || 0) + 1));
  return [String(el.className || el.tagName), el.getAttribute('aria-label') || el.textContent.trim().slice(0, 60),
          ring, window.__focusIds.get(el)];
}
"""


def test_every_control_is_reached_by_tab_and_shows_its_focus(browser, book_html):
    failures = []
    for path in _explorable_pages(book_html):
        page, _, _ = _open(browser, book_html, path)
        page.wait_for_function("() => window.Bokeh && Bokeh.documents.length > 0", timeout=30_000)
        page.locator(".noUi-handle").first.wait_for(timeout=30_000)
        page.wait_for_timeout(600)
        want_sliders = page.locator(".noUi-handle").count()
        want_buttons = page.locator(".bk-btn").count()
        seen_sliders, seen_buttons, unringed = set(), set(), set()
        for _ in range(600):
            page.keyboard.press("Tab")
            got = page.evaluate(FOCUSED_JS)
            if got is None:
                continue
            cls, name, ring, key = got
            if "noUi-handle" in cls:
                seen_sliders.add(key)
            elif "bk-btn" in cls:
                seen_buttons.add(key)
            else:
                continue
            if not ring:
                unringed.add(f"{cls} {name!r}")
            if len(seen_sliders) >= want_sliders and len(seen_buttons) >= want_buttons:
                break
        if len(seen_sliders) < want_sliders or len(seen_buttons) < want_buttons:
            failures.append(f"{path.name}: Tab reached {len(seen_sliders)}/{want_sliders} sliders, "
                            f"{len(seen_buttons)}/{want_buttons} buttons")
        failures += [f"{path.name}: no visible focus on {u}" for u in sorted(unringed)]
        page.close()
    assert not failures, "\n".join(failures)


def test_every_explorable_downloads_its_plotted_data_as_csv(browser, book_html):
    failures, checked = [], 0
    for path in _explorable_pages(book_html):
        page, _, _ = _open(browser, book_html, path)
        page.wait_for_function("() => window.Bokeh && Bokeh.documents.length > 0", timeout=30_000)
        buttons = page.get_by_role("button", name="Download the plotted data (CSV)")
        buttons.first.wait_for(timeout=30_000)
        groups = page.locator(".flashlab-explorable").count()
        if buttons.count() != groups:
            failures.append(f"{path.name}: {buttons.count()} CSV buttons for {groups} figures")
        for i in range(buttons.count()):
            with page.expect_download() as info:
                buttons.nth(i).click()
            download = info.value
            text = open(download.path(), encoding="utf-8").read()
            rows = [r for r in csv.reader(io.StringIO(text)) if r and not r[0].startswith("#")]
            numbers = sum(1 for r in rows for c in r if _is_number(c))
            if not download.suggested_filename.endswith(".csv") or not text.startswith("# ") or numbers == 0:
                failures.append(f"{path.name}: CSV {i} ({download.suggested_filename}) holds no numbers:\n{text[:300]}")
            checked += 1
        page.close()
    assert checked > 0
    assert not failures, "\n".join(failures)


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True
