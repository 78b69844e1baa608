"""The scan engine: cumsum, cumprod, their nan forms and ufunc.accumulate.

Rows contiguous along the scanned axis use a single-pass scan with decoupled look-back:
each block takes the next tile (an atomic ticket, so waiting only ever happens on
tiles already running), scans it in shared memory, publishes its aggregate, and walks
back over its predecessors' published values for its prefix. Input is read once and
output written once. Other layouts give each thread one line along the axis
(coalesced when the axis is not the fastest-varying one).
"""
import numpy

from cuarray._core import dtypes as _dt
from cuarray._core.ndarray import ndarray
from cuarray._core.shapes import normalize_axis
from cuarray._core.reduction import _collapse
from cuarray._runtime.compiler import c_identifier, compile_module
from cuarray._runtime.device import ensure_context, get_device_id
from cuarray._runtime.launch import ArgPacker
from cuarray._runtime import memory as _memory
from cuarray._runtime import stream as _stream
from cuarray._runtime.graph import captures as _captures
from cuarray._core.elementwise import _SCALAR_KIND, _append_scalar, _sm_count

BLOCK = 256
_INT32_MAX = 2**31 - 1
# The look-back kernel's shape: threads per tile, elements per thread (capped so that a
# tile's accumulators take at most tile_bytes), blocked vector loads, atomic tile tickets,
# status and value in one word (accumulators of at most 4 bytes), blocks per SM asked of
# the compiler, scanned values kept in registers (else scanned again from shared memory).
# Measured on an H100, cumsum of 2^26 float32 (CuPy 0.557 ms, PyTorch 0.264 ms): without
# the packed word 0.356 ms; blocked vector loads 0.39 ms; 512 threads or 32 items
# 0.265 ms. Then with 10 calls back to back (CuPy 0.559 ms): values kept in registers
# (39 of them: 6 blocks per SM) 0.226 ms; rescanned with 8 blocks per SM asked for
# (32 registers) 0.2095; the same with tiles by blockIdx.x 0.207, not worth giving up
# the ticket's guarantee that no tile waits on one that has not started; 24 items 0.25;
# 128 threads 0.212; 512 threads 0.22. A copy of the same bytes: 0.182 ms.
LOOKBACK = dict(block=256, items=16, tile_bytes=16384, vec=False, ticket=True, packed=True,
                min_blocks=8, keep=False)

_PRELUDE = r"""
#include <cuarray/core.cuh>
template<class T> __device__ __forceinline__ bool _cu_isnan(const T& x) { return !(x == x); }
struct __align__(16) _cu_slot { unsigned w[4]; };
template<class T> __device__ __forceinline__ void _cu_put(_cu_slot* s, const T& v) {
  _cu_slot t; memcpy(&t, &v, sizeof(T)); volatile unsigned* d = s->w;
  d[0] = t.w[0]; d[1] = t.w[1]; d[2] = t.w[2]; d[3] = t.w[3];
}
template<class T> __device__ __forceinline__ T _cu_get(const _cu_slot* s) {
  // volatile word loads bypass the (incoherent) L1: values come from other SMs.
  _cu_slot t; const volatile unsigned* d = s->w;
  t.w[0] = d[0]; t.w[1] = d[1]; t.w[2] = d[2]; t.w[3] = d[3];
  T v; memcpy(&v, &t, sizeof(T)); return v;
}
"""


