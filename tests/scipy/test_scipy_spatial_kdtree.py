"""cuarray.scipy.spatial.KDTree against scipy.spatial.KDTree: k nearest neighbours (k, p,
eps, distance_upper_bound, missing neighbours), query_ball_point, shapes, dtypes and
errors; on the GPU and, without one, on the host emulation."""
import numpy as np
import pytest
import scipy.spatial as ss


def _tree(cp, data, **kw):
    from cuarray.scipy.spatial import KDTree
    return KDTree(cp.asarray(data), **kw)


@pytest.mark.parametrize("k", [1, 3, 8])
@pytest.mark.parametrize("p", [2, 1, np.inf, 3.5])
def test_query_matches_scipy(cp, k, p):
    rng = np.random.default_rng(10 + k)
    data, q = rng.random((300, 3)), rng.random((70, 3))
    t = _tree(cp, data, leafsize=5)
    d, i = t.query(cp.asarray(q), k=k, p=p)
    dw, iw = ss.KDTree(data).query(q, k=k, p=p)
    assert d.dtype == np.float64 and i.dtype == np.int64 and d.shape == dw.shape
    np.testing.assert_allclose(d.get(), dw, rtol=1e-12)
    np.testing.assert_array_equal(i.get(), iw)


def test_upper_bound_missing_and_k_list(cp):
    rng = np.random.default_rng(3)
    data, q = rng.random((120, 2)), rng.random((6000, 2))   # enough to sort the queries
    t = _tree(cp, data.astype(np.float32), leafsize=8)
    ref = ss.KDTree(data.astype(np.float32))
    d, i = t.query(cp.asarray(q), k=[1, 4, 40], distance_upper_bound=0.1)
    dw, iw = ref.query(q, k=[1, 4, 40], distance_upper_bound=0.1)
    assert d.shape == (6000, 3)
    np.testing.assert_allclose(d.get(), dw, rtol=1e-12)
    np.testing.assert_array_equal(i.get(), iw)
    assert (i.get() == 120).any() and np.isinf(d.get()).any()


@pytest.mark.parametrize("m", [1, 5])
def test_large_k_and_dims(cp, m):
    rng = np.random.default_rng(m)
    data, q = rng.standard_normal((90, m)), rng.standard_normal((5, 2, m))
    t = _tree(cp, data)   # default leafsize
    d, i = t.query(cp.asarray(q), k=50)
    dw, iw = ss.KDTree(data).query(q, k=50)
    assert d.shape == (5, 2, 50)
    np.testing.assert_allclose(d.get(), dw, rtol=1e-12)
    np.testing.assert_array_equal(i.get(), iw)
    # more neighbours than points: the rest are (inf, n)
    d, i = t.query(cp.asarray(q[0, 0]), k=95)
    dw, iw = ss.KDTree(data).query(q[0, 0], k=95)
    np.testing.assert_allclose(d.get(), dw, rtol=1e-12)
    np.testing.assert_array_equal(i.get(), iw)


def test_single_point_and_tiny_trees(cp):
    rng = np.random.default_rng(4)
    for n in (1, 2, 3, 17):
        data = rng.random((n, 3))
        t = _tree(cp, data, leafsize=1)
        x = rng.random(3)
        d, i = t.query(cp.asarray(x))
        dw, iw = ss.KDTree(data).query(x)
        assert d.shape == () and i.shape == ()
        assert float(d) == pytest.approx(dw, rel=1e-12) and int(i) == iw
    assert t.n == 17 and t.m == 3
    np.testing.assert_array_equal(t.maxes.get(), data.max(axis=0))
    np.testing.assert_array_equal(t.mins.get(), data.min(axis=0))


def test_eps_stays_within_bound(cp):
    rng = np.random.default_rng(5)
    data, q = rng.random((400, 3)), rng.random((50, 3))
    d, _ = _tree(cp, data).query(cp.asarray(q), k=4, eps=0.5)
    dw, _ = ss.KDTree(data).query(q, k=4)
    assert (d.get() <= dw * 1.5 + 1e-12).all() and (d.get() >= dw - 1e-12).all()


