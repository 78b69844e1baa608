"""2-D Delaunay triangulation (cuarray version of `scipy.spatial.Delaunay`).

The points are scaled into [-1, 1]^2 and put in Morton order on the GPU. One GPU thread
triangulates a sample of _SEED of them spread along that order; the rest are inserted in
parallel rounds (`_delaunay_kernels.PARALLEL`: one thread per point, the points whose
cavities neither meet nor touch go in together: 54 rounds for 5000 random points on the
host emulation, so some 100-150 are expected for 2^16; each round syncs twice). Sets of
at most 2 _SEED points, and any set on which a cavity predicate meets an exact zero
(grids, cocircular points, collinear hull points), are inserted one by one by that single
thread instead (right in degenerate cases, but sequential). The result is compacted, and every derived
attribute (neighbours, transforms, hull edges, vertex neighbours) and `find_simplex` run
as parallel kernels. Predicates are double precision, not exact arithmetic.
"""
import numpy

import cuarray as cp
from cuarray._core._kernel_helpers import render
from cuarray._core.raw import RawKernel
from cuarray.scipy.spatial import _delaunay_kernels as _src
from cuarray.scipy.spatial._kdtree import KDTree, _points

_i32 = numpy.dtype(numpy.int32)
_i64 = numpy.dtype(numpy.int64)
_kernels = {}
# Points inserted one by one first (a sample spread by Morton order), then in parallel
# rounds; a round's cavities hold at most _CMAX triangles.
_SEED = 256
_CMAX = 64
_NONE = 0x7FFFFFFF
_BLOCK = 128
_NO_FMA = ("--fmad=false",)


def _kernel(name):
    k = _kernels.get(name)
    if k is None:
        body = {"dt_build": _src.BUILD, "dt_locate": _src.LOCATE}.get(name)
        if body is None:
            body = render(_src.PARALLEL, CMAX=_CMAX)
        # No fused multiply-adds: a contracted orient() is not exactly antisymmetric in its
        # points, and triangles on either side of an edge then disagree about a point
        # (a stray triangle appeared on the GPU, as on the host with fma() written out).
        k = _kernels[name] = RawKernel("#include <cuarray/core.cuh>\n" + body, name,
                                       options=_NO_FMA)
    return k


class QhullError(RuntimeError):
    """The points span no triangle (SciPy's `scipy.spatial.QhullError` for this case)."""


def _spread(v):
    """The bits of 16-bit integers moved to the even positions (half a Morton code)."""
    v = (v | (v << 16)) & 0x0000FFFF0000FFFF
    v = (v | (v << 8)) & 0x00FF00FF00FF00FF
    v = (v | (v << 4)) & 0x0F0F0F0F0F0F0F0F
    v = (v | (v << 2)) & 0x3333333333333333
    return (v | (v << 1)) & 0x5555555555555555


def _morton(P):
    q = cp.clip((P + 1.0) * 32767.5, 0, 65535).astype(numpy.uint64)
    return _spread(q[:, 0]) | (_spread(q[:, 1]) << 1)


