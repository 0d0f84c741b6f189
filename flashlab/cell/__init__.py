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

# Multi-level states, Vth distributions under wear (and the measured table they are fitted to), RBER,
# read-retry and ECC.
from flashlab.cell.distributions import VthDistributions, VthModel, vth_distributions
from flashlab.cell.calibration import CAI2017_TOLERANCE_UNITS, VthComparison, cai2017_comparison
from flashlab.cell.ecc import (
    UBER_CLIENT,
    UBER_ENTERPRISE,
    EccCode,
    codeword_failure_probability,
    correctable_rber,
    endurance_pe_cycles,
    gentle_programming,
    program_endurance_trade,
    soft_read_latency_us,
    uber,
    worst_page_rber,
)
# Soft reads and the LDPC decoder they feed.
from flashlab.cell.soft_read import SoftReadChannel, gaussian_read_point, hard_capacity_rber, soft_read_channel
from flashlab.cell.ldpc import FerCurve, FerResult, LdpcCode, fer_curve, ldpc_fer
from flashlab.cell.errors import (
    RberResult,
    ReadRetryResult,
    default_read_refs,
    optimal_read_refs,
    rber_analytic,
    rber_monte_carlo,
    read_retry,
)
# Program disturb of erased cells and the self-boosted program inhibit that limits it.
from flashlab.cell.program_disturb import (
    BOOSTING_2XNM,
    ProgramDisturb,
    SelfBoosting,
    program_disturb,
    vpass_disturb,
    vpgm_disturb,
)
from flashlab.cell.rtn import rtn_pdf, rtn_rber, rtn_samples, rtn_tail
from flashlab.cell.temperature import RETENTION_EA_EV, acceleration_factor, bake_hours, equivalent_hours
from flashlab.cell.levels import CellLevels, NandTiming, ProgramTimes, cell_levels, program_times, read_latency_us
