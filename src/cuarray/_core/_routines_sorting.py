"""Sorting: sort, argsort, lexsort, sort_complex, partition, argpartition, and the radix
sort under them (public face: `_routines/sorting.py`; here because `ndarray.sort`,
`argsort`, `partition` and `argpartition` are methods).

Order is NumPy's: NaN after everything (all NaNs equal), complex lexicographic with
NumPy's NaN rules. Every sort is stable, whatever `kind` says.

Along an axis of length n <= 2048, one block sorts each row in shared memory (a bitonic
network over (value, position) pairs, so ties keep their order). Longer rows go through
a stable radix sort of ordered unsigned keys (`cuarray_okey`: float bits flipped so that
unsigned order is NumPy's order, NaN last); several rows sort as (row, key) pairs;
complex values and lexsort sort key by key, least significant first. The radix sort is
CUB's through `cuda.compute` or cuarray's own LSD kernels (`CUARRAY_SORT_BACKEND`, see
`_libs/cccl.py`); the own kernels apply the key function themselves, so one row of
values sorts without transform passes.
"""

import numpy

from cuarray._core import _copy
from cuarray._core import dtypes as _dt
from cuarray._core._kernel_helpers import Cache, kernel, launch, render, resident_blocks
from cuarray._core.elementwise import Op, Param, _sm_count
from cuarray._core.ndarray import ndarray
from cuarray._core.shapes import normalize_axis
from cuarray._libs import cccl as _cccl

_i64 = numpy.dtype(numpy.int64)
_u32 = numpy.dtype(numpy.uint32)
_u64 = numpy.dtype(numpy.uint64)
_UNSIGNED = {1: numpy.dtype(numpy.uint8), 2: numpy.dtype(numpy.uint16), 4: _u32, 8: _u64}
SMALL_N = 2048          # rows up to this length sort in shared memory
_TILE = 256 * 8         # keys per block-iteration of the own radix scatter

