"""Issue 5, section 1: matmul, einsum and the cuSOLVER decompositions.

The `svd 1024² float64 [ALGO]` rows time cuarray's single-matrix SVD routines one by one
(CUARRAY_SVD_ALGO; CuPy's figure is the same in each) so the default can be chosen by
measurement.
"""
import contextlib
import os

import numpy

from benchmarks.harness import Group, Target, device_time, device_time_back_to_back, host_time

linalg = Group("linalg", "Issue 5: matmul, einsum, solve, svd, eigh, qr, cholesky")

_rng = numpy.random.default_rng(0)


def _host(shape, dtype):
    x = _rng.standard_normal(shape)
    if numpy.dtype(dtype).kind == "c":
        x = x + 1j * _rng.standard_normal(shape)
    return x.astype(dtype)


def _dev(xp, shape, dtype):
    return xp.asarray(_host(shape, dtype))


def _tflops(flops, ms):
    return flops / (ms * 1e-3) / 1e12


def _matmul_row(n, dtype):
    def row(xp, ctx):
        a, b = _dev(xp, (n, n), dtype), _dev(xp, (n, n), dtype)
        flops = (8 if numpy.dtype(dtype).kind == "c" else 2) * n ** 3
        return _tflops(flops, device_time(lambda: a @ b, xp, repeat=ctx.repeat))
    return row


for _dt in ("float32", "float64", "complex64"):
    linalg.row(f"matmul 8192² {_dt}", unit="TFLOP/s", target=Target.ratio(">=", 0.97))(
        _matmul_row(8192, _dt))


