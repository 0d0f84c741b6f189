"""Rebuilding a failed member onto a spare, and the window of exposure while it runs.

A rebuild walks the stripes in order. For stripe ``s`` it reads the survivors' units that
determine the lost one (RAID-1/10: the other copy; RAID-5: the other ``n - 1``; RAID-6: ``n - 2``
of them, data first, then P, then Q) and writes the rebuilt unit to the spare. Stripes below the
**frontier** are rebuilt: there the spare stands in for the failed member, so host reads of it go
to the spare and host writes land on the spare as on a healthy member. Stripes at and above it
are degraded: reads of the failed member are reconstructed from the rest of the stripe and
writes leave it out (their data lives in the parity or in the other copy), which the rebuild
then carries to the spare when it reaches them (:meth:`flashlab.array.Layout.degrade`).

* :class:`Rebuild` ``(layout, failed, member, frontier)``: a rebuild in progress, its member
  requests (:meth:`Rebuild.stripe_plan` for one stripe, :meth:`Rebuild.plan` for host I/Os on
  both sides of the frontier) and the members each stripe misses (:meth:`Rebuild.away`). A
  failure past the layout's tolerance in the stripes not yet rebuilt is refused as data loss
  naming those stripes.
* :func:`simulate_rebuild` ``(config, load, *, rate_mb_s, requests, ...)``: the rebuild as a
  timed process beside open-loop host I/O on the same members (:class:`RebuildResult`:
  rebuild duration, host latency during the rebuild, member pages by cause).
* :func:`second_failure_probability` and :func:`ure_probability`: the closed forms of the
  window of exposure.

Times in microseconds, sizes in bytes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from flashlab._validate import (check_bool, check_instance, check_int, check_int_array, check_real, check_seed,
                                plain_fields, quote)
from flashlab.array.layout import Layout
from flashlab.array.sim import PERCENTILES, ArrayConfig, completed, host_requests
from flashlab.ssd import HostLoad, MembersResult, run_members
from flashlab.ssd.sim import latency_summary
from flashlab.workload import OP_READ, OP_WRITE

CAUSES = ("data", "parity", "rmw_reads", "degraded_reads", "rebuild_reads", "rebuild_writes")
"""Why a member page moved: host data (its own member, the other copy or the spare), parity
writes, a read-modify-write's reads of old data and parity, reads standing in for a failed
member (a degraded read, or the old data of a degraded read-modify-write), the rebuild's reads
of survivors and its writes to the spare."""
HOURS_PER_YEAR = 8760.0


@dataclass(frozen=True, kw_only=True)
class Rebuild:
    """A rebuild of failed member ``member`` onto a spare, stripes ``[0, frontier)`` done.

    Parameters
    ----------
    layout : Layout
    failed : sequence of member indices, every failed member (``member`` among them)
    member : int, the failed member being rebuilt (its spare is device ``layout.drives`` in the
        plans)
    frontier : int in [0, layout.stripes], stripes rebuilt so far

    A failure past the layout's tolerance is data loss: raised as a ``ValueError`` naming the
    stripes lost (those from the frontier on when the rebuilt stripes still survive it).
    """

    layout: Layout
    failed: tuple
    member: int
    frontier: int = 0

    def __post_init__(self):
        plain_fields(self)
        L = check_instance("layout", self.layout, Layout)
        if L.raid == 0:
            raise ValueError("layout: RAID-0 has no redundancy to rebuild from; got raid=0")
        if isinstance(self.failed, (str, bytes)) or not hasattr(self.failed, "__len__") or not len(self.failed):
            raise ValueError(f"failed must name the failed members (at least `member`); got {quote(self.failed)}")
        failed = tuple(sorted(int(d) for d in check_int_array("failed", list(self.failed), 0, L.drives - 1)))
        if len(set(failed)) != len(failed):
            raise ValueError(f"failed must name each member once; got {failed}")
        member = check_int("member", self.member, 0, L.drives - 1)
        if member not in failed:
            raise ValueError(f"member must be one of the failed members {failed}; got {member}")
        frontier = check_int("frontier", self.frontier, 0, L.stripes)
        rest = tuple(d for d in failed if d != member)
        L.tolerates(rest)  # the rebuilt stripes miss these: past the tolerance, every stripe is lost
        if frontier < L.stripes:
            try:
                L.tolerates(failed)
            except ValueError:
                raise ValueError(f"failed: RAID-{L.raid} of {L.drives} members with members {failed} failed and "
                                 f"member {member} rebuilt up to stripe {frontier}: data loss in stripes {frontier} "
                                 f"to {L.stripes - 1} (not yet rebuilt; stripes before {frontier} survive)") from None
        object.__setattr__(self, "failed", failed)
        object.__setattr__(self, "member", member)
        object.__setattr__(self, "frontier", frontier)

    @property
    def spare(self) -> int:
        """The spare's device index in plans (one past the members)."""
        return self.layout.drives

    @property
    def done(self) -> bool:
        return self.frontier == self.layout.stripes

    def advanced(self) -> "Rebuild":
        """The same rebuild one stripe further (after :meth:`stripe_plan` of ``frontier`` ran)."""
        if self.done:
            raise ValueError(f"frontier: the rebuild is done (all {self.layout.stripes} stripes); nothing to advance")
        return Rebuild(layout=self.layout, failed=self.failed, member=self.member, frontier=self.frontier + 1)

    def away(self, stripe: int) -> tuple:
        """Members stripe ``stripe`` misses: every failed member, less ``member`` once rebuilt."""
        stripe = check_int("stripe", stripe, 0, self.layout.stripes - 1)
        return tuple(d for d in self.failed if stripe >= self.frontier or d != self.member)

    def sources(self, stripe: int) -> tuple:
        """The survivors whose units of ``stripe`` rebuild ``member``'s: the other copy
        (RAID-1/10), or as many members as the stripe has data units (RAID-5/6), data units
        first, then P, then Q."""
        L = self.layout
        stripe = check_int("stripe", stripe, 0, L.stripes - 1)
        if L.raid in (1, 10):
            return (self.member ^ 1,)
        par = L.parity_members(stripe)
        order = [d for d in range(L.drives) if d not in par] + list(par)
        return tuple(d for d in order if d not in self.failed)[:L.data_units]

    def stripe_plan(self, stripe: int | None = None) -> dict:
        """Member requests rebuilding ``stripe`` (default: the frontier): first phase, read the
        :meth:`sources`' units; second phase, write the spare's. Keys as
        :meth:`flashlab.array.Layout.plan`, one host I/O (0), plus ``cause``."""
        stripe = self.frontier if stripe is None else check_int("stripe", stripe, 0, self.layout.stripes - 1)
        src = self.sources(stripe)
        su = self.layout.unit_pages
        k = len(src) + 1
        return {"op": np.array([OP_READ] * len(src) + [OP_WRITE], np.int64),
                "device": np.array(list(src) + [self.spare], np.int64),
                "lba": np.full(k, stripe * su, np.int64), "pages": np.full(k, su, np.int64),
                "host": np.zeros(k, np.int64), "phase": np.array([0] * len(src) + [1], np.int64),
                "alternates": (np.full(k, -1, np.int64), np.zeros(k, np.int64)),
                "cause": np.array([4] * len(src) + [5], np.int64)}

    def plan(self, ops, lbas, pages) -> dict:
        """Member requests of host I/Os (``ops`` 0 write / 1 read, ``lbas``, ``pages``; as
        :meth:`flashlab.array.Layout.plan`) with the rebuild at ``frontier``: a stripe's
        requests below it as on an array whose ``member`` is the spare (device ``spare``), from
        it on as on the degraded array. Adds ``cause`` (an index into :data:`CAUSES`)."""
        ops = check_int_array("ops", ops, 0, 1)
        return frontier_plan(self, ops, lbas, pages, np.full(ops.size, self.frontier, np.int64))


