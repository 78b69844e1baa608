"""Functions of cuarray.scipy.special that are not single ufuncs: zeta, polygamma,
multigammaln, softmax, log_softmax, logsumexp, spherical_yn, lambertw, sph_harm_y, sph_harm
(cuarray versions of SciPy's)."""
import numpy

from cuarray._core.ndarray import ndarray
from cuarray.scipy.special._ufuncs import UFUNCS


def _need(x, name):
    if isinstance(x, ndarray):
        return x
    from cuarray._core.host_policy import SCALARS, array_like, operand
    x = operand(x, name, prefix="cuarray.scipy.special.")
    return array_like(x) if isinstance(x, SCALARS) else x


def zeta(x, q=None, out=None):
    """The Riemann zeta function, or the Hurwitz zeta function of (x, q) (cuarray version
    of `scipy.special.zeta`)."""
    if q is None:
        return UFUNCS["_riemann_zeta"](x, out=out)
    return UFUNCS["_zeta"](x, q, out=out)


def polygamma(n, x):
    """The n-th derivative of the digamma function (cuarray version of
    `scipy.special.polygamma`)."""
    return UFUNCS["_polygamma"](n, x)


def multigammaln(a, d):
    """The log of the multivariate gamma function of dimension d (cuarray version of
    `scipy.special.multigammaln`). Checks a > (d - 1) / 2, as SciPy (synchronises)."""
    from cuarray._core import _ops
    from cuarray._core._reductions import any as _any
    d = int(d)
    a = _need(a, "multigammaln")
    if bool(_any(a <= 0.5 * (d - 1))):
        raise ValueError(f"condition a > 0.5 * (d-1) ({0.5 * (d - 1)}) not met")
    res = (d * (d - 1) * 0.25) * numpy.log(numpy.pi)
    gammaln = UFUNCS["gammaln"]
    total = gammaln(a)
    for j in range(2, d + 1):
        total = _ops.add(total, gammaln(_ops.subtract(a, (j - 1) / 2)))
    return _ops.add(total, res)


def _axis_max(x, axis):
    from cuarray._core import _ops
    from cuarray._core._reductions import amax
    m = amax(x, axis=axis, keepdims=True)
    return _ops.where(_ops.isfinite(m), m, 0).astype(m.dtype, copy=False)


def softmax(x, axis=None):
    """exp(x) / sum(exp(x)) along `axis` (cuarray version of `scipy.special.softmax`)."""
    from cuarray._core import _ops
    from cuarray._core._reductions import amax, sum as _sum
    x = _need(x, "softmax")
    e = _ops.exp(_ops.subtract(x, amax(x, axis=axis, keepdims=True)))
    return _ops.divide(e, _sum(e, axis=axis, keepdims=True))


def log_softmax(x, axis=None):
    """log(softmax(x)) computed stably (cuarray version of `scipy.special.log_softmax`)."""
    from cuarray._core import _ops
    from cuarray._core._reductions import sum as _sum
    x = _need(x, "log_softmax")
    tmp = _ops.subtract(x, _axis_max(x, axis))
    s = _sum(_ops.exp(tmp), axis=axis, keepdims=True)
    return _ops.subtract(tmp, _ops.log(s))


def logsumexp(a, axis=None, b=None, keepdims=False, return_sign=False):
    """log(sum(b * exp(a))) along `axis`, without overflow (cuarray version of
    `scipy.special.logsumexp`). Results are 0-d arrays where SciPy gives scalars."""
    from cuarray._core import _ops
    from cuarray._core._reductions import sum as _sum
    a = _need(a, "logsumexp")
    if a.dtype.kind in "biu":
        a = a.astype(numpy.float64)
    m = _axis_max(a, axis)
    t = _ops.exp(_ops.subtract(a, m))
    if b is not None:
        t = _ops.multiply(t, _need(b, "logsumexp"))
    s = _sum(t, axis=axis, keepdims=True)
    sign = None
    if return_sign:
        sign = _ops.sign(s)
        s = _ops.absolute(s)
    out = _ops.add(_ops.log(s), m)
    if not keepdims:
        out = _squeeze(out, axis, a.ndim)
        sign = None if sign is None else _squeeze(sign, axis, a.ndim)
    return (out, sign) if return_sign else out


def _squeeze(x, axis, ndim):
    if axis is None:
        return x.reshape(())
    axes = (axis,) if isinstance(axis, (int, numpy.integer)) else tuple(axis)
    return x.squeeze(tuple(a % ndim for a in axes))


def spherical_yn(n, z, derivative=False):
    """The spherical Bessel function of the second kind y_n(z) or its derivative (cuarray
    version of `scipy.special.spherical_yn`, real z)."""
    return UFUNCS["_spherical_yn_d" if derivative else "_spherical_yn"](n, z)


def lambertw(z, k=0, tol=1e-8):
    """The branch k of the Lambert W function, complex128 (cuarray version of
    `scipy.special.lambertw`)."""
    return UFUNCS["_lambertw"](z, k, tol)


def sph_harm_y(n, m, theta, phi, *, diff_n=0):
    """The spherical harmonic Y_n^m(theta, phi), theta the polar and phi the azimuthal
    angle (cuarray version of `scipy.special.sph_harm_y`; diff_n=0 only: the gradients
    SciPy returns for diff_n = 1, 2 are not provided)."""
    if diff_n != 0:
        raise ValueError("cuarray.scipy.special.sph_harm_y supports diff_n=0 only")
    return UFUNCS["_sph_harm_y"](n, m, theta, phi)


def sph_harm(m, n, theta, phi, out=None):
    """The spherical harmonic Y_n^m with theta the azimuthal and phi the polar angle
    (cuarray version of the deprecated `scipy.special.sph_harm`; sph_harm_y(n, m, phi,
    theta))."""
    return UFUNCS["_sph_harm_y"](n, m, phi, theta, out=out)
