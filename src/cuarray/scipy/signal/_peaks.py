"""Peak finding (cuarray version of `scipy.signal.find_peaks`, `peak_prominences`,
`peak_widths`, `argrelmin`, `argrelmax`, `argrelextrema`).

Local maxima are flagged in parallel (a thread per rising edge scans its plateau);
`distance` replaces SciPy's sequential greedy pass by rounds in which every undecided
peak that outranks its undecided neighbours is kept and every neighbour of a kept peak is
dropped: with distinct priorities this keeps exactly the peaks the greedy pass keeps."""
import math

import numpy

import cuarray
from cuarray._core.host_policy import not_device_error
from cuarray._core.ndarray import ndarray
from cuarray.scipy.signal import _kernels as _k

__all__ = ["find_peaks", "peak_prominences", "peak_widths", "argrelmin", "argrelmax",
           "argrelextrema"]

_SRC = r"""
extern "C" __global__ void local_maxima(const double* x, unsigned char* flag,
                                        long long* right, long long n) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x) {
    unsigned char f = 0;
    if (i >= 1 && i < n - 1 && x[i - 1] < x[i]) {
      long long j = i + 1;
      while (j < n - 1 && x[j] == x[i]) ++j;
      if (x[j] < x[i]) { f = 1; right[i] = j - 1; }
    }
    flag[i] = f;
  }
}

// One round of the distance selection. state: 0 undecided, 1 kept, 2 dropped.
extern "C" __global__ void distance_round(const long long* peaks, const double* prio,
                                          const unsigned char* state, unsigned char* next,
                                          long long np, long long dist) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < np;
       i += (long long)gridDim.x * blockDim.x) {
    unsigned char s = state[i];
    if (s == 0) {
      bool best = true, near_kept = false;
      for (long long k = i - 1; k >= 0 && peaks[i] - peaks[k] < dist; --k) {
        if (state[k] == 1) near_kept = true;
        else if (state[k] == 0 && (prio[k] > prio[i] || (prio[k] == prio[i] && k > i)))
          best = false;
      }
      for (long long k = i + 1; k < np && peaks[k] - peaks[i] < dist; ++k) {
        if (state[k] == 1) near_kept = true;
        else if (state[k] == 0 && (prio[k] > prio[i] || (prio[k] == prio[i] && k > i)))
          best = false;
      }
      s = near_kept ? 2 : (best ? 1 : 0);
    }
    next[i] = s;
  }
}

extern "C" __global__ void prominences(const double* x, const long long* peaks, double* prom,
                                       long long* lb, long long* rb, long long n,
                                       long long np, long long wlen) {
  for (long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x; t < np;
       t += (long long)gridDim.x * blockDim.x) {
    const long long p = peaks[t];
    long long imin = 0, imax = n - 1;
    if (wlen >= 2) {
      imin = p - wlen / 2 > imin ? p - wlen / 2 : imin;
      imax = p + wlen / 2 < imax ? p + wlen / 2 : imax;
    }
    const double xp = x[p];
    long long i = p, left = p;
    double lmin = xp;
    while (imin <= i && x[i] <= xp) { if (x[i] < lmin) { lmin = x[i]; left = i; } --i; }
    i = p;
    long long right = p;
    double rmin = xp;
    while (i <= imax && x[i] <= xp) { if (x[i] < rmin) { rmin = x[i]; right = i; } ++i; }
    prom[t] = xp - (lmin > rmin ? lmin : rmin);
    lb[t] = left;
    rb[t] = right;
  }
}

extern "C" __global__ void widths(const double* x, const long long* peaks, const double* prom,
                                  const long long* lb, const long long* rb, double rel,
                                  double* w, double* wh, double* lip, double* rip,
                                  long long np) {
  for (long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x; t < np;
       t += (long long)gridDim.x * blockDim.x) {
    const long long p = peaks[t], i_min = lb[t], i_max = rb[t];
    // SciPy rounds the product on its own; a fused x - prom * rel moves widths off 1.0 or 3.0.
    const double h = x[p] - cuarray_mul_rn(prom[t], rel);
    long long i = p;
    while (i_min < i && h < x[i]) --i;
    double left = (double)i;
    // SciPy 1.18 skips the interpolation across a flat step (user prominence data).
    if (x[i] < h && x[i + 1] != x[i]) left += (h - x[i]) / (x[i + 1] - x[i]);
    i = p;
    while (i < i_max && h < x[i]) ++i;
    double right = (double)i;
    if (x[i] < h && x[i - 1] != x[i]) right -= (h - x[i]) / (x[i - 1] - x[i]);
    w[t] = right - left;
    wh[t] = h;
    lip[t] = left;
    rip[t] = right;
  }
}
"""


