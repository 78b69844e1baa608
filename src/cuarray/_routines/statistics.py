"""Statistics (NumPy reference: "Statistics"): order statistics (median, percentile,
quantile and their nan forms), averages (average), correlating (cov, corrcoef,
correlate, convolve) and histograms (histogram, histogram_bin_edges, histogram2d,
histogramdd, bincount, digitize).

Quantiles follow NumPy's `_QuantileMethods` exactly: positions are computed on the
device in IEEE double without contraction, so discrete methods pick the same elements.
A full reduction of a long array selects its order statistics with a radix select
(four passes over float32 data instead of a sort); anything else sorts along the axis.
Histograms count into per-block shared-memory histograms merged with one atomic pass;
bins are NumPy's, edge corrections included.
"""
import builtins
import operator
import warnings

import numpy

from cuarray._core import dtypes as _dt
from cuarray._core.elementwise import Op, Param
from cuarray._core.ndarray import ndarray
from cuarray._core.shapes import normalize_axes
from cuarray._routines import sorting as _s
from cuarray._routines.sorting import ORDER, kernel, launch, need, op, resident_blocks

_f64 = numpy.dtype(numpy.float64)
_i64 = numpy.dtype(numpy.int64)
_u64 = numpy.dtype(numpy.uint64)
_bool = numpy.dtype(numpy.bool_)

# ---- quantile positions ---------------------------------------------------------------------
# Method ids: NumPy's _QuantileMethods, and 13 for median (the mean of the middle elements).
METHODS = {"inverted_cdf": 0, "averaged_inverted_cdf": 1, "closest_observation": 2,
           "interpolated_inverted_cdf": 3, "hazen": 4, "weibull": 5, "linear": 6,
           "median_unbiased": 7, "normal_unbiased": 8, "lower": 9, "higher": 10, "midpoint": 11,
           "nearest": 12}
_MEDIAN = 13
_TAKE = (0, 2, 9, 10, 12)
# (alpha, 1 - alpha - beta) of _compute_virtual_index, evaluated as Python does.
_ALPHA_BETA = {3: (0, 1), 4: (0.5, 0.5), 5: (0, 0), 7: (1 / 3.0, 1 / 3.0), 8: (3 / 8.0, 3 / 8.0)}


def _alpha_t2(mid):
    a, b = _ALPHA_BETA.get(mid, (0, 0))
    return float(a), float(1 - a - b)


# Also valid host C++ (with ORDER), so CPU tests compare positions with NumPy's.
QUANTILE = r"""
#if defined(__CUDACC__)
#define CUQ_MUL __dmul_rn
#define CUQ_ADD __dadd_rn
#define CUQ_SUB __dsub_rn
#else
#define CUQ_MUL(a, b) ((a) * (b))
#define CUQ_ADD(a, b) ((a) + (b))
#define CUQ_SUB(a, b) ((a) - (b))
#endif
struct cuarray_qpos { long long lo, hi; double g; };
// Where quantile q of n sorted values lies (numpy/lib/_function_base_impl.py: _QuantileMethods,
// _get_indexes, _get_gamma). lo == hi for the discrete methods.
CUARRAY_FN cuarray_qpos cuarray_quantile_pos(double q, long long n, int method, double alpha, double t2) {
  cuarray_qpos r;
  r.g = 0.0;
  const double nd = (double)n, n1 = (double)(n - 1);
  double v;
  switch (method) {
    case 0: case 2: {  // inverted_cdf, closest_observation
      double idx = CUQ_SUB(CUQ_MUL(nd, q), 1.0);
      if (method == 2) idx = CUQ_SUB(idx, 0.5);
      const double prev = floor(idx);
      bool at_prev = CUQ_SUB(idx, prev) == 0.0;
      if (method == 2) { double m2 = fmod(prev, 2.0); if (m2 < 0) m2 += 2.0; at_prev = at_prev && m2 == 1.0; }
      long long k = (long long)(at_prev ? prev : CUQ_ADD(prev, 1.0));
      if (k < 0) k = 0;
      r.lo = r.hi = k;
      return r;
    }
    case 9: r.lo = r.hi = (long long)floor(CUQ_MUL(n1, q)); return r;
    case 10: r.lo = r.hi = (long long)ceil(CUQ_MUL(n1, q)); return r;
    case 12: r.lo = r.hi = (long long)rint(CUQ_MUL(n1, q)); return r;
    case 13: r.lo = (n - 1) / 2; r.hi = n / 2; return r;
    case 6: v = CUQ_MUL(n1, q); break;
    case 11: { const double t = CUQ_MUL(n1, q); v = CUQ_MUL(0.5, CUQ_ADD(floor(t), ceil(t))); break; }
    case 1: v = CUQ_SUB(CUQ_MUL(nd, q), 1.0); break;
    default: v = CUQ_SUB(CUQ_ADD(CUQ_MUL(nd, q), CUQ_ADD(alpha, CUQ_MUL(q, t2))), 1.0);
  }
  double prev = floor(v);
  if (v < 0) { prev = 0.0; r.lo = r.hi = 0; }
  else if (v >= n1) { prev = -1.0; r.lo = r.hi = n - 1; }
  else { r.lo = (long long)prev; r.hi = r.lo + 1; }
  const double g = CUQ_SUB(v, prev);
  if (method == 1) r.g = g == 0.0 ? 0.5 : 1.0;
  else if (method == 11) r.g = fmod(v, 1.0) == 0.0 ? 0.0 : 0.5;
  else r.g = g;
  return r;
}
// The quantile from the values at lo and hi: NumPy's _lerp (b - a in the data's type), its
// take() for discrete methods, and mean() of the middle pair (in MT) for the median.
template <class OUT, class MT, class T>
CUARRAY_FN OUT cuarray_qvalue(const T& a, const T& b, const cuarray_qpos& p, int method) {
  if (method == 0 || method == 2 || method == 9 || method == 10 || method == 12) return cuarray_cast<OUT>(a);
  if (method == 13) {
    if (p.lo == p.hi) return cuarray_cast<OUT>(a);
    return cuarray_cast<OUT>((cuarray_cast<MT>(a) + cuarray_cast<MT>(b)) / MT(2));
  }
  const double da = cuarray_cast<double>(a), db = cuarray_cast<double>(b);
  const double diff = cuarray_cast<double>((T)(b - a)), t = p.g;
  return cuarray_cast<OUT>(t >= 0.5 ? CUQ_SUB(db, CUQ_MUL(diff, CUQ_SUB(1.0, t))) : CUQ_ADD(da, CUQ_MUL(diff, t)));
}
CUARRAY_FN double cuarray_qnan() { return cuarray_f64(0x7ff8000000000000ull); }
"""

_QSORTED = r"""
typedef XT T;
typedef OT OUT;
typedef MTT MT;
// One thread per (quantile, row) of rows sorted with NaNs last.
extern "C" __global__ void cuarray_quantile_sorted(
    const T* __restrict__ s, const long long rows, const long long n, const double* __restrict__ q,
    const long long nq, const int method, const double alpha, const double t2, const int nanmode,
    const double* __restrict__ cdf, OUT* __restrict__ out) {
  for (long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x; t < nq * rows;
       t += (long long)gridDim.x * blockDim.x) {
    const long long qi = t / rows, row = t % rows;
    const T* r = s + row * n;
    long long m = n;
    if (nanmode) {  // the number of non-NaN values: the first NaN, by bisection
      long long lo = 0, hi = n;
      while (lo < hi) { const long long mid = (lo + hi) >> 1; if (cuarray_isnan_v(r[mid])) hi = mid; else lo = mid + 1; }
      m = lo;
    }
    if (m == 0 || (!nanmode && cuarray_isnan_v(r[n - 1]))) { out[t] = cuarray_cast<OUT>(cuarray_qnan()); continue; }
    if (cdf) {  // weighted inverted_cdf: the first i with cdf[i] / cdf[m - 1] >= q (0 read as -1)
      const double* c = cdf + row * n;
      const double total = c[m - 1], qq = q[qi];
      long long lo = 0, hi = m;
      while (lo < hi) {
        const long long mid = (lo + hi) >> 1;
        double f = c[mid] / total;
        if (f == 0.0) f = -1.0;
        if (f < qq) lo = mid + 1; else hi = mid;
      }
      out[t] = cuarray_cast<OUT>(r[lo < m - 1 ? lo : m - 1]);
      continue;
    }
    const cuarray_qpos p = cuarray_quantile_pos(q[qi], m, method, alpha, t2);
    out[t] = cuarray_qvalue<OUT, MT>(r[p.lo], r[p.hi], p, method);
  }
}
"""

