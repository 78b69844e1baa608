"""cuarray.scipy.sparse against scipy.sparse: construction, conversions, canonical form,
products, arithmetic, reductions, printing, construction helpers, and sparse.linalg.

Tests taking `cp` run on the GPU and, without one, in the host emulation (see
conftest.py); `gpu_cp` tests need cuSPARSE or cuSOLVER and run on a GPU only.
"""
import warnings

import numpy as np
import pytest
import scipy.sparse as ssp
import scipy.sparse.linalg as sspla

from cuarray.scipy.sparse import _base
from cuarray.scipy.sparse._kernels import index_dtype

DTYPES = [np.float32, np.float64, np.complex64, np.complex128, np.int32, np.int8, np.bool_]


def _random_coo(shape, density, dtype, seed=0, dups=0):
    rng = np.random.default_rng(seed)
    m, n = shape
    k = int(round(density * m * n))
    lin = rng.choice(m * n, size=k, replace=False) if m * n else np.zeros(0, int)
    row, col = lin // max(n, 1), lin % max(n, 1)
    if dups and k:
        pick = rng.integers(0, k, dups)
        row, col = np.concatenate([row, row[pick]]), np.concatenate([col, col[pick]])
    vals = rng.standard_normal(row.size) * 3
    if np.dtype(dtype).kind == "c":
        vals = vals + 1j * rng.standard_normal(row.size)
    vals = vals.astype(dtype)
    return ssp.coo_matrix((vals, (row, col)), shape=shape)


def _dev_coo(cp, h, fmt="coo"):
    from cuarray.scipy import sparse
    S = sparse.coo_matrix((cp.asarray(h.data), (cp.asarray(h.row), cp.asarray(h.col))),
                          shape=h.shape)
    return S.asformat(fmt)


def _close(a, b, dtype=np.float64):
    a = a.get() if hasattr(a, "get") else a
    b = b.toarray() if ssp.issparse(b) else np.asarray(b)
    rtol = 1e-5 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-12
    np.testing.assert_allclose(a, b, rtol=rtol, atol=rtol)


# ---- pure rules (no device) -----------------------------------------------------------------

def test_dtype_rules_and_messages():
    for c in "?bBhHiIlLqQfdFD":
        assert _base.check_dtype(c) == np.dtype(c)
    for bad in (np.float16, np.dtype("U3"), object):
        with pytest.raises(ValueError, match="scipy.sparse does not support dtype"):
            _base.check_dtype(bad)
    assert _base.sum_dtype(np.dtype(np.int8)) == np.dtype(np.int_)
    assert _base.sum_dtype(np.dtype(np.uint16)) == np.dtype(np.uint)
    assert _base.sum_dtype(np.dtype(np.float32)) == np.dtype(np.float32)


def test_shape_rules():
    assert _base.isshape((3, 4)) and not _base.isshape((3,)) and not _base.isshape((3, -1))
    assert not _base.isshape((True, 2)) and not _base.isshape([3, 4])
    assert _base.check_shape((np.int64(2), 3)) == (2, 3)
    with pytest.raises(ValueError):
        _base.check_shape((2, 3, 4))
    with pytest.raises(ValueError):
        _base.check_shape((2, -3))


def test_index_dtype():
    assert index_dtype(10, 20) == np.int32
    assert index_dtype(2**31 - 1) == np.int32
    assert index_dtype(2**31) == np.int64


def test_scalar_and_type_errors_need_no_device():
    from cuarray.scipy import sparse
    assert not sparse.issparse(np.eye(2)) and not sparse.isspmatrix_csr(None)
    with pytest.raises(TypeError):
        sparse.coo_matrix(object())
    with pytest.raises(ValueError):
        sparse.csr_matrix(("a", "b", "c", "d"))


def test_ndarray_operators_defer_to_sparse():
    """ndarray's forward binary operators return NotImplemented for operands with a higher
    __array_priority__ (sparse matrices), as NumPy's do; reflected and in-place ones don't."""
    import operator
    from cuarray import ndarray
    from cuarray.scipy import sparse

    class Other:
        __array_priority__ = sparse.csr_matrix.__array_priority__

        def __radd__(self, o):
            return "radd"

        def __rmatmul__(self, o):
            return "rmatmul"

    a = object.__new__(ndarray)  # no device memory: giving way happens before any work
    assert a + Other() == "radd" and a @ Other() == "rmatmul"
    for name in ("add", "sub", "mul", "truediv", "floordiv", "mod", "divmod", "pow",
                 "matmul", "and", "or", "xor", "lshift", "rshift"):
        for cls in (sparse.csr_matrix, sparse.csc_matrix, sparse.coo_matrix, sparse.dia_matrix):
            assert getattr(ndarray, f"__{name}__")(a, object.__new__(cls)) is NotImplemented
    with pytest.raises(TypeError, match="unsupported operand"):
        operator.floordiv(a, Other())
    from cuarray._core.ndarray import _defer
    for x in (a, 2, 2.5, 1j, True, np.float64(2), np.int8(1), np.ones(2), None, "s"):
        assert not _defer(x)  # these still reach cuarray's ufuncs (and their errors)


