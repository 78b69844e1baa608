"""Elementwise operations on sparse matrices through cuarray's ufuncs: the ufunc methods
that keep zeros at zero (sqrt, sin, ...), comparisons giving sparse bool results,
maximum/minimum (SciPy's `_data_matrix` and comparison semantics).

Two sparse operands are first aligned: both canonical, their keys sorted together, so
each stored position gets its pair (a, b) with 0 for the side that stores nothing. The
ufunc then runs on the aligned values and the zeros of its result are dropped.
"""
import warnings

import numpy

from cuarray._core._kernel_helpers import OpTemplate

# Ufuncs with f(0) == 0: as methods they act on the stored values only (SciPy's list).
ZERO_PRESERVING = ("arcsin", "arcsinh", "arctan", "arctanh", "ceil", "deg2rad", "expm1",
                   "floor", "log1p", "rad2deg", "rint", "sign", "sin", "sinh", "sqrt", "tan",
                   "tanh", "trunc")

# comparison -> (ufunc, operator text, the one SciPy suggests instead)
COMPARISONS = {"__eq__": ("equal", "==", "!="), "__ne__": ("not_equal", "!=", "=="),
               "__lt__": ("less", "<", ">="), "__gt__": ("greater", ">", "<="),
               "__le__": ("less_equal", "<=", ">"), "__ge__": ("greater_equal", ">=", "<")}


def _ufunc(name):
    from cuarray._core import _ops
    return getattr(_ops, name)


def canonical(C):
    """C, or where it has duplicates or unsorted indices a copy with them summed and sorted
    (C itself is left as it is)."""
    if not C.has_canonical_format:
        C = C.copy()
        C.sum_duplicates()
    return C


def _with_scalar(A, uf, x):
    """`uf(v, x)` of each value v stored in A (duplicates summed), A's sparsity kept."""
    C = canonical(A.tocsr())
    rows = C.tocoo()
    return _from_entries(C, rows.row, rows.col, uf(C.data, x), _fmt(A))


def _with_sparse(A, uf, B):
    """`uf(a, b)` over the union of A's and B's stored entries (same shape)."""
    rows, cols, a, b = aligned(A, B)
    return _from_entries(A, rows, cols, uf(a, b), _fmt(A))


def _comparison(name):
    """The comparison operator `name` (e.g. "__lt__"), through `_compare`."""
    def compare(self, other):
        return self._compare(other, name)
    compare.__name__ = compare.__qualname__ = name
    return compare


def _warn(msg):
    from cuarray.scipy.sparse._base import SparseEfficiencyWarning
    warnings.warn(msg, SparseEfficiencyWarning, stacklevel=4)


_ALIGN = OpTemplate(
    "cuarray_sp_align",
    "k:raw:int64 q:raw:int64 xa:raw:0 xb:raw:1 na:scalar:int64 f:out:int64 a:out:2 b:out:2",
    "const bool first = i == 0 || k[i - 1] != k[i]; "
    "const bool pair = i + 1 < k.size() && k[i + 1] == k[i]; f = first ? 1 : 0; "
    "a = b = cuarray_cast<${T2}>(0); "
    "if (first) { const long long s = q[i], t = pair ? q[i + 1] : -1; "
    "if (s < na) { a = cuarray_cast<${T2}>(xa[s]); "
    "if (pair) b = cuarray_cast<${T2}>(xb[t - na]); } "
    "else { b = cuarray_cast<${T2}>(xb[s - na]); "
    "if (pair) a = cuarray_cast<${T2}>(xa[t]); } }")


def aligned(A, B):
    """(rows, cols, a, b): every position stored in A or B (sparse, one shape), in
    row-major order, with A's and B's values there (0 where one stores nothing)."""
    from cuarray._routines.joining import concatenate
    from cuarray._routines.sorting import argsort
    from cuarray.scipy.sparse import _kernels as K
    A, B = canonical(A.tocsr()).tocoo(), canonical(B.tocsr()).tocoo()
    n_minor = max(A.shape[1], 1)
    keys = concatenate([K._key(A.row, A.col, n_minor), K._key(B.row, B.col, n_minor)])
    dt = numpy.result_type(A.dtype, B.dtype)
    if keys.size == 0:
        e = K._empty((0,), K._i64)
        return e, e, K._empty((0,), dt), K._empty((0,), dt)
    perm = argsort(keys)
    skey = K.gather(keys, perm)
    op = _ALIGN(A.dtype, B.dtype, dt)
    flags = K._empty(skey.shape, K._i64)
    a, b = K._empty(skey.shape, dt), K._empty(skey.shape, dt)
    op.launch([skey, perm, A.data, B.data, numpy.int64(A.nnz), flags, a, b])
    skey, a, b = K.compact(flags, skey, a, b)
    rows, cols = K._split(skey, n_minor, K._i64)
    return rows, cols, a, b


