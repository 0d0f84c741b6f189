"""3D NAND as it is built: the vertical string's read current, its erase block and sub-blocks.

A 3D NAND string is one channel hole: a thin polysilicon channel that runs through every gate of
the stack, active word lines and the dummy and select gates of each deck (:class:`Stack3D`'s
``gates``). The record :class:`VerticalString` holds what follows from that structure:

* **String current.** A read passes current down the whole string: every unselected cell, at the
  pass voltage, adds the on-resistance of its stretch of polysilicon channel, so the string
  current ``I = V_BL / (R_fixed + gates · R_cell)`` falls as layers are added. The sense amplifier
  waits for that current to move the bit line by its sense margin, ``t_sense = C_BL · dV / I``
  (bit-line discharge sensing): fewer electrons per second down a longer string, a slower sense.
  *Assumed* (no published read current was found to set them against): ``R_cell`` 200 kOhm per
  passed gate (a polysilicon channel on at the pass voltage), ``R_fixed`` 5 MOhm (the selected
  cell near its threshold, contacts), ``V_BL`` 0.5 V, ``C_BL`` 1 pF and a sense margin of 0.2 V:
  tens of nA and about ten microseconds a sense. The absolute times are illustrations; the growth
  with layers is the mechanism. Kioxia's published read times did not grow with it (58 us at 96
  layers, 56 us at 128, ``tallis2021isscc``): the rest of the read path changed between dies.
* **Erase block.** A block is the set of strings that share a select line group and are erased
  together: ``strings_per_block`` strings on every word line, each word line holding one page per
  bit per string, so ``pages_per_block = layers · strings_per_block · bits`` and the block grows
  with the stack. Kioxia's published block sizes (18 MB at 96 layers, 24 MB at 128 layers,
  ``tallis2021isscc``) fit 4 strings and 16 KiB pages; 4 strings is set once from the 128-layer
  figure and the 96-layer one is a prediction (tested).
* **GIDL erase and sub-blocks.** With the CMOS under the array there is no p-well contact beneath
  the strings to raise the channel for an erase; the channel is charged instead by gate-induced
  drain leakage (GIDL) at the select gates, from the string's ends. Erase still acts on whole
  strings, so the erase unit is the block, unless the stack is erased in ``sub_blocks`` parts
  (sub-block erase: part of the word lines held at the erase-inhibit level), which divides the
  erase unit, and the data a garbage collector must move to free it, by ``sub_blocks``.
"""

from __future__ import annotations

from dataclasses import dataclass

from flashlab._validate import check_int, check_real, plain_fields
from flashlab.tech.nand3d import Stack3D


@dataclass(frozen=True)
class VerticalString:
    """One 3D NAND string and the block it belongs to (module docstring).

    ``stack``: the :class:`Stack3D` the string runs through (its ``gates`` and ``bits``);
    ``strings_per_block`` (1-64); ``page_bytes`` (user bytes of one page, 512 to 1 MiB);
    ``sub_blocks``: parts the block is erased in (1-16, at most the layers), each a run of
    word lines, the largest setting the erase unit; ``r_cell_kohm``:
    channel resistance of one passed gate, kOhm; ``r_fixed_kohm``: the rest of the string and its
    contacts, kOhm; ``v_bl_v``: bit-line voltage, V; ``c_bl_pf``: bit-line capacitance, pF;
    ``sense_margin_v``: bit-line swing the sense amplifier needs, V.
    """

    stack: Stack3D
    strings_per_block: int = 4
    page_bytes: int = 16384
    sub_blocks: int = 1
    r_cell_kohm: float = 200.0
    r_fixed_kohm: float = 5000.0
    v_bl_v: float = 0.5
    c_bl_pf: float = 1.0
    sense_margin_v: float = 0.2

    def __post_init__(self):
        plain_fields(self)
        if not isinstance(self.stack, Stack3D):
            raise ValueError(f"stack must be a Stack3D; got {self.stack!r} ({type(self.stack).__name__})")
        check_int("strings_per_block", self.strings_per_block, 1, 64)
        check_int("page_bytes", self.page_bytes, 512, 2**20)
        check_int("sub_blocks", self.sub_blocks, 1, min(16, self.stack.layers))
        check_real("r_cell_kohm", self.r_cell_kohm, 0.0, 1e6, lo_open=True)
        check_real("r_fixed_kohm", self.r_fixed_kohm, 0.0, 1e7)
        check_real("v_bl_v", self.v_bl_v, 0.0, 5.0, lo_open=True)
        check_real("c_bl_pf", self.c_bl_pf, 0.0, 100.0, lo_open=True)
        check_real("sense_margin_v", self.sense_margin_v, 0.0, 5.0, lo_open=True)

    @property
    def resistance_kohm(self) -> float:
        """Resistance of the string in a read, kOhm: ``R_fixed + gates · R_cell``."""
        return self.r_fixed_kohm + self.stack.gates * self.r_cell_kohm

    @property
    def current_na(self) -> float:
        """String current in a read, nA: ``V_BL / resistance``."""
        return self.v_bl_v / (self.resistance_kohm * 1e3) * 1e9

    @property
    def t_sense_us(self) -> float:
        """Time for the string current to move the bit line by the sense margin, microseconds:
        ``C_BL · dV / I``."""
        return self.c_bl_pf * 1e-12 * self.sense_margin_v / (self.current_na * 1e-9) * 1e6

    @property
    def pages_per_block(self) -> int:
        """Pages of one erase block: word lines x strings per block x bits per cell."""
        return self.stack.layers * self.strings_per_block * self.stack.bits

    @property
    def block_bytes(self) -> int:
        """User bytes of one erase block."""
        return self.pages_per_block * self.page_bytes

    @property
    def erase_unit_bytes(self) -> int:
        """User bytes one erase clears: the block, or its largest sub-block (``ceil(layers /
        sub_blocks)`` word lines)."""
        word_lines = -(-self.stack.layers // self.sub_blocks)
        return word_lines * self.strings_per_block * self.stack.bits * self.page_bytes
