"""The Array API standard's functions that NumPy's chapters do not have (`astype`,
`unstack`) and the inspection namespace `__array_namespace_info__` (Array API 2024.12).

Devices are `cuarray.cuda.Device` objects; `device=` arguments take one (or None, the
current device), as `x.device` returns one.
"""
import numpy

from cuarray._core.ndarray import ndarray

__all__ = ["astype", "unstack", "cumulative_sum", "cumulative_prod", "__array_namespace_info__"]

_KINDS = {
    "bool": ("b",), "signed integer": ("i",), "unsigned integer": ("u",),
    "integral": ("i", "u"), "real floating": ("f",), "complex floating": ("c",),
    "numeric": ("i", "u", "f", "c"),
}
# The standard's dtypes, in its order (no float16).
_ALL = [numpy.dtype(n) for n in ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
                                 "uint32", "uint64", "float32", "float64", "complex64",
                                 "complex128")]


def astype(x, dtype, /, *, copy=True, device=None):
    """cuarray version of `numpy.astype` (Array API `astype`): `device=` copies to that
    device first."""
    if not isinstance(x, ndarray):
        raise TypeError(f"cuarray.astype needs a cuarray.ndarray, got {type(x).__name__}")
    if device is not None:
        moved = to_device(x, device)
        copy = copy and moved is x
        x = moved
    return x.astype(dtype, copy=copy)


def to_device(x, device, /, *, stream=None):
    """`x` on `device` (a copy when it lives on another device)."""
    return x.to_device(device, stream=stream)


def unstack(x, /, *, axis=0):
    """cuarray version of `numpy.unstack`: a tuple of views, one per index along `axis`."""
    if not isinstance(x, ndarray):
        raise TypeError(f"cuarray.unstack needs a cuarray.ndarray, got {type(x).__name__}")
    if x.ndim == 0:
        raise ValueError("Input array must be at least 1-d.")
    from cuarray._core.shapes import normalize_axis
    axis = normalize_axis(axis, x.ndim)
    return tuple(x[(slice(None),) * axis + (i,)] for i in range(x._shape[axis]))


def sort_descending(sort, a, axis, kind, order, stable, indices):
    """`sort`/`argsort` in descending order, stable: sort the reversed array ascending and
    reverse back; positions map back as n - 1 - i (equal elements keep their order)."""
    from cuarray._core import _ops
    from cuarray._routines.rearranging import flip
    from cuarray._core._routines_sorting import _prepare
    a, ax = _prepare(a, axis, "argsort" if indices else "sort")
    r = flip(sort(flip(a, ax), ax, kind, order, stable=stable), ax)
    if not indices:
        return r
    return _ops.subtract(a._shape[ax] - 1, r) if a.ndim else r


def _cumulative(scan, name, x, axis, dtype, include_initial, initial):
    if not isinstance(x, ndarray):
        from cuarray._core.host_policy import device_array
        x = device_array(x, name)
    if axis is None:
        if x.ndim > 1:
            raise ValueError(f"{name}: axis must be specified for arrays of more than one "
                             f"dimension")
        axis = 0
    if x.ndim == 0:
        raise ValueError(f"{name}: the input must have at least one dimension")
    from cuarray._core.shapes import normalize_axis
    axis = normalize_axis(axis, x.ndim)
    r = scan(x, axis=axis, dtype=dtype)
    if not include_initial:
        return r
    from cuarray._routines.creation import full
    from cuarray._routines.joining import concatenate
    shape = x._shape[:axis] + (1,) + x._shape[axis + 1:]
    return concatenate((full(shape, initial, r.dtype), r), axis=axis)


def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False):
    """cuarray version of `numpy.cumulative_sum` (Array API): `include_initial` puts the
    empty sum (0) first."""
    from cuarray._core.scan import cumsum
    return _cumulative(cumsum, "cumulative_sum", x, axis, dtype, include_initial, 0)


def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False):
    """cuarray version of `numpy.cumulative_prod` (Array API): `include_initial` puts the
    empty product (1) first."""
    from cuarray._core.scan import cumprod
    return _cumulative(cumprod, "cumulative_prod", x, axis, dtype, include_initial, 1)


class _Info:
    """Array API inspection namespace for cuarray (`cuarray.__array_namespace_info__()`)."""

    __module__ = "cuarray"

    def capabilities(self):
        """Boolean indexing and data-dependent shapes (`nonzero`, `unique`) are supported;
        `max dimensions` is 64, NumPy's limit."""
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 64}

    def default_device(self):
        """The current device."""
        from cuarray._runtime.device import Device
        return Device()

    def devices(self):
        """Every CUDA device cuarray can use."""
        from cuarray._runtime import driver
        from cuarray._runtime.device import Device
        return [Device(i) for i in range(driver.device_count())]

    def default_dtypes(self, *, device=None):
        """float64, complex128, int64 (`intp`) and int64 for indexing, as NumPy's."""
        return {"real floating": numpy.dtype(numpy.float64),
                "complex floating": numpy.dtype(numpy.complex128),
                "integral": numpy.dtype(numpy.intp), "indexing": numpy.dtype(numpy.intp)}

    def dtypes(self, *, device=None, kind=None):
        """The Array API dtypes cuarray supports, by name, optionally of one kind (a kind
        name or a tuple of kind names)."""
        if kind is None:
            chars = ("b", "i", "u", "f", "c")
        else:
            kinds = kind if isinstance(kind, tuple) else (kind,)
            chars = ()
            for k in kinds:
                if k not in _KINDS:
                    raise ValueError(f"unsupported kind: {k!r}")
                chars += _KINDS[k]
        out = {}
        for dt in _ALL:
            if dt.kind in chars:
                out[dt.name] = dt
        return out


def __array_namespace_info__():
    """The Array API inspection namespace (capabilities, devices, default dtypes, dtypes)."""
    return _Info()
