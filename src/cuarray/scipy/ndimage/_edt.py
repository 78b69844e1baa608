"""Exact Euclidean distance transform (cuarray version of
`scipy.ndimage.distance_transform_edt`).

Separable, as Felzenszwalb and Huttenlocher's transform: every element starts with squared
distance 0 and itself as feature where the input is zero (background), infinity and no
feature elsewhere. One pass per axis then replaces each line's squared distances by the
lower envelope of the parabolas w (q - j)^2 + f(j) rooted at its finite entries, carrying
the feature of the winning root along. After the pass over axis k a feature shares every
coordinate not yet processed with its element, which is what makes each pass exact.
One thread owns a line; its envelope (roots, boundaries, values, features) lives in a
scratch array laid out position-major so that neighbouring lines' threads coalesce.
"""
import numpy

import cuarray
from cuarray.scipy.ndimage._filter_kernels import PRELUDE, _get, _launch
from cuarray.scipy.ndimage._measurements import _unravel
from cuarray.scipy.ndimage._util import check_input, contiguous, normalize_sequence


def edt_source(name):
    """One envelope pass along an axis of C-contiguous (d2, feat) arrays."""
    return PRELUDE + r"""
extern "C" __global__ void NAME(double* __restrict__ d2, long long* __restrict__ feat,
    int* __restrict__ sv, double* __restrict__ sz, double* __restrict__ sf,
    long long* __restrict__ sg, const long long nlines, const long long len,
    const long long inner, const double w) {
  for (long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x; t < nlines;
       t += (long long)blockDim.x * gridDim.x) {
    double* f = d2 + (t / inner) * len * inner + t % inner;
    long long* g = feat + (t / inner) * len * inner + t % inner;
    // scratch entry k of this line: index k * nlines + t; the envelope's top entry and,
    // in the second loop, the current and next ones are kept in registers as well, so
    // the common step needs no read of what was just written
    long long k = -1;
    long long vk = 0; double fk = 0, zk = 0;
    // the line is read 8 entries at a time, all loads issued before the envelope logic
    // uses them (one memory latency per 8 entries instead of per entry)
    for (long long q0 = 0; q0 < len; q0 += 8) {
      double fb[8]; long long gb[8];
      #pragma unroll
      for (int u = 0; u < 8; ++u) {
        const bool ok = q0 + u < len;
        fb[u] = ok ? f[(q0 + u) * inner] : 1e308;
        gb[u] = ok ? g[(q0 + u) * inner] : -1;
      }
      #pragma unroll
      for (int u = 0; u < 8; ++u) {
        const long long q = q0 + u;
        const double fq = fb[u];
        if (!(fq < 1e300)) continue;
        double s = -1e308;
        while (k >= 0) {
          s = ((fq + w * (double)q * (double)q) - (fk + w * (double)vk * (double)vk)) /
              (2.0 * w * (double)(q - vk));
          if (s > zk) break;
          --k; s = -1e308;
          if (k >= 0) { vk = sv[k * nlines + t]; fk = sf[k * nlines + t]; zk = sz[k * nlines + t]; }
        }
        ++k;
        vk = q; fk = fq; zk = k == 0 ? -1e308 : s;
        sv[k * nlines + t] = (int)q;
        sz[k * nlines + t] = zk;
        sf[k * nlines + t] = fq;
        sg[k * nlines + t] = gb[u];
      }
    }
    if (k < 0) continue;   // no finite entry on this line: it stays infinite
    const long long top = k;
    k = 0;
    long long vc = sv[t]; double fc = sf[t]; long long gc = sg[t];
    double znext = top > 0 ? sz[nlines + t] : 1e308;
    // the entry after the current one, loaded one advance ahead of its use
    long long vn = 0, gn = 0; double fn = 0, zn2 = 1e308;
    if (top > 0) {
      vn = sv[nlines + t]; fn = sf[nlines + t]; gn = sg[nlines + t];
      zn2 = top > 1 ? sz[2 * nlines + t] : 1e308;
    }
    for (long long q = 0; q < len; ++q) {
      while (znext < (double)q) {
        ++k;
        vc = vn; fc = fn; gc = gn; znext = zn2;
        if (k < top) {
          const long long k1 = k + 1;
          vn = sv[k1 * nlines + t]; fn = sf[k1 * nlines + t]; gn = sg[k1 * nlines + t];
          zn2 = k1 < top ? sz[(k1 + 1) * nlines + t] : 1e308;
        }
      }
      const double dq = (double)(q - vc);
      f[q * inner] = w * dq * dq + fc;
      g[q * inner] = gc;
    }
  }
}
""".replace("NAME", name)


