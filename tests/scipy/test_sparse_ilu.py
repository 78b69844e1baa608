"""cuarray.scipy.sparse.linalg.spilu (ILU(0) on cuSPARSE) against SciPy and NumPy.

Where A has no fill-in (tridiagonal), ILU(0) is the exact LU and matches SciPy's
spilu(drop_tol=0); elsewhere (2-D Poisson) the factors are checked by ILU(0)'s defining
property and as preconditioners of gmres and cg. `cp` tests also run in the host
emulation; `gpu_cp` tests need cuSPARSE.
"""
import warnings

import numpy as np
import pytest
import scipy.linalg
import scipy.sparse as ssp
import scipy.sparse.linalg as sspla


def _tridiag(n, dtype, seed):
    """Diagonally dominant by columns, so LU with partial pivoting does not pivot."""
    rng = np.random.default_rng(seed)
    off = rng.uniform(-1, 1, size=(2, n - 1))
    diag = 4 + rng.uniform(0, 1, size=n)
    if np.dtype(dtype).kind == "c":
        off = off + 1j * rng.uniform(-0.5, 0.5, size=(2, n - 1))
    return ssp.diags([off[0], diag, off[1]], [-1, 0, 1], format="csc").astype(dtype)


def _poisson(m):
    """The 5-point Laplacian of an m x m grid (SPD)."""
    T = ssp.diags([-np.ones(m - 1), 4 * np.ones(m), -np.ones(m - 1)], [-1, 0, 1])
    S = ssp.diags([-np.ones(m - 1), -np.ones(m - 1)], [-1, 1])
    return (ssp.kron(ssp.eye(m), T) + ssp.kron(S, ssp.eye(m))).tocsc()


def _dev(h):
    from cuarray.scipy import sparse
    return sparse.csc_matrix(h)


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int32, np.int64, np.bool_,
                                   np.float16, np.float32, np.float64, np.complex64,
                                   np.complex128])
def test_factor_dtype_is_scipys(cp, dtype):
    # Host logic, under `cp` all the same: scipy.sparse.linalg's modules bind the host
    # emulation's stand-ins when first imported, as in every other test that imports them.
    from cuarray.scipy.sparse.linalg._spilu import _factor_dtype
    expect = {np.float16: np.float32}.get(dtype)
    if expect is None:
        h = ssp.csc_matrix(np.array([[1, 0], [1, 1]]).astype(dtype))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expect = sspla.spilu(h).L.dtype
    assert _factor_dtype(np.dtype(dtype)) == expect


def test_spilu_bad_input(cp):
    from cuarray.scipy import sparse
    from cuarray.scipy.sparse import linalg as spla
    with pytest.raises(TypeError, match="sparse"):
        spla.spilu(np.eye(3))
    with pytest.raises(TypeError, match="sparse"):
        spla.spilu(cp.eye(3))
    with pytest.raises(ValueError, match="square"):
        spla.spilu(sparse.csc_matrix(ssp.csc_matrix(np.ones((2, 3)))))
    with pytest.warns(sparse.SparseEfficiencyWarning), pytest.raises(ValueError):
        spla.spilu(sparse.csr_matrix(ssp.csr_matrix(np.ones((2, 3)))))


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128])
@pytest.mark.parametrize("index", [np.int32, np.int64])
def test_spilu_tridiagonal_is_exact_lu(gpu_cp, dtype, index):
    cp = gpu_cp
    from cuarray.scipy import sparse
    from cuarray.scipy.sparse import linalg as spla
    n = 40
    h = _tridiag(n, dtype, 1)
    A = sparse.csc_matrix(h)
    A.indices, A.indptr = A.indices.astype(index), A.indptr.astype(index)
    assert A.indices.dtype == index
    ilu = spla.spilu(A)
    assert isinstance(ilu, spla.SuperLU) and ilu.shape == (n, n)
    P, Lh, Uh = scipy.linalg.lu(h.toarray())
    np.testing.assert_array_equal(P, np.eye(n))
    tol = 2e-5 if dtype == np.float32 else 1e-12
    L, U = ilu.L, ilu.U
    assert L.format == U.format == "csc" and L.dtype == U.dtype == dtype
    np.testing.assert_allclose(L.toarray().get(), Lh, rtol=tol, atol=tol)
    np.testing.assert_allclose(U.toarray().get(), Uh, rtol=tol, atol=tol)
    assert ilu.nnz == L.nnz + U.nnz == (2 * n - 1) + (2 * n - 1)
    np.testing.assert_array_equal(ilu.perm_r.get(), np.arange(n))
    np.testing.assert_array_equal(ilu.perm_c.get(), np.arange(n))
    assert ilu.perm_r.dtype == ilu.perm_c.dtype == np.int32
    ref = sspla.spilu(h, drop_tol=0.0)
    b = np.random.default_rng(2).standard_normal((n, 3)).astype(dtype)
    for trans, M in (("N", h), ("T", h.T), ("H", h.conj().T)):
        x = ilu.solve(cp.asarray(b), trans=trans)
        assert x.dtype == dtype and x.shape == (n, 3)
        np.testing.assert_allclose(x.get(), ref.solve(b, trans=trans), rtol=10 * tol,
                                   atol=10 * tol)
        np.testing.assert_allclose(M.toarray() @ x.get(), b, rtol=10 * tol, atol=10 * tol)
        x1 = ilu.solve(cp.asarray(b[:, 1]), trans=trans)
        assert x1.shape == (n,)
        np.testing.assert_allclose(x1.get(), x.get()[:, 1], rtol=tol, atol=tol)


