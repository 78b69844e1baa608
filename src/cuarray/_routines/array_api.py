"""The Array API standard's functions that NumPy's chapters do not have (`astype`,
`unstack`) and the inspection namespace `__array_namespace_info__` (Array API 2024.12).

Devices are `cuarray.cuda.Device` objects; `device=` arguments take one (or None, the
current device), as `x.device` returns one.
"""
import operator

import numpy

from cuarray._core.ndarray import ndarray

__all__ = ["astype", "unstack", "__array_namespace_info__"]

_KINDS = {
    "bool": ("b",), "signed integer": ("i",), "unsigned integer": ("u",),
    "integral": ("i", "u"), "real floating": ("f",), "complex floating": ("c",),
    "numeric": ("i", "u", "f", "c"),
}
# The standard's dtypes, in its order (no float16).
_ALL = [numpy.dtype(n) for n in ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
                                 "uint32", "uint64", "float32", "float64", "complex64",
                                 "complex128")]


def _on_device(device):
    """A context that makes `device` (a Device, an int or None) current for a creation."""
    import contextlib
    if device is None:
        return contextlib.nullcontext()
    from cuarray._runtime.device import Device
    if isinstance(device, Device):
        return device
    if isinstance(device, str) and device in ("cuda", "gpu"):
        return contextlib.nullcontext()
    try:
        return Device(operator.index(device))
    except TypeError:
        raise ValueError(f"unsupported device {device!r}: expected a cuarray.cuda.Device, "
                         f"a device number or None") from None


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
    from cuarray._core import transfer
    from cuarray._runtime.device import Device
    dev = device if isinstance(device, Device) else None
    if dev is None:
        if isinstance(device, str) and device in ("cuda", "gpu"):
            return x
        if isinstance(device, str) and device == "cpu":
            raise ValueError("cuarray arrays live on CUDA devices; use x.get() or "
                             "numpy.asarray(x.get()) for host memory")
        dev = Device(operator.index(device))
    if dev.id == x._device_id:
        return x
    return transfer.to_device(x, dev.id)


def unstack(x, /, *, axis=0):
    """cuarray version of `numpy.unstack`: a tuple of views, one per index along `axis`."""
    if not isinstance(x, ndarray):
        raise TypeError(f"cuarray.unstack needs a cuarray.ndarray, got {type(x).__name__}")
    if x.ndim == 0:
        raise ValueError("Input array must be at least 1-d.")
    from cuarray._core.shapes import normalize_axis
    axis = normalize_axis(axis, x.ndim)
    return tuple(x[(slice(None),) * axis + (i,)] for i in range(x._shape[axis]))


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
