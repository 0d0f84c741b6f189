"""Named models of real drives, 2008 to 2021, each built from published figures and checked
against its datasheet (:func:`flashlab.drives.validate`).

Every parameter names its source (bibliography keys in ``book/references.bib``; the figures and
their verification status are collected in the project's ``shared/reference/drives.md``). The
host links use the engine's defaults for protocol efficiency and command overhead
(:class:`~flashlab.ssd.HostInterface`): assumptions, the same for every drive of an interface.
The controller's command time is the one calibrated parameter (:mod:`flashlab.drives.drive`).

* :data:`X25E`: Intel X25-E 32 GB (2008), SATA 3 Gb/s, 50 nm SLC, 10 channels.
* :data:`F20`: Sun Flash Accelerator F20 (2009), the Exadata V2/X2 flash card: four 24 GB SLC
  modules, each a SATA-2 SSD, behind one SAS controller.
* :data:`SSD320`: Intel SSD 320 300 GB (2011), SATA 3 Gb/s, 25 nm MLC, 10 channels x 4 dies.
* :data:`PRO850`: Samsung 850 PRO 256 GB (2014), SATA 6 Gb/s, 32-layer V-NAND MLC.
* :data:`PM9A3`: Samsung PM9A3 7.68 TB (2020), PCIe Gen4 x4 datacenter drive, V6 TLC.
* :data:`PRO980`: Samsung 980 PRO 1 TB (2020), PCIe Gen4 x4 client drive, V6 TLC, SLC cache.
* :data:`P660`: Intel SSD 660p 1 TB (2018), PCIe Gen3 x4 client drive, 64-layer QLC, SLC cache.
* :data:`HMB_64MIB`, :data:`SRAM_1MIB`: where a DRAM-less drive caches its mapping table, for
  any preset's ``config(map_cache=...)`` (the 980 PRO's back end with them stands in for the
  DRAM-less Samsung 980 of the same NAND: a variant, not a preset of its own).
* :data:`DISK`: the Seagate Cheetah 15K.7 of :mod:`flashlab.device.hdd`, the era's 15k disk.
"""

from __future__ import annotations

from dataclasses import replace

from flashlab.device.hdd import CHEETAH_15K7
from flashlab.drives.drive import Allowance, Drive, Figure
from flashlab.drives.nand import INTEL_QLC_64L, MICRON_MLC_25NM, MICRON_SLC_34NM, SAMSUNG_V6_TLC, SAMSUNG_VNAND_MLC_32L
from flashlab.ssd import HostInterface, MapCache

GB = 10**9

#: Why a drive of the SATA era writes more slowly than its model (its allowances say it).
_WRITE_PATH = ("The model's controller spends a read's command time on a write, and its NAND programs far "
               "faster than the drive wrote: what bound the real drive's writes is its firmware's write path "
               "(allocating a page, updating the map and its journal), whose cost no source publishes.")
_WRITE_PATH_LC = _WRITE_PATH[0].lower() + _WRITE_PATH[1:]


X25E = Drive(
    key="x25e", name="Intel X25-E 32 GB", year=2008, capacity_bytes=32 * GB, nand=MICRON_SLC_34NM,
    channels=10, dies_per_channel=2, op=20 * 2 * 2**30 / (32 * GB) - 1, host=HostInterface.sata(3.0), cores=1,
    ecc_decode_us=0.0, plp=False, calibrated_from="random_read_iops",
    datasheet=(
        Figure(metric="random_read_iops", value=35000, source="wikipedia-iops", note="Intel data sheet, QD32"),
        Figure(metric="random_write_iops", value=3300, source="wikipedia-iops", note="Intel data sheet"),
        Figure(metric="seq_read_mb_s", value=250, source="techreport2008x25e"),
        Figure(metric="seq_write_mb_s", value=170, source="techreport2008x25e"),
    ),
    allowances=(
        Allowance(metric="random_write_iops", low=0.85, high=13.0,
                  why=(_WRITE_PATH + " Intel's 3,300 IOPS is a sustained rating; a mixed read/write measurement reached about "
                      "5,000 (wikipedia-iops).")),
        Allowance(metric="seq_write_mb_s", low=0.85, high=2.0,
                  why=("The model writes at the SATA 3 Gb/s link's rate: 40 planes of the stand-in 34 nm SLC part "
                      "program 712 MB/s. The drive wrote 170 MB/s; its own 50 nm SLC timing is unpublished, and " + _WRITE_PATH_LC)),
    ),
    endurance="SLC, about 100,000 P/E cycles (generic); no PB rating verified",
    internals="10-channel Intel controller with NCQ (tomshw2009x25e). NAND: Intel/IMFT 50 nm SLC, whose timing is "
              "unpublished; the nearest verified SLC datasheet with a 4 KiB page (Micron 34 nm) stands in. "
              "20 dies of 16 Gb (40 GiB raw for 32 GB, unverified) give op 0.34. No ECC decode time is "
              "published (SLC of the era used BCH, decoded in a few microseconds): 0.")

