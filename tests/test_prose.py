"""Checks on the book's prose that need no build.

Chapters are numbered by the table of contents, and the numbers move whenever a chapter is added,
so prose refers to another chapter by a ``{doc}`` link, never by its number ("chapter 6").
"""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PROSE = sorted((ROOT / "chapters").glob("*.md")) + sorted((ROOT / "book").glob("*.md"))

# "chapter 6", "Chapters 2 and 3", "chapter 5's", "chapter\n6": a chapter named by its number.
BARE_CHAPTER_NUMBER = re.compile(r"\bchapters?\s+\d", re.IGNORECASE)


def bare_chapter_numbers(text: str) -> list[tuple[int, str]]:
    """(line number, line) of every bare chapter number in ``text``."""
    hits = []
    for m in BARE_CHAPTER_NUMBER.finditer(text):
        line_no = text.count("\n", 0, m.start()) + 1
        hits.append((line_no, text.splitlines()[line_no - 1].strip()))
    return hits


@pytest.mark.parametrize("text, n_hits", [
    ("The FTL (chapter 6) hides this.", 1),
    ("Chapter 5 returns to 3D NAND; chapters 2 and 3 set it up.", 2),
    ("as chapter\n3 shows", 1),
    ("{doc}`the wear chapter <03-wear>` shows it; 3 chapters later", 0),
])
def test_checker_finds_bare_chapter_numbers(text, n_hits):
    assert len(bare_chapter_numbers(text)) == n_hits


def test_prose_files_found():
    names = {p.name for p in PROSE}
    assert "01-floating-gate-cells.md" in names and "intro.md" in names


@pytest.mark.parametrize("path", PROSE, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_bare_chapter_numbers(path):
    hits = bare_chapter_numbers(path.read_text())
    assert not hits, (f"{path.relative_to(ROOT)} names chapters by number; use a {{doc}} link:\n"
                      + "\n".join(f"  line {n}: {line}" for n, line in hits))


def test_bibliography_lists_what_the_book_cites():
    """The bibliography page's filter is filled from the cite roles of the book's pages."""
    import sys

    sys.path.insert(0, str(ROOT / "book" / "_ext"))
    try:
        from flashlab_book import CITED_FILTER, cited_keys
    finally:
        sys.path.pop(0)
    keys = cited_keys(ROOT)
    assert {"cai2017", "flashdba2014series", "harrison2012ssdoracle"} <= keys
    bib = (ROOT / "book" / "references.bib").read_text().lower()
    missing = sorted(k for k in keys if f"{{{k}," not in bib)
    assert not missing, f"cited but not in references.bib: {missing}"
    uncited = sorted(set(re.findall(r"@\w+\{([^,]+),", bib)) - keys)
    assert "hoermann1996" in uncited  # an engine-only reference stays off the book's list
    assert CITED_FILTER in (ROOT / "book" / "bibliography.md").read_text()