@pytest.mark.gpu
def test_spilu_poisson_is_ilu0(gpu_cp):
    from cuarray.scipy import sparse
    from cuarray.scipy.sparse import linalg as spla
    h = _poisson(12)
    with pytest.warns(sparse.SparseEfficiencyWarning):
        ilu = spla.spilu(sparse.csr_matrix(h.tocsr()))
    L, U = ilu.L.get().toarray(), ilu.U.get().toarray()
    dense = h.toarray()
    pattern = dense != 0
    assert np.all(np.triu(L, 1) == 0) and np.all(np.tril(U, -1) == 0)
    np.testing.assert_array_equal(np.diag(L), 1.0)
    assert not np.any((L != 0) & ~pattern & ~np.eye(len(L), dtype=bool))
    assert not np.any((U != 0) & ~pattern)
    # ILU(0): L U equals A on A's pattern (and differs elsewhere: the dropped fill-in).
    LU = L @ U
    np.testing.assert_allclose(LU[pattern], dense[pattern], rtol=1e-12, atol=1e-12)
    assert np.abs(LU[~pattern]).max() > 1e-3
    # A Python float64 factorization with the same rule gives the same numbers.
    ref = dense.copy()
    for i in range(1, len(ref)):
        for k in range(i):
            if pattern[i, k]:
                ref[i, k] /= ref[k, k]
                cols = pattern[i] & (np.arange(len(ref)) > k)
                ref[i, cols] -= ref[i, k] * ref[k, cols]
    np.testing.assert_allclose(np.tril(L, -1) + U, ref * pattern, rtol=1e-12, atol=1e-12)


@pytest.mark.gpu
@pytest.mark.parametrize("solver", ["gmres", "cg"])
def test_spilu_preconditions_krylov(gpu_cp, solver):
    cp = gpu_cp
    from cuarray.scipy.sparse import linalg as spla
    h = _poisson(24)
    n = h.shape[0]
    A = _dev(h)
    ilu = spla.spilu(A)
    M = spla.LinearOperator((n, n), matvec=ilu.solve, dtype=np.float64)
    b = cp.asarray(np.random.default_rng(3).standard_normal(n))
    counts = {}
    for name, pre in (("plain", None), ("ilu", M)):
        seen = []
        if solver == "gmres":
            x, info = spla.gmres(A, b, rtol=1e-8, restart=30, maxiter=50, M=pre,
                                 callback=seen.append, callback_type="pr_norm")
        else:
            x, info = spla.cg(A, b, rtol=1e-8, maxiter=1000, M=pre, callback=seen.append)
        assert info == 0
        np.testing.assert_allclose(h @ x.get(), b.get(), rtol=1e-6, atol=1e-6)
        counts[name] = len(seen)
    assert counts["ilu"] < 0.7 * counts["plain"], counts


@pytest.mark.gpu
def test_spilu_errors_and_dtypes(gpu_cp):
    cp = gpu_cp
    from cuarray.scipy.sparse import linalg as spla
    h = _tridiag(10, np.float32, 4)
    ilu = spla.spilu(_dev(h))
    with pytest.raises(ValueError, match="incompatible"):
        ilu.solve(cp.ones(11, dtype=np.float32))
    with pytest.raises(ValueError, match="trans"):
        ilu.solve(cp.ones(10, dtype=np.float32), trans="X")
    with pytest.raises(TypeError):       # SciPy: float64 does not cast safely to float32
        ilu.solve(cp.ones(10))
    with pytest.raises(TypeError, match="cuarray.asarray"):
        ilu.solve(np.ones(10, dtype=np.float32))
    assert ilu.solve(cp.ones(10, dtype=np.int8)).dtype == np.float32
    hi = ssp.csc_matrix(np.array([[4, 1, 0], [1, 4, 1], [0, 1, 4]], dtype=np.int64))
    x = spla.spilu(_dev(hi)).solve(cp.ones(3))
    assert x.dtype == np.float64
    np.testing.assert_allclose(x.get(), np.linalg.solve(hi.toarray(), np.ones(3)))
    with pytest.raises(RuntimeError, match="singular"):      # zero pivot, no pivoting
        spla.spilu(_dev(ssp.csc_matrix(np.array([[0.0, 1], [1, 0]]))))
    with pytest.raises(RuntimeError, match="singular"):      # missing diagonal entry
        spla.spilu(_dev(ssp.csc_matrix(np.array([[1.0, 0, 0], [0, 0, 1], [0, 1, 1]]))))
    with pytest.raises(RuntimeError, match="singular"):
        spla.spilu(_dev(ssp.csc_matrix((3, 3))))
    empty = spla.spilu(_dev(ssp.csc_matrix((0, 0))))
    assert empty.solve(cp.ones(0)).shape == (0,)


