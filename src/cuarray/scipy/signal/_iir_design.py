"""IIR filter design and representation changes (cuarray version of
`scipy.signal.iirfilter`, `butter`, `cheby1`, `cheby2`, `iirnotch`, `iirpeak`,
`buttap`, `cheb1ap`, `cheb2ap`, `lp2*_zpk`, `bilinear_zpk`, `zpk2tf`, `tf2zpk`,
`sos2tf`, `sos2zpk`, `tf2sos`). Poles and zeros are computed on the GPU from the order and
band edges; polynomials are multiplied out there too."""
import math

import numpy

import cuarray
from cuarray._core.ndarray import ndarray
from cuarray.scipy.signal._zpk2sos import zpk2sos

__all__ = ["iirfilter", "butter", "cheby1", "cheby2", "bessel", "iirnotch", "iirpeak",
           "buttap", "cheb1ap", "cheb2ap", "besselap", "lp2lp_zpk", "lp2hp_zpk", "lp2bp_zpk",
           "lp2bs_zpk", "bilinear_zpk", "zpk2tf", "tf2zpk", "sos2tf", "sos2zpk", "tf2sos"]


def _dev(v):
    return v if isinstance(v, ndarray) else cuarray.asarray(numpy.asarray(v))


def _odd_steps(N):
    return cuarray.arange(-N + 1, N, 2, dtype=numpy.float64)


def buttap(N):
    """cuarray version of `scipy.signal.buttap` (k is a 0-d array)."""
    if abs(int(N)) != N:
        raise ValueError("Filter order must be a nonnegative integer")
    p = -cuarray.exp(1j * math.pi * _odd_steps(N) / (2 * N)) if N else \
        cuarray.zeros(0, numpy.complex128)
    return cuarray.zeros(0), p, cuarray.asarray(1.0)


def cheb1ap(N, rp):
    """cuarray version of `scipy.signal.cheb1ap` (k is a 0-d array)."""
    if abs(int(N)) != N:
        raise ValueError("Filter order must be a nonnegative integer")
    if N == 0:
        return cuarray.zeros(0), cuarray.zeros(0, numpy.complex128), \
            cuarray.asarray(10 ** (-rp / 20))
    eps = math.sqrt(10 ** (0.1 * rp) - 1.0)
    mu = 1.0 / N * math.asinh(1 / eps)
    theta = math.pi * _odd_steps(N) / (2 * N)
    p = -cuarray.sinh(mu + 1j * theta)
    k = cuarray.prod(-p).real
    if N % 2 == 0:
        k = k / math.sqrt(1 + eps * eps)
    return cuarray.zeros(0), p, k


def cheb2ap(N, rs):
    """cuarray version of `scipy.signal.cheb2ap` (k is a 0-d array)."""
    if abs(int(N)) != N:
        raise ValueError("Filter order must be a nonnegative integer")
    if N == 0:
        return cuarray.zeros(0), cuarray.zeros(0), cuarray.asarray(1.0)
    de = 1.0 / math.sqrt(10 ** (0.1 * rs) - 1)
    mu = math.asinh(1.0 / de) / N
    if N % 2:
        m = numpy.concatenate((numpy.arange(-N + 1, 0, 2), numpy.arange(2, N, 2)))
        m = cuarray.asarray(m.astype(numpy.float64))
    else:
        m = _odd_steps(N)
    z = -cuarray.conj(1j / cuarray.sin(m * math.pi / (2.0 * N)))
    p = -cuarray.exp(1j * math.pi * _odd_steps(N) / (2 * N))
    p = math.sinh(mu) * p.real + 1j * math.cosh(mu) * p.imag
    p = 1 / p
    k = (cuarray.prod(-p) / cuarray.prod(-z)).real
    return z, p, k


