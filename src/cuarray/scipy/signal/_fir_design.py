"""Window-method FIR design (cuarray version of `scipy.signal.firwin`, `kaiserord`,
`kaiser_beta`, `kaiser_atten`). Band edges are host parameters; the taps are computed on
the GPU."""
import math

import numpy

import cuarray
from cuarray.scipy.signal.windows import get_window

__all__ = ["firwin", "firwin_2d", "kaiser_beta", "kaiser_atten", "kaiserord", "minimum_phase", "firls"]


def kaiser_beta(a):
    """cuarray version of `scipy.signal.kaiser_beta`."""
    if a > 50:
        return 0.1102 * (a - 8.7)
    if a > 21:
        return 0.5842 * (a - 21) ** 0.4 + 0.07886 * (a - 21)
    return 0.0


def kaiser_atten(numtaps, width):
    """cuarray version of `scipy.signal.kaiser_atten`."""
    return 2.285 * (numtaps - 1) * math.pi * width + 7.95


def kaiserord(ripple, width):
    """cuarray version of `scipy.signal.kaiserord`."""
    A = abs(ripple)
    if A < 8:
        raise ValueError(f"Requested maximum ripple attenuation {A:f} is too small for the "
                         "Kaiser formula.")
    beta = kaiser_beta(A)
    numtaps = (A - 7.95) / 2.285 / (math.pi * width) + 1
    return int(math.ceil(numtaps)), beta


def _fs(fs, default=2.0):
    """`fs` as a positive float (SciPy's checks); None means `default`, which is an error
    where `default` is None."""
    if fs is None and default is not None:
        return default
    if fs is None or numpy.ndim(fs) != 0:
        raise ValueError("Sampling frequency fs must be a single scalar.")
    fs = float(fs)
    if not fs > 0:
        raise ValueError(f"Sampling frequency fs={fs} must be positive.")
    return fs


def firwin_2d(hsize, window, *, fc=None, fs=2, circular=False, pass_zero=True, scale=True):
    """cuarray version of `scipy.signal.firwin_2d` (as SciPy, pass_zero and scale are
    accepted and not used)."""
    if len(hsize) != 2:
        raise ValueError("hsize must be a 2-element tuple or list")
    if circular:
        if fc is None:
            raise ValueError("Cutoff frequency `fc` must be provided when `circular` is True")
        # a radial profile: a long 1-D design sampled at each tap's distance from the centre
        n_r = max(hsize[0], hsize[1]) * 8
        win_r = firwin(n_r, cutoff=fc, window=window, fs=fs)
        f1, f2 = cuarray.meshgrid(cuarray.linspace(-1, 1, hsize[0]),
                                  cuarray.linspace(-1, 1, hsize[1]))
        r = cuarray.sqrt(f1 ** 2 + f2 ** 2)
        return cuarray.interp(r, cuarray.linspace(0, 1, n_r), win_r)
    if len(window) != 2:
        raise ValueError("window must be a 2-element tuple or list")
    row = firwin(hsize[0], cutoff=fc, window=window[0], fs=fs)
    col = firwin(hsize[1], cutoff=fc, window=window[1], fs=fs)
    return cuarray.outer(row, col)


# pass_zero by name: (whether the DC gain is 1, whether it takes a band: two or more cutoffs)
_PASS_ZERO = {"lowpass": (True, False), "bandstop": (True, True), "highpass": (False, False),
              "bandpass": (False, True)}


