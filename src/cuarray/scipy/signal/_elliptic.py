"""Elliptic (Cauer) filters (cuarray version of `scipy.signal.ellipap`, `ellip`,
`ellipord`). The pole and zero positions come from Jacobi elliptic functions of a few
host scalars (the order and the ripple specification); they are evaluated on the host
with the arithmetic-geometric mean and Landen transformations and moved to the GPU, where
the band transformation and discretisation run."""
import cmath
import math

import numpy

import cuarray

__all__ = ["ellipap", "ellip", "ellipord", "iirdesign"]

_EPS = 2.220446049250313e-16


def _pow10m1(x):
    return math.expm1(x * math.log(10))


def _agm(a, b):
    for _ in range(64):
        if abs(a - b) <= 1e-16 * abs(a):
            break
        a, b = (a + b) / 2, math.sqrt(a * b)
    return a


def _ellipk(m):
    """K(m), the complete elliptic integral of the first kind (parameter m < 1)."""
    return math.pi / (2 * _agm(1.0, math.sqrt(1.0 - m)))


def _ellipkm1(p):
    """K(1 - p), accurate for small p."""
    return math.pi / (2 * _agm(1.0, math.sqrt(p)))


def _ellipj(u, m):
    """(sn, cn, dn) of u for parameter 0 <= m < 1, by the descending Landen sequence of
    the arithmetic-geometric mean."""
    if m < 1e-9:
        s, c = math.sin(u), math.cos(u)
        corr = 0.25 * m * (u - s * c)
        return s - corr * c, c + corr * s, 1 - 0.5 * m * s * s
    a = [1.0]
    cs = [math.sqrt(m)]
    b = math.sqrt(1.0 - m)
    two_n = 1.0
    while abs(cs[-1] / a[-1]) > _EPS and len(a) < 16:
        ai = a[-1]
        cs.append((ai - b) / 2)
        a.append((ai + b) / 2)
        b = math.sqrt(ai * b)
        two_n *= 2
    phi = two_n * a[-1] * u
    prev = phi
    for i in range(len(a) - 1, 0, -1):
        prev = phi
        phi = (math.asin(cs[i] * math.sin(phi) / a[i]) + phi) / 2
    sn, cn = math.sin(phi), math.cos(phi)
    return sn, cn, cn / math.cos(prev - phi)


def _ellipdeg(n, m1):
    """The modulus m of the degree equation for order n and m1 (nome series)."""
    q = math.exp(-math.pi * _ellipkm1(m1) / _ellipk(m1)) ** (1.0 / n)
    num = sum(q ** (i * (i + 1)) for i in range(8))
    den = 1 + 2 * sum(q ** (i * i) for i in range(1, 9))
    return 16 * q * (num / den) ** 4


def _arc_sn(w, m):
    """The inverse of sn for a complex argument, by ascending Landen transformations."""
    def comp(x):
        return cmath.sqrt((1 - x) * (1 + x))
    k = math.sqrt(m)
    if k == 1:
        return cmath.atanh(w)
    ks = [k]
    while ks[-1] != 0:
        kp = comp(ks[-1]).real
        ks.append((1 - kp) / (1 + kp))
        if len(ks) > 12:
            raise ValueError("Landen transformation not converging")
    K = math.pi / 2
    for kn in ks[1:]:
        K *= 1 + kn
    for kn, knext in zip(ks[:-1], ks[1:]):
        w = 2 * w / ((1 + knext) * (1 + comp(kn * w)))
    return K * 2 / math.pi * cmath.asin(w)


def ellipap(N, rp, rs):
    """cuarray version of `scipy.signal.ellipap` (k is a 0-d array)."""
    if abs(int(N)) != N:
        raise ValueError("Filter order must be a nonnegative integer")
    if N == 0:
        e = cuarray.zeros(0, numpy.complex128)
        return e, e, cuarray.asarray(10 ** (-rp / 20))
    if N == 1:
        p = -math.sqrt(1.0 / _pow10m1(0.1 * rp))
        return (cuarray.zeros(0, numpy.complex128),
                cuarray.asarray(numpy.array([p], dtype=numpy.complex128)), cuarray.asarray(-p))
    eps_sq = _pow10m1(0.1 * rp)
    eps = math.sqrt(eps_sq)
    ck1_sq = eps_sq / _pow10m1(0.1 * rs)
    if ck1_sq == 0:
        raise ValueError("Cannot design a filter with given rp and rs specifications.")
    m = _ellipdeg(N, ck1_sq)
    capk = _ellipk(m)
    js = range(1 - N % 2, N, 2)
    scd = [_ellipj(j * capk / N, m) for j in js]
    zs = [1j / (math.sqrt(m) * s) for s, _, _ in scd if abs(s) > _EPS]
    z = numpy.array(zs + [v.conjugate() for v in zs], dtype=numpy.complex128)
    r = _arc_sn(1j / eps, ck1_sq)
    if abs(r.real) > 1e-14:
        raise ValueError("Cannot design a filter with given rp and rs specifications.")
    v0 = capk * r.imag / (N * _ellipk(ck1_sq))
    sv, cv, dv = _ellipj(v0, 1 - m)
    p = numpy.array([-(c * d * sv * cv + 1j * s * dv) / (1 - (d * sv) ** 2)
                     for s, c, d in scd], dtype=numpy.complex128)
    if N % 2:
        tol = _EPS * math.sqrt(float(numpy.sum(p * p.conj()).real))
        p = numpy.concatenate((p, p[numpy.abs(p.imag) > tol].conj()))
    else:
        p = numpy.concatenate((p, p.conj()))
    k = (numpy.prod(-p) / numpy.prod(-z)).real if z.size else numpy.prod(-p).real
    if N % 2 == 0:
        k = k / math.sqrt(1 + eps_sq)
    return cuarray.asarray(z), cuarray.asarray(p), cuarray.asarray(float(k))


