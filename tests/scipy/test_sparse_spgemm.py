"""Sparse @ sparse against SciPy, for int32 and int64 index arrays: the warp-per-row hash
kernels (float32/64, complex64/128), cuSPARSE's SpGEMM (the same dtypes, for rows too long
for a warp's table) and cuarray's general kernels (other dtypes). The `cp` tests also run
in the host emulation (cuSPARSE is not emulated)."""
import numpy as np
import pytest
import scipy.sparse as ssp

INEXACT = [np.float32, np.float64, np.complex64, np.complex128]


def _host(shape, density, dtype, seed):
    rng = np.random.default_rng(seed)
    h = ssp.random(*shape, density=density, format="csr", random_state=rng)
    h = h.astype(dtype)
    if np.dtype(dtype).kind == "c":
        h.data = h.data + 1j * rng.standard_normal(h.nnz).astype(dtype)
    elif np.dtype(dtype).kind in "iu":
        h.data = rng.integers(1, 5, h.nnz).astype(dtype)
    return h


def _dev(h, index=np.int32, fmt="csr"):
    from cuarray.scipy import sparse
    A = sparse.csr_matrix(h) if fmt == "csr" else sparse.csc_matrix(h)
    A.indices, A.indptr = A.indices.astype(index), A.indptr.astype(index)
    return A


def _check(C, want, dtype):
    """C (cuarray) equals SciPy's product `want`, structure included."""
    want = want.tocsr() if C.format == "csr" else want.tocsc()
    want.sort_indices()
    assert C.shape == want.shape and C.dtype == want.dtype
    assert C.has_canonical_format and C.nnz == want.nnz
    np.testing.assert_array_equal(C.indptr.get(), want.indptr)
    np.testing.assert_array_equal(C.indices.get(), want.indices)
    tol = 1e-5 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-12
    np.testing.assert_allclose(C.data.get(), want.data, rtol=tol, atol=tol)


@pytest.fixture
def spgemm_calls(monkeypatch):
    """The products cuSPARSE's SpGEMM computed (the hash kernels stood aside)."""
    from cuarray._libs import cusparse
    from cuarray.scipy.sparse import _spgemm_hash
    monkeypatch.setattr(_spgemm_hash, "matmul", lambda *args: None)
    calls = []
    real = cusparse.spgemm

    def spy(*args):
        out = real(*args)
        calls.append(1)    # counted once cuSPARSE has returned a product
        return out
    monkeypatch.setattr(cusparse, "spgemm", spy)
    return calls


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", INEXACT)
@pytest.mark.parametrize("index", [np.int32, np.int64])
def test_spgemm_on_cusparse(gpu_cp, dtype, index, spgemm_calls, monkeypatch):
    from cuarray.scipy.sparse import _spgemm
    a, b = _host((70, 45), 0.12, dtype, 1), _host((45, 60), 0.12, dtype, 2)
    A, B = _dev(a, index), _dev(b, np.int32)
    assert A.indices.dtype == index
    C = A @ B
    assert spgemm_calls and not _spgemm._cusparse_failed
    _check(C, a @ b, dtype)
    # the own kernels give the same matrix
    monkeypatch.setattr(_spgemm, "cusparse_matmul", lambda *args: None)
    _check(A @ B, a @ b, dtype)


@pytest.mark.gpu
def test_spgemm_cusparse_drops_zeros_sorts_and_keeps_formats(gpu_cp, spgemm_calls):
    x = ssp.csr_matrix(np.array([[1, 1], [0, 2]], dtype=np.float64))
    y = ssp.csr_matrix(np.array([[1, 0], [-1, 3]], dtype=np.float64))
    C = _dev(x) @ _dev(y)      # (0, 0) cancels exactly: SciPy stores no zero
    assert spgemm_calls and C.nnz == 3
    _check(C, x @ y, np.float64)
    # stored entries on both sides and no product at all
    e0 = ssp.csr_matrix(([1.0], ([0], [0])), shape=(2, 2))
    e1 = ssp.csr_matrix(([1.0], ([1], [1])), shape=(2, 2))
    E = _dev(e0) @ _dev(e1)
    assert E.nnz == 0 and E.shape == (2, 2)
    np.testing.assert_array_equal(E.indptr.get(), [0, 0, 0])
    # a zero stored in an operand
    z = ssp.csr_matrix((np.array([0.0, 2.0]), np.array([0, 1]), np.array([0, 1, 2])),
                       shape=(2, 2))
    _check(_dev(z) @ _dev(y), z @ y, np.float64)
    # rows stored unsorted in A
    a = _host((30, 30), 0.2, np.float64, 3)
    from cuarray.scipy import sparse
    import cuarray
    order = np.concatenate([np.arange(a.indptr[r], a.indptr[r + 1])[::-1]
                            for r in range(30)]).astype(np.int64)
    U = sparse.csr_matrix((cuarray.asarray(a.data[order]), cuarray.asarray(a.indices[order]),
                           cuarray.asarray(a.indptr)), shape=a.shape)
    _check(U @ _dev(a), a @ a, np.float64)
    # CSC operands give CSC, as SciPy
    C = _dev(a, fmt="csc") @ _dev(a, fmt="csc")
    assert C.format == "csc"
    _check(C, (a @ a).tocsc(), np.float64)


