"""Interpolation on a rectilinear grid (cuarray versions of
`scipy.interpolate.RegularGridInterpolator` and `interpn`).

'linear' and 'nearest' are one kernel (per axis a binary search, then the 2^D corners or
the nearest node, the fill value for points outside, fused). 'slinear', 'cubic' and
'quintic' are tensor-product B-splines (`_ndbspline.py`), built when the method is first
used. 'pchip' folds one axis at a time: PCHIP slopes along the last axis for every point
at once, then each point's own interval (a batched Hermite evaluation).
`bounds_error=True` reads one flag back per call.
"""
import numpy

import cuarray
from cuarray._core.ndarray import ndarray
from cuarray.scipy.interpolate import _kernels
from cuarray.scipy.interpolate._cubic import _pchip_slopes
from cuarray.scipy.interpolate._ndbspline import evaluate as _nd_evaluate
from cuarray.scipy.interpolate._ndbspline import make_ndbspl
from cuarray.scipy.interpolate._ppoly import asdevice

__all__ = ["RegularGridInterpolator", "interpn"]

_f64 = numpy.dtype(numpy.float64)
_DEGREE = {"slinear": 1, "cubic": 3, "quintic": 5, "pchip": 3}
_METHODS = ["linear", "nearest", "slinear", "cubic", "quintic", "pchip"]


def _check_points(points):
    """Float64 ascending axes, and the axes given descending (one read back)."""
    grid = []
    conds = []
    for p in points:
        p = cuarray.ascontiguousarray(asdevice(p), dtype=_f64)
        grid.append(p)
        if p.ndim == 1:
            conds += [cuarray.all(p[1:] > p[:-1]), cuarray.all(p[1:] < p[:-1])]
    flags = [bool(v) for v in cuarray.stack(conds).get()] if conds else []
    desc = []
    for i, p in enumerate(grid):
        if p.ndim != 1:
            continue
        asc, dsc = flags[2 * i], flags[2 * i + 1]
        if not asc:
            if dsc:
                desc.append(i)
                grid[i] = cuarray.ascontiguousarray(p[::-1])
            else:
                raise ValueError(f"The points in dimension {i} must be strictly ascending or descending")
    return tuple(grid), tuple(desc)


def _check_dimensionality(points, values):
    if len(points) > values.ndim:
        raise ValueError(f"There are {len(points)} point arrays, but values has {values.ndim} dimensions")
    for i, p in enumerate(points):
        if p.ndim != 1:
            raise ValueError(f"The points in dimension {i} must be 1-dimensional")
        if values.shape[i] != len(p):
            raise ValueError(f"There are {len(p)} points and {values.shape[i]} values in dimension {i}")


def _coords(xi, ndim):
    """xi as (..., ndim) float64 (a tuple of arrays is broadcast and stacked)."""
    if isinstance(xi, tuple) and len(xi) == 1:
        xi = xi[0]
    if isinstance(xi, tuple):
        arrs = cuarray.broadcast_arrays(*[asdevice(a).astype(_f64) for a in xi])
        xi = cuarray.stack(arrs, axis=-1)
    else:
        xi = asdevice(xi)
        if xi.ndim == 1:
            xi = xi.reshape(-1, ndim)
    if xi.dtype.kind == "c":
        raise TypeError("sample points xi must be real")
    return xi.astype(_f64, copy=False)


def _check_bounds(grid, xi):
    # Two reductions over the points (NaN propagates and counts as out of bounds, as in
    # SciPy's comparisons) and one read back.
    lo, hi = cuarray.min(xi, axis=0), cuarray.max(xi, axis=0)
    first = cuarray.stack([g[0] for g in grid])
    last = cuarray.stack([g[-1] for g in grid])
    flags = ((first <= lo) & (hi <= last)).get()
    for i, ok in enumerate(flags):
        if not ok:
            raise ValueError(f"One of the requested xi is out of bounds in dimension {i}")


