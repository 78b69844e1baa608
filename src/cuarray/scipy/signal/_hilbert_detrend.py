"""Analytic signals, envelopes and trend removal (cuarray version of
`scipy.signal.hilbert`, `hilbert2`, `envelope`, `detrend`)."""
import numpy

import cuarray
from cuarray._core.host_policy import not_device_error
from cuarray._core.ndarray import ndarray
from cuarray.scipy import fft as _fft

__all__ = ["hilbert", "hilbert2", "envelope", "detrend"]


def _check(x, name):
    if not isinstance(x, ndarray):
        raise not_device_error(name, x, "cuarray.scipy.signal.")


def hilbert(x, N=None, axis=-1):
    """cuarray version of `scipy.signal.hilbert`."""
    _check(x, "hilbert")
    if x.dtype.kind == "c":
        raise ValueError("x must be real.")
    if N is None:
        N = x.shape[axis]
    if N <= 0:
        raise ValueError("N must be positive.")
    Xf = _fft.fft(x, N, axis=axis)
    h = cuarray.zeros(N, Xf.real.dtype)
    if N % 2 == 0:
        h[0] = h[N // 2] = 1
        h[1:N // 2] = 2
    else:
        h[0] = 1
        h[1:(N + 1) // 2] = 2
    shape = [1] * x.ndim
    shape[axis] = N
    return _fft.ifft(Xf * h.reshape(shape), axis=axis)


def hilbert2(x, N=None, axes=(-2, -1)):
    """cuarray version of `scipy.signal.hilbert2`."""
    _check(x, "hilbert2")
    if x.ndim < 2:
        x = x.reshape((1,) * (2 - x.ndim) + x.shape)
    if x.dtype.kind == "c":
        raise ValueError("x must be real.")
    if len(axes) != 2:
        raise ValueError("axes must be a tuple of length 2")
    if axes[0] == axes[1] or axes[0] % x.ndim == axes[1] % x.ndim:
        raise ValueError("axes must contain 2 distinct axes")
    if N is None:
        N = (x.shape[axes[0]], x.shape[axes[1]])
    elif isinstance(N, int):
        if N <= 0:
            raise ValueError("N must be positive.")
        N = (N, N)
    elif len(N) != 2 or numpy.any(numpy.asarray(N) <= 0):
        raise ValueError("When given as a tuple, N must hold exactly two positive integers")
    Xf = _fft.fft2(x, N, axes=axes)
    k0, k1 = (N[0] + 1) // 2, (N[1] + 1) // 2
    h0 = cuarray.zeros(N[0], Xf.real.dtype)
    h1 = cuarray.zeros(N[1], Xf.real.dtype)
    h0[0] = h1[0] = 1
    h0[1:k0] = 2
    h1[1:k1] = 2
    s0 = [1] * x.ndim
    s0[axes[0]] = N[0]
    s1 = [1] * x.ndim
    s1[axes[1]] = N[1]
    return _fft.ifft2(Xf * h0.reshape(s0) * h1.reshape(s1), axes=axes)


def detrend(data, axis=-1, type="linear", bp=0, overwrite_data=False):
    """cuarray version of `scipy.signal.detrend` (breakpoints are host integers)."""
    _check(data, "detrend")
    if type not in ("linear", "l", "constant", "c"):
        raise ValueError("Trend type must be 'linear' or 'constant'.")
    dt = data.dtype if data.dtype.char in "dfDF" else numpy.dtype(numpy.float64)
    data = data.astype(dt, copy=False)
    if data.ndim == 0:
        return data - data if type in ("constant", "c") else data.copy()
    if type in ("constant", "c"):
        return data - cuarray.mean(data, axis=axis, keepdims=True)
    N = data.shape[axis]
    bps = numpy.sort(numpy.unique(numpy.concatenate(numpy.atleast_1d(0, bp, N))))
    if numpy.any(bps > N):
        raise ValueError("Breakpoints must be less than length of data along given axis.")
    x = cuarray.moveaxis(data, axis, -1)
    rdt = numpy.dtype(dt.char.lower())
    parts = []
    for lo, hi in zip(bps[:-1].tolist(), bps[1:].tolist()):
        seg = x[..., lo:hi]
        n = hi - lo
        mean = cuarray.mean(seg, axis=-1, keepdims=True)
        if n < 2:
            parts.append(seg - mean)
            continue
        tc = cuarray.arange(n, dtype=rdt) - (n - 1) / 2.0
        slope = cuarray.sum(seg * tc, axis=-1, keepdims=True) / float(n * (n * n - 1) / 12.0)
        parts.append(seg - mean - slope * tc)
    out = cuarray.concatenate(parts, axis=-1) if len(parts) > 1 else parts[0]
    return cuarray.moveaxis(out, -1, axis)


def envelope(z, bp_in=(1, None), *, n_out=None, squared=False, residual="lowpass", axis=-1):
    """cuarray version of `scipy.signal.envelope`."""
    _check(z, "envelope")
    if not -z.ndim <= axis < z.ndim:
        raise ValueError(f"Invalid parameter axis={axis!r} for z.shape={z.shape!r}!")
    if not z.shape[axis] > 0:
        raise ValueError(f"z.shape[axis] not > 0 for z.shape={z.shape!r}, axis={axis!r}!")
    if len(bp_in) != 2 or not all(isinstance(b, int) or b is None for b in bp_in):
        raise ValueError(f"bp_in={bp_in!r} isn't a 2-tuple of type (int | None, int | None)!")
    if not (isinstance(n_out, int) and 0 < n_out or n_out is None):
        raise ValueError(f"n_out={n_out!r} is not a positive integer or None!")
    if residual not in ("lowpass", "all", None):
        raise ValueError(f"residual={residual!r} not in ['lowpass', 'all', None]!")
    n = z.shape[axis]
    n_out = n if n_out is None else n_out
    fak = n_out / n
    b0 = bp_in[0] if bp_in[0] is not None else -(n // 2)
    b1 = bp_in[1] if bp_in[1] is not None else (n + 1) // 2
    if not -n // 2 <= b0 < b1 <= (n + 1) // 2:
        raise ValueError("`-n//2 <= bp_in[0] < bp_in[1] <= (n+1)//2` does not hold for "
                         f"n=z.shape[axis]={z.shape[axis]!r} and bp_in={bp_in!r}!")
    z = cuarray.moveaxis(z, axis, -1)
    cplx = z.dtype.kind == "c"
    if cplx:
        Z = _fft.fft(z)
    else:
        # a one-sided spectrum, the band's positive frequencies doubled (an analytic signal)
        R = _fft.rfft(z)
        Z = cuarray.zeros(z.shape, R.dtype)
        Z[..., :n // 2 + 1] = R
        if b0 > 0:
            Z[..., b0:b1] *= 2
        elif b1 > 0:
            Z[..., 1:b1] *= 2
    straddles = b0 <= 0 < b1
    if not straddles:
        z_bb = _fft.ifft(Z[..., b0:b1], n=n_out) * fak
    else:
        shifted = cuarray.fft.fftshift(Z, axes=-1)[..., b0 + n // 2:b1 + n // 2]
        z_bb = _fft.ifft(shifted, n=n_out) * fak
    z_env = cuarray.abs(z_bb) if not squared else z_bb.real ** 2 + z_bb.imag ** 2
    z_env = cuarray.moveaxis(z_env, -1, axis)
    if residual is None:
        return z_env
    if not straddles:
        Z[..., b0:b1] = 0
    else:
        Z[..., :b1] = 0
        Z[..., b0:] = 0
    if residual == "lowpass":
        if b1 > 0:
            Z[..., b1:(n + 1) // 2] = 0
        else:
            Z[..., b0:] = 0
            Z[..., 0:(n + 1) // 2] = 0
    if cplx:
        from cuarray.scipy.signal._resample import resample
        z_res = resample(Z, n_out, axis=-1, domain="freq")
    else:
        m = min(n, n_out)
        if n_out != n and m % 2 == 0:
            Z[..., m // 2] *= 2 if n_out < n else 0.5
        z_res = fak * _fft.irfft(Z, n=n_out)
    return cuarray.stack((z_env, cuarray.moveaxis(z_res, -1, axis)), axis=0)
