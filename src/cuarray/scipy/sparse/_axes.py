"""Axis permutations of sparse arrays (cuarray versions of `scipy.sparse.swapaxes`,
`permute_dims` and `matrix_transpose`). cuarray's sparse arrays are 1-D or 2-D, so a
permutation is the identity or the transpose."""
import operator

from cuarray.scipy.sparse._base import issparse


def _check_sparse(A, name):
    if not issparse(A):
        raise TypeError(f"{name} expects a sparse array or matrix, got {type(A).__name__}")


def _axis(axis, ndim):
    """`axis` normalised to [0, ndim), with SciPy's ValueError for a bad one."""
    try:
        ax = operator.index(axis)
    except TypeError:
        raise ValueError(f"Invalid axis: {axis!r} is not an integer, for ndim={ndim}") \
            from None
    if not -ndim <= ax < ndim:
        raise ValueError(f"Invalid axis: {axis} is out of bounds for ndim={ndim}")
    return ax % ndim


def _transposed_coo(A, copy):
    """A transposed, in COO format whatever A's format (as SciPy). Without `copy`, a
    2-D COO input is transposed in place and returned, as SciPy's is."""
    if A.format == "coo" and A.ndim == 2 and not copy:
        A._setup(A.data, A.col, A.row, A.shape[::-1], False)
        return A
    return A.tocoo(copy=copy).transpose()


def swapaxes(A, axis1, axis2):
    """A with axes `axis1` and `axis2` interchanged, in COO format (cuarray version of
    `scipy.sparse.swapaxes`); equal axes give a copy of A in its own format."""
    _check_sparse(A, "swapaxes")
    a1, a2 = _axis(axis1, A.ndim), _axis(axis2, A.ndim)
    if a1 == a2:
        return A.copy()
    return _transposed_coo(A, True)


def permute_dims(A, axes=None, copy=False):
    """A with its axes in the order `axes` (reversed by default), in COO format
    (cuarray version of `scipy.sparse.permute_dims`); the identity permutation gives A
    itself (a copy with `copy=True`)."""
    _check_sparse(A, "permute_dims")
    ndim = A.ndim
    if axes is None:
        axes = tuple(range(ndim))[::-1]
    axes = tuple(axes)
    if len(axes) != ndim:
        raise ValueError(f"Incorrect number of axes: {len(axes)} instead of {ndim}")
    for a in axes:  # SciPy's permute_dims raises TypeError here, swapaxes ValueError
        try:
            operator.index(a)
        except TypeError:
            raise TypeError(f"axis must be an integer. (given {a!r})") from None
    norm = tuple(_axis(a, ndim) for a in axes)
    if len(set(norm)) != ndim:
        raise ValueError("duplicate value in axis")
    if norm == tuple(range(ndim)):
        return A.copy() if copy else A
    return _transposed_coo(A, copy)


def matrix_transpose(A):
    """The transpose of A's last two axes (cuarray version of
    `scipy.sparse.matrix_transpose`); A must be 2-D."""
    _check_sparse(A, "matrix_transpose")
    if A.ndim < 2:
        raise ValueError(f"matrix_transpose requires at least 2 dimensions, got "
                         f"ndim={A.ndim}")
    return A.transpose()
