"""B-spline filtering (cuarray version of `scipy.signal.cspline1d`, `qspline1d`, their
`*_eval`, `cspline2d`, `qspline2d`, `spline_filter`, `symiirorder1`, `symiirorder2`,
`gauss_spline`). The recursive filters run on cuarray's parallel-scan lfilter/sosfilt;
their symmetric-boundary initial conditions are dot products with geometric weights."""
import math

import numpy

import cuarray
from cuarray._core.host_policy import not_device_error
from cuarray._core.ndarray import ndarray
from cuarray.scipy.signal._lfilter import lfilter, lfiltic, sosfilt

__all__ = ["gauss_spline", "cspline1d", "qspline1d", "cspline1d_eval", "qspline1d_eval",
           "symiirorder1", "symiirorder2", "cspline2d", "qspline2d", "spline_filter"]


def _arr(x, name):
    if not isinstance(x, ndarray):
        raise not_device_error(name, x, "cuarray.scipy.signal.")
    return x


def gauss_spline(x, n):
    """cuarray version of `scipy.signal.gauss_spline`."""
    x = _arr(x, "gauss_spline")
    signsq = (n + 1) / 12.0
    return 1 / math.sqrt(2 * math.pi * signsq) * cuarray.exp(-x ** 2 / 2 / signsq)


def _first_order_coeff(signal, zi, gain):
    """The causal/anti-causal first-order pass shared by cspline1d and qspline1d."""
    K = signal.size
    powers = zi ** cuarray.arange(K, dtype=numpy.float64)
    if K == 1:
        yplus = signal[0] + zi * cuarray.sum(powers * signal)
        return cuarray.atleast_1d(zi / (zi - 1) * yplus) * gain
    a = numpy.array([1.0, -zi])
    state = lfiltic([1.0], a, cuarray.sum(powers * signal).reshape(1))
    yplus, _ = lfilter(numpy.ones(1), a, signal, zi=state)
    out_last = zi / (zi - 1) * yplus[K - 1:K]
    state = lfiltic([-zi], a, out_last)
    output, _ = lfilter(numpy.array([-zi]), a, yplus[-2::-1], zi=state)
    return cuarray.concatenate((output[::-1], out_last)) * gain


def _coeff_smooth(lam):
    xi = 1 - 96 * lam + 24 * lam * math.sqrt(3 + 144 * lam)
    omeg = math.atan2(math.sqrt(144 * lam - 1), math.sqrt(xi))
    rho = (24 * lam - 1 - math.sqrt(xi)) / (24 * lam)
    rho = rho * math.sqrt((48 * lam + 24 * lam * math.sqrt(3 + 144 * lam)) / xi)
    return rho, omeg


def _hc(k, cs, rho, omega):
    return cs / math.sin(omega) * rho ** k * cuarray.sin(omega * (k + 1)) * (k > -1)


def _hs(k, cs, rho, omega):
    c0 = (cs * cs * (1 + rho * rho) / (1 - rho * rho)
          / (1 - 2 * rho * rho * math.cos(2 * omega) + rho ** 4))
    gamma = (1 - rho * rho) / (1 + rho * rho) / math.tan(omega)
    ak = cuarray.abs(k)
    return c0 * rho ** ak * (cuarray.cos(omega * ak) + gamma * cuarray.sin(omega * ak))


