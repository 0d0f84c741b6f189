"""The book build fails loudly: a chapter that raises, or a Sphinx warning, fails it.

Builds a throwaway two-page book with the project's own ``_config.yml`` and extension, so the
settings under test are exactly the ones `make book` uses.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
JUPYTER_BOOK = Path(sys.executable).with_name("jupyter-book")

CHAPTER = """---
jupytext:
  text_representation: {{extension: .md, format_name: myst}}
kernelspec: {{display_name: Python 3, language: python, name: python3}}
---
# A chapter

```{{code-cell}} ipython3
{code}
```
{extra}
"""


def _build(tmp_path: Path, code: str, extra: str = "", env: dict | None = None) -> subprocess.CompletedProcess:
    book = tmp_path / "book"
    (book / "book").mkdir(parents=True)
    shutil.copy(ROOT / "_config.yml", book / "_config.yml")
    for folder in ("_ext", "_static"):
        shutil.copytree(ROOT / "book" / folder, book / "book" / folder)
    (book / "tools").mkdir()  # the extension writes the download notebook with tools/notebooks.py
    shutil.copy(ROOT / "tools" / "notebooks.py", book / "tools" / "notebooks.py")
    (book / "book" / "references.bib").write_text("@misc{x, title={X}, author={Y}, year={2000}}\n")
    (book / "book" / "intro.md").write_text("# Intro\n")
    (book / "chapter.md").write_text(CHAPTER.format(code=code, extra=extra))
    (book / "_toc.yml").write_text("format: jb-book\nroot: book/intro\nchapters:\n  - file: chapter\n")
    return subprocess.run(
        [str(JUPYTER_BOOK), "build", str(book), "--warningiserror", "--keep-going"],
        capture_output=True, text=True, timeout=300, env=None if env is None else {**os.environ, **env},
    )


def test_a_clean_chapter_builds(tmp_path):
    result = _build(tmp_path, "print(6 * 7)")
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    assert "42" in (tmp_path / "book" / "_build" / "html" / "chapter.html").read_text()


@pytest.mark.parametrize(
    "code, extra, why",
    [
        ("raise RuntimeError('engine exploded')", "", "execution error"),
        ("print('ok')", "\nSee {doc}`no-such-page`.\n", "Sphinx warning"),
    ],
)
def test_build_fails_on(tmp_path, code, extra, why):
    result = _build(tmp_path, code, extra)
    assert result.returncode != 0, f"a {why} did not fail the build"


def test_launch_buttons_binder_always_jupyterhub_when_named(tmp_path):
    """Both launch buttons take the repository URL from _config.yml; the hub is the course's."""
    result = _build(tmp_path, "print(1)", env={"FLASHLAB_JUPYTERHUB_URL": "https://hub.example.edu"})
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    html = (tmp_path / "book" / "_build" / "html" / "chapter.html").read_text()
    assert "https://mybinder.org/v2/gh/flashlab-book/flashlab/main?urlpath=lab/tree/chapter.md" in html
    assert "https://hub.example.edu/hub/user-redirect/git-pull?repo=https%3A//github.com/flashlab-book/flashlab" in html