def frontier_plan(rebuild: Rebuild, ops, lbas, pages, frontier) -> dict:
    """:meth:`Rebuild.plan` with a frontier per host I/O (``frontier[h]``, stripes rebuilt when
    host I/O ``h`` arrived). Alternates are dropped (a rebuilding array does not read around GC)."""
    L = rebuild.layout
    full = L.plan(ops, lbas, pages, rebuild=True)  # degrade takes its rebuild sets from the alternates
    base = _rows(full, full["phase"] >= 0)
    rest = tuple(d for d in rebuild.failed if d != rebuild.member)
    behind = _rows(L.degrade(full, rest), None) if rest else base
    ahead = _rows(L.degrade(full, rebuild.failed), None)
    su, spare, member = L.unit_pages, rebuild.spare, rebuild.member
    parts = []
    for part, is_behind in ((behind, True), (ahead, False)):
        below = part["lba"] // su < frontier[part["host"]]
        part = _rows(part, below if is_behind else ~below)
        if is_behind:
            part["device"] = np.where(part["device"] == member, spare, part["device"])
        ref = dict(base)
        if is_behind:
            ref["device"] = np.where(base["device"] == member, spare, base["device"])
        part["cause"] = _causes(L, part, ref, ops, member, spare)
        parts.append(part)
    out = {k: np.concatenate([p[k] for p in parts]) for k in parts[0] if k != "alternates"}
    order = np.lexsort((out["phase"], out["host"]))
    out = {k: v[order] for k, v in out.items()}
    out["alternates"] = (np.full(order.size, -1, np.int64), np.zeros(order.size, np.int64))
    return out


