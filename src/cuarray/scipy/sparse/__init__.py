"""cuarray.scipy.sparse: sparse matrices and arrays on the GPU (cuarray version of
`scipy.sparse` / `cupyx.scipy.sparse`): COO, CSR, CSC and DIA formats, indexing,
products on cuSPARSE, construction functions, `cuarray.scipy.sparse.linalg` and
`cuarray.scipy.sparse.csgraph`."""
from cuarray.scipy.sparse._axes import matrix_transpose, permute_dims, swapaxes  # noqa: F401
from cuarray.scipy.sparse._base import (  # noqa: F401
    SparseEfficiencyWarning, isdense, isspmatrix, isspmatrix_coo, isspmatrix_csc,
    isspmatrix_csr, isspmatrix_dia, issparse, sparray, spmatrix)
from cuarray.scipy.sparse._combine import (  # noqa: F401
    block_array, block_diag, bmat, find, hstack, kron, kronsum, tril, triu, vstack)
from cuarray.scipy.sparse._construct import (  # noqa: F401
    diags, diags_array, eye, eye_array, identity, rand, random, random_array, spdiags)
from cuarray.scipy.sparse._coo import coo_array, coo_matrix  # noqa: F401
from cuarray.scipy.sparse._csc import csc_array, csc_matrix  # noqa: F401
from cuarray.scipy.sparse._csr import csr_array, csr_matrix  # noqa: F401
from cuarray.scipy.sparse._dia import dia_array, dia_matrix  # noqa: F401
from cuarray.scipy.sparse._matrix_io import load_npz, save_npz  # noqa: F401
from cuarray.scipy.sparse._sputils import (  # noqa: F401
    get_index_dtype, safely_cast_index_arrays)


def __getattr__(name):
    if name in ("linalg", "csgraph"):  # loaded on first use, like SciPy's
        import importlib
        return importlib.import_module(f"cuarray.scipy.sparse.{name}")
    raise AttributeError(f"module 'cuarray.scipy.sparse' has no attribute {name!r}")


__all__ = ["spmatrix", "sparray", "coo_matrix", "csr_matrix", "csc_matrix", "dia_matrix",
           "coo_array", "csr_array", "csc_array", "dia_array", "issparse", "isspmatrix",
           "isspmatrix_coo", "isspmatrix_csr", "isspmatrix_csc", "isspmatrix_dia", "isdense",
           "eye", "identity", "diags", "spdiags", "random", "rand", "eye_array",
           "diags_array", "random_array", "kron", "kronsum", "hstack", "vstack", "bmat",
           "block_array", "block_diag", "tril", "triu", "find", "save_npz", "load_npz",
           "SparseEfficiencyWarning", "swapaxes", "permute_dims", "matrix_transpose",
           "get_index_dtype", "safely_cast_index_arrays"]
