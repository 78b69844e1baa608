"""Rate changes (cuarray version of `scipy.signal.upfirdn`, `resample`, `resample_poly`,
`decimate`): a polyphase kernel (one thread per output sample) and cuFFT."""
import math
import operator

import numpy

import cuarray
from cuarray._core.host_policy import not_device_error
from cuarray._core.ndarray import ndarray
from cuarray._runtime.device import get_device_id
from cuarray._runtime.stream import current_stream_ptr
from cuarray.scipy import fft as _fft
from cuarray.scipy.signal import _kernels as _k

__all__ = ["upfirdn", "resample", "resample_poly", "decimate"]

_UPFIRDN_MODES = ("constant", "wrap", "edge", "smooth", "symmetric", "reflect",
                  "antisymmetric", "antireflect", "line")

# y[i] = sum_k h[k] xu[i*down - k], xu the input with up-1 zeros after each sample: only
# the taps k = i*down - j*up for input samples j contribute.
_UPFIRDN = r"""
extern "C" __global__ void upfirdn_rows(const {T}* x, const {T}* h, {T}* y, long long nx,
                                        long long nh, long long ny, long long up,
                                        long long down, long long total) {
  for (long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x; t < total;
       t += (long long)gridDim.x * blockDim.x) {
    const long long s = t / ny, i = t % ny;
    const long long n = i * down;
    long long j = n / up;
    long long k = n - j * up;
    if (j >= nx) { k += (j - nx + 1) * up; j = nx - 1; }
    const {T}* row = x + s * nx;
    {T} acc = {T}(0);
    for (; k < nh && j >= 0; k += up, --j) acc += h[k] * row[j];
    y[t] = acc;
  }
}
"""


def _check(x, name):
    if not isinstance(x, ndarray):
        raise not_device_error(name, x, "cuarray.scipy.signal.")


def _output_len(len_h, in_len, up, down):
    return ((in_len - 1) * up + len_h - 1) // down + 1


def _upfirdn_rows(h, X, up, down):
    S, nx = X.shape
    ny = _output_len(h.size, nx, up, down)
    Y = cuarray.empty((S, ny), X.dtype)
    _k.launch(_k.kernel(_UPFIRDN, "upfirdn_rows", T=_k.ctype(X.dtype)), S * ny,
              (X, h, Y, nx, h.size, ny, up, down, S * ny))
    return Y


def _extend(X, npre, npost, mode, cval):
    """Rows X extended by npre/npost samples on the last axis by `mode`."""
    n = X.shape[-1]
    if mode == "constant":
        return cuarray.pad(X, [(0, 0), (npre, npost)], constant_values=cval)
    if mode in ("wrap", "edge", "symmetric", "reflect"):
        if mode == "reflect" and n == 1:
            mode = "edge"
        return cuarray.pad(X, [(0, 0), (npre, npost)], mode=mode)
    if mode == "antireflect":
        return cuarray.pad(X, [(0, 0), (npre, npost)], mode="reflect" if n > 1 else "edge",
                           reflect_type="odd")
    if mode == "antisymmetric":
        # The symmetric extension, negated on every other period of length n.
        P = cuarray.pad(X, [(0, 0), (npre, npost)], mode="symmetric")
        sl = (cuarray.arange(npre, 0, -1) - 1) // n % 2 * 2 - 1
        sr = cuarray.arange(npost) // n % 2 * 2 - 1
        return cuarray.concatenate((P[:, :npre] * sl, X, P[:, npre + n:] * sr), axis=1)
    # smooth: the slope of the two end samples; line: the line through both ends
    if mode == "smooth":
        sl = (X[:, 1:2] - X[:, :1]) if n > 1 else X[:, :1] * 0
        sr = (X[:, -1:] - X[:, -2:-1]) if n > 1 else X[:, :1] * 0
    else:
        sl = sr = (X[:, -1:] - X[:, :1]) / max(n - 1, 1)
    kl = cuarray.arange(npre, 0, -1, dtype=X.real.dtype)
    kr = cuarray.arange(1, npost + 1, dtype=X.real.dtype)
    return cuarray.concatenate((X[:, :1] - kl * sl, X, X[:, -1:] + kr * sr), axis=1)


