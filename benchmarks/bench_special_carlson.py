"""cuarray.scipy.special's Carlson elliptic integrals and betaincc against cupyx.scipy.special.

Each row runs one body with `xp` = cuarray or cupy; `_special(xp)` reaches the matching
namespace (`cuarray.scipy.special` or `cupyx.scipy.special`).
"""
import importlib

import numpy

from benchmarks.bench_scipy import scipy16 as carlson   # rows of the scipy16 group
from benchmarks.harness import Target, device_time


def _special(xp):
    return importlib.import_module("cuarray.scipy.special" if xp.__name__ == "cuarray"
                                   else "cupyx.scipy.special")


def _n(ctx):
    return 1 << (20 if ctx.quick else 24)


def _gbps(nbytes, ms):
    return nbytes / (ms * 1e-3) / 1e9


@carlson.row("elliprf float64 2^24 (x, y, z in (0, 10))", unit="GB/s", copy_pct=True,
             target=Target.ratio(">=", 1.0))
def elliprf_f64(xp, ctx):
    n = _n(ctx)
    x, y, z = (xp.asarray(v) for v in numpy.random.default_rng(1).uniform(0, 10, (3, n)))
    special = _special(xp)
    return _gbps(4 * n * 8, device_time(lambda: special.elliprf(x, y, z), xp,
                                        repeat=ctx.repeat))


@carlson.row("elliprj float64 2^24 (x, y, z, p in (0, 10))", unit="GB/s", copy_pct=True,
             target=Target.ratio(">=", 1.0))
def elliprj_f64(xp, ctx):
    n = _n(ctx)
    x, y, z, p = (xp.asarray(v) for v in numpy.random.default_rng(2).uniform(0, 10, (4, n)))
    special = _special(xp)
    return _gbps(5 * n * 8, device_time(lambda: special.elliprj(x, y, z, p), xp,
                                        repeat=ctx.repeat))


@carlson.row("betaincc float64 2^24 (a, b in (0.1, 10), x in (0, 1))", unit="GB/s",
             copy_pct=True, target=Target.ratio(">=", 1.0))
def betaincc_f64(xp, ctx):
    rng = numpy.random.default_rng(3)
    n = _n(ctx)
    a, b = (xp.asarray(v) for v in rng.uniform(0.1, 10, (2, n)))
    x = xp.asarray(rng.uniform(0, 1, n))
    special = _special(xp)
    return _gbps(4 * n * 8, device_time(lambda: special.betaincc(a, b, x), xp,
                                        repeat=ctx.repeat))
