"""1-D sparse arrays: the COO array of shape (n,) that SciPy's sparse arrays give for an
integer index (`A[i]`, `A[:, j]`) or build from 1-D data.

The entries are `data` and one index array `col` (`coords == (col,)`). Arithmetic,
comparisons, ufunc methods and reductions run on the same entries seen as a (1, n)
matrix and come back 1-D. cuarray has no 1-D CSR or CSC: `tocsr`/`tocsc` raise TypeError
(reshape to 2-D first), where SciPy returns a 1-D CSR array.
"""
import operator

import numpy

from cuarray._core.ndarray import ndarray
from cuarray.scipy.sparse import _kernels as K
from cuarray.scipy.sparse._base import issparse
from cuarray.scipy.sparse._coo import coo_array as _coo_array2d
from cuarray.scipy.sparse._data import ZERO_PRESERVING


class coo_array(_coo_array2d):
    """A 1-D sparse array in COOrdinate format (cuarray version of SciPy's 1-D
    `coo_array`)."""

    ndim = 1

    @classmethod
    def _make(cls, data, col, n, canonical=False):
        m = object.__new__(cls)
        m.data = data if data._c_contig else data.copy()
        m.col = col.astype(K.index_dtype(n), copy=False)
        m._shape = (int(n),)
        m._canonical = bool(canonical)
        return m

    @classmethod
    def _from_2d(cls, X):
        """The 1-D array of a (1, n) sparse result."""
        C = X.tocoo()
        return cls._make(C.data, C.col, C.shape[1], C._canonical)

    def _as2d(self):
        """The same entries as a (1, n) COO array (no copy of data or indices)."""
        return _coo_array2d._from_parts(self.data, K._zeros((self.nnz,), self.col.dtype),
                                        self.col, (1, self._shape[0]), self._canonical)

    # ---- attributes and conversions -----------------------------------------------------
    @property
    def coords(self):
        return (self.col,)

    @property
    def row(self):
        """Zeros, as SciPy's 1-D COO array gives."""
        return K._zeros((self.nnz,), self.col.dtype)

    def copy(self):
        return self._make(self.data.copy(), self.col.copy(), self._shape[0], self._canonical)

    def _with_data(self, data, copy=True):
        return self._make(data, self.col.copy() if copy else self.col, self._shape[0],
                          self._canonical)

    def tocoo(self, copy=False):
        return self.copy() if copy else self

    def _no_compressed(self, *args, **kwargs):
        raise TypeError("cuarray has no 1-D CSR/CSC/DIA arrays; reshape the 1-D array to "
                        "2-D first, e.g. A.reshape((1, -1)).tocsr()")

    tocsr = tocsc = todia = _no_compressed

    def __init__(self, *args, **kwargs):
        """Built by `_build`/`_make` (coo_array's constructor sends 1-D input here)."""

    @classmethod
    def _build(cls, arg1, shape, dtype, copy):
        """coo_array(dense 1-D), coo_array((data, (idx,)), shape=(n,)), coo_array((n,))."""
        from cuarray.scipy.sparse._base import check_dtype, to_device
        if isinstance(arg1, coo_array):
            m = arg1.copy() if copy else cls._make(arg1.data, arg1.col, arg1._shape[0],
                                                   arg1._canonical)
            return m if dtype is None else m.astype(dtype)
        if isinstance(arg1, tuple) and len(arg1) == 1:
            n = operator.index(arg1[0])
            return cls._make(K._zeros((0,), check_dtype(dtype or numpy.float64)),
                             K._empty((0,), K.index_dtype(n)), n, True)
        if isinstance(arg1, tuple):
            data, (idx,) = arg1
            data, idx = to_device(data), to_device(idx)
            if copy:
                data, idx = data.copy(), idx.copy()
            if shape is None:
                from cuarray._core._reductions import amax
                n = int(amax(idx)) + 1 if idx.size else 0
            else:
                (n,) = shape
            if dtype is not None:
                data = data.astype(check_dtype(dtype))
            check_dtype(data.dtype)
            return cls._make(data, idx, n, False)
        dense = to_device(arg1)
        m = cls._from_2d(_coo_array2d(dense.reshape(1, -1), dtype=dtype))
        return m

    def asformat(self, format, copy=False):
        if format in (None, "coo"):
            return self.copy() if copy else self
        return self._no_compressed()

    def toarray(self, order=None, out=None):
        """The dense 1-D array (duplicates summed)."""
        res = self._as2d().toarray().reshape(self._shape)
        if out is not None:
            out[...] = res
            return out
        return res

    todense = toarray

    def get(self, stream=None):
        import scipy.sparse
        return scipy.sparse.coo_array((self.data.get(), (self.col.get(),)), shape=self._shape)

    def transpose(self, axes=None, copy=False):
        return self.copy() if copy else self

    @property
    def T(self):
        return self

    def reshape(self, *args, shape=None, order="C", copy=False):
        """The entries in a new 1-D or 2-D shape (a COO array)."""
        new = args[0] if len(args) == 1 else (args if args else shape)
        new = (new,) if isinstance(new, (int, numpy.integer)) else tuple(new)
        if len(new) == 1:
            n = self._shape[0] if new[0] == -1 else operator.index(new[0])
            if n != self._shape[0]:
                raise ValueError(f"cannot reshape array of size {self._shape[0]} into shape "
                                 f"{new}")
            return self.copy() if copy else self
        return self._as2d().reshape(new, order=order)

    def nonzero(self):
        _, col = self._as2d().nonzero()
        return (col,)

    def sum_duplicates(self):
        C = self._as2d()
        C.sum_duplicates()
        self.data, self.col, self._canonical = C.data, C.col, True

    def eliminate_zeros(self):
        C = self._as2d()
        C.eliminate_zeros()
        self.data, self.col = C.data, C.col

    # ---- products -----------------------------------------------------------------------
    def dot(self, other):
        """The inner product with a dense vector (a 0-d array), the 1-D product with a
        dense (n, k) matrix, or with a scalar the scaled array."""
        if numpy.isscalar(other) or (isinstance(other, ndarray) and other.ndim == 0):
            return self._with_data(self.data * other, copy=False)
        if issparse(other):
            other = other.toarray()
        if not isinstance(other, ndarray):
            raise TypeError("cuarray sparse arrays multiply cuarray arrays; move host data "
                            "with cuarray.asarray(x)")
        if other.shape[0] != self._shape[0]:
            raise ValueError(f"dimension mismatch: ({self._shape[0]},) and {other.shape}")
        res = self._as2d() @ other
        return res.reshape(()) if other.ndim == 1 else res.reshape(-1)

    def __matmul__(self, other):
        if numpy.isscalar(other):
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        return self.dot(other)

    def __rmatmul__(self, other):
        if not isinstance(other, ndarray):
            return NotImplemented
        res = other @ self._as2d().T
        return res.reshape(()) if other.ndim == 1 else res.reshape(-1)

    # ---- reductions ---------------------------------------------------------------------
    def sum(self, axis=None, dtype=None, out=None):
        if axis not in (None, 0, -1, (0,)):
            raise ValueError("axis out of range")
        return self._as2d().sum(dtype=dtype, out=out)

    def mean(self, axis=None, dtype=None, out=None):
        if axis not in (None, 0, -1, (0,)):
            raise ValueError("axis out of range")
        return self._as2d().mean(dtype=dtype, out=out)

    def count_nonzero(self, axis=None):
        return self._as2d().count_nonzero()

    def __getitem__(self, key):
        res = self._as2d()[0:1, key] if not isinstance(key, tuple) else None
        if res is None:
            raise IndexError("too many indices for a 1-D sparse array")
        return self._from_2d(res) if issparse(res) else res.reshape(-1)

    def __setitem__(self, key, x):
        C = self._as2d().tocsr(copy=True)
        C[0:1, key] = x
        self._replace_1d(C)

    def _replace_1d(self, X):
        new = self._from_2d(X)
        self.data, self.col, self._canonical = new.data, new.col, new._canonical

    def __str__(self):
        out = repr(self)
        if self.nnz == 0:
            return out
        cols, vals = self.col.get(), self.data.get()
        lines = [f"  ({int(c)},)\t{v}" for c, v in zip(cols, vals)]
        if len(lines) > 50:
            lines = lines[:25] + ["  :\t:"] + lines[-25:]
        return out + "\n  Coords\tValues\n" + "\n".join(lines)


