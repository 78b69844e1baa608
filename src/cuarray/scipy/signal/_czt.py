"""Chirp z-transform by Bluestein's algorithm on cuFFT (cuarray version of
`scipy.signal.CZT`, `ZoomFFT`, `czt`, `zoom_fft`, `czt_points`)."""
import cmath
import math
import numbers

import numpy

import cuarray
from cuarray._core.host_policy import not_device_error
from cuarray._core.ndarray import ndarray
from cuarray.scipy import fft as _fft

__all__ = ["CZT", "ZoomFFT", "czt", "zoom_fft", "czt_points"]


def _validate_sizes(n, m):
    if n < 1 or not isinstance(n, numbers.Integral):
        raise ValueError(f"Invalid number of CZT data points ({n}) specified. n must be "
                         "positive and integer type.")
    if m is None:
        return n
    if m < 1 or not isinstance(m, numbers.Integral):
        raise ValueError(f"Invalid number of CZT output points ({m}) specified. m must be "
                         "positive and integer type.")
    return m


def czt_points(m, w=None, a=1 + 0j):
    """cuarray version of `scipy.signal.czt_points`."""
    m = _validate_sizes(1, m)
    k = cuarray.arange(m, dtype=numpy.float64)
    a = 1.0 * a
    if w is None:
        return a * cuarray.exp(2j * math.pi * k / m)
    return a * (1.0 * w) ** (-k)


class CZT:
    """cuarray version of `scipy.signal.CZT` (the chirps are made on the GPU)."""

    def __init__(self, n, m=None, w=None, a=1 + 0j):
        m = _validate_sizes(n, m)
        L = max(m, n)
        if w is None:
            w = cmath.exp(-2j * math.pi / m)
            k = cuarray.arange(L, dtype=numpy.int64)
            wk2 = cuarray.exp(-(1j * math.pi * ((k * k) % (2 * m)).astype(numpy.float64)) / m)
        else:
            k = cuarray.arange(L, dtype=numpy.float64)
            wk2 = complex(w) ** (k * k / 2.0)
        self._setup(n, m, w, 1.0 * a, wk2, (1.0 * a) ** (-cuarray.arange(n, dtype=float)))

    def _setup(self, n, m, w, a, wk2, ak):
        self.w, self.a, self.m, self.n = w, a, m, n
        nfft = _fft.next_fast_len(n + m - 1)
        self._Awk2 = ak * wk2[:n]
        self._nfft = nfft
        self._Fwk2 = _fft.fft(1 / cuarray.concatenate((wk2[n - 1:0:-1], wk2[:m])), nfft)
        self._wk2 = wk2[:m]
        self._yidx = slice(n - 1, n + m - 1)

    def __call__(self, x, *, axis=-1):
        if not isinstance(x, ndarray):
            raise not_device_error("CZT", x, "cuarray.scipy.signal.")
        if x.shape[axis] != self.n:
            raise ValueError(f"CZT defined for length {self.n}, not {x.shape[axis]}")
        x = cuarray.moveaxis(x, axis, -1)
        y = _fft.ifft(self._Fwk2 * _fft.fft(x * self._Awk2, self._nfft))
        y = y[..., self._yidx] * self._wk2
        return cuarray.moveaxis(y, -1, axis)

    def points(self):
        """The points at which the transform is computed."""
        return czt_points(self.m, self.w, self.a)


class ZoomFFT(CZT):
    """cuarray version of `scipy.signal.ZoomFFT`."""

    def __init__(self, n, fn, m=None, *, fs=2, endpoint=False):
        m = _validate_sizes(n, m)
        L = max(m, n)
        if numpy.size(fn) == 2:
            f1, f2 = fn
        elif numpy.size(fn) == 1:
            f1, f2 = 0.0, fn
        else:
            raise ValueError("fn must be a scalar or 2-length sequence")
        self.f1, self.f2, self.fs = f1, f2, fs
        scale = ((f2 - f1) * m) / (fs * (m - 1)) if endpoint else (f2 - f1) / fs
        k = cuarray.arange(L, dtype=numpy.float64)
        wk2 = cuarray.exp(-(1j * math.pi * scale * k * k) / m)
        ak = cuarray.exp(-2j * math.pi * f1 / fs * k[:n])
        self._setup(n, m, cmath.exp(-2j * math.pi / m * scale),
                    cmath.exp(2j * math.pi * f1 / fs), wk2, ak)


def czt(x, m=None, w=None, a=1 + 0j, *, axis=-1):
    """cuarray version of `scipy.signal.czt`."""
    return CZT(x.shape[axis], m=m, w=w, a=a)(x, axis=axis)


def zoom_fft(x, fn, m=None, *, fs=2, endpoint=False, axis=-1):
    """cuarray version of `scipy.signal.zoom_fft`."""
    return ZoomFFT(x.shape[axis], fn, m=m, fs=fs, endpoint=endpoint)(x, axis=axis)
