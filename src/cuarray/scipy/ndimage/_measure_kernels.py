"""Kernels of ndimage's measurements: connected-component labelling and per-label
statistics, both grid-stride loops whose threads meet only through atomics.

label: union-find over pixel indices. Every foreground pixel links to the foreground
neighbours the structure names before it in raster order; a union hooks the larger root
under the smaller one with compare-and-swap, so each component's root is its first
pixel in raster order. A flatten pass points every pixel at its root and flags the roots;
an inclusive scan of the flags numbers them in raster order, SciPy's label numbering.

Statistics accumulate into per-bin arrays with atomics (double add, min/max by CAS); the
CPU emulator builds the same code with its own atomics.
"""
import numpy

from cuarray._core import dtypes as _dt
from cuarray.scipy.ndimage._filter_kernels import PRELUDE, _code, _get, _launch

ATOMICS = r"""
#if !defined(__CUDACC__)
// the CPU emulator runs threads concurrently with real atomics; it lacks these bit casts
inline long long __double_as_longlong(double x) { long long r; memcpy(&r, &x, 8); return r; }
inline double __longlong_as_double(long long x) { double r; memcpy(&r, &x, 8); return r; }
#endif
__device__ __forceinline__ void nd_aadd(double* p, double v) { atomicAdd(p, v); }
__device__ __forceinline__ void nd_amin(double* p, double v) {
  unsigned long long* a = (unsigned long long*)p;
  unsigned long long old = *a, seen;
  do { seen = old; if (!(v < __longlong_as_double((long long)seen))) return;
       old = atomicCAS(a, seen, (unsigned long long)__double_as_longlong(v)); } while (old != seen);
}
__device__ __forceinline__ void nd_amax(double* p, double v) {
  unsigned long long* a = (unsigned long long*)p;
  unsigned long long old = *a, seen;
  do { seen = old; if (!(v > __longlong_as_double((long long)seen))) return;
       old = atomicCAS(a, seen, (unsigned long long)__double_as_longlong(v)); } while (old != seen);
}
__device__ __forceinline__ void nd_aminl(long long* p, long long v) { atomicMin(p, v); }
__device__ __forceinline__ void nd_amaxl(long long* p, long long v) { atomicMax(p, v); }
__device__ __forceinline__ int nd_cas(int* p, int cmp, int v) { return atomicCAS(p, cmp, v); }
__device__ __forceinline__ long long nd_cas(long long* p, long long cmp, long long v) {
  return (long long)atomicCAS((unsigned long long*)p, (unsigned long long)cmp, (unsigned long long)v);
}
"""


def _coords(nd, I="long long", var="i"):
    lines = [f"    {I} q = {var};"]
    for d in range(nd - 1, -1, -1):
        lines.append(f"    const {I} c{d} = q % sh{d}; q /= sh{d};")
    return lines


# ---- label ------------------------------------------------------------------------------------