def ellip(N, rp, rs, Wn, btype="low", analog=False, output="ba", fs=None):
    """cuarray version of `scipy.signal.ellip`."""
    from cuarray.scipy.signal._iir_design import iirfilter
    return iirfilter(N, Wn, rs=rs, rp=rp, btype=btype, analog=analog, output=output,
                     ftype="elliptic", fs=fs)


def ellipord(wp, ws, gpass, gstop, analog=False, fs=None):
    """cuarray version of `scipy.signal.ellipord` (Wn is a cuarray array)."""
    from cuarray.scipy.signal import _order_selection as o
    o._validate_gpass_gstop(gpass, gstop)
    wp, ws, ftype, passb, stopb = o._validate(wp, ws, fs, analog)
    nat, passb = o._nat_freq(stopb, passb, gpass, gstop, ftype, "ellip")
    arg1_sq = _pow10m1(0.1 * gpass) / _pow10m1(0.1 * gstop)
    arg0_sq = (1.0 / nat) ** 2
    order = int(math.ceil(_ellipk(arg0_sq) * _ellipkm1(arg1_sq)
                          / (_ellipkm1(arg0_sq) * _ellipk(arg1_sq))))
    return order, o._post(passb, analog, fs)


def iirdesign(wp, ws, gpass, gstop, analog=False, ftype="ellip", output="ba", fs=None):
    """cuarray version of `scipy.signal.iirdesign`."""
    from cuarray.scipy.signal import _order_selection as o
    from cuarray.scipy.signal._iir_design import _TYPES, iirfilter
    ords = {"butter": o.buttord, "cheby1": o.cheb1ord, "cheby2": o.cheb2ord,
            "ellip": ellipord}
    kind = _TYPES.get(ftype)
    if kind is None:
        raise ValueError(f"Invalid IIR filter type: {ftype}")
    if kind not in ords:
        raise ValueError(f"{ftype} does not have order selection. Use iirfilter function.")
    o._validate_gpass_gstop(gpass, gstop)
    wp = numpy.atleast_1d(numpy.asarray(wp, dtype=float))
    ws = numpy.atleast_1d(numpy.asarray(ws, dtype=float))
    if wp.shape[0] != ws.shape[0] or wp.shape not in ((1,), (2,)):
        raise ValueError(f"wp and ws must have one or two elements each, and the same shape, "
                         f"got {wp.shape} and {ws.shape}")
    if (wp <= 0).any() or (ws <= 0).any():
        raise ValueError("Values for wp, ws must be greater than 0")
    if not analog:
        if fs is None:
            if (wp >= 1).any() or (ws >= 1).any():
                raise ValueError("Values for wp, ws must be less than 1")
        elif (wp >= fs / 2).any() or (ws >= fs / 2).any():
            raise ValueError(f"Values for wp, ws must be less than fs/2 (fs={fs} -> "
                             f"fs/2={fs / 2})")
    if wp.shape[0] == 2 and not ((ws[0] < wp[0] and wp[1] < ws[1])
                                 or (wp[0] < ws[0] and ws[1] < wp[1])):
        raise ValueError("Passband must lie strictly inside stopband or vice versa")
    band = 2 * (wp.shape[0] - 1) + 1 + (1 if wp[0] >= ws[0] else 0)
    btype = {1: "lowpass", 2: "highpass", 3: "bandstop", 4: "bandpass"}[band]
    N, Wn = ords[kind](wp, ws, gpass, gstop, analog=analog, fs=fs)
    return iirfilter(N, cuarray.asnumpy(Wn), rp=gpass, rs=gstop, analog=analog, btype=btype,
                     ftype=ftype, output=output, fs=fs)
