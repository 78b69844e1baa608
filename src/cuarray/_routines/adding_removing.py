"""Adding and removing elements (NumPy reference: "Array manipulation routines", section
"Adding and removing elements"): delete, insert, append, resize and trim_zeros.

Index-driven moves are one gather or scatter kernel over a device index vector; host
`obj` arguments (ints, slices, lists, masks) are planned on the host with NumPy's rules.
"""
import operator

import numpy

from cuarray._core.elementwise import Op, Param
from cuarray._core.ndarray import ndarray
from cuarray._routines._args import (_axis_tuple, _device, _flat_or_axis, _norm_axis, _order_of, _shape_str,
                                     _upload)
from cuarray._core._take_put import _flatnonzero, _put_axis, _take_axis
from cuarray._routines.joining import concatenate, stack
from cuarray._routines.manipulation import broadcast_to, moveaxis

_i64 = numpy.dtype(numpy.int64)
_bool = numpy.dtype(numpy.bool_)

__all__ = ["delete", "insert", "append", "resize", "trim_zeros"]


_unmark_ops = {}


def _delete_keep(obj, n):
    """Bool device mask of the entries `obj` (a device array) leaves in place."""
    if obj.dtype == _bool:
        if obj.ndim != 1 or obj._shape[0] != n:
            raise ValueError("boolean array argument obj to delete must be one dimensional and "
                             f"match the axis length of {n}")
        from cuarray._core import _ops
        return _ops.logical_not(obj)
    if obj.dtype.kind not in "iu":
        raise IndexError("arrays used as indices must be of integer (or boolean) type")
    from cuarray._routines.creation import ones
    keep = ones((n,), _bool)
    op = _unmark_ops.get("delete")
    if op is None:
        # Out-of-range device indices cannot raise without a synchronisation: they are ignored.
        op = _unmark_ops["delete"] = Op(
            "cuarray_delete_unmark",
            [Param("j", "in", _i64), Param("n", "scalar", _i64), Param("keep", "raw", _bool)],
            "const long long k = j < 0 ? j + n : j; if (k >= 0 && k < n) keep[k] = false;")
    if obj.size:
        op.launch((obj.reshape(-1), _i64.type(n), keep))
    return keep


def delete(arr, obj, axis=None):
    """cuarray version of `numpy.delete`: one gather kernel. Host `obj` (ints, slices, lists,
    masks) is planned on the host with NumPy's rules and errors; a device `obj` synchronises
    once for the result's size, and out-of-range device indices are ignored."""
    arr = _device(arr, "delete")
    arr, axis = _flat_or_axis(arr, axis)
    n = arr._shape[axis]
    if isinstance(obj, ndarray):
        idx = _flatnonzero(_delete_keep(obj, n))
    else:
        idx = _upload(numpy.delete(numpy.arange(n, dtype=numpy.int64), obj))
    return _take_axis(arr, idx, axis)


def _broadcast_values(values, shape):
    try:
        return broadcast_to(values, shape)
    except ValueError:
        raise ValueError(f"shape mismatch: value array of shape {_shape_str(values._shape)} could not "
                         f"be broadcast to indexing result of shape {_shape_str(shape)}") from None


