"""The redo log: committing sessions, group commit by the log writer, and the redo block size.

**Sessions.** ``sessions`` sessions each loop: think (exponential, mean ``think_us``), generate
redo (lognormal bytes with mean ``redo_bytes`` and sigma 1, so most commits are small and a few
are large, capped at 1 MiB, the log buffer's flush threshold), commit and wait until the log
writer has written their redo (``log file sync``).

**Group commit.** The log writer (LGWR) does one write at a time: when it is idle and redo is
waiting, it writes all of it in one write, rounded up to whole redo blocks, at the current log
position (the next write starts on the next redo block). Commits that arrive while it writes
wait for the next write, so slower writes make larger groups.

**Redo block against drive page.** The log is a region of the drive that was written before
(log files are reused). With a redo block smaller than the drive's page (Oracle's default 512 B
against a 4 KiB page), a write that starts or ends inside a page must keep the rest of that
page: the drive reads the page and writes it back whole (read-modify-write). Consecutive
writes share a page, so nearly every write pays at least one page read before its program. A
4 KiB redo block keeps every write page-aligned (padding the last block instead). Here the read
is a host-visible read request issued before the write, in the same serial chain.

**Durable writes.** The log writer's writes are FUA writes: a commit is done only when its
redo is durable. Without a write cache that is every write; with a cache protected by
capacitors a FUA write is acknowledged from the cache; with an unprotected cache it goes
through to NAND and pads the rest of its NAND page (see :class:`flashlab.ssd.SsdConfig`).

**Timing feedback, simplified.** Group sizes depend on write times and write times on group
sizes. The drive is timed by the engine with the log writer's chain of requests at queue depth
one (its requests run back to back); the group commit is replayed in Python with the write
times of the previous engine run, and the two alternate until the chain of writes no longer
changes (``converged``: the result is then self-consistent) or ``iterations`` runs are spent.
The first replay assumes each write takes one mean program plus its reads.

**Smart flash logging.** With ``mirror`` (a hard disk, :class:`flashlab.device.hdd.HddSpec`),
every log write goes to the disk's log and to the flash drive at once, and the commits it
carries are done when the first copy is (Exadata's smart flash logging). The slower copy still
runs: the next write to that device waits behind it. The flash copy is written in whole pages
(``redo_block`` must be the drive's page size), the disk copy in its blocks.

Guy Harrison measured on Exadata X2 that a 4 KiB redo block instead of 512 B cut the elapsed
time of a redo-heavy test by 70%; with smart flash logging on, the median log file sync rose
from 481 to 500 us (the flash won 3.8% of the writes). Times in microseconds, sizes in bytes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from flashlab._validate import check_choice, check_instance, check_int, check_real, check_seed
from flashlab.db._host import drive, latency_summary, region_pages, run_filled
from flashlab.ssd import OP_FUA

REDO_BLOCKS = (512, 1024, 2048, 4096)
DISK_LOG_BYTES = 1 << 30  # a log on a hard disk: its first GiB
MAX_REDO_BYTES = 1 << 20  # a commit's redo is capped at the log buffer's flush threshold
_SIGMA = 1.0
#: Smart flash logging races two devices from the first commit, so the flash must start in the
#: state it keeps: written whole (the log has gone round before), plus this share of a drive fill
#: of random writes, untimed (a timed fill would leave programs and GC of its own in flight).
MIRROR_PRECONDITION = 0.01


@dataclass(frozen=True)
class RedoResult:
    """Outcome of :func:`redo_log`. Per commit: ``commit_us`` (log file sync time). Per log
    writer write: ``write_bytes`` and ``write_us`` (its reads and its program, back to back).
    ``elapsed_us``: from the start to the last commit's end; ``commit_latency``: p50, p99,
    p99.9, mean, max (us); ``rmw_reads``: page reads the writes needed; ``pages_written``;
    ``converged`` and ``iterations`` of the timing feedback (not converged: the commit times
    come from the last replay, timed with the writes of the engine run before it).
    ``flash_first``: with a ``mirror``, the share of log writes whose flash copy finished first
    (NaN without)."""

    commit_us: np.ndarray
    write_bytes: np.ndarray
    write_us: np.ndarray
    elapsed_us: float
    commit_latency: dict
    rmw_reads: int
    pages_written: int
    converged: bool
    iterations: int
    flash_first: float = float("nan")


def _group_commit(think, size, commits, block, log_bytes, duration):
    """Replay the sessions and the log writer; ``duration(j, off, length)`` times write
    ``j``. Returns write offsets and lengths (bytes), commit latencies and the end time."""
    sessions, per = think.shape
    k = np.zeros(sessions, np.int64)
    ready = think[:, 0].copy()  # when each session's next commit arrives
    offs, lens, lat = [], [], []
    off, t_free, done, j = 0, 0.0, 0, 0
    while done < commits:
        start = max(t_free, float(ready.min()))
        grp = np.nonzero(ready <= start)[0]
        nbytes = int(size[grp, k[grp] % per].sum())
        length = -(-nbytes // block) * block
        if off + length > log_bytes:
            off = 0  # the log wraps to its start
        t_free = start + duration(j, off, length)
        offs.append(off)
        lens.append(length)
        lat.append(t_free - ready[grp])
        done += grp.size
        k[grp] += 1
        ready[grp] = t_free + think[grp, k[grp] % per]
        off += length
        j += 1
    return np.asarray(offs, np.int64), np.asarray(lens, np.int64), np.concatenate(lat)[:commits], t_free


def _chain(offs, lens, page):
    """The drive requests of the writes: read the partial first and last pages, then write all
    pages the write touches. Returns op, lba, pages and the write each request belongs to."""
    first, last = offs // page, (offs + lens - 1) // page
    head = offs % page != 0
    tail = ((offs + lens) % page != 0) & ~(head & (first == last))
    n = offs.size
    op = np.concatenate((np.ones(n, np.int8), np.ones(n, np.int8), np.full(n, OP_FUA, np.int8)))
    lba = np.concatenate((first, last, first))
    pages = np.concatenate((np.ones(n, np.int64), np.ones(n, np.int64), last - first + 1))
    keep = np.concatenate((head, tail, np.ones(n, bool)))
    write = np.tile(np.arange(n), 3)
    order = np.lexsort((np.repeat(np.arange(3), n), write))  # per write: head read, tail read, write
    order = order[keep[order]]
    return op[order], lba[order], pages[order], write[order]


def redo_log(config=None, *, sessions: int = 8, commits: int = 2000, redo_bytes: int = 2048,
             redo_block: int = 512, think_us: float = 200.0, iterations: int = 16, mirror=None,
             seed: int = 0) -> RedoResult:
    """Time ``commits`` commits of ``sessions`` sessions through the log writer (see the module).

    ``sessions`` 1..4096; ``commits`` 1..10**6; ``redo_bytes``: mean redo per commit, 1..2**20;
    ``redo_block``: 512, 1024, 2048 or 4096 bytes; ``think_us``: mean think time, 0..1e7;
    ``iterations``: engine runs at most, 1..50; ``config``: SsdConfig (default ``SsdConfig()``),
    the log the first half of its user capacity, or an HddSpec, the log its first GiB (disks keep
    no page state: no fill first). ``mirror``: None, or an HddSpec holding a
    second copy of the log (smart flash logging, see the module)."""
    from flashlab.device.hdd import HddSpec

    on_disk = isinstance(config, HddSpec)
    config = config if on_disk else drive(config)
    if mirror is not None:
        check_instance("mirror", mirror, HddSpec)
        if on_disk:
            raise ValueError(f"mirror: a second copy of the log needs a flash drive as config; got config={config.name!r}")
    check_seed("seed", seed)
    sessions = check_int("sessions", sessions, 1, 4096)
    commits = check_int("commits", commits, 1, 10**6)
    redo_bytes = check_int("redo_bytes", redo_bytes, 1, MAX_REDO_BYTES)
    block = check_choice("redo_block", redo_block, REDO_BLOCKS)
    think_us = check_real("think_us", think_us, 0.0, 1e7)
    iterations = check_int("iterations", iterations, 1, 50)
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
    def guess(off, length):
        if on_disk:  # half a revolution
            return 30e6 / config.rpm
        tm = config.timing
        return tm.mean_prog_us + tm.mean_read_us * (int(off % page != 0) + int((off + length) % page != 0))

    measured = np.zeros(0)
    prev = None
    converged = False
    for it in range(1, iterations + 1):
        def duration(j, off, length, measured=measured):
            return measured[j] if j < measured.size else guess(off, length)

        offs, lens, lat, end = _group_commit(think, size, commits, block, log_bytes, duration)
        if prev is not None and np.array_equal(offs, prev[0]) and np.array_equal(lens, prev[1]):
            converged = True
            break
        op, lba, pages, write = _chain(offs, lens, page)
        if mirror is None:
            arrival, done, _ = run_filled(config, op, lba, pages, fill_pages=0 if on_disk else log_pages, qd=1,
                                          seed=seed)
            measured = np.bincount(write, weights=done - arrival, minlength=offs.size)
        else:  # per log write: its flash copy (a page-aligned write), then its disk copy, done at the first
            disk_lba, disk_n = offs // mirror.block_size, -(-(offs + lens) // mirror.block_size) - offs // mirror.block_size
            def both(a, b):
                return np.stack((a, b), axis=1).ravel()
            arrival, done, _ = run_filled(config, both(op, op), both(lba, disk_lba), both(pages, disk_n),
                                          fill_pages=log_pages, qd=1, seed=seed, others=(mirror,),
                                          device=np.tile([0, 1], offs.size), host=np.repeat(write, 2),
                                          any_of=np.ones(offs.size, bool), precondition_fills=MIRROR_PRECONDITION)
            done = done.reshape(-1, 2)
            measured = done.min(axis=1) - arrival[::2]
            flash_first = float((done[:, 0] <= done[:, 1]).mean())
        prev = (offs, lens, op, pages)
    op, pages = prev[2], prev[3]
    return RedoResult(commit_us=lat, write_bytes=lens, write_us=measured[:offs.size], elapsed_us=float(end),
                      commit_latency=latency_summary(lat), rmw_reads=int((op == 1).sum()),
                      pages_written=int(pages[op == OP_FUA].sum()), converged=converged, iterations=it,
                      flash_first=float("nan") if mirror is None else flash_first)
