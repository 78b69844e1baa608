"""Methods of cuarray's sparse matrices and arrays against SciPy's: comparisons, maximum
and minimum, max/min/argmax/argmin, ufunc methods, setdiag, resize, reshape, trace,
nonzero, and the sparse-array operator semantics (`*`, `**`, axis sums).

Tests taking `cp` run on the GPU and, without one, in the host emulation (conftest.py).
"""
import warnings

import numpy as np
import pytest
import scipy.sparse as ssp


def _host(shape, density, dtype, seed, dups=0):
    rng = np.random.default_rng(seed)
    m, n = shape
    k = int(round(density * m * n))
    lin = rng.choice(m * n, size=k, replace=False)
    row, col = lin // n, lin % n
    if dups and k:
        pick = rng.integers(0, k, dups)
        row, col = np.concatenate([row, row[pick]]), np.concatenate([col, col[pick]])
    vals = np.round(rng.standard_normal(row.size) * 3)
    return ssp.coo_matrix((vals.astype(dtype), (row, col)), shape=shape)


def _dev(cp, h, fmt, family="matrix"):
    from cuarray.scipy import sparse
    h = h.tocoo()
    cls = sparse.coo_array if family == "array" else sparse.coo_matrix
    return cls((cp.asarray(h.data), (cp.asarray(h.row), cp.asarray(h.col))),
               shape=h.shape).asformat(fmt)


def _np(x):
    if hasattr(x, "toarray"):
        x = x.toarray()
    if hasattr(x, "get"):
        x = x.get()
    return np.asarray(x)


def _same(got, want):
    g, w = _np(got), _np(want)
    assert g.shape == w.shape, (g.shape, w.shape)
    np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
def test_comparisons(cp, fmt):
    from cuarray.scipy.sparse import SparseEfficiencyWarning
    a, b = _host((5, 6), 0.4, np.float64, 1, dups=3), _host((5, 6), 0.4, np.float64, 2)
    A, B = _dev(cp, a, fmt), _dev(cp, b, fmt)
    ah, bh = a.tocsr(), b.tocsr()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ssp.SparseEfficiencyWarning)
        for op in ["__eq__", "__ne__", "__lt__", "__gt__", "__le__", "__ge__"]:
            for other, oh in [(1.0, 1.0), (-1.0, -1.0), (0, 0), (B, bh)]:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", SparseEfficiencyWarning)
                    got = getattr(A, op)(other)
                want = getattr(ah, op)(oh)
                assert got.dtype == np.bool_ and got.format == ("csc" if fmt == "csc" else "csr")
                _same(got, want)
    with pytest.warns(SparseEfficiencyWarning, match="using == is inefficient"):
        A == 0
    dense = np.random.default_rng(3).standard_normal((5, 6))
    got = A < cp.asarray(dense)
    assert not hasattr(got, "format")
    _same(got, ah < dense)


def test_maximum_minimum(cp):
    from cuarray.scipy.sparse import SparseEfficiencyWarning
    a, b = _host((4, 7), 0.5, np.float32, 4), _host((4, 7), 0.3, np.float64, 5)
    A, B = _dev(cp, a, "csr"), _dev(cp, b, "csc")
    _same(A.maximum(B), a.maximum(b))
    _same(A.minimum(B), a.minimum(b))
    assert A.maximum(B).dtype == np.float64
    _same(A.maximum(-1.0), a.maximum(-1.0))
    _same(A.minimum(1.0), a.minimum(1.0))
    with pytest.warns(SparseEfficiencyWarning, match="positive number"):
        M = A.maximum(2.0)
    _same(M, a.maximum(2.0))
    dense = np.random.default_rng(6).standard_normal((4, 7))
    _same(A.minimum(cp.asarray(dense)), a.minimum(dense))


