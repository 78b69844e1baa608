"""Wavelets kept by CuPy after SciPy 1.15 removed them (cuarray version of
`cupyx.scipy.signal.morlet`, `morlet2`, `ricker`, `qmf`, `cwt`)."""
import math

import numpy

import cuarray
from cuarray._core.host_policy import not_device_error
from cuarray._core.ndarray import ndarray

__all__ = ["morlet", "morlet2", "ricker", "qmf", "cwt"]


def morlet(M, w=5.0, s=1.0, complete=True):
    """cuarray version of `cupyx.scipy.signal.morlet`."""
    x = cuarray.linspace(-s * 2 * math.pi, s * 2 * math.pi, M)
    out = cuarray.exp(1j * w * x)
    if complete:
        out = out - math.exp(-0.5 * w * w)
    return out * cuarray.exp(-0.5 * x * x) * math.pi ** (-0.25)


def morlet2(M, s, w=5):
    """cuarray version of `cupyx.scipy.signal.morlet2`."""
    x = (cuarray.arange(0, M, dtype=numpy.float64) - (M - 1.0) / 2) / s
    return math.sqrt(1 / s) * cuarray.exp(1j * w * x) * cuarray.exp(-0.5 * x * x) * \
        math.pi ** (-0.25)


def ricker(points, a):
    """cuarray version of `cupyx.scipy.signal.ricker`."""
    A = 2 / (math.sqrt(3 * a) * math.pi ** 0.25)
    wsq = a * a
    xsq = (cuarray.arange(0, points, dtype=numpy.float64) - (points - 1.0) / 2) ** 2
    return A * (1 - xsq / wsq) * cuarray.exp(-xsq / (2 * wsq))


def qmf(hk):
    """cuarray version of `cupyx.scipy.signal.qmf` (the quadrature mirror filter)."""
    hk = hk if isinstance(hk, ndarray) else cuarray.asarray(numpy.asarray(hk))
    sign = cuarray.asarray(numpy.where(numpy.arange(hk.size) % 2, -1, 1))
    return hk[::-1] * sign


def cwt(data, wavelet, widths, dtype=None, **kwargs):
    """cuarray version of `cupyx.scipy.signal.cwt` (one direct or FFT convolution per
    width)."""
    from cuarray.scipy.signal._convolution import convolve
    if not isinstance(data, ndarray):
        raise not_device_error("cwt", data, "cuarray.scipy.signal.")
    widths = numpy.asarray(cuarray.asnumpy(widths) if isinstance(widths, ndarray) else widths)
    if dtype is None:
        dtype = numpy.complex128 if wavelet(1, widths[0], **kwargs).dtype.kind == "c" \
            else numpy.float64
    out = cuarray.empty((len(widths), data.size), dtype)
    for i, width in enumerate(widths.tolist()):
        N = int(min(10 * width, data.size))
        w = cuarray.conj(wavelet(N, width, **kwargs)[::-1])
        out[i] = convolve(data, w, mode="same")
    return out
