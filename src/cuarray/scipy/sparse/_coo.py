"""COOrdinate format: (row, col, data) triplets (cuarray version of
`scipy.sparse.coo_matrix`)."""
import numpy

from cuarray._core.ndarray import ndarray
from cuarray.scipy.sparse import _kernels as K
from cuarray.scipy.sparse._base import (
    CLASSES, _spbase, check_dtype, check_shape, is_scipy_sparse, isshape, issparse, sparray,
    spmatrix, to_device)


class _coo_base(_spbase):
    """COOrdinate format (cuarray version of `scipy.sparse.coo_matrix` / `coo_array`).

    coo_matrix(D) from a dense 2-D array; coo_matrix(S) from a sparse matrix (cuarray's or
    SciPy's); coo_matrix((M, N), dtype=...) empty; coo_matrix((data, (row, col)),
    shape=(M, N)). Without `shape` the size is read from the largest indices (a
    synchronisation). Indices are not bounds-checked against a given shape (CuPy does not
    either: checking would synchronise); entries outside it are ignored by `toarray`.
    """

    format = "coo"

    def __init__(self, arg1, shape=None, dtype=None, copy=False):
        if shape is not None:
            shape = check_shape(shape)
        canonical = False
        if issparse(arg1):
            x = arg1.tocoo(copy=copy)
            data, row, col, shape, canonical = x.data, x.row, x.col, x.shape, x._canonical
        elif is_scipy_sparse(arg1):
            x = arg1.tocoo()
            data, row, col = to_device(x.data), to_device(x.row), to_device(x.col)
            shape, canonical = x.shape, bool(x.has_canonical_format)
        elif isinstance(arg1, tuple) and isshape(arg1):
            shape = check_shape(arg1)
            idt = K.index_dtype(*shape)
            data = to_device(numpy.zeros(0, numpy.dtype(dtype or numpy.float64)))
            row, col = K._empty((0,), idt), K._empty((0,), idt)
            canonical = True
        elif isinstance(arg1, tuple):
            try:
                data, (row, col) = arg1
            except (TypeError, ValueError):
                raise TypeError("invalid input format") from None
            data, row, col = to_device(data), to_device(row), to_device(col)
            if copy:
                data, row, col = data.copy(), row.copy(), col.copy()
            if shape is None:
                if row.size == 0 or col.size == 0:
                    raise ValueError("cannot infer dimensions from zero sized index arrays")
                from cuarray._core._reductions import amax
                shape = (int(amax(row)) + 1, int(amax(col)) + 1)  # synchronises
        elif isinstance(arg1, (ndarray, numpy.ndarray, list)):
            dense = to_device(arg1)
            if dense.ndim > 2:
                raise TypeError("expected dimension <= 2 array or matrix")
            dense = dense.reshape((1,) * (2 - dense.ndim) + dense.shape)
            check_dtype(dense.dtype)
            shape = dense.shape
            row, col, data = K.dense_entries(dense, K.index_dtype(*shape, dense.size))
            canonical = True
        else:
            raise TypeError("invalid input format")
        if dtype is not None:
            data = data.astype(check_dtype(dtype), copy=False)
        check_dtype(data.dtype)
        self._setup(data, row, col, shape, canonical)

    def _setup(self, data, row, col, shape, canonical):
        if data.ndim != 1 or row.ndim != 1 or col.ndim != 1:
            raise ValueError("row, column, and data arrays must be 1-D")
        if not (data.size == row.size == col.size):
            raise ValueError("all index and data arrays must have the same length")
        if row.dtype.kind not in "iu" or col.dtype.kind not in "iu":
            raise TypeError("row and column indices must be of integer type")
        idt = K.index_dtype(*shape)
        self.data = data if data._c_contig else data.copy()
        self.row = row.astype(idt, order="C", copy=False)
        self.col = col.astype(idt, order="C", copy=False)
        self._shape = shape
        self._canonical = bool(canonical)

    @classmethod
    def _from_parts(cls, data, row, col, shape, canonical=False):
        m = object.__new__(cls)
        m._setup(data, row, col, shape, canonical)
        return m

    # ---- attributes ---------------------------------------------------------------------
    @property
    def nnz(self):
        return self.data.size

    @property
    def coords(self):
        return (self.row, self.col)

    @property
    def has_canonical_format(self):
        """True when entries are sorted by (row, col) with no duplicates (known from how
        the matrix was made; SciPy keeps the same flag)."""
        return self._canonical

    @has_canonical_format.setter
    def has_canonical_format(self, value):
        self._canonical = bool(value)

    # ---- conversions --------------------------------------------------------------------
    def copy(self):
        return self._from_parts(self.data.copy(), self.row.copy(), self.col.copy(),
                                self._shape, self._canonical)

    def _with_data(self, data, copy=True):
        row, col = (self.row.copy(), self.col.copy()) if copy else (self.row, self.col)
        return self._from_parts(data, row, col, self._shape, self._canonical)

    def tocoo(self, copy=False):
        return self.copy() if copy else self

    def _compress(self, by_row, sum_dups):
        M, N = self._shape
        idt = K.index_dtype(M, N, self.nnz)
        if self._canonical and by_row:  # already sorted, no duplicates: no sort needed
            return (K.lower_bounds(self.row, M, idt), self.col.astype(idt, copy=False),
                    self.data)
        major, minor, nmaj, nmin = ((self.row, self.col, M, N) if by_row else
                                    (self.col, self.row, N, M))
        return K.compress(major, minor, self.data, nmaj, nmin, idt, sum_dups=sum_dups)

    def tocsr(self, copy=False):
        """CSR with duplicates summed (SciPy's `coo_matrix.tocsr`); reads the number of
        distinct entries unless this matrix is known canonical (synchronises)."""
        indptr, indices, data = self._compress(True, True)
        if copy and data is self.data:
            data = data.copy()
        return self._cls("csr")._from_parts(data, indices, indptr, self._shape, True)

    def tocsc(self, copy=False):
        indptr, indices, data = self._compress(False, True)
        return self._cls("csc")._from_parts(data, indices, indptr, self._shape, True)

    def toarray(self, order=None, out=None):
        """The dense matrix, duplicates summed (sorts the entries; no synchronisation)."""
        order = (order or "C").upper()
        indptr, indices, data = self._compress(True, False)
        return self._into(K.to_dense(indptr, indices, data, self._shape, 0, order), out)

    def _raw_csr(self):
        """CSR with every entry kept apart (no sum, so no synchronisation)."""
        indptr, indices, data = self._compress(True, False)
        return self._cls("csr")._from_parts(data, indices, indptr, self._shape, self._canonical)

    def _matmul_dense(self, x):
        # SciPy sums duplicates first (tocsr), which only a bool matrix can tell apart from
        # multiplying them one by one; that needs no sum, so no synchronisation.
        if self.dtype == numpy.bool_:
            return self.tocsr()._matmul_dense(x)
        return self._raw_csr()._matmul_dense(x)

    def todia(self, copy=False):
        """DIA format (reads the distinct diagonals and the widest column: synchronises)."""
        from cuarray._core._reductions import amax
        from cuarray._routines.sets import unique
        dia_matrix = self._cls("dia")
        A = self if self._canonical else self.tocsr().tocoo()
        if A.nnz == 0:
            return dia_matrix((K._zeros((0, 0), self.dtype), K._empty((0,), numpy.int32)),
                              shape=self._shape)
        ks = A.col.astype(numpy.int64) - A.row.astype(numpy.int64)
        diags, which = unique(ks, return_inverse=True)
        if diags.size > 100:
            import warnings
            from cuarray.scipy.sparse._base import SparseEfficiencyWarning
            warnings.warn(f"Constructing a DIA matrix with {diags.size} diagonals is "
                          "inefficient", SparseEfficiencyWarning, stacklevel=2)
        width = int(amax(A.col)) + 1
        data = K._zeros((diags.size, width), self.dtype)
        K.scatter_2d(data, which, A.col, A.data)
        idt = K.index_dtype(*self._shape)
        return dia_matrix((data, diags.astype(idt)), shape=self._shape)

    def get(self, stream=None):
        m = self._scipy_cls()((self.data.get(), (self.row.get(), self.col.get())),
                              shape=self._shape)
        m.has_canonical_format = self._canonical
        return m

    def transpose(self, axes=None, copy=False):
        if axes is not None and tuple(axes) != (1, 0):
            raise ValueError("Sparse arrays/matrices do not support an 'axes' parameter "
                             "because swapping dimensions is the only logical permutation.")
        m = self._from_parts(self.data, self.col, self.row, self._shape[::-1], False)
        return m.copy() if copy else m

    # ---- canonical form -----------------------------------------------------------------
    def sum_duplicates(self):
        """Sort by (row, col) and sum duplicate entries, in place (synchronises once)."""
        if self._canonical:
            return
        M, N = self._shape
        idt = self.row.dtype
        indptr, col, self.data = K.compress(self.row, self.col, self.data, M, N,
                                            K.index_dtype(M, N, self.nnz), sum_dups=True)
        self.row = K.expand_major(indptr, self.data.size).astype(idt, copy=False)
        self.col = col.astype(idt, copy=False)
        self._canonical = True

    def eliminate_zeros(self):
        """Remove stored zeros, in place (synchronises once)."""
        if self.nnz:
            self.data, self.row, self.col = K.compact(K._nonzero_flags(self.data), self.data,
                                                      self.row, self.col)