def _rows_of(rng, n, per):
    """An n x n SciPy CSR matrix with `per` random columns a row (duplicates summed)."""
    cols = np.sort(rng.choice(n, size=(n, per)), axis=1)
    a = ssp.csr_matrix((rng.standard_normal(n * per), cols.ravel(),
                        np.arange(0, n * per + 1, per)), shape=(n, n))
    a.sum_duplicates()
    return a


@pytest.mark.gpu
def test_spgemm_larger(gpu_cp, spgemm_calls):
    rng = np.random.default_rng(4)
    n, per = 3000, 16
    a = _rows_of(rng, n, per)
    _check(_dev(a) @ _dev(a.T.tocsr()), a @ a.T, np.float64)
    assert spgemm_calls


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.bool_])
@pytest.mark.parametrize("index", [np.int32, np.int64])
def test_spgemm_own_kernels(cp, dtype, index):
    a, b = _host((25, 18), 0.2, dtype, 5), _host((18, 22), 0.2, dtype, 6)
    C = _dev(a, index) @ _dev(b, index)
    want = (a @ b).tocsr()
    want.eliminate_zeros()
    _check(C, want, dtype)


@pytest.mark.gpu
def test_spgemm_matches_cupy(gpu_cp):
    cupy = pytest.importorskip("cupy")
    import cupyx.scipy.sparse as csp
    a, b = _host((200, 150), 0.05, np.float64, 7), _host((150, 120), 0.05, np.float64, 8)
    ours = (_dev(a) @ _dev(b)).toarray().get()
    theirs = (csp.csr_matrix(a) @ csp.csr_matrix(b)).toarray().get()
    np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-12)
    assert cupy is not None


@pytest.mark.parametrize("dtype", [np.float64, np.complex64])
def test_canonical_form_of_a_library_product(cp, dtype):
    """What `canonical` makes of SpGEMM's raw result: zeros dropped, rows sorted."""
    from cuarray.scipy import sparse
    from cuarray.scipy.sparse import _spgemm
    data = np.array([1, 2, 3, 0, 4, 5, 0], dtype=dtype)
    indices = np.array([0, 2, 3, 1, 0, 3, 2], dtype=np.int32)
    indptr = np.array([0, 2, 4, 4, 7], dtype=np.int32)   # row 1 unsorted, zeros in 1 and 3
    h = ssp.csr_matrix((data, indices, indptr), shape=(4, 4))
    C = sparse.csr_matrix((cp.asarray(data), cp.asarray(indices), cp.asarray(indptr)),
                          shape=(4, 4))
    assert C.nnz == 7
    _spgemm.canonical(C)
    want = h.copy()
    want.eliminate_zeros()
    _check(C, want, dtype)
    clean = ssp.csr_matrix(np.array([[1, 0, 2], [0, 0, 0], [3, 4, 0]], dtype=dtype))
    D = sparse.csr_matrix(clean)
    before = D.data
    _spgemm.canonical(D)
    assert D.data is before    # nothing to do: nothing rewritten
    _check(D, clean, dtype)


# ---- the warp-per-row hash kernels ------------------------------------------------------

@pytest.fixture
def hash_calls(monkeypatch):
    """The products the hash kernels formed (None answers not counted)."""
    from cuarray.scipy.sparse import _spgemm_hash
    calls = []
    real = _spgemm_hash.matmul

    def spy(*args):
        out = real(*args)
        if out is not None:
            calls.append(1)
        return out
    monkeypatch.setattr(_spgemm_hash, "matmul", spy)
    return calls


@pytest.mark.parametrize("dtype", INEXACT)
@pytest.mark.parametrize("index", [np.int32, np.int64])
def test_spgemm_hash_rows(cp, dtype, index, hash_calls):
    a, b = _host((40, 35), 0.15, dtype, 11), _host((35, 50), 0.15, dtype, 12)
    C = _dev(a, index) @ _dev(b, index)
    assert hash_calls
    _check(C, a @ b, dtype)


