"""cuarray.scipy.sparse.csgraph against scipy.sparse.csgraph: connected components (weak,
strong), breadth/depth-first order, shortest paths (dijkstra), minimum spanning tree.

Tests taking `cp` run on the GPU and, without one, in the host emulation (conftest.py).
"""
import numpy as np
import pytest
import scipy.sparse as ssp
import scipy.sparse.csgraph as scg


def _graph(n, density, seed, symmetric=False):
    rng = np.random.default_rng(seed)
    G = ssp.random(n, n, density=density, random_state=seed, format="csr",
                   data_rvs=lambda k: rng.uniform(1, 10, k))
    G.setdiag(0)
    G.eliminate_zeros()
    if symmetric:
        G = ssp.triu(G, 1)
        G = (G + G.T).tocsr()
    return G


def _dev(h):
    from cuarray.scipy import sparse
    return sparse.csr_matrix(h)


def _get(x):
    return x.get() if hasattr(x, "get") else np.asarray(x)


def _same_partition(a, b):
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape
    pairs = set(zip(a.tolist(), b.tolist()))
    assert len(pairs) == len(set(a.tolist())) == len(set(b.tolist()))


@pytest.mark.parametrize("seed,density", [(1, 0.05), (2, 0.12), (3, 0.0)])
def test_connected_components(cp, seed, density):
    from cuarray.scipy.sparse import csgraph
    h = _graph(40, density, seed)
    for directed, connection in [(True, "weak"), (True, "strong"), (False, "weak")]:
        n, lab = csgraph.connected_components(_dev(h), directed=directed,
                                              connection=connection)
        nh, labh = scg.connected_components(h, directed=directed, connection=connection)
        assert n == nh and lab.dtype == np.int32
        _same_partition(_get(lab), labh)
        if connection == "weak":
            np.testing.assert_array_equal(_get(lab), labh)
    assert csgraph.connected_components(_dev(h), return_labels=False) == \
        scg.connected_components(h, return_labels=False)
    with pytest.raises(ValueError):
        csgraph.connected_components(_dev(h), connection="medium")


def test_strong_components_cycles(cp):
    from cuarray.scipy.sparse import csgraph
    # two 3-cycles joined one way, plus a chain back and an isolated node
    r = [0, 1, 2, 3, 4, 5, 2, 6]
    c = [1, 2, 0, 4, 5, 3, 3, 5]
    h = ssp.csr_matrix((np.ones(len(r)), (r, c)), shape=(8, 8))
    n, lab = csgraph.connected_components(_dev(h), connection="strong")
    nh, labh = scg.connected_components(h, connection="strong")
    assert n == nh == 4
    _same_partition(_get(lab), labh)


def test_dense_input_and_errors(cp):
    from cuarray.scipy.sparse import csgraph
    d = np.array([[0, 1, 0], [0, 0, 0], [0, 0, 0]], dtype=np.float64)
    n, lab = csgraph.connected_components(cp.asarray(d))
    assert n == 2
    np.testing.assert_array_equal(_get(lab), [0, 0, 1])
    with pytest.raises(ValueError, match="shape"):
        csgraph.connected_components(_dev(ssp.csr_matrix((3, 4))))
    with pytest.raises(TypeError):
        csgraph.connected_components(d)


@pytest.mark.parametrize("directed", [True, False])
def test_breadth_depth_first_order(cp, directed):
    from cuarray.scipy.sparse import csgraph
    for start, h in [(0, _graph(30, 0.1, 4)), (7, _graph(30, 0.1, 4, symmetric=True)),
                     (5, _graph(30, 0.06, 10))]:
        nodes, pred = csgraph.breadth_first_order(_dev(h), start, directed=directed)
        nh, ph = scg.breadth_first_order(h, start, directed=directed)
        np.testing.assert_array_equal(_get(nodes), nh)
        np.testing.assert_array_equal(_get(pred), ph)
        nodes, pred = csgraph.depth_first_order(_dev(h), start, directed=directed)
        nh, ph = scg.depth_first_order(h, start, directed=directed)
        np.testing.assert_array_equal(_get(nodes), nh)
        np.testing.assert_array_equal(_get(pred), ph)
    only = csgraph.breadth_first_order(_dev(h), 0, return_predecessors=False)
    assert only.ndim == 1
    with pytest.raises(ValueError):
        csgraph.depth_first_order(_dev(h), 30)


