"""Array creation routines (NumPy reference: "Array creation routines")."""
import math
import operator

import numpy

from cuarray._core import dtypes as _dt
from cuarray._core import shapes as _sh
from cuarray._core.ndarray import ndarray
from cuarray._core.device_arg import scope as _device_scope
from cuarray._core.elementwise import Op, Param
from cuarray._core._alloc import zeros as _zeros
from cuarray._core._lazy import lazy_module

# array, asarray, ascontiguousarray and asfortranarray live with the host transfers
# (_core.transfer), which load with their first use.
_transfer = lazy_module(globals(), "_transfer", "cuarray._core.transfer")

_float = numpy.dtype(numpy.float64)
_INT64 = numpy.dtype(numpy.int64)


def _shape_dtype(shape, dtype, check=_dt.check_dtype):
    shape = _sh.normalize_shape(shape)
    dtype = _float if dtype is None else check(dtype)
    return shape, dtype


def _order(order):
    if isinstance(order, str):
        order = order.upper()
    if order not in ("C", "F", None):
        raise ValueError(f"order must be 'C' or 'F', got {order!r}")
    return order or "C"


_INT = frozenset((int,))


def _plain_shape(shape):
    """`shape` as a tuple when it is a non-negative int or a tuple of them (the common call:
    none of normalize_shape's conversions needed), else None."""
    if type(shape) is int:
        return (shape,) if shape >= 0 else None
    if type(shape) is tuple and _INT.issuperset(map(type, shape)) and min(shape, default=0) >= 0:
        return shape
    return None


def _creation(name, alloc):
    """numpy.`name` (empty, zeros): a new array from `alloc(shape, dtype[, order])`. The
    common call (C order, a plain shape, no device) goes straight to `alloc`."""
    def create(shape, dtype=float, order="C", *, device=None):
        if order == "C" and device is None:
            dims = _plain_shape(shape)
            if dims is not None:
                return alloc(dims, _dt.check_storage_dtype(dtype))
        if device is not None:
            with _device_scope(device):
                return create(shape, dtype, order)
        shape, dtype = _shape_dtype(shape, dtype, _dt.check_storage_dtype)
        return alloc(shape, dtype, _order(order))
    create.__name__ = create.__qualname__ = name
    create.__doc__ = f"cuarray version of `numpy.{name}`."
    return create


empty = _creation("empty", ndarray._alloc)
zeros = _creation("zeros", _zeros)


def ones(shape, dtype=float, order="C", *, device=None):
    """cuarray version of `numpy.ones`."""
    if device is not None:
        with _device_scope(device):
            return ones(shape, dtype, order)
    a = empty(shape, dtype, order)
    a.fill(1)
    return a


def full(shape, fill_value, dtype=None, order="C", *, device=None):
    """cuarray version of `numpy.full`."""
    if device is not None:
        with _device_scope(device):
            return full(shape, fill_value, dtype, order)
    if dtype is None:
        if isinstance(fill_value, ndarray):
            dtype = fill_value.dtype
        else:
            dtype = numpy.array(fill_value).dtype
    a = empty(shape, dtype, order)
    a.fill(fill_value)
    return a


def _like(a, dtype, order, shape):
    if isinstance(order, str):
        order = order.upper()
    dtype = a.dtype if dtype is None else _dt.check_storage_dtype(dtype)
    if shape is None:
        shape = a.shape
    elif isinstance(shape, (int, numpy.integer)):
        shape = (int(shape),)
    if order in ("K", "A", None):
        order = "F" if isinstance(a, ndarray) and a._f_contig and not a._c_contig \
            and len(shape) == len(a._shape) else "C"
    return shape, dtype, order


def empty_like(prototype, dtype=None, order="K", subok=None, shape=None, *, device=None):
    """cuarray version of `numpy.empty_like`."""
    shape, dtype, order = _like(prototype, dtype, order, shape)
    return empty(shape, dtype, order, device=device)


def zeros_like(a, dtype=None, order="K", subok=None, shape=None, *, device=None):
    """cuarray version of `numpy.zeros_like`."""
    shape, dtype, order = _like(a, dtype, order, shape)
    return zeros(shape, dtype, order, device=device)


