"""Device kernels of sparse indexing: selecting major lines (rows of CSR) and minor
indices (columns of CSR), reading single entries, and finding where entries are stored.

Selections expand each kept line or entry into a run of outputs: the run lengths are
counted on the device, an inclusive scan gives the runs' ends, and reading the last end
(the output size) synchronises once. Each output then finds its run by binary search.
"""
import numpy

from cuarray._core._kernel_helpers import OpTemplate
from cuarray.scipy.sparse._kernels import _empty, _i64, _new, flag_function, index_dtype

_RUN_LENGTHS = OpTemplate("cuarray_sp_runlen", "k:in:0 p:raw:1 n:out:int64",
                          "n = (long long)p[(long long)k + 1] - (long long)p[(long long)k];")


def run_lengths(keys, indptr):
    """int64 p[k + 1] - p[k] for each k of `keys`: the length of line k."""
    return _new(_RUN_LENGTHS(keys.dtype, indptr.dtype), keys.shape, _i64, keys, indptr)


def _ends(counts):
    """(inclusive scan of counts, total); reading the total synchronises."""
    from cuarray._core.scan import cumsum
    if counts.size == 0:
        return _empty((0,), _i64), 0
    ends = cumsum(counts)
    return ends, int(ends[-1])


_WITH_ZERO = OpTemplate("cuarray_sp_with_zero", "e:raw:int64 p:out:0", "p = i ? e[i - 1] : 0;")


def _with_zero(ends, dtype):
    """[0, ends...] as `dtype`: the index pointer of runs ending at `ends` (one kernel)."""
    return _new(_WITH_ZERO(dtype), (ends.size + 1,), dtype, ends)


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


_CHECKED_LENGTHS = OpTemplate(
    "cuarray_sp_runlen_checked",
    "k:in:int64 p:raw:1 f:raw:int64 nl:scalar:int64 w:out:int64 c:out:int64",
    "long long kk = k; if (kk < 0) kk += nl; "
    "if (kk < 0 || kk >= nl) { f[0LL] = 1; kk = 0; c = 0; } "
    "else c = (long long)p[kk + 1] - (long long)p[kk]; w = kk;")
_TOTAL_AND_FLAG = OpTemplate("cuarray_sp_total_and_flag", "e:raw:int64 f:raw:int64 o:raw:int64",
                             "o[0LL] = e[e.size() - 1]; o[1LL] = f[0LL];")


def _checked_lengths(idx, indptr, n):
    """((lines as in-bounds int64, inclusive scan of their lengths), lengths, total) of
    the integer lines `idx`; IndexError (from `wrap_check`) when one is outside [-n, n)."""
    from cuarray._core.scan import cumsum
    kt, pt = idx.dtype, indptr.dtype
    m = idx.size
    if m == 0:
        e = _empty((0,), _i64)
        return (e, e), e, 0
    op = _CHECKED_LENGTHS(kt, pt)
    flag = _empty((1,), _i64)
    flag.data.memset_async(0, 8)
    wrapped, counts = _empty((m,), _i64), _empty((m,), _i64)
    op.launch([idx.reshape(-1), indptr, flag, numpy.int64(n), wrapped, counts])
    ends = cumsum(counts)
    pair = _empty((2,), _i64)
    _TOTAL_AND_FLAG().launch([ends, flag, pair], size=1)
    total, bad = (int(v) for v in pair.get())
    if bad:
        wrap_check(idx, n)   # raises with the offending index
    return (wrapped, ends), counts, total


_COPY_RUNS = OpTemplate(
    "cuarray_sp_select_major",
    "e:raw:int64 s:raw:int64 p:raw:0 q:raw:1 x:raw:2 qo:raw:1 xo:raw:2",
    "const long long r = i / ${G}, l = i % ${G}; const long long line = s[r]; "
    "const long long b = (long long)p[line], len = (long long)p[line + 1] - b; "
    "const long long o = r ? e[r - 1] : 0; "
    "for (long long j = l; j < len; j += ${G}) { qo[o + j] = q[b + j]; xo[o + j] = x[b + j]; }")


