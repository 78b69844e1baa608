"""Array manipulation routines (NumPy reference: "Array manipulation routines").

Shape changes are views. Joins allocate the result once and copy each input into its
slice (one copy kernel per input); tiles and scalar repeats are one copy from a
zero-stride view; index-driven moves (array repeats, delete, insert) are one gather or
scatter kernel over a device index vector. Host data given for array arguments is
refused with a TypeError naming `cuarray.asarray` (no silent transfers); integers,
slices and index lists that only plan the work are read on the host.
"""
import itertools
import operator

import numpy

from cuarray._core import _copy
from cuarray._core import dtypes as _dt
from cuarray._core.elementwise import Op, Param
from cuarray._core.ndarray import ndarray

_i64 = numpy.dtype(numpy.int64)
_bool = numpy.dtype(numpy.bool_)
_SCALARS = (bool, int, float, complex, numpy.generic)
_AxisError = numpy.exceptions.AxisError

__all__ = [
    "reshape", "ravel", "moveaxis", "rollaxis", "swapaxes", "transpose", "permute_dims",
    "atleast_1d", "atleast_2d", "atleast_3d", "broadcast", "broadcast_to", "broadcast_arrays",
    "broadcast_shapes", "expand_dims", "squeeze", "asfortranarray", "require", "concatenate",
    "concat", "stack", "hstack", "vstack", "row_stack", "dstack", "column_stack", "split",
    "array_split", "hsplit", "vsplit", "dsplit", "tile", "repeat", "delete", "insert", "append",
    "resize", "trim_zeros", "flip", "fliplr", "flipud", "roll", "rot90", "pad",
]


# ---- argument helpers (shared by the other routine files) --------------------------------
def _host_error(name, x):
    kind = "numpy.ndarray" if isinstance(x, numpy.ndarray) else type(x).__name__
    return TypeError(f"cuarray.{name} does not accept {kind}; move it to the GPU with "
                     f"cuarray.asarray(x)")


def _device(x, name):
    """`x` as a cuarray array: arrays (and CUDA-protocol objects) pass, Python/NumPy scalars
    become 0-d arrays, host arrays and sequences are refused."""
    if isinstance(x, ndarray):
        return x
    from cuarray._core import transfer
    if isinstance(x, _SCALARS):
        return transfer.asarray(numpy.asarray(x))
    if not isinstance(x, (numpy.ndarray, list, tuple)):
        ext = transfer._from_protocols(x)
        if ext is not None:
            return ext
    raise _host_error(name, x)


def _upload(host):
    """An explicit host-to-device copy of planning data (index vectors, masks)."""
    from cuarray._core import transfer
    return transfer.asarray(numpy.ascontiguousarray(host))


def _norm_axis(axis, ndim, argname=None):
    axis = operator.index(axis)
    if not -ndim <= axis < ndim:
        raise _AxisError(axis, ndim, argname)
    return axis % ndim


def _axis_tuple(axis, ndim, argname=None, allow_duplicate=False):
    """NumPy's normalize_axis_tuple."""
    if type(axis) not in (tuple, list):
        try:
            axis = [operator.index(axis)]
        except TypeError:
            pass
    axis = tuple(_norm_axis(ax, ndim, argname) for ax in axis)
    if not allow_duplicate and len(set(axis)) != len(axis):
        raise ValueError(f"repeated axis in `{argname}` argument" if argname else "repeated axis")
    return axis


def _shape_str(shape):
    return "(" + ",".join(str(s) for s in shape) + ("," if len(shape) == 1 else "") + ")"


def _order_of(a):
    return "F" if a.ndim > 1 and a._f_contig and not a._c_contig else "C"


# ---- gather / scatter along one axis (the index-driven kernels) ---------------------------
_take_ops = {}
_put_ops = {}


def _take_op(dt):
    op = _take_ops.get(dt.char)
    if op is None:
        # y is C-contiguous (allocated here), so i is its C-order index: (p, j, q).
        op = _take_ops[dt.char] = Op(
            f"cuarray_take_axis_{dt.char}",
            [Param("x", "raw", dt), Param("idx", "raw", _i64), Param("n", "scalar", _i64),
             Param("m", "scalar", _i64), Param("post", "scalar", _i64), Param("y", "out", dt)],
            "const long long q = i % post, t = i / post; "
            "y = x[((t / m) * n + idx[t % m]) * post + q];")
    return op


