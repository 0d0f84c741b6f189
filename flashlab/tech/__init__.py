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
from flashlab.tech.planar import VOLTS_PER_UNIT, NodeSweep, PlanarCell, electron_counts, node_sweep
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
from flashlab.tech.charge_trap import (
    CHARGE_TRAP,
    ChargeTrapEffects,
    LayerRber,
    charge_trap_distributions,
    ct_worst_rber,
    layer_rber,
    layer_wear_scale,
)