@linalg.row("matmul 10000 × (16×16 @ 16×16) float32", unit="µs", target=Target.ratio("<=", 1.0))
def matmul_batched_small(xp, ctx):
    a, b = _dev(xp, (10000, 16, 16), "float32"), _dev(xp, (10000, 16, 16), "float32")
    return host_time(lambda: xp.matmul(a, b), ctx.sync(xp), n=max(ctx.calls // 5, 20))


@linalg.row("einsum ij,jk->ik 4096² float32", unit="TFLOP/s", target=Target.ratio(">=", 0.95))
def einsum_2d(xp, ctx):
    a, b = _dev(xp, (4096, 4096), "float32"), _dev(xp, (4096, 4096), "float32")
    ms = device_time(lambda: xp.einsum("ij,jk->ik", a, b), xp, repeat=ctx.repeat)
    return _tflops(2 * 4096 ** 3, ms)


@linalg.row("einsum bij,bjk->bik 64×512² float32", unit="TFLOP/s",
            target=Target.ratio(">=", 0.95))
def einsum_batched(xp, ctx):
    a, b = _dev(xp, (64, 512, 512), "float32"), _dev(xp, (64, 512, 512), "float32")
    ms = device_time(lambda: xp.einsum("bij,bjk->bik", a, b), xp, repeat=ctx.repeat)
    return _tflops(2 * 64 * 512 ** 3, ms)


@linalg.row("einsum ij,jk->ik 64² float32 (per call)", unit="µs")
def einsum_small(xp, ctx):
    a, b = _dev(xp, (64, 64), "float32"), _dev(xp, (64, 64), "float32")
    return host_time(lambda: xp.einsum("ij,jk->ik", a, b), ctx.sync(xp), n=ctx.calls)


@linalg.row("solve 4096² float64, 1 rhs", unit="ms", target=Target.ratio("<=", 1.0))
def solve_4096(xp, ctx):
    a = _dev(xp, (4096, 4096), "float64")
    b = _dev(xp, (4096,), "float64")
    return device_time(lambda: xp.linalg.solve(a, b), xp, warmup=1, repeat=ctx.repeat)


@contextlib.contextmanager
def _svd_algo(xp, algo):
    if algo is None or xp.__name__ != "cuarray":
        yield
        return
    old = os.environ.get("CUARRAY_SVD_ALGO")
    os.environ["CUARRAY_SVD_ALGO"] = algo
    try:
        yield
    finally:
        if old is None:
            del os.environ["CUARRAY_SVD_ALGO"]
        else:
            os.environ["CUARRAY_SVD_ALGO"] = old


def _svd_row(algo):
    def row(xp, ctx):
        a = _dev(xp, (1024, 1024), "float64")
        with _svd_algo(xp, algo):
            return device_time(lambda: xp.linalg.svd(a), xp, warmup=1,
                               repeat=max(ctx.repeat // 4, 3))
    return row


linalg.row("svd 1024² float64", unit="ms", target=Target.ratio("<=", 0.5))(_svd_row(None))
for _algo in ("gesvdj", "gesvd"):  # the choice svd_algorithm makes, measured each time
    linalg.row(f"svd 1024² float64 [{_algo}]", unit="ms")(_svd_row(_algo))


@linalg.row("eigh 4096² float64", unit="ms", target=Target.ratio("<=", 1.0))
def eigh_4096(xp, ctx):
    a = _dev(xp, (4096, 4096), "float64")
    a = a + a.T
    return device_time(lambda: xp.linalg.eigh(a), xp, warmup=1, repeat=max(ctx.repeat // 4, 3))


@linalg.row("qr 4096² float64", unit="ms", target=Target.ratio("<=", 1.0))
def qr_4096(xp, ctx):
    a = _dev(xp, (4096, 4096), "float64")
    return device_time(lambda: xp.linalg.qr(a), xp, warmup=1, repeat=ctx.repeat)


@linalg.row("cholesky 4096² float64", unit="ms", target=Target.ratio("<=", 1.0))
def cholesky_4096(xp, ctx):
    a = _dev(xp, (4096, 4096), "float64")
    spd = a @ a.T + 4096 * xp.eye(4096, dtype=numpy.float64)
    return device_time(lambda: xp.linalg.cholesky(spd), xp, warmup=1, repeat=ctx.repeat)


@linalg.row("inv 1000 × 8² float64 (batched)", unit="µs")
def inv_batched_small(xp, ctx):
    a = _dev(xp, (1000, 8, 8), "float64") + 8 * xp.eye(8, dtype=numpy.float64)
    return host_time(lambda: xp.linalg.inv(a), ctx.sync(xp), n=max(ctx.calls // 10, 20))


def _norm_row(axis, ord=None, dtype="float32", timer=device_time):
    def row(xp, ctx):
        a = _dev(xp, (4096, 4096), dtype)
        ms = timer(lambda: xp.linalg.norm(a, ord, axis=axis), xp, repeat=ctx.repeat)
        return a.nbytes / (ms * 1e-3) / 1e9
    return row


def _back_to_back(fn, xp, repeat):
    return device_time_back_to_back(fn, xp, repeat=max(repeat // 4, 3))


# One read of the input: GB/s of that read, against the device-to-device copy's.
linalg.row("linalg.norm(a, axis=1) 4096² float32", unit="GB/s", copy_pct=True,
           target=Target.of_copy(">=", 85))(_norm_row(1))
linalg.row("linalg.norm(a, axis=0) 4096² float32", unit="GB/s", copy_pct=True,
           target=Target.of_copy(">=", 85))(_norm_row(0))
# The same reads 20 calls at a time: a 64 MB read takes 23 µs at the copy rate, and the
# single-call rows above also count each call's launch latency and Python (9-15 µs).
linalg.row("linalg.norm(a, axis=1) 4096² float32, back to back", unit="GB/s", copy_pct=True,
           target=Target.of_copy(">=", 85))(_norm_row(1, timer=_back_to_back))
linalg.row("linalg.norm(a, axis=0) 4096² float32, back to back", unit="GB/s", copy_pct=True,
           target=Target.of_copy(">=", 85))(_norm_row(0, timer=_back_to_back))
linalg.row("linalg.norm(a, 1, axis=1) 4096² complex64", unit="GB/s", copy_pct=True)(
    _norm_row(1, 1, "complex64"))
linalg.row("linalg.norm(a, inf, axis=0) 4096² float32", unit="GB/s", copy_pct=True)(
    _norm_row(0, numpy.inf))


def _norm_unroll_row(axis, unroll):
    """linalg.norm along `axis` with cuarray's per-thread unroll forced (CuPy's figure is
    the same in each), so the default can be checked by measurement."""
    def row(xp, ctx):
        if xp.__name__ != "cuarray":
            return _norm_row(axis)(xp, ctx)
        from cuarray.linalg import _norm_reduce
        saved, _norm_reduce.UNROLL = _norm_reduce.UNROLL, unroll
        try:
            return _norm_row(axis)(xp, ctx)
        finally:
            _norm_reduce.UNROLL = saved
    return row


for _axis in (1, 0):
    for _u in (4, 8):
        linalg.row(f"linalg.norm(a, axis={_axis}) 4096² float32 [unroll {_u}]", unit="GB/s",
                   copy_pct=True)(_norm_unroll_row(_axis, _u))
