"""Argument handling shared by every ndimage function: modes, per-axis sequences, origins,
axes, output arrays, and the device tables (tap offsets, weights) kernels read.

SciPy's error types and messages are the spec: an unknown mode is a RuntimeError,
a sequence of the wrong length a RuntimeError, a bad origin a ValueError.
"""
import numbers

import numpy

import cuarray
from cuarray._core._copy import byte_extent
from cuarray._core.host_policy import host_error
from cuarray._core.ndarray import ndarray

# SciPy's filter modes and the boundary rule each one means for integer positions: the
# grid-* names are synonyms for filters (they differ from their plain names only when
# interpolating).
FILTER_MODES = {
    "reflect": "reflect", "grid-mirror": "reflect", "mirror": "mirror",
    "nearest": "nearest", "wrap": "wrap", "grid-wrap": "wrap",
    "constant": "constant", "grid-constant": "constant",
}
INTERP_MODES = ("reflect", "grid-mirror", "mirror", "nearest", "wrap", "grid-wrap",
                "constant", "grid-constant")


def check_mode(mode, interpolation=False):
    """The boundary rule of `mode` (filters) or `mode` itself (interpolation)."""
    if not isinstance(mode, str) or mode not in FILTER_MODES:
        raise RuntimeError(f"boundary mode not supported: {mode!r}")
    return mode if interpolation else FILTER_MODES[mode]


def check_input(input, complex_ok=True):
    """`input` as a cuarray array; host arrays are refused as cuarray's routines do."""
    if not isinstance(input, ndarray):
        if isinstance(input, numpy.ndarray):
            raise host_error("ndimage", input, "cuarray.scipy.")
        input = cuarray.asarray(input)
    if input.dtype.kind == "c" and not complex_ok:
        raise TypeError("Complex type not supported")
    if input.dtype.kind not in "biufc":
        raise TypeError(f"array type {input.dtype} not supported")
    return input


def host_array(a, dtype=None):
    """A small parameter array (weights, footprint, structure) on the host: reading it is
    the "size a result needs" (which taps exist), so one transfer is allowed."""
    if isinstance(a, ndarray):
        a = a.get()
    return numpy.asarray(a, dtype=dtype)


def normalize_sequence(value, rank, what="sequence"):
    """A per-axis parameter expanded to `rank` entries (SciPy's `_normalize_sequence`)."""
    if isinstance(value, str):
        return [value] * rank
    if hasattr(value, "__len__") or isinstance(value, (list, tuple)):
        value = list(value)
        if len(value) != rank:
            raise RuntimeError(f"{what} argument must have length equal to input rank")
        return value
    return [value] * rank


def check_axes(axes, ndim):
    """SciPy's `_check_axes`: a tuple of distinct non-negative axes."""
    if axes is None:
        return tuple(range(ndim))
    if numpy.isscalar(axes):
        axes = (axes,)
    out = []
    for ax in axes:
        if not isinstance(ax, (numbers.Integral, numpy.integer)):
            raise ValueError("axes must be an integer, iterable of integers, or None")
        ax = int(ax)
        if ax < -ndim or ax >= ndim:
            raise ValueError("axis out of range")
        out.append(ax % ndim)
    if len(set(out)) != len(out):
        raise ValueError("axes must be unique")
    return tuple(out)


def check_axis(axis, ndim):
    if axis < -ndim or axis >= max(ndim, 1):
        raise numpy.exceptions.AxisError(axis, ndim)
    return axis % max(ndim, 1)


def check_origin(origin, size):
    """SciPy's origin test: the filter centre `size // 2 + origin` must lie in the filter."""
    origin = int(origin)
    if size < 1:
        raise RuntimeError("incorrect filter size")
    if not (-(size // 2) <= origin <= (size - 1) // 2):
        raise ValueError(f"Invalid origin; origin must satisfy -(weights.shape[k] // 2) <= "
                         f"origin[k] <= (weights.shape[k]-1) // 2 (got {origin} for size {size})")
    return origin


def get_output(output, input, shape=None, complex_output=False):
    """(array to write, array to return): a new array of `output`'s dtype, or `output`
    itself. SciPy's errors for a wrong shape or a real output of a complex result."""
    shape = input.shape if shape is None else tuple(shape)
    if output is None:
        dt = input.dtype
        if complex_output and dt.kind != "c":
            dt = numpy.promote_types(dt, numpy.complex64)
        return cuarray.empty(shape, dtype=dt)
    if isinstance(output, ndarray):
        if output.shape != shape:
            raise RuntimeError("output shape not correct")
        if complex_output and output.dtype.kind != "c":
            raise RuntimeError("output must have complex dtype")
        return output
    if isinstance(output, numpy.ndarray):
        raise TypeError("output must be a cuarray array or a dtype, not numpy.ndarray")
    dt = numpy.dtype(output)
    if complex_output and dt.kind != "c":
        raise RuntimeError("output must have complex dtype")
    return cuarray.empty(shape, dtype=dt)


def may_share(a, b):
    """True when the byte ranges of two arrays overlap (conservative)."""
    if a.size == 0 or b.size == 0:
        return False
    (alo, ahi), (blo, bhi) = byte_extent(a), byte_extent(b)
    return alo < bhi and blo < ahi


def contiguous(a):
    return a if a.flags.c_contiguous else cuarray.ascontiguousarray(a)


def work_output(output, inputs):
    """A C-contiguous array to write into (`output` itself when it is C-contiguous and
    shares no memory with an input), and a function that moves it into `output`."""
    if output.flags.c_contiguous and not any(may_share(output, x) for x in inputs):
        return output, lambda: output
    tmp = cuarray.empty(output.shape, dtype=output.dtype)

    def finish():
        output[...] = tmp
        return output
    return tmp, finish


_tables = {}


def device_table(host):
    """A small constant array on the device, uploaded once per content (tap tables and
    host weights are reused call after call with the same filter)."""
    from cuarray._runtime.device import get_device_id
    host = numpy.ascontiguousarray(host)
    key = (get_device_id(), host.dtype.str, host.shape, host.tobytes())
    t = _tables.get(key)
    if t is None:
        if len(_tables) >= 128:
            _tables.clear()
        t = _tables[key] = cuarray.asarray(host)
    return t


def clear_tables():
    _tables.clear()
