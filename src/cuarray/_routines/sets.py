"""Set routines: unique and the array-API unique_* functions, isin, in1d, intersect1d,
union1d, setdiff1d, setxor1d (NumPy reference: "Set routines").

Everything is sort based: sort, flag the first element of each run of equal values, an
inclusive scan of the flags gives every run its output slot. The number of distinct
values is read back once (a size the result needs); nothing else synchronises.
"""
from typing import NamedTuple

import numpy

from cuarray._core import dtypes as _dt
from cuarray._core.elementwise import Op, Param
from cuarray._core.ndarray import ndarray
from cuarray._core.shapes import normalize_axis
from cuarray._libs import cccl as _cccl
from cuarray._core import _routines_sorting as _s
from cuarray._core._routines_sorting import ORDER, need, op

_i64 = numpy.dtype(numpy.int64)
_i32 = numpy.dtype(numpy.int32)
_bool = numpy.dtype(numpy.bool_)


class UniqueAllResult(NamedTuple):
    values: ndarray
    indices: ndarray
    inverse_indices: ndarray
    counts: ndarray


class UniqueCountsResult(NamedTuple):
    values: ndarray
    counts: ndarray


class UniqueInverseResult(NamedTuple):
    values: ndarray
    inverse_indices: ndarray


# ---- runs of equal values -------------------------------------------------------------------
def _differ(dtype, equal_nan):
    """C expression: sorted neighbours `x` and `y` start different runs."""
    if equal_nan and dtype.kind in "fc":
        return "(x != y && !(cuarray_isnan_v(x) && cuarray_isnan_v(y)))"
    return "(x != y)"


def _starts_op(dt, equal_nan):
    """f = a[i] starts a run of equal values of the sorted 1-D a."""
    expr = _differ(dt, equal_nan)
    T = _dt.ctype(dt)
    return op(("starts", dt.char, expr), lambda: Op(
        "cuarray_run_starts", [Param("a", "raw", dt), Param("f", "out", _bool)],
        f"if (i == 0) f = true; else {{ const {T} x = a[i], y = a[i - 1]; f = {expr}; }}",
        preamble=ORDER))


def _compact_op(dt, pdt):
    return op(("compact", dt.char, pdt.char), lambda: Op(
        "cuarray_compact", [Param("f", "in", _bool), Param("pos", "in", pdt), Param("a", "in", dt),
                            Param("o", "raw", dt)], "if (f) o[(long long)pos - 1] = a;"))


def _take_op(dt, idt):
    return op(("take", dt.char, idt.char), lambda: Op(
        "cuarray_set_take", [Param("i_", "in", idt), Param("a", "raw", dt), Param("o", "out", dt)],
        "o = a[(long long)i_];"))


def _runs_op(dt, pdt, rows, want_index, want_inverse, want_counts, permdt):
    """Writes each run's value (or row, read through the permutation), first index, start
    position, and every element's run number (the inverse)."""
    def build():
        params = [Param("f", "in", _bool), Param("pos", "in", pdt), Param("a", "raw", dt),
                  Param("v", "raw", dt), Param("m", "scalar", _i64)]
        if permdt is not None:
            params.append(Param("pm", "raw", permdt))
        body = "const long long k = (long long)pos - 1; if (f) { "
        if not rows:
            body += "v[k] = a[i]; "
        else:
            body += ("const long long r = (long long)pm[i] * m; "
                     "for (long long j = 0; j < m; ++j) v[k * m + j] = a[r + j]; ")
        if want_index:
            params.append(Param("ix", "raw", _i64))
            body += "ix[k] = (long long)pm[i]; "
        if want_counts:
            params.append(Param("st", "raw", _i64))
            body += "st[k] = i; "
        body += "} "
        if want_inverse:
            params.append(Param("iv", "raw", _i64))
            body += "iv[(long long)pm[i]] = k;"
        return Op("cuarray_unique_runs", params, body)
    return op(("runs", dt.char, pdt.char, rows, want_index, want_inverse, want_counts,
               None if permdt is None else permdt.char), build)


def _counts_op():
    return op(("counts",), lambda: Op(
        "cuarray_unique_counts", [Param("st", "raw", _i64), Param("n", "scalar", _i64),
                                  Param("c", "out", _i64)], "c = (i + 1 < st.size() ? st[i + 1] : n) - st[i];"))