def _take_axis(a, idx, axis):
    """a[..., idx, ...] (idx: int64 device vector of in-range indices) as a new C array."""
    shape = a._shape
    m = idx.size
    out = ndarray._alloc(shape[:axis] + (m,) + shape[axis + 1:], a.dtype)
    if out.size:
        post = 1
        for s in shape[axis + 1:]:
            post *= s
        _take_op(a.dtype).launch((a, idx, _i64.type(shape[axis]), _i64.type(m), _i64.type(post), out))
    return out


def _put_op(dt, st):
    key = (dt.char, st.char)
    op = _put_ops.get(key)
    if op is None:
        op = _put_ops[key] = Op(
            f"cuarray_put_axis_{dt.char}{st.char}",
            [Param("v", "raw", st), Param("idx", "raw", _i64), Param("n", "scalar", _i64),
             Param("m", "scalar", _i64), Param("post", "scalar", _i64), Param("d", "raw", dt)],
            "const long long q = i % post, t = i / post; "
            f"d[((t / m) * n + idx[t % m]) * post + q] = cuarray_cast<{_dt.ctype(dt)}>(v[i]);")
    return op


def _put_axis(dst, idx, src, axis):
    """dst[..., idx, ...] = src, src shaped like dst with len(idx) along `axis` (any layout)."""
    if src.size == 0:
        return
    shape = src._shape
    post = 1
    for s in shape[axis + 1:]:
        post *= s
    _put_op(dst.dtype, src.dtype).launch(
        (src, idx, _i64.type(dst._shape[axis]), _i64.type(shape[axis]), _i64.type(post), dst),
        size=src.size)


def _flatnonzero(mask):
    """int64 positions of the True entries of a 1-D bool device array (synchronises once:
    the count sizes the result)."""
    from cuarray._core import _indexing
    return _indexing.nonzero(mask)[0]


# ---- basic shape changes ---------------------------------------------------------------------
def reshape(a, /, shape=None, order="C", *, newshape=None, copy=None):
    """cuarray version of `numpy.reshape` (a view when the strides allow)."""
    if newshape is not None:
        if shape is not None:
            raise TypeError("You cannot specify 'newshape' and 'shape' arguments at the same time.")
        shape = newshape
    if shape is None:
        raise TypeError("reshape() missing 1 required positional argument: 'shape'")
    return _device(a, "reshape").reshape(shape, order=order, copy=copy)


def _memory_order(a):
    """A view of `a` whose C order is its memory order (NumPy's order='K': axes by decreasing
    stride, negative strides reversed)."""
    if any(st < 0 for st in a._strides):
        a = a[tuple(slice(None, None, -1) if st < 0 else slice(None) for st in a._strides)]
    return a.transpose(sorted(range(a.ndim), key=lambda d: -a._strides[d]))


def ravel(a, order="C"):
    """cuarray version of `numpy.ravel` (order='K' follows the memory layout, as NumPy's)."""
    a = _device(a, "ravel")
    if order == "K" and not (a._c_contig or a._f_contig):
        return _memory_order(a).reshape(-1)
    return a.ravel(order)


def transpose(a, axes=None):
    """cuarray version of `numpy.transpose` (a view)."""
    a = _device(a, "transpose")
    return a.transpose() if axes is None else a.transpose(axes)


def permute_dims(a, /, axes=None):
    """cuarray version of `numpy.permute_dims` (a view)."""
    return transpose(a, axes)


def swapaxes(a, axis1, axis2):
    """cuarray version of `numpy.swapaxes` (a view)."""
    a = _device(a, "swapaxes")
    axes = list(range(a.ndim))
    i, j = _norm_axis(axis1, a.ndim, "axis1"), _norm_axis(axis2, a.ndim, "axis2")
    axes[i], axes[j] = axes[j], axes[i]
    return a.transpose(axes)


def moveaxis(a, source, destination):
    """cuarray version of `numpy.moveaxis` (a view)."""
    a = _device(a, "moveaxis")
    source = _axis_tuple(source, a.ndim, "source")
    destination = _axis_tuple(destination, a.ndim, "destination")
    if len(source) != len(destination):
        raise ValueError("`source` and `destination` arguments must have the same number of elements")
    order = [n for n in range(a.ndim) if n not in source]
    for dest, src in sorted(zip(destination, source)):
        order.insert(dest, src)
    return a.transpose(order)


