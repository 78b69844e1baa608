"""Spectral estimation with windowed FFTs (cuarray version of `scipy.signal.periodogram`,
`welch`, `csd`, `coherence`, `spectrogram`, `stft`, `istft`, `check_COLA`,
`check_NOLA`). Segments are strided views of the signal (for a non-detrending STFT, one
framing kernel's output); one batched cuFFT per call."""
import math
import warnings

import numpy

import cuarray
from cuarray._core.host_policy import not_device_error
from cuarray._core.elementwise import Op, Param
from cuarray._core.ndarray import ndarray
from cuarray._runtime.device import get_device_id
from cuarray._runtime.stream import current_stream_ptr
from cuarray.scipy import fft as _fft
from cuarray.scipy.signal import _kernels as _k
from cuarray.scipy.signal.windows import get_window

__all__ = ["periodogram", "welch", "csd", "coherence", "spectrogram", "stft", "istft",
           "check_COLA", "check_NOLA"]


def _asarray(x, name):
    if isinstance(x, ndarray):
        return x
    raise not_device_error(name, x, "cuarray.scipy.signal.")


def _window(window, nperseg):
    if isinstance(window, (str, tuple)):
        return get_window(window, nperseg)
    w = window if isinstance(window, ndarray) else cuarray.asarray(numpy.asarray(window))
    if w.ndim != 1:
        raise ValueError("window must be 1-D")
    return w


# Windows named by a string or tuple, per (name, length, device, stream), and the
# scaled windows the STFT frames with. Only this module reads them; it never writes them.
_WINDOWS = {}
_CACHE_MAX = 64


def _cached(key, build):
    try:
        key = key + (get_device_id(), current_stream_ptr())
        hit = _WINDOWS.get(key)
    except TypeError:  # an unhashable window argument: build it every time
        return build()
    if hit is None:
        if len(_WINDOWS) >= _CACHE_MAX:
            _WINDOWS.clear()
        hit = _WINDOWS[key] = build()
    return hit


def _triage_segments(window, nperseg, input_length):
    if isinstance(window, (str, tuple)):
        if nperseg is None:
            nperseg = 256
        if nperseg > input_length:
            warnings.warn(f"nperseg = {nperseg:d} is greater than input length  = "
                          f"{input_length:d}, using nperseg = {input_length:d}", stacklevel=3)
            nperseg = input_length
        return _cached(("window", window, nperseg), lambda: get_window(window, nperseg)), \
            nperseg
    win = _window(window, nperseg)
    if input_length < win.shape[-1]:
        raise ValueError("window is longer than input signal")
    if nperseg is None:
        nperseg = win.shape[0]
    elif nperseg != win.shape[0]:
        raise ValueError("value specified for nperseg is different from length of window")
    return win, nperseg


def _axis_ext(x, n, kind):
    """x extended by n samples at both ends of its last axis (SciPy's *_ext helpers)."""
    if n < 1:
        return x
    if kind == "zeros":
        return cuarray.pad(x, [(0, 0)] * (x.ndim - 1) + [(n, n)])
    if n > x.shape[-1] - 1:
        raise ValueError(f"The extension length n ({n}) is too big. It must not exceed "
                         f"x.shape[axis]-1, which is {x.shape[-1] - 1}.")
    if kind == "constant":
        return cuarray.pad(x, [(0, 0)] * (x.ndim - 1) + [(n, n)], mode="edge")
    mode = "reflect"
    kw = {"reflect_type": "odd"} if kind == "odd" else {}
    return cuarray.pad(x, [(0, 0)] * (x.ndim - 1) + [(n, n)], mode=mode, **kw)


def _segments(x, nperseg, noverlap):
    """The overlapping segments of x's last axis as a strided view (..., nseg, nperseg)."""
    x = cuarray.ascontiguousarray(x)
    step = nperseg - noverlap
    nseg = (x.shape[-1] - nperseg) // step + 1 if x.shape[-1] >= nperseg else 0
    isz = x.dtype.itemsize
    return x._view(x.shape[:-1] + (nseg, nperseg), x._strides[:-1] + (step * isz, isz))