#: Four SATA-2 links (one per flash module) side by side behind the card's SAS controller.
_F20_LINK = HostInterface.sata(3.0)

F20 = Drive(
    key="f20", name="Sun Flash Accelerator F20 96 GB", year=2009, capacity_bytes=96 * GB, nand=MICRON_SLC_34NM,
    channels=32, dies_per_channel=2, op=1 / 3,
    host=HostInterface(link_mb_s=4 * _F20_LINK.link_mb_s, command_overhead_us=_F20_LINK.command_overhead_us / 4,
                       max_qd=4 * _F20_LINK.max_qd, duplex=False, name="4 x SATA 3 Gb/s behind SAS"),
    cores=4, ecc_decode_us=0.0, plp=True, calibrated_from="random_read_iops",
    datasheet=(
        Figure(metric="random_read_iops", value=100110, source="lenxy2025f20", note="Oracle white paper table"),
        Figure(metric="random_write_iops", value=83996, source="lenxy2025f20", note="maximum delivered"),
        Figure(metric="seq_read_mb_s", value=1092, source="lenxy2025f20", note="1 MiB reads"),
        Figure(metric="seq_write_mb_s", value=501, source="lenxy2025f20", note="1 MiB writes, maximum delivered"),
    ),
    allowances=(
        Allowance(metric="random_write_iops", low=0.85, high=1.4,
                  why=("Each of the card's four modules is a SATA-2 SSD whose Marvell controller writes more "
                      "slowly than it reads; " + _WRITE_PATH_LC)),
        Allowance(metric="seq_write_mb_s", low=0.85, high=2.6,
                  why=("The model writes at its four SATA links' rate (1,100 MB/s); each module wrote about 125 "
                      "MB/s, bound by its controller's write path, not by its NAND. " + _WRITE_PATH)),
    ),
    endurance="not published",
    internals="Four 24 GB Disk-on-Modules (DOMs), each a Marvell SATA-2 SSD controller with 64 MB DRAM and eight "
              "4 GB SLC packages (32 GB raw, 24 GB exposed: op 1/3), behind an LSI SAS controller and expander "
              "(lenxy2025f20, oracle2010f20). Modelled as one drive with four controller cores (one per DOM) and "
              "four SATA links' bandwidth; the card's four modules are in fact four drives the host stripes over. "
              "Channels (8 per DOM, one per package) and dies (2 of 16 Gb per package) are assumptions, as is the "
              "NAND (Micron 34 nm SLC timing; the F20's part is unpublished).")

SSD320 = Drive(
    key="ssd320", name="Intel SSD 320 300 GB", year=2011, capacity_bytes=300 * GB, nand=MICRON_MLC_25NM,
    channels=10, dies_per_channel=4, op=0.07, host=HostInterface.sata(3.0), cores=1, ecc_decode_us=0.0,
    plp=True, calibrated_from="random_read_iops",
    datasheet=(
        Figure(metric="random_read_iops", value=39500, source="intel2011ssd320", note="Iometer QD32, 300 GB"),
        Figure(metric="random_write_iops", value=23000, source="intel2011ssd320", note="Iometer QD32, 300 GB"),
        Figure(metric="seq_read_mb_s", value=270, source="intel2011ssd320", note="QD32"),
        Figure(metric="seq_write_mb_s", value=220, source="intel2011ssd320", note="QD32"),
        Figure(metric="read_latency_us", value=75, source="intel2011ssd320", note="average, typical"),
    ),
    allowances=(
        Allowance(metric="random_write_iops", low=0.85, high=2.1,
                  why=(_WRITE_PATH + " The drive also writes XOR parity across its dies (about half of its 12.8% spare area "
                      "holds it: anandtech2011ssd320), programs the model does not make.")),
        Allowance(metric="seq_write_mb_s", low=0.85, high=1.5,
                  why=("The model writes at the SATA 3 Gb/s link's rate; the drive's parity writes and firmware "
                      "write path held it at 220 MB/s. " + _WRITE_PATH)),
        Allowance(metric="read_latency_us", low=0.85, high=1.8,
                  why=("Intel's 75 us is the average latency of sequential 4 KiB reads; the harness times random "
                      "ones. A sequential reader finds the next 4 KiB already sensed (8 KiB pages) or read ahead,"
                      " which the model does only within one request.")),
    ),
    endurance="30-60 TB of 4 KiB random writes (pre-launch specification); NAND rated 3,000-5,000 cycles",
    internals="Intel PC29AS21BA0, 10 channels (anandtech2011ssd320). 300 GB: 20 packages of two 64 Gb 25 nm MLC "
              "dies = 40 dies, 4 per channel; raw 320 GiB for 279 GiB visible, 12.8% spare of which about half "
              "holds XOR parity (anandtech2011ssd320), so the FTL keeps op = 0.07. NAND: Micron L74A, the IMFT "
              "25 nm 64 Gb MLC die (that it is Intel's exact part is an inference). Power-loss protection: yes.")

