"""Interpolation of scattered N-d data (cuarray versions of `scipy.interpolate`'s
NearestNDInterpolator, LinearNDInterpolator, CloughTocher2DInterpolator and griddata).

Nearest neighbours come from `cuarray.scipy.spatial.KDTree`; the linear and
Clough-Tocher interpolants from the 2-D `cuarray.scipy.spatial.Delaunay` (its
`find_simplex` and barycentric `transform`), so, as CuPy's, they take 2-D points.
"""
import numpy

import cuarray as cp
from cuarray.scipy.spatial import Delaunay, KDTree

__all__ = ["CloughTocher2DInterpolator", "LinearNDInterpolator", "NearestNDInterpolator",
           "griddata"]


def _ndim_coords(points, ndim=None):
    """(…, ndim) coordinates from one array or from a tuple of broadcastable arrays."""
    if isinstance(points, tuple) and len(points) == 1:
        points = points[0]
    if isinstance(points, tuple):
        arrs = cp.broadcast_arrays(*[cp.asarray(p) for p in points])
        if ndim is not None and len(arrs) != ndim:
            raise ValueError("coordinate arrays do not have the same shape")
        return cp.stack([a.astype(numpy.float64, copy=False) for a in arrs], axis=-1)
    p = cp.asarray(points)
    if p.dtype.kind not in "biuf":
        raise ValueError(f"points must be real numbers, got {p.dtype}")
    p = p.astype(numpy.float64, copy=False)
    if p.ndim == 1:
        p = p.reshape(-1, 1) if ndim in (None, 1) else p.reshape(-1, ndim)
    return p


class _NDBase:
    """Points, values, rescaling and the shape checks of every scattered interpolator."""

    def __init__(self, points, values, fill_value=numpy.nan, rescale=False,
                 need_float=True):
        if isinstance(points, Delaunay):
            self.tri, points = points, points.points
        else:
            self.tri = None
        pts = _ndim_coords(points)
        if pts.ndim != 2:
            raise ValueError("points array must be 2-dimensional")
        self.ndim = pts.shape[1]
        self.offset = self.scale = None
        if rescale:
            self.offset = cp.mean(pts, axis=0)
            span = cp.ptp(pts, axis=0)
            self.scale = cp.where(span > 0, span, 1.0)
            pts = (pts - self.offset) / self.scale
        self.points = cp.ascontiguousarray(pts)
        v = cp.asarray(values)
        if v.shape[:1] != pts.shape[:1]:
            raise ValueError("different number of values and points")
        if need_float:
            v = v.astype(numpy.complex128 if v.dtype.kind == "c" else numpy.float64,
                         copy=False)
        self.values_shape = v.shape[1:]
        self.values = cp.ascontiguousarray(v.reshape(v.shape[0], -1))
        self.fill_value = fill_value

    def _xi(self, args):
        xi = _ndim_coords(args, ndim=self.ndim)
        if xi.shape[-1] != self.ndim:
            raise ValueError(f"number of dimensions in xi does not match x: "
                             f"{xi.shape[-1]} != {self.ndim}")
        lead = xi.shape[:-1]
        xi = xi.reshape(-1, self.ndim)
        if self.offset is not None:
            xi = (xi - self.offset) / self.scale
        return cp.ascontiguousarray(xi), lead

    def _shape(self, flat, lead):
        return flat.reshape(lead + self.values_shape)


class NearestNDInterpolator(_NDBase):
    """Nearest-neighbour interpolation in N > 1 dimensions (cuarray version of
    `scipy.interpolate.NearestNDInterpolator`; query options go to `KDTree.query`)."""

    def __init__(self, x, y, rescale=False, tree_options=None):
        super().__init__(x, y, rescale=rescale, need_float=False)
        self.tree = KDTree(self.points, **(tree_options or {}))

    def __call__(self, *args, **query_options):
        xi, lead = self._xi(args)
        dist, i = self.tree.query(xi, **query_options)
        if dist.ndim == 2:           # k > 1: SciPy keeps the nearest
            dist, i = dist[:, 0], i[:, 0]
        n = self.values.shape[0]
        out = self.values[cp.minimum(i, n - 1)]
        if self.values.dtype.kind in "fc":
            out = cp.where(cp.isfinite(dist)[:, None], out, numpy.nan)
        return self._shape(out, lead)


