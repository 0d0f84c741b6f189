"""Several hosts on one array: each its own seeded stream of host I/Os, merged on one clock.

A :class:`Host` is a :class:`flashlab.ssd.HostLoad` (open loop at ``rate_iops`` or closed loop
at ``qd``; workload, read fraction, sizes) with a stream kind: ``random`` (the workload's
pattern, each I/O aligned to its size) or ``seq`` (a sequential stream such as a backup or a
scan: each I/O starts where the last ended, from ``start`` of the array, wrapping at its end;
sized to whole stripes and starting on a stripe, its writes are full-stripe writes).
:func:`simulate_hosts` merges them and runs :func:`flashlab.array.simulate_array`;
:class:`HostsResult` gives IOPS and latency per host and for the array.

Host ``i`` draws from its own seed (``seed`` and ``i``), so its I/Os do not depend on how many
other hosts there are. Open-loop hosts merge exactly by arrival time. The engine keeps one
closed loop: closed-loop hosts share it (``sum(qd)`` host I/Os outstanding), issued in
proportion to their depths (host ``i``'s ``j``-th I/O at the ``j / qd_i`` mark); a host whose
I/Os are slower is not held to its own depth. Open and closed hosts do not mix. Times in
microseconds, sizes in bytes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from flashlab._validate import check_choice, check_instance, check_int, check_real, check_seed, plain_fields
from flashlab.array.sim import ArrayConfig, ArrayResult, host_requests, simulate_array
from flashlab.ssd import HostLoad
from flashlab.ssd.sim import latency_summary

STREAMS = ("random", "seq")


@dataclass(frozen=True, kw_only=True)
class Host:
    """One host: ``load`` (HostLoad), ``stream`` (``random`` or ``seq``), ``start`` (seq: first
    I/O at this fraction of the array, in [0, 1), aligned down to the I/O size), ``requests``
    (host I/Os, in [1, 10**7])."""

    load: HostLoad = HostLoad()
    stream: str = "random"
    start: float = 0.0
    requests: int = 1000

    def __post_init__(self):
        plain_fields(self)
        check_instance("load", self.load, HostLoad)
        check_choice("stream", self.stream, STREAMS)
        check_real("start", self.start, 0.0, 1.0, hi_open=True)
        check_int("requests", self.requests, 1, 10**7)


def host_seed(seed: int, i: int) -> int:
    """Host ``i``'s own seed, from the run's ``seed``."""
    return int(np.random.SeedSequence([check_seed("seed", seed), 11, i]).generate_state(1)[0])


def host_stream(config: ArrayConfig, host: Host, seed: int):
    """Host I/Os of one host on the array: ``(ops, lbas, pages, arrivals)`` (arrivals None when
    closed loop)."""
    layout = config.layout
    ops, lbas, pages, arrivals = host_requests(layout, host.load, host.requests, seed)
    if host.stream == "seq":
        user, kmax = layout.array_pages, int(pages.max())
        span = user // kmax * kmax if (pages == kmax).all() else user - kmax + 1
        first = int(host.start * user) // kmax * kmax
        lbas = (first + np.cumsum(pages) - pages) % span
    return ops, lbas, pages, arrivals


@dataclass(frozen=True)
class HostsResult:
    """Outcome of :func:`simulate_hosts`: ``array`` (the :class:`ArrayResult`, host I/Os in
    merged order), ``host`` (which host issued each), ``hosts``."""

    array: ArrayResult
    host: np.ndarray
    hosts: tuple

    def _sel(self, host, op):
        a = self.array
        m = np.isfinite(a.latency_us)
        if host is not None:
            m &= self.host == check_int("host", host, 0, len(self.hosts) - 1)
        if op is not None:
            m &= a.op == check_choice("op", op, (0, 1))
        return m

    def iops(self, host=None, op=None) -> float:
        """Completed host I/Os per second of ``host`` (all if None) over its own span."""
        m = self._sel(host, None)
        a = self.array
        if not m.any():
            return float("nan")
        span = float(a.done_us[m].max() - a.arrival_us[m].min())
        k = self._sel(host, op).sum()
        return float(k / span * 1e6) if span > 0 else float("nan")

    def percentiles(self, host=None, op=None) -> dict:
        """Latency p50, p99, p99.9, max and mean (us) of ``host`` (all if None)."""
        return latency_summary(self.array.latency_us[self._sel(host, op)], (50.0, 99.0, 99.9))

    def per_host(self) -> list:
        """Per host: ``iops``, ``read``/``write`` latency percentiles."""
        return [{"iops": self.iops(h), "read": self.percentiles(h, 1), "write": self.percentiles(h, 0)}
                for h in range(len(self.hosts))]


def simulate_hosts(config: ArrayConfig | None = None, hosts=(Host(),), *, precondition_fills: float = 1.0,
                   seed: int = 0, progress: bool | None = False) -> HostsResult:
    """Run several hosts against one array on one clock (see the module docstring).

    Parameters
    ----------
    config : ArrayConfig (default ``ArrayConfig()``)
    hosts : sequence of 1 to 256 :class:`Host`, all open loop or all closed loop
    precondition_fills, seed, progress : as :func:`simulate_array`
    """
    config = ArrayConfig() if config is None else config
    check_instance("config", config, ArrayConfig)
    if isinstance(hosts, (Host, str, bytes, Mapping, set, frozenset)) or not hasattr(hosts, "__len__"):
        raise ValueError(f"hosts must be a sequence of Host; got {type(hosts).__name__}")
    hosts = tuple(hosts)
    check_int("number of hosts", len(hosts), 1, 256)
    for i, h in enumerate(hosts):
        check_instance(f"hosts[{i}]", h, Host)
    check_seed("seed", seed)
    open_loop = [h.load.rate_iops is not None for h in hosts]
    if any(open_loop) and not all(open_loop):
        raise ValueError("hosts must be all open loop (rate_iops) or all closed loop (rate_iops=None); got a mix")
    streams = [host_stream(config, h, host_seed(seed, i)) for i, h in enumerate(hosts)]
    who = np.concatenate([np.full(h.requests, i, np.int64) for i, h in enumerate(hosts)])
    if all(open_loop):
        key = np.concatenate([s[3] for s in streams])
    else:
        key = np.concatenate([(np.arange(h.requests) + 0.5) / h.load.qd for h in hosts])
    order = np.lexsort((who, key))
    ops, lbas, pages = (np.concatenate([s[k] for s in streams])[order] for k in range(3))
    arrivals = key[order] if all(open_loop) else None
    qd = max(h.load.qd for h in hosts) if all(open_loop) else sum(h.load.qd for h in hosts)
    load = HostLoad(qd=min(qd, 65536), rate_iops=1.0 if all(open_loop) else None)
    r = simulate_array(config, load, precondition_fills=precondition_fills, seed=seed, progress=progress,
                       host_ios=(ops, lbas, pages, arrivals))
    return HostsResult(array=r, host=who[order], hosts=hosts)