# Radix select for a full reduction: each pass histograms the next 8 key bits of the
# elements that still match each target's prefix, then picks the digit holding its rank.
_QSELECT = r"""
typedef XT T;
typedef KT K;
typedef OT OUT;
typedef MTT MT;
#define BITS KBITS
#define KMAX 16
extern "C" __global__ void qsel_hist0(const T* __restrict__ x, const long long n,
                                      unsigned long long* __restrict__ hist, unsigned long long* __restrict__ nnan) {
  __shared__ unsigned int h[8][256];
  __shared__ unsigned int s_nan;
  const int tid = threadIdx.x, warp = tid >> 5;
  for (int d = tid; d < 8 * 256; d += blockDim.x) (&h[0][0])[d] = 0;
  if (tid == 0) s_nan = 0;
  __syncthreads();
  unsigned int nn = 0;
  const int lane = tid & 31;
  const long long stride = (long long)gridDim.x * blockDim.x;
  // The trip count is the same for a whole warp, so every lane takes part in the match.
  for (long long base = (long long)blockIdx.x * blockDim.x + (tid - lane); base < n; base += 4 * stride) {
    T v[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) { const long long i = base + u * stride + lane; v[u] = x[i < n ? i : 0]; }
#pragma unroll
    for (int u = 0; u < 4; ++u) {
      const bool ok = base + u * stride + lane < n;
      nn += ok && cuarray_isnan_v(v[u]) ? 1u : 0u;
      // Float keys crowd into few top-byte digits: one atomic per digit per warp.
      const unsigned d = ok ? (unsigned)(cuarray_okey(v[u]) >> (BITS - 8)) & 255u : 256u;
      const unsigned peers = __match_any_sync(0xffffffffu, d);
      if (d < 256u && lane == __ffs(peers) - 1) atomicAdd(&h[warp][d], (unsigned)__popc(peers));
    }
  }
  if (nn) atomicAdd(&s_nan, nn);
  __syncthreads();
  for (int d = tid; d < 256; d += blockDim.x) {
    unsigned int c = 0;
    for (int w = 0; w < 8; ++w) c += h[w][d];
    if (c) atomicAdd(&hist[d], (unsigned long long)c);
  }
  if (tid == 0 && s_nan) atomicAdd(nnan, (unsigned long long)s_nan);
}
__device__ __forceinline__ void _qsel_count(unsigned int (*h)[256], const unsigned long long* s_pre, int K_,
                                            int shift, const T& v) {
  const unsigned long long k = (unsigned long long)cuarray_okey(v);
  const unsigned long long hi = k >> (shift + 8);
  const unsigned int d = (unsigned int)(k >> shift) & 255u;
  for (int t = 0; t < K_; ++t) if (hi == s_pre[t]) atomicAdd(&h[t][d], 1u);
}
extern "C" __global__ void qsel_hist(const T* __restrict__ x, const long long n, const int K_, const int shift,
                                     const unsigned long long* __restrict__ prefix, unsigned long long* __restrict__ hist) {
  __shared__ unsigned int h[KMAX][256];
  __shared__ unsigned long long s_pre[KMAX];
  const int tid = threadIdx.x;
  for (int d = tid; d < KMAX * 256; d += blockDim.x) (&h[0][0])[d] = 0;
  if (tid < K_) s_pre[tid] = prefix[tid] >> (shift + 8);
  __syncthreads();
  const long long stride = (long long)gridDim.x * blockDim.x;
  long long i = (long long)blockIdx.x * blockDim.x + tid;
  for (; i + 3 * stride < n; i += 4 * stride) {
    T v[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) v[u] = x[i + u * stride];
#pragma unroll
    for (int u = 0; u < 4; ++u) _qsel_count(h, s_pre, K_, shift, v[u]);
  }
  for (; i < n; i += stride) _qsel_count(h, s_pre, K_, shift, x[i]);
  __syncthreads();
  for (int e = tid; e < K_ * 256; e += blockDim.x) {
    const unsigned int c = (&h[0][0])[e];
    if (c) atomicAdd(&hist[e], (unsigned long long)c);
  }
}
// Target ranks from the sample size (the NaN count is known after the first pass).
extern "C" __global__ void qsel_ranks(const double* __restrict__ q, const int nq, const long long n,
                                      const unsigned long long* __restrict__ nnan, const int method,
                                      const double alpha, const double t2, const int nanmode, long long* __restrict__ rem) {
  const int t = threadIdx.x;
  if (t < nq) {
    const long long m = nanmode ? n - (long long)*nnan : n;
    long long lo = 0, hi = 0;
    if (m > 0) { const cuarray_qpos p = cuarray_quantile_pos(q[t], m, method, alpha, t2); lo = p.lo; hi = p.hi; }
    rem[2 * t] = lo;
    rem[2 * t + 1] = hi;
  }
}
extern "C" __global__ void qsel_choose(unsigned long long* __restrict__ hist, const int K_, const int shift,
                                       const int shared0, long long* __restrict__ rem, unsigned long long* __restrict__ prefix) {
  __shared__ unsigned long long s_h[KMAX * 256];
  const int t = threadIdx.x;
  const int rows = shared0 ? 1 : K_;
  for (int e = t; e < rows * 256; e += blockDim.x) s_h[e] = hist[e];  // all loads in flight at once
  __syncthreads();
  if (t < K_) {
    const unsigned long long* h = s_h + (shared0 ? 0 : t * 256);
    const unsigned long long r = (unsigned long long)rem[t];
    unsigned long long cum = 0;
    int d = 0;
    for (; d < 255; ++d) {
      const unsigned long long c = h[d];
      if (cum + c > r) break;
      cum += c;
    }
    rem[t] = (long long)(r - cum);
    prefix[t] |= (unsigned long long)d << shift;
  }
  for (int e = t; e < rows * 256; e += blockDim.x) hist[e] = 0;  // ready for the next pass
}
extern "C" __global__ void qsel_final(const double* __restrict__ q, const int nq, const long long n,
                                      const unsigned long long* __restrict__ nnan, const int method,
                                      const double alpha, const double t2, const int nanmode,
                                      const unsigned long long* __restrict__ prefix, OUT* __restrict__ out) {
  const int t = threadIdx.x;
  if (t < nq) {
    const long long m = nanmode ? n - (long long)*nnan : n;
    if (m == 0 || (!nanmode && *nnan)) { out[t] = cuarray_cast<OUT>(cuarray_qnan()); return; }
    const cuarray_qpos p = cuarray_quantile_pos(q[t], m, method, alpha, t2);
    const T a = cuarray_from_okey((K)prefix[2 * t], (const T*)0);
    const T b = cuarray_from_okey((K)prefix[2 * t + 1], (const T*)0);
    out[t] = cuarray_qvalue<OUT, MT>(a, b, p, method);
  }
}
"""
_KMAX = 16
SELECT_MIN = 1 << 16  # shorter full reductions sort instead


def _mt(dtype):
    """The dtype NumPy's mean uses for the middle pair of a median."""
    if dtype.kind == "c":
        return dtype
    return numpy.dtype(numpy.float32) if dtype.char in "ef" else _f64


def qsorted_source(dt, out_dt):
    return (ORDER + QUANTILE + _QSORTED.replace("XT", _dt.ctype(dt)).replace("MTT", _dt.ctype(_mt(dt)))
            .replace("OT", _dt.ctype(out_dt)))


def _qsorted_fn(dt, out_dt):
    return kernel(("qsorted", dt.char, out_dt.char), lambda: (
        qsorted_source(dt, out_dt), "cuarray_quantile_sorted",
        ["P", "q", "q", "P", "q", "i", "d", "d", "i", "P", "P"]))


def qselect_source(dt, out_dt):
    kdt = _s._UNSIGNED[dt.itemsize]
    return (ORDER + QUANTILE + _QSELECT.replace("XT", _dt.ctype(dt)).replace("KT", _dt.ctype(kdt))
            .replace("OT", _dt.ctype(out_dt)).replace("MTT", _dt.ctype(_mt(dt)))
            .replace("KBITS", str(dt.itemsize * 8)))