def _detrend_func(detrend, axis):
    if detrend is False or detrend is None or detrend == "":
        return lambda d: d
    if not callable(detrend):
        if detrend not in ("constant", "c", "linear", "l"):
            raise ValueError("Trend type must be 'linear' or 'constant'.")
        if detrend in ("constant", "c"):
            return lambda d: d - cuarray.mean(d, axis=-1, keepdims=True)
        from cuarray.scipy.signal._hilbert_detrend import detrend as _detrend
        return lambda d: _detrend(d, type="linear", axis=-1)
    if axis != -1:
        return lambda d: cuarray.moveaxis(detrend(cuarray.moveaxis(d, -1, axis)), axis, -1)
    return detrend


# Grid x over (row, segment), y over tiles of 1024 points: the segment's samples of x as
# the boundary zeros (`lead` of them before x) and the end padding extend it, times the
# window, zeros from nperseg to nfft. The framed array is what the batched transform reads.
_FRAME = r"""
extern "C" __global__ void stft_frame(const {X}* x, const {T}* w, {T}* out, long long n,
                                      long long lead, long long nseg, long long step,
                                      long long nperseg, long long nfft) {
  const long long rs = blockIdx.x;
  const long long r = rs / nseg, s = rs - r * nseg;
  const {X}* xr = x + r * n;
  {T}* o = out + rs * nfft;
  const long long p0 = s * step - lead;
  const long long end = ((long long)blockIdx.y + 1) * 1024 < nfft ? ((long long)blockIdx.y + 1) * 1024 : nfft;
  for (long long k = (long long)blockIdx.y * 1024 + threadIdx.x; k < end; k += blockDim.x) {
    const long long p = p0 + k;
    o[k] = (k < nperseg && p >= 0 && p < n) ? {T}(w[k] * cuarray_cast<{T}>(xr[p])) : {T}(0);
  }
}
"""
_time_ops = {}


def _times(start, stop, step, fs, shift):
    """arange(start, stop, step) / fs - shift (NumPy's operations, one kernel)."""
    n = max(0, math.ceil((stop - start) / step))
    out = cuarray.empty(n)
    if n:
        delta = (start + step) - start  # NumPy's arange steps by its first difference
        _times_op().launch((numpy.float64(start), numpy.float64(delta), numpy.float64(fs),
                            numpy.float64(shift), out))
    return out


def _times_op():
    op = _time_ops.get("t")
    if op is None:
        f8 = numpy.dtype(numpy.float64)
        op = _time_ops["t"] = Op(
            "cuarray_signal_stft_times",
            [Param("start", "scalar", f8), Param("delta", "scalar", f8),
             Param("fs", "scalar", f8), Param("shift", "scalar", f8), Param("y", "out", f8)],
            "y = (start + (double)i * delta) / fs - shift;", options=("--fmad=false",))
    return op


