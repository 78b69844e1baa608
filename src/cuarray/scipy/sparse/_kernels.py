"""Device kernels of the sparse formats: index expansion and compression, sorting into
canonical order with duplicates summed, densification, and CSR products for the dtypes
cuSPARSE does not compute.

Every kernel is an elementwise `Op` over its output (or over a size), so it runs on the
current stream. Ops are cached per dtype combination, raw operands' dtypes included (the
Op's own cache keys only its 'in'/'out' arrays).

Compressing COO entries sorts them by (major, minor) with cuarray's stable radix sort;
summing duplicates or dropping zeros reads one count from the device (a synchronisation).
"""
import numpy

from cuarray._core import dtypes as _dt
from cuarray._core._kernel_helpers import Cache
from cuarray._core.elementwise import Op, Param
from cuarray._core.ndarray import ndarray

_i64 = numpy.dtype(numpy.int64)
_i32 = numpy.dtype(numpy.int32)
_op = Cache()   # key -> Op; build() makes the Op on first use


def _chars(*dts):
    return "".join(d.char for d in dts)


def _empty(shape, dtype):
    return ndarray._alloc(tuple(shape), numpy.dtype(dtype), "C")


def _new(op, shape, dtype, *args):
    """A new array of `shape` and `dtype` written by elementwise `op` over `args` (no launch
    when it is empty)."""
    out = _empty(shape, dtype)
    if out.size:
        op.launch([*args, out])
    return out


def _zeros(shape, dtype):
    out = _empty(shape, dtype)
    if out.size:
        out.data.memset_async(0, out.nbytes)
    return out


def index_dtype(*maxvals):
    """int32 while every index value fits it, else int64 (SciPy's `get_index_dtype`)."""
    return _i32 if max(maxvals, default=0) <= numpy.iinfo(numpy.int32).max else _i64


# ---- index structure ------------------------------------------------------------------------

def expand_major(indptr, nnz):
    """The major index (row of CSR, column of CSC) of each of the `nnz` entries:
    a binary search of `indptr` per entry, so skewed rows cost nothing extra."""
    dt = indptr.dtype
    op = _op(("expand", dt.char), lambda: Op(
        f"cuarray_sp_expand_{dt.char}",
        [Param("p", "raw", dt), Param("nmaj", "scalar", _i64), Param("m", "out", dt)],
        "long long lo = 0, hi = nmaj; "
        "while (lo < hi) { const long long mid = (lo + hi) >> 1; "
        "if ((long long)p[mid + 1] <= i) lo = mid + 1; else hi = mid; } m = lo;"))
    return _new(op, (nnz,), dt, indptr, numpy.int64(indptr.size - 1))


def lower_bounds(sorted_major, n_major, dtype):
    """indptr (n_major + 1 entries) of entries sorted by major index: entry r is the
    first position whose major index is >= r."""
    sdt = sorted_major.dtype
    op = _op(("bounds", sdt.char, dtype.char), lambda: Op(
        f"cuarray_sp_bounds_{_chars(sdt, dtype)}",
        [Param("s", "raw", sdt), Param("nnz", "scalar", _i64), Param("p", "out", dtype)],
        "long long lo = 0, hi = nnz; "
        "while (lo < hi) { const long long mid = (lo + hi) >> 1; "
        "if ((long long)s[mid] < i) lo = mid + 1; else hi = mid; } p = lo;"))
    return _new(op, (n_major + 1,), dtype, sorted_major, numpy.int64(sorted_major.size))


def _key(major, minor, n_minor):
    op = _op(("key", major.dtype.char, minor.dtype.char), lambda: Op(
        f"cuarray_sp_key_{_chars(major.dtype, minor.dtype)}",
        [Param("a", "in", _i64), Param("b", "in", _i64), Param("n", "scalar", _i64),
         Param("k", "out", _i64)],
        "k = a * n + b;"))
    return _new(op, major.shape, _i64, major, minor, numpy.int64(n_minor))


def gather(src, idx):
    """src[idx] for 1-D `src` and an integer index array."""
    sdt, idt = src.dtype, idx.dtype
    op = _op(("gather", sdt.char, idt.char), lambda: Op(
        f"cuarray_sp_gather_{_chars(sdt, idt)}",
        [Param("q", "in", idt), Param("x", "raw", sdt), Param("y", "out", sdt)],
        "y = x[(long long)q];"))
    return _new(op, idx.shape, sdt, idx, src)