def rollaxis(a, axis, start=0):
    """cuarray version of `numpy.rollaxis` (a view)."""
    a = _device(a, "rollaxis")
    n = a.ndim
    axis = _norm_axis(axis, n)
    if start < 0:
        start += n
    if not 0 <= start < n + 1:
        raise _AxisError(f"'start' arg requires {-n} <= start < {n + 1}, but {start} was passed in")
    if axis < start:
        start -= 1
    if axis == start:
        return a[...]
    axes = list(range(n))
    axes.remove(axis)
    axes.insert(start, axis)
    return a.transpose(axes)


def _atleast(n, arys, name):
    res = []
    for x in arys:
        a = _device(x, name)
        if a.ndim < n:
            nd = a.ndim
            if n == 1 or nd == 0:
                shape = (1,) * (n - nd) + a._shape
            elif n == 2:          # (N,) -> (1, N)
                shape = (1,) + a._shape
            elif nd == 1:         # (N,) -> (1, N, 1)
                shape = (1,) + a._shape + (1,)
            else:                 # (M, N) -> (M, N, 1)
                shape = a._shape + (1,)
            a = a.reshape(shape)
        res.append(a)
    return res[0] if len(res) == 1 else tuple(res)


def atleast_1d(*arys):
    """cuarray version of `numpy.atleast_1d` (views)."""
    return _atleast(1, arys, "atleast_1d")


def atleast_2d(*arys):
    """cuarray version of `numpy.atleast_2d` (views)."""
    return _atleast(2, arys, "atleast_2d")


def atleast_3d(*arys):
    """cuarray version of `numpy.atleast_3d` (views)."""
    return _atleast(3, arys, "atleast_3d")


def expand_dims(a, axis):
    """cuarray version of `numpy.expand_dims` (a view)."""
    a = _device(a, "expand_dims")
    if type(axis) not in (tuple, list):
        axis = (axis,)
    out_ndim = len(axis) + a.ndim
    axis = _axis_tuple(axis, out_ndim)
    it = iter(a._shape)
    return a.reshape([1 if d in axis else next(it) for d in range(out_ndim)])


def squeeze(a, axis=None):
    """cuarray version of `numpy.squeeze` (a view)."""
    return _device(a, "squeeze").squeeze(axis)


# ---- broadcasting ----------------------------------------------------------------------------
def broadcast_shapes(*args):
    """cuarray version of `numpy.broadcast_shapes` (pure shape arithmetic)."""
    return numpy.broadcast_shapes(*args)


def broadcast_to(array, shape, subok=False):
    """cuarray version of `numpy.broadcast_to`: a view with zero strides on broadcast axes
    (writable, unlike NumPy's; writing to it writes the shared elements)."""
    array = _device(array, "broadcast_to")
    shape = tuple(shape) if numpy.iterable(shape) else (shape,)
    shape = tuple(operator.index(s) for s in shape)
    if any(s < 0 for s in shape):
        raise ValueError("all elements of broadcast shape must be non-negative")
    if not shape and array._shape:
        raise ValueError("cannot broadcast a non-scalar to a scalar array")
    if len(array._shape) > len(shape):
        raise ValueError("input operand has more dimensions than allowed by the axis remapping")
    if array._shape == shape:
        return array._view(shape, array._strides)
    off = len(shape) - array.ndim
    strides = [0] * len(shape)
    for d, (n, st) in enumerate(zip(array._shape, array._strides)):
        if n == shape[d + off]:
            strides[d + off] = st if n != 1 else 0
        elif n != 1:
            raise ValueError("operands could not be broadcast together with remapped shapes "
                             f"[original->remapped]: {_shape_str(array._shape)}  and requested shape "
                             f"{_shape_str(shape)}")
    return array._view(shape, tuple(strides))


def broadcast_arrays(*args, subok=False):
    """cuarray version of `numpy.broadcast_arrays` (a tuple of views)."""
    arrays = [_device(a, "broadcast_arrays") for a in args]
    shape = numpy.broadcast_shapes(*[a._shape for a in arrays])
    return tuple(a if a._shape == shape else broadcast_to(a, shape) for a in arrays)