@pytest.mark.parametrize("dtype", [np.float64, np.int32])
@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
def test_max_min_argmax_argmin(cp, dtype, fmt):
    for seed, density in [(7, 0.3), (8, 1.0)]:
        h = _host((6, 5), density, dtype, seed, dups=2 if density < 1 else 0)
        hc = h.tocsr()
        A = _dev(cp, h, fmt)
        for name in ("max", "min"):
            assert _np(getattr(A, name)()) == getattr(hc, name)()
            for axis in (0, 1, -1):
                got, want = getattr(A, name)(axis=axis), getattr(hc, name)(axis=axis)
                assert got.format == "coo"
                _same(got, want)
            _same(getattr(A, name)(axis=0, explicit=True),
                  getattr(hc, name)(axis=0, explicit=True))
        for name in ("argmax", "argmin"):
            assert int(_np(getattr(A, name)())) == getattr(hc, name)()
            for axis in (0, 1):
                _same(getattr(A, name)(axis=axis), getattr(hc, name)(axis=axis))
    with pytest.raises(ValueError):
        _dev(cp, ssp.coo_matrix((0, 3)), "csr").max()
    with pytest.raises(ValueError):
        A.max(axis=2)


def test_argmax_first_implicit_zero(cp):
    h = ssp.csr_matrix(np.array([[-1.0, 0, -2], [-3, -4, 0], [0, -1, -1]]))
    h.eliminate_zeros()
    A = _dev(cp, h, "csr")
    assert int(_np(A.argmax())) == h.argmax() == 1
    _same(A.argmax(axis=1), h.argmax(axis=1))
    _same(A.argmax(axis=0), h.argmax(axis=0))


@pytest.mark.parametrize("name", ["sqrt", "sin", "expm1", "floor", "sign", "rint", "tanh",
                                  "deg2rad", "log1p", "arctan"])
def test_ufunc_methods(cp, name):
    h = _host((4, 5), 0.5, np.float64, 9, dups=2)
    h.data = np.abs(h.data) / 4
    for fmt in ("csr", "coo"):
        A = _dev(cp, h, fmt)
        got, want = getattr(A, name)(), getattr(h.asformat(fmt), name)()
        assert got.format == fmt and got.dtype == want.dtype
        _same(got, want)
    hi = _host((3, 3), 0.5, np.int32, 10)
    got = _dev(cp, hi, "csr").sqrt()
    assert got.dtype == hi.sqrt().dtype
    _same(abs(got), abs(hi.sqrt()))


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
def test_setdiag_resize_reshape(cp, fmt):
    h = _host((5, 4), 0.4, np.float64, 11).asformat(fmt)
    for values, k in [(7.0, 0), ([1.0, 2.0], 1), (np.arange(5.0), -1)]:
        A = _dev(cp, h, fmt)
        H = h.copy()
        H.setdiag(values, k)
        A.setdiag(cp.asarray(np.asarray(values)) if isinstance(values, (list, np.ndarray))
                  else values, k)
        assert A.format == fmt
        _same(A, H)
    with pytest.raises(ValueError):
        _dev(cp, h, fmt).setdiag(1.0, 4)
    A = _dev(cp, h, fmt)
    A.resize((3, 6))
    H = h.copy()
    H.resize((3, 6))
    assert A.shape == (3, 6) and A.format == fmt
    _same(A, H)
    A = _dev(cp, h, fmt)
    for shape, order in [((2, 10), "C"), ((10, 2), "F"), ((4, -1), "C")]:
        _same(A.reshape(shape, order=order), h.reshape(shape, order=order))
    with pytest.raises(ValueError):
        A.reshape((3, 3))
    assert float(_np(A.trace())) == pytest.approx(h.trace())
    r, c = A.nonzero()
    rh, ch = h.nonzero()
    assert sorted(zip(_np(r).tolist(), _np(c).tolist())) == sorted(zip(rh.tolist(), ch.tolist()))


