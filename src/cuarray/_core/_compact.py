"""Boolean masks: stream compaction for `a[mask]`, `nonzero`, `argwhere`, `place` and
masked assignment.

A compaction is three kernels: `count` per tile of 4096 elements, a one-block exclusive
scan of the tile counts, then a write pass that ranks elements with warp ballots. The
selected count is read on the host once, to size the result; `place_flat` and `mask_fill`
need no host read.
"""
import numpy

from cuarray._core import dtypes as _dt
from cuarray._core._gather_scatter import _BLOCK, _RAW
from cuarray._core.shapes import collapse_dims
from cuarray._core.ndarray import ndarray
from cuarray._runtime.compiler import c_identifier, compile_module
from cuarray._runtime.device import ensure_context
from cuarray._runtime.launch import ArgPacker
from cuarray._runtime import stream as _stream

_I64 = numpy.dtype(numpy.int64)
_BOOL = numpy.dtype(numpy.bool_)

_STEPS = 16          # elements per thread per tile: a tile is 256 * 16 = 4096 elements
_TILE = _BLOCK * _STEPS
_SCAN_BLOCK = 1024
_compact_kernels = {}

_COMPACT_PRELUDE = r"""
#include <cuarray/core.cuh>
struct cu_b16 { unsigned long long lo, hi; };
#define CU_B 256
#define CU_S 16
#define CU_W 8
template <class T> __device__ __forceinline__ bool _cu_pred(const T& x) { return cuarray_nonzero(x); }
"""


def _mask_ctype(dt):
    # bool masks are read as bytes: any nonzero byte is True, as NumPy reads them
    return "unsigned char" if dt.kind == "b" else _dt.ctype(dt)


