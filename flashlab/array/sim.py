"""Whole arrays in time: disk arrays, SSD-based all-flash arrays and ground-up arrays on one clock.

:func:`simulate_array` turns host I/Os into member requests with the RAID layout
(:mod:`flashlab.array.layout`) and runs them on every member at once with
:func:`flashlab.ssd.run_members`. A host I/O is done when the last of its member requests is
(a stripe waits for its slowest member); a partial-stripe write of RAID-5/6 reads old data and
parity first and writes when the reads are back. Architectures (``ArrayConfig.arch``):

* ``disk``: hard disks (:data:`flashlab.device.hdd.CHEETAH_15K7` by default);
* ``ssd``: an SSD-based all-flash array: independent drives, each collecting garbage whenever
  its own free space says so;
* ``harmonia``: the same drives with globally synchronised GC (Kim et al., MSST 2011): while
  one collects, every drive short of free space collects too, so stripes meet GC together;
* ``ground-up``: flash modules under one global FTL that schedules GC across the array: at
  most ``gc_limit`` members of the parity group collect at once, and a read aimed at a member
  that is collecting is rebuilt from the rest of its stripe (ttFlash, Yan et al., FAST 2017;
  Violin's vRAID). Writes still go to a collecting member (ttFlash buffers them).

Controllers (the disk-array design, flashdba 2015; any architecture may use them):

* a DRAM **read cache** of ``read_cache_bytes``: least recently used array pages (reads and
  writes bring pages in); a read whose pages are all cached is answered at once;
* a mirrored **write cache** of ``write_cache_bytes``: a write is acknowledged once its copy
  has crossed the interconnect to the partner controller (``mirror_us`` plus the pages at
  ``mirror_mb_s``) while the cache has room for it; the members are written behind it
  (destaged), and the pages leave the cache when they are on the members. A full cache makes
  writes wait for their own destage;
* the **back end**: ``switched`` (each member its own link; never the bottleneck here) or
  ``shared`` (one loop of ``back_end_mb_s``: every host I/O moves its member pages across it,
  one transfer at a time, alongside its member requests).

Left out: host flushes and FUA writes (refused), controller CPU time, a second controller's
reads, cache write coalescing (a rewritten dirty page is destaged twice). A rebuild onto a
spare after a failure is :func:`flashlab.array.simulate_rebuild`'s. Times in microseconds,
sizes in bytes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from flashlab._validate import (check_array, check_choice, check_instance, check_int, check_int_array, check_real,
                                check_seed, plain_fields)
from flashlab.array.layout import Layout
from flashlab.device.hdd import CHEETAH_15K7, HddSpec
from flashlab.ssd import HostLoad, MembersResult, ServiceMember, SsdConfig, run_members, ssd_geometry
from flashlab.ssd.sim import latency_summary
from flashlab.workload import OP_READ, OP_WRITE

ARCHS = ("ssd", "harmonia", "ground-up", "disk")
BACK_ENDS = ("switched", "shared")
PERCENTILES = (50.0, 99.0, 99.9)


def completed(latency_us: np.ndarray, ops: np.ndarray, op=None) -> np.ndarray:
    """Mask of the host I/Os that completed (finite latency), of ``op`` (0 write, 1 read) if
    given: what a result's percentiles rest on."""
    m = np.isfinite(latency_us)
    if op is not None:
        m &= ops == check_choice("op", op, (OP_WRITE, OP_READ))
    return m


def array_drive(op: float = 0.25, capacity_bytes: int = 2**24, timing: str = "mlc_mqsim") -> SsdConfig:
    """A small flash member for arrays (fast to simulate): ``capacity_bytes`` (1 MiB to 1 TiB) of
    user data at over-provisioning ``op`` on 2 channels x 1 die x 2 planes, 8 pages of 4 KiB per block,
    ``timing`` a NAND preset of :mod:`flashlab.device.timing` (``mlc_mqsim``'s erase is five
    programs long, so GC's erases stand out in the read tail), read priority, background GC."""
    capacity_bytes = check_int("capacity_bytes", capacity_bytes, 2**20, 2**40)
    geometry = ssd_geometry(capacity_bytes, op, channels=2, dies_per_channel=1, planes_per_die=2, pages_per_block=8)
    try:
        return SsdConfig(geometry=geometry, timing=timing)
    except ValueError as exc:
        if "op must be" not in str(exc):
            raise
        # the smallest op the FTL accepts depends on how many blocks capacity_bytes gives the drive
        raise ValueError(f"{exc}, set by capacity_bytes={capacity_bytes} (a larger drive needs less op)") from None