def label_source(name, step, nd, tin, I, offsets, out_t="int", rank_t=None):
    """Source of one label pass. step: 'init', 'merge', 'flatten' or 'number' (which
    writes `out_t` labels from a `rank_t` count of roots, by default the index type)."""
    rank_t = rank_t or I
    sig = [f"const {tin}* __restrict__ in", f"{I}* __restrict__ L", f"const {I} n"]
    sig += [f"const {I} sh{d}" for d in range(nd)]
    if step == "flatten":
        sig.append("unsigned char* __restrict__ flag")
    if step == "number":
        sig = [f"const {I}* __restrict__ L", f"const {rank_t}* __restrict__ rank",
               f"{out_t}* __restrict__ out", f"const {I} n"]
    L = [PRELUDE, ATOMICS,
         # path halving: a non-root only ever moves to another of its ancestors, and
         # roots change only by CAS, so the plain writes race harmlessly
         f"__device__ __forceinline__ {I} nd_find({I}* L, {I} a) {{\n"
         f"  while (true) {{ const {I} p = L[a]; if (p == a) return a;\n"
         f"    const {I} g = L[p]; if (g == p) return p; L[a] = g; a = g; }}\n}}",
         # flatten's find must not write: a halving write landing after an element's own
         # thread stored its root would leave it pointing at a non-root
         f"__device__ __forceinline__ {I} nd_root(const {I}* L, {I} a) {{\n"
         f"  {I} p = L[a]; while (p != a) {{ a = p; p = L[a]; }} return a;\n}}",
         f'extern "C" __global__ void {name}({", ".join(sig)}) {{',
         f"  for ({I} i = ({I})blockIdx.x * blockDim.x + threadIdx.x; i < n; "
         f"i += ({I})blockDim.x * gridDim.x) {{"]
    if step == "init":
        L.append(f"    L[i] = in[i] != ({tin})0 ? i : ({I})-1;")
    elif step == "flatten":
        L.append("    const bool fg = L[i] >= 0; if (fg) L[i] = nd_root(L, i);")
        L.append("    flag[i] = fg && L[i] == i;")
    elif step == "number":
        # rank: inclusive count of roots up to each element, so a root's is its label
        L.append(f"    out[i] = L[i] < 0 ? ({out_t})0 : ({out_t})rank[L[i]];")
    else:
        L.append("    if (L[i] < 0) continue;")
        L += _coords(nd, I)
        for off in offsets:
            cond = " && ".join(f"c{d} + ({int(o)}) >= 0 && c{d} + ({int(o)}) < sh{d}"
                               for d, o in enumerate(off) if o) or "true"
            lin = " + ".join(f"({int(o)}) * st{d}" for d, o in enumerate(off) if o) or "0"
            L += [f"    if ({cond}) {{",
                  f"      {I} b = i + ({lin});",
                  "      if (L[b] >= 0) {",
                  f"        {I} a = i;",
                  "        while (true) {",
                  "          a = nd_find(L, a); b = nd_find(L, b);",
                  "          if (a == b) break;",
                  f"          if (a < b) {{ const {I} t = a; a = b; b = t; }}",
                  f"          const {I} old = nd_cas(&L[a], a, b);",
                  "          if (old == a) break;",
                  "          a = old;",
                  "        }",
                  "      }",
                  "    }"]
        # element strides of the C-contiguous image
        strides = [f"const {I} st{nd - 1} = 1;"]
        for d in range(nd - 2, -1, -1):
            strides.append(f"const {I} st{d} = st{d + 1} * sh{d + 1};")
        L.insert(L.index(f'extern "C" __global__ void {name}({", ".join(sig)}) {{') + 1,
                 "  " + " ".join(strides))
    L += ["  }", "}"]
    src = "\n".join(L) + "\n"
    return src


def run_label(step, inp, L, offsets=(), rank=None, out=None):
    """One label pass; `out` is the root flags (flatten) or the labels (number)."""
    nd = inp.ndim if inp is not None else 1
    n = L.size
    I = _dt.ctype(L.dtype)
    ik = "i" if L.dtype.itemsize == 4 else "q"
    offsets = numpy.asarray(offsets, dtype=numpy.int64).reshape(-1, nd) if step == "merge" \
        else numpy.zeros((0, nd), dtype=numpy.int64)
    tin = _dt.ctype(inp.dtype) if inp is not None else "int"
    key = ("label", step, nd, inp.dtype.char if inp is not None else "", L.dtype.char,
           offsets.tobytes(), out.dtype.char if out is not None and step == "number" else "",
           rank.dtype.char if rank is not None else "")

    def build():
        name = f"nd_label_{step}_{nd}d_{_code(inp.dtype) if inp is not None else 'x'}_" \
               f"{L.dtype.char}{_code(out.dtype) if step == 'number' else ''}_{len(offsets)}"
        if step == "number":
            src = label_source(name, step, nd, tin, I, offsets, _dt.ctype(out.dtype),
                               _dt.ctype(rank.dtype))
            return name, src, ["P", "P", "P", ik]
        src = label_source(name, step, nd, tin, I, offsets)
        return name, src, ["P", "P", ik] + [ik] * nd + (["P"] if step == "flatten" else [])
    entry = _get(key, build)
    if step == "number":
        vals = [L._ptr, rank._ptr, out._ptr, n]
    else:
        vals = [inp._ptr, L._ptr, n] + list(inp.shape) + ([out._ptr] if step == "flatten"
                                                           else [])
    _launch(entry, n, vals)


