"""The built book in a real browser (Debian's chromium driven by Playwright), from file://.

Every page: no console errors, no request outside the book's folder, no dead widgets.
Every static explorable: moving each slider with the keyboard changes the plotted data.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from browser_support import DATA_FINGERPRINT_JS

pytestmark = pytest.mark.book


def _pages(book_html: Path) -> list[Path]:
    pages = sorted(p for p in book_html.rglob("*.html") if "_static" not in p.parts and "_sources" not in p.parts)
    assert pages, "the built book has no pages"
    return pages


def _open(browser, book_html: Path, page_path: Path):
    """Open a page, recording console errors and blocking (and recording) outside requests."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
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
    page.wait_for_timeout(300)
    return page, errors, outside


def test_every_page_loads_cleanly_and_offline(browser, book_html):
    problems = []
    for path in _pages(book_html):
        page, errors, outside = _open(browser, book_html, path)
        html = page.content()
        if errors:
            problems.append(f"{path.name}: console errors {errors}")
        if outside:
            problems.append(f"{path.name}: requests outside the book {outside}")
        if "application/vnd.jupyter.widget-view+json" in html or "jupyter-widgets" in html:
            problems.append(f"{path.name}: shows ipywidgets that cannot work without a kernel")
        page.close()
    assert not problems, "\n".join(problems)


def test_mathjax_and_bokeh_come_from_the_book(book_html):
    static = book_html / "_static"
    assert list((static / "bokeh").glob("bokeh-*.min.js")), "BokehJS not copied into _static/bokeh"
    assert (static / "mathjax" / "tex-chtml.js").exists(), "MathJax not vendored into _static/mathjax"


def _explorable_pages(book_html: Path) -> list[Path]:
    return [p for p in _pages(book_html) if "flashlab-explorable" in p.read_text(encoding="utf-8")]


def test_book_has_explorables(book_html):
    assert _explorable_pages(book_html), "no page of the book embeds a static explorable"


def test_moving_each_slider_changes_the_plotted_data(browser, book_html):
    failures = []
    checked = 0
    for path in _explorable_pages(book_html):
        page, errors, outside = _open(browser, book_html, path)
        page.wait_for_function("() => window.Bokeh && Bokeh.documents.length > 0", timeout=30_000)
        handles = page.locator(".noUi-handle")
        handles.first.wait_for(timeout=30_000)
        count = handles.count()
        if count == 0:
            failures.append(f"{path.name}: explorable has no slider handles")
        for i in range(count):
            handle = handles.nth(i)
            handle.scroll_into_view_if_needed()
            before = page.evaluate(DATA_FINGERPRINT_JS)
            now = float(handle.get_attribute("aria-valuenow"))
            top = float(handle.get_attribute("aria-valuemax"))
            handle.focus()
            page.keyboard.press("ArrowLeft" if now >= top else "ArrowRight")
            page.wait_for_timeout(100)
            after = page.evaluate(DATA_FINGERPRINT_JS)
            checked += 1
            if after == before:
                failures.append(f"{path.name}: slider {i} moved but the plotted data did not change")
        if errors:
            failures.append(f"{path.name}: console errors after moving sliders {errors}")
        page.close()
    assert checked > 0
    assert not failures, "\n".join(failures)
