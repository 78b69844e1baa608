"""Byte swapping on the device: `ndarray.byteswap`, and reading data in the non-native
byte order (a big-endian `__cuda_array_interface__`) into cuarray's native order.

One kernel per item width: each item's bytes reversed (complex items: each half).
"""
import numpy

from cuarray._core.elementwise import Op, Param
from cuarray._core.ndarray import ndarray

_ops = {}
_UINT = {1: numpy.dtype(numpy.uint8), 2: numpy.dtype(numpy.uint16),
         4: numpy.dtype(numpy.uint32), 8: numpy.dtype(numpy.uint64)}


def _swap_op(width):
    op = _ops.get(width)
    if op is None:
        u = _UINT[width]
        op = _ops[width] = Op(
            f"cuarray_byteswap_{width}", [Param("x", "in", u), Param("y", "out", u)],
            "U v = x, r = 0; for (int k = 0; k < (int)sizeof(U); ++k) { r = (U)((r << 8) | (v & 0xff)); "
            "v >>= 8; } y = r;",
            preamble=f"typedef {_ctype(u)} U;")
    return op


def _ctype(u):
    return {1: "unsigned char", 2: "unsigned short", 4: "unsigned int",
            8: "unsigned long long"}[u.itemsize]


def _words(a):
    """`a` (C-contiguous) as unsigned words of the width whose bytes are swapped."""
    width = a.dtype.itemsize // 2 if a.dtype.kind == "c" else a.dtype.itemsize
    flat = a.reshape(-1)
    return flat.view(_UINT[width]) if flat.size else flat._view((0,), (width,), 0, _UINT[width])


def swapped(a, dtype=None):
    """A new C-contiguous array holding `a`'s items with their bytes reversed, typed `dtype`
    (default `a.dtype`)."""
    src = a if a._c_contig else a.copy("C")
    out = ndarray._alloc(a._shape, a.dtype if dtype is None else dtype)
    if a.size and a.dtype.itemsize > 1:
        _swap_op(_words(src).dtype.itemsize).launch((_words(src), _words(out)))
    elif a.size:
        from cuarray._core._copy import copy_into
        copy_into(out, src.view(out.dtype) if out.dtype != src.dtype else src)
    return out


def byteswap(a, inplace=False):
    """cuarray version of `numpy.ndarray.byteswap`: the items' bytes reversed, the dtype
    unchanged; `inplace` writes them back into `a`."""
    r = swapped(a)
    if not inplace:
        return r
    from cuarray._core._copy import copy_into
    copy_into(a, r)
    return a