# ---- the tutorial's example -----------------------------------------------------------------

def test_tutorial_sparse_dot(cp):
    from cuarray.scipy import sparse
    rows = cp.array([0, 0, 1, 2, 2, 2])
    cols = cp.array([0, 2, 2, 0, 1, 2])
    vals = cp.array([1, 2, 3, 4, 5, 6], dtype=cp.float32)
    S = sparse.coo_matrix((vals, (rows, cols)), shape=(3, 3)).tocsr()
    d = S.dot(cp.array([1, 2, 3], dtype=cp.float32))
    assert d.dtype == np.float32 and d.shape == (3,)
    assert d.get().tolist() == [7.0, 9.0, 32.0]
    assert str(d) == "[ 7.  9. 32.]"
    h = ssp.coo_matrix(([1, 2, 3, 4, 5, 6], ([0, 0, 1, 2, 2, 2], [0, 2, 2, 0, 1, 2])),
                       shape=(3, 3), dtype=np.float32).tocsr()
    assert str(S) == str(h) and repr(S) == repr(h)


# ---- construction and conversion ------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
def test_coo_to_csr_csc_sums_duplicates(cp, dtype):
    h = _random_coo((9, 7), 0.3, dtype, dups=5)
    S = _dev_coo(cp, h)
    assert S.dtype == np.dtype(dtype) and S.shape == (9, 7) and S.nnz == h.nnz
    for fmt in ("csr", "csc"):
        C, Ch = S.asformat(fmt), h.asformat(fmt)
        assert C.format == fmt and C.nnz == Ch.nnz
        np.testing.assert_array_equal(C.indptr.get(), Ch.indptr)
        np.testing.assert_array_equal(C.indices.get(), Ch.indices)
        _close(C.data, Ch.data, dtype)
        assert C.indices.dtype == np.int32 and C.indptr.dtype == np.int32
        assert C.has_canonical_format
    _close(S.toarray(), h.toarray(), dtype)


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
def test_from_dense_host_and_sparse(cp, fmt):
    from cuarray.scipy import sparse
    cls = getattr(sparse, f"{fmt}_matrix")
    D = np.array([[0, 1.5, 0], [2, 0, 0], [0, 0, 0], [0, 3, 4]], dtype=np.float32)
    A = cls(cp.asarray(D))
    Ah = getattr(ssp, f"{fmt}_matrix")(D)
    assert A.nnz == 4 and A.dtype == np.float32 and A.shape == (4, 3)
    assert str(A) == str(Ah)
    _close(A.toarray(), D, np.float32)
    _close(cls(Ah).toarray(), D, np.float32)                # from SciPy's, on the host
    _close(cls(sparse.csr_matrix(cp.asarray(D))).toarray(), D, np.float32)
    B = cls(cp.asarray(D), dtype=np.float64)
    assert B.dtype == np.float64
    _close(cls(cp.asarray(D[0])).toarray(), D[:1], np.float32)  # 1-D: one row
    E = cls((3, 5), dtype=np.complex64)
    assert E.shape == (3, 5) and E.nnz == 0 and E.dtype == np.complex64
    assert E.toarray().get().tolist() == np.zeros((3, 5)).tolist()
    assert repr(E) == repr(getattr(ssp, f"{fmt}_matrix")((3, 5), dtype=np.complex64))


def test_csr_from_arrays_and_checks(cp):
    from cuarray.scipy import sparse
    data, indices, indptr = cp.asarray([1., 2, 3]), cp.asarray([2, 0, 1]), cp.asarray([0, 2, 3])
    A = sparse.csr_matrix((data, indices, indptr), shape=(2, 3))
    Ah = ssp.csr_matrix(([1., 2, 3], [2, 0, 1], [0, 2, 3]), shape=(2, 3))
    _close(A.toarray(), Ah.toarray())
    assert A.indices.dtype == np.int32
    assert not A.has_canonical_format and not A.has_sorted_indices
    A.sort_indices()
    assert A.indices.get().tolist() == [0, 2, 1] and A.data.get().tolist() == [2, 1, 3]
    assert A.has_sorted_indices
    assert sparse.csr_matrix((data, cp.asarray([0, 2, 1]), indptr)).has_canonical_format
    assert sparse.csr_matrix((data, indices, indptr)).shape == (2, 3)  # inferred
    with pytest.raises(ValueError, match="index pointer size"):
        sparse.csr_matrix((data, indices, cp.asarray([0, 3])), shape=(2, 3))
    with pytest.raises(ValueError, match="same size"):
        sparse.csr_matrix((data, indices[:2], indptr), shape=(2, 3))
    with pytest.raises(ValueError, match="same length"):
        sparse.coo_matrix((data, (indices, indices[:2])), shape=(3, 3))
    with pytest.raises(ValueError, match="cannot infer dimensions"):
        sparse.coo_matrix((data[:0], (indices[:0], indices[:0])))
    with pytest.raises(ValueError, match="float16"):
        sparse.csr_matrix(cp.asarray(np.eye(2, dtype=np.float16)))
    with pytest.raises(TypeError, match="expected dimension <= 2"):
        sparse.csr_matrix(cp.zeros((2, 2, 2)))