def _split(key, n_minor, dtype):
    op = _op(("split", dtype.char), lambda: Op(
        f"cuarray_sp_split_{dtype.char}",
        [Param("k", "in", _i64), Param("n", "scalar", _i64), Param("a", "out", dtype),
         Param("b", "out", dtype)],
        "a = k / n; b = k % n;"))
    a, b = _empty(key.shape, dtype), _empty(key.shape, dtype)
    if key.size:
        op.launch([key, numpy.int64(n_minor), a, b])
    return a, b


def flags(name, x, cond, raw=False):
    """0/1 int64 flags, one per element of `x`: 1 where the C condition `cond` holds.
    `cond` reads the element as `x`, or with `raw` the whole array as `x[i]`, `x.size()`."""
    dt = x.dtype
    op = _op(("flags", name, dt.char), lambda: Op(
        f"cuarray_sp_{name}_{dt.char}",
        [Param("x", "raw" if raw else "in", dt), Param("f", "out", _i64)],
        f"f = ({cond}) ? 1 : 0;"))
    return _new(op, x.shape, _i64, x)


def _run_starts(skey):
    return flags("run_starts", skey, "i == 0 || x[i] != x[i - 1]", raw=True)


def _nonzero_flags(x):
    return flags("nzflag", x, "cuarray_nonzero(x)")


def _count(flags):
    """(inclusive running count, total) of 0/1 flags; reading the total synchronises."""
    from cuarray._core.scan import cumsum
    pos = cumsum(flags)
    return pos, int(pos[-1])


def _positions(flags, pos, total):
    """The positions i where flags[i] is set, in order (total of them)."""
    op = _op(("where",), lambda: Op(
        "cuarray_sp_flag_positions",
        [Param("f", "in", _i64), Param("c", "in", _i64), Param("s", "raw", _i64)],
        "if (f) s[c - 1] = i;"))
    out = _empty((total,), _i64)
    op.launch([flags, pos, out])
    return out


def _segment_sums(starts, skey, sdata):
    """(key, summed data) of each run of equal keys; runs begin at `starts`."""
    dt = sdata.dtype
    C = _dt.ctype(dt)
    op = _op(("segsum", dt.char), lambda: Op(
        f"cuarray_sp_segsum_{dt.char}",
        [Param("s", "raw", _i64), Param("k", "raw", _i64), Param("x", "raw", dt),
         Param("nnz", "scalar", _i64), Param("ko", "out", _i64), Param("xo", "out", dt)],
        f"const long long b = s[i], e = i + 1 < s.size() ? s[i + 1] : nnz; "
        f"{C} acc = x[b]; for (long long j = b + 1; j < e; ++j) acc = acc + x[j]; "
        f"ko = k[b]; xo = acc;"))
    u = starts.size
    ko, xo = _empty((u,), _i64), _empty((u,), dt)
    op.launch([starts, skey, sdata, numpy.int64(skey.size), ko, xo])
    return ko, xo


def compress(major, minor, data, n_major, n_minor, idx_dtype, sum_dups=True,
             drop_zeros=False):
    """(indptr, minor indices, data) of COO entries sorted by (major, minor), stably.

    `sum_dups` sums entries of equal coordinates (SciPy's canonical format); `drop_zeros`
    then removes zero sums. Each of the two reads one count from the device.
    """
    nnz = data.size
    if nnz == 0:
        return _zeros((n_major + 1,), idx_dtype), _empty((0,), idx_dtype), _empty((0,), data.dtype)
    from cuarray._routines.sorting import argsort
    key = _key(major, minor, n_minor)
    # Keys below 2^32 sort as uint32: half the radix passes of int64 keys.
    small = n_major * n_minor <= 2 ** 32
    perm = argsort(key.astype(numpy.uint32) if small else key)
    skey, sdata = gather(key, perm), gather(data, perm)
    if sum_dups:
        flags = _run_starts(skey)
        pos, total = _count(flags)
        if total < nnz:
            skey, sdata = _segment_sums(_positions(flags, pos, total), skey, sdata)
    if drop_zeros:
        skey, sdata = compact(_nonzero_flags(sdata), skey, sdata)
    maj, mnr = _split(skey, n_minor, idx_dtype)
    return lower_bounds(maj, n_major, idx_dtype), mnr, sdata


