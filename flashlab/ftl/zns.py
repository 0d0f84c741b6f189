"""Zoned namespaces (ZNS): the drive does no garbage collection, the host's log does the cleaning.

A zoned drive exposes its flash as zones that must be written sequentially and are reset
(erased) whole (NVMe Zoned Namespace Command Set, TP4053; Bjorling et al. 2021). The drive keeps
no page map and copies nothing: every page it programs is a page the host sent, so its write
amplification is 1. The host's log-structured layer (a file system such as F2FS or an LSM
store) writes out of place into open zones and, when free zones run short, cleans: it picks a
victim zone, copies its live pages to an open zone and resets the victim. That cleaner is the
page-mapped FTL's mechanism one level up, at zone granularity: :func:`simulate_zns` runs it as
the FTL engine (:func:`flashlab.ftl.simulate`) on a geometry whose blocks are zones, with greedy
victims (the emptiest zone), and counts its copies as host writes. With placement handles the
host keeps each of its data sets in zones of its own, as it knows which data belongs together.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from flashlab._validate import check_instance, check_int, check_real, check_seed
from flashlab.device.geometry import Geometry
from flashlab.ftl.core import FtlConfig, check_capacity
from flashlab.ftl.simulate import simulate
from flashlab.workload import Workload


@dataclass(frozen=True)
class ZnsResult:
    """Outcome of :func:`simulate_zns`: where the writes of a zoned drive's host went.

    Attributes
    ----------
    device_wa : float
        Flash page programs per page the host sends the drive: 1 (a zoned drive copies nothing).
    host_wa : float
        Pages the host sends the drive per page the application writes, in steady state:
        ``1 + host_copies``.
    host_copies : float
        Pages the host's cleaner copies per application page write (each is read from the drive
        and written back: ``2 x host_copies`` pages cross the bus besides the write itself).
    total_wa : float
        Flash page programs per application page write: ``host_wa x device_wa``.
    zones, zone_pages : int
        Zones of the drive and pages per zone.
    host_op : float
        The host's spare: (zone pages - live pages) / live pages.
    """

    device_wa: float
    host_wa: float
    host_copies: float
    total_wa: float
    zones: int
    zone_pages: int
    host_op: float


def zone_geometry(geometry: Geometry, zone_blocks: int = 1, host_op: float | None = None) -> Geometry:
    """The zones of a drive built like ``geometry``, as the host's cleaner sees them: blocks of
    ``zone_blocks`` erase blocks each (``blocks_per_plane`` a multiple of it), and the host's
    live data set so that its spare is ``host_op`` (default the drive's ``op``: the flash a
    conventional drive keeps as over-provisioning is the host's to use)."""
    check_instance("geometry", geometry, Geometry)
    zone_blocks = check_int("zone_blocks", zone_blocks, 1, geometry.blocks_per_plane)
    if geometry.blocks_per_plane % zone_blocks:
        raise ValueError(f"zone_blocks must divide blocks_per_plane={geometry.blocks_per_plane}; "
                         f"got zone_blocks={zone_blocks}")
    op = geometry.op if host_op is None else check_real("host_op", host_op, 0.0, 100.0, lo_open=True)
    return dataclasses.replace(geometry, blocks_per_plane=geometry.blocks_per_plane // zone_blocks,
                               pages_per_block=geometry.pages_per_block * zone_blocks, op=op)


def simulate_zns(geometry: Geometry, workload: Workload = Workload(), *, zone_blocks: int = 1,
                 host_op: float | None = None, handle_starts: tuple = (), fills: float = 20.0,
                 seed: int = 0) -> ZnsResult:
    """Steady-state write amplification of a zoned drive and its host's log-structured cleaner.

    Parameters
    ----------
    geometry : the drive's flash (its ``op`` is the host's spare unless ``host_op`` is given).
    workload : the application's writes (over the host's live pages).
    zone_blocks : int in [1, blocks_per_plane], dividing it: erase blocks per zone.
    host_op : float in (0, 100], the host's spare over its live data (default ``geometry.op``).
    handle_starts : first LBA of each of the host's data sets after the first (up to
        ``MAX_HANDLES - 1``, increasing, below the live pages): the host keeps each set in zones
        of its own (empty: one log for everything).
    fills, seed : as :func:`flashlab.ftl.simulate` (drive writes after a sequential fill;
        measured over the last half).
    """
    check_instance("workload", workload, Workload)
    check_seed("seed", seed)
    zones = zone_geometry(geometry, zone_blocks, host_op)
    tagged = isinstance(handle_starts, tuple) and len(handle_starts) > 0
    config = FtlConfig(policy="greedy", separation="tagged" if tagged else "gc", handle_starts=handle_starts)
    try:
        check_capacity(zones, config, blocks_name="zones")
    except ValueError as e:
        raise ValueError(f"geometry, zone_blocks={zone_blocks} and host_op={zones.op!r} leave the host's "
                         f"cleaner too little room: {e}") from None
    r = simulate(zones, config, workload, fills=fills, seed=seed)
    return ZnsResult(device_wa=1.0, host_wa=r.wa_steady, host_copies=r.wa_gc, total_wa=r.wa_steady,
                     zones=zones.blocks, zone_pages=zones.pages_per_block, host_op=zones.effective_op)
