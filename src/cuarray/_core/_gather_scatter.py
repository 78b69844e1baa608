"""The gather / scatter kernel of advanced indexing, and its bounds checks.

One generated kernel walks the planned result (`_index_plan.IndexPlan`) in C order: the
gather (getitem, take) moves raw bytes, the scatter (setitem, `ufunc.at`) writes raw bytes
or runs a statement on each addressed element. Out-of-bounds indices wrap, as CuPy's do;
`CUARRAY_CHECK_BOUNDS=1` makes them raise NumPy's IndexError instead (one device check and
one host read).
"""
import os

import numpy

from cuarray._core import dtypes as _dt
from cuarray._core import shapes as _sh
from cuarray._core._index_plan import value_strides
from cuarray._core.shapes import collapse_dims
from cuarray._core.ndarray import ndarray
from cuarray._runtime.compiler import c_identifier, compile_module
from cuarray._runtime.device import ensure_context, get_device_id
from cuarray._runtime.launch import ArgPacker, LaunchPlan
from cuarray._runtime import stream as _stream

_I64 = numpy.dtype(numpy.int64)
# 32-bit indexing below this many elements/bytes; the margin covers the grid-stride step.
_I32_LIMIT = 2**31 - 2**24
_BLOCK = 256
_UNROLL = 4


def check_bounds_enabled():
    """True when CUARRAY_CHECK_BOUNDS asks out-of-bounds indices to raise (read per call)."""
    v = os.environ.get("CUARRAY_CHECK_BOUNDS")
    return bool(v) and v not in ("0", "false", "False")


# ---- bounds ---------------------------------------------------------------------------------

_flag_ops = {}


def first_out_of_range(x, lo, hi):
    """One value of integer array `x` outside [lo, hi), or None; one device pass and one
    host read (synchronises)."""
    if x.size == 0:
        return None
    from cuarray._core.elementwise import Op, Param
    op = _flag_ops.get(0)
    if op is None:
        op = _flag_ops[0] = Op(
            "cuarray_index_range_check",
            [Param("x", "in", _I64), Param("flag", "raw", _I64), Param("lo", "scalar", _I64),
             Param("hi", "scalar", _I64)],
            "if (x < lo || x >= hi) { if (atomicCAS((unsigned long long*)flag.data_, 0ull, 1ull) == 0ull)"
            " flag.data_[1] = x; }")
    flag = ndarray._alloc((2,), _I64)
    flag.data.memset_async(0, 16)
    op.launch((x, flag, numpy.int64(lo), numpy.int64(hi)))
    found, v = flag.get().tolist()
    return v if found else None


def _check_arrays(plan, entries):
    for pos, n, _, axis in plan.arrays:
        bad = first_out_of_range(entries[pos], -n, n)
        if bad is not None:
            raise IndexError(f"index {bad} is out of bounds for axis {axis} with size {n}")


def _check_empty_axes(plan, entries):
    """Indices into an empty axis cannot wrap: NumPy's IndexError, naming the first one."""
    for pos, n, _, axis in plan.arrays:
        x = entries[pos]
        if n == 0 and x.size:
            v = int(x.reshape(-1)[0:1].get()[0])
            raise IndexError(f"index {v} is out of bounds for axis {axis} with size 0")


# ---- the gather / scatter kernel ------------------------------------------------------------

_RAW = {1: "unsigned char", 2: "unsigned short", 4: "unsigned int", 8: "unsigned long long",
        16: "cu_b16"}
_RAW_KIND = {1: "B", 2: "H", 4: "I", 8: "Q", 16: ("s", 16, 8)}
_PRELUDE = r"""
#include <cuarray/core.cuh>
struct cu_b16 { unsigned long long lo, hi; };
template<typename T, int N> struct __align__(sizeof(T) * N) _cu_vec { T v[N]; };
"""
_kernels = {}


