"""cuBLAS handles: one per (device, thread), bound to the current stream at every use.

`CUARRAY_TF32=1` lets float32 GEMMs use TF32 tensor cores (about 8x faster, 10-bit
mantissa products); without it float32 is computed in full FP32, as NumPy does. The
variable is read when a thread first uses cuBLAS on a device.
"""
import os
import threading

import numpy
from nvmath.bindings import cublas
from nvmath.bindings import cublas as lib  # noqa: F401  (the typed functions, for callers)

from cuarray._runtime.device import ensure_context
from cuarray._runtime.stream import current_stream_ptr

_tls = threading.local()

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


class _Handle:
    __slots__ = ("ptr", "stream")

    def __init__(self):
        self.ptr = cublas.create()
        self.stream = None
        mode = cublas.Math.TF32_TENSOR_OP_MATH if tf32_enabled() else cublas.Math.DEFAULT_MATH
        cublas.set_math_mode(self.ptr, int(mode))


def get_handle():
    """The cuBLAS handle of this thread and the current device, on the current stream.

    Handles live as long as their thread's locals; they are not destroyed at thread exit
    because the owning context may no longer be current there.
    """
    dev = ensure_context()
    try:
        handles = _tls.handles
    except AttributeError:
        handles = _tls.handles = {}
    h = handles.get(dev)
    if h is None:
        h = handles[dev] = _Handle()
    s = current_stream_ptr()
    if s != h.stream:
        cublas.set_stream(h.ptr, s)
        h.stream = s
    return h.ptr
