"""Student and instructor editions (`make book` and `make book-student`).

Markers are taken from every solution in the chapter sources: each run of plain words in its
prose and each line of its code. The instructor edition shows every one (collapsed under a
toggle); no file of the student edition, nor any notebook it executed, contains any of them; and
the words only solutions use are in the instructor's search index but not the student's.
"""

from __future__ import annotations

import functools
import html
import json
import re
from pathlib import Path

import pytest

from conftest import ROOT

pytestmark = pytest.mark.book

INSTRUCTOR = ROOT / "_build" / "html"
STUDENT = ROOT / "_build" / "student" / "_build" / "html"
SOLUTION = re.compile(r"^```\{solution-start\}.*?^```\{solution-end\}\n```\n", re.M | re.S)
CODE_CELL = re.compile(r"^```\{code-cell\}[^\n]*\n(.*?)^```", re.M | re.S)
PHRASE = re.compile(r"[A-Za-z][A-Za-z ,;]{28,}[A-Za-z]")
WORD = re.compile(r"[A-Za-z]{5,}")


def _chapters() -> list[Path]:
    return sorted((ROOT / "chapters").glob("*.md"))


@functools.lru_cache(maxsize=None)
def _solutions(path: Path) -> tuple[list[str], str]:
    """The solution blocks of a chapter, and what the chapter says outside them: its source and
    the text of its instructor page without the solution boxes (figure outputs included)."""
    from bs4 import BeautifulSoup

    text = path.read_text(encoding="utf-8")
    page = INSTRUCTOR / "chapters" / f"{path.stem}.html"
    rendered = ""
    if page.exists():
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
        for box in soup.select("div.solution"):
            box.decompose()
        rendered = html.unescape(str(soup))
    return SOLUTION.findall(text), SOLUTION.sub("", text) + rendered


def _markers(solution: str, outside: str) -> list[str]:
    code = [line.strip() for cell in CODE_CELL.findall(solution) for line in cell.splitlines()]
    prose = CODE_CELL.sub("", solution)
    phrases = [m.group().strip() for line in prose.splitlines()[2:] for m in PHRASE.finditer(line)]
    return [m for m in phrases + [c for c in code if len(c) >= 20] if m not in outside]


def _all_solutions():
    """Every solution with its markers: text that no chapter shows outside its solutions (a
    solution's line may well appear in another chapter's main text, e.g. an import)."""
    chapters = [(path, *_solutions(path)) for path in _chapters()]
    outside = "\n".join(text for _, _, text in chapters)
    return [(path.stem, s, _markers(s, outside)) for path, solutions, _ in chapters for s in solutions]


def _text_of(path: Path) -> str:
    raw = path.read_text(encoding="utf-8", errors="replace")
    if path.suffix == ".html":
        return html.unescape(re.sub(r"<[^>]+>", "", raw))
    if path.suffix == ".ipynb":
        nb = json.loads(raw)
        parts = ["".join(c["source"]) for c in nb["cells"]]
        for c in nb["cells"]:
            for out in c.get("outputs", []):
                parts.append(json.dumps(out))
        return "\n".join(parts)
    return raw


def _site_files(html_dir: Path) -> list[Path]:
    return [p for p in html_dir.rglob("*") if p.is_file() and p.suffix in (".html", ".md", ".ipynb", ".js", ".txt")
            and "bokeh" not in p.parts and "mathjax" not in p.parts]


def test_every_solution_has_markers():
    sols = _all_solutions()
    assert len(sols) >= 20, f"only {len(sols)} solutions found in the chapters"
    empty = [(ch, s[:80]) for ch, s, m in sols if not m]
    assert not empty, f"solutions without a marker: {empty}"


@pytest.fixture(scope="module")
def student_site(student_html) -> Path:
    return student_html


def test_instructor_edition_shows_every_solution_collapsed(book_html):
    for chapter in _chapters():
        page = book_html / "chapters" / f"{chapter.stem}.html"
        text = _text_of(page)
        solutions, _ = _solutions(chapter)
        for sol, markers in ((s, _markers(s, _solutions(chapter)[1])) for s in solutions):
            missing = [m for m in markers if m not in text]
            assert not missing, f"{chapter.stem}: instructor page lacks {missing}"
        raw = page.read_text(encoding="utf-8")
        assert raw.count('class="solution dropdown') == len(solutions), chapter.stem  # collapsed
        for download in (book_html / "_sources" / "chapters" / f"{chapter.stem}.md",
                         book_html / "_sources" / "chapters" / f"{chapter.stem}.ipynb"):
            src = _text_of(download)
            assert all(m in src for s in solutions for m in _markers(s, _solutions(chapter)[1])), download


def test_student_edition_has_no_solution_anywhere(student_site):
    sols = _all_solutions()
    files = _site_files(student_site) + sorted((student_site.parent / "jupyter_execute").rglob("*.ipynb"))
    assert len([f for f in files if f.suffix == ".ipynb"]) >= 2 * len(_chapters())  # downloads + executed
    leaks = []
    for f in files:
        text = _text_of(f)
        leaks += [(f.relative_to(student_site.parent), m) for _, _, markers in sols for m in markers if m in text]
    assert not leaks, f"solution text in the student edition: {leaks[:10]}"
    for chapter in _chapters():
        raw = (student_site / "chapters" / f"{chapter.stem}.html").read_text(encoding="utf-8")
        assert 'class="solution' not in raw and "exercise" in raw, chapter.stem  # exercises stay


def _index(site: Path) -> dict:
    text = (site / "searchindex.js").read_text(encoding="utf-8")
    return json.loads(text[text.index("(") + 1:text.rindex(")")])


def test_search_index_has_solution_words_only_for_instructors(book_html, student_site):
    from sphinx.search.en import SearchEnglish

    search = SearchEnglish({})
    stem = search.stem
    words = set()
    for path in sorted((ROOT / "book").glob("*.md")) + _chapters():
        words |= {w.lower() for w in re.findall(r"[A-Za-z]+", _solutions(path)[1])}
    outside_words = {stem(w) for w in words}
    checked = 0
    for site, present in ((book_html, True), (student_site, False)):
        index = _index(site)
        for chapter in _chapters():
            doc = index["docnames"].index(f"chapters/{chapter.stem}")
            for sol in _solutions(chapter)[0]:
                only = {stem(w.lower()) for w in WORD.findall(CODE_CELL.sub("", sol))
                        if w.lower() not in search.stopwords} - outside_words - search.stopwords
                for s in only:
                    docs = index["terms"].get(s, [])
                    docs = docs if isinstance(docs, list) else [docs]
                    assert (doc in docs) == present, f"{site.name}: '{s}' of a {chapter.stem} solution"
                    checked += 1
    assert checked >= 20, f"only {checked} solution-only words to check"
