"""Array manipulation routines (NumPy reference: "Array manipulation routines"): shape
changes, transpose-like operations, changing the number of dimensions, broadcasting and
memory layout. Every one is a view or at most one copy.

The chapter's other sections have files of their own: joining.py (joining and splitting),
rearranging.py (tiling, repeating, flips and rolls), adding_removing.py (insert, delete,
append, resize, trim_zeros) and padding.py (pad). Host data given for array arguments is
refused with a TypeError naming `cuarray.asarray` (no silent transfers); integers, slices
and index lists that only plan the work are read on the host.
"""
import operator

import numpy
from numpy.lib.array_utils import normalize_axis_index

from cuarray._core import _copy
from cuarray._core import dtypes as _dt
from cuarray._core.ndarray import ndarray
from cuarray._routines._args import _AxisError, _axis_tuple, _device, _norm_axis, _shape_str

__all__ = [
    "reshape", "ravel", "moveaxis", "rollaxis", "swapaxes", "transpose", "permute_dims",
    "atleast_1d", "atleast_2d", "atleast_3d", "broadcast", "broadcast_to", "broadcast_arrays",
    "broadcast_shapes", "expand_dims", "squeeze", "require",
]


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


def ravel(a, order="C"):
    """cuarray version of `numpy.ravel` (order='K' follows the memory layout, as NumPy's)."""
    return _device(a, "ravel").ravel(order)


def transpose(a, axes=None):
    """cuarray version of `numpy.transpose` (a view)."""
    a = _device(a, "transpose")
    return a.transpose() if axes is None else a.transpose(axes)


def permute_dims(a, /, axes=None):
    """cuarray version of `numpy.permute_dims` (a view)."""
    return transpose(a, axes)


def swapaxes(a, axis1, axis2):
    """cuarray version of `numpy.swapaxes` (a view)."""
    return _device(a, "swapaxes").swapaxes(axis1, axis2)


_moves = {}  # (ndim, source, destination) ints of moveaxis -> the axes order


def moveaxis(a, source, destination):
    """cuarray version of `numpy.moveaxis` (a view)."""
    a = _device(a, "moveaxis")
    nd = len(a._shape)
    if type(source) is int and type(destination) is int:
        # The common call moves one axis: no tuples to build, check and sort (1.8 µs, not 3.1);
        # the order of a repeated call is one lookup (valid ints: the key was checked once).
        order = _moves.get((nd, source, destination))
        if order is None:
            src = normalize_axis_index(source, nd, "source")
            order = list(range(nd))
            order.insert(normalize_axis_index(destination, nd, "destination"), order.pop(src))
            if len(_moves) < 1024:
                _moves[(nd, source, destination)] = order = tuple(order)
        return a._permute(order)
    source = _axis_tuple(source, nd, "source")
    destination = _axis_tuple(destination, nd, "destination")
    if len(source) != len(destination):
        raise ValueError("`source` and `destination` arguments must have the same number of elements")
    order = [n for n in range(nd) if n not in source]
    for dest, src in sorted(zip(destination, source)):
        order.insert(dest, src)
    return a._permute(order)


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
    return a._permute(axes)


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
    if type(axis) is int:   # the common call: its shape is one lookup once checked
        shape = _expands.get((a._shape, axis))
        if shape is not None:
            return a.reshape(shape)
    key = (a._shape, axis)
    if type(axis) not in (tuple, list):
        axis = (axis,)
    out_ndim = len(axis) + a.ndim
    axis = _axis_tuple(axis, out_ndim)
    it = iter(a._shape)
    shape = tuple([1 if d in axis else next(it) for d in range(out_ndim)])
    if type(key[1]) is int and len(_expands) < 1024:
        _expands[key] = shape
    return a.reshape(shape)


_expands = {}  # (shape, int axis) of expand_dims -> the result's shape


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
        return array._view(shape, array._strides, contig=(array._c_contig, array._f_contig))
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
# asfortranarray is the one from _core/transfer.py (cuarray.asfortranarray), with asarray.
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
