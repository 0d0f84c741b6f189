"""The source-coverage page (book/sources-coverage.md) stays true to the book.

The page lists, for each collection of blog posts the book grew from, every post's experiments and
arguments and where the book covers each: a ``{doc}`` link to a chapter, with the sections
(``§ "Heading"``) and exercises (``exercise `label```) that do it, or "not covered:" with a reason,
or "planned: issue N". These tests fail when a named chapter, heading or exercise label no longer
exists, when a source or one of its posts has no row, and when a row gives neither a place nor a
reason.

The posts themselves live outside this repository (the project's shared folder), which a clean
clone does not have, so their file names and post titles are copied here in :data:`SOURCES`.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "book" / "sources-coverage.md"

# Each source file and the titles of the posts it holds, in the order they appear in it.
SOURCES = {
    "flashdba-understanding-flash-series.txt": [
        "Postcards from Storageland: Three Years At Violin",
        "Understanding Flash: Fabrication, Shrinkage and the Next Big Thing",
        "Understanding Flash: Floating Gates and Wear",
        "New Cookbook: Oracle Linux 6 Update 5 within an Oracle VM Template",
        "Understanding Flash: Unpredictable Write Performance",
        "Understanding Flash: The Write Cliff",
        "Postcard from Oracle OpenWorld 2014: The Oracle FS1 Flash Array",
        "Understanding Flash: Garbage Collection Matters",
        "Understanding Flash: The Flash Translation Layer",
        "Oracle, Parallelism and Direct Path Reads… on Flash",
    ],
    "flashdba-all-flash-arrays-series.txt": [
        "All Flash Arrays: SSD-based versus Ground-Up Design",
        "All Flash Arrays: Where’s My Capacity? Effective, Usable and Raw Explained",
        "All Flash Arrays: Can’t I Just Stick Some SSDs In My Disk Array?",
        "Understanding Flash: Summary – NAND Flash Is A Royal Pain In The …",
        "The Great Hypervisor Bake-off: VMware ESX vs Oracle VM",
        "ASM Rebalance Too Slow? 3 Tips To Improve Rebalance Times",
        "Postcards from Storageland: Three Years At Violin",
    ],
    "fuzi-parallelism-direct-path-reads.txt": [
        "Oracle, Parallelism and Direct Path Reads… on Flash",
    ],
    "harrison-ssd-oracle-exadata.txt": [
        "Using SSD for a temp tablespace on Exadata",
        "Can the Exadata Smart Flash Cache slow smart scans?",
        "Redo on SSD: effect of redo size (Exadata)",
        "Exadata Write-back cache and free buffer waits",
        "Exadata Smart Flash Logging–Outliers",
        "Exadata smart flash logging",
        "Using SSD for redo on Exadata - pt 2",
        "Using flash disk for Redo on Exadata",
        "Configuring Exadata flash as grid disk",
        "Clearing the Exadata smart flash cache using dcli",
        "Best Practices for Optimizing Oracle RDBMS with Solid State Disk",
        "Accelerating Oracle database performance with SSD",
        "Disabling the Intel X-25 E write cache",
        "Flash tablespace vs. DB Flash Cache",
        "More on the database flash cache",
        "Using the Oracle 11GR2 database flash cache",
    ],
    "ssd-engineer-benchmarking-wishes.txt": [
        "Three Things I Wish Every Storage Software Vendor Provided",
        "The Weight of Data",
        "Mixups with rwmixread",
        "NVMe & sysfs: a helper script",
        'Why SSDs "Lie" About Flush',
    ],
}

_DOC = re.compile(r"\{doc\}`(?:[^`<]*<)?([^`>]+)>?`")
_SECTION = re.compile(r'§ "([^"]+)"')
_EXERCISE = re.compile(r"exercise `([\w-]+)`")
_REASON = re.compile(r"not covered: \S|planned: issue \d+")
_HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*$", re.MULTILINE)
_LABEL = re.compile(r"^:label:\s*(\S+)", re.MULTILINE)


def normalise(title: str) -> str:
    """A title with typographic quotes, dashes and ellipses made plain, spaces collapsed."""
    for fancy, plain in (("’", "'"), ("‘", "'"), ("“", '"'), ("”", '"'), ("–", "-"), ("—", "-"),
                         ("…", "...")):
        title = title.replace(fancy, plain)
    return " ".join(title.split())


def sections(text: str) -> dict[str, str]:
    """The page's ``## `` sections: the source file each names (``Source file `x.txt```) -> its
    text. A section that names no source file (the references) is left out."""
    out = {}
    for block in re.split(r"^## ", text, flags=re.MULTILINE)[1:]:
        m = re.search(r"Source file `([^`]+)`", block)
        if m:
            out[m.group(1)] = block
    return out


def rows(section: str) -> list[tuple[str, str, str]]:
    """(argument, post, location) of every body row of the section's table."""
    out = []
    for line in section.splitlines():
        if not line.startswith("|") or set(line) <= set("|-: "):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[0] == "Experiment or argument":
            continue
        # a location may hold no "|" of its own, but an argument or post may not either
        out.append((cells[0], cells[1], " | ".join(cells[2:])))
    return out


