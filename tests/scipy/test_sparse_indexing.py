"""Indexing and assignment of cuarray's CSR/CSC matrices and arrays against SciPy's.

Tests taking `cp` run on the GPU and, without one, in the host emulation (conftest.py).
"""
import warnings

import numpy as np
import pytest
import scipy.sparse as ssp

DTYPES = [np.float64, np.float32, np.complex64, np.int32, np.bool_]


def _host(shape, density, dtype, seed, dups=0):
    rng = np.random.default_rng(seed)
    m, n = shape
    k = int(round(density * m * n))
    lin = rng.choice(m * n, size=k, replace=False)
    row, col = lin // n, lin % n
    if dups and k:
        pick = rng.integers(0, k, dups)
        row, col = np.concatenate([row, row[pick]]), np.concatenate([col, col[pick]])
    vals = rng.standard_normal(row.size) * 3 + 0.5
    if np.dtype(dtype).kind == "c":
        vals = vals + 1j * rng.standard_normal(row.size)
    return ssp.coo_matrix((vals.astype(dtype), (row, col)), shape=shape)


def _dev(cp, h, fmt, family="matrix"):
    from cuarray.scipy import sparse
    h = h.tocoo()
    S = sparse.coo_matrix((cp.asarray(h.data), (cp.asarray(h.row), cp.asarray(h.col))),
                          shape=h.shape).asformat(fmt)
    return getattr(sparse, f"{fmt}_{family}")(S) if family == "array" else S


def _dense(x):
    if hasattr(x, "toarray"):
        x = x.toarray()
    if hasattr(x, "get"):
        x = x.get()
    return np.asarray(x)


def _same(got, want):
    w = _dense(want)
    g = _dense(got)
    assert g.shape == w.shape, (g.shape, w.shape)
    np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-6)


KEYS = [
    (2,), (-1,), (slice(1, 7),), (slice(None, None, -2),), (slice(6, 1, -3),),
    ([4, 0, 4, 7],), (np.array([-1, 3]),), (slice(None), 3), (slice(None), -2),
    (slice(None), slice(2, 9, 2)), (slice(None), slice(None, None, -1)),
    (slice(None), [5, 1, 1, 0]), (3, slice(1, 5)), ([1, 5], slice(0, 4)),
    (slice(1, 7, 2), slice(None, None, 3)),
    (slice(2, 8), [0, 9, 3]), (2, 3), (-3, -7), ([1, 2, 7], [0, 4, 9]),
    (np.array([[1], [6]]), [2, 3, 9]),
    (np.array([True, False] * 4),), (slice(None), np.arange(10) % 3 == 0),
    (Ellipsis, 4), (slice(5, 5),), (slice(None), [])]


@pytest.mark.parametrize("fmt", ["csr", "csc"])
@pytest.mark.parametrize("dtype", [np.float64, np.complex64, np.bool_])
def test_getitem_matches_scipy(cp, fmt, dtype):
    h = _host((8, 10), 0.35, dtype, seed=1).asformat(fmt)
    A = _dev(cp, h, fmt)
    for key in KEYS:
        want = h[key]
        got = A[key]
        if ssp.issparse(want):
            assert got.format == fmt, key
            assert got.dtype == want.dtype, key
            assert got.indices.dtype == np.int32
        _same(got, want)


def test_getitem_with_duplicates_and_device_keys(cp):
    h = _host((7, 6), 0.4, np.float64, seed=2, dups=6).tocsr()
    A = _dev(cp, h, "csr")
    rows = cp.asarray(np.array([6, 0, 0, 3], dtype=np.int64))
    _same(A[rows], h[[6, 0, 0, 3]])
    _same(A[:, cp.asarray(np.array([5, 1]))], h[:, [5, 1]])
    _same(A[2, 4], h[2, 4])
    mask = np.random.default_rng(3).random((7, 6)) > 0.5
    _same(A[cp.asarray(mask)], h[mask])
    assert A[1:3].has_canonical_format
    B = A[::-1, ::-1]
    _same(B, h[::-1, ::-1])
    B.sum_duplicates()
    assert B.has_canonical_format
    _same(B, h[::-1, ::-1])


