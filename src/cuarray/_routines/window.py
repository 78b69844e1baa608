"""Window functions (NumPy reference: "Window functions"): one kernel each, evaluating
NumPy's formula at the position of each output element.

NumPy computes in float64 with `n = arange(1 - M, M, 2)` (`arange(M)` for kaiser); the
kernels do the same arithmetic in the same order, without fused multiply-adds (but for
kaiser's Chebyshev series: see `_KAISER_PRE`).
"""
import functools
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


# Kaiser's window is i0 of Cephes' Chebyshev series (NumPy's i0) at each point. It is
# compute-bound (about 150 double operations a point), so each thread evaluates one point
# of the first half and writes it at both ends: t and -t give the same t * t, so the
# mirrored value is the one NumPy computes there. The series' recurrence is one fused
# multiply-add a term (b0 = x * b1 + (c - b2): c - b2 is known a term ahead), which keeps
# the result within a few units in the last place of NumPy's unfused evaluation.
_KAISER_PRE = r"""
__device__ __forceinline__ double _kaiser_chbevl(double x, const double* c, int n) {
  double b0 = c[0], b1 = 0.0, b2 = 0.0;
  #pragma unroll
  for (int k = 1; k < n; ++k) {
    b2 = b1; b1 = b0;
    b0 = fma(x, b1, c[k] - b2);
  }
  return 0.5 * (b0 - b2);
}
__device__ __forceinline__ double _kaiser_i0(double x) {
  x = fabs(x);
  const double e = exp(x);
  if (x <= 8.0) return e * _kaiser_chbevl(x / 2.0 - 2.0, _i0A, 30);
  return e * _kaiser_chbevl(32.0 / x - 2.0, _i0B, 25) / sqrt(x);
}
"""


def _kaiser_op():
    from cuarray._routines.math import _I0A, _I0B
    op = _ops.get("kaiser")
    if op is None:
        tables = "".join(f"__device__ const double _i0{k}[{len(v)}] = {{{', '.join(map(repr, v))}}};\n"
                         for k, v in (("A", _I0A), ("B", _I0B)))
        op = _ops["kaiser"] = Op(
            "cuarray_window_kaiser_half",
            [Param("alpha", "scalar", _f64), Param("beta", "scalar", _f64),
             Param("den", "scalar", _f64), Param("last", "scalar", numpy.dtype(numpy.int64)),
             Param("y", "out", _f64), Param("whole", "raw", _f64)],
            "const double t = ((double)i - alpha) / alpha;"
            " y = _kaiser_i0(beta * sqrt(1.0 - t * t)) / den; if (last >= 0) whole[last - i] = y;",
            preamble=tables + _KAISER_PRE, options=_NO_FMA)
    return op


@functools.lru_cache(maxsize=256)
def _i0_host(beta):
    # numpy.i0 of one float costs ~100 µs of host time, spent before the launch
    return float(numpy.i0(beta))


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
        alpha = (M - 1) / 2.0
        if alpha == (n - 1) / 2.0:  # an integral M: the first ceil(n / 2) points, mirrored
            half, last = y[:(n + 1) // 2], n - 1
        else:                       # a fractional M: arange(M) is not centred on alpha
            half, last = y, -1
        _kaiser_op().launch((_f64.type(alpha), _f64.type(beta), _f64.type(_i0_host(beta)),
                             numpy.int64(last), half, y))
    return y
