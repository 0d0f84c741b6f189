"""Student edition of the book: every solution removed from everything a reader can download.

``FLASHLAB_EDITION=student`` in the environment of ``jupyter-book build`` (``make book-student``)
selects it; the default is the instructor edition, where solutions stay, collapsed (the chapters
give them ``:class: dropdown``).

sphinx-exercise's own ``hide_solutions`` only drops ``{solution}`` and ``{solution-start}``, and
then fails on the orphaned ``{solution-end}`` (``NotImplementedError: unknown node type``). The
chapters need the gated form, whose code cells execute, so here:

* a transform, run before sphinx-exercise merges gated solutions, deletes every node from a
  ``solution-start`` to its ``solution-end`` (the prose and the code cells with their outputs)
  and every ``{solution}`` node; the HTML and the search index are built from that doctree;
* once the build is done, the solutions are cut out of the page sources in ``_sources`` and of
  the executed notebooks (``jupyter_execute``, and the ``.ipynb`` downloads copied from them).

Execution is untouched: the student build executes the same notebooks as the instructor build,
so it is served from the same jupyter-cache (``_build/.jupyter_cache``) and runs no chapter again.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from sphinx.transforms import SphinxTransform
from sphinx_exercise.nodes import solution_end_node, solution_node, solution_start_node

EDITION_ENV = "FLASHLAB_EDITION"
EDITIONS = ("instructor", "student")

_FENCE = re.compile(r"^(?P<fence>`{3,}|:{3,})\{(?P<name>[a-z-]+)\}")


def edition() -> str:
    value = os.environ.get(EDITION_ENV, "instructor")
    if value not in EDITIONS:
        raise ValueError(f"{EDITION_ENV} must be one of {', '.join(EDITIONS)}; got {value!r}")
    return value


class StripSolutions:
    """Line filter for MyST text: drops ``{solution}`` blocks and ``{solution-start}`` ..
    ``{solution-end}`` ranges (directive fences included). Its state carries over between calls,
    so a notebook's cells can be fed one after another."""

    def __init__(self):
        self.inside = False  # between solution-start and solution-end, or in a {solution} block
        self.closing = None  # fence that closes the directive block being skipped

    def keep(self, line: str) -> bool:
        if self.closing is not None:
            if line.rstrip() == self.closing:
                self.closing = None
            return False
        m = _FENCE.match(line)
        if m and m["name"] in ("solution", "solution-start", "solution-end"):
            self.closing = m["fence"]
            self.inside = m["name"] == "solution-start"
            return False
        return not self.inside

    def text(self, text: str) -> str:
        return "".join(line for line in text.splitlines(keepends=True) if self.keep(line))


def strip_myst(text: str) -> str:
    """A MyST document without its solutions."""
    return StripSolutions().text(text)


def strip_notebook(nb: dict) -> dict:
    """A notebook (nbformat 4 JSON) without its solutions: code cells inside a solution go,
    markdown cells lose the solution's lines (and go if nothing is left)."""
    f = StripSolutions()
    cells = []
    for cell in nb["cells"]:
        src = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
        if cell["cell_type"] == "code":
            if not f.inside:
                cells.append(cell)
            continue
        kept = f.text(src)
        if kept.strip():
            cells.append({**cell, "source": kept})
    return {**nb, "cells": cells}


class RemoveSolutions(SphinxTransform):
    """Student edition: delete solutions from the doctree (before sphinx-exercise, priority 10,
    merges gated ones, and after its structure check, priority 1)."""

    default_priority = 5

    def apply(self):
        if edition() != "student":
            return
        for start in list(self.document.findall(solution_start_node)):
            parent = start.parent
            i = parent.index(start)
            j = next(k for k in range(i, len(parent)) if isinstance(parent[k], solution_end_node))
            for child in parent.children[i:j + 1]:
                parent.remove(child)
        for node in list(self.document.findall(solution_node)):
            node.parent.remove(node)


def _strip_outputs(app, exception):
    if exception is not None or edition() != "student" or app.builder.format != "html":
        return
    out = Path(app.outdir)
    for path in (out / "_sources").rglob("*"):
        if path.suffix == ".ipynb":
            path.write_text(json.dumps(strip_notebook(json.loads(path.read_text(encoding="utf-8"))), indent=1),
                            encoding="utf-8")
        elif path.is_file():
            path.write_text(strip_myst(path.read_text(encoding="utf-8")), encoding="utf-8")
    for path in executed_notebooks(app).rglob("*.ipynb"):
        path.write_text(json.dumps(strip_notebook(json.loads(path.read_text(encoding="utf-8"))), indent=1),
                        encoding="utf-8")


def executed_notebooks(app) -> Path:
    """Where MyST-NB writes the executed notebooks (beside the HTML folder)."""
    return Path(app.outdir).parent / "jupyter_execute"


def setup(app):
    app.add_transform(RemoveSolutions)
    # After the .ipynb downloads are copied into _sources (flashlab_book, priority 500).
    app.connect("build-finished", _strip_outputs, priority=800)
    app.connect("config-inited", _share_cache)
    return {"version": "0.1", "parallel_read_safe": True, "parallel_write_safe": True}


def _share_cache(app, config):
    """The student build writes to its own folder but reads the instructor build's jupyter-cache."""
    if edition() == "student" and not config.nb_execution_cache_path:
        config.nb_execution_cache_path = str(Path(app.srcdir) / "_build" / ".jupyter_cache")
