"""The print edition (``make pdf``, ``tools/print_pdf.py``): one PDF of the built book, every page
in the table of contents' order, an outline entry per page at the page it starts on, figures
drawn, no controls."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.book


@pytest.mark.longest  # printing the book's 500 pages takes minutes: handed out first
def test_print_edition_has_every_page_an_outline_and_no_controls(browser, book_html, tmp_path):
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import print_pdf
    finally:
        sys.path.pop(0)
    out = tmp_path / "flashlab.pdf"
    printed = print_pdf.print_book(book_html, out, browser=browser)
    # Read back with PDFium (Chromium's own PDF library): pypdf's text and image extraction,
    # pure Python, took two minutes of the browser stage for the book's 500 pages.
    pdf = pdfium.PdfDocument(out)
    docs = print_pdf.toc_pages()
    assert len(printed) == len(docs)
    # One outline entry per book page, titled by its heading, at the page where it starts.
    outline = [(item.get_title(), item.get_dest().get_index()) for item in pdf.get_toc()]
    assert outline == printed
    starts = [start for _, start in outline]
    assert starts[0] == 0 and all(b > a for a, b in zip(starts, starts[1:])), starts
    titles = dict(zip(docs, (t for t, _ in outline)))
    assert titles["chapters/01-floating-gate-cells"].endswith("Floating-gate cells"), titles
    assert len(pdf) >= 2 * len(docs), f"{len(pdf)} pages for {len(docs)} book pages"
    # The chapters' pages (the API reference quotes the button's text in a docstring).
    ends = starts[1:] + [len(pdf)]
    chapters = [(s, e) for doc, s, e in zip(docs, starts, ends) if doc.startswith("chapters/")]
    text = "\n".join(pdf[i].get_textpage().get_text_bounded() for s, e in chapters for i in range(s, e))
    assert "Garbage collection" in text, "no chapter text read back"
    assert "Download the plotted data" not in text, "controls printed"
    assert "Start voltage (V)" not in text, "a slider's title printed"
    # The figures print (drawn into the page as images): every explorable chapter has some.
    for doc, (title, start), end in zip(docs, outline, ends):
        if "flashlab-explorable" not in (book_html / f"{doc}.html").read_text(encoding="utf-8"):
            continue
        images = sum(1 for i in range(start, end)
                     for _ in pdf[i].get_objects(filter=(pdfium_c.FPDF_PAGEOBJ_IMAGE,)))
        assert images > 0, f"{title}: no figure printed"