def besselap(N, norm="phase"):
    """cuarray version of `scipy.signal.besselap` for norm 'phase' and 'delay' (the poles
    are the roots of the reverse Bessel polynomial, found by cuarray.roots: accurate to
    about order 15)."""
    if abs(int(N)) != N:
        raise ValueError("Filter order must be a nonnegative integer")
    if norm not in ("phase", "delay"):
        raise ValueError("normalization not understood" if norm != "mag" else
                         "cuarray.scipy.signal.besselap supports norm='phase' and 'delay'")
    if N == 0:
        return cuarray.zeros(0), cuarray.zeros(0, numpy.complex128), cuarray.asarray(1.0)
    # theta_N(s) = sum_k (2N - k)! / (2^(N - k) k! (N - k)!) s^k, highest power first
    coef = [math.factorial(2 * N - k) // (2 ** (N - k) * math.factorial(k)
                                           * math.factorial(N - k)) for k in range(N, -1, -1)]
    a_last = coef[-1]
    p = cuarray.roots(cuarray.asarray(numpy.array(coef, dtype=numpy.float64)))
    p = p.astype(numpy.complex128)
    if norm == "delay":
        return cuarray.zeros(0), p, cuarray.asarray(float(a_last))
    return cuarray.zeros(0), p * 10 ** (-math.log10(a_last) / N), cuarray.asarray(1.0)


def _degree(z, p):
    degree = p.size - z.size
    if degree < 0:
        raise ValueError("Improper transfer function. Must have at least as many poles as "
                         "zeros.")
    return degree


def _prod(v):
    return cuarray.prod(v) if v.size else cuarray.asarray(1.0)


def lp2lp_zpk(z, p, k, wo=1.0):
    """cuarray version of `scipy.signal.lp2lp_zpk`."""
    z, p, k = cuarray.atleast_1d(_dev(z)), cuarray.atleast_1d(_dev(p)), _dev(k)
    wo = float(wo)
    degree = _degree(z, p)
    return wo * z, wo * p, k * wo ** degree


def lp2hp_zpk(z, p, k, wo=1.0):
    """cuarray version of `scipy.signal.lp2hp_zpk`."""
    z, p, k = cuarray.atleast_1d(_dev(z)), cuarray.atleast_1d(_dev(p)), _dev(k)
    wo = float(wo)
    degree = _degree(z, p)
    z_hp = cuarray.concatenate((wo / z, cuarray.zeros(degree)))
    k_hp = k * (_prod(-z) / _prod(-p)).real
    return z_hp, wo / p, k_hp


def _bp_roots(r, wo):
    return cuarray.concatenate((r + cuarray.sqrt(r * r - wo * wo),
                                r - cuarray.sqrt(r * r - wo * wo)))


def lp2bp_zpk(z, p, k, wo=1.0, bw=1.0):
    """cuarray version of `scipy.signal.lp2bp_zpk`."""
    z, p, k = cuarray.atleast_1d(_dev(z)), cuarray.atleast_1d(_dev(p)), _dev(k)
    wo, bw = float(wo), float(bw)
    degree = _degree(z, p)
    z_lp = (z * bw / 2).astype(numpy.complex128)
    p_lp = (p * bw / 2).astype(numpy.complex128)
    z_bp = cuarray.concatenate((_bp_roots(z_lp, wo), cuarray.zeros(degree)))
    return z_bp, _bp_roots(p_lp, wo), k * bw ** degree


def lp2bs_zpk(z, p, k, wo=1.0, bw=1.0):
    """cuarray version of `scipy.signal.lp2bs_zpk`."""
    z, p, k = cuarray.atleast_1d(_dev(z)), cuarray.atleast_1d(_dev(p)), _dev(k)
    wo, bw = float(wo), float(bw)
    degree = _degree(z, p)
    z_hp = ((bw / 2) / z).astype(numpy.complex128)
    p_hp = ((bw / 2) / p).astype(numpy.complex128)
    z_bs = cuarray.concatenate((_bp_roots(z_hp, wo),
                                cuarray.full(degree, 1j * wo), cuarray.full(degree, -1j * wo)))
    k_bs = k * (_prod(-z) / _prod(-p)).real
    return z_bs, _bp_roots(p_hp, wo), k_bs


