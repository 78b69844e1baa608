"""Krylov solvers (cuarray version of `scipy.sparse.linalg.cg`).

Vectors and scalars stay on the GPU; each iteration reads the residual norm once to test
convergence, as SciPy and CuPy do (a synchronisation per iteration).
"""
import numpy

from cuarray._core.host_policy import not_device_error
from cuarray._core.ndarray import ndarray
from cuarray.scipy.sparse.linalg._interface import IdentityOperator, aslinearoperator


def _make_system(A, M, x0, b, name):
    """(A, M, x, b) as LinearOperators and 1-D vectors of the solve's dtype (SciPy's
    `make_system`)."""
    A = aslinearoperator(A)
    if A.shape[0] != A.shape[1]:
        raise ValueError(f"expected square matrix, but got shape={A.shape}")
    N = A.shape[0]
    if not isinstance(b, ndarray):
        raise not_device_error(name, b, "cuarray.scipy.sparse.linalg.", arg="b")
    if b.shape != (N,) and b.shape != (N, 1):
        raise ValueError(f"shapes of A {A.shape} and b {b.shape} are incompatible")
    dt = numpy.result_type(A.dtype, b.dtype) if A.dtype is not None else b.dtype
    if dt.kind in "biu":
        dt = numpy.dtype(numpy.float64)
    elif dt == numpy.float16:
        dt = numpy.dtype(numpy.float32)
    b = b.reshape(N).astype(dt, copy=False)
    if x0 is None:
        from cuarray._routines.creation import zeros
        x = zeros(N, dtype=dt)
    elif isinstance(x0, str) and x0 == "Mb":
        x = None
    else:
        if not isinstance(x0, ndarray):
            raise not_device_error(name, x0, "cuarray.scipy.sparse.linalg.", arg="x0")
        if x0.shape != (N,) and x0.shape != (N, 1):
            raise ValueError(f"shapes of A {A.shape} and x0 {x0.shape} are incompatible")
        x = x0.reshape(N).astype(dt, copy=True)
    M = IdentityOperator(A.shape, dtype=A.dtype) if M is None else aslinearoperator(M)
    if M.shape != A.shape:
        raise ValueError(f"matrix and preconditioner have different shapes: {A.shape} and "
                         f"{M.shape}")
    if x is None:
        x = M.matvec(b).astype(dt, copy=True)
    return A, M, x, b


_updates = {}


def _update(kind, dt):
    """The fused vector update `kind` for dtype dt, with its scalar read on the device
    (a 0-d array: no synchronisation): 'axpy' y += a x; 'xpay' y = x + a y."""
    from cuarray._core.elementwise import Op, Param
    key = (kind, dt.char)
    op = _updates.get(key)
    if op is None:
        body = ("y = y + (*a.data_) * x;" if kind == "axpy" else "y = x + (*a.data_) * y;")
        op = _updates[key] = Op(f"cuarray_sparse_{kind}_{dt.char}",
                                [Param("a", "raw", dt), Param("x", "in", dt),
                                 Param("y", "out", dt)], body, load_outputs=True)
    return op


def axpy(a, x, y):
    """y += a * x in one pass (a: 0-d device array or number)."""
    _update("axpy", y.dtype).launch([_scalar(a, y.dtype), x, y])


def xpay(x, a, y):
    """y = x + a * y in one pass."""
    _update("xpay", y.dtype).launch([_scalar(a, y.dtype), x, y])


def _scalar(a, dt):
    if isinstance(a, ndarray):
        return a.astype(dt, copy=False).reshape(())
    from cuarray._routines.creation import full
    return full((), a, dtype=dt)


def _norm(x):
    from cuarray.linalg import norm
    return norm(x)


def cg(A, b, x0=None, rtol=1e-5, atol=0.0, maxiter=None, M=None, callback=None, *,
       tol=None):
    """Solve A x = b for Hermitian positive definite A by conjugate gradients (cuarray
    version of `scipy.sparse.linalg.cg`).

    A and M may be cuarray sparse matrices, 2-D arrays or LinearOperators. Returns
    (x, info): info 0 on convergence, else the number of iterations run. `tol` is CuPy's
    older name for `rtol`, and atol=None (CuPy's default) means 0.
    """
    if tol is not None:
        rtol = tol
    if atol is None:
        atol = 0.0
    A, M, x, b = _make_system(A, M, x0, b, "cg")
    if isinstance(atol, str) or atol < 0:
        raise ValueError(f"'scipy.sparse.linalg.cg' called with invalid `atol`={atol}; if "
                         "set, `atol` must be a real, non-negative number.")
    bnrm2 = float(_norm(b))
    if bnrm2 == 0:
        return b, 0
    atol = max(float(atol), float(rtol) * bnrm2)
    n = b.shape[0]
    if maxiter is None:
        maxiter = n * 10
    if x.dtype.kind == "c":
        from cuarray.linalg._products import vdot as dot
    else:
        from cuarray.linalg._products import dot
    r = b - A.matvec(x) if x0 is not None else b.copy()
    rho_prev, p = None, None
    for iteration in range(maxiter):
        if float(_norm(r)) < atol:
            return x, 0
        z = M.matvec(r)
        rho_cur = dot(r, z)
        if iteration > 0:
            xpay(z, rho_cur / rho_prev, p)
        else:
            p = z.copy()
        q = A.matvec(p)
        alpha = rho_cur / dot(p, q)
        axpy(alpha, p, x)
        axpy(-alpha, q, r)
        rho_prev = rho_cur
        if callback:
            callback(x)
    return x, maxiter
