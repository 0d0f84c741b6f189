"""Technology layer: planar process shrinks, wafer economics, 3D NAND stacks and 3D charge-trap
error mechanisms. It produces the cell presets (:mod:`flashlab.presets`), so every node's RBER
and endurance come from the cell model of :mod:`flashlab.cell`."""

from flashlab.tech.generations import (
    MLC_2Y,
    NODES_NM,
    QLC_96L,
    SLC_5X,
    TLC_1X,
    CellGeneration,
    ShrinkSweep,
    cell_model,
    raw_coupling,
    shrink_sweep,
)
from flashlab.tech.planar import (
    VOLTS_PER_UNIT,
    NodeSweep,
    as_built,
    PlanarCell,
    electron_counts,
    node_sweep,
    state_spacing_units,
    verify_overshoot,
)
from flashlab.tech.economics import (
    FAB_COST_USD,
    ShrinkReturns,
    cost_per_gb,
    gross_dies_per_wafer,
    patterning_passes,
    poisson_yield,
    shrink_returns,
)
from flashlab.tech.nand3d import (
    ARRAY_EFFICIENCY,
    DENSITY_POINTS,
    GENERATIONS_3D,
    DensityPoint,
    LayerSweep,
    Stack3D,
    bit_cost,
    layer_sweep,
)
from flashlab.tech.string3d import VerticalString
from flashlab.tech.program3d import T_PULSE_US, ProgramLadder, pass_states, program_ladder
from flashlab.tech.charge_trap import (
    CHARGE_TRAP,
    ChargeTrapEffects,
    LayerRber,
    charge_trap_distributions,
    ct_worst_rber,
    layer_rber,
    layer_wear_scale,
)

__all__ = [
    # cell generations and the presets' physics (generations)
    "CellGeneration", "cell_model", "raw_coupling", "shrink_sweep", "ShrinkSweep",
    "TLC_1X", "MLC_2Y", "SLC_5X", "QLC_96L", "NODES_NM",
    # planar scaling laws (planar)
    "PlanarCell", "electron_counts", "verify_overshoot", "state_spacing_units", "node_sweep", "NodeSweep", "VOLTS_PER_UNIT",
    "as_built",
    # wafer economics (economics)
    "gross_dies_per_wafer", "poisson_yield", "cost_per_gb", "patterning_passes", "shrink_returns",
    "ShrinkReturns", "FAB_COST_USD",
    # 3D stacks (nand3d)
    "Stack3D", "bit_cost", "layer_sweep", "LayerSweep", "DensityPoint", "DENSITY_POINTS", "GENERATIONS_3D",
    "ARRAY_EFFICIENCY",
    # the vertical string and its block (string3d)
    "VerticalString",
    # a word line's program time from the string and the cell model (program3d)
    "ProgramLadder", "program_ladder", "pass_states", "T_PULSE_US",
    # 3D charge-trap error mechanisms (charge_trap)
    "ChargeTrapEffects", "CHARGE_TRAP", "charge_trap_distributions", "ct_worst_rber", "layer_rber",
    "layer_wear_scale", "LayerRber",
]
