"""Discrete cosine and sine transforms, types 1-4, on cuFFT (cuarray version of
`scipy.fft.dct` and relatives).

Each 1-D transform of rows of length N is three launches: a gather kernel builds the
sequence cuFFT transforms (cropping or zero-padding x to n on the fly), one real or
complex FFT, and a kernel applying the twiddles, the normalisation and SciPy's
orthogonalisation factors:
- DCT-II: Makhoul's reordering v = [x0, x2, ..., x3, x1], an N-point rfft, and
  y[k] = 2 Re(exp(-i pi k / 2N) V[k]); DCT-III runs it backwards through an irfft.
- DST-II/III are DCT-II/III of x with alternating signs, read in reverse order.
- DCT-I/DST-I: the even (odd) extension of x through a 2(N-1)- (2(N+1)-) point rfft.
- DCT-IV/DST-IV: a 2N-point complex FFT of x[n] exp(-i pi n / 2N), whose real (minus
  imaginary) part times exp(-i pi (2k+1) / 4N) is the transform.
Complex input transforms its real and imaginary parts. float16 computes in float32 and
integers in float64, as SciPy.
"""
import functools
import math
import operator

import numpy

from cuarray import fft as _np_fft
from cuarray._core.elementwise import Op, Param
from cuarray._core.ndarray import ndarray
from cuarray.scipy.fft._helper import init_nd_shape_and_axes

_i64 = numpy.dtype(numpy.int64)
_NORMS = (None, "backward", "ortho", "forward")

# Gather kernels: build the FFT's input row from x (rows of nin values, cropped or padded
# to n). `X(j)` is x[j] of the row, 0 past nin; f0/fl scale the first/last input value.
_X = ("auto X = [&](long long j) -> T { "
      "T v = j < nin ? T(x[row * nin + j]) : T(0); "
      "return j == 0 ? v * f0 : (j == n - 1 ? v * fl : v); };")
_PRE = {
    # DCT-II (Makhoul): v[m] = x[2m] for m < ceil(n/2), x[2(n-1-m)+1] after; sgn=-1: DST-II
    "even_odd": ("const long long m = i - row * M; "
                 "v = m < (n + 1) / 2 ? X(2 * m) : sgn * X(2 * (n - 1 - m) + 1);"),
    # DCT-III backwards: Z[k] = exp(i pi k/2N) (X[k] - i X[N-k]); rev: DST-III reads x reversed
    "makhoul_inv": ("const long long k = i - row * M; "
                    "auto R = [&](long long j) -> T { "
                    "return j >= n ? T(0) : (rev ? X(n - 1 - j) : X(j)); }; "
                    "const T a = R(k), b = R(n - k); T sn, cs; "
                    "cusp_sincospi(T(k) / T(2 * n), &sn, &cs); "
                    "v = C(a * cs + b * sn, a * sn - b * cs);"),
    # DCT-I: even extension of length 2(n-1)
    "even_ext": ("const long long m = i - row * M; v = m < n ? X(m) : X(M - m);"),
    # DST-I: odd extension of length 2(n+1)
    "odd_ext": ("const long long m = i - row * M; "
                "v = (m == 0 || m == n + 1) ? T(0) : (m <= n ? X(m - 1) : -X(M - m - 1));"),
    # DCT-IV/DST-IV: x[m] exp(-i pi m / 2N), zero-padded to 2N
    "quarter": ("const long long m = i - row * M; T sn, cs; "
                "cusp_sincospi(T(m) / T(2 * n), &sn, &cs); "
                "const T a = m < n ? X(m) : T(0); v = C(a * cs, -a * sn);"),
}
# Post kernels: y row of length n from the FFT's output V (rows of M values).
_POST = {
    # DCT-II: y[k] = 2 Re(exp(-i pi k / 2N) V[k]), V[k] = conj(V[N-k]) past N/2; DST-II
    # (rev) is the DCT-II of the sign-alternated x, read backwards
    "even_odd": ("long long k = i - row * n; const long long kk = rev ? n - 1 - k : k; "
                 "const bool up = kk > n / 2; const auto z = V[row * M + (up ? n - kk : kk)]; "
                 "const T zr = z.real(), zi = up ? -z.imag() : z.imag(); T sn, cs; "
                 "cusp_sincospi(T(kk) / T(2 * n), &sn, &cs); "
                 "T r = T(2) * (zr * cs + zi * sn);"),
    # DCT-III / DST-III: undo Makhoul's order
    "makhoul_inv": ("long long k = i - row * n; "
                    "T r = V[row * M + ((k & 1) ? n - 1 - (k - 1) / 2 : k / 2)]; "
                    "if (rev && (k & 1)) r = -r;"),
    "even_ext": ("long long k = i - row * n; T r = V[row * M + k].real();"),
    "odd_ext": ("long long k = i - row * n; T r = -V[row * M + k + 1].imag();"),
    "quarter": ("long long k = i - row * n; const auto z = V[row * M + k]; T sn, cs; "
                "cusp_sincospi(T(2 * k + 1) / T(4 * n), &sn, &cs); "
                "T r = rev ? T(-2) * (z.imag() * cs - z.real() * sn) "
                ": T(2) * (z.real() * cs + z.imag() * sn);"),
}
_SINCOS = r"""
CUARRAY_FN void cusp_sincospi(double a, double* s, double* c) { sincospi(a, s, c); }
CUARRAY_FN void cusp_sincospi(float a, float* s, float* c) {
  double sd, cd; sincospi((double)a, &sd, &cd); *s = (float)sd; *c = (float)cd;
}
"""

