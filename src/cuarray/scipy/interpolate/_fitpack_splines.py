"""FITPACK-style univariate splines with fixed knots (cuarray versions of
`scipy.interpolate.InterpolatedUnivariateSpline` and `LSQUnivariateSpline`).

The knots are FITPACK's (for s = 0: the data points, or their midpoints for even k,
between k + 1 fold end knots at the bounding box); the coefficients solve the weighted
least-squares system on the GPU (`make_lsq_spline`'s normal equations), which for s = 0
is the interpolation. `UnivariateSpline` with a smoothing factor (FITPACK's knot search)
is not provided. Coefficient arrays carry FITPACK's k + 1 trailing zeros.
"""
import numpy

import cuarray
from cuarray.scipy.interpolate import _kernels
from cuarray.scipy.interpolate._bsplines import BSpline, _flags, make_lsq_spline, splantider, splder
from cuarray.scipy.interpolate._ppoly import asdevice, points

__all__ = ["InterpolatedUnivariateSpline", "LSQUnivariateSpline"]

_f64 = numpy.dtype(numpy.float64)
_EXT = {0: 0, "extrapolate": 0, 1: 1, "zeros": 1, 2: 2, "raise": 2, 3: 3, "const": 3}
_FPCHEC = """Error on input data: the knots and data violate one of FITPACK's conditions:
1) k+1 <= n-k-1 <= m
2) t(1) <= t(2) <= ... <= t(k+1)
   t(n-k) <= t(n-k+1) <= ... <= t(n)
3) t(k+1) < t(k+2) < ... < t(n-k)
4) t(k+1) <= x(i) <= t(n-k)
5) The conditions specified by Schoenberg and Whitney must hold
   for at least one subset of data points, i.e., there must be a
   subset of data points y(j) such that
       t(j) < y(j) < t(j+k+1), j=1,2,...,n-k-1"""


def _validate(x, y, w, bbox, k, ext, check_finite, strict):
    x = asdevice(x).astype(_f64)
    y = asdevice(y).astype(_f64)
    w = None if w is None else asdevice(w).astype(_f64)
    if len(bbox) != 2:
        raise ValueError("bbox shape should be (2,)")
    conds = [cuarray.all(cuarray.diff(x) > 0) if strict else cuarray.all(cuarray.diff(x) >= 0)]
    if check_finite:
        fin = [cuarray.all(cuarray.isfinite(a)) for a in (x, y) + ((w,) if w is not None else ())]
        conds.append(cuarray.all(cuarray.stack(fin)))
    flags = _flags(*conds)
    if check_finite and not flags[1]:
        raise ValueError("x and y array must not contain NaNs or infs.")
    if not flags[0]:
        raise ValueError("x must be strictly increasing if s = 0" if strict else "x must be increasing")
    if x.size != y.size:
        raise ValueError("x and y should have a same length")
    if w is not None and not x.size == y.size == w.size:
        raise ValueError("x, y, and w should have a same length")
    if not 1 <= k <= 5:
        raise ValueError("k should be 1 <= k <= 5")
    try:
        ext = _EXT[ext]
    except (KeyError, TypeError) as e:
        raise ValueError(f"Unknown extrapolation mode {ext}.") from e
    xb = x[:1] if bbox[0] is None else cuarray.asarray([float(bbox[0])])
    xe = x[-1:] if bbox[1] is None else cuarray.asarray([float(bbox[1])])
    return x, y, w, xb, xe, ext