def test_inferred_coo_shape(cp):
    from cuarray.scipy import sparse
    S = sparse.coo_matrix((cp.asarray([1., 2]), (cp.asarray([0, 4]), cp.asarray([3, 1]))))
    assert S.shape == (5, 4)


def test_csr_with_duplicates_and_unsorted(cp):
    from cuarray.scipy import sparse
    # row 0 holds column 2 twice and unsorted columns
    data = cp.asarray([1., 2, 3, 4, 5])
    indices = cp.asarray([2, 0, 2, 1, 0])
    indptr = cp.asarray([0, 3, 5])
    A = sparse.csr_matrix((data, indices, indptr), shape=(2, 3))
    Ah = ssp.csr_matrix(([1., 2, 3, 4, 5], [2, 0, 2, 1, 0], [0, 3, 5]), shape=(2, 3))
    _close(A.toarray(), Ah.toarray())
    _close(A @ cp.asarray([1., 2, 3]), Ah @ np.array([1., 2, 3]))
    assert str(A) == str(Ah)
    assert not A.has_canonical_format
    C = A.tocsc()
    assert C.nnz == 5   # duplicates kept, as SciPy's tocsc
    _close(C.toarray(), Ah.toarray())
    A.sum_duplicates()
    Ah.sum_duplicates()
    assert A.nnz == Ah.nnz == 4 and A.has_canonical_format
    np.testing.assert_array_equal(A.indices.get(), Ah.indices)
    _close(A.data, Ah.data)


def test_eliminate_zeros_and_counts(cp):
    h = _random_coo((6, 6), 0.5, np.float64, dups=3)
    h.data[::3] = 0
    S = _dev_coo(cp, h, "csr")
    hc = h.tocsr()
    assert S.count_nonzero() == hc.count_nonzero()
    def fresh():  # SciPy sums a COO matrix's duplicates in place on some calls
        f = _random_coo((6, 6), 0.5, np.float64, dups=3)
        f.data[::3] = 0
        return f

    for fmt in ("csr", "csc", "coo"):
        A = _dev_coo(cp, fresh(), fmt)
        for axis in (0, 1, -1):
            got, want = A.getnnz(axis=axis), fresh().asformat(fmt).getnnz(axis=axis)
            np.testing.assert_array_equal(got.get(), want)   # SciPy's dtype varies by format
            got = A.count_nonzero(axis=axis)
            want = fresh().asformat(fmt).count_nonzero(axis=axis)
            np.testing.assert_array_equal(got.get(), want)
        assert A.getnnz() == fresh().asformat(fmt).getnnz()
    with pytest.raises(NotImplementedError, match="DIA"):
        S.todia().getnnz(axis=0)
    S.eliminate_zeros()
    hc.eliminate_zeros()
    assert S.nnz == hc.nnz
    np.testing.assert_array_equal(S.indptr.get(), hc.indptr)
    C, Ch = _dev_coo(cp, fresh()), fresh()
    C.eliminate_zeros()
    Ch.eliminate_zeros()
    assert C.nnz == Ch.nnz
    np.testing.assert_array_equal(C.row.get(), Ch.row)


def test_tocoo_transpose_copy_astype(cp):
    h = _random_coo((5, 8), 0.4, np.float32)
    C = _dev_coo(cp, h, "csr")
    coo = C.tocoo()
    np.testing.assert_array_equal(coo.row.get(), h.tocsr().tocoo().row)
    assert C.T.format == "csc" and C.T.shape == (8, 5)
    _close(C.T.toarray(), h.T.toarray(), np.float32)
    _close(C.transpose().tocsr().toarray(), h.T.toarray(), np.float32)
    _close(_dev_coo(cp, h).T.toarray(), h.T.toarray(), np.float32)
    D = C.copy()
    D.data[...] = 0
    assert float(abs(C.data).sum()) > 0
    F = C.astype(np.float64)
    assert F.dtype == np.float64 and C.dtype == np.float32
    with pytest.raises(ValueError, match="axes"):
        C.transpose(axes=(0, 1))
    with pytest.raises(TypeError, match="ambiguous"):
        len(C)


