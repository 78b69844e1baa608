"""Which arguments accept host data: CuPy's rule, applied here for every routine
(docs/HOST_INPUTS.md lists the routines of each kind).

- Device operands (ufuncs and their methods, ElementwiseKernel/ReductionKernel/RawKernel
  arguments, reductions, scans, sorting, indexing kernels): cuarray arrays, objects that
  expose a CUDA array (`__cuda_array_interface__`, CUDA DLPack, `__cupy_get_ndarray__`,
  wrapped without a copy) and Python/NumPy scalars. `numpy.ndarray`, lists and tuples raise
  TypeError naming `cuarray.asarray`: nothing is uploaded behind the caller's back.
- array_like arguments (routines CuPy documents as taking array_like, which call
  `cupy.asarray`: `vander`, `delete`'s indices, `isreal`/`iscomplex`, `average`'s weights,
  `linalg.cond` ...): anything NumPy can make an array of is uploaded.
- Size-1 host arrays used as scalars: `copyto`'s source, and 0-d NumPy arrays compared with
  `<`, `==` ... (and NumPy's comparison ufuncs dispatched to cuarray) are their Python value.
"""
import numpy

from cuarray._core.ndarray import ndarray

SCALARS = (bool, int, float, complex, numpy.generic)
HOST_ARRAYS = (numpy.ndarray, list, tuple)
_PY = (bool, int, float, complex)


def host_error(name, x, prefix="cuarray.", arg="x"):
    """The TypeError for host data given where a device operand is needed: the one sentence
    every routine uses (`arg` names the argument when the routine has several)."""
    kind = "numpy.ndarray" if isinstance(x, numpy.ndarray) else type(x).__name__
    of = "" if arg == "x" else f" for {arg}"
    return TypeError(f"{prefix}{name} does not accept {kind}{of}; move it to the GPU with "
                     f"cuarray.asarray({arg})")


def not_device_error(name, x, prefix="cuarray.", arg="x"):
    """The TypeError for a value that is not a device array where one is needed: host data
    (arrays, sequences, scalars) gets `host_error`'s sentence, anything else is named as
    what it is."""
    if isinstance(x, HOST_ARRAYS + SCALARS):
        return host_error(name, x, prefix, arg)
    of = "" if arg == "x" else f" for {arg}"
    return TypeError(f"{prefix}{name} needs a cuarray.ndarray{of}, got {type(x).__name__}")


def from_protocols(x):
    """A cuarray view of an object exposing a CUDA array, else None (never copies)."""
    if isinstance(x, HOST_ARRAYS):
        return None
    get = getattr(x, "__cupy_get_ndarray__", None)
    if get is not None:
        return get()
    from cuarray._core import transfer
    return transfer._from_protocols(x)


def operand(x, name, prefix="cuarray."):
    """A device operand: arrays and scalars as they are, CUDA-protocol objects as cuarray
    views; host arrays and other objects raise TypeError."""
    if isinstance(x, (ndarray, numpy.generic)) or type(x) in _PY:
        return x
    for t in _PY:  # subclasses (IntEnum, ...) count as their Python type
        if isinstance(x, t):
            return t(x)
    d = from_protocols(x)
    if d is not None:
        return d
    raise host_error(name, x, prefix)


def device_array(x, name, prefix="cuarray."):
    """A device array argument: a cuarray array or a CUDA-protocol object (as a view);
    scalars and host data raise TypeError."""
    if isinstance(x, ndarray):
        return x
    d = from_protocols(x)
    if d is not None:
        return d
    raise not_device_error(name, x, prefix)


def array_like(x, name=None, dtype=None):
    """An array_like argument as a device array: device arrays as they are, CUDA-protocol
    objects as views, host data (scalars, sequences, NumPy arrays) uploaded."""
    from cuarray._core import transfer
    if isinstance(x, ndarray):
        return x if dtype is None else x.astype(dtype, copy=False)
    return transfer.asarray(x, dtype=dtype)


def comparison_operand(x):
    """A 0-d NumPy array compared with a cuarray array is its Python value, as in CuPy."""
    if type(x) is numpy.ndarray and x.ndim == 0:
        return x.item()
    return x
