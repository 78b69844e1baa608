"""Indexing routines (NumPy reference: "Indexing routines"), and CuPy's scatter_add/max/min.

Index arguments (indices, conditions, masks) may be cuarray arrays, lists, NumPy arrays or
scalars: host index data is transferred explicitly. Data arguments must be cuarray arrays.
Integer indices that are out of bounds wrap in mode='raise', as CuPy's indexing does;
CUARRAY_CHECK_BOUNDS=1 makes them raise NumPy's IndexError. Routines whose result size
depends on the data (nonzero, compress, extract, tril_indices ...) read that size on the
host once.
"""
import operator

import numpy

from cuarray._core import _indexing
from cuarray._core import dtypes as _dt
from cuarray._core import shapes as _sh
from cuarray._core.ndarray import ndarray
from cuarray._core.elementwise import Op, Param
from cuarray._core._routines_indexing import (  # noqa: F401  (take ... diagonal: public here)
    _clipmode, _device, _fix, _need, _op, _safe, _scalar_or_device, _truncate_condition, choose,
    compress, diagonal, diagonal_view, nonzero, put, take)

__all__ = [
    "take", "put", "take_along_axis", "put_along_axis", "choose", "compress", "nonzero",
    "argwhere", "flatnonzero", "extract", "place", "putmask", "select", "diagonal",
    "diag_indices", "diag_indices_from", "tril_indices", "tril_indices_from", "triu_indices",
    "triu_indices_from", "mask_indices", "ix_", "ravel_multi_index", "unravel_index", "indices",
    "fill_diagonal", "scatter_add", "scatter_max", "scatter_min",
]

_I64 = numpy.dtype(numpy.int64)
_BOOL = numpy.dtype(numpy.bool_)


# ---- take / put --------------------------------------------------------------------------------


def _along_axis_index(arr, indices, axis):
    from cuarray._routines.creation import arange
    nd = arr.ndim
    fancy = []
    for d, n in enumerate(arr._shape):
        if d == axis:
            fancy.append(indices)
        else:
            fancy.append(arange(n).reshape((1,) * d + (n,) + (1,) * (nd - d - 1)))
    return tuple(fancy)


def _along_axis_args(arr, indices, axis):
    indices = _device(indices)
    if indices.dtype.kind not in "iu":
        raise IndexError("`indices` must be an integer array")
    if axis is None:
        if indices.ndim != 1:
            raise ValueError("when axis=None, `indices` must have a single dimension.")
        return None, indices, 0
    if arr.ndim != indices.ndim:
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    return arr, indices, _sh.normalize_axis(axis, arr.ndim)


def take_along_axis(arr, indices, axis=-1):
    """cuarray version of `numpy.take_along_axis`."""
    arr = _need(arr, "take_along_axis")
    a, indices, axis = _along_axis_args(arr, indices, axis)
    if a is None:
        a = arr.reshape(-1)
    return a[_along_axis_index(a, indices, axis)]


def put_along_axis(arr, indices, values, axis):
    """cuarray version of `numpy.put_along_axis`."""
    arr = _need(arr, "put_along_axis")
    a, indices, axis = _along_axis_args(arr, indices, axis)
    if a is not None:
        a[_along_axis_index(a, indices, axis)] = values
    elif arr._c_contig:
        arr.reshape(-1)[indices] = values
    else:
        flat = arr.reshape(-1)   # a copy: write it back
        flat[indices] = values
        from cuarray._core._copy import copy_into
        copy_into(arr, flat.reshape(arr._shape))


# ---- choose / compress / select ----------------------------------------------------------------


def extract(condition, arr):
    """cuarray version of `numpy.extract` (reads the selected count: synchronises)."""
    arr = _need(arr, "extract")
    cond = _device(condition).reshape(-1)
    a = arr.reshape(-1)
    cond = _truncate_condition(cond, a.size, 0)
    return _indexing.compress_flat(cond, a[:cond.size])


