"""The one generator of ndimage's filter kernels.

Two shapes of kernel cover every filter, both grid-stride loops over outputs:

- line: a 1-D filter along one axis of a C-contiguous array (correlate1d, the passes of
  the separable Gaussian/uniform/min/max filters). A thread owns P consecutive outputs
  along the axis and keeps a window of K + P - 1 inputs in registers, so each input is
  loaded about (K + P - 1) / P times instead of K times; neighbouring threads own
  neighbouring columns (inner axis), so loads coalesce. Taps up to UNROLL_TAPS pass their
  weights by value (kernel parameter space, no upload); longer filters read a device array.
- taps: an N-d filter over a list of tap offsets baked into the source (correlate with a
  weights array, footprint min/max, rank/median/percentile, grey and binary morphology,
  generic_filter). An output away from every border reads `in[i + offset]` with no
  boundary arithmetic; the others map each coordinate through the mode.

Each kernel is compiled once per (kind, mode, dtypes, shape of the filter) and cached.
"""
import numpy

from cuarray._core import dtypes as _dt
from cuarray._runtime import stream as _stream
from cuarray._runtime.compiler import compile_module
from cuarray._runtime.device import ensure_context
from cuarray._runtime.launch import ArgPacker

BLOCK = 256
UNROLL_TAPS = 48      # register window up to this many taps
OUTPUTS_PER_THREAD = 8
UNROLL_TAPS_ND = 64    # N-d taps written out one by one up to this many
RUN = 4                # outputs per thread along the last axis in N-d tap kernels
_GRID_CAP = 1 << 20

# Position `i` on an axis of length `n` after the boundary rule; -1 means "use cval".
MODE_FUNCTIONS = r"""
template <class I> __device__ __forceinline__ I nd_reflect(I i, I n) {
  if (i >= 0 && i < n) return i;
  const I p = 2 * n; i %= p; if (i < 0) i += p;
  return i < n ? i : p - 1 - i;
}
template <class I> __device__ __forceinline__ I nd_mirror(I i, I n) {
  if (i >= 0 && i < n) return i;
  if (n == 1) return 0;
  const I p = 2 * n - 2; i %= p; if (i < 0) i += p;
  return i < n ? i : p - i;
}
template <class I> __device__ __forceinline__ I nd_nearest(I i, I n) {
  return i < 0 ? 0 : (i >= n ? n - 1 : i);
}
template <class I> __device__ __forceinline__ I nd_wrap(I i, I n) {
  if (i >= 0 && i < n) return i;
  i %= n; return i < 0 ? i + n : i;
}
template <class I> __device__ __forceinline__ I nd_constant(I i, I n) {
  return (i < 0 || i >= n) ? (I)-1 : i;
}
template <class T> __device__ __forceinline__ T nd_min(T a, T b) { return b < a ? b : a; }
template <class T> __device__ __forceinline__ T nd_max(T a, T b) { return a < b ? b : a; }
"""

LIMITS = r"""
template <class T> struct cuarray_nd_limits;
#define ND_LIM(T, L, H) template <> struct cuarray_nd_limits<T> { \
  static __device__ __forceinline__ T lo() { return L; } static __device__ __forceinline__ T hi() { return H; } };
ND_LIM(bool, false, true)
ND_LIM(signed char, -128, 127)
ND_LIM(unsigned char, 0, 255)
ND_LIM(short, -32768, 32767)
ND_LIM(unsigned short, 0, 65535)
ND_LIM(int, (-2147483647 - 1), 2147483647)
ND_LIM(unsigned int, 0u, 4294967295u)
ND_LIM(long long, (-9223372036854775807LL - 1), 9223372036854775807LL)
ND_LIM(unsigned long long, 0ull, 18446744073709551615ull)
ND_LIM(float, -cuarray_f32(0x7f800000u), cuarray_f32(0x7f800000u))
ND_LIM(double, -cuarray_f64(0x7ff0000000000000ull), cuarray_f64(0x7ff0000000000000ull))
#undef ND_LIM
"""

PRELUDE = "#include <cuarray/core.cuh>\n" + MODE_FUNCTIONS + LIMITS

_SCALAR_KIND = {"?": "?", "b": "b", "B": "B", "h": "h", "H": "H", "i": "i", "I": "I",
                "l": "q", "q": "q", "L": "Q", "Q": "Q", "f": "f", "d": "d", "F": "F", "D": "D"}
