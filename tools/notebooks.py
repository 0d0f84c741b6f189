"""Each chapter as a Jupyter notebook (``notebooks/NN-slug.ipynb``), for Colab.

Colab opens notebooks from a GitHub repository (``.ipynb`` only, not the MyST Markdown the
chapters are kept in), and has no flashlab: each notebook is the chapter converted by jupytext,
without outputs, after a first cell that installs flashlab from the repository when it is
missing (and turns on Colab's support for the live dashboards' widgets).

    python tools/notebooks.py          # write notebooks/ from chapters/
    python tools/notebooks.py --check  # exit 1 if notebooks/ is out of date (tests run this)
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import jupytext
import nbformat
import yaml

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "notebooks"


def repository() -> tuple[str, str]:
    """The repository URL and branch, as ``_config.yml`` sets them once."""
    repo = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))["repository"]
    return repo["url"].rstrip("/"), repo.get("branch", "main")


def install_cell_source() -> str:
    url, branch = repository()
    return (
        "# Running on Colab, or anywhere flashlab is not installed yet? This installs it (a minute).\n"
        "import importlib.util\n"
        "import subprocess\n"
        "import sys\n"
        "\n"
        'if importlib.util.find_spec("flashlab") is None:\n'
        '    subprocess.check_call([sys.executable, "-m", "pip", "install", "--quiet",\n'
        f'                           "flashlab[live] @ git+{url}@{branch}"])\n'
        "try:  # Colab shows the live dashboards' widgets only with its custom widget manager\n"
        "    from google.colab import output\n"
        "\n"
        "    output.enable_custom_widget_manager()\n"
        "except ImportError:\n"
        "    pass"
    )


def install_cell() -> nbformat.NotebookNode:
    cell = nbformat.v4.new_code_cell(install_cell_source())
    cell.metadata["tags"] = ["flashlab-install"]
    cell.id = "flashlab-install"
    return cell


def with_install_cell(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """``nb`` with the install cell first (once)."""
    cells = [c for c in nb.cells if "flashlab-install" not in c.get("metadata", {}).get("tags", [])]
    nb.cells = [install_cell(), *cells]
    return nb


def chapter_notebook(md: Path) -> str:
    """The notebook text for chapter ``md``: jupytext's conversion, the install cell first."""
    nb = with_install_cell(jupytext.read(md))
    nb.metadata.pop("jupytext", None)
    nb.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
    for i, cell in enumerate(nb.cells[1:]):  # stable ids, so a regeneration changes nothing
        cell.id = f"cell-{i}"
    return json.dumps(nb, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def expected() -> dict[Path, str]:
    return {OUT / f"{md.stem}.ipynb": chapter_notebook(md) for md in sorted((ROOT / "chapters").glob("*.md"))}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="only say whether notebooks/ is current")
    a = ap.parse_args()
    want = expected()
    stale = sorted({p for p, text in want.items() if not p.exists() or p.read_text(encoding="utf-8") != text}
                   | (set(OUT.glob("*.ipynb")) - set(want)))
    if a.check:
        for p in stale:
            print(f"{p.relative_to(ROOT)} is out of date: run python tools/notebooks.py")
        return 1 if stale else 0
    OUT.mkdir(exist_ok=True)
    for p in set(OUT.glob("*.ipynb")) - set(want):
        p.unlink()
    for p, text in want.items():
        p.write_text(text, encoding="utf-8")
    print(f"wrote {len(want)} notebooks into {OUT.relative_to(ROOT)}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