@pytest.mark.parametrize("order", ["C", "F"])
def test_toarray_orders(cp, order):
    h = _random_coo((4, 6), 0.5, np.float64)
    for fmt in ("csr", "csc", "coo"):
        D = _dev_coo(cp, h, fmt).toarray(order=order)
        assert D.flags[f"{order}_CONTIGUOUS"]
        _close(D, h.toarray())


def test_get_round_trips_to_scipy(cp):
    h = _random_coo((4, 5), 0.5, np.complex64)
    for fmt in ("csr", "csc", "coo", "dia"):
        S = _dev_coo(cp, h, fmt)
        g = S.get()
        assert g.format == fmt and g.dtype == np.complex64
        np.testing.assert_allclose(g.toarray(), h.toarray(), rtol=1e-6)


# ---- products -------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "dia"])
def test_matvec_matmat(cp, dtype, fmt):
    h = _random_coo((11, 7), 0.3, dtype, dups=2)
    S = _dev_coo(cp, h, fmt)
    hh = h.tocsr()
    rng = np.random.default_rng(1)
    x = (rng.standard_normal(7) * 2).astype(dtype)
    X = (rng.standard_normal((7, 3)) * 2).astype(dtype)
    for got, want in ((S @ cp.asarray(x), hh @ x), (S.dot(cp.asarray(x)), hh.dot(x)),
                      (S * cp.asarray(x), hh * x), (S @ cp.asarray(X), hh @ X),
                      (S.matvec(cp.asarray(x)), hh @ x)):
        assert got.dtype == want.dtype, (got.dtype, want.dtype)
        assert got.shape == want.shape
        _close(got, want, dtype)


def test_mixed_dtype_products(cp):
    h = _random_coo((6, 5), 0.5, np.float32)
    S = _dev_coo(cp, h, "csr")
    for xd in (np.float64, np.int64, np.complex64):
        x = np.arange(5).astype(xd)
        got, want = S @ cp.asarray(x), h.tocsr() @ x
        assert got.dtype == want.dtype
        _close(got, want, np.float32)


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
def test_dense_op_sparse(cp, fmt):
    # ndarray's operators give way to sparse operands, so S's reflected methods run.
    rng = np.random.default_rng(2)
    h = _random_coo((6, 5), 0.5, np.float64)
    S, hs = _dev_coo(cp, h, fmt), h.asformat(fmt)
    Y, E = rng.standard_normal((3, 6)), rng.standard_normal((6, 5))
    for got, want in ((cp.asarray(Y[0]) @ S, Y[0] @ hs), (cp.asarray(Y) @ S, Y @ hs),
                      (cp.asarray(Y) * S, Y * hs), (cp.asarray(E) + S, E + hs),
                      (cp.asarray(E) - S, E - hs)):
        assert isinstance(got, cp.ndarray) and got.shape == want.shape
        _close(got, want)
    for op in ("__floordiv__", "__pow__", "__and__", "__mod__"):  # S has no reflected method
        with pytest.raises(TypeError, match="unsupported operand"):
            getattr(__import__("operator"), op)(cp.asarray(E), S)
    with pytest.raises(ValueError, match="dimension mismatch"):
        cp.asarray(Y.T) @ S


def test_product_errors(cp):
    S = _dev_coo(cp, _random_coo((4, 3), 0.5, np.float64), "csr")
    with pytest.raises(ValueError, match="dimension mismatch"):
        S @ cp.ones(4)
    with pytest.raises(ValueError, match="Scalar operands"):
        S @ 2
    with pytest.raises(TypeError, match="cuarray.asarray"):
        S @ np.ones(3)


@pytest.mark.parametrize("fa, fb", [("csr", "csr"), ("csc", "csc"), ("coo", "csr"),
                                    ("csr", "dia")])
def test_sparse_sparse_product(cp, fa, fb):
    ha = _random_coo((7, 6), 0.35, np.float64, seed=3, dups=2)
    hb = _random_coo((6, 8), 0.35, np.float64, seed=4)
    A, B = _dev_coo(cp, ha, fa), _dev_coo(cp, hb, fb)
    C = A @ B
    Ch = ha.tocsr() @ hb.tocsr()
    assert C.format == ("csc" if fa == "csc" else "csr") and C.shape == (7, 8)
    assert C.nnz == Ch.nnz
    _close(C.toarray(), Ch.toarray())
    P = A @ A.T
    _close(P.toarray(), (ha @ ha.T).toarray())
    _close((A * B).toarray(), Ch.toarray())