@pytest.mark.parametrize("directed", [True, False])
def test_shortest_paths(cp, directed):
    from cuarray.scipy.sparse import csgraph
    h = _graph(25, 0.12, 5)
    d = csgraph.shortest_path(_dev(h), directed=directed)
    np.testing.assert_allclose(_get(d), scg.shortest_path(h, directed=directed))
    d, p = csgraph.dijkstra(_dev(h), directed=directed, indices=[3, 0],
                            return_predecessors=True)
    dh, ph = scg.dijkstra(h, directed=directed, indices=[3, 0], return_predecessors=True)
    np.testing.assert_allclose(_get(d), dh)
    np.testing.assert_array_equal(_get(p), ph)
    d = csgraph.dijkstra(_dev(h), directed=directed, indices=4, limit=6.0)
    np.testing.assert_allclose(_get(d), scg.dijkstra(h, directed=directed, indices=4, limit=6.0))
    d = csgraph.shortest_path(_dev(h), directed=directed, unweighted=True, indices=2)
    np.testing.assert_allclose(_get(d), scg.shortest_path(h, directed=directed,
                                                         unweighted=True, indices=2))
    d, p, s = csgraph.dijkstra(_dev(h), directed=directed, indices=[1, 9], min_only=True,
                               return_predecessors=True)
    dh, ph, sh = scg.dijkstra(h, directed=directed, indices=[1, 9], min_only=True,
                              return_predecessors=True)
    np.testing.assert_allclose(_get(d), dh)
    np.testing.assert_array_equal(_get(p), ph)
    np.testing.assert_array_equal(_get(s), sh)
    with pytest.raises(ValueError):
        csgraph.shortest_path(_dev(h), method="XX")


def test_negative_weights(cp):
    from cuarray.scipy.sparse import csgraph
    h = ssp.triu(_graph(20, 0.2, 8), 1).tocsr()  # a DAG: no cycle at all
    h.data[::3] *= -1
    for method in ("auto", "BF", "J", "FW"):
        d, p = csgraph.shortest_path(_dev(h), method=method, return_predecessors=True)
        dh, ph = scg.shortest_path(h, method=method, return_predecessors=True)
        np.testing.assert_allclose(_get(d), dh)
        np.testing.assert_array_equal(_get(p), ph)
    np.testing.assert_allclose(_get(csgraph.bellman_ford(_dev(h), indices=[0, 2])),
                               scg.bellman_ford(h, indices=[0, 2]))
    np.testing.assert_allclose(_get(csgraph.johnson(_dev(h), indices=1)),
                               scg.johnson(h, indices=1))
    np.testing.assert_allclose(_get(csgraph.floyd_warshall(_dev(h))), scg.floyd_warshall(h))
    with pytest.warns(UserWarning, match="negative weights"):
        np.testing.assert_allclose(_get(csgraph.dijkstra(_dev(h), indices=0)),
                                   scg.johnson(h, indices=0))
    with pytest.raises(csgraph.NegativeCycleError):
        csgraph.shortest_path(_dev(h), directed=False)


def test_minimum_spanning_tree(cp):
    from cuarray.scipy.sparse import csgraph, isspmatrix_csr
    for seed, sym in [(6, True), (7, False)]:
        h = _graph(30, 0.15, seed, symmetric=sym)
        T = csgraph.minimum_spanning_tree(_dev(h))
        Th = scg.minimum_spanning_tree(h)
        assert isspmatrix_csr(T) and T.nnz == Th.nnz
        np.testing.assert_allclose(T.toarray().get(), Th.toarray())