def _copy_runs(ends, sel, indptr, indices, data, out_ind, out_dat, total):
    """Copy line sel[r]'s entries to outputs ends[r - 1]:ends[r], a group of G threads per
    line (G the power of two nearest the mean line length, at most a warp), so the reads
    and writes of a line are contiguous across the group."""
    m = sel.size
    g = 1
    while g < 32 and g * m < total:
        g *= 2
    op = _COPY_RUNS(indptr.dtype, indices.dtype, data.dtype, G=g)
    op.launch([ends, sel, indptr, indices, data, out_ind, out_dat], size=m * g)


_SELECT_MINOR = OpTemplate(
    "cuarray_sp_select_minor",
    "e:raw:int64 q:raw:0 st:raw:int64 o:raw:int64 x:raw:1 qo:out:2 xo:out:1",
    _FIND_RUN + " const long long k = i - (r ? e[r - 1] : 0); "
    "qo = o[st[(long long)q[r]] + k]; xo = x[r];")


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
        op = _SELECT_MINOR(indices.dtype, data.dtype, idt)
        op.launch([ends, indices, starts, order, data, out_ind, out_dat])
    # Line r's outputs start where its first entry's run starts.
    new_ptr = gather(_with_zero(ends, _i64), indptr).astype(idt, copy=False)
    return new_ptr, out_ind, out_dat


_SAMPLE = OpTemplate(
    "cuarray_sp_sample", "a:in:int64 b:in:int64 p:raw:0 q:raw:1 x:raw:2 y:out:2",
    "${T2} acc = cuarray_cast<${T2}>(0); "
    "for (long long j = p[a], end = p[a + 1]; j < end; ++j) "
    "if ((long long)q[j] == b) acc = acc + x[j]; y = acc;")


def sample(indptr, indices, data, major, minor):
    """The values at (major[t], minor[t]) (int64 arrays of one shape, in bounds),
    duplicates summed, zero where nothing is stored."""
    dt = data.dtype
    return _new(_SAMPLE(indptr.dtype, indices.dtype, dt), major.shape, dt, major, minor,
                indptr, indices, data)


_OFFSETS = OpTemplate(
    "cuarray_sp_offsets", "a:in:int64 b:in:int64 p:raw:0 q:raw:1 o:out:int64",
    "long long lo = p[a], hi = p[a + 1]; "
    "while (lo < hi) { const long long mid = (lo + hi) >> 1; "
    "if ((long long)q[mid] < b) lo = mid + 1; else hi = mid; } "
    "o = (lo < (long long)p[a + 1] && (long long)q[lo] == b) ? lo : -1;")


def offsets(indptr, indices, major, minor):
    """int64 position of the entry (major[t], minor[t]) in a canonical compressed matrix,
    or -1 where none is stored (binary search within the line)."""
    return _new(_OFFSETS(indptr.dtype, indices.dtype), major.shape, _i64, major, minor,
                indptr, indices)


_SCATTER_FOUND = OpTemplate("cuarray_sp_scatter_found", "o:in:int64 v:in:0 x:raw:0",
                            "if (o >= 0) x[o] = v;")


def scatter_found(data, off, vals):
    """data[off[t]] = vals[t] where off[t] >= 0 (positions distinct)."""
    if off.size:
        _SCATTER_FOUND(data.dtype, vals.dtype).launch([off, vals, data])


last_of_runs = flag_function(
    "last_of_runs", "i + 1 == x.size() || x[i] != x[i + 1]",
    "0/1 int64 flags: 1 where a sorted key differs from the next (last of its run).", raw=True)
missing_flags = flag_function(
    "missing", "x < 0", "0/1 int64 flags: 1 where no entry is stored (offset -1).")


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
