"""Global polynomial interpolation (cuarray versions of `scipy.interpolate.KroghInterpolator`,
`BarycentricInterpolator`, `krogh_interpolate`, `barycentric_interpolate`).

Krogh: the divided differences are one kernel (a thread per column of y) and evaluation
with derivatives another (a thread per point). Barycentric: the weights and the formula are
array arithmetic and one matrix product.
"""
import warnings

import numpy

import cuarray
from cuarray.scipy.interpolate import _kernels
from cuarray.scipy.interpolate._ppoly import asdevice, finish, points

__all__ = ["KroghInterpolator", "BarycentricInterpolator", "krogh_interpolate",
           "barycentric_interpolate"]

_f64 = numpy.dtype(numpy.float64)


class _Interpolator1D:
    """The y bookkeeping SciPy's 1-D polynomial interpolators share: y with the
    interpolation axis first, flattened to (n, r), and the result shapes."""

    def __init__(self, xi=None, yi=None, axis=None):
        self._y_axis = axis
        self._y_extra_shape = None
        self.dtype = None
        if yi is not None:
            self._set_yi(yi, xi=xi, axis=axis)

    def _set_yi(self, yi, xi=None, axis=None):
        if axis is None:
            axis = self._y_axis
        if axis is None:
            raise ValueError("no interpolation axis specified")
        shape = yi.shape if yi.shape else (1,)
        if xi is not None and shape[axis] != len(xi):
            raise ValueError("x and y arrays must be equal in length along interpolation axis.")
        self._y_axis = axis % yi.ndim
        self._y_extra_shape = yi.shape[:self._y_axis] + yi.shape[self._y_axis + 1:]
        self.dtype = numpy.dtype(numpy.complex128 if yi.dtype.kind == "c" else numpy.float64)

    def _reshape_yi(self, yi, check=False):
        yi = cuarray.moveaxis(yi, self._y_axis, 0)
        if check and yi.shape[1:] != self._y_extra_shape:
            ok = f"{self._y_extra_shape[-self._y_axis:]!r} + (N,) + {self._y_extra_shape[:-self._y_axis]!r}"
            raise ValueError(f"Data must be of shape {ok}")
        return cuarray.ascontiguousarray(yi.reshape((yi.shape[0], -1)), dtype=self.dtype)

    def _finish_y(self, y, x_shape):
        return finish(y, x_shape, self._y_extra_shape, self._y_axis)

    def __call__(self, x):
        """Evaluate the interpolant at x (the interpolation axis replaced by x's shape)."""
        xv, shape = points(x)
        return self._finish_y(self._evaluate(xv), shape)


class KroghInterpolator(_Interpolator1D):
    """cuarray version of `scipy.interpolate.KroghInterpolator`."""

    def __init__(self, xi, yi, axis=0):
        xi = cuarray.ascontiguousarray(asdevice(xi), dtype=_f64)
        yi = asdevice(yi)
        super().__init__(xi, yi, axis)
        self.xi = xi
        self.yi = self._reshape_yi(yi)
        self.n, self.r = self.yi.shape
        if self.n > 30:
            warnings.warn(f"{self.n} degrees provided, degrees higher than about thirty cause "
                          "problems with numerical instability with 'KroghInterpolator'",
                          stacklevel=2)
        self.c = cuarray.empty((self.n + 1, self.r), dtype=self.dtype)
        vk = cuarray.zeros((self.n, self.r), dtype=self.dtype)
        bad = cuarray.zeros((1,), dtype=numpy.int32)
        if self.r:
            _kernels.run("ci_krogh_coef", self.r, [self.xi, self.yi, self.c, vk, bad, self.n, self.r],
                         dtype=self.dtype, K=1)
            if int(bad.get()[0]):
                raise ValueError("Elements of `xi` can't be equal.")

    def _derivs(self, xv, nder):
        out = cuarray.empty((nder, xv.size, self.r), dtype=self.dtype)
        if xv.size and self.r and nder:
            _kernels.run("ci_krogh_eval", xv.size, [self.xi, self.c, xv, out, self.n, xv.size,
                                                    self.r, nder], dtype=self.dtype, K=max(self.n, 1))
        return out

    def _evaluate(self, xv):
        return self._derivs(xv, 1)[0]

    def derivatives(self, x, der=None):
        """Derivatives 0 .. der-1 at x (all nonzero ones when der is None): d[j] is the
        j-th derivative."""
        xv, shape = points(x)
        y = self._derivs(xv, self.n if der is None else int(der))
        y = y.reshape((y.shape[0],) + shape + self._y_extra_shape)
        if self._y_axis != 0 and shape != ():
            nx, ny = len(shape), len(self._y_extra_shape)
            s = [0] + list(range(nx + 1, nx + self._y_axis + 1)) + list(range(1, nx + 1)) + \
                list(range(nx + 1 + self._y_axis, nx + ny + 1))
            y = y.transpose(s)
        return y

    def derivative(self, x, der=1):
        """The der-th derivative at x."""
        xv, shape = points(x)
        return self._finish_y(self._derivs(xv, der + 1)[der], shape)