def bilinear_zpk(z, p, k, fs):
    """cuarray version of `scipy.signal.bilinear_zpk`."""
    z, p, k = cuarray.atleast_1d(_dev(z)), cuarray.atleast_1d(_dev(p)), _dev(k)
    fs2 = 2.0 * float(fs)
    degree = _degree(z, p)
    z_z = cuarray.concatenate(((fs2 + z) / (fs2 - z), -cuarray.ones(degree)))
    k_z = k * (_prod(fs2 - z) / _prod(fs2 - p)).real
    return z_z, (fs2 + p) / (fs2 - p), k_z


def _poly(r):
    """Coefficients of prod(x - r_i), highest power first, multiplied out on the GPU."""
    c = cuarray.ones(1, numpy.result_type(r.dtype, numpy.float64))
    for i in range(r.size):
        c = cuarray.concatenate((c, cuarray.zeros(1, c.dtype))) - \
            r[i] * cuarray.concatenate((cuarray.zeros(1, c.dtype), c))
    return c


def _conj_pairs(r):
    """NumPy's test for returning a real polynomial: the roots come in conjugate pairs
    (one flag read on the host)."""
    if r.dtype.kind != "c" or r.size == 0:
        return True
    # The multiset of roots equals that of their conjugates.
    return bool(cuarray.all(cuarray.sort_complex(r) == cuarray.sort_complex(cuarray.conj(r))))


def zpk2tf(z, p, k):
    """cuarray version of `scipy.signal.zpk2tf` (1-D zeros)."""
    z, p, k = cuarray.atleast_1d(_dev(z)), cuarray.atleast_1d(_dev(p)), _dev(k)
    if z.ndim > 1:
        raise ValueError("cuarray.scipy.signal.zpk2tf takes 1-D zeros")
    b = k * _poly(z)
    a = _poly(p)
    if b.dtype.kind == "c" and _conj_pairs(z):
        b = b.real.copy()
    if a.dtype.kind == "c" and _conj_pairs(p):
        a = a.real.copy()
    return b, a


def _normalize(b, a):
    """Leading zeros of a and b dropped, a[0] scaled to 1 (reads the count of leading
    zeros on the host)."""
    nz = int(cuarray.argmax(a != 0)) if a.size else 0
    a = a[nz:]
    if a.size == 0:
        raise ValueError("Denominator must have at least on nonzero element.")
    nzb = int(cuarray.argmax(b != 0)) if bool(cuarray.any(b != 0)) else b.size - 1
    b = b[nzb:]
    return b / a[0], a / a[0]


def tf2zpk(b, a):
    """cuarray version of `scipy.signal.tf2zpk` (1-D b; roots on the GPU)."""
    b, a = _dev(b).astype(numpy.float64) if _dev(b).dtype.kind != "c" else _dev(b), \
        _dev(a).astype(numpy.float64) if _dev(a).dtype.kind != "c" else _dev(a)
    b, a = _normalize(cuarray.atleast_1d(b), cuarray.atleast_1d(a))
    k = b[0]
    b = b / b[0]
    z = cuarray.roots(b) if b.size > 1 else cuarray.zeros(0)
    p = cuarray.roots(a) if a.size > 1 else cuarray.zeros(0)
    return z, p, k


def sos2tf(sos):
    """cuarray version of `scipy.signal.sos2tf`."""
    sos = _dev(sos)
    if sos.ndim != 2 or sos.shape[1] != 6:
        raise ValueError("sos array must be shape (n_sections, 6)")
    from cuarray.scipy.signal._convolution import convolve
    b = cuarray.ones(1, numpy.result_type(sos.dtype, numpy.float64))
    a = cuarray.ones(1, b.dtype)
    for i in range(sos.shape[0]):
        b = convolve(b, sos[i, :3].astype(b.dtype), method="direct")
        a = convolve(a, sos[i, 3:].astype(a.dtype), method="direct")
    return b, a