@pytest.mark.parametrize("fmt", ["csr", "csc"])
@pytest.mark.parametrize("idt", [np.int64, np.int32, np.uint16])
def test_device_line_selection(cp, fmt, idt):
    # A[rows] of CSR and A[:, cols] of CSC: the fused check-and-count path
    h = _host((40, 30), 0.3, np.float32, seed=7).asformat(fmt)
    A = _dev(cp, h, fmt)
    n = h.shape[0] if fmt == "csr" else h.shape[1]
    lines = np.random.default_rng(8).integers(0, n, 50).astype(idt)
    if idt != np.uint16:
        lines[::3] -= n                                   # counted from the end
    key = (cp.asarray(lines), slice(None)) if fmt == "csr" else (slice(None), cp.asarray(lines))
    want = h[lines] if fmt == "csr" else h[:, lines]
    got = A[key]
    assert got.format == fmt and got.shape == want.shape
    _same(got, want)
    if fmt == "csr":
        _same(A[cp.asarray(lines)], want)
    empty = cp.asarray(np.zeros(0, dtype=idt))
    assert A[(empty, slice(None)) if fmt == "csr" else (slice(None), empty)].nnz == 0
    bad = lines.copy()
    bad[7] = n + 3
    with pytest.raises(IndexError, match=f"index \\({n + 3}\\) out of range"):
        A[(cp.asarray(bad), slice(None)) if fmt == "csr" else (slice(None), cp.asarray(bad))]


def test_getitem_errors(cp):
    A = _dev(cp, _host((4, 5), 0.5, np.float64, seed=4), "csr")
    for key in [(4, 0), (0, 5), (-5,), ([0, 4],), (slice(None), [7]), (0, 0, 0)]:
        with pytest.raises(IndexError):
            A[key]
    with pytest.raises(IndexError):
        A[np.array([True, False])]
    with pytest.raises(IndexError):
        A[[0, 1], [0, 1, 2]]
    with pytest.raises(IndexError):
        A[1.5]


def test_sparse_array_indexing(cp):
    from cuarray.scipy import sparse
    h = _host((6, 7), 0.4, np.float32, seed=5).tocsr()
    hA = ssp.csr_array(h)
    A = _dev(cp, h, "csr", "array")
    _same(A[[1, 4]], hA[[1, 4]])
    _same(A[1:3, 2:6], hA[1:3, 2:6])
    _same(A[[0, 5], [6, 2]], hA[[0, 5], [6, 2]])
    assert A[[0, 5], [6, 2]].shape == (2,)
    assert type(A[[1, 4]]).__name__ == "csr_array"
    for key in [1, -2, (slice(None), 3), (2, slice(1, 5)), (3, [0, 6, 2]), ([5, 1], 0)]:
        got, want = A[key], hA[key]
        assert got.ndim == want.ndim == 1 and got.shape == want.shape
        assert isinstance(got, sparse.coo_array) and got.format == "coo"
        _same(got, want)


@pytest.mark.parametrize("fmt", ["csr", "csc"])
def test_setitem_matches_scipy(cp, fmt):
    from cuarray.scipy.sparse import SparseEfficiencyWarning
    rng = np.random.default_rng(6)
    h = _host((6, 8), 0.3, np.float64, seed=7).asformat(fmt)
    A = _dev(cp, h, fmt)
    r, c = h.nonzero()
    # Stored positions: no warning, no new entries.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        A[int(r[0]), int(c[0])] = 9.5
        h[int(r[0]), int(c[0])] = 9.5
    assert A.nnz == h.nnz
    _same(A, h)
    cases = [((1, 2), 3.0), ((slice(None), 4), 2.0),
             (([0, 5, 0], [1, 7, 1]), np.array([1., 2., 3.])),
             ((slice(1, 4), slice(2, 8, 3)), rng.standard_normal((3, 2))),
             ((np.array([[0], [3]]), [1, 6]), np.array([[1., 2.], [3., 4.]])),
             ((2,), 0.0), ((slice(None), [0, 2]), rng.standard_normal((6, 1)))]
    for key, val in cases:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ssp.SparseEfficiencyWarning)
            h[key] = val
        dval = cp.asarray(val) if isinstance(val, np.ndarray) else val
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            A[key] = dval
        _same(A, h)
        assert A.nnz == h.nnz, key
        assert A.has_canonical_format
    assert any(issubclass(x.category, SparseEfficiencyWarning) for x in w)
    with pytest.warns(SparseEfficiencyWarning, match=f"{fmt}_matrix is expensive"):
        B = _dev(cp, _host((3, 3), 0.0, np.float64, seed=1), fmt)
        B[1, 1] = 2.0
    _same(B, np.diag([0.0, 2.0, 0.0]))


