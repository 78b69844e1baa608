"""Sparse BLAS and format conversions by their cuSPARSE names (cuarray version of
`cupyx.cusparse`).

Matrices are `cuarray.scipy.sparse` matrices; products run on cuSPARSE's generic API
(SpMV, SpMM, SpGEMM) and the conversions on the sparse formats' own device code.
"""
import numpy

import cuarray
from cuarray._core.ndarray import ndarray
from cuarray._libs import cusparse as _lib

_AVAILABLE = {"spmv", "spmm", "spgemm", "csrgemm2", "csrgeam", "csrgeam2", "csr2dense",
              "csc2dense", "dense2csr", "dense2csc", "csr2csc", "csc2csr", "csr2coo", "coo2csr",
              "csrsort", "cscsort", "coosort"}


def _sparse():
    from cuarray.scipy import sparse
    return sparse


def check_availability(name):
    """True when the routine `name` can run with the cuSPARSE loaded here (cuarray
    version of `cupyx.cusparse.check_availability`)."""
    if name not in _AVAILABLE:
        raise ValueError(f"unknown cuSPARSE routine {name!r}; known: {sorted(_AVAILABLE)}")
    return True


def _compressed(a, name):
    sp = _sparse()
    if not (sp.isspmatrix_csr(a) or sp.isspmatrix_csc(a)):
        raise TypeError(f"{name}: A must be a CSR or CSC matrix of cuarray.scipy.sparse, not "
                        f"{type(a).__name__}")
    if not _lib.supports(a.dtype, a.indptr.dtype):
        raise TypeError(f"{name}: cuSPARSE does not compute with {a.dtype} values and "
                        f"{a.indptr.dtype} indices")


def _operator(a, transa):
    """(format, shape, indptr, indices, data) of op(A) as a CSR/CSC triple cuSPARSE reads
    without a transpose: A^T in CSR is A's CSC arrays, and the other way round."""
    fmt, shape = a.format, a.shape
    if transa:
        fmt, shape = ("csc" if fmt == "csr" else "csr"), shape[::-1]
    c = cuarray.ascontiguousarray
    return fmt, shape, c(a.indptr), c(a.indices), c(a.data)


def _scale_add(res, out, alpha, beta):
    if alpha != 1:
        res *= alpha
    if out is None:
        return res
    if beta != 0:
        res += beta * out
    out[...] = res
    return out


def spmv(a, x, y=None, alpha=1, beta=0, transa=False):
    """y = alpha * op(A) @ x + beta * y (op: transpose when `transa`)."""
    _compressed(a, "spmv")
    if not isinstance(x, ndarray) or x.ndim != 1:
        raise TypeError("spmv: x must be a 1-D cuarray array")
    fmt, shape, indptr, indices, data = _operator(a, transa)
    if x.shape[0] != shape[1] or x.dtype != a.dtype:
        raise ValueError(f"spmv: x must have shape ({shape[1]},) and dtype {a.dtype}, got "
                         f"{x.shape} and {x.dtype}")
    if y is not None and (y.shape != (shape[0],) or y.dtype != a.dtype):
        raise ValueError(f"spmv: y must have shape ({shape[0]},) and dtype {a.dtype}")
    res = cuarray.empty(shape[0], dtype=a.dtype)
    if data.size == 0:
        res.fill(0)
    else:
        _lib.spmv(fmt, shape, indptr, indices, data, cuarray.ascontiguousarray(x), res)
    return _scale_add(res, y, alpha, beta)


def spmm(a, b, c=None, alpha=1, beta=0, transa=False, transb=False):
    """c = alpha * op(A) @ op(B) + beta * c for sparse A and dense 2-D B."""
    _compressed(a, "spmm")
    if not isinstance(b, ndarray) or b.ndim != 2:
        raise TypeError("spmm: b must be a 2-D cuarray array")
    fmt, shape, indptr, indices, data = _operator(a, transa)
    bb = b.T if transb else b
    if bb.shape[0] != shape[1] or b.dtype != a.dtype:
        raise ValueError(f"spmm: op(b) must have {shape[1]} rows and dtype {a.dtype}, got "
                         f"{bb.shape} and {b.dtype}")
    m, k = shape[0], bb.shape[1]
    if c is not None and (c.shape != (m, k) or c.dtype != a.dtype):
        raise ValueError(f"spmm: c must have shape {(m, k)} and dtype {a.dtype}")
    res = cuarray.empty((m, k), dtype=a.dtype)
    if data.size == 0 or k == 0:
        res.fill(0)
    else:
        _lib.spmm(fmt, shape, indptr, indices, data, cuarray.ascontiguousarray(bb), res)
    return _scale_add(res, c, alpha, beta)


