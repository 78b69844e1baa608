"""Eigenvalues and eigenvectors on cuSOLVER (cuarray versions of numpy.linalg.eigh,
eigvalsh, eig, eigvals): syevd/syevjBatched for Hermitian matrices, geev for general
ones. Shared pieces: `_lapack.py`."""
from typing import NamedTuple

import numpy

import cuarray
from cuarray._libs import cusolver as _cusolver
from cuarray._libs.cublas import CUDA_DTYPE, FILL_LOWER, FILL_UPPER
from cuarray._libs.cusolver import EIG_NOVECTOR, EIG_VECTOR
from cuarray._core._copy import copy_into as _copy_into
from cuarray.linalg._util import common_type, prod, real_dtype

from cuarray.linalg._lapack import (
    _SMALL, _c_copy, _check, _colmajor_copy, _conj, _device_workspace, _dn, _fn,
    _host_workspace, _square_stack)


class EighResult(NamedTuple):
    eigenvalues: object
    eigenvectors: object


class EigResult(NamedTuple):
    eigenvalues: object
    eigenvectors: object


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
