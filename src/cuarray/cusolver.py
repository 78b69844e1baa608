"""Solvers by their cuSOLVER names (cuarray version of `cupyx.cusolver`).

`gesvdj`, `gesvda` and `syevj` return what cuSOLVER's routines of those names compute,
through `cuarray.linalg`'s solvers (which pick Jacobi or QR methods by size). The
sparse solvers `csrlsvqr` and `csrlsvchol` run cusolverSp on a CSR matrix.
"""
import numpy

import cuarray
from cuarray._core.ndarray import ndarray
from cuarray._libs import cusparse as _cusparse

_AVAILABLE = {"gesvdj", "gesvda", "syevj", "csrlsvqr", "csrlsvchol"}


def check_availability(name):
    """True when the routine `name` can run here (cuarray version of
    `cupyx.cusolver.check_availability`)."""
    if name not in _AVAILABLE:
        raise ValueError(f"unknown cuSOLVER routine {name!r}; known: {sorted(_AVAILABLE)}")
    return True


def _dense(a, name):
    if not isinstance(a, ndarray):
        raise TypeError(f"{name} takes a cuarray array, not {type(a).__name__}")
    if a.dtype.char not in "fdFD":
        raise TypeError(f"{name} supports float32, float64, complex64 and complex128, not "
                        f"{a.dtype}")
    if a.ndim < 2:
        raise ValueError(f"{name}: expected an array of at least 2 dimensions, got {a.ndim}")


def gesvdj(a, full_matrices=True, compute_uv=True, overwrite_a=False):
    """Singular values (and vectors) of a matrix (cuarray version of
    `cupyx.cusolver.gesvdj`): returns (u, s, v) with a == u @ diag(s) @ v.conj().T, or s.
    `overwrite_a` is accepted; `a` is left unchanged."""
    _dense(a, "gesvdj")
    if a.ndim != 2:
        raise ValueError(f"gesvdj takes a 2-D matrix, got {a.ndim}-D")
    if not compute_uv:
        return cuarray.linalg.svd(a, compute_uv=False)
    u, s, vh = cuarray.linalg.svd(a, full_matrices=full_matrices)
    return u, s, vh.conj().swapaxes(-1, -2)


def gesvda(a, compute_uv=True):
    """Thin SVD of a matrix or a stack (..., m, n) (cuarray version of
    `cupyx.cusolver.gesvda`): (u, s, v) with u of shape (..., m, k), v (..., n, k)."""
    _dense(a, "gesvda")
    if not compute_uv:
        return cuarray.linalg.svd(a, compute_uv=False)
    u, s, vh = cuarray.linalg.svd(a, full_matrices=False)
    return u, s, vh.conj().swapaxes(-1, -2)


def syevj(a, UPLO="L", with_eigen_vector=True):
    """Eigenvalues (ascending) and eigenvectors of Hermitian matrices, one or a stack
    (cuarray version of `cupyx.cusolver.syevj`): (w, v) or w."""
    _dense(a, "syevj")
    if UPLO not in ("L", "U"):
        raise ValueError(f"UPLO must be 'L' or 'U', got {UPLO!r}")
    if a.shape[-1] != a.shape[-2]:
        raise ValueError(f"syevj: matrices must be square, got shape {a.shape}")
    if with_eigen_vector:
        return tuple(cuarray.linalg.eigh(a, UPLO=UPLO))
    return cuarray.linalg.eigvalsh(a, UPLO=UPLO)


def _csr_solve(kind, A, b, tol, reorder):
    from nvmath.bindings import cusolverSp
    name = "csrlsv" + kind
    for attr in ("data", "indices", "indptr", "shape"):
        if not hasattr(A, attr):
            raise TypeError(f"{name}: A must be a cuarray.scipy.sparse.csr_matrix")
    if getattr(A, "format", "csr") != "csr":
        raise TypeError(f"{name}: A must be in CSR format, got {A.format!r}; use A.tocsr()")
    m, n = A.shape
    if m != n:
        raise ValueError(f"{name}: A must be square, got shape {A.shape}")
    if not isinstance(b, ndarray) or b.ndim != 1 or b.shape[0] != m:
        raise ValueError(f"{name}: b must be a cuarray vector of length {m}")
    dtype = A.data.dtype
    if dtype.char not in "fdFD" or b.dtype != dtype:
        raise TypeError(f"{name}: A and b must share one of float32, float64, complex64, "
                        f"complex128, got {dtype} and {b.dtype}")
    data = cuarray.ascontiguousarray(A.data)
    indptr = cuarray.ascontiguousarray(A.indptr.astype(numpy.int32, copy=False))
    indices = cuarray.ascontiguousarray(A.indices.astype(numpy.int32, copy=False))
    b = cuarray.ascontiguousarray(b)
    x = cuarray.empty(m, dtype=dtype)
    singular = numpy.zeros(1, dtype=numpy.int32)  # the routine writes it on the host
    fn = getattr(cusolverSp, {"f": "s", "d": "d", "F": "c", "D": "z"}[dtype.char] + name)
    fn(_cusparse.get_solver_sp(), m, int(data.size), _cusparse.mat_descr(), data.data.ptr,
       indptr.data.ptr, indices.data.ptr, b.data.ptr, float(tol), int(reorder), x.data.ptr,
       singular.ctypes.data)
    return x


def csrlsvqr(A, b, tol=0, reorder=1):
    """Solve A x = b for a sparse CSR `A` by QR (cuarray version of `cupyx.cusolver.csrlsvqr`)."""
    return _csr_solve("qr", A, b, tol, reorder)


def csrlsvchol(A, b, tol=0, reorder=1):
    """Solve A x = b for a sparse symmetric positive-definite CSR `A` by Cholesky
    (cuarray version of `cupyx.cusolver.csrlsvchol`)."""
    return _csr_solve("chol", A, b, tol, reorder)
