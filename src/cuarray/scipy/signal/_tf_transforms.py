"""Transfer-function (b, a) transformations (cuarray version of `scipy.signal.normalize`,
`lp2lp`, `lp2hp`, `lp2bp`, `lp2bs`, `bilinear`) and the comb and FIR designs `iircomb`,
`firwin2`. Each frequency transformation is linear in the coefficients: its matrix
depends only on the polynomial degrees and the band edges (host values) and is applied
to the coefficients on the GPU."""
import math
import warnings

import numpy

import cuarray
from cuarray._core.ndarray import ndarray

__all__ = ["BadCoefficients", "normalize", "lp2lp", "lp2hp", "lp2bp", "lp2bs", "bilinear",
           "iircomb", "firwin2"]


class BadCoefficients(UserWarning):
    """Warning about badly conditioned filter coefficients (SciPy's
    `scipy.signal.BadCoefficients`)."""


def _dev(v):
    v = v if isinstance(v, ndarray) else cuarray.asarray(numpy.asarray(v))
    v = cuarray.atleast_1d(v)
    return v if v.dtype.kind in "fc" else v.astype(numpy.float64)


def _lead_zeros(v, tol):
    """The number of leading entries with |v| <= tol (one host read)."""
    big = cuarray.abs(v) > tol
    return int(cuarray.argmax(big)) if bool(cuarray.any(big)) else v.shape[-1]


def normalize(b, a):
    """cuarray version of `scipy.signal.normalize` (1-D or 2-D numerators; the leading-zero
    counts are read on the host)."""
    den = _dev(a)
    num = _dev(b)
    if num.ndim == 1:
        num = num.reshape(1, -1)
    if den.ndim != 1:
        raise ValueError("Denominator polynomial must be rank-1 array.")
    if num.ndim > 2:
        raise ValueError("Numerator polynomial must be rank-1 or rank-2 array.")
    nz = _lead_zeros(den, 0.0)
    if nz == den.size:
        raise ValueError("Denominator must have at least on nonzero element.")
    den = den[nz:]
    num, den = num / den[0], den / den[0]
    lead = _lead_zeros(cuarray.max(cuarray.abs(num), axis=0), 1e-14)
    if lead > 0:
        warnings.warn("Badly conditioned filter coefficients (numerator): the results may "
                      "be meaningless", BadCoefficients, stacklevel=2)
        if lead == num.shape[1]:
            lead -= 1
        num = num[:, lead:]
    if num.shape[0] == 1:
        num = num[0, :]
    return num, den


def _float_pair(b, a):
    b, a = _dev(b), _dev(a)
    dt = numpy.result_type(b.dtype, a.dtype)
    return b.astype(dt), a.astype(dt)


def lp2lp(b, a, wo=1.0):
    """cuarray version of `scipy.signal.lp2lp`."""
    b, a = _float_pair(b, a)
    wo = float(wo if numpy.ndim(wo) == 0 else numpy.ravel(wo)[0])
    d, n = a.shape[0], b.shape[0]
    M = max(d, n)
    pwo = wo ** numpy.arange(M - 1, -1, -1, dtype=numpy.float64)
    s1, s2 = max(n - d, 0), max(d - n, 0)
    b = b * cuarray.asarray(pwo[s1] / pwo[s2:])
    a = a * cuarray.asarray(pwo[s1] / pwo[s1:])
    return normalize(b, a)


def lp2hp(b, a, wo=1.0):
    """cuarray version of `scipy.signal.lp2hp`."""
    b, a = _float_pair(b, a)
    wo = float(wo if numpy.ndim(wo) == 0 else numpy.ravel(wo)[0])
    d, n = a.shape[0], b.shape[0]
    pwo = cuarray.asarray(wo ** numpy.arange(max(d, n), dtype=numpy.float64)).astype(b.dtype)
    if d >= n:
        outa = a[::-1] * pwo
        outb = cuarray.zeros(d, b.dtype)
        outb[:n] = b[::-1] * pwo[:n]
    else:
        outb = b[::-1] * pwo
        outa = cuarray.zeros(n, a.dtype)
        outa[:d] = a[::-1] * pwo[:d]
    return normalize(outb, outa)


