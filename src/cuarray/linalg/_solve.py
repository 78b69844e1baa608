"""Decompositions and solvers on cuSOLVER (cuarray versions of numpy.linalg.solve, inv,
cholesky, qr, svd, eigh, eigvalsh, eig, eigvals, pinv, lstsq, tensorsolve, tensorinv).

cuSOLVER works on column-major matrices. A C-ordered copy of A is, read column-major,
A^T; the routines below use that wherever the transpose costs nothing (LU, Cholesky,
Hermitian eigenproblems) and make a transposing copy elsewhere. Stacks of many small
matrices go to the batched APIs (cuBLAS getrf/getrsBatched, potrfBatched, syevjBatched,
gesvdjBatched); larger ones loop over the stack on one workspace.

Failures NumPy reports (a singular matrix, a matrix that is not positive definite, no
convergence) raise `numpy.linalg.LinAlgError`: reading cuSOLVER's `info` array is the one
synchronisation these routines make. QR never fails and does not synchronise.
"""
import os
from typing import NamedTuple

import numpy

import cuarray
from cuarray._libs import cublas as _cublas
from cuarray._libs import cusolver as _cusolver
from cuarray._libs.cublas import CUDA_DTYPE, FILL_LOWER, FILL_UPPER, OP_N, OP_T
from cuarray._libs.cusolver import EIG_NOVECTOR, EIG_VECTOR
from cuarray._core._copy import copy_into as _copy_into
from cuarray._runtime import pinned as _pinned
from cuarray._runtime.stream import current_stream_ptr, get_current_stream
from cuarray.linalg._products import broadcast_batch, matmul
from cuarray.linalg._util import (
    LinAlgError, as_array, assert_2d, assert_stacked_2d, assert_stacked_square, common_type,
    prod, real_dtype)

_blas = _cublas.lib
_dn = _cusolver.lib
# Matrices up to this order go to the batched APIs when there are several of them.
_SMALL = 32
_INT32_MAX = 2**31 - 1
_PREFIX = {"f": "s", "d": "d", "F": "c", "D": "z"}


class EigResult(NamedTuple):
    eigenvalues: object
    eigenvectors: object


class EighResult(NamedTuple):
    eigenvalues: object
    eigenvectors: object


class QRResult(NamedTuple):
    Q: object
    R: object


class SVDResult(NamedTuple):
    U: object
    S: object
    Vh: object


def _fn(name, dt, complex_name=None):
    """The typed cuSOLVER/cuBLAS function `name` ('{}getrf_batched', ...) for dtype dt."""
    if complex_name is not None and dt.kind == "c":
        name = complex_name
    fn = getattr(_dn, name.format(_PREFIX[dt.char]), None)
    return fn if fn is not None else getattr(_blas, name.format(_PREFIX[dt.char]))


def _c_copy(x, dt):
    """A fresh C-ordered copy: each matrix, read column-major, is the transpose of x's."""
    return x.astype(dt, order="C", copy=True)


def _colmajor_copy(x, dt):
    """A fresh copy whose matrices, read column-major, are x's."""
    return x.swapaxes(-1, -2).astype(dt, order="C", copy=True)


def _pointers(buf, count, step):
    """Device array of the addresses of `count` matrices `step` bytes apart in `buf`."""
    return cuarray.arange(count, dtype=numpy.int64) * step + buf.data.ptr


def _device_workspace(nbytes):
    return cuarray.empty(max(int(nbytes), 1), dtype=numpy.uint8)


def _host_workspace(nbytes):
    buf = numpy.empty(max(int(nbytes), 1), dtype=numpy.uint8)
    return buf, buf.ctypes.data


def _release_host_workspace(hsize):
    """Callers that do not synchronise wait here before their host workspace is freed,
    in case cuSOLVER still reads it (the 64-bit API asks for none for LU and QR today)."""
    if hsize:
        get_current_stream().synchronize()


def _check(info, message):
    """Raise LinAlgError(message) where cuSOLVER reported a failure (synchronises)."""
    _check_fetched(_fetch_info(info), message)


