"""Piecewise cubic interpolators (cuarray versions of `scipy.interpolate.CubicHermiteSpline`,
`CubicSpline`, `PchipInterpolator`, `pchip_interpolate`, `Akima1DInterpolator`).

Each finds the slopes at the data points (array arithmetic; CubicSpline solves its
tridiagonal system with the band solver of `_kernels.py`) and becomes a PPoly of order 4.
"""
import numpy

import cuarray
from cuarray.scipy.interpolate._kernels import solve_banded
from cuarray.scipy.interpolate._ppoly import PPoly, asdevice, coef_dtype

__all__ = ["CubicHermiteSpline", "CubicSpline", "PchipInterpolator", "pchip_interpolate",
           "Akima1DInterpolator", "pchip"]

_f64 = numpy.dtype(numpy.float64)


def _all(cond):
    return bool(cuarray.all(cond).get())


def prepare_input(x, y, axis, dydx=None):
    """SciPy's checks; returns x, dx, y (interpolation axis first), axis, dydx."""
    x = asdevice(x)
    y = asdevice(y)
    if x.dtype.kind == "c":
        raise ValueError("`x` must contain real values.")
    x = x.astype(_f64, copy=False)
    y = y.astype(coef_dtype(y.dtype), copy=False)
    axis = axis % y.ndim if y.ndim else axis
    if dydx is not None:
        dydx = asdevice(dydx)
        if dydx.shape != y.shape:
            raise ValueError("The shapes of `y` and `dydx` must be identical.")
        dydx = dydx.astype(coef_dtype(dydx.dtype, y.dtype), copy=False)
    if x.ndim != 1:
        raise ValueError("`x` must be 1-dimensional.")
    if x.shape[0] < 2:
        raise ValueError("`x` must contain at least 2 elements.")
    if y.ndim == 0 or x.shape[0] != y.shape[axis]:
        raise ValueError(f"The length of `y` along `axis`={axis} doesn't match the length of `x`")
    checks = [cuarray.all(cuarray.isfinite(x)), cuarray.all(cuarray.isfinite(y))]
    if dydx is not None:
        checks.append(cuarray.all(cuarray.isfinite(dydx)))
    dx = cuarray.diff(x)
    checks.append(cuarray.all(dx > 0))
    ok = cuarray.stack(checks).get()
    if not ok[0]:
        raise ValueError("`x` must contain only finite values.")
    if not ok[1]:
        raise ValueError("`y` must contain only finite values.")
    if dydx is not None and not ok[2]:
        raise ValueError("`dydx` must contain only finite values.")
    if not ok[-1]:
        raise ValueError("`x` must be strictly increasing sequence.")
    y = cuarray.moveaxis(y, axis, 0)
    if dydx is not None:
        dydx = cuarray.moveaxis(dydx, axis, 0)
    return x, dx, y, axis, dydx


def _col(v, ndim):
    """A 1-D array shaped to broadcast along the first axis of an ndim-array."""
    return v.reshape((-1,) + (1,) * (ndim - 1))


class CubicHermiteSpline(PPoly):
    """cuarray version of `scipy.interpolate.CubicHermiteSpline`."""

    __slots__ = ()

    def __init__(self, x, y, dydx, axis=0, extrapolate=None):
        if extrapolate is None:
            extrapolate = True
        x, dx, y, axis, dydx = prepare_input(x, y, axis, dydx)
        self._from_slopes(x, dx, y, dydx, extrapolate)
        self.axis = axis

    def _from_slopes(self, x, dx, y, dydx, extrapolate):
        dxr = _col(dx, y.ndim)
        slope = cuarray.diff(y, axis=0) / dxr
        t = (dydx[:-1] + dydx[1:] - 2 * slope) / dxr
        dtype = coef_dtype(y.dtype, dydx.dtype)
        c = cuarray.empty((4, len(x) - 1) + y.shape[1:], dtype=dtype)
        c[0] = t / dxr
        c[1] = (slope - dydx[:-1]) / dxr - t
        c[2] = dydx[:-1]
        c[3] = y[:-1]
        self.c = c
        self.x = cuarray.ascontiguousarray(x)
        self.extrapolate = extrapolate
        self.axis = 0


