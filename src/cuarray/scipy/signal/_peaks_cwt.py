"""Peak finding by wavelet ridge lines (cuarray version of `scipy.signal.find_peaks_cwt`).

The wavelet transform and the local maxima of each row are device arrays. Ridge lines
are followed from the coarsest row with a maximum down to the finest, each maximum joining
the nearest line of the row above: SciPy's greedy, order-dependent tracking, run by one
block (one thread keeps the lines, the block searches the nearest one). The noise floor
and the SNR test of the lines are batched over all lines."""
import math

import numpy

import cuarray
from cuarray._core.host_policy import not_device_error
from cuarray._core.ndarray import ndarray
from cuarray.scipy.signal import _kernels as _k

__all__ = ["find_peaks_cwt"]

RIDGE_THREADS = 32  # one warp searches the lines of the row above

_SRC = r"""
// One block. flags: rows x cols relative maxima. Lines are kept in `active` (SciPy's list
// order); each has a point count, its last (row, col) and its gap. Finished lines go to
// `done` in the order SciPy finishes them; the still active ones follow. Thread 0 keeps
// the books; for each maximum the block finds the nearest line of the row above (the
// first of equals, as argmin) by a strided scan and a tree reduction.
#define RIDGE_THREADS {NT}
extern "C" __global__ void __launch_bounds__(RIDGE_THREADS)
ridge_lines(const unsigned char* flags, long long rows, long long cols, const double* max_dist,
            double gap_thresh, long long* count, long long* last_row, long long* last_col,
            long long* gap, long long* active, long long* prev, long long* done,
            long long* n_out) {
  __shared__ long long sd[RIDGE_THREADS];
  __shared__ long long sk[RIDGE_THREADS];
  __shared__ long long s_start, s_nprev;
  const int t = threadIdx.x;
  long long nlines = 0, nactive = 0, ndone = 0;  // thread 0's books
  if (t == 0) {
    long long start = -1;
    for (long long r = rows - 1; r >= 0 && start < 0; --r)
      for (long long c = 0; c < cols; ++c)
        if (flags[r * cols + c]) { start = r; break; }
    if (start >= 0)
      for (long long c = 0; c < cols; ++c) {
        if (!flags[start * cols + c]) continue;
        count[nlines] = 1; last_row[nlines] = start; last_col[nlines] = c; gap[nlines] = 0;
        active[nactive++] = nlines++;
      }
    s_start = start;
  }
  __syncthreads();
  const long long start = s_start;
  for (long long r = start - 1; r >= 0; --r) {
    if (t == 0) {
      for (long long k = 0; k < nactive; ++k) {
        gap[active[k]] += 1;
        prev[k] = last_col[active[k]];
      }
      s_nprev = nactive;
    }
    __syncthreads();
    const long long nprev = s_nprev;
    for (long long c = 0; c < cols; ++c) {
      if (!flags[r * cols + c]) continue;
      long long bd = 0, bk = -1;
      for (long long k = t; k < nprev; k += RIDGE_THREADS) {
        const long long d = c > prev[k] ? c - prev[k] : prev[k] - c;
        if (bk < 0 || d < bd) { bd = d; bk = k; }
      }
      sd[t] = bd;
      sk[t] = bk;
      __syncthreads();
      for (int h = RIDGE_THREADS / 2; h > 0; h >>= 1) {
        if (t < h) {
          const long long k2 = sk[t + h], d2 = sd[t + h];
          if (k2 >= 0 && (sk[t] < 0 || d2 < sd[t] || (d2 == sd[t] && k2 < sk[t]))) {
            sk[t] = k2;
            sd[t] = d2;
          }
        }
        __syncthreads();
      }
      if (t == 0) {
        const long long best = sk[0];
        if (best >= 0 && (double)sd[0] <= max_dist[r]) {
          const long long l = active[best];
          count[l] += 1; last_row[l] = r; last_col[l] = c; gap[l] = 0;
        } else {
          count[nlines] = 1; last_row[nlines] = r; last_col[nlines] = c; gap[nlines] = 0;
          active[nactive++] = nlines++;
        }
      }
      __syncthreads();
    }
    if (t == 0)
      for (long long k = nactive - 1; k >= 0; --k) {
        const long long l = active[k];
        if ((double)gap[l] > gap_thresh) {
          done[ndone++] = l;
          for (long long j = k; j + 1 < nactive; ++j) active[j] = active[j + 1];
          --nactive;
        }
      }
    __syncthreads();
  }
  if (t == 0) {
    for (long long k = 0; k < nactive; ++k) done[ndone + k] = active[k];
    n_out[0] = ndone + nactive;
  }
}
"""


