"""SSD layer: a whole drive in time. The FTL (:mod:`flashlab.ftl`) decides which pages are
programmed, copied and erased; this layer's event-driven simulation decides when, on which
plane and channel, with host I/O in a closed or open loop (per-plane queues, channel transfers,
read priority, program/erase suspend, background and foreground GC, fast-page steering), and runs
the SNIA PTS write-saturation experiment. Times in microseconds, sizes in bytes.
"""

from flashlab.ssd._kernels import OP_FLUSH, OP_FUA
from flashlab.ssd.config import SsdConfig, ssd_geometry
from flashlab.ssd.frontend import Controller, HostInterface
from flashlab.ssd.engine import MembersResult, ServiceMember, run_members
from flashlab.ssd.mapcache import MapCache, lru_miss_rate
from flashlab.ssd.power import PowerLoss
from flashlab.ssd.slc import SlcCache, SlcPlateaus, slc_write_plateaus
from flashlab.ssd.pts import PtsResult, SteadyState, steady_state, write_saturation
from flashlab.ssd.sim import (
    HostLoad,
    IoResult,
    nand_timeline,
    page_type_shares,
    pipeline_limit_iops,
    raw_program_bandwidth_mb_s,
    simulate_io,
    supported_percentile,
    wa_terms,
)

__all__ = [
    "Controller", "HostInterface", "HostLoad", "IoResult", "MapCache", "MembersResult", "OP_FLUSH", "OP_FUA", "PowerLoss", "PtsResult", "SsdConfig", "SteadyState", "nand_timeline",
    "page_type_shares", "pipeline_limit_iops", "raw_program_bandwidth_mb_s", "run_members", "ServiceMember", "SlcCache", "SlcPlateaus", "simulate_io", "slc_write_plateaus", "ssd_geometry", "lru_miss_rate", "steady_state", "supported_percentile", "wa_terms", "write_saturation",
]
