"""B-splines (cuarray versions of `scipy.interpolate.BSpline`, `make_interp_spline`,
`make_lsq_spline`, `splder`, `splantider`).

Evaluation is one kernel per point batch (knot interval search and the de Boor basis fused,
`_kernels.py`). Interpolation builds the banded collocation matrix on the device (one
kernel) and solves it with the band LU; least squares accumulates the banded normal
equations with atomics and solves them the same way.
"""
import operator

import numpy

import cuarray
from cuarray.scipy.interpolate import _kernels
from cuarray.scipy.interpolate._ppoly import asdevice, coef_dtype, evaluate, points

__all__ = ["BSpline", "make_interp_spline", "make_lsq_spline", "splder", "splantider"]

_f64 = numpy.dtype(numpy.float64)


def _flags(*conds):
    """Several device booleans read back in one transfer."""
    return [bool(v) for v in cuarray.stack([cuarray.asarray(c) for c in conds]).get()]


def _floats(*vals):
    return [float(v) for v in cuarray.stack([cuarray.asarray(v, dtype=_f64) for v in vals]).get()]


class BSpline:
    """cuarray version of `scipy.interpolate.BSpline`."""

    def __init__(self, t, c, k, extrapolate=True, axis=0):
        self.k = operator.index(k)
        c = asdevice(c)
        t = cuarray.ascontiguousarray(asdevice(t), dtype=_f64)
        self.extrapolate = extrapolate if extrapolate == "periodic" else bool(extrapolate)
        n = t.shape[0] - self.k - 1
        if c.ndim < 1:
            raise ValueError("Coefficients must be at least 1-dimensional.")
        axis = operator.index(axis)
        if not -c.ndim <= axis < c.ndim:
            raise numpy.exceptions.AxisError(axis, c.ndim)
        axis %= c.ndim
        self.axis = axis
        if axis != 0:
            c = cuarray.moveaxis(c, axis, 0)
        if k < 0:
            raise ValueError("Spline order cannot be negative.")
        if t.ndim != 1:
            raise ValueError("Knot vector must be one-dimensional.")
        if n < self.k + 1:
            raise ValueError(f"Need at least {2 * k + 2} knots for degree {k}")
        sorted_, distinct, finite = _flags(cuarray.all(cuarray.diff(t) >= 0),
                                           t[n] > t[self.k], cuarray.all(cuarray.isfinite(t)))
        if not sorted_:
            raise ValueError("Knots must be in a non-decreasing order.")
        if not distinct:
            raise ValueError("Need at least two internal knots.")
        if not finite:
            raise ValueError("Knots should not have nans or infs.")
        if c.shape[0] < n:
            raise ValueError("Knots, coefficients and degree are inconsistent.")
        self.c = cuarray.ascontiguousarray(c, dtype=coef_dtype(c.dtype))
        self.t = t

    @classmethod
    def construct_fast(cls, t, c, k, extrapolate=True, axis=0):
        """Construct without checks (as SciPy's `construct_fast`)."""
        self = object.__new__(cls)
        self.t, self.c, self.k = t, c, k
        self.extrapolate = extrapolate
        self.axis = axis
        return self

    @property
    def tck(self):
        """(t, c, k): the knots, coefficients and degree."""
        return self.t, self.c, self.k

    @classmethod
    def basis_element(cls, t, extrapolate=True):
        """The B-spline basis element on the knots t (degree len(t) - 2)."""
        t = cuarray.ascontiguousarray(asdevice(t), dtype=_f64)
        k = t.shape[0] - 2
        t = cuarray.concatenate([cuarray.full(k, 1.0) * (t[0] - 1), t, cuarray.full(k, 1.0) * (t[-1] + 1)])
        c = cuarray.zeros_like(t)
        c[k] = 1.0
        return cls.construct_fast(t, c, k, extrapolate)

    @classmethod
    def design_matrix(cls, x, t, k, extrapolate=False):
        """The collocation matrix (a `cuarray.scipy.sparse.csr_matrix`, as CuPy's) of the
        B-splines of degree k on the knots t at the points x."""
        from cuarray.scipy.sparse import csr_matrix
        xv, _ = points(x)
        t = cuarray.ascontiguousarray(asdevice(t), dtype=_f64)
        k = operator.index(k)
        if xv.ndim != 1 or t.ndim != 1:
            raise ValueError("Expect x and t to be 1-D arrays")
        if t.shape[0] < 2 * k + 2:
            raise ValueError(f"Length t is not enough for k={k}.")
        nb = t.shape[0] - k - 1
        if not extrapolate and xv.size:
            inside, = _flags(cuarray.all((xv >= t[k]) & (xv <= t[nb])))
            if not inside:
                raise ValueError(f"Out of bounds w/ x = {x}.")
        n = xv.size
        data = cuarray.empty(n * (k + 1), dtype=_f64)
        cols = cuarray.empty(n * (k + 1), dtype=numpy.int64)
        if n:
            _kernels.run("ci_design", n, [t, xv, 0, data, cols, n, nb], K=k)
        indptr = cuarray.arange(0, n * (k + 1) + 1, k + 1, dtype=numpy.int64)
        return csr_matrix((data, cols, indptr), shape=(n, nb))

    def __call__(self, x, nu=0, extrapolate=None):
        """Evaluate the spline (or its `nu`-th derivative) at x."""
        return evaluate(self, x, nu, extrapolate, self.c.shape[1:])

    def _evaluate(self, xv, nu, mode):
        if nu < 0:
            raise ValueError(f"Cannot do derivative order {nu}.")
        k = self.k
        nb = self.t.shape[0] - k - 1
        c = self.c
        if not c._c_contig:
            c = self.c = c.copy()
        nc = 1
        for s in c.shape[1:]:
            nc *= s
        if nu > k:   # zero, NaN where the value is NaN (outside without extrapolation, NaN x)
            return self._evaluate(xv, 0, mode) * 0
        out = cuarray.empty((xv.size, nc), dtype=c.dtype)
        if xv.size and nc:
            _kernels.run("ci_bspline", xv.size, [self.t, c, xv, out, xv.size, nb, nc, nu, mode],
                         dtype=c.dtype, K=k)
        return out

    def _padded(self):
        c = self.c
        ct = len(self.t) - len(c)
        if ct > 0:
            c = cuarray.concatenate([c, cuarray.zeros((ct,) + c.shape[1:], dtype=c.dtype)])
        return c

    def derivative(self, nu=1):
        """The `nu`-th derivative as a BSpline."""
        t, c, k = splder((self.t, self._padded(), self.k), nu)
        return self.construct_fast(t, c, k, extrapolate=self.extrapolate, axis=self.axis)

    def antiderivative(self, nu=1):
        """The `nu`-th antiderivative as a BSpline (periodic splines lose periodicity)."""
        t, c, k = splantider((self.t, self._padded(), self.k), nu)
        extrapolate = False if self.extrapolate == "periodic" else self.extrapolate
        return self.construct_fast(t, c, k, extrapolate=extrapolate, axis=self.axis)

    def integrate(self, a, b, extrapolate=None):
        """The definite integral from a to b (outside the base interval only when
        extrapolating); an array of the trailing shape."""
        if extrapolate is None:
            extrapolate = self.extrapolate
        a, b = float(a), float(b)
        sign = 1
        if b < a:
            a, b = b, a
            sign = -1
        k = self.k
        n = self.t.size - k - 1
        ts, te = _floats(self.t[k], self.t[n])
        if extrapolate != "periodic" and not extrapolate:
            a = max(a, ts)
            b = min(b, te)
        anti = self.antiderivative()
        anti = self.construct_fast(anti.t, anti.c, anti.k, True, 0)
        if extrapolate == "periodic":
            period = te - ts
            n_periods, left = divmod(b - a, period)
            a = ts + (a - ts) % period
            b = a + left
            pts = [ts, te, a, b] if b <= te else [ts, te, a, te, ts, ts + b - te]
            v = anti._evaluate(cuarray.asarray(pts, dtype=_f64), 0, 0)
            total = n_periods * (v[1] - v[0]) + v[3] - v[2]
            if len(pts) == 6:
                total = total + v[5] - v[4]
        else:
            v = anti._evaluate(cuarray.asarray([a, b], dtype=_f64), 0, int(bool(extrapolate)))
            total = v[1] - v[0]
        return (total * sign).reshape(self.c.shape[1:])


