"""What every cuSOLVER and cuBLAS call of cuarray.linalg shares: the typed function for a
dtype, column-major copies, pointer arrays for batched APIs, workspaces, and the `info`
check.

cuSOLVER works on column-major matrices. A C-ordered copy of A is, read column-major,
A^T; the routines use that wherever the transpose costs nothing (LU, Cholesky, Hermitian
eigenproblems) and make a transposing copy elsewhere. Failures NumPy reports (a singular
matrix, a matrix that is not positive definite, no convergence) raise
`numpy.linalg.LinAlgError`: reading cuSOLVER's `info` array is the one synchronisation the
routines make.
"""

import numpy

import cuarray
from cuarray._libs import cublas as _cublas
from cuarray._libs import cusolver as _cusolver
from cuarray._runtime import pinned as _pinned
from cuarray._runtime.stream import current_stream_ptr, get_current_stream
from cuarray.linalg._util import LinAlgError, as_array, assert_stacked_2d, assert_stacked_square



_blas = _cublas.lib
_dn = _cusolver.lib
# Matrices up to this order go to the batched APIs when there are several of them.
_SMALL = 32
_INT32_MAX = 2**31 - 1
_PREFIX = {"f": "s", "d": "d", "F": "c", "D": "z"}



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

def _conj(x):
    return cuarray.conj(x) if x.dtype.kind == "c" else x
