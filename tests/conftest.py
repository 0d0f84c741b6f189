"""Shared pytest fixtures: paths of the repository and of the built book. Tests run quiet: no
"compiling ..." line on stderr (:mod:`flashlab._compile_notice`), here or in the processes and
notebook kernels they start."""

import os
from pathlib import Path

import pytest

from browser_support import CHROMIUM, CHROMIUM_ARGS

os.environ["FLASHLAB_COMPILE_NOTICE"] = "0"
ROOT = Path(__file__).resolve().parents[1]
BOOK_HTML = ROOT / "_build" / "html"


@pytest.fixture(scope="session")
def book_html() -> Path:
    if not (BOOK_HTML / "index.html").exists():
        pytest.fail(f"no built book at {BOOK_HTML}: run `make book` first (make test does)")
    return BOOK_HTML


@pytest.fixture(scope="session")
def student_html() -> Path:
    """The student edition (`make book-student`)."""
    student = ROOT / "_build" / "student" / "_build" / "html"
    if not (student / "index.html").exists():
        pytest.fail(f"no student edition at {student}: run `make book-student` (make test does)")
    return student


@pytest.fixture(scope="session")
def browser():
    """Debian's headless chromium, driven by Playwright."""
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} not found: `make test` installs Debian's chromium")
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


def pytest_collection_modifyitems(items):
    """Tests marked ``longest`` run first: pytest-xdist hands tests out in collection order, and
    one of minutes handed out last leaves the other worker idle at the end of the stage."""
    items.sort(key=lambda item: item.get_closest_marker("longest") is None)