class coo_matrix(spmatrix, _coo_base):
    """A sparse matrix in COOrdinate format (cuarray version of `scipy.sparse.coo_matrix`)."""


class coo_array(sparray, _coo_base):
    """A 2-D sparse array in COOrdinate format (cuarray version of
    `scipy.sparse.coo_array`). Indexing and assignment go through CSR; results come back
    as COO (1-D for integer or pointwise indexing)."""

    def __new__(cls, arg1=None, shape=None, dtype=None, copy=False):
        if cls is coo_array and _one_d(arg1, shape):
            from cuarray.scipy.sparse._coo1d import coo_array as coo1d
            return coo1d._build(arg1, shape, dtype, copy)
        return object.__new__(cls)

    def __getitem__(self, key):
        from cuarray.scipy.sparse import _index
        res = _index.getitem(self.tocsr(), key)
        if issparse(res):
            return res.tocoo()
        return coo_array(res) if res.ndim == 1 else res  # pointwise: 1-D sparse, as SciPy

    def __setitem__(self, key, x):
        from cuarray.scipy.sparse import _index
        C = self.tocsr(copy=True)
        _index.setitem(C, key, x)
        self._replace(C.tocoo())


CLASSES["matrix", "coo"], CLASSES["array", "coo"] = coo_matrix, coo_array


def _one_d(arg1, shape):
    """True for the inputs of a 1-D COO array: a 1-D dense array, (data, (idx,)), (n,)."""
    if shape is not None and len(tuple(shape)) == 1:
        return True
    if issparse(arg1):
        return arg1.ndim == 1
    if isinstance(arg1, tuple):
        if len(arg1) == 1 and isinstance(arg1[0], (int, numpy.integer)):
            return True
        return (len(arg1) == 2 and isinstance(arg1[1], tuple) and len(arg1[1]) == 1)
    if isinstance(arg1, (ndarray, numpy.ndarray)):
        return arg1.ndim == 1
    if isinstance(arg1, list):
        return numpy.ndim(arg1) == 1
    return False
