"""scipy.fftpack's transforms over cuarray.fft (cuarray version of `scipy.fftpack`).

`rfft`/`irfft` use FFTPACK's packed real layout,
    [y(0), Re y(1), Im y(1), ..., Re y(n/2)]          (n even)
    [y(0), Re y(1), Im y(1), ..., Re y((n-1)/2), Im y((n-1)/2)]   (n odd),
made on the GPU by one kernel from cuFFT's half spectrum (and unmade by one before the
inverse). float32 input stays float32, as SciPy's fftpack.
"""
import functools
import operator

import numpy

from cuarray import fft as _np_fft
from cuarray._core import dtypes as _dt
from cuarray._core.elementwise import Op, Param
from cuarray._core.ndarray import ndarray
from cuarray.scipy.fft import _realtransforms as _rt
from cuarray.scipy.fft._helper import _smooth_at_least, init_nd_shape_and_axes, iterable_of_int

_i64 = numpy.dtype(numpy.int64)


def _need(x, name):
    if not isinstance(x, ndarray):
        _np_fft._fft._check_array(x, name)
    return x


# ---- complex transforms ---------------------------------------------------------------------

def fft(x, n=None, axis=-1, overwrite_x=False):
    """The 1-D discrete Fourier transform (cuarray version of `scipy.fftpack.fft`)."""
    return _np_fft.fft(_need(x, "fft"), n, axis)


def ifft(x, n=None, axis=-1, overwrite_x=False):
    """The 1-D inverse discrete Fourier transform (cuarray version of
    `scipy.fftpack.ifft`)."""
    return _np_fft.ifft(_need(x, "ifft"), n, axis)


def _good_shape(x, shape, axes):
    """fftpack wants one length per axis of `x` when `axes` is not given."""
    if shape is not None and axes is None:
        shape = iterable_of_int(shape, "shape")
        if len(shape) != x.ndim:
            raise ValueError("when given, axes and shape arguments have to be of the same "
                             "length")
    return shape


def fftn(x, shape=None, axes=None, overwrite_x=False):
    """The N-D discrete Fourier transform (cuarray version of `scipy.fftpack.fftn`)."""
    x = _need(x, "fftn")
    s, axes = init_nd_shape_and_axes(x.ndim, x.shape, _good_shape(x, shape, axes), axes)
    return _np_fft.fftn(x, s, axes)


def ifftn(x, shape=None, axes=None, overwrite_x=False):
    """The N-D inverse discrete Fourier transform (cuarray version of
    `scipy.fftpack.ifftn`)."""
    x = _need(x, "ifftn")
    s, axes = init_nd_shape_and_axes(x.ndim, x.shape, _good_shape(x, shape, axes), axes)
    return _np_fft.ifftn(x, s, axes)


def fft2(x, shape=None, axes=(-2, -1), overwrite_x=False):
    """The 2-D discrete Fourier transform (cuarray version of `scipy.fftpack.fft2`)."""
    return fftn(x, shape, axes)


def ifft2(x, shape=None, axes=(-2, -1), overwrite_x=False):
    """The 2-D inverse discrete Fourier transform (cuarray version of
    `scipy.fftpack.ifft2`)."""
    return ifftn(x, shape, axes)


# ---- FFTPACK's packed real transforms -------------------------------------------------------

@functools.cache
def _pack_op(cdt, rdt):
    """y (rows, n) from the half spectrum r (rows, n // 2 + 1)."""
    return Op(
        f"cuarray_fftpack_pack_{cdt.char}",
        [Param("r", "raw", cdt), Param("n", "scalar", _i64), Param("m", "scalar", _i64),
         Param("y", "out", rdt)],
        "const long long row = i / n, j = i - row * n; "
        "const auto z = r[row * m + (j + 1) / 2]; "
        "y = (j == 0 || (j & 1)) ? z.real() : z.imag();")


@functools.cache
def _unpack_op(rdt, cdt):
    """The half spectrum r (rows, n // 2 + 1) from packed y (rows, n)."""
    C = _dt.ctype(cdt)
    return Op(
        f"cuarray_fftpack_unpack_{rdt.char}",
        [Param("y", "raw", rdt), Param("n", "scalar", _i64), Param("m", "scalar", _i64),
         Param("r", "out", cdt)],
        f"const long long row = i / m, k = i - row * m; "
        f"const {_dt.ctype(rdt)}* p = &y[row * n]; "
        f"r = {C}(k == 0 ? p[0] : p[2 * k - 1], (k == 0 || 2 * k >= n) ? 0 : p[2 * k]);")


def _last(a, axis):
    from cuarray._routines.manipulation import moveaxis
    return moveaxis(a, axis, -1)


def _back(a, axis, ndim):
    from cuarray._routines.manipulation import moveaxis
    r = moveaxis(a, -1, axis)
    return r if axis % ndim == ndim - 1 else r.copy()


def rfft(x, n=None, axis=-1, overwrite_x=False):
    """The 1-D transform of real input in FFTPACK's packed layout (cuarray version of
    `scipy.fftpack.rfft`)."""
    x = _need(x, "rfft")
    if x.dtype.kind == "c":
        raise TypeError("x must be a real sequence")
    r = _np_fft.rfft(x, n, axis)   # validates n and axis
    ax = operator.index(axis) % x.ndim
    n = x.shape[ax] if n is None else operator.index(n)
    rdt = numpy.dtype(r.dtype.char.lower())
    rl = _last(r, ax)
    rl = rl if rl._c_contig else rl.copy()
    y = ndarray._alloc(rl.shape[:-1] + (n,), rdt)
    if y.size:
        _pack_op(r.dtype, rdt).launch([rl, numpy.int64(n), numpy.int64(rl.shape[-1]), y])
    return _back(y, ax, x.ndim)


