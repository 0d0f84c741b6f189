"""The built book in a real browser (Debian's chromium driven by Playwright), from file://.

Every page, of the instructor and the student edition, in light and dark mode: no console
errors, no request outside the book's folder, no dead widgets. In dark mode the figures turn dark.
Every static explorable: moving each slider with the keyboard changes the plotted data, and
every figure shows all of its tools beside its title.

The checks that need a page open in the browser are functions here (``check_*``) and in
test_book_a11y.py; tests/test_book_pages.py opens each page once per edition and mode and runs
every check that applies to it on that one visit.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from browser_support import DATA_FINGERPRINT_JS, TOOLBAR_FOLDS_JS, wait_for_figures

pytestmark = pytest.mark.book


_REDIRECT = re.compile(r'\s*<meta http-equiv="Refresh" content="0; url=([^"]+)"\s*/>\s*', re.IGNORECASE)


def _redirect_target(page: Path) -> Path | None:
    """Where a redirect stub (Jupyter Book's root ``index.html``, one meta refresh and nothing
    else) sends the reader, or None for a real page. A stub is not opened as a page: the browser
    leaves it as soon as it has loaded, so a check run on it races the navigation."""
    match = _REDIRECT.fullmatch(page.read_text(errors="replace"))
    return page.parent / match.group(1) if match else None


def _pages(book_html: Path) -> list[Path]:
    pages = sorted(p for p in book_html.rglob("*.html") if "_static" not in p.parts and "_sources" not in p.parts
                   and _redirect_target(p) is None)
    assert pages, "the built book has no pages"
    return pages


def test_redirect_stubs_lead_to_a_page(book_html, student_html):
    """The root ``index.html`` of each edition is a redirect stub; it must lead to a built page."""
    for site in (book_html, student_html):
        stubs = [p for p in site.rglob("*.html") if "_static" not in p.parts and _redirect_target(p) is not None]
        assert site / "index.html" in stubs, f"{site}/index.html is not a redirect stub any more"
        for stub in stubs:
            assert _redirect_target(stub).is_file(), f"{stub} redirects to a missing page"


def _edition_pages(site: Path, book_html: Path) -> list[Path]:
    """The pages of ``site`` a check must open. The student edition is built from the same tree
    with the solutions taken out, so a student page byte-for-byte the same as its instructor page
    (the API reference, the index, the back matter) has been checked already, in the instructor
    edition; only the pages that differ (every chapter with exercises) are opened again."""
    pages = _pages(site)
    if site == book_html:
        return pages
    differ = [p for p in pages if not (book_html / p.relative_to(site)).is_file()
              or (book_html / p.relative_to(site)).read_bytes() != p.read_bytes()]
    assert any(p.parent.name == "chapters" for p in differ), "no student chapter differs from the instructor's"
    return differ


def _open(browser, book_html: Path, page_path: Path, mode: str = "light"):
    """Open a page (in the theme's light or dark mode), recording console errors and blocking
    (and recording) outside requests."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    if mode != "light":  # what the theme's mode switch stores, read before the page renders
        page.add_init_script(f"localStorage.setItem('mode', '{mode}'); localStorage.setItem('theme', '{mode}');")
    errors, outside = [], []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    root = book_html.resolve().as_uri()

    def guard(route):
        url = route.request.url
        if url.startswith(root + "/") or url.startswith(("data:", "blob:")):
            route.continue_()
        else:
            outside.append(url)
            route.abort()

    page.route("**/*", guard)
    page.goto(page_path.resolve().as_uri(), wait_until="load")
    return page, errors, outside


def settle(page) -> list[str]:
    """Wait until the page opened by :func:`_open` is settled: MathJax has typeset it and, on an
    explorable's page, every figure is drawn and labelled (see wait_for_figures; up to 30 s).
    The checks read the page after this (it replaced a fixed 300 ms, and 600-1,000 ms more in
    the checks). Returns the problem if the page does not settle."""
    page.evaluate("async () => { if (window.MathJax && MathJax.startup && MathJax.startup.promise) "
                  "await MathJax.startup.promise; }")
    if page.locator(".flashlab-explorable").count():
        wait_for_figures(page)
    return []


def _wide_boxes(page) -> list[str]:
    """The longest line of every code or output box that scrolls sideways. Code cells and their
    printed outputs are wrapped at 80 columns (tests/test_prose.py); in the 1280 px window of
    :func:`_open` they must fit, so the 80-column limit and the book's code font size agree."""
    return page.evaluate("""() => [...document.querySelectorAll('div.cell pre')]
        .filter(e => e.scrollWidth > e.clientWidth + 1)
        .map(e => e.textContent.split('\\n').reduce((a, b) => b.length > a.length ? b : a))""")


def check_loads_cleanly(page, errors, outside, path: Path, mode: str, wide_boxes: bool) -> list[str]:
    """A page opened by :func:`_open`: in the ``mode`` asked for, no console error, no request
    outside the book, no ipywidgets (they need a kernel); with ``wide_boxes`` (the instructor's
    chapters, light mode) no code or output box that scrolls sideways."""
    problems = []
    if page.evaluate("document.documentElement.dataset.theme") != mode:
        problems.append(f"not in {mode} mode")
    html = page.content()
    if errors:
        problems.append(f"console errors {errors}")
    if outside:
        problems.append(f"requests outside the book {outside}")
    if "application/vnd.jupyter.widget-view+json" in html or "jupyter-widgets" in html:
        problems.append("shows ipywidgets that cannot work without a kernel")
    if wide_boxes:
        problems += [f"a code or output box scrolls sideways: {line!r}" for line in _wide_boxes(page)]
    return problems


def test_api_reference_documents_every_public_layer(book_html):
    pages = sorted((book_html / "book" / "api").glob("*.html"))
    assert len(pages) >= 8, f"the API reference has {len(pages)} layer pages"
    text = "".join(p.read_text(encoding="utf-8") for p in pages)
    for module in ("cell", "device", "ftl", "ssd", "drives", "array", "db", "tech", "workload", "presets", "quiz",
                   "sweep", "viz.explorable"):
        assert f'id="module-flashlab.{module}"' in text, f"flashlab.{module} missing from the API reference"
    for name in ("flashlab.ftl.Ftl", "flashlab.cell.program_page", "flashlab.ssd.simulate_io", "flashlab.quiz.make"):
        assert f'id="{name}"' in text, f"{name} not documented"


def test_each_chapter_downloads_as_executed_notebook_and_source(book_html):
    import json

    for page in sorted((book_html / "chapters").glob("*.html")):
        html = page.read_text(encoding="utf-8")
        for suffix in (".ipynb", ".md"):
            assert f"_sources/chapters/{page.stem}{suffix}" in html, f"{page.name}: no {suffix} download"
        nb = json.loads((book_html / "_sources" / "chapters" / f"{page.stem}.ipynb").read_text(encoding="utf-8"))
        outputs = [o for c in nb["cells"] if c["cell_type"] == "code" for o in c.get("outputs", [])]
        assert outputs, f"{page.stem}.ipynb download has no outputs: not the executed notebook"


# Luminance (0 black .. 1 white) of a CSS colour, as the page computes it.
LUMINANCE_JS = """
(colour) => {
  const el = document.createElement("div"); el.style.color = colour; document.body.appendChild(el);
  const [r, g, b] = getComputedStyle(el).color.match(/[0-9.]+/g).map(Number); el.remove();
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
}
"""
FIGURE_COLOURS_JS = """
() => {
  const out = {background: [], text: []};
  for (const doc of Bokeh.documents) for (const m of doc.all_models) {
    if (m.properties == null) continue;
    if ("toolbar" in m.properties && m.background_fill_color != null) out.background.push(m.background_fill_color);
    if ("axis_label_text_color" in m.properties) out.text.push(m.major_label_text_color);
  }
  return out;
}
"""


# The figures' colours, each with its luminance, read in one round trip.
FIGURE_LUMINANCES_JS = f"""
() => {{
  const luminance = {LUMINANCE_JS}, seen = new Map();
  const lum = (x) => {{ if (!seen.has(x)) seen.set(x, luminance(x)); return seen.get(x); }};
  const c = ({FIGURE_COLOURS_JS})();
  return {{background: c.background.map(x => [x, lum(x)]), text: c.text.map(x => [x, lum(x)])}};
}}
"""

# In dark mode, every figure's background is dark and its axis labels light.
DARK_FIGURES_JS = f"""
() => {{
  const lum = {LUMINANCE_JS};
  const c = ({FIGURE_COLOURS_JS})();
  return c.background.length > 0 && c.text.length > 0 && c.background.every(x => lum(x) < 0.25)
         && c.text.every(x => lum(x) > 0.5);
}}
"""


def wait_for_dark_figures(page, timeout_ms: float = 5_000) -> None:
    """On a page opened in dark mode, wait until its figures are dark: book/_static/
    flashlab-theme.js recolours them on a 250 ms timer as they appear (the checks waited 600 ms
    before). Past the timeout it returns; :func:`check_figures_follow_dark_mode_and_back` says
    what is wrong."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(DARK_FIGURES_JS, timeout=timeout_ms, polling=50)
    except PlaywrightTimeout:
        pass


def check_figures_follow_dark_mode_and_back(page) -> list[str]:
    """An explorable's page opened in dark mode: its figures are dark (awaited up to 5 s, see
    :func:`wait_for_dark_figures`); the theme's switch to light mode restores the light
    figures."""
    wait_for_dark_figures(page)
    problems = []
    dark = page.evaluate(FIGURE_LUMINANCES_JS)
    if not (dark["background"] and dark["text"]):
        return [f"no figure colours to check {dark}"]
    if not all(lum < 0.25 for _, lum in dark["background"]):
        problems.append(f"light figures on a dark page {dark}")
    if not all(lum > 0.5 for _, lum in dark["text"]):
        problems.append(f"dark axis labels on a dark page {dark}")
    page.evaluate("document.documentElement.dataset.theme = 'light'")  # the theme's switch
    # The theme script recolours on the attribute's change (a MutationObserver, a microtask
    # later; a fixed 300 ms before): the next animation frame sees it.
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => r()))")
    light = page.evaluate(FIGURE_LUMINANCES_JS)
    if not all(lum > 0.9 for _, lum in light["background"]):
        problems.append(f"light mode not restored {light}")
    if not all(lum < 0.5 for _, lum in light["text"]):
        problems.append(f"dark-mode axis labels left in light mode {light}")
    return problems


def test_mathjax_and_bokeh_come_from_the_book(book_html):
    static = book_html / "_static"
    assert list((static / "bokeh").glob("bokeh-*.min.js")), "BokehJS not copied into _static/bokeh"
    assert (static / "mathjax" / "tex-chtml.js").exists(), "MathJax not vendored into _static/mathjax"


def _explorable_pages(book_html: Path) -> list[Path]:
    return [p for p in _pages(book_html) if "flashlab-explorable" in p.read_text(encoding="utf-8")]


def test_book_has_explorables(book_html):
    assert _explorable_pages(book_html), "no page of the book embeds a static explorable"


def check_every_figure_shows_its_tools_beside_its_title(page) -> list[str]:
    """A title too long for the room beside the toolbar makes BokehJS fold tools into a "⋮" menu
    (chapter 5's per-layer RBER title hid its hover tool): shorten the title."""
    found = page.evaluate(TOOLBAR_FOLDS_JS)
    if not found:
        return ["no figure toolbar found"]
    return [f"tools folded into a menu: {title!r}" for title, fold in found if fold]


# What a slider's notch must change on a static explorable's page: its plotted data (every
# ColumnDataSource) and its description (each explorable's live region; test_book_a11y.py).
SLIDER_STATE_JS = f"""
() => [({DATA_FINGERPRINT_JS})(),
       [...document.querySelectorAll('.flashlab-explorable')].map(g =>
         (document.getElementById(g.getAttribute('aria-describedby') || '') || {{}}).textContent)]
"""
