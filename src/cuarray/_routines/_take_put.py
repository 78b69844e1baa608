"""Gather and scatter along one axis through a device index vector: the index-driven
kernels behind repeat, delete, insert (and math's interp).

One C-order pass each; shared by the chapter files that move elements by index.
"""
import numpy

from cuarray._core import dtypes as _dt
from cuarray._core.elementwise import Op, Param
from cuarray._core.ndarray import ndarray

_i64 = numpy.dtype(numpy.int64)

_take_ops = {}
_put_ops = {}


def _take_op(dt):
    op = _take_ops.get(dt.char)
    if op is None:
        # y is C-contiguous (allocated here), so i is its C-order index: (p, j, q).
        op = _take_ops[dt.char] = Op(
            f"cuarray_take_axis_{dt.char}",
            [Param("x", "raw", dt), Param("idx", "raw", _i64), Param("n", "scalar", _i64),
             Param("m", "scalar", _i64), Param("post", "scalar", _i64), Param("y", "out", dt)],
            "const long long q = i % post, t = i / post; "
            "y = x[((t / m) * n + idx[t % m]) * post + q];")
    return op


def _take_axis(a, idx, axis):
    """a[..., idx, ...] (idx: int64 device vector of in-range indices) as a new C array."""
    shape = a._shape
    m = idx.size
    out = ndarray._alloc(shape[:axis] + (m,) + shape[axis + 1:], a.dtype)
    if out.size:
        post = 1
        for s in shape[axis + 1:]:
            post *= s
        _take_op(a.dtype).launch((a, idx, _i64.type(shape[axis]), _i64.type(m), _i64.type(post), out))
    return out


def _put_op(dt, st):
    key = (dt.char, st.char)
    op = _put_ops.get(key)
    if op is None:
        op = _put_ops[key] = Op(
            f"cuarray_put_axis_{dt.char}{st.char}",
            [Param("v", "raw", st), Param("idx", "raw", _i64), Param("n", "scalar", _i64),
             Param("m", "scalar", _i64), Param("post", "scalar", _i64), Param("d", "raw", dt)],
            "const long long q = i % post, t = i / post; "
            f"d[((t / m) * n + idx[t % m]) * post + q] = cuarray_cast<{_dt.ctype(dt)}>(v[i]);")
    return op


def _put_axis(dst, idx, src, axis):
    """dst[..., idx, ...] = src, src shaped like dst with len(idx) along `axis` (any layout)."""
    if src.size == 0:
        return
    shape = src._shape
    post = 1
    for s in shape[axis + 1:]:
        post *= s
    _put_op(dst.dtype, src.dtype).launch(
        (src, idx, _i64.type(dst._shape[axis]), _i64.type(shape[axis]), _i64.type(post), dst),
        size=src.size)


def _flatnonzero(mask):
    """int64 positions of the True entries of a 1-D bool device array (synchronises once:
    the count sizes the result)."""
    from cuarray._core import _indexing
    return _indexing.nonzero(mask)[0]
