"""Compressed Sparse Column format (cuarray version of `scipy.sparse.csc_matrix`)."""
from cuarray.scipy.sparse._compressed import _compressed_matrix


class csc_matrix(_compressed_matrix):
    """A sparse matrix in Compressed Sparse Column format (cuarray version of
    `scipy.sparse.csc_matrix`).

    The constructors of `csr_matrix`, with `indptr` over columns and `indices` holding
    row indices. Products with dense operands run on cuSPARSE's CSC support (float and
    complex values) or through CSR (other dtypes).
    """

    format = "csc"
    _major = 1

    def tocsc(self, copy=False):
        return self.copy() if copy else self

    def tocsr(self, copy=False):
        """CSR (a stable sort of the entries by row; duplicates are kept, as SciPy)."""
        from cuarray.scipy.sparse._csr import csr_matrix
        return self._to_other_major(csr_matrix)