def _qselect(x, qd, mid, nanmode, out_dt):
    """Quantiles of the 1-D contiguous x at the device float64 qd, by radix select."""
    from cuarray._routines.creation import zeros
    dt, n, nq = x.dtype, x.size, qd.size
    bits = dt.itemsize * 8
    fns = {}
    for name, kinds in (("qsel_hist0", ["P", "q", "P", "P"]), ("qsel_hist", ["P", "q", "i", "i", "P", "P"]),
                        ("qsel_ranks", ["P", "i", "q", "P", "i", "d", "d", "i", "P"]),
                        ("qsel_choose", ["P", "i", "i", "i", "P", "P"]),
                        ("qsel_final", ["P", "i", "q", "P", "i", "d", "d", "i", "P", "P"])):
        fns[name] = kernel((name, dt.char, out_dt.char),
                           lambda name=name, kinds=kinds: (qselect_source(dt, out_dt), name, kinds))
    hist = zeros((_KMAX * 256,), _u64)
    nnan = zeros((1,), _u64)
    prefix = zeros((_KMAX,), _u64)
    rem = ndarray._alloc((_KMAX,), _i64)
    out = ndarray._alloc((nq,), out_dt)
    alpha, t2 = _alpha_t2(mid)
    K = 2 * nq
    grid = min(-(-n // 256), resident_blocks())
    launch(fns["qsel_hist0"], grid, 256, [x._ptr, n, hist._ptr, nnan._ptr])
    launch(fns["qsel_ranks"], 1, 32, [qd._ptr, nq, n, nnan._ptr, mid, alpha, t2, nanmode, rem._ptr])
    launch(fns["qsel_choose"], 1, 256, [hist._ptr, K, bits - 8, 1, rem._ptr, prefix._ptr])
    for p in range(1, bits // 8):
        shift = bits - 8 * (p + 1)
        launch(fns["qsel_hist"], grid, 256, [x._ptr, n, K, shift, prefix._ptr, hist._ptr])
        launch(fns["qsel_choose"], 1, 256, [hist._ptr, K, shift, 0, rem._ptr, prefix._ptr])
    launch(fns["qsel_final"], 1, 32, [qd._ptr, nq, n, nnan._ptr, mid, alpha, t2, nanmode, prefix._ptr,
                                      out._ptr])
    return out


def _result_dtype(name, dtype, qspec, method):
    """NumPy's own result dtype (and its TypeError for bool data), from a tiny host call."""
    key = (name, dtype.char, qspec, method)
    r = _rdt.get(key)
    if r is None:
        a = numpy.zeros(3, dtype)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if name == "median":
                r = numpy.median(a).dtype
            else:
                q = qspec if isinstance(qspec, (int, float)) else numpy.zeros((), numpy.dtype(qspec))
                r = numpy.quantile(a, q, method=method).dtype
        r = _rdt[key] = _dt.check_dtype(r)
    return r


_rdt = {}


def _reduced(a, axis):
    """(view of a as (rows, n), kept shape, keepdims shape) for a reduction over `axis`."""
    nd = a.ndim
    axes = normalize_axes(axis, nd)
    keep = [d for d in range(nd) if d not in axes]
    v = a.transpose(keep + list(axes)) if keep + list(axes) != list(range(nd)) else a
    kshape = tuple(a.shape[d] for d in keep)
    n = 1
    for d in axes:
        n *= a.shape[d]
    rows = 1
    for s in kshape:
        rows *= s
    v2 = v.reshape(rows, n)
    kd = tuple(1 if d in axes else a.shape[d] for d in range(nd))
    return v2, kshape, kd


def _weights_valid(w, a, axis, name="quantile"):
    """NumPy's _weights_are_valid: weights broadcast against a (axis None or a tuple)."""
    w = need(w, name)
    if w.shape != a.shape:
        if axis is None:
            raise TypeError("Axis must be specified when shapes of a and weights differ.")
        if w.shape != tuple(a.shape[ax] for ax in axis):
            raise ValueError("Shape of weights must be consistent with shape of a along specified axis.")
        w = w.transpose(list(numpy.argsort(axis)))
        w = w.reshape(tuple(s if ax in axis else 1 for ax, s in enumerate(a.shape)))
    return w


def _quantile(name, a, q, axis, out, method, keepdims, weights, nanmode, percent):
    from cuarray._core.transfer import asarray
    a = need(a, name)
    if a.dtype.kind == "c":
        raise TypeError("a must be an array of real numbers")
    weak = type(q) in (int, float)
    qh = q.get() if isinstance(q, ndarray) else numpy.asanyarray(q)
    if percent:
        qh = numpy.true_divide(qh, 100)
    qh = numpy.asanyarray(qh)
    if not (qh.size == 0 or (numpy.all(qh >= 0) and numpy.all(qh <= 1))):
        raise ValueError("Percentiles must be in the range [0, 100]" if percent else
                         "Quantiles must be in the range [0, 1]")
    if method not in METHODS:
        raise ValueError(f"{method!r} is not a valid method. Use one of: {METHODS.keys()}")
    if qh.ndim > 2:
        raise ValueError("q must be a scalar or 1d")
    mid = METHODS[method]
    if weights is not None:
        if method != "inverted_cdf":
            raise ValueError(f"Only method 'inverted_cdf' supports weights. Got: {method}.")
        axt = None if axis is None else normalize_axes(axis, a.ndim)
        weights = _weights_valid(weights, a, axt)
        if bool((weights < 0).any()):
            raise ValueError("Weights must be non-negative.")
    # q as NumPy's quantile sees it: a Python scalar keeps weak promotion (percentile's q / 100
    # is a float); an array has its dtype.
    qspec = (0 if type(q) is int and not percent else 0.5) if weak else qh.dtype.str
    out_dt = _result_dtype(name, a.dtype, qspec, method)
    v2, kshape, kd = _reduced(a, axis)
    rows, n = v2.shape
    if n == 0 and not nanmode:
        raise IndexError("index -1 is out of bounds for axis 0 with size 0")
    qd = asarray(numpy.ascontiguousarray(qh, dtype=numpy.float64).reshape(-1))
    res = _order_stat(v2, qd, mid, nanmode, out_dt, weights, a, axis)
    shape = qh.shape + (kd if keepdims else kshape)
    return _finish(res.reshape(shape), out)


def _order_stat(v2, qd, mid, nanmode, out_dt, weights=None, a=None, axis=None):
    """(nq, rows) quantiles of the rows of v2 at the float64 device quantiles qd."""
    rows, n = v2.shape
    nq = qd.size
    if weights is None and rows == 1 and n >= SELECT_MIN and 0 < nq <= _KMAX // 2 and v2.dtype.kind != "c":
        x = v2.reshape(n)
        return _qselect(x if x._c_contig else x.copy(), qd, mid, int(nanmode), out_dt).reshape(nq, 1)
    out = ndarray._alloc((nq, rows), out_dt)
    if out.size == 0:
        return out
    cdf = None
    if weights is not None:
        from cuarray._core.scan import cumsum
        wb = _broadcast_to(weights, a.shape)
        w2 = _reduced(wb, axis)[0]
        s, idx = _s.sort_last(v2, True, True)
        ws = ndarray._alloc((rows, n), _f64)
        _wgather_op(w2.dtype).launch([idx, w2, numpy.int64(n), ws])
        cdf = cumsum(ws, axis=1)
        if not nanmode:
            tot = cdf[:, n - 1]
            if bool((~_uf("isfinite")(tot) | (tot == 0)).any()):
                raise ValueError("Weights included NaN, inf or were all zero.")
    else:
        s = _s.sort_last(v2, True, False)[0]
    alpha, t2 = _alpha_t2(mid)
    fn = _qsorted_fn(v2.dtype, out_dt)
    total = nq * rows
    launch(fn, min(-(-total // 256), 4 * resident_blocks()), 256,
           [s._ptr, rows, n, qd._ptr, nq, mid, alpha, t2, int(nanmode), 0 if cdf is None else cdf._ptr,
            out._ptr])
    return out


def _wgather_op(wdt):
    """o = the weight of the element sorted to position i (ix: its position in its row)."""
    return op(("wgather", wdt.char), lambda: Op(
        "cuarray_quantile_wgather", [Param("ix", "in", _i64), Param("w", "raw", wdt),
                                     Param("n", "scalar", _i64), Param("o", "out", _f64)],
        "o = cuarray_cast<double>(w[(i / n) * n + ix]);"))


def _uf(name):
    from cuarray._core import _ops
    return getattr(_ops, name)


def _broadcast_to(x, shape):
    from cuarray._core.shapes import broadcast_strides
    return x if x.shape == shape else x._view(shape, broadcast_strides(x.shape, x.strides, shape))


def _finish(r, out):
    if out is None:
        return r
    from cuarray._core._copy import copy_into
    copy_into(need(out, "out"), r)
    return out


def _median(name, a, axis, out, keepdims, nanmode):
    from cuarray._core.transfer import asarray
    a = need(a, name)
    out_dt = _result_dtype("median", a.dtype, None, None)
    v2, kshape, kd = _reduced(a, axis)
    res = _order_stat(v2, asarray(numpy.array([0.5])), _MEDIAN, nanmode and a.dtype.kind in "fc", out_dt)
    return _finish(res.reshape(kd if keepdims else kshape), out)


# ---- the order statistics ---------------------------------------------------------------------
def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """cuarray version of `numpy.median`; returns a 0-d array for a full reduction."""
    return _median("median", a, axis, out, keepdims, False)


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """cuarray version of `numpy.nanmedian` (all-NaN slices give NaN, without a warning)."""
    return _median("nanmedian", a, axis, out, keepdims, True)


def _method(method, interpolation):
    if interpolation is not None:  # CuPy's older keyword
        warnings.warn("the `interpolation=` argument to percentile was renamed to `method=`",
                      DeprecationWarning, stacklevel=3)
        return interpolation
    return method


def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
             weights=None, interpolation=None):
    """cuarray version of `numpy.quantile`; `q` is read on the host (its range is checked)."""
    return _quantile("quantile", a, q, axis, out, _method(method, interpolation), keepdims, weights,
                     False, False)


def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
               weights=None, interpolation=None):
    """cuarray version of `numpy.percentile`; `q` is read on the host (its range is checked)."""
    return _quantile("percentile", a, q, axis, out, _method(method, interpolation), keepdims,
                     weights, False, True)


def nanquantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False,
                *, weights=None, interpolation=None):
    """cuarray version of `numpy.nanquantile` (all-NaN slices give NaN, without a warning)."""
    return _quantile("nanquantile", a, q, axis, out, _method(method, interpolation), keepdims,
                     weights, need(a, "nanquantile").dtype.kind == "f", False)


def nanpercentile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
                  keepdims=False, *, weights=None, interpolation=None):
    """cuarray version of `numpy.nanpercentile` (all-NaN slices give NaN, without a warning)."""
    return _quantile("nanpercentile", a, q, axis, out, _method(method, interpolation), keepdims,
                     weights, need(a, "nanpercentile").dtype.kind == "f", True)


# ---- averages ---------------------------------------------------------------------------------
def average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    """cuarray version of `numpy.average`; with weights, checks on the host that they do not
    sum to zero (one synchronisation), as NumPy and CuPy raise ZeroDivisionError."""
    from cuarray._core import _reductions as _r
    from cuarray._routines.creation import full
    a = need(a, "average")
    axt = None if axis is None else normalize_axes(axis, a.ndim)
    if weights is None:
        avg = _r.mean(a, axt, keepdims=keepdims)
        if returned:
            scl = avg.dtype.type(a.size / avg.size) if avg.size else avg.dtype.type(0)
            return avg, full(avg.shape, scl, avg.dtype)
        return avg
    wgt = _weights_valid(weights, a, axt, "average")
    if a.dtype.kind in "biu":
        rdt = numpy.result_type(a.dtype, wgt.dtype, "f8")
    else:
        rdt = numpy.result_type(a.dtype, wgt.dtype)
    wb = _broadcast_to(wgt, a.shape).astype(rdt)
    scl = _r.sum(wb, axt, keepdims=keepdims)
    if bool((scl == 0).any()):
        raise ZeroDivisionError("Weights sum to zero, can't be normalized")
    avg = _uf("true_divide")(_r.sum(_uf("multiply")(a.astype(rdt), wb), axt, keepdims=keepdims), scl)
    if returned:
        return avg, scl
    return avg


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *,
        dtype=None):
    """cuarray version of `numpy.cov`; weights are checked on the host (a synchronisation),
    as in NumPy and CuPy."""
    from cuarray._core import _reductions as _r
    from cuarray.linalg import _products
    if ddof is not None and ddof != int(ddof):
        raise ValueError("ddof must be integer")
    m = need(m, "cov")
    if m.ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    if y is not None:
        y = need(y, "cov")
        if y.ndim > 2:
            raise ValueError("y has more than 2 dimensions")
    if dtype is None:
        dtype = numpy.result_type(m.dtype, numpy.float64) if y is None else \
            numpy.result_type(m.dtype, y.dtype, numpy.float64)
    dtype = _dt.check_dtype(dtype)
    X = _atleast_2d(m).astype(dtype)
    if not rowvar and X.shape[0] != 1:
        X = X.T
    if X.shape[0] == 0:
        return ndarray._alloc((0, 0), _f64)
    if y is not None:
        Y = _atleast_2d(y).astype(dtype)
        if not rowvar and Y.shape[0] != 1:
            Y = Y.T
        if Y.shape[1] != X.shape[1]:
            raise ValueError(f"all the input array dimensions except for the concatenation axis must "
                             f"match exactly, but along dimension 1, the array at index 0 has size "
                             f"{X.shape[1]} and the array at index 1 has size {Y.shape[1]}")
        Z = ndarray._alloc((X.shape[0] + Y.shape[0], X.shape[1]), dtype)
        Z[:X.shape[0]] = X
        Z[X.shape[0]:] = Y
        X = Z
    else:
        X = X.copy()
    if ddof is None:
        ddof = 1 if bias == 0 else 0
    w = None
    if fweights is not None:
        fw = need(fweights, "cov").astype(_f64)
        if not bool((fw == _uf("rint")(fw)).all()):
            raise TypeError("fweights must be integer")
        if fw.ndim > 1:
            raise RuntimeError("cannot handle multidimensional fweights")
        if fw.shape[0] != X.shape[1]:
            raise RuntimeError("incompatible numbers of samples and fweights")
        if bool((fw < 0).any()):
            raise ValueError("fweights cannot be negative")
        w = fw
    aw = None
    if aweights is not None:
        aw = need(aweights, "cov").astype(_f64)
        if aw.ndim > 1:
            raise RuntimeError("cannot handle multidimensional aweights")
        if aw.shape[0] != X.shape[1]:
            raise RuntimeError("incompatible numbers of samples and aweights")
        if bool((aw < 0).any()):
            raise ValueError("aweights cannot be negative")
        w = aw if w is None else _uf("multiply")(w, aw)
    avg, w_sum = average(X, axis=1, weights=w, returned=True)
    w_sum = w_sum[0]
    if w is None:
        fact = max(X.shape[1] - ddof, 0.0)  # NumPy warns and uses 0 when the dof are <= 0
        with numpy.errstate(divide="ignore"):
            inv = numpy.true_divide(1, numpy.float64(fact))
    else:
        if ddof == 0:
            fact = w_sum
        elif aw is None:
            fact = _uf("subtract")(w_sum, ddof)
        else:
            fact = _uf("subtract")(w_sum, _uf("true_divide")(
                _uf("multiply")(ddof, _r.sum(_uf("multiply")(w, aw))), w_sum))
        inv = _uf("true_divide")(1, _uf("maximum")(fact, 0.0))
    _uf("subtract")(X, avg.reshape(-1, 1), out=X)
    XT = (X if w is None else _uf("multiply")(X, w)).T
    c = _products.dot(X, _uf("conjugate")(XT) if XT.dtype.kind == "c" else XT)
    c = _uf("multiply")(c, inv, out=c)
    return c.squeeze()


