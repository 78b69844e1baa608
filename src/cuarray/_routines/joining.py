"""Joining and splitting arrays (NumPy reference: "Array manipulation routines", sections
"Joining arrays" and "Splitting arrays").

Joins allocate the result once and copy each input into its slice (one copy kernel per
input); splits are lists of views. The shape and dtype planning (`concat_shape`,
`join_dtype`, `split_bounds`) is pure Python, testable without a GPU.
"""
import itertools

import numpy

from cuarray._core import _copy
from cuarray._core import dtypes as _dt
from cuarray._core.ndarray import ndarray
from cuarray._routines._args import _device, _host_error, _norm_axis
from cuarray._routines.manipulation import atleast_1d, atleast_2d, atleast_3d

__all__ = [
    "concatenate", "concat", "stack", "hstack", "vstack", "row_stack", "dstack", "column_stack",
    "split", "array_split", "hsplit", "vsplit", "dsplit",
]


# ---- joining -----------------------------------------------------------------------------------
def _arrays(seq, name, sequence=False):
    if isinstance(seq, ndarray):
        return list(seq)
    if sequence and not hasattr(seq, "__getitem__") and hasattr(seq, "__iter__"):
        raise TypeError('arrays to stack must be passed as a "sequence" type such as list or tuple.')
    try:
        items = list(seq)
    except TypeError:
        raise TypeError(f"cuarray.{name} needs a sequence of arrays, got {type(seq).__name__}") from None
    return [_device(x, name) for x in items]


def concat_shape(shapes, axis):
    """(shape of the join, normalised axis) of arrays of `shapes` along `axis`, with NumPy's
    errors (pure planning, no device)."""
    if not shapes:
        raise ValueError("need at least one array to concatenate")
    first = tuple(shapes[0])
    nd = len(first)
    if nd == 0:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    axis = _norm_axis(axis, nd)
    total = 0
    for k, s in enumerate(shapes):
        if len(s) != nd:
            raise ValueError("all the input arrays must have same number of dimensions, but the array "
                             f"at index 0 has {nd} dimension(s) and the array at index {k} has "
                             f"{len(s)} dimension(s)")
        for d in range(nd):
            if d != axis and s[d] != first[d]:
                raise ValueError("all the input array dimensions except for the concatenation axis "
                                 f"must match exactly, but along dimension {d}, the array at index 0 "
                                 f"has size {first[d]} and the array at index {k} has size {s[d]}")
        total += s[axis]
    return first[:axis] + (total,) + first[axis + 1:], axis


def join_dtype(dtypes, dtype, casting):
    """The dtype of a join: NumPy's result type (or `dtype`), every input castable under
    `casting` (pure planning, no device)."""
    first = dtypes[0]
    # The common case: nothing to promote or check (count() compares as ==, 0.2 µs faster
    # than all() over a generator).
    if dtype is None and dtypes.count(first) == len(dtypes):
        return _dt.check_dtype(first)
    dt = numpy.result_type(*dtypes) if dtype is None else numpy.dtype(dtype)
    for src in dtypes:
        if not numpy.can_cast(src, dt, casting):
            raise TypeError(f"Cannot cast array data from {src!r} to {dt!r} according to the rule "
                            f"'{casting}'")
    return _dt.check_dtype(dt)


def _join_order(arrays):
    # NumPy gives the result the inputs' memory order; cuarray follows it for C and F.
    multi = [a for a in arrays if len(a._shape) > 1]
    if multi and all(a._f_contig for a in multi) and not all(a._c_contig for a in multi):
        return "F"
    return "C"


