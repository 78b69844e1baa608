"""Pairwise distances (cuarray versions of `scipy.spatial.distance.cdist`, `pdist`, the
per-pair metric functions CuPy exports, and `scipy.spatial.distance_matrix`).

Every metric is one elementwise kernel over the (mA, mB) output: thread (r, c) walks the
n coordinates of XA[r] and XB[c] in double precision. Euclidean and squared Euclidean
distances of n >= 16 coordinates go through a product instead,
|a - b|^2 = |a|^2 + |b|^2 - 2 a.b (clamped at 0), in the inputs' precision for the
product (float32 inputs: about 1e-6 relative where SciPy's loop is exact) and double for
the rest: float64 by cuBLAS's GEMM and one pass, float32 in one kernel that forms tiles
of the product and writes their distances (_euclidean_tiles.py). Results are float64, as
SciPy's.
"""
import math

import numpy

import cuarray as cp
from cuarray._core.elementwise import Op, Param
from cuarray._core._kernel_helpers import Cache
from cuarray._core.host_policy import not_device_error
from cuarray.scipy.spatial import _euclidean_tiles as _tiles

_i64 = numpy.dtype(numpy.int64)
_f64 = numpy.dtype(numpy.float64)
_ops = Cache()   # key -> Op

# metric -> (aliases, C++ over coordinates u, v (doubles) in two passes, result)
# pass 1 (optional) fills s1, s2; pass 2 accumulates acc, acc2, acc3
_REL = "[](double x, double y) { return (x > 0 && y > 0) ? x * log(x / y) : " \
       "((x == 0 && y >= 0) ? 0.0 : cuarray_f64(0x7ff0000000000000ull)); }"
METRICS = {
    "braycurtis": ({"braycurtis"}, None, "acc += fabs(u - v); acc2 += fabs(u + v);",
                   "acc / acc2"),
    "canberra": ({"canberra"}, None,
                 "const double den = fabs(u) + fabs(v); if (den != 0) acc += fabs(u - v) / den;",
                 "acc"),
    "chebyshev": ({"chebychev", "chebyshev", "cheby", "cheb", "ch"}, None,
                  "acc = fmax(acc, fabs(u - v));", "acc"),
    "cityblock": ({"cityblock", "cblock", "cb", "c"}, None, "acc += fabs(u - v);", "acc"),
    "correlation": ({"correlation", "co"}, "s1 += u; s2 += v;",
                    "const double a = u - s1 / n, b = v - s2 / n; "
                    "acc += a * b; acc2 += a * a; acc3 += b * b;",
                    "fmin(fmax(1.0 - acc / sqrt(acc2 * acc3), 0.0), 2.0)"),
    "cosine": ({"cosine", "cos"}, None, "acc += u * v; acc2 += u * u; acc3 += v * v;",
               "fmin(fmax(1.0 - acc / sqrt(acc2 * acc3), 0.0), 2.0)"),
    "euclidean": ({"euclidean", "euclid", "eu", "e"}, None,
                  "const double t = u - v; acc += t * t;", "sqrt(acc)"),
    "hamming": ({"matching", "hamming", "hamm", "ha", "h"}, None, "acc += (u != v);",
                "acc / n"),
    "hellinger": ({"hellinger"}, None, "const double t = sqrt(u) - sqrt(v); acc += t * t;",
                  "sqrt(acc) * 0.70710678118654752440"),
    "jensenshannon": ({"jensenshannon", "js"}, "s1 += u; s2 += v;",
                      "auto rel = " + _REL + "; const double p = u / s1, q = v / s2, "
                      "m = 0.5 * (p + q); acc += rel(p, m) + rel(q, m);",
                      "sqrt(acc / 2)"),
    "kl_divergence": ({"kl_divergence", "kl_div", "kld"}, None,
                      "auto rel = " + _REL + "; acc += rel(u, v);", "acc"),
    "minkowski": ({"minkowski", "mi", "m", "pnorm"}, None, "acc += pow(fabs(u - v), p);",
                  "pow(acc, 1.0 / p)"),
    "russellrao": ({"russellrao"}, None, "acc += (u != 0 && v != 0);", "(n - acc) / n"),
    "sqeuclidean": ({"sqeuclidean", "sqe", "sqeuclid"}, None,
                    "const double t = u - v; acc += t * t;", "acc"),
}
_ALIAS = {a: name for name, (aka, *_) in METRICS.items() for a in aka}


