"""1-D sparse COO arrays against SciPy's: construction, integer indexing of sparse arrays,
arithmetic, products, reductions, conversions and printing.

Tests taking `cp` run on the GPU and, without one, in the host emulation (conftest.py).
"""
import warnings

import numpy as np
import pytest
import scipy.sparse as ssp


def _np(x):
    if hasattr(x, "toarray"):
        x = x.toarray()
    if hasattr(x, "get"):
        x = x.get()
    return np.asarray(x)


def _pair(cp, seed=0, n=9, dtype=np.float64):
    rng = np.random.default_rng(seed)
    d = np.where(rng.random(n) > 0.5, np.round(rng.standard_normal(n) * 3), 0).astype(dtype)
    from cuarray.scipy import sparse
    return sparse.coo_array(cp.asarray(d)), ssp.coo_array(d), d


def test_construction(cp):
    from cuarray.scipy import sparse
    A, h, d = _pair(cp, 1)
    assert A.ndim == 1 and A.shape == h.shape and A.nnz == h.nnz and A.format == "coo"
    assert isinstance(A, sparse.coo_array) and sparse.issparse(A) and not sparse.isspmatrix(A)
    np.testing.assert_array_equal(_np(A), d)
    np.testing.assert_array_equal(A.coords[0].get(), h.coords[0])
    B = sparse.coo_array((cp.asarray(np.array([1.0, 2.0, 5.0])),
                          (cp.asarray(np.array([4, 0, 4])),)), shape=(6,))
    Bh = ssp.coo_array((np.array([1.0, 2.0, 5.0]), (np.array([4, 0, 4]),)), shape=(6,))
    np.testing.assert_array_equal(_np(B), Bh.toarray())
    E = sparse.coo_array((5,))
    assert E.shape == (5,) and E.nnz == 0
    C = sparse.coo_array(A, dtype=np.float32)
    assert C.shape == (9,) and C.dtype == np.float32
    np.testing.assert_array_equal(_np(C), d.astype(np.float32))
    g = A.get()
    assert isinstance(g, ssp.coo_array) and g.shape == (9,)
    np.testing.assert_array_equal(g.toarray(), d)
    assert repr(A) == repr(h) and str(A) == str(h)


def test_arithmetic_and_reductions(cp):
    A, h, d = _pair(cp, 2)
    B, hb, db = _pair(cp, 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for got, want in [(A * 2, h * 2), (-A, -h), (abs(A), abs(h)), (A + B, h + hb),
                          (A - B, h - hb), (A.multiply(B), h.multiply(hb)), (A * B, h * hb),
                          (A / 2, h / 2), (A.maximum(B), h.maximum(hb)), (A == B, h == hb),
                          (A > 0, h > 0), (A ** 2, h ** 2), (abs(A).sqrt(), abs(h).sqrt())]:
            assert _np(got).shape == (9,) and got.ndim == 1
            np.testing.assert_allclose(_np(got), _np(want))
    x = np.arange(9.0)
    assert float((A @ cp.asarray(x)).get()) == pytest.approx(h @ x)
    X = np.arange(27.0).reshape(9, 3)
    np.testing.assert_allclose(_np(A @ cp.asarray(X)), h @ X)
    np.testing.assert_allclose(_np(cp.asarray(x) @ A), x @ h.toarray())
    assert float(A.sum().get()) == pytest.approx(h.sum())
    for name in ("max", "min", "argmax", "argmin"):
        assert float(_np(getattr(A, name)())) == getattr(h, name)()
        assert float(_np(getattr(A, name)(axis=0))) == getattr(h, name)(axis=0)
    assert A.count_nonzero() == h.count_nonzero()
    np.testing.assert_array_equal(A.nonzero()[0].get(), h.nonzero()[0])


def test_conversions_and_errors(cp):
    A, h, d = _pair(cp, 4, n=8)
    R = A.reshape((2, 4))
    assert R.shape == (2, 4)
    np.testing.assert_array_equal(_np(R), d.reshape(2, 4))
    assert A.T.shape == (8,) and A.reshape(-1).shape == (8,)
    assert A.astype(np.float32).dtype == np.float32
    with pytest.raises(TypeError, match="1-D"):
        A.tocsr()
    with pytest.raises(TypeError):
        A.setdiag(1)
    with pytest.raises(ValueError):
        A.max(axis=1)
    got = A[2:6]
    np.testing.assert_array_equal(_np(got), d[2:6])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        A[[1, 3]] = 7.0
    d[[1, 3]] = 7.0
    np.testing.assert_array_equal(_np(A), d)
    assert A.shape == (8,)


def test_array_axis_extremes_are_1d(cp):
    from cuarray.scipy import sparse
    h = ssp.random(5, 7, density=0.4, random_state=5, format="csr")
    h.data -= 0.5
    A = sparse.csr_array(sparse.csr_matrix(h))
    hA = ssp.csr_array(h)
    for name in ("max", "min"):
        for axis in (0, 1):
            got, want = getattr(A, name)(axis=axis), getattr(hA, name)(axis=axis)
            assert got.ndim == want.ndim == 1 and isinstance(got, sparse.coo_array)
            np.testing.assert_allclose(_np(got), want.toarray())