_kernels = {}


def compute_ctype(dtype):
    """C type filters compute in for values of `dtype` (half widens to float)."""
    dtype = numpy.dtype(dtype)
    return "float" if dtype.char == "e" else _dt.ctype(dtype)


def scalar_dtype(dtype):
    dtype = numpy.dtype(dtype)
    return numpy.dtype(numpy.float32) if dtype.char == "e" else dtype


def _code(dtype):
    """A kernel-name-safe code of a dtype ('?' is not an identifier)."""
    return "b1" if dtype.char == "?" else dtype.char


def index_type(n):
    return "int" if n < 2**31 - 1 else "long long"


# ---- line kernels -------------------------------------------------------------------------

def exact_options(dtype):
    """Compile options for kernels whose float result is cast to an integer output: no
    fused multiply-adds, so sums round as SciPy's (compiled without them) and a value at
    an integer boundary truncates the same way."""
    return ("-fmad=false",) if numpy.dtype(dtype).kind in "biu" else ()


def line_source(name, kind, mode, tin, tout, acc, K, left, P, I, by_value, sym=0):
    """CUDA source of a 1-D filter along an axis. kind: 'corr', 'min' or 'max'.

    kind 'mean' is an unweighted sum divided by K. sym (corr with odd K): 1 or -1 when
    the weights are symmetric or antisymmetric; the sum then runs as SciPy's does, centre
    first, then pairs of taps from the outermost inwards.
    acc: C type of the accumulator (also the weights' type for 'corr'). Work item t is
    (outer o, chunk c of P outputs, inner r) with r fastest.
    """
    if kind == "corr":
        # weights by value are read as w_.w[k] (never through a pointer, which would copy
        # the parameter to local memory)
        step, k0 = ("s += w_.w[k] * {x};" if by_value else "s += w[k] * {x};"), 0
    elif kind == "mean":
        step, k0 = "s += {x};", 0
    else:
        step, k0 = f"s = nd_{kind}(s, {{x}});", 1
    wdecl = wuse = ""
    if kind != "corr":
        wparam = "const int nd_unused"
    elif by_value:
        wparam = "const nd_weights w_"
        wdecl = f"struct nd_weights {{ {acc} w[{K}]; }};\n"
    else:
        wparam = f"const {acc}* __restrict__ w"
    load = f"cuarray_cast<{acc}>(in[base + a * inner])"
    res = f"s / ({acc}){K}" if kind == "mean" else "s"
    head = (f"{PRELUDE}{wdecl}"
            f'extern "C" __global__ void {name}(const {tin}* __restrict__ in, '
            f"{tout}* __restrict__ out, {wparam}, const {I} n_items, const {I} len, "
            f"const {I} inner, const {I} nchunks, const {acc} cval) {{\n{wuse}"
            f"  for ({I} t = ({I})blockIdx.x * blockDim.x + threadIdx.x; t < n_items; "
            f"t += ({I})blockDim.x * gridDim.x) {{\n"
            f"    const {I} r = t % inner; const {I} q = t / inner;\n"
            f"    const {I} c = q % nchunks; const {I} o = q / nchunks;\n"
            f"    const {I} a0 = c * {P};\n"
            f"    const {I} base = o * len * inner + r;\n")
    if P > 1:
        W = K + P - 1
        init = "v[p]" if kind in ("min", "max") else f"({acc})0"
        body = (f"    {acc} v[{W}];\n"
                f"    if (a0 - {left} >= 0 && a0 + {P - 1 + K - 1 - left} < len) {{\n"
                f"      const {tin}* src = in + base + (a0 - {left}) * inner;\n"
                f"      #pragma unroll\n"
                f"      for (int j = 0; j < {W}; ++j) v[j] = cuarray_cast<{acc}>(src[j * inner]);\n"
                f"    }} else {{\n"
                f"      #pragma unroll\n"
                f"      for (int j = 0; j < {W}; ++j) {{\n"
                f"        const {I} a = nd_{mode}<{I}>(a0 - {left} + j, len);\n"
                f"        v[j] = a < 0 ? cval : {load};\n"
                f"      }}\n"
                f"    }}\n"
                f"    #pragma unroll\n"
                f"    for (int p = 0; p < {P}; ++p) {{\n"
                + (_sym_sum(acc, K, sym, by_value) if sym else
                   f"      {acc} s = {init};\n"
                   f"      #pragma unroll\n"
                   f"      for (int k = {k0}; k < {K}; ++k) " + step.format(x="v[p + k]") + "\n") +
                f"      if (a0 + p < len) out[base + (a0 + p) * inner] = cuarray_cast<{tout}>({res});\n"
                f"    }}\n")
    else:
        fast0 = f"cuarray_cast<{acc}>(src[0])"
        init = None if kind in ("min", "max") else f"({acc})0"
        body = (f"    {acc} s;\n"
                f"    if (a0 - {left} >= 0 && a0 + {K - 1 - left} < len) {{\n"
                f"      const {tin}* src = in + base + (a0 - {left}) * inner;\n"
                f"      s = {init or fast0};\n"
                f"      #pragma unroll 4\n"
                f"      for (int k = {k0}; k < {K}; ++k) {{\n"
                f"        const {acc} x = cuarray_cast<{acc}>(src[k * inner]);\n"
                f"        " + step.format(x="x") + "\n"
                f"      }}\n"
                f"    }} else {{\n"
                f"      for (int k = 0; k < {K}; ++k) {{\n"
                f"        const {I} a = nd_{mode}<{I}>(a0 - {left} + k, len);\n"
                f"        const {acc} x = a < 0 ? cval : {load};\n"
                + (f"        if (k == 0) s = x; else " if kind in ("min", "max") else
                   f"        if (k == 0) s = ({acc})0;\n        ") + step.format(x="x") + "\n"
                f"      }}\n"
                f"    }}\n"
                f"    out[base + a0 * inner] = cuarray_cast<{tout}>({res});\n")
        if sym:
            c = K // 2
            op = "+" if sym > 0 else "-"
            body = (f"    const bool inside = a0 - {left} >= 0 && a0 + {K - 1 - left} < len;\n"
                    f"    const {tin}* src = in + base + (a0 - {left}) * inner;\n"
                    f"    auto ld = [&](int k) -> {acc} {{\n"
                    f"      if (inside) return cuarray_cast<{acc}>(src[k * inner]);\n"
                    f"      const {I} a = nd_{mode}<{I}>(a0 - {left} + k, len);\n"
                    f"      return a < 0 ? cval : {load};\n"
                    f"    }};\n"
                    f"    {acc} s = w[{c}] * ld({c});\n"
                    f"    for (int m = {c}; m >= 1; --m) s += w[{c} - m] * (ld({c} - m) {op} "
                    f"ld({c} + m));\n"
                    f"    out[base + a0 * inner] = cuarray_cast<{tout}>(s);\n")
    return head + body + "  }\n}\n"


