import time, numpy as np
t0=time.time()
from flashlab.ssd import HostLoad, write_saturation, simulate_io
from flashlab.workload import Workload
from flashlab.viz.ssd import small_config, first_last_fill
CACHE = 4 * 2**20
for cache in (0, CACHE):
    r = simulate_io(small_config(0.2, cache_bytes=cache, power_loss_protection=True), HostLoad(qd=1), requests=2000, seed=0)
    q = r.percentiles(op=0)
    print(f"qd1 cache {cache // 2**20} MiB: write p50 {q['p50']:7.1f} us, p99 {q['p99']:7.1f} us", time.time()-t0, flush=True)
for cache in (0, CACHE):
  for steering in (False, True):
    r = write_saturation(small_config(0.2, cache_bytes=cache, power_loss_protection=cache>0, steering=steering), qd=32, fills=4.0, max_fills=8.0, progress=False)
    print(f"sat cache {cache//2**20} steer {steering}: FOB {r.fob_iops:,.0f} steady {r.steady_iops:,.0f} WA {r.steady_wa:.2f} cliff {r.cliff_fills:.1f} p50 {r.before['p50']/1e3:.3f}->{r.after['p50']/1e3:.2f} p99 {r.before['p99']/1e3:.3f}->{r.after['p99']/1e3:.2f} reached {r.steady.reached}", time.time()-t0, flush=True)
for cache in (0, CACHE):
  for steering in (False, True):
    res = simulate_io(small_config(0.2, cache_bytes=cache, power_loss_protection=cache>0, steering=steering),
                       HostLoad(qd=32, rate_iops=2000.0, workload=Workload("uniform")), fills=3.0, seed=0, progress=False)
    first, last = first_last_fill(res)
    a, b = (np.percentile(res.latency_us[m], [50, 99]) / 1e3 for m in (first, last))
    print(f"rate2000 cache {cache//2**20} steer {steering}: first {a} last {b}", time.time()-t0, flush=True)