class broadcast:
    """The broadcast of several arrays (cuarray version of `cupy.broadcast`): `shape`,
    `size`, `ndim` (`nd`), `numiter`, and `values`, the arrays broadcast as views.

    Unlike `numpy.broadcast` it is not an iterator over element tuples.
    """

    def __init__(self, *arrays):
        self.values = broadcast_arrays(*arrays)
        self.shape = numpy.broadcast_shapes(*[a._shape for a in self.values])
        self.size = 1
        for s in self.shape:
            self.size *= s
        self.nd = self.ndim = len(self.shape)
        self.numiter = len(self.values)


# ---- memory layout ---------------------------------------------------------------------------
def asfortranarray(a, dtype=None):
    """cuarray version of `numpy.asfortranarray`: `a` itself when already Fortran-ordered
    with the dtype, else a copy (2-D transposed layouts use the tiled transpose kernel)."""
    a = _device(a, "asfortranarray")
    dt = a.dtype if dtype is None else _dt.check_dtype(dtype)
    if dt == a.dtype and a._f_contig:
        return a
    out = ndarray._alloc(a._shape, dt, "F")
    if a.size:
        from cuarray._core import _transpose
        if not _transpose.transpose_copy(a, out):
            _copy.copy_into(out, a)
    return out


_REQUIREMENTS = {"C": "C", "C_CONTIGUOUS": "C", "CONTIGUOUS": "C", "F": "F", "F_CONTIGUOUS": "F",
                 "FORTRAN": "F", "A": "A", "ALIGNED": "A", "W": "W", "WRITEABLE": "W",
                 "O": "O", "OWNDATA": "O", "E": "E", "ENSUREARRAY": "E"}


def require(a, dtype=None, requirements=None, *, like=None):
    """cuarray version of `numpy.require`. Device arrays are always aligned, writeable and
    base-class arrays; 'C'/'F' request a layout, 'O' a copy that owns its data."""
    a = _device(a, "require")
    if not requirements:
        return a if dtype is None else a.astype(dtype, copy=False)
    reqs = {_REQUIREMENTS[r.upper()] for r in requirements}  # a str is a sequence of letters
    if "C" in reqs and "F" in reqs:
        raise ValueError('Cannot specify both "C" and "F" order')
    order = "C" if "C" in reqs else ("F" if "F" in reqs else "A")
    dt = a.dtype if dtype is None else _dt.check_dtype(dtype)
    ok = dt == a.dtype and (order == "A" or (a._c_contig if order == "C" else a._f_contig))
    if ok and not ("O" in reqs and a.base is not None):
        return a
    return a.astype(dt, order="K" if order == "A" else order, copy=True)


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
    if dtype is None and all(d == first for d in dtypes):
        return _dt.check_dtype(first)  # the common case: nothing to promote or check
    dt = numpy.result_type(*dtypes) if dtype is None else numpy.dtype(dtype)
    for src in dtypes:
        if not numpy.can_cast(src, dt, casting):
            raise TypeError(f"Cannot cast array data from {src!r} to {dt!r} according to the rule "
                            f"'{casting}'")
    return _dt.check_dtype(dt)


def _join_order(arrays):
    # NumPy gives the result the inputs' memory order; cuarray follows it for C and F.
    multi = [a for a in arrays if a.ndim > 1]
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
    pos = 0
    step = res._strides[axis]
    for a in arrays:
        n = a._shape[axis]
        if n and a.size:
            _copy.copy_into(res._view(shape[:axis] + (n,) + shape[axis + 1:], res._strides, pos * step), a)
        pos += n
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


def append(arr, values, axis=None):
    """cuarray version of `numpy.append`."""
    arr = _device(arr, "append")
    values = _device(values, "append")
    if axis is None:
        arr = arr.reshape(-1) if arr.ndim != 1 else arr
        values = values.reshape(-1)
        axis = arr.ndim - 1
    return concatenate((arr, values), axis)


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


# ---- tiling and repeating -------------------------------------------------------------------
def tile(A, reps):
    """cuarray version of `numpy.tile`: one copy from a zero-stride view of `A`."""
    A = _device(A, "tile")
    try:
        tup = tuple(reps)
    except TypeError:
        tup = (reps,)
    tup = tuple(operator.index(r) for r in tup)
    nd = max(len(tup), A.ndim)
    shape = (1,) * (nd - A.ndim) + A._shape
    strides = (0,) * (nd - A.ndim) + A._strides
    tup = (1,) * (nd - len(tup)) + tup
    if any(r < 0 for r in tup):
        raise ValueError("negative dimensions are not allowed")
    out = ndarray._alloc(tuple(r * s for r, s in zip(tup, shape)), A.dtype)
    if out.size:
        vshape = tuple(x for r, s in zip(tup, shape) for x in (r, s))
        vstrides = tuple(x for st in strides for x in (0, st))
        _copy.copy_into(out.reshape(vshape), A._view(vshape, vstrides))
    return out


