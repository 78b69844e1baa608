"""Sparse @ sparse for CSR operands by rows: a warp per output row accumulates the row's
products in a hash table in shared memory, then sorts what it holds.

Three kernels and two reads from the device: the first measures each row's product count
(the longest row, read back, sizes the tables); the second counts each row's distinct
nonzero columns (the output's size, read back after a scan); the third forms each row
again and writes it sorted, zeros dropped. A product is accumulated in the order of A's
entries, as SciPy's loop does, with a multiply the compiler may not fuse into an fma: real
values come out as SciPy's, bit for bit. A warp adds one entry of A at a time (one row of
B: distinct columns), so each table slot has one writer at a time and no value needs an
atomic. Rows whose table would not fit a warp's share of shared memory are left to the
callers' other paths (`matmul` returns None).
"""
import numpy

from cuarray._core import dtypes as _dt
from cuarray._core._kernel_helpers import kernel, launch, render
from cuarray.scipy.sparse import _kernels as K
from cuarray.scipy.sparse._select import _ends, _with_zero

_i64 = K._i64
_MIN_TABLE = 64          # slots: two warps' worth of lanes
_SHARED = 48 * 1024      # static shared memory of a block
_MAX_TABLE = 2048        # a row of up to 1024 products
_VALUES = frozenset("fdFD")

_PRODUCTS_SRC = r"""
#include <cuarray/core.cuh>
// The number of products of each row of A @ B (saturated at INT_MAX) and the largest.
extern "C" __global__ void ${NAME}(const ${PA}* __restrict__ ap, const ${JA}* __restrict__ aj,
                                  const ${PB}* __restrict__ bp, long long rows,
                                  int* __restrict__ prod, int* __restrict__ longest) {
  const long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  long long n = 0;
  for (long long a = ap[r], e = ap[r + 1]; a < e; ++a) {
    const long long k = (long long)aj[a];
    n += (long long)bp[k + 1] - (long long)bp[k];
  }
  const int p = n > 0x7fffffffLL ? 0x7fffffff : (int)n;
  prod[r] = p;
  if (p) atomicMax(longest, p);
}
"""

_ROWS_SRC = r"""
#include <cuarray/core.cuh>
#define WARPS ${WARPS}
#define TMAX ${TMAX}
#define EMPTY 0xffffffffu
// A warp per row r of A @ B. FILL == 0: counts[r] = the row's distinct nonzero columns.
// FILL == 1: the row's entries, sorted by column, at optr[r] of oj/ov.
extern "C" __global__ void __launch_bounds__(32 * WARPS)
${NAME}(const ${PA}* __restrict__ ap, const ${JA}* __restrict__ aj, const ${AV}* __restrict__ av,
        const ${PB}* __restrict__ bp, const ${JB}* __restrict__ bj, const ${BV}* __restrict__ bv,
        const int* __restrict__ prod, long long rows, long long* __restrict__ counts,
        const ${OT}* __restrict__ optr, ${OT}* __restrict__ oj, ${VT}* __restrict__ ov) {
  __shared__ ${VT} s_vals[WARPS * TMAX];
  __shared__ unsigned s_keys[WARPS * TMAX];
  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  const long long r = (long long)blockIdx.x * WARPS + w;
  if (r >= rows) return;               // the whole warp: only warp barriers below
  ${VT}* vals = s_vals + w * TMAX;
  unsigned* keys = s_keys + w * TMAX;
  const int P = prod[r];
  if (P == 0) {
    if (!${FILL} && lane == 0) counts[r] = 0;
    return;
  }
  int T = ${MIN_TABLE}, bits = ${MIN_BITS};
  while (T < 2 * P) { T <<= 1; ++bits; }   // load factor at most 1/2
  for (int s = lane; s < T; s += 32) { keys[s] = EMPTY; vals[s] = ${VT}(0); }
  __syncwarp();
  const long long a0 = (long long)ap[r], a1 = (long long)ap[r + 1];
  for (long long base = a0; base < a1; base += 32) {
    // the lanes read 32 entries of A and their rows of B at once
    long long b0 = 0, b1 = 0;
    if (base + lane < a1) {
      const long long k = (long long)aj[base + lane];
      b0 = (long long)bp[k];
      b1 = (long long)bp[k + 1];
    }
    const int cnt = a1 - base < 32 ? (int)(a1 - base) : 32;
    for (int e = 0; e < cnt; ++e) {
      const long long s0 = __shfl_sync(0xffffffffu, b0, e), s1 = __shfl_sync(0xffffffffu, b1, e);
      const ${VT} x = cuarray_cast<${VT}>(av[base + e]);
      for (long long b = s0 + lane; b < s1; b += 32) {
        const unsigned c = (unsigned)bj[b];
        unsigned h = (c * 2654435761u) >> (32 - bits);
        for (;;) {
          const unsigned old = atomicCAS(&keys[h], EMPTY, c);
          if (old == EMPTY || old == c) break;
          h = (h + 1) & (T - 1);
        }
        vals[h] = vals[h] + ${MUL};
      }
      __syncwarp();
    }
  }
  if (!${FILL}) {
    int n = 0;
    for (int s = lane; s < T; s += 32) n += keys[s] != EMPTY && cuarray_nonzero(vals[s]);
    #pragma unroll
    for (int o = 16; o; o >>= 1) n += __shfl_xor_sync(0xffffffffu, n, o);
    if (lane == 0) counts[r] = n;
    return;
  }
  // Kept entries to the front, in slot order (a slot moves only left, after it is read).
  int n = 0;
  for (int base = 0; base < T; base += 32) {
    const unsigned key = keys[base + lane];
    const ${VT} v = vals[base + lane];
    const bool keep = key != EMPTY && cuarray_nonzero(v);
    const unsigned m = __ballot_sync(0xffffffffu, keep);
    __syncwarp();
    if (keep) {
      const int pos = n + __popc(m & ((1u << lane) - 1u));
      keys[pos] = key;
      vals[pos] = v;
    }
    n += __popc(m);
    __syncwarp();
  }
  int n2 = 1;
  while (n2 < n) n2 <<= 1;
  for (int s = n + lane; s < n2; s += 32) keys[s] = EMPTY;
  __syncwarp();
  // Bitonic sort of n2 keys, their values alongside; EMPTY sorts last.
  for (int size = 2; size <= n2; size <<= 1) {
    for (int stride = size >> 1; stride > 0; stride >>= 1) {
      for (int t = lane; t < (n2 >> 1); t += 32) {
        const int i = 2 * t - (t & (stride - 1)), j = i + stride;
        const unsigned ki = keys[i], kj = keys[j];
        if ((ki > kj) == ((i & size) == 0)) {
          keys[i] = kj; keys[j] = ki;
          const ${VT} vi = vals[i];
          vals[i] = vals[j]; vals[j] = vi;
        }
      }
      __syncwarp();
    }
  }
  const long long o = (long long)optr[r];
  for (int s = lane; s < n; s += 32) {
    oj[o + s] = (${OT})keys[s];
    ov[o + s] = vals[s];
  }
}
"""


