"""cuarray.scipy.sparse.linalg: solvers for sparse systems on the GPU (cuarray version of
`scipy.sparse.linalg`)."""
from cuarray.scipy.sparse.linalg._interface import (  # noqa: F401
    LinearOperator, aslinearoperator)
from cuarray.scipy.sparse.linalg._iterative import cg  # noqa: F401
from cuarray.scipy.sparse.linalg._solve import MatrixRankWarning, spsolve  # noqa: F401

__all__ = ["LinearOperator", "aslinearoperator", "cg", "spsolve", "MatrixRankWarning"]
