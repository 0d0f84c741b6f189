"""What data reduction does to the flash under an array: fewer pages written, more room to collect.

A host page that reduces ``ratio``:1 (deduplication and compression together) reaches the members
as ``1 / ratio`` of a page, and the data the array holds occupies ``1 / ratio`` of the space it
would take unreduced. Both cut the members' wear. Fewer pages are programmed per host write, and
the members' flash not holding data is as good as spare for their garbage collection: never
written, or trimmed (the exercise on TRIM in chapter 7 shows it), so their write amplification
falls too. For members of over-provisioning ``op`` whose user capacity is filled to a share
``fill`` by the reduced data, the collector sees the spare ``(1 + op) / fill - 1``; under uniform
random writes their WA is then Desnoyers' greedy model at that spare
(:func:`flashlab.ftl.wa_greedy`; ``tests/test_array_reduction.py`` checks it against the FTL
simulation).

* :func:`reduced_wear` ``(ratio, stored, *, op, pages_per_block)`` -> :class:`ReducedWear`.

Left out: the reduction's own metadata (dedupe tables, compression maps) and the writes that keep
it, which real arrays keep in NVRAM and on flash; packing compressed pages of uneven size, which
leaves holes the array must clean itself; and the controller CPU that bounds how fast an array
can reduce (flashdba 2015 on always-on reduction). The ratio is one number for all the data, as
in :func:`flashlab.array.array_capacity`.
"""

from __future__ import annotations

from dataclasses import dataclass

from flashlab._validate import check_int, check_real
from flashlab.ftl import wa_greedy

MAX_RATIO = 100.0


@dataclass(frozen=True)
class ReducedWear:
    """Wear of an array's members holding data that reduces ``ratio``:1.

    ``stored``: the data held, as a share of the array's usable capacity before reduction (the
    share of its *effective* capacity at this ratio is ``stored / ratio``); ``fill``: the share of
    the members' user capacity the reduced data occupies (``stored / ratio``); ``spare``: the
    over-provisioning their collector sees, ``(1 + op) / fill - 1``; ``wa``: their write
    amplification (greedy, uniform random writes); ``member_pages``: flash pages programmed per
    host page written, ``wa / ratio``."""

    ratio: float
    stored: float
    fill: float
    spare: float
    wa: float
    member_pages: float


def reduced_wear(ratio: float, stored: float, *, op: float = 0.07, pages_per_block: int = 256) -> ReducedWear:
    """Member wear when the array holds ``stored`` (a share of its usable capacity, unreduced) of
    data that reduces ``ratio``:1 (in [1, 100]) on members of over-provisioning ``op`` (in
    [0.01, 10]) with blocks of ``pages_per_block`` pages. ``stored`` is in [0.01, ``ratio``]: it may
    exceed 1 up to the array's effective capacity at that ratio, where the reduced data fills the
    members."""
    ratio = check_real("ratio", ratio, 1.0, MAX_RATIO)
    op = check_real("op", op, 0.01, 10.0)
    pages_per_block = check_int("pages_per_block", pages_per_block, 2, 2**20)
    stored = check_real("stored", stored, 0.01, ratio)
    fill = stored / ratio
    spare = (1.0 + op) / fill - 1.0
    wa = float(wa_greedy(spare, pages_per_block))
    return ReducedWear(ratio=ratio, stored=stored, fill=fill, spare=spare, wa=wa, member_pages=wa / ratio)