def firwin(numtaps, cutoff, *, width=None, window="hamming", pass_zero=True, scale=True,
           fs=None):
    """cuarray version of `scipy.signal.firwin` (cutoff given as host values)."""
    if hasattr(cutoff, "__cuda_array_interface__"):
        cutoff = cuarray.asnumpy(cutoff)
    nyq = 0.5 * _fs(fs)
    cutoff = numpy.atleast_1d(numpy.asarray(cutoff, dtype=numpy.float64)) / nyq
    if cutoff.ndim > 1:
        raise ValueError("The cutoff argument must be at most one-dimensional.")
    if cutoff.size == 0:
        raise ValueError("At least one cutoff frequency must be given.")
    if cutoff.min() <= 0 or cutoff.max() >= 1:
        raise ValueError("Invalid cutoff frequency: frequencies must be greater than 0 and "
                         "less than fs/2.")
    if numpy.any(numpy.diff(cutoff) <= 0):
        raise ValueError("Invalid cutoff frequencies: the frequencies must be strictly "
                         "increasing.")
    if width is not None:
        window = ("kaiser", kaiser_beta(kaiser_atten(numtaps, float(width) / nyq)))
    if isinstance(pass_zero, str) and pass_zero in _PASS_ZERO:
        zero, band = _PASS_ZERO[pass_zero]
        if not band and cutoff.size != 1:
            raise ValueError(f'cutoff must have one element if pass_zero=="{pass_zero}", got '
                             f'{cutoff.shape}')
        if band and cutoff.size <= 1:
            raise ValueError(f'cutoff must have at least two elements if '
                             f'pass_zero=="{pass_zero}", got {cutoff.shape}')
        pass_zero = zero
    elif not (pass_zero is True or pass_zero is False):
        raise ValueError(f"Parameter {pass_zero=} not in (True, False, 'bandpass', "
                         "'lowpass', 'highpass', 'bandstop')")
    pass_nyquist = (cutoff.size % 2 == 0) == pass_zero
    if pass_nyquist and numtaps % 2 == 0:
        raise ValueError("A filter with an even number of coefficients must have zero "
                         "response at the Nyquist frequency.")
    edges = numpy.concatenate((numpy.zeros(int(pass_zero)), cutoff,
                               numpy.ones(int(pass_nyquist)))).reshape(-1, 2)
    m = cuarray.arange(numtaps, dtype=numpy.float64) - 0.5 * (numtaps - 1)
    h = cuarray.zeros(numtaps)
    for left, right in edges.tolist():
        h += right * cuarray.sinc(right * m)
        if left:
            h -= left * cuarray.sinc(left * m)
    h *= get_window(window, numtaps, fftbins=False)
    if scale:
        left, right = edges[0].tolist()
        f = 0.0 if left == 0 else (1.0 if right == 1 else 0.5 * (left + right))
        h /= cuarray.sum(h * cuarray.cos(math.pi * m * f))
    return h


def _dhtm(mag):
    from cuarray.scipy import fft as _fft
    sig = cuarray.zeros(mag.shape[0])
    mid = mag.shape[0] // 2
    sig[1:mid] = 1
    sig[mid + 1:] = -1
    return cuarray.real(_fft.ifft(mag * cuarray.exp(_fft.fft(sig * _fft.ifft(cuarray.log(mag))))))


def minimum_phase(h, method="homomorphic", n_fft=None, *, half=True):
    """cuarray version of `scipy.signal.minimum_phase` (the symmetry warning reads one flag
    on the host)."""
    import warnings
    from cuarray.scipy import fft as _fft
    h = h if isinstance(h, cuarray.ndarray) else cuarray.asarray(numpy.asarray(h))
    if h.dtype.kind == "c":
        raise ValueError("Complex filters not supported")
    if h.ndim != 1 or h.shape[0] <= 2:
        raise ValueError("h must be 1-D and at least 2 samples long")
    n_half = h.shape[0] // 2
    head = h[:n_half]
    if not bool(cuarray.any(h[-n_half:][::-1] - head <= 1e-8 + 1e-6 * cuarray.abs(head))):
        warnings.warn("h does not appear to by symmetric, conversion may fail",
                      RuntimeWarning, stacklevel=2)
    if not isinstance(method, str) or method not in ("homomorphic", "hilbert"):
        raise ValueError(f'method must be "homomorphic" or "hilbert", got {method!r}')
    if method == "hilbert" and not half:
        raise ValueError("`half=False` is only supported when `method='homomorphic'`")
    if n_fft is None:
        n_fft = 2 ** int(math.ceil(math.log2(2 * (h.shape[0] - 1) / 0.01)))
    n_fft = int(n_fft)
    if n_fft < h.shape[0]:
        raise ValueError(f"n_fft must be at least len(h)=={h.shape[0]}")
    if method == "hilbert":
        w = cuarray.arange(n_fft, dtype=numpy.float64) * (2 * math.pi / n_fft * n_half)
        H = cuarray.real(_fft.fft(h, n_fft) * cuarray.exp(1j * w))
        dp = cuarray.max(H) - 1
        ds = 0 - cuarray.min(H)
        S = 4.0 / (cuarray.sqrt(1 + dp + ds) + cuarray.sqrt(1 - dp + ds)) ** 2
        H = cuarray.sqrt((H + ds) * S) + 1e-10
        h_min = _dhtm(H)
    else:
        t = cuarray.abs(_fft.fft(h, n_fft))
        t = t + 1e-7 * cuarray.min(cuarray.where(t > 0, t, numpy.inf))
        t = cuarray.log(t)
        if half:
            t = t * 0.5
        t = cuarray.real(_fft.ifft(t))
        win = cuarray.zeros(n_fft)
        win[0] = 1
        stop = n_fft // 2
        win[1:stop] = 2
        # SciPy 1.18's window: the Nyquist bin of an even n_fft counts once, the last
        # positive bin of an odd one twice (1.17 gave 0 and 1).
        win[stop] = 1 + n_fft % 2
        h_min = _fft.ifft(cuarray.exp(_fft.fft(t * win))).real
    n_out = (n_half + h.shape[0] % 2) if half else h.shape[0]
    return h_min[:n_out]


