"""Indexing and assignment of CSR and CSC matrices and arrays (SciPy's `IndexMixin`
semantics on the GPU).

A key becomes a row part and a column part, each an int, a range (from a slice) or an
int64 device array. Integer and range parts select whole lines (outer indexing); two
arrays index pointwise after broadcasting. Work is written for the compressed axis
("major": rows of CSR, columns of CSC), the parts being swapped for CSC.
"""
import operator
import warnings

import numpy

from cuarray._core.ndarray import ndarray
from cuarray.scipy.sparse import _select as S
from cuarray.scipy.sparse._base import SparseEfficiencyWarning, issparse


# ---- keys -----------------------------------------------------------------------------------

def _is_int(x):
    return isinstance(x, (int, numpy.integer)) and not isinstance(x, (bool, numpy.bool_))


def _device_index(x):
    from cuarray._core.transfer import asarray
    if isinstance(x, ndarray):
        return x
    arr = numpy.asarray(x)
    if arr.dtype == object or arr.dtype.kind not in "biu" and arr.size:
        raise IndexError("only integers, slices (`:`), ellipsis (`...`) and integer or "
                         "boolean arrays are valid indices")
    if arr.size == 0:
        arr = arr.astype(numpy.int64)
    return asarray(arr)


def _part(x, n):
    """One axis of a key: ('int', i) | ('range', range) | ('array', int64 device array)."""
    if _is_int(x):
        i = operator.index(x)
        if i < -n or i >= n:
            raise IndexError(f"index ({i}) out of range")
        return "int", i % n if n else i
    if isinstance(x, slice):
        return "range", range(*x.indices(n))
    if x is None:
        raise IndexError("cuarray sparse indexing does not take None (newaxis)")
    a = _device_index(x)
    if a.dtype == numpy.bool_:
        if a.ndim != 1 or a.shape[0] != n:
            got = a.shape[0] if a.ndim else 0
            raise IndexError(f"boolean index did not match indexed array along axis; size of "
                             f"axis is {n} but size of boolean index is {got}")
        from cuarray._routines.indexing import flatnonzero
        return "array", flatnonzero(a).astype(numpy.int64, copy=False)
    if a.dtype.kind not in "iu":
        raise IndexError("arrays used as indices must be of integer (or boolean) type")
    if a.ndim > 2:
        raise IndexError("Index dimension must be 1 or 2")
    return "array", S.wrap_check(a, n)


def _split_key(key, shape):
    """(row part, column part), or ('mask', rows, cols) for a 2-D boolean mask."""
    M, N = shape
    if issparse(key):
        key = key.toarray()
    if isinstance(key, (ndarray, numpy.ndarray)) and key.dtype == numpy.bool_ and key.ndim == 2:
        if key.shape != shape:
            raise IndexError(f"boolean index shape {key.shape} does not match array shape "
                             f"{shape}")
        from cuarray._core._ops import floor_divide, remainder
        from cuarray._routines.indexing import flatnonzero
        lin = flatnonzero(_device_index(key).reshape(-1)).astype(numpy.int64, copy=False)
        return ("mask", floor_divide(lin, max(N, 1)), remainder(lin, max(N, 1)))
    if not isinstance(key, tuple):
        key = (key,)
    if any(k is Ellipsis for k in key):
        i = next(n for n, k in enumerate(key) if k is Ellipsis)
        rest = key[:i] + key[i + 1:]
        if any(k is Ellipsis for k in rest):
            raise IndexError("an index can only have a single ellipsis ('...')")
        key = key[:i] + (slice(None),) * (2 - len(rest)) + key[i + 1:]
    if len(key) > 2:
        raise IndexError("Too many indices for array")
    if len(key) == 1:
        key = key + (slice(None),)
    return _part(key[0], M), _part(key[1], N)


def _as_array(part):
    from cuarray._routines.creation import arange
    kind, v = part
    if kind == "int":
        return arange(v, v + 1, dtype=numpy.int64)
    if kind == "range":
        return arange(v.start, v.stop, v.step, dtype=numpy.int64)
    return v.reshape(-1)


