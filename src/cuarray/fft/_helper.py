"""FFT helper routines: sample frequencies and spectrum shifts (cuarray version of
`numpy.fft`'s helpers)."""
import itertools
import operator

import numpy
from numpy.lib.array_utils import normalize_axis_index

from cuarray._core.host_policy import not_device_error
from cuarray._core.ndarray import ndarray
from cuarray._runtime.device import Device

_freq_ops = {}


def _freq_op(cd, wrap):
    """y = k * f, k the frequency index of element i (negative past N when `wrap`)."""
    from cuarray._core import dtypes as _dt
    from cuarray._core.elementwise import Op, Param
    op = _freq_ops.get((cd.char, wrap))
    if op is None:
        k = "(i < N ? i : i - n)" if wrap else "i"
        op = _freq_ops[(cd.char, wrap)] = Op(
            f"cuarray_fftfreq_{cd.char}{'_w' if wrap else ''}",
            [Param("n", "scalar", numpy.dtype(numpy.int64)),
             Param("N", "scalar", numpy.dtype(numpy.int64)),
             Param("f", "scalar", cd), Param("y", "out", cd)],
            f"y = {_dt.ctype(cd)}((double){k}) * f;")
    return op


def _freq(name, n, d, device, dtype, wrap):
    if not isinstance(n, (int, numpy.integer)) or isinstance(n, (bool, numpy.bool_)):
        raise ValueError("n should be an integer")
    n = int(n)
    val = 1.0 / (n * d)  # NumPy's expression: n == 0 raises ZeroDivisionError
    cd = numpy.dtype(numpy.complex128 if isinstance(val, (complex, numpy.complexfloating))
                     else numpy.float64)
    if dtype is None:
        dtype = cd
    else:
        dtype = numpy.dtype(dtype)
        if dtype.kind not in "fc":
            raise TypeError(f"cuarray.fft.{name}: dtype must be a floating or complex dtype, "
                            f"got {dtype}")
        if dtype.kind == "c":
            cd = numpy.dtype(numpy.complex128)
    if device is not None and not isinstance(device, (int, numpy.integer, Device)):
        raise ValueError(f"cuarray.fft.{name}: device must be None, a device id or a "
                         f"cuarray.cuda.Device, got {device!r}")
    if wrap and n < 0:
        raise ValueError("negative dimensions are not allowed")
    with Device(device if device is None or isinstance(device, Device) else int(device)):
        size = (n - 1) // 2 + 1 if wrap else max(n // 2 + 1, 0)
        out = ndarray._alloc((n if wrap else size,), dtype)
        # computed in double and rounded once, so values equal NumPy's float64 ones cast
        _freq_op(cd, wrap).launch((numpy.int64(n), numpy.int64(size), cd.type(val), out))
    return out


def fftfreq(n, d=1.0, device=None, *, dtype=None):
    """Sample frequencies of `fft` (cuarray version of `numpy.fft.fftfreq`).

    `device` (None, an id or a `cuarray.cuda.Device`) and `dtype` are the Array API's.
    """
    return _freq("fftfreq", n, d, device, dtype, True)


def rfftfreq(n, d=1.0, device=None, *, dtype=None):
    """Sample frequencies of `rfft` (cuarray version of `numpy.fft.rfftfreq`)."""
    return _freq("rfftfreq", n, d, device, dtype, False)


def _roll(x, shifts, name):
    """x rolled by shifts[axis] along each axis: one block copy per combination of halves."""
    if not isinstance(x, ndarray):
        raise not_device_error(name, x, "cuarray.fft.")
    out = ndarray._alloc(x._shape, x.dtype, "C")
    if x.size == 0:
        return out
    cuts = []  # per axis: the (destination, source) slice pairs
    for ax, s in shifts.items():
        n = x._shape[ax]
        s %= n
        if s:
            cuts.append((ax, ((slice(s, None), slice(0, n - s)),
                              (slice(0, s), slice(n - s, None)))))
    if not cuts:
        out[...] = x
        return out
    for pieces in itertools.product(*[c[1] for c in cuts]):
        dst = [slice(None)] * x.ndim
        src = [slice(None)] * x.ndim
        for (ax, _), (d, s) in zip(cuts, pieces):
            dst[ax], src[ax] = d, s
        out[tuple(dst)] = x[tuple(src)]
    return out


def _shifts(x, axes, sign):
    shape = x.shape if isinstance(x, ndarray) else numpy.shape(x)
    if axes is None:
        axes = range(len(shape))
    elif isinstance(axes, (int, numpy.integer)):
        axes = (axes,)
    shifts = {}
    for ax in axes:
        ax = normalize_axis_index(operator.index(ax), len(shape))
        shifts[ax] = shifts.get(ax, 0) + sign * (shape[ax] // 2)
    return shifts


def fftshift(x, axes=None):
    """Move the zero-frequency term to the centre (cuarray version of `numpy.fft.fftshift`)."""
    return _roll(x, _shifts(x, axes, 1), "fftshift")


def ifftshift(x, axes=None):
    """The inverse of `fftshift` (cuarray version of `numpy.fft.ifftshift`)."""
    return _roll(x, _shifts(x, axes, -1), "ifftshift")