def gs_source(name, kind, nd, idx_ctypes, idx64, mode, elem, value=None, stmt="",
              preamble="", block=_BLOCK, unroll=_UNROLL, update="plain", shared=None):
    """CUDA source and ArgPacker kinds of a gather or scatter kernel.

    kind 'gather': out[i] = element at the addressed place (type `elem`, raw bytes).
    kind 'scatter': `stmt` runs with `_p` (char*, the addressed element) and, when `value`
    is ('array', ctype) or ('scalar', ctype, packer kind), `_v` (the value for result
    element i). mode: 'wrap' or 'clip' for out-of-range indices.
    update (scatter only): 'plain' runs each element's loads and statement in turn;
    'prefetch' loads the addresses and values of a thread's `unroll` elements first, then
    runs the statements (more loads in flight ahead of the atomics); 'aggregate' also
    sums the values of lanes of a warp that address the same element, so one lane updates
    it for all (for `_v` summed into `_p` by `stmt`: ufunc.add.at with repeated indices);
    'vector' (see `_vector_scatter`; `unroll` elements per thread) needs the caller to
    have checked `_vector_fits`; with `shared` (bytes, statement adding `_v` to `_p`) it
    accumulates into a block-private copy of the addressed elements first.
    """
    I = "long long" if idx64 else "int"
    ik = "q" if idx64 else "i"
    if update == "vector" and (nd != 1 or len(idx_ctypes) != 1 or not value):
        update = "aggregate"   # the vector loop is for one 1-D index array and a value
    sig, kinds = [], []
    gather = kind == "gather"
    sig.append(("const char* __restrict__ _base" if gather else "char* __restrict__ _base"))
    kinds.append("P")
    if gather:
        sig.append(f"{elem}* __restrict__ _out")
        kinds.append("P")
    vmode = value[0] if value else None
    if vmode == "array":
        sig.append("const char* __restrict__ _val" + "".join(f", const {I} _vs{d}" for d in range(nd)))
        kinds += ["P"] + [ik] * nd
    elif vmode == "scalar":
        sig.append(f"const {value[1]} _val")
        kinds.append(value[2])
    for k, ct in enumerate(idx_ctypes):
        sig.append(f"const char* __restrict__ _x{k}, const long long _n{k}, const {I} _a{k}" +
                   "".join(f", const {I} _xs{k}_{d}" for d in range(nd)))
        kinds += ["P", "q", ik] + [ik] * nd
    sig += [f"const {I} _sh{d}" for d in range(nd)] + [f"const {I} _ss{d}" for d in range(nd)]
    kinds += [ik] * (2 * nd)
    sig.append(f"const {I} _N")
    kinds.append(ik)

    nk = len(idx_ctypes)
    off = [f"{I} _r = i, _o = 0;" + (f" {I} _ov = 0;" if vmode == "array" else "") +
           "".join(f" {I} _o{k} = 0;" for k in range(nk)) + " (void)_r;"]
    for d in range(nd - 1, -1, -1):
        terms = [f"_o += _c * _ss{d};"] + ([f"_ov += _c * _vs{d};"] if vmode == "array" else []) + \
                [f"_o{k} += _c * _xs{k}_{d};" for k in range(nk)]
        if d:
            off.append(f"{{ const {I} _c = _r % _sh{d}; _r /= _sh{d}; {' '.join(terms)} }}")
        else:
            off.append(f"{{ const {I} _c = _r; {' '.join(terms)} }}")
    fix = "_j %= _n{k}; if (_j < 0) _j += _n{k};" if mode == "wrap" else "_j = _j < 0 ? 0 : _n{k} - 1;"
    for k, ct in enumerate(idx_ctypes):
        off.append(f"{{ long long _j = (long long)*(const {ct}*)(_x{k} + _o{k}); "
                   f"if ((unsigned long long)_j >= (unsigned long long)_n{k}) {{ {fix.format(k=k)} }} "
                   f"_o += ({I})_j * _a{k}; }}")
    offset_code = " ".join(off)
    step = block * unroll
    lines = [_PRELUDE, preamble,
             f'extern "C" __global__ void {name}({", ".join(sig)}) {{']
    if update == "vector":
        lines += _vector_scatter(I, idx_ctypes[0], value, stmt, block, unroll, fix.format(k=0), shared)
        return "\n".join(lines + ["}"]), kinds
    if update == "aggregate":
        # every lane runs every iteration (warp-wide shuffles need the whole warp)
        lines += [f"  for ({I} _b0 = ({I})blockIdx.x * {step}; _b0 < _N; _b0 += ({I})gridDim.x * {step}) {{",
                  f"    const {I} _b = _b0 + threadIdx.x;"]
    else:
        lines.append(f"  for ({I} _b = ({I})blockIdx.x * {step} + threadIdx.x; _b < _N;"
                     f" _b += ({I})gridDim.x * {step}) {{")
    if gather:
        lines += [
            f"    {I} _off[{unroll}];",
            "    #pragma unroll",
            f"    for (int _u = 0; _u < {unroll}; ++_u) {{ const {I} i = _b + _u * {block}; _off[_u] = 0;"
            f" if (i < _N) {{ {offset_code} _off[_u] = _o; }} }}",
            f"    {elem} _e[{unroll}];",
            "    #pragma unroll",
            f"    for (int _u = 0; _u < {unroll}; ++_u) {{ if (_b + _u * {block} < _N)"
            f" _e[_u] = *(const {elem}*)(_base + _off[_u]); }}",
            "    #pragma unroll",
            f"    for (int _u = 0; _u < {unroll}; ++_u) {{ const {I} i = _b + _u * {block};"
            f" if (i < _N) _out[i] = _e[_u]; }}",
        ]
    else:
        if vmode == "array":
            vload = f"const {value[1]} _v = *(const {value[1]}*)(_val + _ov);"
        elif vmode == "scalar":
            vload = f"const {value[1]} _v = _val;"
        else:
            vload = ""
        if update == "plain":
            lines += [
                "    #pragma unroll",
                f"    for (int _u = 0; _u < {unroll}; ++_u) {{ const {I} i = _b + _u * {block};"
                f" if (i < _N) {{ {offset_code} char* _p = _base + _o; {vload} {stmt} }} }}",
            ]
        else:
            vt = value[1] if vmode else None
            keep = f" _vv[_u] = _v;" if vt else ""
            lines += [
                f"    char* _pp[{unroll}];" + (f" {vt} _vv[{unroll}];" if vt else ""),
                "    #pragma unroll",
                f"    for (int _u = 0; _u < {unroll}; ++_u) {{ const {I} i = _b + _u * {block}; _pp[_u] = 0;"
                f" if (i < _N) {{ {offset_code} _pp[_u] = _base + _o; {vload}{keep} }} }}",
                "    #pragma unroll",
                f"    for (int _u = 0; _u < {unroll}; ++_u) {{",
                f"      const {I} i = _b + _u * {block}; char* _p = _pp[_u];" + (f" {vt} _v = _vv[_u];" if vt else ""),
            ]
            if update == "aggregate":
                lines += _aggregate(vt)
            lines += [f"      if (i < _N) {{ {stmt} }}", "    }"]
    lines += ["  }", "}"]
    return "\n".join(lines), kinds


