"""LAPACK-style solvers on cuSOLVER (cuarray version of `cupyx.lapack`).

Like CuPy's, these do not synchronise to check cuSOLVER's `info`: a singular (`gesv`)
or not positive definite (`posv`) matrix gives NaN or meaningless values, not an
exception; `cuarray.linalg.solve` checks. `b` is overwritten with the solution; `a`
with its factors when it is F-contiguous (otherwise a copy is factored).
"""
import numpy

import cuarray
from cuarray._core._out import write_back
from cuarray._core.host_policy import not_device_error
from cuarray._core.ndarray import ndarray
from cuarray._libs import cusolver as _cusolver
from cuarray._libs.cublas import FILL_LOWER, OP_N
from cuarray.linalg import _solve

_PREFIX = {"f": "s", "d": "d", "F": "c", "D": "z"}


def _operands(a, b, name):
    for x in (a, b):
        if not isinstance(x, ndarray):
            raise not_device_error(name, x, "cuarray.lapack.")
    if a.dtype != b.dtype or a.dtype.char not in "fdFD":
        raise TypeError(f"{name}: a and b must share one of float32, float64, complex64, "
                        f"complex128, got {a.dtype} and {b.dtype}")
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise ValueError(f"{name}: a must be a square matrix, got shape {a.shape}")
    if b.ndim not in (1, 2) or b.shape[0] != a.shape[0]:
        raise ValueError(f"{name}: b must have shape ({a.shape[0]},) or ({a.shape[0]}, k), "
                         f"got {b.shape}")
    return a.dtype


def _fwork(x):
    """`x` itself when it is F-contiguous (it is overwritten), else an F-ordered copy."""
    return x if x._f_contig else cuarray.asfortranarray(x)


def _in_place(a, b, name, solve):
    """Check `a` and `b`, run `solve(wa, wb, n, nrhs, dtype)` on F-ordered work arrays (a
    and b themselves where they are F-contiguous) and write the results back."""
    dt = _operands(a, b, name)
    n = a.shape[0]
    nrhs = 1 if b.ndim == 1 else b.shape[1]
    if n == 0 or nrhs == 0:
        return
    wa, wb = _fwork(a), _fwork(b)
    solve(wa, wb, n, nrhs, dt)
    write_back(wa, a)
    write_back(wb, b)


def gesv(a, b):
    """Solve a @ x = b by LU with partial pivoting; x is written into `b` (cuarray version
    of `cupyx.lapack.gesv`)."""
    _in_place(a, b, "gesv", _gesv)


def _gesv(wa, wb, n, nrhs, dt):
    ipiv, _info, ptrs = _solve.lu_factor(wa, n, 1, dt)
    _solve._lu_solve(wa, ipiv, ptrs, wb, n, nrhs, 1, dt, OP_N)


def posv(a, b):
    """Solve a @ x = b for Hermitian positive-definite `a` by Cholesky (its lower
    triangle is read); x is written into `b` (cuarray version of `cupyx.lapack.posv`)."""
    _in_place(a, b, "posv", _posv)


def _posv(wa, wb, n, nrhs, dt):
    s = _cusolver.get_solver()
    p = _PREFIX[dt.char]
    lib = _cusolver.lib
    info = cuarray.zeros(1, dtype=numpy.int32)
    lwork = getattr(lib, p + "potrf_buffer_size")(s.ptr, FILL_LOWER, n, wa.data.ptr, n)
    ws = cuarray.empty(max(lwork, 1), dtype=dt)
    getattr(lib, p + "potrf")(s.ptr, FILL_LOWER, n, wa.data.ptr, n, ws.data.ptr, lwork,
                              info.data.ptr)
    getattr(lib, p + "potrs")(s.ptr, FILL_LOWER, n, nrhs, wa.data.ptr, n, wb.data.ptr, n,
                              info.data.ptr)


def gels(a, b):
    """Least-squares solution of a @ x = b for a full-rank (m, n) `a` (cuarray version of
    `cupyx.lapack.gels`); returns x of shape (n,) or (n, k)."""
    for x in (a, b):
        if not isinstance(x, ndarray):
            raise TypeError(f"gels takes cuarray arrays, not {type(x).__name__}")
    if a.ndim != 2 or b.ndim not in (1, 2) or b.shape[0] != a.shape[0]:
        raise ValueError(f"gels: a must be 2-D and b of shape ({a.shape[0] if a.ndim else '?'},)"
                         f" or (m, k), got {a.shape} and {b.shape}")
    if a.dtype != b.dtype or a.dtype.char not in "fdFD":
        raise TypeError(f"gels: a and b must share a float or complex dtype, got {a.dtype} "
                        f"and {b.dtype}")
    return cuarray.linalg.lstsq(a, b, rcond=None)[0]
