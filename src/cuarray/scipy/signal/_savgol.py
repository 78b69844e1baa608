"""Savitzky-Golay smoothing (cuarray version of `scipy.signal.savgol_coeffs`,
`savgol_filter`): the coefficients by least squares with cuarray.linalg, the filter as a
direct convolution along the axis with ndimage's boundary modes, the 'interp' edges as
one small matrix product per edge."""
import math

import numpy

import cuarray
from cuarray._core.host_policy import not_device_error
from cuarray._core.ndarray import ndarray

__all__ = ["savgol_coeffs", "savgol_filter"]


def savgol_coeffs(window_length, polyorder, deriv=0, delta=1.0, pos=None, use="conv"):
    """cuarray version of `scipy.signal.savgol_coeffs`."""
    if polyorder >= window_length:
        raise ValueError("polyorder must be less than window_length.")
    halflen, rem = divmod(window_length, 2)
    if pos is None:
        pos = halflen if rem else halflen - 0.5
    if not 0 <= pos < window_length:
        raise ValueError("pos must be nonnegative and less than window_length.")
    if use not in ("conv", "dot"):
        raise ValueError("`use` must be 'conv' or 'dot'")
    if deriv > polyorder:
        return cuarray.zeros(window_length)
    x = cuarray.arange(-pos, window_length - pos, dtype=numpy.float64)
    if use == "conv":
        x = x[::-1]
    # Rows scaled by s^-k (x/s keeps the Vandermonde rows comparable); the right-hand
    # side scales alike, so the minimum-norm solution is unchanged.
    s = max(float(halflen), 1.0)
    order = cuarray.arange(polyorder + 1, dtype=numpy.float64).reshape(-1, 1)
    A = (x / s) ** order
    y = cuarray.zeros(polyorder + 1)
    y[deriv] = math.factorial(deriv) / (delta ** deriv) / s ** deriv
    return cuarray.linalg.lstsq(A, y, rcond=None)[0]


def _conv1d(x, c, axis, mode, cval):
    """ndimage.convolve1d(x, c, axis, mode=mode, cval=cval) in x's dtype."""
    from cuarray.scipy.signal._convolution import _direct
    K = c.size
    cen = K // 2
    left, right = K - 1 - cen, cen
    pad = [(0, 0)] * x.ndim
    pad[axis] = (left, right)
    if mode == "constant":
        xp = cuarray.pad(x, pad, constant_values=cval)
    else:
        npmode = {"mirror": "reflect", "nearest": "edge", "wrap": "wrap"}[mode]
        if npmode == "reflect" and x.shape[axis] == 1:
            npmode = "edge"
        xp = cuarray.pad(x, pad, mode=npmode)
    shape = [1] * x.ndim
    shape[axis] = K
    return _direct(xp, c.astype(x.dtype).reshape(shape), "valid", x.dtype)


def _edge_matrix(window_length, polyorder, deriv, delta, points):
    """E with E @ window = the fitted polynomial's deriv-th derivative at `points`."""
    s = float(window_length)
    t = cuarray.arange(window_length, dtype=numpy.float64) / s
    V = t.reshape(-1, 1) ** cuarray.arange(polyorder + 1, dtype=numpy.float64)
    u = cuarray.asarray(numpy.asarray(points, dtype=numpy.float64)) / s
    m = numpy.arange(polyorder + 1)
    fac = numpy.array([math.factorial(k) / math.factorial(k - deriv) if k >= deriv else 0.0
                       for k in m.tolist()])
    powers = numpy.maximum(m - deriv, 0).astype(numpy.float64)
    D = u.reshape(-1, 1) ** cuarray.asarray(powers) * cuarray.asarray(fac)
    return D @ cuarray.linalg.pinv(V) / (s ** deriv * delta ** deriv)


def savgol_filter(x, window_length, polyorder, deriv=0, delta=1.0, axis=-1, mode="interp",
                  cval=0.0):
    """cuarray version of `scipy.signal.savgol_filter`."""
    if mode not in ("mirror", "constant", "nearest", "interp", "wrap"):
        raise ValueError("mode must be 'mirror', 'constant', 'nearest' 'wrap' or 'interp'.")
    if not isinstance(x, ndarray):
        raise not_device_error("savgol_filter", x, "cuarray.scipy.signal.")
    if x.dtype != numpy.float64 and x.dtype != numpy.float32:
        x = x.astype(numpy.float64)
    axis = axis % x.ndim if -x.ndim <= axis < x.ndim else axis
    if not 0 <= axis < x.ndim:
        raise numpy.exceptions.AxisError(axis, x.ndim)
    coeffs = savgol_coeffs(window_length, polyorder, deriv=deriv, delta=delta)
    if mode != "interp":
        return _conv1d(x, coeffs, axis, mode, cval)
    n = x.shape[axis]
    if window_length > n:
        raise ValueError("If mode is 'interp', window_length must be less than or equal to "
                         "the size of x.")
    y = _conv1d(x, coeffs, axis, "constant", 0.0)
    half = window_length // 2
    if half == 0:
        return y
    ym = cuarray.moveaxis(y, axis, -1)
    xm = cuarray.moveaxis(x, axis, -1)
    W = window_length
    E0 = _edge_matrix(W, polyorder, deriv, delta, range(half)).astype(x.dtype)
    E1 = _edge_matrix(W, polyorder, deriv, delta, range(W - half, W)).astype(x.dtype)
    ym[..., :half] = xm[..., :W] @ E0.T
    ym[..., n - half:] = xm[..., n - W:] @ E1.T
    return y
