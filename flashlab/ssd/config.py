"""An SSD's configuration: :class:`SsdConfig` (geometry, NAND timing, controller policies, write
cache, host interface and controller), :func:`ssd_geometry`, and the choices and series names the
engine and the single-drive API share. Below both :mod:`flashlab.ssd.engine` (which builds the
kernels' state from a config) and :mod:`flashlab.ssd.sim` (the single-drive API, which runs the
engine), so the layer's imports run one way: sim -> engine -> config. Times are microseconds,
sizes bytes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from flashlab._validate import check_bool, check_choice, check_instance, check_int, check_real, plain_fields
from flashlab.device.geometry import MAX_PAGES_PER_BLOCK, MAX_PHYSICAL_PAGES, Geometry
from flashlab.device.timing import PRESETS, NandTiming
from flashlab.ftl.core import FtlConfig, check_capacity
from flashlab.ssd.frontend import Controller, HostInterface
from flashlab.ssd.mapcache import MapCache, check_map_cache
from flashlab.ssd.slc import SlcCache, check_slc

SCHEDULERS = ("fifo", "read_priority")
SLOTS = (1, 2, 4, 8, 16)  # slots per NAND page
GC_MODES = ("background", "foreground", "off")
FOREGROUND = ("throttle", "wait")
GC_POLICIES = ("greedy", "fifo", "cost_benefit", "random", "d_choices")
SERIES_NAMES = ("time_us", "requests", "host_page_writes", "host_programs", "host_page_reads",
                "gc_copies", "erases", "free_blocks", "fg_time_us", "queued", "fold_copies", "map_programs")


def ssd_geometry(capacity_bytes: int = 2**30, op: float = 0.07, *, channels: int = 4,
                 dies_per_channel: int = 2, planes_per_die: int = 2, pages_per_block: int = 64,
                 page_size: int = 4096) -> Geometry:
    """Geometry holding at least ``capacity_bytes`` of user data at over-provisioning ``op``
    (blocks per plane rounded up). Defaults: 4 channels x 2 dies x 2 planes, 64 pages of 4 KiB
    per block, so one 4 KiB host write is one page program."""
    capacity_bytes = check_int("capacity_bytes", capacity_bytes, 1, 2**50)
    op = check_real("op", op, 0.0, 100.0, lo_open=True)
    page_size = check_int("page_size", page_size, 512, 2**30)
    units = (check_int("channels", channels, 1, 4096) * check_int("dies_per_channel", dies_per_channel, 1, 4096)
             * check_int("planes_per_die", planes_per_die, 1, 64))
    pages_per_block = check_int("pages_per_block", pages_per_block, 2, 65535)
    user = math.ceil(capacity_bytes / page_size)
    bpp = max(1, math.ceil(user * (1.0 + op) / (units * pages_per_block)))
    if bpp * units * pages_per_block > MAX_PHYSICAL_PAGES:
        raise ValueError(f"capacity_bytes at op={op:g} needs {bpp * units * pages_per_block} physical pages of "
                         f"page_size={page_size} bytes; at most {MAX_PHYSICAL_PAGES}; got capacity_bytes={capacity_bytes}")
    return Geometry(channels=channels, dies_per_channel=dies_per_channel, planes_per_die=planes_per_die,
                    blocks_per_plane=bpp, pages_per_block=pages_per_block, page_size=page_size, op=op)


@dataclass(frozen=True, kw_only=True)
class SsdConfig:
    """An SSD: geometry, NAND timing and controller policies.

    Parameters
    ----------
    geometry : Geometry
        Channels x dies x planes (each plane a unit) x blocks x pages of ``page_size`` bytes.
        The FTL block is a superblock of one block per unit, so ``pages_per_block x units`` must
        be at most ``MAX_PAGES_PER_BLOCK`` (2**24). Default: :func:`ssd_geometry` (1 GiB user,
        op 0.07).
    timing : NandTiming or a preset name (``slc``, ``mlc``, ``mlc_mqsim``, ``tlc``, ``qlc``)
    scheduler : ``read_priority`` or ``fifo``
    suspend : bool
        Program/erase suspension for host reads (Wu & He 2012).
    resume_overhead_us : float in [0, 1e5]
        Added to a suspended operation when it resumes.
    suspend_latency_us : float in [0, 1e5]
        How long a program or erase runs on after a host read asks to suspend it, to the next
        point of its algorithm where it can stop (a program between program-and-verify steps);
        the read waits for it. An operation that would end sooner is not suspended. Default
        20 us, an assumption (about one ISPP step), not a cited figure; the same for programs
        and erases.
    gc : ``background``, ``foreground`` or ``off``
    foreground : ``throttle`` or ``wait``
        What host writes do while GC is in the foreground.
    gc_critical : int >= 2, free superblocks
        Below this GC is foreground.
    gc_background : int >= gc_critical, free superblocks
        Below this background GC runs (``background`` mode).
    policy : ``greedy``, ``fifo``, ``cost_benefit``, ``random`` or ``d_choices`` (GC victim choice,
        as in the FTL; ``d_choices`` samples 10 superblocks)
    steering : bool
        Fast-page steering.
    nand_page_size : int or None, bytes
        Bytes one NAND program writes on a plane: ``geometry.page_size`` (the FTL's mapping unit,
        a "slot") times 1, 2, 4, 8 or 16; None: one slot. The FTL maps slots; a program writes
        the slots of one NAND page together, after each crossed the channel. tPROG is per
        program, whatever the page size (a program drives every bit line of the page at once):
        the presets keep their cited times, and a larger page raises program bandwidth, not
        program time. A write that must reach NAND before the page is full (a flush, a FUA
        write, every write without a cache) fills the rest with padding.
    cache_bytes : int in [0, geometry.user_bytes]
        The DRAM write cache (0: none, a write is acknowledged when its programs end). A whole
        number of slots, at least one NAND program (``program_slots``: dirty slots leave only
        with their program), at most the drive's user capacity. A write's data streams in as
        room frees, so a write may be larger than the cache; it is acknowledged
        ``cache_latency_us`` after its last slot enters the drive.
        Until its NAND page is programmed the cache serves host reads of its data: a read all
        of whose pages are there completes ``cache_latency_us`` after it enters the drive.
    power_loss_protection : bool
        Capacitors make the cache durable: a flush is acknowledged like a write, FUA is a plain
        write, no padding. Without: a flush pads the partly filled NAND page and completes when
        every cached write is on NAND; a FUA write goes through to NAND.
    cache_latency_us : float in [0, 1e6]
        Admission to acknowledgement of a cached write or flush, or to the answer of a read
        served by the cache (an assumption, not a cited figure).
    host : HostInterface or None
        The link to the host (:mod:`flashlab.ssd.frontend`): every command crosses it (its
        protocol time, and a write's data, towards the drive; a read's data back), and at most
        its ``max_qd`` commands are inside the drive. None: commands and data arrive and leave
        in no time, and the host load's queue depth is the only limit.
    controller : Controller or None
        Firmware cores that process every command (``command_us`` each) before it reaches the
        NAND, and the ECC decode time added to every read served from NAND. None: no time.
    multi_plane : bool
        Multi-plane operations: the planes of a die act together as one unit of work. A program
        waits until every plane's page (or word line, with ``one_shot``) has crossed the channel,
        then one tPROG programs them all; a read senses one page (the die is busy for its tR: no
        independent plane reads, so reads on different planes of a die wait for each other); an
        erase erases one block on every plane in one tBERS (``erases`` counts die erases).
        False: each plane is its own unit (fully independent planes, sharing their channel).
    one_shot : bool
        One-shot programming (3D TLC and QLC parts): a word line's pages (one of each type, each
        of ``nand_page_size``) sit on one plane, cross the channel one after another, and are
        programmed together in one ``timing.t_prog_one_shot_us``; a block must hold whole word
        lines, and a flush or write through pads the word line. False: each NAND page is its own
        program, in its type's tPROG. Reads sense a NAND page in its type's tR, either way; the
        slots of one request on one NAND page share one sense (each crosses the channel).
    slc : SlcCache or None
        A static SLC cache (:mod:`flashlab.ssd.slc`; client TLC and QLC drives): its blocks come
        out of the spare blocks before the first write; host writes fill them in SLC mode (a
        program writes ``wl_pages`` word lines' single pages in ``wl_pages`` SLC tPROGs), then
        go to native blocks; the drive folds the cache back into native blocks while idle.
        None: no cache, every host write goes to native blocks.
    map_cache : MapCache or None
        Where the mapping table lives (:mod:`flashlab.ssd.mapcache`): None, whole in the
        controller's DRAM (no look-up costs NAND time); a MapCache, on NAND in translation
        pages with a few of them cached (DRAM-less drives in SRAM, Host Memory Buffer drives in
        the host's memory): a miss reads its translation page from NAND first, an evicted dirty
        one is programmed back (``map_programs``, a cause of write amplification of its own).
    """

    geometry: Geometry = field(default_factory=ssd_geometry)
    timing: NandTiming | str = "mlc"
    scheduler: str = "read_priority"
    suspend: bool = False
    resume_overhead_us: float = 20.0
    suspend_latency_us: float = 20.0
    gc: str = "background"
    foreground: str = "throttle"
    gc_critical: int = 2
    gc_background: int = 4
    policy: str = "greedy"
    steering: bool = False
    nand_page_size: int | None = None
    cache_bytes: int = 0
    power_loss_protection: bool = False
    cache_latency_us: float = 10.0
    host: HostInterface | None = None
    controller: Controller | None = None
    multi_plane: bool = False
    one_shot: bool = False
    slc: SlcCache | None = None
    map_cache: MapCache | None = None

    def __post_init__(self):
        plain_fields(self)
        check_instance("geometry", self.geometry, Geometry)
        if isinstance(self.timing, str):
            object.__setattr__(self, "timing", PRESETS[check_choice("timing", self.timing, tuple(PRESETS))])
        else:
            check_instance("timing", self.timing, NandTiming, f"a NandTiming or one of {', '.join(PRESETS)}")
        check_choice("scheduler", self.scheduler, SCHEDULERS)
        check_bool("suspend", self.suspend)
        check_real("resume_overhead_us", self.resume_overhead_us, 0.0, 1e5)
        check_real("suspend_latency_us", self.suspend_latency_us, 0.0, 1e5)
        check_choice("gc", self.gc, GC_MODES)
        check_choice("foreground", self.foreground, FOREGROUND)
        check_int("gc_critical", self.gc_critical, 2, 2**31 - 1)
        check_int("gc_background", self.gc_background, 2, 2**31 - 1)
        if self.gc_background < self.gc_critical:
            raise ValueError(f"gc_background must be >= gc_critical; got gc_background={self.gc_background}, "
                             f"gc_critical={self.gc_critical}")
        check_choice("policy", self.policy, GC_POLICIES)
        check_bool("steering", self.steering)
        g = self.geometry
        check_int("pages_per_block x units", g.pages_per_block * self.units, 2, MAX_PAGES_PER_BLOCK)
        check_capacity(self.ftl_geometry, self.ftl_config, "superblocks", "gc_background")
        if self.nand_page_size is not None:
            check_int("nand_page_size", self.nand_page_size, g.page_size, 16 * g.page_size)
            if self.nand_page_size % g.page_size or self.slots not in SLOTS:
                raise ValueError(f"nand_page_size must be the geometry's page_size ({g.page_size} bytes) times one of "
                                 f"{', '.join(map(str, SLOTS))}; got {self.nand_page_size}")
            if g.pages_per_block % self.slots:
                raise ValueError(f"geometry.pages_per_block must be a multiple of the {self.slots} slots of a NAND page "
                                 f"(nand_page_size={self.nand_page_size}); got {g.pages_per_block}")
        # no larger than the drive: it could hold nothing more, and the engine sizes its queues by it
        check_int("cache_bytes", self.cache_bytes, 0, min(2**40, g.user_bytes))
        if self.cache_bytes % g.page_size:
            raise ValueError(f"cache_bytes must be a multiple of the page size {g.page_size} bytes; got {self.cache_bytes}")
        if 0 < self.cache_slots < self.program_slots:  # a write waits for room the partly filled program never frees
            raise ValueError(f"cache_bytes must be 0 or hold a whole NAND program ({self.program_slots} slots, "
                             f"{self.program_slots * g.page_size} bytes); got {self.cache_bytes}")
        check_bool("power_loss_protection", self.power_loss_protection)
        check_real("cache_latency_us", self.cache_latency_us, 0.0, 1e6)
        if self.host is not None:
            check_instance("host", self.host, HostInterface, "a HostInterface or None")
        if self.controller is not None:
            check_instance("controller", self.controller, Controller, "a Controller or None")
        check_bool("multi_plane", self.multi_plane)
        check_bool("one_shot", self.one_shot)
        if self.one_shot:
            bits = self.timing.bits_per_cell
            if bits < 2 or self.timing.t_prog_one_shot_us is None:
                raise ValueError(f"one_shot needs a multi-level timing with t_prog_one_shot_us (the part's one-shot "
                                 f"word-line program time); got one_shot=True with timing {self.timing.name!r} "
                                 f"({bits} bit(s) per cell, t_prog_one_shot_us={self.timing.t_prog_one_shot_us})")
            if self.steering:
                raise ValueError("steering must be False with one_shot=True: a one-shot program writes every page type "
                                 "of a word line, so there is no type to choose; got steering=True")
            if g.pages_per_block % self.program_slots:
                raise ValueError(f"geometry.pages_per_block must be whole word lines with one_shot: a multiple of "
                                 f"{self.program_slots} slots ({bits} NAND pages of {self.slots} slot(s)); got "
                                 f"{g.pages_per_block}")
        if self.slc is not None:
            check_instance("slc", self.slc, SlcCache, "an SlcCache or None")
            check_slc(self, self.slc)
        if self.map_cache is not None:
            check_instance("map_cache", self.map_cache, MapCache, "a MapCache or None")
            check_map_cache(self, self.map_cache)

    @property
    def slots(self) -> int:
        """FTL pages (host units of ``geometry.page_size``) one NAND program writes."""
        return 1 if self.nand_page_size is None else self.nand_page_size // self.geometry.page_size

    @property
    def program_slots(self) -> int:
        """Slots one NAND program writes: a NAND page's; with ``one_shot`` a word line's (one
        NAND page of each type); with ``multi_plane`` that on every plane of the die."""
        return (self.slots * (self.timing.bits_per_cell if self.one_shot else 1)
                * (self.geometry.planes_per_die if self.multi_plane else 1))

    @property
    def array_units(self) -> int:
        """Units the engine schedules NAND operations on: planes, or with ``multi_plane`` dies
        (their planes read, program and erase together)."""
        return self.units // (self.geometry.planes_per_die if self.multi_plane else 1)

    @property
    def cache_slots(self) -> int:
        """Slots the write cache holds (0: no cache)."""
        return self.cache_bytes // self.geometry.page_size

    @property
    def units(self) -> int:
        """Planes, each an independent unit of work."""
        g = self.geometry
        return g.channels * g.dies_per_channel * g.planes_per_die

    @property
    def ftl_geometry(self) -> Geometry:
        """The FTL's view: one block per plane-block index, ``pages_per_block x units`` pages."""
        g = self.geometry
        return Geometry(blocks_per_plane=g.blocks_per_plane, pages_per_block=g.pages_per_block * self.units,
                        page_size=g.page_size, op=g.op)

    @property
    def ftl_config(self) -> FtlConfig:
        return FtlConfig(policy=self.policy, separation="gc", gc_low=self.gc_critical,
                         gc_high=self.gc_background)

    @property
    def transfer_us(self) -> float:
        """Channel time of one page, microseconds."""
        return self.timing.transfer_us(self.geometry.page_size)