def upfirdn(h, x, up=1, down=1, axis=-1, mode="constant", cval=0):
    """cuarray version of `scipy.signal.upfirdn`."""
    _check(x, "upfirdn")
    h = h if isinstance(h, ndarray) else cuarray.asarray(numpy.asarray(h))
    if h.ndim != 1 or h.size == 0:
        raise ValueError("h must be 1-D with non-zero length")
    up, down = int(up), int(down)
    if up < 1 or down < 1:
        raise ValueError("Both up and down must be >= 1")
    if mode not in _UPFIRDN_MODES:
        raise ValueError(f"Unknown mode: {mode}")
    dt = numpy.result_type(h.dtype, x.dtype, numpy.float32)
    axis = _axis(axis, x.ndim)
    xm = cuarray.moveaxis(x.astype(dt, copy=False), axis, -1)
    lead = xm.shape[:-1]
    X = cuarray.ascontiguousarray(xm).reshape(math.prod(lead), xm.shape[-1])
    hh = cuarray.ascontiguousarray(h.astype(dt, copy=False))
    nx = X.shape[1]
    ny = _output_len(hh.size, nx, up, down)
    if (mode == "constant" and cval == 0) or X.size == 0:
        Y = _upfirdn_rows(hh, X, up, down)
    else:
        # Outputs of the extended row at i + shift are the original's at i when the left
        # extension moves the upsampled row by a multiple of `down`.
        step = down // math.gcd(up, down)
        npre = -(-(-(-hh.size // up)) // step) * step
        npost = -(-hh.size // up) + 1
        Y = _upfirdn_rows(hh, cuarray.ascontiguousarray(_extend(X, npre, npost, mode, cval)),
                          up, down)
        shift = npre * up // down
        Y = Y[:, shift:shift + ny]
    return cuarray.moveaxis(Y.reshape(lead + (ny,)), -1, axis)


def _axis(axis, ndim):
    axis = int(axis)
    if not -ndim <= axis < ndim:
        raise numpy.exceptions.AxisError(axis, ndim)
    return axis % ndim


def resample(x, num, t=None, axis=0, window=None, domain="time"):
    """cuarray version of `scipy.signal.resample` (SciPy 1.17's treatment of the unpaired
    Nyquist bin)."""
    from cuarray.scipy.signal.windows import get_window
    if domain not in ("time", "freq"):
        raise ValueError(f"Parameter {domain=} not in ('time', 'freq')!")
    _check(x, "resample")
    if x.ndim > 1:
        x = cuarray.moveaxis(x, axis, -1)
    n_x = x.shape[-1]
    s_fac = n_x / num
    m = min(num, n_x)
    m2 = m // 2 + 1
    if window is None:
        W = None
    elif callable(window):
        W = window(_fft.fftfreq(n_x))
    elif hasattr(window, "shape"):
        if window.shape != (n_x,):
            raise ValueError(f"{window.shape=} != ({n_x},), i.e., window length is not "
                             "equal to number of frequency bins!")
        W = cuarray.array(window, copy=True)
    else:
        W = _fft.fftshift(get_window(window, n_x))
    if domain == "time" and x.dtype.kind != "c":
        X = _fft.rfft(x)
        if W is not None:
            n_X = X.shape[-1]
            W = W.astype(numpy.float64, copy=True)
            W[1:n_X] += W[-n_X + 1:][::-1] if n_X > 1 else 0
            W[1:n_X] /= 2
            X = X * W[:n_X].astype(X.real.dtype)  # SciPy multiplies in place
        X = X[..., :m2].copy()
        if m % 2 == 0 and num != n_x:
            X[..., m // 2] *= 2 if num < n_x else 0.5
        x_r = _fft.irfft(X / s_fac, n=num)
    else:
        X = _fft.fft(x) if domain == "time" else x
        if W is not None:
            X = X * W
        Y = cuarray.zeros(X.shape[:-1] + (num,), X.dtype)
        Y[..., :m2] = X[..., :m2]
        if m2 < m:
            Y[..., m2 - m:] = X[..., m2 - m:]
        if m % 2 == 0:
            if num < n_x:
                Y[..., -m // 2] += X[..., -m // 2]
            elif n_x < num:
                Y[..., m // 2] /= 2
                Y[..., num - m // 2] = Y[..., m // 2]
        x_r = _fft.ifft(Y / s_fac, n=num)
    if x_r.ndim > 1:
        x_r = cuarray.moveaxis(x_r, -1, axis)
    if t is not None:
        return x_r, t[0] + (t[1] - t[0]) * s_fac * cuarray.arange(num)
    return x_r


# The designed, padded filter of each (window, rates, dtype, length) on a device and
# stream: a firwin design is about 18 launches, redone per call otherwise. The stream is
# in the key because the design runs asynchronously on it.
_filters = {}
_FILTERS_MAX = 64


def _filter(window, up, down, dtype, n_in, n_out):
    """resample_poly's filter (h * up, zero-padded for the polyphase layout) and the
    number of leading outputs to drop."""
    if isinstance(window, (list, numpy.ndarray, ndarray)):   # given taps: not kept
        key = None
        h = window if isinstance(window, ndarray) else cuarray.asarray(numpy.asarray(window))
        h = h.copy()
        if h.ndim > 1:
            raise ValueError("window must be 1-D")
        half_len = (h.size - 1) // 2
    else:
        key = (window, up, down, dtype.char, n_in, get_device_id(), current_stream_ptr())
        try:
            hit = _filters.get(key)
        except TypeError:   # an unhashable window spec: designed on every call
            key = hit = None
        if hit is not None:
            return hit
        from cuarray.scipy.signal._fir_design import firwin
        max_rate = max(up, down)
        half_len = 10 * max_rate
        h = firwin(2 * half_len + 1, 1.0 / max_rate, window=window)
        if dtype.kind in "fc":
            h = h.astype(dtype)
    h = h * up
    n_pre_pad = down - half_len % down
    n_post_pad = 0
    n_pre_remove = (half_len + n_pre_pad) // down
    while _output_len(h.size + n_pre_pad + n_post_pad, n_in, up, down) < n_out + n_pre_remove:
        n_post_pad += 1
    h = cuarray.concatenate((cuarray.zeros(n_pre_pad, h.dtype), h,
                             cuarray.zeros(n_post_pad, h.dtype)))
    if key is not None:
        while len(_filters) >= _FILTERS_MAX:   # the oldest go first
            _filters.pop(next(iter(_filters)))
        _filters[key] = (h, n_pre_remove)
    return h, n_pre_remove


def resample_poly(x, up, down, axis=0, window=("kaiser", 5.0), padtype="constant",
                  cval=None):
    """cuarray version of `scipy.signal.resample_poly` (padtype 'median' is computed with
    cuarray.median)."""
    _check(x, "resample_poly")
    if up != int(up):
        raise ValueError("up must be an integer")
    if down != int(down):
        raise ValueError("down must be an integer")
    up, down = int(up), int(down)
    if up < 1 or down < 1:
        raise ValueError("up and down must be >= 1")
    if cval is not None and padtype != "constant":
        raise ValueError("cval has no effect when padtype is ", padtype)
    g = math.gcd(up, down)
    up //= g
    down //= g
    if up == down == 1:
        return x.copy()
    axis = _axis(axis, x.ndim)
    n_in = x.shape[axis]
    n_out = n_in * up
    n_out = n_out // down + bool(n_out % down)
    h, n_pre_remove = _filter(window, up, down, x.dtype, n_in, n_out)
    funcs = {"mean": cuarray.mean, "median": cuarray.median, "minimum": cuarray.amin,
             "maximum": cuarray.amax}
    kw = {"mode": "constant", "cval": 0}
    if padtype in funcs:
        background = funcs[padtype](x, axis=axis, keepdims=True)
        x = x - background
    elif padtype in _UPFIRDN_MODES:
        kw = {"mode": padtype, "cval": (0 if cval is None else cval)}
    else:
        raise ValueError("padtype must be one of: maximum, mean, median, minimum, " +
                         ", ".join(_UPFIRDN_MODES))
    y = upfirdn(h, x, up, down, axis=axis, **kw)
    keep = [slice(None)] * x.ndim
    keep[axis] = slice(n_pre_remove, n_pre_remove + n_out)
    y = y[tuple(keep)]
    if padtype in funcs:
        y = y + background
    return y


def decimate(x, q, n=None, ftype="iir", axis=-1, zero_phase=True):
    """cuarray version of `scipy.signal.decimate` (ftype 'fir'; the 'iir' default designs
    its Chebyshev filter with cuarray.scipy.signal.cheby1)."""
    _check(x, "decimate")
    q = operator.index(q)
    if n is not None:
        n = operator.index(n)
    dt = x.dtype if x.dtype.kind in "fc" and x.dtype != numpy.float16 else \
        numpy.dtype(numpy.float64)
    axis = _axis(axis, x.ndim)
    sl = [slice(None)] * x.ndim
    if ftype == "fir":
        from cuarray.scipy.signal._fir_design import firwin
        if n is None:
            n = 20 * q
        b = firwin(n + 1, 1.0 / q, window="hamming").astype(dt)
        if zero_phase:
            return resample_poly(x, 1, q, axis=axis, window=b)
        n_out = x.shape[axis] // q + bool(x.shape[axis] % q)
        sl[axis] = slice(None, n_out)
        return upfirdn(b, x, up=1, down=q, axis=axis)[tuple(sl)]
    if ftype == "iir":
        from cuarray.scipy.signal import _iir_design
        from cuarray.scipy.signal._lfilter import sosfilt, sosfiltfilt
        sos = _iir_design.cheby1(8 if n is None else n, 0.05, 0.8 / q, output="sos")
        sos = sos.astype(dt)
        y = sosfiltfilt(sos, x, axis=axis) if zero_phase else sosfilt(sos, x, axis=axis)
        sl[axis] = slice(None, None, q)
        return y[tuple(sl)]
    raise ValueError("invalid ftype")