@dataclass(frozen=True, kw_only=True)
class ArrayConfig:
    """An array: architecture, members, RAID layout, GC coordination.

    Parameters
    ----------
    arch : ``ssd``, ``harmonia``, ``ground-up`` or ``disk`` (see the module docstring)
    drives : int, members (RAID-5 at least 3, RAID-6 at least 4, RAID-10 even and at least 4,
        RAID-1 exactly 2), at most 256
    raid : 0, 1, 5, 6 or 10
    stripe_unit : int, bytes, a multiple of the member page (default 16 KiB)
    drive : SsdConfig, the flash member (default :func:`array_drive`)
    disk : HddSpec, the disk member of ``arch='disk'`` (default Cheetah 15K.7)
    gc_limit : int in [1, drives], ground-up: members collecting at once (RAID-6 can rebuild a
        read with two members away, but the rebuild here reads around one)
    device_qd : int in [1, 65536], requests each member admits at once
    read_cache_bytes : int in [0, 2**50], DRAM read cache (0: none)
    write_cache_bytes : int in [0, 2**50], mirrored write cache (0: none)
    mirror_us : float in [0, 1e6], fixed cost of copying a write to the partner controller, us
    mirror_mb_s : float in [1e-3, 1e6], interconnect bandwidth, MB/s (bytes per us)
    back_end : ``switched`` or ``shared``
    back_end_mb_s : float in [1e-3, 1e6], the shared back end's bandwidth, MB/s
    failed : tuple of member indices, members that have failed (a degraded array; see
        :meth:`Layout.degrade`): at most one for RAID-1/5, one per pair for RAID-10, two for RAID-6
    """

    arch: str = "ssd"
    drives: int = 10
    raid: int = 6
    stripe_unit: int = 16384
    drive: SsdConfig = field(default_factory=array_drive)
    disk: HddSpec = CHEETAH_15K7
    gc_limit: int = 1
    device_qd: int = 32
    read_cache_bytes: int = 0
    write_cache_bytes: int = 0
    mirror_us: float = 20.0
    mirror_mb_s: float = 1000.0
    back_end: str = "switched"
    back_end_mb_s: float = 400.0
    failed: tuple = ()

    def __post_init__(self):
        plain_fields(self)
        check_choice("arch", self.arch, ARCHS)
        check_int("drives", self.drives, 1, 256)
        check_instance("drive", self.drive, SsdConfig)
        check_instance("disk", self.disk, HddSpec)
        check_int("gc_limit", self.gc_limit, 1, self.drives)
        check_int("device_qd", self.device_qd, 1, 65536)
        check_int("read_cache_bytes", self.read_cache_bytes, 0, 2**50)
        check_int("write_cache_bytes", self.write_cache_bytes, 0, 2**50)
        check_real("mirror_us", self.mirror_us, 0.0, 1e6)
        check_real("mirror_mb_s", self.mirror_mb_s, 1e-3, 1e6)
        check_choice("back_end", self.back_end, BACK_ENDS)
        check_real("back_end_mb_s", self.back_end_mb_s, 1e-3, 1e6)
        page = self.layout.page_size  # validates raid, drives and stripe_unit
        for name in ("mirror_mb_s", "back_end_mb_s"):
            if page / getattr(self, name) > 1e9:  # a member page's transfer time, us
                raise ValueError(f"{name} must move a member page of {page} bytes in at most 1e9 us (at least "
                                 f"{page / 1e9:g} MB/s); got {getattr(self, name)!r}")
        object.__setattr__(self, "failed", self.layout.tolerates(self.failed))

    @property
    def member(self):
        return self.disk if self.arch == "disk" else self.drive

    @property
    def layout(self) -> Layout:
        m = self.member
        if isinstance(m, HddSpec):
            page, pages = m.block_size, m.lbas
        else:
            page, pages = m.geometry.page_size, m.geometry.user_pages
        return Layout(raid=self.raid, drives=self.drives, stripe_unit=self.stripe_unit, page_size=page,
                      member_pages=pages)


