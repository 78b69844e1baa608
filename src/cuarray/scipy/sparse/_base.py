"""The sparse matrix base class: what every format shares (cuarray version of
`scipy.sparse.spmatrix`).

Formats implement `tocsr`, `tocoo`, `nnz` and their constructors; everything else is
written here once, mostly through CSR. Products follow SciPy's matrix semantics: `*` is
matrix multiplication for sparse matrices and dense arrays, elementwise only for scalars.
Products and sums with dense arrays give `cuarray.ndarray` (SciPy gives `numpy.matrix`,
CuPy an ndarray).
"""
import numbers
import operator

import numpy

from cuarray._core._kernel_helpers import OpTemplate
from cuarray._core._out import into_out
from cuarray._core.host_policy import host_error
from cuarray._core.ndarray import ndarray
from cuarray.scipy.sparse._data import DataMixin, canonical
from cuarray.scipy.sparse._minmax import MinMaxMixin

# Sparse matrices win over ndarrays in mixed operators (ndarray's priority is 100).
_PRIORITY = 101.0
_SUPPORTED = tuple(numpy.dtype(c) for c in "?bBhHiIlLqQfdFD")
_FORMAT_NAMES = {"csr": "Compressed Sparse Row", "csc": "Compressed Sparse Column",
                 "coo": "COOrdinate", "dia": "DIAgonal"}
MAXPRINT = 50
# SciPy's result format of a binary operation, by the left operand's format: +, - and
# sparse multiply; comparisons, maximum and minimum; multiply or divide by a dense array.
SAME_FORMAT = {"csr": "csr", "csc": "csc", "coo": "csr", "dia": "dia"}
COMPARE_FORMAT = {"csr": "csr", "csc": "csc", "coo": "csr", "dia": "csr"}
DENSE_FORMAT = {"csr": "coo", "csc": "coo", "coo": "coo", "dia": "dia"}
# (family, format) -> class, filled by the format modules.
CLASSES = {}


class SparseEfficiencyWarning(UserWarning):
    """A sparse operation that is inefficient in the format used (SciPy's warning)."""


def check_dtype(dtype):
    """`dtype` as a numpy.dtype if sparse matrices can hold it (SciPy's list and message)."""
    dt = numpy.dtype(dtype)
    if dt not in _SUPPORTED:
        raise ValueError(
            f"scipy.sparse does not support dtype {dt}. The only supported types are: bool, "
            "int8, uint8, int16, uint16, int32, uint32, int64, uint64, longlong, ulonglong, "
            "float32, float64, complex64, complex128.")
    return dt


def check_shape(shape):
    """A 2-tuple of non-negative ints, or ValueError as SciPy's `check_shape`."""
    try:
        shape = tuple(operator.index(s) for s in shape)
    except TypeError:
        raise TypeError("shape must be a tuple of two integers") from None
    if len(shape) != 2:
        raise ValueError(f"shape must be a 2-tuple, got {shape}")
    if any(s < 0 for s in shape):
        raise ValueError("'shape' elements cannot be negative")
    return shape


def isshape(x):
    """True for a tuple of two non-negative integers (SciPy's `isshape`)."""
    if not isinstance(x, tuple) or len(x) != 2:
        return False
    return all(isinstance(v, (int, numpy.integer)) and not isinstance(v, (bool, numpy.bool_))
               and v >= 0 for v in x)


def is_scipy_sparse(x):
    """True for a host `scipy.sparse` matrix or array (converted on construction, as CuPy)."""
    mod = type(x).__module__
    if not mod.startswith("scipy.sparse"):
        return False
    import scipy.sparse
    return scipy.sparse.issparse(x)


def to_device(x, dtype=None):
    """A cuarray array of `x` (explicit creation from host data is what constructors do)."""
    if isinstance(x, ndarray):
        return x if dtype is None else x.astype(dtype, copy=False)
    from cuarray._core.transfer import asarray
    return asarray(numpy.asarray(x) if dtype is None else numpy.asarray(x, dtype=dtype))


def _dense_operand(x):
    """`x` unless it is host data, which operators refuse (no hidden transfers)."""
    if isinstance(x, (numpy.ndarray, list, tuple)):
        raise host_error("cuarray.scipy.sparse matrix operator", x, prefix="")
    return x