def splder(tck, n=1):
    """cuarray version of `scipy.interpolate.splder` (a BSpline or a (t, c, k) tuple)."""
    if isinstance(tck, BSpline):
        return tck.derivative(n)
    t, c, k = tck
    if n < 0:
        return splantider(tck, -n)
    if n > k:
        raise ValueError(f"Order of derivative (n = {n!r}) must be <= order of spline (k = {k!r})")
    t = cuarray.ascontiguousarray(asdevice(t), dtype=_f64)
    c = asdevice(c)
    c = c.astype(coef_dtype(c.dtype), copy=False)
    if n == 0:
        return t, c, k
    steps = []
    for _ in range(n):
        dt = t[k + 1:-1] - t[1:-k - 1]
        steps.append(cuarray.any(dt == 0))
        dt = dt.reshape((-1,) + (1,) * (c.ndim - 1))
        # Division by zero at repeated knots is reported below, as SciPy does.
        c = (c[1:-1 - k] - c[:-2 - k]) * k / cuarray.where(dt == 0, 1.0, dt)
        c = cuarray.concatenate([c, cuarray.zeros((k,) + c.shape[1:], dtype=c.dtype)])
        t = t[1:-1]
        k -= 1
    if any(_flags(*steps)):
        raise ValueError(f"The spline has internal repeated knots and is not differentiable {n} times")
    return cuarray.ascontiguousarray(t), c, k


