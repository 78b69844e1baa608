"""Unevenly sampled spectra and phase locking (cuarray version of
`scipy.signal.lombscargle`, `vectorstrength`)."""
import warnings

import numpy

import cuarray
from cuarray._core.ndarray import ndarray

__all__ = ["lombscargle", "vectorstrength"]

_NoValue = object()


def _f64(v):
    v = v if isinstance(v, ndarray) else cuarray.asarray(numpy.asarray(v))
    return v.astype(numpy.float64)


def lombscargle(x, y, freqs, *, precenter=_NoValue, normalize=False, weights=None,
                floating_mean=False):
    """cuarray version of `scipy.signal.lombscargle` (SciPy 1.17's weighted, floating-mean
    form; checking the weights reads one flag on the host)."""
    x, y, freqs = _f64(x), _f64(y), _f64(freqs)
    weights = cuarray.ones_like(y) if weights is None else _f64(weights)
    if not (x.ndim == 1 and x.size > 0 and x.shape == y.shape == weights.shape):
        raise ValueError("Parameters x, y, weights must be 1-D arrays of equal non-zero "
                         "length!")
    if not (freqs.ndim == 1 and freqs.size > 0):
        raise ValueError("Parameter freqs must be a 1-D array of non-zero length!")
    wsum = cuarray.sum(weights)
    if not bool(cuarray.all(weights >= 0) & (wsum > 0)):
        raise ValueError("Parameter weights must have only non-negative entries which sum "
                         "to a positive value!")
    if isinstance(normalize, bool):
        normalize = "normalize" if normalize else "power"
    if normalize not in ("power", "normalize", "amplitude"):
        raise ValueError("Normalize must be: False (or 'power'), True (or 'normalize'), or "
                         "'amplitude'.")
    weights = weights / wsum
    if precenter is not _NoValue:
        warnings.warn("Use of parameter 'precenter' is deprecated as of SciPy 1.17.0 and "
                      "will be removed in 1.19.0. Please leave 'precenter' unspecified. "
                      "Passing True to 'precenter' can be exactly substituted by passing "
                      "'y = (y - y.mean())' into the input. Consider setting "
                      "`floating_mean` to True instead.", DeprecationWarning, stacklevel=2)
        if precenter:
            y = y - cuarray.mean(y)
    w = weights.reshape(-1, 1)
    wy = w * y.reshape(-1, 1)
    ft = freqs.reshape(1, -1) * x.reshape(-1, 1)

    def wsum_(m, ww=w):
        return cuarray.sum(ww * m, axis=0)
    cw, sw = cuarray.cos(ft), cuarray.sin(ft)
    Y = cuarray.sum(wy)
    CC = wsum_(cw * cw)
    SS = 1.0 - CC
    CS = wsum_(cw * sw)
    if floating_mean:
        C, S = wsum_(cw), wsum_(sw)
        CC, SS, CS = CC - C * C, SS - S * S, CS - C * S
    tau = 0.5 * cuarray.arctan2(2.0 * CS, CC - SS)
    ftt = ft - tau
    ct, st = cuarray.cos(ftt), cuarray.sin(ftt)
    YC, YS = wsum_(ct, wy), wsum_(st, wy)
    CC = wsum_(ct * ct)
    SS = 1.0 - CC
    if floating_mean:
        C, S = wsum_(ct), wsum_(st)
        YC, YS = YC - Y * C, YS - Y * S
        CC, SS = CC - C * C, SS - S * S
    eps = numpy.finfo(numpy.float64).epsneg
    CC = cuarray.maximum(CC, eps)
    SS = cuarray.maximum(SS, eps)
    a = YC / CC
    b = YS / SS
    pgram = 2.0 * (a * YC + b * YS)
    if normalize == "power":
        return pgram * (float(x.shape[0]) / 4.0)
    if normalize == "normalize":
        YY = cuarray.sum(wy * y.reshape(-1, 1))
        if floating_mean:
            YY = YY - Y * Y
        return pgram * (0.5 / YY)
    return (a + 1j * b) * cuarray.exp(1j * tau)


def vectorstrength(events, period):
    """cuarray version of `scipy.signal.vectorstrength` (checking the periods reads one
    flag on the host)."""
    events = events if isinstance(events, ndarray) else cuarray.asarray(numpy.asarray(events))
    period = period if isinstance(period, ndarray) else cuarray.asarray(numpy.asarray(period))
    if events.ndim > 1:
        raise ValueError("events cannot have dimensions more than 1")
    if period.ndim > 1:
        raise ValueError("period cannot have dimensions more than 1")
    scalar = period.ndim == 0
    events = cuarray.atleast_2d(events)
    period = cuarray.atleast_2d(period)
    if bool(cuarray.any(period <= 0)):
        raise ValueError("periods must be positive")
    vectors = cuarray.exp((2j * numpy.pi / period.T) * events)
    mean = cuarray.mean(vectors, axis=1)
    strength, phase = cuarray.abs(mean), cuarray.angle(mean)
    if scalar:
        return strength[0], phase[0]
    return strength, phase