def compact(flags, *arrays):
    """The elements of each of `arrays` where the 0/1 int64 `flags` are set (synchronises
    once to read how many)."""
    if flags.size == 0:
        return arrays
    pos, total = _count(flags)
    if total == flags.size:
        return arrays
    keep = _positions(flags, pos, total)
    return tuple(gather(a, keep) for a in arrays)


# ---- densify, products ----------------------------------------------------------------------

def to_dense(indptr, indices, data, shape, major_axis, order="C"):
    """The dense matrix of compressed entries (duplicates summed); `major_axis` 0 for CSR,
    1 for CSC. One thread per major line, so no two threads add to one element."""
    M, N = shape
    out = _zeros(shape, data.dtype) if order == "C" else _zeros((N, M), data.dtype).T
    n_major = indptr.size - 1
    if data.size == 0 or n_major == 0:
        return out
    dt, it = data.dtype, indptr.dtype
    # Element (r, c) sits at r * rs + c * cs in `out`'s memory.
    rs, cs = (N, 1) if order == "C" else (1, M)
    maj_s, min_s = (rs, cs) if major_axis == 0 else (cs, rs)
    op = _op(("dense", dt.char, it.char, indices.dtype.char), lambda: Op(
        f"cuarray_sp_dense_{_chars(dt, it, indices.dtype)}",
        [Param("p", "raw", it), Param("q", "raw", indices.dtype), Param("x", "raw", dt),
         Param("o", "raw", dt), Param("ms", "scalar", _i64), Param("ns", "scalar", _i64),
         Param("nmin", "scalar", _i64)],
        "const long long b = p[i], e = p[i + 1]; "
        "for (long long j = b; j < e; ++j) { const long long c = q[j]; "
        "if (c >= 0 && c < nmin) { auto& t = o[i * ms + c * ns]; t = t + x[j]; } }"))
    base = out if order == "C" else out.T
    op.launch([indptr, indices, data, base, numpy.int64(maj_s), numpy.int64(min_s),
               numpy.int64(shape[1 - major_axis])], size=n_major)
    return out


def csr_matmul(indptr, indices, data, x, out):
    """out = A @ x for CSR A, x of shape (N,) or (N, K), out (M,) or (M, K) of the result
    dtype: one thread per output element; values cast to out's dtype before multiplying."""
    K = 1 if x.ndim == 1 else x.shape[1]
    op = csrmm_op(data.dtype, indptr.dtype, indices.dtype, x.dtype, out.dtype)
    if out.size:
        if data.size == 0:
            out.data.memset_async(0, out.nbytes)
        else:
            op.launch([indptr, indices, data, x, numpy.int64(K), out])
    return out


def csrmm_op(dt, it, jt, xt, ot):
    """The Op of `csr_matmul` for values dt, pointers it, indices jt, operand xt, result ot."""
    C = _dt.ctype(ot)
    return _op(("spmm", dt.char, it.char, jt.char, xt.char, ot.char), lambda: Op(
        f"cuarray_sp_csrmm_{_chars(dt, it, jt, xt, ot)}",
        [Param("p", "raw", it), Param("q", "raw", jt), Param("a", "raw", dt),
         Param("x", "raw", xt), Param("K", "scalar", _i64), Param("y", "out", ot)],
        f"const long long r = i / K, c = i - r * K; {C} acc = cuarray_cast<{C}>(0); "
        f"for (long long j = p[r], e = p[r + 1]; j < e; ++j) "
        f"acc = acc + cuarray_cast<{C}>(a[j]) * cuarray_cast<{C}>(x[(long long)q[j] * K + c]); "
        f"y = acc;"))


