"""cuarray.scipy.sparse.linalg: solvers for sparse systems on the GPU (cuarray version of
`scipy.sparse.linalg` / `cupyx.scipy.sparse.linalg`)."""
from cuarray.scipy.sparse.linalg._eigen import eigsh, svds  # noqa: F401
from cuarray.scipy.sparse.linalg._interface import (  # noqa: F401
    LinearOperator, aslinearoperator)
from cuarray.scipy.sparse.linalg._iterative import cg  # noqa: F401
from cuarray.scipy.sparse.linalg._krylov import bicgstab, cgs, gmres, minres  # noqa: F401
from cuarray.scipy.sparse.linalg._lobpcg import lobpcg  # noqa: F401
from cuarray.scipy.sparse.linalg._lsq import lsmr, lsqr  # noqa: F401
from cuarray.scipy.sparse.linalg._norm import matrix_power, norm  # noqa: F401
from cuarray.scipy.sparse.linalg._spilu import spilu  # noqa: F401
from cuarray.scipy.sparse.linalg._superlu import SuperLU, splu  # noqa: F401
from cuarray.scipy.sparse.linalg._solve import (  # noqa: F401
    MatrixRankWarning, factorized, spsolve, spsolve_triangular)

__all__ = ["LinearOperator", "aslinearoperator", "cg", "cgs", "bicgstab", "gmres", "minres",
           "lsqr", "lsmr", "eigsh", "svds", "lobpcg", "norm", "matrix_power", "spsolve",
           "spsolve_triangular", "factorized", "splu", "spilu", "SuperLU",
           "MatrixRankWarning"]
