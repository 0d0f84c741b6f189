"""A file system that creates, updates and deletes data, and trims what it deletes or not.

:class:`FileChurn` keeps live data on a fixed share of the drive's LBAs (one-page files). Each
host write lands on an LBA drawn uniformly from the whole user space: on a live LBA it updates
that data in place; on a free one it creates new data there, and the file system deletes a live
LBA drawn uniformly from the live ones so that the live share stays fixed. A deletion reaches the
drive as a TRIM (``trim=True``, as with ``discard`` or ``fstrim``) or not at all: the drive then
still holds the deleted data as valid until the file system reuses the LBA.

Why this mix: the drive sees writes spread uniformly over every LBA, so without TRIM it is the
uniform random workload of Desnoyers (2012) at the drive's own over-provisioning. With TRIM, a
live page is superseded in a step with probability 1 / U (its LBA rewritten) plus
(U - L) / U x 1 / L (its LBA deleted), which is 1 / L: the drive sees exactly uniform random
writes over L live LBAs, so the model applies at the *effective* over-provisioning
``physical / L - 1``. ``tests/test_trim.py`` checks both against :func:`flashlab.ftl.wa_greedy`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from flashlab._validate import check_bool, check_int, check_memory, check_real, check_seed, plain_fields
from flashlab.workload import OP_TRIM
from flashlab.workload import _kernels as K
from flashlab.workload.generators import DEFAULT_CHUNK


@dataclass(frozen=True)
class FileChurn:
    """File-system churn over a fixed share of live data, with or without TRIM.

    Parameters
    ----------
    live_share : float in (0, 1]
        Share of the user LBAs that hold live data (``L = round(live_share x user_pages)``, at
        least 1). The initial live LBAs are drawn at random.
    trim : bool
        Send a TRIM for every deleted LBA, and once at the start for every LBA the file system
        does not use (as ``fstrim`` does on a freshly made file system). Without it the drive
        never learns what was deleted.
    trim_after : float in [0, 10000], drive writes
        With ``trim``: start trimming only after this many drive writes (``trim_after x
        user_pages`` host writes) of the workload; the file system then trims all of its free
        space once, as ``fstrim`` does, and every deletion from then on. Before that it trims
        nothing, so a run shows a drive recovering when its file system starts to trim.
    """

    live_share: float = 0.5
    trim: bool = True
    trim_after: float = 0.0

    def __post_init__(self):
        plain_fields(self)
        check_real("live_share", self.live_share, 0.0, 1.0, lo_open=True)
        check_bool("trim", self.trim)
        check_real("trim_after", self.trim_after, 0.0, 10000.0)

    def live_pages(self, user_pages: int) -> int:
        """Live LBAs the file system keeps on a drive of ``user_pages`` LBAs."""
        user_pages = check_int("user_pages", user_pages, 1, 2**31 - 1)
        return min(user_pages, max(1, round(self.live_share * user_pages)))

    def chunks(self, user_pages: int, seed: int = 0, chunk_size: int = DEFAULT_CHUNK
               ) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """Endless stream of ``(ops, lbas)`` chunks holding up to ``chunk_size`` host writes each
        (plus the TRIMs of the deletions among them); with ``trim``, once ``trim_after`` drive
        writes are done (at once by default), chunks of ``chunk_size`` TRIMs of the LBAs the
        file system leaves free."""
        live_n = self.live_pages(user_pages)
        check_seed("seed", seed)
        chunk_size = check_int("chunk_size", chunk_size, 1, 2**28)
        # the shuffle (int64), the live list and each LBA's slot in it (int32)
        check_memory("user_pages", 16 * user_pages, f"a file system of {user_pages} LBAs")
        rng = np.random.default_rng(np.random.SeedSequence([seed, 3]))
        order = rng.permutation(user_pages).astype(np.int32)
        live = order[:live_n].copy()
        slot = np.full(user_pages, -1, dtype=np.int32)
        slot[live] = np.arange(live_n, dtype=np.int32)
        ops = np.empty(2 * chunk_size, dtype=np.int8)
        lbas = np.empty(2 * chunk_size, dtype=np.int32)
        wait = round(self.trim_after * user_pages)  # host writes before the file system trims
        trimming = False
        while True:
            if self.trim and not trimming and wait == 0:
                trimming = True  # fstrim: every LBA the file system holds no data on, once
                free = np.flatnonzero(slot < 0).astype(np.int32)
                for start in range(0, free.size, chunk_size):
                    part = free[start:start + chunk_size]
                    yield np.full(part.size, OP_TRIM, dtype=np.int8), part
            n_writes = chunk_size if trimming or not self.trim else min(chunk_size, wait)
            targets = rng.integers(0, user_pages, n_writes).astype(np.int32)
            victims = rng.random(n_writes)
            n = K.file_churn(targets, victims, live, slot, trimming, ops, lbas)
            if self.trim and not trimming:
                wait -= n_writes
            yield ops[:n].copy(), lbas[:n].copy()