def firls(numtaps, bands, desired, *, weight=None, fs=None):
    """cuarray version of `scipy.signal.firls` (band specification on the host; the normal
    equations are built and solved on the GPU, by least squares, which also covers SciPy's
    rank-deficient fallback)."""
    bands = numpy.asarray(cuarray.asnumpy(bands) if isinstance(bands, cuarray.ndarray)
                          else bands, dtype=float)
    desired = numpy.asarray(cuarray.asnumpy(desired) if isinstance(desired, cuarray.ndarray)
                            else desired, dtype=float)
    nyq = 0.5 * _fs(fs)
    numtaps = int(numtaps)
    if numtaps % 2 == 0 or numtaps < 1:
        raise ValueError("numtaps must be odd and >= 1")
    M = (numtaps - 1) // 2
    bands = bands.flatten() / nyq
    if len(bands) % 2 != 0:
        raise ValueError("bands must contain frequency pairs.")
    if (bands < 0).any() or (bands > 1).any():
        raise ValueError("bands must be between 0 and 1 relative to Nyquist")
    bands = bands.reshape(-1, 2)
    desired = desired.flatten()
    if bands.size != desired.size:
        raise ValueError(f"desired must have one entry per frequency, got {desired.size} "
                         f"gains for {bands.size} frequencies.")
    desired = desired.reshape(-1, 2)
    if (numpy.diff(bands) <= 0).any() or (numpy.diff(bands[:, 0]) < 0).any():
        raise ValueError("bands must be monotonically nondecreasing and have width > 0.")
    if (bands[:-1, 1] > bands[1:, 0]).any():
        raise ValueError("bands must not overlap.")
    if (desired < 0).any():
        raise ValueError("desired must be non-negative.")
    weight = numpy.ones(len(desired)) if weight is None else \
        numpy.asarray(weight, dtype=float).flatten()
    if len(weight) != len(desired):
        raise ValueError(f"weight must be the same size as the number of band pairs "
                         f"({len(bands)}).")
    if (weight < 0).any():
        raise ValueError("weight must be non-negative.")
    n = cuarray.arange(numtaps, dtype=numpy.float64)
    nb = n[:M + 1]
    q = cuarray.zeros(numtaps)
    rhs = cuarray.zeros(M + 1)
    for (lo, hi), (dlo, dhi), w in zip(bands.tolist(), desired.tolist(), weight.tolist()):
        slope = (dhi - dlo) / (hi - lo)
        icpt = dlo - lo * slope
        q += w * (cuarray.sinc(hi * n) * hi - cuarray.sinc(lo * n) * lo)

        def edge(f):
            t = f * (slope * f + icpt) * cuarray.sinc(f * nb)
            t[0] -= slope * f * f / 2.0
            t[1:] += slope * cuarray.cos(nb[1:] * math.pi * f) / (math.pi * nb[1:]) ** 2
            return t
        rhs += w * (edge(hi) - edge(lo))
    i = cuarray.arange(M + 1).reshape(-1, 1)
    j = cuarray.arange(M + 1).reshape(1, -1)
    Q = q[cuarray.abs(i - j)] + q[i + j]   # Toeplitz plus Hankel parts of the normal matrix
    a = cuarray.linalg.lstsq(Q, rhs, rcond=None)[0]
    return cuarray.concatenate((a[:0:-1], 2 * a[:1], a[1:]))
