"""Many devices on one clock: builds the named state of :mod:`flashlab.ssd._kernels` for any
number of members (flash drives and hard disks), runs the event loop and reads the results.

:func:`run_members` is the entry point for layers above one drive (arrays): give it the
members, one request list whose ``device`` column says where each request goes, and optionally
GC groups with a limit of devices collecting at once. :func:`flashlab.ssd.simulate_io` is the
same engine with one member. Times in microseconds.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass

import numpy as np
from tqdm.auto import tqdm

from flashlab.ftl import _kernels as FK
from flashlab.ftl.core import Ftl
from flashlab.ssd import _kernels as K

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


def _arrays(n, fields, dtype, fill=0):
    return {f: np.full(n, fill, dtype) for f in fields}


class Engine:
    """The kernel state of one run: ``members`` (SsdConfig or HddSpec objects), request arrays
    (``op``, ``lba``, ``pages``, ``device``), open-loop ``arrivals`` (None: closed loop keeping
    ``host_qd`` requests outstanding), per-device queue depths ``device_qd``, GC groups
    (``gc_group[d]``, -1 for none) with ``gc_limits[g]`` devices collecting at once."""

    def __init__(self, members, op, lba, pages, device, arrivals, host_qd, device_qd, gc_group,
                 gc_limits, samples, seed):
        from flashlab.device.hdd import HddSpec
        from flashlab.ssd.sim import SCHEDULERS, SsdConfig

        D = len(members)
        n = op.size
        self.members, self.n, self.closed, self.host_qd = members, n, arrivals is None, host_qd
        self.sample_every = max(1, n // samples)
        rows = n // self.sample_every + 2
        max_pages = int(pages.max())
        units = [m.units if isinstance(m, SsdConfig) else 1 for m in members]
        chans = [m.geometry.channels if isinstance(m, SsdConfig) else 0 for m in members]
        ppbs = [m.geometry.pages_per_block * m.units if isinstance(m, SsdConfig) else 1 for m in members]
        phys = [m.geometry.physical_pages if isinstance(m, SsdConfig) else 0 for m in members]
        U, C = sum(units), sum(chans)
        cap = max(1 << int(math.ceil(math.log2(device_qd[d] * max_pages + 2 * (ppbs[d] // units[d]) + units[d] + 16)))
                  for d in range(D))
        i64, f64 = np.int64, np.float64
        dv = dict(
            kind=np.zeros(D, np.int8), unit0=np.cumsum([0] + units[:-1]).astype(i64), n_units=np.array(units, i64),
            chan0=np.cumsum([0] + chans[:-1]).astype(i64), n_chans=np.array(chans, i64),
            page0=np.cumsum([0] + phys[:-1]).astype(i64), ppbs=np.array(ppbs, i64), bits=np.ones(D, i64),
            order=np.zeros((D, K.MAX_BITS), i64), **_arrays(D, ("slack", "steer", "sched", "suspend", "gc",
                                                                 "fg_policy", "gc_critical", "gc_background"), i64),
            group=np.asarray(gc_group, i64), qd=np.asarray(device_qd, i64), t_xfer=np.zeros(D, f64),
            t_read=np.zeros((D, K.MAX_BITS), f64), t_prog=np.zeros((D, K.MAX_BITS), f64),
            t_erase=np.zeros(D, f64), t_resume=np.zeros(D, f64), inflight=np.zeros(D, i64),
            waiting=np.zeros(D, i64), wait_head=np.full((D, 2), -1, i64), wait_tail=np.full((D, 2), -1, i64),
            stalled=np.zeros(D, i64), fg=np.zeros(D, i64), tokens=np.zeros(D, f64), fg_since=np.zeros(D, f64), fg_time=np.zeros(D, f64),
            err=np.zeros(D, i64))
        dk = _arrays(D, K.Disks._fields, f64)
        ftl_states = []
        for d, m in enumerate(members):
            if isinstance(m, SsdConfig):
                g, tm = m.geometry, m.timing
                bits = tm.bits_per_cell
                ftl_states.append(Ftl(m.ftl_geometry, m.ftl_config, seed)._s)
                dv["kind"][d] = K.FLASH
                dv["bits"][d] = bits
                dv["order"][d, :bits] = np.argsort(np.asarray(tm.t_prog_us), kind="stable")
                dv["slack"][d] = max(1, g.pages_per_block // bits)
                dv["steer"][d] = int(m.steering)
                dv["sched"][d] = SCHEDULERS.index(m.scheduler)
                dv["suspend"][d] = int(m.suspend)
                dv["gc"][d] = {"off": K.GC_OFF, "foreground": K.GC_FG, "background": K.GC_BG}[m.gc]
                dv["fg_policy"][d] = K.FG_THROTTLE if m.foreground == "throttle" else K.FG_WAIT
                dv["gc_critical"][d], dv["gc_background"][d] = m.gc_critical, m.gc_background
                dv["t_xfer"][d] = m.transfer_us
                dv["t_read"][d, :bits] = tm.t_read_us
                dv["t_prog"][d, :bits] = tm.t_prog_us
                dv["t_erase"][d] = tm.t_erase_us
                dv["t_resume"][d] = m.resume_overhead_us
            elif isinstance(m, HddSpec):
                ftl_states.append(None)
                dv["kind"][d] = K.HDD
                dv["sched"][d] = K.SCHED_FIFO
                dv["gc"][d] = K.GC_OFF
                for f, v in m.kernel_params().items():
                    dk[f][d] = v
            else:
                raise ValueError(f"members[{d}] must be an SsdConfig or an HddSpec; got {m!r}")
        self.devices = K.Devices(**dv)
        self.units = K.Units(device=np.repeat(np.arange(D, dtype=i64), units),
                             **_arrays(U, ("kind", "ppn", "ref", "stage"), i64), end=np.zeros(U, f64),
                             **_arrays(U, ("suspended", "s_kind", "s_ppn", "s_ref"), i64), s_left=np.zeros(U, f64),
                             programs=np.zeros((U, K.MAX_BITS), i64))
        self.channels = K.Channels(**_arrays(C, ("busy", "unit", "head", "tail"), i64),
                                   wait=np.zeros((C, max(units)), i64))
        self.queues = K.Queues(*(np.zeros((3, U, cap), i64) for _ in range(4)), head=np.zeros((3, U), i64),
                               tail=np.zeros((3, U), i64), next_seq=np.zeros(1, i64))
        H = U + C  # one pending event per unit and per channel at most (see _kernels)
        self.heap = K.Heap(time=np.zeros(H, f64), seq=np.zeros(H, i64), src=np.zeros(H, i64),
                           pos=np.full(H, -1, i64), n=np.zeros(1, i64), next_seq=np.zeros(1, i64))
        self.requests = K.Requests(op=np.asarray(op, np.int8), lba=np.asarray(lba, i64), pages=np.asarray(pages, i64),
                                   device=np.asarray(device, i64), left=np.zeros(n, i64),
                                   link=np.full(n, -1, i64),
                                   arrival=np.full(n, np.nan) if arrivals is None else np.asarray(arrivals, f64),
                                   start=np.full(n, -1.0), done=np.full(n, np.nan))
        self.jobs = K.Jobs(victim=np.full(D, -1, i64), **_arrays(D, ("copies_left", "valid", "erases_left"), i64),
                           src=np.zeros((D, max(ppbs)), i64), dst=np.zeros((D, max(ppbs)), i64))
        limits = np.asarray(gc_limits, i64) if len(gc_limits) else np.zeros(1, i64)
        self.groups = K.Groups(limit=limits, active=np.zeros(limits.size, i64), peak=np.zeros(limits.size, i64))
        self.disks = K.Disks(**dk)
        series = np.full((D, rows, _NSER), np.nan)
        self.stats = K.Stats(**_arrays(D, ("host_programs", "gc_programs", "gc_reads", "flash_reads", "erases",
                                          "suspends", "done", "rows"), i64), series=series)
        self.loop = K.Loop(now=np.zeros(1, f64), **_arrays(1, ("events", "next", "to_issue", "done"), i64),
                           closed=np.array([int(self.closed)], i64), sample_every=np.array([self.sample_every], i64),
                           err=np.zeros(1, i64), err_device=np.zeros(1, i64))
        self.ptype = np.zeros(max(1, sum(phys)), np.int8)
        self.ftls = _stack_ftls(ftl_states)
        self.state = K.Engine(self.devices, self.units, self.channels, self.queues, self.heap, self.requests,
                              self.jobs, self.groups, self.disks, self.stats, self.loop, self.ptype, self.ftls)

    def run(self, progress: bool | None) -> None:
        """Run the event loop until every request is done or nothing more can happen."""
        e, n = self.state, self.n
        if self.closed:
            K.start_closed(e, min(self.host_qd, n))
        show = sys.stderr.isatty() if progress is None else bool(progress)
        step = max(1, n // 100) if show else n
        with tqdm(total=n, disable=not show, unit="req", unit_scale=True) as bar:
            done = 0
            while done < n:
                new = int(K.run_events(e, min(n, done + step)))
                bar.update(new - done)
                if new == done or self.loop.err[0] != K.ERR_NONE:
                    break  # no more events (stalled) or an error
                done = new

    def counters(self, d: int) -> dict:
        """Final totals of device d (see :class:`flashlab.ssd.IoResult`)."""
        st = self.stats
        ctr = self.ftls.ctr[d]  # zeros for a member without an FTL
        return {
            "host_page_writes": int(ctr[FK.HOST_WRITES]), "host_programs": int(st.host_programs[d]),
            "host_page_reads": int(ctr[FK.HOST_READS]), "flash_reads": int(st.flash_reads[d]),
            "gc_copies": int(ctr[FK.GC_COPIES]), "gc_programs": int(st.gc_programs[d]),
            "gc_reads": int(st.gc_reads[d]), "erases": int(st.erases[d]),
            "superblock_erases": int(ctr[FK.ERASE_OPS]), "gc_victims": int(ctr[FK.GC_VICTIMS]),
            "events": int(self.loop.events[0]), "suspensions": int(st.suspends[d]),
            "free_blocks": int(ctr[FK.FREE_BLOCKS]), "requests_done": int(st.done[d]),
        }

    def series(self, d: int, names) -> dict:
        rows = int(self.stats.rows[d])
        return {name: self.stats.series[d, :rows, i].copy() for i, name in enumerate(names)}


@dataclass(frozen=True)
class MembersResult:
    """Outcome of :func:`run_members`. Per request (the order given): ``arrival_us``,
    ``start_us`` (NaN if never started), ``done_us`` and ``latency_us`` (NaN if never done).
    Per device: ``counters[d]`` and ``series[d]`` (as :class:`flashlab.ssd.IoResult`'s).
    ``max_collecting[g]``: the most devices of GC group ``g`` that ran a GC job at once.
    ``error``: empty, or what stopped the run (and on which device)."""

    arrival_us: np.ndarray
    start_us: np.ndarray
    done_us: np.ndarray
    latency_us: np.ndarray
    counters: list
    series: list
    max_collecting: np.ndarray
    events: int
    error: str


def run_members(members, op, lba, pages, device, *, arrivals=None, qd: int = 32, device_qd=None,
                gc_group=None, gc_limits=(), seed: int = 0, samples: int = 400,
                progress: bool | None = False) -> MembersResult:
    """Run requests against several members (``SsdConfig`` flash drives, ``HddSpec`` disks)
    on one clock.

    ``op`` (0 write, 1 read), ``lba`` (first LBA), ``pages`` (LBAs, i.e. pages or disk blocks)
    and ``device`` (member index) per request, in issue order. Closed loop (``arrivals`` None):
    ``qd`` requests outstanding over all members; open loop: request ``i`` arrives at
    ``arrivals[i]`` (us, non-decreasing). Each member admits at most ``device_qd[d]``
    (default ``qd``) requests at once; the rest wait in its FIFO. GC coordination:
    ``gc_group[d]`` puts flash member ``d`` in a group (-1: none) and at most
    ``gc_limits[g]`` members of group ``g`` run a GC job at once, foreground GC included (a
    member whose GC must wait keeps writing until its free space runs out).
    """
    from flashlab._validate import check_array, check_bool, check_int, check_int_array, check_seed, quote
    from flashlab.device.hdd import HddSpec
    from flashlab.ssd.sim import SsdConfig

    if isinstance(members, (str, bytes)) or not hasattr(members, "__len__"):
        raise ValueError(f"members must be a list of SsdConfig or HddSpec; got {quote(members)}")
    members = list(members)
    D = check_int("number of members", len(members), 1, 4096)
    check_seed("seed", seed)
    check_int("qd", qd, 1, 65536)
    check_bool("progress", progress, allow_none=True)
    op = check_int_array("op", op, K.OP_WRITE, K.OP_READ).astype(np.int8)
    n = check_int("number of requests", op.size, 1, 2**31 - 1)
    lba = check_int_array("lba", lba, 0, 2**62)
    pages = check_int_array("pages", pages, 1, 2**31 - 1)
    device = check_int_array("device", device, 0, D - 1)
    for name, a in (("lba", lba), ("pages", pages), ("device", device)):
        if a.shape != op.shape:
            raise ValueError(f"op, lba, pages and device must have one entry per request each; got {n} ops "
                             f"and {a.size} entries of {name}")
    for d, m in enumerate(members):
        cap = m.geometry.user_pages if isinstance(m, SsdConfig) else m.lbas if isinstance(m, HddSpec) else None
        if cap is None:
            raise ValueError(f"members[{d}] must be an SsdConfig or an HddSpec; got {quote(m)}")
        sel = device == d
        if sel.any() and (lba[sel] + pages[sel]).max() > cap:
            raise ValueError(f"lba: requests to members[{d}] must lie in its {cap} LBAs")
    if arrivals is not None:
        arrivals = check_array("arrivals", arrivals, 0.0, 1e18)
        if arrivals.shape != op.shape or (np.diff(arrivals) < 0).any():
            raise ValueError(f"arrivals must be non-decreasing times (us), one per request ({n})")
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
    eng = Engine(members, op, lba, pages, device, arrivals, qd, dqd, groups, limits,
                 check_int("samples", samples, 1, 100000), seed)
    eng.run(progress)
    from flashlab.ssd.sim import SERIES_NAMES
    err = int(eng.loop.err[0])
    r = eng.requests
    return MembersResult(
        arrival_us=r.arrival.copy(), start_us=np.where(r.start >= 0, r.start, np.nan), done_us=r.done.copy(),
        latency_us=r.done - r.arrival, counters=[eng.counters(d) for d in range(D)],
        series=[eng.series(d, SERIES_NAMES) for d in range(D)], max_collecting=eng.groups.peak[:len(limits)].copy(),
        events=int(eng.loop.events[0]),
        error=f"{ERRORS[err]} (member {int(eng.loop.err_device[0])})" if err else "")


ERRORS = {K.ERR_NONE: "", K.ERR_QUEUE: "an operation queue overflowed",
          K.ERR_NO_SPACE: "no free block left for garbage collection",
          K.ERR_HEAP: "the event heap's bound failed (an engine bug)"}
