"""Frequency responses of filters (cuarray version of `scipy.signal.freqz`, `sosfreqz` /
`freqz_sos`, `freqz_zpk`, `freqs`, `freqs_zpk`, `group_delay`): polynomials evaluated on
the GPU (Horner's rule over the coefficients, or an FFT of the numerator)."""
import math
import operator

import numpy

import cuarray
from cuarray._core.ndarray import ndarray
from cuarray.scipy import fft as _fft
from cuarray.scipy.signal._fir_design import _fs

__all__ = ["freqz", "sosfreqz", "freqz_sos", "freqz_zpk", "freqs", "freqs_zpk",
           "group_delay", "findfreqs"]


def _dev(v):
    return v if isinstance(v, ndarray) else cuarray.asarray(numpy.asarray(v))


def _is_int(v):
    try:
        operator.index(v)
        return True
    except TypeError:
        return False


def _horner(coeffs, x):
    """sum_k coeffs[k] x^k (NumPy's polynomial order: ascending) for 1-D coeffs."""
    h = cuarray.zeros(x.shape, numpy.result_type(coeffs.dtype, x.dtype))
    for k in range(coeffs.size - 1, -1, -1):
        h = h * x + coeffs[k]
    return h


def _w_grid(worN, whole, fs, endpoint=False):
    if _is_int(worN):
        N = operator.index(worN)
        if N < 0:
            raise ValueError(f"worN must be nonnegative, got {N}")
        last = 2 * math.pi if whole else math.pi
        return cuarray.linspace(0, last, N, endpoint=endpoint), N
    w = _dev(worN).astype(numpy.float64)
    return cuarray.atleast_1d(w) * (2 * math.pi / fs), None


def freqz(b, a=1, worN=512, whole=False, plot=None, fs=2 * math.pi, include_nyquist=False):
    """cuarray version of `scipy.signal.freqz` (1-D b and a; `plot` is not supported)."""
    if plot is not None:
        raise ValueError("cuarray.scipy.signal.freqz: plot is not supported")
    b = cuarray.atleast_1d(_dev(b))
    a = cuarray.atleast_1d(_dev(a))
    fs = _fs(fs, None)
    if worN is None:
        worN = 512
    h = None
    if _is_int(worN):
        N = operator.index(worN)
        if N < 0:
            raise ValueError(f"worN must be nonnegative, got {N}")
        last = 2 * math.pi if whole else math.pi
        w = cuarray.linspace(0, last, N, endpoint=include_nyquist and not whole)
        n_fft = N if whole else (2 * (N - 1) if include_nyquist else 2 * N)
        if a.size == 1 and b.ndim == 1 and n_fft >= b.shape[0] and n_fft > 0:
            real = b.dtype.kind != "c" and a.dtype.kind != "c"
            h = (_fft.rfft if real else _fft.fft)(b, n=n_fft, axis=0)[:N]
            h = h / a
            if real and whole:
                stop = -1 if n_fft % 2 == 1 else -2
                h = cuarray.concatenate((h, h[stop:0:-1].conj()))
    else:
        w = cuarray.atleast_1d(_dev(worN)).astype(numpy.float64) * (2 * math.pi / fs)
    if h is None:
        zm1 = cuarray.exp(-1j * w)
        h = _horner(b, zm1) / _horner(a, zm1)
    return w * (fs / (2 * math.pi)), h


def freqz_sos(sos, worN=512, whole=False, fs=2 * math.pi):
    """cuarray version of `scipy.signal.freqz_sos`."""
    fs = _fs(fs, None)
    sos = _dev(sos)
    if sos.ndim != 2 or sos.shape[1] != 6:
        raise ValueError("sos array must be shape (n_sections, 6)")
    n_sections = sos.shape[0]
    if n_sections == 0:
        raise ValueError("Cannot compute frequencies with no sections")
    h = 1.0
    for row in range(n_sections):
        w, rowh = freqz(sos[row, :3], sos[row, 3:], worN=worN, whole=whole, fs=fs)
        h = h * rowh
    return w, h


sosfreqz = freqz_sos


def freqz_zpk(z, p, k, worN=512, whole=False, fs=2 * math.pi):
    """cuarray version of `scipy.signal.freqz_zpk`."""
    z = cuarray.atleast_1d(_dev(z))
    p = cuarray.atleast_1d(_dev(p))
    fs = _fs(fs, None)
    if worN is None:
        worN = 512
    w, _ = _w_grid(worN, whole, fs)
    zm1 = cuarray.exp(1j * w)
    num = cuarray.prod(zm1.reshape(-1, 1) - z.reshape(1, -1), axis=1) if z.size else 1.0
    den = cuarray.prod(zm1.reshape(-1, 1) - p.reshape(1, -1), axis=1) if p.size else 1.0
    h = k * num / den * cuarray.ones(w.shape)
    return w * (fs / (2 * math.pi)), h


