"""Sorting: sort, argsort, lexsort, sort_complex, partition, argpartition (NumPy reference:
"Sorting, searching, and counting").

The sorts are ndarray methods too (`a.sort()`, `a.argsort()`), so they and the radix sort
under them live in `_core/_routines_sorting.py`; this chapter file is their public face.
"""
from cuarray._core._routines_sorting import (  # noqa: F401
    argpartition, argsort, lexsort, partition, sort, sort_complex)

__all__ = ["sort", "argsort", "lexsort", "sort_complex", "partition", "argpartition"]
