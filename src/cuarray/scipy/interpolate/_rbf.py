"""Radial basis function interpolation (cuarray version of
`scipy.interpolate.RBFInterpolator`).

The kernel matrices come from one elementwise kernel over (batch, rows, columns); the
system [[K + diag(smoothing), P], [P^T, 0]] is solved by LU (`cuarray.linalg.solve`), as
SciPy's. With `neighbors`, every evaluation point gets its own local system over its
nearest data points (from `cuarray.scipy.spatial.KDTree`), all solved in one batch: the
same values as SciPy's, which solves once per distinct neighbourhood.
"""
import warnings

import numpy

import cuarray as cp
from cuarray._core.elementwise import Op, Param
from cuarray.scipy.spatial import KDTree

__all__ = ["RBFInterpolator"]

_f64 = numpy.dtype(numpy.float64)
_i64 = numpy.dtype(numpy.int64)

# kernel name -> phi(r) in C (r >= 0 already scaled by epsilon)
KERNELS = {
    "linear": "-r",
    "thin_plate_spline": "(r == 0 ? 0.0 : r * r * log(r))",
    "cubic": "r * r * r",
    "quintic": "-(r * r * r * r * r)",
    "multiquadric": "-sqrt(r * r + 1)",
    "inverse_multiquadric": "1 / sqrt(r * r + 1)",
    "inverse_quadratic": "1 / (r * r + 1)",
    "gaussian": "exp(-r * r)",
}
_SCALE_INVARIANT = {"linear", "thin_plate_spline", "cubic", "quintic"}
_MIN_DEGREE = {"multiquadric": 0, "linear": 0, "thin_plate_spline": 1, "cubic": 1,
               "quintic": 2}
_ops = {}
# Elements of float64 scratch one evaluation chunk may use (256 MiB).
_CHUNK = 1 << 25


def _kernel_op(kernel):
    op = _ops.get(kernel)
    if op is None:
        op = _ops[kernel] = Op(
            f"cuarray_rbf_{kernel}",
            [Param("A", "raw", _f64), Param("B", "raw", _f64), Param("na", "scalar", _i64),
             Param("nb", "scalar", _i64), Param("nd", "scalar", _i64),
             Param("eps", "scalar", _f64), Param("out", "out", _f64)],
            "const long long per = na * nb, b = i / per, rc = i - b * per, "
            "r_ = rc / nb, c = rc - r_ * nb; "
            "const double* a = &A[(b * na + r_) * nd]; const double* q = &B[(b * nb + c) * nd]; "
            "double s = 0; for (long long k = 0; k < nd; ++k) { const double t = a[k] - q[k]; "
            "s += t * t; } const double r = fabs(eps) * sqrt(s); "
            f"out = {KERNELS[kernel]};")
    return op


def _kmatrix(kernel, a, b, eps):
    """phi(eps |a_i - b_j|) for batches a (B, na, nd), b (B, nb, nd) -> (B, na, nb)."""
    a, b = cp.ascontiguousarray(a), cp.ascontiguousarray(b)
    out = cp.empty((a.shape[0], a.shape[1], b.shape[1]), dtype=_f64)
    if out.size:
        _kernel_op(kernel).launch([a, b, numpy.int64(a.shape[1]), numpy.int64(b.shape[1]),
                                   numpy.int64(a.shape[2]), numpy.float64(eps), out])
    return out


def _powers(ndim, degree):
    """Exponents of the monomials of total degree <= degree, (nmonos, ndim), by degree."""
    rows = []
    for deg in range(degree + 1):
        for combo in _compositions(deg, ndim):
            rows.append(combo)
    return numpy.asarray(rows, dtype=numpy.int64).reshape(len(rows), ndim)


def _compositions(total, parts):
    if parts == 1:
        yield (total,)
        return
    for first in range(total, -1, -1):
        for rest in _compositions(total - first, parts - 1):
            yield (first,) + rest


def _poly(xhat, powers):
    """The monomials at the points xhat (..., n, nd) -> (..., n, nmonos)."""
    if powers.shape[0] == 0:
        return cp.zeros(xhat.shape[:-1] + (0,), dtype=_f64)
    return cp.prod(xhat[..., None, :] ** cp.asarray(powers), axis=-1)


def _shift_scale(y):
    """The centre and half-widths of the data's bounding box (zero widths as 1), over the
    second-to-last axis: the polynomial is built on the scaled points."""
    lo, hi = cp.amin(y, axis=-2), cp.amax(y, axis=-2)
    half = (hi - lo) / 2
    return (hi + lo) / 2, cp.where(half == 0, 1.0, half)


def _solve(y, d, smoothing, kernel, eps, powers):
    """Coefficients of batched systems: y (B, n, nd), d (B, n, m), smoothing (B, n)."""
    B, n, _ = y.shape
    r = powers.shape[0]
    shift, scale = _shift_scale(y)
    P = _poly((y - shift[:, None]) / scale[:, None], powers)     # (B, n, r)
    lhs = cp.zeros((B, n + r, n + r), dtype=_f64)
    K = _kmatrix(kernel, y, y, eps)
    idx = cp.arange(n)
    K[:, idx, idx] += smoothing
    lhs[:, :n, :n] = K
    lhs[:, :n, n:] = P
    lhs[:, n:, :n] = P.transpose(0, 2, 1)
    rhs = cp.zeros((B, n + r, d.shape[2]), dtype=_f64)
    rhs[:, :n] = d
    try:
        coef = cp.linalg.solve(lhs, rhs)
    except cp.linalg.LinAlgError as e:
        raise cp.linalg.LinAlgError(
            "Singular matrix: the RBF system cannot be solved; if `degree` > -1, the "
            "polynomial matrix may have too small a rank (too few or degenerate points)"
        ) from e
    return shift, scale, coef


