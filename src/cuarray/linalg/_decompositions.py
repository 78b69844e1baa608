"""Decompositions on cuSOLVER (cuarray versions of numpy.linalg.cholesky, qr, svd,
svdvals). Stacks of many small matrices go to the batched APIs (potrfBatched,
gesvdjBatched); larger ones loop over the stack on one workspace. QR never fails and does
not synchronise. Shared pieces: `_lapack.py`."""
import os
from typing import NamedTuple

import numpy

import cuarray
from cuarray._libs import cusolver as _cusolver
from cuarray._libs.cublas import CUDA_DTYPE, FILL_LOWER, FILL_UPPER
from cuarray._libs.cusolver import EIG_NOVECTOR, EIG_VECTOR
from cuarray._core._copy import copy_into as _copy_into
from cuarray.linalg._util import (
    as_array, assert_stacked_2d, assert_stacked_square, common_type, prod, real_dtype)
from cuarray.linalg._lapack import (
    _SMALL, _c_copy, _check, _check_fetched, _colmajor_copy, _conj, _device_workspace, _dn,
    _fetch_info, _fn, _host_workspace, _pointers, _release_host_workspace, _square_stack)
from cuarray.linalg._eigen import eigh, eigvalsh


class QRResult(NamedTuple):
    Q: object
    R: object


class SVDResult(NamedTuple):
    U: object
    S: object
    Vh: object


def _dims(a):
    """(m, n, min(m, n), batch shape, batch count) of a stack of (m, n) matrices."""
    m, n = a.shape[-2:]
    batch = a.shape[:-2]
    return m, n, min(m, n), batch, prod(batch)


# ----------------------------------------------------------------------------- Cholesky

def cholesky(a, /, *, upper=False):
    """Cholesky factor of a Hermitian positive-definite matrix or stack (cuarray version of
    `numpy.linalg.cholesky`). Synchronises to check positive definiteness."""
    a = _square_stack(a, "linalg.cholesky")
    dt = common_type(a)
    n = a.shape[-1]
    if a.size == 0:
        return cuarray.empty(a.shape, dtype=dt)
    count = prod(a.shape[:-2])
    # buf read column-major is A^T: its upper factor U (A^T = U^H U) read row-major is
    # the lower factor L of A, and its lower factor is A's upper one.
    uplo = FILL_LOWER if upper else FILL_UPPER
    # potrf writes every info entry; no memset, so the copy is the first work on the GPU.
    info = cuarray.empty(count, dtype=numpy.int32)
    step = n * n * dt.itemsize
    if count > 1 and n <= _SMALL:
        buf = _c_copy(a, dt)
        ptrs = _pointers(buf, count, step)
        _fn("{}potrf_batched", dt)(_cusolver.get_solver().ptr, uplo, n, ptrs.data.ptr, n,
                                   info.data.ptr, count)
    else:
        # Workspaces first, then the copy: potrf follows the copy on the GPU without a gap.
        buf = cuarray.empty(a.shape, dtype=dt)
        s = _cusolver.get_solver()
        t = CUDA_DTYPE[dt]
        dsize, hsize = _dn.xpotrf_buffer_size(s.ptr, s.params, uplo, n, t, buf.data.ptr, n, t)
        ws = _device_workspace(dsize)
        hws, hptr = _host_workspace(hsize)
        _copy_into(buf, a)
        for i in range(count):
            _dn.xpotrf(s.ptr, s.params, uplo, n, t, buf.data.ptr + i * step, n, t,
                       ws.data.ptr, dsize, hptr, hsize, info.data.ptr + 4 * i)
    # Zero the other triangle in place while the host checks `info`.
    fetched = _fetch_info(info)
    _zero_triangle(buf, n, count, upper)
    _check_fetched(fetched, "Matrix is not positive definite")
    return buf


