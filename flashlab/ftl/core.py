"""The page-mapped FTL: configuration, the device object and its snapshots.

Out-of-place updates with a logical-to-physical map (``l2p``) and its inverse; garbage
collection starts when free blocks drop below ``gc_low`` and runs until ``gc_high`` are free.
Victim policies: greedy (emptiest block, kept in buckets by valid count, amortised constant
time), FIFO (oldest closed block), cost-benefit (Rosenblum & Ousterhout 1992), random and
d-choices (Van Houdt 2013). Wear levelling: dynamic (young blocks for host writes, worn ones for
GC copies) and static (Chang, Hsieh & Kuo 2007: move cold data once the erase-count spread passes
a threshold; it relies on dynamic levelling to put that cold data on worn blocks).
Read-disturb refresh relocates a block after a number of reads. Blocks retire at an endurance
limit; when too few remain to hold every LBA plus the GC reserve the device turns read-only
(writes refused, every LBA still readable), never losing data.

The state lives in NumPy arrays worked on by the numba kernels of :mod:`flashlab.ftl._kernels`:
int32 ``l2p`` (4 bytes per user page) and int32 ``p2l`` + ``stamp`` (8 bytes per physical
page) plus about 48 bytes per block, i.e. under 12.5 bytes per physical page at 256 pages per
block.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import numpy as np

from flashlab._validate import (check_bool, check_choice, check_instance, check_int, check_memory, check_real,
                                check_seed, plain_fields, quote)
from flashlab.device.geometry import Geometry
from flashlab.ftl import _kernels as K
from flashlab.workload import OP_READ, OP_TRIM, OP_WRITE

POLICIES = ("greedy", "fifo", "cost_benefit", "random", "d_choices")
SEPARATIONS = ("none", "gc", "temperature", "oracle", "tagged")
MAX_HANDLES = K.MAX_HANDLES
TIE_BREAKS = ("first", "last", "index")
_READ_ONLY_REASONS = {
    K.RO_NONE: "",
    K.RO_WORN_OUT: "too few good blocks left (retired at the endurance limit) to hold every LBA "
    "plus the garbage-collection reserve",
    K.RO_NO_SPACE: "no free block left for garbage collection",
    K.RO_POOL_EMPTY: "a block was taken from the empty free-block pool (a bug in the FTL's caller)",
}

# Page and block states reported by snapshots.
PAGE_FREE, PAGE_VALID, PAGE_STALE = 0, 1, 2
BLOCK_FREE, BLOCK_OPEN, BLOCK_CLOSED, BLOCK_RETIRED = K.B_FREE, K.B_OPEN, K.B_CLOSED, K.B_RETIRED


class ReadOnlyError(RuntimeError):
    """A write was refused because the device has become read-only (data is still readable)."""


@dataclass(frozen=True, kw_only=True)
class FtlConfig:
    """How the FTL cleans, separates and levels.

    Parameters
    ----------
    policy : one of POLICIES
        Garbage-collection victim choice: ``greedy`` (fewest valid pages), ``fifo`` (oldest
        closed block), ``cost_benefit`` (max (1-u) age / (1+u), Rosenblum & Ousterhout 1992),
        ``random``, ``d_choices`` (emptiest of ``d`` random blocks, Van Houdt 2013).
    d : int in [1, 4096]
        Sample size of ``d_choices``.
    greedy_ties : one of TIE_BREAKS
        Which of the blocks with the fewest valid pages ``greedy`` cleans: the ``first`` to reach
        that count (the longest there), the ``last``, or the lowest block ``index``.
    separation : one of SEPARATIONS
        Write frontiers: ``none`` (GC copies share the host frontier), ``gc`` (host writes and
        GC copies go to separate blocks), ``temperature`` (as ``gc``, and host writes split
        into hot and cold frontiers by the time since the LBA's previous write), ``oracle`` (as
        ``temperature``, but the split knows the workload: LBAs below ``hot_lbas`` are hot, as in
        a ``hotcold`` workload whose hot set is its lowest LBAs, and GC copies go to a hot or a
        cold GC frontier by the same split, so hot and cold pages never share a block: two
        placement handles), ``tagged`` (the host tags its writes with placement handles, as
        NVMe multi-stream and Flexible Data Placement let it: each handle, a range of LBAs given
        by ``handle_starts``, has a host frontier and a GC frontier of its own, so data of two
        handles never share a block; ``oracle`` is ``tagged`` with ``handle_starts=(hot_lbas,)``).
    hot_window : float in (0, 1000], drive writes
        With ``temperature``: a rewrite is hot if the LBA's previous write was less than
        ``hot_window * user_pages`` host writes ago.
    hot_lbas : int >= 0
        With ``oracle`` (required, >= 1): LBAs ``[0, hot_lbas)`` are hot.
    handle_starts : tuple of int, strictly increasing, each in [1, 2**31 - 1]
        With ``tagged`` (required: 1 to ``MAX_HANDLES - 1`` entries; empty otherwise): the first
        LBA of each placement handle after the first. Handle 0 holds LBAs ``[0,
        handle_starts[0])``, handle ``h`` holds ``[handle_starts[h - 1], handle_starts[h])``, the
        last one the LBAs from its start up; every start must be below the device's user pages.
    gc_low, gc_high : int
        Free-block watermarks: GC starts when fewer than ``gc_low`` blocks are free and stops
        at ``gc_high``. ``gc_low >= 1`` (``>= 2`` with a separate GC frontier), ``gc_high >= gc_low``.
    dynamic_wl : bool
        Dynamic wear levelling: host frontiers take the least-worn free block and the GC
        frontier, which receives data that survived (colder), the most-worn one, so worn blocks
        rest under cold data (the dual-pool idea of Chang & Du 2009). Otherwise free blocks are
        reused in FIFO order.
    static_wl_threshold : int >= 0, erases
        Static wear levelling: when max - min erase count exceeds this, relocate the data of
        the least-worn closed block (0: off).
    read_refresh_limit : int >= 0, reads
        Relocate a block after this many page reads since its erase (read disturb; 0: off).
    endurance : int >= 0, program/erase cycles
        A block retires when its erase count reaches this (0: unlimited).
    """

    policy: str = "greedy"
    d: int = 10
    greedy_ties: str = "first"
    separation: str = "gc"
    hot_window: float = 0.5
    hot_lbas: int = 0
    handle_starts: tuple = ()
    gc_low: int = 2
    gc_high: int = 3
    dynamic_wl: bool = False
    static_wl_threshold: int = 0
    read_refresh_limit: int = 0
    endurance: int = 0

    def __post_init__(self):
        plain_fields(self)
        check_choice("policy", self.policy, POLICIES)
        check_int("d", self.d, 1, 4096)
        check_choice("greedy_ties", self.greedy_ties, TIE_BREAKS)
        check_choice("separation", self.separation, SEPARATIONS)
        check_real("hot_window", self.hot_window, 0.0, 1000.0, lo_open=True)
        check_int("hot_lbas", self.hot_lbas, 1 if self.separation == "oracle" else 0, 2**31 - 1)
        _check_handle_starts(self.handle_starts, self.separation == "tagged")
        check_int("gc_low", self.gc_low, 1 if self.separation == "none" else 2, 2**31 - 1)
        check_int("gc_high", self.gc_high, 1, 2**31 - 1)
        if self.gc_high < self.gc_low:
            raise ValueError(f"gc_high must be >= gc_low; got gc_high={self.gc_high}, gc_low={self.gc_low}")
        check_bool("dynamic_wl", self.dynamic_wl)
        check_int("static_wl_threshold", self.static_wl_threshold, 0, 2**31 - 1)
        check_int("read_refresh_limit", self.read_refresh_limit, 0, 2**31 - 1)
        check_int("endurance", self.endurance, 0, 2**31 - 1)

    @property
    def handles(self) -> int:
        """Placement handles: 2 with ``oracle`` (hot, cold), ``len(handle_starts) + 1`` with
        ``tagged``, else 1 (no handles)."""
        return len(self.handle_bounds)

    @property
    def handle_bounds(self) -> tuple:
        """First LBA of each placement handle, ``(0,)`` without handles."""
        if self.separation == "oracle":
            return (0, self.hot_lbas)
        return (0,) + tuple(self.handle_starts)

    @property
    def open_frontiers(self) -> int:
        """Blocks open for writing at a time (one per write stream): 1 with ``none``, 2 with
        ``gc``, 3 with ``temperature`` and a host and a GC frontier per placement handle."""
        if self.handles > 1:
            return 2 * self.handles
        return {"none": 1, "gc": 2, "temperature": 3}[self.separation]


def _check_handle_starts(starts, required: bool) -> None:
    lo = 1 if required else 0
    hi = MAX_HANDLES - 1 if required else 0
    if not isinstance(starts, tuple) or not lo <= len(starts) <= hi:
        raise ValueError(f"handle_starts must be a tuple of {lo} to {hi} LBAs "
                         f"({'with' if required else 'without'} separation='tagged'); got {quote(starts)}")
    for i, start in enumerate(starts):
        check_int(f"handle_starts[{i}]", start, 1 if i == 0 else starts[i - 1] + 1, 2**31 - 1)


def min_op(geometry: Geometry, config: FtlConfig) -> float:
    """Smallest over-provisioning the FTL accepts for this block count and configuration.

    Garbage collection must always find a block with a stale page while fewer than ``gc_high``
    blocks are free, which holds when ``user_pages < (blocks - gc_high - open_frontiers + 1) x
    pages_per_block``.
    """
    check_instance("geometry", geometry, Geometry)
    check_instance("config", config, FtlConfig)
    max_user = _max_user_pages(geometry, config)
    if max_user < 1:
        return float("inf")
    return geometry.physical_pages / max_user - 1.0


def min_blocks_per_plane(geometry: Geometry, config: FtlConfig) -> int:
    """Fewest blocks per plane for which ``geometry`` (its other sizes and its ``op`` kept) holds
    user data under ``config``: the smallest ``blocks_per_plane`` that :func:`check_capacity`
    accepts. The FTL keeps ``gc_high + open_frontiers - 1`` blocks out of the user's reach, so a
    small over-provisioning needs many blocks: about ``(gc_high + open_frontiers - 1) x
    (1 + op) / op`` in all."""
    check_instance("geometry", geometry, Geometry)
    check_instance("config", config, FtlConfig)
    planes = geometry.blocks // geometry.blocks_per_plane

    def holds(bpp: int) -> bool:
        try:
            g = dataclasses.replace(geometry, blocks_per_plane=bpp)
        except ValueError:  # so few pages that the op leaves the user none
            return False
        return _has_room(g, config)

    spare = config.gc_high + config.open_frontiers - 1
    bpp = max(1, math.floor(spare * (1.0 + geometry.op) / geometry.op / planes) - 1)  # just below the bound
    while not holds(bpp):
        bpp += 1
    while bpp > 1 and holds(bpp - 1):
        bpp -= 1
    return bpp


def check_capacity(geometry: Geometry, config: FtlConfig, blocks_name: str = "blocks",
                   watermark: str = "gc_high") -> None:
    """Raise ``ValueError`` unless ``geometry`` has room for its user pages under ``config``:
    first that it has enough blocks at all, then that its ``op`` is at least :func:`min_op`."""
    if _has_room(geometry, config):
        return
    spare = config.gc_high + config.open_frontiers - 1
    if _max_user_pages(geometry, config) < 1:
        raise ValueError(
            f"geometry must have more than {spare} {blocks_name} ({watermark}={config.gc_high} plus "
            f"{config.open_frontiers - 1} more open frontier(s)) to hold any user data at all; "
            f"got {geometry.blocks} {blocks_name} of {geometry.pages_per_block} pages")
    if geometry.user_pages > _max_user_pages(geometry, config):
        raise ValueError(
            f"op must be >= {min_op(geometry, config):.4g} for {geometry.blocks} {blocks_name} of "
            f"{geometry.pages_per_block} pages with {watermark}={config.gc_high} and "
            f"{config.open_frontiers} open frontier(s); got op={geometry.op!r}")


def state_bytes(geometry: Geometry) -> int:
    """Bytes of an FTL's state for ``geometry``: the arrays :class:`Ftl` allocates (pages, l2p,
    blk, blk64; the rest is a few hundred bytes)."""
    return 8 * geometry.physical_pages + 4 * geometry.user_pages + (4 * K.N_BLK + 16) * geometry.blocks


def _has_room(geometry: Geometry, config: FtlConfig) -> bool:
    """What :func:`check_capacity` checks: some user data fits, and all of it."""
    return 1 <= geometry.user_pages <= _max_user_pages(geometry, config)


def _max_user_pages(geometry: Geometry, config: FtlConfig) -> int:
    return (geometry.blocks - config.gc_high - config.open_frontiers + 1) * geometry.pages_per_block - 1


@dataclass(frozen=True)
class Snapshot:
    """The state of every page and block at one moment (copies, safe to keep).

    Page arrays have one entry per physical page, ordered block by block.
    """

    page_state: np.ndarray  # int8: PAGE_FREE, PAGE_VALID, PAGE_STALE
    page_lba: np.ndarray  # int32: LBA held (stale pages: the LBA they used to hold), -1 if free
    page_stamp: np.ndarray  # int32: host write number (mod 2**32) of the data, meaningless if free
    block_state: np.ndarray  # int8: BLOCK_FREE, BLOCK_OPEN, BLOCK_CLOSED, BLOCK_RETIRED
    block_valid: np.ndarray  # int32: valid pages per block
    block_erases: np.ndarray  # int32: erase count per block
    frontiers: np.ndarray  # int32[2 x MAX_HANDLES]: open block of each host stream (0: host, or hot;
                           # 1: host cold; h: handle h), then of each GC stream (handle h), -1 if none
    last_victim: int  # block most recently relocated (GC, wear levelling or refresh), -1 if none
    counters: dict  # host_writes, gc_copies, ... as in Ftl.counters
    read_only: bool


class Ftl:
    """A page-mapped FTL on a device of the given geometry.

    ``write``, ``read`` and ``trim`` take LBAs (logical page numbers in ``[0, user_pages)``).
    Each host write is stamped with its sequence number (``counters['host_writes']`` before the
    write, mod 2**32); ``read`` returns the stamps, so a reader can check it sees its last write.
    """

    def __init__(self, geometry: Geometry, config: FtlConfig = FtlConfig(), seed: int = 0):
        check_instance("geometry", geometry, Geometry)
        check_instance("config", config, FtlConfig)
        check_seed("seed", seed)
        check_capacity(geometry, config)
        if config.separation == "tagged" and config.handle_bounds[-1] >= geometry.user_pages:
            raise ValueError(f"every placement handle must start below the user pages, "
                             f"{geometry.user_pages}; got handle starts {config.handle_bounds[1:]}")
        self.geometry, self.config, self.seed = geometry, config, seed
        nb, ppb, user = geometry.blocks, geometry.pages_per_block, geometry.user_pages
        # its state twice: runs copy it
        check_memory("geometry", 2 * state_bytes(geometry),
                     f"an FTL of {geometry.physical_pages} physical pages (its state and a copy)")
        pages = np.full((2, geometry.physical_pages), K.FREE_PAGE, dtype=np.int32)
        pages[K.STAMP] = 0
        l2p = np.full(user, -1, dtype=np.int32)
        blk = np.zeros((K.N_BLK, nb), dtype=np.int32)
        blk[K.PREV] = blk[K.NEXT] = -1
        blk[K.HEAP] = np.arange(nb, dtype=np.int32)  # keys 0..nb-1 ascending: already a heap
        blk64 = np.zeros((2, nb), dtype=np.int64)
        blk64[K.KEY] = np.arange(nb)
        lists = np.full((2, ppb + 1), -1, dtype=np.int32)
        ctr = np.zeros(K.NCTR, dtype=np.int64)
        ctr[K.FREE_BLOCKS] = ctr[K.POOL_SEQ] = ctr[K.EC_MIN_COUNT] = ctr[K.GOOD] = nb
        ctr[K.FRONT:K.FRONT + K.N_STREAMS] = -1
        ctr[K.LAST_VICTIM] = -1
        prm = np.zeros(K.NPRM, dtype=np.int64)
        prm[K.P_PPB], prm[K.P_USER] = ppb, user
        prm[K.P_POLICY] = POLICIES.index(config.policy)
        prm[K.P_D] = config.d
        prm[K.P_TIES] = TIE_BREAKS.index(config.greedy_ties)
        prm[K.P_LOW], prm[K.P_HIGH] = config.gc_low, config.gc_high
        prm[K.P_SEP] = SEPARATIONS.index(config.separation)
        prm[K.P_HOT_WINDOW] = max(1, round(config.hot_window * user))
        prm[K.P_DYN_WL] = int(config.dynamic_wl)
        prm[K.P_STATIC_WL] = config.static_wl_threshold
        prm[K.P_REFRESH] = config.read_refresh_limit
        prm[K.P_ENDURANCE] = config.endurance
        prm[K.P_N_OPEN] = config.open_frontiers
        prm[K.P_N_HANDLES] = config.handles
        prm[K.P_HANDLE_START:K.P_HANDLE_START + config.handles] = config.handle_bounds
        rng = np.random.SeedSequence([seed, 2]).generate_state(1, np.uint64)
        self._s = (pages, l2p, blk, blk64, lists, ctr, prm, rng)

    # ------------------------------------------------------------ host interface
    def _lbas(self, lbas) -> np.ndarray:
        return _int_codes("lbas", lbas, 0, self.geometry.user_pages - 1).astype(np.int32)

    def run(self, ops, lbas, *, series=None, sample_every=0, write_limit=2**62, out=None) -> int:
        """Apply host operations (``OP_WRITE``/``OP_READ``/``OP_TRIM`` codes) in order.

        Returns how many were applied: fewer than given once ``write_limit`` host writes are
        reached or a write is refused because the device became read-only. ``series`` and
        ``sample_every`` record the counters every ``sample_every`` host writes (see
        :func:`flashlab.ftl._kernels.run_ops`): ``series`` is an int64 array of ``K.NSERIES``
        columns with a row for every sample this call can reach (host writes after the call //
        ``sample_every``); ``out`` (int32, empty or one per op) receives read stamps. The kernel
        writes into both unchecked, so their shapes are checked here.
        """
        ops = _int_codes("ops", ops, OP_WRITE, OP_TRIM).astype(np.int8)
        lbas = self._lbas(lbas)
        if ops.shape != lbas.shape:
            raise ValueError(f"ops and lbas must have the same length; got {ops.shape} and {lbas.shape}")
        sample_every = check_int("sample_every", sample_every, 0, 2**62)
        write_limit = check_int("write_limit", write_limit, 0, 2**62)
        if series is None:
            series = np.zeros((0, K.NSERIES), dtype=np.int64)
        if not (isinstance(series, np.ndarray) and series.dtype == np.int64 and series.ndim == 2
                and series.shape[1] == K.NSERIES and series.flags.c_contiguous and series.flags.writeable):
            raise ValueError(f"series must be a writeable C-contiguous int64 array of shape (rows, {K.NSERIES}); "
                             f"got {_shape_of(series)}")
        if sample_every:
            hw = int(self._s[5][K.HOST_WRITES])
            last = max(hw, min(hw + int(np.count_nonzero(ops == OP_WRITE)), write_limit))
            if series.shape[0] <= last // sample_every:
                raise ValueError(f"series must have at least {last // sample_every + 1} rows to sample every sample_every="
                                 f"{sample_every} host writes up to write {last}; got {series.shape[0]}")
        if out is None:
            out = np.zeros(0, dtype=np.int32)
        if not (isinstance(out, np.ndarray) and out.dtype == np.int32 and out.ndim == 1
                and out.shape[0] in (0, ops.size) and out.flags.writeable):
            raise ValueError(f"out must be a writeable 1-D int32 array of length 0 or {ops.size} (one per op); "
                             f"got {_shape_of(out)}")
        return self._run_ops(ops, lbas, out, series, sample_every, write_limit)

    def _run_ops(self, *args) -> int:
        """:func:`flashlab.ftl._kernels.run_ops` on this state, which must be sound before and
        after (:meth:`_check_pool`)."""
        self._check_pool()
        done = K.run_ops(self._s, *args)
        self._check_pool()
        return done

    def _check_pool(self) -> None:
        """Raise RuntimeError if a kernel was asked for a block from the empty free-block pool
        (:func:`flashlab.ftl._kernels._pool_take` refused it; a bug of the caller, never of the
        host's input): the state is no longer trusted."""
        if self._s[5][K.READ_ONLY] == K.RO_POOL_EMPTY:
            raise RuntimeError("FTL state error: a block was taken from the empty free-block pool (free_blocks = "
                               f"{int(self._s[5][K.FREE_BLOCKS])}); a kernel's caller skipped its check, and the "
                               "state is no longer valid")

    def _same_op(self, op: int, lbas: np.ndarray, out=None) -> int:
        """Apply one op code to LBAs already checked by :meth:`_lbas` (no second validation pass)."""
        if out is None:
            out = np.zeros(0, dtype=np.int32)
        ops = np.full(lbas.size, op, dtype=np.int8)
        return self._run_ops(ops, lbas, out, np.zeros((0, K.NSERIES), dtype=np.int64), 0, 2**62)

    def write(self, lbas) -> None:
        """Write each LBA (one page each) in order; raise ReadOnlyError if a write is refused."""
        lbas = self._lbas(lbas)
        done = self._same_op(OP_WRITE, lbas)
        if done < lbas.size:
            raise ReadOnlyError(
                f"write of LBA {lbas[done]} refused after {self.counters['host_writes']} host writes: "
                f"the device is read-only ({self.read_only_reason}); all written data remains readable"
            )

    def read(self, lbas) -> np.ndarray:
        """Stamps (int32 host write numbers) of the data each LBA maps to; -1 if unmapped."""
        lbas = self._lbas(lbas)
        out = np.full(lbas.size, -1, dtype=np.int32)
        self._same_op(OP_READ, lbas, out)
        return out

    def trim(self, lbas) -> None:
        """Unmap LBAs (their pages become stale); allowed on a read-only device."""
        self._same_op(OP_TRIM, self._lbas(lbas))

    # ------------------------------------------------------------ state
    @property
    def counters(self) -> dict:
        """Totals so far: host_writes, host_reads, trims (pages); gc_copies, wl_copies,
        refresh_copies (page programs); erases, free_blocks, erase_min, erase_max (erase
        count of the least and most worn good block), retired (blocks), gc_victims (blocks)."""
        return dict(zip(SERIES_NAMES, (int(v) for v in self._s[5][:K.NSERIES])))

    @property
    def valid_pages(self) -> int:
        """LBAs mapped now: pages the drive holds as live data (written and not trimmed since)."""
        return int(np.count_nonzero(self._s[1] >= 0))

    @property
    def read_only(self) -> bool:
        return bool(self._s[5][K.READ_ONLY])

    @property
    def read_only_reason(self) -> str:
        """Why writes are refused ('' while the device accepts writes)."""
        return _READ_ONLY_REASONS[int(self._s[5][K.READ_ONLY])]

    @property
    def erase_counts(self) -> np.ndarray:
        """Erase count of every block (a copy)."""
        return self._s[2][K.ERASES].copy()

    @property
    def memory_bytes(self) -> int:
        """Bytes of FTL state (maps, per-block arrays, counters)."""
        return sum(a.nbytes for a in self._s)

    def snapshot(self) -> Snapshot:
        pages, _, blk, _, _, ctr, _, _ = self._s
        ppb = self.geometry.pages_per_block
        p2l = pages[K.P2L]
        written = (np.arange(ppb)[None, :] < blk[K.WP][:, None]).ravel()
        state = np.where(p2l >= 0, PAGE_VALID, np.where(written, PAGE_STALE, PAGE_FREE)).astype(np.int8)
        lba = np.where(p2l >= 0, p2l, np.where(written, -2 - p2l, -1)).astype(np.int32)
        return Snapshot(
            page_state=state,
            page_lba=lba,
            page_stamp=pages[K.STAMP].copy(),
            block_state=blk[K.STATE].astype(np.int8),
            block_valid=blk[K.VALID].copy(),
            block_erases=blk[K.ERASES].copy(),
            frontiers=ctr[K.FRONT:K.FRONT + K.N_STREAMS].astype(np.int32),
            last_victim=int(ctr[K.LAST_VICTIM]),
            counters=self.counters,
            read_only=self.read_only,
        )


def _int_codes(name: str, values, lo: int, hi: int) -> np.ndarray:
    """``values`` as a 1-D integer array with every entry in ``[lo, hi]`` (a scalar is one entry).
    Floats, bools and strings are refused rather than cast (2.5 is no op code)."""
    try:
        arr = None if isinstance(values, (str, bytes)) else np.atleast_1d(np.asarray(values))
    except (TypeError, ValueError, OverflowError):  # ragged nesting and the like
        arr = None
    if arr is None or arr.ndim != 1 or not (arr.size == 0 or np.issubdtype(arr.dtype, np.integer)):
        raise ValueError(f"{name} must be a 1-D array of integers in [{lo}, {hi}]; got {quote(values)}")
    if arr.size and (arr.min() < lo or arr.max() > hi):
        raise ValueError(f"{name} must be in [{lo}, {hi}]; got min {arr.min()}, max {arr.max()}")
    return arr


def _shape_of(value) -> str:
    if isinstance(value, np.ndarray):
        return f"{value.dtype} array of shape {value.shape}"
    return f"{quote(value)} ({type(value).__name__})"


SERIES_NAMES = (
    "host_writes", "host_reads", "trims", "gc_copies", "wl_copies", "refresh_copies", "erases",
    "free_blocks", "erase_min", "erase_max", "retired", "gc_victims",
)
