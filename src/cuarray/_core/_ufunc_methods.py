"""ufunc.reduce / accumulate / reduceat / at on the GPU."""
from cuarray._core import _reductions, scan


def reduce(uf, array, axis=0, dtype=None, out=None, keepdims=False, initial=None, where=True):
    return _reductions.reduce(uf, array, axis, dtype, out, keepdims, initial, where)


def accumulate(uf, array, axis=0, dtype=None, out=None):
    return scan.accumulate(uf, array, axis, dtype, out)


def reduceat(uf, array, indices, axis=0, dtype=None, out=None):
    from cuarray._core import _ufunc_at
    return _ufunc_at.reduceat(uf, array, indices, axis, dtype, out)


def at(uf, a, indices, b=None):
    from cuarray._core import _ufunc_at
    return _ufunc_at.at(uf, a, indices, b)
