"""Time and temperature: Arrhenius acceleration of retention, as bake tests use it.

Charge leaks from a cell faster when it is hot. Retention qualification assumes a thermally
activated loss with one activation energy, so that time at a stress temperature ``T_s`` stands
for ``AF`` times as long at a use temperature ``T_u`` (temperatures in kelvin, ``k`` Boltzmann's
constant in eV/K):

``AF = exp(Ea / k * (1 / T_u - 1 / T_s))``

The qualification practice (JESD218, ``jesd218``) uses ``Ea = 1.1 eV`` for retention; its client
class, one year at 30 °C, is met by 500 hours at 52 °C or 96 hours at 66 °C
(``curtisswright2020temperature``), which this law reproduces within 5%. Measured SSDs need not
follow it: Hetzler found a 13-fold acceleration from 40 to 100 °C where 1.1 eV predicts 702-fold
(``hetzler2014temperature``), so a bake can greatly overstate the retention it demonstrates.
"""

from __future__ import annotations

import math

from flashlab._validate import check_real

BOLTZMANN_EV_PER_K = 8.617333262e-5  # Boltzmann constant, eV/K
RETENTION_EA_EV = 1.1  # activation energy of retention loss in JESD218 practice, eV
KELVIN = 273.15  # 0 °C in kelvin


def acceleration_factor(stress_c: float, use_c: float, ea_ev: float = RETENTION_EA_EV) -> float:
    """How many hours at ``use_c`` one hour at ``stress_c`` stands for (temperatures in °C, -55 to
    300; ``ea_ev`` activation energy in eV, 0 to 3): ``exp(Ea/k (1/T_use - 1/T_stress))``."""
    ts = check_real("stress_c", stress_c, -55.0, 300.0) + KELVIN
    tu = check_real("use_c", use_c, -55.0, 300.0) + KELVIN
    ea = check_real("ea_ev", ea_ev, 0.0, 3.0)
    return math.exp(ea / BOLTZMANN_EV_PER_K * (1.0 / tu - 1.0 / ts))


def equivalent_hours(hours: float, stress_c: float, use_c: float, ea_ev: float = RETENTION_EA_EV) -> float:
    """Hours at ``use_c`` that ``hours`` (0 to 1e7) at ``stress_c`` stand for (°C; ``ea_ev`` in eV)."""
    h = check_real("hours", hours, 0.0, 1e7)
    return h * acceleration_factor(stress_c, use_c, ea_ev)


def bake_hours(use_hours: float, stress_c: float, use_c: float, ea_ev: float = RETENTION_EA_EV) -> float:
    """Hours at ``stress_c`` that stand for ``use_hours`` (0 to 1e9) at ``use_c`` (°C; ``ea_ev`` eV):
    the bake a retention test needs."""
    h = check_real("use_hours", use_hours, 0.0, 1e9)
    return h / acceleration_factor(stress_c, use_c, ea_ev)