# type -> (pre kernel, post kernel, FFT, reversed/signed variant)
_PLAN = {
    ("dct", 1): ("even_ext", "even_ext", "rfft", False),
    ("dct", 2): ("even_odd", "even_odd", "rfft", False),
    ("dct", 3): ("makhoul_inv", "makhoul_inv", "irfft", False),
    ("dct", 4): ("quarter", "quarter", "fft", False),
    ("dst", 1): ("odd_ext", "odd_ext", "rfft", False),
    ("dst", 2): ("even_odd", "even_odd", "rfft", True),
    ("dst", 3): ("makhoul_inv", "makhoul_inv", "irfft", True),
    ("dst", 4): ("quarter", "quarter", "fft", True),
}


@functools.cache
def _pre_op(kind, rdt, xdt, vdt):
    from cuarray._core import dtypes as _dt
    T, C = _dt.ctype(rdt), _dt.ctype(numpy.dtype(rdt.char.upper()))
    return Op(
        f"cuarray_dtt_pre_{kind}_{rdt.char}{xdt.char}",
        [Param("x", "raw", xdt), Param("nin", "scalar", _i64), Param("n", "scalar", _i64),
         Param("M", "scalar", _i64), Param("f0", "scalar", rdt), Param("fl", "scalar", rdt),
         Param("sgn", "scalar", rdt), Param("rev", "scalar", numpy.dtype(bool)),
         Param("v", "out", vdt)],
        f"typedef {T} T; typedef {C} C; const long long row = i / M; " + _X + _PRE[kind],
        preamble=_SINCOS)


@functools.cache
def _post_op(kind, rdt, vdt):
    from cuarray._core import dtypes as _dt
    T = _dt.ctype(rdt)
    return Op(
        f"cuarray_dtt_post_{kind}_{rdt.char}",
        [Param("V", "raw", vdt), Param("n", "scalar", _i64), Param("M", "scalar", _i64),
         Param("s", "scalar", rdt), Param("g0", "scalar", rdt), Param("gl", "scalar", rdt),
         Param("rev", "scalar", numpy.dtype(bool)), Param("y", "out", rdt)],
        f"typedef {T} T; const long long row = i / n; " + _POST[kind] +
        " y = r * (k == 0 ? s * g0 : (k == n - 1 ? s * gl : s));",
        preamble=_SINCOS)