def _sym_sum(acc, K, sym, by_value):
    c = K // 2
    w = "w_.w" if by_value else "w"
    op = "+" if sym > 0 else "-"
    return (f"      {acc} s = {w}[{c}] * v[p + {c}];\n"
            f"      #pragma unroll\n"
            f"      for (int m = {c}; m >= 1; --m) "
            f"s += {w}[{c} - m] * (v[p + {c} - m] {op} v[p + {c} + m]);\n")


def _get(key, build):
    """The cached (function, packer) of `key`; `build()` gives (name, source, argument
    kinds[, compile options])."""
    entry = _kernels.get(key)
    if entry is None:
        name, src, kinds, *opts = build()
        ensure_context()
        fn = compile_module(src, tuple(opts[0]) if opts else (), name=name).get_function(name)
        entry = _kernels[key] = (fn, ArgPacker(kinds))
    return entry


def _launch(entry, n, vals, per_line=False):
    """Launch over `n` work items. Kernels whose thread walks a whole line (`per_line`)
    have few, long-running threads: small blocks spread them over more SMs."""
    fn, packer = entry
    block = 64 if per_line and n < (1 << 16) else BLOCK
    grid = min((n + block - 1) // block, _GRID_CAP)
    fn.launch1d(grid, block, packer.pack(vals), _stream.current_stream_ptr())


def _scalar(value, dtype):
    v = numpy.asarray(value).astype(dtype, casting="unsafe")[()] if dtype.kind != "c" \
        else complex(value)
    if dtype.kind == "c":
        return [v.real, v.imag]
    return [v.item() if hasattr(v, "item") else v]


def run_line(kind, mode, inp, out, axis, weights, left, cval, acc_dtype):
    """1-D filter of C-contiguous `inp` into C-contiguous `out` (same shape) along `axis`.

    weights: numpy array of acc_dtype (kind 'corr'), or the filter size (an int).
    """
    shape = inp.shape
    n = inp.size
    if n == 0:
        return
    K = len(weights) if kind == "corr" else int(weights)
    length = shape[axis]
    inner = 1
    for s in shape[axis + 1:]:
        inner *= s
    outer = n // (length * inner)
    acc_dtype = numpy.dtype(acc_dtype)
    minmax = kind in ("min", "max")
    acc = compute_ctype(inp.dtype if minmax else acc_dtype)
    cdt = scalar_dtype(inp.dtype if minmax else acc_dtype)
    # the window is K + P - 1 values in registers: fewer outputs per thread for wide types
    P = max(1, OUTPUTS_PER_THREAD * 4 // max(cdt.itemsize, 4)) if K <= UNROLL_TAPS else 1
    nchunks = (length + P - 1) // P
    items = outer * nchunks * inner
    I = index_type(max(n, items) + length + K)
    by_value = kind == "corr" and K <= UNROLL_TAPS
    tin, tout = _dt.ctype(inp.dtype), _dt.ctype(out.dtype)
    ik = "i" if I == "int" else "q"
    sym = 0
    if kind == "corr" and K & 1:
        wr = numpy.asarray(weights)
        sym = 1 if numpy.array_equal(wr, wr[::-1]) else \
            -1 if numpy.array_equal(wr, -wr[::-1]) else 0
    key = ("line", kind, mode, inp.dtype.char, out.dtype.char, acc, K, left, P, I, by_value,
           sym)

    def build():
        name = f"nd_line_{kind}_{mode}_{_code(inp.dtype)}{_code(out.dtype)}_{K}_{left}_{P}"
        name = name.replace("-", "_") + ("_s" if sym > 0 else "_a" if sym < 0 else "")
        src = line_source(name, kind, mode, tin, tout, acc, K, left, P, I, by_value, sym)
        wk = (("s", K * cdt.itemsize, min(cdt.itemsize, 16)) if by_value else
              "P" if kind == "corr" else "i")
        return name, src, ["P", "P", wk, ik, ik, ik, ik, _SCALAR_KIND[cdt.char]], \
            exact_options(out.dtype)
    entry = _get(key, build)
    if kind == "corr":
        w = numpy.ascontiguousarray(weights, dtype=cdt)
        if by_value:
            wv = w.tobytes()
        else:
            from cuarray.scipy.ndimage._util import device_table
            wv = device_table(w)._ptr
    else:
        wv = 0
    vals = [inp._ptr, out._ptr, wv, items, length, inner, nchunks] + _scalar(cval, cdt)
    _launch(entry, items, vals)


# ---- tap kernels --------------------------------------------------------------------------

# What each tap kind does with a value `x` (tap j), its start value and its result.
#   corr:   weighted sum            erode/dilate: binary, all/any of (x != 0)
#   min/max: footprint extrema      grey_erode/grey_dilate: min(x - w) / max(x + w)
#   rank:   the `rank`-th smallest  generic: a user device function over the values
TAP_KINDS = {
    "corr": ("s = ({acc})0;", "s += w[j] * x;", "s"),
    "min": ("s = cval_max;", "s = nd_min(s, x);", "s"),
    "max": ("s = cval_min;", "s = nd_max(s, x);", "s"),
    "grey_erode": ("s = cval_max;", "s = nd_min(s, ({acc})(x - w[j]));", "s"),
    "grey_dilate": ("s = cval_min;", "s = nd_max(s, ({acc})(x + w[j]));", "s"),
    "erode": ("s = true;", "s = s && (x != ({acc})0);", "s"),
    "dilate": ("s = false;", "s = s || (x != ({acc})0);", "s"),
    "rank": ("", "v[j] = x;", "nd_select(v)"),
    "generic": ("", "v[j] = (double)x;", "nd_user(v)"),
}


def _select_source(acc, nnz, rank):
    """Device function returning the `rank`-th smallest of v[0..nnz): a partial selection
    from the nearer end (rank+1 or nnz-rank passes). Small windows compare-exchange with
    indices fixed at compile time, so the values stay in registers (a 5x5 median is 13
    passes of branch-free min/max); larger ones scan for the extremum in local memory."""
    passes = rank + 1 if rank <= nnz // 2 else nnz - rank
    lo, hi = ("a", "b") if rank <= nnz // 2 else ("b", "a")
    if nnz <= 49:
        return (f"__device__ __forceinline__ {acc} nd_select({acc}* v) {{\n"
                f"  #pragma unroll\n"
                f"  for (int i = 0; i < {passes}; ++i) {{\n"
                f"    #pragma unroll\n"
                f"    for (int j = i + 1; j < {nnz}; ++j) {{\n"
                f"      const {acc} a = v[i], b = v[j]; const bool lt = b < a;\n"
                f"      v[i] = lt ? {hi} : {lo}; v[j] = lt ? {lo} : {hi};\n"
                f"    }}\n"
                f"  }}\n"
                f"  return v[{passes - 1}];\n}}\n")
    cmp = "<" if rank <= nnz // 2 else ">"
    return (f"__device__ __forceinline__ {acc} nd_select({acc}* v) {{\n"
            f"  for (int i = 0; i < {passes}; ++i) {{\n"
            f"    int m = i;\n"
            f"    for (int j = i + 1; j < {nnz}; ++j) if (v[j] {cmp} v[m]) m = j;\n"
            f"    const {acc} t = v[m]; v[m] = v[i]; v[i] = t;\n"
            f"  }}\n"
            f"  return v[{passes - 1}];\n}}\n")


def user_source(user, nnz):
    """`nd_user(double* v)`: the user's function over the `nnz` values under the footprint.

    user: ('raw', device code, function name) for a RawKernel, CuPy's convention
    `f(const double* values, int n, double* result)`; ('reduction', typedefs and preamble,
    input name, output name, reduce type, identity, map, reduce, post-map) for a
    ReductionKernel, whose `_in_ind.size()` is the footprint's size.
    """
    if user[0] == "raw":
        return (f"{user[1]}\n__device__ __forceinline__ double nd_user(double* v) {{\n"
                f"  double r = 0; {user[2]}(v, {nnz}, &r); return r;\n}}\n")
    _, pre, xn, yn, red, ident, mapx, redx, post = user
    return (f"{pre}\nstruct nd_red_ind {{ __device__ long long size() const {{ return {nnz}; }} }};\n"
            f"__device__ __forceinline__ double nd_user(double* v) {{\n"
            f"  typedef {red} _type_reduce;\n"
            f"  const nd_red_ind _in_ind; (void)_in_ind;\n"
            f"  _type_reduce a = (_type_reduce)({ident});\n"
            f"  for (int j = 0; j < {nnz}; ++j) {{\n"
            f"    const X {xn} = cuarray_cast<X>(v[j]);\n"
            f"    const _type_reduce b = (_type_reduce)({mapx});\n"
            f"    a = ({redx});\n"
            f"  }}\n"
            f"  Y {yn}; {post};\n"
            f"  return cuarray_cast<double>({yn});\n}}\n")


def tap_source(name, kind, mode, tin, tout, acc, offsets, I, rank=None, user=None):
    """CUDA source of an N-d filter over the tap `offsets` (nnz x ndim ints).

    Parameters: in, out (C-contiguous, same shape), w (per-tap values for corr and grey
    morphology), the size, per axis (shape, lowest and highest interior coordinate,
    input stride in elements), cval.
    """
    offsets = numpy.asarray(offsets, dtype=numpy.int64).reshape(len(offsets), -1)
    nnz, nd = offsets.shape
    init, step, result = TAP_KINDS[kind]
    init, step = init.format(acc=acc), step.format(acc=acc)
    table = ", ".join(str(int(v)) for v in offsets.ravel()) or "0"
    pre = [PRELUDE,
           f"__device__ const int nd_offs[{max(nnz * nd, 1)}] = {{{table}}};\n"]
    vdecl = ""
    if kind == "rank":
        pre.append(_select_source(acc, nnz, rank))
        vdecl = f"    {acc} v[{max(nnz, 1)}];\n"
    elif kind == "generic":
        pre.append(user_source(user, nnz))
        vdecl = f"    double v[{max(nnz, 1)}];\n"
    sig = [f"const {tin}* __restrict__ in", f"{tout}* __restrict__ out",
           f"const {acc}* __restrict__ w", f"const {I} n", f"const {I} nch"]
    for d in range(nd):
        sig += [f"const {I} sh{d}", f"const {I} lo{d}", f"const {I} hi{d}", f"const {I} st{d}"]
    sig.append(f"const {acc} cval")
    lines = ["".join(pre), f'extern "C" __global__ void {name}({", ".join(sig)}) {{']
    if kind in ("min", "grey_erode"):
        lines.append(f"  const {acc} cval_max = cuarray_nd_limits<{acc}>::hi();")
    if kind in ("max", "grey_dilate"):
        lines.append(f"  const {acc} cval_min = cuarray_nd_limits<{acc}>::lo();")
    # work item t: RUN consecutive outputs of one row (last axis), so the coordinate
    # divisions are paid once per RUN outputs
    L_ = nd - 1
    lines.append(f"  for ({I} t = ({I})blockIdx.x * blockDim.x + threadIdx.x; t < n; "
                 f"t += ({I})blockDim.x * gridDim.x) {{")
    lines.append(f"    const {I} row = t / nch, cl0 = (t % nch) * {RUN};")
    lines.append(f"    {I} r = row;")
    for d in range(nd - 2, -1, -1):
        lines.append(f"    const {I} c{d} = r % sh{d}; r /= sh{d};")
    inrow = " && ".join(f"c{d} >= lo{d} && c{d} < hi{d}" for d in range(nd - 1)) or "true"
    lines.append(f"    const bool inrow = {inrow};")
    # long bodies (selections, user functions, tap tables) stay rolled: code size
    big = kind in ("rank", "generic") or nnz > UNROLL_TAPS_ND
    lines.append("    #pragma unroll 1" if big else "    #pragma unroll")
    lines.append(f"    for (int u = 0; u < {RUN}; ++u) {{")
    lines.append(f"    const {I} c{L_} = cl0 + u;")
    lines.append(f"    if (c{L_} >= sh{L_}) break;")
    lines.append(f"    const {I} i = row * sh{L_} + c{L_};")
    inside = f"inrow && c{L_} >= lo{L_} && c{L_} < hi{L_}"
    lines.append(vdecl + f"    {acc} s; (void)s; {init}")
    lin = " + ".join(f"({I})nd_offs[j * {nd} + {d}] * st{d}" for d in range(nd)) or "0"
    lines.append(f"    if ({inside}) {{")
    if nnz <= UNROLL_TAPS_ND:
        # interior taps written out: each load is `in[i + constant]` once the strides are
        # hoisted, with no table reads
        for j, off in enumerate(offsets):
            terms = "".join(f" + ({int(o)}) * st{d}" for d, o in enumerate(off) if o)
            lines.append(f"      {{ const {acc} x = cuarray_cast<{acc}>(in[i{terms}]); "
                         f"{step.replace('[j]', f'[{j}]')} }}")
    else:
        lines += ["      for (int j = 0; j < " + str(nnz) + "; ++j) {",
                  f"        const {acc} x = cuarray_cast<{acc}>(in[i + {lin}]);",
                  f"        {step}",
                  "      }"]
    lines += ["    } else {",
              f"      for (int j = 0; j < {nnz}; ++j) {{",
              f"        {I} off = 0; bool oob = false;"]
    for d in range(nd):
        lines.append(f"        {{ const {I} a = nd_{mode}<{I}>(c{d} + nd_offs[j * {nd} + {d}], sh{d}); "
                     f"oob |= a < 0; off += a * st{d}; }}")
    lines += [f"        const {acc} x = oob ? cval : cuarray_cast<{acc}>(in[off]);",
              f"        {step}",
              "      }",
              "    }",
              f"    out[i] = cuarray_cast<{tout}>({result});",
              "    }",
              "  }",
              "}"]
    return "\n".join(lines) + "\n"




def run_taps(kind, mode, inp, out, offsets, weights, cval, acc_dtype, rank=None, user=None):
    """N-d filter of C-contiguous `inp` into C-contiguous `out` of the same shape.

    offsets: nnz x ndim int array of tap positions relative to each output; weights:
    per-tap values (numpy, acc_dtype) for corr/grey kinds, else None.
    """
    n = inp.size
    if n == 0:
        return
    if inp.ndim == 0:
        inp, out = inp.reshape(1), out.reshape(1)
        offsets = numpy.zeros((len(numpy.asarray(offsets)), 1), dtype=numpy.int64)
    offsets = numpy.asarray(offsets, dtype=numpy.int64).reshape(-1, inp.ndim)
    nnz, nd = offsets.shape
    shape = inp.shape
    I = index_type(2 * n + 65536)
    acc_dtype = numpy.dtype(acc_dtype)
    acc = compute_ctype(acc_dtype)
    cdt = scalar_dtype(acc_dtype)
    tin, tout = _dt.ctype(inp.dtype), _dt.ctype(out.dtype)
    ik = "i" if I == "int" else "q"
    key = ("taps", kind, mode, inp.dtype.char, out.dtype.char, acc, offsets.tobytes(),
           offsets.shape, I, rank, user)

    def build():
        import hashlib
        h = hashlib.sha1(offsets.tobytes() + str(offsets.shape).encode()).hexdigest()[:10]
        name = f"nd_taps_{kind}_{mode}_{_code(inp.dtype)}{_code(out.dtype)}_{h}"
        src = tap_source(name, kind, mode, tin, tout, acc, offsets, I, rank, user)
        return name, src, ["P", "P", "P", ik, ik] + [ik] * (4 * nd) + \
            [_SCALAR_KIND[cdt.char]], exact_options(out.dtype)
    entry = _get(key, build)
    wptr = 0
    if weights is not None:
        from cuarray.scipy.ndimage._util import device_table
        wptr = device_table(numpy.ascontiguousarray(weights, dtype=cdt))._ptr
    nch = (shape[-1] + RUN - 1) // RUN
    items = n // shape[-1] * nch
    vals = [inp._ptr, out._ptr, wptr, items, nch]
    item = inp.dtype.itemsize
    for d in range(nd):
        lo = max(0, -int(offsets[:, d].min(initial=0)))
        hi = shape[d] - max(0, int(offsets[:, d].max(initial=0)))
        vals += [shape[d], lo, hi, inp.strides[d] // item]
    vals += _scalar(cval, cdt)
    _launch(entry, items, vals)


# ---- generic_filter1d: a user function per line ----------------------------------------------

def lines_source(name, mode, tin, tout, I, fs, left, user):
    """One thread per line: extend the line by the boundary rule into a scratch row of
    doubles, call the user's function, cast its output row back."""
    return (f"{PRELUDE}{user[1]}\n"
            f'extern "C" __global__ void {name}(const {tin}* __restrict__ in, '
            f"{tout}* __restrict__ out, double* scratch, const {I} nlines, const {I} len, "
            f"const {I} inner, const double cval) {{\n"
            f"  for ({I} t = ({I})blockIdx.x * blockDim.x + threadIdx.x; t < nlines; "
            f"t += ({I})blockDim.x * gridDim.x) {{\n"
            f"    const {I} r = t % inner, o = t / inner, base = o * len * inner + r;\n"
            f"    double* ext = scratch + t * (2 * len + {fs - 1});\n"
            f"    double* res = ext + len + {fs - 1};\n"
            f"    for ({I} j = 0; j < len + {fs - 1}; ++j) {{\n"
            f"      const {I} a = nd_{mode}<{I}>(j - {left}, len);\n"
            f"      ext[j] = a < 0 ? cval : cuarray_cast<double>(in[base + a * inner]);\n"
            f"    }}\n"
            f"    {user[2]}(ext, len + {fs - 1}, res, len);\n"
            f"    for ({I} j = 0; j < len; ++j) out[base + j * inner] = cuarray_cast<{tout}>(res[j]);\n"
            f"  }}\n}}\n")


def run_generic_lines(inp, out, axis, fs, left, mode, cval, user):
    import cuarray
    shape = inp.shape
    length = shape[axis]
    inner = 1
    for s in shape[axis + 1:]:
        inner *= s
    nlines = inp.size // length
    I = index_type(inp.size * 2 + nlines * (fs + 1))
    ik = "i" if I == "int" else "q"
    tin, tout = _dt.ctype(inp.dtype), _dt.ctype(out.dtype)
    key = ("lines", mode, inp.dtype.char, out.dtype.char, I, fs, left, user)

    def build():
        name = f"nd_lines_{mode}_{_code(inp.dtype)}{_code(out.dtype)}_{fs}_{left}".replace("-", "_")
        return name, lines_source(name, mode, tin, tout, I, fs, left, user), \
            ["P", "P", "P", ik, ik, ik, "d"]
    entry = _get(key, build)
    scratch = cuarray.empty(nlines * (2 * length + fs - 1), dtype=numpy.float64)
    _launch(entry, nlines, [inp._ptr, out._ptr, scratch._ptr, nlines, length, inner,
                            float(cval)], per_line=True)
