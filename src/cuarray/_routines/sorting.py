"""Sorting: sort, argsort, lexsort, sort_complex, partition, argpartition (NumPy reference:
"Sorting, searching, and counting").

The sorts are ndarray methods too (`a.sort()`, `a.argsort()`), so they and the radix sort
under them live in `_core/_routines_sorting.py`; this chapter file is their public face,
with the Array API's `descending=`.
"""
from cuarray._core import _routines_sorting as _s
from cuarray._core._routines_sorting import (  # noqa: F401
    argpartition, lexsort, partition, sort_complex)

__all__ = ["sort", "argsort", "lexsort", "sort_complex", "partition", "argpartition"]


def sort(a, axis=-1, kind=None, order=None, *, descending=False, stable=None):
    """cuarray version of `numpy.sort` (always stable); `descending` as in the Array API."""
    if descending:
        from cuarray._routines.array_api import sort_descending
        return sort_descending(_s.sort, a, axis, kind, order, stable, False)
    return _s.sort(a, axis, kind, order, stable=stable)


def argsort(a, axis=-1, kind=None, order=None, *, descending=False, stable=None):
    """cuarray version of `numpy.argsort` (always stable); `descending` as in the Array API
    (equal elements keep their order)."""
    if descending:
        from cuarray._routines.array_api import sort_descending
        return sort_descending(_s.argsort, a, axis, kind, order, stable, True)
    return _s.argsort(a, axis, kind, order, stable=stable)
