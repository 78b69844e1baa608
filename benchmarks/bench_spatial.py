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
