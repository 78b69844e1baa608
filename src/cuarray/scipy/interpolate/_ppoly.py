"""Piecewise polynomials in the power and Bernstein bases (cuarray version of
`scipy.interpolate.PPoly` and `BPoly`).

Coefficients live on the device as float64 or complex128, shape (k, m, ...); evaluation is
one kernel (interval search and Horner / de Casteljau fused, `_kernels.py`). Coefficient
transforms (derivatives, antiderivatives, basis changes) are array arithmetic over the
k rows. Construction checks that the breakpoints are monotonic, which reads one flag back.
"""
import math

import numpy

import cuarray
from cuarray._core.ndarray import ndarray
from cuarray.scipy.interpolate import _kernels

__all__ = ["PPoly", "BPoly"]

_f64 = numpy.dtype(numpy.float64)
_c128 = numpy.dtype(numpy.complex128)


def asdevice(a, dtype=None):
    """`a` as a cuarray array (host array_likes are uploaded, as CuPy's asarray does)."""
    if isinstance(a, ndarray):
        return a if dtype is None else a.astype(dtype, copy=False)
    return cuarray.asarray(a, dtype=dtype)


def coef_dtype(*dtypes):
    """SciPy's coefficient dtype: complex128 if any input is complex, else float64."""
    return _c128 if any(numpy.dtype(d).kind == "c" for d in dtypes) else _f64


def points(x):
    """Evaluation points as a flat contiguous float64 array, and their shape."""
    x = asdevice(x)
    if x.dtype.kind == "c":
        raise TypeError("interpolation points must be real, not complex")
    shape = x.shape
    return cuarray.ascontiguousarray(x.reshape(-1), dtype=_f64), shape


def mode_of(extrapolate):
    return 2 if extrapolate == "periodic" else (1 if extrapolate else 0)


def finish(out, x_shape, trailing, axis):
    """Result of shape x_shape + trailing with the x axes moved to `axis` (SciPy's layout)."""
    out = out.reshape(x_shape + trailing)
    if axis:
        nx = len(x_shape)
        order = list(range(out.ndim))
        order = order[nx:nx + axis] + order[:nx] + order[nx + axis:]
        out = out.transpose(order)
    return out


def evaluate(spline, x, nu, extrapolate, trailing):
    """`spline._evaluate(points, nu, mode)` at x in SciPy's layout (`trailing`: the
    coefficients' trailing shape); `extrapolate` None takes the spline's own."""
    if extrapolate is None:
        extrapolate = spline.extrapolate
    xv, shape = points(x)
    return finish(spline._evaluate(xv, nu, mode_of(extrapolate)), shape, trailing, spline.axis)


def monotonic(x):
    """(ascending or descending, strictly?) of the breakpoints: one read back."""
    dx = cuarray.diff(x)
    flags = cuarray.stack([cuarray.all(dx >= 0), cuarray.all(dx <= 0)]).get()
    return bool(flags[0] or flags[1])


def _fall(p, nu):
    f = 1.0
    for j in range(nu):
        f *= p - j
    return f


