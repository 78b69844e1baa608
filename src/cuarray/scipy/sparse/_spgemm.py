"""Sparse @ sparse for CSR operands where the warp-per-row hash kernels (_spgemm_hash.py)
do not take the product: cuSPARSE's SpGEMM where it computes the dtype, else cuarray's own
kernels, sorting each output row on its own.

Every product a_ik * b_kj lands in its row r of a padded (M, L) table, L the longest
row's product count; sorting the table's rows by column (cuarray's shared-memory sort
for rows up to SMALL_N, no global sort) puts equal columns next to each other, and one
thread per run sums it. Rows longer than SMALL_N, or large tables more than half
padding, go to the general path: expand every product and sort them all.
Reads three counts from the device (products, longest row, distinct entries), plus one
when zeros are dropped.
"""
import numpy

from cuarray._core import dtypes as _dt
from cuarray._core._kernel_helpers import OpTemplate
from cuarray.scipy.sparse import _kernels as K
from cuarray.scipy.sparse._select import _ends, _with_zero, run_lengths

_i64 = K._i64
_cusparse_failed = False


def cusparse_matmul(A, B, dtype):
    """(data, indices, indptr) of A @ B for CSR A and B on cuSPARSE's SpGEMM, or None where
    it does not run: values other than float32/64 and complex64/128, sizes past int32, no
    stored entries, or a refusal by cuSPARSE (a library that cannot load is not asked
    again). Its result may hold zeros and unsorted rows: see `canonical`."""
    global _cusparse_failed
    from cuarray._libs import cusparse
    M, Kd, N = A.shape[0], A.shape[1], B.shape[1]
    if (_cusparse_failed or not cusparse.supports(dtype) or not A.nnz or not B.nnz
            or max(M, Kd, N, A.nnz, B.nnz) >= 2 ** 31 - 1):
        return None
    i32 = numpy.dtype(numpy.int32)

    def parts(X):
        # Sorted rows, as cuSPARSE's CSR routines expect (known after the first check).
        X = X if X.has_sorted_indices else X.sorted_indices()
        return (X.indptr.astype(i32, order="C", copy=False),
                X.indices.astype(i32, order="C", copy=False),
                X.data.astype(dtype, order="C", copy=False))
    try:
        indptr, indices, data = cusparse.spgemm(A.shape, parts(A), B.shape, parts(B))
    except cusparse.errors() as e:
        if not isinstance(e, cusparse.status_error()):
            _cusparse_failed = True
        return None
    return data, indices, indptr


_CANON_SRC = r"""
#include <cuarray/core.cuh>
// Counts, over a CSR matrix, its stored zeros and its in-row order violations. Entries are
// read in order (coalesced): d counts the entries not above their predecessor, and the row
// starts that are not above the previous row's last entry are subtracted from it; what is
// left are the violations inside rows.
extern "C" __global__ void ${NAME}(const ${IT}* __restrict__ p, const ${JT}* __restrict__ q,
                                  const ${VT}* __restrict__ v, long long rows, long long nnz,
                                  unsigned long long* __restrict__ counts) {
  const long long stride = (long long)gridDim.x * blockDim.x;
  const long long t0 = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long zeros = 0, d = 0;
  for (long long j = t0; j < nnz; j += stride) {
    zeros += !cuarray_nonzero(v[j]);
    d += j > 0 && q[j - 1] >= q[j];
  }
  for (long long i = t0 + 1; i < rows; i += stride) {
    const long long b = (long long)p[i];
    d -= b > 0 && b < (long long)p[i + 1] && q[b - 1] >= q[b];
  }
  #pragma unroll
  for (int o = 16; o; o >>= 1) {
    zeros += __shfl_xor_sync(0xffffffffu, zeros, o);
    d += __shfl_xor_sync(0xffffffffu, d, o);
  }
  if ((threadIdx.x & 31) == 0 && (zeros || d)) {
    atomicAdd(counts, zeros);
    atomicAdd(counts + 1, d);
  }
}
"""


def canonical(C):
    """SciPy's form of a product, in place: no stored zeros (exact cancellation, or zeros
    stored in the operands), indices sorted. One coalesced pass over the entries counts
    where that fails (read back: a synchronisation); only then are zeros dropped and rows
    sorted."""
    from cuarray._core._kernel_helpers import kernel, launch, render, resident_blocks
    if C.nnz:
        it, jt, vt = C.indptr.dtype, C.indices.dtype, C.data.dtype
        name = f"cuarray_sp_spgemm_canonical_{K._chars(it, jt, vt)}"
        entry = kernel(("spgemm_canon", it.char, jt.char, vt.char), lambda: (
            render(_CANON_SRC, NAME=name, IT=_dt.ctype(it), JT=_dt.ctype(jt), VT=_dt.ctype(vt)),
            name, ["P", "P", "P", "q", "q", "P"]))
        counts = K._zeros((2,), numpy.uint64)
        launch(entry, resident_blocks(256), 256,
               [C.indptr._ptr, C.indices._ptr, C.data._ptr, C.shape[0], C.nnz, counts._ptr])
        if counts.get().any():
            C.eliminate_zeros()
            C.sort_indices()
    C.has_canonical_format = True   # SpGEMM forms each (row, column) once


