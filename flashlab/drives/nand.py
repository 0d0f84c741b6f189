"""NAND parts the drive presets are built from, each from its generation's published figures.

A part is what one die does: its page and block, its planes, its array times, its interface rate
and its rated program/erase cycles. Where a vendor publishes a datasheet (the planar Micron parts)
the times are its front-page figures; for 3D NAND, where no datasheet is public, the program time
comes from the die's program throughput published at ISSCC: a one-shot TLC or QLC program writes
every plane's page of every bit of a word line at once, so one logical page costs
``planes x page_bytes / throughput`` of array time per plane (Samsung's press figures, "write
below 450 us" for V6, are such per-page equivalents: shared/reference/drives.md section 11c).
Every figure names its source in ``source``; sizes in bytes, times in microseconds, rates in MB/s
(bytes per microsecond).
"""

from __future__ import annotations

from dataclasses import dataclass

from flashlab._validate import check_bool, check_int, check_real, check_text, quote
from flashlab.device.timing import MAX_BITS, NandTiming

CELLS = {1: "SLC", 2: "MLC", 3: "TLC", 4: "QLC"}


@dataclass(frozen=True, kw_only=True)
class NandPart:
    """One NAND die's published figures.

    Parameters
    ----------
    name : str
    bits_per_cell : int in [1, 4]
    die_bits : int, bits of user data per die (e.g. ``512 * 2**30`` for a 512 Gb die)
    page_bytes : int, user bytes of one page (spare area left out)
    pages_per_block : int, pages of one erase block (all bits of its word lines)
    planes : int in [1, 16]
    t_read_us : tuple of float, array read per page type (lower page first), microseconds
    t_prog_us : tuple of float, array program per page type, microseconds (one logical page)
    t_erase_us : float, block erase
    io_mb_s : float, interface rate of one channel (MT/s of an 8-bit bus = MB/s)
    pe_cycles : int, rated program/erase cycles
    source : str, where each figure comes from (bibliography keys in the text)
    one_shot : bool, the part programs a word line's pages (one per bit) in one operation of
        ``sum(t_prog_us)`` (3D TLC and QLC)
    """

    name: str
    bits_per_cell: int
    die_bits: int
    page_bytes: int
    pages_per_block: int
    planes: int
    t_read_us: tuple
    t_prog_us: tuple
    t_erase_us: float
    io_mb_s: float
    pe_cycles: int
    source: str
    one_shot: bool = False

    def __post_init__(self):
        check_text("name", self.name, 1, 200)
        check_int("bits_per_cell", self.bits_per_cell, 1, MAX_BITS)
        check_int("die_bits", self.die_bits, 2**20, 2**50)
        check_int("page_bytes", self.page_bytes, 512, 2**20)
        check_int("pages_per_block", self.pages_per_block, 2, 65535)
        check_int("planes", self.planes, 1, 16)
        check_real("t_erase_us", self.t_erase_us, 0.0, 1e8, lo_open=True)
        check_real("io_mb_s", self.io_mb_s, 0.001, 1e5)
        check_int("pe_cycles", self.pe_cycles, 1, 10**7)
        check_text("source", self.source, 1, 4000)
        check_bool("one_shot", self.one_shot)
        # the times are checked by NandTiming, one per page type
        if not isinstance(self.t_read_us, tuple) or len(self.t_read_us) != self.bits_per_cell:
            raise ValueError(f"t_read_us must hold {self.bits_per_cell} times (bits_per_cell); got {quote(self.t_read_us)}")
        if not isinstance(self.t_prog_us, tuple) or len(self.t_prog_us) != self.bits_per_cell:
            raise ValueError(f"t_prog_us must hold {self.bits_per_cell} times (bits_per_cell); got {quote(self.t_prog_us)}")
        self.timing  # noqa: B018 (NandTiming checks each time)

    @property
    def cell(self) -> str:
        """SLC, MLC, TLC or QLC."""
        return CELLS[self.bits_per_cell]

    @property
    def timing(self) -> NandTiming:
        """The engine's :class:`~flashlab.device.timing.NandTiming` of this part."""
        return NandTiming(name=self.name, t_read_us=self.t_read_us, t_prog_us=self.t_prog_us,
                          t_erase_us=self.t_erase_us, channel_mb_s=self.io_mb_s, source=self.source,
                          t_prog_one_shot_us=sum(self.t_prog_us) if self.one_shot else None)

    @property
    def program_mb_s(self) -> float:
        """Program throughput of one die, all planes busy (MB/s)."""
        mean = sum(self.t_prog_us) / len(self.t_prog_us)
        return self.planes * self.page_bytes / mean


def one_shot_prog_us(planes: int, page_bytes: int, die_mb_s: float) -> float:
    """Array time per logical page that a die programming ``die_mb_s`` MB/s over ``planes``
    planes of ``page_bytes`` implies (a one-shot program of a word line's ``bits`` pages takes
    ``bits`` times this), microseconds."""
    return planes * page_bytes / die_mb_s


# ------------------------------------------------------------------ planar parts: Micron datasheets
#: Micron MT29F16G08ABABA, 34 nm SLC, ONFI 2.1 (micron2009slc): 4 KiB page, 128 pages per block,
#: 2 planes of 2,048 blocks, 166 MT/s, tR 25 us (max), tPROG 230 us and tBERS 0.7 ms (typical),
#: 100,000 cycles. Intel's 50 nm SLC of the X25-E publishes no timing; this is the nearest SLC part
#: with a verified datasheet and a 4 KiB page.
MICRON_SLC_34NM = NandPart(
    name="Micron MT29F16G08ABABA 34 nm SLC", bits_per_cell=1, die_bits=16 * 2**30, page_bytes=4096,
    pages_per_block=128, planes=2, t_read_us=(25.0,), t_prog_us=(230.0,), t_erase_us=700.0, io_mb_s=166.0,
    pe_cycles=100_000, source="micron2009slc (datasheet front page)")

