"""Convolution and correlation (cuarray version of the convolution part of
`scipy.signal`): a direct N-d kernel, FFT convolution on cuFFT and overlap-add."""
import functools
import math

import numpy

import cuarray
from cuarray._core.host_policy import not_device_error
from cuarray._core.elementwise import Op, Param
from cuarray._core.ndarray import ndarray
from cuarray._runtime.memory import memset_zero
from cuarray.scipy import fft as _fft
from cuarray.scipy.signal import _kernels as _k

__all__ = ["convolve", "correlate", "fftconvolve", "oaconvolve", "convolve2d", "correlate2d",
           "choose_conv_method", "correlation_lags"]

_MODES = ("full", "valid", "same")

# out[o] = sum_m x[o + start - kc(m)] * k[m] over the kernel's flat index m, zero outside x.
_DIRECT = r"""
struct Meta { long long v[{NMETA}]; };
extern "C" __global__ void conv_direct(const {T}* x, const {T}* k, {T}* out, Meta m,
                                       long long nout, long long nk) {
  const long long* xs = m.v;             // input shape
  const long long* ks = m.v + {NDIM};    // kernel shape
  const long long* os = m.v + 2 * {NDIM};  // output shape
  const long long* st = m.v + 3 * {NDIM};  // output origin in full coordinates
  for (long long o = (long long)blockIdx.x * blockDim.x + threadIdx.x; o < nout;
       o += (long long)gridDim.x * blockDim.x) {
    long long oc[{NDIM}];
    long long r = o;
    for (int d = {NDIM} - 1; d >= 0; --d) { oc[d] = r % os[d] + st[d]; r /= os[d]; }
    {T} acc = {T}(0);
    for (long long j = 0; j < nk; ++j) {
      long long rj = j, xi = 0, mul = 1;
      bool inside = true;
      for (int d = {NDIM} - 1; d >= 0; --d) {
        const long long c = oc[d] - rj % ks[d];
        rj /= ks[d];
        if (c < 0 || c >= xs[d]) { inside = false; break; }
        xi += c * mul; mul *= xs[d];
      }
      if (inside) acc += x[xi] * k[j];
    }
    out[o] = acc;
  }
}
"""


# Overlap-add. Block b of a row is x[b*step : b*step+step] followed by zeros up to the
# FFT length L (no padded copy of x, no memset). Grid: x over (row, block), y over tiles
# of TILE samples, so that short rows of long blocks still fill the GPU.
_TILE = 1024
_OA_FRAME = r"""
extern "C" __global__ void oa_frame(const {T}* x, {T}* blocks, long long n, long long step,
                                    long long L, long long nblocks) {
  const long long rb = blockIdx.x;
  const long long r = rb / nblocks, b = rb - r * nblocks;
  const {T}* src = x + r * n + b * step;
  const long long avail = n - b * step < step ? n - b * step : step;
  {T}* dst = blocks + rb * L;
  const long long end = ((long long)blockIdx.y + 1) * {TILE} < L ? ((long long)blockIdx.y + 1) * {TILE} : L;
  for (long long j = (long long)blockIdx.y * {TILE} + threadIdx.x; j < end; j += blockDim.x)
    dst[j] = j < avail ? src[j] : {T}(0);
}
"""

# Output chunk c (of `step` samples) sums block c at j, block c-1 at j + step, ... while
# the offset stays inside a block (any overlap, even one longer than the step).
_OA_ADD = r"""
extern "C" __global__ void oa_add(const {T}* y, {T}* out, long long nout, long long step,
                                  long long L, long long nblocks, long long nchunks) {
  const long long rc = blockIdx.x;
  const long long r = rc / nchunks, c = rc - r * nchunks;
  const {T}* yr = y + r * nblocks * L;
  {T}* o = out + r * nout;
  const long long end = ((long long)blockIdx.y + 1) * {TILE} < step ? ((long long)blockIdx.y + 1) * {TILE} : step;
  for (long long j = (long long)blockIdx.y * {TILE} + threadIdx.x; j < end; j += blockDim.x) {
    const long long i = c * step + j;
    if (i >= nout) break;
    {T} acc = {T}(0);
    for (long long q = 0; q <= c && j + q * step < L; ++q)
      if (c - q < nblocks) acc += yr[(c - q) * L + j + q * step];
    o[i] = acc;
  }
}
"""
_spec_ops = {}


