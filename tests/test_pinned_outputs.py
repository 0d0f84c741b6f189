"""Key numeric outputs of the chapters, pinned.

Cells whose source contains ``# NBVAL_CHECK_OUTPUT`` print numbers the text relies on. Their
outputs, as executed by the book build (``_build/jupyter_execute``), must equal the copies
committed in ``tests/pinned/<chapter>.json``; nbval (``make test-notebooks``) then re-runs each
chapter in a fresh kernel and checks the same cells reproduce. After a deliberate change, rebuild
the book and refresh the pins with ``FLASHLAB_UPDATE_PINS=1 pytest tests/test_pinned_outputs.py``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

pytestmark = pytest.mark.book

ROOT = Path(__file__).resolve().parents[1]
EXECUTED = ROOT / "_build" / "jupyter_execute" / "chapters"
PINNED = Path(__file__).with_name("pinned")
MARK = "# NBVAL_CHECK_OUTPUT"
CHAPTERS = sorted(p.stem for p in (ROOT / "chapters").glob("*.md"))


def checked_outputs(notebook: Path) -> list[str]:
    """The text output of every NBVAL_CHECK_OUTPUT cell, in order."""
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    out = []
    for cell in nb["cells"]:
        source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        if cell["cell_type"] != "code" or MARK not in source:
            continue
        texts = []
        for o in cell.get("outputs", []):
            if o["output_type"] == "stream":
                texts.append("".join(o["text"]))
            elif "text/plain" in o.get("data", {}):
                texts.append("".join(o["data"]["text/plain"]))
        out.append("".join(texts))
    return out


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_chapter_outputs_match_pins(chapter, book_html):
    executed = EXECUTED / f"{chapter}.ipynb"
    assert executed.exists(), f"{executed} missing: the book build did not execute {chapter}"
    got = checked_outputs(executed)
    assert got, f"{chapter} has no '{MARK}' cell: pin at least one key numeric output"
    assert all(got), f"{chapter}: a '{MARK}' cell printed nothing (or the build did not execute it)"
    pin = PINNED / f"{chapter}.json"
    if os.environ.get("FLASHLAB_UPDATE_PINS") == "1":
        pin.write_text(json.dumps(got, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    assert pin.exists(), f"no pins for {chapter}: set FLASHLAB_UPDATE_PINS=1 once and review the file"
    expected = json.loads(pin.read_text(encoding="utf-8"))
    assert got == expected
