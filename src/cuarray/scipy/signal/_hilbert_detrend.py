"""Analytic signals and trend removal (cuarray version of `scipy.signal.hilbert`,
`hilbert2`, `detrend`)."""
import numpy

import cuarray
from cuarray._core.ndarray import ndarray
from cuarray.scipy import fft as _fft

__all__ = ["hilbert", "hilbert2", "detrend"]


def _check(x, name):
    if not isinstance(x, ndarray):
        raise TypeError(f"cuarray.scipy.signal.{name} takes a cuarray array; move it to the "
                        "GPU with cuarray.asarray(x)")


def hilbert(x, N=None, axis=-1):
    """cuarray version of `scipy.signal.hilbert`."""
    _check(x, "hilbert")
    if x.dtype.kind == "c":
        raise ValueError("x must be real.")
    if N is None:
        N = x.shape[axis]
    if N <= 0:
        raise ValueError("N must be positive.")
    Xf = _fft.fft(x, N, axis=axis)
    h = cuarray.zeros(N, Xf.real.dtype)
    if N % 2 == 0:
        h[0] = h[N // 2] = 1
        h[1:N // 2] = 2
    else:
        h[0] = 1
        h[1:(N + 1) // 2] = 2
    shape = [1] * x.ndim
    shape[axis] = N
    return _fft.ifft(Xf * h.reshape(shape), axis=axis)


def hilbert2(x, N=None, axes=(-2, -1)):
    """cuarray version of `scipy.signal.hilbert2`."""
    _check(x, "hilbert2")
    if x.ndim < 2:
        x = x.reshape((1,) * (2 - x.ndim) + x.shape)
    if x.dtype.kind == "c":
        raise ValueError("x must be real.")
    if len(axes) != 2:
        raise ValueError("axes must be a tuple of length 2")
    if axes[0] == axes[1] or axes[0] % x.ndim == axes[1] % x.ndim:
        raise ValueError("axes must contain 2 distinct axes")
    if N is None:
        N = (x.shape[axes[0]], x.shape[axes[1]])
    elif isinstance(N, int):
        if N <= 0:
            raise ValueError("N must be positive.")
        N = (N, N)
    elif len(N) != 2 or numpy.any(numpy.asarray(N) <= 0):
        raise ValueError("When given as a tuple, N must hold exactly two positive integers")
    Xf = _fft.fft2(x, N, axes=axes)
    k0, k1 = (N[0] + 1) // 2, (N[1] + 1) // 2
    h0 = cuarray.zeros(N[0], Xf.real.dtype)
    h1 = cuarray.zeros(N[1], Xf.real.dtype)
    h0[0] = h1[0] = 1
    h0[1:k0] = 2
    h1[1:k1] = 2
    s0 = [1] * x.ndim
    s0[axes[0]] = N[0]
    s1 = [1] * x.ndim
    s1[axes[1]] = N[1]
    return _fft.ifft2(Xf * h0.reshape(s0) * h1.reshape(s1), axes=axes)


def detrend(data, axis=-1, type="linear", bp=0, overwrite_data=False):
    """cuarray version of `scipy.signal.detrend` (breakpoints are host integers)."""
    _check(data, "detrend")
    if type not in ("linear", "l", "constant", "c"):
        raise ValueError("Trend type must be 'linear' or 'constant'.")
    dt = data.dtype if data.dtype.char in "dfDF" else numpy.dtype(numpy.float64)
    data = data.astype(dt, copy=False)
    if data.ndim == 0:
        return data - data if type in ("constant", "c") else data.copy()
    if type in ("constant", "c"):
        return data - cuarray.mean(data, axis=axis, keepdims=True)
    N = data.shape[axis]
    bps = numpy.sort(numpy.unique(numpy.concatenate(numpy.atleast_1d(0, bp, N))))
    if numpy.any(bps > N):
        raise ValueError("Breakpoints must be less than length of data along given axis.")
    x = cuarray.moveaxis(data, axis, -1)
    rdt = numpy.dtype(dt.char.lower())
    parts = []
    for lo, hi in zip(bps[:-1].tolist(), bps[1:].tolist()):
        seg = x[..., lo:hi]
        n = hi - lo
        mean = cuarray.mean(seg, axis=-1, keepdims=True)
        if n < 2:
            parts.append(seg - mean)
            continue
        tc = cuarray.arange(n, dtype=rdt) - (n - 1) / 2.0
        slope = cuarray.sum(seg * tc, axis=-1, keepdims=True) / float(n * (n * n - 1) / 12.0)
        parts.append(seg - mean - slope * tc)
    out = cuarray.concatenate(parts, axis=-1) if len(parts) > 1 else parts[0]
    return cuarray.moveaxis(out, -1, axis)
