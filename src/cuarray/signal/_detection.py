"""Higher-order convolution, CFAR detection and MVDR beamforming (cuarray version of
`cupyx.signal.convolve1d2o`, `convolve1d3o`, `ca_cfar`, `mvdr`)."""
import numpy

import cuarray
from cuarray._core.host_policy import not_device_error
from cuarray._core.ndarray import ndarray
from cuarray.scipy.signal import _kernels as _k
from cuarray.signal._radar_filters import cfar_alpha

__all__ = ["convolve1d2o", "convolve1d3o", "ca_cfar", "mvdr"]

# out[i] = sum_{x,y(,z)} in1[i+W-1-x] in1[i+H-1-y] (in1[i+D-1-z]) in2[x, y(, z)]
_VOLTERRA = r"""
extern "C" __global__ void volterra(const {T}* a, const {T}* k, {T}* out, long long W,
                                    long long H, long long D, long long n) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x) {
    {T} acc = {T}(0);
    for (long long x = 0; x < W; ++x)
      for (long long y = 0; y < H; ++y) {
        const {T} xy = a[i + W - 1 - x] * a[i + H - 1 - y];
        if (D == 0) { acc += xy * k[x * H + y]; continue; }
        for (long long z = 0; z < D; ++z)
          acc += xy * a[i + D - 1 - z] * k[(x * H + y) * D + z];
      }
    out[i] = acc;
  }
}
"""


def _volterra(in1, in2, mode, method, order):
    name = f"convolve1d{order}o"
    for x in (in1, in2):
        if not isinstance(x, ndarray):
            raise not_device_error(name, x, "cuarray.signal.")
    if in1.ndim != 1:
        raise ValueError("in1 should have one dimension")
    if in2.ndim != order:
        raise ValueError(f"in2 should have {'two' if order == 2 else 'three'} dimension")
    if mode != "valid":
        raise ValueError(f"cuarray.signal.{name} supports mode='valid' only")
    if method != "direct":
        raise ValueError(f"cuarray.signal.{name} supports method='direct' only")
    dtype = numpy.result_type(in1.dtype, in2.dtype)
    n = in1.shape[0] - max(in2.shape) + 1
    out = cuarray.empty(max(n, 0), dtype)
    W, H = in2.shape[0], in2.shape[1]
    D = in2.shape[2] if order == 3 else 0
    a = cuarray.ascontiguousarray(in1.astype(dtype, copy=False))
    k = cuarray.ascontiguousarray(in2.astype(dtype, copy=False))
    _k.launch(_k.kernel(_VOLTERRA, "volterra", T=_k.ctype(dtype)), out.size,
              (a, k, out, W, H, D, out.size))
    return out


def convolve1d2o(in1, in2, mode="valid", method="direct"):
    """cuarray version of `cupyx.signal.convolve1d2o` ('valid', 'direct' only, as CuPy)."""
    return _volterra(in1, in2, mode, method, 2)


def convolve1d3o(in1, in2, mode="valid", method="direct"):
    """cuarray version of `cupyx.signal.convolve1d3o` ('valid', 'direct' only, as CuPy)."""
    return _volterra(in1, in2, mode, method, 3)


def _box(S, lo0, hi0, lo1, hi1):
    """Sums over boxes [lo, hi] (inclusive) from the zero-padded 2-D prefix sum S."""
    return S[hi0 + 1, hi1 + 1] - S[lo0, hi1 + 1] - S[hi0 + 1, lo1] + S[lo0, lo1]


def ca_cfar(array, guard_cells, reference_cells, pfa=1e-3):
    """cuarray version of `cupyx.signal.ca_cfar`: (threshold, detections); the threshold is
    float32 and zero where the window does not fit."""
    if not isinstance(array, ndarray):
        raise not_device_error("ca_cfar", array, "cuarray.signal.")
    shape = array.shape
    if len(shape) > 2:
        raise TypeError("Only 1D and 2D arrays are currently supported.")
    mask = cuarray.zeros(shape, numpy.float32)
    x = array.astype(numpy.float32)
    if len(shape) == 1:
        g, r = int(guard_cells), int(reference_cells)
        n = shape[0]
        if n <= 2 * g + 2 * r:
            raise ValueError("Array too small for given parameters")
        S = cuarray.concatenate((cuarray.zeros(1, numpy.float32),
                                 cuarray.cumsum(x, dtype=numpy.float32)))
        N = 2 * r
        alpha = cfar_alpha(pfa, N)
        c = cuarray.arange(g + r, n - g - r)
        big = S[c + g + r + 1] - S[c - g - r]
        small = S[c + g + 1] - S[c - g]
        mask[g + r:n - g - r] = (numpy.float32(alpha) / N * (big - small)).astype(numpy.float32)
    else:
        if len(guard_cells) != 2 or len(reference_cells) != 2:
            raise TypeError("Guard and reference cells must be two dimensional.")
        gx, gy = (int(v) for v in guard_cells)
        rx, ry = (int(v) for v in reference_cells)
        if shape[0] - 2 * gx - 2 * rx <= 0:
            raise ValueError("Array first dimension too small for given parameters.")
        if shape[1] - 2 * gy - 2 * ry <= 0:
            raise ValueError("Array second dimension too small for given parameters.")
        P = cuarray.cumsum(cuarray.cumsum(x, axis=0, dtype=numpy.float32), axis=1,
                           dtype=numpy.float32)
        S = cuarray.zeros((shape[0] + 1, shape[1] + 1), numpy.float32)
        S[1:, 1:] = P
        N = 2 * rx * (2 * ry + 2 * gy + 1) + 2 * (2 * gx + 1) * ry
        alpha = cfar_alpha(pfa, N)
        cx = cuarray.arange(gx + rx, shape[0] - gx - rx).reshape(-1, 1)
        cy = cuarray.arange(gy + ry, shape[1] - gy - ry).reshape(1, -1)
        outer = _box(S, cx - gx - rx, cx + gx + rx, cy - gy - ry, cy + gy + ry)
        inner = _box(S, cx - gx, cx + gx, cy - gy, cy + gy)
        mask[gx + rx:shape[0] - gx - rx, gy + ry:shape[1] - gy - ry] = \
            (numpy.float32(alpha) / N * (outer - inner)).astype(numpy.float32)
    return mask, array - mask > 0


def mvdr(x, sv, calc_cov=True):
    """cuarray version of `cupyx.signal.mvdr` (beamformer weights; x is sensors x
    samples)."""
    if x.shape[0] > x.shape[1]:
        raise ValueError("Matrix has more sensors than samples. Consider transposing and "
                         "remember cuSignal is row-major, unlike MATLAB")
    if x.shape[0] != sv.shape[0]:
        raise ValueError("Steering Vector and input data do not align")
    R = cuarray.cov(x) if calc_cov else x
    wB = cuarray.linalg.inv(R) @ sv
    wA = cuarray.conj(sv).T @ wB
    return wB / wA