def _rowstarts_op(dt, vt):
    """f = row pm[i] of the (n, m) x differs from row pm[i - 1]."""
    T = _dt.ctype(dt)
    return op(("rowstarts", dt.char, vt.char), lambda: Op(
        "cuarray_row_starts", [Param("pm", "raw", vt), Param("x", "raw", dt), Param("m", "scalar", _i64),
                               Param("f", "out", _bool)],
        f"bool d = i == 0; if (!d) {{ const long long r = (long long)pm[i] * m, q = (long long)pm[i - 1] * m; "
        f"for (long long j = 0; j < m && !d; ++j) {{ const {T} a = x[r + j], b = x[q + j]; d = a != b; }} }} f = d;",
        preamble=ORDER))


def _isin_op(ct, invert):
    """o = v is in the sorted s (bisection, then equality), negated when invert."""
    return op(("isin", ct.char, bool(invert)), lambda: Op(
        "cuarray_isin", [Param("v", "in", ct), Param("s", "raw", ct), Param("o", "out", _bool)],
        "long long lo = 0, hi = s.size(); "
        "while (lo < hi) { const long long mid = (lo + hi) >> 1; if (cuarray_lt(s[mid], v)) lo = mid + 1; else hi = mid; } "
        f"o = (lo < s.size() && s[lo] == v) != {'true' if invert else 'false'};", preamble=ORDER))


def _eqnext_op(dt):
    return op(("eqnext", dt.char), lambda: Op(
        "cuarray_eq_next", [Param("a", "raw", dt), Param("f", "out", _bool)], "f = a[i + 1] == a[i];"))


def _xorkeep_op(dt):
    return op(("xorkeep", dt.char), lambda: Op(
        "cuarray_setxor_keep", [Param("a", "raw", dt), Param("f", "out", _bool)],
        "f = (i == 0 || a[i] != a[i - 1]) && (i + 1 == a.size() || a[i] != a[i + 1]);"))


def _run_starts(aux, equal_nan):
    """Bool flags: aux[i] starts a run of equal values (aux sorted, 1-D)."""
    f = ndarray._alloc(aux.shape, _bool)
    _starts_op(aux.dtype, equal_nan).launch([aux, f])
    return f


def _slots(flags):
    """(inclusive scan of flags, number of set flags): one device-to-host read."""
    from cuarray._core.scan import cumsum
    n = flags.size
    pos = cumsum(flags, dtype=_i32 if n < 2**31 - 1 else _i64)
    return pos, (int(pos[n - 1]) if n else 0)


def compact(flags, arrays):
    """[a[flags] for a in arrays] (1-D arrays of flags' length): boolean-mask selection."""
    pos, u = _slots(flags)
    outs = [ndarray._alloc((u,), a.dtype) for a in arrays]
    if u:
        for a, o in zip(arrays, outs):
            _compact_op(a.dtype, pos.dtype).launch([flags, pos, a, o])
    return outs


def take(a, idx):
    """a[idx] for 1-D a and an integer index array (no bounds check)."""
    out = ndarray._alloc(idx.shape, a.dtype)
    if out.size:
        _take_op(a.dtype, idx.dtype).launch([idx, a, out])
    return out


def concat(a, b):
    """1-D concatenation of the flattened a and b in their common dtype."""
    dt = _dt.check_dtype(numpy.result_type(a.dtype, b.dtype))
    out = ndarray._alloc((a.size + b.size,), dt)
    from cuarray._core._copy import copy_into
    if a.size:
        copy_into(out[:a.size], a.reshape(-1))
    if b.size:
        copy_into(out[a.size:], b.reshape(-1))
    return out


