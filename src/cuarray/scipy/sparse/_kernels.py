"""Device kernels of the sparse formats: index expansion and compression, sorting into
canonical order with duplicates summed, densification, and CSR products for the dtypes
cuSPARSE does not compute.

Every kernel is an elementwise `Op` over its output (or over a size), so it runs on the
current stream. Each is declared once as an `OpTemplate` (parameters and C body) and built
per dtype combination, raw operands' dtypes included (the Op's own cache keys only its
'in'/'out' arrays).

Compressing COO entries sorts them by (major, minor) with cuarray's stable radix sort;
summing duplicates or dropping zeros reads one count from the device (a synchronisation).
"""
import numpy

from cuarray._core._kernel_helpers import Cache, OpTemplate
from cuarray._core.ndarray import ndarray

_i64 = numpy.dtype(numpy.int64)
_i32 = numpy.dtype(numpy.int32)
_op = Cache()   # key -> Op, for Ops whose body varies with more than dtypes


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

_EXPAND = OpTemplate(
    "cuarray_sp_expand", "p:raw:0 nmaj:scalar:int64 m:out:0",
    "long long lo = 0, hi = nmaj; "
    "while (lo < hi) { const long long mid = (lo + hi) >> 1; "
    "if ((long long)p[mid + 1] <= i) lo = mid + 1; else hi = mid; } m = lo;")


def expand_major(indptr, nnz):
    """The major index (row of CSR, column of CSC) of each of the `nnz` entries:
    a binary search of `indptr` per entry, so skewed rows cost nothing extra."""
    dt = indptr.dtype
    return _new(_EXPAND(dt), (nnz,), dt, indptr, numpy.int64(indptr.size - 1))


_BOUNDS = OpTemplate(
    "cuarray_sp_bounds", "s:raw:0 nnz:scalar:int64 p:out:1",
    "long long lo = 0, hi = nnz; "
    "while (lo < hi) { const long long mid = (lo + hi) >> 1; "
    "if ((long long)s[mid] < i) lo = mid + 1; else hi = mid; } p = lo;")


def lower_bounds(sorted_major, n_major, dtype):
    """indptr (n_major + 1 entries) of entries sorted by major index: entry r is the
    first position whose major index is >= r."""
    return _new(_BOUNDS(sorted_major.dtype, dtype), (n_major + 1,), dtype, sorted_major,
                numpy.int64(sorted_major.size))


_KEY = OpTemplate("cuarray_sp_key", "a:in:int64 b:in:int64 n:scalar:int64 k:out:int64",
                  "k = a * n + b;")


def _key(major, minor, n_minor):
    return _new(_KEY(major.dtype, minor.dtype), major.shape, _i64, major, minor,
                numpy.int64(n_minor))


_GATHER = OpTemplate("cuarray_sp_gather", "q:in:1 x:raw:0 y:out:0", "y = x[(long long)q];")


def gather(src, idx):
    """src[idx] for 1-D `src` and an integer index array."""
    return _new(_GATHER(src.dtype, idx.dtype), idx.shape, src.dtype, idx, src)


_SPLIT = OpTemplate("cuarray_sp_split", "k:in:int64 n:scalar:int64 a:out:0 b:out:0",
                    "a = k / n; b = k % n;")


def _split(key, n_minor, dtype):
    a, b = _empty(key.shape, dtype), _empty(key.shape, dtype)
    if key.size:
        _SPLIT(dtype).launch([key, numpy.int64(n_minor), a, b])
    return a, b


def flag_function(name, cond, doc, raw=False):
    """A function of an array `x` giving 0/1 int64 flags, one per element: 1 where the C
    condition `cond` holds. `cond` reads the element as `x`, or with `raw` the whole array as
    `x[i]`, `x.size()`. `doc`: the function's docstring."""
    op = OpTemplate(f"cuarray_sp_{name}", f"x:{'raw' if raw else 'in'}:0 f:out:int64",
                    f"f = ({cond}) ? 1 : 0;")

    def flags(x):
        return _new(op(x.dtype), x.shape, _i64, x)
    flags.__doc__ = doc
    return flags


_run_starts = flag_function("run_starts", "i == 0 || x[i] != x[i - 1]",
                            "1 where a sorted key differs from the one before.", raw=True)
_nonzero_flags = flag_function("nzflag", "cuarray_nonzero(x)", "1 where an element is nonzero.")


def _count(flags):
    """(inclusive running count, total) of 0/1 flags; reading the total synchronises."""
    from cuarray._core.scan import cumsum
    pos = cumsum(flags)
    return pos, int(pos[-1])