def _rows(plan: dict, keep) -> dict:
    """The plan's columns (alternates dropped), restricted to the bool mask ``keep`` if given."""
    cols = {k: v for k, v in plan.items() if k not in ("alternates", "cause")}
    if keep is not None:
        cols = {k: v[keep] for k, v in cols.items()}
    n = cols["op"].size
    cols["alternates"] = (np.full(n, -1, np.int64), np.zeros(n, np.int64))
    return cols


def _causes(L: Layout, part: dict, ref: dict, host_ops, member: int, spare: int) -> np.ndarray:
    """Cause of each request of ``part``: a request not in the reference plan ``ref`` (as a
    multiset of rows) stands in for a failed member (a degraded read); the rest by what they
    are."""
    keys = ("host", "op", "device", "lba", "pages", "phase")
    n_ref, n = ref["op"].size, part["op"].size
    both = [np.concatenate([ref[k], part[k]]) for k in keys]
    tag = np.r_[np.zeros(n_ref, np.int64), np.ones(n, np.int64)]
    order = np.lexsort([tag] + both[::-1])
    sk = np.stack([b[order] for b in both])
    start = np.r_[True, (sk[:, 1:] != sk[:, :-1]).any(axis=0)] if order.size else np.zeros(0, bool)
    run = np.cumsum(start) - 1
    run_first = np.flatnonzero(start)
    in_ref = np.bincount(run, weights=(tag[order] == 0), minlength=run_first.size).astype(np.int64)
    rank = np.arange(order.size) - run_first[run] - in_ref[run]  # a part row's rank among its run's part rows
    standin = np.zeros(n, bool)
    is_part = tag[order] == 1
    standin[order[is_part] - n_ref] = rank[is_part] >= in_ref[run[is_part]]
    s = part["lba"] // L.unit_pages
    home = np.where(part["device"] == spare, member, part["device"])
    par = np.zeros(n, bool)
    if L.raid in (5, 6):
        p = L.drives - 1 - s % L.drives
        par = (home == p) | ((L.raid == 6) & (home == (p + 1) % L.drives))
    write = part["op"] == OP_WRITE
    cause = np.where(write, np.where(par, 1, 0), np.where(host_ops[part["host"]] == OP_WRITE, 2, 0))
    return np.where(standin, 3, cause).astype(np.int64)


