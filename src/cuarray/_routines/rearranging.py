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
from cuarray._core.ndarray import ndarray
from cuarray._routines._args import _axis_tuple, _device, _order_of
from cuarray._core import _take_put


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


def repeat(a, repeats, axis=None):
    """cuarray version of `numpy.repeat`. Scalar repeats: one copy from a zero-stride view;
    per-element repeats: one gather. Device `repeats` are read once for the total
    (synchronises)."""
    return _take_put.repeat(_device(a, "repeat"), repeats, axis)


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