def _atleast_2d(x):
    return x.reshape(1, -1) if x.ndim < 2 else x


def corrcoef(x, y=None, rowvar=True, bias=None, ddof=None, *, dtype=None):
    """cuarray version of `numpy.corrcoef` (`bias` and `ddof` have no effect, as in NumPy)."""
    if bias is not None or ddof is not None:
        warnings.warn("bias and ddof have no effect and are deprecated", DeprecationWarning,
                      stacklevel=2)
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim == 0:
        return _uf("true_divide")(c, c)
    n = c.shape[0]
    d = c._view((n,), (c.strides[0] + c.strides[1],))
    std = _uf("sqrt")(d.real)
    c = _uf("true_divide")(c, std.reshape(n, 1))
    c = _uf("true_divide")(c, std.reshape(1, n), out=c)
    _uf("clip")(c.real, -1, 1, out=c.real)
    if c.dtype.kind == "c":
        _uf("clip")(c.imag, -1, 1, out=c.imag)
    return c


_MODES = {"valid": 0, "same": 1, "full": 2, "v": 0, "s": 1, "f": 2}


def _corr_op(rdt, conj_b, reverse_b):
    """y[k] = sum_t a[k - nl + t] * b'[t] over the overlap, accumulated as NumPy's dot."""
    acc = {"b": "bool", "i": "long long", "u": "unsigned long long", "f": "double",
           "c": "complex<double>"}[rdt.kind]
    bexpr = "b[n2 - 1 - t]" if reverse_b else "b[t]"
    if conj_b:
        bexpr = f"conj({bexpr})"
    T = _dt.ctype(rdt)
    if rdt.kind == "b":
        body = f"bool s = false; for (long long t = t0; t < t1; ++t) s = s || (a[sh + t] && {bexpr}); y = s;"
    else:
        body = (f"{acc} s = ({acc})0; for (long long t = t0; t < t1; ++t) "
                f"s += cuarray_cast<{acc}>(a[sh + t]) * cuarray_cast<{acc}>(({T}){bexpr}); y = cuarray_cast<{T}>(s);")
    pre = ("const long long sh = (long long)i - nl; const long long t0 = sh < 0 ? -sh : 0; "
           "const long long t1 = n1 - sh < n2 ? n1 - sh : n2; ")
    return op(("corr", rdt.char, bexpr), lambda: Op(
        "cuarray_correlate", [Param("a", "raw", rdt), Param("b", "raw", rdt), Param("nl", "scalar", _i64),
                              Param("n1", "scalar", _i64), Param("n2", "scalar", _i64), Param("y", "out", rdt)],
        pre + body))


