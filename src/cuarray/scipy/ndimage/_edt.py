"""Exact Euclidean distance transform (cuarray version of
`scipy.ndimage.distance_transform_edt`).

A feature transform, separable as Felzenszwalb and Huttenlocher's, on an index field:
every element holds the flat index of its nearest background element found so far (-1:
none). After the passes over axes 0..k a feature shares every later coordinate with its
element, which is what makes each pass exact; distances and indices are computed from
the final features (as SciPy does), in the last pass itself.

Why it is fast. The per-line kernel this replaces gave each line one thread (2048 threads
for a 2048x2048 image) that walked its line twice through global memory, a memory
latency per step. Here every element has a thread, a 2048x2048 image costs three
launches, and the traffic is the mask (4 MB) once, the int32 field (16 MB) written once
and read once, and the outputs written once:

- Axis 0 (`first`): the background is f = 0, the rest infinite, so a line's lower envelope
  is just "nearest background before or after". Threads own bands of BAND elements of one
  line, and neighbouring threads neighbouring lines, so every load of the mask and store
  of the field is a coalesced row, and a band's loads are all issued before any is used.
  A band finds the background beyond its ends in a per-band summary (first and last
  background of each band, `bands`), so no thread reads more than its band and one
  summary per band of the line, even on a line without background.
- Later axes (`line`): a block owns a line. Its threads load the line coalesced into
  shared memory as parabola constants F(j) = f(j) + w j^2 (float where exact: 6 bytes a
  site, so the 2048 lines of a 2048x2048 image are resident on an H100 at once); each
  thread builds the lower envelope of its band of sites in parallel; the bands' envelopes
  merge pairwise in log2(threads) rounds, a merge testing sites of its right stack only
  until two of them stand (the rest is copied), so the serial path of a 2048-site line
  is a few dozen tests and a few hundred shared-memory copies; then every
  thread finds each of its outputs' parabola by binary search on the envelope and writes
  it coalesced: the next pass's field, or on the last axis the distances and indices.
  Lines longer than SHARED_MAX run the same algorithm in a global scratch buffer.
"""
import numpy

import cuarray
from cuarray._core._kernel_helpers import render
from cuarray._runtime import stream as _stream
from cuarray.scipy.ndimage._filter_kernels import PRELUDE, _get, _launch, index_type
from cuarray.scipy.ndimage._util import check_input, normalize_sequence

BAND = 32          # elements per thread along axis 0
SHARED_MAX = 4096  # longest line whose envelope lives in shared memory (10 bytes a site)
LINE_THREADS = 128
_SCRATCH_GRID = 1024


def _shape_params(ndim):
    """Kernel parameters: shape n<a>, C strides in elements s<a>, sampling r<a>, r<a>^2 w<a>."""
    return "".join(f", const I n{a}, const I s{a}, const double r{a}, const double w{a}"
                   for a in range(ndim))


def _coord(var, a):
    return f"(({var} / s{a}) % n{a})" if a else f"({var} / s{a})"


def _emit(ndim, ax, dist, ind):
    """C statements writing the outputs of element `p` (coordinate `q` on axis `ax`, the
    rest x<a>) whose nearest background `g` lies at `v` on axis `ax`."""
    lines = ["if (g < 0) {"]
    if dist:
        lines.append("  dist[p] = (D)cuarray_f64(0x7ff0000000000000ull);")
    if ind:
        lines += [f"  ind[{a}LL * total + p] = -1;" for a in range(ndim)]
    lines.append("} else {")
    for a in range(ax):
        lines.append(f"  const I g{a} = {_coord('g', a)};")
    if dist:
        lines.append("  double s2 = 0, d;")
        for a in range(ax + 1):
            diff = f"(double)(x{a} - g{a})" if a < ax else "(double)(q - v)"
            lines.append(f"  d = {diff} * r{a}; s2 += d * d;")
        lines.append("  dist[p] = (D)sqrt(s2);")
    if ind:
        for a in range(ndim):
            c = f"g{a}" if a < ax else ("v" if a == ax else f"x{a}")
            lines.append(f"  ind[{a}LL * total + p] = (int){c};")
    lines.append("}")
    return "\n".join("      " + s for s in lines)