def _cubic_smooth_coeff(signal, lamb):
    rho, omega = _coeff_smooth(lamb)
    cs = 1 - 2 * rho * math.cos(omega) + rho * rho
    k = cuarray.arange(signal.size, dtype=numpy.float64)
    h0 = cs / math.sin(omega) * math.sin(omega)
    zi_2 = h0 * signal[0] + cuarray.sum(_hc(k + 1, cs, rho, omega) * signal)
    zi_1 = (h0 * signal[0] + _hc(1.0, cs, rho, omega) * signal[1]
            + cuarray.sum(_hc(k + 2, cs, rho, omega) * signal))
    a = numpy.array([1, -2 * rho * math.cos(omega), rho * rho])
    sos = numpy.array([[cs, 0, 0, 1, -2 * rho * math.cos(omega), rho * rho]])
    zi = lfiltic([cs], a, cuarray.stack([zi_1, zi_2])).reshape(1, -1)
    yp, _ = sosfilt(sos, signal[2:], zi=zi)
    yp = cuarray.concatenate((zi_2.reshape(1), zi_1.reshape(1), yp))
    rev = signal[::-1]
    zi_2 = cuarray.sum((_hs(k, cs, rho, omega) + _hs(k + 1, cs, rho, omega)) * rev)
    zi_1 = cuarray.sum((_hs(k - 1, cs, rho, omega) + _hs(k + 2, cs, rho, omega)) * rev)
    zi = lfiltic([cs], a, cuarray.stack([zi_1, zi_2])).reshape(1, -1)
    y, _ = sosfilt(sos, yp[-3::-1], zi=zi)
    return cuarray.concatenate((y[::-1], zi_1.reshape(1), zi_2.reshape(1)))


def cspline1d(signal, lamb=0.0):
    """cuarray version of `scipy.signal.cspline1d`."""
    signal = _arr(signal, "cspline1d")
    if lamb != 0.0:
        return _cubic_smooth_coeff(signal, lamb)
    return _first_order_coeff(signal, -2 + math.sqrt(3), 6.0)


def qspline1d(signal, lamb=0.0):
    """cuarray version of `scipy.signal.qspline1d`."""
    signal = _arr(signal, "qspline1d")
    if lamb != 0.0:
        raise ValueError("Smoothing quadratic splines not supported yet.")
    return _first_order_coeff(signal, -3 + 2 * math.sqrt(2.0), 8.0)


def _cubic(x):
    ax = cuarray.abs(x)
    inner = 2.0 / 3 - ax * ax + ax ** 3 / 2
    outer = (2 - ax) ** 3 / 6
    return cuarray.where(ax < 1, inner, cuarray.where(ax <= 2, outer, 0.0))


def _quadratic(x):
    ax = cuarray.abs(x)
    inner = 0.75 - ax * ax
    outer = (ax - 1.5) ** 2 / 2
    return cuarray.where(ax < 0.5, inner, cuarray.where(ax <= 1.5, outer, 0.0))


def _spline_eval(cj, newx, dx, x0, basis, lower, nterms, dtype):
    cj = _arr(cj, "spline eval")
    if cj.size == 0:
        raise ValueError("Spline coefficients 'cj' must not be empty.")
    newx = cuarray.asarray(newx) if not isinstance(newx, ndarray) else newx
    x = (newx - x0) / float(dx)
    if x.size == 0:
        return cuarray.zeros(x.shape, dtype)
    N = cj.size
    if N > 1:
        # Mirror-symmetric extension: fold onto [0, N - 1] with period 2(N - 1).
        period = 2.0 * (N - 1)
        x = cuarray.mod(cuarray.abs(x), period)
        x = cuarray.where(x > N - 1, period - x, x)
    else:
        x = x * 0
    jlower = cuarray.floor(x - lower).astype(numpy.int64) + 1
    res = cuarray.zeros(x.shape, dtype)
    for i in range(nterms):
        j = jlower + i
        res = res + cj[cuarray.clip(j, 0, N - 1)] * basis(x - j)
    return res.astype(dtype, copy=False)


def cspline1d_eval(cj, newx, dx=1.0, x0=0):
    """cuarray version of `scipy.signal.cspline1d_eval`."""
    return _spline_eval(cj, newx, dx, x0, _cubic, 2.0, 4, cj.dtype)


def qspline1d_eval(cj, newx, dx=1.0, x0=0):
    """cuarray version of `scipy.signal.qspline1d_eval`."""
    x = cuarray.asarray(newx) if not isinstance(newx, ndarray) else newx
    dt = numpy.result_type(x.dtype, numpy.float64 if x.dtype.kind in "biu" else x.dtype)
    return _spline_eval(cj, newx, dx, x0, _quadratic, 1.5, 3, dt)


