"""Device kernels of sparse indexing: selecting major lines (rows of CSR) and minor
indices (columns of CSR), reading single entries, and finding where entries are stored.

Selections expand each kept line or entry into a run of outputs: the run lengths are
counted on the device, an inclusive scan gives the runs' ends, and reading the last end
(the output size) synchronises once. Each output then finds its run by binary search.
"""
import numpy

from cuarray._core import dtypes as _dt
from cuarray._core.elementwise import Op, Param
from cuarray.scipy.sparse._kernels import _chars, _empty, _i64, _new, _op, flags, index_dtype


def run_lengths(keys, indptr):
    """int64 p[k + 1] - p[k] for each k of `keys`: the length of line k."""
    kt, pt = keys.dtype, indptr.dtype
    op = _op(("runlen", kt.char, pt.char), lambda: Op(
        f"cuarray_sp_runlen_{_chars(kt, pt)}",
        [Param("k", "in", kt), Param("p", "raw", pt), Param("n", "out", _i64)],
        "n = (long long)p[(long long)k + 1] - (long long)p[(long long)k];"))
    return _new(op, keys.shape, _i64, keys, indptr)


def _ends(counts):
    """(inclusive scan of counts, total); reading the total synchronises."""
    from cuarray._core.scan import cumsum
    if counts.size == 0:
        return _empty((0,), _i64), 0
    ends = cumsum(counts)
    return ends, int(ends[-1])


def _with_zero(ends, dtype):
    """[0, ends...] as `dtype`: the index pointer of runs ending at `ends` (one kernel)."""
    op = _op(("withzero", dtype.char), lambda: Op(
        f"cuarray_sp_with_zero_{dtype.char}",
        [Param("e", "raw", _i64), Param("p", "out", dtype)],
        "p = i ? e[i - 1] : 0;"))
    return _new(op, (ends.size + 1,), dtype, ends)


_FIND_RUN = ("long long lo = 0, hi = e.size() - 1; "
             "while (lo < hi) { const long long mid = (lo + hi) >> 1; "
             "if (e[mid] <= i) lo = mid + 1; else hi = mid; } const long long r = lo;")


def select_major(indptr, indices, data, sel, n=None):
    """(indptr, indices, data) of lines `sel` of a compressed matrix, in the order of
    `sel` (repeats allowed). `sel` is int64 and in bounds; or, given the line count `n`,
    any integer array checked here: negative lines count from the end, and a line outside
    [-n, n) raises IndexError. The check is made in the pass that measures the lines and
    read with the output size, so a selection synchronises once."""
    if n is None:
        counts = run_lengths(sel, indptr)
        ends, total = _ends(counts)
    else:
        checked, counts, total = _checked_lengths(sel, indptr, n)
        sel, ends = checked
    idt = numpy.promote_types(indices.dtype, index_dtype(total))
    out_ind, out_dat = _empty((total,), indices.dtype), _empty((total,), data.dtype)
    if total:
        _copy_runs(ends, sel, indptr, indices, data, out_ind, out_dat, total)
    return _with_zero(ends, idt), out_ind.astype(idt, copy=False), out_dat