def sos2zpk(sos):
    """cuarray version of `scipy.signal.sos2zpk`."""
    sos = _dev(sos)
    n = sos.shape[0]
    z = cuarray.zeros(n * 2, numpy.complex128)
    p = cuarray.zeros(n * 2, numpy.complex128)
    k = cuarray.asarray(1.0)
    for s in range(n):
        zpk = tf2zpk(sos[s, :3], sos[s, 3:])
        z[2 * s:2 * s + zpk[0].size] = zpk[0]
        p[2 * s:2 * s + zpk[1].size] = zpk[1]
        k = k * zpk[2]
    return z, p, k


def tf2sos(b, a, pairing=None, *, analog=False):
    """cuarray version of `scipy.signal.tf2sos`."""
    return zpk2sos(*tf2zpk(b, a), pairing=pairing, analog=analog)


_BANDS = {"band": "bandpass", "bandpass": "bandpass", "pass": "bandpass", "bp": "bandpass",
          "bs": "bandstop", "bandstop": "bandstop", "bands": "bandstop", "stop": "bandstop",
          "l": "lowpass", "low": "lowpass", "lowpass": "lowpass", "lp": "lowpass",
          "high": "highpass", "highpass": "highpass", "h": "highpass", "hp": "highpass"}
_TYPES = {"butter": "butter", "butterworth": "butter", "cheby1": "cheby1",
          "chebyshev1": "cheby1", "chebyi": "cheby1", "cheby2": "cheby2",
          "chebyshev2": "cheby2", "chebyii": "cheby2", "ellip": "ellip", "elliptic": "ellip",
          "cauer": "ellip", "bessel": "bessel_phase",
          "bessel_phase": "bessel_phase", "bessel_delay": "bessel_delay",
          "bessel_mag": "bessel_mag"}


def iirfilter(N, Wn, rp=None, rs=None, btype="band", analog=False, ftype="butter",
              output="ba", fs=None):
    """cuarray version of `scipy.signal.iirfilter` (bessel with norm 'phase' or 'delay';
    band edges are host values; the gain of output='zpk' is a 0-d array)."""
    ftype, btype, output = (s.lower() for s in (ftype, btype, output))
    Wn = numpy.asarray(cuarray.asnumpy(Wn) if isinstance(Wn, ndarray) else Wn, dtype=float)
    if fs is not None:
        if analog:
            raise ValueError("fs cannot be specified for an analog filter")
        Wn = Wn / (fs / 2)
    if numpy.any(Wn <= 0):
        raise ValueError("filter critical frequencies must be greater than 0")
    if Wn.size > 1 and not Wn[0] < Wn[1]:
        raise ValueError("Wn[0] must be less than Wn[1]")
    if btype not in _BANDS:
        raise ValueError(f"'{btype}' is an invalid bandtype for filter.")
    btype = _BANDS[btype]
    if ftype not in _TYPES:
        raise ValueError(f"'{ftype}' is not a valid basic IIR filter.")
    ftype = _TYPES[ftype]
    if output not in ("ba", "zpk", "sos"):
        raise ValueError(f"'{output}' is not a valid output form.")
    if rp is not None and rp < 0:
        raise ValueError("passband ripple (rp) must be positive")
    if rs is not None and rs < 0:
        raise ValueError("stopband attenuation (rs) must be positive")
    if ftype == "butter":
        z, p, k = buttap(N)
    elif ftype.startswith("bessel"):
        z, p, k = besselap(N, norm=ftype[7:])
    elif ftype == "ellip":
        if rs is None or rp is None:
            raise ValueError("Both rp and rs must be provided to design an elliptic filter.")
        from cuarray.scipy.signal._elliptic import ellipap
        z, p, k = ellipap(N, rp, rs)
    elif ftype == "cheby1":
        if rp is None:
            raise ValueError("passband ripple (rp) must be provided to design a Chebyshev I "
                             "filter.")
        z, p, k = cheb1ap(N, rp)
    else:
        if rs is None:
            raise ValueError("stopband attenuation (rs) must be provided to design an "
                             "Chebyshev II filter.")
        z, p, k = cheb2ap(N, rs)
    if not analog:
        if numpy.any(Wn <= 0) or numpy.any(Wn >= 1):
            if fs is not None:
                raise ValueError(f"Digital filter critical frequencies must be 0 < Wn < fs/2 "
                                 f"(fs={fs} -> fs/2={fs / 2})")
            raise ValueError("Digital filter critical frequencies must be 0 < Wn < 1")
        fs = 2.0
        warped = 2 * fs * numpy.tan(numpy.pi * Wn / fs)
    else:
        warped = Wn
    if btype in ("lowpass", "highpass"):
        if numpy.size(Wn) != 1:
            raise ValueError("Must specify a single critical frequency Wn for lowpass or "
                             "highpass filter")
        f = lp2lp_zpk if btype == "lowpass" else lp2hp_zpk
        z, p, k = f(z, p, k, wo=float(warped))
    else:
        try:
            bw = warped[1] - warped[0]
            wo = math.sqrt(warped[0] * warped[1])
        except IndexError as e:
            raise ValueError("Wn must specify start and stop frequencies for bandpass or "
                             "bandstop filter") from e
        f = lp2bp_zpk if btype == "bandpass" else lp2bs_zpk
        z, p, k = f(z, p, k, wo=wo, bw=bw)
    if not analog:
        z, p, k = bilinear_zpk(z, p, k, fs=fs)
    if output == "zpk":
        return z, p, k
    if output == "ba":
        return zpk2tf(z, p, k)
    return zpk2sos(z, p, k, analog=analog)


