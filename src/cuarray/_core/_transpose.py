"""Tiled transpose copies: the copy engine's path for a destination whose contiguous axis
is not the source's (a.T.copy(), ascontiguousarray(a.T), C <-> F conversions), 2-D or
batched 2-D.

The generic strided copy reads (or writes) with a large stride, using one element of
each 32-byte sector it touches. Here a block of 32x8 threads moves a 32x32 tile: it
reads the tile coalesced along the source's contiguous axis into shared memory (rows
padded to 33 elements, so the transposed reads hit 32 different banks) and writes it
coalesced along the destination's. Elements move as raw words of their size, so one
kernel per itemsize serves every dtype.

Elements of up to 4 bytes in large copies move in 64x64 tiles by the same 256 threads:
16 loads in flight per thread instead of 4, and each tile row is 64 elements (256 bytes
of float32) of a DRAM page rather than 32. Small copies keep 32x32 tiles, which make four
times the blocks (a 64-tile grid under eight blocks per SM would leave SMs idle), and so
do 8- and 16-byte elements, whose 32-element rows already span 256 bytes or more.
CUARRAY_TRANSPOSE_TILE=32 or 64 forces one tile size (for measurement).
"""
import os

from cuarray._core._kernel_helpers import render
from cuarray._runtime import stream as _stream
from cuarray._runtime.compiler import compile_module
from cuarray._runtime.device import ensure_context
from cuarray._runtime.launch import ArgPacker

TILE = 32
MIN_SIDE = 16  # narrower transposes waste most of each tile; the strided copy does them
_INT32_MAX = 2**31 - 1
_WORD = {1: "unsigned char", 2: "unsigned short", 4: "unsigned int", 8: "unsigned long long",
         16: "cuarray_b16"}

_SOURCE = r"""
struct __align__(16) cuarray_b16 { unsigned long long lo, hi; };
typedef ${WORD} W;
typedef ${INDEX} I;
#define T ${TILE}
// a block of 32x8 threads moves a TxT tile; each thread T/32 columns of T/8 rows
extern "C" __global__ void __launch_bounds__(256) ${NAME}(
    const W* __restrict__ src, W* __restrict__ dst, const I R, const I C, const I sc, const I dr,
    const I sb, const I db, const I tiles_r, const I tiles_c) {
  __shared__ W tile[T][T + 1];
  I t = blockIdx.x;
  const I tr = t % tiles_r; t /= tiles_r;
  const I tc = t % tiles_c;
  const I b = t / tiles_c;
  const I r0 = tr * T, c0 = tc * T;
  src += b * sb;
  dst += b * db;
  // this thread's (x, k) cells of the tile: x across the 32 lanes, k across the 8 rows
#define CUARRAY_TILE_CELLS(...) \
  _Pragma("unroll") for (int h = 0; h < T / 32; ++h) { const int x = threadIdx.x + 32 * h; \
    _Pragma("unroll") for (int q = 0; q < T / 8; ++q) { const int k = threadIdx.y + 8 * q; \
      __VA_ARGS__ } }
  CUARRAY_TILE_CELLS(const I r = r0 + x; const I c = c0 + k;
                     if (r < R && c < C) tile[k][x] = src[c * sc + r];)
  __syncthreads();
  CUARRAY_TILE_CELLS(const I c = c0 + x; const I rr = r0 + k;
                     if (rr < R && c < C) dst[rr * dr + c] = tile[x][k];)
}
"""

_kernels = {}
_plans = {}   # (shape, src strides, dst strides, itemsize) -> plan() or ()


TILE_CHOICE = os.environ.get("CUARRAY_TRANSPOSE_TILE", "auto")
_BIG_TILE = 64
_BIG_TILE_MAX_ITEMSIZE = 4
_BLOCKS_PER_SM = 8   # the 64-tile grid must still fill every SM this many times over


def source(itemsize, idx64, tile=TILE):
    """CUDA source and kernel name for one element size, index width and tile side."""
    name = f"cuarray_transpose_{itemsize}{'_64' if idx64 else ''}{'' if tile == TILE else f'_t{tile}'}"
    src = render(_SOURCE, WORD=_WORD[itemsize], INDEX="long long" if idx64 else "int",
                 NAME=name, TILE=str(tile))
    return src, name


def _kernel(itemsize, idx64, tile):
    key = (itemsize, idx64, tile)
    entry = _kernels.get(key)
    if entry is None:
        src, name = source(itemsize, idx64, tile)
        fn = compile_module(src, name=name).get_function(name)
        entry = _kernels[key] = (fn, ArgPacker(("P", "P") + ("q" if idx64 else "i",) * 8))
    return entry


