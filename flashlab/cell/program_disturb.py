"""Program disturb of erased cells, and the self-boosted program inhibit that limits it.

Programming one word line (WL) of a NAND block puts the program pulse ``Vpgm`` on its gate and
the pass voltage ``Vpass`` on every other word line of the block. Two kinds of cell are stressed
although nobody meant to program them (Suh et al. 1995; Jung et al. 1996; Cai et al. 2017):

* **Vpgm disturb.** A cell on the selected word line whose string is *inhibited* (its bit line
  at ``v_inhibit``, because the cell is to stay erased or has already verified). Its channel
  floats and is coupled up by the word lines ramping to ``Vpass`` (self-boosting), so the
  gate-to-channel voltage is ``Vpgm - Vch`` instead of ``Vpgm``.
* **Vpass disturb.** A cell on another word line of a string that is being programmed (bit line
  at 0 V): its gate sees ``Vpass`` over a grounded channel.

A low ``Vpass`` boosts the inhibited channels too little (Vpgm disturb); a high one stresses the
programmed strings' other cells (Vpass disturb): the window between them is the classic U-shaped
fail count against ``Vpass``.

Model (all voltages in volts, times in seconds unless named ``_us``):

* Boosted channel at the start of a pulse (capacitive self-boosting, Suh et al. 1995):
  ``Vch0 = Vpre + r * (Vg - vth_string)``, with ``r`` the boosting ratio, ``Vg`` the mean
  word-line voltage of the string, ``Vpass + (Vpgm - Vpass) / word_lines``, and ``vth_string``
  the threshold of the string's cells the channel couples through. ``Vpre = v_inhibit - vth_ssl``
  is the precharge the string gets through its select transistor from the bit line before the
  word lines rise; a programmed cell between the selected cell and the bit line cuts that path,
  and the channel then boosts from 0 V (``Vpre = 0``). That is why NAND parts are programmed from
  the source-side word line towards the bit line: every drain-side cell is still erased and
  passes the precharge.
* Leakage (junction leakage and band-to-band generation) discharges the floating channel during
  the pulse: ``Vch(t) = Vch0 exp(-t / leak_tau)``. Each program loop precharges and boosts the
  channel afresh, so ``Vch0`` follows only the rising ``Vpgm``: as the pulse train steps up, the
  gate-to-channel voltage rises almost a full step per pulse, and the last pulses do the damage.
* Charge moved: the Fowler-Nordheim charging of :mod:`flashlab.cell.floating_gate` (its exact
  solution, kernel ``pulse_cells``), with the gate-to-channel voltage in place of the
  gate-to-well voltage. The leaking channel is followed in ``_LEAK_STEPS`` equal sub-steps of each
  pulse, each at the channel potential of its midpoint.

Block picture (an SLC block with scrambled data: each cell is to be programmed or to stay erased
with probability 1/2). Follow an erased cell that is to stay erased. When its own word line is
programmed it is inhibited (one Vpgm disturb per program loop). When another word line is
programmed, its string is selected (Vpass disturb for every loop) if that word line's cell on the
string is to be programmed, else inhibited (a boosted channel under ``Vpass``: negligible stress,
neglected). Under random program order, each drain-side word line has been programmed before
this one with probability 1/2, and then holds a programmed cell with probability 1/2.

Sources (book/references.bib): suh1995, jung1996, cai2017, lenzlinger1969.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from flashlab._validate import (check_array, check_choice, check_int, check_real, check_real_or_array, check_seed,
                                plain_fields)
from flashlab.cell import _kernels
from flashlab.cell.floating_gate import V_GATE_LIMIT, VTH_LIMIT, FloatingGateCell
from flashlab.cell.ispp import CellVariation, IsppParams, _cell_draws, _check_types, _check_variation

_LEAK_STEPS = 4  # sub-steps per pulse that follow the leaking channel
ORDERS = ("sequential", "random")  #: program orders within a block: source side first, or random


@dataclass(frozen=True)
class SelfBoosting:
    """Self-boosted program inhibit of a NAND string (Suh et al. 1995).

    Parameters
    ----------
    boost_ratio : channel boosting ratio ``r`` (gate-to-channel over total channel capacitance),
        in (0, 1). 0.8 by default: an illustrative value of the planar era (our choice).
    v_inhibit : bit-line voltage of an inhibited string, the supply ``Vcc`` (V), in [0, 10].
    vth_ssl : threshold of the string select transistor (V), in [0, 5]; the precharge is
        ``v_inhibit - vth_ssl``.
    vth_string : threshold of the string's cells the channel couples through (V), in [-10, 10];
        by default -1 V, about the mean of a string holding scrambled SLC data on
        :data:`~flashlab.cell.FG_CELL_2XNM` (erased cells near -4 V, programmed ones near 2 V).
    leak_tau_us : time constant of the boosted channel's leakage (microseconds), in (0, 1e6].
        50 us by default (our choice): a fifth of the boost leaks away in a 10 us pulse.
    word_lines : word lines (cells) per string, in [2, 1024].
    """

    boost_ratio: float = 0.8
    v_inhibit: float = 3.3
    vth_ssl: float = 1.0
    vth_string: float = -1.0
    leak_tau_us: float = 50.0
    word_lines: int = 64

    def __post_init__(self):
        plain_fields(self)
        for name, lo, hi, lo_open, hi_open in (
            ("boost_ratio", 0.0, 1.0, True, True),
            ("v_inhibit", 0.0, 10.0, False, False),
            ("vth_ssl", 0.0, 5.0, False, False),
            ("vth_string", -10.0, 10.0, False, False),
            ("leak_tau_us", 0.0, 1e6, True, False),
        ):
            v = check_real(name, getattr(self, name), lo, hi, lo_open=lo_open, hi_open=hi_open)
            object.__setattr__(self, name, v)
        object.__setattr__(self, "word_lines", check_int("word_lines", self.word_lines, 2, 1024))
        if self.vth_ssl > self.v_inhibit:
            raise ValueError(f"vth_ssl must be in [0, v_inhibit = {self.v_inhibit:g}] V so that the bit line "
                             f"precharges the channel; got {self.vth_ssl!r}")

    @property
    def precharge(self) -> float:
        """Channel potential the bit line precharges an inhibited string to, ``v_inhibit - vth_ssl`` (V)."""
        return self.v_inhibit - self.vth_ssl

    def channel_potential(self, v_pass, v_pgm, precharged=True) -> float:
        """Boosted channel potential (V) of an inhibited string at the start of a pulse.

        ``v_pass`` and ``v_pgm`` (V, in [0, 40]) are the unselected and selected word-line
        voltages; ``precharged`` is False when a programmed cell between the selected cell and
        the bit line has cut the precharge path (the channel then boosts from 0 V). Never below
        the precharge: a channel the word lines cannot couple up stays at it.
        """
        v_pass = check_real("v_pass", v_pass, 0.0, V_GATE_LIMIT)
        v_pgm = check_real("v_pgm", v_pgm, 0.0, V_GATE_LIMIT)
        if not isinstance(precharged, bool):
            raise ValueError(f"precharged must be True or False; got {precharged!r}")
        v_pre = self.precharge if precharged else 0.0
        v_gate = v_pass + (v_pgm - v_pass) / self.word_lines
        return v_pre + max(self.boost_ratio * (v_gate - self.vth_string), 0.0)


#: The boosting of :data:`~flashlab.cell.FG_CELL_2XNM`'s strings (the class defaults).
BOOSTING_2XNM = SelfBoosting()


@dataclass
class ProgramDisturb:
    """Erased cells after their own word line and ``programs`` other word lines of their block
    were programmed (:func:`program_disturb`).

    ``vth_before`` is each cell's threshold after erase (V); ``vth_vpgm`` after the Vpgm disturb
    of its own word line's program only, ``vth_vpass`` after the Vpass disturb of the other word
    lines' programs only, and ``vth`` after both (V). ``stressing_programs`` counts, per cell, the
    other word lines whose program selected its string; ``precharged`` says whether its channel
    was precharged when its own word line was programmed. ``fails_*`` count the cells read as
    programmed at ``read_ref`` (V): the erased state's errors.
    """

    v_pass: float
    order: str
    read_ref: float
    vth_before: np.ndarray
    vth_vpgm: np.ndarray
    vth_vpass: np.ndarray
    vth: np.ndarray
    stressing_programs: np.ndarray
    precharged: np.ndarray

    @property
    def fails_vpgm(self) -> int:
        return int(np.count_nonzero(self.vth_vpgm >= self.read_ref))

    @property
    def fails_vpass(self) -> int:
        return int(np.count_nonzero(self.vth_vpass >= self.read_ref))

    @property
    def fails(self) -> int:
        return int(np.count_nonzero(self.vth >= self.read_ref))


def _check_common(cell, ispp, boosting, v_pass, pulses):
    _check_types(cell, ispp)
    if not isinstance(boosting, SelfBoosting):
        raise ValueError(f"boosting must be a SelfBoosting; got {type(boosting).__name__}")
    v_pass = check_real("v_pass", v_pass, 0.0, V_GATE_LIMIT)
    pulses = check_int("pulses", pulses, 1, ispp.max_pulses)
    v_top = ispp.v_start + (pulses - 1) * ispp.v_step
    if v_top > V_GATE_LIMIT:
        raise ValueError(f"pulses must keep the last program pulse within {V_GATE_LIMIT:g} V; got {pulses} "
                         f"(last pulse {v_top:g} V)")
    return v_pass, pulses


def vpgm_disturb(cell: FloatingGateCell, ispp: IsppParams, boosting: SelfBoosting, v_pass, vth, pulses: int,
                 precharged=True):
    """Thresholds (V) of inhibited cells on a word line after its program of ``pulses`` loops.

    Loop ``k`` puts ``ispp.v_start + k * ispp.v_step`` (V) on the word line and ``v_pass`` (V) on
    the others; the channel boosts to :meth:`SelfBoosting.channel_potential` and leaks during the
    pulse (see the module docstring). ``vth`` is a float or 1-D array (V) of cells of the nominal
    ``cell``; ``precharged`` (bool) whether the bit line precharged their channels. Returns a float
    for a float.
    """
    v_pass, pulses = _check_common(cell, ispp, boosting, v_pass, pulses)
    arr = _cells(vth)
    if not isinstance(precharged, bool):
        raise ValueError(f"precharged must be True or False; got {precharged!r}")
    out = _vpgm(cell, ispp, boosting, v_pass, arr, pulses, precharged, np.full(arr.size, cell._gain()))
    return float(out[0]) if np.ndim(vth) == 0 else out


def vpass_disturb(cell: FloatingGateCell, ispp: IsppParams, v_pass, vth, pulses: int, programs: int = 1):
    """Thresholds (V) of cells after ``programs`` programs of other word lines on their string.

    Each program is ``pulses`` loops, each putting ``v_pass`` (V) on the cells' gates over a
    grounded channel for ``ispp.t_pulse``; ``programs`` is in [0, 1024]. ``vth`` is a float or
    1-D array (V) of cells of the nominal ``cell``. Constant-voltage pulses compose exactly (the
    charging solution of :mod:`flashlab.cell.floating_gate` is a flow), so the stress of ``n``
    pulses is one pulse ``n`` times as long.
    """
    _check_types(cell, ispp)
    v_pass = check_real("v_pass", v_pass, 0.0, V_GATE_LIMIT)
    pulses = check_int("pulses", pulses, 1, ispp.max_pulses)
    programs = check_int("programs", programs, 0, 1024)
    arr = _cells(vth)
    counts = np.full(arr.size, programs, dtype=np.int64)
    out = _vpass(cell, ispp, v_pass, arr, pulses, counts, np.full(arr.size, cell._gain()))
    return float(out[0]) if np.ndim(vth) == 0 else out


def _vpgm(cell, ispp, boosting, v_pass, vth, pulses, precharged, gain):
    """Vpgm disturb of cells ``vth`` (V, float64 array) with per-cell ``gain`` (1/m)."""
    dt = ispp.t_pulse / _LEAK_STEPS
    decay = np.exp(-(np.arange(_LEAK_STEPS) + 0.5) * dt / (boosting.leak_tau_us * 1e-6))
    cur, nxt = vth.copy(), np.empty(vth.size)
    for k in range(pulses):
        v_pgm = ispp.v_start + k * ispp.v_step
        v_ch0 = boosting.channel_potential(v_pass, v_pgm, precharged)
        for f in decay:
            _pulse(cell, cur, gain, v_pgm - v_ch0 * f, dt, nxt)
            cur, nxt = nxt, cur
    return cur


def _vpass(cell, ispp, v_pass, vth, pulses, counts, gain):
    """Vpass disturb of cells ``vth`` (V) after ``counts[i]`` programs of ``pulses`` loops each."""
    out = vth.copy()
    for n in np.unique(counts[counts > 0]):
        idx = np.flatnonzero(counts == n)
        cur, g, nxt = out[idx], gain[idx], np.empty(idx.size)
        t = float(n * pulses * ispp.t_pulse)
        while t > 0.0:  # the kernel is exact for any length; pieces of at most a second
            step = min(t, 1.0)
            _pulse(cell, cur, g, v_pass, step, nxt)
            cur, nxt = nxt, cur
            t -= step
        out[idx] = cur
    return out


def program_disturb(cell: FloatingGateCell, ispp: IsppParams, boosting: SelfBoosting, v_pass, vth,
                    pulses: int, order: str = "sequential", programs=None, read_ref=0.0,
                    variation: CellVariation = CellVariation(), seed: int = 0) -> ProgramDisturb:
    """Program disturb of a block's erased cells while its word lines are programmed (SLC).

    ``vth`` (V, 1-D) are the thresholds of erased cells that are to stay erased (for example
    :func:`~flashlab.cell.erase_block`'s output); pass the ``variation`` and ``seed`` that erase
    used, so each cell keeps its own oxide and coupling. Every word-line program takes ``pulses``
    loops of ``ispp`` with ``v_pass`` (V) on the other word lines. ``programs`` (default: all other
    word lines, ``boosting.word_lines - 1``, in [0, word_lines - 1]) is how many other word lines of
    the block have been programmed; each selects a cell's string with probability 1/2 (scrambled
    data). ``order`` is ``"sequential"`` (source side first) or ``"random"``. A cell reading at or
    above ``read_ref`` (V) is a fail. Deterministic for a given ``seed``.
    """
    v_pass, pulses = _check_common(cell, ispp, boosting, v_pass, pulses)
    arr = check_array("vth", vth, -VTH_LIMIT, VTH_LIMIT)
    order = check_choice("order", order, ORDERS)
    n_wl = boosting.word_lines
    programs = n_wl - 1 if programs is None else check_int("programs", programs, 0, n_wl - 1)
    read_ref = check_real("read_ref", read_ref, -VTH_LIMIT, VTH_LIMIT)
    _check_variation(cell, variation)
    seed = check_seed("seed", seed)
    gain, _ = _cell_draws(cell, variation, arr.size, seed)
    rng = np.random.default_rng([seed, 1])  # a stream apart from the cells' own draws
    stressing = rng.binomial(programs, 0.5, arr.size).astype(np.int64)
    if order == "sequential":
        precharged = np.ones(arr.size, dtype=bool)
    else:
        # the cell's word line is at a uniform position; each of the drain-side word lines was
        # programmed first (1/2) and holds a programmed cell on this string (1/2)
        drain_side = rng.integers(0, n_wl, arr.size)
        precharged = rng.random(arr.size) < 0.75**drain_side
    after_vpgm = np.empty(arr.size)
    for flag in (True, False):
        idx = np.flatnonzero(precharged == flag)
        after_vpgm[idx] = _vpgm(cell, ispp, boosting, v_pass, arr[idx], pulses, flag, gain[idx])
    after_vpass = _vpass(cell, ispp, v_pass, arr, pulses, stressing, gain)
    both = _vpass(cell, ispp, v_pass, after_vpgm, pulses, stressing, gain)
    return ProgramDisturb(v_pass, order, read_ref, arr, after_vpgm, after_vpass, both, stressing, precharged)


def _cells(vth) -> np.ndarray:
    return np.atleast_1d(check_real_or_array("vth", vth, -VTH_LIMIT, VTH_LIMIT)).astype(np.float64)


def _pulse(cell, cur, gain, v_gate, t, out):
    """One pulse of gate-to-channel ``v_gate`` (V) for ``t`` (s) on cells ``cur`` (kernel of floating_gate)."""
    _kernels.pulse_cells(cur, gain, float(v_gate), float(t), cell.vth_neutral, cell.fn_b, cell._rate(), out)
