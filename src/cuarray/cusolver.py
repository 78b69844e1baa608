"""Solvers by their cuSOLVER names (cuarray version of `cupyx.cusolver`).

`gesvdj`, `gesvda` and `syevj` return what cuSOLVER's routines of those names compute,
through `cuarray.linalg`'s solvers (which pick Jacobi or QR methods by size); `gesv` and
`gels` through `cuarray.lapack`'s LU and least-squares solvers. The sparse solvers
`csrlsvqr` and `csrlsvchol` and the eigenvalue routine `csreigvsi` run cusolverSp on a CSR
matrix.
"""
import operator

import numpy

import cuarray
from cuarray._core.host_policy import not_device_error
from cuarray._core.ndarray import ndarray
from cuarray._libs import cusparse as _cusparse

# CuPy's names (its version table, batched forms included) and cuarray's sparse additions
_AVAILABLE = {"gesvdj", "gesvdjBatched", "gesvda", "potrfBatched", "potrsBatched", "syevj",
              "gesv", "gels", "csrlsvqr", "geev", "csrlsvchol", "csreigvsi"}


_MIN_VERSION = {"geev": 11700}   # cuSOLVER's version number: Xgeev came with CUDA 12.6


def check_availability(name):
    """True when the routine `name` can run here (cuarray version of
    `cupyx.cusolver.check_availability`)."""
    if name not in _AVAILABLE:
        raise ValueError(f"unknown cuSOLVER routine {name!r}; known: {sorted(_AVAILABLE)}")
    if name in _MIN_VERSION:
        from nvmath.bindings import cusolver as _lib
        try:
            return _lib.get_version() >= _MIN_VERSION[name]
        except Exception:   # no loadable cuSOLVER: nothing of it can run
            return False
    return True


def _dense(a, name):
    if not isinstance(a, ndarray):
        raise not_device_error(name, a, "cuarray.cusolver.")
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


def _dense_system(a, b, name):
    """CuPy's checks of gesv/gels operands (ValueError for shapes and dtypes)."""
    for x in (a, b):
        if not isinstance(x, ndarray):
            raise ValueError(f"{name} takes cuarray arrays, not {type(x).__name__}")
    if a.ndim != 2:
        raise ValueError(f"{name}: a.ndim must be 2 (actual: {a.ndim})")
    if b.ndim not in (1, 2):
        raise ValueError(f"{name}: b.ndim must be 1 or 2 (actual: {b.ndim})")
    if a.shape[0] != b.shape[0]:
        raise ValueError(f"{name}: shape mismatch (a: {a.shape}, b: {b.shape})")
    if a.dtype != b.dtype:
        raise ValueError(f"{name}: dtype mismatch (a: {a.dtype}, b: {b.dtype})")
    if a.dtype.char not in "fdFD":
        raise ValueError(f"{name}: unsupported dtype (actual: {a.dtype})")


def gesv(a, b):
    """Solve a @ x = b for a square `a` (cuarray version of `cupyx.cusolver.gesv`).

    LU with partial pivoting in the working precision, where CuPy's runs cuSOLVER's
    iterative-refinement solver; `a` and `b` are left unchanged. As CuPy's, no check for
    a singular `a` (the result then holds NaN or meaningless values).
    """
    from cuarray import lapack
    _dense_system(a, b, "gesv")
    if a.shape[0] != a.shape[1]:
        raise ValueError(f"gesv: a must be a square matrix (actual: {a.shape})")
    x = cuarray.array(b, order="F")
    lapack.gesv(cuarray.array(a, order="F"), x)
    return x


def gels(a, b):
    """Least-squares solution of a @ x = b for a full-rank (m, n) `a` with m >= n (cuarray
    version of `cupyx.cusolver.gels`); returns x of shape (n,) or (n, k)."""
    from cuarray import lapack
    _dense_system(a, b, "gels")
    if a.shape[0] < a.shape[1]:
        raise ValueError(f"gels: m must be equal to or greater than n (a: {a.shape})")
    return lapack.gels(a, b)