def _fill(out, inside, fill_value):
    return cp.where(inside[:, None], out, fill_value)


class LinearNDInterpolator(_NDBase):
    """Piecewise linear interpolation on the Delaunay triangulation (cuarray version of
    `scipy.interpolate.LinearNDInterpolator`; 2-D points)."""

    def __init__(self, points, values, fill_value=numpy.nan, rescale=False):
        super().__init__(points, values, fill_value, rescale)
        if self.ndim != 2:
            raise ValueError("cuarray's LinearNDInterpolator takes 2-D points "
                             f"(its Delaunay is 2-D), got {self.ndim}-D")
        if self.tri is None or rescale:
            self.tri = Delaunay(self.points)

    def _locate(self, xi):
        s = self.tri.find_simplex(xi)
        inside = s >= 0
        sc = cp.where(inside, s, 0)
        T = self.tri.transform[sc]
        d = xi - T[:, 2]
        c0 = T[:, 0, 0] * d[:, 0] + T[:, 0, 1] * d[:, 1]
        c1 = T[:, 1, 0] * d[:, 0] + T[:, 1, 1] * d[:, 1]
        return sc, inside, cp.stack([c0, c1, 1 - c0 - c1], axis=1)

    def __call__(self, *args):
        xi, lead = self._xi(args)
        sc, inside, c = self._locate(xi)
        V = self.values[self.tri.simplices[sc]]           # (q, 3, nv)
        out = (c[:, :, None] * V).sum(axis=1)
        return self._shape(_fill(out, inside, self.fill_value), lead)


def griddata(points, values, xi, method="linear", fill_value=numpy.nan, rescale=False):
    """Interpolate unstructured data (cuarray version of `scipy.interpolate.griddata`;
    'linear' and 'cubic' need 2-D points, 1-D data takes 'nearest' and 'linear')."""
    pts = _ndim_coords(points)
    if pts.ndim != 2:
        raise ValueError("points array must be 2-dimensional")
    ndim = pts.shape[1]
    if isinstance(xi, tuple):
        xi = _ndim_coords(xi, ndim)
    if method not in ("nearest", "linear", "cubic"):
        raise ValueError(f"Unknown interpolation method {method!r} for {ndim} dimensional "
                         "data")
    if ndim == 1 and method in ("linear", "cubic"):
        if method == "cubic":
            raise ValueError("griddata of 1-D data takes 'nearest' or 'linear' here")
        return _linear_1d(pts[:, 0], cp.asarray(values), cp.asarray(xi), fill_value)
    if method == "nearest":
        return NearestNDInterpolator(pts, values, rescale=rescale)(xi)
    if method == "linear":
        return LinearNDInterpolator(pts, values, fill_value=fill_value, rescale=rescale)(xi)
    return CloughTocher2DInterpolator(pts, values, fill_value=fill_value,
                                      rescale=rescale)(xi)


def _linear_1d(x, y, xi, fill_value):
    """SciPy's 1-D griddata 'linear' (interp1d with fill outside the data)."""
    order = cp.argsort(x)
    xs, ys = x[order], y[order].astype(numpy.float64, copy=False)
    xi = xi.astype(numpy.float64, copy=False).reshape(xi.shape[:-1] if (
        xi.ndim > 1 and xi.shape[-1] == 1) else xi.shape)
    flat = ys.reshape(ys.shape[0], -1)
    j = cp.clip(cp.searchsorted(xs, xi.ravel(), side="left"), 1, xs.size - 1)
    x0, x1 = xs[j - 1], xs[j]
    t = ((xi.ravel() - x0) / (x1 - x0))[:, None]
    out = flat[j - 1] * (1 - t) + flat[j] * t
    inside = (xi.ravel() >= xs[0]) & (xi.ravel() <= xs[-1])
    out = cp.where(inside[:, None], out, fill_value)
    return out.reshape(xi.shape + ys.shape[1:])