def _checked_lengths(idx, indptr, n):
    """((lines as in-bounds int64, inclusive scan of their lengths), lengths, total) of
    the integer lines `idx`; IndexError (from `wrap_check`) when one is outside [-n, n)."""
    from cuarray._core.scan import cumsum
    kt, pt = idx.dtype, indptr.dtype
    m = idx.size
    if m == 0:
        e = _empty((0,), _i64)
        return (e, e), e, 0
    op = _op(("runlen_chk", kt.char, pt.char), lambda: Op(
        f"cuarray_sp_runlen_checked_{_chars(kt, pt)}",
        [Param("k", "in", _i64), Param("p", "raw", pt), Param("f", "raw", _i64),
         Param("nl", "scalar", _i64), Param("w", "out", _i64), Param("c", "out", _i64)],
        "long long kk = k; if (kk < 0) kk += nl; "
        "if (kk < 0 || kk >= nl) { f[0LL] = 1; kk = 0; c = 0; } "
        "else c = (long long)p[kk + 1] - (long long)p[kk]; w = kk;"))
    flag = _empty((1,), _i64)
    flag.data.memset_async(0, 8)
    wrapped, counts = _empty((m,), _i64), _empty((m,), _i64)
    op.launch([idx.reshape(-1), indptr, flag, numpy.int64(n), wrapped, counts])
    ends = cumsum(counts)
    pair = _empty((2,), _i64)
    _op(("pair",), lambda: Op(
        "cuarray_sp_total_and_flag",
        [Param("e", "raw", _i64), Param("f", "raw", _i64), Param("o", "raw", _i64)],
        "o[0LL] = e[e.size() - 1]; o[1LL] = f[0LL];")).launch([ends, flag, pair], size=1)
    total, bad = (int(v) for v in pair.get())
    if bad:
        wrap_check(idx, n)   # raises with the offending index
    return (wrapped, ends), counts, total


def _copy_runs(ends, sel, indptr, indices, data, out_ind, out_dat, total):
    """Copy line sel[r]'s entries to outputs ends[r - 1]:ends[r], a group of G threads per
    line (G the power of two nearest the mean line length, at most a warp), so the reads
    and writes of a line are contiguous across the group."""
    m = sel.size
    g = 1
    while g < 32 and g * m < total:
        g *= 2
    pt, jt, dt = indptr.dtype, indices.dtype, data.dtype
    op = _op(("selmaj_g", pt.char, jt.char, dt.char, g), lambda: Op(
        f"cuarray_sp_select_major_g{g}_{_chars(pt, jt, dt)}",
        [Param("e", "raw", _i64), Param("s", "raw", _i64), Param("p", "raw", pt),
         Param("q", "raw", jt), Param("x", "raw", dt), Param("qo", "raw", jt),
         Param("xo", "raw", dt)],
        f"const long long r = i / {g}, l = i % {g}; const long long line = s[r]; "
        "const long long b = (long long)p[line], len = (long long)p[line + 1] - b; "
        "const long long o = r ? e[r - 1] : 0; "
        f"for (long long j = l; j < len; j += {g}) {{ qo[o + j] = q[b + j]; xo[o + j] = x[b + j]; }}"))
    op.launch([ends, sel, indptr, indices, data, out_ind, out_dat], size=m * g)


def select_minor(indptr, indices, data, sel, n_minor):
    """(indptr, indices, data) keeping, in every line, the entries whose minor index is
    in `sel` (int64, in bounds, repeats allowed), renumbered to their positions in `sel`.

    `sel` sorted with its positions gives, per minor index c, the run of new indices
    starts[c]:starts[c + 1]; every stored entry expands into its index's run.
    """
    from cuarray._routines.sorting import argsort
    from cuarray.scipy.sparse._kernels import gather, lower_bounds
    order = argsort(sel)
    starts = lower_bounds(gather(sel, order), n_minor, _i64)
    counts = run_lengths(indices, starts)
    ends, total = _ends(counts)
    idt = numpy.promote_types(indices.dtype, index_dtype(total, sel.size))
    out_ind, out_dat = _empty((total,), idt), _empty((total,), data.dtype)
    if total:
        jt, dt = indices.dtype, data.dtype
        op = _op(("selmin", jt.char, dt.char, idt.char), lambda: Op(
            f"cuarray_sp_select_minor_{_chars(jt, dt, idt)}",
            [Param("e", "raw", _i64), Param("q", "raw", jt), Param("st", "raw", _i64),
             Param("o", "raw", _i64), Param("x", "raw", dt), Param("qo", "out", idt),
             Param("xo", "out", dt)],
            _FIND_RUN + " const long long k = i - (r ? e[r - 1] : 0); "
            "qo = o[st[(long long)q[r]] + k]; xo = x[r];"))
        op.launch([ends, indices, starts, order, data, out_ind, out_dat])
    # Line r's outputs start where its first entry's run starts.
    new_ptr = gather(_with_zero(ends, _i64), indptr).astype(idt, copy=False)
    return new_ptr, out_ind, out_dat