def ones_like(a, dtype=None, order="K", subok=None, shape=None, *, device=None):
    """cuarray version of `numpy.ones_like`."""
    shape, dtype, order = _like(a, dtype, order, shape)
    return ones(shape, dtype, order, device=device)


def full_like(a, fill_value, dtype=None, order="K", subok=None, shape=None, *, device=None):
    """cuarray version of `numpy.full_like`."""
    shape, dtype, order = _like(a, dtype, order, shape)
    return full(shape, fill_value, dtype, order, device=device)


_arange_ops = {}


def arange(start, stop=None, step=None, dtype=None, *, device=None):
    """cuarray version of `numpy.arange`, computed on the device as start + i * step."""
    if device is not None:
        with _device_scope(device):
            return arange(start, stop, step, dtype)
    if stop is None:
        start, stop = 0, start
    if step is None:
        step = 1
    for v in (start, stop, step):
        if isinstance(v, ndarray):
            raise TypeError("arange does not accept arrays; use Python or NumPy scalars")
    if isinstance(start, (numpy.datetime64, numpy.timedelta64)) or \
            isinstance(stop, (numpy.datetime64, numpy.timedelta64)) or \
            (dtype is not None and numpy.dtype(dtype).kind in "Mm"):
        return _datetime_arange(start, stop, step, dtype)
    if dtype is None:
        # Python ints are weak: NumPy gives int64 whatever their values (1 µs saved)
        dtype = _INT64 if type(start) is int and type(stop) is int and type(step) is int \
            else numpy.result_type(start, stop, step)
    dtype = _dt.check_dtype(dtype)
    if step == 0:
        raise ZeroDivisionError("division by zero")
    n = int(math.ceil((stop - start) / step)) if not isinstance(step, complex) else \
        int(math.ceil(((stop - start) / step).real))
    n = max(n, 0)
    a = empty((n,), dtype)
    if n == 0:
        return a
    cd = numpy.dtype(numpy.complex128) if dtype.kind == "c" else (
        numpy.dtype(numpy.float64) if dtype.kind in "fe" else numpy.dtype(numpy.int64))
    if dtype.kind == "b":
        if n > 2:
            raise ValueError("no fill-function for data-type.")
        cd = numpy.dtype(numpy.int64)
    _arange_op(cd).launch((cd.type(start), cd.type(step), a))
    return a


def _datetime_arange(start, stop, step, dtype):
    """arange of datetime64/timedelta64: the int64 counts of the common unit (NumPy's)."""
    def unit(v):
        if isinstance(v, (numpy.datetime64, numpy.timedelta64)):
            return numpy.dtype(f"m8[{numpy.datetime_data(v.dtype)[0]}]") \
                if numpy.datetime_data(v.dtype)[0] != "generic" else numpy.dtype("m8")
        return numpy.dtype("m8")
    if dtype is None:
        common = numpy.result_type(unit(start), unit(stop), unit(step))
        kind = "M" if isinstance(start, numpy.datetime64) else "m"
        dtype = numpy.dtype(kind + common.str[2:])
    dtype = _dt.check_dtype(dtype)
    delta = numpy.dtype("m8" + dtype.str[3:])
    from cuarray._core.datetimes import scalar
    s, e, d = scalar(start, dtype), scalar(stop, dtype), int(scalar(step, delta))
    if d == 0:
        raise ValueError("arange: cannot compute length")
    n = max(-((int(s) - int(e)) // d), 0)
    a = empty((n,), dtype)
    if n:
        i8 = numpy.dtype(numpy.int64)
        _arange_op(i8).launch((i8.type(s), i8.type(d), a.view(i8)))
    return a


def _arange_op(cd):
    """y[i] = start + i * step computed in `cd`."""
    op = _arange_ops.get(cd.char)
    if op is None:
        from cuarray._core.elementwise import Op, Param
        op = _arange_ops[cd.char] = Op(
            f"cuarray_arange_{cd.char}",
            [Param("start", "scalar", cd), Param("step", "scalar", cd), Param("y", "out", cd)],
            f"y = start + ({_dt.ctype(cd)})i * step;")
    return op


def copy(a, order="K"):
    """cuarray version of `numpy.copy`."""
    if not isinstance(a, ndarray):
        return _transfer.array(a, order=order)
    return a.copy(order)
