"""FITPACK-style univariate splines (cuarray versions of `scipy.interpolate.UnivariateSpline`,
`InterpolatedUnivariateSpline` and `LSQUnivariateSpline`).

`UnivariateSpline` runs FITPACK's smoothing search (`_fitpack_curfit`: knots added where
the residual is largest until fp <= s, then the smoothing parameter of the penalised fit);
for s = 0 the knots are FITPACK's interpolation knots (the data points, or their midpoints
for even k, between k + 1 fold end knots at the bounding box). The fixed-knot subclasses
solve the weighted least-squares system on the GPU (`make_lsq_spline`'s normal
equations). As SciPy's, a `UnivariateSpline` whose search ends in an interpolating
spline or in the least-squares polynomial becomes an `InterpolatedUnivariateSpline` or
an `LSQUnivariateSpline`. Coefficient arrays carry FITPACK's k + 1 trailing zeros;
`get_residual` returns a 0-d device array.
"""
import warnings

import numpy

import cuarray
from cuarray.scipy.interpolate import _kernels
from cuarray.scipy.interpolate._bsplines import BSpline, _flags, make_lsq_spline, splantider, splder
from cuarray.scipy.interpolate._fitpack_curfit import Curfit, interpolation_knots
from cuarray.scipy.interpolate._ppoly import asdevice, points

__all__ = ["UnivariateSpline", "InterpolatedUnivariateSpline", "LSQUnivariateSpline"]

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
# FITPACK's curfit diagnostics, as SciPy words them.
_CURFIT_MESSAGES = {
    1: """
The required storage space exceeds the available storage space, as
specified by the parameter nest: nest too small. If nest is already
large (say nest > m/2), it may also indicate that s is too small.
The approximation returned is the weighted least-squares spline
according to the knots t[0],t[1],...,t[n-1]. (n=nest) the parameter fp
gives the corresponding weighted sum of squared residuals (fp>s).
""",
    2: """
A theoretically impossible result was found during the iteration
process for finding a smoothing spline with fp = s: s too small.
There is an approximation returned but the corresponding weighted sum
of squared residuals does not satisfy the condition abs(fp-s)/s < tol.""",
    3: """
The maximal number of iterations maxit (set to 20 by the program)
allowed for finding a smoothing spline with fp=s has been reached: s
too small.
There is an approximation returned but the corresponding weighted sum
of squared residuals does not satisfy the condition abs(fp-s)/s < tol.""",
}


def _ext_code(ext):
    try:
        return _EXT[ext]
    except (KeyError, TypeError) as e:
        raise ValueError(f"Unknown extrapolation mode {ext}.") from e


