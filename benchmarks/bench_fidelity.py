"""Issue "drop-in fidelity" §4 and §6: the names added for CuPy 14.2 and the Array API, timed
against CuPy where it has them. Window functions and polyval are single kernels (GB/s of
output); the per-call rows (µs) are Python loops of small calls, where host cost decides.
Inputs are made on the host with NumPy (same values for both libraries) and moved once.
"""
import numpy

from benchmarks.harness import Group, device_time, host_time

fidelity = Group("fidelity", "CuPy 14.2 names: windows, polynomials, flat, r_, comparisons")


def _n(ctx):
    return (1 << 20) if ctx.quick else (1 << 24)


def _gbps(nbytes, ms):
    return nbytes / (ms * 1e-3) / 1e9


@fidelity.row("kaiser(2^24, 8.6) float64", unit="GB/s")
def kaiser(xp, ctx):
    ms = device_time(lambda: xp.kaiser(_n(ctx), 8.6), xp, repeat=ctx.repeat)
    return _gbps(8 * _n(ctx), ms)


@fidelity.row("hanning(2^24) float64", unit="GB/s")
def hanning(xp, ctx):
    ms = device_time(lambda: xp.hanning(_n(ctx)), xp, repeat=ctx.repeat)
    return _gbps(8 * _n(ctx), ms)


@fidelity.row("polyval degree 8 on 2^24 float64", unit="GB/s")
def polyval(xp, ctx):
    rng = numpy.random.default_rng(0)
    p = xp.asarray(rng.standard_normal(9))
    x = xp.asarray(rng.standard_normal(_n(ctx)))
    ms = device_time(lambda: xp.polyval(p, x), xp, repeat=ctx.repeat)
    return _gbps(2 * 8 * _n(ctx), ms)


@fidelity.row("a.flat[::3] of (1000, 1000) float32", unit="GB/s")
def flat_slice(xp, ctx):
    a = xp.asarray(numpy.random.default_rng(1).random((1000, 1000), dtype=numpy.float32))
    n = len(range(0, a.size, 3))
    ms = device_time(lambda: a.flat[::3], xp, repeat=ctx.repeat)
    return _gbps(2 * 4 * n, ms)


@fidelity.row("r_[a, 0, b] of 1000 float32 (per call)", unit="µs")
def r_small(xp, ctx):
    a = xp.asarray(numpy.ones(1000, numpy.float32))
    return host_time(lambda: xp.r_[a, 0, a], ctx.sync(xp), n=ctx.calls)


@fidelity.row("uint8 array < -1, 1000 elements (per call)", unit="µs")
def compare_out_of_range(xp, ctx):
    a = xp.asarray(numpy.arange(1000, dtype=numpy.uint8))
    return host_time(lambda: a < -1, ctx.sync(xp), n=ctx.calls)
