"""Norms and powers of sparse matrices (cuarray versions of `scipy.sparse.linalg.norm`
and `matrix_power`)."""
import numpy

from cuarray.scipy.sparse._base import issparse
from cuarray.scipy.sparse._data import canonical


def norm(x, ord=None, axis=None):
    """Matrix norms ('fro', inf, -inf, 1, -1, 2 through `svds`) or vector norms along an
    axis of a sparse matrix (cuarray version of `scipy.sparse.linalg.norm`). Results are
    0-d (whole matrix) or 1-D cuarray arrays: no synchronisation."""
    from cuarray._core import _ops
    from cuarray._core import _reductions as R
    if not issparse(x):
        raise TypeError("input is not sparse. use numpy.linalg.norm")
    A = canonical(x.tocsr())
    absA = abs(A)
    if axis is None:
        if ord in (None, "fro", "f"):
            return _ops.sqrt(R.sum(_ops.multiply(absA.data, absA.data)))
        if ord == 2:
            from cuarray.scipy.sparse.linalg._eigen import svds
            return svds(A, k=1, return_singular_vectors=False).max()
        if ord in (numpy.inf, -numpy.inf):
            sums = absA.sum(axis=1).reshape(-1)
        elif ord in (1, -1):
            sums = absA.sum(axis=0).reshape(-1)
        else:
            raise ValueError("Invalid norm order for matrices.")
        return (R.amax if ord in (numpy.inf, 1) else R.amin)(sums)
    if isinstance(axis, tuple):
        if len(axis) == 2:
            if sorted(a % 2 for a in axis) != [0, 1]:
                raise ValueError("Duplicate axes given.")
            return norm(x if axis[0] % 2 == 0 else x.T, ord=ord)
        if len(axis) != 1:
            raise ValueError("Improper number of dimensions to norm.")
        axis = axis[0]
    if axis not in (0, 1, -1, -2):
        raise ValueError(f"Invalid axis {axis!r} for an array with shape {x.shape}")
    lines = absA.tocsc() if axis % 2 == 0 else absA
    if ord in (None, 2):
        r = _ops.sqrt(_line_sum(lines, _ops.multiply(lines.data, lines.data), axis))
    elif ord == numpy.inf:
        r = _line_extreme(lines, axis, True)
    elif ord == -numpy.inf:
        r = _line_extreme(lines, axis, False)
    elif ord == 0:
        return A.count_nonzero(axis=axis % 2).reshape(-1)  # int64 counts, as SciPy's
    elif ord == 1:
        r = _line_sum(lines, lines.data, axis)
    elif isinstance(ord, str):
        raise ValueError("Invalid norm order for vectors.")
    else:
        p = float(ord)
        r = _ops.power(_line_sum(lines, _ops.power(lines.data, p), axis), 1.0 / p)
    return r


def _line_sum(lines, values, axis):
    M = lines._with_data(values, copy=False)
    return M.sum(axis=axis % 2).reshape(-1)


def _line_extreme(lines, axis, largest):
    m = lines.max(axis=axis % 2) if largest else lines.min(axis=axis % 2)
    return m.toarray().reshape(-1)


def matrix_power(A, power):
    """A raised to an integer power >= 0 by repeated squaring (cuarray version of
    `scipy.sparse.linalg.matrix_power`); power 0 gives the identity."""
    import operator
    if not issparse(A):
        raise TypeError("matrix_power needs a cuarray sparse matrix or array")
    M, N = A.shape
    if M != N:
        raise TypeError("sparse matrix is not square")
    try:
        n = operator.index(power)
    except TypeError:
        raise TypeError("exponent must be an integer") from None
    if n < 0:
        raise ValueError("exponent must be >= 0")
    from cuarray.scipy.sparse._base import _power, as_family
    from cuarray.scipy.sparse._construct import eye
    if n == 0:
        return as_family(eye(M, dtype=A.dtype, format=A.format), A._family)
    return _power(A, n).asformat(A.format)