def _factors(family, t, n, norm, orthogonalize):
    """(overall scale, first/last input factors, first/last output factors)."""
    if family == "dct" and t == 1:
        m = 2 * (n - 1)
    elif family == "dst" and t == 1:
        m = 2 * (n + 1)
    else:
        m = 2 * n
    s = {"backward": 1.0, "ortho": 1 / math.sqrt(m), "forward": 1.0 / m}[norm]
    f0 = fl = g0 = gl = 1.0
    if orthogonalize:
        r = math.sqrt(2.0)
        if family == "dct" and t == 1:
            f0 = fl = r
            g0 = gl = 1 / r
        elif t == 2:
            if family == "dct":
                g0 = 1 / r
            else:
                gl = 1 / r
        elif t == 3:
            if family == "dct":
                f0 = r
            else:
                fl = r
    if n == 1:   # one value is first and last; no type with n = 1 scales both ends
        f0 = fl = f0 * fl
        g0 = gl = g0 * gl
    return s, f0, fl, g0, gl


def _real_dtype(x):
    if x.dtype.kind == "c":
        return numpy.dtype(numpy.float32 if x.dtype == numpy.complex64 else numpy.float64)
    if x.dtype.char in "ef":
        return numpy.dtype(numpy.float32)
    return numpy.dtype(numpy.float64)


def _rows(x, nin, n, family, t, norm, orthogonalize):
    """The transform of each row of the C-contiguous real (rows, nin) array x, to length n."""
    rdt = _real_dtype(x)
    cdt = numpy.dtype(rdt.char.upper())
    pre, post, fft, rev = _PLAN[family, t]
    rows = x.size // nin
    if rows == 0:
        return ndarray._alloc((0, n), rdt)
    s, f0, fl, g0, gl = _factors(family, t, n, norm, orthogonalize)
    R = rdt.type
    if family == "dct" and t == 1:
        M = 2 * (n - 1)
    elif family == "dst" and t == 1:
        M = 2 * (n + 1)
    elif t == 4:
        M = 2 * n
    else:
        M = n
    Mv = M // 2 + 1 if fft == "irfft" else M
    vdt = rdt if fft == "rfft" else cdt
    v = ndarray._alloc((rows, Mv), vdt)
    sgn = R(-1.0 if (family == "dst" and t == 2) else 1.0)
    _pre_op(pre, rdt, x.dtype, vdt).launch(
        [x, numpy.int64(nin), numpy.int64(n), numpy.int64(Mv), R(f0), R(fl), sgn,
         numpy.bool_(rev), v])
    if fft == "rfft":
        V = _np_fft.rfft(v, axis=-1)
    elif fft == "irfft":
        V = _np_fft.irfft(v, M, axis=-1, norm="forward")
    else:
        V = _np_fft.fft(v, axis=-1)
    V = V if V._c_contig else V.copy()
    y = ndarray._alloc((rows, n), rdt)
    _post_op(post, rdt, V.dtype).launch(
        [V, numpy.int64(n), numpy.int64(V.shape[-1]), R(s), R(g0), R(gl), numpy.bool_(rev), y])
    return y


def _check_x(x, name):
    if not isinstance(x, ndarray):
        _np_fft._fft._check_array(x, f"scipy.fft.{name}")
    if x.dtype.kind not in "biufc":
        raise TypeError(f"cuarray.scipy.fft.{name}: unsupported dtype {x.dtype}")


def _check_norm(norm):
    if norm not in _NORMS:
        raise ValueError(f'Invalid norm value {norm!r}, should be "backward", "ortho" or '
                         '"forward"')
    return "backward" if norm is None else norm


