"""cuarray version of `scipy.interpolate.interp1d`.

'linear', 'nearest', 'nearest-up', 'previous' and 'next' are each one kernel: the
searchsorted SciPy does, the value, and the fill values for points out of range, fused.
The spline kinds ('zero', 'slinear', 'quadratic', 'cubic', or an integer order) are
`make_interp_spline` B-splines. With `bounds_error` (SciPy's default unless
fill_value="extrapolate") every call reads two flags back to decide whether to raise.
"""
import numpy

import cuarray
from cuarray.scipy.interpolate import _kernels
from cuarray.scipy.interpolate._bsplines import make_interp_spline
from cuarray.scipy.interpolate._ppoly import asdevice, finish, points

__all__ = ["interp1d"]

_f64 = numpy.dtype(numpy.float64)
_SPLINE_ORDER = {"zero": 0, "slinear": 1, "quadratic": 2, "cubic": 3}


_outside = []


def _outside_flags(xv, lo, hi):
    """One reduction: bit 0 set when some point is below lo, bit 1 when some is above hi
    (NaN points are neither, as in SciPy's comparisons)."""
    if not _outside:
        _outside.append(cuarray.ReductionKernel(
            "float64 x, float64 lo, float64 hi", "int32 flags",
            "(x < lo ? 1 : 0) | (x > hi ? 2 : 0)", "a | b", "flags = a", "0", name="ci_outside"))
    return int(_outside[0](xv, lo, hi).get())


def _do_extrapolate(fill_value):
    return isinstance(fill_value, str) and fill_value == "extrapolate"


def _broadcast_up_to(arr, shape, name):
    """SciPy's rule: `arr` must broadcast to `shape`; returned flat."""
    shape_from = arr.shape
    if len(shape) >= len(shape_from):
        if all(f in (1, t) for t, f in zip(shape[::-1], shape_from[::-1])):
            return cuarray.broadcast_to(arr, shape).reshape(-1)
    raise ValueError(f"{name} argument must be able to broadcast up to shape {shape} but had "
                     f"shape {arr.shape}")


