"""Vector norms along one axis of a C-contiguous real array, in kernels shaped for it.

The reduction engine serves every layout; these two serve the two that matter most for
matrices and read at close to copy bandwidth:

- along the last axis (rows of a matrix): one warp per row, each lane loading 16-byte
  vectors, a shuffle tree, the finish (sqrt) by lane 0;
- along the first axis (columns): a block covers 4 * TX adjacent columns (one vector per
  lane) and 1/SPLITS of the rows, so every row segment it reads is contiguous; per-split
  partials go to a scratch buffer and the last block of each column tile (counted with
  an atomic, as CUB's single-pass reductions do) combines them in split order and
  finishes. The counters reset themselves, so a call costs one launch; the order of the
  additions does not depend on which block finishes last.

Used for float32/float64 and the orders 2, 1, inf and -inf on arrays large enough that a
launch's fixed cost is not what is measured (see `applies`).
"""
import threading

import numpy

from cuarray._core import dtypes as _dt
from cuarray._core._kernel_helpers import kernel, render
from cuarray._core.ndarray import ndarray
from cuarray._runtime import graph as _graph
from cuarray._runtime import stream as _stream
from cuarray._runtime.device import get_device_id
from cuarray._runtime.launch import LaunchPlan

# kind -> (map of one element v, combine a and b, identity, finish of the accumulator a)
_KINDS = {
    "l2": ("v * v", "a + b", "0", "sqrt(a)"),
    "l1": ("fabs(v)", "a + b", "0", "a"),
    "max": ("fabs(v)", "(a != a || a > b) ? a : b", "0", "a"),
    "min": ("fabs(v)", "(a != a || a < b) ? a : b", "(1.0 / 0.0)", "a"),
}
_ROW_WARPS = 16          # warps (rows) per block of the row kernel: 512 threads
_ROW_UNROLL = 8          # vectors in flight per lane
_COL_TX = 32             # lanes (vectors of adjacent columns) per block of the column kernel
_COL_RY = 16             # row groups per block
_COL_SPLITS = 8          # blocks sharing one column tile (8: 26.0 µs for 4096² float32 on an H100, 16: 27.5)
_COL_UNROLL = 4
_MIN_ELEMENTS = 1 << 20  # below this the engine's kernel is as fast and needs no scratch
_MIN_ROWS = 1024         # rows (warps) the row kernel needs to fill the GPU
_MIN_TILES = 8           # column tiles the column kernel needs (x _COL_SPLITS blocks)

_PRELUDE = r"""
typedef $VEC _nax_vec;   // 16 bytes: one 128-bit load
__device__ __forceinline__ $ACC _nax_map($ACC v) { return $MAP; }
__device__ __forceinline__ $ACC _nax_comb($ACC a, $ACC b) { return $COMB; }
__device__ __forceinline__ $ACC _nax_fin($ACC a) { return $FIN; }
"""

_ROW = r"""
extern "C" __global__ void $NAME(const $TYPE* __restrict__ x, $TYPE* __restrict__ out,
                                long long rows, long long nvec) {
  const long long row = (long long)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
  const int lane = threadIdx.x & 31;
  if (row >= rows) return;
  const _nax_vec* p = reinterpret_cast<const _nax_vec*>(x) + row * nvec;
  const int nv = (int)nvec;
  $ACC $ACCS;
  #pragma unroll $UNROLL
  for (int j = lane; j < nv; j += 32) {
    const _nax_vec w = __ldcs(p + j);
    $FOLD
  }
  $ACC a = $COMBINE_ALL;
  #pragma unroll
  for (int o = 16; o; o >>= 1) a = _nax_comb(a, __shfl_xor_sync(0xffffffffu, a, o));
  if (lane == 0) out[row] = ($TYPE)_nax_fin(a);
}
"""

