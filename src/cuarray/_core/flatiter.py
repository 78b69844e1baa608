"""`ndarray.flat` (cuarray version of `cupy.flatiter`): the array seen as 1-D in C order,
for iteration, indexing and assignment.

Reads index a C-order copy (a view when the array is C-contiguous); writes go to the flat
positions through their multi-indices, so any layout is written in place. Values assigned
to more positions than they have are repeated, as in NumPy.
"""
import operator

import numpy

from cuarray._core.ndarray import ndarray


class flatiter:
    """A flat iterator over an array (`a.flat`): `len`, iteration, indexing by int, slice,
    Ellipsis, integer arrays or a boolean mask, assignment, `copy`, `base`."""

    def __init__(self, a):
        self._base = a
        self._index = 0

    @property
    def base(self):
        """The array iterated over."""
        return self._base

    def __len__(self):
        return self._base.size

    def __iter__(self):
        return self

    def __next__(self):
        if self._index >= self._base.size:
            raise StopIteration
        self._index += 1
        return self[self._index - 1]

    def copy(self):
        """A 1-D copy of the array (`a.flatten()`)."""
        return self._base.flatten()

    def _flat(self):
        return self._base.reshape(-1)   # a view when C-contiguous, else a copy

    def __getitem__(self, key):
        key = _check_key(key)
        if isinstance(key, int):
            return self._base[self._multi(key)].copy()
        r = self._flat()[key]
        # A slice of a C-contiguous array would be a view of it: NumPy and CuPy copy.
        return r.copy() if isinstance(key, slice) and self._base._c_contig else r

    def __setitem__(self, key, value):
        key = _check_key(key)
        base = self._base
        if isinstance(key, int):
            base[self._multi(key)] = value
            return
        from cuarray._core import transfer
        from cuarray._routines.creation import arange
        if isinstance(key, slice):
            pos = arange(*key.indices(base.size), dtype=numpy.int64)
        else:
            from cuarray._routines.indexing import flatnonzero
            k = key if isinstance(key, ndarray) else transfer.asarray(numpy.asarray(key))
            pos = flatnonzero(k) if k.dtype == numpy.bool_ else k.reshape(-1)
        n = pos.size
        if n == 0:
            return
        vals = value if isinstance(value, ndarray) else transfer.asarray(
            numpy.asarray(value, dtype=base.dtype))
        vals = vals.astype(base.dtype, copy=False).reshape(-1)
        if vals.size == 0:
            return
        if vals.size != n:  # NumPy repeats the values over the positions
            from cuarray._core import _ops
            vals = vals[_ops.remainder(arange(n, dtype=numpy.int64), vals.size)]
        if base._c_contig:
            base.reshape(-1)[pos] = vals
        else:
            from cuarray._routines.indexing import unravel_index
            base[unravel_index(pos, base._shape)] = vals

    def _multi(self, i):
        n = self._base.size
        if not -n <= i < n:
            raise IndexError(f"index {i} is out of bounds for size {n}")
        if i < 0:
            i += n
        return numpy.unravel_index(i, self._base._shape) if self._base.ndim else ()


def _check_key(key):
    if key is Ellipsis:
        return slice(None)
    if isinstance(key, tuple) or isinstance(key, (bool, numpy.bool_)):
        raise IndexError("unsupported iterator index")
    if isinstance(key, slice):
        return key
    try:
        return operator.index(key)
    except TypeError:
        return key