@pytest.mark.parametrize("p", [2, 1, np.inf])
def test_query_ball_point(cp, p):
    rng = np.random.default_rng(6)
    data, q = rng.random((250, 3)), rng.random((4, 5, 3))
    t, ref = _tree(cp, data, leafsize=6), ss.KDTree(data)
    r = rng.uniform(0.05, 0.3, (4, 5))
    got = t.query_ball_point(cp.asarray(q), cp.asarray(r), p=p)
    want = ref.query_ball_point(q, r, p=p)
    assert got.shape == want.shape and got.dtype == object
    for g, w in zip(got.ravel(), want.ravel()):
        assert g == w
    n = t.query_ball_point(cp.asarray(q), 0.2, p=p, return_length=True)
    np.testing.assert_array_equal(n.get(), ref.query_ball_point(q, 0.2, p=p,
                                                                return_length=True))
    one = t.query_ball_point(cp.asarray(q[0, 0]), 0.3, p=p, return_sorted=True)
    assert one == sorted(ref.query_ball_point(q[0, 0], 0.3, p=p))


def test_errors(cp):
    from cuarray.scipy.spatial import KDTree
    data = cp.asarray(np.random.default_rng(7).random((20, 3)))
    with pytest.raises(ValueError):
        KDTree(data, leafsize=0)
    with pytest.raises(ValueError):
        KDTree(data[:, 0])
    bad = np.random.default_rng(7).random((20, 3))
    bad[3, 1] = np.nan
    with pytest.raises(ValueError):
        KDTree(cp.asarray(bad))
    t = KDTree(data)
    with pytest.raises(ValueError):
        t.query(cp.zeros((4, 2)))
    with pytest.raises(ValueError):
        t.query(cp.zeros((4, 3)), k=0)
    with pytest.raises(ValueError):
        t.query(cp.zeros((4, 3)), p=0.5)
    with pytest.raises(ValueError):
        t.query(cp.zeros((4, 3)), eps=-1)
    with pytest.raises(ValueError):
        t.query_ball_point(cp.zeros((4, 3)), 0.1, p=0.5)


