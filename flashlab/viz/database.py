"""Explorables for the chapter on databases on flash (:mod:`flashlab.db` on :mod:`flashlab.ssd`).

* :func:`benchmark_mix`: rwmixread x write size -> read IOPS of fio's ``rwmixread`` loop, its
  Little's-law prediction, reads alone, and reads beside rate-limited writes (with their p99).
* :func:`scan_parallelism`: multiblock read size -> full-scan time against the degree of
  parallelism, beside the curve of the largest reads.
* :func:`redo_block_size`: sessions x mean redo per commit -> log-scale histograms of the commit
  time (log file sync) with a 512 B and a 4 KiB redo block, elapsed time and read-modify-writes.
* :func:`smart_flash_logging`: sessions x the disk controller's write cache -> commit-time histograms of redo on a 15k
  rpm disk (behind a battery-backed cache it shares with data-file writes) alone and on the disk
  and flash at once (each commit done at the first copy).
* :func:`flush_page_size`: NAND page size x power-loss protection x flush cadence -> flash-write
  factor, write acknowledgement, commit and time until the data is on NAND.
* :func:`temp_tablespace`: concurrent sorts x I/O size -> time to write the sort runs and to
  merge them, on the flash drive and on a 15k rpm disk.
* :func:`write_back_cache`: share of accesses that modify x buffer pool size -> OLTP throughput
  and free-buffer-wait share with a write-through and a write-back flash cache, and the dirty
  share of the pool over time (:func:`flashlab.db.oltp`, its own event model).

Each function returns an :class:`~flashlab.viz.explorable.Explorable`. The drives are small
(:data:`DEVICE_BYTES` of user data, 16 planes; the scan and redo explorables smaller still,
:data:`SCAN_DEVICE_BYTES` and :data:`REDO_DEVICE_BYTES`, since every engine run first fills the
region it reads) so that a live point answers in about 100 ms; per plane they are the full-size
drive (same channels, planes and timing), with fewer blocks.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import numpy as np
from bokeh.models import ColumnDataSource, FactorRange, Range1d

from ..db import direct_path_scan, flushed_writes, littles_law_read_iops, oltp, redo_log, rwmix, streams, temp_sort
from .._validate import check_choice
from ..device.hdd import CHEETAH_15K7
from ..drives import F20
from ..ssd import SsdConfig, ssd_geometry, supported_percentile
from .explorable import Control, Explorable
from .ssd import log_bins, log_histogram_columns, overlaid_log_histograms
from .style import PALETTE, label_ticks, legend_below, new_figure, summary_column, summary_html

#: User capacity of the chapter's drives (bytes) and their pages per (plane) block.
DEVICE_BYTES = 128 * 2**20
PAGES_PER_BLOCK = 32


@lru_cache(maxsize=8)
def db_config(timing: str = "mlc", suspend: bool = False, user_bytes: int = DEVICE_BYTES) -> SsdConfig:
    """The chapter's drive: ``user_bytes`` of user data at op 0.25, 4 channels x 2 dies x 2
    planes of 4 KiB pages, the named NAND timing preset, program/erase suspension on or off."""
    return SsdConfig(geometry=ssd_geometry(user_bytes, 0.25, pages_per_block=PAGES_PER_BLOCK), timing=timing,
                     suspend=suspend)


# =============================================================================== fio rwmixread
MIX_READS = (50, 70, 90)
MIX_WRITE_KIB = (4, 64, 256)
MIX_REQUESTS = 3000
MIX_QD = 32


@lru_cache(maxsize=64)
def mix_point(rwmixread: int, write_kib: int, seed: int = 0):
    """(rwmix result, reads-alone result, streams result): fio ``randrw`` at ``rwmixread`` with
    4 KiB reads and ``write_kib`` writes at qd 32; 4 KiB reads alone at qd 32; Poisson reads
    at half the reads-alone IOPS beside Poisson writes at half the mix's write IOPS (enough
    requests for about 100 writes, 3,000 to 60,000)."""
    cfg = db_config()
    mix = rwmix(cfg, rwmixread=rwmixread, qd=MIX_QD, write_size=write_kib * 1024, requests=MIX_REQUESTS, seed=seed)
    alone = rwmix(cfg, rwmixread=100, qd=MIX_QD, requests=MIX_REQUESTS, seed=seed)
    rate = 0.5 * alone.read_iops
    wrate = 0.5 * mix.write_iops
    n = int(np.clip(100 * (rate + wrate) / wrate, MIX_REQUESTS, 60000))
    both = streams(cfg, read_iops=rate, write_iops=wrate, write_size=write_kib * 1024, requests=n, seed=seed)
    return mix, alone, both


def benchmark_mix(seed: int = 0) -> Explorable:
    """rwmixread x write size -> read IOPS: fio's mix, Little's law, reads alone, reads beside
    rate-limited writes."""
    labels = ["rwmixread loop", "Little's law", "reads alone", "beside capped writes"]

    def compute(rwmixread, write_kib):
        mix, alone, both = mix_point(rwmixread, write_kib, seed)
        r = rwmixread / 100
        little = littles_law_read_iops(MIX_QD, r, mix.read_latency["mean"], mix.write_latency["mean"])
        iops = [mix.read_iops, little, alone.read_iops, both.read_iops]
        return {
            "bars": {"x": labels, "iops": np.array(iops) / 1e3, "colour": [PALETTE[3], PALETTE[7], PALETTE[0], PALETTE[2]]},
            "summary": summary_html(
                f"fio <code>randrw</code>, <b>rwmixread={rwmixread}</b>, 4 KiB reads and <b>{write_kib} KiB writes</b> at "
                f"qd {MIX_QD}: {mix.read_iops:,.0f} reads/s and {mix.write_iops:,.0f} writes/s (ratio "
                f"{mix.read_iops / mix.write_iops:.2f}); read p99 {mix.read_latency['p99'] / 1e3:.2f} ms. "
                f"Reads alone: {alone.read_iops:,.0f}/s. Reads offered at {0.5 * alone.read_iops:,.0f}/s beside writes "
                f"offered at half the mix's, {0.5 * mix.write_iops:,.0f}/s (rate_iops): {both.read_iops:,.0f} reads/s and "
                f"{both.write_iops:,.0f} writes/s carried, read p99 <b>{both.read_latency['p99'] / 1e3:.2f} ms</b>."),
        }

    def figure(data):
        src = ColumnDataSource(data["bars"])
        p = new_figure("Read IOPS: bound to the writes, or free", "", "read IOPS (thousands)", height=320,
                       x_range=FactorRange(*labels), tooltips=[("", "@x"), ("read IOPS (k)", "@iops{0.0}")])
        p.vbar(x="x", top="iops", width=0.7, color="colour", source=src)
        p.y_range.start = 0
        p.xaxis.major_label_orientation = 0.3
        return summary_column(data, p, targets={"bars": src})

    return Explorable(compute, figure, [
        Control("rwmixread", "rwmixread (% of requests that are reads)", MIX_READS, 70,
                live_values=(10, 30, 50, 70, 80, 90, 95), fmt="{:d}"),
        Control("write_kib", "Write size (KiB; reads are 4 KiB)", MIX_WRITE_KIB, 4,
                live_values=(4, 8, 16, 32, 64, 128, 256), fmt="{:d}"),
    ])


# =============================================================================== direct path scans
SCAN_DOPS = (1, 2, 4, 8, 16)
SCAN_MULTIBLOCK = (4, 8, 16, 32, 128)
#: User capacity of the scan explorable's drive (bytes): a scan of half of it, five per curve.
SCAN_DEVICE_BYTES = 48 * 2**20


@lru_cache(maxsize=256)
def scan_point(dop: int, multiblock: int, seed: int = 0) -> float:
    """Full-scan time (ms) of a table of half the :data:`SCAN_DEVICE_BYTES` drive, 8 KiB blocks
    (MQSim's MLC timing)."""
    return direct_path_scan(db_config("mlc_mqsim", user_bytes=SCAN_DEVICE_BYTES), dop=dop, multiblock=multiblock, seed=seed).elapsed_us / 1e3


def scan_parallelism(seed: int = 0) -> Explorable:
    """Multiblock read size -> scan time against the degree of parallelism."""

    def compute(multiblock):
        t = np.array([scan_point(d, multiblock, seed) for d in SCAN_DOPS])
        ref = np.array([scan_point(d, 128, seed) for d in SCAN_DOPS])
        return {
            "scan": {"dop": np.array(SCAN_DOPS, float), "ms": t, "ref": ref},
            "summary": summary_html(
                f"<b>{multiblock} blocks per read</b> ({multiblock * 8} KiB): serial scan {t[0]:.0f} ms, "
                f"at DOP 16: {t[-1]:.0f} ms ({t[0] / t[-1]:.1f}x faster). With 128 blocks (1 MiB) per read: "
                f"serial {ref[0]:.0f} ms, at DOP 16: {ref[-1]:.0f} ms. A {SCAN_DEVICE_BYTES // 2**21} MiB table."),
        }

    def figure(data):
        src = ColumnDataSource(data["scan"])
        p = new_figure("Full-scan time against parallelism", "degree of parallelism (query servers, log scale)",
                       "scan time (ms)", height=320, x_axis_type="log",
                       tooltips=[("DOP", "@dop"), ("scan (ms)", "@ms{0.0}"), ("128 blocks (ms)", "@ref{0.0}")])
        p.line("dop", "ref", source=src, color=PALETTE[7], line_dash="dashed", line_width=2,
               legend_label="128 blocks per read (1 MiB)")
        p.line("dop", "ms", source=src, color=PALETTE[0], line_width=2, legend_label="chosen multiblock size")
        p.scatter("dop", "ms", source=src, color=PALETTE[0], size=7)
        p.y_range.start = 0
        p.xaxis.ticker = list(SCAN_DOPS)
        legend_below(p)
        return summary_column(data, p, targets={"scan": src})

    return Explorable(compute, figure, [
        Control("multiblock", "db_file_multiblock_read_count (8 KiB blocks per read)", SCAN_MULTIBLOCK, 4,
                live_values=(1, 2, 4, 8, 16, 32, 64, 128), fmt="{:d}"),
    ])


# =============================================================================== redo block size
REDO_SESSIONS = (1, 4, 16)
REDO_KIB = (1, 4, 16)
REDO_COMMITS = 300
#: User capacity of the redo explorable's drive (bytes; the log is half of it, and must hold 16
#: sessions' largest group of redo).
REDO_DEVICE_BYTES = 48 * 2**20
COMMIT_LO_US, COMMIT_HI_US = 100.0, 1e5
#: The redo-block histogram's y-axis end (%): the grid's tallest bin with headroom (tested).
COMMIT_SHARE_MAX = 65.0


@lru_cache(maxsize=64)
def redo_point(sessions: int, redo_kib: int, block: int, seed: int = 0):
    """:func:`flashlab.db.redo_log` on the :data:`REDO_DEVICE_BYTES` drive: ``sessions`` sessions, mean redo
    ``redo_kib`` KiB per commit, redo block ``block`` bytes, 200 us mean think time."""
    return redo_log(db_config(user_bytes=REDO_DEVICE_BYTES), sessions=sessions, commits=REDO_COMMITS, redo_bytes=redo_kib * 1024,
                    redo_block=block, seed=seed)


def commit_histograms(data: dict, lo_us: float, hi_us: float, series: list, y_max: float) -> tuple:
    """The figure of the redo explorables: a summary above overlaid log-scale histograms of the
    commit time (log file sync) from ``lo_us`` to ``hi_us``, y axis from 0 to ``y_max`` (%);
    ``series`` is (column, colour, label) per histogram in ``data["hist"]``. Returns the layout
    and its updatable models."""
    src = ColumnDataSource(data["hist"])
    p = overlaid_log_histograms("Commit time (log file sync)", "commit time (ms, log scale)", "share of commits (%)",
                                lo_us, hi_us, src, series, y_max=y_max)
    legend_below(p)
    return summary_column(data, p, targets={"hist": src})


def redo_block_size(seed: int = 0) -> Explorable:
    """Sessions x redo per commit -> commit-time histograms with 512 B and 4 KiB redo blocks."""

    def compute(sessions, redo_kib):
        small, big = (redo_point(sessions, redo_kib, b, seed) for b in (512, 4096))
        change = big.elapsed_us / small.elapsed_us - 1
        return {
            "hist": log_histogram_columns(COMMIT_LO_US, COMMIT_HI_US, small=small.commit_us, big=big.commit_us),
            "summary": summary_html(
                f"{REDO_COMMITS} commits from <b>{sessions} sessions</b>, <b>{redo_kib} KiB</b> of redo each on "
                f"average. 512 B block: {small.elapsed_us / 1e3:,.0f} ms, {small.write_bytes.size} log writes, "
                f"{small.rmw_reads} page reads for read-modify-write, commit p50 "
                f"{small.commit_latency['p50'] / 1e3:.2f} ms. 4 KiB block: {big.elapsed_us / 1e3:,.0f} ms, "
                f"{big.write_bytes.size} writes, no reads, p50 {big.commit_latency['p50'] / 1e3:.2f} ms. "
                f"Elapsed time <b>{change:+.0%}</b> with 4 KiB (measured on Exadata: -70%)."),
        }

    controls = [
        Control("sessions", "Committing sessions", REDO_SESSIONS, 4, live_values=(1, 2, 4, 8, 16), fmt="{:d}"),
        Control("redo_kib", "Mean redo per commit (KiB)", REDO_KIB, 4, live_values=(1, 2, 4, 8, 16), fmt="{:d}"),
    ]

    def figure(data):
        return commit_histograms(data, COMMIT_LO_US, COMMIT_HI_US,
                                 [("small", PALETTE[3], "512 B redo block"), ("big", PALETTE[0], "4 KiB redo block")],
                                 COMMIT_SHARE_MAX)

    return Explorable(compute, figure, controls)


# =============================================================================== temporary tablespace
TEMP_SESSIONS = (1, 4, 16)
TEMP_IO_KIB = (64, 256, 1024)
TEMP_RUNS = 8
TEMP_RUN_BYTES = 2**20


def temp_flash() -> SsdConfig:
    """The flash of the temporary-tablespace study: the model of the Sun F20, the flash card of
    the Exadata X2 that Harrison measured (:data:`flashlab.drives.F20`), as its
    :meth:`~flashlab.drives.Drive.small_config` (1.27 GiB of user data; the sorts use at most
    128 MiB)."""
    return F20.small_config()


@lru_cache(maxsize=64)
def temp_point(sessions: int, io_kib: int, disk: bool, seed: int = 0):
    """:func:`flashlab.db.temp_sort` of ``sessions`` sorts of 8 runs of 1 MiB in ``io_kib`` KiB
    I/Os, on the F20 (:func:`temp_flash`) or on a Seagate Cheetah 15K.7."""
    return temp_sort(CHEETAH_15K7 if disk else temp_flash(), sessions=sessions, runs=TEMP_RUNS,
                     run_bytes=TEMP_RUN_BYTES, io_bytes=io_kib * 1024, seed=seed)


def _merge_reads(lat: dict) -> str:
    """The merge reads' p50, and p99 where the sample supports it (us), with their count."""
    p99 = f" / p99 {lat['p99']:,.0f}" if supported_percentile(lat["n"], 99.0) else ""
    return f"{lat['n']:,} merge reads, p50 {lat['p50']:,.0f}{p99} &micro;s"


def temp_tablespace(seed: int = 0) -> Explorable:
    """Concurrent sorts x I/O size -> write and merge time of the sort runs, the F20 flash card
    (:func:`temp_flash`) against a 15k rpm disk."""
    labels = ["F20: write runs", "F20: merge", "disk: write runs", "disk: merge"]

    def compute(sessions, io_kib):
        flash, disk = (temp_point(sessions, io_kib, d, seed) for d in (False, True))
        nbytes = sessions * TEMP_RUNS * TEMP_RUN_BYTES
        ms = [nbytes / r / 1e3 for x in (flash, disk) for r in (x.write_mb_s, x.read_mb_s)]
        return {
            "bars": {"x": labels, "ms": np.array(ms), "colour": [PALETTE[0], PALETTE[9], PALETTE[7], PALETTE[5]]},
            "summary": summary_html(
                f"<b>{sessions} sorts</b> at once, each writing 8 runs of 1 MiB and merging them in "
                f"<b>{io_kib} KiB</b> I/Os. F20 flash: {flash.elapsed_us / 1e3:,.0f} ms in all, writes at "
                f"{flash.write_mb_s:,.0f} MB/s, {_merge_reads(flash.read_latency)}. "
                f"Disk: <b>{disk.elapsed_us / 1e3:,.0f} ms</b> against "
                f"<b>{flash.elapsed_us / 1e3:,.0f} ms</b>, writes at {disk.write_mb_s:,.0f} MB/s, merge reads p50 "
                f"{disk.read_latency['p50'] / 1e3:,.1f} ms."),
        }

    def figure(data):
        src = ColumnDataSource(data["bars"])
        # Each bar is a phase's span over all sessions; one session merges while another still
        # writes, so the two spans of a device can overlap and add up to more than its elapsed time.
        p = new_figure("Sort runs: each phase's span over all sessions (spans can overlap)", "",
                       "time (ms, from first to last I/O of the phase)",
                       height=320, x_range=FactorRange(*labels), tooltips=[("", "@x"), ("ms", "@ms{0.0}")])
        p.vbar(x="x", top="ms", width=0.7, color="colour", source=src)
        p.y_range.start = 0
        p.xaxis.major_label_orientation = 0.3
        return summary_column(data, p, targets={"bars": src})

    return Explorable(compute, figure, [
        Control("sessions", "Sorts at once (sessions)", TEMP_SESSIONS, 4, live_values=(1, 2, 4, 8, 16), fmt="{:d}"),
        Control("io_kib", "Temp I/O size (KiB)", TEMP_IO_KIB, 256, live_values=(64, 128, 256, 512, 1024), fmt="{:d}"),
    ])


# =============================================================================== flush and page size
FLUSH_NAND_KIB = (4, 8, 16)
#: Power-loss protection, as the reader picks it: none, or capacitors that can write the cache out.
FLUSH_PLP = ("none", "capacitors")
FLUSH_EVERY = (1, 4, 16)
FLUSH_WRITES = 400
#: The flush explorable's cache (bytes): far more than its writes, so a fresh drive never fills it.
FLUSH_CACHE_BYTES = 4 * 2**20
#: Time axis of the flush explorable (µs): the grid's medians run from 10 to 17,870.
FLUSH_Y_RANGE = (3.0, 3e4)


@lru_cache(maxsize=64)
def flush_config(nand_kib: int, plp: bool) -> SsdConfig:
    """The chapter's drive (4 KiB slots) with NAND pages of ``nand_kib`` KiB and a write cache of
    :data:`FLUSH_CACHE_BYTES`, with power-loss protection if ``plp``."""
    from dataclasses import replace

    return replace(db_config(), nand_page_size=nand_kib * 1024, cache_bytes=FLUSH_CACHE_BYTES,
                   power_loss_protection=bool(plp))


@lru_cache(maxsize=64)
def flush_point(nand_kib: int, plp: bool, flush_every: int, seed: int = 0):
    """:func:`flashlab.db.flushed_writes`: 400 sequential 4 KiB writes at queue depth 1, a
    flush after every ``flush_every``-th, on :func:`flush_config`."""
    return flushed_writes(flush_config(nand_kib, plp), flush_every=flush_every, writes=FLUSH_WRITES, seed=seed)


def flush_page_size(seed: int = 0) -> Explorable:
    """NAND page size x power-loss protection x flush cadence -> flash writes per byte, write
    acknowledgement, commit (write to the end of its flush) and time until on NAND."""
    labels = ["write acknowledged", "commit (flush done)", "data on NAND"]

    def compute(nand_kib, plp, flush_every):
        check_choice("plp", plp, FLUSH_PLP)
        plp = plp == "capacitors"
        r = flush_point(nand_kib, plp, flush_every, seed)
        lat = [r.write_latency["p50"], r.commit_latency["p50"], r.nand_latency["p50"]]
        hi = [r.write_latency["p99"], r.commit_latency["p99"], r.nand_latency["p99"]]
        guard = "capacitors: a flush is a no-op" if plp else "no capacitors: a flush pads the NAND page"
        return {
            "bars": {"x": labels, "us": np.array(lat), "p99": np.array(hi), "bottom": np.full(3, FLUSH_Y_RANGE[0]),
                     "text": [f"{t:,.0f} µs" for t in lat], "colour": [PALETTE[0], PALETTE[3], PALETTE[7]]},
            "summary": summary_html(
                f"4 KiB writes, a flush after every <b>{flush_every}</b>, on <b>{nand_kib} KiB</b> NAND pages, "
                f"{guard}. Flash-write factor <b>{r.flash_write_factor:.2f}</b> (NAND slots programmed per slot "
                f"written). Median write acknowledged in {lat[0]:,.0f} &micro;s, commit in <b>{lat[1]:,.0f} &micro;s"
                f"</b>, data on NAND after {lat[2]:,.0f} &micro;s; {r.writes_per_s:,.0f} writes/s at queue depth 1."),
        }

    def figure(data):
        src = ColumnDataSource(data["bars"])
        p = new_figure("A flushed 4 KiB write: median times", "", "time from the write's arrival (µs, log scale)",
                       height=320, x_range=FactorRange(*labels), y_axis_type="log", y_range=FLUSH_Y_RANGE,
                       tooltips=[("", "@x"), ("median (µs)", "@us{0,0}"), ("p99 (µs)", "@p99{0,0}")])
        # Dots on thin stems, labelled: on a log axis a bar's length is not proportional to its value.
        p.segment(x0="x", y0="bottom", x1="x", y1="us", color="colour", line_width=2, source=src)
        p.scatter(x="x", y="us", color="colour", size=14, source=src)
        p.text(x="x", y="us", text="text", source=src, x_offset=12, text_baseline="middle", text_font_size="12px")
        label_ticks(p.yaxis, (10, 100, 1000, 10_000), "0,0")
        return summary_column(data, p, targets={"bars": src})

    return Explorable(compute, figure, [
        Control("nand_kib", "NAND page size (KiB; host writes are 4 KiB)", FLUSH_NAND_KIB, 16, fmt="{:d}"),
        Control("plp", "Power-loss protection", FLUSH_PLP, "none", fmt="{}"),
        Control("flush_every", "A flush after every n-th write", FLUSH_EVERY, 1, live_values=(1, 2, 4, 8, 16, 64),
                fmt="{:d}"),
    ])


# =============================================================================== smart flash logging
SFL_SESSIONS = (4, 8, 16)
SFL_CACHE_MIB = (1, 2, 4)
SFL_COMMITS = 2000
SFL_THINK_US = 400
#: Data-file writes sharing the log's disk and its controller cache, per second (our assumption).
SFL_DATA_WRITES = 60.0
#: The smart-flash-logging drive: 64 MiB of user data (the flash copy of the log is half of it).
SFL_DEVICE_BYTES = 64 * 2**20
SFL_LO_US, SFL_HI_US = 10.0, 1e5
#: The smart-flash-logging histogram's y-axis end (%): the grid's tallest bin with headroom (tested).
SFL_SHARE_MAX = 75.0


def sfl_disk(cache_mib: int):
    """The Seagate Cheetah 15K.7 behind a battery-backed controller write cache of ``cache_mib``
    MiB acknowledging in 50 us (Exadata X2 cells: 512 MB shared by 12 disks; scaled down, see the
    chapter)."""
    return replace(CHEETAH_15K7, write_cache_bytes=cache_mib * 2**20)


def sfl_flash():
    """The flash copy's drive: :data:`SFL_DEVICE_BYTES` of SLC (Exadata X2's Sun F20 cards were
    SLC) with a 4 MiB write cache protected by capacitors, acknowledging in 100 us (assumed)."""
    return replace(db_config(timing="slc", user_bytes=SFL_DEVICE_BYTES), cache_bytes=4 * 2**20,
                   power_loss_protection=True, cache_latency_us=100.0)


@lru_cache(maxsize=64)
def sfl_point(sessions: int, cache_mib: int, mirrored: bool, seed: int = 0):
    """:func:`flashlab.db.redo_log`, 4 KiB redo block, 2 KiB of redo per commit on average,
    :data:`SFL_THINK_US` think time, :data:`SFL_DATA_WRITES` data-file writes a second on the
    disk: the log on :func:`sfl_disk` alone, or (``mirrored``) on :func:`sfl_flash` and the disk
    at once (smart flash logging)."""
    kw = dict(sessions=sessions, commits=SFL_COMMITS, redo_block=4096, think_us=SFL_THINK_US,
              disk_writes_per_s=SFL_DATA_WRITES, seed=seed)
    if mirrored:
        return redo_log(sfl_flash(), mirror=sfl_disk(cache_mib), **kw)
    return redo_log(sfl_disk(cache_mib), **kw)


#: The tail panel's floor (%): a share below it (none of the commits) is drawn under the axis.
SFL_TAIL_FLOOR = 0.01


def slower_columns(lo_us: float, hi_us: float, **latencies_us) -> dict:
    """Per log-spaced time ``t`` (ms) from ``lo_us`` to ``hi_us``, the share (%) of each named
    latency array (us) above it, at least :data:`SFL_TAIL_FLOOR`."""
    edges = log_bins(lo_us, hi_us)
    cols = {"t": edges / 1e3}
    for name, lat in latencies_us.items():
        above = lat.size - np.searchsorted(np.sort(lat), edges, side="right")
        cols[name] = np.maximum(100.0 * above / lat.size, SFL_TAIL_FLOOR)
    return cols


def smart_flash_logging(seed: int = 0) -> Explorable:
    """Sessions x controller cache -> commit-time histograms, disk alone against disk and flash raced."""

    def compute(sessions, cache_mib):
        off, on = (sfl_point(sessions, cache_mib, m, seed) for m in (False, True))
        a, b = off.commit_latency, on.commit_latency
        return {
            "hist": log_histogram_columns(SFL_LO_US, SFL_HI_US, off=off.commit_us, on=on.commit_us),
            "tail": slower_columns(SFL_LO_US, SFL_HI_US, off=off.commit_us, on=on.commit_us),
            "summary": summary_html(
                f"{SFL_COMMITS} commits from <b>{sessions} sessions</b>; the disk's controller cache "
                f"<b>{cache_mib} MiB</b>, shared with {SFL_DATA_WRITES:.0f} data-file writes a second. "
                f"Disk alone: median {a['p50']:,.0f} &micro;s, p99.9 {a['p99.9']:,.0f} &micro;s. "
                f"Disk and flash at once: median <b>{b['p50']:,.0f} &micro;s</b>, p99.9 "
                f"<b>{b['p99.9']:,.0f} &micro;s</b>; the flash copy finished first for {on.flash_first:.1%} of the "
                f"log writes (Exadata: median 481 &micro;s off, 500 on; flash first 3.5%)."),
        }

    series = [("off", PALETTE[7], "disk alone"), ("on", PALETTE[0], "disk and flash, first wins")]
    controls = [
        Control("sessions", "Committing sessions", SFL_SESSIONS, 16, live_values=(2, 4, 8, 16), fmt="{:d}"),
        Control("cache_mib", "Disk controller's write cache (MiB)", SFL_CACHE_MIB, 2,
                live_values=(1, 2, 4, 8), fmt="{:d}"),
    ]

    def figure(data):
        layout, targets = commit_histograms(data, SFL_LO_US, SFL_HI_US, series, SFL_SHARE_MAX)
        src = ColumnDataSource(data["tail"])
        p = new_figure("The tail: commits slower than a given time", "commit time (ms, log scale)",
                       "commits slower (%, log scale)", height=300, x_axis_type="log", y_axis_type="log",
                       x_range=Range1d(SFL_LO_US / 1e3, SFL_HI_US / 1e3), y_range=Range1d(0.03, 100),
                       tooltips=[("slower than (ms)", "@t{0.000}")] + [(f"{label} (%)", f"@{col}{{0.00}}")
                                                                      for col, _, label in series])
        for col, colour, label in series:
            p.line(x="t", y=col, source=src, color=colour, line_width=3, legend_label=label)
        legend_below(p)
        layout.children.append(p)
        return layout, {**targets, "tail": src}

    return Explorable(compute, figure, controls)


# =============================================================================== write-back flash cache
OLTP_MODIFY = (0.05, 0.2, 0.5)
OLTP_BUFFERS = (500, 2000, 8000)


@lru_cache(maxsize=64)
def oltp_point(modify: float, buffers: int, write_back: bool, seed: int = 0):
    """:func:`flashlab.db.oltp` at its defaults (32 sessions, 20,000 accesses of 20,000 blocks,
    12 Cheetah 15K.7 disks behind 4 flash drives, 90% of blocks in the flash cache)."""
    return oltp(write_back=write_back, modify=modify, buffers=buffers, seed=seed)


def write_back_cache(seed: int = 0) -> Explorable:
    """Modify share x buffer pool size -> throughput, free-buffer-wait share and dirty buffers over
    time, write-through against write-back flash cache."""
    labels = ["write-through", "write-back"]

    def compute(modify, buffers):
        wt, wb = (oltp_point(modify, buffers, b, seed) for b in (False, True))
        out = {"bars": {"x": labels, "kps": np.array([wt.accesses_per_s, wb.accesses_per_s]) / 1e3,
                        "wait": 100 * np.array([wt.wait_share, wb.wait_share]), "colour": [PALETTE[7], PALETTE[0]]}}
        for key, r in (("wt", wt), ("wb", wb)):
            out[key] = {"ms": r.sample_us / 1e3, "dirty": 100 * r.states["dirty"] / buffers}
        out["summary"] = summary_html(
            f"<b>{modify:.0%}</b> of accesses modify their block; a pool of <b>{buffers:,}</b> buffers. "
            f"Write-through: <b>{wt.accesses_per_s:,.0f}</b> accesses/s, {wt.free_buffer_waits:,} free buffer waits "
            f"({wt.wait_share:.0%} of session time), DBWR write p50 {wt.write_latency['p50'] / 1e3:,.1f} ms. "
            f"Write-back: <b>{wb.accesses_per_s:,.0f}</b> accesses/s (<b>{wb.accesses_per_s / wt.accesses_per_s:.1f}x</b>), "
            f"{wb.free_buffer_waits:,} waits ({wb.wait_share:.0%}), write p50 {wb.write_latency['p50'] / 1e3:,.1f} ms.")
        return out

    def figure(data):
        bars, wt, wb = (ColumnDataSource(data[k]) for k in ("bars", "wt", "wb"))
        p = new_figure("Throughput", "", "block accesses per second (thousands)", height=260,
                       x_range=FactorRange(*labels), tooltips=[("", "@x"), ("thousand/s", "@kps{0.0}"),
                                                             ("free buffer wait %", "@wait{0}")])
        p.vbar(x="x", top="kps", width=0.6, color="colour", source=bars)
        p.y_range.start = 0
        q = new_figure("Dirty buffers over time", "time (ms)", "dirty buffers (% of the pool)", height=280,
                       tooltips=[("ms", "@ms{0}"), ("dirty %", "@dirty{0}")])
        q.line("ms", "dirty", source=wt, color=PALETTE[7], line_width=2, legend_label="write-through")
        q.line("ms", "dirty", source=wb, color=PALETTE[0], line_width=2, legend_label="write-back")
        q.y_range.start, q.y_range.end = 0, 105
        legend_below(q)
        return summary_column(data, p, q, targets={"bars": bars, "wt": wt, "wb": wb})

    return Explorable(compute, figure, [
        Control("modify", "Share of accesses that modify their block", OLTP_MODIFY, 0.5,
                live_values=(0.0, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1.0), fmt="{:.0%}"),
        Control("buffers", "Buffer pool (8 KiB buffers)", OLTP_BUFFERS, 2000,
                live_values=(250, 500, 1000, 2000, 4000, 8000, 16000), fmt="{:,d}"),
    ])
