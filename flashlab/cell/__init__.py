"""Cell layer: charge -> threshold voltage, program/erase/read, and (below) state maps and errors."""

# Floating-gate physics and ISPP program/erase (flashlab.cell.floating_gate, flashlab.cell.ispp).
from flashlab.cell.floating_gate import FG_CELL_2XNM, FloatingGateCell, apply_pulse, erase, read
from flashlab.cell.ispp import (
    ISPE_2XNM,
    ISPP_SLC_2XNM,
    BlockErase,
    CellVariation,
    IsppParams,
    IsppTrace,
    PageProgram,
    erase_block,
    program_cell,
    program_page,
)
