"""Error mechanisms of 3D charge-trap NAND, as an extension of the cell model.

Luo, Ghose, Cai, Haratsch, Mutlu (SIGMETRICS 2018, ``luo2018improving``) found three error sources
that planar floating-gate NAND does not show; this module adds them to the Gaussian states of
:func:`flashlab.cell.vth_distributions` (same normalized units):

* **Early retention loss, fast then slow.** Charge trapped in the nitride escapes quickly in the
  first hours (shallow traps, lateral spreading), then slowly. The retention term of the cell model
  (linear in ``ln(1 + t/tau)``) is split into a fast part with ``tau_fast_days`` (weight
  ``fast_share``) and the model's own slow part: ``w*L(t, tau_fast) + (1-w)*L(t, tau_slow)``.
* **Layer-to-layer variation.** The channel hole narrows with depth (:class:`Stack3D` taper);
  a narrower hole concentrates the gate field, so each cycle does more damage at the bottom
  (Wang et al. 2024, ``wang2024layers``: bottom layers wear fastest). *Assumed:* damage per cycle
  scales as ``(D_mean / D_layer) ** layer_wear_exp``, with the exponent (15) chosen so that the
  bottom layers of a 96-layer deck show about 1.5x the mean RBER (a teaching value; the taper
  itself is small). The result is a per-layer RBER multiplier.
* **Retention interference.** Charge leaks faster from a cell whose vertical neighbour holds
  less charge. *Assumed:* the retention term scales by ``1 + interference * (1 - 2*k/(n-1))`` for
  a neighbour in state ``k`` of ``n`` (erased neighbour: fastest; top-state neighbour: slowest;
  uniform data: unchanged on average).

The parameters are teaching values with the trends of the sources, not fits.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from flashlab._validate import check_int, check_real, plain_fields
from flashlab.cell.distributions import VthDistributions, VthModel, vth_distributions
from flashlab.cell.errors import optimal_read_refs, rber_analytic
from flashlab.tech.nand3d import Stack3D


@dataclass(frozen=True)
class ChargeTrapEffects:
    """Strength of the 3D charge-trap mechanisms (module docstring): ``fast_share`` of the
    retention loss in the fast component (0-1), its time constant ``tau_fast_days`` (days, 1e-6 to 1e3),
    ``layer_wear_exp`` (dimensionless) and ``interference`` (0-1)."""

    fast_share: float = 0.5
    tau_fast_days: float = 0.01
    layer_wear_exp: float = 15.0
    interference: float = 0.3

    def __post_init__(self):
        plain_fields(self)
        check_real("fast_share", self.fast_share, 0.0, 1.0)
        check_real("tau_fast_days", self.tau_fast_days, 1e-6, 1e3)
        check_real("layer_wear_exp", self.layer_wear_exp, 0.0, 100.0)
        check_real("interference", self.interference, 0.0, 1.0)


CHARGE_TRAP = ChargeTrapEffects()
LAYER_KNOTS = 9  # exact RBER evaluations per layer sweep (log-interpolated between)


def charge_trap_distributions(model: VthModel, pe_cycles: float = 0.0, retention_days: float = 0.0,
                              effects: ChargeTrapEffects = CHARGE_TRAP, wear_scale: float = 1.0,
                              neighbour: int | None = None) -> VthDistributions:
    """State means and sigmas of a 3D charge-trap cell after ``pe_cycles`` and ``retention_days``
    (days), with two-time-constant retention, damage per cycle scaled by ``wear_scale`` (a layer's
    multiplier) and, when ``neighbour`` is a state index, retention interference from a vertical
    neighbour in that state (``None``: uniform neighbour data)."""
    if not isinstance(model, VthModel):
        raise ValueError(f"model must be a VthModel; got {model!r} ({type(model).__name__})")
    if not isinstance(effects, ChargeTrapEffects):
        raise ValueError(f"effects must be a ChargeTrapEffects; got {effects!r}")
    c = check_real("pe_cycles", pe_cycles, 0.0, 1e7)
    t = check_real("retention_days", retention_days, 0.0, 1e5)
    w = check_real("wear_scale", wear_scale, 0.0, 100.0, lo_open=True)
    if not 0.0 < model.wear_rate * w <= 100.0:  # what VthModel accepts
        raise ValueError(f"wear_scale {w:g} takes the model's wear_rate {model.wear_rate:g} out of (0, 100]")
    n = model.levels.n_states
    speed = 1.0
    if neighbour is not None:
        k = check_int("neighbour", neighbour, 0, n - 1)
        speed = 1.0 + effects.interference * (1.0 - 2.0 * k / (n - 1))
    m = dataclasses.replace(model, wear_rate=model.wear_rate * w)
    base = vth_distributions(m, c)
    fast = vth_distributions(dataclasses.replace(m, retention_tau_days=effects.tau_fast_days), c, t)
    slow = vth_distributions(m, c, t)
    share = effects.fast_share
    mean = base.means + speed * (share * (fast.means - base.means) + (1.0 - share) * (slow.means - base.means))
    var = base.sigmas**2 + speed * (share * (fast.sigmas**2 - base.sigmas**2)
                                    + (1.0 - share) * (slow.sigmas**2 - base.sigmas**2))
    return VthDistributions(m, c, t, 0.0, 1.0, mean, np.sqrt(var))


def layer_wear_scale(stack: Stack3D, effects: ChargeTrapEffects = CHARGE_TRAP) -> np.ndarray:
    """Damage-per-cycle multiplier of each active layer (top of the top deck first): hole diameter
    at the layer's depth in its deck relative to the mean diameter, to ``-layer_wear_exp``."""
    if not isinstance(stack, Stack3D):
        raise ValueError(f"stack must be a Stack3D; got {stack!r} ({type(stack).__name__})")
    if not isinstance(effects, ChargeTrapEffects):
        raise ValueError(f"effects must be a ChargeTrapEffects; got {effects!r}")
    per_deck = stack.layers // stack.decks
    counts = [per_deck + (1 if d < stack.layers % stack.decks else 0) for d in range(stack.decks)]
    diam = np.concatenate([stack.hole_top - stack.taper_nm * (np.arange(k) + 0.5) / k for k in counts])
    return (diam.mean() / diam) ** effects.layer_wear_exp


