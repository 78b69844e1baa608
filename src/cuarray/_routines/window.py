"""Window functions (NumPy reference: "Window functions"): one kernel each, evaluating
NumPy's formula at the position of each output element.

NumPy computes in float64 with `n = arange(1 - M, M, 2)` (`arange(M)` for kaiser); the
kernels do the same arithmetic in the same order, without fused multiply-adds.
"""
import math
import operator

import numpy

from cuarray._core.elementwise import Op, Param
from cuarray._core.ndarray import ndarray

__all__ = ["bartlett", "blackman", "hamming", "hanning", "kaiser"]

_f64 = numpy.dtype(numpy.float64)
_NO_FMA = ("--fmad=false",)
_PRE = "#define CUARRAY_PI 3.141592653589793\n"

# y = f(n, Mm1) with n = 1 - M + 2i, Mm1 = M - 1, in NumPy's operation order.
_BODIES = {
    "bartlett": "y = n <= 0.0 ? 1.0 + n / Mm1 : 1.0 - n / Mm1;",
    "blackman": "y = 0.42 + 0.5 * cos(CUARRAY_PI * n / Mm1) + 0.08 * cos(2.0 * CUARRAY_PI * n / Mm1);",
    "hamming": "y = 0.54 + 0.46 * cos(CUARRAY_PI * n / Mm1);",
    "hanning": "y = 0.5 + 0.5 * cos(CUARRAY_PI * n / Mm1);",
}
_ops = {}


def _window_op(name):
    op = _ops.get(name)
    if op is None:
        op = _ops[name] = Op(
            f"cuarray_window_{name}",
            [Param("start", "scalar", _f64), Param("Mm1", "scalar", _f64), Param("y", "out", _f64)],
            "const double n = start + 2.0 * (double)i; " + _BODIES[name],
            preamble=_PRE, options=_NO_FMA)
    return op


def _length(M, name):
    """The number of points NumPy's `arange(1 - M, M, 2)` has, or None for M < 1 / M == 1."""
    try:
        M = operator.index(M)
    except TypeError:
        M = float(M)  # NumPy takes float M through arange
    if M < 1:
        return M, 0
    if M == 1:
        return M, 1
    return M, max(0, math.ceil((2 * M - 1) / 2))


def _window(M, name):
    M, n = _length(M, name)
    y = ndarray._alloc((n,), _f64)
    if n == 1 and M == 1:
        y.fill(1.0)
    elif n:
        _window_op(name).launch((_f64.type(1 - M), _f64.type(M - 1), y))
    return y


def bartlett(M):
    """cuarray version of `numpy.bartlett`."""
    return _window(M, "bartlett")


def blackman(M):
    """cuarray version of `numpy.blackman`."""
    return _window(M, "blackman")


def hamming(M):
    """cuarray version of `numpy.hamming`."""
    return _window(M, "hamming")


def hanning(M):
    """cuarray version of `numpy.hanning`."""
    return _window(M, "hanning")


def _kaiser_op():
    from cuarray._routines.math import _I0_PRE, _types
    op = _ops.get("kaiser")
    if op is None:
        op = _ops["kaiser"] = Op(
            "cuarray_window_kaiser",
            [Param("alpha", "scalar", _f64), Param("beta", "scalar", _f64),
             Param("den", "scalar", _f64), Param("y", "out", _f64)],
            "const double t = ((double)i - alpha) / alpha;"
            " y = _i0(beta * sqrt(1.0 - t * t)) / den;",
            preamble=_types(T=_f64) + _I0_PRE, options=_NO_FMA)
    return op


def kaiser(M, beta):
    """cuarray version of `numpy.kaiser`."""
    M, n = _length(M, "kaiser")
    if M > 1:
        n = max(0, math.ceil(M))  # arange(0, M)
    y = ndarray._alloc((n,), _f64)
    if n == 1 and M == 1:
        y.fill(1.0)
    elif n:
        beta = float(beta)
        _kaiser_op().launch((_f64.type((M - 1) / 2.0), _f64.type(beta),
                             _f64.type(numpy.i0(beta)), y))
    return y
