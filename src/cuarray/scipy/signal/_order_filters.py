"""Rank (order) filters and local-statistics filters (cuarray version of
`scipy.signal.order_filter`, `medfilt`, `medfilt2d`, `wiener`, `sepfir2d`)."""
import math
import warnings

import numpy

import cuarray
from cuarray._core.host_policy import not_device_error
from cuarray._core.ndarray import ndarray
from cuarray.scipy.signal import _kernels as _k

__all__ = ["order_filter", "medfilt", "medfilt2d", "wiener", "sepfir2d"]

# One thread per output: gather the footprint's values (zero outside the input), then
# select the rank-th smallest by quickselect in a local array.
_RANK = r"""
struct Meta { long long v[{NMETA}]; };
extern "C" __global__ void rank_filter(const {T}* x, const long long* off, {T}* out, Meta m,
                                       long long rank, long long n) {
  const long long* sh = m.v;
  for (long long o = (long long)blockIdx.x * blockDim.x + threadIdx.x; o < n;
       o += (long long)gridDim.x * blockDim.x) {
    long long c[{NDIM}];
    long long r = o;
    for (int d = {NDIM} - 1; d >= 0; --d) { c[d] = r % sh[d]; r /= sh[d]; }
    {T} v[{K}];
    for (int j = 0; j < {K}; ++j) {
      long long xi = 0;
      bool inside = true;
      for (int d = 0; d < {NDIM}; ++d) {
        const long long p = c[d] + off[j * {NDIM} + d];
        if (p < 0 || p >= sh[d]) { inside = false; break; }
        xi = xi * sh[d] + p;
      }
      v[j] = inside ? x[xi] : {T}(0);
    }
    int lo = 0, hi = {K} - 1;
    const int k = (int)rank;
    while (lo < hi) {
      const {T} pivot = v[(lo + hi) / 2];
      int i = lo, j = hi;
      while (i <= j) {
        while (v[i] < pivot) ++i;
        while (pivot < v[j]) --j;
        if (i <= j) { const {T} t = v[i]; v[i] = v[j]; v[j] = t; ++i; --j; }
      }
      if (k <= j) hi = j; else if (k >= i) lo = i; else break;
    }
    out[o] = v[k];
  }
}
"""


def _check_rank_dtype(a, name):
    if not (a.dtype.kind in "iu" or a.dtype in (numpy.float32, numpy.float64)):
        raise ValueError(f"dtype={a.dtype} is not supported by {name}")


def _rank_filter(a, offsets, rank):
    """Rank filter of `a` over the footprint `offsets` (host int array, nnz x ndim)."""
    nnz = offsets.shape[0]
    if rank < 0:
        rank += nnz
    if not 0 <= rank < nnz:
        raise RuntimeError("rank not within filter footprint size")
    x = cuarray.ascontiguousarray(a)
    out = cuarray.empty(a.shape, a.dtype)
    if a.size == 0:
        return out
    m, nm = _k.meta(a.shape)
    kern = _k.kernel(_RANK, "rank_filter", T=_k.ctype(a.dtype), NDIM=a.ndim, K=nnz,
                     NMETA=nm)
    off = cuarray.asarray(numpy.ascontiguousarray(offsets, dtype=numpy.int64))
    _k.launch(kern, a.size, (x, off, out, m, int(rank), a.size))
    return out


def _box_offsets(size):
    grids = numpy.indices(size).reshape(len(size), -1).T
    return grids - numpy.asarray(size) // 2


def order_filter(a, domain, rank):
    """cuarray version of `scipy.signal.order_filter` (the footprint's non-zero positions
    are read on the host)."""
    if not isinstance(a, ndarray):
        raise not_device_error("order_filter", a, "cuarray.scipy.signal.")
    dom = cuarray.asnumpy(domain) if isinstance(domain, ndarray) else numpy.asarray(domain)
    for n in dom.shape:
        if n % 2 != 1:
            raise ValueError("Each dimension of domain argument should have an odd number "
                             "of elements.")
    _check_rank_dtype(a, "order_filter")
    if dom.ndim != a.ndim:
        raise RuntimeError("filter footprint array has incorrect shape.")
    offsets = numpy.argwhere(dom != 0) - numpy.asarray(dom.shape) // 2
    return _rank_filter(a, offsets, int(rank))