@dataclass(frozen=True)
class ArrayResult:
    """Outcome of :func:`simulate_array`. Times in microseconds.

    Per host I/O (issue order): ``op`` (0 write, 1 read), ``lba`` (first array page),
    ``pages``, ``arrival_us``, ``done_us``, ``latency_us`` (NaN if never done), ``held_by``
    (the member whose request finished last: the one the stripe waited for; -1 if none),
    ``rebuilt`` (a read served by reconstruction from the rest of its stripe).
    ``members``: the member-level :class:`flashlab.ssd.MembersResult` (every member request,
    counters, series and the GC log); ``plan``: the member requests (``op``, ``device``,
    ``lba``, ``pages``, ``host``, ``phase``, ``alternates``; see :meth:`Layout.plan`). ``gc_log``: one row per GC job (``device``,
    ``start_us``, ``end_us``). ``raw_bytes``, ``usable_bytes``: the layout's capacity.
    """

    config: ArrayConfig
    load: HostLoad
    op: np.ndarray
    lba: np.ndarray
    pages: np.ndarray
    arrival_us: np.ndarray
    done_us: np.ndarray
    latency_us: np.ndarray
    held_by: np.ndarray
    rebuilt: np.ndarray
    members: MembersResult
    plan: dict
    gc_log: dict
    raw_bytes: int
    usable_bytes: int
    error: str

    def _mask(self, op):
        return completed(self.latency_us, self.op, op)

    @property
    def duration_us(self) -> float:
        ok = np.isfinite(self.done_us)
        return float(self.done_us[ok].max() - self.arrival_us[ok].min()) if ok.any() else math.nan

    def iops(self, op=None) -> float:
        """Host I/Os (of ``op`` 0 write / 1 read if given) completed per second over the run."""
        m = self._mask(op)
        span = self.duration_us
        return float(m.sum() / span * 1e6) if m.any() and span > 0 else math.nan

    def percentiles(self, op=None) -> dict:
        """Host latency p50, p99, p99.9, max and mean (us) of completed host I/Os."""
        return latency_summary(self.latency_us[self._mask(op)], PERCENTILES)

    def member_percentiles(self, op=None) -> list:
        """Per member: latency percentiles of its requests (as :meth:`percentiles`)."""
        mr = self.members
        ok = np.isfinite(mr.latency_us)
        if op is not None:
            ok &= self.plan["op"] == check_choice("op", op, (OP_WRITE, OP_READ))
        return [latency_summary(mr.latency_us[ok & (self.plan["device"] == d)], PERCENTILES) for d in range(self.config.drives)]

    def intervals(self, n: int = 50, op=None) -> dict:
        """Over ``n`` equal intervals of the run (by completion time): ``start_us``, ``end_us``,
        ``iops`` and latency ``p50``/``p99``/``max_us`` of host I/Os completing in each."""
        n = check_int("n", n, 1, 100000)
        m = self._mask(op)
        done, lat = self.done_us[m], self.latency_us[m]
        t0 = float(np.nanmin(self.arrival_us)) if np.isfinite(self.arrival_us).any() else 0.0
        t1 = float(done.max()) if done.size else t0
        edges = np.linspace(t0, t1, n + 1)
        which = np.clip(np.searchsorted(edges, done, side="right") - 1, 0, n - 1)
        out = {"start_us": edges[:-1], "end_us": edges[1:], "iops": np.full(n, np.nan), "p50": np.full(n, np.nan),
               "p99": np.full(n, np.nan), "max_us": np.full(n, np.nan)}
        span = (t1 - t0) / n
        for i in range(n):
            sel = lat[which == i]
            if span > 0:
                out["iops"][i] = sel.size / span * 1e6
            if sel.size:
                out["p50"][i], out["p99"][i] = np.percentile(sel, (50, 99))
                out["max_us"][i] = sel.max()
        return out

    def member_intervals(self, n: int = 50, op=None) -> dict:
        """Per member over the same ``n`` intervals as :meth:`intervals` (the host run's span, by
        completion time): ``start_us``, ``end_us`` (n,), and (drives, n) arrays ``iops``,
        ``p50``, ``p99``, ``max_us`` of the member requests (of ``op`` if given) that completed on
        each member in each interval (NaN where none did)."""
        n = check_int("n", n, 1, 100000)
        mr, D = self.members, self.config.drives
        ok = np.isfinite(mr.latency_us) & (self.plan["device"] < D)
        if op is not None:
            ok &= self.plan["op"] == check_choice("op", op, (OP_WRITE, OP_READ))
        t0 = float(np.nanmin(self.arrival_us)) if np.isfinite(self.arrival_us).any() else 0.0
        done_ok = np.isfinite(self.done_us)
        t1 = float(self.done_us[done_ok].max()) if done_ok.any() else t0
        edges = np.linspace(t0, t1, n + 1)
        done, lat, dev = mr.done_us[ok], mr.latency_us[ok], self.plan["device"][ok]
        which = np.clip(np.searchsorted(edges, done, side="right") - 1, 0, n - 1)
        out = {"start_us": edges[:-1], "end_us": edges[1:]}
        for k in ("iops", "p50", "p99", "max_us"):
            out[k] = np.full((D, n), np.nan)
        span = (t1 - t0) / n
        if span > 0:
            out["iops"][:] = np.bincount(dev * n + which, minlength=D * n).reshape(D, n) / span * 1e6
        order = np.lexsort((which, dev))
        key = (dev * n + which)[order]
        cuts = np.flatnonzero(np.diff(key)) + 1
        for group in np.split(order, cuts) if order.size else ():
            d, i = dev[group[0]], which[group[0]]
            out["p50"][d, i], out["p99"][d, i] = np.percentile(lat[group], (50, 99))
            out["max_us"][d, i] = lat[group].max()
        return out

    def gc_busy(self, n: int = 50) -> np.ndarray:
        """(drives, n): share of each of ``n`` equal intervals of the run that each member
        spent running a GC job (the GC timeline)."""
        n = check_int("n", n, 1, 100000)
        t0, t1 = self._run_span()
        edges = np.linspace(t0, t1, n + 1)
        busy = np.zeros((self.config.drives, n))
        log = self.gc_log
        for d, a, b in zip(log["device"], log["start_us"], np.where(np.isnan(log["end_us"]), t1, log["end_us"])):
            over = np.clip(np.minimum(edges[1:], b) - np.maximum(edges[:-1], a), 0.0, None)
            busy[d] += over
        width = np.diff(edges)
        return np.divide(busy, width, out=np.zeros_like(busy), where=width > 0)

    def stripe_waits(self, op=None) -> np.ndarray:
        """Per member: how many host I/Os (of ``op`` if given) waited last for it."""
        m = self._mask(op) & (self.held_by >= 0)
        return np.bincount(self.held_by[m], minlength=self.config.drives)

    def gc_share(self) -> np.ndarray:
        """Per member: share of the run it spent running GC jobs."""
        return self.gc_busy(1)[:, 0]

    def gc_overlap(self) -> dict:
        """How the members' GC jobs line up in the run: ``any``, the share of the run during which
        at least one member collects (a stripe-wide I/O then waits for a collection), and
        ``when_any``, the mean number of members collecting while any does (1: never two at once;
        ``drives``: always all together). ``any * when_any`` is the sum of :meth:`gc_share`.
        Synchronised collection (Harmonia, kim2011harmonia) works by shrinking ``any``."""
        t0, t1 = self._run_span()
        log = self.gc_log
        a = np.clip(np.asarray(log["start_us"], float), t0, t1)
        b = np.clip(np.where(np.isnan(log["end_us"]), t1, log["end_us"]), t0, t1)
        keep = b > a
        times = np.concatenate([a[keep], b[keep]])
        steps = np.concatenate([np.ones(keep.sum()), -np.ones(keep.sum())])
        order = np.argsort(times, kind="stable")
        times, collecting = times[order], np.cumsum(steps[order])  # members collecting after each edge
        dt = np.diff(times)
        busy = float(dt[collecting[:-1] > 0].sum()) if dt.size else 0.0
        member_time = float((dt * collecting[:-1]).sum()) if dt.size else 0.0
        span = t1 - t0
        return {"any": busy / span if span > 0 else 0.0, "when_any": member_time / busy if busy > 0 else 0.0}

    def _run_span(self) -> tuple:
        """(first arrival, last completion) of the run, us."""
        t0 = float(np.nanmin(self.arrival_us)) if np.isfinite(self.arrival_us).any() else 0.0
        ok = np.isfinite(self.done_us)
        return t0, (float(self.done_us[ok].max()) if ok.any() else t0)




