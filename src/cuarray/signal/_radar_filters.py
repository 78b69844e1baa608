"""CuPy's signal additions from cuSignal (cuarray version of `cupyx.signal`): radar
pulse processing, the polyphase channelizer, FIR helpers, frequency shift, cepstra."""
import math

import numpy

import cuarray
from cuarray._core.host_policy import not_device_error
from cuarray._core.ndarray import ndarray
from cuarray.scipy.signal import _kernels as _k
from cuarray.scipy.signal import windows as _windows

__all__ = ["pulse_compression", "pulse_doppler", "cfar_alpha", "channelize_poly",
           "firfilter", "firfilter_zi", "firfilter2", "freq_shift", "real_cepstrum",
           "complex_cepstrum", "inverse_complex_cepstrum", "minimum_phase"]


def _arr(x, name):
    if not isinstance(x, ndarray):
        raise not_device_error(name, x, "cuarray.signal.")
    return x


def _preprocess(x, normalize, window):
    if window is not None:
        n = x.shape[-1]
        if callable(window):
            w = window(cuarray.fft.fftfreq(n).astype(x.dtype))
        elif isinstance(window, ndarray):
            if window.shape != (n,):
                raise ValueError("window must have the same length as data")
            w = window
        else:
            w = _windows.get_window(window, n, False).astype(x.dtype)
        x = x * w
    if normalize:
        x = x / cuarray.linalg.norm(x)
    return x


def pulse_compression(x, template, normalize=False, window=None, nfft=None):
    """cuarray version of `cupyx.signal.pulse_compression` (matched filter of each pulse,
    x of shape (num_pulses, samples_per_pulse))."""
    _arr(x, "pulse_compression")
    _arr(template, "pulse_compression")
    num_pulses, samples = x.shape
    dtype = numpy.result_type(x.dtype, template.dtype)
    if nfft is None:
        nfft = samples
    t = _preprocess(template, normalize, window)
    out = cuarray.fft.ifft(cuarray.fft.fft(x, nfft) * cuarray.fft.fft(t, nfft).conj(), nfft)
    return out.real if dtype.kind != "c" else out


def pulse_doppler(x, window=None, nfft=None):
    """cuarray version of `cupyx.signal.pulse_doppler` (FFT across pulses)."""
    _arr(x, "pulse_doppler")
    num_pulses, samples = x.shape
    if nfft is None:
        nfft = num_pulses
    return cuarray.fft.fft(_preprocess(x.T, False, window), nfft).T


def cfar_alpha(pfa, N):
    """cuarray version of `cupyx.signal.cfar_alpha`."""
    return N * (pfa ** (-1.0 / N) - 1)


# y[p, c] = sum_k h[k * C + c] * x[(p - k) * C + C - 1 - c]  (conjugated for complex data)
_CHANNELIZE = r"""
extern "C" __global__ void channelize(const {T}* x, const {T}* h, {U}* y, long long C,
                                      long long taps, long long npts) {
  const long long total = npts * C;
  for (long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x; t < total;
       t += (long long)gridDim.x * blockDim.x) {
    const long long p = t / C, c = t % C;
    {U} acc = {U}(0);
    for (long long k = 0; k < taps && k <= p; ++k) {
      {T} hv = h[k * C + c], xv = x[(p - k) * C + C - 1 - c];
      acc += {U}({CONJ}(hv) * {CONJ}(xv));
    }
    y[t] = acc;
  }
}
"""


def channelize_poly(x, h, n_chans):
    """cuarray version of `cupyx.signal.channelize_poly` (any number of taps per
    channel)."""
    _arr(x, "channelize_poly")
    h = h if isinstance(h, ndarray) else cuarray.asarray(numpy.asarray(h))
    dtype = numpy.promote_types(x.dtype, h.dtype)
    n_taps = h.size // n_chans
    x = cuarray.ascontiguousarray(x.astype(dtype, copy=False))
    h = cuarray.ascontiguousarray(h.astype(dtype, copy=False))
    n_pts = x.size // n_chans
    odt = numpy.dtype(numpy.complex64 if dtype in (numpy.float32, numpy.complex64)
                      else numpy.complex128)
    y = cuarray.empty((n_pts, n_chans), odt)
    cx = dtype.kind == "c"
    kern = _k.kernel(_CHANNELIZE, "channelize", T=_k.ctype(dtype), U=_k.ctype(odt),
                     CONJ="conj" if cx else "")
    _k.launch(kern, y.size, (x, h, y, n_chans, n_taps, n_pts))
    return cuarray.conj(cuarray.fft.fft(y, axis=1)).T