def _length(part):
    kind, v = part
    return 1 if kind == "int" else len(v) if kind == "range" else v.size


def _increasing(part):
    kind, v = part
    return kind == "int" or (kind == "range" and v.step > 0)


# ---- reading --------------------------------------------------------------------------------

def _major_lines(A, key):
    """A[lines] (a 1-D integer device array of rows of CSR, or columns of CSC with the
    rows all taken), or None for any other key. Its bounds check is fused into the
    selection (one synchronisation)."""
    if type(key) is tuple:
        if len(key) != 2:
            return None
        lines, whole = A._swap(key)
    elif A.format == "csr":
        lines, whole = key, slice(None)
    else:
        return None
    if not (isinstance(lines, ndarray) and lines.ndim == 1 and lines.dtype.kind in "iu"
            and isinstance(whole, slice) and whole == slice(None)):
        return None
    n_major, n_minor = A._swap(A.shape)
    indptr, indices, data = S.select_major(A.indptr, A.indices, A.data, lines, n=n_major)
    shape = A._swap((lines.size, n_minor))
    return A._cls(A.format)._from_parts(data, indices, indptr, shape, A._canonical)


def getitem(A, key):
    fast = _major_lines(A, key)
    if fast is not None:
        return fast
    parts = _split_key(key, A.shape)
    if parts[0] == "mask":
        return _pointwise(A, parts[1], parts[2], one_d=True)
    row, col = parts
    if row[0] == "int" and col[0] == "int":
        return _pointwise(A, _as_array(row), _as_array(col), one_d=True).reshape(())
    if row[0] == "array" and col[0] == "array":
        r, c = row[1], col[1]
        if r.ndim == 2 and r.shape[1] == 1 and (c.ndim == 1 or c.shape[0] == 1):
            return _outer(A, ("array", r.reshape(-1)), ("array", c.reshape(-1)))
        from cuarray._routines.manipulation import broadcast_arrays
        try:
            r, c = broadcast_arrays(r, c)
        except ValueError:
            raise IndexError("number of row and column indices differ") from None
        return _pointwise(A, r, c, one_d=r.ndim == 1)
    res = _outer(A, row, col)
    if A._family == "array" and "int" in (row[0], col[0]):
        # A sparse array loses the integer-indexed axis: a 1-D COO array, as SciPy's.
        from cuarray.scipy.sparse._coo1d import coo_array
        return coo_array._from_2d(res if row[0] == "int" else res.T)
    return res


def _pointwise(A, rows, cols, one_d):
    """Values at (rows, cols) pairs: dense (1, n) for matrices and 1-D input (as SciPy's
    numpy.matrix), the broadcast shape for arrays; a sparse result of a 2-D shape."""
    maj, mnr = A._swap((rows, cols))
    vals = S.sample(A.indptr, A.indices, A.data, maj.astype(numpy.int64, copy=False),
                    mnr.astype(numpy.int64, copy=False))
    if not one_d:
        return A._cls(A.format)(vals)
    if A._family == "matrix" and vals.ndim == 1:
        return vals.reshape(1, -1)
    return vals


def _outer(A, row, col):
    """The submatrix of the rows and columns each part names (a new matrix)."""
    M, N = A.shape
    shape = (_length(row), _length(col))
    maj, mnr = A._swap((row, col))
    n_major, n_minor = A._swap((M, N))
    indptr, indices, data = A.indptr, A.indices, A.data
    canonical = A._canonical
    full_major = maj[0] == "range" and maj[1] == range(n_major)
    full_minor = mnr[0] == "range" and mnr[1] == range(n_minor)
    if full_major and full_minor:
        return A.copy()
    if not full_major:
        indptr, indices, data = S.select_major(indptr, indices, data, _as_array(maj))
    if not full_minor:
        indptr, indices, data = S.select_minor(indptr, indices, data, _as_array(mnr), n_minor)
        # A decreasing or repeated selection reorders a line's entries.
        canonical = canonical if _increasing(mnr) else None
    return A._cls(A.format)._from_parts(data, indices, indptr, shape, canonical)


# ---- assignment -----------------------------------------------------------------------------

