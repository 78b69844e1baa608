"""Views with chosen shapes and strides (cuarray version of `cupy.lib.stride_tricks`)."""
import operator

import numpy
from numpy.lib.array_utils import normalize_axis_tuple

from cuarray._core.host_policy import not_device_error
from cuarray._core.ndarray import ndarray
from cuarray._routines.manipulation import broadcast_arrays, broadcast_to  # noqa: F401

__all__ = ["as_strided", "sliding_window_view", "broadcast_to", "broadcast_arrays"]


def _array(x, name):
    if not isinstance(x, ndarray):
        raise not_device_error(name, x, "cuarray.lib.stride_tricks.")
    return x


def as_strided(x, shape=None, strides=None):
    """cuarray version of `numpy.lib.stride_tricks.as_strided`: a view of `x`'s memory with
    the given shape and strides (in bytes); nothing is checked, as in NumPy."""
    x = _array(x, "as_strided")
    shape = x._shape if shape is None else tuple(operator.index(s) for s in shape)
    strides = x._strides if strides is None else tuple(operator.index(s) for s in strides)
    if len(shape) != len(strides):
        raise ValueError("mismatch in length of strides and shape")
    return x._view(shape, strides)


def sliding_window_view(x, window_shape, axis=None, *, subok=False, writeable=False):
    """cuarray version of `numpy.lib.stride_tricks.sliding_window_view` (a view; `writeable`
    is accepted for NumPy's signature, the view is always writeable, as in CuPy)."""
    x = _array(x, "sliding_window_view")
    window_shape = (tuple(window_shape) if numpy.iterable(window_shape)
                    else (window_shape,))
    window_shape = tuple(operator.index(w) for w in window_shape)
    if any(w < 0 for w in window_shape):
        raise ValueError("`window_shape` cannot contain negative values")
    if axis is None:
        axis = tuple(range(x.ndim))
        if len(window_shape) != len(axis):
            raise ValueError(f"Since axis is `None`, must provide window_shape for all "
                             f"dimensions of `x`; got {len(window_shape)} window_shape "
                             f"elements and `x.ndim` is {x.ndim}.")
    else:
        axis = normalize_axis_tuple(axis, x.ndim, allow_duplicate=True)
        if len(window_shape) != len(axis):
            raise ValueError(f"Must provide matching length window_shape and axis; got "
                             f"{len(window_shape)} window_shape elements and {len(axis)} "
                             f"axes elements.")
    out_strides = x._strides + tuple(x._strides[ax] for ax in axis)
    shape = list(x._shape)
    for ax, dim in zip(axis, window_shape):
        if shape[ax] < dim:
            raise ValueError("window shape cannot be larger than input array shape")
        shape[ax] -= dim - 1
    return x._view(tuple(shape) + window_shape, out_strides)