# ---- per-label statistics ------------------------------------------------------------------------

STAT_BODIES = {
    # count, sum, min, max per bin
    "basic": "nd_aadd(&acc[4 * b], 1.0); nd_aadd(&acc[4 * b + 1], v); "
             "nd_amin(&acc[4 * b + 2], v); nd_amax(&acc[4 * b + 3], v);",
    # squared deviations from the bin's mean (aux[b])
    "centered": "const double e = v - aux[b]; nd_aadd(&acc[b], e * e);",
    # first raster position of the bin's min (aux[2b]) and max (aux[2b+1])
    "argext": "if (v == aux[2 * b]) nd_aminl(&pos[2 * b], i); "
              "if (v == aux[2 * b + 1]) nd_aminl(&pos[2 * b + 1], i);",
    # sum of v * coordinate per axis
    "moments": "{moments}",
    # histogram of `nbins` bins over [aux[0], aux[1]], the last bin closed as numpy's
    "hist": "if (v >= aux[0] && v <= aux[1]) {{ long long k = (long long)((v - aux[0]) / "
            "(aux[1] - aux[0]) * nbins); if (k >= nbins) k = nbins - 1; "
            "nd_aadd(&acc[b * nbins + k], 1.0); }}",
    # bounding boxes: min and max coordinate per axis (find_objects); b is label - 1
    "bbox": "{bbox}",
}


def stat_source(name, kind, nd, tin):
    sig = [f"const {tin}* __restrict__ in", "const int* __restrict__ bins",
           "double* __restrict__ acc", "const double* __restrict__ aux",
           "long long* __restrict__ pos", "const long long n", "const long long nbins"]
    sig += [f"const long long sh{d}" for d in range(nd)]
    body = STAT_BODIES[kind].format(
        moments=" ".join(f"nd_aadd(&acc[{nd} * b + {d}], v * (double)c{d});" for d in range(nd)),
        bbox=" ".join(f"nd_aminl(&pos[{2 * nd} * b + {d}], c{d}); "
                      f"nd_amaxl(&pos[{2 * nd} * b + {nd + d}], c{d});" for d in range(nd)))
    L = [PRELUDE, ATOMICS, f'extern "C" __global__ void {name}({", ".join(sig)}) {{',
         "  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; "
         "i += (long long)blockDim.x * gridDim.x) {",
         "    const long long b = bins[i];",
         "    if (b < 0) continue;",
         "    const double v = cuarray_cast<double>(in[i]); (void)v;"]
    if kind in ("moments", "bbox"):
        L += _coords(nd)
    L += [f"    {body}", "  }", "}"]
    return "\n".join(L) + "\n"


def run_stat(kind, inp, bins, acc=None, aux=None, pos=None, nbins=0):
    """One statistics pass over C-contiguous `inp` with its int32 bin per element."""
    n = inp.size
    if n == 0:
        return
    nd = max(inp.ndim, 1)
    key = ("stat", kind, nd, inp.dtype.char)

    def build():
        name = f"nd_stat_{kind}_{nd}d_{_code(inp.dtype)}"
        return name, stat_source(name, kind, nd, _dt.ctype(inp.dtype)), \
            ["P", "P", "P", "P", "P", "q", "q"] + ["q"] * nd
    entry = _get(key, build)
    shape = list(inp.shape) or [1]
    vals = [inp._ptr, bins._ptr, acc._ptr if acc is not None else 0,
            aux._ptr if aux is not None else 0, pos._ptr if pos is not None else 0, n,
            nbins] + shape
    _launch(entry, n, vals)
