"""Gather and scatter along one axis through a device index vector: the index-driven
kernels behind repeat, delete, insert (and math's interp).

One C-order pass each; shared by the chapter files that move elements by index.
"""
import numpy

from cuarray._core import _copy, _reductions, scan, transfer
from cuarray._core import dtypes as _dt
from cuarray._core._kernel_helpers import Cache
from cuarray._core.elementwise import Op, Param
from cuarray._core.ndarray import ndarray
from cuarray._core.shapes import flat_or_axis

_i64 = numpy.dtype(numpy.int64)

_ops = Cache()   # key -> Op


def _take_op(dt):
    # y is C-contiguous (allocated here), so i is its C-order index: (p, j, q).
    return _ops(("take", dt.char), lambda: Op(
        f"cuarray_take_axis_{dt.char}",
        [Param("x", "raw", dt), Param("idx", "raw", _i64), Param("n", "scalar", _i64),
         Param("m", "scalar", _i64), Param("post", "scalar", _i64), Param("y", "out", dt)],
        "const long long q = i % post, t = i / post; "
        "y = x[((t / m) * n + idx[t % m]) * post + q];"))


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
    return _ops(("put", dt.char, st.char), lambda: Op(
        f"cuarray_put_axis_{dt.char}{st.char}",
        [Param("v", "raw", st), Param("idx", "raw", _i64), Param("n", "scalar", _i64),
         Param("m", "scalar", _i64), Param("post", "scalar", _i64), Param("d", "raw", dt)],
        "const long long q = i % post, t = i / post; "
        f"d[((t / m) * n + idx[t % m]) * post + q] = cuarray_cast<{_dt.ctype(dt)}>(v[i]);"))


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


# ---- repeat (an ndarray method) -------------------------------------------------------------
def _repeat_sources(reps, total):
    """For each output position j, the k with csum[k-1] <= j < csum[k] (binary search)."""
    op = _ops("repeat", lambda: Op(
        "cuarray_repeat_sources",
        [Param("c", "raw", _i64), Param("n", "scalar", _i64), Param("y", "out", _i64)],
        "long long lo = 0, hi = n; "
        "while (lo < hi) { const long long mid = (lo + hi) >> 1; "
        "if (c[mid] <= i) lo = mid + 1; else hi = mid; } y = lo;"))
    csum = scan.cumsum(reps.astype(_i64, copy=False))
    out = ndarray._alloc((total,), _i64)
    if total:
        op.launch((csum, _i64.type(reps.size), out))
    return out


def repeat(a, repeats, axis=None):
    """`numpy.repeat` for a cuarray array `a` (`ndarray.repeat`; the public function checks
    `a` first)."""
    a, axis = flat_or_axis(a, axis)
    n = a._shape[axis]
    if isinstance(repeats, ndarray):
        reps = repeats.reshape(-1)
        if reps.size == 1:
            return repeat(a, int(reps.get()[0]), axis)
        if reps.size != n:
            raise ValueError(f"operands could not be broadcast together with shape ({n},) ({reps.size},)")
        if n == 0:  # nothing to repeat, and min() of no repeats has no value
            return ndarray._alloc(a._shape, a.dtype)
        pair = ndarray._alloc((2,), _i64)  # both read back in one transfer
        _copy.copy_into(pair[0], _reductions.sum(reps, dtype=_i64))
        _copy.copy_into(pair[1], _reductions.amin(reps))
        total, low = (int(v) for v in pair.get())
        if low < 0:
            raise ValueError("repeats may not contain negative values.")
        return _take_axis(a, _repeat_sources(reps, total), axis)
    reps = numpy.asarray(repeats)
    if reps.ndim > 1:
        raise ValueError("object too deep for desired array")
    reps = reps.astype(numpy.intp).reshape(-1)
    if reps.size == 1:
        r = int(reps[0])
        if r < 0:
            raise ValueError("repeats may not contain negative values.")
        shape, strides = a._shape, a._strides
        vshape = shape[:axis + 1] + (r,) + shape[axis + 1:]
        out = ndarray._alloc(shape[:axis] + (n * r,) + shape[axis + 1:], a.dtype)
        if out.size:
            src = a._view(vshape, strides[:axis + 1] + (0,) + strides[axis + 1:])
            _copy.copy_into(out.reshape(vshape), src)
        return out
    if reps.size != n:
        raise ValueError(f"operands could not be broadcast together with shape ({n},) ({reps.size},)")
    if (reps < 0).any():
        raise ValueError("repeats may not contain negative values.")
    sources = numpy.repeat(numpy.arange(n, dtype=numpy.int64), reps)
    return _take_axis(a, transfer.asarray(sources), axis)
