"""The fast Hankel transform by Hamilton's FFTLog (cuarray version of `scipy.fft.fht`,
`ifht`, `fhtoffset`).

The transform is an rfft, a product with the coefficients u[m] of the Hankel kernel, an
irfft and a reversal. The coefficients depend only on (n, dln, mu, offset, bias), so the
host computes them (a complex log-gamma in NumPy) and uploads n // 2 + 1 values.
"""
import math
import warnings

import numpy

from cuarray import fft as _np_fft
from cuarray._core.ndarray import ndarray

_LN2 = math.log(2.0)
# Stirling's series: B_2k / (2k (2k - 1)) for k = 1..8
_STIRLING = (1 / 12, -1 / 360, 1 / 1260, -1 / 1680, 1 / 1188, -691 / 360360, 1 / 156,
             -3617 / 122400)


def _loggamma(z):
    """The principal branch of log Gamma(z) for complex z (NumPy, host): the recurrence
    log Gamma(z) = log Gamma(z + k) - sum log(z + j) up to Re z >= 15, then Stirling."""
    z0 = numpy.asarray(z, dtype=numpy.complex128)
    z = z0.reshape(-1)
    shift = numpy.maximum(0, numpy.ceil(15 - z.real)).astype(numpy.int64)
    acc = numpy.zeros_like(z)
    w = z.copy()
    for _ in range(int(shift.max(initial=0))):
        m = shift > 0
        with numpy.errstate(divide="ignore", invalid="ignore"):
            acc[m] += numpy.log(w[m])
        w[m] += 1
        shift[m] -= 1
    r = 1 / w
    r2 = r * r
    series = numpy.zeros_like(w)
    for c in reversed(_STIRLING):
        series = series * r2 + c
    res = (w - 0.5) * numpy.log(w) - w + 0.5 * math.log(2 * math.pi) + series * r - acc
    return res.reshape(z0.shape)


def _poch(z, m):
    if m == 0:
        return 1.0
    return math.exp(math.lgamma(z + m) - math.lgamma(z)) * (
        math.copysign(1, math.gamma(z + m)) * math.copysign(1, math.gamma(z)))


def _coefficients(n, dln, mu, offset, bias, inverse):
    q = bias
    xp, xm = (mu + 1 + q) / 2, (mu + 1 - q) / 2
    y = numpy.linspace(0, math.pi * (n // 2) / (n * dln), n // 2 + 1)
    with numpy.errstate(all="ignore"):
        v = _loggamma(xm + 1j * y)
        u = _loggamma(xp + 1j * y)
        u = (u.real - v.real + _LN2 * q) + 1j * (u.imag + v.imag + 2 * (_LN2 - offset) * y)
        u = numpy.exp(u)
    if n % 2 == 0:
        u.imag[-1] = 0
    if not numpy.isfinite(u[0]):
        # Gamma(xp) / Gamma(xm) where both may be infinite
        try:
            u[0] = 2 ** q * _poch(xm, xp - xm)
        except (ValueError, OverflowError):
            u[0] = numpy.inf
    if numpy.isinf(u[0]) and not inverse:
        warnings.warn("singular transform; consider changing the bias", stacklevel=4)
        u[0] = 0
    elif u[0] == 0 and inverse:
        warnings.warn("singular inverse transform; consider changing the bias",
                      stacklevel=4)
        u[0] = numpy.inf
    return u


def _transform(a, dln, mu, offset, bias, inverse, name):
    from cuarray._core import _ops
    from cuarray._core.transfer import asarray
    from cuarray._routines.creation import arange
    if not isinstance(a, ndarray):
        _np_fft._fft._check_array(a, f"scipy.fft.{name}")
    n = a.shape[-1]
    if bias != 0:
        jc = (n - 1) / 2
        lin = _ops.multiply(_ops.subtract(arange(n, dtype=numpy.float64), jc), dln)
        a = _ops.multiply(a, _ops.exp(_ops.multiply(lin, bias if inverse else -bias)))
    u = _coefficients(n, dln, mu, offset, bias, inverse)
    if inverse:
        with numpy.errstate(divide="ignore", invalid="ignore"):
            u = 1 / u.conj()
    A = _np_fft.rfft(a, axis=-1)
    A = _ops.multiply(A, asarray(u.astype(A.dtype)))
    A = _np_fft.irfft(A, n, axis=-1)[..., ::-1]
    if bias != 0:
        e = _ops.exp(_ops.multiply(_ops.add(lin, offset), -bias))
        A = _ops.divide(A, e) if inverse else _ops.multiply(A, e)
    return A


def fht(a, dln, mu, offset=0.0, bias=0.0):
    """The fast Hankel transform of logarithmically spaced samples (cuarray version of
    `scipy.fft.fht`)."""
    return _transform(a, dln, mu, offset, bias, False, "fht")


def ifht(A, dln, mu, offset=0.0, bias=0.0):
    """The inverse fast Hankel transform (cuarray version of `scipy.fft.ifht`)."""
    return _transform(A, dln, mu, offset, bias, True, "ifht")


def fhtoffset(dln, mu, initial=0.0, bias=0.0):
    """The optimal offset of the fast Hankel transform (cuarray version of
    `scipy.fft.fhtoffset`); a Python float."""
    q = bias
    xp, xm = (mu + 1 + q) / 2, (mu + 1 - q) / 2
    y = math.pi / (2 * dln)
    zp = _loggamma(xp + 1j * y)
    zm = _loggamma(xm + 1j * y)
    arg = (_LN2 - initial) / dln + (zp.imag + zm.imag) / math.pi
    return float(initial + (arg - numpy.round(arg)) * dln)