def _bp_matrix(deg, ma, wosq, bw):
    """bprime = M @ c for lp2bp: entry (Np - j, N - i) gathers comb(i, k) wosq^(i-k)/bw^i
    over ma - i + 2k == j."""
    Np = deg + ma
    M = numpy.zeros((Np + 1, deg + 1))
    for i in range(deg + 1):
        for k in range(i + 1):
            j = ma - i + 2 * k
            M[Np - j, deg - i] += math.comb(i, k) * wosq ** (i - k) / bw ** i
    return M


def _bs_matrix(deg, Mx, wosq, bw):
    Np = 2 * Mx
    M = numpy.zeros((Np + 1, deg + 1))
    for i in range(deg + 1):
        for k in range(Mx - i + 1):
            j = i + 2 * k
            M[Np - j, deg - i] += math.comb(Mx - i, k) * wosq ** (Mx - i - k) * bw ** i
    return M


def _apply(M, c):
    return cuarray.asarray(M).astype(c.dtype) @ c


def _band(b, a, wo, bw, matrix):
    """A lowpass prototype moved to a band: `matrix` (_bp_matrix or _bs_matrix) maps each
    polynomial's coefficients."""
    b, a = _float_pair(b, a)
    D, N = a.shape[0] - 1, b.shape[0] - 1
    mx = max(N, D)
    wosq = float(wo) ** 2
    return normalize(_apply(matrix(N, mx, wosq, float(bw)), b),
                     _apply(matrix(D, mx, wosq, float(bw)), a))


def lp2bp(b, a, wo=1.0, bw=1.0):
    """cuarray version of `scipy.signal.lp2bp`."""
    return _band(b, a, wo, bw, _bp_matrix)


def lp2bs(b, a, wo=1.0, bw=1.0):
    """cuarray version of `scipy.signal.lp2bs`."""
    return _band(b, a, wo, bw, _bs_matrix)


def bilinear(b, a, fs=1.0):
    """cuarray version of `scipy.signal.bilinear` (leading zeros are found on the host)."""
    b, a = _dev(b), _dev(a)
    if a.ndim != 1:
        raise ValueError(f"Parameter a is not a 1d array since {a.shape=}")
    if b.ndim != 1:
        raise ValueError(f"Parameter b is not a 1d array since {b.shape=}")
    b = b[min(_lead_zeros(b, 0.0), b.size - 1):]
    a = a[min(_lead_zeros(a, 0.0), a.size - 1):]
    fs = float(fs)
    if not fs > 0:
        raise ValueError(f"Sampling frequency fs={fs} must be positive.")
    fac = math.sqrt(fs * 2)
    zp1 = numpy.polynomial.Polynomial((1, 1)) / fac
    zm1 = numpy.polynomial.Polynomial((-1, 1)) * fac
    N = max(a.size, b.size) - 1

    def matrix(n):
        # column q maps coefficient c[::-1][q] to zp1^(N-q) zm1^q, highest power first
        M = numpy.zeros((N + 1, n))
        for q in range(n):
            coef = (zp1 ** (N - q) * zm1 ** q).coef[::-1]
            M[N + 1 - coef.size:, n - 1 - q] = coef
        return M
    return normalize(_apply(matrix(b.size), b), _apply(matrix(a.size), a))


def iircomb(w0, Q, ftype="notch", fs=2.0, *, pass_zero=False):
    """cuarray version of `scipy.signal.iircomb` (coefficients from host scalars)."""
    w0, Q = float(w0), float(Q)
    if fs is None or numpy.ndim(fs) != 0 or not float(fs) > 0:
        raise ValueError("Sampling frequency fs must be a single positive scalar.")
    fs = float(fs)
    ftype = ftype.lower()
    if not 0 < w0 < fs / 2:
        raise ValueError(f"w0 must be between 0 and {fs / 2} (Nyquist), but given {w0}.")
    if ftype not in ("notch", "peak"):
        raise ValueError("ftype must be either notch or peak.")
    N = round(fs / w0)
    if abs(w0 - fs / N) / fs > 1e-14:
        raise ValueError("fs must be divisible by w0.")
    w0 = 2 * math.pi * w0 / fs
    w_delta = w0 / Q
    G0, G = (1, 0) if ftype == "notch" else (0, 1)
    beta = math.tan(N * w_delta / 4)
    ax = (1 - beta) / (1 + beta)
    bx = (G0 + G * beta) / (1 + beta)
    cx = (G0 - G * beta) / (1 + beta)
    sgn = -1.0 if ((ftype == "peak" and pass_zero) or (ftype == "notch" and not pass_zero)) \
        else 1.0
    b = numpy.zeros(N + 1)
    b[0], b[-1] = bx, sgn * cx
    a = numpy.zeros(N + 1)
    a[0], a[-1] = 1.0, sgn * ax
    return cuarray.asarray(b), cuarray.asarray(a)