def irfft(x, n=None, axis=-1, overwrite_x=False):
    """The inverse of `rfft`, reading FFTPACK's packed layout (cuarray version of
    `scipy.fftpack.irfft`); `n` crops or zero-pads the packed input first."""
    x = _need(x, "irfft")
    if x.dtype.kind == "c":
        raise TypeError("1st argument must be real sequence")
    ax = operator.index(axis) % x.ndim
    n = x.shape[ax] if n is None else operator.index(n)
    if n < 1:
        raise ValueError(f"invalid number of data points ({n}) specified")
    rdt = numpy.dtype(numpy.float32 if x.dtype.char in "ef" else numpy.float64)
    cdt = numpy.dtype(rdt.char.upper())
    xl = _last(x, ax)
    m = xl.shape[-1]
    y = ndarray._alloc(xl.shape[:-1] + (n,), rdt)
    if n > m:
        y.fill(0)
        y[..., :m] = xl
    else:
        y[...] = xl[..., :n]
    r = ndarray._alloc(xl.shape[:-1] + (n // 2 + 1,), cdt)
    if r.size:
        _unpack_op(rdt, cdt).launch([y, numpy.int64(n), numpy.int64(n // 2 + 1), r])
    out = _np_fft.irfft(r, n, -1)
    return _back(out, ax, x.ndim)


# ---- helpers ----------------------------------------------------------------------------------

def fftfreq(n, d=1.0, device=None):
    """Sample frequencies of `fft` (cuarray version of `scipy.fftpack.fftfreq`)."""
    return _np_fft.fftfreq(n, d, device)


def rfftfreq(n, d=1.0):
    """Sample frequencies of the packed `rfft`: [0, 1, 1, 2, 2, ...] / (n d) (cuarray
    version of `scipy.fftpack.rfftfreq`)."""
    n = operator.index(n)
    if n < 0:
        raise ValueError(f"n = {n} is not valid. n must be a nonnegative integer.")
    from cuarray._routines.creation import arange
    return (arange(1, n + 1, dtype=numpy.int64) // 2) / float(n * d)


def fftshift(x, axes=None):
    """cuarray version of `scipy.fftpack.fftshift`."""
    return _np_fft.fftshift(x, axes)


def ifftshift(x, axes=None):
    """cuarray version of `scipy.fftpack.ifftshift`."""
    return _np_fft.ifftshift(x, axes)


def next_fast_len(target):
    """The smallest product of 2, 3 and 5 that is >= target (cuarray version of
    `scipy.fftpack.next_fast_len`)."""
    target = operator.index(target)
    if target < 1:
        raise ValueError("Target length must be positive")
    return _smooth_at_least(target, (2, 3, 5))


# ---- real-to-real transforms: fftpack's inverses are the unscaled transforms of the inverse
# type (idct(dct(x)) == 2N x), where scipy.fft's idct divides ------------------------------

_INV = {1: 1, 2: 3, 3: 2, 4: 4}


def dct(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False):
    """The discrete cosine transform (cuarray version of `scipy.fftpack.dct`)."""
    return _rt.dct(x, type, n, axis, norm)


def idct(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False):
    """The DCT of the inverse type, unscaled unless norm='ortho' (cuarray version of
    `scipy.fftpack.idct`)."""
    return _rt.dct(x, _INV.get(type, type), n, axis, norm)


def dst(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False):
    """The discrete sine transform (cuarray version of `scipy.fftpack.dst`)."""
    return _rt.dst(x, type, n, axis, norm)


def idst(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False):
    """The DST of the inverse type, unscaled unless norm='ortho' (cuarray version of
    `scipy.fftpack.idst`)."""
    return _rt.dst(x, _INV.get(type, type), n, axis, norm)


def _nd(f, x, type, shape, axes, norm, name):
    x = _need(x, name)
    shape, axes = init_nd_shape_and_axes(x.ndim, x.shape, _good_shape(x, shape, axes), axes)
    for n, ax in zip(shape, axes):
        x = f(x, type, n, ax, norm)
    return x


def dctn(x, type=2, shape=None, axes=None, norm=None, overwrite_x=False):
    """The N-D discrete cosine transform (cuarray version of `scipy.fftpack.dctn`)."""
    return _nd(dct, x, type, shape, axes, norm, "dctn")


def idctn(x, type=2, shape=None, axes=None, norm=None, overwrite_x=False):
    """The N-D `idct` (cuarray version of `scipy.fftpack.idctn`)."""
    return _nd(idct, x, type, shape, axes, norm, "idctn")


def dstn(x, type=2, shape=None, axes=None, norm=None, overwrite_x=False):
    """The N-D discrete sine transform (cuarray version of `scipy.fftpack.dstn`)."""
    return _nd(dst, x, type, shape, axes, norm, "dstn")


def idstn(x, type=2, shape=None, axes=None, norm=None, overwrite_x=False):
    """The N-D `idst` (cuarray version of `scipy.fftpack.idstn`)."""
    return _nd(idst, x, type, shape, axes, norm, "idstn")
