"""Tiling and rearranging elements (NumPy reference: "Array manipulation routines",
sections "Tiling arrays" and "Rearranging elements"): tile, repeat, flip, fliplr, flipud,
roll and rot90.

Flips and quarter turns are views; tiles and scalar repeats are one copy from a zero-stride
view; per-element repeats are one gather kernel; a roll is at most two copies per axis.
"""
import itertools
import operator

import numpy

from cuarray._core import _copy
from cuarray._core.elementwise import Op, Param
from cuarray._core.ndarray import ndarray
from cuarray._routines._args import _axis_tuple, _device, _flat_or_axis, _order_of, _upload
from cuarray._routines._take_put import _take_axis
from cuarray._routines.joining import stack

_i64 = numpy.dtype(numpy.int64)

__all__ = ["tile", "repeat", "flip", "fliplr", "flipud", "roll", "rot90"]


# ---- tiling and repeating -------------------------------------------------------------------
def tile(A, reps):
    """cuarray version of `numpy.tile`: one copy from a zero-stride view of `A`."""
    A = _device(A, "tile")
    try:
        tup = tuple(reps)
    except TypeError:
        tup = (reps,)
    tup = tuple(operator.index(r) for r in tup)
    nd = max(len(tup), A.ndim)
    shape = (1,) * (nd - A.ndim) + A._shape
    strides = (0,) * (nd - A.ndim) + A._strides
    tup = (1,) * (nd - len(tup)) + tup
    if any(r < 0 for r in tup):
        raise ValueError("negative dimensions are not allowed")
    out = ndarray._alloc(tuple(r * s for r, s in zip(tup, shape)), A.dtype)
    if out.size:
        vshape = tuple(x for r, s in zip(tup, shape) for x in (r, s))
        vstrides = tuple(x for st in strides for x in (0, st))
        _copy.copy_into(out.reshape(vshape), A._view(vshape, vstrides))
    return out


_search_ops = {}


def _repeat_sources(reps, total):
    """For each output position j, the k with csum[k-1] <= j < csum[k] (binary search)."""
    op = _search_ops.get("repeat")
    if op is None:
        op = _search_ops["repeat"] = Op(
            "cuarray_repeat_sources",
            [Param("c", "raw", _i64), Param("n", "scalar", _i64), Param("y", "out", _i64)],
            "long long lo = 0, hi = n; "
            "while (lo < hi) { const long long mid = (lo + hi) >> 1; "
            "if (c[mid] <= i) lo = mid + 1; else hi = mid; } y = lo;")
    from cuarray._core import scan
    csum = scan.cumsum(reps.astype(_i64, copy=False))
    out = ndarray._alloc((total,), _i64)
    if total:
        op.launch((csum, _i64.type(reps.size), out))
    return out


def repeat(a, repeats, axis=None):
    """cuarray version of `numpy.repeat`. Scalar repeats: one copy from a zero-stride view;
    per-element repeats: one gather. Device `repeats` are read once for the total
    (synchronises)."""
    a = _device(a, "repeat")
    a, axis = _flat_or_axis(a, axis)
    n = a._shape[axis]
    if isinstance(repeats, ndarray):
        reps = repeats.reshape(-1)
        if reps.size == 1:
            return repeat(a, int(reps.get()[0]), axis)
        if reps.size != n:
            raise ValueError(f"operands could not be broadcast together with shape ({n},) ({reps.size},)")
        from cuarray._core import _reductions
        total, low = (int(v) for v in stack([_reductions.sum(reps, dtype=_i64),
                                              _reductions.amin(reps).astype(_i64)]).get())
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
    return _take_axis(a, _upload(numpy.repeat(numpy.arange(n, dtype=numpy.int64), reps)), axis)


# ---- rearranging ---------------------------------------------------------------------------------
def flip(m, axis=None):
    """cuarray version of `numpy.flip` (a view with negative strides)."""
    m = _device(m, "flip")
    if axis is None:
        return m[(slice(None, None, -1),) * m.ndim]
    axes = _axis_tuple(axis, m.ndim)
    return m[tuple(slice(None, None, -1) if d in axes else slice(None) for d in range(m.ndim))]


def fliplr(m):
    """cuarray version of `numpy.fliplr` (a view)."""
    m = _device(m, "fliplr")
    if m.ndim < 2:
        raise ValueError("Input must be >= 2-d.")
    return m[:, ::-1]


def flipud(m):
    """cuarray version of `numpy.flipud` (a view)."""
    m = _device(m, "flipud")
    if m.ndim < 1:
        raise ValueError("Input must be >= 1-d.")
    return m[::-1, ...]


def roll(a, shift, axis=None):
    """cuarray version of `numpy.roll`: at most two copy kernels per rolled axis."""
    a = _device(a, "roll")
    if axis is None:
        return roll(a.reshape(-1), shift, 0).reshape(a._shape)
    axis = _axis_tuple(axis, a.ndim, allow_duplicate=True)
    if isinstance(shift, ndarray):
        shift = shift.get()
    b = numpy.broadcast(numpy.asarray(shift), numpy.asarray(axis))
    if b.ndim > 1:
        raise ValueError("'shift' and 'axis' should be scalars or 1D sequences")
    shifts = dict.fromkeys(range(a.ndim), 0)
    for sh, ax in b:
        shifts[int(ax)] += int(sh)
    rolls = [((slice(None), slice(None)),)] * a.ndim
    for ax, offset in shifts.items():
        offset %= a._shape[ax] or 1
        if offset:
            rolls[ax] = ((slice(None, -offset), slice(offset, None)),
                         (slice(-offset, None), slice(None, offset)))
    result = ndarray._alloc(a._shape, a.dtype, _order_of(a))
    if a.size:
        for indices in itertools.product(*rolls):
            src, dst = zip(*indices)
            _copy.copy_into(result[dst], a[src])
    return result


def rot90(m, k=1, axes=(0, 1)):
    """cuarray version of `numpy.rot90` (a view)."""
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    m = _device(m, "rot90")
    if axes[0] == axes[1] or abs(axes[0] - axes[1]) == m.ndim:
        raise ValueError("Axes must be different.")
    if not (-m.ndim <= axes[0] < m.ndim and -m.ndim <= axes[1] < m.ndim):
        raise ValueError(f"Axes={axes} out of range for array of ndim={m.ndim}.")
    k %= 4
    if k == 0:
        return m[:]
    if k == 2:
        return flip(flip(m, axes[0]), axes[1])
    perm = list(range(m.ndim))
    perm[axes[0]], perm[axes[1]] = perm[axes[1]], perm[axes[0]]
    if k == 1:
        return flip(m, axes[1]).transpose(perm)
    return flip(m.transpose(perm), axes[1])