def spgemm_entries(a_rows, a_cols, a_data, b_indptr, b_indices, b_data, out_dtype):
    """(rows, cols, values) of every product a_ik * b_kj, duplicates not yet summed.

    Each entry of A owns a run of B's row k; the run offsets are an exclusive scan, and
    reading their total synchronises once.
    """
    from cuarray.scipy.sparse._select import _ends, run_lengths
    bt, it = b_indptr.dtype, a_cols.dtype
    counts = run_lengths(a_cols, b_indptr)
    ends, total = _ends(counts)
    rows, cols = _empty((total,), it), _empty((total,), it)
    vals = _empty((total,), out_dtype)
    if total == 0:
        return rows, cols, vals
    C = _dt.ctype(out_dtype)
    at, bd, jt = a_data.dtype, b_data.dtype, b_indices.dtype
    op = _op(("expandprod", at.char, bd.char, bt.char, jt.char, it.char, out_dtype.char),
             lambda: Op(
        f"cuarray_sp_products_{_chars(at, bd, bt, jt, it, out_dtype)}",
        [Param("r", "in", it), Param("k", "in", it), Param("av", "in", at),
         Param("end", "in", _i64), Param("n", "in", _i64), Param("p", "raw", bt),
         Param("q", "raw", jt), Param("bv", "raw", bd), Param("ro", "raw", it),
         Param("co", "raw", it), Param("vo", "raw", out_dtype)],
        f"const long long b0 = p[(long long)k], o0 = end - n; const {C} a = cuarray_cast<{C}>(av); "
        f"for (long long t = 0; t < n; ++t) {{ ro[o0 + t] = r; co[o0 + t] = q[b0 + t]; "
        f"vo[o0 + t] = a * cuarray_cast<{C}>(bv[b0 + t]); }}"))
    op.launch([a_rows, a_cols, a_data, ends, counts, b_indptr, b_indices, b_data, rows, cols,
               vals])
    return rows, cols, vals


# ---- other formats --------------------------------------------------------------------------

def dense_entries(dense, idx_dtype):
    """(rows, cols, values) of the nonzero elements of a 2-D array, in row-major order
    (reads their count: synchronises)."""
    from cuarray._routines.indexing import flatnonzero
    flat = dense.reshape(-1) if dense._c_contig else dense.copy("C").reshape(-1)
    lin = flatnonzero(flat)
    rows, cols = _split(lin, max(dense.shape[1], 1), idx_dtype)
    return rows, cols, gather(flat, lin)


def dia_entries(data, offsets, shape, idx_dtype):
    """(rows, cols, values) of the stored nonzero elements of DIA data (n_diags, L):
    element (d, j) is A[j - offsets[d], j]; those outside the matrix are dropped."""
    M, N = shape
    nd, L = data.shape
    dt, ot = data.dtype, offsets.dtype
    op = _op(("diaflag", dt.char, ot.char), lambda: Op(
        f"cuarray_sp_diaflag_{_chars(dt, ot)}",
        [Param("x", "in", dt), Param("off", "raw", ot), Param("L", "scalar", _i64),
         Param("M", "scalar", _i64), Param("N", "scalar", _i64), Param("f", "out", _i64)],
        "const long long d = i / L, j = i - d * L, r = j - (long long)off[d]; "
        "f = (r >= 0 && r < M && j < N && cuarray_nonzero(x)) ? 1 : 0;"))
    coord = _op(("diacoord", ot.char, idx_dtype.char), lambda: Op(
        f"cuarray_sp_diacoord_{_chars(ot, idx_dtype)}",
        [Param("off", "raw", ot), Param("L", "scalar", _i64), Param("r", "out", idx_dtype),
         Param("c", "out", idx_dtype)],
        "const long long d = i / L, j = i - d * L; r = j - (long long)off[d]; c = j;"))
    flat = data.reshape(-1) if data._c_contig else data.copy("C").reshape(-1)
    if flat.size == 0:
        e = _empty((0,), idx_dtype)
        return e, e, _empty((0,), dt)
    flags = _empty(flat.shape, _i64)
    op.launch([flat, offsets, numpy.int64(L), numpy.int64(M), numpy.int64(N), flags])
    rows, cols = _empty(flat.shape, idx_dtype), _empty(flat.shape, idx_dtype)
    coord.launch([offsets, numpy.int64(L), rows, cols])
    return compact(flags, rows, cols, flat)


def diagonal(indptr, indices, data, shape, k, major_axis):
    """Diagonal k of a compressed matrix (duplicates summed), one thread per element."""
    M, N = shape
    n = max(0, min(M + min(k, 0), N - max(k, 0)))
    dt, it, jt = data.dtype, indptr.dtype, indices.dtype
    C = _dt.ctype(dt)
    op = _op(("diag", dt.char, it.char, jt.char), lambda: Op(
        f"cuarray_sp_diagonal_{_chars(dt, it, jt)}",
        [Param("p", "raw", it), Param("q", "raw", jt), Param("x", "raw", dt),
         Param("r0", "scalar", _i64), Param("c0", "scalar", _i64),
         Param("csr", "scalar", numpy.dtype(bool)), Param("y", "out", dt)],
        f"const long long r = r0 + i, c = c0 + i, m = csr ? r : c, want = csr ? c : r; "
        f"{C} acc = cuarray_cast<{C}>(0); "
        f"for (long long j = p[m], e = p[m + 1]; j < e; ++j) "
        f"if ((long long)q[j] == want) acc = acc + x[j]; "
        f"y = acc;"))
    out = _empty((n,), dt)
    if n:
        op.launch([indptr, indices, data, numpy.int64(max(-k, 0)), numpy.int64(max(k, 0)),
                   numpy.bool_(major_axis == 0), out])
    return out


