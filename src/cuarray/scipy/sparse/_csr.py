"""Compressed Sparse Row format (cuarray version of `scipy.sparse.csr_matrix` and
`scipy.sparse.csr_array`)."""
from cuarray.scipy.sparse._base import format_classes
from cuarray.scipy.sparse._compressed import _compressed_matrix


class _csr_base(_compressed_matrix):
    """What csr_matrix and csr_array share.

    csr_matrix(D) from a dense 2-D array; csr_matrix(S) from a sparse matrix (cuarray's
    or SciPy's); csr_matrix((M, N), dtype=...) empty; csr_matrix((data, (row, col)),
    shape=(M, N)) summing duplicates; csr_matrix((data, indices, indptr), shape=(M, N)).
    Products with dense vectors and matrices run on cuSPARSE (float and complex values)
    or cuarray's CSR kernel (other dtypes).
    """

    format = "csr"
    _major = 0


csr_matrix, csr_array = format_classes(_csr_base)