def _line_coords(ndim, ax):
    return "\n".join(f"    const I x{a} = {_coord('base', a)};" for a in range(ndim) if a != ax)


def _outputs(last, dist, ind):
    return ("D* __restrict__ dist, int* __restrict__ ind, const long long total" if last
            else "I* __restrict__ out")


def _store(ndim, ax, last, dist, ind):
    if last:
        return _emit(ndim, ax, dist, ind)
    return "      out[p] = g;"


def bands_source(name, I):
    """First and last background of every band of BAND elements along axis 0."""
    return PRELUDE + render(r"""
typedef ${IT} I;
extern "C" __global__ void ${NAME}(const unsigned char* __restrict__ fg, I* __restrict__ first,
    I* __restrict__ last, const I len, const I inner, const I nb, const I items) {
  for (I t = (I)blockIdx.x * blockDim.x + threadIdx.x; t < items; t += (I)blockDim.x * gridDim.x) {
    const I i = t % inner, b = (t / inner) % nb, o = t / inner / nb;
    const unsigned char* x = fg + o * len * inner + i;
    // all ${BAND} loads issued before any is used: one memory latency per band
    bool bg[${BAND}];
    #pragma unroll
    for (int u = 0; u < ${BAND}; ++u) bg[u] = b * ${BAND} + u < len && !x[(b * ${BAND} + u) * inner];
    I f = -1, l = -1;
    #pragma unroll
    for (int u = ${BAND} - 1; u >= 0; --u)
      if (bg[u]) { if (l < 0) l = b * ${BAND} + u; f = b * ${BAND} + u; }
    first[t] = f;
    last[t] = l;
  }
}
""",
        NAME=name, IT=I, BAND=str(BAND))


def first_source(name, I, ndim, last, dist, ind, D):
    """Nearest background along axis 0 of the mask `fg` (nonzero: foreground)."""
    return PRELUDE + render(r"""
typedef ${IT} I;
typedef ${DT} D;
extern "C" __global__ void ${NAME}(const unsigned char* __restrict__ fg,
    const I* __restrict__ first, const I* __restrict__ lastbg, ${OUTPUTS},
    const I len, const I inner, const I nb, const I items ${SHAPE}) {
  for (I t = (I)blockIdx.x * blockDim.x + threadIdx.x; t < items; t += (I)blockDim.x * gridDim.x) {
    const I i = t % inner, b = (t / inner) % nb, o = t / inner / nb;
    const I base = o * len * inner + i;
${LINECOORDS}
    const unsigned char* x = fg + base;
    const I q0 = b * ${BAND};
    // the background before the band: the last one of the nearest earlier band with one
    // (summaries read four at a time: a line without background costs a quarter of the
    // latencies)
    I prev = -1;
    for (I c = b - 1; c >= 0 && prev < 0; c -= 4) {
      const I* y = lastbg + t - (b - c) * inner;
      const I v0 = y[0], v1 = c >= 1 ? y[-inner] : -1, v2 = c >= 2 ? y[-2 * inner] : -1,
              v3 = c >= 3 ? y[-3 * inner] : -1;
      prev = v0 >= 0 ? v0 : v1 >= 0 ? v1 : v2 >= 0 ? v2 : v3;
    }
    I left[${BAND}];
    #pragma unroll
    for (int u = 0; u < ${BAND}; ++u) {
      const I q = q0 + u;
      if (q < len) {
        if (!x[q * inner]) prev = q;
        left[u] = prev;
      }
    }
    I next = -1;
    for (I c = b + 1; c < nb && next < 0; c += 4) {
      const I* y = first + t + (c - b) * inner;
      const I v0 = y[0], v1 = c + 1 < nb ? y[inner] : -1, v2 = c + 2 < nb ? y[2 * inner] : -1,
              v3 = c + 3 < nb ? y[3 * inner] : -1;
      next = v0 >= 0 ? v0 : v1 >= 0 ? v1 : v2 >= 0 ? v2 : v3;
    }
    #pragma unroll
    for (int u = ${BAND} - 1; u >= 0; --u) {
      const I q = q0 + u;
      if (q >= len) continue;
      if (left[u] == q) next = q;
      I v = left[u];
      if (next >= 0 && (v < 0 || next - q < q - v)) v = next;
      const I p = base + q * inner;
      const I g = v < 0 ? (I)-1 : base + v * inner;
${STORE}
    }
  }
}
""",
        NAME=name, IT=I, DT=D, BAND=str(BAND), OUTPUTS=_outputs(last, dist, ind),
        SHAPE=_shape_params(ndim), LINECOORDS=_line_coords(ndim, 0),
        STORE=_store(ndim, 0, last, dist, ind))


