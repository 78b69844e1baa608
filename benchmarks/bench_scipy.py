"""Issue 16: the rest of cuarray.scipy (dct, special functions, stats) against cupyx.scipy.

Each row runs one body with `xp` = cuarray or cupy; `_sp(xp, name)` reaches the matching
SciPy namespace (`cuarray.scipy.<name>` or `cupyx.scipy.<name>`).
"""
import importlib

import numpy

from benchmarks.harness import Group, Target, device_time

scipy16 = Group("scipy16", "SciPy: dct, special functions, stats (issue 16)")


def _sp(xp, name):
    root = "cuarray.scipy" if xp.__name__ == "cuarray" else "cupyx.scipy"
    return importlib.import_module(f"{root}.{name}")


def _gbps(nbytes, ms):
    return nbytes / (ms * 1e-3) / 1e9


@scipy16.row("dctn type 2 4096×4096 float32 (both axes)", unit="ms",
             target=Target.ratio("<=", 1.0))
def dct2_both(xp, ctx):
    x = xp.asarray(numpy.random.default_rng(0).standard_normal((4096, 4096), numpy.float32))
    fft = _sp(xp, "fft")
    return device_time(lambda: fft.dctn(x, type=2), xp, repeat=ctx.repeat)


@scipy16.row("dct type 2 along the last axis 4096×4096 float32", unit="ms",
             target=Target.ratio("<=", 1.0))
def dct2_last(xp, ctx):
    x = xp.asarray(numpy.random.default_rng(0).standard_normal((4096, 4096), numpy.float32))
    fft = _sp(xp, "fft")
    return device_time(lambda: fft.dct(x, type=2), xp, repeat=ctx.repeat)


def _n(ctx):
    return 1 << (22 if ctx.quick else 26)


@scipy16.row("gammainc float64 2^26 (a, x in (0, 10))", unit="GB/s", copy_pct=True,
             target=Target.ratio(">=", 1.0))
def gammainc_f64(xp, ctx):
    rng = numpy.random.default_rng(1)
    n = _n(ctx)
    a = xp.asarray(rng.uniform(0.1, 10, n))
    x = xp.asarray(rng.uniform(0, 10, n))
    special = _sp(xp, "special")
    return _gbps(3 * n * 8, device_time(lambda: special.gammainc(a, x), xp, repeat=ctx.repeat))


@scipy16.row("j1 float64 2^26", unit="GB/s", copy_pct=True, target=Target.ratio(">=", 1.0))
def j1_f64(xp, ctx):
    n = _n(ctx)
    x = xp.asarray(numpy.random.default_rng(2).uniform(-50, 50, n))
    special = _sp(xp, "special")
    return _gbps(2 * n * 8, device_time(lambda: special.j1(x), xp, repeat=ctx.repeat))


@scipy16.row("zscore axis 0 of 8192×4096 float32", unit="ms")
def zscore_f32(xp, ctx):
    x = xp.asarray(numpy.random.default_rng(3).standard_normal((8192, 4096), numpy.float32))
    stats = _sp(xp, "stats")
    return device_time(lambda: stats.zscore(x, axis=0), xp, repeat=ctx.repeat)


@scipy16.row("cdist euclidean 16384×8192 by 64 float32", unit="ms",
             target=Target.ratio("<=", 1.0))
def cdist_euclidean(xp, ctx):
    rng = numpy.random.default_rng(4)
    m = 4096 if ctx.quick else 16384
    a = xp.asarray(rng.random((m, 64), numpy.float32))
    b = xp.asarray(rng.random((m // 2, 64), numpy.float32))
    distance = _sp(xp, "spatial.distance")
    return device_time(lambda: distance.cdist(a, b, "euclidean"), xp, repeat=ctx.repeat)