_TRIANGLE_SOURCE = r"""
typedef {elem} E;
// Zero the strict upper (upper == 0) or lower triangle of `count` row-major n x n matrices:
// blockIdx.y walks the rows, threads the columns; the kept elements are not touched.
extern "C" __global__ void cuarray_zero_triangle(E* a, long long n, long long rows, int upper)
{{
    const long long c = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (c >= n) return;
    for (long long row = blockIdx.y; row < rows; row += gridDim.y) {{
        const long long r = row % n;
        if (upper ? c < r : c > r) a[row * n + c] = E{{}};
    }}
}}
"""
_TRIANGLE_ELEM = {4: "unsigned int", 8: "unsigned long long", 16: "ulonglong2"}
_triangle_kernels = {}


def triangle_source(itemsize):
    return _TRIANGLE_SOURCE.format(elem=_TRIANGLE_ELEM[itemsize])


def _zero_triangle(buf, n, count, upper):
    size = buf.dtype.itemsize
    k = _triangle_kernels.get(size)
    if k is None:
        k = _triangle_kernels[size] = cuarray.RawKernel(triangle_source(size), "cuarray_zero_triangle")
    rows = count * n
    k(((n + 255) // 256, min(rows, 65535)), (256,), (buf, numpy.int64(n), numpy.int64(rows),
                                                     numpy.int32(1 if upper else 0)))


# ----------------------------------------------------------------------------- QR
def qr(a, mode="reduced"):
    """QR decomposition (cuarray version of `numpy.linalg.qr`); every mode of NumPy.

    Does not synchronise: Householder QR cannot fail.
    """
    if mode not in ("reduced", "complete", "r", "raw"):
        import warnings
        if mode in ("f", "full"):
            warnings.warn("The 'full' option is deprecated in favor of 'reduced'.\n"
                          "For backward compatibility let mode default.",
                          DeprecationWarning, stacklevel=2)
            mode = "reduced"
        elif mode in ("e", "economic"):
            warnings.warn("The 'economic' option is deprecated.", DeprecationWarning,
                          stacklevel=2)
            mode = "economic"
        else:
            raise ValueError(f"Unrecognized mode '{mode}'")
    a = as_array(a, "linalg.qr")
    assert_stacked_2d(a)
    dt = common_type(a)
    m, n, k, batch, count = _dims(a)
    if count == 0 or k == 0:
        return _qr_empty(batch, m, n, k, dt, mode)
    buf = _colmajor_copy(a, dt)          # (..., n, m): column-major A
    tau = cuarray.empty(batch + (k,), dtype=dt)
    s = _cusolver.get_solver()
    t = CUDA_DTYPE[dt]
    step = m * n * dt.itemsize
    info = cuarray.empty(1, dtype=numpy.int32)
    dsize, hsize = _dn.xgeqrf_buffer_size(s.ptr, s.params, m, n, t, buf.data.ptr, m, t,
                                          tau.data.ptr, t)
    ws = _device_workspace(dsize)
    hws, hptr = _host_workspace(hsize)
    for i in range(count):
        _dn.xgeqrf(s.ptr, s.params, m, n, t, buf.data.ptr + i * step, m, t,
                   tau.data.ptr + i * k * dt.itemsize, t, ws.data.ptr, dsize, hptr, hsize,
                   info.data.ptr)
    _release_host_workspace(hsize)
    if mode == "raw":
        return buf, tau
    h = buf.swapaxes(-1, -2)             # (..., m, n): the factored A
    if mode == "economic":
        return h
    if mode == "r":
        return cuarray.triu(h[..., :k, :])
    r = cuarray.triu(h if mode == "complete" else h[..., :k, :])
    if m > n and mode == "complete":
        q = cuarray.zeros(batch + (m, m), dtype=dt)
        q[..., :n, :] = buf
    elif m > n:
        q = buf                          # Q (m x n) overwrites the reflectors
    else:
        q = cuarray.ascontiguousarray(buf[..., :m, :])
    qcols = q.shape[-2]
    orgqr = _fn("{}orgqr", dt, "{}ungqr")
    lwork = _fn("{}orgqr_buffer_size", dt, "{}ungqr_buffer_size")(
        s.ptr, m, qcols, k, q.data.ptr, m, tau.data.ptr)
    work = cuarray.empty(max(lwork, 1), dtype=dt)
    qstep = m * qcols * dt.itemsize
    for i in range(count):
        orgqr(s.ptr, m, qcols, k, q.data.ptr + i * qstep, m,
              tau.data.ptr + i * k * dt.itemsize, work.data.ptr, lwork, info.data.ptr)
    return QRResult(q.swapaxes(-1, -2), r)


