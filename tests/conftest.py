"""Shared pytest fixtures: paths of the repository and of the built book."""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BOOK_HTML = ROOT / "_build" / "html"


@pytest.fixture(scope="session")
def book_html() -> Path:
    if not (BOOK_HTML / "index.html").exists():
        pytest.fail(f"no built book at {BOOK_HTML}: run `make book` first (make test does)")
    return BOOK_HTML