def krogh_interpolate(xi, yi, x, der=0, axis=0):
    """cuarray version of `scipy.interpolate.krogh_interpolate`."""
    P = KroghInterpolator(xi, yi, axis=axis)
    if numpy.ndim(der) == 0:
        return P(x) if der == 0 else P.derivative(x, der=der)
    return P.derivatives(x, der=int(numpy.amax(der)) + 1)[list(der)]


class BarycentricInterpolator(_Interpolator1D):
    """cuarray version of `scipy.interpolate.BarycentricInterpolator` (__call__, set_yi,
    add_xi; the weights are SciPy's up to rounding; no `derivative(s)`)."""

    def __init__(self, xi, yi=None, axis=0, *, wi=None, rng=None):
        xi = cuarray.ascontiguousarray(asdevice(xi), dtype=_f64)
        yi = None if yi is None else asdevice(yi)
        super().__init__(xi, yi, axis)
        self.xi = xi
        self.set_yi(yi)
        self.n = len(self.xi)
        span = cuarray.stack([cuarray.max(xi), cuarray.min(xi)]).get() if self.n else (1.0, 0.0)
        self._inv_capacity = 4.0 / (float(span[0]) - float(span[1])) if self.n > 1 else 1.0
        if wi is not None:
            self.wi = asdevice(wi).astype(_f64)
        else:
            self.wi = self._weights(self.xi)

    def _weights(self, xi):
        """1 / prod_{k != j} C (x_j - x_k): SciPy's capacity-scaled weights."""
        d = self._inv_capacity * (xi[:, None] - xi[None, :])
        d = d + cuarray.eye(len(xi))
        return 1.0 / cuarray.prod(d, axis=1)

    def set_yi(self, yi, axis=None):
        """Update the y values to be interpolated."""
        if yi is None:
            self.yi = None
            return
        yi = asdevice(yi)
        self._set_yi(yi, xi=self.xi, axis=axis)
        self.yi = self._reshape_yi(yi)
        self.n, self.r = self.yi.shape

    def add_xi(self, xi, yi=None):
        """Add more points for the polynomial to pass through."""
        xi = cuarray.ascontiguousarray(asdevice(xi), dtype=_f64)
        if yi is not None:
            if self.yi is None:
                raise ValueError("No previous yi value to update!")
            yi = self._reshape_yi(asdevice(yi), check=True)
            self.yi = cuarray.concatenate([self.yi, yi])
        elif self.yi is not None:
            raise ValueError("No update to yi provided!")
        self.xi = cuarray.concatenate([self.xi, xi])
        self.n = len(self.xi)
        self.wi = self._weights(self.xi)

    def _evaluate(self, xv):
        if xv.size == 0:
            return cuarray.zeros((0, self.r), dtype=self.dtype)
        c = xv[:, None] - self.xi[None, :]
        hit = c == 0
        c = self.wi / cuarray.where(hit, 1.0, c)
        p = cuarray.dot(c.astype(self.dtype), self.yi) / cuarray.sum(c, axis=-1)[:, None]
        # Points equal to a node take that node's value exactly.
        anyhit = cuarray.any(hit, axis=1)
        exact = self.yi[cuarray.argmax(hit, axis=1)]
        return cuarray.where(anyhit[:, None], exact, p)


def barycentric_interpolate(xi, yi, x, axis=0, *, rng=None):
    """cuarray version of `scipy.interpolate.barycentric_interpolate` (CuPy's signature:
    no `der`)."""
    return BarycentricInterpolator(xi, yi, axis=axis, rng=rng)(x)