class RBFInterpolator:
    """Radial basis function interpolation in N dimensions (cuarray version of
    `scipy.interpolate.RBFInterpolator`)."""

    def __init__(self, y, d, neighbors=None, smoothing=0.0, kernel="thin_plate_spline",
                 epsilon=None, degree=None):
        y = cp.asarray(y)
        if y.dtype.kind not in "biuf":
            raise ValueError("`y` must be real numbers")
        y = cp.ascontiguousarray(y.astype(_f64, copy=False))
        if y.ndim != 2:
            raise ValueError("`y` must be a 2-dimensional array.")
        ny, ndim = y.shape
        d = cp.asarray(d)
        self._complex = d.dtype.kind == "c"
        d = d.astype(numpy.complex128 if self._complex else _f64, copy=False)
        if d.ndim == 0 or d.shape[0] != ny:
            raise ValueError(f"Expected the first axis of `d` to have length {ny}.")
        self.d_shape, self.d_dtype = d.shape[1:], d.dtype
        d = d.reshape(ny, -1)
        if self._complex:
            d = cp.stack([d.real, d.imag], axis=-1).reshape(ny, -1)
        self.d = cp.ascontiguousarray(d)
        if numpy.ndim(smoothing) == 0:
            smoothing = cp.full(ny, float(smoothing), dtype=_f64)
        else:
            smoothing = cp.asarray(smoothing).astype(_f64, copy=False)
            if smoothing.shape != (ny,):
                raise ValueError(f"Expected `smoothing` to be a scalar or have shape ({ny},).")
        kernel = str(kernel).lower()
        if kernel not in KERNELS:
            raise ValueError(f"`kernel` must be one of {set(KERNELS)}.")
        if epsilon is None:
            if kernel not in _SCALE_INVARIANT:
                raise ValueError("`epsilon` must be specified if `kernel` is not one of "
                                 f"{_SCALE_INVARIANT}.")
            epsilon = 1.0
        epsilon = float(epsilon)
        min_degree = _MIN_DEGREE.get(kernel, -1)
        if degree is None:
            degree = max(min_degree, 0)
        else:
            degree = int(degree)
            if degree < -1:
                raise ValueError("`degree` must be at least -1.")
            if -1 < degree < min_degree:
                warnings.warn(f"`degree` should not be below {min_degree} except -1 when "
                              f"`kernel` is '{kernel}'. The interpolant may not be uniquely "
                              "solvable, and the smoothing parameter may have an "
                              "unintuitive effect.", UserWarning, stacklevel=2)
        nobs = ny if neighbors is None else int(min(neighbors, ny))
        self.powers = _powers(ndim, degree)
        if self.powers.shape[0] > nobs:
            raise ValueError(f"At least {self.powers.shape[0]} data points are required when "
                             f"`degree` is {degree} and the number of dimensions is {ndim}.")
        self.y, self.smoothing, self.kernel = y, smoothing, kernel
        self.epsilon, self.neighbors = epsilon, (None if neighbors is None else nobs)
        if neighbors is None:
            shift, scale, coef = _solve(y[None], self.d[None], smoothing[None], kernel,
                                        epsilon, self.powers)
            self._shift, self._scale, self._coeffs = shift[0], scale[0], coef[0]
        else:
            self._tree = KDTree(y)

    def __call__(self, x):
        """The interpolant at x, (npoints, ndim) -> (npoints,) + d.shape[1:]."""
        x = cp.asarray(x)
        if x.ndim != 2:
            raise ValueError("`x` must be a 2-dimensional array.")
        nx, ndim = x.shape
        if ndim != self.y.shape[1]:
            raise ValueError(f"Expected the second axis of `x` to have length "
                             f"{self.y.shape[1]}.")
        x = cp.ascontiguousarray(x.astype(_f64, copy=False))
        m = self.d.shape[1]
        out = cp.empty((nx, m), dtype=_f64)
        if self.neighbors is None:
            ny = self.y.shape[0]
            step = max(1, _CHUNK // max(ny, 1))
            for s in range(0, nx, step):
                xc = x[s:s + step]
                K = _kmatrix(self.kernel, xc[None], self.y[None], self.epsilon)[0]
                P = _poly((xc - self._shift) / self._scale, self.powers)
                out[s:s + step] = K @ self._coeffs[:ny] + P @ self._coeffs[ny:]
        else:
            k = self.neighbors
            size = k + self.powers.shape[0]
            step = max(1, _CHUNK // (size * size + size * m))
            for s in range(0, nx, step):
                xc = x[s:s + step]
                _, yi = self._tree.query(xc, k)
                yi = yi.reshape(xc.shape[0], k)
                shift, scale, coef = _solve(self.y[yi], self.d[yi], self.smoothing[yi],
                                            self.kernel, self.epsilon, self.powers)
                K = _kmatrix(self.kernel, xc[:, None], self.y[yi], self.epsilon)  # (b,1,k)
                P = _poly(((xc - shift) / scale)[:, None], self.powers)         # (b,1,r)
                out[s:s + step] = (K @ coef[:, :k] + P @ coef[:, k:])[:, 0]
        if self._complex:
            out = out.reshape(nx, -1, 2)
            out = out[..., 0] + 1j * out[..., 1]
        return out.reshape((nx,) + self.d_shape)
