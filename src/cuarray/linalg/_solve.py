"""Solving equations and inverting (cuarray versions of numpy.linalg.solve, inv, pinv,
lstsq, tensorsolve, tensorinv), on LU from cuSOLVER (one matrix) or cuBLAS's batched
getrf/getrs (stacks of small ones). Shared pieces: `_lapack.py`."""

import numpy

import cuarray
from cuarray._libs import cublas as _cublas
from cuarray._libs import cusolver as _cusolver
from cuarray._libs.cublas import CUDA_DTYPE, OP_N, OP_T
from cuarray.linalg._products import broadcast_batch, matmul
from cuarray.linalg._util import (
    LinAlgError, as_array, assert_2d, assert_stacked_2d, common_type, prod, real_dtype)
from cuarray.linalg._lapack import (
    _INT32_MAX, _SMALL, _c_copy, _check_fetched, _colmajor_copy, _conj, _device_workspace, _dn,
    _fetch_info, _fn, _host_workspace, _pointers, _release_host_workspace, _square_stack)
from cuarray.linalg._decompositions import svd


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