class _PPolyBase:
    """The part PPoly and BPoly share: breakpoints, coefficients, axis, extrapolation."""

    __slots__ = ("c", "x", "extrapolate", "axis")

    def __init__(self, c, x, extrapolate=None, axis=0):
        c = asdevice(c)
        x = asdevice(x)
        if x.dtype.kind == "c":
            raise TypeError("breakpoints x must be real")
        x = cuarray.ascontiguousarray(x, dtype=_f64)
        self.extrapolate = True if extrapolate is None else (
            extrapolate if extrapolate == "periodic" else bool(extrapolate))
        if c.ndim < 2:
            raise ValueError("Coefficients array must be at least 2-dimensional.")
        if not 0 <= axis < c.ndim - 1:
            raise ValueError(f"axis={axis} must be between 0 and {c.ndim - 1}")
        self.axis = axis
        if axis != 0:
            c = cuarray.moveaxis(c, axis + 1, 0)
            c = cuarray.moveaxis(c, axis + 1, 0)
        if x.ndim != 1:
            raise ValueError("x must be 1-dimensional")
        if x.size < 2:
            raise ValueError("at least 2 breakpoints are needed")
        if c.shape[0] == 0:
            raise ValueError("polynomial must be at least of order 0")
        if c.shape[1] != x.size - 1:
            raise ValueError("number of coefficients != len(x)-1")
        if not monotonic(x):
            raise ValueError("`x` must be strictly increasing or decreasing.")
        self.c = cuarray.ascontiguousarray(c, dtype=coef_dtype(c.dtype))
        self.x = x

    @classmethod
    def construct_fast(cls, c, x, extrapolate=None, axis=0):
        """Construct without checks (as SciPy's `construct_fast`)."""
        self = object.__new__(cls)
        self.c = c
        self.x = x
        self.axis = axis
        self.extrapolate = True if extrapolate is None else extrapolate
        return self

    def _coefs(self):
        c = self.c
        if not c._c_contig:
            c = self.c = c.copy()
        if not self.x._c_contig:
            self.x = self.x.copy()
        return c

    def __call__(self, x, nu=0, extrapolate=None):
        """Evaluate the piecewise polynomial or its `nu`-th derivative at x."""
        return evaluate(self, x, nu, extrapolate, self.c.shape[2:])

    def _eval_kernel(self, name, c, xv, extra):
        k, m = c.shape[0], c.shape[1]
        nc = 1
        for s in c.shape[2:]:
            nc *= s
        out = cuarray.empty((xv.size, nc), dtype=c.dtype)
        if xv.size and nc:
            _kernels.run(name, xv.size, [self.x, c, xv, out, xv.size, m, nc] + extra,
                         dtype=c.dtype, K=k)
        return out

    def extend(self, c, x):
        """Add intervals (coefficients `c`, breakpoints `x`) on the left or the right."""
        c = asdevice(c)
        x = cuarray.ascontiguousarray(asdevice(x), dtype=_f64)
        if c.ndim < 2:
            raise ValueError("invalid dimensions for c")
        if x.ndim != 1:
            raise ValueError("invalid dimensions for x")
        if x.shape[0] != c.shape[1]:
            raise ValueError(f"Shapes of x {x.shape} and c {c.shape} are incompatible")
        if c.shape[2:] != self.c.shape[2:] or c.ndim != self.c.ndim:
            raise ValueError(f"Shapes of c {c.shape} and self.c {self.c.shape} are incompatible")
        if c.size == 0:
            return
        if not monotonic(x):
            raise ValueError("`x` is not sorted.")
        ends = cuarray.stack([self.x[0], self.x[-1], x[0], x[-1]]).get()
        s0, s1, x0, x1 = (float(v) for v in ends)
        if s1 >= s0:
            if not x1 >= x0:
                raise ValueError("`x` is in the different order than `self.x`.")
            action = "append" if x0 >= s1 else ("prepend" if x1 <= s0 else None)
        else:
            if not x1 <= x0:
                raise ValueError("`x` is in the different order than `self.x`.")
            action = "append" if x0 <= s1 else ("prepend" if x1 >= s0 else None)
        if action is None:
            raise ValueError("`x` is neither on the left or on the right from `self.x`.")
        dtype = coef_dtype(c.dtype, self.c.dtype)
        k2 = max(c.shape[0], self.c.shape[0])
        m1 = self.c.shape[1]
        c2 = cuarray.zeros((k2, m1 + c.shape[1]) + self.c.shape[2:], dtype=dtype)
        if action == "append":
            c2[k2 - self.c.shape[0]:, :m1] = self.c
            c2[k2 - c.shape[0]:, m1:] = c
            self.x = cuarray.concatenate([self.x, x])
        else:
            c2[k2 - c.shape[0]:, :c.shape[1]] = c
            c2[k2 - self.c.shape[0]:, c.shape[1]:] = self.c
            self.x = cuarray.concatenate([x, self.x])
        self.c = c2

    def _integrate_with(self, anti, a, b, extrapolate):
        """The definite integral from the antiderivative `anti` (SciPy's periodic rule)."""
        if extrapolate is None:
            extrapolate = self.extrapolate
        sign = 1
        if b < a:
            a, b = b, a
            sign = -1
        trailing = self.c.shape[2:]
        if extrapolate == "periodic":
            ends = cuarray.stack([self.x[0], self.x[-1]]).get()
            xs, xe = float(ends[0]), float(ends[-1])
            period = xe - xs
            n_periods, left = divmod(b - a, period)
            pts = [xe, xs]
            a = xs + (a - xs) % period
            b = a + left
            if b <= xe:
                pts += [b, a]
            else:
                pts += [xe, a, xs + left + a - xe, xs]
            v = anti._evaluate(cuarray.asarray(pts, dtype=_f64), 0, 0)
            total = n_periods * (v[0] - v[1])
            total = total + v[2] - v[3]
            if len(pts) == 6:
                total = total + v[4] - v[5]
        else:
            v = anti._evaluate(cuarray.asarray([b, a], dtype=_f64), 0, int(bool(extrapolate)))
            total = v[0] - v[1]
        return (total * sign).reshape(trailing)


