"""Zero-filled arrays: `numpy.zeros` without the argument checks. Apart from the copy
engine (_copy.py), which loads with the first copy, cast or fill, so that `zeros()`
does not need it (start-up time is measured)."""
from cuarray._core.ndarray import ndarray
from cuarray._runtime.memory import memset_zero


def zeros(shape, dtype, order="C"):
    """A new zero-filled array; `shape` a tuple of ints, `dtype` a numpy.dtype (both valid):
    `numpy.zeros` without the argument checks, one memset."""
    a = ndarray._alloc(shape, dtype, order)
    if a.size:
        memset_zero(a._ptr, a.size * dtype.itemsize)
    return a