def chapter_names(path: Path) -> tuple[set[str], set[str]]:
    """The headings (without their #s) and exercise labels of a chapter's MyST source."""
    text = path.read_text(encoding="utf-8")
    return set(_HEADING.findall(text)), set(_LABEL.findall(text))


def location_problems(location: str, base: Path = PAGE.parent) -> list[str]:
    """What is wrong with one location cell: a {doc} target that does not exist, a section or
    exercise that its chapter does not have (or that follows no {doc}), or a row with neither a
    place nor a reason."""
    problems = []
    tokens = sorted([(m.start(), "doc", m.group(1)) for m in _DOC.finditer(location)]
                    + [(m.start(), "section", m.group(1)) for m in _SECTION.finditer(location)]
                    + [(m.start(), "exercise", m.group(1)) for m in _EXERCISE.finditer(location)])
    current = None  # (doc target, headings, labels)
    for _, kind, name in tokens:
        if kind == "doc":
            path = (base / f"{name}.md").resolve()
            if not path.exists():
                problems.append(f"{{doc}} target {name!r} does not exist")
                current = None
                continue
            current = (name, *chapter_names(path))
        elif current is None:
            problems.append(f"{kind} {name!r} follows no {{doc}} link to an existing chapter")
        elif kind == "section" and name not in current[1]:
            problems.append(f"{current[0]} has no section headed {name!r}")
        elif kind == "exercise" and name not in current[2]:
            problems.append(f"{current[0]} has no exercise labelled {name!r}")
    if not _DOC.search(location) and not _REASON.search(location):
        problems.append("neither a {doc} place nor 'not covered: <reason>' nor 'planned: issue N'")
    return problems


# --- the checker itself: it finds what it should ------------------------------------------------

@pytest.mark.parametrize("location, n_problems", [
    ('{doc}`../chapters/09-array-architecture`, § "Raw, usable and effective capacity"', 0),
    ("{doc}`../chapters/09-array-architecture`; exercise `ex-array-raid`", 0),
    ("{doc}`Arrays <../chapters/09-array-architecture>`, § \"SSD-based and ground-up arrays\"", 0),
    ('{doc}`../chapters/09-array-architecture`, § "No such heading"', 1),
    ("{doc}`../chapters/09-array-architecture`, exercise `ex-no-such-label`", 1),
    ("{doc}`../chapters/99-no-such-chapter`", 1),
    ('§ "Raw, usable and effective capacity"', 2),  # no chapter named, and no reason
    ("not covered: the engine models no host software", 0),
    ("planned: issue 33 (rebuilds)", 0),
    ("not covered", 1),  # a bare "not covered" gives no reason
    ("", 1),
])
def test_location_checker(location, n_problems):
    assert len(location_problems(location)) == n_problems


def test_row_and_section_readers():
    page = ("## A\n\nSource file `a.txt`: a.\n\n| Experiment or argument | Post | Where |\n|---|---|---|\n"
            "| x | Post One | not covered: y |\n\n## References\n")
    found = sections(page)
    assert list(found) == ["a.txt"]
    assert rows(found["a.txt"]) == [("x", "Post One", "not covered: y")]
    assert normalise("Where’s “it” – now…") == "Where's \"it\" - now..."


# --- the page ----------------------------------------------------------------------------------

def page_sections() -> dict[str, str]:
    return sections(PAGE.read_text(encoding="utf-8"))


def test_page_is_in_the_table_of_contents():
    assert "file: book/sources-coverage" in (ROOT / "_toc.yml").read_text(encoding="utf-8")


def test_every_source_has_a_section_and_nothing_else_does():
    assert sorted(page_sections()) == sorted(SOURCES)


@pytest.mark.parametrize("source", sorted(SOURCES))
def test_every_post_has_a_row(source):
    posts = {normalise(post) for _, post, _ in rows(page_sections()[source])}
    missing = [t for t in SOURCES[source] if not any(p.startswith(normalise(t)) for p in posts)]
    assert not missing, f"{source}: no row for these posts: {missing}"


@pytest.mark.parametrize("source", sorted(SOURCES))
def test_every_row_names_a_place_that_exists_or_gives_a_reason(source):
    table = rows(page_sections()[source])
    assert table, f"{source}: an empty table"
    bad = [(argument, p) for argument, post, location in table
           for p in location_problems(location) if argument and post]
    bad += [(argument or "(no argument)", "an empty argument or post cell")
            for argument, post, _ in table if not (argument and post)]
    assert not bad, f"{source}:\n" + "\n".join(f"  {a}: {p}" for a, p in bad)
