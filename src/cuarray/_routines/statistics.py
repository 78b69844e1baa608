"""Statistics (NumPy reference: "Statistics"): order statistics (median, percentile,
quantile and their nan forms), averages (average) and correlating (cov, corrcoef,
correlate, convolve). Histograms are in histograms.py.

Quantiles follow NumPy's `_QuantileMethods` exactly: positions are computed on the
device in IEEE double without contraction, so discrete methods pick the same elements.
A full reduction of a long array selects its order statistics with a radix select
(four passes over float32 data instead of a sort); anything else sorts along the axis.
"""
import warnings

import numpy

from cuarray._core import _copy
from cuarray._core import dtypes as _dt
from cuarray._core.elementwise import Op, Param
from cuarray._core.ndarray import ndarray
from cuarray._core.shapes import normalize_axes
from cuarray._core import _routines_linalg as _linalg
from cuarray._core import _routines_sorting as _s
from cuarray._core._kernel_helpers import kernel, launch, render, resident_blocks
from cuarray._core._routines_sorting import ORDER, need, op

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
typedef ${XT} T;
typedef ${OT} OUT;
typedef ${MTT} MT;
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
typedef ${XT} T;
typedef ${KT} K;
typedef ${OT} OUT;
typedef ${MTT} MT;
#define BITS ${KBITS}
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
    return ORDER + QUANTILE + render(_QSORTED, XT=_dt.ctype(dt), MTT=_dt.ctype(_mt(dt)),
                                     OT=_dt.ctype(out_dt))


def _qsorted_fn(dt, out_dt):
    return kernel(("qsorted", dt.char, out_dt.char), lambda: (
        qsorted_source(dt, out_dt), "cuarray_quantile_sorted",
        ["P", "q", "q", "P", "q", "i", "d", "d", "i", "P", "P"]))


def qselect_source(dt, out_dt):
    kdt = _s._UNSIGNED[dt.itemsize]
    return ORDER + QUANTILE + render(_QSELECT, XT=_dt.ctype(dt), KT=_dt.ctype(kdt),
                                     OT=_dt.ctype(out_dt), MTT=_dt.ctype(_mt(dt)),
                                     KBITS=str(dt.itemsize * 8))


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
    n = v2.shape[1]
    if n == 0 and not nanmode:
        raise IndexError("index -1 is out of bounds for axis 0 with size 0")
    qd = asarray(numpy.ascontiguousarray(qh, dtype=numpy.float64).reshape(-1))
    res = _order_stat(v2, qd, mid, nanmode, out_dt, weights, a, axis)
    shape = qh.shape + (kd if keepdims else kshape)
    return _copy.into_out(res.reshape(shape), out, name)


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


def _median(name, a, axis, out, keepdims, nanmode):
    from cuarray._core.transfer import asarray
    a = need(a, name)
    out_dt = _result_dtype("median", a.dtype, None, None)
    v2, kshape, kd = _reduced(a, axis)
    res = _order_stat(v2, asarray(numpy.array([0.5])), _MEDIAN, nanmode and a.dtype.kind in "fc", out_dt)
    return _copy.into_out(res.reshape(kd if keepdims else kshape), out, name)


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
    from cuarray._core.host_policy import array_like
    a = array_like(a, "average")  # array_like, as CuPy's
    axt = None if axis is None else normalize_axes(axis, a.ndim)
    if weights is None:
        from cuarray._core._reductions_stats import mean
        avg = mean(a, axt, keepdims=keepdims)
        if returned:
            scl = avg.dtype.type(a.size / avg.size) if avg.size else avg.dtype.type(0)
            return avg, full(avg.shape, scl, avg.dtype)
        return avg
    wgt = _weights_valid(array_like(weights, "average"), a, axt, "average")
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


def _cov_weights(w, kind, n):
    """cov's `fweights` or `aweights` as float64, checked as NumPy checks them."""
    w = need(w, "cov").astype(_f64)
    if kind == "fweights" and not bool((w == _uf("rint")(w)).all()):
        raise TypeError("fweights must be integer")
    if w.ndim > 1:
        raise RuntimeError(f"cannot handle multidimensional {kind}")
    if w.shape[0] != n:
        raise RuntimeError(f"incompatible numbers of samples and {kind}")
    if bool((w < 0).any()):
        raise ValueError(f"{kind} cannot be negative")
    return w


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *,
        dtype=None):
    """cuarray version of `numpy.cov`; weights are checked on the host (a synchronisation),
    as in NumPy and CuPy."""
    from cuarray._core import _reductions as _r
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
        w = _cov_weights(fweights, "fweights", X.shape[1])
    aw = None
    if aweights is not None:
        aw = _cov_weights(aweights, "aweights", X.shape[1])
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
    c = _linalg.dot(X, _uf("conjugate")(XT) if XT.dtype.kind == "c" else XT)
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


__all__ = ["median", "nanmedian", "percentile", "nanpercentile", "quantile", "nanquantile",
           "average", "cov", "corrcoef", "correlate", "convolve"]
