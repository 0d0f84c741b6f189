"""Multi-level cells: states, Gray codes, page types, sensing counts and latencies.

A cell storing ``bits`` bits has ``2**bits`` threshold-voltage states (ER, P1, P2, ...) separated
by ``2**bits - 1`` read reference voltages. Each bit of the cell belongs to a different page
type; a page read senses only the references at which that page's bit changes, so its latency
grows with its *sensing count*.

Gray code. States are mapped to bits with the binary-reflected Gray code, inverted so the
erased state reads all ones (NAND convention): adjacent states differ in exactly one bit, so a
cell misread into a neighbouring state costs one bit error. Page ``p`` (0 = LSB) holds Gray bit
``bits - 1 - p`` and changes at ``2**p`` references, giving the sensing split

* SLC 1, MLC 1-2 (LSB: Vb; MSB: Va, Vc, as in Cai et al. 2017, ``cai2017``),
* TLC 1-2-4 (lower/middle/upper, the split Cai et al. 2017 describe),
* QLC 1-2-4-8.

For QLC we chose 1-2-4-8 over balanced codes such as 4-4-3-4: the only QLC per-page read times
we have (Intel 96-layer QLC as used by PACA, ``chen2022paca``: 47.9/76.2/134.6/228.1 us) grow
linearly with 1, 2, 4, 8 senses (least-squares residuals <= 7 us), whereas a 4-4-3-4 code would
give nearly equal times. 1-2-4-8 also extends the TLC code of Cai et al. 2017 without change.

Latency model. A page read costs ``t_read_base_us + senses * t_sense_us`` (a fixed part for
command decoding, word-line and bit-line setup and latching, plus one bit-line sensing per
reference): the array read time tR, into the page register; moving the data out over the channel
comes after it and is not included. Program time per
page type comes from datasheet figures (``nand_timing.csv``); pages that only split states
coarsely (the LSB page) program fast, the later pages program slowly, so a datasheet's single
average hides a bimodal distribution (:func:`program_times`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from flashlab._validate import check_int, check_real, check_seed, plain_fields

_CELL_NAMES = {1: "SLC", 2: "MLC", 3: "TLC", 4: "QLC"}
T_PROG_MAX_US = 1e6  # the longest page program time NandTiming accepts
_PAGE_NAMES = ("LSB", "CSB", "MSB", "TSB")


@dataclass(frozen=True)
class CellLevels:
    """State map of a cell storing ``bits`` bits (1 = SLC ... 4 = QLC)."""

    bits: int

    def __post_init__(self):
        plain_fields(self)
        check_int("bits", self.bits, 1, 4)

    @property
    def name(self) -> str:
        """``"SLC"``, ``"MLC"``, ``"TLC"`` or ``"QLC"``."""
        return _CELL_NAMES[self.bits]

    @property
    def n_states(self) -> int:
        return 2**self.bits

    @property
    def state_names(self) -> tuple[str, ...]:
        """``("ER", "P1", ..., "P{n-1}")``: erased state first, in order of threshold voltage."""
        return ("ER",) + tuple(f"P{i}" for i in range(1, self.n_states))

    @property
    def page_names(self) -> tuple[str, ...]:
        """Page types in order of sensing count: LSB, CSB, MSB, TSB (as many as ``bits``).

        With this naming the MLC pages are LSB/MSB, TLC lower/middle/upper are LSB/CSB/MSB and QLC
        adds the top page TSB (Micron's lower/upper/extra/top).
        """
        if self.bits == 2:
            return ("LSB", "MSB")
        return _PAGE_NAMES[: self.bits]

    @property
    def gray(self) -> np.ndarray:
        """``(n_states, bits)`` uint8 array: ``gray[s, p]`` is the bit page ``p`` stores in state ``s``."""
        s = np.arange(self.n_states)
        g = s ^ (s >> 1)
        shifts = self.bits - 1 - np.arange(self.bits)
        return (1 - ((g[:, None] >> shifts[None, :]) & 1)).astype(np.uint8)

    @property
    def page_refs(self) -> tuple[np.ndarray, ...]:
        """Per page, the indices ``k`` (0-based) of the read references it senses.

        Reference ``k`` separates state ``k`` from state ``k + 1``; page ``p`` senses the
        references where its Gray bit changes.
        """
        change = self.gray[1:] != self.gray[:-1]
        return tuple(np.flatnonzero(change[:, p]) for p in range(self.bits))

    @property
    def senses(self) -> np.ndarray:
        """Sensing count per page type (int array): 2**p for page ``p``."""
        return np.array([len(r) for r in self.page_refs], dtype=np.int64)


def cell_levels(bits: int) -> CellLevels:
    """The state map of a ``bits``-bit cell (validated): ``cell_levels(3)`` is TLC."""
    return CellLevels(bits)


@dataclass(frozen=True)
class NandTiming:
    """Array operation times of one technology, in microseconds.

    ``t_prog_us`` holds one program time per page type (LSB first); ``prog_cv`` is the
    coefficient of variation of a single page's program time around its page type's value
    (ISPP loop-count variation); ``t_erase_us`` is the block erase time.
    """

    t_read_base_us: float
    t_sense_us: float
    t_prog_us: tuple[float, ...]
    t_erase_us: float
    prog_cv: float = 0.05

    def __post_init__(self):
        plain_fields(self)
        check_real("t_read_base_us", self.t_read_base_us, 0.0, 1e5)
        check_real("t_sense_us", self.t_sense_us, 0.0, 1e5, lo_open=True)
        check_real("t_erase_us", self.t_erase_us, 0.0, 1e6, lo_open=True)
        check_real("prog_cv", self.prog_cv, 0.0, 1.0)
        if not isinstance(self.t_prog_us, tuple) or not 1 <= len(self.t_prog_us) <= 4:
            raise ValueError(f"t_prog_us must be a tuple of 1 to 4 program times; got {self.t_prog_us!r}")
        for i, t in enumerate(self.t_prog_us):
            check_real(f"t_prog_us[{i}]", t, 0.0, T_PROG_MAX_US, lo_open=True)

    @property
    def bits(self) -> int:
        """Bits per cell implied by the number of page types."""
        return len(self.t_prog_us)

    @property
    def mean_prog_us(self) -> float:
        """Average program time over page types: the figure datasheets print."""
        return float(np.mean(self.t_prog_us))


def read_latency_us(timing: NandTiming) -> np.ndarray:
    """Read latency per page type in us: ``t_read_base_us + senses * t_sense_us``."""
    _check_timing(timing)
    return timing.t_read_base_us + cell_levels(timing.bits).senses * timing.t_sense_us


@dataclass
class ProgramTimes:
    """Program times of consecutive pages: ``page_type`` (int array, index into ``page_names``)
    and ``time_us`` (float array, us)."""

    page_names: tuple[str, ...]
    page_type: np.ndarray
    time_us: np.ndarray

    @property
    def mean_us(self) -> float:
        return float(self.time_us.mean())


def program_times(timing: NandTiming, n_pages: int, seed: int) -> ProgramTimes:
    """Program times of ``n_pages`` pages written in order (page types cycle LSB, CSB, ...).

    Each page's time is its page type's value times a lognormal factor of mean 1 and
    coefficient of variation ``timing.prog_cv``, so the expected mean over whole word lines is
    the datasheet average :attr:`NandTiming.mean_prog_us` while the histogram is multimodal
    (fast LSB pages, slow upper pages).
    """
    _check_timing(timing)
    n = check_int("n_pages", n_pages, 1, 10**8)
    rng = np.random.default_rng(check_seed("seed", seed))
    page_type = np.arange(n) % timing.bits
    s2 = np.log1p(timing.prog_cv**2)
    factor = np.exp(np.sqrt(s2) * rng.standard_normal(n) - 0.5 * s2)
    time_us = np.asarray(timing.t_prog_us)[page_type] * factor
    return ProgramTimes(cell_levels(timing.bits).page_names, page_type, time_us)


def _check_timing(timing) -> None:
    if not isinstance(timing, NandTiming):
        raise ValueError(f"timing must be a NandTiming; got {timing!r} ({type(timing).__name__})")