def host_requests(layout: Layout, load: HostLoad, n: int, seed: int, bursts=None):
    """Host I/Os of ``load`` on the array: ``(ops, lbas, pages, arrivals)``; a request of
    ``k`` pages starts at a multiple of ``k`` (aligned). Open loop: Poisson arrivals at
    ``load.rate_iops``; ``bursts = (on_us, off_us)`` issues them only during the on periods
    (an on/off source: the same rate while on, silence while off)."""
    user = layout.array_pages
    kw = _pages("write_size", load.write_size, layout.page_size)
    kr = _pages("read_size", load.read_size, layout.page_size)
    if max(kw, kr) > user:
        raise ValueError(f"request sizes must fit the array's {user} pages; got {max(kw, kr)} pages")
    ops, lbas = next(load.workload.chunks(user, seed, chunk_size=n))
    ops = np.where(ops == OP_READ, OP_READ, OP_WRITE).astype(np.int64)
    k = np.where(ops == OP_READ, kr, kw).astype(np.int64)
    lbas = lbas.astype(np.int64)
    lbas = np.minimum(lbas - lbas % k, user - user % k - k)
    arrivals = None
    if load.rate_iops is not None:
        rng = np.random.default_rng(np.random.SeedSequence([seed, 4]))
        busy = np.cumsum(rng.exponential(1e6 / load.rate_iops, n))
        if bursts is not None:
            on, off = bursts
            arrivals = busy + np.floor(busy / on) * off  # on-time clock to wall clock
        else:
            arrivals = busy
    return ops, lbas, k, arrivals