def _is_scalar(x):
    return isinstance(x, (numbers.Number, numpy.generic)) or \
        (isinstance(x, ndarray) and x.ndim == 0)


def sum_dtype(dtype):
    """SciPy's `get_sum_dtype`: small integers sum in the platform integer."""
    if dtype.kind == "u" and numpy.can_cast(dtype, numpy.uint):
        return numpy.dtype(numpy.uint)
    if numpy.can_cast(dtype, numpy.int_):
        return numpy.dtype(numpy.int_)
    return dtype


class _spbase(DataMixin, MinMaxMixin):
    """What cuarray's sparse matrices and sparse arrays share (SciPy's `_spbase`)."""

    __array_priority__ = _PRIORITY
    format = None
    ndim = 2
    _family = None

    def _cls(self, fmt):
        """This object's class family (matrix or array) in format `fmt`."""
        return CLASSES[(self._family, fmt)]

    def _scipy_cls(self):
        """SciPy's class of this format and family, for `get` (host copies)."""
        import scipy.sparse
        return getattr(scipy.sparse, f"{self.format}_{self._family}")

    # ---- attributes ---------------------------------------------------------------------
    @property
    def shape(self):
        return self._shape

    def get_shape(self):
        return self._shape

    @property
    def dtype(self):
        return self.data.dtype

    @property
    def size(self):
        return self.nnz

    def getnnz(self, axis=None):
        """Stored values (duplicates and zeros included): an int, or int64 counts per
        column (axis 0) or row (axis 1)."""
        if axis is None:
            return self.nnz
        if self.format == "dia":
            raise NotImplementedError("_getnnz over an axis is not implemented for DIA format")
        A = self._raw_csr() if self.format == "coo" else self
        return A._with_data(_ones_like_int64(A.data), copy=False)._line_sums(axis)

    def _line_sums(self, axis):
        """Sums of the stored values along `axis` as a 1-D array (SciPy's axis counts)."""
        from cuarray._routines.creation import ones
        M, N = self.shape
        axis = _axis(axis)
        if axis == 1:
            return self @ ones(N, dtype=self.dtype)
        return self.T @ ones(M, dtype=self.dtype)

    def getformat(self):
        return self.format

    def getmaxprint(self):
        """How many entries printing shows (SciPy's `getmaxprint`)."""
        return MAXPRINT

    @property
    def device(self):
        return self.data.device

    def __len__(self):
        raise TypeError("sparse array length is ambiguous; use getnnz() or shape[0]")

    def __bool__(self):
        if self.shape == (1, 1):
            return self.nnz != 0 and bool(self.toarray()[0, 0])
        raise ValueError("The truth value of an array with more than one element is "
                         "ambiguous. Use a.any() or a.all().")

    __nonzero__ = __bool__

    # ---- printing (reads the entries to the host) ---------------------------------------
    def _repr_nnz(self):
        return f"with {self.nnz} stored elements"

    def __repr__(self):
        return (f"<{_FORMAT_NAMES[self.format]} sparse {self._family} of dtype '{self.dtype}'\n"
                f"\t{self._repr_nnz()} and shape {self.shape}>")

    def __str__(self):
        out = repr(self)
        A = self.tocoo()
        nnz = A.nnz
        if nnz == 0:
            return out

        def lines(sl):
            rows, cols, vals = A.row[sl].get(), A.col[sl].get(), A.data[sl].get()
            return "\n".join(f"  {(int(r), int(c))}\t{v}" for r, c, v in zip(rows, cols, vals))

        out += "\n  Coords\tValues\n"
        if nnz > MAXPRINT:
            half = MAXPRINT // 2
            out += lines(slice(0, half)) + "\n  :\t:\n" + lines(slice(nnz - (MAXPRINT - half), nnz))
        else:
            out += lines(slice(0, nnz))
        return out

    # ---- conversions --------------------------------------------------------------------
    def asformat(self, format, copy=False):
        """This matrix in `format` ('csr', 'csc', 'coo', 'dia'; None keeps it)."""
        if format is None or format == self.format:
            return self.copy() if copy else self
        try:
            convert = getattr(self, "to" + format)
        except AttributeError:
            raise ValueError(f"Format {format} is unknown.") from None
        return convert(copy=copy)

    def tocsc(self, copy=False):
        return self.tocsr().tocsc()

    def todia(self, copy=False):
        return self.tocoo().todia()

    def toarray(self, order=None, out=None):
        """The dense matrix as a cuarray.ndarray (duplicates summed)."""
        return self.tocsr().toarray(order=order, out=out)

    def todense(self, order=None, out=None):
        """The dense matrix (a cuarray.ndarray, as in CuPy; SciPy returns numpy.matrix)."""
        return self.toarray(order=order, out=out)

    def _into(self, res, out):
        """`res` (this matrix made dense), or `out` (an array of this shape) holding it."""
        return into_out(res, out, self._shape,
                        "out array must be a cuarray.ndarray of the matrix's shape")

    def get(self, stream=None):
        """This matrix as a host `scipy.sparse` matrix of the same format (synchronises)."""
        return self.tocsr().get(stream).asformat(self.format)

    def astype(self, dtype, casting="unsafe", copy=True):
        """This matrix with values cast to `dtype`; as SciPy, duplicates are then summed
        (in the new dtype)."""
        dt = check_dtype(dtype)
        if dt == self.dtype:
            return self.copy() if copy else self
        m = self._with_data(self.data.astype(dt, casting=casting), copy=True)
        if hasattr(m, "sum_duplicates"):
            m.sum_duplicates()
        return m

    def asfptype(self):
        """This matrix in the smallest of float32, float64, complex64, complex128 that
        holds its values exactly (SciPy's `asfptype`)."""
        for fp in "fdFD":
            if numpy.can_cast(self.dtype, fp):
                return self.astype(fp)
        raise TypeError("cannot upcast [%s] to a floating point format" % self.dtype.name)

    def transpose(self, axes=None, copy=False):
        return self.tocsr(copy=copy).transpose(axes=axes, copy=False)

    @property
    def T(self):
        return self.transpose()

    def conj(self, copy=True):
        if self.dtype.kind != "c":
            return self.copy() if copy else self
        from cuarray._core._ops import conjugate
        return self._with_data(conjugate(self.data), copy=copy)

    conjugate = conj

    def getH(self):
        return self.transpose().conj()

    @property
    def real(self):
        return self._with_data(self.data.real.copy() if self.dtype.kind == "c" else self.data)

    @property
    def imag(self):
        from cuarray._routines.creation import zeros_like
        return self._with_data(self.data.imag.copy() if self.dtype.kind == "c"
                               else zeros_like(self.data))

    # ---- structure ----------------------------------------------------------------------
    def _replace(self, other):
        """Take `other`'s storage (same family), in place."""
        other = other.asformat(self.format)
        self.__dict__.clear()
        self.__dict__.update(other.__dict__)

    def setdiag(self, values, k=0):
        """Set diagonal k to `values` (a scalar, or as many values as fit; a shorter
        sequence sets the first ones), in place; no warning, as SciPy's."""
        from cuarray._routines.creation import arange, full
        from cuarray.scipy.sparse import _index
        M, N = self.shape
        k = operator.index(k)
        if (k > 0 and k >= N) or (k < 0 and -k >= M):
            raise ValueError("k exceeds array dimensions")
        n = min(M + min(k, 0), N - max(k, 0))
        if _is_scalar(values):
            vals = full((n,), values, dtype=self.dtype)
        else:
            vals = to_device(values).reshape(-1).astype(self.dtype)
            n = min(n, vals.size)
            vals = vals[:n]
        rows = arange(max(0, -k), max(0, -k) + n, dtype=numpy.int64)
        cols = arange(max(0, k), max(0, k) + n, dtype=numpy.int64)
        A = self if self.format in ("csr", "csc") else self.tocsr()
        _index._set_many(A, rows, cols, vals, warn=False)
        if A is not self:
            self._replace(A)

    def resize(self, *shape):
        """Change the shape in place, dropping the entries outside it."""
        from cuarray.scipy.sparse import _kernels as K
        if len(shape) == 1 and isinstance(shape[0], tuple):
            shape = shape[0]
        shape = check_shape(shape)
        C = self.tocoo()
        flags = _inside(C.row, C.col, shape)
        data, row, col = K.compact(flags, C.data, C.row, C.col)
        self._replace(self._cls("coo")._from_parts(data, row, col, shape, C._canonical))

    def reshape(self, *args, shape=None, order="C", copy=False):
        """The same entries in a new shape (row-major unless order='F'); a COO result, as
        SciPy's."""
        from cuarray.scipy.sparse import _kernels as K
        new = args[0] if len(args) == 1 else (args if args else shape)
        if isinstance(new, (int, numpy.integer)):
            new = (new,)
        new = tuple(operator.index(s) for s in new)
        M, N = self.shape
        if -1 in new:
            known = int(numpy.prod([s for s in new if s != -1]))
            new = tuple((M * N) // max(known, 1) if s == -1 else s for s in new)
        new = check_shape(new)
        if new[0] * new[1] != M * N:
            raise ValueError(f"cannot reshape array of size {M * N} into shape {new}")
        if order not in ("C", "F"):
            raise ValueError("order must be 'C' or 'F'")
        if new == self.shape:
            return self.copy() if copy else self
        C = self.tocoo()
        row, col = _relinearize(C.row, C.col, self.shape, new, order,
                                K.index_dtype(*new))
        return self._cls("coo")._from_parts(C.data.copy(), row, col, new, False)

    def set_shape(self, shape):
        """Reshape in place (SciPy's `set_shape`)."""
        self._replace(self.reshape(shape))

    def getrow(self, i):
        """Row i as a (1, N) sparse matrix (through CSR)."""
        return self.tocsr().getrow(i)

    def getcol(self, j):
        """Column j as an (M, 1) sparse matrix (through CSC)."""
        return self.tocsc().getcol(j)

    def trace(self, offset=0):
        """The sum of diagonal `offset` (a 0-d array)."""
        from cuarray._core._reductions import sum as _sum
        return _sum(self.diagonal(offset))

    def nonzero(self):
        """(row, col) int arrays of the stored nonzero values (duplicates not summed)."""
        from cuarray.scipy.sparse import _kernels as K
        C = self.tocoo()
        _, row, col = K.compact(K._nonzero_flags(C.data), C.data, C.row, C.col)
        return row, col

    # ---- reductions ---------------------------------------------------------------------
    def sum(self, axis=None, dtype=None, out=None):
        """Sum over all entries (a 0-d array) or along an axis (shape (1, N) or (M, 1),
        a cuarray.ndarray where SciPy returns numpy.matrix)."""
        from cuarray._routines.creation import ones
        M, N = self.shape
        res = sum_dtype(self.dtype)
        if axis is None:
            # Every stored value counts, duplicates apart, as SciPy's product with ones:
            # except that DIA's data also holds values outside the matrix, and SciPy sums
            # a bool COO matrix's duplicates (in bool) before that product.
            dedup = self.format == "dia" or (self.format == "coo" and self.dtype == numpy.bool_)
            data = (self.tocsr() if dedup else self).data
            from cuarray._core._reductions import sum as _sum
            r = _sum(data, dtype=res) if data.size else _zero_d(res)
        else:
            if axis not in (0, 1, -1, -2):
                raise ValueError("axis out of range")
            # SciPy's axis sums count a COO matrix's duplicates apart, even for bool.
            A = self._raw_csr() if self.format == "coo" else self
            if axis in (1, -1):
                r = (A @ ones(N, dtype=res)).reshape(M, 1)
            else:
                r = (A.T @ ones(M, dtype=res)).reshape(1, N)
            if self._family == "array":
                r = r.reshape(-1)
        if dtype is not None:
            r = r.astype(dtype)
        if out is not None:
            out[...] = r
            return out
        return r

    def mean(self, axis=None, dtype=None, out=None):
        """The mean over all entries or along an axis (integers average in float64)."""
        inter = numpy.dtype(numpy.float64) if self.dtype.kind in "biu" else self.dtype
        A = self.astype(inter, copy=False)
        n = {None: self.shape[0] * self.shape[1], 0: self.shape[0], -2: self.shape[0],
             1: self.shape[1], -1: self.shape[1]}.get(axis)
        if n is None:
            raise ValueError("axis out of range")
        r = A.sum(axis=axis) / n if n else A.sum(axis=axis) * numpy.nan
        r = r.astype(inter if dtype is None else dtype, copy=False)
        if out is not None:
            out[...] = r
            return out
        return r

    def diagonal(self, k=0):
        return self.tocsr().diagonal(k)

    def count_nonzero(self, axis=None):
        """The number of nonzero values, duplicates summed first: a Python int (read from
        the device), or int64 counts per column (axis 0) or row (axis 1)."""
        from cuarray._core._reductions import count_nonzero
        if axis is not None and self.format == "dia":
            raise NotImplementedError("count_nonzero over an axis is not implemented for DIA "
                                      "format")
        A = canonical(self.tocsr())
        if axis is not None:
            from cuarray._core._ops import not_equal
            return A._with_data(not_equal(A.data, 0).astype(numpy.int64),
                                copy=False)._line_sums(axis)
        return int(count_nonzero(A.data))

    # ---- arithmetic ---------------------------------------------------------------------
    def _mul_scalar(self, other):
        return self._with_data(self.data * other, copy=False)

    def _matmul_dispatch(self, other, name):
        other = _dense_operand(other)
        if issparse(other):
            if self.shape[1] != other.shape[0]:
                raise ValueError(f"{name}: dimension mismatch with signature (n,k={self.shape[1]}),"
                                 f"(k={other.shape[0]},m)->(n,m)")
            return self._matmul_sparse(other)
        if _is_scalar(other):
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        if not isinstance(other, ndarray):
            raise TypeError(f"cuarray sparse matrices cannot multiply {type(other).__name__}")
        if other.ndim > 2:
            raise ValueError(f"{name}: operand with {other.ndim} dimensions is not supported")
        if other.shape[0] != self.shape[1]:
            tail = "" if other.ndim == 1 else f",{other.shape[1]}"
            raise ValueError(f"{name}: dimension mismatch with signature (n,k={self.shape[1]}),"
                             f"(k={other.shape[0]}{tail})->(n{tail})")
        return self._matmul_dense(other)

    def _matmul_dense(self, other):
        return self.tocsr()._matmul_dense(other)

    def _matmul_sparse(self, other):
        return self.tocsr()._matmul_sparse(other).asformat(SAME_FORMAT[self.format])

    def dot(self, other):
        """Matrix product with a sparse matrix, a dense vector or matrix, or a scalar."""
        if _is_scalar(other):
            return self._mul_scalar(other)
        return self._matmul_dispatch(other, "matmul")


    def __matmul__(self, other):
        if _is_scalar(other):
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        if not _operand(other):
            return NotImplemented
        return self._matmul_dispatch(other, "matmul")

    def __rmatmul__(self, other):
        if _is_scalar(other):
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        return self._rmatmul(other)

    def _rmatmul(self, other):
        other = _dense_operand(other)
        if not isinstance(other, ndarray):
            return NotImplemented
        # x @ A = (A^T @ x^T)^T
        if other.ndim == 1:
            return self.transpose()._matmul_dispatch(other, "matmul")
        return self.transpose()._matmul_dispatch(other.T, "matmul").T

    def matvec(self, other):
        """A @ x for a dense vector x (SciPy's `_matvec`)."""
        return self._matmul_dispatch(other, "matvec")

    def multiply(self, other):
        """Elementwise product: with a scalar, a dense array (broadcast; a COO result as
        SciPy's) or another sparse matrix (a CSR result)."""
        if _is_scalar(other):
            return self._mul_scalar(other)
        if issparse(other):
            if other.shape != self.shape:
                raise ValueError("inconsistent shapes")
            return self.tocsr()._multiply_sparse(other).asformat(SAME_FORMAT[self.format])
        other = _dense_operand(other)
        if not isinstance(other, ndarray):
            raise TypeError(f"cuarray sparse matrices cannot multiply {type(other).__name__}")
        return self.tocsr()._multiply_dense(other).asformat(DENSE_FORMAT[self.format])

    def __truediv__(self, other):
        if _is_scalar(other):
            from cuarray._core._ops import true_divide
            # SciPy divides in float64 whatever the precision, when the values allow it.
            data = self.data
            if numpy.can_cast(data.dtype, numpy.float64):
                data = data.astype(numpy.float64)
            return self._with_data(true_divide(data, other), copy=False)
        if issparse(other):
            return self.toarray() / other.toarray()
        other = _dense_operand(other)
        if not isinstance(other, ndarray):
            return NotImplemented
        return self.tocsr()._multiply_dense(other, "true_divide").asformat(
            DENSE_FORMAT[self.format])

    def __rtruediv__(self, other):
        # SciPy has no dense / sparse nor scalar / sparse: Python raises TypeError.
        return NotImplemented

    def __neg__(self):
        if self.dtype == numpy.bool_:
            raise NotImplementedError("negating a boolean sparse array is not supported")
        return self._with_data(-self.data, copy=False)

    def __pos__(self):
        return self.copy()

    def __abs__(self):
        from cuarray._core._ops import absolute
        return self._with_data(absolute(self.data), copy=False)

    def __add__(self, other):
        return self._plus(other, 1, "adding a nonzero scalar to a sparse array")

    def __radd__(self, other):
        return self.__add__(other)

    def __sub__(self, other):
        return self._plus(other, -1, "subtracting a nonzero scalar from a sparse array")

    def _plus(self, other, sign, refused):
        """self + sign * other; a nonzero scalar `other` is `refused` (as SciPy)."""
        if _is_scalar(other):
            if other == 0:
                return self.copy()
            raise NotImplementedError(f"{refused} is not supported")
        if issparse(other):
            if other.shape != self.shape:
                raise ValueError(f"inconsistent shapes ({self.shape} and {other.shape})")
            return self._add_sparse(other, sign)
        other = _dense_operand(other)
        if isinstance(other, ndarray):
            return self.toarray() + other if sign > 0 else self.toarray() - other
        return NotImplemented

    def __rsub__(self, other):
        if _is_scalar(other):
            if other == 0:
                return -self
            raise NotImplementedError("subtracting a sparse array from a nonzero scalar is "
                                      "not supported")
        other = _dense_operand(other)
        if isinstance(other, ndarray):
            return other - self.toarray()
        return NotImplemented

    def _add_sparse(self, other, sign):
        return self.tocsr()._add_sparse(other, sign).asformat(SAME_FORMAT[self.format])

    def power(self, n, dtype=None):
        """Elementwise power of the stored values (SciPy's `power`)."""
        if not _is_scalar(n):
            raise NotImplementedError("input is not scalar")
        if n == 0:
            raise NotImplementedError("zero power is not supported as it would densify the "
                                      "matrix")
        A = canonical(self.tocsr())
        data = A.data if dtype is None else A.data.astype(dtype)
        from cuarray._core._ops import power
        return A._with_data(power(data, n), copy=False).asformat(self.format)

    def __iter__(self):
        raise TypeError("iterating over a cuarray sparse matrix is not supported; convert it "
                        "with toarray()")


_INSIDE = OpTemplate("cuarray_sp_inside",
                     "r:in:int64 c:in:int64 M:scalar:int64 N:scalar:int64 f:out:int64",
                     "f = (r < M && c < N) ? 1 : 0;")


def _inside(row, col, shape):
    from cuarray.scipy.sparse._kernels import _empty, _i64
    out = _empty(row.shape, _i64)
    if out.size:
        _INSIDE().launch([row, col, numpy.int64(shape[0]), numpy.int64(shape[1]), out])
    return out


_RELINEARIZE = OpTemplate(
    "cuarray_sp_reshape",
    "r:in:int64 c:in:int64 M:scalar:int64 N:scalar:int64 M2:scalar:int64 N2:scalar:int64 "
    "f:scalar:bool ro:out:0 co:out:0",
    "if (f) { const long long t = c * M + r; co = t / M2; ro = t - (t / M2) * M2; } "
    "else { const long long t = r * N + c; ro = t / N2; co = t - (t / N2) * N2; }")


def _relinearize(row, col, old, new, order, idt):
    from cuarray.scipy.sparse._kernels import _empty
    ro, co = _empty(row.shape, idt), _empty(row.shape, idt)
    if row.size:
        _RELINEARIZE(idt).launch([row, col, numpy.int64(old[0]), numpy.int64(old[1]),
                                  numpy.int64(new[0]), numpy.int64(new[1]),
                                  numpy.bool_(order == "F"), ro, co])
    return ro, co


def _operand(x):
    """True for what sparse operators handle themselves: scalars, sparse matrices, arrays
    (host arrays get the explicit-transfer TypeError); others get NotImplemented."""
    return _is_scalar(x) or issparse(x) or isinstance(x, (ndarray, numpy.ndarray, list, tuple))


def _axis(axis):
    if axis not in (0, 1, -1, -2):
        raise ValueError("axis out of range")
    return axis % 2


def _ones_like_int64(a):
    from cuarray._routines.creation import ones
    return ones(a.shape, dtype=numpy.int64)


def _zero_d(dtype):
    from cuarray._routines.creation import zeros
    return zeros((), dtype=dtype)


class spmatrix:
    """The sparse matrix interface (cuarray version of `scipy.sparse.spmatrix`): `*` is
    the matrix product and `**` the matrix power; axis sums keep two dimensions."""

    _family = "matrix"

    def __mul__(self, other):
        if not _operand(other):
            return NotImplemented
        return self.dot(other)

    def __rmul__(self, other):
        if _is_scalar(other):
            return self._mul_scalar(other)
        return self._rmatmul(other)

    def __pow__(self, n):
        """Matrix power (SciPy's spmatrix semantics): A @ A @ ... for an integer n >= 0."""
        M, N = self.shape
        if M != N:
            raise TypeError("sparse matrix is not square")
        if not isinstance(n, (int, numpy.integer)) or isinstance(n, bool):
            raise ValueError("exponent must be an integer")
        if n < 0:
            raise ValueError("exponent must be >= 0")
        from cuarray.scipy.sparse._construct import identity
        if n == 0:
            return identity(M, dtype=self.dtype, format="csr")
        return _power(self, n)



class sparray:
    """The sparse array interface (cuarray version of `scipy.sparse.sparray`): `*` and
    `**` are elementwise; axis sums are 1-D. Only 2-D sparse arrays exist in cuarray."""

    _family = "array"

    def __mul__(self, other):
        if not _operand(other):
            return NotImplemented
        return self.multiply(other)

    __rmul__ = __mul__   # elementwise: the same either side

    def __pow__(self, n):
        return self.power(n)


def format_classes(base):
    """(<format>_matrix, <format>_array) of a format's shared class `base`: `base` under
    `spmatrix` and under `sparray`, defined in `base`'s module and registered in CLASSES."""
    fmt = base.format
    made = []
    for family, iface, what in (("matrix", spmatrix, "A sparse matrix"),
                                ("array", sparray, "A 2-D sparse array")):
        name = f"{fmt}_{family}"
        CLASSES[family, fmt] = cls = type(name, (iface, base), {
            "__module__": base.__module__, "__qualname__": name,
            "__doc__": f"{what} in {_FORMAT_NAMES[fmt]} format (cuarray version of "
                       f"`scipy.sparse.{name}`)."})
        made.append(cls)
    return tuple(made)


def _power(A, n):
    """A ** n (matrix power, n >= 1) of square sparse A by repeated squaring, as CSR."""
    result, base = None, A.tocsr()
    while True:
        if n & 1:
            result = base if result is None else result @ base
        n >>= 1
        if not n:
            return result
        base = base @ base


def issparse(x):
    """True for a cuarray sparse matrix or array (cuarray version of
    `scipy.sparse.issparse`)."""
    return isinstance(x, _spbase)


def isspmatrix(x):
    """True for a cuarray sparse matrix, False for a sparse array (as SciPy)."""
    return isinstance(x, spmatrix)


def isspmatrix_csr(x):
    """cuarray version of `scipy.sparse.isspmatrix_csr`."""
    return isspmatrix(x) and x.format == "csr"


def isspmatrix_csc(x):
    """cuarray version of `scipy.sparse.isspmatrix_csc`."""
    return isspmatrix(x) and x.format == "csc"


def isspmatrix_coo(x):
    """cuarray version of `scipy.sparse.isspmatrix_coo`."""
    return isspmatrix(x) and x.format == "coo"


def isspmatrix_dia(x):
    """cuarray version of `scipy.sparse.isspmatrix_dia`."""
    return isspmatrix(x) and x.format == "dia"


def isdense(x):
    return isinstance(x, ndarray)


def as_family(x, family):
    """`x` as a sparse matrix ('matrix') or sparse array ('array') sharing its storage."""
    if x._family == family:
        return x
    y = object.__new__(CLASSES[family, x.format])
    y.__dict__.update(x.__dict__)
    return y
