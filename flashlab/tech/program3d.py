"""Program time of a 3D NAND word line from its structure: ISPP loops and verifies counted by the
cell model, each verify a sense of the vertical string, one shot or page by page.

A program is a staircase of ISPP loops, each a program pulse followed by verifies, one per state
whose cells may be passing at that loop (``tPROG = loops · t_pulse + verifies · t_verify``):

* **Loops and verifies** come from the cell model (:func:`flashlab.cell.ispp.program_page`): the
  cells of one state on one page (``page_bytes · 8 / 2**bits`` of them) are programmed with the
  book's ISPP (:data:`~flashlab.cell.ispp.ISPP_SLC_2XNM`, 0.3 V steps) to that state's verify
  level, and the pulses they need spread over a window set by their oxide and coupling variation.
  State ``k`` is verified from the loop its fastest cell passes to the loop its slowest does
  (smart verify: a state is not verified before any of its cells can reach it), so a pass of
  several states costs the sum of their windows in verifies and its slowest state's last pulse in
  loops. The cell is the book's planar floating-gate one (:data:`~flashlab.cell.FG_CELL_2XNM`, its
  oxide and coupling spread assumed, :class:`~flashlab.cell.ispp.CellVariation`) standing in for a
  charge-trap cell: the windows are its, not a measured 3D die's. The states are one spacing apart; the spacing is the ISPP step divided by the step's
  fraction of the state spacing in the book's calibrated TLC cell (``PRESETS["tlc"]``: 12 of 63.7
  units, so 1.59 V), and the first state verifies at 0 V.
* **One shot or page by page.** A 3D TLC die places a word line's ``2**bits - 1`` states in one
  staircase, one shot; a planar die programmed the pages one at a time, pass ``j`` placing the
  ``2**j - 1`` states that its pages split the window into (TLC: the middle state, then 3, then
  all 7), each pass its own staircase.
* **A verify is a sense of the string** (:attr:`flashlab.tech.VerticalString.t_sense_us`): the
  string's current falls with every layer added, so each verify, and the program, slows down.
* **The pulse time** (the pulse and the word line's rise and fall) is the one parameter no source
  gives. It is set once, :data:`T_PULSE_US`, from one published figure: Samsung's 32-layer 128 Gb
  TLC V-NAND programs in 700 us (Im et al., ISSCC 2015, ``samsung2015tlc``), read as the one-shot
  program of a word line. Every other die's program time is a prediction. The word line's own RC
  delay (it grows with the line's length and its staircase contact) is not modelled apart: no
  published figure was found to set it, so the calibrated pulse holds it fixed across layers.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from flashlab._validate import check_choice, check_int, check_real
from flashlab.cell.floating_gate import FG_CELL_2XNM
from flashlab.cell.ispp import ISPP_SLC_2XNM, IsppParams, program_page
from flashlab.tech.string3d import VerticalString

#: ISPP step as a fraction of the state spacing in the book's calibrated TLC cell
#: (``PRESETS["tlc"].vth``: ``ispp_step`` 12 over a mean spacing of 63.7 units); a test keeps it equal.
STEP_PER_SPACING = 12.0 / 63.73333333333333

#: First state's verify level, V: 3 V above the erased cells' mean (-3 V), about two spacings.
FIRST_VERIFY_V = 0.0

#: Pulse time, microseconds (pulse, word-line rise and fall): set once from Samsung's 32-layer TLC,
#: tPROG 700 us (``samsung2015tlc``): 700 = 41 loops x T_PULSE_US + 90 verifies x 5.2 us (its string's
#: sense). tests/test_tech_program3d.py recomputes it.
T_PULSE_US = 5.66

MODES = ("one-shot", "page-by-page")


def pass_states(bits: int, mode: str) -> tuple[tuple[int, ...], ...]:
    """The states (1 to ``2**bits - 1``) each pass places: one pass of all states (``one-shot``), or
    ``bits`` passes, pass ``j`` placing states ``k · 2**(bits - j)`` (``page-by-page``)."""
    bits = check_int("bits", bits, 1, 4)
    mode = check_choice("mode", mode, MODES)
    top = 2**bits
    if mode == "one-shot":
        return (tuple(range(1, top)),)
    return tuple(tuple(range(top >> j, top, top >> j)) for j in range(1, bits + 1))


@dataclass(frozen=True)
class ProgramLadder:
    """ISPP loops and verifies of each pass of a word-line program (module docstring).

    ``bits``, ``mode``; ``passes``: the states each pass places; ``first``/``last``: per state
    (index ``k - 1``), the first and last pulse at which one of its cells passes verify;
    ``loops``/``verifies``: per pass (int arrays); ``cells_per_state``: cells simulated per state.
    """

    bits: int
    mode: str
    passes: tuple
    first: np.ndarray
    last: np.ndarray
    loops: np.ndarray
    verifies: np.ndarray
    cells_per_state: int

    def pass_us(self, t_sense_us: float, t_pulse_us: float = T_PULSE_US) -> np.ndarray:
        """Time of each pass, microseconds: ``loops · t_pulse_us + verifies · t_sense_us``."""
        t_sense_us = check_real("t_sense_us", t_sense_us, 0.0, 1e4)
        t_pulse_us = check_real("t_pulse_us", t_pulse_us, 0.0, 1e4)
        return self.loops * t_pulse_us + self.verifies * t_sense_us

    def word_line_us(self, string: VerticalString, t_pulse_us: float = T_PULSE_US) -> float:
        """Time to program a word line of ``string`` (every pass), microseconds."""
        if not isinstance(string, VerticalString):
            raise ValueError(f"string must be a VerticalString; got {type(string).__name__}")
        return float(self.pass_us(string.t_sense_us, t_pulse_us).sum())


def program_ladder(bits: int = 3, mode: str = "one-shot", page_bytes: int = 16384, seed: int = 0,
                   ispp: IsppParams = ISPP_SLC_2XNM) -> ProgramLadder:
    """Count the ISPP loops and verifies of a word-line program of ``bits`` per cell in ``mode``
    (``one-shot`` or ``page-by-page``), simulating ``page_bytes · 8 / 2**bits`` cells per state
    (pages of ``page_bytes``, 512 B to 64 KiB) with ``ispp`` (its step and pulse; the verify levels
    are the ladder's). Same seed, same counts. About 0.1 s for TLC at 16 KiB."""
    states = pass_states(bits, mode)
    page_bytes = check_int("page_bytes", page_bytes, 512, 65536)
    seed = check_int("seed", seed, 0, 2**59 - 1)  # state k draws with seed * 16 + k
    if not isinstance(ispp, IsppParams):
        raise ValueError(f"ispp must be an IsppParams; got {type(ispp).__name__}")
    spacing = ispp.v_step / STEP_PER_SPACING
    top_v = FIRST_VERIFY_V + (2**bits - 2) * spacing
    if top_v > 10.0:
        raise ValueError(f"ispp.v_step must keep the top state's verify level at most 10 V ({2**bits - 1} states "
                         f"{spacing:.2f} V apart from {FIRST_VERIFY_V:g} V); got v_step={ispp.v_step!r}")
    cells = page_bytes * 8 // 2**bits
    n_states = 2**bits - 1
    first, last = np.zeros(n_states, np.int64), np.zeros(n_states, np.int64)
    for k in range(1, n_states + 1):
        level = IsppParams(v_start=ispp.v_start, v_step=ispp.v_step, v_verify=FIRST_VERIFY_V + (k - 1) * spacing,
                           max_pulses=1000, t_pulse=ispp.t_pulse, t_verify=ispp.t_verify)
        page = program_page(FG_CELL_2XNM, level, cells, seed=seed * 16 + k)
        if not page.verified.all():
            raise ValueError(f"ispp must bring every cell to state {k}'s verify level ({level.v_verify:.2f} V) within "
                             f"1000 pulses; got v_start={ispp.v_start!r}, v_step={ispp.v_step!r}, "
                             f"t_pulse={ispp.t_pulse!r}")
        first[k - 1], last[k - 1] = int(page.pulses.min()), int(page.pulses.max())
    loops = np.array([max(last[k - 1] for k in p) for p in states], np.int64)
    verifies = np.array([sum(last[k - 1] - first[k - 1] + 1 for k in p) for p in states], np.int64)
    return ProgramLadder(bits, mode, states, first, last, loops, verifies, cells)
