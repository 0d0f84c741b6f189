"""Run every chapter of the book, live cells included, to fill the numba cache.

binder/postBuild runs it while the Binder image is built, so that readers' kernels load compiled
code instead of compiling it. Nothing is saved: the notebooks run in memory.

    python tools/warmup.py [chapters/NN-slug.md ...]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import jupytext
import yaml
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]


def chapters() -> list[Path]:
    """The chapter notebooks in _toc.yml (files under chapters/), in book order."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    files = [c["file"] for part in toc.get("parts", []) for c in part.get("chapters", [])]
    return [ROOT / f"{f}.md" for f in files if f.startswith("chapters/")]


def main(paths: list[str]) -> None:
    for path in [Path(p).resolve() for p in paths] or chapters():
        start = time.perf_counter()
        nb = jupytext.read(path)
        # Every code cell runs, the live dashboards (tagged skip-execution for the book) too.
        NotebookClient(nb, timeout=900, kernel_name="python3",
                       resources={"metadata": {"path": str(path.parent)}}).execute()
        print(f"warmed {path.name} in {time.perf_counter() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
