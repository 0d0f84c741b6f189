"""Checks on the book's prose, and on the printouts pinned from it, that need no build.

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
    import pybtex.database

    # parsed as sphinxcontrib-bibtex parses it (a lost brace fails the build, not just an entry)
    entries = {k.lower() for k in pybtex.database.parse_file(ROOT / "book" / "references.bib").entries}
    bib = (ROOT / "book" / "references.bib").read_text().lower()
    missing = sorted(k for k in keys if k.lower() not in entries)
    assert not missing, f"cited but not in references.bib: {missing}"
    uncited = sorted(set(re.findall(r"@\w+\{([^,]+),", bib)) - keys)
    assert "hoermann1996" in uncited  # an engine-only reference stays off the book's list
    assert CITED_FILTER in (ROOT / "book" / "bibliography.md").read_text()


# --- links to the API reference -------------------------------------------------------------------

CHAPTERS = sorted((ROOT / "chapters").glob("*.md"))
# "from flashlab.cell.floating_gate import Q_E", "from flashlab import quiz", "import flashlab.ftl"
_IMPORT = re.compile(r"^\s*(?:from\s+(flashlab(?:\.\w+)*)\s+import\s+([\w, ()]+)|import\s+(flashlab(?:\.\w+)*))",
                     re.MULTILINE)
_ROLE = re.compile(r"\{(?:py:)?(?:mod|func|class|data|meth|attr|obj)\}`~?(flashlab(?:\.\w+)+)`")


def api_modules() -> list[str]:
    """The modules of the API reference, one section each (the pages book/api/*.md)."""
    modules = []
    for page in sorted((ROOT / "book" / "api").glob("*.md")):
        block = re.search(r"```\{flashlab-api\}\n(.*?)```", page.read_text(), re.DOTALL).group(1)
        modules += [line.strip() for line in block.splitlines() if line.strip()]
    return modules


def documented_in(name: str, modules: list[str]) -> str | None:
    """The API reference section that documents ``name`` (a module or an object in one): the
    longest listed module that is ``name`` or contains it."""
    hits = [m for m in modules if name == m or name.startswith(m + ".")]
    return max(hits, key=len) if hits else None


def imported_api(text: str, modules: list[str]) -> set[str]:
    """API sections of the flashlab modules the code in ``text`` imports."""
    found = set()
    for m in _IMPORT.finditer(text):
        if m.group(1) == "flashlab":  # from flashlab import quiz, sweep
            names = [f"flashlab.{n}" for n in re.findall(r"\w+", m.group(2))]
        else:
            names = [m.group(1) or m.group(3)]
        found |= {s for s in (documented_in(n, modules) for n in names) if s}
    return found


def resolves(target: str, modules: list[str]) -> bool:
    """Whether the API reference documents ``target``: a listed module, or a public object of one
    (not a submodule, which has no section of its own)."""
    import importlib
    import types

    section = documented_in(target, modules)
    if section is None:
        return False
    obj = importlib.import_module(section)
    for part in target[len(section) + 1:].split(".") if target != section else []:
        if part.startswith("_") or not hasattr(obj, part):
            return False
        obj = getattr(obj, part)
        if isinstance(obj, types.ModuleType):
            return False
    return True


def linked_api(text: str, modules: list[str]) -> set[str]:
    """API sections the prose of ``text`` links with a Python role that resolves."""
    return {documented_in(n, modules) for n in _ROLE.findall(text) if resolves(n, modules)}


def test_api_link_checker_reads_imports_and_roles():
    modules = ["flashlab.cell", "flashlab.viz.cell", "flashlab.quiz", "flashlab.tech"]
    assert resolves("flashlab.tech.Stack3D", modules) and resolves("flashlab.cell", modules)
    assert not resolves("flashlab.cell.floating_gate", modules)  # a submodule: no section of its own
    assert not resolves("flashlab.tech.NoSuchThing", modules) and not resolves("flashlab.ssd", modules)
    code = ("from flashlab.cell.floating_gate import Q_E\nfrom flashlab import quiz\n"
            "    from flashlab.viz.cell import pulse_a_cell\nimport flashlab.tech\n")
    assert imported_api(code, modules) == {"flashlab.cell", "flashlab.viz.cell", "flashlab.quiz", "flashlab.tech"}
    prose = ("uses {mod}`flashlab.cell` and {class}`~flashlab.tech.Stack3D`, not `flashlab.quiz` "
             "nor {mod}`flashlab.viz.cell.nothing`")
    assert linked_api(prose, modules) == {"flashlab.cell", "flashlab.tech"}


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_chapter_links_the_api_reference_of_what_it_imports(path):
    modules = api_modules()
    text = path.read_text()
    missing = sorted(imported_api(text, modules) - linked_api(text, modules))
    assert not missing, (f"{path.relative_to(ROOT)} imports these modules but links no part of their API "
                         f"reference ({{mod}}`...` or {{func}}/{{class}} roles where they are first used): {missing}")


# --- a "make your own" quiz cell ends each chapter's exercises -------------------------------------

@pytest.mark.parametrize("path", [p for p in CHAPTERS if "{exercise}" in p.read_text()], ids=lambda p: p.name)
def test_chapter_exercises_end_with_a_make_your_own_quiz_cell(path):
    from flashlab.quiz import TOPICS

    text = path.read_text()
    after = text[text.rindex("{exercise}"):text.index("\n## References")]
    topics = re.findall(r'quiz\.make\("(\w+)"', after)
    assert topics and set(topics) <= set(TOPICS), f"{path.name}: no quiz.make(...) cell of a known topic after its exercises"
    assert "**Make your own.**" in after and f"flashlab quiz {topics[0]} --seed N --solve" in after


# --- chapter code cells fit the HTML code box (80 columns) -----------------------------------------

CODE_COLUMNS = 80
CODE_CELL = re.compile(r"^(`{3,})\{code-cell\}[^\n]*\n(.*?)^\1[ \t]*$", re.S | re.M)


def long_code_lines(text: str, columns: int = CODE_COLUMNS) -> list[tuple[int, str]]:
    """(line number, line) of every line of a ``{code-cell}`` in MyST ``text`` wider than ``columns``."""
    hits = []
    for m in CODE_CELL.finditer(text):
        first = text.count("\n", 0, m.start(2)) + 1
        hits += [(first + i, line) for i, line in enumerate(m.group(2).splitlines()) if len(line) > columns]
    return hits


def test_long_code_line_checker():
    wide = "x = " + "1 + " * 20 + "1"
    text = f"{wide}\n\n```{{code-cell}} ipython3\n:tags: [remove-input]\nok = 1\n{wide}\n```\n\n```python\n{wide}\n```\n"
    assert long_code_lines(text) == [(6, wide)]  # only the code cell's line, not prose or a plain block
    assert long_code_lines(text.replace(wide, wide[:CODE_COLUMNS])) == []


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_chapter_code_lines_fit_80_columns(path):
    hits = long_code_lines(path.read_text())
    assert not hits, (f"{path.relative_to(ROOT)}: code-cell lines over {CODE_COLUMNS} columns overflow the HTML "
                      "code box; wrap them:\n" + "\n".join(f"  line {n} ({len(line)}): {line}" for n, line in hits))


# Python's default for a large float, "2.66e+03": the book prints large numbers in a unit that keeps
# them short or with thousands separators ("2,660"), and keeps exponents for small ones (RBER 1.3e-03).
POSITIVE_EXPONENT = re.compile(r"\d[eE]\+\d")


def test_pinned_outputs_print_no_positive_exponents():
    """The chapters' pinned printouts (tests/pinned, what the built book shows) have no e+NN numbers."""
    import json

    hits = [(pin.name, line.strip()) for pin in sorted((ROOT / "tests" / "pinned").glob("*.json"))
            for text in json.loads(pin.read_text(encoding="utf-8")) for line in text.splitlines()
            if POSITIVE_EXPONENT.search(line)]
    assert (ROOT / "tests" / "pinned" / "01-floating-gate-cells.json").exists()
    assert not hits, "printed with a positive exponent:\n" + "\n".join(f"  {n}: {line}" for n, line in hits)


def test_pinned_outputs_fit_80_columns():
    """The chapters' pinned printouts fit the code box as the code does (CODE_COLUMNS): the browser
    test finds a wider one only after a build, as a box that scrolls sideways."""
    import json

    wide = [(pin.name, line) for pin in sorted((ROOT / "tests" / "pinned").glob("*.json"))
            for text in json.loads(pin.read_text(encoding="utf-8")) for line in text.splitlines()
            if len(line) > CODE_COLUMNS]
    assert (ROOT / "tests" / "pinned" / "01-floating-gate-cells.json").exists()
    assert not wide, "wider than the code box:\n" + "\n".join(f"  {n}: {line!r}" for n, line in wide)