def _kern(name):
    return _k.kernel(_SRC, name)


def _as_x(x):
    if not isinstance(x, ndarray):
        raise TypeError("cuarray.scipy.signal peak functions take a cuarray array x")
    if x.ndim != 1:
        raise ValueError(f"`x` must be a 1-D array but is of shape {x.shape}")
    return cuarray.ascontiguousarray(x.astype(numpy.float64, copy=False))


def _as_peaks(peaks, n):
    if not isinstance(peaks, ndarray):
        peaks = cuarray.asarray(numpy.asarray(peaks))
    if peaks.size == 0:
        return cuarray.zeros(0, numpy.int64)
    if peaks.ndim != 1:
        raise ValueError(f"`peaks` must be a 1-D array but is of shape {peaks.shape}")
    if peaks.dtype.kind not in "iu":
        raise TypeError("cannot safely cast `peaks` to dtype('intp')")
    peaks = cuarray.ascontiguousarray(peaks.astype(numpy.int64, copy=False))
    if bool(cuarray.any((peaks < 0) | (peaks >= n))):
        raise ValueError("peak is not a valid index for `x`")
    return peaks


def _wlen(wlen):
    if wlen is None:
        return -1
    if 1 < wlen:
        return int(math.ceil(wlen))
    raise ValueError(f"`wlen` must be larger than 1, was {wlen}")


def _local_maxima(x):
    n = x.size
    flag = cuarray.empty(n, numpy.uint8)
    right = cuarray.empty(n, numpy.int64)
    _k.launch(_kern("local_maxima"), n, (x, flag, right, n))
    left = cuarray.flatnonzero(flag).astype(numpy.int64)
    right = right[left]
    return (left + right) // 2, left, right


def _prominences(x, peaks, wlen):
    np_ = peaks.size
    prom = cuarray.empty(np_, numpy.float64)
    lb = cuarray.empty(np_, numpy.int64)
    rb = cuarray.empty(np_, numpy.int64)
    _k.launch(_kern("prominences"), np_, (x, peaks, prom, lb, rb, x.size, np_, wlen))
    return prom, lb, rb


def peak_prominences(x, peaks, wlen=None):
    """cuarray version of `scipy.signal.peak_prominences` (no PeakPropertyWarning)."""
    x = _as_x(x)
    peaks = _as_peaks(peaks, x.size)
    return _prominences(x, peaks, _wlen(wlen))


def _widths(x, peaks, rel_height, prom, lb, rb):
    if rel_height < 0:
        raise ValueError("`rel_height` must be greater or equal to 0.0")
    np_ = peaks.size
    out = [cuarray.empty(np_, numpy.float64) for _ in range(4)]
    _k.launch(_kern("widths"), np_, (x, peaks, prom, lb, rb, float(rel_height), *out, np_))
    return tuple(out)


def peak_widths(x, peaks, rel_height=0.5, prominence_data=None, wlen=None):
    """cuarray version of `scipy.signal.peak_widths` (no PeakPropertyWarning)."""
    x = _as_x(x)
    peaks = _as_peaks(peaks, x.size)
    if prominence_data is None:
        prominence_data = _prominences(x, peaks, _wlen(wlen))
    prom, lb, rb = prominence_data
    prom = cuarray.asarray(prom).astype(numpy.float64)
    lb = cuarray.asarray(lb).astype(numpy.int64)
    rb = cuarray.asarray(rb).astype(numpy.int64)
    if not (prom.shape == lb.shape == rb.shape == peaks.shape):
        raise ValueError("arrays in `prominence_data` must have the same shape as `peaks`")
    return _widths(x, peaks, rel_height, prom, lb, rb)


def _unpack(interval, x, peaks):
    try:
        imin, imax = interval
    except (TypeError, ValueError):
        imin, imax = interval, None
    if isinstance(imin, (ndarray, numpy.ndarray)):
        if imin.size != x.size:
            raise ValueError("array size of lower interval border must match x")
        imin = cuarray.asarray(imin)[peaks]
    if isinstance(imax, (ndarray, numpy.ndarray)):
        if imax.size != x.size:
            raise ValueError("array size of upper interval border must match x")
        imax = cuarray.asarray(imax)[peaks]
    return imin, imax


def _keep_mask(values, pmin, pmax):
    keep = cuarray.ones(values.shape, dtype=bool)
    if pmin is not None:
        keep &= pmin <= values
    if pmax is not None:
        keep &= values <= pmax
    return keep