def _corr_core(A, B, mode, conj_b, reverse_b):
    """NumPy's _pyarray_correlate: out[k] = sum_t A[k - n_left + t] * B'[t] with len(A) >= len(B),
    B' = conj(B) and/or B reversed; products accumulate as NumPy's dot (ints in 64 bits)."""
    n1, n2 = A.size, B.size
    rdt = A.dtype
    if mode == 0:
        length, n_left = n1 - n2 + 1, 0
    elif mode == 1:
        length, n_left = n1, n2 // 2
    else:
        length, n_left = n1 + n2 - 1, n2 - 1
    out = ndarray._alloc((length,), rdt)
    o = _corr_op(rdt, conj_b, reverse_b)
    o.launch([A, B, numpy.int64(n_left), numpy.int64(n1), numpy.int64(n2), out])
    return out


def _corr_args(a, v, name):
    a, v = need(a, name), need(v, name)
    if a.ndim == 0:
        a = a.reshape(1)
    if v.ndim == 0:
        v = v.reshape(1)
    if a.ndim > 1 or v.ndim > 1:
        raise ValueError("object too deep for desired array")
    rdt = _dt.check_dtype(numpy.result_type(a.dtype, v.dtype))
    return (a if a.dtype == rdt else a.astype(rdt)), (v if v.dtype == rdt else v.astype(rdt))


def _mode(mode):
    m = _MODES.get(mode) if isinstance(mode, str) else (mode if mode in (0, 1, 2) else None)
    if m is None:
        raise ValueError("Use one of 'valid', 'same', or 'full' for convolve/correlate mode")
    return m


def correlate(a, v, mode="valid"):
    """cuarray version of `numpy.correlate` (a direct sum: exact for integers, as NumPy's)."""
    m = _mode(mode)
    a, v = _corr_args(a, v, "correlate")
    if a.size == 0:
        raise ValueError("first array argument cannot be empty")
    if v.size == 0:
        raise ValueError("second array argument cannot be empty")
    conj = a.dtype.kind == "c"
    if a.size < v.size:  # NumPy swaps (conjugating the original v) and reverses the result
        if conj:
            v = _uf("conjugate")(v)
        r = _corr_core(v, a, m, False, False)
        return r[::-1].copy()
    return _corr_core(a, v, m, conj, False)


def convolve(a, v, mode="full"):
    """cuarray version of `numpy.convolve` (a direct sum: exact for integers, as NumPy's)."""
    m = _mode(mode)
    a, v = _corr_args(a, v, "convolve")
    if v.size > a.size:
        a, v = v, a
    if a.size == 0:
        raise ValueError("a cannot be empty")
    if v.size == 0:
        raise ValueError("v cannot be empty")
    return _corr_core(a, v, m, False, True)


# ---- histograms ---------------------------------------------------------------------------------
_HIST_SRC = r"""
typedef XT T;
typedef WTT W;
#define NACC NACCV
#define SHARED SHAREDV
#define NCOPY NCOPYV
#define HAS_W HASWV
#define MATCH MATCHV
BINFN
// Adds sample i to bin b (b < 0: no bin). Called by all 32 lanes of a warp together.
__device__ __forceinline__ void _acc(ACCT* h, long long b, const W* w, long long i, int lane) {
#if HAS_W
  if (b < 0) return;
#if NACC == 2
  const W wv = w[i];
  atomicAdd(&h[2 * b], (ACCT)wv.re); atomicAdd(&h[2 * b + 1], (ACCT)wv.im);
#else
  atomicAdd(&h[b], cuarray_cast<ACCT>(w[i]));
#endif
#elif MATCH
  // Counts: lanes of a warp that hit one bin add once (histograms of real data crowd bins).
  const unsigned peers = __match_any_sync(0xffffffffu, (int)b);
  if (b >= 0 && lane == __ffs(peers) - 1) atomicAdd(&h[b], (ACCT)__popc(peers));
#else
  if (b >= 0) atomicAdd(&h[b], (ACCT)1);
#endif
}
// One pass over the samples into per-block histograms in shared memory (NCOPY of them,
// one per group of warps, when they fit), merged into the global histogram with one
// atomic per non-empty bin.
extern "C" __global__ void cuarray_hist(const T* __restrict__ x, const long long n, const long long stride_d,
                                        const double* __restrict__ edges, const long long* __restrict__ eoff,
                                        const int nb, const double p0, const double p1, const double p2,
                                        const W* __restrict__ w, GACCT* __restrict__ out) {
  const int lane = threadIdx.x & 31;
#if SHARED
  extern __shared__ unsigned char s_raw[];
  ACCT* sh = (ACCT*)s_raw;
  const int nbt = nb * NACC;
  for (int b = threadIdx.x; b < nbt * NCOPY; b += blockDim.x) sh[b] = 0;
  __syncthreads();
  ACCT* h = sh + ((threadIdx.x >> 5) % NCOPY) * nbt;
#else
  GACCT* h = out;
#endif
  const long long stride = (long long)gridDim.x * blockDim.x;
  // A warp-uniform trip count: every lane reaches _acc together; four samples in flight.
  for (long long base = (long long)blockIdx.x * blockDim.x + (threadIdx.x - lane); base < n; base += 4 * stride) {
    long long b[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) {
      const long long i = base + u * stride + lane;
      b[u] = i < n ? _bin(x, i, stride_d, edges, eoff, nb, p0, p1, p2) : -1;
    }
#pragma unroll
    for (int u = 0; u < 4; ++u) _acc(h, b[u], w, base + u * stride + lane, lane);
  }
#if SHARED
  __syncthreads();
  for (int b = threadIdx.x; b < nbt; b += blockDim.x) {
    ACCT c = 0;
    for (int k = 0; k < NCOPY; ++k) c += sh[k * nbt + b];
    if (c != 0) atomicAdd(&out[b], (GACCT)c);
  }
#endif
}
"""

