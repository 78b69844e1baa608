"""Issue "CUDA layer": graph replay, NVTX ranges, cuBLAS by name, pinned transfers."""
import importlib

import numpy

from benchmarks.harness import Group, Target, device_time, host_time, wall_time

cuda_layer = Group("cuda", "CUDA layer: graphs, NVTX, cublas.gemm, pinned memory")

_OPS = 100


def _x(xp):
    """cupyx for CuPy, cuarray itself for cuarray (where cupyx's names live)."""
    return xp if xp.__name__ == "cuarray" else importlib.import_module("cupyx")


def _blas(xp):
    # CuPy's BLAS-level module is cupy.cublas (cupyx has none); cuarray's is cuarray.cublas
    return importlib.import_module(xp.__name__ + ".cublas")


def _chain(xp, x, y):
    # 100 small elementwise kernels, in place: nothing to allocate, capturable as they are
    for k in range(_OPS // 2):
        xp.multiply(y, 1.0001, out=y)
        xp.add(y, x, out=y)


def _setup(xp):
    s = xp.cuda.Stream(non_blocking=True)
    with s:
        x = xp.ones(1000, dtype=numpy.float32)
        y = xp.zeros(1000, dtype=numpy.float32)
        _chain(xp, x, y)
        s.synchronize()
    return s, x, y


def _graph(xp):
    s, x, y = _setup(xp)
    with s:
        s.begin_capture()
        _chain(xp, x, y)
        g = s.end_capture()
        g.upload(s)
    return s, g


@cuda_layer.row(f"graph replay, {_OPS} elementwise ops on 1000 float32 (per op)", unit="µs",
                target=Target.ratio("<=", 1.0))
def graph_replay(xp, ctx):
    s, g = _graph(xp)
    with s:
        return host_time(lambda: g.launch(s), s.synchronize, n=max(ctx.calls // 10, 20)) / _OPS


@cuda_layer.row(f"eager, {_OPS} elementwise ops on 1000 float32 (per op)", unit="µs")
def eager_chain(xp, ctx):
    s, x, y = _setup(xp)
    with s:
        return host_time(lambda: _chain(xp, x, y), s.synchronize,
                         n=max(ctx.calls // 10, 20)) / _OPS


@cuda_layer.row("graph replay speed-up over eager (per op)", unit="×", target=Target.at(">=", 5))
def graph_speedup(xp, ctx):
    return eager_chain(xp, ctx) / graph_replay(xp, ctx)


@cuda_layer.row("nvtx RangePush + RangePop, no profiler", unit="µs", target=Target.at("<=", 1))
def nvtx_pair(xp, ctx):
    nvtx = xp.cuda.nvtx

    def pair():
        nvtx.RangePush("bench")
        nvtx.RangePop()
    return host_time(pair, lambda: None, n=ctx.calls * 10)


@cuda_layer.row("cublas.gemm 8192² float32", unit="TFLOP/s", target=Target.ratio(">=", 0.97))
def cublas_gemm(xp, ctx):
    n = 2048 if ctx.quick else 8192
    rng = numpy.random.default_rng(0)
    a = xp.asarray(rng.standard_normal((n, n), dtype=numpy.float32))
    b = xp.asarray(rng.standard_normal((n, n), dtype=numpy.float32))
    c = xp.empty((n, n), dtype=numpy.float32, order="F")
    # C-ordered a and b with an F-ordered out: one sgemm on transposed operands in both
    # libraries (gemm(transa, transb, a, b, out=None, alpha=1.0, beta=0.0)), no copies
    gemm = _blas(xp).gemm
    ms = device_time(lambda: gemm("N", "N", a, b, out=c), xp, repeat=ctx.repeat)
    return 2 * n ** 3 / (ms * 1e-3) / 1e12


@cuda_layer.row("empty_pinned({size}) then host→device", unit="GB/s",
                target=Target.ratio(">=", 0.95))
def pinned_h2d(xp, ctx):
    h = _x(xp).empty_pinned(ctx.big, dtype=numpy.uint8)
    h.fill(1)  # fault the pages in now, not inside the timed copy
    d = xp.empty(ctx.big, dtype=numpy.uint8)
    return ctx.big / wall_time(lambda: d.set(h), ctx.sync(xp), repeat=ctx.repeat) / 1e9
