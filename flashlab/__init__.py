"""flashlab: the simulation engine behind the interactive NAND flash textbook.

Layers follow the hardware (see DESIGN.md): :mod:`flashlab.cell` (charge, threshold
voltage, programming, errors), :mod:`flashlab.tech` (process shrinks, wafer economics, 3D
NAND; it produces the cell presets), :mod:`flashlab.device`, :mod:`flashlab.ftl`,
:mod:`flashlab.workload`, and :mod:`flashlab.viz` (figures and explorables, which
imports the engine; the engine never imports it).

Importing flashlab compiles nothing: numba kernels compile lazily on first call and
are cached on disk.
"""

__version__ = "0.1.0"