def _spec_mul_op(dtype):
    op = _spec_ops.get(dtype.char)
    if op is None:
        real = numpy.dtype(dtype.char.lower())
        op = _spec_ops[dtype.char] = Op(
            f"cuarray_signal_spec_mul_{dtype.char}",
            [Param("a", "in", dtype), Param("b", "in", dtype), Param("s", "scalar", real),
             Param("y", "out", dtype)], "y = a * b * s;")
    return op


def _spec_mul(a, b, scale):
    """a = a * b * scale in place (spectra; b broadcasts against a): the product of the two
    transforms and the inverse transform's 1/n in one pass."""
    _spec_mul_op(a.dtype).launch((a, b, numpy.dtype(a.dtype.char.lower()).type(scale), a))
    return a


def _padded(x, n):
    """The 1-D contiguous x followed by zeros up to length n: one copy, one memset."""
    buf = cuarray.empty(n, x.dtype)
    m = x.shape[0]
    buf[:m] = x
    if n > m:
        memset_zero(buf._ptr + m * x.dtype.itemsize, (n - m) * x.dtype.itemsize)
    return buf


def _check_arrays(name, *arrs):
    for a in arrs:
        if not isinstance(a, ndarray):
            raise not_device_error(name, a, "cuarray.scipy.signal.")


def _check_mode(mode):
    if mode not in _MODES:
        raise ValueError("acceptable mode flags are 'valid', 'same', or 'full'")


def _inputs_swap_needed(mode, s1, s2, axes=None):
    if mode != "valid":
        return False
    if not s1:
        return False
    if axes is None:
        axes = range(len(s1))
    ok1 = all(s1[i] >= s2[i] for i in axes)
    ok2 = all(s2[i] >= s1[i] for i in axes)
    if not (ok1 or ok2):
        raise ValueError("For 'valid' mode, one must be at least as large as the other in "
                         "every dimension")
    return not ok1


