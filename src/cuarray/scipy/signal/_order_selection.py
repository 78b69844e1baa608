"""Minimum filter orders for a specification (cuarray version of `scipy.signal.buttord`,
`cheb1ord`, `cheb2ord`). The specification is a handful of host scalars; the natural
frequency and order are worked out on the host and the band edges returned as a cuarray
array."""
import math

import numpy

import cuarray

__all__ = ["buttord", "cheb1ord", "cheb2ord", "band_stop_obj"]


def _validate_gpass_gstop(gpass, gstop):
    if gpass <= 0.0:
        raise ValueError("gpass should be larger than 0.0")
    if gstop <= 0.0:
        raise ValueError("gstop should be larger than 0.0")
    if gpass > gstop:
        raise ValueError("gpass should be smaller than gstop")


def _host(v):
    return numpy.atleast_1d(numpy.asarray(cuarray.asnumpy(v) if isinstance(v, cuarray.ndarray)
                                          else v, dtype=float))


def _validate(wp, ws, fs, analog):
    wp, ws = _host(wp), _host(ws)
    if fs is not None:
        if analog:
            raise ValueError("fs cannot be specified for an analog filter")
        wp, ws = 2 * wp / fs, 2 * ws / fs
    ftype = 2 * (wp.shape[0] - 1) + 1
    if wp[0] >= ws[0]:
        ftype += 1
    if analog:
        return wp, ws, ftype, wp, ws
    return wp, ws, ftype, numpy.tan(numpy.pi * wp / 2.0), numpy.tan(numpy.pi * ws / 2.0)


def _band_stop_n(wpv, ind, passb, stopb, gpass, gstop, kind):
    pb = passb.copy()
    pb[ind] = wpv
    nat = numpy.min(numpy.abs(stopb * (pb[0] - pb[1]) / (stopb ** 2 - pb[0] * pb[1])))
    GSTOP, GPASS = 10 ** (0.1 * abs(gstop)), 10 ** (0.1 * abs(gpass))
    if kind == "butter":
        return numpy.log10((GSTOP - 1.0) / (GPASS - 1.0)) / (2 * numpy.log10(nat))
    if kind == "ellip":
        return band_stop_obj(wpv, ind, passb, stopb, gpass, gstop, "ellip")
    return numpy.arccosh(numpy.sqrt((GSTOP - 1.0) / (GPASS - 1.0))) / numpy.arccosh(nat)


def _ellipk(m):
    """The complete elliptic integral of the first kind K(m), by the AGM."""
    a, b = 1.0, math.sqrt(1.0 - m)
    for _ in range(60):
        if abs(a - b) <= 1e-16 * a:
            break
        a, b = (a + b) / 2, math.sqrt(a * b)
    return math.pi / (2 * a)


def band_stop_obj(wp, ind, passb, stopb, gpass, gstop, type):
    """cuarray version of `scipy.signal.band_stop_obj` (host scalars in, a float out)."""
    _validate_gpass_gstop(gpass, gstop)
    passb, stopb = _host(passb), _host(stopb)
    if type in ("butter", "cheby"):
        return float(_band_stop_n(wp, ind, passb, stopb, gpass, gstop, type))
    if type != "ellip":
        raise ValueError(f"Incorrect type: {type}")
    pb = passb.copy()
    pb[ind] = wp
    nat = float(numpy.min(numpy.abs(stopb * (pb[0] - pb[1]) / (stopb ** 2 - pb[0] * pb[1]))))
    GSTOP, GPASS = 10 ** (0.1 * gstop), 10 ** (0.1 * gpass)
    arg1 = math.sqrt((GPASS - 1.0) / (GSTOP - 1.0))
    arg0 = 1.0 / nat
    return (_ellipk(arg0 ** 2) * _ellipk(1 - arg1 ** 2)
            / (_ellipk(1 - arg0 ** 2) * _ellipk(arg1 ** 2)))


def _minimize(f, lo, hi):
    """Golden-section search for the minimum of a unimodal f on [lo, hi]."""
    g = (math.sqrt(5) - 1) / 2
    a, b = lo, hi
    c, d = b - g * (b - a), a + g * (b - a)
    fc, fd = f(c), f(d)
    for _ in range(200):
        if abs(b - a) <= 1e-12 * max(1.0, abs(a) + abs(b)):
            break
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - g * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = a + g * (b - a)
            fd = f(d)
    return (a + b) / 2