def firwin2(numtaps, freq, gain, *, nfreqs=None, window="hamming", antisymmetric=False,
            fs=None):
    """cuarray version of `scipy.signal.firwin2` (freq and gain are host values; the
    interpolation, transform and window run on the GPU)."""
    from cuarray.scipy import fft as _fft
    from cuarray.scipy.signal.windows import get_window
    freq = numpy.asarray(cuarray.asnumpy(freq) if isinstance(freq, ndarray) else freq,
                         dtype=float).copy()
    gain = numpy.asarray(cuarray.asnumpy(gain) if isinstance(gain, ndarray) else gain,
                         dtype=float)
    fs = 2.0 if fs is None else float(fs)
    nyq = 0.5 * fs
    if freq.shape[0] != gain.shape[0]:
        raise ValueError("freq and gain must be of same length.")
    if nfreqs is not None and numtaps >= nfreqs:
        raise ValueError(f"ntaps must be less than nfreqs, but firwin2 was called with "
                         f"ntaps={numtaps} and nfreqs={nfreqs}")
    if freq[0] != 0 or freq[-1] != nyq:
        raise ValueError("freq must start with 0 and end with fs/2.")
    d = numpy.diff(freq)
    if (d < 0).any():
        raise ValueError("The values in freq must be nondecreasing.")
    if ((d[:-1] + d[1:]) == 0).any():
        raise ValueError("A value in freq must not occur more than twice.")
    if freq[1] == 0:
        raise ValueError("Value 0 must not be repeated in freq")
    if freq[-2] == nyq:
        raise ValueError("Value fs/2 must not be repeated in freq")
    ftype = (4 if numtaps % 2 == 0 else 3) if antisymmetric else (2 if numtaps % 2 == 0
                                                                   else 1)
    if ftype == 2 and gain[-1] != 0.0:
        raise ValueError("A Type II filter must have zero gain at the Nyquist frequency.")
    if ftype == 3 and (gain[0] != 0.0 or gain[-1] != 0.0):
        raise ValueError("A Type III filter must have zero gain at zero and Nyquist "
                         "frequencies.")
    if ftype == 4 and gain[0] != 0.0:
        raise ValueError("A Type IV filter must have zero gain at zero frequency.")
    if nfreqs is None:
        nfreqs = 1 + 2 ** int(math.ceil(math.log(numtaps, 2)))
    if (d == 0).any():
        eps = numpy.finfo(float).eps * nyq
        for k in range(freq.shape[0] - 1):
            if freq[k] == freq[k + 1]:
                freq[k] -= eps
                freq[k + 1] += eps
        if (numpy.diff(freq) <= 0).any():
            raise ValueError("freq cannot contain numbers that are too close (within eps * "
                             f"(fs/2): {eps}) to a repeated value")
    x = cuarray.linspace(0.0, nyq, nfreqs)
    fx = cuarray.interp(x, cuarray.asarray(freq), cuarray.asarray(gain))
    shift = cuarray.exp(-(numtaps - 1) / 2.0 * 1j * math.pi * x / nyq)
    if ftype > 2:
        shift = shift * 1j
    out = _fft.irfft(fx * shift)[:numtaps]
    if window is not None:
        out = out * get_window(window, numtaps, fftbins=False)
    if ftype == 3:
        out[out.size // 2] = 0.0
    return out
