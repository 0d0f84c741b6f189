"""Many devices on one clock: builds the named state of :mod:`flashlab.ssd._kernels` for any
number of members (flash drives and hard disks), runs the event loop and reads the results.

:func:`run_members` is the entry point for layers above one drive (arrays): give it the
members, one request list whose ``device`` column says where each request goes, and optionally
GC groups with a limit of devices collecting at once. :func:`flashlab.ssd.simulate_io` is the
same engine with one member. Times in microseconds.
"""

from __future__ import annotations

import math
import mmap
import numbers
import sys
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

import numpy as np
from tqdm.auto import tqdm

from flashlab._compile_notice import compile_notice
from flashlab._heap import new_heap
from flashlab._validate import (check_array, check_bool, check_choice, check_int, check_int_array, check_memory,
                                check_real, check_seed, plain_fields, quote)
from flashlab.ftl import _kernels as FK
from flashlab.ftl.core import Ftl, state_bytes
from flashlab.ssd import _kernels as K
from flashlab.ssd.config import SCHEDULERS, SERIES_NAMES, SsdConfig
from flashlab.ssd.frontend import MAX_CORES
from flashlab.ssd.power import trims_durable_us

_NSER = K.NSER


def _stack_ftls(states) -> K.Ftls:
    """The members' FTL state tuples (None for a member without an FTL) as one
    :class:`flashlab.ssd._kernels.Ftls`: per-device arrays flattened one after another with
    their offsets, counters, parameters and random state one row per member."""
    D = len(states)
    flat = {}
    for i, (name, dtype) in enumerate((("pages", np.int32), ("l2p", np.int32), ("blk", np.int32),
                                       ("blk64", np.int64), ("lists", np.int32))):
        parts = [np.zeros(0, dtype)] + [s[i].ravel() for s in states if s is not None]
        flat[name] = np.concatenate(parts)
        flat[name + "_at"] = np.cumsum([0] + [s[i].size if s is not None else 0 for s in states]).astype(np.int64)
    rows = {}
    for i, (name, n, dtype) in ((5, ("ctr", FK.NCTR, np.int64)), (6, ("prm", FK.NPRM, np.int64)),
                                (7, ("rng", 1, np.uint64))):
        rows[name] = np.zeros((D, n), dtype)
        for d, s in enumerate(states):
            if s is not None:
                rows[name][d] = s[i]
    return K.Ftls(**flat, **rows)


def _packed(record):
    """A record of :mod:`flashlab.ssd._kernels` whose arrays all have one row per item (device,
    GC group) and a fixed shape beyond it, as ``(record of views, structured array)``: the
    structured array has one field per array, and the record's arrays become views of its
    fields, so that Python reads and writes them as before while the kernels receive one array.
    A kernel line reads the same (``dev.qd[d]`` is field ``qd`` of row ``d``). Why: numba passes
    every array of the Engine to each kernel taking it and binds it again at each inlined
    helper, and the compile time grew with their number (a two-line kernel taking the Engine
    compiled in 3.3 s CPU with 161 arrays, 0.5 s with 51). Only the per-device records are
    packed: packing the units', requests' and host I/Os' records as well compiled faster still
    but ran GC and host reads ~30% slower per event (``benchmarks/bench_engine.py``): a scan
    over units strides over whole rows. Fields widest first (aligned, little padding)."""
    arrays = [np.ascontiguousarray(a) for a in record]
    names = record._fields
    by_width = sorted(range(len(names)), key=lambda i: -arrays[i].dtype.itemsize)
    rows = np.empty(arrays[0].shape[0], np.dtype([(names[i], arrays[i].dtype, arrays[i].shape[1:])
                                                  for i in by_width], align=True))
    for name, a in zip(names, arrays):
        rows[name] = a
    return type(record)(*(rows[name] for name in names)), rows


def _arrays(n, fields, dtype, fill=0):
    return {f: np.full(n, fill, dtype) for f in fields}


def _lazy_zeros(n: int, dtype) -> np.ndarray:
    """``n`` zeros the kernel maps in small pages as they are first touched. NumPy asks for huge
    pages on large arrays, so the first operation queued on a unit's ring would zero 2 MiB around
    it, and every ring of a drive of thousands of units is touched: measured on 24 PM9A3 members
    (6,144 units), page zeroing in ``_enqueue`` took 29% of a run's samples (perf, 2026-11-29)."""
    nbytes = max(1, n) * np.dtype(dtype).itemsize
    private = mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)  # not shared across a fork
    return np.frombuffer(private, dtype=dtype, count=n)


#: Most requests (workload plus preconditioning) one run may hold: about 200 bytes each in memory,
#: so 2 GB at the bound (the db and array layers bound their request counts the same way); also
#: the most host I/Os :func:`run_members` takes beyond its requests (host I/Os with no request).
MAX_REQUESTS = 10**7
GC_LOG_ROWS = 1 << 14  # GC jobs logged per run (later ones run but are not logged)
#: What the drive engine's first call compiles, and its cold compile, CPU seconds
#: (``benchmarks/bench_compile.py``), said once while it happens (:mod:`flashlab._compile_notice`).
COMPILING = ("the drive engine", 45.0)


@dataclass(frozen=True, kw_only=True)
class ServiceMember:
    """A member that serves one request at a time (FIFO) in a service time drawn per request:
    ``constant`` (always ``mean_us``) or ``exponential`` (i.i.d., mean ``mean_us``, seeded from
    the run's seed and the member's index). For order-statistics checks and for simple
    components (a controller link, a cache) beside drives and disks.

    Parameters
    ----------
    mean_us : float in (0, 1e9], mean service time of a request, us
    distribution : ``constant`` or ``exponential``
    per_page_us : float in [0, 1e9], added per LBA of the request (a transfer), us
    lbas : int in [1, 2**40], addressable LBAs (requests must lie in them)
    """

    mean_us: float = 100.0
    distribution: str = "exponential"
    per_page_us: float = 0.0
    lbas: int = 1 << 20

    def __post_init__(self):
        plain_fields(self)
        check_real("mean_us", self.mean_us, 0.0, 1e9, lo_open=True)
        check_choice("distribution", self.distribution, ("constant", "exponential"))
        check_real("per_page_us", self.per_page_us, 0.0, 1e9)
        check_int("lbas", self.lbas, 1, 2**40)

    def service_us(self, pages: np.ndarray, seed: int, index: int) -> np.ndarray:
        """Service times of requests of ``pages`` LBAs each, us (member ``index`` of a run
        seeded ``seed``)."""
        pages = check_int_array("pages", pages, 1, 2**31 - 1)
        check_seed("seed", seed)
        index = check_int("index", index, 0, 4095)
        n = pages.size
        if self.distribution == "constant":
            base = np.full(n, float(self.mean_us))
        else:
            base = np.random.default_rng(np.random.SeedSequence([seed, 11, index])).exponential(self.mean_us, n)
        return base + pages * float(self.per_page_us)


