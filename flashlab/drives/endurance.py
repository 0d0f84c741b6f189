"""From write amplification to an endurance rating: TBW and DWPD of the drive presets.

A drive wears out when its flash has taken its rated program/erase cycles. The host can write

    TBW = raw bytes x P/E cycles / WA,     raw bytes = user bytes x (1 + op),

where WA is the write amplification *in bytes* (flash bytes programmed per host byte) of the
workload the rating assumes, and over a warranty of ``years``

    DWPD = TBW / (user bytes x 365 x years)

drive writes per day. Enterprise drives are rated under the JEDEC JESD219 enterprise workload
(:class:`~flashlab.workload.EnterpriseEndurance`), client drives under JESD219A's client trace,
which is not reproduced here: the enterprise workload's WA is then an upper bound on theirs (a
client trace writes less randomly), so the model's TBW a lower bound on what the flash allows.
:func:`endurance` measures the WA on the FTL (:func:`flashlab.ftl.simulate`, greedy cleaning, a
device of ``blocks`` blocks at the drive's over-provisioning) and :data:`RATINGS` holds the
ratings the datasheets publish, each with its source.

One NAND figure behind these is set from a rating rather than published: the P/E rating of
Samsung's V6 TLC (:data:`flashlab.drives.nand.SAMSUNG_V6_TLC`), set once from the PM9A3's 1.3
DWPD (see :data:`CALIBRATED_FROM`). Every other rating is a prediction.
"""

from __future__ import annotations

from dataclasses import dataclass

from flashlab._validate import check_choice, check_instance, check_int, check_real, check_seed, check_text
from flashlab.device.geometry import Geometry
from flashlab.drives.drive import Drive
from flashlab.ftl import FtlConfig, simulate
from flashlab.workload import EnterpriseEndurance, Workload

#: The workloads :func:`endurance` runs: JESD219's enterprise mix, and 4 KiB uniform random writes
#: (the workload of the oldest ratings, e.g. the Intel SSD 320's).
WORKLOADS = ("enterprise", "random_4k")
#: Bytes in a terabyte, as ratings count them.
TB = 10**12


@dataclass(frozen=True, kw_only=True)
class Rating:
    """A datasheet's endurance rating.

    Parameters
    ----------
    tbw : float > 0, terabytes written (``10**12`` bytes); ``dwpd x capacity x 365 x years`` when the
        datasheet gives drive writes per day
    years : float > 0, the warranty period the rating spans
    workload : one of :data:`WORKLOADS`, or ``client`` (JESD219A's client trace)
    source : str, bibliography key(s)
    note : str, what the figure is
    """

    tbw: float
    years: float
    workload: str
    source: str
    note: str = ""

    def __post_init__(self):
        check_real("tbw", self.tbw, 0.0, 1e9, lo_open=True)
        check_real("years", self.years, 0.0, 100.0, lo_open=True)
        check_choice("workload", self.workload, WORKLOADS + ("client",))
        check_text("source", self.source, 1, 200)
        check_text("note", self.note, 0, 2000)


#: Published endurance ratings of the presets, by key. The X25-E's 1 PB and the F20's rating are
#: left out: neither was verified in a source (shared/reference/drives.md).
RATINGS = {
    "ssd320": Rating(tbw=60.0, years=5.0, workload="random_4k", source="anandtech2010x25mg3",
                     note="Intel's pre-launch specification: 30-60 TB of 4 KiB random writes (the upper figure)"),
    "850pro": Rating(tbw=150.0, years=10.0, workload="client", source="ubergizmo2014850pro",
                     note="150 TBW at launch with a 10-year warranty (later raised to 300 TBW)"),
    "660p": Rating(tbw=200.0, years=5.0, workload="client", source="tomshw2018intel660p",
                   note="1 TB model; about 0.1 drive writes per day"),
    "980pro": Rating(tbw=600.0, years=5.0, workload="client", source="notebookcheck2020980pro",
                     note="1 TB model, 5-year warranty (0.3 drive writes per day)"),
    "pm9a3": Rating(tbw=1.3 * 7.68 * 365 * 5, years=5.0, workload="enterprise", source="heise2020pm9a3",
                    note="1.3 drive writes per day (early data sheet) over a 5-year warranty (the period "
                         "is an assumption: datacenter drives' usual one)"),
}
#: The rating that sets the one NAND figure no vendor publishes here: the V6 TLC's P/E cycles,
#: from the PM9A3's DWPD (``tests/test_endurance.py`` checks that the two agree).
CALIBRATED_FROM = "pm9a3"


