"""Array layer: many drives on one clock, RAID and parity, and capacity raw / usable / effective.

Capacity (:mod:`flashlab.array.capacity`): :func:`array_capacity` walks from raw to usable to
effective capacity step by step; :func:`drive_capacity` splits one drive's flash into what it
exports and what it hides.

In time (:mod:`flashlab.array.layout`, :mod:`flashlab.array.sim`):

* :class:`Layout` ``(raid, drives, stripe_unit, page_size, member_pages)``: RAID-0, 1, 5, 6
  and 10 with a stripe unit and rotating parity; ``locate`` (where an array page lives),
  ``parity_members``, ``plan`` (the member requests of host I/Os: read-modify-write, full-stripe
  writes, rebuild reads), ``raw_bytes``/``usable_bytes`` of the layout.
* :class:`ArrayConfig` ``(arch, drives, raid, stripe_unit, drive, disk, gc_limit, device_qd)``:
  ``arch`` ``disk``, ``ssd`` (independent GC), ``harmonia`` (synchronised GC) or ``ground-up``
  (at most ``gc_limit`` members collect at once; reads to them are rebuilt from the stripe);
  :func:`array_drive` ``(op=0.25, capacity_bytes=16 MiB, timing="mlc_mqsim")`` the small
  default flash member.
* :func:`simulate_array` ``(config, load, *, requests=4000, bursts=None,
  precondition_fills=1.0, seed=0, progress=False) -> ArrayResult``: host I/Os (a
  :class:`flashlab.ssd.HostLoad`) through the layout onto every member on one clock.
  :class:`ArrayResult`: per host I/O ``op``, ``lba``, ``pages``, ``arrival_us``, ``done_us``,
  ``latency_us``, ``held_by`` (the member a stripe waited for), ``rebuilt``; ``gc_log``
  (device, start_us, end_us per GC job), ``members`` (the member-level
  :class:`flashlab.ssd.MembersResult`), ``plan``, ``raw_bytes``, ``usable_bytes``, ``error``;
  methods ``iops(op)``, ``percentiles(op)``, ``member_percentiles(op)``, ``intervals(n, op)``
  (IOPS and latency over time), ``gc_busy(n)`` (the GC timeline, members x intervals),
  ``gc_share()``, ``gc_overlap()`` (how the members' collections line up), ``stripe_waits(op)``.

Several hosts (:mod:`flashlab.array.hosts`): :class:`Host` ``(load, stream, start, requests)``,
``stream`` ``random`` or ``seq`` (a sequential, stripe-aligned stream: full-stripe writes);
:func:`simulate_hosts` ``(config, hosts, *, precondition_fills, seed) -> HostsResult``
(``iops(host, op)``, ``percentiles(host, op)``, ``per_host()``). A degraded array:
``ArrayConfig(failed=(...))`` and :meth:`Layout.degrade`.

Rebuild onto a spare (:mod:`flashlab.array.rebuild`): :class:`Rebuild` ``(layout, failed,
member, frontier)`` (the member requests of a rebuild step and of host I/Os on both sides of its
frontier); :func:`simulate_rebuild` ``(config, load, *, rate_mb_s, requests, ...) ->
RebuildResult`` (rebuild duration, host latency during it, member pages by cause); the window
of exposure in closed form: :func:`second_failure_probability`, :func:`raid6_loss_probability`,
:func:`ure_probability`.

Data reduction under the array (:mod:`flashlab.array.reduction`): :func:`reduced_wear`
``(ratio, stored, *, op, pages_per_block) -> ReducedWear``: the members' spare, write
amplification and pages programmed per host page when the data reduces ``ratio``:1.

Times in microseconds, sizes in bytes.
"""

from flashlab.array.capacity import (DATA_REDUCTION_CLAIMS, RAID_MIN_DRIVES, UNITS, ArrayCapacity, CapacityStep,
                                     DriveCapacity, array_capacity, drive_capacity, in_units)
from flashlab.array.layout import RAID_LEVELS, Layout
from flashlab.array.sim import ARCHS, ArrayConfig, ArrayResult, array_drive, simulate_array
from flashlab.array.hosts import STREAMS, Host, HostsResult, simulate_hosts
from flashlab.array.reduction import ReducedWear, reduced_wear
from flashlab.array.rebuild import (CAUSES, Rebuild, RebuildResult, raid6_loss_probability, second_failure_probability,
                                    simulate_rebuild, ure_probability)

__all__ = ["ReducedWear", "reduced_wear", "DATA_REDUCTION_CLAIMS", "RAID_MIN_DRIVES", "UNITS", "ArrayCapacity", "CapacityStep", "DriveCapacity",
           "array_capacity", "drive_capacity", "in_units",
           "ARCHS", "RAID_LEVELS", "ArrayConfig", "ArrayResult", "Layout", "array_drive", "simulate_array",
           "STREAMS", "Host", "HostsResult", "simulate_hosts",
           "CAUSES", "Rebuild", "RebuildResult", "raid6_loss_probability", "second_failure_probability",
           "simulate_rebuild", "ure_probability"]
