"""cuarray.scipy.sparse: sparse matrices on the GPU (cuarray version of `scipy.sparse` /
`cupyx.scipy.sparse`): COO, CSR, CSC and DIA formats, products on cuSPARSE, and
`cuarray.scipy.sparse.linalg`."""
from cuarray.scipy.sparse._base import (  # noqa: F401
    SparseEfficiencyWarning, isdense, isspmatrix, isspmatrix_coo, isspmatrix_csc, isspmatrix_csr, isspmatrix_dia,
    issparse, sparray, spmatrix)
from cuarray.scipy.sparse._construct import (  # noqa: F401
    diags, eye, identity, rand, random, spdiags)
from cuarray.scipy.sparse._coo import coo_array, coo_matrix  # noqa: F401
from cuarray.scipy.sparse._csc import csc_array, csc_matrix  # noqa: F401
from cuarray.scipy.sparse._csr import csr_array, csr_matrix  # noqa: F401
from cuarray.scipy.sparse._dia import dia_array, dia_matrix  # noqa: F401


def __getattr__(name):
    if name == "linalg":  # loaded on first use, like SciPy's
        import importlib
        return importlib.import_module("cuarray.scipy.sparse.linalg")
    raise AttributeError(f"module 'cuarray.scipy.sparse' has no attribute {name!r}")


__all__ = ["spmatrix", "coo_matrix", "csr_matrix", "csc_matrix", "dia_matrix", "issparse",
           "isspmatrix", "isspmatrix_coo", "isspmatrix_csr", "isspmatrix_csc",
           "isspmatrix_dia", "isdense", "eye", "identity", "diags", "spdiags", "random",
           "rand", "SparseEfficiencyWarning"]