_search_ops = {}


def _repeat_sources(reps, total):
    """For each output position j, the k with csum[k-1] <= j < csum[k] (binary search)."""
    op = _search_ops.get("repeat")
    if op is None:
        op = _search_ops["repeat"] = Op(
            "cuarray_repeat_sources",
            [Param("c", "raw", _i64), Param("n", "scalar", _i64), Param("y", "out", _i64)],
            "long long lo = 0, hi = n; "
            "while (lo < hi) { const long long mid = (lo + hi) >> 1; "
            "if (c[mid] <= i) lo = mid + 1; else hi = mid; } y = lo;")
    from cuarray._core import scan
    csum = scan.cumsum(reps.astype(_i64, copy=False))
    out = ndarray._alloc((total,), _i64)
    if total:
        op.launch((csum, _i64.type(reps.size), out))
    return out


def repeat(a, repeats, axis=None):
    """cuarray version of `numpy.repeat`. Scalar repeats: one copy from a zero-stride view;
    per-element repeats: one gather. Device `repeats` are read once for the total
    (synchronises)."""
    a = _device(a, "repeat")
    if axis is None:
        a = a.reshape(-1)
        axis = 0
    else:
        axis = _norm_axis(axis, a.ndim)
    n = a._shape[axis]
    if isinstance(repeats, ndarray):
        reps = repeats.reshape(-1)
        if reps.size == 1:
            return repeat(a, int(reps.get()[0]), axis)
        if reps.size != n:
            raise ValueError(f"operands could not be broadcast together with shape ({n},) ({reps.size},)")
        from cuarray._core import _reductions
        total, low = (int(v) for v in stack([_reductions.sum(reps, dtype=_i64),
                                              _reductions.amin(reps).astype(_i64)]).get())
        if low < 0:
            raise ValueError("repeats may not contain negative values.")
        return _take_axis(a, _repeat_sources(reps, total), axis)
    reps = numpy.asarray(repeats)
    if reps.ndim > 1:
        raise ValueError("object too deep for desired array")
    reps = reps.astype(numpy.intp).reshape(-1)
    if reps.size == 1:
        r = int(reps[0])
        if r < 0:
            raise ValueError("repeats may not contain negative values.")
        shape, strides = a._shape, a._strides
        vshape = shape[:axis + 1] + (r,) + shape[axis + 1:]
        out = ndarray._alloc(shape[:axis] + (n * r,) + shape[axis + 1:], a.dtype)
        if out.size:
            src = a._view(vshape, strides[:axis + 1] + (0,) + strides[axis + 1:])
            _copy.copy_into(out.reshape(vshape), src)
        return out
    if reps.size != n:
        raise ValueError(f"operands could not be broadcast together with shape ({n},) ({reps.size},)")
    if (reps < 0).any():
        raise ValueError("repeats may not contain negative values.")
    return _take_axis(a, _upload(numpy.repeat(numpy.arange(n, dtype=numpy.int64), reps)), axis)


# ---- adding and removing elements -------------------------------------------------------------
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
    if axis is None:
        arr = arr.reshape(-1)
        axis = 0
    else:
        axis = _norm_axis(axis, arr.ndim)
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
    from cuarray._core import _ops, _reductions
    nz = _ops.not_equal(filt, 0)
    parts = []
    for d in range(nd):
        other = tuple(x for x in range(nd) if x != d)
        line = _reductions.any(nz, axis=other) if other else nz
        parts.append(_reductions.argmax(line).astype(_i64))
        parts.append(_reductions.argmax(line[::-1]).astype(_i64))
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


# ---- rearranging ---------------------------------------------------------------------------------
def flip(m, axis=None):
    """cuarray version of `numpy.flip` (a view with negative strides)."""
    m = _device(m, "flip")
    if axis is None:
        return m[(slice(None, None, -1),) * m.ndim]
    axes = _axis_tuple(axis, m.ndim)
    return m[tuple(slice(None, None, -1) if d in axes else slice(None) for d in range(m.ndim))]


def fliplr(m):
    """cuarray version of `numpy.fliplr` (a view)."""
    m = _device(m, "fliplr")
    if m.ndim < 2:
        raise ValueError("Input must be >= 2-d.")
    return m[:, ::-1]


