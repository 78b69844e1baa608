"""The one generator of ndimage's interpolation kernels, and the B-spline prefilter.

interp: a grid-stride loop over output points. Each point's input coordinates come from
one of four sources (coordinate array, affine matrix, per-axis zoom, per-axis shift); per
axis the kernel finds the first of the order+1 taps and their B-spline weights, maps each
tap index through the mode, and sums the (order+1)^ndim products. Boundary rules, as
SciPy's (checked against it point by point):
- constant:      a coordinate outside [0, n-1] gives cval; taps mirror.
- grid-constant: taps outside the input read cval.
- nearest: taps clamp;  mirror: taps mirror;  reflect/grid-mirror: taps reflect;
- grid-wrap: taps wrap (period n);  wrap: the coordinate wraps with period n-1, taps mirror.

spline: one thread per line, in place: for each pole, a causal recursion (the pole's gain
folded in) and an anticausal one; the initial values are the closed forms for the line's symmetric or periodic
extension (SciPy >= 1.18's), their sums cut where the pole's powers fall below double
precision.
"""
import math

import numpy

from cuarray._core import dtypes as _dt
from cuarray.scipy.ndimage._filter_kernels import (PRELUDE, _code, _get, _launch,
                                                  exact_options, index_type)

_BAD = "(-(1LL << 52))"   # a tap offset that marks "read cval"; sums of a few stay negative

TAP_MODE = {"constant": "mirror", "grid-constant": "constant", "nearest": "nearest",
            "mirror": "mirror", "reflect": "reflect", "grid-mirror": "reflect",
            "grid-wrap": "wrap", "wrap": "mirror"}

# Centred cardinal B-splines beta_k(t), t = |x|, piecewise polynomials.
BSPLINE = {
    0: "return 1.0;",
    1: "return t < 1 ? 1 - t : 0.0;",
    2: "if (t < 0.5) return 0.75 - t * t;\n"
       "  if (t < 1.5) { const double u = 1.5 - t; return 0.5 * u * u; }\n  return 0.0;",
    3: "if (t < 1) return (4 - 6 * t * t + 3 * t * t * t) / 6;\n"
       "  if (t < 2) { const double u = 2 - t; return u * u * u / 6; }\n  return 0.0;",
    4: "if (t < 0.5) { const double t2 = t * t; return 115.0 / 192 - 0.625 * t2 + 0.25 * t2 * t2; }\n"
       "  if (t < 1.5) return (55 + t * (20 + t * (-120 + t * (80 - 16 * t)))) / 96;\n"
       "  if (t < 2.5) { const double u = 5 - 2 * t; const double u2 = u * u; return u2 * u2 / 384; }\n"
       "  return 0.0;",
    5: "if (t < 1) { const double t2 = t * t; return 0.55 - 0.5 * t2 + 0.25 * t2 * t2 - t2 * t2 * t / 12; }\n"
       "  if (t < 2) return 17.0 / 40 + t * (0.625 + t * (-1.75 + t * (1.25 + t * (-0.375 + t / 24))));\n"
       "  if (t < 3) { const double u = 3 - t; const double u2 = u * u; return u2 * u2 * u / 120; }\n"
       "  return 0.0;",
}


# A tap index far outside the input replaced by one the tap mode maps to the same element
# (its period, or a clamp a few taps wide), so 32-bit taps cannot overflow; weights still
# come from the exact position.
_FOLD = {"mirror": "if (n <= 1) return 0; const long long p = 2 * n - 2; s %= p; return s < 0 ? s + p : s;",
         "reflect": "const long long p = 2 * n; s %= p; return s < 0 ? s + p : s;",
         "wrap": "s %= n; return s < 0 ? s + n : s;",
         "nearest": "return s < -8 ? -8 : (s > n + 8 ? n + 8 : s);",
         "constant": "return s < -8 ? -8 : (s > n + 8 ? n + 8 : s);"}
TAP_LIMIT = 1 << 29   # 32-bit taps while the input has fewer elements and at most 3 axes