class PchipInterpolator(CubicHermiteSpline):
    """cuarray version of `scipy.interpolate.PchipInterpolator`."""

    __slots__ = ()

    def __init__(self, x, y, axis=0, extrapolate=None):
        if extrapolate is None:
            extrapolate = True
        x, dx, y, axis, _ = prepare_input(x, y, axis)
        if y.dtype.kind == "c":
            raise ValueError("`PchipInterpolator` only works with real values for `y`. If you are "
                             "trying to use the real components of the passed array, use `np.real` "
                             "on the array before passing to `PchipInterpolator`.")
        dk = _pchip_slopes(dx, y)
        self._from_slopes(x, dx, y, dk, extrapolate)
        self.axis = axis


pchip = PchipInterpolator   # CuPy's backward-compatible alias


def _pchip_edge(h0, h1, m0, m1):
    """The one-sided three-point slope at an end, limited to keep the shape monotone."""
    d = ((2 * h0 + h1) * m0 - h0 * m1) / (h0 + h1)
    wrong_sign = cuarray.sign(d) != cuarray.sign(m0)
    overshoot = (cuarray.sign(m0) != cuarray.sign(m1)) & (cuarray.abs(d) > 3.0 * cuarray.abs(m0))
    d = cuarray.where(wrong_sign, 0.0, cuarray.where(overshoot, 3.0 * m0, d))
    return d


def _pchip_slopes(dx, y):
    hk = _col(dx, y.ndim)
    mk = cuarray.diff(y, axis=0) / hk
    if y.shape[0] == 2:
        return cuarray.concatenate([mk, mk])
    smk = cuarray.sign(mk)
    flat = (smk[1:] != smk[:-1]) | (mk[1:] == 0) | (mk[:-1] == 0)
    w1 = 2 * hk[1:] + hk[:-1]
    w2 = hk[1:] + 2 * hk[:-1]
    # Weighted harmonic mean of the neighbouring secants; 0 at extrema and flat steps.
    safe0 = cuarray.where(flat, 1.0, mk[:-1])
    safe1 = cuarray.where(flat, 1.0, mk[1:])
    whmean = (w1 / safe0 + w2 / safe1) / (w1 + w2)
    inner = cuarray.where(flat, 0.0, 1.0 / whmean)
    d0 = _pchip_edge(hk[0], hk[1], mk[0], mk[1])
    d1 = _pchip_edge(hk[-1], hk[-2], mk[-1], mk[-2])
    return cuarray.concatenate([d0[None], inner, d1[None]])


def pchip_interpolate(xi, yi, x, der=0, axis=0):
    """cuarray version of `scipy.interpolate.pchip_interpolate`."""
    P = PchipInterpolator(xi, yi, axis=axis)
    if der == 0:
        return P(x)
    if numpy.ndim(der) == 0:
        return P.derivative(der)(x)
    return [P.derivative(nu)(x) for nu in der]


class Akima1DInterpolator(CubicHermiteSpline):
    """cuarray version of `scipy.interpolate.Akima1DInterpolator` (method 'akima' or
    'makima')."""

    __slots__ = ()

    def __init__(self, x, y, axis=0, *, method="akima", extrapolate=None):
        if method not in ("akima", "makima"):
            raise NotImplementedError(f"`method`={method} is unsupported.")
        x, dx, y, axis, _ = prepare_input(x, y, axis)
        if y.dtype.kind == "c":
            raise ValueError("`Akima1DInterpolator` only works with real values for `y`. If you "
                             "are trying to use the real components of the passed array, use "
                             "`np.real` on the array before passing to `Akima1DInterpolator`.")
        extrapolate = False if extrapolate is None else extrapolate
        dxr = _col(dx, y.ndim)
        if y.shape[0] == 2:
            mk = cuarray.diff(y, axis=0) / dxr
            t = cuarray.concatenate([mk, mk])
        else:
            s = cuarray.diff(y, axis=0) / dxr
            # Two extra secants at each end, continued linearly.
            m1 = 2.0 * s[0] - s[1]
            m0 = 2.0 * m1 - s[0]
            mm2 = 2.0 * s[-1] - s[-2]
            mm1 = 2.0 * mm2 - s[-1]
            m = cuarray.concatenate([m0[None], m1[None], s, mm2[None], mm1[None]])
            t = 0.5 * (m[3:] + m[:-3])
            dm = cuarray.abs(cuarray.diff(m, axis=0))
            if method == "makima":
                pm = cuarray.abs(m[1:] + m[:-1])
                f1 = dm[2:] + 0.5 * pm[2:]
                f2 = dm[:-2] + 0.5 * pm[:-2]
            else:
                f1 = dm[2:]
                f2 = dm[:-2]
            f12 = f1 + f2
            big = f12 > 1e-9 * cuarray.max(f12)
            safe = cuarray.where(big, f12, 1.0)
            t = cuarray.where(big, m[1:-2] + f2 / safe * (m[2:-1] - m[1:-2]), t)
        self._from_slopes(x, dx, y, t, extrapolate)
        self.axis = axis

    def extend(self, c, x, right=True):
        raise NotImplementedError("Extending a 1-D Akima interpolator is not yet implemented")

    @classmethod
    def from_spline(cls, tck, extrapolate=None):
        raise NotImplementedError("This method does not make sense for an Akima interpolator.")

    @classmethod
    def from_bernstein_basis(cls, bp, extrapolate=None):
        raise NotImplementedError("This method does not make sense for an Akima interpolator.")