def compact_source(name, mctype, mode, nd, elem=None):
    """Count, scan and write kernels of the compaction.

    mode 'select': out[pos] = element e of a strided source; 'coords': the C-order
    coordinates of e go to out[d * _sd + pos * _sp]; 'place': the strided destination's
    element e = vals[pos % nv].
    """
    M = mctype
    count = (
        f'extern "C" __global__ void {name}_count(const {M}* __restrict__ _m, const long long _n,'
        " long long* __restrict__ _cnt) {\n"
        "  const long long base = (long long)blockIdx.x * (CU_B * CU_S);\n"
        "  int c = 0;\n"
        "  #pragma unroll\n"
        "  for (int k = 0; k < CU_S; ++k) { const long long e = base + k * CU_B + threadIdx.x;"
        " if (e < _n) c += _cu_pred(_m[e]); }\n"
        "  #pragma unroll\n"
        "  for (int o = 16; o > 0; o >>= 1) c += __shfl_down_sync(0xffffffffu, c, o);\n"
        "  __shared__ int s[CU_W];\n"
        "  if ((threadIdx.x & 31) == 0) s[threadIdx.x >> 5] = c;\n"
        "  __syncthreads();\n"
        "  if (threadIdx.x == 0) { int t = 0; for (int w = 0; w < CU_W; ++w) t += s[w]; _cnt[blockIdx.x] = t; }\n"
        "}\n")
    scan = (
        f'extern "C" __global__ void {name}_scan(long long* __restrict__ _cnt, const long long _nt) {{\n'
        "  __shared__ long long s[32];\n"
        "  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;\n"
        "  long long carry = 0;\n"
        f"  for (long long b = 0; b < _nt; b += {_SCAN_BLOCK}) {{\n"
        "    const long long i = b + threadIdx.x;\n"
        "    const long long v = i < _nt ? _cnt[i] : 0;\n"
        "    long long x = v;\n"
        "    #pragma unroll\n"
        "    for (int o = 1; o < 32; o <<= 1) { const long long y = __shfl_up_sync(0xffffffffu, x, o); if (lane >= o) x += y; }\n"
        "    if (lane == 31) s[w] = x;\n"
        "    __syncthreads();\n"
        "    if (w == 0) {\n"
        "      long long t = s[lane];\n"
        "      #pragma unroll\n"
        "      for (int o = 1; o < 32; o <<= 1) { const long long y = __shfl_up_sync(0xffffffffu, t, o); if (lane >= o) t += y; }\n"
        "      s[lane] = t;\n"
        "    }\n"
        "    __syncthreads();\n"
        "    if (i < _nt) _cnt[i] = carry + (w ? s[w - 1] : 0) + x - v;\n"
        "    carry += s[31];\n"
        "    __syncthreads();\n"
        "  }\n"
        "  if (threadIdx.x == 0) _cnt[_nt] = carry;\n"
        "}\n")
    if mode == "coords":
        params = "long long* __restrict__ _out, const long long _sd, const long long _sp" + \
            "".join(f", const long long _sh{d}" for d in range(nd))
        write = ["long long _r = e;"]
        for d in range(nd - 1, 0, -1):
            write.append(f"_out[{d} * _sd + pos * _sp] = _r % _sh{d}; _r /= _sh{d};")
        write.append("_out[pos * _sp] = _r;")
    else:
        strided = "".join(f", const long long _sh{d}, const long long _st{d}" for d in range(nd))
        addr = ["long long _r = e, _o = 0;"]
        for d in range(nd - 1, 0, -1):
            addr.append(f"_o += (_r % _sh{d}) * _st{d}; _r /= _sh{d};")
        addr.append("_o += _r * _st0;")
        if mode == "select":
            params = f"const char* __restrict__ _src, {elem}* __restrict__ _out" + strided
            write = addr + [f"_out[pos] = *(const {elem}*)(_src + _o);"]
        else:
            params = f"char* __restrict__ _dst, const {elem}* __restrict__ _vals, const long long _nv" + strided
            write = addr + [f"*({elem}*)(_dst + _o) = _vals[pos % _nv];"]
    body = " ".join(write)
    wr = (
        f'extern "C" __global__ void {name}_write(const {M}* __restrict__ _m, const long long _n,'
        f" const long long* __restrict__ _offs, {params}) {{\n"
        "  __shared__ int s[CU_S * CU_W];\n"
        "  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;\n"
        "  const long long base = (long long)blockIdx.x * (CU_B * CU_S);\n"
        "  unsigned bal[CU_S];\n"
        "  #pragma unroll\n"
        "  for (int k = 0; k < CU_S; ++k) {\n"
        "    const long long e = base + k * CU_B + threadIdx.x;\n"
        "    bal[k] = __ballot_sync(0xffffffffu, e < _n && _cu_pred(_m[e]));\n"
        "    if (lane == 0) s[k * CU_W + w] = __popc(bal[k]);\n"
        "  }\n"
        "  __syncthreads();\n"
        "  if (w == 0) {  // exclusive scan of the 128 (step, warp) counts, 4 per lane, in element order\n"
        "    const int v0 = s[4 * lane], v1 = s[4 * lane + 1], v2 = s[4 * lane + 2], v3 = s[4 * lane + 3];\n"
        "    const int t = v0 + v1 + v2 + v3;\n"
        "    int x = t;\n"
        "    #pragma unroll\n"
        "    for (int o = 1; o < 32; o <<= 1) { const int y = __shfl_up_sync(0xffffffffu, x, o); if (lane >= o) x += y; }\n"
        "    const int ex = x - t;\n"
        "    s[4 * lane] = ex; s[4 * lane + 1] = ex + v0; s[4 * lane + 2] = ex + v0 + v1; s[4 * lane + 3] = ex + v0 + v1 + v2;\n"
        "  }\n"
        "  __syncthreads();\n"
        "  const long long t0 = _offs[blockIdx.x];\n"
        "  const unsigned lt = (1u << lane) - 1u;\n"
        "  #pragma unroll\n"
        "  for (int k = 0; k < CU_S; ++k) {\n"
        "    if ((bal[k] >> lane) & 1u) {\n"
        "      const long long e = base + k * CU_B + threadIdx.x;\n"
        "      const long long pos = t0 + s[k * CU_W + w] + __popc(bal[k] & lt);\n"
        f"      {body}\n"
        "    }\n"
        "  }\n"
        "}\n")
    return "\n".join([_COMPACT_PRELUDE, count, scan, wr])


def _compact_fns(mdt, mode, nd, it):
    key = (mdt.char, mode, nd, it)
    fns = _compact_kernels.get(key)
    if fns is None:
        name = c_identifier(f"cuarray_compact_{mdt.char}_{mode}_{nd}_{it}")
        src = compact_source(name, _mask_ctype(mdt), mode, nd, _RAW.get(it))
        mod = compile_module(src, (), name=name)
        if mode == "coords":
            wk = ["P", "q", "P", "P", "q", "q"] + ["q"] * nd
        elif mode == "select":
            wk = ["P", "q", "P", "P", "P"] + ["q"] * (2 * nd)
        else:
            wk = ["P", "q", "P", "P", "P", "q"] + ["q"] * (2 * nd)
        fns = _compact_kernels[key] = (
            (mod.get_function(name + "_count"), ArgPacker(["P", "q", "P"])),
            (mod.get_function(name + "_scan"), ArgPacker(["P", "q"])),
            (mod.get_function(name + "_write"), ArgPacker(wk)))
    return fns


def _c_mask(m):
    if not m._c_contig:
        m = m.copy()
    return m


def _tiles(m, fns):
    """Launch count + scan; returns (tile offsets array with the total last, tile count)."""
    n = m.size
    nt = (n + _TILE - 1) // _TILE
    offs = ndarray._alloc((nt + 1,), _I64)
    sp = _stream.current_stream_ptr()
    (cfn, cpk), (sfn, spk), _ = fns
    cfn.launch((nt, 1, 1), (_BLOCK, 1, 1), cpk.pack([m._ptr, n, offs._ptr]), 0, sp)
    sfn.launch((1, 1, 1), (_SCAN_BLOCK, 1, 1), spk.pack([offs._ptr, nt]), 0, sp)
    return offs, nt