def _fetch_info(info):
    """Queue the copy of cuSOLVER's info array into pinned host memory. `_check_fetched`
    waits for this copy alone, so work queued after it (getrs after getrf, zeroing the other
    triangle after potrf) keeps the GPU busy while the host reads the result."""
    host = _pinned.alloc_pinned_memory(info.nbytes)
    sp = current_stream_ptr()
    _pinned.check(_pinned._drv().cuMemcpyDtoHAsync(host.ptr, info.data.ptr, info.nbytes, sp))
    return host, _pinned._record(sp), info.size


def _check_fetched(fetched, message):
    host, event, n = fetched
    event.synchronize()
    h = host.as_numpy(4 * n).view(numpy.int32)
    if n and h.min() < 0:
        raise RuntimeError(f"cuSOLVER rejected argument {-int(h.min())} (a cuarray bug)")
    if n and h.max() > 0:
        raise LinAlgError(message)


def _square_stack(a, name):
    a = as_array(a, name)
    assert_stacked_2d(a)
    assert_stacked_square(a)
    return a


# ----------------------------------------------------------------------------- LU
def lu_factor(buf, n, count, dt):
    """LU with partial pivoting of `count` column-major n x n matrices in `buf`, in place.

    Returns (ipiv, info, pointer array or None); ipiv is 1-based, int32 from the batched
    and 32-bit APIs, int64 from the 64-bit one (matrices of 2^31 elements or more).
    """
    info = cuarray.zeros(count, dtype=numpy.int32)
    step = n * n * dt.itemsize
    if count > 1 and n <= _SMALL:
        ptrs = _pointers(buf, count, step)
        ipiv = cuarray.empty((count, n), dtype=numpy.int32)
        _fn("{}getrf_batched", dt)(_cublas.get_handle(), n, ptrs.data.ptr, n, ipiv.data.ptr,
                                   info.data.ptr, count)
        return ipiv, info, ptrs
    s = _cusolver.get_solver()
    if n * n <= _INT32_MAX:
        # The 32-bit API: its getrs is faster than Xgetrs (4096² float64 on an H100: 1.32
        # against 1.56 ms; getrf 14.2 ms either way), and CuPy uses it.
        ipiv = cuarray.empty((count, n), dtype=numpy.int32)
        lwork = _fn("{}getrf_buffer_size", dt)(s.ptr, n, n, buf.data.ptr, n)
        ws = cuarray.empty(max(lwork, 1), dtype=dt)
        getrf = _fn("{}getrf", dt)
        for i in range(count):
            getrf(s.ptr, n, n, buf.data.ptr + i * step, n, ws.data.ptr, ipiv.data.ptr + i * n * 4,
                  info.data.ptr + 4 * i)
        return ipiv, info, None
    t = CUDA_DTYPE[dt]
    ipiv = cuarray.empty((count, n), dtype=numpy.int64)
    dsize, hsize = _dn.xgetrf_buffer_size(s.ptr, s.params, n, n, t, buf.data.ptr, n, t)
    ws = _device_workspace(dsize)
    hws, hptr = _host_workspace(hsize)
    for i in range(count):
        _dn.xgetrf(s.ptr, s.params, n, n, t, buf.data.ptr + i * step, n,
                   ipiv.data.ptr + i * n * 8, t, ws.data.ptr, dsize, hptr, hsize,
                   info.data.ptr + 4 * i)
    _release_host_workspace(hsize)
    return ipiv, info, None


def _lu_solve(buf, ipiv, ptrs, b, n, nrhs, count, dt, trans):
    """Solve op(M_i) X_i = B_i in place in `b` (count column-major n x nrhs matrices)."""
    step_b = n * nrhs * dt.itemsize
    if ptrs is not None:
        bptrs = _pointers(b, count, step_b)
        host_info = numpy.zeros(1, dtype=numpy.int32)
        _fn("{}getrs_batched", dt)(_cublas.get_handle(), trans, n, nrhs, ptrs.data.ptr, n,
                                   ipiv.data.ptr, bptrs.data.ptr, n, host_info.ctypes.data,
                                   count)
        if host_info[0] < 0:
            raise RuntimeError(f"cuBLAS getrsBatched rejected argument {-host_info[0]}")
        return
    s = _cusolver.get_solver()
    info = cuarray.zeros(1, dtype=numpy.int32)
    step_a = n * n * dt.itemsize
    if ipiv.dtype == numpy.int32:
        getrs = _fn("{}getrs", dt)
        for i in range(count):
            getrs(s.ptr, trans, n, nrhs, buf.data.ptr + i * step_a, n, ipiv.data.ptr + i * n * 4,
                  b.data.ptr + i * step_b, n, info.data.ptr)
        return
    t = CUDA_DTYPE[dt]
    for i in range(count):
        _dn.xgetrs(s.ptr, s.params, trans, n, nrhs, t, buf.data.ptr + i * step_a, n,
                   ipiv.data.ptr + i * n * 8, t, b.data.ptr + i * step_b, n, info.data.ptr)