def _pages(name: str, size: int, page: int) -> int:
    check_int(name, size, 1, 2**40)
    if size % page:
        raise ValueError(f"{name} must be a multiple of the page size {page} bytes; got {size}")
    return size // page


def simulate_array(config: ArrayConfig | None = None, load: HostLoad = HostLoad(), *, requests: int = 4000,
                   bursts=None, precondition_fills: float = 1.0, seed: int = 0,
                   progress: bool | None = False, host_ios=None) -> ArrayResult:
    """Run host I/O against an array and time every host I/O and member request.

    Parameters
    ----------
    config : ArrayConfig (default ``ArrayConfig()``: 10 small SSDs, RAID-6, independent GC)
    load : HostLoad, closed loop at ``qd`` host I/Os, or open loop at ``rate_iops``; its
        workload spreads over the array's pages; sizes are multiples of the page
    requests : int in [1, 10**7], host I/Os
    bursts : None or ``(on_us, off_us)``, each in [1, 1e9]: an open loop issues only during on
        periods (bursty writes push drives into GC; the off periods let them catch up)
    precondition_fills : float in [0, 100], flash members: a sequential fill and this many
        random drive fills before the run, untimed (see :func:`flashlab.ssd.run_members`)
    seed : workload, arrivals and FTL seed; the same seed gives the same result
    host_ios : None or ``(ops, lbas, pages, arrivals)``: host I/Os given instead of drawn from
        ``load`` (``requests`` and ``bursts`` are then unused; ``load.qd`` still applies; arrivals
        None for a closed loop), e.g. several hosts merged by :func:`flashlab.array.simulate_hosts`
    """
    config = ArrayConfig() if config is None else config
    check_instance("config", config, ArrayConfig)
    check_instance("load", load, HostLoad)
    check_seed("seed", seed)
    n = check_int("requests", requests, 1, 10**7)
    precondition_fills = check_real("precondition_fills", precondition_fills, 0.0, 100.0)
    if bursts is not None:
        if not (isinstance(bursts, tuple) and len(bursts) == 2):
            raise ValueError(f"bursts must be None or (on_us, off_us); got {bursts!r}")
        bursts = (check_real("bursts on_us", bursts[0], 1.0, 1e9), check_real("bursts off_us", bursts[1], 0.0, 1e9))
        if load.rate_iops is None:
            raise ValueError("bursts needs an open loop (load.rate_iops); got rate_iops=None")
    if load.workload.trim_fraction:
        raise ValueError(f"load.workload.trim_fraction must be 0 for arrays; got {load.workload.trim_fraction}")
    # the array layer has no host flush or FUA path (the controller's mirrored cache is its
    # durability): refused rather than run as plain writes
    if load.fua:
        raise ValueError("load.fua must be False for arrays (the array layer models no FUA writes); got True")
    if load.flush_every:
        raise ValueError(f"load.flush_every must be 0 for arrays (the array layer models no host flushes); "
                         f"got {load.flush_every}")
    layout = config.layout
    if host_ios is None:
        ops, lbas, pages, arrivals = host_requests(layout, load, n, seed, bursts)
    else:
        if not (isinstance(host_ios, tuple) and len(host_ios) == 4):
            raise ValueError(f"host_ios must be None or (ops, lbas, pages, arrivals); got {type(host_ios).__name__}")
        ops, lbas, pages = (check_int_array(f"host_ios {k}", v, 0, 2**40)
                            for k, v in zip(("ops", "lbas", "pages"), host_ios))
        n = ops.size
        if not lbas.size == pages.size == n:
            raise ValueError(f"host_ios ops, lbas and pages must have one entry per host I/O; got sizes "
                             f"{n}, {lbas.size}, {pages.size}")
        arrivals = host_ios[3]
        if arrivals is not None:
            arrivals = check_array("host_ios arrivals", arrivals, 0.0, 1e15)
            if arrivals.size != n or (np.diff(arrivals) < 0).any():
                raise ValueError(f"host_ios arrivals must be {n} non-decreasing times in us; got {arrivals.size} "
                                 f"entries{'' if arrivals.size != n else ', decreasing somewhere'}")
    ground_up = config.arch == "ground-up"
    plan = layout.plan(ops, lbas, pages, rebuild=ground_up or bool(config.failed))
    if config.failed:
        plan = layout.degrade(plan, config.failed, keep_alternates=ground_up)
    D = config.drives
    page = layout.page_size
    members = [config.member] * D
    if config.read_cache_bytes:
        hits = _lru_hits(ops, lbas, pages, config.read_cache_bytes // page)
        plan = _drop_hosts(plan, hits)
    write_back = None
    if config.write_cache_bytes:  # the mirror copy goes first in each write's group
        writes = ops == OP_WRITE
        plan = _add_requests(plan, writes, len(members), pages)
        members.append(ServiceMember(mean_us=config.mirror_us or 1e-9, distribution="constant",
                                     per_page_us=page / config.mirror_mb_s, lbas=layout.array_pages))
        write_back = np.where(writes, pages, 0)
    if config.back_end == "shared":
        moved = np.bincount(plan["host"][plan["phase"] >= 0], plan["pages"][plan["phase"] >= 0], minlength=n)
        plan = _add_requests(plan, moved > 0, len(members), moved.astype(np.int64))
        members.append(ServiceMember(mean_us=1e-9, distribution="constant", per_page_us=page / config.back_end_mb_s,
                                     lbas=2**40))
    gc_group, gc_limits, gc_sync = None, (), None
    if config.arch in ("ground-up", "harmonia"):
        gc_group = [0] * D
        gc_limits = [config.gc_limit if ground_up else D]
        gc_sync = np.array([config.arch == "harmonia"])
    flash = config.arch != "disk"
    extra = len(members) - D
    if gc_group is not None:
        gc_group = gc_group + [-1] * extra
    mr = run_members(members, plan["op"], plan["lba"], plan["pages"], plan["device"],
                     arrivals=arrivals, qd=load.qd, device_qd=[config.device_qd] * D + [65536] * extra,
                     gc_group=gc_group, gc_limits=gc_limits, gc_sync=gc_sync, host=plan["host"], phase=plan["phase"],
                     alternates=plan["alternates"] if ground_up else None, hosts=n, write_back=write_back,
                     write_cache_pages=config.write_cache_bytes // page,
                     precondition_fills=precondition_fills if flash else 0.0, seed=seed, progress=progress)
    held_by, rebuilt = _stripe_waits(plan, mr, n, D)
    res = ArrayResult(config=config, load=load, op=ops, lba=lbas, pages=pages, arrival_us=mr.host_arrival_us,
                      done_us=mr.host_done_us, latency_us=mr.host_latency_us, held_by=held_by, rebuilt=rebuilt,
                      members=mr, plan=plan, gc_log=mr.gc_log, raw_bytes=layout.raw_bytes, usable_bytes=layout.usable_bytes,
                      error=mr.error)
    return res


def _lru_hits(ops, lbas, pages, capacity: int) -> np.ndarray:
    """Reads whose pages are all in a least-recently-used cache of ``capacity`` pages, in host
    order (reads and writes bring their pages in)."""
    from collections import OrderedDict

    cache: OrderedDict = OrderedDict()
    hits = np.zeros(ops.size, bool)
    for h in range(ops.size):
        span = range(int(lbas[h]), int(lbas[h] + pages[h]))
        hits[h] = ops[h] == OP_READ and all(p in cache for p in span)
        for p in span:
            cache[p] = None
            cache.move_to_end(p)
        while len(cache) > capacity:
            cache.popitem(last=False)
    return hits


def _drop_hosts(plan: dict, hosts: np.ndarray) -> dict:
    """The plan without the requests of the host I/Os ``hosts`` (a bool mask, e.g. cache
    hits); alternate indices renumbered."""
    keep = ~hosts[plan["host"]]
    new_index = np.cumsum(keep) - 1
    alt, alt_n = plan["alternates"]
    alt = np.where(alt >= 0, new_index[np.maximum(alt, 0)], -1)
    out = {k: v[keep] for k, v in plan.items() if k != "alternates"}
    out["alternates"] = (alt[keep], alt_n[keep])
    return out


def _add_requests(plan: dict, hosts: np.ndarray, device: int, pages: np.ndarray) -> dict:
    """The plan with one more first-phase request, to member ``device`` (LBA 0, ``pages[h]``),
    at the front of each host I/O ``h`` in the bool mask ``hosts``."""
    h = np.flatnonzero(hosts)
    at = np.searchsorted(plan["host"], h)  # each host's first request (its group is contiguous)
    n_old = plan["host"].size
    shift = np.zeros(n_old + 1, np.int64)
    np.add.at(shift, at, 1)
    new_pos = np.arange(n_old) + np.cumsum(shift)[:n_old]  # where each old request goes
    ins_pos = at + np.arange(h.size)  # inserted before the old request at ``at``
    total = n_old + h.size
    out = {}
    for k, fill in (("op", OP_READ), ("device", device), ("lba", 0), ("host", None), ("phase", 0)):
        a = np.empty(total, np.int64)
        a[new_pos] = plan[k]
        a[ins_pos] = h if k == "host" else fill
        out[k] = a
    pg = np.empty(total, np.int64)
    pg[new_pos] = plan["pages"]
    pg[ins_pos] = pages[h]
    out["pages"] = pg
    alt, alt_n = plan["alternates"]
    na, nn = np.full(total, -1, np.int64), np.zeros(total, np.int64)
    na[new_pos] = np.where(alt >= 0, new_pos[np.maximum(alt, 0)], -1)
    nn[new_pos] = alt_n
    out["alternates"] = (na, nn)
    return out


def _stripe_waits(plan: dict, mr: MembersResult, n: int, drives: int):
    """Per host I/O: the drive of its last-finishing drive request (-1 if none finished; the
    controller's links are not drives) and whether a read of it was rebuilt."""
    drive = plan["device"] < drives
    done = np.where(np.isfinite(mr.done_us) & drive, mr.done_us, -np.inf)
    host = plan["host"]
    order = np.lexsort((done, host))  # by host, then completion: the last of each host is its wait
    last = np.full(n, -1, np.int64)
    ok = np.isfinite(done[order])
    last[host[order][ok]] = plan["device"][order][ok]
    rebuilt = np.zeros(n, bool)
    rebuilt[host[mr.redirected]] = True
    return last, rebuilt
