"""A chapter runs, top to bottom, where nothing but the repository was pip-installed (as on
Colab): a new virtual environment, ``pip install <repository>[live]``, and the chapter's Colab
notebook (``notebooks/``) executed there in a fresh kernel, away from the source tree, live
dashboard cells included. One short chapter, the first: the whole book runs in the book build.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHAPTER = "01-floating-gate-cells"

pytestmark = pytest.mark.clean_env


def test_chapter_runs_in_a_clean_environment(tmp_path):
    import nbformat
    from nbclient import NotebookClient

    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    src = tmp_path / "src"  # a copy of the repository without its build output and caches
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(".venv", "_build", ".cache", ".git", "*.egg-info",
                                                             "__pycache__", ".pytest_cache", ".hypothesis"))
    subprocess.run([python, "-m", "pip", "install", "--quiet", f"{src}[live]"], check=True)
    subprocess.run([python, "-m", "ipykernel", "install", "--prefix", env_dir, "--name", "flashlab-clean"],
                   check=True, capture_output=True)
    run = tmp_path / "run"
    run.mkdir()
    nb = nbformat.read(ROOT / "notebooks" / f"{CHAPTER}.ipynb", as_version=4)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV", "JUPYTER"))}
    env.update(JUPYTER_PATH=str(env_dir / "share" / "jupyter"), NUMBA_CACHE_DIR=str(tmp_path / "numba"),
               PATH=f"{env_dir / 'bin'}{os.pathsep}{env.get('PATH', '')}")
    old = dict(os.environ)
    os.environ.clear()
    os.environ.update(env)  # the kernel inherits this process's environment
    try:
        client = NotebookClient(nb, kernel_name="flashlab-clean", timeout=900, resources={"metadata": {"path": str(run)}})
        client.execute()
    finally:
        os.environ.clear()
        os.environ.update(old)
    where = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.get("name") == "stdout"]
    assert where, "the chapter printed nothing"
    # flashlab came from the new environment, not from the source tree
    probe = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("import flashlab; print(flashlab.__file__)")])
    os.environ.clear()
    os.environ.update(env)
    try:
        NotebookClient(probe, kernel_name="flashlab-clean", timeout=120,
                       resources={"metadata": {"path": str(run)}}).execute()
    finally:
        os.environ.clear()
        os.environ.update(old)
    assert str(env_dir) in probe.cells[0].outputs[0]["text"], probe.cells[0].outputs
    assert sys.prefix not in probe.cells[0].outputs[0]["text"]
