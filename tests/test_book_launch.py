"""The built pages' ways to run a chapter live: each launch link is what its service expects.

* Binder: ``https://mybinder.org/v2/gh/<org>/<repo>/<branch>?urlpath=lab/tree/<chapter source>``
  (BinderHub's ``/v2/gh`` route; ``urlpath`` opens JupyterLab on the file).
* Colab: ``https://colab.research.google.com/github/<org>/<repo>/blob/<branch>/<notebook>``, which
  opens an ``.ipynb`` stored in the repository: ``notebooks/<chapter>.ipynb``, which must exist,
  be current (``tools/notebooks.py --check``) and start with the cell that installs flashlab.
* A downloadable executed notebook per chapter, which starts with the same install cell.
"""

from __future__ import annotations

import re
import subprocess
import sys
from html import unescape
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import nbformat
import pytest
import yaml

COLAB = "https://colab.research.google.com"

ROOT = Path(__file__).resolve().parents[1]


def _repository():
    repo = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))["repository"]
    org, name = re.fullmatch(r"https://github\.com/([^/]+)/([^/]+)", repo["url"].rstrip("/")).groups()
    return org, name, repo.get("branch", "main")


def _links(html: str) -> list[str]:
    return [unescape(h) for h in re.findall(r'href="([^"]+)"', html)]


@pytest.mark.book
def test_each_chapter_links_binder_and_colab_as_they_expect(book_html):
    org, name, branch = _repository()
    chapters = sorted((book_html / "chapters").glob("*.html"))
    assert chapters
    for page in chapters:
        links = _links(page.read_text(encoding="utf-8"))
        binder = [u for u in links if u.startswith("https://mybinder.org/")]
        colab = [u for u in links if u.startswith(f"{COLAB}/")]
        assert len(binder) == 1 and len(colab) == 1, f"{page.name}: launch links {binder + colab}"
        b = urlsplit(binder[0])
        assert b.path == f"/v2/gh/{org}/{name}/{branch}", binder[0]
        assert parse_qs(b.query) == {"urlpath": [f"lab/tree/chapters/{page.stem}.md"]}, binder[0]
        assert (ROOT / "chapters" / f"{page.stem}.md").exists()
        c = urlsplit(colab[0])
        assert c.path == f"/github/{org}/{name}/blob/{branch}/notebooks/{page.stem}.ipynb" and not c.query, colab[0]
        # nbformat reads a cell's source as one string, however the file stored it (lines or text)
        notebook = nbformat.read(ROOT / "notebooks" / f"{page.stem}.ipynb", as_version=4)
        assert "flashlab-install" in notebook["cells"][0]["metadata"]["tags"]
        download = nbformat.read(book_html / "_sources" / "chapters" / f"{page.stem}.ipynb", as_version=4)
        assert download["cells"][0]["source"] == notebook["cells"][0]["source"], f"{page.name}: download lacks install cell"
    for page in (book_html / "book").glob("*.html"):  # front and back matter run nothing
        # (how-to-use may name Colab's home page; a launch link opens a notebook from GitHub)
        links = _links(page.read_text(encoding="utf-8"))
        assert not any(u.startswith(f"{COLAB}/github/") for u in links), page.name


def test_colab_notebooks_are_current():
    """``notebooks/`` is generated from ``chapters/``: after editing a chapter, run
    ``python tools/notebooks.py``."""
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "notebooks.py"), "--check"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_colab_address_and_jupyterhub_setting():
    """Colab's address is built for chapters only; a course's hub (``FLASHLAB_JUPYTERHUB_URL``)
    reaches the theme's launch buttons (which link through nbgitpuller)."""
    sys.path.insert(0, str(ROOT / "book" / "_ext"))
    try:
        import flashlab_book
    finally:
        sys.path.pop(0)

    class Config:
        html_theme_options = {}

    import os

    old = os.environ.get(flashlab_book.JUPYTERHUB_ENV)
    os.environ[flashlab_book.JUPYTERHUB_ENV] = "https://hub.example.edu"
    try:
        cfg = Config()
        flashlab_book._jupyterhub(None, cfg)
    finally:
        if old is None:
            del os.environ[flashlab_book.JUPYTERHUB_ENV]
        else:
            os.environ[flashlab_book.JUPYTERHUB_ENV] = old
    assert cfg.html_theme_options["launch_buttons"]["jupyterhub_url"] == "https://hub.example.edu"
    org, name, branch = _repository()
    url = flashlab_book.colab_url(f"https://github.com/{org}/{name}", branch, "chapters/01-floating-gate-cells")
    assert url == (f"https://colab.research.google.com/github/{org}/{name}/blob/{branch}/"
                   "notebooks/01-floating-gate-cells.ipynb")
    assert flashlab_book.colab_url(f"https://github.com/{org}/{name}", branch, "book/intro") is None