def _gradients_2d(tri, values, tol, maxiter):
    """Vertex gradients of the minimum-norm network (Nielson): the gradients minimising
    the sum over triangulation edges of the integral of the squared second derivative of
    the cubic Hermite curves along them. SciPy iterates Gauss-Seidel sweeps on this
    quadratic; here its sparse symmetric positive definite system (2 unknowns a vertex)
    is solved by conjugate gradients on the GPU, to a relative residual far below `tol`."""
    from cuarray.scipy import sparse
    from cuarray.scipy.sparse.linalg import cg
    n = tri.npoints
    indptr, nbr = tri.vertex_neighbor_vertices
    deg = cp.diff(indptr)
    k = cp.repeat(cp.arange(n, dtype=numpy.int64), deg.astype(numpy.int64))
    j = nbr.astype(numpy.int64)
    e = tri.points[j] - tri.points[k]                      # (edges, 2)
    w = 1.0 / cp.sum(e * e, axis=1) ** 1.5
    a = cp.asarray([0, 0, 1, 1])
    b = cp.asarray([0, 1, 0, 1])
    eab = (e[:, a] * e[:, b]) * w[:, None]                 # (edges, 4): e_a e_b / L^3
    r2, c2 = 2 * k[:, None] + a, 2 * k[:, None] + b
    iso = cp.nonzero(deg == 0)[0]
    rows = cp.concatenate([r2.ravel(), r2.ravel(), 2 * iso, 2 * iso + 1])
    cols = cp.concatenate([c2.ravel(), (2 * j[:, None] + b).ravel(), 2 * iso, 2 * iso + 1])
    data = cp.concatenate([4 * eab.ravel(), 2 * eab.ravel(), cp.ones(2 * iso.size)])
    H = sparse.coo_matrix((data, (rows, cols)), shape=(2 * n, 2 * n)).tocsr()
    we = 6 * e * w[:, None]                                # (edges, 2)
    brow = (2 * k[:, None] + cp.arange(2)).ravel()
    B = sparse.coo_matrix((cp.concatenate([we.ravel(), -we.ravel()]),
                           (cp.concatenate([brow, brow]),
                            cp.concatenate([cp.repeat(j, 2), cp.repeat(k, 2)]))),
                          shape=(2 * n, n)).tocsr()
    parts = [values.real, values.imag] if values.dtype.kind == "c" else [values]
    out = []
    for part in parts:
        rhs = B @ part                                    # (2n, nv)
        cols_ = []
        for c in range(rhs.shape[1]):
            x, _ = cg(H, rhs[:, c], rtol=min(tol, 1e-6) * 1e-5, maxiter=max(maxiter, 20 * n))
            cols_.append(x)
        out.append(cp.stack(cols_, axis=1).reshape(n, 2, -1))
    return out[0] if len(out) == 1 else out[0] + 1j * out[1]


# The Bezier ordinates of the Clough-Tocher split cubic, four-index names over
# (vertex 1, vertex 2, vertex 3, centroid); the ordinate c1110 never contributes.
_CT_NAMES = ["c3000", "c0300", "c0030", "c0003", "c2100", "c1200", "c0210", "c0120",
             "c1020", "c2010", "c2001", "c0201", "c0021", "c1002", "c0102", "c0012",
             "c1101", "c0111", "c1011"]