_POSITIONS = OpTemplate("cuarray_sp_flag_positions", "f:in:int64 c:in:int64 s:raw:int64",
                        "if (f) s[c - 1] = i;")


def _positions(flags, pos, total):
    """The positions i where flags[i] is set, in order (total of them)."""
    out = _empty((total,), _i64)
    _POSITIONS().launch([flags, pos, out])
    return out


_SEGSUM = OpTemplate(
    "cuarray_sp_segsum",
    "s:raw:int64 k:raw:int64 x:raw:0 nnz:scalar:int64 ko:out:int64 xo:out:0",
    "const long long b = s[i], e = i + 1 < s.size() ? s[i + 1] : nnz; "
    "${T0} acc = x[b]; for (long long j = b + 1; j < e; ++j) acc = acc + x[j]; "
    "ko = k[b]; xo = acc;")


def _segment_sums(starts, skey, sdata):
    """(key, summed data) of each run of equal keys; runs begin at `starts`."""
    dt = sdata.dtype
    u = starts.size
    ko, xo = _empty((u,), _i64), _empty((u,), dt)
    _SEGSUM(dt).launch([starts, skey, sdata, numpy.int64(skey.size), ko, xo])
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

_DENSE = OpTemplate(
    "cuarray_sp_dense",
    "p:raw:1 q:raw:2 x:raw:0 o:raw:0 ms:scalar:int64 ns:scalar:int64 nmin:scalar:int64",
    "const long long b = p[i], e = p[i + 1]; "
    "for (long long j = b; j < e; ++j) { const long long c = q[j]; "
    "if (c >= 0 && c < nmin) { auto& t = o[i * ms + c * ns]; t = t + x[j]; } }")


def to_dense(indptr, indices, data, shape, major_axis, order="C"):
    """The dense matrix of compressed entries (duplicates summed); `major_axis` 0 for CSR,
    1 for CSC. One thread per major line, so no two threads add to one element."""
    M, N = shape
    out = _zeros(shape, data.dtype) if order == "C" else _zeros((N, M), data.dtype).T
    n_major = indptr.size - 1
    if data.size == 0 or n_major == 0:
        return out
    # Element (r, c) sits at r * rs + c * cs in `out`'s memory.
    rs, cs = (N, 1) if order == "C" else (1, M)
    maj_s, min_s = (rs, cs) if major_axis == 0 else (cs, rs)
    base = out if order == "C" else out.T
    op = _DENSE(data.dtype, indptr.dtype, indices.dtype)
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


_CSRMM = OpTemplate(
    "cuarray_sp_csrmm", "p:raw:1 q:raw:2 a:raw:0 x:raw:3 K:scalar:int64 y:out:4",
    "const long long r = i / K, c = i - r * K; ${T4} acc = cuarray_cast<${T4}>(0); "
    "for (long long j = p[r], e = p[r + 1]; j < e; ++j) "
    "acc = acc + cuarray_cast<${T4}>(a[j]) * cuarray_cast<${T4}>(x[(long long)q[j] * K + c]); "
    "y = acc;")


def csrmm_op(dt, it, jt, xt, ot):
    """The Op of `csr_matmul` for values dt, pointers it, indices jt, operand xt, result ot."""
    return _CSRMM(dt, it, jt, xt, ot)


_PRODUCTS = OpTemplate(
    "cuarray_sp_products",
    "r:in:4 k:in:4 av:in:0 end:in:int64 n:in:int64 p:raw:2 q:raw:3 bv:raw:1 ro:raw:4 "
    "co:raw:4 vo:raw:5",
    "const long long b0 = p[(long long)k], o0 = end - n; "
    "const ${T5} a = cuarray_cast<${T5}>(av); "
    "for (long long t = 0; t < n; ++t) { ro[o0 + t] = r; co[o0 + t] = q[b0 + t]; "
    "vo[o0 + t] = a * cuarray_cast<${T5}>(bv[b0 + t]); }")


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
    op = _PRODUCTS(a_data.dtype, b_data.dtype, bt, b_indices.dtype, it, out_dtype)
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


_DIA_FLAG = OpTemplate(
    "cuarray_sp_diaflag",
    "x:in:0 off:raw:1 L:scalar:int64 M:scalar:int64 N:scalar:int64 f:out:int64",
    "const long long d = i / L, j = i - d * L, r = j - (long long)off[d]; "
    "f = (r >= 0 && r < M && j < N && cuarray_nonzero(x)) ? 1 : 0;")