def _findfreqs(ep, tz, N):
    """SciPy's `findfreqs` frequency grid; reads its two decade bounds on the host."""
    if ep.size == 0:
        ep = cuarray.asarray(numpy.array([-1000 + 0j]))
    ez = cuarray.concatenate((ep, tz))
    use = cuarray.concatenate((ep.imag >= 0, (cuarray.abs(tz) < 1e5) & (tz.imag >= 0)))
    integ = (cuarray.abs(ez) < 1e-10).astype(numpy.float64)
    hi = float(cuarray.max(cuarray.where(use, 3 * cuarray.abs(ez.real + integ)
                                         + 1.5 * ez.imag, -numpy.inf)))
    lo = float(cuarray.min(cuarray.where(use, cuarray.abs((ez + integ).real)
                                         + 2 * ez.imag, numpy.inf)))
    hfreq = numpy.round(numpy.log10(hi) + 0.5)
    lfreq = numpy.round(numpy.log10(0.1 * lo) - 0.5)
    return cuarray.logspace(lfreq, hfreq, N)


def findfreqs(num, den, N, kind="ba"):
    """cuarray version of `scipy.signal.findfreqs` (reads the grid's decade bounds on the
    host)."""
    num = cuarray.atleast_1d(_dev(num))
    den = cuarray.atleast_1d(_dev(den))
    if kind == "ba":
        ep = cuarray.roots(den).astype(numpy.complex128) if den.size > 1 else \
            cuarray.zeros(0, numpy.complex128)
        tz = cuarray.roots(num).astype(numpy.complex128) if num.size > 1 else \
            cuarray.zeros(0, numpy.complex128)
    elif kind == "zp":
        ep, tz = den.astype(numpy.complex128), num.astype(numpy.complex128)
    else:
        raise ValueError("input must be one of {'ba', 'zp'}")
    return _findfreqs(ep, tz, N)


def _polyval_desc(c, x):
    h = cuarray.zeros(x.shape, numpy.result_type(c.dtype, x.dtype))
    for k in range(c.size):
        h = h * x + c[k]
    return h


def freqs(b, a, worN=200, plot=None):
    """cuarray version of `scipy.signal.freqs` (an integer worN reads the grid's bounds on
    the host; `plot` is not supported)."""
    if plot is not None:
        raise ValueError("cuarray.scipy.signal.freqs: plot is not supported")
    b = cuarray.atleast_1d(_dev(b))
    a = cuarray.atleast_1d(_dev(a))
    if worN is None:
        worN = 200
    if _is_int(worN):
        ep = cuarray.roots(a).astype(numpy.complex128) if a.size > 1 else \
            cuarray.zeros(0, numpy.complex128)
        tz = cuarray.roots(b).astype(numpy.complex128) if b.size > 1 else \
            cuarray.zeros(0, numpy.complex128)
        w = _findfreqs(ep, tz, operator.index(worN))
    else:
        w = cuarray.atleast_1d(_dev(worN)).astype(numpy.float64)
    s = 1j * w
    return w, _polyval_desc(b, s) / _polyval_desc(a, s)


def freqs_zpk(z, p, k, worN=200):
    """cuarray version of `scipy.signal.freqs_zpk` (an integer worN reads the grid's
    bounds on the host)."""
    z = cuarray.atleast_1d(_dev(z)).astype(numpy.complex128)
    p = cuarray.atleast_1d(_dev(p)).astype(numpy.complex128)
    if worN is None:
        worN = 200
    if _is_int(worN):
        w = _findfreqs(p, z, operator.index(worN))
    else:
        w = cuarray.atleast_1d(_dev(worN)).astype(numpy.float64)
    s = 1j * w
    num = cuarray.prod(s.reshape(-1, 1) - z.reshape(1, -1), axis=1) if z.size else 1.0
    den = cuarray.prod(s.reshape(-1, 1) - p.reshape(1, -1), axis=1) if p.size else 1.0
    return w, k * num / den * cuarray.ones(w.shape)


def group_delay(system, w=512, whole=False, fs=2 * math.pi):
    """cuarray version of `scipy.signal.group_delay` (singular frequencies get 0 without
    SciPy's warning, which would need a host read)."""
    fs = _fs(fs, None)
    if w is None:
        w = 512
    w, _ = _w_grid(w, whole, fs)
    b, a = (cuarray.atleast_1d(_dev(v)) for v in system)
    from cuarray.scipy.signal._convolution import convolve
    c = convolve(b.astype(numpy.result_type(b.dtype, numpy.float64)),
                 cuarray.conj(a[::-1]).astype(numpy.result_type(a.dtype, numpy.float64)),
                 method="direct")
    cr = c * cuarray.arange(c.size)
    z = cuarray.exp(-1j * w)
    num = _horner(cr, z)
    den = _horner(c, z)
    gd = cuarray.real(num / den) - a.size + 1
    gd = cuarray.where(cuarray.isfinite(gd), gd, 0.0)
    return w * (fs / (2 * math.pi)), gd