def test_matrix_power(cp):
    h = _random_coo((5, 5), 0.4, np.float64)
    A = _dev_coo(cp, h, "csr")
    _close((A ** 3).toarray(), np.linalg.matrix_power(h.toarray(), 3))
    _close((A ** 0).toarray(), np.eye(5))


# ---- arithmetic -----------------------------------------------------------------------------

def test_add_subtract(cp):
    ha = _random_coo((6, 7), 0.4, np.float32, seed=5)
    hb = _random_coo((6, 7), 0.4, np.float64, seed=6)
    A, B = _dev_coo(cp, ha, "csr"), _dev_coo(cp, hb, "csc")
    for got, want in ((A + B, ha.tocsr() + hb.tocsr()), (A - B, ha.tocsr() - hb.tocsr()),
                      (B + A, hb.tocsc() + ha.tocsr())):
        assert got.dtype == want.dtype and got.nnz == want.nnz and got.format == want.format
        _close(got.toarray(), want.toarray())
    assert (A - A).nnz == 0
    D = np.ones((6, 7))
    _close(A + cp.asarray(D), ha.toarray() + D, np.float32)
    _close(A - cp.asarray(D), ha.toarray() - D, np.float32)
    _close(A.__rsub__(cp.asarray(D)), D - ha.toarray(), np.float32)
    _close((A + 0).toarray(), ha.toarray(), np.float32)
    with pytest.raises(NotImplementedError, match="nonzero scalar"):
        A + 1
    with pytest.raises(ValueError, match="inconsistent shapes"):
        A + _dev_coo(cp, _random_coo((6, 6), 0.4, np.float64), "csr")


def test_scalar_arithmetic_and_dtypes(cp):
    h = _random_coo((4, 4), 0.5, np.float32)
    A = _dev_coo(cp, h, "csr")
    hc = h.tocsr()
    for got, want in ((A * 2.5, hc * 2.5), (2.5 * A, 2.5 * hc), (A / 2, hc / 2), (-A, -hc),
                      (A * np.float64(2), hc * np.float64(2)), (abs(A), abs(hc))):
        assert got.dtype == want.dtype, (got.dtype, want.dtype)
        _close(got.toarray(), want.toarray(), np.float32)
    I8 = _dev_coo(cp, _random_coo((3, 3), 0.5, np.int8), "csr")
    assert (I8 / 2).dtype == np.float64
    assert A.conj().dtype == np.float32
    Z = _dev_coo(cp, _random_coo((3, 3), 0.6, np.complex64), "csr")
    _close(Z.conj().toarray(), _random_coo((3, 3), 0.6, np.complex64).conj().toarray(),
           np.complex64)
    _close(Z.real.toarray(), _random_coo((3, 3), 0.6, np.complex64).real.toarray(),
           np.float32)


def test_multiply(cp):
    ha = _random_coo((5, 6), 0.5, np.float64, seed=7, dups=2)
    hb = _random_coo((5, 6), 0.5, np.float64, seed=8)
    A, B = _dev_coo(cp, ha, "csr"), _dev_coo(cp, hb, "csr")
    D = np.arange(30.).reshape(5, 6)
    _close(A.multiply(cp.asarray(D)).toarray(), ha.tocsr().multiply(D).toarray())
    _close(A.multiply(cp.asarray(D[0])).toarray(), ha.tocsr().multiply(D[0]).toarray())
    m = A.multiply(B)
    mh = ha.tocsr().multiply(hb.tocsr())
    assert m.nnz == mh.nnz
    _close(m.toarray(), mh.toarray())
    _close(A.multiply(3).toarray(), ha.toarray() * 3)


def test_power_elementwise(cp):
    h = _random_coo((4, 5), 0.5, np.float64, dups=2)
    A = _dev_coo(cp, h, "csr")
    _close(A.power(2).toarray(), h.tocsr().power(2).toarray())


# ---- reductions -----------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int8, np.bool_, np.complex64])
@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "dia"])
def test_sum_mean_diagonal(cp, dtype, fmt):
    def fresh():
        # SciPy sums a COO matrix's duplicates in place on some of these calls, which
        # changes later answers for bool: every comparison gets a new one.
        return _random_coo((6, 4), 0.5, dtype, dups=2).asformat(fmt)

    A = _dev_coo(cp, _random_coo((6, 4), 0.5, dtype, dups=2), fmt)
    for axis in (None, 0, 1, -1):
        got, want = A.sum(axis=axis), np.asarray(fresh().sum(axis=axis))
        assert got.dtype == want.dtype and got.shape == want.shape, (axis, got.dtype, want.dtype)
        _close(got, want, dtype)
    for axis in (None, 0, 1):
        got, want = A.mean(axis=axis), np.asarray(fresh().mean(axis=axis))
        assert got.dtype == want.dtype
        _close(got, want, dtype)
    for k in (0, 1, -2, 5):
        got, want = A.diagonal(k), fresh().diagonal(k)
        assert got.dtype == want.dtype
        _close(got, want, dtype)