def test_setitem_mask_and_sparse_values(cp):
    rng = np.random.default_rng(8)
    h = _host((5, 6), 0.4, np.float32, seed=9).tocsr()
    A = _dev(cp, h, "csr")
    mask = rng.random((5, 6)) > 0.6
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        h[mask] = 7
        A[cp.asarray(mask)] = 7
    _same(A, h)
    blk = _host((2, 3), 0.5, np.float32, seed=10).tocsr()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        h[1:3, 0:3] = blk
        A[1:3, 0:3] = _dev(cp, blk, "csr")
    _same(A, h)
    with pytest.raises(ValueError):
        A[0:2, 0:2] = cp.asarray(np.ones((3, 3), np.float32))


def test_row_col_getters(cp):
    h = _host((5, 6), 0.5, np.float64, seed=11).tocsr()
    A = _dev(cp, h, "csr")
    _same(A.getrow(2), h.getrow(2))
    _same(A.getcol(-1), h.getcol(-1))


def test_int64_indices_when_a_dimension_needs_them(cp):
    from cuarray.scipy import sparse
    big = 2 ** 32 + 7
    rows = np.array([0, 1, 1, 3, 2])
    cols = np.array([5, big - 1, 2 ** 31 + 3, 0, big - 1])
    vals = np.arange(1.0, 6.0)
    h = ssp.csr_matrix((vals, (rows, cols)), shape=(4, big))
    A = sparse.csr_matrix((cp.asarray(vals), (cp.asarray(rows), cp.asarray(cols))),
                          shape=(4, big))
    assert A.indices.dtype == np.int64 and A.indptr.dtype == np.int64
    np.testing.assert_array_equal(A.indices.get(), h.indices)
    np.testing.assert_array_equal(A.indptr.get(), h.indptr)
    B = A[1:3]
    assert B.shape == (2, big) and B.indices.dtype == np.int64
    np.testing.assert_array_equal(B.indices.get(), h[1:3].indices)
    np.testing.assert_array_equal(B.data.get(), h[1:3].data)
    assert float(A[1, 2 ** 31 + 3].get()) == 3.0 and float(A[2, big - 1].get()) == 5.0
    assert float(A.T[big - 1, 1].get()) == 2.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        A[3, big - 2] = 9.0
        h[3, big - 2] = 9.0
    A[0, 5] = -1.0
    h[0, 5] = -1.0
    np.testing.assert_array_equal(A.indices.get(), h.indices)
    np.testing.assert_array_equal(A.data.get(), h.data)
    C = A.tocoo()
    assert C.col.dtype == np.int64 and int(C.col.get().max()) == big - 1


def test_coo_array_indexing(cp):
    from cuarray.scipy import sparse
    h = ssp.coo_array(_host((5, 6), 0.4, np.float64, seed=12))
    A = _dev(cp, ssp.coo_matrix(h), "coo", "array")
    B = A[1:4, [0, 5, 2]]
    assert isinstance(B, sparse.coo_array)
    _same(B, h.tocsr()[1:4, [0, 5, 2]])
    _same(A[2, 3], h.tocsr()[2, 3])
    P = A[[0, 4], [1, 5]]
    assert isinstance(P, sparse.coo_array) and P.shape == (2,)
    _same(P, h[[0, 4], [1, 5]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        A[0, 0] = 4.0
        h = h.tocsr()
        h[0, 0] = 4.0
    assert isinstance(A, sparse.coo_array)
    _same(A, h)
    with pytest.raises(TypeError):
        _dev(cp, ssp.coo_matrix(h), "coo")[0:1]


def test_int64_indices_in_other_operations(cp):
    from cuarray.scipy import sparse
    big = 2 ** 32 + 7
    rows, cols = np.array([0, 1, 1, 3]), np.array([5, big - 1, 2 ** 31 + 3, 0])
    vals = np.array([1.0, -2.0, 3.0, 4.0])
    h = ssp.csr_matrix((vals, (rows, cols)), shape=(4, big))
    A = sparse.csr_matrix((cp.asarray(vals), (cp.asarray(rows), cp.asarray(cols))),
                          shape=(4, big))

    def same(got, want):
        g, w = got.tocoo(), want.tocoo()
        assert g.col.dtype == np.int64
        got_t = sorted(zip(g.row.get().tolist(), g.col.get().tolist(), g.data.get().tolist()))
        want_t = sorted(zip(w.row.tolist(), w.col.tolist(), w.data.tolist()))
        assert got_t == want_t

    same(A + A, h + h)
    same(A - A * 2, h - h * 2)
    same(A.multiply(A), h.multiply(h))
    same(abs(A), abs(h))
    same((A > 0).astype(np.float64), (h > 0).astype(np.float64))
    same(A.T.T, h)
    assert float(A.max().get()) == h.max() and float(A.sum().get()) == h.sum()
    C = A.tocoo()
    C.sum_duplicates()
    same(C, h)
