"""Gammatone filters (cuarray version of `scipy.signal.gammatone`): the FIR taps are
evaluated on the device; the IIR design is fourteen coefficients of two scalars (Slaney's
digital gammatone), computed on the host like the other closed-form designs."""
import cmath
import math
import operator
import warnings

import numpy

import cuarray
from cuarray.scipy.signal._fir_design import _fs

__all__ = ["gammatone"]


def _hz_to_erb(hz):
    """Equivalent rectangular bandwidth (Glasberg and Moore) of a frequency in Hz."""
    return hz / 9.26449 + 24.7


def gammatone(freq, ftype, order=None, numtaps=None, fs=None):
    """cuarray version of `scipy.signal.gammatone`."""
    freq = float(freq)
    fs = _fs(fs)
    ftype = ftype.lower()
    if not 0 < freq < fs / 2:
        raise ValueError(f"The frequency must be between 0 and {fs / 2} (Nyquist), but "
                         f"given {freq}.")
    if ftype not in ("fir", "iir"):
        raise ValueError("ftype must be either fir or iir.")
    if ftype == "fir":
        order = operator.index(4 if order is None else order)
        numtaps = operator.index(max(int(fs * 0.015), 15) if numtaps is None else numtaps)
        if not 0 < order <= 24:
            raise ValueError("Invalid order: order must be > 0 and <= 24.")
        t = cuarray.arange(numtaps, dtype=numpy.float64) / fs
        bw = 1.019 * _hz_to_erb(freq)
        scale = 2 * (2 * math.pi * bw) ** order / math.factorial(order - 1) / fs
        b = t ** (order - 1) * cuarray.exp(-2 * math.pi * bw * t)
        b = b * cuarray.cos(2 * math.pi * freq * t) * scale
        return b, cuarray.ones(1, numpy.float64)
    if order is not None:
        warnings.warn("order is not used for IIR gammatone filter.", stacklevel=2)
    if numtaps is not None:
        warnings.warn("numtaps is not used for IIR gammatone filter.", stacklevel=2)
    T = 1.0 / fs
    bw = 2 * math.pi * 1.019 * _hz_to_erb(freq)
    fr = 2 * freq * math.pi * T
    bwT = bw * T
    # The gain at the centre frequency, to normalise it to one.
    g1 = -2 * cmath.exp(2j * fr) * T
    g2 = 2 * cmath.exp(-bwT + 1j * fr) * T
    g3 = math.sqrt(3 + 2 ** 1.5) * math.sin(fr)
    g4 = math.sqrt(3 - 2 ** 1.5) * math.sin(fr)
    g5 = cmath.exp(2j * fr)
    g = 1
    for c in (-g4, g4, -g3, g3):
        g *= g1 + g2 * (math.cos(fr) + c)
    g /= (-2 / math.exp(2 * bwT) - 2 * g5 + 2 * (1 + g5) / math.exp(bwT)) ** 4
    g = math.hypot(g.real, g.imag)
    T4 = T ** 4
    e = [math.exp(i * bwT) for i in range(9)]
    b = [T4 / g, -4 * T4 * math.cos(fr) / e[1] / g, 6 * T4 * math.cos(2 * fr) / e[2] / g,
         -4 * T4 * math.cos(3 * fr) / e[3] / g, T4 * math.cos(4 * fr) / e[4] / g]
    c1 = 6 * math.cos(fr) + math.cos(3 * fr)
    a = [1.0, -8 * math.cos(fr) / e[1], 4 * (4 + 3 * math.cos(2 * fr)) / e[2], -8 * c1 / e[3],
         2 * (18 + 16 * math.cos(2 * fr) + math.cos(4 * fr)) / e[4], -8 * c1 / e[5],
         4 * (4 + 3 * math.cos(2 * fr)) / e[6], -8 * math.cos(fr) / e[7],
         math.exp(-8 * bwT)]
    return (cuarray.asarray(numpy.array(b, numpy.float64)),
            cuarray.asarray(numpy.array(a, numpy.float64)))
