"""The SLC cache of a client TLC or QLC drive: its record and the sequential-write closed form
the event engine's cache is to be validated against.

A client drive writes host data first into blocks it programs in *SLC mode*, one bit per cell:
such a block holds ``pages_per_block / bits_per_cell`` pages and programs each in about the time
of the part's fastest page type. Once the cache is full, host writes go to native TLC or QLC
blocks directly and the drive's write bandwidth falls to its direct-write rate: the cliff most
users of consumer drives meet, long before the GC cliff. The drive *folds* the cache (copies its
valid pages into native blocks and erases the SLC blocks) once the host has left it idle for a
while, and, while the host goes on writing into a full cache, under load.

This module holds the cache's parameters (:class:`SlcCache`) and the closed form of a fresh
drive's sequential write (:func:`slc_write_plateaus`): the SLC program rate until the cache's
bytes are written, then the direct rate, each capped by the host link. The event engine
simulates the cache of a config whose ``slc`` field names one (:class:`flashlab.ssd.SsdConfig`;
its kernels' record ``Slc``): host writes fill the cache's blocks in SLC mode, then go to native
blocks; a *fold* job copies the oldest cache block's valid pages into native blocks and erases
it. A fold starts when the drive has been idle (no host command inside it or waiting) for
``idle_fold_us``, one block after another while it stays idle, and at once when the cache is
full (no free block, the newest written to its end): then its copies go before the host's writes
to native blocks (whose program time they share), as foreground GC's go before host writes, and
the blocks it frees take host writes again.

Model (static cache): the cache is ``blocks_per_plane`` blocks of every plane, taken from the
drive's spare blocks (its over-provisioning) before the first write, as a static SLC cache is;
the user capacity is unchanged. Dynamic caches (SLC blocks borrowed from free user space,
shrinking as the drive fills) are left out, as is the cache's own wear (its erases are counted,
no endurance applies).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from flashlab._validate import check_instance, check_int, check_real
from flashlab.device.timing import NandTiming

#: Most SLC blocks per plane a cache may name (a plane of a real part has a few thousand).
MAX_BLOCKS_PER_PLANE = 2**20

#: Idle time before a fold starts, us: one second. No datasheet publishes it. TechPowerUp's review
#: of the 980 PRO (``techpowerup2020980pro``) found that a pause in writing "even for a second"
#: lets the drive free part of its cache: the delay is at most a second, and the model takes
#: that bound. Any delay from about 100 ms up gives the same results in the book's paced and
#: commit-bound workloads, whose gaps are far shorter.
IDLE_FOLD_US = 1e6
#: The longest idle time a cache may name, us (an hour).
MAX_IDLE_FOLD_US = 3.6e9


@dataclass(frozen=True, kw_only=True)
class SlcCache:
    """A static SLC cache: blocks of every plane programmed one bit per cell.

    Parameters
    ----------
    blocks_per_plane : int in [1, MAX_BLOCKS_PER_PLANE]
        Blocks of each plane run in SLC mode, taken from the spare blocks (over-provisioning);
        each holds ``pages_per_block / bits_per_cell`` pages.
    t_prog_us : float in (0, 1e7] or None, us
        SLC-mode program time of one page. None: the drive's fastest page type's tPROG (the
        lower page of an MLC, TLC or QLC word line is programmed to two levels, as an SLC
        page is; Grupp et al. 2009 measure lower pages of MLC parts programming at close to
        SLC times, ``grupp2009characterizing``).
    t_read_us : float in (0, 1e7] or None, us
        SLC-mode read (sense) time of one page. None: the fastest page type's tR, by the same
        argument.
    idle_fold_us : float in [0, MAX_IDLE_FOLD_US], us
        How long the drive must be idle (no host command inside it or waiting) before it folds
        its cache; any host command arriving sooner starts the wait again. Default
        :data:`IDLE_FOLD_US` (one second, the bound a review of the 980 PRO measured). A full
        cache folds under load whatever this is.
    """

    blocks_per_plane: int
    t_prog_us: float | None = None
    t_read_us: float | None = None
    idle_fold_us: float = IDLE_FOLD_US

    def __post_init__(self):
        check_int("blocks_per_plane", self.blocks_per_plane, 1, MAX_BLOCKS_PER_PLANE)
        object.__setattr__(self, "idle_fold_us", check_real("idle_fold_us", self.idle_fold_us, 0.0, MAX_IDLE_FOLD_US))
        for name in ("t_prog_us", "t_read_us"):
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, check_real(name, value, 0.0, 1e7, lo_open=True))

    def prog_us(self, timing) -> float:
        """SLC program time on a part of ``timing`` (a NandTiming), us."""
        check_instance("timing", timing, NandTiming)
        return min(timing.t_prog_us) if self.t_prog_us is None else self.t_prog_us

    def read_us(self, timing) -> float:
        """SLC read time on a part of ``timing`` (a NandTiming), us."""
        check_instance("timing", timing, NandTiming)
        return min(timing.t_read_us) if self.t_read_us is None else self.t_read_us


@dataclass(frozen=True)
class SlcPlateaus:
    """A fresh drive's sequential write with an SLC cache, in closed form.

    ``knee_bytes``: host bytes the cache absorbs; ``slc_mb_s``: write bandwidth until then;
    ``direct_mb_s``: after (native TLC/QLC programs). MB/s = bytes per microsecond.
    """

    knee_bytes: int
    slc_mb_s: float
    direct_mb_s: float

    def seconds_to_write(self, nbytes: int) -> float:
        """Seconds a fresh drive takes to write ``nbytes`` (an int in [0, 2**62]) sequentially
        (the closed form: no folding under load, which the engine simulates)."""
        nbytes = check_int("nbytes", nbytes, 0, 2**62)
        fast = min(nbytes, self.knee_bytes)
        return (fast / self.slc_mb_s + (nbytes - fast) / self.direct_mb_s) / 1e6


def check_slc(config, cache: SlcCache) -> None:
    """Raise ValueError unless ``config`` (an SsdConfig) can hold ``cache``: a multi-level part;
    blocks of whole SLC programs (``pages_per_block`` a multiple of ``bits_per_cell`` x the
    slots of one native program on a plane); and, with the cache's blocks out of the pool, room
    for every user page beside GC's reserve (:func:`flashlab.ftl.core.check_capacity`'s rule)."""
    check_instance("cache", cache, SlcCache)
    g = config.geometry
    bits = config.timing.bits_per_cell
    if bits < 2:
        raise ValueError(f"slc needs a multi-level part (bits_per_cell >= 2): an SLC cache of an SLC part is the part "
                         f"itself; got timing {config.timing.name!r} with 1 bit per cell")
    plane_slots = config.slots * (bits if config.one_shot else 1)  # one native program's slots on a plane
    if g.pages_per_block % (bits * plane_slots):
        raise ValueError(f"pages_per_block must hold whole SLC programs with an SLC cache, a multiple of bits_per_cell x "
                         f"{plane_slots} slot(s) of a program = {bits * plane_slots}; got {g.pages_per_block}")
    check_int("slc.blocks_per_plane", cache.blocks_per_plane, 1, max(max_slc_blocks(config), 0))


def max_slc_blocks(config) -> int:
    """Most blocks per plane a static SLC cache of ``config`` may take from the spare blocks: the
    FTL keeps every user page and its reserve (``gc_background`` + 1 superblocks) in the rest."""
    f = config.ftl_geometry
    reserve = config.gc_background + 1  # the FTL's gc_high plus its second open frontier, less one
    return f.blocks - reserve - math.ceil((f.user_pages + 1) / f.pages_per_block)


def slc_write_plateaus(config, cache: SlcCache | None = None) -> SlcPlateaus:
    """Closed form of a fresh drive's sequential write with ``cache`` (default: ``config.slc``;
    no GC, no folding).

    Both plateaus are the pipeline limit (:func:`flashlab.ssd.pipeline_limit_iops`) of their
    programs, capped by the host link (``config.host``): SLC programs write one NAND page per
    word line (no one-shot; every plane of the die with ``multi_plane``) in the cache's tPROG;
    direct programs are the drive's own. The knee is the cache's capacity:
    ``blocks_per_plane x planes x pages_per_block / bits_per_cell x page_size`` bytes.

    Raises ValueError if ``config`` cannot hold the cache (:func:`check_slc`).
    """
    from flashlab.ssd.sim import SsdConfig, _native_prog_us, _pipeline_slots_per_us

    check_instance("config", config, SsdConfig)
    if cache is None:
        if config.slc is None:
            raise ValueError("cache must be an SlcCache when config.slc is None; got None")
        cache = config.slc
    check_slc(config, cache)
    g = config.geometry
    bits = config.timing.bits_per_cell
    knee = cache.blocks_per_plane * config.units * (g.pages_per_block // bits) * g.page_size
    slc_slots = config.slots * (g.planes_per_die if config.multi_plane else 1)
    slc = _pipeline_slots_per_us(config, slc_slots, cache.prog_us(config.timing)) * g.page_size
    direct = _pipeline_slots_per_us(config, config.program_slots, _native_prog_us(config)) * g.page_size
    link = math.inf if config.host is None else config.host.link_mb_s
    return SlcPlateaus(knee_bytes=knee, slc_mb_s=min(slc, link), direct_mb_s=min(direct, link))
