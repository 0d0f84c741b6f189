"""Qualifying a drive the way its buyers do: the Aerospike Certification Tool's storage test, an
SSD specification checked against a preset, and latency QoS stated in nines.

**ACT** (``act_storage``; Aerospike's README and ``cfg_storage.c``, aerospike-act): a load
multiple ``N`` asks ``N x 2000`` record reads and ``N x 1000`` record writes per second of one
device. Records are 1536 bytes (``record-bytes``), so each read is 1536 bytes, served here as one
4 KiB mapping unit. Writes reach the device as 128 KiB large blocks (``large-block-op-kbytes``):
``write_reqs / floor(131072 / 1536)`` blocks per second, times the defragmentation write
amplification ``100 / (100 - defrag-lwm-pct)`` (2 at the default 50); large-block reads (the
defragmenter reading blocks back) run at the same rate. The device passes when, in every
slice (ACT's is an hour), fewer than 5% of reads take over 1 ms, fewer than 1% over 8 ms and
fewer than 0.1% over 64 ms (:data:`ACT_LIMITS`). Record reads arrive as a Poisson stream (ACT's
many service threads); the large-block reads and writes evenly spaced (one thread each).

**A specification** (:func:`parse_spec`, :func:`check_spec`): a few lines of ``key = value``
(the workload) and ``metric <= value`` (the limits), evaluated on a preset in an open loop whose
reads and writes are independent Poisson streams (a write rate in MB/s, reads in proportion;
not bound to each other's completions as fio's ``rwmixread`` binds them).

**QoS** (:func:`qos`): latency percentiles to 99.99% and 99.999%, each with the number of
samples it rests on and whether they support it (:func:`flashlab.ssd.supported_percentile`),
the form in which datacenter SSD specifications state them (OCP NVMe Cloud SSD
Specification, Stenfort et al. 2020).

Every run starts from a used drive: the engine fills it sequentially (as ``act_prep`` salts
it), then writes ``precondition_fills`` drive fills of random 4 KiB pages, untimed, so that
garbage collection runs from the first request (:func:`flashlab.ssd.run_members`).

Times in microseconds unless a name says ``_ms`` or ``_s``; sizes in bytes.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from flashlab._validate import (check_array, check_choice, check_instance, check_int, check_real, check_seed, check_text,
                                quote)
from flashlab.drives.drive import Drive
from flashlab.ssd import SsdConfig, run_members, supported_percentile, wa_terms
from flashlab.workload import OP_READ, OP_WRITE

#: ACT's 1x load per device: record reads and record writes per second (README, "Nx" load).
ACT_READS_PER_X = 2000
ACT_WRITES_PER_X = 1000
#: ACT's defaults (``cfg_storage.c``): record size, large-block size, defragmentation low-water mark.
ACT_RECORD_BYTES = 1536
ACT_LARGE_BLOCK_BYTES = 128 * 1024
ACT_DEFRAG_LWM_PCT = 50
#: ACT's pass rule: (threshold ms, largest share in percent of reads over it), in every slice.
ACT_LIMITS = ((1.0, 5.0), (8.0, 1.0), (64.0, 0.1))
#: ACT's analysis slice: one hour.
ACT_SLICE_S = 3600.0
#: The nines a QoS table prints.
QOS_NINES = (99.0, 99.9, 99.99, 99.999)
MAPPING_UNIT = 4096
#: Requests inside a drive with no host interface (its own ``max_qd`` otherwise); the rest wait
#: in the host's queue, their latency counted from arrival.
OPEN_LOOP_QD = 256
#: Most slices :func:`act_rules` judges (a year of hours).
MAX_SLICES = 10**4


# ---------------------------------------------------------------- QoS in nines
@dataclass(frozen=True)
class QosRow:
    """One QoS percentile: ``percentile`` (percent), its latency (us, NaN without samples),
    ``n`` samples it rests on, and whether they ``supported`` it (at least ten beyond it)."""

    percentile: float
    latency_us: float
    n: int
    supported: bool


def _latencies(name: str, value, size: int | None = None) -> np.ndarray:
    """``value`` as a 1-D float64 array of latencies >= 0 (us; NaN: never completed), of
    ``size`` entries if given (else at least one)."""
    want = f"one per entry of arrival_us ({size})" if size is not None else "at least one"
    bad = ValueError(f"{name} must be a 1-D array of latencies >= 0 (us, NaN: never completed), {want}; "
                     f"got {quote(value)}")
    if isinstance(value, (str, bytes)):
        raise bad
    try:
        raw = np.asarray(value)
    except (TypeError, ValueError):
        raise bad from None
    if raw.dtype.kind not in "iuf" or raw.ndim != 1 or raw.size == 0 or (size is not None and raw.size != size):
        raise bad
    lat = raw.astype(np.float64)
    if np.isinf(lat).any() or (lat < 0).any():
        raise bad
    return lat


def qos(latency_us, nines=QOS_NINES) -> tuple:
    """Latency percentiles of ``latency_us`` (us; NaN: never completed, counted as slower than
    any) at each of ``nines`` (percent in [0, 100)), as :class:`QosRow`."""
    lat = _latencies("latency_us", latency_us)
    if isinstance(nines, (str, bytes)) or not hasattr(nines, "__len__") or len(nines) == 0:
        raise ValueError(f"nines must be a non-empty sequence of percentiles in [0, 100); got {quote(nines)}")
    ps = [check_real(f"nines[{i}]", p, 0.0, 100.0, hi_open=True) for i, p in enumerate(nines)]
    srt = np.sort(np.where(np.isnan(lat), np.inf, lat))
    n = srt.size
    rows = []
    for p in ps:
        v = float(np.percentile(srt, p, method="higher"))  # a sample, never between two
        rows.append(QosRow(percentile=p, latency_us=v if math.isfinite(v) else math.nan, n=n,
                           supported=supported_percentile(n, p)))
    return tuple(rows)


def format_qos(rows, label: str = "latency") -> str:
    """A QoS table of :func:`qos` rows: one line per percentile, in milliseconds, with the
    samples it rests on; a percentile the samples cannot support says so instead of a figure."""
    if not isinstance(rows, (tuple, list)) or not rows or not all(isinstance(r, QosRow) for r in rows):
        raise ValueError(f"rows must be a non-empty sequence of QosRow (from qos()); got {quote(rows)}")
    check_text("label", label, 0, 200)
    out = [f"{label} QoS ({rows[0].n:,} samples)"]
    for r in rows:
        p = f"p{r.percentile:g}"
        if not r.supported:
            out.append(f"  {p:<9} not supported: {r.n:,} samples leave fewer than 10 beyond it")
        elif math.isnan(r.latency_us):
            out.append(f"  {p:<9} never completed")
        else:
            out.append(f"  {p:<9} {r.latency_us / 1e3:8.3f} ms")
    return "\n".join(out)


# ---------------------------------------------------------------- ACT: load and rules
@dataclass(frozen=True)
class ActLoad:
    """ACT's storage load at ``multiple``: record reads per second, and large-block reads and
    writes per second (each), derived as ``act_storage`` derives them."""

    multiple: int
    read_iops: float
    large_block_iops: float
    record_bytes: int
    large_block_bytes: int
    defrag_lwm_pct: int

    @property
    def write_mb_s(self) -> float:
        """Large-block write bandwidth, MB/s."""
        return self.large_block_iops * self.large_block_bytes / 1e6


def act_load(multiple: int, *, record_bytes: int = ACT_RECORD_BYTES, large_block_bytes: int = ACT_LARGE_BLOCK_BYTES,
             defrag_lwm_pct: int = ACT_DEFRAG_LWM_PCT) -> ActLoad:
    """The ACT load at ``multiple`` (1 to 10,000): ``multiple x 2000`` reads/s; large blocks
    ``multiple x 1000 / floor(large_block_bytes / stored) x 100 / (100 - defrag_lwm_pct)``
    per second, ``stored`` the record rounded up to 16 bytes (``cfg_storage.c``). At 1x with
    the defaults: 23.53 large-block writes and as many reads per second."""
    m = check_int("multiple", multiple, 1, 10**4)
    rb = check_int("record_bytes", record_bytes, 1, 2**20)
    lb = check_int("large_block_bytes", large_block_bytes, MAPPING_UNIT, 2**26)
    if lb & (lb - 1) or lb < rb:
        raise ValueError(f"large_block_bytes must be a power of two of at least record_bytes ({rb}) and "
                         f"{MAPPING_UNIT}; got {lb}")
    lwm = check_int("defrag_lwm_pct", defrag_lwm_pct, 0, 99)
    stored = -(-rb // 16) * 16
    blocks = m * ACT_WRITES_PER_X / (lb // stored) * 100.0 / (100 - lwm)
    return ActLoad(multiple=m, read_iops=float(m * ACT_READS_PER_X), large_block_iops=blocks, record_bytes=rb,
                   large_block_bytes=lb, defrag_lwm_pct=lwm)


@dataclass(frozen=True)
class ActVerdict:
    """ACT's rule applied per slice. ``reads[s]``: reads arriving in slice ``s``;
    ``over[s, k]``: of them, how many took longer than ``ACT_LIMITS[k]``'s threshold (never
    completed counts as longer); ``share_pct[s, k]`` their share; ``outcome[s][k]``: ``pass``,
    ``fail`` (the share reached the limit) or ``not supported`` (under the limit, but too few
    reads for ten over it at the limit). ``verdict``: ``fail`` if any slice fails, else ``not
    supported`` if any is, else ``pass``."""

    slice_s: float
    reads: np.ndarray
    over: np.ndarray
    share_pct: np.ndarray
    outcome: tuple
    verdict: str

    @property
    def passed(self) -> bool:
        return self.verdict == "pass"

    def worst_pct(self) -> tuple:
        """The largest share over each threshold in any slice (ACT's ``max`` line), percent."""
        return tuple(float(self.share_pct[:, k].max()) for k in range(len(ACT_LIMITS)))

    def table(self) -> str:
        """ACT's analysis table: per slice, the share of reads over 1, 8 and 64 ms and the reads
        it rests on."""
        head = "slice   reads   " + "  ".join(f">{t:g} ms (<{lim:g}%)" for t, lim in ACT_LIMITS)
        lines = [head]
        for s in range(self.reads.size):
            cells = []
            for k in range(len(ACT_LIMITS)):
                mark = {"pass": "", "fail": " FAIL", "not supported": " n/s"}[self.outcome[s][k]]
                cells.append(f"{self.share_pct[s, k]:8.3f}%{mark:<5}")
            lines.append(f"{s + 1:>5} {self.reads[s]:>7,}   " + "   ".join(cells))
        lines.append(f"verdict: {self.verdict}")
        return "\n".join(lines)


def act_rules(arrival_us, latency_us, slice_s: float = ACT_SLICE_S) -> ActVerdict:
    """Apply ACT's pass rule to read latencies: ``arrival_us`` (>= 0) and ``latency_us`` (NaN
    for a read that never completed) per read, slices of ``slice_s`` seconds (in (0, 1e9])
    from time 0 by arrival. A slice needs ``10 / limit`` reads (10,000 for the 0.1% limit) for
    a share under the limit to be a measurement (:func:`flashlab.ssd.supported_percentile`)."""
    arr = check_array("arrival_us", arrival_us, 0.0, 1e18)
    lat = _latencies("latency_us", latency_us, arr.size)
    width = check_real("slice_s", slice_s, 0.0, 1e9, lo_open=True) * 1e6
    if arr.max() / width >= MAX_SLICES:
        raise ValueError(f"slice_s: arrival_us up to {arr.max():g} us in slices of {width / 1e6:g} s make more "
                         f"than {MAX_SLICES} slices")
    nslices = int(arr.max() // width) + 1
    idx = (arr // width).astype(np.int64)
    reads = np.bincount(idx, minlength=nslices)
    over = np.zeros((nslices, len(ACT_LIMITS)), np.int64)
    slow = np.where(np.isnan(lat), np.inf, lat)
    for k, (ms, _) in enumerate(ACT_LIMITS):
        over[:, k] = np.bincount(idx, weights=slow > ms * 1e3, minlength=nslices).astype(np.int64)
    share = np.where(reads[:, None] > 0, 100.0 * over / np.maximum(reads[:, None], 1), 0.0)
    outcome = []
    for s in range(nslices):
        row = []
        for k, (_, lim) in enumerate(ACT_LIMITS):
            if share[s, k] >= lim:
                row.append("fail")
            elif not supported_percentile(int(reads[s]), 100.0 - lim):
                row.append("not supported")
            else:
                row.append("pass")
        outcome.append(tuple(row))
    flat = [o for row in outcome for o in row]
    verdict = "fail" if "fail" in flat else "not supported" if "not supported" in flat else "pass"
    return ActVerdict(slice_s=width / 1e6, reads=reads, over=over, share_pct=share, outcome=tuple(outcome),
                      verdict=verdict)


# ---------------------------------------------------------------- open-loop runs on a drive
def _config(drive) -> SsdConfig:
    """A Drive's :meth:`~flashlab.drives.Drive.small_config`, or an SsdConfig as given."""
    if isinstance(drive, Drive):
        return drive.small_config()
    return check_instance("drive", drive, SsdConfig, "a Drive or an SsdConfig")


def _streams(config: SsdConfig, streams, seed: int, *, duration_us: float = 0.0, count: int = 0):
    """Requests of several streams merged in time order: each ``(op, pages, rate per s,
    poisson)``, at uniformly random LBAs aligned to its size; Poisson arrivals, or evenly
    spaced (offset by a fraction of a gap that differs per stream). The run lasts
    ``duration_us``, or, with ``count``, as long as the first stream (Poisson) takes to issue
    exactly ``count`` requests. Returns times, ops, LBAs, pages, stream numbers and the
    duration (us)."""
    user = config.geometry.user_pages
    rng = np.random.default_rng(np.random.SeedSequence([seed, 32]))
    parts = []
    for j, (op, pages, rate, poisson) in enumerate(streams):
        if rate <= 0:
            continue
        gap = 1e6 / rate
        if poisson and j == 0 and count:
            t = np.cumsum(rng.exponential(gap, count))
            duration_us = float(t[-1]) + gap
        elif poisson:
            t = np.cumsum(rng.exponential(gap, int(duration_us / gap * 1.2) + 16))
            t = t[t < duration_us]
        else:
            t = (np.arange(int(duration_us / gap)) + (j + 1) / (len(streams) + 1)) * gap
        lba = rng.integers(0, user // pages, t.size) * pages
        parts.append((t, np.full(t.size, op, np.int8), lba, np.full(t.size, pages, np.int64), np.full(t.size, j)))
    t, op, lba, pages, stream = (np.concatenate(c) for c in zip(*parts))
    order = np.argsort(t, kind="stable")
    return t[order], op[order], lba[order], pages[order], stream[order], duration_us


def _fits(config: SsdConfig, write_bytes: int) -> str:
    """Why a write of ``write_bytes`` cannot run on ``config`` ('' if it can): random writes of
    it need at least four slots of its size in the drive. (A write larger than the drive's write
    buffer streams through it, :class:`~flashlab.ssd.SsdConfig`.)"""
    pages = write_bytes // config.geometry.page_size
    if pages > config.geometry.user_pages // 4:
        return (f"a {write_bytes // 1024} KiB write must be at most a quarter of the drive's "
                f"{config.geometry.user_pages * config.geometry.page_size // 1024} KiB")
    return ""


def _run(config, op, lba, pages, arrivals, seed, precondition_fills):
    qd = config.host.max_qd if config.host is not None else OPEN_LOOP_QD
    return run_members([config], op, lba, pages, np.zeros(op.size, np.int64), arrivals=arrivals, qd=qd, seed=seed,
                       precondition_fills=precondition_fills, progress=False)


@dataclass(frozen=True)
class ActRun:
    """One ACT run: the ``load``, the ``verdict`` on the record reads, their ``qos`` rows,
    the simulated ``duration_s``, the device's write amplification ``wa`` over the run
    (:func:`flashlab.ssd.wa_terms`: host, GC, fold and map programs) and ``error``
    (empty, or what stopped the engine)."""

    load: ActLoad
    verdict: ActVerdict
    qos: tuple
    duration_s: float
    wa: float
    error: str


def act_run(drive, multiple: int, *, reads: int = 20000, slices: int = 1, precondition_fills: float = 1.0,
            seed: int = 0) -> ActRun:
    """Run ACT's storage load at ``multiple`` on ``drive`` (a :class:`~flashlab.drives.Drive`,
    run at its ``small_config()``, or an SsdConfig) for exactly ``reads`` record reads (100 to
    1,000,000; the run lasts about ``reads / (2000 x multiple)`` seconds), judged in
    ``slices`` equal slices (1 to 100; ACT's slices are hours, these are the run's).
    ``precondition_fills`` (0 to 10): random 4 KiB drive fills after the sequential fill,
    untimed."""
    config = _config(drive)
    load = act_load(multiple)
    reads = check_int("reads", reads, 100, 10**6)
    slices = check_int("slices", slices, 1, 100)
    fills = check_real("precondition_fills", precondition_fills, 0.0, 10.0)
    check_seed("seed", seed)
    why = _fits(config, load.large_block_bytes)
    if why:
        raise ValueError(f"drive: {why}")
    lb = load.large_block_bytes // config.geometry.page_size
    t, op, lba, pages, stream, duration = _streams(config, [(OP_READ, 1, load.read_iops, True),
                                                            (OP_WRITE, lb, load.large_block_iops, False),
                                                            (OP_READ, lb, load.large_block_iops, False)], seed,
                                                   count=reads)
    res = _run(config, op, lba, pages, t, seed, max(fills, 1e-9))
    small = stream == 0
    verdict = act_rules(t[small], res.latency_us[small], duration / 1e6 / slices)
    c = res.counters[0]
    return ActRun(load=load, verdict=verdict, qos=qos(res.latency_us[small]), duration_s=duration / 1e6,
                  wa=wa_terms(c)["wa"], error=res.error)


@dataclass(frozen=True)
class ActRating:
    """A drive's ACT rating: ``multiple``, the highest load multiple that passed (0: none;
    -1: unrated, ``reason`` says why), ``capped`` when it passed at ``max_multiple`` (the
    rating is at least that), and ``tried``: each multiple run and its verdict, in order."""

    multiple: int
    capped: bool
    tried: tuple
    reason: str

    def __str__(self) -> str:
        if self.multiple < 0:
            return f"unrated: {self.reason}"
        if self.multiple == 0:
            return "fails 1x"
        return f"{'at least ' if self.capped else ''}{self.multiple}x"


def act_rating(drive, *, max_multiple: int = 1024, reads: int = 20000, precondition_fills: float = 1.0,
               seed: int = 0) -> ActRating:
    """The highest integer load multiple at which ``drive`` passes ACT (:func:`act_run`, one
    slice): 1x, then doubling until a failure or ``max_multiple`` (1 to 10,000), then bisection
    between the last pass and the first failure. It assumes a drive that fails at a load fails
    at every higher one. ``reads`` (10,000 to 1,000,000: the 0.1% limit needs 10,000) per run;
    the same ``seed`` for every run, so the rating is deterministic. A drive too small for
    random large blocks (fewer than four) is unrated."""
    config = _config(drive)
    top = check_int("max_multiple", max_multiple, 1, 10**4)
    check_int("reads", reads, 10000, 10**6)
    check_real("precondition_fills", precondition_fills, 0.0, 10.0)
    check_seed("seed", seed)
    why = _fits(config, ACT_LARGE_BLOCK_BYTES)
    if why:
        return ActRating(multiple=-1, capped=False, tried=(), reason=why)
    tried = []

    def passes(m: int) -> bool:
        v = act_run(config, m, reads=reads, precondition_fills=precondition_fills, seed=seed).verdict
        tried.append((m, v.verdict))
        return v.passed

    if not passes(1):
        return ActRating(multiple=0, capped=False, tried=tuple(tried), reason="fails at 1x")
    lo, hi = 1, None
    while hi is None and lo < top:
        m = min(2 * lo, top)
        if passes(m):
            lo = m
        else:
            hi = m
    if hi is None:
        return ActRating(multiple=lo, capped=True, tried=tuple(tried), reason="")
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if passes(mid):
            lo = mid
        else:
            hi = mid
    return ActRating(multiple=lo, capped=False, tried=tuple(tried), reason="")


# ---------------------------------------------------------------- SSD specifications
#: Workload fields of a specification, their kind, default and range.
SPEC_FIELDS = {
    "preset": ("text", None, None),
    "rwmixread": ("real", 70.0, (0.0, 100.0)),
    "read_size_kib": ("int", 4, (4, 4096)),
    "write_size_kib": ("int", 256, (4, 65536)),
    "write_mb_s": ("real", 1000.0, (0.0, 1e5)),
    "read_iops": ("real", None, (0.0, 1e8)),
    "requests": ("int", 200000, (1000, 10**7)),
    "precondition_fills": ("real", 1.0, (0.0, 10.0)),
    "seed": ("int", 0, (0, 2**63 - 1)),
}
_LIMIT = re.compile(r"^(read|write)_(p(\d+(?:\.\d+)?)|mean|max)_ms$")


@dataclass(frozen=True)
class Limit:
    """One limit of a specification: ``op`` (read or write), ``stat`` (``p99.99``, ``mean``,
    ``max``), ``bound_ms``."""

    op: str
    stat: str
    bound_ms: float

    @property
    def name(self) -> str:
        return f"{self.op}_{self.stat}_ms"


@dataclass(frozen=True)
class Spec:
    """A parsed specification: ``workload`` (every field of :data:`SPEC_FIELDS`, defaults
    filled in) and its ``limits``."""

    workload: dict
    limits: tuple


def _field_value(name: str, text: str):
    kind, _, rng = SPEC_FIELDS[name]
    if kind == "text":
        return check_text(name, text, 1, 80)
    try:
        v = int(text) if kind == "int" else float(text)
    except ValueError:
        raise ValueError(f"{name} must be {'an integer' if kind == 'int' else 'a number'}; got {text[:40]!r}") from None
    return check_int(name, v, *rng) if kind == "int" else check_real(name, v, *rng)


def parse_spec(spec: str) -> Spec:
    """Parse a specification: one item a line (or between semicolons), ``#`` starts a comment.
    Workload items are ``field = value`` (:data:`SPEC_FIELDS`; ``preset`` names a drive of
    :data:`~flashlab.drives.DRIVES`); limits are ``op_stat_ms <= value`` with op ``read`` or
    ``write`` and stat ``pNN.NN``, ``mean`` or ``max`` (e.g. ``read_p99.99_ms <= 2``). Example:
    ``preset = pm9a3; rwmixread = 70; write_size_kib = 256; write_mb_s = 1000;
    read_p99.99_ms <= 2``. A malformed item raises ValueError naming its line and field."""
    if not isinstance(spec, str):
        raise ValueError(f"spec must be the specification's text; got {quote(spec)}")
    work, limits, seen = {}, [], set()
    items = [(no, item) for no, raw in enumerate(spec.splitlines(), 1) for item in raw.split("#", 1)[0].split(";")]
    for no, item in items:
        line = item.strip()
        if not line:
            continue
        try:
            _parse_item(line, work, limits, seen)
        except ValueError as exc:
            raise ValueError(f"spec line {no}: {exc}") from None
    if not limits:
        raise ValueError("spec: limits: a specification needs at least one limit, e.g. 'read_p99.99_ms <= 2'")
    workload = {k: work.get(k, d) for k, (_, d, _) in SPEC_FIELDS.items()}
    return Spec(workload=workload, limits=tuple(limits))


def _parse_item(line: str, work: dict, limits: list, seen: set) -> None:
    m = re.match(r"^([A-Za-z0-9_.]+)\s*(<=|=)\s*(\S+)$", line)
    if not m:
        raise ValueError(f"must be 'field = value' or 'metric <= value'; got {line[:80]!r}")
    key, rel, val = m.groups()
    if key in seen:
        raise ValueError(f"{key}: given twice")
    seen.add(key)
    if rel == "=":
        if key not in SPEC_FIELDS:
            raise ValueError(f"{key}: not a workload field; fields: {', '.join(SPEC_FIELDS)}")
        work[key] = _field_value(key, val)
        return
    lm = _LIMIT.match(key)
    if not lm:
        raise ValueError(f"{key}: not a limit; limits are read_ or write_, then pNN.NN, mean or max, then _ms "
                         f"(e.g. read_p99.99_ms)")
    if lm.group(3) is not None:
        check_real(key, float(lm.group(3)), 0.0, 100.0, hi_open=True)
    try:
        bound = float(val)
    except ValueError:
        raise ValueError(f"{key}: the bound must be a number of milliseconds; got {val!r}") from None
    limits.append(Limit(op=lm.group(1), stat=lm.group(2), bound_ms=check_real(key, bound, 0.0, 1e9, lo_open=True)))


@dataclass(frozen=True)
class LimitCheck:
    """A limit beside its measurement: ``measured_ms`` (NaN if none), ``n`` samples and
    ``outcome`` (``pass``, ``fail`` or ``not supported``)."""

    limit: Limit
    measured_ms: float
    n: int
    outcome: str


@dataclass(frozen=True)
class SpecResult:
    """The outcome of :func:`check_spec`: the ``spec``, the drive's ``name``, per-limit
    ``checks``, the rates asked (``read_iops``, ``write_iops``), the read and write ``qos``
    rows, ``error`` (what stopped the engine, if anything)."""

    spec: Spec
    name: str
    checks: tuple
    read_iops: float
    write_iops: float
    qos: dict
    error: str

    @property
    def passed(self) -> bool:
        return all(c.outcome == "pass" for c in self.checks)

    def report(self) -> str:
        """The verdict, each limit with the measured figure beside it, and the QoS tables."""
        w = self.spec.workload
        lines = [f"{self.name}, open loop, seed {w['seed']}",
                 f"  reads {w['rwmixread']:g}% of {w['read_size_kib']} KiB ({self.read_iops:,.0f}/s), writes of "
                 f"{w['write_size_kib']} KiB at {w['write_mb_s']:g} MB/s ({self.write_iops:,.0f}/s)"]
        for c in self.checks:
            got = "no samples" if math.isnan(c.measured_ms) else f"{c.measured_ms:.3f} ms"
            tag = {"pass": "pass", "fail": "FAIL", "not supported": "NOT SUPPORTED"}[c.outcome]
            lines.append(f"  {c.limit.name:<16} <= {c.limit.bound_ms:<6g} measured {got:>12}  n={c.n:,}  {tag}")
        if any(c.outcome == "not supported" for c in self.checks):
            lines.append("  (NOT SUPPORTED: fewer than 10 samples lie beyond the percentile)")
        for op, rows in self.qos.items():
            lines.append(format_qos(rows, op))
        if self.error:
            lines.append(f"the engine stopped: {self.error}")
        lines.append("PASS" if self.passed else "FAIL" if any(c.outcome == "fail" for c in self.checks)
                     else "NOT PASSED: a limit the samples cannot support")
        return "\n".join(lines)


def check_spec(spec, drive=None) -> SpecResult:
    """Evaluate ``spec`` (a :class:`Spec` or its text) on ``drive`` (a Drive, run at its
    ``small_config()``, or an SsdConfig; default: the spec's ``preset``). Writes arrive at
    ``write_mb_s`` in ``write_size_kib`` requests; reads at ``read_iops`` if given, else at
    ``rwmixread / (100 - rwmixread)`` times the write rate; both Poisson, independent.
    ``requests`` in all. A percentile whose samples leave fewer than ten beyond it is ``not
    supported``, never a pass."""
    from flashlab.drives.presets import DRIVES

    spec = parse_spec(spec) if isinstance(spec, str) else check_instance("spec", spec, Spec)
    w = spec.workload
    if drive is None:
        if w["preset"] is None:
            raise ValueError("preset: the specification names no preset and no drive was given")
        key = check_choice("preset", w["preset"].lower(), tuple(DRIVES))
        drive = DRIVES[key]
    name = drive.name if isinstance(drive, Drive) else "the drive"
    config = _config(drive)
    ws, rs = w["write_size_kib"] * 1024, w["read_size_kib"] * 1024
    why = _fits(config, ws)
    if why:
        raise ValueError(f"write_size_kib: {why}")
    write_iops = w["write_mb_s"] * 1e6 / ws
    if w["read_iops"] is not None:
        read_iops = w["read_iops"]
    elif w["rwmixread"] >= 100.0:
        raise ValueError("rwmixread: 100 leaves no writes to set the read rate by; give read_iops")
    else:
        read_iops = write_iops * w["rwmixread"] / (100.0 - w["rwmixread"])
    if read_iops + write_iops <= 0:
        raise ValueError("write_mb_s: with no writes and no reads there is nothing to measure")
    duration = w["requests"] / (read_iops + write_iops) * 1e6
    page = config.geometry.page_size
    t, op, lba, pages, stream, _ = _streams(config, [(OP_READ, rs // page, read_iops, True),
                                                     (OP_WRITE, ws // page, write_iops, True)], w["seed"],
                                            duration_us=duration)
    res = _run(config, op, lba, pages, t, w["seed"], max(w["precondition_fills"], 1e-9))
    lat = {"read": res.latency_us[stream == 0], "write": res.latency_us[stream == 1]}
    checks = []
    for lim in spec.limits:
        x = lat[lim.op]
        n = x.size
        if n == 0:
            checks.append(LimitCheck(limit=lim, measured_ms=math.nan, n=0, outcome="not supported"))
            continue
        slow = np.where(np.isnan(x), np.inf, x)
        if lim.stat == "mean":
            v, ok = float(slow.mean()), True
        elif lim.stat == "max":
            v, ok = float(slow.max()), True
        else:
            p = float(lim.stat[1:])
            v, ok = float(np.percentile(slow, p, method="higher")), supported_percentile(n, p)
        ms = v / 1e3 if math.isfinite(v) else math.nan
        outcome = "not supported" if not ok else "fail" if math.isnan(ms) or ms > lim.bound_ms else "pass"
        checks.append(LimitCheck(limit=lim, measured_ms=ms, n=n, outcome=outcome))
    rows = {op: qos(x) for op, x in lat.items() if x.size}
    return SpecResult(spec=spec, name=name, checks=tuple(checks), read_iops=read_iops, write_iops=write_iops,
                      qos=rows, error=res.error)