@dataclass(frozen=True)
class RebuildResult:
    """Outcome of :func:`simulate_rebuild`. Times in microseconds.

    Per host I/O (issue order): ``op``, ``lba``, ``pages``, ``arrival_us``, ``done_us``,
    ``latency_us``, ``behind`` (every stripe it touched was below the frontier when it
    arrived: served as on a healthy array with the spare). Per stripe: ``stripe_issue_us``
    (the rate limit's schedule), ``stripe_done_us`` (its unit on the spare). ``rebuild_us``:
    the first issue to the last stripe done. ``members``: every member request
    (:class:`flashlab.ssd.MembersResult`; device ``drives`` is the spare); ``plan`` (with
    ``cause``, an index into :data:`CAUSES`, and ``host``, host I/Os first, then stripes);
    ``passes``: runs until each host I/O's frontier agreed with the stripes' completion times;
    ``early``: host I/Os planned behind a frontier the final run had not reached (0 when the
    passes converged); ``error``.
    """

    config: object
    load: HostLoad
    rate_mb_s: float
    op: np.ndarray
    lba: np.ndarray
    pages: np.ndarray
    arrival_us: np.ndarray
    done_us: np.ndarray
    latency_us: np.ndarray
    behind: np.ndarray
    stripe_issue_us: np.ndarray
    stripe_done_us: np.ndarray
    rebuild_us: float
    members: MembersResult
    plan: dict
    passes: int
    early: int
    error: str

    def during(self) -> np.ndarray:
        """Host I/Os that arrived before the rebuild ended."""
        return self.arrival_us < self.stripe_issue_us[0] + self.rebuild_us

    def percentiles(self, op=None, *, during: bool = True) -> dict:
        """Host latency p50, p99, p99.9, max, mean (us) and ``n`` (samples) of completed host
        I/Os (of ``op`` 0 write / 1 read if given), of those arriving during the rebuild
        (``during``) or all."""
        check_bool("during", during)
        m = completed(self.latency_us, self.op, op)
        if during:
            m &= self.during()
        return latency_summary(self.latency_us[m], PERCENTILES)

    def pages_by_cause(self) -> dict:
        """Member pages moved, by cause (:data:`CAUSES`); they add up to every member page."""
        tot = np.bincount(self.plan["cause"], self.plan["pages"], minlength=len(CAUSES))
        return {c: int(v) for c, v in zip(CAUSES, tot)}