def select(condlist, choicelist, default=0):
    """cuarray version of `numpy.select`."""
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if len(condlist) == 0:
        raise ValueError("select with an empty condition list is not possible")
    conds = []
    for k, c in enumerate(condlist):
        if not isinstance(c, (ndarray, numpy.ndarray, list, bool, numpy.bool_)):
            raise TypeError(f"invalid entry {k} in condlist: should be boolean ndarray")
        c = _device(c)
        if c.dtype != _BOOL:
            raise TypeError(f"invalid entry {k} in condlist: should be boolean ndarray")
        conds.append(c)
    choices = [c if isinstance(c, ndarray) else _scalar_or_device(c) for c in choicelist]
    dflt = default if isinstance(default, ndarray) else _scalar_or_device(default)

    def dt(x):   # Python numbers stay weak (NEP 50), as numpy.select keeps them
        if type(x) in (int, float, complex):
            return x
        return x.dtype if isinstance(x, (ndarray, numpy.generic)) else numpy.asarray(x).dtype

    try:
        dtype = numpy.result_type(*[dt(c) for c in choices], dt(dflt))
    except TypeError as e:
        raise TypeError(f"Choicelist and default value do not have a common dtype: {e}") from None
    dtype = _dt.check_dtype(dtype)
    shape = _sh.broadcast_shapes(*[c._shape for c in conds],
                                 *[c._shape for c in choices + [dflt] if isinstance(c, ndarray)])

    def scalar(x, rule):
        # numpy.select makes scalars arrays (Python ints int64) before copying them into the
        # result: choices under 'same_kind', so a Python int choice with unsigned choices is
        # NumPy's TypeError; the default unsafely (np.full), so it wraps.
        h = numpy.asarray(x)
        if not numpy.can_cast(h.dtype, dtype, rule):
            raise TypeError(f"Cannot cast array data from {h.dtype!r} to {dtype!r} according to "
                            f"the rule '{rule}'")
        return h.astype(dtype)[()]

    choices = [v if isinstance(v, ndarray) else scalar(v, "same_kind") for v in choices]
    from cuarray._core._copy import copy_into
    res = ndarray._alloc(shape, dtype)
    if not res.size:
        return res
    if isinstance(dflt, ndarray):
        copy_into(res, dflt)
    else:
        res.fill(scalar(dflt, "unsafe"))
    # last to first, so the first condition that holds wins
    for c, v in zip(conds[::-1], choices[::-1]):
        _indexing.mask_fill(res, c, v)
    return res


# ---- nonzero and friends ------------------------------------------------------------------------


def argwhere(a):
    """cuarray version of `numpy.argwhere` (synchronises once; the result is C-contiguous)."""
    a = _need(a, "argwhere")
    if a.ndim == 0:
        return ndarray._alloc((_indexing.count_true(a.reshape(1)), 0), _I64)
    return _indexing.nonzero_coords(a, rows_first=False)


def flatnonzero(a):
    """cuarray version of `numpy.flatnonzero` (synchronises once)."""
    a = _need(a, "flatnonzero")
    return _indexing.nonzero(a.reshape(-1))[0]


def place(arr, mask, vals):
    """cuarray version of `numpy.place`: the True positions of mask (C order) take vals in turn,
    repeated as needed. No host read unless vals is empty."""
    arr = _need(arr, "place")
    mask = _device(mask)
    if mask.size != arr.size:
        raise ValueError("place: mask and data must be the same size")
    _safe(vals, arr.dtype)
    vmode, v = _indexing._value(vals, arr.dtype)
    v = v.reshape(-1) if vmode == "array" else _device(numpy.array([v]))
    if v.size == 0:
        if _indexing.count_true(mask):
            raise ValueError("Cannot insert from an empty array!")
        return
    _indexing.place_flat(arr, mask, v)


def putmask(a, mask, values):
    """cuarray version of `numpy.putmask`: a.flat[i] = values.flat[i % values.size] where mask."""
    a = _need(a, "putmask")
    mask = _device(mask)
    if mask.size != a.size:
        raise ValueError("putmask: mask and data must be the same size")
    if mask._shape != a._shape:
        mask = mask.reshape(a._shape)
    _safe(values, a.dtype)
    vmode, v = _indexing._value(values, a.dtype)
    if vmode == "scalar":
        return _indexing.mask_fill(a, mask, v)
    if v.size == 0:
        return
    if v.size == 1:
        return _indexing.mask_fill(a, mask, v.reshape(()))
    v = v.reshape(-1)
    if v._mem is a._mem:
        v = v.copy()
    # the cycling position is the C-order index: run on C-contiguous operands
    dst = a if a._c_contig else a.copy()
    m = mask if mask._c_contig else mask.copy()
    op = _op(("putmask", a.dtype.char), lambda: Op(
        f"cuarray_putmask_{a.dtype.char}",
        [Param("m", "in", _BOOL), Param("v", "raw", a.dtype), Param("x", "out", a.dtype)],
        "x = v[i % v.size()];", guard="m"))
    op.launch((m if m.dtype == _BOOL else m.astype(_BOOL), v, dst))
    if dst is not a:
        from cuarray._core._copy import copy_into
        copy_into(a, dst)


# ---- diagonals and triangles ----------------------------------------------------------------------


