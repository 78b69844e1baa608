"""What CSR and CSC share: compressed storage (`data`, `indices`, `indptr`) along a major
axis (rows for CSR, columns for CSC), its construction, canonical form, conversions and
products.

Products with dense operands go to cuSPARSE's SpMV/SpMM for float32/float64/complex64/
complex128 values, and to cuarray's CSR kernel for every other dtype (and wherever
cuSPARSE reports it cannot do the product). Sparse @ sparse, sparse + sparse and the
elementwise product expand into COO entries and compress them again on the GPU.
"""
import numpy

from cuarray._core.ndarray import ndarray
from cuarray.scipy.sparse import _kernels as K
from cuarray.scipy.sparse._base import (
    check_dtype, check_shape, is_scipy_sparse, isshape, issparse, _spbase, to_device)

_cusparse_failed = False


class _compressed_matrix(_spbase):
    """Base of csr_matrix and csc_matrix; `_major` is 0 for CSR, 1 for CSC."""

    _major = 0

    def __init__(self, arg1, shape=None, dtype=None, copy=False):
        if shape is not None:
            shape = check_shape(shape)
        canonical = None
        if issparse(arg1):
            x = arg1.asformat(self.format)
            if copy and x is arg1:
                x = x.copy()
            data, indices, indptr, shape = x.data, x.indices, x.indptr, x.shape
            canonical = x._canonical
        elif is_scipy_sparse(arg1):
            x = arg1.asformat(self.format)
            data, indices, indptr = (to_device(v) for v in (x.data, x.indices, x.indptr))
            shape = x.shape
        elif isinstance(arg1, tuple) and isshape(arg1):
            shape = check_shape(arg1)
            idt = K.index_dtype(*shape)
            data = to_device(numpy.zeros(0, numpy.dtype(dtype or numpy.float64)))
            indices = K._empty((0,), idt)
            indptr = K._zeros((self._swap(shape)[0] + 1,), idt)
            canonical = True
        elif isinstance(arg1, tuple) and len(arg1) == 2:
            x = self._cls("coo")(arg1, shape=shape, dtype=dtype).asformat(self.format)
            data, indices, indptr, shape, canonical = (x.data, x.indices, x.indptr, x.shape,
                                                       x._canonical)
        elif isinstance(arg1, tuple) and len(arg1) == 3:
            data, indices, indptr = (to_device(v) for v in arg1)
            if copy:
                data, indices, indptr = data.copy(), indices.copy(), indptr.copy()
            if data.ndim != 1 or indices.ndim != 1 or indptr.ndim != 1:
                raise ValueError("data, indices, and indptr should be 1-D")
            if shape is None:
                if indices.size == 0:
                    raise ValueError("unable to infer matrix dimensions")
                from cuarray._core._reductions import amax
                n_minor = int(amax(indices)) + 1  # reads the largest index: synchronises
                shape = self._swap((indptr.size - 1, n_minor))
        elif isinstance(arg1, (ndarray, numpy.ndarray, list)):
            dense = to_device(arg1)
            if dense.ndim > 2:
                raise TypeError("expected dimension <= 2 array or matrix")
            dense = dense.reshape((1,) * (2 - dense.ndim) + dense.shape)
            shape = dense.shape
            check_dtype(dense.dtype)
            idt = K.index_dtype(*shape, dense.size)
            # Row-major nonzeros of A (CSR) or of A^T (CSC) are already in canonical order.
            major, minor, data = K.dense_entries(dense if self._major == 0 else dense.T, idt)
            indices = minor
            indptr = K.lower_bounds(major, self._swap(shape)[0], idt)
            canonical = True
        else:
            raise ValueError(f"unrecognized {self.format}_matrix constructor usage")
        if dtype is not None:
            data = data.astype(check_dtype(dtype), copy=False)
        check_dtype(data.dtype)
        self._setup(data, indices, indptr, shape, canonical)

    def _setup(self, data, indices, indptr, shape, canonical):
        n_major = self._swap(shape)[0]
        if indptr.size != n_major + 1:
            raise ValueError(f"index pointer size {indptr.size} should be {n_major + 1}")
        if indices.size != data.size:
            raise ValueError("indices and data should have the same size")
        if indices.dtype.kind not in "iu" or indptr.dtype.kind not in "iu":
            raise ValueError("indices and index pointers must be of integer type")
        # Indices below the shape and pointers up to nnz fit whatever dtype these allow.
        idt = K.index_dtype(*shape, data.size)
        self.data = _contiguous(data)
        self.indices = _contiguous(indices.astype(idt, copy=False))
        self.indptr = _contiguous(indptr.astype(idt, copy=False))
        self._shape = shape
        self._canonical = canonical
        self._sorted = True if canonical else None

    @classmethod
    def _from_parts(cls, data, indices, indptr, shape, canonical=None):
        m = object.__new__(cls)
        m._setup(data, indices, indptr, shape, canonical)
        return m

    def _swap(self, pair):
        return pair if self._major == 0 else (pair[1], pair[0])

    # ---- attributes ---------------------------------------------------------------------
    @property
    def nnz(self):
        return self.data.size

    @property
    def has_canonical_format(self):
        """Indices sorted within each major line, no duplicates (read from the device
        the first time it is asked: synchronises)."""
        if self._canonical is None:
            self._canonical = self._check_order(strict=True)
            if self._canonical:
                self._sorted = True
        return self._canonical

    @has_canonical_format.setter
    def has_canonical_format(self, value):
        self._canonical = bool(value)
        if value:
            self._sorted = True

    @property
    def has_sorted_indices(self):
        if self._sorted is None:
            self._sorted = self._check_order(strict=False)
        return self._sorted

    @has_sorted_indices.setter
    def has_sorted_indices(self, value):
        self._sorted = bool(value)
        if not value:
            self._canonical = False

    def _check_order(self, strict):
        if self.nnz < 2:
            return True
        from cuarray._core._reductions import all as _all
        return bool(_all(K.canonical_flags(self.indptr, self.indices, strict)))

    # ---- canonical form -----------------------------------------------------------------
    def _recompress(self, sum_dups):
        n_major, n_minor = self._swap(self._shape)
        major = K.expand_major(self.indptr, self.nnz)
        indptr, indices, data = K.compress(major, self.indices, self.data, n_major, n_minor,
                                           self.indptr.dtype, sum_dups=sum_dups)
        self.data, self.indices, self.indptr = data, indices, indptr

    def sum_duplicates(self):
        """Sort the indices and sum duplicate entries, in place (SciPy's canonical form)."""
        if self.has_canonical_format:
            return
        self._recompress(True)
        self._canonical = self._sorted = True

    def sort_indices(self):
        """Sort the indices of each major line, in place (stable: duplicates keep order)."""
        if self.has_sorted_indices:
            return
        self._recompress(False)
        self._sorted = True
        self._canonical = None  # duplicates, if any, are still there: ask again

    def sorted_indices(self):
        A = self.copy()
        A.sort_indices()
        return A

    def eliminate_zeros(self):
        """Remove stored zeros, in place (reads their count: synchronises)."""
        if self.nnz == 0:
            return
        major = K.expand_major(self.indptr, self.nnz)
        major, self.indices, self.data = K.compact(K._nonzero_flags(self.data), major,
                                                   self.indices, self.data)
        self.indptr = K.lower_bounds(major, self.indptr.size - 1, self.indptr.dtype)

    def check_format(self, full_check=True):
        """Raise ValueError unless the arrays describe a valid matrix (SciPy's checks;
        `full_check` also reads the index bounds and pointer order: synchronises)."""
        n_major, n_minor = self._swap(self._shape)
        if self.indptr.ndim != 1 or self.indices.ndim != 1 or self.data.ndim != 1:
            raise ValueError("data, indices, and indptr should be 1-D")
        if self.indptr.size != n_major + 1:
            raise ValueError(f"index pointer size {self.indptr.size} should be {n_major + 1}")
        if self.indices.size != self.data.size:
            raise ValueError("indices and data should have the same size")
        if not full_check:
            return
        from cuarray._core import _reductions as R
        first, last = (int(v) for v in self.indptr[[0, -1]].get())
        if first != 0:
            raise ValueError("index pointer should start with 0")
        if last != self.nnz:
            raise ValueError("Last value of index pointer should be less than the size of "
                             "index and data arrays")
        if n_major and bool(R.any(self.indptr[1:] < self.indptr[:-1])):
            raise ValueError("index pointer values must form a non-decreasing sequence")
        if self.nnz and (int(R.amax(self.indices)) >= n_minor or int(R.amin(self.indices)) < 0):
            raise ValueError("column index values must be < number of columns"
                             if self._major == 0 else "row index values must be < number of rows")

    def prune(self):
        """Nothing to trim: cuarray keeps exactly nnz entries."""

    # ---- copies and conversions ---------------------------------------------------------
    def copy(self):
        return self._from_parts(self.data.copy(), self.indices.copy(), self.indptr.copy(),
                                self._shape, self._canonical)

    def _with_data(self, data, copy=True):
        ind, ptr = (self.indices.copy(), self.indptr.copy()) if copy else (self.indices,
                                                                           self.indptr)
        m = self._from_parts(data, ind, ptr, self._shape, self._canonical)
        m._sorted = self._sorted
        return m

    def tocoo(self, copy=False):
        major = K.expand_major(self.indptr, self.nnz)
        minor = self.indices.copy() if copy else self.indices
        data = self.data.copy() if copy else self.data
        row, col = self._swap((major, minor))
        return self._cls("coo")._from_parts(data, row, col, self._shape,
                                      bool(self._canonical) and self._major == 0)

    def tocsr(self, copy=False):
        """CSR (from CSC, a stable sort of the entries by row; duplicates are kept, as SciPy)."""
        return self._compressed("csr", copy)

    def tocsc(self, copy=False):
        """CSC (from CSR, a stable sort of the entries by column; duplicates are kept, as
        SciPy)."""
        return self._compressed("csc", copy)

    def _compressed(self, fmt, copy):
        """This matrix in `fmt`; in the other one, compressed along the other axis (stable:
        duplicates kept)."""
        if fmt == self.format:
            return self.copy() if copy else self
        cls = self._cls(fmt)
        n_major, n_minor = self._swap(self._shape)
        major = K.expand_major(self.indptr, self.nnz)
        indptr, indices, data = K.compress(self.indices, major, self.data, n_minor, n_major,
                                           self.indptr.dtype, sum_dups=False)
        return cls._from_parts(data, indices, indptr, self._shape, self._canonical)

    def toarray(self, order=None, out=None):
        """The dense matrix (duplicates summed); C order by default for CSR, F for CSC, as
        SciPy."""
        order = (order or ("C" if self._major == 0 else "F")).upper()
        if order not in ("C", "F"):
            raise ValueError("order must be 'C' or 'F'")
        return self._into(K.to_dense(self.indptr, self.indices, self.data, self._shape,
                                     self._major, order), out)

    def get(self, stream=None):
        """This matrix as SciPy's of the same format and family (synchronises)."""
        return self._scipy_cls()((self.data.get(), self.indices.get(), self.indptr.get()),
                                 shape=self._shape)

    def transpose(self, axes=None, copy=False):
        if axes is not None and tuple(axes) != (1, 0):
            raise ValueError("Sparse arrays/matrices do not support an 'axes' parameter "
                             "because swapping dimensions is the only logical permutation.")
        cls = self._cls("csc" if self._major == 0 else "csr")
        m = cls._from_parts(self.data, self.indices, self.indptr, self._shape[::-1],
                            self._canonical)
        m._sorted = self._sorted
        return m.copy() if copy else m

    def diagonal(self, k=0):
        """Diagonal k as a 1-D array (duplicates summed)."""
        return K.diagonal(self.indptr, self.indices, self.data, self._shape, int(k),
                          self._major)

    # ---- indexing -----------------------------------------------------------------------
    def __getitem__(self, key):
        """Integer, slice (negative and stepped), integer-array and boolean-mask indexing
        as SciPy's (an integer index of a sparse array gives a 1-D COO array); `A[i, j]`
        gives a 0-d cuarray array (no synchronisation)."""
        from cuarray.scipy.sparse import _index
        return _index.getitem(self, key)

    def __setitem__(self, key, x):
        """Assignment as SciPy's: new positions warn SparseEfficiencyWarning."""
        from cuarray.scipy.sparse import _index
        _index.setitem(self, key, x)

    def getrow(self, i):
        return self[[i], :] if self._family == "array" else self[i, :]

    def getcol(self, j):
        return self[:, [j]] if self._family == "array" else self[:, j]

    # ---- products -----------------------------------------------------------------------
    def _matmul_dense(self, x):
        M, N = self._shape
        dt = numpy.result_type(self.dtype, x.dtype)
        if dt == numpy.float16:
            dt = numpy.dtype(numpy.float32)  # sparse has no float16 (SciPy's upcast)
        out = K._empty((M,) if x.ndim == 1 else (M, x.shape[1]), dt)
        if out.size == 0:
            return out
        if self.nnz == 0 or N == 0:
            out.data.memset_async(0, out.nbytes)
            return out
        if self._cusparse(x, dt, out):
            return out
        A = self if self._major == 0 else self.tocsr()
        return K.csr_matmul(A.indptr, A.indices, A.data, x, out)

    def _cusparse(self, x, dt, out):
        """out = self @ x through cuSPARSE; False when it cannot (the caller's kernel runs)."""
        global _cusparse_failed
        from cuarray._libs import cusparse
        if _cusparse_failed or not cusparse.supports(dt, self.indptr.dtype):
            return False
        data = self.data.astype(dt, copy=False)
        xc = x.astype(dt, order="C", copy=False)
        if not xc._c_contig:
            xc = xc.copy("C")
        try:
            if x.ndim == 1:
                cusparse.spmv(self.format, self._shape, self.indptr, self.indices, data, xc, out)
            else:
                cusparse.spmm(self.format, self._shape, self.indptr, self.indices, data, xc, out)
            return True
        except cusparse.errors() as e:
            # A refused product falls back once; a library that cannot load, for good.
            if not isinstance(e, cusparse.status_error()):
                _cusparse_failed = True
            return False

    def _matmul_sparse(self, other):
        A = self if self._major == 0 else self.tocsr()
        B = other.tocsr()
        M, Kn = A.shape[0], B.shape[1]
        dt = numpy.result_type(A.dtype, B.dtype)
        from cuarray.scipy.sparse import _spgemm, _spgemm_hash
        parts = _spgemm_hash.matmul(A, B, dt)
        if parts is not None:
            indptr, indices, data = parts
            res = self._cls("csr")._from_parts(data, indices, indptr, (M, Kn), True)
            return res.tocsc() if self._major == 1 else res
        parts = _spgemm.cusparse_matmul(A, B, dt)
        if parts is not None:
            res = self._cls("csr")._from_parts(*parts, (M, Kn))
            _spgemm.canonical(res)
            return res.tocsc() if self._major == 1 else res
        parts = _spgemm.matmul(A, B, dt)
        if parts is not None:
            indptr, indices, data = parts
            res = self._cls("csr")._from_parts(data, indices, indptr, (M, Kn), True)
            return res.tocsc() if self._major == 1 else res
        idt = numpy.promote_types(A.indices.dtype, B.indices.dtype)
        rows = K.expand_major(A.indptr, A.nnz).astype(idt, copy=False)
        rows, cols, vals = K.spgemm_entries(rows, A.indices.astype(idt, copy=False), A.data,
                                            B.indptr, B.indices, B.data, dt)
        idt = K.index_dtype(M, Kn, vals.size)
        indptr, indices, data = K.compress(rows, cols, vals, M, Kn, idt, sum_dups=True,
                                           drop_zeros=True)
        res = self._cls("csr")._from_parts(data, indices, indptr, (M, Kn), True)
        return res.tocsc() if self._major == 1 else res

    def _add_sparse(self, other, sign):
        from cuarray._routines.joining import concatenate
        A, B = self.tocoo(), other.tocoo()
        dt = numpy.result_type(A.dtype, B.dtype)
        bdata = B.data.astype(dt) if sign > 0 else -(B.data.astype(dt))
        idt = K.index_dtype(*self._shape, A.nnz + B.nnz)
        rows = concatenate([A.row.astype(idt), B.row.astype(idt)])
        cols = concatenate([A.col.astype(idt), B.col.astype(idt)])
        vals = concatenate([A.data.astype(dt), bdata])
        indptr, indices, data = K.compress(rows, cols, vals, self._shape[0], self._shape[1],
                                           idt, sum_dups=True, drop_zeros=True)
        res = self._cls("csr")._from_parts(data, indices, indptr, self._shape, True)
        return res.tocsc() if self._major == 1 else res

    def _multiply_dense(self, other, op="multiply"):
        """The stored entries combined with the dense values at their positions (op
        'multiply' or 'true_divide'): a COO result, as SciPy's."""
        from cuarray._routines.manipulation import broadcast_to
        try:
            dense = broadcast_to(other, self._shape)
        except ValueError:
            raise ValueError("inconsistent shapes") from None
        A = self.tocoo()
        if not A.has_canonical_format:
            A.sum_duplicates()
        vals = K.gather_2d(dense, A.row, A.col)
        dt = numpy.result_type(A.dtype, other.dtype)
        from cuarray._core import _ops
        res = getattr(_ops, op)(A.data.astype(dt), vals.astype(dt))
        return self._cls("coo")._from_parts(res, A.row, A.col, self._shape, True)

    def _multiply_sparse(self, other):
        A, B = self.tocoo(), other.tocoo()
        for X in (A, B):
            if not X.has_canonical_format:
                X.sum_duplicates()
        dt = numpy.result_type(A.dtype, B.dtype)
        idt = K.index_dtype(*self._shape, A.nnz + B.nnz)
        rows, cols, vals = K.intersect_products(A, B, dt, idt)
        indptr, indices, data = K.compress(rows, cols, vals, self._shape[0], self._shape[1],
                                           idt, sum_dups=False, drop_zeros=True)
        return self._cls("csr")._from_parts(data, indices, indptr, self._shape, True)


def _contiguous(a):
    return a if a._c_contig else a.copy("C")