def _direct(in1, in2, mode, dtype):
    """Direct N-d convolution of two same-rank arrays in `dtype` (mode already checked)."""
    if _inputs_swap_needed(mode, in1.shape, in2.shape):
        in1, in2 = in2, in1  # convolution commutes; 'valid' needs the larger one first
    s1, s2 = in1.shape, in2.shape
    full = [a + b - 1 for a, b in zip(s1, s2)]
    if mode == "full":
        oshape, start = full, [0] * len(full)
    elif mode == "same":
        oshape, start = list(s1), [(b - 1) // 2 for b in s2]
    else:
        oshape = [a - b + 1 for a, b in zip(s1, s2)]
        start = [b - 1 for b in s2]
    x = cuarray.ascontiguousarray(in1.astype(dtype, copy=False))
    k = cuarray.ascontiguousarray(in2.astype(dtype, copy=False))
    out = cuarray.empty(tuple(oshape), dtype)
    nd = max(in1.ndim, 1)
    s1, s2 = (list(s1) or [1]), (list(s2) or [1])
    m, n = _k.meta(s1 + s2 + (oshape or [1]) + (start or [0]))
    kern = _k.kernel(_DIRECT, "conv_direct", T=_k.ctype(dtype), NDIM=nd, NMETA=n)
    _k.launch(kern, out.size, (x, k, out, m, out.size, k.size))
    return out


def _result_dtype(in1, in2):
    return numpy.result_type(in1.dtype, in2.dtype)


def _prepare(name, in1, in2, mode):
    _check_arrays(name, in1, in2)
    _check_mode(mode)
    if in1.ndim != in2.ndim:
        raise ValueError("in1 and in2 should have the same dimensionality")


def choose_conv_method(in1, in2, mode="full", measure=False):
    """cuarray version of `scipy.signal.choose_conv_method`.

    The choice is made for the GPU: 'direct' for integer and boolean inputs (exact) and
    for small products, 'fft' when the direct method's work clearly exceeds the FFT's.
    `measure=True` is not supported (ValueError)."""
    _prepare("choose_conv_method", in1, in2, mode)
    if measure:
        raise ValueError("cuarray.scipy.signal.choose_conv_method: measure=True is not "
                         "supported; time the two methods with cuarray.profiler.benchmark")
    if in1.dtype.kind not in "fc" and in2.dtype.kind not in "fc":
        return "direct"
    if in1.dtype.kind in "biu" and in2.dtype.kind in "biu":
        return "direct"
    out = [a + b - 1 for a, b in zip(in1.shape, in2.shape)]
    nout = math.prod(out) if mode == "full" else (
        in1.size if mode == "same" else
        math.prod(abs(a - b) + 1 for a, b in zip(in1.shape, in2.shape)))
    direct_ops = nout * min(in1.size, in2.size)
    fft_ops = 3 * math.prod(out) * math.log2(max(math.prod(out), 2))
    # A direct multiply-add costs about a quarter of an FFT butterfly here (memory-bound
    # transforms, compute-bound direct loop); small problems stay direct.
    return "fft" if direct_ops > 4 * fft_ops and direct_ops > (1 << 16) else "direct"


def convolve(in1, in2, mode="full", method="auto"):
    """cuarray version of `scipy.signal.convolve`."""
    _prepare("convolve", in1, in2, mode)
    if in1.ndim == 0:
        return in1 * in2
    if in1.size == 0 or in2.size == 0:
        return cuarray.zeros(0)
    if method not in ("auto", "direct", "fft"):
        raise ValueError("Acceptable method flags are 'auto', 'direct', or 'fft'.")
    if method == "auto":
        method = choose_conv_method(in1, in2, mode)
    dtype = _result_dtype(in1, in2)
    if method == "fft":
        out = fftconvolve(in1, in2, mode)
        if dtype.kind in "ui":
            out = cuarray.around(out)
        return out.astype(dtype, copy=False)
    return _direct(in1, in2, mode, dtype)


def _reverse_conj(x):
    r = x[(slice(None, None, -1),) * x.ndim]
    return cuarray.conj(r) if x.dtype.kind == "c" else r


def correlate(in1, in2, mode="full", method="auto"):
    """cuarray version of `scipy.signal.correlate`."""
    _prepare("correlate", in1, in2, mode)
    if in1.ndim == 0:
        return in1 * in2.conj()
    if in1.size == 0 or in2.size == 0:
        return cuarray.zeros(0)
    if method not in ("auto", "direct", "fft"):
        raise ValueError("Acceptable method flags are 'auto', 'direct', or 'fft'.")
    return convolve(in1, _reverse_conj(in2), mode, method)


def _freq_axes(in1, in2, mode, axes):
    s1, s2 = in1.shape, in2.shape
    noaxes = axes is None
    if noaxes:
        axes = list(range(in1.ndim))
    else:
        axes = [axes] if numpy.ndim(axes) == 0 else list(axes)
        if not axes:
            raise ValueError("when provided, axes cannot be empty")
        norm = []
        for a in axes:
            a = int(a)
            if a < -in1.ndim or a >= in1.ndim:
                raise ValueError("axes exceeds dimensionality of input")
            norm.append(a % in1.ndim)
        if len(set(norm)) != len(norm):
            raise ValueError("all axes must be unique")
        axes = norm
    axes = [a for a in axes if s1[a] != 1 and s2[a] != 1]
    axes.sort()
    if not all(s1[a] == s2[a] or s1[a] == 1 or s2[a] == 1
               for a in range(in1.ndim) if a not in axes):
        raise ValueError(f"incompatible shapes for in1 and in2: {s1} and {s2}")
    if _inputs_swap_needed(mode, s1, s2, axes=axes):
        in1, in2 = in2, in1
    return in1, in2, axes


def _centered(arr, newshape):
    sl = []
    for cur, new in zip(arr.shape, newshape):
        start = (cur - new) // 2
        sl.append(slice(start, start + new))
    return arr[tuple(sl)]


def _apply_conv_mode(ret, s1, s2, mode, axes):
    if mode == "full":
        return ret
    if mode == "same":
        return _centered(ret, s1)
    shape_valid = [ret.shape[a] if a not in axes else s1[a] - s2[a] + 1
                   for a in range(ret.ndim)]
    return _centered(ret, shape_valid)


def _freq_conv(in1, in2, axes, shape):
    if not axes:
        return in1 * in2
    complex_result = in1.dtype.kind == "c" or in2.dtype.kind == "c"
    fshape = [_fft.next_fast_len(shape[a], not complex_result) for a in axes]
    if not complex_result:
        sp = _fft.rfftn(in1, fshape, axes=axes) * _fft.rfftn(in2, fshape, axes=axes)
        ret = _fft.irfftn(sp, fshape, axes=axes)
    else:
        ret = _fft.ifftn(_fft.fftn(in1, fshape, axes=axes) * _fft.fftn(in2, fshape, axes=axes),
                         axes=axes)
    return ret[tuple(slice(0, shape[a]) if a in axes else slice(None)
                     for a in range(ret.ndim))]


def _fft_inputs(in1, in2):
    # SciPy computes integer and boolean inputs in float64; float32 stays float32.
    dt = numpy.result_type(in1.dtype, in2.dtype, numpy.float32)
    if in1.dtype.kind in "biu" and in2.dtype.kind in "biu":
        dt = numpy.dtype(numpy.float64)
    return in1.astype(dt, copy=False), in2.astype(dt, copy=False)


def fftconvolve(in1, in2, mode="full", axes=None):
    """cuarray version of `scipy.signal.fftconvolve`."""
    _prepare("fftconvolve", in1, in2, mode)
    if in1.ndim == 0:
        return in1 * in2
    if in1.size == 0 or in2.size == 0:
        return cuarray.zeros(0)
    in1, in2, axes = _freq_axes(in1, in2, mode, axes)
    in1, in2 = _fft_inputs(in1, in2)
    s1, s2 = in1.shape, in2.shape
    if in1.ndim == 1 and axes == [0]:
        ret = _fftconv_1d(in1, in2)
    else:
        shape = [max(s1[i], s2[i]) if i not in axes else s1[i] + s2[i] - 1
                 for i in range(in1.ndim)]
        ret = _freq_conv(in1, in2, axes, shape)
    return _apply_conv_mode(ret, s1, s2, mode, axes)


def _fftconv_1d(a, b):
    """Full convolution of two 1-D arrays by FFTs.

    When one is much shorter, overlap-add (SciPy's block length for oaconvolve): the
    same convolution from transforms of short blocks, which cost fewer passes over memory
    than one transform of the whole length, and the short input's transform is one block
    long. Otherwise, for real inputs, each padded by one copy and one memset of its tail,
    two R2C, the product scaled by 1/L in place, one C2R on that buffer."""
    oa = _calc_oa_lens(a.shape[0], b.shape[0]) if OA_IN_FFTCONVOLVE else None
    if oa is not None:
        long_, short = (a, b) if a.shape[0] >= b.shape[0] else (b, a)
        return _overlap_add_rows(long_, short, 0, oa[0], oa[1])
    if a.dtype.kind == "c":
        return _freq_conv(a, b, [0], [a.shape[0] + b.shape[0] - 1])
    full = a.shape[0] + b.shape[0] - 1
    L = _fft.next_fast_len(full, True)
    sp = _fft.rfft(_padded(a, L))
    _spec_mul(sp, _fft.rfft(_padded(b, L)), 1.0 / L)
    return _fft.irfft(sp, L, norm="forward", overwrite_x=True)[:full]


def _lambertw_m1(z):
    """The k=-1 branch of Lambert's W for -1/e < z < 0 (a host scalar), by Halley's
    iteration from the branch's asymptotic start."""
    L1 = math.log(-z)
    w = L1 - math.log(-L1)
    for _ in range(50):
        ew = math.exp(w)
        f = w * ew - z
        wn = w - f / (ew * (w + 1) - (w + 2) * f / (2 * w + 2))
        if abs(wn - w) <= 1e-15 * abs(wn):
            return wn
        w = wn
    return w


# Overlap-add's block length: "scipy" is SciPy's optimum (fewest operations) rounded up to
# a 2-3-5-7 length; "pow2" the nearest power of two (at least twice the overlap), which
# cuFFT may run in fewer passes. fftconvolve of a long signal with a much shorter one runs
# as overlap-add unless OA_IN_FFTCONVOLVE is False. Benchmark rows compare the settings: on
# an H100, power-of-two blocks took 0.36 ms against 0.59 for oaconvolve of 2^24 by 511 and
# 0.29 against 0.33 for fftconvolve of 2^22 by 2^12 (CuPy: 0.77 and 0.35).
OA_BLOCKS = "pow2"
OA_IN_FFTCONVOLVE = True


def _calc_oa_lens(s1, s2):
    """(block size, overlap, in1 step, in2 step) of overlap-add along one axis; None for a
    plain FFT convolution."""
    return _oa_lens(s1, s2, OA_BLOCKS)


@functools.lru_cache(maxsize=256)
def _oa_lens(s1, s2, blocks):
    if s1 == s2 or s1 == 1 or s2 == 1:
        return None
    swapped = s2 > s1
    if swapped:
        s1, s2 = s2, s1
    if s2 >= s1 / 2:
        return None
    overlap = s2 - 1
    opt_size = -overlap * _lambertw_m1(-1 / (2 * math.e * overlap)) if overlap else s2
    if blocks == "pow2":
        block = 1 << max(1, round(math.log2(opt_size)))
        while block < 2 * overlap + 2:
            block <<= 1
    else:
        block = _fft.next_fast_len(math.ceil(opt_size))
    if block >= s1:
        return None
    step1, step2 = (block - s2 + 1, s2) if not swapped else (s2, block - s2 + 1)
    return block, overlap, step1, step2


def oaconvolve(in1, in2, mode="full", axes=None):
    """cuarray version of `scipy.signal.oaconvolve` (overlap-add along one axis; inputs
    that need blocking along several axes are convolved in one FFT, same values)."""
    _prepare("oaconvolve", in1, in2, mode)
    if in1.ndim == 0:
        return in1 * in2
    if in1.size == 0 or in2.size == 0:
        return cuarray.zeros(0)
    if in1.shape == in2.shape:
        return fftconvolve(in1, in2, mode=mode, axes=axes)
    in1, in2, axes = _freq_axes(in1, in2, mode, axes)
    in1, in2 = _fft_inputs(in1, in2)
    s1, s2 = in1.shape, in2.shape
    if not axes:
        return _apply_conv_mode(in1 * in2, s1, s2, mode, axes)
    plans = {a: _calc_oa_lens(s1[a], s2[a]) for a in axes}
    blocked = [a for a in axes if plans[a] is not None]
    if len(blocked) != 1:
        shape = [max(s1[i], s2[i]) if i not in axes else s1[i] + s2[i] - 1
                 for i in range(in1.ndim)]
        return _apply_conv_mode(_freq_conv(in1, in2, axes, shape), s1, s2, mode, axes)
    ax = blocked[0]
    block, overlap = plans[ax][:2]
    long_, short = (in1, in2) if s1[ax] >= s2[ax] else (in2, in1)
    other = [a for a in axes if a != ax]
    rest = [a for a in range(long_.ndim) if a != ax]
    if not other and (all(short.shape[a] == 1 for a in rest) or
                      all(short.shape[a] == long_.shape[a] for a in rest)):
        ret = _overlap_add_rows(long_, short, ax, block, overlap)
    else:
        ret = _overlap_add(long_, short, ax, block, overlap, other)
    return _apply_conv_mode(ret, s1, s2, mode, axes)


def _overlap_add_rows(x, h, ax, L, overlap):
    """Full convolution along `ax` only (the other axes are rows: h's are 1 or x's).

    One kernel cuts x into zero-padded blocks, one batched transform for all blocks, the
    product with h's transform (scaled by 1/L) in place, one batched inverse on that
    buffer, one kernel adding the blocks' overlaps into the result."""
    n, k = x.shape[ax], h.shape[ax]
    step = L - overlap
    nblocks = -(-n // step)
    last = ax == x.ndim - 1
    xm = cuarray.ascontiguousarray(x if last else cuarray.moveaxis(x, ax, -1))
    hm = h if last else cuarray.moveaxis(h, ax, -1)
    lead = xm.shape[:-1]
    rows = math.prod(lead)
    hrows = math.prod(hm.shape[:-1])
    dt = xm.dtype
    ctype = _k.ctype(dt)
    blocks = cuarray.empty((rows * nblocks, L), dt)
    if blocks.size:
        kern = _k.kernel(_OA_FRAME, "oa_frame", T=ctype, TILE=_TILE)
        kern((rows * nblocks, -(-L // _TILE)), (_k.BLOCK,), (xm, blocks, n, step, L, nblocks))
    hp = cuarray.zeros((hrows, L), dt)
    hp[:, :k] = hm.reshape(hrows, k)
    real = dt.kind != "c"
    fwd, inv = (_fft.rfft, _fft.irfft) if real else (_fft.fft, _fft.ifft)
    spec = fwd(blocks).reshape(rows, nblocks, -1)
    _spec_mul(spec, fwd(hp).reshape(hrows, 1, -1), 1.0 / L)
    spec = spec.reshape(rows * nblocks, -1)
    y = inv(spec, L, norm="forward", overwrite_x=True)
    nout = n + k - 1
    out = cuarray.empty(lead + (nout,), dt)
    nchunks = -(-nout // step)
    if out.size:
        kern = _k.kernel(_OA_ADD, "oa_add", T=ctype, TILE=_TILE)
        kern((rows * nchunks, -(-step // _TILE)), (_k.BLOCK,),
             (cuarray.ascontiguousarray(y), out, nout, step, L, nblocks, nchunks))
    return out if last else cuarray.moveaxis(out, -1, ax)


def _overlap_add(x, h, ax, block, overlap, other_axes):
    """Full convolution of x (long along `ax`) and h, blocking x along `ax`."""
    n, k = x.shape[ax], h.shape[ax]
    step = block - overlap
    nblocks = -(-n // step)
    x = cuarray.moveaxis(x, ax, -1)
    h = cuarray.moveaxis(h, ax, -1)
    oth = [a if a < ax else a - 1 for a in other_axes]  # positions once ax moved last
    pad = nblocks * step - n
    if pad:
        x = cuarray.pad(x, [(0, 0)] * (x.ndim - 1) + [(0, pad)])
    xb = x.reshape(x.shape[:-1] + (nblocks, step))
    hb = h.reshape(h.shape[:-1] + (1, k))
    fax = oth + [xb.ndim - 1]
    shape_o = {a: xb.shape[a] + hb.shape[a] - 1 for a in oth}
    complex_result = xb.dtype.kind == "c" or hb.dtype.kind == "c"
    fsh = [_fft.next_fast_len(shape_o[a], not complex_result) for a in oth] + [block]
    if complex_result:
        yb = _fft.ifftn(_fft.fftn(xb, fsh, axes=fax) * _fft.fftn(hb, fsh, axes=fax), axes=fax)
    else:
        yb = _fft.irfftn(_fft.rfftn(xb, fsh, axes=fax) * _fft.rfftn(hb, fsh, axes=fax), fsh,
                         axes=fax)
    yb = yb[tuple(slice(0, shape_o[a]) if a in shape_o else slice(None)
                  for a in range(yb.ndim))]
    # Each block's tail of `overlap` samples lands on the next block's head: added in
    # place (the regions are disjoint when overlap <= step), then the blocks' first
    # `step` samples and the last tail are laid end to end.
    if overlap and nblocks > 1:
        if overlap <= step:
            yb[..., 1:, :overlap] += yb[..., :-1, step:]
        else:
            for b in range(1, nblocks):
                yb[..., b, :overlap] += yb[..., b - 1, step:]
    lead = yb.shape[:-2]
    body = yb[..., :step].reshape(lead + (nblocks * step,))
    out = cuarray.concatenate((body, yb[..., -1, step:]), axis=-1) if overlap else body
    out = out[..., :n + k - 1]
    return cuarray.moveaxis(out, -1, ax)


def correlation_lags(in1_len, in2_len, mode="full"):
    """cuarray version of `scipy.signal.correlation_lags`."""
    if mode == "full":
        return cuarray.arange(-in2_len + 1, in1_len)
    if mode == "same":
        lags = numpy.arange(-in2_len + 1, in1_len)
        mid = lags.size // 2
        bound = in1_len // 2
        lo, hi = mid - bound, mid + bound + (in1_len % 2)
        return cuarray.arange(int(lags[lo]), int(lags[lo]) + (hi - lo))
    if mode == "valid":
        bound = in1_len - in2_len
        return cuarray.arange(bound + 1) if bound >= 0 else cuarray.arange(bound, 1)
    raise ValueError(f"Mode {mode} is invalid")


_BOUNDARY = {"fill": "constant", "pad": "constant", "wrap": "wrap", "circular": "wrap",
             "symm": "symmetric", "symmetric": "symmetric"}


def _conv2d(in1, in2, mode, boundary, fillvalue, name):
    _check_arrays(name, in1, in2)
    if in1.ndim != 2 or in2.ndim != 2:
        raise ValueError(f"{name} inputs must both be 2-D arrays")
    _check_mode(mode)
    if boundary not in _BOUNDARY:
        raise ValueError("Acceptable boundary flags are 'fill', 'circular' (or 'wrap'), and "
                         "'symmetric' (or 'symm').")
    if numpy.ndim(fillvalue) != 0:
        raise ValueError("fillvalue must be scalar or an array with one element.")
    dtype = _result_dtype(in1, in2)
    if in1.size == 0 or in2.size == 0:
        return cuarray.zeros((0, 0), dtype)
    if mode == "valid":
        return _direct(in1, in2, "valid", dtype)
    kr, kc = in2.shape
    kind = _BOUNDARY[boundary]
    if kind == "constant" and fillvalue == 0:
        return _direct(in1, in2, mode, dtype)
    kw = {"constant_values": fillvalue} if kind == "constant" else {}
    xp = cuarray.pad(in1.astype(dtype, copy=False), [(kr - 1, kr - 1), (kc - 1, kc - 1)],
                     mode=kind, **kw)
    full = _direct(xp, in2, "valid", dtype)
    if mode == "same":
        full = full[(kr - 1) // 2:(kr - 1) // 2 + in1.shape[0],
                    (kc - 1) // 2:(kc - 1) // 2 + in1.shape[1]]
    return full


def convolve2d(in1, in2, mode="full", boundary="fill", fillvalue=0):
    """cuarray version of `scipy.signal.convolve2d`."""
    return _conv2d(in1, in2, mode, boundary, fillvalue, "convolve2d")


def correlate2d(in1, in2, mode="full", boundary="fill", fillvalue=0):
    """cuarray version of `scipy.signal.correlate2d`."""
    _check_arrays("correlate2d", in1, in2)
    swap = in1.ndim == 2 and in2.ndim == 2 and mode == "valid" and \
        _inputs_swap_needed(mode, in1.shape, in2.shape)
    if swap:
        # SciPy correlates the swapped pair and reverses the result (no conjugation).
        out = _conv2d(in2, _reverse_conj(in1), mode, boundary, fillvalue, "correlate2d")
        return out[::-1, ::-1]
    rev = _reverse_conj(in2) if in2.ndim == 2 else in2
    if mode != "same" or in1.ndim != 2 or in2.ndim != 2 or in1.size == 0 or in2.size == 0:
        return _conv2d(in1, rev, mode, boundary, fillvalue, "correlate2d")
    # 'same' keeps SciPy's origin for correlation: the full result from k // 2 on.
    full = _conv2d(in1, rev, "full", boundary, fillvalue, "correlate2d")
    r, c = in2.shape[0] // 2, in2.shape[1] // 2
    return full[r:r + in1.shape[0], c:c + in1.shape[1]]