def test_sparse_array_semantics(cp):
    from cuarray.scipy import sparse
    a, b = _host((4, 4), 0.5, np.float64, 12), _host((4, 4), 0.5, np.float64, 13)
    A, B = _dev(cp, a, "csr", "array"), _dev(cp, b, "csr", "array")
    ha, hb = ssp.csr_array(a), ssp.csr_array(b)
    assert isinstance(A, sparse.sparray) and not sparse.isspmatrix(A) and sparse.issparse(A)
    assert not sparse.isspmatrix_csr(A) and sparse.isspmatrix_csr(_dev(cp, a, "csr"))
    _same(A * B, ha * hb)
    assert isinstance(A * B, sparse.csr_array)
    _same(A ** 2, ha ** 2)
    _same(A @ B, ha @ hb)
    assert A.sum(axis=0).shape == (4,) and A.sum(axis=1).shape == (4,)
    _same(A.sum(axis=0), ha.sum(axis=0))
    M = _dev(cp, a, "csr")
    _same(M * M, a @ a)
    _same(M ** 3, a ** 3)
    assert M.sum(axis=0).shape == (1, 4)
    x = np.random.default_rng(14).standard_normal(4)
    _same(cp.asarray(x) @ A, x @ ha)
    _same(A.argmax(axis=0), ha.argmax(axis=0))
    assert isinstance(A.T, sparse.csc_array) and isinstance(A.tocoo(), sparse.coo_array)
    assert isinstance(A.todia(), sparse.dia_array)


def test_division(cp):
    h = _host((4, 5), 0.5, np.float64, 15)
    A = _dev(cp, h, "csr")
    dense = np.random.default_rng(16).uniform(1, 2, (4, 5))
    got = A / cp.asarray(dense)
    want = h.tocsr() / dense
    assert got.format == want.format == "coo"
    _same(got, want)
    _same(A / cp.asarray(dense[0]), h.tocsr() / dense[0])
    with pytest.raises(TypeError):
        cp.asarray(dense) / A
    with pytest.raises(TypeError):
        2 / A
    _same(A / 4, h / 4)


FORMAT_OPS = ["A+B", "A-B", "A@B", "A.multiply(B)", "A.multiply(D)", "A.maximum(B)",
              "A.minimum(0.5)", "A==B", "A!=0.5", "abs(A)", "-A", "A*2", "A/2", "A.T",
              "A.conj()", "A.power(2)", "A.sqrt()", "A.astype(np.float32)", "A.getH()",
              "A.copy()", "A.reshape((6,6))", "A.real", "A.imag", "A/D", "A.multiply(2)"]


@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.complex64])
@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "dia"])
def test_result_formats_match_scipy(cp, fmt, dtype):
    a, b = _host((6, 6), 0.5, dtype, 17), _host((6, 6), 0.5, dtype, 18)
    if np.dtype(dtype).kind == "c":
        a.data = a.data + 1j * a.data[::-1]
    d = np.random.default_rng(19).uniform(1, 2, (6, 6))
    env_h = {"A": a.asformat(fmt), "B": b.asformat(fmt), "D": d, "np": np}
    env_d = {"A": _dev(cp, a, fmt), "B": _dev(cp, b, fmt), "D": cp.asarray(d), "np": np}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for expr in FORMAT_OPS:
            want, got = eval(expr, env_h), eval(expr, env_d)
            if ssp.issparse(want):
                assert got.format == want.format, (expr, got.format, want.format)
                assert got.dtype == want.dtype, (expr, got.dtype, want.dtype)
            _same(got, want)


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "dia"])
def test_get_keeps_family(cp, fmt):
    h = _host((4, 5), 0.5, np.float32, 20)
    for family, cls in (("matrix", ssp.spmatrix), ("array", ssp.sparray)):
        got = _dev(cp, h, fmt, family).get()
        assert isinstance(got, cls) and got.format == fmt and got.dtype == np.float32
        np.testing.assert_array_equal(got.toarray(), h.toarray())


def test_asfptype(cp):
    for dtype in (np.int8, np.int32, np.int64, np.bool_, np.float32, np.complex64):
        h = _host((3, 3), 0.5, dtype, 21)
        got, want = _dev(cp, h, "csr").asfptype(), h.tocsr().asfptype()
        assert got.dtype == want.dtype
        _same(got, want)


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "dia"])
def test_printing_arrays(cp, fmt):
    h = _host((3, 4), 0.5, np.float32, 23)
    hA = getattr(ssp, f"{fmt}_array")(h.asformat(fmt))
    A = _dev(cp, h, fmt, "array")
    assert repr(A) == repr(hA)
    assert str(A) == str(hA)