PRO850 = Drive(
    key="850pro", name="Samsung 850 PRO 256 GB", year=2014, capacity_bytes=256 * GB, nand=SAMSUNG_VNAND_MLC_32L,
    channels=8, dies_per_channel=2, op=256 * 2**30 / (256 * GB) - 1, host=HostInterface.sata(6.0), cores=3,
    ecc_decode_us=0.0, plp=False, calibrated_from="random_read_iops",
    datasheet=(
        Figure(metric="random_read_iops", value=100000, source="ubergizmo2014850pro", note="QD32"),
        Figure(metric="random_write_iops", value=90000, source="ubergizmo2014850pro", note="QD32"),
        Figure(metric="seq_read_mb_s", value=550, source="ubergizmo2014850pro"),
        Figure(metric="seq_write_mb_s", value=520, source="ubergizmo2014850pro"),
        Figure(metric="read_latency_us", value=100, source="ubergizmo2014850pro",
               note="10,000 IOPS at QD1 = 100 us per read"),
    ),
    endurance="150 TBW at launch (10-year warranty), later 300 TBW",
    internals="Samsung MEX controller, three Cortex-R4 cores at 400 MHz (legitreviews2014850pro); 8 channels "
              "(the class's usual count, unverified for MEX). 256 GiB raw in 16 dies of 128 Gb (the 1 TB drive's "
              "8 packages of 128 GB: legitreviews2014850pro), 2 per channel, op = 256 GiB / 256 GB - 1. "
              "No SLC cache, no power-loss protection.")

PM9A3 = Drive(
    key="pm9a3", name="Samsung PM9A3 7.68 TB (U.2)", year=2020, capacity_bytes=7680 * GB, nand=SAMSUNG_V6_TLC,
    channels=8, dies_per_channel=16, op=8 * 2**40 / (7680 * GB) - 1, host=HostInterface.pcie(4, 4), cores=1,
    ecc_decode_us=0.0, plp=True, calibrated_from="random_read_iops",
    datasheet=(
        Figure(metric="random_read_iops", value=900000, source="computerbase2020pm9a3", note="U.2 and E1.S"),
        Figure(metric="steady_write_iops", value=200000, source="heise2020pm9a3",
               note="7.68 TB U.2; a datacenter figure, taken as steady state (the SNIA convention)"),
        Figure(metric="seq_read_mb_s", value=6500, source="computerbase2020pm9a3", note="U.2 and E1.S"),
        Figure(metric="seq_write_mb_s", value=3500, source="heise2020pm9a3", note="7.68 TB U.2 (E1.S: 3,200)"),
    ),
    allowances=(
        Allowance(metric="seq_write_mb_s", low=0.85, high=2.3,
                  why=("The model writes at the PCIe link's rate: its 128 dies of V6 TLC program 10.5 GB/s. The "
                       "same drive writes 3,500 MB/s as U.2, 3,200 as E1.S and 1,800 as M.2 (heise2020pm9a3), "
                       "form factors of falling power budgets: a power budget, not the NAND, most likely caps how "
                       "many dies program at once, and the model has none.")),
    ),
    endurance="1.3 drive writes per day (early data sheet, heise2020pm9a3)",
    internals="V6 128-layer TLC (computerbase2020pm9a3). The write figures are the 7.68 TB U.2 model's "
              "(heise2020pm9a3). 8 TiB raw in 128 dies of 512 Gb, 16 per channel on 8 channels (die size and "
              "channel count unpublished: assumptions); op = 8 TiB / 7.68 TB - 1. "
              "Power-loss protection: yes (unverified); the engine's write cache is left out (see the book).")

#: The 980 PRO's V6 dies: 256 Gb, the size Samsung's V6 announcement gives (hexus2019v6).
SAMSUNG_V6_TLC_256 = replace(SAMSUNG_V6_TLC, name="Samsung V6 128-layer TLC 256 Gb", die_bits=256 * 2**30)