def _cwt(vector, wavelet, widths):
    """SciPy's private _cwt: one 'same' convolution per width with the reversed conjugate
    wavelet of min(10 width, len(vector)) points."""
    from cuarray.scipy.signal._convolution import convolve
    n = vector.shape[0]
    rows = []
    for width in widths:
        w = wavelet(numpy.min([10 * width, n]), width)
        w = w if isinstance(w, ndarray) else cuarray.asarray(numpy.asarray(w))
        rows.append(convolve(vector, cuarray.conj(w[::-1]), mode="same"))
    dt = numpy.complex128 if any(r.dtype.kind == "c" for r in rows) else numpy.float64
    return cuarray.stack([r.astype(dt, copy=False) for r in rows])


def _percentiles(row, centers, hf, odd, per):
    """scoreatpercentile(row[max(c - hf, 0):min(c + hf + odd, n)], per) for each centre,
    by one sort of the (lines, window) gather padded with +inf."""
    n = row.shape[0]
    width = 2 * hf + odd
    lo = cuarray.maximum(centers - hf, 0)
    hi = cuarray.minimum(centers + hf + odd, n)
    idx = lo[:, None] + cuarray.arange(width)[None, :]
    vals = cuarray.where(idx < hi[:, None], row[cuarray.minimum(idx, n - 1)], numpy.inf)
    vals = cuarray.sort(vals, axis=1)
    length = (hi - lo).astype(numpy.float64)
    pos = per / 100.0 * (length - 1)
    i = cuarray.floor(pos).astype(numpy.int64)
    j = cuarray.minimum(i + 1, width - 1)
    frac = pos - i
    a = cuarray.take_along_axis(vals, i[:, None], axis=1)[:, 0]
    b = cuarray.take_along_axis(vals, j[:, None], axis=1)[:, 0]
    # an integral position reads one sample; else the two neighbours, weighted
    return cuarray.where(frac == 0, a, a * (1 - frac) + cuarray.where(frac == 0, 0, b) * frac)


def find_peaks_cwt(vector, widths, wavelet=None, max_distances=None, gap_thresh=None,
                   min_length=None, min_snr=1, noise_perc=10, window_size=None):
    """cuarray version of `scipy.signal.find_peaks_cwt`. Synchronises (the number of ridge
    lines and of peaks size the result)."""
    from cuarray.scipy.signal._peaks import _boolrelextrema
    from cuarray.scipy.signal._wavelets import ricker
    if not isinstance(vector, ndarray):
        raise not_device_error("find_peaks_cwt", vector, "cuarray.scipy.signal.")
    widths = cuarray.asnumpy(widths) if isinstance(widths, ndarray) else widths
    widths = numpy.atleast_1d(numpy.asarray(widths))
    if gap_thresh is None:
        gap_thresh = numpy.ceil(widths[0])
    if max_distances is None:
        max_distances = widths / 4.0
    max_distances = (cuarray.asnumpy(max_distances) if isinstance(max_distances, ndarray)
                     else numpy.asarray(max_distances))
    wavelet = ricker if wavelet is None else wavelet
    cwt = _cwt(vector, wavelet, widths)
    rows, cols = cwt.shape
    if len(max_distances) < rows:
        raise ValueError("Max_distances must have at least as many rows as matr")
    flags = cuarray.ascontiguousarray(_boolrelextrema(cwt, cuarray.greater, axis=1)
                                      .astype(numpy.uint8))
    cap = max(rows * cols, 1)
    count, last_row, last_col, gap, active, prev, done = (
        cuarray.empty(cap, numpy.int64) for _ in range(7))
    n_out = cuarray.zeros(1, numpy.int64)
    kern = _k.kernel(_SRC, "ridge_lines", NT=RIDGE_THREADS)
    kern((1,), (RIDGE_THREADS,), (flags, rows, cols,
                      cuarray.asarray(max_distances[:rows].astype(numpy.float64)),
                      float(gap_thresh), count, last_row, last_col, gap, active, prev, done,
                      n_out))
    nl = int(n_out.get()[0])
    if nl == 0:
        return cuarray.zeros(0, numpy.float64)
    lines = done[:nl]
    if min_length is None:
        min_length = math.ceil(rows / 4)
    if window_size is None:
        window_size = math.ceil(cols / 20)
    hf, odd = divmod(int(window_size), 2)
    r0, c0 = last_row[lines], last_col[lines]
    noise = _percentiles(cwt[0], c0, hf, odd, noise_perc)
    snr = cuarray.abs(cwt[r0, c0] / noise)
    keep = (count[lines] >= min_length) & ~(snr < min_snr)
    locs = c0[cuarray.flatnonzero(keep)]
    if locs.size == 0:
        return cuarray.zeros(0, numpy.float64)
    return cuarray.sort(locs)
