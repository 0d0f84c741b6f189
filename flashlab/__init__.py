"""flashlab: the simulation engine behind the interactive NAND flash textbook.

Layers follow the hardware (CONTRIBUTING.md states the import rules): :mod:`flashlab.cell`
(charge, threshold voltage, programming, errors), :mod:`flashlab.tech` (process shrinks, wafer
economics, 3D NAND; it produces the cell presets), :mod:`flashlab.device`,
:mod:`flashlab.workload`, :mod:`flashlab.ftl`, :mod:`flashlab.ssd` (a drive in time),
:mod:`flashlab.db` and :mod:`flashlab.array` (databases and arrays on simulated drives),
:mod:`flashlab.sweep` (parameter grids), and :mod:`flashlab.viz` (figures and explorables,
which imports the engine; the engine never imports it). Import a layer to use it: importing
``flashlab`` alone loads none of them.

Importing flashlab compiles nothing: numba kernels compile lazily on first call and
are cached on disk.
"""

__version__ = "0.1.0"
