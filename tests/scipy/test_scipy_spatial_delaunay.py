"""cuarray.scipy.spatial.Delaunay against scipy.spatial.Delaunay on seeded random 2-D
points: the same triangles, consistent neighbours, find_simplex, transform, convex_hull,
vertex_neighbor_vertices, errors; on the GPU and, without one, on the host emulation."""
import numpy as np
import pytest
import scipy.spatial as ss


def _tris(s):
    return {tuple(sorted(t)) for t in np.asarray(s).tolist()}


def _orient(p, s):
    a, b, c = p[s[:, 0]], p[s[:, 1]], p[s[:, 2]]
    return (b[:, 0] - a[:, 0]) * (c[:, 1] - a[:, 1]) - (b[:, 1] - a[:, 1]) * (c[:, 0] - a[:, 0])


@pytest.mark.parametrize("n", [3, 4, 40, 700])
def test_same_triangles_as_scipy(cp, n):
    from cuarray.scipy.spatial import Delaunay
    rng = np.random.default_rng(n)
    pts = rng.standard_normal((n, 2)) * [3.0, 0.5] + 10
    got, want = Delaunay(cp.asarray(pts)), ss.Delaunay(pts)
    s, nb = got.simplices.get(), got.neighbors.get()
    assert s.dtype == np.int32 and nb.dtype == np.int32 and s.shape[1] == 3
    assert got.nsimplex == len(s) == len(want.simplices)
    assert _tris(s) == _tris(want.simplices)
    assert (_orient(pts, s) > 0).all()                       # counterclockwise
    for t in range(len(s)):                                  # neighbour k is opposite vertex k
        for k in range(3):
            o = nb[t, k]
            edge = {s[t, (k + 1) % 3], s[t, (k + 2) % 3]}
            if o == -1:
                continue
            assert edge <= set(s[o]) and t in nb[o]
    hull = {tuple(sorted(e)) for e in got.convex_hull.get().tolist()}
    assert hull == {tuple(sorted(e)) for e in want.convex_hull.tolist()}
    ip, ix = (a.get() for a in got.vertex_neighbor_vertices)
    wp, wx = want.vertex_neighbor_vertices
    for v in range(n):
        assert set(ix[ip[v]:ip[v + 1]]) == set(wx[wp[v]:wp[v + 1]])


@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_find_simplex_and_transform(cp, dt):
    from cuarray.scipy.spatial import Delaunay
    rng = np.random.default_rng(11)
    pts = rng.random((300, 2)).astype(dt)
    q = rng.uniform(-0.2, 1.2, (6, 50, 2))
    got, want = Delaunay(cp.asarray(pts)), ss.Delaunay(pts)
    f = got.find_simplex(cp.asarray(q))
    assert f.shape == (6, 50) and f.dtype == np.int32
    fw = want.find_simplex(q)
    f = f.get()
    np.testing.assert_array_equal(f >= 0, fw >= 0)
    s, sw = got.simplices.get(), want.simplices
    inside = f >= 0
    for g, w in zip(f[inside], fw[inside]):
        assert set(s[g]) == set(sw[w])
    T = got.transform.get()
    assert T.shape == (len(s), 3, 2)
    qi, fi = q[inside], f[inside]
    c = np.einsum("nij,nj->ni", T[fi, :2], qi - T[fi, 2])
    bary = np.c_[c, 1 - c.sum(1)]
    np.testing.assert_allclose(np.einsum("ni,nij->nj", bary, pts.astype(np.float64)[s[fi]]),
                               qi, atol=1e-9)
    assert (bary > -1e-9).all()
    v2s = got.vertex_to_simplex.get()
    assert all(v in s[v2s[v]] for v in range(len(pts)))


def test_duplicates_and_errors(cp):
    from cuarray.scipy.spatial import Delaunay
    rng = np.random.default_rng(12)
    pts = rng.random((60, 2))
    dup = np.concatenate([pts, pts[:5]])
    assert _tris(Delaunay(cp.asarray(dup)).simplices.get()) == _tris(ss.Delaunay(pts).simplices)
    with pytest.raises(RuntimeError):
        Delaunay(cp.asarray(np.c_[np.arange(5.0), 2 * np.arange(5.0)]))   # collinear
    with pytest.raises(RuntimeError):
        Delaunay(cp.asarray(pts[:2]))
    with pytest.raises(ValueError):
        Delaunay(cp.asarray(rng.random((10, 3))))
    t = Delaunay(cp.asarray(pts))
    with pytest.raises(ValueError):
        t.find_simplex(cp.zeros((3, 3)))


def test_grid_with_cocircular_and_collinear_points(cp):
    """An exact grid (every cell cocircular, 96 points on the hull's edges; large enough
    for the parallel rounds, which hand it back to one-by-one insertion): a valid
    triangulation (SciPy's choice among the equivalent ones may differ) covering the hull."""
    from cuarray.scipy.spatial import Delaunay
    g = np.stack(np.meshgrid(np.arange(30.0), np.arange(20.0)), -1).reshape(-1, 2)
    s = Delaunay(cp.asarray(g)).simplices.get()
    assert len(s) == 2 * len(g) - 2 - 96 == len(ss.Delaunay(g).simplices)
    assert (_orient(g, s) > 0).all()
    assert np.isclose(_orient(g, s).sum() / 2, 29 * 19)
    a, b, c = g[s[:, 0]], g[s[:, 1]], g[s[:, 2]]
    # no grid point strictly inside any circumcircle
    for t in range(0, len(s), 7):
        cen = _circumcenter(a[t], b[t], c[t])
        r2 = ((a[t] - cen) ** 2).sum()
        assert (((g - cen) ** 2).sum(1) >= r2 - 1e-9).all()


def _circumcenter(a, b, c):
    d = 2 * (a[0] * (b[1] - c[1]) + b[0] * (c[1] - a[1]) + c[0] * (a[1] - b[1]))
    ux = ((a @ a) * (b[1] - c[1]) + (b @ b) * (c[1] - a[1]) + (c @ c) * (a[1] - b[1])) / d
    uy = ((a @ a) * (c[0] - b[0]) + (b @ b) * (a[0] - c[0]) + (c @ c) * (b[0] - a[0])) / d
    return np.array([ux, uy])


def test_repeated_points_in_parallel_rounds(cp):
    """Enough points for the parallel rounds, 100 of them repeated: the triangles are
    SciPy's once each copy is named by its first index."""
    from cuarray.scipy.spatial import Delaunay
    rng = np.random.default_rng(13)
    a = rng.random((600, 2))
    pts = np.concatenate([a, a[rng.permutation(600)[:100]]])
    _, first, inv = np.unique(pts, axis=0, return_index=True, return_inverse=True)
    canon = first[inv.ravel()]
    got = Delaunay(cp.asarray(pts)).simplices.get()
    assert _tris(canon[got]) == _tris(canon[ss.Delaunay(pts).simplices])


def test_predicates_are_compiled_without_fused_multiply_adds():
    """A contracted orient() is not antisymmetric: with fma() written into the predicates
    the triangulation of four random points gained a stray triangle."""
    from cuarray.scipy.spatial import _delaunay
    for name in ("dt_build", "dt_walk", "dt_locate"):
        assert "--fmad=false" in _delaunay._kernel(name).options
