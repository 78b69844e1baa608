"""SciPy's window functions, computed on the GPU (cuarray version of
`scipy.signal.windows`). Windows are built from the sample index with cuarray's
elementwise kernels (dpss: an eigenproblem solved by cuarray.linalg.eigh); only scalar
parameters (cosine weights, Taylor coefficients) are worked out on the host."""
import math
import numbers
import warnings

import numpy

import cuarray

__all__ = ["boxcar", "triang", "parzen", "bohman", "blackman", "nuttall", "blackmanharris",
           "flattop", "bartlett", "barthann", "hamming", "kaiser", "kaiser_bessel_derived",
           "gaussian", "general_gaussian", "general_cosine", "general_hamming", "chebwin",
           "cosine", "hann", "exponential", "tukey", "taylor", "lanczos", "dpss", "get_window"]


def _len_guards(M):
    if int(M) != M or M < 0:
        raise ValueError("Window length M must be a non-negative integer")
    return M <= 1


def _extend(M, sym):
    # A periodic window of M points is the symmetric one of M + 1 without its last point.
    return (M, False) if sym else (M + 1, True)


def _truncate(w, needed):
    return w[:-1] if needed else w


def _index(M):
    return cuarray.arange(M, dtype=numpy.float64)


def general_cosine(M, a, sym=True):
    """cuarray version of `scipy.signal.windows.general_cosine`."""
    if _len_guards(M):
        return cuarray.ones(M)
    M, trunc = _extend(M, sym)
    fac = cuarray.linspace(-math.pi, math.pi, M)
    w = cuarray.zeros(M)
    for k, ak in enumerate(numpy.asarray(a, dtype=numpy.float64).ravel().tolist()):
        w += ak * cuarray.cos(k * fac)
    return _truncate(w, trunc)


def boxcar(M, sym=True):
    """cuarray version of `scipy.signal.windows.boxcar`."""
    if _len_guards(M):
        return cuarray.ones(M)
    M, trunc = _extend(M, sym)
    return _truncate(cuarray.ones(M, numpy.float64), trunc)


def triang(M, sym=True):
    """cuarray version of `scipy.signal.windows.triang`."""
    if _len_guards(M):
        return cuarray.ones(M)
    M, trunc = _extend(M, sym)
    i = _index(M)
    n = cuarray.minimum(i, M - 1 - i) + 1
    w = (2 * n - 1) / M if M % 2 == 0 else 2 * n / (M + 1.0)
    return _truncate(w, trunc)


def parzen(M, sym=True):
    """cuarray version of `scipy.signal.windows.parzen`."""
    if _len_guards(M):
        return cuarray.ones(M)
    M, trunc = _extend(M, sym)
    an = cuarray.abs(_index(M) - (M - 1) / 2.0)
    r = an / (M / 2.0)
    inner = 1 - 6 * r ** 2 + 6 * r ** 3
    outer = 2 * (1 - r) ** 3
    w = cuarray.where(an <= (M - 1) / 4.0, inner, outer)
    return _truncate(w, trunc)


def bohman(M, sym=True):
    """cuarray version of `scipy.signal.windows.bohman`."""
    if _len_guards(M):
        return cuarray.ones(M)
    M, trunc = _extend(M, sym)
    fac = cuarray.abs(cuarray.linspace(-1, 1, M))
    w = (1 - fac) * cuarray.cos(math.pi * fac) + 1.0 / math.pi * cuarray.sin(math.pi * fac)
    # The end points are zero exactly (the formula leaves rounding there).
    w[0] = 0
    w[-1] = 0
    return _truncate(w, trunc)


def blackman(M, sym=True):
    """cuarray version of `scipy.signal.windows.blackman`."""
    return general_cosine(M, [0.42, 0.50, 0.08], sym)


def nuttall(M, sym=True):
    """cuarray version of `scipy.signal.windows.nuttall`."""
    return general_cosine(M, [0.3635819, 0.4891775, 0.1365995, 0.0106411], sym)


