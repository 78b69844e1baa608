"""Sparse @ sparse on cuSPARSE's SpGEMM (float32/64, complex64/128) and on cuarray's own
kernels (other dtypes, or where cuSPARSE refuses), against SciPy, for int32 and int64
index arrays. The `cp` test also runs in the host emulation (own kernels there)."""
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
    """The products cuSPARSE's SpGEMM computed."""
    from cuarray._libs import cusparse
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


@pytest.mark.gpu
def test_spgemm_larger(gpu_cp, spgemm_calls):
    rng = np.random.default_rng(4)
    n, per = 3000, 16
    cols = np.sort(rng.choice(n, size=(n, per)), axis=1)
    a = ssp.csr_matrix((rng.standard_normal(n * per), cols.ravel(),
                        np.arange(0, n * per + 1, per)), shape=(n, n))
    a.sum_duplicates()
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
