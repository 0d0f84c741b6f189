"""flashlab: the simulation engine behind the interactive NAND flash textbook.

Layers follow the hardware (CONTRIBUTING.md states the import rules): :mod:`flashlab.cell`
(charge, threshold voltage, programming, errors), :mod:`flashlab.tech` (process shrinks, wafer
economics, 3D NAND; it produces the cell presets), :mod:`flashlab.device`,
:mod:`flashlab.workload`, :mod:`flashlab.ftl`, :mod:`flashlab.ssd` (a drive in time),
:mod:`flashlab.db` and :mod:`flashlab.array` (databases and arrays on simulated drives),
:mod:`flashlab.sweep` (parameter grids), and :mod:`flashlab.viz` (figures and explorables,
which imports the engine; the engine never imports it). ``import flashlab`` loads none of
them: a layer is imported the first time it is named, as ``flashlab.ssd`` (or imported
directly, ``from flashlab.ssd import simulate_io``).

Importing flashlab compiles nothing: numba kernels compile lazily on first call and
are cached on disk, in a folder per version of the kernels' sources (:mod:`flashlab._numba_cache`).
"""

import importlib

from flashlab._numba_cache import use_source_keyed_cache as _use_source_keyed_cache

__version__ = "0.1.0"

# Before any kernel module is imported: numba's cache folder for this version of the kernels'
# sources (numba itself checks only each kernel's own file; see flashlab._numba_cache).
_use_source_keyed_cache()

_LAYERS = ("array", "cell", "db", "device", "drives", "ftl", "presets", "quiz", "ssd", "sweep", "tech", "viz", "workload")


def __getattr__(name: str):
    """``flashlab.<layer>``: the layer, imported on first use (PEP 562), so that a bare
    ``import flashlab`` stays cheap."""
    if name in _LAYERS:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module 'flashlab' has no attribute {name!r}; its layers are {', '.join(_LAYERS)}")


def __dir__():
    return sorted(set(globals()) | set(_LAYERS))