def splantider(tck, n=1):
    """cuarray version of `scipy.interpolate.splantider` (a BSpline or a (t, c, k) tuple)."""
    if isinstance(tck, BSpline):
        return tck.antiderivative(n)
    if n < 0:
        return splder(tck, -n)
    t, c, k = tck
    t = cuarray.ascontiguousarray(asdevice(t), dtype=_f64)
    c = asdevice(c)
    c = c.astype(coef_dtype(c.dtype), copy=False)
    for _ in range(n):
        dt = (t[k + 1:] - t[:-k - 1]).reshape((-1,) + (1,) * (c.ndim - 1))
        c = cuarray.cumsum(c[:-k - 1] * dt, axis=0) / (k + 1)
        tail = cuarray.broadcast_to(c[-1:], (k + 2,) + c.shape[1:])
        c = cuarray.concatenate([cuarray.zeros((1,) + c.shape[1:], dtype=c.dtype), c, tail])
        t = cuarray.concatenate([t[:1], t, t[-1:]])
        k += 1
    return t, c, k


def _not_a_knot(x, k):
    if k % 2 == 1:
        k2 = (k + 1) // 2
        t = x
    else:
        k2 = k // 2
        t = (x[1:] + x[:-1]) / 2
    t = t[k2:-k2] if k2 else t
    return cuarray.concatenate([cuarray.broadcast_to(x[:1], (k + 1,)), t,
                                cuarray.broadcast_to(x[-1:], (k + 1,))])


def _augknt(x, k):
    return cuarray.concatenate([cuarray.broadcast_to(x[:1], (k,)), x, cuarray.broadcast_to(x[-1:], (k,))])


def _deriv_spec(deriv, shape):
    """(orders, values) of one end's bc_type entry."""
    if deriv is None:
        return [], []
    if isinstance(deriv, str):
        if deriv == "clamped":
            deriv = [(1, cuarray.zeros(shape))]
        elif deriv == "natural":
            deriv = [(2, cuarray.zeros(shape))]
        else:
            raise ValueError(f"Unknown boundary condition : {deriv}")
    try:
        ords, vals = zip(*deriv)
    except TypeError as e:
        raise ValueError("Derivatives, `bc_type`, should be specified as a pair of iterables of "
                         "pairs of (order, value).") from e
    return [int(o) for o in ords], [asdevice(v) for v in vals]


def _float_input(a, check_finite, name):
    a = asdevice(a)
    if a.dtype.kind not in "fc":
        a = a.astype(_f64)
    return a


