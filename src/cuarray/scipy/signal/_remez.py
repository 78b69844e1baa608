"""Minimax FIR design by the Remez exchange algorithm (cuarray version of
`scipy.signal.remez`, the Parks-McClellan design).

The dense frequency grid is laid out as SciPy lays it out (its points follow from the band
edges, the number of taps and the grid density alone). Each iteration runs on the device:
barycentric weights of the extremal set (in logarithms, so that long filters neither
overflow nor underflow), the levelled deviation, the weighted error on the whole grid, and
the new extremal set chosen by one thread (local extrema, alternation, trimming to the
set's size). The host reads one flag per iteration: whether the set changed. A converged
design is the grid's unique minimax solution, so it agrees with SciPy's; when maxiter
stops the exchange first, the designs may differ (the exchange rules are not SciPy's)."""
import math

import numpy

import cuarray
from cuarray._core.ndarray import ndarray
from cuarray.scipy.signal import _kernels as _k

__all__ = ["remez"]

_TYPES = {"bandpass": 1, "differentiator": 2, "hilbert": 3}

_SRC = r"""
// One thread: the next extremal set from the weighted error E on the grid. Local extrema
// (ends included) of alternating sign, the larger of each same-sign run kept, then the
// smaller end dropped until nz remain. status[0]: the set changed; status[1]: too few
// extrema (the old set is kept).
extern "C" __global__ void remez_select(const double* E, const long long* band, long long n,
                                        long long nz, const double* dev, long long* ext,
                                        long long* found, long long* status) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  long long k = 0, next_old = 0;
  // the error reaches the deviation at the current set up to rounding: those points stay
  // candidates whatever that rounding
  const double level = fabs(dev[0]) * (1.0 - 1e-8);
  for (long long i = 0; i < n; ++i) {
    const double e = E[i];
    // the ends of a band count as beaten: its edges are candidates
    const bool up = e > 0, down = e < 0;
    const bool left = i == 0 || band[i - 1] != band[i] || (up ? e >= E[i - 1] : e <= E[i - 1]);
    const bool right = i + 1 == n || band[i + 1] != band[i] ||
                       (up ? e > E[i + 1] : e < E[i + 1]);
    const bool old = next_old < nz && ext[next_old] == i;
    if (old) ++next_old;
    const bool peak = (up || down) && left && right && (old || fabs(e) >= level);
    if (!peak) continue;
    if (k > 0 && ((E[found[k - 1]] > 0) == (e > 0))) {
      if (fabs(e) > fabs(E[found[k - 1]])) found[k - 1] = i;
    } else {
      found[k++] = i;
    }
  }
  long long lo = 0, hi = k;
  while (hi - lo > nz) {
    if (fabs(E[found[lo]]) < fabs(E[found[hi - 1]])) ++lo; else --hi;
  }
  if (hi - lo < nz) {
    status[0] = 0;
    status[1] = 1;
    return;
  }
  long long changed = 0;
  for (long long j = 0; j < nz; ++j) {
    if (ext[j] != found[lo + j]) changed = 1;
    ext[j] = found[lo + j];
  }
  status[0] = changed;
  status[1] = 0;
}
"""


def _host(v, name):
    v = cuarray.asnumpy(v) if isinstance(v, ndarray) else v
    try:
        return numpy.asarray(v, dtype=numpy.float64)
    except ValueError as e:
        raise ValueError(f"{name}: {e}") from e