def _op(metric, dt):
    def build():
        _, first, acc, final = METRICS[metric]
        body = ("const long long r = i / nb, c = i - r * nb; "
                "double s1 = 0, s2 = 0, acc = 0, acc2 = 0, acc3 = 0; ")
        if first:
            body += ("for (long long k = 0; k < n; ++k) { const double u = XA[r * n + k], "
                     f"v = XB[c * n + k]; {first} }} ")
        body += ("for (long long k = 0; k < n; ++k) { const double u = XA[r * n + k], "
                 f"v = XB[c * n + k]; {acc} }} y = {final};")
        return Op(
            f"cuarray_cdist_{metric}_{dt.char}",
            [Param("XA", "raw", dt), Param("XB", "raw", dt), Param("n", "scalar", _i64),
             Param("nb", "scalar", _i64), Param("p", "scalar", _f64), Param("y", "out", _f64)],
            body)
    return _ops((metric, dt.char), build)


def _gemm_op(root, gdt):
    return _ops(("gemm", root, gdt.char), lambda: Op(
        f"cuarray_cdist_gemm_{int(root)}_{gdt.char}",
        [Param("aa", "raw", _f64), Param("bb", "raw", _f64), Param("g", "in", gdt),
         Param("nb", "scalar", _i64), Param("y", "out", _f64)],
        "const long long r = i / nb, c = i - r * nb; "
        "const double d2 = fmax(aa[r] + bb[c] - 2.0 * (double)g, 0.0); "
        + ("y = sqrt(d2);" if root else "y = d2;")))


def _condense_op():
    # condensed index i -> row r, column c > r of the (m, m) matrix; the sqrt estimate
    # is corrected by whole rows, so rounding cannot misplace it
    return _ops("condense", lambda: Op(
        "cuarray_pdist_condense",
        [Param("D", "raw", _f64), Param("m", "scalar", _i64), Param("y", "out", _f64)],
        "const long long k = i; "
        "long long r = (long long)((2.0 * m - 1 - sqrt((2.0 * m - 1) * (2.0 * m - 1) "
        "- 8.0 * k)) / 2); if (r < 0) r = 0; "
        "auto start = [&](long long q) { return q * (2 * m - q - 1) / 2; }; "
        "while (r > 0 && start(r) > k) --r; while (start(r + 1) <= k) ++r; "
        "const long long c = k - start(r) + r + 1; y = D[r * m + c];"))


def _float(x, name):
    if not isinstance(x, cp.ndarray):
        raise not_device_error(name, x, "cuarray.scipy.spatial.distance.")
    if x.dtype.kind == "c":
        raise TypeError("complex inputs are not supported")
    if x.dtype not in (numpy.float32, numpy.float64):
        x = x.astype(numpy.float64)
    return x if x._c_contig else x.copy()


def _metric_name(metric):
    if callable(metric):
        raise TypeError("cuarray.scipy.spatial.distance takes metric names; a Python "
                        "callable cannot run on the GPU")
    name = _ALIAS.get(str(metric).lower())
    if name is None:
        raise ValueError(f"Unknown Distance Metric: {metric}")
    return name


