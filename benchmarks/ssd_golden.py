"""Golden outputs of the SSD timing engine, for refactoring it without changing a number.

``python benchmarks/ssd_golden.py capture /tmp/golden.npz`` runs a spread of configurations
(closed and open loop, suspend on and off, every GC mode and foreground policy, steering, read
fractions, multi-page requests, preconditioning, every timing preset, the write-cliff chapter's
explorable settings, ``write_saturation`` and ``nand_timeline``) and saves every array they
return. ``python benchmarks/ssd_golden.py compare /tmp/golden.npz`` reruns them and lists every
array that differs bit for bit (exit status 1 if any does). Keys may be skipped with
``--skip SUBSTRING`` (e.g. a counter a named bug fix changed). About a minute on 2 cores.
"""

from __future__ import annotations

import sys

import numpy as np

from flashlab.ssd import HostLoad, SsdConfig, nand_timeline, simulate_io, ssd_geometry, write_saturation
from flashlab.ssd.config import SERIES_NAMES
from flashlab.workload import Workload


def _small(op=0.25, capacity=2**26, ppb=16, **kw):
    return SsdConfig(geometry=ssd_geometry(capacity, op, pages_per_block=ppb), **kw)


def _io_cases():
    wl = Workload
    yield "closed_bg", _small(), HostLoad(qd=32), dict(fills=2.0)
    yield "closed_fg_wait", _small(gc="foreground", foreground="wait"), HostLoad(qd=8), dict(fills=2.0)
    yield "closed_fg_throttle", _small(gc="foreground"), HostLoad(qd=16), dict(fills=2.0)
    yield "closed_off_stall", _small(gc="off"), HostLoad(qd=4), dict(fills=1.5)
    yield "closed_fifo_mixed", _small(scheduler="fifo"), HostLoad(qd=16, workload=wl("uniform", read_fraction=0.5)), dict(fills=1.0)
    yield "closed_suspend_mixed", _small(suspend=True), HostLoad(qd=16, workload=wl("hotcold", read_fraction=0.3)), dict(fills=1.5)
    yield "closed_steer", _small(steering=True, timing="tlc"), HostLoad(qd=32), dict(fills=2.0)
    yield "closed_steer_qlc", _small(steering=True, timing="qlc", op=0.4), HostLoad(qd=8, workload=wl("zipf", read_fraction=0.2)), dict(fills=1.5)
    yield "closed_multipage", _small(), HostLoad(qd=8, write_size=16384, read_size=8192, workload=wl("uniform", read_fraction=0.4)), dict(fills=1.0)
    yield "closed_seq_precond", _small(), HostLoad(qd=4, workload=wl("sequential", read_fraction=0.3)), dict(requests=6000, precondition_fills=1.0, precondition_size=65536)
    yield "closed_cost_benefit", _small(policy="cost_benefit", gc_background=6, op=0.35), HostLoad(qd=32), dict(fills=2.0)
    yield "open_light", _small(0.2, gc="background"), HostLoad(qd=32, rate_iops=500.0, workload=wl("uniform")), dict(requests=3000)
    yield "open_heavy_fg", _small(0.2, gc="foreground"), HostLoad(qd=32, rate_iops=20000.0, workload=wl("uniform")), dict(fills=1.5)
    yield "open_suspend_mixed", _small(suspend=True, timing="tlc"), HostLoad(qd=16, rate_iops=30000.0, workload=wl("zipf", read_fraction=0.3)), dict(requests=15000)
    yield "open_suspend_reads_only", _small(suspend=True), HostLoad(qd=64, rate_iops=80000.0, workload=wl("uniform", read_fraction=0.9)), dict(requests=4000, precondition_fills=1.0)
    for preset in ("slc", "mlc", "mlc_mqsim", "tlc", "qlc"):
        yield f"preset_{preset}", _small(0.4, timing=preset), HostLoad(qd=16, workload=wl("uniform", read_fraction=0.25)), dict(fills=1.0)
        yield f"preset_{preset}_suspend_open", _small(0.4, timing=preset, suspend=True, scheduler="fifo"), HostLoad(qd=8, rate_iops=15000.0, workload=wl("uniform", read_fraction=0.5)), dict(requests=4000)
    # the write-cliff chapter's explorable settings (flashlab.viz.ssd)
    for op in (0.15, 0.4):
        for gc in ("background", "foreground"):
            yield f"viz_open_{op}_{gc}", SsdConfig(geometry=ssd_geometry(2**26, op, pages_per_block=16), gc=gc), HostLoad(qd=32, rate_iops=4000.0, workload=wl("uniform")), dict(fills=1.0, seed=1)
    yield "viz_steer", SsdConfig(geometry=ssd_geometry(2**26, 0.25, pages_per_block=16), steering=True, timing="tlc"), HostLoad(qd=32), dict(fills=2.0, seed=2)