def tap_type(nd, size):
    """C type of tap offsets: `int` (less address arithmetic) where sums of up to 3 axes'
    offsets and the 'read cval' mark stay within 32 bits."""
    return "int" if nd <= 3 and size < TAP_LIMIT // 2 else "long long"


def interp_options(nd, order, T, out_dtype):
    """NVRTC options of an interpolation kernel. Points are random gathers, latency bound:
    with 32-bit taps, orders 0-1 in 1-2 axes fit 32 registers without spilling (ptxas -v,
    every kind, mode and dtype), so a full SM of 64 warps keeps a third more gathers in
    flight than the 39-42 registers ptxas picks unasked."""
    opts = exact_options(out_dtype)
    if T == "int" and order <= 1 and nd <= 2:
        opts += ("--maxrregcount=32",)
    return opts


def interp_source(name, kind, nd, ond, order, mode, tin, tout, tcoord, I, int_out, T="long long"):
    """CUDA source of an interpolation kernel (see the module docstring): `nd` input
    axes, `ond` output axes; `T` the C type of tap offsets (see `tap_type`)."""
    K = order + 1
    tapmode = TAP_MODE[mode]
    bad = _BAD if T == "long long" else f"(-{TAP_LIMIT})"
    may_cval = tapmode == "constant"
    sig = [f"const {tin}* __restrict__ in", f"{tout}* __restrict__ out"]
    if kind == "map":
        sig.append(f"const {tcoord}* __restrict__ coords")
    sig.append(f"const {I} n")
    for d in range(nd):
        sig += [f"const {I} ish{d}", f"const {I} ist{d}"]
    sig += [f"const {I} osh{d}" for d in range(ond)]
    if kind == "affine":
        sig += [f"const double m{d}_{j}" for d in range(nd) for j in range(ond + 1)]
    elif kind in ("zoom", "shift"):
        sig += [f"const double a{d}" for d in range(nd)] + [f"const double b{d}" for d in range(nd)]
    sig.append("const double cval")
    L = [PRELUDE,
         f"__device__ __forceinline__ double nd_beta(double x) {{\n  const double t = fabs(x); (void)t;\n"
         f"  {BSPLINE[order]}\n}}",
         f"__device__ __forceinline__ long long nd_fold(long long s, long long n) {{\n"
         f"  if (s >= -{TAP_LIMIT}LL && s <= {TAP_LIMIT}LL) return s;\n  {_FOLD[tapmode]}\n}}",
         f'extern "C" __global__ void {name}({", ".join(sig)}) {{',
         f"  for ({I} i = ({I})blockIdx.x * blockDim.x + threadIdx.x; i < n; "
         f"i += ({I})blockDim.x * gridDim.x) {{",
         f"    {I} r = i;"]
    for d in range(ond - 1, -1, -1):
        L.append(f"    const {I} o{d} = r % osh{d}; r /= osh{d};")
    for d in range(nd):
        if kind == "map":
            L.append(f"    double c{d} = (double)coords[i + {d} * n];")
        elif kind == "affine":
            terms = " + ".join(f"m{d}_{j} * (double)o{j}" for j in range(ond))
            L.append(f"    double c{d} = {terms} + m{d}_{ond};")
        else:   # zoom and shift: c = a * o + b
            L.append(f"    double c{d} = a{d} * (double)o{d} + b{d};")
    L.append("    bool outside = false; (void)outside;")
    for d in range(nd):
        if mode == "constant":
            L.append(f"    outside |= !(c{d} >= 0 && c{d} <= (double)(ish{d} - 1));")
        elif mode == "wrap":
            L.append(f"    if (c{d} < 0 || c{d} > (double)(ish{d} - 1)) {{ if (ish{d} <= 1) c{d} = 0; "
                     f"else {{ const double p = (double)(ish{d} - 1); c{d} -= p * floor(c{d} / p); }} }}")
        start = f"floor(c{d})" if order & 1 else f"floor(c{d} + 0.5)"
        fold = f"({T})nd_fold(s, ish{d})" if T != "long long" else "s"
        tap = f"a < 0 ? {bad} : a * ({T})ist{d}" if may_cval else f"a * ({T})ist{d}"
        L += [f"    double w{d}[{K}]; {T} x{d}[{K}];",
              f"    {{ const long long s = (long long){start} - {order // 2};",
              f"      const {T} st = {fold};",
              f"      #pragma unroll",
              f"      for (int j = 0; j < {K}; ++j) {{",
              f"        w{d}[j] = nd_beta(c{d} - (double)(s + j));",
              f"        const {T} a = nd_{tapmode}<{T}>(st + j, ({T})ish{d});",
              f"        x{d}[j] = {tap};",
              "      } }"]
    L.append("    double v = 0;")
    L.append("    if (outside) v = cval; else {")
    ind = "      "
    for d in range(nd):
        prev = f"o_{d - 1}" if d else f"({T})0"
        L += [f"{ind}#pragma unroll",
              f"{ind}for (int j{d} = 0; j{d} < {K}; ++j{d}) {{",
              f"{ind}  const {T} o_{d} = {prev} + x{d}[j{d}];"]
        ind += "  "
    last = nd - 1
    # SciPy's rounding: each tap is value * w0 * w1 * ... in axis order, summed in C order
    chain = "".join(f" * w{d}[j{d}]" for d in range(nd))
    val = f"cuarray_cast<double>(in[o_{last}])"
    if may_cval:
        val = f"(o_{last} < 0 ? cval : {val})"
    L.append(f"{ind}v += {val}{chain};")
    for d in range(nd):
        ind = ind[:-2]
        L.append(f"{ind}}}")
    L.append("    }")
    if int_out:
        # SciPy rounds half away from zero and clips to the output type's range
        lo, hi = int_out
        L.append(f"    v = round(v);")
        L.append(f"    out[i] = v <= {float(lo)!r} ? ({tout}){lo}LL : v >= {float(hi) + 1!r} ? "
                 f"({tout}){hi}ULL : cuarray_cast<{tout}>(v);")
    else:
        L.append(f"    out[i] = cuarray_cast<{tout}>(v);")
    L += ["  }", "}"]
    return "\n".join(L) + "\n"


