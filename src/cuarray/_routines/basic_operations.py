"""Basic operations on arrays (NumPy reference: "Array manipulation routines", basic
operations): the number of dimensions, the shape and the size as functions. `copyto` is in
`cuarray._core._copy`."""
import operator

import numpy

from cuarray._core.ndarray import ndarray

__all__ = ["ndim", "shape", "size"]


def ndim(a):
    """cuarray version of `numpy.ndim` (any array_like; host objects are not copied)."""
    return a.ndim if isinstance(a, ndarray) else numpy.ndim(a)


def shape(a):
    """cuarray version of `numpy.shape` (any array_like; host objects are not copied)."""
    return a.shape if isinstance(a, ndarray) else numpy.shape(a)


def size(a, axis=None):
    """cuarray version of `numpy.size` for a cuarray array, as CuPy's: `axis` is one int and
    an axis out of range raises IndexError."""
    if not isinstance(a, ndarray):
        raise TypeError(f"cuarray.size needs a cuarray.ndarray, got {type(a).__name__}")
    if axis is None:
        return a.size
    index = operator.index(axis)
    if index < 0:
        index += a.ndim
    if not 0 <= index < a.ndim:
        raise IndexError("index out of range")
    return a._shape[index]
