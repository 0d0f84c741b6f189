"""numba's cache folder follows the kernels' sources (flashlab._numba_cache): a change to any
file a kernel can reach, in whichever module, starts a new folder; a change elsewhere does not."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numba.core.config as numba_config
import pytest

from flashlab import _numba_cache as NC

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def package(tmp_path):
    """A copy of flashlab's sources to edit."""
    copy = tmp_path / "flashlab"
    shutil.copytree(NC.PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def _append(path: Path, text: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


def test_kernel_sources_follow_imports_from_kernel_modules():
    rel = {p.relative_to(NC.PACKAGE).as_posix() for p in NC.kernel_sources()}
    # the kernel modules themselves, and what the drive engine inlines from another layer
    assert {"ssd/_kernels.py", "ftl/_kernels.py", "_heap.py", "db/_kernels.py"} <= rel
    # module constants a kernel freezes: the FTL's kernels import the workload's op codes
    assert "workload/__init__.py" in rel
    # figures, quizzes and the drive presets are no kernel's import
    assert not any(r.startswith(("viz/", "quiz/", "drives/")) for r in rel), sorted(rel)


def test_digest_changes_with_a_kernel_dependency_and_only_then(package):
    before = NC.sources_digest(package)
    assert before == NC.sources_digest(package)
    _append(package / "viz" / "style.py", "\n# a figure's colour changed\n")
    assert NC.sources_digest(package) == before
    # the drive engine's file is unchanged: numba alone would load its stale cache
    _append(package / "ftl" / "_kernels.py", "\nNEW_COUNTER = 99\n")
    after = NC.sources_digest(package)
    assert after != before
    _append(package / "workload" / "__init__.py", "\n# an op code moved\n")
    assert NC.sources_digest(package) != after


def test_cache_folder_is_per_version_and_inherited_unchanged(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(numba_config, "CACHE_DIR", "")
    folder = NC.use_source_keyed_cache()
    assert folder == tmp_path / "cache" / f"kernels-{NC.sources_digest()}" and folder.is_dir()
    assert os.environ["NUMBA_CACHE_DIR"] == str(folder)
    assert numba_config.CACHE_DIR == str(folder)
    # a worker process inherits the folder, and keeps it
    assert NC.use_source_keyed_cache() == folder
    # a folder of another version, inherited: this version's folder beside it
    other = tmp_path / "cache" / "kernels-0123456789abcdef"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(other))
    monkeypatch.setattr(numba_config, "CACHE_DIR", str(other))
    assert NC.use_source_keyed_cache() == folder


def test_old_versions_are_pruned_to_the_newest_few(tmp_path, monkeypatch):
    base = tmp_path / "cache"
    olds = [base / f"kernels-{i:016x}" for i in range(5)]
    for i, old in enumerate(olds):
        old.mkdir(parents=True)
        os.utime(old, (1000 + i, 1000 + i))
    keep = base / "flashlab-numba"  # not a version folder: never touched
    keep.mkdir()
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(base))
    monkeypatch.setattr(numba_config, "CACHE_DIR", "")
    folder = NC.use_source_keyed_cache()
    left = sorted(p.name for p in base.iterdir())
    assert left == sorted([folder.name, olds[4].name, olds[3].name, keep.name]), left


def test_import_flashlab_sets_the_folder_before_any_kernel(tmp_path):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "c")}
    code = ("import os, flashlab.ftl._kernels as K; print(os.environ['NUMBA_CACHE_DIR']); "
            "print(K._rand_below._cache._cache_path)")
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout.split()
    folder = str(tmp_path / "c" / f"kernels-{NC.sources_digest()}")
    assert out[0] == folder and out[1].startswith(folder + os.sep), out
