"""Variants of kernel shapes against CuPy: scan shapes, argmax layouts, gather cache hints,
cuSOLVER 32/64-bit APIs, and host profiles of the calls."""
import cProfile, io, pstats, statistics, sys, time
import numpy as np
import cuarray as ca
import cupy as cp

def sync():
    ca.cuda.Device().synchronize(); cp.cuda.Device().synchronize()

def tm(fn, reps=10, loops=5):
    fn(); sync()
    res = []
    for _ in range(loops):
        t0 = time.perf_counter()
        for _ in range(reps):
            fn()
        sync(); res.append((time.perf_counter() - t0) / reps)
    return statistics.median(res) * 1e3

def section(name):
    print(f"\n== {name}", flush=True)

which = sys.argv[1:] or ["scan", "argmax", "gather", "linalg", "host"]

if "scan" in which:
    section("scan: cumsum 2^26 float32 (ms)")
    from cuarray._core import scan
    n = 1 << 26
    xh = np.random.default_rng(1).random(n, dtype=np.float32)
    x = ca.asarray(xh); xc = cp.asarray(xh)
    ref = np.cumsum(xh, dtype=np.float64)
    sync()
    pos = np.array([0, 4095, 4096, 123457, n // 2 + 7, n - 1])
    print("cupy", round(tm(lambda: cp.cumsum(xc)), 4))
    base = dict(block=256, items=16, tile_bytes=16384, vec=False, ticket=True, packed=True, min_blocks=0, keep=True)
    cfgs = [dict(base), dict(base, min_blocks=8), dict(base, min_blocks=8, keep=False),
            dict(base, keep=False), dict(base, min_blocks=8, keep=False, ticket=False),
            dict(base, min_blocks=7, keep=False),
            dict(base, items=24, tile_bytes=32768, min_blocks=8, keep=False),
            dict(base, items=12, tile_bytes=32768, min_blocks=8, keep=False),
            dict(base, block=128, min_blocks=16, keep=False),
            dict(base, block=128, items=24, tile_bytes=32768, min_blocks=16, keep=False),
            dict(base, block=512, min_blocks=4, keep=False, tile_bytes=32768),
            dict(base, block=512, items=8, min_blocks=4, keep=True)]
    for cfg in cfgs:
        scan.LOOKBACK = cfg; scan._ops.clear()
        try:
            y = ca.cumsum(x)
            got = y[ca.asarray(pos)].get().astype(np.float64)
            err = float(np.max(np.abs(got - ref[pos]) / np.abs(ref[pos])))
            print({k: cfg[k] for k in ("block", "items", "min_blocks", "keep", "ticket")},
                  round(tm(lambda: ca.cumsum(x)), 4), "relerr", f"{err:.1e}", flush=True)
        except Exception as e:
            print(cfg, "ERROR", repr(e)[:300], flush=True)
    # upper bound: no look-back (wrong values; timing only)
    orig = scan._lookback_packed
    scan._lookback_packed = lambda: ["  if (warp == 0) {", "    T run = ident;", "    if (t != 0) {", "    }"]
    for cfg in (dict(base), dict(base, min_blocks=8, keep=False)):
        scan.LOOKBACK = cfg; scan._ops.clear()
        print("NO LOOKBACK", {k: cfg[k] for k in ("block", "items", "min_blocks", "keep")}, round(tm(lambda: ca.cumsum(x)), 4), flush=True)
    scan._lookback_packed = orig
    scan.LOOKBACK = base; scan._ops.clear()
    print("copy 256MB (ms)", round(tm(lambda: x.copy()), 4))
    del x, xc, y

if "argmax" in which:
    section("argmax 2^28 float32 (ms)")
    from cuarray._core import _argwhole
    n = 1 << 28
    x = ca.random.random(n, dtype=np.float32)
    sync(); xc = cp.asarray(x)  # __cuda_array_interface__
    want = int(cp.argmax(xc))
    print("cupy", round(tm(lambda: cp.argmax(xc)), 4), "sum cuarray", round(tm(lambda: x.sum()), 4),
          "sum cupy", round(tm(lambda: xc.sum()), 4))
    for lay in [dict(unroll=4, blocks_per_sm=8, chunked=False), dict(unroll=4, blocks_per_sm=8, chunked=True),
                dict(unroll=8, blocks_per_sm=8, chunked=True), dict(unroll=8, blocks_per_sm=8, chunked=False),
                dict(unroll=4, blocks_per_sm=4, chunked=True), dict(unroll=8, blocks_per_sm=4, chunked=True),
                dict(unroll=2, blocks_per_sm=8, chunked=True), dict(unroll=4, blocks_per_sm=16, chunked=True)]:
        _argwhole.LAYOUT = lay
        got = int(ca.argmax(x))
        print(lay, round(tm(lambda: ca.argmax(x)), 4), "ok" if got == want else f"WRONG {got} {want}", flush=True)
    _argwhole.LAYOUT = dict(unroll=4, blocks_per_sm=8, chunked=False)
    del x, xc

if "gather" in which:
    section("gather x[idx] 2^26 float32, int64 idx (ms)")
    from cuarray._core import _gather_scatter as gs
    n = 1 << 26
    x = ca.random.random(n, dtype=np.float32)
    idx = ca.random.randint(0, n, n, dtype=np.int64)
    sync(); xc, idc = cp.asarray(x), cp.asarray(idx)
    want = xc[idc]
    print("cupy", round(tm(lambda: xc[idc]), 4))
    d0 = gs.gs_source.__defaults__
    for hints, unroll in ((False, 4), (True, 4), (False, 8), (True, 8), (True, 2)):
        gs.STREAM_HINTS = hints
        gs.gs_source.__defaults__ = d0[:-1] + (unroll,)
        gs._kernels.clear()
        r = x[idx]; sync(); ok = bool(cp.all(cp.asarray(r) == want))
        print("hints", hints, "unroll", unroll, round(tm(lambda: x[idx]), 4), "ok" if ok else "WRONG", flush=True)
    gs.STREAM_HINTS = False; gs.gs_source.__defaults__ = d0; gs._kernels.clear()
    del x, idx, xc, idc, want

if "linalg" in which:
    section("linalg 4096 float64 (ms)")
    from nvmath.bindings import cusolverDn as dn
    from cuarray._libs import cusolver as _cus
    from cuarray._libs.cublas import CUDA_DTYPE, FILL_UPPER
    n = 4096
    rng = np.random.default_rng(0)
    m = rng.standard_normal((n, n))
    spd = m @ m.T + n * np.eye(n)
    A = ca.asarray(spd); Ac = cp.asarray(spd)
    b = ca.asarray(rng.standard_normal(n)); bc = cp.asarray(b)
    G = ca.asarray(m); Gc = cp.asarray(m); sync()
    print("cholesky cuarray", round(tm(lambda: ca.linalg.cholesky(A), 5, 3), 3), "cupy", round(tm(lambda: cp.linalg.cholesky(Ac), 5, 3), 3))
    print("solve cuarray", round(tm(lambda: ca.linalg.solve(G, b), 5, 3), 3), "cupy", round(tm(lambda: cp.linalg.solve(Gc, bc), 5, 3), 3))
    print("copy only", round(tm(lambda: A.copy(), 5, 3), 3))
    s = _cus.get_solver(); t = CUDA_DTYPE[np.dtype("d")]
    buf = A.copy(); info = ca.zeros(1, dtype=np.int32)
    dsz, hsz = dn.xpotrf_buffer_size(s.ptr, s.params, FILL_UPPER, n, t, buf.data.ptr, n, t)
    ws = ca.empty(max(dsz, 1), dtype=np.uint8); hws = np.empty(max(hsz, 1), np.uint8)
    def xpotrf():
        buf[...] = A
        dn.xpotrf(s.ptr, s.params, FILL_UPPER, n, t, buf.data.ptr, n, t, ws.data.ptr, dsz, hws.ctypes.data, hsz, info.data.ptr)
    lw = dn.dpotrf_buffer_size(s.ptr, FILL_UPPER, n, buf.data.ptr, n)
    wl = ca.empty(max(lw, 1), dtype=np.float64)
    def dpotrf():
        buf[...] = A
        dn.dpotrf(s.ptr, FILL_UPPER, n, buf.data.ptr, n, wl.data.ptr, lw, info.data.ptr)
    print("Xpotrf+copy", round(tm(xpotrf, 5, 3), 3), "dpotrf+copy", round(tm(dpotrf, 5, 3), 3), "info", int(info.get()[0]))
    ipiv64 = ca.empty(n, dtype=np.int64); ipiv32 = ca.empty(n, dtype=np.int32)
    dsz, hsz = dn.xgetrf_buffer_size(s.ptr, s.params, n, n, t, buf.data.ptr, n, t)
    ws = ca.empty(max(dsz, 1), dtype=np.uint8); hws = np.empty(max(hsz, 1), np.uint8)
    def xgetrf():
        buf[...] = G
        dn.xgetrf(s.ptr, s.params, n, n, t, buf.data.ptr, n, ipiv64.data.ptr, t, ws.data.ptr, dsz, hws.ctypes.data, hsz, info.data.ptr)
    lw = dn.dgetrf_buffer_size(s.ptr, n, n, buf.data.ptr, n)
    wl = ca.empty(max(lw, 1), dtype=np.float64)
    def dgetrf():
        buf[...] = G
        dn.dgetrf(s.ptr, n, n, buf.data.ptr, n, wl.data.ptr, ipiv32.data.ptr, info.data.ptr)
    print("Xgetrf+copy", round(tm(xgetrf, 5, 3), 3), "dgetrf+copy", round(tm(dgetrf, 5, 3), 3))
    bb = b.copy()
    def xgetrs():
        dn.xgetrs(s.ptr, s.params, 1, n, 1, t, buf.data.ptr, n, ipiv64.data.ptr, t, bb.data.ptr, n, info.data.ptr)
    xgetrf()
    print("Xgetrs", round(tm(xgetrs, 5, 3), 3))
    def dgetrs():
        dn.dgetrs(s.ptr, 1, n, 1, buf.data.ptr, n, ipiv32.data.ptr, bb.data.ptr, n, info.data.ptr)
    dgetrf()
    print("dgetrs", round(tm(dgetrs, 5, 3), 3))
    print("eigh cuarray", round(tm(lambda: ca.linalg.eigh(A), 2, 3), 3), "cupy", round(tm(lambda: cp.linalg.eigh(Ac), 2, 3), 3))
    from cuarray._libs.cusolver import EIG_VECTOR
    w = ca.empty(n, dtype=np.float64)
    dsz, hsz = dn.xsyevd_buffer_size(s.ptr, s.params, EIG_VECTOR, FILL_UPPER, n, t, buf.data.ptr, n, t, w.data.ptr, t)
    ws = ca.empty(max(dsz, 1), dtype=np.uint8); hws = np.empty(max(hsz, 1), np.uint8)
    def xsyevd():
        buf[...] = A
        dn.xsyevd(s.ptr, s.params, EIG_VECTOR, FILL_UPPER, n, t, buf.data.ptr, n, t, w.data.ptr, t, ws.data.ptr, dsz, hws.ctypes.data, hsz, info.data.ptr)
    lw = dn.dsyevd_buffer_size(s.ptr, EIG_VECTOR, FILL_UPPER, n, buf.data.ptr, n, w.data.ptr)
    wl = ca.empty(max(lw, 1), dtype=np.float64)
    def dsyevd():
        buf[...] = A
        dn.dsyevd(s.ptr, EIG_VECTOR, FILL_UPPER, n, buf.data.ptr, n, w.data.ptr, wl.data.ptr, lw, info.data.ptr)
    print("Xsyevd+copy", round(tm(xsyevd, 2, 3), 3), "dsyevd+copy", round(tm(dsyevd, 2, 3), 3), flush=True)

if "host" in which:
    section("host per-call (µs) and profiles")
    a = ca.ones(1000, dtype=np.float32); ac = cp.ones(1000, dtype=np.float32)
    k = ca.RawKernel('extern "C" __global__ void touch(float* a, int n) { int i = threadIdx.x; if (i < n) a[i] += 1.0f; }', "touch")
    kc = cp.RawKernel('extern "C" __global__ void touch(float* a, int n) { int i = threadIdx.x; if (i < n) a[i] += 1.0f; }', "touch")
    z = ca.zeros(32, dtype=np.float32); zc = cp.zeros(32, dtype=np.float32)
    cases = [("a.sum()", lambda: a.sum(), lambda: ac.sum()),
             ("zeros(1000)", lambda: ca.zeros(1000, dtype=np.float32), lambda: cp.zeros(1000, dtype=np.float32)),
             ("RawKernel", lambda: k((1,), (32,), (z, np.int32(32))), lambda: kc((1,), (32,), (zc, np.int32(32)))),
             ("a + a", lambda: a + a, lambda: ac + ac)]
    for name, f, g in cases:
        print(name, "cuarray", round(tm(f, 2000, 5) * 1e3, 2), "cupy", round(tm(g, 2000, 5) * 1e3, 2), flush=True)
    for name, f, _ in cases[:3]:
        pr = cProfile.Profile(); pr.enable()
        for _ in range(20000):
            f()
        pr.disable(); sync()
        st = io.StringIO(); pstats.Stats(pr, stream=st).sort_stats("tottime").print_stats(14)
        print("--- profile", name); print("\n".join(st.getvalue().splitlines()[6:24]))
