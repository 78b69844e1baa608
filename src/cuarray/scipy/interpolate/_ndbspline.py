"""Tensor-product B-splines (cuarray version of `scipy.interpolate.NdBSpline`) and their
interpolation on a rectilinear grid (what RegularGridInterpolator's spline methods use).

Evaluation is one kernel: per point and axis the knot interval and k+1 basis values, then
the sum over the (k+1)^D coefficients. Interpolating coefficients are found axis by axis
with `make_interp_spline` (the tensor-product system factors into one banded solve per
axis), the exact solution of the system SciPy solves iteratively.
"""
import operator

import numpy

import cuarray
from cuarray.scipy.interpolate import _kernels
from cuarray.scipy.interpolate._bsplines import _flags, make_interp_spline
from cuarray.scipy.interpolate._ppoly import asdevice, coef_dtype

__all__ = ["NdBSpline"]

_f64 = numpy.dtype(numpy.float64)


class NdBSpline:
    """cuarray version of `scipy.interpolate.NdBSpline` (no `design_matrix`)."""

    def __init__(self, t, c, k, *, extrapolate=None):
        if not isinstance(t, tuple):
            raise ValueError(f"Expect `t` to be a tuple of array-likes. Got {t} instead.")
        ndim = len(t)
        try:
            len(k)
        except TypeError:
            k = (k,) * ndim
        if len(k) != ndim:
            raise ValueError(f"len(t) = {len(t)} != {len(k)} = len(k).")
        self.k = tuple(operator.index(kd) for kd in k)
        self.t = tuple(cuarray.ascontiguousarray(asdevice(td), dtype=_f64) for td in t)
        c = asdevice(c)
        self.c = cuarray.ascontiguousarray(c, dtype=coef_dtype(c.dtype))
        self.extrapolate = True if extrapolate is None else bool(extrapolate)
        if self.c.ndim < ndim:
            raise ValueError(f"Coefficients must be at least {ndim}-dimensional.")
        checks = []
        for d in range(ndim):
            td, kd = self.t[d], self.k[d]
            if kd < 0:
                raise ValueError(f"Spline degree in dimension {d} cannot be negative.")
            if td.ndim != 1:
                raise ValueError(f"Knot vector in dimension {d} must be one-dimensional.")
            n = td.shape[0] - kd - 1
            if n < kd + 1:
                raise ValueError(f"Need at least {2 * kd + 2} knots for degree {kd} in dimension {d}.")
            if self.c.shape[d] != n:
                raise ValueError(f"Knots, coefficients and degree in dimension {d} are inconsistent: "
                                 f"got {self.c.shape[d]} coefficients for {td.shape[0]} knots, need "
                                 f"at least {n} for k={kd}.")
            checks += [cuarray.all(cuarray.diff(td) >= 0), td[n] > td[kd], cuarray.all(cuarray.isfinite(td))]
        flags = _flags(*checks) if checks else []
        for d in range(ndim):
            sorted_, distinct, finite = flags[3 * d:3 * d + 3]
            if not sorted_:
                raise ValueError(f"Knots in dimension {d} must be in a non-decreasing order.")
            if not distinct:
                raise ValueError(f"Need at least two internal knots in dimension {d}.")
            if not finite:
                raise ValueError(f"Knots in dimension {d} should not have nans or infs.")

    def __call__(self, xi, *, nu=None, extrapolate=None):
        """Evaluate at the points xi (..., ndim); derivatives `nu` per axis."""
        ndim = len(self.t)
        extrapolate = self.extrapolate if extrapolate is None else bool(extrapolate)
        if nu is None:
            nu = (0,) * ndim
        else:
            nu = tuple(int(v) for v in nu)
            if len(nu) != ndim:
                raise ValueError(f"invalid number of derivative orders nu = {nu} for ndim = {ndim}.")
            if any(v < 0 for v in nu):
                raise ValueError(f"derivatives must be positive, got nu = {nu}")
        xi = asdevice(xi)
        if xi.dtype.kind == "c":
            raise TypeError("points xi must be real")
        shape = xi.shape
        if not shape or shape[-1] != ndim:
            raise ValueError(f"Expected data points in {ndim}-D space, got "
                             f"{shape[-1] if shape else 0}-D points.")
        xi = cuarray.ascontiguousarray(xi.reshape(-1, ndim), dtype=_f64)
        out = evaluate(self.t, self.k, self.c, xi, nu, extrapolate)
        return out.reshape(shape[:-1] + self.c.shape[ndim:])


def evaluate(t, k, c, xi, nu, extrapolate):
    """(n, nc) values of the tensor-product spline at the rows of xi (n, ndim)."""
    ndim = len(t)
    n = xi.shape[0]
    nc = 1
    for s in c.shape[ndim:]:
        nc *= s
    out = cuarray.empty((n, nc), dtype=c.dtype)
    if n == 0 or nc == 0:
        return out
    lens = [td.shape[0] for td in t]
    toff = numpy.concatenate([[0], numpy.cumsum(lens)[:-1]]).astype(numpy.int64)
    strides = [1] * ndim
    for d in range(ndim - 2, -1, -1):
        strides[d] = strides[d + 1] * c.shape[d + 1]
    host = [toff, numpy.array(lens, numpy.int64), numpy.array(k, numpy.int32),
            numpy.array(nu, numpy.int32), numpy.array(strides, numpy.int64)]
    toff_d, nt_d, ks_d, nus_d, cs_d = (cuarray.asarray(h) for h in host)
    tcat = cuarray.concatenate(list(t))
    if not c._c_contig:
        c = c.copy()
    _kernels.run("ci_ndbspline", n, [tcat, toff_d, nt_d, ks_d, nus_d, cs_d, c, xi, out, n, nc,
                                     int(extrapolate)], dtype=c.dtype, K=max(k), D=ndim)
    return out


def make_ndbspl(points, values, k=3):
    """The tensor-product interpolating spline of degree k (not-a-knot knots per axis) of
    `values` on the grid `points` (each axis ascending)."""
    ndim = len(points)
    c = values.astype(coef_dtype(values.dtype), copy=False)
    t = []
    for d in range(ndim):
        x = points[d]
        spl = make_interp_spline(x, c, k=k, axis=d, check_finite=False)
        t.append(spl.t)
        c = cuarray.moveaxis(spl.c, 0, d)
    return NdBSpline(tuple(t), cuarray.ascontiguousarray(c), k)
