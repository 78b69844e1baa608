"""Waveform generators (cuarray version of `scipy.signal.chirp`, `gausspulse`,
`sawtooth`, `square`, `sweep_poly`, `unit_impulse`), elementwise on the GPU."""
import math

import numpy

import cuarray
from cuarray._core.ndarray import ndarray

__all__ = ["chirp", "gausspulse", "sawtooth", "square", "sweep_poly", "unit_impulse"]


def _arr(t):
    return t if isinstance(t, ndarray) else cuarray.asarray(numpy.asarray(t))


def _periodic(t, w, name):
    t = _arr(t)
    # SciPy 1.18's promotion: t, the width and a Python float, a Python width staying weak
    # (float32 t gives float32; integer t float64); the wave is computed in that type.
    weak = type(w) in (int, float)  # NumPy scalars are strong, as in SciPy
    w = w if weak else _arr(w)
    ytype = numpy.result_type(t.dtype, w if weak else w.dtype, 1.0)
    t = t.astype(ytype, copy=False)
    w = cuarray.asarray(w, dtype=ytype) if weak else w.astype(ytype, copy=False)
    t, w = cuarray.broadcast_arrays(t, w)
    bad = (w > 1) | (w < 0)
    tmod = cuarray.mod(t, 2 * math.pi)
    first = ~bad & (tmod < w * 2 * math.pi)
    return t, w, ytype, bad, tmod, first


def sawtooth(t, width=1):
    """cuarray version of `scipy.signal.sawtooth`."""
    t, w, ytype, bad, tmod, first = _periodic(t, width, "sawtooth")
    with numpy.errstate(divide="ignore", invalid="ignore"):
        rise = tmod / (math.pi * w) - 1
        fall = (math.pi * (w + 1) - tmod) / (math.pi * (1 - w))
    y = cuarray.where(first, rise, fall)
    return cuarray.where(bad, numpy.nan, y).astype(ytype, copy=False)


def square(t, duty=0.5):
    """cuarray version of `scipy.signal.square`."""
    t, w, ytype, bad, tmod, first = _periodic(t, duty, "square")
    y = cuarray.where(first, 1.0, -1.0)
    return cuarray.where(bad, numpy.nan, y).astype(ytype, copy=False)


def gausspulse(t, fc=1000, bw=0.5, bwr=-6, tpr=-60, retquad=False, retenv=False):
    """cuarray version of `scipy.signal.gausspulse`."""
    if fc < 0:
        raise ValueError(f"Center frequency (fc={fc:.2f}) must be >=0.")
    if bw <= 0:
        raise ValueError(f"Fractional bandwidth (bw={bw:.2f}) must be > 0.")
    if bwr >= 0:
        raise ValueError(f"Reference level for bandwidth (bwr={bwr:.2f}) must be < 0 dB")
    ref = pow(10.0, bwr / 20.0)
    a = -(math.pi * fc * bw) ** 2 / (4.0 * math.log(ref))
    if isinstance(t, str):
        if t == "cutoff":
            if tpr >= 0:
                raise ValueError("Reference level for time cutoff must be < 0 dB")
            tref = pow(10.0, tpr / 20.0)
            return math.sqrt(-math.log(tref) / a)
        raise ValueError("If `t` is a string, it must be 'cutoff'")
    t = _arr(t)
    yenv = cuarray.exp(-a * t * t)
    yI = yenv * cuarray.cos(2 * math.pi * fc * t)
    yQ = yenv * cuarray.sin(2 * math.pi * fc * t)
    if not retquad and not retenv:
        return yI
    if not retquad and retenv:
        return yI, yenv
    if retquad and not retenv:
        return yI, yQ
    return yI, yQ, yenv


def _chirp_phase(t, f0, t1, f1, method, vertex_zero):
    if method in ("linear", "lin", "li"):
        beta = (f1 - f0) / t1
        return 2 * math.pi * (f0 * t + 0.5 * beta * t * t)
    if method in ("quadratic", "quad", "q"):
        beta = (f1 - f0) / (t1 ** 2)
        if vertex_zero:
            return 2 * math.pi * (f0 * t + beta * t ** 3 / 3)
        return 2 * math.pi * (f1 * t + beta * ((t1 - t) ** 3 - t1 ** 3) / 3)
    if method in ("logarithmic", "log", "lo"):
        if f0 * f1 <= 0.0:
            raise ValueError("For a logarithmic chirp, f0 and f1 must be nonzero and have "
                             "the same sign.")
        if f0 == f1:
            return 2 * math.pi * f0 * t
        beta = t1 / math.log(f1 / f0)
        return 2 * math.pi * beta * f0 * (cuarray.power(f1 / f0, t / t1) - 1.0)
    if method in ("hyperbolic", "hyp"):
        if f0 == 0 or f1 == 0:
            raise ValueError("For a hyperbolic chirp, f0 and f1 must be nonzero.")
        if f0 == f1:
            return 2 * math.pi * f0 * t
        sing = -f1 * t1 / (f0 - f1)
        return 2 * math.pi * (-sing * f0) * cuarray.log(cuarray.abs(1 - t / sing))
    raise ValueError("method must be 'linear', 'quadratic', 'logarithmic', or 'hyperbolic', "
                     f"but a value of {method!r} was given.")


def chirp(t, f0, t1, f1, method="linear", phi=0, vertex_zero=True, *, complex=False):
    """cuarray version of `scipy.signal.chirp`."""
    t = _arr(t)
    if t.dtype.kind not in "fc":
        t = t.astype(numpy.float64)
    phase = _chirp_phase(t, f0, t1, f1, method, vertex_zero)
    phi = phi * math.pi / 180
    if complex:
        return cuarray.exp(1j * (phase + phi))
    return cuarray.cos(phase + phi)


def sweep_poly(t, poly, phi=0):
    """cuarray version of `scipy.signal.sweep_poly` (the polynomial's coefficients are host
    values)."""
    t = _arr(t)
    coeffs = numpy.polyint(numpy.poly1d(poly)).coeffs
    phase = cuarray.zeros(t.shape, numpy.result_type(t.dtype, numpy.float64))
    for c in coeffs.tolist():
        phase = phase * t + c
    return cuarray.cos(2 * math.pi * phase + phi * math.pi / 180)


def unit_impulse(shape, idx=None, dtype=float):
    """cuarray version of `scipy.signal.unit_impulse`."""
    out = cuarray.zeros(shape, dtype)
    shape = numpy.atleast_1d(shape)
    if idx is None:
        idx = (0,) * len(shape)
    elif isinstance(idx, str) and idx == "mid":
        idx = tuple(int(v) for v in shape // 2)
    elif not hasattr(idx, "__iter__"):
        idx = (idx,) * len(shape)
    out[tuple(idx)] = 1
    return out