def _drive_cases():
    """The real drives' data path (flashlab.drives): host interface and controller, NAND pages of
    several slots, one-shot programs, write buffers with and without power-loss protection,
    flushes and FUA writes; each preset at 96 blocks per plane (about the fewest in which an op of
    0.07 leaves the FTL its reserve of superblocks). Without their SLC caches (``slc=None``): these
    cases hold the engine's results from before it had one."""
    from dataclasses import replace

    from flashlab.drives import PM9A3, PRO850, PRO980, SSD320, X25E

    wl = Workload
    for name, drive in (("x25e", X25E), ("ssd320", SSD320), ("pro850", PRO850), ("pm9a3", PM9A3), ("pro980", PRO980)):
        cfg = replace(drive.config(drive.scale_for(96)), slc=None)
        yield f"drive_{name}_mixed", cfg, HostLoad(qd=32, workload=wl("uniform", read_fraction=0.3)), dict(requests=6000, precondition_fills=1.0)
        yield f"drive_{name}_flush", cfg, HostLoad(qd=4, workload=wl("uniform", read_fraction=0.2), flush_every=3), dict(requests=3000)
    yield "drive_pro980_fua", replace(PRO980.config(PRO980.scale_for(96)), slc=None), HostLoad(qd=8, fua=True), dict(requests=2000)
    yield "drive_pro850_multiplane", PRO850.config(PRO850.scale_for(96), multi_plane=True), HostLoad(qd=64, workload=wl("uniform", read_fraction=0.5)), dict(requests=6000, precondition_fills=1.0)


def _timelines():
    for suspend in (False, True):
        for timing in ("mlc", "tlc"):
            cfg = SsdConfig(gc="off", suspend=suspend, timing=timing)
            for kind, pt in (("program", 0), ("program", 1), ("erase", 0)):
                for arrival in (1.0, 30.0, 500.0):
                    yield f"tl_{suspend}_{timing}_{kind}{pt}_{arrival}", cfg, [(0.0, kind, 0, pt), (arrival, "read", 0, 0)]
            ops = [(0.0, "erase", 0, 0)] + [(10.0 + 150.0 * i, "read", 0, 0) for i in range(20)]
            yield f"tl_{suspend}_{timing}_20reads", cfg, ops
            mixed = [(5.0 * i, ("program", "read", "erase")[i % 3], i % 8, i % 2) for i in range(60)]
            yield f"tl_{suspend}_{timing}_mixed", cfg, mixed


def collect() -> dict:
    out = {}
    for name, cfg, load, kw in (*_io_cases(), *_drive_cases()):
        r = simulate_io(cfg, load, progress=False, **kw)
        for f in ("op", "lba", "pages", "phase", "arrival_us", "start_us", "done_us", "latency_us"):
            out[f"{name}/{f}"] = np.asarray(getattr(r, f))
        for s in SERIES_NAMES:
            out[f"{name}/series/{s}"] = r.series[s]
        for k, v in r.counters.items():
            out[f"{name}/counters/{k}"] = np.asarray(v)
        out[f"{name}/wa"] = np.asarray(r.wa)
        out[f"{name}/stalled"] = np.asarray(r.stalled)
    for name, cfg, qd, fills in (("pts_small_qd32", _small(0.2), 32, 4.0), ("pts_small_qd8", _small(0.2), 8, 3.0),
                                 ("pts_tlc_fg", _small(0.3, timing="tlc", gc="foreground"), 16, 3.0)):
        w = write_saturation(cfg, qd=qd, fills=fills, progress=False)
        for f in ("round_fills", "round_end_s", "round_iops", "round_p99_us", "round_p999_us", "round_wa",
                  "round_free_blocks", "round_fg_share"):
            out[f"{name}/{f}"] = np.asarray(getattr(w, f))
        out[f"{name}/fob"] = np.asarray(w.fob_iops)
        out[f"{name}/steady"] = np.asarray(w.steady_iops)
        out[f"{name}/latency"] = w.result.latency_us
    for name, cfg, ops in _timelines():
        t = nand_timeline(ops, cfg)
        for k, v in t.items():
            out[f"{name}/{k}"] = np.asarray(v)
    return out


def main(argv) -> int:
    mode, path = argv[1], argv[2]
    skip = [argv[i + 1] for i, a in enumerate(argv) if a == "--skip"]
    got = collect()
    if mode == "capture":
        np.savez(path, **got)
        print(f"saved {len(got)} arrays to {path}")
        return 0
    ref = np.load(path)
    bad = []
    for k in sorted(set(ref.files) | set(got)):
        if any(s in k for s in skip):
            continue
        if k not in ref.files or k not in got:
            bad.append(f"{k}: missing on one side")
            continue
        a, b = ref[k], got[k]
        if a.shape != b.shape or a.dtype != b.dtype or a.tobytes() != b.tobytes():
            bad.append(f"{k}: differs ({a.ravel()[:4]} vs {b.ravel()[:4]})")
    print("\n".join(bad) if bad else f"all {len(got)} arrays bit-identical")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