class Fanout(NamedTuple):
    """How member requests group into host I/Os (see :class:`flashlab.ssd._kernels.Hosts`):
    per request its ``host``, ``phase``, first alternate ``alt`` and ``alt_n``; per host I/O
    its ``first`` request, ``n_first``, ``n_second``, ``rule`` and ``cache_pages``."""
    host: np.ndarray
    phase: np.ndarray
    alt: np.ndarray
    alt_n: np.ndarray
    first: np.ndarray
    n_first: np.ndarray
    n_second: np.ndarray
    rule: np.ndarray
    cache_pages: np.ndarray

    @staticmethod
    def one_each(n: int) -> "Fanout":
        """Every request its own host I/O (a lone drive)."""
        i64 = np.int64
        return Fanout(host=np.arange(n, dtype=i64), phase=np.zeros(n, i64), alt=np.full(n, -1, i64),
                      alt_n=np.zeros(n, i64), first=np.arange(n, dtype=i64), n_first=np.ones(n, i64),
                      n_second=np.zeros(n, i64), rule=np.zeros(n, i64), cache_pages=np.zeros(n, i64))


def _preconditioned(config, seed: int, index: int, fills: float) -> tuple:
    """The FTL state tuple of flash member ``index`` (a fresh copy the run may change); with
    ``fills`` > 0 brought untimed (GC in the FTL's own synchronous loop) to a used state: one
    sequential fill, then ``fills`` drive fills of uniform random page writes (seeded by the
    run's seed and the member's index). Used states are kept (:func:`_used_state`), so a live
    explorable that reruns the same array pays for them once."""
    if fills <= 0:
        return _fresh_state(config, seed)._s
    return tuple(a.copy() for a in _used_state(config, seed, index, fills))


def _fresh_state(config, seed: int) -> Ftl:
    """A fresh FTL of ``config``; with an SLC cache, its blocks taken out of the pool first."""
    ftl = Ftl(config.ftl_geometry, config.ftl_config, seed)
    if config.slc is not None:
        FK.take_slc_blocks(ftl._s, np.zeros(config.slc.blocks_per_plane, np.int64))
        ftl._check_pool()
    return ftl


@lru_cache(maxsize=256)
def _used_state(config, seed: int, index: int, fills: float) -> tuple:
    ftl = _fresh_state(config, seed)
    user = config.geometry.user_pages
    ftl.write(np.arange(user, dtype=np.int32))
    rng = np.random.default_rng(np.random.SeedSequence([seed, 13, index]))
    ftl.write(rng.integers(0, user, max(1, round(fills * user))).astype(np.int32))
    for a in ftl._s:
        a.flags.writeable = False  # shared by later runs: they copy it
    return ftl._s



def _write_cache(member) -> tuple[int, int, float]:
    """A member's write cache as :class:`~flashlab.ssd._kernels.Cache` holds it: capacity (a
    flash drive's slots, a disk's blocks; 0: no cache), protected (1: power-loss capacitors, or
    a disk controller's battery, which is always there) and the acknowledgement time (us)."""
    from flashlab.device.hdd import HddSpec

    if isinstance(member, SsdConfig) and member.cache_bytes > 0:
        return member.cache_slots, int(member.power_loss_protection), member.cache_latency_us
    if isinstance(member, HddSpec) and member.write_cache_bytes > 0:
        return member.write_cache_blocks, 1, member.write_cache_latency_us
    return 0, 0, 0.0


def _front(members, n: int, device_qd) -> K.Front:
    """The host interfaces and controllers of the flash members that have them, as
    :class:`~flashlab.ssd._kernels.Front` (``on`` 0 for the others). At most the smaller of the
    host interface's ``max_qd`` and the member's queue depth ``device_qd[d]`` commands are inside
    a member; one with a controller and no host interface has a link of no time, one with a host
    interface and no controller a controller of no time. The rings hold at most that many
    commands, and never more than the run's ``n`` requests."""

    D = len(members)
    i64, f64 = np.int64, np.float64
    on = np.array([int(isinstance(m, SsdConfig) and (m.host is not None or m.controller is not None))
                   for m in members], i64)
    qd = np.asarray(device_qd, i64).copy()
    t_command, us_per_byte, t_core, t_ecc = (np.zeros(D, f64) for _ in range(4))
    duplex, n_cores, page_bytes = np.ones(D, i64), np.ones(D, i64), np.zeros(D, f64)
    for d, m in enumerate(members):
        if not on[d]:
            continue
        page_bytes[d] = m.geometry.page_size
        if m.host is not None:
            qd[d] = min(qd[d], m.host.max_qd)
            t_command[d] = m.host.command_overhead_us
            us_per_byte[d] = 1.0 / m.host.link_mb_s
            duplex[d] = int(m.host.duplex)
        if m.controller is not None:
            t_core[d] = m.controller.command_us
            n_cores[d] = m.controller.cores
            t_ecc[d] = m.controller.ecc_decode_us
    r = max(1, min(n, int(qd[on == 1].max()) if on.any() else 1))
    rows = D if on.any() else 1

    def ring():
        return np.zeros((rows, r), i64), np.zeros((rows, r), f64), np.zeros(D, i64), np.zeros(D, i64)

    in_req, in_t, in_head, in_tail = ring()
    out_req, out_t, out_head, out_tail = ring()
    return K.Front(on=on, max_qd=qd, t_command=t_command, us_per_byte=us_per_byte, duplex=duplex, t_core=t_core,
                   n_cores=n_cores, t_ecc=t_ecc, page_bytes=page_bytes, link_in=np.zeros(D, f64),
                   link_out=np.zeros(D, f64), core_free=np.zeros((rows, MAX_CORES if on.any() else 1), f64),
                   admitted=np.zeros(D, i64), in_req=in_req, in_t=in_t, in_head=in_head, in_tail=in_tail,
                   out_req=out_req, out_t=out_t, out_head=out_head, out_tail=out_tail)


def _slc(members, states, ppbs) -> K.Slc:
    """The flash members' SLC caches as :class:`~flashlab.ssd._kernels.Slc` (``on`` 0 for the
    others): each cache's blocks are those its FTL state holds in state ``B_SLC``, all free. A
    fresh pool hands out its blocks in order, so they are consecutive (a fixed record per
    device: its type, and so the compiled engine, is the same whatever the cache's size)."""
    D = len(members)
    i64 = np.int64
    first, n, pages = np.zeros(D, i64), np.zeros(D, i64), np.zeros(D, i64)
    for d, (m, s) in enumerate(zip(members, states)):
        b = np.zeros(0, i64) if s is None else np.flatnonzero(s[2][FK.STATE] == FK.B_SLC)
        if b.size:
            if not np.array_equal(b, b[0] + np.arange(b.size)):
                raise RuntimeError(f"member {d}'s SLC blocks are not consecutive: {b}")
            first[d], n[d], pages[d] = b[0], b.size, ppbs[d] // m.timing.bits_per_cell
    idle = np.array([0.0 if getattr(m, "slc", None) is None else m.slc.idle_fold_us for m in members])
    return K.Slc(on=(n > 0).astype(i64), n_blocks=n, pages=pages, first=first, free_blocks=n.copy(),
                 **_arrays(D, ("head", "used", "wp", "writes", "fold_copies", "fold_programs", "folds"), i64),
                 idle_fold_us=idle, idle_since=np.full(D, -1.0), idle_done=np.zeros(D, i64))


