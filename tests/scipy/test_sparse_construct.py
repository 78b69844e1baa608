"""cuarray.scipy.sparse construction functions against SciPy's: kron, kronsum, stacking,
bmat/block_array, block_diag, tril/triu, find, save_npz/load_npz, the *_array
constructors and the matrix/array families of their results.

Tests taking `cp` run on the GPU and, without one, in the host emulation (conftest.py).
"""
import numpy as np
import pytest
import scipy.sparse as ssp


def _host(shape, density, dtype, seed):
    return ssp.random(*shape, density=density, format="coo", dtype=dtype, random_state=seed)


def _dev(cp, h, fmt=None, family="matrix"):
    from cuarray.scipy import sparse
    h = h.tocoo()
    cls = sparse.coo_array if family == "array" else sparse.coo_matrix
    S = cls((cp.asarray(h.data), (cp.asarray(h.row), cp.asarray(h.col))), shape=h.shape)
    return S.asformat(fmt or h.format)


def _same(got, want, rtol=1e-6):
    g = got.toarray() if hasattr(got, "toarray") else got
    w = want.toarray() if ssp.issparse(want) else np.asarray(want)
    g = g.get() if hasattr(g, "get") else np.asarray(g)
    assert g.shape == w.shape
    np.testing.assert_allclose(g, w, rtol=rtol, atol=rtol)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128])
def test_kron_kronsum(cp, dtype):
    from cuarray.scipy import sparse
    a, b = _host((4, 3), 0.5, dtype, 1), _host((2, 5), 0.4, dtype, 2)
    A, B = _dev(cp, a, "csr"), _dev(cp, b, "csc")
    K = sparse.kron(A, B)
    assert K.format == "coo" and K.dtype == np.dtype(dtype) and K.shape == (8, 15)
    _same(K, ssp.kron(a, b))
    _same(sparse.kron(A, B, format="csr"), ssp.kron(a, b))
    _same(sparse.kron(A, cp.asarray(np.eye(2, dtype=dtype))), ssp.kron(a, np.eye(2)))
    s1, s2 = _host((3, 3), 0.5, dtype, 3), _host((4, 4), 0.5, dtype, 4)
    KS = sparse.kronsum(_dev(cp, s1), _dev(cp, s2))
    assert KS.format == "csr"
    _same(KS, ssp.kronsum(s1, s2))
    with pytest.raises(ValueError):
        sparse.kronsum(A, B)


def test_kron_mixed_dtypes_and_empty(cp):
    from cuarray.scipy import sparse
    a = _host((3, 3), 0.5, np.float32, 5)
    b = ssp.coo_matrix(np.array([[0, 2], [1, 0]], dtype=np.int32))
    K = sparse.kron(_dev(cp, a), _dev(cp, b))
    assert K.dtype == np.float64
    _same(K, ssp.kron(a, b))
    E = sparse.kron(_dev(cp, a), sparse.csr_matrix((2, 2)))
    assert E.nnz == 0 and E.shape == (6, 6)


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
def test_hstack_vstack_bmat(cp, fmt):
    from cuarray.scipy import sparse
    a, b, c = (_host((3, 4), 0.4, np.float64, 6), _host((3, 2), 0.5, np.float64, 7),
               _host((2, 4), 0.5, np.float32, 8))
    A, B, C = (_dev(cp, x, fmt) for x in (a, b, c))
    H, Hh = sparse.hstack([A, B]), ssp.hstack([a.asformat(fmt), b.asformat(fmt)])
    assert H.format == Hh.format
    _same(H, Hh)
    V, Vh = sparse.vstack([A, C]), ssp.vstack([a.asformat(fmt), c.asformat(fmt)])
    assert V.format == Vh.format and V.dtype == Vh.dtype
    _same(V, Vh)
    _same(sparse.vstack([A, C], format="csr", dtype=np.float32), ssp.vstack([a, c]))
    M = sparse.bmat([[A, B], [C, None]])
    assert M.format == "coo"
    _same(M, ssp.bmat([[a, b], [c, None]]))
    with pytest.raises(ValueError):
        sparse.bmat([[A, C]])
    with pytest.raises(ValueError):
        sparse.bmat([[A, None], [None, None]])


