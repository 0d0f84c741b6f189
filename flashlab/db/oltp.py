"""OLTP behind a buffer pool: free buffer waits, and a write-back flash cache against a
write-through one.

**Sessions and the buffer pool.** ``sessions`` sessions each loop: access a random block of
``blocks`` 8 KiB blocks (uniform), then spend ``cpu_us`` of CPU. A block already in one of the
pool's ``buffers`` buffers is a hit. A miss needs a buffer: an empty one, or else a clean one
(chosen at random; its block leaves the pool). A block another session is reading, or waiting
to read, is passed over for the next one. If every buffer is dirty or being read, the
session waits until the database writer cleans one (a *free buffer wait*), then reads the
block. With probability ``modify`` an access modifies its block: a clean buffer becomes dirty.

**The database writer (DBWR)** writes dirty buffers asynchronously, oldest first, keeping up
to ``dbwr_depth`` writes in flight; a written buffer becomes clean (replaceable). Counting:
every change of a buffer from clean to dirty costs exactly one write; further changes to a
buffer already waiting for its write are *coalesced* into it (no extra write), and a change
while its write is in flight costs one more write after that one completes.

**Storage.** The data lives on ``disks`` hard disks (block ``b`` on disk ``b % disks``) with a
flash cache of ``flash_drives`` flash drives in front. Each block is in the flash cache at the
start with probability ``flash_hit``, and every block written is in it afterwards (both
policies write the flash copy). A read of a cached block is served by flash, otherwise by its
disk. A write goes to the flash unit that is idle first and is complete

* **write-through** (Exadata X2): when its disk write has completed as well;
* **write-back** (Exadata X3 storage software 11.2.3.2): when its flash write has completed.

**What this event model is, and leaves out.** The engine (:func:`flashlab.ssd.run_members`)
times a fixed list of requests; here the next request depends on when buffers come free, so
the pool runs in its own event loop (:func:`flashlab.db._kernels.run_oltp`, one clock for all
devices), with service times from the device models: a disk access (``disk``, an ``HddSpec``)
seeks over the distance between two independent uniform positions on the square-root seek
curve, waits a uniform share of a revolution and transfers 8 KiB at the zone's media rate; a
flash access (``flash``, an ``SsdConfig``) takes the NAND read (program) time averaged over page
types, once per group of planes the block spans, plus the channel transfer of the block. Each
disk and each flash die (``channels x dies_per_channel`` per drive) serves its requests one at a
time in arrival order. Left out: the drives' FTL and garbage collection, channel contention,
disk queue reordering and head position carried between accesses, the flash cache's size and
evictions, and write-back's destaging of dirty flash blocks to disk (the flash cache is taken
to hold every block written during the run; a workload whose dirty blocks do not fit the flash
would be bound again by the disks' write rate), redo, checkpoints and the LRU order of a real
pool. Throughput is measured after the first quarter of the accesses (the pool fills and its
dirty share settles).

Guy Harrison on Exadata X2: flash sped reads up "by a factor of perhaps 4-10" but not writes,
so a write-intensive workload waited on free buffers; write-back removed those waits and
throughput rose four-fold. Times in microseconds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from flashlab._heap import new_heap
from flashlab._validate import check_bool, check_instance, check_int, check_real, check_seed
from flashlab.db import _kernels as K
from flashlab.db._host import latency_summary
from flashlab.ssd import SsdConfig

BLOCK_BYTES = 8192  # an Oracle block
STATES = ("free", "clean", "dirty", "reading")


@dataclass(frozen=True)
class OltpResult:
    """Outcome of :func:`oltp`.

    ``write_back``; ``elapsed_us`` (first access to last access done); ``accesses_per_s``: block
    accesses (logical reads) per second after the first quarter of them; ``hits``,
    ``flash_reads``, ``disk_reads`` (physical reads from each); ``free_buffer_waits`` (misses
    that found no free buffer), ``free_buffer_wait_us`` (their total wait) and
    ``wait_share`` (that total over ``sessions x elapsed_us``); ``read_latency`` (physical
    reads) and ``write_latency`` (DBWR writes): p50, p99, p99.9, max, mean (us).
    Writes: ``dirtyings`` (changes that need a write), ``coalesced`` (changes carried by a write
    already due), ``writes`` (completed) and ``pending_writes`` (still due at the end, in flight
    or queued): ``dirtyings == writes + pending_writes``. ``sample_us`` and ``states`` (a dict
    of arrays: ``free``, ``clean``, ``dirty``, ``reading`` buffers; they sum to ``buffers``) and
    ``sample_wait_us`` (cumulative free-buffer wait) over time."""

    write_back: bool
    elapsed_us: float
    accesses_per_s: float
    hits: int
    flash_reads: int
    disk_reads: int
    free_buffer_waits: int
    free_buffer_wait_us: float
    wait_share: float
    read_latency: dict
    write_latency: dict
    dirtyings: int
    coalesced: int
    writes: int
    pending_writes: int
    sample_us: np.ndarray
    states: dict
    sample_wait_us: np.ndarray


def flash_service_us(config) -> tuple[float, float]:
    """(read, write) time of one 8 KiB block on one die of ``config`` (us): the mean NAND read
    (program) time once per group of planes the block's pages span, plus the channel transfer."""
    g, tm = config.geometry, config.timing
    pages = -(-BLOCK_BYTES // g.page_size)
    ops = -(-pages // g.planes_per_die)
    xfer = pages * g.page_size / tm.channel_mb_s
    return ops * tm.mean_read_us + xfer, ops * tm.mean_prog_us + xfer


def disk_service_us(spec, n: int, rng) -> np.ndarray:
    """``n`` random 8 KiB access times of the disk ``spec`` (us): square-root seek over the
    distance of two independent uniform positions, a uniform share of a revolution, the transfer
    at the zone rate of the target (outer edge at LBA 0)."""
    x, h, r = rng.random(n), rng.random(n), rng.random(n)
    seek = spec.seek_track_ms * 1e3 + spec.seek_coef_us * np.sqrt(np.abs(x - h))
    rate = spec.transfer_outer_mb_s - (spec.transfer_outer_mb_s - spec.transfer_inner_mb_s) * x
    return seek + r * spec.revolution_us + BLOCK_BYTES / rate


def oltp(*, write_back: bool = False, sessions: int = 32, accesses: int = 20000, blocks: int = 20000,
         buffers: int = 2000, modify: float = 0.5, flash_hit: float = 0.9, cpu_us: float = 50.0,
         dbwr_depth: int = 64, disks: int = 12, flash_drives: int = 4, disk=None, flash=None, samples: int | None = None,
         seed: int = 0) -> OltpResult:
    """Run ``accesses`` block accesses of ``sessions`` sessions through a pool of ``buffers``
    buffers over flash-cached disks (see the module).

    ``write_back``: True or False; ``sessions`` 1..4096; ``accesses`` 1..10**7; ``blocks``
    2..10**7 (``buffers + sessions`` < ``blocks``); ``buffers`` 1..10**6; ``modify`` and ``flash_hit``
    in [0, 1]; ``cpu_us`` in [0, 1e6]; ``dbwr_depth`` 1..4096; ``disks`` 1..1024;
    ``flash_drives`` 1..256; ``disk``: ``HddSpec`` (default Cheetah 15K.7); ``flash``:
    ``SsdConfig`` (default ``SsdConfig()``); ``samples`` 1..10**5 (buffer-state samples, at
    most ``accesses``; default ``min(200, accesses)``)."""
    from flashlab.device.hdd import CHEETAH_15K7, HddSpec

    write_back = check_bool("write_back", write_back)
    sessions = check_int("sessions", sessions, 1, 4096)
    accesses = check_int("accesses", accesses, 1, 10**7)
    buffers = check_int("buffers", buffers, 1, 10**6)
    blocks = check_int("blocks", blocks, 2, 10**7)
    if buffers + sessions >= blocks:
        raise ValueError(f"buffers must be fewer than blocks - sessions ({blocks - sessions}); got {buffers}")
    modify = check_real("modify", modify, 0.0, 1.0)
    flash_hit = check_real("flash_hit", flash_hit, 0.0, 1.0)
    cpu_us = check_real("cpu_us", cpu_us, 0.0, 1e6)
    dbwr_depth = check_int("dbwr_depth", dbwr_depth, 1, 4096)
    disks = check_int("disks", disks, 1, 1024)
    flash_drives = check_int("flash_drives", flash_drives, 1, 256)
    disk = CHEETAH_15K7 if disk is None else check_instance("disk", disk, HddSpec)
    flash = SsdConfig() if flash is None else check_instance("flash", flash, SsdConfig)
    if samples is None:
        samples = min(200, accesses)
    else:
        samples = check_int("samples", samples, 1, 10**5)
        if samples > accesses:
            raise ValueError(f"samples must not exceed accesses ({accesses}); got samples={samples}, "
                             f"accesses={accesses}")
    check_seed("seed", seed)

    rng = np.random.default_rng(np.random.SeedSequence([seed, 12, 5]))
    block = rng.integers(0, blocks, accesses, dtype=np.int64)
    mod = rng.random(accesses) < modify
    pick = rng.random(accesses)
    in_flash = rng.random(blocks) < flash_hit
    disk_read = disk_service_us(disk, accesses, rng)
    disk_write = disk_service_us(disk, accesses, rng)
    f_read, f_write = flash_service_us(flash)
    units = flash_drives * flash.geometry.channels * flash.geometry.dies_per_channel

    def ints(size, fill=0):
        return np.full(size, fill, np.int64)

    def one(v=0):
        return np.array([v], np.int64)

    p = K.Pool(
        block=block, modify=mod, pick=pick, in_flash=in_flash, block_buf=ints(blocks, -1), buf_block=ints(buffers, -1),
        state=np.zeros(buffers, np.int8), writing=np.zeros(buffers, bool), redirty=np.zeros(buffers, bool),
        write_start=np.zeros(buffers), free=np.arange(buffers, dtype=np.int64)[::-1].copy(), avail=ints(buffers),
        avail_pos=ints(buffers, -1), dq=ints(buffers), wq=ints(sessions), sess_acc=ints(sessions),
        sess_block=ints(sessions), sess_t=np.zeros(sessions), disk_free=np.zeros(disks), flash_free=np.zeros(units),
        disk_read_us=disk_read, disk_write_us=disk_write, flash_read_us=np.array([f_read]),
        flash_write_us=np.array([f_write]), cpu_us=np.array([cpu_us]), write_back=np.array([write_back]),
        depth=one(dbwr_depth), stride=one(max(1, accesses // samples)),
        heap=new_heap(sessions + dbwr_depth, 4 * max(sessions, buffers)), read_lat=np.zeros(accesses), write_lat=np.zeros(accesses),
        done_t=np.zeros(accesses), s_time=np.zeros(samples), s_state=np.zeros((4, samples), np.int64),
        s_wait=np.zeros(samples), count=np.array([buffers, 0, 0, 0], np.int64), reads_done=one(), next_acc=one(),
        done=one(), hits=one(), disk_reads=one(), flash_reads=one(), waits=one(), wait_us=np.zeros(1),
        dirtyings=one(), coalesced=one(), writes_issued=one(), writes_done=one(), inflight=one(),
        free_n=one(buffers), avail_n=one(), dq_head=one(), dq_len=one(), wq_head=one(), wq_len=one(),
        samples=one(), error=one())
    K.run_oltp(p)
    if p.error[0]:
        raise RuntimeError(f"the OLTP event loop failed (error {p.error[0]}: 1 events ran out, 2 an event "
                           "scheduled twice) before every access finished")
    done_t = p.done_t
    elapsed = float(done_t[-1])
    k0 = accesses // 4
    span = done_t[-1] - done_t[k0]
    rate = (accesses - 1 - k0) / span * 1e6 if span > 0 else math.nan
    ns = int(p.samples[0])
    writes = int(p.writes_done[0])
    pending = int(p.count[K.DIRTY] + p.redirty.sum())
    wait_us = float(p.wait_us[0])
    return OltpResult(
        write_back=write_back, elapsed_us=elapsed, accesses_per_s=float(rate), hits=int(p.hits[0]),
        flash_reads=int(p.flash_reads[0]), disk_reads=int(p.disk_reads[0]), free_buffer_waits=int(p.waits[0]),
        free_buffer_wait_us=wait_us, wait_share=wait_us / (sessions * elapsed) if elapsed > 0 else 0.0,
        read_latency=latency_summary(p.read_lat[:p.reads_done[0]]), write_latency=latency_summary(p.write_lat[:writes]),
        dirtyings=int(p.dirtyings[0]), coalesced=int(p.coalesced[0]), writes=writes, pending_writes=pending,
        sample_us=p.s_time[:ns].copy(), states={name: p.s_state[i, :ns].copy() for i, name in enumerate(STATES)},
        sample_wait_us=p.s_wait[:ns].copy())
