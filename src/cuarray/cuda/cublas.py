"""CuPy's `cupy.cuda.cublas`: cuBLAS calls by their C names on int handles and pointers.

`create()`, `setStream(handle, stream)`, `sgemm(handle, transa, transb, m, n, k, alpha,
A, lda, B, ldb, beta, C, ldc)`, ... as CuPy exposes them (scalars passed by address);
every cuBLAS function nvmath-python binds is reachable by its CuPy name. For BLAS on
arrays, use `cuarray.cublas`.
"""
from cuarray._libs import bindings as _b
from cuarray.cuda._libnames import make_getattr

CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C = 0, 1, 2
CUBLAS_POINTER_MODE_HOST, CUBLAS_POINTER_MODE_DEVICE = 0, 1
CUBLAS_FILL_MODE_LOWER, CUBLAS_FILL_MODE_UPPER = 0, 1
CUBLAS_DIAG_NON_UNIT, CUBLAS_DIAG_UNIT = 0, 1
CUBLAS_SIDE_LEFT, CUBLAS_SIDE_RIGHT = 0, 1
CUBLAS_DEFAULT_MATH, CUBLAS_TENSOR_OP_MATH, CUBLAS_PEDANTIC_MATH = 0, 1, 2
CUBLAS_TF32_TENSOR_OP_MATH = 3
CUBLAS_GEMM_DEFAULT, CUBLAS_GEMM_DEFAULT_TENSOR_OP = -1, 99
CUBLAS_COMPUTE_16F, CUBLAS_COMPUTE_32F, CUBLAS_COMPUTE_64F = 64, 68, 70
CUBLAS_COMPUTE_32F_FAST_16F, CUBLAS_COMPUTE_32F_FAST_TF32 = 74, 77

CUBLASError = _b.error_class("cublas")

__getattr__ = make_getattr("cublas", __name__)
