"""Issue "Writing kernels from Python": fused functions and jit kernels."""
import os
import subprocess
import sys
import tempfile
import textwrap
import types

import numpy

from benchmarks.harness import Group, Target, device_time, host_time

kernels = Group("kernels", "Kernels from Python: fuse and jit")
N = 1 << 26


def _n(ctx):
    return (1 << 22) if ctx.quick else N


def _gbps(nbytes, ms):
    return nbytes / ms / 1e6


def _jit_module(xp):
    if xp.__name__ == "cuarray":
        import cuarray.jit
        return cuarray.jit
    import cupyx.jit
    return cupyx.jit


# ---- fuse ---------------------------------------------------------------------------------
def _smooth_closure(xp):
    # What a new user writes: `xp` comes from the enclosing scope.
    return lambda v: xp.tanh(xp.sin(v) + 0.1 * v)


def _smooth_global(v):
    # The same without a closure (CuPy's fuse fails to compile the closure): `_xp` is a
    # module global bound per library in _with_xp.
    return _xp.tanh(_xp.sin(v) + 0.1 * v)  # noqa: F821


def _sq_sum(x, y):
    return _xp.sum((x - y) ** 2)  # noqa: F821


def _sq_diff(x, y):
    return (x - y) * (x - y)


def _with_xp(fn, xp):
    return types.FunctionType(fn.__code__, dict(fn.__globals__, _xp=xp), fn.__name__)


@kernels.row("fused tanh(sin(x) + 0.1*x) float32 2^26", unit="GB/s", copy_pct=True,
             target=Target.at(">=", 3500))
def fused_smooth(xp, ctx):
    f = xp.fuse(_smooth_closure(xp) if xp.__name__ == "cuarray" else _with_xp(_smooth_global, xp))
    x = xp.ones(_n(ctx), numpy.float32)
    return _gbps(2 * x.nbytes, device_time(lambda: f(x), xp, repeat=ctx.repeat))


@kernels.row("fused sum((x - y)**2) float32 2^26", unit="GB/s", copy_pct=True,
             target=Target.at(">=", 3000))
def fused_sq_sum(xp, ctx):
    f = xp.fuse(_with_xp(_sq_sum, xp))
    x, y = xp.ones(_n(ctx), numpy.float32), xp.zeros(_n(ctx), numpy.float32)
    return _gbps(2 * x.nbytes, device_time(lambda: f(x, y), xp, repeat=ctx.repeat))


@kernels.row("per call: fused (x - y)*(x - y) (1000 float32)", unit="µs",
             target=Target.ratio("<=", 1.0))
def fused_per_call(xp, ctx):
    f = xp.fuse(_sq_diff)
    a, b = xp.arange(1000, dtype=numpy.float32), xp.ones(1000, numpy.float32)
    return host_time(lambda: f(a, b), ctx.sync(xp), n=ctx.calls)


# ---- jit ------------------------------------------------------------------------------------
def _saxpy(a, x, y, out, size):
    tid = jit.blockIdx.x * jit.blockDim.x + jit.threadIdx.x  # noqa: F821
    ntid = jit.gridDim.x * jit.blockDim.x  # noqa: F821
    for i in range(tid, size, ntid):
        out[i] = a * x[i] + y[i]


def _block_sum(x, out, size):
    smem = jit.shared_memory(numpy.float32, 256)  # noqa: F821
    tid = jit.threadIdx.x  # noqa: F821
    start = jit.blockIdx.x * jit.blockDim.x + tid  # noqa: F821
    stride = jit.gridDim.x * jit.blockDim.x  # noqa: F821
    acc = numpy.float32(0)
    for i in range(start, size, stride):
        acc += x[i]
    smem[tid] = acc
    jit.syncthreads()  # noqa: F821
    # An unsigned step, as `tid` is: CuPy's jit (mode='cuda') types a Python int as int32
    # and refuses the int32 -> uint32 cast that `tid + s` and `s //= 2` would need.
    s = numpy.uint32(128)
    while s > 0:
        if tid < s:
            smem[tid] += smem[tid + s]
        jit.syncthreads()  # noqa: F821
        s = s // numpy.uint32(2)
    if tid == 0:
        jit.atomic_add(out, 0, smem[0])  # noqa: F821


def _jit_kernel(fn, xp):
    jit = _jit_module(xp)
    return jit.rawkernel()(types.FunctionType(fn.__code__, dict(fn.__globals__, jit=jit),
                                              fn.__name__))


@kernels.row("jit SAXPY float32 2^26", unit="GB/s", copy_pct=True,
             target=Target.ratio(">=", 1.0))
def jit_saxpy(xp, ctx):
    k = _jit_kernel(_saxpy, xp)
    n = _n(ctx)
    x, y, out = xp.ones(n, numpy.float32), xp.ones(n, numpy.float32), xp.empty(n, numpy.float32)
    a = numpy.float32(2)
    grid = ((n + 255) // 256,)
    return _gbps(3 * x.nbytes, device_time(lambda: k(grid, (256,), (a, x, y, out, n)), xp,
                                           repeat=ctx.repeat))


@kernels.row("jit block-reduction sum float32 2^26", unit="GB/s", copy_pct=True,
             target=Target.ratio(">=", 1.0))
def jit_block_sum(xp, ctx):
    k = _jit_kernel(_block_sum, xp)
    n = _n(ctx)
    x, out = xp.ones(n, numpy.float32), xp.zeros(1, numpy.float32)
    # enough blocks to fill any current GPU, each thread summing a strided run
    return _gbps(x.nbytes, device_time(lambda: k((2048,), (256,), (x, out, n)), xp,
                                       repeat=ctx.repeat))


_FIRST = textwrap.dedent("""
    import time
    import numpy
    import {mod} as xp
    import {jit} as jit

    @jit.rawkernel()
    def scale_add(x, y, size):
        i = jit.blockIdx.x * jit.blockDim.x + jit.threadIdx.x
        if i < size:
            y[i] = x[i] * 3 + y[i]

    x = xp.ones(1000, numpy.float32)
    y = xp.ones(1000, numpy.float32)
    xp.cuda.Device().synchronize()
    t = time.perf_counter()
    scale_add((4,), (256,), (x, y, 1000))
    xp.cuda.Device().synchronize()
    print(time.perf_counter() - t)
""")


@kernels.row("first call of a new jit kernel, fresh process, warm disk cache", unit="s",
             target=Target.ratio("<=", 1.0))
def jit_first_call(xp, ctx):
    cu = xp.__name__ == "cuarray"
    code = _FIRST.format(mod="cuarray" if cu else "cupy", jit="cuarray.jit" if cu else "cupyx.jit")
    times = []
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "first_jit.py")  # jit reads the kernel's source from a file
        with open(path, "w") as f:
            f.write(code)
        for k in range(3):  # the first run fills the on-disk cache; later runs are timed
            out = subprocess.run([sys.executable, path], capture_output=True, text=True,
                                 env=dict(os.environ), check=True).stdout
            if k:
                times.append(float(out.split()[-1]))
    return min(times)
