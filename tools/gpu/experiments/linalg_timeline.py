"""GPU timelines of cholesky and solve step by step, host cost of
cuSOLVER buffer-size queries, argmax's host path, single-call times after the changes."""
import cProfile, io, pstats, time
import numpy as np
import cuarray as ca
import cupy as cp
from benchmarks.harness import device_time
from nvmath.bindings import cusolverDn as dn
from cuarray._libs import cusolver as _cus
from cuarray._libs.cublas import CUDA_DTYPE, FILL_UPPER
from cuarray.linalg import _solve as S

def sync():
    ca.cuda.Device().synchronize(); cp.cuda.Device().synchronize()

n = 4096
rng = np.random.default_rng(0)
m = rng.standard_normal((n, n)); spd = m @ m.T + n * np.eye(n)
A, G, b = ca.asarray(spd), ca.asarray(m), ca.asarray(rng.standard_normal(n))
sync()
Ac, Gc, bc = cp.asarray(spd), cp.asarray(m), cp.asarray(b)
sync()
t = CUDA_DTYPE[np.dtype("d")]

def timeline(name, steps, reps=5):
    acc = None
    for r in range(reps + 1):
        sync()
        evs = [ca.cuda.Event() for _ in range(len(steps) + 1)]
        hs = []
        evs[0].record()
        for k, (label, f) in enumerate(steps):
            h0 = time.perf_counter(); f(); hs.append(time.perf_counter() - h0)
            evs[k + 1].record()
        evs[-1].synchronize()
        row = [ca.cuda.get_elapsed_time(evs[k], evs[k + 1]) for k in range(len(steps))]
        if r:
            acc = row if acc is None else [min(x, y) for x, y in zip(acc, row)]
            hacc = hs
    print(f"-- {name}: step, GPU ms between events (min of {reps}), host µs")
    for (label, _), g, h in zip(steps, acc, hacc):
        print(f"   {label:28s} {g:8.4f} ms   host {h * 1e6:8.1f} µs")
    print(f"   total {sum(acc):.4f} ms", flush=True)

st = {}
def c_copy(): st["buf"] = S._c_copy(A, np.dtype("d"))
def c_info(): st["info"] = ca.zeros(1, dtype=np.int32)
def c_solver(): st["s"] = _cus.get_solver()
def c_bufsize():
    s = st["s"]; st["sz"] = dn.xpotrf_buffer_size(s.ptr, s.params, FILL_UPPER, n, t, st["buf"].data.ptr, n, t)
def c_ws(): st["ws"] = S._device_workspace(st["sz"][0]); st["hws"] = S._host_workspace(st["sz"][1])
def c_potrf():
    s = st["s"]; d, h = st["sz"]
    dn.xpotrf(s.ptr, s.params, FILL_UPPER, n, t, st["buf"].data.ptr, n, t, st["ws"].data.ptr, d, st["hws"][1], h, st["info"].data.ptr)
def c_tri(): S._zero_triangle(st["buf"], n, 1, False)
def c_check(): S._check(st["info"], "x")
timeline("cholesky (cuarray's steps)", [("copy", c_copy), ("info zeros", c_info), ("get_solver", c_solver),
         ("xpotrf_buffer_size", c_bufsize), ("workspaces", c_ws), ("xpotrf", c_potrf), ("zero triangle", c_tri),
         ("check (sync)", c_check)])
def l_bufsize():
    s = st["s"]; st["lw"] = dn.dpotrf_buffer_size(s.ptr, FILL_UPPER, n, st["buf"].data.ptr, n)
def l_ws(): st["wl"] = ca.empty(max(st["lw"], 1), dtype=np.float64)
def l_potrf():
    s = st["s"]; dn.dpotrf(s.ptr, FILL_UPPER, n, st["buf"].data.ptr, n, st["wl"].data.ptr, st["lw"], st["info"].data.ptr)
timeline("cholesky (legacy potrf)", [("copy", c_copy), ("info zeros", c_info), ("get_solver", c_solver),
         ("dpotrf_buffer_size", l_bufsize), ("workspace", l_ws), ("dpotrf", l_potrf), ("zero triangle", c_tri),
         ("check (sync)", c_check)])
def s_copy(): st["abuf"] = S._c_copy(G, np.dtype("d")); st["bbuf"] = S._colmajor_copy(b[:, None], np.dtype("d"))
def s_lu(): st["lu"] = S.lu_factor(st["abuf"], n, 1, np.dtype("d"))
def s_rs(): ipiv, info, ptrs = st["lu"]; S._lu_solve(st["abuf"], ipiv, ptrs, st["bbuf"], n, 1, 1, np.dtype("d"), 1)
def s_check(): S._check(st["lu"][1], "x")
timeline("solve (cuarray's steps)", [("copies", s_copy), ("lu_factor", s_lu), ("lu_solve", s_rs), ("check", s_check)])
timeline("cupy cholesky", [("cholesky", lambda: cp.linalg.cholesky(Ac))])
timeline("cupy solve", [("solve", lambda: cp.linalg.solve(Gc, bc))])
timeline("cuarray cholesky", [("cholesky", lambda: ca.linalg.cholesky(A))])
timeline("cuarray solve", [("solve", lambda: ca.linalg.solve(G, b))])

s = _cus.get_solver(); buf = A.copy()
for name, f in [("xpotrf_buffer_size", lambda: dn.xpotrf_buffer_size(s.ptr, s.params, FILL_UPPER, n, t, buf.data.ptr, n, t)),
                ("dpotrf_buffer_size", lambda: dn.dpotrf_buffer_size(s.ptr, FILL_UPPER, n, buf.data.ptr, n)),
                ("dgetrf_buffer_size", lambda: dn.dgetrf_buffer_size(s.ptr, n, n, buf.data.ptr, n)),
                ("get_solver", lambda: _cus.get_solver())]:
    sync(); t0 = time.perf_counter()
    for _ in range(20):
        f()
    print(f"host {name}: {(time.perf_counter() - t0) / 20 * 1e6:.1f} µs", flush=True)

xl = ca.random.random(1 << 28, dtype=np.float32); xs = ca.random.random(1 << 26, dtype=np.float32)
sync(); xlc, xsc = cp.asarray(xl), cp.asarray(xs); sync()
for name, f, g in [("cumsum 2^26", lambda: ca.cumsum(xs), lambda: cp.cumsum(xsc)),
                   ("argmax 2^28", lambda: ca.argmax(xl), lambda: cp.argmax(xlc)),
                   ("cholesky", lambda: ca.linalg.cholesky(A), lambda: cp.linalg.cholesky(Ac)),
                   ("solve", lambda: ca.linalg.solve(G, b), lambda: cp.linalg.solve(Gc, bc))]:
    ef, eg = device_time(f, ca), device_time(g, cp)
    print(f"event {name}: cuarray {ef:.4f} cupy {eg:.4f} ratio {ef / eg:.3f}", flush=True)
a = ca.random.random(1000, dtype=np.float32)
pr = cProfile.Profile(); pr.enable()
for _ in range(20000):
    ca.argmax(a)
pr.disable(); sync()
out = io.StringIO(); pstats.Stats(pr, stream=out).sort_stats("tottime").print_stats(16)
print("\n".join(out.getvalue().splitlines()[4:26]))