# ---- DIA and construction helpers -----------------------------------------------------------

def test_dia_matrix(cp):
    from cuarray.scipy import sparse
    data = np.arange(12, dtype=np.float64).reshape(3, 4) + 1
    offsets = np.array([0, -1, 2])
    D = sparse.dia_matrix((cp.asarray(data), cp.asarray(offsets)), shape=(4, 4))
    Dh = ssp.dia_matrix((data, offsets), shape=(4, 4))
    assert D.nnz == Dh.nnz and repr(D) == repr(Dh) and str(D) == str(Dh)
    _close(D.toarray(), Dh.toarray())
    _close(D.T.toarray(), Dh.T.toarray())
    assert D.T.format == "dia" and D.T.nnz == Dh.T.nnz
    _close(D.tocsr().toarray(), Dh.toarray())
    _close(D @ cp.asarray(np.arange(4.)), Dh @ np.arange(4.))
    _close(D.diagonal(2), Dh.diagonal(2))
    _close(D.diagonal(1), Dh.diagonal(1))
    R = sparse.dia_matrix((cp.asarray(data[:, :3]), offsets), shape=(5, 3))
    Rh = ssp.dia_matrix((data[:, :3], offsets), shape=(5, 3))
    _close(R.toarray(), Rh.toarray())
    _close(R.T.toarray(), Rh.T.toarray())
    with pytest.raises(ValueError, match="duplicate"):
        sparse.dia_matrix((cp.asarray(data[:2]), [1, 1]), shape=(4, 4))
    with pytest.raises(ValueError, match="does not match"):
        sparse.dia_matrix((cp.asarray(data), [1, 2]), shape=(4, 4))
    with pytest.raises(ValueError, match="shape"):
        sparse.dia_matrix((cp.asarray(data), offsets))
    T = _dev_coo(cp, _random_coo((5, 4), 0.5, np.float64)).todia()
    Th = _random_coo((5, 4), 0.5, np.float64).todia()
    np.testing.assert_array_equal(T.offsets.get(), Th.offsets)
    _close(T.data, Th.data)


@pytest.mark.parametrize("fmt", [None, "csr", "csc", "coo", "dia"])
def test_eye_identity(cp, fmt):
    from cuarray.scipy import sparse
    for args in ((4,), (3, 5), (5, 3, 1), (4, 4, -2)):
        E, Eh = sparse.eye(*args, format=fmt), ssp.eye(*args, format=fmt)
        assert E.format == Eh.format and E.dtype == Eh.dtype and E.nnz == Eh.nnz
        assert repr(E) == repr(Eh)
        _close(E.toarray(), Eh.toarray())
    I, Ih = sparse.identity(3, dtype=np.int8, format=fmt), ssp.identity(3, dtype=np.int8,
                                                                            format=fmt)
    assert I.dtype == np.int8 and str(I) == str(Ih)


def test_diags(cp):
    from cuarray.scipy import sparse
    cases = [(([1., 2, 3],), {}), (([1., 2, 3], 1), {}), (([1.0, -2.0, 1.0], [-1, 0, 1]),
             {"shape": (4, 4)}), (([[1., 2, 3], [4, 5]], [0, 1]), {}),
             (([cp.asarray([1, 2, 3]), cp.asarray([4, 5])], [0, -1]), {"dtype": None})]
    for args, kw in cases:
        hargs = tuple([x.get() if hasattr(x, "get") else x for x in a] if isinstance(a, list)
                      else a for a in args)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            D, Dh = sparse.diags(*args, **kw), ssp.diags(*hargs, **kw)
        assert D.format == "dia" and D.dtype == Dh.dtype and D.shape == Dh.shape
        _close(D.toarray(), Dh.toarray())
    assert sparse.diags([1, 2], [0, 1], format="csr", dtype=None).format == "csr"
    with pytest.warns(FutureWarning, match="cast to float64"):
        assert sparse.diags([1, 2], [0, 1]).dtype == np.float64   # SciPy's default, warned
    with pytest.raises(ValueError, match="Different number"):
        sparse.diags([[1., 2], [3.]], [0])
    with pytest.raises(ValueError, match="does not agree"):
        sparse.diags([[1., 2]], [0], shape=(4, 4))


