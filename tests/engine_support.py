"""Shared checks of the drive event engine's invariants, for the property tests that drive an
:class:`flashlab.ssd.engine.Engine` directly."""

from __future__ import annotations

import math

from flashlab.ftl import _kernels as FK
from flashlab.ssd import _kernels as K


def drain_and_check_last_writes(e, op, lba, pages) -> tuple[dict, list[int]]:
    """Run one-device engine ``e`` (built for host I/Os ``op``, ``lba``, ``pages``) to the end
    and on until its events run out; assert that it stopped without error with every request
    done, and that every LBA written maps a physical page holding its last write (its P2L entry
    and its STAMP, the host write's sequence number). Returns the device's counters and the LBA
    of every host page written, in order."""
    n = op.size
    e.run(False)
    K.run_events(e.state, n + 1, math.inf)  # on until the events run out
    c = e.counters(0)
    assert e.error() == "" and c["requests_done"] == n
    written = [int(lba[i]) + p for i in range(n) if op[i] == 0 for p in range(pages[i])]
    last = {x: k for k, x in enumerate(written)}
    pg, l2p = e.ftls.pages.reshape(2, -1), e.ftls.l2p
    for x, k in last.items():
        ppn = l2p[x]
        assert pg[FK.P2L, ppn] == x and pg[FK.STAMP, ppn] == k
    return c, written