def flipud(m):
    """cuarray version of `numpy.flipud` (a view)."""
    m = _device(m, "flipud")
    if m.ndim < 1:
        raise ValueError("Input must be >= 1-d.")
    return m[::-1, ...]


def roll(a, shift, axis=None):
    """cuarray version of `numpy.roll`: at most two copy kernels per rolled axis."""
    a = _device(a, "roll")
    if axis is None:
        return roll(a.reshape(-1), shift, 0).reshape(a._shape)
    axis = _axis_tuple(axis, a.ndim, allow_duplicate=True)
    if isinstance(shift, ndarray):
        shift = shift.get()
    b = numpy.broadcast(numpy.asarray(shift), numpy.asarray(axis))
    if b.ndim > 1:
        raise ValueError("'shift' and 'axis' should be scalars or 1D sequences")
    shifts = dict.fromkeys(range(a.ndim), 0)
    for sh, ax in b:
        shifts[int(ax)] += int(sh)
    rolls = [((slice(None), slice(None)),)] * a.ndim
    for ax, offset in shifts.items():
        offset %= a._shape[ax] or 1
        if offset:
            rolls[ax] = ((slice(None, -offset), slice(offset, None)),
                         (slice(-offset, None), slice(None, offset)))
    result = ndarray._alloc(a._shape, a.dtype, _order_of(a))
    if a.size:
        for indices in itertools.product(*rolls):
            src, dst = zip(*indices)
            _copy.copy_into(result[dst], a[src])
    return result


def rot90(m, k=1, axes=(0, 1)):
    """cuarray version of `numpy.rot90` (a view)."""
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    m = _device(m, "rot90")
    if axes[0] == axes[1] or abs(axes[0] - axes[1]) == m.ndim:
        raise ValueError("Axes must be different.")
    if not (-m.ndim <= axes[0] < m.ndim and -m.ndim <= axes[1] < m.ndim):
        raise ValueError(f"Axes={axes} out of range for array of ndim={m.ndim}.")
    k %= 4
    if k == 0:
        return m[:]
    if k == 2:
        return flip(flip(m, axes[0]), axes[1])
    perm = list(range(m.ndim))
    perm[axes[0]], perm[axes[1]] = perm[axes[1]], perm[axes[0]]
    if k == 1:
        return flip(m, axes[1]).transpose(perm)
    return flip(m.transpose(perm), axes[1])


# ---- padding (NumPy's axis-by-axis algorithm, on device views) ----------------------------------
def pad_pairs(x, ndim, as_index=False):
    """NumPy's `_as_pairs`: broadcast a pad specification to ((before, after),) * ndim
    (pure planning; `as_index` rounds to ints and refuses negatives)."""
    if x is None:
        return ((None, None),) * ndim
    if isinstance(x, ndarray):
        x = x.get()
    x = numpy.array(x)
    if as_index:
        x = numpy.round(x).astype(numpy.intp, copy=False)
    if x.ndim < 3:
        if x.size == 1:
            x = x.ravel()
            if as_index and x < 0:
                raise ValueError("index can't contain negative values")
            return ((x[0], x[0]),) * ndim
        if x.size == 2 and x.shape != (2, 1):
            x = x.ravel()
            if as_index and (x[0] < 0 or x[1] < 0):
                raise ValueError("index can't contain negative values")
            return ((x[0], x[1]),) * ndim
    if as_index and x.min() < 0:
        raise ValueError("index can't contain negative values")
    return numpy.broadcast_to(x, (ndim, 2)).tolist()


def _at_axis(sl, axis):
    return (slice(None),) * axis + (sl,) + (Ellipsis,)


def _set_pad_area(padded, axis, width_pair, value_pair):
    padded[_at_axis(slice(None, width_pair[0]), axis)] = value_pair[0]
    padded[_at_axis(slice(padded._shape[axis] - width_pair[1], None), axis)] = value_pair[1]


def _get_edges(padded, axis, width_pair):
    left = width_pair[0]
    right = padded._shape[axis] - width_pair[1]
    return (padded[_at_axis(slice(left, left + 1), axis)],
            padded[_at_axis(slice(right - 1, right), axis)])