@dataclass(frozen=True)
class Endurance:
    """A drive's modelled endurance under one workload.

    ``wa_pages`` (flash page programs per host page write, the FTL's WA), ``page_overhead``
    (host pages written per host byte, in 4 KiB pages: >1 when requests are smaller than a
    page), ``wa`` (= wa_pages x page_overhead, bytes), ``tbw`` (terabytes), ``dwpd`` (over
    ``years``), ``pe_cycles`` and ``raw_bytes`` used.
    """

    drive: str
    workload: str
    wa_pages: float
    page_overhead: float
    wa: float
    pe_cycles: int
    raw_bytes: float
    tbw: float
    years: float
    dwpd: float


def tbw(raw_bytes: float, pe_cycles: float, wa: float) -> float:
    """Terabytes the host can write: ``raw_bytes x pe_cycles / wa / 10**12``."""
    raw_bytes = check_real("raw_bytes", raw_bytes, 0.0, 1e18, lo_open=True)
    pe_cycles = check_real("pe_cycles", pe_cycles, 0.0, 1e7, lo_open=True)
    wa = check_real("wa", wa, 1e-3, 1e6)
    return raw_bytes * pe_cycles / wa / TB


def dwpd(tbw_tb: float, user_bytes: float, years: float) -> float:
    """Drive writes per day over ``years``: ``tbw_tb x 10**12 / (user_bytes x 365 x years)``."""
    tbw_tb = check_real("tbw_tb", tbw_tb, 0.0, 1e12)
    user_bytes = check_real("user_bytes", user_bytes, 0.0, 1e18, lo_open=True)
    years = check_real("years", years, 0.0, 100.0, lo_open=True)
    return tbw_tb * TB / (user_bytes * 365.0 * years)


def endurance(drive: Drive, workload: str = "enterprise", *, years: float | None = None, blocks: int = 4096,
              fills: float = 10.0, seed: int = 0) -> Endurance:
    """TBW and DWPD of ``drive`` under ``workload`` (one of :data:`WORKLOADS`).

    The WA is the FTL's steady state (greedy cleaning) on a device of ``blocks`` (in [64, 65536])
    blocks of 32 pages at the drive's over-provisioning, ``fills`` (in [2, 100]) drive writes
    after a sequential fill, measured over the second half (the enterprise mix's cold zone needs
    about ten to settle). ``years``: the warranty for DWPD (default: the rating's, else 5).
    """
    check_instance("drive", drive, Drive)
    check_choice("workload", workload, WORKLOADS)
    blocks = check_int("blocks", blocks, 64, 65536)
    fills = check_real("fills", fills, 2.0, 100.0)
    check_seed("seed", seed)
    rating = RATINGS.get(drive.key)
    years = check_real("years", years if years is not None else (rating.years if rating else 5.0), 0.0, 100.0,
                       lo_open=True)
    g = Geometry(blocks_per_plane=blocks, pages_per_block=32, op=drive.op)
    wl = EnterpriseEndurance() if workload == "enterprise" else Workload()
    overhead = wl.page_overhead if workload == "enterprise" else 1.0
    r = simulate(g, FtlConfig(), wl, fills=fills, seed=seed, progress=False)
    wa = r.wa_steady * overhead
    raw = drive.capacity_bytes * (1.0 + drive.op)
    t = tbw(raw, drive.nand.pe_cycles, wa)
    return Endurance(drive.key, workload, r.wa_steady, overhead, wa, drive.nand.pe_cycles, raw, t, years,
                     dwpd(t, drive.capacity_bytes, years))