def _qr_empty(batch, m, n, k, dt, mode):
    if mode == "raw":
        return cuarray.zeros(batch + (n, m), dtype=dt), cuarray.zeros(batch + (k,), dtype=dt)
    if mode == "economic":
        return cuarray.zeros(batch + (m, n), dtype=dt)
    rows = m if mode == "complete" else k
    r = cuarray.zeros(batch + (rows, n), dtype=dt)
    if mode == "r":
        return r
    q = cuarray.ascontiguousarray(
        cuarray.broadcast_to(cuarray.eye(m, rows, dtype=dt), batch + (m, rows)))
    return QRResult(q, r)


# ----------------------------------------------------------------------------- SVD
def svd_algorithm(dtype, k, compute_uv):
    """The cuSOLVER routine for a single matrix of `dtype`, min(m, n) = k.

    Measured on an H100, 1024 x 1024 float64 (CuPy, which uses gesvd: 130-138 ms with
    vectors, 82 ms without): Xgesvdp (polar decomposition) 38 ms with vectors; gesvdj
    (Jacobi) 88 / 87 ms; Xgesvd 137-142 / 78 ms. gesvdp takes matrices from k = 256 (its
    fixed cost: 3.3 ms at 64 x 64), gesvdj double-precision ones from k = 64 (its
    single-precision singular values were 5x less accurate than gesvd's), Xgesvd the rest
    and every call without vectors. $CUARRAY_SVD_ALGO ('gesvd', 'gesvdj' or 'gesvdp')
    overrides the choice.
    """
    algo = os.environ.get("CUARRAY_SVD_ALGO")
    if algo is None:
        if not compute_uv:
            return "gesvd"
        if k >= 256:
            return "gesvdp"
        return "gesvdj" if dtype.char in "dD" and k >= 64 else "gesvd"
    if algo not in ("gesvdj", "gesvd", "gesvdp"):
        raise ValueError(f"CUARRAY_SVD_ALGO={algo!r}: expected 'gesvdj', 'gesvd' or 'gesvdp'")
    return algo


def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    """Singular value decomposition (cuarray version of `numpy.linalg.svd`).

    Single matrices use the routine `svd_algorithm` picks; stacks of matrices up to
    32 x 32 use gesvdjBatched. Synchronises to check convergence.
    """
    a = as_array(a, "linalg.svd")
    assert_stacked_2d(a)
    if hermitian:
        return _svd_hermitian(a, compute_uv)
    dt = common_type(a)
    rdt = real_dtype(dt)
    m, n, k, batch, count = _dims(a)
    if count == 0 or k == 0:
        s = cuarray.zeros(batch + (k,), dtype=rdt)
        if not compute_uv:
            return s
        eye = lambda r, c: cuarray.ascontiguousarray(  # noqa: E731
            cuarray.broadcast_to(cuarray.eye(r, c, dtype=dt), batch + (r, c)))
        return SVDResult(eye(m, m if full_matrices else k), s, eye(n if full_matrices else k, n))
    if count > 1 and m <= _SMALL and n <= _SMALL:
        u, s, vh = _gesvdj_batched(a, dt, rdt, compute_uv)
    else:
        algo = svd_algorithm(dt, k, compute_uv)
        if algo == "gesvdp" and not compute_uv:
            algo = "gesvd"                  # gesvdp computes vectors in any case
        u, s, vh = _svd_loop(a, dt, rdt, full_matrices, compute_uv, algo)
        if s is None:                       # gesvdp perturbed the matrix: redo it exactly
            u, s, vh = _svd_loop(a, dt, rdt, full_matrices, compute_uv, "gesvdj")
    if not compute_uv:
        return s
    if not full_matrices:
        u, vh = u[..., :, :k], vh[..., :k, :]
    return SVDResult(u, s, vh)