def test_random(cp):
    from cuarray.scipy import sparse
    R = sparse.random(20, 30, density=0.1, format="csr", dtype=np.float32, random_state=3)
    assert R.format == "csr" and R.shape == (20, 30) and R.dtype == np.float32
    assert R.nnz == 60
    v = R.data.get()
    assert ((v >= 0) & (v < 1)).all()
    assert sparse.random(5, 5, density=0).nnz == 0
    # CSR sums duplicates: k stored values mean k distinct positions (both sampling paths)
    assert sparse.random(10, 10, density=0.5, format="csr", random_state=1).nnz == 50
    assert sparse.random(300, 200, density=0.01, format="csr", random_state=2).nnz == 600
    assert sparse.random(4, 4, density=1.0, format="csr").nnz == 16
    C = sparse.random(6, 5, density=0.4, dtype=np.complex64, random_state=4)
    assert C.dtype == np.complex64 and C.format == "coo"
    with pytest.raises(ValueError, match="density"):
        sparse.random(3, 3, density=2)


# ---- printing -------------------------------------------------------------------------------

def test_printing_matches_scipy(cp):
    for shape, density, dtype in (((3, 3), 0.5, np.float32), ((60, 50), 0.1, np.float64),
                                  ((4, 4), 0.4, np.complex128), ((5, 5), 0.4, np.int64),
                                  ((3, 3), 0.4, np.bool_)):
        h = _random_coo(shape, density, dtype)
        for fmt in ("coo", "csr", "csc"):
            S = _dev_coo(cp, h, fmt)
            assert str(S) == str(h.asformat(fmt)), fmt
            assert repr(S) == repr(h.asformat(fmt))


# ---- sparse.linalg --------------------------------------------------------------------------

def _spd(n, seed=0):
    rng = np.random.default_rng(seed)
    M = ssp.random(n, n, density=0.2, random_state=seed) + ssp.eye(n) * n
    return (M + M.T).tocsr(), rng.standard_normal(n)


def test_cg(cp):
    from cuarray.scipy import sparse
    from cuarray.scipy.sparse import linalg as spla
    Ah, b = _spd(30)
    A = sparse.csr_matrix(Ah)
    x, info = spla.cg(A, cp.asarray(b), rtol=1e-10)
    assert info == 0 and x.shape == (30,) and x.dtype == np.float64
    np.testing.assert_allclose(x.get(), np.linalg.solve(Ah.toarray(), b), rtol=1e-7, atol=1e-9)
    x32, info = spla.cg(A.astype(np.float32), cp.asarray(b.astype(np.float32)), rtol=1e-5)
    assert info == 0 and x32.dtype == np.float32
    np.testing.assert_allclose(x32.get(), np.linalg.solve(Ah.toarray(), b), rtol=1e-3, atol=1e-4)
    x, info = spla.cg(A, cp.asarray(b), rtol=1e-10, maxiter=2)
    assert info == 2
    # preconditioner, x0 and callback
    Md = 1 / Ah.diagonal()
    M = spla.LinearOperator((30, 30), matvec=lambda v: cp.asarray(Md) * v, dtype=np.float64)
    seen = []
    x, info = spla.cg(A, cp.asarray(b), x0=cp.zeros(30), M=M, rtol=1e-10,
                      callback=lambda xk: seen.append(1))
    assert info == 0 and seen
    np.testing.assert_allclose(x.get(), np.linalg.solve(Ah.toarray(), b), rtol=1e-7, atol=1e-9)
    x, info = spla.cg(A, cp.zeros(30))
    assert info == 0 and float(abs(x).sum()) == 0
    with pytest.raises(ValueError, match="square"):
        spla.cg(sparse.csr_matrix((3, 4)), cp.ones(3))
    with pytest.raises(ValueError, match="incompatible"):
        spla.cg(A, cp.ones(4))


@pytest.mark.gpu
def test_cg_dense_operator(gpu_cp):
    cp = gpu_cp
    from cuarray.scipy.sparse import linalg as spla
    Ah, b = _spd(30)
    x, info = spla.cg(cp.asarray(Ah.toarray()), cp.asarray(b), rtol=1e-10)
    assert info == 0
    np.testing.assert_allclose(x.get(), np.linalg.solve(Ah.toarray(), b), rtol=1e-7, atol=1e-9)
    x, info = spla.cg(cp.asarray(Ah.toarray().astype(np.complex128)),
                      cp.asarray(b.astype(np.complex128)), rtol=1e-10)
    assert info == 0 and x.dtype == np.complex128
    np.testing.assert_allclose(x.get(), np.linalg.solve(Ah.toarray(), b), rtol=1e-7, atol=1e-9)