def _total(offs, nt):
    return int(offs[nt:nt + 1].get()[0])   # the one host read: it sizes the result


def _strided(a):
    """(sizes, strides) of `a` with C-order neighbours merged, for strided addressing."""
    sizes, (st,) = collapse_dims(list(a._shape), [list(a._strides)])
    if not sizes:
        return (1,), (0,)
    return sizes, st


def count_true(mask):
    """Number of nonzero elements of a device array (synchronises)."""
    ensure_context()
    if mask.size == 0:
        return 0
    m = _c_mask(mask)
    fns = _compact_fns(m.dtype, "coords", 1, 0)
    offs, nt = _tiles(m, fns)
    return _total(offs, nt)


def compress_flat(mask, src):
    """src[mask] for a mask of src's shape: the selected elements in C order (1-D).
    Reads the selected count on the host (synchronises)."""
    ensure_context()
    if mask.size != src.size:
        raise ValueError(f"mask of size {mask.size} does not match the array of size {src.size}")
    if mask.size == 0:
        return ndarray._alloc((0,), src.dtype)
    m = _c_mask(mask)
    sizes, st = _strided(src)
    nd, it = len(sizes), src.dtype.itemsize
    fns = _compact_fns(m.dtype, "select", nd, it)
    offs, nt = _tiles(m, fns)
    total = _total(offs, nt)
    out = ndarray._alloc((total,), src.dtype)
    if total:
        vals = [m._ptr, m.size, offs._ptr, src._ptr, out._ptr]
        for n, s in zip(sizes, st):
            vals += [n, s]
        wfn, wpk = fns[2]
        wfn.launch((nt, 1, 1), (_BLOCK, 1, 1), wpk.pack(vals), 0, _stream.current_stream_ptr())
    return out


def nonzero_coords(a, rows_first=True):
    """Coordinates of a's nonzero elements in C order as one int64 array: (ndim, count) when
    rows_first (nonzero), else (count, ndim) (argwhere). Synchronises once for the count."""
    ensure_context()
    nd = max(a.ndim, 1)
    shape = a._shape or (1,)
    if a.size == 0:
        return ndarray._alloc((nd, 0) if rows_first else (0, nd), _I64)
    m = _c_mask(a)
    fns = _compact_fns(m.dtype, "coords", nd, 0)
    offs, nt = _tiles(m, fns)
    total = _total(offs, nt)
    out = ndarray._alloc((nd, total) if rows_first else (total, nd), _I64)
    if total:
        sd, sp = (total, 1) if rows_first else (1, nd)
        vals = [m._ptr, m.size, offs._ptr, out._ptr, sd, sp] + list(shape)
        wfn, wpk = fns[2]
        wfn.launch((nt, 1, 1), (_BLOCK, 1, 1), wpk.pack(vals), 0, _stream.current_stream_ptr())
    return out


def nonzero(a):
    """Indices of the nonzero elements, one int64 array per axis (rows of one buffer)."""
    c = nonzero_coords(a)
    return tuple(c[d] for d in range(c.shape[0]))


def place_flat(dst, mask, vals, total=None):
    """dst.flat[i] = vals[k % vals.size] for the k-th True element i of mask (C order);
    `vals` a 1-D device array of dst's dtype. No host read."""
    ensure_context()
    if mask.size == 0 or vals.size == 0:
        return
    m = _c_mask(mask)
    v = vals if vals._c_contig else vals.copy()
    if v._mem is dst._mem:
        v = v.copy()
    sizes, st = _strided(dst)
    nd, it = len(sizes), dst.dtype.itemsize
    fns = _compact_fns(m.dtype, "place", nd, it)
    offs, nt = _tiles(m, fns)
    args = [m._ptr, m.size, offs._ptr, dst._ptr, v._ptr, v.size]
    for n, s in zip(sizes, st):
        args += [n, s]
    wfn, wpk = fns[2]
    wfn.launch((nt, 1, 1), (_BLOCK, 1, 1), wpk.pack(args), 0, _stream.current_stream_ptr())


_mask_ops = {}


def mask_fill(a, mask, v):
    """a[mask] = v for a mask of a's shape and a scalar or one-element value: one
    elementwise pass, no host read."""
    from cuarray._core.elementwise import Op, Param
    role = "in" if isinstance(v, ndarray) else "scalar"
    key = (a.dtype.char, role)
    op = _mask_ops.get(key)
    if op is None:
        op = _mask_ops[key] = Op(f"cuarray_mask_fill_{a.dtype.char}_{role}",
                                 [Param("m", "in", _BOOL), Param("v", role, a.dtype),
                                  Param("x", "out", a.dtype)], "x = v;", guard="m")
    if a.size:
        op.launch((mask if mask.dtype == _BOOL else mask.astype(_BOOL), v, a))