def make_interp_spline(x, y, k=3, t=None, bc_type=None, axis=0, check_finite=True):
    """cuarray version of `scipy.interpolate.make_interp_spline`. bc_type='periodic' solves
    a dense system of len(x) + k - 1 unknowns (cuSOLVER), not SciPy's banded Woodbury."""
    if bc_type is None or bc_type == "not-a-knot" or bc_type == "periodic":
        deriv_l = deriv_r = None
    elif isinstance(bc_type, str):
        deriv_l = deriv_r = bc_type
    else:
        try:
            deriv_l, deriv_r = bc_type
        except TypeError as e:
            raise ValueError(f"Unknown boundary condition: {bc_type}") from e
    x = _float_input(x, check_finite, "x").astype(_f64, copy=False)
    y = _float_input(y, check_finite, "y")
    if not -y.ndim <= axis < y.ndim:
        raise numpy.exceptions.AxisError(axis, y.ndim)
    axis %= y.ndim
    y = cuarray.moveaxis(y, axis, 0)
    if bc_type == "periodic" and not bool(cuarray.allclose(y[0], y[-1], atol=1e-15)):
        raise ValueError("First and last points does not match while periodic case expected")
    if x.size != y.shape[0]:
        raise ValueError(f"Shapes of x {x.shape} and y {y.shape} are incompatible")
    checks = [cuarray.any(x[1:] == x[:-1]), cuarray.any(x[1:] < x[:-1])]
    if check_finite:
        checks += [cuarray.all(cuarray.isfinite(x)), cuarray.all(cuarray.isfinite(y))]
    flags = _flags(*checks)
    if check_finite and not (flags[2] and flags[3]):
        raise ValueError("array must not contain infs or NaNs")
    if flags[0]:
        raise ValueError("Expect x to not have duplicates")
    if x.ndim != 1 or flags[1]:
        raise ValueError("Expect x to be a 1D strictly increasing sequence.")
    cdt = coef_dtype(y.dtype)
    if k == 0:
        if t is not None or deriv_l is not None or deriv_r is not None:
            raise ValueError("Too much info for k=0: t and bc_type can only be None.")
        t = cuarray.concatenate([x, x[-1:]])
        return BSpline.construct_fast(t, cuarray.ascontiguousarray(y, dtype=cdt), k, axis=axis)
    if k == 1 and t is None:
        if not (deriv_l is None and deriv_r is None):
            raise ValueError("Too much info for k=1: bc_type can only be None.")
        t = cuarray.concatenate([x[:1], x, x[-1:]])
        return BSpline.construct_fast(t, cuarray.ascontiguousarray(y, dtype=cdt), k, axis=axis)
    k = operator.index(k)
    if bc_type == "periodic":
        if t is not None:
            raise NotImplementedError("For periodic case t is constructed automatically and can "
                                      "not be passed manually")
        return _make_periodic_spline(x, y.astype(cdt), _periodic_knots(x, k), k, axis)
    if t is None:
        t = _not_a_knot(x, k) if deriv_l is None and deriv_r is None else _augknt(x, k)
    t = cuarray.ascontiguousarray(asdevice(t), dtype=_f64)
    if k < 0:
        raise ValueError("Expect non-negative k.")
    if t.ndim != 1 or _flags(cuarray.any(t[1:] < t[:-1]))[0]:
        raise ValueError("Expect t to be a 1-D sorted array_like.")
    if t.size < x.size + k + 1:
        raise ValueError(f"Got {t.size} knots, need at least {x.size + k + 1}.")
    if any(_flags(x[0] < t[k], x[-1] > t[-k])):
        raise ValueError(f"Out of bounds w/ x = {x}.")
    lo, lv = _deriv_spec(deriv_l, y.shape[1:])
    ro, rv = _deriv_spec(deriv_r, y.shape[1:])
    nleft, nright = len(lo), len(ro)
    if not all(0 <= i <= k for i in lo):
        raise ValueError(f"Bad boundary conditions at {x[0]}.")
    if not all(0 <= i <= k for i in ro):
        raise ValueError(f"Bad boundary conditions at {x[-1]}.")
    n = x.size
    nt = t.size - k - 1
    if nt - n != nleft + nright:
        raise ValueError("The number of derivatives at boundaries does not match: "
                         f"expected {nt - n}, got {nleft}+{nright}")
    if y.size == 0:
        return BSpline.construct_fast(t, cuarray.zeros((nt,) + y.shape[1:]), k, axis=axis)
    # Rows: the left derivatives at x[0], the data, the right derivatives at x[-1].
    xs = cuarray.concatenate([cuarray.broadcast_to(x[:1], (nleft,)), x,
                              cuarray.broadcast_to(x[-1:], (nright,))])
    nus = cuarray.concatenate([cuarray.asarray(numpy.array(lo, numpy.int32)),
                               cuarray.zeros(n, dtype=numpy.int32),
                               cuarray.asarray(numpy.array(ro, numpy.int32))])
    rows = cuarray.arange(nt, dtype=numpy.int64)
    extra = [v.reshape(y.shape[1:]).astype(cdt) for v in lv]
    tail = [v.reshape(y.shape[1:]).astype(cdt) for v in rv]
    if any(v.dtype.kind == "c" for v in lv + rv):
        cdt = numpy.dtype(numpy.complex128)
    parts = ([cuarray.stack(extra).astype(cdt)] if extra else []) + [y.astype(cdt)]
    parts += [cuarray.stack(tail).astype(cdt)] if tail else []
    rhs = cuarray.concatenate(parts)
    c = _solve_colloc(t, k, xs, nus, rows, nt, rhs)
    return BSpline.construct_fast(t, c, k, axis=axis)