class RegularGridInterpolator:
    """cuarray version of `scipy.interpolate.RegularGridInterpolator` (methods linear,
    nearest, slinear, cubic, quintic, pchip; no ``*_legacy`` methods). The spline methods
    solve their system exactly (banded, per axis), so `solver` and `solver_args` are
    accepted and not used."""

    def __init__(self, points, values, method="linear", bounds_error=True, fill_value=numpy.nan,
                 *, solver=None, solver_args=None):
        if method not in _METHODS:
            raise ValueError(f"Method '{method}' is not defined")
        if method not in ("slinear", "cubic", "quintic") and (solver is not None or solver_args):
            raise ValueError(f"method = {method!r} does not accept the 'solver' argument. Got "
                             f" solver = {solver!r} and with arguments {solver_args}.")
        self.method = method
        self.bounds_error = bounds_error
        self._spline = {}
        self.grid, self._descending_dimensions = _check_points(points)
        if method in _DEGREE:
            self._validate_grid_dimensions(self.grid, method)
        values = asdevice(values)
        if values.dtype.kind not in "fc":
            values = values.astype(_f64)
        _check_dimensionality(self.grid, values)
        if fill_value is not None:
            fdt = numpy.asarray(fill_value).dtype if not isinstance(fill_value, ndarray) else fill_value.dtype
            if not numpy.can_cast(fdt, values.dtype, casting="same_kind"):
                raise ValueError("fill_value must be either 'None' or of a type compatible with values")
        self.fill_value = fill_value
        if self._descending_dimensions:
            values = cuarray.flip(values, axis=self._descending_dimensions)
        if method == "pchip" and values.dtype.kind == "c":
            raise ValueError("`PchipInterpolator` only works with real values. If you are trying to "
                             "use the real components of the passed array, use `np.real` on the "
                             "array before passing to `RegularGridInterpolator`.")
        self.values = values
        if method in ("slinear", "cubic", "quintic"):
            self._spline[method] = make_ndbspl(self.grid, values, _DEGREE[method])

    def _validate_grid_dimensions(self, points, method):
        k = _DEGREE[method]
        for i, p in enumerate(points):
            if len(p) <= k:
                raise ValueError(f"There are {len(p)} points in dimension {i}, but method {method} "
                                 f"requires at least  {k + 1} points per dimension.")

    def __call__(self, xi, method=None, *, nu=None):
        """Interpolate at xi (..., ndim), with this object's method or `method`."""
        method = self.method if method is None else method
        if method not in _METHODS:
            raise ValueError(f"Method '{method}' is not defined")
        if nu is not None and method not in ("slinear", "cubic", "quintic"):
            raise ValueError("Can only compute derivatives for methods {'slinear', 'cubic', "
                             f"'quintic'}}, got method = {method!r}.")
        ndim = len(self.grid)
        xi = _coords(xi, ndim)
        if xi.shape[-1] != ndim:
            raise ValueError(f"The requested sample points xi have dimension {xi.shape[-1]} but this "
                             f"RegularGridInterpolator has dimension {ndim}")
        shape = xi.shape
        xi = cuarray.ascontiguousarray(xi.reshape(-1, ndim))
        if self.bounds_error and xi.shape[0]:
            _check_bounds(self.grid, xi)
        trailing = self.values.shape[ndim:]
        if method in ("linear", "nearest"):
            out = self._linear_nearest(xi, method == "nearest")
        else:
            if method in _DEGREE and method != self.method:
                self._validate_grid_dimensions(self.grid, method)
            if method == "pchip":
                out = self._pchip(xi)
            else:
                spl = self._spline.get(method)
                if spl is None:
                    spl = self._spline[method] = make_ndbspl(self.grid, self.values, _DEGREE[method])
                nus = (0,) * ndim if nu is None else tuple(nu)
                out = _nd_evaluate(spl.t, spl.k, spl.c, xi, nus, True)
            out = self._finish(xi, out)
        return out.reshape(shape[:-1] + trailing)

    def _finish(self, xi, out):
        """Fill values outside the grid and NaN where a coordinate is NaN (spline methods)."""
        if xi.shape[0] == 0:
            return out
        if not self.bounds_error and self.fill_value is not None:
            outside = cuarray.zeros(xi.shape[0], dtype=bool)
            for i, g in enumerate(self.grid):
                outside |= (xi[:, i] < g[0]) | (xi[:, i] > g[-1])
            out = cuarray.where(outside[:, None], cuarray.asarray(self.fill_value).astype(out.dtype), out)
        nans = cuarray.any(cuarray.isnan(xi), axis=1)
        return cuarray.where(nans[:, None], numpy.nan, out)

    def _flat_values(self, dtype):
        ndim = len(self.grid)
        v = self.values
        rows = 1
        for s in v.shape[:ndim]:
            rows *= s
        return cuarray.ascontiguousarray(v.reshape(rows, -1), dtype=dtype)

    def _linear_nearest(self, xi, nearest):
        ndim = len(self.grid)
        dtype = self.values.dtype if nearest else numpy.result_type(self.values.dtype, _f64)
        vals = self._flat_values(dtype)
        n, nc = xi.shape[0], vals.shape[1]
        out = cuarray.empty((n, nc), dtype=dtype)
        if n == 0 or nc == 0:
            return out
        use_fill = not self.bounds_error and self.fill_value is not None
        fill = cuarray.full((nc,), self.fill_value if use_fill else 0, dtype=dtype)
        lens = [len(g) for g in self.grid]
        goff = numpy.concatenate([[0], numpy.cumsum(lens)[:-1]]).astype(numpy.int64)
        gcat = cuarray.concatenate(list(self.grid))
        _kernels.run("ci_grid", n, [gcat, cuarray.asarray(goff), cuarray.asarray(numpy.array(lens, numpy.int64)),
                                    vals, xi, out, fill, n, nc, int(nearest), int(use_fill)],
                     dtype=dtype, D=ndim)
        return out

    def _pchip(self, xi):
        """PCHIP along the last axis, then each earlier one, every point on its own data."""
        ndim = len(self.grid)
        m = xi.shape[0]
        v = self.values.astype(_f64, copy=False)
        trailing = v.shape[ndim:]
        # folded: (m, n_0, ..., n_d, trailing): the data left after folding axes > d.
        folded = None
        for d in range(ndim - 1, -1, -1):
            g = self.grid[d]
            if folded is None:
                y = cuarray.moveaxis(v, d, 0)                        # (n_d, rest..., trailing)
                y = y.reshape((len(g),) + (1,) + y.shape[1:])         # shared by all points
            else:
                y = cuarray.moveaxis(folded, d + 1, 0)                # (n_d, m, rest..., trailing)
            folded = _hermite_fold(g, y, xi[:, d])
        return folded.reshape(m, -1)