def _precision(dtype, precision):
    if precision <= 0.0 or precision > 1.0:
        return 1e-6 if dtype in (numpy.float32, numpy.complex64) else 1e-11
    return precision


def _float(x):
    return x if x.dtype.kind in "fc" else x.astype(numpy.float64)


def symiirorder1(signal, c0, z1, precision=-1.0):
    """cuarray version of `scipy.signal.symiirorder1`."""
    signal = _float(_arr(signal, "symiirorder1"))
    if abs(z1) >= 1:
        raise ValueError("|z1| must be less than 1.0")
    if signal.ndim > 2:
        raise ValueError("Input must be 1D or 2D")
    squeeze = signal.ndim == 1
    x = signal.reshape(1, -1) if squeeze else signal
    dt = x.dtype
    N = x.shape[1]
    p = _precision(dt, precision)
    # y0 = x0 + z1 * sum_k z1^k x_k over the terms with |z1|^k > precision.
    m = 1 if abs(z1) == 0 else int(math.floor(math.log(p) / math.log(abs(z1)))) + 1
    while m > 0 and abs(z1) ** (m - 1) <= p:
        m -= 1
    while abs(z1) ** m > p:
        m += 1
    if m > N:
        raise ValueError("Sum to find symmetric boundary conditions did not converge.")
    w = (cuarray.asarray(numpy.asarray(z1, dtype=dt)) **
         cuarray.arange(m, dtype=numpy.float64).astype(dt))
    y0 = x[:, :1] + z1 * cuarray.sum(x[:, :m] * w, axis=1, keepdims=True)
    a = numpy.array([1, -z1], dtype=dt)
    b = numpy.ones(1, dtype=dt)
    y1, _ = lfilter(b, a, x[:, 1:], axis=-1, zi=y0 * z1)
    y1 = cuarray.concatenate((y0, y1), axis=1)
    out_last = -c0 / (z1 - 1.0) * y1[:, -1:]
    out, _ = lfilter(numpy.array([c0], dtype=dt), a, y1[:, -2::-1], axis=-1,
                     zi=out_last * z1)
    out = cuarray.concatenate((out[:, ::-1], out_last), axis=1).astype(dt, copy=False)
    return out[0] if squeeze else out


def symiirorder2(input, r, omega, precision=-1.0):
    """cuarray version of `scipy.signal.symiirorder2` (the boundary sums run over the whole
    signal instead of stopping at `precision`: differences stay below it)."""
    x = _float(_arr(input, "symiirorder2"))
    if r >= 1.0:
        raise ValueError("r must be less than 1.0")
    if x.ndim > 2:
        raise ValueError("Input must be 1D or 2D")
    squeeze = x.ndim == 1
    if squeeze:
        x = x.reshape(1, -1)
    dt = x.dtype
    rsq = r * r
    a2 = 2 * r * math.cos(omega)
    a3 = -rsq
    cs = 1 - 2 * r * math.cos(omega) + rsq
    sos = numpy.array([[cs, 0, 0, 1, -a2, -a3]], dtype=dt)
    k = cuarray.arange(x.shape[1], dtype=numpy.float64)
    h0 = cs  # _hc(0) = cs / sin(omega) * sin(omega)
    f0 = h0 * x[:, 0] + cuarray.sum(_hc(k + 1, cs, r, omega) * x, axis=1)
    f1 = (h0 * x[:, 1] + _hc(1.0, cs, r, omega) * x[:, 0]
          + cuarray.sum(_hc(k + 2, cs, r, omega) * x, axis=1))
    ic_fwd = cuarray.stack([f0, f1], axis=1).astype(dt)
    rev = x[:, ::-1]
    b0 = cuarray.sum((_hs(k, cs, r, omega) + _hs(k + 1, cs, r, omega)) * rev, axis=1)
    b1 = cuarray.sum((_hs(k - 1, cs, r, omega) + _hs(k + 2, cs, r, omega)) * rev, axis=1)
    ic_bwd = cuarray.stack([b0, b1], axis=1).astype(dt)

    def zi_of(ic):   # [[a3, a2], [0, a3]] @ ic per row
        return cuarray.stack([a3 * ic[:, 0] + a2 * ic[:, 1], a3 * ic[:, 1]], axis=1)[None]
    y_fwd, _ = sosfilt(sos, x[:, 2:], zi=zi_of(ic_fwd).astype(dt))
    y_fwd = cuarray.concatenate((ic_fwd, y_fwd), axis=1)
    y, _ = sosfilt(sos, y_fwd[:, -3::-1], zi=zi_of(ic_bwd).astype(dt))
    out = cuarray.concatenate((y[:, ::-1], ic_bwd[:, ::-1]), axis=1).astype(dt, copy=False)
    return out[0] if squeeze else out


