"""Power series, lowest degree first (cuarray version of `cupy.polynomial.polynomial`)."""
import numpy

from cuarray._core import _ops as _u
from cuarray._core import _reductions as _r
from cuarray._core.ndarray import ndarray
from cuarray.polynomial import polyutils as pu

__all__ = ["polyvander", "polycompanion", "polyval", "polyvalfromroots"]


def _series(c, name):
    c = pu._ndmin1(c, name)
    if c.dtype.kind in "biu":
        c = c.astype(numpy.float64)
    return c


def polyvander(x, deg):
    """cuarray version of `numpy.polynomial.polynomial.polyvander`."""
    ideg = pu._as_int(deg, "deg")
    if ideg < 0:
        raise ValueError("deg must be non-negative")
    x = pu._ndmin1(x, "polyvander")
    x = _u.add(x, 0.0)
    v = ndarray._alloc((ideg + 1,) + x._shape, x.dtype)
    v[0] = 1
    if ideg > 0:
        v[1] = x
        for i in range(2, ideg + 1):
            _u.multiply(v[i - 1], x, out=v[i])
    from cuarray._routines.manipulation import moveaxis
    return moveaxis(v, 0, -1)


def polycompanion(c):
    """cuarray version of `numpy.polynomial.polynomial.polycompanion`."""
    [c] = pu.as_series([c])
    if c.size < 2:
        raise ValueError("Series must have maximum degree of at least 1.")
    if c.size == 2:
        return _u.negative(_u.true_divide(c[:1], c[1:])).reshape(1, 1)
    n = c.size - 1
    from cuarray._routines.creation import zeros
    mat = zeros((n, n), c.dtype)
    mat.reshape(-1)[n::n + 1] = 1
    mat[:, -1] -= _u.true_divide(c[:-1], c[-1])
    return mat


def polyval(x, c, tensor=True):
    """cuarray version of `numpy.polynomial.polynomial.polyval` (Horner's scheme)."""
    c = _series(c, "polyval")
    if isinstance(x, (tuple, list)):
        x = _as_array(x)
    if isinstance(x, ndarray) and tensor:
        c = c.reshape(c._shape + (1,) * x.ndim)
    c0 = _u.add(c[-1], _u.multiply(x, 0))
    for i in range(2, c._shape[0] + 1):
        c0 = _u.add(c[-i], _u.multiply(c0, x))
    return c0


def polyvalfromroots(x, r, tensor=True):
    """cuarray version of `numpy.polynomial.polynomial.polyvalfromroots`."""
    r = _series(r, "polyvalfromroots")
    if isinstance(x, (tuple, list)):
        x = _as_array(x)
    if isinstance(x, ndarray):
        if tensor:
            r = r.reshape(r._shape + (1,) * x.ndim)
        elif x.ndim >= r.ndim:
            raise ValueError("x.ndim must be < r.ndim when tensor == False")
    return _r.prod(_u.subtract(x, r), axis=0)


def _as_array(x):
    from cuarray._core.transfer import asarray
    return asarray(x)