@dataclass
class LayerRber:
    """Worst-page RBER (read-retry) per active layer, ``rber`` (top first), and ``multiplier``:
    each layer's RBER over the mean across layers; ``wear_scale`` per layer."""

    wear_scale: np.ndarray
    rber: np.ndarray

    @property
    def multiplier(self) -> np.ndarray:
        return self.rber / self.rber.mean()


def layer_rber(model: VthModel, stack: Stack3D, pe_cycles: float, retention_days: float = 0.0,
               effects: ChargeTrapEffects = CHARGE_TRAP) -> LayerRber:
    """RBER of every layer of ``stack`` (same cell physics, the layer's damage multiplier),
    computed exactly at ``LAYER_KNOTS`` multipliers spanning the layers and interpolated in log
    RBER between them (RBER is smooth in the multiplier); about 10 ms."""
    scale = layer_wear_scale(stack, effects)
    knots = np.linspace(scale.min(), scale.max(), LAYER_KNOTS)
    log_rber = np.log([ct_worst_rber(model, pe_cycles, retention_days, effects, float(s)) for s in knots])
    return LayerRber(scale, np.exp(np.interp(scale, knots, log_rber)))


def ct_worst_rber(model: VthModel, pe_cycles: float, retention_days: float,
                  effects: ChargeTrapEffects = CHARGE_TRAP, wear_scale: float = 1.0,
                  neighbour: int | None = None) -> float:
    """Worst page type's RBER (read-retry read points) of :func:`charge_trap_distributions`;
    0.5 once states have crossed (as :func:`flashlab.cell.worst_page_rber`)."""
    d = charge_trap_distributions(model, pe_cycles, retention_days, effects, wear_scale, neighbour)
    if np.any(np.diff(d.means) <= 0.0):
        return 0.5
    return float(rber_analytic(d, optimal_read_refs(d)).rber.max())

