"""Bit packing (NumPy reference: "Bit-wise operations", "Bit packing"): one kernel each.
The element-wise bit operations (`bitwise_and`, `left_shift`, ...) are ufuncs."""
import operator

import numpy

from cuarray._core._kernel_helpers import Cache
from cuarray._core.elementwise import Op, Param
from cuarray._core.ndarray import ndarray
from cuarray._routines._args import _device, _flat_or_axis

_i64 = numpy.dtype(numpy.int64)
_u8 = numpy.dtype(numpy.uint8)
_bool = numpy.dtype(numpy.bool_)

__all__ = ["packbits", "unpackbits"]

_op = Cache()   # key -> Op, built on first use


# ---- bit packing -------------------------------------------------------------------------------
def _bitorder(bitorder):
    if bitorder not in ("big", "little"):
        raise ValueError("'order' must be either 'little' or 'big'")
    return bitorder == "little"


def _axis_split(shape, axis):
    pre = post = 1
    for s in shape[:axis]:
        pre *= s
    for s in shape[axis + 1:]:
        post *= s
    return pre, post


def _bytes(a, axis, m, little, name, body):
    """The uint8 array of `a`'s shape with `m` elements along `axis`, written by kernel
    `body` (it reads x, the n elements along the axis, m, post and little)."""
    out = ndarray._alloc(a._shape[:axis] + (m,) + a._shape[axis + 1:], _u8)
    if out.size:
        n = a._shape[axis]
        _, post = _axis_split(a._shape, axis)
        op = _op((name, a.dtype.char), lambda: Op(
            f"cuarray_{name}_{a.dtype.char}",
            [Param("x", "raw", a.dtype), Param("n", "scalar", _i64), Param("m", "scalar", _i64),
             Param("post", "scalar", _i64), Param("little", "scalar", _bool), Param("y", "out", _u8)],
            body))
        op.launch((a, _i64.type(n), _i64.type(m), _i64.type(post), numpy.bool_(little), out))
    return out


def packbits(a, axis=None, bitorder="big"):
    """cuarray version of `numpy.packbits`: one kernel, eight inputs per output byte."""
    a = _device(a, "packbits")
    if a.dtype.kind not in "biu":
        raise TypeError("Expected an input array of integer or boolean data type")
    little = _bitorder(bitorder)
    a, axis = _flat_or_axis(a, axis)
    m = (a._shape[axis] + 7) // 8
    return _bytes(a, axis, m, little, "packbits",
                  "const long long q = i % post, t = i / post, j = t % m, base = (t / m) * n;"
                  " unsigned int v = 0;"
                  " for (int b = 0; b < 8; ++b) { const long long k = 8 * j + b;"
                  "   if (k < n && cuarray_nonzero(x[(base + k) * post + q])) v |= little ? (1u << b) : (128u >> b); }"
                  " y = (unsigned char)v;")


def unpackbits(a, axis=None, count=None, bitorder="big"):
    """cuarray version of `numpy.unpackbits`: one kernel, one output bit per thread."""
    a = _device(a, "unpackbits")
    if a.dtype != _u8:
        raise TypeError("Expected an input array of unsigned byte data type")
    little = _bitorder(bitorder)
    a, axis = _flat_or_axis(a, axis)
    n = a._shape[axis]
    total = 8 * n
    if count is None:
        m = total
    else:
        count = operator.index(count)
        if count < 0:
            if -count > total:
                raise ValueError("-count larger than number of elements")
            m = total + count
        else:
            m = count
    return _bytes(a, axis, m, little, "unpackbits",
                  "const long long q = i % post, t = i / post, k = t % m, base = (t / m) * n;"
                  " unsigned int v = 0;"
                  " if (k < 8 * n) { const unsigned int byte = x[(base + k / 8) * post + q];"
                  "   v = little ? (byte >> (k % 8)) & 1u : (byte >> (7 - k % 8)) & 1u; }"
                  " y = (unsigned char)v;")