def test_spgemm_hash_long_rows_and_edge_cases(cp, hash_calls):
    from cuarray.scipy import sparse
    rng = np.random.default_rng(13)
    # rows of B longer than a warp, rows of A longer than a warp, an empty row in each
    a = ssp.random(20, 70, density=0.6, format="csr", random_state=rng)
    b = ssp.random(70, 90, density=0.5, format="csr", random_state=rng)
    a = a.tolil()
    a[3, :] = 0
    a = a.tocsr()
    b = b.tolil()
    b[5, :] = 0
    b = b.tocsr()
    a.eliminate_zeros()
    b.eliminate_zeros()
    assert np.diff(b.indptr).max() > 32 and np.diff(a.indptr).max() > 32
    _check(_dev(a) @ _dev(b), a @ b, np.float64)
    # float32 @ float64 gives float64, the float32 values widened before the product
    _check(_dev(a.astype(np.float32)) @ _dev(b), a.astype(np.float32) @ b, np.float64)
    # exact cancellation and a zero stored in an operand: no stored zeros in the product
    x = ssp.csr_matrix(np.array([[1, 1], [0, 2]], dtype=np.float64))
    y = ssp.csr_matrix(np.array([[1, 0], [-1, 3]], dtype=np.float64))
    z = ssp.csr_matrix((np.array([0.0, 2.0]), np.array([0, 1]), np.array([0, 1, 2])),
                       shape=(2, 2))
    C = _dev(x) @ _dev(y)
    assert C.nnz == 3
    _check(C, x @ y, np.float64)
    _check(_dev(z) @ _dev(y), z @ y, np.float64)
    # no product at all; no rows
    e0 = ssp.csr_matrix(([1.0], ([0], [0])), shape=(2, 2))
    e1 = ssp.csr_matrix(([1.0], ([1], [1])), shape=(2, 2))
    E = _dev(e0) @ _dev(e1)
    assert E.nnz == 0 and E.shape == (2, 2)
    np.testing.assert_array_equal(E.indptr.get(), [0, 0, 0])
    Z = _dev(ssp.csr_matrix((0, 4))) @ _dev(ssp.csr_matrix(np.eye(4)))
    assert Z.shape == (0, 4) and Z.nnz == 0
    # A's rows unsorted; B with repeated columns in a row (summed first, B left as it was)
    h = ssp.random(30, 30, density=0.2, format="csr", random_state=rng)
    order = np.concatenate([np.arange(h.indptr[r], h.indptr[r + 1])[::-1]
                            for r in range(30)]).astype(np.int64)
    U = sparse.csr_matrix((cp.asarray(h.data[order]), cp.asarray(h.indices[order]),
                           cp.asarray(h.indptr)), shape=h.shape)
    dup = ssp.csr_matrix((np.array([1.0, 2.0, 3.0, 4.0]), np.array([1, 1, 0, 2]),
                          np.array([0, 2, 3, 4])), shape=(3, 3))
    hd = ssp.random(30, 3, density=0.5, format="csr", random_state=rng)
    D = sparse.csr_matrix((cp.asarray(dup.data), cp.asarray(dup.indices),
                           cp.asarray(dup.indptr)), shape=(3, 3))
    _check(U @ _dev(h), h @ h, np.float64)
    _check(_dev(hd) @ D, hd @ dup, np.float64)
    assert D.nnz == 4       # the operand keeps its repeated entries
    # CSC operands give CSC
    C = _dev(h, fmt="csc") @ _dev(h, fmt="csc")
    assert C.format == "csc"
    _check(C, (h @ h).tocsc(), np.float64)
    assert hash_calls


def test_spgemm_hash_declines_long_rows(cp):
    """A row of more than 1024 products is left to the other paths."""
    from cuarray.scipy.sparse import _spgemm_hash
    a = ssp.csr_matrix(np.ones((2, 40)))
    b = ssp.csr_matrix(np.ones((40, 30)))      # 1200 products in each row
    A, B = _dev(a), _dev(b)
    assert _spgemm_hash.matmul(A, B, np.dtype(np.float64)) is None
    assert _spgemm_hash.matmul(A, B, np.dtype(np.int64)) is None   # not its dtypes
    small = _dev(ssp.csr_matrix(np.ones((2, 30))))
    parts = _spgemm_hash.matmul(small, _dev(ssp.csr_matrix(np.ones((30, 30)))),
                                np.dtype(np.float64))
    assert parts is not None
    np.testing.assert_array_equal(parts[2].get(), np.full(60, 30.0))


@pytest.mark.gpu
def test_spgemm_hash_bitwise_as_scipy(gpu_cp, hash_calls):
    """Each sum in the order of A's entries, products not fused into an fma: SciPy's
    float64 values to the bit."""
    rng = np.random.default_rng(14)
    n, per = 4000, 16
    a = _rows_of(rng, n, per)
    C = _dev(a) @ _dev(a.T.tocsr())
    want = a @ a.T
    want.sort_indices()
    assert hash_calls
    np.testing.assert_array_equal(C.indptr.get(), want.indptr)
    np.testing.assert_array_equal(C.indices.get(), want.indices)
    np.testing.assert_array_equal(C.data.get(), want.data)