class PPoly(_PPolyBase):
    """cuarray version of `scipy.interpolate.PPoly`."""

    __slots__ = ()

    def _evaluate(self, xv, nu, mode):
        if nu < 0:
            raise ValueError("Order of derivative cannot be negative")
        return self._eval_kernel("ci_ppoly", self._coefs(), xv, [nu, mode])

    def derivative(self, nu=1):
        """The `nu`-th derivative as a PPoly (an antiderivative for negative nu)."""
        if nu < 0:
            return self.antiderivative(-nu)
        if nu == 0:
            c2 = self.c.copy()
        else:
            k = self.c.shape[0]
            if nu >= k:
                c2 = cuarray.zeros((1,) + self.c.shape[1:], dtype=self.c.dtype)
            else:
                f = numpy.array([_fall(k - 1 - q, nu) for q in range(k - nu)])
                c2 = self.c[:k - nu] * cuarray.asarray(f).reshape((-1,) + (1,) * (self.c.ndim - 1))
        return self.construct_fast(c2, self.x, self.extrapolate, self.axis)

    def antiderivative(self, nu=1):
        """The `nu`-th antiderivative (continuous, zero at x[0]) as a PPoly."""
        if nu <= 0:
            return self.derivative(-nu)
        k = self.c.shape[0]
        rest = (1,) * (self.c.ndim - 1)
        f = numpy.array([1.0 / _fall(k - 1 - q + nu, nu) for q in range(k)])
        c2 = cuarray.zeros((k + nu,) + self.c.shape[1:], dtype=self.c.dtype)
        c2[:k] = self.c * cuarray.asarray(f).reshape((-1,) + rest)
        _fix_continuity(c2, self.x, nu)
        extrapolate = False if self.extrapolate == "periodic" else self.extrapolate
        return self.construct_fast(c2, self.x, extrapolate, self.axis)

    def integrate(self, a, b, extrapolate=None):
        """The definite integral from a to b (an array of the trailing shape)."""
        return self._integrate_with(self.antiderivative(), float(a), float(b), extrapolate)

    def solve(self, y=0.0, discontinuity=True, extrapolate=None):
        """Real solutions of pp(x) == y: a 1-D array, or for several polynomials an object
        array of them. An interval where pp == y gives its left end and a NaN. The roots
        are the companion matrices' real eigenvalues (one batched cuSOLVER call); reading
        how many there are synchronises."""
        from cuarray.scipy.interpolate._roots import solve
        if extrapolate is None:
            extrapolate = self.extrapolate
        return solve(self, float(y), bool(discontinuity),
                     extrapolate != "periodic" and bool(extrapolate))

    def roots(self, discontinuity=True, extrapolate=None):
        """Real roots: `solve(0, discontinuity, extrapolate)`."""
        return self.solve(0, discontinuity, extrapolate)

    @classmethod
    def from_spline(cls, tck, extrapolate=None):
        """A PPoly from a BSpline or a (t, c, k) tuple."""
        from cuarray.scipy.interpolate._bsplines import BSpline
        if isinstance(tck, BSpline):
            t, c, k = tck.t, tck.c, tck.k
            if extrapolate is None:
                extrapolate = tck.extrapolate
        else:
            t, c, k = tck
            t = cuarray.ascontiguousarray(asdevice(t), dtype=_f64)
            c = asdevice(c)[:t.size - k - 1]
        spl = BSpline.construct_fast(t, c, k, extrapolate=True)
        rows = []
        for m in range(k, -1, -1):
            rows.append(spl(t[:-1], nu=m) / math.gamma(m + 1))
        cvals = cuarray.stack(rows)
        return cls.construct_fast(cvals, t, extrapolate)

    @classmethod
    def from_bernstein_basis(cls, bp, extrapolate=None):
        """A PPoly equal to the BPoly `bp`."""
        if not isinstance(bp, BPoly):
            raise TypeError(f".from_bernstein_basis only accepts BPoly instances. Got {type(bp)} instead.")
        dx = cuarray.diff(bp.x)
        k = bp.c.shape[0] - 1
        rest = (1,) * (bp.c.ndim - 2)
        dxr = dx.reshape((-1,) + rest)
        c = cuarray.zeros_like(bp.c)
        for a in range(k + 1):
            factor = (-1) ** a * math.comb(k, a) * bp.c[a]
            for s in range(a, k + 1):
                val = math.comb(k - a, s - a) * (-1) ** s
                c[k - s] += factor * val / dxr ** s
        if extrapolate is None:
            extrapolate = bp.extrapolate
        return cls.construct_fast(c, bp.x, extrapolate, bp.axis)