def insert(arr, obj, values, axis=None):
    """cuarray version of `numpy.insert`. `obj` is planned on the host (a device `obj` is read
    first, synchronising); the moves are scatter kernels."""
    arr = _device(arr, "insert")
    values = _device(values, "insert")
    order = _order_of(arr)
    if axis is None:
        if arr.ndim != 1:
            arr = arr.reshape(-1)
        axis = arr.ndim - 1
    else:
        axis = _norm_axis(axis, arr.ndim)
    nd = arr.ndim
    n = arr._shape[axis]
    if isinstance(obj, ndarray):
        obj = obj.get()
    if isinstance(obj, slice):
        indices = numpy.arange(*obj.indices(n), dtype=numpy.intp)
    else:
        indices = numpy.array(obj)
        if indices.dtype == numpy.bool_:
            if indices.ndim != 1:
                raise ValueError("boolean array argument obj to insert must be one dimensional")
            indices = numpy.flatnonzero(indices)
        elif indices.ndim > 1:
            raise ValueError("index array argument obj to insert must be one dimensional or scalar")
    lead = (slice(None),) * axis
    if indices.size == 1:
        index = indices.item()
        if index < -n or index > n:
            raise IndexError(f"index {obj} is out of bounds for axis {axis} with size {n}")
        if index < 0:
            index += n
        vals = values.astype(arr.dtype, copy=False)
        if vals.ndim < nd:
            vals = vals.reshape((1,) * (nd - vals.ndim) + vals._shape)
        if indices.ndim == 0:
            vals = moveaxis(vals, 0, axis)
        numnew = vals._shape[axis]
        shape = arr._shape[:axis] + (n + numnew,) + arr._shape[axis + 1:]
        new = ndarray._alloc(shape, arr.dtype, order)
        new[lead + (slice(None, index),)] = arr[lead + (slice(None, index),)]
        new[lead + (slice(index, index + numnew),)] = vals
        new[lead + (slice(index + numnew, None),)] = arr[lead + (slice(index, None),)]
        return new
    if indices.size == 0 and not isinstance(obj, numpy.ndarray):
        indices = indices.astype(numpy.intp)
    indices = indices.astype(numpy.int64)
    indices[indices < 0] += n
    numnew = len(indices)
    order_idx = indices.argsort(kind="mergesort")
    indices[order_idx] += numpy.arange(numnew)
    newlen = n + numnew
    old_mask = numpy.ones(newlen, dtype=bool)
    old_mask[indices] = False  # NumPy's IndexError for positions past the end
    shape = arr._shape[:axis] + (newlen,) + arr._shape[axis + 1:]
    new = ndarray._alloc(shape, arr.dtype, order)
    if numnew:
        target = arr._shape[:axis] + (numnew,) + arr._shape[axis + 1:]
        _put_axis(new, _upload(indices), _broadcast_values(values, target), axis)
    _put_axis(new, _upload(numpy.flatnonzero(old_mask).astype(numpy.int64)), arr, axis)
    return new


def append(arr, values, axis=None):
    """cuarray version of `numpy.append`."""
    arr = _device(arr, "append")
    values = _device(values, "append")
    if axis is None:
        arr = arr.reshape(-1) if arr.ndim != 1 else arr
        values = values.reshape(-1)
        axis = arr.ndim - 1
    return concatenate((arr, values), axis)


_resize_ops = {}


def resize(a, new_shape):
    """cuarray version of `numpy.resize`: one kernel repeating `a` cyclically."""
    a = _device(a, "resize")
    if isinstance(new_shape, (int, numpy.integer)):
        new_shape = (new_shape,)
    new_shape = tuple(operator.index(s) for s in new_shape)
    if any(s < 0 for s in new_shape):
        raise ValueError("all elements of `new_shape` must be non-negative")
    from cuarray._routines.creation import zeros
    if a.size == 0 or 0 in new_shape:
        return zeros(new_shape, a.dtype)
    out = ndarray._alloc(new_shape, a.dtype)
    op = _resize_ops.get(a.dtype.char)
    if op is None:
        op = _resize_ops[a.dtype.char] = Op(
            f"cuarray_resize_{a.dtype.char}",
            [Param("x", "raw", a.dtype), Param("y", "out", a.dtype)], "y = x[i % x.size()];")
    op.launch((a, out))
    return out


def trim_zeros(filt, trim="fb", axis=None):
    """cuarray version of `numpy.trim_zeros` (a view). Synchronises once: the bounds of the
    non-zero region size the result."""
    filt = _device(filt, "trim_zeros")
    trim = trim.lower()
    if trim not in {"fb", "bf", "f", "b"}:
        raise ValueError(f"unexpected character(s) in `trim`: {trim!r}")
    nd = filt.ndim
    axes = tuple(range(nd)) if axis is None else _axis_tuple(axis, nd, "axis")
    if not axes:
        return filt
    if filt.size == 0:  # no non-zero element: every trimmed axis becomes empty
        return filt[tuple(slice(0, 0) if d in axes else slice(None) for d in range(nd))]
    from cuarray._core import _ops, _reductions, _reductions_stats
    nz = _ops.not_equal(filt, 0)
    parts = []
    for d in range(nd):
        other = tuple(x for x in range(nd) if x != d)
        line = _reductions.any(nz, axis=other) if other else nz
        parts.append(_reductions_stats.argmax(line).astype(_i64))
        parts.append(_reductions_stats.argmax(line[::-1]).astype(_i64))
    parts.append(_reductions.any(nz).astype(_i64))
    bounds = [int(v) for v in stack(parts).get()]
    start = [bounds[2 * d] for d in range(nd)]
    stop = [filt._shape[d] - bounds[2 * d + 1] for d in range(nd)]
    if not bounds[-1]:
        start = stop = [0] * nd
    else:
        if "f" not in trim:
            start = [None] * nd
        if "b" not in trim:
            stop = [None] * nd
    return filt[tuple(slice(start[d], stop[d]) if d in axes else slice(None) for d in range(nd))]