def _runs(aux, flags, perm, want_index, want_inverse, want_counts, m=None):
    """Values of each run, and first indices / inverse / counts.

    m None: `aux` is sorted and 1-D. Otherwise `aux` is (n, m), unsorted, its rows read
    through `perm`."""
    N = flags.size
    pos, u = _slots(flags)
    vals = ndarray._alloc((u,) if m is None else (u, m), aux.dtype)
    index = ndarray._alloc((u,), _i64) if want_index else None
    inverse = ndarray._alloc((N,), _i64) if want_inverse else None
    starts = ndarray._alloc((u,), _i64) if want_counts else None
    if N:
        args = [flags, pos, aux, vals, numpy.int64(m or 1)] + ([perm] if perm is not None else [])
        args += [x for x in (index, starts, inverse) if x is not None]
        _runs_op(aux.dtype, pos.dtype, m is not None, want_index, want_inverse, want_counts,
                 None if perm is None else perm.dtype).launch(args)
    counts = None
    if want_counts:
        counts = ndarray._alloc((u,), _i64)
        if u:
            _counts_op().launch([starts, numpy.int64(N), counts])
    return vals, index, inverse, counts


def _unique1d(x, want_index, want_inverse, want_counts, equal_nan):
    aux, perm = _s.sort_last(x, True, want_index or want_inverse)
    flags = _run_starts(aux, equal_nan) if x.size else ndarray._alloc((0,), _bool)
    return _runs(aux, flags, perm, want_index, want_inverse, want_counts)


def _unique_rows(x2, want_index, want_inverse, want_counts):
    """unique over the rows of the C-contiguous (n, m) array x2 (lexicographic order)."""
    from cuarray._routines.creation import zeros, full
    n, m = x2.shape
    if n == 0 or m == 0:  # no rows, or every row is the same empty row
        u = min(n, 1)
        return (ndarray._alloc((u, m), x2.dtype), zeros((u,), _i64) if want_index else None,
                zeros((n,), _i64) if want_inverse else None,
                full((u,), n, _i64) if want_counts else None)
    vt = _s._u32 if n < 2**32 else _s._u64
    cols = [x2[:, j] for j in range(m - 1, -1, -1)]  # column 0 is the primary key
    keys = [k for c in cols for k in _s._subkeys(c, True)]
    perm = _s.lsd_argsort(keys, n, n, _cccl.backend(), vt)
    flags = ndarray._alloc((n,), _bool)
    _rowstarts_op(x2.dtype, vt).launch([perm, x2, numpy.int64(m), flags])
    return _runs(x2, flags, perm, want_index, want_inverse, want_counts, m)


def _pack(vals, index, inverse, counts, ri, rv, rc):
    if not (ri or rv or rc):
        return vals
    return tuple(x for x, want in ((vals, True), (index, ri), (inverse, rv), (counts, rc)) if want)


# ---- the NumPy functions ------------------------------------------------------------------
def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *,
           equal_nan=True, sorted=True):
    """cuarray version of `numpy.unique` (the result is always sorted); reads the number of
    distinct values back to the host."""
    ar = need(ar, "unique")
    if axis is None or ar.ndim == 1:
        if axis is not None:
            normalize_axis(axis, ar.ndim)
        x = ar.reshape(-1)
        vals, index, inverse, counts = _unique1d(x, return_index, return_inverse, return_counts,
                                                 equal_nan)
        if inverse is not None:
            inverse = inverse.reshape(ar.shape)
        return _pack(vals, index, inverse, counts, return_index, return_inverse, return_counts)
    axis = normalize_axis(axis, ar.ndim)
    moved = ar if axis == 0 else ar.transpose([axis] + [d for d in range(ar.ndim) if d != axis])
    rest = moved.shape[1:]
    m = 1
    for s in rest:
        m *= s
    x2 = moved.reshape(moved.shape[0], m)
    if not x2._c_contig:
        x2 = x2.copy()
    vals, index, inverse, counts = _unique_rows(x2, return_index, return_inverse, return_counts)
    vals = vals.reshape((vals.shape[0],) + rest)
    if axis != 0:
        back = list(range(1, axis + 1)) + [0] + list(range(axis + 1, ar.ndim))
        vals = vals.transpose(back).copy()
    return _pack(vals, index, inverse, counts, return_index, return_inverse, return_counts)


def unique_values(x):
    """cuarray version of `numpy.unique_values` (NaNs are all distinct)."""
    return unique(x, equal_nan=False)


def unique_counts(x):
    """cuarray version of `numpy.unique_counts`."""
    return UniqueCountsResult(*unique(x, return_counts=True, equal_nan=False))


def unique_inverse(x):
    """cuarray version of `numpy.unique_inverse` (inverse_indices has x's shape)."""
    return UniqueInverseResult(*unique(x, return_inverse=True, equal_nan=False))


