"""Issue "Foundation": allocation, views, a raw kernel launch, and host/device transfers."""
import numpy

from benchmarks.harness import Group, Target, host_time, wall_time

foundation = Group("foundation", "Foundation: allocation, views, kernel launch, transfers")

_TOUCH = r"""
extern "C" __global__ void touch(float* a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] += 1.0f;
}
"""


@foundation.row("zeros(1000) float32", unit="µs", target=Target.ratio("<=", 1.2))
def zeros_small(xp, ctx):
    return host_time(lambda: xp.zeros(1000, dtype=numpy.float32), ctx.sync(xp), n=ctx.calls)


@foundation.row("a[10:20]", unit="µs", target=Target.ratio("<=", 2))
def basic_slice(xp, ctx):
    a = xp.zeros(1000, dtype=numpy.float32)
    return host_time(lambda: a[10:20], ctx.sync(xp), n=ctx.calls)


@foundation.row("a[5]", unit="µs", target=Target.ratio("<=", 0.8))
def int_index(xp, ctx):
    a = xp.zeros(1000, dtype=numpy.float32)
    return host_time(lambda: a[5], ctx.sync(xp), n=ctx.calls)


@foundation.row("float(a.sum()) (1000 float32)", unit="µs", target=Target.ratio("<=", 0.8))
def scalar_result(xp, ctx):
    a = xp.ones(1000, dtype=numpy.float32)
    return host_time(lambda: float(a.sum()), ctx.sync(xp), n=ctx.calls)


@foundation.row("asarray(numpy 1000 float32)", unit="µs", target=Target.ratio("<=", 0.8))
def small_upload(xp, ctx):
    h = numpy.ones(1000, dtype=numpy.float32)
    return host_time(lambda: xp.asarray(h), ctx.sync(xp), n=ctx.calls)


@foundation.row("a.reshape(10, 100)", unit="µs")
def reshape_view(xp, ctx):
    a = xp.zeros(1000, dtype=numpy.float32)
    return host_time(lambda: a.reshape(10, 100), ctx.sync(xp), n=ctx.calls)


@foundation.row("RawKernel launch, 2 args", unit="µs", target=Target.at("<=", 5))
def raw_kernel_launch(xp, ctx):
    kernel = xp.RawKernel(_TOUCH, "touch")
    a = xp.zeros(32, dtype=numpy.float32)
    args = (a, numpy.int32(32))
    return host_time(lambda: kernel((1,), (32,), args), ctx.sync(xp), n=ctx.calls)


def _host_buffer(xp, nbytes, pinned):
    if pinned:  # as CuPy users do: a numpy view of pooled page-locked memory
        h = numpy.frombuffer(xp.cuda.alloc_pinned_memory(nbytes), numpy.uint8, nbytes)
    else:
        h = numpy.empty(nbytes, numpy.uint8)
    h.fill(1)  # fault the pages in now, not inside the timed copy
    return h


def _h2d(xp, ctx, pinned):
    h = _host_buffer(xp, ctx.big, pinned)
    d = xp.empty(ctx.big, dtype=numpy.uint8)
    return ctx.big / wall_time(lambda: d.set(h), ctx.sync(xp), repeat=ctx.repeat) / 1e9


def _d2h(xp, ctx, pinned):
    h = _host_buffer(xp, ctx.big, pinned)
    d = xp.zeros(ctx.big, dtype=numpy.uint8)
    return ctx.big / wall_time(lambda: d.get(out=h), ctx.sync(xp), repeat=ctx.repeat) / 1e9


@foundation.row("host→device {size}, pageable", unit="GB/s", target=Target.ratio(">=", 0.9))
def h2d_pageable(xp, ctx):
    return _h2d(xp, ctx, pinned=False)


@foundation.row("host→device {size}, pinned", unit="GB/s", target=Target.ratio(">=", 0.9))
def h2d_pinned(xp, ctx):
    return _h2d(xp, ctx, pinned=True)


@foundation.row("device→host {size}, pageable", unit="GB/s", target=Target.ratio(">=", 0.9))
def d2h_pageable(xp, ctx):
    return _d2h(xp, ctx, pinned=False)


@foundation.row("device→host {size}, pageable [driver's staging]", unit="GB/s")
def d2h_pageable_driver(xp, ctx):
    # cuarray with its staging pipeline off (CuPy's figure is the same as the row above)
    if xp.__name__ != "cuarray":
        return _d2h(xp, ctx, pinned=False)
    from cuarray._runtime import pinned
    saved, pinned.D2H_PIPELINE = pinned.D2H_PIPELINE, False
    try:
        return _d2h(xp, ctx, pinned=False)
    finally:
        pinned.D2H_PIPELINE = saved


@foundation.row("asnumpy(x) {size}, new pageable array", unit="GB/s", target=Target.ratio(">=", 1.0))
def d2h_asnumpy(xp, ctx):
    # the destination is a fresh array each call: its pages fault in during the copy
    d = xp.zeros(ctx.big, dtype=numpy.uint8)
    return ctx.big / wall_time(lambda: xp.asnumpy(d), ctx.sync(xp), repeat=ctx.repeat) / 1e9


@foundation.row("device→host {size}, pinned", unit="GB/s", target=Target.ratio(">=", 0.9))
def d2h_pinned(xp, ctx):
    return _d2h(xp, ctx, pinned=True)


@foundation.row("device→device copy {size} (memcpy, read + write)", unit="GB/s", copy_pct=True)
def d2d_copy(xp, ctx):
    return ctx.copy_gbps(xp)