def _kernel_size(kernel_size, ndim):
    if kernel_size is None:
        kernel_size = [3] * ndim
    ks = numpy.asarray(kernel_size)
    if ks.shape == ():
        ks = numpy.repeat(ks.item(), ndim)
    for k in ks:
        if k % 2 != 1:
            raise ValueError("Each element of kernel_size should be odd.")
    return [int(k) for k in ks]


def medfilt(volume, kernel_size=None):
    """cuarray version of `scipy.signal.medfilt`."""
    if not isinstance(volume, ndarray):
        raise not_device_error("medfilt", volume, "cuarray.scipy.signal.")
    if volume.ndim == 0:
        volume = volume.reshape(1)
    _check_rank_dtype(volume, "medfilt")
    ks = _kernel_size(kernel_size, volume.ndim)
    if len(ks) != volume.ndim:
        raise ValueError("kernel_size must have one entry per dimension of the volume")
    if any(k > s for k, s in zip(ks, volume.shape)):
        warnings.warn("kernel_size exceeds volume extent: the volume will be zero-padded.",
                      stacklevel=2)
    return _rank_filter(volume, _box_offsets(ks), math.prod(ks) // 2)


def medfilt2d(input, kernel_size=3):
    """cuarray version of `scipy.signal.medfilt2d`."""
    if not isinstance(input, ndarray):
        raise not_device_error("medfilt2d", input, "cuarray.scipy.signal.")
    if input.dtype not in (numpy.uint8, numpy.float32, numpy.float64):
        return medfilt(input, kernel_size)
    if input.ndim != 2:
        raise ValueError("medfilt2d takes a 2-D input")
    ks = _kernel_size(kernel_size, 2)
    return _rank_filter(input, _box_offsets(ks), math.prod(ks) // 2)


def wiener(im, mysize=None, noise=None):
    """cuarray version of `scipy.signal.wiener`."""
    from cuarray.scipy.signal._convolution import correlate
    if not isinstance(im, ndarray):
        raise not_device_error("wiener", im, "cuarray.scipy.signal.")
    if mysize is None:
        mysize = [3] * im.ndim
    ms = numpy.asarray(mysize)
    if ms.shape == ():
        ms = numpy.repeat(ms.item(), im.ndim)
    ms = tuple(int(v) for v in ms)
    ones = cuarray.ones(ms)
    n = float(math.prod(ms))
    lmean = correlate(im, ones, "same") / n
    lvar = correlate(im ** 2, ones, "same") / n - lmean ** 2
    if noise is None:
        noise = cuarray.mean(lvar.ravel())
    res = im - lmean
    res = res * (1 - noise / lvar) + lmean
    return cuarray.where(lvar < noise, lmean, res)


def sepfir2d(input, hrow, hcol):
    """cuarray version of `scipy.signal.sepfir2d` (mirror-symmetric boundaries; filters
    no longer than the image's sides)."""
    from cuarray.scipy.signal._convolution import _direct
    if not isinstance(input, ndarray):
        raise not_device_error("sepfir2d", input, "cuarray.scipy.signal.")
    hrow = hrow if isinstance(hrow, ndarray) else cuarray.asarray(numpy.asarray(hrow))
    hcol = hcol if isinstance(hcol, ndarray) else cuarray.asarray(numpy.asarray(hcol))
    if input.ndim != 2:
        raise ValueError("input must be 2-D")
    if hrow.ndim != 1 or hcol.ndim != 1:
        raise ValueError("hrow and hcol must be 1-D")
    if hrow.size % 2 != 1 or hcol.size % 2 != 1:
        raise ValueError("hrow and hcol must be odd length")
    dt = input.dtype if input.dtype.char in "fdFD" else numpy.dtype(numpy.float64)
    for h in (hrow, hcol):
        if not numpy.can_cast(h.dtype, dt, "safe"):
            raise TypeError(f"Cannot cast array data from dtype('{h.dtype}') to "
                            f"dtype('{dt}') according to the rule 'safe'")
    cr, cc = hrow.size // 2, hcol.size // 2
    x = cuarray.pad(input.astype(dt, copy=False), [(0, 0), (cr, cr)], mode="symmetric")
    x = _direct(x, hrow.astype(dt).reshape(1, -1), "valid", dt)
    x = cuarray.pad(x, [(cc, cc), (0, 0)], mode="symmetric")
    return _direct(x, hcol.astype(dt).reshape(-1, 1), "valid", dt)