def _pass(d2, feat, axis, w):
    length = d2.shape[axis]
    inner = 1
    for s in d2.shape[axis + 1:]:
        inner *= s
    nlines = d2.size // length
    entry = _get(("edt",), lambda: ("nd_edt_pass", edt_source("nd_edt_pass"),
                                    ["P", "P", "P", "P", "P", "P", "q", "q", "q", "d"]))
    sv = cuarray.empty(d2.size, dtype=numpy.int32)
    sz = cuarray.empty(d2.size, dtype=numpy.float64)
    sf = cuarray.empty(d2.size, dtype=numpy.float64)
    sg = cuarray.empty(d2.size, dtype=numpy.int64)
    _launch(entry, nlines, [d2._ptr, feat._ptr, sv._ptr, sz._ptr, sf._ptr, sg._ptr, nlines,
                            length, inner, float(w)], per_line=True)


def distance_transform_edt(input, sampling=None, return_distances=True, return_indices=False,
                           distances=None, indices=None, *, block_params=None,
                           float64_distances=True):
    """cuarray version of `scipy.ndimage.distance_transform_edt`.

    As CuPy's: `float64_distances=False` gives float32 distances; `block_params` (a
    tuning parameter of CuPy's algorithm) is accepted and has no effect. Ties between
    equally near background elements may pick a different one than SciPy's.
    """
    ft_inplace = isinstance(indices, cuarray.ndarray)
    dt_inplace = isinstance(distances, cuarray.ndarray)
    if not return_distances and not return_indices:
        raise RuntimeError("at least one of return_distances/return_indices must be True")
    input = check_input(input, complex_ok=False)
    if input.ndim == 0:
        input = input.reshape(1)
    shape = input.shape
    ndim = input.ndim
    ddt = numpy.float64 if float64_distances else numpy.float32
    if dt_inplace:
        if distances.shape != shape:
            raise RuntimeError("distances array has wrong shape")
        if distances.dtype != ddt:
            raise RuntimeError(f"distances array must be {numpy.dtype(ddt).name}")
    if ft_inplace:
        if indices.shape != (ndim,) + shape:
            raise RuntimeError("indices array has wrong shape")
        if indices.dtype != numpy.int32:
            raise RuntimeError("indices array must be int32")
    w = [1.0] * ndim if sampling is None else \
        [float(s) ** 2 for s in normalize_sequence(sampling, ndim, "sampling")]
    n = input.size
    background = contiguous(input) == 0
    d2 = cuarray.where(background, 0.0, numpy.inf)
    feat = cuarray.where(background, cuarray.arange(n, dtype=numpy.int64).reshape(shape), -1)
    if n:
        for ax in range(ndim):
            _pass(d2, feat, ax, w[ax])
    result = []
    if return_distances:
        dist = cuarray.sqrt(d2).astype(ddt, copy=False)
        if dt_inplace:
            distances[...] = dist
        else:
            result.append(dist)
    if return_indices:
        ft = cuarray.stack(_unravel(feat, shape)).astype(numpy.int32) if ndim else \
            cuarray.zeros((0,) + shape, dtype=numpy.int32)
        if ft_inplace:
            indices[...] = ft
        else:
            result.append(ft)
    if len(result) == 2:
        return tuple(result)
    if len(result) == 1:
        return result[0]
    return None