def butter(N, Wn, btype="low", analog=False, output="ba", fs=None):
    """cuarray version of `scipy.signal.butter`."""
    return iirfilter(N, Wn, btype=btype, analog=analog, output=output, ftype="butter",
                     fs=fs)


def cheby1(N, rp, Wn, btype="low", analog=False, output="ba", fs=None):
    """cuarray version of `scipy.signal.cheby1`."""
    return iirfilter(N, Wn, rp=rp, btype=btype, analog=analog, output=output,
                     ftype="cheby1", fs=fs)


def cheby2(N, rs, Wn, btype="low", analog=False, output="ba", fs=None):
    """cuarray version of `scipy.signal.cheby2`."""
    return iirfilter(N, Wn, rs=rs, btype=btype, analog=analog, output=output,
                     ftype="cheby2", fs=fs)


def bessel(N, Wn, btype="low", analog=False, output="ba", norm="phase", fs=None):
    """cuarray version of `scipy.signal.bessel` (norm 'phase' or 'delay')."""
    return iirfilter(N, Wn, btype=btype, analog=analog, output=output, ftype="bessel_" + norm,
                     fs=fs)


def _notch_peak(w0, Q, ftype, fs):
    w0, Q = float(w0), float(Q)
    if fs is None or numpy.ndim(fs) != 0 or not float(fs) > 0:
        raise ValueError("Sampling frequency fs must be a single positive scalar.")
    w0 = 2 * w0 / float(fs)
    if w0 > 1.0 or w0 < 0.0:
        raise ValueError("w0 should be such that 0 < w0 < 1")
    bw = w0 / Q * math.pi
    w0 = w0 * math.pi
    beta = math.tan(bw / 2.0)
    gain = 1.0 / (1.0 + beta)
    if ftype == "notch":
        b = gain * numpy.array([1.0, -2.0 * math.cos(w0), 1.0])
    else:
        b = (1.0 - gain) * numpy.array([1.0, 0.0, -1.0])
    a = numpy.array([1.0, -2.0 * gain * math.cos(w0), 2.0 * gain - 1.0])
    return cuarray.asarray(b), cuarray.asarray(a)


def iirnotch(w0, Q, fs=2.0):
    """cuarray version of `scipy.signal.iirnotch` (three coefficients from host scalars)."""
    return _notch_peak(w0, Q, "notch", fs)


def iirpeak(w0, Q, fs=2.0):
    """cuarray version of `scipy.signal.iirpeak` (three coefficients from host scalars)."""
    return _notch_peak(w0, Q, "peak", fs)