def _along(func, x, axis, *args, **kw):
    xm = cuarray.moveaxis(x, axis, -1)
    shape = xm.shape
    out = func(cuarray.ascontiguousarray(xm).reshape(-1, shape[-1]), *args, **kw)
    return cuarray.moveaxis(out.reshape(shape), -1, axis)


def _precision2d(dtype, precision):
    if precision < 0.0 or precision >= 1.0:
        return 1e-3 if dtype in (numpy.float32, numpy.complex64) else 1e-6
    return precision


def qspline2d(signal, lamb=0.0, precision=-1.0):
    """cuarray version of `scipy.signal.qspline2d`."""
    signal = _arr(signal, "qspline2d")
    precision = _precision2d(signal.dtype, precision)
    if lamb > 0:
        raise ValueError("lambda must be negative or zero")
    r = -3 + 2 * math.sqrt(2.0)
    out = _along(symiirorder1, signal, -1, -r * 8.0, r, precision)
    return _along(symiirorder1, out, 0, -r * 8.0, r, precision)


def cspline2d(signal, lamb=0.0, precision=-1.0):
    """cuarray version of `scipy.signal.cspline2d`."""
    signal = _arr(signal, "cspline2d")
    precision = _precision2d(signal.dtype, precision)
    if lamb <= 1 / 144.0:
        r = -2 + math.sqrt(3.0)
        out = _along(symiirorder1, signal, -1, -r * 6.0, r, precision=precision)
        return _along(symiirorder1, out, 0, -r * 6.0, r, precision=precision)
    tmp = math.sqrt(3 + 144 * lamb)
    xi = 1 - 96 * lamb + 24 * lamb * tmp
    omega = math.atan(math.sqrt((144 * lamb - 1.0) / xi))
    r = ((24 * lamb - 1 - math.sqrt(xi)) / (24 * lamb)
         * math.sqrt(48 * lamb + 24 * lamb * tmp) / math.sqrt(xi))
    out = _along(symiirorder2, signal, -1, r, omega, precision=precision)
    return _along(symiirorder2, out, 0, r, omega, precision=precision)


def spline_filter(Iin, lmbda=5.0):
    """cuarray version of `scipy.signal.spline_filter`."""
    from cuarray.scipy.signal._order_filters import sepfir2d
    Iin = _arr(Iin, "spline_filter")
    if Iin.dtype not in (numpy.float32, numpy.float64, numpy.complex64, numpy.complex128):
        raise TypeError(f"Invalid data type for Iin: {Iin.dtype = }")
    intype = Iin.dtype
    hcol = cuarray.asarray(numpy.array([1.0, 4.0, 1.0], numpy.float32) / 6.0)
    if intype == numpy.complex128:
        Iin = Iin.astype(numpy.complex64)
    ck = cspline2d(Iin, lmbda)
    return sepfir2d(ck, hcol, hcol).astype(intype)