def _pairwise(XA, XB, metric, out, p, name):
    XA, XB = _float(XA, name), _float(XB, name)
    if XA.ndim != 2:
        raise ValueError("XA must be a 2-dimensional array.")
    if XB.ndim != 2:
        raise ValueError("XB must be a 2-dimensional array.")
    if XA.shape[1] != XB.shape[1]:
        raise ValueError("XA and XB must have the same number of columns (i.e. feature "
                         "dimension.)")
    metric = _metric_name(metric)
    if metric == "minkowski":
        if p <= 0:
            raise ValueError("p must be greater than 0")
        if math.isinf(p):
            metric = "chebyshev"
        elif p == 1:
            metric = "cityblock"
        elif p == 2:
            metric = "euclidean"
    ma, mb, n = XA.shape[0], XB.shape[0], XA.shape[1]
    if out is None:
        out = cp.empty((ma, mb), dtype=numpy.float64)
    elif out.shape != (ma, mb) or out.dtype != numpy.float64 or not out._c_contig:
        raise ValueError("Output array must be C-contiguous float64 of shape "
                         f"{(ma, mb)}")
    if out.size == 0:
        return out
    if metric in ("euclidean", "sqeuclidean") and n >= 16 and XA.dtype == XB.dtype:
        if XA.dtype == numpy.float32 and -(-ma // _tiles.TILE) <= _tiles.MAX_ROW_TILES:
            _tiles.distances(XA, XB, metric == "euclidean", out)
            return out
        aa = cp.sum(XA.astype(numpy.float64) ** 2, axis=1)
        bb = cp.sum(XB.astype(numpy.float64) ** 2, axis=1)
        g = XA @ XB.T   # read in its own precision: no float64 copy of the product
        _gemm_op(metric == "euclidean", g.dtype).launch([aa, bb, g, numpy.int64(mb), out])
        return out
    if XA.dtype != XB.dtype:
        XA, XB = XA.astype(numpy.float64), XB.astype(numpy.float64)
    _op(metric, XA.dtype).launch([XA, XB, numpy.int64(n), numpy.int64(mb),
                                  numpy.float64(p), out])
    return out


def cdist(XA, XB, metric="euclidean", *, out=None, **kwargs):
    """Distances between each pair of rows of XA and XB (cuarray version of
    `scipy.spatial.distance.cdist`; metric names only, `p` for minkowski)."""
    p = kwargs.pop("p", 2.0)
    if kwargs:
        raise TypeError(f"cdist() got unexpected keyword arguments {sorted(kwargs)}")
    return _pairwise(XA, XB, metric, out, p, "cdist")


def pdist(X, metric="euclidean", *, out=None, **kwargs):
    """The condensed distance vector between the rows of X (cuarray version of
    `scipy.spatial.distance.pdist`)."""
    p = kwargs.pop("p", 2.0)
    if kwargs:
        raise TypeError(f"pdist() got unexpected keyword arguments {sorted(kwargs)}")
    X = _float(X, "pdist")
    if X.ndim != 2:
        raise ValueError("A 2-dimensional array must be passed.")
    m = X.shape[0]
    full = _pairwise(X, X, metric, None, p, "pdist")
    d = cp.empty(m * (m - 1) // 2, dtype=numpy.float64)
    if d.size:
        _condense_op().launch([full, numpy.int64(m), d])
    if out is not None:
        if out.shape != d.shape or out.dtype != numpy.float64:
            raise ValueError(f"Output array must be float64 of shape {d.shape}")
        out[...] = d
        return out
    return d


def distance_matrix(x, y, p=2.0, threshold=1000000):
    """The matrix of Minkowski p-distances between the rows of x and y (cuarray version of
    `scipy.spatial.distance_matrix`; `threshold` is accepted and ignored)."""
    x, y = _float(x, "distance_matrix"), _float(y, "distance_matrix")
    if x.ndim == 1:
        x = x[None]
    if y.ndim == 1:
        y = y[None]
    if x.shape[1] != y.shape[1]:
        raise ValueError(f"x contains {x.shape[1]}-dimensional vectors but y contains "
                         f"{y.shape[1]}-dimensional vectors")
    return _pairwise(x, y, "minkowski", None, p, "distance_matrix")


def _pair(metric, u, v, **kw):
    u, v = _float(u, metric), _float(v, metric)
    if u.ndim != 1 or v.ndim != 1:
        raise ValueError("Input vector should be 1-D.")
    return _pairwise(u[None], v[None], metric, None, kw.get("p", 2.0), metric)[0, 0]


def minkowski(u, v, p=2):
    """The Minkowski p-distance of two vectors (cuarray version of
    `scipy.spatial.distance.minkowski`; a 0-d array)."""
    return _pair("minkowski", u, v, p=p)


def _make(metric):
    def f(u, v):
        return _pair(metric, u, v)
    f.__name__ = f.__qualname__ = metric
    f.__doc__ = (f"The {metric} distance of two vectors (cuarray version of "
                 f"`scipy.spatial.distance.{metric}`; a 0-d array).")
    return f


braycurtis = _make("braycurtis")
canberra = _make("canberra")
chebyshev = _make("chebyshev")
cityblock = _make("cityblock")
correlation = _make("correlation")
cosine = _make("cosine")
euclidean = _make("euclidean")
hamming = _make("hamming")
hellinger = _make("hellinger")
jensenshannon = _make("jensenshannon")
kl_divergence = _make("kl_divergence")
russellrao = _make("russellrao")
sqeuclidean = _make("sqeuclidean")