def run_interp(kind, order, mode, inp, out, coords=None, matrix=None, a=None, b=None,
               cval=0.0):
    """Interpolate C-contiguous `inp` into C-contiguous `out`.

    kind 'map': coords, a C-contiguous (ndim,) + out.shape real array; 'affine': matrix
    (ndim x ndim+1, host); 'zoom'/'shift': c = a * o + b per axis (host sequences).
    """
    n = out.size
    if n == 0:
        return
    nd, ond = inp.ndim, out.ndim
    I = index_type(max(n * max(nd, 1), inp.size) * 2 + 65536)
    ik = "i" if I == "int" else "q"
    T = tap_type(nd, inp.size)
    cdt = coords.dtype if coords is not None else None
    # everything else the kernel depends on follows from the key: built once, not per call
    key = ("interp", kind, nd, ond, order, mode, inp.dtype.char, out.dtype.char,
           cdt.char if cdt is not None else "", I, T)

    def build():
        tin, tout = _dt.ctype(inp.dtype), _dt.ctype(out.dtype)
        int_out = (int(numpy.iinfo(out.dtype).min), int(numpy.iinfo(out.dtype).max)) \
            if out.dtype.kind in "iu" else None
        tcoord = _dt.ctype(cdt) if cdt is not None else ""
        cchar = _code(cdt) if cdt is not None else ""
        name = f"nd_interp_{kind}_{nd}d{ond}_o{order}_{mode}_{_code(inp.dtype)}{_code(out.dtype)}{cchar}"
        name = name.replace("-", "_")
        src = interp_source(name, kind, nd, ond, order, mode, tin, tout, tcoord, I, int_out, T)
        kinds = ["P", "P"] + (["P"] if kind == "map" else []) + [ik] * (1 + 2 * nd + ond)
        if kind == "affine":
            kinds += ["d"] * (nd * (ond + 1))
        elif kind in ("zoom", "shift"):
            kinds += ["d"] * (2 * nd)
        return name, src, kinds + ["d"], interp_options(nd, order, T, out.dtype)
    entry = _get(key, build)
    vals = [inp._ptr, out._ptr] + ([coords._ptr] if kind == "map" else []) + [n]
    it = inp.dtype.itemsize
    for d in range(nd):
        vals += [inp.shape[d], inp.strides[d] // it]
    vals += list(out.shape)
    if kind == "affine":
        vals += [float(v) for v in numpy.asarray(matrix, dtype=numpy.float64).ravel()]
    elif kind in ("zoom", "shift"):
        vals += [float(v) for v in a] + [float(v) for v in b]
    vals.append(float(cval))
    _launch(entry, n, vals)


# ---- B-spline prefilter ------------------------------------------------------------------------

def spline_poles(order):
    """The poles of the B-spline interpolation filter of `order` (2..5)."""
    s = math.sqrt
    return {2: [s(8.0) - 3], 3: [s(3.0) - 2],
            4: [s(664 - s(438976.0)) + s(304.0) - 19, s(664 + s(438976.0)) - s(304.0) - 19],
            5: [s(67.5 - s(4436.25)) + s(26.25) - 6.5, s(67.5 + s(4436.25)) - s(26.25) - 6.5]
            }[order]


# Which extension the recursions' initial values assume, per mode (SciPy's choice).
SPLINE_INIT = {"mirror": "mirror", "constant": "mirror", "grid-constant": "mirror",
               "wrap": "mirror", "reflect": "reflect", "grid-mirror": "reflect",
               "nearest": "reflect", "grid-wrap": "wrap"}


def spline_source(name, order, init, T, I, round_to=None):
    """In-place B-spline prefilter of lines of a C-contiguous array of `T` along an axis.

    round_to: a narrower C float type the final values are rounded through (stored as
    `T`), as SciPy writes a line computed in double into a float32 output.
    """
    poles = spline_poles(order)
    L = [PRELUDE,
         f'extern "C" __global__ void {name}({T}* __restrict__ data, const {I} nlines, '
         f"const {I} len, const {I} inner) {{",
         f"  for ({I} t = ({I})blockIdx.x * blockDim.x + threadIdx.x; t < nlines; "
         f"t += ({I})blockDim.x * gridDim.x) {{",
         f"    if (len < 2) continue;",
         f"    {T}* p = data + (t / inner) * len * inner + t % inner;",
         f"    const {I} s = inner, m = len;"]
    for pi, z in enumerate(poles):
        # the last pass's stores are final: rounded there; the recursion stays in double
        rt = f"({T})({round_to})" if round_to and pi == len(poles) - 1 else f"({T})"
        # terms beyond `h` are below 1e-17 relative: |z|^h < 1e-17
        h = int(math.ceil(math.log(1e-17) / math.log(abs(z)))) + 1
        L += ["    {",
              f"      const double z = {z!r};",
              f"      const double g = (1 - z) * (1 - 1 / z);"]
        if init == "mirror":
            L += [f"      const {I} P = 2 * m - 2, H = P < {h} ? P : {h};",
                  "      double acc = 0, zk = 1;",
                  f"      for ({I} k = 0; k < H; ++k) {{ const {I} q = k < m ? k : P - k; "
                  "acc += zk * (double)p[q * s]; zk *= z; }",
                  "      const double c0 = g * acc / (1 - pow(z, (double)P));"]
        elif init == "reflect":
            # the exact closed form, as SciPy >= 1.18 (1.17's sum read its own running
            # value as x[0] in the last term: O(z^2len) off, visible on short lines)
            L += ["      const double zn = pow(z, (double)m);",
                  "      double acc = (double)p[0] + zn * (double)p[(m - 1) * s], zk = z;",
                  f"      const {I} H = m < {h} ? m : {h};",
                  f"      for ({I} i = 1; i < H; ++i) {{",
                  "        acc += zk * ((double)p[i * s] + zn * (double)p[(m - 1 - i) * s]); zk *= z;",
                  "      }",
                  "      const double c0 = g * ((double)p[0] + acc * z / (1 - zn * zn));"]
        else:
            L += [f"      const {I} H = m < {h} ? m : {h};",
                  "      double acc = 0, zk = 1;",
                  f"      for ({I} j = 0; j < H; ++j) {{ const {I} q = j == 0 ? 0 : m - j; "
                  "acc += zk * (double)p[q * s]; zk *= z; }",
                  "      const double c0 = g * acc / (1 - pow(z, (double)m));"]
        L += [f"      double prev = c0; p[0] = ({T})c0;",
              # 8 steps' loads are issued before their stores (the compiler cannot
              # reorder them itself: the stride could alias)
              f"      for ({I} k0 = 1; k0 < m; k0 += 8) {{",
              "        double xb[8];",
              "        #pragma unroll",
              "        for (int u = 0; u < 8; ++u) xb[u] = k0 + u < m ? (double)p[(k0 + u) * s] : 0.0;",
              "        #pragma unroll",
              "        for (int u = 0; u < 8; ++u) if (k0 + u < m) "
              f"{{ prev = g * xb[u] + z * prev; p[(k0 + u) * s] = ({T})prev; }}",
              "      }"]
        if init == "mirror":
            L.append("      double last = z / (z * z - 1) * ((double)p[(m - 1) * s] + "
                     "z * (double)p[(m - 2) * s]);")
        elif init == "reflect":
            L.append("      double last = z / (z - 1) * (double)p[(m - 1) * s];")
        else:
            L += [f"      const {I} H2 = m < {h} ? m : {h};",
                  "      double acc2 = 0; zk = 1;",
                  f"      for ({I} j = 0; j < H2; ++j) {{ const {I} q = (m - 1 + j) % m; "
                  "acc2 += zk * (double)p[q * s]; zk *= z; }",
                  "      double last = -z * acc2 / (1 - pow(z, (double)m));"]
        L += [f"      p[(m - 1) * s] = {rt}last;",
              f"      for ({I} k0 = m - 2; k0 >= 0; k0 -= 8) {{",
              "        double xb[8];",
              "        #pragma unroll",
              "        for (int u = 0; u < 8; ++u) xb[u] = k0 - u >= 0 ? (double)p[(k0 - u) * s] : 0.0;",
              "        #pragma unroll",
              "        for (int u = 0; u < 8; ++u) if (k0 - u >= 0) "
              f"{{ last = z * (last - xb[u]); p[(k0 - u) * s] = {rt}last; }}",
              "      }",
              "    }"]
    L += ["  }", "}"]
    return "\n".join(L) + "\n"


def run_spline(data, axis, order, mode, round_to=None):
    """Prefilter C-contiguous float `data` in place along `axis`; `round_to` (a narrower
    float dtype) rounds the results through it."""
    if data.size == 0 or order < 2:
        return
    length = data.shape[axis]
    inner = 1
    for s in data.shape[axis + 1:]:
        inner *= s
    nlines = data.size // length
    init = SPLINE_INIT[mode]
    I = index_type(data.size * 2 + 65536)
    ik = "i" if I == "int" else "q"
    T = _dt.ctype(data.dtype)
    rt = numpy.dtype(round_to) if round_to is not None else None
    key = ("spline", order, init, data.dtype.char, rt.char if rt else "", I)

    def build():
        name = f"nd_spline_o{order}_{init}_{_code(data.dtype)}{_code(rt) if rt else ''}"
        src = spline_source(name, order, init, T, I, _dt.ctype(rt) if rt else None)
        return name, src, ["P", ik, ik, ik]
    entry = _get(key, build)
    _launch(entry, nlines, [data._ptr, nlines, length, inner], per_line=True)
