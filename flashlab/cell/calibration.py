"""The measured TLC threshold-voltage table the engine's TLC preset is fitted to, and a model beside it.

``data/cai2017_tlc_vth.csv``, shipped with the package, holds Cai et al. 2017 Appendix Tables 4-5
(``cai2017``; 1X-nm planar TLC, normalized units, 0 = ground and 512 = nominal maximum): every
state's mean fresh, after 3,000 P/E cycles, and after 2,000 P/E cycles with 1 day and 1 year of
retention, and its standard deviation at the last two points. Its header says where the numbers
were transcribed from. :func:`cai2017_comparison` evaluates a :class:`~flashlab.cell.VthModel` at
the same points; the engine's tests hold the TLC preset within :data:`CAI2017_TOLERANCE_UNITS` of
every entry.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from importlib.resources import files

import numpy as np

from flashlab._validate import check_instance
from flashlab.cell.distributions import VthModel, vth_distributions

#: The most any entry of the TLC preset may differ from Cai et al.'s table (normalized units).
CAI2017_TOLERANCE_UNITS = 2.0

# Each column of the table: (name, quantity, P/E cycles, retention days). Cai et al. give the
# fresh and 3K-P/E means without a retention time; the model reads them right after programming.
_CAI2017_COLUMNS = (
    ("mean_pe0", "mean", 0.0, 0.0),
    ("mean_pe3k", "mean", 3000.0, 0.0),
    ("mean_pe2k_day1", "mean", 2000.0, 1.0),
    ("mean_pe2k_year1", "mean", 2000.0, 365.0),
    ("sigma_day1", "sigma", 2000.0, 1.0),
    ("sigma_year1", "sigma", 2000.0, 365.0),
)


@dataclass
class VthComparison:
    """A Vth model beside Cai et al.'s measured TLC table, one row per column of the table.

    ``columns`` names the table's columns; row ``i`` is the state ``quantity[i]`` (``"mean"`` or
    ``"sigma"``) after ``pe_cycles[i]`` P/E cycles and ``retention_days[i]`` days. ``measured``
    and ``modelled`` are arrays ``(n_columns, 8)`` in normalized units, one entry per state of
    ``states`` (ER first).
    """

    states: tuple[str, ...]
    columns: tuple[str, ...]
    quantity: tuple[str, ...]
    pe_cycles: tuple[float, ...]
    retention_days: tuple[float, ...]
    measured: np.ndarray
    modelled: np.ndarray

    @property
    def deviation(self) -> np.ndarray:
        """Model minus measurement, ``(n_columns, 8)``, normalized units."""
        return self.modelled - self.measured

    @property
    def worst(self) -> float:
        """The largest absolute deviation in the table (normalized units)."""
        return float(np.max(np.abs(self.deviation)))


def cai2017_comparison(model: VthModel) -> VthComparison:
    """``model``'s state means and sigmas at each stress point of Cai et al. 2017's measured TLC
    table (``cai2017``, Appendix Tables 4-5), beside the measured values. ``model`` must have the
    8 states of TLC."""
    check_instance("model", model, VthModel)
    if model.levels.n_states != 8:
        raise ValueError(f"model must be a TLC model (8 states) to compare with Cai et al.'s TLC table; "
                         f"got one with {model.levels.n_states} states")
    text = (files("flashlab.cell") / "data" / "cai2017_tlc_vth.csv").read_text(encoding="utf-8")
    rows = list(csv.DictReader(ln for ln in text.splitlines() if ln and not ln.startswith("#")))
    measured, modelled = [], []
    for name, quantity, pe, days in _CAI2017_COLUMNS:
        measured.append([float(r[name]) for r in rows])
        d = vth_distributions(model, pe, days)
        modelled.append(d.means if quantity == "mean" else d.sigmas)
    return VthComparison(
        states=tuple(r["state"] for r in rows),
        columns=tuple(c[0] for c in _CAI2017_COLUMNS),
        quantity=tuple(c[1] for c in _CAI2017_COLUMNS),
        pe_cycles=tuple(c[2] for c in _CAI2017_COLUMNS),
        retention_days=tuple(c[3] for c in _CAI2017_COLUMNS),
        measured=np.array(measured),
        modelled=np.array(modelled),
    )