def test_operators_give_way_to_unknown_types(cp):
    class Other:
        def __rmatmul__(self, o):
            return "rmatmul"

        def __rmul__(self, o):
            return "rmul"

    h = _host((3, 3), 0.5, np.float64, 24)
    for family in ("matrix", "array"):
        A = _dev(cp, h, "csr", family)
        assert A @ Other() == "rmatmul" and A * Other() == "rmul"
    with pytest.raises(TypeError, match="cuarray.asarray"):
        _dev(cp, h, "csr") @ np.ones(3)


@pytest.mark.parametrize("dtype", [np.float64, np.complex64, np.int32, np.bool_])
def test_sparse_products_row_sorted_and_general_paths(cp, dtype):
    from cuarray.scipy.sparse import _spgemm
    a, b = _host((30, 20), 0.2, dtype, 25), _host((20, 25), 0.2, dtype, 26)
    if np.dtype(dtype).kind == "c":
        a.data = a.data + 1j
    A, B = _dev(cp, a, "csr"), _dev(cp, b, "csc")
    want = (a.tocsr() @ b.tocsr())
    assert _spgemm.matmul(A, B.tocsr(), want.dtype) is not None  # the row-sorted path
    got = A @ B
    assert got.format == "csr" and got.dtype == want.dtype and got.has_canonical_format
    _same(got, want)
    want.eliminate_zeros()
    assert got.nnz == want.nnz
    # a row of more than SMALL_N products sends the product to the general path
    skew = ssp.vstack([ssp.csr_matrix(np.ones((1, 60), dtype)),
                       _host((5, 60), 0.1, dtype, 27).tocsr()]).tocsr()
    wide = ssp.csr_matrix(np.ones((60, 50), dtype))
    S, W = _dev(cp, skew, "csr"), _dev(cp, wide, "csr")
    assert _spgemm.matmul(S, W, (skew @ wide).dtype) is None
    _same(S @ W, skew @ wide)
    # exact cancellation leaves no stored zero, as SciPy
    x = ssp.csr_matrix(np.array([[1, 1], [0, 2]], dtype=np.float64))
    y = ssp.csr_matrix(np.array([[1, 0], [-1, 3]], dtype=np.float64))
    P = _dev(cp, x, "csr") @ _dev(cp, y, "csr")
    assert P.nnz == (x @ y).nnz == 3
    _same(P, x @ y)


def test_nan_extremes(cp):
    import warnings as w
    d = np.array([[np.nan, 2.0, 0, -1], [0, np.nan, 3.0, 1.0], [np.nan, np.nan, np.nan, np.nan],
                  [5.0, 0, 0, 0]])
    h = ssp.csr_matrix(d)
    A = _dev(cp, h, "csr")
    with w.catch_warnings():
        w.simplefilter("ignore")
        for name in ("max", "min", "nanmax", "nanmin"):
            np.testing.assert_array_equal(_np(getattr(A, name)()), getattr(h, name)())
            for axis in (0, 1):
                _same_nan = np.testing.assert_array_equal
                _same_nan(_np(getattr(A, name)(axis=axis)), _np(getattr(h, name)(axis=axis)))
        # argmax/argmin with NaN: the first NaN, as NumPy's argmax of the dense matrix
        # (SciPy's sparse argmax orders NaN its own way).
        assert int(_np(A.argmax())) == np.argmax(d) == 0


def test_check_format_set_shape_rows_of_other_formats(cp):
    from cuarray.scipy import sparse
    h = _host((4, 6), 0.5, np.float64, 28)
    A = _dev(cp, h, "csr")
    A.check_format()
    bad = sparse.csr_matrix((A.data, A.indices, A.indptr), shape=(4, 6))
    bad.indices = bad.indices + 6
    with pytest.raises(ValueError, match="column index"):
        bad.check_format()
    M = _dev(cp, h, "coo")
    M.set_shape((6, 4))
    H = h.copy()
    H.set_shape((6, 4))
    assert M.shape == (6, 4)
    _same(M, H)
    for fmt in ("coo", "dia"):
        _same(_dev(cp, h, fmt).getrow(2), h.tocsr().getrow(2))
        _same(_dev(cp, h, fmt).getcol(-1), h.tocsr().getcol(-1))