def _vector_scatter(I, ict, value, stmt, block, E, fix, shared=None):
    """The loop of update 'vector' (one contiguous 1-D index array, the value contiguous or
    a scalar, both aligned to E elements): a thread owns E consecutive elements, loads
    their indices and values as vectors, and merges runs of one address in registers
    before its atomics (sorted or clustered indices: E times fewer atomics), with fewer
    load and address instructions per element than the per-element loop.

    shared: (bytes, flush statement, unsigned C type of the element's bits, identity bits)
    when every addressed element lies in the first `bytes` from `_base` (a few hundred
    bins): the atomics go to the block's copy in shared memory, and the block adds its
    copy to the array once at the end (`flush` adds `_v` at `_p`), skipping elements it
    left at the identity; global atomics on a few addresses serialise in L2. The identity
    of a float sum is -0.0 (x + -0.0 is x for every x, -0.0 included), of an integer 0."""
    vmode = value[0] if value else None
    vt = value[1] if vmode else None
    out = []
    target = "_base + (_b + _u) * _ss0"
    if shared:
        size, flush, U, ident = shared
        out += [f"  __shared__ __align__(16) char _sm[{size}];",
                f"  for (int _k = threadIdx.x; _k < {size} / (int)sizeof({U}); _k += {block})"
                f" (({U}*)_sm)[_k] = ({U}){ident}ull;",
                "  __syncthreads();"]
        target = "_sm"
    out += [f"  const {I} _G = (_N + {E - 1}) / {E};",
           f"  for ({I} _g = ({I})blockIdx.x * {block} + threadIdx.x; _g < _G;"
           f" _g += ({I})gridDim.x * {block}) {{",
           f"    const {I} _b = _g * {E};",
           f"    long long _jj[{E}]; char* _pp[{E}];" + (f" {vt} _vv[{E}];" if vt else ""),
           f"    if (_b + {E} <= _N) {{",
           f"      const _cu_vec<{ict}, {E}> _xw = *(const _cu_vec<{ict}, {E}>*)(_x0 + _b * ({I})sizeof({ict}));",
           "      #pragma unroll",
           f"      for (int _u = 0; _u < {E}; ++_u) _jj[_u] = (long long)_xw.v[_u];"]
    if vmode == "array":
        out += [f"      const _cu_vec<{vt}, {E}> _vw = *(const _cu_vec<{vt}, {E}>*)(_val + _b * ({I})sizeof({vt}));",
                "      #pragma unroll",
                f"      for (int _u = 0; _u < {E}; ++_u) _vv[_u] = _vw.v[_u];"]
    out += ["    } else {",
            "      #pragma unroll",
            f"      for (int _u = 0; _u < {E}; ++_u) {{ const bool _in = _b + _u < _N;"
            f" _jj[_u] = _in ? (long long)((const {ict}*)_x0)[_b + _u] : 0;"
            + (f" _vv[_u] = _in ? ((const {vt}*)_val)[_b + _u] : ({vt})0;" if vmode == "array" else "")
            + " }",
            "    }",
            "    #pragma unroll",
            f"    for (int _u = 0; _u < {E}; ++_u) {{ long long _j0 = _jj[_u];",
            f"      if ((unsigned long long)_j0 >= (unsigned long long)_n0) {{ long long _j = _j0; {fix} _j0 = _j; }}",
            f"      _pp[_u] = _b + _u < _N ? {target} + ({I})_j0 * _a0 : 0;"
            + (" _vv[_u] = _val;" if vmode == "scalar" else "") + " }",
            "    #pragma unroll",
            f"    for (int _u = 1; _u < {E}; ++_u)   // a run of one address: its last element adds the run",
            "      if (_pp[_u] == _pp[_u - 1]) { " + (f"_vv[_u] += _vv[_u - 1]; " if vt else "")
            + "_pp[_u - 1] = 0; }",
            "    #pragma unroll",
            f"    for (int _u = 0; _u < {E}; ++_u) {{ char* _p = _pp[_u];"
            + (f" const {vt} _v = _vv[_u];" if vt else "") + f" if (_p) {{ {stmt} }} }}",
            "  }"]
    if shared:
        out += ["  __syncthreads();",
                f"  for (int _k = threadIdx.x; _k < _n0; _k += {block}) {{",
                f"    if (*(const {U}*)(_sm + _k * _a0) == ({U}){ident}ull) continue;",
                f"    char* _p = _base + ({I})_k * _a0; const {vt} _v = *(const {vt}*)(_sm + _k * _a0);"
                f" {flush} }}"]
    return out