class interp1d:
    """cuarray version of `scipy.interpolate.interp1d` (every kind; fill_value as a value,
    a (below, above) pair or "extrapolate")."""

    def __init__(self, x, y, kind="linear", axis=-1, copy=True, bounds_error=None,
                 fill_value=numpy.nan, assume_sorted=False):
        self.bounds_error = bounds_error
        self.copy = copy
        if kind in _SPLINE_ORDER:
            order = _SPLINE_ORDER[kind]
            kind = "spline"
        elif isinstance(kind, (int, numpy.integer)) and not isinstance(kind, bool):
            order = int(kind)
            kind = "spline"
        elif kind not in ("linear", "nearest", "nearest-up", "previous", "next"):
            raise NotImplementedError(f"{kind} is unsupported: Use fitpack routines for other types.")
        x = asdevice(x)
        y = asdevice(y)
        if copy:
            x, y = x.copy(), y.copy()
        if y.ndim == 0:
            raise ValueError("the y array must have at least one dimension.")
        if x.ndim != 1:
            raise ValueError("the x array must have exactly one dimension.")
        axis = axis % y.ndim
        if y.shape[axis] != x.shape[0]:
            raise ValueError("x and y arrays must be equal in length along interpolation axis.")
        if not assume_sorted:
            ind = cuarray.argsort(x, kind="stable")
            x = x[ind]
            y = cuarray.take(y, ind, axis=axis)
        if y.dtype.kind not in "fc":
            y = y.astype(_f64)
        self.axis = axis
        self.y = y
        self.x = x
        self._extra = y.shape[:axis] + y.shape[axis + 1:]
        self._y = cuarray.ascontiguousarray(cuarray.moveaxis(y, axis, 0).reshape(y.shape[axis], -1))
        self._xd = cuarray.ascontiguousarray(x, dtype=_f64)
        self._kind = kind
        if kind == "spline":
            minval = order + 1
        else:
            minval = 1
        if len(x) < minval:
            raise ValueError(f"x and y arrays must have at least {minval} entries")
        if kind in ("nearest", "nearest-up"):
            half = self._xd / 2.0
            self._a = cuarray.ascontiguousarray(half[1:] + half[:-1])
            self._right = kind == "nearest-up"
        elif kind in ("previous", "next"):
            toward = -numpy.inf if kind == "previous" else numpy.inf
            self._a = cuarray.ascontiguousarray(cuarray.nextafter(self._xd, toward))
            self._right = kind == "next"
            if _do_extrapolate(fill_value):
                self._check_and_update_bounds_error_for_extrapolation()
                end = cuarray.take(self.y, -1 if kind == "previous" else 0, axis=axis)
                fill_value = (numpy.nan, end) if kind == "previous" else (end, numpy.nan)
        elif kind == "spline":
            xx, yy = self._xd, self._y
            self._nan_spline = False
            if order > 1:
                xnan = cuarray.isnan(self._xd)
                anyx, allx, anyy = (bool(v) for v in cuarray.stack(
                    [cuarray.any(xnan), cuarray.all(xnan), cuarray.any(cuarray.isnan(self._y))]).get())
                if anyx:
                    if allx:
                        raise ValueError("`x` array is all-nan")
                    xx = cuarray.linspace(cuarray.nanmin(self._xd), cuarray.nanmax(self._xd), len(x))
                    self._nan_spline = True
                if anyy:
                    yy = cuarray.ones_like(self._y)
                    self._nan_spline = True
            self._spline = make_interp_spline(xx, yy, k=order, check_finite=False)
        self.fill_value = fill_value

    @property
    def fill_value(self):
        """The fill value(s) as given (SciPy's attribute)."""
        return self._fill_value_orig

    @fill_value.setter
    def fill_value(self, fill_value):
        if _do_extrapolate(fill_value):
            self._check_and_update_bounds_error_for_extrapolation()
            self._extrapolate = True
        else:
            shape = self._extra if self._extra else (1,)
            if isinstance(fill_value, tuple) and len(fill_value) == 2:
                below_above = [_broadcast_up_to(asdevice(fill_value[i]), shape, n) for i, n in
                               enumerate(("fill_value (below)", "fill_value (above)"))]
            else:
                below_above = [_broadcast_up_to(asdevice(fill_value), shape, "fill_value")] * 2
            self._fill_value_below, self._fill_value_above = below_above
            self._extrapolate = False
            if self.bounds_error is None:
                self.bounds_error = True
        self._fill_value_orig = fill_value

    def _check_and_update_bounds_error_for_extrapolation(self):
        if self.bounds_error:
            raise ValueError("Cannot extrapolate and raise at the same time.")
        self.bounds_error = False

    @property
    def dtype(self):
        return numpy.dtype(numpy.complex128 if self.y.dtype.kind == "c" else numpy.float64)

    def _out_dtype(self):
        if self._kind in ("nearest", "nearest-up", "previous", "next"):
            return self._y.dtype
        return self.dtype

    def _fills(self, dtype):
        nc = self._y.shape[1]
        return [cuarray.ascontiguousarray(cuarray.broadcast_to(f, (nc,)).astype(dtype))
                for f in (self._fill_value_below, self._fill_value_above)]

    def _check_bounds(self, xv):
        if not self.bounds_error or xv.size == 0:
            return
        flags = _outside_flags(xv, self._xd[0], self._xd[-1])
        if flags & 1:
            v = float(xv[cuarray.argmax(xv < self._xd[0])].get())
            raise ValueError(f"A value ({v}) in x_new is below the interpolation range's minimum "
                             f"value ({float(self._xd[0].get())}).")
        if flags & 2:
            v = float(xv[cuarray.argmax(xv > self._xd[-1])].get())
            raise ValueError(f"A value ({v}) in x_new is above the interpolation range's maximum "
                             f"value ({float(self._xd[-1].get())}).")

    def __call__(self, x):
        """Evaluate the interpolant at x: the interpolation axis of y replaced by x's shape."""
        xv, shape = points(x)
        self._check_bounds(xv)
        return finish(self._evaluate(xv), shape, self._extra, self.axis)

    def _evaluate(self, xv):
        n, nx, nc = xv.size, self._y.shape[0], self._y.shape[1]
        dtype = self._out_dtype()
        if self._kind == "spline":
            out = self._spline._evaluate(xv, 0, 1).astype(dtype, copy=False)
            if self._nan_spline:
                out = cuarray.full_like(out, numpy.nan)
            if not self._extrapolate and n:
                lo, hi = self._fills(dtype)
                out = cuarray.where((xv < self._xd[0])[:, None], lo, out)
                out = cuarray.where((xv > self._xd[-1])[:, None], hi, out)
            return out
        out = cuarray.empty((n, nc), dtype=dtype)
        if n == 0 or nc == 0:
            return out
        lo, hi = self._fills(dtype) if not self._extrapolate else (out, out)
        y = self._y.astype(dtype, copy=False)
        extrap = int(self._extrapolate)
        if self._kind == "linear":
            # SciPy hands 1-D float64/int64 data to numpy.interp (not when extrapolating).
            npinterp = int(self.y.ndim == 1 and not extrap and self.x.dtype.char in "dlq"
                           and self.y.dtype.char in "dlq")
            _kernels.run("ci_linear", n, [self._xd, y, xv, out, lo, hi, n, nx, nc, extrap, npinterp],
                         dtype=dtype)
        elif self._kind in ("nearest", "nearest-up"):
            _kernels.run("ci_select", n, [self._xd, self._a, y, xv, out, lo, hi, n, nx, self._a.size,
                                          nc, int(self._right), 0, nx - 1, 0, extrap], dtype=dtype)
        else:
            ind = 1 if self._kind == "next" else 0
            _kernels.run("ci_select", n, [self._xd, self._a, y, xv, out, lo, hi, n, nx, nx, nc,
                                          int(self._right), 1 - ind, nx - ind, ind - 1, extrap],
                         dtype=dtype)
        return out
