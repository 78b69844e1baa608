"""The graph Laplacian (cuarray version of `scipy.sparse.csgraph.laplacian`)."""
import numpy

from cuarray._core.ndarray import ndarray
from cuarray.scipy.sparse import _kernels as K
from cuarray.scipy.sparse._base import issparse


def laplacian(csgraph, normed=False, return_diag=False, use_out_degree=False, *, copy=True,
              form="array", dtype=None, symmetrized=False):
    """L = D - A of a graph, its diagonal ignored; D the in-degrees (column sums), or the
    out-degrees with `use_out_degree`. `normed` gives D^-1/2 L D^-1/2 (isolated nodes
    keep a zero row). A COO result for sparse input (dense for dense input), or, with
    form 'function'/'lo', a function/LinearOperator applying it. `copy` is accepted."""
    from cuarray._core import _ops
    from cuarray.scipy.sparse._coo import coo_matrix
    if form not in ("array", "function", "lo"):
        raise ValueError(f"Invalid form: {form!r}")
    dense = isinstance(csgraph, ndarray)
    if not dense and not issparse(csgraph):
        raise TypeError("csgraph must be a cuarray sparse matrix or a 2-D cuarray array")
    if csgraph.ndim != 2 or csgraph.shape[0] != csgraph.shape[1]:
        raise ValueError("csgraph must be a square matrix or array")
    A = coo_matrix(csgraph) if dense else csgraph.tocoo()
    family = "matrix" if dense else csgraph._family
    dt = numpy.dtype(dtype) if dtype is not None else A.dtype
    if normed and dt.kind not in "fc":
        dt = numpy.dtype(numpy.float64)
    A = A.astype(dt)
    if symmetrized:
        A = (A + A.T).tocoo()
    n = A.shape[0]
    data, row, col = K.compact(_ops.not_equal(A.row, A.col).astype(numpy.int64), A.data,
                               A.row, A.col)
    off = A._cls("coo")._from_parts(data, row, col, A.shape, False)
    degree = off.sum(axis=1 if use_out_degree else 0).reshape(-1).astype(dt)
    idx = _arange(n, row.dtype)
    if normed:
        iso = _ops.equal(degree, 0)
        s = _ops.sqrt(_ops.where(iso, dt.type(1), degree))
        scaled = _ops.negative(_ops.true_divide(data, _ops.multiply(K.gather(s, row),
                                                                    K.gather(s, col))))
        diag = _ops.where(iso, dt.type(0), dt.type(1)).astype(dt)
        out_diag = s
    else:
        scaled = _ops.negative(data)
        diag = degree
        out_diag = degree
    from cuarray._routines.joining import concatenate
    L = A._cls("coo")._from_parts(concatenate([scaled.astype(dt), diag.astype(dt)]),
                                  concatenate([row, idx]), concatenate([col, idx]), (n, n),
                                  False)
    from cuarray.scipy.sparse._base import as_family
    L = as_family(L, family)
    if dense:
        L = L.toarray()
    if form == "function":
        M = L
        L = lambda v: M @ v  # noqa: E731  (SciPy returns a plain function)
    elif form == "lo":
        from cuarray.scipy.sparse.linalg import aslinearoperator
        L = aslinearoperator(L)
    return (L, out_diag) if return_diag else L


def _arange(n, dtype):
    from cuarray._routines.creation import arange
    return arange(n, dtype=dtype)