def _stft_frames(x, win, nperseg, noverlap, nfft, lead, length, dtype):
    """(rows..., nseg, nfft) frames of x's last axis, windowed: one kernel."""
    x = cuarray.ascontiguousarray(x)
    step = nperseg - noverlap
    nseg = (length - nperseg) // step + 1 if length >= nperseg else 0
    lead_shape = x.shape[:-1]
    rows = math.prod(lead_shape)
    frames = cuarray.empty(lead_shape + (nseg, nfft), dtype)
    if frames.size:
        kern = _k.kernel(_FRAME, "stft_frame", T=_k.ctype(dtype), X=_k.ctype(x.dtype))
        kern((rows * nseg, -(-nfft // 1024)), (_k.BLOCK,),
             (x, win, frames, x.shape[-1], lead, nseg, step, nperseg, nfft))
    return frames


def _stft_window(window, win, nperseg, scaling, fs, dtype):
    """The window times sqrt of the STFT's scale, in the frames' dtype (the transform is
    linear: scaling the window scales the result, without a pass over it)."""
    def build():
        w = win.astype(numpy.float64)
        scale = 1.0 / (fs * cuarray.sum(w * w)) if scaling == "density" else \
            1.0 / cuarray.sum(w) ** 2
        return (w * cuarray.sqrt(scale)).astype(dtype)
    if isinstance(window, (str, tuple)):
        return _cached(("stft", window, nperseg, scaling, fs, dtype.char), build)
    return build()


def _fft_helper(x, win, detrend_func, nperseg, noverlap, nfft, sides):
    seg = detrend_func(_segments(x, nperseg, noverlap))
    seg = win * seg
    if sides == "twosided":
        return _fft.fft(seg, n=nfft)
    return _fft.rfft(seg.real if seg.dtype.kind == "c" else seg, n=nfft)


def _fft_lengths(nperseg, nfft, noverlap, default_nfft):
    """SciPy's checks and defaults of the STFT lengths: (nfft, noverlap, step)."""
    if nfft is None:
        nfft = default_nfft
    elif nfft < nperseg:
        raise ValueError("nfft must be greater than or equal to nperseg.")
    else:
        nfft = int(nfft)
    noverlap = nperseg // 2 if noverlap is None else int(noverlap)
    if noverlap >= nperseg:
        raise ValueError("noverlap must be less than nperseg.")
    return nfft, noverlap, nperseg - noverlap

def _spectral_helper(x, y, fs=1.0, window="hann", nperseg=None, noverlap=None, nfft=None,
                     detrend="constant", return_onesided=True, scaling="density", axis=-1,
                     mode="psd", boundary=None, padded=False):
    if mode not in ("psd", "stft"):
        raise ValueError(f"Unknown value for mode {mode}, must be one of: {{'psd', 'stft'}}")
    if boundary not in ("even", "odd", "constant", "zeros", None):
        raise ValueError(f"Unknown boundary option '{boundary}', must be one of: "
                         "['even', 'odd', 'constant', 'zeros', None]")
    same_data = y is x
    if not same_data and mode != "psd":
        raise ValueError("x and y must be equal if mode is 'stft'")
    axis = int(axis)
    x = _asarray(x, "spectral")
    if not same_data:
        y = _asarray(y, "spectral")
        outdtype = numpy.result_type(x.dtype, y.dtype, numpy.complex64)
        xo, yo = list(x.shape), list(y.shape)
        xo.pop(axis)
        yo.pop(axis)
        try:
            outer = numpy.broadcast_shapes(tuple(xo), tuple(yo))
        except ValueError as e:
            raise ValueError("x and y cannot be broadcast together.") from e
        if x.size == 0 or y.size == 0:
            shape = outer + (min(x.shape[axis], y.shape[axis]),)
            e = cuarray.moveaxis(cuarray.empty(shape), -1, axis)
            return e, e, e
    else:
        outdtype = numpy.result_type(x.dtype, numpy.complex64)
        if x.size == 0:
            return cuarray.empty(x.shape), cuarray.empty(x.shape), cuarray.empty(x.shape)
    if x.ndim > 1 and axis != -1:
        x = cuarray.moveaxis(x, axis, -1)
        if not same_data and y.ndim > 1:
            y = cuarray.moveaxis(y, axis, -1)
    if not same_data and x.shape[-1] != y.shape[-1]:
        if x.shape[-1] < y.shape[-1]:
            x = cuarray.pad(x, [(0, 0)] * (x.ndim - 1) + [(0, y.shape[-1] - x.shape[-1])])
        else:
            y = cuarray.pad(y, [(0, 0)] * (y.ndim - 1) + [(0, x.shape[-1] - y.shape[-1])])
    if nperseg is not None:
        nperseg = int(nperseg)
        if nperseg < 1:
            raise ValueError("nperseg must be a positive integer")
    win, nperseg = _triage_segments(window, nperseg, x.shape[-1])
    nfft, noverlap, nstep = _fft_lengths(nperseg, nfft, noverlap, nperseg)
    if (mode == "stft" and same_data and x.dtype.kind in "biuf" and win.dtype.kind != "c"
            and (detrend is False or detrend is None or detrend == "")
            and scaling in ("density", "spectrum")):
        # Framing, boundary zeros, padding, window and scale in one kernel, then one
        # batched transform; the result is the transform's output itself.
        lead = 0
        if boundary == "zeros":
            lead = nperseg // 2
        elif boundary is not None:
            x = _axis_ext(x, nperseg // 2, boundary)
        length = x.shape[-1] + 2 * lead
        if padded:
            length += (-(length - nperseg) % nstep) % nperseg
        real = numpy.dtype(numpy.dtype(outdtype).char.lower())
        w = _stft_window(window, win, nperseg, scaling, fs, real)
        frames = _stft_frames(x, w, nperseg, noverlap, nfft, lead, length, real)
        onesided = return_onesided and x.dtype.kind != "c"
        result = _fft.rfft(frames) if onesided else _fft.fft(frames)
        freqs = _fft.rfftfreq(nfft, 1 / fs) if onesided else _fft.fftfreq(nfft, 1 / fs)
        time = _times(nperseg / 2, length - nperseg / 2 + 1, nstep, float(fs),
                      (nperseg / 2) / fs if boundary is not None else 0.0)
        result = result.astype(outdtype, copy=False)
        if axis < 0:
            axis -= 1
        return freqs, time, cuarray.moveaxis(result, -1, axis)
    if boundary is not None:
        x = _axis_ext(x, nperseg // 2, boundary)
        if not same_data:
            y = _axis_ext(y, nperseg // 2, boundary)
    if padded:
        nadd = (-(x.shape[-1] - nperseg) % nstep) % nperseg
        x = cuarray.pad(x, [(0, 0)] * (x.ndim - 1) + [(0, nadd)])
        if not same_data:
            y = cuarray.pad(y, [(0, 0)] * (y.ndim - 1) + [(0, nadd)])
    detrend_func = _detrend_func(detrend, axis)
    if numpy.result_type(win.dtype, numpy.complex64) != outdtype:
        win = win.astype(outdtype)
    if scaling == "density":
        scale = 1.0 / (fs * cuarray.sum(win * win))
    elif scaling == "spectrum":
        scale = 1.0 / cuarray.sum(win) ** 2
    else:
        raise ValueError(f"Unknown scaling: {scaling!r}")
    if mode == "stft":
        scale = cuarray.sqrt(scale)
    if return_onesided:
        if x.dtype.kind == "c" or (not same_data and y.dtype.kind == "c"):
            sides = "twosided"
            warnings.warn("Input data is complex, switching to return_onesided=False",
                          stacklevel=3)
        else:
            sides = "onesided"
    else:
        sides = "twosided"
    freqs = _fft.fftfreq(nfft, 1 / fs) if sides == "twosided" else _fft.rfftfreq(nfft, 1 / fs)
    result = _fft_helper(x, win, detrend_func, nperseg, noverlap, nfft, sides)
    if not same_data:
        result = cuarray.conj(result) * _fft_helper(y, win, detrend_func, nperseg, noverlap,
                                                    nfft, sides)
    elif mode == "psd":
        # |X|^2 stays real: the psd of one signal is real, and complex temporaries would
        # cost three more passes over the largest array of the call.
        result = result.real * result.real + result.imag * result.imag
    result = result * scale.astype(result.real.dtype)
    if sides == "onesided" and mode == "psd":
        if nfft % 2:
            result[..., 1:] *= 2
        else:
            result[..., 1:-1] *= 2
    time = cuarray.arange(nperseg / 2, x.shape[-1] - nperseg / 2 + 1, nstep) / float(fs)
    if boundary is not None:
        time -= (nperseg / 2) / fs
    if same_data and mode != "stft":
        result = result.astype(numpy.dtype(outdtype).char.lower(), copy=False)
    else:
        result = result.astype(outdtype, copy=False)
    if axis < 0:
        axis -= 1
    return freqs, time, cuarray.moveaxis(result, -1, axis)


def _median_bias(n):
    ii_2 = 2 * numpy.arange(1.0, (n - 1) // 2 + 1)
    return 1 + numpy.sum(1.0 / (ii_2 + 1) - 1.0 / ii_2)


def csd(x, y, fs=1.0, window="hann_periodic", nperseg=None, noverlap=None, nfft=None,
        detrend="constant", return_onesided=True, scaling="density", axis=-1,
        average="mean"):
    """cuarray version of `scipy.signal.csd`."""
    if scaling not in ("spectrum", "density"):
        raise ValueError(f"Parameter {scaling=} not in {{'spectrum': 'magnitude', "
                         "'density': 'psd'}!")
    if average not in ("mean", "median"):
        raise ValueError(f"Parameter {average=} must be 'median' or 'mean'!")
    x = _asarray(x, "csd")
    if x.size and x.dtype.kind == "c":
        return_onesided = False
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Input data is complex")
        freqs, _, Pxy = _spectral_helper(x, y, fs, window, nperseg, noverlap, nfft, detrend,
                                         return_onesided, scaling, axis, mode="psd")
    if Pxy.ndim >= 2 and Pxy.size > 0:
        if Pxy.shape[-1] > 1:
            if average == "median":
                bias = _median_bias(Pxy.shape[-1])
                if Pxy.dtype.kind == "c":
                    Pxy = (cuarray.median(Pxy.real, axis=-1)
                           + 1j * cuarray.median(Pxy.imag, axis=-1)).astype(Pxy.dtype)
                else:
                    Pxy = cuarray.median(Pxy, axis=-1)
                Pxy = Pxy / Pxy.real.dtype.type(bias)
            else:
                Pxy = Pxy.mean(axis=-1)
        else:
            Pxy = Pxy.reshape(Pxy.shape[:-1])
    return freqs, Pxy


def welch(x, fs=1.0, window="hann_periodic", nperseg=None, noverlap=None, nfft=None,
          detrend="constant", return_onesided=True, scaling="density", axis=-1,
          average="mean"):
    """cuarray version of `scipy.signal.welch`."""
    freqs, Pxx = csd(x, x, fs=fs, window=window, nperseg=nperseg, noverlap=noverlap,
                     nfft=nfft, detrend=detrend, return_onesided=return_onesided,
                     scaling=scaling, axis=axis, average=average)
    return freqs, Pxx.real


def periodogram(x, fs=1.0, window="boxcar", nfft=None, detrend="constant",
                return_onesided=True, scaling="density", axis=-1):
    """cuarray version of `scipy.signal.periodogram`."""
    x = _asarray(x, "periodogram")
    if x.size == 0:
        return cuarray.empty(x.shape), cuarray.empty(x.shape)
    if window is None:
        window = "boxcar"
    n = x.shape[axis]
    if nfft is None:
        nperseg = n
    elif nfft == n:
        nperseg = nfft
    elif nfft > n:
        nperseg = n
    else:
        s = [slice(None)] * x.ndim
        s[axis] = slice(None, nfft)
        x = x[tuple(s)]
        nperseg, nfft = nfft, None
    if hasattr(window, "size") and window.size != nperseg:
        raise ValueError("the size of the window must be the same size of the input on the "
                         "specified axis")
    return welch(x, fs=fs, window=window, nperseg=nperseg, noverlap=0, nfft=nfft,
                 detrend=detrend, return_onesided=return_onesided, scaling=scaling, axis=axis)


def coherence(x, y, fs=1.0, window="hann_periodic", nperseg=None, noverlap=None, nfft=None,
              detrend="constant", axis=-1):
    """cuarray version of `scipy.signal.coherence`."""
    kw = dict(fs=fs, window=window, nperseg=nperseg, noverlap=noverlap, nfft=nfft,
              detrend=detrend, axis=axis)
    freqs, Pxx = welch(x, **kw)
    _, Pyy = welch(y, **kw)
    _, Pxy = csd(x, y, **kw)
    return freqs, cuarray.abs(Pxy) ** 2 / Pxx / Pyy


def spectrogram(x, fs=1.0, window=("tukey_periodic", .25), nperseg=None, noverlap=None,
                nfft=None, detrend="constant", return_onesided=True, scaling="density",
                axis=-1, mode="psd"):
    """cuarray version of `scipy.signal.spectrogram`."""
    modes = ["psd", "complex", "magnitude", "angle", "phase"]
    if mode not in modes:
        raise ValueError(f"unknown value for mode {mode}, must be one of {modes}")
    x = _asarray(x, "spectrogram")
    window, nperseg = _triage_segments(window, nperseg, x.shape[axis])
    if noverlap is None:
        noverlap = nperseg // 8
    freqs, time, Sxx = _spectral_helper(x, x, fs, window, nperseg, noverlap, nfft, detrend,
                                        return_onesided, scaling, axis,
                                        mode="psd" if mode == "psd" else "stft")
    if mode == "magnitude":
        Sxx = cuarray.abs(Sxx)
    elif mode in ("angle", "phase"):
        Sxx = cuarray.angle(Sxx)
        if mode == "phase":
            Sxx = cuarray.unwrap(Sxx, axis=axis - 1 if axis < 0 else axis)
    return freqs, time, Sxx


def stft(x, fs=1.0, window="hann_periodic", nperseg=256, noverlap=None, nfft=None,
         detrend=False, return_onesided=True, boundary="zeros", padded=True, axis=-1,
         scaling="spectrum"):
    """cuarray version of `scipy.signal.stft`."""
    if scaling == "psd":
        scaling = "density"
    elif scaling != "spectrum":
        raise ValueError(f"Parameter {scaling=} not in ['spectrum', 'psd']!")
    return _spectral_helper(x, x, fs, window, nperseg, noverlap, nfft, detrend,
                            return_onesided, scaling=scaling, axis=axis, mode="stft",
                            boundary=boundary, padded=padded)


def istft(Zxx, fs=1.0, window="hann_periodic", nperseg=None, noverlap=None, nfft=None,
          input_onesided=True, boundary=True, time_axis=-1, freq_axis=-2,
          scaling="spectrum"):
    """cuarray version of `scipy.signal.istft` (the overlap-add is a sum over segment
    offsets, one strided add per offset class)."""
    Zxx = _asarray(Zxx, "istft")
    Zxx = Zxx.astype(numpy.result_type(Zxx.dtype, numpy.complex64), copy=False)
    freq_axis, time_axis = int(freq_axis), int(time_axis)
    if Zxx.ndim < 2:
        raise ValueError("Input stft must be at least 2d!")
    if freq_axis == time_axis:
        raise ValueError("Must specify differing time and frequency axes!")
    nseg = Zxx.shape[time_axis]
    n_default = 2 * (Zxx.shape[freq_axis] - 1) if input_onesided else Zxx.shape[freq_axis]
    if nperseg is None:
        nperseg = n_default
    else:
        nperseg = int(nperseg)
        if nperseg < 1:
            raise ValueError("nperseg must be a positive integer")
    nfft, noverlap, nstep = _fft_lengths(
        nperseg, nfft, noverlap,
        nperseg if (input_onesided and nperseg == n_default + 1) else n_default)
    if time_axis != Zxx.ndim - 1 or freq_axis != Zxx.ndim - 2:
        freq_axis %= Zxx.ndim
        time_axis %= Zxx.ndim
        outer = [a for a in range(Zxx.ndim) if a not in (freq_axis, time_axis)]
        Zxx = cuarray.transpose(Zxx, outer + [freq_axis, time_axis])
    if isinstance(window, (str, tuple)):
        win = get_window(window, nperseg)
    else:
        win = _window(window, nperseg)
        if win.shape[0] != nperseg:
            raise ValueError(f"window must have length of {nperseg}")
    ifunc = _fft.irfft if input_onesided else _fft.ifft
    xsubs = ifunc(Zxx, axis=-2, n=nfft)[..., :nperseg, :]
    # SciPy windows, overlap-adds and normalises in the transform's precision: a float64
    # window meets float32 segments as float32, and the output stays float32.
    real = numpy.finfo(xsubs.dtype).dtype
    if win.dtype.kind == "c":
        win = win.astype(numpy.result_type(win.dtype, xsubs.dtype), copy=False)
    elif numpy.result_type(win.dtype, real) != real:
        win = win.astype(real)
    if scaling == "spectrum":
        xsubs = xsubs * cuarray.sum(win)
    elif scaling == "psd":
        xsubs = xsubs * cuarray.sqrt(fs * cuarray.sum(win ** 2))
    else:
        raise ValueError(f"Parameter {scaling=} not in ['spectrum', 'psd']!")
    outputlength = nperseg + (nseg - 1) * nstep
    # Segment ii covers [ii*nstep, ii*nstep + nperseg): accumulate the segments in groups
    # whose members do not overlap, one strided add per group.
    frames = cuarray.moveaxis(xsubs, -1, -2) * win          # (..., nseg, nperseg)
    lead = frames.shape[:-2]
    x = cuarray.zeros(lead + (outputlength,), frames.dtype)
    norm = cuarray.zeros(outputlength, win.dtype if win.dtype.kind == "c" else real)
    per = -(-nperseg // nstep)
    w2 = win * win if win.dtype.kind != "c" else (win * win.conj()).real
    for r in range(per):
        idx = list(range(r, nseg, per))
        if not idx:
            continue
        span = (len(idx) - 1) * per * nstep + nperseg
        start = r * nstep
        block = cuarray.zeros(lead + (len(idx), per * nstep), frames.dtype)
        block[..., :nperseg] = frames[..., r::per, :]
        flat = block.reshape(lead + (len(idx) * per * nstep,))[..., :span]
        x[..., start:start + span] += flat
        nb = cuarray.zeros((len(idx), per * nstep), norm.dtype)
        nb[:, :nperseg] = w2
        norm[start:start + span] += nb.reshape(-1)[:span]
    if boundary:
        x = x[..., nperseg // 2:-(nperseg // 2)]
        norm = norm[..., nperseg // 2:-(nperseg // 2)]
    if int(cuarray.sum(norm > 1e-10)) != norm.shape[-1]:
        warnings.warn("NOLA condition failed, STFT may not be invertible."
                      + (" Possibly due to missing boundary" if not boundary else ""),
                      stacklevel=2)
    x = x / cuarray.where(norm > 1e-10, norm, 1.0)
    if input_onesided:
        x = x.real
    if x.ndim > 1 and time_axis != Zxx.ndim - 1:
        if freq_axis < time_axis:
            time_axis -= 1
        x = cuarray.moveaxis(x, -1, time_axis)
    time = cuarray.arange(x.shape[0]) / float(fs)
    return time, x


def _check_window(window, nperseg):
    if isinstance(window, (str, tuple)):
        return get_window(window, nperseg)
    win = _window(window, nperseg)
    if win.shape[0] != nperseg:
        raise ValueError("window must have length of nperseg")
    return win


def _binsums(win, nperseg, noverlap):
    step = nperseg - noverlap
    sums = None
    for ii in range(nperseg // step):
        part = win[ii * step:(ii + 1) * step]
        sums = part.copy() if sums is None else sums + part
    if nperseg % step != 0:
        sums[:nperseg % step] += win[-(nperseg % step):]
    return sums


def _overlap_sums(window, nperseg, noverlap, nola):
    """check_COLA's / check_NOLA's argument checks (SciPy words them a little differently)
    and the overlapping sums of the window (of its square for NOLA)."""
    nperseg = int(nperseg)
    if nperseg < 1:
        raise ValueError("nperseg must be a positive integer")
    if noverlap >= nperseg:
        raise ValueError("noverlap must be less than nperseg" + ("" if nola else "."))
    if nola and noverlap < 0:
        raise ValueError("noverlap must be a nonnegative integer")
    noverlap = int(noverlap)
    win = _check_window(window, nperseg)
    return _binsums(win * win if nola else win, nperseg, noverlap)


def check_COLA(window, nperseg, noverlap, tol=1e-10):
    """cuarray version of `scipy.signal.check_COLA` (returns a Python bool; synchronises)."""
    sums = _overlap_sums(window, nperseg, noverlap, False)
    return bool(cuarray.max(cuarray.abs(sums - cuarray.median(sums))) < tol)


def check_NOLA(window, nperseg, noverlap, tol=1e-10):
    """cuarray version of `scipy.signal.check_NOLA` (returns a Python bool; synchronises)."""
    return bool(cuarray.min(_overlap_sums(window, nperseg, noverlap, True)) > tol)