_COL = r"""
extern "C" __global__ void $NAME(const $TYPE* __restrict__ x, $TYPE* __restrict__ out,
                                $ACC* __restrict__ part, unsigned* __restrict__ done,
                                long long rows, long long nvec) {
  __shared__ _nax_vec sm[$RY][$TX];
  __shared__ int last;
  const int lx = threadIdx.x, ly = threadIdx.y, splits = gridDim.y;
  const long long c = (long long)blockIdx.x * $TX + lx;        // this lane's vector column
  const long long per = (rows + splits - 1) / splits;
  const long long r0 = blockIdx.y * per, r1 = r0 + per < rows ? r0 + per : rows;
  _nax_vec* pv = reinterpret_cast<_nax_vec*>(part);
  $ACC $ACCS;
  if (c < nvec) {
    const _nax_vec* p = reinterpret_cast<const _nax_vec*>(x) + c;
    #pragma unroll $UNROLL
    for (long long r = r0 + ly; r < r1; r += $RY) {
      const _nax_vec w = __ldcs(p + r * nvec);
      $FOLD
    }
  }
  _nax_vec o;
  $PACK
  sm[ly][lx] = o;
  __syncthreads();
  if (ly == 0 && c < nvec) {
    for (int y = 1; y < $RY; ++y) {
      const _nax_vec u = sm[y][lx];
      $MERGE
    }
    $PACK
    pv[blockIdx.y * nvec + c] = o;
  }
  __threadfence();
  __syncthreads();
  if (lx == 0 && ly == 0) {
    const unsigned seen = atomicAdd(done + blockIdx.x, 1u);
    last = seen == (unsigned)(splits - 1);
    if (last) done[blockIdx.x] = 0;   // ready for the next call
  }
  __syncthreads();
  if (!last || ly != 0 || c >= nvec) return;
  __threadfence();
  // every split's partial, in split order, read from L2 (written by other blocks)
  $RESET
  #pragma unroll 8
  for (int s = 0; s < splits; ++s) {
    const _nax_vec u = __ldcg(pv + (long long)s * nvec + c);
    $MERGE
  }
  $FINISH
  reinterpret_cast<_nax_vec*>(out)[c] = o;
}
"""

_scratches = {}  # (device, stream, thread) -> (tile counters kept zero, partials buffer)
_KEEP_PARTIALS = 16 << 20


def applies(x, kind, axis):
    """Whether the norm of kind `kind` along `axis` (an int) of `x` runs here: enough rows
    for the row kernel to fill the GPU, enough column tiles for the column kernel."""
    if (kind not in _KINDS or x.dtype.char not in "fd" or not x._c_contig or x.ndim < 2
            or x.size < _MIN_ELEMENTS or x._ptr % 16):
        return False
    vw = 16 // x.dtype.itemsize
    if axis == x.ndim - 1:
        n = x._shape[-1]
        return n % vw == 0 and n >= 4 * vw and x.size // n >= _MIN_ROWS
    if axis == 0:
        inner = x.size // x._shape[0]
        return (inner % vw == 0 and inner // vw >= _MIN_TILES * _COL_TX
                and x._shape[0] >= _COL_SPLITS * _COL_RY)
    return False


def _source(layout, kind, dtype, name):
    mp, comb, ident, fin = _KINDS[kind]
    t = _dt.ctype(dtype)
    vw = 16 // dtype.itemsize
    body = _ROW if layout == "row" else _COL
    comps = "xyzw"[:vw]
    fields = dict(NAME=name, TYPE=t, ACC=t, VW=vw, MAP=mp, COMB=comb, IDENT=f"(({t}){ident})",
                  VEC="float4" if dtype.char == "f" else "double2",
                  ACCS=", ".join(f"a{k} = (({t}){ident})" for k in comps),
                  FOLD=" ".join(f"a{k} = _nax_comb(a{k}, _nax_map(w.{k}));" for k in comps),
                  COMBINE_ALL="_nax_comb(_nax_comb(ax, ay), _nax_comb(az, aw))" if vw == 4
                  else "_nax_comb(ax, ay)",
                  MERGE=" ".join(f"a{k} = _nax_comb(a{k}, u.{k});" for k in comps),
                  PACK=" ".join(f"o.{k} = a{k};" for k in comps),
                  RESET=" ".join(f"a{k} = (({t}){ident});" for k in comps),
                  FINISH=" ".join(f"o.{k} = ({t})_nax_fin(a{k});" for k in comps),
                  FIN=fin, UNROLL=_ROW_UNROLL if layout == "row" else _COL_UNROLL, TX=_COL_TX,
                  RY=_COL_RY)
    import string   # (at build time only: its regex is compiled at import)
    template = _PRELUDE + body
    used = string.Template(template).get_identifiers()   # the fields this layout names
    return "#include <cuarray/core.cuh>\n" + render(template, **{k: fields[k] for k in used})


