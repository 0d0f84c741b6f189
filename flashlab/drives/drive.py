"""The record of a real drive: what it is built from, what its datasheet promises, and how the
one unpublished parameter is set.

**The calibration rule.** A drive's parameters come from published figures: its NAND part
(:mod:`flashlab.drives.nand`), channel and die counts, host interface, capacity and
over-provisioning. One figure no vendor publishes is the controller's firmware time per command,
which caps a modern drive's random reads. It is set once, in :meth:`Drive.controller`, from the
one datasheet figure named in ``calibrated_from`` (always the 4 KiB random read rate):
``command_us = cores / IOPS``. A drive with an SLC cache has a second unpublished parameter, the
SLC-mode program time of its part (no NAND datasheet of these parts gives one): it is set once
from the drive's sequential write rate into the cache, ``seq_write_mb_s``
(:attr:`Drive.slc_cache`). Every other datasheet figure is then a *prediction*, set beside the
model in :func:`flashlab.drives.validate`; where one misses by more than
:data:`TOLERANCE`, the preset records an :class:`Allowance` that says why, and the book prints it.
No experiment reproduced on a preset feeds back into it.

**Scale.** A drive of terabytes cannot be simulated page by page in a chapter, and need not be:
:meth:`Drive.config` keeps the channels, dies, planes, page and block size and
over-provisioning, and keeps ``capacity_scale`` of each plane's blocks. The rates a fresh drive
reaches do not depend on the block count, and the steady state only through the FTL's spare
blocks; ``tests/test_drives.py`` shows at which count two scales agree.

Sizes in bytes, times in microseconds, rates in MB/s (bytes per microsecond) or requests per
second (IOPS).
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

from flashlab._validate import check_bool, check_choice, check_instance, check_int, check_real, check_text, quote
from flashlab.device.geometry import Geometry
from flashlab.drives.nand import NandPart
from flashlab.ftl import min_blocks_per_plane
from flashlab.ssd import Controller, HostInterface, SlcCache, SsdConfig
from flashlab.ssd.slc import max_slc_blocks

#: The datasheet figures a preset may quote, each a 4 KiB random or 128 KiB sequential workload:
#: random read and write IOPS at a deep queue (fresh drive), random write IOPS in the steady state
#: (after two drive writes of random writes), sequential read and write MB/s (write: into the SLC
#: cache where the drive has one), sequential write MB/s once the SLC cache is full, and the mean
#: latency of a 4 KiB random read at queue depth 1 (microseconds).
METRICS = ("random_read_iops", "random_write_iops", "steady_write_iops", "seq_read_mb_s", "seq_write_mb_s",
           "direct_write_mb_s", "read_latency_us")
#: A prediction within this share of its datasheet figure needs no allowance.
TOLERANCE = 0.15
#: Most 4 KiB mapping units in a modelled superblock (one block of every plane, 64 MiB). The FTL
#: keeps a few superblocks free or open (six with the engine's defaults), which must be a small
#: share of the spare area for the steady state to be the full drive's; a drive of a few hundred
#: superblocks of this size simulates in seconds. A drive whose planes x block exceed it is
#: modelled with fewer word lines per block (:attr:`Drive.block_pages`).
SUPERBLOCK_SLOTS = 2**14


@dataclass(frozen=True, kw_only=True)
class Figure:
    """One datasheet (or measured) figure of a drive.

    Parameters
    ----------
    metric : one of :data:`METRICS`
    value : float > 0, in the metric's unit (IOPS, MB/s or microseconds)
    source : str, bibliography key(s)
    note : str, what the figure is (queue depth, capacity, how verified)
    """

    metric: str
    value: float
    source: str
    note: str = ""

    def __post_init__(self):
        check_choice("metric", self.metric, METRICS)
        check_real("value", self.value, 0.0, 1e9, lo_open=True)
        check_text("source", self.source, 1, 200)
        check_text("note", self.note, 0, 2000)


@dataclass(frozen=True, kw_only=True)
class Allowance:
    """A prediction allowed to miss its datasheet figure by more than :data:`TOLERANCE`.

    Parameters
    ----------
    metric : one of :data:`METRICS`
    low, high : float, the model / datasheet ratios allowed (``low < 1 - TOLERANCE`` or
        ``high > 1 + TOLERANCE``; 0 < low < high)
    why : str, the explanation the book prints
    """

    metric: str
    low: float
    high: float
    why: str

    def __post_init__(self):
        check_choice("metric", self.metric, METRICS)
        check_real("low", self.low, 0.0, 1.0, lo_open=True)
        check_real("high", self.high, self.low, 100.0, lo_open=True)
        check_text("why", self.why, 20, 2000)
        if self.low >= 1 - TOLERANCE and self.high <= 1 + TOLERANCE:
            raise ValueError(f"an allowance must widen the tolerance of {TOLERANCE:g}; got low={self.low!r}, "
                             f"high={self.high!r}")


@dataclass(frozen=True, kw_only=True)
class Drive:
    """A named model of a real drive.

    Parameters
    ----------
    key : str, short name (``x25e``, ``pm9a3``, ...)
    name, year : the product and the year it shipped
    capacity_bytes : int, user capacity of the model modelled (decimal bytes, as sold)
    nand : NandPart
    channels, dies_per_channel : int, the NAND back end
    op : float, over-provisioning ``(physical - user) / user`` left to the FTL (parity and
        bad-block reserves excluded), derivation in ``internals``
    host : HostInterface (its link and command overhead)
    cores : int, firmware cores of the controller (``Controller.cores``)
    ecc_decode_us : float, decode latency added to each NAND read
    plp : bool, power-loss protection (capacitors make the write buffer durable), as published
    slc_bytes : int in [0, capacity_bytes], the SLC cache's size as published or measured
        (bytes of user data it absorbs; 0: none). Modelled as a static cache
        (:class:`~flashlab.ssd.SlcCache`) in the spare blocks, at most as large as they allow
        (:attr:`slc_model_bytes`)
    calibrated_from : the one metric of ``datasheet`` the controller's command time is set from
    datasheet : tuple of Figure, the figures the model is checked against
    allowances : tuple of Allowance, predictions allowed a wider miss, and why
    endurance : str, the endurance rating as published
    internals : str, the sources and the arithmetic of every parameter, with what is assumed
    """

    key: str
    name: str
    year: int
    capacity_bytes: int
    nand: NandPart
    channels: int
    dies_per_channel: int
    op: float
    host: HostInterface
    cores: int
    ecc_decode_us: float
    plp: bool
    slc_bytes: int = 0
    calibrated_from: str
    datasheet: tuple
    allowances: tuple = ()
    endurance: str = ""
    internals: str = ""

    def __post_init__(self):
        check_text("key", self.key, 1, 40)
        check_text("name", self.name, 1, 200)
        check_int("year", self.year, 1990, 2100)
        check_int("capacity_bytes", self.capacity_bytes, 2**20, 2**50)
        check_instance("nand", self.nand, NandPart)
        check_int("channels", self.channels, 1, 64)
        check_int("dies_per_channel", self.dies_per_channel, 1, 64)
        check_real("op", self.op, 0.0, 10.0, lo_open=True)
        check_instance("host", self.host, HostInterface)
        check_int("cores", self.cores, 1, 64)
        check_real("ecc_decode_us", self.ecc_decode_us, 0.0, 1e4)
        check_bool("plp", self.plp)
        check_int("slc_bytes", self.slc_bytes, 0, self.capacity_bytes)
        if self.slc_bytes and self.nand.bits_per_cell < 2:
            raise ValueError(f"slc_bytes must be 0 for an SLC part; got {self.slc_bytes}")
        for name in ("datasheet", "allowances"):
            if not isinstance(getattr(self, name), tuple):
                raise ValueError(f"{name} must be a tuple; got {quote(getattr(self, name))}")
        if not self.datasheet:
            raise ValueError("datasheet must quote at least one figure (the calibration's); got ()")
        for f in self.datasheet:
            check_instance("datasheet[]", f, Figure)
        metrics = [f.metric for f in self.datasheet]
        if len(set(metrics)) != len(metrics):
            raise ValueError(f"datasheet must quote each metric once; got {metrics}")
        check_choice("calibrated_from", self.calibrated_from, tuple(metrics))
        if self.slc_bytes and "seq_write_mb_s" not in metrics:
            raise ValueError("datasheet must quote seq_write_mb_s (into the SLC cache) when slc_bytes > 0: the cache's "
                             f"program time is set from it; got {metrics}")
        for a in self.allowances:
            check_instance("allowances[]", a, Allowance)
            if a.metric not in metrics or a.metric in self.calibrations:
                raise ValueError(f"an allowance must name a predicted metric of the datasheet ({', '.join(metrics)}, "
                                 f"not {', '.join(self.calibrations)}); got {a.metric!r}")
        if self.block_pages < 2 * self.nand.bits_per_cell:
            raise ValueError(f"channels x dies_per_channel: a modelled superblock holds {SUPERBLOCK_SLOTS} mapping "
                             f"units, too few for two word lines on each of {self.units} planes")
        check_text("endurance", self.endurance, 0, 2000)
        check_text("internals", self.internals, 0, 8000)

    def figure(self, metric: str) -> Figure | None:
        """The datasheet's figure for ``metric`` (None if it quotes none)."""
        check_choice("metric", metric, METRICS)
        return next((f for f in self.datasheet if f.metric == metric), None)

    def allowance(self, metric: str) -> Allowance | None:
        check_choice("metric", metric, METRICS)
        return next((a for a in self.allowances if a.metric == metric), None)

    @property
    def calibrations(self) -> tuple:
        """The datasheet metrics parameters are set from: ``calibrated_from``, and with an SLC
        cache ``seq_write_mb_s`` (:attr:`slc_cache`)."""
        return (self.calibrated_from,) + (("seq_write_mb_s",) if self.slc_bytes else ())

    @property
    def predictions(self) -> tuple:
        """The datasheet metrics the model predicts: all but the calibration figures."""
        return tuple(f.metric for f in self.datasheet if f.metric not in self.calibrations)

    def slc_cache(self, blocks_per_plane: int) -> SlcCache:
        """The SLC cache of ``blocks_per_plane`` blocks, its program time set from the datasheet's
        ``seq_write_mb_s`` (writes into the cache): the tPROG at which the closed form's SLC
        plateau (:func:`flashlab.ssd.slc_write_plateaus`: every plane programming one NAND page
        per tPROG after its data crossed a channel shared by the channel's planes) equals it.
        The figure must lie below the channels' and the host link's rates."""
        whole = self._whole()
        g = whole.geometry
        mb_s = self.figure("seq_write_mb_s").value
        per_channel = whole.array_units // g.channels
        s = whole.slots * (g.planes_per_die if whole.multi_plane else 1)  # slots of one SLC program
        sx = s * whole.transfer_us
        if mb_s >= min(g.channels * g.page_size / whole.transfer_us, self.host.link_mb_s):
            raise ValueError(f"seq_write_mb_s must be below the channels' and the host link's rates to set an SLC "
                             f"program time; got {mb_s}")
        t_prog = g.channels * per_channel * s * g.page_size / mb_s - sx
        return SlcCache(blocks_per_plane=blocks_per_plane, t_prog_us=t_prog)

    @property
    def controller(self) -> Controller:
        """The controller, its command time set from the calibration figure: ``cores`` commands
        every ``command_us``, so that the controller alone allows exactly that many IOPS."""
        iops = self.figure(self.calibrated_from).value
        return Controller(cores=self.cores, command_us=self.cores * 1e6 / iops, ecc_decode_us=self.ecc_decode_us)

    @property
    def dies(self) -> int:
        return self.channels * self.dies_per_channel

    @property
    def raw_bytes(self) -> int:
        """NAND bytes of all dies (user data; spare areas excluded)."""
        return self.dies * self.nand.die_bits // 8

    @property
    def units(self) -> int:
        """Planes of the drive."""
        return self.dies * self.nand.planes

    @property
    def block_pages(self) -> int:
        """NAND pages per block as modelled: the part's, or fewer where a superblock (one block of
        every plane) would hold more than :data:`SUPERBLOCK_SLOTS` mapping units; a whole number
        of word lines (``bits_per_cell`` pages) either way. Greedy GC's write amplification
        depends on the spare share of the drive, hardly on the block size once there are hundreds
        of blocks (Desnoyers' model: ``tests/test_drives.py`` checks it on the drives)."""
        part = self.nand
        fit = SUPERBLOCK_SLOTS // (self.units * (part.page_bytes // 4096))
        return min(part.pages_per_block, fit - fit % part.bits_per_cell)

    @property
    def write_buffer_bytes(self) -> int:
        """The DRAM write buffer as modelled: two program units (a NAND page, or a word line of
        a one-shot part) per plane, the least that keeps every plane programming while the next
        unit fills. Drives buffer more; how much of their DRAM holds user writes is unpublished
        (most holds the mapping table), so the presets assume this least."""
        part = self.nand
        unit = part.page_bytes * (part.bits_per_cell if part.one_shot else 1)
        return 2 * self.units * unit

    @property
    def blocks_per_plane(self) -> int:
        """Blocks of each plane of the full-size drive, of :attr:`block_pages` pages."""
        part = self.nand
        return max(1, part.die_bits // 8 // (part.planes * self.block_pages * part.page_bytes))

    def config(self, capacity_scale: float = 1.0, **kwargs) -> SsdConfig:
        """The drive as an :class:`~flashlab.ssd.SsdConfig` with ``capacity_scale`` (in (0, 1])
        of each plane's blocks: 4 KiB mapping units, NAND pages of the part's size, the part's
        timing, host interface and controller. The scale must keep at least the blocks per plane
        the FTL needs for its reserve of free and open superblocks at the drive's op
        (:func:`~flashlab.ftl.min_blocks_per_plane`; :meth:`min_scale`), and with an SLC cache
        one block per plane for it besides. A drive with ``slc_bytes`` has its static SLC cache
        (:meth:`slc_cache`) at the same share of the user capacity as the full drive's modelled
        cache (:attr:`slc_model_bytes`), at least one block per plane and at most what the spare
        blocks of this scale hold. A ``map_cache`` (:class:`~flashlab.ssd.MapCache`, sized for
        the full drive, e.g. :data:`flashlab.drives.HMB_64MIB`) keeps the same share of the
        mapping table: its ``cached_bytes`` scale with the user capacity (at least one
        translation page). Other keyword arguments go to ``SsdConfig`` (e.g. ``gc``)."""
        check_real("capacity_scale", capacity_scale, 0.0, 1.0, lo_open=True)
        whole = self._whole(**kwargs)
        return self._scaled(whole, capacity_scale, self._min_scale(whole))

    def _scaled(self, whole: SsdConfig, capacity_scale: float, lowest: float) -> SsdConfig:
        """``whole`` cut to ``capacity_scale`` of its blocks per plane, refused below ``lowest``."""
        if capacity_scale < lowest:
            raise ValueError(f"capacity_scale must be in [{lowest:.4g}, 1] for the {self.name}: a smaller drive keeps "
                             f"too few blocks per plane for the FTL's free and open superblocks in the spare area "
                             f"of op {self.op:.3f}; got {capacity_scale!r}")
        blocks = math.ceil(self.blocks_per_plane * capacity_scale)
        config = dataclasses.replace(whole, geometry=dataclasses.replace(whole.geometry, blocks_per_plane=blocks))
        if config.map_cache is not None:  # the map cache keeps its share of the drive's mapping table
            g = config.geometry
            held = max(g.page_size, round(config.map_cache.cached_bytes * g.user_bytes / self.capacity_bytes))
            config = dataclasses.replace(config, map_cache=dataclasses.replace(config.map_cache, cached_bytes=held))
        if not self.slc_bytes:
            return config
        # the cache keeps its share of the user capacity, within the spare blocks of this scale
        g = config.geometry
        share = min(self.slc_bytes, self.slc_model_bytes) / self.capacity_bytes
        per_block = config.units * g.pages_per_block // self.nand.bits_per_cell  # slots of an SLC superblock
        n = min(max_slc_blocks(config), max(1, round(share * g.user_pages / per_block)))
        return dataclasses.replace(config, slc=self.slc_cache(n))

    def small_config(self, margin: float = 1.25, **kwargs) -> SsdConfig:
        """:meth:`config` at ``margin`` (in [1, 1e6]) times :meth:`min_scale` (at most the whole
        drive): every channel, die, plane and page, and a few dozen blocks per plane. Quick to
        build and to write whole, for short runs from fresh or just written, whose rates do not
        depend on the scale; a steady state needs more blocks (:mod:`flashlab.drives.validate`)."""
        check_real("margin", margin, 1.0, 1e6)
        whole = self._whole(**kwargs)
        lowest = self._min_scale(whole)
        return self._scaled(whole, min(1.0, margin * lowest), lowest)

    def min_scale(self, **kwargs) -> float:
        """The smallest ``capacity_scale`` :meth:`config` accepts (with the same keyword
        arguments for ``SsdConfig``)."""
        return self._min_scale(self._whole(**kwargs))

    def _whole(self, **kwargs) -> SsdConfig:
        part = self.nand
        slots = part.page_bytes // 4096
        geometry = Geometry(channels=self.channels, dies_per_channel=self.dies_per_channel, planes_per_die=part.planes,
                            blocks_per_plane=self.blocks_per_plane, pages_per_block=self.block_pages * slots,
                            page_size=4096, op=self.op)
        return SsdConfig(geometry=geometry, timing=part.timing, nand_page_size=part.page_bytes, host=self.host,
                         controller=self.controller, one_shot=part.one_shot, cache_bytes=self.write_buffer_bytes,
                         power_loss_protection=self.plp, **kwargs)

    def _min_scale(self, whole: SsdConfig) -> float:
        # the FTL's superblock is block b of every plane: its blocks are the blocks per plane;
        # with an SLC cache, enough of them for one SLC block per plane besides
        bpp = min_blocks_per_plane(whole.ftl_geometry, whole.ftl_config)
        while self.slc_bytes and bpp < self.blocks_per_plane and max_slc_blocks(dataclasses.replace(
                whole, geometry=dataclasses.replace(whole.geometry, blocks_per_plane=bpp))) < 1:
            bpp += 1
        return bpp / self.blocks_per_plane

    @property
    def slc_model_bytes(self) -> int:
        """Bytes of user data the modelled static SLC cache absorbs on the full drive: ``slc_bytes``,
        or less where the spare blocks hold less (a measured cache larger than that is dynamic:
        it borrows free user blocks, which the model leaves out)."""
        if not self.slc_bytes:
            return 0
        whole = self._whole()
        g = whole.geometry
        per_block = whole.units * g.pages_per_block // self.nand.bits_per_cell * g.page_size
        return min(self.slc_bytes, max_slc_blocks(whole) * per_block)

    def scale_for(self, blocks_per_plane: int) -> float:
        """The ``capacity_scale`` that keeps ``blocks_per_plane`` blocks on each plane."""
        check_int("blocks_per_plane", blocks_per_plane, 1, self.blocks_per_plane)
        return blocks_per_plane / self.blocks_per_plane
