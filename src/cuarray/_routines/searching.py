"""Searching: searchsorted (NumPy reference: "Sorting, searching, and counting").

`searchsorted` is an ndarray method too, so it lives in `_core/_routines_searching.py`;
this chapter file is its public face. argmax/argmin/nanargmax/nanargmin and count_nonzero
are reductions (`_core/_reductions.py`); nonzero/flatnonzero/where/extract are indexing
routines.
"""
from cuarray._core._routines_searching import searchsorted  # noqa: F401

__all__ = ["searchsorted"]