def _get_linear_ramps(padded, axis, width_pair, end_value_pair):
    from cuarray._routines.creation_more import linspace
    ramps = [linspace(end_value, edge.squeeze(axis), num=width, endpoint=False, dtype=padded.dtype,
                      axis=axis)
             for end_value, edge, width in zip(end_value_pair, _get_edges(padded, axis, width_pair),
                                               width_pair)]
    return ramps[0], ramps[1][_at_axis(slice(None, None, -1), axis)]


def _get_stats(padded, axis, width_pair, length_pair, stat_func):
    left_index = width_pair[0]
    right_index = padded._shape[axis] - width_pair[1]
    max_length = right_index - left_index
    left_length, right_length = length_pair
    if left_length is None or max_length < left_length:
        left_length = max_length
    if right_length is None or max_length < right_length:
        right_length = max_length
    if (left_length == 0 or right_length == 0) and stat_func in ("maximum", "minimum"):
        raise ValueError("stat_length of 0 yields no value for padding")
    func = _stat_function(stat_func)
    integer = padded.dtype.kind in "iu"

    def stat(sl):
        s = func(padded[_at_axis(sl, axis)], axis=axis, keepdims=True)
        if integer:
            s.round(out=s)
        return s
    left = stat(slice(left_index, left_index + left_length))
    if left_length == right_length == max_length:
        return left, left
    return left, stat(slice(right_index - right_length, right_index))


def _stat_function(mode):
    from cuarray._core import _reductions
    if mode == "maximum":
        return _reductions.amax
    if mode == "minimum":
        return _reductions.amin
    if mode == "mean":
        return _reductions.mean
    import cuarray
    return cuarray.median


def _set_reflect_both(padded, axis, width_pair, method, original_period, include_edge=False):
    left_pad, right_pad = width_pair
    old_length = padded._shape[axis] - right_pad - left_pad
    if include_edge:
        old_length = old_length // original_period * original_period
        edge_offset = 1
    else:
        old_length = (old_length - 1) // (original_period - 1) * (original_period - 1) + 1
        edge_offset = 0
        old_length -= 1
    if left_pad > 0:
        chunk_length = min(old_length, left_pad)
        stop = left_pad - edge_offset
        left_chunk = padded[_at_axis(slice(stop + chunk_length, stop, -1), axis)]
        if method == "odd":
            left_chunk = 2 * padded[_at_axis(slice(left_pad, left_pad + 1), axis)] - left_chunk
        padded[_at_axis(slice(left_pad - chunk_length, left_pad), axis)] = left_chunk
        left_pad -= chunk_length
    if right_pad > 0:
        chunk_length = min(old_length, right_pad)
        start = -right_pad + edge_offset - 2
        right_chunk = padded[_at_axis(slice(start, start - chunk_length, -1), axis)]
        if method == "odd":
            right_chunk = 2 * padded[_at_axis(slice(-right_pad - 1, -right_pad), axis)] - right_chunk
        start = padded._shape[axis] - right_pad
        padded[_at_axis(slice(start, start + chunk_length), axis)] = right_chunk
        right_pad -= chunk_length
    return left_pad, right_pad


def _set_wrap_both(padded, axis, width_pair, original_period):
    left_pad, right_pad = width_pair
    period = padded._shape[axis] - right_pad - left_pad
    period = period // original_period * original_period
    new_left_pad = new_right_pad = 0
    if left_pad > 0:
        slice_end = left_pad + period
        chunk = padded[_at_axis(slice(slice_end - min(period, left_pad), slice_end), axis)]
        if left_pad > period:
            area = _at_axis(slice(left_pad - period, left_pad), axis)
            new_left_pad = left_pad - period
        else:
            area = _at_axis(slice(None, left_pad), axis)
        padded[area] = chunk
    if right_pad > 0:
        slice_start = -right_pad - period
        chunk = padded[_at_axis(slice(slice_start, slice_start + min(period, right_pad)), axis)]
        if right_pad > period:
            area = _at_axis(slice(-right_pad, -right_pad + period), axis)
            new_right_pad = right_pad - period
        else:
            area = _at_axis(slice(-right_pad, None), axis)
        padded[area] = chunk
    return new_left_pad, new_right_pad


_PAD_KWARGS = {
    "empty": [], "edge": [], "wrap": [], "constant": ["constant_values"],
    "linear_ramp": ["end_values"], "maximum": ["stat_length"], "mean": ["stat_length"],
    "median": ["stat_length"], "minimum": ["stat_length"], "reflect": ["reflect_type"],
    "symmetric": ["reflect_type"],
}


