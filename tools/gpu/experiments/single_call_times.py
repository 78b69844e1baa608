"""Single-call event times (as the benchmarks take them), host time
to return, and host profiles of the calls whose single-call time trails the back-to-back time."""
import cProfile, io, pstats, statistics, time
import numpy as np
import cuarray as ca
import cupy as cp
from benchmarks.harness import device_time

def sync():
    ca.cuda.Device().synchronize(); cp.cuda.Device().synchronize()

def loop_ms(fn, reps=10, loops=5):
    fn(); sync(); res = []
    for _ in range(loops):
        t0 = time.perf_counter()
        for _ in range(reps):
            fn()
        sync(); res.append((time.perf_counter() - t0) / reps)
    return statistics.median(res) * 1e3

def host_us(fn, reps=20):
    res = []
    for _ in range(reps):
        sync(); t0 = time.perf_counter(); fn(); res.append(time.perf_counter() - t0)
    sync()
    return statistics.median(res) * 1e6

rng = np.random.default_rng(0)
n26 = 1 << 26
xs = ca.random.random(n26, dtype=np.float32)
xl = ca.random.random(1 << 28, dtype=np.float32)
idx = ca.random.randint(0, n26, n26, dtype=np.int64)
m = rng.standard_normal((4096, 4096)); spd = m @ m.T + 4096 * np.eye(4096)
A, G, b = ca.asarray(spd), ca.asarray(m), ca.asarray(rng.standard_normal(4096))
sync()
xsc, xlc, idc = cp.asarray(xs), cp.asarray(xl), cp.asarray(idx)
Ac, Gc, bc = cp.asarray(spd), cp.asarray(m), cp.asarray(b)
sync()
cases = [
    ("cumsum 2^26", lambda: ca.cumsum(xs), lambda: cp.cumsum(xsc)),
    ("argmax 2^28", lambda: ca.argmax(xl), lambda: cp.argmax(xlc)),
    ("sum 2^28", lambda: xl.sum(), lambda: xlc.sum()),
    ("x[idx] 2^26", lambda: xs[idx], lambda: xsc[idc]),
    ("cholesky 4096", lambda: ca.linalg.cholesky(A), lambda: cp.linalg.cholesky(Ac)),
    ("solve 4096", lambda: ca.linalg.solve(G, b), lambda: cp.linalg.solve(Gc, bc)),
]
print("| case | cuarray event ms | cupy event ms | ratio | cuarray loop ms | cupy loop ms | cuarray host µs | cupy host µs |")
for name, f, g in cases:
    ef, eg = device_time(f, ca), device_time(g, cp)
    print(f"| {name} | {ef:.4f} | {eg:.4f} | {ef / eg:.3f} | {loop_ms(f):.4f} | {loop_ms(g):.4f} | "
          f"{host_us(f):.1f} | {host_us(g):.1f} |", flush=True)
for name, f, _ in cases:
    pr = cProfile.Profile()
    for _ in range(30):
        sync(); pr.enable(); f(); pr.disable()
    sync()
    st = io.StringIO(); pstats.Stats(pr, stream=st).sort_stats("tottime").print_stats(12)
    print("--- profile (30 calls)", name); print("\n".join(st.getvalue().splitlines()[4:22]), flush=True)
