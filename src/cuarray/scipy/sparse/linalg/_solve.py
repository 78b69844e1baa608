"""Direct sparse solves (cuarray version of `scipy.sparse.linalg.spsolve`) on cuSOLVER's
sparse QR (`cusolverSp<t>csrlsvqr`)."""
import warnings

import numpy

from cuarray._core.host_policy import not_device_error
from cuarray._core.ndarray import ndarray
from cuarray.scipy.sparse._base import issparse
from cuarray.scipy.sparse._data import canonical

_PREFIX = "cuarray.scipy.sparse.linalg."


class MatrixRankWarning(UserWarning):
    """The matrix of a sparse solve is exactly singular (SciPy's warning)."""


_PREFIX = {"f": "s", "d": "d", "F": "c", "D": "z"}


def spsolve(A, b, permc_spec=None, use_umfpack=True):
    """Solve A x = b for square sparse A (cuarray version of `scipy.sparse.linalg.spsolve`).

    `b` is a dense vector or matrix (one column at a time) or a sparse matrix (solved
    densely, returned sparse as SciPy). Each column's solve waits for cuSOLVER's
    singularity report (a synchronisation). An exactly singular A warns
    `MatrixRankWarning` and gives NaNs, as SciPy. `permc_spec` and `use_umfpack` are
    accepted and ignored (cuSOLVER reorders with symrcm).
    """
    if not issparse(A):
        raise TypeError("spsolve needs a cuarray sparse matrix A")
    M, N = A.shape
    if M != N:
        raise ValueError(f"matrix must be square (has shape {A.shape})")
    sparse_b = issparse(b)
    if sparse_b:
        b = b.toarray()
    if not isinstance(b, ndarray):
        raise not_device_error("spsolve", b, _PREFIX, arg="b")
    if b.shape[0] != N or b.ndim > 2:
        raise ValueError(f"matrix - rhs dimension mismatch ({A.shape} - {b.shape[0]})")
    dt = numpy.result_type(A.dtype, b.dtype)
    if dt.kind in "biu" or dt == numpy.float16:
        dt = numpy.dtype(numpy.float64)
    A = canonical(A.tocsr().astype(dt, copy=False))
    # cuSOLVER calls A singular where |R(j,j)| <= tol. Rounding seldom leaves an exactly
    # singular A's R(j,j) at exactly 0 (tol=0 caught the 2x2 test in double, not in single)
    # but near eps * max|a_ij|: at most 1.3 of that in LAPACK's float32 QR of matrices up to
    # n=400 with one dependent column. 10x that flags only condition numbers over
    # 1 / (10 eps), where the solution has no correct digit left.
    tol = 10 * numpy.finfo(dt).eps * float(abs(A.data).max()) if A.nnz else 0.0
    from cuarray._routines.creation import empty
    if b.ndim == 1:
        x = empty((N,), dtype=dt)
        _csrlsvqr(A, b.astype(dt, order="C", copy=False), x, tol)
    else:
        x = empty((N, b.shape[1]), dtype=dt, order="F")
        for j in range(b.shape[1]):
            _csrlsvqr(A, b[:, j].astype(dt, order="C", copy=True), x[:, j], tol)
    if sparse_b:
        from cuarray.scipy.sparse._csr import csr_matrix
        return csr_matrix(x)
    return x


def _csrlsvqr(A, b, x, tol):
    """x = A^-1 b through csrlsvqr (x a contiguous vector, possibly a column view); A is
    singular where cuSOLVER finds |R(j,j)| <= tol."""
    from nvmath.bindings import cusolverSp
    from cuarray._libs import cusparse
    dt = A.dtype
    fn = getattr(cusolverSp, f"{_PREFIX[dt.char]}csrlsvqr")
    n = A.shape[0]
    if n == 0:
        return
    indptr = A.indptr.astype(numpy.int32, copy=False)
    indices = A.indices.astype(numpy.int32, copy=False)
    sing = numpy.full(1, -1, dtype=numpy.int32)
    out = x if x._c_contig else x.copy()
    fn(cusparse.get_solver_sp(), n, A.nnz, cusparse.mat_descr(), A.data.data.ptr,
       indptr.data.ptr, indices.data.ptr, b.data.ptr, tol, 1, out.data.ptr, sing.ctypes.data)
    if sing[0] >= 0:
        warnings.warn("Matrix is exactly singular", MatrixRankWarning, stacklevel=3)
        out.fill(numpy.nan)
    if out is not x:
        x[...] = out


def spsolve_triangular(A, b, lower=True, overwrite_A=False, overwrite_b=False,
                       unit_diagonal=False):
    """Solve A x = b for triangular sparse A (cuarray version of
    `scipy.sparse.linalg.spsolve_triangular`) with cuSPARSE's SpSV, analysed once and
    solved one column of b at a time. Only A's `lower` (or upper) triangle is read. A zero on the diagonal raises
    LinAlgError (reading whether there is one synchronises). The result's dtype is
    SciPy's: A's dtype promoted with float32, then with b's (float32 stays float32).
    """
    from cuarray._core._reductions import any as _any
    from cuarray._core._ops import equal
    from cuarray._libs import cusparse
    from cuarray._routines.creation import empty
    from cuarray.scipy.sparse.linalg._superlu import _solve_columns
    if not issparse(A):
        raise TypeError("spsolve_triangular needs a cuarray sparse matrix A")
    M, N = A.shape
    if M != N:
        raise ValueError(f"A must be a square matrix but its shape is {A.shape}.")
    if not isinstance(b, ndarray):
        raise not_device_error("spsolve_triangular", b, _PREFIX, arg="b")
    if b.ndim not in (1, 2) or b.shape[0] != M:
        raise ValueError(f"The size of the dimensions of A must be equal to the size of the "
                         f"first dimension of b but the shape of A is {A.shape} and the shape "
                         f"of b is {b.shape}.")
    dt = numpy.promote_types(numpy.promote_types(A.dtype, numpy.float32), b.dtype)
    A = canonical(A.tocsr().astype(dt, copy=False))
    if not unit_diagonal and M and bool(_any(equal(A.diagonal(), 0))):
        from cuarray.linalg import LinAlgError
        raise LinAlgError("A is singular: zero entry on diagonal.")
    if b.size == 0:
        return empty(b.shape, dtype=dt)
    solver = cusparse.TriangularSolve(A.shape, A.indptr, A.indices, A.data, lower,
                                      unit_diagonal)   # analysed once for all columns

    def column(rhs):
        out = empty((M,), dtype=dt)
        solver.solve(rhs, out)
        return out
    return _solve_columns(b, dt, column)


def factorized(A):
    """A function solving A x = b for square sparse A, factorized once (cuarray version
    of `scipy.sparse.linalg.factorized`): `splu(A).solve`."""
    from cuarray.scipy.sparse.linalg._superlu import splu
    if not issparse(A):
        raise TypeError("factorized needs a cuarray sparse matrix A")
    if A.shape[0] != A.shape[1]:
        raise ValueError(f"can only factor square matrices (has shape {A.shape})")
    return splu(A.tocsc()).solve
