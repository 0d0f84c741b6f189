"""The redo log: committing sessions, group commit by the log writer, and the redo block size.

**Sessions.** ``sessions`` sessions each loop: think (exponential, mean ``think_us``), generate
redo (lognormal bytes with mean ``redo_bytes`` and sigma 1, so most commits are small and a few
are large, capped at 1 MiB, the log buffer's flush threshold), commit and wait until the log
writer has written their redo (``log file sync``).

**Group commit.** The log writer (LGWR) does one write at a time: when it is idle and redo is
waiting, it writes all of it in one write, rounded up to whole redo blocks, at the current log
position (the next write starts on the next redo block). Commits that arrive while it writes
wait for the next write, so slower writes make larger groups.

**In the event loop.** The sessions and the log writer run on the engine's clock: the engine
runs until the log writer's write is done, and at that moment the next write is decided (when
it starts: now if redo is waiting, else at the next commit; which commits it carries; its
size), with the drive's real state and backlog, then issued at its start time (idle gaps while
the sessions think are real time: a disk's platter turns on). This is exact, not a fixed point:
a session's next commit depends only on its own commit's end and its think time, so everything
the next write depends on is known when the previous one ends. One engine run, stopped at each
log write's end (:meth:`flashlab.ssd.engine.Engine.step`).

**Redo block against drive page.** The log is a region of the drive that was written before
(log files are reused). With a redo block smaller than the drive's page (Oracle's default 512 B
against a 4 KiB page), a write that starts or ends inside a page must keep the rest of that
page: the drive reads the page and writes it back whole (read-modify-write). Consecutive
writes share a page, so nearly every write needs the page the previous one ended in. A 4 KiB
redo block keeps every write page-aligned (padding the last block instead). The read is a
page read issued before the write, in the same serial chain (queue depth one), unless the
page is still in the drive's write cache when the write starts (its last write acknowledged,
not yet on NAND): the drive then merges in DRAM, with no read (``dram_merges``).

**Durable writes.** The log writer's writes are FUA writes: a commit is done only when its
redo is durable. Without a write cache that is every write; with a cache protected by
capacitors a FUA write is acknowledged from the cache; with an unprotected cache it goes
through to NAND and pads the rest of its NAND page (see :class:`flashlab.ssd.SsdConfig`).

**Smart flash logging.** With ``mirror`` (a hard disk, :class:`flashlab.device.hdd.HddSpec`),
every log write goes to the disk's log and to the flash drive at once, and the commits it
carries are done when the first copy is (Exadata's smart flash logging). The slower copy still
runs; each device takes writes as they come (queue depth 32), so a copy waits only for its own
device. The flash copy is written in whole pages (``redo_block`` must be the drive's page size),
the disk copy in its blocks.

**The disk's other writes.** With ``disk_writes_per_s``, data-file writes (the database
writer's 8 KiB blocks, at random places beyond the log, Poisson arrivals) share the log's disk
and, if it has one, its controller's write cache (``HddSpec.write_cache_bytes``): while the head
is away writing one, log writes pile up in the cache, and a log write that finds the cache full
waits for the head. They are issued at their arrival times while the log writer runs: the
engine runs up to the next one's arrival (``Engine.step``'s ``until``), which is then added, as
if it had been known from the start. Arrivals are drawn in chunks from one seeded stream; a log
that outlasts those drawn runs again with more (the earlier ones unchanged).

**A used drive.** By default the flash drive is fresh and the log region (half its user
capacity) is written once, timed, before the first commit: the log writer then overwrites pages
the drive still has free blocks for, and a short run reaches no garbage collection. With
``precondition_fills`` the drive is instead written whole and given that many drive fills of
random page writes, untimed (:func:`flashlab.ssd.run_members`'s preconditioning): it starts in
the steady state of a drive that has held data for a while, its free blocks at the GC
threshold, so every block the log writer fills must be won back by GC copying the valid pages of
a victim (``gc_copies``, ``erases``). This models a log that shares its drive with data; it is
not Harrison's setup, whose flash grid disks held the redo log and nothing else of note.

Guy Harrison measured on Exadata X2 that a 4 KiB redo block instead of 512 B cut the elapsed
time of a redo-heavy test by 70%; with smart flash logging on, the median log file sync rose
from 481 to 500 us (by one storage cell's counters the flash won 3.5% of the writes; his text
says 3.8%). Times in microseconds, sizes in bytes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from flashlab._validate import check_choice, check_instance, check_int, check_real, check_seed
from flashlab.db._host import FILL_PAGES, drive, latency_summary, region_pages
from flashlab.ssd import OP_FUA
from flashlab.workload import OP_READ, OP_WRITE

#: Redo block sizes (bytes) that Oracle's BLOCKSIZE clause accepts for a redo log file, from 11g
#: Release 2 on (Oracle Database Administrator's Guide 11.2, "Planning the Block Size of Redo Log Files").
REDO_BLOCKS = (512, 1024, 4096)
DISK_LOG_BYTES = 1 << 30  # a log on a hard disk: its first GiB
MAX_REDO_BYTES = 1 << 20  # a commit's redo is capped at the log buffer's flush threshold
MAX_COMMITS = 100_000
#: The other writes to the log's disk (``disk_writes_per_s``) are data-file blocks: Oracle's
#: default block size.
DISK_WRITE_BYTES = 8192
#: Queue depth of a device racing another (smart flash logging) or behind a controller cache.
DEVICE_QD = 32
#: The other writes to the log's disk are drawn first for commits averaging 20 ms, then twice as
#: many while the log outlasts them, up to this factor (a disk that far behind is overloaded).
MAX_OTHER_DRAWS = 16
_SIGMA = 1.0
#: Smart flash logging races two devices from the first commit, so the flash must start in the
#: state it keeps: written whole (the log has gone round before), plus this share of a drive fill
#: of random writes, untimed (a timed fill would leave programs and GC of its own in flight).
MIRROR_PRECONDITION = 0.01


@dataclass(frozen=True)
class RedoResult:
    """Outcome of :func:`redo_log`. Per commit (in the order they were written): ``commit_us``
    (log file sync time), ``commit_arrival_us`` (when it committed, from the log's start),
    ``commit_bytes`` (its redo) and ``commit_write`` (the log write that carried it). Per log
    writer write: ``write_start_us``, ``write_bytes``, ``write_reads`` (page reads it needed
    first) and ``write_us`` (its reads and its write, to the first copy with a mirror).
    ``elapsed_us``: from the start to the last commit's end;
    ``commit_latency``: p50, p99, p99.9, mean, max (us); ``rmw_reads``: page reads the writes
    needed; ``dram_merges``: partial pages merged in the drive's write cache instead;
    ``pages_written`` (flash pages); ``gc_copies`` and ``erases``: the flash drive's GC page copies
    and block erases from the log's start (after its fill or preconditioning) to the end of the
    run (0 on a disk). ``flash_first``: with a ``mirror``, the share of log writes
    whose flash copy finished first (NaN without), and ``copy_us`` (writes x 2): each write's
    flash and disk copy, from the write's start to that copy's end (None without)."""

    commit_us: np.ndarray
    commit_arrival_us: np.ndarray
    commit_bytes: np.ndarray
    commit_write: np.ndarray
    write_start_us: np.ndarray
    write_bytes: np.ndarray
    write_reads: np.ndarray
    write_us: np.ndarray
    elapsed_us: float
    commit_latency: dict
    rmw_reads: int
    dram_merges: int
    pages_written: int
    gc_copies: int
    erases: int
    flash_first: float = float("nan")
    copy_us: np.ndarray | None = None


class _OtherWrites:
    """The other writes to the log's disk (``disk_writes_per_s``): Poisson arrivals (``t``, us
    from the log's start) at uniform random LBAs beyond the log (``lba``), :data:`DISK_WRITE_BYTES`
    each (``blocks``) on member ``dev``. Drawn in chunks from one seeded stream: :meth:`draw`
    adds arrivals after the last without changing those drawn before."""

    def __init__(self, disk, per_s: float, dev: int, first: int, seed: int):
        self.rng = np.random.default_rng(np.random.SeedSequence([seed, 12, 4]))
        self.gap_us, self.dev = 1e6 / per_s, dev
        self.blocks = -(-DISK_WRITE_BYTES // disk.block_size)
        self.lba_range = (DISK_LOG_BYTES // disk.block_size, disk.lbas - self.blocks)
        self.t, self.lba = np.zeros(0), np.zeros(0, np.int64)
        self.first = first
        self.draw(first)

    def draw(self, n: int) -> None:
        """Add ``n`` arrivals."""
        lbas = self.rng.integers(*self.lba_range, n)
        gaps = self.rng.exponential(self.gap_us, n)
        self.t = np.concatenate((self.t, np.cumsum(np.concatenate((self.t[-1:], gaps)))[-n:]))
        self.lba = np.concatenate((self.lba, lbas))


class _Log(NamedTuple):
    """What :func:`_commits` returns. Per commit: ``c_arr`` (arrival, us), ``c_end`` (its write's
    end, us), ``c_bytes`` (its redo), ``c_write`` (the write that carried it). Per log write:
    ``w_start`` (us), ``w_len`` (bytes), ``w_host`` (its host I/O), ``w_req`` (its write request,
    the flash copy), ``w_reads`` (its page reads). In all: ``reads`` (page reads) and ``merges``
    (DRAM merges); ``t0``: the log's start (us)."""
    c_arr: np.ndarray
    c_end: np.ndarray
    c_bytes: np.ndarray
    c_write: np.ndarray
    w_start: list
    w_len: list
    w_host: list
    w_req: list
    w_reads: list
    reads: int
    merges: int
    t0: float


class _Outlasted(Exception):
    """The log writer ran past the last of the other writes drawn (draw more and run again)."""


class _LogWriter:
    """The log writer's host I/Os in one engine run: request and host I/O slots are filled as the
    writes are decided (each host I/O's requests contiguous, host I/Os in issue order) and issued
    at their start time; the fill of the log region (``fill``: first page and pages of each
    sequential write) runs first. The disk's other writes (``other``, an :class:`_OtherWrites`)
    are added at their arrival times: the engine runs up to each arrival (``Engine.step``'s
    ``until``), which is then issued."""

    def __init__(self, members, fill, max_writes, max_pages, seed, precondition, other=None):
        from flashlab.ssd.engine import Engine, Fanout

        starts, counts = fill
        nf = starts.size
        nb = 0 if other is None else other.t.size
        nreq = nf + 3 * max_writes + nb  # per write: two reads and one write, or its two copies; per other write one
        nhost = nf + max_writes + nb
        i64 = np.int64
        pages = np.ones(nreq, i64)
        pages[:nf] = counts
        lba = np.zeros(nreq, i64)
        lba[:nf] = starts
        first, n_first = np.zeros(nhost, i64), np.zeros(nhost, i64)
        first[:nf], n_first[:nf] = np.arange(nf), 1
        host = np.zeros(nreq, i64)
        host[:nf] = np.arange(nf)
        fan = Fanout(host=host, phase=np.zeros(nreq, i64), alt=np.full(nreq, -1, i64), alt_n=np.zeros(nreq, i64),
                     first=first, n_first=n_first, n_second=np.zeros(nhost, i64), rule=np.zeros(nhost, i64),
                     cache_pages=np.zeros(nhost, i64))
        arrivals = np.full(nhost, np.inf)  # not yet decided: the loop waits for them
        arrivals[:nf] = 0.0
        # a device holds one log write at a time, unless it answers from a cache or races another
        # (each copy waits only for its own device, which takes writes as they come: queue depth 32)
        qd = [DEVICE_QD if len(members) > 1 or getattr(m, "write_cache_bytes", 0) else 1 for m in members]
        self.eng = Engine(members, np.zeros(nreq, np.int8), lba, pages, np.zeros(nreq, i64), arrivals, 1, qd,
                          [-1] * len(members), [], 1, seed, fan, None, precondition, max_pages=max_pages)
        self.req, self.hosts = self.eng.requests, self.eng.hosts
        self.nr, self.nh = nf, nf
        self.last = nf - 1  # the log writer's last host I/O
        self._step(nf)
        self.start = self.eng.counters(0)  # the drive's totals when the log starts (a used drive's GC before)
        # the other writes' arrivals from the log's start (when its region is written); the next to issue
        self.other, self.b = other, 0
        self.other_t = np.zeros(0) if other is None else other.t + self.now

    @property
    def now(self) -> float:
        return float(self.eng.loop.now[0])

    def _step(self, done: int, until: float = math.inf) -> None:
        """``Engine.step``; an error, or no events left before ``done`` host I/Os are done and
        before ``until``, is a RuntimeError."""
        eng = self.eng
        if eng.step(done, until) < done and (eng.error() or until == math.inf):
            raise RuntimeError("the drive did not finish the log writer's write: "
                               f"{eng.error() or 'no events left'}")

    def _next_other(self) -> float:
        """Arrival of the next other write (inf: none); raises :class:`_Outlasted` past the last
        one drawn."""
        if self.b < self.other_t.size:
            return float(self.other_t[self.b])
        if self.other_t.size:
            raise _Outlasted
        return math.inf

    def _issue_other(self) -> None:
        o, b = self.other, self.b
        self._append(float(self.other_t[b]), [(OP_WRITE, int(o.lba[b]), o.blocks, o.dev)], 1, False)
        self.b = b + 1

    def step(self) -> None:
        """Run until the last host I/O issued is done (a mirrored write: its first copy), issuing
        the disk's other writes as their times come. Without other writes every host I/O issued
        so far is done then; with them, the engine stops at each completion (is it the log
        writer's?) and before each other write's arrival, which is issued then."""
        if self.other is None:
            self._step(self.nh)
            return
        h, done = self.last, self.hosts.done
        while math.isnan(done[h]):
            t = self._next_other()
            target = int(self.eng.loop.done[0]) + 1
            self._step(target, t)
            if int(self.eng.loop.done[0]) < target:  # stopped before the other write's arrival
                self._issue_other()

    def advance(self, to: float) -> None:
        """Process every event before ``to`` (us, not before now), issuing the other writes that
        arrive before it; nothing at ``to`` or later has happened then."""
        while (t := self._next_other()) < to:
            self._step(self.nh + 1, t)
            self._issue_other()
        self._step(self.nh + 1, to)

    def issue(self, at: float, reqs, n_first: int, any_of: bool = False) -> int:
        """Host I/O of ``reqs`` ((op, lba, pages, device) each; the first ``n_first`` in its
        first phase, the rest after them) arriving at ``at`` (not before now); returns it. The
        disk's other writes arriving by then go first."""
        while self._next_other() <= at:
            self._issue_other()
        self.last_req = self.nr
        h = self.last = self._append(at, reqs, n_first, any_of)
        return h

    def _append(self, at: float, reqs, n_first: int, any_of: bool) -> int:
        h, r = self.nh, self.nr
        req, hs = self.req, self.hosts
        for k, (op, lba, pages, dev) in enumerate(reqs):
            req.op[r + k], req.lba[r + k], req.pages[r + k], req.device[r + k], req.host[r + k] = op, lba, pages, dev, h
        hs.first[h], hs.n_first[h], hs.n_second[h] = r, n_first, len(reqs) - n_first
        hs.rule[h] = int(any_of)
        hs.arrival[h] = at
        self.nh, self.nr = h + 1, r + len(reqs)
        return h

    def finish(self) -> None:
        """Run on until the events run out (the slower copies, the cache's programs; the other
        writes arriving after the last commit are not issued)."""
        self.eng.step(self.nh + 1)


def _commits(lw, sessions, commits, think_l, size_l, block, page, log_bytes, mirror, cached):
    """The sessions and the log writer (see the module) on ``lw``'s engine until ``commits``
    commits are done; ``think_l``, ``size_l``: each session's think times and redo sizes (used
    cyclically). Returns a :class:`_Log`."""
    # The sessions' bookkeeping is plain Python (a few sessions: list operations cost less than
    # NumPy calls on tiny arrays); the same float64 arithmetic, so the same times.
    per = len(think_l[0])
    t0 = lw.now  # the log starts when its region is written
    k = [0] * sessions  # each session's commits so far
    ready = [t0 + think_l[s][0] for s in range(sessions)]  # when each session's next commit arrives
    c_arr, c_end, c_bytes, c_write = [], [], [], []
    w_start, w_len, w_host, w_req, w_reads = [], [], [], [], []
    last_writer = {}  # page -> the write request that last wrote it
    off, done, reads, merges = 0, 0, 0, 0
    durable = lw.req.durable
    while done < commits:
        start = max(lw.now, min(ready))
        grp = [s for s in range(sessions) if ready[s] <= start]
        if len(grp) > commits - done:  # the last write carries only the commits asked for
            grp = sorted(grp, key=ready.__getitem__)[:commits - done]  # stable: by arrival, then session
        nbytes = [size_l[s][k[s] % per] for s in grp]
        length = -(-sum(nbytes) // block) * block
        if off + length > log_bytes:
            off = 0  # the log wraps to its start
        first, last = off // page, (off + length - 1) // page
        j = len(w_start)
        if mirror is not None:
            d_lba = off // mirror.block_size
            d_n = -(-(off + length) // mirror.block_size) - d_lba
            h = lw.issue(start, [(OP_FUA, first, last - first + 1, 0), (OP_FUA, d_lba, d_n, 1)], 2, any_of=True)
            w_reads.append(0)
        else:
            # the pages the write starts or ends inside (one, if both ends are in the same page)
            partial = sorted({p for p, cut in ((first, off % page != 0), (last, (off + length) % page != 0)) if cut})
            if partial and cached and start > lw.now:  # is the page still in the cache when the write starts?
                lw.advance(start)
            rd = []
            for p in partial:
                w = last_writer.get(p, -1)
                if cached and w >= 0 and math.isnan(durable[w]):
                    # acknowledged, not yet on NAND: the drive merges in DRAM, inside, with no
                    # command (a read sent to the engine would find the page in its cache too, but
                    # be answered as a command, t_ack later). A read sent below is of a page whose
                    # last log write is durable, which the engine does not find in its cache, or
                    # of the region's fill (programmed in order, as a rule long before the log
                    # reaches it; a fill page still in the cache would be answered from it)
                    merges += 1
                else:
                    rd.append((OP_READ, p, 1, 0))
            reads += len(rd)
            w_reads.append(len(rd))
            h = lw.issue(start, rd + [(OP_FUA, first, last - first + 1, 0)], len(rd))
            for p in range(first, last + 1):
                last_writer[p] = lw.last_req + len(rd)
        lw.step()
        end = float(lw.hosts.done[h])
        for s, b in zip(grp, nbytes):
            c_arr.append(ready[s])
            c_bytes.append(b)
            k[s] += 1
            ready[s] = end + think_l[s][k[s] % per]
        c_end.extend([end] * len(grp))
        c_write.extend([j] * len(grp))
        w_start.append(start)
        w_len.append(length)
        w_host.append(h)
        w_req.append(lw.last_req + w_reads[-1])  # its write (the flash copy), after its reads
        done += len(grp)
        off += length
    return _Log(np.asarray(c_arr), np.asarray(c_end), np.asarray(c_bytes, np.int64), np.asarray(c_write, np.int64),
                w_start, w_len, w_host, w_req, w_reads, reads, merges, t0)


def redo_log(config=None, *, sessions: int = 8, commits: int = 2000, redo_bytes: int = 2048,
             redo_block: int = 512, think_us: float = 200.0, mirror=None, disk_writes_per_s: float = 0.0,
             precondition_fills: float = 0.0, seed: int = 0) -> RedoResult:
    """Time ``commits`` commits of ``sessions`` sessions through the log writer (see the module).

    ``sessions`` 1..4096; ``commits`` 1..100,000; ``redo_bytes``: mean redo per commit,
    1..2**20; ``redo_block``: 512, 1024 or 4096 bytes; ``think_us``: mean think time,
    0..1e7; ``config``: SsdConfig (default ``SsdConfig()``), the log the first half of its user
    capacity (written once, timed, before the first commit), or an HddSpec, the log its first
    GiB (disks keep no page state: no fill first). ``mirror``: None, or an HddSpec holding a
    second copy of the log (smart flash logging, see the module). ``disk_writes_per_s``
    0..1e5: other writes to the log's disk, needs one (the database writer's data-file blocks on
    the same spindle and controller cache): :data:`DISK_WRITE_BYTES` each at a uniform random
    place beyond the log, Poisson arrivals at this rate from the log's start.
    ``precondition_fills`` 0..100: 0 a fresh drive (its log region written first, timed); more, a
    used drive in steady state (written whole, then this many drive fills of random writes,
    untimed; see the module), which needs a flash drive as config; with a ``mirror`` it replaces
    the default :data:`MIRROR_PRECONDITION`."""
    from flashlab.device.hdd import HddSpec

    on_disk = isinstance(config, HddSpec)
    config = config if on_disk else drive(config)
    if mirror is not None:
        check_instance("mirror", mirror, HddSpec)
        if on_disk:
            raise ValueError(f"mirror: a second copy of the log needs a flash drive as config; got config={config.name!r}")
    check_seed("seed", seed)
    sessions = check_int("sessions", sessions, 1, 4096)
    commits = check_int("commits", commits, 1, MAX_COMMITS)
    redo_bytes = check_int("redo_bytes", redo_bytes, 1, MAX_REDO_BYTES)
    block = check_choice("redo_block", redo_block, REDO_BLOCKS)
    think_us = check_real("think_us", think_us, 0.0, 1e7)
    disk_writes_per_s = check_real("disk_writes_per_s", disk_writes_per_s, 0.0, 1e5)
    precondition_fills = check_real("precondition_fills", precondition_fills, 0.0, 100.0)
    if precondition_fills > 0 and on_disk:
        raise ValueError(f"precondition_fills: a used drive needs a flash drive as config (a disk keeps no page "
                         f"state); got {precondition_fills} with config={config.name!r}")
    if precondition_fills == 0 and mirror is not None:
        precondition_fills = MIRROR_PRECONDITION
    disk = config if on_disk else mirror
    if disk_writes_per_s > 0 and disk is None:
        raise ValueError(f"disk_writes_per_s: other writes to the log's disk need a disk (an HddSpec as config or "
                         f"mirror); got {disk_writes_per_s} with neither")
    page = config.block_size if on_disk else config.geometry.page_size
    if mirror is not None and block != page:
        raise ValueError(f"redo_block must be the drive's page size ({page} bytes) with a mirror (the flash copy is "
                         f"written in whole pages); got {block}")
    log_pages = min(DISK_LOG_BYTES, config.capacity_bytes) // page if on_disk else region_pages(config, 0.5)
    log_bytes = log_pages * page
    if sessions * (MAX_REDO_BYTES + block) > log_bytes:
        raise ValueError(f"sessions: {sessions} sessions' largest group of redo must fit the log of {log_bytes} bytes "
                         f"(half the drive); at most {log_bytes // (MAX_REDO_BYTES + block)} sessions on this drive")
    rng = np.random.default_rng(np.random.SeedSequence([seed, 12, 3]))
    per = 2 * -(-commits // sessions) + 16  # draws per session (reused cyclically beyond)
    think = rng.exponential(think_us, (sessions, per)) if think_us > 0 else np.zeros((sessions, per))
    mu = math.log(redo_bytes) - _SIGMA**2 / 2
    size = np.clip(np.rint(rng.lognormal(mu, _SIGMA, (sessions, per))), 1, MAX_REDO_BYTES).astype(np.int64)
    # the largest write: every session's largest commit at once, in pages touched
    max_pages = -(-(int(size.max(axis=1).sum()) + block) // page) + 1
    if disk is not None and disk.write_cache_bytes:
        largest = -(-(int(size.max(axis=1).sum()) + 2 * block) // disk.block_size) + 1
        if max(largest, -(-DISK_WRITE_BYTES // disk.block_size) if disk_writes_per_s else 0) > disk.write_cache_blocks:
            raise ValueError(f"write_cache_bytes: the disk's controller cache ({disk.write_cache_bytes} bytes) must "
                             f"hold the largest log write ({largest} blocks of {disk.block_size} bytes); use a larger "
                             f"cache, fewer sessions or less redo_bytes")
    other = None
    if disk_writes_per_s > 0:
        # a first draw of arrivals for commits averaging 20 ms; a log that outlasts them runs again with more
        # (see MAX_OTHER_DRAWS)
        horizon = (commits / sessions + 1) * (think_us + 20_000.0)
        other = _OtherWrites(disk, disk_writes_per_s, 0 if on_disk else 1,
                             int(horizon * disk_writes_per_s / 1e6 * 1.2) + 16, seed)
    if on_disk or precondition_fills > 0:  # a used drive's log region is written already
        fill = (np.zeros(0, np.int64), np.zeros(0, np.int64))
    else:
        starts = np.arange(0, log_pages, FILL_PAGES, dtype=np.int64)
        fill = (starts, np.minimum(FILL_PAGES, log_pages - starts))
    members = [config] if mirror is None else [config, mirror]
    # the largest request to the flash drive (a disk takes one queue entry per request, whatever its size)
    largest_request = max(max_pages, FILL_PAGES)
    while True:
        lw = _LogWriter(members, fill, commits, largest_request, seed, precondition_fills, other)
        try:
            log = _commits(lw, sessions, commits, think.tolist(), size.tolist(), block, page, log_bytes, mirror,
                           not on_disk and config.cache_bytes > 0)
            break
        except _Outlasted:
            if other.t.size >= MAX_OTHER_DRAWS * other.first:
                raise ValueError(f"disk_writes_per_s: {disk_writes_per_s:g} data-file writes a second overload the "
                                 f"log's disk: {commits} commits outlasted {other.t.size} of them "
                                 f"({other.t[-1] / 1e6:.1f} s); use a lower rate, fewer commits or a controller "
                                 f"cache") from None
            other.draw(other.t.size)  # twice as many: the first ones are kept, so the run is the same up to there
    req, t0 = lw.req, log.t0
    lw.finish()
    hosts = np.asarray(log.w_host)
    flash_first, copy_us = float("nan"), None
    if mirror is not None:
        fr = np.asarray(log.w_req)
        flash_first = float((req.done[fr] <= req.done[fr + 1]).mean())
        copy_us = np.stack((req.done[fr], req.done[fr + 1]), axis=1) - np.asarray(log.w_start)[:, None]
    lat = log.c_end - log.c_arr
    pages_written = int(sum(req.pages[r] for r in log.w_req))
    end = lw.eng.counters(0)
    return RedoResult(commit_us=lat, commit_arrival_us=log.c_arr - t0, commit_bytes=log.c_bytes,
                      commit_write=log.c_write, write_start_us=np.asarray(log.w_start) - t0,
                      write_bytes=np.asarray(log.w_len, np.int64), write_reads=np.asarray(log.w_reads, np.int64),
                      write_us=lw.hosts.done[hosts] - lw.hosts.arrival[hosts], elapsed_us=float(log.c_end.max() - t0),
                      commit_latency=latency_summary(lat), rmw_reads=log.reads, dram_merges=log.merges,
                      pages_written=pages_written, gc_copies=end["gc_copies"] - lw.start["gc_copies"],
                      erases=end["erases"] - lw.start["erases"],
                      flash_first=flash_first, copy_us=copy_us)