def solve(a, b):
    """Solve a @ x = b (cuarray version of `numpy.linalg.solve`).

    As in NumPy 2, `b` is a vector only when it is 1-D; stacks broadcast. Synchronises to
    check for a singular matrix.
    """
    a = _square_stack(a, "linalg.solve")
    b = as_array(b, "linalg.solve")
    dt = common_type(a, b)
    n = a.shape[-1]
    vector = b.ndim == 1
    b2 = b[:, None] if vector else b
    if b2.ndim < 2 or b2.shape[-2] != n:
        got = b2.shape[-2] if b2.ndim >= 2 else b2.ndim
        raise ValueError(f"solve: Input operand 1 has a mismatch in its core dimension 0, with "
                         f"gufunc signature (m,m),(m,n)->(m,n) (size {got} is different from "
                         f"{n})")
    batch = broadcast_batch(a.shape[:-2], b2.shape[:-2], "solve")
    nrhs = b2.shape[-1]
    count = prod(batch)
    out_shape = batch + ((n,) if vector else (n, nrhs))
    if count == 0 or n == 0 or nrhs == 0:
        return cuarray.empty(out_shape, dtype=dt)
    abuf = _c_copy(cuarray.broadcast_to(a, batch + (n, n)), dt)
    bbuf = _colmajor_copy(cuarray.broadcast_to(b2, batch + (n, nrhs)), dt)
    ipiv, info, ptrs = lu_factor(abuf, n, count, dt)
    fetched = _fetch_info(info)
    # abuf holds A^T: solve (A^T)^T X = B.
    _lu_solve(abuf, ipiv, ptrs, bbuf, n, nrhs, count, dt, OP_T)
    _check_fetched(fetched, "Singular matrix")
    x = bbuf.swapaxes(-1, -2)
    return x[..., 0] if vector else x


def inv(a):
    """Inverse of a matrix or a stack (cuarray version of `numpy.linalg.inv`).

    Synchronises to check for a singular matrix.
    """
    return _inv(_square_stack(a, "linalg.inv"), check=True)


def _inv(a, check):
    dt = common_type(a)
    n = a.shape[-1]
    if a.size == 0:
        return cuarray.empty(a.shape, dtype=dt)
    count = prod(a.shape[:-2])
    abuf = _c_copy(a, dt)
    ipiv, info, ptrs = lu_factor(abuf, n, count, dt)
    fetched = _fetch_info(info) if check else None
    x = cuarray.ascontiguousarray(
        cuarray.broadcast_to(cuarray.eye(n, dtype=dt), a.shape[:-2] + (n, n)))
    # abuf holds A^T; X = (A^T)^-1 column-major is A^-1 row-major.
    _lu_solve(abuf, ipiv, ptrs, x, n, n, count, dt, OP_N)
    if check:
        _check_fetched(fetched, "Singular matrix")
    return x


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
    m, n = a.shape[-2:]
    k = min(m, n)
    batch = a.shape[:-2]
    count = prod(batch)
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
    m, n = a.shape[-2:]
    k = min(m, n)
    batch = a.shape[:-2]
    count = prod(batch)
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


def _conj(x):
    return cuarray.conj(x) if x.dtype.kind == "c" else x


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


# ----------------------------------------------------------------------------- eigh
def eigh(a, UPLO="L"):
    """Eigenvalues (ascending) and eigenvectors of a Hermitian matrix or stack (cuarray
    version of `numpy.linalg.eigh`). Synchronises to check convergence."""
    w, v = _eigh(_square_stack(a, "linalg.eigh"), UPLO, True)
    return EighResult(w, v)