def _lift(x):
    """A 1-D operand as its (1, n) form; anything else unchanged."""
    if isinstance(x, coo_array):
        return x._as2d()
    if isinstance(x, ndarray) and x.ndim == 1:
        return x.reshape(1, -1)
    return x


def _lower(res):
    if issparse(res):
        return coo_array._from_2d(res)
    if isinstance(res, ndarray) and res.ndim == 2:
        return res.reshape(-1)
    return res


_REDUCE = ("max", "min", "nanmax", "nanmin", "argmax", "argmin")


def _through_2d(name):
    def method(self, *args, **kwargs):
        if name in _REDUCE:
            # A 1-D array's only axis is the whole array.
            axis = kwargs.pop("axis", args[0] if args else None)
            args = args[1:]
            if axis not in (None, 0, -1):
                raise ValueError("axis out of range")
        res = getattr(self._as2d(), name)(*[_lift(a) for a in args], **kwargs)
        if res is NotImplemented:
            return res
        return _lower(res)
    method.__name__ = name
    method.__doc__ = f"`{name}` of the entries seen as a (1, n) array, back in 1-D."
    return method


for _name in ZERO_PRESERVING + (
        "__neg__", "__abs__", "__pos__", "conj", "conjugate", "power", "maximum", "minimum",
        "multiply", "__mul__", "__rmul__", "__truediv__", "__add__", "__radd__", "__sub__",
        "__rsub__", "__pow__", "__eq__", "__ne__", "__lt__", "__gt__", "__le__", "__ge__",
        "astype", "__round__", "max", "min", "nanmax", "nanmin", "argmax", "argmin"):
    setattr(coo_array, _name, _through_2d(_name))
coo_array.__hash__ = None
for _name in ("real", "imag"):
    setattr(coo_array, _name, property(lambda self, _n=_name: _lower(getattr(self._as2d(), _n))))
def _two_d_only(self, *args, **kwargs):
    raise TypeError("this method is defined for 2-D sparse arrays; reshape the 1-D array "
                    "to 2-D first")


for _name in ("setdiag", "diagonal", "trace", "resize", "getrow", "getcol", "getnnz",
              "set_shape"):
    setattr(coo_array, _name, _two_d_only)