def line_source(name, I, ndim, ax, last, dist, ind, D, lmax, FT="double"):
    """One envelope pass along axis `ax` > 0, a block per line; `lmax`: the shared-memory
    capacity in sites, 0 for the global scratch (gF, gV: L entries per block). FT: the
    type parabola constants are stored in (float where they are integers below 2^24, so
    exact: a block then needs 6 bytes a site and all lines of a 2048^2 image fit the
    GPU at once; the arithmetic stays double)."""
    shared = lmax > 0
    V = "unsigned short" if shared else "int"
    f_terms = " + ".join(f"w{a} * (double)(x{a} - {_coord('g', a)}) * (double)(x{a} - "
                         f"{_coord('g', a)})" for a in range(ax))
    storage = (f"  __shared__ FT sF[{lmax}];\n  __shared__ V sV[{lmax}];\n"
               "  FT* F = sF; V* sv = sV;") if shared else \
        "  FT* F = gF + (long long)blockIdx.x * len;\n  V* sv = gV + (long long)blockIdx.x * len;"
    return PRELUDE + render(r"""
typedef ${IT} I;
typedef ${DT} D;
typedef ${VT} V;
typedef ${FTYPE} FT;
// Is b still on the envelope of a < b < c? Parabola constants Fx = f(x) + w x^2: b's
// interval (a|b, b|c) is empty when b|c <= a|b, each crossing x|y = (Fy - Fx) / 2w(y - x).
__device__ __forceinline__ bool nd_keeps(int a, double Fa, int b, double Fb, int c, double Fc) {
  return (Fc - Fb) * (double)(b - a) > (Fb - Fa) * (double)(c - b);
}
// The envelope of the sites of stack A (sv[oa..oa+m)) and, all to its right, stack B
// (sv[ob..ob+nb), ob >= oa + m), written in place from oa; returns its size. B's sites
// are pushed in order, popping what they hide; writes never pass reads (the stack never
// outgrows the sites read), so it runs in place, the top two entries in registers. Once
// a B site is pushed without popping its predecessor, the rest of B follows unchanged
// (every triple of a stack passed nd_keeps when it was built) and is copied.
__device__ __forceinline__ int nd_merge(V* sv, const FT* F, const int oa, int m, const int ob,
                                        const int nb) {
  int a = 0, b = 0;
  double Fa = 0, Fb = 0;
  if (m >= 2) { a = sv[oa + m - 2]; Fa = F[a]; }
  if (m >= 1) { b = sv[oa + m - 1]; Fb = F[b]; }
  // the next site is loaded while the current one is tested
  int cn = nb > 0 ? (int)sv[ob] : 0;
  double Fn = nb > 0 ? (double)F[cn] : 0.0;
  for (int e = 0; e < nb; ++e) {
    const int c = cn;
    const double Fc = Fn;
    if (e + 1 < nb) { cn = sv[ob + e + 1]; Fn = F[cn]; }
    bool popped = false;
    while (m >= 2 && !nd_keeps(a, Fa, b, Fb, c, Fc)) {
      popped = true;
      --m; b = a; Fb = Fa;
      if (m >= 2) { a = sv[oa + m - 2]; Fa = F[a]; }
    }
    sv[oa + m++] = (V)c;
    a = b; Fa = Fb; b = c; Fb = Fc;
    if (e >= 1 && !popped) {
      // oa + m <= ob + r: four loads before their four stores never read a slot written
      int r = e + 1;
      for (; r + 4 <= nb; r += 4, m += 4) {
        const V v0 = sv[ob + r], v1 = sv[ob + r + 1], v2 = sv[ob + r + 2], v3 = sv[ob + r + 3];
        sv[oa + m] = v0; sv[oa + m + 1] = v1; sv[oa + m + 2] = v2; sv[oa + m + 3] = v3;
      }
      for (; r < nb; ++r) sv[oa + m++] = sv[ob + r];
      break;
    }
  }
  return m;
}
extern "C" __global__ void __launch_bounds__(${NT}, ${MINBLOCKS}) ${NAME}(const I* __restrict__ in, ${OUTPUTS},
    FT* __restrict__ gF, V* __restrict__ gV, const I nlines, const I len,
    const I inner ${SHAPE}) {
${STORAGE}
  __shared__ int cnt[${NT}];
  const int tid = threadIdx.x;
  const int S = (int)((len + ${NT} - 1) / ${NT});
  const double wl = ${wAX};
  for (I line = blockIdx.x; line < nlines; line += gridDim.x) {
    const I base = (line / inner) * len * inner + line % inner;
${LINECOORDS}
    // parabola constants of the line's sites; -1: no site
    for (int j = tid; j < len; j += ${NT}) {
      const I g = in[base + (I)j * inner];
      F[j] = (FT)(g < 0 ? -1.0 : ${FTERMS} + wl * (double)j * (double)j);
    }
    __syncthreads();
    // the lower envelope of this thread's band of sites, a stack at sv[b0...]
    const int b0 = tid * S, b1 = b0 + S < len ? b0 + S : (int)len;
    int n = 0;
    for (int c = b0; c < b1; ++c) {
      const double Fc = F[c];
      if (Fc < 0) continue;
      while (n >= 2 && !nd_keeps(sv[b0 + n - 2], F[sv[b0 + n - 2]], sv[b0 + n - 1],
                                 F[sv[b0 + n - 1]], c, Fc)) --n;
      sv[b0 + n++] = (V)c;
    }
    cnt[tid] = n;
    __syncthreads();
    // merge the bands' envelopes pairwise, log2(${NT}) rounds, each pair by one thread
    for (int w = 1; w < ${NT}; w <<= 1) {
      if ((tid & (2 * w - 1)) == 0 && tid + w < ${NT})
        cnt[tid] = nd_merge(sv, F, tid * S, cnt[tid], (tid + w) * S, cnt[tid + w]);
      __syncthreads();
    }
    const int m = cnt[0];
    int lo0 = 0;
    // a thread owns pairs of neighbouring outputs: the first's winner by binary search,
    // the second's a step or two further on (the stores still fill whole sectors in two)
    for (int j0 = 2 * tid; j0 < len; j0 += 2 * ${NT}) {
      #pragma unroll
      for (int u = 0; u < 2; ++u) {
        const int j = j0 + u;
        if (j >= len) break;
        // the winner k: cost_k(q) <= cost_k+1(q) first holds there (costs along the
        // envelope fall, then rise); cost_y - cost_x = Fy - Fx - 2 w q (y - x). Winners
        // never move left as q grows: the search starts at this thread's last one.
        const double q2 = 2.0 * wl * (double)j;
        int lo = lo0;
        if (u == 0) {
          int hi = m - 1;
          while (lo < hi) {
            const int mid = (lo + hi) >> 1;
            const int x0 = sv[mid], x1 = sv[mid + 1];
            if (F[x1] - F[x0] <= q2 * (double)(x1 - x0)) lo = mid + 1; else hi = mid;
          }
        } else {
          while (lo < m - 1) {
            const int x0 = sv[lo], x1 = sv[lo + 1];
            if (F[x1] - F[x0] <= q2 * (double)(x1 - x0)) ++lo; else break;
          }
        }
        lo0 = lo;
        const I q = j;
        const I v = m > 0 ? (I)sv[lo] : (I)-1;
        const I g = m > 0 ? in[base + v * inner] : (I)-1;
        const I p = base + q * inner;
${STORE}
      }
    }
    __syncthreads();
  }
}
""",
        NAME=name, IT=I, DT=D, VT=V, FTYPE=FT, MINBLOCKS=str(_resident(lmax, FT)),
        NT=str(_threads(lmax)), OUTPUTS=_outputs(last, dist, ind), SHAPE=_shape_params(ndim),
        STORAGE=storage, LINECOORDS=_line_coords(ndim, ax), wAX=f"w{ax}",
        FTERMS=f"({f_terms})", STORE=_store(ndim, ax, last, dist, ind))