def eigvalsh(a, UPLO="L"):
    """Eigenvalues (ascending) of a Hermitian matrix or stack (cuarray version of
    `numpy.linalg.eigvalsh`). Synchronises to check convergence."""
    return _eigh(_square_stack(a, "linalg.eigvalsh"), UPLO, False)[0]


def _eigh(a, UPLO, vectors):
    UPLO = str(UPLO).upper()
    if UPLO not in ("L", "U"):
        raise ValueError("UPLO argument must be 'L' or 'U'")
    dt = common_type(a)
    rdt = real_dtype(dt)
    n = a.shape[-1]
    batch = a.shape[:-2]
    count = prod(batch)
    if a.size == 0:
        return cuarray.empty(batch + (n,), dtype=rdt), cuarray.empty(a.shape, dtype=dt)
    # buf read column-major is A^T = conj(A): A's lower triangle is its upper one, and its
    # eigenvectors are the conjugates of A's.
    uplo = FILL_UPPER if UPLO == "L" else FILL_LOWER
    w = cuarray.empty(batch + (n,), dtype=rdt)
    info = cuarray.zeros(count, dtype=numpy.int32)
    s = _cusolver.get_solver()
    jobz = EIG_VECTOR if vectors else EIG_NOVECTOR
    step = n * n * dt.itemsize
    if count > 1 and n <= _SMALL:
        buf = _c_copy(a, dt)
        size_fn = _fn("{}syevj_batched_buffer_size", dt, "{}heevj_batched_buffer_size")
        lwork = size_fn(s.ptr, jobz, uplo, n, buf.data.ptr, n, w.data.ptr, s.syevj, count)
        work = cuarray.empty(max(lwork, 1), dtype=dt)
        _fn("{}syevj_batched", dt, "{}heevj_batched")(
            s.ptr, jobz, uplo, n, buf.data.ptr, n, w.data.ptr, work.data.ptr, lwork,
            info.data.ptr, s.syevj, count)
    else:
        # Workspaces first, then the copy: syevd follows the copy on the GPU without a gap.
        buf = cuarray.empty(a.shape, dtype=dt)
        t, tw = CUDA_DTYPE[dt], CUDA_DTYPE[rdt]
        dsize, hsize = _dn.xsyevd_buffer_size(s.ptr, s.params, jobz, uplo, n, t, buf.data.ptr,
                                              n, tw, w.data.ptr, t)
        ws = _device_workspace(dsize)
        hws, hptr = _host_workspace(hsize)
        _copy_into(buf, a)
        for i in range(count):
            _dn.xsyevd(s.ptr, s.params, jobz, uplo, n, t, buf.data.ptr + i * step, n, tw,
                       w.data.ptr + i * n * rdt.itemsize, t, ws.data.ptr, dsize, hptr, hsize,
                       info.data.ptr + 4 * i)
    _check(info, "Eigenvalues did not converge")
    if not vectors:
        return w, None
    return w, _conj(buf).swapaxes(-1, -2)


# ----------------------------------------------------------------------------- eig
_EIGVEC_SOURCE = r"""
typedef {real} R;
// Complex eigenvectors from LAPACK's real packing: for a pair w_j, w_j+1 = conj(w_j)
// with Im(w_j) > 0, v_j = VR(:,j) + i VR(:,j+1) and v_j+1 = conj(v_j).
extern "C" __global__ void cuarray_eig_vectors(const R* vr, const R* w, R* v,
                                               long long n, long long total)
{{
    for (long long idx = blockIdx.x * (long long)blockDim.x + threadIdx.x; idx < total;
         idx += (long long)gridDim.x * blockDim.x) {{
        const long long nn = n * n, b = idx / nn, rem = idx - b * nn;
        const long long i = rem / n, j = rem - i * n;
        const R* V = vr + b * nn;
        const R wi = w[2 * (b * n + j) + 1];
        R re, im;
        if (wi > 0) {{ re = V[j * n + i]; im = V[(j + 1) * n + i]; }}
        else if (wi < 0) {{ re = V[(j - 1) * n + i]; im = -V[j * n + i]; }}
        else {{ re = V[j * n + i]; im = R(0); }}
        v[2 * idx] = re;
        v[2 * idx + 1] = im;
    }}
}}
"""
_eigvec_kernels = {}