def _ct_coefficients(tri, values, grads):
    """(nsimplex, 19, nvalues) ordinates. The free ordinate beside each edge makes the
    derivative along the line joining the centroids of the two triangles sharing the
    edge (or towards the centroid from the midpoint, on the hull) linear along the edge:
    both triangles agree on it, so the interpolant is C1, and it is affine invariant."""
    S = tri.simplices.astype(numpy.int64)
    x = tri.points[S]                                      # (ns, 3, 2)
    f = values[S]                                          # (ns, 3, nv)
    g = grads[S]                                           # (ns, 3, 2, nv)

    def dd(v, e):                                          # gradient of vertex v along e
        return g[:, v, 0] * e[:, 0, None] + g[:, v, 1] * e[:, 1, None]

    e12, e23, e31 = x[:, 1] - x[:, 0], x[:, 2] - x[:, 1], x[:, 0] - x[:, 2]
    c = {"c3000": f[:, 0], "c0300": f[:, 1], "c0030": f[:, 2]}
    c["c2100"] = f[:, 0] + dd(0, e12) / 3
    c["c2010"] = f[:, 0] - dd(0, e31) / 3
    c["c1200"] = f[:, 1] - dd(1, e12) / 3
    c["c0210"] = f[:, 1] + dd(1, e23) / 3
    c["c0120"] = f[:, 2] - dd(2, e23) / 3
    c["c1020"] = f[:, 2] + dd(2, e31) / 3
    c["c2001"] = (c["c2100"] + c["c2010"] + c["c3000"]) / 3
    c["c0201"] = (c["c1200"] + c["c0300"] + c["c0210"]) / 3
    c["c0021"] = (c["c1020"] + c["c0120"] + c["c0030"]) / 3
    # barycentric coordinates of each neighbour's centroid in this triangle
    T = tri.transform
    gk = []
    for k, (o, bb) in enumerate(((0, 2), (1, 0), (2, 1))):
        nb = tri.neighbors[:, k]
        cen = tri.points[S[cp.where(nb < 0, 0, nb)]].mean(axis=1)
        d = cen - T[:, 2]
        b0 = T[:, 0, 0] * d[:, 0] + T[:, 0, 1] * d[:, 1]
        b1 = T[:, 1, 0] * d[:, 0] + T[:, 1, 1] * d[:, 1]
        bc = cp.stack([b0, b1, 1 - b0 - b1], axis=1)
        gk.append(cp.where(nb < 0, -0.5, (bc[:, o] - bc[:, bb]) / (1 - 3 * bc[:, o]))[:, None])

    def side(gv, a3, a2, b2, b3, ac, bc_):
        return (gv * (-a3 + 3 * a2 - 3 * b2 + b3) + (-a3 + 2 * a2 - b2 + ac + bc_)) / 2

    c["c0111"] = side(gk[0], c["c0300"], c["c0210"], c["c0120"], c["c0030"], c["c0201"],
                      c["c0021"])
    c["c1011"] = side(gk[1], c["c0030"], c["c1020"], c["c2010"], c["c3000"], c["c0021"],
                      c["c2001"])
    c["c1101"] = side(gk[2], c["c3000"], c["c2100"], c["c1200"], c["c0300"], c["c2001"],
                      c["c0201"])
    c["c1002"] = (c["c1101"] + c["c1011"] + c["c2001"]) / 3
    c["c0102"] = (c["c1101"] + c["c0111"] + c["c0201"]) / 3
    c["c0012"] = (c["c1011"] + c["c0111"] + c["c0021"]) / 3
    c["c0003"] = (c["c1002"] + c["c0102"] + c["c0012"]) / 3
    return cp.ascontiguousarray(cp.stack([c[k] for k in _CT_NAMES], axis=1))


def _ct_weights(bary):
    """The Bernstein weights of `_CT_NAMES` at macro barycentric coordinates: the smallest
    coordinate picks the sub-triangle (its share moves to the centroid)."""
    m = cp.min(bary, axis=1)
    b1, b2, b3 = (bary[:, i] - m for i in range(3))
    b4 = 3 * m
    return cp.stack([
        b1 ** 3, b2 ** 3, b3 ** 3, b4 ** 3,
        3 * b1 * b1 * b2, 3 * b1 * b2 * b2, 3 * b2 * b2 * b3, 3 * b2 * b3 * b3,
        3 * b1 * b3 * b3, 3 * b1 * b1 * b3,
        3 * b1 * b1 * b4, 3 * b2 * b2 * b4, 3 * b3 * b3 * b4,
        3 * b1 * b4 * b4, 3 * b2 * b4 * b4, 3 * b3 * b4 * b4,
        6 * b1 * b2 * b4, 6 * b2 * b3 * b4, 6 * b1 * b3 * b4], axis=1)


class CloughTocher2DInterpolator(LinearNDInterpolator):
    """Piecewise cubic, C1, curvature-minimising interpolant in 2-D (cuarray version of
    `scipy.interpolate.CloughTocher2DInterpolator`; the gradients solve Nielson's system
    by conjugate gradients, so `tol` and `maxiter` bound that solve)."""

    def __init__(self, points, values, fill_value=numpy.nan, tol=1e-6, maxiter=400,
                 rescale=False):
        super().__init__(points, values, fill_value, rescale)
        self.grad = _gradients_2d(self.tri, self.values, tol, maxiter)
        self._coef = _ct_coefficients(self.tri, self.values, self.grad)

    def __call__(self, *args):
        xi, lead = self._xi(args)
        sc, inside, bary = self._locate(xi)
        out = (_ct_weights(bary)[:, :, None] * self._coef[sc]).sum(axis=1)
        return self._shape(_fill(out, inside, self.fill_value), lead)