def _from_entries(like, rows, cols, vals, fmt="csr"):
    """A `like`-family matrix of row-major sorted, distinct entries with the zeros of
    `vals` dropped."""
    from cuarray.scipy.sparse import _kernels as K
    rows, cols, vals = K.compact(K._nonzero_flags(vals), rows, cols, vals)
    M, N = like.shape
    idt = K.index_dtype(M, N, vals.size)
    indptr = K.lower_bounds(rows, M, idt)
    out = like._cls("csr")._from_parts(vals, cols.astype(idt), indptr, (M, N), True)
    return out.asformat(fmt)


def _dense_result(like, dense):
    from cuarray.scipy.sparse._base import COMPARE_FORMAT
    return like._cls("csr")(dense).asformat(COMPARE_FORMAT[like.format])


def _fmt(A):
    from cuarray.scipy.sparse._base import COMPARE_FORMAT
    return COMPARE_FORMAT[A.format]


def _is_scalar(x):
    from cuarray._core.ndarray import ndarray
    return numpy.isscalar(x) or (isinstance(x, ndarray) and x.ndim == 0)


class DataMixin:
    """The elementwise methods of cuarray's sparse matrices (mixed into the base class)."""

    def _deduped(self):
        return canonical(self.tocsr()) if self.format in ("coo", "csr", "csc") else self

    def _apply(self, name):
        A = self._deduped()
        out = A._with_data(_ufunc(name)(A.data), copy=True)
        return out.asformat(self.format) if out.format != self.format else out

    def __round__(self, ndigits=0):
        from cuarray._routines.math import around
        A = self._deduped()
        return A._with_data(around(A.data, decimals=ndigits), copy=True).asformat(self.format)

    # ---- comparisons --------------------------------------------------------------------
    def _compare(self, other, method):
        from cuarray._core.ndarray import ndarray
        from cuarray.scipy.sparse._base import _dense_operand, issparse
        name, sym, inv = COMPARISONS[method]
        uf = _ufunc(name)
        if _is_scalar(other):
            if bool(getattr(numpy, name)(0, other)):
                _warn(f"Comparing a sparse matrix with {other} using {sym} is inefficient. "
                      f"Try using {inv} instead.")
                return _dense_result(self, uf(self.toarray(), other))
            return _with_scalar(self, uf, other)
        if issparse(other):
            if other.shape != self.shape:
                raise ValueError("inconsistent shapes")
            if bool(getattr(numpy, name)(0, 0)):
                _warn(f"Comparing two sparse matrices using {sym} is inefficient. Try using "
                      f"{inv} instead.")
                return _dense_result(self, uf(self.toarray(), other.toarray()))
            return _with_sparse(self, uf, other)
        other = _dense_operand(other)
        if isinstance(other, ndarray):
            if other.ndim == 2 and other.shape != self.shape:
                raise ValueError("inconsistent shapes")
            return uf(self.toarray(), other)
        return NotImplemented

    __eq__ = _comparison("__eq__")
    __ne__ = _comparison("__ne__")
    __lt__ = _comparison("__lt__")
    __gt__ = _comparison("__gt__")
    __le__ = _comparison("__le__")
    __ge__ = _comparison("__ge__")

    __hash__ = None

    # ---- maximum, minimum ---------------------------------------------------------------
    def _maxmin(self, other, name, dense_when):
        from cuarray._core.ndarray import ndarray
        from cuarray.scipy.sparse._base import _dense_operand, issparse
        uf = _ufunc(name)
        if _is_scalar(other):
            if dense_when(other):
                _warn(f"Taking {name} with a {'positive' if name == 'maximum' else 'negative'}"
                      " number results in a dense matrix.")
                return _dense_result(self, uf(self.toarray(), other))
            return _with_scalar(self, uf, other)
        if issparse(other):
            if other.shape != self.shape:
                raise ValueError("inconsistent shapes")
            return _with_sparse(self, uf, other)
        other = _dense_operand(other)
        if isinstance(other, ndarray):
            return uf(self.toarray(), other)
        raise TypeError(f"operand of type {type(other).__name__} is not supported")

    def maximum(self, other):
        """Elementwise maximum with a scalar, a sparse matrix or a dense array (SciPy's
        result types; a positive scalar gives a full matrix, with SciPy's warning)."""
        return self._maxmin(other, "maximum", lambda s: s > 0)

    def minimum(self, other):
        """Elementwise minimum (see `maximum`)."""
        return self._maxmin(other, "minimum", lambda s: s < 0)


def _add_ufunc_methods():
    for name in ZERO_PRESERVING:
        def method(self, _name=name):
            return self._apply(_name)
        method.__name__ = name
        method.__doc__ = f"Elementwise {name} of the stored values (SciPy's `{name}`)."
        setattr(DataMixin, name, method)


_add_ufunc_methods()
