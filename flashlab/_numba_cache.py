"""Where numba keeps flashlab's compiled kernels: a folder per version of the kernels' sources.

numba checks a cached kernel against the modification time and size of the one file that
defines it, and of no other. flashlab's kernels call and inline kernels of other modules (the
drive engine inlines the FTL's) and read module constants,
which numba freezes into the compiled code. Edit ``flashlab/ftl/_kernels.py`` alone and numba
would still load the drive engine built against the old FTL, with the old FTL's state layout:
wrong answers, and indices past the ends of arrays that kernels do not bounds-check (this
happened: a change of the FTL's counter layout moved 153 of the drive engine's golden arrays,
in 12 of its configurations, in a checkout with a warm cache). numba's own cache has no notion of
these dependencies: a documented limitation, open since 2016 (numba/numba#1833).

So :func:`use_source_keyed_cache`, run by ``import flashlab`` before any kernel module is
imported, points numba's cache (``NUMBA_CACHE_DIR``, or ``~/.cache/flashlab/numba`` when it is
unset) at a subfolder named for a digest of every source file a kernel can reach: any change
to them starts an empty folder and numba compiles afresh. Only those files enter the digest (the
modules that define kernels and what they import, found in their text): editing a figure, a
quiz or a drive preset does not recompile the engine. The three most recently modified folders
are kept, so that a few versions side by side do not recompile each other's kernels, and older ones
are removed.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
PREFIX = "kernels-"
_VERSION_FOLDER = re.compile(r"kernels-[0-9a-f]{16}")
KEEP = 3


_FROM = re.compile(r"^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)", re.M)
_IMPORT = re.compile(r"^[ \t]*import[ \t]+(flashlab[\w.]*)", re.M)


def _module_file(package: Path, name: str) -> Path | None:
    """The source file of module ``name`` if it is part of flashlab (whose sources are in ``package``)."""
    parts = name.split(".")
    if parts[0] != "flashlab":
        return None
    path = package.joinpath(*parts[1:])
    for candidate in (path / "__init__.py", path.with_suffix(".py")):
        if candidate.is_file():
            return candidate
    return None


def _module_name(package: Path, path: Path) -> str:
    rel = path.relative_to(package).with_suffix("")
    parts = ("flashlab",) + rel.parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported_files(package_dir: Path, path: Path, text: str) -> set[Path]:
    """The flashlab modules ``path`` imports (``from X import name``: X, and X.name when that is
    a module), read from its text (no import, no parse)."""
    package = _module_name(package_dir, path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    found = set()
    for source, names in _FROM.findall(text):
        dots = len(source) - len(source.lstrip("."))
        module = source[dots:]
        if dots:
            module = ".".join(package[:len(package) - dots + 1] + ([module] if module else []))
        for name in [module] + [f"{module}.{n}" for n in re.findall(r"\w+", names)]:
            if (f := _module_file(package_dir, name)) is not None:
                found.add(f)
    for module in _IMPORT.findall(text):
        if (f := _module_file(package_dir, module)) is not None:
            found.add(f)
    return found


def kernel_sources(package: Path = PACKAGE) -> dict[Path, bytes]:
    """Every flashlab source file a kernel can reach, with its contents: the modules that define
    numba kernels, and the flashlab modules they import, transitively. Each file is read once
    (this runs at import)."""
    texts = {p: p.read_bytes() for p in package.rglob("*.py") if "__pycache__" not in p.parts}
    reached: dict[Path, bytes] = {}
    frontier = [p for p, text in texts.items() if b"njit" in text]
    while frontier:
        path = frontier.pop()
        if path in reached:
            continue
        reached[path] = texts[path]
        frontier.extend(_imported_files(package, path, texts[path].decode("utf-8")) - reached.keys())
    return dict(sorted(reached.items()))


def sources_digest(package: Path = PACKAGE) -> str:
    """Digest (16 hex digits) of :func:`kernel_sources`: their paths and contents."""
    h = hashlib.sha256()
    for path, text in kernel_sources(package).items():
        h.update(path.relative_to(package).as_posix().encode())
        h.update(b"\0")
        h.update(text)
    return h.hexdigest()[:16]


def _base() -> Path:
    config = sys.modules.get("numba.core.config")
    chosen = (config.CACHE_DIR if config is not None else "") or os.environ.get("NUMBA_CACHE_DIR", "")
    if chosen:
        return Path(chosen)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "flashlab" / "numba"


def _prune(base: Path, current: Path) -> None:
    """Remove all but the KEEP most recently modified version folders beside ``current``."""
    try:
        others = [p for p in base.iterdir() if _VERSION_FOLDER.fullmatch(p.name) and p != current]
        others.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:
        return
    for old in others[KEEP - 1:]:
        shutil.rmtree(old, ignore_errors=True)


def use_source_keyed_cache() -> Path:
    """Point numba's on-disk cache at this version of the kernel sources' folder (created, and
    older versions beyond the newest few removed, when it is new); returns the folder.

    Idempotent: a process that inherits the setting (``NUMBA_CACHE_DIR`` already ending in this
    version's folder: a pytest-xdist or Dask worker) keeps it."""
    base = _base()
    leaf = PREFIX + sources_digest()
    if base.name == leaf:
        folder = base
    else:
        if _VERSION_FOLDER.fullmatch(base.name):  # another version's folder, inherited: use its parent
            base = base.parent
        folder = base / leaf
        if not folder.is_dir():
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError:
                pass  # numba reports a cache folder it cannot write, and compiles without it
            else:
                _prune(base, folder)
    os.environ["NUMBA_CACHE_DIR"] = str(folder)
    config = sys.modules.get("numba.core.config")
    if config is not None:  # numba imported first: it has read the environment already
        config.CACHE_DIR = str(folder)
    return folder