class ScanOp:
    """acc = op(acc, map(x)) along an axis; `op_expr` uses `a` and `b`, `map_expr` uses `x`."""

    def __init__(self, name, in_dtype, acc_dtype, map_expr, op_expr, identity, associative=True,
                 preamble=""):
        self.name = c_identifier(name)
        self.in_dtype, self.acc_dtype = in_dtype, acc_dtype
        # the C fragments and the accumulator's start
        self.map_expr, self.op_expr, self.identity = map_expr, op_expr, identity
        self.associative = associative
        self.preamble = preamble
        self._kernels = {}

    def launch(self, x, out, axis, ident_value):
        """out[...] = scan of x along axis; x and out have the same shape."""
        ensure_context()
        shape = x._shape
        N = shape[axis]
        if out.size == 0:
            return
        last = axis == x.ndim - 1
        if self.associative and last and x._c_contig and out._c_contig:
            return self._lookback(x, out, N, out.size // N, ident_value)
        if self.associative and x.ndim == 1 and out._c_contig:
            return self._lookback(x.copy(), out, N, 1, ident_value)
        return self._lines(x, out, axis, N, ident_value)

    def _lookback(self, x, out, N, rows, ident_value):
        cfg = LOOKBACK
        block = cfg["block"]
        acc_size = self.acc_dtype.itemsize
        items = max(1, min(cfg["items"], cfg["tile_bytes"] // (block * max(acc_size, 4))))
        it_in, it_out = x.dtype.itemsize, out.dtype.itemsize
        # Blocked 16-byte loads and stores need every full tile to start 16-byte aligned.
        vin, vout = 16 // it_in, 16 // it_out
        vec = (cfg["vec"] and items % vin == 0 and items % vout == 0 and x._ptr % 16 == 0
               and out._ptr % 16 == 0 and (rows == 1 or (N * it_in % 16 == 0 and N * it_out % 16 == 0)))
        tile = block * items
        per_row = (N + tile - 1) // tile
        tiles = per_row * rows
        idx64 = x.size > _INT32_MAX - 4096
        ticket = cfg["ticket"]
        packed = cfg["packed"] and acc_size <= 4
        if packed and _captures and _stream.current_stream_ptr() in _captures:
            packed = False  # a graph would replay the launch's epoch: flags zeroed per launch
        min_blocks = cfg.get("min_blocks", 0)
        keep = cfg.get("keep", True) or vec
        key = ("lb", block, items, vec, ticket, packed, min_blocks, keep, idx64, x.dtype.char,
               out.dtype.char)
        fn_packer = self._kernels.get(key)
        if fn_packer is None:
            src = self._source_lookback(x.dtype, out.dtype, block, items, vec, ticket, idx64, packed,
                                        min_blocks, keep)
            fn = compile_module(src, (), name=self.name).get_function(self.name + "_lb")
            I = "q" if idx64 else "i"
            kinds = ["P", "P", I, I, "P", "P", "Q", "I", _SCALAR_KIND[self.acc_dtype.char]]
            fn_packer = self._kernels[key] = (fn, ArgPacker(kinds))
        fn, packer = fn_packer
        sp = _stream.current_stream_ptr()
        if packed:
            # Status words that outlive the call: no memset, one launch (see _StatusWords).
            words = _status_words(sp, tiles, ticket)
            vals = [x._ptr, out._ptr, N, per_row, words.mem.ptr, 0, words.base, words.epoch]
            _append_scalar(vals, ident_value)
            try:
                fn.launch((tiles, 1, 1), (block, 1, 1), packer.pack(vals), 0, sp)
            except BaseException:
                _status.pop(words.key, None)   # the ticket count no longer matches the counter
                raise
            return
        # counter (16 bytes), one flag per tile, then aggregate and prefix slots (16 bytes each)
        slots = 16 + _round16(tiles * 4)
        scratch = _memory.alloc(slots + 32 * (tiles + 1))
        scratch.memset_async(0, slots)
        vals = [x._ptr, out._ptr, N, per_row, scratch.ptr, scratch.ptr + slots, 0, 0]
        _append_scalar(vals, ident_value)
        fn.launch((tiles, 1, 1), (block, 1, 1), packer.pack(vals), 0, sp)

    def _source_lookback(self, in_dt, out_dt, block, items, vec, ticket, idx64, packed=False,
                         min_blocks=0, keep=True):
        """The single-pass scan kernel: `block` threads of `items` elements each per tile.

        vec: each thread reads and writes its `items` consecutive elements as 16-byte
        vectors (full tiles only), else tiles move through shared memory coalesced.
        ticket: tiles are numbered by an atomic counter (progress never depends on block
        scheduling order), else by blockIdx.x as CUB does (the load starts at once).
        packed: accumulators of at most 4 bytes are published with their status in one word.
        min_blocks: asks the compiler to fit that many blocks per SM (0: its own choice).
        keep: each thread keeps its scanned elements in registers between the block scan
        and the store (else it scans them again from shared memory: fewer registers).
        """
        I = "long long" if idx64 else "int"
        A = _dt.ctype(self.acc_dtype)
        IN = _dt.ctype(in_dt)
        OUT = _dt.ctype(out_dt)
        tile = block * items
        nw = block // 32
        bounds = f"{block}, {min_blocks}" if min_blocks else f"{block}"
        vin, vout = 16 // in_dt.itemsize, 16 // out_dt.itemsize
        # Shared memory is padded by one element per 32 so that thread t reading its
        # `items` consecutive elements does not collide on banks with thread t + 2.
        pad = lambda e: f"(({e}) + (({e}) >> 5))"
        if vec:
            load = [
                f"  T local[{items}];",
                f"  if (rem == {tile}) {{",
                f"    const uint4* p = (const uint4*)(in + base + tid * {items});",
                "    #pragma unroll",
                f"    for (int v = 0; v < {items // vin}; ++v) {{",
                f"      const uint4 w = p[v]; {IN} e[{vin}]; memcpy(e, &w, 16);",
                "      #pragma unroll",
                f"      for (int k = 0; k < {vin}; ++k) local[v * {vin} + k] = _map(e[k]);",
                "    }",
                "  } else {",
                "    #pragma unroll",
                f"    for (int k = 0; k < {items}; ++k) {{ const int j = tid * {items} + k;"
                " local[k] = j < rem ? _map(in[base + j]) : ident; }",
                "  }",
                "  #pragma unroll",
                f"  for (int k = 1; k < {items}; ++k) local[k] = _op(local[k - 1], local[k]);",
                f"  T acc = local[{items - 1}];",
            ]
            store = [
                f"  if (rem == {tile}) {{",
                f"    uint4* q = (uint4*)(out + base + tid * {items});",
                "    #pragma unroll",
                f"    for (int v = 0; v < {items // vout}; ++v) {{",
                f"      {OUT} e[{vout}];",
                "      #pragma unroll",
                f"      for (int k = 0; k < {vout}; ++k) e[k] = cuarray_cast<{OUT}>(_op(pre, local[v * {vout} + k]));",
                "      uint4 w; memcpy(&w, e, 16); q[v] = w;",
                "    }",
                "  } else {",
                "    #pragma unroll",
                f"    for (int k = 0; k < {items}; ++k) {{ const int j = tid * {items} + k;"
                f" if (j < rem) out[base + j] = cuarray_cast<{OUT}>(_op(pre, local[k])); }}",
                "  }",
            ]
            smem = []
        else:
            smem = [f"  __shared__ T s_data[{tile + tile // 32}];"]
            load = [
                "  #pragma unroll",
                f"  for (int k = 0; k < {items}; ++k) {{ const int j = k * {block} + tid;"
                f"    s_data[{pad('j')}] = j < rem ? _map(in[base + j]) : ident; }}",
                "  __syncthreads();",
                *([f"  T local[{items}];",
                   f"  T acc = s_data[{pad(f'tid * {items}')}]; local[0] = acc;",
                   "  #pragma unroll",
                   f"  for (int k = 1; k < {items}; ++k) {{ acc = _op(acc, s_data[{pad(f'tid * {items} + k')}]); local[k] = acc; }}"]
                  if keep else
                  [f"  T acc = s_data[{pad(f'tid * {items}')}];",
                   "  #pragma unroll",
                   f"  for (int k = 1; k < {items}; ++k) acc = _op(acc, s_data[{pad(f'tid * {items} + k')}]);"]),
            ]
            store = [
                *([] if keep else ["  T r = pre;"]),
                "  #pragma unroll",
                (f"  for (int k = 0; k < {items}; ++k) s_data[{pad(f'tid * {items} + k')}] = _op(pre, local[k]);"
                 if keep else
                 f"  for (int k = 0; k < {items}; ++k) {{ r = _op(r, s_data[{pad(f'tid * {items} + k')}]);"
                 f" s_data[{pad(f'tid * {items} + k')}] = r; }}"),
                "  __syncthreads();",
                "  #pragma unroll",
                f"  for (int k = 0; k < {items}; ++k) {{ const int j = k * {block} + tid;"
                f"    if (j < rem) out[base + j] = cuarray_cast<{OUT}>(s_data[{pad('j')}]); }}",
            ]
        if ticket:
            tile_id = ["  __shared__ int s_tile;",
                       "  if (threadIdx.x == 0) s_tile = (int)(atomicAdd((unsigned long long*)counter, 1ull) - ticket0);",
                       "  __syncthreads();",
                       "  const int tile = s_tile;"]
        else:
            tile_id = ["  const int tile = blockIdx.x;"]
        return "\n".join([
            _PRELUDE, self.preamble,
            f"typedef {A} T;",
            f"__device__ __forceinline__ T _op(const T& a, const T& b) {{ return {self.op_expr}; }}",
            f"__device__ __forceinline__ T _map(const {IN}& x_) {{ const T x = cuarray_cast<T>(x_); return {self.map_expr}; }}",
            "__device__ __forceinline__ T _shfl_xor(const T& v, int d) {",
            "  unsigned w[(sizeof(T) + 3) / 4] = {}; memcpy(w, &v, sizeof(T));",
            "  #pragma unroll",
            "  for (int k = 0; k < (int)((sizeof(T) + 3) / 4); ++k) w[k] = __shfl_xor_sync(0xffffffffu, w[k], d);",
            "  T r; memcpy(&r, w, sizeof(T)); return r;",
            "}",
            "__device__ __forceinline__ T _shfl_up(const T& v, int d) {",
            "  unsigned w[(sizeof(T) + 3) / 4] = {}; memcpy(w, &v, sizeof(T));",
            "  #pragma unroll",
            "  for (int k = 0; k < (int)((sizeof(T) + 3) / 4); ++k) w[k] = __shfl_up_sync(0xffffffffu, w[k], d);",
            "  T r; memcpy(&r, w, sizeof(T)); return r;",
            "}",
            *([] if not packed else [
                "__device__ __forceinline__ unsigned long long _cu_pack(unsigned s, const T& v) {",
                "  unsigned b = 0; memcpy(&b, &v, sizeof(T)); return ((unsigned long long)b << 32) | s;",
                "}",
                "__device__ __forceinline__ T _cu_unpack(unsigned long long w) {",
                "  const unsigned b = (unsigned)(w >> 32); T v; memcpy(&v, &b, sizeof(T)); return v;",
                "}",
                "// A word written by an earlier launch (another epoch) reads as not yet published.",
                "__device__ __forceinline__ int _cu_status(unsigned long long w, unsigned epoch) {",
                "  const unsigned s = (unsigned)w; return (s >> 2) == epoch ? (int)(s & 3u) : 0;",
                "}"]),
            f'extern "C" __global__ void __launch_bounds__({bounds}) {self.name}_lb('
            f"const {IN}* __restrict__ in, {OUT}* __restrict__ out,"
            f" const {I} N, const {I} per_row, int* counter, _cu_slot* slots,"
            " const unsigned long long ticket0, const unsigned epoch, const T ident) {",
            "  int* flags = counter + 4;",
            "  _cu_slot* aggs = slots; _cu_slot* prefs = slots + (gridDim.x + 1);",
            *smem,
            f"  __shared__ T s_warp[{nw}];",
            "  __shared__ T s_prefix;",
            "  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;",
            *tile_id,
            f"  const {I} row = tile / per_row, t = tile % per_row;",
            f"  const {I} base = row * N + t * ({I}){tile};",
            f"  const int rem = N - t * ({I}){tile} < {tile} ? (int)(N - t * ({I}){tile}) : {tile};",
            *load,
            "  T v = acc;",
            "  #pragma unroll",
            "  for (int d = 1; d < 32; d <<= 1) { T n = _shfl_up(v, d); if (lane >= d) v = _op(n, v); }",
            "  if (lane == 31) s_warp[warp] = v;",
            "  __syncthreads();",
            "  if (warp == 0) {",
            f"    T w = lane < {nw} ? s_warp[lane] : ident;",
            "    #pragma unroll",
            f"    for (int d = 1; d < {nw}; d <<= 1) {{ T n = _shfl_up(w, d); if (lane >= d) w = _op(n, w); }}",
            f"    if (lane < {nw}) s_warp[lane] = w;",
            "  }",
            "  __syncthreads();",
            "  T excl = _shfl_up(v, 1);",
            "  if (lane == 0) excl = ident;",
            "  if (warp) excl = _op(s_warp[warp - 1], excl);",
            f"  const T total = s_warp[{nw - 1}];",
            # Decoupled look-back by the first warp: 32 predecessors per step. A tile
            # publishes its aggregate (flag 1) at once and its inclusive prefix (flag 2)
            # when known; a predecessor in an earlier row counts as a prefix of identity.
            # All scan operators here are commutative, so lanes combine in any order.
            *(_lookback_packed() if packed else _lookback_slots()),
            "    if (lane == 0) s_prefix = run;",
            "  }",
            "  __syncthreads();",
            "  const T pre = _op(s_prefix, excl);",
            *store,
            "}",
        ])

    def _lines(self, x, out, axis, N, ident_value):
        shape = x._shape
        other = [d for d in range(x.ndim) if d != axis]
        lshape = tuple(shape[d] for d in other)
        L = 1
        for s in lshape:
            L *= s
        kdims, kst = _collapse(lshape, [[x._strides[d] for d in other], [out._strides[d] for d in other]], 1)
        nk = len(kdims)
        lim = x.nbytes + out.nbytes + sum(abs(s) * n for s, n in zip(x._strides, shape)) + \
            sum(abs(s) * n for s, n in zip(out._strides, shape))
        idx64 = lim > _INT32_MAX or x.size > _INT32_MAX - 4096
        key = ("ln", nk, idx64, x.dtype.char, out.dtype.char)
        entry = self._kernels.get(key)
        if entry is None:
            I = "long long" if idx64 else "int"
            ik = "q" if idx64 else "i"
            src = self._source_lines(x.dtype, out.dtype, nk, I)
            fn = compile_module(src, (), name=self.name).get_function(self.name + "_ln")
            kinds = ["P", "P", ik, ik] + [ik] * (3 * nk) + [ik, ik, _SCALAR_KIND[self.acc_dtype.char]]
            entry = self._kernels[key] = (fn, ArgPacker(kinds))
        fn, packer = entry
        vals = [x._ptr, out._ptr, x._strides[axis], out._strides[axis]]
        vals += list(kst[0]) + list(kst[1]) + list(kdims) + [L, N]
        _append_scalar(vals, ident_value)
        grid = min((L + 127) // 128, _sm_count() * 32)
        fn.launch((grid, 1, 1), (128, 1, 1), packer.pack(vals), 0, _stream.current_stream_ptr())

    def _source_lines(self, in_dt, out_dt, nk, I):
        A = _dt.ctype(self.acc_dtype)
        IN = _dt.ctype(in_dt)
        OUT = _dt.ctype(out_dt)
        sig = (["const char* __restrict__ in", "char* __restrict__ out", f"const {I} sin", f"const {I} sout"]
               + [f"const {I} _is{d}" for d in range(nk)] + [f"const {I} _os{d}" for d in range(nk)]
               + [f"const {I} _kd{d}" for d in range(nk)] + [f"const {I} L", f"const {I} N", "const T ident"])
        off = [f"    {I} _t = l, io = 0, oo = 0;"]
        for d in range(nk - 1, -1, -1):
            if d:
                off.append(f"    {{ const {I} c = _t % _kd{d}; _t /= _kd{d}; io += c * _is{d}; oo += c * _os{d}; }}")
            else:
                off.append("    io += _t * _is0; oo += _t * _os0;")
        first = "acc = j ? _op(acc, v) : v;" if not self.associative else "acc = _op(acc, v);"
        return "\n".join([
            _PRELUDE, self.preamble, f"typedef {A} T;",
            f"__device__ __forceinline__ T _op(const T& a, const T& b) {{ return {self.op_expr}; }}",
            f"__device__ __forceinline__ T _map(const {IN}& x_) {{ const T x = cuarray_cast<T>(x_); return {self.map_expr}; }}",
            f'extern "C" __global__ void {self.name}_ln({", ".join(sig)}) {{',
            f"  for ({I} l = ({I})blockIdx.x * blockDim.x + threadIdx.x; l < L; l += ({I})blockDim.x * gridDim.x) {{",
            *off,
            "    T acc = ident;",
            f"    for ({I} j = 0; j < N; ++j) {{",
            f"      const T v = _map(*(const {IN}*)(in + io + j * sin));",
            f"      {first}",
            f"      *({OUT}*)(out + oo + j * sout) = cuarray_cast<{OUT}>(acc);",
            "    }",
            "  }",
            "}",
        ])


def _lookback_slots():
    """Look-back through a flag per tile and separate 16-byte value slots (any T)."""
    return [
        "  if (warp == 0) {",
        "    if (lane == 0) {",
        "      if (t == 0) { _cu_put(&prefs[tile], total); __threadfence(); atomicExch(&flags[tile], 2); }",
        "      else { _cu_put(&aggs[tile], total); __threadfence(); atomicExch(&flags[tile], 1); }",
        "    }",
        "    T run = ident;",
        "    if (t != 0) {",
        "      const int row_first = (int)(row * per_row);",
        "      int p = tile - 1 - lane;",
        "      while (true) {",
        "        int f = p >= row_first ? ((volatile int*)flags)[p] : 2;",
        "        while (__any_sync(0xffffffffu, f == 0)) { if (f == 0) f = ((volatile int*)flags)[p]; }",
        "        __threadfence();",
        "        T v = p >= row_first ? (f == 2 ? _cu_get<T>(&prefs[p]) : _cu_get<T>(&aggs[p])) : ident;",
        *_LOOKBACK_COMBINE,
        "      if (lane == 0) { _cu_put(&prefs[tile], _op(run, total)); __threadfence(); atomicExch(&flags[tile], 2); }",
        "    }",
    ]


def _lookback_packed():
    """Look-back through one 64-bit word per tile, status in the low half and a value of at
    most 4 bytes in the high half: one atomic store publishes both, one load reads both,
    so no fences are needed. The status carries the launch's epoch (epoch << 2 | flag), so
    words left by earlier launches need no clearing."""
    return [
        "  unsigned long long* words = (unsigned long long*)flags;",
        "  if (warp == 0) {",
        "    if (lane == 0) atomicExch(&words[tile], _cu_pack((epoch << 2) | (t == 0 ? 2u : 1u), total));",
        "    T run = ident;",
        "    if (t != 0) {",
        "      const int row_first = (int)(row * per_row);",
        "      int p = tile - 1 - lane;",
        "      while (true) {",
        "        unsigned long long w = 0; int f = 2;",
        "        if (p >= row_first) { w = ((volatile unsigned long long*)words)[p]; f = _cu_status(w, epoch); }",
        "        while (__any_sync(0xffffffffu, f == 0)) {",
        "          if (f == 0) { w = ((volatile unsigned long long*)words)[p]; f = _cu_status(w, epoch); }",
        "        }",
        "        T v = p >= row_first ? _cu_unpack(w) : ident;",
        *_LOOKBACK_COMBINE,
        "      if (lane == 0) atomicExch(&words[tile], _cu_pack((epoch << 2) | 2u, _op(run, total)));",
        "    }",
    ]


class _StatusWords:
    """The packed look-back's scratch for one (device, stream): a 64-bit ticket counter,
    then one status-and-value word per tile. It is cleared once, when made; afterwards each
    launch gets the next epoch (stale words read as unpublished) and the counter's value at
    its start as `ticket0` (tiles are numbered counter - ticket0). Launches on one stream run in order,
    so the host knows that value. Saves a memset and its launch per scan."""

    __slots__ = ("key", "mem", "cap", "launched", "epoch", "base")

    def __init__(self, key, cap):
        self.key, self.cap = key, cap
        self.mem = _memory.alloc(16 + 8 * cap)
        self.mem.memset_async(0, 16 + 8 * cap)
        self.launched = self.epoch = self.base = 0


_status = {}
_EPOCH_LIMIT = 1 << 30   # epoch << 2 must fit the word's 32-bit status half


def _status_words(stream_ptr, tiles, ticket):
    key = (get_device_id(), stream_ptr)
    w = _status.get(key)
    if w is None or w.cap < tiles or w.epoch + 1 >= _EPOCH_LIMIT:
        w = _status[key] = _StatusWords(key, max(tiles, 2 * w.cap if w is not None else 4096))
    w.epoch += 1
    w.base = w.launched
    if ticket:   # tiles numbered by blockIdx.x leave the counter alone
        w.launched += tiles
    return w


# One look-back step's combine: lanes past the nearest inclusive prefix drop out.
_LOOKBACK_COMBINE = [
    "        const unsigned m = __ballot_sync(0xffffffffu, f == 2);",
    "        const int stop = m ? __ffs(m) - 1 : 32;",
    "        if (lane > stop) v = ident;",
    "        #pragma unroll",
    "        for (int d = 16; d >= 1; d >>= 1) { T o = _shfl_xor(v, d); v = _op(v, o); }",
    "        run = _op(run, v);",
    "        if (m) break;",
    "        p -= 32;",
    "      }",
]


def _round16(n):
    return (n + 15) // 16 * 16


# ---- the NumPy functions ------------------------------------------------------------------
_ops = {}
_result_dtypes = {}   # (NumPy ufunc, input dtype char, dtype=) -> NumPy's result dtype
_f16 = numpy.dtype(numpy.float16)
_f32 = numpy.dtype(numpy.float32)


def _scan(name, npuf, a, axis, dtype, out, nan_neutral=None):
    if not isinstance(a, ndarray):
        from cuarray._core.host_policy import device_array
        a = device_array(a, name)
    if axis is None:
        if a.ndim != 1:
            a = a.reshape(-1)
        axis = 0
    else:
        axis = normalize_axis(axis, a.ndim)
    arg = None if dtype is None else _dt.check_dtype(dtype)
    rkey = (npuf, a.dtype.char, arg)
    res = _result_dtypes.get(rkey)
    if res is None:
        res = _result_dtypes[rkey] = npuf.accumulate(numpy.ones(1, a.dtype), dtype=arg).dtype
    acc = _f32 if res == _f16 else res
    if out is None:
        out = ndarray._alloc(a._shape, res, "F" if a._f_contig and not a._c_contig else "C")
    elif not isinstance(out, ndarray) or out._shape != a._shape:
        raise ValueError(f"cuarray.{name}: out must be a cuarray.ndarray of shape {a._shape}")
    if a.size == 0:
        return out
    key = (name, a.dtype.char, acc.char)
    op = _ops.get(key)
    if op is None:
        op = _ops[key] = _make_op(name, npuf, a.dtype, acc, nan_neutral)
    op.launch(a, out, axis, op.identity)
    return out


def _make_op(name, npuf, in_dt, acc, nan_neutral):
    """The ScanOp of `name` for one input and accumulator dtype, its identity resolved."""
    from cuarray._core import ufunc_table as _table
    nm = npuf.__name__
    loop = npuf.resolve_dtypes((acc, acc, None))
    body = _table.body(nm, loop[:2], loop[2:])
    pre = (f"__device__ __forceinline__ {_dt.ctype(acc)} _red({_dt.ctype(acc)} in0, {_dt.ctype(acc)} in1)"
           f" {{ {_dt.ctype(loop[2])} out0; {body} return cuarray_cast<{_dt.ctype(acc)}>(out0); }}")
    mp = "x" if nan_neutral is None or in_dt.kind not in "fc" else f"(_cu_isnan(x) ? T({nan_neutral}) : x)"
    assoc = nm in ("add", "multiply", "maximum", "minimum", "fmax", "fmin", "logical_and",
                   "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor")
    ident = npuf.identity
    if ident is None:
        from cuarray._core._reductions import _sentinel
        ident_v = _sentinel(nm, acc)
    else:
        from cuarray._core.dtypes import to_scalar
        ident_v = to_scalar(ident, acc)
    return ScanOp(f"cuarray_{name}_{in_dt.char}{acc.char}", in_dt, acc, mp, "_red(a, b)", ident_v,
                  assoc, pre)


def _np(name):
    return getattr(numpy, name)


def cumsum(a, axis=None, dtype=None, out=None):
    """cuarray version of `numpy.cumsum` (float16 accumulates in float32)."""
    return _scan("cumsum", numpy.add, a, axis, dtype, out)


def cumprod(a, axis=None, dtype=None, out=None):
    """cuarray version of `numpy.cumprod`."""
    return _scan("cumprod", numpy.multiply, a, axis, dtype, out)


def nancumsum(a, axis=None, dtype=None, out=None):
    """cuarray version of `numpy.nancumsum`."""
    return _scan("nancumsum", numpy.add, a, axis, dtype, out, nan_neutral=0)


def nancumprod(a, axis=None, dtype=None, out=None):
    """cuarray version of `numpy.nancumprod`."""
    return _scan("nancumprod", numpy.multiply, a, axis, dtype, out, nan_neutral=1)


def accumulate(uf, a, axis=0, dtype=None, out=None):
    """ufunc.accumulate on the GPU."""
    if uf.nin != 2 or uf.nout != 1:
        raise ValueError("accumulate only supported for binary functions")
    return _scan(f"accumulate_{uf.__name__}", uf._np, a, axis, dtype, out)
