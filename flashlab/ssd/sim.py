"""Event-driven SSD timing: per-plane operation queues, channels, GC in time, host I/O loops.

The FTL of :mod:`flashlab.ftl` decides which pages are programmed, copied and erased; this
module decides when. Model (MQSim-like, Tavakkol et al. FAST 2018; FEMU, Li et al. FAST 2018):

* **Units.** Every plane is a unit that performs one array operation at a time: read (tR of the
  page's type), program (tPROG of its type) or erase (tBERS). By default multi-plane
  restrictions (same operation, same page offset) are ignored: planes act as independent units
  that share their die's channel. With ``multi_plane`` a die is the unit, and its planes read,
  program and erase together; with ``one_shot`` a program writes a whole word line (one page of
  each type) in the part's one-shot time. Unit ``u`` sits on channel ``u % channels``.
* **Host interface and controller** (``host``, ``controller``; :mod:`flashlab.ssd.frontend`):
  a command crosses the link and a controller core before it reaches the units, and a read's
  data is decoded and crosses the link back; at most ``host.max_qd`` commands are inside.
* **Channels.** A page crosses its channel in ``page_size / channel_mb_s`` microseconds, one
  transfer at a time per channel: data in before a program, data out after a read. The unit is
  held during its transfer (the data sits in its page register).
* **Superblocks.** The FTL block ``b`` is block ``b`` of every unit; its pages stripe over the
  units (channel first), so a frontier writes all units in turn and an erase erases one block on
  every unit. GC copies a page by reading it on its unit and programming it on the GC frontier's
  unit (through the controller, no copyback).
* **Scheduling.** Each unit has three queues: host reads, host writes, GC. ``fifo`` serves host
  reads and writes in arrival order; ``read_priority`` serves reads first. With ``suspend`` a
  host read arriving while the unit programs or erases suspends it: the operation runs on for
  ``suspend_latency_us`` (real parts stop only at set points of their program or erase
  algorithm; the read waits), then stops; it resumes after the queued reads (reads arriving
  meanwhile join the same suspension) with ``resume_overhead_us`` added (Wu & He, FAST 2012).
  Suspension acts on the array operation: a read arriving while a program's data is still
  crossing the channel (or while the program waits for the channel) waits for the transfer,
  then asks to suspend the program as its array phase starts.
* **GC.** ``background``: a GC job (one victim at a time) starts when fewer than
  ``gc_background`` blocks are free; its operations only use a unit when no host operation is
  queued there (idle time). Below ``gc_critical`` free blocks GC turns *foreground*: its
  operations go before host writes and host writes either ``wait`` until a block is freed or are
  ``throttle``d to the space GC reclaims (each copy earns ``(ppb - valid) / valid`` page
  writes). ``foreground`` mode runs GC only below ``gc_critical``; ``off`` never collects.
  A deeper host queue therefore pushes GC into the foreground: with more writes queued than
  units, a unit is rarely without a host operation, background GC starves and free blocks fall
  below ``gc_critical`` (at op 0.2 on 16 units: a third of the time in foreground at queue
  depth 8, nine tenths at 32). That costs no steady-state throughput: once every unit is busy,
  IOPS are the units' raw program bandwidth over WA (plus copy reads and erases), and
  foreground GC only reorders the same copies and erases; queue depth 32 ends at or above 8.
* **Fast-page steering** (Grupp et al. 2009 measured fast and slow MLC pages): host writes take the
  fastest page type and GC copies the slowest, as long as every type on the unit stays within
  one block's worth (``pages_per_block / bits``) of the least-used type: a type that is that far
  ahead is passed over, down to the least-used type itself, which is always allowed (so with
  steering a page's type never follows its position in the block).
* **Host.** A closed loop keeps ``qd`` requests outstanding (issued the moment one completes,
  like fio with ``iodepth``), or an open loop issues requests at Poisson arrival times of mean
  rate ``rate_iops`` (seeded) with at most ``qd`` in the device (the rest wait in the host
  queue; latency counts from arrival). Requests are reads or writes of whole pages.

The engine (:mod:`flashlab.ssd.engine`, kernels in :mod:`flashlab.ssd._kernels`) runs any
number of devices on one clock; this module is its single-drive API.

Times are microseconds, sizes bytes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from flashlab._validate import (check_bool, check_choice, check_instance, check_int, check_real, check_seed,
                                plain_fields, quote)
from flashlab.ssd import _kernels as K
from flashlab.ssd.config import SERIES_NAMES, SsdConfig
from flashlab.ssd.engine import ERRORS, MAX_REQUESTS, Engine
from flashlab.ssd.power import PowerLoss, power_loss, trims_durable_us
from flashlab.device.geometry import Geometry
from flashlab.workload import OP_READ, OP_WRITE, Workload

#: The SNIA PTS preconditioning write: 128 KiB sequential.
PRECONDITION_SIZE = 131072
PERCENTILES = (50.0, 99.0, 99.9, 99.99)


#: Samples that must lie beyond a percentile for it to be printed as a measurement: with fewer,
#: the percentile is one or two samples, and the next run moves it by their whims.
TAIL_SAMPLES = 10


def supported_percentile(n: int, percentile: float, tail: int = TAIL_SAMPLES) -> bool:
    """Whether ``n`` samples support ``percentile`` (in percent): at least ``tail`` of them lie
    beyond it, ``n x (1 - percentile / 100) >= tail``. A p99 needs 1,000 samples, a p99.9
    10,000, a p99.99 100,000 (QoS nines need 1e5 to 1e6 samples)."""
    check_int("n", n, 0, 2**62)
    check_real("percentile", percentile, 0.0, 100.0)
    check_int("tail", tail, 1, 2**62)
    return n * (1.0 - percentile / 100.0) >= tail - 1e-9


def latency_summary(latency_us, percentiles=PERCENTILES) -> dict:
    """Latency percentiles (keys ``p50``, ``p99``, ...; microseconds), ``max`` and ``mean`` of
    ``latency_us``, and ``n``, the number of samples they rest on (say it wherever a percentile
    is printed; :func:`supported_percentile` says which ones it supports); NaN for an empty
    array."""
    lat = np.asarray(latency_us, np.float64)
    if lat.size == 0:
        return {**{f"p{p:g}": math.nan for p in percentiles}, "max": math.nan, "mean": math.nan, "n": 0}
    q = np.percentile(lat, percentiles)
    return {**{f"p{p:g}": float(v) for p, v in zip(percentiles, q)}, "max": float(lat.max()),
            "mean": float(lat.mean()), "n": int(lat.size)}


#: The causes of flash page programs beyond the host's own that a drive's counters keep apart,
#: each a term of :func:`wa_terms`: the counter it divides by the host page writes.
WA_CAUSES = {"gc": "gc_copies", "fold": "fold_copies", "map": "map_programs"}


def wa_terms(counters) -> dict:
    """A drive's write amplification from its ``counters`` (a mapping: an :class:`IoResult`'s
    ``counters``, or ``counters[d]`` of a :class:`~flashlab.ssd.MembersResult`), the one definition
    every reporter of a timed drive's WA uses: flash page programs / host page writes,

        wa = 1 + gc + fold + map,

    each host page write programmed once, and each cause of extra programs its own term,
    divided by ``host_page_writes``: ``gc`` (``gc_copies``, garbage collection's page copies),
    ``fold`` (``fold_copies``, an SLC cache's pages folded to native blocks) and ``map``
    (``map_programs``, dirty translation pages of a map cache programmed back, one slot each).
    Returns ``{"wa", "gc", "fold", "map"}``; NaN for all without a host page write. Padding of
    partly filled NAND pages is not a page program of its own here: see
    :attr:`IoResult.flash_write_factor`."""
    try:
        counts = {k: counters[k] for k in ("host_page_writes", *WA_CAUSES.values())}
    except (TypeError, KeyError, IndexError) as e:
        raise ValueError(f"counters must be a mapping with host_page_writes and {', '.join(WA_CAUSES.values())}; "
                         f"got {quote(counters)}") from e
    for k, v in counts.items():
        check_int(f"counters['{k}']", v, 0, 2**62)
    hw = counts["host_page_writes"]
    terms = {t: counts[k] / hw if hw else math.nan for t, k in WA_CAUSES.items()}
    return {"wa": 1.0 + sum(terms.values()) if hw else math.nan, **terms}


@dataclass(frozen=True, kw_only=True)
class HostLoad:
    """What the host sends.

    Parameters
    ----------
    qd : int in [1, 65536]
        Closed loop: requests kept outstanding. Open loop: most requests inside the device.
    rate_iops : float or None, requests per second
        ``None``: closed loop. Otherwise an open loop with Poisson arrivals at this mean rate.
    workload : Workload
        LBA pattern, read and TRIM fractions. A TRIM (op ``OP_TRIM``, ``write_size`` bytes) is
        a host command like any other (it crosses the host interface and takes a controller
        command slot), unmaps its LBAs in the FTL and completes without touching NAND.
    write_size, read_size : int, bytes
        Request sizes, whole multiples of the page size.
    flush_every : int in [0, 2**31 - 1]
        A flush (op ``OP_FLUSH``) after every ``flush_every``-th write of the workload (0: none;
        1: each write flushed, as a database commit or ``fsync`` per write).
    fua : bool
        The workload's writes are FUA writes (op ``OP_FUA``: forced to NAND before their
        acknowledgement unless the cache has power-loss protection).
    """

    qd: int = 32
    rate_iops: float | None = None
    workload: Workload = Workload()
    write_size: int = 4096
    read_size: int = 4096
    flush_every: int = 0
    fua: bool = False

    def __post_init__(self):
        plain_fields(self)
        check_int("qd", self.qd, 1, 65536)
        if self.rate_iops is not None:  # >= 1e-6: arrival gaps (1e6 / rate us) stay finite
            check_real("rate_iops", self.rate_iops, 1e-6, 1e9)
        check_instance("workload", self.workload, Workload)
        check_int("write_size", self.write_size, 512, 2**30)
        check_int("read_size", self.read_size, 512, 2**30)
        check_int("flush_every", self.flush_every, 0, 2**31 - 1)
        check_bool("fua", self.fua)


@dataclass(frozen=True)
class IoResult:
    """Outcome of :func:`simulate_io`. Times in microseconds.

    Per request (issue order): ``op`` (0 write, 1 read; raw NAND ops 3 read, 4 program, 5 erase),
    ``lba`` (first page), ``pages``, ``phase`` (0 preconditioning, 1 workload), ``arrival_us``,
    ``start_us`` (first array operation began; for writes, when the channel was requested),
    ``done_us`` and ``latency_us = done - arrival`` (NaN if it never completed; a cached write
    is done when the cache acknowledges it), ``durable_us`` (its data reached NAND: NaN while it
    sits in the cache; the same as ``done_us`` for a write through to NAND; see
    :meth:`power_loss`; a TRIM's: when its deallocation survives a power loss). Ops: 0 write,
    1 read, 2 TRIM, 6 flush, 7 FUA write.
    ``series``: samples every ``sample_every`` completed requests of the running totals named in
    ``SERIES_NAMES`` (host pages written/read, GC copies, physical block erases, free superblocks,
    time spent in foreground GC, requests queued or in flight, SLC fold copies, map programs).
    ``counters``: final totals (pages: host_page_writes, host_programs done, host_page_reads
    requested, flash_reads done (unmapped LBAs need none), cache_read_hits (read pages served
    by the write cache: written, not yet programmed), gc_copies, gc_reads/gc_programs done;
    senses: NAND array reads, host and GC (a slot read out of the page register, after a sense
    of its NAND page, needs none); erases: physical block erases done; events processed; suspensions; gc_victim_waits: times a
    due GC job found every full superblock still waiting for programs queued into it, and waited
    for the first to end; busy_victims: victims picked with programs outstanding, always 0, a
    check; trims: TRIM commands done, trim_pages: the LBAs they unmapped; with an SLC cache
    (``config.slc``): slc_writes, host pages written into it;
    fold_copies, valid pages fold jobs copied to native blocks (their copy reads count in
    gc_reads), fold_programs done; slc_folds, cache blocks folded and erased; slc_free_blocks,
    its erased blocks at the end); with a map cache (``config.map_cache``): map_loads,
    translation pages taken into it (misses of reads and writes), map_reads and map_programs
    done (translation pages read from NAND, dirty ones programmed back when evicted). Every
    host page read
    is a flash read, a cache hit or an unmapped LBA. ``wa``: flash programs / host page writes
    over the whole run (:func:`wa_terms`: host writes, GC copies, fold copies and map programs,
    each a translation page of one slot), ``1 + wa_gc + wa_fold + wa_map`` (its terms are
    properties).
    ``stalled``: the run ended with requests that could never complete (GC off and full, or no
    space left for GC).
    """

    config: SsdConfig
    load: HostLoad
    op: np.ndarray
    lba: np.ndarray
    pages: np.ndarray
    phase: np.ndarray
    arrival_us: np.ndarray
    start_us: np.ndarray
    done_us: np.ndarray
    latency_us: np.ndarray
    durable_us: np.ndarray
    series: dict
    sample_every: int
    counters: dict
    wa: float
    stalled: bool
    stall_reason: str
    user_pages: int

    def power_loss(self, at_us: float) -> PowerLoss:
        """Cut the drive's power at ``at_us``: which acknowledged writes are durable, which
        are lost (see :class:`flashlab.ssd.PowerLoss`)."""
        return power_loss(at_us, self.op, self.lba, self.pages, self.done_us, self.durable_us, _protected(self.config))

    @property
    def wa_gc(self) -> float:
        """Garbage collection's page copies per host page write (a term of ``wa``)."""
        return wa_terms(self.counters)["gc"]

    @property
    def wa_fold(self) -> float:
        """SLC-cache fold copies per host page write (a term of ``wa``; 0 without an SLC cache)."""
        return wa_terms(self.counters)["fold"]

    @property
    def wa_map(self) -> float:
        """Translation pages programmed back per host page write (a term of ``wa``; 0 without a
        map cache)."""
        return wa_terms(self.counters)["map"]

    @property
    def flash_write_factor(self) -> float:
        """Slots programmed for the host, padding included, per host slot written: 1 when every
        NAND page is filled with data, ``slots`` when each write pads its page alone."""
        c = self.counters
        return (c["host_programs"] + c["pad_programs"]) / c["host_page_writes"] if c["host_page_writes"] else math.nan

    @property
    def duration_us(self) -> float:
        """From the first arrival to the last completion."""
        ok = np.isfinite(self.done_us)
        return float(self.done_us[ok].max() - self.arrival_us.min()) if ok.any() else math.nan

    def _mask(self, op=None, phase=None):
        """Completed requests, of one ``op`` (0 write, 1 read; raw NAND 3, 4, 5) and ``phase``
        (0 preconditioning, 1 workload) if given."""
        m = np.isfinite(self.latency_us)
        if op is not None:
            m &= self.op == check_choice("op", op, _OP_CODES)
        if phase is not None:
            m &= self.phase == check_choice("phase", phase, (0, 1))
        return m

    def iops(self, op=None, phase=None) -> float:
        """Completed requests per second (of one op / phase if given) between the first arrival
        and the last completion of the selection."""
        m = self._mask(op, phase)
        if not m.any():
            return math.nan
        span = self.done_us[m].max() - self.arrival_us[m].min()
        return float(m.sum() / span * 1e6)

    def bandwidth_mb_s(self, op=None, phase=None) -> float:
        """Bytes per microsecond (MB/s) of completed requests."""
        m = self._mask(op, phase)
        if not m.any():
            return math.nan
        span = self.done_us[m].max() - self.arrival_us[m].min()
        return float(self.pages[m].sum() * self.config.geometry.page_size / span)

    def percentiles(self, op=None, phase=None, mask=None) -> dict:
        """Latency p50, p99, p99.9, p99.99 and max (microseconds) and the mean."""
        if mask is None:
            m = self._mask(op, phase)
        else:
            if not (isinstance(mask, np.ndarray) and mask.dtype == bool and mask.shape == self.latency_us.shape):
                raise ValueError(f"mask must be a bool array of shape {self.latency_us.shape} (one per request); "
                                 f"got {mask.dtype if isinstance(mask, np.ndarray) else type(mask).__name__} "
                                 f"of shape {np.shape(mask) if isinstance(mask, np.ndarray) else '()'}")
            m = self._mask(op, phase) & mask
        return latency_summary(self.latency_us[m])

    def histogram(self, op=None, phase=None, bins_per_decade: int = 10, lo_us: float = 1.0,
                  hi_us: float = 1e7) -> tuple[np.ndarray, np.ndarray]:
        """Log-scale latency histogram: (counts, bin edges in microseconds)."""
        edges = log_edges(lo_us, hi_us, bins_per_decade)
        lo_us, hi_us = edges[0], edges[-1]
        lat = np.clip(self.latency_us[self._mask(op, phase)], lo_us, hi_us)
        return np.histogram(lat, edges)[0], edges

    def intervals(self, n: int = 50, by: str = "time") -> dict:
        """Per-interval figures over ``n`` equal intervals of time (``by='time'``, by completion
        time) or of requests (``by='requests'``, in completion order): start/end (us), IOPS,
        MB/s, latency percentiles (us) of requests completing in it, GC copies and erases in
        it, free superblocks at its end (from the nearest sample), foreground share of its time."""
        n = check_int("n", n, 1, 100000)
        check_choice("by", by, ("time", "requests"))
        ok = np.isfinite(self.done_us)
        done = self.done_us[ok]
        if done.size == 0:  # nothing completed (a stalled run): no interval has a figure
            return {k: np.full(n, np.nan) for k in _INTERVAL_KEYS}
        order = np.argsort(done, kind="stable")
        done_sorted = done[order]
        lat = self.latency_us[ok][order]
        pages = self.pages[ok][order]
        t0 = float(self.arrival_us[ok].min())
        if by == "time":
            edges = np.linspace(t0, float(done_sorted[-1]), n + 1)
            idx = np.searchsorted(done_sorted, edges, side="right")
            idx[0] = 0
        else:
            idx = np.linspace(0, done_sorted.size, n + 1).round().astype(np.int64)
            edges = np.concatenate(([t0], done_sorted[np.maximum(idx[1:] - 1, 0)]))
        out = {k: np.full(n, np.nan) for k in _INTERVAL_KEYS}
        s = self.series
        for i in range(n):
            a, b = idx[i], idx[i + 1]
            out["start_us"][i], out["end_us"][i] = edges[i], edges[i + 1]
            span = edges[i + 1] - edges[i]
            cnt = b - a
            if span > 0:
                out["iops"][i] = cnt / span * 1e6
                out["mb_s"][i] = pages[a:b].sum() * self.config.geometry.page_size / span
            if cnt:
                q = np.percentile(lat[a:b], PERCENTILES)
                for p, v in zip(PERCENTILES, q):
                    out[f"p{p:g}"][i] = v
                out["max_us"][i] = lat[a:b].max()
                out["mean_us"][i] = lat[a:b].mean()
            if s["time_us"].size:
                va = np.interp(edges[i], s["time_us"], np.arange(s["time_us"].size))
                vb = np.interp(edges[i + 1], s["time_us"], np.arange(s["time_us"].size))
                ia, ib = int(round(va)), int(round(vb))
                out["gc_copies"][i] = s["gc_copies"][ib] - s["gc_copies"][ia]
                out["erases"][i] = s["erases"][ib] - s["erases"][ia]
                out["free_blocks"][i] = s["free_blocks"][ib]
                dt = s["time_us"][ib] - s["time_us"][ia]
                out["fg_share"][i] = (s["fg_time_us"][ib] - s["fg_time_us"][ia]) / dt if dt > 0 else np.nan
        return out


_OP_CODES = (OP_WRITE, OP_READ, K.OP_TRIM, K.OP_RAW_READ, K.OP_RAW_PROG, K.OP_RAW_ERASE, K.OP_FLUSH, K.OP_FUA)
_INTERVAL_KEYS = ("start_us", "end_us", "iops", "mb_s", "mean_us", "max_us", *(f"p{p:g}" for p in PERCENTILES),
                  "gc_copies", "erases", "free_blocks", "fg_share")


def page_type_shares(config: SsdConfig) -> np.ndarray:
    """Share of the drive's NAND page programs that go to each page type (lower first).

    The engine types a NAND page by its word line: a block of ``pages_per_block / slots`` NAND
    pages is programmed word line after word line, each word line holding one page of each type
    (lower first), so page ``k`` is of type ``k mod bits_per_cell`` on word line ``k //
    bits_per_cell``. A block of whole word lines (NAND pages a multiple of ``bits_per_cell``, as
    every real part's: e.g. 48 TLC pages are 16 word lines) holds exactly ``1 / bits_per_cell`` of
    each type. A block that is not (the book's 16-page teaching blocks on TLC) ends on a partly
    programmed word line, and its first types take more: 6 lower, 5 middle and 5 upper pages
    (shares 6/16, 5/16, 5/16).
    With fast-page steering the engine keeps every type's program count on a unit within a slack
    of the least-used type's, so in the long run each type takes an equal share.
    """
    check_instance("config", config, SsdConfig)
    bits = config.timing.bits_per_cell
    if config.steering or config.one_shot:  # one-shot: whole word lines (checked)
        return np.full(bits, 1.0 / bits)
    nand_pages = config.geometry.pages_per_block // config.slots
    return np.array([len(range(k, nand_pages, bits)) for k in range(bits)], float) / nand_pages


def pipeline_limit_iops(config: SsdConfig, write_size: int | None = None) -> float:
    """Analytic write limit with no GC, every unit always busy (requests per second).

    Each channel carries ``units_per_channel`` units (planes; dies with ``multi_plane``); a NAND
    program of ``s`` slots (:attr:`SsdConfig.program_slots`: a NAND page's; a word line's with
    ``one_shot``, in its one-shot time; every plane's with ``multi_plane``) costs its unit
    ``s tX + tPROG`` (its slots cross the channel, then one program) and its channel ``s tX``, so
    a channel moves ``s min(units_per_channel / (s tX + tPROG), 1 / (s tX))`` slots per
    microsecond. ``tPROG`` is the mean over the programs a unit performs: each page type's tPROG
    weighted by its share of the pages (:func:`page_type_shares`: the types' shares of a block's
    pages, which are equal for MLC with an even number of pages per block but not for TLC).
    """
    check_instance("config", config, SsdConfig)
    g = config.geometry
    size = g.page_size if write_size is None else check_int("write_size", write_size, 1, 2**40)
    pages_per_us = _pipeline_slots_per_us(config, config.program_slots, _native_prog_us(config))
    return pages_per_us * 1e6 * g.page_size / size


def _native_prog_us(config: SsdConfig) -> float:
    """Mean tPROG of the drive's own programs: the one-shot time, or each page type's tPROG
    weighted by its share of a block's pages (:func:`page_type_shares`), us."""
    if config.one_shot:
        return config.timing.t_prog_one_shot_us
    return float(page_type_shares(config) @ np.asarray(config.timing.t_prog_us))


def _pipeline_slots_per_us(config: SsdConfig, s: int, t_prog: float) -> float:
    """Slots per microsecond the channels and units absorb when every program writes ``s``
    slots in ``t_prog`` us (:func:`pipeline_limit_iops`)."""
    g = config.geometry
    per_channel = config.array_units // g.channels
    sx = s * config.transfer_us
    return g.channels * s * min(per_channel / (sx + t_prog), 1.0 / sx)


def raw_program_bandwidth_mb_s(config: SsdConfig) -> float:
    """Page programs the NAND can absorb (the pipeline limit), in MB/s."""
    check_instance("config", config, SsdConfig)
    return pipeline_limit_iops(config) * config.geometry.page_size / 1e6


# ---------------------------------------------------------------- engine plumbing
def check_request_count(n: int, npre: int, given: str) -> None:
    """Refuse a run of ``n`` workload and ``npre`` preconditioning requests beyond
    :data:`MAX_REQUESTS`, before anything is allocated; ``given`` names the arguments that asked
    for them (e.g. ``"fills=1000 and precondition_fills=0"``)."""
    if n + npre > MAX_REQUESTS:
        raise ValueError(f"requests: {given} ask for {n + npre} requests ({n} of the workload, {npre} "
                         f"preconditioning); at most {MAX_REQUESTS} per run (fewer fills or a smaller drive)")


def precondition_requests(g: Geometry, precondition_fills: float, precondition_size: int) -> int:
    """How many sequential writes of ``precondition_size`` bytes cover ``precondition_fills``
    drive fills (0 without preconditioning); checks the size fits the drive."""
    if precondition_fills <= 0:
        return 0
    kp = _pages("precondition_size", precondition_size, g)
    if kp > g.user_pages:
        raise ValueError(f"precondition_size must be at most the user capacity of {g.user_pages * g.page_size} "
                         f"bytes; got {precondition_size}")
    return max(1, round(precondition_fills * g.user_pages / kp))


def _requests(config: SsdConfig, load: HostLoad, n: int, seed: int, precondition_fills: float,
              precondition_size: int, given: str):
    """Request arrays (op, lba, pages, phase) and open-loop arrival times (``given``: the
    arguments that set the request count, for the message if it is too large)."""
    g = config.geometry
    user = g.user_pages
    kw = _pages("write_size", load.write_size, g)
    kr = _pages("read_size", load.read_size, g) if load.workload.read_fraction > 0 else 1
    if max(kw, kr) > user:
        raise ValueError(f"request sizes must fit the user capacity of {user} pages; got {max(kw, kr)} pages")
    npre = precondition_requests(g, precondition_fills, precondition_size)
    check_request_count(n, npre, given)
    ops_l, lbas_l, pages_l, phase_l = [], [], [], []
    if npre:
        kp = precondition_size // g.page_size
        slots = user // kp
        ops_l.append(np.zeros(npre, np.int8))
        lbas_l.append(((np.arange(npre, dtype=np.int64) % slots) * kp).astype(np.int32))
        pages_l.append(np.full(npre, kp, np.int32))
        phase_l.append(np.zeros(npre, np.int8))
    wl = load.workload
    ops = np.empty(n, np.int8)
    lbas = np.empty(n, np.int64)
    got = 0
    if wl.pattern == "sequential":
        rng = np.random.default_rng(np.random.SeedSequence([seed, 3]))
        u = rng.random(n)
        ops[:] = np.where(u < wl.read_fraction, OP_READ, np.where(u < wl.read_fraction + wl.trim_fraction, K.OP_TRIM,
                                                                  OP_WRITE))
        k = np.where(ops == OP_READ, kr, kw)
        start = np.concatenate(([0], np.cumsum(k)[:-1]))
        lbas[:] = start % (user - user % max(kw, kr))  # max(kw, kr) <= user: checked above
        lbas[:] = np.minimum(lbas, user - k)
    else:
        for o, lb in wl.chunks(user, seed, chunk_size=min(max(n, 1), 1 << 18)):
            take = min(n - got, o.size)
            ops[got:got + take] = o[:take]
            lbas[got:got + take] = lb[:take]
            got += take
            if got >= n:
                break
        k = np.where(ops == OP_READ, kr, kw)
        lbas = np.minimum(lbas - lbas % k, user - k)
    pages = np.where(ops == OP_READ, kr, kw).astype(np.int32)
    if load.flush_every:  # a flush (no LBA, no pages) after every flush_every-th write
        after = np.flatnonzero(ops == OP_WRITE)[load.flush_every - 1::load.flush_every] + 1
        ops, lbas, pages = np.insert(ops, after, K.OP_FLUSH), np.insert(lbas, after, 0), np.insert(pages, after, 0)
    if load.fua:
        ops[ops == OP_WRITE] = K.OP_FUA
    ops_l.append(ops)
    lbas_l.append(lbas.astype(np.int32))
    pages_l.append(pages)
    phase_l.append(np.ones(ops.size, np.int8))
    ops, lbas, pages, phase = (np.concatenate(a) for a in (ops_l, lbas_l, pages_l, phase_l))
    arrivals = None
    if load.rate_iops is not None:
        rng = np.random.default_rng(np.random.SeedSequence([seed, 4]))
        arrivals = np.cumsum(rng.exponential(1e6 / load.rate_iops, ops.size))
    return ops, lbas, pages, phase, arrivals


def _protected(config: SsdConfig) -> bool:
    """The drive's write cache has power-loss protection (capacitors)."""
    return config.cache_bytes > 0 and config.power_loss_protection


def log_edges(lo_us: float, hi_us: float, bins_per_decade: int) -> np.ndarray:
    """Log-spaced latency bin edges (us) from ``lo_us`` to ``hi_us`` (both in [1e-6, 1e15],
    ``hi_us > lo_us``), ``bins_per_decade`` (1 to 1000) bins per factor of ten."""
    bins_per_decade = check_int("bins_per_decade", bins_per_decade, 1, 1000)
    lo_us = check_real("lo_us", lo_us, 1e-6, 1e15)
    hi_us = check_real("hi_us", hi_us, 1e-6, 1e15)
    if hi_us <= lo_us:
        raise ValueError(f"hi_us must be > lo_us; got hi_us={hi_us!r}, lo_us={lo_us!r}")
    return np.logspace(math.log10(lo_us), math.log10(hi_us), int(round(math.log10(hi_us / lo_us) * bins_per_decade)) + 1)


def _pages(name: str, size: int, g: Geometry) -> int:
    check_int(name, size, 1, 2**40)
    if size % g.page_size:
        raise ValueError(f"{name} must be a multiple of the page size {g.page_size} bytes; got {size}")
    return size // g.page_size


def simulate_io(config: SsdConfig = None, load: HostLoad = HostLoad(), *, fills: float | None = None,
                requests: int | None = None, seed: int = 0, precondition_fills: float = 0.0,
                precondition_size: int = PRECONDITION_SIZE, samples: int = 400,
                progress: bool | None = None) -> IoResult:
    """Run host I/O against a fresh (purged) SSD and time every request.

    Parameters
    ----------
    config : SsdConfig (default ``SsdConfig()``: 1 GiB MLC, op 0.07, background GC)
    load : HostLoad (closed loop at ``qd``, or open loop at ``rate_iops``)
    fills : float in (0, 1000], drive writes of the workload's writes (user capacity multiples);
        or ``requests`` : int in [1, 2**31 - 1], a request count. Exactly one of them
        (default: ``requests=10000``). With the preconditioning writes, at most
        :data:`MAX_REQUESTS` requests per run.
    seed : workload, arrivals and FTL seed; the same seed gives the same result bit for bit.
    precondition_fills : float in [0, 100]
        Sequential writes of ``precondition_size`` bytes covering this many drive fills first
        (SNIA PTS workload-independent preconditioning uses 2 fills of 128 KiB), in the same
        loop and timed (``phase == 0``).
    samples : int in [1, 100000], approximate rows of ``series``.
    progress : tqdm progress bar (default: when stderr is a terminal).
    """
    config = SsdConfig() if config is None else config
    if not isinstance(config, SsdConfig):
        raise ValueError(f"config must be an SsdConfig; got {config!r}")
    if not isinstance(load, HostLoad):
        raise ValueError(f"load must be a HostLoad; got {load!r}")
    check_seed("seed", seed)
    check_bool("progress", progress, allow_none=True)
    precondition_fills = check_real("precondition_fills", precondition_fills, 0.0, 100.0)
    samples = check_int("samples", samples, 1, 100000)
    g = config.geometry
    if fills is not None and requests is not None:
        raise ValueError("give fills or requests, not both")
    if fills is not None:
        fills = check_real("fills", fills, 0.0, 1000.0, lo_open=True)
        wf = 1.0 - load.workload.read_fraction - load.workload.trim_fraction
        n = max(1, round(fills * g.user_pages / (_pages("write_size", load.write_size, g) * wf)))
    else:
        n = check_int("requests", 10000 if requests is None else requests, 1, 2**31 - 1)
    precondition_size = check_int("precondition_size", precondition_size, 1, 2**40)
    given = (f"fills={fills:g}" if fills is not None else f"requests={n}") + f" and precondition_fills={precondition_fills:g}"
    ops, lbas, pages, phase, arrivals = _requests(config, load, n, seed, precondition_fills, precondition_size, given)
    return _run(config, load, ops, lbas, pages, phase, arrivals, seed, samples, progress)


def _run(config, load, ops, lbas, pages, phase, arrivals, seed, samples, progress, ptypes=None):
    n = ops.size
    eng = Engine([config], ops, lbas, pages, np.zeros(n, np.int64), arrivals, load.qd, [load.qd], [-1], [],
                 samples, seed)
    if ptypes is not None:
        eng.ptype[lbas] = ptypes
    eng.run(progress)
    return _result(eng, config, load, ops, lbas, pages, phase)


def _result(eng, config, load, ops, lbas, pages, phase) -> IoResult:
    counters = eng.counters(0)
    req = eng.requests
    done = eng.hosts.done.copy()  # one request per host I/O
    arr = eng.hosts.arrival.copy()
    err = int(eng.loop.err[0])
    stalled = counters["requests_done"] < ops.size
    if err:
        reason = ERRORS[err]
    elif not stalled:
        reason = ""
    elif config.gc == "off":
        reason = "the device is full and GC is off"
    else:
        reason = (f"writes wait for room GC cannot make: a request of up to {int(pages.max())} pages needs more "
                  f"than the free space GC keeps")
    return IoResult(
        config=config, load=load, op=ops, lba=lbas, pages=pages, phase=phase, arrival_us=arr,
        start_us=np.where(req.start >= 0, req.start, np.nan), done_us=done,
        latency_us=done - arr, durable_us=trims_durable_us(ops, np.zeros(ops.size, np.int64), eng.requests.arrival,
                                                            done, req.durable, (_protected(config),)),
        series=eng.series(0, SERIES_NAMES),
        sample_every=eng.sample_every,
        counters=counters, wa=wa_terms(counters)["wa"], stalled=stalled,
        stall_reason=reason, user_pages=config.geometry.user_pages,
    )


RAW_KINDS = {"read": K.OP_RAW_READ, "program": K.OP_RAW_PROG, "erase": K.OP_RAW_ERASE}


def _timeline_rows(ops) -> list:
    """``ops`` of :func:`nand_timeline` as a list of 4-item rows (raising naming ``ops`` otherwise)."""
    if isinstance(ops, (str, bytes, np.ndarray)) or not hasattr(ops, "__iter__"):
        raise ValueError(f"ops must be a sequence of (time_us, kind, unit, page_type); got {quote(ops)}")
    rows = list(ops)
    for i, row in enumerate(rows):
        if isinstance(row, (str, bytes)) or not hasattr(row, "__len__") or len(row) != 4:
            raise ValueError(f"ops[{i}] must be (time_us, kind, unit, page_type); got {quote(row)}")
    return rows


def nand_timeline(ops, config: SsdConfig | None = None) -> dict:
    """Time explicit NAND operations on the units of an idle device (no FTL, no GC).

    ``ops``: sequence of ``(time_us, kind, unit, page_type)`` with kind ``read``, ``program``
    or ``erase``. Uses the same queues, channels, scheduler and suspension as
    :func:`simulate_io`. Returns arrays ``arrival_us``, ``start_us`` (the unit began it; for a
    program, when it asked for the channel), ``done_us``, ``latency_us`` and the count of
    ``suspensions``. Example: ``[(0, "erase", 0, 0), (1, "read", 0, 0)]`` shows a read stuck
    behind an erase.
    """
    config = SsdConfig(gc="off") if config is None else config
    if not isinstance(config, SsdConfig):
        raise ValueError(f"config must be an SsdConfig; got {config!r}")
    if config.one_shot or config.multi_plane:
        raise ValueError(f"nand_timeline times single NAND pages on planes: config.one_shot and config.multi_plane "
                         f"must be False; got one_shot={config.one_shot}, multi_plane={config.multi_plane}")
    if config.slots != 1:
        raise ValueError(f"nand_timeline times whole NAND pages: config.nand_page_size must be None or the page size "
                         f"{config.geometry.page_size}; got {config.nand_page_size}")
    rows = _timeline_rows(ops)
    if not rows:
        raise ValueError("ops must hold at least one (time_us, kind, unit, page_type)")
    U, bits, ppb = config.units, config.timing.bits_per_cell, config.geometry.pages_per_block
    times, kinds, ppns, types = [], [], [], []
    for i, row in enumerate(rows):
        if len(row) != 4:
            raise ValueError(f"ops[{i}] must be (time_us, kind, unit, page_type); got {row!r}")
        tm, kind, unit, pt = row
        times.append(check_real(f"ops[{i}].time_us", tm, 0.0, 1e15))
        kinds.append(RAW_KINDS[check_choice(f"ops[{i}].kind", kind, tuple(RAW_KINDS))])
        check_int(f"ops[{i}].unit", unit, 0, U - 1)
        check_int(f"ops[{i}].page_type", pt, 0, bits - 1)
        ppns.append(unit + U * (i % ppb))
        types.append(pt)
    if np.any(np.diff(np.asarray(times)) < 0):
        raise ValueError("ops must be in time order")
    n = len(rows)
    load = HostLoad(qd=65536, rate_iops=1.0)
    res = _run(config, load, np.asarray(kinds, np.int8), np.asarray(ppns, np.int32), np.ones(n, np.int32),
               np.ones(n, np.int8), np.asarray(times, np.float64), 0, 1, False,
               ptypes=np.asarray(types, np.int8))
    return {"arrival_us": res.arrival_us, "start_us": res.start_us, "done_us": res.done_us,
            "latency_us": res.latency_us, "suspensions": res.counters["suspensions"]}