def _svd_loop(a, dt, rdt, full, uv, algo):
    """SVD of each matrix of the stack, on a tall (M >= N) column-major copy."""
    m, n = a.shape[-2:]
    batch = a.shape[:-2]
    count = prod(batch)
    tall = m >= n
    # Column-major A when tall, else the C-ordered copy: column-major A^T.
    buf = _colmajor_copy(a, dt) if tall else _c_copy(a, dt)
    M, N = (m, n) if tall else (n, m)
    K = N
    ucols = M if full else K
    s = cuarray.empty(batch + (K,), dtype=rdt)
    u = cuarray.empty(batch + (ucols, M), dtype=dt) if uv else None
    v = cuarray.empty(batch + (N, N), dtype=dt) if uv else None
    info = cuarray.zeros(count, dtype=numpy.int32)
    sol = _cusolver.get_solver()
    t, ts = CUDA_DTYPE[dt], CUDA_DTYPE[rdt]
    isz = dt.itemsize
    ptr = lambda x, i, size: 0 if x is None else x.data.ptr + i * size * isz  # noqa: E731
    if algo == "gesvd":
        jobu = ord("N") if not uv else ord("A") if full else ord("S")
        jobvt = ord("A") if uv else ord("N")
        dsize, hsize = _dn.xgesvd_buffer_size(
            sol.ptr, sol.params, jobu, jobvt, M, N, t, buf.data.ptr, M, ts, s.data.ptr, t,
            ptr(u, 0, 0), M, t, ptr(v, 0, 0), N, t)
        ws = _device_workspace(dsize)
        hws, hptr = _host_workspace(hsize)
        for i in range(count):
            _dn.xgesvd(sol.ptr, sol.params, jobu, jobvt, M, N, t, buf.data.ptr + i * M * N * isz,
                       M, ts, s.data.ptr + i * K * rdt.itemsize, t, ptr(u, i, ucols * M), M,
                       t, ptr(v, i, N * N), N, t, ws.data.ptr, dsize, hptr, hsize,
                       info.data.ptr + 4 * i)
    elif algo == "gesvdp":
        sol = _cusolver.get_solver("gesvdp")
        econ = int(not full)
        dsize, hsize = _dn.xgesvdp_buffer_size(
            sol.ptr, sol.params, EIG_VECTOR, econ, M, N, t, buf.data.ptr, M, ts, s.data.ptr, t,
            ptr(u, 0, 0), M, t, ptr(v, 0, 0), N, t)
        ws = _device_workspace(dsize)
        hws, hptr = _host_workspace(hsize)
        perturbed = False
        for i in range(count):
            # The return value is the size of the perturbation gesvdp applied (0: none).
            perturbed |= _dn.xgesvdp(
                sol.ptr, sol.params, EIG_VECTOR, econ, M, N, t, buf.data.ptr + i * M * N * isz, M,
                ts, s.data.ptr + i * K * rdt.itemsize, t, ptr(u, i, ucols * M), M, t,
                ptr(v, i, N * N), N, t, ws.data.ptr, dsize, hptr, hsize, info.data.ptr + 4 * i) > 0
        if perturbed:
            return None, None, None
    else:
        jobz, econ = (EIG_VECTOR if uv else EIG_NOVECTOR), int(not full)
        if not uv:
            # gesvdj without vectors still touches U and V: on an H100 null pointers gave
            # EXECUTION_FAILED and an illegal address. Give it scratch ones.
            u = cuarray.empty(batch + (ucols, M), dtype=dt)
            v = cuarray.empty(batch + (N, N), dtype=dt)
        fn = _fn("{}gesvdj", dt)
        lwork = _fn("{}gesvdj_buffer_size", dt)(
            sol.ptr, jobz, econ, M, N, buf.data.ptr, M, s.data.ptr, ptr(u, 0, 0), M,
            ptr(v, 0, 0), N, sol.gesvdj)
        work = cuarray.empty(max(lwork, 1), dtype=dt)
        for i in range(count):
            fn(sol.ptr, jobz, econ, M, N, buf.data.ptr + i * M * N * isz, M,
               s.data.ptr + i * K * rdt.itemsize, ptr(u, i, ucols * M), M, ptr(v, i, N * N), N,
               work.data.ptr, lwork, info.data.ptr + 4 * i, sol.gesvdj)
    _check(info, "SVD did not converge")
    if not uv:
        return None, s, None
    # u: U_t (M x ucols), v: V_t (N x N) (gesvd: V_t^H), both column-major.
    v_is_vh = algo == "gesvd"
    if tall:
        uu = u.swapaxes(-1, -2)
        vh = v.swapaxes(-1, -2) if v_is_vh else _conj(v)
    else:
        # A = conj(V_t) S U_t^T
        vh = u
        uu = v if v_is_vh else _conj(v).swapaxes(-1, -2)
    return uu, s, vh


