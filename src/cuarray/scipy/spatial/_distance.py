"""Pairwise distances (cuarray versions of `scipy.spatial.distance.cdist`, `pdist`, the
per-pair metric functions CuPy exports, and `scipy.spatial.distance_matrix`).

Every metric is one elementwise kernel over the (mA, mB) output: thread (r, c) walks the
n coordinates of XA[r] and XB[c] in double precision. Euclidean and squared Euclidean
distances of n >= 16 coordinates go through a GEMM instead,
|a - b|^2 = |a|^2 + |b|^2 - 2 a.b (clamped at 0), in the inputs' precision for the
product (float32 inputs: cuBLAS sgemm, so about 1e-6 relative where SciPy's loop is
exact) and double for the rest; large products go by chunks of XA's rows that stay in
L2 (`_gemm_distances`). Results are float64, as SciPy's.
"""
import math

import numpy

import cuarray as cp
from cuarray._core._routines_linalg import matmul_nd
from cuarray._core._kernel_helpers import render
from cuarray._core.elementwise import Op, Param
from cuarray._core.raw import RawKernel

_i64 = numpy.dtype(numpy.int64)
_f64 = numpy.dtype(numpy.float64)
_ops = {}
_side = {}   # device id -> the second stream of the chunked GEMM path
# The product of a chunk of XA's rows, per buffer: two buffers live at once stay within an
# H100's 50 MB L2, and chunks stay few enough (about 20 for 16384 x 8192 float32) that the
# ~15 us of host work per chunk keeps ahead of the GPU. Rows a multiple of _CHUNK_ALIGN
# (GEMM tiles), at least _CHUNK_MIN_ROWS.
_CHUNK_BYTES = 24 << 20
_CHUNK_ALIGN = 128
_CHUNK_MIN_ROWS = 128
_EPI_BLOCK = 256

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
    key = (metric, dt.char)
    op = _ops.get(key)
    if op is None:
        _, first, acc, final = METRICS[metric]
        body = ("const long long r = i / nb, c = i - r * nb; "
                "double s1 = 0, s2 = 0, acc = 0, acc2 = 0, acc3 = 0; ")
        if first:
            body += ("for (long long k = 0; k < n; ++k) { const double u = XA[r * n + k], "
                     f"v = XB[c * n + k]; {first} }} ")
        body += ("for (long long k = 0; k < n; ++k) { const double u = XA[r * n + k], "
                 f"v = XB[c * n + k]; {acc} }} y = {final};")
        op = _ops[key] = Op(
            f"cuarray_cdist_{metric}_{dt.char}",
            [Param("XA", "raw", dt), Param("XB", "raw", dt), Param("n", "scalar", _i64),
             Param("nb", "scalar", _i64), Param("p", "scalar", _f64), Param("y", "out", _f64)],
            body)
    return op


_EPILOGUE = r"""
#include <cuarray/core.cuh>
// Row r of the product g -> row r of the distances: blocks step through the rows (y) and
// the columns (x), so no thread divides its index.
extern "C" __global__ void cdist_from_gemm(const double* aa, const double* bb, const ${G}* g,
                                           long long rows, long long nb, double* y) {
  for (long long r = blockIdx.y; r < rows; r += gridDim.y) {
    const double ar = aa[r];
    const ${G}* gr = g + r * nb;
    double* yr = y + r * nb;
    for (long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x; c < nb;
         c += (long long)gridDim.x * blockDim.x) {
      const double d2 = fmax(ar + bb[c] - 2.0 * (double)gr[c], 0.0);
      yr[c] = ${Y};
    }
  }
}
"""


def _epilogue(root, gdt):
    key = ("gemm", root, gdt.char)
    k = _ops.get(key)
    if k is None:
        src = render(_EPILOGUE, G="float" if gdt == numpy.float32 else "double",
                     Y="sqrt(d2)" if root else "d2")
        k = _ops[key] = RawKernel(src, "cdist_from_gemm")
    return k


