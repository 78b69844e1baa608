"""Decompositions and what is built on them (cuarray versions of scipy.linalg.eigh, svd,
qr, pinv, norm), over cuarray.linalg's cuSOLVER routines; the generalized Hermitian
eigenproblem calls cuSOLVER's sygvd/hegvd."""
import numpy

from cuarray._core.ndarray import ndarray
from cuarray._libs import cusolver as _cusolver
from cuarray._libs.cublas import FILL_LOWER, FILL_UPPER
from cuarray.scipy.linalg._util import (
    LinAlgError, as_array, check_finite as _check_finite, fortran_copy, lapack_dtype)

_PREFIX = {"f": "s", "d": "d", "F": "c", "D": "z"}


def _subset(w, v, subset_by_index, subset_by_value, n):
    """Slice the ascending eigenvalues (and vectors) as SciPy's subset arguments ask."""
    if subset_by_index is not None and subset_by_value is not None:
        raise ValueError("Either index or value subset can be requested.")
    if subset_by_index is not None:
        lo, hi = (int(x) for x in subset_by_index)
        if not 0 <= lo <= hi < n:
            raise ValueError(f"Requested eigenvalue indices are not valid. Valid range is "
                             f"[0, {n - 1}] and start <= end, but start={lo}, end={hi} is "
                             "given")
        sl = slice(lo, hi + 1)
    elif subset_by_value is not None:
        lo, hi = (float(x) for x in subset_by_value)
        if lo >= hi:
            raise ValueError("Requested eigenvalue interval is not valid: the lower bound "
                             "must be below the upper one")
        from cuarray._routines.searching import searchsorted
        from cuarray._core.transfer import asarray
        # (lo, hi]: the eigenvalues are sorted, so two searches bound the run (one read).
        ends = searchsorted(w, asarray(numpy.array([lo, hi], dtype=w.dtype)), side="right")
        a, b = (int(x) for x in ends.get())
        sl = slice(a, b)
    else:
        return w, v
    return w[sl], (None if v is None else v[:, sl])


def eigh(a, b=None, *, lower=True, eigvals_only=False, overwrite_a=False, overwrite_b=False,
         type=1, check_finite=True, subset_by_index=None, subset_by_value=None, driver=None):
    """Eigenvalues (ascending) and eigenvectors of a Hermitian matrix, or of the
    generalized problem with Hermitian positive definite b (cuarray version of
    `scipy.linalg.eigh`).

    `driver` is accepted and ignored (cuSOLVER's syevd/syevj and sygvd serve every case);
    subsets are sliced from the full result (`subset_by_value` reads two counts:
    synchronises). Synchronises to check convergence.
    """
    a = as_array(a, "eigh")
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError("expected square matrix")
    if check_finite:
        _check_finite(a)
    n = a.shape[-1]
    if b is None:
        from cuarray.linalg._eigen import _eigh
        dt = lapack_dtype(a)
        w, v = _eigh(a.astype(dt, copy=False), "L" if lower else "U", not eigvals_only)
    else:
        b = as_array(b, "eigh")
        if check_finite:
            _check_finite(b)
        if a.ndim != 2 or b.shape != a.shape:
            raise ValueError(f"wrong b dimensions {b.shape}, should be {a.shape}")
        if type not in (1, 2, 3):
            raise ValueError("'type' keyword only accepts 1, 2, and 3.")
        w, v = _sygvd(a, b, lower, not eigvals_only, type)
    if a.ndim == 2:
        w, v = _subset(w, v, subset_by_index, subset_by_value, n)
    return w if eigvals_only else (w, v)


def _sygvd(a, b, lower, vectors, itype):
    dt = lapack_dtype(a, b)
    rdt = numpy.dtype(dt.char.lower())
    n = a.shape[0]
    A, B = fortran_copy(a, dt), fortran_copy(b, dt)
    w = ndarray._alloc((n,), rdt)
    if n == 0:
        return w, A
    s = _cusolver.get_solver()
    name = f"{_PREFIX[dt.char]}{'hegvd' if dt.kind == 'c' else 'sygvd'}"
    jobz = 1 if vectors else 0
    uplo = FILL_LOWER if lower else FILL_UPPER
    lwork = getattr(_cusolver.lib, name + "_buffer_size")(s.ptr, itype, jobz, uplo, n,
                                                          A.data.ptr, n, B.data.ptr, n,
                                                          w.data.ptr)
    work = ndarray._alloc((max(int(lwork), 1),), dt)
    info = ndarray._alloc((1,), numpy.dtype(numpy.int32))
    getattr(_cusolver.lib, name)(s.ptr, itype, jobz, uplo, n, A.data.ptr, n, B.data.ptr, n,
                                 w.data.ptr, work.data.ptr, lwork, info.data.ptr)
    v = int(info.get()[0])
    if v < 0:
        raise RuntimeError(f"cuSOLVER rejected argument {-v} (a cuarray bug)")
    if v > n:
        raise LinAlgError(f"The leading minor of order {v - n} of B is not positive definite. "
                          "The factorization of B could not be completed and no eigenvalues "
                          "or eigenvectors were computed.")
    if v > 0:
        raise LinAlgError("The algorithm failed to converge")
    return w, A