def simulate_rebuild(config, load: HostLoad, *, rate_mb_s: float, requests: int = 2000,
                     precondition_fills: float = 0.0, seed: int = 0, max_passes: int = 4) -> RebuildResult:
    """Rebuild ``config.failed[0]`` onto a spare (a new member of the same kind) while host
    I/O runs, every member on one clock.

    Parameters
    ----------
    config : ArrayConfig with at least one failed member; ``arch`` ``disk``, ``ssd`` or
        ``harmonia``; no read or write cache, switched back end (the rebuild models neither)
    load : HostLoad, open loop (``rate_iops``): host I/Os from time 0
    rate_mb_s : float in [1e-3, 1e6], the rebuild's rate limit, MB/s (bytes per us) written to
        the spare: stripe ``s`` is issued at ``s x stripe_unit / rate_mb_s`` (later if the
        members fall behind, its requests wait in their queues)
    requests : int in [1, 10**6], host I/Os
    precondition_fills : float in [0, 100], flash members (the spare too): as
        :func:`flashlab.array.simulate_array`
    seed : workload, arrivals and FTL seed
    max_passes : int in [1, 10], runs at most: a host I/O's frontier (the stripes done when it
        arrives) comes from the stripes' completion times, known after a run, so the run repeats
        with the last run's times until no host I/O changes side (``RebuildResult.passes``)
    """
    check_instance("config", config, ArrayConfig)
    check_instance("load", load, HostLoad)
    check_seed("seed", seed)
    n = check_int("requests", requests, 1, 10**6)
    rate = check_real("rate_mb_s", rate_mb_s, 1e-3, 1e6)
    fills = check_real("precondition_fills", precondition_fills, 0.0, 100.0)
    max_passes = check_int("max_passes", max_passes, 1, 10)
    if not config.failed:
        raise ValueError("config.failed must name the failed member to rebuild; got ()")
    if config.arch not in ("disk", "ssd", "harmonia"):
        raise ValueError(f"config.arch must be 'disk', 'ssd' or 'harmonia' for a rebuild; got {config.arch!r}")
    for name in ("read_cache_bytes", "write_cache_bytes"):
        if getattr(config, name):
            raise ValueError(f"config.{name} must be 0 for a rebuild (not modelled); got {getattr(config, name)}")
    if config.back_end != "switched":
        raise ValueError(f"config.back_end must be 'switched' for a rebuild; got {config.back_end!r}")
    if load.rate_iops is None:
        raise ValueError("load.rate_iops must be set: the rebuild runs beside an open-loop host load; got None")
    if load.workload.trim_fraction or load.fua or load.flush_every:
        raise ValueError("load: the array layer takes no TRIM, FUA or flush (trim_fraction, fua, flush_every)")
    L = config.layout
    rb = Rebuild(layout=L, failed=config.failed, member=config.failed[0], frontier=0)
    ops, lbas, pages, arrivals = host_requests(L, load, n, seed)
    S, D = L.stripes, config.drives
    issue = np.arange(S) * (config.stripe_unit / rate)
    jobs = [rb.stripe_plan(s) for s in range(S)]
    stripe_rows = {k: np.concatenate([j[k] for j in jobs]) for k in ("op", "device", "lba", "pages", "phase", "cause")}
    stripe_rows["host"] = np.repeat(np.arange(S), [j["op"].size for j in jobs])
    # one timeline of host I/Os and stripe jobs, by arrival (host I/Os first at a tie)
    when = np.r_[arrivals, issue]
    order = np.lexsort((np.r_[np.zeros(n), np.ones(S)], when))
    slot = np.empty(n + S, np.int64)
    slot[order] = np.arange(n + S)
    members = [config.member] * (D + 1)
    gc_group = gc_limits = gc_sync = None
    if config.arch == "harmonia":
        gc_group, gc_limits, gc_sync = [0] * (D + 1), [D + 1], np.array([True])
    done_s = issue.copy()  # first guess: each stripe done when issued
    last_front = None
    for passes in range(1, max_passes + 1):
        front = _frontier_at(arrivals, done_s)
        if last_front is not None and np.array_equal(front, last_front):
            passes -= 1
            break
        hp = frontier_plan(rb, ops, lbas, pages, front)
        plan = {k: np.r_[hp[k], stripe_rows[k]] for k in ("op", "device", "lba", "pages", "phase", "cause")}
        plan["host"] = slot[np.r_[hp["host"], n + stripe_rows["host"]]]
        o = np.lexsort((np.where(plan["phase"] < 0, 2, plan["phase"]), plan["host"]))
        plan = {k: v[o] for k, v in plan.items()}
        mr = run_members(members, plan["op"], plan["lba"], plan["pages"], plan["device"], arrivals=when[order],
                         qd=load.qd, device_qd=[config.device_qd] * (D + 1), gc_group=gc_group,
                         gc_limits=gc_limits or (), gc_sync=gc_sync, host=plan["host"], phase=plan["phase"],
                         hosts=n + S, precondition_fills=fills if config.arch != "disk" else 0.0, seed=seed)
        done_s = mr.host_done_us[slot[n:]]
        last_front = front
    host_idx = slot[:n]
    early = int((_frontier_at(arrivals, done_s) < last_front).sum())
    plan["host"] = np.argsort(slot)[plan["host"]]  # back to host I/Os 0..n-1, then stripes n..n+S-1
    ok = np.isfinite(done_s)
    rebuild_us = float(done_s.max() - issue[0]) if ok.all() else math.nan
    touched_last = (lbas + pages - 1) // (L.unit_pages * L.data_units)
    return RebuildResult(config=config, load=load, rate_mb_s=rate, op=ops, lba=lbas, pages=pages,
                         arrival_us=mr.host_arrival_us[host_idx], done_us=mr.host_done_us[host_idx],
                         latency_us=mr.host_latency_us[host_idx], behind=touched_last < last_front,
                         stripe_issue_us=issue, stripe_done_us=done_s, rebuild_us=rebuild_us, members=mr, plan=plan,
                         passes=passes, early=early, error=mr.error)