_DIA_COORD = OpTemplate(
    "cuarray_sp_diacoord", "off:raw:0 L:scalar:int64 r:out:1 c:out:1",
    "const long long d = i / L, j = i - d * L; r = j - (long long)off[d]; c = j;")


def dia_entries(data, offsets, shape, idx_dtype):
    """(rows, cols, values) of the stored nonzero elements of DIA data (n_diags, L):
    element (d, j) is A[j - offsets[d], j]; those outside the matrix are dropped."""
    M, N = shape
    nd, L = data.shape
    dt, ot = data.dtype, offsets.dtype
    flat = data.reshape(-1) if data._c_contig else data.copy("C").reshape(-1)
    if flat.size == 0:
        e = _empty((0,), idx_dtype)
        return e, e, _empty((0,), dt)
    flags = _empty(flat.shape, _i64)
    _DIA_FLAG(dt, ot).launch([flat, offsets, numpy.int64(L), numpy.int64(M), numpy.int64(N),
                              flags])
    rows, cols = _empty(flat.shape, idx_dtype), _empty(flat.shape, idx_dtype)
    _DIA_COORD(ot, idx_dtype).launch([offsets, numpy.int64(L), rows, cols])
    return compact(flags, rows, cols, flat)


_DIAGONAL = OpTemplate(
    "cuarray_sp_diagonal",
    "p:raw:1 q:raw:2 x:raw:0 r0:scalar:int64 c0:scalar:int64 csr:scalar:bool y:out:0",
    "const long long r = r0 + i, c = c0 + i, m = csr ? r : c, want = csr ? c : r; "
    "${T0} acc = cuarray_cast<${T0}>(0); "
    "for (long long j = p[m], e = p[m + 1]; j < e; ++j) "
    "if ((long long)q[j] == want) acc = acc + x[j]; "
    "y = acc;")


def diagonal(indptr, indices, data, shape, k, major_axis):
    """Diagonal k of a compressed matrix (duplicates summed), one thread per element."""
    M, N = shape
    n = max(0, min(M + min(k, 0), N - max(k, 0)))
    out = _empty((n,), data.dtype)
    if n:
        op = _DIAGONAL(data.dtype, indptr.dtype, indices.dtype)
        op.launch([indptr, indices, data, numpy.int64(max(-k, 0)), numpy.int64(max(k, 0)),
                   numpy.bool_(major_axis == 0), out])
    return out


def _sorted_op(name, cmp):
    return OpTemplate(
        f"cuarray_sp_{name}", "p:raw:0 q:raw:1 f:out:int64",
        "long long ok = 1; for (long long j = (long long)p[i] + 1, e = p[i + 1]; j < e; ++j) "
        f"if (q[j - 1] {cmp} q[j]) {{ ok = 0; break; }} f = ok;")


_SORTED, _STRICTLY_SORTED = _sorted_op("sorted", ">"), _sorted_op("strictly_sorted", ">=")


def canonical_flags(indptr, indices, strict):
    """0/1 int64 per major line: 1 where the line's indices are increasing (strictly when
    `strict`: sorted with no duplicates)."""
    op = (_STRICTLY_SORTED if strict else _SORTED)(indptr.dtype, indices.dtype)
    return _new(op, (indptr.size - 1,), _i64, indptr, indices)


_GATHER_2D = OpTemplate("cuarray_sp_gather2d", "r:in:1 c:in:1 x:raw:0 N:scalar:int64 y:out:0",
                        "y = x[(long long)r * N + (long long)c];")


def gather_2d(x, rows, cols):
    """x[rows, cols] for a 2-D array of any layout (broadcast views included)."""
    return _new(_GATHER_2D(x.dtype, rows.dtype), rows.shape, x.dtype, rows, cols, x,
                numpy.int64(x.shape[1]))


_PAIRS = OpTemplate(
    "cuarray_sp_pairs",
    "k:raw:int64 q:raw:int64 a:raw:0 b:raw:1 na:scalar:int64 f:out:int64 v:out:2",
    "const bool hit = i + 1 < k.size() && k[i] == k[i + 1]; f = hit ? 1 : 0; "
    "v = hit ? cuarray_cast<${T2}>(cuarray_cast<${T2}>(a[q[i]]) * "
    "cuarray_cast<${T2}>(b[q[i + 1] - na])) "
    ": cuarray_cast<${T2}>(0);")


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
    flags, vals = _empty(skey.shape, _i64), _empty(skey.shape, dtype)
    op = _PAIRS(A.data.dtype, B.data.dtype, dtype)
    op.launch([skey, perm, A.data, B.data, numpy.int64(A.nnz), flags, vals])
    skey, vals = compact(flags, skey, vals)
    rows, cols = _split(skey, n_minor, idx_dtype)
    return rows, cols, vals