def matmul(A, B, dtype):
    """(indptr, indices, data) of A @ B for CSR A (M x K) and B (K x N), duplicates summed,
    zeros dropped, rows sorted (SciPy's product has no stored zeros)."""
    from cuarray._core._ops import subtract
    from cuarray._core._reductions import amax
    from cuarray._core._routines_sorting import SMALL_N
    M, N = A.shape[0], B.shape[1]
    counts = run_lengths(A.indices, B.indptr)            # products of each entry of A
    ends, total = _ends(counts)
    E = _with_zero(ends, _i64)
    starts = K.gather(E, A.indptr)                       # first product of each row
    if total == 0:
        idt = K.index_dtype(M, N)
        return K._zeros((M + 1,), idt), K._empty((0,), idt), K._empty((0,), dtype)
    longest = int(amax(subtract(starts[1:], starts[:-1])))
    if longest > SMALL_N or M * longest > max(2 * total, 1 << 22):
        return None
    keys, vals = _table(A, B, ends, E, starts, total, M, N, longest, dtype)
    return _sum_rows(keys, vals, M, N, longest)


_TABLE = OpTemplate(
    "cuarray_sp_spgemm_table",
    "e:raw:int64 E:raw:int64 st:raw:int64 ar:raw:5 ak:raw:0 av:raw:1 p:raw:3 q:raw:4 bv:raw:2 "
    "L:scalar:int64 ko:raw:6 vo:raw:7",
    "long long lo = 0, hi = e.size() - 1; "
    "while (lo < hi) { const long long mid = (lo + hi) >> 1; "
    "if (e[mid] <= i) lo = mid + 1; else hi = mid; } "
    "const long long a = lo, r = ar[a], src = (long long)p[(long long)ak[a]] + i - E[a]; "
    "const long long slot = r * L + i - st[r]; ko[slot] = q[src]; "
    "vo[slot] = cuarray_cast<${T7}>(av[a]) * cuarray_cast<${T7}>(bv[src]);")


def _table(A, B, ends, E, starts, total, M, N, L, dtype):
    """(keys, values), each (M, L): row r holds the columns and values of its products,
    padded with column N (sorting last) and 0."""
    from cuarray._routines.creation import full
    kt = numpy.dtype(numpy.int32) if N < 2 ** 31 - 1 else _i64
    keys = full((M, L), N, dtype=kt)
    vals = K._zeros((M, L), dtype)
    rows = K.expand_major(A.indptr, A.nnz)
    op = _TABLE(A.indices.dtype, A.data.dtype, B.data.dtype, B.indptr.dtype, B.indices.dtype,
                rows.dtype, kt, dtype)
    op.launch([ends, E, starts, rows, A.indices, A.data, B.indptr, B.indices, B.data,
               numpy.int64(L), keys, vals], size=total)
    return keys, vals


_PERMUTE = OpTemplate(
    "cuarray_sp_spgemm_permute",
    "o:in:int64 k:raw:0 v:raw:1 L:scalar:int64 ko:out:0 vo:out:1",
    "const long long src = (i / L) * L + o; ko = k[src]; vo = v[src];")
_FIRST = OpTemplate(
    "cuarray_sp_spgemm_first", "k:raw:0 L:scalar:int64 N:scalar:int64 f:out:int64",
    "f = ((long long)k[i] != N && (i % L == 0 || k[i] != k[i - 1])) ? 1 : 0;")
_SUM = OpTemplate(
    "cuarray_sp_spgemm_sum",
    "s:in:int64 k:raw:0 v:raw:1 L:scalar:int64 r:out:2 c:out:2 x:out:1",
    "${T1} acc = v[s]; long long j = s + 1; "
    "while (j % L != 0 && k[j] == k[s]) { acc = acc + v[j]; ++j; } "
    "r = s / L; c = k[s]; x = acc;")


def _sum_rows(keys, vals, M, N, L):
    """Sort each row of the table and sum runs of equal columns."""
    from cuarray._routines.sorting import argsort
    order = argsort(keys, axis=-1)
    kt, dt = keys.dtype, vals.dtype
    flat = M * L
    sk, sv = K._empty((flat,), kt), K._empty((flat,), dt)
    _PERMUTE(kt, dt).launch([order.reshape(flat), keys, vals, numpy.int64(L), sk, sv])
    flags = K._empty((flat,), _i64)
    _FIRST(kt).launch([sk, numpy.int64(L), numpy.int64(N), flags])
    pos, runs = K._count(flags)
    starts = K._positions(flags, pos, runs)
    idt = K.index_dtype(M, N, starts.size)
    add = _SUM(kt, dt, idt)
    rows, cols, data = (K._empty(starts.shape, idt), K._empty(starts.shape, idt),
                        K._empty(starts.shape, dt))
    if starts.size:
        add.launch([starts, sk, sv, numpy.int64(L), rows, cols, data])
    rows, cols, data = K.compact(K._nonzero_flags(data), rows, cols, data)
    return K.lower_bounds(rows, M, idt), cols, data