# NumPy's uniform-bin index (histogram's fast path): the estimate, then one-step corrections.
_BIN_UNIFORM = r"""
typedef ET E; typedef C1T C1; typedef C2T C2; typedef ST S; typedef DT D;
__device__ __forceinline__ long long _bin(const T* x, long long i, long long, const double* edges_d,
                                          const long long*, int nb, double first, double last, double denom) {
  const T xv = x[i];
  if (!(cuarray_cast<C1>(xv) >= cuarray_cast<C1>(first)) || !(cuarray_cast<C2>(xv) <= cuarray_cast<C2>(last))) return -1;
  const E* edges = (const E*)edges_d;
  const E ev = cuarray_cast<E>(xv);
  const S sub = cuarray_cast<S>(cuarray_cast<S>(ev) - cuarray_cast<S>(first));
  const D qt = cuarray_cast<D>(cuarray_cast<D>(sub) / cuarray_cast<D>(denom));
  const D f = cuarray_cast<D>(qt * cuarray_cast<D>(nb));
  long long k = (long long)cuarray_cast<double>(f);
  if (k >= nb) k = nb - 1;
  if (k < 0) k = 0;
  if (ev < edges[k]) --k;
  else if (k != nb - 1 && !(ev < edges[k + 1])) ++k;
  return k;
}
"""

# Bins given as edges (histogram with array bins): the largest i with edges[i] <= x, the
# right edge closing the last bin.
_BIN_EDGES = r"""
typedef ET E; typedef CTT C;
__device__ __forceinline__ long long _bin(const T* x, long long i, long long, const double* edges_d,
                                          const long long*, int nb, double, double, double) {
  const E* e = (const E*)edges_d;
  const C v = cuarray_cast<C>(x[i]);
  long long lo = 0, hi = nb + 1;
  while (lo < hi) { const long long mid = (lo + hi) >> 1; if (cuarray_lt(v, cuarray_cast<C>(e[mid]))) hi = mid; else lo = mid + 1; }
  long long b = lo - 1;
  if (b < 0) return -1;
  if (b == nb) return v == cuarray_cast<C>(e[nb]) ? nb - 1 : -1;
  return b;
}
"""

# histogramdd: per dimension, searchsorted(edges, x, 'right') with values on the last edge
# moved inside; outliers dropped; the flat index of the bin in C order.
_BIN_DD = r"""
__device__ __forceinline__ long long _bin(const T* x, long long i, long long D, const double* e,
                                          const long long* eoff, int, double, double, double) {
  long long flat = 0;
  for (long long d = 0; d < D; ++d) {
    const double v = cuarray_cast<double>(x[i * D + d]);
    const double* ed = e + eoff[d];
    const long long ne = eoff[d + 1] - eoff[d];
    long long lo = 0, hi = ne;
    while (lo < hi) { const long long mid = (lo + hi) >> 1; if (cuarray_lt(v, ed[mid])) hi = mid; else lo = mid + 1; }
    if (v == ed[ne - 1]) --lo;
    if (lo <= 0 || lo >= ne) return -1;
    flat = flat * (ne - 1) + (lo - 1);
  }
  return flat;
}
"""

# bincount: the value is the bin.
_BIN_COUNT = r"""
__device__ __forceinline__ long long _bin(const T* x, long long i, long long, const double*,
                                          const long long*, int, double, double, double) {
  return (long long)x[i];
}
"""
_SMEM = 48 * 1024


def hist_source(binfn, xdt, wdt, nacc, shared, ncopy=1, match=True):
    """The histogram kernel with bin function `binfn`; wdt None: counts; ncopy shared
    histograms per block."""
    if wdt is None:
        acc, gacc = "unsigned int", "unsigned long long"
    else:
        acc = gacc = "double"
    if not shared:
        acc = gacc
    return (ORDER + QUANTILE + _HIST_SRC.replace("BINFN", binfn).replace("XT", _dt.ctype(xdt))
            .replace("WTT", _dt.ctype(wdt if wdt is not None else _f64)).replace("NACCV", str(nacc))
            .replace("SHAREDV", "1" if shared else "0").replace("HASWV", "0" if wdt is None else "1")
            .replace("NCOPYV", str(ncopy)).replace("MATCHV", "1" if match else "0")
            .replace("GACCT", gacc).replace("ACCT", acc))


def uniform_bin_source(edt, c1, c2, sdt, ddt):
    return (_BIN_UNIFORM.replace("ET", _dt.ctype(edt)).replace("C1T", _dt.ctype(c1))
            .replace("C2T", _dt.ctype(c2)).replace("ST", _dt.ctype(sdt)).replace("DT", _dt.ctype(ddt)))


def edges_bin_source(edt, cdt):
    return _BIN_EDGES.replace("ET", _dt.ctype(edt)).replace("CTT", _dt.ctype(cdt))