def _maps(members) -> tuple[K.Maps, K.Tpages]:
    """The flash members' map caches as :class:`~flashlab.ssd._kernels.Maps` (``on`` 0 for the
    others: their whole table is in DRAM) and their translation pages, one after another, as
    :class:`~flashlab.ssd._kernels.Tpages` (all absent: a cache starts cold). Map reads and
    programs take the part's fastest page type's times (the map is kept in SLC mode)."""
    D = len(members)
    i64, f64 = np.int64, np.float64
    on, per, cap, n_pages = (np.zeros(D, i64) for _ in range(4))
    t_read, t_prog, t_hit = (np.zeros(D, f64) for _ in range(3))
    for d, m in enumerate(members):
        mc = m.map_cache if isinstance(m, SsdConfig) else None
        if mc is None:
            continue
        g = m.geometry
        on[d], per[d] = 1, mc.entries_per_page(g.page_size)
        n_pages[d] = mc.table_pages(g.user_pages, g.page_size)
        cap[d] = min(mc.cached_pages(g.page_size), n_pages[d])
        t_read[d], t_prog[d], t_hit[d] = min(m.timing.t_read_us), min(m.timing.t_prog_us), mc.hit_us
    tp0 = np.cumsum(np.concatenate([[0], n_pages[:-1]])).astype(i64)
    rows = max(1, int(n_pages.sum()))
    maps = K.Maps(on=on, per_page=per, capacity=cap, tp0=tp0, n_pages=n_pages, count=np.zeros(D, i64),
                  mru=np.full(D, -1, i64), lru=np.full(D, -1, i64), t_read=t_read, t_prog=t_prog, t_hit=t_hit,
                  **_arrays(D, ("loads", "reads", "programs"), i64))
    tpages = K.Tpages(state=np.zeros(rows, i64), prev=np.full(rows, -1, i64), next=np.full(rows, -1, i64))
    return maps, tpages


def _stall_budget(pages, phys) -> int:
    """Events the loop may process with no host I/O done before it reports ERR_STALL: far more
    than any progress needs (every request page's operations, and three whole-drive GC passes,
    each a few events per slot), far less than a hang."""
    return 16 * (int(np.sum(pages, dtype=np.int64)) + int(sum(phys))) + 10**6


def _check_until(until, now: float) -> float:
    """``until`` of :meth:`Engine.step` as a float: a real number (or inf) not before ``now``."""
    if type(until) is float and until >= now:  # the usual case, checked first: a host model steps often
        return until
    rng = f"[{now!r}, inf] (not before the engine's clock)"
    if isinstance(until, (bool, np.bool_)) or not isinstance(until, numbers.Real):
        raise ValueError(f"until must be a time (us) in {rng}; got {quote(until)} ({type(until).__name__})")
    t = float(until)
    if not t >= now:  # NaN too
        raise ValueError(f"until must be a time (us) in {rng}; got {quote(until)}")
    return t