def sample(indptr, indices, data, major, minor):
    """The values at (major[t], minor[t]) (int64 arrays of one shape, in bounds),
    duplicates summed, zero where nothing is stored."""
    pt, jt, dt = indptr.dtype, indices.dtype, data.dtype
    C = _dt.ctype(dt)
    op = _op(("sample", pt.char, jt.char, dt.char), lambda: Op(
        f"cuarray_sp_sample_{_chars(pt, jt, dt)}",
        [Param("a", "in", _i64), Param("b", "in", _i64), Param("p", "raw", pt),
         Param("q", "raw", jt), Param("x", "raw", dt), Param("y", "out", dt)],
        f"{C} acc = cuarray_cast<{C}>(0); "
        f"for (long long j = p[a], end = p[a + 1]; j < end; ++j) "
        f"if ((long long)q[j] == b) acc = acc + x[j]; y = acc;"))
    return _new(op, major.shape, dt, major, minor, indptr, indices, data)


def offsets(indptr, indices, major, minor):
    """int64 position of the entry (major[t], minor[t]) in a canonical compressed matrix,
    or -1 where none is stored (binary search within the line)."""
    pt, jt = indptr.dtype, indices.dtype
    op = _op(("offsets", pt.char, jt.char), lambda: Op(
        f"cuarray_sp_offsets_{_chars(pt, jt)}",
        [Param("a", "in", _i64), Param("b", "in", _i64), Param("p", "raw", pt),
         Param("q", "raw", jt), Param("o", "out", _i64)],
        "long long lo = p[a], hi = p[a + 1]; "
        "while (lo < hi) { const long long mid = (lo + hi) >> 1; "
        "if ((long long)q[mid] < b) lo = mid + 1; else hi = mid; } "
        "o = (lo < (long long)p[a + 1] && (long long)q[lo] == b) ? lo : -1;"))
    return _new(op, major.shape, _i64, major, minor, indptr, indices)


def scatter_found(data, off, vals):
    """data[off[t]] = vals[t] where off[t] >= 0 (positions distinct)."""
    dt, vt = data.dtype, vals.dtype
    op = _op(("scatfound", dt.char, vt.char), lambda: Op(
        f"cuarray_sp_scatter_found_{_chars(dt, vt)}",
        [Param("o", "in", _i64), Param("v", "in", dt), Param("x", "raw", dt)],
        "if (o >= 0) x[o] = v;"))
    if off.size:
        op.launch([off, vals, data])


def last_of_runs(skey):
    """0/1 int64 flags: 1 where a sorted key differs from the next (last of its run)."""
    return flags("last_of_runs", skey, "i + 1 == x.size() || x[i] != x[i + 1]", raw=True)


def missing_flags(off):
    """0/1 int64 flags: 1 where no entry is stored (offset -1)."""
    return flags("missing", off, "x < 0")


def wrap_check(idx, n):
    """`idx` as int64 with negative values wrapped by n; IndexError when any is outside
    [-n, n) (reads the extremes: synchronises)."""
    from cuarray._core._ops import add, less, where
    from cuarray._core._reductions import amax, amin
    idx = idx.astype(numpy.int64, copy=False)
    if idx.size == 0:
        return idx
    from cuarray._routines.joining import concatenate
    lo, hi = (int(v) for v in concatenate([amin(idx).reshape(1), amax(idx).reshape(1)]).get())
    if lo < -n or hi >= n:
        bad = lo if lo < -n else hi
        raise IndexError(f"index ({bad}) out of range")
    if lo < 0:
        idx = where(less(idx, 0), add(idx, n), idx)
    return idx