def firfilter(b, x, axis=-1, zi=None):
    """cuarray version of `cupyx.signal.firfilter` (lfilter with a = [1])."""
    from cuarray.scipy.signal import lfilter
    return lfilter(b, cuarray.ones((1,)), x, axis, zi)


def firfilter_zi(b):
    """cuarray version of `cupyx.signal.firfilter_zi`."""
    from cuarray.scipy.signal import lfilter_zi
    b = b if isinstance(b, ndarray) else cuarray.asarray(numpy.asarray(b))
    return lfilter_zi(b, cuarray.ones(1, numpy.float32))


def firfilter2(b, x, axis=-1, padtype="odd", padlen=None, method="pad", irlen=None):
    """cuarray version of `cupyx.signal.firfilter2` (forward-backward FIR; method='gust'
    works here too, where CuPy raises)."""
    from cuarray.scipy.signal import filtfilt
    if method not in ("pad", "gust"):
        raise ValueError("method must be 'pad' or 'gust'.")
    b = b if isinstance(b, ndarray) else cuarray.asarray(numpy.asarray(b))
    return filtfilt(cuarray.atleast_1d(b), cuarray.ones(1, numpy.float32), x, axis=axis,
                    padtype=padtype, padlen=padlen, method=method, irlen=irlen)


def freq_shift(x, freq, fs):
    """cuarray version of `cupyx.signal.freq_shift`: x * exp(-2j pi freq n / fs) as
    complex128."""
    _arr(x, "freq_shift")
    c = -2 * math.pi * freq / fs
    n = cuarray.arange(x.size, dtype=numpy.float64).reshape(x.shape)
    return x.astype(numpy.float64) * cuarray.exp(1j * c * n)


def real_cepstrum(x, n=None, axis=-1):
    """cuarray version of `cupyx.signal.real_cepstrum`."""
    _arr(x, "real_cepstrum")
    spectrum = cuarray.fft.fft(x, n=n, axis=axis)
    spectrum = cuarray.log(cuarray.abs(spectrum)).astype(spectrum.dtype)
    return cuarray.fft.ifft(spectrum, n=n, axis=axis).real


def complex_cepstrum(x, n=None, axis=-1):
    """cuarray version of `cupyx.signal.complex_cepstrum` (1-D sequences: the phase ramp
    uses the flat sample index)."""
    _arr(x, "complex_cepstrum")
    spectrum = cuarray.fft.fft(x, n=n, axis=axis)
    unwrapped = cuarray.unwrap(cuarray.angle(spectrum))
    size = unwrapped.size
    center = int(0.5 * (size + 1))
    ndelay = cuarray.around(unwrapped.ravel()[center] / math.pi)
    i = cuarray.arange(size, dtype=unwrapped.dtype).reshape(unwrapped.shape)
    temp = unwrapped - math.pi * ndelay * i / center
    log_spectrum = cuarray.log(cuarray.abs(spectrum)) + 1j * temp
    ceps = cuarray.fft.ifft(log_spectrum.astype(spectrum.dtype), n=n, axis=axis).real
    return ceps, cuarray.broadcast_to(ndelay, unwrapped.shape).copy()


def inverse_complex_cepstrum(ceps, ndelay):
    """cuarray version of `cupyx.signal.inverse_complex_cepstrum`."""
    _arr(ceps, "inverse_complex_cepstrum")
    log_spectrum = cuarray.fft.fft(ceps)
    size = log_spectrum.size
    center = 0.5 * (size + 1)
    nd = ndelay.astype(numpy.int32) if isinstance(ndelay, ndarray) else int(ndelay)
    i = cuarray.arange(size, dtype=numpy.float64).reshape(log_spectrum.shape)
    wrapped = log_spectrum.imag + math.pi * nd * i / center
    spectrum = cuarray.exp(log_spectrum.real + 1j * wrapped).astype(log_spectrum.dtype)
    return cuarray.fft.ifft(spectrum).real


def minimum_phase(x, n=None):
    """cuarray version of `cupyx.signal.minimum_phase` (real-cepstrum reconstruction)."""
    _arr(x, "minimum_phase")
    if n is None:
        n = len(x)
    ceps = real_cepstrum(x, n=n)
    size = ceps.size
    odd = size & 1
    bend = int(0.5 * (size + odd))
    i = cuarray.arange(size).reshape(ceps.shape)
    window = cuarray.where(i == 0, ceps,
                           cuarray.where(i < bend, ceps * 2.0,
                                         cuarray.where(i == bend, ceps * (1 - odd), 0.0)))
    return cuarray.fft.ifft(cuarray.exp(cuarray.fft.fft(window.astype(ceps.dtype)))).real
