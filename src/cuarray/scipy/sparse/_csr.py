"""Compressed Sparse Row format (cuarray version of `scipy.sparse.csr_matrix`)."""
from cuarray.scipy.sparse._compressed import _compressed_matrix


class csr_matrix(_compressed_matrix):
    """A sparse matrix in Compressed Sparse Row format (cuarray version of
    `scipy.sparse.csr_matrix`).

    csr_matrix(D) from a dense 2-D array; csr_matrix(S) from a sparse matrix (cuarray's
    or SciPy's); csr_matrix((M, N), dtype=...) empty; csr_matrix((data, (row, col)),
    shape=(M, N)) summing duplicates; csr_matrix((data, indices, indptr), shape=(M, N)).
    Products with dense vectors and matrices run on cuSPARSE (float and complex values)
    or cuarray's CSR kernel (other dtypes).
    """

    format = "csr"
    _major = 0

    def tocsr(self, copy=False):
        return self.copy() if copy else self

    def tocsc(self, copy=False):
        """CSC (a stable sort of the entries by column; duplicates are kept, as SciPy)."""
        from cuarray.scipy.sparse._csc import csc_matrix
        return self._to_other_major(csc_matrix)