def _periodic_knots(x, k):
    """Knots on the circle: the data points (midpoints for even k) and k more at each end
    continuing the spacing periodically."""
    n = x.size
    xc = x.copy()
    if k % 2 == 0:
        dx = cuarray.diff(xc)
        xc[1:-1] -= dx[:-1] / 2
    dx = cuarray.diff(xc)
    left = [xc[0]]
    right = [xc[-1]]
    for i in range(k):
        left.append(left[-1] - dx[-(i % (n - 1)) - 1])
        right.append(right[-1] + dx[i % (n - 1)])
    return cuarray.concatenate([cuarray.stack(left[:0:-1]), xc, cuarray.stack(right[1:])]) if k else xc


def _make_periodic_spline(x, y, t, k, axis):
    """The interpolating spline whose first k-1 derivatives match at both ends: k-1 rows
    of derivative differences and n collocation rows, one dense solve."""
    n = x.size
    nt = t.size - k - 1
    nd = k - 1
    pts = cuarray.concatenate([cuarray.broadcast_to(x[:1], (nd,)), cuarray.broadcast_to(x[-1:], (nd,)), x])
    nus = cuarray.asarray(numpy.r_[numpy.arange(1, k), numpy.arange(1, k), numpy.zeros(n)].astype(numpy.int32))
    R = pts.size
    data = cuarray.empty(R * (k + 1))
    cols = cuarray.empty(R * (k + 1), dtype=numpy.int64)
    _kernels.run("ci_design", R, [t, cuarray.ascontiguousarray(pts), nus, data, cols, R, nt], K=k)
    rows = numpy.r_[numpy.arange(nd), numpy.arange(nd), numpy.arange(nd, nd + n)]
    sign = numpy.r_[numpy.ones(nd), -numpy.ones(nd), numpy.ones(n)]
    rows = cuarray.asarray(numpy.repeat(rows, k + 1))
    sign = cuarray.asarray(numpy.repeat(sign, k + 1))
    M = cuarray.zeros(nt * nt)
    cuarray.add.at(M, rows * nt + cols, data * sign)
    yy = y.reshape(n, -1)
    b = cuarray.concatenate([cuarray.zeros((nd, yy.shape[1]), dtype=yy.dtype), yy])
    c = cuarray.linalg.solve(M.reshape(nt, nt), b)
    return BSpline.construct_fast(t, c.reshape((nt,) + y.shape[1:]), k, extrapolate="periodic",
                                  axis=axis)


