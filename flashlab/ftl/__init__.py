"""Flash translation layer: page mapping, garbage collection, wear levelling, and WA models.

Public API:

* :class:`FtlConfig`, :class:`Ftl` (write/read/trim/snapshot), :class:`Snapshot`, :class:`ReadOnlyError`
* :func:`simulate` -> :class:`FtlResult` (steady-state WA and its causes, time series, erase counts)
* :class:`Stepper` (a tiny device stepped write by write, for animations)
* :func:`simulate_zns` -> :class:`ZnsResult` (a zoned drive and its host's cleaner), :func:`zone_geometry`
* :func:`wa_fifo`, :func:`wa_greedy`, :func:`wa_agarwal`, :func:`wa_hot_cold` (analytic models), :func:`min_op`,
  :func:`min_blocks_per_plane`
"""

from flashlab.ftl.core import (
    BLOCK_CLOSED,
    BLOCK_FREE,
    BLOCK_OPEN,
    BLOCK_RETIRED,
    PAGE_FREE,
    PAGE_STALE,
    PAGE_VALID,
    POLICIES,
    SEPARATIONS,
    MAX_HANDLES,
    Ftl,
    FtlConfig,
    ReadOnlyError,
    Snapshot,
    min_blocks_per_plane,
    min_op,
)
from flashlab.ftl.models import wa_agarwal, wa_fifo, wa_greedy, wa_hot_cold
from flashlab.ftl.simulate import FtlResult, simulate
from flashlab.ftl.stepper import Stepper
from flashlab.ftl.zns import ZnsResult, simulate_zns, zone_geometry

__all__ = [
    "BLOCK_CLOSED", "BLOCK_FREE", "BLOCK_OPEN", "BLOCK_RETIRED", "PAGE_FREE", "PAGE_STALE",
    "MAX_HANDLES", "PAGE_VALID", "POLICIES", "SEPARATIONS", "Ftl", "FtlConfig", "FtlResult", "ReadOnlyError",
    "Snapshot", "Stepper", "min_blocks_per_plane", "min_op", "simulate", "wa_agarwal", "wa_fifo", "wa_greedy",
    "wa_hot_cold", "ZnsResult", "simulate_zns", "zone_geometry",
]
