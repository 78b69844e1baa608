"""NumPy arrays in page-locked host memory from the pinned pool (cuarray version of
`cupyx.empty_pinned` and friends).

Copies between these arrays and the GPU run at full PCIe/NVLink speed and can be
asynchronous (`ndarray.set(a, stream=s)`, `ndarray.get(stream=s, out=a)`).
"""
import numpy

from cuarray._runtime.pinned import alloc_pinned_memory

__all__ = ["empty_pinned", "empty_like_pinned", "zeros_pinned", "zeros_like_pinned"]


def _shape(shape):
    if isinstance(shape, (int, numpy.integer)):
        shape = (int(shape),)
    shape = tuple(int(s) for s in shape)
    if any(s < 0 for s in shape):
        raise ValueError("negative dimensions are not allowed")
    return shape


def empty_pinned(shape, dtype=float, order="C"):
    """cuarray version of `cupyx.empty_pinned`: an uninitialised `numpy.ndarray` in pinned memory."""
    shape = _shape(shape)
    dtype = numpy.dtype(dtype)
    if order not in ("C", "F"):
        raise ValueError(f"order must be 'C' or 'F', not {order!r}")
    nbytes = dtype.itemsize
    for s in shape:
        nbytes *= s
    if nbytes == 0:
        return numpy.empty(shape, dtype, order)
    mem = alloc_pinned_memory(nbytes)
    # The buffer's owner (the pinned block) stays alive as long as the array's base does.
    buf = mem.as_numpy(nbytes)
    return numpy.ndarray(shape, dtype=dtype, buffer=buf, order=order)


def zeros_pinned(shape, dtype=float, order="C"):
    """cuarray version of `cupyx.zeros_pinned`."""
    out = empty_pinned(shape, dtype, order)
    numpy.copyto(out, 0, casting="unsafe")
    return out


def _like(a, dtype, order, shape):
    if not isinstance(a, numpy.ndarray):
        a = numpy.asarray(a)
    dtype = a.dtype if dtype is None else numpy.dtype(dtype)
    shape = a.shape if shape is None else _shape(shape)
    if order not in ("C", "F", "A", "K"):
        raise ValueError(f"order must be one of 'C', 'F', 'A', 'K', not {order!r}")
    if order in ("A", "K"):
        # 'K' keeps F order for F-contiguous inputs (as NumPy's empty_like does for 2-D
        # layouts); other layouts become C order.
        order = "F" if a.flags.f_contiguous and not a.flags.c_contiguous else "C"
    return shape, dtype, order


def empty_like_pinned(a, dtype=None, order="K", subok=None, shape=None):
    """cuarray version of `cupyx.empty_like_pinned`; `subok` is accepted and ignored (a
    plain `numpy.ndarray` is returned)."""
    shape, dtype, order = _like(a, dtype, order, shape)
    return empty_pinned(shape, dtype, order)


def zeros_like_pinned(a, dtype=None, order="K", subok=None, shape=None):
    """cuarray version of `cupyx.zeros_like_pinned`."""
    shape, dtype, order = _like(a, dtype, order, shape)
    return zeros_pinned(shape, dtype, order)