def _hist_launch(binfn, binkey, x, nbins, wts, weights_complex, stride_d=0, edges=None, eoff=None,
                 p=(0.0, 0.0, 0.0)):
    """Run the histogram kernel; returns the raw accumulator array (u64 counts, or float64
    sums, two per bin for complex weights)."""
    from cuarray._routines.creation import zeros
    nacc = 2 if weights_complex else 1
    smem = nbins * nacc * (4 if wts is None else 8)
    shared = smem <= _SMEM
    # Up to 8 copies (one per warp) cut contention between warps, within half the budget
    # so that blocks still fill the SMs.
    ncopy = max(1, min(8, (_SMEM // 2) // max(smem, 1))) if shared else 1
    smem *= ncopy
    out = zeros((nbins * nacc,), _u64 if wts is None else _f64)
    n = x.shape[0] if stride_d else x.size
    if n == 0 or nbins == 0:
        return out
    wdt = None if wts is None else wts.dtype
    # Warp aggregation (match_any) only for global atomics: with shared-memory copies it
    # cost more than it saved (H100, 2^26 uniform float32, 256 bins: 0.87 ms with it, 0.46
    # ms without; CuPy 0.72 ms).
    match = not shared
    fn = kernel(("hist", binkey, x.dtype.char, wdt and wdt.char, nacc, shared, ncopy, match), lambda: (
        hist_source(binfn, x.dtype, wdt, nacc, shared, ncopy, match), "cuarray_hist",
        ["P", "q", "q", "P", "P", "i", "d", "d", "d", "P", "P"]))
    # Full occupancy but no more: every block merges its histogram with global atomics.
    launch(fn, min(-(-n // 256), resident_blocks()), 256,
           [x._ptr, n, stride_d, 0 if edges is None else edges._ptr, 0 if eoff is None else eoff._ptr,
            nbins, p[0], p[1], p[2], 0 if wts is None else wts._ptr, out._ptr],
           shared=smem if shared else 0)
    return out


def _hist_result(raw, nbins, ntype):
    """The accumulators as NumPy's result dtype: int64 counts or the weights' dtype."""
    if ntype is None:
        return raw.view(_i64)
    if ntype.kind == "c":
        return raw.view(numpy.complex128).astype(ntype, copy=False) if ntype.itemsize != 16 else \
            raw.view(numpy.complex128)
    return raw if ntype == _f64 else raw.astype(ntype)


def _unsigned_subtract(a, b):
    """NumPy's histogram helper: a - b, unsigned for signed integers (no overflow)."""
    dt = numpy.result_type(a, b)
    signed_to_unsigned = {numpy.byte: numpy.ubyte, numpy.short: numpy.ushort, numpy.intc: numpy.uintc,
                          numpy.int_: numpy.uint, numpy.longlong: numpy.ulonglong}
    u = signed_to_unsigned.get(dt.type)
    if u is None:
        return numpy.subtract(a, b, dtype=dt)
    return numpy.subtract(numpy.asarray(a, dtype=dt), numpy.asarray(b, dtype=dt), casting="unsafe",
                          dtype=u)


def _minmax(a):
    """(min, max) of a non-empty device array as NumPy scalars (one synchronisation)."""
    from cuarray._core import _reductions as _r
    from cuarray._routines.creation import empty
    both = empty((2,), a.dtype)
    both[0:1] = _r.amin(a).reshape(1)
    both[1:2] = _r.amax(a).reshape(1)
    lo, hi = both.get()
    return lo, hi


def _outer_edges(a, range):
    if range is not None:
        first, last = range
        if first > last:
            raise ValueError("max must be larger than min in range parameter.")
        if not (numpy.isfinite(first) and numpy.isfinite(last)):
            raise ValueError(f"supplied range of [{first}, {last}] is not finite")
    elif a.size == 0:
        first, last = 0, 1
    else:
        first, last = _minmax(a)
        if not (numpy.isfinite(first) and numpy.isfinite(last)):
            raise ValueError(f"autodetected range of [{first}, {last}] is not finite")
    if first == last:
        first = first - 0.5
        last = last + 0.5
    return first, last


def _ravel_weights(a, weights, name):
    a = need(a, name)
    if a.dtype == _bool:
        warnings.warn(f"Converting input from {a.dtype} to {numpy.uint8} for compatibility.",
                      RuntimeWarning, stacklevel=3)
        a = a.astype(numpy.uint8)
    if a.dtype.kind == "c":
        raise TypeError(f"cuarray.{name} does not support complex input")
    if weights is not None:
        weights = need(weights, name)
        if weights.shape != a.shape:
            raise ValueError("weights should have the same shape as a.")
        weights = weights.reshape(-1)
        if not weights._c_contig:
            weights = weights.copy()
    a = a.reshape(-1)
    return (a if a._c_contig else a.copy()), weights


def _host_float(x):
    return float(x.item() if isinstance(x, ndarray) else x)


def _bin_width(name, a, range):
    """NumPy's bin-width estimators on device statistics read back to the host."""
    from cuarray._core import _reductions as _r
    n = a.size
    lo, hi = _minmax(a)
    ptp = _unsigned_subtract(hi, lo)
    if name == "sqrt":
        return ptp / numpy.sqrt(n)
    if name == "sturges":
        return ptp / (numpy.log2(n) + 1.0)
    if name == "rice":
        return ptp / (2.0 * n ** (1.0 / 3))
    if name == "scott":
        return (24.0 * numpy.pi ** 0.5 / n) ** (1.0 / 3.0) * _host_float(_r.std(a))
    if name == "fd":
        p75, p25 = percentile(a, [75, 25]).get()
        return 2.0 * numpy.subtract(p75, p25) * n ** (-1.0 / 3.0)
    if name == "auto":
        fd = _bin_width("fd", a, range)
        st = _bin_width("sturges", a, range)
        sq = _bin_width("sqrt", a, range)
        return min(max(fd, sq / 2), st)
    if name == "doane":
        if n > 2:
            sg1 = numpy.sqrt(6.0 * (n - 2) / ((n + 1.0) * (n + 3)))
            sigma = _host_float(_r.std(a))
            if sigma > 0.0:
                t = _uf("true_divide")(_uf("subtract")(a, _r.mean(a)), sigma)
                g1 = _host_float(_r.mean(_uf("power")(t, 3)))
                return ptp / (1.0 + numpy.log2(n) + numpy.log2(1.0 + numpy.absolute(g1) / sg1))
        return 0.0
    # stone: minimise the cross-validated integrated squared error over the bin count
    if n <= 1 or ptp == 0:
        return 0

    def jhat(nbins):
        hh = ptp / nbins
        p_k = _uf("true_divide")(histogram(a, bins=nbins, range=range)[0], n)
        return (2 - (n + 1) * _host_float(_r.sum(_uf("multiply")(p_k, p_k)))) / hh

    upper = max(100, int(numpy.sqrt(n)))
    nbins = min(builtins.range(1, upper + 1), key=jhat)
    if nbins == upper:
        warnings.warn("The number of bins estimated may be suboptimal.", RuntimeWarning, stacklevel=3)
    return ptp / nbins


_ESTIMATORS = ("stone", "auto", "doane", "fd", "rice", "scott", "sqrt", "sturges")


def _bin_edges(a, bins, range, weights):
    """(edges on the host or device, uniform (first, last, n) or None) as NumPy computes them."""
    from cuarray._core.transfer import asarray
    n_equal = None
    if isinstance(bins, ndarray) and bins.ndim == 0:
        bins = bins.item()
    if isinstance(bins, str):
        if bins not in _ESTIMATORS:
            raise ValueError(f"{bins!r} is not a valid estimator for `bins`")
        if weights is not None:
            raise TypeError("Automated estimation of the number of bins is not supported for "
                            "weighted data")
        first, last = _outer_edges(a, range)
        if range is not None:
            from cuarray._routines.sets import compact
            c1, c2 = _compare_dtype(a.dtype, first), _compare_dtype(a.dtype, last)
            keep = _uf("logical_and")(_uf("greater_equal")(a if c1 == a.dtype else a.astype(c1), first),
                                      _uf("less_equal")(a if c2 == a.dtype else a.astype(c2), last))
            a = compact(keep, [a])[0]
        if a.size == 0:
            n_equal = 1
        else:
            width = _bin_width(bins, a, range)
            if width:
                if a.dtype.kind in "iu" and width < 1:
                    width = 1
                n_equal = int(numpy.ceil(_unsigned_subtract(last, first) / width))
            else:
                n_equal = 1
    elif not isinstance(bins, ndarray) and numpy.ndim(bins) == 0:
        try:
            n_equal = operator.index(bins)
        except TypeError as e:
            raise TypeError("`bins` must be an integer, a string, or an array") from e
        if n_equal < 1:
            raise ValueError("`bins` must be positive, when an integer")
        first, last = _outer_edges(a, range)
    else:
        edges = bins if isinstance(bins, ndarray) else asarray(numpy.asarray(bins))
        if edges.ndim != 1:
            raise ValueError("`bins` must be 1d, when an array")
        if edges.size > 1 and bool((edges[:-1] > edges[1:]).any()):
            raise ValueError("`bins` must increase monotonically, when an array")
        return edges, None
    bin_type = numpy.result_type(first, last, numpy.empty(0, a.dtype))
    if bin_type.kind in "iu":
        bin_type = numpy.result_type(bin_type, float)
    host = numpy.linspace(first, last, n_equal + 1, endpoint=True, dtype=bin_type)
    if numpy.any(host[:-1] >= host[1:]):
        raise ValueError(f"Too many bins for data range. Cannot create {n_equal} finite-sized bins.")
    return asarray(host), (first, last, n_equal)


def _compare_dtype(dt, v):
    """The dtype NumPy compares an array of dtype dt with the scalar v in: its promotion, or
    float64 for a Python int outside an integer dtype (NumPy compares those exactly)."""
    if dt.kind in "biu" and type(v) is int:
        info = numpy.iinfo(dt) if dt.kind != "b" else numpy.iinfo(numpy.uint8)
        if not info.min <= v <= info.max:
            return _f64
    return numpy.result_type(numpy.empty(0, dt), v)


def _histogram_counts(a, edges, uniform, weights):
    """The histogram of 1-D contiguous `a` over `edges` (uniform as from _bin_edges)."""
    ntype = None if weights is None else weights.dtype
    nb = edges.size - 1
    cplx = ntype is not None and ntype.kind == "c"
    if uniform is not None:
        first, last, _ = uniform
        tmp = numpy.empty(0, edges.dtype)
        S = numpy.subtract(tmp, first).dtype
        denom = _unsigned_subtract(last, first)
        D = (numpy.empty(0, S) / denom).dtype
        C1, C2 = _compare_dtype(a.dtype, first), _compare_dtype(a.dtype, last)
        binfn = uniform_bin_source(edges.dtype, C1, C2, S, D)
        key = ("u", edges.dtype.char, C1.char, C2.char, S.char, D.char)
        p = (float(first), float(last), float(denom))
    else:
        C = _dt.check_dtype(numpy.result_type(a.dtype, edges.dtype))
        binfn = edges_bin_source(edges.dtype, C)
        key = ("e", edges.dtype.char, C.char)
        p = (0.0, 0.0, 0.0)
        if not edges._c_contig:
            edges = edges.copy()
    raw = _hist_launch(binfn, key, a, nb, weights, cplx, edges=edges, p=p)
    return _hist_result(raw, nb, ntype)


def histogram(a, bins=10, range=None, density=None, weights=None):
    """cuarray version of `numpy.histogram`. The data range (when `range` is None), array
    bins' monotonicity and string estimators read values back to the host, as in CuPy."""
    a, weights = _ravel_weights(a, weights, "histogram")
    edges, uniform = _bin_edges(a, bins, range, weights)
    n = _histogram_counts(a, edges, uniform, weights)
    if density:
        db = _uf("subtract")(edges[1:], edges[:-1]).astype(_f64)
        return _uf("true_divide")(_uf("true_divide")(n, db), _sum(n)), edges
    return n, edges


def _sum(x):
    from cuarray._core import _reductions as _r
    return _r.sum(x)


def histogram_bin_edges(a, bins=10, range=None, weights=None):
    """cuarray version of `numpy.histogram_bin_edges`."""
    a, weights = _ravel_weights(a, weights, "histogram_bin_edges")
    return _bin_edges(a, bins, range, weights)[0]


def histogramdd(sample, bins=10, range=None, density=None, weights=None):
    """cuarray version of `numpy.histogramdd` (float64 counts, as NumPy). Integer bins read
    each dimension's range back to the host, array bins their monotonicity."""
    from cuarray._core.transfer import asarray
    if isinstance(sample, ndarray):
        if sample.ndim == 1:
            sample = sample.reshape(-1, 1)
        if sample.ndim != 2:
            raise ValueError("sample must be a 2-D array or a sequence of 1-D arrays")
        cols = [sample[:, i] for i in builtins.range(sample.shape[1])]
    else:
        cols = [need(c, "histogramdd").reshape(-1) for c in sample]
        if len({c.size for c in cols}) > 1:
            raise ValueError("all the input array dimensions except for the concatenation axis must "
                             "match exactly")
    D = len(cols)
    N = cols[0].size if D else 0
    if weights is not None:
        weights = need(weights, "histogramdd").reshape(-1)
        if weights.size != N:
            raise ValueError("weights must have the same length as the sample")
    try:
        M = len(bins)
        if M != D:
            raise ValueError("The dimension of bins must be equal to the dimension of the sample x.")
    except TypeError:
        bins = D * [bins]
    if isinstance(bins, ndarray):
        bins = [bins[i] for i in builtins.range(D)]
    if range is None:
        range = (None,) * D
    elif len(range) != D:
        raise ValueError("range argument must have one entry per dimension")
    edges = []
    for i in builtins.range(D):
        b = bins[i]
        if isinstance(b, ndarray) and b.ndim == 0:
            b = b.item()
        if not isinstance(b, ndarray) and numpy.ndim(b) == 0:
            if b < 1:
                raise ValueError(f"`bins[{i}]` must be positive, when an integer")
            smin, smax = _outer_edges(cols[i], range[i])
            try:
                nb = operator.index(b)
            except TypeError as e:
                raise TypeError(f"`bins[{i}]` must be an integer, when a scalar") from e
            edges.append(asarray(numpy.linspace(smin, smax, nb + 1)))
        elif (b.ndim if isinstance(b, ndarray) else numpy.ndim(b)) == 1:
            e = b if isinstance(b, ndarray) else asarray(numpy.asarray(b))
            if e.size > 1 and bool((e[:-1] > e[1:]).any()):
                raise ValueError(f"`bins[{i}]` must be monotonically increasing, when an array")
            edges.append(e)
        else:
            raise ValueError(f"`bins[{i}]` must be a scalar or 1d array")
    nbin = [e.size - 1 for e in edges]
    total = 1
    for k in nbin:
        total *= k
    sdt = _dt.check_dtype(numpy.result_type(*[c.dtype for c in cols], numpy.float64)) if D else _f64
    if sdt.kind == "c":
        raise TypeError("cuarray.histogramdd does not support complex samples")
    smp = ndarray._alloc((N, D), sdt)
    for i, c in enumerate(cols):
        smp[:, i] = c
    ecat = ndarray._alloc((sum(e.size for e in edges),), _f64)
    offs = [0]
    for e in edges:
        ecat[offs[-1]:offs[-1] + e.size] = e
        offs.append(offs[-1] + e.size)
    eoff = asarray(numpy.array(offs, dtype=numpy.int64))
    wts = None
    cplx = False
    if weights is not None:
        cplx = weights.dtype.kind == "c"
        wts = weights if weights._c_contig else weights.copy()
    raw = _hist_launch(_BIN_DD, ("dd",), smp, total, wts, cplx, stride_d=D, edges=ecat, eoff=eoff)
    if cplx:
        hist = raw.view(numpy.complex128)
    else:
        hist = raw.astype(_f64) if wts is None else raw
    hist = hist.reshape(tuple(nbin))
    if density:
        s = _sum(hist)
        for i in builtins.range(D):
            shape = [1] * D
            shape[i] = nbin[i]
            de = _uf("subtract")(edges[i][1:], edges[i][:-1])
            hist = _uf("true_divide")(hist, de.reshape(shape))
        hist = _uf("true_divide")(hist, s)
    return hist, edges


def histogram2d(x, y, bins=10, range=None, density=None, weights=None):
    """cuarray version of `numpy.histogram2d`."""
    x, y = need(x, "histogram2d"), need(y, "histogram2d")
    if x.size != y.size:
        raise ValueError("x and y must have the same length.")
    try:
        N = len(bins)
    except TypeError:
        N = 1
    if N != 1 and N != 2:
        xedges = yedges = bins
        bins = [xedges, yedges]
    hist, edges = histogramdd([x, y], bins, range, density, weights)
    return hist, edges[0], edges[1]


def bincount(x, weights=None, minlength=0):
    """cuarray version of `numpy.bincount`; reads min and max of x back to the host (the
    output length depends on them), as CuPy does."""
    x = need(x, "bincount")
    if x.ndim > 1:
        raise ValueError("object too deep for desired array")
    if x.ndim == 0:
        raise ValueError("object of too small depth for desired array")
    if x.dtype.kind not in "biu" or not numpy.can_cast(x.dtype, numpy.intp, "safe"):
        raise TypeError(f"Cannot cast array data from {x.dtype!r} to dtype('int64') according to "
                        f"the rule 'safe'")
    minlength = operator.index(minlength)
    if minlength < 0:
        raise ValueError("'minlength' must not be negative")
    if weights is not None:
        weights = need(weights, "bincount").reshape(-1)
        if weights.size != x.size:
            raise ValueError("The weights and list don't have the same length.")
        if not numpy.can_cast(weights.dtype, numpy.float64, "safe"):
            raise TypeError(f"Cannot cast array data from {weights.dtype!r} to dtype('float64') "
                            f"according to the rule 'safe'")
    size = minlength
    if x.size:
        lo, hi = _minmax(x)
        if lo < 0:
            raise ValueError("'list' argument must have no negative elements")
        size = max(int(hi) + 1, minlength)
    xc = x if x._c_contig else x.copy()
    w = None if weights is None else (weights if weights._c_contig else weights.copy())
    raw = _hist_launch(_BIN_COUNT, ("count",), xc, size, w, False)
    return raw.view(_i64) if w is None else raw


def _digitize_op(ct, bdt, side_left):
    """o = searchsorted(bins, v, side), bins increasing or (read reversed) decreasing."""
    C = _dt.ctype(ct)
    at = "b[dec ? nb - 1 - mid : mid]"
    test = f"cuarray_lt(cuarray_cast<{C}>({at}), v)" if side_left else \
        f"!cuarray_lt(v, cuarray_cast<{C}>({at}))"
    return op(("digitize", ct.char, bdt.char, side_left), lambda: Op(
        "cuarray_digitize", [Param("v", "in", ct), Param("b", "raw", bdt), Param("o", "out", _i64)],
        "const long long nb = b.size(); "
        f"const bool dec = nb > 1 && cuarray_lt(cuarray_cast<{C}>(b[nb - 1]), cuarray_cast<{C}>(b[(long long)0])); "
        "long long lo = 0, hi = nb; "
        f"while (lo < hi) {{ const long long mid = (lo + hi) >> 1; if ({test}) lo = mid + 1; else hi = mid; }} "
        "o = dec ? nb - lo : lo;", preamble=ORDER))


def digitize(x, bins, right=False):
    """cuarray version of `numpy.digitize`; `bins` must be monotonic (not checked: that
    would read it back to the host)."""
    x, bins = need(x, "digitize"), need(bins, "digitize")
    if x.dtype.kind == "c":
        raise TypeError("x may not be complex")
    if bins.ndim != 1:
        raise ValueError("object too deep for desired array" if bins.ndim > 1 else
                         "object of too small depth for desired array")
    ct = _dt.check_dtype(numpy.result_type(x.dtype, bins.dtype))
    out = ndarray._alloc(x.shape, _i64)
    if out.size == 0:
        return out
    o = _digitize_op(ct, bins.dtype, bool(right))
    o.launch([x, bins, out])
    return out


__all__ = ["median", "nanmedian", "percentile", "nanpercentile", "quantile", "nanquantile",
           "average", "cov", "corrcoef", "correlate", "convolve", "histogram", "histogram_bin_edges",
           "histogram2d", "histogramdd", "bincount", "digitize"]