PRO980 = Drive(
    key="980pro", name="Samsung 980 PRO 1 TB", year=2020, capacity_bytes=1000 * GB, nand=SAMSUNG_V6_TLC_256,
    channels=8, dies_per_channel=4, op=2**40 / (1000 * GB) - 1, host=HostInterface.pcie(4, 4), cores=1,
    ecc_decode_us=0.0, plp=False, slc_bytes=113 * GB, calibrated_from="random_read_iops",
    datasheet=(
        Figure(metric="random_read_iops", value=1000000, source="notebookcheck2020980pro", note="QD32"),
        Figure(metric="random_write_iops", value=1000000, source="notebookcheck2020980pro", note="QD32"),
        Figure(metric="seq_read_mb_s", value=7000, source="notebookcheck2020980pro"),
        Figure(metric="seq_write_mb_s", value=5000, source="notebookcheck2020980pro", note="into the SLC cache"),
        Figure(metric="direct_write_mb_s", value=1500, source="techpowerup2020980pro",
               note="measured just after the 113 GB SLC cache fills"),
        Figure(metric="read_latency_us", value=1e6 / 22000, source="notebookcheck2020980pro",
               note="22,000 IOPS at QD1"),
    ),
    endurance="600 TBW (5 years, 0.3 drive writes per day)",
    internals="Samsung Elpis controller, 8 channels (channel count unverified), V6 TLC (anandtech2020980pro). "
              "1 TiB raw in 32 dies of 256 Gb, 4 per channel (die size an assumption); op = 1 TiB / 1 TB - 1. "
              "SLC cache (TurboWrite 2.0): 113 GB measured (techpowerup2020980pro), mostly dynamic: the model's "
              "static cache holds what the spare blocks allow (Drive.slc_model_bytes), its SLC program time set "
              "from the 5,000 MB/s written into it. No power-loss protection.")

P660 = Drive(
    key="660p", name="Intel SSD 660p 1 TB", year=2018, capacity_bytes=1000 * GB, nand=INTEL_QLC_64L,
    channels=4, dies_per_channel=2, op=2**40 / (1000 * GB) - 1, host=HostInterface.pcie(3, 4), cores=1,
    ecc_decode_us=0.0, plp=False, slc_bytes=12 * GB, calibrated_from="random_read_iops",
    datasheet=(
        Figure(metric="random_read_iops", value=220000, source="tomshw2018intel660p", note="in the SLC cache"),
        Figure(metric="random_write_iops", value=220000, source="tomshw2018intel660p", note="in the SLC cache"),
        Figure(metric="seq_read_mb_s", value=1800, source="tomshw2018intel660p"),
        Figure(metric="seq_write_mb_s", value=1800, source="tomshw2018intel660p", note="into the SLC cache"),
        Figure(metric="direct_write_mb_s", value=100, source="tomshw2018intel660p", note="after the SLC cache"),
    ),
    allowances=(
        Allowance(metric="seq_read_mb_s", low=0.85, high=1.4,
                  why=("The model reads at its four channels' rate, 4 x 533 MB/s; the interface rate of the "
                      "64-layer QLC die is an assumption (unpublished), and the drive's SM2263 controller reached"
                      " 1,800.")),
    ),
    endurance="200 TBW (about 0.1 drive writes per day)",
    internals="Silicon Motion SM2263, 4 channels, DRAM-backed (tomshw2018intel660p). 8 dies of 1 Tb 64-layer QLC, "
              "2 per channel; op = 1 TiB / 1 TB - 1. SLC cache: 12 GB static, up to 140 GB dynamic on the 1 TB "
              "model while the drive is mostly empty; the model holds the static 12 GB, its SLC program time set "
              "from the 1,800 MB/s written into it. No power-loss protection.")

#: Where a DRAM-less drive keeps its mapping table, for ``Drive.config(map_cache=...)``: a 64 MiB
#: Host Memory Buffer (NVMe 1.2; DRAM-less client drives ask the host for tens of megabytes,
#: anandtech2018rc100, and use it as a mapping-table cache, kim2020hmb), which caches the entries
#: of 64 GiB of a 1 TB drive's LBAs. A look-up there crosses PCIe: ``hit_us`` = 1 us, an
#: assumption (no source publishes an HMB access time). The cache is sized for the full drive:
#: :meth:`Drive.config` scales it with the capacity.
HMB_64MIB = MapCache(cached_bytes=64 * 2**20, hit_us=1.0, name="HMB 64 MiB")
#: A DRAM-less drive without a Host Memory Buffer (a SATA drive, or a host that grants none):
#: only the controller's SRAM caches translation pages. Its size is unpublished: 1 MiB (the
#: entries of 1 GiB of LBAs) is an assumption; at spans of many gigabytes nearly every look-up
#: misses whatever its size.
SRAM_1MIB = MapCache(cached_bytes=2**20, name="controller SRAM 1 MiB")

#: The 15k-rpm disk of the same era (:data:`flashlab.device.hdd.CHEETAH_15K7`), by reference.
DISK = CHEETAH_15K7

#: Every SSD preset, oldest first, by key.
DRIVES = {d.key: d for d in (X25E, F20, SSD320, PRO850, P660, PM9A3, PRO980)}