def canonical_flags(indptr, indices, strict):
    """0/1 int64 per major line: 1 where the line's indices are increasing (strictly when
    `strict`: sorted with no duplicates)."""
    it, jt = indptr.dtype, indices.dtype
    cmp = ">=" if strict else ">"
    op = _op(("canon", it.char, jt.char, strict), lambda: Op(
        f"cuarray_sp_sorted_{_chars(it, jt)}_{int(strict)}",
        [Param("p", "raw", it), Param("q", "raw", jt), Param("f", "out", _i64)],
        f"long long ok = 1; for (long long j = (long long)p[i] + 1, e = p[i + 1]; j < e; ++j) "
        f"if (q[j - 1] {cmp} q[j]) {{ ok = 0; break; }} f = ok;"))
    return _new(op, (indptr.size - 1,), _i64, indptr, indices)


def gather_2d(x, rows, cols):
    """x[rows, cols] for a 2-D array of any layout (broadcast views included)."""
    xt, rt = x.dtype, rows.dtype
    op = _op(("gather2d", xt.char, rt.char), lambda: Op(
        f"cuarray_sp_gather2d_{_chars(xt, rt)}",
        [Param("r", "in", rt), Param("c", "in", rt), Param("x", "raw", xt),
         Param("N", "scalar", _i64), Param("y", "out", xt)],
        "y = x[(long long)r * N + (long long)c];"))
    return _new(op, rows.shape, xt, rows, cols, x, numpy.int64(x.shape[1]))


def intersect_products(A, B, dtype, idx_dtype):
    """(rows, cols, values) of A_ij * B_ij where both canonical COO matrices store (i, j):
    the two key lists sorted together put each shared key twice in a row, A's first."""
    from cuarray._routines.joining import concatenate
    from cuarray._routines.sorting import argsort
    n_minor = max(A.shape[1], 1)
    keys = concatenate([_key(A.row, A.col, n_minor), _key(B.row, B.col, n_minor)])
    if keys.size == 0:
        e = _empty((0,), idx_dtype)
        return e, e, _empty((0,), dtype)
    perm = argsort(keys)
    skey = gather(keys, perm)
    C = _dt.ctype(dtype)
    at, bt = A.data.dtype, B.data.dtype
    op = _op(("pairs", at.char, bt.char, dtype.char), lambda: Op(
        f"cuarray_sp_pairs_{_chars(at, bt, dtype)}",
        [Param("k", "raw", _i64), Param("q", "raw", _i64), Param("a", "raw", at),
         Param("b", "raw", bt), Param("na", "scalar", _i64), Param("f", "out", _i64),
         Param("v", "out", dtype)],
        f"const bool hit = i + 1 < k.size() && k[i] == k[i + 1]; f = hit ? 1 : 0; "
        f"v = hit ? cuarray_cast<{C}>(cuarray_cast<{C}>(a[q[i]]) * "
        f"cuarray_cast<{C}>(b[q[i + 1] - na])) "
        f": cuarray_cast<{C}>(0);"))
    flags, vals = _empty(skey.shape, _i64), _empty(skey.shape, dtype)
    op.launch([skey, perm, A.data, B.data, numpy.int64(A.nnz), flags, vals])
    skey, vals = compact(flags, skey, vals)
    rows, cols = _split(skey, n_minor, idx_dtype)
    return rows, cols, vals


def scatter_2d(out, rows, cols, vals):
    """out[rows, cols] = vals for a C-contiguous 2-D `out` (coordinates distinct)."""
    ot, rt, ct, vt = out.dtype, rows.dtype, cols.dtype, vals.dtype
    op = _op(("scatter2d", ot.char, rt.char, ct.char, vt.char), lambda: Op(
        f"cuarray_sp_scatter2d_{_chars(ot, rt, ct, vt)}",
        [Param("r", "in", rt), Param("c", "in", ct), Param("v", "in", ot),
         Param("o", "raw", ot), Param("W", "scalar", _i64)],
        "o[(long long)r * W + (long long)c] = v;"))
    if rows.size:
        op.launch([rows, cols, vals, out, numpy.int64(out.shape[1])])