def _fix_continuity(c2, x, nu):
    """Set the lowest `nu` coefficients of every interval so that the function and its
    first nu-1 derivatives are continuous and vanish at x[0] (from the highest derivative
    down: each is a cumulative sum of the previous intervals' end values)."""
    K = c2.shape[0]
    m = c2.shape[1]
    if m < 2:
        return
    h = cuarray.diff(x)[:-1].reshape((-1,) + (1,) * (c2.ndim - 2))
    for dp in range(nu - 1, -1, -1):
        val = None
        for q in range(K - dp):
            term = c2[q, :-1] * _fall(K - 1 - q, dp)
            val = term if val is None else val * h + term
        acc = cuarray.cumsum(val, axis=0) / math.factorial(dp)
        c2[K - 1 - dp, 1:] = acc


class BPoly(_PPolyBase):
    """cuarray version of `scipy.interpolate.BPoly`."""

    __slots__ = ()

    def _evaluate(self, xv, nu, mode):
        if nu < 0:
            raise ValueError("Order of derivative cannot be negative")
        c = self.derivative(nu)._coefs() if nu else self._coefs()
        return self._eval_kernel("ci_bpoly", c, xv, [mode])

    def derivative(self, nu=1):
        """The `nu`-th derivative as a BPoly (an antiderivative for negative nu)."""
        if nu < 0:
            return self.antiderivative(-nu)
        bp = self.construct_fast(self.c, self.x, self.extrapolate, self.axis)
        for _ in range(nu):
            k = bp.c.shape[0] - 1
            if k == 0:
                c2 = cuarray.zeros_like(bp.c[:1])
            else:
                dx = cuarray.diff(bp.x).reshape((1, -1) + (1,) * (bp.c.ndim - 2))
                c2 = k * cuarray.diff(bp.c, axis=0) / dx
            bp = self.construct_fast(c2, bp.x, bp.extrapolate, bp.axis)
        if nu == 0:
            bp.c = self.c.copy()
        return bp

    def antiderivative(self, nu=1):
        """The `nu`-th antiderivative (continuous, zero at x[0]) as a BPoly."""
        if nu <= 0:
            return self.derivative(-nu)
        bp = self
        for _ in range(nu):
            k, m = bp.c.shape[0], bp.c.shape[1]
            dx = cuarray.diff(bp.x).reshape((-1,) + (1,) * (bp.c.ndim - 2))
            c2 = cuarray.zeros((k + 1,) + bp.c.shape[1:], dtype=bp.c.dtype)
            c2[1:] = cuarray.cumsum(bp.c, axis=0) * dx / k
            if m > 1:
                c2[:, 1:] += cuarray.cumsum(c2[k, :], axis=0)[:-1]
            extrapolate = False if self.extrapolate == "periodic" else self.extrapolate
            bp = self.construct_fast(c2, bp.x, extrapolate, bp.axis)
        return bp

    def integrate(self, a, b, extrapolate=None):
        """The definite integral from a to b (an array of the trailing shape)."""
        return self._integrate_with(self.antiderivative(), float(a), float(b), extrapolate)

    @classmethod
    def from_power_basis(cls, pp, extrapolate=None):
        """A BPoly equal to the PPoly `pp`."""
        if not isinstance(pp, PPoly):
            raise TypeError(f".from_power_basis only accepts PPoly instances. Got {type(pp)} instead.")
        dx = cuarray.diff(pp.x).reshape((-1,) + (1,) * (pp.c.ndim - 2))
        k = pp.c.shape[0] - 1
        c = cuarray.zeros_like(pp.c)
        for a in range(k + 1):
            factor = pp.c[a] / math.comb(k, k - a) * dx ** (k - a)
            for j in range(k - a, k + 1):
                c[j] += factor * math.comb(j, k - a)
        if extrapolate is None:
            extrapolate = pp.extrapolate
        return cls.construct_fast(c, pp.x, extrapolate, pp.axis)

    @classmethod
    def from_derivatives(cls, xi, yi, orders=None, extrapolate=None):
        """A BPoly matching the values and derivatives yi[i] at the breakpoints xi[i]
        (each yi[i] a sequence: value, first derivative, ...)."""
        xi = cuarray.ascontiguousarray(asdevice(xi), dtype=_f64)
        if len(xi) != len(yi):
            raise ValueError("xi and yi need to have the same length")
        if bool(cuarray.any(xi[1:] - xi[:1] <= 0).get()):
            raise ValueError("x coordinates are not in increasing order")
        m = len(xi) - 1
        try:
            lens = [len(yi[i]) for i in range(m + 1)]
        except TypeError as e:
            raise ValueError("Using a 1-D array for y? Please .reshape(-1, 1).") from e
        k = max(lens[i] + lens[i + 1] for i in range(m))
        if orders is None:
            orders = [None] * m
        else:
            if isinstance(orders, (int, numpy.integer)):
                orders = [orders] * m
            k = max(k, max(orders))
            if any(o <= 0 for o in orders):
                raise ValueError("Orders must be positive.")
        ns = []
        for i in range(m):
            if orders[i] is None:
                n1, n2 = lens[i], lens[i + 1]
            else:
                n = orders[i] + 1
                n1 = min(n // 2, lens[i])
                n2 = min(n - n1, lens[i + 1])
                n1 = min(n - n2, lens[i + 1])
                if n1 + n2 != n:
                    raise ValueError(
                        f"Point {i} has {lens[i]} derivatives, point {i + 1} has "
                        f"{lens[i + 1]} derivatives, but order {orders[i]} requested")
                if not (n1 <= lens[i] and n2 <= lens[i + 1]):
                    raise ValueError("`order` input incompatible with length y1 or y2.")
            ns.append((n1, n2))
        ys = [asdevice(yi[i]) for i in range(m + 1)]
        if isinstance(yi, ndarray) or len({y.shape for y in ys}) == 1 and len(set(ns)) == 1:
            # One vectorised construction over all intervals.
            Y = yi if isinstance(yi, ndarray) else cuarray.stack(ys)
            n1, n2 = ns[0]
            ya = cuarray.moveaxis(Y[:-1, :n1], 0, 1)
            yb = cuarray.moveaxis(Y[1:, :n2], 0, 1)
            c = _from_derivs(xi[:-1], xi[1:], ya, yb)
            c = _raise_degree(c, k - c.shape[0])
        else:
            pieces = []
            for i in range(m):
                n1, n2 = ns[i]
                b = _from_derivs(xi[i:i + 1], xi[i + 1:i + 2], ys[i][:n1][:, None], ys[i + 1][:n2][:, None])
                pieces.append(_raise_degree(b, k - b.shape[0]))
            c = cuarray.concatenate(pieces, axis=1)
        return cls(c, xi, extrapolate)


def _from_derivs(xa, xb, ya, yb):
    """Bernstein coefficients (na + nb, m, ...) of the polynomials on [xa, xb] with the
    derivatives ya (na, m, ...) at xa and yb (nb, m, ...) at xb, all intervals at once."""
    if ya.shape[2:] != yb.shape[2:]:
        raise ValueError(f"Shapes of ya {ya.shape} and yb {yb.shape} are incompatible")
    dt = coef_dtype(ya.dtype, yb.dtype)
    na, nb = ya.shape[0], yb.shape[0]
    n = na + nb
    h = (xb - xa).reshape((-1,) + (1,) * (ya.ndim - 2))
    c = [None] * n
    for q in range(na):
        v = ya[q].astype(dt) / _poch(n - q, q) * h ** q
        for j in range(q):
            v = v - (-1) ** (j + q) * math.comb(q, j) * c[j]
        c[q] = v
    for q in range(nb):
        v = yb[q].astype(dt) / _poch(n - q, q) * (-1) ** q * h ** q
        for j in range(q):
            v = v - (-1) ** (j + 1) * math.comb(q, j + 1) * c[n - q + j]
        c[n - q - 1] = v
    return cuarray.stack(c)


def _poch(z, m):
    r = 1.0
    for j in range(m):
        r *= z + j
    return r


def _raise_degree(c, d):
    """The same polynomial in the Bernstein basis of degree k + d."""
    if d <= 0:
        return c
    k = c.shape[0] - 1
    out = cuarray.zeros((k + d + 1,) + c.shape[1:], dtype=c.dtype)
    for a in range(k + 1):
        f = c[a] * math.comb(k, a)
        for j in range(d + 1):
            out[a + j] += f * math.comb(d, j) / math.comb(k + d, a + j)
    return out
