"""CuPy's `cupy.cuda.cusolver`: dense cuSOLVER calls by their C names on int handles.

`create()`, `setStream(handle, stream)`, `dgetrf_bufferSize(handle, m, n, A, lda)`,
`dgetrf(handle, m, n, A, lda, work, ipiv, info)`, ... as CuPy exposes them; every
cusolverDn function nvmath-python binds is reachable by its CuPy name. For solvers on
arrays, use `cuarray.cusolver` and `cuarray.linalg`.
"""
from cuarray._libs import bindings as _b
from cuarray.cuda._libnames import make_getattr

CUSOLVER_EIG_TYPE_1, CUSOLVER_EIG_TYPE_2, CUSOLVER_EIG_TYPE_3 = 1, 2, 3
CUSOLVER_EIG_MODE_NOVECTOR, CUSOLVER_EIG_MODE_VECTOR = 0, 1
CUSOLVER_EIG_RANGE_ALL, CUSOLVER_EIG_RANGE_I, CUSOLVER_EIG_RANGE_V = 1001, 1002, 1003
CUBLAS_FILL_MODE_LOWER, CUBLAS_FILL_MODE_UPPER = 0, 1
CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C = 0, 1, 2
CUBLAS_SIDE_LEFT, CUBLAS_SIDE_RIGHT = 0, 1

CUSOLVERError = _b.error_class("cusolver")

__getattr__ = make_getattr("cusolverDn", __name__)