# Shared by every kernel that orders values (sorting, searching, sets, statistics).
# Also valid host C++, so CPU tests check it against NumPy.
ORDER = r"""
#include <cuarray/core.cuh>
// ---- NumPy's order: NaN last; complex as numpy/_core/src/npysort/npysort_common.h ----------
template <class T> CUARRAY_FN bool cuarray_lt(const T& a, const T& b) { return a < b; }
CUARRAY_FN bool cuarray_lt(const float& a, const float& b) { return a < b || (b != b && a == a); }
CUARRAY_FN bool cuarray_lt(const double& a, const double& b) { return a < b || (b != b && a == a); }
CUARRAY_FN bool cuarray_lt(const half& a, const half& b) { return cuarray_lt((float)a, (float)b); }
template <class T> CUARRAY_FN bool cuarray_lt(const complex<T>& a, const complex<T>& b) {
  if (a.re < b.re) return a.im == a.im || b.im != b.im;
  if (a.re > b.re) return b.im != b.im && a.im == a.im;
  if (a.re == b.re || (a.re != a.re && b.re != b.re)) return a.im < b.im || (b.im != b.im && a.im == a.im);
  return b.re != b.re;
}
template <class T> CUARRAY_FN bool cuarray_isnan_v(const T&) { return false; }
CUARRAY_FN bool cuarray_isnan_v(const half& x) { return (x.x & 0x7fffu) > 0x7c00u; }
CUARRAY_FN bool cuarray_isnan_v(const float& x) { return x != x; }
CUARRAY_FN bool cuarray_isnan_v(const double& x) { return x != x; }
template <class T> CUARRAY_FN bool cuarray_isnan_v(const complex<T>& z) { return z.re != z.re || z.im != z.im; }

// ---- ordered unsigned keys: unsigned order == cuarray_lt order, every NaN the largest key ----
template <class U, class T> CUARRAY_FN U cuarray_bitcast(const T& x) { U u; memcpy(&u, &x, sizeof(U)); return u; }
CUARRAY_FN unsigned char cuarray_okey(bool x) { return x ? 1 : 0; }
CUARRAY_FN unsigned char cuarray_okey(signed char x) { return (unsigned char)((unsigned char)x ^ 0x80u); }
CUARRAY_FN unsigned char cuarray_okey(unsigned char x) { return x; }
CUARRAY_FN unsigned short cuarray_okey(short x) { return (unsigned short)((unsigned short)x ^ 0x8000u); }
CUARRAY_FN unsigned short cuarray_okey(unsigned short x) { return x; }
CUARRAY_FN unsigned int cuarray_okey(int x) { return (unsigned int)x ^ 0x80000000u; }
CUARRAY_FN unsigned int cuarray_okey(unsigned int x) { return x; }
CUARRAY_FN unsigned long long cuarray_okey(long long x) { return (unsigned long long)x ^ 0x8000000000000000ull; }
CUARRAY_FN unsigned long long cuarray_okey(unsigned long long x) { return x; }
CUARRAY_FN unsigned short cuarray_okey(half x) {
  const unsigned short u = x.x;
  if ((u & 0x7fffu) > 0x7c00u) return 0xffffu;
  return (u & 0x8000u) ? (unsigned short)~u : (unsigned short)(u | 0x8000u);
}
CUARRAY_FN unsigned int cuarray_okey(float x) {
  if (x != x) return 0xffffffffu;
  const unsigned int u = cuarray_bitcast<unsigned int>(x);
  return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}
CUARRAY_FN unsigned long long cuarray_okey(double x) {
  if (x != x) return 0xffffffffffffffffull;
  const unsigned long long u = cuarray_bitcast<unsigned long long>(x);
  return (u & 0x8000000000000000ull) ? ~u : (u | 0x8000000000000000ull);
}
// -0.0 keyed as 0.0: equal values must tie for stable indices.
template <class T> CUARRAY_FN auto cuarray_okey_z(T x) { return cuarray_okey(x); }
CUARRAY_FN unsigned short cuarray_okey_z(half x) { return (x.x & 0x7fffu) == 0 ? (unsigned short)0x8000u : cuarray_okey(x); }
CUARRAY_FN unsigned int cuarray_okey_z(float x) { return x == 0.0f ? 0x80000000u : cuarray_okey(x); }
CUARRAY_FN unsigned long long cuarray_okey_z(double x) { return x == 0.0 ? 0x8000000000000000ull : cuarray_okey(x); }
// The value of a key (NaN keys give a NaN); the pointer only selects the type.
CUARRAY_FN bool cuarray_from_okey(unsigned char k, const bool*) { return k != 0; }
CUARRAY_FN signed char cuarray_from_okey(unsigned char k, const signed char*) { return (signed char)(k ^ 0x80u); }
CUARRAY_FN unsigned char cuarray_from_okey(unsigned char k, const unsigned char*) { return k; }
CUARRAY_FN short cuarray_from_okey(unsigned short k, const short*) { return (short)(k ^ 0x8000u); }
CUARRAY_FN unsigned short cuarray_from_okey(unsigned short k, const unsigned short*) { return k; }
CUARRAY_FN int cuarray_from_okey(unsigned int k, const int*) { return (int)(k ^ 0x80000000u); }
CUARRAY_FN unsigned int cuarray_from_okey(unsigned int k, const unsigned int*) { return k; }
CUARRAY_FN long long cuarray_from_okey(unsigned long long k, const long long*) { return (long long)(k ^ 0x8000000000000000ull); }
CUARRAY_FN unsigned long long cuarray_from_okey(unsigned long long k, const unsigned long long*) { return k; }
CUARRAY_FN half cuarray_from_okey(unsigned short k, const half*) {
  return cuarray_half_bits((k & 0x8000u) ? (unsigned short)(k & 0x7fffu) : (unsigned short)~k);
}
CUARRAY_FN float cuarray_from_okey(unsigned int k, const float*) { return cuarray_f32((k & 0x80000000u) ? (k & 0x7fffffffu) : ~k); }
CUARRAY_FN double cuarray_from_okey(unsigned long long k, const double*) {
  return cuarray_f64((k & 0x8000000000000000ull) ? (k & 0x7fffffffffffffffull) : ~k);
}
// Complex order as three stable passes: imaginary key, real key, NaN category (most significant).
template <class T> CUARRAY_FN auto cuarray_ckey_im(const complex<T>& z) { return z.im != z.im ? 0 : cuarray_okey_z(z.im); }
template <class T> CUARRAY_FN auto cuarray_ckey_re(const complex<T>& z) { return z.re != z.re ? 0 : cuarray_okey_z(z.re); }
template <class T> CUARRAY_FN unsigned char cuarray_ckey_cat(const complex<T>& z) { return (z.re != z.re ? 2 : 0) | (z.im != z.im ? 1 : 0); }
"""

_NATIVE_CUB = set("bBhHiIlqLQfd")  # key dtypes CUB orders itself (NaN canonicalised first)
_NAN = {"f": "cuarray_f32(0x7fc00000u)", "d": "cuarray_f64(0x7ff8000000000000ull)"}


op = Cache()


def need(a, name):
    """`a` if it is a cuarray array, else TypeError naming the explicit transfer."""
    if not isinstance(a, ndarray):
        from cuarray._core.host_policy import device_array
        return device_array(a, name)
    return a


# ---- keys ---------------------------------------------------------------------------------
def key_bits(dtype):
    """Significant bits of the ordered key of a non-complex dtype."""
    return 1 if dtype.kind == "b" else dtype.itemsize * 8