class UnivariateSpline:
    """cuarray version of `scipy.interpolate.UnivariateSpline` (x outside the bounding
    box, or fewer than k + 1 points, raise ValueError)."""

    def __init__(self, x, y, w=None, bbox=[None] * 2, k=3, s=None, ext=0, check_finite=False):
        x, y, w, bbox, self.ext = self.validate_input(x, y, w, bbox, k, s, ext, check_finite)
        self._start(x, y, w, bbox, k)
        self._search(float(x.size) if s is None else float(s))

    @staticmethod
    def validate_input(x, y, w, bbox, k, s, ext, check_finite):
        """Check the data as SciPy does; returns (x, y, w, bbox, ext) with device arrays."""
        x = asdevice(x).astype(_f64)
        y = asdevice(y).astype(_f64)
        w = None if w is None else asdevice(w).astype(_f64)
        bbox = numpy.asarray(bbox)
        strict = s is not None and not s > 0
        conds = [cuarray.all(cuarray.diff(x) > 0) if strict else cuarray.all(cuarray.diff(x) >= 0)]
        if check_finite:
            fin = [cuarray.all(cuarray.isfinite(a)) for a in (x, y) + ((w,) if w is not None else ())]
            conds.append(cuarray.all(cuarray.stack(fin)))
        flags = _flags(*conds)
        if check_finite and not flags[1]:
            raise ValueError("x and y array must not contain NaNs or infs.")
        if not flags[0]:
            raise ValueError("x must be strictly increasing if s = 0" if strict
                             else "x must be increasing if s > 0")
        if x.size != y.size:
            raise ValueError("x and y should have a same length")
        if w is not None and not x.size == y.size == w.size:
            raise ValueError("x, y, and w should have a same length")
        if bbox.shape != (2,):
            raise ValueError("bbox shape should be (2,)")
        if not 1 <= k <= 5:
            raise ValueError("k should be 1 <= k <= 5")
        if s is not None and not s >= 0.0:
            raise ValueError("s should be s >= 0.0")
        return x, y, w, bbox, _ext_code(ext)

    def _start(self, x, y, w, bbox, k):
        """Bounds and checks FITPACK makes on entry; the search state."""
        m = x.size
        if m <= k:
            raise ValueError(f"x must have more than k = {k} points, got {m}")
        xb = x[:1] if bbox[0] is None else cuarray.asarray([float(bbox[0])])
        xe = x[-1:] if bbox[1] is None else cuarray.asarray([float(bbox[1])])
        if not all(_flags(xb[0] <= x[0], xe[0] >= x[-1])):
            raise ValueError("the bounding box must hold the data: bbox[0] <= x[0], x[-1] <= bbox[1]")
        w = cuarray.ones_like(x) if w is None else w
        self._curfit = Curfit(x, y, w, xb, xe, k)
        self._data = (x, y, w, xb, xe, k)
        self._s = None

    def _search(self, s):
        cf = self._curfit
        ier = cf.fit(s)
        self._s = s
        n, k = cf.n, cf.k
        self._set(cf.t[:n].copy(), cf.c[:n - k - 1].copy(), k)
        self._residual = cuarray.asarray(cf.fp, dtype=_f64)
        if ier == -1:
            self._set_class(InterpolatedUnivariateSpline)
        elif ier == -2:
            self._set_class(LSQUnivariateSpline)
        elif ier > 0:
            if ier == 1:
                self._set_class(LSQUnivariateSpline)
            warnings.warn(_CURFIT_MESSAGES[ier], stacklevel=3)

    def _set_class(self, cls):
        # As SciPy's: only the three classes change into each other, not user subclasses.
        if self.__class__ in (UnivariateSpline, InterpolatedUnivariateSpline, LSQUnivariateSpline):
            self.__class__ = cls

    def _set(self, t, c, k):
        n = t.size
        c = cuarray.concatenate([c[:n - k - 1], cuarray.zeros(k + 1)])
        self._eval_args = (t, c, k)
        self._spline = BSpline.construct_fast(t, c[:n - k - 1], k, extrapolate=True)

    def _fit_fixed(self, x, y, w, t, k):
        """The weighted least-squares spline on the knots t (the fixed-knot subclasses)."""
        code = cuarray.zeros((1,), dtype=numpy.int32)
        _kernels.run("ci_fpchec", 1, [x, t, code, x.size, t.size, k], single=True)
        if int(code.get()[0]):
            raise ValueError(_FPCHEC)
        spl = make_lsq_spline(x, y, t, k=k, w=w, check_finite=False)
        self._set(t, spl.c, k)
        ww = cuarray.ones_like(x) if w is None else w
        self._residual = cuarray.sum((ww * (y - self._spline(x))) ** 2)

    @classmethod
    def _from_tck(cls, tck, ext=0):
        """A spline of this class from (t, c, k), without data (no residual, no smoothing)."""
        self = cls.__new__(cls)
        t, c, k = tck
        self._set(asdevice(t).astype(_f64), asdevice(c).astype(_f64), k)
        self._residual = None
        self._curfit = None
        self._data = (None, None, None, None, None, k)
        self._s = None
        self.ext = ext
        return self

    def set_smoothing_factor(self, s):
        """Continue the knot search with a new smoothing factor s (from the current knots
        where s is below the least-squares polynomial's residual, as FITPACK's iopt=1)."""
        if self._s == -1:
            warnings.warn("smoothing factor unchanged forLSQ spline with fixed knots", stacklevel=2)
            return
        if self._curfit is None:
            raise ValueError("set_smoothing_factor needs a spline fitted to data")
        self._search(float(s))

    def __call__(self, x, nu=0, ext=None):
        """Evaluate the spline (or its nu-th derivative) at x; `ext` as SciPy's."""
        ext = self.ext if ext is None else _ext_code(ext)
        xv, shape = points(x)
        if xv.size == 0:
            return cuarray.zeros((0,), dtype=_f64)
        t, _, k = self._eval_args
        lo, hi = t[k], t[t.size - k - 1]
        if ext == 2 and _flags(cuarray.any((xv < lo) | (xv > hi)))[0]:
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
        """The weighted sum of squared residuals (a 0-d array; None without data)."""
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
        """The n-th derivative as a spline of degree k - n (ext 'const' becomes 'zeros')."""
        tck = splder(self._eval_args, n)
        return UnivariateSpline._from_tck(tck, ext=1 if self.ext == 3 else self.ext)

    def antiderivative(self, n=1):
        """The n-th antiderivative as a spline of degree k + n."""
        return UnivariateSpline._from_tck(splantider(self._eval_args, n), self.ext)


class InterpolatedUnivariateSpline(UnivariateSpline):
    """cuarray version of `scipy.interpolate.InterpolatedUnivariateSpline`."""

    def __init__(self, x, y, w=None, bbox=[None] * 2, k=3, ext=0, check_finite=False):
        x, y, w, bbox, self.ext = self.validate_input(x, y, w, bbox, k, None, ext, check_finite)
        if not _flags(cuarray.all(cuarray.diff(x) > 0))[0]:
            raise ValueError("x must be strictly increasing")
        if x.size < k + 1:
            raise ValueError(_FPCHEC)
        self._start(x, y, w, bbox, k)
        self._s = 0.0
        cf = self._curfit
        cf.ier, cf.nest = -1, cf.nmax     # what FITPACK's interpolation leaves behind
        t = interpolation_knots(x, cf.xb, cf.xe, k)
        self._fit_fixed(x, y, w, t, k)


class LSQUnivariateSpline(UnivariateSpline):
    """cuarray version of `scipy.interpolate.LSQUnivariateSpline`."""

    def __init__(self, x, y, t, w=None, bbox=[None] * 2, k=3, ext=0, check_finite=False):
        x, y, w, bbox, self.ext = self.validate_input(x, y, w, bbox, k, None, ext, check_finite)
        xb = x[:1] if bbox[0] is None else cuarray.asarray([float(bbox[0])])
        xe = x[-1:] if bbox[1] is None else cuarray.asarray([float(bbox[1])])
        t = asdevice(t).astype(_f64)
        t = cuarray.concatenate([cuarray.broadcast_to(xb, (k + 1,)), t, cuarray.broadcast_to(xe, (k + 1,))])
        n = t.size
        if not _flags(cuarray.all(t[k + 1:n - k] - t[k:n - k - 1] > 0))[0]:
            raise ValueError("Interior knots t must satisfy Schoenberg-Whitney conditions")
        self._curfit = None
        self._data = (x, y, w, xb, xe, k)
        self._s = -1
        self._fit_fixed(x, y, w, t, k)