def _select(peaks, props, keep):
    idx = cuarray.flatnonzero(keep)
    return peaks[idx], {k: v[idx] for k, v in props.items()}


def _select_by_distance(peaks, prio, distance):
    np_ = peaks.size
    state = cuarray.zeros(np_, numpy.uint8)
    nxt = cuarray.empty(np_, numpy.uint8)
    kern = _kern("distance_round")
    while True:
        _k.launch(kern, np_, (peaks, prio, state, nxt, np_, distance))
        state, nxt = nxt, state
        if not bool(cuarray.any(state == 0)):
            return state == 1


def find_peaks(x, height=None, threshold=None, distance=None, prominence=None, width=None,
               wlen=None, rel_height=0.5, plateau_size=None):
    """cuarray version of `scipy.signal.find_peaks` (synchronises to size its results;
    no PeakPropertyWarning)."""
    x = _as_x(x)
    if distance is not None and distance < 1:
        raise ValueError("`distance` must be greater or equal to 1")
    peaks, left_edges, right_edges = _local_maxima(x)
    props = {}
    if plateau_size is not None:
        sizes = right_edges - left_edges + 1
        pmin, pmax = _unpack(plateau_size, x, peaks)
        props.update(plateau_sizes=sizes, left_edges=left_edges, right_edges=right_edges)
        peaks, props = _select(peaks, props, _keep_mask(sizes, pmin, pmax))
    if height is not None:
        heights = x[peaks]
        hmin, hmax = _unpack(height, x, peaks)
        props["peak_heights"] = heights
        peaks, props = _select(peaks, props, _keep_mask(heights, hmin, hmax))
    if threshold is not None:
        tmin, tmax = _unpack(threshold, x, peaks)
        xp = x[peaks]
        lt = xp - x[peaks - 1]
        rt = xp - x[peaks + 1]
        keep = cuarray.ones(peaks.shape, dtype=bool)
        if tmin is not None:
            keep &= tmin <= cuarray.minimum(lt, rt)
        if tmax is not None:
            keep &= cuarray.maximum(lt, rt) <= tmax
        props.update(left_thresholds=lt, right_thresholds=rt)
        peaks, props = _select(peaks, props, keep)
    if distance is not None and peaks.size:
        keep = _select_by_distance(peaks, cuarray.ascontiguousarray(x[peaks]),
                                   int(math.ceil(distance)))
        peaks, props = _select(peaks, props, keep)
    if prominence is not None or width is not None:
        prom, lb, rb = _prominences(x, peaks, _wlen(wlen))
        props.update(prominences=prom, left_bases=lb, right_bases=rb)
    if prominence is not None:
        pmin, pmax = _unpack(prominence, x, peaks)
        peaks, props = _select(peaks, props, _keep_mask(props["prominences"], pmin, pmax))
    if width is not None:
        w, wh, lip, rip = _widths(x, peaks, rel_height, props["prominences"],
                                  props["left_bases"], props["right_bases"])
        props.update(widths=w, width_heights=wh, left_ips=lip, right_ips=rip)
        wmin, wmax = _unpack(width, x, peaks)
        peaks, props = _select(peaks, props, _keep_mask(w, wmin, wmax))
    return peaks, props


def _boolrelextrema(data, comparator, axis=0, order=1, mode="clip"):
    if int(order) != order or order < 1:
        raise ValueError("Order must be an int >= 1")
    n = data.shape[axis]
    locs = cuarray.arange(0, n)
    results = cuarray.ones(data.shape, dtype=bool)
    main = data
    for shift in range(1, int(order) + 1):
        plus = cuarray.take(data, locs + shift, axis=axis, mode=mode)
        minus = cuarray.take(data, locs - shift, axis=axis, mode=mode)
        results &= comparator(main, plus)
        results &= comparator(main, minus)
    return results


def argrelextrema(data, comparator, axis=0, order=1, mode="clip"):
    """cuarray version of `scipy.signal.argrelextrema` (`comparator` is applied to cuarray
    arrays: NumPy's comparison ufuncs dispatch to cuarray)."""
    if not isinstance(data, ndarray):
        raise not_device_error("argrelextrema", data, "cuarray.scipy.signal.")
    return cuarray.nonzero(_boolrelextrema(data, comparator, axis, order, mode))


def argrelmax(data, axis=0, order=1, mode="clip"):
    """cuarray version of `scipy.signal.argrelmax`."""
    return argrelextrema(data, numpy.greater, axis, order, mode)


def argrelmin(data, axis=0, order=1, mode="clip"):
    """cuarray version of `scipy.signal.argrelmin`."""
    return argrelextrema(data, numpy.less, axis, order, mode)