def svd(a, full_matrices=True, compute_uv=True, overwrite_a=False, check_finite=True,
        lapack_driver="gesdd"):
    """Singular value decomposition (cuarray version of `scipy.linalg.svd`): (U, s, Vh),
    or s. `lapack_driver` is checked and otherwise ignored (cuarray.linalg picks
    cuSOLVER's routine; see `cuarray.linalg._decompositions.svd_algorithm`)."""
    a = as_array(a, "svd")
    if lapack_driver not in ("gesdd", "gesvd"):
        raise ValueError(f'lapack_driver must be "gesdd" or "gesvd", not "{lapack_driver}"')
    if a.ndim < 2:
        raise ValueError("expected matrix")
    if check_finite:
        _check_finite(a)
    from cuarray.linalg import svd as _svd
    r = _svd(a.astype(lapack_dtype(a), copy=False), full_matrices, compute_uv)
    return tuple(r) if compute_uv else r


def qr(a, overwrite_a=False, lwork=None, mode="full", pivoting=False, check_finite=True):
    """QR decomposition (cuarray version of `scipy.linalg.qr`): mode 'full' (Q m x m),
    'economic' (Q m x k), 'r' (the tuple (R,), R m x n) or 'raw' ((the Householder
    matrix, tau), R); `pivoting=True` adds the column permutation P, A[:, P] = Q R
    (computed column by column, reading one pivot index per column)."""
    a = as_array(a, "qr")
    if mode not in ("full", "r", "economic", "raw"):
        raise ValueError("Mode argument should be one of ['full', 'r', 'economic', 'raw']")
    if a.ndim != 2:
        raise ValueError("expected a 2-D array")
    if check_finite:
        _check_finite(a)
    if pivoting:
        from cuarray.scipy.linalg._qr_pivoting import qr_pivoting
        return qr_pivoting(a.astype(lapack_dtype(a), copy=True), mode)
    from cuarray._routines.creation_more import triu
    from cuarray.linalg import qr as _qr
    a = a.astype(lapack_dtype(a), copy=False)
    m, n = a.shape
    k = min(m, n)
    if mode == "raw":
        h, tau = _qr(a, mode="raw")
        qraw = h.swapaxes(-1, -2)
        return (qraw, tau), triu(qraw[:k, :])
    if mode == "r":
        r = _qr(a, mode="r")
        if m > n:  # SciPy's R is m x n: zero rows below the k x n triangle
            from cuarray._routines.creation import zeros
            full = zeros((m, n), dtype=r.dtype)
            full[:k] = r
            r = full
        return (r,)
    q, r = _qr(a, mode="complete" if mode == "full" else "reduced")
    return q, r


def pinv(a, *, atol=None, rtol=None, return_rank=False, check_finite=True):
    """The Moore-Penrose pseudo-inverse through the SVD, singular values above
    atol + rtol * max(s) kept (cuarray version of `scipy.linalg.pinv`). Only
    `return_rank=True` synchronises (to read the rank)."""
    from cuarray._core import _ops
    from cuarray._core._reductions import amax, count_nonzero
    from cuarray.linalg import svd as _svd
    from cuarray.linalg._products import matmul
    a = as_array(a, "pinv")
    if a.ndim < 2:
        raise ValueError("expected a 2-D (or stacked) array")
    if check_finite:
        _check_finite(a)
    dt = lapack_dtype(a)
    rdt = numpy.dtype(dt.char.lower())
    m, n = a.shape[-2:]
    atol = 0.0 if atol is None else atol
    rtol = max(m, n) * numpy.finfo(rdt).eps if rtol is None else rtol
    if atol < 0 or rtol < 0:
        raise ValueError("atol and rtol values must be positive.")
    if a.size == 0:
        from cuarray._routines.creation import empty
        out = empty(a.shape[:-2] + (n, m), dtype=dt)
        return (out, 0) if return_rank else out
    u, s, vh = _svd(a.astype(dt, copy=False), full_matrices=False)
    cutoff = _ops.add(atol, _ops.multiply(amax(s, axis=-1, keepdims=True), rtol))
    keep = _ops.greater(s, cutoff)
    s_inv = _ops.where(keep, _ops.divide(1, s), 0).astype(rdt, copy=False)
    vh_h = _ops.conjugate(vh).swapaxes(-1, -2) if dt.kind == "c" else vh.swapaxes(-1, -2)
    u_h = _ops.conjugate(u).swapaxes(-1, -2) if dt.kind == "c" else u.swapaxes(-1, -2)
    B = matmul(vh_h * s_inv[..., None, :], u_h)
    if return_rank:
        return B, int(count_nonzero(keep))
    return B


def norm(a, ord=None, axis=None, keepdims=False, check_finite=True):
    """Matrix or vector norm (cuarray version of `scipy.linalg.norm`)."""
    a = as_array(a, "norm")
    if check_finite:
        _check_finite(a)
    from cuarray.linalg import norm as _norm
    r = _norm(a, ord, axis, keepdims)
    if a.size and a.dtype.char in "fdFD" and axis is None and not keepdims and (
            (a.ndim == 1 and ord in (None, 2))
            or (a.ndim == 2 and ord in (1, numpy.inf) and (a.flags.c_contiguous or a.flags.f_contiguous))):
        # SciPy answers these through BLAS nrm2 / LAPACK lange, which return a Python float.
        r = r.astype(numpy.float64)
    return r