def _targets(A, key):
    """(rows, cols) int64 device arrays of one shape: the positions `key` assigns."""
    from cuarray._routines.manipulation import broadcast_arrays
    parts = _split_key(key, A.shape)
    if parts[0] == "mask":
        return parts[1], parts[2]
    row, col = parts
    if row[0] == "array" and col[0] == "array":
        r, c = row[1], col[1]
        if r.ndim == 2 and r.shape[1] == 1 and (c.ndim == 1 or c.shape[0] == 1):
            c = c.reshape(1, -1)
    else:
        # Outer: every selected row with every selected column.
        r = _as_array(row).reshape(-1, 1)
        c = _as_array(col).reshape(1, -1)
    try:
        return broadcast_arrays(r, c)
    except ValueError:
        raise IndexError("number of row and column indices differ") from None


def setitem(A, key, x):
    """A[key] = x in place: stored entries are overwritten; new positions are inserted
    (SparseEfficiencyWarning, as SciPy). A sparse `x` replaces the whole block."""
    from cuarray._routines.manipulation import broadcast_to
    rows, cols = _targets(A, key)
    if issparse(x):
        if rows.ndim != 2 or x.shape != rows.shape:
            if rows.ndim == 2 and x.shape in ((1, rows.shape[1]), (rows.shape[0], 1)):
                x = x.toarray()
            else:
                raise ValueError(f"shape mismatch in assignment: {x.shape} into {rows.shape}")
        else:
            x = x.toarray()
    if not isinstance(x, ndarray):
        if isinstance(x, (numpy.ndarray, list, tuple)):
            from cuarray._core.transfer import asarray
            x = asarray(numpy.asarray(x))
        else:
            from cuarray._routines.creation import full
            x = full((), x, dtype=A.dtype)
    if x.ndim == 2 and rows.ndim == 1 and x.shape[0] == 1:
        x = x.reshape(-1)
    try:
        x = broadcast_to(x, rows.shape)
    except ValueError:
        raise ValueError(f"shape mismatch in assignment: {x.shape} into {rows.shape}") from None
    _set_many(A, rows.reshape(-1), cols.reshape(-1), x.astype(A.dtype).reshape(-1))


def _set_many(A, rows, cols, vals, warn=True):
    from cuarray._routines.sorting import argsort
    from cuarray.scipy.sparse import _kernels as K
    if rows.size == 0:
        return
    if not A.has_canonical_format:
        A.sum_duplicates()
    maj, mnr = A._swap((rows, cols))
    n_minor = A._swap(A.shape)[1]
    if maj.size > 1:
        # A position named twice takes the last value, as NumPy's assignment does.
        perm = argsort(K._key(maj, mnr, max(n_minor, 1)))
        keys = K.gather(K._key(maj, mnr, max(n_minor, 1)), perm)
        (keep,) = K.compact(S.last_of_runs(keys), perm)
        maj, mnr, vals = K.gather(maj, keep), K.gather(mnr, keep), K.gather(vals, keep)
    off = S.offsets(A.indptr, A.indices, maj, mnr)
    S.scatter_found(A.data, off, vals)
    missing = S.missing_flags(off)
    new_maj, new_mnr, new_vals = K.compact(missing, maj, mnr, vals)
    if new_vals.size == 0:
        return
    if warn:
        warnings.warn(f"Changing the sparsity structure of a {type(A).__name__} is expensive. "
                  "lil and dok are more efficient.", SparseEfficiencyWarning,
                      stacklevel=4)
    from cuarray._routines.joining import concatenate
    n_major = A._swap(A.shape)[0]
    idt = K.index_dtype(*A.shape, A.nnz + new_vals.size)
    old_maj = K.expand_major(A.indptr, A.nnz).astype(idt)
    major = concatenate([old_maj, new_maj.astype(idt)])
    minor = concatenate([A.indices.astype(idt), new_mnr.astype(idt)])
    data = concatenate([A.data, new_vals])
    indptr, indices, data = K.compress(major, minor, data, n_major, n_minor, idt,
                                       sum_dups=False)
    A._setup(data, indices, indptr, A.shape, True)