def _table_size(longest):
    t = _MIN_TABLE
    while t < 2 * longest:
        t <<= 1
    return t


def _warps(tmax, vt):
    return max(1, min(8, _SHARED // (tmax * (4 + vt.itemsize))))


def matmul(A, B, dtype):
    """(indptr, indices, data) of A @ B for CSR A and B, columns sorted and zeros dropped,
    or None where this path does not take it: values other than float32/64 and
    complex64/128, columns past int32, or a row of more than _MAX_TABLE / 2 products.
    A B with repeated columns in a row is summed into a canonical copy first (a warp adds
    a row of B at a time, each column once)."""
    M, N = A.shape[0], B.shape[1]
    if dtype.char not in _VALUES or N >= 2 ** 31 - 1 or M == 0:
        return None
    if not B.has_canonical_format:
        B = B.copy()
        B.sum_duplicates()
    pa, ja, pb = A.indptr.dtype, A.indices.dtype, B.indptr.dtype
    name = f"cuarray_sp_spgemm_products_{K._chars(pa, ja, pb)}"
    entry = kernel(("spgemm_products", pa.char, ja.char, pb.char), lambda: (
        render(_PRODUCTS_SRC, NAME=name, PA=_dt.ctype(pa), JA=_dt.ctype(ja), PB=_dt.ctype(pb)),
        name, ["P", "P", "P", "q", "P", "P"]))
    prod = K._empty((M,), numpy.int32)
    longest = K._zeros((1,), numpy.int32)
    launch(entry, (M + 255) // 256, 256,
           [A.indptr._ptr, A.indices._ptr, B.indptr._ptr, M, prod._ptr, longest._ptr])
    top = int(longest.get()[0])
    if top == 0:
        idt = K.index_dtype(M, N)
        return K._zeros((M + 1,), idt), K._empty((0,), idt), K._empty((0,), dtype)
    if top > _MAX_TABLE // 2:
        return None
    tmax = _table_size(top)
    counts = K._empty((M,), _i64)
    _rows(A, B, dtype, tmax, prod, counts, None, None, None)
    ends, total = _ends(counts)
    idt = K.index_dtype(M, N, total)
    indptr = _with_zero(ends, idt)
    indices, data = K._empty((total,), idt), K._empty((total,), dtype)
    if total:
        _rows(A, B, dtype, tmax, prod, counts, indptr, indices, data)
    return indptr, indices, data


def _rows(A, B, vt, tmax, prod, counts, indptr, indices, data):
    """The counting pass (indptr None) or the filling pass of the row kernel."""
    fill = indptr is not None
    ot = indptr.dtype if fill else _i64
    types = (A.indptr.dtype, A.indices.dtype, A.data.dtype, B.indptr.dtype, B.indices.dtype,
             B.data.dtype, ot, vt)
    warps = _warps(tmax, vt)
    name = f"cuarray_sp_spgemm_rows_{int(fill)}_{tmax}_{K._chars(*types)}"
    vc = _dt.ctype(vt)
    mul = f"x * cuarray_cast<{vc}>(bv[b])" if vt.kind == "c" else \
        f"cuarray_mul_rn(x, cuarray_cast<{vc}>(bv[b]))"
    pa, ja, av, pb, jb, bv, _, _ = (_dt.ctype(t) for t in types)
    entry = kernel(("spgemm_rows", fill, tmax) + tuple(t.char for t in types), lambda: (
        render(_ROWS_SRC, NAME=name, WARPS=warps, TMAX=tmax, MIN_TABLE=_MIN_TABLE,
               MIN_BITS=_MIN_TABLE.bit_length() - 1, FILL=int(fill), PA=pa, JA=ja, AV=av,
               PB=pb, JB=jb, BV=bv, OT=_dt.ctype(ot), VT=vc, MUL=mul),
        name, ["P"] * 7 + ["q"] + ["P"] * 4))
    M = A.shape[0]
    launch(entry, (M + warps - 1) // warps, 32 * warps,
           [A.indptr._ptr, A.indices._ptr, A.data._ptr, B.indptr._ptr, B.indices._ptr,
            B.data._ptr, prod._ptr, M, counts._ptr, indptr._ptr if fill else 0,
            indices._ptr if fill else 0, data._ptr if fill else 0])