_SCATTER_2D = OpTemplate("cuarray_sp_scatter2d", "r:in:1 c:in:2 v:in:0 o:raw:0 W:scalar:int64",
                         "o[(long long)r * W + (long long)c] = v;")


def scatter_2d(out, rows, cols, vals):
    """out[rows, cols] = vals for a C-contiguous 2-D `out` (coordinates distinct)."""
    if rows.size:
        op = _SCATTER_2D(out.dtype, rows.dtype, cols.dtype, vals.dtype)
        op.launch([rows, cols, vals, out, numpy.int64(out.shape[1])])


_DIA_DENSE = OpTemplate(
    "cuarray_sp_diadense",
    "x:in:0 off:raw:1 o:raw:0 L:scalar:int64 M:scalar:int64 N:scalar:int64 rs:scalar:int64 "
    "cs:scalar:int64",
    "const long long d = i / L, j = i - d * L, r = j - (long long)off[d]; "
    "if (r >= 0 && r < M && j < N) o[r * rs + j * cs] = x;")


def dia_to_dense(data, offsets, shape, order="C"):
    """The dense matrix of DIA data: each stored element lands on its own position."""
    M, N = shape
    out = _zeros(shape, data.dtype) if order == "C" else _zeros((N, M), data.dtype).T
    if data.size == 0 or out.size == 0:
        return out
    rs, cs = (N, 1) if order == "C" else (1, M)
    flat = data.reshape(-1) if data._c_contig else data.copy("C").reshape(-1)
    base = out if order == "C" else out.T
    op = _DIA_DENSE(data.dtype, offsets.dtype)
    op.launch([flat, offsets, base, numpy.int64(data.shape[1]), numpy.int64(M), numpy.int64(N),
               numpy.int64(rs), numpy.int64(cs)])
    return out


_DIA_MATMUL = OpTemplate(
    "cuarray_sp_diamm",
    "a:raw:0 off:raw:1 x:raw:2 L:scalar:int64 N:scalar:int64 K:scalar:int64 y:out:3",
    "const long long r = i / K, c = i - r * K, nd = off.size(); "
    "${T3} acc = cuarray_cast<${T3}>(0); "
    "for (long long d = 0; d < nd; ++d) { const long long j = r + (long long)off[d]; "
    "if (j >= 0 && j < N && j < L) acc = acc + cuarray_cast<${T3}>(a[d * L + j]) * "
    "cuarray_cast<${T3}>(x[j * K + c]); } y = acc;")


def dia_matmul(data, offsets, shape, x, out):
    """out = A @ x for DIA A, x (N,) or (N, K): one thread per output element, a loop
    over the diagonals."""
    M, N = shape
    Kc = 1 if x.ndim == 1 else x.shape[1]
    if out.size:
        op = _DIA_MATMUL(data.dtype, offsets.dtype, x.dtype, out.dtype)
        op.launch([data if data._c_contig else data.copy("C"), offsets, x,
                   numpy.int64(data.shape[1]), numpy.int64(N), numpy.int64(Kc), out])
    return out


_DIA_TRANSPOSE = OpTemplate(
    "cuarray_sp_diatranspose",
    "x:raw:0 off:raw:1 L:scalar:int64 W:scalar:int64 MD:scalar:int64 R:scalar:int64 y:out:0",
    "const long long d = i / R, c = i - d * R; "
    "long long s = (-(long long)off[d]) % MD; if (s < 0) s += MD; "
    "long long src = c - s; if (src < 0) src += W; "
    "y = src < L ? x[d * L + src] : cuarray_cast<${T0}>(0);")


def dia_transpose(data, offsets, shape):
    """The DIA data of A^T (offsets negated), laid out as SciPy's `dia_matrix.transpose`."""
    M, N = shape
    nd, L = data.shape
    md = max(M, N)
    W = max(L, md)
    dt = data.dtype
    return _new(_DIA_TRANSPOSE(dt, offsets.dtype), (nd, M), dt,
                data if data._c_contig else data.copy("C"), offsets,
                numpy.int64(L), numpy.int64(W), numpy.int64(md), numpy.int64(M))