def _pad_width(pad_width, ndim):
    if isinstance(pad_width, dict):
        seq = [(0, 0)] * ndim
        for ax, width in pad_width.items():
            seq[ax] = (width, width) if isinstance(width, int) else tuple(width)
        pad_width = seq
    if isinstance(pad_width, ndarray):
        pad_width = pad_width.get()
    pw = numpy.asarray(pad_width)
    if pw.dtype.kind != "i":
        raise TypeError("`pad_width` must be of integral type.")
    return [tuple(int(v) for v in p) for p in pad_pairs(pw, ndim, as_index=True)]


def pad(array, pad_width, mode="constant", **kwargs):
    """cuarray version of `numpy.pad`, every mode (and a callable mode, called once per 1-D
    view as NumPy does). Pad values, widths and stat lengths are planning data read on the
    host; the padding itself is copies and reductions on device views."""
    array = _device(array, "pad")
    pad_width = _pad_width(pad_width, array.ndim)
    shape = tuple(left + s + right for s, (left, right) in zip(array._shape, pad_width))
    padded = ndarray._alloc(shape, array.dtype, _order_of(array))
    area = tuple(slice(left, left + s) for s, (left, right) in zip(array._shape, pad_width))
    if callable(mode):
        padded.fill(0)
        padded[area] = array
        for axis in range(padded.ndim):
            view = moveaxis(padded, axis, -1)
            for ind in numpy.ndindex(view._shape[:-1]):
                mode(view[ind + (Ellipsis,)], pad_width[axis], axis, kwargs)
        return padded
    try:
        unsupported = set(kwargs) - set(_PAD_KWARGS[mode])
    except (KeyError, TypeError):
        raise ValueError(f"mode '{mode}' is not supported") from None
    if unsupported:
        raise ValueError(f"unsupported keyword arguments for mode '{mode}': {unsupported}")
    if array.size:
        padded[area] = array
    axes = range(padded.ndim)

    def roi(axis):  # the area already filled along the axes before `axis`
        return padded[(slice(None),) * (axis + 1) + area[axis + 1:]]

    if mode == "constant":
        values = pad_pairs(kwargs.get("constant_values", 0), padded.ndim)
        for axis, width_pair, value_pair in zip(axes, pad_width, values):
            _set_pad_area(roi(axis), axis, width_pair, value_pair)
    elif mode == "empty":
        pass
    elif array.size == 0:
        for axis, width_pair in zip(axes, pad_width):
            if array._shape[axis] == 0 and any(width_pair):
                raise ValueError(f"can't extend empty axis {axis} using modes other than 'constant' "
                                 "or 'empty'")
    elif mode == "edge":
        for axis, width_pair in zip(axes, pad_width):
            r = roi(axis)
            _set_pad_area(r, axis, width_pair, _get_edges(r, axis, width_pair))
    elif mode == "linear_ramp":
        ends = pad_pairs(kwargs.get("end_values", 0), padded.ndim)
        for axis, width_pair, value_pair in zip(axes, pad_width, ends):
            r = roi(axis)
            _set_pad_area(r, axis, width_pair, _get_linear_ramps(r, axis, width_pair, value_pair))
    elif mode in ("maximum", "minimum", "mean", "median"):
        lengths = pad_pairs(kwargs.get("stat_length"), padded.ndim, as_index=True)
        for axis, width_pair, length_pair in zip(axes, pad_width, lengths):
            r = roi(axis)
            _set_pad_area(r, axis, width_pair, _get_stats(r, axis, width_pair, length_pair, mode))
    elif mode in ("reflect", "symmetric"):
        method = kwargs.get("reflect_type", "even")
        include_edge = mode == "symmetric"
        for axis, (left, right) in zip(axes, pad_width):
            if array._shape[axis] == 1 and (left > 0 or right > 0):
                _set_pad_area(padded, axis, (left, right), _get_edges(padded, axis, (left, right)))
                continue
            r = roi(axis)
            while left > 0 or right > 0:
                left, right = _set_reflect_both(r, axis, (left, right), method, array._shape[axis],
                                                include_edge)
    elif mode == "wrap":
        for axis, (left, right) in zip(axes, pad_width):
            r = roi(axis)
            period = padded._shape[axis] - right - left
            while left > 0 or right > 0:
                left, right = _set_wrap_both(r, axis, (left, right), period)
    return padded