def test_block_diag_and_block_array(cp):
    from cuarray.scipy import sparse
    a, b = _host((2, 3), 0.6, np.float64, 9), _host((4, 1), 0.6, np.float64, 10)
    d = np.arange(4.0).reshape(2, 2)
    BD = sparse.block_diag([_dev(cp, a), _dev(cp, b), cp.asarray(d)])
    _same(BD, ssp.block_diag([a, b, d]))
    assert BD.format == "coo" and sparse.isspmatrix(BD)
    BA = sparse.block_array([[_dev(cp, a), None], [None, _dev(cp, b)]], format="csr")
    assert isinstance(BA, sparse.csr_array) and not sparse.isspmatrix(BA)
    _same(BA, ssp.block_array([[a, None], [None, b]]))


@pytest.mark.parametrize("k", [0, 1, -2])
def test_tril_triu_find(cp, k):
    from cuarray.scipy import sparse
    h = _host((6, 5), 0.6, np.float64, 11).tocsr()
    A = _dev(cp, h, "csr")
    L, U = sparse.tril(A, k), sparse.triu(A, k, format="csr")
    assert L.format == "coo" and U.format == "csr"
    _same(L, ssp.tril(h, k))
    _same(U, ssp.triu(h, k))
    h2 = h.copy()
    h2.data[::3] = 0
    r, c, v = sparse.find(_dev(cp, h2, "csr"))
    rh, ch, vh = ssp.find(h2)
    order = np.lexsort((ch, rh))
    np.testing.assert_array_equal(r.get(), rh[order])
    np.testing.assert_array_equal(c.get(), ch[order])
    np.testing.assert_allclose(v.get(), vh[order])


def test_array_family_results(cp):
    from cuarray.scipy import sparse
    h = _host((3, 3), 0.5, np.float64, 12)
    A, M = _dev(cp, h, "csr", "array"), _dev(cp, h, "csr")
    assert isinstance(sparse.hstack([A, M]), sparse.sparray)
    assert isinstance(sparse.kron(M, A), sparse.coo_array)
    assert isinstance(sparse.tril(A), sparse.coo_array)
    assert isinstance(sparse.eye_array(3), sparse.dia_array)
    E = sparse.eye_array(3, 4, k=1, format="csr")
    assert isinstance(E, sparse.csr_array)
    _same(E, ssp.eye_array(3, 4, k=1))
    D = sparse.diags_array([cp.asarray(np.array([1, 2, 3])), cp.asarray(np.array([4, 5]))],
                           dtype=None,
                           offsets=[0, 1])
    assert D.dtype == np.int64 and isinstance(D, sparse.dia_array)
    _same(D, ssp.diags_array([np.array([1, 2, 3]), np.array([4, 5])], offsets=[0, 1], dtype=None))


def test_save_load_npz(cp, tmp_path):
    from cuarray.scipy import sparse
    h = _host((5, 4), 0.5, np.float32, 13)
    for fmt in ("csr", "csc", "coo", "dia"):
        for family in ("matrix", "array"):
            A = _dev(cp, h, fmt, family)
            path = tmp_path / f"{fmt}_{family}.npz"
            sparse.save_npz(path, A)
            back = ssp.load_npz(path)
            assert back.format == fmt and ssp.issparse(back)
            assert isinstance(back, ssp.sparray) == (family == "array")
            _same(A, back)
            B = sparse.load_npz(path)
            assert type(B) is type(A)
            _same(B, h)
    ssp.save_npz(tmp_path / "scipy.npz", h.tocsc())
    C = sparse.load_npz(tmp_path / "scipy.npz")
    assert C.format == "csc" and sparse.isspmatrix(C)
    _same(C, h)


@pytest.mark.parametrize("fmt", ["coo", "csr"])
def test_random_array(cp, fmt):
    from cuarray.scipy import sparse
    A = sparse.random_array((40, 30), density=0.1, format=fmt, dtype=np.float32,
                            random_state=3)
    assert isinstance(A, sparse.sparray) and A.format == fmt and A.dtype == np.float32
    assert A.shape == (40, 30) and A.nnz == 120
    d = A.toarray().get()
    assert np.count_nonzero(d) == 120 and d.min() >= 0 and d.max() < 1
    B = sparse.random_array((40, 30), density=0.1, format=fmt, dtype=np.float32,
                            random_state=3)
    np.testing.assert_array_equal(B.toarray().get(), d)
    C = sparse.random_array((5, 6), density=0.5, data_sampler=lambda size: cp.ones(size),
                            random_state=1)
    np.testing.assert_array_equal(np.unique(C.toarray().get()), [0.0, 1.0])
    with pytest.raises(ValueError):
        sparse.random_array((3, 3), density=1.5)
    R = round(_dev(cp, _host((4, 4), 0.5, np.float64, 14)) * 10)
    np.testing.assert_allclose(R.toarray().get(),
                               np.round(_host((4, 4), 0.5, np.float64, 14).toarray() * 10))
