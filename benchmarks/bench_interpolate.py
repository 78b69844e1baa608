"""Issue 16: `scipy.interpolate` on the GPU against cupyx.scipy.interpolate.

Each evaluation row builds the interpolant once (outside the timing) and times one
evaluation on device-resident points; the UnivariateSpline row times the fit itself.
`_interp(xp)` reaches `cuarray.scipy.interpolate` or `cupyx.scipy.interpolate`. Points lie
inside the data range, so the default `bounds_error` checks run and pass, as in ordinary use.
"""
import importlib

import numpy

from benchmarks.harness import Group, Target, device_time

interpolate = Group("interpolate", "scipy.interpolate: interp1d, CubicSpline, RegularGridInterpolator, UnivariateSpline")


def _interp(xp):
    root = "cuarray.scipy" if xp.__name__ == "cuarray" else "cupyx.scipy"
    return importlib.import_module(f"{root}.interpolate")


def _line(xp, ctx, seed):
    """2^16 knots (2^12 quick) on [0, 1] with random values, and 2^24 points (2^20 quick)."""
    rng = numpy.random.default_rng(seed)
    nk, npts = (1 << 12, 1 << 20) if ctx.quick else (1 << 16, 1 << 24)
    x = numpy.sort(rng.random(nk))
    x[0], x[-1] = 0.0, 1.0
    return xp.asarray(x), xp.asarray(rng.standard_normal(nk)), xp.asarray(rng.random(npts))


@interpolate.row("interp1d linear, 2^24 points on 2^16 knots, float64", unit="ms",
                 target=Target.ratio("<=", 1.0))
def interp1d_linear(xp, ctx):
    x, y, pts = _line(xp, ctx, 0)
    f = _interp(xp).interp1d(x, y)
    return device_time(lambda: f(pts), xp, repeat=ctx.repeat)


@interpolate.row("CubicSpline eval, 2^24 points on 2^16 knots, float64", unit="ms",
                 target=Target.ratio("<=", 1.0))
def cubic_spline(xp, ctx):
    x, y, pts = _line(xp, ctx, 1)
    f = _interp(xp).CubicSpline(x, y)
    return device_time(lambda: f(pts), xp, repeat=ctx.repeat)


@interpolate.row("RegularGridInterpolator linear 3-D 128³, 2^22 points, float64", unit="ms",
                 target=Target.ratio("<=", 1.0))
def rgi_linear(xp, ctx):
    rng = numpy.random.default_rng(2)
    n, npts = (32, 1 << 18) if ctx.quick else (128, 1 << 22)
    grid = tuple(xp.asarray(numpy.linspace(0.0, 1.0, n)) for _ in range(3))
    values = xp.asarray(rng.standard_normal((n, n, n)))
    pts = xp.asarray(rng.random((npts, 3)))
    f = _interp(xp).RegularGridInterpolator(grid, values)
    return device_time(lambda: f(pts), xp, repeat=ctx.repeat)


@interpolate.row("UnivariateSpline fit (FITPACK's smoothing search), 2000 noisy points, k=3", unit="ms",
                 target=Target.ratio("<=", 1.0))
def univariate_spline_fit(xp, ctx):
    rng = numpy.random.default_rng(3)
    m = 500 if ctx.quick else 2000
    x = numpy.sort(rng.random(m)) * 4
    y = numpy.sin(x) + 0.1 * rng.standard_normal(m)
    x, y = xp.asarray(x), xp.asarray(y)
    cls = _interp(xp).UnivariateSpline
    return device_time(lambda: cls(x, y, s=m * 0.01), xp, repeat=ctx.repeat)