#: Micron MT29F64G08CBAAA (L74A), 25 nm MLC, ONFI 2.2 (micron2010l74a): 8 KiB page, 256 pages per
#: block, 2 planes of 2,048 blocks, 200 MT/s, tR 50 us (max), tPROG 1,300 us and tBERS 3 ms
#: (typical), 5,000 cycles. The datasheet gives one typical tPROG, so both page types share it.
MICRON_MLC_25NM = NandPart(
    name="Micron MT29F64G08CBAAA (L74A) 25 nm MLC", bits_per_cell=2, die_bits=64 * 2**30, page_bytes=8192,
    pages_per_block=256, planes=2, t_read_us=(50.0, 50.0), t_prog_us=(1300.0, 1300.0), t_erase_us=3000.0,
    io_mb_s=200.0, pe_cycles=5000, source="micron2010l74a (datasheet front page)")

# ------------------------------------------------------------------ 3D parts: ISSCC papers
#: Samsung V-NAND, 32-layer MLC (the 850 PRO's second generation). Published: the first
#: generation's program throughput, 50 MB/s per die at 3,000 cycles (park2014vnand, ISSCC 2014),
#: and two planes (anandtech2014vnanddie). Not published, taken from the rule of thumb for MLC
#: (vatto2012tlc: read 50 us, erase 3 ms): tR and tBERS. The die (128 Gb) follows from the 1 TB
#: drive's 8 packages of 128 GB; the page (8 KiB) and block (384 pages: 32 layers x 6 strings x
#: 2 bits) are assumptions.
SAMSUNG_VNAND_MLC_32L = NandPart(
    name="Samsung V-NAND 32-layer MLC", bits_per_cell=2, die_bits=128 * 2**30, page_bytes=8192,
    pages_per_block=384, planes=2, t_read_us=(50.0, 50.0),
    t_prog_us=(one_shot_prog_us(2, 8192, 50.0),) * 2, t_erase_us=3000.0, io_mb_s=400.0, pe_cycles=6000,
    source="park2014vnand (program throughput), anandtech2014vnanddie (2 planes), vatto2012tlc (tR, tBERS); "
           "interface 400 MT/s, page, block and cycles assumed")

#: Samsung V6, 128-layer TLC, 512 Gb (ISSCC 2019 via tallis2021isscc): 2 planes, tR 45 us,
#: 82 MB/s program throughput per die, 1.2 Gb/s interface. A 16 KiB page (the size SK hynix
#: publishes for its 300-layer die) and a block of 128 layers x 4 strings x 3 bits = 1,536 pages
#: (the structure Kioxia's published 24 MB block implies for 128 layers; ``flashlab.tech.VerticalString``
#: computes it from the stack) are assumptions; tBERS is
#: the engine's TLC preset (SimpleSSD via FEMU, 3 ms), as no 3D erase time is published. Samsung's
#: press figure, "write below 450 us" per page (hexus2019v6), matches the per-page equivalent of
#: 82 MB/s: 2 x 16 KiB / 82 MB/s = 400 us. No P/E rating is published: 8,000 cycles is set once
#: from the PM9A3's 1.3 drive writes per day under the JESD219 enterprise workload
#: (:mod:`flashlab.drives.endurance`: 7,994, rounded), so the 980 PRO's 600 TBW is a prediction.
SAMSUNG_V6_TLC = NandPart(
    name="Samsung V6 128-layer TLC 512 Gb", bits_per_cell=3, die_bits=512 * 2**30, page_bytes=16384,
    pages_per_block=1536, planes=2,  # 128 word lines x 4 strings x 3 bits (flashlab.tech.VerticalString)
    t_read_us=(45.0, 45.0, 45.0),
    t_prog_us=(one_shot_prog_us(2, 16384, 82.0),) * 3, t_erase_us=3000.0, io_mb_s=1200.0, pe_cycles=8000, one_shot=True,
    source="tallis2021isscc (ISSCC 2019: tR, throughput, planes, I/O), hexus2019v6 (press timing); cycles set "
           "from heise2020pm9a3 (1.3 DWPD); page, block and tBERS assumed")

#: Intel/Micron 64-layer QLC, 1 Tb: 4 planes (Intel/Micron's announcement). Intel and Micron publish
#: no program throughput for it: the 12 MB/s per die is that of Samsung's 64-layer 1 Tb QLC die of
#: the same year (ISSCC 2018, isscc2018qlc), a stand-in of the same generation and cell count.
#: Reads by page type and tBERS from Intel's 96-layer QLC as measured in PACA (chen2022paca, the
#: engine's ``qlc`` timing), since the 64-layer die publishes none. A 16 KiB page, a block of
#: 64 layers x 4 strings x 4 bits = 1,024 pages and a 533 MT/s interface are assumptions.
INTEL_QLC_64L = NandPart(
    name="Intel/Micron 64-layer QLC 1 Tb", bits_per_cell=4, die_bits=2**40, page_bytes=16384,
    pages_per_block=1024, planes=4,  # 64 word lines x 4 strings x 4 bits (flashlab.tech.VerticalString)
    t_read_us=(47.9, 76.2, 134.6, 228.1),
    t_prog_us=(one_shot_prog_us(4, 16384, 12.0),) * 4, t_erase_us=6340.0, io_mb_s=533.0, pe_cycles=1000, one_shot=True,
    source="isscc2018qlc (Samsung's 64-layer QLC at ISSCC 2018: throughput, a stand-in), chen2022paca (tR, "
           "tBERS); page, block, interface and cycles assumed")
