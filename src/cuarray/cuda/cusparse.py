"""CuPy's `cupy.cuda.cusparse`: cuSPARSE calls by their C names on int handles.

`create()`, `setStream(handle, stream)`, `createCsr(...)`, `createDnVec(...)`,
`spMV_bufferSize(...)`, `spMV(...)`, ... as CuPy exposes them; every cuSPARSE function
nvmath-python binds is reachable by its CuPy name. For sparse routines on arrays, use
`cuarray.cusparse`.
"""
from cuarray._libs import bindings as _b
from cuarray.cuda._libnames import make_getattr

CUSPARSE_OPERATION_NON_TRANSPOSE = 0
CUSPARSE_OPERATION_TRANSPOSE = 1
CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE = 2
CUSPARSE_INDEX_BASE_ZERO, CUSPARSE_INDEX_BASE_ONE = 0, 1
CUSPARSE_INDEX_16U, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_64I = 1, 2, 3
CUSPARSE_ORDER_COL, CUSPARSE_ORDER_ROW = 1, 2
CUSPARSE_MATRIX_TYPE_GENERAL = 0
CUSPARSE_FILL_MODE_LOWER, CUSPARSE_FILL_MODE_UPPER = 0, 1
CUSPARSE_DIAG_TYPE_NON_UNIT, CUSPARSE_DIAG_TYPE_UNIT = 0, 1
CUSPARSE_POINTER_MODE_HOST, CUSPARSE_POINTER_MODE_DEVICE = 0, 1
CUSPARSE_ACTION_SYMBOLIC, CUSPARSE_ACTION_NUMERIC = 0, 1
CUSPARSE_SPMV_ALG_DEFAULT = CUSPARSE_SPMM_ALG_DEFAULT = CUSPARSE_SPGEMM_DEFAULT = 0
CUSPARSE_CSR2CSC_ALG_DEFAULT = CUSPARSE_CSR2CSC_ALG1 = 1

CUSPARSEError = _b.error_class("cusparse")

__getattr__ = make_getattr("cusparse", __name__)
