"""Issue 16, section 6: cuarray.scipy.spatial (KDTree, cdist) against cupyx.scipy.spatial.

Each row runs one body with `xp` = cuarray or cupy; `_spatial(xp)` reaches
`cuarray.scipy.spatial` or `cupyx.scipy.spatial`.
"""
import importlib

import numpy

from benchmarks.harness import Group, Target, device_time

spatial = Group("spatial", "SciPy spatial: KDTree, cdist (issue 16)")


def _spatial(xp, sub=""):
    root = "cuarray.scipy.spatial" if xp.__name__ == "cuarray" else "cupyx.scipy.spatial"
    return importlib.import_module(root + sub)


def _cloud(n, seed):
    return numpy.random.default_rng(seed).random((n, 3))


@spatial.row("KDTree query k=8, 2^20 points in 2^20 3-D points", unit="ms",
             target=Target.ratio("<=", 1.0))
def kdtree_query(xp, ctx):
    n = 1 << (16 if ctx.quick else 20)
    tree = _spatial(xp).KDTree(xp.asarray(_cloud(n, 0)))
    q = xp.asarray(_cloud(n, 1))
    return device_time(lambda: tree.query(q, k=8), xp, repeat=ctx.repeat)


@spatial.row("KDTree build, 2^20 3-D points", unit="ms")
def kdtree_build(xp, ctx):
    n = 1 << (16 if ctx.quick else 20)
    data = xp.asarray(_cloud(n, 0))
    KDTree = _spatial(xp).KDTree
    return device_time(lambda: KDTree(data), xp, repeat=min(ctx.repeat, 5))


@spatial.row("KDTree query_ball_point lengths r=0.01, 2^20 in 2^20 3-D points", unit="ms")
def kdtree_ball(xp, ctx):
    n = 1 << (16 if ctx.quick else 20)
    tree = _spatial(xp).KDTree(xp.asarray(_cloud(n, 0)))
    q = xp.asarray(_cloud(n, 1))
    return device_time(lambda: tree.query_ball_point(q, 0.01, return_length=True), xp,
                       repeat=ctx.repeat)


@spatial.row("cdist euclidean 16384×8192 by 64 float32, % of the GEMM-bound rate",
             unit="% of GEMM", target=Target.at(">=", 50))
def cdist_gemm_fraction(xp, ctx):
    """The GEMM a @ b.T of the same shapes against the whole cdist: 100% would be a cdist
    costing no more than its product (the norms and the output pass are the rest)."""
    rng = numpy.random.default_rng(4)
    m = 4096 if ctx.quick else 16384
    a = xp.asarray(rng.random((m, 64), numpy.float32))
    b = xp.asarray(rng.random((m // 2, 64), numpy.float32))
    distance = _spatial(xp, ".distance")
    t_cdist = device_time(lambda: distance.cdist(a, b, "euclidean"), xp, repeat=ctx.repeat)
    t_gemm = device_time(lambda: a @ b.T, xp, repeat=ctx.repeat)
    return 100.0 * t_gemm / t_cdist


def _plane(n, seed):
    return numpy.random.default_rng(seed).random((n, 2))


@spatial.row("Delaunay 2-D, 2^16 random points", unit="ms")
def delaunay_build(xp, ctx):
    pts = xp.asarray(_plane(1 << (12 if ctx.quick else 16), 5))
    Delaunay = _spatial(xp).Delaunay
    return device_time(lambda: Delaunay(pts), xp, warmup=1, repeat=min(ctx.repeat, 3))


@spatial.row("Delaunay find_simplex, 2^20 points in a 2^16-point triangulation", unit="ms")
def delaunay_find_simplex(xp, ctx):
    tri = _spatial(xp).Delaunay(xp.asarray(_plane(1 << (12 if ctx.quick else 16), 5)))
    q = xp.asarray(_plane(1 << (16 if ctx.quick else 20), 6))
    return device_time(lambda: tri.find_simplex(q), xp, repeat=ctx.repeat)


def _interp(xp):
    root = "cuarray.scipy.interpolate" if xp.__name__ == "cuarray" else "cupyx.scipy.interpolate"
    return importlib.import_module(root)


@spatial.row("LinearNDInterpolator 2^20 points, 2^16 data points", unit="ms")
def linear_nd(xp, ctx):
    pts = _plane(1 << (12 if ctx.quick else 16), 7)
    ip = _interp(xp).LinearNDInterpolator(xp.asarray(pts), xp.asarray(numpy.sin(pts[:, 0])))
    q = xp.asarray(_plane(1 << (16 if ctx.quick else 20), 8))
    return device_time(lambda: ip(q), xp, repeat=ctx.repeat)


@spatial.row("RBFInterpolator thin_plate_spline, 4096 data points, 2^16 evaluations",
             unit="ms")
def rbf_tps(xp, ctx):
    y = _plane(1024 if ctx.quick else 4096, 9)
    rbf = _interp(xp).RBFInterpolator(xp.asarray(y), xp.asarray(numpy.cos(3 * y[:, 1])))
    x = xp.asarray(_plane(1 << (12 if ctx.quick else 16), 10))
    return device_time(lambda: rbf(x), xp, repeat=min(ctx.repeat, 5))