@pytest.mark.parametrize("kw", [{}, {"normed": True}, {"use_out_degree": True},
                                {"symmetrized": True}, {"normed": True, "use_out_degree": True}])
def test_laplacian(cp, kw):
    from cuarray.scipy.sparse import csgraph
    h = _graph(12, 0.3, 22)
    h = h + ssp.diags(np.arange(12.0))  # a diagonal, which the Laplacian ignores
    keep = np.ones(12)
    keep[3] = 0  # node 3 keeps no out-edges
    h = (ssp.diags(keep) @ h).tocsr()
    h.eliminate_zeros()
    L, d = csgraph.laplacian(_dev(h), return_diag=True, **kw)
    Lh, dh = scg.laplacian(h, return_diag=True, **kw)
    assert L.format == "coo" and L.dtype == Lh.dtype
    np.testing.assert_allclose(L.toarray().get(), Lh.toarray(), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(_get(d), dh, rtol=1e-12)
    D = csgraph.laplacian(cp.asarray(h.toarray()), **kw)
    np.testing.assert_allclose(_get(D), scg.laplacian(h.toarray(), **kw), atol=1e-12)
    f = csgraph.laplacian(_dev(h), form="function", **kw)
    v = np.arange(12.0)
    np.testing.assert_allclose(_get(f(cp.asarray(v))), Lh @ v, atol=1e-10)


@pytest.mark.parametrize("directed", [True, False])
def test_trees(cp, directed):
    from cuarray.scipy.sparse import csgraph
    h = _graph(25, 0.12, 9)
    for name in ("breadth_first_tree", "depth_first_tree"):
        T = getattr(csgraph, name)(_dev(h), 3, directed=directed)
        Th = getattr(scg, name)(h, 3, directed=directed)
        assert T.format == "csr"
        np.testing.assert_allclose(T.toarray().get(), Th.toarray())
    _, p = scg.dijkstra(h, directed=directed, indices=0, return_predecessors=True)
    R = csgraph.reconstruct_path(_dev(h), cp.asarray(p), directed=directed)
    np.testing.assert_allclose(R.toarray().get(),
                               scg.reconstruct_path(h, p, directed=directed).toarray())


def test_conversions_and_dist_matrix(cp):
    from cuarray.scipy import sparse
    from cuarray.scipy.sparse import csgraph
    d = np.array([[0, 2, np.inf, 4], [np.nan, 0, 3, 0], [1, 0, 0, 0], [0, 0, 7, 0]])
    for kw in ({}, {"null_value": np.inf}, {"nan_null": False, "infinity_null": False}):
        G = csgraph.csgraph_from_dense(cp.asarray(d), **kw)
        Gh = scg.csgraph_from_dense(d, **kw)
        assert isinstance(G, sparse.csr_array) and G.nnz == Gh.nnz
        np.testing.assert_array_equal(G.toarray().get(), Gh.toarray())
    A = ssp.csr_matrix((np.array([1., 5, 0, 2, 4]), (np.array([0, 0, 1, 2, 3]),
                                                      np.array([1, 1, 2, 0, 1]))), shape=(4, 4))
    for null in (0, np.inf):
        np.testing.assert_array_equal(_get(csgraph.csgraph_to_dense(_dev(A), null_value=null)),
                                      scg.csgraph_to_dense(A, null_value=null))
    h = _graph(15, 0.25, 11)
    _, p = scg.shortest_path(h, return_predecessors=True)
    np.testing.assert_allclose(_get(csgraph.construct_dist_matrix(_dev(h), cp.asarray(p))),
                               scg.construct_dist_matrix(h, p))
    hs = _graph(15, 0.25, 12, symmetric=True)
    _, p = scg.shortest_path(hs, directed=False, return_predecessors=True)
    np.testing.assert_allclose(
        _get(csgraph.construct_dist_matrix(_dev(hs), cp.asarray(p), directed=False)),
        scg.construct_dist_matrix(hs, p, directed=False))