def _r2r(family, x, t, n, axis, norm, orthogonalize, name):
    """One transform of x along `axis` (SciPy's argument rules and dtypes)."""
    _check_x(x, name)
    if t not in (1, 2, 3, 4):
        raise ValueError("invalid DCT type" if family == "dct" else "invalid DST type")
    norm = _check_norm(norm)
    if orthogonalize is None:
        orthogonalize = norm == "ortho"
    if x.ndim == 0:
        raise IndexError("tuple index out of range")
    axis = operator.index(axis)
    if not -x.ndim <= axis < x.ndim:
        raise IndexError("tuple index out of range")
    ax = axis % x.ndim
    nin = x.shape[ax]
    n = nin if n is None else operator.index(n)
    if n < 1:
        raise ValueError(f"invalid number of data points ({n}) specified")
    if family == "dct" and t == 1 and n < 2:
        raise RuntimeError("zero-length FFT requested (DCT-I needs at least 2 points)")
    if x.dtype.kind == "c":
        re = _r2r(family, x.real, t, n, axis, norm, orthogonalize, name)
        im = _r2r(family, x.imag, t, n, axis, norm, orthogonalize, name)
        out = ndarray._alloc(re.shape, x.dtype)
        out.real = re
        out.imag = im
        return out
    from cuarray._routines.manipulation import moveaxis
    xl = moveaxis(x, ax, -1)
    if xl.dtype != _real_dtype(x):
        xl = xl.astype(_real_dtype(x))
    if not xl._c_contig:
        xl = xl.copy()
    if nin == 0:
        raise ValueError(f"invalid number of data points ({nin}) specified")
    y = _rows(xl, nin, n, family, t, norm, orthogonalize).reshape(xl.shape[:-1] + (n,))
    if ax == x.ndim - 1:
        return y
    return moveaxis(y, -1, ax).copy()


_INVERSE = {1: 1, 2: 3, 3: 2, 4: 4}
_SWAP = {"backward": "forward", "ortho": "ortho", "forward": "backward"}


def _inverse(family, x, type, n, axis, norm, orthogonalize, name):
    """The inverse of the `family` transform of `type`: the inverse type, norm swapped."""
    norm = _check_norm(norm)
    return _r2r(family, x, _INVERSE.get(type, type), n, axis, _SWAP[norm], orthogonalize, name)


def dct(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None,
        orthogonalize=None):
    """The discrete cosine transform of type 1, 2, 3 or 4 (cuarray version of
    `scipy.fft.dct`). `overwrite_x` and `workers` are accepted and ignored."""
    return _r2r("dct", x, type, n, axis, norm, orthogonalize, "dct")


def idct(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None,
         orthogonalize=None):
    """The inverse discrete cosine transform (cuarray version of `scipy.fft.idct`)."""
    return _inverse("dct", x, type, n, axis, norm, orthogonalize, "idct")


def dst(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None,
        orthogonalize=None):
    """The discrete sine transform of type 1, 2, 3 or 4 (cuarray version of
    `scipy.fft.dst`)."""
    return _r2r("dst", x, type, n, axis, norm, orthogonalize, "dst")


def idst(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None,
         orthogonalize=None):
    """The inverse discrete sine transform (cuarray version of `scipy.fft.idst`)."""
    return _inverse("dst", x, type, n, axis, norm, orthogonalize, "idst")


def _nd(f, x, type, s, axes, norm, orthogonalize, name):
    _check_x(x, name)
    shape, axes = init_nd_shape_and_axes(x.ndim, x.shape, s, axes)
    # The shortest results first: later passes then read less.
    for n, ax in sorted(zip(shape, axes), key=lambda p: p[0] - x.shape[p[1]]):
        x = f(x, type, n, ax, norm, orthogonalize=orthogonalize)
    return x


def _nd_function(f, name, what):
    """The N-D transform `name` applying 1-D `f` along each axis."""
    def transform(x, type=2, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *,
                  orthogonalize=None):
        return _nd(f, x, type, s, axes, norm, orthogonalize, name)
    transform.__name__ = transform.__qualname__ = name
    transform.__doc__ = f"The N-D {what} (cuarray version of `scipy.fft.{name}`)."
    return transform


dctn = _nd_function(dct, "dctn", "discrete cosine transform")
idctn = _nd_function(idct, "idctn", "inverse discrete cosine transform")
dstn = _nd_function(dst, "dstn", "discrete sine transform")
idstn = _nd_function(idst, "idstn", "inverse discrete sine transform")