def _csr_operand(A, name):
    # ValueError for anything but a CSR matrix, as CuPy's csrlsvqr
    if not all(hasattr(A, attr) for attr in ("data", "indices", "indptr", "shape")):
        raise ValueError(f"{name}: A must be a cuarray.scipy.sparse.csr_matrix, got "
                         f"{type(A).__name__}")
    if getattr(A, "format", "csr") != "csr":
        raise ValueError(f"{name}: A must be in CSR format, got {A.format!r}; use A.tocsr()")
    m, n = A.shape
    if m != n:
        raise ValueError(f"{name}: A must be square, got shape {A.shape}")
    dtype = A.data.dtype
    if dtype.char not in "fdFD":
        raise TypeError(f"{name}: A must be float32, float64, complex64 or complex128, got "
                        f"{dtype}")
    return (m, dtype, cuarray.ascontiguousarray(A.data),
            cuarray.ascontiguousarray(A.indptr.astype(numpy.int32, copy=False)),
            cuarray.ascontiguousarray(A.indices.astype(numpy.int32, copy=False)))


def csreigvsi(A, mu0=0.0, x0=None, tol=None, maxiter=1000):
    """The eigenvalue of a square CSR matrix closest to `mu0`, and its eigenvector, by
    shift-inverse iteration (cusolverSp's `<t>csreigvsi`): returns (mu, x), a 0-d array
    and a vector of length n, both on the device.

    cuarray's own addition: CuPy 14.2 reaches this routine only through its low-level
    `cupy.cuda.cusolver.<t>csreigvsi` (as `cuarray.cuda.cusolver` does). The iteration stops
    when |mu_k - mu_(k-1)| <= tol |mu_k| or after `maxiter` steps; `tol` defaults to
    1e-5 for single and 1e-12 for double precision. `x0` (non-zero) defaults to a fixed
    vector with no symmetry, so it is not orthogonal to the wanted eigenvector by
    construction. A real `A` needs a real `mu0`.
    """
    from nvmath.bindings import cusolverSp
    m, dtype, data, indptr, indices = _csr_operand(A, "csreigvsi")
    if m == 0:
        raise ValueError("csreigvsi: A is empty")
    if dtype.kind != "c" and isinstance(mu0, complex):
        raise TypeError(f"csreigvsi: a real A ({dtype}) needs a real mu0, got {mu0!r}")
    maxiter = operator.index(maxiter)
    if maxiter < 1:
        raise ValueError(f"csreigvsi: maxiter must be positive, got {maxiter}")
    if tol is None:
        tol = 1e-5 if dtype.char in "fF" else 1e-12
    if tol < 0:
        raise ValueError(f"csreigvsi: tol must be non-negative, got {tol}")
    if x0 is None:
        x0 = cuarray.cos(cuarray.arange(1, m + 1, dtype=numpy.float64) * 0.7548776662466927)
        x0 = (x0 + 1.5).astype(dtype)
    else:
        if not isinstance(x0, ndarray) or x0.shape != (m,):
            raise ValueError(f"csreigvsi: x0 must be a cuarray vector of length {m}")
        x0 = cuarray.ascontiguousarray(x0.astype(dtype, copy=False))
    mu = cuarray.empty((), dtype=dtype)
    x = cuarray.empty(m, dtype=dtype)
    fn = getattr(cusolverSp, {"f": "s", "d": "d", "F": "c", "D": "z"}[dtype.char] + "csreigvsi")
    fn(_cusparse.get_solver_sp(), m, int(data.size), _cusparse.mat_descr(), data.data.ptr,
       indptr.data.ptr, indices.data.ptr, complex(mu0) if dtype.kind == "c" else float(mu0),
       x0.data.ptr, maxiter, float(tol), mu.data.ptr, x.data.ptr)
    return mu, x


def _csr_solve(kind, A, b, tol, reorder):
    from nvmath.bindings import cusolverSp
    name = "csrlsv" + kind
    m, dtype, data, indptr, indices = _csr_operand(A, name)
    if not isinstance(b, ndarray) or b.ndim != 1 or b.shape[0] != m:
        raise ValueError(f"{name}: b must be a cuarray vector of length {m}")
    if b.dtype != dtype:
        raise TypeError(f"{name}: A and b must share one of float32, float64, complex64, "
                        f"complex128, got {dtype} and {b.dtype}")
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
