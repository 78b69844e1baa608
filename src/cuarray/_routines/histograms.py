"""Histograms (NumPy reference: "Statistics", histograms): histogram, histogram_bin_edges,
histogram2d, histogramdd, bincount and digitize.

Samples are counted into per-block shared-memory histograms (a copy per group of warps)
merged into the global one with one atomic per non-empty bin; bin indices follow NumPy's
arithmetic, edge corrections included, so every sample lands in NumPy's bin.
"""
import builtins
import operator
import warnings

import numpy

from cuarray._core import dtypes as _dt
from cuarray._core.elementwise import Op, Param
from cuarray._core.ndarray import ndarray
from cuarray._core._kernel_helpers import kernel, launch, render, resident_blocks
from cuarray._core._routines_sorting import ORDER, need, op
from cuarray._routines.statistics import QUANTILE, _uf, percentile

_f64 = numpy.dtype(numpy.float64)
_i64 = numpy.dtype(numpy.int64)
_u64 = numpy.dtype(numpy.uint64)
_bool = numpy.dtype(numpy.bool_)


# ---- histograms ---------------------------------------------------------------------------------
_HIST_SRC = r"""
typedef ${XT} T;
typedef ${WTT} W;
#define NACC ${NACCV}
#define SHARED ${SHAREDV}
#define NCOPY ${NCOPYV}
#define HAS_W ${HASWV}
#define MATCH ${MATCHV}
${BINFN}
// Adds sample i to bin b (b < 0: no bin). Called by all 32 lanes of a warp together.
__device__ __forceinline__ void _acc(${ACCT}* h, long long b, const W* w, long long i, int lane) {
#if HAS_W
  if (b < 0) return;
#if NACC == 2
  const W wv = w[i];
  atomicAdd(&h[2 * b], (${ACCT})wv.re); atomicAdd(&h[2 * b + 1], (${ACCT})wv.im);
#else
  atomicAdd(&h[b], cuarray_cast<${ACCT}>(w[i]));
#endif
#elif MATCH
  // Counts: lanes of a warp that hit one bin add once (histograms of real data crowd bins).
  const unsigned peers = __match_any_sync(0xffffffffu, (int)b);
  if (b >= 0 && lane == __ffs(peers) - 1) atomicAdd(&h[b], (${ACCT})__popc(peers));
#else
  if (b >= 0) atomicAdd(&h[b], (${ACCT})1);
#endif
}
// One pass over the samples into per-block histograms in shared memory (NCOPY of them,
// one per group of warps, when they fit), merged into the global histogram with one
// atomic per non-empty bin.
extern "C" __global__ void cuarray_hist(const T* __restrict__ x, const long long n, const long long stride_d,
                                        const double* __restrict__ edges, const long long* __restrict__ eoff,
                                        const int nb, const double p0, const double p1, const double p2,
                                        const W* __restrict__ w, ${GACCT}* __restrict__ out) {
  const int lane = threadIdx.x & 31;
#if SHARED
  extern __shared__ unsigned char s_raw[];
  ${ACCT}* sh = (${ACCT}*)s_raw;
  const int nbt = nb * NACC;
  for (int b = threadIdx.x; b < nbt * NCOPY; b += blockDim.x) sh[b] = 0;
  __syncthreads();
  ${ACCT}* h = sh + ((threadIdx.x >> 5) % NCOPY) * nbt;
#else
  ${GACCT}* h = out;
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
    ${ACCT} c = 0;
    for (int k = 0; k < NCOPY; ++k) c += sh[k * nbt + b];
    if (c != 0) atomicAdd(&out[b], (${GACCT})c);
  }
#endif
}
"""

# NumPy's uniform-bin index (histogram's fast path): the estimate, then one-step corrections.
_BIN_UNIFORM = r"""
typedef ${ET} E; typedef ${C1T} C1; typedef ${C2T} C2; typedef ${ST} S; typedef ${DT} D;
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
typedef ${ET} E; typedef ${CTT} C;
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
    return ORDER + QUANTILE + render(
        _HIST_SRC, BINFN=binfn, XT=_dt.ctype(xdt), WTT=_dt.ctype(wdt if wdt is not None else _f64),
        NACCV=str(nacc), SHAREDV="1" if shared else "0", HASWV="0" if wdt is None else "1",
        NCOPYV=str(ncopy), MATCHV="1" if match else "0", GACCT=gacc, ACCT=acc)


def uniform_bin_source(edt, c1, c2, sdt, ddt):
    return render(_BIN_UNIFORM, ET=_dt.ctype(edt), C1T=_dt.ctype(c1), C2T=_dt.ctype(c2),
                  ST=_dt.ctype(sdt), DT=_dt.ctype(ddt))


def edges_bin_source(edt, cdt):
    return render(_BIN_EDGES, ET=_dt.ctype(edt), CTT=_dt.ctype(cdt))


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
    from cuarray._core import _reductions_stats as _rs
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
        return (24.0 * numpy.pi ** 0.5 / n) ** (1.0 / 3.0) * _host_float(_rs.std(a))
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
            sigma = _host_float(_rs.std(a))
            if sigma > 0.0:
                t = _uf("true_divide")(_uf("subtract")(a, _rs.mean(a)), sigma)
                g1 = _host_float(_rs.mean(_uf("power")(t, 3)))
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


__all__ = ["histogram", "histogram_bin_edges", "histogram2d", "histogramdd", "bincount", "digitize"]
