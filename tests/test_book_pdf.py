"""The print edition (``make pdf``, ``tools/print_pdf.py``): one PDF of the built book, every page
in the table of contents' order, an outline entry per page at the page it starts on, figures
drawn, no controls."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.book


def test_print_edition_has_every_page_an_outline_and_no_controls(browser, book_html, tmp_path):
    from pypdf import PdfReader

    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import print_pdf
    finally:
        sys.path.pop(0)
    out = tmp_path / "flashlab.pdf"
    printed = print_pdf.print_book(book_html, out, browser=browser)
    reader = PdfReader(out)
    docs = print_pdf.toc_pages()
    assert len(printed) == len(docs)
    # One outline entry per book page, titled by its heading, at the page where it starts.
    outline = [(item.title, reader.get_destination_page_number(item)) for item in reader.outline]
    assert outline == printed
    starts = [start for _, start in outline]
    assert starts[0] == 0 and all(b > a for a, b in zip(starts, starts[1:])), starts
    titles = dict(zip(docs, (t for t, _ in outline)))
    assert titles["chapters/01-floating-gate-cells"].endswith("Floating-gate cells"), titles
    assert len(reader.pages) >= 2 * len(docs), f"{len(reader.pages)} pages for {len(docs)} book pages"
    # The chapters' pages (the API reference quotes the button's text in a docstring).
    ends = starts[1:] + [len(reader.pages)]
    chapters = [(s, e) for doc, s, e in zip(docs, starts, ends) if doc.startswith("chapters/")]
    text = "\n".join(reader.pages[i].extract_text() or "" for s, e in chapters for i in range(s, e))
    assert "Download the plotted data" not in text, "controls printed"
    assert "Start voltage (V)" not in text, "a slider's title printed"
    # The figures print (drawn into the page as images): every explorable chapter has some.
    for doc, (title, start) in zip(docs, outline):
        if "flashlab-explorable" not in (book_html / f"{doc}.html").read_text(encoding="utf-8"):
            continue
        end = next((s for s in starts if s > start), len(reader.pages))
        images = sum(len(reader.pages[i].images) for i in range(start, end))
        assert images > 0, f"{title}: no figure printed"