def _gesvdj_batched(a, dt, rdt, uv):
    """gesvdjBatched on the C-ordered copy (column-major A^T): any shape up to 32 x 32."""
    m, n = a.shape[-2:]
    batch = a.shape[:-2]
    count = prod(batch)
    M, N = n, m
    buf = _c_copy(a, dt)
    s = cuarray.empty(batch + (min(m, n),), dtype=rdt)
    u = cuarray.empty(batch + (M, M), dtype=dt)
    v = cuarray.empty(batch + (N, N), dtype=dt)
    info = cuarray.zeros(count, dtype=numpy.int32)
    sol = _cusolver.get_solver()
    jobz = EIG_VECTOR if uv else EIG_NOVECTOR
    lwork = _fn("{}gesvdj_batched_buffer_size", dt)(
        sol.ptr, jobz, M, N, buf.data.ptr, M, s.data.ptr, u.data.ptr, M, v.data.ptr, N,
        sol.gesvdj, count)
    work = cuarray.empty(max(lwork, 1), dtype=dt)
    _fn("{}gesvdj_batched", dt)(sol.ptr, jobz, M, N, buf.data.ptr, M, s.data.ptr, u.data.ptr,
                                M, v.data.ptr, N, work.data.ptr, lwork, info.data.ptr,
                                sol.gesvdj, count)
    _check(info, "SVD did not converge")
    if not uv:
        return None, s, None
    return _conj(v).swapaxes(-1, -2), s, u


def _svd_hermitian(a, compute_uv):
    assert_stacked_square(a)
    if not compute_uv:
        s = cuarray.abs(eigvalsh(a))
        return cuarray.sort(s, axis=-1)[..., ::-1]
    w, v = eigh(a)
    sgn = cuarray.sign(w)
    s = cuarray.abs(w)
    idx = cuarray.argsort(s, axis=-1)[..., ::-1]
    s = cuarray.take_along_axis(s, idx, axis=-1)
    sgn = cuarray.take_along_axis(sgn, idx, axis=-1)
    u = cuarray.take_along_axis(v, idx[..., None, :], axis=-1)
    vh = _conj((u * sgn[..., None, :]).swapaxes(-1, -2))
    return SVDResult(u, s, vh)


def svdvals(x, /):
    """Singular values (cuarray version of `numpy.linalg.svdvals`)."""
    return svd(x, compute_uv=False)