class _FixedKnotSpline:
    """The methods SciPy's UnivariateSpline gives its fixed-knot subclasses."""

    def _fit(self, x, y, w, t, k):
        code = cuarray.zeros((1,), dtype=numpy.int32)
        _kernels.run("ci_fpchec", 1, [x, t, code, x.size, t.size, k], single=True)
        if int(code.get()[0]):
            raise ValueError(_FPCHEC)
        spl = make_lsq_spline(x, y, t, k=k, w=w, check_finite=False)
        self._set(t, spl.c, k)
        ww = cuarray.ones_like(x) if w is None else w
        self._residual = cuarray.sum((ww * (y - self._spline(x))) ** 2)

    def _set(self, t, c, k):
        n = t.size
        c = cuarray.concatenate([c[:n - k - 1], cuarray.zeros(k + 1)])
        self._eval_args = (t, c, k)
        self._spline = BSpline.construct_fast(t, c[:n - k - 1], k, extrapolate=True)

    @classmethod
    def _from_tck(cls, tck, ext=0):
        self = object.__new__(_FixedKnotSpline)
        t, c, k = tck
        self._set(t, c, k)
        self._residual = None
        self.ext = ext
        return self

    def __call__(self, x, nu=0, ext=None):
        """Evaluate the spline (or its nu-th derivative) at x; `ext` as SciPy's."""
        ext = self.ext if ext is None else ext
        try:
            ext = _EXT[ext]
        except (KeyError, TypeError) as e:
            raise ValueError(f"Unknown extrapolation mode {ext}.") from e
        xv, shape = points(x)
        t, _, k = self._eval_args
        lo, hi = t[k], t[t.size - k - 1]
        if ext == 2 and xv.size and _flags(cuarray.any((xv < lo) | (xv > hi)))[0]:
            raise ValueError("Error on input data: a point is outside the base interval (ext=2)")
        if ext == 3:
            xv = cuarray.clip(xv, lo, hi)
        out = self._spline._evaluate(xv, nu, 1)[:, 0]
        if ext == 1:
            out = cuarray.where((xv < lo) | (xv > hi), 0.0, out)
        return out.reshape(shape)

    def get_knots(self):
        """The interior knots and the two ends of the base interval."""
        t, _, k = self._eval_args
        return t[k:t.size - k]

    def get_coeffs(self):
        """The spline coefficients."""
        t, c, k = self._eval_args
        return c[:t.size - k - 1]

    def get_residual(self):
        """The weighted sum of squared residuals (a 0-d array)."""
        return self._residual

    def integral(self, a, b):
        """The integral from a to b (zero outside the base interval, as FITPACK's splint)."""
        return self._spline.integrate(a, b, extrapolate=False)

    def derivatives(self, x):
        """All derivatives 0..k at the point x."""
        k = self._eval_args[2]
        xv = cuarray.asarray([float(x)], dtype=_f64)
        return cuarray.concatenate([self._spline._evaluate(xv, nu, 1)[:, 0] for nu in range(k + 1)])

    def roots(self):
        """The zeros of a cubic spline in its base interval (FITPACK supports k = 3 only)."""
        from cuarray.scipy.interpolate._ppoly import PPoly
        if self._eval_args[2] != 3:
            raise NotImplementedError("finding roots unsupported for non-cubic splines")
        pp = PPoly.from_spline(self._spline, extrapolate=False)
        return pp.roots(discontinuity=False, extrapolate=False)

    def derivative(self, n=1):
        """The n-th derivative as a spline of degree k - n."""
        tck = splder(self._eval_args, n)
        return self._from_tck(tck, ext=1 if self.ext == 3 else self.ext)

    def antiderivative(self, n=1):
        """The n-th antiderivative as a spline of degree k + n."""
        return self._from_tck(splantider(self._eval_args, n), self.ext)


class InterpolatedUnivariateSpline(_FixedKnotSpline):
    """cuarray version of `scipy.interpolate.InterpolatedUnivariateSpline` (no
    `set_smoothing_factor`)."""

    def __init__(self, x, y, w=None, bbox=[None] * 2, k=3, ext=0, check_finite=False):
        x, y, w, xb, xe, self.ext = _validate(x, y, w, bbox, k, ext, check_finite, True)
        m = x.size
        if m < k + 1:
            raise ValueError(_FPCHEC)
        # FITPACK's interpolation knots: data points (odd k) or midpoints (even k).
        if k % 2:
            inner = x[k // 2 + 1:m - k // 2 - 1]
        else:
            inner = (x[k // 2:m - k // 2 - 1] + x[k // 2 + 1:m - k // 2]) * 0.5
        t = cuarray.concatenate([cuarray.broadcast_to(xb, (k + 1,)), inner,
                                 cuarray.broadcast_to(xe, (k + 1,))])
        self._fit(x, y, w, t, k)


class LSQUnivariateSpline(_FixedKnotSpline):
    """cuarray version of `scipy.interpolate.LSQUnivariateSpline` (no
    `set_smoothing_factor`)."""

    def __init__(self, x, y, t, w=None, bbox=[None] * 2, k=3, ext=0, check_finite=False):
        x, y, w, xb, xe, self.ext = _validate(x, y, w, bbox, k, ext, check_finite, False)
        t = asdevice(t).astype(_f64)
        t = cuarray.concatenate([cuarray.broadcast_to(xb, (k + 1,)), t, cuarray.broadcast_to(xe, (k + 1,))])
        n = t.size
        if not _flags(cuarray.all(t[k + 1:n - k] - t[k:n - k - 1] > 0))[0]:
            raise ValueError("Interior knots t must satisfy Schoenberg-Whitney conditions")
        self._fit(x, y, w, t, k)