def _frontier_at(arrivals: np.ndarray, done_s: np.ndarray) -> np.ndarray:
    """Per host I/O: stripes rebuilt in order when it arrived (the first stripe not done by then)."""
    reached = np.maximum.accumulate(np.where(np.isfinite(done_s), done_s, np.inf))
    return np.searchsorted(reached, arrivals, side="right").astype(np.int64)


def second_failure_probability(survivors: int, afr: float, hours: float) -> float:
    """Probability that one of ``survivors`` members fails within ``hours``, each failing
    independently at a constant rate from its annualized failure rate ``afr``:
    ``1 - exp(-survivors x lambda x hours)`` with ``lambda = -ln(1 - afr) / 8760`` per hour
    (an AFR is the share of drives failing in a year of constant-rate failures; for small AFR
    ``lambda`` is about AFR / 8760). RAID-5 loses data when any of its ``n - 1`` survivors fails
    during a rebuild; RAID-6 needs two of ``n - 1`` (see :func:`raid6_loss_probability`).
    Sources: Patterson et al. 1988 (MTTDL of a RAID group, exponential failures); AFR figures
    from data sheets (Seagate 2010, Cheetah 15K.7: 0.55%) or fleets (Backblaze drive stats).

    survivors : int in [1, 10**6]; afr : float in [0, 1); hours : float in [0, 1e6]
    """
    survivors = check_int("survivors", survivors, 1, 10**6)
    afr = check_real("afr", afr, 0.0, 1.0, hi_open=True)
    hours = check_real("hours", hours, 0.0, 1e6)
    lam = -math.log1p(-afr) / HOURS_PER_YEAR
    return -math.expm1(-survivors * lam * hours)


def raid6_loss_probability(survivors: int, afr: float, hours: float) -> float:
    """Probability that at least two of ``survivors`` members fail within ``hours`` (RAID-6
    rebuilding one member loses data only then): ``1 - q^n - n (1 - q) q^(n-1)`` with ``q =
    exp(-lambda x hours)`` the chance one member survives (binomial over independent members;
    lambda as :func:`second_failure_probability`). Same parameters."""
    survivors = check_int("survivors", survivors, 1, 10**6)
    afr = check_real("afr", afr, 0.0, 1.0, hi_open=True)
    hours = check_real("hours", hours, 0.0, 1e6)
    lam = -math.log1p(-afr) / HOURS_PER_YEAR
    p = -math.expm1(-lam * hours)  # one member fails
    q = 1.0 - p
    return max(0.0, 1.0 - q**survivors - survivors * p * q ** (survivors - 1))


def ure_probability(bytes_read: float, bits_per_error: float) -> float:
    """Probability of at least one unrecoverable read error while reading ``bytes_read`` bytes
    from members specified at one error per ``bits_per_error`` bits read: ``1 - exp(-8 x
    bytes_read / bits_per_error)`` (errors independent, at the data-sheet rate; Seagate 2010,
    Cheetah 15K.7: one sector per 10^16 bits; Intel 2011, SSD 320: one sector per 10^16 bits).
    A RAID-5 rebuild reads every surviving member whole: a URE there is a sector it cannot
    rebuild; RAID-6 rebuilds it from Q.

    bytes_read : float in [0, 1e21]; bits_per_error : float in [1, 1e30]
    """
    bytes_read = check_real("bytes_read", bytes_read, 0.0, 1e21)
    bits_per_error = check_real("bits_per_error", bits_per_error, 1.0, 1e30)
    return -math.expm1(-8.0 * bytes_read / bits_per_error)