def eigvec_source(real_dt):
    return _EIGVEC_SOURCE.format(real="float" if real_dt.itemsize == 4 else "double")


def _assemble_eigenvectors(vr, w, cdt):
    rdt = vr.dtype
    k = _eigvec_kernels.get(rdt)
    if k is None:
        k = _eigvec_kernels[rdt] = cuarray.RawKernel(eigvec_source(rdt), "cuarray_eig_vectors")
    n = vr.shape[-1]
    v = cuarray.empty(vr.shape, dtype=cdt)
    total = v.size
    k((min((total + 255) // 256, 65535),), (256,), (vr, w, v, n, total))
    return v


def eig(a):
    """Eigenvalues and right eigenvectors of a general matrix or stack (cuarray version of
    `numpy.linalg.eig`), through cuSOLVER's Xgeev (CUDA 12.6 or newer).

    As NumPy, a real input gives real results when every eigenvalue is real and complex
    ones otherwise: deciding that reads the eigenvalues' imaginary parts (a
    synchronisation, besides the convergence check). CuPy always returns complex.
    """
    w, v = _geev(_square_stack(a, "linalg.eig"), True)
    return EigResult(w, v)


def eigvals(a):
    """Eigenvalues of a general matrix or stack (cuarray version of
    `numpy.linalg.eigvals`); real when all are real for a real input, as NumPy."""
    return _geev(_square_stack(a, "linalg.eigvals"), False)[0]


def _geev(a, vectors):
    dt = common_type(a)
    cdt = numpy.dtype(dt.char.upper())
    n = a.shape[-1]
    batch = a.shape[:-2]
    count = prod(batch)
    if a.size == 0:
        return cuarray.empty(batch + (n,), dtype=dt), cuarray.empty(a.shape, dtype=dt)
    buf = _colmajor_copy(a, dt)
    w = cuarray.empty(batch + (n,), dtype=cdt)
    vr = cuarray.empty(a.shape, dtype=dt) if vectors else None
    info = cuarray.zeros(count, dtype=numpy.int32)
    s = _cusolver.get_solver()
    t, tw = CUDA_DTYPE[dt], CUDA_DTYPE[cdt]
    jobvr = EIG_VECTOR if vectors else EIG_NOVECTOR
    vptr = 0 if vr is None else vr.data.ptr
    step = n * n * dt.itemsize
    try:
        dsize, hsize = _dn.xgeev_buffer_size(s.ptr, s.params, EIG_NOVECTOR, jobvr, n, t,
                                             buf.data.ptr, n, tw, w.data.ptr, t, 0, 1, t,
                                             vptr, n, t)
        ws = _device_workspace(dsize)
        hws, hptr = _host_workspace(hsize)
        for i in range(count):
            _dn.xgeev(s.ptr, s.params, EIG_NOVECTOR, jobvr, n, t, buf.data.ptr + i * step, n,
                      tw, w.data.ptr + i * n * cdt.itemsize, t, 0, 1, t,
                      vptr + i * step if vectors else 0, n, t, ws.data.ptr, dsize, hptr, hsize,
                      info.data.ptr + 4 * i)
    except _cusolver.missing_function_error() as e:
        raise RuntimeError("cuarray.linalg.eig needs cuSOLVER's Xgeev, which the loaded "
                           "cuSOLVER lacks: install CUDA 12.6 or newer libraries "
                           "(pip install cuarray[cu12] or cuarray[cu13])") from e
    _check(info, "Eigenvalues did not converge")
    if dt.kind == "f" and not bool(cuarray.any(w.imag != 0)):
        w = cuarray.ascontiguousarray(w.real)
        return w, None if vr is None else vr.swapaxes(-1, -2)
    if vr is None:
        return w, None
    if dt.kind == "f":
        return w, _assemble_eigenvectors(vr, w, cdt)
    return w, vr.swapaxes(-1, -2)


# ----------------------------------------------------------------------------- solvers on top
_NoValue = object()


def pinv(a, rcond=None, hermitian=False, *, rtol=_NoValue):
    """Moore-Penrose pseudo-inverse through the SVD (cuarray version of
    `numpy.linalg.pinv`)."""
    a = as_array(a, "linalg.pinv")
    assert_stacked_2d(a)
    dt = common_type(a)
    if rcond is None:
        if rtol is _NoValue:
            rcond = 1e-15
        elif rtol is None:
            rcond = max(a.shape[-2:]) * numpy.finfo(dt).eps
        else:
            rcond = rtol
    elif rtol is not _NoValue:
        raise ValueError("`rtol` and `rcond` can't be both set.")
    m, n = a.shape[-2:]
    if m == 0 or n == 0 or a.size == 0:
        return cuarray.empty(a.shape[:-2] + (n, m), dtype=dt)
    u, s, vh = svd(_conj(a.astype(dt, copy=False)), full_matrices=False, hermitian=hermitian)
    if isinstance(rcond, cuarray.ndarray):
        rcond = rcond[..., None]
    cutoff = rcond * cuarray.max(s, axis=-1, keepdims=True)
    s_inv = cuarray.where(s > cutoff, 1 / s, 0).astype(s.dtype, copy=False)
    return matmul(vh.swapaxes(-1, -2), s_inv[..., None] * u.swapaxes(-1, -2))


def lstsq(a, b, rcond=None):
    """Least-squares solution of a @ x = b through the SVD (cuarray version of
    `numpy.linalg.lstsq`).

    Returns (x, residuals, rank, s) as NumPy, `rank` a Python int: reading it, which
    decides the residuals' shape, synchronises.
    """
    a = as_array(a, "linalg.lstsq")
    b = as_array(b, "linalg.lstsq")
    assert_2d(a)
    vector = b.ndim == 1
    b2 = b[:, None] if vector else b
    assert_2d(b2)
    m, n = a.shape
    if m != b2.shape[0]:
        raise LinAlgError("Incompatible dimensions")
    dt = common_type(a, b)
    rdt = real_dtype(dt)
    if rcond is None:
        rcond = numpy.finfo(rdt).eps * max(n, m)
    a = a.astype(dt, copy=False)
    b2 = b2.astype(dt, copy=False)
    nrhs = b2.shape[1]
    if m == 0 or n == 0:
        x = cuarray.zeros((n, nrhs), dtype=dt)
        s = cuarray.empty((0,), dtype=rdt)
        rank = 0
    else:
        u, s, vh = svd(a, full_matrices=False)
        mask = s > rcond * s[0]
        s_inv = cuarray.where(mask, 1 / s, 0).astype(rdt, copy=False)
        x = matmul(_conj(vh).swapaxes(-1, -2), s_inv[:, None] * matmul(_conj(u).T, b2))
        rank = int(cuarray.count_nonzero(mask))
    if rank == n and m > n:
        r = b2 - matmul(a, x)
        resids = cuarray.sum(cuarray.abs(r) ** 2, axis=0).astype(rdt, copy=False)
    else:
        resids = cuarray.empty((0,), dtype=rdt)
    if vector:
        x = x[:, 0]
    return x, resids, rank, s


def tensorsolve(a, b, axes=None):
    """Solve the tensor equation a x = b for x (cuarray version of
    `numpy.linalg.tensorsolve`)."""
    a = as_array(a, "linalg.tensorsolve")
    b = as_array(b, "linalg.tensorsolve")
    an = a.ndim
    if axes is not None:
        allaxes = list(range(an))
        for k in axes:
            allaxes.remove(k)
            allaxes.insert(an, k)
        a = a.transpose(allaxes)
    oldshape = a.shape[-(an - b.ndim):]
    p = prod(oldshape)
    if a.size != p ** 2:
        raise LinAlgError("Input arrays must satisfy the requirement "
                          "prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim])")
    x = solve(a.reshape(p, p), b.ravel())
    return x.reshape(oldshape)


def tensorinv(a, ind=2):
    """Inverse of an N-d array for tensordot (cuarray version of `numpy.linalg.tensorinv`)."""
    a = as_array(a, "linalg.tensorinv")
    if ind <= 0:
        raise ValueError("Invalid ind argument.")
    oldshape = a.shape
    invshape = oldshape[ind:] + oldshape[:ind]
    p = prod(oldshape[ind:])
    if a.size != p ** 2:
        raise LinAlgError("Input arrays must satisfy the requirement "
                          "prod(a.shape[ind:]) == prod(a.shape[:ind])")
    return inv(a.reshape(p, -1)).reshape(invshape)