def _run_epilogue(kern, aa, bb, g, out):
    rows, nb = out.shape
    bx = min(-(-nb // _EPI_BLOCK), 1 << 16)
    kern((bx, min(rows, 65535)), (_EPI_BLOCK,), (aa, bb, g, numpy.int64(rows),
                                                 numpy.int64(nb), out))


def _norms_op(dt):
    key = ("norms", dt.char)
    op = _ops.get(key)
    if op is None:
        op = _ops[key] = Op(
            f"cuarray_cdist_norms_{dt.char}",
            [Param("X", "raw", dt), Param("n", "scalar", _i64), Param("y", "out", _f64)],
            "double s = 0; for (long long k = 0; k < n; ++k) { const double v = X[i * n + k]; "
            "s += v * v; } y = s;")
    return op


def _side_stream():
    """This device's second stream: the GEMM of the next chunk runs on it while the
    epilogue of this one runs on the current stream (non-blocking, so that it does not
    serialise with the legacy default stream)."""
    dev = cp.cuda.Device().id
    s = _side.get(dev)
    if s is None:
        s = _side[dev] = cp.cuda.Stream(non_blocking=True)
    return s


def _gemm_distances(XA, XB, root, out):
    """|a - b|^2 = |a|^2 + |b|^2 - 2 a.b into `out`, the product in the inputs' precision.

    A whole (mA, mB) product would go to memory and come back (for float32 inputs half
    the bytes of the float64 result, twice). Above `_CHUNK_BYTES` of product the rows of
    XA go in chunks whose product stays in L2: two scratch buffers alternate, the GEMM of
    chunk i + 1 (side stream) overlapping the epilogue of chunk i (current stream), so
    the float64 output write is the only pass over memory at full size."""
    ma, mb = XA.shape[0], XB.shape[0]
    dt = XA.dtype
    aa = cp.empty(ma, dtype=_f64)
    bb = cp.empty(mb, dtype=_f64)
    n = numpy.int64(XA.shape[1])
    _norms_op(dt).launch([XA, n, aa])
    _norms_op(dt).launch([XB, n, bb])
    epi = _epilogue(root, dt)
    XBT = XB.T
    rows = _CHUNK_BYTES // (mb * dt.itemsize)
    rows = max(_CHUNK_MIN_ROWS, rows - rows % _CHUNK_ALIGN if rows > _CHUNK_ALIGN else rows)
    if ma <= rows:
        g = matmul_nd(XA, XBT, dt)   # read in its own precision: no float64 copy
        _run_epilogue(epi, aa, bb, g, out)
        return
    main, side = cp.cuda.get_current_stream(), _side_stream()
    scratch = [cp.empty((rows, mb), dtype=dt) for _ in range(2)]
    ready = [cp.cuda.Event(disable_timing=True) for _ in range(2)]
    free = [cp.cuda.Event(disable_timing=True) for _ in range(2)]
    start = cp.cuda.Event(disable_timing=True)
    start.record(main)   # the norms, the scratch and `out` are ordered on `main`
    side.wait_event(start)
    n_, row_a, row_o = XA.shape[1], XA._strides[0], out._strides[0]
    cc = (True, False)
    for j, r0 in enumerate(range(0, ma, rows)):
        k = min(rows, ma - r0)
        b = j & 1
        # views by hand: this loop's Python is on the critical path for ~30 chunks
        buf = scratch[b] if k == rows else scratch[b]._view((k, mb), scratch[b]._strides,
                                                              0, None, cc)
        with side:
            if j >= 2:
                side.wait_event(free[b])   # the epilogue of chunk j - 2 has read it
            matmul_nd(XA._view((k, n_), XA._strides, r0 * row_a, None, cc), XBT, dt, buf)
            ready[b].record(side)
        main.wait_event(ready[b])
        _run_epilogue(epi, aa._view((k,), aa._strides, r0 * 8, None, (True, True)), bb, buf,
                      out._view((k, mb), out._strides, r0 * row_o, None, cc))
        free[b].record(main)
    # `main` has waited for every GEMM, so the scratch is free in its stream order


def _condense_op():
    op = _ops.get("condense")
    if op is None:
        # condensed index i -> row r, column c > r of the (m, m) matrix; the sqrt estimate
        # is corrected by whole rows, so rounding cannot misplace it
        op = _ops["condense"] = Op(
            "cuarray_pdist_condense",
            [Param("D", "raw", _f64), Param("m", "scalar", _i64), Param("y", "out", _f64)],
            "const long long k = i; "
            "long long r = (long long)((2.0 * m - 1 - sqrt((2.0 * m - 1) * (2.0 * m - 1) "
            "- 8.0 * k)) / 2); if (r < 0) r = 0; "
            "auto start = [&](long long q) { return q * (2 * m - q - 1) / 2; }; "
            "while (r > 0 && start(r) > k) --r; while (start(r + 1) <= k) ++r; "
            "const long long c = k - start(r) + r + 1; y = D[r * m + c];")
    return op


def _float(x, name):
    if not isinstance(x, cp.ndarray):
        if isinstance(x, (numpy.ndarray, list, tuple)):
            raise TypeError(f"cuarray.scipy.spatial.distance.{name} does not accept "
                            f"{type(x).__name__}; move it to the GPU with cuarray.asarray(x)")
        raise TypeError(f"cuarray.scipy.spatial.distance.{name} needs a cuarray.ndarray")
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
        _gemm_distances(XA, XB, metric == "euclidean", out)
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
