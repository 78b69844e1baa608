"""CuPy's `cupy.cuda.cusolver`: dense cuSOLVER calls by their C names on int handles.

`create()`, `setStream(handle, stream)`, `dgetrf_bufferSize(handle, m, n, A, lda)`,
`dgetrf(handle, m, n, A, lda, work, ipiv, info)`, ... as CuPy exposes them; every
cusolverDn function nvmath-python binds is reachable by its CuPy name, and cusolverSp's
too (`spCreate`, `spSetStream`, `scsrlsvqr`, `dcsreigvsi`, ...). For solvers on arrays,
use `cuarray.cusolver` and `cuarray.linalg`.
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

_dense = make_getattr("cusolverDn", __name__)


def __getattr__(name):
    try:
        return _dense(name)
    except AttributeError:
        pass
    # CuPy's cusolverSp names: spCreate/spDestroy/spSetStream/spGetStream for the handle
    # calls, the routines (scsrlsvqr, zcsreigvsi, ...) as they are
    sp = name[2].lower() + name[3:] if name[:2] == "sp" and name[2:3].isupper() else name
    fn = _b.lookup("cusolverSp", sp)
    if fn is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return fn