def blackmanharris(M, sym=True):
    """cuarray version of `scipy.signal.windows.blackmanharris`."""
    return general_cosine(M, [0.35875, 0.48829, 0.14128, 0.01168], sym)


def flattop(M, sym=True):
    """cuarray version of `scipy.signal.windows.flattop`."""
    a = [0.21557895, 0.41663158, 0.277263158, 0.083578947, 0.006947368]
    return general_cosine(M, a, sym)


def bartlett(M, sym=True):
    """cuarray version of `scipy.signal.windows.bartlett`."""
    if _len_guards(M):
        return cuarray.ones(M)
    M, trunc = _extend(M, sym)
    n = _index(M)
    w = cuarray.where(n <= (M - 1) / 2.0, 2.0 * n / (M - 1), 2.0 - 2.0 * n / (M - 1))
    return _truncate(w, trunc)


def hann(M, sym=True):
    """cuarray version of `scipy.signal.windows.hann`."""
    return general_hamming(M, 0.5, sym)


def tukey(M, alpha=0.5, sym=True):
    """cuarray version of `scipy.signal.windows.tukey`."""
    if _len_guards(M):
        return cuarray.ones(M)
    if alpha <= 0:
        return cuarray.ones(M, numpy.float64)
    if alpha >= 1.0:
        return hann(M, sym=sym)
    M, trunc = _extend(M, sym)
    n = _index(M)
    width = int(math.floor(alpha * (M - 1) / 2.0))
    left = 0.5 * (1 + cuarray.cos(math.pi * (-1 + 2.0 * n / alpha / (M - 1))))
    right = 0.5 * (1 + cuarray.cos(math.pi * (-2.0 / alpha + 1 + 2.0 * n / alpha / (M - 1))))
    w = cuarray.where(n <= width, left, cuarray.where(n >= M - width - 1, right, 1.0))
    return _truncate(w, trunc)


def barthann(M, sym=True):
    """cuarray version of `scipy.signal.windows.barthann`."""
    if _len_guards(M):
        return cuarray.ones(M)
    M, trunc = _extend(M, sym)
    fac = cuarray.abs(_index(M) / (M - 1.0) - 0.5)
    w = 0.62 - 0.48 * fac + 0.38 * cuarray.cos(2 * math.pi * fac)
    return _truncate(w, trunc)


def general_hamming(M, alpha, sym=True):
    """cuarray version of `scipy.signal.windows.general_hamming`."""
    return general_cosine(M, [alpha, 1.0 - alpha], sym)


def hamming(M, sym=True):
    """cuarray version of `scipy.signal.windows.hamming`."""
    return general_hamming(M, 0.54, sym)


def kaiser(M, beta, sym=True):
    """cuarray version of `scipy.signal.windows.kaiser`."""
    if _len_guards(M):
        return cuarray.ones(M)
    M, trunc = _extend(M, sym)
    # SciPy's formula is NumPy's kaiser: one kernel instead of nine passes.
    return _truncate(cuarray.kaiser(M, float(beta)), trunc)