def diag_indices(n, ndim=2):
    """cuarray version of `numpy.diag_indices`."""
    from cuarray._routines.creation import arange
    idx = arange(n)
    return (idx,) * ndim


def diag_indices_from(arr):
    """cuarray version of `numpy.diag_indices_from`."""
    if arr.ndim < 2:
        raise ValueError("input array must be at least 2-d")
    if len(set(arr.shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    return diag_indices(arr.shape[0], arr.ndim)


def _tri_mask(n, m, k, upper):
    """tri(n, m, k) (lower) or its upper complement as a device bool array."""
    op = _op(("tri", upper), lambda: Op(
        f"cuarray_tri_mask_{int(upper)}",
        [Param("m", "scalar", _I64), Param("k", "scalar", _I64), Param("y", "out", _BOOL)],
        "const long long r = i / m, c = i % m; y = " + ("c >= r + k;" if upper else "c <= r + k;")))
    y = ndarray._alloc((n, m), _BOOL)
    if y.size:
        op.launch((numpy.int64(m), numpy.int64(k), y))
    return y


def tril_indices(n, k=0, m=None):
    """cuarray version of `numpy.tril_indices` (synchronises once for the count)."""
    m = n if m is None else m
    return _indexing.nonzero(_tri_mask(n, m, k, False))


def triu_indices(n, k=0, m=None):
    """cuarray version of `numpy.triu_indices` (synchronises once for the count)."""
    m = n if m is None else m
    return _indexing.nonzero(_tri_mask(n, m, k, True))


def tril_indices_from(arr, k=0):
    """cuarray version of `numpy.tril_indices_from`."""
    if arr.ndim != 2:
        raise ValueError("input array must be 2-d")
    return tril_indices(arr.shape[-2], k=k, m=arr.shape[-1])


def triu_indices_from(arr, k=0):
    """cuarray version of `numpy.triu_indices_from`."""
    if arr.ndim != 2:
        raise ValueError("input array must be 2-d")
    return triu_indices(arr.shape[-2], k=k, m=arr.shape[-1])


def mask_indices(n, mask_func, k=0):
    """cuarray version of `numpy.mask_indices`: mask_func (e.g. cuarray.triu) is applied to an
    (n, n) array of ones on the device."""
    from cuarray._routines.creation import ones
    a = mask_func(ones((n, n), dtype=int), k)
    return _indexing.nonzero(a)


def fill_diagonal(a, val, wrap=False):
    """cuarray version of `numpy.fill_diagonal` (in place; val repeated as needed)."""
    a = _need(a, "fill_diagonal")
    if a.ndim < 2:
        raise ValueError("array must be at least 2-d")
    end = a.size
    if a.ndim == 2:
        step = a._shape[1] + 1
        if not wrap:
            end = min(end, a._shape[1] * a._shape[1])
    else:
        if len(set(a._shape)) != 1:
            raise ValueError("All dimensions of input must be of equal length")
        step = 1 + sum(int(numpy.prod(a._shape[:k])) for k in range(1, a.ndim))
    if end <= 0:
        return
    if a._c_contig and not isinstance(val, (ndarray, numpy.ndarray, list, tuple)):
        a.reshape(-1)[:end:step] = val
        return
    from cuarray._routines.creation import arange
    put(a, arange(0, end, step), val, mode="wrap")


# ---- index arithmetic -----------------------------------------------------------------------------

def ix_(*args):
    """cuarray version of `numpy.ix_` (boolean sequences become their nonzero indices)."""
    out = []
    nd = len(args)
    for k, new in enumerate(args):
        new = _device(new)
        if new.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if new.dtype == _BOOL:
            new = _indexing.nonzero(new)[0]
        out.append(new.reshape((1,) * k + (new.size,) + (1,) * (nd - k - 1)))
    return tuple(out)


def _order(order):
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    return order


def _dim_strides(dims, order):
    st, acc = [0] * len(dims), 1
    for d in (reversed(range(len(dims))) if order == "C" else range(len(dims))):
        st[d] = acc
        acc *= dims[d]
    return st


def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    """cuarray version of `numpy.ravel_multi_index`. mode='raise' checks the coordinates on the
    device and reads one flag per axis (synchronises), as CuPy does."""
    dims = (operator.index(dims),) if isinstance(dims, (int, numpy.integer)) else \
        tuple(operator.index(d) for d in dims)
    order = _order(order)
    modes = (mode,) * len(dims) if isinstance(mode, str) else tuple(mode)
    if len(modes) != len(dims):
        raise ValueError("mode must be a string or a sequence of the same length as dims")
    for md in modes:
        _clipmode(md)
    if len(multi_index) != len(dims):
        raise ValueError(f"parameter multi_index must be a sequence of length {len(dims)}")
    total = 1
    for d in dims:
        total *= d
    if total > numpy.iinfo(numpy.intp).max:
        raise ValueError("invalid dims: array size defined by dims is larger than the maximum "
                         "possible size.")
    idx = []
    for x in multi_index:
        x = _device(x)
        if x.dtype.kind not in "iu":
            raise TypeError("only int indices permitted")
        idx.append(x)
    for x, n, md in zip(idx, dims, modes):
        if md == "raise" and _indexing.first_out_of_range(x, 0, n) is not None:
            raise ValueError("invalid entry in coordinates array")
    nd = len(dims)
    shape = _sh.broadcast_shapes(*[x._shape for x in idx])
    res = ndarray._alloc(shape, _I64)
    if not res.size:
        return res

    def build():
        params = [Param(f"x{d}", "in", _I64) for d in range(nd)] + \
                 [Param(f"n{d}", "scalar", _I64) for d in range(nd)] + \
                 [Param(f"s{d}", "scalar", _I64) for d in range(nd)] + [Param("y", "out", _I64)]
        body = "long long acc = 0;" + "".join(
            f" {{ long long k = x{d}; {_fix('k', f'n{d}', 'clip' if md == 'clip' else 'wrap')}"
            f" acc += k * s{d}; }}" for d, md in enumerate(modes)) + " y = acc;"
        return Op(f"cuarray_ravel_multi_index_{nd}_{''.join(m[0] for m in modes)}", params, body)

    op = _op(("ravel", nd, modes), build)
    op.launch(idx + [numpy.int64(n) for n in dims] +
              [numpy.int64(s) for s in _dim_strides(dims, order)] + [res])
    return res


def unravel_index(indices, shape, order="C"):
    """cuarray version of `numpy.unravel_index`: the indices are checked on the device and one
    flag is read (synchronises), as CuPy does."""
    order = _order(order)
    shape = (operator.index(shape),) if isinstance(shape, (int, numpy.integer)) else \
        tuple(operator.index(d) for d in shape)
    x = _device(indices)
    if x.dtype.kind not in "iu":
        raise TypeError("only int indices permitted")
    size = 1
    for d in shape:
        size *= d
    bad = _indexing.first_out_of_range(x, 0, size)
    if bad is not None:
        raise ValueError(f"index {bad} is out of bounds for array with size {size}")
    nd = len(shape)
    outs = [ndarray._alloc(x._shape, _I64) for _ in range(nd)]
    if nd == 0 or x.size == 0:
        return tuple(outs)
    dims = list(range(nd - 1, -1, -1)) if order == "C" else list(range(nd))

    def build():
        params = [Param("x", "in", _I64)] + [Param(f"n{d}", "scalar", _I64) for d in range(nd)] + \
                 [Param(f"y{d}", "out", _I64) for d in range(nd)]
        body = "long long r = x;" + "".join(f" y{d} = r % n{d}; r /= n{d};" for d in dims)
        return Op(f"cuarray_unravel_index_{nd}_{order}", params, body)

    op = _op(("unravel", nd, order), build)
    op.launch([x] + [numpy.int64(n) for n in shape] + outs)
    return tuple(outs)


def indices(dimensions, dtype=int, sparse=False):
    """cuarray version of `numpy.indices`."""
    from cuarray._routines.creation import arange
    dims = tuple(operator.index(d) for d in dimensions)
    dtype = _dt.check_dtype(dtype)
    n = len(dims)
    grids = [arange(d, dtype=dtype).reshape((1,) * k + (d,) + (1,) * (n - k - 1))
             for k, d in enumerate(dims)]
    if sparse:
        return tuple(grids)
    from cuarray._core._copy import copy_into
    res = ndarray._alloc((n,) + dims, dtype)
    if res.size:
        for k, g in enumerate(grids):
            copy_into(res[k], g)
    return res


# ---- cupyx scatter ops --------------------------------------------------------------------------

def _ufunc(name):
    from cuarray._core import _ops
    return getattr(_ops, name)


def scatter_add(a, slices, value):
    """a[slices] += value, with repeated indices accumulating (atomic; cupyx.scatter_add)."""
    _ufunc("add").at(a, slices, value)


def scatter_max(a, slices, value):
    """a[slices] = maximum(a[slices], value), repeated indices included (cupyx.scatter_max)."""
    _ufunc("maximum").at(a, slices, value)


def scatter_min(a, slices, value):
    """a[slices] = minimum(a[slices], value), repeated indices included (cupyx.scatter_min)."""
    _ufunc("minimum").at(a, slices, value)
