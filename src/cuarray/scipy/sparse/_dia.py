"""DIAgonal format: a (n_diags, L) data array and one offset per row of it (cuarray
version of `scipy.sparse.dia_matrix`). Element (d, j) of `data` is A[j - offsets[d], j]."""
import numpy

from cuarray._core.ndarray import ndarray
from cuarray.scipy.sparse import _kernels as K
from cuarray.scipy.sparse._base import (
    _spbase, check_dtype, check_shape, format_classes, is_scipy_sparse, isshape, issparse,
    to_device)


class _dia_base(_spbase):
    """DIAgonal format (cuarray version of `scipy.sparse.dia_matrix` / `dia_array`).

    dia_matrix((data, offsets), shape=(M, N)); dia_matrix((M, N)); dia_matrix(D) or
    dia_matrix(S) from dense or sparse matrices. The offsets are also kept on the host
    (read once when they come from the device), so `nnz` costs no synchronisation.
    """

    format = "dia"

    def __init__(self, arg1, shape=None, dtype=None, copy=False):
        if shape is not None:
            shape = check_shape(shape)
        if issparse(arg1) or is_scipy_sparse(arg1):
            x = arg1 if arg1.format == "dia" else arg1.todia()
            if isinstance(x, _dia_base):
                if copy and x is arg1:
                    x = x.copy()
                data, host, offsets = x.data, x._host_offsets, x.offsets
            else:  # SciPy's, on the host
                data, host, offsets = to_device(x.data), numpy.asarray(x.offsets), None
            shape = x.shape
        elif isinstance(arg1, tuple) and isshape(arg1):
            shape = check_shape(arg1)
            data = K._zeros((0, 0), numpy.dtype(dtype or numpy.float64))
            host = numpy.zeros(0, K.index_dtype(*shape))
            offsets = None
        elif isinstance(arg1, tuple):
            try:
                data, offsets = arg1
            except (TypeError, ValueError):
                raise ValueError("unrecognized form for dia_matrix constructor") from None
            if shape is None:
                raise ValueError("expected a shape argument")
            data = to_device(data, dtype)
            if copy:
                data = data.copy()
            if data.ndim < 2:
                data = data.reshape((1,) * (2 - data.ndim) + data.shape)
            host = offsets.get() if isinstance(offsets, ndarray) else numpy.asarray(offsets)
            host = numpy.atleast_1d(host).astype(K.index_dtype(*shape), copy=False)
            offsets = None
        elif isinstance(arg1, (ndarray, numpy.ndarray, list)):
            x = self._cls("coo")(arg1, dtype=dtype).todia()
            data, offsets, shape, host = x.data, x.offsets, x.shape, x._host_offsets
        else:
            raise ValueError("unrecognized form for dia_matrix constructor")
        if dtype is not None:
            data = data.astype(check_dtype(dtype), copy=False)
        check_dtype(data.dtype)
        self._setup(data, host, offsets, shape)

    def _setup(self, data, host, offsets, shape):
        if host.ndim != 1:
            raise ValueError("offsets array must have rank 1")
        if data.ndim != 2:
            raise ValueError("data array must have rank 2")
        if data.shape[0] != host.size:
            raise ValueError(f"number of diagonals ({data.shape[0]}) does not match the number "
                             f"of offsets ({host.size})")
        if numpy.unique(host).size != host.size:
            raise ValueError("offset array contains duplicate values")
        self.data = data if data._c_contig else data.copy("C")
        self._host_offsets = host
        self.offsets = offsets if offsets is not None else to_device(host)
        self._shape = shape

    @classmethod
    def _from_parts(cls, data, host, offsets, shape):
        m = object.__new__(cls)
        m._setup(data, host, offsets, shape)
        return m

    # ---- attributes ---------------------------------------------------------------------
    @property
    def nnz(self):
        """Stored elements inside the matrix, zeros included (SciPy's count)."""
        M, N = self._shape
        L = min(self.data.shape[1], N)
        off = self._host_offsets.astype(numpy.int64)
        return int(numpy.maximum(numpy.minimum(M + off, L) - numpy.maximum(off, 0), 0).sum())

    def _repr_nnz(self):
        return f"with {self.nnz} stored elements ({self.data.shape[0]} diagonals)"

    # ---- conversions --------------------------------------------------------------------
    def copy(self):
        return self._from_parts(self.data.copy(), self._host_offsets.copy(),
                                self.offsets.copy(), self._shape)

    def _with_data(self, data, copy=True):
        off = self.offsets.copy() if copy else self.offsets
        return self._from_parts(data, self._host_offsets.copy(), off, self._shape)

    def todia(self, copy=False):
        return self.copy() if copy else self

    def tocsr(self, copy=False):
        """CSR of the stored nonzeros (SciPy drops stored zeros here too): reads their
        count (synchronises)."""
        M, N = self._shape
        idt = K.index_dtype(M, N, self.data.size)
        rows, cols, vals = K.dia_entries(self.data, self.offsets, self._shape, idt)
        indptr, indices, data = K.compress(rows, cols, vals, M, N, idt, sum_dups=False)
        return self._cls("csr")._from_parts(data, indices, indptr, self._shape, True)

    def tocoo(self, copy=False):
        return self.tocsr().tocoo()

    def toarray(self, order=None, out=None):
        res = K.dia_to_dense(self.data, self.offsets, self._shape, (order or "C").upper())
        if out is not None:
            out[...] = res
            return out
        return res

    def get(self, stream=None):
        return self._scipy_cls()((self.data.get(), self._host_offsets.copy()),
                                 shape=self._shape)

    def transpose(self, axes=None, copy=False):
        if axes is not None and tuple(axes) != (1, 0):
            raise ValueError("Sparse arrays/matrices do not support an 'axes' parameter "
                             "because swapping dimensions is the only logical permutation.")
        data = K.dia_transpose(self.data, self.offsets, self._shape)
        return self._from_parts(data, -self._host_offsets, -self.offsets, self._shape[::-1])

    def diagonal(self, k=0):
        M, N = self._shape
        k = int(k)
        if k <= -M or k >= N:
            return K._empty((0,), self.dtype)
        first, last = max(0, k), min(M + k, N)
        out = K._zeros((last - first,), self.dtype)
        hit = numpy.nonzero(self._host_offsets == k)[0]
        if hit.size:
            stop = min(last, self.data.shape[1])
            if stop > first:
                out[:stop - first] = self.data[int(hit[0]), first:stop]
        return out

    def _matmul_dense(self, x):
        M, N = self._shape
        dt = numpy.result_type(self.dtype, x.dtype)
        if dt == numpy.float16:
            dt = numpy.dtype(numpy.float32)
        out = K._empty((M,) if x.ndim == 1 else (M, x.shape[1]), dt)
        if out.size and (self.data.size == 0 or N == 0):
            out.data.memset_async(0, out.nbytes)
            return out
        return K.dia_matmul(self.data, self.offsets, self._shape, x, out)


dia_matrix, dia_array = format_classes(_dia_base)
