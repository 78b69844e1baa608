"""cuBLAS handles: one per (device, thread), bound to the current stream at every use
(_handles.py).

`CUARRAY_TF32=1` lets float32 GEMMs use TF32 tensor cores (about 8x faster, 10-bit
mantissa products); without it float32 is computed in full FP32, as NumPy does. The
variable is read when a thread first uses cuBLAS on a device.
"""
import os

import numpy
from nvmath.bindings import cublas
from nvmath.bindings import cublas as lib  # noqa: F401  (the typed functions, for callers)

from cuarray._libs._handles import PerThread

# cudaDataType codes (library_types.h), shared with cuSOLVER's 64-bit API.
CUDA_DTYPE = {
    numpy.dtype(numpy.float16): 2, numpy.dtype(numpy.float32): 0, numpy.dtype(numpy.float64): 1,
    numpy.dtype(numpy.complex64): 4, numpy.dtype(numpy.complex128): 5,
}
COMPUTE_32F = int(cublas.ComputeType.COMPUTE_32F)
OP_N, OP_T, OP_C = 0, 1, 2
FILL_LOWER, FILL_UPPER = 0, 1

# alpha = 1, beta = 0 in host memory, per scalar dtype (pointer mode host, the default).
_consts = {}


def one_zero(dtype):
    """Host addresses of 1 and 0 of `dtype`, kept alive for the life of the process."""
    c = _consts.get(dtype)
    if c is None:
        pair = numpy.array([1, 0], dtype=dtype)
        c = _consts[dtype] = (pair, pair.ctypes.data, pair.ctypes.data + pair.itemsize)
    return c[1], c[2]


def tf32_enabled():
    return os.environ.get("CUARRAY_TF32", "0") not in ("", "0")


def _create():
    h = cublas.create()
    mode = cublas.Math.TF32_TENSOR_OP_MATH if tf32_enabled() else cublas.Math.DEFAULT_MATH
    cublas.set_math_mode(h, int(mode))
    return h


_handles = PerThread(_create, lambda h, s: cublas.set_stream(h, s))


def get_handle():
    """The cuBLAS handle of this thread and the current device, on the current stream."""
    return _handles.get()