def _solve_colloc(t, k, xs, nus, rows, nt, rhs):
    """Solve the collocation system: band k + k as SciPy's; a wider band when the knots
    put entries outside it."""
    for kl in (k, nt - 1):
        W = 3 * kl + 1
        ab = cuarray.zeros((nt, W))
        bad = cuarray.zeros((1,), dtype=numpy.int32)
        _kernels.run("ci_colloc", xs.size, [t, xs, nus, rows, ab, bad, xs.size, nt, W, kl, 0], K=k)
        if kl == nt - 1 or not int(bad.get()[0]):
            break
    try:
        return _kernels.solve_banded(ab, kl, kl, rhs, check=True)
    except numpy.linalg.LinAlgError as e:
        raise numpy.linalg.LinAlgError("Colocation matrix is singular.") from e


def make_lsq_spline(x, y, t, k=3, w=None, axis=0, check_finite=True, *, method="qr"):
    """cuarray version of `scipy.interpolate.make_lsq_spline`. Both methods solve the
    normal equations on the GPU (banded, pivoted LU); 'qr' gives SciPy's solution to
    rounding for well-conditioned fits."""
    if method not in ("qr", "norm-eq"):
        raise ValueError(f"Unknown method = {method!r}.")
    x = _float_input(x, check_finite, "x").astype(_f64, copy=False)
    y = _float_input(y, check_finite, "y")
    t = cuarray.ascontiguousarray(asdevice(t), dtype=_f64)
    w = cuarray.ones_like(x) if w is None else asdevice(w).astype(_f64)
    k = operator.index(k)
    if not -y.ndim <= axis < y.ndim:
        raise numpy.exceptions.AxisError(axis, y.ndim)
    axis %= y.ndim
    y = cuarray.moveaxis(y, axis, 0)
    if x.ndim != 1:
        raise ValueError("Expect x to be a 1-D sequence.")
    if x.shape[0] < k + 1:
        raise ValueError("Need more x points.")
    if k < 0:
        raise ValueError("Expect non-negative k.")
    if t.ndim != 1 or _flags(cuarray.any(t[1:] - t[:-1] < 0))[0]:
        raise ValueError("Expect t to be a 1D strictly increasing sequence.")
    if x.size != y.shape[0]:
        raise ValueError(f"Shapes of x {x.shape} and y {y.shape} are incompatible")
    checks = [cuarray.any((x < t[k]) | (x > t[-k])) if k > 0 else cuarray.asarray(False),
              cuarray.any(x[1:] - x[:-1] <= 0), cuarray.any(x[1:] - x[:-1] < 0)]
    out_of_bounds, not_strict, not_sorted = _flags(*checks)
    if out_of_bounds:
        raise ValueError(f"Out of bounds w/ x = {x}.")
    if x.size != w.size:
        raise ValueError(f"Shapes of x {x.shape} and w {w.shape} are incompatible")
    if method == "norm-eq" and not_strict:
        raise ValueError("Expect x to be a 1D strictly increasing sequence.")
    if method == "qr" and not_sorted:
        raise ValueError("Expect x to be a 1D non-decreasing sequence.")
    n = t.size - k - 1
    cdt = coef_dtype(y.dtype)
    yy = cuarray.ascontiguousarray(y.reshape(y.shape[0], -1), dtype=cdt)
    if cdt.kind == "c":   # real and imaginary parts are two right-hand sides
        yy = cuarray.ascontiguousarray(yy.view(_f64))
    nc = yy.shape[1]
    W = 3 * k + 1
    ab = cuarray.zeros((n, W))
    rhs = cuarray.zeros((n, nc))
    if x.size:
        _kernels.run("ci_normal_eq", x.size, [t, x, cuarray.ascontiguousarray(w), yy, ab, rhs,
                                              x.size, n, nc, W], K=k)
    c = _kernels.solve_banded(ab, k, k, rhs, check=True)
    if cdt.kind == "c":
        c = cuarray.ascontiguousarray(c).view(cdt)
    return BSpline.construct_fast(t, c.reshape((n,) + y.shape[1:]), k, axis=axis)