class Engine:
    """The kernel state of one run: ``members`` (SsdConfig or HddSpec objects), request arrays
    (``op``, ``lba``, ``pages``, ``device``), open-loop ``arrivals`` (None: closed loop keeping
    ``host_qd`` requests outstanding), per-device queue depths ``device_qd``, GC groups
    (``gc_group[d]``, -1 for none) with ``gc_limits[g]`` devices collecting at once.

    ``max_pages``: the largest request (LBAs) the run may hold, which sizes the operation
    queues; None: the largest of ``pages``. A host model that fills request slots as it steps
    (see :meth:`step`) gives its own bound; a request beyond it that overflows a queue stops
    the run with "an operation queue overflowed" (:meth:`error`). ``barrier``: see
    :func:`run_members`."""

    def __init__(self, members, op, lba, pages, device, arrivals, host_qd, device_qd, gc_group,
                 gc_limits, samples, seed, fanout=None, gc_sync=None, precondition_fills=0.0,
                 write_cache_pages=0, max_pages=None, barrier=0):
        from flashlab.device.hdd import HddSpec

        D = len(members)
        n = op.size
        fan = Fanout.one_each(n) if fanout is None else fanout
        nh = fan.first.size
        self.members, self.n, self.closed, self.host_qd = members, nh, arrivals is None, host_qd
        self.drain = bool(fan.rule.any() or fan.cache_pages.any())
        self.sample_every = max(1, n // samples)
        rows = n // self.sample_every + 2
        largest = int(pages.max())
        if max_pages is None:
            max_pages = largest
        else:
            max_pages = check_int("max_pages", max_pages, 1, 2**31 - 1)
            if max_pages < largest:
                raise ValueError(f"max_pages must be at least the largest request, {largest} pages (request "
                                 f"{int(np.argmax(pages))}), up to {2**31 - 1}; got {max_pages}")
        # units of NAND work: planes, or dies with multi-plane operations (ppbs: planes' blocks)
        units = [m.array_units if isinstance(m, SsdConfig) else 1 for m in members]
        service = np.zeros(n, np.float64)
        chans = [m.geometry.channels if isinstance(m, SsdConfig) else 0 for m in members]
        ppbs = [m.ftl_geometry.pages_per_block if isinstance(m, SsdConfig) else 1 for m in members]
        phys = [m.geometry.physical_pages if isinstance(m, SsdConfig) else 0 for m in members]
        U, C = sum(units), sum(chans)
        flash = [isinstance(m, SsdConfig) for m in members]
        # slots per NAND program (a word line's with one-shot programming) and per NAND page
        slots = [m.program_slots if f else 1 for m, f in zip(members, flash)]
        page_slots = [m.slots if f else 1 for m, f in zip(members, flash)]
        wl_pages = [m.timing.bits_per_cell if f and m.one_shot else 1 for m, f in zip(members, flash)]
        cached = [f and m.cache_bytes > 0 for m, f in zip(members, flash)]
        # a disk behind a controller write cache: its destages queue on the disk, at most one per
        # request and per cached block
        disk_cached = [isinstance(m, HddSpec) and m.write_cache_bytes > 0 for m in members]
        for d, m in enumerate(members):
            mine = np.asarray(pages)[np.asarray(device) == d]
            if disk_cached[d] and mine.size and int(mine.max()) > m.write_cache_blocks:
                raise ValueError(f"write_cache_bytes of member {d} ({m.write_cache_bytes}) must hold its largest "
                                 f"request ({int(mine.max())} blocks of {m.block_size} bytes)")
        # a unit's host queues hold at most the device's admitted pages, its cached slots and padding,
        # and never more than every request's pages and padding (at most max_pages + slots - 1 slots,
        # or one destage, per request): a short run on a deep queue or a large cache stays small
        # a map cache adds a map read per translation page a request touches (max_pages of them at
        # most) and a map program per page a write evicts (at most one per slot admitted)
        mapped = [f and m.map_cache is not None for m, f in zip(members, flash)]
        host_ops = [min(device_qd[d] * max_pages
                        + (2 * (device_qd[d] * (max_pages + 1) + m.cache_slots) if mapped[d] else 0)
                        + (m.cache_slots + device_qd[d] * slots[d] if cached[d] else 0)
                        + (device_qd[d] * slots[d] if slots[d] > 1 else 0)
                        + (min(m.write_cache_blocks, n) if disk_cached[d] else 0),
                        n * (max_pages + slots[d]))
                    for d, m in enumerate(members)]
        # each unit's rings hold its own device's bound (a deep-queued member sizes only its own)
        caps = [1 << int(math.ceil(math.log2(host_ops[d] + 2 * (ppbs[d] // units[d]) + units[d] + 16)))
                for d in range(D)]
        ring = np.repeat(np.asarray(caps, np.int64), units)  # per unit
        i64, f64 = np.int64, np.float64
        dv = dict(
            kind=np.zeros(D, np.int8), unit0=np.cumsum([0] + units[:-1]).astype(i64), n_units=np.array(units, i64),
            chan0=np.cumsum([0] + chans[:-1]).astype(i64), n_chans=np.array(chans, i64),
            page0=np.cumsum([0] + phys[:-1]).astype(i64), ppbs=np.array(ppbs, i64), slots=np.array(slots, i64),
            page_slots=np.array(page_slots, i64), wl_pages=np.array(wl_pages, i64),
            bits=np.ones(D, i64),
            order=np.zeros((D, K.MAX_BITS), i64), **_arrays(D, ("slack", "steer", "sched", "suspend", "gc",
                                                                 "fg_policy", "gc_critical", "gc_background"), i64),
            group=np.asarray(gc_group, i64), qd=np.asarray(device_qd, i64), t_xfer=np.zeros(D, f64),
            t_read=np.zeros((D, K.MAX_BITS + 1), f64), t_prog=np.zeros((D, K.MAX_BITS + 1), f64),
            t_erase=np.zeros(D, f64), t_resume=np.zeros(D, f64), t_suspend=np.zeros(D, f64), front=np.zeros(D, i64), inflight=np.zeros(D, i64),
            waiting=np.zeros(D, i64), wait_head=np.full((D, 3), -1, i64), wait_tail=np.full((D, 3), -1, i64),
            stalled=np.zeros(D, i64), fg=np.zeros(D, i64), tokens=np.zeros(D, f64), fg_since=np.zeros(D, f64), fg_time=np.zeros(D, f64),
            err=np.zeros(D, i64))
        dk = _arrays(D, K.Disks._fields, f64)
        # the flash members' FTL states, built one by one and then stacked into one set of arrays
        ftl_bytes = 2 * sum(state_bytes(m.ftl_geometry) for m, f in zip(members, flash) if f)
        check_memory("members", ftl_bytes, f"the FTL state of {sum(flash)} flash members (built, then stacked)")
        # with the largest arrays besides: the operation queues (4 arrays of 3 rings a unit), the GC
        # job's copy lists, the page types and cache flags (a realistic superblock has ~10^6 slots)
        check_memory("members", ftl_bytes + 4 * 3 * int(ring.sum()) * 8 + 2 * D * max(ppbs) * 8 + 10 * sum(phys),
                     f"the FTL states with the event engine's queues ({U} units, {int(ring.sum())} operations "
                     f"a class) and GC lists")
        ftl_states = []
        for d, m in enumerate(members):
            if isinstance(m, SsdConfig):
                g, tm = m.geometry, m.timing
                bits = tm.bits_per_cell
                ftl_states.append(_preconditioned(m, seed, d, precondition_fills))
                dv["kind"][d] = K.FLASH
                dv["bits"][d] = bits
                dv["order"][d, :bits] = np.argsort(np.asarray(tm.t_prog_us), kind="stable")
                dv["slack"][d] = max(1, g.pages_per_block // m.slots // bits)  # NAND pages
                dv["steer"][d] = int(m.steering)
                dv["sched"][d] = SCHEDULERS.index(m.scheduler)
                dv["suspend"][d] = int(m.suspend)
                dv["gc"][d] = {"off": K.GC_OFF, "foreground": K.GC_FG, "background": K.GC_BG}[m.gc]
                dv["fg_policy"][d] = K.FG_THROTTLE if m.foreground == "throttle" else K.FG_WAIT
                dv["gc_critical"][d], dv["gc_background"][d] = m.gc_critical, m.gc_background
                dv["t_xfer"][d] = m.transfer_us
                dv["t_read"][d, :bits] = tm.t_read_us
                # one-shot: every program is a whole word line's, in the part's one-shot time
                dv["t_prog"][d, :bits] = tm.t_prog_one_shot_us if m.one_shot else tm.t_prog_us
                if m.slc is not None:  # a program writes wl_pages single pages, one after another
                    dv["t_read"][d, K.SLC_TYPE] = m.slc.read_us(tm)
                    dv["t_prog"][d, K.SLC_TYPE] = wl_pages[d] * m.slc.prog_us(tm)
                dv["t_erase"][d] = tm.t_erase_us
                dv["t_resume"][d] = m.resume_overhead_us
                dv["t_suspend"][d] = m.suspend_latency_us
            elif isinstance(m, HddSpec):
                ftl_states.append(None)
                dv["kind"][d] = K.HDD
                dv["sched"][d] = K.SCHED_FIFO
                dv["gc"][d] = K.GC_OFF
                for f, v in m.kernel_params().items():
                    dk[f][d] = v
            elif isinstance(m, ServiceMember):
                ftl_states.append(None)
                dv["kind"][d] = K.FIXED
                dv["sched"][d] = K.SCHED_FIFO
                dv["gc"][d] = K.GC_OFF
                sel = device == d
                service[sel] = m.service_us(np.asarray(pages)[sel], seed, d)
            else:
                raise ValueError(f"members[{d}] must be an SsdConfig, an HddSpec or a ServiceMember; got {m!r}")
        self.devices = K.Devices(**dv)
        self.units = K.Units(device=np.repeat(np.arange(D, dtype=i64), units),
                             **_arrays(U, ("kind", "ppn", "ref", "stage"), i64), end=np.zeros(U, f64),
                             **_arrays(U, ("suspended", "s_kind", "s_ppn", "s_ref"), i64), s_left=np.zeros(U, f64),
                             programs=np.zeros((U, K.MAX_BITS), i64), register=np.full(U, -1, i64))
        self.channels = K.Channels(**_arrays(C, ("busy", "unit", "head", "tail"), i64),
                                   wait=np.zeros((C, max(units)), i64))
        start = np.concatenate([[0], np.cumsum(np.tile(ring, 3))[:-1]]).reshape(3, U)
        self.queues = K.Queues(*(_lazy_zeros(3 * int(ring.sum()), i64) for _ in range(4)), start=start, cap=ring,
                               head=np.zeros((3, U), i64),
                               tail=np.zeros((3, U), i64), next_seq=np.zeros(1, i64))
        # one pending event per unit, channel, device's acknowledgements, two front rings and SLC idle
        # timer at most (see _kernels)
        H = U + C + 4 * D
        self.heap = new_heap(H, H)
        self.requests = K.Requests(op=np.asarray(op, np.int8), lba=np.asarray(lba, i64), pages=np.asarray(pages, i64),
                                   device=np.asarray(device, i64), host=fan.host, phase=fan.phase, alt=fan.alt,
                                   alt_n=fan.alt_n, service=service, redirected=np.zeros(n, np.int8),
                                   left=np.zeros(n, i64), admitted=np.zeros(n, i64), link=np.full(n, -1, i64), arrival=np.full(n, np.nan),
                                   start=np.full(n, -1.0), done=np.full(n, np.nan), durable=np.full(n, np.nan),
                                   cached=np.zeros(n, np.int8))
        self.hosts = K.Hosts(first=fan.first, n_first=fan.n_first, n_second=fan.n_second, rule=fan.rule.copy(),
                             cache_pages=fan.cache_pages, dirty=np.zeros(nh, i64), stage=np.zeros(nh, i64), left=np.zeros(nh, i64),
                             arrival=np.full(nh, np.nan) if arrivals is None else np.asarray(arrivals, f64),
                             done=np.full(nh, np.nan))
        self.jobs = K.Jobs(victim=np.full(D, -1, i64), fold=np.zeros(D, i64), log_row=np.full(D, -1, i64),
                           **_arrays(D, ("waiting", "copies_left", "valid", "erases_left"), i64),
                           src=np.zeros((D, max(ppbs)), i64), dst=np.zeros((D, max(ppbs)), i64))
        limits = np.asarray(gc_limits, i64) if len(gc_limits) else np.zeros(1, i64)
        sync = np.zeros(limits.size, i64)
        if gc_sync is not None and len(gc_sync):
            sync[:len(gc_sync)] = np.asarray(gc_sync, i64)
        self.groups = K.Groups(limit=limits, sync=sync, active=np.zeros(limits.size, i64),
                               peak=np.zeros(limits.size, i64))
        self.disks = K.Disks(**dk)
        series = np.full((D, rows, _NSER), np.nan)
        self.stats = K.Stats(**_arrays(D, ("host_programs", "gc_programs", "gc_reads", "flash_reads", "senses",
                                          "erases", "suspends", "pad_programs", "cache_read_hits", "busy_victims",
                                          "done", "rows"), i64), series=series,
                                 gc_log=np.full((GC_LOG_ROWS, 3), np.nan), gc_rows=np.zeros(1, i64))
        self.loop = K.Loop(now=np.zeros(1, f64), **_arrays(1, ("events", "next", "to_issue", "done", "dirty"), i64),
                           ready=np.zeros((D + 63) // 64, i64),
                           cache_cap=np.array([write_cache_pages], i64),
                           closed=np.array([int(self.closed)], i64), sample_every=np.array([self.sample_every], i64),
                           err=np.zeros(1, i64), err_device=np.zeros(1, i64),
                           budget=np.array([_stall_budget(pages, phys)], i64), barrier=np.array([barrier], i64))
        # acknowledgements waiting in a cache: at most the device's queue depth (each is inside it)
        caches = [_write_cache(m) for m in members]  # (capacity, protected, t_ack) per member
        ring = max([device_qd[d] for d in range(D) if caches[d][0] > 0], default=1)
        self.cache = K.Cache(on=np.array([int(c[0] > 0) for c in caches], i64),
                             plp=np.array([c[1] for c in caches], i64),
                             capacity=np.array([c[0] for c in caches], i64),
                             dirty=np.zeros(D, i64),
                             t_ack=np.array([c[2] for c in caches], f64),
                             flush=np.full(D, -1, i64), ring=np.zeros((D, ring), i64), ring_t=np.zeros((D, ring), f64),
                             head=np.zeros(D, i64), tail=np.zeros(D, i64))
        self.ptype = np.zeros(max(1, sum(phys)), np.int8)
        if precondition_fills > 0:  # pages written before the run: page type by word line (_choose_type)
            for d, m in enumerate(members):
                if isinstance(m, SsdConfig):
                    w = np.arange(phys[d]) % ppbs[d]
                    g, ps, wl = slots[d], page_slots[d], wl_pages[d]
                    self.ptype[dv["page0"][d]:dv["page0"][d] + phys[d]] = (
                        (w // g // units[d]) * wl + ((w % g) // ps) % wl) % dv["bits"][d]
        self.owner = np.full(max(1, sum(phys)) if max(slots) > 1 else 1, -1, i64)
        # as ptype, indexed page0[d] + ppn, but only by flash drives with a cache (Cache.on)
        self.pending = np.zeros(max(1, sum(phys)) if any(cached) else 1, np.int8)
        self.ftls = _stack_ftls(ftl_states)
        self.front = _front(members, n, device_qd)
        self.devices.front[:] = self.front.on
        self.slc = _slc(members, ftl_states, ppbs)
        self.maps, self.tpages = _maps(members)
        # the per-device records (and the GC groups') reach the kernels as one structured array each
        # (_packed); this object keeps them as records of views of its fields
        (self.devices, devices), (self.groups, groups), (self.disks, disks), (self.slc, slc), (self.maps, maps) = map(
            _packed, (self.devices, self.groups, self.disks, self.slc, self.maps))
        self.state = K.Engine(devices, self.units, self.channels, self.queues, self.heap, self.requests,
                              self.hosts, self.jobs, groups, disks, self.stats, self.loop, self.cache,
                              self.ptype, self.owner, self.pending, self.ftls, self.front, slc, maps, self.tpages)

    def run(self, progress: bool | None) -> None:
        """Run the event loop until every host I/O is done or nothing more can happen; when
        host I/Os may be done before their requests (``any_of``, write-back), on until the
        events run out, so that every request is done too."""
        e, n = self.state, self.n
        if self.closed:
            self.loop.to_issue[0] = min(self.host_qd, n)  # issued by the first run_events
        show = sys.stderr.isatty() if progress is None else bool(progress)
        step = max(1, n // 100) if show else n
        with compile_notice(*COMPILING), tqdm(total=n, disable=not show, unit="req", unit_scale=True) as bar:
            done = 0
            while done < n:
                new = int(K.run_events(e, min(n, done + step), math.inf))
                bar.update(new - done)
                if new == done or self.loop.err[0] != K.ERR_NONE:
                    break  # no more events (stalled) or an error
                done = new
            if (self.drain or self.cache.on.any()) and done == n and self.loop.err[0] == K.ERR_NONE:
                # no host I/O is left to complete: run until the events run out (requests done after
                # their host I/O; with the power on, the drives' caches destage what they still hold)
                K.run_events(e, n + 1, math.inf)

    def step(self, done: int, until: float = math.inf) -> int:
        """Process events until ``done`` host I/Os are done, the next event is at ``until`` (us)
        or later, the events run out (an open loop's host I/O whose arrival is still ``inf`` is
        not an event: a host model above sets its arrival and its requests when it decides them,
        then steps on) or an error is flagged; returns the host I/Os done.

        The clock (``loop.now``) then reads the time of the last event processed: stopped at a
        host I/O's completion, that completion's time; stopped by ``until``, every event before
        ``until`` has happened and none at ``until`` or later (the clock is not moved to
        ``until``). Host I/Os added then with arrivals at ``until`` or later (after the last
        arrival set) run exactly as if they had been known from the start: at equal times the
        engine takes arrivals before the events of its heap, and none at ``until`` has been taken
        yet. So stepping in pieces gives the same run as one step to the end.

        ``until``: a float not before the clock (NaN is an error; ``inf``, the default, means no
        time limit).

        A host model steps once per host I/O it decides, so the call's cost counts: after the
        first step (through numba's dispatcher, which compiles or loads the kernel), steps call
        the compiled entry point of that signature directly, skipping the dispatcher's typing of
        the ~100 state arrays on every call (about 8 us a call instead of 70)."""
        done = int(done)
        until = _check_until(until, float(self.loop.now[0]))
        entry = getattr(self, "_entry", None)
        if entry is None:
            with compile_notice(*COMPILING):
                n = int(K.run_events(self.state, done, until))
            from numba import typeof
            cres = K.run_events.overloads.get((typeof(self.state), typeof(done), typeof(until)))
            self._entry = cres.entry_point if cres is not None else K.run_events
            return n
        return int(entry(self.state, done, until))

    def error(self) -> str:
        """What stopped the run (and on which device), or empty."""
        err = int(self.loop.err[0])
        return f"{ERRORS[err]} (member {int(self.loop.err_device[0])})" if err else ""

    def counters(self, d: int) -> dict:
        """Final totals of device d (see :class:`flashlab.ssd.IoResult`)."""
        st, r = self.stats, self.requests
        ctr = self.ftls.ctr[d]  # zeros for a member without an FTL
        return {
            "host_page_writes": int(ctr[FK.HOST_WRITES]), "host_programs": int(st.host_programs[d]),
            "host_page_reads": int(ctr[FK.HOST_READS]), "flash_reads": int(st.flash_reads[d]),
            "gc_copies": int(ctr[FK.GC_COPIES]), "gc_programs": int(st.gc_programs[d]),
            "gc_reads": int(st.gc_reads[d]), "senses": int(st.senses[d]), "erases": int(st.erases[d]),
            "superblock_erases": int(ctr[FK.ERASE_OPS]), "gc_victims": int(ctr[FK.GC_VICTIMS]),
            "events": int(self.loop.events[0]), "suspensions": int(st.suspends[d]),
            "pad_programs": int(st.pad_programs[d]), "cache_read_hits": int(st.cache_read_hits[d]),
            "free_blocks": int(ctr[FK.FREE_BLOCKS]), "requests_done": int(st.done[d]),
            "gc_victim_waits": int(ctr[FK.VICTIM_WAITS]), "busy_victims": int(st.busy_victims[d]),
            "slc_writes": int(self.slc.writes[d]), "fold_copies": int(self.slc.fold_copies[d]),
            "fold_programs": int(self.slc.fold_programs[d]), "slc_folds": int(self.slc.folds[d]),
            "slc_free_blocks": int(self.slc.free_blocks[d]),
            "map_loads": int(self.maps.loads[d]), "map_reads": int(self.maps.reads[d]),
            "map_programs": int(self.maps.programs[d]),
            "trims": int(np.count_nonzero((r.op == K.OP_TRIM) & (r.device == d) & np.isfinite(r.done))),
            "trim_pages": int(ctr[FK.TRIMS]),
        }

    def gc_log(self) -> dict:
        """Logged GC jobs: ``device``, ``start_us``, ``end_us`` (NaN: still running at the end)."""
        k = int(self.stats.gc_rows[0])
        log = self.stats.gc_log[:k]
        return {"device": log[:, K.GL_DEVICE].astype(np.int64), "start_us": log[:, K.GL_START].copy(),
                "end_us": log[:, K.GL_END].copy()}

    def series(self, d: int, names) -> dict:
        rows = int(self.stats.rows[d])
        return {name: self.stats.series[d, :rows, i].copy() for i, name in enumerate(names)}


@dataclass(frozen=True)
class MembersResult:
    """Outcome of :func:`run_members`. Per member request (the order given): ``arrival_us``
    (issued to its member; NaN if never), ``start_us`` (NaN if never started), ``done_us`` and
    ``latency_us`` (NaN if never done), ``redirected`` (served by its alternates instead).
    Per host I/O: ``host_arrival_us``, ``host_done_us``, ``host_latency_us`` (with one request
    per host I/O, the same as the requests'). Per device: ``counters[d]`` and ``series[d]`` (as
    :class:`flashlab.ssd.IoResult`'s). ``gc_log``: one row per GC job (``device``,
    ``start_us``, ``end_us``; NaN end: still running; at most 16384 jobs logged).
    ``max_collecting[g]``: the most devices of GC group ``g`` that ran a GC job at once.
    ``error``: empty, or what stopped the run (and on which device). ``durable_us``: when each
    request's data reached NAND (a cached write: NaN while in the cache; see
    :meth:`power_loss`; a TRIM's: when its deallocation survives a power loss,
    :func:`flashlab.ssd.power.trims_durable_us`)."""

    arrival_us: np.ndarray
    start_us: np.ndarray
    done_us: np.ndarray
    latency_us: np.ndarray
    redirected: np.ndarray
    host_arrival_us: np.ndarray
    host_done_us: np.ndarray
    host_latency_us: np.ndarray
    counters: list
    series: list
    gc_log: dict
    max_collecting: np.ndarray
    events: int
    error: str
    durable_us: np.ndarray
    requests: tuple      # (op, lba, pages, device) as run
    protected: tuple     # per member: a cache with power-loss protection (or a disk controller's battery)

    def power_loss(self, at_us: float) -> list:
        """Cut every member's power at ``at_us``: a :class:`flashlab.ssd.PowerLoss` per member
        (its ``lost_requests`` index this run's requests)."""
        from flashlab.ssd.power import power_loss

        op, lba, pages, device = self.requests
        return [power_loss(at_us, np.where(device == d, op, K.OP_READ), lba, pages, self.done_us, self.durable_us,
                           prot) for d, prot in enumerate(self.protected)]


def _fanout(n, host, phase, alternates, any_of, hosts, write_back):
    """Validated :class:`Fanout` from run_members' arguments (None: one request per host I/O)."""
    if host is None:
        for name, v in (("phase", phase), ("alternates", alternates), ("any_of", any_of), ("hosts", hosts),
                        ("write_back", write_back)):
            if v is not None:
                raise ValueError(f"{name} needs host (the host I/O of each request); got {name}={quote(v)} "
                                 f"with host=None")
        return Fanout.one_each(n)
    host = check_int_array("host", host, 0, 2**31 - 1)
    if host.shape != (n,) or (np.diff(host) < 0).any():
        raise ValueError(f"host must give each of the {n} requests its host I/O, non-decreasing")
    nh = int(host[-1]) + 1 if hosts is None else check_int("hosts", hosts, int(host[-1]) + 1, max(n, MAX_REQUESTS))
    phase = np.zeros(n, np.int64) if phase is None else check_int_array("phase", phase, -1, 1)
    if phase.shape != (n,):
        raise ValueError(f"phase must have one entry per request ({n}); got {phase.size}")
    # within a host I/O: first phase (0), then second (1), then alternates (-1)
    rank = np.where(phase < 0, 2, phase)
    same = host[1:] == host[:-1]
    if (same & (rank[1:] < rank[:-1])).any():
        raise ValueError("phase: a host I/O's requests must come first phase (0), then second (1), "
                         "then alternates (-1)")
    first = np.searchsorted(host, np.arange(nh)).astype(np.int64)
    n_first = np.bincount(host[phase == 0], minlength=nh).astype(np.int64)
    n_second = np.bincount(host[phase == 1], minlength=nh).astype(np.int64)
    alt, alt_n = np.full(n, -1, np.int64), np.zeros(n, np.int64)
    if alternates is not None:
        if not (isinstance(alternates, tuple) and len(alternates) == 2):
            raise ValueError(f"alternates must be a pair (first, count) of per-request arrays; got {quote(alternates)}")
        alt = check_int_array("alternates first", alternates[0], -1, n - 1)
        alt_n = check_int_array("alternates count", alternates[1], 0, n)
        if alt.shape != (n,) or alt_n.shape != (n,):
            raise ValueError(f"alternates must have one (first, count) per request ({n})")
        has = alt >= 0
        end = alt + alt_n
        if (has & ((alt_n < 1) | (end > n))).any() or (~has & (alt_n != 0)).any():
            raise ValueError("alternates: each (first, count) must name count >= 1 requests inside the list, "
                             "or be (-1, 0)")
        for k in np.flatnonzero(has):  # alternates: requests of the same host I/O, in phase -1
            a, b = alt[k], end[k]
            if (phase[a:b] != -1).any() or (host[a:b] != host[k]).any() or phase[k] == -1:
                raise ValueError(f"alternates of request {k} must be alternates (phase -1) of its own host I/O")
    if (phase == -1).any() and alternates is None:
        raise ValueError("phase -1 (an alternate) needs alternates")
    rule = np.zeros(nh, np.int64)
    if any_of is not None:
        a = np.asarray(any_of)
        if a.shape != (nh,) or a.dtype != bool:
            raise ValueError(f"any_of must be a bool array with one entry per host I/O ({nh}); got {quote(any_of)}")
        rule[a] = 1
    cache = np.zeros(nh, np.int64)
    if write_back is not None:
        cache = check_int_array("write_back", write_back, 0, 2**31 - 1)
        if cache.shape != (nh,):
            raise ValueError(f"write_back must give each of the {nh} host I/Os its pages (0: not cached); "
                             f"got {cache.size} entries")
        if any_of is not None and (cache[np.asarray(any_of)] > 0).any():
            raise ValueError("write_back: a host I/O done at its first request (any_of) needs no write cache")
    return Fanout(host=host, phase=phase, alt=alt, alt_n=alt_n, first=first, n_first=n_first,
                  n_second=n_second, rule=rule, cache_pages=cache)


def run_members(members, op, lba, pages, device, *, arrivals=None, qd: int = 32, device_qd=None,
                gc_group=None, gc_limits=(), gc_sync=None, host=None, phase=None, alternates=None,
                any_of=None, hosts=None, write_back=None, write_cache_pages: int = 0,
                precondition_fills: float = 0.0, seed: int = 0, samples: int = 400,
                progress: bool | None = False, barrier: int = 0) -> MembersResult:
    """Run requests against several members (``SsdConfig`` flash drives, ``HddSpec`` disks,
    ``ServiceMember`` servers) on one clock.

    ``op`` (0 write, 1 read, 2 TRIM, 6 flush, 7 FUA write; a TRIM only to flash members),
    ``lba`` (first LBA), ``pages`` (LBAs, i.e. pages or disk blocks) and ``device`` (member
    index) per request. A member's writes, FUA writes, flushes and TRIMs enter it in arrival
    order (one FIFO); reads may pass them (NVMe orders no outstanding commands: this is one
    order it allows). Each member admits at most ``device_qd[d]``
    (default ``qd``) requests at once; the rest wait in its FIFO. GC coordination:
    ``gc_group[d]`` puts flash member ``d`` in a group (-1: none) and at most
    ``gc_limits[g]`` members of group ``g`` run a GC job at once, foreground GC included (a
    member whose GC must wait keeps writing until its free space runs out); ``gc_sync[g]``
    true synchronises the group (Harmonia): while one member collects, every member with fewer
    than ``2 x gc_background`` free superblocks collects too.

    Host I/Os (default: each request is one): ``host[i]`` (non-decreasing) is the host I/O of
    request ``i``; ``hosts`` the number of host I/Os (default ``host[-1] + 1``, at most the
    larger of the request count and :data:`MAX_REQUESTS`; a host I/O with no request is done
    when issued, e.g. a cache hit). ``phase[i]``: 0 issued with its host
    I/O, 1 when all of its host I/O's phase-0 requests are done (the writes of a
    read-modify-write), -1 an alternate (in this order within a host I/O). ``alternates =
    (first, count)``: a read ``i`` with ``first[i] >= 0`` aimed at a member running a GC job
    when issued is not sent; requests ``first[i] .. first[i] + count[i] - 1`` go instead (a
    degraded read rebuilt from the rest of the stripe). A host I/O is done when all its
    requests are, or when the first of them to finish is (``any_of[h]`` true, e.g. two copies of
    a log; the others and the second phase still run). Write-back cache of ``write_cache_pages`` pages: host I/O ``h`` with
    ``write_back[h] > 0`` pages is done when its first request is (e.g. the copy to a mirror,
    however soon the others finish) if
    the cache has room for them when it is issued, and they stay in the cache until all its
    requests are done; without room it waits for all of them. Closed loop (``arrivals`` None): ``qd``
    host I/Os outstanding; open loop: host I/O ``h`` arrives at ``arrivals[h]`` (us,
    non-decreasing).

    ``precondition_fills`` (in [0, 100]): before the run, each flash member's FTL is filled
    once sequentially, then given this many drive fills of uniform random page writes, untimed
    (its GC running in the FTL's own loop), so the timed run starts from a used drive.

    ``barrier`` (in [0, host I/Os]; 0: none): host I/O ``barrier`` and those after it start only
    when every host I/O before it is done (e.g. a fill that must end before the measured
    requests begin). A closed loop then issues ``qd`` of them at once; an open loop's
    ``arrivals`` from host I/O ``barrier`` on count from that moment (``host_arrival_us``
    reports them on the clock).
    """
    from flashlab.device.hdd import HddSpec

    if isinstance(members, (str, bytes)) or not hasattr(members, "__len__"):
        raise ValueError(f"members must be a list of SsdConfig, HddSpec or ServiceMember; got {quote(members)}")
    members = list(members)
    D = check_int("number of members", len(members), 1, 4096)
    check_seed("seed", seed)
    qd = check_int("qd", qd, 1, 65536)
    check_bool("progress", progress, allow_none=True)
    op = check_int_array("op", op, K.OP_WRITE, K.OP_FUA).astype(np.int8)
    n = check_int("number of requests", op.size, 1, 2**31 - 1)
    if not np.isin(op, HOST_OPS).all():
        raise ValueError(f"op must hold {', '.join(map(str, HOST_OPS))} (write, read, TRIM, flush, FUA write); "
                         f"got {quote(op[~np.isin(op, HOST_OPS)][0])}")
    lba = check_int_array("lba", lba, 0, 2**62)
    pages = check_int_array("pages", pages, 1, 2**31 - 1)
    device = check_int_array("device", device, 0, D - 1)
    for name, a in (("lba", lba), ("pages", pages), ("device", device)):
        if a.shape != op.shape:
            raise ValueError(f"op, lba, pages and device must have one entry per request each; got {n} ops "
                             f"and {a.size} entries of {name}")
    for d, m in enumerate(members):
        cap = (m.geometry.user_pages if isinstance(m, SsdConfig) else m.lbas
               if isinstance(m, (HddSpec, ServiceMember)) else None)
        if cap is None:
            raise ValueError(f"members[{d}] must be an SsdConfig, an HddSpec or a ServiceMember; got {quote(m)}")
        sel = device == d
        if not isinstance(m, SsdConfig) and (sel & (op == K.OP_TRIM)).any():
            i = int(np.flatnonzero(sel & (op == K.OP_TRIM))[0])
            raise ValueError(f"op: a TRIM (op {int(K.OP_TRIM)}) goes to a flash member only; got request {i} "
                             f"for members[{d}], a {type(m).__name__}")
        if sel.any() and (lba[sel] + pages[sel]).max() > cap:
            i = int(np.flatnonzero(sel)[np.argmax(lba[sel] + pages[sel])])
            raise ValueError(f"lba and pages: requests to members[{d}] must lie in its {cap} LBAs "
                             f"(lba + pages <= {cap}); got request {i} with lba={int(lba[i])}, pages={int(pages[i])}")
    fan = _fanout(n, host, phase, alternates, any_of, hosts, write_back)
    cache_cap = check_int("write_cache_pages", write_cache_pages, 0, 2**40)
    nh = fan.first.size
    if arrivals is not None:
        arrivals = check_array("arrivals", arrivals, 0.0, 1e18)
        if arrivals.shape != (nh,) or (np.diff(arrivals) < 0).any():
            raise ValueError(f"arrivals must be non-decreasing times (us), one per host I/O ({nh})")
    if device_qd is None:
        dqd = [qd] * D
    else:
        dqd = [int(q) for q in check_int_array("device_qd", device_qd, 1, 65536)]
        if len(dqd) != D:
            raise ValueError(f"device_qd must have one entry per member ({D}); got {len(dqd)}")
    no_limits = isinstance(gc_limits, (tuple, list)) and len(gc_limits) == 0
    limits = [] if no_limits else [int(k) for k in check_int_array("gc_limits", gc_limits, 1, 4096)]
    groups = [-1] * D if gc_group is None else [int(g) for g in check_int_array("gc_group", gc_group, -1, len(limits) - 1)]
    if len(groups) != D:
        raise ValueError(f"gc_group must give each of the {D} members a group in [-1, {len(limits) - 1}]")
    sync = None
    if gc_sync is not None:
        sync = np.asarray(gc_sync)
        if sync.dtype != bool or sync.shape != (len(limits),):
            raise ValueError(f"gc_sync must be a bool array with one entry per GC group ({len(limits)}); "
                             f"got {quote(gc_sync)}")
    fills = check_real("precondition_fills", precondition_fills, 0.0, 100.0)
    barrier = check_int("barrier", barrier, 0, nh)
    eng = Engine(members, op, lba, pages, device, arrivals, qd, dqd, groups, limits,
                 check_int("samples", samples, 1, 100000), seed, fan, sync, fills, cache_cap, barrier=barrier)
    eng.run(progress)
    err = int(eng.loop.err[0])
    r, hs = eng.requests, eng.hosts
    prot = tuple(bool(isinstance(m, SsdConfig) and m.cache_bytes and m.power_loss_protection)
                 or bool(isinstance(m, HddSpec) and m.write_cache_bytes)  # the controller's battery
                 for m in members)
    return MembersResult(
        arrival_us=r.arrival.copy(), start_us=np.where(r.start >= 0, r.start, np.nan), done_us=r.done.copy(),
        latency_us=r.done - r.arrival, redirected=r.redirected.astype(bool),
        host_arrival_us=hs.arrival.copy(), host_done_us=hs.done.copy(), host_latency_us=hs.done - hs.arrival,
        counters=[eng.counters(d) for d in range(D)], series=[eng.series(d, SERIES_NAMES) for d in range(D)],
        gc_log=eng.gc_log(), max_collecting=eng.groups.peak[:len(limits)].copy(), events=int(eng.loop.events[0]),
        error=f"{ERRORS[err]} (member {int(eng.loop.err_device[0])})" if err else "",
        durable_us=trims_durable_us(op, device, r.arrival, r.done, r.durable, prot),
        requests=(op, lba, pages, device), protected=prot)


HOST_OPS = (K.OP_WRITE, K.OP_READ, K.OP_TRIM, K.OP_FLUSH, K.OP_FUA)
ERRORS = {K.ERR_NONE: "", K.ERR_QUEUE: "an operation queue overflowed",
          K.ERR_NO_SPACE: "no free block left for garbage collection",
          K.ERR_HEAP: "the event heap's bound failed (an engine bug)",
          K.ERR_STALL: ("the loop made no progress: no host I/O completed in a long run of events, or the events "
                       "ran out while requests still waited (a model defect)"),
          K.ERR_POOL: ("a write frontier was to open from the empty free-block pool (the FTL refused it: an engine "
                       "bug, its room checks failed)")}
