"""Argument checks and dtype rules shared by the linalg routines (NumPy's wording)."""
import numpy
from numpy.linalg import LinAlgError  # the same class, so `except numpy.linalg.LinAlgError` works

import cuarray
from cuarray._core.host_policy import HOST_ARRAYS, host_error, not_device_error

__all__ = ["LinAlgError"]

_INEXACT = {
    numpy.dtype(numpy.float32): numpy.dtype(numpy.float32),
    numpy.dtype(numpy.float64): numpy.dtype(numpy.float64),
    numpy.dtype(numpy.complex64): numpy.dtype(numpy.complex64),
    numpy.dtype(numpy.complex128): numpy.dtype(numpy.complex128),
}


def as_array(x, name, array_like=False):
    """`x` as a cuarray.ndarray; host arrays and lists are refused (no hidden transfers)
    unless the routine takes array_like, as CuPy's (host_policy)."""
    if array_like:
        from cuarray._core.host_policy import array_like as _array_like
        return _array_like(x, name)
    if isinstance(x, cuarray.ndarray):
        return x
    if isinstance(x, HOST_ARRAYS):
        raise host_error(name, x)
    if isinstance(x, (bool, int, float, complex, numpy.generic)):
        return cuarray.asarray(x)
    raise not_device_error(name, x)


def common_type(*arrays):
    """The dtype a linalg routine computes and returns in (NumPy's `_commonType` results).

    float32/complex64 stay single precision; bool and integers become float64; float16
    is refused as NumPy does. NumPy computes single precision in double internally;
    cuarray computes in single precision, as CuPy does.
    """
    single, cplx = True, False
    for a in arrays:
        dt = a.dtype
        if dt.kind in "fc":
            if dt not in _INEXACT:
                raise TypeError(f"array type {dt.name} is unsupported in linalg")
            cplx |= dt.kind == "c"
            single &= dt.itemsize == (8 if dt.kind == "c" else 4)
        else:
            single = False
    if cplx:
        return numpy.dtype(numpy.complex64 if single else numpy.complex128)
    return numpy.dtype(numpy.float32 if single else numpy.float64)


def real_dtype(dtype):
    return numpy.dtype(dtype.char.lower()) if dtype.kind == "c" else dtype


def assert_stacked_2d(*arrays):
    for a in arrays:
        if a.ndim < 2:
            raise LinAlgError(
                f"{a.ndim}-dimensional array given. Array must be at least two-dimensional")


def assert_2d(*arrays):
    for a in arrays:
        if a.ndim != 2:
            raise LinAlgError(f"{a.ndim}-dimensional array given. Array must be two-dimensional")


def assert_stacked_square(*arrays):
    for a in arrays:
        if a.shape[-1] != a.shape[-2]:
            raise LinAlgError("Last 2 dimensions of the array must be square")


def normalize_axis(axis, ndim, what="axis"):
    try:
        axis = int(axis)
    except TypeError:
        raise TypeError(f"'{what}' must be an integer, not {type(axis).__name__}") from None
    if not -ndim <= axis < ndim:
        raise numpy.exceptions.AxisError(axis, ndim, what if what != "axis" else None)
    return axis % ndim


def prod(shape):
    n = 1
    for s in shape:
        n *= s
    return n