class CubicSpline(CubicHermiteSpline):
    """cuarray version of `scipy.interpolate.CubicSpline` (every bc_type)."""

    __slots__ = ()

    def __init__(self, x, y, axis=0, bc_type="not-a-knot", extrapolate=None):
        x, dx, y, axis, _ = prepare_input(x, y, axis)
        n = len(x)
        bc, y = _validate_bc(bc_type, y, y.shape[1:], axis)
        if extrapolate is None:
            extrapolate = "periodic" if bc[0] == "periodic" else True
        if y.size == 0:
            s = cuarray.zeros_like(y)
        else:
            s = _spline_slopes(x, dx, y, n, bc)
        self._from_slopes(x, dx, y, s, extrapolate)
        self.axis = axis


def _validate_bc(bc_type, y, deriv_shape, axis):
    if isinstance(bc_type, str):
        if bc_type == "periodic":
            close = cuarray.allclose(y[0], y[-1], rtol=1e-15, atol=1e-15)
            if not bool(close):
                raise ValueError(f"The first and last `y` point along axis {axis} must be identical "
                                 "(within machine precision) when bc_type='periodic'.")
        bc_type = (bc_type, bc_type)
    else:
        if len(bc_type) != 2:
            raise ValueError("`bc_type` must contain 2 elements to specify start and end conditions.")
        if "periodic" in [b for b in bc_type if isinstance(b, str)]:
            raise ValueError("'periodic' `bc_type` is defined for both curve ends and cannot be "
                             "used with other boundary conditions.")
    out = []
    for bc in bc_type:
        if isinstance(bc, str):
            if bc == "clamped":
                out.append((1, cuarray.zeros(deriv_shape)))
            elif bc == "natural":
                out.append((2, cuarray.zeros(deriv_shape)))
            elif bc in ("not-a-knot", "periodic"):
                out.append(bc)
            else:
                raise ValueError(f"bc_type={bc} is not allowed.")
        else:
            try:
                order, value = bc
            except Exception as e:
                raise ValueError("A specified derivative value must be given in the form "
                                 "(order, value).") from e
            if order not in (1, 2):
                raise ValueError("The specified derivative order must be 1 or 2.")
            value = asdevice(value)
            if value.shape != tuple(deriv_shape):
                raise ValueError(f"`deriv_value` shape {value.shape} is not the expected one "
                                 f"{tuple(deriv_shape)}.")
            if value.dtype.kind == "c":
                y = y.astype(numpy.complex128, copy=False)
            out.append((order, value))
    return out, y