def dia_to_dense(data, offsets, shape, order="C"):
    """The dense matrix of DIA data: each stored element lands on its own position."""
    M, N = shape
    out = _zeros(shape, data.dtype) if order == "C" else _zeros((N, M), data.dtype).T
    if data.size == 0 or out.size == 0:
        return out
    dt, ot = data.dtype, offsets.dtype
    rs, cs = (N, 1) if order == "C" else (1, M)
    op = _op(("diadense", dt.char, ot.char), lambda: Op(
        f"cuarray_sp_diadense_{_chars(dt, ot)}",
        [Param("x", "in", dt), Param("off", "raw", ot), Param("o", "raw", dt),
         Param("L", "scalar", _i64), Param("M", "scalar", _i64), Param("N", "scalar", _i64),
         Param("rs", "scalar", _i64), Param("cs", "scalar", _i64)],
        "const long long d = i / L, j = i - d * L, r = j - (long long)off[d]; "
        "if (r >= 0 && r < M && j < N) o[r * rs + j * cs] = x;"))
    flat = data.reshape(-1) if data._c_contig else data.copy("C").reshape(-1)
    base = out if order == "C" else out.T
    op.launch([flat, offsets, base, numpy.int64(data.shape[1]), numpy.int64(M), numpy.int64(N),
               numpy.int64(rs), numpy.int64(cs)])
    return out


def dia_matmul(data, offsets, shape, x, out):
    """out = A @ x for DIA A, x (N,) or (N, K): one thread per output element, a loop
    over the diagonals."""
    M, N = shape
    Kc = 1 if x.ndim == 1 else x.shape[1]
    dt, ot, xt, rt = data.dtype, offsets.dtype, x.dtype, out.dtype
    C = _dt.ctype(rt)
    op = _op(("diamm", dt.char, ot.char, xt.char, rt.char), lambda: Op(
        f"cuarray_sp_diamm_{_chars(dt, ot, xt, rt)}",
        [Param("a", "raw", dt), Param("off", "raw", ot), Param("x", "raw", xt),
         Param("L", "scalar", _i64), Param("N", "scalar", _i64), Param("K", "scalar", _i64),
         Param("y", "out", rt)],
        f"const long long r = i / K, c = i - r * K, nd = off.size(); "
        f"{C} acc = cuarray_cast<{C}>(0); "
        f"for (long long d = 0; d < nd; ++d) {{ const long long j = r + (long long)off[d]; "
        f"if (j >= 0 && j < N && j < L) acc = acc + cuarray_cast<{C}>(a[d * L + j]) * "
        f"cuarray_cast<{C}>(x[j * K + c]); }} y = acc;"))
    if out.size:
        op.launch([data if data._c_contig else data.copy("C"), offsets, x,
                   numpy.int64(data.shape[1]), numpy.int64(N), numpy.int64(Kc), out])
    return out


def dia_transpose(data, offsets, shape):
    """The DIA data of A^T (offsets negated), laid out as SciPy's `dia_matrix.transpose`."""
    M, N = shape
    nd, L = data.shape
    md = max(M, N)
    W = max(L, md)
    dt, ot = data.dtype, offsets.dtype
    C = _dt.ctype(dt)
    op = _op(("diaT", dt.char, ot.char), lambda: Op(
        f"cuarray_sp_diatranspose_{_chars(dt, ot)}",
        [Param("x", "raw", dt), Param("off", "raw", ot), Param("L", "scalar", _i64),
         Param("W", "scalar", _i64), Param("MD", "scalar", _i64), Param("R", "scalar", _i64),
         Param("y", "out", dt)],
        f"const long long d = i / R, c = i - d * R; "
        f"long long s = (-(long long)off[d]) % MD; if (s < 0) s += MD; "
        f"long long src = c - s; if (src < 0) src += W; "
        f"y = src < L ? x[d * L + src] : cuarray_cast<{C}>(0);"))
    return _new(op, (nd, M), dt, data if data._c_contig else data.copy("C"), offsets,
                numpy.int64(L), numpy.int64(W), numpy.int64(md), numpy.int64(M))
