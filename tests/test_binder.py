"""The Binder configuration, checked offline.

repo2docker's dry run (``--no-build``: it writes the Dockerfile it would build, no Docker needed)
must pick the Python that flashlab requires and run our postBuild and start scripts; those must
install flashlab, warm the numba cache, and give the build and every session the same numba
cache folder and target CPU, so that the cache compiled in the image is the one sessions load.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import yaml
from packaging.specifiers import SpecifierSet

ROOT = Path(__file__).resolve().parents[1]
BINDER = ROOT / "binder"


def _dockerfile() -> str:
    r = subprocess.run([str(Path(sys.executable).with_name("repo2docker")), "--no-build", "--no-run", "--debug",
                        str(ROOT)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    return r.stdout + r.stderr


def _numba_env(script: str) -> dict:
    """The NUMBA_* variables a binder script ends up with (HOME as on Binder)."""
    env = {"PATH": os.environ["PATH"], "HOME": "/home/jovyan"}
    r = subprocess.run(["bash", "-c", script], capture_output=True, text=True, cwd=ROOT, env=env, timeout=60)
    assert r.returncode == 0, r.stderr
    return dict(line.split("=", 1) for line in r.stdout.splitlines() if line.startswith("NUMBA_"))


def test_repo2docker_uses_the_python_flashlab_requires():
    requires = SpecifierSet(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"])
    runtime = (BINDER / "runtime.txt").read_text().strip()
    assert re.fullmatch(r"python-3\.\d+", runtime), runtime
    assert runtime.removeprefix("python-") + ".0" in requires
    docker = _dockerfile()
    assert f"python={runtime.removeprefix('python-')}" in docker, "repo2docker ignored binder/runtime.txt"


def test_repo2docker_runs_our_install_postbuild_and_start():
    docker = _dockerfile()
    assert 'pip install --no-cache-dir -r "binder/requirements.txt"' in docker
    assert "./binder/postBuild" in docker
    assert 'R2D_ENTRYPOINT="${REPO_DIR}/binder/start"' in docker
    for script in ("postBuild", "start"):
        assert os.access(BINDER / script, os.X_OK), f"binder/{script} is not executable"


def test_postbuild_installs_flashlab_with_its_lab_extra_and_warms_every_chapter():
    post = (BINDER / "postBuild").read_text()
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    m = re.search(r'pip install [^\n]*-e "\.\[(\w+)\]"', post)
    assert m and m.group(1) in extras, "postBuild does not install flashlab with an extra pyproject.toml defines"
    assert "jupytext" in " ".join(extras["book"]) and "ipykernel" in " ".join(extras["live"])  # warm-up needs
    assert post.index("pip install") < post.index("python tools/warmup.py"), "warm-up before the install"
    sys.path.insert(0, str(ROOT / "tools"))
    import warmup

    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    toc_chapters = [c["file"] for p in toc["parts"] for c in p["chapters"] if c["file"].startswith("chapters/")]
    assert [p.relative_to(ROOT).with_suffix("").as_posix() for p in warmup.chapters()] == toc_chapters
    assert all(p.exists() for p in warmup.chapters())


def test_build_and_sessions_share_the_numba_cache_and_a_generic_cpu():
    build = _numba_env("set -e; source binder/numba.env; env")  # as postBuild does
    session = _numba_env("binder/start env")  # what the notebook server (and its kernels) inherit
    assert build == session
    assert build["NUMBA_CPU_NAME"] == "generic"
    assert build["NUMBA_CACHE_DIR"].startswith("/home/jovyan/")
    assert "source binder/numba.env" in (BINDER / "postBuild").read_text()


def test_warmup_runs_a_chapter_with_the_binder_environment(tmp_path):
    chapter = tmp_path / "tiny.md"
    chapter.write_text(
        "---\njupytext:\n  text_representation: {extension: .md, format_name: myst}\n"
        "kernelspec: {display_name: Python 3, language: python, name: python3}\n---\n# Tiny\n\n"
        "```{code-cell} ipython3\nfrom flashlab.cell import cell_levels\nprint(cell_levels(3).name)\n```\n"
    )
    env = {**os.environ, "NUMBA_CPU_NAME": "generic", "NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "warmup.py"), str(chapter)], capture_output=True,
                       text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "warmed tiny.md" in r.stdout
    bad = tmp_path / "bad.md"
    bad.write_text(chapter.read_text().replace("print(cell_levels(3).name)", "raise RuntimeError('x')"))
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "warmup.py"), str(bad)], capture_output=True,
                       text=True, env=env, timeout=300)
    assert r.returncode != 0, "a failing chapter must fail the image build"
