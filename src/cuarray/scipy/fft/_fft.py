"""scipy.fft's transforms over cuarray.fft (cuarray version of `scipy.fft`).

SciPy's signatures and argument rules (N-D lengths and axes as `_init_nd_shape_and_axes`,
unique axes, -1 for the input's length); the transforms are cuarray.fft's, on cuFFT.
`workers` is accepted and ignored, `overwrite_x` too but by the inverse real transforms
(which then skip a copy of their input); cuarray plans and caches cuFFT plans
itself (`cuarray.fft.config`); `plan` takes one made by `get_fft_plan`.
"""
from cuarray import fft as _np_fft
from cuarray.fft import _fft as _impl
from cuarray._core.ndarray import ndarray
from cuarray.scipy.fft._helper import init_nd_shape_and_axes
from cuarray.scipy.fft._plan import using

_SWAP = {None: "forward", "backward": "forward", "ortho": "ortho", "forward": "backward"}


def _check(x, name, plan):
    if not isinstance(x, ndarray):
        _np_fft._fft._check_array(x, name)
    return using(plan)


def _swap(norm):
    if norm not in _SWAP:
        raise ValueError(f'Invalid norm value {norm}; should be "backward","ortho" or '
                         '"forward".')
    return _SWAP[norm]


def _nd(x, s, axes, real_out=False):
    shape, axes = init_nd_shape_and_axes(x.ndim, x.shape, s, axes)
    if real_out and s is None:
        shape = shape[:-1] + (2 * (x.shape[axes[-1]] - 1),)
    return shape, axes


def _one_d(name, summary):
    """scipy.fft's 1-D transform `name`: cuarray.fft's (looked up at each call, as a
    direct call would be), with SciPy's signature."""
    def f(x, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *, plan=None):
        with _check(x, name, plan):
            return getattr(_np_fft, name)(x, n, axis, norm)
    f.__doc__ = f"{summary} (cuarray version of `scipy.fft.{name}`)."
    f.__name__ = f.__qualname__ = name
    return f


fft, ifft, rfft, hfft, ihfft = (_one_d(name, summary) for name, summary in (
    ("fft", "The 1-D discrete Fourier transform"),
    ("ifft", "The 1-D inverse discrete Fourier transform"),
    ("rfft", "The 1-D transform of real input"),
    ("hfft", "The transform of a Hermitian-symmetric signal"),
    ("ihfft", "The inverse of `hfft`")))


def irfft(x, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """The inverse of `rfft` (cuarray version of `scipy.fft.irfft`); with `overwrite_x`
    cuFFT works on `x` itself (its C2R overwrites its input) instead of on a copy."""
    with _check(x, "irfft", plan):
        if overwrite_x and isinstance(x, ndarray):
            return _impl._one("irfft", x, n, axis, norm, None, "C2R", False, True)
        return _np_fft.irfft(x, n, axis, norm)


def fftn(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """The N-D discrete Fourier transform (cuarray version of `scipy.fft.fftn`)."""
    with _check(x, "fftn", plan):
        s, axes = _nd(x, s, axes)
        return _np_fft.fftn(x, s, axes, norm)


def ifftn(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """The N-D inverse discrete Fourier transform (cuarray version of `scipy.fft.ifftn`)."""
    with _check(x, "ifftn", plan):
        s, axes = _nd(x, s, axes)
        return _np_fft.ifftn(x, s, axes, norm)


def fft2(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *, plan=None):
    """The 2-D discrete Fourier transform (cuarray version of `scipy.fft.fft2`)."""
    return fftn(x, s, axes, norm, plan=plan)


def ifft2(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *, plan=None):
    """The 2-D inverse discrete Fourier transform (cuarray version of `scipy.fft.ifft2`)."""
    return ifftn(x, s, axes, norm, plan=plan)


def _at_least_one(axes):
    if not axes:
        raise ValueError("at least 1 axis must be transformed")


def rfftn(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """The N-D transform of real input (cuarray version of `scipy.fft.rfftn`)."""
    with _check(x, "rfftn", plan):
        s, axes = _nd(x, s, axes)
        _at_least_one(axes)
        return _np_fft.rfftn(x, s, axes, norm)


def irfftn(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """The inverse of `rfftn` (cuarray version of `scipy.fft.irfftn`); `overwrite_x` as
    for `irfft`."""
    with _check(x, "irfftn", plan):
        s, axes = _nd(x, s, axes, real_out=True)
        _at_least_one(axes)
        if overwrite_x:
            return _impl._many("irfftn", x, s, axes, norm, None, "C2R", False, True)
        return _np_fft.irfftn(x, s, axes, norm)


def rfft2(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *, plan=None):
    """The 2-D transform of real input (cuarray version of `scipy.fft.rfft2`)."""
    return rfftn(x, s, axes, norm, plan=plan)


def irfft2(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *,
           plan=None):
    """The inverse of `rfft2` (cuarray version of `scipy.fft.irfft2`)."""
    return irfftn(x, s, axes, norm, plan=plan)


def hfftn(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """The N-D transform of a Hermitian-symmetric signal: irfftn of its conjugate with the
    normalisation swapped (cuarray version of `scipy.fft.hfftn`)."""
    with _check(x, "hfftn", plan):
        s, axes = _nd(x, s, axes, real_out=True)
        _at_least_one(axes)
        from cuarray._core._ops import conjugate
        xc = conjugate(x) if x.dtype.kind == "c" else x
        return _np_fft.irfftn(xc, s, axes, _swap(norm))


def ihfftn(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """The inverse of `hfftn` (cuarray version of `scipy.fft.ihfftn`)."""
    with _check(x, "ihfftn", plan):
        s, axes = _nd(x, s, axes)
        _at_least_one(axes)
        from cuarray._core._ops import conjugate
        r = _np_fft.rfftn(x, s, axes, _swap(norm))
        return conjugate(r, out=r)


def hfft2(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *, plan=None):
    """The 2-D `hfftn` (cuarray version of `scipy.fft.hfft2`)."""
    return hfftn(x, s, axes, norm, plan=plan)


def ihfft2(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *,
           plan=None):
    """The 2-D `ihfftn` (cuarray version of `scipy.fft.ihfft2`)."""
    return ihfftn(x, s, axes, norm, plan=plan)


def fftfreq(n, d=1.0, *, xp=None, device=None):
    """Sample frequencies of `fft` (cuarray version of `scipy.fft.fftfreq`); the result
    is a cuarray array whatever `xp` says."""
    return _np_fft.fftfreq(n, d, device)


def rfftfreq(n, d=1.0, *, xp=None, device=None):
    """Sample frequencies of `rfft` (cuarray version of `scipy.fft.rfftfreq`)."""
    return _np_fft.rfftfreq(n, d, device)


def fftshift(x, axes=None):
    """Move the zero frequency to the centre (cuarray version of `scipy.fft.fftshift`)."""
    return _np_fft.fftshift(x, axes)


def ifftshift(x, axes=None):
    """The inverse of `fftshift` (cuarray version of `scipy.fft.ifftshift`)."""
    return _np_fft.ifftshift(x, axes)