def test_linear_operator(cp):
    from cuarray.scipy import sparse
    from cuarray.scipy.sparse import linalg as spla
    D = np.arange(6.).reshape(2, 3)
    Op = spla.aslinearoperator(sparse.csr_matrix(cp.asarray(D)))
    assert Op.shape == (2, 3) and Op.dtype == np.float64
    _close(Op.matvec(cp.ones(3)), D @ np.ones(3))
    _close(Op.rmatvec(cp.ones(2)), D.T @ np.ones(2))
    _close(Op @ cp.ones((3, 2)), D @ np.ones((3, 2)))
    _close((Op * 2).matvec(cp.ones(3)), 2 * D @ np.ones(3))
    _close(Op.H.matvec(cp.ones(2)), D.T @ np.ones(2))
    S = sparse.csr_matrix(cp.asarray(D))
    L = spla.LinearOperator((2, 3), matvec=lambda v: S @ v)
    assert L.dtype == np.float64
    _close(L.matmat(cp.ones((3, 2))), D @ np.ones((3, 2)))
    with pytest.raises(NotImplementedError):
        L.rmatvec(cp.ones(2))
    with pytest.raises(ValueError, match="dimension mismatch"):
        L.matvec(cp.ones(4))


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
def test_spsolve(gpu_cp, dtype):
    cp = gpu_cp
    from cuarray.scipy import sparse
    from cuarray.scipy.sparse import linalg as spla
    Ah, b = _spd(25, seed=2)
    Ah = Ah.astype(dtype)
    b = b.astype(dtype)
    A = sparse.csr_matrix(Ah)
    x = spla.spsolve(A, cp.asarray(b))
    assert x.dtype == np.dtype(dtype)
    rtol = 1e-4 if np.dtype(dtype).itemsize <= 8 and dtype != np.float64 else 1e-10
    np.testing.assert_allclose(x.get(), np.linalg.solve(Ah.toarray(), b), rtol=rtol)
    B = np.stack([b, 2 * b], axis=1)
    X = spla.spsolve(A.tocsc(), cp.asarray(B))
    np.testing.assert_allclose(X.get(), np.linalg.solve(Ah.toarray(), B), rtol=rtol)
    S = sparse.csr_matrix(cp.asarray(np.array([[1., 2], [2, 4]], dtype=dtype)))
    with pytest.warns(spla.MatrixRankWarning):
        y = spla.spsolve(S, cp.ones(2, dtype=dtype))
    assert np.isnan(y.get()).all()
    # A larger singular system (column 5 = 2 * column 1), on which SciPy warns too.
    D = (ssp.random(8, 8, density=0.4, random_state=1) + ssp.eye(8)).toarray()
    D[:, 5] = 2 * D[:, 1]
    D = D.astype(dtype)
    with pytest.warns(sspla.MatrixRankWarning):
        sspla.spsolve(ssp.csc_matrix(D), np.ones(8, dtype))
    with pytest.warns(spla.MatrixRankWarning, match="Matrix is exactly singular"):
        y = spla.spsolve(sparse.csr_matrix(cp.asarray(D)), cp.ones(8, dtype=dtype))
    assert y.dtype == np.dtype(dtype) and np.isnan(y.get()).all()


@pytest.mark.gpu
@pytest.mark.parametrize("fmt", ["csr", "csc"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
def test_cusparse_matches_own_kernel(gpu_cp, fmt, dtype, monkeypatch):
    """The cuSPARSE path is taken (and agrees with cuarray's CSR kernel)."""
    cp = gpu_cp
    from cuarray._libs import cusparse
    from cuarray.scipy.sparse import _compressed
    h = _random_coo((300, 200), 0.05, dtype, dups=10)
    S = _dev_coo(cp, h, fmt)
    x = cp.asarray(np.random.default_rng(0).standard_normal(200).astype(dtype))
    X = cp.asarray(np.random.default_rng(1).standard_normal((200, 7)).astype(dtype))
    calls = []
    for name in ("spmv", "spmm"):
        real = getattr(cusparse, name)
        monkeypatch.setattr(cusparse, name,
                            lambda *a, _r=real, _n=name: (calls.append(_n), _r(*a))[1])
    y, Y = S @ x, S @ X
    assert calls == ["spmv", "spmm"] and not _compressed._cusparse_failed
    monkeypatch.setattr(cusparse, "supports", lambda *a: False)
    y2, Y2 = S @ x, S @ X
    _close(y, y2.get(), dtype)
    _close(Y, Y2.get(), dtype)
    _close(y, h.tocsr() @ x.get(), dtype)


@pytest.mark.gpu
def test_large_spmv(gpu_cp):
    cp = gpu_cp
    from cuarray.scipy import sparse
    R = sparse.random(20000, 15000, density=0.001, format="csr", random_state=0)
    x = cp.random.random(15000)
    y = R @ x
    np.testing.assert_allclose(y.get(), R.get() @ x.get(), rtol=1e-10)