def _grid(edges, nfcns, density, neg, nodd):
    """SciPy's dense grid: per band, points delf apart from the lower edge whose last point
    is moved onto the upper edge; (grid, band index of each point)."""
    delf = 0.5 / (density * nfcns)
    pts, band = [], []
    start = edges[0]
    if neg and start < delf:
        start = delf
    for b in range(edges.shape[0] // 2):
        fup = edges[2 * b + 1]
        f = edges[2 * b] if b else start
        run = [f]
        f = f + delf
        while f <= fup:
            run.append(f)
            f = f + delf
        run[-1] = fup
        pts += run
        band += [b] * len(run)
    if neg == nodd and pts[-1] > 0.5 - delf:
        pts.pop()
        band.pop()
    return numpy.asarray(pts), numpy.asarray(band, numpy.int64)


def _bary(x, xe):
    """Barycentric weights of the nodes xe, scaled by their largest magnitude: sign and
    exp(-sum log|xe_k - xe_j|)."""
    d = xe[:, None] - xe[None, :]
    n = xe.shape[0]
    eye = cuarray.eye(n, dtype=bool)
    d = cuarray.where(eye, 1.0, d)
    logs = -cuarray.sum(cuarray.log(cuarray.abs(d)), axis=1)
    neg = cuarray.sum((d < 0).astype(numpy.int64), axis=1)
    sign = 1.0 - 2.0 * (neg % 2)
    return sign * cuarray.exp(logs - cuarray.max(logs))


def _interp(xe, ye, w, x):
    """The polynomial through (xe, ye) with barycentric weights w, at the points x."""
    d = x[:, None] - xe[None, :]
    hit = d == 0
    t = w[None, :] / cuarray.where(hit, 1.0, d)
    p = cuarray.sum(t * ye[None, :], axis=1) / cuarray.sum(t, axis=1)
    exact = cuarray.any(hit, axis=1)
    at = cuarray.argmax(hit, axis=1)
    return cuarray.where(exact, ye[at], p)


def _level(x, des, wt, ext, nfcns):
    """The polynomial levelling the weighted error at the extremal set: its nodes, values
    and weights (the first nfcns extremal points) and the signed deviation."""
    xe, de, we = x[ext], des[ext], wt[ext]
    w = _bary(x, xe)
    s = cuarray.asarray(numpy.where(numpy.arange(ext.shape[0]) % 2, -1.0, 1.0))
    dev = cuarray.sum(w * de) / cuarray.sum(w * s / we)
    ye = de - s * dev / we
    # weights of the first nfcns nodes alone: drop the factor of the last node
    wsub = w[:nfcns] * (xe[:nfcns] - xe[nfcns])
    return xe[:nfcns], ye[:nfcns], wsub, dev


def remez(numtaps, bands, desired, *, weight=None, type="bandpass", maxiter=25,
          grid_density=16, fs=None):
    """cuarray version of `scipy.signal.remez`. Synchronises once per iteration."""
    from cuarray.scipy.signal._fir_design import _fs
    bands = _host(bands, "bands")
    desired = _host(desired, "desired")
    if fs is not None:
        fs = _fs(fs)
    fs = 1.0 if fs is None else fs
    if type not in _TYPES:
        raise ValueError("Type must be 'bandpass', 'differentiator', or 'hilbert'")
    weight = numpy.ones(desired.shape) if weight is None else _host(weight, "weight")
    if bands.ndim > 1 or desired.ndim > 1 or weight.ndim > 1:
        raise ValueError("object too deep for desired array")
    numtaps = int(numtaps)
    if numtaps < 2:
        raise ValueError("The number of taps must be greater than 1.")
    if bands.shape[0] != 2 * desired.shape[0] or weight.shape[0] != desired.shape[0]:
        raise ValueError("The inputs desired and weight must have same length.\n  The input "
                         "bands must have twice this length.")
    edges = bands / fs
    if edges.size == 0 or edges[0] < 0 or numpy.any(numpy.diff(edges) < 0):
        raise ValueError("Bands must be monotonic starting at zero.")
    if numpy.any(edges > 0.5):
        raise ValueError("Band edges should be less than 1/2 the sampling frequency")
    if int(grid_density) < 1:
        raise ValueError("Failure to converge at iteration -1, try reducing transition band "
                         "width.\n")
    jtype = _TYPES[type]
    neg = 0 if jtype == 1 else 1
    nodd = numtaps % 2
    nfcns = numtaps // 2 + (1 if nodd and not neg else 0)
    grid_h, band_h = _grid(edges, nfcns, int(grid_density), neg, nodd)
    grid = cuarray.asarray(grid_h)
    band = cuarray.asarray(band_h)
    fx = cuarray.asarray(desired)[band]
    wx = cuarray.asarray(weight)[band]
    if jtype == 2:
        des = fx * grid
        wt = cuarray.where(fx >= 0.0001, wx / grid, wx)
    else:
        des = fx
        wt = wx
    # the equivalent problem for the cosine series P(f) = sum_k a_k cos(2 pi k f)
    if neg == 0 and nodd == 0:
        change = cuarray.cos(math.pi * grid)
    elif neg and nodd == 0:
        change = cuarray.sin(math.pi * grid)
    elif neg:
        change = cuarray.sin(2 * math.pi * grid)
    else:
        change = None
    if change is not None:
        des = des / change
        wt = wt * change
    ngrid = grid_h.shape[0]
    nz = nfcns + 1
    if ngrid < nz:
        raise ValueError("Failure to converge at iteration 0, try reducing transition band "
                         "width.\n")
    step = (ngrid - 1) / nfcns
    ext_h = [int(j * step) for j in range(nfcns)] + [ngrid - 1]
    ext = cuarray.asarray(numpy.asarray(ext_h, numpy.int64))
    x = cuarray.cos(2 * math.pi * grid)
    found = cuarray.empty(ngrid, numpy.int64)
    status = cuarray.zeros(2, numpy.int64)
    kern = _k.kernel(_SRC, "remez_select")
    for _ in range(int(maxiter)):
        xe, ye, w, dev = _level(x, des, wt, ext, nfcns)
        E = cuarray.ascontiguousarray(wt * (des - _interp(xe, ye, w, x)))
        kern((1,), (1,), (E, band, ngrid, nz, dev.reshape(1), ext, found, status))
        changed, stuck = (int(v) for v in status.get())
        if not changed or stuck:
            break
    xe, ye, w, _ = _level(x, des, wt, ext, nfcns)
    # cosine coefficients of P from its values at 2 nfcns - 1 equally spaced frequencies
    M = 2 * nfcns - 1
    j = cuarray.arange(M, dtype=numpy.float64)
    vals = _interp(xe, ye, w, cuarray.cos(2 * math.pi * j / M))
    kk = cuarray.arange(nfcns, dtype=numpy.float64)
    a = (cuarray.cos(2 * math.pi * kk[:, None] * j[None, :] / M) @ vals) * (2.0 / M)
    a[0] = a[0] / 2
    return _taps(a, numtaps, nfcns, neg, nodd)


def _taps(a, numtaps, nfcns, neg, nodd):
    """The impulse response from P's cosine coefficients a_0 .. a_{nfcns-1}: c[m] is the
    coefficient of the m-th (half-)integer frequency of H, half of it a tap either side of
    the centre (negated on the right for the odd symmetries)."""
    nxt = cuarray.concatenate([a[1:], cuarray.zeros(2, a.dtype)])  # a_{m+1}, zero past the end
    if not neg and nodd:     # H = P
        half = cuarray.concatenate([a[:1] * 2, a[1:]]) / 2
    elif not neg:            # H = cos(pi f) P
        half = (a + nxt[:nfcns]) / 4
        half[0] = a[0] / 2 + nxt[0] / 4
    elif nodd:               # H = sin(2 pi f) P
        nxt2 = cuarray.concatenate([a[2:], cuarray.zeros(2, a.dtype)])[:nfcns]
        half = (a - nxt2) / 4
        half[0] = a[0] / 2 - nxt2[0] / 4
    else:                    # H = sin(pi f) P
        half = (a - nxt[:nfcns]) / 4
        half[0] = a[0] / 2 - nxt[0] / 4
    left = half[::-1]
    h = cuarray.zeros(numtaps, numpy.float64)
    if not neg and nodd:
        h[:nfcns] = left
        h[nfcns - 1:] = half
    elif not neg:
        h[:nfcns] = left
        h[nfcns:] = half
    elif nodd:
        h[:nfcns] = left
        h[nfcns + 1:] = -half
    else:
        h[:nfcns] = left
        h[nfcns:] = -half
    return h