def kaiser_bessel_derived(M, beta, *, sym=True):
    """cuarray version of `scipy.signal.windows.kaiser_bessel_derived`."""
    if not sym:
        raise ValueError("Kaiser-Bessel Derived windows are only defined for symmetric shapes")
    if M < 1:
        return cuarray.zeros(0)
    if M % 2:
        raise ValueError("Kaiser-Bessel Derived windows are only defined for even number "
                         "of points")
    csum = cuarray.cumsum(kaiser(M // 2 + 1, beta))
    half = cuarray.sqrt(csum[:-1] / csum[-1])
    return cuarray.concatenate((half, half[::-1]))


def gaussian(M, std, sym=True):
    """cuarray version of `scipy.signal.windows.gaussian`."""
    if _len_guards(M):
        return cuarray.ones(M)
    M, trunc = _extend(M, sym)
    n = _index(M) - (M - 1.0) / 2.0
    return _truncate(cuarray.exp(-(n * n) / (2.0 * std * std)), trunc)


def general_gaussian(M, p, sig, sym=True):
    """cuarray version of `scipy.signal.windows.general_gaussian`."""
    if _len_guards(M):
        return cuarray.ones(M)
    M, trunc = _extend(M, sym)
    n = _index(M) - (M - 1.0) / 2.0
    return _truncate(cuarray.exp(-0.5 * cuarray.abs(n / sig) ** (2 * p)), trunc)


def chebwin(M, at, sym=True):
    """cuarray version of `scipy.signal.windows.chebwin`."""
    if abs(at) < 45:
        warnings.warn("This window is not suitable for spectral analysis for attenuation "
                      "values lower than about 45dB because the equivalent noise bandwidth "
                      "of a Chebyshev window does not grow monotonically with increasing "
                      "sidelobe attenuation when the attenuation is smaller than about "
                      "45 dB.", stacklevel=2)
    if _len_guards(M):
        return cuarray.ones(M)
    M, trunc = _extend(M, sym)
    order = M - 1.0
    beta = math.cosh(1.0 / order * math.acosh(10 ** (abs(at) / 20.0)))
    x = beta * cuarray.cos(math.pi * _index(M) / M)
    # The Chebyshev polynomial of the given order, on its three branches.
    big = cuarray.cosh(order * cuarray.arccosh(cuarray.maximum(cuarray.abs(x), 1.0)))
    inner = cuarray.cos(order * cuarray.arccos(cuarray.clip(x, -1.0, 1.0)))
    sign = 1.0 if M % 2 else -1.0
    p = cuarray.where(x > 1, big, cuarray.where(x < -1, sign * big, inner))
    if M % 2:
        w = cuarray.real(cuarray.fft.fft(p))
        n = (M + 1) // 2
        w = w[:n]
        w = cuarray.concatenate((w[n - 1:0:-1], w))
    else:
        p = p * cuarray.exp(1j * math.pi / M * _index(M))
        w = cuarray.real(cuarray.fft.fft(p))
        n = M // 2 + 1
        w = cuarray.concatenate((w[n - 1:0:-1], w[1:n]))
    w = w / cuarray.max(w)
    return _truncate(w, trunc)


def cosine(M, sym=True):
    """cuarray version of `scipy.signal.windows.cosine`."""
    if _len_guards(M):
        return cuarray.ones(M)
    M, trunc = _extend(M, sym)
    return _truncate(cuarray.sin(math.pi / M * (_index(M) + 0.5)), trunc)


def exponential(M, center=None, tau=1.0, sym=True):
    """cuarray version of `scipy.signal.windows.exponential`."""
    if sym and center is not None:
        raise ValueError("If sym==True, center must be None.")
    if _len_guards(M):
        return cuarray.ones(M)
    M, trunc = _extend(M, sym)
    if center is None:
        center = (M - 1) / 2.0
    return _truncate(cuarray.exp(-cuarray.abs(_index(M) - center) / tau), trunc)


def taylor(M, nbar=4, sll=30, norm=True, sym=True):
    """cuarray version of `scipy.signal.windows.taylor`."""
    if _len_guards(M):
        return cuarray.ones(M)
    M, trunc = _extend(M, sym)
    # The nbar - 1 cosine coefficients depend on the parameters only: host scalars.
    B = 10 ** (sll / 20.0)
    A = math.acosh(B) / math.pi
    s2 = nbar ** 2 / (A ** 2 + (nbar - 0.5) ** 2)
    ma = numpy.arange(1, nbar, dtype=numpy.float64)
    m2 = ma ** 2
    Fm = numpy.empty(nbar - 1)
    for mi in range(nbar - 1):
        sign = 1.0 if mi % 2 == 0 else -1.0
        numer = sign * numpy.prod(1 - m2[mi] / s2 / (A ** 2 + (ma - 0.5) ** 2))
        denom = 2 * numpy.prod(1 - m2[mi] / m2[:mi]) * numpy.prod(1 - m2[mi] / m2[mi + 1:])
        Fm[mi] = numer / denom
    phase = 2 * math.pi / M * (_index(M) - M / 2.0 + 0.5)
    w = cuarray.ones(M)
    for m, f in zip(ma.tolist(), Fm.tolist()):
        w += 2 * f * cuarray.cos(m * phase)
    if norm:
        mid = (M - 1) / 2.0
        scale = 1 + 2 * sum(f * math.cos(2 * math.pi * m * (mid - M / 2.0 + 0.5) / M)
                            for m, f in zip(ma.tolist(), Fm.tolist()))
        w = w / scale
    return _truncate(w, trunc)


def lanczos(M, *, sym=True):
    """cuarray version of `scipy.signal.windows.lanczos`."""
    if _len_guards(M):
        return cuarray.ones(M)
    M, trunc = _extend(M, sym)
    i = _index(M)
    # Evaluated on the right half and mirrored, so the window is exactly symmetric.
    k = cuarray.maximum(i, M - 1 - i)
    return _truncate(cuarray.sinc(2.0 * k / (M - 1) - 1.0), trunc)


def dpss(M, NW, Kmax=None, sym=True, norm=None, return_ratios=False):
    """cuarray version of `scipy.signal.windows.dpss` (the tridiagonal eigenproblem is
    solved densely with cuarray.linalg.eigh)."""
    import operator
    from cuarray.scipy import fft as _fft
    if norm is None:
        norm = "approximate" if Kmax is None else 2
    known = (2, "approximate", "subsample")
    if norm not in known:
        raise ValueError(f"norm must be one of {known}, got {norm}")
    singleton = Kmax is None
    Kmax = 1 if singleton else Kmax
    if _len_guards(M):
        if not return_ratios:
            return cuarray.ones(M)
        return (cuarray.ones(M), 1.0) if singleton else (cuarray.ones(M), cuarray.ones(1))
    Kmax = operator.index(Kmax)
    if not 0 < Kmax <= M:
        raise ValueError("Kmax must be greater than 0 and less than M")
    if NW >= M / 2.0:
        raise ValueError("NW must be less than M/2.")
    if NW <= 0:
        raise ValueError("NW must be positive")
    M, trunc = _extend(M, sym)
    W = float(NW) / M
    n = _index(M)
    d = ((M - 1 - 2 * n) / 2.0) ** 2 * math.cos(2 * math.pi * W)
    e = n[1:] * (M - n[1:]) / 2.0
    T = cuarray.diag(d) + cuarray.diag(e, 1) + cuarray.diag(e, -1)
    _, vecs = cuarray.linalg.eigh(T)
    win = cuarray.ascontiguousarray(vecs[:, M - Kmax:][:, ::-1].T)
    # Signs: even-order tapers sum to a positive value, odd-order ones start positive (at
    # their first sample above the threshold).
    k = cuarray.arange(Kmax).reshape(-1, 1)
    sums = cuarray.sum(win, axis=1, keepdims=True)
    thresh = max(1e-7, 1.0 / M)
    first = cuarray.argmax(win * win > thresh, axis=1).reshape(-1, 1)
    lead = cuarray.take_along_axis(win, first, axis=1)
    flip = cuarray.where(k % 2 == 0, sums < 0, lead < 0)
    win = cuarray.where(flip, -win, win)
    ratios = None
    if return_ratios:
        use = _fft.next_fast_len(2 * M - 1)
        f = _fft.rfft(win, use, axis=-1)
        rxx = _fft.irfft(f * f.conj(), n=use)[:, :M]
        r = 4 * W * cuarray.sinc(2 * W * n)
        r[0] = 2 * W
        ratios = rxx @ r
        if singleton:
            ratios = ratios[0]
    if norm != 2:
        win = win / cuarray.max(win)
        if M % 2 == 0:
            if norm == "approximate":
                win = win * (M ** 2 / float(M ** 2 + NW))
            else:
                sp = _fft.rfft(win[0])
                shift = -(1 - 1.0 / M) * cuarray.arange(1, M // 2 + 1, dtype=numpy.float64)
                sp[1:] *= 2 * cuarray.exp(-1j * math.pi * shift)
                win = win * (M / cuarray.sum(sp.real))
    if trunc:
        win = win[:, :-1]
    if singleton:
        win = win[0]
    return (win, ratios) if return_ratios else win


_WIN_FUNC_DATA = {
    ("barthann", "brthan", "bth"): (barthann, False),
    ("bartlett", "bart", "brt"): (bartlett, False),
    ("blackman", "black", "blk"): (blackman, False),
    ("blackmanharris", "blackharr", "bkh"): (blackmanharris, False),
    ("bohman", "bman", "bmn"): (bohman, False),
    ("boxcar", "box", "ones", "rect", "rectangular"): (boxcar, False),
    ("chebwin", "cheb"): (chebwin, True),
    ("cosine", "halfcosine"): (cosine, False),
    ("dpss",): (dpss, True),
    ("exponential", "poisson"): (exponential, "OPTIONAL"),
    ("flattop", "flat", "flt"): (flattop, False),
    ("gaussian", "gauss", "gss"): (gaussian, True),
    ("general cosine", "general_cosine"): (general_cosine, True),
    ("general gaussian", "general_gaussian", "general gauss", "general_gauss", "ggs"):
        (general_gaussian, True),
    ("general hamming", "general_hamming"): (general_hamming, True),
    ("hamming", "hamm", "ham"): (hamming, False),
    ("hann", "han"): (hann, False),
    ("kaiser", "ksr"): (kaiser, True),
    ("kaiser bessel derived", "kaiser_bessel_derived", "kbd"): (kaiser_bessel_derived, True),
    ("lanczos", "sinc"): (lanczos, False),
    ("nuttall", "nutl", "nut"): (nuttall, False),
    ("parzen", "parz", "par"): (parzen, False),
    ("taylor", "taylorwin"): (taylor, "OPTIONAL"),
    ("triangle", "triang", "tri"): (triang, False),
    ("tukey", "tuk"): (tukey, "OPTIONAL"),
}
_WIN_FUNCS = {n: v for names, v in _WIN_FUNC_DATA.items() for n in names}


def get_window(window, Nx, fftbins=True):
    """cuarray version of `scipy.signal.windows.get_window`."""
    if not (isinstance(Nx, numbers.Integral) and Nx > 0):
        raise ValueError(f"Parameter {Nx=} is not a positive integer")
    if not isinstance(fftbins, bool):
        raise ValueError(f"Parameter {fftbins=} is not of type bool!")
    if not isinstance(window, (str, tuple)):
        try:
            beta = float(window)
        except Exception as exc:
            raise ValueError(f"Parameter {window=} must be a tuple, a string or a float!") \
                from exc
        return kaiser(Nx, beta, not fftbins)
    if isinstance(window, tuple) and not isinstance(window[0], str):
        raise ValueError(f"First tuple entry of parameter {window=} is not a str!")
    sym = not fftbins
    name = window if isinstance(window, str) else window[0]
    if name.endswith("_symmetric"):
        sym, name = True, name[:-10]
    elif name.endswith("_periodic"):
        sym, name = False, name[:-9]
    if name not in _WIN_FUNCS:
        raise ValueError(f"Invalid window name '{name}' in parameter {window=}!")
    func, has_args = _WIN_FUNCS[name]
    args = window[1:] if isinstance(window, tuple) else ()
    if args and has_args is False:
        raise ValueError(f"'{name}' does not allow parameters, but {window=}!")
    if not args and has_args is True:
        raise ValueError(f"'{name}' must have parameters, but {window=}!")
    if func is dpss:
        if len(args) != 1:
            raise ValueError(f"Window {name} must have one parameter but {window=}")
        return dpss(Nx, args[0], Kmax=None, sym=sym)
    return func(Nx, *args, sym=sym)
