"""The print edition: every page of the built book, in the table of contents' order, printed by
headless Chromium (Playwright's ``page.pdf``) with the book's print stylesheet, into one PDF whose
outline (bookmarks) lists the pages by title.

    python tools/print_pdf.py [--html _build/html] [--out _build/flashlab.pdf]

The figures print at their default settings (the page as it opens); the print stylesheet
(``book/_static/flashlab.css``, ``@media print``) leaves out the sliders, buttons, navigation and
launch buttons, which do nothing on paper.
"""

from __future__ import annotations

import argparse
import io
import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"]
# The text column of an A4 page with 15 mm margins, in CSS pixels (96 per inch): the figures
# stretch to it before printing, so that nothing is cut or scaled.
PRINT_WIDTH_PX = 680


# Every explorable's Bokeh document embedded and idle (each root view has drawn itself).
FIGURES_DRAWN_JS = """
() => window.Bokeh != null && Bokeh.documents.length >= document.querySelectorAll('.flashlab-explorable').length
      && Bokeh.documents.every(d => d.is_idle)
"""


def toc_pages(root: Path = ROOT) -> list[str]:
    """The book's pages (docnames, e.g. ``chapters/01-floating-gate-cells``) in reading order."""
    toc = yaml.safe_load((root / "_toc.yml").read_text(encoding="utf-8"))
    pages = [toc["root"]]

    def walk(entries):
        for e in entries or ():
            if "file" in e:
                pages.append(re.sub(r"\.(md|ipynb)$", "", e["file"]))
            walk(e.get("sections"))

    for part in toc.get("parts", ()):
        walk(part.get("chapters"))
    walk(toc.get("chapters"))
    return pages


def print_book(html: Path, out: Path, chromium: str = "/usr/bin/chromium", *, browser=None) -> list[tuple[str, int]]:
    """Print the book in ``html`` to ``out``; returns (title, first page index) per book page.

    ``browser``: a Playwright browser to print with (a test's, already running: Playwright's sync
    API cannot start a second one inside it); None launches ``chromium`` for the call.
    """
    if browser is not None:
        return _print_with(browser, html, out)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        launched = pw.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
        try:
            return _print_with(launched, html, out)
        finally:
            launched.close()


def _print_with(browser, html: Path, out: Path) -> list[tuple[str, int]]:
    from pypdf import PdfReader, PdfWriter

    writer, outline = PdfWriter(), []
    page = browser.new_page(viewport={"width": PRINT_WIDTH_PX, "height": 1000})
    page.emulate_media(media="print")
    for doc in toc_pages():
        path = html / f"{doc}.html"
        page.goto(path.resolve().as_uri(), wait_until="load")
        if page.locator(".flashlab-explorable").count():
            # Every figure embedded, laid out at the print width and drawn (a fixed 1.5 s before).
            page.wait_for_function(FIGURES_DRAWN_JS, timeout=60_000, polling="raf")
        title = page.locator("main h1").first.inner_text().replace("#", "").strip()
        pdf = page.pdf(format="A4", print_background=False, outline=False,
                       margin={"top": "15mm", "bottom": "15mm", "left": "15mm", "right": "15mm"})
        start = len(writer.pages)
        for p in PdfReader(io.BytesIO(pdf)).pages:
            writer.add_page(p)
        outline.append((title, start))
    page.close()
    for title, start in outline:
        writer.add_outline_item(title=title, page_number=start)
    writer.add_metadata({"/Title": "flashlab: NAND flash, from the cell to the array"})
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "wb") as f:
        writer.write(f)
    return outline


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--html", type=Path, default=ROOT / "_build" / "html")
    ap.add_argument("--out", type=Path, default=ROOT / "_build" / "flashlab.pdf")
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    a = ap.parse_args()
    outline = print_book(a.html, a.out, a.chromium)
    print(f"{a.out}: {len(outline)} book pages")


if __name__ == "__main__":
    main()