def _kernel(layout, kind, dtype):
    name = f"cuarray_norm_{layout}_{kind}_{dtype.char}"
    return kernel((layout, kind, dtype.char, _ROW_WARPS, _ROW_UNROLL, _COL_TX, _COL_RY,
                   _COL_UNROLL), lambda: (
        _source(layout, kind, dtype, name), name,
        ["P", "P", "q", "q"] if layout == "row" else ["P", "P", "P", "P", "q", "q"]))


class Plan:
    """The launch of one norm (kind, axis) over one shape and dtype: a call allocates the
    result (and the column kernel's partials) and replays its LaunchPlan, nothing else."""

    __slots__ = ("launch", "out_shape", "dtype", "rows", "nvec", "col", "tiles", "part_bytes")

    def __init__(self, x, kind, axis, out_shape):
        self.dtype = x.dtype
        self.out_shape = out_shape
        vw = 16 // x.dtype.itemsize
        self.col = axis == 0
        fn, packer = _kernel("col" if self.col else "row", kind, x.dtype)
        if self.col:
            self.rows = x._shape[0]
            self.nvec = x.size // self.rows // vw
            self.tiles = (self.nvec + _COL_TX - 1) // _COL_TX
            self.part_bytes = _COL_SPLITS * self.nvec * vw * x.dtype.itemsize
            grid, block = (self.tiles, _COL_SPLITS, 1), (_COL_TX, _COL_RY, 1)
        else:
            self.rows = x.size // x._shape[-1]
            self.nvec = x._shape[-1] // vw
            grid, block = (self.rows + _ROW_WARPS - 1) // _ROW_WARPS, 32 * _ROW_WARPS
        self.launch = LaunchPlan(fn, packer, grid, block).launch

    def __call__(self, x):
        out = ndarray._alloc(self.out_shape, self.dtype, "C")
        if not self.col:
            self.launch([x._ptr, out._ptr, self.rows, self.nvec])
            return out
        done, part = _scratch(self.tiles, self.part_bytes, _stream.current_stream_ptr())
        self.launch([x._ptr, out._ptr, part._ptr, done._ptr, self.rows, self.nvec])
        return out


def _scratch(tiles, part_bytes, sp):
    """(zeroed tile counters, partials buffer) for a column launch on stream `sp`. The
    kernel leaves the counters zero, so they are cleared once and kept, one set per
    stream: launches on one stream run in order, so two never share them. Partials up to
    _KEEP_PARTIALS bytes are kept with them (an allocation per call costs more host time
    than the launch)."""
    if _graph.captures and sp in _graph.captures:
        # a graph keeps the addresses it captured: its own buffers, made in the capture
        done = ndarray._alloc((tiles,), numpy.dtype(numpy.uint32), "C")
        done.data.memset_async(0, done.nbytes)
        return done, ndarray._alloc((part_bytes,), numpy.dtype(numpy.uint8), "C")
    # the per-thread default stream (handle 2) is a different stream on each thread
    key = (get_device_id(), sp, threading.get_ident() if sp == 2 else 0)
    got = _scratches.get(key)
    kept = min(part_bytes, _KEEP_PARTIALS)
    if got is None or got[0].size < tiles or got[1].nbytes < kept:
        done = ndarray._alloc((max(tiles, 256),), numpy.dtype(numpy.uint32), "C")
        done.data.memset_async(0, done.nbytes)
        part = ndarray._alloc((max(kept, 1 << 16),), numpy.dtype(numpy.uint8), "C")
        if len(_scratches) >= 64:    # bounded: a dropped set is freed in stream order
            _scratches.clear()
        got = _scratches[key] = (done, part)
    if part_bytes > _KEEP_PARTIALS:
        return got[0], ndarray._alloc((part_bytes,), numpy.dtype(numpy.uint8), "C")
    return got