def _reference_tree(data, leafsize):
    """The tree the build must give, level by level in NumPy: every node's range ordered
    by its widest dimension (first of equal spreads), ties in their previous order; the
    split value the right half's first coordinate (the left's last where the right is
    empty)."""
    n, m = data.shape
    depth = 0
    while -(-n // (1 << depth)) > leafsize:
        depth += 1
    perm, pos = np.arange(n), np.arange(n)
    sdim = np.zeros(max((1 << depth) - 1, 1), np.int32)
    sval = np.zeros(max((1 << depth) - 1, 1))
    for lev in range(depth):
        nseg = 1 << lev
        seg = ((pos + 1) * nseg + n - 1) // n - 1
        starts = (np.arange(nseg) * n) >> lev
        pts = data[perm]
        spread = np.maximum.reduceat(pts, starts) - np.minimum.reduceat(pts, starts)
        dim = spread.argmax(axis=1)
        o1 = np.argsort(pts[pos, dim[seg]], kind="stable")
        perm = perm[o1[np.argsort(seg[o1], kind="stable")]]
        mids = ((2 * np.arange(nseg) + 1) * n) >> (lev + 1)
        mids = np.minimum(mids, ((np.arange(nseg) + 1) * n >> lev) - 1)   # empty right half
        sdim[nseg - 1:2 * nseg - 1] = dim
        sval[nseg - 1:2 * nseg - 1] = data[perm[mids], dim]
    return depth, perm, sdim, sval


def _clouds():
    rng = np.random.default_rng(21)
    dup = rng.random((301, 3))
    dup[150:] = dup[rng.integers(0, 150, 151)]          # exact duplicate points
    grid = rng.integers(0, 4, (777, 2)).astype(np.float64)  # ties in every coordinate
    return [("random", rng.random((1000, 3)), 10), ("dup", dup, 4), ("grid", grid, 3),
            ("1-d", rng.standard_normal((513, 1)), 7), ("5-d", rng.random((130, 5)), 1)]


@pytest.mark.parametrize("case", range(5))
def test_build_matches_reference_tree(cp, monkeypatch, case):
    """The permutation, split dimensions and values equal the reference's; every node's
    left half lies at or below its split value and the right half at or above. Few points
    a lane, so nodes split across groups and parts already on small clouds, and 64-bit
    sort keys from fewer bits on."""
    from cuarray.scipy.spatial import _kdtree
    name, data, leafsize = _clouds()[case]
    monkeypatch.setattr(_kdtree, "_PER_LANE", 2)
    monkeypatch.setattr(_kdtree, "_KEY32_BITS", 12)   # 64-bit keys from the middle levels
    t = _tree(cp, data, leafsize=leafsize)
    depth, perm, sdim, sval = _reference_tree(data, leafsize)
    assert t._depth == depth
    np.testing.assert_array_equal(t._perm.get(), perm)
    np.testing.assert_array_equal(t._sdim.get(), sdim)
    np.testing.assert_array_equal(t._sval.get(), sval)
    np.testing.assert_array_equal(t._pts.get(), data[perm])
    n, pts = len(data), data[perm]
    for lev in range(depth):
        for j in range(1 << lev):
            v = (1 << lev) - 1 + j
            lo, mid, hi = (j * n) >> lev, ((2 * j + 1) * n) >> (lev + 1), ((j + 1) * n) >> lev
            assert (pts[lo:mid, sdim[v]] <= sval[v]).all()
            assert (pts[mid:hi, sdim[v]] >= sval[v]).all()


def _check_neighbours(data, q, d, i, dw):
    """Distances as SciPy's; every index a point at its distance (ties among duplicates
    may list another of the equal points)."""
    np.testing.assert_allclose(d, dw, rtol=1e-12)
    np.testing.assert_allclose(np.linalg.norm(data[i] - q[:, None, :], axis=-1), d, rtol=1e-12)
    assert all(len(set(row)) == len(row) for row in i)


@pytest.mark.parametrize("case", [0, 1, 2, 4])
def test_queries_on_rebuilt_clouds(cp, case):
    name, data, leafsize = _clouds()[case]
    rng = np.random.default_rng(30 + case)
    q = rng.random((40, data.shape[1])) * data.max(axis=0)
    t, ref = _tree(cp, data, leafsize=leafsize), ss.cKDTree(data, leafsize=leafsize)
    d, i = t.query(cp.asarray(q), k=6)
    dw, iw = ref.query(q, k=6)
    if name in ("random", "5-d"):   # no ties: SciPy's indices
        np.testing.assert_array_equal(i.get(), iw)
    _check_neighbours(data, q, d.get(), i.get(), dw)
    d, i = t.query(cp.asarray(q), k=3, distance_upper_bound=0.2)
    dw, iw = ref.query(q, k=3, distance_upper_bound=0.2)
    np.testing.assert_array_equal(np.isinf(d.get()), np.isinf(dw))
    np.testing.assert_array_equal(i.get() == len(data), iw == len(data))
    np.testing.assert_allclose(d.get(), dw, rtol=1e-12)
    got = t.query_ball_point(cp.asarray(q), 0.3, return_sorted=True)
    want = ref.query_ball_point(q, 0.3, return_sorted=True)
    assert [list(g) for g in got] == [list(w) for w in want]


@pytest.mark.gpu
def test_build_large_cloud_matches_reference(gpu_cp):
    """A cloud large enough for every path of the build at its default sizes (nodes split
    across blocks at the top, CUB's radix sort, 64-bit keys at the deep levels: 19 bits of
    rank below 18 of node), leafsize 1 with empty right halves at the last level."""
    from cuarray.scipy.spatial import KDTree
    rng = np.random.default_rng(40)
    data = rng.random((300_007, 3))
    data[100_000:100_500] = data[:500]   # duplicate points
    t = KDTree(gpu_cp.asarray(data), leafsize=1)
    depth, perm, sdim, sval = _reference_tree(data, 1)
    assert t._depth == depth == 19
    np.testing.assert_array_equal(t._perm.get(), perm)
    np.testing.assert_array_equal(t._sdim.get(), sdim)
    np.testing.assert_array_equal(t._sval.get(), sval)
    q = rng.random((5000, 3))
    d, i = t.query(gpu_cp.asarray(q), k=8)
    dw, _ = ss.cKDTree(data).query(q, k=8)
    _check_neighbours(data, q, d.get(), i.get(), dw)
