"""cuarray.linalg: NumPy's numpy.linalg on the GPU (cuBLAS, cuSOLVER, own kernels)."""
from cuarray.linalg._util import LinAlgError  # noqa: F401  (numpy.linalg.LinAlgError itself)
from cuarray.linalg._products import (  # noqa: F401
    matrix_power, matrix_transpose, multi_dot, trace, vecdot,
    linalg_cross as cross, linalg_diagonal as diagonal, linalg_matmul as matmul,
    linalg_outer as outer, linalg_tensordot as tensordot)
from cuarray.linalg._solve import (  # noqa: F401
    inv, lstsq, pinv, solve, tensorinv, tensorsolve)
from cuarray.linalg._decompositions import cholesky, qr, svd, svdvals  # noqa: F401
from cuarray.linalg._eigen import eig, eigh, eigvals, eigvalsh  # noqa: F401
from cuarray.linalg._norms import (  # noqa: F401
    cond, det, matrix_norm, matrix_rank, norm, slogdet, vector_norm)