def _subkeys(src, zero_canon):
    """[(src, C expression of v and p, key dtype, bits)], least significant first."""
    dt = src.dtype
    z = "_z" if zero_canon else ""
    if dt.kind != "c":
        return [(src, f"cuarray_okey{z}(v)", _UNSIGNED[dt.itemsize], key_bits(dt))]
    fb = dt.itemsize * 4
    fk = _UNSIGNED[dt.itemsize // 2]
    if fb == 32:  # category and real key fit one 64-bit key
        return [(src, "cuarray_ckey_im(v)", fk, 32),
                (src, "((unsigned long long)cuarray_ckey_cat(v) << 32) | cuarray_ckey_re(v)", _u64, 34)]
    return [(src, "cuarray_ckey_im(v)", fk, 64), (src, "cuarray_ckey_re(v)", fk, 64),
            (src, "cuarray_ckey_cat(v)", _UNSIGNED[1], 2)]


def _row_key(rows):
    bits = max(1, (rows - 1).bit_length())
    return (None, "p / n", _u32 if bits <= 32 else _u64, bits)


def _key_op(first, src_dt, expr, kdt, vt):
    """Keys of the pass: first pass reads x in order (and writes iota when vt is given);
    later passes read x[perm] (p is the flat position in the sorted-axis-last view)."""
    T = None if src_dt is None else _dt.ctype(src_dt)
    K = _dt.ctype(kdt)
    sc = None if src_dt is None else src_dt.char

    def build():
        params = []
        if first:
            pre = "const long long p = i; "
            if T:
                params.append(Param("x", "in", src_dt))
                pre += f"const {T} v = x; "
        else:
            params.append(Param("pp", "in", vt))
            pre = "const long long p = (long long)pp; "
            if T:
                params.append(Param("x", "raw", src_dt))
                pre += f"const {T} v = x[p]; "
        params += [Param("n", "scalar", _i64), Param("k", "out", kdt)]
        body = f"{pre}k = ({K})({expr});"
        if first and vt is not None:
            params.append(Param("q", "out", vt))
            body += f" q = ({_dt.ctype(vt)})i;"
        return Op(f"cuarray_sortkey_{'f' if first else 'g'}", params, body, preamble=ORDER)

    return op(("key", first, sc, expr, kdt.char, None if vt is None else vt.char), build)


def gather_op(xdt, pdt):
    """y[i] = x[p[i]] (x any layout, indexed in C order)."""
    return op(("gather", xdt.char, pdt.char), lambda: Op(
        "cuarray_sort_gather", [Param("pp", "in", pdt), Param("x", "raw", xdt), Param("y", "out", xdt)],
        "y = x[(long long)pp];"))


def _pos_op(pdt):
    """o = p % n as int64: the position of each element within its row."""
    return op(("pos", pdt.char), lambda: Op(
        "cuarray_sort_pos", [Param("pp", "in", pdt), Param("n", "scalar", _i64), Param("o", "out", _i64)],
        "o = (long long)pp % n;"))


def _fromkey_op(kdt, dtype, bits):
    """y = the value of an ordered key (of the low `bits` bits of a composite key)."""
    K = _dt.ctype(_UNSIGNED[dtype.itemsize])
    mask = f"{(1 << bits) - 1}ull"
    return op(("inv", kdt.char, dtype.char, bits), lambda: Op(
        "cuarray_sort_fromkey", [Param("k", "in", kdt), Param("y", "out", dtype)],
        f"y = cuarray_from_okey(({K})(k & {mask}), (const {_dt.ctype(dtype)}*)0);", preamble=ORDER))


def iota_op(dt):
    return op(("iota", dt.char), lambda: Op(
        "cuarray_sort_iota", [Param("q", "out", dt)], f"q = ({_dt.ctype(dt)})i;"))


def _canon_op(dt, vt):
    """k = x with every NaN made the one positive NaN CUB sorts last (and q = i when vt)."""
    body = f"k = x != x ? {_NAN[dt.char]} : x;" if dt.kind == "f" else "k = x;"
    params = [Param("x", "in", dt), Param("k", "out", dt)]
    if vt is not None:
        params.append(Param("q", "out", vt))
        body += f" q = ({_dt.ctype(vt)})i;"
    return op(("canon", dt.char, None if vt is None else vt.char),
              lambda: Op("cuarray_sort_canon", params, body))


def _gather(x, perm, out):
    gather_op(x.dtype, perm.dtype).launch([perm, x, out])


def _positions(perm, n, out):
    _pos_op(perm.dtype).launch([perm, numpy.int64(n), out])


def _from_keys(keys, dtype, bits, out):
    _fromkey_op(keys.dtype, dtype, bits).launch([keys, out])


def _iota(out):
    iota_op(out.dtype).launch([out])


# ---- radix sort: CUB through cuda.compute, or cuarray's own LSD kernels --------------------
_RADIX_SRC = r"""
typedef ${KEYT} K;
// The ordered key of a stored key: the identity for keys made by _key_op; for raw value
// bits, cuarray_okey of the value, so values sort in place without a transform pass.
__device__ __forceinline__ unsigned long long _ok(const K k) { return (unsigned long long)(${KEYEXPR}); }
typedef ${VALT} V;
#define HAS_V ${HASV}
#define NT 256
#define NW 8
#define ITEMS 8
#define TILE (NT * ITEMS)
__device__ __forceinline__ long long _mn(long long a, long long b) { return a < b ? a : b; }

// counts[d * gridDim.x + b]: keys of block b's chunk whose digit is d.
extern "C" __global__ void radix_upsweep(const K* __restrict__ keys, const long long n, const int shift,
                                         const long long chunk, long long* __restrict__ counts) {
  __shared__ unsigned int h[NW][256];
  const int tid = threadIdx.x, warp = tid >> 5;
  for (int d = tid; d < NW * 256; d += NT) (&h[0][0])[d] = 0;
  __syncthreads();
  const long long start = (long long)blockIdx.x * chunk, end = _mn(start + chunk, n);
  long long i = start + tid;
  for (; i + 3 * NT < end; i += 4 * NT) {  // four loads in flight per thread
    K k[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) k[u] = keys[i + u * NT];
#pragma unroll
    for (int u = 0; u < 4; ++u) atomicAdd(&h[warp][(unsigned)(_ok(k[u]) >> shift) & 255u], 1u);
  }
  for (; i < end; i += NT) atomicAdd(&h[warp][(unsigned)(_ok(keys[i]) >> shift) & 255u], 1u);
  __syncthreads();
  unsigned int c = 0;
  for (int w = 0; w < NW; ++w) c += h[w][tid];
  counts[(long long)tid * gridDim.x + blockIdx.x] = c;
}

// Stable scatter of one digit. A tile is ranked in ITEMS rounds of NT keys (position
// r * NT + tid): a key's rank among equal digits = earlier rounds + earlier warps +
// earlier lanes (__match_any_sync). Keys are first placed digit-sorted in shared memory,
// so each digit's run is written to global memory contiguously.
extern "C" __global__ void radix_scatter(const K* __restrict__ kin, K* __restrict__ kout,
                                         const V* __restrict__ vin, V* __restrict__ vout,
                                         const long long n, const int shift, const long long chunk,
                                         const long long* __restrict__ counts,
                                         const long long* __restrict__ incl) {
  __shared__ K s_k[TILE];
#if HAS_V
  __shared__ V s_v[TILE];
#endif
  __shared__ unsigned short s_w[2][NW][256];  // double-buffered so one barrier per phase suffices
  __shared__ int s_t[256], s_p[256], s_ws[NW];
  __shared__ long long s_run[256];
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const unsigned lt = (1u << lane) - 1u;
  {
    const long long j = (long long)tid * gridDim.x + blockIdx.x;
    s_run[tid] = incl[j] - counts[j];
  }
  for (int w = 0; w < NW; ++w) { s_w[0][w][tid] = 0; s_w[1][w][tid] = 0; }
  s_t[tid] = 0;
  __syncthreads();
  const long long start = (long long)blockIdx.x * chunk, end = _mn(start + chunk, n);
  int buf = 0;
  for (long long base = start; base < end; base += TILE) {
    const int valid = (int)_mn((long long)TILE, end - base);
    K k[ITEMS];
    V v[ITEMS];
    int dg[ITEMS], rk[ITEMS];
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) {
      const int p = r * NT + tid;
      if (p < valid) {
        k[r] = kin[base + p];
#if HAS_V
        v[r] = vin ? vin[base + p] : (V)(base + p);
#endif
        dg[r] = (int)((_ok(k[r]) >> shift) & 255u);
      } else {
        dg[r] = 256;
      }
    }
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) {
      const int d = dg[r];
      const unsigned peers = __match_any_sync(0xffffffffu, d);
      const int lr = __popc(peers & lt);
      if (d < 256 && lr == 0) s_w[buf][warp][d] = (unsigned short)__popc(peers);
      __syncthreads();
      {
        int run = s_t[tid];
        for (int w = 0; w < NW; ++w) {
          const int c = s_w[buf][w][tid];
          s_w[buf][w][tid] = (unsigned short)run;
          s_w[buf ^ 1][w][tid] = 0;
          run += c;
        }
        s_t[tid] = run;
      }
      __syncthreads();
      rk[r] = d < 256 ? (int)s_w[buf][warp][d] + lr : 0;
      buf ^= 1;
    }
    {  // exclusive prefix of the tile's digit counts
      const int c = s_t[tid];
      int x = c;
      for (int o = 1; o < 32; o <<= 1) {
        const int y = __shfl_up_sync(0xffffffffu, x, o);
        if (lane >= o) x += y;
      }
      if (lane == 31) s_ws[warp] = x;
      __syncthreads();
      int off = 0;
      for (int w = 0; w < warp; ++w) off += s_ws[w];
      s_p[tid] = off + x - c;
    }
    __syncthreads();
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) {
      if (dg[r] < 256) {
        const int p = s_p[dg[r]] + rk[r];
        s_k[p] = k[r];
#if HAS_V
        s_v[p] = v[r];
#endif
      }
    }
    __syncthreads();
    for (int j = tid; j < valid; j += NT) {
      const K key = s_k[j];
      const int d = (int)((_ok(key) >> shift) & 255u);
      const long long g = s_run[d] + (j - s_p[d]);
      if (kout) kout[g] = key;
#if HAS_V
      vout[g] = s_v[j];
#endif
    }
    __syncthreads();
    s_run[tid] += s_t[tid];
    s_t[tid] = 0;
  }
}
"""


def radix_source(kdt, vdt, keyexpr="k"):
    return ORDER + render(_RADIX_SRC, KEYT=_dt.ctype(kdt), KEYEXPR=keyexpr,
                          VALT=_dt.ctype(vdt if vdt is not None else _u32),
                          HASV="1" if vdt is not None else "0")


def _radix_fns(kdt, vdt, keyexpr):
    def build(name, kinds):
        return lambda: (radix_source(kdt, vdt, keyexpr), name, kinds)
    key = (kdt.char, None if vdt is None else vdt.char, keyexpr)
    up = kernel(("radix_up",) + key, build("radix_upsweep", ["P", "q", "i", "q", "P"]))
    sc = kernel(("radix_sc",) + key, build("radix_scatter", ["P", "P", "P", "P", "q", "i", "q", "P", "P"]))
    return up, sc


def _own_radix(keys, vals, end_bit, want_keys, vt, keyexpr="k"):
    """LSD radix sort of 1-D unsigned `keys` (8 bits a pass) ordered by `keyexpr` of each
    key `k`; vals None with vt: the values are the positions."""
    from cuarray._core.scan import cumsum
    n = keys.size
    up, sc = _radix_fns(keys.dtype, vt, keyexpr)
    chunk = -(-n // (_sm_count() * 4))
    chunk = max(_TILE, -(-chunk // _TILE) * _TILE)
    nb = -(-n // chunk)
    counts = ndarray._alloc((256 * nb,), _i64)
    passes = -(-end_bit // 8)
    kbuf = [ndarray._alloc((n,), keys.dtype) for _ in range(min(passes, 2))]
    vbuf = [ndarray._alloc((n,), vt) for _ in range(min(passes, 2))] if vt is not None else None
    sk, sv = keys, vals
    for p in range(passes):
        dk = kbuf[p % 2]
        dv = vbuf[p % 2] if vt is not None else None
        launch(up, nb, 256, [sk._ptr, n, 8 * p, chunk, counts._ptr])
        incl = cumsum(counts)
        write_keys = want_keys or p < passes - 1
        launch(sc, nb, 256, [sk._ptr, dk._ptr if write_keys else 0, 0 if sv is None else sv._ptr,
                             0 if dv is None else dv._ptr, n, 8 * p, chunk, counts._ptr, incl._ptr])
        sk, sv = dk, dv
    return (sk if want_keys else None), sv


def radix(keys, vals, end_bit, want_keys, vt, backend):
    """Stable sort of 1-D `keys` with optional values -> (sorted keys or None, sorted values).

    vals None and vt given: the values are the positions 0..n-1 (of dtype vt)."""
    n = keys.size
    if backend == "own":
        return _own_radix(keys, vals, end_bit, want_keys, vt)
    if vt is not None and vals is None:
        vals = ndarray._alloc((n,), vt)
        _iota(vals)
    kout = ndarray._alloc((n,), keys.dtype)
    vout = None if vt is None else ndarray._alloc((n,), vt)
    _cccl.radix_sort(keys, kout, vals, vout, n, end_bit)
    return (kout if want_keys else None), vout


# ---- small rows: a bitonic network in shared memory ----------------------------------------
_SMALL_SRC = r"""
typedef ${VT} T;
#define P ${PP}
#define E ${EE}
extern "C" __global__ void cuarray_small_sort(const T* __restrict__ x, T* __restrict__ out,
                                              long long* __restrict__ idx, const long long rows, const int n) {
  __shared__ T s_x[E];
  __shared__ int s_i[E];
  const int tid = threadIdx.x, nt = blockDim.x;
  for (long long r0 = (long long)blockIdx.x * (E / P); r0 < rows; r0 += (long long)gridDim.x * (E / P)) {
    for (int e = tid; e < E; e += nt) {
      const int j = e & (P - 1);
      const long long row = r0 + e / P;
      if (j < n && row < rows) { s_x[e] = x[row * n + j]; s_i[e] = j; }
      else s_i[e] = P + j;  // padding: after every element of the row
    }
    __syncthreads();
    for (int k = 2; k <= P; k <<= 1) {
      for (int s = k >> 1; s > 0; s >>= 1) {
        for (int c = tid; c < E / 2; c += nt) {
          const int i = 2 * c - (c & (s - 1)), l = i + s;
          const int ii = s_i[i], il = s_i[l];
          bool gt;  // element i belongs after element l: value, then position
          if (ii >= n || il >= n) gt = ii > il;
          else gt = cuarray_lt(s_x[l], s_x[i]) || (!cuarray_lt(s_x[i], s_x[l]) && ii > il);
          if (gt == (((i & (P - 1)) & k) == 0)) {
            const T t = s_x[i]; s_x[i] = s_x[l]; s_x[l] = t;
            s_i[i] = il; s_i[l] = ii;
          }
        }
        __syncthreads();
      }
    }
    for (int e = tid; e < E; e += nt) {
      const int j = e & (P - 1);
      const long long row = r0 + e / P;
      if (j < n && row < rows) {
        if (out) out[row * n + j] = s_x[e];
        if (idx) idx[row * n + j] = s_i[e];
      }
    }
    __syncthreads();
  }
}
"""


def small_geometry(n):
    """(padded row length P, elements per block E, threads) for rows of length n."""
    P = 1 << max(0, (n - 1).bit_length())
    E = max(P, 512)
    return P, E, min(E // 2, 1024)


def small_source(dtype, P, E):
    return ORDER + render(_SMALL_SRC, VT=_dt.ctype(dtype), PP=str(P), EE=str(E))


def _small_sort(x, rows, n, vals, idx):
    """Sort each row of the (rows, n) C-contiguous array x into vals / idx (either may be None)."""
    P, E, threads = small_geometry(n)
    entry = kernel(("small", x.dtype.char, P), lambda: (
        small_source(x.dtype, P, E), "cuarray_small_sort", ["P", "P", "P", "q", "i"]))
    grid = min(-(-rows // (E // P)), 16 * resident_blocks(threads))
    launch(entry, grid, threads, [x._ptr, 0 if vals is None else vals._ptr,
                                  0 if idx is None else idx._ptr, rows, n])


# ---- the sort of a view along its last axis ------------------------------------------------
def sort_last(xv, want_vals, want_idx, backend=None):
    """Sort `xv` along its last axis -> (values, int64 positions), C-contiguous, xv's shape.

    Either result is None when not wanted.
    """
    if xv.dtype.kind in "Mm":
        # NaT sorts last, as in NumPy: the int64 counts minus one (wrapping) put it there.
        from cuarray._core._ops import UFUNCS
        i64 = numpy.dtype(numpy.int64)
        vals, idx = sort_last(UFUNCS["subtract"](xv.view(i64), 1), want_vals, want_idx, backend)
        return (None if vals is None else UFUNCS["add"](vals, 1).view(xv.dtype)), idx
    shape = xv._shape
    N = xv.size
    n = shape[-1] if shape else 1
    rows = N // n if n else 0
    be = backend or (_cccl.backend() if n > SMALL_N else None)
    if be == "own" and rows == 1 and xv.dtype.kind != "c":
        return _own_bits(xv, want_vals, want_idx)
    vals = ndarray._alloc(shape, xv.dtype) if want_vals else None
    idx = ndarray._alloc(shape, _i64) if want_idx else None
    if N == 0:
        return vals, idx
    if n <= SMALL_N:
        _small_sort(xv if xv._c_contig else xv.copy(), rows, n, vals, idx)
        return vals, idx
    vt = _u32 if N < 2**32 else _u64
    dt = xv.dtype
    flat_v = None if vals is None else vals.reshape(N)
    flat_i = None if idx is None else idx.reshape(N)
    if rows == 1 and dt.kind != "c":
        if be == "cccl" and dt.char in _NATIVE_CUB:
            _cub_native(xv, N, flat_v, flat_i, vt)
            return vals, idx
        _, expr, kdt, bits = _subkeys(xv, want_idx)[0]
    elif dt.kind != "c" and key_bits(dt) + _row_key(rows)[3] <= 64:
        kb = key_bits(dt)
        bits = kb + _row_key(rows)[3]
        kdt = _u32 if bits <= 32 else _u64
        K = _dt.ctype(kdt)
        expr = f"(({K})(p / n) << {kb}) | ({K})cuarray_okey{'_z' if want_idx else ''}(v)"
    else:
        keys = _subkeys(xv, True) + ([_row_key(rows)] if rows > 1 else [])
        perm = lsd_argsort(keys, N, n, be, vt)
        if flat_v is not None:
            _gather(xv, perm, flat_v)
        if flat_i is not None:
            _positions(perm, n, flat_i)
        return vals, idx
    # one key per element: a single radix sort
    keys = ndarray._alloc(shape, kdt)
    _key_op(True, dt, expr, kdt, None).launch([xv, numpy.int64(n), keys])
    # Zero-canonical keys (for stable indices) lose the sign of -0.0: gather values then.
    exact = want_idx and dt.kind in "ef"
    sk, perm = radix(keys.reshape(N), None, bits, want_vals and not exact, vt if want_idx else None, be)
    if flat_v is not None:
        if exact:
            _gather(xv, perm, flat_v)
        else:
            _from_keys(sk, dt, key_bits(dt), flat_v)
    if flat_i is not None:
        _positions(perm, n, flat_i)
    return vals, idx


def _own_bits(xv, want_vals, want_idx):
    """One row sorted by the own radix sort on its values' bits: the kernels order them by
    cuarray_okey, so values need no transform pass and come out bit-exact."""
    dt, shape, N = xv.dtype, xv._shape, xv.size
    x = xv.reshape(N)
    if not x._c_contig:
        x = x.copy()
    keyexpr = f"cuarray_okey{'_z' if want_idx else ''}(cuarray_bitcast<{_dt.ctype(dt)}>(k))"
    vt = (_u32 if N < 2**32 else _u64) if want_idx else None
    sk, perm = _own_radix(x.view(_UNSIGNED[dt.itemsize]), None, dt.itemsize * 8, want_vals, vt, keyexpr)
    vals = sk.view(dt).reshape(shape) if want_vals else None
    idx = None
    if want_idx:
        idx = ndarray._alloc(shape, _i64)
        _positions(perm, N, idx.reshape(N))
    return vals, idx


def _cub_native(xv, N, flat_v, flat_i, vt):
    """One row of a dtype CUB orders itself: keys go in as they are (NaN made one value)."""
    dt = xv.dtype
    if dt.kind == "f" or not xv._c_contig:
        keys = ndarray._alloc((N,), dt)
        q = ndarray._alloc((N,), vt) if flat_i is not None else None
        _canon_op(dt, None if q is None else vt).launch([xv.reshape(N), keys] + ([q] if q is not None else []))
    else:
        keys, q = xv.reshape(N), None
    kout = flat_v if flat_v is not None else ndarray._alloc((N,), dt)
    if flat_i is None:
        _cccl.radix_sort(keys, kout, None, None, N)
        return
    if q is None:
        q = ndarray._alloc((N,), vt)
        _iota(q)
    qout = ndarray._alloc((N,), vt)
    _cccl.radix_sort(keys, kout, q, qout, N)
    _positions(qout, N, flat_i)


def lsd_argsort(keys, N, n, backend, vt):
    """Flat positions (dtype vt) ordering the elements of the (.., n) view by `keys`
    (least significant first): one stable radix sort per key."""
    perm = None
    for src, expr, kdt, bits in keys:
        out = ndarray._alloc((N,), kdt)
        src_dt = None if src is None else src.dtype
        if perm is None:
            iota = ndarray._alloc((N,), vt) if backend == "cccl" else None
            args = ([src.reshape(N) if src._c_contig else src] if src is not None else [])
            args += [numpy.int64(n), out if src is None or src._c_contig else out.reshape(src._shape)]
            if iota is not None:
                args.append(iota if src is None or src._c_contig else iota.reshape(src._shape))
            _key_op(True, src_dt, expr, kdt, None if iota is None else vt).launch(args)
            vin = iota
        else:
            args = [perm] + ([src] if src is not None else []) + [numpy.int64(n), out]
            _key_op(False, src_dt, expr, kdt, vt).launch(args)
            vin = perm
        _, perm = radix(out, vin, bits, False, vt, backend)
    return perm


# ---- argument handling ----------------------------------------------------------------------
def _check_sort_args(kind, order, stable):
    if kind is not None:
        if stable is not None:
            raise ValueError("`kind` and keyword parameters can't be provided at the same time. "
                             "Use only one of them.")
        if not isinstance(kind, str) or not kind or kind[0].lower() not in "qhms":
            raise ValueError(f"sort kind must be one of 'quick', 'heap', or 'stable' (got {kind!r})")
    if order is not None:
        raise ValueError("Cannot specify order when the array has no fields.")


def axis_last(a, axis):
    """The view of `a` with `axis` moved last."""
    nd = a.ndim
    if axis == nd - 1:
        return a
    perm = [d for d in range(nd) if d != axis] + [axis]
    return a.transpose(perm)


def axis_back(r, axis, nd, copy=True):
    """Undo axis_last on a result of the moved shape (a C-contiguous copy when copy)."""
    if axis == nd - 1:
        return r
    inv = list(range(axis)) + [nd - 1] + list(range(axis, nd - 1))
    v = r.transpose(inv)
    return v.copy() if copy else v


def _prepare(a, axis, name):
    a = need(a, name)
    if axis is None:
        return a.reshape(-1), 0
    return a, normalize_axis(axis, a.ndim)


# ---- the NumPy functions --------------------------------------------------------------------
def sort(a, axis=-1, kind=None, order=None, *, stable=None):
    """cuarray version of `numpy.sort` (always stable)."""
    _check_sort_args(kind, order, stable)
    a, axis = _prepare(a, axis, "sort")
    vals, _ = sort_last(axis_last(a, axis), True, False)
    return axis_back(vals, axis, a.ndim)


def argsort(a, axis=-1, kind=None, order=None, *, stable=None):
    """cuarray version of `numpy.argsort` (always stable)."""
    _check_sort_args(kind, order, stable)
    a, axis = _prepare(a, axis, "argsort")
    _, idx = sort_last(axis_last(a, axis), False, True)
    return axis_back(idx, axis, a.ndim)


def sort_inplace(a, axis=-1, kind=None, order=None, *, stable=None):
    """`ndarray.sort`: sorts `a` in place along `axis`."""
    _check_sort_args(kind, order, stable)
    a = need(a, "ndarray.sort")
    axis = normalize_axis(axis, a.ndim)
    view = axis_last(a, axis)
    vals, _ = sort_last(view, True, False)
    _copy.copy_into(view, vals)


def lexsort(keys, axis=-1):
    """cuarray version of `numpy.lexsort`: the last key is the primary one."""
    if isinstance(keys, ndarray):
        if keys.ndim == 0:
            raise TypeError("need sequence of keys with len > 0 in lexsort")
        keys = [keys[i] for i in range(keys.shape[0])]
    else:
        keys = [need(k, "lexsort") for k in keys]
    if not keys:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    shape = keys[0].shape
    if any(k.shape != shape for k in keys):
        raise ValueError("all keys need to be the same shape")
    nd = len(shape)
    if nd == 0:
        return _copy.zeros((), _i64)
    axis = normalize_axis(axis, nd)
    views = [axis_last(k, axis) for k in keys]
    idx = ndarray._alloc(views[0]._shape, _i64)
    N = idx.size
    if N:
        n = views[0]._shape[-1]
        rows = N // n
        sub = [s for v in views for s in _subkeys(v, True)]
        if rows > 1:
            sub.append(_row_key(rows))
        vt = _u32 if N < 2**32 else _u64
        perm = lsd_argsort(sub, N, n, _cccl.backend(), vt)
        _positions(perm, n, idx.reshape(N))
    return axis_back(idx, axis, nd)


def sort_complex(a):
    """cuarray version of `numpy.sort_complex`."""
    b = sort(a)
    if b.dtype.kind == "c":
        return b
    return b.astype(numpy.complex64 if b.dtype.char in "bhBH" else numpy.complex128)


def _kth(kth, n, bounds=True):
    """The kth argument as a list of non-negative ints, with NumPy's errors (an empty array
    takes any kth, as in NumPy)."""
    if isinstance(kth, ndarray):
        kth = kth.get()
    k = numpy.asarray(kth)
    if k.dtype == numpy.bool_:
        raise ValueError("Booleans unacceptable as partition index")
    if k.dtype.kind not in "iu":
        raise TypeError("Partition index must be integer")
    if k.ndim > 1:
        raise ValueError("kth must be a scalar or a 1-D sequence of integers")
    out = []
    for v in k.reshape(-1).tolist():
        w = v + n if v < 0 else v
        if bounds and not 0 <= w < n:
            raise ValueError(f"kth(={w}) out of bounds ({n})")
        out.append(w)
    return out


def _check_partition(kind, order):
    if kind != "introselect":
        raise ValueError(f"select kind must be 'introselect' (got {kind!r})")
    if order is not None:
        raise ValueError("Cannot specify order when the array has no fields.")


def _partition_args(a, kth, axis, kind, order, name, one_from_0d=False):
    """(a, axis) of a partition call, its arguments checked as NumPy checks them."""
    _check_partition(kind, order)
    if one_from_0d:
        a = need(a, name)
        if a.ndim == 0 and axis is not None:
            a = a.reshape(1)  # NumPy treats a 0-d array as one element here
    a, axis = _prepare(a, axis, name)
    _kth(kth, a.shape[axis], a.size > 0)
    return a, axis


def partition(a, kth, axis=-1, kind="introselect", order=None):
    """cuarray version of `numpy.partition`: a full (stable) sort, which meets its guarantee."""
    a, axis = _partition_args(a, kth, axis, kind, order, "partition")
    return sort(a, axis)


def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    """cuarray version of `numpy.argpartition`: the indices of a full stable sort."""
    a, axis = _partition_args(a, kth, axis, kind, order, "argpartition", one_from_0d=True)
    return argsort(a, axis)


def partition_inplace(a, kth, axis=-1, kind="introselect", order=None):
    """`ndarray.partition`: partitions `a` in place (by sorting it)."""
    _check_partition(kind, order)
    a = need(a, "ndarray.partition")
    axis = normalize_axis(axis, a.ndim)
    _kth(kth, a.shape[axis], a.size > 0)
    sort_inplace(a, axis)


__all__ = ["sort", "argsort", "lexsort", "sort_complex", "partition", "argpartition"]
