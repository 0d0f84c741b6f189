"""NAND operation timing: named, cited presets of tR, tPROG per page type and tBERS.

All times are in microseconds, the channel rate in bytes per microsecond (= MB/s, decimal).
A multi-level cell stores ``bits_per_cell`` pages per wordline (lower/upper for MLC,
lower/middle/upper for TLC, four for QLC); those page types are read and programmed at
different speeds (Grupp et al. 2009: the "fast" and "slow" pages of MLC). Values come from
shared/reference/nand_timing.csv:

* ``slc``: Agrawal et al., USENIX ATC 2008 (25 / 200 / 1500 us).
* ``mlc``: Micron L95B MLC as profiled in FEMU (Li et al., FAST 2018): tR 48/64 us,
  tPROG 850/2300 us (lower/upper page), tBERS 3000 us.
* ``mlc_mqsim``: MQSim's default MLC (Tavakkol et al., FAST 2018): 75 / 750 / 3800 us.
* ``tlc``: SimpleSSD's TLC values via FEMU: tR 56.5/77.5/106 us, tPROG 820.5/2225/5734 us,
  tBERS 3000 us.
* ``qlc``: Intel 96-layer QLC from PACA (ICCD 2022): tR 47.9/76.2/134.6/228.1 us, tPROG
  1860 us (average, the same for every page type here), tBERS 6340 us.

The channel (ONFI bus) rate defaults to 333 MB/s, MQSim's default (333 MT/s, 8-bit bus).
"""

from __future__ import annotations

from dataclasses import dataclass

from flashlab._validate import check_choice, check_int, check_real, check_text, plain_fields, quote

MAX_BITS = 4


@dataclass(frozen=True, kw_only=True)
class NandTiming:
    """Latencies of one NAND part.

    Parameters
    ----------
    name : str
        A label.
    t_read_us, t_prog_us : tuple of float > 0, one per page type (``bits_per_cell`` entries)
        Array read (sense) and program time of each page type, microseconds.
    t_erase_us : float > 0
        Block erase time tBERS, microseconds.
    channel_mb_s : float in [1e-3, 1e6]
        Channel (bus) transfer rate in MB/s (bytes per microsecond); a page of ``page_size``
        bytes takes ``page_size / channel_mb_s`` microseconds to cross it.
    source : str
        Where the numbers come from.
    t_prog_one_shot_us : float > 0 or None
        One-shot program time of a whole word line (every page type of it in one program, as
        3D TLC and QLC parts program), microseconds; None: the part's one-shot time is not
        given (a drive with ``one_shot`` needs it, :class:`flashlab.ssd.SsdConfig`).
    """

    name: str = "custom"
    t_read_us: tuple = (50.0,)
    t_prog_us: tuple = (500.0,)
    t_erase_us: float = 3000.0
    channel_mb_s: float = 333.0
    source: str = ""
    t_prog_one_shot_us: float | None = None

    def __post_init__(self):
        plain_fields(self)
        check_text("name", self.name, 1, 200)
        check_text("source", self.source, 0, 2000)
        for field in ("t_read_us", "t_prog_us"):
            value = getattr(self, field)
            if not isinstance(value, (tuple, list)) or not 1 <= len(value) <= MAX_BITS:
                raise ValueError(f"{field} must be a tuple of 1 to {MAX_BITS} times (one per page type); got {quote(value)}")
            for i, v in enumerate(value):
                check_real(f"{field}[{i}]", v, 0.0, 1e7, lo_open=True)
            object.__setattr__(self, field, tuple(float(v) for v in value))
        if len(self.t_read_us) != len(self.t_prog_us):
            raise ValueError(f"t_read_us and t_prog_us must have one entry per page type; got "
                             f"{len(self.t_read_us)} and {len(self.t_prog_us)}")
        check_real("t_erase_us", self.t_erase_us, 0.0, 1e8, lo_open=True)
        check_real("channel_mb_s", self.channel_mb_s, 1e-3, 1e6)  # a page of 1 GiB crosses in at most ~1e12 us
        if self.t_prog_one_shot_us is not None:
            check_real("t_prog_one_shot_us", self.t_prog_one_shot_us, 0.0, 1e7, lo_open=True)

    @property
    def bits_per_cell(self) -> int:
        """Page types per wordline (1 SLC, 2 MLC, 3 TLC, 4 QLC)."""
        return len(self.t_prog_us)

    @property
    def mean_prog_us(self) -> float:
        """tPROG averaged over page types, each weighted equally (a drive's programs weight each type
        by its share of a block's pages: :func:`flashlab.ssd.page_type_shares`)."""
        return sum(self.t_prog_us) / len(self.t_prog_us)

    @property
    def mean_read_us(self) -> float:
        return sum(self.t_read_us) / len(self.t_read_us)

    def transfer_us(self, page_size: int) -> float:
        """Channel time of one page of ``page_size`` bytes, microseconds."""
        page_size = check_int("page_size", page_size, 1, 2**30)
        return page_size / self.channel_mb_s


PRESETS: dict[str, NandTiming] = {
    "slc": NandTiming(name="slc", t_read_us=(25.0,), t_prog_us=(200.0,), t_erase_us=1500.0,
                      source="Agrawal et al., USENIX ATC 2008"),
    "mlc": NandTiming(name="mlc", t_read_us=(48.0, 64.0), t_prog_us=(850.0, 2300.0), t_erase_us=3000.0,
                      source="Micron L95B MLC via FEMU (Li et al., FAST 2018)"),
    "mlc_mqsim": NandTiming(name="mlc_mqsim", t_read_us=(75.0, 75.0), t_prog_us=(750.0, 750.0),
                            t_erase_us=3800.0, source="MQSim default (Tavakkol et al., FAST 2018)"),
    "tlc": NandTiming(name="tlc", t_read_us=(56.5, 77.5, 106.0), t_prog_us=(820.5, 2225.0, 5734.0),
                      t_erase_us=3000.0, source="SimpleSSD TLC via FEMU (Li et al., FAST 2018)"),
    "qlc": NandTiming(name="qlc", t_read_us=(47.9, 76.2, 134.6, 228.1),
                      t_prog_us=(1860.0, 1860.0, 1860.0, 1860.0), t_erase_us=6340.0,
                      source="Intel 96-layer QLC (PACA, Chen et al., ICCD 2022); tPROG is the average"),
}


def timing_preset(name: str) -> NandTiming:
    """The named preset (one of ``PRESETS``: slc, mlc, mlc_mqsim, tlc, qlc)."""
    return PRESETS[check_choice("name", name, tuple(PRESETS))]