@pytest.mark.gpu
def test_spilu_matches_cupy_fill_factor_1(gpu_cp):
    cupy = pytest.importorskip("cupy")
    import cupyx.scipy.sparse as csp
    import cupyx.scipy.sparse.linalg as cspla
    cp = gpu_cp
    from cuarray.scipy.sparse import linalg as spla
    h = _poisson(10)
    b = np.random.default_rng(5).standard_normal(h.shape[0])
    ours = spla.spilu(_dev(h)).solve(cp.asarray(b)).get()
    theirs = cspla.spilu(csp.csc_matrix(h), fill_factor=1).solve(cupy.asarray(b)).get()
    np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("family", ["matrix", "array"])
def test_factors_of_the_combined_lu(cp, family):
    """L (unit lower) and U split from the one CSR matrix csrilu02 leaves, host-side logic
    only (no cuSPARSE call)."""
    from cuarray.scipy import sparse
    from cuarray.scipy.sparse.linalg._spilu import _IncompleteLU
    lu = np.array([[4.0, 1, 0, 0], [0.25, 3.75, 1, 0], [0, 0.5, 2, 1], [2, 0, 0.5, 5]])
    make = sparse.csr_matrix if family == "matrix" else sparse.csr_array
    ilu = _IncompleteLU(make(ssp.csr_matrix(lu)), family)
    L, U = ilu.L, ilu.U
    assert L.format == U.format == "csc" and ilu.shape == (4, 4)
    assert (family == "array") == isinstance(L, sparse.sparray)
    np.testing.assert_array_equal(L.toarray().get(), np.tril(lu, -1) + np.eye(4))
    np.testing.assert_array_equal(U.toarray().get(), np.triu(lu))
    assert ilu.nnz == L.nnz + U.nnz == 7 + 8
    np.testing.assert_array_equal(ilu.perm_r.get(), np.arange(4))
    assert ilu.perm_r.dtype == np.int32
    with pytest.raises(ValueError, match="trans"):
        ilu.solve(cp.ones(4), trans="C")
    with pytest.raises(ValueError, match="incompatible"):
        ilu.solve(cp.ones((5, 2)))


@pytest.mark.parametrize("trans", ["N", "T", "H"])
def test_solve_composes_the_triangles(cp, trans, monkeypatch):
    """solve's order of triangles and their parts for N, T and H, with a NumPy stand-in
    for cuSPARSE's SpSV (which the GPU tests run)."""
    import cuarray
    from cuarray._libs import cusparse
    from cuarray.scipy import sparse
    from cuarray.scipy.sparse.linalg._spilu import _IncompleteLU

    class StandIn:
        def __init__(self, shape, indptr, indices, data, lower, unit):
            T = ssp.csr_matrix((data.get(), indices.get(), indptr.get()), shape=shape)
            T = np.tril(T.toarray()) if lower else np.triu(T.toarray())
            if unit:
                np.fill_diagonal(T, 1)
            self.T = T

        def solve(self, x, y):
            y[...] = cuarray.asarray(np.linalg.solve(self.T, x.get()))

    monkeypatch.setattr(cusparse, "TriangularSolve", StandIn)
    lu = np.array([[4, 1, 0], [0.5, 3, 1j], [0, 0.25 - 1j, 2]])
    L, U = np.tril(lu, -1) + np.eye(3), np.triu(lu)
    A = L @ U
    ilu = _IncompleteLU(sparse.csr_matrix(ssp.csr_matrix(lu)), "matrix")
    b = np.array([[1.0, 2j], [-1, 0.5], [3, 1]])
    op = {"N": A, "T": A.T, "H": A.conj().T}[trans]
    x = ilu.solve(cp.asarray(b), trans=trans)
    np.testing.assert_allclose(x.get(), np.linalg.solve(op, b), rtol=1e-12)
    x1 = ilu.solve(cp.asarray(b[:, 0]), trans=trans)
    np.testing.assert_allclose(x1.get(), np.linalg.solve(op, b[:, 0]), rtol=1e-12)
    diag = _IncompleteLU(sparse.csr_matrix(ssp.diags([2.0, 4.0]).tocsr()), "matrix")
    np.testing.assert_allclose(diag.solve(cp.asarray([1.0, 1.0]), trans=trans).get(),
                               [0.5, 0.25])