class _Mesh:
    """Triangles (V, N: vertices and opposite neighbours, ghosts included) being built."""

    def __init__(self, P):
        n = P.shape[0]
        slots = 2 * n + 8
        self.P, self.n = P, n
        self.V = cp.empty(3 * slots, dtype=_i32)
        self.N = cp.empty(3 * slots, dtype=_i32)
        self.mark = cp.zeros(slots, dtype=_i32)
        self.smap = cp.empty(n + 1, dtype=_i32)
        self.emap = cp.empty(n + 1, dtype=_i32)
        self.cav = cp.empty(slots, dtype=_i32)
        self.bnd = cp.empty(3 * slots, dtype=_i32)
        self.used = cp.zeros(n, dtype=numpy.uint8)
        self.info = cp.zeros(1, dtype=_i64)

    def sequential(self, order, init):
        """Insert `order` one by one (dt_build); the triangle count, or -1 if collinear."""
        self.mark.fill(0)
        _kernel("dt_build")((1,), (1,), (
            self.P, order, order.size, self.n, numpy.int32(init), self.V, self.N,
            self.mark, self.smap, self.emap, self.cav, self.bnd, self.used, self.info))
        return int(self.info[0])

    def parallel(self, cnt):
        """Insert every point not yet used in rounds; the final triangle count, or -3 when a
        predicate met an exact zero (the rounds then cannot be trusted)."""
        n = self.n
        rem = cp.nonzero(self.used == 0)[0].astype(_i32)
        loc = cp.zeros(n, dtype=_i32)
        owner = cp.empty(2 * n + 8, dtype=_i32)
        claim = cp.empty(2 * n + 8, dtype=_i32)
        near = cp.empty(2 * n + 8, dtype=_i32)
        win = cp.zeros(n, dtype=numpy.uint8)
        count = cp.full(1, cnt, dtype=_i32)
        err = cp.zeros(1, dtype=_i32)
        while rem.size:
            nr = rem.size
            grid = (max(1, min((nr + _BLOCK - 1) // _BLOCK, 1 << 16)),)
            owner.fill(_NONE)
            claim.fill(_NONE)
            near.fill(_NONE)
            _kernel("dt_walk")(grid, (_BLOCK,), (self.P, rem, nr, self.V, self.N, loc, owner,
                                                 self.used, n, 2 * n, err))
            for stage in (0, 1):
                _kernel("dt_claim")(grid, (_BLOCK,), (
                    self.P, rem, nr, self.V, self.N, loc, owner, self.used, n,
                    numpy.int32(stage), claim, near, win, err))
            _kernel("dt_insert")(grid, (_BLOCK,), (self.P, rem, nr, self.V, self.N, loc,
                                                   self.used, win, n, count))
            if int(err[0]):
                return -3
            left = rem[self.used[rem] == 0]
            if left.size == nr:          # every cavity too large: finish one by one
                self.info[0] = count[0].astype(_i64)
                return self.sequential(left.astype(_i64), 0)
            rem = left
        return int(count[0])


def _triangulate(P, order):
    """(triangle count, _Mesh) of the Delaunay triangulation of P (the count is -1 when
    the points are collinear, -2 when a walk did not end)."""
    mesh = _Mesh(P)
    n = P.shape[0]
    if n <= 2 * _SEED:
        cnt = mesh.sequential(order, 1)
    else:
        cnt = mesh.sequential(cp.ascontiguousarray(order[::n // _SEED][:_SEED]), 1)
        if cnt == -1:            # the sample is collinear: the whole set may not be
            mesh = _Mesh(P)
            cnt = mesh.sequential(order, 1)
        else:
            cnt = mesh.parallel(cnt)
            if cnt == -3:        # not in general position: one by one, from the start
                mesh = _Mesh(P)
                cnt = mesh.sequential(order, 1)
    return cnt, mesh


class Delaunay:
    """Delaunay triangulation of 2-D points (cuarray version of `scipy.spatial.Delaunay`,
    as CuPy's: 2-D only, `furthest_site`, `incremental` and `qhull_options` are ignored;
    of repeated points one copy joins the triangles, not always the one Qhull picks)."""

    def __init__(self, points, furthest_site=False, incremental=False, qhull_options=None):
        pts = _points(points, "Delaunay")
        if pts.ndim != 2:
            raise ValueError(f"points must be 2-D (npoints, ndim), got shape {pts.shape}")
        if pts.shape[1] != 2:
            raise ValueError("cuarray's Delaunay triangulates 2-D points only, got "
                             f"{pts.shape[1]}-D")
        n = pts.shape[0]
        if n < 3:
            raise QhullError(f"need at least 3 points to construct an initial simplex, "
                             f"got {n}")
        if not bool(cp.isfinite(pts).all()):
            raise ValueError("Points cannot contain NaN")
        self.points, self.npoints, self.ndim = pts, n, 2
        self.furthest_site = False
        self.min_bound, self.max_bound = cp.amin(pts, axis=0), cp.amax(pts, axis=0)
        center = (self.min_bound + self.max_bound) / 2
        half = cp.amax(self.max_bound - self.min_bound) / 2
        P = cp.ascontiguousarray((pts - center) / cp.where(half > 0, half, 1.0))
        cnt, mesh = _triangulate(P, cp.argsort(_morton(P)).astype(_i64))
        if cnt == -1:
            raise QhullError("the points are collinear: no triangle can be formed")
        if cnt < 0:
            raise QhullError("the triangulation failed (degenerate input)")
        V, N = mesh.V, mesh.N
        V, N = V[:3 * cnt].reshape(cnt, 3), N[:3 * cnt].reshape(cnt, 3)
        real = V[:, 2] != n
        ids = (cp.cumsum(real, dtype=_i32) - 1).astype(_i32)
        self.simplices = V[real]
        nb = N[real]
        self.neighbors = cp.where(real[nb], ids[nb], -1).astype(_i32)
        self.nsimplex = self.simplices.shape[0]
        self._cache = {}

    def _lazy(self, name, build):
        v = self._cache.get(name)
        if v is None:
            v = self._cache[name] = build()
        return v

    @property
    def transform(self):
        """Affine maps to barycentric coordinates, (nsimplex, 3, 2) as SciPy's."""
        def build():
            A = self.points[self.simplices]           # (ns, 3, 2)
            r = A[:, 2]
            t00, t01 = A[:, 0, 0] - r[:, 0], A[:, 1, 0] - r[:, 0]
            t10, t11 = A[:, 0, 1] - r[:, 1], A[:, 1, 1] - r[:, 1]
            det = t00 * t11 - t01 * t10
            inv = cp.stack([t11, -t01, -t10, t00], axis=1) / det[:, None]
            return cp.ascontiguousarray(cp.concatenate([inv, r], axis=1).reshape(-1, 3, 2))
        return self._lazy("transform", build)

    @property
    def vertex_to_simplex(self):
        """A simplex holding each vertex (-1 for points in none), as SciPy's."""
        def build():
            v = cp.full(self.npoints, -1, dtype=_i32)
            v[self.simplices.ravel()] = cp.repeat(cp.arange(self.nsimplex, dtype=_i32), 3)
            return v
        return self._lazy("vertex_to_simplex", build)

    @property
    def convex_hull(self):
        """The hull's edges as pairs of point indices, (nfacets, 2)."""
        def build():
            s, k = cp.nonzero(self.neighbors == -1)
            return cp.stack([self.simplices[s, (k + 1) % 3],
                             self.simplices[s, (k + 2) % 3]], axis=1).astype(_i32)
        return self._lazy("convex_hull", build)

    @property
    def vertex_neighbor_vertices(self):
        """(indptr, indices): the neighbours of vertex k are indices[indptr[k]:indptr[k+1]]."""
        def build():
            S = self.simplices.astype(_i64)
            a, b, c = S[:, 0], S[:, 1], S[:, 2]
            n = self.npoints
            keys = cp.unique(cp.concatenate([a * n + b, b * n + a, b * n + c, c * n + b,
                                             c * n + a, a * n + c]))
            src = keys // n
            indptr = cp.searchsorted(src, cp.arange(n + 1, dtype=_i64)).astype(_i32)
            return indptr, (keys % n).astype(_i32)
        return self._lazy("vertex_neighbor_vertices", build)

    @property
    def _tree(self):
        return self._lazy("tree", lambda: KDTree(self.points))

    def find_simplex(self, xi, bruteforce=False, tol=None):
        """The simplex holding each point of xi, -1 outside (cuarray version of
        `scipy.spatial.Delaunay.find_simplex`; a walk from the simplex of the nearest
        vertex, `bruteforce` is accepted and unused)."""
        x = _points(xi, "find_simplex")
        if x.ndim == 0 or x.shape[-1] != 2:
            raise ValueError(f"wrong dimensionality in xi: {x.shape[-1] if x.ndim else 0} "
                             "!= 2")
        lead = x.shape[:-1]
        X = cp.ascontiguousarray(x.reshape(-1, 2))
        nq = X.shape[0]
        out = cp.empty(nq, dtype=_i32)
        if nq:
            _, near = self._tree.query(X)
            start = self.vertex_to_simplex[near].astype(_i64)
            start = cp.where(start < 0, 0, start)
            eps = 100 * numpy.finfo(numpy.float64).eps if tol is None else float(tol)
            _kernel("dt_locate")((max(1, min((nq + 127) // 128, 1 << 20)),), (128,), (
                self.transform, self.neighbors, start, X, nq, self.nsimplex, eps, out))
        return out.reshape(lead)

