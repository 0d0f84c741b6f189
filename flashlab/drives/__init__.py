"""Named, calibrated models of real drives, each checked against its datasheet.

A :class:`Drive` records what a real SSD is built from (its NAND part, channels and dies, host
interface, controller, over-provisioning) and what its datasheet promises; :meth:`Drive.config`
turns it into an :class:`~flashlab.ssd.SsdConfig` at any ``capacity_scale``, and
:func:`validate` simulates every datasheet figure and sets it beside the datasheet. The presets
(:mod:`flashlab.drives.presets`) cover 2008 to 2021; :data:`DRIVES` holds them by key.
:func:`endurance` turns a preset's over-provisioning, NAND P/E rating and the FTL's write
amplification into TBW and DWPD, beside the datasheets' ratings (:data:`RATINGS`).
:mod:`flashlab.drives.qualify` qualifies a drive as its buyers do: the Aerospike Certification
Tool's storage test and its rating, an SSD specification checked against a preset, latency QoS
in nines. :mod:`flashlab.drives.economics` prices the presets (:data:`PRICES`, dated and cited):
dollars per GB and per IOPS, the cheapest purchase for a capacity and a read rate, and disk,
flash or both for a zipf workload.
This layer sits above :mod:`flashlab.ssd`; the engine never imports it.
"""

from flashlab.drives.drive import METRICS, TOLERANCE, Allowance, Drive, Figure
from flashlab.drives.economics import PRICES, Price, Purchase, TierCosts, cheapest, crossover_density, tier_costs
from flashlab.drives.endurance import RATINGS, Endurance, Rating, dwpd, endurance, tbw
from flashlab.drives.nand import NandPart
from flashlab.drives.presets import (DISK, DRIVES, F20, HMB_64MIB, P660, PM9A3, PRO850, PRO980, SRAM_1MIB, SSD320,
                                     X25E)
from flashlab.drives.qualify import act_load, act_rating, act_rules, act_run, check_spec, format_qos, parse_spec, qos
from flashlab.drives.validate import Row, Validation, measure, validate

__all__ = ["Allowance", "DISK", "DRIVES", "Drive", "Endurance", "F20", "Figure", "HMB_64MIB", "METRICS", "NandPart", "P660", "PM9A3",
           "PRICES", "PRO850", "PRO980", "Price", "Purchase", "RATINGS", "Rating", "Row", "SRAM_1MIB", "SSD320", "TOLERANCE", "Validation", "X25E", "act_load",
           "act_rating", "act_rules", "act_run", "check_spec", "cheapest", "crossover_density", "dwpd", "endurance", "format_qos", "measure", "parse_spec",
           "qos", "tbw", "tier_costs", "TierCosts", "validate"]