def _aggregate(vt):
    """Lanes whose elements share an address: the lowest sums the others' `_v` and keeps
    its element, the others drop theirs. Only when two neighbouring lanes share one (a
    shuffle and a vote): random indices rarely repeat within a warp and skip the match."""
    full = "0xffffffffu"
    return [
        "      { const unsigned _lane = threadIdx.x & 31u;",
        "        const unsigned long long _key = i < _N ? (unsigned long long)_p : ~(unsigned long long)_lane;",
        f"        const unsigned long long _prev = __shfl_up_sync({full}, _key, 1);",
        f"        if (__any_sync({full}, _lane != 0u && _prev == _key)) {{",
        f"          const unsigned _peers = __match_any_sync({full}, _key);",
        f"          {vt} _acc = _v;",
        "          #pragma unroll",
        "          for (int _l = 0; _l < 32; ++_l) {",
        f"            const {vt} _t = __shfl_sync({full}, _v, _l);",
        "            if (_l != (int)_lane && ((_peers >> _l) & 1u)) _acc += _t;",
        "          }",
        "          _v = _acc;",
        "          if ((unsigned)(__ffs(_peers) - 1) != _lane) _p = 0;   // a peer updates for us",
        "        } }",
        "      if (!_p) continue;",
    ]


def _extent(sizes, strides):
    return sum((n - 1) * abs(s) for n, s in zip(sizes, strides))