def _spline_slopes(x, dx, y, n, bc):
    """The first derivatives at the knots of the C2 cubic with the end conditions `bc`."""
    nd = y.ndim
    dxr = _col(dx, nd)
    slope = cuarray.diff(y, axis=0) / dxr
    bc = list(bc)
    if n == 2:
        for e in (0, 1):
            if bc[e] in ("not-a-knot", "periodic"):
                bc[e] = (1, slope[0])
    if n == 3 and bc[0] == "not-a-knot" and bc[1] == "not-a-knot":
        # The parabola through the three points: a full 3 x 3 system (band 2 + 2).
        ab = cuarray.zeros((3, 7))
        rows = [[1.0, 1.0, None], [dx[1], 2 * (dx[0] + dx[1]), dx[0]], [None, 1.0, 1.0]]
        for r in range(3):
            for col in range(3):
                if rows[r][col] is not None:
                    ab[r, col - r + 2] = rows[r][col]
        b = cuarray.stack([2 * slope[0], 3 * (dxr[0] * slope[1] + dxr[1] * slope[0]), 2 * slope[1]])
        return solve_banded(ab, 2, 2, b)
    if n == 3 and bc[0] == "periodic":
        t = (slope / dxr).sum(0) / (1.0 / dxr).sum(0)
        return cuarray.broadcast_to(t, (n,) + y.shape[1:]).copy()
    rhs_inner = 3 * (dxr[1:] * slope[:-1] + dxr[:-1] * slope[1:])
    diag_inner = 2 * (dx[:-1] + dx[1:])
    if bc[0] == "periodic":
        return _periodic_slopes(dx, dxr, slope, diag_inner, rhs_inner, n)
    # Rows 0 and n-1 from the end conditions; rows 1..n-2 make the second derivative
    # continuous: dx[i] s[i-1] + 2 (dx[i-1] + dx[i]) s[i] + dx[i-1] s[i+1] = rhs.
    d0 = x[2] - x[0] if n > 2 else None
    dn = x[-1] - x[-3] if n > 2 else None
    if bc[0] == "not-a-knot":
        a00, a01 = dx[1], d0
        b0 = ((dxr[0] + 2 * d0) * dxr[1] * slope[0] + dxr[0] ** 2 * slope[1]) / d0
    elif bc[0][0] == 1:
        a00, a01, b0 = 1.0, 0.0, bc[0][1] + cuarray.zeros_like(slope[0])
    else:
        a00, a01 = 2 * dx[0], dx[0]
        b0 = -0.5 * bc[0][1] * dx[0] ** 2 + 3 * (y[1] - y[0])
    if bc[1] == "not-a-knot":
        ann, anm = dx[-2], dn
        bn = (dxr[-1] ** 2 * slope[-2] + (2 * dn + dxr[-1]) * dxr[-2] * slope[-1]) / dn
    elif bc[1][0] == 1:
        ann, anm, bn = 1.0, 0.0, bc[1][1] + cuarray.zeros_like(slope[0])
    else:
        ann, anm = 2 * dx[-1], dx[-1]
        bn = 0.5 * bc[1][1] * dx[-1] ** 2 + 3 * (y[-1] - y[-2])
    ab = cuarray.zeros((n, 4))
    ab[1:-1, 1] = diag_inner
    ab[1:-1, 2] = dx[:-1]         # A(i, i+1) = dx[i-1]
    ab[1:-1, 0] = dx[1:]          # A(i, i-1) = dx[i]
    ab[0, 1] = a00
    ab[0, 2] = a01
    ab[-1, 1] = ann
    ab[-1, 0] = anm
    dtype = coef_dtype(y.dtype, getattr(b0, "dtype", _f64), getattr(bn, "dtype", _f64))
    b = cuarray.empty((n,) + y.shape[1:], dtype=dtype)
    b[0] = b0
    b[1:-1] = rhs_inner
    b[-1] = bn
    return solve_banded(ab, 1, 1, b)


def _periodic_slopes(dx, dxr, slope, diag_inner, rhs_inner, n):
    """Slopes of the periodic spline: the cyclic system of the n-1 distinct knots, solved
    by bordering (two tridiagonal solves of size n-2 and one scalar equation)."""
    m = n - 2
    diag = cuarray.concatenate([(2 * (dx[-1] + dx[0]))[None], diag_inner[:m - 1]])
    b_full = cuarray.concatenate([(3 * (dxr[0] * slope[-1] + dxr[-1] * slope[0]))[None],
                                  rhs_inner])
    b_last = 3 * (dxr[-1] * slope[-2] + dxr[-2] * slope[-1])
    b_full[-1] = b_last
    upper = cuarray.concatenate([dx[-1:], dx[:m - 2]])   # A(i, i+1), i = 0..m-2
    lower = dx[1:m]                                     # A(i, i-1), i = 1..m-1
    ab = cuarray.zeros((m, 4))
    ab[:, 1] = diag
    ab[:-1, 2] = upper[:m - 1]
    ab[1:, 0] = lower
    b1 = b_full[:-1]
    b2 = cuarray.zeros_like(b1)
    b2[0] = -dx[0]
    b2[-1] = -dx[-3]
    both = solve_banded(ab, 1, 1, cuarray.stack([b1, b2.astype(b1.dtype)], axis=-1))
    s1, s2 = both[..., 0], both[..., 1]
    s_m1 = ((b_full[-1] - dx[-2] * s1[0] - dx[-1] * s1[-1])
            / (2 * (dx[-1] + dx[-2]) + dx[-2] * s2[0] + dx[-1] * s2[-1]))
    s = cuarray.empty((n,) + slope.shape[1:], dtype=b1.dtype)
    s[:-2] = s1 + s_m1 * s2
    s[-2] = s_m1
    s[-1] = s[0]
    return s