def _hermite_fold(x, y, pts):
    """PCHIP through y (n, m or 1, ...) on x, each of the m columns evaluated at its own
    point pts[j]: an array (m, ...)."""
    dx = cuarray.diff(x)
    s = _pchip_slopes(dx, y)
    m = pts.shape[0]
    n = x.shape[0]
    j = cuarray.clip(cuarray.searchsorted(x, pts, side="right") - 1, 0, n - 2)
    cols = cuarray.arange(m) if y.shape[1] != 1 else cuarray.zeros(m, dtype=numpy.int64)
    y0, y1 = y[j, cols], y[j + 1, cols]
    s0, s1 = s[j, cols], s[j + 1, cols]
    h = dx[j].reshape((m,) + (1,) * (y0.ndim - 1))
    t = ((pts - x[j]).reshape(h.shape)) / h
    t2, t3 = t * t, t * t * t
    return ((2 * t3 - 3 * t2 + 1) * y0 + (t3 - 2 * t2 + t) * h * s0
            + (-2 * t3 + 3 * t2) * y1 + (t3 - t2) * h * s1)


def interpn(points, values, xi, method="linear", bounds_error=True, fill_value=numpy.nan):
    """cuarray version of `scipy.interpolate.interpn` (no 'splinef2d')."""
    if method not in _METHODS:
        raise ValueError("interpn only understands the methods 'linear', 'nearest', 'slinear', "
                         f"'cubic', 'quintic', 'pchip'. You provided {method}.")
    values = asdevice(values)
    ndim = values.ndim
    if len(points) > ndim:
        raise ValueError(f"There are {len(points)} point arrays, but values has {ndim} dimensions")
    grid, _ = _check_points(points)
    _check_dimensionality(grid, values)
    xi = _coords(xi, len(grid))
    if xi.shape[-1] != len(grid):
        raise ValueError(f"The requested sample points xi have dimension {xi.shape[-1]}, but this "
                         f"RegularGridInterpolator has dimension {len(grid)}")
    if bounds_error and xi.size:
        _check_bounds(grid, cuarray.ascontiguousarray(xi.reshape(-1, len(grid))))
    interp = RegularGridInterpolator(points, values, method=method, bounds_error=bounds_error,
                                     fill_value=fill_value)
    return interp(xi)