def tile_side(R, C, batch, itemsize, sm_count):
    """The tile side for one copy: 64 for elements of up to 4 bytes when the 64-tile grid
    gives every SM `_BLOCKS_PER_SM` blocks, else 32 (or what CUARRAY_TRANSPOSE_TILE says)."""
    if TILE_CHOICE in ("32", "64"):
        return TILE if itemsize > 8 else int(TILE_CHOICE)   # 64x65 16-byte words overflow shared memory
    big = _BIG_TILE
    if itemsize <= _BIG_TILE_MAX_ITEMSIZE and R >= big and C >= big and \
            ((R + big - 1) // big) * ((C + big - 1) // big) * batch >= _BLOCKS_PER_SM * sm_count:
        return big
    return TILE


def plan(shape, src_strides, dst_strides, itemsize):
    """(R, C, sc, dr, sb, db, batch), strides in elements, when copying `src` into `dst` is a
    (batched) transpose: dst contiguous along C, src contiguous along R, at most one other
    axis after merging; None otherwise (pure planning)."""
    dims = [d for d, n in enumerate(shape) if n != 1]
    if len(dims) < 2:
        return None
    s, t = {}, {}
    for d in dims:
        if src_strides[d] % itemsize or dst_strides[d] % itemsize:
            return None
        s[d], t[d] = src_strides[d] // itemsize, dst_strides[d] // itemsize
    cols = [d for d in dims if t[d] == 1]
    rows = [d for d in dims if s[d] == 1]
    if len(cols) != 1 or len(rows) != 1 or cols == rows:
        return None
    c, r = cols[0], rows[0]
    R, C = shape[r], shape[c]
    if R < MIN_SIDE or C < MIN_SIDE:
        return None
    rest = sorted((d for d in dims if d not in (r, c)), key=lambda d: -abs(t[d]))
    merged = []
    for d in rest:
        n = shape[d]
        if merged and merged[-1][1] == s[d] * n and merged[-1][2] == t[d] * n:
            merged[-1] = (merged[-1][0] * n, s[d], t[d])
        else:
            merged.append((n, s[d], t[d]))
    if len(merged) > 1:
        return None
    batch, sb, db = merged[0] if merged else (1, 0, 0)
    return R, C, s[c], t[r], sb, db, batch


def _span(ptr, shape, strides, itemsize):
    lo = hi = ptr
    for n, st in zip(shape, strides):
        if st > 0:
            hi += (n - 1) * st
        else:
            lo += (n - 1) * st
    return lo, hi + itemsize


def transpose_copy(src, dst):
    """dst[...] = src by the tiled kernel when their layouts are transposed (same shape and
    dtype, same device, no overlap). Returns False, doing nothing, otherwise."""
    if src.dtype != dst.dtype or src._shape != dst._shape or src._device_id != dst._device_id:
        return False
    if (src._c_contig and dst._c_contig) or (src._f_contig and dst._f_contig) or src.size == 0:
        return False
    it = src.dtype.itemsize
    if it not in _WORD:
        return False
    key = (src._shape, src._strides, dst._strides, it)
    p = _plans.get(key)
    if p is None:
        # plan() is pure but costs ~1 µs, paid by every strided copy that is no transpose.
        if len(_plans) >= 256:
            _plans.clear()
        p = _plans[key] = plan(*key) or ()    # (): not a transpose
    if not p:
        return False
    R, C, sc, dr, sb, db, batch = p
    if src._mem is dst._mem:
        (alo, ahi), (blo, bhi) = (_span(a._ptr, a._shape, a._strides, it) for a in (src, dst))
        if alo < bhi and blo < ahi:
            return False
    ensure_context()
    from cuarray._core.elementwise import _sm_count
    tile = tile_side(R, C, batch, it, _sm_count())
    tiles_r, tiles_c = (R + tile - 1) // tile, (C + tile - 1) // tile
    blocks = tiles_r * tiles_c * batch
    if blocks > _INT32_MAX:
        return False
    reach = max(abs(sc) * (C - 1) + R + abs(sb) * (batch - 1),
                abs(dr) * (R - 1) + C + abs(db) * (batch - 1), blocks)
    fn, packer = _kernel(it, reach > _INT32_MAX - tile * tile, tile)
    fn.launch((blocks, 1, 1), (TILE, 8, 1),
              packer.pack((src._ptr, dst._ptr, R, C, sc, dr, sb, db, tiles_r, tiles_c)), 0,
              _stream.current_stream_ptr())
    return True
