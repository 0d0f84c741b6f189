"""Timing engine with named state, beside the flat-array engine it replaced, in one run; and
8 drives on one clock beside 8 separate single-drive runs.

``python benchmarks/bench_engine.py [--baseline REV]`` extracts the baseline engine from git
revision REV (default d67db42, the last commit with the flat-array engine) into a temporary
directory with ``git archive`` and runs the same cases there in a subprocess. Events per second
count the event loop (``run_events``) alone. Asserts nothing (DESIGN.md).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CASES = r"""
import json, time
from flashlab.ssd import _kernels as K
from flashlab.ssd import HostLoad, SsdConfig, simulate_io, ssd_geometry
from flashlab.workload import Workload
spent = [0.0]
inner = K.run_events
def timed(*a):
    t = time.perf_counter(); out = inner(*a); spent[0] += time.perf_counter() - t; return out
K.run_events = timed
cases = {
    "GC off, 1 GiB, 16 planes, qd 64, 0.9 fills": (SsdConfig(geometry=ssd_geometry(2**30, 0.07), gc="off"),
                                                   HostLoad(qd=64), dict(fills=0.9)),
    "GC on, 256 MiB, qd 32, 4 fills": (SsdConfig(geometry=ssd_geometry(2**28, 0.07, pages_per_block=32)),
                                       HostLoad(qd=32), dict(fills=4.0)),
    "suspend, open loop, 30% reads, 2 fills": (
        SsdConfig(geometry=ssd_geometry(2**26, 0.25, pages_per_block=16), suspend=True, timing="tlc"),
        HostLoad(qd=16, rate_iops=30000.0, workload=Workload("zipf", read_fraction=0.3)), dict(fills=2.0)),
}
simulate_io(SsdConfig(geometry=ssd_geometry(2**26, 0.25, pages_per_block=16)), HostLoad(qd=4), requests=200)
out = {}
for name, (cfg, load, kw) in cases.items():
    best = None
    for _ in range(3):
        spent[0] = 0.0
        r = simulate_io(cfg, load, seed=1, progress=False, **kw)
        best = spent[0] if best is None else min(best, spent[0])
    out[name] = (r.counters["events"], best)
print(json.dumps(out))
"""


def run_cases(tree: Path, cache: Path) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree), NUMBA_CACHE_DIR=str(cache))
    p = subprocess.run([sys.executable, "-c", CASES], env=env, capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError(f"cases failed in {tree}:\n{p.stderr[-3000:]}")
    return json.loads(p.stdout.strip().splitlines()[-1])


def many_drives() -> None:
    """8 drives on one clock (one request stream, interleaved) vs the same 8 streams run one drive
    at a time: event-loop seconds per event."""
    import numpy as np

    from bench_timing import _KERNEL_S as spent
    from bench_timing import _timed_run_events
    from flashlab.ssd import _kernels as K
    from flashlab.ssd import SsdConfig, ssd_geometry
    from flashlab.ssd.engine import run_members

    K.run_events = _timed_run_events
    cfg = SsdConfig(geometry=ssd_geometry(2**26, 0.25, pages_per_block=16))
    D, n = 8, 40000
    rng = np.random.default_rng(2)
    lba = rng.integers(0, cfg.geometry.user_pages, D * n)
    op = (rng.random(D * n) < 0.3).astype(np.int8)
    device = np.arange(D * n) % D
    pages = np.ones(D * n, np.int64)
    arrivals = np.cumsum(rng.exponential(1e6 / (8 * 5000.0), D * n))
    run_members([cfg] * D, op[:64], lba[:64], pages[:64], device[:64], arrivals=arrivals[:64])  # compile
    run_members([cfg], op[:8], lba[:8], pages[:8], np.zeros(8, np.int64), arrivals=arrivals[:8])
    best_one, best_sep = None, None
    for _ in range(3):
        spent[0] = 0.0
        m = run_members([cfg] * D, op, lba, pages, device, arrivals=arrivals, qd=32)
        ev_one = m.events
        best_one = spent[0] if best_one is None else min(best_one, spent[0])
        spent[0] = 0.0
        ev_sep = 0
        for d in range(D):
            sel = device == d
            r = run_members([cfg], op[sel], lba[sel], pages[sel], np.zeros(sel.sum(), np.int64),
                            arrivals=arrivals[sel], qd=32)
            ev_sep += r.events
        best_sep = spent[0] if best_sep is None else min(best_sep, spent[0])
    print(f"8 drives x {n} requests (64 MiB, 30% reads, open loop): one clock {ev_one / best_one / 1e6:.2f} M events/s "
          f"({ev_one} events), 8 separate runs {ev_sep / best_sep / 1e6:.2f} M events/s ({ev_sep} events) -> "
          f"{(ev_one / best_one) / (ev_sep / best_sep):.2f}x per event")


def main() -> None:
    rev = sys.argv[sys.argv.index("--baseline") + 1] if "--baseline" in sys.argv else "d67db42"
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "flashlab"], capture_output=True,
                                 check=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        base = run_cases(Path(tmp), ROOT / ".cache" / f"numba-baseline-{rev}")
    new = run_cases(ROOT, Path(os.environ.get("NUMBA_CACHE_DIR", ROOT / ".cache" / "numba")))
    for name in new:
        (eb, tb), (en, tn) = base[name], new[name]
        print(f"{name}: baseline {eb / tb / 1e6:.2f} M events/s ({eb} events), named state "
              f"{en / tn / 1e6:.2f} M events/s ({en} events) -> {(en / tn) / (eb / tb):.2f}x")
    many_drives()


if __name__ == "__main__":
    main()