def _layout(plan, entries, vstrides=None):
    """Collapsed (sizes, src strides, value strides or None, per-array strides) and the
    index width needed."""
    arrs = [entries[pos] for pos, _, _, _ in plan.arrays]
    lists = [[s for _, s, _ in plan.dims]]
    for x in arrs:
        bst = _sh.broadcast_strides(x._shape, x._strides, plan.bshape)
        lists.append([0 if b < 0 else bst[b] for _, _, b in plan.dims])
    if vstrides is not None:
        lists.append(list(vstrides))
    sizes, cl = collapse_dims([n for n, _, _ in plan.dims], lists)
    n = _sh.prod(plan.shape)
    reach = _extent(sizes, cl[0]) + sum(abs(st) * max(m - 1, 0) for _, m, st, _ in plan.arrays)
    big = n >= _I32_LIMIT or reach >= _I32_LIMIT or any(_extent(sizes, s) >= _I32_LIMIT for s in cl)
    src = cl[0]
    ast = cl[1:1 + len(arrs)]
    vst = cl[-1] if vstrides is not None else None
    return sizes, src, vst, arrs, ast, big


def _launch(key, build, vals, n, block=_BLOCK, unroll=_UNROLL, grid=None):
    entry = _kernels.get(key)
    if entry is None:
        src, kinds = build()
        name = key[0]
        fn = compile_module(src, (), name=name).get_function(name)
        entry = _kernels[key] = (fn, ArgPacker(kinds))
    fn, packer = entry
    if grid is None:
        from cuarray._core.elementwise import _grid_cap
        grid = min((n + block * unroll - 1) // (block * unroll), _grid_cap())
    fn.launch((grid, 1, 1), (block, 1, 1), packer.pack(vals), 0, _stream.current_stream_ptr())
    return grid


def _array_vals(vals, arrs, plan, ast):
    for x, (_, n, st, _), xs in zip(arrs, plan.arrays, ast):
        vals += [x._ptr, n, st]
        vals.extend(xs)


class FastGather:
    """`a[idx]` for one integer index array, replayed for the same layouts: the LaunchPlan of
    the general path's launch with only the three pointers filled in per call (getitem's
    warm path; the general path costs tens of microseconds of Python per call)."""

    __slots__ = ("plan", "shape", "dtype", "offset")

    def __init__(self, fn, packer, vals, grid, shape, dtype, offset):
        self.plan = LaunchPlan(fn, packer, grid, _BLOCK, vals=vals, slots=(0, 1, 2))
        self.shape, self.dtype, self.offset = shape, dtype, offset

    def run(self, a, idx):
        # a's own dtype: datetimes of different units share a dtype char, and so a key
        res = ndarray._alloc(self.shape, a.dtype)
        self.plan.launch((a._ptr + self.offset, res._ptr, idx._ptr))
        return res


def gather(a, plan, entries, mode="wrap", out=None, check=True, record=None):
    """The planned `a[key]` as a new C-contiguous array (or written into `out`, a
    C-contiguous array of the result's shape and a's dtype). check: raise for
    out-of-bounds indices when CUARRAY_CHECK_BOUNDS is on (mode 'wrap' only).
    record: a callable given the FastGather that repeats this launch, when the key is one
    index array and the result is not empty."""
    ensure_context()
    if check and mode == "wrap" and check_bounds_enabled():
        _check_arrays(plan, entries)
    _check_empty_axes(plan, entries)
    res = ndarray._alloc(plan.shape, a.dtype) if out is None else out
    if res.size == 0:
        return res
    sizes, src, _, arrs, ast, big = _layout(plan, entries)
    nd = len(sizes)
    it = a.dtype.itemsize
    ctypes_ = tuple(_dt.ctype(x.dtype) for x in arrs)
    key = (c_identifier(f"cuarray_gather_{it}_{nd}_{''.join(x.dtype.char for x in arrs)}_{mode}_"
                        f"{int(big)}"),)
    vals = [a._ptr + plan.offset, res._ptr]
    _array_vals(vals, arrs, plan, ast)
    vals += list(sizes) + list(src) + [res.size]
    grid = _launch(key, lambda: gs_source(key[0], "gather", nd, ctypes_, big, mode, _RAW[it]), vals,
                   res.size)
    if record is not None and len(arrs) == 1 and out is None:
        fn, packer = _kernels[key]
        record(FastGather(fn, packer, vals, grid, res._shape, res.dtype, plan.offset))
    return res


_VECTOR = 8   # elements a thread owns in update 'vector'


def _vector_fits(nd, arrs, ast, vmode, v, vst):
    """Whether update 'vector' applies: one contiguous 1-D index array and a contiguous
    value array (or a scalar), both aligned to a thread's vector of elements."""
    if nd != 1 or len(arrs) != 1 or vmode is None:
        return False
    x = arrs[0]
    it = x.dtype.itemsize
    if ast[0][0] != it or x._ptr % (it * _VECTOR):
        return False
    if vmode == "array":
        w = v.dtype.itemsize
        return vst[0] == w and v._ptr % (w * _VECTOR) == 0
    return True


_SHARED_MAX = 16384   # bytes of a block's private copy of the target (update 'vector')


def _shared_bytes(plan, src):
    """Shared-memory bytes (a power of two from 1 KiB) covering every element a 1-D
    index addresses, or None: the indexed axis' stride positive and the covered span at
    most _SHARED_MAX."""
    (_, m, st, _), = plan.arrays
    span = m * st
    if src[0] != 0 or st <= 0 or span > _SHARED_MAX:
        return None
    size = 1024
    while size < span:
        size *= 2
    return size


class FastScatter:
    """A scatter into `a` through one integer index array with an array value (or none),
    replayed for the same layouts: the LaunchPlan of the general path's launch with only
    the pointers filled in per call (`a[idx] = v` and `ufunc.at`'s warm paths; the general
    path costs tens of microseconds of Python per call)."""

    __slots__ = ("plan", "offset", "has_value")

    def __init__(self, fn, packer, vals, grid, block, slots, offset):
        self.plan = LaunchPlan(fn, packer, grid, block, vals=vals, slots=slots)
        self.offset = offset
        self.has_value = len(slots) == 3

    def run(self, a, idx, v=None):
        if self.has_value:
            self.plan.launch((a._ptr + self.offset, v._ptr, idx._ptr))
        else:
            self.plan.launch((a._ptr + self.offset, idx._ptr))


def scatter_key(a, idx, v=None):
    """What a FastScatter's replay depends on in its operands: the current device, the
    dtypes and layouts of `a`, the index array `idx` and the value `v` (None: no value),
    and the alignment of idx and v (the vector update needs it)."""
    key = (get_device_id(), a.dtype, a._shape, a._strides, a._device_id, idx._shape,
           idx._strides, idx.dtype, idx._device_id, idx._ptr & 127)
    if v is not None:
        key += (v.dtype, v._shape, v._strides, v._device_id, v._ptr & 127)
    return key


def scatter_kernel(a, plan, entries, value, tag, stmt="*({T}*)_p = _v;", preamble="",
                   elem=None, vdtype=None, serial=False, mode="wrap", check=True, update="plain",
                   flush=None, record=None):
    """Run `stmt` on every element of `a` addressed by the plan.

    value: None, ('scalar', numpy scalar) or ('array', device array broadcastable to the
    result). `elem`: C type for `{T}` (default: raw bytes of a's itemsize); `vdtype`: the
    value's dtype as the kernel reads it (default: raw bytes). serial: one thread, in order.
    update: how a thread runs its elements (see gs_source; serial: always 'plain').
    flush: for update 'vector' whose `stmt` accumulates `_v` atomically, the statement
    adding `_v` at `_p`; with it a small enough target accumulates in shared memory first.
    record: a callable given the FastScatter that repeats this launch, when the key is one
    index array and the value an array (used as it is) or absent.
    """
    ensure_context()
    if check and mode == "wrap" and check_bounds_enabled():
        _check_arrays(plan, entries)
    _check_empty_axes(plan, entries)
    n = _sh.prod(plan.shape)
    if n == 0:
        return
    it = a.dtype.itemsize
    elem = elem or _RAW[it]
    vmode = value[0] if value else None
    vstrides = None
    if vmode == "array":
        v = value[1]
        if v._mem is a._mem:
            v = v.copy()   # the value must not change while it is written (a[i] = a[::-1])
        vstrides = value_strides(v._shape, v._strides, plan.shape)
    sizes, src, vst, arrs, ast, big = _layout(plan, entries, vstrides)
    nd = len(sizes)
    ctypes_ = tuple(_dt.ctype(x.dtype) for x in arrs)
    vals = [a._ptr + plan.offset]
    if vmode == "array":
        vc = _dt.ctype(vdtype) if vdtype is not None else _RAW[v.dtype.itemsize]
        vspec = ("array", vc)
        vals.append(v._ptr)
        vals.extend(vst)
    elif vmode == "scalar":
        s = value[1]
        if vdtype is not None:
            from cuarray._core.elementwise import _SCALAR_KIND, _append_scalar
            vspec = ("scalar", _dt.ctype(vdtype), _SCALAR_KIND[vdtype.char])
            _append_scalar(vals, s)
        else:
            w = s.dtype.itemsize
            vspec = ("scalar", _RAW[w], _RAW_KIND[w])
            b = s.tobytes()
            vals.append(b if w == 16 else int.from_bytes(b, "little"))
    else:
        vspec = None
    ipos = len(vals)   # where the index array's pointer goes
    _array_vals(vals, arrs, plan, ast)
    vals += list(sizes) + list(src) + [n]
    stmt = stmt.replace("{T}", elem)
    block, unroll = (1, 1) if serial else (_BLOCK, _UNROLL)
    if serial:
        update = "plain"
    shared = None
    grid = None
    if update == "vector":
        if _vector_fits(nd, arrs, ast, vmode, v if vmode == "array" else None, vst):
            unroll = _VECTOR
            size = _shared_bytes(plan, src) if flush else None
            if size:
                from cuarray._core.elementwise import _sm_count
                w = vdtype.itemsize
                shared = (size, flush, _RAW[w], 1 << (8 * w - 1) if vdtype.kind == "f" else 0)
                # each block flushes its whole copy: enough blocks to fill the GPU, no more
                grid = min((n + block * unroll - 1) // (block * unroll), 8 * _sm_count())
        else:
            update = "aggregate"
    key = (c_identifier(f"cuarray_scatter_{tag}_{it}_{nd}_{''.join(x.dtype.char for x in arrs)}_"
                        f"{vmode or 'none'}{vspec[1] if vspec else ''}_{mode}_{int(big)}"
                        f"{'_serial' if serial else ''}{'' if update == 'plain' else '_' + update}"
                        f"{'_sm%d' % shared[0] if shared else ''}"),
           stmt, preamble)
    grid = _launch(key, lambda: gs_source(key[0], "scatter", nd, ctypes_, big, mode, elem, vspec,
                                          stmt, preamble, block, unroll, update, shared),
                   vals, n, block, unroll, 1 if serial else grid)
    if record is not None and len(arrs) == 1 and vmode != "scalar" and \
            (vmode is None or v is value[1]):
        fn, packer = _kernels[key]
        slots = (0, 1, ipos) if vmode == "array" else (0, ipos)
        record(FastScatter(fn, packer, vals, grid, block, slots, plan.offset))
