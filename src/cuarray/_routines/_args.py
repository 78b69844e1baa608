"""Argument helpers shared by the routine files: device-only array arguments (host data is
refused with a TypeError naming `cuarray.asarray`), explicit uploads of planning data, and
NumPy's axis normalisation and messages.

They live apart from any one chapter because the chapter files share them.
"""
import operator

import numpy
from numpy.lib.array_utils import normalize_axis_index

from cuarray._core import host_policy
from cuarray._core.ndarray import ndarray
from cuarray._core.shapes import flat_or_axis as _flat_or_axis  # noqa: F401  (for the chapters)
from cuarray._core.shapes import normalize_axis

_SCALARS = (bool, int, float, complex, numpy.generic)
_AxisError = numpy.exceptions.AxisError


_host_error = host_policy.host_error


def _device(x, name):
    """`x` as a cuarray array: arrays (and CUDA-protocol objects) pass, Python/NumPy scalars
    become 0-d arrays, host arrays and sequences are refused (host_policy's device operand)."""
    if isinstance(x, ndarray):
        return x
    x = host_policy.operand(x, name)
    return host_policy.array_like(x) if isinstance(x, _SCALARS) else x


def _array_like(x, name):
    """`x` as a cuarray array where CuPy takes array_like: host data is uploaded."""
    return x if isinstance(x, ndarray) else host_policy.array_like(x, name)


def _upload(host):
    """An explicit host-to-device copy of planning data (index vectors, masks)."""
    from cuarray._core import transfer
    return transfer.asarray(numpy.ascontiguousarray(host))


_norm_axis = normalize_axis


def _axis_tuple(axis, ndim, argname=None, allow_duplicate=False):
    """NumPy's normalize_axis_tuple, on NumPy's own normalize_axis_index (C, 50 ns)."""
    if type(axis) not in (tuple, list):
        try:
            axis = operator.index(axis)
        except TypeError:
            pass
        else:  # the common single axis: no duplicates to look for
            return (normalize_axis_index(axis, ndim, argname),)
    axis = tuple([normalize_axis_index(ax, ndim, argname) for ax in axis])
    if not allow_duplicate and len(set(axis)) != len(axis):
        raise ValueError(f"repeated axis in `{argname}` argument" if argname else "repeated axis")
    return axis


def _shape_str(shape):
    return "(" + ",".join(str(s) for s in shape) + ("," if len(shape) == 1 else "") + ")"


def _order_of(a):
    return "F" if a.ndim > 1 and a._f_contig and not a._c_contig else "C"
