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

The checks are functions (``check_*``); tests/test_book_pages.py runs them, with those of
test_book_browser.py, on one visit of each page.
"""

from __future__ import annotations

import csv
import io

import pytest

from browser_support import slider_handles

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
    options = {"resultTypes": ["violations"], "preload": False}
    if rules is not None:
        options["runOnly"] = {"type": "rule", "values": list(rules)}
    return Axe().run(page, options=options).response["violations"]


def check_no_serious_or_critical_axe_violation(page, mode: str) -> tuple[list[str], str]:
    """axe-core on an open page (its figures drawn, sliders labelled, dark colours applied):
    every rule in light mode, the rules that read colours in dark mode. Returns the problems and
    a line counting them for the page (``pytest -s`` prints it)."""
    rules = COLOUR_RULES if mode == "dark" else None
    found = [v for v in axe_violations(page, rules) if v["impact"] in BLOCKING]
    problems = [f"{v['impact']} {v['id']} x{len(v['nodes'])} ({v['help']}) e.g. {[n['target'] for n in v['nodes'][:3]]}"
                for v in found]
    return problems, f"{sum(len(v['nodes']) for v in found)} serious/critical ({len(found)} rules)"


DESCRIPTIONS_JS = """
() => [...document.querySelectorAll('.flashlab-explorable')].map(g => {
  const region = document.getElementById(g.getAttribute('aria-describedby') || '');
  return [g.getAttribute('role'), g.getAttribute('aria-label'), region ? region.textContent : null,
          region ? region.getAttribute('aria-live') : null];
})
"""


def check_every_explorable_is_described_and_every_slider_labelled(page) -> list[str]:
    """Every explorable is a group named by its plots' titles, described by a polite live region
    that holds its summary; every slider handle has a name and says its setting. (That each
    slider's move changes the description, and what the handle says: test_book_pages.py moves
    every slider once for this and for the plotted data.)"""
    failures = []
    groups = page.evaluate(DESCRIPTIONS_JS)
    if not groups:
        failures.append("no explorable group found")
    for role, name, text, live in groups:
        if role != "group" or not name or not text or live != "polite":
            failures.append(f"explorable not described: {role=} {name=} {text=} {live=}")
    sliders = slider_handles(page)
    if not sliders:
        failures.append("explorable has no slider handles")
    for i, _, label, said in sliders:
        if not label or not said:
            failures.append(f"slider {i} has no name or value text ({label=}, {said=})")
    return failures


# After each Tab key (its keyup, when the focus has moved), the focused element, through the
# shadow roots BokehJS draws its widgets in, and whether it shows a focus ring: logged in the
# page, [class, name, ring, id] per key, null where the focus is on no element. (A focusin
# listener would miss moves inside one shadow root: the event does not leave it.)
FOCUS_LOG_JS = """
() => {
  window.__focusLog = [];
  const ids = new WeakMap();
  let n = 0;
  window.addEventListener('keyup', (event) => {
    if (event.key !== 'Tab') return;
    let el = document.activeElement;
    while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
    if (!el || el === document.body) { window.__focusLog.push(null); return; }
    const s = getComputedStyle(el);
    const ring = (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== 'none';
    if (!ids.has(el)) ids.set(el, ++n);
    window.__focusLog.push([String(el.className || el.tagName),
                            el.getAttribute('aria-label') || el.textContent.trim().slice(0, 60), ring, ids.get(el)]);
  }, true);
}
"""
# Tab presses sent between two reads of the log: one round trip each (the key is truly pressed),
# and the log read once per batch, not once per key (600 key presses and 600 reads before).
TAB_BATCH = 40
TAB_LIMIT = 600


def check_every_control_is_reached_by_tab_and_shows_its_focus(page) -> list[str]:
    """From the top of the page, pressing Tab reaches every slider handle and every button of the
    explorables (within 600 presses), each showing a focus ring."""
    page.evaluate(FOCUS_LOG_JS)
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); }")
    want_sliders = page.locator(".noUi-handle").count()
    want_buttons = page.locator(".bk-btn").count()
    seen_sliders, seen_buttons, unringed = set(), set(), set()
    pressed, read = 0, 0
    while pressed < TAB_LIMIT:
        for _ in range(TAB_BATCH):
            page.keyboard.press("Tab")
        pressed += TAB_BATCH
        log = page.evaluate("() => window.__focusLog")
        for got in log[read:]:
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
        read = len(log)
        if len(seen_sliders) >= want_sliders and len(seen_buttons) >= want_buttons:
            break
    failures = []
    if len(seen_sliders) < want_sliders or len(seen_buttons) < want_buttons:
        failures.append(f"Tab reached {len(seen_sliders)}/{want_sliders} sliders, "
                        f"{len(seen_buttons)}/{want_buttons} buttons")
    return failures + [f"no visible focus on {u}" for u in sorted(unringed)]


def check_every_explorable_downloads_its_plotted_data_as_csv(page) -> list[str]:
    failures = []
    buttons = page.get_by_role("button", name="Download the plotted data (CSV)")
    groups = page.locator(".flashlab-explorable").count()
    if buttons.count() != groups or groups == 0:
        failures.append(f"{buttons.count()} CSV buttons for {groups} figures")
    for i in range(buttons.count()):
        with page.expect_download() as info:
            buttons.nth(i).click()
        download = info.value
        text = open(download.path(), encoding="utf-8").read()
        rows = [r for r in csv.reader(io.StringIO(text)) if r and not r[0].startswith("#")]
        numbers = sum(1 for r in rows for c in r if _is_number(c))
        if not download.suggested_filename.endswith(".csv") or not text.startswith("# ") or numbers == 0:
            failures.append(f"CSV {i} ({download.suggested_filename}) holds no numbers:\n{text[:300]}")
    return failures


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True