def spgemm(a, b, alpha=1):
    """alpha * A @ B for sparse A and B: a CSR matrix."""
    sp = _sparse()
    for x in (a, b):
        if not sp.issparse(x):
            raise TypeError(f"spgemm takes sparse matrices, not {type(x).__name__}")
    c = (a.tocsr() @ b.tocsr()).tocsr()
    return c * alpha if alpha != 1 else c


def csrgemm2(a, b, d=None, alpha=1, beta=1):
    """alpha * A @ B + beta * D for CSR A, B and (optional) D: a CSR matrix, the product
    on cuSPARSE's SpGEMM (CuPy's name from the legacy API)."""
    sp = _sparse()
    for x in (a, b) if d is None else (a, b, d):
        if not sp.isspmatrix_csr(x):
            raise TypeError(f"csrgemm2 takes CSR matrices, not {type(x).__name__}")
    if a.shape[1] != b.shape[0]:
        raise ValueError(f"csrgemm2: inner dimensions differ, {a.shape} and {b.shape}")
    c = spgemm(a, b, alpha)
    if d is None:
        return c
    if d.shape != c.shape:
        raise ValueError(f"csrgemm2: d has shape {d.shape}, the product {c.shape}")
    return csrgeam(c, d, 1, beta)


def csrgeam(a, b, alpha=1, beta=1):
    """alpha * A + beta * B for CSR A and B: a CSR matrix."""
    sp = _sparse()
    for x in (a, b):
        if not sp.isspmatrix_csr(x):
            raise TypeError(f"csrgeam takes CSR matrices, not {type(x).__name__}")
    if a.shape != b.shape:
        raise ValueError(f"csrgeam: shapes differ, {a.shape} and {b.shape}")
    return (a * alpha + b * beta).tocsr()


csrgeam2 = csrgeam


def _dense_in(x, name):
    if not isinstance(x, ndarray) or x.ndim != 2:
        raise TypeError(f"{name}: expected a 2-D cuarray array")
    return x


def csr2dense(x, out=None):
    """A CSR matrix as a dense array (into `out` when given)."""
    _need(x, "csr", "csr2dense")
    return x.toarray(out=out)


def csc2dense(x, out=None):
    """A CSC matrix as a dense array (into `out` when given)."""
    _need(x, "csc", "csc2dense")
    return x.toarray(out=out)


def dense2csr(x):
    """A dense 2-D array as a CSR matrix (explicit zeros dropped)."""
    return _sparse().csr_matrix(_dense_in(x, "dense2csr"))


def _need(x, fmt, name):
    """TypeError unless `x` is a sparse matrix of format `fmt` ("csr", "csc", "coo")."""
    if not getattr(_sparse(), "isspmatrix_" + fmt)(x):
        raise TypeError(f"{name} takes a {fmt.upper()} matrix")


def dense2csc(x):
    """A dense 2-D array as a CSC matrix (explicit zeros dropped)."""
    return _sparse().csc_matrix(_dense_in(x, "dense2csc"))


def csr2csc(x):
    _need(x, "csr", "csr2csc")
    return x.tocsc()


def csc2csr(x):
    _need(x, "csc", "csc2csr")
    return x.tocsr()


def csr2coo(x, data, indices):
    """A COO matrix from CSR `x` holding the given `data` and column `indices` arrays."""
    _need(x, "csr", "csr2coo")
    rows = x.tocoo().row
    return _sparse().coo_matrix((data, (rows, indices)), shape=x.shape)


def coo2csr(x):
    _need(x, "coo", "coo2csr")
    return x.tocsr()


def csrsort(x):
    """Sort the column indices of each row of CSR `x`, in place."""
    _need(x, "csr", "csrsort")
    x.sort_indices()


def cscsort(x):
    """Sort the row indices of each column of CSC `x`, in place."""
    _need(x, "csc", "cscsort")
    x.sort_indices()


def coosort(x, sort_by="r"):
    """Sort the entries of COO `x` in place by row (`sort_by='r'`) or column ('c')."""
    sp = _sparse()
    if not sp.isspmatrix_coo(x):
        raise TypeError("coosort takes a COO matrix")
    if sort_by not in ("r", "c"):
        raise ValueError(f"sort_by must be 'r' or 'c', got {sort_by!r}")
    primary, secondary = (x.row, x.col) if sort_by == "r" else (x.col, x.row)
    order = cuarray.lexsort(cuarray.stack([secondary, primary]))
    x.data[...] = x.data[order]
    x.row[...] = x.row[order]
    x.col[...] = x.col[order]


__all__ = sorted(_AVAILABLE | {"check_availability"})