def _nat_freq(stopb, passb, gpass, gstop, ftype, kind):
    if ftype == 1:
        nat = stopb / passb
    elif ftype == 2:
        nat = passb / stopb
    elif ftype == 3:
        wp0 = _minimize(lambda v: _band_stop_n(v, 0, passb, stopb, gpass, gstop, kind),
                        passb[0], stopb[0] - 1e-12)
        wp1 = _minimize(lambda v: _band_stop_n(v, 1, passb, stopb, gpass, gstop, kind),
                        stopb[1] + 1e-12, passb[1])
        passb = numpy.array([wp0, wp1])
        nat = (stopb * (passb[0] - passb[1])) / (stopb ** 2 - passb[0] * passb[1])
    else:
        nat = (stopb ** 2 - passb[0] * passb[1]) / (stopb * (passb[0] - passb[1]))
    return float(numpy.min(numpy.abs(nat))), passb


def _post(WN, analog, fs):
    wn = WN if analog else numpy.arctan(WN) * 2.0 / numpy.pi
    wn = numpy.asarray(wn, dtype=float)
    if wn.shape and wn.shape[0] == 1:
        wn = wn[0]
    if fs is not None:
        wn = wn * fs / 2
    return cuarray.asarray(wn)


def buttord(wp, ws, gpass, gstop, analog=False, fs=None):
    """cuarray version of `scipy.signal.buttord` (Wn is a cuarray array, 0-d for one
    edge)."""
    _validate_gpass_gstop(gpass, gstop)
    wp, ws, ftype, passb, stopb = _validate(wp, ws, fs, analog)
    nat, passb = _nat_freq(stopb, passb, gpass, gstop, ftype, "butter")
    GSTOP, GPASS = 10 ** (0.1 * abs(gstop)), 10 ** (0.1 * abs(gpass))
    order = int(math.ceil(math.log10((GSTOP - 1.0) / (GPASS - 1.0)) / (2 * math.log10(nat))))
    W0 = (GPASS - 1.0) ** (-1.0 / (2.0 * order)) if order else 1.0
    if ftype == 1:
        WN = W0 * passb
    elif ftype == 2:
        WN = passb / W0
    elif ftype == 3:
        discr = math.sqrt((passb[1] - passb[0]) ** 2 + 4 * W0 ** 2 * passb[0] * passb[1])
        WN = numpy.sort(numpy.abs([((passb[1] - passb[0]) + discr) / (2 * W0),
                                   ((passb[1] - passb[0]) - discr) / (2 * W0)]))
    else:
        W0 = numpy.array([-W0, W0])
        WN = (-W0 * (passb[1] - passb[0]) / 2.0
              + numpy.sqrt(W0 ** 2 / 4.0 * (passb[1] - passb[0]) ** 2 + passb[0] * passb[1]))
        WN = numpy.sort(numpy.abs(WN))
    return order, _post(WN, analog, fs)


def _cheb_order(wp, ws, gpass, gstop, analog, fs):
    _validate_gpass_gstop(gpass, gstop)
    wp, ws, ftype, passb, stopb = _validate(wp, ws, fs, analog)
    nat, passb = _nat_freq(stopb, passb, gpass, gstop, ftype, "cheby")
    GSTOP, GPASS = 10 ** (0.1 * abs(gstop)), 10 ** (0.1 * abs(gpass))
    v = math.acosh(math.sqrt((GSTOP - 1.0) / (GPASS - 1.0)))
    return int(math.ceil(v / math.acosh(nat))), v, ftype, passb


def cheb1ord(wp, ws, gpass, gstop, analog=False, fs=None):
    """cuarray version of `scipy.signal.cheb1ord` (Wn is a cuarray array)."""
    order, _, _, passb = _cheb_order(wp, ws, gpass, gstop, analog, fs)
    return order, _post(passb, analog, fs)


def cheb2ord(wp, ws, gpass, gstop, analog=False, fs=None):
    """cuarray version of `scipy.signal.cheb2ord` (Wn is a cuarray array)."""
    order, v, ftype, passb = _cheb_order(wp, ws, gpass, gstop, analog, fs)
    new_freq = 1.0 / math.cosh(1.0 / order * v)
    if ftype == 1:
        nat = passb / new_freq
    elif ftype == 2:
        nat = passb * new_freq
    elif ftype == 3:
        nat0 = (new_freq / 2.0 * (passb[0] - passb[1])
                + math.sqrt(new_freq ** 2 * (passb[1] - passb[0]) ** 2 / 4.0
                            + passb[1] * passb[0]))
        nat = numpy.array([nat0, passb[1] * passb[0] / nat0])
    else:
        nat0 = (1.0 / (2.0 * new_freq) * (passb[0] - passb[1])
                + math.sqrt((passb[1] - passb[0]) ** 2 / (4.0 * new_freq ** 2)
                            + passb[1] * passb[0]))
        nat = numpy.array([nat0, passb[0] * passb[1] / nat0])
    return order, _post(nat, analog, fs)