def _threads(lmax):
    return LINE_THREADS if lmax == 0 else min(LINE_THREADS, lmax)


def _resident(lmax, FT):
    """Blocks of the line kernel an SM (2048 threads, 32 blocks, 227 KB of shared memory)
    holds, given to ptxas: without it, 40-46 registers left room for 11-12 blocks where shared
    memory holds 16 (ptxas then spills 16 bytes at 32 registers: one wave of a 2048x2048
    image's lines instead of two)."""
    if lmax == 0:
        return 1
    nt = _threads(lmax)
    smem = lmax * ((4 if FT == "float" else 8) + 2) + 4 * nt + 1024
    return max(1, min(2048 // nt, 32, 227 * 1024 // smem))


def _shape_values(shape, sampling):
    vals, stride = [], [1] * len(shape)
    for a in range(len(shape) - 2, -1, -1):
        stride[a] = stride[a + 1] * shape[a + 1]
    for a, n in enumerate(shape):
        vals += [n, stride[a], sampling[a], sampling[a] ** 2]
    return vals


def _kinds(ndim, I):
    return [I, I, "d", "d"] * ndim


def _feature_passes(fg, shape, sampling, dist, ind):
    """Run every pass; the last writes `dist` and/or `ind` (C-contiguous, or None)."""
    ndim, n = len(shape), fg.size
    I, ik = ("int", "i") if index_type(n * 2) == "int" else ("long long", "q")
    fdt = numpy.int32 if ik == "i" else numpy.int64
    D = "float" if dist is not None and dist.dtype == numpy.float32 else "double"
    flags = (dist is not None, ind is not None)
    shp = _shape_values(shape, sampling)
    # unit sampling: every parabola constant f + j^2 is an integer, exact in float below 2^24
    exact_float = all(s == 1.0 for s in sampling) and sum((k - 1) ** 2 for k in shape) < 1 << 24
    outs = [dist._ptr if dist is not None else 0, ind._ptr if ind is not None else 0, n]

    length, inner = shape[0], n // shape[0]
    nb = -(-length // BAND)
    items = nb * inner
    first = last = None
    if nb > 1:
        first = cuarray.empty(items, dtype=fdt)
        last = cuarray.empty(items, dtype=fdt)
        entry = _get(("edt_bands", I), lambda: (
            "nd_edt_bands", bands_source("nd_edt_bands", I), ["P", "P", "P", ik, ik, ik, ik]))
        _launch(entry, items, [fg._ptr, first._ptr, last._ptr, length, inner, nb, items])
    only = ndim == 1
    field = None if only else cuarray.empty(shape, dtype=fdt)
    fflags, fD = (flags, D) if only else ((False, False), "double")   # outputs unused
    entry = _get(("edt_first", I, fD, ndim, only) + fflags, lambda: (
        "nd_edt_first", first_source("nd_edt_first", I, ndim, only, *fflags, fD),
        ["P", "P", "P"] + (["P", "P", "q"] if only else ["P"]) + [ik] * 4 + _kinds(ndim, ik)))
    _launch(entry, items, [fg._ptr, first._ptr if first is not None else 0,
                           last._ptr if last is not None else 0]
            + (outs if only else [field._ptr]) + [length, inner, nb, items] + shp)

    for ax in range(1, ndim):
        length = shape[ax]
        inner = 1
        for s in shape[ax + 1:]:
            inner *= s
        nlines = n // length
        is_last = ax == ndim - 1
        lmax = 0 if length > SHARED_MAX else max(32, 1 << (length - 1).bit_length())
        FT = "float" if exact_float else "double"
        threads = _threads(lmax)
        grid = min(nlines, _SCRATCH_GRID if lmax == 0 else 1 << 20)
        gF = gV = None
        if lmax == 0:
            gF = cuarray.empty(grid * length,
                               dtype=numpy.float32 if exact_float else numpy.float64)
            gV = cuarray.empty(grid * length, dtype=numpy.int32)
        nxt = None if is_last else cuarray.empty(shape, dtype=fdt)
        entry = _get(("edt_line", I, D, ndim, ax, is_last, lmax, FT) + flags, lambda: (
            "nd_edt_line", line_source("nd_edt_line", I, ndim, ax, is_last, *flags, D, lmax, FT),
            ["P"] + (["P", "P", "q"] if is_last else ["P"]) + ["P", "P", ik, ik, ik]
            + _kinds(ndim, ik)))
        fn, packer = entry
        fn.launch1d(grid, threads, packer.pack(
            [field._ptr] + (outs if is_last else [nxt._ptr])
            + [gF._ptr if gF is not None else 0, gV._ptr if gV is not None else 0,
               nlines, length, inner] + shp), _stream.current_stream_ptr())
        field = nxt


def distance_transform_edt(input, sampling=None, return_distances=True, return_indices=False,
                           distances=None, indices=None, *, block_params=None,
                           float64_distances=True):
    """cuarray version of `scipy.ndimage.distance_transform_edt`.

    As CuPy's: `float64_distances=False` gives float32 distances; `block_params` (a
    tuning parameter of CuPy's algorithm) is accepted and has no effect. Ties between
    equally near background elements may pick a different one than SciPy's; without any
    background, distances are infinite and indices -1.
    """
    ft_inplace = isinstance(indices, cuarray.ndarray)
    dt_inplace = isinstance(distances, cuarray.ndarray)
    if not return_distances and not return_indices:
        raise RuntimeError("at least one of return_distances/return_indices must be True")
    input = check_input(input, complex_ok=False)
    if input.ndim == 0:
        input = input.reshape(1)
    shape = input.shape
    ndim = input.ndim
    ddt = numpy.float64 if float64_distances else numpy.float32
    if dt_inplace:
        if distances.shape != shape:
            raise RuntimeError("distances array has wrong shape")
        if distances.dtype != ddt:
            raise RuntimeError(f"distances array must be {numpy.dtype(ddt).name}")
    if ft_inplace:
        if indices.shape != (ndim,) + shape:
            raise RuntimeError("indices array has wrong shape")
        if indices.dtype != numpy.int32:
            raise RuntimeError("indices array must be int32")
    sampling = [1.0] * ndim if sampling is None else \
        [float(s) for s in normalize_sequence(sampling, ndim, "sampling")]
    dist = ind = None
    if return_distances:
        dist = distances if dt_inplace and distances.flags.c_contiguous else \
            cuarray.empty(shape, dtype=ddt)
    if return_indices:
        ind = indices if ft_inplace and indices.flags.c_contiguous else \
            cuarray.empty((ndim,) + shape, dtype=numpy.int32)
    if input.size:
        fg = input if input.dtype == numpy.bool_ and input.flags.c_contiguous else input != 0
        if not fg.flags.c_contiguous:
            fg = cuarray.ascontiguousarray(fg)
        _feature_passes(fg, shape, sampling, dist, ind)
    result = []
    for wanted, inplace, got, given in ((return_distances, dt_inplace, dist, distances),
                                        (return_indices, ft_inplace, ind, indices)):
        if wanted and not inplace:
            result.append(got)
        elif wanted and got is not given:
            given[...] = got
    if len(result) == 2:
        return tuple(result)
    if len(result) == 1:
        return result[0]
    return None