def concatenate(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    """cuarray version of `numpy.concatenate`: one allocation, one copy kernel per input."""
    arrays = _arrays(arrays, "concatenate")
    if out is not None and dtype is not None:
        raise TypeError("concatenate() only takes `out` or `dtype` as an argument, but both were "
                        "provided.")
    if axis is None:
        if not arrays:
            raise ValueError("need at least one array to concatenate")
        arrays = [a.reshape(-1) for a in arrays]
        axis = 0
    shape, axis = concat_shape([a._shape for a in arrays], axis)
    if out is not None:
        if not isinstance(out, ndarray):
            raise _host_error("concatenate", out)
        if out._shape != shape:
            raise ValueError("Output array is the wrong shape")
        join_dtype([a.dtype for a in arrays], out.dtype, casting)
        res = out
    else:
        dt = join_dtype([a.dtype for a in arrays], dtype, casting)
        res = ndarray._alloc(shape, dt, _join_order(arrays))
        if axis == 0 and res._c_contig and _whole(arrays, dt, res._device_id):
            return _copy_whole(res, arrays)
    pos = 0
    step = res._strides[axis]
    for a in arrays:
        n = a._shape[axis]
        if n and a.size:
            _copy.copy_into(res._view(shape[:axis] + (n,) + shape[axis + 1:], res._strides, pos * step), a)
        pos += n
    return res


def _whole(arrays, dt, dev):
    """Whether C-contiguous inputs of dtype `dt` on device `dev`: a join along axis 0 is
    then one memcpy per input into consecutive bytes."""
    for a in arrays:
        if not a._c_contig or a.dtype != dt or a._device_id != dev:
            return False
    return True


def _copy_whole(res, arrays):
    ptr = res._ptr
    for a in arrays:
        n = a.nbytes
        _copy.memcpy(ptr, a._ptr, n)
        ptr += n
    return res


def concat(arrays, /, *, axis=0):
    """cuarray version of `numpy.concat` (the Array API name of `concatenate`)."""
    return concatenate(arrays, axis)


def _with_axis(a, axis):
    return a._view(a._shape[:axis] + (1,) + a._shape[axis:], a._strides[:axis] + (0,) + a._strides[axis:])


def stack(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    """cuarray version of `numpy.stack`."""
    arrays = _arrays(arrays, "stack", sequence=True)
    if not arrays:
        raise ValueError("need at least one array to stack")
    shape = arrays[0]._shape
    if any(a._shape != shape for a in arrays):
        raise ValueError("all input arrays must have the same shape")
    axis = _norm_axis(axis, len(shape) + 1)
    if axis == 0 and out is None:
        dt = join_dtype([a.dtype for a in arrays], dtype, casting)
        if _whole(arrays, dt, arrays[0]._device_id):
            return _copy_whole(ndarray._alloc((len(arrays),) + shape, dt), arrays)
    return concatenate([_with_axis(a, axis) for a in arrays], axis, out, dtype=dtype, casting=casting)


def _as_tuple(x):
    return x if isinstance(x, tuple) else (x,)


def vstack(tup, *, dtype=None, casting="same_kind"):
    """cuarray version of `numpy.vstack`."""
    return concatenate(_as_tuple(atleast_2d(*_arrays(tup, "vstack", True))), 0, dtype=dtype,
                       casting=casting)


row_stack = vstack


def hstack(tup, *, dtype=None, casting="same_kind"):
    """cuarray version of `numpy.hstack`."""
    arrs = _arrays(tup, "hstack", True)
    arrs = _as_tuple(atleast_1d(*arrs)) if arrs else ()
    axis = 0 if arrs and arrs[0].ndim == 1 else 1
    return concatenate(arrs, axis, dtype=dtype, casting=casting)


def dstack(tup):
    """cuarray version of `numpy.dstack`."""
    return concatenate(_as_tuple(atleast_3d(*_arrays(tup, "dstack", True))), 2)


def column_stack(tup):
    """cuarray version of `numpy.column_stack`."""
    arrays = []
    for a in _arrays(tup, "column_stack", True):
        if a.ndim < 2:
            a = a.reshape(-1, 1) if a.ndim else a.reshape(1, 1)
        arrays.append(a)
    return concatenate(arrays, 1)


# ---- splitting -----------------------------------------------------------------------------
def split_bounds(n, indices_or_sections):
    """[(start, stop)] slice bounds of `array_split` along an axis of length n (NumPy's
    rules; pure planning)."""
    if isinstance(indices_or_sections, ndarray):
        indices_or_sections = indices_or_sections.get()
    try:
        points = [0] + list(indices_or_sections) + [n]
    except TypeError:
        sections = int(indices_or_sections)
        if sections <= 0:
            raise ValueError("number sections must be larger than 0.") from None
        each, extras = divmod(n, sections)
        points = list(itertools.accumulate([0] + extras * [each + 1] + (sections - extras) * [each]))
    return list(zip(points[:-1], points[1:]))


def array_split(ary, indices_or_sections, axis=0):
    """cuarray version of `numpy.array_split` (a list of views); device index arrays are
    read on the host (synchronises)."""
    ary = _device(ary, "array_split")
    n = ary._shape[axis]
    lead = (slice(None),) * _norm_axis(axis, ary.ndim)
    return [ary[lead + (slice(s, e),)] for s, e in split_bounds(n, indices_or_sections)]


def split(ary, indices_or_sections, axis=0):
    """cuarray version of `numpy.split` (a list of views)."""
    ary = _device(ary, "split")
    try:
        len(indices_or_sections)
    except TypeError:
        if ary._shape[axis] % indices_or_sections:
            raise ValueError("array split does not result in an equal division") from None
    return array_split(ary, indices_or_sections, axis)


def hsplit(ary, indices_or_sections):
    """cuarray version of `numpy.hsplit`."""
    ary = _device(ary, "hsplit")
    if ary.ndim == 0:
        raise ValueError("hsplit only works on arrays of 1 or more dimensions")
    return split(ary, indices_or_sections, 1 if ary.ndim > 1 else 0)


def vsplit(ary, indices_or_sections):
    """cuarray version of `numpy.vsplit`."""
    ary = _device(ary, "vsplit")
    if ary.ndim < 2:
        raise ValueError("vsplit only works on arrays of 2 or more dimensions")
    return split(ary, indices_or_sections, 0)


def dsplit(ary, indices_or_sections):
    """cuarray version of `numpy.dsplit`."""
    ary = _device(ary, "dsplit")
    if ary.ndim < 3:
        raise ValueError("dsplit only works on arrays of 3 or more dimensions")
    return split(ary, indices_or_sections, 2)