def unique_all(x):
    """cuarray version of `numpy.unique_all`."""
    return UniqueAllResult(*unique(x, return_index=True, return_inverse=True, return_counts=True,
                                   equal_nan=False))


def _check_kind(kind, a, b):
    if kind not in (None, "sort", "table"):
        raise ValueError(f"Invalid kind: {kind!r}. Please use None, 'sort' or 'table'.")
    if kind == "table" and (a.dtype.kind not in "biu" or b.dtype.kind not in "biu"):
        raise ValueError("The 'table' method is only supported for boolean or integer arrays. "
                         "Please select 'sort' or None for kind.")


def isin(element, test_elements, assume_unique=False, invert=False, *, kind=None):
    """cuarray version of `numpy.isin`: `test_elements` is sorted, `element` binary-searched
    (`kind='table'` is accepted and gives the same result)."""
    element = need(element, "isin")
    test = need(test_elements, "isin")
    _check_kind(kind, element, test)
    ct = _dt.check_dtype(numpy.result_type(element.dtype, test.dtype))
    out = ndarray._alloc(element.shape, _bool)
    if out.size == 0:
        return out
    t = test.reshape(-1)
    s = _s.sort_last(t if t.dtype == ct else t.astype(ct), True, False)[0]
    _isin_op(ct, invert).launch([element, s, out])
    return out


def in1d(ar1, ar2, assume_unique=False, invert=False, *, kind=None):
    """cuarray version of `numpy.in1d` (removed from NumPy 2.4; `isin` on the flattened ar1)."""
    ar1 = need(ar1, "in1d")
    return isin(ar1.reshape(-1), ar2, assume_unique, invert, kind=kind)


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    """cuarray version of `numpy.intersect1d`."""
    ar1, ar2 = need(ar1, "intersect1d"), need(ar2, "intersect1d")
    if not assume_unique:
        if return_indices:
            ar1, ind1 = unique(ar1, return_index=True)
            ar2, ind2 = unique(ar2, return_index=True)
        else:
            ar1, ar2 = unique(ar1), unique(ar2)
    else:
        ar1, ar2 = ar1.reshape(-1), ar2.reshape(-1)
    aux = concat(ar1, ar2)
    aux, order = _s.sort_last(aux, True, return_indices)
    N = aux.size
    mask = ndarray._alloc((max(N - 1, 0),), _bool)
    if N > 1:
        _eqnext_op(aux.dtype).launch([aux, mask])
    if not return_indices:
        return compact(mask, [aux[:-1] if N else aux])[0]
    int1d, i1, i2 = compact(mask, [aux[:-1], order[:-1], order[1:]] if N else [aux, order, order])
    i2 = i2 - ar1.size
    if not assume_unique:
        i1, i2 = take(ind1, i1), take(ind2, i2)
    return int1d, i1, i2


def union1d(ar1, ar2):
    """cuarray version of `numpy.union1d`."""
    return unique(concat(need(ar1, "union1d"), need(ar2, "union1d")))


def setdiff1d(ar1, ar2, assume_unique=False):
    """cuarray version of `numpy.setdiff1d`."""
    ar1, ar2 = need(ar1, "setdiff1d"), need(ar2, "setdiff1d")
    if assume_unique:
        ar1 = ar1.reshape(-1)
    else:
        ar1, ar2 = unique(ar1), unique(ar2)
    return compact(isin(ar1, ar2, assume_unique=True, invert=True), [ar1])[0]


def setxor1d(ar1, ar2, assume_unique=False):
    """cuarray version of `numpy.setxor1d`."""
    ar1, ar2 = need(ar1, "setxor1d"), need(ar2, "setxor1d")
    if not assume_unique:
        ar1, ar2 = unique(ar1), unique(ar2)
    aux = concat(ar1, ar2)
    if aux.size == 0:
        return aux
    aux = _s.sort_last(aux, True, False)[0]
    keep = ndarray._alloc(aux.shape, _bool)
    _xorkeep_op(aux.dtype).launch([aux, keep])
    return compact(keep, [aux])[0]


__all__ = ["unique", "unique_values", "unique_counts", "unique_inverse", "unique_all", "isin",
           "in1d", "intersect1d", "union1d", "setdiff1d", "setxor1d"]
